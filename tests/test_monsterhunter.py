"""Monster Hunter scenario tests: MONSTER_HUNTER.md part 7 (S1-S47), plus the notation, refusals,
policies, panel notes and catalogue lines."""

from __future__ import annotations

import json

import pytest

from games.base import events_for
from games.errors import GameError, IllegalAction, NotationError
from games.monsterhunter import hunt, model, result
from games.monsterhunter.board import build_map, reachable
from games.monsterhunter.cards import deck_code, deck_problems, ready_deck
from games.monsterhunter.engine import MonsterHunter
from games.rng import Rng

GAME = G = MonsterHunter()

# ---- the scenario helper (part 7): write a valid state directly, then open a step with the engine's
# own functions ----------------------------------------------------------------------------------------
FILLER = "A01"  # decks hold 20 filler cards below the named ones
TWO = [("2A", False), ("2C", False)]
THREE = [("4A", False), ("4B", False), ("4C", False)]
FOUR = [("4A", False), ("4B", False), ("4C", False), ("4B", True)]


def build(players: int = 2, layout=None, parent: int = 0, turn: int = 2, seats=(), monsters=(), options=None,
          seed: int = 1) -> dict:
    """``seats``: per seat a dict of overrides (hunter, pos, weapon, armour, hand, deck (top first; 20
    fillers are added below unless ``filler`` is 0), discard, material, hr, retreats, policy).
    ``monsters``: tuples (id, card, seat, area, up[, damage[, flipped]])."""
    state = GAME.setup(players, dict(options or {}), seed)
    layout = layout or {2: TWO, 3: THREE, 4: FOUR}[players]
    state["map"] = build_map("two" if players == 2 else "ring", layout)
    state["turn"], state["parent"], state["phase"] = turn, parent, "setup"
    for i in range(players):
        spec = dict(seats[i]) if i < len(seats) else {}
        s = state["seats"][i]
        s["loadout"] = None
        filler = spec.pop("filler", 20)
        s.update(hunter="H01", pos=model.camp(i))
        policy = spec.pop("policy", {})
        s.update(spec)
        s["deck"] = list(spec.get("deck", [])) + [FILLER] * filler
        s["hand"] = sorted(s["hand"])
        s["material"] = sorted(s["material"])
        s["policy"].update(policy)
    for entry in monsters:
        mid, cid, seat, area, up, *rest = entry
        damage = rest[0] if rest else 0
        flipped = rest[1] if len(rest) > 1 else ([turn - 1, 0, mid] if up else None)
        state["monsters"].append({"id": mid, "card": cid, "seat": seat, "area": area, "up": up, "damage": damage,
                                  "flipped": flipped})
    state["next_monster"] = max([m["id"] for m in state["monsters"]], default=0) + 1
    return state


def open_prep(state: dict) -> list:
    events: list = []
    GAME._open_prep(state, events)
    GAME._advance(state, events)
    return events


def open_move(state: dict) -> list:
    events: list = []
    GAME._open_move(state, events)
    GAME._advance(state, events)
    return events


def open_hunt(state: dict) -> list:
    events: list = []
    hunt.start(state, events)
    GAME._advance(state, events)
    return events


def play(state: dict, seat: int, action: str) -> tuple[dict, list]:
    return GAME.apply(state, seat, action)


def types(events: list) -> list[str]:
    return [e["type"] for e in events]


def mon(state: dict, mid: int) -> dict | None:
    return model.monster(state, mid)


def legal(state, seat):
    return [a for a in G.legal_actions(state, seat) if a != "go" and not a.startswith("auto ")]


def refused(state, seat, action):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(GameError) as err:
        G.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before
    return err.value.key


def area_view(state, area):
    return next(a for a in G.view(state, None)["hunt"]["areas"] if a["area"] == area)


# ---- S1-S2: decks, loadout -----------------------------------------------------------------------------
def test_s1_deck_rules_and_a_refused_custom_deck():
    h01 = ready_deck("H01")
    assert all(deck_problems(ready_deck(h)) == [] for h in ("H01", "H02", "H03", "H04"))
    assert deck_problems(h01 + ["M01"]) == ["mh.deck.size"]
    five = sorted(h01[:-3] + ["M01"] * 3)
    assert five.count("M01") == 5 and deck_problems(five) == ["mh.deck.copies"]
    assert deck_problems(h01[:-1] + ["H02"]) == ["mh.deck.hunter"]
    assert deck_problems(h01[:-1] + ["X99"]) == ["mh.deck.unknown"]
    state = G.setup(2, {}, 7)
    assert refused(state, 0, f"take H01 2A {deck_code(five)}") == "mh.deck.copies"
    state, _ = G.apply(state, 0, f"take H01 2A {deck_code(h01)}")  # a legal custom deck is accepted
    assert G.to_act(state) == {1}


def test_s2_loadout_and_first_turn():
    state = G.setup(2, {}, 7)
    assert G.to_act(state) == {0, 1}
    takes = legal(state, 0)
    assert len(takes) == 12 and all(a.startswith("take H0") for a in takes) and not any("~" in a for a in takes)
    state, events = play(state, 0, "take H03 2A")
    public = G.view(state, None)
    assert public["loadout_in"] == [True, False] and public["seats"][0]["hunter"] is None
    assert all("H03" not in json.dumps(e) for e in events_for(events, None))
    state, _ = play(state, 1, "take H01 2C")
    assert state["map"]["joins"] == [["a1", "b2"], ["a2", "b1"]]
    assert [len(s["hand"]) for s in state["seats"]] == [6, 6]
    assert [len(s["deck"]) for s in state["seats"]] == [34, 34]
    assert [s["pos"] for s in state["seats"]] == ["a0", "b0"]
    assert state["turn"] == 1 and state["phase"] == "prep"
    assert [G.view(state, s)["me"]["decision"]["kind"] for s in (0, 1)] == ["deploy", "deploy"]
    assert not any("mulligan" in a for s in (0, 1) for a in G.legal_actions(state, s))


# ---- S3-S6: the hand and deploying ---------------------------------------------------------------------
def test_s3_hand_above_six_must_be_cut_down():
    hand = ["A02", "I02", "I03", "I11", "M01", "M05", "W03", "W04"]
    state = build(seats=[{"hand": hand}])
    open_prep(state)
    assert G.view(state, 0)["me"]["decision"]["kind"] == "discard"
    assert refused(state, 0, "discard -") == "mh.hand_over_6"
    assert refused(state, 0, "discard I11") == "mh.hand_over_6"
    deck = len(state["seats"][0]["deck"])
    state, _ = play(state, 0, "discard I11 W04")
    assert len(state["seats"][0]["hand"]) == 6 and len(state["seats"][0]["deck"]) == deck
    assert state["seats"][0]["prep"]["stage"] == "deploy"


def test_s4_deploying_is_secret_until_everyone_is_done():
    state = build(seats=[{"hand": ["M01", "M05"]}], monsters=[(1, "M03", 0, "a3", False)])
    open_prep(state)
    state, _ = play(state, 0, "discard -")
    assert legal(state, 0) == sorted([f"deploy {m} {a}" for m in ("M01", "M05") for a in ("a1", "a2", "a4")] + [
        "deploy -"])
    state, events = play(state, 0, "deploy M05 a1")
    assert state["seats"][0]["prep"]["stage"] == "done" and 0 not in G.to_act(state)
    for viewer in (None, 1):
        assert [m["id"] for m in G.view(state, viewer)["monsters"]] == [1]
    assert "M05" not in json.dumps(events_for(events, None))
    # Seat 1 holds no monster, and is asked all the same (its one deploy being "deploy -").
    assert legal(state, 1) == ["deploy -"]
    state, events = play(state, 1, "deploy -")
    new = [m for m in G.view(state, None)["monsters"] if m["id"] != 1]
    assert len(new) == 1 and new[0]["area"] == "a1" and not new[0]["up"] and "card" not in new[0]
    assert "M05" not in json.dumps(events_for(events, None)) and "M05" in json.dumps(events_for(events, 0))


def test_s4_the_board_counts_the_draw_nobody_chose_and_nothing_chosen():
    """An empty hand draws to 6 as P opens, in the open: the board's counts are the seat's own until
    it chooses; what it chooses (a discard, a deploy) shows at the reveal."""
    state = build(seats=[{}, {"hand": ["M01", "W03"]}])
    open_prep(state)
    board = G.view(state, None)["seats"]
    for seat in (0, 1):
        me = G.view(state, seat)["me"]
        assert (board[seat]["hand_count"], board[seat]["deck_count"]) == (len(me["hand"]), me["deck_count"])
    assert (board[0]["hand_count"], board[0]["deck_count"]) == (6, 14)
    state, _ = play(state, 1, "discard W03")
    assert G.view(state, None)["seats"][1]["hand_count"] == 2 and len(G.view(state, 1)["me"]["hand"]) == 6
    state, _ = play(state, 1, "deploy -")
    state, _ = play(state, 0, "deploy -")
    assert [s["hand_count"] for s in G.view(state, None)["seats"]] == [6, 6]


def test_s5_replacing_on_a_full_sheet():
    state = build(seats=[{"hand": ["M03"], "hr": 4}, {"hr": 2}],
                  monsters=[(1, "M01", 0, "a1", True), (2, "M09", 0, "a2", True), (3, "M03", 0, "a3", False),
                            (4, "M05", 0, "a4", True)])
    open_prep(state)
    state, _ = play(state, 0, "discard -")
    assert legal(state, 0) == ["deploy -", "deploy M03 a1 x m1", "deploy M03 a4 x m4"]
    state, _ = play(state, 0, "deploy M03 a4 x m4")
    state, _ = play(state, 1, "deploy -")
    assert state["seats"][0]["discard"][-1] == "M05" and state["seats"][0]["material"] == []
    assert [s["hr"] for s in state["seats"]] == [4, 2]
    assert mon(state, 4) is None and [m["up"] for m in state["monsters"] if m["area"] == "a4"] == [False]


def test_s6_a_full_area_is_not_a_full_sheet():
    state = build(3, seats=[{"hand": ["M03"]}],
                  monsters=[(1, "M01", 0, "a1", True), (2, "M02", 0, "a1", False), (3, "M04", 0, "a1", False),
                            (4, "M05", 0, "a2", False)])
    open_prep(state)
    state, _ = play(state, 0, "discard -")
    assert legal(state, 0) == ["deploy -", "deploy M03 a2"]


# ---- S7-S11: moving, who hunts, in what order ----------------------------------------------------------
def test_s7_moving():
    state = build(seats=[{"hunter": "H03"}, {"hunter": "H01"}])
    open_move(state)
    assert legal(state, 0) == ["move a3", "move a4"]
    assert legal(state, 1) == ["move b1", "move b3", "move b4"]
    assert G.why_illegal(state, 1, "move b2") == "mh.out_of_range"
    state = build(seats=[{"hunter": "H03", "weapon": "W09", "pos": "a3"}])
    open_move(state)
    assert legal(state, 0) == ["move a1", "move a2", "move a4", "move b1", "move b2", "stay"]
    three = build(3, seats=[{}, {"hunter": "H03", "pos": "b1"}])
    open_move(three)
    assert legal(three, 1) == ["move a1", "move b2", "move c1", "stay"]


def test_s8_a_hunter_on_its_own_sheet_is_ignored():
    hand = ["A02", "A02", "A02", "A02", "A02", "A02"]
    state = build(seats=[{"pos": "a2", "hand": hand}, {"pos": "b3"}], monsters=[(1, "M05", 0, "a2", True)])
    deck = len(state["seats"][0]["deck"])
    events = open_hunt(state)
    assert not [e for e in events if e["type"] == "hunt_order"] and {"type": "no_hunt"} in events
    assert len(state["seats"][0]["deck"]) == deck and state["phase"] == "prep" and state["turn"] == 3


def test_s9_area_order_and_its_tie():
    seats = [{"hunter": "H03", "pos": "b2"}, {}, {"weapon": "W09", "pos": "a1"}]
    mons = [(5, "M01", 1, "b2", False), (6, "M01", 0, "a1", False)]
    state = build(3, parent=1, seats=seats, monsters=mons)
    events = open_hunt(state)
    assert next(e for e in events if e["type"] == "hunt_order")["areas"] == ["b2", "a1"]
    seats[2]["weapon"] = "W07"
    state = build(3, parent=1, seats=seats, monsters=mons)
    events = open_hunt(state)
    assert next(e for e in events if e["type"] == "hunt_order")["areas"] == ["a1", "b2"]


def test_s10_order_inside_an_area():
    state = build(3, parent=2, seats=[{"hunter": "H03", "pos": "b2"}, {}, {"weapon": "W09", "pos": "b2"}],
                  monsters=[(5, "M07", 1, "b2", True), (6, "M09", 1, "b2", True)])
    events = open_hunt(state)
    # The event names each actor for the players: a hunter by its seat, a face-up monster by its card.
    assert next(e for e in events if e["type"] == "area_start")["order"] == [
        {"type": "monster", "id": 5, "monster_card": "M07"}, {"type": "hunter", "seat": 2},
        {"type": "hunter", "seat": 0}, {"type": "monster", "id": 6, "monster_card": "M09"}]
    assert area_view(state, "b2")["order"] == ["m5", "s2", "s0", "m6"]


def test_s11_declining_only_when_every_monster_is_face_down():
    state = build(3, seats=[{"hunter": "H03", "pos": "b2"}], monsters=[(1, "M01", 1, "b2", False)])
    open_hunt(state)
    assert "skip" in legal(state, 0)
    state = build(3, seats=[{"hunter": "H03", "pos": "b2"}],
                  monsters=[(1, "M01", 1, "b2", False), (2, "M01", 1, "b2", True)])
    open_hunt(state)
    assert "skip" not in legal(state, 0) and G.why_illegal(state, 0, "skip") == "mh.must_attack"


# ---- S12-S17: attacks ------------------------------------------------------------------------------
def s12_state():
    return build(3, parent=0, seats=[{"hunter": "H03", "pos": "b2", "hand": ["A01", "A02", "M01"]}, {},
                                     {"hunter": "H01", "pos": "b2", "hand": ["A01"]}],
                 monsters=[(5, "M08", 1, "b2", False)])


def test_s12_flip_without_interrupt_and_the_revealed_monster_acts_later():
    state = s12_state()
    open_hunt(state)
    assert G.to_act(state) == {0}
    state, events = play(state, 0, "flip m5 -")
    assert "interrupt" not in types(events)
    assert mon(state, 5)["damage"] == 2
    assert G.to_act(state) == {0, 2}  # m5 attacks both for 4; both hands are not empty
    assert next(e for e in events if e["type"] == "monster_attack")["attack"] == 4
    decks = [len(s["deck"]) for s in state["seats"]]
    state, _ = play(state, 0, "def -")
    state, _ = play(state, 2, "def -")
    assert [len(s["deck"]) for s in state["seats"]] == [decks[0] - 4, decks[1], decks[2] - 4]
    assert G.to_act(state) == {2} and G.view(state, 2)["me"]["decision"]["kind"] == "attack"
    state, _ = play(state, 2, "hit m5")
    assert state["phase"] == "prep" and mon(state, 5)["damage"] == 0  # healed at the result
    state = s12_state()
    open_hunt(state)
    state, _ = play(state, 0, "flip m5")
    assert G.view(state, 0)["me"]["decision"] == {"kind": "cards", "area": "b2", "target": 5}


def s13_state(deck1=20):
    return build(3, parent=0, seats=[{"weapon": "W03", "armour": "A01", "pos": "c1", "hand": ["I05"]},
                                     {"hunter": "H04", "pos": "c1", "hand": ["I05"], "filler": deck1}],
                 monsters=[(7, "M14", 2, "c1", False), (8, "M01", 2, "c1", False)])


def test_s13_interrupt():
    state = s13_state()
    open_hunt(state)
    assert G.to_act(state) == {1}
    state, events = play(state, 1, "flip m7")
    assert "interrupt" in types(events) and G.to_act(state) == {0, 1}
    state, _ = play(state, 0, "def -")
    state, _ = play(state, 1, "def -")
    assert [len(s["deck"]) for s in state["seats"]] == [15, 14, 20]
    assert G.to_act(state) == {1}
    actions = legal(state, 1)
    assert any(a.startswith("hit m7") for a in actions) and "flip m8" in actions and "skip" not in actions
    state, events = play(state, 1, "hit m7")
    assert "monster_attack" not in types(events)  # m7 acted already this turn
    assert G.to_act(state) == {0}


def test_s14_weapon_cards_of_the_same_icon():
    state = build(seats=[{"weapon": "W02", "pos": "b1", "hand": ["I03", "W02", "W04", "W11"]}],
                  monsters=[(3, "M10", 1, "b1", True)])
    open_hunt(state)
    actions = legal(state, 0)
    assert "hit m3 I03 W02 W11" in actions and not any("W04" in a for a in actions)
    state, events = play(state, 0, "hit m3 I03 W02 W11")
    assert next(e for e in events if e["type"] == "hit")["attack"] == 7 and mon(state, 3)["damage"] == 7
    assert G.view(state, None)["seats"][0]["bonus"]["attack"] == 3
    state = build(seats=[{"hunter": "H03", "pos": "b1", "hand": ["W04", "W05"]}], monsters=[(3, "M10", 1, "b1", True)])
    open_hunt(state)
    assert "hit m3 W04 W05" in legal(state, 0)


def test_s15_a_kill():
    state = build(seats=[{"pos": "b1"}], monsters=[(3, "M10", 1, "b1", True, 6)])
    events = open_hunt(state)
    kill = next(e for e in events if e["type"] == "killed")
    assert (kill["seat"], kill["id"], kill["monster_card"], kill["rank"]) == (0, 3, "M10", 3)
    assert state["seats"][0]["hr"] >= 3 and "M10" in state["seats"][1]["material"] and mon(state, 3) is None


@pytest.mark.parametrize("second, survives", [("hit m3 W03 W03", False), ("hit m3 W03", True)])
def test_s16_damage_adds_up_and_the_last_hit_scores(second, survives):
    state = build(3, seats=[{"hunter": "H03", "pos": "b2", "hand": ["I07"]}, {},
                            {"pos": "b2", "hand": ["W03", "W03"]}], monsters=[(3, "M10", 1, "b2", True)])
    open_hunt(state)
    state, _ = play(state, 0, "hit m3 I07")
    state, _ = play(state, 2, "def -")
    state, events = play(state, 2, second)
    if survives:
        assert mon(state, 3)["damage"] == 0 and [s["hr"] for s in state["seats"]] == [0, 0, 0]
        assert next(e for e in events if e["type"] == "hit")["left"] == 1
    else:
        assert mon(state, 3) is None and [s["hr"] for s in state["seats"]] == [0, 0, 3]


def test_s17_spent_armour_lasts_the_turn():
    state = build(3, seats=[{"pos": "b2", "armour": "A01", "hand": ["A02", "A03"]}],
                  monsters=[(3, "M05", 1, "b2", True), (4, "M11", 1, "b2", True)])
    open_hunt(state)
    state, events = play(state, 0, "def A02")
    assert next(e for e in events if e["type"] == "defended")["defence"] == 2 and len(state["seats"][0]["deck"]) == 18
    state, events = play(state, 0, "def -")
    assert next(e for e in events if e["type"] == "defended")["damage"] == 3 and len(state["seats"][0]["deck"]) == 15


# ---- S18-S20: running out -----------------------------------------------------------------------------
def short_deck(options=None):
    return build(seats=[{"pos": "b1", "deck": ["W01", "W02"], "filler": 0, "discard": ["I01"] * 20}],
                 monsters=[(1, "M09", 1, "b1", True)], options=options)


def test_s18_a_short_deck_retreats_and_the_rest_of_the_damage_is_lost():
    state = short_deck()
    events = open_hunt(state)
    s = state["seats"][0]
    milled = [e for e in events if e["type"] == "milled"]
    assert [e["milled_cards"] for e in milled] == [["W01", "W02"]] and "retreated" in types(events)
    # (the next turn's hand phase has drawn 6 of the new deck since)
    assert s["retreats"] == 1 and sorted(s["deck"] + s["hand"]) == sorted(["I01"] * 20 + ["W01", "W02"])
    assert s["discard"] == [] and s["pos"] == "a0"
    assert not any(e["type"] == "hit" for e in events)  # never asked, never hits after retreating


def test_s19_overflow_carried():
    state = short_deck({"overflow": "carry"})
    open_hunt(state)
    s = state["seats"][0]
    assert s["retreats"] == 1 and len(s["deck"]) + len(s["hand"]) == 19 and len(s["discard"]) == 3


def test_s20_library_out_by_drawing():
    state = build(seats=[{"pos": "a3", "hand": ["A02", "A03"], "deck": ["W01", "W02", "W03"], "filler": 0,
                          "discard": ["I02"] * 10}])
    open_prep(state)
    state, events = play(state, 0, "discard -")
    s = state["seats"][0]
    assert s["retreats"] == 1 and len(s["hand"]) == 6 and len(s["deck"]) == 9 and s["pos"] == "a0"
    assert "retreated" not in types(events_for(events, None))
    state, more = play(state, 0, "deploy -")
    events += more
    assert G.view(state, None)["seats"][0]["pos"] == "a3" and G.view(state, 1)["seats"][0]["retreats"] == 0
    assert G.view(state, 0)["seats"][0]["pos"] == "a0"
    state, events = play(state, 1, "deploy -")
    assert G.view(state, None)["seats"][0]["pos"] == "a0"
    assert {"type": "retreated", "seat": 0, "count": 1} in events_for(events, None)


# ---- S21-S22: equipping -------------------------------------------------------------------------------
def test_s21_minimal_payments_and_trade_in_by_type():
    state = build(seats=[{"weapon": "W02", "material": ["M02", "M09", "M13"], "hand": ["W05", "W11"]}])
    open_prep(state)
    equips = [a for a in legal(state, 0) if a.startswith("equip")]
    assert equips == ["equip W05 M09", "equip W05 M13", "equip W11 M02 M09", "equip W11 M13"]
    assert G.why_illegal(state, 0, "equip W11 M02") == "mh.cannot_afford"
    assert G.why_illegal(state, 0, "equip W11 M09 M13") == "mh.not_minimal"
    state, _ = play(state, 0, "equip W11 M02 M09")
    s = state["seats"][0]
    assert s["weapon"] == "W11" and sorted(s["discard"]) == ["M02", "M09", "W02"] and s["material"] == ["M13"]
    assert not any(a.startswith("equip") for a in legal(state, 0))


def test_s22_armour_trade_in():
    state = build(seats=[{"armour": "A02", "material": ["M01", "M04"], "hand": ["A03"]}])
    open_prep(state)
    assert [a for a in legal(state, 0) if a.startswith("equip")] == ["equip A03 M04"]
    state, _ = play(state, 0, "equip A03 M04")
    assert state["seats"][0]["armour"] == "A03" and "A02" in state["seats"][0]["discard"]


def test_equip_discards_go_under_the_last_result_phase_discards():
    """G63: the equip belongs before the result phase, so its cards lie under that phase's discards."""
    state = build(seats=[{"armour": "A02", "material": ["M04"], "hand": ["A03"], "discard": ["I01", "M15"],
                          "result_discards": 1}])
    open_prep(state)
    state, _ = play(state, 0, "equip A03 M04")
    assert state["seats"][0]["discard"] == ["I01", "A02", "M04", "M15"]


# ---- S23-S27: the result phase -------------------------------------------------------------------------
@pytest.mark.parametrize("mode, hr", [("rank", [10, 9, 11, 13]), ("one", [10, 5, 7, 9])])
def test_s23_one_copy_in_all_areas(mode, hr):
    state = build(4, turn=5, seats=[{"hr": 10}, {"hr": 4}, {"hr": 6}, {"hr": 8}], options={"unique_hr": mode},
                  monsters=[(2, "M15", 0, "a1", True, 0, [3, 0, 2]), (9, "M15", 2, "c1", True, 0, [5, 1, 1])])
    open_hunt(state)
    assert [s["hr"] for s in state["seats"]] == hr
    assert mon(state, 2) is None and mon(state, 9) is not None and state["seats"][0]["discard"][-1] == "M15"


def test_s24_main_target_two_players_per_sheet():
    mons = [(3, "M09", 1, "b1", True), (6, "M12", 1, "b4", True)]
    state = build(monsters=mons)
    open_hunt(state)
    assert state["phase"] == "keep" and G.to_act(state) == {1}
    assert legal(state, 1) == ["keep m3", "keep m6"]
    state, _ = play(state, 1, "keep m3")
    assert mon(state, 6) is None and state["seats"][1]["discard"][-1] == "M12" and state["seats"][0]["hr"] == 3
    state = build(seats=[{}, {"policy": {"keep": "auto"}}], monsters=mons)
    open_hunt(state)
    assert state["phase"] == "prep" and mon(state, 3) is None and mon(state, 6) is not None


def test_s25_main_target_three_players_per_area():
    state = build(3, monsters=[(1, "M09", 1, "b2", True), (2, "M10", 1, "b2", True), (3, "M12", 1, "b1", True)])
    open_hunt(state)
    assert [g["scope"] for g in state["keep"]["groups"]] == ["b2"] and legal(state, 1) == ["keep m1", "keep m2"]


def test_s26_face_down_points_and_the_empty_sheet_point():
    state = build(seats=[{"hr": 5}, {"hr": 7}],
                  monsters=[(1, "M01", 0, "a1", False), (2, "M02", 0, "a2", False), (3, "M03", 0, "a3", True)])
    open_hunt(state)
    assert [s["hr"] for s in state["seats"]] == [8, 7]


@pytest.mark.parametrize("hr, parent, expected", [([5, 3, 3], 0, 1), ([3, 5, 3], 2, 2), ([4, 4, 2], 1, 2)])
def test_s27_next_parent(hr, parent, expected):
    state = build(3, parent=parent, seats=[{"hr": h} for h in hr])
    assert result.next_parent(state) == expected


# ---- S28-S31: retirement and winning ----------------------------------------------------------------------
def test_s28_retirement_two_players():
    state = build(seats=[{"pos": "b1"}, {"pos": "a1", "retreats": 2, "deck": ["W01", "W02"], "filler": 0,
                                          "discard": ["I01"] * 5}],
                  monsters=[(1, "M09", 0, "a1", True), (2, "M05", 1, "b1", True)])
    events = open_hunt(state)
    assert state["seats"][1]["retreats"] == 3
    assert len(state["seats"][0]["deck"]) == 16  # seat 1's monster still attacked
    assert G.outcome(state).winners == (0,) and G.outcome(state).reason == "retire"
    assert types(events).index("retreated") < types(events).index("retired")


@pytest.mark.parametrize("sheet", ["clear", "keep"])
def test_s29_retirement_three_players(sheet):
    state = build(3, turn=6, parent=2, options={"retired_sheet": sheet},
                  seats=[{"hr": 2}, {"hr": 3}, {"retreats": 3}],
                  monsters=[(1, "M01", 2, "c1", False), (2, "M02", 2, "c2", False), (3, "M01", 2, "c1", True)])
    open_hunt(state)
    assert state["seats"][2]["retired"] and state["seats"][2]["pos"] is None
    assert [s["hr"] for s in state["seats"]] == [2, 3, 0] and state["parent"] == 0
    assert 2 not in G.to_act(state) and state["phase"] == "prep"
    assert "c1" in reachable(state["map"]["roads"], "b2", 2)
    if sheet == "clear":
        assert state["monsters"] == [] and sorted(state["seats"][2]["discard"]) == ["M01", "M01", "M02"]
    else:
        assert len(state["monsters"]) == 3
        kill = build(3, options={"retired_sheet": "keep"}, seats=[{"pos": "c1"}, {}, {"retired": True, "pos": None}],
                     monsters=[(3, "M01", 2, "c1", True, 2)])
        open_hunt(kill)
        assert kill["seats"][0]["hr"] == 1 and kill["seats"][2]["material"] == ["M01"]


def s30_state():
    return build(seats=[{"hunter": "H03", "hr": 18, "pos": "b1", "hand": ["I07"]},
                        {"hunter": "H04", "hr": 19, "pos": "a2", "hand": ["A01"]}],
                 monsters=[(1, "M05", 1, "b1", True, 3), (2, "M01", 0, "a2", True, 1)])


def test_s30_an_hr_win_is_immediate_with_parallel_areas():
    state = s30_state()
    events = open_hunt(state)
    assert next(e for e in events if e["type"] == "hunt_order")["areas"] == ["b1", "a2"]
    assert G.to_act(state) == {0, 1}  # both areas are hunted at once
    won, _ = play(state, 0, "hit m1")  # (a) a rank-2 kill: 20
    assert G.outcome(won).winners == (0,) and G.outcome(won).reason == "hr" and G.to_act(won) == set()
    # (b) seat 1 kills first: its crossing waits for the earlier area b1.
    state, _ = play(state, 1, "hit m2")
    assert G.outcome(state) is None and G.to_act(state) == {0}
    assert [a["frozen"] for a in G.view(state, None)["hunt"]["areas"]] == [False, True]
    won, _ = play(state, 0, "hit m1")
    assert G.outcome(won).winners == (0,)
    state["monsters"][0]["damage"] = 0
    state, _ = play(state, 0, "hit m1")  # 3 left: no kill
    state, _ = play(state, 0, "def -")
    assert G.outcome(state).winners == (1,)


@pytest.mark.parametrize("check", ["immediate", "result"])
def test_s31_hr_before_retirement(check):
    state = build(seats=[{"hr": 18, "retreats": 3}], options={"win_check": check},
                  monsters=[(3, "M09", 1, "b1", True), (6, "M12", 1, "b4", True)])
    open_hunt(state)
    state, events = play(state, 1, "keep m3")
    assert G.outcome(state).winners == (0,) and G.outcome(state).reason == "hr"
    assert state["seats"][0]["hr"] == 21 and "retired" not in types(events)


# ---- S32-S37: weak points and items ---------------------------------------------------------------------
def hunter(**kw):
    s = {"hunter": "H01", "weapon": None, "armour": None, "hand": [], "bonus": {"attack": 0, "defence": 0}}
    s.update(kw)
    return s


def test_s32_weak_point():
    boar = {"id": 1, "card": "M05", "damage": 0}
    assert model.hit_math(hunter(weapon="W05"), boar, [boar], [], 2)["killed"]
    assert model.hit_math(hunter(weapon="W04"), boar, [boar], [], 2)["left"] == 1
    out = model.hit_math(hunter(hunter="H04"), boar, [boar], ["I08"], 2)
    assert out["damage"] == 4 and out["weak"]
    assert model.hit_math(hunter(weapon="W05"), boar, [boar], [], 0)["damage"] == 5
    hurt = {"id": 1, "card": "M05", "damage": 4}
    bombed = model.hit_math(hunter(weapon="W05"), hurt, [hurt], ["I05"], 2)
    assert bombed["bombed"] == [1] and bombed["damage"] == 0 and not bombed["weak"]
    state = build(seats=[{"weapon": "W05", "pos": "b1"}], options={"weak_bonus": 0},
                  monsters=[(1, "M05", 1, "b1", True)])
    events = open_hunt(state)
    assert next(e for e in events if e["type"] == "hit")["attack"] == 5 and mon(state, 1) is None


def test_s33_item_icons_follow_the_weapon():
    assert "I07" in model.boost_cards(hunter(hunter="H03", hand=["I07"]))
    equipped = hunter(hunter="H03", weapon="W09", hand=["I04", "I07"])
    assert model.boost_cards(equipped) == [] and model.guard_cards(equipped) == ["I04"]
    state = build(seats=[{"hunter": "H03", "weapon": "W09", "pos": "b1", "hand": ["I04", "I07"]}],
                  monsters=[(1, "M10", 1, "b1", True)])
    open_hunt(state)
    assert not any("I07" in a for a in legal(state, 0))
    assert G.why_illegal(state, 0, "hit m1 I07") == "mh.icon_mismatch"


def test_s34_bomb():
    state = build(3, seats=[{}, {}, {"hunter": "H02", "pos": "b2", "hand": ["I06"]}],
                  monsters=[(3, "M01", 1, "b2", True, 1), (4, "M02", 1, "b2", True), (5, "M08", 1, "b2", True)])
    open_hunt(state)
    state, _ = play(state, 2, "def -")
    state, _ = play(state, 2, "def -")
    state, events = play(state, 2, "hit m5 I06")
    assert [e["id"] for e in events if e["type"] == "killed"] == [3, 4, 5]
    assert state["seats"][2]["hr"] == 4 and state["seats"][1]["material"] == ["M01", "M02", "M08"]
    # the bombs land first (M01, M02 die of them), then the hit finishes M08
    assert [(e["type"], e.get("id")) for e in events[:5]] == [("bomb", None), ("killed", 3), ("killed", 4),
                                                               ("hit", 5), ("killed", 5)]


def bombed_hit() -> tuple[dict, dict, list]:
    """Seat 0 hits M10 (8 health) with a 1-damage bomb that kills M02 (1 health left) beside it:
    the state before the hit, after it, and its events."""
    state = build(seats=[{"hunter": "H02", "pos": "b1", "hand": ["I05"]}],
                  monsters=[(3, "M10", 1, "b1", True), (4, "M02", 1, "b1", True, 1)])
    open_hunt(state)
    while legal(state, 0) == ["def -"]:  # both monsters outreach the hunter: they attack first
        state, _ = play(state, 0, "def -")
    return (state, *play(state, 0, "hit m3 I05"))


def test_s34_a_bomb_lands_before_the_hit_it_came_with():
    """3.3: bombs, then the hit: the health the hit leaves counts the bombs announced before it."""
    _, _, events = bombed_hit()
    assert types(events)[:3] == ["bomb", "killed", "hit"]
    assert events[1]["id"] == 4 and events[2]["left"] == 8 - 1 - 2  # M10: 8 health, the bomb's 1, the hit's 2


def test_s34_a_hit_whose_target_the_bomb_hunted_strikes_nothing():
    state = build(seats=[{"hunter": "H02", "pos": "b1", "hand": ["I05"]}], monsters=[(1, "M05", 1, "b1", True, 4)])
    open_hunt(state)
    while legal(state, 0) == ["def -"]:
        state, _ = play(state, 0, "def -")
    state, events = play(state, 0, "hit m1 I05")
    assert types(events)[:3] == ["bomb", "killed", "hit_lost"] and "hit" not in types(events)
    assert events[1]["hr"] == 2 and events[2]["used_cards"] == ["I05"]


@pytest.mark.parametrize("cards", [["I09"], ["I09", "I09"]])
def test_s35_capture(cards):
    state = build(seats=[{"weapon": "W12", "pos": "b1", "hand": cards}], monsters=[(3, "M10", 1, "b1", True)])
    open_hunt(state)
    state, events = play(state, 0, " ".join(["hit m3", *cards]))
    captured = next(e for e in events if e["type"] == "captured")
    assert captured["hr"] == 3 and state["seats"][1]["material"] == ["M10"]


def test_s36_evade():
    state = build(3, seats=[{"pos": "b2", "hand": ["A02", "I04"]}],
                  monsters=[(3, "M05", 1, "b2", True), (4, "M11", 1, "b2", True)])
    open_hunt(state)
    state, _ = play(state, 0, "def I04")
    assert len(state["seats"][0]["deck"]) == 20
    state, _ = play(state, 0, "def -")
    assert len(state["seats"][0]["deck"]) == 15


def test_s37_recover():
    state = build(seats=[{"pos": "b1", "deck": ["M01", "M02"], "filler": 0, "discard": ["W01", "W02", "W03"],
                          "hand": ["A02", "I01"]}], monsters=[(1, "M05", 1, "b1", True)])
    open_hunt(state)
    state, _ = play(state, 0, "def I01")
    s = state["seats"][0]
    assert s["deck"] == ["W01"] and s["retreats"] == 0
    assert s["discard"] == ["I01", "M01", "M02", "W03", "W02"]


# ---- S38-S42: safety, secrets, policies -----------------------------------------------------------------
def test_s38_camps_are_safe():
    state = build(seats=[{"pos": "a0", "hand": ["A02"]}, {"pos": "a1", "hand": ["A02"]}],
                  monsters=[(1, "M05", 0, "a1", True)])
    open_hunt(state)
    assert 0 not in G.to_act(state) and "s0" not in area_view(state, "a1")["order"]
    assert len(state["seats"][0]["deck"]) == 20


def test_s39_a_retreat_ends_the_hunters_hunt():
    state = s13_state(deck1=6)
    open_hunt(state)
    state, _ = play(state, 1, "flip m7")
    state, _ = play(state, 0, "def -")
    state, events = play(state, 1, "def -")
    assert state["seats"][1]["pos"] == "b0" and state["seats"][1]["retreats"] == 1
    assert G.to_act(state) == {0}


def test_s40_secrets():
    state = build(seats=[{"pos": "b1", "hand": ["A02", "M03"]}],
                  monsters=[(1, "M05", 1, "b1", False), (2, "M16", 0, "a2", False)])
    for viewer in (None, 0, 1):
        view = G.view(state, viewer)
        for i in range(20):
            assert G.view(G.scramble_hidden(state, viewer, Rng(i)), viewer) == view
    assert all("card" not in m for m in G.view(state, None)["monsters"])
    assert [m.get("card") for m in G.view(state, 0)["monsters"]] == [None, "M16"]
    changed = {json.dumps(G.scramble_hidden(state, 1, Rng(i))["seats"][0]["hand"]) for i in range(20)}
    assert len(changed) > 1  # the scramble really re-deals
    open_prep(state)
    counts = G.view(state, None)["seats"][0]["hand_count"]
    state, e1 = play(state, 0, "discard A02")
    state, e2 = play(state, 0, "deploy M03 a1")
    for viewer in (None, 1):
        view = G.view(state, viewer)
        assert view["seats"][0]["hand_count"] == counts and len(view["monsters"]) == 2
    state, e3 = play(state, 1, "deploy -")
    public = json.dumps(events_for(e1 + e2 + e3, None))
    assert "M03" not in public and "M16" not in public and "drew" not in types(events_for(e1 + e2 + e3, None))
    assert not any(G.action_is_public(a) for a in ("deploy M03 a1", "move a1", "def A02", "keep m1", "take H01 2A"))
    assert all(G.action_is_public(a) for a in ("hit m1", "flip m1", "skip"))


def test_s41_standing_defence_policy():
    state = build(seats=[{"pos": "b1", "hand": ["A01", "A02"], "filler": 10}], monsters=[(1, "M04", 1, "b1", True)])
    open_hunt(state)
    state, _ = play(state, 0, "auto def:retreat")
    state, _ = play(state, 0, "hit m1")
    assert len(state["seats"][0]["deck"]) == 7 and state["phase"] == "prep"
    state = build(seats=[{"pos": "b1", "hand": ["A01", "A02"], "filler": 2, "policy": {"def": "retreat"}}],
                  monsters=[(1, "M04", 1, "b1", True)])
    open_hunt(state)
    state, events = play(state, 0, "hit m1")
    hunt_events = events[:types(events).index("healed")]
    assert next(e for e in events if e["type"] == "defended")["used_cards"] == ["A01", "A02"]
    assert [e["count"] for e in hunt_events if e["type"] == "milled"] == [1] and "retreated" not in types(hunt_events)


def test_s42_what_is_asked_follows_public_information_only():
    state = build(seats=[{"pos": "b1"}], monsters=[(1, "M01", 1, "b1", True)])
    events = open_hunt(state)
    assert "hit" in types(events) and state["phase"] == "prep"
    state = build(seats=[{"pos": "b1", "hand": ["M01", "M02"]}], monsters=[(1, "M01", 1, "b1", True)])
    open_hunt(state)
    assert G.to_act(state) == {0} and legal(state, 0) == ["hit m1"]
    state, _ = play(state, 0, "hit m1")
    assert G.to_act(state) == {0} and legal(state, 0) == ["def -"]  # asked though it holds no armour


# ---- S43-S47: options, maps, resigning, replay -----------------------------------------------------------
def test_s43_turn_limit():
    state = build(3, turn=3, options={"turn_limit": 3}, seats=[{"hr": 7}, {"hr": 7}, {"hr": 4}])
    open_hunt(state)
    assert G.outcome(state).winners == (0, 1) and G.outcome(state).reason == "turn_limit"


def test_s44_flipped_ring_sheet():
    m = build_map("ring", [("4A", False), ("4B", True), ("4C", False)])
    assert m["joins"] == [["a1", "b1"], ["b1", "c1"], ["c2", "a2"]]
    assert reachable(m["roads"], "a1", 1) == {"a2": 1, "b1": 1}
    assert reachable(m["roads"], "a1", 2)["b2"] == 2 and reachable(m["roads"], "c1", 2)["b2"] == 2


def test_s45_sequential_moves():
    state = build(3, parent=1, options={"move_order": "sequential"}, seats=[{"pos": "a1"}, {"pos": "b1"}, {"pos": "c1"}])
    open_move(state)
    assert G.to_act(state) == {1}
    state, events = play(state, 1, "move b2")
    assert events_for(events, None)[0] == {"type": "moved", "seat": 1, "start": "b1", "dest": "b2",
                                           "start_place": {"type": "area", "area": "b1"}}
    assert state["seats"][1]["pos"] == "b2" and G.to_act(state) == {2}
    assert G.action_is_public("move b2") is False  # history still locks it; the event shows it


def test_s46_resigning_in_a_three_player_game():
    state = build(3, seats=[{"pos": "c1", "hand": ["A02"]}, {"pos": "c1", "hand": ["A02"]}],
                  monsters=[(1, "M05", 2, "c1", True), (2, "M01", 1, "b1", False)])
    open_hunt(state)
    assert G.to_act(state) == {0, 1}
    state, _ = play(state, 0, "def -")
    state, events = G.resign(state, 1)
    assert state["seats"][1]["retired"] and state["seats"][1]["pos"] is None and mon(state, 2) is None
    assert "defended" in types(events) and len(state["seats"][0]["deck"]) == 16
    assert G.outcome(state) is None and 1 not in G.to_act(state)


def test_s47_replay_reproduces_a_game_with_retreats():
    for seed in range(40):
        state = G.setup(2, {}, seed)
        log, rng = [], Rng(seed)
        while G.outcome(state) is None:
            seat = sorted(G.to_act(state))[0]
            actions = G.legal_actions(state, seat)
            action = "go" if rng.below(3) else rng.choice(actions)
            state, _ = G.apply(state, seat, action)
            log.append((seat, action))
        if sum(s["retreats"] for s in state["seats"]) >= 2:
            break
    else:
        pytest.fail("no seed gave two retreats")
    replay = G.setup(2, {}, seed)
    for seat, action in log:
        replay, _ = G.apply(replay, seat, action)
    assert json.dumps(replay, sort_keys=True) == json.dumps(state, sort_keys=True)


# ---- notation ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("typed, canon", [
    ("HIT M7 w3, i3 w3", "hit m7 I03 W03 W03"), ("hit m07", "hit m7"), ("move stay", "stay"), ("move -", "stay"),
    ("def", "def -"), ("def none", "def -"), ("discard", "discard -"), ("deploy none", "deploy -"),
    ("deploy m3 A1 X M4", "deploy M03 a1 x m4"), ("equip w11 m9 m2", "equip W11 M02 M09"),
    ("take h2 4c~", "take H02 4C~"), ("flip M12 AUTO", "flip m12 auto"), ("keep M9", "keep m9"),
    ("discard w4 i11", "discard I11 W04"), ("  go ", "go"), ("Auto def:retreat", "auto def:retreat"),
])
def test_canonical_forms(typed, canon):
    assert G.canonical(typed) == canon
    G.parse(canon)


@pytest.mark.parametrize("text, key", [
    ("", "mh.bad_form"), ("pass", "mh.bad_form"), ("hit 7", "mh.bad_monster"), ("hit m7 Q01", "mh.bad_card"),
    ("move a0", "mh.bad_area"), ("move e1", "mh.bad_area"), ("deploy M01 z9", "mh.bad_area"),
    ("flip m1 now", "mh.bad_form"), ("auto def:always", "mh.bad_form"), ("take H01 3A", "mh.bad_form"),
    ("deploy M01 a1 y m2", "mh.bad_form"), ("keep m1 m2", "mh.bad_form"),
])
def test_malformed_actions_are_refused_with_a_key(text, key):
    with pytest.raises(NotationError) as err:
        G.parse(text)
    assert err.value.key == key


def test_every_offered_action_is_canonical_and_short_and_its_menus_small():
    for seed in range(6):
        state = G.setup(2 + seed % 3, {}, seed)
        rng = Rng(seed)
        while G.outcome(state) is None:
            seat = sorted(G.to_act(state))[0]
            actions = G.legal_actions(state, seat)
            menus: dict[tuple, set] = {}
            for action in actions:
                assert G.canonical(action) == action and len(action) <= 64
                path = G.action_path(action)
                assert path[-1] == action and all("|" not in p for p in path)
                for depth in range(len(path)):
                    menus.setdefault(path[:depth], set()).add(path[depth])
            assert max(len(v) for v in menus.values()) <= 25, max(menus.items(), key=lambda kv: len(kv[1]))
            state, _ = G.apply(state, seat, "go" if rng.below(2) else rng.choice(actions))


def test_refusals_leave_the_state_unchanged_and_name_a_reason():
    state = build(seats=[{"hunter": "H03", "pos": "b1", "hand": ["A02"]}], monsters=[(1, "M05", 1, "b1", True)])
    open_hunt(state)
    assert refused(state, 0, "hit m9") == "mh.no_such_monster"
    assert refused(state, 0, "flip m1") == "mh.not_face_down"
    assert refused(state, 0, "move a1") == "mh.not_your_step"
    assert refused(state, 0, "auto def:ask") == "mh.same_policy"
    assert refused(state, 1, "hit m1") == "not_your_turn"
    with pytest.raises(IllegalAction):
        G.apply(state, 0, "hit m1 W05")


def refusal_words(state, seat, action):
    """The refusal's key and its text as a player reads it in English and Japanese (card names and
    kinds worded as the service words them); the state is unchanged."""
    from bot import i18n
    from bot.service.words import termed

    before = json.dumps(state, sort_keys=True)
    with pytest.raises(GameError) as err:
        G.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before
    text = i18n.T(f"error.{err.value.key}", **termed(G, err.value.params))
    return err.value.key, i18n.render("en", text), i18n.render("ja", text)


def equip_asked() -> dict:
    state = build(seats=[{"hand": ["A01", "A02", "M03", "W05"], "material": ["M09"]}])
    open_prep(state)
    assert G._decision(state, 0)["kind"] == "equip" and "equip A01" in legal(state, 0)
    return state


def test_issue_29_a_monster_card_named_as_equipment_is_refused_by_name():
    """`equip M03` raised KeyError 'cost' (issue #29)."""
    state = equip_asked()
    assert refusal_words(state, 0, "equip M03") == (
        "mh.not_equipment", "Dune Skitter (`M03`) is a monster card: only weapon and armour cards are equipped.",
        "スナバシリ（`M03`）はモンスターカードです。装備できるのは武器カードと防具カードだけです。")
    assert refused(state, 0, "equip H01") == "mh.not_equipment"


def test_issue_29_an_armour_card_named_as_payment_is_refused_by_name():
    """`equip A01 A02` raised KeyError 'material' (issue #29)."""
    state = equip_asked()
    key, en, ja = refusal_words(state, 0, "equip A01 A02")
    assert key == "mh.not_material" and en.startswith("Tanned Jerkin (`A02`) is an armour card:") \
        and ja.startswith("なめし革の胴着（`A02`）は防具カードです。")
    assert refused(state, 0, "equip W05 M03") == "mh.not_in_material"  # held in hand, not in material
    assert refused(state, 0, "equip W05 M09 M09") == "mh.not_in_material"  # one M09 only
    assert refused(state, 0, "equip W99") == "mh.bad_card"  # shaped like an id, but no such card


@pytest.mark.parametrize("monster, action, key, kind", [
    ("M01", "hit m1 A02", "mh.not_boost", "armour"), ("M01", "hit m1 I02", "mh.defence_item", None),
    ("M01", "hit m1 M03", "mh.not_in_hand", None),
    ("M05", "def W05", "mh.not_guard", "weapon"), ("M05", "def I03", "mh.attack_item", None),
    ("M05", "def A02 A02", "mh.not_in_hand", None),
])
def test_a_card_of_the_wrong_kind_in_the_hunt_is_refused_by_name(monster, action, key, kind):
    state = build(seats=[{"pos": "b1", "hand": ["A02", "I02", "I03", "W05"]}], monsters=[(1, monster, 1, "b1", True)])
    open_hunt(state)
    got, en, ja = refusal_words(state, 0, action)
    assert got == key and f"(`{action.split()[-1]}`)" in en and f"（`{action.split()[-1]}`）" in ja
    assert kind is None or f"{kind} card" in en


def test_wrong_kinds_and_places_in_the_other_steps_are_refused_precisely():
    state = G.setup(3, {}, 3)
    assert refused(state, 0, "take M01 4A") == "mh.not_a_hunter"
    assert refused(state, 0, "take H01 2A") == "mh.bad_sheet"
    assert refused(state, 0, "auto def:ask") == "mh.not_your_step"  # no policies before the loadout closes
    state = build(3, seats=[{"hand": ["M01", "W05"]}])
    open_prep(state)
    state, _ = play(state, 0, "discard -")
    assert refused(state, 0, "deploy W05 a1") == "mh.not_deployable"
    assert refused(state, 0, "deploy M01 a4") == "mh.no_such_area"  # ring sheets have areas 1-2
    assert refused(state, 0, "deploy M01 b1") == "mh.not_your_area"
    state = build(3, seats=[{"pos": "a1"}])
    open_move(state)
    assert refused(state, 0, "move c4") == "mh.no_such_area"
    assert refused(state, 0, "move a1") == "mh.already_there"


def test_go_is_always_legal_and_plays_a_legal_action():
    for players in (2, 3, 4):
        state = G.setup(players, {}, players)
        while G.outcome(state) is None:
            seat = sorted(G.to_act(state))[0]
            state, events = G.apply(state, seat, "go")
            chosen = next((e for e in events if e["type"] == "go"), None)
            assert chosen is not None and chosen["to"] == [seat]
        assert state["turn"] <= 30


def test_random_options_loadout_and_policies_play_to_the_end():
    for seed, opts in enumerate([{"loadout": "random"}, {"win_check": "result", "overflow": "carry"},
                                 {"move_order": "sequential", "retired_sheet": "keep", "unique_hr": "none"},
                                 {"hr_target": 5, "weak_bonus": 0, "turn_limit": 2}]):
        state = G.setup(3, opts, seed)
        if opts.get("loadout") == "random":
            assert state["phase"] == "prep" and state["map"] is not None
        rng = Rng(seed)
        while G.outcome(state) is None:
            seat = sorted(G.to_act(state))[0]
            state, _ = G.apply(state, seat, rng.choice(G.legal_actions(state, seat)))
        if opts.get("turn_limit") == 2:
            assert state["turn"] <= 2


def test_panel_notes_describe_the_decision_and_the_suggestion():
    state = s12_state()
    open_hunt(state)
    notes = G.panel_notes(G.view(state, 0))
    kinds = types(notes)
    assert kinds[0] == "status" and kinds.count("hand") == 3 and "decision_attack" in kinds and "preview" in kinds
    assert next(n for n in notes if n["type"] == "preview")["action"] == "flip m5 auto"
    assert G.panel_notes(G.view(state, None)) == []


def test_skip_action_passes_each_kind_of_decision():
    state = s12_state()
    open_hunt(state)
    assert G.skip_action(state, 0) == "skip"  # only a face-down monster there
    state, _ = play(state, 0, "flip m5")
    assert G.skip_action(state, 0) == "hit m5"
    state, _ = play(state, 0, "hit m5")
    assert G.skip_action(state, 0) == G.skip_action(state, 2) == "def -"


def test_engine_is_registered_under_its_aliases_when_imported():
    assert MonsterHunter().name == "monsterhunter"


def test_resigning_owner_takes_its_monsters_out_of_a_pending_attack():
    """G59 with O:retired_sheet=clear: a hunter choosing cards against the leaver's monster loses that hit."""
    state = build(3, seats=[{"hunter": "H03", "pos": "b2", "hand": ["A01"]}, {}, {"pos": "a1", "hand": ["A01"]}],
                  monsters=[(1, "M01", 1, "b2", False), (2, "M02", 0, "a1", False)])
    open_hunt(state)
    state, _ = play(state, 0, "flip m1")
    assert G.view(state, 0)["me"]["decision"]["kind"] == "cards"
    state, events = G.resign(state, 1)
    assert mon(state, 1) is None and 0 not in G.to_act(state) and G.to_act(state) == {2}
    assert G.outcome(state) is None


def test_the_panel_preview_is_what_go_plays():
    from games.monsterhunter import autopilot

    checked = 0
    for seed in range(8):
        state = G.setup(2 + seed % 3, {}, seed)
        rng = Rng(seed)
        while G.outcome(state) is None:
            seat = sorted(G.to_act(state))[0]
            view = G.view(state, seat)
            preview = autopilot.suggest(view, None)
            new, events = G.apply(state, seat, "go")
            played = next(e["action"] for e in events if e["type"] == "go")
            if view["me"]["decision"]["kind"] != "loadout":
                assert preview == played, (view["me"]["decision"], preview, played)
                checked += 1
            state = new if rng.below(3) else G.apply(state, seat, rng.choice(G.legal_actions(state, seat)))[0]
    assert checked > 200


def test_views_share_nothing_with_the_state():
    """A renderer that edits the view it was given must not change the game."""
    def scribble(value):
        if isinstance(value, dict):
            for v in value.values():
                scribble(v)
            value["scribbled"] = True
        elif isinstance(value, list):
            for v in value:
                scribble(v)
            value.append("scribbled")

    state = s12_state()
    open_hunt(state)
    states = [state]
    prep = build(seats=[{"hand": ["M01"]}])
    open_prep(prep)
    states.append(prep)
    for st in states:
        before = json.dumps(st, sort_keys=True)
        for viewer in (None, 0, 1):
            scribble(G.view(st, viewer))
        assert json.dumps(st, sort_keys=True) == before


def test_every_event_panel_note_and_refusal_has_its_catalogue_line():
    """The shared i18n checks, for Monster Hunter alone (they also run here without the registry,
    and name the exact missing line). Params are worded as the service words them (cards by name,
    monsters and places as nested words), and every line they use exists."""
    import re
    from pathlib import Path

    from bot import i18n
    from bot.service.words import termed

    def said(lang: str, key: str, params: dict) -> str:
        text = i18n.T(key, **termed(G, params, seat_words=lambda s: f"P{s}"))
        missing = [k for k in keys_of(text) if not i18n.has(k)]
        assert not missing, missing
        return i18n.render(lang, text)

    folder = Path(__file__).resolve().parents[1] / "games" / "monsterhunter"
    code = "\n".join(p.read_text(encoding="utf-8") for p in folder.glob("*.py"))
    literals = set(re.findall(r"\"type\":\s*\"([a-z_]+)\"", code)) | set(re.findall(r"else \"([a-z_]+)\"", code))
    assert not [e for e in literals if not i18n.has(f"event.monsterhunter.{e}")]
    keys = set(re.findall(r"return \"(mh\.[a-z_]+)\"", code)) | set(re.findall(r"Error\(\"(mh\.[a-z_.]+)\"", code))
    assert len(keys) > 20 and not [k for k in keys if not i18n.has(f"error.{k}")]
    for reason in ("hr", "retire", "all_retired", "turn_limit", "resign"):
        assert i18n.has(f"reason.{reason}")
    seen = set()
    for seed in range(6):
        state = G.setup(2 + seed % 3, {}, seed)
        rng = Rng(seed)
        while G.outcome(state) is None:
            seat = sorted(G.to_act(state))[0]
            for note in G.panel_notes(G.view(state, seat)):
                params = {k: v for k, v in note.items() if k != "type"}
                for lang in ("en", "ja"):
                    line = said(lang, f"panel.monsterhunter.{note['type']}", params)
                    assert "{" not in line and not line.startswith("panel."), line
            state, events = G.apply(state, seat, "go" if rng.below(2) else rng.choice(G.legal_actions(state, seat)))
            for event in events:
                seen.add(event["type"])
                params = {k: v for k, v in event.items() if k not in ("type", "to")}
                for lang in ("en", "ja"):
                    line = said(lang, f"event.monsterhunter.{event['type']}", params)
                    assert "{" not in line and not line.startswith("event."), line
    assert len(seen) > 25


def keys_of(value) -> list[str]:
    """Every catalogue key a Text uses, nested params included."""
    from bot.i18n import Text

    if isinstance(value, Text):
        return [value.key] + [k for v in value.params.values() for k in keys_of(v)]
    if isinstance(value, (list, tuple)):
        return [k for v in value for k in keys_of(v)]
    return []


def test_g31_an_empty_reshuffle_does_not_retreat_again():
    state = build(seats=[{"deck": ["W01"], "filler": 0}])
    events: list = []
    drawn = model.draw(state, 0, 3, events)
    s = state["seats"][0]
    assert drawn == ["W01"] and s["retreats"] == 1 and s["deck"] == [] and types(events) == ["retreated"]
    s["discard"] = ["I01"]
    assert model.draw(state, 0, 1, events) == ["I01"] and s["retreats"] == 3  # empty deck, then emptied again


def test_a_custom_deck_outside_the_loadout_is_refused_by_step():
    state = build(seats=[{"hand": ["M01"]}])
    open_prep(state)
    assert refused(state, 0, f"take H01 2A {deck_code(ready_deck('H01'))}") == "mh.not_your_step"


def test_the_view_carries_the_last_public_events():
    state = build(3, seats=[{"pos": "a1"}, {"pos": "b1"}, {"pos": "c1"}])
    open_move(state)
    for seat, action in ((0, "move b2"), (1, "stay")):
        state, _ = play(state, seat, action)
        assert G.view(state, None)["last"] == [{"type": "move_in", "seat": seat}]
    state, events = play(state, 2, "move c2")
    last = G.view(state, None)["last"]
    moved = {"type": "moved", "seat": 0, "start": "a1", "dest": "b2", "start_place": {"type": "area", "area": "a1"}}
    assert last == events_for(events, None) and moved in last
    resigned, _ = G.resign(state, 1)
    assert G.view(resigned, 0)["last"][0] == {"type": "resigned", "seat": 1}


def test_option_hr_target_and_random_loadout():
    state = build(seats=[{"pos": "b1", "hr": 2}], options={"hr_target": 5}, monsters=[(1, "M10", 1, "b1", True, 6)])
    open_hunt(state)
    assert G.outcome(state).winners == (0,) and state["seats"][0]["hr"] == 5
    dealt = G.setup(4, {"loadout": "random"}, 3)
    assert dealt["phase"] == "prep" and all(s["hunter"] for s in dealt["seats"])
    assert all(not sheet["flipped"] for sheet in dealt["map"]["sheets"]) and dealt["map"]["kind"] == "ring"
    with pytest.raises(GameError) as err:
        G.setup(2, {"hr_target": 41}, 1)
    assert err.value.key == "option_out_of_range"
