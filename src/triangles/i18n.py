"""One translation function for every string a player can see.

Why one function: Russian, Malay and Vietnamese catalogs come later, and a
string that bypasses ``tr`` would stay English forever.  Keys are dotted names
("menu.new_game"); the English catalog ``assets/i18n/en.json`` holds the
text.  A key missing from the current language falls back to English, and a
string that is no key at all is used as it is (still formatted), so a typo
shows up as visible English instead of a crash.  No pygame here.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from triangles.paths import assets_dir

__all__ = ["tr", "set_language", "language", "available_languages", "detect_language", "FALLBACK"]

FALLBACK = "en"

_lock = threading.Lock()
_catalogs: dict[str, dict[str, str]] = {}
_language = FALLBACK


def _catalog(lang: str) -> dict[str, str]:
    """The flat key -> text table of ``lang`` ({} when missing or unreadable)."""
    with _lock:
        cat = _catalogs.get(lang)
        if cat is None:
            cat = {}
            path = assets_dir() / "i18n" / f"{lang}.json"
            try:
                data = json.loads(Path(path).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = {}
            if isinstance(data, dict):
                cat = {str(k): str(v) for k, v in data.items() if isinstance(v, str)}
            _catalogs[lang] = cat
        return cat


def set_language(lang: str) -> None:
    """Switch the language of every later ``tr`` call."""
    global _language
    _language = lang or FALLBACK


def language() -> str:
    return _language


def available_languages() -> list[str]:
    folder = assets_dir() / "i18n"
    return sorted(p.stem for p in folder.glob("*.json"))


def detect_language() -> str:
    """$TRIANGLES_LANG, else the system locale's language ("ru_RU.UTF-8" -> "ru"), else English.

    A language without a catalog yet simply shows English (see :func:`tr`).
    """
    for var in ("TRIANGLES_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        code = value.split(".")[0].split("_")[0].split("-")[0].lower()
        if code and code not in ("c", "posix"):
            return code
    return FALLBACK


def tr(key_or_text: str, **fmt: object) -> str:
    """The text for ``key_or_text`` in the current language, formatted with ``fmt``.

    Formatting errors (a translator dropped a placeholder) never raise: the
    unformatted text is returned instead.
    """
    text = _catalog(_language).get(key_or_text)
    if text is None and _language != FALLBACK:
        text = _catalog(FALLBACK).get(key_or_text)
    if text is None:
        text = key_or_text
    if fmt:
        try:
            return text.format(**fmt)
        except (KeyError, IndexError, ValueError):
            return text
    return text
