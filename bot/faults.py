"""Named crash points, so tests can kill the process between two steps of one operation.

``TABLETOP_CRASH_AT=store.save.before_commit python -m ...`` makes the process SIGKILL itself the
moment it reaches that point (no cleanup, no flush: as a power cut or an OOM kill would). Unset,
a crash point costs one dictionary lookup.
"""

from __future__ import annotations

import os
import signal

ENV = "TABLETOP_CRASH_AT"


def crash_point(name: str) -> None:
    if os.environ.get(ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)
