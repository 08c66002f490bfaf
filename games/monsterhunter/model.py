"""Small shared pieces of the Monster Hunter state: derived stats, card moves, retreats, HR and wins.

Everything here reads or changes the plain state dict of :mod:`games.monsterhunter.engine`; nothing
is stored that can be derived (stats, distances, legal actions).
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from ..base import Outcome
from ..rng import Rng
from .board import is_camp, node, seat_of
from .cards import ATTACK_WINDOW, DEFENCE_WINDOW, card, kind_of, rules

POLICY_DEFAULT = {"atk": "ask", "def": "ask", "keep": "ask", "disc": "ask"}
POLICY_VALUES = {"atk": ("ask", "auto"), "def": ("ask", "none", "retreat", "block"), "keep": ("ask", "auto"),
                 "disc": ("ask", "none")}


# ---- derived numbers ---------------------------------------------------------------------------------
def stats(seat: dict) -> dict:
    """Current attack, move, reach, item icons and weapon type (an equipped weapon overwrites the hunter,
    R138) and defence (equipped armour or 0, R123/R144), without the turn bonuses."""
    base = card(seat["weapon"]) if seat["weapon"] else card(seat["hunter"])
    return {"attack": base["attack"], "move": base["move"], "reach": base["reach"],
            "items": list(base["items"]), "type": base.get("type"),
            "defence": card(seat["armour"])["defence"] if seat["armour"] else 0}


def attack_now(seat: dict) -> int:
    return stats(seat)["attack"] + seat["bonus"]["attack"]


def defence_now(seat: dict) -> int:
    return stats(seat)["defence"] + seat["bonus"]["defence"]


def usable_item(seat: dict, cid: str, window: tuple[str, ...]) -> bool:
    """An item whose icons meet the hunter's (or its weapon's) icons, in this window (R118, G47, G48)."""
    spec = card(cid)
    return (spec["kind"] == "items" and spec["effect"]["kind"] in window
            and bool(set(spec["icons"]) & set(stats(seat)["items"])))


def usable_weapon_card(seat: dict, cid: str) -> bool:
    """A weapon card spent for +1: same icon as the equipped weapon, any when unequipped (R100, R101)."""
    if kind_of(cid) != "weapons":
        return False
    return seat["weapon"] is None or card(cid)["type"] == card(seat["weapon"])["type"]


def boost_cards(seat: dict) -> list[str]:
    """Hand cards usable in an attack (sorted, repeats kept)."""
    return sorted(c for c in seat["hand"] if usable_weapon_card(seat, c) or usable_item(seat, c, ATTACK_WINDOW))


def guard_cards(seat: dict) -> list[str]:
    """Hand cards usable against a monster's attack: armour and defence-window items (R74, R146)."""
    return sorted(c for c in seat["hand"] if kind_of(c) == "armours" or usable_item(seat, c, DEFENCE_WINDOW))


def sub_multisets(cards: list[str]) -> list[list[str]]:
    """Every sub-multiset of a card list, each sorted; the empty one first."""
    counts = sorted(Counter(cards).items())
    out = []
    for picks in product(*(range(n + 1) for _, n in counts)):
        out.append([cid for (cid, _), k in zip(counts, picks) for _ in range(k)])
    out.sort(key=lambda combo: (len(combo), combo))
    return out


# ---- seats, order, places -----------------------------------------------------------------------------
def option(state: dict, name: str):
    return state["options"][name]


def alive(state: dict) -> list[int]:
    return [s for s in range(state["players"]) if not state["seats"][s]["retired"]]


def parent_order(state: dict) -> list[int]:
    """Non-retired seats clockwise from the current parent (R36)."""
    n = state["players"]
    return [s for s in ((state["parent"] + i) % n for i in range(n)) if not state["seats"][s]["retired"]]


def place(state: dict, seat: int) -> int:
    """A seat's place clockwise from the parent (retired seats keep their place in the count)."""
    return (seat - state["parent"]) % state["players"]


def camp(seat: int) -> str:
    return node(seat, 0)


def own_areas(state: dict, seat: int) -> list[str]:
    return sorted(n for n, spec in state["map"]["nodes"].items() if spec["seat"] == seat and not spec.get("camp"))


def area_cap(state: dict) -> int:
    return rules()["area_cap"][state["map"]["kind"]]


def monsters_on(state: dict, area: str) -> list[dict]:
    return [m for m in state["monsters"] if m["area"] == area]


def monster(state: dict, mid: int) -> dict | None:
    return next((m for m in state["monsters"] if m["id"] == mid), None)


def health_left(m: dict) -> int:
    """A face-up monster's health after the damage it has taken."""
    return max(0, card(m["card"])["health"] - m["damage"])


def ignored(state: dict, seat: int) -> bool:
    """A hunter the hunt ignores: retired, on a camp, or on its own sheet (R54, G22, G29)."""
    pos = state["seats"][seat]["pos"]
    return state["seats"][seat]["retired"] or pos is None or is_camp(pos) or seat_of(pos) == seat


def hunters_on(state: dict, area: str) -> list[int]:
    """Hunters the hunt counts on an area, in parent order."""
    return [s for s in parent_order(state) if state["seats"][s]["pos"] == area and not ignored(state, s)]


# ---- cards moving -----------------------------------------------------------------------------------
def retreat(state: dict, seat: int, events: list) -> None:
    """The deck ran out: retreats +1, the discard pile becomes the new deck, the hunter goes home
    (R78, G30). Hand, equipment, material and bonuses are kept."""
    s = state["seats"][seat]
    s["retreats"] += 1
    rng = Rng(state["rng"])
    s["deck"] = rng.shuffled(s["discard"])
    state["rng"] = rng.state
    s["discard"] = []
    s["result_discards"] = 0
    s["pos"] = camp(seat)
    events.append({"type": "retreated", "seat": seat, "count": s["retreats"]})


def take(state: dict, seat: int, dest: str, events: list) -> str | None:
    """Move the deck's top card to ``hand`` or ``discard``; retreat the moment the deck empties (G13,
    G30). An empty deck with an empty discard pile gives nothing (G31)."""
    s = state["seats"][seat]
    if not s["deck"]:
        if not s["discard"]:
            return None
        retreat(state, seat, events)
    cid = s["deck"].pop(0)
    if dest == "hand":
        s["hand"].append(cid)
        s["hand"].sort()
    else:
        s["discard"].append(cid)
    if not s["deck"]:
        retreat(state, seat, events)
    return cid


def draw(state: dict, seat: int, n: int, events: list) -> list[str]:
    drawn = []
    for _ in range(n):
        cid = take(state, seat, "hand", events)
        if cid is None:
            break
        drawn.append(cid)
    return drawn


def mill(state: dict, seat: int, n: int, events: list) -> list[str]:
    """Player damage: discard ``n`` cards from the deck, card by card (R77). The milled cards are
    public (face up); the rest of the damage is lost at a retreat unless O:overflow=carry (G32)."""
    s = state["seats"][seat]
    milled: list[str] = []
    for _ in range(n):
        before, mark = s["retreats"], len(events)
        cid = take(state, seat, "discard", events)
        if cid is None:
            break
        milled.append(cid)
        if s["retreats"] != before:
            events.insert(mark, {"type": "milled", "seat": seat, "milled_cards": milled, "count": len(milled)})
            milled = []
            if option(state, "overflow") == "lost":
                break
    if milled:
        events.append({"type": "milled", "seat": seat, "milled_cards": milled, "count": len(milled)})
    return milled


def discard_from_hand(state: dict, seat: int, cards: list[str]) -> None:
    s = state["seats"][seat]
    for cid in cards:
        s["hand"].remove(cid)
        s["discard"].append(cid)


def remove_monster(state: dict, m: dict, pile: str, events: list | None = None) -> None:
    """A monster leaves the map: to its owner's ``material`` (a kill) or ``discard`` pile."""
    state["monsters"].remove(m)
    owner = state["seats"][m["seat"]]
    if pile == "material":
        owner["material"].append(m["card"])
        owner["material"].sort()
    else:
        owner["discard"].append(m["card"])


# ---- HR and the end -------------------------------------------------------------------------------
def finish(state: dict, winners: list[int], reason: str, events: list) -> None:
    state["outcome"] = Outcome(tuple(sorted(winners)), reason).to_json()
    state["phase"] = "over"
    state["hunt"] = None
    state["keep"] = None
    # one line for the win, shared or not (two "🎉 … wins!" lines read as two winners of their own)
    events.append({"type": "won", "seats": sorted(winners), "count": len(winners), "reason": reason})


def hr_win(state: dict, events: list) -> bool:
    """End the game if a non-retired player has HR >= target: the highest wins, ties share (G7)."""
    target = option(state, "hr_target")
    over = [s for s in alive(state) if state["seats"][s]["hr"] >= target]
    if not over:
        return False
    best = max(state["seats"][s]["hr"] for s in over)
    finish(state, [s for s in over if state["seats"][s]["hr"] == best], "hr", events)
    return True


def check_hr(state: dict, events: list) -> bool:
    """The immediate win check after a step that changed HR (G6); off with O:win_check=result."""
    return option(state, "win_check") == "immediate" and hr_win(state, events)


def retire(state: dict, seat: int, events: list) -> None:
    """Out of the game (G58): hunter off the map; with O:retired_sheet=clear its monsters go to its
    discard pile (no HR, no material)."""
    s = state["seats"][seat]
    s["retired"] = True
    s["pos"] = None
    s["move"] = None
    s["prep"] = None
    events.append({"type": "retired", "seat": seat})
    if option(state, "retired_sheet") == "clear":
        for m in sorted((m for m in state["monsters"] if m["seat"] == seat), key=lambda m: m["id"]):
            remove_monster(state, m, "discard")


# ---- the arithmetic of one hit (3.3), shared by the engine and the autopilot ------------------------
def hit_math(seat: dict, target: dict, area_up: list[dict], cards: list[str], weak_bonus: int) -> dict:
    """What ``hit target cards`` does, without changing anything.

    ``target`` and ``area_up`` are face-up monsters ``{"id", "card", "damage"}`` (``area_up`` includes
    the target). Returns the new turn attack bonus, the bomb size, whether the weak bonus applied,
    the hit's damage (0 if the bomb already killed the target), the ids killed by the bomb (in
    instance order), whether the hit killed, whether a capture killed, and the target's damage after.
    """
    effects = [card(c)["effect"] for c in cards if kind_of(c) == "items"]
    plus = sum(1 for c in cards if kind_of(c) == "weapons")
    plus += sum(e["n"] for e in effects if e["kind"] == "attack_up")
    bonus = seat["bonus"]["attack"] + plus
    bomb = sum(e["n"] for e in effects if e["kind"] == "bomb")
    bombed = []
    if bomb:
        for m in sorted(area_up, key=lambda m: m["id"]):
            if m["damage"] + bomb >= card(m["card"])["health"]:
                bombed.append(m["id"])
    spec = card(target["card"])
    damage = target["damage"] + bomb
    out = {"bonus": bonus, "bomb": bomb, "bombed": bombed, "weak": False, "damage": 0, "killed": False,
           "captured": False, "left": max(0, spec["health"] - damage)}
    if target["id"] in bombed:
        return out  # the hit is lost (3.3 bomb)
    matches = spec["weak"] and (stats(seat)["type"] in spec["weak"]
                                or any(e["kind"] == "weak_hit" for e in effects))
    out["weak"] = bool(matches and weak_bonus)
    out["damage"] = stats(seat)["attack"] + bonus + (weak_bonus if matches else 0)
    damage += out["damage"]
    out["left"] = max(0, spec["health"] - damage)
    if damage >= spec["health"]:
        out["killed"] = True
    else:
        cap = max([e["n"] for e in effects if e["kind"] == "capture"], default=0)
        out["captured"] = cap > 0 and spec["health"] - damage <= cap
    return out


def defence_math(seat: dict, attack: int, cards: list[str], deck: int, discard: int) -> dict:
    """What ``def cards`` does against ``attack``: recovered cards, the new defence bonus, the damage
    milled (3.3 def order)."""
    effects = [card(c)["effect"] for c in cards if kind_of(c) == "items"]
    recovered = min(discard, sum(e["n"] for e in effects if e["kind"] == "recover"))
    bonus = seat["bonus"]["defence"] + sum(1 for c in cards if kind_of(c) == "armours")
    bonus += sum(e["n"] for e in effects if e["kind"] == "defence_up")
    defence = stats(seat)["defence"] + bonus
    evade = any(e["kind"] == "evade" for e in effects)
    damage = 0 if evade else max(0, attack - defence)
    return {"recovered": recovered, "bonus": bonus, "defence": defence, "evade": evade, "damage": damage,
            "deck_after": deck + recovered - damage}
