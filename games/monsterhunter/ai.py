"""Monster Hunter levels for :mod:`games.ai` (MONSTER_HUNTER.md part 1: race to the HR target).

Every level builds on the players' own autopilot (5.7, ``autopilot.suggest``), which reads only
the seat's view:

* ``easy``: the autopilot, but a share of its decisions is a random legal answer.
* ``normal``: the autopilot's answer and a few other legal answers are each played out to the end
  of the current turn on the state and :attr:`MonsterHunterAI.normal_redeals` - 1 re-deals of what
  the seat cannot see, every seat then answering with the autopilot, and the end positions are
  scored by the evaluation below; the best sum wins if it beats the autopilot's answer by
  ``hard_margin`` a deal (issue 44: on one deal it chased that deal's luck).
* ``hard``: determinized search anchored on ``normal``: it first makes normal's choice (same
  generator, so still reproducible), then plays normal's candidates and a few more legal answers
  out to the end of the *next* turn on each of ``budget`` re-deals of what the seat cannot see
  (``scramble_hidden``: the others' hands, deck orders, face-down monsters, secret answers and
  future draws). Every candidate sees the same re-deals, so the luck of a deal cancels out, and
  its values are averaged over them (the earlier majority vote per re-deal, without the anchor,
  was not measurably stronger than normal); normal's choice is played unless another candidate's
  mean beats it by ``hard_margin``, so hard is not a noisier normal.

The evaluation: a seat's standing is its HR plus a little for the equipment it wears, the cards
in hand (more for monster cards, later face-down monsters) and its face-down monsters on the map
(the result phase scores them, R83), less its retreats; values are the logistic of the standing
minus the best other seat's. Normal and hard never weigh ``deploy -`` against the autopilot's
deploy (see :func:`_keep_deploying`). Play-outs mutate one copy in place (no copy per step), so
a candidate costs a turn of autopilot answers; those answers come from :func:`pilot_answer`, which
gives ``go``'s answer from a light view (the full view's deep copies took most of a play-out's
time).

Fairness: :meth:`MonsterHunterAI.determinize` first puts every hidden thing in a canonical order
(the others' hand, deck and face-down monster cards pooled and sorted, the seat's own deck
sorted), so the re-deal depends only on what the seat may know.
"""

from __future__ import annotations

import math

from ..ai import GameAI, outcome_values
from ..base import copy_state
from . import autopilot, model
from .cards import kind_of

EQUIP = 0.8        # a weapon or armour worn
HAND = 0.15        # per card in hand
FACE_DOWN = 0.5    # per own face-down monster on the map
MONSTER_CARD = 0.4  # per monster card in hand (a later face-down monster)
RETREAT = 1.0      # per retreat
SCALE = 0.45
PLAYOUT_STEPS = 400  # a guard; a turn takes about 10-25 answers


def _standing(state, seat: int) -> float:
    s = state["seats"][seat]
    if s["retired"]:
        return -100.0
    value = float(s["hr"]) + EQUIP * ((s["weapon"] is not None) + (s["armour"] is not None))
    value += HAND * len(s["hand"]) - RETREAT * s["retreats"]
    value += MONSTER_CARD * sum(1 for c in s["hand"] if kind_of(c) == "monsters")
    value += FACE_DOWN * sum(1 for m in state["monsters"] if m["seat"] == seat and not m["up"])
    return value


class MonsterHunterAI(GameAI):
    # easy: unused; normal: other answers tried beside the autopilot's; hard: re-deals
    # hard 16 re-deals: at 8, against normal on 4 deals (issue 44), it scored 45% in 2p (40 games);
    # at 16, 67.6% (34 games)
    budgets = {"easy": 1, "normal": 5, "hard": 16}
    easy_random_percent = 55
    hard_width = 7       # other answers hard tries beside the autopilot's
    hard_margin = 0.01   # mean value by which a candidate must beat normal's choice
    # hard's play-outs run to the end of the next turn; to this turn's end it was no better against
    # random in 4p (89%, n=88) and looked worse against normal in 2p (53%, n=32)
    hard_turns = 2
    # normal: re-deals each candidate is played out on, to this turn's end (8 scored 77.5% against
    # the autopilot in 2p, 4 82.5%, 1 67.5%; 40 games each)
    normal_redeals = 4

    def values(self, game, state) -> list[float]:
        players = state["players"]
        standing = [_standing(state, s) for s in range(players)]
        out = []
        for s in range(players):
            best_other = max(standing[o] for o in range(players) if o != s)
            out.append(1.0 / (1.0 + math.exp(-SCALE * (standing[s] - best_other))))
        return out

    def determinize(self, game, state, seat, rng):
        return game.scramble_hidden(_canonical(state, seat), seat, rng)

    def choose(self, game, state, seat, rng, level, budget, should_stop) -> str | None:
        real = [a for a in game.legal_actions(state, seat) if a != "go" and not a.startswith("auto ")]
        pilot = pilot_answer(game, state, seat)
        if level == "easy":
            return rng.choice(real) if rng.below(100) < self.easy_random_percent else pilot
        real = _keep_deploying(real, pilot)
        if len(real) <= 1:
            return pilot
        candidates = _candidates(real, pilot, self.budgets["normal"] if level == "hard" else budget, rng)
        # to this turn's end: to the next one's, normal fell from 92% to 62% vs random in 4p (48 games)
        # averaged over a few re-deals: on one deal, normal followed that deal's luck away from
        # the autopilot's answer and scored 67.5% against the autopilot (2p, 40 games); on 4, 82.5%
        anchor = self._averaged(game, state, seat, rng, self.normal_redeals, should_stop, candidates,
                                candidates[0], 1)
        if level == "normal":
            return anchor
        return self._hard(game, state, seat, rng, budget, should_stop, real, candidates, anchor)

    def _hard(self, game, state, seat, rng, budget, should_stop, real, tried, anchor) -> str:
        """Normal's choice (``anchor``), unless another candidate's value averaged over ``budget``
        re-deals (the same re-deals for every candidate, so the luck of a deal cancels out) beats it
        by ``hard_margin``. The candidates are normal's, plus more legal answers up to ``hard_width``
        others beside the autopilot's; each is played out to the end of the next turn."""
        extra = [a for a in real if a not in tried]
        room = max(0, self.hard_width + 1 - len(tried))
        if len(extra) > room:
            extra = [extra[i] for i in sorted(rng.shuffled(list(range(len(extra))))[:room])]
        return self._averaged(game, state, seat, rng, budget, should_stop, tried + extra, anchor, self.hard_turns)

    def _averaged(self, game, state, seat, rng, budget, should_stop, candidates, anchor, turns) -> str:
        """The candidate with the best value summed over ``budget`` deals (the state given, then
        re-deals) played out to the end of ``turns`` turns, if it beats ``anchor`` by
        ``hard_margin`` per deal; else ``anchor``."""
        totals = {a: 0.0 for a in candidates}
        for i in range(budget):
            seen = state if i == 0 else self.determinize(game, state, seat, rng)
            for a in candidates:
                totals[a] += self._playout(game, seen, seat, a, turns)
            if should_stop():
                break
        best = max(candidates, key=lambda a: (totals[a], a == anchor))
        return best if totals[best] > totals[anchor] + self.hard_margin * budget else anchor

    def _playout(self, game, state, seat, action, turns) -> float:
        s = copy_state(state)
        game._apply(s, seat, action)
        stop_turn = state["turn"] + turns
        for _ in range(PLAYOUT_STEPS):
            if game.outcome(s) is not None or s["turn"] >= stop_turn:
                break
            actor = min(game.to_act(s))
            game._apply(s, actor, pilot_answer(game, s, actor))
        done = outcome_values(game, s)
        return (done if done is not None else self.values(game, s))[seat]


def _keep_deploying(real: list[str], pilot: str) -> list[str]:
    """Without ``deploy -`` when the autopilot deploys: a face-down monster scores at every result
    phase it survives (R83), which a play-out to the turn's end undervalues, the more so as its
    rivals are autopilots that head for face-down monsters (random players do not). Measured: normal
    passed on a fifth of its deploys, and vs random in 4p won 69% with that, 82% without."""
    if pilot.startswith("deploy ") and pilot != "deploy -":
        return [a for a in real if a != "deploy -"]
    return real


def _candidates(real: list[str], pilot: str, width: int, rng) -> list[str]:
    """The autopilot's answer first, then up to ``width`` other legal answers drawn at random."""
    others = [a for a in real if a != pilot]
    if len(others) > width:
        others = [others[i] for i in sorted(rng.shuffled(list(range(len(others))))[:width])]
    return [pilot] + others


def pilot_answer(game, state, seat: int) -> str:
    """What ``go`` plays for ``seat`` (``game._suggest``), from a read-only view holding just what
    the autopilot reads: the full view deep-copies the map, the last events and the frozen seats,
    which took most of a play-out's time. A test checks both answer alike."""
    legal = game.legal_actions(state, seat)
    return autopilot.suggest(_pilot_view(game, state, seat), legal) or next(a for a in legal if a != "go")


def _pilot_view(game, state, seat: int) -> dict:
    """The parts of ``game.view(state, seat)`` the autopilot reads, sharing the state's lists
    (nothing here is written to). Other seats show their frozen public snapshot during P, as in
    the full view; face-down monsters show their card to their owner only."""
    phase = state["phase"]
    frozen = state["frozen"] if phase == "prep" else None
    seats = []
    for i, s in enumerate(state["seats"]):
        if i == seat:
            seats.append({"seat": i, "hunter": s["hunter"], "pos": s["pos"], "weapon": s["weapon"],
                          "armour": s["armour"], "bonus": s["bonus"], "deck_count": len(s["deck"]),
                          "discard": s["discard"], "stats": model.stats(s) if s["hunter"] else None})
        elif frozen and not s["retired"]:
            seats.append(frozen[i])
        else:
            seats.append({"seat": i, "pos": s["pos"]})
    monsters = []
    for m in sorted(state["monsters"], key=lambda m: m["id"]):
        if m["up"] or m["seat"] == seat:
            monsters.append(m)
        else:
            monsters.append({"id": m["id"], "seat": m["seat"], "area": m["area"], "up": False})
    keep = None
    if state.get("keep"):
        answers = state["keep"]["answers"]
        keep = {"groups": [dict(g, answered=str(i) in answers) for i, g in enumerate(state["keep"]["groups"])]}
    return {"viewer": seat, "players": state["players"], "outcome": state["outcome"], "phase": phase,
            "options": state["options"], "map": state["map"], "seats": seats, "monsters": monsters,
            "keep": keep, "me": {"hand": sorted(state["seats"][seat]["hand"]),
                                 "decision": game._decision(state, seat)}}


def _canonical(state, seat: int):
    """A copy in which the hidden orders carry no information: every other seat's hand, deck and
    face-down monster cards pooled and sorted (monster cards first onto the face-down monsters),
    the seat's own deck sorted. The re-deal of ``scramble_hidden`` then starts from the same state
    whatever the hidden truth was."""
    new = copy_state(state)
    for i, s in enumerate(new["seats"]):
        if i == seat:
            s["deck"] = sorted(s["deck"])
            continue
        hidden = [m for m in new["monsters"] if m["seat"] == i and not m["up"]]
        pool = sorted(s["hand"] + s["deck"] + [m["card"] for m in hidden])
        monsters = [c for c in pool if kind_of(c) == "monsters"]
        for m, card in zip(hidden, monsters):
            m["card"] = card
            pool.remove(card)
        s["hand"], s["deck"] = pool[:len(s["hand"])], pool[len(s["hand"]):]
    return new


AI = MonsterHunterAI()
