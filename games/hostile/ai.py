"""HOSTILE evaluation and move pruning for :mod:`games.ai` (RULES.md §1: collect the most gems).

A side's standing is its gems plus what it can expect to collect soon:

* *reach*: the most gems its piece can collect with its action points -- every sequence of up to
  that many steps is walked with the real movement rules (slides, ice, springs, stops, walls,
  forbidden squares; a ghost ignores tiles). On the side's own turn this is counted in full (it
  is about to happen); otherwise it is discounted (others move first, new gems appear), plus a
  small pull towards gems farther away, so a piece walks towards the rich part of the board.
* a little for each hand tile (a gem tile the more the nearer its square) and the skill held.

Values are the logistic of a side's standing minus the best other side's (team mates share).
Because the reach of every side is in the evaluation, a placement or rotation that shortens an
opponent's walk (or lengthens one's own) scores without special rules, and a spring pointed at
one's own start scores as badly as it plays.

Search prunes placements, rotations and crashes to squares near some piece (at most
:data:`MAX_PLACEMENTS` placements, spread evenly over the list); the rest of the moves stay.

``normal`` does not use the generic reply check either: each of its best first actions is followed
to the end of its own turn and the next opponent's reply before it is scored
(:func:`whole_turn_normal`). ``hard`` does not use the generic tree search: it lists whole turns of its own (a beam over the
turn's actions for the few best first actions), plays each against the other seats' modelled
replies until its next turn and plays the first action of the best (:func:`turn_search`); the
generic search, an action at a time, never saw past its own turn.
"""

from __future__ import annotations

import math
from functools import lru_cache

from ..ai import GameAI, outcome_values
from .engine import MOVEMENT, SQUARES, _state_key, can_cross, corner_squares, forced_step, is_gem_tile
from .tiles import ORTHOGONAL, board, coords, floor_kinds, step

FUTURE = 0.45          # reach on a later turn, per gem
PULL = 0.06            # per gem, times 0.6 ** distance, for the gems beyond reach
GEM_TILE = 0.5         # a gem tile in hand (plus PULL-like nearness)
FLOOR_TILE = 0.12      # a floor tile in hand
SKILL = {"quick": 0.5, "ghost": 0.3, "recall": 0.3, "steal": 0.25, "crash": 0.2, "rotate": 0.2, "king": 0.15}
SCALE = 0.35
MAX_PLACEMENTS = 24
START_BONUS = 1.5      # hard's search only: starting the next round (see HostileAI.leaf_values)
NEAR = 2               # Chebyshev distance to a piece for pruned placements / rotations / crashes


# squares are a small fixed set: distances are cached (search asks for them millions of times)
@lru_cache(maxsize=None)
def _cheb(a: str, b: str) -> int:
    (ac, ar), (bc, br) = coords(a), coords(b)
    return max(abs(ac - bc), abs(ar - br))


@lru_cache(maxsize=None)
def _near(piece: str) -> frozenset:
    """The squares within :data:`NEAR` (Chebyshev) of ``piece``."""
    return frozenset(sq for sq in SQUARES if _cheb(sq, piece) <= NEAR)


@lru_cache(maxsize=None)
def _falloff(piece: str) -> dict:
    """``0.6 ** manhattan distance`` from ``piece`` to every square (the same floats, tabulated:
    the evaluation sums them over the gems for every seat of every searched position)."""
    col, row = coords(piece)
    out = {}
    for sq in SQUARES:
        c, r = coords(sq)
        out[sq] = 0.6 ** (abs(col - c) + abs(row - r))
    return out


class _Walker:
    """The movement rules for one seat on a fixed board (others' pieces do not move meanwhile)."""

    def __init__(self, state, seat: int):
        self.tiles = state["tiles"]
        self.gems = state["gems"]
        starts = set(corner_squares())
        own = corner_squares()[state["corners"][seat]]
        self.forbidden = (starts - {own}) | {p for s, p in enumerate(state["pos"]) if s != seat and p}
        self.ghost = state["phase"] == "turn" and state["skills"][seat] == "ghost"
        self.kinds = floor_kinds()
        self.read: set[str] = set()   # every square whose tile, gem or blocking a walk looked at

    def blocked(self, square) -> bool:
        if square is None:
            return True
        self.read.add(square)
        return square in self.forbidden

    def walk(self, here: str, direction: str) -> tuple[str, list[str], bool] | None:
        """(where the piece ends, squares it collects from, stopped) for an AP step; None if
        the step is not allowed."""
        to = step(here, direction)
        if self.blocked(to):
            return None
        if self.ghost:
            return to, [to], False
        tiles = self.tiles
        if not can_cross(tiles, here, to, direction):
            return None
        collected = [to]
        square, way, seen = to, direction, set()
        while True:
            tile = tiles.get(square)
            if not tile:
                return square, collected, False
            effect = self.kinds[tile[0]].effect
            if effect == "stop":
                return square, collected, True
            if effect not in MOVEMENT:
                return square, collected, False
            key = _state_key(tiles, square, way)
            if key in seen:
                return square, collected, False
            seen.add(key)
            _, target, new_way = forced_step(tiles, square, way, self.blocked)
            if target is None:
                return square, collected, False
            collected.append(target)
            square, way = target, new_way

    def reach(self, here: str, ap: int, stopped: bool) -> int:
        """The most gems collectable with ``ap`` steps from ``here``."""
        gems = self.gems
        steps: dict = {}   # square -> its allowed steps: paths cross the same squares many times

        def steps_from(square: str) -> list:
            found = steps.get(square)
            if found is None:
                found = steps[square] = [
                    (end, [sq for sq in dict.fromkeys(collected) if gems.get(sq)], stop)
                    for end, collected, stop in filter(None, (self.walk(square, d) for d in ORTHOGONAL))]
            return found

        more: dict = {}    # (square, AP left, gems taken) -> the most still to collect: paths meet

        def most(square: str, ap_left: int, taken: frozenset) -> int:
            if ap_left <= 0:
                return 0
            key = (square, ap_left, taken)
            found = more.get(key)
            if found is None:
                found = 0
                for end, gem_squares, stop in steps_from(square):
                    left = 0 if stop else ap_left - 1
                    new = [sq for sq in gem_squares if sq not in taken]
                    if new:   # most steps collect nothing: no sum, no new set for them
                        found = max(found, sum(gems[sq] for sq in new) + most(end, left, taken.union(new)))
                    elif left:
                        found = max(found, most(end, left, taken))
                more[key] = found
            return found

        return 0 if stopped else most(here, ap, frozenset())


# reach results by (square, AP, stopped, ghost), each kept with what its walks read: a tile
# placed, a gem laid or a piece moved where none of them looked leaves the reach as it was, and
# search scores many such siblings (a placement near one piece, seen from the others)
_REACH_MEMO: dict = {}
_REACH_KEEP = 12   # recent boards per key


def _snapshot(walker: _Walker, squares) -> tuple:
    """What the walks read: the squares, their tiles and gems, and which of them were blocked."""
    squares = tuple(squares)
    return (squares, tuple(map(walker.tiles.get, squares)), tuple(map(walker.gems.get, squares)),
            walker.forbidden.intersection(squares))


def _still(walker: _Walker, reads: tuple) -> bool:
    # whole tuples compared at once (the lookups run in C): search asks this a million times
    squares, tiles, gems, blocked = reads
    return (tuple(map(walker.tiles.get, squares)) == tiles and tuple(map(walker.gems.get, squares)) == gems
            and walker.forbidden.intersection(squares) == blocked)


def reach(state, seat: int, here: str, ap: int, stopped: bool) -> int:
    """``_Walker(state, seat).reach(here, ap, stopped)``, memoised by what it reads."""
    walker = _Walker(state, seat)
    key = (here, ap, stopped, walker.ghost)
    entries = _REACH_MEMO.setdefault(key, [])
    for reads, value in reversed(entries):   # the newest first: siblings share the latest board
        if _still(walker, reads):
            return value
    walker.read.add(here)
    value = walker.reach(here, ap, stopped)
    entries.append((_snapshot(walker, walker.read), value))
    if len(entries) > _REACH_KEEP:
        del entries[0]
    return value


def standing(game, state, seat: int) -> float:
    """Gems held plus the expected gain of one seat (see the module docstring)."""
    pos = state["pos"][seat]
    value = float(state["score"][seat])
    if pos is None:   # 3 players before the corner pick
        return value
    skill = state["skills"][seat]
    turn = state["turn"]
    if state["phase"] == "turn" and state["actor"] == seat and turn:
        value += reach(state, seat, pos, turn["ap"], turn["stopped"])
    else:
        ap = board()["action_points"] + (board()["skills"]["quick"]["extra_ap"] if skill == "quick" else 0)
        value += FUTURE * reach(state, seat, pos, ap, False)
    falloff = _falloff(pos)
    value += PULL * sum(n * falloff[sq] for sq, n in state["gems"].items())
    for tile in state["hands"][seat]:
        if is_gem_tile(tile):
            value += GEM_TILE + 0.3 * falloff[tile]
        else:
            value += FLOOR_TILE
    if skill and state["phase"] in ("skill", "draft", "turn"):
        value += SKILL.get(skill, 0.0)
    return value


_VALUES_MEMO: dict = {}
_VALUES_MEMO_SIZE = 5_000   # a few hard decisions (about 2.5 kB each): bounded for the bot's memory


def _values_key(state) -> tuple:
    """Every field :func:`standing` and :meth:`HostileAI.values` read (a change there needs one
    here: ``tests/test_ai.py`` checks the memo against a fresh evaluation)."""
    turn = state["turn"]
    return (state["phase"], state["actor"], (turn["ap"], turn["stopped"]) if turn else None,
            tuple(state["score"]), tuple(state["pos"]), tuple(state["skills"]), tuple(state["corners"]),
            frozenset((sq, kind, orient) for sq, (kind, orient) in state["tiles"].items()),
            # gems in their order: the pull sums floats over them (the same order, the same bits)
            tuple(state["gems"].items()), tuple(tuple(hand) for hand in state["hands"]),
            tuple(tuple(team) for team in state["teams"]))


# the state's lists the rules change in place (see HostileAI.simulate)
_COPIED_LISTS = ("pos", "score", "reached", "queue", "skills", "pool", "line_floor", "line_gems",
                 "gem_deck", "gem_discard", "floor_deck", "floor_discard")


class HostileAI(GameAI):
    # hard: whole turns checked; 16 with 2 players, where normal's whole-turn check (issue 44) left
    # 6 turns of 4 first actions at 50% against it (16 games), 16 of 8 at 87.5% (8 games)
    budgets = {"easy": 2, "normal": 4, "hard": 16}
    hard_budget_more_players = 10

    def default_budget(self, state, level: str) -> int:
        if level == "hard" and state["players"] > 2:
            return self.hard_budget_more_players   # more seats: every turn checked costs more replies
        return super().default_budget(state, level)
    easy_random_percent = 60

    @staticmethod
    def team_of(state, seat: int) -> int:
        return next(i for i, team in enumerate(state["teams"]) if seat in team)

    def simulate(self, game, state, seat, action):
        # HOSTILE's rules change the state's lists and dicts in place (a piece moves, a hand or
        # the line loses a tile, a deck is drawn from) but replace a placed tile's [kind, facing]
        # whole and ``last``, ``outcome``, ``teams`` ... are replaced or only read, so copying
        # those containers one level deep equals ``copy_state`` for them at a fraction of its
        # cost (search copies every step; tests/test_ai.py checks it against the plain engine)
        new = dict(state)
        for key in _COPIED_LISTS:
            new[key] = list(state[key])
        new["hands"] = [list(hand) for hand in state["hands"]]
        new["tiles"] = dict(state["tiles"])
        new["gems"] = dict(state["gems"])
        if state["turn"]:
            new["turn"] = dict(state["turn"])
        game._apply(new, seat, action)
        return new

    def values(self, game, state) -> list[float]:
        # a pure function of what it reads: search reaches the same position by many orders of
        # a turn's actions (move then place = place then move), so results are memoised by a key
        # of exactly those fields (nothing hidden is among them)
        key = _values_key(state)
        found = _VALUES_MEMO.get(key)
        if found is None:
            if len(_VALUES_MEMO) >= _VALUES_MEMO_SIZE:
                _VALUES_MEMO.clear()
            found = _VALUES_MEMO[key] = tuple(self._values(game, state))
        return list(found)

    def _values(self, game, state) -> list[float]:
        return self._combine(state, [standing(game, state, s) for s in range(state["players"])])

    def leaf_values(self, game, state) -> list[float]:
        """:meth:`values` where hard's turn search ends, plus :data:`START_BONUS` for the seat
        that starts the next round (one-move-deep play never sees its worth: normal never drafts
        the king, so with 3 players seat 0 starts every round and wins nearly every game)."""
        done = outcome_values(game, state)
        if done is not None:
            return done
        per_seat = [standing(game, state, s) for s in range(state["players"])]
        if state["phase"] != "corner":
            nxt = state["king"] if state["king"] is not None else state["start"]
            per_seat[nxt] += START_BONUS
        return self._combine(state, per_seat)

    @staticmethod
    def _combine(state, per_seat: list[float]) -> list[float]:
        """The logistic of each team's standing minus the best other team's, per seat."""
        players = state["players"]
        teams = state["teams"]
        team_value = [sum(per_seat[s] for s in team) for team in teams]
        out = [0.0] * players
        for i, team in enumerate(teams):
            best_other = max(v for j, v in enumerate(team_value) if j != i)
            v = 1.0 / (1.0 + math.exp(-SCALE * (team_value[i] - best_other)))
            for s in team:
                out[s] = v
        return out

    def candidates(self, game, state, seat: int) -> list[str]:
        legal = game.legal_actions(state, seat)
        pieces = [p for p in state["pos"] if p]
        if not pieces:
            return legal
        near = set().union(*(_near(p) for p in pieces))
        keep, places = [], []
        for action in legal:
            verb = action.split(" ", 1)[0]
            if verb == "place":
                if action.split("@", 1)[1].split(":", 1)[0] in near:
                    places.append(action)
            elif verb in ("rotate", "crash"):
                if action.split(" ")[1] in near:
                    keep.append(action)
            else:
                keep.append(action)
        if len(places) > MAX_PLACEMENTS:
            # an even spread over the list (kinds and squares), deterministic
            step_ = len(places) / MAX_PLACEMENTS
            places = [places[int(i * step_)] for i in range(MAX_PLACEMENTS)]
        return keep + places or legal

    def choose(self, game, state, seat, rng, level, budget, should_stop):
        if level == "normal":
            return whole_turn_normal(self, game, state, seat, rng, budget, should_stop)
        if level != "hard":
            return None
        return turn_search(self, game, state, seat, rng, budget, should_stop)

    def determinize(self, game, state, seat, rng):
        # sort the hidden decks first, so the re-deal depends only on what this seat may know
        # (their contents), never on their hidden order
        known = dict(state, floor_deck=sorted(state["floor_deck"]), gem_deck=sorted(state["gem_deck"]))
        return game.scramble_hidden(known, seat, rng)


# ---- hard: a search over whole turns ------------------------------------------------------------------
# A HOSTILE turn is several actions (moves, takes, free placements ... until `end`), and normal
# already checks the next opponent's reply to its last one, so an action-by-action tree search
# with a small budget never sees past its own turn. Hard instead lists whole turns and plays each
# against the others' replies, modelled by their one-move-deep greedy play (what normal does but
# for its reply check), and plays the first action of the turn whose reply leaves it best off.
HEADS = 8           # first actions whose turns are followed (the best by one-move-deep value)
PER_HEAD = 1        # partial turns kept per first action and depth (by one-move-deep value)
CHECK_PER_HEAD = 2  # whole turns per first action played against replies
MAX_TURN = 10       # actions in one of our turns (drafts that lead into a turn included)
MAX_REPLY = 24      # the others' actions modelled before our next turn
# The work after which no further whole turn is checked, in seats evaluated (simulated actions
# times the players: a seat's evaluation costs about the same in every player count): 1,500
# actions with 4 players, 2,000 with 3, 3,000 with 2. It keeps hard's slowest decisions (4
# players, many placements, a rotation skill) near a second of CPU even beside another job, and,
# being a count, plays the same on every machine (the bot's wall-clock limit is only a net).
# 8,000 was not enough in late, crowded positions, where an evaluation costs more: docs/performance.md.
HARD_WORK = 6_000


def _turn_key(state) -> tuple:
    """The position a partial turn reached (orders of the same actions meet here)."""
    turn = state["turn"]
    return (_values_key(state), turn["uses"] if turn else None, tuple(state["line_floor"]),
            tuple(state["line_gems"]), state.get("picks"))


def _own_turns(ai, game, state, seat, rng, should_stop, work) -> list[tuple[float, str, dict]]:
    """Whole turns of ``seat`` from ``state`` as (value right after, first action, state after),
    best first: a beam over the turn's actions, each partial turn ranked one move deep, that
    keeps the best few partial turns of each of the :data:`HEADS` best first actions (only the
    first action is played: the search is there to tell first actions apart). ``work`` (a
    one-item list) counts the simulated actions."""
    done: dict = {}
    frontier = [(None, state)]
    for _depth in range(MAX_TURN):
        grown: dict = {}
        for first, s in frontier:
            actions = ai.candidates(game, s, seat) or game.legal_actions(s, seat)
            work[0] += len(actions)
            for v, _, a, new, _vals in ai.ranked(game, s, seat, actions, rng, chance=False):
                head = first or a
                finished = game.outcome(new) is not None or ai.actor(game, new) != seat
                bucket = done if finished else grown
                key = _turn_key(new)
                if key not in bucket or bucket[key][0] < v:
                    bucket[key] = (v, head, new)
        if should_stop():
            break
        by_head: dict = {}
        for _v, head, new in sorted(grown.values(), key=lambda t: -t[0]):
            kept = by_head.setdefault(head, [])
            if len(kept) < PER_HEAD:
                kept.append((head, new))
        frontier = [p for kept in list(by_head.values())[:HEADS] for p in kept]
        if not frontier:
            break
    return sorted(done.values(), key=lambda t: -t[0])


def _greedy_until(ai, game, state, seat, rng, work) -> dict:
    """Play the others' one-move-deep best actions until ``seat`` acts again (or the game ends),
    counting the simulated actions in ``work``."""
    s = state
    for _ in range(MAX_REPLY):
        if game.outcome(s) is not None:
            break
        actor = ai.actor(game, s)
        if actor == seat:
            break
        actions = ai.candidates(game, s, actor) or game.legal_actions(s, actor)
        work[0] += len(actions)
        s = ai.ranked(game, s, actor, actions, rng, chance=False)[0][3]
    return s


# ---- normal: whole own turns, one reply ---------------------------------------------------------------
# The generic normal checked the next opponent's reply only where an opponent acts next: after
# `end` or a draft's last pick, never after a move or a free placement that keeps the turn. It then
# compared values taken after a reply with values taken before one, so every action that kept the
# turn looked better than ending it: normal emptied its hand before each `end` (floor tiles placed
# anywhere, gem tiles laid for the others to collect) where greedy simply ended. And, scoring no
# further than one action, it never valued starting the next round (the king), which decides most
# 3-player games. See docs/performance.md (issue 44).
def _own_until_other(ai, game, state, seat, rng) -> dict:
    """Play ``seat``'s one-move-deep best actions until another seat acts (or the game ends)."""
    s = state
    for _ in range(MAX_TURN):
        if game.outcome(s) is not None or ai.actor(game, s) != seat:
            break
        actions = ai.candidates(game, s, seat) or game.legal_actions(s, seat)
        s = ai.ranked(game, s, seat, actions, rng, chance=False)[0][3]
    return s


def _reply(ai, game, state, seat, rng) -> dict:
    """``state`` after the next seat's one-move-deep best action, if an opponent acts next."""
    if game.outcome(state) is not None:
        return state
    other = ai.actor(game, state)
    if ai.team_of(state, other) == ai.team_of(state, seat):
        return state
    actions = ai.candidates(game, state, other) or game.legal_actions(state, other)
    return ai.ranked(game, state, other, actions, rng)[0][3]


def whole_turn_normal(ai, game, state, seat, rng, budget, should_stop) -> str:
    """Normal: the ``budget`` best actions one move deep, each completed to the end of the
    seat's own turn (its best next actions) and then checked against the next opponent's best
    reply, so every candidate is scored at the same point of play, with hard's leaf value
    (starting the next round counts)."""
    ranked = ai.ranked(game, state, seat, ai.candidates(game, state, seat) or game.legal_actions(state, seat), rng)
    best, best_value = ranked[0][2], -1.0
    for _value, _, action, new, _vals in ranked[:budget]:
        if should_stop():
            break
        done = _own_until_other(ai, game, new, seat, rng)
        v = ai.leaf_values(game, _reply(ai, game, done, seat, rng))[seat]
        if v > best_value:
            best, best_value = action, v
    return best


def turn_search(ai, game, state, seat, rng, budget, should_stop) -> str:
    """The first action of the best of ``budget`` whole turns (at most :data:`CHECK_PER_HEAD`
    per first action, fewer once :data:`HARD_WORK` is spent), each scored after
    the others' modelled replies (see the comment above :data:`HEADS`)."""
    work = [0]
    turns = _own_turns(ai, game, state, seat, rng, should_stop, work)
    if not turns:
        return game.legal_actions(state, seat)[0]
    best, best_value = turns[0][1], -1.0
    checked: dict = {}
    for _v, head, after in turns:
        if sum(checked.values()) >= budget or work[0] >= HARD_WORK // state["players"] or should_stop():
            break
        if checked.get(head, 0) >= CHECK_PER_HEAD:
            continue
        checked[head] = checked.get(head, 0) + 1
        value = ai.leaf_values(game, _greedy_until(ai, game, after, seat, rng, work))[seat]
        if value > best_value:
            best, best_value = head, value
    return best


AI = HostileAI()
__all__ = ["AI", "SQUARES", "standing"]
