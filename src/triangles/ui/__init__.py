"""Everything pygame: the window and its loop, the scene stack, scenes, rendering, the computer's thread."""

import os

# before any module of this package imports pygame: no banner on stdout
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
