"""Facts for a seat's private panel (5.10), each shown through ``panel.monsterhunter.<type>``.

They are computed from the seat's own view only, so nothing here can leak.
"""

from __future__ import annotations

from . import autopilot, words
from .cards import card


def notes(view: dict) -> list[dict]:
    """Status, hand, own hidden monsters, the decision with its numbers, what ``go`` would play,
    the policies, and whom the game waits for. Cards, monsters and numbers are named in words
    (:mod:`.words`): the images show ids and numbers, the text says what they are."""
    seat = view.get("viewer")
    if seat is None or view.get("outcome") or view["phase"] == "loadout" and not view["me"]["decision"]:
        return []
    me = view["me"]
    mine = view["seats"][seat]
    out: list[dict] = [_note("status", turn=view["turn"], step_phase=view["phase"], hr=mine["hr"],
                             target=view["options"]["hr_target"], retreats=mine["retreats"],
                             deck=me["deck_count"], hand=len(me["hand"]), discard=len(mine["discard"]),
                             material=sum(card(c)["material"] for c in mine["material"]))]
    for cid in me["hand"]:
        out.append(_note("hand", card_card=cid, card=cid, facts=words.card_facts(cid)))
    hidden = [m for m in view["monsters"] if m.get("hidden")]
    if hidden:
        out.append(_note("hidden", monsters=[words.hidden_at(m) for m in hidden]))
    decision = me["decision"]
    if decision:
        params = {k: v for k, v in decision.items() if k != "kind"}
        for key in ("target", "monster"):  # the monster the question is about, as the board draws it
            if key in params:
                params[key] = words.monster_in(view, params[key])
        out.append(_note(f"decision_{decision['kind']}", **params))
        preview = autopilot.suggest(view, None)
        if preview:
            out.append(_note("preview", action=preview, go_choice=preview))
    out.append(_note("policy", **{f"{k}_term": f"{k}_{v}" for k, v in me["policy"].items()}))
    waiting = [s["seat"] for s in view["seats"] if s["acting"] and s["seat"] != seat]
    if waiting:
        out.append(_note("waiting_for", seats=waiting))
    return out


def _note(kind: str, **params) -> dict:
    """A panel note (catalogue key ``panel.monsterhunter.<kind>``)."""
    return dict(params, type=kind)
