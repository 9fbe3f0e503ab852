"""``python -m triangles``: the same as the ``triangles`` command."""

from triangles.cli import main

raise SystemExit(main())
