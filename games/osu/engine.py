"""OSU (RULES.md §3): push chains, secret passages and monkey dice, for 2 or 4 players.

Board: 7x7 without its corners (a-g, rows 1-7) for 4 players, columns b-f for 2 players. d4 is
the OSU square; b2 -> b6 -> f6 -> f2 (-> b2) are the secret passages in clockwise order. Seats
sit clockwise: seat 0 south (row 1), then for 4 players seat 1 west (column a), seat 2 north
(row 7), seat 3 east (column g); for 2 players seat 1 is north. Each seat's tiles 1-4 start on
its edge line, numbered from that player's left to right, mouse facing the centre.

Notation (one action per turn, squares as on the board image):

===========  ==========================================================  ===========
form         meaning                                                     example
===========  ==========================================================  ===========
``sq-sq``    move the own tile on the first square one step to an        ``b1-b2``
             empty orthogonal neighbour
``sq>``      rotate the own tile on the square 90° clockwise             ``c1>``
``sq<``      rotate the own tile on the square 90° anticlockwise         ``c1<``
===========  ==========================================================  ===========

``canonical`` accepts any case and spaces (``" B1 - B2 "`` -> ``b1-b2``). Buttons group actions
by their source square (:meth:`Osu.action_group`).

A tile's faces: clockwise from its top side it shows mouse, cat, lion, monkey at rotation 0;
``rotation`` counts clockwise quarter turns, so the animal on side ``s`` (0 up, 1 right, 2 down,
3 left) is ``ANIMALS[(s - rotation) % 4]``.

The chain (house choices where RULES.md is silent are marked *house*):

* A tile *arrives* by its own move, by losing a contest, or through a passage. Arriving on a
  passage sends it on to the next free passage clockwise first (nothing happens if all three
  others are occupied). Pushed tiles (in a line, by momentum, by the OSU push) also go through a
  passage they are pushed onto (the rulebook says "moved or made to move"), but start no contests.
* An arriving tile contests each orthogonal neighbour of another colour, in the order of its own
  sides mouse, cat, lion, monkey (clockwise after the monkey side), re-reading the board before
  each contest. Each pair of tiles contests at most once per turn.
* *house*: depth first. When the arriving tile wins, the loser's whole chain (its retreat, pushes
  and new contests where it arrives) is resolved before the winner's next contest; if the winner
  has been pushed away meanwhile, it contests no more. When the arriving tile loses, it stops.
* The loser moves one square directly away from the winner, pushing any line of tiles ahead of it
  one square on. A loser that arrives on an empty square with a tile it already contested this
  turn straight ahead shoves that tile (and its line) one square on without a contest (the
  rulebook's warning example).
* A tile pushed off the board is captured by the owner of the tile that pushed it. In 4 players
  this may be one's own tile (it counts). In 2 players it cannot (「2人プレイルールでは適用され
  ません」, RULES.md §3): a tile pushed off by a tile of its own colour is captured by the
  opponent, even on its owner's own move, so every capture in 2 players is of an opponent tile.
* The game ends the moment a player reaches the target (the chain stops there): 2 opponent tiles
  (2 players), 10 points of opponent tile numbers (2-player points variant), 3 tiles of any
  colour (4 players).
* *house*: a seat without tiles (4 players) is skipped. (In 2 players a seat's last tiles going
  off always give the opponent the win first.)
* *house*: the 4-player OSU push fires when a tile arrives on d4 by its own move or by losing
  (not when pushed there). Tiles on the 8 surrounding squares (diagonals too) are pushed one square
  straight outward, all rays at once, lines pushed along; rays are disjoint, so order is moot.
"""

from __future__ import annotations

import re

from ..base import Event, Game, Option, Outcome, State, unchanged
from ..errors import GameError, NotationError
from ..rng import MASK64, Rng

COLUMNS = "abcdefg"
ANIMALS = ("mouse", "cat", "lion", "monkey")
EMOJI = {"mouse": "🐭", "cat": "🐱", "lion": "🦁", "monkey": "🐵"}
# side index -> (d_col, d_row): 0 up (towards row 7), 1 right, 2 down, 3 left
DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))
SIDE_NAMES = ("up", "right", "down", "left")
PASSAGES = ("b2", "b6", "f6", "f2")   # clockwise
OSU_SQUARE = "d4"
BEATS = frozenset({("cat", "mouse"), ("lion", "cat"), ("mouse", "lion")})
MONKEY_DIE = ("mouse", "mouse", "cat", "cat", "lion", "lion")   # six faces, two of each
# Event text marks for tiles, in the seat colours of renderers.common.PLAYER_STYLES
# (blue, orange, bluish green, reddish purple), so "🟦3" is seat 0's tile 3 in text and image.
TILE_MARKS = ("🟦", "🟧", "🟩", "🟪")
# ring around d4 for the OSU push, clockwise from north
RAYS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

_MOVE = re.compile(r"^([a-g][1-7])-([a-g][1-7])$")
_ROTATE = re.compile(r"^([a-g][1-7])([<>])$")

# seat layouts: (squares of tiles 1..4 from that player's left to right, rotation: mouse to the centre)
_SOUTH = (("b1", "c1", "e1", "f1"), 0)
_WEST = (("a6", "a5", "a3", "a2"), 1)
_NORTH = (("f7", "e7", "c7", "b7"), 2)
_EAST = (("g2", "g3", "g5", "g6"), 3)
LAYOUTS = {2: (_SOUTH, _NORTH), 4: (_SOUTH, _WEST, _NORTH, _EAST)}


def rotation_with(side: int, animal: str) -> int:
    """The rotation that puts ``animal`` on ``side`` (0 up, 1 right, 2 down, 3 left).

    >>> rotation_with(0, "mouse"), rotation_with(2, "mouse"), rotation_with(0, "cat")
    (0, 2, 3)
    """
    return (side - ANIMALS.index(animal)) % 4


def face(rotation: int, side: int) -> str:
    """The animal on ``side`` of a tile with this rotation.

    >>> [face(1, s) for s in range(4)]
    ['monkey', 'mouse', 'cat', 'lion']
    """
    return ANIMALS[(side - rotation) % 4]


def board_squares(players: int) -> tuple[str, ...]:
    """The squares in play, row by row from a1: 45 for 4 players, 35 (b-f) for 2."""
    cols = range(7) if players == 4 else range(1, 6)
    out = []
    for row in range(1, 8):
        for c in cols:
            if players == 4 and c in (0, 6) and row in (1, 7):
                continue
            out.append(f"{COLUMNS[c]}{row}")
    return tuple(out)


_SQUARES = {2: board_squares(2), 4: board_squares(4)}
_SQUARE_SETS = {n: frozenset(sq) for n, sq in _SQUARES.items()}


def shift(square: str, d_col: int, d_row: int) -> str | None:
    """The square offset from ``square`` on the 7x7 grid (None off the grid; corners not checked)."""
    try:
        return _SHIFTS[square, d_col, d_row]
    except KeyError:
        return _shift(square, d_col, d_row)


def _shift(square: str, d_col: int, d_row: int) -> str | None:
    c = COLUMNS.find(square[0]) + d_col
    r = int(square[1:]) + d_row
    if 0 <= c < 7 and 1 <= r <= 7:
        return f"{COLUMNS[c]}{r}"
    return None


# every one-step offset (orthogonal and diagonal) from every grid square, tabulated once: the
# rules and the AI's evaluation ask for neighbours hundreds of thousands of times a decision
_SHIFTS = {(f"{c}{r}", dc, dr): _shift(f"{c}{r}", dc, dr)
           for c in COLUMNS for r in range(1, 8) for dc in (-1, 0, 1) for dr in (-1, 0, 1)}


def _square_actions(square: str, squares: frozenset) -> tuple[tuple, tuple[str, str]]:
    """A tile's actions on ``square``: its moves as ``(target, text)`` in side order, and its
    two rotations (legal_actions keeps the moves whose target is empty)."""
    targets = (shift(square, *d) for d in DIRS)
    moves = tuple((to, f"{square}-{to}") for to in targets if to in squares)
    return moves, (f"{square}>", f"{square}<")


# per player count and square; every decision of search lists legal actions thousands of times
_ACTIONS = {n: {sq: _square_actions(sq, _SQUARE_SETS[n]) for sq in _SQUARES[n]} for n in _SQUARES}


def _neighbours(squares: frozenset) -> dict[tuple, str | None]:
    """(square, step along one of the eight rays) -> the square it leads to, None off the board."""
    out = {}
    for sq in squares:
        for d in RAYS:
            to = shift(sq, *d)
            out[sq, d] = to if to in squares else None
    return out


_NEIGHBOURS = {n: _neighbours(squares) for n, squares in _SQUARE_SETS.items()}


def tile_mark(seat: int, number: int) -> str:
    """The text form of a tile in event params: seat colour mark + number, e.g. ``🟦3``."""
    return f"{TILE_MARKS[seat % len(TILE_MARKS)]}{number}"


# Event params never use the key "to": games.base.events_for reads it as "private to these seats".


class _Ended(Exception):
    """Internal: a player reached the target mid-chain; the chain stops at once."""


class _Chain:
    """One turn's resolution on a private copy of the state (the caller's copy)."""

    MAX_STEPS = 10_000  # a guard only: the once-per-pair rule bounds a chain far below this

    def __init__(self, state: State):
        self.state = state
        self.board: dict[str, list] = state["board"]
        self.players: int = state["players"]
        self.squares = _SQUARE_SETS[self.players]
        self.neighbours = _NEIGHBOURS[self.players]
        self.opts: dict = state["options"]
        self.rng = Rng(state["rng"])
        self.events: list[Event] = []
        self.path: list[dict] = []
        self.pairs: set[tuple] = set()
        self.steps = 0

    # ---- small helpers -------------------------------------------------------------------------
    def _tick(self) -> None:
        self.steps += 1
        if self.steps > self.MAX_STEPS:  # pragma: no cover - would be an engine bug
            raise RuntimeError("OSU chain did not end")

    def _on(self, square: str | None) -> bool:
        return square is not None and square in self.squares

    def _step(self, square: str, d: tuple[int, int]) -> str | None:
        """The square one step along ``d`` (orthogonal or diagonal), None off the board."""
        return self.neighbours[square, d]

    def _ident(self, square: str) -> tuple[int, int]:
        seat, number, _ = self.board[square]
        return seat, number

    def _trace(self, kind: str, seat: int, number: int, frm: str, to: str | None, d=(0, 0)) -> None:
        self.path.append({"kind": kind, "seat": seat, "tile": number, "from": frm, "to": to,
                          "dx": d[0], "dy": d[1]})

    # ---- movement --------------------------------------------------------------------------------
    def passage_exit(self, square: str) -> str | None:
        """The next free passage clockwise after ``square``, or None if the others are full."""
        i = PASSAGES.index(square)
        for k in (1, 2, 3):
            cand = PASSAGES[(i + k) % 4]
            if cand not in self.board and self._on(cand):
                return cand
        return None

    def through_passage(self, square: str) -> str:
        """A tile just moved onto ``square``: if it is a passage, send it on. Returns where it is."""
        if square not in PASSAGES:
            return square
        seat, number = self._ident(square)
        exit_ = self.passage_exit(square)
        if exit_ is None:
            self.events.append({"type": "passage_blocked", "seat": seat, "tile": tile_mark(seat, number),
                                "square": square})
            return square
        self.board[exit_] = self.board.pop(square)
        self.events.append({"type": "passage", "seat": seat, "tile": tile_mark(seat, number),
                            "from": square, "dest": exit_})
        self._trace("passage", seat, number, square, exit_)
        return exit_

    def push_line(self, start: str, d: tuple[int, int], pusher: int) -> list[str]:
        """Push the line of tiles from ``start`` one square along ``d``; ``pusher`` is the seat of
        the tile pushing the first one. Returns the squares pushed tiles landed on (front first);
        the caller sends them through passages (:meth:`pass_through`) once the pusher stands."""
        line = [start]
        while True:
            nxt = self._step(line[-1], d)
            if nxt is None or nxt not in self.board:
                break
            line.append(nxt)
        off = None
        if self._step(line[-1], d) is None:   # the front tile falls off the board
            behind = self.board[line[-2]][0] if len(line) > 1 else pusher
            square = line.pop()
            off = (self.board.pop(square), behind, square)
        moves = []
        for square in reversed(line):          # front first, so no tile lands on another
            self._tick()
            to = self._step(square, d)
            tile = self.board.pop(square)
            self.board[to] = tile
            moves.append((square, to, tile))
        for square, to, tile in reversed(moves):   # told from the pusher outward
            self.events.append({"type": "pushed", "pushed_seat": tile[0], "tile": tile_mark(tile[0], tile[1]),
                                "from": square, "dest": to})
            self._trace("push", tile[0], tile[1], square, to, d)
        if off is not None:
            self.capture(off[0], off[1], off[2], d)
        landed = [to for _, to, _ in moves]
        return landed

    def pass_through(self, landed: list[str]) -> None:
        """Pushed tiles that landed on passages go through them, front first."""
        for square in landed:
            if square in PASSAGES and square in self.board:
                self.through_passage(square)

    def capture(self, tile: list, captor: int, square: str, d: tuple[int, int]) -> None:
        """``tile`` (already off the board) was pushed off from ``square`` by a tile of ``captor``."""
        owner, number = tile[0], tile[1]
        self._trace("off", owner, number, square, None, d)
        mark = tile_mark(owner, number)
        if owner != captor:
            self.events.append({"type": "captured", "seat": captor, "pushed_seat": owner, "tile": mark,
                                "square": square})
        elif self.players == 4:
            self.events.append({"type": "captured_own", "seat": captor, "tile": mark, "square": square})
        else:   # 2 players: an own-colour push-off goes to the opponent
            captor = 1 - owner
            self.events.append({"type": "captured_self_push", "seat": captor, "pushed_seat": owner,
                                "tile": mark, "square": square})
        self.state["captured"][captor].append([owner, number])
        target, score = target_and_score(self.state, captor)
        if score >= target:
            if self.opts["points"]:
                self.state["outcome"] = Outcome((captor,), "osu_points").to_json()
                self.events.append({"type": "won_points", "seat": captor, "points": score})
            else:
                self.state["outcome"] = Outcome((captor,), "osu_captures").to_json()
                self.events.append({"type": "won", "seat": captor, "count": score})
            raise _Ended

    def retreat(self, square: str, d: tuple[int, int], winner_square: str) -> None:
        """The tile on ``square`` lost to the one on ``winner_square``: it moves along ``d``."""
        self._tick()
        seat, number, _ = self.board[square]
        target = self._step(square, d)
        if target is None:
            tile = self.board.pop(square)
            self.capture(tile, self.board[winner_square][0], square, d)
            return
        self.events.append({"type": "retreat", "seat": seat, "tile": tile_mark(seat, number),
                            "from": square, "dest": target})
        self._trace("retreat", seat, number, square, target, d)
        crowded = target in self.board
        landed = self.push_line(target, d, seat) if crowded else []
        self.board[target] = self.board.pop(square)
        self.pass_through(landed)
        self.arrive(target, d, lost=True, crowded=crowded)

    def osu_push(self, centre: str) -> None:
        seat, number = self._ident(centre)
        self.events.append({"type": "osu_push", "seat": seat, "tile": tile_mark(seat, number), "square": centre})
        landed = []
        for d in RAYS:
            ring = self._step(centre, d)
            if ring is not None and ring in self.board:
                landed += self.push_line(ring, d, seat)
        self.pass_through(landed)

    # ---- arriving and contesting ---------------------------------------------------------------
    def arrive(self, square: str, d: tuple[int, int] | None, *, lost: bool = False, crowded: bool = False,
               moved: bool = True) -> None:
        """The tile on ``square`` arrived there moving along ``d`` (``moved`` False: a rotation
        with the rotation-contests option)."""
        self._tick()
        ident = self._ident(square)
        if moved:
            landed = self.through_passage(square)
            if landed != square:
                square, d = landed, None
            if self.opts["osu_push"] and square == OSU_SQUARE:
                self.osu_push(square)
            if lost and d is not None and not crowded:
                ahead = self._step(square, d)
                if ahead is not None and ahead in self.board and _pair(ident, self._ident(ahead)) in self.pairs:
                    oseat, onumber = self._ident(ahead)
                    self.events.append({"type": "momentum", "seat": ident[0], "tile": tile_mark(*ident),
                                        "pushed_seat": oseat, "pushed_tile": tile_mark(oseat, onumber),
                                        "square": square})
                    self.pass_through(self.push_line(ahead, d, ident[0]))
        for animal in range(4):   # mouse, cat, lion, monkey: clockwise after the monkey side
            if square not in self.board or self._ident(square) != ident:
                return   # pushed away meanwhile: a pushed tile contests no more
            side = (animal + self.board[square][2]) % 4
            d_side = DIRS[side]
            other = self._step(square, d_side)
            if other is None or other not in self.board:
                continue
            oident = self._ident(other)
            if oident[0] == ident[0] or _pair(ident, oident) in self.pairs:
                continue
            self.pairs.add(_pair(ident, oident))
            result = self.contest(square, other, side)
            if result > 0:
                self.retreat(other, d_side, square)
            elif result < 0:
                self.retreat(square, (-d_side[0], -d_side[1]), other)
                return

    def roll(self, square: str) -> str:
        seat, number = self._ident(square)
        result = MONKEY_DIE[self.rng.below(6)]
        self.events.append({"type": "monkey", "seat": seat, "tile": tile_mark(seat, number),
                            "square": square, "roll": EMOJI[result]})
        return result

    def contest(self, a_sq: str, b_sq: str, side: int) -> int:
        """Contest between the arriving tile on ``a_sq`` and its neighbour on ``a_sq``'s ``side``:
        +1 if the arriving tile wins, -1 if it loses, 0 for a draw."""
        self._tick()
        a, b = self.board[a_sq], self.board[b_sq]
        shown_a, shown_b = face(a[2], side), face(b[2], (side + 2) % 4)
        fight_a = self.roll(a_sq) if shown_a == "monkey" else shown_a
        fight_b = self.roll(b_sq) if shown_b == "monkey" else shown_b
        reversed_ = bool(self.opts["reversal"]) and OSU_SQUARE in self.board
        same = fight_a == fight_b
        if same:
            result = (a[1] > b[1]) - (a[1] < b[1])
        else:
            result = 1 if ((fight_a, fight_b) in BEATS) != reversed_ else -1
        shown = {a_sq: _shown(shown_a, fight_a), b_sq: _shown(shown_b, fight_b)}
        if result == 0:
            self.events.append({"type": "contest_draw", "attacker": a[0], "attacker_tile": tile_mark(a[0], a[1]),
                                "attacker_animal": shown[a_sq], "square": a_sq,
                                "defender": b[0], "defender_tile": tile_mark(b[0], b[1]),
                                "defender_animal": shown[b_sq], "defender_square": b_sq})
            return 0
        w_sq, l_sq = (a_sq, b_sq) if result > 0 else (b_sq, a_sq)
        w, lo = self.board[w_sq], self.board[l_sq]
        self.events.append({"type": "contest_number" if same else "contest_reversed" if reversed_ else "contest",
                            "winner": w[0], "winner_tile": tile_mark(w[0], w[1]), "winner_animal": shown[w_sq],
                            "winner_square": w_sq,
                            "loser": lo[0], "loser_tile": tile_mark(lo[0], lo[1]), "loser_animal": shown[l_sq],
                            "loser_square": l_sq})
        return result


def _pair(a: tuple[int, int], b: tuple[int, int]) -> tuple:
    return (a, b) if a < b else (b, a)


def _shown(shown: str, fought: str) -> str:
    """Emoji for a facing animal; a monkey shows what it rolled (``🐵🐭``)."""
    return EMOJI[shown] if shown == fought else EMOJI[shown] + EMOJI[fought]


def target_and_score(state: State, seat: int) -> tuple[int, int]:
    """What ``seat`` needs to win and what it has (tiles or points that count)."""
    captured = state["captured"][seat]
    if state["players"] == 4:
        return 3, len(captured)
    opponents = [n for owner, n in captured if owner != seat]
    if state["options"]["points"]:
        return 10, sum(opponents)
    return 2, len(opponents)


def _parse(action: str, help_key: str):
    if m := _MOVE.match(action):
        return ("move", m[1], m[2])
    if m := _ROTATE.match(action):
        return ("rotate", m[1], 1 if m[2] == ">" else -1)
    raise NotationError("bad_notation", action=action, help=help_key)


# every action on the 4-player board (the 2-player board's among them), parsed once: search
# applies tens of thousands a decision
_PARSED = {text: _parse(text, "")
           for moves, rotations in _ACTIONS[4].values()
           for text in (*(move for _, move in moves), *rotations)}


class Osu(Game):
    """The OSU engine. See the module docstring for the notation and the house choices."""

    def __init__(self):
        super().__init__(
            name="osu",
            min_players=2,
            max_players=4,
            options=(
                Option("points", False),             # 2 players: first to 10 points of captured numbers
                Option("reversal", False),           # 2 players: beats reverse while d4 is occupied
                Option("osu_push", False),           # 4 players: arriving on d4 pushes the 8 around it out
                Option("rotation_contests", False),  # a rotated tile contests its neighbours
                Option("turn_limit", 300, low=0, high=2000),  # draw after this many actions (0: none)
            ),
        )

    # ---- setup and turn order ----------------------------------------------------------------
    def player_counts(self) -> tuple[int, ...]:
        return (2, 4)

    def setup(self, players: int, options: dict, seed: int) -> State:
        opts = self.resolve_options(options, players)
        if players not in (2, 4):
            raise GameError("osu.players", players=players)
        for name, needs in (("points", 2), ("reversal", 2), ("osu_push", 4)):
            if opts[name] and players != needs:
                raise GameError("osu.variant_players", option=name, players=needs)
        board = {}
        for seat, (squares, rotation) in enumerate(LAYOUTS[players]):
            for number, square in enumerate(squares, start=1):
                board[square] = [seat, number, rotation]
        return {
            "players": players,
            "rng": seed & MASK64,
            "options": opts,
            "turn": 0,
            "ply": 0,
            "board": board,
            "captured": [[] for _ in range(players)],
            "last": None,
            "outcome": None,
        }

    def to_act(self, state: State) -> set[int]:
        return set() if state["outcome"] else {state["turn"]}

    # ---- notation ----------------------------------------------------------------------------
    def canonical(self, action: str) -> str:
        """Lower case, no spaces.

        >>> Osu().canonical(" B1 - B2 "), Osu().canonical("C1 >")
        ('b1-b2', 'c1>')
        """
        return re.sub(r"\s+", "", action).lower()

    def parse(self, action: str):
        try:
            return _PARSED[action]
        except KeyError:
            return _parse(action, self.notation_help_key())

    def action_group(self, action: str) -> str:
        """The source square: pick a tile first, then a move or rotation."""
        return self.parse(action)[1]

    def action_targets(self, action: str, view: dict) -> tuple[str, ...]:
        """The tile's square, then the square it moves to, or its rotation as a button.

        >>> Osu().action_targets("b1-b2", {}), Osu().action_targets("c1>", {})
        (('cell:b1', 'cell:b2'), ('cell:c1', 'button:c1>'))
        """
        kind, sq, arg = self.parse(action)
        if kind == "move":
            return (f"cell:{sq}", f"cell:{arg}")
        return (f"cell:{sq}", f"button:{action}")

    # ---- legality ------------------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[str]:
        if state["outcome"] or seat != state["turn"]:
            return []
        board, actions = state["board"], _ACTIONS[state["players"]]
        out = []
        for sq in _SQUARES[state["players"]]:
            if sq not in board or board[sq][0] != seat:
                continue
            moves, rotations = actions[sq]
            out += [move for to, move in moves if to not in board]
            out += rotations
        return out


    def undoable(self, before: State, after: State, events: list[Event]) -> bool:
        """Everything is public; only a monkey die (the generator moved) makes a move final."""
        return unchanged(before, after, "rng")

    def why_illegal(self, state: State, seat: int, action: str) -> str:
        return self.refusal(state, seat, action)[0]

    def refusal(self, state: State, seat: int, action: str) -> tuple[str, dict]:
        """The one reason a well-formed action is refused: its error key and params."""
        kind, sq, arg = self.parse(action)
        board, squares = state["board"], _SQUARE_SETS[state["players"]]
        if sq not in board:
            return "osu.no_own_tile", {"square": sq}
        if board[sq][0] != seat:
            return "osu.not_yours", {"square": sq, "tile": tile_mark(*board[sq][:2])}
        if kind == "move":
            if arg not in [shift(sq, *d) for d in DIRS]:
                return "osu.not_adjacent", {"square": sq, "dest": arg}
            if arg not in squares:
                return "osu.off_board", {"square": arg}
            if arg in board:
                return "osu.occupied", {"square": arg, "tile": tile_mark(*board[arg][:2])}
        return "illegal_action", {}

    # ---- words for people ----------------------------------------------------------------------
    def choice_words(self, path: tuple[str, ...], view: dict | None = None) -> Event | None:
        """A tile by its square; a move with its direction; a turn clockwise or anticlockwise."""
        if not path:
            return None
        last = path[-1]
        if len(path) == 1 and re.fullmatch(r"[a-g][1-7]", last):
            return _words("tile", square=last)
        kind, sq, arg = self.parse(last)
        if kind == "rotate":
            return _words({1: "rotate_cw", -1: "rotate_ccw"}[arg], square=sq)
        d = (COLUMNS.index(arg[0]) - COLUMNS.index(sq[0]), int(arg[1:]) - int(sq[1:]))
        return _words("move", square=sq, dest=arg, dir_term=SIDE_NAMES[DIRS.index(d)])

    def menu_words(self, prefix: tuple[str, ...], steps: tuple[str, ...] = (),
                   view: dict | None = None) -> Event | None:
        return _words("tile", square=prefix[0]) if prefix else _words("root")

    def identifiers(self) -> frozenset[str]:
        """Option names (the notation itself is squares and arrows)."""
        return frozenset({"osu_push", "rotation_contests", "turn_limit"})

    # ---- the rules -----------------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: str) -> list[Event]:
        kind, sq, arg = self.parse(action)
        chain = _Chain(state)
        board = state["board"]
        number = board[sq][1]
        mark = tile_mark(seat, number)
        try:
            if kind == "move":
                d = (COLUMNS.index(arg[0]) - COLUMNS.index(sq[0]), int(arg[1:]) - int(sq[1:]))
                board[arg] = board.pop(sq)
                chain.events.append({"type": "moved", "seat": seat, "tile": mark, "from": sq, "dest": arg})
                chain._trace("move", seat, number, sq, arg, d)
                chain.arrive(arg, d)
            else:
                # a new tile list, never the old one changed: search shares tile lists between copies
                owner, _, rotation = board[sq]
                board[sq] = [owner, number, (rotation + arg) % 4]
                chain.events.append({"type": "rotated", "seat": seat, "tile": mark, "square": sq,
                                     "turn": "↻" if arg > 0 else "↺",
                                     "up": EMOJI[face(board[sq][2], 0)]})
                chain._trace("rotate", seat, number, sq, sq)
                if state["options"]["rotation_contests"]:
                    chain.arrive(sq, None, moved=False)
        except _Ended:
            pass
        events = chain.events
        state["rng"] = chain.rng.state
        state["ply"] += 1
        state["last"] = {"seat": seat, "action": action, "path": chain.path}
        if state["outcome"]:
            return events
        nxt = (seat + 1) % state["players"]
        while nxt != seat and not _has_tiles(board, nxt):
            events.append({"type": "skipped", "seat": nxt})
            nxt = (nxt + 1) % state["players"]
        state["turn"] = nxt
        if state["options"]["turn_limit"] and state["ply"] >= state["options"]["turn_limit"]:
            state["outcome"] = Outcome((), "turn_limit", draw=True).to_json()
            events.append({"type": "turn_limit", "limit": state["options"]["turn_limit"]})
        return events

    # ---- what players see ------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        """Everything is public except the RNG (future monkey dice), which never appears here."""
        board, players, opts = state["board"], state["players"], state["options"]
        scores, targets = [], []
        for s in range(players):
            target, score = target_and_score(state, s)
            scores.append(score)
            targets.append(target)
        return {
            "game": self.name,
            "viewer": seat,
            "players": players,
            "to_act": sorted(self.to_act(state)),
            "turn": state["turn"],
            "ply": state["ply"],
            "options": dict(opts),
            "columns": COLUMNS if players == 4 else COLUMNS[1:6],
            "squares": list(_SQUARES[players]),
            "passages": list(PASSAGES),
            "osu": OSU_SQUARE,
            "reversed": bool(opts["reversal"]) and OSU_SQUARE in board,
            "tiles": [
                {"square": sq, "seat": board[sq][0], "number": board[sq][1], "rotation": board[sq][2],
                 "faces": {SIDE_NAMES[s]: face(board[sq][2], s) for s in range(4)}}
                for sq in _SQUARES[players] if sq in board
            ],
            "captured": [
                [{"seat": owner, "number": n, "counts": players == 4 or owner != s} for owner, n in caps]
                for s, caps in enumerate(state["captured"])
            ],
            "scores": scores,
            "targets": targets,
            "tiles_left": tiles_left(state),
            "last": state["last"],
            "outcome": state["outcome"],
        }


    def describe_position(self, view: dict) -> list[Event]:
        """Whose turn, then per colour its tiles (square, number and where its mouse faces: the
        other animals follow clockwise) and its captures against its target."""
        outcome = view["outcome"]
        if outcome is None:
            events = [_words("turn", seats=list(view["to_act"]))]
        elif outcome.get("draw") or not outcome["winners"]:
            events = [_words("draw")]
        else:
            events = [_words("won", seats=list(outcome["winners"]))]
        if view["reversed"]:
            events.append(_words("reversed"))
        for seat in range(view["players"]):
            tiles = [_words("tile", square=t["square"], number=t["number"],
                            mouse_term=next(side for side, animal in t["faces"].items() if animal == "mouse"))
                     for t in view["tiles"] if t["seat"] == seat]
            events.append(_words("tiles", seat=seat, tiles=tiles or "-"))
            events.append(_words("score", seat=seat, score=view["scores"][seat], target=view["targets"][seat]))
        return events

def _words(kind: str, **params) -> Event:
    return {"type": kind, **params}


def _has_tiles(board: dict, seat: int) -> bool:
    for tile in board.values():   # a plain loop: any() over a generator costs twice as much here
        if tile[0] == seat:
            return True
    return False


def tiles_left(state: State) -> list[int]:
    counts = [0] * state["players"]
    for seat, _, _ in state["board"].values():
        counts[seat] += 1
    return counts
