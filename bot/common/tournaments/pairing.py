"""Who plays whom: Swiss, round robin and single elimination pairings, and league opponents.

Pure functions over player ids (ints) and what happened before; no storage, no clock, no random.
Players are always given best first, so every choice here is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Mapping, Sequence

import networkx


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


# ---- Swiss -------------------------------------------------------------------------------------------
# Points come in halves at tables of two, quarters at tables of three and sixths at four: in twelfths
# every score (and every difference of scores) is a whole number, as the integer weights below need.
SCORE_UNITS = 12

# The Swiss priorities, most important first (FIDE C.04.1 and the Dutch system's quality criteria,
# in the order docs/playing.md gives). Each is a cost per table of two (a pair, or a player and the
# bye); a pairing's cost at a level is the sum over its tables, and a level only decides between
# pairings equal at every level above it.
LEVELS = (
    "second_bye",    # a bye for someone who had one (C.04.1 d): only when everyone who could sit out had one
    "rematch",       # earlier meetings repeated (C.04.1 b; a pair that met twice counts 2): only if unavoidable
    "bye_score",     # the bye goes to the lowest score it can (FIDE pairs top-down: the bye is left at the bottom)
    "floats",        # players moved between score groups, one per group boundary crossed
    "score_gap",     # the score differences, squared: two short drops rather than one long one
    "float_choice",  # who floats: from the bottom of the higher group, to meet the top of the lower
    "halves",        # within a group the top half (S1) meets the bottom half (S2): pairs inside one half
    "transposition", # ... and in ranking order, 1 v n/2+1, 2 v n/2+2: how far partners are from that
    "first_move",    # both due the same seat (to move first, or second): the smaller wish gives way
)

# Tables of three and four: how many tables the search may try, for all the byes it weighs together,
# before it settles for the best seating found so far (a field of 64 at tables of four takes 16 to
# seat greedily; a round of it stays near a tenth of a second), and how far down the ranking a
# table's first player looks for the others (beyond lie only worse floats, so only a tangle of
# earlier meetings could want more).
SEARCH_BUDGET = 3_000
COMPANION_WINDOW = 11
BYE_CANDIDATES = 6  # tables of three and four: the lowest players tried for a single bye


@dataclass(frozen=True)
class Pairing:
    # The best player's table first. Within a table of two whose game has a first player (Swiss with
    # ``first_moves``): seat order, the one who moves first first. Otherwise the best player first.
    tables: list[tuple[int, ...]]
    byes: list[int]
    repeats: int = 0  # pairs meeting again, when no pairing without would do


@dataclass(frozen=True)
class ScoreGroups:
    """The players to pair (best first) and their score groups; group 0 holds the highest score."""

    order: list[int]
    units: dict[int, int]  # score in twelfths of a point
    group: dict[int, int]  # the player's score group
    place: dict[int, int]  # place within the group, 0 = its best
    sizes: list[int]  # players in each group
    rank: dict[int, int]  # place in ``order``

    @classmethod
    def of(cls, order: Sequence[int], units: Mapping[int, int]) -> "ScoreGroups":
        levels = sorted({units[p] for p in order}, reverse=True)
        index = {u: i for i, u in enumerate(levels)}
        group, place, sizes = {}, {}, [0] * len(levels)
        for p in order:
            g = group[p] = index[units[p]]
            place[p] = sizes[g]
            sizes[g] += 1
        return cls(list(order), {p: units[p] for p in order}, group, place, sizes, {p: i for i, p in enumerate(order)})

    def without(self, players: Iterable[int]) -> "ScoreGroups":
        gone = set(players)
        return ScoreGroups.of([p for p in self.order if p not in gone], self.units)


def swiss(order: Sequence[int], scores: Mapping[int, float], met: Mapping[frozenset[int], int], had_bye: set[int],
          size: int = 2, allowed: Sequence[int] = (2,),
          first_moves: Mapping[int, Sequence[bool]] | None = None) -> Pairing:
    """A Swiss round: players of equal score meet, as far as no rematch stands in the way.

    ``order`` is the field ranked for pairing (score, then rating), best first; ``scores`` each
    player's points so far (none: 0); ``met`` how often each pair sat together; ``had_bye`` who
    sat out before. ``first_moves`` (tables of two, a game whose seat 0 moves first): each
    player's earlier games in round order, True where they moved first; it decides the seats.
    None: seats mean nothing here and tables list the best player first.

    Tables of two are a maximum-weight matching over the priorities of LEVELS (:func:`_weights`
    says how); tables of three and four a search over score groups (:func:`_swiss_tables`)."""
    groups = ScoreGroups.of(order, {p: round(scores.get(p, 0.0) * SCORE_UNITS) for p in order})
    if size == 2:
        return _swiss_pairs(groups, met, had_bye, first_moves)
    return _swiss_tables(groups, met, had_bye, size, allowed)


def _swiss_pairs(groups: ScoreGroups, met, had_bye: set[int], first_moves) -> Pairing:
    players = groups.order
    if not players:
        return Pairing([], [])
    leaning = {p: _leaning(first_moves.get(p, ())) for p in players} if first_moves is not None else {}
    bye = min(players) - 1  # the matching's "sits out": never a player's id
    costs = {(a, b): _pair_cost(a, b, groups, met, leaning) for a, b in combinations(players, 2)}
    if len(players) % 2:
        costs.update({(p, bye): _bye_cost(p, groups, had_bye) for p in players})
    matched = [tuple(sorted(edge, key=lambda p: groups.rank.get(p, len(players)))) for edge in _matching(costs)]
    byes = [a for a, b in matched if b == bye]
    pairs = sorted((edge for edge in matched if bye not in edge), key=lambda edge: groups.rank[edge[0]])
    tables = [_seated(a, b, first_moves, i) for i, (a, b) in enumerate(pairs)]
    return Pairing(tables, byes, sum(pair_key(a, b) in met for a, b in tables))


def _pair_cost(a: int, b: int, groups: ScoreGroups, met, leaning: dict[int, int]) -> tuple[int, ...]:
    """The cost of ``a`` meeting ``b`` at each of LEVELS."""
    a, b = sorted((a, b), key=groups.rank.get)
    ga, gb = groups.group[a], groups.group[b]
    choice = halves = transposition = 0
    if ga != gb:  # how far ``a`` is from its group's bottom, and ``b`` from its group's top
        choice = groups.sizes[ga] - 1 - groups.place[a] + groups.place[b]
    else:  # S1 is the top half (the odd one of an odd group is in S2, at its bottom: it floats)
        half = groups.sizes[ga] // 2
        if (groups.place[a] < half) == (groups.place[b] < half):
            halves = 1
        else:
            transposition = abs(groups.place[b] - groups.place[a] - half)
    gap = groups.units[a] - groups.units[b]
    return (0, met.get(pair_key(a, b), 0), 0, gb - ga, gap * gap, choice, halves, transposition,
            _clash(leaning.get(a, 0), leaning.get(b, 0)))


def _bye_cost(p: int, groups: ScoreGroups, had_bye: set[int]) -> tuple[int, ...]:
    """The cost of ``p`` sitting out at each of LEVELS: the bye is met as the bottom of the lowest
    group (a player above it floats down to it), so the lowest-ranked of the lowest group gets it."""
    g = groups.group[p]
    gap = groups.units[p] - min(groups.units.values())
    return (int(p in had_bye), 0, gap, len(groups.sizes) - 1 - g, gap * gap, groups.sizes[g] - 1 - groups.place[p],
            0, 0, 0)


def _weights(costs: Mapping[tuple[int, int], tuple[int, ...]]) -> dict[tuple[int, int], int]:
    """Integer edge weights whose maximum-weight perfect matching is the pairing with the least cost
    at the first of LEVELS, then the least at the second among those, and so on.

    A mixed-radix number: with T tables (half the vertices) and M_k the largest cost of level k on
    any edge, no pairing sums to more than T·M_k at level k, so level k's place value
    P_k = Π_{j>k} (T·M_j + 1) (the last level's is 1) exceeds all lower levels together. An edge
    weighs P_top − Σ_k cost_k·P_k with P_top = P_0·(T·M_0 + 1), which is positive; every perfect
    matching has T edges, so the heaviest is the cheapest, level by level. For 200 players (100
    tables, 20 rounds: scores up to 240 twelfths, squared gaps up to 240², groups up to 200
    players) P_top stays under 2^115 (64 players, the most a tournament takes: under 2^97).
    Python's integers are exact at any size, and networkx computes with integers only (and checks
    the optimum) when every weight is one."""
    tables = (len({v for edge in costs for v in edge}) + 1) // 2
    places = [1] * len(LEVELS)
    for k in range(len(LEVELS) - 1, 0, -1):
        places[k - 1] = places[k] * (tables * max(cost[k] for cost in costs.values()) + 1)
    top = places[0] * (tables * max(cost[0] for cost in costs.values()) + 1)
    return {edge: top - sum(c * p for c, p in zip(cost, places)) for edge, cost in costs.items()}


def _matching(costs: Mapping[tuple[int, int], tuple[int, ...]]) -> set[tuple[int, int]]:
    """Every vertex matched (all pairs are edges, rematches too: cardinality never forces one), and
    of those matchings the heaviest: Edmonds' blossom algorithm as networkx implements it."""
    graph = networkx.Graph()
    for (a, b), weight in _weights(costs).items():
        graph.add_edge(a, b, weight=weight)
    return networkx.max_weight_matching(graph, maxcardinality=True)


def _balance(moves: Sequence[bool]) -> int:
    """First moves minus second moves."""
    return sum(1 if first else -1 for first in moves)


def _leaning(moves: Sequence[bool]) -> int:
    """The seat a player is due and how strongly: below 0 to move first, above 0 to move second.
    Twice the imbalance; balanced, 1 away from the seat of their last game; no games, 0."""
    balance = _balance(moves)
    if balance or not moves:
        return 2 * balance
    return 1 if moves[-1] else -1


def _clash(a: int, b: int) -> int:
    """Two players due the same seat: the one who wants it less goes without (a cost of their wish)."""
    return min(abs(a), abs(b)) if a * b > 0 else 0


def _seated(a: int, b: int, first_moves: Mapping[int, Sequence[bool]] | None, table: int) -> tuple[int, int]:
    """A table of two (``a`` ranked above ``b``) in seat order, the first mover first, as FIDE
    deals colours: the one with fewer first moves than second moves moves first; equal, the one
    who moved second in the latest of their games where the two sat differently; still equal,
    the higher ranked moves the other way from their own last game; neither has played: the
    higher ranked moves first at the first, third ... table and second at the others."""
    if first_moves is None:
        return a, b
    ma, mb = first_moves.get(a, ()), first_moves.get(b, ())
    if _balance(ma) != _balance(mb):
        return (a, b) if _balance(ma) < _balance(mb) else (b, a)
    for fa, fb in zip(reversed(ma), reversed(mb)):
        if fa != fb:
            return (b, a) if fa else (a, b)
    if ma:
        return (b, a) if ma[-1] else (a, b)
    if mb:
        return (a, b) if mb[-1] else (b, a)
    return (a, b) if table % 2 == 0 else (b, a)


def _swiss_tables(groups: ScoreGroups, met, had_bye: set[int], size: int, allowed: Sequence[int]) -> Pairing:
    """Tables of three or four, toward the same priorities as tables of two (no rematch, the fewest
    players moved between score groups, the smallest score differences) by a search: the best
    player still unseated opens a table, the others come from the next players in ranking, and the
    search backtracks (remembering the best seating of every set of players left) while its budget
    lasts. Byes go to the lowest-ranked players without one (a single bye: the lowest of them whose
    leaving lets the rest avoid more rematches).

    What it gives up against the matching of tables of two: the best seating only within
    SEARCH_BUDGET (exact for fields of a dozen or so, greedy from the top once the budget is
    spent); a table's players come from the next COMPANION_WINDOW in ranking; within a score group
    neighbours in ranking sit together (no top half against bottom half); seats are not balanced
    (the service deals them at random); and the bye does not weigh floats."""
    sizes, byes = table_sizes(len(groups.order), size, allowed)
    best, tried = None, [0]
    for chosen in _bye_choices(groups.order, byes, had_bye):
        cost, tables = _seating(groups.without(chosen), sizes, met, tried)
        key = (sum(p in had_bye for p in chosen), cost[0])
        if best is None or key < best[0]:
            best = (key, tables, list(chosen))
        if key == (0, 0):
            break
    _, tables, chosen = best
    return Pairing(tables, chosen, sum(pair_key(a, b) in met for t in tables for a, b in combinations(t, 2)))


def _bye_choices(order: list[int], count: int, had_bye: set[int]) -> list[tuple[int, ...]]:
    """The sets of players to try for the byes, the likeliest first: the lowest-ranked without a bye
    (everyone had one: the lowest-ranked); for a single bye, the next lowest after them."""
    lowest = [p for p in reversed(order) if p not in had_bye] + [p for p in reversed(order) if p in had_bye]
    if count != 1:
        return [tuple(lowest[:count])]
    return [(p,) for p in lowest[:BYE_CANDIDATES]]


def _seating(groups: ScoreGroups, sizes: list[int], met,
             tried: list[int]) -> tuple[tuple[int, int, int], list[tuple[int, ...]]]:
    """Tables of ``sizes`` for the players of ``groups`` with the least cost (:func:`_table_cost`),
    found depth first from the top and kept per set of players left; once ``tried`` counts
    SEARCH_BUDGET tables, each table takes the cheapest players offered."""
    memo: dict = {}
    costs: dict[tuple[int, ...], tuple[int, int, int]] = {}

    def cost_of(table: tuple[int, ...]) -> tuple[int, int, int]:
        if table not in costs:
            costs[table] = _table_cost(table, groups, met)
        return costs[table]

    def best(left: tuple[int, ...], sizes_left: tuple[int, ...]):
        if not left:
            return (0, 0, 0), []
        key = (frozenset(left), sizes_left)
        if key in memo:
            return memo[key]
        first, others = left[0], left[1:]
        window = others[:max(COMPANION_WINDOW, max(sizes_left) - 1)]
        options = sorted((cost_of(t), n, t) for n, t in enumerate(_tables_of(first, window, sizes_left)))
        found = None
        for cost, _, table in options:
            if found is not None and (cost >= found[0] or tried[0] >= SEARCH_BUDGET):
                break  # options come cheapest first and the rest costs no less than nothing
            tried[0] += 1
            rest = list(sizes_left)
            rest.remove(len(table))
            below = best(tuple(p for p in others if p not in table), tuple(rest))
            total = tuple(x + y for x, y in zip(cost, below[0]))
            if found is None or total < found[0]:
                found = (total, [table] + below[1])
        memo[key] = found
        return found

    return best(tuple(groups.order), tuple(sorted(sizes, reverse=True)))


def _tables_of(first: int, window: Sequence[int], sizes: Sequence[int]) -> Iterable[tuple[int, ...]]:
    for size in sorted(set(sizes), reverse=True):
        for others in combinations(window, size - 1):
            yield (first,) + others


def _table_cost(table: tuple[int, ...], groups: ScoreGroups, met) -> tuple[int, int, int]:
    """(earlier meetings repeated, players moved between score groups, squared score differences):
    moved is how many group boundaries the players cross to meet at the table's middle group."""
    pairs = list(combinations(table, 2))
    places = sorted(groups.group[p] for p in table)
    middle = places[len(places) // 2]
    return (sum(met.get(pair_key(a, b), 0) for a, b in pairs), sum(abs(g - middle) for g in places),
            sum((groups.units[a] - groups.units[b]) ** 2 for a, b in pairs))


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
