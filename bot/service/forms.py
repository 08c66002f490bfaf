"""Forms: a seat's secret step answered in one dialog (Game.form), for players whose DMs are closed
and who would otherwise go back and forth through ephemeral menus."""

from __future__ import annotations

from typing import ClassVar

from games import Game

from ..i18n import T, Text
from .access import Ask, Where
from .outbox import FormSpec, Outbox, ServiceError
from .words import termed


class Forms:
    uses: ClassVar[tuple[str, ...]] = ("Play",)

    async def form(self, game_id: int, user_id: int, seen_version: int | None = None, *,
                   where: Where | None = None) -> FormSpec:
        """The user's form at the game's current version. A panel's button carries the version it
        was drawn for and is refused as stale like any of its buttons; the board's has none."""
        row, game = await self._load_active(game_id, Ask("act", user_id, where))
        seat = self._seat(row, user_id)
        await self._check_fresh(row, seat, seen_version)
        async with self._stored(game_id):
            form = game.form(row.state, seat)
        if form is None:
            raise ServiceError("no_form")
        return FormSpec(row.id, row.version, user_id, self._form_words(game, form.title),
                        [(self._form_words(game, f.label),
                          [(value, self._form_words(game, words)) for value, words in f.choices])
                         for f in form.fields])

    async def submit_form(self, game_id: int, user_id: int, version: int, owner: int,
                          values: list[str], *, where: Where | None = None) -> Outbox:
        """A submitted form: only its owner's, composed into one action and played through
        :meth:`act` with the form's version, so a form opened before the step moved on is stale."""
        if user_id != owner:
            raise ServiceError("form_not_yours")
        row, game = await self._load_active(game_id, Ask("act", user_id, where))
        seat = self._seat(row, user_id)
        async with self._engine(game_id):
            action = game.form_action(row.state, seat, tuple(values))
        if action is None:
            raise ServiceError("form_bad_values")
        return await self.act(game_id, user_id, action, seen_version=version, where=where)

    @staticmethod
    def _form_words(game: Game, words: dict) -> Text:
        params = {k: v for k, v in words.items() if k != "type"}
        return T(f"form.{game.name}.{words['type']}", **termed(game, params))
