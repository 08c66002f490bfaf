"""Who plays whom: Swiss, round robin and single elimination pairings, and league opponents.

Pure functions over player ids (ints) and what happened before; no storage, no clock, no random.
Players are always given best first, so every choice here is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Sequence

# Backtracking steps a Swiss pairing may take before it settles for fewer avoided rematches. A
# search that fails visits each set of still unseated players once at most (failed sets are
# remembered); real fields (dozens of players, a few rounds) finish in a few hundred steps.
SEARCH_BUDGET = 200_000


def pair_key(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


def meetings(tables: Iterable[Sequence[int]]) -> dict[frozenset[int], int]:
    """How often each pair of players sat at one table."""
    met: dict[frozenset[int], int] = {}
    for table in tables:
        for a, b in combinations(table, 2):
            met[pair_key(a, b)] = met.get(pair_key(a, b), 0) + 1
    return met


def table_sizes(players: int, size: int, allowed: Sequence[int]) -> tuple[list[int], int]:
    """Tables for ``players``: as many of ``size`` as fit, then one of the largest smaller size the
    game allows for those left; whoever is still left has a bye. Returns (sizes, byes).

    >>> table_sizes(8, 2, (2,)), table_sizes(7, 2, (2,)), table_sizes(8, 3, (2, 3, 4)), table_sizes(7, 4, (2, 4))
    (([2, 2, 2, 2], 0), ([2, 2, 2], 1), ([3, 3, 2], 0), ([4, 2], 1))
    """
    full, rest = divmod(players, size)
    sizes = [size] * full
    smaller = max((s for s in allowed if s <= rest), default=None)
    if rest and smaller:
        sizes.append(smaller)
        rest -= smaller
    return sizes, rest


@dataclass(frozen=True)
class Pairing:
    tables: list[tuple[int, ...]]  # best players' table first; within a table, best player first
    byes: list[int]
    repeats: int = 0  # pairs meeting again, when no pairing without would do


def swiss(order: Sequence[int], met: dict[frozenset[int], int], had_bye: set[int], size: int = 2,
          allowed: Sequence[int] = (2,)) -> Pairing:
    """A Swiss round: ``order`` is the field ranked for pairing (score, then rating), best first.

    Tables take the best unseated player and the next ones in order who have met nobody at the
    table before, backtracking so that no pair meets twice while any seating avoids it. Byes go
    to the lowest-ranked players without one whose leaving still lets the rest avoid rematches
    (and to the lowest-ranked without one when nothing can avoid them)."""
    order = list(order)
    sizes, byes = table_sizes(len(order), size, allowed)
    if not byes:
        return _seat(order, sizes, met)
    chosen = _byes(order, sizes, byes, met, had_bye)
    rest = [p for p in order if p not in chosen]
    pairing = _seat(rest, sizes, met)
    return Pairing(pairing.tables, chosen, pairing.repeats)


def _byes(order: list[int], sizes: list[int], count: int, met, had_bye: set[int]) -> list[int]:
    without = [p for p in reversed(order) if p not in had_bye]
    candidates = without + [p for p in reversed(order) if p in had_bye]  # all had one: lowest again
    if count == 1:
        steps = [0]  # one budget for every candidate: a hopeless field gives up once
        for p in without:
            if _seating(tuple(q for q in order if q != p), tuple(sizes), met, steps) is not None:
                return [p]
    return candidates[:count]


def _seat(order: list[int], sizes: list[int], met) -> Pairing:
    found = _seating(tuple(order), tuple(sizes), met, [0])
    if found is not None:
        return Pairing(found, [])
    tables = _fewest_repeats(order, sizes, met)
    return Pairing(tables, [], sum(met.get(pair_key(a, b), 0) > 0 for t in tables for a, b in combinations(t, 2)))


def _seating(order: tuple[int, ...], sizes: tuple[int, ...], met, steps: list[int],
             failed: set | None = None) -> list[tuple[int, ...]] | None:
    """Tables of ``sizes`` for ``order`` in which nobody has met before, or None (also when the
    search budget runs out). The best unseated player is seated first, with the best others."""
    if not order:
        return []
    failed = set() if failed is None else failed
    key = (frozenset(order), sizes)
    if key in failed:
        return None
    first, others = order[0], order[1:]
    for companions in combinations(others, sizes[0] - 1):
        steps[0] += 1
        if steps[0] > SEARCH_BUDGET:
            return None
        table = (first,) + companions
        if any(pair_key(a, b) in met for a, b in combinations(table, 2)):
            continue
        rest = tuple(p for p in others if p not in companions)
        below = _seating(rest, sizes[1:], met, steps, failed)
        if below is not None:
            return [table] + below
    failed.add(key)
    return None


def _fewest_repeats(order: list[int], sizes: list[int], met) -> list[tuple[int, ...]]:
    """When rematches cannot be avoided: seat greedily, each table with the fewest meetings."""
    left, tables = list(order), []
    for size in sizes:
        first, others = left[0], left[1:]
        best = min(combinations(others, size - 1),
                   key=lambda c: sum(met.get(pair_key(a, b), 0) for a, b in combinations((first,) + c, 2)))
        tables.append((first,) + best)
        left = [p for p in others if p not in best]
    return tables


def swiss_rounds(players: int) -> int:
    """The usual number of Swiss rounds: enough for one player to stay unbeaten (log2 of the field)."""
    return max(1, (players - 1).bit_length())


# ---- round robin ---------------------------------------------------------------------------------
def round_robin(players: Sequence[int]) -> list[list[tuple[int, int | None]]]:
    """Every round of a round robin by the circle method: everyone meets everyone once; with an
    odd field, one player a round sits out (paired with None).

    >>> round_robin([1, 2, 3, 4])
    [[(1, 4), (2, 3)], [(1, 3), (4, 2)], [(1, 2), (3, 4)]]
    """
    field: list[int | None] = list(players) + ([None] if len(players) % 2 else [])
    n = len(field)
    rounds = []
    for _ in range(n - 1):
        pairs = [(field[i], field[n - 1 - i]) for i in range(n // 2)]
        rounds.append([(a, b) if a is not None else (b, a) for a, b in pairs])
        field = [field[0], field[-1]] + field[1:-1]
    return rounds


# ---- single elimination ------------------------------------------------------------------------
def bracket_size(players: int) -> int:
    return 1 << max(1, (players - 1).bit_length())


def seed_positions(size: int) -> list[int]:
    """Seeds (1 = best) in bracket order, so the best two can meet only in the final.

    >>> seed_positions(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        twice = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, twice - seed)]
    return order


def first_round(seeded: Sequence[int]) -> list[tuple[int, int | None]]:
    """The first round of a bracket for players best first; the best seeds meet nobody (a bye)
    when the field is not a power of two."""
    size = bracket_size(len(seeded))
    slots = [seeded[s - 1] if s <= len(seeded) else None for s in seed_positions(size)]
    return [(slots[i], slots[i + 1]) for i in range(0, size, 2)]


def next_round(winners: Sequence[int | None]) -> list[tuple[int | None, int | None]]:
    """The next round: the winners of tables 1 and 2 meet, 3 and 4, and so on."""
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]


def elimination_rounds(players: int) -> int:
    return bracket_size(players).bit_length() - 1


# ---- leagues ---------------------------------------------------------------------------------------
def league_opponent(asker: int, rating: float, waiting: Sequence[tuple[int, float]],
                    met: dict[frozenset[int], int]) -> int | None:
    """The waiting player closest in rating whom ``asker`` has not played (the longest waiting
    first among equals; ``waiting`` is in the order they asked), or None."""
    fresh = [(abs(r - rating), i, p) for i, (p, r) in enumerate(waiting) if p != asker and pair_key(asker, p) not in met]
    return min(fresh)[2] if fresh else None
