"""SQUARESIV scenarios, one or more per rule of RULES.md §4."""

from __future__ import annotations

import pytest

from games import get_game
from games.errors import GameError, IllegalAction, NotationError, NotYourTurn
from games.squaresiv.engine import is_petrified

G = get_game("squares")


def make(board: dict[str, tuple[int, str]], hands=None, turn=0, **options):
    """A position: board {square: (seat, kind)}, hands default to the full set minus the board."""
    state = G.setup(2, options, seed=1)
    state["board"] = {sq: [seat, kind] for sq, (seat, kind) in board.items()}
    if hands is None:
        for seat in (0, 1):
            for sq, (s, kind) in board.items():
                if s == seat:
                    state["hands"][seat].remove(kind)
    else:
        state["hands"] = [list(h) for h in hands]
    state["turn"] = turn
    return state


def play(state, action, seat=None):
    seat = state["turn"] if seat is None else seat
    return G.apply(state, seat, action)


def refused(state, action, key, seat=None):
    before = repr(state)
    with pytest.raises(GameError) as err:
        play(state, action, seat)
    assert err.value.key == key, err.value.key
    assert repr(state) == before
    assert action not in G.legal_actions(state, state["turn"] if seat is None else seat)


# ---- setup, turn order, notation ---------------------------------------------------------------
def test_setup_gives_each_player_the_default_ten_piece_set():
    s = G.setup(2, {}, 5)
    assert s["board"] == {} and s["turn"] == 0
    assert sorted(s["hands"][0]) == sorted(["T2", "T5", "W3", "W4", "P2", "P3", "M1", "M2", "N1", "N4"])
    assert s["hands"][0] == s["hands"][1]


def test_each_player_may_bring_their_own_set():
    s = G.setup(2, {"set_p2": "heavy"}, 5)
    assert "N6" in s["hands"][1] and "N6" not in s["hands"][0]


def test_unknown_set_and_bad_options_are_refused():
    with pytest.raises(GameError) as err:
        G.setup(2, {"set": "nope"}, 1)
    assert err.value.key == "option_bad_choice"
    with pytest.raises(GameError) as err:
        G.setup(2, {"cap": "lots"}, 1)
    assert err.value.key == "option_bad_value"


def test_out_of_turn_and_malformed_actions_are_refused():
    s = G.setup(2, {}, 1)
    with pytest.raises(NotYourTurn):
        G.apply(s, 1, "T2@b4")
    for text in ("T2b2", "b2--b3", "Z9@b2", "b2^^", "f1-f2", ""):
        with pytest.raises(NotationError):
            G.apply(s, 0, text)


def test_notation_is_canonicalised():
    assert G.canonical(" t2@B2 ") == "T2@b2"
    assert G.canonical("D3<>b2") == "b2<>d3"
    assert G.canonical("C2^") == "c2^"


# ---- placing -------------------------------------------------------------------------------------
def test_place_only_in_home_rows():
    s = G.setup(2, {}, 1)
    s2, events = play(s, "T2@b2")
    assert s2["board"]["b2"] == [0, "T2"] and "T2" not in s2["hands"][0]
    assert events == [{"type": "placed", "seat": 0, "kind_term": "T2", "square": "b2"}]
    refused(s, "T2@b3", "squaresiv.not_home")
    s3, _ = play(s2, "T2@b4")  # seat 1's home is rows 4-5
    assert s3["board"]["b4"] == [1, "T2"]
    refused(s2, "T2@b2", "squaresiv.not_home")


def test_place_on_own_piece_and_missing_piece_refused():
    s = make({"b2": (0, "T2")})
    refused(s, "T5@b2", "squaresiv.own_piece_there")
    refused(s, "T2@c2", "squaresiv.not_in_hand")


def test_place_onto_enemy_in_home_battles():
    s = make({"c2": (1, "N1")})
    s2, events = play(s, "W3@c2")
    assert s2["board"]["c2"] == [0, "W3"]
    assert "N1" in s2["hands"][1]
    assert events[-1]["type"] == "battle" and events[-1]["winner"] == 0


# ---- row caps --------------------------------------------------------------------------------------
def test_row_cap_refuses_placement_over_eight():
    s = make({"a1": (0, "T5")})
    refused(s, "W4@b1", "squaresiv.cap")  # 5 + 4 = 9 > 8
    s2, _ = play(s, "W3@b1")  # 5 + 3 = 8 is fine
    assert s2["board"]["b1"] == [0, "W3"]


def test_each_player_has_their_own_cap_per_row():
    s = make({"a3": (1, "T5"), "b3": (1, "W3"), "c3": (0, "N4")}, turn=0)
    s2, _ = play(s, "c3-d3")  # seat 1's 8 points in row 3 do not limit seat 0
    assert s2["board"]["d3"] == [0, "N4"]


def test_cap_is_an_option():
    s = make({"a1": (0, "T5")}, cap=5)
    refused(s, "N1@b1", "squaresiv.cap")
    s = make({"a1": (0, "T5")}, cap=6)
    assert play(s, "N1@b1")[0]["board"]["b1"] == [0, "N1"]


def test_move_into_a_full_row_refused():
    s = make({"a3": (0, "T5"), "b3": (0, "W3"), "c2": (0, "N1")})
    refused(s, "c2-c3", "squaresiv.cap")


def test_caps_are_ignored_during_battle_but_checked_after():
    # Row 3: seat 0 already has 6; its 4 attacks an enemy 5 there and loses, so nothing is over.
    s = make({"a3": (0, "T5"), "b3": (0, "N1"), "c3": (1, "T5"), "c2": (0, "N4")})
    s2, events = play(s, "c2-c3")
    assert events[-1]["type"] == "battle" and events[-1]["winner"] == 1
    assert s2["board"]["c3"] == [1, "T5"] and "N4" in s2["hands"][0]
    # The same attack that wins would leave 10 points in row 3: refused.
    s = make({"a3": (0, "T5"), "b3": (0, "N1"), "c3": (1, "N1"), "c2": (0, "N4")})
    refused(s, "c2-c3", "squaresiv.cap")


# ---- moving ------------------------------------------------------------------------------------
def test_move_one_square_orthogonally_never_onto_own_piece():
    s = make({"b2": (0, "T2"), "b3": (0, "N1")})
    assert play(s, "b2-c2")[0]["board"]["c2"] == [0, "T2"]
    refused(s, "b2-b3", "squaresiv.own_piece_there")
    refused(s, "b2-c3", "squaresiv.not_adjacent")
    refused(s, "c4-c5", "squaresiv.no_own_piece")
    assert "a1-a0" not in G.legal_actions(make({"a1": (0, "T2")}), 0)


# ---- battles ------------------------------------------------------------------------------------
def test_battle_higher_stays_lower_returns():
    s = make({"c3": (0, "W4"), "c4": (1, "N1")})
    s2, events = play(s, "c3-c4")
    assert s2["board"]["c4"] == [0, "W4"] and "c3" not in s2["board"]
    assert "N1" in s2["hands"][1]
    assert events[-1] == {"type": "battle", "square": "c4", "winner": 0, "winner_term": "W4",
                          "loser": 1, "loser_term": "N1"}


def test_battle_attacker_lower_returns_to_hand():
    s = make({"c3": (0, "N1"), "c4": (1, "W4")})
    s2, events = play(s, "c3-c4")
    assert s2["board"]["c4"] == [1, "W4"] and "c3" not in s2["board"]
    assert "N1" in s2["hands"][0]
    assert events[-1]["winner"] == 1


def test_battle_equal_both_return():
    s = make({"c3": (0, "W3"), "c4": (1, "P3")})
    s2, events = play(s, "c3-c4")
    assert "c4" not in s2["board"] and "c3" not in s2["board"]
    assert "W3" in s2["hands"][0] and "P3" in s2["hands"][1]
    assert events[-1]["type"] == "battle_tie"


def test_martial_arts_beats_a_five_attacking_or_defending():
    s = make({"c3": (0, "M1"), "c4": (1, "T5")})
    s2, events = play(s, "c3-c4")
    assert s2["board"]["c4"] == [0, "M1"] and events[-1]["type"] == "battle_martial"
    s = make({"c3": (1, "T5"), "c2": (0, "M1")}, turn=1)
    s2, events = play(s, "c3-c2")
    assert s2["board"]["c2"] == [0, "M1"] and "T5" in s2["hands"][1]
    assert events[-1]["type"] == "battle_martial" and events[-1]["winner"] == 0


def test_martial_arts_has_no_effect_against_other_points():
    s = make({"c3": (0, "M2"), "c4": (1, "W4")})
    s2, events = play(s, "c3-c4")
    assert s2["board"]["c4"] == [1, "W4"] and events[-1]["type"] == "battle"


# ---- petrify ------------------------------------------------------------------------------------
def test_petrify_silences_the_enemy_piece_directly_above():
    s = make({"c2": (0, "P2"), "c3": (1, "M1")})
    assert is_petrified(s["board"], "c3")
    s = make({"c4": (1, "P2"), "c3": (0, "M1")})  # seat 1's "above" is downward
    assert is_petrified(s["board"], "c3")
    s = make({"c2": (0, "P2"), "c3": (0, "M1")})  # own pieces are not petrified
    assert not is_petrified(s["board"], "c3")
    s = make({"c2": (0, "P2"), "d3": (1, "M1")})  # only directly above
    assert not is_petrified(s["board"], "d3")


def test_petrified_martial_arts_loses_to_a_five():
    # Seat 1's M1 on c3 sits directly above seat 0's P2 on c2; seat 0's T5 attacks it from d3.
    s = make({"c2": (0, "P2"), "c3": (1, "M1"), "d3": (0, "T5")})
    s2, events = play(s, "d3-c3")
    assert s2["board"]["c3"] == [0, "T5"] and events[-1]["type"] == "battle"
    # Without the petrify piece, martial arts wins.
    s = make({"c3": (1, "M1"), "d3": (0, "T5")})
    s2, events = play(s, "d3-c3")
    assert s2["board"]["c3"] == [1, "M1"] and events[-1]["type"] == "battle_martial"


def test_petrified_tide_and_transfer_cannot_be_used():
    s = make({"b3": (0, "W3"), "b4": (1, "P2"), "b5": (1, "N1")})
    assert is_petrified(s["board"], "b3")  # seat 1's P2 on b4 looks "up" to b3
    refused(s, "b3^", "squaresiv.no_tide")
    s = make({"b3": (0, "T2"), "d1": (0, "T5"), "b4": (1, "P2")})
    refused(s, "b3<>d1", "squaresiv.no_transfer")


def test_petrify_below_does_not_reach_behind():
    s = make({"c2": (0, "W3"), "c3": (0, "N1"), "c1": (1, "P2")})
    assert not is_petrified(s["board"], "c2")  # seat 1's P2 on c1 looks at row 0: nothing
    assert play(s, "c2^")[0]["board"]["c3"] == [0, "W3"]


# ---- transfer -------------------------------------------------------------------------------------
def test_transfer_swaps_two_own_transfer_pieces():
    s = make({"b1": (0, "T2"), "d4": (0, "T5")})
    s2, events = play(s, "b1<>d4")
    assert s2["board"]["b1"] == [0, "T5"] and s2["board"]["d4"] == [0, "T2"]
    assert events == [{"type": "transferred", "seat": 0, "a": "b1", "b": "d4"}]


def test_transfer_needs_two_transfer_pieces_and_respects_caps():
    s = make({"b1": (0, "T2"), "d4": (0, "N4")})
    refused(s, "b1<>d4", "squaresiv.no_transfer")
    # Swapping T5 into row 3 where seat 0 already has 4 + 1 points makes 10: refused.
    s = make({"b1": (0, "T5"), "c3": (0, "T2"), "a3": (0, "N4"), "e3": (0, "N1")})
    refused(s, "b1<>c3", "squaresiv.cap")


# ---- tide ---------------------------------------------------------------------------------------------
def test_tide_pushes_the_piece_above_and_follows():
    s = make({"c2": (0, "W3"), "c3": (0, "N1")})
    s2, events = play(s, "c2^")
    assert s2["board"] == {"c3": [0, "W3"], "c4": [0, "N1"]}
    assert events[0]["type"] == "tide" and events[0]["from"] == "c3" and events[0]["dest"] == "c4"


def test_tide_pushes_an_enemy_into_own_piece_and_they_battle():
    s = make({"c2": (0, "W4"), "c3": (1, "N1"), "c4": (0, "P3")})
    s2, events = play(s, "c2^")
    assert s2["board"]["c4"] == [0, "P3"] and "N1" in s2["hands"][1]
    assert s2["board"]["c3"] == [0, "W4"]
    assert [e["type"] for e in events] == ["tide", "battle"]


def test_tide_refusals():
    refused(make({"c2": (0, "W3")}), "c2^", "squaresiv.tide_nothing_above")
    refused(make({"c4": (0, "W3"), "c5": (1, "N1")}), "c4^", "squaresiv.off_board")
    refused(make({"c2": (0, "W3"), "c3": (0, "N1"), "c4": (0, "N4")}), "c2^", "squaresiv.tide_blocked")
    refused(make({"c2": (0, "W3"), "c3": (1, "N1"), "c4": (1, "N4")}), "c2^", "squaresiv.tide_blocked")
    refused(make({"c2": (0, "N4"), "c3": (1, "N1")}), "c2^", "squaresiv.no_tide")


def test_tide_for_seat_two_goes_down():
    s = make({"c4": (1, "W3"), "c3": (0, "N1")}, turn=1)
    s2, _ = play(s, "c4^")
    assert s2["board"] == {"c3": [1, "W3"], "c2": [0, "N1"]}


# ---- winning, passing, the turn limit ----------------------------------------------------------
def test_three_centre_squares_win():
    s = make({"a3": (0, "N1"), "b3": (0, "M1"), "c2": (0, "P2")})
    s2, events = play(s, "c2-c3")
    assert G.outcome(s2).winners == (0,) and G.outcome(s2).reason == "centre"
    assert events[-1] == {"type": "won_centre", "seat": 0}
    assert G.to_act(s2) == set() and G.legal_actions(s2, 1) == []
    with pytest.raises(GameError):
        G.apply(s2, 1, "T2@b4")


def test_a_push_can_hand_the_opponent_the_win():
    s = make({"a3": (1, "N1"), "b3": (1, "M1"), "c1": (0, "W3"), "c2": (1, "N4")})
    s2, _ = play(s, "c1^")
    assert s2["board"]["c3"] == [1, "N4"]
    assert G.outcome(s2).winners == (1,)


def test_pass_only_without_legal_action():
    s = G.setup(2, {}, 1)
    refused(s, "pass", "squaresiv.pass_not_allowed")
    stuck = make({}, hands=[[], ["N1"]])
    assert G.legal_actions(stuck, 0) == ["pass"]
    s2, events = play(stuck, "pass")
    assert events == [{"type": "passed", "seat": 0}] and s2["turn"] == 1


def test_turn_limit_ends_in_a_draw():
    s = G.setup(2, {"turn_limit": 2}, 1)
    s, _ = play(s, "T2@a1")
    s, events = play(s, "T2@a5")
    assert G.outcome(s).draw and events[-1]["type"] == "turn_limit"


def test_illegal_actions_leave_state_unchanged():
    s = make({"a3": (0, "T5"), "b2": (0, "N4")})
    for action in ("b2-b3", "N4@a1", "a3<>b2", "pass"):
        with pytest.raises(IllegalAction):
            play(s, action)


# ---- words for people -----------------------------------------------------------------------------
def test_every_legal_action_and_menu_is_said_in_words_in_both_languages():
    from tests.test_hostile import leaked, random_states, walk_words

    states = list(random_states(G, (2,), range(4), steps=150))
    paths = walk_words(G, states, plain_step="(?!)")  # every step has words
    assert {type(G.parse(p[-1])).__name__ for p in paths if len(p) == 2 and p[-1] != "pass"} >= {"Place", "Move"}
    assert G.phase_words(states[0]) is None and G.opening_events(states[0]) == []
    assert "T2" in G.identifiers() and not leaked(G, "Place Transfer 2 on b2 (`T2@b2`)")
    assert leaked(G, "placed T2 on b2") == ["T2"]


def test_pieces_are_said_by_ability_and_points_in_events_and_buttons():
    from bot import i18n
    from bot.service.words import termed
    from tests.test_contract import playout
    from tests.test_hostile import said

    def say(lang, words, family="choice"):
        return i18n.render(lang, i18n.T(f"{family}.squares.{words['type']}",
                                        **termed(G, {k: v for k, v in words.items() if k != "type"})))

    assert say("en", G.choice_words(G.action_path("T2@b2"))) == "Place Transfer 2 on b2"
    assert say("ja", G.choice_words(G.action_path("M1@b2"))) == "格闘（1点）をb2に配置"
    assert say("en", G.choice_words(("c2", "c2^"))) == "Tide: push the piece above c2 up and follow it"
    assert say("ja", G.menu_words(("W3",)), "menu") == "潮流（3点）を置く自陣のマスを選んでください…"
    for seed in range(4):
        for _, _, _, _, events in playout(G, seed):
            for event in events:
                for lang in ("en", "ja"):
                    said(G, "event", event, lang)


def test_refusals_name_the_row_the_square_or_the_piece():
    from bot import i18n
    from bot.service.words import termed

    def refusal(state, action):
        with pytest.raises(IllegalAction) as err:
            G.apply(state, state["turn"], action)
        e = err.value
        texts = [i18n.render(lang, i18n.T(f"error.{e.key}", **termed(G, e.params))) for lang in ("en", "ja")]
        assert all("{" not in t for t in texts)
        return e.key, texts[0]

    s = make({"a1": (0, "T5")})
    assert refusal(s, "W4@b1") == ("squaresiv.cap", "That would put 9 points of one player in row 1, over the row cap of 8.")
    assert refusal(s, "T2@b3") == ("squaresiv.not_home", "Pieces can only be placed in your home (rows 1-2); b3 is not in it.")
    assert refusal(s, "T2@a1") == ("squaresiv.own_piece_there", "One of your own pieces is already on a1.")
    assert refusal(s, "a1-b2") == ("squaresiv.not_adjacent",
                                   "A piece moves one square up, down, left or right: a1 to b2 is not one step.")
    assert refusal(s, "c1-c2") == ("squaresiv.no_own_piece", "You have no piece on c1.")


def test_a_piece_that_loses_or_wins_back_its_ability_is_said_in_words():
    """The image shows a petrified piece; the message says it too (issue 12)."""
    from games.ai import choose_action
    from games.rng import Rng
    from games.squaresiv.engine import is_petrified

    game = get_game("squares")
    seen = {"petrified": 0, "unpetrified": 0}
    for seed in range(60):
        state, rng = game.setup(2, {}, seed), Rng(seed)
        while game.outcome(state) is None and sum(seen.values()) < 40:
            seat = min(game.to_act(state))
            state, events = game.apply(state, seat, choose_action(game, state, seat, rng))
            for e in events:
                if e["type"] == "petrified":
                    assert is_petrified(state["board"], e["square"]) and state["board"][e["square"]][0] == e["seat"]
                    seen["petrified"] += 1
                elif e["type"] == "unpetrified":
                    assert not is_petrified(state["board"], e["square"])
                    seen["unpetrified"] += 1
    assert seen["petrified"] > 0 and seen["unpetrified"] > 0, seen
