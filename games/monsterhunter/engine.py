"""Monster Hunter TCG (MONSTER_HUNTER.md, the house reading of seeds/004): 2-4 players race to 20 HR by
hunting each other's monsters; on its own sheet a player is the game master.

Steps (5.4) — ``state["phase"]``:

* ``loadout`` (L): every seat secretly picks a hunter, a sheet (``~`` flipped, ring sheets) and a deck
  (``take``); revealed together except the deck. Skipped with O:loadout=random.
* ``prep`` (P): per seat, secretly and simultaneously: last turn's equip (from turn 2, G63), the hand
  discard (R38, then drawing to 6), the deploy (R40-R46). Others see a frozen snapshot until every
  seat is done, taken once the empty hands have drawn (no choice there, so nothing secret); then
  one public reveal (``prep_done`` per seat). Deploys are placed and numbered at
  the reveal, in seat order, so a monster's number never tells who deployed first.
* ``move`` (M): simultaneous secret destinations (O:move_order=sequential: parent order, public).
* ``hunt`` (H): every hunted area at once, strictly sequential inside an area; attack, cards and
  defend decisions; wins keep the book's area order (see :mod:`.hunt`).
* ``keep`` (K): owners choose main-target survivors; then the rest of the result phase
  (:mod:`.result`), and the next turn's P.
* ``over``.

After every action an advance loop applies everything automatic (forced answers, standing
policies, draws, the result phase) until some seat has a real decision. The notation is in
:mod:`.notation`.

The view (``view(state, seat | None)``), for renderers and panels::

    {"game": "monsterhunter", "viewer": seat | None, "players": n, "turn": t, "phase": phase,
     "parent": seat, "order": [non-retired seats clockwise from the parent],
     "options": {option: value},
     "map": None (during L) | {"kind": "two" | "ring",
             "sheets": [{"seat", "layout": "2A", "flipped", "slot": "B"|"T"|"TL"|"TR"|"BR"|"BL",
                         "turn": degrees clockwise}],
             "nodes": {"a0": {"seat", "camp": True, "cell": "a3"}, "a1": {"seat", "area": 1, "cell"}},
             "roads": [[node, node], ...] (joins included), "joins": [[node, node], ...]},
     "seats": [{"seat", "hunter": "H03" | None, "pos": node | None (retired), "weapon", "armour",
                "stats": {"attack", "move", "reach", "defence", "type", "items"} | None,
                "bonus": {"attack", "defence"}, "hr", "retreats", "retired",
                "hand_count", "deck_count", "discard": [ids, top last], "material": [ids],
                "acting": bool (the game waits on this seat), "done": bool (P: finished)}],
     "monsters": [{"id", "seat", "area", "up": True, "card", "damage", "flipped": [turn, rank, step]}
                  | {"id", "seat", "area", "up": False}
                  | own face-down, in that seat's view: {..., "up": False, "card", "hidden": True}],
     "hunt": None | {"areas": [{"area", "rank", "done", "started", "frozen", "order": ["s0", "m3", ...],
                               "acted": [...], "current": actor | None,
                               "waiting": None | {"kind": "attack", "seat"}
                                          | {"kind": "cards", "seat", "target"}
                                          | {"kind": "defend", "monster", "attack", "seats", "answered"}}]},
     "keep": None | {"groups": [{"seat", "scope", "monsters": [ids], "answered": bool}]},
     "loadout_in": [bool per seat] (L only), "on_offer": the hunters and sheets to choose from (L only,
     as "offer" below), "move_in": [bool per seat] (M only),
     "last": [the public events of the last resolution, as ``apply`` returned them (moves with
              start/dest, flips, interrupts, hits, kills with their area ...)],
     "outcome": None | {"winners", "reason", "draw"},
     "me": {"seat", "hand", "deck_count", "deck_kinds": {kind: n}, "policy": {...},
            "prep": None | {"stage": "equip"|"discard"|"deploy"|"done", "weapon": bool, "armour": bool
                            (equipped this step), "did": {"equipped": [ids], "discarded": [ids],
                            "drew": n, "retreats": n, "deploy": None | {"card", "area", "replace"}}},
            "move": node | None (pending secret destination),
            "loadout": pick | None, "answer": pending def action | None,
            "decision": None | {"kind": "loadout"|"equip"|"discard"|"deploy"|"move"|"attack"|"cards"
                                        |"defend"|"keep", "area", "target", "monster", "attack",
                                "defence", "deck", "damage"},
            "offer": None | {"kind": "two"|"ring", "hunters": [ids], "sheets": [ids], "flip": bool}
                     (L only, while the seat has not picked: what its panel's picture shows)}}
                                                                     # seat views only

During P, every seat entry but the viewer's own comes from the snapshot taken when P opened.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from ..base import Event, Game, Option, State, copy_state, unchanged
from ..errors import GameOver, IllegalAction, NotYourTurn
from ..rng import Rng
from . import autopilot, choices, hunt, model, notation, panel, refusals, result
from . import words as wording  # (``words`` is a local name for an action's words throughout)
from .board import build_map
from .cards import deck_code, deck_problems, hunter_ids, kind_of, parse_deck_code, ready_deck, rules, sheets

RULES = rules()
OPTIONS = (
    Option("loadout", "choose", ("choose", "random")),
    Option("hr_target", RULES["hr_target"], low=5, high=40),
    Option("win_check", "immediate", ("immediate", "result")),
    Option("turn_limit", RULES["turn_limit"], low=0, high=99),
    Option("overflow", "lost", ("lost", "carry")),
    Option("weak_bonus", RULES["weak_bonus"], low=0, high=5),
    Option("unique_hr", "rank", ("rank", "one", "none")),
    Option("retired_sheet", "clear", ("clear", "keep")),
    Option("move_order", "simultaneous", ("simultaneous", "sequential")),
)
HAND = RULES["hand_size"]
PUBLIC_FORMS = ("hit", "flip", "skip")
SHEET_KIND = {2: "two", 3: "ring"}  # the sheet side for the player count (R12)
SLOT = choices.SLOT
IDENTIFIERS = frozenset({"gs", "ls", "sns", "db", "hm", "lc", "lbg", "hbg", "attack_up", "defence_up", "weak_hit",
                         "atk", "disc"})


def _new_seat() -> dict:
    return {"hunter": None, "pos": None, "weapon": None, "armour": None, "hand": [], "deck": [], "discard": [],
            "material": [], "hr": 0, "retreats": 0, "retired": False, "bonus": {"attack": 0, "defence": 0},
            "policy": dict(model.POLICY_DEFAULT), "loadout": None, "prep": None, "move": None,
            "result_discards": 0}


# Public events that only say a seat handed in its part of a secret step (nothing about what).
_PROGRESS_EVENTS = frozenset({"prep_in", "loadout_in", "move_in"})


def _remember(state: State, events: list) -> None:
    """The public events of the last resolution, for the renderer's "what just happened" layer."""
    state["last"] = copy_state([e for e in events if "to" not in e])


def _private(events: list, seat: int) -> list:
    """Mark events produced inside the secret step P as the acting seat's own (all but ``prep_in``,
    which only says that the seat is done)."""
    for e in events:
        if e["type"] != "prep_in":
            e.setdefault("to", [seat])
    return events


def _problem(kind: str, **params) -> dict:
    """A deck problem, shown through ``deck.monsterhunter.<kind>`` (not an event)."""
    return dict(params, type=kind)


class MonsterHunter(Game):
    def __init__(self):
        super().__init__(name="monsterhunter", min_players=2, max_players=4, options=OPTIONS,
                         hidden_information=True)

    # ---- setup and the loadout ---------------------------------------------------------------------
    def setup(self, players: int, options: dict, seed: int) -> State:
        opts = self.resolve_options(options, players)
        state = {"players": players, "rng": seed & ((1 << 64) - 1), "options": opts, "phase": "loadout",
                 "turn": 0, "parent": 0, "next_monster": 1, "map": None,
                 "seats": [_new_seat() for _ in range(players)], "monsters": [], "hunt": None, "keep": None,
                 "frozen": None, "last": [], "outcome": None}
        if opts["loadout"] == "random":
            for seat in range(players):
                state["seats"][seat]["loadout"] = self._random_pick(state)
        events: list = []
        self._advance(state, events)
        _remember(state, events)
        return state

    def _sheet_kind(self, state: State) -> str:
        return SHEET_KIND[min(state["players"], 3)]

    def _random_pick(self, state: State) -> dict:
        rng = Rng(state["rng"])
        pick = {"hunter": rng.choice(hunter_ids()), "sheet": rng.choice(sorted(sheets(self._sheet_kind(state)))),
                "flipped": False, "deck": None}
        state["rng"] = rng.state
        return pick

    def _take_actions(self, state: State) -> list[str]:
        kind = self._sheet_kind(state)
        marks = ("",) if kind == "two" else ("", "~")
        return [f"take {h} {sid}{m}" for h in hunter_ids() for sid in sorted(sheets(kind)) for m in marks]

    def _close_loadout(self, state: State, events: list) -> None:
        picks = [s["loadout"] for s in state["seats"]]
        state["map"] = build_map(self._sheet_kind(state), [(p["sheet"], p["flipped"]) for p in picks])
        rng = Rng(state["rng"])
        for seat, (s, pick) in enumerate(zip(state["seats"], picks)):
            s["hunter"] = pick["hunter"]
            deck = parse_deck_code(pick["deck"]) if pick["deck"] else ready_deck(pick["hunter"])
            s["deck"] = rng.shuffled(deck)
            s["pos"] = None if s["retired"] else model.camp(seat)
            s["loadout"] = None
            events.append({"type": "loadout_flipped" if pick["flipped"] else "loadout", "seat": seat,
                           "hunter_card": pick["hunter"], "sheet_sheet": pick["sheet"], "sheet": pick["sheet"]})
        state["rng"] = rng.state
        state["turn"] = 1
        self._open_prep(state, events)

    # ---- P: equip, discard and draw, deploy ------------------------------------------------------------
    def _public_seat(self, state: State, seat: int) -> dict:
        s = state["seats"][seat]
        st = model.stats(s) if s["hunter"] else None
        return {"seat": seat, "hunter": s["hunter"], "pos": s["pos"], "weapon": s["weapon"], "armour": s["armour"],
                "stats": st, "bonus": dict(s["bonus"]), "hr": s["hr"], "retreats": s["retreats"],
                "retired": s["retired"], "hand_count": len(s["hand"]), "deck_count": len(s["deck"]),
                "discard": list(s["discard"]), "material": list(s["material"])}

    def _open_prep(self, state: State, events: list) -> None:
        state["phase"] = "prep"
        events.append({"type": "turn_start", "turn": state["turn"], "seat": state["parent"]})
        for seat in model.alive(state):
            state["seats"][seat]["prep"] = {"stage": "equip", "weapon": False, "armour": False,
                                            "did": {"equipped": [], "discarded": [], "drew": 0, "deploy": None,
                                                    "retreats": 0}}
            self._forced_draw(state, seat, events)
        # What the others see until the reveal: taken after the draws nobody chose, so a seat's
        # public counts agree with its own until it makes a secret choice.
        state["frozen"] = [self._public_seat(state, s) for s in range(state["players"])]
        for seat in model.alive(state):
            self._prep_progress(state, seat, events)

    def _forced_draw(self, state: State, seat: int, events: list) -> None:
        """An empty hand has nothing to equip or discard: it draws to 6 whatever its owner would
        choose, and everyone can count that, so it happens in the open (the cards stay private; a
        retreat it causes is announced now, not again at the reveal)."""
        s = state["seats"][seat]
        if s["hand"]:
            return
        mine: list = []
        self._do_discard(state, seat, [], mine)
        s["prep"]["did"]["retreats"] = 0
        events += [e if e["type"] == "retreated" else dict(e, to=[seat]) for e in mine]

    def _equips(self, state: State, seat: int) -> list[str]:
        s = state["seats"][seat]
        return choices.equip_actions(s["hand"], s["weapon"], s["armour"], s["material"], s["prep"])

    @staticmethod
    def _trade_in(s: dict, cid: str) -> int:
        return choices.trade_in(s["weapon"], s["armour"], cid)

    def _discards(self, state: State, seat: int) -> list[str]:
        return choices.discard_actions(state["seats"][seat]["hand"])

    def _own(self, state: State, seat: int) -> tuple[list[str], list[dict], int]:
        areas = model.own_areas(state, seat)
        return areas, [m for m in state["monsters"] if m["area"] in areas], model.area_cap(state)

    def _room(self, state: State, seat: int) -> list[str]:
        return choices.room(*self._own(state, seat))

    def _replaceable(self, state: State, seat: int) -> list[dict]:
        return choices.replaceable(*self._own(state, seat))

    def _deploys(self, state: State, seat: int) -> list[str]:
        return choices.deploy_actions(state["seats"][seat]["hand"], *self._own(state, seat))

    def _prep_progress(self, state: State, seat: int, events: list) -> None:
        """Run a seat's automatic prep stages until it has a real choice (5.4)."""
        s = state["seats"][seat]
        p = s["prep"]
        mine: list = []
        if p["stage"] == "equip" and not (state["turn"] >= 2 and self._equips(state, seat)):
            p["stage"] = "discard"
        if p["stage"] == "discard" and (not s["hand"] or (s["policy"]["disc"] == "none" and len(s["hand"]) <= HAND)):
            self._do_discard(state, seat, [], mine)
        if p["stage"] == "deploy":
            placeable = bool(self._room(state, seat) or self._replaceable(state, seat))
            if not placeable or (s["policy"]["disc"] == "none" and self._deploys(state, seat) == ["deploy -"]):
                self._do_deploy(state, seat, None, None, None, mine)
        events += _private(mine, seat)

    def _do_equip(self, state: State, seat: int, cid: str, paid: list[str], events: list) -> None:
        s = state["seats"][seat]
        kind = SLOT[kind_of(cid)]
        old = s[kind]
        s["hand"].remove(cid)
        for m in paid:
            s["material"].remove(m)
        # G63: this equip belongs before the last result phase, so its discards go under the
        # cards that result phase put on the pile.
        at = len(s["discard"]) - s["result_discards"]
        s["discard"][at:at] = ([old] if old else []) + paid
        s[kind] = cid
        s["prep"][kind] = True
        s["prep"]["did"]["equipped"].append(cid)
        events.append({"type": "equipped_own", "equip_card": cid, "paid_cards": paid, "to": [seat]})
        if not self._equips(state, seat):
            s["prep"]["stage"] = "discard"

    def _do_discard(self, state: State, seat: int, cards: list[str], events: list) -> None:
        s = state["seats"][seat]
        model.discard_from_hand(state, seat, cards)
        before = s["retreats"]
        drawn = model.draw(state, seat, max(0, HAND - len(s["hand"])), events)
        did = s["prep"]["did"]
        did["discarded"] += cards
        did["drew"] += len(drawn)
        did["retreats"] += s["retreats"] - before
        events.append({"type": "drew", "drawn_cards": drawn, "to": [seat]})
        s["prep"]["stage"] = "deploy"

    def _do_deploy(self, state: State, seat: int, cid, area, replace, events: list) -> None:
        s = state["seats"][seat]
        if cid:
            s["hand"].remove(cid)
            s["prep"]["did"]["deploy"] = {"card": cid, "area": area, "replace": replace}
        s["prep"]["stage"] = "done"
        events.append({"type": "prep_in", "seat": seat})

    def _close_prep(self, state: State, events: list) -> None:
        """The public reveal of P; deploys are placed and numbered in seat order."""
        for seat, s in enumerate(state["seats"]):
            p = s["prep"]
            s["prep"] = None
            if p is None:
                continue
            did = p["did"]
            events.append({"type": "prep_done", "seat": seat, "equipped_cards": did["equipped"],
                           "discarded_cards": did["discarded"], "drew": did["drew"]})
            if did["retreats"]:
                events.append({"type": "retreated", "seat": seat, "count": s["retreats"]})
            deploy = did["deploy"]
            if deploy:
                if deploy["replace"] is not None:
                    old = model.monster(state, deploy["replace"])
                    events.append({"type": "replaced", "seat": seat, "id": old["id"], "monster_card": old["card"]})
                    model.remove_monster(state, old, "discard")
                mid = state["next_monster"]
                state["next_monster"] += 1
                state["monsters"].append({"id": mid, "card": deploy["card"], "seat": seat, "area": deploy["area"],
                                          "up": False, "damage": 0, "flipped": None})
                events.append({"type": "deployed", "seat": seat, "id": mid, "area": deploy["area"]})
                events.append({"type": "deployed_card", "id": mid, "monster_card": deploy["card"],
                               "area": deploy["area"], "to": [seat]})
        state["frozen"] = None
        self._open_move(state, events)

    # ---- M: moves ----------------------------------------------------------------------------------------
    def _move_options(self, state: State, seat: int) -> list[str]:
        s = state["seats"][seat]
        return choices.move_actions(state["map"]["roads"], s["pos"], model.stats(s)["move"])

    def _open_move(self, state: State, events: list) -> None:
        state["phase"] = "move"
        for seat in model.alive(state):
            s = state["seats"][seat]
            s["move"] = None
            options = self._move_options(state, seat)
            if len(options) == 1 and state["options"]["move_order"] == "simultaneous":
                s["move"] = options[0].split()[1]  # forced off the camp (G20): public, so not asked

    def _move_now(self, state: State, seat: int, dest: str, events: list) -> None:
        s = state["seats"][seat]
        start = s["pos"]
        s["pos"] = dest
        if dest == start:
            events.append({"type": "stayed", "seat": seat, "area": dest})
        else:
            events.append({"type": "moved", "seat": seat, "start": start, "dest": dest,
                           "start_place": wording.place(state["map"]["nodes"], start)})

    def _move_waiting(self, state: State) -> list[int]:
        return [s for s in model.parent_order(state) if state["seats"][s]["move"] is None]

    def _close_move(self, state: State, events: list) -> None:
        if state["options"]["move_order"] == "simultaneous":
            for seat in model.parent_order(state):
                self._move_now(state, seat, state["seats"][seat]["move"], events)
        for s in state["seats"]:
            s["move"] = None
        hunt.start(state, events)

    # ---- the advance loop --------------------------------------------------------------------------------
    def _advance(self, state: State, events: list) -> None:
        while state["outcome"] is None:
            phase = state["phase"]
            if phase == "loadout":
                if any(s["loadout"] is None for s in state["seats"]):
                    return
                self._close_loadout(state, events)
            elif phase == "prep":
                if any(state["seats"][s]["prep"]["stage"] != "done" for s in model.alive(state)):
                    return
                self._close_prep(state, events)
            elif phase == "move":
                waiting = self._move_waiting(state)
                if waiting and state["options"]["move_order"] == "sequential":
                    seat = waiting[0]
                    options = self._move_options(state, seat)
                    if len(options) != 1:
                        return
                    state["seats"][seat]["move"] = options[0].split()[1]
                    self._move_now(state, seat, state["seats"][seat]["move"], events)
                    continue
                if waiting:
                    return
                self._close_move(state, events)
            elif phase == "hunt":
                if not hunt.advance(state, events):
                    return
                if result.begin(state, events):
                    self._next_turn(state, events)
            elif phase == "keep":
                if result.waiting_keep(state):
                    return
                if result.finish_keep(state, events):
                    self._next_turn(state, events)
            else:
                return

    def _next_turn(self, state: State, events: list) -> None:
        if state["outcome"] is None:
            state["turn"] += 1
            self._open_prep(state, events)

    # ---- who acts, and what they may do ----------------------------------------------------------------
    def to_act(self, state: State) -> set[int]:
        if state["outcome"] is not None:
            return set()
        phase = state["phase"]
        if phase == "loadout":
            return {i for i, s in enumerate(state["seats"]) if s["loadout"] is None and not s["retired"]}
        if phase == "prep":
            return {i for i in model.alive(state) if state["seats"][i]["prep"]["stage"] != "done"}
        if phase == "move":
            waiting = self._move_waiting(state)
            if state["options"]["move_order"] == "sequential":
                return set(waiting[:1])
            return set(waiting)
        if phase == "hunt":
            return set().union(*(hunt.waiting_seats(a) for a in hunt.active_areas(state)))
        if phase == "keep":
            return result.waiting_keep(state)
        return set()

    def _decision(self, state: State, seat: int) -> dict | None:
        """What the seat is asked now (kind and its public numbers), or None."""
        if seat not in self.to_act(state):
            return None
        phase = state["phase"]
        if phase == "loadout":
            return {"kind": "loadout"}
        if phase == "prep":
            return {"kind": state["seats"][seat]["prep"]["stage"]}
        if phase == "move":
            return {"kind": "move"}
        if phase == "keep":
            return {"kind": "keep"}
        area = hunt.area_of(state, seat)
        wait = area["await"]
        out = {"kind": wait["kind"], "area": area["area"]}
        if wait["kind"] == "cards":
            out["target"] = wait["target"]
        if wait["kind"] == "defend":
            s = state["seats"][seat]
            defence = model.defence_now(s)
            out.update(monster=wait["monster"], attack=wait["attack"], defence=defence, deck=len(s["deck"]),
                       damage=max(0, wait["attack"] - defence))
        return out

    def _real_actions(self, state: State, seat: int) -> list[str]:
        phase = state["phase"]
        if phase == "loadout":
            return self._take_actions(state)
        if phase == "prep":
            stage = state["seats"][seat]["prep"]["stage"]
            if stage == "equip":
                return self._equips(state, seat) + self._discards(state, seat)
            if stage == "discard":
                return self._discards(state, seat)
            return self._deploys(state, seat)
        if phase == "move":
            return self._move_options(state, seat)
        if phase == "keep":
            return result.keep_actions(state, seat)
        area = hunt.area_of(state, seat)
        wait = area["await"]
        if wait["kind"] == "attack":
            return hunt.attack_actions(state, area, seat)
        if wait["kind"] == "cards":
            return hunt.cards_actions(state, seat, wait["target"])
        return hunt.defend_actions(state, seat)

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        out = ["go"]
        if state["phase"] != "loadout":
            policy = state["seats"][seat]["policy"]
            out += [f"auto {k}:{v}" for k, values in model.POLICY_VALUES.items() for v in values if v != policy[k]]
        return out + sorted(set(self._real_actions(state, seat)))

    # ---- applying ----------------------------------------------------------------------------------------
    def canonical(self, action: str) -> str:
        return notation.canonical(action)

    def parse(self, action: str):
        return notation.parse(action)

    def apply(self, state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        """The base apply, plus the one documented exception: a ``take`` with a custom deck code is
        accepted in the loadout when the deck is legal (custom decks cannot be enumerated)."""
        parsed = notation.parse(action) if action.startswith("take ") else None
        if parsed and parsed[4] is not None:
            if self.outcome(state) is not None:
                raise GameOver("game_over")
            if seat not in self.to_act(state):
                raise NotYourTurn("not_your_turn")
            if state["phase"] != "loadout":
                raise IllegalAction("mh.not_your_step")
            problems = deck_problems(parsed[4])
            base = f"take {parsed[1]} {parsed[2]}{'~' if parsed[3] else ''}"
            if problems:
                raise IllegalAction(problems[0])
            if base not in self.legal_actions(state, seat):
                key, params = self.refusal(state, seat, base)
                raise IllegalAction(key, **params)
            new = copy_state(state)
            return new, self._apply(new, seat, action)
        return super().apply(state, seat, action)

    def _suggest(self, state: State, seat: int) -> str:
        legal = self.legal_actions(state, seat)
        return autopilot.suggest(self.view(state, seat), legal) or next(a for a in legal if a != "go")

    def _apply(self, state: State, seat: int, action: str) -> list[Event]:
        events: list[Event] = []
        if action == "go":
            action = self._suggest(state, seat)
            events.append({"type": "go", "action": action, "to": [seat]})
        words = action.split()
        verb = words[0]
        if verb == "auto":
            key, value = words[1].split(":")
            state["seats"][seat]["policy"][key] = value
            events.append({"type": "policy_set", "policy_term": f"{key}_{value}", "to": [seat]})
            self._policy_now(state, seat, events)
        elif verb == "take":
            p = notation.parse(action)
            state["seats"][seat]["loadout"] = {"hunter": p[1], "sheet": p[2], "flipped": p[3], "deck": p[4]}
            events += [{"type": "answer_in", "action": action.split()[0], "to": [seat]},
                       {"type": "loadout_in", "seat": seat}]
        elif verb in ("equip", "discard", "deploy"):
            mine: list = []
            if verb == "equip":
                self._do_equip(state, seat, words[1], words[2:], mine)
            elif verb == "discard":
                self._do_discard(state, seat, [] if words[1] == "-" else words[1:], mine)
            else:
                p = notation.parse(action)
                self._do_deploy(state, seat, p[1], p[2], p[3], mine)
            self._prep_progress(state, seat, mine)
            events += _private(mine, seat)
        elif verb in ("move", "stay"):
            dest = state["seats"][seat]["pos"] if verb == "stay" else words[1]
            state["seats"][seat]["move"] = dest
            if state["options"]["move_order"] == "sequential":
                self._move_now(state, seat, dest, events)
            else:
                events += [{"type": "answer_in", "action": action, "to": [seat]}, {"type": "move_in", "seat": seat}]
        elif verb in ("skip", "flip", "hit"):
            self._apply_hunt_answer(state, hunt.area_of(state, seat), seat, action, events)
        elif verb == "def":
            hunt.answer_defence(state, hunt.area_of(state, seat), seat, action, events)
        elif verb == "keep":
            result.answer_keep(state, seat, int(words[1][1:]), events)
        self._advance(state, events)
        _remember(state, events)
        return events

    def _policy_now(self, state: State, seat: int, events: list) -> None:
        """A new standing policy answers the seat's pending decision of its kind at once (5.7)."""
        s = state["seats"][seat]
        phase = state["phase"]
        if phase == "prep" and s["prep"]["stage"] != "done":
            self._prep_progress(state, seat, events)
        elif phase == "hunt" and hunt.area_of(state, seat):
            area = hunt.area_of(state, seat)
            wait = area["await"]
            if wait["kind"] in ("attack", "cards") and wait["seat"] == seat and s["policy"]["atk"] == "auto":
                action = self._suggest(state, seat)
                self._apply_hunt_answer(state, area, seat, action, events)
            elif wait["kind"] == "defend" and seat in wait["seats"] and s["policy"]["def"] != "ask":
                answer = autopilot.defend(s["policy"]["def"], s, wait["attack"], len(s["deck"]), len(s["discard"]))
                hunt.answer_defence(state, area, seat, answer, events)
        elif phase == "keep" and s["policy"]["keep"] == "auto":
            keep = state["keep"]
            for i, group in enumerate(keep["groups"]):
                if group["seat"] == seat and str(i) not in keep["answers"]:
                    survivor = autopilot.keep([model.monster(state, m) for m in group["monsters"]])
                    result.answer_keep(state, seat, survivor, events)

    def _apply_hunt_answer(self, state: State, area: dict, seat: int, action: str, events: list) -> None:
        words = action.split()
        if area["await"]["kind"] == "cards":
            area["await"] = None
            hunt.resolve_hit(state, area, seat, model.monster(state, int(words[1][1:])), words[2:], events)
        else:
            hunt.apply_attack(state, area, seat, words, events)

    # ---- refusals --------------------------------------------------------------------------------------
    def why_illegal(self, state: State, seat: int, action: str) -> str:
        return self.refusal(state, seat, action)[0]

    def refusal(self, state: State, seat: int, action: str) -> tuple[str, dict]:
        return refusals.refusal(self, state, seat, action)

    # ---- views and secrets ---------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        to_act = self.to_act(state)
        phase = state["phase"]
        seats = []
        for i, s in enumerate(state["seats"]):
            # During P others are seen as they were when it opened (a resignation is public at once).
            entry = copy_state(state["frozen"][i]) if phase == "prep" and state["frozen"] and i != seat \
                and not s["retired"] else self._public_seat(state, i)
            entry["acting"] = i in to_act
            entry["done"] = phase == "prep" and (s["prep"] is None or s["prep"]["stage"] == "done")
            seats.append(entry)
        monsters = []
        for m in sorted(state["monsters"], key=lambda m: m["id"]):
            if m["up"]:
                monsters.append({"id": m["id"], "seat": m["seat"], "area": m["area"], "up": True, "card": m["card"],
                                 "damage": m["damage"], "flipped": list(m["flipped"])})
            else:
                entry = {"id": m["id"], "seat": m["seat"], "area": m["area"], "up": False}
                if seat == m["seat"]:
                    entry.update(card=m["card"], hidden=True)
                monsters.append(entry)
        out = {"game": self.name, "viewer": seat, "players": state["players"], "turn": state["turn"],
               "phase": phase, "parent": state["parent"], "order": model.parent_order(state),
               "options": dict(state["options"]), "map": copy_state(state["map"]), "seats": seats, "monsters": monsters,
               "hunt": self._hunt_view(state), "keep": self._keep_view(state),
               "last": copy_state(state["last"]), "outcome": copy_state(state["outcome"])}
        if phase == "loadout":
            out["loadout_in"] = [s["loadout"] is not None for s in state["seats"]]
            out["on_offer"] = self._on_offer(state)
        if phase == "move":
            out["move_in"] = [s["move"] is not None for s in state["seats"]]
        if seat is not None:
            out["me"] = self._me(state, seat)
        return out

    def describe_position(self, view: dict) -> list[Event]:
        """Turn, step and who acts; each hunter's area, HR, equipment and card counts; the face-up
        monsters with their area and damage, and how many face-down monsters lie where (never which
        card, even in the owner's own view: the words may reach the channel)."""
        outcome = view["outcome"]
        if outcome is None:
            acting = [s["seat"] for s in view["seats"] if s["acting"]]
            events = [_alt("status", turn=view["turn"], step_phase=view["phase"], seats=acting or "-",
                           parent_seat=view["parent"], target=view["options"]["hr_target"])]
        elif outcome["winners"] and not outcome.get("draw"):
            events = [_alt("won", seats=list(outcome["winners"]))]
        else:
            events = [_alt("draw")]
        nodes = (view["map"] or {}).get("nodes", {})
        for s in view["seats"]:
            if s["hunter"] is None:
                events.append(_alt("no_hunter", seat=s["seat"]))
                continue
            kit = [_alt("kit", item_card=c) for c in (s["weapon"], s["armour"]) if c]
            events.append(_alt(("hunter", "retired")[s["retired"]], seat=s["seat"], hunter_card=s["hunter"],
                               area=_area_words(nodes, s["pos"]), hr=s["hr"], kit=kit or "-",
                               hand=s["hand_count"], deck=s["deck_count"]))
        up = [_alt("monster", id=m["id"], monster_card=m["card"], area=m["area"], damage=m["damage"])
              for m in view["monsters"] if m["up"]]
        events.append(_alt("monsters_up", monsters=up or "-", count=len(up)))
        down: dict[str, int] = {}
        for m in view["monsters"]:
            if not m["up"]:
                down[m["area"]] = down.get(m["area"], 0) + 1
        areas = [_alt("down_at", area=a, count=n) for a, n in sorted(down.items())]
        events.append(_alt("monsters_down", areas=areas or "-", count=sum(down.values())))
        places = [a["area"] for a in (view["hunt"] or {}).get("areas", []) if not a["done"]]
        if places:
            events.append(_alt("hunts", areas=", ".join(places)))
        return events

    def _hunt_view(self, state: State) -> dict | None:
        if not state.get("hunt"):
            return None
        areas = []
        for a in state["hunt"]["areas"]:
            wait = a["await"]
            waiting = None
            if wait and wait["kind"] == "defend":
                waiting = {"kind": "defend", "monster": wait["monster"], "attack": wait["attack"],
                           "seats": list(wait["seats"]), "answered": [s for s in wait["seats"] if str(s) in wait["answers"]]}
            elif wait:
                waiting = dict(wait)
            areas.append({"area": a["area"], "rank": a["rank"], "done": a["done"], "started": a["started"],
                          "frozen": hunt.frozen(state, a),
                          "order": hunt.area_order(state, a["area"]), "acted": list(a["acted"]),
                          "current": a["current"], "waiting": waiting})
        return {"areas": areas}

    def _keep_view(self, state: State) -> dict | None:
        keep = state.get("keep")
        if not keep:
            return None
        return {"groups": [dict(g, monsters=list(g["monsters"]), answered=str(i) in keep["answers"])
                           for i, g in enumerate(keep["groups"])]}

    def _me(self, state: State, seat: int) -> dict:
        s = state["seats"][seat]
        area = hunt.defend_area(state, seat) if state["phase"] == "hunt" else None
        answer = area["await"]["answers"].get(str(seat)) if area else None
        return {"seat": seat, "hand": sorted(s["hand"]), "deck_count": len(s["deck"]),
                "deck_kinds": dict(sorted(Counter(kind_of(c) for c in s["deck"]).items())),
                "policy": dict(s["policy"]), "prep": copy_state(s["prep"]), "move": s["move"],
                "loadout": dict(s["loadout"]) if s["loadout"] else None, "answer": answer,
                "decision": self._decision(state, seat), "offer": self._offer(state, seat)}

    def _on_offer(self, state: State) -> dict:
        """What every seat chooses from at the loadout (public: the same for all; the board
        shows it): the hunters, and the sheets of the side for this player count."""
        kind = self._sheet_kind(state)
        return {"kind": kind, "hunters": hunter_ids(), "sheets": sorted(sheets(kind)), "flip": kind == "ring"}

    def _offer(self, state: State, seat: int) -> dict | None:
        """What a seat still to pick may choose at the loadout (for its panel's picture): the
        hunters, the sheets of the side for this player count, and whether a sheet may be flipped."""
        if state["phase"] != "loadout" or seat not in self.to_act(state):
            return None
        return self._on_offer(state)

    def scramble_hidden(self, state: State, seat: int | None, rng) -> State:
        """Re-deal what ``seat`` cannot know (5.10): other seats' hands and deck orders (pooled and
        re-split), their face-down monsters' cards (swapped with monster cards from that pool), their
        pending picks, prep stages, moves, defence and keep answers and policies; the viewer's own
        deck order."""
        new = super().scramble_hidden(state, seat, rng)
        for i, s in enumerate(new["seats"]):
            if i == seat:
                s["deck"] = rng.shuffled(s["deck"])
                continue
            pool = s["hand"] + s["deck"]
            for m in new["monsters"]:
                mons = [j for j, c in enumerate(pool) if kind_of(c) == "monsters"]
                if m["seat"] == i and not m["up"] and mons:
                    j = rng.choice(mons)
                    m["card"], pool[j] = pool[j], m["card"]
            pool = rng.shuffled(pool)
            s["hand"], s["deck"] = sorted(pool[:len(s["hand"])]), pool[len(s["hand"]):]
            s["policy"] = {k: rng.choice(v) for k, v in model.POLICY_VALUES.items()}
            if s["loadout"] is not None:
                s["loadout"] = {"hunter": rng.choice(hunter_ids()),
                                "sheet": rng.choice(sorted(sheets(self._sheet_kind(new)))), "flipped": False,
                                "deck": None}
            if s["prep"] is not None:
                # What a seat did in this step is secret until it closes; only "done" is public.
                if s["prep"]["stage"] != "done":
                    s["prep"]["stage"] = rng.choice(["equip", "discard", "deploy"])
                did = s["prep"]["did"]
                did["drew"] = rng.below(7)
                did["discarded"] = sorted(rng.choice([[], s["deck"][:2]]))
                areas = model.own_areas(new, i)
                did["deploy"] = rng.choice([None, {"card": "M01", "area": rng.choice(areas), "replace": None}])
            if s["move"] is not None and new["options"]["move_order"] == "simultaneous" and new["phase"] == "move":
                s["move"] = rng.choice(self._move_options(new, i) + ["move " + s["pos"]]).split()[-1]
                if s["move"] == "stay":
                    s["move"] = s["pos"]
        for area in hunt.active_areas(new) if new["phase"] == "hunt" else []:
            if area["await"] and area["await"]["kind"] == "defend":
                for key in list(area["await"]["answers"]):
                    if key != str(seat):   # answered defenders too: their cards stay secret
                        area["await"]["answers"][key] = "def -"
        if new.get("keep"):
            for key, mid in list(new["keep"]["answers"].items()):
                group = new["keep"]["groups"][int(key)]
                if group["seat"] != seat:
                    new["keep"]["answers"][key] = rng.choice(group["monsters"])
        return new

    def action_is_public(self, action: str) -> bool:
        """Only the hunt's attacks resolve in the open; everything else stays 🔒 while the game runs."""
        return action.split()[0] in PUBLIC_FORMS if action.strip() else False

    def action_path(self, action: str) -> tuple[str, ...]:
        """Menus of at most 25 entries: long card lists are chosen one card per level (5.8)."""
        words = action.split()
        verb = words[0]
        if verb in ("go", "stay", "skip") or action in ("discard -", "deploy -", "def -") or verb in ("move", "keep"):
            return (action,)
        if verb == "take":  # with a deck named: one level more, below the hunter and sheet
            return ("take", words[1], action) if len(words) < 4 else ("take", words[1], " ".join(words[:3]), action)
        if verb == "auto" or verb == "flip":
            return (verb, action)
        if verb == "deploy":
            return ("deploy", words[1], action)
        if verb in ("equip", "hit"):
            return (verb, words[1], *words[2:], action)
        return (verb, *words[1:], action)  # discard, def

    def action_targets(self, action: str, view: dict) -> tuple[str, ...]:
        """The things an action names, in its notation's order, then the action itself as a
        button to confirm (card lists have no natural end: ``hit m7`` and ``hit m7 W03`` are both
        actions): ``take`` a hunter card and a sheet; ``equip`` the hand card (what it is paid
        with is told by the buttons); ``discard`` / ``def`` the hand cards; ``deploy`` the card, its area (and the face-up monster it replaces); ``move`` the
        area; ``flip`` / ``hit`` / ``keep`` the monster, then the hit's cards. Policies, ``go``,
        ``stay``, ``skip`` and the empty lists are buttons alone.

        >>> g = MonsterHunter()
        >>> g.action_targets("take H01 4C~", {}), g.action_targets("deploy M03 a1 x m4", {})
        (('hunter:H01', 'sheet:4C', 'button:take H01 4C~'), ('card:M03', 'area:a1', 'monster:m4', 'button:deploy M03 a1 x m4'))
        >>> g.action_targets("hit m7 I03 W03 W03", {})[:4], g.action_targets("discard -", {})
        (('monster:m7', 'card:I03', 'card:W03', 'card:W03'), ('button:discard -',))
        """
        words = action.split()
        verb, rest = words[0], words[1:]
        taps: list[str] = []
        if verb == "take":
            taps = [f"hunter:{rest[0]}", f"sheet:{rest[1].rstrip('~')}"]
        elif verb == "equip":   # the material paid is a pile, not cards on the picture: the buttons say which
            taps = [f"card:{rest[0]}"]
        elif verb in ("discard", "def"):
            taps = [f"card:{c}" for c in rest if c != "-"]
        elif verb == "deploy" and rest != ["-"]:
            taps = [f"card:{rest[0]}", f"area:{rest[1]}"] + ([f"monster:{rest[3]}"] if len(rest) > 3 else [])
        elif verb == "move":
            taps = [f"area:{rest[0]}"]
        elif verb in ("flip", "keep"):
            taps = [f"monster:{rest[0]}"]
        elif verb == "hit":
            taps = [f"monster:{rest[0]}"] + [f"card:{c}" for c in rest[1:]]
        return (*taps, f"button:{action}")

    def choice_words(self, path: tuple[str, ...], view: dict | None = None) -> Event | None:
        return wording.choice_words(tuple(path), view)

    def menu_words(self, prefix: tuple[str, ...], steps: tuple[str, ...] = (),
                   view: dict | None = None) -> Event | None:
        return wording.menu_words(tuple(prefix), view)

    def choice_facts(self, path: tuple[str, ...], view: dict | None = None) -> list[Event]:
        return wording.choice_facts(tuple(path))

    def identifiers(self) -> frozenset[str]:
        """Weapon type codes, effect kinds and policy keys: said in words, never as they are."""
        return IDENTIFIERS

    def suggest(self, state: State, seat: int) -> str | None:
        """The platform hook for stand-ins and AI seats (5.12): the heuristic's answer, ``go``."""
        return "go" if seat in self.to_act(state) else None

    def undoable(self, before: State, after: State, events: list[Event]) -> bool:
        """Only a secret step's own choice (a pick, an equip, a deploy, a destination) may be taken
        back, while the step is open: a draw, a shuffle, a reveal or any public resolution (a flip,
        a hit) makes it final."""
        if not unchanged(before, after, "rng", "turn", "phase", "last", "monsters"):
            return False
        if any(b["deck"] != a["deck"] for b, a in zip(before["seats"], after["seats"])):
            return False
        return all(e["type"] in _PROGRESS_EVENTS for e in events if "to" not in e)

    def skip_action(self, state: State, seat: int) -> str | None:
        legal = self.legal_actions(state, seat)
        decision = self._decision(state, seat) or {}
        kind = decision.get("kind")
        pick = {"equip": "discard -", "discard": "discard -", "deploy": "deploy -", "move": "stay",
                "attack": "skip", "defend": "def -"}.get(kind)
        if kind == "cards":
            pick = f"hit m{decision['target']}"
        return pick if pick in legal else None

    def resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """With 2 players the other wins; with 3-4 the seat retires at once (G59) and play goes on."""
        if self.outcome(state) is not None:
            raise GameOver("game_over")
        if state["players"] == 2 or state["seats"][seat]["retired"]:
            new, events = super().resign(state, seat)
            _remember(new, events)
            return new, events
        new = copy_state(state)
        events: list[Event] = [{"type": "resigned", "seat": seat}]
        s = new["seats"][seat]
        if new["phase"] == "loadout" and s["loadout"] is None:
            s["loadout"] = self._random_pick(new)
        model.retire(new, seat, events)
        if new["phase"] == "move":
            s["move"] = None
        for area in (new["hunt"] or {"areas": []})["areas"] if new["phase"] == "hunt" else []:
            wait = area["await"]
            if not wait:
                continue
            if wait["kind"] == "defend":
                wait["seats"] = [x for x in wait["seats"] if x != seat]
                wait["targets"] = [x for x in wait["targets"] if x != seat]
                wait["answers"].pop(str(seat), None)
            elif wait["seat"] == seat:
                area["await"] = None
            # Its monsters may have left with it (O:retired_sheet=clear): a hunter waiting to pick
            # cards against one loses that hit; one choosing a target chooses again; a defence
            # round against one is over.
            if area["await"] and wait["kind"] == "cards" and model.monster(new, wait["target"]) is None:
                area["acted"].append(f"s{wait['seat']}")
                area["await"] = None
            elif area["await"] and wait["kind"] == "defend" and model.monster(new, wait["monster"]) is None:
                area["acted"].append(f"m{wait['monster']}")
                area["await"] = None
            elif area["await"] and wait["kind"] == "attack":
                area["await"] = None
        if new.get("keep"):
            for i, g in enumerate(new["keep"]["groups"]):
                if g["seat"] == seat and str(i) not in new["keep"]["answers"]:
                    new["keep"]["answers"][str(i)] = autopilot.keep([model.monster(new, m) for m in g["monsters"]])
        left = model.alive(new)
        if len(left) == 1:
            model.finish(new, left, "resign", events)
        else:
            self._advance(new, events)
        _remember(new, events)
        return new, events

    # ---- panel ---------------------------------------------------------------------------------------
    def panel_notes(self, view: dict) -> list[Event]:
        return panel.notes(view)

    pinned_actions = ("go",)  # one click for the autopilot's answer, before any menu (5.7)

    def private_digest(self, view: dict):
        """A panel changes with the hand, the question asked and the policies; not with what others
        do elsewhere on the map (the public board shows that)."""
        me = view.get("me") or {}
        return {"hand": me.get("hand"), "decision": me.get("decision"), "policy": me.get("policy"),
                "prep": me.get("prep")}

    def public_digest(self, view: dict):
        """The board without who is still to hand in a secret answer: a seat finishing its
        preparation or picking its move changes nothing the channel needs to see again."""
        seats = [{k: v for k, v in s.items() if k not in ("acting", "done")} for s in view["seats"]]
        hunt_view = view.get("hunt")
        areas = [{k: v for k, v in a.items() if k != "waiting"} for a in (hunt_view or {}).get("areas", [])]
        return {"phase": view["phase"], "turn": view["turn"], "map": view["map"], "seats": seats,
                "monsters": view["monsters"], "areas": areas, "keep": bool(view.get("keep")),
                "outcome": view["outcome"]}

    def retired(self, state: State) -> set[int]:
        return {i for i, s in enumerate(state["seats"]) if s["retired"]}

    # ---- decks and policies (the bot's generic mechanisms, 3.7 and 5.7) ------------------------------
    def ready_decks(self) -> dict[str, str]:
        return dict(_ready_deck_codes())

    def deck_problems(self, code: str) -> list[Event]:
        """Every problem of a deck code, with what is wrong in numbers and cards (3.7); unknown
        ids stay as typed (they name no card)."""
        from .cards import card_index

        cards = parse_deck_code(code.strip())
        if cards is None:
            return [_problem("code")]
        known, counts = card_index(), Counter(cards)
        out: list[Event] = []
        if len(cards) != RULES["deck_size"]:
            out.append(_problem("size", count=len(cards), size=RULES["deck_size"]))
        over = [c for c, n in sorted(counts.items()) if n > RULES["max_copies"]]
        if over:
            out.append(_problem("copies", over_cards=over, max=RULES["max_copies"]))
        hunters = [c for c in sorted(counts) if known.get(c, {}).get("kind") == "hunters"]
        if hunters:
            out.append(_problem("hunter", hunter_cards=hunters))
        unknown = [c for c in sorted(counts) if c not in known]
        if unknown:
            out.append(_problem("unknown", cards=" ".join(unknown)))
        assert bool(out) == bool(deck_problems(cards))  # one rule, two wordings
        return out

    def deck_cards(self, code: str) -> list[tuple[str, int]]:
        cards = parse_deck_code(code.strip()) or []
        return sorted(Counter(cards).items())

    def with_deck(self, action: str, deck: str) -> str | None:
        """``take H01 2A`` with a deck; the hunter's own ready deck (by name or code) is what the
        plain ``take`` plays, so that gives the plain action back (one canonical form, no twin
        menu option)."""
        words = action.split()
        if len(words) != 3 or words[0] != "take":
            return None
        own = f"ready-{words[1].lower()}"
        return action if deck in (own, self.ready_decks().get(own)) else f"{action} {deck}"

    def policies(self) -> dict[str, tuple[str, ...]]:
        return {k: tuple(v) for k, v in model.POLICY_VALUES.items()}

    def policy_action(self, key: str, value: str) -> str | None:
        return f"auto {key}:{value}" if value in model.POLICY_VALUES.get(key, ()) else None


@lru_cache(maxsize=1)
def _ready_deck_codes() -> dict[str, str]:
    """The ready decks by name (data that never changes; the service asks for it on every click)."""
    return {f"ready-{h.lower()}": deck_code(ready_deck(h)) for h in hunter_ids()}


def _alt(kind: str, **params) -> Event:
    """A part of the position in words (``alt.monsterhunter.<kind>``), not a game event."""
    return {"type": kind, **params}


def _area_words(nodes: dict, node: str | None) -> Event:
    """Where a hunter stands: a seat's camp, or an area by its map name (``b2``)."""
    if node is None or node not in nodes:
        return _alt("nowhere")
    if nodes[node].get("camp"):
        return _alt("camp", seat=nodes[node]["seat"])
    return _alt("area", area=node)
