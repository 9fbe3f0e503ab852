"""What went wrong with a file, in the player's language (for settings, statistics, themes, presets).

Why apart from ``files``: reading stays free of the catalogs (floor 0); this
turns its typed problems into one plain sentence, never an internal code.
Game records have their own wording ("…not a game record") in ``record``.
"""

from __future__ import annotations

from triangles.files import BadJson, FileProblem, NoSuchFile, NotAFile, NotText, TooDeep, TooLarge, Unreadable
from triangles.i18n import tr

__all__ = ["file_problem_text"]


def file_problem_text(problem: FileProblem) -> str:
    """One sentence for ``problem`` ("This is a folder, not a file.")."""
    if isinstance(problem, NoSuchFile):
        return tr("file.missing")
    if isinstance(problem, NotAFile):
        return tr("file.folder" if problem.folder else "file.not_file")
    if isinstance(problem, TooLarge):
        return tr("file.too_large", size=max(1, problem.size // 1000), limit=max(1, problem.limit // 1000))
    if isinstance(problem, Unreadable):
        return tr("file.unreadable", reason=problem.reason)
    if isinstance(problem, NotText):
        return tr("file.not_text")
    if isinstance(problem, BadJson):
        return tr("file.json", line=problem.line, column=problem.column)
    if isinstance(problem, TooDeep):
        return tr("file.too_deep")
    return tr("file.unreadable", reason=type(problem).__name__)
