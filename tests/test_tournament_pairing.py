"""Tournament pairings and standings on their own (bot/tournaments/): Swiss never repeats a pair
while avoidable and gives byes to the lowest-ranked without one, a round robin meets everyone
once, a bracket keeps the best seeds apart; points, Buchholz and head-to-head."""

from __future__ import annotations

import doctest
import importlib
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import (Table, bracket, first_round, league_opponent, meetings, next_round, pair_key, points,
                             round_robin, seed_positions, standings, swiss, swiss_rounds, table_sizes, winner_of)

pairing_module = importlib.import_module("bot.tournaments.pairing")
standings_module = importlib.import_module("bot.tournaments.standings")


def test_the_doctests_hold():
    for module in (pairing_module, standings_module):
        assert doctest.testmod(module).failed == 0


def perfect_matching_exists(players: list[int], met) -> bool:
    """Brute force: can these players be paired with nobody meeting again?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(pair_key(first, q) not in met and perfect_matching_exists([p for p in rest if p != q], met)
               for q in rest)


def play_swiss(field: list[int], rounds: int, outcomes, size: int = 2, allowed=(2,)):
    """Run a Swiss event with results drawn from ``outcomes`` (one int per table); returns the
    tables of every round and each round's pairing and the state it was paired from."""
    tables: list[Table] = []
    history = []
    for r in range(1, rounds + 1):
        scores = {p: 0.0 for p in field}
        for t in tables:
            for p, v in points(t).items():
                scores[p] += v
        order = sorted(field, key=lambda p: (-scores[p], field.index(p)))
        met = meetings(t.players for t in tables if t.is_game)
        had_bye = {t.players[0] for t in tables if not t.is_game}
        pairing = swiss(order, met, had_bye, size, allowed)
        history.append((order, met, had_bye, pairing))
        for table in pairing.tables:
            pick = next(outcomes) % (len(table) + 1)
            places = tuple(0 if pick == len(table) else (0 if i == pick else 1) for i in range(len(table)))
            tables.append(Table(r, table, places))
        tables += [Table(r, (p,), (0,), "bye") for p in pairing.byes]
    return tables, history


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 10), st.integers(1, 9), st.lists(st.integers(0, 9), min_size=200, max_size=200))
def test_swiss_never_repeats_a_pair_while_avoidable_and_byes_go_lowest(n, rounds, draws):
    field = list(range(100, 100 + n))
    tables, history = play_swiss(field, min(rounds, n), iter(draws))
    for order, met, had_bye, pairing in history:
        seated = [p for t in pairing.tables for p in t] + pairing.byes
        assert sorted(seated) == sorted(order), "everyone plays or has a bye, once"
        assert all(len(t) == 2 for t in pairing.tables)
        assert len(pairing.byes) == n % 2
        rest = [p for p in order if p not in pairing.byes]
        repeated = [t for t in pairing.tables if pair_key(*t) in met]
        if perfect_matching_exists(rest, met):
            assert not repeated, (order, met, pairing)
        if pairing.byes:
            bye = pairing.byes[0]
            without = [p for p in order if p not in had_bye]
            # The lowest-ranked without a bye whose leaving lets the rest avoid rematches ...
            fits = [p for p in without if perfect_matching_exists([q for q in order if q != p], met)]
            if fits:
                assert bye == fits[-1], (order, had_bye, bye)
            elif without:  # ... or, when nothing avoids them, the lowest-ranked without one
                assert bye == without[-1]
            if without:
                assert bye not in had_bye


def test_byes_go_round_the_bottom_of_a_seven_player_field():
    tables, history = play_swiss(list(range(1, 8)), 3, iter([0] * 100))
    byes = [pairing.byes[0] for _, _, _, pairing in history]
    assert len(set(byes)) == 3  # three rounds, three different players sat out
    for order, _, had_bye, pairing in history:
        assert pairing.byes[0] == [p for p in order if p not in had_bye][-1]


def test_swiss_pairs_by_score_then_rating():
    order = [5, 3, 8, 1, 2, 4]  # already ranked by the caller: score, then rating
    assert swiss(order, {}, set()).tables == [(5, 3), (8, 1), (2, 4)]
    # 5 and 3 met: 5 meets the next best it has not met, and 3 the next after
    assert swiss(order, {pair_key(5, 3): 1}, set()).tables == [(5, 8), (3, 1), (2, 4)]


def test_swiss_backtracks_rather_than_repeat():
    # Greedy would pair 1-2, 3-4 and leave 5-6, who met; backtracking finds a clean round.
    met = meetings([(5, 6), (1, 3), (2, 4)])
    pairing = swiss([1, 2, 3, 4, 5, 6], met, set())
    assert pairing.repeats == 0 and not [t for t in pairing.tables if pair_key(*t) in met]
    # Four players who all met each other: repeats are unavoidable, and counted.
    met = meetings(combinations([1, 2, 3, 4], 2))
    assert swiss([1, 2, 3, 4], met, set()).repeats == 2


def test_multiplayer_tables_avoid_sitting_together_again():
    field = list(range(1, 10))
    tables, history = play_swiss(field, 3, iter(range(1000)), size=3, allowed=(2, 3, 4))
    assert all(len(p.tables) == 3 and all(len(t) == 3 for t in p.tables) for *_, p in history)
    first, second = history[0][3], history[1][3]
    met = meetings(first.tables)
    assert not [t for t in second.tables if any(pair_key(a, b) in met for a, b in combinations(t, 2))]
    sizes, byes = table_sizes(8, 3, (2, 3, 4))
    assert (sizes, byes) == ([3, 3, 2], 0)
    assert table_sizes(5, 4, (2, 4)) == ([4], 1)


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


def test_a_large_field_pairs_quickly():
    field = list(range(64))
    tables, history = play_swiss(field, 6, iter(range(10_000)))
    assert all(p.repeats == 0 for *_, p in history)


@pytest.mark.parametrize("n", [3, 5, 7])
def test_every_player_gets_a_bye_before_anyone_gets_a_second(n):
    tables, history = play_swiss(list(range(n)), n, iter([1] * 1000))
    byes = [p.byes[0] for *_, p in history]
    assert sorted(byes) == list(range(n))
