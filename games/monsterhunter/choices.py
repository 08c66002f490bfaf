"""The candidate actions of the preparation and move steps, from plain data.

The engine calls these on its state and the autopilot on a seat's own view (for the panel's
"``go`` would play ..." line), so both always agree on what can be chosen.
"""

from __future__ import annotations

from . import model
from .board import is_camp, reachable
from .cards import card, kind_of, rules

SLOT = {"weapons": "weapon", "armours": "armour"}  # card kind -> the hunter's zone for it


def trade_in(weapon: str | None, armour: str | None, cid: str) -> int:
    """The old card's cost: a weapon of the same icon (R108), any armour (R110)."""
    if kind_of(cid) == "weapons":
        return card(weapon)["cost"] if weapon and card(weapon)["type"] == card(cid)["type"] else 0
    return card(armour)["cost"] if armour else 0


def minimal_payments(material: list[str], need: int) -> list[list[str]]:
    """Material multisets whose value reaches ``need`` and from which no card can be dropped (G60)."""
    if need <= 0:
        return [[]]
    out = []
    for combo in model.sub_multisets(material):
        if not combo:
            continue
        values = [card(c)["material"] for c in combo]
        if sum(values) >= need and sum(values) - min(values) < need:
            out.append(combo)
    return out


def equip_actions(hand: list[str], weapon, armour, material: list[str], done: dict) -> list[str]:
    """Each distinct weapon/armour card in hand of a kind not equipped this step (``done``: zone ->
    bool), with each minimal payment; the trade-in applies whenever allowed (G61)."""
    out = []
    for cid in sorted(set(hand)):
        kind = kind_of(cid)
        if kind not in SLOT or done.get(SLOT[kind]):
            continue
        need = card(cid)["cost"] - trade_in(weapon, armour, cid)
        out += [" ".join(["equip", cid, *pay]) for pay in minimal_payments(material, need)]
    return out


def discard_actions(hand: list[str]) -> list[str]:
    """Every hand discard that leaves 6 or fewer cards (R38)."""
    keep = rules()["hand_size"]
    return ["discard " + (" ".join(c) if c else "-") for c in model.sub_multisets(hand) if len(hand) - len(c) <= keep]


def room(areas: list[str], monsters: list[dict], cap: int) -> list[str]:
    return [a for a in areas if sum(1 for m in monsters if m["area"] == a) < cap]


def replaceable(areas: list[str], monsters: list[dict], cap: int) -> list[dict]:
    """Face-up monsters without the main-target icon on a full own sheet (R45, R46, G14)."""
    if room(areas, monsters, cap):
        return []
    return [m for m in monsters if m["area"] in areas and m["up"] and not card(m["card"])["main"]]


def deploy_actions(hand: list[str], areas: list[str], monsters: list[dict], cap: int) -> list[str]:
    mons = sorted({c for c in hand if kind_of(c) == "monsters"})
    out = [f"deploy {c} {a}" for c in mons for a in room(areas, monsters, cap)]
    out += [f"deploy {c} {m['area']} x m{m['id']}" for c in mons for m in replaceable(areas, monsters, cap)]
    return out + ["deploy -"]


def move_actions(roads: list[list[str]], pos: str, move: int) -> list[str]:
    """Areas within the movement (G19); ``stay`` unless on a camp (R50, G20)."""
    out = [f"move {a}" for a in sorted(reachable(roads, pos, move))]
    return out if is_camp(pos) else ["stay"] + out
