"""Imports only point down the floors described in ARCHITECTURE.md.

Every ``triangles`` import in the sources (at the top of a module or inside a
function) is checked: a module may import its own floor or a lower one, the
computer player sees only the rules (not matches, records or saving), and
nothing below the window imports pygame.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "triangles"

#: floor of each top-level module or package of ``triangles``
FLOORS = {
    "jit": 0,
    "paths": 0,
    "scatter": 0,
    "players": 0,
    "kernels": 0,
    "files": 0,
    "rules": 1,
    "presets": 1,
    "i18n": 1,
    "file_messages": 1,
    "record": 2,
    "match": 2,
    "saves": 2,
    "ai": 2,
    "warmup": 2,
    "launch": 2,
    "tutorial": 2,
    "stats": 2,
    "settings": 2,
    "ui": 3,
    "cli": 4,
    "selftest": 4,
    "__main__": 4,
}
#: the AI reads positions, not sessions: it may not import these (OpenSpiel's algorithms see only the state)
AI_MAY_NOT = {"record", "match", "saves", "launch", "i18n", "presets"}


def unit(path: Path) -> str:
    rel = path.relative_to(SRC)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, top-level triangles unit) of every import of the game's own modules."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module != "triangles":
                names = [node.module]
            else:  # ``from triangles import jit`` names a module; ``__version__`` is the package's own
                names = [
                    f"triangles.{a.name}"
                    for a in node.names
                    if (SRC / a.name).exists() or (SRC / f"{a.name}.py").exists()
                ]
        else:
            continue
        out += [(node.lineno, n.split(".")[1]) for n in names if n.startswith("triangles.")]
    return out


def third_party(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def sources() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if p.name != "__init__.py" or p.parent != SRC)


def test_every_module_has_a_floor():
    assert {unit(p) for p in sources()} <= set(FLOORS), {unit(p) for p in sources()} - set(FLOORS)


def test_imports_point_down():
    bad = []
    for path in sources():
        me = unit(path)
        for line, other in imports(path):
            if other not in FLOORS:
                bad.append(f"{path.relative_to(SRC)}:{line} imports unknown triangles.{other}")
            elif FLOORS[other] > FLOORS[me]:
                bad.append(
                    f"{path.relative_to(SRC)}:{line} (floor {FLOORS[me]}) imports {other} (floor {FLOORS[other]})"
                )
            elif me == "ai" and other in AI_MAY_NOT:
                bad.append(f"{path.relative_to(SRC)}:{line}: the AI imports {other}")
    assert not bad, "\n".join(bad)


#: besides the window, only the headless self-test (it opens fonts and sounds to check the assets)
PYGAME_USERS = {"ui", "selftest"}


def test_only_the_window_uses_pygame():
    bad = [
        str(p.relative_to(SRC))
        for p in sources()
        if unit(p) not in PYGAME_USERS and third_party(p) & {"pygame", "pygame_gui"}
    ]
    assert not bad, bad


def private_names_of_the_rules() -> set[str]:
    """Private attributes and methods of Board, Game and LegalMoves (from rules.py's own source)."""
    names = set()
    for node in ast.walk(ast.parse((SRC / "rules.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            if node.attr.startswith("_") and not node.attr.startswith("__"):
                names.add(node.attr)
        elif isinstance(node, ast.FunctionDef) and node.name.startswith("_") and not node.name.startswith("__"):
            names.add(node.name)
    return names


def test_only_rules_py_touches_the_private_parts_of_board_and_game():
    """The AI, the UI, benchmarks and tests use the public API (OpenSpiel's algorithms see only the state API)."""
    private = private_names_of_the_rules()
    assert {"_S", "_D", "_legal_ids"} <= private
    root = SRC.parents[1]
    files = [p for p in SRC.rglob("*.py") if p.name != "rules.py"]
    files += sorted((root / "tests").rglob("*.py")) + sorted((root / "benchmarks").glob("*.py"))
    bad = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in private
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            ):
                bad.append(f"{path.relative_to(root)}:{node.lineno} .{node.attr}")
    assert not bad, "\n".join(bad)
