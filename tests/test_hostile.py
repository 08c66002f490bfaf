"""HOSTILE scenarios (RULES.md §1 and the rulebook), data schemas, notation and the engine contract.

Positions are built by hand with :func:`turn_of`: a game set up normally, then tiles, pieces,
gems, hands and skills put where a test wants them, and the given seat in the middle of its turn.
Tiles are written as in the notation: ``{"C4": "slide:E", "D4": "ice"}``. The game is not
registered by this module's author (registration happens in ``games/__init__.py``), so the
contract helpers of ``tests/test_contract.py`` run on an engine instance of our own.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.ai import choose_action
from games.errors import GameError, IllegalAction, NotationError, NotYourTurn
from games.hostile.engine import SQUARES, Hostile, could_loop, has_loop, has_loop_after_change, loops_by_config
from games.hostile.tiles import (
    DATA_FILES, VALIDATORS, board, floor_deck, floor_kinds, gem_squares, load, rotate_orientation,
    validate_board, validate_floor_tiles, validate_gem_tiles,
)
from games.rng import Rng
from tests.playouts import random_states

G = Hostile()


# ---- helpers -------------------------------------------------------------------------------------------
def tiles_of(spec: dict[str, str]) -> dict[str, list[str]]:
    out = {}
    for sq, text in spec.items():
        kind, _, orient = text.partition(":")
        out[sq] = [kind, orient]
    return out


def turn_of(players=2, seat=0, *, tiles=None, pos=None, gems=None, hands=None, skill=None, ap=None, seed=1,
            line_floor=None, line_gems=None):
    """A position in the middle of ``seat``'s turn (first cycle, start player 0)."""
    state = G.setup(players, {}, seed)
    if players == 3:
        state, _ = G.apply(state, 0, "corner A1")
    state["tiles"] = tiles_of(tiles or {})
    state["gems"] = dict(gems or {})
    for s, sq in (pos or {}).items():
        state["pos"][s] = sq
    state["hands"] = [list((hands or {}).get(s, [])) for s in range(players)]
    state["skills"] = [None] * players
    state["skills"][seat] = skill
    state["score"] = [0] * players
    state["reached"] = [0] * len(state["teams"])
    if line_floor is not None:
        state["line_floor"] = list(line_floor)
    if line_gems is not None:
        state["line_gems"] = list(line_gems)
    state["phase"] = "turn"
    state["actor"] = seat
    state["queue"] = [s for s in range(seat + 1, players)]
    state["start"] = 0
    uses = board()["skills"].get(skill or "", {}).get("uses", 0)
    base = board()["action_points"] + (1 if skill == "quick" else 0)
    state["turn"] = {"ap": base if ap is None else ap, "stopped": False, "uses": uses}
    return state


def play(state, *actions, seat=None):
    """Apply actions for whoever is to act (or ``seat``), checking each is offered first."""
    events = []
    for action in actions:
        who = min(G.to_act(state)) if seat is None else seat
        assert action in G.legal_actions(state, who), (action, sorted(G.legal_actions(state, who))[:40])
        state, new = G.apply(state, who, action)
        events += new
    return state, events


def take_first(state, times=1):
    """Draft (or take) the first tile of the line ``times`` times."""
    events = []
    for _ in range(times):
        state, new = play(state, "take " + (state["line_floor"] or state["line_gems"])[0])
        events += new
    return state, events


def types(events):
    return [e["type"] for e in events]


def refused(state, action, key=None, seat=None):
    who = state["actor"] if seat is None else seat
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(GameError) as err:
        G.apply(state, who, action)
    if key is not None:
        assert err.value.key == key, err.value.key
    assert json.dumps(state, sort_keys=True) == before
    assert action not in G.legal_actions(state, who)


def auto_to(state, phase, rng_seed=0, prefer=None):
    """Play random legal actions (``prefer`` first when offered) until ``phase`` is reached."""
    rng = Rng(rng_seed)
    for _ in range(500):
        if state["phase"] == phase or G.outcome(state) is not None:
            return state
        seat = min(G.to_act(state))
        legal = G.legal_actions(state, seat)
        action = prefer if prefer in legal else legal[rng.below(len(legal))]
        state, _ = G.apply(state, seat, action)
    raise AssertionError(f"never reached {phase}")


# ---- data files ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", DATA_FILES)
def test_data_files_match_their_schema(name):
    from importlib import resources

    data = json.loads((resources.files("games.hostile") / "data" / name).read_text(encoding="utf-8"))
    assert VALIDATORS[name](data) == []
    assert load(name) == data


def test_tile_counts_follow_the_reading():
    counts = {k: v.count for k, v in floor_kinds().items()}
    assert counts == {"slide": 12, "diag": 6, "spring": 6, "ice": 8, "stop": 8, "box": 5, "lwall": 6, "para": 6}
    assert len(floor_deck()) == 57
    assert len(gem_squares()) == 48
    assert "A1" not in gem_squares() and "B2" not in gem_squares() and "A3" in gem_squares()
    assert set(board()["skills"]) == {"crash", "rotate", "recall", "king", "steal", "ghost", "quick"}


def test_the_schemas_reject_bad_documents():
    good = json.loads(json.dumps(load("floor_tiles.json")))
    assert validate_floor_tiles(good) == []
    bad = json.loads(json.dumps(good))
    bad["tiles"][0]["count"] = 0
    assert validate_floor_tiles(bad)
    bad = json.loads(json.dumps(good))
    bad["tiles"][0]["effect"] = "teleport"
    assert validate_floor_tiles(bad)
    bad = json.loads(json.dumps(good))
    bad["tiles"][0]["orientations"] = ["N", "E"]  # not closed under a quarter turn
    assert validate_floor_tiles(bad)
    bad = json.loads(json.dumps(good))
    bad["tiles"][6]["closed"]["NE"] = "NX"
    assert validate_floor_tiles(bad)
    bad = json.loads(json.dumps(good))
    bad["tiles"][0]["closed"] = {"N": "N"}  # only walls have closed sides
    assert validate_floor_tiles(bad)
    assert validate_floor_tiles({"tiles": "x"}) and validate_floor_tiles([])
    assert validate_gem_tiles({"squares": ["A3", "A3"]}) and validate_gem_tiles({"squares": ["Z9"]})
    assert validate_gem_tiles({"squares": ["A3"], "x": 1})
    b = json.loads(json.dumps(load("board.json")))
    assert validate_board(b) == []
    for key, value in (("size", 9), ("hand_limit", -1), ("skills_excluded", 4), ("corners", ["A1"])):
        broken = dict(b, **{key: value})
        assert validate_board(broken), key
    broken = json.loads(json.dumps(b))
    broken["skills"]["crash"] = {"uses": 0}
    assert validate_board(broken)
    broken = json.loads(json.dumps(b))
    broken["teams"]["4"] = [[0, 1], [1, 2]]
    assert validate_board(broken)
    assert validate_board({"size": 8})


def test_rotation_turns_arrows_and_walls():
    assert rotate_orientation("slide", "N", True) == "E"
    assert rotate_orientation("diag", "NW", True) == "NE"
    assert rotate_orientation("spring", "W", False) == "S"
    assert rotate_orientation("lwall", "NE", True) == "SE"
    assert rotate_orientation("lwall", "NE", False) == "NW"
    assert rotate_orientation("para", "NS", True) == "EW"
    assert rotate_orientation("box", "", True) == ""


# ---- setup, seating and the round ------------------------------------------------------------------------------
def test_two_player_setup_diagonal_corners_and_first_round():
    s = G.setup(2, {}, 5)
    assert s["pos"] == ["A1", "H8"]
    assert s["round"] == 1 and s["phase"] == "skill" and s["actor"] == 0
    assert sum(s["gems"].values()) == 5 and len(s["gem_discard"]) == 5
    assert len(s["line_gems"]) == 2 and len(s["line_floor"]) == 10
    assert len(s["floor_deck"]) == 47 and len(s["gem_deck"]) == 48 - 5 - 2
    assert "king" in s["pool"] and len(s["pool"]) == 5 and len(s["excluded"]) == 2
    assert "king" not in s["excluded"]
    assert set(s["pool"]) | set(s["excluded"]) == set(board()["skills"])


def test_king_is_never_excluded_over_many_seeds():
    for seed in range(40):
        s = G.setup(2, {}, seed)
        assert "king" in s["pool"] and "king" not in s["excluded"]
    assert len({tuple(G.setup(2, {}, seed)["excluded"]) for seed in range(40)}) > 5


def test_three_players_start_player_picks_a_corner_and_gains_a_gem():
    s = G.setup(3, {}, 2)
    assert s["phase"] == "corner" and G.to_act(s) == {0}
    assert G.legal_actions(s, 0) == ["corner A1", "corner A8", "corner H8", "corner H1"]
    s, ev = play(s, "corner H8")
    assert s["pos"] == ["H8", "H1", "A8"]  # seat 1 clockwise next, seat 2 the other neighbour
    assert s["score"] == [1, 0, 0]
    assert "start_bonus" in types(ev) and "round_started" in types(ev)
    assert s["target"] == 15 and s["phase"] == "skill"
    # nobody may enter the unused corner A1, but its neighbours are placeable by everyone
    assert "A1" not in G._no_place_squares(s, 1) - {"A1", "A8", "H8", "H1"}
    assert "B2" in G.placement_squares(s, 0) and "B2" in G.placement_squares(s, 1)


def test_four_players_are_two_teams_on_two_sides():
    s = G.setup(4, {}, 3)
    assert s["pos"] == ["A1", "A8", "H8", "H1"]
    assert s["teams"] == [[0, 1], [2, 3]]
    assert s["target"] == 20
    # next to the teammate's start is allowed, next to an opponent's start is not
    squares = G.placement_squares(s, 0)
    assert "B7" in squares and "A7" in squares and "B8" in squares
    assert not {"G8", "G7", "H7", "G1", "G2", "H2"} & set(squares)
    assert not {"A1", "A8", "H8", "H1"} & set(squares)


def test_round_order_skill_draft_clockwise_tile_draft_anticlockwise_then_turns():
    s = G.setup(4, {}, 7)
    seen = []
    for _ in range(4):
        seat = min(G.to_act(s))
        seen.append(seat)
        s, _ = G.apply(s, seat, G.legal_actions(s, seat)[0])
    assert seen == [0, 1, 2, 3] and s["phase"] == "draft"
    assert len(s["leftovers"]) == 1
    drafted = []
    while s["phase"] == "draft":
        seat = min(G.to_act(s))
        drafted.append(seat)
        s, _ = G.apply(s, seat, next(a for a in G.legal_actions(s, seat) if a.startswith("take")))
    assert drafted == [3, 3, 2, 2, 1, 1, 0, 0]
    assert len(s["line_floor"]) + len(s["line_gems"]) == 12 - 8
    turns = []
    while s["phase"] == "turn" and s["round"] == 1:
        turns.append(min(G.to_act(s)))
        s, _ = G.apply(s, turns[-1], "end")
    assert turns == [0, 1, 2, 3]
    assert s["round"] == 2 and s["phase"] == "skill"


def test_two_players_have_a_second_cycle_with_the_three_leftover_skills():
    s = G.setup(2, {}, 11)
    s, _ = play(s, f"skill {s['pool'][0]}")
    first_pick = s["skills"][0]
    s, ev = play(s, f"skill {s['pool'][0]}")
    leftovers = list(s["leftovers"])
    assert len(leftovers) == 3 and s["phase"] == "draft" and s["actor"] == 1  # right-hand neighbour
    s, _ = take_first(s, 2)
    assert s["actor"] == 0
    s, _ = take_first(s, 2)
    assert s["phase"] == "turn" and s["actor"] == 0
    s, _ = play(s, "end")
    s, ev = play(s, "end")
    assert "second_cycle" in types(ev) and s["round"] == 1 and s["cycle"] == 2
    assert sorted(s["pool"]) == sorted(leftovers) and first_pick not in s["pool"]
    assert G.legal_actions(s, 0) == [f"skill {c}" for c in s["pool"]]
    s, _ = play(s, f"skill {s['pool'][0]}")
    s, _ = play(s, f"skill {s['pool'][0]}")
    assert s["phase"] == "draft" and len(s["line_floor"]) + len(s["line_gems"]) == 8  # no refill between
    s, _ = take_first(s, 4)
    assert s["phase"] == "turn"
    s, _ = play(s, "end")
    s, ev = play(s, "end")
    assert "round_ended" in types(ev) and s["round"] == 2 and s["cycle"] == 1


def test_line_is_topped_up_and_tiles_already_there_stay():
    s = G.setup(2, {"line_floor": 6}, 4)
    assert len(s["line_floor"]) == 6
    kept = list(s["line_floor"])
    s = auto_to(s, "draft")
    s, _ = take_first(s, 2)
    taken = Counter(kept) - Counter(s["line_floor"])
    assert sum(taken.values()) == 2
    s["floor_deck"] = s["floor_deck"][3:] + ["stop", "stop", "stop"]  # the top of a deck is its end
    s["line_gems"] = []
    state = turn_of(2, 1)
    state.update({k: s[k] for k in ("line_floor", "line_gems", "floor_deck", "gem_deck", "line_floor_size")})
    state["queue"] = []
    state["cycle"] = 2
    state, ev = play(state, "end")
    assert len(state["line_floor"]) == 6 and len(state["line_gems"]) == 2
    refill = next(e for e in ev if e["type"] == "line_refilled")
    assert refill["added"] == 2 and refill["n_stop"] == state["line_floor"].count("stop") >= 2


def test_tile_draft_uses_line_tiles_only_and_may_place_or_use_at_once():
    s = auto_to(G.setup(2, {}, 9), "draft")
    seat = s["actor"]
    s["hands"][seat] = ["box", "C5"]
    s["line_floor"] = ["spring"] * 10
    s["line_gems"] = ["D4", "E5"]
    legal = G.legal_actions(s, seat)
    assert not any(a.startswith("place box") for a in legal) and "gem C5" not in legal
    assert "place spring@D5:N" in legal and "gem D4" in legal and "take spring" in legal
    s, ev = play(s, "place spring@D5:N")
    assert s["tiles"]["D5"] == ["spring", "N"] and "draft_placed" in types(ev)
    s, ev = play(s, "gem D4")
    assert s["gems"]["D4"] >= 1 and "D4" in s["gem_discard"] and "draft_gem_used" in types(ev)
    assert s["hands"][seat] == ["box", "C5"] and s["actor"] != seat


def test_short_line_means_fewer_picks():
    s = auto_to(G.setup(2, {}, 9), "draft")
    s["line_floor"] = ["ice"]
    s["line_gems"] = []
    s, ev = play(s, "take ice")
    assert s["phase"] == "turn" and "turn_started" in types(ev)


# ---- gems ------------------------------------------------------------------------------------------------------
def test_gem_pickup_on_every_entered_square_while_sliding():
    s = turn_of(tiles={"C4": "slide:E"}, pos={0: "B4"}, gems={"C4": 2, "D4": 1, "B5": 1})
    s, ev = play(s, "move E")
    assert s["pos"][0] == "D4" and s["score"][0] == 3
    assert [e["square"] for e in ev if e["type"] == "gems_taken"] == ["C4", "D4"]
    assert s["gems"] == {"B5": 1}


def test_gem_put_under_a_piece_goes_to_its_player_at_once_even_off_turn():
    s = turn_of(pos={1: "D4"}, hands={0: ["D4"]})
    s, ev = play(s, "gem D4")
    assert s["score"] == [0, 1] and "D4" not in s["gems"]
    assert any(e["type"] == "gems_taken" and e["seat"] == 1 for e in ev)


def test_emission_onto_a_piece_is_collected():
    s = turn_of(2, 1, pos={0: "D4"})
    s["queue"], s["cycle"] = [], 2
    s["gem_deck"] = [t for t in s["gem_deck"] if t != "D4"] + ["D4"]
    s, ev = play(s, "end")
    assert s["score"][0] == 1 and "D4" not in s["gems"]
    assert ev.index(next(e for e in ev if e["type"] == "emission")) < ev.index(
        next(e for e in ev if e["type"] == "gems_taken"))


def test_gem_deck_reshuffles_its_discard_when_empty():
    s = turn_of(2, 1)
    s["queue"], s["cycle"] = [], 2
    s["gem_discard"] += s["gem_deck"][2:]
    s["gem_deck"] = s["gem_deck"][:2]
    s, ev = play(s, "end")
    assert "gem_deck_reshuffled" in types(ev)
    assert len(next(e for e in ev if e["type"] == "emission")["squares"].split(", ")) == 5
    total = len(s["gem_deck"]) + len(s["gem_discard"]) + len(s["line_gems"]) + sum(
        len([t for t in h if t[0].isupper()]) for h in s["hands"])
    assert total == 48


# ---- movement, AP, forbidden squares --------------------------------------------------------------------------
def test_moves_cost_one_ap_and_forbidden_squares_are_refused():
    s = turn_of(pos={0: "G8", 1: "F8"})
    legal = G.legal_actions(s, 0)
    assert "move E" not in legal  # H8: the opponent's start
    assert "move W" not in legal  # F8: a piece
    assert "move N" not in legal  # off the board
    assert "move S" in legal
    refused(s, "move E", "hostile.move_start")
    refused(s, "move W", "hostile.move_piece")
    refused(s, "move N", "hostile.move_off_board")
    s, ev = play(s, "move S", "move S")
    # issue #43: at 0 AP with nothing free left to do, the turn ends without typing `end`
    assert s["pos"][0] == "G6" and types(ev)[-2:] == ["turn_ended_auto", "turn_started"] and s["actor"] == 1
    # with something free still to do (Rotate a placed tile), the turn waits at 0 AP for `end`
    s = turn_of(pos={0: "G8", 1: "F8"}, tiles={"C3": "slide:N"}, skill="rotate", ap=1)
    s, ev = play(s, "move S")
    assert s["turn"]["ap"] == 0 and s["actor"] == 0 and "turn_ended_auto" not in types(ev)
    refused(s, "move S", "hostile.no_ap")
    assert G.legal_actions(s, 0)[-1] == "end"


def test_every_start_but_ones_own_is_forbidden_unused_corners_included():
    """「自分以外のスタート地点」: with 2 players (A1 and H8) nobody may enter A8 or H1."""
    s = turn_of(pos={0: "A7"})
    refused(s, "move N", "hostile.move_start")
    s = turn_of(2, 1, pos={1: "H2"})
    refused(s, "move S", "hostile.move_start")
    # forced movement does not enter them either: a slide stays, a spring lands short
    s = turn_of(pos={0: "A6"}, tiles={"A7": "slide:N"})
    s, ev = play(s, "move N")
    assert s["pos"][0] == "A7" and types(ev) == ["moved", "push_blocked"]
    s = turn_of(pos={0: "E1"}, tiles={"F1": "spring:E"})
    s, ev = play(s, "move E")
    assert s["pos"][0] == "G1" and types(ev) == ["moved", "sprang_short"]
    # 3 players: the unused diagonal corner (A1, A8, H1 taken, H8 free)
    s = turn_of(3, 0, pos={0: "G8"})
    assert s["pos"][1:] == ["A8", "H1"]
    refused(s, "move E", "hostile.move_start")
    # one's own start stays open
    s = turn_of(pos={0: "A2"})
    s, _ = play(s, "move S")
    assert s["pos"][0] == "A1"


def test_teammates_start_is_forbidden_too():
    s = turn_of(4, 0, pos={0: "A7"})
    assert "move N" not in G.legal_actions(s, 0)


def test_take_from_the_line_costs_one_ap_and_the_hand_limit_discards():
    s = turn_of(hands={0: ["box", "box", "C5", "D5"]}, line_floor=["ice", "stop"], line_gems=["E5"])
    s, ev = play(s, "take ice")
    assert s["hands"][0] == ["box", "box", "C5", "D5"] and "ice" in s["floor_discard"]
    assert "hand_full" in types(ev) and s["turn"]["ap"] == 1
    s, ev = play(s, "take E5")
    assert "E5" in s["gem_discard"] and s["turn"]["ap"] == 0
    assert not any(a.startswith("take") for a in G.legal_actions(s, 0))


def test_home_costs_a_tile_and_an_ap():
    s = turn_of(pos={0: "D5"}, hands={0: ["stop", "C3"]}, gems={"A1": 1})
    assert "home stop" in G.legal_actions(s, 0) and "home C3" in G.legal_actions(s, 0)
    s, ev = play(s, "home C3")
    assert s["pos"][0] == "A1" and s["hands"][0] == ["stop"] and "C3" in s["gem_discard"]
    assert s["turn"]["ap"] == 1
    assert not any(a.startswith("home") for a in G.legal_actions(s, 0))  # already at start
    s = turn_of(pos={0: "D5"})
    assert not any(a.startswith("home") for a in G.legal_actions(s, 0))  # no tile to discard


def test_placing_and_using_tiles_are_free_and_placement_restrictions_hold():
    s = turn_of(pos={0: "C3", 1: "E5"}, tiles={"D4": "ice"}, hands={0: ["slide", "C6"]})
    legal = G.legal_actions(s, 0)
    for banned in ("C3", "E5", "D4", "A1", "H8", "A8", "H1", "G8", "G7", "H7"):
        assert not any(a.startswith(f"place slide@{banned}") for a in legal), banned
    for allowed in ("A2", "B1", "B2", "A7", "B8", "B7", "G1", "H2"):
        assert f"place slide@{allowed}:N" in legal, allowed
    refused(s, "place slide@G7:N", "hostile.place_near_start")
    s, ev = play(s, "place slide@C4:N", "gem C6")
    assert s["turn"]["ap"] == 2 and s["tiles"]["C4"] == ["slide", "N"] and s["gems"]["C6"] == 1
    assert s["hands"][0] == []
    refused(s, "place slide@C5:N", "hostile.not_in_hand")


def test_placing_under_nothing_fires_nothing_and_rotating_under_a_piece_fires_nothing():
    s = turn_of(pos={0: "C4"}, tiles={"C4": "slide:E"}, skill="rotate")
    s, ev = play(s, "rotate C4 cw")
    assert s["pos"][0] == "C4" and s["tiles"]["C4"] == ["slide", "S"]
    assert types(ev) == ["rotated_cw"]


# ---- floor tiles ---------------------------------------------------------------------------------------------
def test_slide_into_ice_into_a_wall():
    s = turn_of(pos={0: "B4"}, tiles={"C4": "slide:E", "D4": "ice", "E4": "lwall:SW"}, gems={"D4": 1})
    s, ev = play(s, "move E")
    assert types(ev) == ["moved", "slid", "gems_taken", "wall_blocked"]
    assert s["pos"][0] == "D4" and s["score"][0] == 1
    # the same wall turned to its open side lets the ice push through
    s = turn_of(pos={0: "B4"}, tiles={"C4": "slide:E", "D4": "ice", "E4": "lwall:NE", "F4": "ice"})
    s, ev = play(s, "move E")
    assert types(ev) == ["moved", "slid", "iced"] and s["pos"][0] == "E4"


def test_ice_keeps_the_entry_direction_diagonals_too():
    s = turn_of(pos={0: "B4"}, tiles={"C4": "diag:NE", "D5": "ice", "E6": "ice"})
    s, ev = play(s, "move E")
    assert [(e["type"], e.get("dest")) for e in ev] == [("moved", "C4"), ("slid", "D5"), ("iced", "E6"),
                                                      ("iced", "F7")]
    s = turn_of(pos={0: "C3"}, tiles={"C4": "ice", "C5": "ice"})
    s, _ = play(s, "move N")
    assert s["pos"][0] == "C6"


def test_slide_or_ice_onto_a_forbidden_square_stays():
    s = turn_of(pos={0: "F7", 1: "H7"}, tiles={"G7": "slide:E"})
    s, ev = play(s, "move E")
    assert s["pos"][0] == "G7" and types(ev)[-1] == "push_blocked"  # H7: the opponent's piece
    s = turn_of(pos={0: "E8", 1: "D1"}, tiles={"F8": "ice", "G8": "ice"})
    s, ev = play(s, "move E")
    assert s["pos"][0] == "G8" and types(ev)[-1] == "push_blocked"  # H8 is the opponent's start
    s = turn_of(pos={0: "G4"}, tiles={"H4": "ice"})
    s, ev = play(s, "move E")
    assert s["pos"][0] == "H4" and types(ev)[-1] == "push_blocked"  # off the board


def test_spring_over_a_wall_onto_a_stop():
    s = turn_of(pos={0: "B4"}, tiles={"C4": "spring:E", "D4": "box", "E4": "stop"},
                gems={"D4": 3, "E4": 1}, line_floor=["ice"], hands={0: ["slide"]})
    s, ev = play(s, "move E")
    assert types(ev) == ["moved", "sprang", "gems_taken", "stopped"]
    sprang = ev[1]
    assert (sprang["from"], sprang["over"], sprang["dest"]) == ("C4", "D4", "E4")
    assert s["pos"][0] == "E4" and s["score"][0] == 1 and s["gems"] == {"D4": 3}  # jumped gems stay
    assert s["turn"]["stopped"] and s["turn"]["ap"] == 1
    legal = G.legal_actions(s, 0)
    assert not any(a.startswith(("move", "home")) for a in legal)
    refused(s, "move N", "hostile.stopped")
    assert "take ice" in legal and "place slide@F5:N" in legal  # taking and placing still allowed


def test_spring_may_land_on_a_wall_square():
    s = turn_of(pos={0: "B4"}, tiles={"C4": "spring:E", "E4": "box"}, hands={0: ["stop"]})
    s, ev = play(s, "move E")
    assert s["pos"][0] == "E4"
    assert not any(a.startswith("move") for a in G.legal_actions(s, 0))  # a box is closed all round
    assert "home stop" in G.legal_actions(s, 0)


def test_spring_onto_a_forbidden_square_lands_on_the_square_before():
    s = turn_of(pos={0: "B4", 1: "E4"}, tiles={"C4": "spring:E", "D4": "slide:N"}, gems={"D4": 1})
    s, ev = play(s, "move E")
    assert types(ev) == ["moved", "sprang_short", "gems_taken", "slid"]
    assert s["pos"][0] == "D5" and s["score"][0] == 1
    # both squares ahead forbidden: nothing happens
    s = turn_of(3, 0, pos={0: "B4", 1: "D4", 2: "E4"}, tiles={"C4": "spring:E"})
    s, ev = play(s, "move E")
    assert types(ev) == ["moved", "spring_stuck"] and s["pos"][0] == "C4"
    # off the board counts as forbidden; the opponent's start too
    s = turn_of(pos={0: "F4"}, tiles={"G4": "spring:E"})
    s, _ = play(s, "move E")
    assert s["pos"][0] == "H4"
    s = turn_of(pos={0: "E8"}, tiles={"F8": "spring:E"})
    s, _ = play(s, "move E")
    assert s["pos"][0] == "G8"


def test_spring_landing_fires_the_landing_tile_with_the_spring_direction():
    s = turn_of(pos={0: "B4"}, tiles={"C4": "spring:E", "E4": "ice"})
    s, ev = play(s, "move E")
    assert types(ev) == ["moved", "sprang", "iced"] and s["pos"][0] == "F4"


def test_diagonal_into_an_l_wall_needs_both_sides_open():
    for wall, lands in (("lwall:SW", False), ("lwall:SE", False), ("lwall:NW", False), ("lwall:NE", True),
                        ("para:NS", False), ("para:EW", False), ("box", False)):
        s = turn_of(pos={0: "B4"}, tiles={"C4": "diag:NE", "D5": wall})
        s, ev = play(s, "move E")
        assert (s["pos"][0] == "D5") is lands, wall
        if not lands:
            assert types(ev)[-1] == "wall_blocked" and s["pos"][0] == "C4"


def test_ap_moves_through_walls_only_where_open():
    s = turn_of(pos={0: "C3"}, tiles={"C4": "lwall:NE"})
    assert "move N" in G.legal_actions(s, 0)  # enters through the open south side
    s, _ = play(s, "move N")
    legal = G.legal_actions(s, 0)
    assert "move N" not in legal and "move E" not in legal  # leaving through closed sides
    assert "move W" in legal and "move S" in legal
    s = turn_of(pos={0: "C5"}, tiles={"C4": "lwall:NE"})
    assert "move S" not in G.legal_actions(s, 0)  # entering through the closed north side
    s = turn_of(pos={0: "B4"}, tiles={"C4": "para:NS"})
    assert "move E" in G.legal_actions(s, 0)
    s = turn_of(pos={0: "C3"}, tiles={"C4": "para:NS"})
    assert "move N" not in G.legal_actions(s, 0)
    s = turn_of(pos={0: "B4"}, tiles={"C4": "slide:E", "D4": "para:NS"})
    s, ev = play(s, "move E")
    assert s["pos"][0] == "D4"  # a slide may push through an open side
    s = turn_of(pos={0: "B4"}, tiles={"C4": "slide:E", "D4": "para:EW"})
    s, ev = play(s, "move E")
    assert s["pos"][0] == "C4" and types(ev)[-1] == "wall_blocked"


def test_stop_by_forced_movement_also_stops():
    s = turn_of(pos={0: "B4"}, tiles={"C4": "slide:E", "D4": "stop"}, skill="recall", hands={0: ["ice"]})
    s, ev = play(s, "move E")
    assert types(ev) == ["moved", "slid", "stopped"]
    assert "recall" not in G.legal_actions(s, 0)
    refused(s, "recall", "hostile.stopped")


def test_a_loop_discards_the_tile_just_placed():
    s = turn_of(tiles={"C4": "slide:E"}, hands={0: ["slide", "slide"]})
    s, ev = play(s, "place slide@D4:W")
    assert types(ev) == ["placed", "loop_discarded"]
    assert "D4" not in s["tiles"] and s["tiles"]["C4"] == ["slide", "E"]  # the earlier tile stays
    assert s["floor_discard"][-1] == "slide" and s["hands"][0] == ["slide"]
    s, ev = play(s, "place slide@D4:N")
    assert types(ev) == ["placed"]


def test_longer_loops_with_ice_and_springs_are_found():
    # a square of slides
    assert has_loop({"C4": ["slide", "E"], "D4": ["slide", "N"], "D5": ["slide", "W"], "C5": ["slide", "S"]})
    assert not has_loop({"C4": ["slide", "E"], "D4": ["slide", "N"], "D5": ["slide", "W"], "C5": ["stop", ""]})
    # ice between two slides pointing at each other
    assert has_loop({"C4": ["slide", "E"], "D4": ["ice", ""], "E4": ["slide", "W"]})
    # a spring jumping back and forth
    assert has_loop({"C4": ["spring", "E"], "E4": ["spring", "W"]})
    # a wall blocking the way breaks it
    assert not has_loop({"C4": ["slide", "E"], "D4": ["lwall", "SW"], "E4": ["slide", "W"]})
    # a spring landing short of a blocked square can close a loop
    tiles = {"C4": ["spring", "E"], "D4": ["slide", "W"]}
    assert not has_loop(tiles) and has_loop(tiles, {"E4"}.__contains__)


def _random_board(rng: Rng, percent: int) -> dict:
    """Tiles of random kinds and facings on about ``percent`` % of the squares."""
    kinds = floor_kinds()
    tiles = {}
    for sq in SQUARES:
        if rng.below(100) < percent:
            kind = rng.choice(sorted(kinds))
            tiles[sq] = [kind, rng.choice(list(kinds[kind].orientations))]
    return tiles


def test_the_placement_and_rotation_loop_check_agrees_with_the_full_one():
    # the engine checks a placement or a rotation from the board without that square (memoised,
    # every configuration of blocked squares at once) plus the square; dense random boards (many loops) with and without blocked squares must
    # give the same answer
    kinds = floor_kinds()
    rng = Rng(4)
    found = 0
    for trial in range(1200):
        tiles = _random_board(rng, 55)
        blocked = frozenset(sq for sq in SQUARES if sq not in tiles and rng.below(100) < 15)
        turnable = [sq for sq in SQUARES if sq in tiles and kinds[tiles[sq][0]].oriented]
        if trial % 2 and turnable:
            square = rng.choice(turnable)
            kind, orient = tiles[square]
            after = dict(tiles, **{square: [kind, rotate_orientation(kind, orient, rng.below(2) == 0)]})
        else:
            square = rng.choice([sq for sq in SQUARES if sq not in tiles])
            kind = rng.choice(sorted(kinds))
            after = dict(tiles, **{square: [kind, rng.choice(list(kinds[kind].orientations))]})
        full = has_loop(after, blocked.__contains__)
        assert has_loop_after_change(after, square, [frozenset(), blocked]) == (full or has_loop(after))
        found += full
        # the per-configuration check that reuses the states a configuration does not touch
        configs = [frozenset(), blocked, blocked - {min(blocked, default="")}, blocked | {square}]
        assert loops_by_config(after, configs) == [has_loop(after, c.__contains__) for c in configs]
    assert 60 < found < 1140   # both answers were exercised


def test_a_board_that_cannot_loop_loops_under_no_blocking():
    # the loop check skips boards where no squares blocked could make a loop: on random boards,
    # every blocking that loops must belong to a board said to be able to loop, and boards that
    # loop only with pieces in the way must be among those
    rng = Rng(5)
    could, only_blocked = 0, 0
    for _trial in range(600):
        tiles = _random_board(rng, 40)
        free = [sq for sq in SQUARES if sq not in tiles]
        blockings = [frozenset(sq for sq in free if rng.below(100) < share) for share in (10, 25, 50, 75) * 4]
        looped = [has_loop(tiles, blocked.__contains__) for blocked in blockings]
        if any(looped):
            assert could_loop(tiles)
        could += could_loop(tiles)
        only_blocked += any(looped) and not has_loop(tiles)
    assert 30 < could < 570 and only_blocked > 5   # both answers, and loops made by blocking


def test_a_loop_made_by_a_piece_in_the_way_of_a_spring_discards_too():
    s = turn_of(pos={1: "E4"}, tiles={"C4": "spring:E"}, hands={0: ["slide"]})
    s, ev = play(s, "place slide@D4:W")
    assert "loop_discarded" in types(ev) and "D4" not in s["tiles"]


def test_a_loop_made_by_a_spring_landing_short_of_a_forbidden_start_discards_too():
    """A6 springs north at the unused corner A8, lands short on A7 and slides back: endless."""
    s = turn_of(pos={0: "C3"}, tiles={"A7": "slide:S"}, hands={0: ["spring"]})
    s, ev = play(s, "place spring@A6:N")
    assert types(ev) == ["placed", "loop_discarded"] and "A6" not in s["tiles"]
    # 4 players: A8 is seat 1's own start (seat 1 would land there), but the others loop
    s = turn_of(4, 0, pos={0: "C3"}, tiles={"A7": "slide:S"}, hands={0: ["spring"]})
    s, ev = play(s, "place spring@A6:N")
    assert "loop_discarded" in types(ev)


def test_a_loop_made_by_rotation_discards_the_rotated_tile():
    s = turn_of(tiles={"C4": "slide:E", "D4": "slide:N"}, skill="rotate")
    s, ev = play(s, "rotate D4 ccw")
    assert types(ev) == ["rotated_ccw", "loop_discarded"] and "D4" not in s["tiles"]
    assert s["turn"]["uses"] == 1


# ---- skills -----------------------------------------------------------------------------------------------------
def test_crash_once_per_turn_any_tile():
    s = turn_of(pos={1: "E5"}, tiles={"E5": "stop", "C3": "box"}, skill="crash")
    legal = G.legal_actions(s, 0)
    assert "crash E5" in legal and "crash C3" in legal  # under another piece is fine
    s, ev = play(s, "crash E5")
    assert "E5" not in s["tiles"] and s["floor_discard"][-1] == "stop"
    assert not any(a.startswith("crash") for a in G.legal_actions(s, 0))
    refused(s, "crash C3", "hostile.skill_used")
    assert s["turn"]["ap"] == 2


def test_rotate_twice_per_turn_either_way_same_tile_allowed():
    s = turn_of(tiles={"C3": "lwall:NE", "D6": "ice"}, skill="rotate")
    legal = G.legal_actions(s, 0)
    assert "rotate C3 cw" in legal and "rotate C3 ccw" in legal
    assert not any(a.startswith("rotate D6") for a in legal)  # ice looks the same every way
    s, _ = play(s, "rotate C3 cw", "rotate C3 cw")
    assert s["tiles"]["C3"] == ["lwall", "SW"]
    assert not any(a.startswith("rotate") for a in G.legal_actions(s, 0))


def test_recall_is_free_and_once():
    s = turn_of(pos={0: "E5"}, skill="recall")
    s, ev = play(s, "recall")
    assert s["pos"][0] == "A1" and s["turn"]["ap"] == 2 and types(ev) == ["recalled"]
    s, _ = play(s, "move N")
    assert "recall" not in G.legal_actions(s, 0)


def test_steal_costs_an_ap_from_own_or_orthogonal_squares():
    s = turn_of(pos={0: "D4"}, tiles={"D4": "ice", "D5": "spring:N", "E5": "stop", "C4": "box"},
                skill="steal", hands={0: ["C3", "C5", "C6"]})
    legal = G.legal_actions(s, 0)
    assert {"steal D4", "steal D5", "steal C4"} <= set(legal) and "steal E5" not in legal
    s, ev = play(s, "steal D5")
    assert "D5" not in s["tiles"] and s["hands"][0] == ["spring", "C3", "C5", "C6"] and s["turn"]["ap"] == 1
    s, ev = play(s, "steal D4")
    assert "hand_full" in types(ev) and s["floor_discard"][-1] == "ice" and s["turn"]["ap"] == 0
    assert not any(a.startswith("steal") for a in G.legal_actions(s, 0))


def test_ghost_ignores_all_floor_tiles_but_not_forbidden_squares():
    tiles = {"C4": "slide:N", "D4": "box", "E4": "stop", "F4": "spring:E"}
    s = turn_of(pos={0: "B4"}, tiles=tiles, skill="ghost", gems={"D4": 2}, ap=5)
    s, ev = play(s, "move E", "move E", "move E", "move E")
    # issue #43: each tile Ghost cancels is said (the box on D4 moves nobody: nothing to say)
    assert types(ev) == ["moved", "ghost_ignored", "moved", "gems_taken", "moved", "ghost_ignored", "moved",
                         "ghost_ignored"]
    assert [(e["square"], e["tile_term"]) for e in ev if e["type"] == "ghost_ignored"] == [
        ("C4", "slide"), ("E4", "stop"), ("F4", "spring")]
    assert s["pos"][0] == "F4" and s["score"][0] == 2 and not s["turn"]["stopped"]
    s = turn_of(pos={0: "G8"}, skill="ghost")
    assert "move E" not in G.legal_actions(s, 0)
    # the same walk without ghost is stopped by the box at once
    s = turn_of(pos={0: "C4"}, tiles={"D4": "box"})
    assert "move E" not in G.legal_actions(s, 0)


def test_quick_gives_three_action_points():
    s = turn_of(2, 1, skill="quick")
    s["actor"], s["queue"] = 0, [1]
    s["skills"] = [None, "quick"]
    s, ev = play(s, "end")
    assert next(e for e in ev if e["type"] == "turn_started")["ap"] == 3 and s["turn"]["ap"] == 3


def test_king_becomes_start_player_at_round_end_only():
    s = G.setup(4, {}, 21)
    picks = {0: "skill " + next(c for c in s["pool"] if c != "king"), 1: None}
    s, _ = play(s, picks[0])
    s, ev = play(s, "skill king")
    assert s["king"] == 1 and s["start"] == 0
    s = auto_to(s, "turn")
    while s["round"] == 1:
        s, ev = play(s, "end")
    assert s["start"] == 1 and "start_player" in types(ev)
    assert ev.index(next(e for e in ev if e["type"] == "start_player")) < ev.index(
        next(e for e in ev if e["type"] == "round_started"))
    assert s["actor"] == 1  # the new start player drafts first


def test_no_king_no_change_of_start_player():
    s = turn_of(2, 1)
    s["queue"], s["cycle"], s["king"], s["start"] = [], 2, None, 1
    s, ev = play(s, "end")
    assert s["start"] == 1 and "start_player" not in types(ev)


# ---- decks, end and tie ---------------------------------------------------------------------------------------------
def end_of_round(players=2, **kw):
    """A state where the last player of the round is about to end the turn."""
    last = players - 1
    s = turn_of(players, last, **kw)
    s["queue"], s["cycle"] = [], 2 if players == 2 else 1
    return s


def test_floor_deck_short_is_the_last_round_and_the_discard_refills_the_line():
    s = end_of_round()
    s["line_floor"] = ["ice"] * 4
    s["floor_deck"] = ["stop"] * 2
    s["floor_discard"] = ["box"] * 3
    s, ev = play(s, "end")
    assert "floor_short" in types(ev) and "floor_deck_reshuffled" in types(ev) and s["last_round"]
    assert sorted(s["line_floor"]) == sorted(["ice"] * 4 + ["stop"] * 2 + ["box"] * 3)  # still one short
    assert G.outcome(s) is None and s["round"] == 2


def test_floor_short_ends_the_game_after_that_round():
    s = end_of_round()
    s["floor_deck"] = []
    s["floor_discard"] = []
    s["line_floor"] = []
    s, ev = play(s, "end")
    assert s["last_round"] and "floor_short" in types(ev)
    rng, ev = Rng(1), []
    while G.outcome(s) is None:
        seat = min(G.to_act(s))
        legal = G.legal_actions(s, seat)
        s, ev = G.apply(s, seat, "end" if "end" in legal else rng.choice(legal))
    assert s["round"] == 2 and "game_end_floor" in types(ev)


def test_target_is_checked_at_the_end_of_the_round():
    s = end_of_round(pos={1: "C3"}, gems={"C4": 20})
    s["score"] = [3, 0]
    s, ev = play(s, "move N")
    assert s["score"][1] == 20 and G.outcome(s) is None  # the round is not over yet
    s, ev = play(s, "end")
    assert G.outcome(s).winners == (1,) and G.outcome(s).reason == "gems"
    assert "game_end_target" in types(ev)
    assert {"final_score"} <= set(types(ev))


def test_three_players_play_to_fifteen():
    s = end_of_round(3)
    s["score"] = [14, 15, 2]
    s, ev = play(s, "end")
    assert G.outcome(s).winners == (1,)


def test_team_totals_decide_in_two_vs_two():
    s = end_of_round(4)
    s["score"] = [12, 9, 19, 1]  # X 21, Y 20
    s["reached"] = [5, 3]
    s, ev = play(s, "end")
    out = G.outcome(s)
    assert out.winners == (0, 1) and out.reason == "gems"
    assert [e["team_gems"] for e in ev if e["type"] == "final_score_team"] == [21, 21, 20, 20]


def test_tie_goes_to_who_reached_the_total_first():
    s = end_of_round(4, pos={3: "D4"}, gems={"D5": 2})
    s["score"] = [10, 10, 10, 8]
    s["reached"] = [4, 1]
    s["clock"] = 9
    s, ev = play(s, "move N")  # team Y reaches 20 now, after team X did
    assert s["reached"][1] > s["reached"][0]
    s, ev = play(s, "end")
    out = G.outcome(s)
    assert out.winners == (0, 1) and out.reason == "tie_first" and "tie_broken" in types(ev)
    s = end_of_round(2)
    s["score"], s["reached"] = [20, 20], [7, 3]
    s, _ = play(s, "end")
    assert G.outcome(s).winners == (1,) and G.outcome(s).reason == "tie_first"
    s = end_of_round(2)
    s["score"], s["reached"], s["last_round"] = [0, 0], [0, 0], True
    s, _ = play(s, "end")
    assert G.outcome(s).draw and G.outcome(s).reason == "tie"


def test_reached_records_when_each_total_was_reached():
    s = turn_of(pos={0: "B4"}, tiles={"C4": "slide:E"}, gems={"C4": 1, "D4": 1})
    s["clock"] = 3
    s, _ = play(s, "move E")
    assert s["reached"] == [5, 0] and s["clock"] == 5


# ---- notation and menus ---------------------------------------------------------------------------------------------
def test_notation_is_canonicalised():
    assert G.canonical(" Place  SPRING@c4:n ") == "place spring@C4:N"
    assert G.canonical("spring c4 n") == "place spring@C4:N"
    assert G.canonical("ice@d5") == "place ice@D5"
    assert G.canonical("n") == "move N" and G.canonical("M e") == "move E" and G.canonical("MOVE w") == "move W"
    assert G.canonical("take C4") == "take C4" and G.canonical("take Spring") == "take spring"
    assert G.canonical("ROTATE e5 CW") == "rotate E5 cw" and G.canonical("Crash e5") == "crash E5"
    assert G.canonical("home c3") == "home C3" and G.canonical(" END ") == "end"
    assert G.canonical("Skill King") == "skill king" and G.canonical("corner h8") == "corner H8"
    for action in ("place lwall@C4:NE", "place box@C4", "gem C4", "steal B3", "recall", "move S"):
        assert G.canonical(action) == action
        G.parse(action)


def test_malformed_and_impossible_notation_is_refused():
    s = turn_of(hands={0: ["slide"]})
    for text in ("", "place slide@C4", "place ice@C4:N", "place slide@C4:NE", "move NE", "place slide@I9:N",
                 "take dragon", "skill wizard", "corner C4", "rotate C4 cw cw", "x" * 200, "pass"):
        with pytest.raises(NotationError):
            G.apply(s, 0, text)
    with pytest.raises(NotYourTurn):
        G.apply(s, 1, "end")
    with pytest.raises(IllegalAction):
        G.apply(s, 0, "skill king")


def test_action_paths_place_in_three_clicks_and_menus_fit():
    assert G.action_path("place spring@C4:N") == ("place spring", "C4", "N")
    assert G.action_path("place ice@C4") == ("place ice", "C4")
    assert G.action_path("rotate E5 ccw") == ("rotate", "E5", "ccw")
    assert G.action_path("crash E5") == ("crash", "E5")
    assert G.action_path("move N") == ("move N",) and G.action_path("end") == ("end",)
    rng = Rng(3)
    for players in (2, 3, 4):
        state = G.setup(players, {}, players)
        for _ in range(400):
            if G.outcome(state) is not None:
                break
            seat = min(G.to_act(state))
            legal = G.legal_actions(state, seat)
            paths = [G.action_path(a) for a in legal]
            assert len(set(paths)) == len(paths)
            for path in paths:
                assert 1 <= len(path) <= 3 and all(step and "|" not in step and len(step) <= 100 for step in path)
            for depth in range(3):
                below: dict[tuple, set] = {}
                for p in paths:
                    if len(p) > depth:
                        below.setdefault(p[:depth], set()).add(p[depth])
                assert all(len(v) <= 125 for v in below.values())
            assert all(len(f"tt:a:123456:1234:{a}") <= 100 for a in legal)
            state, _ = G.apply(state, seat, choose_action(G, state, seat, rng))


def test_scramble_really_changes_the_decks_and_views_do_not_show_them():
    s = G.setup(2, {}, 1)
    decks = {tuple(G.scramble_hidden(s, 0, Rng(i))["floor_deck"]) for i in range(10)}
    assert len(decks) > 1
    text = json.dumps(G.view(s, None))
    assert "floor_deck" not in text and "gem_deck" not in text and '"rng"' not in text


def test_every_game_ends_and_tile_conservation_holds():
    for players in (2, 3, 4):
        for seed in range(6):
            rng = Rng(seed + 50)
            s = G.setup(players, {}, seed)
            while G.outcome(s) is None:
                seat = min(G.to_act(s))
                s, _ = G.apply(s, seat, choose_action(G, s, seat, rng))
                floor = (len(s["floor_deck"]) + len(s["floor_discard"]) + len(s["line_floor"]) + len(s["tiles"])
                         + sum(1 for h in s["hands"] for t in h if not t[0].isupper()))
                gems = (len(s["gem_deck"]) + len(s["gem_discard"]) + len(s["line_gems"])
                        + sum(1 for h in s["hands"] for t in h if t[0].isupper()))
                assert (floor, gems) == (57, 48)
                assert all(len(h) <= 4 for h in s["hands"])
                assert not any(s["gems"].get(p) for p in s["pos"] if p)


def test_unknown_options_and_player_counts_are_refused():
    with pytest.raises(GameError) as err:
        G.setup(2, {"no_such_option": "1"}, 1)
    assert err.value.key == "option_unknown"
    with pytest.raises(GameError) as err:
        G.setup(5, {}, 1)
    assert err.value.key == "hostile.players"
    s = G.setup(2, {"target": "12", "line_floor": "4"}, 1)
    assert s["target"] == 12 and len(s["line_floor"]) == 4


# ---- texts -------------------------------------------------------------------------------------------------
def test_every_event_renders_in_both_languages_with_all_its_params():
    from bot import i18n
    from tests.test_i18n import assert_event_renders

    seen = set()

    def check(events):
        for e in events:
            if e["type"] not in seen:
                seen.add(e["type"])
                assert_event_renders("hostile", e)

    for players in (2, 3, 4):
        for seed in range(12):
            state, rng = G.setup(players, {}, seed), Rng(seed)
            while G.outcome(state) is None:
                seat = min(G.to_act(state))
                legal = G.legal_actions(state, seat)
                moves = [a for a in legal if not a.startswith("place")]
                action = moves[rng.below(len(moves))] if moves and rng.below(4) else rng.choice(legal)
                state, events = G.apply(state, seat, action)
                check(events)
    # the rarer chains, from the scenarios above
    for make, action in (
        (lambda: turn_of(pos={0: "B4"}, tiles={"C4": "slide:E", "D4": "ice", "E4": "lwall:SW"}), "move E"),
        (lambda: turn_of(pos={0: "B4"}, tiles={"C4": "spring:E", "D4": "box", "E4": "stop"}), "move E"),
        (lambda: turn_of(pos={0: "B4", 1: "E4"}, tiles={"C4": "spring:E"}), "move E"),
        (lambda: turn_of(3, 0, pos={0: "B4", 1: "D4", 2: "E4"}, tiles={"C4": "spring:E"}), "move E"),
        (lambda: turn_of(pos={0: "G4"}, tiles={"H4": "ice"}), "move E"),
        (lambda: turn_of(tiles={"C4": "slide:E"}, hands={0: ["slide"]}), "place slide@D4:W"),
        (lambda: turn_of(pos={0: "D4"}, hands={0: ["C3"]}), "home C3"),
        (lambda: turn_of(pos={0: "D4"}, skill="recall"), "recall"),
    ):
        check(play(make(), action)[1])
    s = turn_of(pos={0: "B4"}, tiles={"C4": "slide:E"})
    s["tiles"]["D4"] = ["slide", "W"]  # a loop forced in by hand: the runtime safety net
    s, ev = play(s, "move E")
    assert "loop_stopped" in types(ev)
    check(ev)
    expected = {"moved", "slid", "iced", "sprang", "sprang_short", "spring_stuck", "push_blocked", "wall_blocked",
                "stopped", "gems_taken", "placed", "loop_discarded", "home", "recalled", "skill_taken", "drafted",
                "draft_placed", "turn_started", "turn_ended", "round_started", "emission", "line_refilled",
                "round_ended", "final_score", "final_score_team", "corner_chosen", "start_bonus", "second_cycle",
                "loop_stopped"}
    assert expected <= seen, expected - seen
    for reason in ("gems", "tie_first", "tie"):
        assert i18n.has(f"reason.{reason}")
    for key in ("wrong_phase", "no_skill", "skill_used", "stopped", "no_ap", "not_in_line", "not_in_hand",
                "place_near_start", "move_start", "no_tile_there", "not_now", "players", "bad_data"):
        assert i18n.has(f"error.hostile.{key}")
    for key in ("game.hostile.title", "rules.hostile.summary", "rules.hostile.notation"):
        assert i18n.has(key)


# ---- through the game host service (menus drill down; placement in three clicks) ---------------------------------
@pytest.fixture
async def host(tmp_path):
    from bot.service import GameHost
    from bot.storage.sqlite import Store

    store = await Store.open(str(tmp_path / "hostile.sqlite3"))
    seeds = iter(range(500, 900))
    yield GameHost(store, clock=lambda: "2026-11-21T00:00:00+00:00", seed_source=lambda: next(seeds),
                   render=lambda game, view: b"PNG")
    await store.close()


async def test_the_service_offers_menus_and_places_a_tile_in_three_clicks(host):
    users = (11, 22, 33, 44)
    row, _ = await host.create("hostile", None, guild_id=1, channel_id=5, user_id=users[0], locale="en")
    for u in users[1:]:
        await host.join(row.id, u)
    outbox = await host.start(row.id, users[0])
    row = await host.store.load(row.id)
    assert row.state["players"] == 4
    controls = next((p.controls for p in outbox.posts if p.controls is not None), None)  # the board post
    assert controls is not None and all(c.startswith("skill ") for c in controls.choices)
    while row.state["phase"] == "skill":
        seat = row.state["actor"]
        await host.act(row.id, row.user_of(seat), G.legal_actions(row.state, seat)[0])
        row = await host.store.load(row.id)
    seat = row.state["actor"]
    user = row.user_of(seat)
    kind = row.state["line_floor"][0]
    first = host._controls(row, G, seat)
    assert len(first.choices) <= 125 and f"place {kind}" in first.choices
    step1 = await host.drill(row.id, user, row.version, (f"place {kind}",))
    squares = list(step1.reply_controls.choices)
    assert 0 < len(squares) <= 125
    step2 = await host.drill(row.id, user, row.version, (f"place {kind}", squares[0]))
    if floor_kinds()[kind].oriented:  # the third click: the orientation
        orients = list(step2.reply_controls.choices)
        assert orients == list(floor_kinds()[kind].orientations)
        await host.drill(row.id, user, row.version, (f"place {kind}", squares[0], orients[0]))
    else:  # ice, stop, box: the square was the last click
        assert step2.reply_controls is None
    row = await host.store.load(row.id)
    assert row.state["tiles"][squares[0]][0] == kind
    assert row.state["actor"] == seat and row.state["picks"] == 1


def test_a_timed_out_turn_ends_but_drafts_have_no_pass():
    s = turn_of(pos={0: "C3"})
    assert G.skip_action(s, 0) == "end" and G.skip_action(s, 1) is None
    assert G.skip_action(G.setup(2, {}, 1), 0) is None  # skill draft


def test_resigning_loses_for_the_whole_team():
    s = turn_of(4, 1)
    s, ev = G.resign(s, 1)
    assert G.outcome(s).winners == (2, 3) and G.outcome(s).reason == "resign" and G.to_act(s) == set()
    s, _ = G.resign(turn_of(3, 0), 2)
    assert G.outcome(s).winners == (0, 1)
    with pytest.raises(GameError):
        G.resign(s, 0)


# ---- words for people: buttons, menus, steps, events and refusals never show engine identifiers ----------
COORDINATE = r"[A-Ha-h][1-8]"


def bare(text: str) -> str:
    """The text outside code spans (notation may be shown there)."""
    import re

    return re.sub(r"`[^`]*`", "", text)


def leaked(game, text: str) -> list[str]:
    """Engine identifiers that a player would read outside a code span of ``text``."""
    import re

    outside = bare(text)
    return sorted(i for i in game.identifiers()
                  if re.search(r"(?<![\w:@`])" + re.escape(i) + r"(?![\w:@])", outside))


def said(game, family: str, words: dict, lang: str) -> str:
    """Words ``{"type": t, **params}`` as a player reads them: the key exists, every placeholder is
    filled, every term exists, seats become names, and no identifier shows outside code spans."""
    from bot import i18n
    from bot.service.present import SEAT_PARAMS
    from bot.service.words import termed

    key = f"{family}.{game.name}.{words['type']}"
    if family == "event" and not i18n.has(key):
        key = f"event.{words['type']}"
    assert i18n.has(key), key
    params = {k: v for k, v in words.items() if k not in ("type", "to")}
    for name, value in params.items():
        if name.endswith("_term"):
            assert i18n.has(f"term.{game.name}.{value}"), (key, name, value)
    missing = i18n.placeholders(i18n.catalogue(lang)[key]) - params.keys()
    assert not missing, (lang, key, missing)
    params = {k: (f"<@{100 + v}>" if k in SEAT_PARAMS and v is not None else v)
              for k, v in termed(game, params).items()}
    text = i18n.render(lang, i18n.T(key, **params))
    assert "{" not in text and not leaked(game, text), (lang, key, text, leaked(game, text))
    return text


def walk_words(game, states, *, plain_step=COORDINATE, menus=True):
    """Every legal action's path, step by step, in words (a step without words must be a plain
    coordinate or move matching ``plain_step``), every menu below it and the step of the round."""
    import re

    seen_paths, seen_menus, count = set(), set(), 0
    for state in states:
        if (phase := game.phase_words(state)) is not None:
            for lang in ("en", "ja"):
                said(game, "phase", phase, lang)
        for seat in sorted(game.to_act(state)):
            for action in game.legal_actions(state, seat):
                path = tuple(game.action_path(action))
                for i in range(1, len(path) + 1):
                    if path[:i] in seen_paths:
                        continue
                    seen_paths.add(path[:i])
                    words = game.choice_words(path[:i])
                    if words is None:
                        assert re.fullmatch(plain_step, path[i - 1]), (path[:i], "has no words")
                        continue
                    count += 1
                    for lang in ("en", "ja"):
                        assert len(said(game, "choice", words, lang)) <= 80  # a Discord button label
                for i in range(len(path)):
                    if path[:i] in seen_menus:
                        continue
                    seen_menus.add(path[:i])
                    words = game.menu_words(path[:i])
                    assert words is not None or not menus, (path[:i], "menu without words")
                    if words is not None:
                        for lang in ("en", "ja"):
                            said(game, "menu", words, lang)
    assert count, "no choice was put in words"
    return seen_paths


def test_every_legal_action_menu_and_step_is_said_in_words_in_both_languages():
    states = list(random_states(G, (2, 3, 4), range(3), steps=250))
    states += [turn_of(skill=skill, pos={0: "D4"}, tiles={"D5": "slide:N", "C4": "ice"},
                       hands={0: ["lwall", "para", "C5", "spring"]}) for skill in board()["skills"]]
    paths = walk_words(G, states)
    heads = {p[0].split(" ")[0] for p in paths}
    assert {"corner", "skill", "take", "place", "gem", "move", "home", "crash", "rotate", "recall", "steal",
            "end"} <= heads


def test_japanese_buttons_use_the_rulebooks_words():
    from bot import i18n
    from bot.service.words import termed

    def ja(words, family="choice"):
        return i18n.render("ja", i18n.T(f"{family}.hostile.{words['type']}",
                                        **termed(G, {k: v for k, v in words.items() if k != "type"})))

    assert ja(G.choice_words(("skill crash",))).startswith("スキル「クラッシュ」")
    assert ja(G.choice_words(("place lwall", "D1", "NE"))) == "ウォール（L）をD1に配置（北と東が閉じている）"
    assert ja(G.choice_words(("take ice",))) == "ラインからアイスを取る"
    assert ja(G.choice_words(("place spring", "C4", "W"))) == "スプリングをC4に配置（矢印 ← 西）"
    assert ja(G.menu_words(("place spring",)), "menu") == "スプリングを置くマスを選んでください…"
    en = i18n.render("en", i18n.T("choice.hostile.place_facing", **termed(G, G.choice_words(
        ("place lwall", "D1", "SE")))))
    assert en == "Place L wall on D1, closed on S and E"
    # a wall's facing buttons say which sides are closed; an arrow's say where it points
    assert G.menu_words(("place para", "C4"))["type"] == "place_wall"
    assert G.menu_words(("place diag", "C4"))["type"] == "place_arrow"
    assert G.choice_words(("rotate", "E5", "cw")) == {"type": "rotate_cw", "square": "E5"}
    assert G.choice_words(("place spring", "C4")) is None  # a square on the way: the coordinate says it


def test_events_of_random_play_never_show_identifiers():
    for players in (2, 3, 4):
        for seed in range(3):
            state, rng = G.setup(players, {}, seed), Rng(seed)
            events = list(G.opening_events(state))
            while G.outcome(state) is None:
                seat = min(G.to_act(state))
                state, new = G.apply(state, seat, choose_action(G, state, seat, rng))
                events += new
            for event in {json.dumps(e, sort_keys=True): e for e in events}.values():
                for lang in ("en", "ja"):
                    said(G, "event", event, lang)
    for make, action in (
        (lambda: turn_of(pos={0: "B4"}, tiles={"C4": "slide:E", "D4": "ice", "E4": "lwall:SW"}), "move E"),
        (lambda: turn_of(tiles={"C4": "slide:E"}, hands={0: ["slide"]}), "place slide@D4:W"),
        (lambda: turn_of(pos={0: "D4"}, hands={0: ["C3"]}), "home C3"),
        (lambda: turn_of(pos={0: "D4"}, skill="steal", tiles={"D5": "para:NS"}), "steal D5"),
        (lambda: turn_of(skill="rotate", tiles={"D5": "diag:NE"}), "rotate D5 ccw"),
        (lambda: turn_of(skill="crash", tiles={"D5": "box"}), "crash D5"),
        (lambda: turn_of(hands={0: ["box", "box", "C5", "D5"]}, line_floor=["ice"], line_gems=["E5"]), "take E5"),
    ):
        for event in play(make(), action)[1]:
            for lang in ("en", "ja"):
                said(G, "event", event, lang)


def refusal(state, action, seat=None):
    """The error a refused action raises, and its message in both languages."""
    from bot import i18n
    from bot.service.words import termed

    who = state["actor"] if seat is None else seat
    with pytest.raises(GameError) as err:
        G.apply(state, who, action)
    e = err.value
    texts = {lang: i18n.render(lang, i18n.T(f"error.{e.key}", **termed(G, e.params))) for lang in ("en", "ja")}
    for text in texts.values():
        assert "{" not in text and not leaked(G, text), text
    return e, texts


def test_a_para_wall_placed_ne_is_not_an_action_and_says_which_facings_it_takes():
    s = turn_of(hands={0: ["para", "ice"]})
    e, texts = refusal(s, "place para@C4:NE")
    assert isinstance(e, NotationError) and e.key == "hostile.bad_facing"
    assert "not an action of this game" in texts["en"] and "`NS`" in texts["en"] and "`EW`" in texts["en"]
    assert "closed on N and S" in texts["en"] and "Parallel wall" in texts["en"]
    assert "ウォール（PARA）" in texts["ja"] and "このゲームの行動ではありません" in texts["ja"]
    e, texts = refusal(s, "place ice@C4:N")
    assert e.key == "hostile.no_facing" and "`place ice@C4`" in texts["en"]
    e, _ = refusal(s, "place lwall@C4")
    assert e.key == "hostile.bad_facing" and e.params["facings_term"] == "facings_lwall"


def test_a_bad_placement_names_the_one_reason_that_applies():
    s = turn_of(pos={0: "C3", 1: "E5"}, tiles={"D4": "lwall:NE"}, hands={0: ["slide"]})
    for square, key, words in (("C3", "place_piece", "a piece stands there"),
                               ("A8", "place_start", "it is a start point"),
                               ("D4", "place_tile", "it already holds one (L wall, closed on N and E)"),
                               ("G7", "place_near_start", "next to an opponent's start point")):
        e, texts = refusal(s, f"place slide@{square}:N")
        assert e.key == f"hostile.{key}" and e.params["square"] == square
        assert words in texts["en"] and texts["en"].count(",") <= 1, texts["en"]


def test_a_blocked_move_names_its_one_reason():
    s = turn_of(pos={0: "G8", 1: "F8"})
    assert refusal(s, "move E")[0].key == "hostile.move_start"
    assert refusal(s, "move W")[1]["en"] == "You cannot move west ←: another piece stands on F8."
    assert refusal(s, "move N")[0].key == "hostile.move_off_board"
    s = turn_of(pos={0: "C4"}, tiles={"C5": "lwall:SW", "C3": "para:EW"})
    e, texts = refusal(s, "move N")
    assert e.key == "hostile.move_wall_in" and "L wall on C5 (closed on S and W)" in texts["en"]
    s = turn_of(pos={0: "C4"}, tiles={"C4": "para:NS"})
    assert refusal(s, "move N")[0].key == "hostile.move_wall_out"


def test_an_excluded_skill_says_it_is_out_this_round():
    s = G.setup(2, {}, 5)
    assert s["phase"] == "skill" and len(s["excluded"]) == 2
    out = s["excluded"][0]
    e, texts = refusal(s, f"skill {out}")
    assert e.key == "hostile.skill_excluded" and e.params == {"skill_term": out}
    assert "is out this round" in texts["en"] and "除外" in texts["ja"]
    assert "not possible now" not in texts["en"]
    taken = s["pool"][0]
    s, _ = G.apply(s, 0, f"skill {taken}")
    assert refusal(s, f"skill {taken}", seat=1)[0].key == "hostile.skill_held"


def test_refusals_at_the_wrong_step_name_the_step():
    s = G.setup(2, {}, 5)
    e, texts = refusal(s, "move N")
    assert e.key == "hostile.wrong_phase" and e.params["phase_term"] == "step_skill"
    assert "the skill draft" in texts["en"] and "スキルカードのドラフト" in texts["ja"]
    s = auto_to(s, "draft")
    e, texts = refusal(s, "end")
    assert e.key == "hostile.wrong_phase" and "the tile draft" in texts["en"]
    s = turn_of(skill="crash")
    assert refusal(s, "rotate C4 cw")[1]["en"] == "You do not hold Rotate this round (your skill: Crash)."
    s = turn_of(skill="rotate", tiles={"C4": "ice"})
    assert refusal(s, "rotate C4 cw")[0].key == "hostile.rotate_same"
    assert refusal(s, "rotate C5 cw")[0].key == "hostile.no_tile_there"
    s = turn_of(pos={0: "A1"}, hands={0: ["stop"]})
    assert refusal(s, "home stop")[0].key == "hostile.at_start"


def test_opening_events_announce_what_setup_did_in_round_one(monkeypatch):
    """A 2-player game opens with round 1's gem emission, line refill and excluded skills: the
    opening events are exactly the events setup's own run of round 1 made (and then dropped)."""
    made = []
    advance = Hostile._advance

    def recording(self, state, events):
        advance(self, state, events)
        made.extend(events)

    for players, seed in ((2, 1), (2, 8), (4, 3)):
        made.clear()
        monkeypatch.setattr(Hostile, "_advance", recording)
        state = G.setup(players, {}, seed)
        monkeypatch.setattr(Hostile, "_advance", advance)
        opening = G.opening_events(state)
        assert opening == made
        assert [e["type"] for e in opening] == ["round_started", "emission", "line_refilled", "skills_excluded_2"]
        assert len(opening[1]["squares"].split(", ")) == board()["emission"]
        assert {opening[3]["skill1_term"], opening[3]["skill2_term"]} == set(state["excluded"])
        texts = [said(G, "event", e, "en") for e in opening]
        assert texts[0].startswith("🔔 Round 1") and "Gem emission" in texts[1] and "Line refilled" in texts[2]
        assert "out this round" in texts[3]
        for e in opening:
            said(G, "event", e, "ja")
    # 3 players: the corner pick comes first; round 1 is announced by the pick's own events
    state = G.setup(3, {}, 1)
    assert G.opening_events(state) == [] and G.phase_words(state) == {"type": "corner"}
    state, events = G.apply(state, 0, "corner A1")
    assert {"round_started", "emission", "line_refilled", "skills_excluded_2"} <= set(types(events))
    assert G.opening_events(G.apply(G.setup(2, {}, 1), 0, G.legal_actions(G.setup(2, {}, 1), 0)[0])[0]) == []


def test_every_later_round_and_step_is_announced_and_named():
    state, rng = G.setup(2, {}, 4), Rng(4)
    rounds = 0
    phases = set()
    while G.outcome(state) is None and rounds < 3:
        phases.add(G.phase_words(state)["type"])
        seat = min(G.to_act(state))
        state, events = G.apply(state, seat, choose_action(G, state, seat, rng))
        if "round_started" in types(events):
            rounds += 1
            kinds = types(events)
            assert kinds.index("round_started") < kinds.index("emission") < kinds.index("line_refilled")
            assert any(k.startswith("skills_excluded_") for k in kinds)
    assert rounds >= 2
    assert {"skill", "draft", "turn", "skill_second", "draft_second", "turn_second"} <= phases
    s = turn_of(ap=1)
    assert G.phase_words(s) == {"type": "turn", "round": 1, "ap": 1}
    assert said(G, "phase", G.phase_words(s), "en") == "round 1 — turns (action points left: 1)"


def test_identifiers_name_the_engine_words_and_the_catalogues_keep_them_in_code():
    from bot import i18n

    ids = G.identifiers()
    assert {"lwall", "para", "diag", "spring", "crash", "rotate", "cw", "spring:W", "lwall:SE", "diag:NE"} <= ids
    for lang in ("en", "ja"):
        for key, text in i18n.catalogue_files(lang)["hostile"].items():
            assert not leaked(G, text), (lang, key, leaked(G, text))


# ---- a tile taken into a full hand is discarded: its choice says so (issue #31, part 6) ----------------
FULL_HAND = ["box", "box", "C5", "D5"]


def hand_of(tiles: list[str]):
    """Seat 0 mid-turn with the steal skill beside two floor tiles, ``tiles`` in hand and a slide,
    an ice and gem tile E5 in the line."""
    return turn_of(hands={0: tiles}, skill="steal", pos={0: "D4"}, tiles={"D4": "ice", "D5": "spring:N"},
                   line_floor=["slide", "ice"], line_gems=["E5"])


DISCARDING = ("take slide", "take E5", "steal D5")


def test_a_choice_that_takes_a_tile_into_a_full_hand_says_it_is_discarded():
    """The engine offers the same actions with a full hand (the tile gained is discarded, as the
    rulebook says); only their words change, and only for the seat whose hand is full."""
    room, full = hand_of(FULL_HAND[:3]), hand_of(FULL_HAND)

    def gaining(state):
        return [a for a in G.legal_actions(state, 0) if a.startswith(("take", "steal"))]

    assert gaining(full) == gaining(room) and set(DISCARDING) <= set(gaining(full))
    for action in DISCARDING:
        path = G.action_path(action)
        plain = G.choice_words(path)["type"]
        assert G.choice_words(path, G.view(full, 0))["type"] == plain + "_discarded"
        for reader in (G.view(room, 0), G.view(full, None), G.view(full, 1)):   # room, a spectator, seat 1
            assert G.choice_words(path, reader)["type"] == plain
    assert G.choice_words(("steal",), G.view(full, 0))["type"] == "steal_skill_discarded"
    assert G.menu_words(("steal",), view=G.view(full, 0))["type"] == "steal_discarded"
    assert G.menu_words(("steal",), view=G.view(room, 0))["type"] == "steal"
    for action in ("move N", "end", "place box@B2"):   # nothing else is said differently
        path = G.action_path(action)
        assert G.choice_words(path, G.view(full, 0)) == G.choice_words(path)
    s, events = play(full, "take slide")
    assert "hand_full" in types(events) and s["hands"][0] == FULL_HAND


def test_discard_words_read_in_both_languages_in_the_rulebooks_terms():
    view = G.view(hand_of(FULL_HAND), 0)
    for action in DISCARDING + ("steal",):
        for lang in ("en", "ja"):
            text = said(G, "choice", G.choice_words(G.action_path(action) if action != "steal" else ("steal",), view),
                        lang)
            assert len(text) <= 80   # a Discord button label
            assert ("discarded" if lang == "en" else "手札が上限のため捨て札になります") in text, text
    for lang, words in (("en", "discarded"), ("ja", "捨て札")):
        assert words in said(G, "menu", G.menu_words(("steal",), view=view), lang)


async def test_buttons_and_menus_say_a_taken_tile_is_discarded(host):
    """Through the service: the seat's buttons and select options, and the steal menu's question."""
    from bot import i18n

    row, _ = await host.create("hostile", None, guild_id=1, channel_id=5, user_id=11, locale="en")
    await host.join(row.id, 22)
    await host.start(row.id, 11)
    row = await host.store.load(row.id)
    row.state = hand_of(FULL_HAND)
    below = [a for a in G.legal_actions(row.state, 0) if a.startswith("steal ")]   # as a drill passes them
    top, steal = host._controls(row, G, 0), host._controls(row, G, 0, ("steal",), below)
    en = {k: i18n.render("en", t) for k, t in {**top.labels, **steal.labels}.items()}
    ja = {k: i18n.render("ja", t) for k, t in {**top.labels, **steal.labels}.items()}
    assert en["take slide"] == "Take Slide from the line (your hand is full: it is discarded)"
    assert ja["take slide"] == "ラインからスライド（タテ）を取る（手札が上限のため捨て札になります）"
    assert en["take E5"] == "Take gem tile E5 from the line (your hand is full: it is discarded)"
    assert en["steal D5"] == "Steal the tile on D5 (1 AP; your hand is full: it is discarded)"
    assert ja["steal D5"] == "D5のタイルをスティール（行動点1・手札が上限のため捨て札になります）"
    assert "discarded" in en["steal"] and "discarded" in i18n.render("en", steal.question)
    assert all("discarded" in i18n.render("en", text) for text in steal.labels.values())   # each square to steal from
    assert not any("discarded" in i18n.render("en", text) for key, text in top.labels.items()
                   if not key.startswith(("take", "steal")))
    row.state = hand_of(FULL_HAND[:3])
    assert i18n.render("en", host._controls(row, G, 0).labels["take slide"]) == "Take Slide from the line"


def test_the_quick_only_end_left_check_agrees_with_the_listed_turn_actions():
    import itertools

    states = [s for s in random_states(G, (2, 3, 4), range(4), steps=300) if s["phase"] == "turn"]
    hands = ([], ["lwall"], ["C5"], ["lwall", "C5"])
    for skill, ap, stopped, hand, line, here in itertools.product(
            [None, *board()["skills"]], (0, 1), (False, True), hands, ([], ["para"]), ("D4", "A1", "G7")):
        state = turn_of(skill=skill, ap=ap, pos={0: here}, tiles={"D5": "slide:N", "E4": "ice"},
                        hands={0: hand}, line_floor=line, line_gems=[])
        state["turn"]["stopped"] = stopped
        states.append(state)
    answers = Counter()
    for state in states:
        seat = state["actor"]
        listed = G._turn_actions(state, seat) == ["end"]
        assert G._only_end_left(state, seat) == listed, (state["turn"], state["skills"][seat], state["hands"][seat])
        answers[listed] += 1
    assert answers[True] >= 20 and answers[False] >= 200, answers
