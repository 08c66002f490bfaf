"""Lobbies: create, join, add an AI, leave, start; and rematches of finished games."""

from __future__ import annotations

from typing import ClassVar

from games import GameError
from games.rng import Rng

from ..common import fairplay
from ..i18n import T
from ..common.permissions import Reach, blocked_error_params, plan
from ..storage.rows import Draft, SeatRow, new_game_row
from .access import Ask, Where
from .core import AI_USER_BASE, game_of, is_ai, on_latest
from .outbox import Outbox, Post, Private, ServiceError
from .settings import ai_level_of, make_settings, parse_options


class Lobby:
    uses: ClassVar[tuple[str, ...]] = ("Dashboards", "Presenter")

    async def create(self, game_name: str, options_text: str | None, *, guild_id: int | None,
                     channel_id: int, user_id: int, locale: str, seat_creator: bool = True,
                     settings: dict | None = None, user_lang: str | None = None):
        game = game_of(game_name)
        raw = parse_options(options_text)
        try:
            options = game.resolve_options(raw, game.max_players)
        except GameError as e:
            raise ServiceError(e.key, **e.params) from None
        now = self.now_stamp()
        row = new_game_row(game=game.name, guild_id=guild_id, channel_id=channel_id, creator_id=user_id,
                           options=options, locale=locale, now=now, settings=settings or make_settings())
        if seat_creator:
            row.seats = [SeatRow(0, user_id, now)]
        row = await self._save(Draft.new(row))
        if user_lang:
            await self.remember_language(user_id, user_lang)
        lobby = self._lobby_post(row, game)
        if row.settings.get("thread"):
            lobby.open_thread = T("thread.name", id=row.id, game=T(f"game.{game.name}.title"))
        return row, await self._address(Outbox(reply=[T("lobby.created", id=row.id)], posts=[lobby]))

    @on_latest
    async def join(self, game_id: int, user_id: int, *, lang: str | None = None, where: Where | None = None) -> Outbox:
        """Take a seat; ``lang`` (the player's Discord language) is remembered once they sit."""
        async with self._lock(game_id):
            row, game = await self._load_lobby(game_id, Ask("join", user_id, where))
            if user_id in row.user_ids:
                raise ServiceError("already_joined", id=game_id)
            if len(row.seats) >= game.max_players:
                raise ServiceError("lobby_full", id=game_id, max=game.max_players)
            row = await self._reseat(row, row.user_ids + [user_id])
            if lang:
                await self.remember_language(user_id, lang)
            outbox = Outbox(reply=[T("lobby.joined", id=game_id)], posts=[self._lobby_post(row, game)])
            if game.hidden_information:
                outbox.dm_probes.append(Private(user_id, game_id, [T("panel.dm_probe", id=game_id)],
                                                home_channel_id=row.thread_id or row.channel_id,
                                                home_lang=row.locale))
            return await self._address(outbox)

    @on_latest
    async def add_ai(self, game_id: int, user_id: int, level: str | None = None, *, where: Where | None = None) -> Outbox:
        """An AI seat at a level (easy, normal, hard; default: the game's)."""
        async with self._lock(game_id):
            row, game = await self._load_lobby(game_id, Ask("add_ai", user_id, where))
            level = ai_level_of(level or row.settings.get("ai_level"))
            if len(row.seats) >= game.max_players:
                raise ServiceError("lobby_full", id=game_id, max=game.max_players)
            ai_id = min([AI_USER_BASE + 1] + [u for u in row.user_ids if is_ai(u)]) - 1
            row = await self._reseat(row, row.user_ids + [ai_id], ai_level=(ai_id, level))
            return await self._address(Outbox(reply=[T("lobby.ai_added", id=game_id)],
                                              posts=[self._lobby_post(row, game)]))

    async def invite(self, game_id: int, user_id: int, invited: list[int], *, where: Where | None = None) -> Outbox:
        """Ping the people a seated player picked, in the lobby's channel, with how to join."""
        row, game = await self._load_lobby(game_id, Ask("invite", user_id, where))
        invited = [u for u in dict.fromkeys(invited) if u not in row.user_ids and u != user_id]
        if not invited:
            raise ServiceError("nobody_to_invite", id=game_id)
        post = Post(row.id, row.channel_id, [T("lobby.invited", players=[f"<@{u}>" for u in invited],
                                               by=f"<@{user_id}>", id=row.id, game=T(f"game.{game.name}.title"))],
                    lang=row.locale, guild_id=row.guild_id, mentions=invited, hold_as="invite")
        return await self._address(Outbox(reply=[T("lobby.invites_sent", count=len(invited), id=game_id)],
                                          posts=[post]))

    @on_latest
    async def remove_seat(self, game_id: int, user_id: int, seat: int, *, where: Where | None = None) -> Outbox:
        """The creator (or an admin) takes a player or an AI out of the lobby."""
        async with self._lock(game_id):
            row, game = await self._load_lobby(game_id, Ask("remove_seat", user_id, where))
            removed = row.user_of(seat)
            if removed is None:
                raise ServiceError("stale")
            if removed == row.creator_id:
                raise ServiceError("remove_creator", id=game_id)
            row = await self._reseat(row, [u for u in row.user_ids if u != removed])
            return await self._address(Outbox(reply=[T("lobby.removed", id=game_id)],
                                              posts=[self._lobby_post(row, game)]))

    @on_latest
    async def leave(self, game_id: int, user_id: int, *, where: Where | None = None) -> Outbox:
        async with self._lock(game_id):
            row, game = await self._load_lobby(game_id, Ask("leave", user_id, where))
            remaining = [u for u in row.user_ids if u != user_id]
            if any(not is_ai(u) for u in remaining):
                row = await self._reseat(row, remaining)
                return await self._address(Outbox(reply=[T("lobby.left", id=game_id)],
                                                  posts=[self._lobby_post(row, game)]))
            draft = Draft.of(row)
            draft.row.status = "abandoned"
            draft.bump()
            row = await self._save(draft)
            post = self._lobby_post(row, game)
            post.lines.append(T("lobby.closed", id=game_id))
            return await self._address(Outbox(reply=[T("lobby.left", id=game_id)], posts=[post]))

    @on_latest
    async def start(self, game_id: int, user_id: int, *, where: Where | None = None,
                    reach: Reach | None = None) -> Outbox:
        """Deal the seats, set the game up and play the AI's first moves: one transaction.

        ``reach``: the bot's permissions where Start was pressed. Read again here, since they may
        have changed since the lobby opened, when that is the game's channel or thread: a game that
        cannot be shown there is not started, one whose thread the bot may no longer post in is
        played in the channel, and without Pin Messages its status goes in every board."""
        async with self._lock(game_id):
            row, game = await self._load_lobby(game_id, Ask("start", user_id, where))
            if len(row.seats) < game.min_players:
                raise ServiceError("not_enough_players", id=game_id, min=game.min_players)
            if len(row.seats) not in game.player_counts():
                raise ServiceError("player_count", id=game_id, count=len(row.seats),
                                   allowed=[str(n) for n in game.player_counts()])
            here = None
            if reach is not None and reach.channel_id in (row.channel_id, row.thread_id):
                here = plan(reach, thread=row.thread_id is not None, thread_exists=True)
                if here.blocked:
                    raise ServiceError("bot_cannot_show", **blocked_error_params(here.blocked))
            seed = self.seed_source()
            draft = Draft.of(row)
            if here is not None:
                draft.row.settings["pins"] = here.pins
            async with self._stored(game_id):  # the lobby's stored options: damaged, it is set aside
                lobby_order = game.seat_order(len(row.user_ids), row.options)
                order = ([row.user_ids[i] for i in lobby_order] if lobby_order is not None
                         else Rng(seed ^ 0x5EA7).shuffled(row.user_ids))  # deal seats from the game's own seed
                self._begin(draft, game, order, seed, fairplay.new_salt())
            header = T("game.started", id=game_id, game=T(f"game.{game.name}.title"),
                       seats=self._seat_list(draft.row))
            lines = (self._start_lines(draft.row, game, header)
                     + self._event_lines(draft.row, game, game.opening_events(draft.row.state))
                     + await self._run_ai(draft, game))
            row = await self._save(draft)
            if here is not None and row.thread_id is not None and not here.thread:
                await self.store.set_thread(game_id, None, self.now_stamp())  # played in the channel
                row.thread_id = None
            closed_lobby = self._lobby_post(row, game)  # the lobby message loses its buttons
            closed_lobby.board_version = None
            closed_lobby.lines.append(T("lobby.started", id=game_id))
            outbox = Outbox(reply=[T("lobby.started", id=game_id)] + (here.notices if here else []),
                            posts=[closed_lobby])
            async with self._once_saved(outbox, row):
                await self._announce(outbox, row, game, lines)
                outbox.posts[-1].replaces_message_id = None
                await self._address(outbox)
            return outbox

    @on_latest
    async def rematch(self, game_id: int, user_id: int, *, where: Where | None = None) -> Outbox:
        """A new game with the same seats and options, started and linked in one transaction."""
        async with self._lock(game_id):
            old, game = await self._load_game(game_id, Ask("rematch", user_id, where))
            if old.status != "finished":
                raise ServiceError("rematch_not_finished", id=game_id)
            if old.rematch_id:
                raise ServiceError("rematch_exists", id=old.rematch_id)
            draft = Draft.new(new_game_row(game=old.game, guild_id=old.guild_id, channel_id=old.channel_id,
                                           creator_id=user_id, options=old.options, locale=old.locale,
                                           now=self.now_stamp(), settings=old.settings))
            draft.rematch_of = old.id
            draft.row.thread_id = old.thread_id
            async with self._stored(game_id):  # the old game's outcome and options: damaged, it is set aside
                order = [old.user_of(s) for s in game.rematch_order(len(old.seats), game.outcome(old.state))]
                self._begin(draft, game, order, self.seed_source(), fairplay.new_salt())
            ai_lines = (self._event_lines(draft.row, game, game.opening_events(draft.row.state))
                        + await self._run_ai(draft, game))
            row = await self._save(draft)
            outbox = Outbox(reply=[T("rematch.started", id=row.id)])
            async with self._once_saved(outbox, row):
                header = T("rematch.header", old=old.id, id=row.id, game=T(f"game.{game.name}.title"),
                           seats=self._seat_list(row))
                await self._announce(outbox, row, game, self._start_lines(row, game, header) + ai_lines)
                await self._address(outbox)
            return outbox

    async def _reseat(self, row, user_ids: list[int], ai_level: tuple[int, str] | None = None):
        draft = Draft.of(row)
        draft.replace_seats(user_ids, self.now_stamp())
        if ai_level is not None:
            levels = dict(draft.row.settings.get("ai_levels", {}))
            levels[str(ai_level[0])] = ai_level[1]
            draft.row.settings["ai_levels"] = levels
        draft.bump()
        draft.row.step_version = draft.row.version
        return await self._save(draft)
