"""Monster Hunter secrets over many random mid-game states (3 and 4 players).

For every sampled state: no view (public or a seat's) changes when only what that viewer cannot know
is re-dealt (hands, deck orders, face-down identities, pending secret answers, policies:
``scramble_hidden``); no public event names a card that was not public before or after the action
(or revealed by it: used from a hand, milled face up); and a secret answer that does not close its
step produces the same public events whatever the others' hidden cards are.

``MH_LEAK_STATES`` sets how many states are checked (default 2000).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter

from games.base import events_for
from games.monsterhunter.engine import MonsterHunter
from games.rng import Rng

G = MonsterHunter()
STATES = int(os.environ.get("MH_LEAK_STATES", "2000"))
CARD = re.compile(r"\b[AHIMW][0-9]{2}\b")


def public_cards(view: dict) -> set[str]:
    out = set()
    for s in view["seats"]:
        out |= {c for c in (s["hunter"], s["weapon"], s["armour"]) if c} | set(s["discard"]) | set(s["material"])
    out |= {m["card"] for m in view["monsters"] if m["up"]}
    return out


def revealed_by(before: dict, after: dict) -> set[str]:
    """Cards an action shows by moving them: used from a hand, or taken off a deck not into a hand;
    and when it closes the preparation step, every seat's equips and discards of that step (the
    reveal, even if a retreat shuffled those discards back into a deck since)."""
    out = set()
    if before["phase"] == "prep" and after["phase"] != "prep":
        for s in before["seats"]:
            if s["prep"]:
                out |= set(s["prep"]["did"]["equipped"]) | set(s["prep"]["did"]["discarded"])
    for b, a in zip(before["seats"], after["seats"]):
        if a["retreats"] > b["retreats"]:
            out |= set(b["deck"])  # milled face up, then shuffled back with the discard pile
        out |= set(Counter(b["hand"]) - Counter(a["hand"]))
        out |= set(Counter(b["deck"]) - Counter(a["deck"]) - (Counter(a["hand"]) - Counter(b["hand"])))
    return out


def step(state: dict) -> tuple:
    """Which secret step is open: the same before and after an answer that does not close it."""
    areas = (state["hunt"] or {"areas": []})["areas"]
    waits = [(a["area"], a["done"], dict(a["await"] or {}, answers=None)) for a in areas]
    return state["phase"], state["turn"], json.dumps(waits, sort_keys=True), G.outcome(state) is None


def transitions(count: int):
    """(state, seat, action, new_state, events) from random games, alternating 3 and 4 players."""
    seed = 0
    seen = 0
    while seen < count:
        players = 3 + seed % 2
        rng = Rng(1000 + seed)
        opts = {"move_order": "sequential"} if seed % 5 == 4 else {}
        state = G.setup(players, opts, seed)
        while G.outcome(state) is None and seen < count:
            seat = sorted(G.to_act(state))[rng.below(len(G.to_act(state)))]
            actions = G.legal_actions(state, seat)
            action = "go" if rng.below(4) == 0 else rng.choice(actions)
            new, events = G.apply(state, seat, action)
            yield state, seat, action, new, events
            seen += 1
            state = new
        seed += 1


def test_views_and_public_events_hide_what_they_must():
    rng = Rng(99)
    checked = compared = 0
    for state, seat, action, new, events in transitions(STATES):
        for viewer in [None] + list(range(new["players"])):
            view = G.view(new, viewer)
            assert G.view(G.scramble_hidden(new, viewer, rng), viewer) == view, (viewer, action)
        public = events_for(events, None)
        named = set(CARD.findall(json.dumps(public)))
        allowed = public_cards(G.view(state, None)) | public_cards(G.view(new, None)) | revealed_by(state, new)
        assert named <= allowed, (action, named - allowed, public)
        checked += 1
        if not G.action_is_public(action) and step(state) == step(new) and not action.startswith("auto") \
                and action != "go" and state["seats"][seat]["policy"]["disc"] != "none":
            # disc:none lets a seat's own draws decide whether it is asked to deploy (5.4 accepts this).
            other = G.scramble_hidden(state, seat, rng)
            if action in G.legal_actions(other, seat):
                _, events2 = G.apply(other, seat, action)
                assert events_for(events2, None) == public, action
                compared += 1
    assert checked == STATES and compared > STATES // 20


def test_the_scramble_really_changes_hidden_things():
    """The checks above prove something only if scrambling re-deals hands and face-down cards."""
    for state, _, _, new, _ in transitions(300):
        if new["phase"] == "hunt" and any(not m["up"] for m in new["monsters"]):
            break
    hands = {json.dumps([s["hand"] for s in G.scramble_hidden(new, None, Rng(i))["seats"]]) for i in range(10)}
    cards = {json.dumps([m["card"] for m in G.scramble_hidden(new, None, Rng(i))["monsters"]]) for i in range(10)}
    assert len(hands) > 1 and len(cards) > 1
