"""OSU evaluation for :mod:`games.ai` (RULES.md §3: push tiles off the board to capture them).

A seat's standing is its progress to the target (captures or points, :func:`target_and_score`)
and the danger its tiles are in: a tile on the board's edge is pushed off when it loses a contest
against a tile on its inner side, so edge tiles an enemy tile can reach (or already faces) weigh
against their owner, the more when the tile facing inward shows an animal the neighbour beats.
With 4 players a seat's value is its softmax share of the four standings (a win chance);
with 2, its standing against the opponent's through a logistic.
Monkey dice make moves uncertain: one-move-deep scores average several re-seeded rolls, and
search re-rolls every iteration (each determinization re-seeds the game's RNG).
"""

from __future__ import annotations

import math

from ..ai import GameAI, softmax
from .engine import BEATS, DIRS, _SQUARE_SETS, face, shift, target_and_score

PROGRESS = 6.0     # a whole target's worth of progress
EDGE = 0.35        # a tile on the edge with an enemy tile within reach of its inner side
EXPOSED = 0.5      # ... whose inward animal the enemy tile next to it beats right now
SCALE = 1.0
REPLY_ROLLS = 3    # 4 players: normal plays each candidate and the round after it out this often
SOFTMAX = 1.0      # 4 players: sharpness of the win-chance softmax (0.5: as good; 2: worse)


def _edge_geometry(squares, sq) -> tuple:
    """For each outward side of ``sq`` (its neighbour that way is off the board): ``(side,
    inner square, inner side, squares one step from the inner square other than sq)``."""
    out = []
    for side, (dc, dr) in enumerate(DIRS):
        beyond = shift(sq, dc, dr)
        if beyond is not None and beyond in squares:
            continue   # not an outward side
        inner = shift(sq, -dc, -dr)
        if inner is None or inner not in squares:
            continue
        near = tuple(n for n in (shift(inner, ddc, ddr) for ddc, ddr in DIRS) if n is not None and n != sq)
        out.append((side, inner, (side + 2) % 4, near))
    return tuple(out)


# per player count and square: its outward sides (the evaluation runs thousands of times a decision)
_EDGES = {n: {sq: _edge_geometry(squares, sq) for sq in squares} for n, squares in _SQUARE_SETS.items()}


def _exposed(rotation: int, inner_side: int, other_rotation: int) -> bool:
    """Whether a tile with ``rotation`` loses to (or gambles against) the enemy tile next to its
    inner side: the neighbour's animal facing it beats the one it shows, or it shows a monkey."""
    mine = face(rotation, inner_side)
    return (face(other_rotation, (inner_side + 2) % 4), mine) in BEATS or mine == "monkey"


# (rotation, inner side, neighbour's rotation) -> exposed: the evaluation asks this millions of times
_EXPOSED = {(r, side, o): _exposed(r, side, o) for r in range(4) for side in range(4) for o in range(4)}


def _edge_danger(sides, tile, board) -> float:
    """How exposed ``tile`` is to being pushed off the board, on a square with these outward
    ``sides`` (:func:`_edge_geometry`)."""
    seat, _, rotation = tile
    danger = 0.0
    for _side, inner, inner_side, near in sides:
        other = board.get(inner)
        if other is not None:
            if other[0] != seat:
                danger += EXPOSED if _EXPOSED[rotation, inner_side, other[2]] else EDGE / 2
            continue
        for n in near:   # an enemy one step from the inner square can arrive there
            neighbour = board.get(n)
            if neighbour is not None and neighbour[0] != seat:
                danger += EDGE
                break
    return danger


class OsuAI(GameAI):
    # hard: 600 iterations, affordable since tabulated geometry and a lean copy made each ~4x
    # cheaper (CPU p95 under 0.8 s in 4 players even on the loaded machine; 300 before)
    budgets = {"easy": 2, "normal": 5, "hard": 600}
    # 4 players: a seat's value is a narrow share of one win chance and three seats move between
    # its turns, so the search needs more iterations to tell moves apart (hard vs normal in 4p:
    # 59% at 600 in issue #16's runs); 2 players keep 600 (their p95 is already ~0.6 s CPU)
    hard_budget_4p = 1000
    normal_budget_4p = 8   # 45% one seat vs three greedy (5: 41.5%, 10 with 5 rolls: 45%; n=200 each)
    easy_random_percent = 35
    chance_samples = 3
    # 4 players (issue 44): normal plays its best candidates on through all three opponents'
    # greedy replies, then its own best move (a capture it set up), averaged over REPLY_ROLLS
    # re-seeded dice paths. One seat vs three greedy, n=200 each: the next opponent's reply only
    # 24%; the round and own move on one path 32.5% (more candidates scored worse there: the best
    # of several one-path values is the luckiest path); with 3 paths 41.5%, and 8 candidates 45%.
    def reply_plies(self, game, state, seat):
        return state["players"] - 1

    def own_followup(self, game, state, seat):
        return state["players"] == 4

    def reply_rolls(self, game, state, seat):
        return REPLY_ROLLS if state["players"] == 4 else 1

    def default_budget(self, state, level):
        if level == "hard" and state["players"] == 4:
            return self.hard_budget_4p
        if level == "normal" and state["players"] == 4:
            return self.normal_budget_4p
        return super().default_budget(state, level)

    def simulate(self, game, state, seat, action):
        new = _lean_copy(state)
        game._apply(new, seat, action)
        return new

    def determinize(self, game, state, seat, rng):
        # ``scramble_hidden``'s only secret here is the dice: the same re-seed on a lean copy
        new = _lean_copy(state)
        new["rng"] = rng.below(1 << 62)
        return new

    def values(self, game, state) -> list[float]:
        players = state["players"]
        board = state["board"]
        edges = _EDGES[players]
        standing = []
        for s in range(players):
            target, score = target_and_score(state, s)
            standing.append(PROGRESS * score / target)
        for sq, tile in board.items():
            sides = edges[sq]
            if sides:
                standing[tile[0]] -= _edge_danger(sides, tile, board)
        if players == 4:
            # a win chance among four: each seat's softmax share of the standings (against the
            # best other seat alone, a seat could not tell a tight race from a lost one)
            return softmax(standing, SOFTMAX)
        out = []
        for s in range(players):
            best_other = max(standing[o] for o in range(players) if o != s)
            out.append(1.0 / (1.0 + math.exp(-SCALE * (standing[s] - best_other))))
        return out


def _lean_copy(state):
    """A copy that search may apply OSU's rules to, sharing what they never change in place.

    The rules change only the board (tiles move between squares; a rotated tile is a new list),
    the capture lists (appended to) and scalars; ``last`` and ``outcome`` are replaced whole and
    ``options`` is read only. So the board dict and the capture lists are copied, tiles and
    captured pairs shared: ``copy_state``'s result at a fraction of its cost.
    """
    new = dict(state)
    new["board"] = dict(state["board"])
    new["captured"] = [list(caps) for caps in state["captured"]]
    return new


AI = OsuAI()
