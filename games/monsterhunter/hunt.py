"""The hunt phase (MONSTER_HUNTER.md 5.6): which areas are hunted in what order, the actors' order
inside an area, a hunter's attack (flip, interrupt, hit with cards), a monster's attack and the
defenders' simultaneous answers, kills and the immediate win check.

Areas are hunted in parallel (5.5, 5.6): each hunter and each monster is in one area, and a seat's
hand, deck, discard pile and HR change only in its hunter's area, so the areas are independent;
only the order of wins matters, and it is kept exactly: a seat whose HR reaches the target records
a *crossing* ``[area rank, step, seat]``; areas ranked at or after the earliest crossing freeze (they
advance and ask nothing), and the game ends when every area ranked before it is done — what the
book's area-by-area order with an immediate win check gives (G6).

``state["hunt"]["areas"]``: one entry per hunted area ``{"area", "rank", "step", "done", "acted",
"current", "await"}``; ``await`` is ``{"kind": "attack", "seat"}``, ``{"kind": "cards", "seat",
"target"}`` or ``{"kind": "defend", "monster", "attack", "targets", "seats", "answers"}``
(``seats``: the defenders asked; ``answers``: seat (str) -> ``def`` action, secret until all are in).
Actor names: ``s<seat>`` a hunter, ``m<id>`` a monster.
"""

from __future__ import annotations

from . import autopilot, model
from . import words as wording
from .cards import card


# ---- order ----------------------------------------------------------------------------------------
def hunter_key(state: dict, seat: int) -> tuple:
    """Reach descending, hunters before monsters on equal reach, then parent order (G35)."""
    return (-model.stats(state["seats"][seat])["reach"], 0, model.place(state, seat))


def monster_key(m: dict) -> tuple:
    return (-card(m["card"])["reach"], 1, m["id"])


def area_order(state: dict, area: str) -> list[str]:
    """Every actor of an area (non-ignored hunters and face-up monsters), in acting order."""
    actors = [(hunter_key(state, s), f"s{s}") for s in model.hunters_on(state, area)]
    actors += [(monster_key(m), f"m{m['id']}") for m in model.monsters_on(state, area) if m["up"]]
    return [name for _, name in sorted(actors)]


def start(state: dict, events: list) -> None:
    """Open the hunt: areas with a monster and a counted hunter, sorted by (best hunter reach
    descending, the owner's place in parent order, the area number) (R57, G34)."""
    keys = []
    for area, spec in state["map"]["nodes"].items():
        if spec.get("camp") or not model.monsters_on(state, area):
            continue
        hunters = model.hunters_on(state, area)
        if hunters:
            best = max(model.stats(state["seats"][s])["reach"] for s in hunters)
            keys.append(((-best, model.place(state, spec["seat"]), spec["area"]), area))
    areas = [area for _, area in sorted(keys)]
    state["phase"] = "hunt"
    state["hunt"] = {"areas": [{"area": a, "rank": i, "step": 0, "done": False, "started": False, "acted": [],
                                "current": None, "await": None} for i, a in enumerate(areas)],
                     "crossings": [], "freeze_from": None}
    # no area with a monster and a hunter: say so, rather than an empty order ("Hunt order: -.")
    events.append({"type": "hunt_order", "areas": areas, "count": len(areas)} if areas else {"type": "no_hunt"})


def frozen(state: dict, area: dict) -> bool:
    cut = state["hunt"]["freeze_from"]
    return cut is not None and area["rank"] >= cut


def active_areas(state: dict) -> list[dict]:
    """Areas still being hunted and not frozen, in rank order."""
    hunt = state.get("hunt")
    if not hunt:
        return []
    return [a for a in hunt["areas"] if not a["done"] and not frozen(state, a)]


def waiting_seats(area: dict) -> set[int]:
    wait = area["await"]
    if not wait:
        return set()
    if wait["kind"] == "defend":
        return {s for s in wait["seats"] if str(s) not in wait["answers"]}
    return {wait["seat"]}


def area_of(state: dict, seat: int) -> dict | None:
    """The area whose hunt waits on this seat (a seat's hunter is in one area only)."""
    return next((a for a in active_areas(state) if seat in waiting_seats(a)), None)


def defend_area(state: dict, seat: int) -> dict | None:
    """The area whose open defence round asked this seat (answered or not)."""
    return next((a for a in active_areas(state) if a["await"] and a["await"]["kind"] == "defend"
                 and seat in a["await"]["seats"]), None)


def advance(state: dict, events: list) -> bool:
    """Run every area as far as it goes without a player; True when the hunt is over (every area
    done and no win), so the result phase follows."""
    while state["outcome"] is None:
        progressed = False
        for area in active_areas(state):
            wait = area["await"]
            if wait and wait["kind"] == "defend" and not waiting_seats(area):
                resolve_defence(state, area, events)
                progressed = True
            while not area["done"] and area["await"] is None and not frozen(state, area) and state["outcome"] is None:
                _step_area(state, area, events)
                progressed = True
            if state["outcome"] is not None:
                return False
        if decide_crossings(state, events):
            return False
        if not progressed:
            break
    return state["outcome"] is None and not active_areas(state)


def decide_crossings(state: dict, events: list) -> bool:
    """End the game when the earliest crossing can no longer be beaten by an earlier area."""
    crossings = state["hunt"]["crossings"]
    if not crossings:
        return False
    rank, _, seat = min(crossings)
    if all(a["done"] for a in state["hunt"]["areas"] if a["rank"] < rank):
        model.finish(state, [seat], "hr", events)
        return True
    return False


def _crossing(state: dict, area: dict, seat: int) -> None:
    """O:win_check=immediate: the seat's HR reached the target in this area (its only area)."""
    if model.option(state, "win_check") != "immediate":
        return
    if state["seats"][seat]["hr"] >= model.option(state, "hr_target"):
        hunt = state["hunt"]
        hunt["crossings"].append([area["rank"], area["step"], seat])
        cut = hunt["freeze_from"]
        hunt["freeze_from"] = area["rank"] if cut is None else min(cut, area["rank"])


def _public_area(state: dict, area: str) -> list[dict]:
    """An area's monsters as the hunters see them (face-down cards hidden)."""
    return [{"id": m["id"], "up": True, "card": m["card"], "damage": m["damage"]} if m["up"]
            else {"id": m["id"], "up": False} for m in model.monsters_on(state, area)]


def _step_area(state: dict, area: dict, events: list) -> None:
    """Let the next actor of this area act (or close the area)."""
    name = area["area"]
    if not area["started"]:
        area["started"] = True
        events.append({"type": "area_start", "area": name, "rank": area["rank"] + 1,
                       "order": [wording.actor(state, a) for a in area_order(state, name)]})
    hunters = model.hunters_on(state, name)
    monsters = model.monsters_on(state, name)
    if not hunters or not monsters:
        area["done"], area["current"] = True, None
        return
    actors = [(hunter_key(state, s), f"s{s}") for s in hunters if f"s{s}" not in area["acted"]]
    actors += [(monster_key(m), f"m{m['id']}") for m in monsters if m["up"] and f"m{m['id']}" not in area["acted"]]
    if not actors:
        area["done"], area["current"] = True, None
        return
    actor = min(actors)[1]
    area["current"] = actor
    if actor[0] == "m":
        monster_attack(state, area, model.monster(state, int(actor[1:])), events)
    else:
        hunter_turn(state, area, int(actor[1:]), events)


# ---- a hunter's attack ------------------------------------------------------------------------------
def hunter_turn(state: dict, area: dict, seat: int, events: list) -> None:
    s = state["seats"][seat]
    monsters = model.monsters_on(state, area["area"])
    if s["policy"]["atk"] == "auto":
        choice = autopilot.attack(s, _public_area(state, area["area"]), model.option(state, "weak_bonus"),
                                  len(s["deck"]))
        apply_attack(state, area, seat, choice.split(), events)
    elif not s["hand"] and len(monsters) == 1 and monsters[0]["up"]:
        # Public information leaves one answer: an empty hand against one face-up monster (5.4).
        apply_attack(state, area, seat, ["hit", f"m{monsters[0]['id']}"], events)
    else:
        area["await"] = {"kind": "attack", "seat": seat}


def attack_actions(state: dict, area: dict, seat: int) -> list[str]:
    """``skip`` (only when every monster there is face down, G39), ``flip`` forms, ``hit`` forms."""
    s = state["seats"][seat]
    monsters = model.monsters_on(state, area["area"])
    out = [] if any(m["up"] for m in monsters) else ["skip"]
    combos = model.sub_multisets(model.boost_cards(s))
    for m in monsters:
        if m["up"]:
            out += [" ".join(["hit", f"m{m['id']}", *c]) for c in combos]
        else:
            out += [f"flip m{m['id']}", f"flip m{m['id']} auto", f"flip m{m['id']} -"]
    return out


def cards_actions(state: dict, seat: int, target: int) -> list[str]:
    combos = model.sub_multisets(model.boost_cards(state["seats"][seat]))
    return [" ".join(["hit", f"m{target}", *c]) for c in combos]


def defend_actions(state: dict, seat: int) -> list[str]:
    combos = model.sub_multisets(model.guard_cards(state["seats"][seat]))
    return ["def " + (" ".join(c) if c else "-") for c in combos]


def apply_attack(state: dict, area: dict, seat: int, words: list[str], events: list) -> None:
    """Apply ``skip`` / ``flip m<id> [auto|-]`` / ``hit m<id> cards`` for the hunter whose turn it is."""
    area["await"] = None
    if words[0] == "skip":
        events.append({"type": "declined", "seat": seat, "area": area["area"]})
        area["acted"].append(f"s{seat}")
        return
    m = model.monster(state, int(words[1][1:]))
    if words[0] == "hit":
        resolve_hit(state, area, seat, m, words[2:], events)
        return
    mode = (words + ["ask"])[2]  # flip m<id> [auto|-]; plain flip asks for the cards
    m["up"] = True
    m["flipped"] = [state["turn"], area["rank"], area["step"]]
    area["step"] += 1
    spec = card(m["card"])
    events.append({"type": "flipped", "seat": seat, "id": m["id"], "monster_card": m["card"], "reach": spec["reach"]})
    s = state["seats"][seat]
    if spec["reach"] > model.stats(s)["reach"]:
        # R64/G40: the monster cuts in; the hunter's attack starts again later from the target choice.
        events.append({"type": "interrupt", "seat": seat, "id": m["id"], "monster_card": m["card"]})
        return
    if mode == "-" or (mode == "ask" and not s["hand"]):
        resolve_hit(state, area, seat, m, [], events)
    elif mode == "auto" or s["policy"]["atk"] == "auto":
        up = [x for x in _public_area(state, area["area"]) if x["up"]]
        target = next(x for x in up if x["id"] == m["id"])
        choice = autopilot.cards_for(s, target, up, model.option(state, "weak_bonus"), len(s["deck"]))
        resolve_hit(state, area, seat, m, choice.split()[2:], events)
    else:
        area["await"] = {"kind": "cards", "seat": seat, "target": m["id"]}


def kill(state: dict, m: dict, seat: int, events: list, how: str) -> None:
    """R69-R71: the killer's player gains the rank in HR, the owner gains the card as material."""
    s = state["seats"][seat]
    model.remove_monster(state, m, "material")
    rank = card(m["card"])["rank"]
    s["hr"] += rank
    events.append({"type": how, "seat": seat, "id": m["id"], "monster_card": m["card"], "owner": m["seat"],
                   "area": m["area"], "rank": rank, "hr": s["hr"]})


def resolve_hit(state: dict, area: dict, seat: int, target: dict, cards: list[str], events: list) -> None:
    """3.3: cards to the discard pile, bonuses, bombs, the hit, kill or capture, draws. Each event
    follows the change it reports, in this order, so the health a hit leaves already counts the
    bombs announced before it."""
    s = state["seats"][seat]
    up = [m for m in model.monsters_on(state, area["area"]) if m["up"]]
    out = model.hit_math(s, target, up, cards, model.option(state, "weak_bonus"))
    model.discard_from_hand(state, seat, cards)
    s["bonus"]["attack"] = out["bonus"]
    if out["bomb"]:
        _bomb(state, area, seat, up, out, events)
    if target["id"] in out["bombed"]:
        # 3.3: the bombs land first; the hit has nothing left to strike.
        events.append({"type": "hit_lost", "seat": seat, "id": target["id"], "monster_card": target["card"],
                       "used_cards": cards})
    else:
        target["damage"] += out["damage"]
        events.append({"type": "hit", "seat": seat, "id": target["id"], "monster_card": target["card"],
                       "used_cards": cards, "attack": out["damage"], "weak": out["weak"],
                       "left": model.health_left(target)})
        if out["killed"] or out["captured"]:
            kill(state, target, seat, events, "killed" if out["killed"] else "captured")
            area["step"] += 1
    n = sum(card(c)["effect"]["n"] for c in cards if card(c)["kind"] == "items" and card(c)["effect"]["kind"] == "draw")
    if n:
        drawn = model.draw(state, seat, n, events)
        events.append({"type": "drew", "drawn_cards": drawn, "to": [seat]})
        events.append({"type": "draw_count", "seat": seat, "count": len(drawn)})
    area["acted"].append(f"s{seat}")
    area["step"] += 1
    _crossing(state, area, seat)


def _bomb(state: dict, area: dict, seat: int, up: list[dict], out: dict, events: list) -> None:
    """The bombs of a hit: their damage to every face-up monster of the area, then the kills."""
    events.append({"type": "bomb", "seat": seat, "area": area["area"], "n": out["bomb"]})
    for m in up:
        m["damage"] += out["bomb"]
    for mid in out["bombed"]:
        kill(state, model.monster(state, mid), seat, events, "killed")
        area["step"] += 1


# ---- a monster's attack -------------------------------------------------------------------------------
def monster_attack(state: dict, area: dict, m: dict, events: list) -> None:
    """R72-R77: every counted hunter there is hit; those with a real choice are asked together (G49).
    A defender is asked when the bare damage is >= 1, its hand is not empty and its policy is
    ``def:ask`` (never on what its hand holds, 5.4); other policies answer now, secretly."""
    attack = card(m["card"])["attack"]
    targets = model.hunters_on(state, area["area"])
    events.append({"type": "monster_attack", "id": m["id"], "monster_card": m["card"], "attack": attack,
                   "target_seats": list(targets)})
    asked, answers = [], {}
    for t in targets:
        s = state["seats"][t]
        bare = max(0, attack - model.defence_now(s))
        if bare >= 1 and s["hand"] and s["policy"]["def"] == "ask":
            asked.append(t)
        elif bare >= 1 and s["hand"]:
            answers[str(t)] = autopilot.defend(s["policy"]["def"], s, attack, len(s["deck"]), len(s["discard"]))
        else:
            answers[str(t)] = "def -"
    area["await"] = {"kind": "defend", "monster": m["id"], "attack": attack, "targets": targets, "seats": asked,
                     "answers": answers}
    if not asked:
        resolve_defence(state, area, events)


def resolve_defence(state: dict, area: dict, events: list) -> None:
    """Every target in parent order, per 3.3: recover, cards to the discard, bonuses, mill, retreat."""
    wait = area["await"]
    for t in wait["targets"]:
        s = state["seats"][t]
        if s["retired"] or str(t) not in wait["answers"]:
            continue  # resigned meanwhile (G59)
        words = wait["answers"][str(t)].split()[1:]
        cards = [] if words == ["-"] else words
        out = model.defence_math(s, wait["attack"], cards, len(s["deck"]), len(s["discard"]))
        recovered = [s["discard"].pop() for _ in range(out["recovered"])]
        s["deck"].extend(recovered)
        model.discard_from_hand(state, t, cards)
        s["bonus"]["defence"] = out["bonus"]
        events.append({"type": "defended", "seat": t, "used_cards": cards, "defence": out["defence"],
                       "damage": out["damage"], "evade": out["evade"], "recovered": len(recovered)})
        if out["damage"]:
            model.mill(state, t, out["damage"], events)
    area["acted"].append(f"m{wait['monster']}")
    area["await"] = None
    area["step"] += 1


def answer_defence(state: dict, area: dict, seat: int, action: str, events: list) -> None:
    area["await"]["answers"][str(seat)] = action
    events.append({"type": "answer_in", "action": action, "to": [seat]})
    events.append({"type": "defence_in", "seat": seat})
