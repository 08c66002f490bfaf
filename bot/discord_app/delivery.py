"""Turning an Outbox into Discord messages: public posts, secret panels, ephemeral replies."""

from __future__ import annotations

import asyncio
import collections
import datetime
import io
import itertools
import logging
import weakref
from dataclasses import dataclass
from typing import Awaitable, Callable

import discord
from discord.http import Route
from discord.webhook.async_ import async_context

from ..faults import crash_point, fail_point
from ..i18n import T, Text, language_of, render, t
from ..common.permissions import Reach
from ..service import (MOST_ACTION_BUTTONS, EndedProposal, EndedUndo, FollowNotice, GameHost, Notice, Outbox, Post, Private,
                       Recap, Reminder, Where)
from ..web import table_link
from .components import (MAX_ALT_TEXT, MAX_V2_TEXT, add_follow, add_table, add_undo_ask, board_layout, controls_view,
                         follow_view, has_action_rows, lobby_view, panel_view, proposal_view, rematch_view, undo_answer_view,
                         view_rows, viewer_view, without_action_rows)
from .emoji import in_text
from .pace import in_background

log = logging.getLogger(__name__)

BOARD_FOLLOWS = "game.counted_board_follows"  # the actor's line when their action's board is late
MAX_CONTENT = 2000
THREAD_ARCHIVE_MINUTES = 10080  # a week, Discord's longest: games wait days for a move
THREAD_ARCHIVED = 50083
RECAP_LOOKBACK = 100  # messages after the final board searched for a recap already posted (Discord's page)
# Discord's limit on editing a channel's messages older than an hour: 3 edits per 6 s, then 30046.
OLD_MESSAGE_EDITS_LIMITED = 30046
OLD_EDIT_WINDOW_SECONDS = 6.0
OLD_EDIT_ROUNDS = 20  # windows waited for one channel before an edit is given up (two minutes)
UNKNOWN_INTERACTION = 10062  # acknowledged after Discord's 3 seconds
MOST_FOLLOW_UPS = 5  # an interaction's follow-ups where the app is installed only to the person who used it
INVALID_WEBHOOK_TOKEN = 50027  # an interaction's token past its 15 minutes


def join_lines(lang: str, lines: list[Text], limit: int = MAX_CONTENT) -> str:
    """Resolve lines in a language and keep the message inside Discord's 2000 characters (or
    another ``limit``: a Components V2 text display takes 4000), the games' pieces as the app's
    emoji where they fit."""
    text = "\n".join(render(lang, line) for line in lines)
    if len(text) > limit:
        text = text[: limit - 2].rsplit("\n", 1)[0] + "\n…"
    return in_text(text, limit)


def alt_text(lang: str, lines: list[Text]) -> str:
    """A board image's alt text: the position's sentences in one paragraph, within 1024 characters."""
    text = " ".join(render(lang, line) for line in lines)
    return text if len(text) <= MAX_ALT_TEXT else text[: MAX_ALT_TEXT - 1].rsplit(" ", 1)[0] + "…"


def pages(lang: str, lines: list[Text]) -> list[str]:
    """Lines in a language, split into messages of at most Discord's 2000 characters (a long
    history or rules text is sent as several messages, never cut)."""
    out, current = [], ""
    for line in (render(lang, line) for line in lines):
        while len(line) > MAX_CONTENT:  # a single overlong line: cut it, nothing better to do
            out, current = out + ([current] if current else []) + [line[:MAX_CONTENT]], ""
            line = line[MAX_CONTENT:]
        if current and len(current) + 1 + len(line) > MAX_CONTENT:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    return [in_text(page, MAX_CONTENT) for page in (out + [current] if current else out)]


def board_file(image: bytes | None) -> list[discord.File]:
    return [discord.File(io.BytesIO(image), filename="board.png")] if image else []


def named_files(files: list[tuple[str, bytes]]) -> list[discord.File]:
    return [discord.File(io.BytesIO(data), filename=name) for name, data in files]


class NotPosted(Exception):
    """A post Discord did not take (logged); ``owed``: it was a game's board, to be posted again;
    ``refused``: Discord refused it for want of a permission there (it is posted once given)."""

    def __init__(self, owed: bool, refused: bool = False):
        super().__init__(owed)
        self.owed = owed
        self.refused = refused


class LaterEdits:
    """Edits of messages that Discord may refuse for now: a channel's messages older than an hour
    take 3 edits per 6 s (code 30046), and a waiting game's board, its pinned status and its undo
    request are such messages. A refused edit is kept, only the newest one per message, and made
    once the window has passed, so an old board still loses its buttons and a status still shows
    the latest state; an edit asked for later replaces one still waiting. (Kept in this process
    only: after a restart the next post updates the status, and a leftover button is refused as
    stale when pressed.)"""

    def __init__(self) -> None:
        self._newest: dict[int, int] = {}  # message id -> the number of its newest edit asked for
        self._waiting: dict[int, dict[int, tuple[int, Callable[[], Awaitable]]]] = {}  # channel -> message -> edit
        self._retrying: dict[int, asyncio.Task] = {}  # channel id -> its task making the waiting edits
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._numbers = itertools.count(1)

    async def edit(self, channel_id: int, message_id: int, edit: Callable[[], Awaitable]) -> bool:
        """Make ``edit`` (a message edit); True once made (or overtaken by a newer edit), False when
        Discord refused it for now: it is then made later. Any other refusal is raised."""
        number = next(self._numbers)
        self._newest[message_id] = number
        return await self._make(channel_id, message_id, number, edit)

    def waiting(self, channel_id: int | None = None) -> int:
        """How many edits wait (in one channel, or in all)."""
        if channel_id is not None:
            return len(self._waiting.get(channel_id, {}))
        return sum(len(w) for w in self._waiting.values())

    async def _make(self, channel_id: int, message_id: int, number: int, edit) -> bool:
        lock = self._locks.get(message_id)
        if lock is None:
            lock = self._locks[message_id] = asyncio.Lock()
        async with lock:  # one edit of a message at a time, so the newest lands last
            if self._newest.get(message_id) != number:
                return True  # a newer edit of this message was asked for: it is the one to make
            try:
                await edit()
            except discord.HTTPException as e:
                if e.code != OLD_MESSAGE_EDITS_LIMITED:
                    self._newest.pop(message_id, None)
                    raise
                self._waiting.setdefault(channel_id, {})[message_id] = (number, edit)
                if channel_id not in self._retrying:
                    self._retrying[channel_id] = asyncio.create_task(self._retry(channel_id))
                return False
            if self._newest.get(message_id) == number:
                del self._newest[message_id]
            return True

    async def _retry(self, channel_id: int) -> None:
        try:
            for _ in range(OLD_EDIT_ROUNDS):
                await asyncio.sleep(OLD_EDIT_WINDOW_SECONDS)
                for message_id, (number, edit) in list(self._waiting.pop(channel_id, {}).items()):
                    try:
                        await self._make(channel_id, message_id, number, edit)
                    except discord.HTTPException as e:
                        log.info("could not edit message %s in %s later (%s)", message_id, channel_id, e.code)
                if not self._waiting.get(channel_id):
                    return
            given_up = self._waiting.pop(channel_id, {})
            log.warning("gave up %d edits of old messages in channel %s", len(given_up), channel_id)
        except Exception:
            log.exception("edits of old messages in channel %s failed", channel_id)
        finally:
            self._retrying.pop(channel_id, None)


class ThrottledEdits:
    """Edits of one message at most once per ``window`` seconds: the first at once, then the newest
    of those asked for meanwhile when the window ends. A game's pinned status changes with every
    move, and every edit of it counts against the bot's global rate limit; a game played fast needs
    its status current within seconds, not after each click. ``urgent`` edits (the game's end) go at
    once."""

    def __init__(self, window: float) -> None:
        self.window = window
        self._open_at: dict[int, float] = {}  # message id -> when its next edit may be made
        self._waiting: dict[int, Callable[[], Awaitable]] = {}  # message id -> its newest edit held
        self._tasks: dict[int, asyncio.Task] = {}

    async def edit(self, message_id: int, edit: Callable[[], Awaitable], *, urgent: bool = False) -> None:
        now = asyncio.get_running_loop().time()
        if urgent or now >= self._open_at.get(message_id, 0.0):
            self._waiting.pop(message_id, None)
            self._open_at[message_id] = now + self.window
            await edit()
            return
        self._waiting[message_id] = edit
        if message_id not in self._tasks:
            self._tasks[message_id] = asyncio.create_task(self._when_open(message_id))

    def waiting(self) -> int:
        return len(self._waiting)

    async def _when_open(self, message_id: int) -> None:
        try:
            while (edit := self._waiting.get(message_id)) is not None:
                delay = self._open_at.get(message_id, 0.0) - asyncio.get_running_loop().time()
                if delay > 0:
                    await asyncio.sleep(delay)
                    continue
                del self._waiting[message_id]
                self._open_at[message_id] = asyncio.get_running_loop().time() + self.window
                await edit()
        except Exception:
            log.exception("a held edit of message %s failed", message_id)
        finally:
            self._tasks.pop(message_id, None)
            if message_id not in self._waiting:
                self._open_at.pop(message_id, None)  # past its window (a later edit goes at once)


STATUS_EDIT_WINDOW = 5.0  # seconds between two edits of a game's pinned status


# An interaction's token lasts 15 minutes; a follow-up board is edited through it until a minute before.
FOLLOW_UP_TOKEN_MARGIN = datetime.timedelta(minutes=1)


@dataclass
class PostedBoard:
    """A board this process posted, kept as what retiring it takes (its components without their
    action rows, worked out from what Discord returned), so it need not be read back; when it came
    as an interaction's follow-up, that interaction's webhook and the moment its token expires
    (edits through it are not counted against the bot's global rate limit)."""
    message_id: int
    retired: list[dict] | None  # its components without action rows; None: it has none to lose
    webhook: discord.Webhook | None = None
    expires_at: datetime.datetime | None = None

    @classmethod
    def of(cls, message: discord.Message, webhook: discord.Webhook | None = None,
           expires_at: datetime.datetime | None = None) -> "PostedBoard":
        components = [c.to_dict() for c in message.components]
        retired = (without_action_rows(components, [a.to_dict() for a in message.attachments])
                   if has_action_rows(components) else None)
        return cls(message.id, retired, webhook, expires_at)

    def editable_by_webhook(self) -> bool:
        return (self.webhook is not None and self.expires_at is not None
                and discord.utils.utcnow() < self.expires_at - FOLLOW_UP_TOKEN_MARGIN)


class PostedBoards:
    """The boards this process posted most recently (a bounded memory: a board not found here, posted
    before a restart or by another shard, is read back from Discord when it is retired)."""

    def __init__(self, keep: int = 2048) -> None:
        self.keep = keep
        self._boards: collections.OrderedDict[int, PostedBoard] = collections.OrderedDict()

    def add(self, board: PostedBoard) -> None:
        self._boards[board.message_id] = board
        self._boards.move_to_end(board.message_id)
        while len(self._boards) > self.keep:
            self._boards.popitem(last=False)

    def get(self, message_id: int) -> PostedBoard | None:
        return self._boards.get(message_id)

    def forget(self, message_id: int) -> None:
        self._boards.pop(message_id, None)


class Delivery:
    def __init__(self, client: discord.Client, host: GameHost):
        self.client = client
        self.host = host
        self._recaps: dict[int, asyncio.Task] = {}  # recaps under way in this process, by game
        self.later_edits = LaterEdits()
        self.status_edits = ThrottledEdits(STATUS_EDIT_WINDOW)
        self.boards = PostedBoards()

    @property
    def web_settings(self):
        """The web table's settings where the bot serves one (WEB_PORT): boards and panels then carry
        a Table button, and "your turn" DMs a link to the table."""
        return getattr(self.client, "web_settings", None)

    async def send(self, outbox: Outbox, interaction: discord.Interaction | None = None) -> None:
        """Deliver the actor's answer, the public posts, the secret panels, and what only others see.

        What an outbox tells was saved before it was made, so a part that fails is logged and the
        rest still goes out; a board Discord did not take is owed (posted again within seconds)
        and the actor hears that it counted and that the board follows, or, where Discord refused
        the bot a permission (a board, a pin), what was refused and how to see why.

        After a click acknowledged without a "thinking…" placeholder (``acknowledge_click``), a
        board for the channel of the click and the clicker's own next panel in their DMs go as the
        interaction's follow-ups, and the message clicked is edited through the click: Discord does
        not count interaction answers against the bot's 50 requests a second, which the channels'
        endpoints share with every game at once. The answer comes after them.

        A typed command whose board may be a follow-up too is answered first: its answer takes the
        placeholder's place (the first follow-up would, and would be as private as it), then the
        board follows. Their next action waits for that board all the same (``Landings``). What
        only the posts can tell (a board owed, a permission refused, DMs found closed) follows as a
        second private answer.

        What is for others (their panels, notices) goes after the answer, since under load it
        waits long behind the global limit and their DM channels' own limits; what nobody waits on
        (retired buttons, "your turn" DMs, an edit of the pinned status) goes in the background of
        the bot's pace (``in_background``)."""
        via = interaction if interaction is not None and answers_without_placeholder(interaction) else None
        answered, told, leaving = via is None and self._may_answer_first(interaction, outbox), [], []
        if answered:
            leaving = [post for post in outbox.posts  # a new message id to come
                       if post.board_version is not None and not (post.edit_in_place and post.replaces_message_id)]
            for post in leaving:  # before anything is awaited: see Landings
                self.host.landings.leaving(post.game_id, post.board_version)
            answered = await self._guarded(self._answer_first(interaction, outbox), "an answer before its board", 0)
            if answered:  # else it is tried again after the posts, which go the usual way
                told, outbox.reply = outbox.reply, []
                via = interaction
        board_owed, refused, later = False, [], []
        for post in outbox.posts:
            try:
                await self._post(post, refused, via=via, later=later)
            except NotPosted as e:
                board_owed |= e.owed and not e.refused
                if e.refused:
                    refused.append(T("perm.note.post_refused", id=post.game_id, channel=f"<#{post.channel_id}>"))
            except Exception:
                log.exception("bookkeeping after a post of game %s failed", post.game_id)
            if any(post is left for left in leaving):
                self.host.landings.landed(post.game_id, post.board_version)  # whatever became of it
        own = [p for p in outbox.privates if self._in_own_dm(p, via)]  # the clicker's next panel: part of the answer
        for private in own:
            await self._guarded(self.private(private, via=via), "a panel", private.game_id)
        for probe in outbox.dm_probes:
            if not await self.try_dm(probe):
                outbox.reply.append(T("panel.dm_closed_on_join"))
        if board_owed and not any(getattr(line, "key", None) == BOARD_FOLLOWS for line in told + outbox.reply):
            outbox.reply.append(T(BOARD_FOLLOWS))
        outbox.reply += refused
        if answered:
            if outbox.reply:
                await ephemeral(interaction, content=join_lines(language(interaction), outbox.reply),
                                allowed_mentions=discord.AllowedMentions.none())
        elif interaction is not None and (outbox.reply or outbox.reply_image or outbox.reply_controls):
            await self.reply(interaction, outbox)
        await self._for_others(outbox, [p for p in outbox.privates if not any(p is o for o in own)], later)

    async def show_due(self, interaction: discord.Interaction) -> None:
        """Where only interactions carry boards: the boards of this place's games that no
        interaction could carry yet (an AI's or a deadline's move, a follow-up refused) ride this
        one. Never raises: the person was answered already."""
        if not rides_interactions(interaction) or interaction.is_expired():
            return
        try:
            due = await self.host.boards_due_here(interaction.channel_id)
            for post in due.posts:
                await self._guarded(self._post(post, via=interaction), "a board shown late", post.game_id)
            await self._guarded(self.retire_notices(due.retire_notices), "retiring old notices", 0)
        except Exception:
            log.exception("could not show the boards due in %s", interaction.channel_id)

    async def _for_others(self, outbox: Outbox, privates: list[Private], later: list[Callable[[], Awaitable]]) -> None:
        """After the actor's answer: the other players' panels and notices, then, behind whatever a
        person waits on, the retired buttons and the steps ``_post`` left for later."""
        for private in privates:
            await self._guarded(self.private(private), "a panel", private.game_id)
        await self._guarded(self.notices(outbox.notices), "held and chosen notices", 0)
        with in_background():
            for ended in outbox.retire_undo:
                await self._guarded(self.retire_undo(ended), "retiring an undo post", ended.game_id)
            for ended in outbox.retire_proposals:
                await self._guarded(self.retire_proposal(ended), "retiring a proposal", ended.game_id)
            await self._guarded(self.retire_notices(outbox.retire_notices), "retiring old notices", 0)
            for step in later:
                await self._guarded(step(), "a step after the answer", 0)

    async def _answer_first(self, interaction: discord.Interaction, outbox: Outbox) -> None:
        fail_point("delivery.answer_first")  # tests: an answer Discord does not take (see bot/faults.py)
        await self.reply(interaction, outbox)

    def _may_answer_first(self, interaction: discord.Interaction | None, outbox: Outbox) -> bool:
        """A typed command still under its placeholder, with an answer to give and a board for the
        channel it was typed in, where the bot may post (as in ``answers_without_placeholder``)."""
        riding = rides_interactions(interaction)
        return (interaction is not None and (riding or interaction.type == discord.InteractionType.application_command)
                and (riding or bool(outbox.reply)) and waits_under_placeholder(interaction)
                and any(self._rides_interaction(post, interaction) for post in outbox.posts))

    @staticmethod
    def _in_own_dm(private: Private, interaction: discord.Interaction | None) -> bool:
        """A panel for the person whose interaction was made in their DMs with the bot (a click on
        their previous panel): it may come as that interaction's follow-up. (Only a one-to-one DM:
        a group's would show it to the group.)"""
        return (interaction is not None and interaction.guild_id is None and interaction.message is not None
                and interaction.user.id == private.user_id
                and getattr(interaction.channel, "type", None) == discord.ChannelType.private)

    @staticmethod
    def _rides_interaction(post: Post, interaction: discord.Interaction | None) -> bool:
        """A new board (not a lobby, an edit in place or a thread's first post) for the channel the
        interaction was made in; where the bot cannot post on its own (``rides_interactions``),
        every post for that channel, lobbies and edits included."""
        if interaction is None or post.channel_id != interaction.channel_id or post.quiet or post.open_thread is not None:
            return False
        if post.rides or rides_interactions(interaction):
            return True
        return (post.image is not None and post.board_version is not None
                and not (post.lobby or post.edit_in_place))

    @staticmethod
    async def _guarded(step, what: str, game_id: int) -> bool:
        """Await ``step``; a failure is logged (and False), never raised: the rest still goes out."""
        try:
            await step
        except Exception:
            log.exception("%s of game %s failed", what, game_id)
            return False
        return True

    async def post(self, post: Post) -> discord.Message | None:
        """One public message; None when there is nothing to send or Discord did not take it
        (a game's board is then owed: see ``GameHost.owe_board``)."""
        try:
            return await self._post(post)
        except NotPosted:
            return None

    def _owe(self, post: Post) -> bool:
        """A game's board that was not posted: the scheduler posts it again, drawn afresh. (Where
        only interactions carry boards, the game's next interaction shows it instead.)"""
        if post.board_version is None or post.lobby or post.rides:
            return False  # a lobby's message is its next change's to redo; other posts are one-offs
        self.host.owe_board(post.game_id, post.board_version)
        return True

    async def _post(self, post: Post, refused: list[Text] | None = None, via: discord.Interaction | None = None,
                    later: list[Callable[[], Awaitable]] | None = None) -> discord.Message | None:
        """Post (or edit in place) one public message; a pin Discord refuses is noted in ``refused``
        for the person whose action it was. ``via``: an interaction whose follow-up may carry it;
        ``later``: where to leave the steps that can wait until the actor is answered."""
        lang = post.lang
        channel = self.client.get_partial_messageable(post.channel_id, guild_id=post.guild_id)
        if post.rides and not post.quiet:
            return await self._post_riding(post, via, later)
        if post.quiet:  # nothing new for the channel: the version is shown, the pinned status follows
            await self.host.mark_posted(post.game_id, post.board_version, None)
            if post.status_lines:
                await self._status_now_or_later(channel, post, lang, refused, later)
            return None
        try:
            if post.board_version is not None and not post.lobby:
                fail_point("delivery.board")  # tests: a board Discord does not take (see bot/faults.py)
            message = await self._edit(channel, post, via) if post.edit_in_place else None
            if message is None and self._rides_interaction(post, via):
                message = await self._follow_up(via, post)
            if message is None:  # each attempt reads its files: the next one gets fresh ones
                message = await self._send(channel, post, self._post_kwargs(post))
        except Exception as e:  # Discord refused or is away, or the message could not be built
            log.exception("could not post game %s to channel %s", post.game_id, post.channel_id)
            raise NotPosted(self._owe(post), isinstance(e, discord.Forbidden)) from e
        channel = self.client.get_partial_messageable(post.channel_id, guild_id=post.guild_id)  # it may have moved
        if post.in_thread:
            await self.host.thread_touched(post.channel_id)
        if post.board_version is not None:
            if isinstance(message, discord.Message):  # a follow-up's handle is partial: already noted
                self.boards.add(PostedBoard.of(message))
            await self.host.mark_posted(post.game_id, post.board_version, message.id)
            if post.replaces_message_id and post.replaces_message_id != message.id:
                # a tournament game's first board opened its thread from the channel it was posted in
                home = (self.client.get_partial_messageable(post.starter_channel_id, guild_id=post.guild_id)
                        if post.starter_channel_id and post.replaces_message_id == post.channel_id else channel)
                await self._retire(home, post.replaces_message_id)
        if post.undo_version is not None:
            await self.host.undo_posted(post.game_id, post.undo_version, message.id)
        if post.proposal is not None:
            await self.host.proposal_posted(post.proposal[0], message.id)
        if post.announces is not None:  # a tournament's round, end or abandon: posted once
            await self.host.announcement_done(*post.announces)
        if post.open_thread is not None:
            await self._open_thread(message, post, lang)
        if post.dm_turn and not post.panel_button:  # secret steps already DM their panels
            await self._now_or_later(lambda: self._turn_dms(post, message), later)
        if post.status_lines:
            await self._status_now_or_later(channel, post, lang, refused, later)
        if post.recap:
            self.start_recap(post.game_id)
        return message

    async def _post_riding(self, post: Post, via: discord.Interaction | None,
                           later: list[Callable[[], Awaitable]] | None) -> discord.PartialMessage | None:
        """A post of a game played where the bot cannot post (a group DM): it rides ``via`` (an edit
        through the click, else a follow-up), or waits for the game's next interaction (its board
        stays unposted, ``GameHost.boards_due_here``). Either way the players it waits on hear of
        their turn by DM. Nothing is pinned, no thread is opened, no recap follows: those are the
        bot's own posts."""
        message = None
        if via is not None and via.channel_id == post.channel_id:
            try:
                message = await self._edit(None, post, via) if post.edit_in_place else None
                if message is None:
                    message = await self._follow_up(via, post)
            except Exception:
                log.exception("could not show game %s through an interaction", post.game_id)
        if message is not None and post.board_version is not None:
            await self.host.mark_posted(post.game_id, post.board_version, message.id)
            if post.replaces_message_id and post.replaces_message_id != message.id:
                await self._now_or_later(lambda: self._retire_riding(via, post.replaces_message_id), later)
        if message is not None and post.undo_version is not None:
            await self.host.undo_posted(post.game_id, post.undo_version, message.id)
        if message is not None and post.proposal is not None:
            await self.host.proposal_posted(post.proposal[0], message.id)
        if message is None:
            log.info("the board of game %s waits for the game's next interaction", post.game_id)
        if post.dm_turn:
            await self._now_or_later(lambda: self._riding_turn_dms(post, shown=message is not None), later)
        return message

    async def _riding_turn_dms(self, post: Post, shown: bool) -> None:
        """"Your turn" by DM for a game that rides interactions: what brings its board (a DM closed
        tells nothing, as Discord allows no other way)."""
        key = "install.turn_shown" if shown else "install.turn_waiting"
        for user_id, lang in post.dm_turn.items():
            sent = await self._dm(Private(user_id, post.game_id, [T(key, id=post.game_id)], lang=lang))
            if sent is not None and post.turn is not None:
                await self.host.notice_posted(sent.channel.id, sent.id, [(post.game_id, post.turn)])

    async def _retire_riding(self, via: discord.Interaction | None, message_id: int) -> None:
        """Strip the controls off a board where the bot cannot post: through the click made on it
        (its ``@original``), or the interaction that posted it while its token lasts; else they stay
        (a click on them is refused as stale and brings the current board)."""
        known = self.boards.get(message_id)
        stripped = known.retired if known is not None else None
        if via is not None and via.message is not None and via.message.id == message_id and not via.is_expired() \
                and via.response.type == discord.InteractionResponseType.deferred_message_update:
            if stripped is None:
                components = [c.to_dict() for c in via.message.components]
                stripped = (without_action_rows(components, [a.to_dict() for a in via.message.attachments])
                            if has_action_rows(components) else None)
            if stripped is not None:
                try:
                    await async_context.get().edit_original_interaction_response(
                        via.application_id, via.token, session=via._session,
                        payload={"components": stripped})
                    self.boards.forget(message_id)
                    return
                except discord.HTTPException as e:
                    log.info("could not retire board %s through the click on it (%s)", message_id, e.code)
        if known is not None and stripped is not None and known.editable_by_webhook():
            if await self._strip_by_webhook(known, stripped):
                self.boards.forget(message_id)

    @staticmethod
    async def _now_or_later(step: Callable[[], Awaitable], later: list[Callable[[], Awaitable]] | None) -> None:
        if later is None:
            await step()
        else:
            later.append(step)

    async def _status_now_or_later(self, channel, post: Post, lang: str, refused: list[Text] | None,
                                   later: list[Callable[[], Awaitable]] | None) -> None:
        """An edit of the pinned status can wait; its first post and pin are told to the actor."""
        step = lambda: self._update_status(channel, post, lang, refused)  # noqa: E731
        await (self._now_or_later(step, later) if post.status_message_id else step())

    async def _follow_up(self, interaction: discord.Interaction, post: Post) -> discord.PartialMessage | None:
        """A board as the interaction's public follow-up; None when Discord did not take it (the
        channel's endpoint is tried next, as for any post)."""
        if not spend_follow_up(interaction):
            log.info("interaction %s has no follow-up left for game %s's board", interaction.id, post.game_id)
            return None
        try:
            sent = await interaction.followup.send(wait=True, **self._post_kwargs(post))
        except discord.HTTPException as e:
            log.info("a follow-up board of game %s was refused (%s); posting it in the channel", post.game_id, e.code)
            return None
        self.boards.add(PostedBoard.of(sent, interaction.followup, interaction.expires_at))
        # the channel's own handle: its jump URL names the server (a follow-up's may not know it)
        channel = self.client.get_partial_messageable(post.channel_id, guild_id=post.guild_id)
        return channel.get_partial_message(sent.id)

    def _post_kwargs(self, post: Post) -> dict:
        """A post as discord.py's send arguments (built afresh for each send: files are read once)."""
        lang = post.lang
        view = None
        if post.lobby:
            view = lobby_view(post.game_id, lang, post.lobby_seats)
        elif post.controls is not None:
            view = controls_view(post.controls, lang)
        elif post.panel_button:
            view = panel_view(post.game_id, lang, form=post.form_button)
        elif post.rematch_button:
            view = rematch_view(post.game_id, lang)
        elif post.undo_version is not None:
            view = undo_answer_view(post.game_id, post.undo_version, lang)
        elif post.proposal is not None:
            view = proposal_view(post.game_id, *post.proposal, lang)
        if post.follow_button and post.undo_version is None and post.proposal is None:
            view = add_follow(view, post.game_id, lang)
        if post.image is not None and self.web_settings is not None:
            view = add_table(view, post.game_id, lang)
        kwargs = {"files": board_file(post.image), "allowed_mentions": discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in post.mentions])}
        if post.image is not None:  # a board: text, image and controls in one Components V2 message
            kwargs["view"] = board_layout(join_lines(lang, post.lines, MAX_V2_TEXT), alt_text(lang, post.alt_lines),
                                          post.accent, view_rows(view))
        else:  # a lobby, an undo request: text-only posts stay classic messages
            kwargs["content"] = join_lines(lang, post.lines)
            if view is not None:
                kwargs["view"] = view
        return kwargs

    # ---- the end-of-game recap ------------------------------------------------------------------------
    def start_recap(self, game_id: int) -> None:
        """Draw and post a finished game's recap in the background: it takes seconds, and neither the
        final post nor the reply of whoever made the last move waits for it."""
        if game_id not in self._recaps:
            task = asyncio.create_task(self.recap(game_id))
            self._recaps[game_id] = task
            task.add_done_callback(lambda _: self._recaps.pop(game_id, None))

    async def start_due_recaps(self) -> None:
        """Recaps that were never posted (a restart, a failure): the scheduler calls this."""
        for game_id in await self.host.due_recaps():
            self.start_recap(game_id)

    async def recap(self, game_id: int) -> None:
        """Post a recap once: only with the lease taken in the database, recorded once posted."""
        try:
            recap = await self.host.claim_recap(game_id)
            if recap is None:
                return
            channel = self.client.get_partial_messageable(recap.channel_id, guild_id=recap.guild_id)
            posted = await self._recap_in_channel(recap)
            if posted is not None:  # an earlier process posted it and died before recording it
                await self.host.recap_posted(game_id, posted)
                return
            try:
                message = await channel.send(content=join_lines(recap.lang, recap.lines),
                                             files=named_files([(recap.filename, recap.data)]),
                                             allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.exception("could not post the recap of game %s", game_id)
                await self.host.recap_failed(game_id)
                return
            crash_point("delivery.recap.sent")  # Discord has it, the database not yet
            await self.host.recap_posted(game_id, message.id)
        except Exception:
            log.exception("recap of game %s failed", game_id)

    async def _recap_in_channel(self, recap: Recap) -> int | None:
        """The id of this game's recap if the bot already posted it: its file name, by the bot,
        among the messages after the game's final board. The lease alone cannot tell: a process
        may die after Discord accepted the recap and before the database recorded it, and once
        the lease expires another process would post it again. (A message nonce would not do:
        Discord enforces one only for a few minutes, shorter than the lease.)"""
        me = self.client.user.id if self.client.user else None
        try:
            messages = await self.client.http.logs_from(recap.channel_id, RECAP_LOOKBACK, after=recap.after_message_id)
        except discord.HTTPException:
            log.info("could not read channel %s before posting the recap of game %s", recap.channel_id, recap.game_id)
            return None
        for m in messages:
            if int(m["author"]["id"]) == me and any(a.get("filename") == recap.filename for a in m.get("attachments", [])):
                return int(m["id"])
        return None

    async def _send(self, channel, post: Post, kwargs: dict) -> discord.Message:
        """Send. A game's thread that Discord archived is reopened first; one the bot may not post
        in (a moderator locked it, or its permission there was withdrawn) is left: the game moves
        to its channel and this post goes there, saying why."""
        try:
            return await channel.send(**kwargs)
        except discord.HTTPException as e:
            if not post.in_thread or not (e.code == THREAD_ARCHIVED or isinstance(e, discord.Forbidden)):
                raise
            refusal = e
        if refusal.code == THREAD_ARCHIVED:
            reopened = await self._reopen(post.channel_id)
            if reopened is None:
                raise refusal  # not refused, only failed: the board is posted again later
            if reopened:
                try:
                    return await channel.send(**self._post_kwargs(post))
                except discord.Forbidden:
                    pass
        return await self._move_to_channel(post)

    async def _move_to_channel(self, post: Post) -> discord.Message:
        thread_id = post.channel_id
        post.channel_id, post.in_thread = await self.host.left_thread(post.game_id), False
        post.status_lines, post.status_message_id = [], None  # the status message stays in the thread
        post.lines = [T("thread.moved", id=post.game_id, thread=f"<#{thread_id}>")] + post.lines
        log.info("game %s left thread %s for channel %s", post.game_id, thread_id, post.channel_id)
        channel = self.client.get_partial_messageable(post.channel_id, guild_id=post.guild_id)
        return await channel.send(**self._post_kwargs(post))

    async def keep_thread_open(self, thread_id: int) -> bool:
        """Unarchive a game's thread and restart its idle clock (games wait longer than 7 days). A
        thread the bot is refused (locked by a moderator, or no longer postable) is left: its games
        move to their channel, where their boards are posted again."""
        reopened = await self._reopen(thread_id)
        if reopened:
            await self.host.thread_touched(thread_id)
            return True
        if reopened is False:
            for post in await self.host.leave_thread(thread_id):
                await self.post(post)
        return False

    async def _reopen(self, thread_id: int) -> bool | None:
        """Unarchive (and, with Manage Threads, unlock) a game's thread: True once it is open, False
        when Discord refuses, None when the attempt failed otherwise."""
        try:
            data = await self.client.http.edit_channel(thread_id, archived=False,
                                                       auto_archive_duration=THREAD_ARCHIVE_MINUTES)
            if not (data or {}).get("thread_metadata", {}).get("locked"):
                return True
        except discord.Forbidden:
            pass  # locked: only Manage Threads reopens it; or the bot may no longer post there
        except discord.HTTPException:
            log.info("could not keep thread %s open", thread_id)
            return None
        try:  # locked: reopening it takes Manage Threads (asked for by the invite; a server may withhold it)
            await self.client.http.edit_channel(thread_id, archived=False, locked=False)
        except discord.HTTPException as e:
            log.info("thread %s stays shut to the bot (%s)", thread_id, e.code)
            return None if not isinstance(e, discord.Forbidden) else False
        return True

    async def _turn_dms(self, post: Post, message: discord.Message) -> None:
        """A DM "your turn" for the players who asked for reminders by DM (/game settings)."""
        for user_id, lang in post.dm_turn.items():
            lines = [T("reminder.your_turn", id=post.game_id, link=message.jump_url)]
            if self.web_settings is not None:  # and the link that opens this game's table
                lines.append(T("web.your_turn_link", link=table_link(self.web_settings, user_id, post.game_id,
                                                                     Where(post.guild_id, post.channel_id))))
            sent = await self._dm(Private(user_id, post.game_id, lines, lang=lang))
            if sent is not None and post.turn is not None:
                await self.host.notice_posted(sent.channel.id, sent.id, [(post.game_id, post.turn)])

    async def _open_thread(self, message: discord.Message, post: Post, lang: str) -> None:
        """Move the game into a thread on its lobby message; without permission, stay in the channel."""
        try:  # straight through the REST route: a partial channel carries no guild for Message.create_thread
            thread = await self.client.http.start_thread_with_message(
                message.channel.id, message.id, name=render(lang, post.open_thread)[:100],
                auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException:
            log.info("no thread for game %s; it stays in the channel", post.game_id)
            return
        await self.host.thread_created(post.game_id, int(thread["id"]))

    async def _update_status(self, channel, post: Post, lang: str, refused: list[Text] | None = None) -> None:
        """The thread's pinned status message: edited in place, created and pinned once. (Without
        Pin Messages, known at /game new or Start, the service puts the status in the boards.)"""
        content = join_lines(lang, post.status_lines)
        # The pinned status always offers "Follow" while the game runs (a board may have no room).
        view = follow_view(post.game_id, lang) if post.follow_button else None
        try:
            if post.status_message_id:
                status_id = post.status_message_id

                async def edit() -> None:
                    if not await self.later_edits.edit(channel.id, status_id, lambda: channel.get_partial_message(
                            status_id).edit(content=content, view=view)):
                        log.info("the status of game %s follows once Discord takes edits of old messages", post.game_id)
                await self.status_edits.edit(status_id, edit, urgent=not post.follow_button)
                return
            status = await channel.send(content=content, allowed_mentions=discord.AllowedMentions.none(),
                                        **({"view": view} if view is not None else {}))
            await self.host.status_posted(post.game_id, status.id)
        except discord.HTTPException:
            log.info("could not update the status message of game %s", post.game_id)
            return
        try:
            await status.pin()
        except discord.HTTPException as e:
            log.info("could not pin the status message of game %s (%s)", post.game_id, e.code)
            if isinstance(e, discord.Forbidden) and refused is not None:
                refused.append(T("perm.note.pin_refused", id=post.game_id))  # posted, and kept up to date, unpinned

    def _edit_kwargs(self, post: Post) -> dict:
        """A post as the arguments of an edit of the message it replaces (its files as attachments)."""
        kwargs = self._post_kwargs(post)
        return {k: v for k, v in kwargs.items() if k != "files"} | {"attachments": kwargs["files"], "view": kwargs.get("view")}

    async def _edit(self, channel, post: Post, via: discord.Interaction | None = None
                    ) -> discord.Message | discord.PartialMessage | None:
        """Edit the board in place; None when it is gone (a fresh one is posted). The board a click
        was made on is edited through that click (none of the global limit), and a board posted as
        an interaction's follow-up through it while its token lasts (see ``PostedBoard``)."""
        if not post.replaces_message_id:
            return None
        known = self.boards.get(post.replaces_message_id)
        if (via is not None and via.message is not None and via.message.id == post.replaces_message_id
                and via.response.type == discord.InteractionResponseType.deferred_message_update):
            try:
                edited = await via.edit_original_response(**self._edit_kwargs(post))
                self.boards.add(PostedBoard.of(edited, *((known.webhook, known.expires_at) if known else ())))
                return self._handle(post, edited.id)
            except discord.HTTPException as e:
                log.info("could not edit message %s through the click on it (%s)", post.replaces_message_id, e.code)
        if known is not None and known.editable_by_webhook():
            try:
                edited = await known.webhook.edit_message(post.replaces_message_id, **self._edit_kwargs(post))
                self.boards.add(PostedBoard.of(edited, known.webhook, known.expires_at))
                return self._handle(post, edited.id)
            except discord.HTTPException as e:
                log.info("could not edit board %s through its interaction (%s)", post.replaces_message_id, e.code)
        if post.rides:
            return None  # the bot's own edit is refused there: a fresh one rides the interaction
        try:
            return await channel.get_partial_message(post.replaces_message_id).edit(**self._edit_kwargs(post))
        except discord.HTTPException:
            return None  # gone: post a fresh one

    def _handle(self, post: Post, message_id: int) -> discord.PartialMessage:
        return self.client.get_partial_messageable(post.channel_id, guild_id=post.guild_id).get_partial_message(message_id)

    async def _retire(self, channel, message_id: int) -> None:
        """Strip the controls off the previous board (edited with the bot's token, never a stale
        one). A Components V2 board keeps its text and image and loses only its action rows (it can
        never drop its V2 flag nor take content); a classic message simply loses its rows. A board
        this process posted is known as posted, and one posted as a follow-up is edited through
        that interaction while its token lasts (not counted against the global rate limit); any
        other is read back first, since another process may have posted it. A board older than an
        hour may have to wait for Discord's old-message edit limit (``LaterEdits``)."""
        async def strip() -> None:
            known = self.boards.get(message_id)
            if known is not None:
                stripped = known.retired
            else:
                old = await self.client.http.get_message(channel.id, message_id)
                components = old.get("components") or []
                stripped = (without_action_rows(components, old.get("attachments") or [])
                            if has_action_rows(components) else None)
            if stripped is None:
                return  # already without controls
            if known is not None and known.editable_by_webhook() and await self._strip_by_webhook(known, stripped):
                self.boards.forget(message_id)
                return
            await self.client.http.request(
                Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=channel.id,
                      message_id=message_id), json={"components": stripped})
            self.boards.forget(message_id)
        try:
            await self.later_edits.edit(channel.id, message_id, strip)
        except discord.HTTPException:
            pass  # deleted or gone out of reach: its buttons are refused as stale anyway

    @staticmethod
    async def _strip_by_webhook(board: PostedBoard, components: list[dict]) -> bool:
        """Edit a follow-up board's components through its interaction's webhook; False when Discord
        did not take it (the bot's own endpoint is tried next)."""
        webhook = board.webhook
        try:
            await async_context.get().edit_webhook_message(
                webhook.id, webhook.token, board.message_id, session=webhook.session,
                payload={"components": components}, with_components=True)
        except discord.HTTPException as e:
            log.info("could not retire board %s through its interaction (%s)", board.message_id, e.code)
            return False
        return True

    async def retire_undo(self, ended: EndedUndo) -> None:
        """Remove the Agree / Decline buttons of an undo request that ended, and note it done (a
        message deleted meanwhile counts as done; another failure is tried again with the next post)."""
        channel = self.client.get_partial_messageable(ended.channel_id)

        async def strip() -> None:
            try:
                await channel.get_partial_message(ended.message_id).edit(view=None)
            except discord.NotFound:
                pass
            await self.host.undo_post_retired(ended.game_id, ended.version)
        try:
            await self.later_edits.edit(ended.channel_id, ended.message_id, strip)
        except discord.HTTPException:
            log.info("could not remove the undo buttons of game %s", ended.game_id)

    async def retire_proposal(self, ended: EndedProposal) -> None:
        """Remove the buttons of a proposal that ended (as :meth:`retire_undo`)."""
        channel = self.client.get_partial_messageable(ended.channel_id)
        try:
            await channel.get_partial_message(ended.message_id).edit(view=None)
        except discord.NotFound:
            pass
        except discord.HTTPException:
            log.info("could not remove the buttons of a proposal in game %s", ended.game_id)
            return
        await self.host.proposal_post_retired(ended.proposal_id)

    async def private(self, private: Private, via: discord.Interaction | None = None) -> None:
        """DM first (as ``via``'s follow-up when that was made in the player's DMs); when DMs are
        closed, tell the player in the channel and offer the panel button."""
        if self._in_own_dm(private, via) and spend_follow_up(via):
            try:
                await via.followup.send(wait=True, **self.private_kwargs(private, private.lang))
                return
            except discord.HTTPException as e:
                log.info("a follow-up panel of game %s was refused (%s); sending it by DM", private.game_id, e.code)
        if not await self.try_dm(private):
            if private.rides:  # the bot cannot post there: the panel is the clicker's own answer, or waits
                if via is not None and via.user.id == private.user_id and not via.is_expired():
                    await ephemeral(via, **self.private_kwargs(private, private.lang))
                return
            await self._fallback_notice(private)

    async def try_dm(self, private: Private) -> bool:
        """Send a DM and remember whether the player's DMs are open."""
        return await self._dm(private) is not None

    async def _dm(self, private: Private) -> discord.Message | None:
        lang = private.lang
        try:
            dm = await self.client.create_dm(discord.Object(private.user_id))
            message = await dm.send(**self.private_kwargs(private, lang))
        except discord.Forbidden:
            await self.host.note_dm(private.user_id, False)
            return None
        except discord.HTTPException:
            log.exception("could not DM user for game %s", private.game_id)
            return None
        await self.host.note_dm(private.user_id, True)
        return message

    async def notices(self, notices: list[Notice]) -> None:
        """Messages for one person each (pings released after their quiet hours, ...): by DM when
        they take them so, in the channel with a mention otherwise or when the DM fails. Where the
        bot cannot post (a group DM), by DM only."""
        riding = await self._riding(n.channel_id for n in notices)
        for notice in notices:
            game_id = notice.game_turns[0][0] if notice.game_turns else 0
            sent = None
            if notice.dm or notice.channel_id in riding:
                sent = await self._dm(Private(notice.user_id, game_id, notice.lines, lang=notice.dm_lang))
                if sent is not None:
                    await self.host.notice_posted(sent.channel.id, sent.id, notice.game_turns)
            if (sent is not None and not notice.channel) or notice.channel_id in riding:
                continue
            try:
                message = await self.client.get_partial_messageable(notice.channel_id).send(
                    content=join_lines(notice.lang, notice.lines),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(notice.user_id)]))
            except discord.HTTPException:
                log.exception("could not post a notice to %s", notice.channel_id)
                continue
            await self.host.notice_posted(notice.channel_id, message.id, notice.game_turns)

    async def retire_notices(self, stale: list[tuple[int, int]]) -> None:
        """Delete reminders and notices whose turns have passed (one already gone counts as done)."""
        for channel_id, message_id in stale:
            try:
                await self.client.http.delete_message(channel_id, message_id)
            except discord.HTTPException:
                log.info("could not delete old notice %s in %s", message_id, channel_id)

    async def _fallback_notice(self, private: Private) -> None:
        lang = private.home_lang
        channel = self.client.get_partial_messageable(private.home_channel_id)
        try:
            await channel.send(content=t(lang, "panel.dm_closed", user=f"<@{private.user_id}>"),
                               view=panel_view(private.game_id, lang,
                                               form=private.controls is not None and private.controls.form),
                               allowed_mentions=discord.AllowedMentions(users=[discord.Object(private.user_id)]))
        except discord.HTTPException:
            log.exception("could not post the panel fallback for game %s", private.game_id)

    async def reminders(self, reminders: list[Reminder]) -> None:
        """One message per channel naming everyone it waits on who takes reminders there, and a DM
        for those who take them by DM; each is deleted once its games' turns passed. Where the bot
        cannot post (a group DM), by DM only."""
        by_channel: dict[int, list[Reminder]] = {}
        riding = await self._riding(r.channel_id for r in reminders)
        for reminder in reminders:
            turns = list(zip(reminder.game_ids, reminder.turns))
            in_place = reminder.channel_id not in riding
            if reminder.channel and in_place:
                by_channel.setdefault(reminder.channel_id, []).append(reminder)
            if reminder.dm or not in_place:
                sent = await self._dm(Private(reminder.user_id, reminder.game_ids[0], reminder.lines,
                                              lang=reminder.dm_lang))
                if sent is not None:
                    await self.host.notice_posted(sent.channel.id, sent.id, turns)
                elif not reminder.channel and in_place:  # the DM failed: the channel it is
                    by_channel.setdefault(reminder.channel_id, []).append(reminder)
        posted = await self._post_per_place(by_channel)
        for channel_id, message in posted.items():
            turns = [t for r in by_channel[channel_id] for t in zip(r.game_ids, r.turns)]
            await self.host.notice_posted(channel_id, message.id, turns)

    async def follow_notices(self, notices: list[FollowNotice]) -> None:
        """Spectators' turn notices: by DM for those who chose DMs, else (or when the DM fails) one
        message per place naming each follower it tells (by DM only where the bot cannot post)."""
        by_channel: dict[int, list[FollowNotice]] = {}
        riding = await self._riding(n.channel_id for n in notices)
        for notice in notices:
            if (notice.dm or notice.channel_id in riding) and await self.try_dm(
                    Private(notice.user_id, notice.game_ids[0], notice.lines, lang=notice.dm_lang)):
                continue
            if notice.channel_id not in riding:
                by_channel.setdefault(notice.channel_id, []).append(notice)
        await self._post_per_place(by_channel)

    async def _riding(self, channel_ids) -> set[int]:
        """The places among these where the bot cannot post on its own (its games ride interactions)."""
        try:
            return await self.host.places_riding_interactions([c for c in channel_ids if c is not None])
        except Exception:
            log.exception("could not tell which places ride interactions")
            return set()

    async def _post_per_place(self, by_channel: dict[int, list[Reminder | FollowNotice]]) -> dict[int, discord.Message]:
        """One message per place, pinging only the people it names (reminders, follow notices)."""
        posted = {}
        for channel_id, group in by_channel.items():
            try:
                posted[channel_id] = await self.client.get_partial_messageable(channel_id).send(
                    content=join_lines(group[0].lang, [line for item in group for line in item.lines]),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(i.user_id) for i in group]))
            except discord.HTTPException:
                log.exception("could not post to %s", channel_id)
        return posted

    def private_kwargs(self, private: Private, lang: str) -> dict:
        kwargs = {"content": join_lines(lang, private.lines), "files": board_file(private.image)}
        if private.controls is not None:
            kwargs["view"] = controls_view(private.controls, lang)
        if private.image is not None and self.web_settings is not None:  # a panel: its table too
            kwargs["view"] = add_table(kwargs.get("view"), private.game_id, lang)
        return kwargs

    async def reply(self, interaction: discord.Interaction, outbox: Outbox) -> None:
        """The answer for the person who asked; long answers arrive as several messages."""
        lang = language(interaction)
        texts = pages(lang, outbox.reply) or ["\u200b"]
        for text in texts[:-1]:
            await ephemeral(interaction, content=text, allowed_mentions=discord.AllowedMentions.none())
        # Replies never ping: a leaderboard or a history names people as mentions only to show them.
        kwargs = {"content": texts[-1], "files": board_file(outbox.reply_image) + named_files(outbox.reply_files),
                  "allowed_mentions": discord.AllowedMentions.none()}
        if outbox.reply_controls is not None:
            kwargs["view"] = controls_view(outbox.reply_controls, lang, direct_limit=MOST_ACTION_BUTTONS)
        elif outbox.reply_viewer is not None:
            kwargs["view"] = viewer_view(outbox.reply_viewer, lang)
        elif outbox.reply_unfollow is not None:
            kwargs["view"] = follow_view(outbox.reply_unfollow, lang, "off")
        if outbox.reply_undo is not None:
            kwargs.setdefault("view", discord.ui.View(timeout=None))
            add_undo_ask(kwargs["view"], *outbox.reply_undo, lang)
        await ephemeral(interaction, **kwargs)

    async def edit_viewer(self, interaction: discord.Interaction, outbox: Outbox) -> None:
        """A replay viewer's click: the viewer message itself shows the new step."""
        lang = language(interaction)
        await interaction.edit_original_response(content=join_lines(lang, outbox.reply),
                                                 attachments=board_file(outbox.reply_image),
                                                 view=viewer_view(outbox.reply_viewer, lang))


THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)


def reach_of(interaction: discord.Interaction) -> Reach | None:
    """The bot's permissions where an interaction was made, as Discord resolved them for that
    channel or thread (overwrites included) and sent with it; None in a DM."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    in_thread = getattr(interaction.channel, "type", None) in THREAD_TYPES
    return Reach(interaction.channel_id, interaction.app_permissions.value, in_thread)


def language(interaction: discord.Interaction) -> str:
    return language_of(interaction.locale)


async def acknowledge_click(interaction: discord.Interaction) -> bool:
    """Acknowledge a click on a game's button as an update of its message, with no "thinking…"
    placeholder: the answer and the next board then come as independent follow-ups (see
    ``Delivery.send``). False as for ``acknowledge``."""
    return await acknowledge(interaction)


def answers_without_placeholder(interaction: discord.Interaction) -> bool:
    """Acknowledged as a click (no placeholder waiting to be replaced), its token still fresh, and
    made where the bot could post a board of its own: Discord takes an interaction's follow-ups
    even where the bot may not post, and a game should not play on in a place only while its
    players click (the bot's own posts there, a timeout's or an AI's, would be refused)."""
    return _acknowledged_as(interaction, discord.InteractionResponseType.deferred_message_update)


def waits_under_placeholder(interaction: discord.Interaction) -> bool:
    """Acknowledged with a "thinking…" placeholder nothing has replaced yet, its token still fresh,
    and made where the bot could post a board of its own (see ``answers_without_placeholder``)."""
    return _acknowledged_as(interaction, discord.InteractionResponseType.deferred_channel_message)


def _acknowledged_as(interaction: discord.Interaction, kind: discord.InteractionResponseType) -> bool:
    reach = reach_of(interaction)
    return (interaction.response.type == kind and not interaction.is_expired()
            and (rides_interactions(interaction) or reach is None or not reach.to_show()))


def rides_interactions(interaction: discord.Interaction | None) -> bool:
    """Made where the bot cannot post on its own: a group DM or a DM between friends (the app
    installed to someone's account), or a server that never added the bot. Every board there rides
    an interaction, as its answer or a follow-up."""
    if interaction is None:
        return False
    if interaction.context.private_channel:
        return True
    return interaction.guild_id is not None and not interaction.is_guild_integration()


_follow_ups: collections.OrderedDict[int, int] = collections.OrderedDict()  # interaction id -> follow-ups sent


def installed_where_used(interaction: discord.Interaction) -> bool:
    """The app is installed to the place of ``interaction`` (its owners hold ``GUILD_INSTALL``):
    a server that added the bot, or the bot's own DM. discord.py 2.7 keeps the owners private and
    tells only ``is_guild_integration()`` (a server's); in the bot's DM the app is there as the bot."""
    return interaction.is_guild_integration() or bool(interaction.context.dm_channel)


def spend_follow_up(interaction: discord.Interaction) -> bool:
    """Count a follow-up of ``interaction``; False when none is left: Discord takes at most 5 where
    the app is installed only to a person's account, not to the server (or group) it is used in."""
    if installed_where_used(interaction):  # no such limit
        return True
    spent = _follow_ups.get(interaction.id, 0)
    if spent >= MOST_FOLLOW_UPS:
        return False
    _follow_ups[interaction.id] = spent + 1
    _follow_ups.move_to_end(interaction.id)
    while len(_follow_ups) > 4096:
        _follow_ups.popitem(last=False)
    return True


async def acknowledge(interaction: discord.Interaction, **defer) -> bool:
    """Defer, inside Discord's 3 seconds, so the answer may follow. False when Discord no longer
    knows the interaction (this came too late: a stalled process): the person was shown that it
    failed, so nothing is done (they may try again); any other failure is raised."""
    try:
        await interaction.response.defer(**defer)
    except discord.NotFound as e:
        if e.code != UNKNOWN_INTERACTION:
            raise
        log.warning("interaction %s was acknowledged after Discord's 3 seconds; not acted on", interaction.id)
        return False
    return True


async def ephemeral(interaction: discord.Interaction, **kwargs) -> None:
    """Answer only the person who asked: the first response, or a follow-up after a defer. An
    answer held up past the interaction token's 15 minutes (an outage, rate limits, a queue)
    cannot be a follow-up any more: it goes by DM (see ``late_answer``)."""
    if not interaction.response.is_done():
        await interaction.response.send_message(ephemeral=True, **kwargs)
        return
    if interaction.is_expired() or not spend_follow_up(interaction):  # discord.py dates the token by its id
        await late_answer(interaction, **kwargs)
        return
    try:
        await interaction.followup.send(ephemeral=True, **kwargs)
    except discord.HTTPException as e:
        if e.code != INVALID_WEBHOOK_TOKEN:  # expired on Discord's clock though not on ours
            raise
        for f in kwargs.get("files") or []:
            f.reset()  # the refused follow-up read them
        await late_answer(interaction, **kwargs)


async def late_answer(interaction: discord.Interaction, **kwargs) -> None:
    """An answer whose interaction token expired: a normal message in the person's DMs (private, as
    the answer was; it may name a secret choice), saying why it comes there. With their DMs
    closed, a line in the channel where they asked, naming them and nothing of the answer."""
    lang = language(interaction)
    note = t(lang, "delivery.late_dm")
    content = kwargs.get("content") or ""
    if len(note) + 1 + len(content) <= MAX_CONTENT:
        kwargs["content"] = f"{note}\n{content}" if content else note
    log.info("the answer to interaction %s came after its token expired: sent by DM", interaction.id)
    try:
        await interaction.user.send(**kwargs)
        return
    except discord.Forbidden:
        pass
    if rides_interactions(interaction):  # the bot cannot post there: nothing more can reach them
        log.info("the late answer to interaction %s reached nobody (DMs closed, a group DM)", interaction.id)
        return
    channel = interaction.client.get_partial_messageable(interaction.channel_id, guild_id=interaction.guild_id)
    await channel.send(content=t(lang, "delivery.late_channel", user=interaction.user.mention),
                       allowed_mentions=discord.AllowedMentions(users=[interaction.user]))

