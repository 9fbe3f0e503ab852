"""The four catalogs: complete, no stale keys, placeholders and plural forms intact, compiled copies current."""

from __future__ import annotations

import ast
import gettext
import importlib.util
import re
import shutil
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from triangles import i18n
from triangles.i18n import DOMAIN, catalog_dir, trn

LANGS = ["en", "ru", "ms", "vi"]
SRC = Path(__file__).resolve().parents[1] / "src" / "triangles"
#: how many plural forms each language has (gettext's Plural-Forms)
NPLURALS = {"en": 2, "ru": 3, "ms": 1, "vi": 1}
#: keys built at run time from a vocabulary: prefix -> where the words come from (checked below)
DYNAMIC_PREFIXES = ("reason.", "record.reason.", "level.", "new.mode.", "preset.")


def po(lang: str) -> Catalog:
    with (catalog_dir() / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
        return read_po(f, locale=lang)


def entries(cat: Catalog) -> dict[str, tuple[str, ...]]:
    """key -> its translation(s) (one for a singular message, one per plural form)."""
    out: dict[str, tuple[str, ...]] = {}
    for m in cat:
        if not m.id:
            continue
        key = str(m.id[0] if isinstance(m.id, tuple | list) else m.id)
        texts = m.string if isinstance(m.string, tuple | list) else (m.string,)
        out[key] = tuple(str(t or "") for t in texts)
    return out


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def keys_used_in_source() -> set[str]:
    """Every string literal in the sources that looks like a catalog key ("menu.new_game")."""
    keys: set[str] = set()
    for f in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if re.fullmatch(r"[a-z_]+(\.[a-z_0-9]+)+", node.value):
                    keys.add(node.value)
    return keys


def keys_asked_for() -> set[str]:
    """The literal first arguments of every ``tr(...)`` / ``trn(...)`` call: these must exist."""
    keys: set[str] = set()
    for f in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("tr", "trn")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                keys.add(node.args[0].value)
    return keys


def test_every_language_has_a_catalog_and_names_itself():
    assert i18n.available_languages() == ["en", "ms", "ru", "vi"]
    names = {lang: i18n.language_name(lang) for lang in LANGS}
    assert names == {"en": "English", "ru": "Русский", "ms": "Bahasa Melayu", "vi": "Tiếng Việt"}


@pytest.mark.parametrize("lang", LANGS[1:])
def test_every_message_is_translated_and_no_catalog_has_stale_keys(lang):
    en, other = entries(po("en")), entries(po(lang))
    missing = sorted(set(en) - set(other))
    stale = sorted(set(other) - set(en))
    empty = sorted(k for k, v in other.items() if not all(s.strip() for s in v))
    assert not missing, f"{lang}: no translation for {missing}"
    assert not stale, f"{lang}: keys English does not have: {stale}"
    assert not empty, f"{lang}: empty translations for {empty}"


@pytest.mark.parametrize("lang", LANGS[1:])
def test_translations_keep_the_placeholders(lang):
    en, other = entries(po("en")), entries(po(lang))
    for key, texts in other.items():
        want = set().union(*(placeholders(t) for t in en[key]))
        for text in texts:
            got = placeholders(text)
            # a plural form may leave out {n} (e.g. Russian "одна линия"), never add or rename one
            assert got <= want | {"n"}, f"{lang} {key}: {got} not in {want}"
            assert got >= want - {"n"}, f"{lang} {key}: {text!r} drops {want - got}"


@pytest.mark.parametrize("lang", LANGS)
def test_plural_messages_have_every_form_of_the_language(lang):
    cat = po(lang)
    assert cat.num_plurals == NPLURALS[lang]
    plural_keys = {m.id[0] for m in po("en") if m.id and isinstance(m.id, tuple)}
    assert plural_keys, "English has plural messages"
    for m in cat:
        if m.id and isinstance(m.id, tuple):
            assert isinstance(m.string, tuple | list) and len(m.string) == NPLURALS[lang], m.id
    mine = {m.id[0] for m in cat if m.id and isinstance(m.id, tuple)}
    assert mine == plural_keys, f"{lang}: singular/plural kind differs from English"


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_catalog_matches_its_source(lang):
    """The .mo the game reads says exactly what the .po says (run ``python3 dev.py i18n`` after editing)."""
    folder = catalog_dir() / lang / "LC_MESSAGES"
    with (folder / f"{DOMAIN}.mo").open("rb") as f:
        mo = gettext.GNUTranslations(f)
    for key, texts in entries(po(lang)).items():
        if len(texts) == 1 and key not in {m.id[0] for m in po(lang) if isinstance(m.id, tuple)}:
            assert mo.gettext(key) == texts[0], f"{lang} {key}: stale .mo, run python3 dev.py i18n"
        else:
            # one count per form: Russian 1, 2, 5; the others 1 and 2
            samples = {"ru": [1, 2, 5]}.get(lang, [1, 2][: len(texts)])
            for form, n in enumerate(samples):
                assert mo.ngettext(key, key, n) == texts[form], f"{lang} {key}[{form}]: stale .mo"


@pytest.mark.parametrize("lang", LANGS)
def test_compiling_a_catalog_gives_the_committed_bytes(lang, tmp_path):
    """Compiling is reproducible: the same .po gives the committed .mo byte for byte, whatever
    the hour, so ``dev.py play`` (which recompiles a .po newer than its .mo, as a fresh clone's
    files can be) leaves the working tree as it found it."""
    spec = importlib.util.spec_from_file_location(
        "catalogs", Path(__file__).resolve().parents[1] / "tools" / "catalogs.py"
    )
    assert spec and spec.loader
    catalogs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(catalogs)
    folder = catalog_dir() / lang / "LC_MESSAGES"
    po_copy = tmp_path / lang / "LC_MESSAGES" / f"{DOMAIN}.po"  # the locale is read from the path
    po_copy.parent.mkdir(parents=True)
    shutil.copyfile(folder / f"{DOMAIN}.po", po_copy)
    mo = catalogs.compile_catalog(po_copy)
    assert mo.read_bytes() == (folder / f"{DOMAIN}.mo").read_bytes(), f"{lang}: run python3 dev.py i18n"


def test_russian_plural_forms_follow_the_numbers():
    old = i18n.language()
    try:
        i18n.set_language("ru")
        got = [trn("final.lines", n) for n in (1, 2, 5, 11, 21, 22, 25, 111)]
        assert [g.split()[-1] for g in got] == ["линия", "линии", "линий", "линий", "линия", "линии", "линий", "линий"]
        i18n.set_language("en")
        assert trn("final.lines", 1) == "1 line drawn" and trn("final.lines", 2) == "2 lines drawn"
    finally:
        i18n.set_language(old)


def test_every_key_in_the_catalog_is_used_and_every_used_key_exists():
    en = set(entries(po("en")))
    used = keys_used_in_source()
    missing = sorted(k for k in keys_asked_for() if k not in en)
    assert not missing, f"used in the code but not in en.po: {missing}"
    unused = sorted(k for k in en if k not in used and not k.startswith(DYNAMIC_PREFIXES) and k != "language.name")
    assert not unused, f"stale keys in en.po (no code uses them): {unused}"


def test_every_vocabulary_word_has_a_message():
    """Keys built from the vocabularies (reasons, levels, modes, presets) exist for every word."""
    from triangles.players import LEVEL_NAMES, MODES
    from triangles.presets import load_presets
    from triangles.rules import REASONS

    en = set(entries(po("en")))
    keys = [f"reason.{r}" for r in (*REASONS, "game_over")] + [f"record.reason.{r}" for r in (*REASONS, "game_over")]
    keys += [f"level.{lv}" for lv in LEVEL_NAMES] + [f"new.mode.{m}" for m in MODES]
    keys += [f"preset.{p}" for p in load_presets()]
    assert not [k for k in keys if k not in en]
    dynamic = {k for k in en if k.startswith(DYNAMIC_PREFIXES)}
    assert dynamic <= set(keys) | keys_used_in_source(), f"vocabulary keys nothing builds: {dynamic - set(keys)}"


def test_final_screens_use_the_original_documents_words():
    want = {
        "ru": ("Вы выиграли!", "Вы проиграли!", "Ничья!"),
        "ms": ("Anda menang!", "Anda kalah!", "Seri!"),
        "vi": ("Bạn đã thắng!", "Bạn đã thua!", "Hòa!"),
        "en": ("You won!", "You lost!", "Draw!"),
    }
    seeds = Path(__file__).resolve().parents[2] / "shared" / "seeds"
    for lang, words in want.items():
        cat = entries(po(lang))
        assert (cat["final.you_won"][0], cat["final.you_lost"][0], cat["final.draw"][0]) == words
        seed = seeds / f"rules-{lang}.txt"
        if seed.is_file():  # the words really are the documents' own
            text = seed.read_text(encoding="utf-8")
            assert all(w in text for w in words), lang
        assert cat["new.extra_turn"][0]


def test_unknown_language_and_missing_keys_fall_back_without_a_crash(monkeypatch):
    old = i18n.language()
    try:
        i18n.set_language("xx")
        assert i18n.language() == "en"
        assert i18n.tr("menu.new_game") == "New game"
        i18n.set_language("ru")
        assert i18n.tr("no.such.key") == "no.such.key"
        assert i18n.tr("final.wins", wrong="x") == "Победил(а) {name}!"  # a broken placeholder never raises
        monkeypatch.setenv("TRIANGLES_LANG", "vi_VN.UTF-8")
        assert i18n.detect_language() == "vi"
        monkeypatch.setenv("TRIANGLES_LANG", "de_DE.UTF-8")
        assert i18n.detect_language() == "en"
    finally:
        i18n.set_language(old)


@pytest.mark.parametrize(
    "lang,words",
    [
        ("ru", ("использование:", "ошибка: аргумент --level: неверный выбор", "нужны аргументы: file")),
        ("vi", ("cách dùng:", "lỗi: đối số --level: lựa chọn không hợp lệ", "cần các đối số sau: file")),
        ("ms", ("penggunaan:", "ralat: argumen --level: pilihan tidak sah", "argumen berikut diperlukan: file")),
    ],
)
def test_the_command_line_speaks_the_players_language(lang, words, monkeypatch, capsys):
    """Help, argparse's own errors and our own messages, all from the catalogs."""
    from triangles.cli import main

    monkeypatch.setenv("TRIANGLES_LANG", lang)
    try:
        with pytest.raises(SystemExit):
            main(["--help"])
        assert words[0] in capsys.readouterr().out
        for argv, want in ((["--level", "x"], words[1]), (["replay"], words[2])):
            with pytest.raises(SystemExit) as e:
                main(argv)
            assert e.value.code == 2
            err = capsys.readouterr().err
            assert want in err and len(err.strip().splitlines()) == 1, err
        assert main(["--stars", "7"]) == 2
        assert "24, 60, 120" in capsys.readouterr().err
    finally:
        i18n.set_language("en")


def test_replay_prints_its_summary_in_the_players_language(tmp_path, monkeypatch, capsys):
    from triangles.cli import main
    from triangles.record import GameRecord, save_record

    square = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]
    rec = GameRecord(stars=square, tolerance=3.0, moves=[(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)])
    save_record(rec, tmp_path / "g.json")
    monkeypatch.setenv("TRIANGLES_LANG", "ru")
    try:
        assert main(["replay", str(tmp_path / "g.json")]) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[0] == "Player 1: 2 треугольника" and out[1] == "Player 2: 0 треугольников"
        assert out[2] == "проведено линий: 5" and out[3] == "результат: победил(а) Player 1"
        rec.moves.append((0, 2))
        save_record(rec, tmp_path / "bad.json")
        assert main(["replay", str(tmp_path / "bad.json")]) == 2
        assert "Ход 6 (0–2) не разрешён: эта линия уже проведена." in capsys.readouterr().err
    finally:
        i18n.set_language("en")


# -- fonts and literals ------------------------------------------------------------------


def font_chars(name: str) -> set[int]:
    from fontTools.ttLib import TTFont

    from triangles.paths import assets_dir

    font = TTFont(str(assets_dir() / "fonts" / name))
    return set(font.getBestCmap())


@pytest.mark.parametrize("lang", LANGS)
def test_every_character_of_every_message_is_in_the_shipped_fonts(lang):
    """Cyrillic and Vietnamese stacked marks included: no tofu boxes in any language, regular or bold."""
    chars = {ch for texts in entries(po(lang)).values() for text in texts for ch in text if not ch.isspace()}
    assert len(chars) > 40
    for name in ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"):
        have = font_chars(name)
        missing = sorted(ch for ch in chars if ord(ch) not in have)
        assert not missing, f"{lang}: {name} lacks {missing}"


def test_the_interface_draws_with_the_shipped_fonts():
    """The HUD and every pygame_gui font block point at assets/fonts, whatever pygame_gui ships."""
    import json

    from triangles.paths import assets_dir
    from triangles.ui.hud import ui_font_path
    from triangles.ui.window import _use_shipped_font

    fonts = assets_dir() / "fonts"
    assert ui_font_path() == str(fonts / "NotoSans-Regular.ttf")
    assert ui_font_path(bold=True) == str(fonts / "NotoSans-Bold.ttf")
    assert (fonts / "OFL.txt").is_file() and "Open Font License" in (fonts / "OFL.txt").read_text()
    theme = json.loads((assets_dir() / "ui" / "theme.json").read_text())
    blocks = [b["font"] for b in theme.values() if isinstance(b, dict) and isinstance(b.get("font"), dict)]
    assert blocks
    for font in blocks:
        _use_shipped_font(font)
        assert font["regular_path"] == str(fonts / "NotoSans-Regular.ttf")
        assert font["bold_path"] == str(fonts / "NotoSans-Bold.ttf")


KEY = re.compile(r"[a-z_]+(\.[a-z_0-9]+)+")
#: the start of a key completed at run time (f"reason.{reason}")
KEY_PREFIX = re.compile(r"[a-z_]+(\.[a-z_0-9]+)*\.")
#: where player-visible text is made; strings here must come from the catalogs
SCANNED = [SRC / "ui", SRC / "cli.py", SRC / "match.py", SRC / "record.py", SRC / "saves.py"]
#: exceptions that carry messages for developers (asset authors, callers), never shown as they are
DEVELOPER_ERRORS = {"ValueError", "TypeError", "RuntimeError", "ThemeError", "KeyError", "AssertionError"}
#: literals that look like words but are not for players, with why
ALLOWED = {
    "TRIANGLES READY",  # the line test harnesses wait for on stdout
    "triangles ",  # program name before the version number
    "triangles replay: ",  # program name before a (translated) record message
    " wins",  # `replay --json`: machine-readable, the same in every language
}


def _is_key(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(KEY.fullmatch(node.value))


def _literals(path: Path) -> list[tuple[int, str]]:
    """String constants of ``path`` that could reach a player: not docstrings, keys, ids, or developer errors."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            if isinstance(body[0].value, ast.Constant):
                skip.add(id(body[0].value))  # docstring
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            func = node.exc.func
            if isinstance(func, ast.Name) and func.id in DEVELOPER_ERRORS:
                skip |= {id(n) for n in ast.walk(node.exc)}
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            skip |= {id(n) for n in ast.walk(node.value)}
        if isinstance(node, ast.FunctionDef) and node.name == "__repr__":
            skip |= {id(n) for n in ast.walk(node)}
        if isinstance(node, ast.Dict) and node.values and all(_is_key(v) for v in node.values):
            skip |= {id(k) for k in node.keys if k is not None}  # another library's msgids -> our keys
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            s = node.value
            if KEY.fullmatch(s) or KEY_PREFIX.fullmatch(s) or s.startswith(("#", "@")) or s in ALLOWED:
                continue
            if re.fullmatch(r"[A-Z][A-Z0-9_]*", s) or re.fullmatch(r"[\w\-]+\.(ttf|json|png|txt|po|mo)", s):
                continue  # environment variables, constants' names, file names
            if s.startswith("<"):
                continue  # markup around translated text
            if re.search(r"[^\W\d_]{2,}[\s!?…:,.]+[^\W\d_]{2,}", s) or re.fullmatch(r"[A-Z][a-z]+[!.…]?", s):
                out.append((node.lineno, s))
    return out


def test_no_player_visible_literal_bypasses_the_catalogs():
    files = [f for p in SCANNED for f in ([p] if p.is_file() else sorted(p.rglob("*.py")))]
    found = [f"{f.relative_to(SRC)}:{line}: {s!r}" for f in files for line, s in _literals(f)]
    assert not found, "English text outside the catalogs (use tr/trn):\n" + "\n".join(found)


def test_the_literal_scan_catches_english():
    """The scan above is not vacuous: it flags a label, a message and a button text."""
    import tempfile

    code = 'def f(scene):\n    scene.label(r, "Your turn")\n    scene.say("Game over!")\n    b("Undo")\n'
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "x.py"
        p.write_text(code)
        assert [s for _, s in _literals(p)] == ["Your turn", "Game over!", "Undo"]


def test_the_command_line_follows_the_language_chosen_in_settings(monkeypatch, capsys):
    from triangles.cli import main
    from triangles.settings import Settings, save_settings, settings_path

    s = Settings()
    s.language = "vi"
    save_settings(s)
    monkeypatch.setenv("TRIANGLES_LANG", "ru")  # the locale says Russian; the player chose Vietnamese
    try:
        assert main(["--stars", "7"]) == 2
        assert "lỗi" in capsys.readouterr().err
    finally:
        settings_path().unlink()
        i18n.set_language("en")
