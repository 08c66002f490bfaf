"""The engine contract every game implements, and the values it passes around.

A game is a stateless object with pure functions over plain JSON-safe ``state`` dicts. Seats are
numbered 0..n-1. ``apply`` never mutates its input; it returns a new state and a list of events.
Events are dicts ``{"type": str, ...params}``; an event with ``"to": [seat, ...]`` is private to
those seats and stripped by :func:`events_for` (so no public event may use a ``to`` parameter:
name a destination ``dest``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .errors import GameOver, IllegalAction, NotYourTurn

State = dict[str, Any]
Event = dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. ``winners`` empty with ``draw`` True means a draw."""

    winners: tuple[int, ...]
    reason: str
    draw: bool = False

    def to_json(self) -> dict:
        return {"winners": list(self.winners), "reason": self.reason, "draw": self.draw}

    @classmethod
    def from_json(cls, data: dict | None) -> "Outcome | None":
        if data is None:
            return None
        return cls(tuple(data["winners"]), data["reason"], data.get("draw", False))


@dataclass(frozen=True)
class Option:
    """One game option a group chooses at creation. ``choices`` for enums, ``low``/``high`` for ints."""

    name: str
    default: Any
    choices: tuple = ()
    low: int | None = None
    high: int | None = None

    def parse(self, raw: Any) -> Any:
        from .errors import GameError

        if isinstance(self.default, bool):
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise GameError("option_bad_value", option=self.name, value=str(raw))
        if isinstance(self.default, int):
            try:
                value = int(raw)
            except (TypeError, ValueError):
                raise GameError("option_bad_value", option=self.name, value=str(raw)) from None
            if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
                raise GameError("option_out_of_range", option=self.name, value=value, low=self.low, high=self.high)
            return value
        value = str(raw).strip()
        if self.choices and value not in self.choices:
            raise GameError("option_bad_choice", option=self.name, value=value, choices=", ".join(self.choices))
        return value


@dataclass(frozen=True)
class FormField:
    """One question of a form: ``label`` and each choice's words are events ``{"type": t, ...}``
    shown through the catalogue key ``form.<game>.<t>``; values are what :meth:`Game.form_action`
    receives."""

    name: str
    label: Event
    choices: tuple[tuple[str, Event], ...]


@dataclass(frozen=True)
class Form:
    """A secret step small enough to answer in one dialog: at most 5 fields of at most 25 choices."""

    title: Event
    fields: tuple[FormField, ...]


MAX_FORM_FIELDS = 5
MAX_FORM_CHOICES = 25


@dataclass
class Game:
    """Base class for engines. Subclasses override the ``_``-less contract methods below."""

    name: str = ""
    min_players: int = 2
    max_players: int = 2
    options: tuple[Option, ...] = field(default_factory=tuple)
    hidden_information: bool = False
    # Secret actions revealed once their simultaneous step resolves (Arena orders are shown by the
    # resolution); False keeps them hidden until the game ends (face-down cards).
    secrets_end_with_step: bool = False
    # Event types that announce the end of the game themselves (the generic result line is then
    # not repeated under them).
    outcome_events: frozenset = frozenset()
    # Seat 0 moves first (or leads the first turn): a Swiss tournament alternates who sits there.
    # False where seat order gives nobody the lead (Arena Duel: both give secret orders at once).
    seat_zero_moves_first: bool = True

    def player_counts(self) -> tuple[int, ...]:
        """Every number of players the game can be set up for (OSU: 2 or 4, never 3)."""
        return tuple(range(self.min_players, self.max_players + 1))

    # ---- the contract -------------------------------------------------------------------
    def setup(self, players: int, options: dict, seed: int) -> State:
        raise NotImplementedError

    def to_act(self, state: State) -> set[int]:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[str]:
        raise NotImplementedError

    def apply(self, state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        """Check turn and legality, then run :meth:`_apply` on a copy."""
        if self.outcome(state) is not None:
            raise GameOver("game_over")
        if seat not in self.to_act(state):
            raise NotYourTurn("not_your_turn")
        self.parse(action)  # NotationError for malformed text
        if action not in self.legal_actions(state, seat):
            key, params = self.refusal(state, seat, action)
            raise IllegalAction(key, **params)
        new = copy_state(state)
        events = self._apply(new, seat, action)
        return new, events

    def view(self, state: State, seat: int | None) -> dict:
        raise NotImplementedError

    def outcome(self, state: State) -> Outcome | None:
        return Outcome.from_json(state.get("outcome"))

    # ---- helpers every game provides ---------------------------------------------------------
    def canonical(self, action: str) -> str:
        """Normalise what a person typed (case, spaces) to the notation legal_actions uses."""
        return action.strip()

    def parse(self, action: str) -> Any:
        """Parse notation or raise NotationError."""
        raise NotImplementedError

    def refusal(self, state: State, seat: int, action: str) -> tuple[str, dict]:
        """The message key and params for a well-formed but illegal action (the one reason that
        applies: a square, a tile, the step of the round); default: :meth:`why_illegal` alone."""
        return self.why_illegal(state, seat, action), {}

    def why_illegal(self, state: State, seat: int, action: str) -> str:
        """The message key for a well-formed but illegal action (games refine this)."""
        return "illegal_action"

    def _apply(self, state: State, seat: int, action: str) -> list[Event]:
        """Mutate ``state`` (already a private copy) for a legal action; return events."""
        raise NotImplementedError

    def resolve_options(self, raw: dict[str, Any], players: int) -> dict[str, Any]:
        """Fill defaults and validate; unknown names are refused."""
        from .errors import GameError

        known = {o.name: o for o in self.options}
        for name in raw:
            if name not in known:
                raise GameError("option_unknown", option=name, known=", ".join(known) or "-")
        return {name: (o.parse(raw[name]) if name in raw else o.default) for name, o in known.items()}

    def action_group(self, action: str) -> str:
        """Buttons group actions that share a first step (a piece, a square); default: none."""
        return ""

    def action_path(self, action: str) -> tuple[str, ...]:
        """The clicks that lead to an action, e.g. ("tile T3", "C4", "N"): the board offers the
        first steps, each choice offers the next, so no menu needs more than Discord's 25 options.
        Steps never contain "|". Default: the action's group, then the action itself.
        """
        group = self.action_group(action)
        return (group, action) if group else (action,)

    def action_targets(self, action: str, view: dict) -> tuple[str, ...]:
        """What to tap, in order, to make ``action`` on the web table: region keys of the acting
        seat's board or panel picture (``renderers.regions``: ``cell:b2``, ``hand:0:T2``...), and
        ``button:<step>`` for a step with no place in a picture (a step of :meth:`action_path`,
        worded like the menus). ``view`` is the acting seat's own view (``view["viewer"]``), as
        the regions are drawn from it. Default: every step a button, as the Discord menus."""
        return tuple(f"button:{step}" for step in self.action_path(action))

    # ---- words for people (the notation stays in custom ids, /play and the log) ----------------------
    def choice_words(self, path: tuple[str, ...], view: dict | None = None) -> Event | None:
        """How to say, in words, the choice at the end of ``path`` (a step of ``action_path``, or a
        whole action): ``{"type": t, **params}``, shown through the catalogue key
        ``choice.<game>.<t>`` on buttons, menu options and "played" lines. None: the notation is
        shown as it is (fine for coordinates like ``b2-b3``). Params ending in ``_term`` name game
        terms, shown through ``term.<game>.<value>`` (``bot.service.words`` lists the other
        endings). ``view``, when given, is the position as the reader sees it, for choices whose
        notation numbers a thing only the position names (Monster Hunter's monster ``m7``).
        """
        return None

    def choice_facts(self, path: tuple[str, ...], view: dict | None = None) -> list[Event]:
        """The numbers a choice is made by, beside its words where a list has room for them (the
        terminal's ``?``): each ``{"type": t, **params}``, said through ``word.<game>.<t>``.
        Default: none (the words say it all)."""
        return []

    def menu_words(self, prefix: tuple[str, ...], steps: tuple[str, ...] = (),
                   view: dict | None = None) -> Event | None:
        """What a menu of the next ``steps`` below ``prefix`` asks for (``menu.<game>.<t>``), e.g.
        "Choose a square for the spring…"; None: a generic prompt. ``view``: as for
        :meth:`choice_words`."""
        return None

    def phase_words(self, state: State) -> Event | None:
        """The step of the round the game is in (``phase.<game>.<t>``), named in turn pings and in
        refusals, for games whose rounds have several steps; None: nothing to name."""
        return None

    def opening_events(self, state: State) -> list[Event]:
        """Public events of what ``setup`` already did (HOSTILE's round 1 emission, line refill and
        excluded skills), announced in the start post like any action's events."""
        return []

    def identifiers(self) -> frozenset[str]:
        """Engine identifiers (tile kinds, skills, option values...) that must never reach a player
        outside a code span of notation: a test renders every message and label to check."""
        return frozenset()

    def panel_notes(self, view: dict) -> list[Event]:
        """Facts for a seat's private panel (e.g. its own dice), as events ``{"type": ...}``.

        They are shown through the catalogue key ``panel.<game>.<type>``; the view passed in is
        that seat's own view, so nothing here can leak.
        """
        return []

    def describe_position(self, view: dict) -> list[Event]:
        """The position in ``view`` in words, for the board image's alt text (a screen reader can
        follow the game): events ``{"type": t, ...}`` shown through ``alt.<game>.<t>``, one sentence
        each, params ending in ``_term`` through ``term.<game>.<value>``. Only what the view shows;
        a public board is described from the public view. []: a generic description.
        """
        return []

    def action_is_public(self, action: str) -> bool:
        """May the channel see this action's notation while the game runs? (Secret orders: no.)"""
        return not self.hidden_information

    def notation_help_key(self) -> str:
        return f"rules.{self.name}.notation"

    def scramble_hidden(self, state: State, seat: int | None, rng) -> State:
        """A copy of ``state`` with everything hidden from ``seat`` re-dealt at random.

        The contract test checks ``view(state, seat) == view(scramble_hidden(state, seat), seat)``:
        a view that changes when only hidden things change leaks them. The base version re-seeds
        the game's own RNG (which would predict future dice); games with secrets extend it.
        """
        new = copy_state(state)
        if "rng" in new:
            new["rng"] = rng.below(1 << 62)
        return new

    def skip_action(self, state: State, seat: int) -> str | None:
        """The legal action that lets a seat's turn pass when its deadline runs out (a pass), if the
        game has one; None means the game cannot skip a seat and the stand-in plays instead."""
        return "pass" if "pass" in self.legal_actions(state, seat) else None

    def seat_order(self, players: int, options: dict) -> list[int] | None:
        """Lobby positions in seat order when the lobby decides seating (e.g. chosen teams), or
        None to let the host deal seats at random."""
        return None

    def rematch_order(self, players: int, outcome: "Outcome | None") -> list[int]:
        """Old seat numbers in their new seating order for a rematch: winners move last."""
        winners = set(outcome.winners) if outcome else set()
        return [s for s in range(players) if s not in winners] + [s for s in range(players) if s in winners]

    def standings(self, state: State) -> list[tuple[tuple[int, ...], int]]:
        """How a finished game ranks its sides, for ratings: ``[(seats of a team, place), ...]``,
        place 0 first, equal places tied. Default: every seat alone; winners first, everyone else
        level behind them; a draw ties all."""
        outcome = self.outcome(state)
        if outcome is None:
            return []
        winners = set(outcome.winners)
        return [((s,), 0 if outcome.draw or not winners or s in winners else 1) for s in range(state["players"])]

    def undoable(self, before: State, after: State, events: list[Event]) -> bool:
        """May the action that turned ``before`` into ``after`` be taken back by consent?

        Only if nobody learned anything hidden and no randomness was drawn in between (a card,
        a die, a shuffle, a reveal): taking it back would otherwise let a player try again with
        knowledge they should not have. Default: no (a game opts in by saying when it is safe)."""
        return False
    # ---- decks: games where a player brings a deck (defaults: this game has none) ----------------------
    def ready_decks(self) -> dict[str, str]:
        """Decks every player may use without saving them: ``{name: deck code}``. Names are plain
        words (no spaces); a non-empty result is what makes the bot offer ``/deck`` for the game."""
        return {}

    def deck_problems(self, code: str) -> list[Event]:
        """Everything wrong with a deck code, each ``{"type": t, **params}`` shown through the
        catalogue key ``deck.<game>.<t>``; empty when the deck may be played."""
        return [{"type": "none"}]

    def deck_cards(self, code: str) -> list[tuple[str, int]]:
        """A legal deck's distinct cards and their counts, in the deck code's order (for the image
        ``/deck show`` draws with ``renderers.render_deck``)."""
        return []

    def with_deck(self, action: str, deck: str) -> str | None:
        """Where a deck is named in the notation: ``action`` (a legal action without one) with
        ``deck`` (a code, or a saved deck's name the bot expands) in place, or None when that
        action takes no deck; ``action`` itself when that deck is what the plain action plays
        anyway. Monster Hunter: ``take H01 2A`` -> ``take H01 2A <deck>`` (``ready-h01``: the plain
        ``take H01 2A``)."""
        return None

    # ---- standing policies: answers a player sets once (default: the game has none) ----------------
    def policies(self) -> dict[str, tuple[str, ...]]:
        """Standing policies a player may save as defaults (``/game settings``): ``{key: values}``,
        each worded through ``policy.<game>.<key>.<value>``. Their values are private."""
        return {}

    def policy_action(self, key: str, value: str) -> str | None:
        """The action that sets a policy in a running game (an ordinary, logged, private action)."""
        return None

    # ---- seats and panels over days ---------------------------------------------------------------
    def retired(self, state: State) -> set[int]:
        """Seats out of the game while it goes on (no pings, no lists of whom it waits for)."""
        return set()

    def private_digest(self, view: dict) -> Any:
        """What a seat's private panel shows that matters to it (its hand, what it is asked). When a
        game returns something, the bot sends a seat a new panel only when this (or its legal
        actions) changed, and the buttons of the panel it has stay valid until then. None: a panel
        for every newly asked seat, valid for one position (the default)."""
        return None

    def public_digest(self, view: dict) -> Any:
        """What the public board shows that matters (not who is still to hand in a secret answer).
        When a game returns something, the channel gets a new board only when this changed or a
        new wait begins; otherwise the pinned status alone follows. None: a board per action."""
        return None

    # ---- forms: a secret step answered in one dialog (default: the game offers none) -------------------
    def form(self, state: State, seat: int) -> Form | None:
        """The seat's current step as a form (e.g. an Arena order: movement and facing change),
        when it fits in at most 5 fields of at most 25 choices; None: menus only."""
        return None

    def form_action(self, state: State, seat: int, values: tuple[str, ...]) -> str | None:
        """The action the form's values (one per field, in order) compose; None when they are not
        among the choices. Legality is still :meth:`apply`'s to judge."""
        return None

    # Actions shown as buttons before any menu on a seat's panel (e.g. Monster Hunter's ``go``).
    pinned_actions = ()

    def agreed_end(self, state: State) -> tuple[State, list[Event]]:
        """Every seat still playing agreed to end the game here: a draw among them. Seats already
        out of the game (:meth:`retired`) stay behind them (the others share the placing)."""
        if self.outcome(state) is not None:
            raise GameOver("game_over")
        new = copy_state(state)
        out = self.retired(state)
        staying = tuple(s for s in range(new["players"]) if s not in out)
        new["outcome"] = Outcome(staying if out else (), "agreed", draw=True).to_json()
        return new, [{"type": "agreed_end"}]

    def resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """A seat concedes. Default: in a two-seat game the other wins; else the rest share it."""
        if self.outcome(state) is not None:
            raise GameOver("game_over")
        new = copy_state(state)
        others = tuple(s for s in range(new["players"]) if s != seat)
        new["outcome"] = Outcome(others, "resign").to_json()
        return new, [{"type": "resigned", "seat": seat}]


def copy_state(value: Any) -> Any:
    """A deep copy of a JSON-safe value (dicts, lists, tuples and immutable scalars).

    States are plain JSON data, so this small recursive copy gives the same result as
    ``copy.deepcopy`` at a fraction of its cost (no memo, no reduce protocol); ``apply`` runs it on
    every action, and AI search runs ``apply``'s rules many thousands of times per decision.
    (Shared sub-objects are copied separately; a JSON state has none: it round-trips losslessly.)
    """
    kind = type(value)
    if kind is dict:
        return {k: copy_state(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    if kind is list:
        return [copy_state(v) if type(v) in _CONTAINERS else v for v in value]
    if kind is tuple:
        return tuple(copy_state(v) for v in value)
    return value


_CONTAINERS = frozenset((dict, list, tuple))


def unchanged(before: State, after: State, *keys: str) -> bool:
    """Whether each named part of the state is the same after an action (decks, dice, the RNG):
    the usual test inside :meth:`Game.undoable`."""
    return all(before.get(k) == after.get(k) for k in keys)


def events_for(events: list[Event], seat: int | None) -> list[Event]:
    """The events a seat (or the public, ``None``) may see."""
    return [e for e in events if "to" not in e or (seat is not None and seat in e["to"])]


def roundtrip(state: State) -> State:
    """JSON round-trip; the contract requires it to be lossless."""
    return json.loads(json.dumps(state))
