"""``python -m bot.local`` and ``tabletop-local``: play in a terminal (see :mod:`bot.terminal.driver`)."""

from __future__ import annotations

import sys

from .terminal.driver import main

if __name__ == "__main__":
    sys.exit(main())
