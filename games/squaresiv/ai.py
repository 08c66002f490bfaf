"""SQUARESIV evaluation for :mod:`games.ai` (RULES.md §4: three own pieces in the centre row win).

A position is scored for each seat by *progress*: pieces in the centre row count most, pieces one
step from it (on the own side, able to step in) next, and a centre piece an adjacent enemy could
beat on its next move counts less (it is likely to be knocked back to hand). Row caps limit what
fits in the centre row, so low-point pieces near the centre are worth a little more than big
ones. The difference of the two seats' progress is squashed to a value in (0, 1).
"""

from __future__ import annotations

import math

from ..ai import GameAI
from .pieces import ABILITY_LETTERS
from .engine import CENTRE_ROW, COLUMNS, NEIGHBOURS, POINTS, ROW, _battle_strength

CENTRE_PIECE = 3.0     # a piece in the centre row
THREATENED = 1.4       # ... minus this when an adjacent enemy piece would beat it
READY = 1.0            # a piece that can step into the centre row next move
BEHIND = 0.25          # any other piece on the board (it may walk up later)
SMALL = 0.05           # per point below 5 for a piece in or next to the centre (caps favour them)
SCALE = 0.45           # progress difference -> logistic


_CENTRE_OF = {c: f"{c}{CENTRE_ROW}" for c in COLUMNS}
_MARTIAL = ABILITY_LETTERS["martial_arts"]   # the only ability that changes a battle


def _strength_against(board, square, attacker_kind, defender_kind) -> int:
    return _battle_strength(board, square, attacker_kind, defender_kind)


def progress(board: dict, seat: int) -> float:
    total = 0.0
    enemy = 1 - seat
    near_row = CENTRE_ROW - 1 if seat == 0 else CENTRE_ROW + 1
    for sq, (owner, kind) in board.items():
        if owner != seat:
            continue
        row = ROW[sq]
        points = POINTS[kind]
        if row == CENTRE_ROW:
            value = CENTRE_PIECE + SMALL * (5 - points)
            for n in NEIGHBOURS[sq]:
                other = board.get(n)
                if other is not None and other[0] == enemy and _beats(board, n, other[1], sq, kind):
                    value -= THREATENED
                    break
            total += value
        elif row == near_row:
            up = _CENTRE_OF[sq[0]]
            target = board.get(up)
            if target is None or (target[0] == enemy and _beats(board, sq, kind, up, target[1])):
                total += READY + SMALL * (5 - points)
            else:
                total += BEHIND * 2
        else:
            total += BEHIND
    return total


def _beats(board: dict, frm: str, kind: str, at: str, defender_kind: str) -> bool:
    """Would the piece ``kind`` on ``frm`` win a battle moving onto ``at`` (held by ``defender_kind``)?"""
    if kind[0] != _MARTIAL and defender_kind[0] != _MARTIAL:
        return POINTS[kind] > POINTS[defender_kind]   # no ability changes a battle's points
    owner = board[frm][0]
    trial = dict(board)
    del trial[frm]
    trial[at] = [owner, kind]
    mine = _battle_strength(trial, at, kind, defender_kind)
    trial[at] = [1 - owner, defender_kind]
    theirs = _battle_strength(trial, at, defender_kind, kind)
    return mine > theirs


class SquaresAI(GameAI):
    deterministic = True     # no dice, no secrets: search reuses a node's children
    budgets = {"easy": 2, "normal": 6, "hard": 200}
    easy_random_percent = 70   # random play loses in ~15 moves; easy must stay beatable
    # the plain search beat normal 99% (100 games) at 200 iterations, anchored on normal only 90% (24)
    anchor_on_normal = False

    def simulate(self, game, state, seat, action):
        """``games.ai.simulate`` without the deep copy: the rules replace board, hands and last
        with new objects on every action but a pass (whose board and hands are copied here)."""
        new = dict(state)
        if action == "pass":
            new["board"] = {sq: list(v) for sq, v in state["board"].items()}
            new["hands"] = [list(h) for h in state["hands"]]
        game._apply(new, seat, action)
        return new

    def values(self, game, state) -> list[float]:
        board = state["board"]
        diff = progress(board, 0) - progress(board, 1)
        v = 1.0 / (1.0 + math.exp(-SCALE * diff))
        return [v, 1.0 - v]


AI = SquaresAI()
__all__ = ["AI", "COLUMNS", "progress"]
