"""Why a well-formed action is refused: the message key (``error.<key>`` in the catalogues) and the
params that fill it.

A refusal names the card it is about when the card is the reason (a monster named where a weapon
or armour belongs, say): ``card`` is the id as written, ``name_card`` the same id (the bot words it
by the card's name in the reader's language) and ``kind_term`` its kind (``term.monsterhunter.*``).
Every card id reaching here exists (the notation refuses unknown ids), but nothing else about the
action is trusted: any card may stand in any slot.
"""

from __future__ import annotations

from collections import Counter

from . import choices, hunt, model, notation
from .board import is_camp, seat_of
from .cards import ATTACK_WINDOW, DEFENCE_WINDOW, card, kind_of

STEP_OF = {"take": "loadout", "equip": "prep", "discard": "prep", "deploy": "prep", "move": "move",
           "skip": "hunt", "flip": "hunt", "hit": "hunt", "def": "hunt", "keep": "keep"}
Refusal = tuple[str, dict]


def named(cid: str) -> dict:
    """The params that name a card in a refusal."""
    return {"card": cid, "name_card": cid, "kind_term": kind_of(cid)}


def _missing(have: list[str], cards: list[str]) -> str | None:
    """The first card written more often than ``have`` holds it (a repeat counts), or None."""
    short = Counter(cards) - Counter(have)
    return min(short) if short else None


def _not_held(have: list[str], cards: list[str]) -> Refusal | None:
    short = _missing(have, cards)
    return ("mh.not_in_hand", named(short)) if short else None


def refusal(game, state: dict, seat: int, action: str) -> Refusal:
    """The most specific reason among the step, the kinds of the cards named, the cards held, the
    places and the payments."""
    p = notation.parse(action)
    verb = p[0]
    phase = state["phase"]
    if verb == "auto":
        return ("mh.same_policy", {}) if phase != "loadout" else ("mh.not_your_step", {})
    if STEP_OF.get(verb) != phase:
        return "mh.not_your_step", {}
    if phase == "loadout":
        if kind_of(p[1]) != "hunters":
            return "mh.not_a_hunter", named(p[1])
        return "mh.bad_sheet", {}
    if phase == "prep":
        return _prep(game, state, seat, p)
    if phase == "move":
        return _move(state, state["seats"][seat]["pos"], p[1])
    if phase == "hunt":
        return _hunt(state, seat, p)
    return "mh.no_such_monster", {}  # keep: a monster outside the groups asked about


def _prep(game, state: dict, seat: int, p: tuple) -> Refusal:
    s = state["seats"][seat]
    stage = s["prep"]["stage"]
    verb = p[0]
    if verb == "equip":
        if stage != "equip":
            return "mh.not_your_step", {}
        cid, paid = p[1], p[2]
        if kind_of(cid) not in choices.SLOT:
            return "mh.not_equipment", named(cid)
        if cid not in s["hand"]:
            return "mh.not_in_hand", named(cid)
        if s["prep"].get(choices.SLOT[kind_of(cid)]):
            return "mh.already_equipped", {}
        wrong = next((c for c in paid if kind_of(c) != "monsters"), None)
        if wrong:
            return "mh.not_material", named(wrong)
        short = _missing(s["material"], paid)
        if short:
            return "mh.not_in_material", named(short)
        value = sum(card(m)["material"] for m in paid)
        if value + choices.trade_in(s["weapon"], s["armour"], cid) < card(cid)["cost"]:
            return "mh.cannot_afford", {}
        return "mh.not_minimal", {}
    if verb == "discard":
        if stage not in ("equip", "discard"):
            return "mh.not_your_step", {}
        return _not_held(s["hand"], p[1]) or ("mh.hand_over_6", {})
    if stage != "deploy" or p[1] is None:
        return "mh.not_your_step", {}
    cid, area, replace = p[1], p[2], p[3]
    if kind_of(cid) != "monsters":
        return "mh.not_deployable", named(cid)
    if cid not in s["hand"]:
        return "mh.not_in_hand", named(cid)
    if area not in state["map"]["nodes"]:
        return "mh.no_such_area", {"area": area}
    if seat_of(area) != seat:
        return "mh.not_your_area", {}
    if replace is None:
        return "mh.area_full", {}
    if game._room(state, seat):
        return "mh.sheet_not_full", {}
    old = model.monster(state, replace)
    if old is None or old["area"] != area:
        return "mh.no_such_monster", {}
    return "mh.not_replaceable", {}


def _move(state: dict, here: str, dest: str | None) -> Refusal:
    if dest is None or is_camp(dest):  # a hunter on its camp must leave it (G20)
        return "mh.camp", {}
    if dest not in state["map"]["nodes"]:
        return "mh.no_such_area", {"area": dest}
    if dest == here:
        return "mh.already_there", {"area": dest}
    return "mh.out_of_range", {}


def _hunt(state: dict, seat: int, p: tuple) -> Refusal:
    s = state["seats"][seat]
    verb = p[0]
    area = hunt.area_of(state, seat)
    wait = area["await"]
    if verb == "def":
        if wait["kind"] != "defend":
            return "mh.not_your_step", {}
        return _spent(s, p[1], defending=True)
    if wait["kind"] == "defend":
        return "mh.not_your_step", {}
    if verb == "skip":
        return "mh.must_attack", {}
    m = model.monster(state, p[1])
    if m is None or m["area"] != area["area"]:
        return "mh.no_such_monster", {}
    if verb == "flip":
        return ("mh.not_face_down", {}) if m["up"] else ("mh.not_your_step", {})
    if not m["up"]:
        return "mh.not_face_up", {}
    if wait["kind"] == "cards" and p[1] != wait["target"]:
        return "mh.not_your_step", {}
    return _spent(s, p[2], defending=False)


def _spent(s: dict, cards: list[str], *, defending: bool) -> Refusal:
    """Cards spent in a hit (weapons and attack items) or against a monster's attack (armour and
    defence items): the first card that cannot be, and why."""
    held = _not_held(s["hand"], cards)
    if held:
        return held
    kind, window, other = ("armours", DEFENCE_WINDOW, ATTACK_WINDOW) if defending else \
        ("weapons", ATTACK_WINDOW, DEFENCE_WINDOW)
    for cid in cards:
        if kind_of(cid) not in (kind, "items"):
            return ("mh.not_guard" if defending else "mh.not_boost"), named(cid)
        if kind_of(cid) == "items" and card(cid)["effect"]["kind"] in other:
            return ("mh.attack_item" if defending else "mh.defence_item"), named(cid)
    for cid in cards:
        if kind_of(cid) == "weapons" and not model.usable_weapon_card(s, cid):
            return "mh.wrong_weapon_type", named(cid)
    for cid in cards:
        if kind_of(cid) == "items" and not model.usable_item(s, cid, window):
            return "mh.icon_mismatch", named(cid)
    return "mh.illegal", {}  # every card could be spent: not reached while legal_actions offers them all
