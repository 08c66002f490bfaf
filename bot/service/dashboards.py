"""Looking across games: dashboards, stats, which game a command means, boards to repost."""

from __future__ import annotations

from typing import ClassVar

from datetime import datetime, timedelta
from statistics import mean, median

import renderers
from games import Game, all_games
from games.rng import Rng

from .. import i18n
from ..i18n import T, Text
from ..common.rules_doc import rules_keys
from ..storage.rows import OPEN_STATUSES, TURN_TIME_GAMES, GameRow
from .access import Where, sees
from .core import game_of
from .outbox import GameSummary, Outbox, Post
from .present import player_counts, rated_name, rides, user_name
from .settings import stamp

EXAMPLE_SEED, EXAMPLE_ACTIONS = 2026, 12


def example_position(game) -> dict:
    """The same mid-game position every time: a few actions into a game from a fixed seed."""
    players = min(game.player_counts())
    state = game.setup(players, game.resolve_options({}, players), EXAMPLE_SEED)
    rng = Rng(EXAMPLE_SEED)
    for _ in range(EXAMPLE_ACTIONS):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        state = game.apply(state, seat, legal[rng.below(len(legal))])[0]
    return state


def discord_id(value) -> int:
    """A stored Discord id (a thread's), or the error that sets its game aside."""
    if type(value) is not int:
        raise TypeError(f"not a Discord id: {value!r}")
    return value


TIMES_SHOWN = 15  # players listed in the time-to-act table


def duration_words(seconds: float) -> Text:
    """A duration as people read it: days and hours, hours and minutes, or minutes."""
    minutes = int(seconds // 60)
    days, hours = divmod(minutes // 60, 24)
    if days:
        return T("duration.days", d=days, h=hours)
    if hours:
        return T("duration.hours", h=hours, m=minutes % 60)
    return T("duration.minutes", m=max(minutes, 1) if seconds >= 30 else 0)


def turn_time_lines(times: list[tuple[int, float]], header: Text) -> list[Text]:
    """Average and median time to act per player, most moves first (none: no lines)."""
    by_user: dict[int, list[float]] = {}
    for user_id, seconds in times:
        by_user.setdefault(user_id, []).append(seconds)
    if not by_user:
        return []
    ranked = sorted(by_user.items(), key=lambda item: (-len(item[1]), item[0]))[:TIMES_SHOWN]
    return [header] + [T("stats.time_line", player=user_name(u), count=len(s), mean=duration_words(mean(s)),
                         median=duration_words(median(s))) for u, s in ranked]


def pooled_time_line(times: list[tuple[int, float]], key: str) -> list[Text]:
    """One line: the average and median of every time to act here (none: no line)."""
    seconds = [s for _, s in times]
    if not seconds:
        return []
    return [T(key, count=len(seconds), mean=duration_words(mean(seconds)), median=duration_words(median(seconds)))]


def shown_rating(mu: float, sigma: float) -> str:
    """A rating as the leaderboards show it: the skill less three times its uncertainty."""
    return f"{mu - 3 * sigma:.1f}"


LEADERBOARD_ONE, LEADERBOARD_EACH = 10, 5  # players shown for one game / for each game
REPOST_AFTER_SECONDS = 30  # a board not posted by then was lost (a crash or a failed send)
REPOST_LEASE_SECONDS = 60  # one process's claim to repost a board; if it fails, another tries after
THREAD_TOUCH_DAYS = 5  # Discord archives a thread after 7 idle days (our longest setting)


class Dashboards:
    uses: ClassVar[tuple[str, ...]] = ("Presenter",)

    async def summaries(self, ids: list[int]) -> list[GameSummary]:
        return [summary for summary, _ in await self._summed_up(ids)]

    async def _summed_up(self, ids: list[int]) -> list[tuple[GameSummary, Text]]:
        """Each game's summary and its dashboard line; a game that cannot be summed up is set aside."""
        out = []
        for row, game in await self._rows(ids):
            async with self._isolated(row.id):
                to_act = [row.user_of(s) for s in self._waiting(row, game)]
                away = [s.user_id for s in row.seats if self._on_vacation(s)]
                summary = GameSummary(row.id, row.game, row.status, row.user_ids, to_act, row.channel_id,
                                      row.thread_id, row.deadline_at, away)
                out.append((summary, self._summary_text(summary)))
        return out

    async def list_lines(self, guild_id: int | None, user_id: int) -> list[Text]:
        """The server dashboard: every open game here with its players, whose turn and time left."""
        here = await self.store.game_ids_in_guild(guild_id) if guild_id is not None else []
        lines = [line for _, line in await self._summed_up(here)]
        lines = [T("list.header_here", count=len(lines))] + (lines or [T("list.none")])
        if guild_id is not None:
            lines += pooled_time_line(await self.store.turn_times(guild_id), "stats.time_server")
        return lines

    async def mine_lines(self, user_id: int) -> list[Text]:
        """The same dashboard across every server, for one player."""
        lines = [line for _, line in await self._summed_up(await self.store.game_ids_of_user(user_id))]
        played = await self.store.game_ids_of_user(user_id, ("active", "finished", "abandoned"))
        return [T("list.header_mine", count=len(lines))] + (lines or [T("list.none")]) + pooled_time_line(
            await self.store.turn_times_in(played[-TURN_TIME_GAMES:], user_id), "stats.time_mine")

    async def stats_lines(self, guild_id: int | None, user_id: int, game_name: str | None = None) -> list[Text]:
        """A server's results and times to act; in a DM (no server) the asker's own only."""
        name = game_of(game_name).name if game_name else None
        if guild_id is None:
            return await self._own_dm_stats_lines(user_id, name)
        rows = await self.store.stats(guild_id, name)
        lines = [T("stats.header", count=len(rows))]
        for game, player, played, won, drawn in rows:
            lines.append(T("stats.line", game=T(f"game.{game}.title"), player=user_name(player),
                           played=played, won=won, drawn=drawn))
        lines = lines if rows else lines + [T("stats.none")]
        return lines + turn_time_lines(await self.store.turn_times(guild_id, name), T("stats.time_header_server"))

    async def _own_dm_stats_lines(self, user_id: int, name: str | None) -> list[Text]:
        """Games made in DMs belong to no server: typed in a DM, the asker's own results and times
        to act in the DM games they sat in, and nobody else's (issue #40)."""
        rows = await self.store.stats(None, name, asker=user_id)
        lines = [T("stats.header_dm")]
        lines += [T("stats.line_dm", game=T(f"game.{game}.title"), played=played, won=won, drawn=drawn)
                  for game, _, played, won, drawn in rows]
        lines = lines if rows else lines + [T("stats.none_dm")]
        return lines + pooled_time_line(await self.store.turn_times(None, name, asker=user_id), "stats.time_dm")

    async def _game_turn_time_lines(self, game_id: int) -> list[Text]:
        """A game's time to act per player (``/game status``)."""
        return turn_time_lines(await self.store.turn_times_in([game_id]), T("stats.time_header_game"))

    async def leaderboard_lines(self, guild_id: int | None, user_id: int, game_name: str | None = None) -> list[Text]:
        """The best rated players of this server: one game's top ten, or every game's top five; in
        a DM (no server) the asker's own ratings only."""
        games = [game_of(game_name)] if game_name else [g for g in all_games() if i18n.has(f"game.{g.name}.title")]
        if guild_id is None:
            return await self._own_dm_rating_lines(user_id, games)
        limit = LEADERBOARD_ONE if game_name else LEADERBOARD_EACH
        lines = [T("leaderboard.header")]
        for game in games:
            rows = await self.store.leaderboard(guild_id, game.name, limit)
            if not rows:
                continue
            lines.append(T("leaderboard.game", game=T(f"game.{game.name}.title")))
            lines += [T("leaderboard.line", rank=i, player=rated_name(player), rating=shown_rating(mu, sigma),
                        count=played) for i, (player, mu, sigma, played) in enumerate(rows, 1)]
        return lines if len(lines) > 1 else lines + [T("leaderboard.none")]

    async def _own_dm_rating_lines(self, user_id: int, games: list[Game]) -> list[Text]:
        """DM games are rated together, but a ranking of them would list strangers: typed in a DM,
        the asker's own rating of each game and where leaderboards are (each server's)."""
        lines = [T("leaderboard.header_dm")]
        for game in games:
            for _, mu, sigma, played in await self.store.leaderboard(None, game.name, 1, asker=user_id):
                lines.append(T("leaderboard.line_dm", game=T(f"game.{game.name}.title"),
                               rating=shown_rating(mu, sigma), count=played))
        return lines if len(lines) > 1 else lines + [T("leaderboard.none_dm")]

    async def help(self) -> Outbox:
        """What the bot does, its commands, and how to start a first game."""
        games = [T("help.game", game=T(f"game.{g.name}.title"), counts=player_counts(g)) for g in all_games()
                 if i18n.has(f"game.{g.name}.title")]
        return Outbox(reply=[T("help.intro"), T("help.games_header")] + games + [T("help.commands"), T("help.replay"), T("help.first_game")])

    async def rules(self, game_name: str) -> Outbox:
        """A game's rules in brief, its notation, and a picture of an example position."""
        game = game_of(game_name)
        lines = [T(key) for key in rules_keys(game)]
        image = (await self._draw(game.name, game.view(example_position(game), None))
                 if renderers.has_renderer(game.name) else None)
        return Outbox(reply=lines + [T("rules.picture")], reply_image=image)

    async def game_choices(self, user_id: int, where: Where, statuses=OPEN_STATUSES) -> list[int]:
        """The user's own games that may be named from here (game-number autocomplete)."""
        ids = await self.store.game_ids_of_user(user_id, statuses)
        if where.guild_id is None:
            return ids
        return [row.id for row, _ in await self._rows(ids) if sees(row, user_id, where)]

    async def games_for(self, channel_id: int, user_id: int) -> list[int]:
        """Open games in this channel or thread that the user sits in."""
        return await self.store.game_ids_of_user_in_channel(user_id, channel_id)

    async def games_here(self, channel_id: int, user_id: int) -> list[int]:
        """The user's games here, or else every open game here (for looking, not playing)."""
        return await self.games_for(channel_id, user_id) or await self.store.game_ids_in_channel(channel_id)

    async def pending_posts(self, *, settled_only: bool = False, saved_before: str | None = None,
                            process_started: str | None = None) -> list[Post]:
        """Board posts that never reached the channel, e.g. because the bot stopped mid-turn.

        ``settled_only`` skips games changed in the last few seconds, whose post is still on its way;
        ``saved_before`` (this process's start) skips games this process saved, which it is delivering
        itself (players may act before the gateway says ready). Each board is claimed in the
        database first, so of several bot processes one reposts it. ``process_started`` words
        them: only a board saved before it was lost to a restart."""
        posts = []
        for row, game in await self._rows(await self.store.unposted_game_ids()):
            async with self._isolated(row.id):  # a damaged time sets its game aside, not the pass
                if settled_only and self._age_seconds(row.updated_at) < REPOST_AFTER_SECONDS:
                    continue
                if saved_before is not None and row.updated_at >= saved_before:
                    continue
                if rides(row):
                    continue  # nobody to carry it now: the game's next interaction shows it (boards_due_here)
                outbox = await self._repost(row, game, process_started)
                posts += outbox.posts if outbox is not None else []
        return posts

    async def owed_boards(self, *, process_started: str | None = None) -> Outbox:
        """The boards this process saved but failed to show (``HostCore.owe_board``), drawn afresh
        from the saved state, with the panels that never went out. At once, not after
        REPOST_AFTER_SECONDS: no delivery of them is under way. A game that moved on since is
        left to its newer version's own delivery."""
        owed, self._owed = self._owed, {}
        self.board_owed.clear()
        found = Outbox()
        if not owed:
            return found
        unposted = set(await self.store.unposted_game_ids())
        for row, game in await self._rows(sorted(g for g in owed if g in unposted)):
            version, panels = owed[row.id]
            if row.version != version or rides(row):
                continue
            async with self._isolated(row.id):
                outbox = await self._repost(row, game, process_started, panels=panels)
                if outbox is not None:
                    found.posts += outbox.posts
                    found.privates += outbox.privates
                    found.retire_undo += outbox.retire_undo
        return found

    async def boards_due_here(self, channel_id: int) -> Outbox:
        """The current boards of this place's games that ride interactions and were not shown yet
        (an AI's or a deadline's move, a follow-up Discord refused): the next interaction there
        carries them. No repost lease: two interactions at once may both show one, which is harmless."""
        found = Outbox()
        here = set(await self.store.game_ids_in_channel(channel_id, ("active", "finished")))
        due = sorted(here & set(await self.store.unposted_game_ids()))
        for row, game in await self._rows(due):
            if not rides(row):
                continue
            async with self._isolated(row.id):
                outbox = Outbox()
                await self._announce(outbox, row, game, [T("game.board_here", id=row.id)], panels=False,
                                     spare_panels=True)
                addressed = await self._address(outbox)
                found.posts += addressed.posts
                found.retire_notices += addressed.retire_notices  # "your turn" DMs of turns gone by
        return found

    async def places_riding_interactions(self, channel_ids) -> set[int]:
        """Of these places, those where a game rides interactions (a group DM): the bot may post
        nothing there of its own, so reminders and notices meant for one go by DM instead."""
        places = set()
        for channel_id in set(channel_ids):
            ids = await self.store.game_ids_in_channel(channel_id)
            if ids and any(isinstance(row, GameRow) and rides(row) for row in await self.store.load_many(ids)):
                places.add(channel_id)
        return places

    async def _repost(self, row, game, process_started: str | None, *, panels: bool = False) -> Outbox | None:
        """A saved version's board (``panels``: and its panels) composed again, once this process
        holds the game's repost lease; None when another process holds it. Run inside
        ``_isolated``: a drawing worker lost is tried again on the next pass, a game whose board
        cannot be drawn is set aside."""
        lease_end = stamp(self._now() + timedelta(seconds=REPOST_LEASE_SECONDS))
        if not await self.store.claim_repost(row.id, self.now_stamp(), lease_end):
            return None
        # "Before a restart" only when it was: saved by an earlier process than this one.
        restarted = process_started is not None and row.updated_at < process_started
        line = T("game.resumed" if restarted else "game.board_here", id=row.id)
        outbox = Outbox()
        await self._announce(outbox, row, game, [line], panels=panels, spare_panels=True)
        if row.settings.get("own_thread") and row.thread_id is None and row.board_message_id is None:
            # a game started without a lobby (a tournament's) opens its thread on its first board
            outbox.posts[-1].open_thread = T("thread.name", id=row.id, game=T(f"game.{game.name}.title"))
        return await self._address(outbox)

    def _age_seconds(self, iso: str) -> float:
        return (self._now() - datetime.fromisoformat(iso)).total_seconds()

    # ---- delivery bookkeeping -----------------------------------------------------------------------
    async def remember_language(self, user_id: int, lang: str) -> None:
        await self.store.set_user_locale(user_id, lang)

    async def note_dm(self, user_id: int, is_open: bool) -> None:
        await self.store.set_dm_open(user_id, is_open)

    async def mark_posted(self, game_id: int, version: int, message_id: int | None) -> None:
        await self.store.mark_posted(game_id, version, message_id)
        self.landings.landed(game_id, version)

    async def thread_created(self, game_id: int, thread_id: int) -> None:
        await self.store.set_thread(game_id, thread_id, self.now_stamp())

    async def thread_touched(self, thread_id: int) -> None:
        await self.store.touched_thread(thread_id, self.now_stamp())

    async def threads_to_keep_open(self) -> list[int]:
        """Threads of open games idle long enough that Discord would archive them soon, each claimed
        in the database (its idle clock restarted), so of several bot processes one touches it."""
        before = stamp(self._now() - timedelta(days=THREAD_TOUCH_DAYS))
        idle = set()
        for game_id, thread in await self.store.threads_to_touch(before):
            async with self._isolated(game_id):
                idle.add(discord_id(thread))
        return [t for t in sorted(idle) if await self.store.claim_thread_touch(t, before, self.now_stamp())]

    async def is_open_game_thread(self, thread_id: int) -> bool:
        return await self.store.is_open_game_thread(thread_id)

    async def left_thread(self, game_id: int) -> int:
        """The bot may no longer post in this game's thread (a moderator locked it, or the bot's
        permission there was withdrawn): from now on the game is played in its channel, returned."""
        row = await self.store.load(game_id)
        await self.store.set_thread(game_id, None, self.now_stamp())
        return row.channel_id

    async def leave_thread(self, thread_id: int) -> list[Post]:
        """A game thread the bot cannot reopen: its open games move to their channel, and each
        running one gets its board there again, saying why (its buttons in the thread are out of
        reach: a locked thread's components cannot be used)."""
        posts = []
        for row, game in await self._rows(await self.store.game_ids_in_channel(thread_id)):
            if row.thread_id != thread_id:
                continue
            await self.store.set_thread(row.id, None, self.now_stamp())
            row.thread_id = None
            if row.status != "active" or row.state is None:
                continue
            outbox = Outbox()
            try:
                async with self._engine(row.id):
                    await self._announce(outbox, row, game, [T("thread.moved", id=row.id, thread=f"<#{thread_id}>")])
            except Exception:  # logged by _engine: the game's next post goes to the channel anyway
                continue
            posts += (await self._address(outbox)).posts
        return posts

    async def status_posted(self, game_id: int, message_id: int) -> None:
        await self.store.set_status_message(game_id, message_id)

    async def set_dm_reminders(self, user_id: int, on: bool) -> Outbox:
        await self.store.set_dm_reminders(user_id, on)
        return Outbox(reply=[T("settings.dm_reminders_on" if on else "settings.dm_reminders_off")])
