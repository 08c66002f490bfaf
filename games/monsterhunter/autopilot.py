"""The autopilot (MONSTER_HUNTER.md 5.7) and the heuristic player (5.11): deterministic answers that
read only what the deciding seat may know.

The same functions serve ``go``, the standing policies (``atk:auto``, ``def:none|retreat|block``,
``keep:auto``) and stand-ins. Their inputs are a seat-like dict of the decider's own cards (``hand``,
``hunter``, ``weapon``, ``armour``, ``bonus``) and public facts (face-up monsters as ``{"id", "card",
"damage"}``, face-down ones as ``{"id"}`` only, deck and discard counts), so nothing hidden can leak
into a decision. :func:`suggest` builds those inputs from a seat's own view.
"""

from __future__ import annotations

from collections import Counter

from . import choices, model
from .board import reachable, seat_of
from .cards import card, kind_of, rules, sheets

EVADE_AT = 3  # the heuristic spends an evade item when the damage would be at least this


def _plan_order(cards: list[str]) -> tuple:
    """Fewest cards, then fewest weapon cards, then ascending ids (5.7)."""
    return (len(cards), sum(1 for c in cards if kind_of(c) == "weapons"), cards)


def _attack_boosts(me: dict) -> list[str]:
    return [c for c in model.boost_cards(me) if kind_of(c) != "items" or card(c)["effect"]["kind"] != "draw"]


def kill_plan(me: dict, target: dict, area_up: list[dict], weak_bonus: int) -> list[str] | None:
    """The first card set (5.7 order) whose hit kills ``target`` (by bomb, hit or capture), or None."""
    for combo in sorted(model.sub_multisets(_attack_boosts(me)), key=_plan_order):
        out = model.hit_math(me, target, area_up, combo, weak_bonus)
        if out["killed"] or out["captured"] or target["id"] in out["bombed"]:
            return combo
    return None


def _draw_item(me: dict, deck_count: int) -> list[str]:
    """One usable ``draw`` item when the deck is comfortably full (>= 12 cards)."""
    if deck_count < 12:
        return []
    draws = [c for c in model.boost_cards(me) if kind_of(c) == "items" and card(c)["effect"]["kind"] == "draw"]
    return draws[:1]


def _hit(mid: int, cards: list[str]) -> str:
    return " ".join(["hit", f"m{mid}", *sorted(cards)])


def cards_for(me: dict, target: dict, area_up: list[dict], weak_bonus: int, deck_count: int) -> str:
    """The hit on a fixed target (after a flip): its kill plan or no cards, plus a draw item."""
    plan = kill_plan(me, target, area_up, weak_bonus) or []
    return _hit(target["id"], plan + _draw_item(me, deck_count))


def attack(me: dict, area: list[dict], weak_bonus: int, deck_count: int) -> str:
    """A hunter's whole attack decision on an area (``area``: its monsters, public form). Never skips."""
    up = [m for m in area if m.get("up")]
    plans = []
    for m in up:
        plan = kill_plan(me, m, up, weak_bonus)
        if plan is not None:
            plans.append((-card(m["card"])["rank"], len(plan), m["id"], plan))
    if plans:
        _, _, mid, plan = min(plans)
        return _hit(mid, plan)
    down = sorted(m["id"] for m in area if not m.get("up"))
    if down:
        return f"flip m{down[0]} auto"
    weakest = min(up, key=lambda m: (card(m["card"])["health"] - m["damage"], m["id"]))
    return _hit(weakest["id"], _draw_item(me, deck_count))


def _guard_order(cards: list[str]) -> tuple:
    return (len(cards), sum(1 for c in cards if kind_of(c) == "items"), cards)


def defend(policy: str, me: dict, attack_value: int, deck_count: int, discard_count: int) -> str:
    """``def`` answer for a standing defence policy (5.7), or the heuristic's for ``go``."""
    if policy == "none":
        return "def -"
    combos = sorted(model.sub_multisets(model.guard_cards(me)), key=_guard_order)
    if policy == "go":
        evade = [c for c in model.guard_cards(me) if card(c).get("effect", {}).get("kind") == "evade"]
        bare = model.defence_math(me, attack_value, [], deck_count, discard_count)
        if evade and bare["damage"] >= EVADE_AT:
            return f"def {evade[0]}"
        policy = "retreat"
    if policy == "retreat":
        bare = model.defence_math(me, attack_value, [], deck_count, discard_count)
        if bare["damage"] < deck_count:
            return "def -"
        for combo in combos:
            out = model.defence_math(me, attack_value, combo, deck_count, discard_count)
            if out["damage"] < deck_count + out["recovered"]:
                return "def " + " ".join(combo) if combo else "def -"
        return "def -"
    for combo in combos:  # block
        if model.defence_math(me, attack_value, combo, deck_count, discard_count)["damage"] == 0:
            return "def " + " ".join(combo) if combo else "def -"
    spend = [c for c in model.guard_cards(me) if kind_of(c) == "armours"
             or card(c)["effect"]["kind"] == "defence_up"]
    return "def " + " ".join(spend) if spend else "def -"


def keep(group: list[dict]) -> int:
    """Survivor of a main-target conflict: highest rank, then the latest flip stamp."""
    return max(group, key=lambda m: (card(m["card"])["rank"], m["flipped"] or [0, 0, 0]))["id"]


# ---- the heuristic player outside the hunt (5.11) ---------------------------------------------------
def weapon_value(cid: str | None, hunter: str) -> float:
    spec = card(cid) if cid else card(hunter)
    return spec["attack"] + 0.6 * spec["reach"] + 0.4 * spec["move"]


def loadout(seat: int, sheet_ids: list[str]) -> str:
    """Hunter H0k with k = seat mod 4 + 1, the first sheet, its ready deck (5.11)."""
    return f"take H0{seat % 4 + 1} {sorted(sheet_ids)[0]}"


def equip_choice(legal: list[str], me: dict) -> str | None:
    """The best affordable upgrade among the legal ``equip`` actions (least waste, fewest cards)."""
    equips = [a for a in legal if a.startswith("equip ")]
    current_weapon = weapon_value(me["weapon"], me["hunter"]) + 0.5
    current_armour = card(me["armour"])["defence"] if me["armour"] else 0
    best = None
    for action in equips:
        _, cid, *paid = action.split()
        if kind_of(cid) == "weapons":
            gain = weapon_value(cid, me["hunter"]) - current_weapon
        else:
            gain = card(cid)["defence"] - current_armour
        if gain <= 0:
            continue
        key = (0 if kind_of(cid) == "weapons" else 1, -gain, sum(card(m)["material"] for m in paid), len(paid), paid)
        if best is None or key < best[0]:
            best = (key, action)
    return best[1] if best else None


def _card_value(cid: str, me: dict) -> float:
    spec = card(cid)
    if spec["kind"] == "monsters":
        return 10 + spec["health"] + spec["attack"]
    if spec["kind"] == "weapons":
        return weapon_value(cid, me["hunter"])
    if spec["kind"] == "armours":
        return 2 + spec["defence"]
    return 3


def discard_choice(me: dict, deck_count: int) -> list[str]:
    hand = sorted(me["hand"])
    if deck_count <= 8:
        drop: list[str] = []
    else:
        icons = set(model.stats(me)["items"])
        attack_now = model.stats(me)["attack"]
        drop = [c for c in hand if kind_of(c) == "items" and not icons & set(card(c)["icons"])]
        if me["weapon"]:
            wtype = card(me["weapon"])["type"]
            drop += [c for c in hand if kind_of(c) == "weapons" and card(c)["type"] != wtype
                     and card(c)["attack"] <= attack_now]
        worn = card(me["armour"])["defence"] if me["armour"] else 0
        armour = sorted((c for c in hand if kind_of(c) == "armours" and card(c)["defence"] <= worn),
                        key=lambda c: -card(c)["defence"])
        drop += armour[2:]
        if deck_count > 12 and not any(kind_of(c) == "monsters" for c in hand):
            rest = sorted((c for c in hand if c not in drop), key=lambda c: (_card_value(c, me), c))
            drop += rest[:2]
    keep_ = Counter(hand) - Counter(drop)
    extra = sum(keep_.values()) - rules()["hand_size"]
    if extra > 0:
        rest = sorted(keep_.elements(), key=lambda c: (_card_value(c, me), c))
        drop += rest[:extra]
    return sorted(drop)


def deploy_choice(legal: list[str], view: dict, seat: int) -> str:
    deploys = [a.split() for a in legal if a.startswith("deploy ") and a != "deploy -"]
    if not deploys:
        return "deploy -"
    two = view["map"]["kind"] == "two"
    mons = view["monsters"]
    hunters_at = Counter(s["pos"] for s in view["seats"] if s["seat"] != seat and s["pos"])

    def main_there(area: str) -> bool:
        scope = (lambda m: m["seat"] == seat) if two else (lambda m: m["area"] == area)
        return any(scope(m) and m.get("card") and card(m["card"])["main"] for m in mons)

    def score(parts: list[str]) -> tuple:
        cid, area = parts[1], parts[2]
        spec = card(cid)
        clash = spec["main"] and main_there(area)
        replaced = 0
        if len(parts) == 5:
            rep = next((m for m in mons if f"m{m['id']}" == parts[4]), None)
            replaced = card(rep["card"])["rank"] if rep and rep.get("card") else 0
        return (clash, replaced, hunters_at[area], sum(1 for m in mons if m["area"] == area),
                -(spec["health"] + spec["attack"]), area, cid)

    return " ".join(min(deploys, key=score))


def move_choice(view: dict, seat: int, legal: list[str]) -> str:
    me_seat = view["seats"][seat]
    pos = me_seat["pos"]
    me = _me(view)
    roads = view["map"]["roads"]
    options = [a for a in legal if a.startswith("move ") or a == "stay"]
    weak_bonus = view["options"]["weak_bonus"]
    deck = max(1, view["seats"][seat]["deck_count"])
    defence = me_seat["stats"]["defence"]

    def score(area: str) -> float:
        if seat_of(area) == seat:
            return -0.5
        here = [m for m in view["monsters"] if m["area"] == area]
        value, danger = 0.0, 0.0
        up = [m for m in here if m["up"]]
        for m in here:
            if not m["up"]:
                value += 1.6
                danger += 1.2
                continue
            spec = card(m["card"])
            if kill_plan(me, m, up, weak_bonus) is not None:
                value += 1.5 * spec["rank"]
                if spec["reach"] > me_seat["stats"]["reach"]:
                    danger += max(0, spec["attack"] - defence)
            else:
                value += 0.3
                danger += max(0, spec["attack"] - defence)
        value -= 0.3 * sum(1 for s in view["seats"] if s["seat"] != seat and s["pos"] == area)
        return value - danger * (0.25 + 4 / deck)

    players = len(view["seats"])

    def relative(area: str) -> tuple:
        """Ties go by the sheets' order clockwise from the mover's own, so no seat is favoured."""
        return (seat_of(area) - seat) % players, area[1:]

    scored = []
    for action in options:
        area = pos if action == "stay" else action.split()[1]
        scored.append((score(area), action == "stay", tuple(-x for x in _as_numbers(relative(area))), action))
    best = max(scored)[::3]
    if best[0] > 0.2:
        return best[1]
    # Step toward the nearest other-sheet area that holds monsters.
    targets = {m["area"] for m in view["monsters"] if seat_of(m["area"]) != seat}
    if not targets:
        return best[1]
    far = reachable(roads, pos, 99)
    if pos in targets:
        return "stay" if "stay" in options else best[1]
    goal = min(targets, key=lambda a: (far.get(a, 99), relative(a)))
    steps = []
    for action in options:
        if action == "stay":
            continue
        area = action.split()[1]
        to_goal = 0 if area == goal else reachable(roads, area, 99).get(goal, 99)
        steps.append((to_goal, relative(area), action))
    return min(steps)[2] if steps else best[1]


def _as_numbers(key: tuple) -> tuple:
    return key[0], int(key[1])


def _me(view: dict) -> dict:
    seat = view["viewer"]
    s = view["seats"][seat]
    return {"hand": list(view["me"]["hand"]), "hunter": s["hunter"], "weapon": s["weapon"], "armour": s["armour"],
            "bonus": dict(s["bonus"])}


def candidates(view: dict) -> list[str]:
    """What the seat may choose now, rebuilt from its own view (outside the hunt and K, whose
    answers the heuristic builds itself)."""
    seat = view["viewer"]
    me, mine = view["me"], view["seats"][seat]
    kind = (me.get("decision") or {}).get("kind")
    if kind == "loadout":
        return [loadout(seat, sorted(sheets(("two", "ring")[view["players"] > 2])))]
    if kind in ("equip", "discard"):
        out = choices.discard_actions(me["hand"])
        if kind == "equip":
            out += choices.equip_actions(me["hand"], mine["weapon"], mine["armour"], mine["material"], me["prep"])
        return out
    if kind == "deploy":
        areas = sorted(n for n, spec in view["map"]["nodes"].items() if spec["seat"] == seat and not spec.get("camp"))
        own = [m for m in view["monsters"] if m["area"] in areas]
        return choices.deploy_actions(me["hand"], areas, own, rules()["area_cap"][view["map"]["kind"]])
    if kind == "move":
        return choices.move_actions(view["map"]["roads"], mine["pos"], mine["stats"]["move"])
    return []


def suggest(view: dict, legal: list[str] | None) -> str | None:
    """The heuristic's answer for the seat whose view this is (``go``), chosen among ``legal``
    (without ``legal``, a panel preview, among the candidates its view allows)."""
    seat = view.get("viewer")
    if seat is None or view.get("outcome"):
        return None
    decision = view["me"].get("decision") or {}
    kind = decision.get("kind")
    if legal is None:
        legal = candidates(view) if kind not in ("attack", "cards", "defend", "keep") else None
    real = None if legal is None else [a for a in legal if a != "go" and not a.startswith("auto ")]
    if real == []:
        return None
    answer = None
    if kind == "loadout":
        answer = loadout(seat, sorted({a.split()[2] for a in real if "~" not in a}))
    elif kind in ("attack", "cards", "defend", "keep"):
        me = _me(view)
        deck = view["seats"][seat]["deck_count"]
        wb = view["options"]["weak_bonus"]
        area = [m for m in view["monsters"] if m["area"] == decision.get("area")]
        up = [m for m in area if m["up"]]
        if kind == "attack":
            answer = attack(me, area, wb, deck)
        elif kind == "cards":
            target = next(m for m in up if m["id"] == decision["target"])
            answer = cards_for(me, target, up, wb, deck)
        elif kind == "defend":
            answer = defend("go", me, decision["attack"], deck, len(view["seats"][seat]["discard"]))
        else:
            group = next(g for g in view["keep"]["groups"] if g["seat"] == seat and not g["answered"])
            answer = f"keep m{keep([m for m in view['monsters'] if m['id'] in group['monsters']])}"
    elif kind == "equip":
        me = _me(view)
        answer = equip_choice(real, me) or "discard " + (
            " ".join(discard_choice(me, view["seats"][seat]["deck_count"])) or "-")
    elif kind == "discard":
        me = _me(view)
        answer = "discard " + (" ".join(discard_choice(me, view["seats"][seat]["deck_count"])) or "-")
    elif kind == "deploy":
        answer = deploy_choice(real, view, seat)
    elif kind == "move":
        answer = move_choice(view, seat, real)
    if real is None or answer in real:
        return answer
    return real[0]


__all__ = ["attack", "cards_for", "defend", "keep", "kill_plan", "suggest"]
