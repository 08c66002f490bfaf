"""Rebuilding any step of a game from its seed, options and action log. Pure: no I/O, no clock.

A game is ``setup(players, options, seed)`` followed by the logged actions, each applied by the
seat that played it, so the state after step ``k`` (``k`` actions) is a fold over the log. Step 0
is the position the game started from. Besides engine actions the host logs concessions
(``resign``, and ``timeout-forfeit`` when a deadline forfeits a seat), which replay through the
engine's own :meth:`Game.resign`, and ``agreed-end`` (:meth:`Game.agreed_end`).

Long games (a four-player HOSTILE runs to a few thousand actions) are not re-folded from the
start for every step: a :class:`Replay` keeps a checkpoint every :data:`CHECKPOINT_EVERY` steps,
so any step costs at most that many ``apply`` calls once the log has been walked through once.

>>> from games import get_game
>>> r = Replay(get_game("squares"), 2, {}, 7, [(0, "N1@a2")])
>>> r.steps, r.state_at(1) != r.state_at(0)
(1, True)
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from .base import Event, Game, State

# How the host logs a seat conceding (by command, or by its deadline's forfeit policy), and the end
# every seat still playing agreed to (a draw offer or an agreed end, accepted by all the others).
CONCESSIONS = frozenset({"resign", "timeout-forfeit"})
AGREED_END = "agreed-end"
CHECKPOINT_EVERY = 16


class ReplayError(ValueError):
    """The log does not replay: step ``step`` (1-based) was refused by the engine."""

    def __init__(self, step: int, reason: str):
        super().__init__(f"step {step}: {reason}")
        self.step = step
        self.reason = reason


@dataclass(frozen=True)
class Step:
    """One step of a replay: the state after it and the events its action produced (all of them,
    private ones included: callers filter with :func:`games.events_for`)."""

    n: int
    seat: int | None  # None for step 0
    action: str | None
    state: State
    events: list[Event]


def apply_logged(game: Game, state: State, seat: int, action: str) -> tuple[State, list[Event]]:
    """One logged action, as the host applied it."""
    if action in CONCESSIONS:
        return game.resign(state, seat)
    if action == AGREED_END:
        return game.agreed_end(state)
    return game.apply(state, seat, action)


class Replay:
    """Every step of one game, rebuilt on demand from seed + options + log."""

    def __init__(self, game: Game, players: int, options: dict, seed: int, log: list[tuple[int, str]]):
        self.game, self.players, self.options, self.seed = game, players, dict(options), seed
        self.log = [(int(seat), str(action)) for seat, action in log]
        self._checkpoints: dict[int, State] = {0: game.setup(players, self.options, seed)}
        self._walked = 0  # checkpoints exist for every multiple of CHECKPOINT_EVERY up to here

    @property
    def steps(self) -> int:
        return len(self.log)

    def extend(self, more: list[tuple[int, str]]) -> None:
        """Later actions of the same game (the log only grows), keeping the checkpoints."""
        self.log += [(int(seat), str(action)) for seat, action in more]

    def _advance(self, state: State, frm: int, to: int) -> tuple[State, list[Event]]:
        events: list[Event] = []
        for i in range(frm, to):
            seat, action = self.log[i]
            try:
                state, events = apply_logged(self.game, state, seat, action)
            except Exception as e:  # a GameError, or an engine that cannot read the action at all
                raise ReplayError(i + 1, getattr(e, "key", type(e).__name__)) from None
            if (i + 1) % CHECKPOINT_EVERY == 0 and i + 1 > self._walked:
                self._checkpoints[i + 1] = state
                self._walked = i + 1
        return state, events

    def step(self, k: int) -> Step:
        """The state after ``k`` actions and the events of the ``k``-th."""
        if not 0 <= k <= self.steps:
            raise IndexError(k)
        if k == 0:
            return Step(0, None, None, self._checkpoints[0], self.game.opening_events(self._checkpoints[0]))
        base = max(c for c in self._checkpoints if c < k)  # walking on from it adds the checkpoints between
        state, _ = self._advance(self._checkpoints[base], base, k - 1)
        after, events = self._advance(state, k - 1, k)
        seat, action = self.log[k - 1]
        return Step(k, seat, action, after, events)

    def state_at(self, k: int) -> State:
        return self.step(k).state

    def walk(self):
        """Every step in order, each computed once (the recap and the export check use this)."""
        state = self._checkpoints[0]
        yield Step(0, None, None, state, self.game.opening_events(state))
        for i, (seat, action) in enumerate(self.log):
            state, events = self._advance(state, i, i + 1)
            yield Step(i + 1, seat, action, state, events)


def state_hash(state: State) -> str:
    """A fingerprint of a state that does not depend on key order (an export carries it)."""
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def log_fingerprint(log: list[tuple[int, str]]) -> str:
    """A short digest of a log prefix: equal fingerprints mean the same steps (caches key on it)."""
    digest = hashlib.sha1()
    for seat, action in log:
        digest.update(f"{seat}\x1f{action}\x1e".encode())
    return digest.hexdigest()[:20]
