"""SQUARESIV (RULES.md §4): a 5x5 duel of placement, row caps, battles and four abilities.

Notation (one action per turn; squares a1-e5, kinds are ability letter + points, see pieces.py):

==============  =====================================================  ===========
form            meaning                                                example
==============  =====================================================  ===========
``K@sq``        place a hand piece of kind K on a home square          ``T2@b2``
``sq-sq``       move the own piece on the first square one step        ``b2-b3``
``sq<>sq``      transfer: swap two own transfer pieces (sorted)        ``b2<>d3``
``sq^``         tide: push the piece above up one, then follow it      ``c2^``
``pass``        only when no other action is legal                     ``pass``
==============  =====================================================  ===========

Seat 0 plays from row 1 upwards, seat 1 from row 5 downwards. A board square holds at most one
piece after every action (two pieces meeting always battle at once).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..base import Event, Game, Option, Outcome, State
from ..errors import NotationError
from .pieces import LETTER_ABILITIES, load_set, piece_of, set_files

COLUMNS = "abcde"
ROWS = range(1, 6)
CENTRE_ROW = 3
WIN_SQUARES = 3
SQUARES = tuple(f"{c}{r}" for r in ROWS for c in COLUMNS)

_PLACE = re.compile(r"^([TWPMN])(\d)@([a-e][1-5])$")
_MOVE = re.compile(r"^([a-e][1-5])-([a-e][1-5])$")
_SWAP = re.compile(r"^([a-e][1-5])<>([a-e][1-5])$")
_TIDE = re.compile(r"^([a-e][1-5])\^$")


@dataclass(frozen=True)
class Place:
    kind: str
    to: str


@dataclass(frozen=True)
class Move:
    frm: str
    to: str


@dataclass(frozen=True)
class Transfer:
    a: str
    b: str


@dataclass(frozen=True)
class Tide:
    at: str


@dataclass(frozen=True)
class Pass:
    pass


def up(seat: int) -> int:
    """Row step toward the enemy side."""
    return 1 if seat == 0 else -1


def home_rows(seat: int) -> tuple[int, int]:
    return (1, 2) if seat == 0 else (4, 5)


def shift(square: str, d_col: int, d_row: int) -> str | None:
    try:
        return _SHIFTS[square, d_col, d_row]
    except KeyError:
        return _shift(square, d_col, d_row)


def _shift(square: str, d_col: int, d_row: int) -> str | None:
    col = COLUMNS.find(square[0]) + d_col
    row = int(square[1]) + d_row
    if 0 <= col < 5 and 1 <= row <= 5:
        return f"{COLUMNS[col]}{row}"
    return None


def neighbours(square: str) -> list[str]:
    try:
        return list(NEIGHBOURS[square])
    except KeyError:
        return [s for s in (_shift(square, 0, 1), _shift(square, 0, -1), _shift(square, -1, 0), _shift(square, 1, 0)) if s]


# Search asks these hundreds of thousands of times per decision, so they are looked up, not built.
_SHIFTS = {(sq, dc, dr): _shift(sq, dc, dr) for sq in SQUARES for dc in range(-4, 5) for dr in range(-4, 5)}
NEIGHBOURS = {sq: tuple(s for s in (_shift(sq, 0, 1), _shift(sq, 0, -1), _shift(sq, -1, 0), _shift(sq, 1, 0)) if s)
              for sq in SQUARES}


class _Memo(dict):
    """A dict that fills itself from ``fn`` on a miss (kinds, squares and actions are few strings)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def __missing__(self, key):
        value = self[key] = self.fn(key)
        return value


POINTS = _Memo(lambda kind: int(kind[1:]))      # "T5" -> 5
ROW = _Memo(lambda square: int(square[1]))      # "b3" -> 3


# A board is {square: [seat, kind]}; small and cheap to copy, so legality is found by simulation.
Board = dict[str, list]


_NOBODY = (None,)  # board.get default: a square nobody owns


class _Refused(Exception):
    """Internal: the simulated action breaks a rule; carries the error key and what it names."""

    def __init__(self, key: str, **params):
        self.key = key
        self.params = params


def _petrified_squares(board: Board) -> set[tuple[str, int, str]]:
    """(square, seat, kind) of pieces that have an ability and lose it to an enemy petrify piece below."""
    # found from the petrify pieces (the same set as testing is_petrified on every piece, cheaper)
    out = set()
    for sq, (seat, kind) in board.items():
        if LETTER_ABILITIES[kind[0]] == "petrify":
            above = shift(sq, 0, up(seat))    # the square this piece sees as its enemy's "below"
            target = board.get(above) if above is not None else None
            if target is not None and target[0] == 1 - seat and LETTER_ABILITIES[target[1][0]] != "plain":
                out.add((above, target[0], target[1]))
    return out


def is_petrified(board: Board, square: str) -> bool:
    """An enemy petrify piece directly below this square (from that enemy's view) silences it."""
    owner = board[square][0]
    enemy = 1 - owner
    below = shift(square, 0, -up(enemy))
    if below is None or below not in board:
        return False
    seat, kind = board[below]
    return seat == enemy and LETTER_ABILITIES[kind[0]] == "petrify"


def active_ability(board: Board, square: str, kind: str | None = None) -> str:
    kind = kind or board[square][1]
    return "plain" if is_petrified(board, square) else LETTER_ABILITIES[kind[0]]


class SquaresIV(Game):
    """The SQUARESIV engine. See the module docstring for the notation."""

    def __init__(self):
        super().__init__(
            name="squares",
            min_players=2,
            max_players=2,
            options=(
                Option("set", "default", choices=tuple(set_files())),
                Option("set_p1", "", choices=("",) + tuple(set_files())),
                Option("set_p2", "", choices=("",) + tuple(set_files())),
                Option("cap", 8, low=1, high=45),
                Option("turn_limit", 200, low=0, high=2000),
            ),
            outcome_events=frozenset({"won_centre"}),
        )

    # ---- setup and turn order ----------------------------------------------------------------
    def setup(self, players: int, options: dict, seed: int) -> State:
        opts = self.resolve_options(options, players)
        sets = [load_set(opts["set_p1"] or opts["set"]), load_set(opts["set_p2"] or opts["set"])]
        return {
            "players": 2,
            "rng": seed & ((1 << 64) - 1),
            "cap": opts["cap"],
            "turn_limit": opts["turn_limit"],
            "turn": 0,
            "ply": 0,
            "board": {},
            "hands": [sorted(s, key=_kind_order) for s in sets],
            "last": None,
            "outcome": None,
        }

    def to_act(self, state: State) -> set[int]:
        return set() if state["outcome"] else {state["turn"]}

    # ---- notation ----------------------------------------------------------------------------
    def canonical(self, action: str) -> str:
        text = action.strip().replace(" ", "")
        if m := re.fullmatch(r"([a-zA-Z])(\d)@([a-eA-E][1-5])", text):
            return f"{m[1].upper()}{m[2]}@{m[3].lower()}"
        text = text.lower()
        if m := _SWAP.match(text):
            return "<>".join(sorted((m[1], m[2]), key=SQUARES.index))
        return text

    def parse(self, action: str):
        """The action as a frozen record (memoised: search parses the same few texts again and again)."""
        try:
            return _PARSED[action]
        except KeyError:
            parsed = _PARSED[action] = self._parse(action)   # bad notation raises, nothing is kept
            return parsed

    def _parse(self, action: str):
        if action == "pass":
            return Pass()
        if m := _PLACE.match(action):
            return Place(f"{m[1]}{m[2]}", m[3])
        if m := _MOVE.match(action):
            return Move(m[1], m[2])
        if m := _SWAP.match(action):
            return Transfer(m[1], m[2])
        if m := _TIDE.match(action):
            return Tide(m[1])
        raise NotationError("bad_notation", action=action, help=self.notation_help_key())

    def action_group(self, action: str) -> str:
        """Group by the piece chosen first: a hand kind for placements, a square otherwise."""
        parsed = self.parse(action)
        if isinstance(parsed, Place):
            return parsed.kind
        if isinstance(parsed, (Move, Tide)):
            return parsed.frm if isinstance(parsed, Move) else parsed.at
        if isinstance(parsed, Transfer):
            return parsed.a
        return "pass"

    def action_targets(self, action: str, view: dict) -> tuple[str, ...]:
        """A hand piece then its square; a board piece's square then where it goes (a transfer: the
        other transfer piece); a tide: the piece, then its button (the square above may also be a
        move's target).

        >>> g = SquaresIV()
        >>> g.action_targets("T2@b2", {"viewer": 1}), g.action_targets("b2<>d3", {"viewer": 0})
        (('hand:1:T2', 'cell:b2'), ('cell:b2', 'cell:d3'))
        >>> g.action_targets("c2^", {"viewer": 0}), g.action_targets("pass", {"viewer": 0})
        (('cell:c2', 'button:c2^'), ('button:pass',))
        """
        if action == "pass":
            return ("button:pass",)
        act = self.parse(action)
        if isinstance(act, Place):
            return (f"hand:{view['viewer']}:{act.kind}", f"cell:{act.to}")
        if isinstance(act, Move):
            return (f"cell:{act.frm}", f"cell:{act.to}")
        if isinstance(act, Transfer):
            return (f"cell:{act.a}", f"cell:{act.b}")
        return (f"cell:{act.at}", f"button:{action}")

    # ---- words for people ----------------------------------------------------------------------
    def choice_words(self, path: tuple[str, ...], view: dict | None = None) -> Event | None:
        """A hand piece by its kind (a term: "Transfer 2"), a board piece by its square, then the
        placement, move, tide or transfer it makes."""
        if not path:
            return None
        last = path[-1]
        if last == "pass":
            return _words("pass")
        if len(path) == 1:
            if re.fullmatch(r"[TWPMN]\d", last):
                return _words("hand", kind_term=last)
            return _words("piece", square=last)
        act = self.parse(last)
        if isinstance(act, Place):
            return _words("place", kind_term=act.kind, square=act.to)
        if isinstance(act, Move):
            return _words("move", square=act.frm, dest=act.to)
        if isinstance(act, Transfer):
            return _words("transfer", square=act.a, other=act.b)
        return _words("tide", square=act.at)

    def menu_words(self, prefix: tuple[str, ...], steps: tuple[str, ...] = (),
                   view: dict | None = None) -> Event | None:
        if not prefix:
            return _words("root")
        if re.fullmatch(r"[TWPMN]\d", prefix[0]):
            return _words("hand", kind_term=prefix[0])
        return _words("piece", square=prefix[0]) if prefix[0] != "pass" else None

    def identifiers(self) -> frozenset[str]:
        """Piece kinds (ability letter + points, e.g. ``T2``) and ability ids."""
        kinds = {f"{letter}{points}" for letter in LETTER_ABILITIES for points in range(1, 10)}
        return frozenset(kinds | {"martial_arts"})

    # ---- legality ------------------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[str]:
        if state["outcome"] or seat != state["turn"]:
            return []
        board, cap = state["board"], state["cap"]
        totals = row_totals(board)
        # Fast path (same answers, much less work): on a board within its caps, a placement or
        # step onto an empty square only changes the mover's totals of the rows it leaves and
        # enters, and fights nobody, so it is legal exactly when those checks pass. Everything else
        # (battles, tides, transfers) is simulated in full.
        within = all(t <= cap for seat_totals in totals for t in seat_totals)
        mine = totals[seat]
        hand = state["hands"][seat]
        actions = []
        for action in self._candidates(state, seat):
            act = self.parse(action)
            if within and isinstance(act, Place) and act.to not in board:
                if act.kind in hand and mine[ROW[act.to] - 1] + POINTS[act.kind] <= cap:
                    actions.append(action)
            elif (within and isinstance(act, Move) and act.to not in board
                  and board.get(act.frm, _NOBODY)[0] == seat and act.to in NEIGHBOURS.get(act.frm, ())):
                row = ROW[act.to]
                if row == ROW[act.frm] or mine[row - 1] + POINTS[board[act.frm][1]] <= cap:
                    actions.append(action)
            elif self._refusal(state, seat, action) is None:
                actions.append(action)
        return actions or ["pass"]

    def undoable(self, before: State, after: State, events: list[Event]) -> bool:
        """Nothing is hidden and nothing random in SQUARESIV: any move may be taken back."""
        return True

    def why_illegal(self, state: State, seat: int, action: str) -> str:
        return self.refusal(state, seat, action)[0]

    def refusal(self, state: State, seat: int, action: str) -> tuple[str, dict]:
        """The one reason a well-formed action is refused: its error key and params."""
        if action == "pass":
            return "squaresiv.pass_not_allowed", {}
        try:
            self._simulate(state, seat, self.parse(action))
        except _Refused as r:
            return r.key, r.params
        return "illegal_action", {}


    def _candidates(self, state: State, seat: int) -> list[str]:
        board = state["board"]
        own = [sq for sq in SQUARES if sq in board and board[sq][0] == seat]
        out = []
        for kind in dict.fromkeys(state["hands"][seat]):
            out += [f"{kind}@{sq}" for sq in SQUARES if int(sq[1]) in home_rows(seat)]
        for sq in own:
            out += [f"{sq}-{n}" for n in neighbours(sq)]
            out.append(f"{sq}^")
        out += [f"{a}<>{b}" for i, a in enumerate(own) for b in own[i + 1:]]
        return out

    def _refusal(self, state: State, seat: int, action: str) -> str | None:
        """None if legal, else the error key, found by simulating on a copy."""
        try:
            self._simulate(state, seat, self.parse(action))
        except _Refused as r:
            return r.key
        return None

    # ---- the rules -----------------------------------------------------------------------------
    def _simulate(self, state: State, seat: int, act) -> tuple[Board, list[list[str]], list[Event]]:
        # Every refusal but the cap only reads the board, so it is checked before anything is
        # copied: legal_actions simulates every candidate, and most candidates fail these checks.
        board: Board = state["board"]
        hands = state["hands"]
        if isinstance(act, Pass):
            raise _Refused("squaresiv.pass_not_allowed")
        if isinstance(act, Place):
            if act.kind not in hands[seat]:
                raise _Refused("squaresiv.not_in_hand", kind_term=act.kind)
            if int(act.to[1]) not in home_rows(seat):
                raise _Refused("squaresiv.not_home", square=act.to, rows="-".join(map(str, home_rows(seat))))
            if board.get(act.to, _NOBODY)[0] == seat:
                raise _Refused("squaresiv.own_piece_there", square=act.to)
        elif isinstance(act, Move):
            self._require_own(board, seat, act.frm)
            if act.to not in NEIGHBOURS.get(act.frm, ()):
                raise _Refused("squaresiv.not_adjacent", square=act.frm, dest=act.to)
            if board.get(act.to, _NOBODY)[0] == seat:
                raise _Refused("squaresiv.own_piece_there", square=act.to)
        elif isinstance(act, Transfer):
            for sq in (act.a, act.b):
                self._require_own(board, seat, sq)
                if active_ability(board, sq) != "transfer":
                    raise _Refused("squaresiv.no_transfer")
        elif isinstance(act, Tide):
            self._tide_squares(board, seat, act.at)
        board = {sq: list(v) for sq, v in board.items()}
        hands = [list(h) for h in hands]
        events: list[Event] = []
        if isinstance(act, Place):
            hands[seat].remove(act.kind)
            events.append({"type": "placed", "seat": seat, "kind_term": act.kind, "square": act.to})
            self._arrive(board, hands, seat, act.kind, act.to, events)
        elif isinstance(act, Move):
            _, kind = board.pop(act.frm)
            events.append({"type": "moved", "seat": seat, "kind_term": kind, "from": act.frm, "dest": act.to})
            self._arrive(board, hands, seat, kind, act.to, events)
        elif isinstance(act, Transfer):
            board[act.a], board[act.b] = board[act.b], board[act.a]
            events.append({"type": "transferred", "seat": seat, "a": act.a, "b": act.b})
        elif isinstance(act, Tide):
            self._tide(board, hands, seat, act.at, events)
        self._check_caps(board, state["cap"])
        return board, hands, events

    def _require_own(self, board: Board, seat: int, square: str) -> None:
        if board.get(square, _NOBODY)[0] != seat:
            raise _Refused("squaresiv.no_own_piece", square=square)

    def _tide_squares(self, board: Board, seat: int, at: str) -> tuple[str, str]:
        """(the square above, where its piece is pushed) for a legal tide; refusals otherwise."""
        self._require_own(board, seat, at)
        if active_ability(board, at) != "tide":
            raise _Refused("squaresiv.no_tide")
        above = shift(at, 0, up(seat))
        if above is None or above not in board:
            raise _Refused("squaresiv.tide_nothing_above")
        target = shift(above, 0, up(seat))
        if target is None:
            raise _Refused("squaresiv.off_board")
        if board.get(target, _NOBODY)[0] == board[above][0]:
            raise _Refused("squaresiv.tide_blocked")
        return above, target

    def _tide(self, board: Board, hands, seat: int, at: str, events: list[Event]) -> None:
        above, target = self._tide_squares(board, seat, at)
        pushed_seat, pushed_kind = board[above]
        del board[above]
        events.append({"type": "tide", "seat": seat, "at": at, "pushed_term": pushed_kind,
                       "pushed_seat": pushed_seat, "from": above, "dest": target})
        self._arrive(board, hands, pushed_seat, pushed_kind, target, events)
        board[above] = board.pop(at)

    def _arrive(self, board: Board, hands, seat: int, kind: str, square: str, events: list[Event]) -> None:
        """Put a piece on a square; if an enemy stands there, they battle at once."""
        if square not in board:
            board[square] = [seat, kind]
            return
        enemy, enemy_kind = board[square]
        board[square] = [seat, kind]
        mine = _battle_strength(board, square, kind, enemy_kind)
        board[square] = [enemy, enemy_kind]
        theirs = _battle_strength(board, square, enemy_kind, kind)
        martial = (mine >= _MARTIAL_WIN) != (theirs >= _MARTIAL_WIN)
        if mine == theirs:
            del board[square]
            hands[seat].append(kind)
            hands[enemy].append(enemy_kind)
            events.append({"type": "battle_tie", "square": square, "attacker": seat, "attacker_term": kind,
                           "defender": enemy, "defender_term": enemy_kind})
            return
        won = mine > theirs
        winner, winner_kind, loser, loser_kind = (seat, kind, enemy, enemy_kind) if won else (
            enemy, enemy_kind, seat, kind)
        board[square] = [winner, winner_kind]
        hands[loser].append(loser_kind)
        events.append({"type": "battle_martial" if martial else "battle", "square": square, "winner": winner,
                       "winner_term": winner_kind, "loser": loser, "loser_term": loser_kind})

    def _check_caps(self, board: Board, cap: int) -> None:
        for seat, totals in enumerate(row_totals(board)):
            for row, total in enumerate(totals, start=1):
                if total > cap:
                    raise _Refused("squaresiv.cap", row=row, total=total, cap=cap)

    def _apply(self, state: State, seat: int, action: str) -> list[Event]:
        silenced_before = _petrified_squares(state["board"])
        board, hands, events = self._simulate(state, seat, self.parse(action)) if action != "pass" else (
            state["board"], state["hands"], [{"type": "passed", "seat": seat}])
        silenced = _petrified_squares(board)  # an ability lost or won back shows in words, not only the image
        events += [{"type": "petrified", "seat": who, "square": sq} for sq, who, _ in sorted(silenced - silenced_before)]
        events += [{"type": "unpetrified", "seat": who, "square": sq} for sq, who, kind in sorted(silenced_before - silenced)
                   if tuple(board.get(sq, ())) == (who, kind)]  # the same piece, still there, free again
        for hand in hands:
            hand.sort(key=KIND_ORDER.__getitem__)
        state["board"], state["hands"] = board, hands
        state["ply"] += 1
        state["last"] = {"seat": seat, "action": action, "squares": list(_SQUARES_IN[action])}
        state["turn"] = 1 - seat
        for s in (seat, 1 - seat):
            if centre_count(board, s) >= WIN_SQUARES:
                state["outcome"] = Outcome((s,), "centre").to_json()
                events.append({"type": "won_centre", "seat": s})
                return events
        if state["turn_limit"] and state["ply"] >= state["turn_limit"]:
            state["outcome"] = Outcome((), "turn_limit", draw=True).to_json()
            events.append({"type": "turn_limit", "limit": state["turn_limit"]})
        return events

    # ---- what players see ------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        board = state["board"]
        return {
            "game": self.name,
            "viewer": seat,
            "players": 2,
            "to_act": sorted(self.to_act(state)),
            "ply": state["ply"],
            "cap": state["cap"],
            "board": [
                {"square": sq, "seat": board[sq][0], "kind": board[sq][1], **piece_of(board[sq][1]),
                 "petrified": is_petrified(board, sq)}
                for sq in SQUARES if sq in board
            ],
            "hands": [[{"kind": k, **piece_of(k)} for k in hand] for hand in state["hands"]],
            "row_totals": row_totals(board),
            "centre": [centre_count(board, s) for s in (0, 1)],
            "last": state["last"],
            "outcome": state["outcome"],
        }

    def describe_position(self, view: dict) -> list[Event]:
        """Whose move, each side's pieces on the board (square and kind, petrified marked), the
        pieces still in hand, and each side's row totals against the cap and centre count."""
        events = [_outcome_words(view)]
        for seat in (0, 1):
            pieces = [_words(("piece", "piece_petrified")[p["petrified"]], square=p["square"], kind_term=p["kind"])
                      for p in view["board"] if p["seat"] == seat]
            events.append(_words("board", seat=seat, pieces=pieces or "-", count=len(pieces)))
            hand = [_words("hand_piece", kind_term=p["kind"]) for p in view["hands"][seat]]
            events.append(_words("hand", seat=seat, pieces=hand or "-"))
            totals = "/".join(str(t) for t in view["row_totals"][seat])
            events.append(_words("rows", seat=seat, totals=totals, cap=view["cap"], centre=view["centre"][seat]))
        return events

_MARTIAL_WIN = 100  # strength a martial-arts piece gets against a 5; far above any points


def _battle_strength(board: Board, square: str, kind: str, enemy_kind: str) -> int:
    """Points after abilities; martial arts beats an enemy worth exactly 5."""
    points = POINTS[kind]
    # (the cheap tests first: a piece is petrified only where it has an ability to lose)
    if (LETTER_ABILITIES[kind[0]] == "martial_arts" and POINTS[enemy_kind] == 5
            and active_ability(board, square, kind) == "martial_arts"):
        return _MARTIAL_WIN + points
    return points


def _words(kind: str, **params) -> Event:
    return {"type": kind, **params}


def _outcome_words(view: dict) -> Event:
    """Who is to move, or how the game ended."""
    outcome = view["outcome"]
    if outcome is None:
        return _words("turn", seats=list(view["to_act"]))
    if outcome.get("draw") or not outcome["winners"]:
        return _words("draw")
    return _words("won", seats=list(outcome["winners"]))


def row_totals(board: Board) -> list[list[int]]:
    """Points per row (index 0 = row 1) for each seat."""
    totals = [[0] * 5, [0] * 5]
    for sq, (seat, kind) in board.items():
        totals[seat][ROW[sq] - 1] += POINTS[kind]
    return totals


def centre_count(board: Board, seat: int) -> int:
    return sum(1 for sq, (s, _) in board.items() if s == seat and ROW[sq] == CENTRE_ROW)


def _squares_in(action: str) -> list[str]:
    return re.findall(r"[a-e][1-5]", action)


def _kind_order(kind: str) -> tuple:
    return ("TWPMN".index(kind[0]), int(kind[1:]))


KIND_ORDER = _Memo(_kind_order)
_SQUARES_IN = _Memo(lambda action: tuple(_squares_in(action)))
_PARSED: dict = {}
