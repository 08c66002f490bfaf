"""Arena Duel (RULES.md §2): two figures, secret simultaneous orders, the bot as referee.

Board and coordinates: see :mod:`games.arena.hexes` (19 hexes ``a1``-``e3`` in columns a-e,
numbered from the bottom; facings 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW). Seat 0 ("A") starts on the
bottom door ``c1`` facing north, seat 1 ("B") on the top door ``c5`` facing south.

Notation
========

An **order** is ``MOVE/TURN``:

=========  ==============================================  ================================
part       values                                          meaning
=========  ==============================================  ================================
MOVE       ``F`` ``FR`` ``FL`` ``BR`` ``BL`` ``B`` ``S``   one hex forward, forward-right,
                                                           forward-left, back-right,
                                                           back-left, back; ``S`` stay
MOVE       ``CF`` ``CFR`` ``CFL``                          charge: two hexes straight ahead,
                                                           ahead-right, ahead-left (only with
                                                           a charge right)
TURN       ``0`` ``R`` ``L``                               after moving: keep facing, turn
                                                           right 60°, turn left 60°
=========  ==============================================  ================================

Examples: ``FR/L`` (step forward-right, then face left of the old facing), ``S/R``, ``CF/0``.
Typing is forgiving: ``fr l``, ``FR`` (= ``FR/0``) are normalised by :meth:`Arena.canonical`.

A **dice report** (only with the option ``dice=reported``) is the three dice in rolled order,
``D-D-D`` with each D in 1-6, e.g. ``3-5-1`` (``351`` and ``3 5 1`` are accepted too). In that mode
each seat first reports its dice, then gives its order. With ``dice=bot`` (the default) the bot
rolls and shows each seat its own dice before orders are due.

Turn structure (a simultaneous step)
====================================

``to_act`` is the set of seats that still owe something this turn (dice report and/or order).
A seat whose order is in leaves ``to_act`` but may still **change** its order (any legal order
again, e.g. through ``/play``) until the other order is in; ``legal_actions`` keeps offering it
the orders, and :meth:`Arena.apply` accepts them. Reported dice cannot be changed. As soon as
both orders are in, the turn is resolved at once and the next turn starts, so an order can never
arrive "late" for a resolved turn (stale buttons are refused by the host's version check).

Events when an order/dice report arrives are public-safe (``order_in``, ``order_changed``,
``dice_in``: only the seat). The resolution's events reveal both orders and dice and every step.

Dice from the seed (fair play)
==============================

In ``dice=bot`` mode every die of the game is a pure function of the game seed:
:func:`dice_for_turn` ``(seed, turn, seat)`` gives seat ``seat`` (0-based) its three dice for
turn ``turn`` (1-based). The state keeps the seed as ``state["rng"]`` (it is never advanced), so
revealing the seed after the game lets anyone recompute every die::

    python -m games.arena SEED [TURNS]      # every turn's dice of both seats (games/arena/__main__.py)

Recipe (splitmix64 of games.rng): ``key = (seed XOR ((2*turn + seat) * 0xD1B54A32D192ED03))
mod 2**64``; ``x = next_u64(key)[1]``; then three ``Rng(x).die()`` draws (unbiased, see rng.py).

Readings where RULES.md §2 is silent (each has a scenario test in tests/test_arena.py)
=====================================================================================

- Turn 1: nobody may charge (no dice have been compared yet).
- A collision tie where a charge's middle hex is the other figure's start (where that one
  stays): the charger stays on its own start instead.
- A blocked push (the standing figure against the wall): the mover stops on the hex before (a
  charge: its middle hex); both may still turn; only a collision forbids turning.
- A charge passes over the other figure on its middle hex whether that figure stood there or
  moved there; only a crossed side (or the same end hex) makes a fight or a collision.
- "Charged this turn" (double damage) means the order was a charge, even if it was stopped short.
- The back-movement restriction follows any combat of the turn, crossing fights included: it
  applies when the enemy ends the turn on the hex directly behind the figure.
- Damage that kills ends the turn where it happens: movements under way finish (a crossing is
  fought in passing) but nothing later happens (facing changes, a front win's advance, charge
  rights, the end-of-turn loss). Life shows no less than 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..base import Event, Form, FormField, Game, Option, Outcome, State, copy_state, unchanged
from ..errors import GameOver, IllegalAction, NotationError, NotYourTurn
from ..rng import MASK64, Rng, next_u64
from .hexes import FACING_ARROWS, FACING_NAMES, direction_between, distance, step

MOVES: dict[str, int] = {"F": 0, "FR": 1, "FL": -1, "BR": 2, "BL": -2, "B": 3, "S": 0}
CHARGES: dict[str, int] = {"CF": 0, "CFR": 1, "CFL": -1}
MOVE_ORDER = ("F", "FR", "FL", "BR", "BL", "B", "S", "CF", "CFR", "CFL")
BACK_MOVES = ("BR", "BL", "B")
TURNS: dict[str, int] = {"0": 0, "R": 1, "L": -1}
TURN_ORDER = ("0", "R", "L")
DOORS = ("c1", "c5")
START_FACING = (0, 3)
DICE_MIX = 0xD1B54A32D192ED03
RECENT_TURNS = 3   # turns kept in state["recent"]
START_KEYS = ("pos", "facing", "life", "can_charge", "back_blocked")   # where a turn starts

ALL_DICE: tuple[str, ...] = tuple(f"{a}-{b}-{c}" for a in range(1, 7) for b in range(1, 7) for c in range(1, 7))

_ORDER = re.compile(r"^(F|FR|FL|BR|BL|B|S|CF|CFR|CFL)/([0RL])$")
_ORDERISH = re.compile(r"^([A-Z0-9]+)/([A-Z0-9]+)$")
_DICEISH = re.compile(r"^[0-9][0-9\s,\-/.]*$")


def dice_for_turn(seed: int, turn: int, seat: int) -> list[int]:
    """The three dice (in rolled order) the bot rolls for ``seat`` on ``turn`` of the game ``seed``.

    >>> dice_for_turn(12345, 1, 0) == dice_for_turn(12345, 1, 0)
    True
    >>> all(1 <= d <= 6 for d in dice_for_turn(12345, 7, 1))
    True
    """
    key = ((seed & MASK64) ^ (((2 * turn + seat) * DICE_MIX) & MASK64)) & MASK64
    rng = Rng(next_u64(key)[1])
    return [rng.die() for _ in range(3)]


@dataclass(frozen=True)
class Order:
    move: str
    turn: str

    @property
    def charge(self) -> bool:
        return self.move in CHARGES

    def text(self) -> str:
        return f"{self.move}/{self.turn}"


# every order parsed once: the AI parses each sampled order twice a resolved turn (same objects)
_ORDERS: dict[str, Order] = {f"{m}/{t}": Order(m, t) for m in MOVE_ORDER for t in TURN_ORDER}


@dataclass(frozen=True)
class DiceReport:
    dice: tuple[int, int, int]

    def text(self) -> str:
        return "-".join(map(str, self.dice))


def dice_text(dice) -> str:
    """``[6, 6, 1]`` -> ``"6-6-1"``; an empty list (no dice usable) -> ``"-"``."""
    return "-".join(map(str, dice)) if dice else "-"


def fight_dice(dice: list[int], relative: int) -> list[int]:
    """The dice a figure may use against an enemy at ``relative`` (0 front, 1 front-right,
    2 back-right, 3 back, 4 back-left, 5 front-left), as RULES.md §2 step 3.

    >>> fight_dice([1, 6, 6], 0), fight_dice([1, 6, 6], 5), fight_dice([1, 6, 6], 2), fight_dice([1, 6, 6], 3)
    ([1, 6, 6], [1, 6], [1], [])
    """
    used = {0: 3, 1: 2, 5: 2, 2: 1, 4: 1, 3: 0}[relative % 6]
    return list(dice[:used])


def compare_fight(a: list[int], b: list[int]) -> int:
    """+1 if dice ``a`` win, -1 if ``b`` win, 0 for a draw: sort both descending, the first
    difference decides (higher wins); if one is a strict prefix of the other, the longer wins.

    >>> compare_fight([1, 6, 6], [2, 6]), compare_fight([4, 5, 5], [1, 6]), compare_fight([3, 3, 3], [4])
    (1, -1, -1)
    >>> compare_fight([6, 2, 3], [3, 6, 3]), compare_fight([6, 2, 3], [3, 6]), compare_fight([], [])
    (-1, 1, 0)
    """
    sa, sb = sorted(a, reverse=True), sorted(b, reverse=True)
    for x, y in zip(sa, sb):
        if x != y:
            return 1 if x > y else -1
    return (len(sa) > len(sb)) - (len(sa) < len(sb))


def charge_rights(a: list[int], b: list[int]) -> list[bool]:
    """Who may charge next turn, from both players' dice compared 1st/1st, 2nd/2nd, 3rd/3rd.

    >>> charge_rights([2, 2, 2], [2, 2, 2]), charge_rights([1, 5, 6], [1, 2, 3]), charge_rights([6, 5, 1], [1, 2, 3])
    ([False, False], [True, True], [True, False])
    """
    equal = sum(x == y for x, y in zip(a, b))
    if equal == 3:
        return [False, False]
    if equal:
        return [True, True]
    higher = sum(x > y for x, y in zip(a, b))
    return [higher >= 2, higher <= 1]


def path_of(start: str, facing: int, order: Order) -> tuple[list[str], int] | None:
    """The hexes a movement passes through (start first) and its absolute direction; None if
    it leaves the arena. Stay is ``[start]``."""
    if order.move == "S":
        return [start], facing
    if order.charge:
        direction = (facing + CHARGES[order.move]) % 6
        first = step(start, direction)
        second = step(first, direction) if first else None
        return ([start, first, second], direction) if second else None
    direction = (facing + MOVES[order.move]) % 6
    nxt = step(start, direction)
    return ([start, nxt], direction) if nxt else None


class Arena(Game):
    """The Arena Duel engine. See the module docstring for notation, turn structure and dice."""

    def __init__(self):
        super().__init__(
            name="arena",
            min_players=2,
            max_players=2,
            seat_zero_moves_first=False,  # orders are secret and simultaneous; both doors are alike
            options=(
                Option("dice", "bot", choices=("bot", "reported")),
                Option("life", 15, low=1, high=99),
            ),
            hidden_information=True,
            secrets_end_with_step=True,
            outcome_events=frozenset({"fell"}),
        )

    # ---- setup and turn order ----------------------------------------------------------------
    def setup(self, players: int, options: dict, seed: int) -> State:
        opts = self.resolve_options(options, players)
        state = {
            "players": 2,
            "rng": seed & MASK64,            # the game seed; dice_for_turn(rng, turn, seat)
            "dice_mode": opts["dice"],
            "life_max": opts["life"],
            "turn": 1,
            "pos": list(DOORS),
            "facing": list(START_FACING),
            "life": [opts["life"], opts["life"]],
            "can_charge": [False, False],    # nobody has won a charge right before turn 1
            "back_blocked": [False, False],
            "dice": [None, None],            # this turn's dice, secret to their own seat
            "orders": [None, None],          # pending orders, secret to their own seat
            "last": None,
            "recent": [],                    # the last RECENT_TURNS turns, see _resolve
            "outcome": None,
        }
        self._roll(state)
        return state

    def _roll(self, state: State) -> None:
        if state["dice_mode"] == "bot":
            state["dice"] = [dice_for_turn(state["rng"], state["turn"], s) for s in (0, 1)]
        else:
            state["dice"] = [None, None]

    def to_act(self, state: State) -> set[int]:
        if state["outcome"]:
            return set()
        return {s for s in (0, 1) if state["orders"][s] is None}

    def may_change(self, state: State, seat: int) -> bool:
        """A seat whose order is in may replace it until the other order arrives."""
        return (not state["outcome"] and 0 <= seat < 2 and state["orders"][seat] is not None
                and state["orders"][1 - seat] is None)

    # ---- notation ----------------------------------------------------------------------------
    def canonical(self, action: str) -> str:
        """Normalise typing: case, spaces, ``FR`` -> ``FR/0``, ``3 5 1`` -> ``3-5-1``.

        >>> g = Arena()
        >>> g.canonical(" fr l "), g.canonical("cf"), g.canonical("3 5 1"), g.canonical("351")
        ('FR/L', 'CF/0', '3-5-1', '3-5-1')
        """
        text = action.strip()
        if not text:
            return text
        if _DICEISH.match(text):
            parts = re.findall(r"[0-9]+", text)
            if len(parts) == 1:
                parts = list(parts[0])
            return "-".join(parts)
        tokens = [t for t in re.split(r"[\s/,]+", text.upper()) if t]
        if len(tokens) == 1 and tokens[0] in MOVES.keys() | CHARGES.keys():
            tokens.append("0")
        if len(tokens) == 2 and tokens[1] in ("N", "-"):
            tokens[1] = "0"
        return "/".join(tokens) if tokens else text

    def parse(self, action: str):
        """An :class:`Order` or a :class:`DiceReport`; NotationError with a precise key otherwise."""
        if (order := _ORDERS.get(action)) is not None:
            return order
        if m := _ORDER.match(action):
            return Order(m[1], m[2])
        if re.fullmatch(r"[0-9]+(-[0-9]+)*", action or ""):
            parts = [int(p) for p in action.split("-")]
            if len(parts) != 3:
                raise NotationError("arena.dice_count", count=len(parts), action=action)
            bad = [p for p in parts if not 1 <= p <= 6]
            if bad:
                raise NotationError("arena.die_range", die=bad[0], action=action)
            return DiceReport(tuple(parts))  # type: ignore[arg-type]
        words = set(re.split(r"[^A-Z]+", (action or "").upper()))
        if len(re.findall(r"[0-9]", action or "")) >= 3 and words & (MOVES.keys() | CHARGES.keys()):
            raise NotationError("arena.dice_separately", action=action)  # "FR/L 3-5-1" in one go
        if m := _ORDERISH.match(action or ""):
            if m[1] not in MOVES and m[1] not in CHARGES:
                raise NotationError("arena.unknown_move", move=m[1], action=action)
            raise NotationError("arena.unknown_turn", turn=m[2], action=action)
        raise NotationError("bad_notation", action=action, help=self.notation_help_key())

    def action_group(self, action: str) -> str:
        """Orders group by movement, dice reports by their first die."""
        parsed = self.parse(action)
        if isinstance(parsed, Order):
            return parsed.move
        return str(parsed.dice[0])

    def action_path(self, action: str) -> tuple[str, ...]:
        """The panel's clicks: an order is movement, then the button of the whole order (one per
        facing change); a dice report is one die at a time, so no menu has more than 10 entries.

        >>> Arena().action_path("FR/L"), Arena().action_path("3-5-1")
        (('FR', 'FR/L'), ('3', '3-5', '3-5-1'))
        """
        parsed = self.parse(action)
        if isinstance(parsed, Order):
            return (parsed.move, action)
        a, b, _ = parsed.dice
        return (str(a), f"{a}-{b}", action)

    def action_targets(self, action: str, view: dict) -> tuple[str, ...]:
        """An order: the hex its movement ends on (the figure's own for a stay), then the facing
        change as a button; dice reports: buttons, one die at a time.

        >>> view = {"viewer": 0, "figures": [{"seat": 0, "hex": "c1", "facing": 0}]}
        >>> Arena().action_targets("F/R", view), Arena().action_targets("S/0", view)
        (('hex:c2', 'button:F/R'), ('hex:c1', 'button:S/0'))
        """
        parsed = self.parse(action)
        if not isinstance(parsed, Order):
            return super().action_targets(action, view)
        figure = view["figures"][view["viewer"]]
        path = path_of(figure["hex"], figure["facing"], parsed)
        if path is None:   # not a legal order here: nothing on the board to tap
            return super().action_targets(action, view)
        return (f"hex:{path[0][-1]}", f"button:{action}")

    def action_is_public(self, action: str) -> bool:
        return False  # orders and dice reports stay secret while the game runs

    # ---- legality ------------------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[str]:
        if state["outcome"] or seat not in (0, 1):
            return []
        if seat not in self.to_act(state) and not self.may_change(state, seat):
            return []
        if state["dice"][seat] is None:
            return list(ALL_DICE)
        return [f"{m}/{t}" for m in self.offered_moves(state, seat) for t in TURN_ORDER]

    def offered_moves(self, state: State, seat: int) -> list[str]:
        """Movement codes this seat may order now (in notation order)."""
        return [m for m in MOVE_ORDER if self._move_refusal(state, seat, m) is None]

    def _move_refusal(self, state: State, seat: int, move: str) -> str | None:
        if move in CHARGES and not state["can_charge"][seat]:
            return "arena.no_charge_right"
        if move in BACK_MOVES and state["back_blocked"][seat]:
            return "arena.back_blocked"
        if path_of(state["pos"][seat], state["facing"][seat], Order(move, "0")) is None:
            return "arena.charge_blocked" if move in CHARGES else "arena.off_arena"
        return None

    def undoable(self, before: State, after: State, events: list[Event]) -> bool:
        """An order (or reported dice) may be taken back until the turn resolves: the resolution
        reveals both orders and deals the next turn's dice."""
        return unchanged(before, after, "turn", "outcome")

    def why_illegal(self, state: State, seat: int, action: str) -> str:
        parsed = self.parse(action)
        if isinstance(parsed, DiceReport):
            if state["dice_mode"] == "bot":
                return "arena.dice_by_bot"
            return "arena.dice_already"
        if state["dice"][seat] is None:
            return "arena.dice_first"
        return self._move_refusal(state, seat, parsed.move) or "illegal_action"

    def _refusal_params(self, state: State, seat: int, action: str) -> dict:
        """What a refusal names: the movement refused (in words)."""
        parsed = self.parse(action)
        return {"move_term": parsed.move} if isinstance(parsed, Order) else {}

    # ---- words for people ----------------------------------------------------------------------
    def choice_words(self, path: tuple[str, ...], view: dict | None = None) -> Event | None:
        """A movement, then the whole order (movement and facing change); dice one at a time."""
        if not path:
            return None
        last = path[-1]
        if last in MOVES or last in CHARGES:
            return _words("move", move_term=last)
        if m := _ORDER.match(last):
            return _words("order", move_term=m[1], turn_term=f"turn_{m[2]}")
        dice = last.split("-")
        if all(d.isdigit() for d in dice) and 1 <= len(dice) <= 3:
            return _words(f"die{len(dice)}", die=int(dice[-1]), dice="-".join(dice))
        return None

    def menu_words(self, prefix: tuple[str, ...], steps: tuple[str, ...] = (),
                   view: dict | None = None) -> Event | None:
        if not prefix:  # reported dice come before the order: a first menu of die faces asks for them
            dice_first = bool(steps) and all(s.isdigit() for s in steps)
            return _words("die1") if dice_first else _words("root")
        if prefix[-1] in MOVES or prefix[-1] in CHARGES:
            return _words("turn", move_term=prefix[-1])
        return _words(f"die{len(prefix) + 1}")

    # ---- the order (or the dice report) as one form -------------------------------------------------
    def form(self, state: State, seat: int) -> Form | None:
        """Reported dice: three dice fields; an order: a movement field and a facing field."""
        if not self.legal_actions(state, seat):
            return None
        if state["dice"][seat] is None:
            faces = tuple((str(d), _words("face", die=d)) for d in range(1, 7))
            return Form(_words("dice_title"), tuple(FormField(f"die{i}", _words(f"die{i}"), faces) for i in (1, 2, 3)))
        moves = tuple((m, _words("move", move_term=m)) for m in self.offered_moves(state, seat))
        turns = tuple((t, _words("turn", turn_term=f"turn_{t}")) for t in TURN_ORDER)
        return Form(_words("order_title"), (FormField("move", _words("move_label"), moves),
                                            FormField("turn", _words("turn_label"), turns)))

    def form_action(self, state: State, seat: int, values: tuple[str, ...]) -> str | None:
        """``("FR", "L")`` -> ``FR/L``; ``("3", "5", "1")`` -> ``3-5-1``. Any value outside the
        notation is None; a movement not offered now is left to :meth:`apply` to refuse."""
        if len(values) == 3 and all(v in "123456" and len(v) == 1 for v in values):
            return "-".join(values)
        if len(values) == 2 and values[0] in MOVE_ORDER and values[1] in TURN_ORDER:
            return f"{values[0]}/{values[1]}"
        return None

    def identifiers(self) -> frozenset[str]:
        """Movement codes of two or more letters and whole orders (``FR/L``): notation only."""
        codes = {m for m in MOVE_ORDER if len(m) > 1}
        return frozenset(codes | {f"{m}/{t}" for m in MOVE_ORDER for t in TURN_ORDER})

    def apply(self, state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        """As :meth:`Game.apply`, but a seat whose order is in may also replace it (see the
        module docstring) while the other order is still missing."""
        if self.outcome(state) is not None:
            raise GameOver("game_over")
        if seat not in self.to_act(state) and not self.may_change(state, seat):
            raise NotYourTurn("not_your_turn")
        self.parse(action)
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(self.why_illegal(state, seat, action), **self._refusal_params(state, seat, action))
        new = copy_state(state)
        events = self._apply(new, seat, action)
        return new, events

    # ---- the rules -----------------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: str) -> list[Event]:
        parsed = self.parse(action)
        if isinstance(parsed, DiceReport):
            state["dice"][seat] = list(parsed.dice)
            return [{"type": "dice_in", "seat": seat}]
        changed = state["orders"][seat] is not None
        state["orders"][seat] = parsed.text()
        events: list[Event] = [{"type": "order_changed" if changed else "order_in", "seat": seat}]
        if None not in state["orders"]:
            events += self._resolve(state)
        return events

    def _resolve(self, state: State) -> list[Event]:
        """Both orders are in: RULES.md §2 steps 1-5, then the next turn begins."""
        orders = [self.parse(o) for o in state["orders"]]
        dice = [list(d) for d in state["dice"]]
        start = list(state["pos"])
        facing = list(state["facing"])
        life = list(state["life"])
        lost = [0, 0]
        events: list[Event] = [{"type": "revealed", "seat": s, "order": orders[s].text(), "dice": dice_text(dice[s]),
                                "start": start[s], "facing": FACING_ARROWS[facing[s]],
                                "move_term": orders[s].move, "turn_term": f"turn_{orders[s].turn}"} for s in (0, 1)]
        plans = [path_of(start[s], facing[s], orders[s]) for s in (0, 1)]
        paths = [p[0] for p in plans]            # type: ignore[index]
        dirs = [p[1] for p in plans]             # type: ignore[index]
        final = [p[-1] for p in paths]
        travelled = [list(p) for p in paths]      # what each figure really walked of its own order
        may_turn = [True, True]
        shoves: list[dict] = []                   # involuntary moves: pushes, advances
        clashes: list[dict] = []                  # where figures met: the side of ``hex`` toward ``dir``
        combat = False
        fallen: int | None = None                 # the figure that died during the turn

        def hurt(s: int, amount: int) -> None:
            nonlocal fallen
            life[s] -= amount
            lost[s] += amount
            if life[s] <= 0 and fallen is None:  # 「0」になった時点で死亡
                fallen = s

        # 1. crossing: both cross one hex side in opposite directions
        sides = [{(p[i], p[i + 1]) for i in range(len(p) - 1)} for p in paths]
        crossed = [(a, b) for a, b in sides[0] if (b, a) in sides[1]]
        if crossed:
            combat = True
            clashes.append({"kind": "crossing", "hex": crossed[0][0], "dir": direction_between(*crossed[0])})
            a, b = dice[0][1], dice[1][1]
            if a == b:
                events.append({"type": "crossing_tie", "attacker": 0, "defender": 1, "die": a,
                               "side": f"{crossed[0][0]}|{crossed[0][1]}"})
            else:
                w, lo = (0, 1) if a > b else (1, 0)
                hurt(lo, 2)
                events.append({"type": "crossing", "winner": w, "loser": lo, "winner_die": dice[w][1],
                               "loser_die": dice[lo][1], "damage": 2, "side": f"{crossed[0][0]}|{crossed[0][1]}"})
        # 2. collision, push of a stationary figure, a charge passing over
        elif final[0] == final[1]:
            hex_ = final[0]
            stayer = next((s for s in (0, 1) if orders[s].move == "S"), None)
            if stayer is not None:
                mover = 1 - stayer
                target = step(hex_, dirs[mover])
                if target is not None:
                    final[stayer] = target
                    shoves.append({"seat": stayer, "start": hex_, "end": target})
                    events.append({"type": "push", "seat": mover, "pushed_seat": stayer, "start": hex_, "end": target})
                else:
                    final[mover] = paths[mover][-2]
                    travelled[mover] = paths[mover][:-1]
                    clashes.append({"kind": "wall", "hex": hex_, "dir": dirs[mover]})
                    hurt(stayer, 1)
                    events.append({"type": "push_blocked", "seat": mover, "pushed_seat": stayer, "hex": hex_,
                                   "stop": final[mover], "damage": 1})
            else:
                before = paths[0][-2]
                clashes.append({"kind": "collision", "hex": before, "dir": direction_between(before, hex_)})
                a, b = dice[0][2], dice[1][2]
                # the loser goes back to its start (「移動前のタイル」); on a tie both stop on the
                # hex before the collision (「衝突する手前」), a charge on its middle hex
                for lo in ([0, 1] if a == b else [1 if a > b else 0]):
                    stop = len(paths[lo]) - 2 if a == b else 0
                    final[lo] = paths[lo][stop]
                    travelled[lo] = paths[lo][:stop + 1]
                    may_turn[lo] = False
                if final[0] == final[1]:  # a tie where a charge's middle hex is the other's start
                    back = 0 if len(paths[0]) == 3 else 1
                    final[back] = paths[back][0]
                    travelled[back] = paths[back][:1]
                if a == b:
                    events.append({"type": "collision_tie", "attacker": 0, "defender": 1, "hex": hex_, "die": a,
                                   "attacker_stop": final[0], "defender_stop": final[1]})
                else:
                    w, lo = (0, 1) if a > b else (1, 0)
                    events.append({"type": "collision", "winner": w, "loser": lo, "hex": hex_, "winner_die": dice[w][2],
                                   "loser_die": dice[lo][2], "stop": final[lo]})
        for s in (0, 1):  # a charge that jumped over the other, standing figure
            o = 1 - s
            if orders[s].charge and orders[o].move == "S" and paths[s][1] == start[o] and final[s] == paths[s][2]:
                events.append({"type": "charge_over", "seat": s, "defender": o, "hex": start[o]})

        # facing changes after the movement (not for a collision's loser, nor both on a tie)
        for s in (0, 1):
            if may_turn[s] and fallen is None:
                facing[s] = (facing[s] + TURNS[orders[s].turn]) % 6
            events.append({"type": "moved" if final[s] != start[s] else "stayed", "seat": s, "start": start[s],
                           "end": final[s], "facing": FACING_ARROWS[facing[s]]})

        # 3. adjacent fight (not after a crossing fight)
        if fallen is None and not crossed and distance(final[0], final[1]) == 1:
            combat = True
            rel = [(direction_between(final[s], final[1 - s]) - facing[s]) % 6 for s in (0, 1)]
            used = [fight_dice(dice[s], rel[s]) for s in (0, 1)]
            for s in (0, 1):
                events.append({"type": FIGHT_EVENTS[rel[s]], "seat": s, "dice": dice_text(used[s])})
            result = compare_fight(used[0], used[1])
            if result == 0:
                events.append({"type": "fight_draw", "attacker": 0, "defender": 1})
            else:
                w, lo = (0, 1) if result > 0 else (1, 0)
                damage = 2 if orders[w].charge else 1
                hurt(lo, damage)
                events.append({"type": "fight_won_charge" if orders[w].charge else "fight_won", "winner": w,
                               "loser": lo, "damage": damage})
                if rel[w] == 0 and fallen is None:  # a front win advances and pushes the loser on
                    target = step(final[lo], facing[w])
                    if target is not None:
                        shoves.append({"seat": w, "start": final[w], "end": final[lo]})
                        shoves.append({"seat": lo, "start": final[lo], "end": target})
                        events.append({"type": "front_push", "winner": w, "loser": lo, "start": final[lo],
                                       "end": target})
                        final[w], final[lo] = final[lo], target
                    else:
                        hurt(lo, 1)
                        clashes.append({"kind": "wall", "hex": final[lo], "dir": facing[w]})
                        events.append({"type": "cornered", "winner": w, "loser": lo, "hex": final[lo], "damage": 1})

        # the back-movement restriction for next turn
        blocked = [False, False]
        if combat and fallen is None:
            for s in (0, 1):
                if direction_between(final[s], final[1 - s]) == (facing[s] + 3) % 6:
                    blocked[s] = True
                    events.append({"type": "back_blocked", "seat": s})

        # 4. charge rights for next turn (none once a figure has fallen: there is no next turn)
        rights = [False, False]
        if fallen is None:
            rights = charge_rights(dice[0], dice[1])
            if rights == [True, True]:
                events.append({"type": "charge_both"})
            elif rights == [False, False]:
                events.append({"type": "charge_none"})
            else:
                events.append({"type": "charge_one", "seat": rights.index(True)})

        # 5. life loss (both together, unless a figure already fell), then death
        for s in (0, 1):
            if fallen is None:
                life[s] -= 1
                lost[s] += 1
            life[s] = max(0, life[s])
            if lost[s]:  # on the turn a figure falls, nobody loses the turn's life point
                events.append({"type": "life", "seat": s, "lost": lost[s], "life": life[s]})
        dead = [life[s] <= 0 for s in (0, 1)]
        if fallen is not None:
            state["outcome"] = Outcome((1 - fallen,), "death").to_json()
            events.append({"type": "fell", "seat": fallen, "winner": 1 - fallen})
        elif all(dead):
            state["outcome"] = Outcome((), "double_death", draw=True).to_json()
            events.append({"type": "both_died"})
        elif any(dead):
            loser = dead.index(True)
            state["outcome"] = Outcome((1 - loser,), "death").to_json()
            events.append({"type": "died", "seat": loser})

        state["last"] = {
            "turn": state["turn"], "orders": [o.text() for o in orders], "dice": dice,
            "start": start, "paths": travelled, "planned": paths, "shoves": shoves, "clashes": clashes,
            "events": events,
        }
        # where the last few turns started, and what was ordered and rolled (all public once
        # revealed): enough to replay each turn's choice, which hard reads its enemy's kind from
        turn_record = {"turn": state["turn"], "orders": [o.text() for o in orders], "dice": dice,
                       **{key: list(state[key]) for key in START_KEYS}}
        state["recent"] = (state.get("recent") or [])[1 - RECENT_TURNS:] + [turn_record]
        state.update(pos=final, facing=facing, life=life, can_charge=rights, back_blocked=blocked,
                     orders=[None, None])
        if state["outcome"]:
            state["dice"] = [None, None]
        else:
            state["turn"] += 1
            self._roll(state)
        return events

    # ---- what players see ------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        own = seat if seat in (0, 1) else None
        return {
            "game": self.name,
            "viewer": seat,
            "players": 2,
            "turn": state["turn"],
            "dice_mode": state["dice_mode"],
            "life_max": state["life_max"],
            "to_act": sorted(self.to_act(state)),
            "figures": [
                {"seat": s, "hex": state["pos"][s], "facing": state["facing"][s], "life": state["life"][s],
                 "can_charge": state["can_charge"][s], "back_blocked": state["back_blocked"][s],
                 "order_in": state["orders"][s] is not None,
                 "dice_in": state["dice_mode"] == "reported" and state["dice"][s] is not None}
                for s in (0, 1)
            ],
            "my_dice": list(state["dice"][own]) if own is not None and state["dice"][own] else None,
            "my_order": state["orders"][own] if own is not None else None,
            "last": state["last"],
            "outcome": state["outcome"],
        }

    def describe_position(self, view: dict) -> list[Event]:
        """The turn and who still owes an order, then each figure's hex, facing and life (and a
        charge it may make): what the board shows, never an order or dice not yet revealed."""
        outcome = view["outcome"]
        if outcome is None:
            waiting = [s for s in view["to_act"] if not view["figures"][s]["order_in"]]
            events = [_note("turn", turn=view["turn"], seats=waiting or "-")]
        elif outcome.get("draw") or not outcome["winners"]:
            events = [_note("draw")]
        else:
            events = [_note("won", seats=list(outcome["winners"]))]
        for f in view["figures"]:
            events.append(_note(("figure", "figure_charge")[f["can_charge"]], seat=f["seat"], hex=f["hex"],
                                facing=_note(f"facing_{FACING_NAMES[f['facing']]}"), life=f["life"],
                                life_max=view["life_max"]))
        return events

    def scramble_hidden(self, state: State, seat: int | None, rng) -> State:
        """Re-deal the seed (future dice) and the other seat's pending order and current dice."""
        new = super().scramble_hidden(state, seat, rng)
        for other in (0, 1):
            if other == seat:
                continue
            if new["orders"][other] is not None:
                new["orders"][other] = f"{rng.choice(MOVE_ORDER)}/{rng.choice(TURN_ORDER)}"
            if new["dice"][other] is not None:
                new["dice"][other] = [rng.die() for _ in range(3)]
        return new

    def panel_notes(self, view: dict) -> list[Event]:
        """The seat's own situation, dice and pending order, for its private panel."""
        seat = view.get("viewer")
        if seat not in (0, 1) or view.get("outcome"):
            return []
        me = view["figures"][seat]
        notes: list[Event] = [_note("status", turn=view["turn"], hex=me["hex"],
                                    facing=FACING_ARROWS[me["facing"]], life=me["life"])]
        if view["my_dice"]:
            d1, d2, d3 = view["my_dice"]
            notes.append(_note("dice", d1=d1, d2=d2, d3=d3))
        else:
            notes.append(_note("report_dice"))
        if me["can_charge"]:
            notes.append(_note("charge_ok"))
        if me["back_blocked"]:
            notes.append(_note("back_blocked"))
        if view["my_order"]:
            notes.append(_note("pending", order=view["my_order"]))
        elif view["my_dice"]:
            notes.append(_note("legend"))
        return notes


# The fight line per relative position of the enemy: all 3 dice, dice 1-2, die 1, none.
FIGHT_EVENTS = {0: "fight_front", 1: "fight_front_side", 5: "fight_front_side", 2: "fight_back_side",
                4: "fight_back_side", 3: "fight_back"}


def _words(kind: str, **params) -> Event:
    """Words for a choice or a menu (``choice.arena.<kind>``, ``menu.arena.<kind>``)."""
    return {"type": kind, **params}


def _note(kind: str, **params) -> Event:
    """A private panel note (shown through ``panel.arena.<kind>``), not a game event."""
    return dict(params, type=kind)
