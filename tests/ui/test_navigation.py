"""Scenes ask the navigator to go somewhere; they never build or reconfigure one another.

The walks here go through the navigator's paths that the other UI tests do
not: taking a line back from the final screen or the pause menu, and the New
game dialog remembering its choices for the session (and only the session).
The last tests read the sources: no scene imports another scene, and the UI
keeps no mutable state at module level.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pygame

from triangles.ui.scenes.final import FinalScene
from triangles.ui.scenes.new_game import NewGameScene
from triangles.ui.scenes.pause import PauseScene
from triangles.ui.scenes.play import PlayScene

UI = Path(__file__).resolve().parents[2] / "src" / "triangles" / "ui"
CTRL = pygame.KMOD_CTRL


def test_undo_on_the_final_screen_plays_on_and_redo_ends_it_again(launch):
    d = launch(preset="phone", stars=24, seed=41, mode="hotseat")
    play = d.play_scene()
    game = play.match.game
    rng = random.Random(42)
    while not game.is_over():
        play.play(*rng.choice(game.legal_moves()))
    d.frames(1)
    assert isinstance(d.scene, FinalScene)
    n = game.move_count
    d.key(pygame.K_z, CTRL)
    assert d.scene is play and game.move_count == n - 1 and not game.is_over()
    d.frames(2)
    assert d.scene is play, "the game goes on"
    d.key(pygame.K_y, CTRL)
    assert isinstance(d.scene, FinalScene) and game.move_count == n


def test_undo_on_the_pause_menu_closes_it_and_takes_the_line_back(launch):
    d = launch(preset="phone", stars=24, seed=43, mode="hotseat")
    play = d.play_scene()
    game = play.match.game
    for _ in range(2):
        d.draw_line(*game.legal_moves()[0])
    d.press("#menu")
    assert isinstance(d.scene, PauseScene)
    d.key(pygame.K_z, CTRL)
    assert d.scene is play and game.move_count == 1


def test_the_new_game_dialog_remembers_its_choices_for_the_session(launch):
    d = launch()
    d.press("#new_game")
    rows = d.scene.rows
    d.click(dict(rows["mode"].buttons)["hotseat"].rect.center)
    d.click(dict(d.scene.rows["stars"].buttons)[60].rect.center)
    d.click(dict(d.scene.rows["extra_turn"].buttons)[True].rect.center)
    d.press("#start")
    assert isinstance(d.scene, PlayScene)
    d.press("#menu")
    d.press("#new_game")
    assert isinstance(d.scene, NewGameScene)
    s = d.scene.s
    assert (s.mode, s.stars, s.extra_turn, s.seed) == ("hotseat", 60, True, None)
    # a typed seed is remembered too
    entry = d.scene.seed_entry
    assert entry is not None
    entry.set_text("77")
    d.press("#start")
    d.press("#menu")
    d.press("#new_game")
    assert isinstance(d.scene, NewGameScene) and d.scene.seed_entry is not None
    assert d.scene.s.seed == 77 and d.scene.seed_entry.get_text() == "77"
    # another window (a new session) starts from the last choices, kept in the settings; never the seed
    d2 = launch()
    d2.press("#new_game")
    s2 = d2.scene.s
    assert (s2.mode, s2.stars, s2.extra_turn, s2.seed) == ("hotseat", 60, True, None)


def _runtime_imports(path: Path) -> list[str]:
    """Modules imported by ``path`` outside ``if TYPE_CHECKING:`` blocks."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(a.name for a in node.names)
        for sub in ast.iter_child_nodes(node):
            visit(sub)

    visit(ast.parse(path.read_text(), filename=str(path)))
    return found


def test_scenes_do_not_import_one_another_or_the_app():
    shared = {"triangles.ui.scenes.base", "triangles.ui.scenes.backdrop"}
    for path in sorted((UI / "scenes").glob("*.py")):
        for module in _runtime_imports(path):
            if module.startswith("triangles.ui.scenes."):
                assert module in shared, f"{path.name} imports {module}"
            assert module not in ("triangles.ui.app", "triangles.ui.navigator"), f"{path.name} imports {module}"


def test_no_mutable_state_at_module_level():
    mutable = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
    for path in sorted(UI.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            assert not isinstance(node, ast.Global), f"{path.name}:{node.lineno} uses a global"
        for node in tree.body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [t.id for t in targets if isinstance(t, ast.Name)]
                if names == ["__all__"]:
                    continue
                value = node.value
                is_call = isinstance(value, ast.Call) and getattr(value.func, "id", "") in ("dict", "list", "set")
                assert not isinstance(value, mutable) and not is_call, f"{path.name}:{node.lineno} {names}"
