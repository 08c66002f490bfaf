"""Arena Duel scenarios (RULES.md §2 and the rulebook's own examples), plus the engine contract.

Positions are set by hand: ``make`` puts the figures on named hexes with chosen facings and
dice, then ``turn`` gives both orders. Facings: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from games import events_for, get_game
from games.arena import dice_for_turn
from games.arena.engine import ALL_DICE, charge_rights, compare_fight, fight_dice
from games.arena.hexes import HEXES, axial, direction_between, distance, name, step
from games.errors import GameError, GameOver, NotationError, NotYourTurn
from games.rng import Rng
from tests.test_contract import assert_illegal_refused, assert_view_hides_secrets

G = get_game("arena")
ROOT = Path(__file__).resolve().parents[1]


def make(pos=("c2", "c3"), facing=(0, 3), dice=([1, 1, 1], [1, 1, 1]), life=(15, 15), charge=(False, False),
         back=(False, False), **options):
    state = G.setup(2, options, seed=1)
    state.update(pos=list(pos), facing=list(facing), life=list(life), can_charge=list(charge),
                 back_blocked=list(back))
    if dice is not None:
        state["dice"] = [list(dice[0]), list(dice[1])]
    return state


def turn(state, order0, order1):
    """Both orders (seat 0 first); returns the new state and the resolution's events."""
    state, first = G.apply(state, 0, order0)
    assert first == [{"type": "order_in", "seat": 0}]
    state, events = G.apply(state, 1, order1)
    return state, events


def types(events):
    return [e["type"] for e in events]


def only(events, kind):
    found = [e for e in events if e["type"] == kind]
    assert len(found) == 1, (kind, types(events))
    return found[0]


def refused(state, seat, action, key):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(GameError) as err:
        G.apply(state, seat, action)
    assert err.value.key == key, err.value.key
    assert json.dumps(state, sort_keys=True) == before


# ---- the arena ----------------------------------------------------------------------------------
def test_arena_has_19_named_hexes_in_five_columns():
    assert len(HEXES) == len(set(HEXES)) == 19
    assert [sum(h[0] == c for h in HEXES) for c in "abcde"] == [3, 4, 5, 4, 3]
    for h in HEXES:
        assert name(axial(h)) == h
    assert distance("c1", "c5") == 4 and distance("a1", "e3") == 4
    for bad in ("c6", "a4", "f1", "c0", "", "cc"):
        with pytest.raises(ValueError):
            axial(bad)


def test_neighbours_and_walls():
    assert [step("c3", d) for d in range(6)] == ["c4", "d3", "d2", "c2", "b2", "b3"]
    assert [step("c1", d) for d in range(6)] == ["c2", "d1", None, None, None, "b1"]
    assert direction_between("c3", "d3") == 1 and direction_between("c3", "c5") is None


# ---- setup, options, notation -------------------------------------------------------------------
def test_setup_puts_the_figures_on_the_doors_facing_each_other():
    s = G.setup(2, {}, seed=99)
    assert s["pos"] == ["c1", "c5"] and s["facing"] == [0, 3]
    assert s["life"] == [15, 15] and s["can_charge"] == [False, False]
    assert G.to_act(s) == {0, 1}
    assert s["dice"] == [dice_for_turn(99, 1, 0), dice_for_turn(99, 1, 1)]
    assert G.legal_actions(s, 0) == [f"{m}/{t}" for m in ("F", "FR", "FL", "S") for t in "0RL"]


def test_options_dice_mode_and_life():
    s = G.setup(2, {"dice": "reported", "life": "7"}, seed=1)
    assert s["dice_mode"] == "reported" and s["life"] == [7, 7] and s["dice"] == [None, None]
    with pytest.raises(GameError) as err:
        G.setup(2, {"dice": "loaded"}, 1)
    assert err.value.key == "option_bad_choice"
    with pytest.raises(GameError) as err:
        G.setup(2, {"life": "0"}, 1)
    assert err.value.key == "option_out_of_range"


def test_registered_names():
    assert get_game("arenaduel") is G and get_game("Arena_Duel") is G
    assert G.hidden_information and G.min_players == G.max_players == 2


def test_canonical_notation():
    assert G.canonical(" fr l ") == "FR/L"
    assert G.canonical("cf") == "CF/0"
    assert G.canonical("S/n") == "S/0"
    assert G.canonical("3 5 1") == "3-5-1" == G.canonical("351") == G.canonical("3,5,1")
    for action in G.legal_actions(G.setup(2, {}, 1), 0) + list(ALL_DICE[:5]):
        assert G.canonical(action) == action


@pytest.mark.parametrize("text,key", [
    ("", "bad_notation"), ("hello", "bad_notation"), ("X/L", "arena.unknown_move"),
    ("FR/Q", "arena.unknown_turn"), ("3-5", "arena.dice_count"), ("3-5-1-2", "arena.dice_count"),
    ("3-7-1", "arena.die_range"), ("0-1-2", "arena.die_range"), ("FR/L 3-5-1", "arena.dice_separately"),
    ("3 5 1 fr l", "arena.dice_separately"),
])
def test_malformed_text_gets_a_precise_key(text, key):
    with pytest.raises(NotationError) as err:
        G.apply(G.setup(2, {"dice": "reported"}, 1), 0, G.canonical(text))
    assert err.value.key == key


def test_action_groups_fit_the_panel():
    s = make(pos=("c3", "a1"), charge=(True, False))
    actions = G.legal_actions(s, 0)
    groups = {}
    for a in actions:
        groups.setdefault(G.action_group(a), []).append(a)
    assert list(groups) == ["F", "FR", "FL", "BR", "BL", "B", "S", "CF", "CFR", "CFL"]
    assert all(len(v) == 3 for v in groups.values())
    assert G.action_path("FR/L") == ("FR", "FR/L")
    # reported dice: one die per click, never more than 6 choices in a menu
    assert G.action_path("3-5-1") == ("3", "3-5", "3-5-1")
    for depth in (1, 2):
        for prefix in {G.action_path(a)[:depth - 1] for a in ALL_DICE}:
            steps = {G.action_path(a)[depth - 1] for a in ALL_DICE if G.action_path(a)[:depth - 1] == prefix}
            assert len(steps) == 6
    assert all("|" not in step for a in ALL_DICE + tuple(actions) for step in G.action_path(a))


# ---- which movements are offered ------------------------------------------------------------------
def test_movements_leaving_the_arena_are_not_offered():
    s = make(pos=("a1", "e3"), facing=(0, 3))
    assert G.offered_moves(s, 0) == ["F", "FR", "BR", "S"]  # a1 facing N: a2, b2, b1 are inside
    refused(s, 0, "FL/0", "arena.off_arena")
    refused(s, 0, "B/R", "arena.off_arena")


def test_charge_needs_the_right_and_two_hexes_inside():
    s = make(pos=("c1", "c5"), facing=(0, 3))
    refused(s, 0, "CF/0", "arena.no_charge_right")
    s = make(pos=("c1", "c5"), facing=(0, 3), charge=(True, True))
    assert G.offered_moves(s, 0) == ["F", "FR", "FL", "S", "CF", "CFR", "CFL"]
    s = make(pos=("c4", "c1"), facing=(0, 0), charge=(True, True))  # one hex from the top wall
    assert "CF" not in G.offered_moves(s, 0) and "F" in G.offered_moves(s, 0)
    refused(s, 0, "CF/0", "arena.charge_blocked")


def test_back_movement_restriction_after_a_fight_with_the_enemy_behind():
    # B faces away from A (north) and loses the fight; A is right behind B afterwards.
    s = make(pos=("c2", "c3"), facing=(0, 0), dice=([5, 1, 1], [6, 6, 6]))
    s, events = turn(s, "S/0", "S/0")
    assert only(events, "fight_back")["seat"] == 1
    assert only(events, "back_blocked")["seat"] == 1
    assert s["back_blocked"] == [False, True]
    assert s["pos"] == ["c3", "c4"]   # A won through its front and pushed B on
    assert not {"B", "BR", "BL"} & set(G.offered_moves(s, 1))
    assert {"B", "BR", "BL"} <= set(G.offered_moves(s, 0))
    s["dice"] = [[1, 1, 1], [1, 1, 1]]
    refused(s, 1, "B/0", "arena.back_blocked")
    refused(s, 1, "BR/L", "arena.back_blocked")
    # once the enemy is no longer behind after a turn, the restriction lifts
    s2, _ = turn(s, "BL/0", "F/0")
    assert s2["back_blocked"] == [False, False]


# ---- fights: the rulebook's five examples -----------------------------------------------------------
@pytest.mark.parametrize("a,b,winner", [
    ([1, 6, 6], [2, 6], "A"),      # 6を2つ出したAの方が、勝ち
    ([4, 5, 5], [1, 6], "B"),      # 6を出したBの方が、勝ち
    ([3, 3, 3], [4], "B"),         # 4を出したBの方が、勝ち
    ([6, 2, 3], [3, 6, 3], "B"),   # 3を2つ出したBの方が、勝ち
    ([6, 2, 3], [3, 6], "A"),      # 2を出したAの方が、勝ち
])
def test_rulebook_fight_examples(a, b, winner):
    assert compare_fight(a, b) == (1 if winner == "A" else -1)
    assert compare_fight(b, a) == (-1 if winner == "A" else 1)


# B's facing that puts A (on c2, south of B on c3) at each relative position for B.
B_FACING_FOR = {"front": 3, "front_side": 2, "back_side": 1, "back": 0}


@pytest.mark.parametrize("a,b,b_side,winner", [
    ([1, 6, 6], [2, 6, 1], "front_side", 0),
    ([4, 5, 5], [1, 6, 2], "front_side", 1),
    ([3, 3, 3], [4, 1, 1], "back_side", 1),
    ([6, 2, 3], [3, 6, 3], "front", 1),
    ([6, 2, 3], [3, 6, 5], "front_side", 0),
])
def test_rulebook_fight_examples_on_the_board(a, b, b_side, winner):
    """A on c2 faces north at B on c3 (front: all three dice); B's facing picks B's dice."""
    s = make(pos=("c2", "c3"), facing=(0, B_FACING_FOR[b_side]), dice=(a, b))
    s, events = turn(s, "S/0", "S/0")
    used = {e["seat"]: (e["type"], e["dice"]) for e in events if e["type"].startswith("fight_") and "seat" in e}
    relative = {"front": 0, "front_side": 1, "back_side": 2}[b_side]
    assert used[0] == ("fight_front", "-".join(map(str, a)))
    assert used[1] == (f"fight_{b_side}", "-".join(map(str, fight_dice(b, relative))))
    won = only(events, "fight_won")
    assert won["winner"] == winner and won["damage"] == 1
    # both attacked through the front or side: the winner's front win pushes the loser on
    if winner == 0:   # A attacked through its front: advances to c3, B pushed to c4
        assert s["pos"] == ["c3", "c4"] and s["life"] == [14, 13]
    elif b_side == "front":   # B won through its front: advances to c2, A pushed to c1
        assert s["pos"] == ["c1", "c2"] and s["life"] == [13, 14]
    else:   # B won through a side: no push
        assert s["pos"] == ["c2", "c3"] and s["life"] == [13, 14]
        assert "front_push" not in types(events)


def test_dice_by_relative_position():
    dice = [2, 5, 4]
    assert [fight_dice(dice, r) for r in range(6)] == [[2, 5, 4], [2, 5], [2], [], [2], [2, 5]]


def test_back_against_back_is_a_draw_and_nobody_is_hurt_by_it():
    s = make(pos=("c2", "c3"), facing=(3, 0), dice=([6, 6, 6], [1, 1, 1]))
    s, events = turn(s, "S/0", "S/0")
    assert types(events).count("fight_back") == 2 and "fight_draw" in types(events)
    assert s["life"] == [14, 14]
    assert s["back_blocked"] == [True, True]


def test_equal_dice_lists_draw():
    s = make(pos=("c2", "c3"), facing=(0, 3), dice=([2, 4, 6], [6, 2, 4]))
    s, events = turn(s, "S/0", "S/0")
    assert "fight_draw" in types(events) and s["life"] == [14, 14] and s["pos"] == ["c2", "c3"]


# ---- the four outcome cases ------------------------------------------------------------------------------
def test_case_1_adjacent_after_moving_fights():
    s = make(pos=("c1", "c4"), facing=(0, 3), dice=([6, 1, 1], [1, 1, 1]))
    s, events = turn(s, "F/0", "S/0")   # A to c2, B stays on c4: not adjacent yet ...
    assert not [t for t in types(events) if t.startswith("fight")]
    s["dice"] = [[6, 1, 1], [2, 1, 1]]
    s, events = turn(s, "F/0", "S/0")   # ... now A on c3 next to B on c4
    assert types(events).index("moved") < types(events).index("fight_front")
    assert only(events, "fight_won")["winner"] == 0


def test_case_2_crossing_fight_compares_the_second_die_and_stops_other_fights():
    s = make(pos=("c2", "c3"), facing=(0, 3), dice=([1, 2, 1], [6, 5, 6]))
    s, events = turn(s, "F/0", "F/0")   # they swap hexes across the side c2|c3
    crossing = only(events, "crossing")
    assert crossing["winner"] == 1 and crossing["loser"] == 0 and crossing["damage"] == 2
    assert s["pos"] == ["c3", "c2"] and s["life"] == [12, 14]
    assert not [t for t in types(events) if t.startswith("fight")]  # adjacent, but no other fight
    # both now have the enemy right behind them after a combat
    assert s["back_blocked"] == [True, True]


def test_crossing_tie_and_a_charge_crossing_its_second_side():
    s = make(pos=("c1", "c3"), facing=(0, 3), dice=([1, 4, 1], [1, 4, 2]), charge=(True, False))
    s, events = turn(s, "CF/0", "F/0")   # A c1->c2->c3, B c3->c2: they cross c2|c3
    assert only(events, "crossing_tie")["die"] == 4
    assert s["pos"] == ["c3", "c2"] and s["life"] == [14, 14]


def test_case_3_collision_third_die_winner_completes_loser_stays_and_does_not_turn():
    s = make(pos=("c1", "c3"), facing=(0, 3), dice=([1, 1, 2], [6, 1, 5]))
    s, events = turn(s, "F/R", "F/L")   # both into c2
    col = only(events, "collision")
    assert col["winner"] == 1 and col["hex"] == "c2" and col["stop"] == "c1"
    assert s["facing"] == [0, 2]   # A may not turn; B completed its order (S turned left = SE)
    # then they are adjacent and fight: A (front, 2-1-1) against B (front-right, 6-1): B wins, no push
    assert types(events).index("collision") < types(events).index("fight_won")
    assert only(events, "fight_won")["winner"] == 1
    assert s["pos"] == ["c1", "c2"]


def test_collision_tie_both_stay_and_neither_turns():
    s = make(pos=("c1", "c3"), facing=(0, 3), dice=([1, 1, 4], [2, 2, 4]))
    s, events = turn(s, "F/R", "F/L")
    assert only(events, "collision_tie")["die"] == 4
    assert s["pos"] == ["c1", "c3"] and s["facing"] == [0, 3]
    assert "fight_front" not in types(events)   # c1 and c3 are not adjacent


def test_collision_loser_of_a_charge_goes_back_to_where_it_started():
    """「移動前のタイル」: the charger that loses goes back two hexes, to c1, not to its middle hex."""
    s = make(pos=("c1", "d3"), facing=(0, 4), dice=([1, 1, 1], [6, 1, 6]), charge=(True, False))
    s, events = turn(s, "CF/R", "F/L")   # A c1->c2->c3; B d3 facing SW -> c3
    col = only(events, "collision")
    assert (col["winner"], col["loser"], col["stop"]) == (1, 0, "c1")
    assert s["pos"] == ["c1", "c3"] and s["facing"] == [0, 3]   # A did not turn, B did
    assert s["last"]["paths"][0] == ["c1"]
    # back on c1, A is two hexes from B: no adjacent fight
    assert not [t for t in types(events) if t.startswith("fight")]


def test_collision_tie_stops_a_charge_on_its_middle_hex():
    """「衝突する手前」: on equal 3rd dice each stops on the hex it was in just before the collision."""
    s = make(pos=("c1", "d3"), facing=(0, 4), dice=([1, 1, 5], [6, 1, 5]), charge=(True, False))
    s, events = turn(s, "CF/R", "F/L")
    tie = only(events, "collision_tie")
    assert (tie["attacker_stop"], tie["defender_stop"]) == ("c2", "d3")
    assert s["pos"] == ["c2", "d3"] and s["facing"] == [0, 4]   # neither turned
    assert s["last"]["paths"] == [["c1", "c2"], ["d3"]]


def test_collision_tie_where_a_charge_would_stop_on_the_other_start_falls_back_to_its_own():
    """A charges c1->c2->c3 while B steps c2->c3: equal 3rd dice; B stays on c2, so A stays on c1."""
    s = make(pos=("c1", "c2"), facing=(0, 0), dice=([1, 1, 3], [1, 1, 3]), charge=(True, False))
    s, events = turn(s, "CF/R", "F/L")
    tie = only(events, "collision_tie")
    assert (tie["attacker_stop"], tie["defender_stop"]) == ("c1", "c2")
    assert s["facing"] == [0, 0]   # neither turned
    # then A (front, 3 dice) beats B (A behind it, no dice), advances and pushes B on
    assert only(events, "front_push")["end"] == "c3" and s["pos"] == ["c2", "c3"]


def test_charge_pushing_against_the_wall_stops_one_hex_short():
    s = make(pos=("c3", "c5"), facing=(0, 0), dice=([1, 1, 1], [1, 1, 1]), charge=(True, False))
    s, events = turn(s, "CF/0", "S/0")
    assert only(events, "push_blocked")["stop"] == "c4"
    assert s["pos"] == ["c4", "c5"]


def test_case_4_not_adjacent_no_fight():
    s = make(pos=("c1", "c5"), facing=(0, 3), dice=([6, 6, 6], [1, 1, 1]))
    s, events = turn(s, "F/0", "F/0")
    assert s["pos"] == ["c2", "c4"] and s["life"] == [14, 14]
    assert not [t for t in types(events) if t.startswith(("fight", "crossing", "collision"))]


# ---- pushes, charges, cornering -----------------------------------------------------------------------------
def test_moving_into_a_standing_figure_pushes_it_on():
    s = make(pos=("c2", "c3"), facing=(0, 1), dice=([1, 1, 1], [6, 6, 6]))
    s, events = turn(s, "F/0", "S/R")
    push = only(events, "push")
    assert push["seat"] == 0 and push["pushed_seat"] == 1 and (push["start"], push["end"]) == ("c3", "c4")
    assert s["pos"][1] == "c4" and s["facing"][1] == 2   # the pushed figure still turned


def test_push_against_the_wall_both_stay_and_the_standing_figure_takes_1():
    s = make(pos=("c4", "c5"), facing=(0, 1), dice=([1, 1, 1], [1, 1, 1]))
    s, events = turn(s, "F/0", "S/0")
    blocked = only(events, "push_blocked")
    assert blocked["damage"] == 1 and blocked["stop"] == "c4"
    assert s["pos"] == ["c4", "c5"]
    # 1 push damage; the fight (A front all 1s vs B back-side 1) is won by A (longer list): 1 more
    assert s["life"][1] == 15 - 1 - 1 - 1 - 1   # push, fight, cornered, turn
    assert "cornered" in types(events)


def test_charge_passes_over_a_standing_figure():
    s = make(pos=("c1", "c2"), facing=(0, 3), dice=([1, 1, 1], [1, 1, 1]), charge=(True, False))
    s, events = turn(s, "CF/0", "S/0")
    assert only(events, "charge_over")["hex"] == "c2"
    assert s["pos"] == ["c3", "c2"]
    assert "crossing" not in types(events) and "push" not in types(events)


def test_charge_into_a_standing_figure_pushes_and_a_win_deals_double():
    s = make(pos=("c1", "c3"), facing=(0, 3), dice=([6, 1, 1], [1, 1, 1]), charge=(True, False))
    s, events = turn(s, "CF/0", "S/0")
    assert only(events, "push")["end"] == "c4"
    assert only(events, "fight_won_charge")["damage"] == 2
    # A on c3 faces B on c4: front win advances A to c4 and pushes B to c5
    assert only(events, "front_push")["end"] == "c5"
    assert s["pos"] == ["c4", "c5"] and s["life"] == [14, 15 - 2 - 1]


def test_front_win_against_the_wall_corners():
    s = make(pos=("c4", "c5"), facing=(0, 3), dice=([6, 6, 6], [1, 1, 1]))
    s, events = turn(s, "S/0", "S/0")
    corner = only(events, "cornered")
    assert corner["loser"] == 1 and corner["damage"] == 1
    assert s["pos"] == ["c4", "c5"] and s["life"] == [14, 15 - 1 - 1 - 1]


def test_side_win_does_not_push():
    s = make(pos=("c2", "c3"), facing=(1, 3), dice=([6, 6, 1], [1, 1, 1]))  # A faces NE: B front-left
    s, events = turn(s, "S/0", "S/0")
    assert only(events, "fight_front_side")["seat"] == 0
    assert only(events, "fight_won")["winner"] == 0
    assert "front_push" not in types(events) and s["pos"] == ["c2", "c3"]


# ---- charge rights -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("a,b,rights,event", [
    ([3, 3, 3], [3, 3, 3], [False, False], "charge_none"),
    ([1, 5, 6], [1, 2, 3], [True, True], "charge_both"),     # one equal pair: both
    ([6, 5, 1], [1, 2, 3], [True, False], "charge_one"),     # A higher in two pairs
    ([1, 2, 6], [2, 3, 1], [False, True], "charge_one"),     # B higher in two pairs
])
def test_charge_rights_for_next_turn(a, b, rights, event):
    assert charge_rights(a, b) == rights
    s = make(pos=("c1", "c5"), dice=(a, b))
    s, events = turn(s, "S/0", "S/0")
    assert s["can_charge"] == rights and event in types(events)
    if event == "charge_one":
        assert only(events, event)["seat"] == rights.index(True)
    assert ("CF" in G.offered_moves(s, 0)) == rights[0]


def test_nobody_may_charge_on_turn_1():
    s = G.setup(2, {}, 5)
    assert not [a for s_ in (0, 1) for a in G.legal_actions(s, s_) if a.startswith("C")]


# ---- life, death, draw -------------------------------------------------------------------------------------
def test_every_turn_costs_one_life():
    s = make(pos=("c1", "c5"), life=(3, 9))
    s, events = turn(s, "S/0", "S/0")
    assert s["life"] == [2, 8] and [e["life"] for e in events if e["type"] == "life"] == [2, 8]


def test_death_and_winner():
    s = make(pos=("c2", "c3"), life=(5, 2), dice=([6, 6, 6], [1, 1, 1]))
    s, events = turn(s, "S/0", "S/0")
    assert G.outcome(s).winners == (0,) and G.outcome(s).reason == "death"
    assert only(events, "died")["seat"] == 1
    assert G.to_act(s) == set() and G.legal_actions(s, 0) == []
    with pytest.raises(GameOver):
        G.apply(s, 0, "S/0")   # a late order after the end is refused


def test_both_at_zero_is_a_draw():
    s = make(pos=("c1", "c5"), life=(1, 1))
    s, events = turn(s, "S/0", "S/0")
    out = G.outcome(s)
    assert out.draw and out.winners == () and out.reason == "double_death" and "both_died" in types(events)


def test_life_never_shows_below_zero():
    s = make(pos=("c2", "c3"), life=(9, 1), dice=([1, 6, 1], [1, 1, 1]))
    s, _ = turn(s, "F/0", "F/0")   # a crossing: B takes 2 with 1 life left
    assert s["life"] == [9, 0]


# 「0」になった時点で死亡: damage that brings a figure to 0 ends the game there, before the
# end-of-turn loss that would have brought the winner (1 life) to 0 as well (a draw before).
@pytest.mark.parametrize("pos,facing,dice,life,orders,fatal", [
    # crossing on c2|c3: B's 2nd die is lower, 2 damage
    (("c2", "c3"), (0, 3), ([1, 6, 1], [1, 1, 1]), (1, 2), ("F/R", "F/L"), "crossing"),
    # A steps into B standing against the wall: 1 damage to B
    (("c4", "c5"), (0, 3), ([1, 1, 1], [1, 1, 1]), (1, 1), ("F/R", "S/L"), "push_blocked"),
    # adjacent fight, A in front with all three dice against B's none
    (("c2", "c3"), (0, 0), ([6, 6, 6], [1, 1, 1]), (1, 1), ("S/0", "S/0"), "fight_won"),
    # the fight leaves B 1 life, then cornered against the wall
    (("c4", "c5"), (0, 3), ([6, 6, 6], [1, 1, 1]), (1, 2), ("S/0", "S/0"), "cornered"),
])
def test_damage_to_zero_ends_the_game_at_once(pos, facing, dice, life, orders, fatal):
    s = make(pos=pos, facing=facing, dice=dice, life=life)
    s, events = turn(s, *orders)
    out = G.outcome(s)
    assert out.winners == (0,) and not out.draw and out.reason == "death"
    assert only(events, "fell") == {"type": "fell", "seat": 1, "winner": 0}
    assert types(events)[-1] == "fell"
    assert types(events).index(fatal) < types(events).index("fell")
    assert s["life"] == [1, 0]   # no end-of-turn loss: A survives with its last life
    # the survivor lost nothing this turn and is not told "loses 0 life" (issue #31)
    assert [(e["seat"], e["lost"]) for e in events if e["type"] == "life"] == [(1, life[1])]
    # nothing after the fatal damage happens: no facing change, push, charge rights or death check
    assert s["facing"] == list(facing)
    assert not {"front_push", "back_blocked", "charge_one", "charge_both", "charge_none", "died",
                "both_died"} & set(types(events))
    assert G.to_act(s) == set() and G.legal_actions(s, 1) == []


def test_a_fatal_crossing_ends_before_any_other_fight_or_turning():
    s = make(pos=("c2", "c3"), facing=(0, 3), dice=([1, 6, 1], [1, 1, 1]), life=(1, 2))
    s, events = turn(s, "F/R", "F/L")
    assert s["pos"] == ["c3", "c2"]   # the movements were under way and finish
    assert [e["facing"] for e in events if e["type"] == "moved"] == ["↑", "↓"]   # not turned
    assert not [t for t in types(events) if t.startswith("fight")]


def test_a_fatal_push_against_the_wall_skips_the_adjacent_fight():
    s = make(pos=("c4", "c5"), facing=(0, 3), dice=([1, 1, 1], [6, 6, 6]), life=(1, 1))
    s, events = turn(s, "F/0", "S/0")
    assert only(events, "push_blocked")["damage"] == 1
    assert not [t for t in types(events) if t.startswith("fight")]   # B would have won it
    assert G.outcome(s).winners == (0,) and s["life"] == [1, 0]


def test_end_of_turn_loss_hits_both_together():
    """Fight damage that leaves B alive, then both lose their last life at the end: a draw."""
    s = make(pos=("c2", "c3"), facing=(0, 3), dice=([6, 6, 6], [1, 1, 1]), life=(1, 2))
    s, events = turn(s, "S/0", "S/0")
    assert only(events, "fight_won")["loser"] == 1 and "fell" not in types(events)
    out = G.outcome(s)
    assert out.draw and out.reason == "double_death" and s["life"] == [0, 0]
    assert types(events)[-1] == "both_died"


# ---- secrecy, simultaneity and changing one's order ----------------------------------------------------------
def test_orders_are_secret_until_both_are_in_and_can_be_changed():
    s = G.setup(2, {}, seed=3)
    s1, events = G.apply(s, 0, "FR/L")
    assert events == [{"type": "order_in", "seat": 0}]
    assert G.to_act(s1) == {1}
    assert G.view(s1, 0)["my_order"] == "FR/L"
    for viewer in (None, 1):
        assert "FR/L" not in json.dumps(G.view(s1, viewer))
    assert G.view(s1, None)["my_dice"] is None and G.view(s1, 1)["my_dice"] == s1["dice"][1]
    assert G.view(s1, None)["figures"][0]["order_in"] is True
    # seat 0 changes its mind while seat 1 has not ordered
    assert "F/0" in G.legal_actions(s1, 0)
    s2, events = G.apply(s1, 0, "F/0")
    assert events == [{"type": "order_changed", "seat": 0}] and s2["orders"][0] == "F/0"
    s3, events = G.apply(s2, 1, "S/0")
    revealed = [e for e in events if e["type"] == "revealed"]
    assert [e["order"] for e in revealed] == ["F/0", "S/0"]
    assert [e["dice"] for e in revealed] == ["-".join(map(str, d)) for d in s2["dice"]]
    assert s3["turn"] == 2 and G.to_act(s3) == {0, 1}
    # every event of the game is public (nothing private travels in events)
    assert events_for(events, None) == events


def test_an_order_is_never_carried_into_the_next_turn():
    s = G.setup(2, {}, seed=3)
    s, _ = G.apply(s, 0, "F/0")
    s, _ = G.apply(s, 1, "F/0")
    assert s["turn"] == 2 and s["orders"] == [None, None] and G.to_act(s) == {0, 1}
    assert G.view(s, 0)["my_order"] is None
    with pytest.raises(NotYourTurn):
        G.apply(s, 2, "S/0")
    # an order after both are in and before the other's: one can change, never both at once
    s, _ = G.apply(s, 1, "S/0")
    assert G.may_change(s, 1) and not G.may_change(s, 0)


def test_the_last_three_turns_are_kept_and_each_replays_from_where_it_started():
    """state["recent"] (read by hard to judge its enemy): every record, set up again from its own
    start and given its own orders and dice, leads to where the next one starts."""
    from games.arena.engine import RECENT_TURNS, START_KEYS
    s = G.setup(2, {}, seed=5)
    orders = [("F/0", "F/0"), ("S/R", "FL/0"), ("F/L", "S/0"), ("FR/0", "F/R"), ("S/0", "S/L")]
    for o0, o1 in orders:
        s, _ = turn(s, o0, o1)
    assert not s["outcome"] and [r["turn"] for r in s["recent"]] == [3, 4, 5] and RECENT_TURNS == 3
    assert [r["orders"] for r in s["recent"]] == [list(o) for o in orders[2:]]
    ends = s["recent"][1:] + [{key: s[key] for key in START_KEYS}]
    for record, end in zip(s["recent"], ends):
        replay = make(record["pos"], record["facing"], record["dice"], record["life"], record["can_charge"],
                      record["back_blocked"])
        replay, _ = turn(replay, *record["orders"])
        assert {key: replay[key] for key in START_KEYS} == {key: end[key] for key in START_KEYS}
    assert "recent" not in json.dumps(G.view(s, 0))    # only the AI reads it (revealed things only)


def test_view_shows_own_dice_only():
    s = G.setup(2, {}, seed=11)
    assert G.view(s, 0)["my_dice"] == s["dice"][0]
    assert G.view(s, 1)["my_dice"] == s["dice"][1]
    assert G.view(s, None)["my_dice"] is None
    assert "rng" not in json.dumps(G.view(s, None))
    notes = G.panel_notes(G.view(s, 0))
    assert [n["type"] for n in notes] == ["status", "dice", "legend"]
    assert notes[1] == {"type": "dice", "d1": s["dice"][0][0], "d2": s["dice"][0][1], "d3": s["dice"][0][2]}


def test_scramble_changes_exactly_the_hidden_things():
    s = G.setup(2, {}, seed=4)
    s, _ = G.apply(s, 1, "F/R")
    seen = {json.dumps(G.scramble_hidden(s, 0, Rng(i))["orders"][1]) for i in range(30)}
    assert len(seen) > 1
    scrambled = G.scramble_hidden(s, 0, Rng(1))
    assert scrambled["dice"][0] == s["dice"][0] and scrambled["orders"][0] == s["orders"][0]
    for viewer in (None, 0, 1):
        for i in range(10):
            assert_view_hides_secrets(G, s, viewer, Rng(i))


# ---- reported dice ----------------------------------------------------------------------------------
def test_reported_dice_come_first_and_are_used():
    s = G.setup(2, {"dice": "reported"}, 1)
    s.update(pos=["c2", "c3"], facing=[0, 3])
    assert G.legal_actions(s, 0) == list(ALL_DICE)
    refused(s, 0, "S/0", "arena.dice_first")
    s, events = G.apply(s, 0, "6-6-1")
    assert events == [{"type": "dice_in", "seat": 0}]
    assert G.to_act(s) == {0, 1} and G.view(s, 0)["my_dice"] == [6, 6, 1]
    assert G.view(s, 1)["my_dice"] is None and G.view(s, None)["figures"][0]["dice_in"]
    refused(s, 0, "6-6-6", "arena.dice_already")
    s, _ = G.apply(s, 0, "S/0")
    s, _ = G.apply(s, 1, "2-6-3")
    s, events = G.apply(s, 1, "S/0")
    assert [e["dice"] for e in events if e["type"] == "revealed"] == ["6-6-1", "2-6-3"]
    assert only(events, "fight_won")["winner"] == 0   # 6-6-1 beats 6-3-2 at the second die
    assert s["dice"] == [None, None] and G.legal_actions(s, 1) == list(ALL_DICE)


def test_reported_mode_bad_dice_get_clear_keys():
    s = G.setup(2, {"dice": "reported"}, 1)
    for text, key in (("3-5", "arena.dice_count"), ("1-2-3-4", "arena.dice_count"), ("3 9 1", "arena.die_range")):
        with pytest.raises(NotationError) as err:
            G.apply(s, 0, G.canonical(text))
        assert err.value.key == key


def test_bot_mode_refuses_dice_reports():
    s = G.setup(2, {}, 1)
    refused(s, 0, "1-2-3", "arena.dice_by_bot")


# ---- dice from the seed ----------------------------------------------------------------------------------
def test_every_bot_die_is_recomputable_from_the_seed():
    seed = 987654321
    state = G.setup(2, {}, seed)
    rng = Rng(5)
    while G.outcome(state) is None:
        for seat in sorted(G.to_act(state)):
            state, events = G.apply(state, seat, rng.choice(G.legal_actions(state, seat)))
        last = state["last"]
        assert last["dice"] == [dice_for_turn(seed, last["turn"], s) for s in (0, 1)]
    assert dice_for_turn(seed, 1, 0) != dice_for_turn(seed + 1, 1, 0) or dice_for_turn(seed, 2, 0) != \
        dice_for_turn(seed + 1, 2, 0)


def test_the_dice_command_lists_what_the_bot_rolled(capsys):
    from games.arena.__main__ import main

    assert main(["1234", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"turn {t}: A {'-'.join(map(str, dice_for_turn(1234, t, 0)))}  "
                     f"B {'-'.join(map(str, dice_for_turn(1234, t, 1)))}" for t in (1, 2)]
    assert main(["seed"]) == 2


def test_dice_are_roughly_fair():
    counts = [0] * 6
    for t in range(1, 2001):
        for d in dice_for_turn(42, t, t % 2):
            counts[d - 1] += 1
    assert min(counts) > 850 and max(counts) < 1150


@pytest.mark.parametrize("seed", range(6))
def test_reported_mode_random_games_keep_the_contract(seed):
    rng = Rng(seed + 100)
    state = G.setup(2, {"dice": "reported", "life": 6}, seed)
    steps = 0
    while G.outcome(state) is None:
        seat = rng.choice(sorted(G.to_act(state)))
        new, _ = G.apply(state, seat, rng.choice(G.legal_actions(state, seat)))
        for viewer in (None, 0, 1):
            assert_view_hides_secrets(G, new, viewer, rng)
        assert_illegal_refused(G, new, rng)
        state, steps = new, steps + 1
        assert steps < 200


# ---- catalogues -------------------------------------------------------------------------------------
def _catalogue(lang):
    from bot import i18n

    return i18n.catalogue_files(lang)["arena"]


def test_every_event_note_and_error_has_both_catalogue_entries():
    en, ja = _catalogue("en"), _catalogue("ja")
    assert en.keys() == ja.keys()
    from bot import i18n

    for key in en:
        assert i18n.placeholders(en[key]) == i18n.placeholders(ja[key]), key
    seen_events, seen_notes = set(), set()
    for seed in range(40):
        options = {"dice": "reported"} if seed % 3 == 0 else {}
        state, rng = G.setup(2, options, seed), Rng(seed)
        while G.outcome(state) is None:
            seat = rng.choice(sorted(G.to_act(state)))
            for viewer in (0, 1):
                for note in G.panel_notes(G.view(state, viewer)):
                    seen_notes.add(note["type"])
                    params = set(note) - {"type"}
                    assert i18n.placeholders(en[f"panel.arena.{note['type']}"]) <= params
            state, events = G.apply(state, seat, rng.choice(G.legal_actions(state, seat)))
            for e in events:
                assert "to" not in e, e   # "to" would make the event private (games.base.events_for)
                seen_events.add(e["type"])
                assert i18n.placeholders(en[f"event.arena.{e['type']}"]) <= set(e) - {"type"}, e
    assert {"crossing", "collision", "fight_won", "charge_one", "life"} <= seen_events
    assert {"status", "dice", "report_dice", "pending"} <= seen_notes
    for key in ("game.arena.title", "rules.arena.summary", "rules.arena.notation", "reason.death",
                "reason.double_death"):
        assert key in en
    code = (ROOT / "games" / "arena" / "engine.py").read_text(encoding="utf-8")
    for key in set(re.findall(r"\"(arena\.[a-z_]+)\"", code)):
        assert f"error.{key}" in en, key


# ---- words for people -----------------------------------------------------------------------------
def test_every_legal_order_dice_step_and_menu_is_said_in_words_in_both_languages():
    from tests.test_hostile import random_states, walk_words

    states = list(random_states(G, (2,), range(3), steps=30))
    states.append(G.setup(2, {"dice": "reported"}, 1))
    states.append(make(pos=("c1", "c5"), facing=(0, 3), charge=(True, True)))
    paths = walk_words(G, states, plain_step="(?!)")  # every step has words
    assert {p[-1] for p in paths} >= {"FR/L", "CF/0", "3-5-1"}
    assert G.phase_words(states[0]) is None and G.opening_events(states[0]) == []
    assert {"FR", "CFL", "FR/L"} <= G.identifiers() and "B" not in G.identifiers()


def test_orders_and_refusals_say_the_movement_in_words():
    from bot import i18n
    from bot.service.words import termed
    from tests.test_hostile import said

    def say(lang, words, family="choice"):
        return i18n.render(lang, i18n.T(f"{family}.arena.{words['type']}",
                                        **termed(G, {k: v for k, v in words.items() if k != "type"})))

    assert say("en", G.choice_words(G.action_path("FR/L"))) == "Forward-right, then turn left 60°"
    assert say("ja", G.choice_words(G.action_path("CF/0"))) == "突撃前進、その後向きを変えない"
    assert say("en", G.menu_words(("FR",)), "menu") == "After Forward-right: which way do you face?"
    assert say("en", G.choice_words(G.action_path("3-5-1"))) == "3rd die: 1 (dice 3-5-1)"
    s = make(pos=("a1", "e3"), facing=(0, 3))
    with pytest.raises(GameError) as err:
        G.apply(s, 0, "FL/0")
    assert err.value.key == "arena.off_arena"
    assert i18n.t("en", "error.arena.off_arena", **termed(G, err.value.params)) == "Forward-left would leave the arena."
    s, events = turn(make(), "F/0", "S/R")
    for event in events:
        for lang in ("en", "ja"):
            said(G, "event", event, lang)
    revealed = [said(G, "event", e, "en") for e in events if e["type"] == "revealed"]
    assert "Forward, then no turn (`F/0`)" in revealed[0]


def test_events_of_random_play_never_show_identifiers():
    from tests.test_contract import playout
    from tests.test_hostile import said

    for seed in range(4):
        for _, _, _, _, events in playout(G, seed):
            for event in events:
                for lang in ("en", "ja"):
                    said(G, "event", event, lang)


def test_the_first_menu_asks_for_what_it_offers():
    """Issue #31: the menu asked for "your movement (when you report dice: your 1st die)" in games
    where the bot rolls; it now asks for the movement, or for the 1st die when dice come first."""
    from bot import i18n

    def say(lang, words, family):
        return i18n.render(lang, i18n.T(f"{family}.arena.{words['type']}"))

    assert say("en", G.menu_words((), ("F", "FR", "S")), "menu") == "Choose your movement…"
    assert say("en", G.menu_words((), ("1", "2", "6")), "menu") == "Choose your 1st die…"
    assert say("ja", G.menu_words((), ("1", "2")), "menu") == "1つ目の出目を選んでください…"
