"""What the service hands the adapter: refusals, and outboxes of posts, panels and replies.

An outbox carries everything delivery needs (the language of each message, whether a player's DMs
are open or wanted, where to fall back), so that sending is only sending.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..i18n import T, Text


class ServiceError(Exception):
    """A refusal for the person who asked; ``key`` is under ``error.`` in the catalogues."""

    def __init__(self, key: str, **params):
        super().__init__(key)
        self.key = key
        self.params = params

    @property
    def text(self) -> Text:
        return T(f"error.{self.key}", **self.params)


# The most actions one answer offers as buttons (Discord allows 25 under a message); beyond that,
# menus name the next steps, and an action is named only where it is a step's only one.
MOST_ACTION_BUTTONS = 25


@dataclass
class Controls:
    """The choices offered to a seat: the next steps below ``prefix``, each with its actions."""

    game_id: int
    version: int
    prefix: tuple[str, ...]
    choices: dict[str, list[str]]  # next step -> the legal actions it leads to, in order
    labels: dict[str, "Text"] = field(default_factory=dict)  # a step or action in words (else its notation)
    question: "Text | None" = None  # what the menu asks for
    pinned: list[str] = field(default_factory=list)  # actions shown as buttons before any menu (``go``)
    form: bool = False  # the step can also be answered in one dialog (Game.form)

    @property
    def actions(self) -> list[str]:
        return [a for actions in self.choices.values() for a in actions]


@dataclass
class Post:
    """A public message in the game's channel (or thread)."""

    game_id: int
    channel_id: int
    lines: list[Text]
    lang: str = "en"  # the server's language for this game
    in_thread: bool = False  # channel_id is the game's own thread
    image: bytes | None = None
    controls: Controls | None = None
    guild_id: int | None = None
    lobby: bool = False
    lobby_seats: list[tuple[int, "Text"]] = field(default_factory=list)  # seats the creator may remove
    panel_button: bool = False
    form_button: bool = False  # beside "my panel": a seat's secret step as one dialog (Game.form)
    mentions: list[int] = field(default_factory=list)
    dm_turn: dict[int, str] = field(default_factory=dict)  # mentioned players who asked for a DM too -> language
    board_version: int | None = None  # set when this is the board post for that version
    replaces_message_id: int | None = None  # the previous board, whose buttons go stale
    edit_in_place: bool = False  # lobbies update their one message instead of posting anew
    rematch_button: bool = False
    open_thread: Text | None = None  # start a thread on this message and move the game there
    status_lines: list[Text] = field(default_factory=list)  # the pinned status message in the thread
    status_message_id: int | None = None
    undo_version: int | None = None  # an undo request asked at this version: agree / decline buttons
    quiet: bool = False  # nothing new for the channel: record the version, update the pinned status only
    recap: bool = False  # the game's final post: its animated recap follows (once, see Delivery.recap)
    follow_button: bool = False  # a running game's board: offer spectators "Follow" (where a row has room)
    accent: int | None = None  # 0xRRGGBB of the seat to act: the board's frame (one-message boards)
    alt_lines: list[Text] = field(default_factory=list)  # the public position in words: the image's alt text
    announces: tuple[int, int] | None = None  # (tournament, stage): this post announces that stage
    starter_channel_id: int | None = None  # where the replaced board is when it started the game's thread
    hold_as: str = "turn"  # what a mention of someone in their quiet hours is held as (bot/service/quiet.py)
    turn: int | None = None  # a board's turn (its "your turn" DMs are deleted once it passed)
    proposal: tuple[int, str] | None = None  # (id, kind) of a proposal asked here: agree / decline buttons
    rides: bool = False  # a place the bot cannot post in (a group DM): only an interaction carries it


@dataclass
class Private:
    """A secret panel for one player: DM first, ephemeral "my panel" as the fallback."""

    user_id: int
    game_id: int
    lines: list[Text]
    image: bytes | None = None
    controls: Controls | None = None
    lang: str = "en"  # the player's own language
    home_channel_id: int | None = None  # where to tell them when their DMs are closed
    home_lang: str = "en"
    rides: bool = False  # the home is a place the bot cannot post in: no notice there


@dataclass
class FormSpec:
    """A seat's secret step as one dialog: a title and at most 5 questions, each with its choices
    ``(value, words)``; the dialog is valid for ``version`` and only for ``owner``."""

    game_id: int
    version: int
    owner: int
    title: Text
    fields: list[tuple[Text, list[tuple[str, Text]]]]


@dataclass
class Viewer:
    """The replay viewer's controls: where each button leads, the steps the jump menus offer, and
    the points of view this user may switch between (None = the public view)."""

    game_id: int
    owner_id: int
    step: int
    steps: int
    pov: int | None
    povs: list[tuple[int | None, Text]] = field(default_factory=list)
    jumps: list[list[tuple[int, Text]]] = field(default_factory=list)  # one list per menu (at most 2)


@dataclass
class Outbox:
    reply: list[Text] = field(default_factory=list)
    reply_image: bytes | None = None
    reply_controls: Controls | None = None
    reply_undo: tuple[int, int] | None = None  # (game id, version): offer the actor a "take back" button
    reply_viewer: Viewer | None = None  # the replay viewer (shown in place when it was clicked)
    reply_files: list[tuple[str, bytes]] = field(default_factory=list)  # (file name, content), e.g. an export
    reply_unfollow: int | None = None  # a game just followed: offer an "Unfollow" button
    posts: list[Post] = field(default_factory=list)
    privates: list[Private] = field(default_factory=list)
    dm_probes: list[Private] = field(default_factory=list)  # "can I DM you?" when joining a secret game
    retire_undo: list["EndedUndo"] = field(default_factory=list)  # undo posts whose buttons must go
    notices: list["Notice"] = field(default_factory=list)  # messages for one person beside the posts
    retire_notices: list[tuple[int, int]] = field(default_factory=list)  # (channel, message) of stale notices
    retire_proposals: list["EndedProposal"] = field(default_factory=list)  # proposal posts whose buttons must go


@dataclass
class EndedUndo:
    """The post of an undo request that ended (agreed, declined or lapsed): remove its buttons."""

    game_id: int
    channel_id: int
    version: int  # the request's version, as the store keys it
    message_id: int


@dataclass
class EndedProposal:
    """The post of a proposal (vote, offer, hand-over) that ended: remove its buttons."""

    game_id: int
    channel_id: int
    proposal_id: int
    message_id: int


@dataclass
class Recap:
    """A finished game's animated recap, claimed for posting by one process."""

    game_id: int
    channel_id: int
    guild_id: int | None
    lang: str
    lines: list[Text]
    data: bytes
    filename: str  # names the game, so a recap already in the channel is recognised by it
    in_thread: bool = False
    after_message_id: int | None = None  # the final board: a recap already posted comes after it


@dataclass
class GameSummary:
    id: int
    game: str
    status: str
    user_ids: list[int]
    to_act_user_ids: list[int]
    channel_id: int
    thread_id: int | None
    deadline_at: str | None = None
    on_vacation: list[int] = field(default_factory=list)


@dataclass
class Reminder:
    """One combined reminder: a player and every game that waits on them in one place."""

    user_id: int
    game_ids: list[int]
    deadlines: list[str | None]
    channel_id: int | None = None
    lines: list[Text] = field(default_factory=list)
    lang: str = "en"  # the channel's language
    dm: bool = False  # the player also wants it by DM
    dm_lang: str = "en"
    turns: list[int] = field(default_factory=list)  # each game's turn (the notice goes once it passed)
    channel: bool = True  # the player wants it in the channel (bot/service/pings.py)


@dataclass
class FollowNotice:
    """One combined turn notice for a spectator: every game they follow in one place whose turn
    changed since they were last told. Public facts only (who must act, where), never a secret."""

    user_id: int
    channel_id: int
    game_ids: list[int]
    lines: list[Text] = field(default_factory=list)
    lang: str = "en"  # the place's language
    dm: bool = False  # they chose DMs (/game settings dm_reminders) and their DMs are not known closed
    dm_lang: str = "en"


@dataclass
class Notice:
    """A message for one person beside the board posts (the pings held through their quiet hours,
    released as one). Posted in ``channel_id`` with a mention, or sent by DM; a failed DM falls
    back to the channel."""

    user_id: int
    channel_id: int
    lines: list[Text]
    game_turns: list[tuple[int, int]]  # (game id, turn) it speaks of
    lang: str = "en"  # the place's language
    dm: bool = False
    dm_lang: str = "en"
    channel: bool = True  # also (or only) in the channel
    hold_as: str | None = "turn"  # held as this while the person is quiet (None: not held, dropped)
