"""HOSTILE (RULES.md §1): drafts, action points and chained floor tiles, for 2, 3 and 2 vs 2.

Seats, corners and teams
------------------------
The start corners are A1, A8, H8, H1 in clockwise (= seating and turn) order. Seat 0 is the
first start player. 2 players: seat 0 at A1, seat 1 at H8 (diagonal). 3 players: seat 0 first
picks any corner (``corner A8``) and gains 1 gem; seat 1 takes the next corner clockwise, seat 2
the one anticlockwise (the diagonal corner stays unused). 4 players = 2 vs 2: seats 0+1 (A1, A8)
are team X, seats 2+3 (H8, H1) team Y, so the turn order is X, X, Y, Y. In every mode the
clockwise order is seat 0, 1, 2, 3; the tile draft runs the other way round (it starts with the
start player's right-hand neighbour, i.e. the seat before the start player).
No piece may enter a start point other than its own, unused corners and a team mate's included
(「自分以外のスタート地点」); tiles may still be placed next to those, but not next to an opponent's.

Notation (squares ``A1``-``H8``, directions ``N E S W`` (+ ``NE SE SW NW`` for diagonal arrows);
a *tile* is a floor kind -- ``slide diag spring ice stop box lwall para`` -- or, for a gem tile,
its square):

==========================  ==============================================  ========================
form                        meaning                                         example
==========================  ==============================================  ========================
``corner SQ``               3 players, start player's opening pick          ``corner H8``
``skill NAME``              skill draft pick                                ``skill king``
``take TILE``               line tile to hand (draft pick; 1 AP in a turn)  ``take spring``, ``take C4``
``place KIND@SQ:O``         place a floor tile facing O (from the line      ``place spring@C4:N``
                            during the draft, from hand in a turn)
``place KIND@SQ``           the same for ice, stop and box (no facing)      ``place ice@D5``
``gem SQ``                  use the gem tile SQ (line in draft, hand in     ``gem C4``
                            a turn): a gem goes on SQ
``move D``                  1 AP: step N/E/S/W                              ``move N``
``home TILE``               1 AP + discard that hand tile: back to start    ``home stop``
``crash SQ``                skill: remove the floor tile on SQ              ``crash E5``
``rotate SQ cw|ccw``        skill: quarter-turn the floor tile on SQ        ``rotate E5 cw``
``recall``                  skill: back to start for free                   ``recall``
``steal SQ``                skill, 1 AP: floor tile from own or an          ``steal B3``
                            orthogonally adjacent square into hand
``end``                     end the turn                                    ``end``
==========================  ==============================================  ========================

Orientations: a slide or spring faces its arrow (``N E S W``), a diagonal slide ``NE SE SW NW``;
an L wall is named by its two closed sides (``NE`` = closed north and east), a parallel wall by
its closed pair (``NS`` or ``EW``); ice, stop and box have none. ``canonical`` accepts any case
and spacing and a few shortcuts: ``n`` -> ``move N``, ``spring c4 n`` / ``spring@c4:n`` ->
``place spring@C4:N``. Board menus (:meth:`Hostile.action_path`): a placement takes three clicks
(``place spring`` -> ``C4`` -> ``N``), rotate (``rotate`` -> ``E5`` -> ``cw``) and crash / steal
(``crash`` -> ``E5``) two or three, everything else one.

House choices where RULES.md is silent (marked *house* in the code):

* Forced movement that would repeat a (square, direction) state stops where it is. Loops are
  looked for after every placement and rotation on the empty board, with the pieces where they
  stand and with the start points each piece may not enter (a spring landing short of a piece or
  a start can close a loop); the runtime stop is a safety net.
* ``home`` and ``recall`` are not offered while standing on the own start (they would do nothing);
  ``rotate`` is not offered for ice, stop and box (a quarter turn leaves them as they are).
* A drafted tile's gem ("gem SQ" in the draft) or a gem emitted onto a piece goes to that piece's
  player at once; gems gained count for the tie rule when they are gained.
* Game end (a total at the target, or the floor deck short at this round's refill) is checked at
  the end of every round; the tie on gems is won by the player/team that reached that total first
  (every gain ticks a clock; a team's total was reached at its last gain); equal clocks (only
  possible with no gems at all) are a draw.
* Springs point orthogonally (the rulebook's tile pictures are lost; ``data/floor_tiles.json``
  can allow diagonals). Removing a tile (crash, steal) cannot create a loop: every square of a
  loop holds a slide, ice or spring, and a removed square ends any chain that reaches it.
* 2 vs 2 teams are fixed by seat (0+1 against 2+3); the platform deals the seats.

Options: ``line_floor`` (floor tiles in the line, 1-20, default 10) and ``target`` (gems that end
the game; 0 = the reading's 20, or 15 with 3 players).

Words for people (:mod:`games.hostile.words`): buttons, menus and the step of the round are said
through the catalogues; events and refusals name tiles, facings and skills as ``_term`` params
(``{"tile_term": "lwall", "facing_term": "closed_NE"}``), never as notation; a refusal names its
one reason (:meth:`Hostile.refusal`) and, at the wrong step, the step.
"""

from __future__ import annotations

import re

from ..base import Event, Game, Option, Outcome, State, copy_state, unchanged
from ..errors import GameError, GameOver, NotationError
from ..rng import Rng
from .tiles import (
    DIRECTIONS, ORTHOGONAL, all_squares, board, closed_sides, entering_sides, floor_deck,
    floor_kinds, gem_squares, leaving_sides, rotate_orientation, step,
)
from . import words
from .words import cards_event, line_event, tile_params

SQUARES = all_squares()
_SQ = r"[A-H][1-8]"
MOVEMENT = ("slide", "ice", "spring")
ROTATIONS = {True: "cw", False: "ccw"}
# forced_step results -> event types
STEP_EVENTS = {"slide": "slid", "ice": "iced", "spring": "sprang", "spring_short": "sprang_short"}
BLOCKED_EVENTS = {"forbidden": "push_blocked", "wall": "wall_blocked", "stuck": "spring_stuck"}


def corner_squares() -> list[str]:
    return list(board()["corners"])


def is_gem_tile(tile: str) -> bool:
    return tile in _SQUARE_SET   # what ``_SQ`` matches (search asks for every hand tile it scores)


_SQUARE_SET = frozenset(SQUARES)


def tile_label(kind: str, orient: str) -> str:
    """``spring:N``, ``lwall:NE``, ``ice`` -- a placed tile as the notation writes it."""
    return f"{kind}:{orient}" if orient else kind


def _tile_event(kind: str, tile: str, **params) -> Event:
    """An event about a line or hand tile: a floor tile as a term, a gem tile (``<kind>_gem``) by
    its square."""
    if is_gem_tile(tile):
        return {"type": f"{kind}_gem", **params, "square": tile}
    return {"type": kind, **params, "tile_term": tile}


def _tile_order(tile: str) -> tuple:
    kinds = list(floor_kinds())
    if tile in kinds:
        return (0, kinds.index(tile), "")
    return (1, SQUARES.index(tile) if tile in SQUARES else 99, tile)


# ---- movement (pure functions of the tiles, shared by play and by the loop check) ---------------------
def can_cross(tiles: dict, frm: str, to: str, direction: str) -> bool:
    """Walls: leaving ``frm`` and entering ``to`` in ``direction`` crosses only open sides."""
    out = tiles.get(frm)
    if out and _LEAVING[direction] & closed_sides(*out):
        return False
    into = tiles.get(to)
    return not (into and _ENTERING[direction] & closed_sides(*into))


_LEAVING = {d: frozenset(leaving_sides(d)) for d in DIRECTIONS}
_ENTERING = {d: frozenset(entering_sides(d)) for d in DIRECTIONS}


def forced_step(tiles: dict, square: str, direction: str | None, blocked) -> tuple[str, str | None, str | None]:
    """What the tile on ``square`` does to a piece that entered it moving ``direction``.

    Returns ``(how, target, new_direction)``: how is "none" (no movement tile), "slide", "ice",
    "spring", "spring_short" (landed on the square before), or "forbidden" / "wall" / "stuck" when
    the push cannot happen (target None). ``blocked(square)`` says whether a square is forbidden.
    """
    tile = tiles.get(square)
    if not tile:
        return "none", None, None
    kind, orient = tile
    effect = floor_kinds()[kind].effect
    if effect in ("slide", "ice"):
        way = orient if effect == "slide" else direction
        if not way:
            return "none", None, None
        target = step(square, way)
        if target is None or blocked(target):
            return "forbidden", None, None
        if not can_cross(tiles, square, target, way):
            return "wall", None, None
        return effect, target, way
    if effect == "spring":
        far, near = step(square, orient, 2), step(square, orient)
        if far is not None and not blocked(far):
            return "spring", far, orient
        if near is not None and not blocked(near):
            return "spring_short", near, orient
        return "stuck", None, None
    return "none", None, None


def _state_key(tiles: dict, square: str, direction: str) -> tuple[str, str]:
    kind = tiles[square][0]
    return (square, direction if floor_kinds()[kind].effect == "ice" else "")


def has_loop(tiles: dict, blocked=lambda sq: False) -> bool:
    """Would some entry onto some tile make forced movement go on forever?

    The (square, entry direction) states of movement tiles form a functional graph (each state
    leads to at most one next state); a loop is a cycle in it.
    """
    return _has_cycle({node: _next_state(tiles, node, blocked)
                       for square in tiles for node in _entry_states(tiles, square)})


def _has_cycle(nxt: dict, starts=None) -> bool:
    """Whether the functional graph ``nxt`` (state -> next state or None) has a cycle reachable
    from ``starts`` (every state if None)."""
    done: set = set()
    for start in nxt if starts is None else starts:
        path: list = []
        on_path: set = set()
        node = start
        while node is not None and node not in done:
            if node in on_path:
                return True
            on_path.add(node)
            path.append(node)
            node = nxt.get(node)
        done.update(path)
    return False


def loops_by_config(tiles: dict, configs) -> list[bool]:
    """``[has_loop(tiles, blocked.__contains__) for blocked in configs]`` (frozensets of blocked
    squares). A state's next state depends on the blocked squares only through the one or two
    squares it asks about, so from one configuration to the next only the states that asked
    about a square blocked in one and not the other are worked out again. A graph that did not
    change keeps its answer, and a graph without a cycle whose changes made one has it through a
    changed state (the configurations of a loop check differ in a few squares)."""
    nxt: dict = {}
    asked_of: dict = {}   # state -> the squares it asked about
    askers: dict = {}     # square -> the states that asked about it
    out: list[bool] = []
    previous = None
    for blocked in configs:
        if previous is None:
            stale = [node for square in tiles for node in _entry_states(tiles, square)]
        else:
            stale = {node for square in blocked ^ previous for node in askers.get(square, ())}
        changed = []
        for node in stale:
            for square in asked_of.get(node, ()):
                askers[square].discard(node)
            asked: set = set()
            new = _next_state(tiles, node, _asking(blocked, asked))
            asked_of[node] = asked
            for square in asked:
                askers.setdefault(square, set()).add(node)
            if previous is None or nxt.get(node) != new:
                changed.append(node)
            nxt[node] = new
        if not changed:
            out.append(out[-1])
        elif previous is None or out[-1]:
            out.append(_has_cycle(nxt))
        else:   # the graph before had no cycle: a new one passes through a changed state
            out.append(_has_cycle(nxt, changed))
        previous = blocked
    return out


def _asking(blocked: frozenset, asked: set):
    """``blocked.__contains__`` that notes in ``asked`` every square it is asked about."""
    def ask(square: str) -> bool:
        asked.add(square)
        return square in blocked
    return ask


def _entry_states(tiles: dict, square: str) -> tuple[tuple[str, str], ...]:
    """The (square, entry direction) states of the movement tile on ``square`` (none otherwise)."""
    effect = floor_kinds()[tiles[square][0]].effect
    if effect not in MOVEMENT:
        return ()
    return tuple((square, d) for d in DIRECTIONS) if effect == "ice" else ((square, ""),)


def _next_state(tiles: dict, node: tuple[str, str], blocked) -> tuple[str, str] | None:
    """The state forced movement leads to from ``node``; None where it ends."""
    square, direction = node
    _, target, way = forced_step(tiles, square, direction or None, blocked)
    if target is not None and target in tiles and floor_kinds()[tiles[target][0]].effect in MOVEMENT:
        return _state_key(tiles, target, way)
    return None


def loop_from(tiles: dict, square: str, blocked) -> bool:
    """Does forced movement entering ``square`` (from any side) run into a cycle?"""
    for node in _entry_states(tiles, square):
        seen = set()
        while node is not None:
            if node in seen:
                return True
            seen.add(node)
            node = _next_state(tiles, node, blocked)
    return False


def could_loop(tiles: dict) -> bool:
    """Whether some squares blocked could make forced movement on ``tiles`` go on forever: a cycle
    in the graph of every next state that some blocking allows (blocking a square takes a step
    away or makes a spring land short, so most boards cannot loop whatever the pieces do)."""
    successors: dict = {}
    for square in tiles:
        for node in _entry_states(tiles, square):
            # a state asks about at most two squares, the second only when the first is blocked
            asked: list = []
            first_blocked = _next_state(tiles, node, lambda sq: asked.append(sq) or len(asked) == 1)
            successors[node] = {_next_state(tiles, node, _nothing_blocked), first_blocked} - {None}
    return _has_any_cycle(successors)


def _nothing_blocked(square: str) -> bool:
    return False


def _has_any_cycle(successors: dict) -> bool:
    """Whether the directed graph ``successors`` (state -> set of next states) has a cycle."""
    finished: set = set()
    for root in successors:
        if root in finished:
            continue
        on_path = {root}
        stack = [(root, iter(successors[root]))]
        while stack:
            node, rest = stack[-1]
            nxt = next(rest, None)
            if nxt is None:
                stack.pop()
                on_path.discard(node)
                finished.add(node)
            elif nxt in on_path:
                return True
            elif nxt not in finished:
                on_path.add(nxt)
                stack.append((nxt, iter(successors.get(nxt, ()))))
    return False


# has_loop of boards without the square whose tile changed: search places many tiles on the same
# board and turns the same few, while the pieces (blocked squares) move. A bounded memo of a pure
# function (results do not depend on it): for each board, None if no blocking can make it loop
# (the usual board), else its answers by blocked squares.
_LOOP_MEMO: dict = {}
_LOOP_MEMO_SIZE = 2_000   # boards (a few kB each)
_LOOP_LAYOUTS_SIZE = 1_000   # answers kept for a board that can loop


def has_loop_after_change(tiles: dict, square: str, configs) -> bool:
    """``any(has_loop(tiles, blocked.__contains__) for blocked in configs)`` (frozensets of
    blocked squares) for ``tiles`` whose tile on ``square`` just changed (placed on an empty
    square, or rotated), computed from the board without that tile.

    The tile on ``square`` decides only the states on ``square`` and the edges leading onto it
    (its walls and kind; springs do not look at the square they jump over), and no edge of a
    cycle of the board without it leads onto the then empty ``square``. So a cycle of the board
    is either one of the board without ``square``, or passes through ``square``, and then
    :func:`loop_from` finds it (and whatever cycle :func:`loop_from` runs into is one of the board).
    """
    board_key = frozenset((sq, kind, orient) for sq, (kind, orient) in tiles.items() if sq != square)
    if board_key not in _LOOP_MEMO:
        if len(_LOOP_MEMO) >= _LOOP_MEMO_SIZE:
            _LOOP_MEMO.clear()
        old = {sq: tile for sq, tile in tiles.items() if sq != square}
        _LOOP_MEMO[board_key] = {} if could_loop(old) else None
    looped_by = _LOOP_MEMO[board_key]
    if looped_by is not None:
        missing = [blocked for blocked in configs if blocked not in looped_by]
        if missing:
            if len(looped_by) >= _LOOP_LAYOUTS_SIZE:
                looped_by.clear()
            old = {sq: tile for sq, tile in tiles.items() if sq != square}
            looped_by.update(zip(missing, loops_by_config(old, missing)))
        if any(looped_by[blocked] for blocked in configs):
            return True
    if not _entry_states(tiles, square):   # no state on the square: no cycle passes through it
        return False
    walks: list = []
    return any(_loop_from_reusing(tiles, square, blocked, walks) for blocked in configs)


def _loop_from_reusing(tiles: dict, square: str, blocked: frozenset, walks: list) -> bool:
    """``loop_from(tiles, square, blocked.__contains__)``, or the answer of an earlier walk in
    ``walks`` whose every question "is this square blocked?" ``blocked`` answers alike (a walk
    depends on the blocked squares only through those answers, and the configurations of one
    check mostly differ far from the chain)."""
    for squares, were_blocked, found in walks:
        if blocked & squares == were_blocked:
            return found
    asked: set = set()
    found = loop_from(tiles, square, _asking(blocked, asked))
    squares = frozenset(asked)
    walks.append((squares, blocked & squares, found))
    return found


# ---- parsed actions --------------------------------------------------------------------------------
def _fmt_place(kind: str, square: str, orient: str) -> str:
    return f"place {kind}@{square}:{orient}" if orient else f"place {kind}@{square}"


TEAM_PAIRINGS = ("12-34", "13-24", "14-23")


class Hostile(Game):
    """The HOSTILE engine. See the module docstring for seats, notation and house choices."""

    def __init__(self):
        super().__init__(
            name="hostile",
            min_players=2,
            max_players=4,
            options=(
                Option("line_floor", board()["line_floor"], low=1, high=20),
                Option("target", 0, low=0, high=99),
                Option("teams", "12-34", choices=TEAM_PAIRINGS),
            ),
        )
        self._parsed: dict[str, tuple] = {}

    # ---- setup ---------------------------------------------------------------------------------
    def seat_order(self, players: int, options: dict) -> list[int] | None:
        """2 vs 2: the lobby chooses the teams. "12-34" pairs the first two to join against the last
        two, "13-24" the first and third, "14-23" the first and fourth; the first to join (or the
        lobby creator) starts. Fewer players: seats are dealt at random."""
        if players != 4:
            return None
        pairing = self.resolve_options(options, players)["teams"]
        first, second = pairing.split("-")
        return [int(c) - 1 for c in first + second]

    def setup(self, players: int, options: dict, seed: int) -> State:
        if players not in (2, 3, 4):
            raise GameError("hostile.players", players=players)
        opts = self.resolve_options(options, players)
        rules = board()
        rng = Rng(seed)
        target = opts["target"] or rules["target"][str(players)]
        corners = list(rules["seat_corners"].get(str(players), [None] * players))
        state: State = {
            "players": players,
            "rng": 0,
            "line_floor_size": opts["line_floor"],
            "target": target,
            "teams": [list(t) for t in rules["teams"][str(players)]],
            "corners": corners,
            "pos": [corner_squares()[c] if c is not None else None for c in corners],
            "round": 0,
            "cycle": 1,
            "phase": ("round", "corner")[players == 3],
            "start": 0,
            "actor": 0,
            "queue": [],
            "picks": 0,
            "tiles": {},
            "gems": {},
            "gem_deck": rng.shuffled(list(gem_squares())),
            "gem_discard": [],
            "floor_deck": rng.shuffled(floor_deck()),
            "floor_discard": [],
            "line_gems": [],
            "line_floor": [],
            "hands": [[] for _ in range(players)],
            "skills": [None] * players,
            "pool": [],
            "excluded": [],
            "leftovers": [],
            "king": None,
            "score": [0] * players,
            "clock": 0,
            "reached": [0] * len(rules["teams"][str(players)]),
            "turn": None,
            "last_round": False,
            "last": None,
            "outcome": None,
        }
        state["rng"] = rng.state
        if players != 3:
            self._advance(state, [])
        return state

    def to_act(self, state: State) -> set[int]:
        return set() if state["outcome"] else {state["actor"]}

    # ---- small helpers --------------------------------------------------------------------------
    @staticmethod
    def team_of(state: State, seat: int) -> int:
        return next(i for i, team in enumerate(state["teams"]) if seat in team)

    def opponents(self, state: State, seat: int) -> list[int]:
        mine = self.team_of(state, seat)
        return [s for s in range(state["players"]) if self.team_of(state, s) != mine]

    @staticmethod
    def start_of(state: State, seat: int) -> str:
        return corner_squares()[state["corners"][seat]]

    def team_scores(self, state: State) -> list[int]:
        return [sum(state["score"][s] for s in team) for team in state["teams"]]

    def _forbidden(self, state: State, seat: int, square: str | None) -> bool:
        """Off the board, another piece, or any start point but the seat's own (unused ones too)."""
        if square is None:
            return True
        if square in corner_squares() and square != self.start_of(state, seat):
            return True
        return any(state["pos"][other] == square for other in range(state["players"]) if other != seat)

    def _no_place_squares(self, state: State, seat: int) -> set[str]:
        """Squares next to an opponent's start point (3 each) plus every start point."""
        out = set(corner_squares())
        for other in self.opponents(state, seat):
            if state["corners"][other] is None:
                continue
            start = self.start_of(state, other)
            out |= {sq for d in ("N", "E", "S", "W", "NE", "SE", "SW", "NW") if (sq := step(start, d))}
        return out

    def placement_squares(self, state: State, seat: int) -> list[str]:
        banned = self._no_place_squares(state, seat) | {p for p in state["pos"] if p}
        return [sq for sq in SQUARES if sq not in banned and sq not in state["tiles"]]

    def _ghost(self, state: State, seat: int) -> bool:
        return state["phase"] == "turn" and state["skills"][seat] == "ghost"

    def _rng(self, state: State) -> Rng:
        return Rng(state["rng"])

    # ---- notation ---------------------------------------------------------------------------------
    def canonical(self, action: str) -> str:
        text = " ".join(str(action).replace("@", " ").replace(":", " ").split()).lower()
        tokens = text.split(" ") if text else []
        kinds = floor_kinds()
        if len(tokens) == 1 and tokens[0].upper() in ORTHOGONAL:
            tokens = ["move"] + tokens
        if len(tokens) == 2 and tokens[0] == "m":
            tokens[0] = "move"
        if tokens and tokens[0] in kinds and len(tokens) in (2, 3):
            tokens = ["place"] + tokens
        if not tokens:
            return action.strip()
        verb, args = tokens[0], tokens[1:]

        def sq(t: str) -> str:
            return t.upper() if re.fullmatch(r"[a-h][1-8]", t) else t

        def tile(t: str) -> str:
            return sq(t)

        if verb == "place" and len(args) in (2, 3):
            orient = args[2].upper() if len(args) == 3 else ""
            return _fmt_place(args[0], sq(args[1]), orient)
        if verb in ("corner", "gem", "crash", "steal") and len(args) == 1:
            return f"{verb} {sq(args[0])}"
        if verb in ("take", "home") and len(args) == 1:
            return f"{verb} {tile(args[0])}"
        if verb == "move" and len(args) == 1:
            return f"move {args[0].upper()}"
        if verb == "rotate" and len(args) == 2:
            return f"rotate {sq(args[0])} {args[1]}"
        if verb == "skill" and len(args) == 1:
            return f"skill {args[0]}"
        if verb in ("recall", "end") and not args:
            return verb
        return action.strip()

    def parse(self, action: str) -> tuple:
        """Syntax only: ``("place", kind, square, orient)``, ``("move", "N")``, ..."""
        # search parses the same few thousand well-formed actions over and over; only those are
        # kept (a refused text raises before it is stored), so the cache stays that small
        parsed = self._parsed.get(action) if isinstance(action, str) else None
        if parsed is None:
            parsed = self._parsed[action] = self._parse(action)
        return parsed

    def _parse(self, action: str) -> tuple:
        if not isinstance(action, str) or len(action) > 60:
            raise NotationError("bad_notation", action=str(action)[:60], help=self.notation_help_key())
        kinds = floor_kinds()
        tile_re = rf"(?:{'|'.join(kinds)}|{_SQ})"
        m = re.fullmatch(rf"place ([a-z]+)@({_SQ})(?::([NESW]{{1,2}}))?", action)
        if m and m[1] in kinds and (m[3] or "") in kinds[m[1]].orientations:
            return ("place", m[1], m[2], m[3] or "")
        if m and m[1] in kinds:  # a real tile and square, with a facing it does not take
            kind, example = m[1], _fmt_place(m[1], m[2], kinds[m[1]].orientations[0])
            if kinds[kind].oriented:
                raise NotationError("hostile.bad_facing", action=action, tile_term=kind,
                                    facings_term=f"facings_{kind}", example=example)
            raise NotationError("hostile.no_facing", action=action, tile_term=kind, example=example)
        for pattern, build in (
            (rf"corner ({_SQ})", lambda m: ("corner", m[1]) if m[1] in corner_squares() else None),
            (r"skill ([a-z]+)", lambda m: ("skill", m[1]) if m[1] in board()["skills"] else None),
            (rf"take ({tile_re})", lambda m: ("take", m[1])),
            (rf"gem ({_SQ})", lambda m: ("gem", m[1])),
            (r"move ([NESW])", lambda m: ("move", m[1])),
            (rf"home ({tile_re})", lambda m: ("home", m[1])),
            (rf"crash ({_SQ})", lambda m: ("crash", m[1])),
            (rf"rotate ({_SQ}) (cw|ccw)", lambda m: ("rotate", m[1], m[2] == "cw")),
            (rf"steal ({_SQ})", lambda m: ("steal", m[1])),
            (r"recall", lambda m: ("recall",)),
            (r"end", lambda m: ("end",)),
        ):
            m = re.fullmatch(pattern, action)
            if m and (parsed := build(m)) is not None:
                return parsed
        raise NotationError("bad_notation", action=action[:60], help=self.notation_help_key())

    def action_path(self, action: str) -> tuple[str, ...]:
        parsed = self.parse(action)
        verb = parsed[0]
        if verb == "place":
            _, kind, square, orient = parsed
            return (f"place {kind}", square, orient) if orient else (f"place {kind}", square)
        if verb == "rotate":
            return ("rotate", parsed[1], ROTATIONS[parsed[2]])
        if verb in ("crash", "steal"):
            return (verb, parsed[1])
        return (action,)

    def action_group(self, action: str) -> str:
        path = self.action_path(action)
        return path[0] if len(path) > 1 else ""

    def action_targets(self, action: str, view: dict) -> tuple[str, ...]:
        """A tile from the line (in the draft) or the hand, then its square, then its facing as a
        button; a gem tile, then its own square; a step, the square stepped to; a skill's card,
        then its square (a rotation's direction as a button); a take or a return home, the tile
        then a button; the corner and skill picks, their square and card; ending the turn, a button.

        >>> g, view = Hostile(), {"viewer": 1, "phase": "turn", "pos": ["A1", "C3"]}
        >>> g.action_targets("place spring@C4:N", view), g.action_targets("move E", view)
        (('hand:1:spring', 'cell:C4', 'button:N'), ('cell:D3',))
        >>> g.action_targets("gem C4", dict(view, phase="draft")), g.action_targets("rotate E5 cw", view)
        (('line:C4', 'cell:C4'), ('skill:rotate', 'cell:E5', 'button:cw'))
        """
        parsed = self.parse(action)
        verb, seat = parsed[0], view["viewer"]

        def tile(name: str) -> str:
            return f"line:{name}" if view.get("phase") == "draft" else f"hand:{seat}:{name}"

        if verb == "corner":
            return (f"cell:{parsed[1]}",)
        if verb == "skill":
            return (f"skill:{parsed[1]}",)
        if verb == "take":
            return (f"line:{parsed[1]}", f"button:{action}")
        if verb == "place":
            return (tile(parsed[1]), f"cell:{parsed[2]}") + ((f"button:{parsed[3]}",) if parsed[3] else ())
        if verb == "gem":
            return (tile(parsed[1]), f"cell:{parsed[1]}")
        if verb == "move":
            return (f"cell:{step(view['pos'][seat], parsed[1])}",)
        if verb == "home":
            return (f"hand:{seat}:{parsed[1]}", f"button:{action}")
        if verb in ("crash", "steal"):
            return (f"skill:{verb}", f"cell:{parsed[1]}")
        if verb == "rotate":
            return ("skill:rotate", f"cell:{parsed[1]}", f"button:{ROTATIONS[parsed[2]]}")
        if verb == "recall":
            return ("skill:recall",)
        return super().action_targets(action, view)

    # ---- legal actions ------------------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[str]:
        if state["outcome"] or seat != state["actor"]:
            return []
        phase = state["phase"]
        if phase == "corner":
            return [f"corner {sq}" for sq in corner_squares()]
        if phase == "skill":
            return [f"skill {card}" for card in state["pool"]]
        if phase == "draft":
            return self._draft_actions(state, seat)
        if phase == "turn":
            return self._turn_actions(state, seat)
        return []

    def _line_tiles(self, state: State) -> list[str]:
        return list(dict.fromkeys(state["line_floor"])) + list(dict.fromkeys(state["line_gems"]))

    def _placements(self, state: State, seat: int, kinds) -> list[str]:
        squares = self.placement_squares(state, seat)
        out = []
        for kind in kinds:
            for sq in squares:
                out += [_fmt_place(kind, sq, o) for o in floor_kinds()[kind].orientations]
        return out

    def _draft_actions(self, state: State, seat: int) -> list[str]:
        out = [f"take {t}" for t in self._line_tiles(state)]
        out += self._placements(state, seat, dict.fromkeys(state["line_floor"]))
        out += [f"gem {sq}" for sq in dict.fromkeys(state["line_gems"])]
        return out

    def _move_ok(self, state: State, seat: int, direction: str) -> bool:
        here = state["pos"][seat]
        to = step(here, direction)
        if self._forbidden(state, seat, to):
            return False
        return self._ghost(state, seat) or can_cross(state["tiles"], here, to, direction)

    def _turn_actions(self, state: State, seat: int) -> list[str]:
        turn = state["turn"]
        hand = state["hands"][seat]
        here = state["pos"][seat]
        at_start = here == self.start_of(state, seat)
        out = []
        if turn["ap"] >= 1 and not turn["stopped"]:
            out += [f"move {d}" for d in ORTHOGONAL if self._move_ok(state, seat, d)]
        if turn["ap"] >= 1:
            out += [f"take {t}" for t in self._line_tiles(state)]
        if turn["ap"] >= 1 and not turn["stopped"] and not at_start:
            out += [f"home {t}" for t in dict.fromkeys(hand)]
        out += self._placements(state, seat, [t for t in dict.fromkeys(hand) if not is_gem_tile(t)])
        out += [f"gem {t}" for t in dict.fromkeys(hand) if is_gem_tile(t)]
        skill = state["skills"][seat]
        tiles = state["tiles"]
        if skill == "crash" and turn["uses"] > 0:
            out += [f"crash {sq}" for sq in SQUARES if sq in tiles]
        if skill == "rotate" and turn["uses"] > 0:
            for sq in SQUARES:
                if sq in tiles and floor_kinds()[tiles[sq][0]].oriented:
                    out += [f"rotate {sq} cw", f"rotate {sq} ccw"]
        if skill == "recall" and turn["uses"] > 0 and not turn["stopped"] and not at_start:
            out.append("recall")
        if skill == "steal" and turn["ap"] >= board()["skills"]["steal"]["ap"]:
            near = [here] + [s for d in ORTHOGONAL if (s := step(here, d))]
            out += [f"steal {sq}" for sq in SQUARES if sq in near and sq in tiles]
        out.append("end")
        return out

    def _only_end_left(self, state: State, seat: int) -> bool:
        """``self._turn_actions(state, seat) == ["end"]``, without listing them: asked after every
        step of a turn, and search takes millions of steps (``tests/test_hostile.py`` compares)."""
        turn = state["turn"]
        hand = state["hands"][seat]
        here = state["pos"][seat]
        ap, stopped, uses = turn["ap"], turn["stopped"], turn["uses"]
        at_start = here == self.start_of(state, seat)
        if ap >= 1 and (self._line_tiles(state) or (not stopped and (
                (hand and not at_start) or any(self._move_ok(state, seat, d) for d in ORTHOGONAL)))):
            return False
        if any(is_gem_tile(t) for t in hand):
            return False
        if hand and self.placement_squares(state, seat):
            return False
        skill = state["skills"][seat]
        tiles = state["tiles"]
        if skill == "crash" and uses > 0 and tiles:
            return False
        if skill == "rotate" and uses > 0 and any(floor_kinds()[kind].oriented for kind, _ in tiles.values()):
            return False
        if skill == "recall" and uses > 0 and not stopped and not at_start:
            return False
        if skill == "steal" and ap >= board()["skills"]["steal"]["ap"]:
            if here in tiles or any(step(here, d) in tiles for d in ORTHOGONAL):
                return False
        return True


    def why_illegal(self, state: State, seat: int, action: str) -> str:
        return self.refusal(state, seat, action)[0]

    def refusal(self, state: State, seat: int, action: str) -> tuple[str, dict]:
        """The one reason a well-formed action is refused now: its error key and params."""
        parsed = self.parse(action)
        verb, phase = parsed[0], state["phase"]
        step_params = {"phase_term": f"step_{phase}", "can_term": f"can_{phase}"}
        wanted = {"corner": ("corner",), "skill": ("skill",), "draft": ("take", "place", "gem")}.get(
            phase, ("take", "place", "gem", "move", "home", "crash", "rotate", "recall", "steal", "end"))
        if phase not in ("corner", "skill", "draft", "turn"):
            return "hostile.not_now", {}
        if verb not in wanted:
            return "hostile.wrong_phase", step_params
        if verb == "skill":
            card = parsed[1]
            if card in state["excluded"]:
                return "hostile.skill_excluded", {"skill_term": card}
            if card in state["skills"]:
                return "hostile.skill_held", {"skill_term": card}
            return "hostile.skill_gone", {"skill_term": card}
        turn = state["turn"] or {}
        held = state["skills"][seat]
        if verb in ("crash", "rotate", "recall", "steal") and held != verb:
            return "hostile.no_skill", {"skill_term": verb, "held_term": held or "none"}
        if verb in ("crash", "rotate", "recall") and turn.get("uses", 0) <= 0:
            return "hostile.skill_used", {"skill_term": verb}
        if verb in ("move", "home", "recall") and turn.get("stopped"):
            return "hostile.stopped", {}
        if verb in ("home", "recall") and state["pos"][seat] == self.start_of(state, seat):
            return "hostile.at_start", {}
        if phase == "turn" and verb in ("move", "take", "home", "steal") and turn.get("ap", 0) < 1:
            return "hostile.no_ap", {}
        if verb == "take" or (phase == "draft" and verb in ("place", "gem")):
            tile = parsed[1]
            if tile not in state["line_floor"] and tile not in state["line_gems"]:
                return ("hostile.gem_not_in_line", {"square": tile}) if is_gem_tile(tile) else (
                    "hostile.not_in_line", {"tile_term": tile})
        elif verb in ("place", "gem", "home") and parsed[1] not in state["hands"][seat]:
            tile = parsed[1]
            return ("hostile.gem_not_in_hand", {"square": tile}) if is_gem_tile(tile) else (
                "hostile.not_in_hand", {"tile_term": tile})
        if verb == "place":
            return self._placement_refusal(state, seat, parsed[2])
        if verb == "move":
            return self._move_refusal(state, seat, parsed[1])
        if verb in ("crash", "rotate", "steal"):
            square = parsed[1]
            tile = state["tiles"].get(square)
            if not tile:
                return "hostile.no_tile_there", {"square": square}
            if verb == "rotate" and not floor_kinds()[tile[0]].oriented:
                return "hostile.rotate_same", {"square": square, "tile_term": tile[0]}
            if verb == "steal":
                return "hostile.steal_far", {"square": square}
        return "hostile.not_now", step_params

    def _placement_refusal(self, state: State, seat: int, square: str) -> tuple[str, dict]:
        """Why no floor tile may go on ``square`` (one reason: the first that applies)."""
        if square in state["pos"]:
            return "hostile.place_piece", {"square": square}
        if square in corner_squares():
            return "hostile.place_start", {"square": square}
        if square in state["tiles"]:
            return "hostile.place_tile", {"square": square, **tile_params(*state["tiles"][square])}
        return "hostile.place_near_start", {"square": square}

    def _move_refusal(self, state: State, seat: int, direction: str) -> tuple[str, dict]:
        """Why the piece cannot step ``direction`` (one reason: the first that applies)."""
        here = state["pos"][seat]
        to = step(here, direction)
        where = {"dir_term": f"dir_{direction}"}
        if to is None:
            return "hostile.move_off_board", where
        if any(state["pos"][other] == to for other in range(state["players"]) if other != seat):
            return "hostile.move_piece", {**where, "square": to}
        if to in corner_squares() and to != self.start_of(state, seat):
            return "hostile.move_start", {**where, "square": to}
        out = state["tiles"].get(here)
        if out and _LEAVING[direction] & closed_sides(*out):
            return "hostile.move_wall_out", {**where, "square": here, **tile_params(*out)}
        into = state["tiles"].get(to)
        if into:
            return "hostile.move_wall_in", {**where, "square": to, **tile_params(*into)}
        return "hostile.not_now", {}  # no tile to name: not reached while walls are the only reason left

    # ---- words for people -------------------------------------------------------------------------------
    def choice_words(self, path: tuple[str, ...], view: dict | None = None) -> Event | None:
        return words.choice_words(path, view)

    def menu_words(self, prefix: tuple[str, ...], steps: tuple[str, ...] = (),
                   view: dict | None = None) -> Event | None:
        return words.menu_words(prefix, view)

    def phase_words(self, state: State) -> Event | None:
        return words.phase_words(state) if state["outcome"] is None else None

    def identifiers(self) -> frozenset[str]:
        return words.identifiers()

    def opening_events(self, state: State) -> list[Event]:
        """Round 1 as setup ran it (2 players, 2 vs 2): the round, the gem emission, the line and
        the excluded skills, read back from the state (the emitted gem tiles are the whole gem
        discard, the line was empty before). 3 players: the corner pick comes first, and round 1
        is announced by the action that makes it."""
        if state["round"] != 1 or state["phase"] != "skill" or state["cycle"] != 1 or any(state["skills"]):
            return []
        return [
            {"type": "round_started", "round": 1, "seat": state["start"]},
            {"type": "emission", "squares": ", ".join(state["gem_discard"]) or "-"},
            line_event(state, list(state["line_gems"]), list(state["line_floor"])),
            cards_event("skills_excluded", list(state["excluded"])),
        ]

    # ---- applying --------------------------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: str) -> list[Event]:
        events: list[Event] = []
        parsed = self.parse(action)
        verb = parsed[0]
        state["last"] = {"seat": seat, "action": action, "path": [], "squares": []}
        if verb == "corner":
            self._choose_corner(state, seat, parsed[1], events)
        elif verb == "skill":
            self._take_skill(state, seat, parsed[1], events)
        elif state["phase"] == "draft":
            self._draft_pick(state, seat, parsed, events)
        else:
            self._turn_action(state, seat, parsed, events)
        self._advance(state, events)
        return events

    # -- setup and drafts --
    def _choose_corner(self, state: State, seat: int, square: str, events: list[Event]) -> None:
        c = corner_squares().index(square)
        state["corners"] = [c, (c + 1) % 4, (c + 3) % 4]
        state["pos"] = [corner_squares()[x] for x in state["corners"]]
        events.append({"type": "corner_chosen", "seat": seat, "square": square})
        for other in (1, 2):
            events.append({"type": "corner_given", "seat": other, "square": state["pos"][other]})
        bonus = board()["three_player_start_bonus"]
        if bonus:
            self._gain(state, seat, bonus)
            events.append({"type": "start_bonus", "seat": seat, "count": bonus})
        state["last"]["squares"] = list(state["pos"])
        state["phase"] = "round"

    def _take_skill(self, state: State, seat: int, card: str, events: list[Event]) -> None:
        state["pool"].remove(card)
        state["skills"][seat] = card
        if card == "king":
            state["king"] = seat
        events.append({"type": "skill_taken", "seat": seat, "skill_term": card})
        self._next_in_queue(state)
        if state["actor"] is None:
            state["leftovers"] = list(state["pool"])
            state["pool"] = []
            events.append(cards_event("skills_left", state["leftovers"]))
            self._start_tile_draft(state, events)

    def _draft_pick(self, state: State, seat: int, parsed: tuple, events: list[Event]) -> None:
        verb = parsed[0]
        if verb == "take":
            tile = parsed[1]
            self._from_line(state, tile)
            events.append(_tile_event("drafted", tile, seat=seat))
            self._to_hand(state, seat, tile, events)
        elif verb == "place":
            _, kind, square, orient = parsed
            self._from_line(state, kind)
            self._place(state, seat, kind, square, orient, events, drafted=True)
        elif verb == "gem":
            self._from_line(state, parsed[1])
            self._use_gem_tile(state, seat, parsed[1], events, drafted=True)
        state["picks"] -= 1
        if state["picks"] <= 0 or not self._line_tiles(state):
            self._next_in_queue(state)
            state["picks"] = board()["draft_picks"]
            if state["actor"] is None or not self._line_tiles(state):
                self._start_turns(state, events)

    def _next_in_queue(self, state: State) -> None:
        state["actor"] = state["queue"].pop(0) if state["queue"] else None

    def _clockwise_from(self, state: State, seat: int) -> list[int]:
        n = state["players"]
        return [(seat + i) % n for i in range(n)]

    def _start_skill_draft(self, state: State, events: list[Event]) -> None:
        rng = self._rng(state)
        if state["cycle"] == 1:
            cards = [c for c in board()["skills"] if c != "king"]
            cards = rng.shuffled(cards)
            k = board()["skills_excluded"]
            state["excluded"] = sorted(cards[:k], key=list(board()["skills"]).index)
            state["pool"] = sorted(cards[k:] + ["king"], key=list(board()["skills"]).index)
            state["king"] = None
            events.append(cards_event("skills_excluded", state["excluded"]))
        else:
            state["pool"] = list(state["leftovers"])
            events.append(cards_event("skills_second", state["pool"]))
        state["rng"] = rng.state
        state["leftovers"] = []
        state["skills"] = [None] * state["players"]
        order = self._clockwise_from(state, state["start"])
        state["phase"] = "skill"
        state["actor"], state["queue"] = order[0], order[1:]

    def _start_tile_draft(self, state: State, events: list[Event]) -> None:
        # the start player's right-hand neighbour first, then anticlockwise: the start player last
        order = self._clockwise_from(state, state["start"])[::-1]
        state["phase"] = "draft"
        state["picks"] = board()["draft_picks"]
        state["actor"], state["queue"] = order[0], order[1:]
        if not self._line_tiles(state):
            events.append({"type": "line_empty"})
            self._start_turns(state, events)

    def _start_turns(self, state: State, events: list[Event]) -> None:
        order = self._clockwise_from(state, state["start"])
        state["phase"] = "turn"
        state["actor"], state["queue"] = order[0], order[1:]
        self._begin_turn(state, events)

    def _begin_turn(self, state: State, events: list[Event]) -> None:
        seat = state["actor"]
        skill = state["skills"][seat]
        params = board()["skills"]
        ap = board()["action_points"] + (params["quick"]["extra_ap"] if skill == "quick" else 0)
        uses = params.get(skill, {}).get("uses", 0) if skill else 0
        state["turn"] = {"ap": ap, "stopped": False, "uses": uses}
        events.append({"type": "turn_started", "seat": seat, "ap": ap, "skill_term": skill or "none"})

    # -- the round machine --
    def _advance(self, state: State, events: list[Event]) -> None:
        """Run the automatic steps (round start, round end) until someone must decide."""
        while state["outcome"] is None:
            if state["phase"] == "round":
                self._start_round(state, events)
            elif state["phase"] == "cycle_end":
                if state["players"] == 2 and state["cycle"] == 1:
                    state["cycle"] = 2
                    events.append({"type": "second_cycle"})
                    self._start_skill_draft(state, events)
                else:
                    self._end_round(state, events)
            else:
                return

    def _start_round(self, state: State, events: list[Event]) -> None:
        state["round"] += 1
        state["cycle"] = 1
        events.append({"type": "round_started", "round": state["round"], "seat": state["start"]})
        self._emit(state, events)
        self._refill(state, events)
        self._start_skill_draft(state, events)

    def _draw_gem_tile(self, state: State, events: list[Event]) -> str | None:
        if not state["gem_deck"]:
            if not state["gem_discard"]:
                return None
            rng = self._rng(state)
            state["gem_deck"] = rng.shuffled(state["gem_discard"])
            state["rng"] = rng.state
            state["gem_discard"] = []
            events.append({"type": "gem_deck_reshuffled", "count": len(state["gem_deck"])})
        return state["gem_deck"].pop()

    def _emit(self, state: State, events: list[Event]) -> None:
        revealed = []
        for _ in range(board()["emission"]):
            tile = self._draw_gem_tile(state, events)
            if tile is None:
                break
            revealed.append(tile)
        events.append({"type": "emission", "squares": ", ".join(revealed) or "-"})
        for square in revealed:
            self._put_gem(state, square, events)
        state["gem_discard"] += revealed

    def _refill(self, state: State, events: list[Event]) -> None:
        new_gems = []
        while len(state["line_gems"]) < board()["line_gems"]:
            tile = self._draw_gem_tile(state, events)
            if tile is None:
                break
            state["line_gems"].append(tile)
            new_gems.append(tile)
        need = state["line_floor_size"] - len(state["line_floor"])
        new_floor = []
        if need > len(state["floor_deck"]):
            state["last_round"] = True
            events.append({"type": "floor_short", "missing": need - len(state["floor_deck"])})
        while len(new_floor) < need:
            if not state["floor_deck"]:
                if not state["floor_discard"]:
                    break
                rng = self._rng(state)
                state["floor_deck"] = rng.shuffled(state["floor_discard"])
                state["rng"] = rng.state
                state["floor_discard"] = []
                events.append({"type": "floor_deck_reshuffled", "count": len(state["floor_deck"])})
            new_floor.append(state["floor_deck"].pop())
        state["line_floor"] = sorted(state["line_floor"] + new_floor, key=_tile_order)
        state["line_gems"] = sorted(state["line_gems"], key=_tile_order)
        events.append(line_event(state, sorted(new_gems, key=_tile_order), new_floor))

    def _end_round(self, state: State, events: list[Event]) -> None:
        events.append({"type": "round_ended", "round": state["round"]})
        king = state["king"]
        if king is not None and king != state["start"]:
            state["start"] = king
            events.append({"type": "start_player", "seat": king})
        state["turn"] = None
        totals = self.team_scores(state)
        if state["last_round"] or max(totals) >= state["target"]:
            self._finish(state, events)
            return
        state["phase"] = "round"

    def _finish(self, state: State, events: list[Event]) -> None:
        totals = self.team_scores(state)
        teams = state["teams"]
        if state["last_round"]:
            events.append({"type": "game_end_floor"})
        else:
            reached = [seat for team, total in zip(teams, totals) if total >= state["target"] for seat in team]
            events.append({"type": "game_end_target", "target": state["target"], "seats": reached})
        for team, total in zip(teams, totals):
            for seat in team:
                if len(team) > 1:
                    events.append({"type": "final_score_team", "seat": seat, "gems": state["score"][seat],
                                   "team_gems": total})
                else:
                    events.append({"type": "final_score", "seat": seat, "gems": total})
        best = max(totals)
        leaders = [i for i, t in enumerate(totals) if t == best]
        if len(leaders) == 1:
            state["outcome"] = Outcome(tuple(teams[leaders[0]]), "gems").to_json()
        else:
            first = min(state["reached"][i] for i in leaders)
            earliest = [i for i in leaders if state["reached"][i] == first]
            if len(earliest) == 1:
                winner = earliest[0]
                state["outcome"] = Outcome(tuple(teams[winner]), "tie_first").to_json()
                events.append({"type": "tie_broken", "seat": teams[winner][0], "gems": best})
            else:
                state["outcome"] = Outcome((), "tie", draw=True).to_json()
        state["phase"] = "over"
        state["actor"] = None
        state["queue"] = []

    # -- gems and hands --
    def _gain(self, state: State, seat: int, count: int) -> None:
        state["score"][seat] += count
        state["clock"] += 1
        state["reached"][self.team_of(state, seat)] = state["clock"]

    def _collect(self, state: State, seat: int, square: str, events: list[Event]) -> None:
        count = state["gems"].pop(square, 0)
        if count:
            self._gain(state, seat, count)
            events.append({"type": "gems_taken", "seat": seat, "square": square, "count": count,
                           "total": state["score"][seat]})

    def _put_gem(self, state: State, square: str, events: list[Event]) -> None:
        state["gems"][square] = state["gems"].get(square, 0) + 1
        for seat, pos in enumerate(state["pos"]):
            if pos == square:
                self._collect(state, seat, square, events)

    def _from_line(self, state: State, tile: str) -> None:
        (state["line_gems"] if is_gem_tile(tile) else state["line_floor"]).remove(tile)

    def _discard(self, state: State, tile: str) -> None:
        (state["gem_discard"] if is_gem_tile(tile) else state["floor_discard"]).append(tile)

    def _to_hand(self, state: State, seat: int, tile: str, events: list[Event]) -> None:
        hand = state["hands"][seat]
        if len(hand) >= board()["hand_limit"]:
            self._discard(state, tile)
            events.append(_tile_event("hand_full", tile, seat=seat))
            return
        hand.append(tile)
        hand.sort(key=_tile_order)

    def _use_gem_tile(self, state: State, seat: int, square: str, events: list[Event], drafted: bool) -> None:
        events.append({"type": "draft_gem_used" if drafted else "gem_tile_used", "seat": seat, "square": square})
        self._put_gem(state, square, events)
        self._discard(state, square)
        state["last"]["squares"].append(square)

    def _place(self, state: State, seat: int, kind: str, square: str, orient: str, events: list[Event],
               drafted: bool) -> None:
        state["tiles"][square] = [kind, orient]
        events.append({"type": "draft_placed" if drafted else "placed", "seat": seat, **tile_params(kind, orient),
                       "square": square})
        state["last"]["squares"].append(square)
        self._loop_check(state, seat, square, events)

    def _loop_check(self, state: State, seat: int, square: str, events: list[Event]) -> None:
        tiles = state["tiles"]
        configs: list[set] = [set()]
        for mover in range(state["players"]):
            # what stops this mover: the other pieces and every start but its own
            others = {p for s, p in enumerate(state["pos"]) if s != mover and p}
            starts = set(corner_squares()) - {self.start_of(state, mover)}
            configs += [others, starts, others | starts]
        # the same set twice gives the same answer: look each one up once (2 players repeat many)
        unique = list({frozenset(c): None for c in configs})
        if has_loop_after_change(tiles, square, unique):
            kind, orient = tiles.pop(square)
            state["floor_discard"].append(kind)
            events.append({"type": "loop_discarded", "seat": seat, **tile_params(kind, orient), "square": square})

    # -- turn actions --
    def _turn_action(self, state: State, seat: int, parsed: tuple, events: list[Event]) -> None:
        verb = parsed[0]
        if verb == "end":
            events.append({"type": "turn_ended", "seat": seat})
            self._end_turn(state, events)
            return
        self._turn_step(state, seat, parsed, events)
        if state["turn"] is not None and self._only_end_left(state, seat):
            # Nothing is left to do but end the turn (no action points, nothing free to place or
            # use): the rules leave the player no choice, so the turn ends without asking for `end`.
            events.append({"type": "turn_ended_auto", "seat": seat})
            self._end_turn(state, events)

    def _end_turn(self, state: State, events: list[Event]) -> None:
        state["turn"] = None
        self._next_in_queue(state)
        if state["actor"] is None:
            state["phase"] = "cycle_end"
        else:
            self._begin_turn(state, events)

    def _turn_step(self, state: State, seat: int, parsed: tuple, events: list[Event]) -> None:
        verb = parsed[0]
        turn = state["turn"]
        if verb == "move":
            turn["ap"] -= 1
            here = state["pos"][seat]
            to = step(here, parsed[1])
            events.append({"type": "moved", "seat": seat, "from": here, "dest": to, "ap": turn["ap"]})
            self._arrive(state, seat, here, to, parsed[1], "move", events)
        elif verb == "take":
            turn["ap"] -= 1
            self._from_line(state, parsed[1])
            events.append(_tile_event("taken", parsed[1], seat=seat, ap=turn["ap"]))
            self._to_hand(state, seat, parsed[1], events)
        elif verb == "home":
            turn["ap"] -= 1
            state["hands"][seat].remove(parsed[1])
            self._discard(state, parsed[1])
            self._go_home(state, seat, events, "home", tile=parsed[1], ap=turn["ap"])
        elif verb == "place":
            _, kind, square, orient = parsed
            state["hands"][seat].remove(kind)
            self._place(state, seat, kind, square, orient, events, drafted=False)
        elif verb == "gem":
            state["hands"][seat].remove(parsed[1])
            self._use_gem_tile(state, seat, parsed[1], events, drafted=False)
        elif verb == "crash":
            turn["uses"] -= 1
            kind, orient = state["tiles"].pop(parsed[1])
            state["floor_discard"].append(kind)
            events.append({"type": "crashed", "seat": seat, **tile_params(kind, orient), "square": parsed[1]})
            state["last"]["squares"].append(parsed[1])
        elif verb == "rotate":
            turn["uses"] -= 1
            square, clockwise = parsed[1], parsed[2]
            kind, orient = state["tiles"][square]
            new = rotate_orientation(kind, orient, clockwise)
            state["tiles"][square] = [kind, new]
            events.append({"type": "rotated_cw" if clockwise else "rotated_ccw", "seat": seat, "square": square,
                           **tile_params(kind, new)})
            state["last"]["squares"].append(square)
            self._loop_check(state, seat, square, events)
        elif verb == "recall":
            turn["uses"] -= 1
            self._go_home(state, seat, events, "recalled")
        elif verb == "steal":
            turn["ap"] -= board()["skills"]["steal"]["ap"]
            kind, orient = state["tiles"].pop(parsed[1])
            events.append({"type": "stole", "seat": seat, **tile_params(kind, orient), "square": parsed[1],
                           "ap": turn["ap"]})
            state["last"]["squares"].append(parsed[1])
            self._to_hand(state, seat, kind, events)

    def _go_home(self, state: State, seat: int, events: list[Event], kind: str, tile: str = "",
                 ap: int = 0) -> None:
        here, start = state["pos"][seat], self.start_of(state, seat)
        state["pos"][seat] = start
        event = {"type": kind, "seat": seat, "from": here, "dest": start}
        if tile:
            event = _tile_event(kind, tile, seat=seat, ap=ap, **{"from": here, "dest": start})
        events.append(event)
        state["last"]["path"].append([here, start, kind])
        self._collect(state, seat, start, events)

    def _arrive(self, state: State, seat: int, frm: str, to: str, direction: str, how: str,
                events: list[Event]) -> None:
        """Move the piece onto ``to`` and resolve every forced movement from there, step by step."""
        state["pos"][seat] = to
        state["last"]["path"].append([frm, to, how])
        self._collect(state, seat, to, events)
        if self._ghost(state, seat):
            tile = state["tiles"].get(to)
            if tile and floor_kinds()[tile[0]].effect in MOVEMENT + ("stop",):  # say what Ghost cancelled
                events.append({"type": "ghost_ignored", "seat": seat, "square": to, **tile_params(*tile)})
            return
        tiles = state["tiles"]
        seen = set()
        square = to

        def blocked(sq: str) -> bool:
            return self._forbidden(state, seat, sq)

        while True:
            tile = tiles.get(square)
            if not tile:
                return
            effect = floor_kinds()[tile[0]].effect
            if effect == "stop":
                state["turn"]["stopped"] = True
                events.append({"type": "stopped", "seat": seat, "square": square})
                return
            if effect not in MOVEMENT:
                return
            key = _state_key(tiles, square, direction)
            if key in seen:  # *house* safety net; placements and rotations discard loops first
                events.append({"type": "loop_stopped", "seat": seat, "square": square})
                return
            seen.add(key)
            result, target, way = forced_step(tiles, square, direction, blocked)
            if target is None:
                events.append({"type": BLOCKED_EVENTS[result], "seat": seat, "square": square,
                               **tile_params(*tile)})
                return
            event = {"type": STEP_EVENTS[result], "seat": seat, "from": square, "dest": target}
            if result == "spring":
                event["over"] = step(square, way)
            events.append(event)
            state["pos"][seat] = target
            state["last"]["path"].append([square, target, result])
            self._collect(state, seat, target, events)
            square, direction = target, way

    # ---- what players see ------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        turn = state["turn"]
        tiles = state["tiles"]
        return {
            "game": self.name,
            "viewer": seat,
            "players": state["players"],
            "to_act": sorted(self.to_act(state)),
            "phase": state["phase"],
            "round": state["round"],
            "cycle": state["cycle"],
            "start": state["start"],
            "actor": state["actor"],
            "teams": state["teams"],
            "corners": corner_squares(),
            "starts": [self.start_of(state, s) if state["corners"][s] is not None else None
                       for s in range(state["players"])],
            "pos": list(state["pos"]),
            "tiles": [{"square": sq, "kind": tiles[sq][0], "orient": tiles[sq][1],
                       "effect": floor_kinds()[tiles[sq][0]].effect,
                       "closed": "".join(s for s in "NESW" if s in closed_sides(*tiles[sq]))}
                      for sq in SQUARES if sq in tiles],
            "gems": {sq: state["gems"][sq] for sq in SQUARES if state["gems"].get(sq)},
            "line": {"gems": list(state["line_gems"]), "floor": list(state["line_floor"])},
            "hands": [list(h) for h in state["hands"]],
            "skills": list(state["skills"]),
            "pool": list(state["pool"]),
            "excluded": list(state["excluded"]),
            "leftovers": list(state["leftovers"]),
            "king": state["king"],
            "score": list(state["score"]),
            "team_score": self.team_scores(state),
            "reached": list(state["reached"]),
            "target": state["target"],
            "turn": dict(turn) if turn else None,
            "picks": state["picks"] if state["phase"] == "draft" else 0,
            "decks": {"floor": len(state["floor_deck"]), "gem": len(state["gem_deck"]),
                      "floor_discard": len(state["floor_discard"]), "gem_discard": len(state["gem_discard"])},
            "last_round": state["last_round"],
            "last": state["last"],
            "outcome": state["outcome"],
        }

    def describe_position(self, view: dict) -> list[Event]:
        """Round, step and whose turn; each player's square, gems, skill and hand (team totals in
        2 vs 2); the floor tiles on the board grouped by kind with their facings; the gems lying
        on the board; the line. Grouped, so a crowded late board still fits an image's alt text."""
        events: list[Event] = [_describe_status(view)]
        for seat in range(view["players"]):
            skill = view["skills"][seat]
            held = view["hands"][seat]
            hand = [_alt("hand_tile", tile_term=t) for t in held if not words.is_gem_tile(t)]
            gem_tiles = [t for t in held if words.is_gem_tile(t)]
            if gem_tiles:
                hand.append(_alt("hand_gems", squares=", ".join(gem_tiles)))
            events.append(_alt("player", seat=seat, square=view["pos"][seat] or "-", count=view["score"][seat],
                               hand=hand or "-", skill=_alt("skill", skill_term=skill) if skill else _alt("no_skill")))
        if len(view["teams"]) == 2 and all(len(t) == 2 for t in view["teams"]):
            events.append(_alt("teams", first=view["team_score"][0], second=view["team_score"][1],
                               first_seats=list(view["teams"][0]), second_seats=list(view["teams"][1])))
        by_kind: dict[str, list[Event]] = {}
        for t in view["tiles"]:
            facing = words.facing_term(t["kind"], t["orient"])
            plain = facing in (words.PLAIN, "closed_all")  # ice, stop and box look the same every way round
            placed = _alt("placed_plain", square=t["square"]) if plain else \
                _alt("placed", square=t["square"], facing=_alt(facing))
            by_kind.setdefault(t["kind"], []).append(placed)
        walls = {k for k, spec in floor_kinds().items() if spec.effect == "wall" and spec.oriented}
        events += [_alt(("tiles", "walls")[k in walls], tile_term=k, squares=v) for k, v in by_kind.items()]
        events.append(_alt("gems", squares=_gem_runs(view["gems"]) or "-", count=sum(view["gems"].values())))
        floor = view["line"]["floor"]
        kinds = [_alt("line_kind", tile_term=k, count=floor.count(k)) for k in dict.fromkeys(floor)]
        events.append(_alt("line", gem_tiles=", ".join(view["line"]["gems"]) or "-", floor=kinds or "-"))
        return events

    def resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """A seat concedes: its whole side loses, every other side shares the win (2 vs 2: the other
        team only, never the resigning player's team mate)."""
        if self.outcome(state) is not None:
            raise GameOver("game_over")
        new = copy_state(state)
        new["outcome"] = Outcome(tuple(self.opponents(new, seat)), "resign").to_json()
        new["phase"], new["actor"], new["queue"] = "over", None, []
        return new, [{"type": "resigned", "seat": seat}]

    def agreed_end(self, state: State) -> tuple[State, list[Event]]:
        new, events = super().agreed_end(state)
        new["phase"], new["actor"], new["queue"] = "over", None, []  # as a resignation ends a turn
        return new, events

    def undoable(self, before: State, after: State, events: list[Event]) -> bool:
        """Hands and the line are public; a draw from a deck, an emission of gems, a reshuffle or a
        skill draft's random cards (the generator) make an action final."""
        return unchanged(before, after, "rng", "gem_deck", "floor_deck", "round")

    def standings(self, state: State) -> list[tuple[tuple[int, ...], int]]:
        """Teams as seated (2 vs 2: two teams of two); the winners first, the others by gems."""
        outcome = self.outcome(state)
        if outcome is None:
            return []
        winners = set(outcome.winners)
        totals = self.team_scores(state)
        places = [-10**9 if (winners & set(team) and not outcome.draw) else -total
                  for team, total in zip(state["teams"], totals)]
        if outcome.reason == "resign":  # a resignation ends it; the gems so far do not rank the rest
            places = [0 if winners & set(team) else 1 for team in state["teams"]]
        order = sorted(set(places))
        return [(tuple(team), order.index(p)) for team, p in zip(state["teams"], places)]

    def skip_action(self, state: State, seat: int) -> str | None:
        """A timed-out turn just ends; draft picks and the corner pick have no pass (a stand-in picks)."""
        return "end" if "end" in self.legal_actions(state, seat) else None

    def scramble_hidden(self, state: State, seat: int | None, rng) -> State:
        """Deck orders and the RNG are the only secrets: re-deal both decks and re-seed."""
        new = super().scramble_hidden(state, seat, rng)
        new["floor_deck"] = rng.shuffled(new["floor_deck"])
        new["gem_deck"] = rng.shuffled(new["gem_deck"])
        return new


def _alt(kind: str, **params) -> Event:
    """A part of the position in words (``alt.hostile.<kind>``), not a game event."""
    return {"type": kind, **params}


def _describe_status(view: dict) -> Event:
    """Who is to act and in which step of which round, or how the game ended."""
    outcome = view["outcome"]
    if outcome is not None:
        if outcome.get("draw") or not outcome["winners"]:
            return _alt("draw")
        return _alt("won", seats=list(outcome["winners"]))
    step = _alt("status", round=view["round"], step_term=f"step_{view['phase']}", seats=list(view["to_act"]),
                target=view["target"])
    if view["phase"] == "turn" and view["turn"]:
        step.update(type="status_turn", ap=view["turn"]["ap"])
    return step


def _gem_runs(gems: dict[str, int]) -> list[Event]:
    """The gems on the board as runs along each row ("D3–H3"; "E2×2" where a square holds more),
    so a board full of gems stays a short sentence."""
    runs: list[Event] = []
    for sq in sorted(gems, key=lambda q: (q[1], q[0])):
        count, last = gems[sq], runs[-1] if runs else None
        if count > 1:
            runs.append(_alt("gem_many", square=sq, count=count))
        elif last and last["type"] == "gem_run" and last["last"][1] == sq[1] and ord(last["last"][0]) + 1 == ord(sq[0]):
            last["last"] = sq
        else:
            runs.append(_alt("gem_run", first=sq, last=sq))
    # a run of one square is just that square
    return [_alt("gem", square=r["first"]) if r["type"] == "gem_run" and r["first"] == r["last"] else r for r in runs]
