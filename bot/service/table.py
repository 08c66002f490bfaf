"""The table as one viewer sees it, for the web way in: the position, the board drawn for them, the
regions of what it shows, their legal actions with the words and taps that make each, and a cheap
look at a game's version for live updates.

Everything is read through the same access check as ``/game status`` (a spectator sees what the
public board shows; a seat sees its own view) and built from the viewer's own view only, so a page
holds nothing the viewer's Discord board and panel would not. No game logic: the engines' legal
actions, paths and words, and the renderers' regions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import renderers
from games import Game

from ..i18n import Text
from .access import Ask, Where
from .present import seat_mark

from .regions import region_text


@dataclass
class TableAction:
    """One legal action of the viewer: what to tap, in order, and its words at each step."""

    action: str
    targets: tuple[str, ...]
    path: tuple[str, ...]
    steps: list[Text | str]  # each step of ``path`` in words (else its notation)
    words: Text | None


@dataclass
class Table:
    """One game's table for one viewer (``seat`` None: a spectator)."""

    game_id: int
    game: str
    version: int
    status: str
    seat: int | None
    summary: Text
    state_lines: list[Text]
    seats: list[tuple[int, Text, str | Text]]  # seat, its mark, its player
    to_act: list[int]
    deadline_at: str | None
    paused: bool
    locale: str | None  # the viewer's stored language (their Discord locale), if any
    board_options: dict[str, Any] = field(default_factory=dict)
    regions: list[dict] = field(default_factory=list)  # each with "words" (a Text or None)
    actions: list[TableAction] = field(default_factory=list)
    question: Text | None = None
    outcome: Text | None = None
    private: bool = False  # the viewer holds a seat of a game with secrets: their panel is theirs to see


@dataclass
class TablePanel:
    """A seat's private panel for its holder: its lines, its picture and what the picture shows where."""

    version: int
    lines: list[Text]
    image: bytes
    regions: list[dict]


class Tables:
    uses: ClassVar[tuple[str, ...]] = ("Decks", "Presenter")

    async def table(self, game_id: int, user_id: int, *, where: Where | None = None) -> Table:
        """The table for this viewer, if they may see the game from ``where`` (as ``/game status``)."""
        row, game = await self._load_game(game_id, Ask("status", user_id, where))
        seat = row.seat_of(user_id)
        settings = (await self.store.users_settings([user_id])).get(user_id, {}) if user_id > 0 else {}
        prefs = settings.get("view", {}) or {}
        table = Table(row.id, game.name, row.version, row.status, seat, self._summary_line(row), [],
                      [(s.seat, seat_mark(s.seat), self._name(row, s.seat)) for s in row.seats], [],
                      row.deadline_at, bool(row.settings.get("paused")), settings.get("locale"))
        if row.state is None:
            return table
        async with self._stored(game_id):
            view = game.view(row.state, seat)
            table.state_lines = self._state_lines(row, game)
            outcome = game.outcome(row.state)
            table.outcome = self._outcome_line(row, outcome) if outcome is not None else None
            table.to_act = sorted(game.to_act(row.state) - game.retired(row.state)) if outcome is None else []
            # The viewer's own "side" choice turns the board; "large" is the browser's zoom.
            table.board_options = renderers.view_options(game.name, {"side": prefs.get("side")}, seat)
            # ... drawn in the viewer's language, as table_board draws the image
            table.regions = self._worded_regions(game, view, seat,
                                                 {**table.board_options, "lang": settings.get("locale") or row.locale})
            table.private = seat is not None and row.status == "active" and game.hidden_information
            if seat is not None and row.status == "active" and game.legal_actions(row.state, seat):
                offered = await self._offered(row, game, seat)
                table.actions = self._table_actions(game, view, offered)
                controls = self._controls(row, game, seat, actions=offered)
                table.question = controls.question
        return table

    async def table_board(self, game_id: int, user_id: int, *, where: Where | None = None) -> tuple[int, bytes]:
        """The board drawn for this viewer (their seat's view, or the public one), and its version."""
        row, game = await self._load_game(game_id, Ask("status", user_id, where))
        if row.state is None:
            return row.version, b""
        seat = row.seat_of(user_id)
        prefs = (await self._view_prefs([user_id])).get(user_id, {}) if user_id > 0 else {}
        async with self._stored(game_id):
            image = await self._draw(game.name, game.view(row.state, seat), seat=seat,
                                     prefs={"side": prefs.get("side"), "lang": prefs.get("lang")}, lang=row.locale)
        return row.version, image

    async def table_panel(self, game_id: int, user_id: int, *, where: Where | None = None) -> TablePanel:
        """The viewer's own panel (as the "my panel" button's), drawn without the "large" choice."""
        row, game = await self._load_active(game_id, Ask("panel", user_id, where))
        seat = self._seat(row, user_id)
        prefs = (await self._view_prefs([user_id])).get(user_id, {})
        mine = {"side": prefs.get("side"), "lang": prefs.get("lang")}
        async with self._stored(game_id):
            private = await self._private(row, game, seat, {user_id: mine})
            view = game.view(row.state, seat)
            regions = [{**r, "words": region_text(game, r, view)}
                       for r in renderers.panel_regions(game.name, view, **renderers.view_options(game.name, mine, seat),
                                                        lang=mine["lang"] or row.locale)]
        return TablePanel(row.version, private.lines, private.image or b"", regions)

    async def table_version(self, game_id: int) -> int | None:
        """A game's current version (None when gone): how the web notices saves made by another
        process. Asks nothing of the viewer: the number says nothing of the game."""
        try:
            row = await self.store.load(game_id)
        except Exception:  # gone or unreadable: nothing to announce
            return None
        return row.version

    def _worded_regions(self, game: Game, view: dict, seat: int | None, options: dict) -> list[dict]:
        """What the board shows where (the renderer's regions of this very drawing), each with what
        a tap on it says."""
        return [{**region, "words": region_text(game, region, view)}
                for region in renderers.regions(game.name, view, **options)]

    def _table_actions(self, game: Game, view: dict, actions: list[str]) -> list[TableAction]:
        """Each offered action with the taps that make it and its words (each menu step worded once)."""
        step_words: dict[tuple[str, ...], Text | str] = {}
        out = []
        for action in actions:
            path = tuple(game.action_path(action))
            for depth in range(1, len(path) + 1):
                if path[:depth] not in step_words:
                    step_words[path[:depth]] = self._choice_text(game, path[:depth], view) or path[depth - 1]
            targets = tuple(game.action_targets(action, view))
            out.append(TableAction(action, targets, path, [step_words[path[:d]] for d in range(1, len(path) + 1)],
                                   self._choice_text(game, path, view)))
        return out
