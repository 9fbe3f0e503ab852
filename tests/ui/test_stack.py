"""The scene stack keeps order and tells scenes when they are covered, revealed and closed."""

from __future__ import annotations

import pytest

from triangles.ui.stack import SceneStack


class FakeScene:
    def __init__(self, name: str, log: list[str], opaque: bool = True) -> None:
        self.name = name
        self.log = log
        self.opaque = opaque

    def enter(self) -> None:
        self.log.append(f"enter {self.name}")

    def leave(self) -> None:
        self.log.append(f"leave {self.name}")

    def closed(self) -> None:
        self.log.append(f"closed {self.name}")

    def __repr__(self) -> str:
        return self.name


class Overlay(FakeScene):
    def __init__(self, name: str, log: list[str]) -> None:
        super().__init__(name, log, opaque=False)


@pytest.fixture
def log() -> list[str]:
    return []


def test_push_covers_the_top_and_enters_the_new_one(log):
    stack: SceneStack[FakeScene] = SceneStack()
    a, b = FakeScene("a", log), FakeScene("b", log)
    stack.push(a)
    stack.push(b)
    assert stack.top is b and len(stack) == 2 and list(stack) == [a, b]
    assert log == ["enter a", "leave a", "enter b"]


def test_pop_closes_the_top_and_reveals_the_one_below(log):
    stack: SceneStack[FakeScene] = SceneStack()
    a, b = FakeScene("a", log), FakeScene("b", log)
    stack.push(a)
    stack.push(b)
    log.clear()
    stack.pop()
    assert stack.top is a
    assert log == ["leave b", "closed b", "enter a"]


def test_pop_a_scene_closes_everything_above_it_too(log):
    stack: SceneStack[FakeScene] = SceneStack()
    a, b, c = FakeScene("a", log), FakeScene("b", log), FakeScene("c", log)
    for s in (a, b, c):
        stack.push(s)
    log.clear()
    stack.pop(b)
    assert list(stack) == [a]
    assert log == ["leave c", "closed c", "leave b", "closed b", "enter a"]


def test_pop_of_a_scene_not_on_the_stack_changes_nothing(log):
    stack: SceneStack[FakeScene] = SceneStack()
    a = FakeScene("a", log)
    stack.push(a)
    log.clear()
    stack.pop(FakeScene("stranger", log))
    assert list(stack) == [a] and log == []
    empty: SceneStack[FakeScene] = SceneStack()
    empty.pop()
    assert empty.top is None


def test_replace_closes_every_scene_and_shows_one(log):
    stack: SceneStack[FakeScene] = SceneStack()
    a, b, c = FakeScene("a", log), FakeScene("b", log), FakeScene("c", log)
    stack.push(a)
    stack.push(b)
    log.clear()
    stack.replace(c)
    assert list(stack) == [c]
    assert log == ["leave b", "closed b", "leave a", "closed a", "enter c"]


def test_find_gives_the_topmost_scene_of_a_class(log):
    stack: SceneStack[FakeScene] = SceneStack()
    a, o1, o2 = FakeScene("a", log), Overlay("o1", log), Overlay("o2", log)
    for s in (a, o1, o2):
        stack.push(s)
    assert stack.find(Overlay) is o2
    assert stack.find(FakeScene) is o2
    assert stack.find(int) is None


def test_below_and_above_are_the_neighbours(log):
    stack: SceneStack[FakeScene] = SceneStack()
    a, b, c = FakeScene("a", log), FakeScene("b", log), FakeScene("c", log)
    for s in (a, b, c):
        stack.push(s)
    assert stack.below(c) is b and stack.below(b) is a and stack.below(a) is None
    assert stack.above(a) is b and stack.above(b) is c and stack.above(c) is None
    stranger = FakeScene("x", log)
    assert stack.below(stranger) is None and stack.above(stranger) is None
    assert b in stack and stranger not in stack


def test_visible_is_the_top_opaque_scene_and_the_overlays_over_it(log):
    stack: SceneStack[FakeScene] = SceneStack()
    assert stack.visible() == []
    menu, play, pause, msg = FakeScene("menu", log), FakeScene("play", log), Overlay("pause", log), Overlay("msg", log)
    for s in (menu, play, pause, msg):
        stack.push(s)
    assert stack.visible() == [play, pause, msg]
    only_overlay: SceneStack[FakeScene] = SceneStack()
    only_overlay.push(Overlay("o", log))
    assert len(only_overlay.visible()) == 1
