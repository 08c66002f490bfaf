"""Monster Hunter data files against their schemas (MONSTER_HUNTER.md 3.2, 3.6, 3.7, 4.2)."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from games.monsterhunter import board, cards

RAW = {name: cards._data(name) for name in cards.DATA_FILES}


@pytest.mark.parametrize("name", cards.DATA_FILES)
def test_shipped_files_are_valid(name):
    assert cards.VALIDATORS[name](RAW[name]) == []
    assert cards.load(name) == RAW[name]


def test_the_pool_is_the_documented_fifty_cards():
    data = RAW["cards.json"]
    assert [len(data[k]) for k in cards.KINDS] == [4, 16, 12, 6, 12]
    m15 = cards.card("M15")
    assert (m15["attack"], m15["reach"], m15["health"], m15["rank"], m15["material"], m15["main"], m15["unique"]) == (
        7, 6, 11, 5, 6, True, True)
    assert cards.card("I09")["effect"] == {"kind": "capture", "n": 3}
    assert cards.card("W11")["items"] == ["meat", "bottle", "medicine"]


def broken_cards(mutate):
    data = copy.deepcopy(RAW["cards.json"])
    mutate(data)
    return cards.validate_cards(data)


@pytest.mark.parametrize("mutate, fragment", [
    (lambda d: d["hunters"][0].update(attack=0), "bad attack"),
    (lambda d: d["hunters"][0].update(move=6), "bad move"),
    (lambda d: d["monsters"][0].update(id="X01"), "id must be M##"),
    (lambda d: d["monsters"][1].update(id="M01"), "repeats"),
    (lambda d: d["monsters"][0].update(weak=["axe"]), "bad weak"),
    (lambda d: d["monsters"][0].pop("main"), "keys must be exactly"),
    (lambda d: d["weapons"][0].update(cost=13), "bad cost"),
    (lambda d: d["items"][0].update(effect={"kind": "draw", "n": 4}), "bad effect"),
    (lambda d: d["items"][0].update(effect={"kind": "evade", "n": 1}), "bad effect"),
    (lambda d: d["items"][0].update(icons=["meat", "meat"]), "bad icons"),
    (lambda d: d["armours"][1]["name"].update(en="Patchwork Cloak"), "name.en repeats"),
    (lambda d: d["items"][0]["name"].update(ja="x" * 21), "name.ja"),
    (lambda d: [w.update(type="gs") for w in d["weapons"]], "9 weapon types"),
    (lambda d: [m.update(main=False) for m in d["monsters"]], "main-target"),
    (lambda d: [m.update(unique=False) for m in d["monsters"]], "one-copy"),
    (lambda d: d["armours"].pop(), "at least 6"),
])
def test_broken_cards_are_named(mutate, fragment):
    problems = broken_cards(mutate)
    assert any(fragment in p for p in problems), problems


def test_every_ready_deck_is_legal_and_fits_its_hunter():
    ready = RAW["decks.json"]["ready"]
    assert sorted(ready) == cards.hunter_ids()
    for hid in ready:
        deck = cards.ready_deck(hid)
        assert len(deck) == 40 and max(Counter(deck).values()) <= 4
        assert not [c for c in deck if c.startswith("H")]
        assert cards.deck_problems(deck) == [] and cards.deck_problems(cards.deck_code(deck)) == []
        kinds = Counter(cards.kind_of(c) for c in deck)
        assert (kinds["monsters"], kinds["weapons"], kinds["armours"], kinds["items"]) == (14, 8, 8, 10)
        icons = set(cards.card(hid)["items"])
        assert all(icons & set(cards.card(c)["icons"]) for c in deck if c.startswith("I")), hid


def test_every_card_is_in_some_ready_deck():
    used = {c for hid in cards.hunter_ids() for c in cards.ready_deck(hid)}
    every = {c for c, spec in cards.card_index().items() if spec["kind"] != "hunters"}
    assert every == used
    data = copy.deepcopy(RAW["decks.json"])
    deck = data["ready"]["H02"]["cards"]
    deck.pop("I06")  # only Brann's deck holds it
    deck["I05"] += 1
    assert any("I06" in p for p in cards.validate_decks(data))


def test_deck_codes_and_their_problems():
    h01 = cards.ready_deck("H01")
    code = cards.deck_code(h01)
    assert cards.parse_deck_code(code) == h01
    assert code.startswith("A01x2.A02x3.") and len(code) < 140
    assert cards.deck_problems(h01 + ["M01"]) == ["mh.deck.size"]
    five = [c for c in h01 if c != "M02"] + ["M01", "M01", "M01"]  # M01 x5, still 40 cards
    five.remove("I02")
    assert len(five) == 40 and cards.deck_problems(five) == ["mh.deck.copies"]
    assert cards.deck_problems(h01[:-1] + ["H02"]) == ["mh.deck.hunter"]
    assert cards.deck_problems(h01[:-1] + ["X99"]) == ["mh.deck.unknown"]
    for bad in ("", "A01x2,A02x3", "A02x3.A01x2", "A01x0", "a01x2", "A01x2.A01x2", "A01-2"):
        assert cards.deck_problems(bad) == ["mh.deck.code"], bad


def test_every_sheet_is_connected_and_two_player_connectors_are_far_from_camp():
    for kind in ("two", "ring"):
        for sheet in RAW["sheets.json"][kind]:
            nodes = cards.TWO_NODES if kind == "two" else cards.RING_NODES
            assert set(cards.sheet_distances(sheet, "0")) == set(nodes)
            if kind == "two":
                dist = cards.sheet_distances(sheet, "0")
                assert min(dist[sheet["connectors"]["L"]], dist[sheet["connectors"]["R"]]) >= 3, sheet["id"]


@pytest.mark.parametrize("kind, index, mutate, fragment", [
    ("two", 0, lambda s: s.update(roads=[["0", "3"], ["1", "2"]]), "connect every node"),
    ("two", 0, lambda s: s.update(roads=s["roads"] + [["3", "0"]]), "repeats"),
    ("two", 0, lambda s: s.update(roads=s["roads"] + [["1", "1"]]), "bad road"),
    ("two", 0, lambda s: s.update(roads=[["0", "1"], ["1", "2"], ["1", "3"], ["1", "4"]]), "at least 3"),
    ("two", 1, lambda s: s["connectors"].update(L="2"), "different areas"),
    ("two", 2, lambda s: s["cells"].update({"4": "b2"}), "distinct cells"),
    ("ring", 0, lambda s: s["connectors"].update(N="2"), "touching that side"),
    ("ring", 1, lambda s: s.update(roads=[["0", "2"], ["0", "1"]]), "without the camp"),
    ("ring", 2, lambda s: s.update(id="5C"), "bad id"),
])
def test_broken_sheets_are_named(kind, index, mutate, fragment):
    data = copy.deepcopy(RAW["sheets.json"])
    mutate(data[kind][index])
    problems = cards.validate_sheets(data)
    assert any(fragment in p for p in problems), problems


def test_broken_rules_are_named():
    data = dict(RAW["rules.json"], weak_bonus=6)
    assert cards.validate_rules(data) == ["weak_bonus must be 0-5"]
    assert cards.validate_rules({"hand_size": 6})


def test_assembled_maps_match_the_documented_examples():
    two = board.build_map("two", [("2A", False), ("2C", False)])
    assert board.reachable(two["roads"], "a0", 6) == {"a3": 1, "a4": 2, "a1": 3, "a2": 3, "b1": 4, "b2": 4,
                                                      "b4": 5, "b3": 6}
    assert board.reachable(two["roads"], "b0", 6) == {"b3": 1, "b4": 2, "b1": 3, "b2": 4, "a2": 4, "a1": 5,
                                                      "a4": 5, "a3": 6}
    four = board.build_map("ring", [("4A", False), ("4B", False), ("4C", False), ("4B", True)])
    assert four["joins"] == [["a1", "b2"], ["b2", "c1"], ["c2", "d1"], ["d1", "a2"]]
    assert board.reachable(four["roads"], "a0", 3) == {"a1": 1, "a2": 1, "b2": 2, "d1": 2, "b1": 3, "c1": 3,
                                                       "d2": 3, "c2": 3}
    # Every area of every sheet combination is reachable from every camp (no dead map).
    for layouts in (["2A", "2B"], ["2B", "2C"], ["2C", "2A"]):
        m = board.build_map("two", [(s, False) for s in layouts])
        areas = {n for n in m["nodes"] if not board.is_camp(n)}
        assert set(board.reachable(m["roads"], "a0", 20)) == areas


def test_catalogue_names_come_from_the_data_files():
    """One source of truth: the catalogues' card, sheet and deck names equal the data files'."""
    from bot import i18n

    for lang in ("en", "ja"):
        cat = {key: i18n.t(lang, key) for key in i18n.catalogue_files(lang)["monsterhunter"]}
        names = {f"mh.card.{c['id']}": c["name"][lang] for kind in cards.KINDS for c in RAW["cards.json"][kind]}
        names |= {f"mh.sheet.{s['id']}": s["name"][lang] for k in ("two", "ring") for s in RAW["sheets.json"][k]}
        names |= {f"mh.deckname.{h}": d["name"][lang] for h, d in RAW["decks.json"]["ready"].items()}
        assert {k: v for k, v in cat.items() if k.startswith(("mh.card.", "mh.sheet.", "mh.deckname."))} == names
