"""Why a well-formed action is refused: the message key (``error.<key>`` in the catalogues)."""

from __future__ import annotations

from collections import Counter

from . import choices, hunt, model, notation
from .board import is_camp, seat_of
from .cards import card, kind_of


def why_illegal(game, state: dict, seat: int, action: str) -> str:
    """The most specific reason among the step, the cards held, the places and the payments."""
    p = notation.parse(action)
    verb = p[0]
    phase = state["phase"]
    s = state["seats"][seat]
    step_of = {"take": "loadout", "equip": "prep", "discard": "prep", "deploy": "prep", "move": "move",
               "skip": "hunt", "flip": "hunt", "hit": "hunt", "def": "hunt", "keep": "keep"}
    if verb == "auto":
        return "mh.same_policy"
    if verb == "take" and phase == "loadout":
        return "mh.bad_sheet"
    if step_of.get(verb) != phase:
        return "mh.not_your_step"
    if phase == "prep":
        stage = s["prep"]["stage"]
        if verb == "equip":
            if stage != "equip":
                return "mh.not_your_step"
            if p[1] not in s["hand"]:
                return "mh.not_in_hand"
            if s["prep"].get(choices.SLOT.get(kind_of(p[1]), "")):
                return "mh.already_equipped"
            if sum(card(m)["material"] for m in p[2]) + choices.trade_in(s['weapon'], s['armour'], p[1]) < card(p[1])["cost"]:
                return "mh.cannot_afford"
            return "mh.not_minimal"
        if verb == "discard":
            if stage not in ("equip", "discard"):
                return "mh.not_your_step"
            if Counter(p[1]) - Counter(s["hand"]):
                return "mh.not_in_hand"
            return "mh.hand_over_6"
        if stage != "deploy":
            return "mh.not_your_step"
        if p[1] is None:
            return "mh.illegal"
        if p[1] not in s["hand"]:
            return "mh.not_in_hand"
        if seat_of(p[2]) != seat:
            return "mh.not_your_area"
        if p[3] is None:
            return "mh.area_full"
        if game._room(state, seat):
            return "mh.sheet_not_full"
        return "mh.not_replaceable"
    if phase == "move":
        if p[1] is None:
            return "mh.camp"
        if is_camp(p[1]):
            return "mh.camp"
        return "mh.out_of_range"
    if phase == "hunt":
        area = hunt.area_of(state, seat)
        wait = area["await"]
        if verb == "def":
            if wait["kind"] != "defend":
                return "mh.not_your_step"
            return "mh.not_in_hand" if Counter(p[1]) - Counter(s["hand"]) else "mh.icon_mismatch"
        if wait["kind"] == "defend":
            return "mh.not_your_step"
        if verb == "skip":
            return "mh.must_attack"
        m = model.monster(state, p[1])
        if m is None or m["area"] != area["area"]:
            return "mh.no_such_monster"
        if verb == "flip":
            return "mh.not_face_down" if m["up"] else "mh.not_your_step"
        if not m["up"]:
            return "mh.not_face_up"
        if wait["kind"] == "cards" and p[1] != wait["target"]:
            return "mh.not_your_step"
        if Counter(p[2]) - Counter(s["hand"]):
            return "mh.not_in_hand"
        if any(kind_of(c) == "weapons" for c in p[2]):
            if any(kind_of(c) == "weapons" and not model.usable_weapon_card(s, c) for c in p[2]):
                return "mh.wrong_weapon_type"
        return "mh.icon_mismatch"
    if phase == "keep":
        return "mh.no_such_monster"
    return "mh.illegal"
