"""The result phase (R80-R86, MONSTER_HUNTER.md 5.4 step R), including the survivor choice (step K).

``begin`` runs the all-area uniqueness check and opens the main-target groups; groups whose owner
has ``keep:auto`` (or is retired) are decided at once, the others wait in ``state["keep"]`` =
``{"groups": [{"seat", "scope", "monsters"}], "answers": {group index (str): monster id}}``.
``finish_keep`` discards the losers and runs the rest (retirement, points, heal, next parent,
turn limit).
"""

from __future__ import annotations

from . import autopilot, model
from .cards import card


def _unique_hr(state: dict, m: dict) -> int:
    mode = model.option(state, "unique_hr")
    return {"rank": card(m["card"])["rank"], "one": 1, "none": 0}[mode]


def _discard_for_uniqueness(state: dict, m: dict, kind: str, events: list) -> None:
    """R135/G54: to the owner's discard pile (no material); every other non-retired player gains HR."""
    model.remove_monster(state, m, "discard")
    state["seats"][m["seat"]]["result_discards"] += 1
    gain = _unique_hr(state, m)
    for s in model.alive(state):
        if s != m["seat"]:
            state["seats"][s]["hr"] += gain
    events.append({"type": kind, "id": m["id"], "monster_card": m["card"], "seat": m["seat"], "hr": gain})


def begin(state: dict, events: list) -> bool:
    """Steps 1-2; True when the phase finished (or the game ended), False when step K waits."""
    state["phase"] = "result"
    state["hunt"] = None
    for s in state["seats"]:
        s["result_discards"] = 0
    # 1. one copy in all areas (R27, R80, G52): the latest flip survives.
    by_card: dict[str, list[dict]] = {}
    for m in state["monsters"]:
        if m["up"] and card(m["card"])["unique"]:
            by_card.setdefault(m["card"], []).append(m)
    for cid in sorted(by_card):
        group = by_card[cid]
        if len(group) > 1:
            latest = max(group, key=lambda m: m["flipped"])
            for m in sorted(group, key=lambda m: m["id"]):
                if m is not latest:
                    _discard_for_uniqueness(state, m, "unique_discard", events)
    if model.check_hr(state, events):
        return True
    # 2. main targets (R28, R81, G53): per sheet with 2 players, per area with 3-4.
    two = state["map"]["kind"] == "two"
    scopes: dict[str, list[dict]] = {}
    for m in state["monsters"]:
        if m["up"] and card(m["card"])["main"]:
            scopes.setdefault(m["area"][0] if two else m["area"], []).append(m)
    groups, answers = [], {}
    for scope in sorted(scopes):
        group = sorted(scopes[scope], key=lambda m: m["id"])
        if len(group) < 2:
            continue
        owner = group[0]["seat"]
        index = str(len(groups))
        groups.append({"seat": owner, "scope": scope, "monsters": [m["id"] for m in group]})
        s = state["seats"][owner]
        if s["retired"] or s["policy"]["keep"] == "auto":
            answers[index] = autopilot.keep(group)
    state["keep"] = {"groups": groups, "answers": answers}
    if len(answers) < len(groups):
        state["phase"] = "keep"
        return False
    return finish_keep(state, events)


def keep_actions(state: dict, seat: int) -> list[str]:
    keep = state["keep"]
    return [f"keep m{mid}" for i, g in enumerate(keep["groups"]) if g["seat"] == seat and str(i) not in keep["answers"]
            for mid in g["monsters"]]


def answer_keep(state: dict, seat: int, mid: int, events: list) -> None:
    keep = state["keep"]
    for i, g in enumerate(keep["groups"]):
        if g["seat"] == seat and str(i) not in keep["answers"] and mid in g["monsters"]:
            keep["answers"][str(i)] = mid
            events.append({"type": "answer_in", "action": f"keep m{mid}", "to": [seat]})
            events.append({"type": "keep_in", "seat": seat})
            return


def waiting_keep(state: dict) -> set[int]:
    keep = state.get("keep") or {"groups": [], "answers": {}}
    return {g["seat"] for i, g in enumerate(keep["groups"]) if str(i) not in keep["answers"]}


def finish_keep(state: dict, events: list) -> bool:
    keep = state["keep"]
    for i, g in enumerate(keep["groups"]):
        survivor = keep["answers"][str(i)]
        events.append({"type": "kept", "seat": g["seat"], "id": survivor,
                       "monster_card": model.monster(state, survivor)["card"]})
        for mid in g["monsters"]:
            if mid != survivor:
                _discard_for_uniqueness(state, model.monster(state, mid), "main_discard", events)
    state["keep"] = None
    state["phase"] = "result"
    if model.check_hr(state, events):
        return True
    return _rest(state, events)


def _rest(state: dict, events: list) -> bool:
    immediate = model.option(state, "win_check") == "immediate"
    # 3. retirement (R82, G58) with HR priority (R6, G8).
    retiring = [s for s in model.alive(state) if state["seats"][s]["retreats"] >= 3]
    if not immediate and model.hr_win(state, events):
        return True
    for s in retiring:
        model.retire(state, s, events)
    left = model.alive(state)
    if retiring and len(left) == 1:
        model.finish(state, left, "retire", events)
        return True
    if not left:
        best = max(state["seats"][s]["hr"] for s in retiring)
        model.finish(state, [s for s in retiring if state["seats"][s]["hr"] == best], "all_retired", events)
        return True
    # 4. face-down points (R83).
    for s in left:
        n = sum(1 for m in state["monsters"] if m["seat"] == s and not m["up"])
        if n:
            state["seats"][s]["hr"] += n
            events.append({"type": "facedown_points", "seat": s, "count": n, "hr": state["seats"][s]["hr"]})
    if model.check_hr(state, events):
        return True
    # 5. two players: a point when the opponent's sheet holds no monster (R84).
    if state["players"] == 2:
        for s in left:
            if not any(m["seat"] == 1 - s for m in state["monsters"]):
                state["seats"][s]["hr"] += 1
                events.append({"type": "empty_sheet_point", "seat": s, "hr": state["seats"][s]["hr"]})
    if model.check_hr(state, events) or (not immediate and model.hr_win(state, events)):
        return True
    # 6. heal (R85, G55).
    for m in state["monsters"]:
        m["damage"] = 0
    for s in state["seats"]:
        s["bonus"] = {"attack": 0, "defence": 0}
    events.append({"type": "healed"})
    # 7. next parent (R86, G57).
    state["parent"] = next_parent(state)
    events.append({"type": "parent", "seat": state["parent"]})
    # 8. turn limit (G11).
    limit = model.option(state, "turn_limit")
    if limit and state["turn"] >= limit:
        best = max(state["seats"][s]["hr"] for s in left)
        model.finish(state, [s for s in left if state["seats"][s]["hr"] == best], "turn_limit", events)
        return True
    return True


def next_parent(state: dict) -> int:
    """Lowest HR; the current parent stays among equals, else the first clockwise after it."""
    left = model.alive(state)
    low = min(state["seats"][s]["hr"] for s in left)
    lowest = [s for s in left if state["seats"][s]["hr"] == low]
    if state["parent"] in lowest:
        return state["parent"]
    n = state["players"]
    return next(s for s in ((state["parent"] + i) % n for i in range(1, n + 1)) if s in lowest)
