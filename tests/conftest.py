"""Test set-up shared by every test: headless SDL, a private home, English, artifacts folder.

The SDL variables must be set before anything imports pygame, which is why
they live at the top of the root conftest.  ``TRIANGLES_HOME`` points at a
temporary folder for the whole session (and each UI test gets its own), so
no test ever reads or writes the real player's saved games.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ["TRIANGLES_HOME"] = tempfile.mkdtemp(prefix="triangles-test-home-")
os.environ["TRIANGLES_LANG"] = "en"  # tests read the English texts, whatever the machine's locale

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
ARTIFACTS.mkdir(exist_ok=True)


@pytest.fixture
def artifacts() -> Path:
    """Where tests write screenshots and logs for people to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def triangles_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty user data folder for one test."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("TRIANGLES_HOME", str(home))
    return home


# -- driving the game window ---------------------------------------------------------


class Driver:
    """Drives a :class:`triangles.ui.app.App` frame by frame with posted events."""

    def __init__(self, app) -> None:
        import pygame

        self.app = app
        self.pg = pygame

    # frames
    def frames(self, n: int = 1, dt: float = 1 / 60) -> None:
        for _ in range(n):
            if not self.app.running:
                return
            self.app.step(dt)

    def until(self, cond, timeout: float = 5.0, dt: float = 1 / 60) -> bool:
        """Step frames (real time passes) until ``cond()`` or the timeout."""
        import time

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if cond():
                return True
            if not self.app.running:
                return bool(cond())
            self.app.step(dt)
            time.sleep(0.002)
        return bool(cond())

    # scenes
    @property
    def scene(self):
        return self.app.top

    def play_scene(self):
        from triangles.ui.scenes.play import PlayScene

        return self.app.find(PlayScene)

    # pointer and keys
    def post(self, type_: int, **kw) -> None:
        self.pg.event.post(self.pg.event.Event(type_, **kw))

    def move(self, pos) -> None:
        self.post(self.pg.MOUSEMOTION, pos=tuple(pos), rel=(0, 0), buttons=(0, 0, 0))

    def click(self, pos, button: int = 1) -> None:
        pos = (int(round(pos[0])), int(round(pos[1])))
        self.move(pos)
        self.frames(1)
        self.post(self.pg.MOUSEBUTTONDOWN, pos=pos, button=button)
        self.frames(1)
        self.post(self.pg.MOUSEBUTTONUP, pos=pos, button=button)
        self.frames(2)  # pygame_gui answers a click with an event handled next frame

    def star_pos(self, k: int) -> tuple[int, int]:
        x, y = self.play_scene().view.star_screen_pos(k)
        return int(round(x)), int(round(y))

    def click_star(self, k: int) -> None:
        self.click(self.star_pos(k))

    def draw_line(self, i: int, j: int) -> None:
        self.click_star(i)
        self.click_star(j)

    def drag_line(self, i: int, j: int) -> None:
        a, b = self.star_pos(i), self.star_pos(j)
        self.move(a)
        self.post(self.pg.MOUSEBUTTONDOWN, pos=a, button=1)
        self.frames(1)
        for t in (0.25, 0.5, 0.75, 1.0):
            p = (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t))
            self.post(self.pg.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0))
            self.frames(1)
        self.post(self.pg.MOUSEBUTTONUP, pos=b, button=1)
        self.frames(1)

    def key(self, key: int, mod: int = 0) -> None:
        self.post(self.pg.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)
        self.post(self.pg.KEYUP, key=key, mod=mod, unicode="", scancode=0)
        self.frames(1)

    def button(self, object_id: str):
        """The live pygame_gui button with ``#object_id`` (None if absent)."""
        for el in self.app.gui.get_sprite_group().sprites():
            ids = getattr(el, "object_ids", None) or []
            if ids and ids[-1] == object_id and el.alive() and el.visible:
                return el
        return None

    def press(self, object_id: str) -> None:
        b = self.button(object_id)
        assert b is not None, f"no button {object_id} on {type(self.scene).__name__}"
        self.click(b.rect.center)
        self.frames(1)

    def shot(self, name: str) -> Path:
        path = ARTIFACTS / name
        path.parent.mkdir(parents=True, exist_ok=True)  # "keep/phone-box-en.png": a fresh clone has no subfolders
        self.pg.image.save(self.app.surface, str(path))
        return path


@pytest.fixture
def launch(triangles_home):
    """``launch(**launch_options) -> Driver`` with an instant computer; closed after the test."""
    from triangles.launch import LaunchOptions
    from triangles.ui.app import App, AppConfig

    apps = []

    def start(config=None, **kw):
        kw.setdefault("print_ready", False)
        app = App(LaunchOptions(**kw), config or AppConfig(ai_delay=(0.0, 0.0)))
        apps.append(app)
        d = Driver(app)
        d.frames(2)
        return d

    yield start
    for app in apps:
        try:
            app.close()
        except Exception:
            pass


# -- text that does not fit ------------------------------------------------------------------


@pytest.fixture
def hud_cuts(monkeypatch) -> list[str]:
    """Every text the HUD had to shorten with "…" during the test (its own fitting, watched)."""
    from triangles.ui.hud import Hud

    cut: list[str] = []
    fit = Hud.fit

    def watched(font, text, max_w, color):
        if len(text) >= 2 and font.size(text)[0] > max_w:
            cut.append(f"{text} ({font.size(text)[0]} px > {max_w:.0f})")
        return fit(font, text, max_w, color)

    monkeypatch.setattr(Hud, "fit", staticmethod(watched))
    return cut


def buttons_cut(d: Driver) -> list[str]:
    """Live buttons whose text is wider than the button (pygame_gui clips it without a warning)."""
    out = []
    for el in d.app.gui.get_sprite_group().sprites():
        text = getattr(el, "text", None)
        if hasattr(el, "pressed") and el.alive() and el.visible and text and hasattr(el, "font"):
            if el.font.size(text)[0] > el.rect.width - 6:
                out.append(f"{text!r} ({el.font.size(text)[0]} px in {el.rect.width})")
    return out


@pytest.fixture
def cut_buttons():
    """:func:`buttons_cut`, for tests under tests/ui."""
    return buttons_cut
