"""Computer players for every registered game: ``random``, ``easy``, ``normal`` and ``hard``.

>>> from games import get_game
>>> from games.rng import Rng
>>> g = get_game("squares")
>>> s = g.setup(2, {}, seed=7)
>>> choose_action(g, s, 0, Rng(1)) in g.legal_actions(s, 0)
True

The levels (RULES.md has the games; each game's evaluation lives in ``games/<game>/ai.py``):

* ``random``: a uniformly random legal action (what every AI seat did before issue 16).
* ``easy``: a few random legal actions are looked at one move deep and the best of them by the
  game's evaluation is played; a game-set share of its moves is plain random: it prefers good
  moves, but a newcomer can beat it.
* ``normal``: every candidate is evaluated one move deep, the best few are checked against the
  next opponent's best reply (also by evaluation), and the best result is played (a game may
  check against more replies in a row, its own next move and several dice paths: OSU in 4
  players, ``GameAI.reply_plies``, ``own_followup``, ``reply_rolls``).
* ``hard``: Monte Carlo tree search with evaluation cut-offs (no random playouts: a new leaf is
  scored by the evaluation, children start from one-move-deep evaluations as priors), over
  determinizations of everything this seat cannot see (re-dealt each iteration, so chance
  events such as dice are sampled), anchored on ``normal``'s choice: it is played unless the
  search finds an action clearly better, so hard is never a noisier normal (per game:
  ``GameAI.anchor_on_normal``; SQUARESIV plays the plain search). Games may replace a level (Arena Duel's secret simultaneous
  orders are searched by sampling the opponent's dice and orders: ``games/arena/ai.py``; Monster
  Hunter plays out its autopilot over re-deals of the hidden cards: ``games/monsterhunter/ai.py``;
  HOSTILE's hard searches whole turns against the others' modelled replies: ``games/hostile/ai.py``).

Fairness: the AI first replaces the state by ``game.scramble_hidden(state, seat, rng)``, so it
never reads another seat's secrets (Arena orders and dice, deck orders, future dice).

Budget: ``budget`` is a count, never a time, so the same seed and state always give the same
choice (AI games replay): ``hard`` runs ``budget`` search iterations, ``normal`` checks replies to
its ``budget`` best candidates, ``easy`` looks at ``budget`` random candidates (Arena Duel:
``normal`` and ``hard`` sample ``budget`` enemy dice rolls, each against all enemy orders; Monster Hunter: ``normal`` tries ``budget`` answers beside its autopilot's, ``hard``
plays out ``budget`` re-deals; HOSTILE: ``hard`` plays ``budget`` whole turns against replies).
``None`` takes the game's default (``GameAI.default_budget``: its ``budgets``, else
:data:`DEFAULT_BUDGETS`; OSU gives 4 players more). ``should_stop`` is a callable the bot may pass
as a wall-clock safety net: it is polled between iterations (candidates, samples) and the best
choice so far is played (that choice then depends on timing, so only use it as a safety net).

The default level of the four-argument call is ``random``, see :data:`DEFAULT_LEVEL`.

Baselines the benchmark measures the levels against (:func:`baseline_action`; no bot level):

* ``greedy``: the legal action whose resulting position the game's own evaluation scores best,
  one move deep, on the same determinization the levels use (``GameAI.greedy``; Arena Duel: the
  order with the best mean result against uniformly random enemy orders and dice).
* ``pilot``: the game's own autopilot (``game.suggest``: Monster Hunter's ``go``), else greedy.

All randomness comes from the ``rng`` passed in. This module imports nothing impure.
"""

from __future__ import annotations

import importlib
import math
from typing import Callable

from .base import Game, State, copy_state
from .rng import Rng

LEVELS = ("random", "easy", "normal", "hard")
BASELINES = ("greedy", "pilot")
# The four-argument call ``choose_action(game, state, seat, rng)`` keeps its old meaning, a random
# legal action: the contract test and several scenario and renderer tests use it to explore games
# at random (they need tides, transfers, own-colour captures ... to happen), and they fail or
# crawl with a real player. The bot asks for a level explicitly (``level="normal"``).
DEFAULT_LEVEL = "random"
DEFAULT_BUDGETS = {"easy": 2, "normal": 4, "hard": 300}
# Where each game's evaluation lives; games without one play random moves at every level.
_AI_MODULES = {
    "squares": "games.squaresiv.ai",
    "arena": "games.arena.ai",
    "osu": "games.osu.ai",
    "hostile": "games.hostile.ai",
    "monsterhunter": "games.monsterhunter.ai",
}
_loaded: dict[str, "GameAI | None"] = {}


def choose_action(game: Game, state: State, seat: int, rng: Rng, level: str = DEFAULT_LEVEL,
                  budget: int | None = None, should_stop: Callable[[], bool] | None = None) -> str:
    """The action ``seat`` plays in ``state`` at ``level`` (see the module docstring)."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; known: {', '.join(LEVELS)}")
    actions = game.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    ai = None if level == "random" or len(actions) == 1 else game_ai(game)
    if ai is None:
        # A game without a search of its own may offer its players' autopilot (Monster Hunter's `go`).
        suggest = getattr(game, "suggest", None) if level != "random" else None
        suggested = suggest(state, seat) if suggest else None
        return suggested if suggested in actions else rng.choice(actions)
    if budget is None:
        budget = ai.default_budget(state, level)
    budget = max(1, int(budget))
    seen = ai.determinize(game, state, seat, rng)   # from here on, nothing hidden is read
    stop = should_stop or _never
    chosen = ai.choose(game, seen, seat, rng, level, budget, stop)
    if chosen is None:
        chosen = {"easy": easy, "normal": normal, "hard": hard}[level](ai, game, seen, seat, rng, budget, stop)
    return chosen


def baseline_action(game: Game, state: State, seat: int, rng: Rng, kind: str) -> str:
    """The action of the baseline ``kind`` (``greedy`` or ``pilot``, see the module docstring)."""
    if kind not in BASELINES:
        raise ValueError(f"unknown baseline {kind!r}; known: {', '.join(BASELINES)}")
    actions = game.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    if kind == "pilot":
        suggest = getattr(game, "suggest", None)
        suggested = suggest(state, seat) if suggest else None
        if suggested in actions:
            return suggested
    ai = game_ai(game)
    if len(actions) == 1:
        return actions[0]
    if ai is None:   # no evaluation: nothing to be greedy about
        return rng.choice(actions)
    return ai.greedy(game, ai.determinize(game, state, seat, rng), seat, rng)


def game_ai(game: Game) -> "GameAI | None":
    """The game's AI (its evaluation and search hooks), or None for games without one."""
    if game.name not in _loaded:
        module = _AI_MODULES.get(game.name)
        _loaded[game.name] = importlib.import_module(module).AI if module else None
    return _loaded[game.name]


def _never() -> bool:
    return False


# ---- the engine as search uses it ---------------------------------------------------------------------
def simulate(game: Game, state: State, seat: int, action: str) -> State:
    """``game.apply(state, seat, action)[0]`` for an action known to be legal: the same rules on a
    fast copy, without re-checking turn and legality (the caller took ``action`` from
    ``legal_actions``), which search cannot afford on every step."""
    new = copy_state(state)
    game._apply(new, seat, action)
    return new


def softmax(values: list[float], sharpness: float) -> list[float]:
    """Shares proportional to ``exp(sharpness * value)`` (shifted by the top value: no overflow)."""
    top = max(values)
    weights = [math.exp(sharpness * (v - top)) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def outcome_values(game: Game, state: State) -> list[float] | None:
    """1 for each winner, 0 for each loser, 0.5 for everyone on a draw; None while running."""
    out = game.outcome(state)
    if out is None:
        return None
    if out.draw or not out.winners:
        return [0.5] * state["players"]
    return [1.0 if s in out.winners else 0.0 for s in range(state["players"])]


class GameAI:
    """One game's evaluation and search hooks; ``games/<game>/ai.py`` subclasses it as ``AI``."""

    # search may reuse a node's children without re-listing legal actions (no chance, no secrets)
    deterministic = False
    budgets: dict[str, int] = {}
    # one-move-deep scores of a move that used the game's RNG (dice) average this many rolls
    chance_samples = 1
    # easy plays this share of its moves uniformly at random (so a newcomer can beat it)
    easy_random_percent = 0
    # hard plays normal's choice unless its search finds a clearly better one (see ``hard``);
    # off where the plain search is measured stronger (SQUARESIV)
    anchor_on_normal = True

    def values(self, game: Game, state: State) -> list[float]:
        """How good ``state`` is for every seat, each in [0, 1] (team mates equal). Called on
        running states only; finished ones are scored by :func:`outcome_values`."""
        raise NotImplementedError

    def candidates(self, game: Game, state: State, seat: int) -> list[str]:
        """The actions search considers (default: all legal); games prune silly ones here."""
        return game.legal_actions(state, seat)

    def determinize(self, game: Game, state: State, seat: int, rng: Rng) -> State:
        return game.scramble_hidden(state, seat, rng)

    def actor(self, game: Game, state: State) -> int:
        """The seat that acts next in a simulated game."""
        return min(game.to_act(state))

    def default_budget(self, state: State, level: str) -> int:
        """The level's budget when the caller names none (a game may vary it by player count)."""
        return self.budgets.get(level, DEFAULT_BUDGETS[level])

    def reply_plies(self, game: Game, state: State, seat: int) -> int:
        """How many opponent moves in a row ``normal`` plays out after each of its candidates,
        each opponent taking its best move by its own evaluation (default: the next one only)."""
        return 1

    def own_followup(self, game: Game, state: State, seat: int) -> bool:
        """Whether ``normal`` also plays this seat's own best next move after the replies."""
        return False

    def reply_rolls(self, game: Game, state: State, seat: int) -> int:
        """How many times ``normal`` plays each candidate and its replies out, the game's RNG
        re-seeded each time (dice): one path's values are noisy, and the best of several
        candidates by one path each is the luckiest rather than the best."""
        return 1

    def simulate(self, game: Game, state: State, seat: int, action: str) -> State:
        """:func:`simulate`; a game may copy its states faster than the generic deep copy."""
        return simulate(game, state, seat, action)

    def choose(self, game, state, seat, rng, level, budget, should_stop) -> str | None:
        """A game's own algorithm for a level, or None to use the generic one."""
        return None

    def greedy(self, game: Game, state: State, seat: int, rng: Rng) -> str:
        """The baseline ``greedy`` on a determinized state: the best legal action one move deep
        by :meth:`values` (dice averaged as the levels average them)."""
        return self.ranked(game, state, seat, game.legal_actions(state, seat), rng)[0][2]

    # ---- shared helpers ------------------------------------------------------------------------------
    def score(self, game: Game, state: State) -> list[float]:
        done = outcome_values(game, state)
        return done if done is not None else self.values(game, state)

    def ranked(self, game: Game, state: State, seat: int, actions: list[str], rng: Rng,
               chance: bool = True) -> list[tuple]:
        """``(value for seat, tiebreak, action, new state, all values)`` best first; the random
        tiebreak keeps equal moves from always resolving the same way. ``chance`` False scores
        one roll only (search samples rolls by re-determinizing every iteration anyway)."""
        out = []
        for a in actions:
            new = self.simulate(game, state, seat, a)
            vals = self.score(game, new)
            if chance and self.chance_samples > 1 and new.get("rng") != state.get("rng"):
                # the move rolled dice: average over a few re-seeded rolls
                total = list(vals)
                for _ in range(self.chance_samples - 1):
                    trial = dict(state, rng=rng.below(1 << 62))
                    total = [t + v for t, v in zip(total, self.score(game, self.simulate(game, trial, seat, a)))]
                vals = [t / self.chance_samples for t in total]
            out.append((vals[seat], rng.below(1 << 30), a, new, vals))
        out.sort(key=lambda t: (-t[0], t[1]))
        return out


# ---- easy: the best of a few random candidates, one move deep ---------------------------------------
def easy(ai: GameAI, game: Game, state: State, seat: int, rng: Rng, budget: int, should_stop) -> str:
    if rng.below(100) < ai.easy_random_percent:
        return rng.choice(game.legal_actions(state, seat))
    actions = ai.candidates(game, state, seat) or game.legal_actions(state, seat)
    picks = [actions[rng.below(len(actions))] for _ in range(budget)]
    return ai.ranked(game, state, seat, list(dict.fromkeys(picks)), rng)[0][2]


# ---- normal: one move deep for all, the best few checked against the next opponent's reply ----------
def normal(ai: GameAI, game: Game, state: State, seat: int, rng: Rng, budget: int, should_stop) -> str:
    actions = ai.candidates(game, state, seat) or game.legal_actions(state, seat)
    ranked = ai.ranked(game, state, seat, actions, rng)
    best, best_value = ranked[0][2], -1.0
    rolls = ai.reply_rolls(game, state, seat)
    for value, _, action, new, vals in ranked[:budget]:
        if should_stop():
            break
        reply = _reply_value(ai, game, new, seat, rng)
        if reply is not None and rolls > 1:
            for _ in range(rolls - 1):
                trial = ai.simulate(game, dict(state, rng=rng.below(1 << 62)), seat, action)
                again = _reply_value(ai, game, trial, seat, rng)
                reply += again if again is not None else ai.score(game, trial)[seat]
            reply /= rolls
        v = reply if reply is not None else value
        if v > best_value:
            best, best_value = action, v
    return best


def _reply_value(ai: GameAI, game: Game, state: State, seat: int, rng: Rng) -> float | None:
    """``seat``'s value after the next opponents' best replies by their own evaluations (as many
    in a row as ``ai.reply_plies``, stopping when a team mate is to act or the game ends; when it
    is ``seat``'s turn again, after its own best move if ``ai.own_followup``); None when no
    opponent moves next."""
    value = None
    plies = ai.reply_plies(game, state, seat)
    for ply in range(plies + 1):   # the extra step is only ever this seat's own follow-up
        if game.outcome(state) is not None:
            break
        other = ai.actor(game, state)
        if other == seat and value is not None and ai.own_followup(game, state, seat):
            # the round came back to this seat: its best next move (a capture it set up)
            replies = ai.candidates(game, state, other) or game.legal_actions(state, other)
            value = ai.ranked(game, state, other, replies, rng)[0][4][seat]
            break
        if other == seat or _mates(ai, game, state, seat, other) or ply == plies:
            break
        replies = ai.candidates(game, state, other) or game.legal_actions(state, other)
        _, _, _, state, vals = ai.ranked(game, state, other, replies, rng)[0]
        value = vals[seat]
    return value


def _mates(ai: GameAI, game: Game, state: State, a: int, b: int) -> bool:
    team = getattr(ai, "team_of", None)
    return team is not None and team(state, a) == team(state, b)


# ---- hard: MCTS with evaluation cut-offs over determinizations ------------------------------------
class _Node:
    """Statistics of the actions tried from one point of the (open-loop) tree: the states under
    a node differ between determinizations, so children are keyed by action text only."""

    __slots__ = ("n", "children")

    def __init__(self):
        self.n = 0
        self.children: dict[str, list] = {}   # action -> [visits, value sum, child node]


PRIOR_VISITS = 2     # a child's one-move-deep evaluation counts as this many visits
EXPLORE = 0.5        # UCT exploration constant (values are in [0, 1])
MAX_DEPTH = 40       # a guard for games that chain many own actions


ANCHOR_VISITS = 4    # normal's choice enters the root with this many extra prior visits
SWITCH_RATIO = 1.5   # hard leaves normal's choice only for an action visited this many times more ...
SWITCH_MARGIN = 0.02  # ... whose mean value is also higher by this much


def hard(ai: GameAI, game: Game, state: State, seat: int, rng: Rng, budget: int, should_stop) -> str:
    """MCTS anchored on ``normal``'s choice: that choice gets extra prior visits at the root and is
    played unless the search finds an action clearly better (by visits and by value), so a search
    too short to see further (HOSTILE's multi-step turns, SQUARESIV's costly expansions) falls
    back to normal's full-width check instead of a noisier pick of its own."""
    anchor = None
    if ai.anchor_on_normal:
        anchor = normal(ai, game, state, seat, rng, ai.default_budget(state, "normal"), should_stop)
    root = _Node()
    for _ in range(budget):
        s = ai.determinize(game, state, seat, rng) if not ai.deterministic else state
        node, path = root, []
        values = None
        for _depth in range(MAX_DEPTH):
            if game.outcome(s) is not None:
                values = outcome_values(game, s)
                break
            actor = ai.actor(game, s)
            legal = None if (ai.deterministic and node.children) else ai.candidates(game, s, actor)
            fresh = [a for a in legal if a not in node.children] if legal is not None else []
            if fresh or not node.children:
                # expand: score every new action one move deep; they enter with prior visits, and
                # the best of them is this iteration's leaf (its evaluation is backed up)
                ranked = ai.ranked(game, s, actor, fresh or legal, rng, chance=False)
                for v, _, a, _new, _vals in ranked:
                    prior = PRIOR_VISITS + (ANCHOR_VISITS if node is root and a == anchor else 0)
                    node.children[a] = [prior, prior * v, None]
                _, _, best, s, values = ranked[0]
                path.append((node, best, actor))
                break
            usable = node.children if legal is None else {a: node.children[a] for a in legal}
            log_n = math.log(node.n + 1)
            best = max(usable, key=lambda a: usable[a][1] / usable[a][0]
                       + EXPLORE * math.sqrt(log_n / usable[a][0]))
            child = node.children[best]
            path.append((node, best, actor))
            s = ai.simulate(game, s, actor, best)
            if child[2] is None:
                child[2] = _Node()
            node = child[2]
        if values is None:
            values = ai.score(game, s)
        for n, action, actor in path:
            n.n += 1
            stats = n.children[action]
            stats[0] += 1
            stats[1] += values[actor]   # max-n: each seat maximises its own value
        if should_stop():
            break
    # the most visited action (its value breaks ties), if it clearly beats normal's choice
    best = max(root.children, key=lambda a: (root.children[a][0], root.children[a][1] / root.children[a][0]))
    if best == anchor or anchor not in root.children:
        return best
    (n_best, sum_best, _), (n_anchor, sum_anchor, _) = root.children[best], root.children[anchor]
    clearly = (n_best >= SWITCH_RATIO * n_anchor
               and sum_best / n_best >= sum_anchor / n_anchor + SWITCH_MARGIN)
    return best if clearly else anchor
