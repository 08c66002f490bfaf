"""OSU scenarios (RULES.md §3 and the rulebook's own examples), variants, and the engine contract.

Positions are built by hand: ``tile(seat, number, left="cat")`` is a tile turned so that its cat
faces left. Seats stand for the rulebook's colours as each test says. The game is not registered
here (registration happens in ``games/__init__.py``), so the contract helpers of
``tests/test_contract.py`` run on an engine instance of our own.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.ai import choose_action
from games.errors import GameError, IllegalAction, NotationError, NotYourTurn
from games.osu.engine import (
    ANIMALS, MONKEY_DIE, PASSAGES, Osu, board_squares, face, rotation_with, tile_mark,
)
from games.rng import Rng

G = Osu()
SIDES = {"up": 0, "right": 1, "down": 2, "left": 3}


def tile(seat: int, number: int, **facing: str) -> list:
    """A tile of ``seat`` with one side given, e.g. ``tile(0, 3, left="mouse")``."""
    (side, animal), = facing.items()
    return [seat, number, rotation_with(SIDES[side], animal)]


def make(players: int, board: dict[str, list], turn: int = 0, **options) -> dict:
    state = G.setup(players, options, seed=1)
    state["board"] = {sq: list(t) for sq, t in board.items()}
    state["turn"] = turn
    return state


def play(state, action, seat=None):
    seat = state["turn"] if seat is None else seat
    assert action in G.legal_actions(state, seat), (action, G.legal_actions(state, seat))
    return G.apply(state, seat, action)


def types(events) -> list[str]:
    """Event types of a chain (turns skipped for seats without tiles, common in these sparse
    4-player positions, left out)."""
    return [e["type"] for e in events if e["type"] != "skipped"]


def where(state) -> dict[tuple[int, int], str]:
    """(seat, number) -> square."""
    return {(t[0], t[1]): sq for sq, t in state["board"].items()}


def rng_giving(*faces: str) -> int:
    """An RNG state whose next monkey die rolls are ``faces``."""
    for seed in range(10_000):
        rng = Rng(seed)
        if all(MONKEY_DIE[rng.below(6)] == f for f in faces):
            return seed
    raise AssertionError(faces)


# ---- setup, board, notation ---------------------------------------------------------------------
def test_boards_have_45_and_35_squares_without_corners():
    four, two = board_squares(4), board_squares(2)
    assert len(four) == 45 and len(two) == 35
    assert not {"a1", "a7", "g1", "g7"} & set(four)
    assert {sq[0] for sq in two} == set("bcdef")
    assert set(PASSAGES) <= set(two) and "d4" in two


def test_two_player_setup_rows_1_and_7_mouse_facing_the_centre():
    s = G.setup(2, {}, 3)
    assert s["board"] == {
        "b1": [0, 1, 0], "c1": [0, 2, 0], "e1": [0, 3, 0], "f1": [0, 4, 0],
        "f7": [1, 1, 2], "e7": [1, 2, 2], "c7": [1, 3, 2], "b7": [1, 4, 2],
    }
    assert face(0, 0) == "mouse" and face(2, 2) == "mouse"   # up for south, down for north
    assert s["turn"] == 0 and "rng" in s and s["captured"] == [[], []]


def test_four_player_setup_each_edge_line_without_its_middle():
    s = G.setup(4, {}, 3)
    assert len(s["board"]) == 16
    by_seat = {seat: sorted(sq for sq, t in s["board"].items() if t[0] == seat) for seat in range(4)}
    assert by_seat == {0: ["b1", "c1", "e1", "f1"], 1: ["a2", "a3", "a5", "a6"],
                       2: ["b7", "c7", "e7", "f7"], 3: ["g2", "g3", "g5", "g6"]}
    # mouse faces the centre: west faces right, east faces left
    assert face(s["board"]["a3"][2], SIDES["right"]) == "mouse"
    assert face(s["board"]["g5"][2], SIDES["left"]) == "mouse"
    # tiles are numbered 1-4 from each player's left to right
    assert [s["board"][sq][1] for sq in ("b1", "c1", "e1", "f1")] == [1, 2, 3, 4]
    assert [s["board"][sq][1] for sq in ("a6", "a5", "a3", "a2")] == [1, 2, 3, 4]


def test_three_players_and_misfit_variants_are_refused():
    with pytest.raises(GameError) as err:
        G.setup(3, {}, 1)
    assert err.value.key == "osu.players"
    for players, option in ((4, "points"), (4, "reversal"), (2, "osu_push")):
        with pytest.raises(GameError) as err:
            G.setup(players, {option: "yes"}, 1)
        assert err.value.key == "osu.variant_players" and err.value.params["option"] == option
    with pytest.raises(GameError) as err:
        G.setup(2, {"turn_limit": "many"}, 1)
    assert err.value.key == "option_bad_value"
    # the lobby resolves options for max_players before the count is known: that must pass
    assert G.resolve_options({"points": "1"}, G.max_players)["points"] is True


def test_tile_faces_clockwise_and_rotation():
    assert [face(0, s) for s in range(4)] == ["mouse", "cat", "lion", "monkey"]
    s = make(2, {"c3": tile(0, 1, up="mouse")})
    s2, events = play(s, "c3>")
    assert face(s2["board"]["c3"][2], SIDES["right"]) == "mouse"
    assert events[0] == {"type": "rotated", "seat": 0, "tile": "🟦1", "square": "c3", "turn": "↻", "up": "🐵"}
    s3, _ = play(make(2, {"c3": tile(0, 1, up="mouse")}), "c3<")
    assert face(s3["board"]["c3"][2], SIDES["up"]) == "cat"


def test_notation_legal_actions_and_groups():
    s = G.setup(2, {}, 1)
    legal = G.legal_actions(s, 0)
    assert legal == ["b1-b2", "b1>", "b1<", "c1-c2", "c1-d1", "c1>", "c1<",
                     "e1-e2", "e1-d1", "e1>", "e1<", "f1-f2", "f1>", "f1<"]
    assert all(G.canonical(a) == a for a in legal)
    assert {G.action_group(a) for a in legal} == {"b1", "c1", "e1", "f1"}
    assert G.canonical(" B1 - B2 ") == "b1-b2" and G.canonical("C1 >") == "c1>"
    assert G.legal_actions(s, 1) == []
    s4 = G.setup(4, {}, 1)
    assert "b1-b2" in G.legal_actions(s4, 0)
    assert "a2-b2" in G.legal_actions({**s4, "turn": 1}, 1)


def test_malformed_out_of_turn_and_illegal_actions_are_refused():
    s = G.setup(2, {}, 1)
    before = json.dumps(s, sort_keys=True)
    for text in ("", "b1", "b1-b9", "h1-h2", "b1>>", "pass", "b1-b2-b3"):
        with pytest.raises(NotationError):
            G.apply(s, 0, text)
    with pytest.raises(NotYourTurn):
        G.apply(s, 1, "f7-f6")
    cases = {"d4>": "osu.no_own_tile", "f7-f6": "osu.not_yours", "b1-c2": "osu.not_adjacent",
             "b1-a1": "osu.off_board", "b1-c1": "osu.occupied", "c1-c3": "osu.not_adjacent"}
    for action, key in cases.items():
        with pytest.raises(IllegalAction) as err:
            G.apply(s, 0, action)
        assert err.value.key == key, action
    assert json.dumps(s, sort_keys=True) == before


# ---- contests -----------------------------------------------------------------------------------
def test_rock_paper_scissors_and_numbers():
    # (arriving animal, its number, neighbour animal, its number) -> arriving tile wins?
    cases = [("cat", 1, "mouse", 4, 1), ("lion", 1, "cat", 4, 1), ("mouse", 1, "lion", 4, 1),
             ("mouse", 4, "cat", 1, -1), ("cat", 4, "lion", 1, -1), ("lion", 4, "mouse", 1, -1),
             ("cat", 3, "cat", 2, 1), ("lion", 1, "lion", 2, -1), ("mouse", 2, "mouse", 2, 0)]
    for mine, n, theirs, m, expected in cases:
        s = make(2, {"c2": tile(0, n, up=mine), "c4": tile(1, m, down=theirs)})
        s2, events = play(s, "c2-c3")
        kinds = types(events)
        if expected == 1:
            assert kinds[1] in ("contest", "contest_number") and events[1]["winner"] == 0
            assert where(s2)[(1, m)] == "c5"
        elif expected == -1:
            assert events[1]["winner"] == 1 and where(s2)[(0, n)] == "c2"
        else:
            assert kinds == ["moved", "contest_draw"] and where(s2) == {(0, n): "c3", (1, m): "c4"}
    s2, events = play(make(2, {"c2": tile(0, 3, up="cat"), "c4": tile(1, 2, down="cat")}), "c2-c3")
    assert events[1]["type"] == "contest_number"
    assert events[1]["winner_animal"] == "🐱" and events[1]["loser_tile"] == "🟧2"


def test_rulebook_monkey_die_example():
    """Red rolls the monkey die, a mouse comes up, and the beaten blue moves one square right."""
    red, blue = 1, 0
    s = make(2, {"c2": tile(red, 2, right="monkey"), "d3": tile(blue, 3, left="lion")}, turn=red)
    s["rng"] = rng_giving("mouse")
    s2, events = play(s, "c2-c3")
    assert types(events) == ["moved", "monkey", "contest", "retreat"]
    assert events[1] == {"type": "monkey", "seat": red, "tile": "🟧2", "square": "c3", "roll": "🐭"}
    assert events[2]["winner"] == red and events[2]["winner_animal"] == "🐵🐭"
    assert where(s2)[(blue, 3)] == "e3"
    assert s2["rng"] != s["rng"]
    # the other faces: a cat loses to the lion, a lion meets the lion and the numbers decide
    for roll, winner in (("cat", blue), ("lion", blue)):
        s["rng"] = rng_giving(roll)
        _, events = play(s, "c2-c3")
        assert events[2]["winner"] == winner


def test_two_monkeys_both_roll_and_the_die_is_fair():
    s = make(2, {"c2": tile(0, 2, up="monkey"), "c4": tile(1, 2, down="monkey")})
    s["rng"] = rng_giving("cat", "mouse")
    _, events = play(s, "c2-c3")
    assert types(events)[:4] == ["moved", "monkey", "monkey", "contest"]
    assert [e["seat"] for e in events[1:3]] == [0, 1] and events[3]["winner"] == 0
    rng = Rng(5)
    counts = Counter(MONKEY_DIE[rng.below(6)] for _ in range(6000))
    assert set(counts) == set(ANIMALS[:3]) and min(counts.values()) > 1800


def test_contests_run_mouse_cat_lion_then_monkey_side():
    """The arriving tile (mouse up, cat right, lion down, monkey left) has neighbours on its mouse,
    cat and monkey sides (its lion side faces the square it came from): they are contested in
    that order, the monkey last, and all three lose."""
    board = {"d3": tile(0, 4, up="mouse"),       # will move to d4: mouse up, cat right, lion down
             "d5": tile(1, 1, down="lion"),       # mouse beats lion
             "e4": tile(2, 1, left="mouse"),      # cat beats mouse
             "c4": tile(3, 1, right="monkey"),    # the monkey side: last
             }
    s = make(4, board)
    s["rng"] = rng_giving("mouse", "mouse")
    s2, events = play(s, "d3-d4")
    contests = [e for e in events if e["type"].startswith("contest")]
    assert [e.get("loser_square", e.get("defender_square")) for e in contests] == ["d5", "e4", "c4"]
    assert contests[2]["type"] == "contest_number" and contests[2]["winner"] == 0
    assert where(s2) == {(0, 4): "d4", (1, 1): "d6", (2, 1): "f4", (3, 1): "b4"}


def test_rulebook_multi_contest_example():
    """① Blue moves one forward next to red and green and contests red first. ② Beaten, blue does
    not contest green and is moved one square right. ③ Next to yellow it contests, loses and is
    moved one square back."""
    blue, red, green, yellow = 0, 1, 2, 3
    s = make(4, {"c3": tile(blue, 2, left="mouse"),    # mouse left (red), cat up (green)
                 "b4": tile(red, 3, right="cat"),
                 "c5": tile(green, 1, down="mouse"),
                 "d5": tile(yellow, 4, down="lion")})
    s2, events = play(s, "c3-c4")
    assert types(events) == ["moved", "contest", "retreat", "contest", "retreat"]
    assert (events[1]["winner"], events[1]["loser_square"]) == (red, "c4")
    assert events[2]["from"] == "c4" and events[2]["dest"] == "d4"
    assert (events[3]["winner"], events[3]["winner_square"]) == (yellow, "d5")
    assert events[4]["from"] == "d4" and events[4]["dest"] == "d3"
    assert all(green not in (e.get("winner"), e.get("loser")) for e in events)
    assert where(s2)[(blue, 2)] == "d3"
    assert [(p["kind"], p["from"], p["to"]) for p in s2["last"]["path"]] == [
        ("move", "c3", "c4"), ("retreat", "c4", "d4"), ("retreat", "d4", "d3")]


def test_rulebook_warning_example_momentum_push():
    """① Green moves forward next to red and loses. ② It is moved one square right. ③ There it
    loses to blue and is moved back to the square it had moved to. ④ Coming back, it pushes red,
    which it already contested, one square left without a new contest."""
    green, red, blue = 0, 1, 2
    s = make(4, {"c2": tile(green, 1, left="mouse"),   # mouse left, lion right
                 "b3": tile(red, 2, right="cat"),
                 "e3": tile(blue, 3, left="mouse")})
    s2, events = play(s, "c2-c3")
    assert types(events) == ["moved", "contest", "retreat", "contest", "retreat", "momentum", "pushed"]
    assert events[5] == {"type": "momentum", "seat": green, "tile": "🟦1", "pushed_seat": red,
                         "pushed_tile": "🟧2", "square": "c3"}
    assert events[6]["from"] == "b3" and events[6]["dest"] == "a3"
    assert where(s2) == {(green, 1): "c3", (red, 2): "a3", (blue, 3): "e3"}


def test_warning_example_on_the_two_player_board_captures_by_momentum():
    green, other = 0, 1   # red and blue both belong to the opponent
    s = make(2, {"c2": tile(green, 1, left="mouse"), "b3": tile(other, 2, right="cat"),
                 "e3": tile(other, 3, left="mouse")})
    s2, events = play(s, "c2-c3")
    assert types(events)[-2:] == ["momentum", "captured"]
    assert events[-1] == {"type": "captured", "seat": green, "pushed_seat": other, "tile": "🟧2", "square": "b3"}
    assert s2["captured"] == [[[other, 2]], []]


def test_each_pair_contests_once_and_a_returning_loser_only_shoves_straight_ahead():
    """Green loses four times round a square and comes back beside red, which it already met:
    red is beside it, not ahead, so nothing happens (no second contest, no shove)."""
    green, red, t1, t2 = 0, 1, 2, 3
    s = make(4, {"d4": tile(green, 1, up="mouse"),   # moves to d5: monkey left (red) is its only
                 "c5": tile(red, 1, right="lion"),   # neighbour there; then it is driven round
                 "e6": tile(t1, 1, down="cat"),      # e5: loses its mouse (up) to a cat
                 "f4": tile(t2, 1, left="lion"),     # e4: loses its cat (right) to a lion
                 "d3": tile(red, 2, up="mouse")})    # d4: loses its lion (down) to a mouse
    s["rng"] = rng_giving("cat")                     # green's monkey rolls a cat: the lion wins
    s2, events = play(s, "d4-d5")
    assert types(events) == ["moved", "monkey", "contest", "retreat", "contest", "retreat",
                             "contest", "retreat", "contest", "retreat"]
    assert [(e["from"], e["dest"]) for e in events if e["type"] == "retreat"] == [
        ("d5", "e5"), ("e5", "e4"), ("e4", "d4"), ("d4", "d5")]
    assert where(s2)[(green, 1)] == "d5" and where(s2)[(red, 1)] == "c5"


def test_a_winner_shoved_by_its_returning_loser_contests_no_more():
    blue, red, green, yellow = 0, 1, 2, 3
    s = make(4, {"d2": tile(blue, 1, up="mouse"),      # to d3: mouse up (red), cat right (green)
                 "d4": tile(red, 1, down="lion"),      # loses, goes up to d5
                 "d6": tile(yellow, 1, down="cat"),    # beats red's mouse: red comes back to d4
                 "e3": tile(green, 1, left="lion")})   # would beat blue's cat, but is never met
    s2, events = play(s, "d2-d3")
    assert types(events) == ["moved", "contest", "retreat", "contest", "retreat", "momentum", "pushed"]
    assert events[5]["seat"] == red and events[5]["pushed_seat"] == blue
    assert (events[6]["from"], events[6]["dest"]) == ("d3", "d2")
    assert all(green not in (e.get("winner"), e.get("loser")) for e in events)
    assert where(s2) == {(blue, 1): "d2", (red, 1): "d4", (yellow, 1): "d6", (green, 1): "e3"}


def test_loser_pushes_the_line_behind_it_and_pushed_tiles_do_not_contest():
    s = make(4, {"c2": tile(0, 4, up="cat"),      # moves to c3, beats the mouse above
                 "c4": tile(1, 1, down="mouse"),
                 "c5": tile(1, 2, down="cat"),     # pushed to c6 by its own colour
                 "b6": tile(3, 1, right="cat")})   # beside c6 afterwards: the pushed tile rests
    s2, events = play(s, "c2-c3")
    assert types(events) == ["moved", "contest", "retreat", "pushed"]
    assert events[3] == {"type": "pushed", "pushed_seat": 1, "tile": "🟧2", "from": "c5", "dest": "c6"}
    assert where(s2) == {(0, 4): "c3", (1, 1): "c5", (1, 2): "c6", (3, 1): "b6"}


def test_the_loser_contests_anew_where_it_arrives():
    s = make(4, {"c2": tile(0, 4, up="cat"),
                 "c4": tile(1, 1, down="mouse"),   # driven up to c5: its monkey faces right
                 "d5": tile(2, 1, left="lion")})
    s["rng"] = rng_giving("mouse")
    s2, events = play(s, "c2-c3")
    assert types(events) == ["moved", "contest", "retreat", "monkey", "contest", "retreat"]
    assert events[4]["winner"] == 1 and where(s2)[(2, 1)] == "e5"


# ---- passages --------------------------------------------------------------------------------------
def test_passage_moves_to_the_next_free_one_and_contests_only_there():
    s = make(4, {"b3": tile(0, 1, up="cat"),
                 "c2": tile(1, 1, left="mouse"),   # next to b2: never contested
                 "c6": tile(2, 1, left="mouse")})  # next to b6: contested after the passage
    s2, events = play(s, "b3-b2")
    assert types(events)[:3] == ["moved", "passage", "contest"]
    assert events[1] == {"type": "passage", "seat": 0, "tile": "🟦1", "from": "b2", "dest": "b6"}
    assert events[2]["loser"] == 2 or events[2]["winner"] == 2
    assert all(1 not in (e.get("winner"), e.get("loser")) for e in events)


def test_passage_skips_occupied_ones_and_does_nothing_when_all_are_taken():
    s = make(4, {"b3": tile(0, 1, up="cat"), "b6": tile(1, 1, up="cat")})
    s2, events = play(s, "b3-b2")
    assert events[1]["dest"] == "f6" and where(s2)[(0, 1)] == "f6"
    s = make(4, {"b3": tile(0, 1, up="cat"), "b6": tile(1, 1, up="cat"), "f6": tile(1, 2, up="cat"),
                 "f2": tile(1, 3, up="cat"), "c2": tile(1, 4, left="cat")})
    s2, events = play(s, "b3-b2")
    assert types(events) == ["moved", "passage_blocked", "contest", "retreat"]   # fought on b2 itself
    assert events[1] == {"type": "passage_blocked", "seat": 0, "tile": "🟦1", "square": "b2"}
    assert where(s2)[(0, 1)] == "b2" and where(s2)[(1, 4)] == "d2"


def test_clockwise_order_from_every_passage():
    for start, nxt in zip(PASSAGES, PASSAGES[1:] + PASSAGES[:1]):
        col, row = start[0], int(start[1])
        frm = f"{col}{row + 1 if row == 2 else row - 1}"
        s2, events = play(make(4, {frm: tile(0, 1, up="cat")}), f"{frm}-{start}")
        assert events[1]["dest"] == nxt


def test_corners_are_off_the_board():
    s = make(4, {"d1": tile(0, 4, left="cat"), "b1": tile(1, 1, right="mouse")})
    s2, events = play(s, "d1-c1")   # the mouse on b1 is driven left onto a1, a missing corner
    assert types(events) == ["moved", "contest", "captured"]
    assert s2["captured"][0] == [[1, 1]]


def test_a_loser_driven_onto_a_passage_goes_on_and_contests_there():
    s = make(4, {"d3": tile(0, 4, left="cat"),     # to d2: cat left vs the mouse on c2
                 "c2": tile(1, 1, right="mouse"),  # driven left onto b2, through to b6
                 "c6": tile(2, 1, left="cat")})    # there its mouse (right) meets this cat
    s2, events = play(s, "d3-d2")
    assert types(events) == ["moved", "contest", "retreat", "passage", "contest", "retreat"]
    assert (events[2]["dest"], events[3]["from"], events[3]["dest"]) == ("b2", "b2", "b6")
    assert events[4]["winner"] == 2 and events[4]["loser_square"] == "b6"
    assert where(s2)[(1, 1)] == "a6"


def test_pushed_tiles_go_through_passages_without_contest():
    s = make(4, {"e3": tile(0, 4, left="cat"),     # to e2: cat left vs the mouse on d2
                 "d2": tile(1, 1, right="mouse"),  # driven left to c2, pushing green onto b2
                 "c2": tile(2, 1, up="cat"),       # which goes through to b6 ...
                 "c6": tile(3, 1, left="cat")})    # ... and does not contest yellow there
    s2, events = play(s, "e3-e2")
    assert types(events) == ["moved", "contest", "retreat", "pushed", "passage"]
    assert events[4] == {"type": "passage", "seat": 2, "tile": "🟩1", "from": "b2", "dest": "b6"}
    assert where(s2) == {(0, 4): "e2", (1, 1): "c2", (2, 1): "b6", (3, 1): "c6"}
    assert [p["kind"] for p in s2["last"]["path"]] == ["move", "retreat", "push", "passage"]





# ---- captures and winning -------------------------------------------------------------------------
def test_rulebook_capture_example_1():
    """Red moves one back next to green and wins; green and blue beside it move one right; blue
    goes off the board and green (the tile that pushed it) captures it."""
    red, green, blue = 0, 1, 2
    s = make(4, {"e4": tile(red, 1, right="lion"), "f3": tile(green, 2, left="cat"),
                 "g3": tile(blue, 3, up="mouse")})
    s2, events = play(s, "e4-e3")
    assert types(events) == ["moved", "contest", "retreat", "captured"]
    assert events[3] == {"type": "captured", "seat": green, "pushed_seat": blue, "tile": "🟩3", "square": "g3"}
    assert s2["captured"][green] == [[blue, 3]]
    assert where(s2) == {(red, 1): "e3", (green, 2): "g3"}
    path = s2["last"]["path"]
    assert path[-1]["kind"] == "off" and path[-1]["to"] is None and (path[-1]["dx"], path[-1]["dy"]) == (1, 0)


def test_rulebook_capture_example_2_own_tile_counts_with_4_players():
    red, green = 0, 1
    s = make(4, {"e4": tile(red, 1, right="lion"), "f3": tile(green, 1, left="cat"),
                 "g3": tile(green, 2, up="mouse")})
    s2, events = play(s, "e4-e3")
    assert events[3] == {"type": "captured_own", "seat": green, "tile": "🟧2", "square": "g3"}
    assert s2["captured"][green] == [[green, 2]]
    assert G.view(s2, None)["scores"][green] == 1


def test_capture_example_2_with_2_players_goes_to_the_opponent():
    red, green = 1, 0
    s = make(2, {"d2": tile(red, 1, right="lion"), "e3": tile(green, 1, left="cat"),
                 "f3": tile(green, 2, up="mouse")}, turn=red)
    s2, events = play(s, "d2-d3")
    assert events[3] == {"type": "captured_self_push", "seat": red, "pushed_seat": green, "tile": "🟦2",
                         "square": "f3"}
    assert s2["captured"] == [[], [[green, 2]]]


def test_with_2_players_an_own_colour_push_off_wins_the_game_for_the_opponent():
    """「2人プレイルールでは適用されません」: blue's tile 1 loses to orange, retreats into its own
    line and pushes blue 3 off with blue 2; orange captures it, its second tile, and wins on
    blue's own move."""
    blue, orange = 0, 1
    s = make(2, {"d2": tile(blue, 1, right="cat"), "c3": tile(blue, 2, up="mouse"),
                 "b3": tile(blue, 3, up="mouse"), "e3": tile(orange, 1, left="lion")})
    s["captured"] = [[], [[blue, 4]]]
    s2, events = play(s, "d2-d3")
    assert types(events) == ["moved", "contest", "retreat", "pushed", "captured_self_push", "won"]
    assert events[4] == {"type": "captured_self_push", "seat": orange, "pushed_seat": blue, "tile": "🟦3",
                         "square": "b3"}
    assert s2["captured"] == [[], [[blue, 4], [blue, 3]]]
    assert G.outcome(s2).winners == (orange,) and G.outcome(s2).reason == "osu_captures"


def test_a_loser_at_the_edge_is_captured_by_the_winner():
    s = make(2, {"c2": tile(0, 1, left="cat"), "b3": tile(1, 1, right="mouse")})
    s2, events = play(s, "c2-c3")
    assert types(events) == ["moved", "contest", "captured"]
    assert events[2] == {"type": "captured", "seat": 0, "pushed_seat": 1, "tile": "🟧1", "square": "b3"}
    assert s2["captured"] == [[[1, 1]], []]


def test_two_players_win_with_the_second_capture_and_the_chain_stops():
    s = make(2, {"c2": tile(0, 1, left="cat"), "b3": tile(1, 1, right="mouse"),
                 "d3": tile(1, 2, left="cat")})   # would beat blue next, but the game is over
    s["captured"] = [[[1, 4]], []]
    s2, events = play(s, "c2-c3")
    assert types(events) == ["moved", "contest", "captured", "won"]
    assert events[-1] == {"type": "won", "seat": 0, "count": 2}
    assert G.outcome(s2).winners == (0,) and G.outcome(s2).reason == "osu_captures"
    assert G.to_act(s2) == set() and G.legal_actions(s2, 1) == []
    with pytest.raises(GameError):
        G.apply(s2, 1, "d3-d2")


def test_four_players_win_with_three_tiles_own_included():
    red, green = 0, 1
    s = make(4, {"e4": tile(red, 1, right="lion"), "f3": tile(green, 1, left="cat"),
                 "g3": tile(green, 2, up="mouse")})
    s["captured"][green] = [[2, 1], [3, 4]]
    s2, events = play(s, "e4-e3")
    assert types(events)[-1] == "won" and G.outcome(s2).winners == (green,)
    s["captured"][green] = [[2, 1]]
    s2, _ = play(s, "e4-e3")
    assert G.outcome(s2) is None and s2["turn"] == 1


def test_points_variant_needs_ten_points():
    s = make(2, {"c2": tile(0, 1, left="cat"), "b3": tile(1, 4, right="mouse")}, points=True)
    s["captured"] = [[[1, 1], [1, 2]], []]
    s2, events = play(s, "c2-c3")
    assert G.outcome(s2) is None and G.view(s2, None)["scores"] == [7, 0]   # 3 tiles: not a win
    assert G.view(s2, None)["targets"] == [10, 10]
    s["captured"] = [[[1, 1], [1, 2], [1, 3]], []]
    s2, events = play(s, "c2-c3")
    assert events[-1] == {"type": "won_points", "seat": 0, "points": 10}
    assert G.outcome(s2).reason == "osu_points"


# ---- variants ----------------------------------------------------------------------------------------
def test_reversal_variant_reverses_while_d4_is_occupied():
    board = {"c2": tile(0, 1, up="mouse"), "c4": tile(1, 4, down="cat"), "d4": tile(1, 1, up="cat")}
    s2, events = play(make(2, board, reversal=True), "c2-c3")
    assert events[1]["type"] == "contest_reversed" and events[1]["winner"] == 0   # mouse beats cat
    board.pop("d4")
    s2, events = play(make(2, board, reversal=True), "c2-c3")
    assert events[1]["type"] == "contest" and events[1]["winner"] == 1
    s2, events = play(make(2, dict(board, d4=tile(1, 1, up="cat"))), "c2-c3")   # variant off
    assert events[1]["type"] == "contest" and events[1]["winner"] == 1
    assert G.view(make(2, dict(board, d4=tile(1, 1, up="cat")), reversal=True), None)["reversed"] is True


def test_reversal_ends_the_moment_d4_empties():
    """Blue beats the tile on d4 under the reversed rule; it leaves d4, and blue's next contest,
    in the same chain, is fought under the normal rule."""
    s = make(2, {"e3": tile(0, 3, left="cat"),      # to e4: cat left (d4), lion up (e5)
                 "d4": tile(1, 1, right="lion"),    # reversed: cat beats lion; driven to c4
                 "e5": tile(1, 2, down="cat")},     # normal again: lion beats cat
             reversal=True)
    s2, events = play(s, "e3-e4")
    contests = [e for e in events if e["type"].startswith("contest")]
    assert [e["type"] for e in contests] == ["contest_reversed", "contest"]
    assert all(e["winner"] == 0 for e in contests)
    assert where(s2) == {(0, 3): "e4", (1, 1): "c4", (1, 2): "e6"}


def test_osu_push_variant_pushes_the_ring_outward_and_captures_diagonally():
    blue, red, green, yellow = 0, 1, 2, 3
    board = {"d3": tile(blue, 4, up="mouse"),       # moves to d4
             "c5": tile(red, 1, up="cat"),          # up-left: to b6 (a passage)
             "b6": tile(green, 2, up="cat"),        # pushed on to a7, a missing corner: off
             "e4": tile(yellow, 3, up="cat"),       # right: to f4
             "c3": tile(red, 2, up="cat"),          # down-left: to b2 (a passage)
             "f6": tile(green, 3, up="cat")}        # not on a ray: stays
    s = make(4, board, osu_push=True)
    s2, events = play(s, "d3-d4")
    assert types(events) == ["moved", "osu_push", "pushed", "pushed", "pushed", "captured",
                             "passage", "passage"]
    cap = events[5]
    assert cap == {"type": "captured", "seat": red, "pushed_seat": green, "tile": "🟩2", "square": "b6"}
    after = where(s2)
    assert after[(yellow, 3)] == "f4" and after[(blue, 4)] == "d4" and after[(green, 3)] == "f6"
    # pushed tiles go through passages front first, rays clockwise from north: red 2 (on b2)
    # finds b6 and f6 taken and goes to f2; then red 1 (on b6) finds f6, f2 taken: b2
    assert after[(red, 2)] == "f2" and after[(red, 1)] == "b2"
    assert s2["captured"][red] == [[green, 2]]
    diagonal = [p for p in s2["last"]["path"] if p["kind"] == "off"]
    assert (diagonal[0]["dx"], diagonal[0]["dy"]) == (-1, 1)


def test_osu_push_only_in_its_variant_and_only_on_arrival():
    board = {"d3": tile(0, 4, up="mouse"), "c5": tile(1, 1, up="cat")}
    s2, events = play(make(4, board), "d3-d4")
    assert types(events) == ["moved"] and where(s2)[(1, 1)] == "c5"
    s2, events = play(make(4, {"d4": tile(0, 4, up="mouse"), "c5": tile(1, 1, up="cat")}, osu_push=True), "d4>")
    assert types(events) == ["rotated"]


def test_rotation_contests_option():
    board = {"c3": tile(0, 4, up="lion"), "c4": tile(1, 1, down="cat")}
    s2, events = play(make(2, board), "c3>")
    assert types(events) == ["rotated"]
    # turned clockwise the cat (on the left) goes up: cat vs cat, 4 beats 1
    s2, events = play(make(2, board, rotation_contests=True), "c3>")
    assert types(events) == ["rotated", "contest_number", "retreat"]
    assert where(s2)[(1, 1)] == "c5"


def test_turn_limit_draws_and_seats_without_tiles_are_skipped():
    s = make(4, {"b3": tile(0, 1, up="cat"), "f5": tile(2, 1, up="cat"), "e5": tile(3, 1, up="cat")},
             turn_limit=3)
    s2, events = play(s, "b3>")
    assert events[-1] == {"type": "skipped", "seat": 1} and s2["turn"] == 2
    s2, _ = play(s2, "f5>")
    s2, events = play(s2, "e5>")
    assert events[-1] == {"type": "turn_limit", "limit": 3}
    out = G.outcome(s2)
    assert out.draw and out.reason == "turn_limit" and out.winners == ()


# ---- view --------------------------------------------------------------------------------------------
def test_view_shows_tiles_faces_captures_and_path_but_never_the_rng():
    s = make(4, {"e4": tile(0, 1, right="lion"), "f3": tile(1, 2, left="cat"), "g3": tile(2, 3, up="mouse")})
    s2, _ = play(s, "e4-e3")
    view = G.view(s2, None)
    assert "rng" not in json.dumps(view)
    assert view["columns"] == "abcdefg" and view["passages"] == list(PASSAGES) and view["osu"] == "d4"
    tile_e3 = next(t for t in view["tiles"] if t["square"] == "e3")
    assert tile_e3["faces"] == {"up": "cat", "right": "lion", "down": "monkey", "left": "mouse"}
    assert view["captured"][1] == [{"seat": 2, "number": 3, "counts": True}]
    assert view["scores"] == [0, 1, 0, 0] and view["targets"] == [3, 3, 3, 3]
    assert view["last"]["path"][0] == {"kind": "move", "seat": 0, "tile": 1, "from": "e4", "to": "e3",
                                       "dx": 0, "dy": -1}
    assert view["to_act"] == [1] and view["tiles_left"] == [1, 1, 0, 0]
    assert G.view(s2, 0) == dict(view, viewer=0)
    assert tile_mark(3, 4) == "🟪4"


# ---- chains always end, and the contract ----------------------------------------------------------
VARIANTS = [(2, {}), (4, {}), (2, {"points": True}), (2, {"reversal": True, "rotation_contests": True}),
            (4, {"osu_push": True, "rotation_contests": True})]


def test_chains_always_end_over_thousands_of_random_turns():
    """Random play from many seeds in every variant: every turn returns, tiles are conserved,
    and every game finishes. (The once-per-pair rule bounds a chain: each contest uses up a pair,
    and every move after the first follows a contest.)"""
    turns, longest, seen = 0, 0, Counter()
    for seed in range(60):
        for players, options in VARIANTS:
            state, rng = G.setup(players, options, seed), Rng(seed + 99)
            while G.outcome(state) is None:
                seat = min(G.to_act(state))
                state, events = G.apply(state, seat, choose_action(G, state, seat, rng))
                turns += 1
                longest = max(longest, len(events))
                seen.update(types(events))
                on_board = len(state["board"])
                off = sum(len(c) for c in state["captured"])
                assert on_board + off == 4 * players
                assert set(state["board"]) <= set(board_squares(players))
    assert turns > 10_000
    assert longest < 100
    for kind in ("contest", "contest_number", "contest_draw", "monkey", "retreat", "pushed", "passage",
                 "momentum", "captured", "captured_own", "captured_self_push", "osu_push",
                 "contest_reversed", "won", "won_points"):
        assert seen[kind] > 0, kind


def test_unknown_options_are_refused():
    with pytest.raises(GameError) as err:
        G.setup(2, {"no_such_option": "1"}, 1)
    assert err.value.key == "option_unknown"


# ---- texts ---------------------------------------------------------------------------------------------
def test_every_event_renders_in_both_languages_with_all_its_params():
    """Every event a chain can produce has a catalogue line whose placeholders it fills (seat keys
    as the service fills them, with player names)."""
    from bot import i18n
    from tests.test_i18n import assert_event_renders

    seen = set()
    for seed in range(40):
        for players, options in VARIANTS:
            state, rng = G.setup(players, dict(options, turn_limit=60), seed), Rng(seed)
            while G.outcome(state) is None:
                seat = min(G.to_act(state))
                state, events = G.apply(state, seat, choose_action(G, state, seat, rng))
                for e in events:
                    if e["type"] in seen:
                        continue
                    seen.add(e["type"])
                    assert_event_renders("osu", e)
    assert {"moved", "rotated", "contest", "retreat", "captured", "turn_limit"} <= seen
    for reason in ("osu_captures", "osu_points", "turn_limit"):
        assert i18n.has(f"reason.{reason}")
    for key in ("players", "variant_players", "no_own_tile", "not_adjacent", "off_board", "occupied"):
        assert i18n.has(f"error.osu.{key}")


# ---- words for people -----------------------------------------------------------------------------
def test_every_legal_action_and_menu_is_said_in_words_in_both_languages():
    from tests.test_hostile import random_states, walk_words

    states = list(random_states(G, (2, 4), range(3), steps=120))
    paths = walk_words(G, states, plain_step="(?!)")  # every step has words, squares too
    assert any(p[-1].endswith(">") for p in paths) and any("-" in p[-1] for p in paths)
    assert G.phase_words(states[0]) is None and G.opening_events(states[0]) == []


def test_rotation_buttons_and_moves_say_what_they_do():
    from bot import i18n
    from bot.service.words import termed

    def say(lang, words, family="choice"):
        return i18n.render(lang, i18n.T(f"{family}.osu.{words['type']}",
                                        **termed(G, {k: v for k, v in words.items() if k != "type"})))

    assert say("en", G.choice_words(("b1", "b1>"))) == "Turn the tile on b1 clockwise ↻"
    assert say("ja", G.choice_words(("b1", "b1<"))) == "b1のタイルを反時計回りに回す ↺"
    assert say("en", G.choice_words(G.action_path("b1-b2"))) == "Move b1 → b2 (up ↑)"
    assert say("ja", G.choice_words(G.action_path("c1-d1"))) == "c1 → d1へ移動（右 →）"
    assert say("en", G.menu_words(("b1",)), "menu") == "Move the tile on b1 one square, or turn it…"
    assert say("ja", G.menu_words(()), "menu") == "自分のタイルを選んでください…"


def test_refusals_name_the_square_and_the_tile():
    from bot import i18n

    s = G.setup(2, {}, 1)
    for action, key, text in (
            ("f7-f6", "osu.not_yours", "The tile 🟧1 on f7 is not yours: pick one of your own tiles."),
            ("d4>", "osu.no_own_tile", "There is no tile on d4: pick one of your own tiles."),
            ("b1-c1", "osu.occupied", "A tile can only move to an empty square: 🟦2 stands on c1.")):
        with pytest.raises(IllegalAction) as err:
            G.apply(s, 0, action)
        assert err.value.key == key
        assert i18n.t("en", f"error.{key}", **err.value.params) == text
        assert "{" not in i18n.t("ja", f"error.{key}", **err.value.params)
