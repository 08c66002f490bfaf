"""Spectators and view choices: following a game, one combined turn notice per follower and
place, and the per-person view preferences of ``/game settings``.

A follower hears of each turn (each version at which someone new must act, see
``core.mark_turn``) at most once: the notice is claimed in the database (``followers``
``notified_version``) before it is composed, so of several bot processes exactly one sends it.
Notices wait ``follow_gather_seconds`` after a turn begins, so turns of several followed games in one
place that fall close together arrive as one message, as reminders do.
"""

from __future__ import annotations

from typing import ClassVar

from dataclasses import dataclass
from datetime import timedelta

from games import Game

from ..i18n import T, Text
from .access import Ask, Where
from ..storage.rows import GameRow
from .core import turn_of
from .outbox import FollowNotice, Outbox, ServiceError
from .settings import stamp

DEFAULT_FOLLOW_GATHER_SECONDS = 60.0
FOLLOWERS_SHOWN = 20  # /game status names this many followers, then counts the rest


@dataclass
class TurnNotice:
    """One followed game's part of the notices of a pass, worded before any is claimed."""

    game_id: int
    turn: int  # the version at which its current wait began
    home: int  # its thread, else its channel
    settled: bool  # the turn has waited the gather time
    players: set[int]  # its seated players (they hear of their own turns already)
    line: Text | None  # None when it waits on nobody
    locale: str


class Follow:
    uses: ClassVar[tuple[str, ...]] = ("Presenter", "Quiet")

    follow_gather_seconds: float = DEFAULT_FOLLOW_GATHER_SECONDS

    # ---- following ---------------------------------------------------------------------------------
    async def follow(self, game_id: int, user_id: int, *, where: Where | None = None) -> Outbox:
        """Follow a running game (or one still gathering players). Players are refused: they hear
        of their own turns already; a second click changes nothing."""
        row = await self._load(game_id, Ask("follow", user_id, where))
        if row.status not in ("lobby", "active"):
            raise ServiceError(f"game_{row.status}", id=game_id)
        if row.seat_of(user_id) is not None:
            raise ServiceError("follow_playing", id=game_id)
        if not await self.store.follow(game_id, user_id, self.now_stamp(), turn_of(row)):
            raise ServiceError("follow_already", id=game_id)
        return Outbox(reply=[T("follow.started", id=game_id, game=T(f"game.{row.game}.title"))],
                      reply_unfollow=game_id)

    async def unfollow(self, game_id: int, user_id: int, *, where: Where | None = None) -> Outbox:
        row = await self._load(game_id, Ask("unfollow", user_id, where))
        if not await self.store.unfollow(game_id, user_id):
            raise ServiceError("follow_not_following", id=game_id)
        return Outbox(reply=[T("follow.stopped", id=game_id, game=T(f"game.{row.game}.title"))])

    async def _follower_lines(self, row) -> list[Text]:
        followers = await self.store.followers(row.id)
        if not followers:
            return []
        shown = [f"<@{u}>" for u in followers[:FOLLOWERS_SHOWN]]
        more = len(followers) - len(shown)
        return [T("follow.list", count=len(followers), followers=shown,
                  more=T("follow.list_more", count=more) if more else "")]

    # ---- turn notices ------------------------------------------------------------------------------
    async def due_follow_notices(self) -> list[FollowNotice]:
        """Notices for followers whose followed games have a turn they were not told of, combined
        per follower and place; a place is due once one of its turns has waited the gather time.
        Each game's part is worded before any notice is claimed, so a game that cannot be worded
        is set aside without costing the other games of its place their notice."""
        candidates = await self.store.follow_candidates()
        if not candidates:
            return []
        gathered = stamp(self._now() - timedelta(seconds=self.follow_gather_seconds))
        turns: dict[int, TurnNotice] = {}
        for row, game in await self._rows(sorted({g for g, _, _ in candidates})):
            async with self._isolated(row.id):
                turns[row.id] = self._turn_notice(row, game, gathered)
        places: dict[tuple[int, int], list[TurnNotice]] = {}
        for game_id, user_id, told in candidates:
            turn = turns.get(game_id)
            if turn is None or turn.turn <= told or user_id in turn.players or turn.line is None:
                continue
            places.setdefault((user_id, turn.home), []).append(turn)
        settings = await self.store.users_settings(sorted({u for u, _ in places})) if places else {}
        notices = []
        quiet = await self._quiet_people(user_id for user_id, _ in places)
        for (user_id, home), games in places.items():
            if not any(turn.settled for turn in games):
                continue  # let turns of other followed games here join this notice
            if user_id in quiet:
                continue  # unclaimed until their quiet hours end: then they hear of the turn under way
            taken = set(await self.store.claim_follow_notices(user_id, [(t.game_id, t.turn) for t in games]))
            claimed = [t for t in games if t.game_id in taken]
            if claimed:
                notices.append(self._follow_notice(user_id, home, claimed, settings[user_id]))
        return notices

    def _turn_notice(self, row: GameRow, game: Game, gathered: str) -> TurnNotice:
        """One game's part of the notices: its turn, whether it waited the gather time, its line."""
        home = row.thread_id or row.channel_id
        waiting = self._waiting(row, game)
        link = (f"https://discord.com/channels/{row.guild_id or '@me'}/{home}/{row.board_message_id}"
                if row.board_message_id else f"<#{home}>")
        line = T("follow.notice_game", id=row.id, game=T(f"game.{row.game}.title"),
                 players=self._marked(row, waiting), link=link) if waiting else None
        return TurnNotice(row.id, turn_of(row), home, row.settings.get("turn_at", "") <= gathered,
                          set(row.user_ids), line, row.locale)

    @staticmethod
    def _follow_notice(user_id: int, home: int, games: list[TurnNotice], mine: dict) -> FollowNotice:
        notice = FollowNotice(user_id, home, [t.game_id for t in games], lang=games[0].locale)
        notice.lines.append(T("follow.notice_header", player=f"<@{user_id}>", count=len(games)))
        notice.lines += [t.line for t in games]
        notice.dm = bool(mine["dm_reminders"]) and mine["dm_open"] is not False
        notice.dm_lang = mine["locale"] or notice.lang
        return notice

    # ---- view choices ------------------------------------------------------------------------------
    async def set_view(self, user_id: int, side: bool | None, large: bool | None) -> Outbox:
        """Save how boards only this person sees are drawn (their panels, replies, replay viewer)."""
        preferences = await self.store.preferences(user_id)
        view = dict(preferences.get("view") or {})
        lines = []
        if side is not None:
            view["side"] = side
            lines.append(T("settings.view_side_on" if side else "settings.view_side_off"))
        if large is not None:
            view["large"] = large
            lines.append(T("settings.view_large_on" if large else "settings.view_large_off"))
        preferences["view"] = view
        await self.store.set_preferences(user_id, preferences)
        return Outbox(reply=lines)
