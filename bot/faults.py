"""Named fault points, so tests can break one step of one operation in a real bot process.

``TABLETOP_CRASH_AT=store.save.before_commit python -m ...`` makes the process SIGKILL itself the
moment it reaches that point (no cleanup, no flush: as a power cut or an OOM kill would).

``TABLETOP_FAIL_AT=service.draw`` makes the first pass through that point raise
:class:`InjectedFault` (``service.draw#3``: the third pass), once per process: a drawing or a
post that fails after an action was saved, as a bug or a Discord outage would.

Unset, a fault point costs one dictionary lookup.
"""

from __future__ import annotations

import os
import signal

ENV = "TABLETOP_CRASH_AT"
FAIL_ENV = "TABLETOP_FAIL_AT"

_passes: dict[str, int] = {}  # how often each armed fail point was reached in this process


class InjectedFault(RuntimeError):
    """A failure asked for by ``TABLETOP_FAIL_AT``."""


def crash_point(name: str) -> None:
    if os.environ.get(ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)


def fail_point(name: str) -> None:
    armed = os.environ.get(FAIL_ENV)
    if not armed:
        return
    point, _, nth = armed.partition("#")
    if point != name:
        return
    _passes[name] = _passes.get(name, 0) + 1
    if _passes[name] == int(nth or 1):
        raise InjectedFault(name)
