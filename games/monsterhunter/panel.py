"""Facts for a seat's private panel (5.10), each shown through ``panel.monsterhunter.<type>``.

They are computed from the seat's own view only, so nothing here can leak.
"""

from __future__ import annotations

from . import autopilot
from .cards import card


def notes(view: dict) -> list[dict]:
    """Status, hand, own hidden monsters, the decision with its numbers, what ``go`` would play,
    the policies, and whom the game waits for."""
    seat = view.get("viewer")
    if seat is None or view.get("outcome") or view["phase"] == "loadout" and not view["me"]["decision"]:
        return []
    me = view["me"]
    mine = view["seats"][seat]
    out: list[dict] = [_note("status", turn=view["turn"], phase=view["phase"], hr=mine["hr"],
                                   target=view["options"]["hr_target"], retreats=mine["retreats"],
                                   deck=me["deck_count"], hand=len(me["hand"]), discard=len(mine["discard"]),
                                   material=sum(card(c)["material"] for c in mine["material"]))]
    for cid in me["hand"]:
        out.append(_note("hand", card=cid, text=card_text(cid)))
    hidden = [m for m in view["monsters"] if m.get("hidden")]
    if hidden:
        out.append(_note("hidden", monsters=[f"m{m['id']} {m['card']} {m['area']}" for m in hidden]))
    decision = me["decision"]
    if decision:
        params = {k: v for k, v in decision.items() if k != "kind"}
        out.append(_note(f"decision_{decision['kind']}", **params))
        preview = autopilot.suggest(view, None)
        if preview:
            out.append(_note("preview", action=preview))
    out.append(_note("policy", **me["policy"]))
    waiting = [s["seat"] for s in view["seats"] if s["acting"] and s["seat"] != seat]
    if waiting:
        out.append(_note("waiting_for", seats=["ABCD"[s] for s in waiting]))
    return out


def _note(kind: str, **params) -> dict:
    """A panel note (catalogue key ``panel.monsterhunter.<kind>``)."""
    return dict(params, type=kind)


def card_text(cid: str) -> str:
    """The numbers of a card in the images' compact style (6.2): ids and numbers, no words."""
    spec = card(cid)
    kind = spec["kind"]
    if kind == "monsters":
        return f"A{spec['attack']} R{spec['reach']} HP{spec['health']} ★{spec['rank']} mat{spec['material']}"
    if kind == "weapons":
        return f"{spec['type']} A{spec['attack']} M{spec['move']} R{spec['reach']} c{spec['cost']}"
    if kind == "armours":
        return f"D{spec['defence']} c{spec['cost']}"
    if kind == "hunters":
        return f"A{spec['attack']} M{spec['move']} R{spec['reach']}"
    effect = spec["effect"]
    return f"{'/'.join(spec['icons'])}: {effect['kind']}{' ' + str(effect['n']) if 'n' in effect else ''}"
