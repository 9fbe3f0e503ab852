"""Compile the gettext catalogs (``.po`` -> ``.mo``) with Babel, the field's tool.

Run through ``python3 dev.py i18n`` (every catalog) or ``dev.py play`` (only
catalogs whose ``.po`` is newer than its ``.mo``).  The game itself reads the
``.mo`` files with Python's ``gettext`` and never needs Babel.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "assets" / "i18n"
#: the date written into every ``.mo``'s header.  The ``.po`` files carry none, and Babel
#: would write the hour of compiling: each ``dev.py play`` on a fresh clone (whose files'
#: times are those of the checkout) then rewrote the committed ``.mo`` files with a new date
#: and left the working tree changed.  A fixed date makes the same ``.po`` give the same bytes.
CREATION_DATE = datetime(2026, 12, 1, 5, 47, tzinfo=UTC)


def po_files() -> list[Path]:
    return sorted(CATALOGS.glob("*/LC_MESSAGES/*.po"))


def compile_catalog(po: Path) -> Path:
    """Write ``po``'s ``.mo`` beside it (fuzzy entries included: none are expected)."""
    with po.open("rb") as f:
        catalog = read_po(f, locale=po.parent.parent.name)
    catalog.creation_date = CREATION_DATE
    mo = po.with_suffix(".mo")
    tmp = mo.with_suffix(".mo.tmp")
    with tmp.open("wb") as f:
        write_mo(f, catalog, use_fuzzy=True)
    tmp.replace(mo)
    return mo


def main(argv: list[str]) -> int:
    only_stale = "--stale" in argv
    for po in po_files():
        mo = po.with_suffix(".mo")
        if only_stale and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        compile_catalog(po)
        print(f"[dev] compiled {mo.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
