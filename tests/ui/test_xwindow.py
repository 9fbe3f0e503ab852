"""One game in a real X window (Xvfb): the window is findable, clicks draw a line.

Why: the headless tests use SDL's dummy driver, which has no real window,
mouse or window manager.  Here ``python -m triangles`` runs on its own X
server exactly as a player starts it; ``xdotool`` finds the window by its
class, clicks two stars (positions computed from the preset and the window
geometry, through the same :class:`Viewport` the game uses) and a screenshot
of the root window must show the new line in Player 1's colour.  Then the
window is resized and Player 2's line is drawn and checked the same way.
(Fullscreen needs a window manager, which Xvfb lacks; F11 is tested headless.)
"""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.xwindow

SEED = 5
STARS = 24
TOOLS = ("Xvfb", "xdotool")
IMPORT = "/usr/bin/import"  # ImageMagick's, not another "import" on PATH


def _missing() -> str | None:
    gone = [t for t in TOOLS if shutil.which(t) is None]
    if not os.path.exists(IMPORT):
        gone.append(IMPORT)
    return ", ".join(gone) if gone else None


def _free_display() -> int:
    for n in range(90, 200):
        if not os.path.exists(f"/tmp/.X{n}-lock") and not os.path.exists(f"/tmp/.X11-unix/X{n}"):
            return n
    raise RuntimeError("no free X display number")


def _xvfb(size: str):
    """Start Xvfb on a free display with one screen of ``size`` ("WxHx24"); (display, process) or a skip."""
    n = _free_display()
    proc = subprocess.Popen(
        ["Xvfb", f":{n}", "-screen", "0", size, "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    sock = Path(f"/tmp/.X11-unix/X{n}")
    end = time.monotonic() + 10
    while not sock.exists() and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.05)
    if not sock.exists():
        proc.kill()
        pytest.skip("Xvfb did not start")
    return f":{n}", proc


def _stop(*procs: subprocess.Popen) -> None:
    for p in procs:
        p.terminate()
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            p.kill()


@pytest.fixture
def xserver():
    missing = _missing()
    if missing:
        pytest.skip(f"needs a real X server and tools; missing: {missing}")
    display, proc = _xvfb("1280x1024x24")
    yield display
    _stop(proc)


def _lines(stream, q: queue.Queue) -> None:
    for line in iter(stream.readline, ""):
        q.put(line)


def _x(display: str, *args: str, timeout: float = 10) -> str:
    env = dict(os.environ, DISPLAY=display)
    out = subprocess.run(list(args), env=env, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, f"{args[0]} failed: {out.stderr.strip()}"
    return out.stdout


def _geometry(display: str, wid: str) -> tuple[int, int, int, int]:
    geo = dict(line.split("=", 1) for line in _x(display, "xdotool", "getwindowgeometry", "--shell", wid).split())
    x, y, w, h = (int(geo[k]) for k in ("X", "Y", "WIDTH", "HEIGHT"))
    return x, y, w, h


def _longest_legal(game, board) -> tuple[int, int]:
    """The longest legal line: the most pixels to check."""
    import numpy as np

    return max(game.legal_moves(), key=lambda m: float(np.hypot(*(board.stars[m[0]] - board.stars[m[1]]))))


def _draw_and_shoot(display: str, origin: tuple[int, int, int, int], vp, board, move, shot: Path):
    """Click both stars of ``move`` in the window at ``origin``, then screenshot the root window.

    Returns the screen pixels sampled along the line, as (r, g, b) rows.
    """
    import pygame

    wx, wy, _, wh = origin
    for s in move:
        x, y = vp.to_screen(*map(float, board.stars[s]))
        _x(display, "xdotool", "mousemove", "--sync", str(wx + round(x)), str(wy + round(y)))
        time.sleep(0.15)
        _x(display, "xdotool", "click", "1")
        time.sleep(0.25)
    # move the pointer away so no hover ring sits on the line
    _x(display, "xdotool", "mousemove", str(wx + 5), str(wy + wh - 5))
    time.sleep(0.6)
    _x(display, IMPORT, "-window", "root", str(shot), timeout=20)
    a = pygame.surfarray.array3d(pygame.image.load(str(shot))).astype(int)
    (x0, y0), (x1, y1) = (vp.to_screen(*map(float, board.stars[s])) for s in move)
    return [a[wx + round(x0 + (x1 - x0) * t), wy + round(y0 + (y1 - y0) * t)] for t in SAMPLES]


SAMPLES = (0.2, 0.3, 0.4, 0.6, 0.7, 0.8)


def _game_env(display: str, home: Path) -> dict[str, str]:
    env = dict(os.environ, DISPLAY=display, TRIANGLES_HOME=str(home))
    env.pop("SDL_VIDEODRIVER", None)
    env["SDL_AUDIODRIVER"] = "dummy"
    return env


def _start(cmd: list[str], env: dict[str, str]) -> subprocess.Popen:
    """Start the game and wait for its ready line (clicks sent before the first frame get lost)."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    q: queue.Queue = queue.Queue()
    threading.Thread(target=_lines, args=(proc.stdout, q), daemon=True).start()
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            if q.get(timeout=0.5).strip() == "TRIANGLES READY":
                return proc
        except queue.Empty:
            if proc.poll() is not None:
                raise AssertionError(f"the game exited: {proc.stderr.read() if proc.stderr else ''}") from None
    proc.kill()
    raise AssertionError("no TRIANGLES READY line")


def test_click_two_stars_in_a_real_window(xserver, tmp_path, artifacts):
    from triangles.presets import get_preset
    from triangles.rules import Game
    from triangles.ui.app import WINDOW_CLASS
    from triangles.ui.render.viewport import Viewport

    env = _game_env(xserver, tmp_path / "home")
    cmd = [
        sys.executable,
        "-m",
        "triangles",
        "--preset",
        "phone",
        "--stars",
        str(STARS),
        "--seed",
        str(SEED),
        "--mode",
        "hotseat",
    ]
    game_proc = _start(cmd, env)
    try:
        wid = _x(xserver, "xdotool", "search", "--sync", "--class", WINDOW_CLASS).split()[0]
        origin = _geometry(xserver, wid)

        preset = get_preset("phone")
        board = preset.make_board(STARS, SEED)
        game = Game(board)
        vp = Viewport(origin[2:], preset.window, preset.board)
        i, j = _longest_legal(game, board)
        shot = artifacts / "xwindow.png"
        pixels = _draw_and_shoot(xserver, origin, vp, board, (i, j), shot)
        votes = sum(1 for r, g, b in pixels if r > b + 40 and r > 120)
        assert votes >= len(SAMPLES) - 2, f"line {i}-{j} is not in Player 1's colour in {shot}"
        game.play(i, j)

        # resize the real window (Xvfb has no window manager, so F11 is tested headless instead):
        # the scene letterboxes and Player 2's line is drawn in the new geometry
        _x(xserver, "xdotool", "windowsize", "--sync", wid, "900", "700")
        time.sleep(0.8)
        origin = _geometry(xserver, wid)
        assert origin[2:] == (900, 700), f"not resized: {origin[2]}x{origin[3]}"
        vp = Viewport(origin[2:], preset.window, preset.board)
        a2, b2 = _longest_legal(game, board)
        shot2 = artifacts / "xwindow-resized.png"
        pixels = _draw_and_shoot(xserver, origin, vp, board, (a2, b2), shot2)
        votes = sum(1 for r, g, b in pixels if b > r + 40 and b > 120)
        assert votes >= len(SAMPLES) - 2, f"line {a2}-{b2} is not in Player 2's colour in {shot2}"

        # closing the window (SIGTERM arrives as a quit event) saves the game in progress
        game_proc.send_signal(signal.SIGTERM)
        assert game_proc.wait(10) == 0
        from triangles.record import load_record

        rec = load_record(tmp_path / "home" / "current-game.json")
        assert rec.moves == [(min(i, j), max(i, j)), (min(a2, b2), max(a2, b2))]
    finally:
        if game_proc.poll() is None:
            game_proc.kill()
            game_proc.wait(5)


def test_the_main_menu_in_each_language_in_a_real_window(xserver, tmp_path, artifacts):
    """First start follows the system locale: four languages, four different menus, all drawn."""
    import numpy as np
    import pygame

    from triangles.ui.app import WINDOW_CLASS

    menus: dict[str, np.ndarray] = {}
    for lang in ("en", "ru", "ms", "vi"):
        env = _game_env(xserver, tmp_path / f"home-{lang}")  # a first start each time
        env.pop("TRIANGLES_LANG", None)
        env.update(LANG=f"{lang}_XX.UTF-8", LC_ALL="", LC_MESSAGES="")
        proc = _start([sys.executable, "-m", "triangles"], env)
        try:
            wid = _x(xserver, "xdotool", "search", "--sync", "--class", WINDOW_CLASS).split()[0]
            time.sleep(0.8)  # a few frames after the first one
            shot = artifacts / f"xwindow-menu-{lang}.png"
            _x(xserver, IMPORT, "-window", wid, str(shot), timeout=20)
            img = pygame.surfarray.array3d(pygame.image.load(str(shot))).astype(int)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        w, h = img.shape[:2]
        # the button column: the middle of the window, below the title
        column = img[w // 4 : 3 * w // 4, h // 3 : 9 * h // 10]
        bright = (column.min(axis=2) > 200).sum()  # white text on the dark buttons
        assert bright > 300, f"{lang}: no menu text drawn in {shot}"
        menus[lang] = column
    for lang in ("ru", "ms", "vi"):
        assert menus[lang].shape == menus["en"].shape
        differ = (np.abs(menus[lang] - menus["en"]).sum(axis=2) > 60).sum()
        assert differ > 500, f"{lang}: the main menu looks the same as English"


@pytest.fixture
def xserver_wm():
    """Xvfb (1600x1000) with a small window manager (openbox), which fullscreen needs."""
    missing = _missing() or (None if shutil.which("openbox") else "openbox")
    if missing:
        pytest.skip(f"needs a real X server, a window manager and tools; missing: {missing}")
    display, xvfb = _xvfb("1600x1000x24")
    env = dict(os.environ, DISPLAY=display)
    wm = subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # ready once it announces _NET_ACTIVE_WINDOW, which `xdotool windowactivate` checks first
    # (a fixed wait lost that race on a loaded machine)
    end = time.monotonic() + 15
    while True:
        try:
            probe = subprocess.run(["xdotool", "getactivewindow"], env=env, capture_output=True, text=True, timeout=5)
            said = probe.stderr
            if "claims not to support" not in said:
                break
        except subprocess.TimeoutExpired:
            said = "xdotool getactivewindow did not answer within 5 s"  # not ready yet: ask again
        if time.monotonic() > end or wm.poll() is not None:
            _stop(wm, xvfb)
            pytest.fail(f"openbox did not take over the display within 15 s: {said.strip()}")
        time.sleep(0.05)
    yield display
    _stop(wm, xvfb)


@pytest.mark.parametrize("preset,stars", [("phone", 24), ("tablet", 80)])
def test_fullscreen_under_a_window_manager_shows_everything_and_comes_back(
    xserver_wm, tmp_path, artifacts, preset, stars
):
    """F11 covers the whole screen with the whole board and HUD; F11 again restores the same size and place."""
    import pygame

    from triangles.presets import get_preset
    from triangles.ui.app import WINDOW_CLASS
    from triangles.ui.render.viewport import Viewport

    env = _game_env(xserver_wm, tmp_path / "home")
    cmd = [sys.executable, "-m", "triangles", "--preset", preset, "--stars", str(stars), "--seed", "5"]
    proc = _start([*cmd, "--mode", "hotseat"], env)
    try:
        wid = _x(xserver_wm, "xdotool", "search", "--sync", "--class", WINDOW_CLASS).split()[0]
        time.sleep(0.5)
        before = _geometry(xserver_wm, wid)
        _x(xserver_wm, "xdotool", "windowactivate", "--sync", wid)
        _x(xserver_wm, "xdotool", "key", "F11")
        time.sleep(1.5)
        full = _geometry(xserver_wm, wid)
        assert full == (0, 0, 1600, 1000), f"fullscreen geometry {full}"
        shot = artifacts / f"xwindow-fullscreen-{preset}.png"
        _x(xserver_wm, IMPORT, "-window", "root", str(shot), timeout=20)
        img = pygame.surfarray.array3d(pygame.image.load(str(shot))).astype(int)
        p = get_preset(preset)
        board = p.make_board(stars, 5)
        vp = Viewport((1600, 1000), p.window, p.board)
        lum = img.sum(axis=2) / 3
        lit = 0
        for x, y in board.stars:
            sx, sy = vp.to_screen(float(x), float(y))
            assert 0 <= sx < 1600 and 0 <= sy < 1000, "a star is off the screen"
            patch = lum[max(0, round(sx) - 2) : round(sx) + 3, max(0, round(sy) - 2) : round(sy) + 3]
            lit += patch.max() > 170
        assert lit >= 0.9 * len(board.stars), f"only {lit} of {len(board.stars)} stars visible in {shot}"
        top = img[:, : round(vp.to_screen(0, p.board[1])[1])]
        orange = ((top[..., 0] > 200) & (top[..., 1] > 60) & (top[..., 1] < 150) & (top[..., 2] < 110)).sum()
        assert orange > 200, f"Player 1's HUD card is not visible in {shot}"
        _x(xserver_wm, "xdotool", "key", "F11")
        time.sleep(1.5)
        after = _geometry(xserver_wm, wid)
        assert after == before, f"restored to {after}, was {before}"
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_each_theme_in_a_real_window(xserver, tmp_path, artifacts):
    """The theme chosen in Settings draws the real window: a light sheet for Paper, a dark sky otherwise."""
    import pygame

    from triangles.settings import Settings, save_settings
    from triangles.ui.app import WINDOW_CLASS

    means: dict[str, float] = {}
    for theme in ("nebula", "paper", "high_contrast"):
        home = tmp_path / f"home-{theme}"
        env = _game_env(xserver, home)
        s = Settings()
        s.theme = theme
        s.howto_offered = True
        env_home = os.environ.get("TRIANGLES_HOME")
        os.environ["TRIANGLES_HOME"] = str(home)
        try:
            save_settings(s)
        finally:
            if env_home is not None:
                os.environ["TRIANGLES_HOME"] = env_home
        cmd = [sys.executable, "-m", "triangles", "--preset", "phone", "--stars", "24", "--seed", "5"]
        proc = _start([*cmd, "--mode", "hotseat"], env)
        try:
            wid = _x(xserver, "xdotool", "search", "--sync", "--class", WINDOW_CLASS).split()[0]
            time.sleep(0.8)
            shot = artifacts / f"xwindow-theme-{theme}.png"
            _x(xserver, IMPORT, "-window", wid, str(shot), timeout=20)
            img = pygame.surfarray.array3d(pygame.image.load(str(shot))).astype(int)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        w, h = img.shape[:2]
        board = img[:, h // 5 : 4 * h // 5]
        means[theme] = float(board.mean())
    assert means["paper"] > 150, means  # ink on paper
    assert means["nebula"] < 90 and means["high_contrast"] < 90, means
    assert abs(means["nebula"] - means["high_contrast"]) > 2, means  # the nebula clouds against plain black


def _scripted(script: str, env: dict[str, str]) -> subprocess.Popen:
    """Run ``script`` (the game driven from inside, in the real window); it prints a line at each stage
    and waits for a line on stdin before the next."""
    return subprocess.Popen(
        [sys.executable, "-c", script],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


GROW_SCRIPT = r"""
import sys, time, warnings
import pygame
from triangles.launch import LaunchOptions
from triangles.match import MatchSettings
from triangles.ui.app import App

app = App(LaunchOptions(preset="phone", mode="hotseat", stars=24, seed=3))
for _ in range(20):
    app.step(1 / 60)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    win = pygame.Window.from_display_module()
win.position = (850, 40)  # the player put the phone window near the right edge
for _ in range(30):
    app.step(1 / 60)
    time.sleep(0.01)
print("MOVED", flush=True)
sys.stdin.readline()
app.nav.start_new(MatchSettings(mode="hotseat", preset="tablet", stars=80, seed=3))  # New game -> Tablet -> Start
for _ in range(40):
    app.step(1 / 60)
    time.sleep(0.01)
print("GROWN", flush=True)
sys.stdin.readline()
app.close()
"""


def test_a_window_that_grows_for_the_tablet_stays_on_the_screen(xserver, tmp_path, artifacts):
    """A phone window near the right edge of a real 1280x1024 screen starts a tablet game: it ends on the screen.

    No window manager here: openbox would pull the window back itself and hide the bug.
    """
    import pygame

    from triangles.ui.app import WINDOW_CLASS

    env = _game_env(xserver, tmp_path / "home")
    proc = _scripted(GROW_SCRIPT, env)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        assert proc.stdout.readline().strip() == "MOVED", proc.stderr.read() if proc.stderr else ""
        wid = _x(xserver, "xdotool", "search", "--sync", "--class", WINDOW_CLASS).split()[0]
        x, y, w, h = _geometry(xserver, wid)
        assert x + w > 1100 and h > w, f"the phone window is not near the right edge: {(x, y, w, h)}"
        proc.stdin.write("\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == "GROWN", proc.stderr.read() if proc.stderr else ""
        time.sleep(0.8)
        x, y, w, h = _geometry(xserver, wid)
        shot = artifacts / "xwindow-grown-for-tablet.png"
        _x(xserver, IMPORT, "-window", "root", str(shot), timeout=20)
        assert w > h, f"the window did not grow for the tablet: {w}x{h}"
        assert x >= 0 and y >= 0 and x + w <= 1280 and y + h <= 1024, f"off the screen: {(x, y, w, h)} ({shot})"
        img = pygame.surfarray.array3d(pygame.image.load(str(shot))).astype(int)
        card = img[x + 3 * w // 4 : x + w, y : y + h // 9]
        blue = ((card[..., 2] > 180) & (card[..., 0] < 120)).sum()
        assert blue > 30, f"Player 2's card (top right) is not on the screen in {shot}"
        proc.stdin.write("\n")
        proc.stdin.flush()
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


CLEARANCE_SCRIPT = r"""
import json, sys, time
import numpy as np
from triangles.launch import LaunchOptions
from triangles.ui.app import App

app = App(LaunchOptions(preset="phone", mode="hotseat", stars=24, seed=11))
play = app.nav.current_match() and app.stack.top
game = play.match.game
stars = game.board.stars

def gap(move):
    # the legal line's distance to the nearest other star, and that star
    (i, j), best = move, (1e9, -1)
    a, b = stars[i], stars[j]
    d = b - a
    for s in range(len(stars)):
        if s in (i, j):
            continue
        t = min(1.0, max(0.0, float(np.dot(stars[s] - a, d) / np.dot(d, d))))
        dist = float(np.hypot(*(a + t * d - stars[s])))
        if dist < best[0]:
            best = (dist, s)
    return best

move = min(game.legal_moves(), key=lambda m: gap(m)[0])
dist, s = gap(move)
for _ in range(20):
    app.step(1 / 60)
print("BEFORE", flush=True)
sys.stdin.readline()
play.play(*move)
for _ in range(40):  # past the line's draw-in
    app.step(1 / 60)
    time.sleep(0.01)
view, theme = play.view, play.view.theme
i, j = move
a, b, c = view.star_screen_pos(i), view.star_screen_pos(j), view.star_screen_pos(s)
print("AFTER " + json.dumps({"a": a, "b": b, "star": c, "dist_points": dist, "scale": view.viewport.scale,
    "core": theme.stars.radius, "width": theme.line_width(play.match.game.lines[-1][1])}), flush=True)
sys.stdin.readline()
app.close()
"""


def test_the_legal_line_closest_to_a_star_visibly_clears_it_in_a_real_window(xserver, tmp_path, artifacts):
    """On a real screen, the allowed line that passes nearest another star leaves that star's core
    untouched and a strip of untouched pixels between the core and the line."""
    import json

    import numpy as np
    import pygame

    from triangles.ui.app import WINDOW_CLASS
    from triangles.ui.render.sprites import line_px, star_core_px

    env = _game_env(xserver, tmp_path / "home")
    proc = _scripted(CLEARANCE_SCRIPT, env)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        assert proc.stdout.readline().strip() == "BEFORE", proc.stderr.read() if proc.stderr else ""
        wid = _x(xserver, "xdotool", "search", "--sync", "--class", WINDOW_CLASS).split()[0]
        _x(xserver, "xdotool", "mousemove", "0", "0")
        time.sleep(0.4)
        before_png = artifacts / "xwindow-clearance-before.png"
        _x(xserver, IMPORT, "-window", wid, str(before_png), timeout=20)
        proc.stdin.write("\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        assert line.startswith("AFTER "), proc.stderr.read() if proc.stderr else line
        info = json.loads(line[6:])
        time.sleep(0.4)
        after_png = artifacts / "xwindow-clearance-after.png"
        _x(xserver, IMPORT, "-window", wid, str(after_png), timeout=20)
        before = pygame.surfarray.array3d(pygame.image.load(str(before_png))).astype(int)
        after = pygame.surfarray.array3d(pygame.image.load(str(after_png))).astype(int)
    finally:
        if proc.poll() is None:
            proc.stdin.write("\n")
            proc.stdin.flush()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    a, b, c = (np.array(info[k], float) for k in ("a", "b", "star"))
    d = b - a
    t = float(np.clip(np.dot(c - a, d) / np.dot(d, d), 0, 1))
    p = a + t * d  # the line's point nearest the star, in window pixels
    dist_px = float(np.hypot(*(p - c)))
    core = star_core_px(info["core"], info["scale"])
    half = line_px(info["width"], info["scale"]) / 2
    assert dist_px > core + half, f"the rules allowed a line {dist_px:.1f} px from a star (core {core:.1f} px)"
    changed = np.abs(after - before).sum(axis=2)
    cx, cy = round(c[0]), round(c[1])
    assert changed[cx, cy] < 40, "the allowed line covers the star's centre"
    # the strip between the core's edge and the line's edge: some pixel there is untouched
    u = (p - c) / dist_px
    strip = [c + u * r for r in np.arange(core + 0.5, dist_px - half - 0.25, 0.5)]
    assert strip, f"no room between core and line ({dist_px:.1f} px)"
    untouched = [changed[round(q[0]), round(q[1])] < 40 for q in strip]
    assert any(untouched), f"the line touches the star's core on screen (see {after_png})"
