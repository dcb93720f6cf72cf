"""``python -m games replay RECORD.json`` (or ``-`` for standard input)."""

from games.cli.replay import main

raise SystemExit(main())
