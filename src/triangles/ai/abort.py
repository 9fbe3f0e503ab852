"""The wall-clock safety cap of a search: a flag a timer thread raises.

The search kernels run without the GIL and poll the flag every 256 nodes, so
the cap is honoured even while Python code elsewhere is starved.
"""

from __future__ import annotations

import threading
from types import TracebackType

import numpy as np

__all__ = ["AbortTimer"]


class AbortTimer:
    """Raises ``flag[0]`` after ``seconds`` (None: never) while the ``with`` block runs.

    >>> with AbortTimer(None) as timer:
    ...     int(timer.flag[0])
    0
    """

    def __init__(self, seconds: float | None) -> None:
        self.flag = np.zeros(1, np.uint8)
        self._timer: threading.Timer | None = None
        if seconds is not None:
            self._timer = threading.Timer(max(0.0, seconds), self._fire)
            self._timer.daemon = True

    def _fire(self) -> None:
        self.flag[0] = 1

    def __enter__(self) -> AbortTimer:
        if self._timer is not None:
            self._timer.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._timer is not None:
            self._timer.cancel()
