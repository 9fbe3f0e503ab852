"""One translation function for every string a player can see, on gettext.

Why gettext: it is the field's standard, translators' tools read ``.po``
files, and Python reads the compiled ``.mo`` files and their plural rules
(Russian has three forms) with no extra dependency.  Catalogs live in
``assets/i18n/<lang>/LC_MESSAGES/triangles.po`` (source) and ``.mo``
(compiled by ``python3 dev.py i18n``; a test checks they agree).

Message ids are dotted keys ("menu.new_game"), and English is a catalog like
the others, so changing an English text never orphans a translation.  A key
missing from the current language falls back to English; a string that is no
key at all is shown as it is (still formatted), so a typo shows up as visible
text instead of a crash.  Each catalog names its own language
("language.name"), which is what the language picker shows.  No pygame here.
"""

from __future__ import annotations

import gettext
import locale
import os
import threading
from pathlib import Path

from triangles.paths import assets_dir

__all__ = [
    "tr",
    "trn",
    "set_language",
    "language",
    "available_languages",
    "language_name",
    "detect_language",
    "catalog_dir",
    "FALLBACK",
    "DOMAIN",
]

FALLBACK = "en"
DOMAIN = "triangles"
#: bytes: the catalogs are about 25 kB; a file far larger is not one of ours
MAX_CATALOG_BYTES = 2_000_000

_lock = threading.Lock()
_translations: dict[str, gettext.NullTranslations] = {}
_language = FALLBACK


def catalog_dir() -> Path:
    """The gettext ``localedir``: one ``<lang>/LC_MESSAGES/triangles.{po,mo}`` per language."""
    return assets_dir() / "i18n"


def _load(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang``, falling back to English (then to the keys themselves)."""
    with _lock:
        t = _translations.get(lang)
        if t is not None:
            return t
    mo = catalog_dir() / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        if not mo.is_file() or mo.stat().st_size > MAX_CATALOG_BYTES:
            raise OSError(f"no usable catalog at {mo}")
        t = gettext.translation(DOMAIN, str(catalog_dir()), languages=[lang])
    except Exception:  # missing, huge or damaged (struct.error, UnicodeDecodeError…): English, never a crash
        t = gettext.NullTranslations()
    if lang != FALLBACK:
        t.add_fallback(_load(FALLBACK))
    with _lock:
        _translations[lang] = t
    return t


def set_language(lang: str) -> None:
    """Switch the language of every later ``tr`` call (an unknown code means English)."""
    global _language
    _language = lang if lang in available_languages() else FALLBACK


def language() -> str:
    return _language


def available_languages() -> list[str]:
    """Codes of the languages with a compiled catalog, English first."""
    folder = catalog_dir()
    found = sorted(p.name for p in folder.iterdir() if (p / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file())
    return sorted(found, key=lambda c: (c != FALLBACK, c))


def language_name(lang: str) -> str:
    """The language's name in that language ("Русский"), as its own catalog gives it."""
    name = _load(lang).gettext("language.name")
    return lang if name == "language.name" else name


def detect_language() -> str:
    """$TRIANGLES_LANG, else the system locale's language ("ru_RU.UTF-8" -> "ru"), else English.

    Only languages with a catalog are returned, so the result can be shown in the picker.
    """
    values = [os.environ.get(var, "") for var in ("TRIANGLES_LANG", "LC_ALL", "LC_MESSAGES", "LANG")]
    try:
        values.append(locale.getlocale()[0] or "")
    except ValueError:
        pass
    known = available_languages()
    for value in values:
        code = value.split(".")[0].split("_")[0].split("-")[0].lower()
        if code in known:
            return code
        if code and code not in ("c", "posix"):
            return FALLBACK
    return FALLBACK


def _format(text: str, fmt: dict[str, object]) -> str:
    """``text.format(**fmt)``; a translator's broken placeholder shows the text unformatted, never raises."""
    if not fmt:
        return text
    try:
        return text.format(**fmt)
    except (KeyError, IndexError, ValueError):
        return text


def tr(key: str, **fmt: object) -> str:
    """The text for ``key`` in the current language, formatted with ``fmt``."""
    return _format(_load(_language).gettext(key), fmt)


def trn(key: str, n: int, **fmt: object) -> str:
    """The plural form of ``key`` for the count ``n`` ("1 line", "2 lines"; three forms in Russian).

    ``n`` is also available to the text as ``{n}``.
    """
    text = _load(_language).ngettext(key, key, n)
    return _format(text, {"n": n, **fmt})
