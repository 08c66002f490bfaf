"""Spectators and view choices: following a game, one combined turn notice per follower and
place, and the per-person view preferences of ``/game settings``.

A follower hears of each turn (each version at which someone new must act, see
``core.mark_turn``) at most once: the notice is claimed in the database (``followers``
``notified_version``) before it is composed, so of several bot processes exactly one sends it.
Notices wait ``follow_gather_seconds`` after a turn begins, so turns of several followed games in one
place that fall close together arrive as one message, as reminders do.
"""

from __future__ import annotations

from datetime import timedelta

from ..i18n import T, Text
from .access import Ask, Where
from .core import turn_of
from .outbox import FollowNotice, Outbox, ServiceError
from .settings import stamp

DEFAULT_FOLLOW_GATHER_SECONDS = 60.0
FOLLOWERS_SHOWN = 20  # /game status names this many followers, then counts the rest


class Follow:
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
        per follower and place; a place is due once one of its turns has waited the gather time."""
        candidates = await self.store.follow_candidates()
        if not candidates:
            return []
        rows = {row.id: (row, game) for row, game in await self._rows(sorted({g for g, _, _ in candidates}))}
        gathered = stamp(self._now() - timedelta(seconds=self.follow_gather_seconds))
        places: dict[tuple[int, int], list[tuple]] = {}
        for game_id, user_id, told in candidates:
            if game_id not in rows:
                continue
            row, game = rows[game_id]
            turn = turn_of(row)
            if turn <= told or row.seat_of(user_id) is not None or not self._waiting(row, game):
                continue
            places.setdefault((user_id, row.thread_id or row.channel_id), []).append((row, game, turn))
        notices = []
        quiet = await self._quiet_people(user_id for user_id, _ in places)
        for (user_id, home), games in places.items():
            if all(row.settings.get("turn_at", "") > gathered for row, _, _ in games):
                continue  # let turns of other followed games here join this notice
            if user_id in quiet:
                continue  # unclaimed until their quiet hours end: then they hear of the turn under way
            taken = set(await self.store.claim_follow_notices(user_id, [(row.id, turn) for row, _, turn in games]))
            claimed = [(row, game) for row, game, _ in games if row.id in taken]
            if claimed:
                notices.append(self._follow_notice(user_id, home, claimed))
        settings = await self.store.users_settings([n.user_id for n in notices]) if notices else {}
        for n in notices:
            mine = settings[n.user_id]
            n.dm = bool(mine["dm_reminders"]) and mine["dm_open"] is not False
            n.dm_lang = mine["locale"] or n.lang
        return notices

    def _follow_notice(self, user_id: int, home: int, games: list[tuple]) -> FollowNotice:
        first = games[0][0]
        notice = FollowNotice(user_id, home, [row.id for row, _ in games], lang=first.locale)
        notice.lines.append(T("follow.notice_header", player=f"<@{user_id}>", count=len(games)))
        for row, game in games:
            link = (f"https://discord.com/channels/{row.guild_id or '@me'}/{home}/{row.board_message_id}"
                    if row.board_message_id else f"<#{home}>")
            notice.lines.append(T("follow.notice_game", id=row.id, game=T(f"game.{row.game}.title"),
                                  players=self._marked(row, self._waiting(row, game)), link=link))
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
