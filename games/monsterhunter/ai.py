"""Monster Hunter levels for :mod:`games.ai` (MONSTER_HUNTER.md part 1: race to the HR target).

Every level builds on the players' own autopilot (5.7, ``autopilot.suggest``), which reads only
the seat's view:

* ``easy``: the autopilot, but a share of its decisions is a random legal answer.
* ``normal``: the autopilot's answer and a few other legal answers are each played out to the end
  of the current turn, every seat then answering with the autopilot, and the end position is
  scored by the evaluation below; the best wins (the autopilot's answer keeps ties).
* ``hard``: determinized search: for each of ``budget`` re-deals of what the seat cannot see
  (``scramble_hidden``: the others' hands, deck orders, face-down monsters, secret answers and
  future draws), every candidate is played out to the end of the *next* turn the same way; each
  re-deal votes for its best candidate, and the most voted one is played (mean value breaks ties).

The evaluation: a seat's standing is its HR plus a little for the equipment it wears, the cards
in hand and its face-down monsters on the map (the result phase can score them as points), less
its retreats; values are the logistic of the standing minus the best other
seat's. Play-outs mutate one copy in place (no copy per step), so a candidate costs a turn of
autopilot answers.

Fairness: :meth:`MonsterHunterAI.determinize` first puts every hidden thing in a canonical order
(the others' hand, deck and face-down monster cards pooled and sorted, the seat's own deck
sorted), so the re-deal depends only on what the seat may know.
"""

from __future__ import annotations

import math

from ..ai import GameAI, outcome_values
from ..base import copy_state
from .cards import kind_of

EQUIP = 0.8        # a weapon or armour worn
HAND = 0.15        # per card in hand
FACE_DOWN = 0.5    # per own face-down monster on the map
RETREAT = 1.0      # per retreat
SCALE = 0.45
PLAYOUT_STEPS = 400  # a guard; a turn takes about 10-25 answers


def _standing(state, seat: int) -> float:
    s = state["seats"][seat]
    if s["retired"]:
        return -100.0
    value = float(s["hr"]) + EQUIP * ((s["weapon"] is not None) + (s["armour"] is not None))
    value += HAND * len(s["hand"]) - RETREAT * s["retreats"]
    value += FACE_DOWN * sum(1 for m in state["monsters"] if m["seat"] == seat and not m["up"])
    return value


class MonsterHunterAI(GameAI):
    # easy: unused; normal: other answers tried beside the autopilot's; hard: re-deals
    budgets = {"easy": 1, "normal": 5, "hard": 6}
    easy_random_percent = 55
    hard_width = 7       # other answers hard tries beside the autopilot's

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
        pilot = game._suggest(state, seat)
        if level == "easy":
            return rng.choice(real) if rng.below(100) < self.easy_random_percent else pilot
        if len(real) <= 1:
            return pilot
        if level == "normal":
            candidates = _candidates(real, pilot, budget, rng)
            return self._best(game, state, seat, candidates, 1)[0]
        candidates = _candidates(real, pilot, self.hard_width, rng)
        votes = {a: 0 for a in candidates}
        totals = {a: 0.0 for a in candidates}
        for i in range(budget):
            seen = state if i == 0 else self.determinize(game, state, seat, rng)
            best, scores = self._best(game, seen, seat, candidates, 2)
            votes[best] += 1
            for a, v in scores.items():
                totals[a] += v
            if should_stop():
                break
        return max(candidates, key=lambda a: (votes[a], totals[a], a == pilot))

    def _best(self, game, state, seat, candidates, turns) -> tuple[str, dict]:
        """The best candidate after play-outs to the end of ``turns`` turns (1: this one), and every
        candidate's value; the first candidate (the autopilot's answer) keeps ties."""
        scores = {a: self._playout(game, state, seat, a, turns) for a in candidates}
        best = candidates[0]
        for a in candidates[1:]:
            if scores[a] > scores[best] + 1e-9:
                best = a
        return best, scores

    def _playout(self, game, state, seat, action, turns) -> float:
        s = copy_state(state)
        game._apply(s, seat, action)
        stop_turn = state["turn"] + turns
        for _ in range(PLAYOUT_STEPS):
            if game.outcome(s) is not None or s["turn"] >= stop_turn:
                break
            game._apply(s, min(game.to_act(s)), "go")
        done = outcome_values(game, s)
        return (done if done is not None else self.values(game, s))[seat]


def _candidates(real: list[str], pilot: str, width: int, rng) -> list[str]:
    """The autopilot's answer first, then up to ``width`` other legal answers drawn at random."""
    others = [a for a in real if a != pilot]
    if len(others) > width:
        others = [others[i] for i in sorted(rng.shuffled(list(range(len(others))))[:width])]
    return [pilot] + others


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
