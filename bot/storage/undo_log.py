"""How an undo is written in the action log, and how a log with undos is read back. Pure.

Nothing is ever deleted from a game's log. An undo is one more entry, ``undo N``, by the seat
that asked: "the game returns to the position before log entry N". Reading a log means taking the
entries in order and letting each ``undo N`` drop every still-standing entry numbered N or more
(:func:`standing`); the state is ``setup(players, options, seed)`` followed by the standing
entries (:func:`rebuild`; ``resign`` and ``timeout-forfeit`` entries are concessions, ``agreed-end`` an end
all agreed to). Replays and
exports of a log use these two functions.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from games import Game, GameError, get_game
from games.replay import AGREED_END, apply_logged

from .rows import ActionRow

_UNDO = re.compile(r"^undo (\d+)$")
END_ACTIONS = ("resign", "timeout-forfeit", AGREED_END)  # log entries that end a game, not engine actions


def undo_target(action: str) -> int | None:
    """The log number an ``undo N`` entry takes the game back before; None for other entries."""
    m = _UNDO.match(action)
    return int(m[1]) if m else None


def standing(entries: list[ActionRow]) -> list[ActionRow]:
    """The entries still in force once every ``undo N`` has taken its entries back.

    >>> rows = [ActionRow(i, 0, 1, a, i, "") for i, a in enumerate(["b2-b3", "undo 1", "c2-c3"], 1)]
    >>> [r.action for r in standing(rows)]
    ['c2-c3']
    """
    out: list[ActionRow] = []
    for entry in entries:
        n = undo_target(entry.action)
        out = out + [entry] if n is None else [e for e in out if e.n < n]
    return out


@dataclass
class Step:
    before: dict
    entry: ActionRow
    after: dict
    events: list


def rebuild(game: Game, players: int, options: dict, seed: int, entries: list[ActionRow]) -> tuple[dict, list[Step]]:
    """Replay standing entries from the seed: the start state and every step taken from it."""
    state = start = game.setup(players, options, seed)
    steps = []
    for entry in entries:
        after, events = apply_logged(game, state, entry.seat, entry.action)
        steps.append(Step(state, entry, after, events))
        state = after
    return start, steps


def check_undo(game_name: str, players: int, options: dict, seed: int, moves: list[tuple[int, int, str]],
               k: int, stored: dict) -> dict:
    """Replay standing ``moves`` (n, seat, action) and judge taking back ``moves[k:]``: whether
    the log reproduces ``stored``, whether every step from k on is undoable, and the position
    before step k. Runs in the worker pool (a long game replays in tens of milliseconds)."""
    game = get_game(game_name)
    entries = [ActionRow(n, seat, None, action, n, "") for n, seat, action in moves]
    try:
        start, steps = rebuild(game, players, options, seed, entries)
    except GameError:
        return {"replays": False}
    final = steps[-1].after if steps else start
    if json.dumps(final, sort_keys=True) != json.dumps(stored, sort_keys=True):
        return {"replays": False}
    return {"replays": True, "undoable": all(game.undoable(s.before, s.after, s.events) for s in steps[k:]),
            "before": steps[k].before}
