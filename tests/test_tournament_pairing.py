"""Tournament pairings and standings on their own (bot/common/tournaments/), checked against the rules
rather than the code: a Swiss round pairs equal scores (FIDE C.04.1: the fewest players moved
between score groups, never a rematch or a second bye while avoidable, checked against every
possible pairing of small fields), balances who moves first, and seats tables of three and four
toward the same ends; a round robin meets everyone once, a bracket keeps the best seeds apart;
points, Buchholz and head-to-head."""

from __future__ import annotations

import doctest
import importlib
import random
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import networkx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.common.tournaments import (Pairing, Table, bracket, first_round, league_opponent, meetings, next_round, pair_key,
                             points, round_robin, seed_positions, standings, swiss, swiss_rounds, table_sizes,
                             winner_of)
from bot.common.tournaments.standings import totals

pairing_module = importlib.import_module("bot.common.tournaments.pairing")
standings_module = importlib.import_module("bot.common.tournaments.standings")


def test_the_doctests_hold():
    for module in (pairing_module, standings_module):
        assert doctest.testmod(module).failed == 0


# ---- playing a Swiss event ----------------------------------------------------------------------------
@dataclass
class Round:
    """What one round was paired from, and the pairing."""

    order: list[int]
    scores: dict[int, float]
    met: dict[frozenset[int], int]
    had_bye: set[int]
    moves: dict[int, list[bool]]  # earlier games: moved first?
    pairing: Pairing


def play_swiss(players: list[int], rounds: int, rnd: random.Random, *, size: int = 2, allowed=(2,),
               first: bool = False, drop: float = 0.0) -> list[Round]:
    """A Swiss event with random results (and, with ``drop``, a random dropout before a round):
    every round as it was paired. ``first``: the game has a first player, so the pairing seats its
    tables (the first listed moves first) and the event keeps who moved first."""
    field, tables, moves, played = list(players), [], {p: [] for p in players}, []
    for r in range(1, rounds + 1):
        if drop and len(field) > 2 and rnd.random() < drop:
            field.remove(rnd.choice(field))
        scores = {p: totals(tables).get(p, 0.0) for p in field}
        order = sorted(field, key=lambda p: (-scores[p], players.index(p)))
        met = meetings(t.players for t in tables if t.is_game)
        had_bye = {t.players[0] for t in tables if not t.is_game}
        history = {p: list(m) for p, m in moves.items()}
        pairing = swiss(order, scores, met, had_bye, size, allowed, history if first else None)
        played.append(Round(order, scores, met, had_bye, history, pairing))
        for table in pairing.tables:
            tables.append(Table(r, table, tuple(rnd.randrange(len(table)) for _ in table)))
            if first:
                for seat, p in enumerate(table):
                    moves[p].append(seat == 0)
        tables += [Table(r, (p,), (0,), "bye") for p in pairing.byes]
    return played


def everyone_once(r: Round) -> bool:
    seated = [p for t in r.pairing.tables for p in t] + r.pairing.byes
    return sorted(seated) == sorted(r.order)


# ---- the rules, in their own words ---------------------------------------------------------------------
def group_of(r: Round):
    """Each player's score group, 0 for the highest score in the round's field (scores compared in
    twelfths of a point: at a table of four, ⅓ + ½ and ½ + ⅓ differ in their last float bit)."""
    twelfths = {p: round(12 * r.scores[p]) for p in r.order}
    scores = sorted(set(twelfths.values()), reverse=True)
    return {p: scores.index(twelfths[p]) for p in r.order}


def rule_cost(r: Round, pairs, bye) -> tuple:
    """What the rules minimise, most important first: second byes, rematches, how high the bye
    goes (above the lowest score), players moved between score groups (one per group boundary
    crossed; the bye sits at the bottom of the lowest group), squared score differences."""
    group, low = group_of(r), min(r.scores[p] for p in r.order)
    lowest = max(group.values(), default=0)
    cost = (0, sum(r.met.get(pair_key(a, b), 0) for a, b in pairs), 0,
            sum(abs(group[a] - group[b]) for a, b in pairs), sum((r.scores[a] - r.scores[b]) ** 2 for a, b in pairs))
    if bye is None:
        return cost
    return (int(bye in r.had_bye), cost[1], r.scores[bye] - low, cost[3] + lowest - group[bye],
            cost[4] + (r.scores[bye] - low) ** 2)


def best_possible(r: Round) -> tuple:
    """The least rule cost of any pairing of the round's field: every perfect matching (with one
    player left for the bye in an odd field), tried one by one."""
    def add(x, y):
        return tuple(a + b for a, b in zip(x, y))

    @lru_cache(maxsize=None)
    def best(left: frozenset) -> tuple:
        if not left:
            return (0,) * 5
        first = min(left, key=r.order.index)
        rest = left - {first}
        return min(add(rule_cost(r, [(first, q)], None), best(rest - {q})) for q in rest)

    if len(r.order) % 2 == 0:
        return best(frozenset(r.order))
    return min(add(rule_cost(r, [], p), best(frozenset(r.order) - {p})) for p in r.order)


def avoidable(r: Round) -> tuple[bool, bool]:
    """(a pairing without rematches exists, one that also gives no second bye exists): a
    maximum-cardinality matching over the pairs that never met, with a "bye" vertex beside the
    players who may sit out (all of them, or those without a bye yet)."""
    def perfect(bye_to) -> bool:
        graph = networkx.Graph()
        graph.add_nodes_from(r.order)
        graph.add_edges_from((a, b) for a, b in combinations(r.order, 2) if pair_key(a, b) not in r.met)
        if len(r.order) % 2:
            graph.add_edges_from(("bye", p) for p in bye_to)
        return 2 * len(networkx.max_weight_matching(graph, maxcardinality=True)) == graph.number_of_nodes()
    fresh = [p for p in r.order if p not in r.had_bye] or r.order
    return perfect(r.order), perfect(fresh)


def first_mover_is_right(r: Round, table: tuple[int, int]) -> bool:
    """The one who moved first fewer times (than second) moves first; equal, the one who moved
    second in their latest game where the two sat differently."""
    a, b = table
    balance = {p: sum(1 if m else -1 for m in r.moves[p]) for p in table}
    if balance[a] != balance[b]:
        return balance[a] < balance[b]
    for ma, mb in zip(reversed(r.moves[a]), reversed(r.moves[b])):
        if ma != mb:
            return not ma
    return True  # nothing tells them apart: either way is fair


# ---- Swiss: tables of two ------------------------------------------------------------------------------
def test_equal_scores_meet_when_a_rematch_splits_the_natural_pairs():
    # Players 1-4 on a point, 5 and 6 on none; 3 and 4 met. Pairing down the ranking (1-2, then 3
    # with 5 and 4 with 6) moves two players out of their group; 1-3 and 2-4 keep both groups whole.
    scores = {1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0, 5: 0.0, 6: 0.0}
    pairing = swiss([1, 2, 3, 4, 5, 6], scores, meetings([(3, 4)]), set())
    assert {frozenset(t) for t in pairing.tables} == {frozenset((1, 3)), frozenset((2, 4)), frozenset((5, 6))}
    assert pairing.repeats == 0 and pairing.byes == []


def test_within_a_score_group_the_top_half_meets_the_bottom_half():
    order = [5, 3, 8, 1, 2, 4]  # ranked by the caller: score, then rating; all on one score
    assert swiss(order, {}, {}, set()).tables == [(5, 1), (3, 2), (8, 4)]
    # 5 and 1 met: the nearest pairing to 1 v 4, 2 v 5, 3 v 6 (FIDE's next transposition of S2)
    assert swiss(order, {}, {pair_key(5, 1): 1}, set()).tables == [(5, 2), (3, 1), (8, 4)]


def test_a_lone_leader_floats_one_group_down_not_two():
    # 3 points: A; 2: B, C; 1: D; 0: E, F. A-B and C-D are two one-group drops; A-D, B-C, E-F would
    # drop A two groups: the rules count that as two moves, and the squared gap as the longer drop.
    A, B, C, D, E, F = range(1, 7)
    scores = {A: 3.0, B: 2.0, C: 2.0, D: 1.0, E: 0.0, F: 0.0}
    pairing = swiss([A, B, C, D, E, F], scores, {}, set())
    assert {frozenset(t) for t in pairing.tables} == {frozenset((A, B)), frozenset((C, D)), frozenset((E, F))}


def test_the_bye_goes_to_the_bottom_and_the_odd_one_of_a_group_floats_from_its_bottom():
    # 1-3 on a point, 4-7 on none, 7 had a bye: 3 floats down to meet 4, 6 sits out.
    scores = {1: 1.0, 2: 1.0, 3: 1.0}
    pairing = swiss([1, 2, 3, 4, 5, 6, 7], scores, {}, {7})
    assert pairing.byes == [6]
    assert {frozenset(t) for t in pairing.tables} == {frozenset((1, 2)), frozenset((3, 4)), frozenset((5, 7))}


def test_swiss_backtracks_rather_than_repeat_and_counts_what_it_cannot_avoid():
    met = meetings([(5, 6), (1, 3), (2, 4)])
    pairing = swiss([1, 2, 3, 4, 5, 6], {}, met, set())
    assert pairing.repeats == 0 and not [t for t in pairing.tables if pair_key(*t) in met]
    # Four players who all met each other: repeats are unavoidable, and counted.
    assert swiss([1, 2, 3, 4], {}, meetings(combinations([1, 2, 3, 4], 2)), set()).repeats == 2


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 10), st.integers(2, 6), st.randoms(use_true_random=False), st.booleans())
def test_small_fields_pair_as_well_as_any_pairing_could(n, rounds, rnd, drop):
    """Against every pairing there is: no second bye, then no rematch, while any pairing avoids
    them; the bye as low as it can go; the fewest players moved between score groups; the smallest
    score differences."""
    for r in play_swiss(list(range(100, 100 + n)), rounds, rnd, drop=0.3 if drop else 0.0):
        assert everyone_once(r) and all(len(t) == 2 for t in r.pairing.tables)
        bye = r.pairing.byes[0] if r.pairing.byes else None
        assert rule_cost(r, r.pairing.tables, bye) == best_possible(r), (r.order, r.scores, r.met, r.pairing)


@settings(max_examples=12, deadline=None)
@given(st.integers(4, 40), st.integers(2, 7), st.randoms(use_true_random=False))
def test_larger_fields_avoid_rematches_and_second_byes_while_they_can(n, rounds, rnd):
    for r in play_swiss(list(range(1, n + 1)), rounds, rnd, first=True, drop=0.2):
        assert everyone_once(r) and len(r.pairing.byes) == len(r.order) % 2
        clean, clean_and_fresh = avoidable(r)
        bye = r.pairing.byes[0] if r.pairing.byes else None
        if bye is not None and set(r.order) - r.had_bye:
            assert bye not in r.had_bye, "at most one bye each while someone has had none"
        if clean_and_fresh:
            assert r.pairing.repeats == 0
        assert r.pairing.repeats == sum(pair_key(*t) in r.met for t in r.pairing.tables)


@pytest.mark.parametrize("n", [3, 5, 7])
def test_every_player_gets_a_bye_before_anyone_gets_a_second(n):
    played = play_swiss(list(range(n)), n, random.Random(n))
    assert sorted(r.pairing.byes[0] for r in played) == list(range(n))


def test_a_large_field_pairs_quickly():
    played = play_swiss(list(range(64)), 6, random.Random(64), first=True)
    assert all(r.pairing.repeats == 0 for r in played)


# ---- Swiss: who moves first ----------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(st.integers(2, 30), st.integers(1, 8), st.randoms(use_true_random=False))
def test_first_moves_alternate(n, rounds, rnd):
    """At every table the player with fewer first moves (than second) moves first, ties by who
    moved second last; so nobody's first and second moves differ by more than one unless their
    opponent was due the same seat at least as much (the score groups come first)."""
    played = play_swiss(list(range(1, n + 1)), rounds, rnd, first=True, drop=0.2)
    for r in played:
        for table in r.pairing.tables:
            assert first_mover_is_right(r, table), (table, r.moves[table[0]], r.moves[table[1]])
    # round one: the higher ranked moves first at tables 1, 3, 5 ... and second at the others
    first = played[0].pairing.tables
    rank = played[0].order.index
    assert [rank(a) < rank(b) for a, b in first] == [i % 2 == 0 for i in range(len(first))]


def test_first_moves_stay_within_one_when_the_pairing_is_free_to_choose():
    # Eight players, every game drawn (one score group throughout), seven rounds, nobody meets
    # twice: every player's first and second moves end within one of each other.
    field = list(range(1, 9))
    tables, moves = [], {p: [] for p in field}
    for r in range(1, 8):
        met = meetings(t.players for t in tables)
        pairing = swiss(field, {}, met, set(), first_moves={p: list(m) for p, m in moves.items()})
        assert pairing.repeats == 0
        for a, b in pairing.tables:
            moves[a].append(True)
            moves[b].append(False)
            tables.append(Table(r, (a, b), (0, 0)))
    assert all(abs(sum(1 if m else -1 for m in moves[p])) <= 1 for p in field), moves


def test_without_a_first_player_tables_list_the_better_player_first():
    pairing = swiss([1, 2, 3, 4], {}, {}, set())
    assert pairing.tables == [(1, 3), (2, 4)]
    seated = swiss([1, 2, 3, 4], {}, {}, set(), first_moves={1: [True], 3: [False]})
    assert seated.tables == [(3, 1), (4, 2)]  # 1 moved first last time; 2 and 4 never played: table 2, 4 first


# ---- Swiss: tables of three and four -------------------------------------------------------------------
def seatings(players: tuple, sizes: tuple):
    """Every way to seat ``players`` at tables of ``sizes`` (in any order)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            for below in seatings(tuple(p for p in rest if p not in others), tuple(left)):
                yield [(first,) + others] + below


def table_rule_cost(r: Round, tables) -> tuple:
    """Rematches, players moved between score groups (to the table's middle group), squared gaps
    (in twelfths of a point, whole numbers: tables of three score quarters, of four sixths)."""
    group, twelfths = group_of(r), {p: round(12 * r.scores[p]) for p in r.order}
    cost = [0, 0, 0]
    for t in tables:
        places = sorted(group[p] for p in t)
        cost[0] += sum(r.met.get(pair_key(a, b), 0) for a, b in combinations(t, 2))
        cost[1] += sum(abs(g - places[len(places) // 2]) for g in places)
        cost[2] += sum((twelfths[a] - twelfths[b]) ** 2 for a, b in combinations(t, 2))
    return tuple(cost)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([(6, 3), (8, 3), (9, 3), (8, 4), (10, 4)]), st.integers(1, 4), st.randoms(use_true_random=False))
def test_small_fields_at_larger_tables_seat_as_well_as_any_seating(field, rounds, rnd):
    n, size = field
    allowed = (2, 3, 4)
    for r in play_swiss(list(range(1, n + 1)), rounds, rnd, size=size, allowed=allowed):
        assert everyone_once(r) and not r.pairing.byes
        sizes, _ = table_sizes(n, size, allowed)
        best = min(table_rule_cost(r, s) for s in seatings(tuple(r.order), tuple(sizes)))
        assert table_rule_cost(r, r.pairing.tables) == best, (r.order, r.scores, r.pairing)


def test_multiplayer_tables_avoid_sitting_together_again():
    played = play_swiss(list(range(1, 10)), 3, random.Random(9), size=3, allowed=(2, 3, 4))
    assert all(len(r.pairing.tables) == 3 and all(len(t) == 3 for t in r.pairing.tables) for r in played)
    met = meetings(played[0].pairing.tables)
    assert not [t for t in played[1].pairing.tables if any(pair_key(a, b) in met for a, b in combinations(t, 2))]
    sizes, byes = table_sizes(8, 3, (2, 3, 4))
    assert (sizes, byes) == ([3, 3, 2], 0)
    assert table_sizes(5, 4, (2, 4)) == ([4], 1)


def test_larger_tables_keep_score_groups_and_give_the_bye_to_the_bottom():
    # Three on a point, four on none, tables of three: the leaders sit together, the bye is the last.
    scores = {1: 1.0, 2: 1.0, 3: 1.0}
    pairing = swiss(list(range(1, 8)), scores, {}, set(), 3, (3,))
    assert pairing.tables == [(1, 2, 3), (4, 5, 6)] and pairing.byes == [7]
    # 1 and 2 met: 3 comes down to the first table of the zero group, 4 goes up
    pairing = swiss(list(range(1, 8)), scores, {pair_key(1, 2): 1}, set(), 3, (3,))
    assert pairing.repeats == 0 and pairing.byes == [7]


@settings(max_examples=8, deadline=None)
@given(st.integers(9, 40), st.sampled_from([3, 4]), st.randoms(use_true_random=False))
def test_larger_fields_at_larger_tables_stay_quick_and_whole(n, size, rnd):
    for r in play_swiss(list(range(1, n + 1)), 4, rnd, size=size, allowed=(2, 3, 4), drop=0.2):
        assert everyone_once(r)
        if r.had_bye != set(r.order):
            assert not set(r.pairing.byes) & r.had_bye or len(set(r.order) - r.had_bye) < len(r.pairing.byes)


def test_swiss_round_count_follows_the_field():
    assert [swiss_rounds(n) for n in (2, 3, 4, 5, 8, 9, 16, 17)] == [1, 2, 2, 3, 3, 4, 4, 5]


@given(st.integers(2, 16))
def test_round_robin_meets_everyone_exactly_once(n):
    players = list(range(1, n + 1))
    rounds = round_robin(players)
    assert len(rounds) == (n if n % 2 else n - 1)
    pairs = [pair_key(a, b) for r in rounds for a, b in r if b is not None]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    for r in rounds:  # once per round each
        seen = [p for a, b in r for p in (a, b) if p is not None]
        assert sorted(seen) == players
        assert sum(b is None for _, b in r) == n % 2


def test_a_bracket_keeps_the_best_seeds_apart_and_gives_the_byes_to_them():
    assert seed_positions(4) == [1, 4, 2, 3]
    assert first_round([11, 12, 13, 14, 15, 16]) == [(11, None), (14, 15), (12, None), (13, 16)]
    assert next_round([11, 15, 12, 13]) == [(11, 15), (12, 13)]


def test_points_by_placing_and_winners():
    assert points(Table(1, (1, 2), (0, 1))) == {1: 1.0, 2: 0.0}
    assert points(Table(1, (1, 2), (0, 0))) == {1: 0.5, 2: 0.5}
    assert points(Table(1, (1, 2, 3), (1, 0, 0))) == {1: 0.0, 2: 0.75, 3: 0.75}
    assert points(Table(1, (7,), (0,), "bye")) == {7: 1.0}
    assert points(Table(1, (1, 2), ())) == {1: 0.0, 2: 0.0}  # void
    assert points(Table(1, (1, 2), None)) == {}  # still running
    seed = {1: 0, 2: 1}
    assert winner_of(Table(1, (2, 1), (0, 1)), seed) == 2
    assert winner_of(Table(1, (2, 1), (0, 0)), seed) == 1  # a draw: the better seed goes on
    assert winner_of(Table(1, (2, 1), ()), seed) == 1


def test_swiss_standings_use_buchholz():
    t = [Table(1, (1, 2), (0, 1)), Table(1, (3, 4), (0, 1)), Table(2, (1, 3), (0, 1)), Table(2, (2, 4), (1, 0))]
    rows = standings("swiss", [1, 2, 3, 4], t)
    assert [(s.player, s.rank, s.points, s.tiebreak) for s in rows] == [
        (1, 1, 2.0, 0.0 + 1.0), (3, 2, 1.0, 1.0 + 2.0), (4, 3, 1.0, 1.0 + 0.0), (2, 4, 0.0, 2.0 + 1.0)]
    # Buchholz orders 3 before 4 though 4 has the better seed; played and wins are counted
    assert [s.played for s in rows] == [2, 2, 2, 2] and rows[0].wins == 2


def test_round_robin_standings_use_head_to_head():
    # 1, 2 and 3 beat 4; 2 beat 1, 1 beat 3, 3 beat 2: all on 2 points, head-to-head 1 each; rating decides
    t = [Table(1, (1, 4), (0, 1)), Table(1, (2, 3), (1, 0)), Table(2, (1, 3), (0, 1)), Table(2, (4, 2), (1, 0)),
         Table(3, (1, 2), (1, 0)), Table(3, (3, 4), (0, 1))]
    rows = standings("roundrobin", [1, 2, 3, 4], t, ratings={3: 30.0, 2: 20.0, 1: 10.0})
    assert [(s.player, s.rank, s.points, s.tiebreak) for s in rows] == [
        (3, 1, 2.0, 1.0), (2, 1, 2.0, 1.0), (1, 1, 2.0, 1.0), (4, 4, 0.0, None)]
    # 1 and 2 on 2 points, 2 beat 1; 3 and 4 on 1, 3 beat 4: head-to-head orders both pairs
    t = [Table(1, (1, 2), (1, 0)), Table(1, (3, 4), (0, 1)), Table(2, (1, 3), (0, 1)), Table(2, (4, 2), (0, 1)),
         Table(3, (1, 4), (0, 1)), Table(3, (2, 3), (0, 1))]
    rows = standings("roundrobin", [1, 2, 3, 4], t)
    assert [(s.player, s.rank, s.points, s.tiebreak) for s in rows] == [
        (2, 1, 2.0, 1.0), (1, 2, 2.0, 0.0), (3, 3, 1.0, 1.0), (4, 4, 1.0, 0.0)]


def test_elimination_ranks_by_how_far_each_got_and_draws_its_bracket():
    seed = {p: i for i, p in enumerate([1, 2, 3, 4, 5])}
    t = [Table(1, (1,), (0,), "bye"), Table(1, (4, 5), (1, 0)), Table(1, (2,), (0,), "bye"), Table(1, (3,), (0,), "bye"),
         Table(2, (1, 5), (0, 1)), Table(2, (2, 3), (1, 0)), Table(3, (1, 3), (1, 0))]
    rows = standings("elimination", [1, 2, 3, 4, 5], t)
    assert [(s.player, s.rank) for s in rows] == [(3, 1), (1, 2), (2, 3), (5, 3), (4, 5)]
    drawn = bracket(t, 3, seed)
    assert [m.winner for m in drawn[0]] == [1, 5, 2, 3] and [m.winner for m in drawn[2]] == [3]
    half = bracket(t[:4], 3, seed)  # round 1 only: round 2 shows who is through, the final is empty
    assert [m.players for m in half[1]] == [(1, 5), (2, 3)] and half[2][0].players == (None, None)
    running = bracket(t[:1] + [Table(1, (4, 5), None)] + t[2:4], 3, seed)  # 4-5 still playing
    assert [m.players for m in running[1]] == [(1, None), (2, 3)]


def test_league_standings_and_opponents():
    t = [Table(0, (1, 2), (0, 1)), Table(0, (3, 1), (0, 1)), Table(0, (2, 3), (0, 0)), Table(0, (4, 1), None)]
    rows = standings("league", [1, 2, 3, 4], t)
    assert [(s.player, s.points, s.played) for s in rows] == [(3, 1.5, 2), (1, 1.0, 2), (2, 0.5, 2), (4, 0.0, 0)]
    met = meetings([(1, 2)])
    assert league_opponent(1, 20.0, [(2, 20.0), (3, 5.0), (4, 18.0)], met) == 4
    assert league_opponent(1, 20.0, [(2, 20.0)], met) is None
    assert league_opponent(1, 20.0, [(3, 21.0), (4, 19.0)], {}) == 3  # equally close: who waited longer


