"""Hidden information in two browsers: an Arena Duel turn of secret orders (neither page shows the
other's order or dice before the turn resolves), and Monster Hunter's loadout and hunt (a player
picks a hunter and a sheet with their numbers shown, and hunts; their hand is on their page and on
nobody else's)."""

from __future__ import annotations

import re

from tests.browser.conftest import ALICE, BOB, CAROL
from tests.browser.tapping import board_version, tap_action, wait_until


def page_json(person) -> str:
    """Everything the page's own API tells this person now, as text."""
    import json

    return json.dumps(person.state(), ensure_ascii=False)


def test_an_arena_turn_keeps_each_order_and_dice_on_its_own_page(table, people) -> None:
    game = table.new_game("arena", [ALICE, BOB])
    alice, bob = people(ALICE), people(BOB)
    for p in (alice, bob):
        p.open(game)
    states = {p.user_id: p.state() for p in (alice, bob)}
    for uid, state in states.items():  # both order at once, each with their own dice in their own panel
        assert state["your_turn"] and state["panel"] and state["panel"]["lines"], uid
    alice_dice, bob_dice = states[ALICE]["panel"]["lines"], states[BOB]["panel"]["lines"]

    order = states[ALICE]["actions"][0]
    tap_action(alice.page, order)
    wait_until(lambda: not alice.state()["your_turn"], "alice's order to be taken")
    # bob's page, before he orders: nothing of alice's order or dice, in the page or its JSON
    wait_until(lambda: bob.page.locator("#board img").count() == 1, "bob's board")
    bob_now = bob.state()
    said = " ".join(bob_now["history"] + bob_now["lines"] + bob_now["said"])
    assert order["words"] not in said and f"`{order['action']}`" not in said  # who ordered, never what
    assert bob_now["panel"]["lines"] == bob_dice and bob_now["your_turn"]
    for line in [l for l in alice_dice if l not in bob_dice]:  # her own dice (the lines both panels share are help)
        assert line not in bob.text() and line not in page_json(bob)
    assert order["words"] not in bob.text()
    # the panel picture a session reads is its own seat's, whatever it asks for
    own = bob.page.evaluate("async (id) => (await fetch(`/api/game/${id}/panel.png`)).status", game)
    assert own == 200

    before = board_version(alice.page)
    tap_action(bob.page, bob_now["actions"][0])
    for p in (alice, bob):  # the turn resolves: both pages move on, live
        wait_until(lambda: (board_version(p.page) or 0) > before, f"the resolved turn on {p.user_id}'s page")
    assert alice.state()["version"] == bob.state()["version"]


def test_a_monster_hunter_player_picks_with_numbers_shown_and_hunts_their_hand_private(table, people) -> None:
    game = table.new_game("monsterhunter", [ALICE, BOB])
    alice, bob, carol = people(ALICE), people(BOB), people(CAROL)
    for p in (alice, bob, carol):
        p.open(game)
    picked = 0
    for _ in range(12):  # the loadout: each picks a hunter and a sheet, by tapping, numbers on show
        movers = [p for p in (alice, bob) if p.state()["your_turn"]]
        if not movers:
            break
        person = movers[0]
        state = person.state()
        regions = (state["panel"] or {}).get("regions", []) + state["board"]["regions"]
        picks = {r["key"]: r["words"] for r in regions if r["key"].startswith(("hunter:", "sheet:"))}
        if not picks:
            break  # the loadout is done: the hunt has begun
        assert any(k.startswith("hunter:") for k in picks) and any(k.startswith("sheet:") for k in picks)
        for key, words in picks.items():  # a hunter's words carry its numbers, not only its id
            if key.startswith("hunter:"):
                assert re.search(r"\d", words.replace(key.split(":", 1)[1], "")), (key, words)
        version = state["version"]
        pick = next(a for a in state["actions"] if a["targets"] and a["targets"][0] in picks)
        tap_action(person.page, pick)
        wait_until(lambda: person.state()["version"] > version,
                   f"the pick {pick['action']} to be taken; the page says {person.page.inner_text('#error')!r} "
                   f"{person.page.inner_text('#choices')!r} {person.page.inner_text('#tapped')!r}")
        picked += 1
    assert picked >= 2, "each player picked by tapping"
    # the hunt: whoever is to act plays a card or moves by tapping, and it counts
    (hunter,) = [p for p in (alice, bob) if p.state()["your_turn"]][:1]
    state = hunter.state()
    tap_action(hunter.page, state["actions"][0])
    wait_until(lambda: hunter.state()["version"] > state["version"], "a hunting move to be taken")
    # each hand is on its holder's page only: the other player's page shows their own panel, a
    # spectator's none, and neither page's words hold the holder's hand
    for holder, others in ((alice, (bob, carol)), (bob, (alice, carol))):
        mine = holder.state()["panel"]
        hand = [r for r in (mine or {}).get("regions", []) if r["key"].startswith("card:")]
        assert hand, f"{holder.user_id} sees their hand"
        for other in others:
            seen = other.state()
            assert seen["panel"] != mine
            their_own = {r["words"] for r in (seen["panel"] or {}).get("regions", [])}
            for card in hand:
                if card["words"] not in their_own:  # a card both hold reads the same, and tells nothing
                    assert card["words"] not in other.text(), (holder.user_id, other.user_id, card["words"])
    assert carol.state()["panel"] is None and carol.page.locator("#panel-section").is_hidden()
