"""A local stand-in for Discord: REST API + gateway websocket, in one aiohttp application.

Start it inside the test process, point the bot at ``fake.api_base`` (env ``DISCORD_API_BASE``),
then drive the bot with ``send_slash`` / ``click_button`` / ``select`` / ``autocomplete`` /
``submit_modal`` and assert on what it recorded.  See README.md beside this file.
"""

from __future__ import annotations

import asyncio
import collections
import copy
import json
import logging
import re
import secrets
import time
import zlib
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Union

from aiohttp import WSMsgType, web

from bot.common.permissions import INVITE_INTEGER

from . import openapi as OA
from . import validate as V
from .activities import FLAG_EMBEDDED, ActivitiesMixin
from .ratelimits import Limited, RateLimiter
from .records import (
    HANG_BOUND_SECONDS,
    AttachmentRecord,
    CallbackRecord,
    FileRecord,
    InteractionHandle,
    InteractionRecord,
    MessageRecord,
    RequestRecord,
    Violation,
    Waiters,
)
from .util import SnowflakeFactory, image_size, iso_from_snowflake, iso_now, make_png, sniff_content_type, to_json

log = logging.getLogger("fakediscord")

API_VERSION = 10
API_PREFIX = f"/api/v{API_VERSION}"

# Permission bits (https://discord.com/developers/docs/topics/permissions)
P = {
    "CREATE_INSTANT_INVITE": 1 << 0,
    "ADMINISTRATOR": 1 << 3,
    "MANAGE_CHANNELS": 1 << 4,
    "MANAGE_GUILD": 1 << 5,
    "ADD_REACTIONS": 1 << 6,
    "VIEW_CHANNEL": 1 << 10,
    "SEND_MESSAGES": 1 << 11,
    "SEND_TTS_MESSAGES": 1 << 12,
    "MANAGE_MESSAGES": 1 << 13,
    "EMBED_LINKS": 1 << 14,
    "ATTACH_FILES": 1 << 15,
    "READ_MESSAGE_HISTORY": 1 << 16,
    "MENTION_EVERYONE": 1 << 17,
    "USE_EXTERNAL_EMOJIS": 1 << 18,
    "CHANGE_NICKNAME": 1 << 26,
    "USE_APPLICATION_COMMANDS": 1 << 31,
    "MANAGE_THREADS": 1 << 34,
    "CREATE_PUBLIC_THREADS": 1 << 35,
    "CREATE_PRIVATE_THREADS": 1 << 36,
    "SEND_MESSAGES_IN_THREADS": 1 << 38,
    "PIN_MESSAGES": 1 << 51,
    "BYPASS_SLOWMODE": 1 << 52,
}
ALL_PERMISSIONS = (1 << 53) - 1
EVERYONE_PERMISSIONS = (
    P["CREATE_INSTANT_INVITE"] | P["ADD_REACTIONS"] | P["VIEW_CHANNEL"] | P["SEND_MESSAGES"] | P["EMBED_LINKS"]
    | P["ATTACH_FILES"] | P["READ_MESSAGE_HISTORY"] | P["USE_EXTERNAL_EMOJIS"] | P["CHANGE_NICKNAME"]
    | P["USE_APPLICATION_COMMANDS"] | P["CREATE_PUBLIC_THREADS"] | P["SEND_MESSAGES_IN_THREADS"]
)
# A server that invited the bot with the link its docs give (docs/permissions.md): its role grants that.
BOT_PERMISSIONS = INVITE_INTEGER
# Without Send Messages one cannot use what only sending carries (Discord's "implicit permissions").
NEEDS_SEND = P["MENTION_EVERYONE"] | P["SEND_TTS_MESSAGES"] | P["ATTACH_FILES"] | P["EMBED_LINKS"]
# What is left in a locked thread to whoever lacks Manage Threads (Discord's change of March 2023).
LOCKED_THREAD_PERMISSIONS = P["VIEW_CHANNEL"] | P["READ_MESSAGE_HISTORY"] | P["ADD_REACTIONS"] | P["USE_EXTERNAL_EMOJIS"]
THREAD_TYPES = (10, 11, 12)
DM_APP_PERMISSIONS = P["ATTACH_FILES"] | P["EMBED_LINKS"] | P["MENTION_EVERYONE"] | P["USE_EXTERNAL_EMOJIS"]

# Gateway intents
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

# Interaction types / callback types
I_PING, I_COMMAND, I_COMPONENT, I_AUTOCOMPLETE, I_MODAL = 1, 2, 3, 4, 5
MIB = 1024 * 1024
TOKEN_LIFETIME = 15 * 60  # seconds an interaction token is valid on Discord
GROUP_DM = 3  # a channel type: a group DM of friends, which a bot never joins
MOST_USER_INSTALL_FOLLOW_UPS = 5  # follow-ups of an interaction whose owners hold only USER_INSTALL
MOST_APP_EMOJIS = 2000
MAX_EMOJI_BYTES = 256 * 1024
EMOJI_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
UPLOAD_LIMITS = {0: 8 * MIB, 1: 8 * MIB, 2: 50 * MIB, 3: 100 * MIB}  # per file, by server boost tier

ALLOWED_CALLBACKS = {  # 12: LAUNCH_ACTIVITY, for commands, components and modal submits
    I_PING: {1},
    I_COMMAND: {4, 5, 9, 12},
    I_COMPONENT: {4, 5, 6, 7, 9, 12},
    I_AUTOCOMPLETE: {8},
    I_MODAL: {4, 5, 6, 7, 12},
}

UserRef = Union[dict, int, str, None]


class HTTPError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: dict | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.headers: dict[str, str] = {}
        self.body: dict = {"message": message, "code": code}
        if errors:
            self.body["errors"] = errors


@dataclass
class _Ctx:
    request: web.Request
    method: str
    path: str
    json: Any
    files: list[FileRecord]
    query: dict
    record: RequestRecord
    bearer_user: Optional[dict] = None  # the user whose OAuth2 token authorised the request


class _Conn:
    """One gateway websocket connection."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request, compress: Optional[str]) -> None:
        self.ws = ws
        self.request = request
        self.compress = compress
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._lock = asyncio.Lock()
        self.session: Optional[_Session] = None

    @property
    def open(self) -> bool:
        return not self.ws.closed

    async def send(self, payload: dict) -> None:
        text = to_json(payload)
        async with self._lock:
            if self.ws.closed:
                raise ConnectionResetError("gateway connection closed")
            if self._zlib is not None:
                data = self._zlib.compress(text.encode("utf-8")) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(text)


class _Session:
    def __init__(self, session_id: str, identify: dict) -> None:
        self.id = session_id
        self.identify = identify
        self.intents: int = int(identify.get("intents") or 0)
        self.shard = identify.get("shard")
        self.seq = 0
        self.buffer: list[dict] = []  # every dispatch sent in this session, for RESUME replay
        self.conn: Optional[_Conn] = None
        self.live = False  # READY/RESUMED sent on an open connection

    @property
    def connected(self) -> bool:
        return self.live and self.conn is not None and self.conn.open


class _Guild:
    def __init__(self, data: dict) -> None:
        self.data = data  # static guild fields (id, name, preferred_locale, roles, owner_id...)
        self.members: dict[int, dict] = {}
        self.channel_ids: list[int] = []
        self.thread_ids: list[int] = []

    @property
    def id(self) -> int:
        return int(self.data["id"])

    @property
    def locale(self) -> str:
        return self.data["preferred_locale"]


def _valid_shard(shard: Any) -> bool:
    """IDENTIFY's ``shard``: ``[shard_id, num_shards]`` with ``0 <= shard_id < num_shards``."""
    return (isinstance(shard, list) and len(shard) == 2 and all(type(x) is int for x in shard)
            and 0 <= shard[0] < shard[1])


def _event_guild(event: str, data: Any) -> Optional[int]:
    """The guild a dispatch belongs to (its shard receives it); None for DMs and the like."""
    if not isinstance(data, dict):
        return None
    gid = data.get("guild_id")
    if gid is None and event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
        gid = data.get("id")
    return int(gid) if gid else None


class FakeDiscord(ActivitiesMixin):
    """A fake Discord for one bot application. See the module docstring and README.md."""

    def __init__(
        self,
        *,
        token: Optional[str] = None,
        bot_name: str = "TabletopBot",
        users: Iterable[Union[str, dict]] = ("alice", "bob", "carol"),
        dm_closed: Iterable[UserRef] = (),
        guild_name: str = "Fake Guild",
        guild_locale: str = "en-US",
        channels: Iterable[str] = ("general", "games"),
        heartbeat_interval: int = 45000,
        response_deadline: float = 3.0,
        token_lifetime: float = TOKEN_LIFETIME,
        max_file_size: int = 25 * 1024 * 1024,
        connect_timeout: float = 15.0,
        allowed_privileged_intents: Optional[int] = None,
        bot_permissions: int = BOT_PERMISSIONS,
        shards_required: Optional[int] = None,
        openapi: bool = True,
        rate_limits: Optional[dict[str, tuple[int, float]]] = None,
        global_rate_limit: Optional[tuple[int, float]] = None,
        old_message_age: float = 3600.0,
        old_message_edits: tuple[int, float] = (3, 6.0),
        activities: bool = False,
        client_secret: Optional[str] = None,
    ) -> None:
        self.token = token
        # The Activity side (activities.py): Activities enabled or not, the OAuth2 client secret,
        # codes, tokens and running instances.
        self._init_activities(activities=activities, client_secret=client_secret)
        # Request bodies against Discord's published description (openapi.py); None (where it is
        # absent, or turned off) checks only the stand-in's own rules.
        self.openapi = OA.contract() if openapi else None
        # Per-route and global rate limits (ratelimits.py); None: no limits at all.
        self._limiter = (RateLimiter(rate_limits or {}, global_rate_limit, self._clock)
                         if rate_limits is not None or global_rate_limit is not None else None)
        self.rate_limited: list[Limited] = []  # every request refused with 429
        # Discord's limit on editing old messages: past ``old_message_age`` seconds, a channel's
        # messages take ``old_message_edits`` = (edits, per seconds), then 400 30046.
        self.old_message_age = old_message_age
        self.old_message_edits = old_message_edits
        self._old_edits: dict[int, list[float]] = {}  # channel id -> times of its old messages' edits
        self.old_edit_refusals: list[tuple[int, int]] = []  # (channel id, message id) refused with 30046
        # Discord refuses an IDENTIFY with fewer shards than a big bot needs (close 4011); None: never.
        self.shards_required = shards_required  # None: accept any "Bot <token>"
        self.heartbeat_interval = heartbeat_interval
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.max_file_size = max_file_size
        self.connect_timeout = connect_timeout
        self.allowed_privileged_intents = PRIVILEGED_INTENTS if allowed_privileged_intents is None else allowed_privileged_intents
        self.bot_permissions = bot_permissions

        self._snow = SnowflakeFactory()
        self._dated_snow = SnowflakeFactory(worker=1)  # interaction ids dated back (see _interaction_id)
        self._waiters = Waiters()
        self._tasks: set[asyncio.Task] = set()
        self._timers: list[asyncio.TimerHandle] = []
        self._runner: Optional[web.AppRunner] = None
        self.port: Optional[int] = None

        # records
        self.requests: list[RequestRecord] = []
        self.latencies: list[tuple[str, re.Pattern, float]] = []  # (method, path pattern, seconds): see slow()
        self.abandoned_requests: list[RequestRecord] = []
        self.violations: list[Violation] = []
        self.unknown_routes: list[tuple[str, str]] = []
        self.dm_failures: list[tuple[int, dict]] = []  # (user id, message payload) refused with 50007
        self.gateway_received: list[dict] = []  # every op the bot sent (tokens redacted)
        self.gateway_queries: list[dict] = []  # query string of every gateway connection (v, encoding, compress)
        self.commands: list[dict] = []
        self.guild_commands: dict[int, list[dict]] = {}
        self.command_syncs: list[tuple[Optional[int], list[dict]]] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self._interactions_by_token: dict[str, InteractionRecord] = {}
        self.presence: Optional[dict] = None
        self.identify_count = 0
        self.resume_count = 0

        # world
        self.users: dict[int, dict] = {}
        self.dm_closed: set[int] = set()
        self._guilds: dict[int, _Guild] = {}
        self._channels: dict[int, dict] = {}
        self._dm_channel_of: dict[int, int] = {}
        self._messages: dict[int, MessageRecord] = {}
        self._channel_messages: dict[int, list[MessageRecord]] = {}
        self._attachments: dict[int, AttachmentRecord] = {}
        self._command_ids: dict[tuple, int] = {}
        self.blocked_channels: set[int] = set()  # the bot may not send there (403 50013), whatever its roles say
        self.permission_refusals: list[tuple[str, str, list[str]]] = []  # (method, path, missing permissions)
        self.user_installs: set[int] = set()  # users who added the app to their own account
        self.app_emojis: dict[int, dict] = {}  # the application's own emoji, by id
        self.app_emoji_images: dict[int, bytes] = {}  # their uploaded images
        self.app_emoji_limit = MOST_APP_EMOJIS

        # gateway
        self.sessions: dict[str, _Session] = {}
        self.current_session: Optional[_Session] = None  # the latest IDENTIFY (the only one, unsharded)
        self.shard_count: Optional[int] = None  # of the latest sharded IDENTIFY; None: one unsharded session
        self.shard_sessions: dict[int, _Session] = {}  # shard id -> its latest session
        self._conns: set[_Conn] = set()

        self.bot_user = self._new_user(bot_name, bot=True)
        self.application_id: int = int(self.bot_user["id"])
        for u in users:
            if isinstance(u, dict):
                self.add_user(**u)
            else:
                self.add_user(u)
        self.guild = self.add_guild(guild_name, locale=guild_locale, channels=channels)
        self.guild_id: int = self.guild["id_int"]
        self.channel_id: int = self.guild["channel_ids"][0]
        for ref in dm_closed:
            self.dm_closed.add(int(self.resolve_user(ref)["id"]))

        self._routes = self._build_routes()
        self._default_entry_point()

    # =========================================================================================
    # lifecycle
    # =========================================================================================

    async def start(self, port: int = 0) -> "FakeDiscord":
        app = web.Application(client_max_size=512 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway_handler)
        app.router.add_route("*", "/{tail:.*}", self._http_handler)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        for t in self._timers:
            t.cancel()
        self._timers.clear()
        for conn in list(self._conns):
            try:
                await asyncio.wait_for(conn.ws.close(code=1001, message=b"stand-in stopping"), 1.0)
            except Exception:
                conn.request.transport and conn.request.transport.abort()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "FakeDiscord":
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        if self.port is None:
            raise RuntimeError("FakeDiscord not started")
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def env(self) -> dict[str, str]:
        """Environment for a bot subprocess pointed at this stand-in."""
        return {"DISCORD_API_BASE": self.api_base, "DISCORD_TOKEN": self.token or "fake-token",
                "DISCORD_CLIENT_SECRET": self.client_secret}

    # =========================================================================================
    # world building
    # =========================================================================================

    def _new_user(self, username: str, *, bot: bool = False, global_name: Optional[str] = None, id: Optional[int] = None) -> dict:
        uid = int(id) if id is not None else self._snow()
        user = {
            "id": str(uid),
            "username": username,
            "global_name": global_name if global_name is not None else (None if bot else username.capitalize()),
            "discriminator": "0",
            "avatar": None,
            "avatar_decoration_data": None,
            "banner": None,
            "accent_color": None,
            "public_flags": 0,
            "bot": bot,
            "system": False,
        }
        self.users[uid] = user
        return user

    def add_user(
        self,
        username: str,
        *,
        global_name: Optional[str] = None,
        id: Optional[int] = None,
        dm_closed: bool = False,
        admin: bool = False,
        join_guilds: bool = True,
    ) -> dict:
        """Create a user (and make them a member of every existing guild). Returns the user dict."""
        user = self._new_user(username, global_name=global_name, id=id)
        uid = int(user["id"])
        if dm_closed:
            self.dm_closed.add(uid)
        if join_guilds:
            for g in self._guilds.values():
                self._add_member(g, uid, admin=admin)
        return user

    def _add_member(self, g: _Guild, uid: int, *, admin: bool = False, roles: Iterable[int] = ()) -> dict:
        role_ids = [str(r) for r in roles]
        if admin:
            role_ids.append(g.data["admin_role_id"])
        if uid == self.application_id:
            role_ids.append(g.data["bot_role_id"])
        member = {
            "user": self.users[uid],
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": role_ids,
            "joined_at": iso_now(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        g.members[uid] = member
        return member

    def add_guild(
        self,
        name: str,
        *,
        locale: str = "en-US",
        channels: Iterable[str] = ("general",),
        members: Optional[Iterable[UserRef]] = None,
        owner: UserRef = None,
        shard: Optional[tuple[int, int]] = None,
    ) -> dict:
        """Create a guild the bot is in. Returns a summary dict (``id_int``, ``channel_ids``...).

        ``shard=(shard_id, shard_count)`` picks an id that Discord routes to that shard.
        A guild added after the bot connected is announced with GUILD_CREATE (on its shard)."""
        gid = self._snow.on_shard(*shard) if shard is not None else self._snow()
        bot_role = self._snow()
        admin_role = self._snow()
        humans = [u for u in self.users if u != self.application_id]
        owner_id = int(self.resolve_user(owner)["id"]) if owner is not None else (humans[0] if humans else self.application_id)
        data = {
            "id": str(gid),
            "name": name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(owner_id),
            "preferred_locale": locale,
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "application_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "widget_enabled": False,
            "nsfw": False,
            "emojis": [],
            "stickers": [],
            "incidents_data": None,
            "roles": [
                self._role(gid, "@everyone", EVERYONE_PERMISSIONS, position=0),
                self._role(bot_role, self.bot_user["username"], self.bot_permissions, position=1, managed=True),
                self._role(admin_role, "Admin", P["ADMINISTRATOR"], position=2),
            ],
            "bot_role_id": str(bot_role),
            "admin_role_id": str(admin_role),
        }
        g = _Guild(data)
        self._guilds[gid] = g
        self._add_member(g, self.application_id)
        wanted = self.users.keys() if members is None else [int(self.resolve_user(m)["id"]) for m in members]
        for uid in wanted:
            if uid != self.application_id:
                self._add_member(g, uid)
        for ch in channels:
            self.add_channel(gid, ch)
        if any(s.connected for s in self.sessions.values()):
            self._spawn(self.dispatch_event("GUILD_CREATE", self._guild_create_payload(g, joined=True), intent=INTENT_GUILDS))
        return self._guild_summary(g)

    def _guild_summary(self, g: _Guild) -> dict:
        return {"id": g.data["id"], "id_int": g.id, "name": g.data["name"], "locale": g.locale, "channel_ids": list(g.channel_ids)}

    @staticmethod
    def _role(rid: int, name: str, perms: int, *, position: int, managed: bool = False) -> dict:
        return {
            "id": str(rid),
            "name": name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": position,
            "permissions": str(perms),
            "managed": managed,
            "mentionable": False,
            "flags": 0,
        }

    def add_channel(self, guild_id: int, name: str, *, type: int = 0, parent_id: Optional[int] = None) -> dict:
        g = self._guild(guild_id)
        cid = self._snow()
        ch = {
            "id": str(cid),
            "type": type,
            "guild_id": str(g.id),
            "name": name,
            "position": len(g.channel_ids),
            "permission_overwrites": [],
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": str(parent_id) if parent_id else None,
            "default_auto_archive_duration": 1440,
            "flags": 0,
        }
        self._channels[cid] = ch
        self._channel_messages[cid] = []
        g.channel_ids.append(cid)
        if any(s.connected for s in self.sessions.values()):
            self._spawn(self.dispatch_event("CHANNEL_CREATE", ch, intent=INTENT_GUILDS))
        return ch

    def set_dm_closed(self, user: UserRef, closed: bool = True) -> None:
        uid = int(self.resolve_user(user)["id"])
        (self.dm_closed.add if closed else self.dm_closed.discard)(uid)

    def resolve_user(self, user: UserRef) -> dict:
        """A user dict from a dict, an id or a username (None: the first human user)."""
        if user is None:
            for uid, u in self.users.items():
                if uid != self.application_id:
                    return u
            raise LookupError("no users")
        if isinstance(user, dict):
            return self.users[int(user["id"])]
        if isinstance(user, int) or (isinstance(user, str) and user.isdigit()):
            try:
                return self.users[int(user)]
            except KeyError:
                raise LookupError(f"unknown user id {user}") from None
        for u in self.users.values():
            if u["username"] == user:
                return u
        raise LookupError(f"unknown user {user!r}; known: {[u['username'] for u in self.users.values()]}")

    def user(self, name: str) -> dict:
        return self.resolve_user(name)

    def _guild(self, guild_id: Any) -> _Guild:
        try:
            return self._guilds[int(guild_id)]
        except (KeyError, ValueError, TypeError):
            raise LookupError(f"unknown guild {guild_id}") from None

    def channel(self, channel_id: int) -> dict:
        return self._channels[int(channel_id)]

    def install_for_user(self, user: UserRef) -> None:
        """``user`` adds the app to their own account (a user install): its commands then work for
        them in DMs and group DMs, though the bot is no member there."""
        self.user_installs.add(int(self.resolve_user(user)["id"]))

    def add_group_dm(self, users: Iterable[UserRef], name: Optional[str] = None) -> int:
        """A group DM of ``users`` (the bot never is a member of one): interactions made there
        come with context 2, and the bot's own requests for the channel are refused (403 50001)."""
        members = [self.resolve_user(u) for u in users]
        cid = self._snow()
        self._channels[cid] = {"id": str(cid), "type": GROUP_DM, "last_message_id": None, "flags": 0,
                               "name": name, "recipients": members, "owner_id": members[0]["id"]}
        self._channel_messages[cid] = []
        return cid

    def dm_channel_id(self, user: UserRef) -> int:
        """The DM channel between the bot and ``user`` (created on first use)."""
        uid = int(self.resolve_user(user)["id"])
        cid = self._dm_channel_of.get(uid)
        if cid is None:
            cid = self._snow()
            self._dm_channel_of[uid] = cid
            self._channels[cid] = {
                "id": str(cid),
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.users[uid]],
                "recipient_id_int": uid,
            }
            self._channel_messages[cid] = []
        return cid

    # ----- permissions -------------------------------------------------------------------------

    def member_permissions(self, guild_id: int, user_id: int) -> int:
        """A member's guild-wide ("base") permissions: @everyone's and their roles' grants."""
        g = self._guild(guild_id)
        if int(g.data["owner_id"]) == int(user_id):
            return ALL_PERMISSIONS
        member = g.members.get(int(user_id))
        roles = {r["id"]: int(r["permissions"]) for r in g.data["roles"]}
        perms = roles[g.data["id"]]
        for rid in (member or {}).get("roles", []):
            perms |= roles.get(rid, 0)
        if perms & P["ADMINISTRATOR"]:
            return ALL_PERMISSIONS
        return perms

    def permissions_in(self, channel_id: int, user: UserRef) -> int:
        """``user``'s permissions in a channel or thread, computed as Discord documents it: the base
        from @everyone and the member's roles (Administrator or ownership: everything), then the
        channel's overwrites for @everyone, for the member's roles together, for the member; no View
        Channel means nothing at all, no Send Messages no Attach Files, Embed Links, @everyone or TTS.
        A thread has its parent's, its own send permission (Send Messages in Threads) standing for
        Send Messages, and only View Channel, Read Message History and reactions once locked, unless
        one holds Manage Threads. ``blocked_channels`` take away sending there."""
        uid = int(self.resolve_user(user)["id"])
        ch = self._channels[int(channel_id)]
        if ch["type"] == 1:
            return DM_APP_PERMISSIONS | P["VIEW_CHANNEL"] | P["SEND_MESSAGES"] | P["READ_MESSAGE_HISTORY"]
        thread = ch if ch["type"] in THREAD_TYPES else None
        parent = self._channels[int(ch["parent_id"])] if thread is not None else ch
        perms = self._overwritten(parent, uid)
        if perms == ALL_PERMISSIONS:  # Administrator: overwrites, locks and implicit denials do not apply
            return perms
        send = P["SEND_MESSAGES"]
        if thread is not None:
            send = P["SEND_MESSAGES_IN_THREADS"]
            if thread["thread_metadata"].get("locked") and not perms & P["MANAGE_THREADS"]:
                perms &= LOCKED_THREAD_PERMISSIONS
        if int(channel_id) in self.blocked_channels:
            perms &= ~(P["SEND_MESSAGES"] | P["SEND_MESSAGES_IN_THREADS"])
        if not perms & P["VIEW_CHANNEL"]:
            return 0
        if not perms & send:
            perms &= ~NEEDS_SEND
        return perms

    def _overwritten(self, ch: dict, uid: int) -> int:
        """Base permissions with a (non-thread) channel's overwrites applied, in Discord's order."""
        g = self._guild(ch["guild_id"])
        perms = self.member_permissions(g.id, uid)
        if perms & P["ADMINISTRATOR"]:
            return ALL_PERMISSIONS
        overwrites = {int(o["id"]): (int(o["allow"]), int(o["deny"])) for o in ch.get("permission_overwrites") or []}
        allow, deny = overwrites.get(g.id, (0, 0))
        perms = (perms & ~deny) | allow
        allow = deny = 0
        for rid in (g.members.get(uid) or {}).get("roles", []):
            a, d = overwrites.get(int(rid), (0, 0))
            allow, deny = allow | a, deny | d
        perms = (perms & ~deny) | allow
        allow, deny = overwrites.get(uid, (0, 0))
        return (perms & ~deny) | allow

    def bot_permissions_in(self, channel_id: int) -> int:
        return self.permissions_in(channel_id, self.application_id)

    def set_bot_permissions(self, guild_id: int, perms: int, *, everyone: Optional[int] = None) -> None:
        """What the bot's own role grants in a guild (the invite's permissions unless set). As on
        Discord, @everyone's grants add to it: ``everyone=`` sets those (for every member)."""
        g = self._guild(guild_id)
        changed = [(g.data["bot_role_id"], perms)] + ([(g.data["id"], everyone)] if everyone is not None else [])
        for role_id, value in changed:
            role = next(r for r in g.data["roles"] if r["id"] == str(role_id))
            role["permissions"] = str(int(value))
            self._spawn(self.dispatch_event("GUILD_ROLE_UPDATE", {"guild_id": str(g.id), "role": role}, intent=INTENT_GUILDS))
        self._notify()

    def set_overwrite(self, channel_id: int, target: Any, *, allow: int = 0, deny: int = 0) -> None:
        """A channel's permission overwrite for ``target``: the guild id (@everyone), a role id, or a
        member (a user dict, id or name, the bot included). ``allow=deny=0`` removes it. Threads have
        none: they follow their parent channel."""
        ch = self._channels[int(channel_id)]
        if ch["type"] == 1 or ch["type"] in THREAD_TYPES:
            raise ValueError("only guild channels that are not threads carry permission overwrites")
        g = self._guild(ch["guild_id"])
        role_ids = {int(r["id"]) for r in g.data["roles"]}
        if isinstance(target, int) and target in role_ids:
            tid, ttype = target, 0
        else:
            tid, ttype = int(self.resolve_user(target)["id"]), 1
        kept = [o for o in ch["permission_overwrites"] if int(o["id"]) != tid]
        if allow or deny:
            kept.append({"id": str(tid), "type": ttype, "allow": str(int(allow)), "deny": str(int(deny))})
        ch["permission_overwrites"] = kept
        self._spawn(self.dispatch_event("CHANNEL_UPDATE", self._channel_public(ch), intent=INTENT_GUILDS))
        self._notify()

    def set_thread_state(self, thread_id: int, *, archived: Optional[bool] = None, locked: Optional[bool] = None) -> None:
        """What a moderator (or Discord's idle clock) does to a thread: archive it, lock it ("Close
        and lock" is both); the bot hears of it as THREAD_UPDATE."""
        thread = self._channels[int(thread_id)]
        meta = thread["thread_metadata"]
        if archived is not None:
            meta["archived"] = archived
            meta["archive_timestamp"] = iso_now()
        if locked is not None:
            meta["locked"] = locked
        self._spawn(self.dispatch_event("THREAD_UPDATE", self._channel_public(thread), intent=INTENT_GUILDS))
        self._notify()

    def _require(self, ctx: _Ctx, ch: dict, *names: str) -> int:
        """Refuse a request in ``ch`` as Discord does when the bot lacks one of ``names`` there (View
        Channel always): 403 50001 "Missing Access" without View Channel, else 403 50013 "Missing
        Permissions". Each refusal is kept in ``permission_refusals``. Returns the bot's permissions."""
        if ch["type"] == 1:
            return self.permissions_in(int(ch["id"]), self.application_id)
        if ch["type"] == GROUP_DM:  # the bot is no member: whatever it asks of the channel is refused
            self.permission_refusals.append((ctx.method, ctx.path, ["GROUP_DM_MEMBER"]))
            raise HTTPError(403, 50001, "Missing Access")
        perms = self.bot_permissions_in(int(ch["id"]))
        missing = [n for n in ("VIEW_CHANNEL",) + names if not perms & P[n]]
        if missing:
            self.permission_refusals.append((ctx.method, ctx.path, missing))
            if "VIEW_CHANNEL" in missing:
                raise HTTPError(403, 50001, "Missing Access")
            raise HTTPError(403, 50013, "Missing Permissions")
        return perms

    @staticmethod
    def _send_permission(ch: dict) -> str:
        return "SEND_MESSAGES_IN_THREADS" if ch["type"] in THREAD_TYPES else "SEND_MESSAGES"

    @staticmethod
    def _not_archived(ch: dict) -> None:
        if ch["type"] in THREAD_TYPES and ch["thread_metadata"].get("archived"):
            raise HTTPError(400, 50083, "Thread is archived")

    # =========================================================================================
    # recording & waiting
    # =========================================================================================

    def _clock(self) -> float:
        """The stand-in's own clock (its event loop's): response deadlines, token lifetimes,
        rate-limit windows and message ages are measured on it."""
        return asyncio.get_running_loop().time()

    def age_message(self, message: Any, seconds: float) -> None:
        """Make a message ``seconds`` older on the stand-in's clock (for the old-message edit limit)."""
        self._resolve_message(message).created_at -= seconds

    def _check_old_edit(self, msg: MessageRecord) -> None:
        """Discord's limit on editing old messages: a channel's messages older than an hour
        (``old_message_age``) take ``old_message_edits`` edits per window, then 400 code 30046."""
        now = self._clock()
        if now - msg.created_at < self.old_message_age:
            return
        most, per = self.old_message_edits
        recent = [t for t in self._old_edits.get(msg.channel_id, []) if now - t < per]
        self._old_edits[msg.channel_id] = recent
        if len(recent) >= most:
            self.old_edit_refusals.append((msg.channel_id, msg.id))
            raise HTTPError(400, 30046, "Maximum number of edits to messages older than 1 hour reached. Try again later.")
        recent.append(now)

    def _notify(self) -> None:
        self._waiters.notify()

    def _violation(self, kind: str, message: str, ctx: Optional[_Ctx] = None, detail: Any = None) -> Violation:
        v = Violation(kind, message, ctx.method if ctx else None, ctx.path if ctx else None, detail)
        self.violations.append(v)
        log.warning("fakediscord violation: %s", v)
        self._notify()
        return v

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    @property
    def buckets_emptied(self) -> "collections.Counter[str]":
        """Per route ("global" too): the requests that took a bucket's last place."""
        return self._limiter.emptied if self._limiter is not None else collections.Counter()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "a condition") -> Any:
        """Wait until ``predicate()`` is truthy (re-checked whenever anything is recorded); returns its value."""
        try:
            return await self._waiters.wait(predicate, timeout)
        except asyncio.TimeoutError:
            recent = "\n  ".join(repr(r) for r in self.requests[-12:]) or "(none)"
            viol = "\n  ".join(str(v) for v in self.violations) or "(none)"
            raise TimeoutError(
                f"fakediscord: timed out after {max(timeout, HANG_BOUND_SECONDS)}s waiting for {what}.\n"
                f" recent requests:\n  {recent}\n violations:\n  {viol}"
            ) from None

    async def wait_connected(self, timeout: Optional[float] = None, *, shards: Optional[Iterable[int]] = None) -> None:
        """Until a bot session has READY/RESUMED on an open gateway connection; with ``shards``,
        until each of those shards has one."""
        wanted = None if shards is None else list(shards)

        def connected() -> bool:
            if wanted is None:
                return self.current_session is not None and self.current_session.connected
            return all(self.shard_connected(s) for s in wanted)

        what = "the bot to connect to the gateway" if wanted is None else f"shards {wanted} to connect"
        await self.wait_until(connected, self.connect_timeout if timeout is None else timeout, what)

    def shard_connected(self, shard_id: int) -> bool:
        session = self.shard_sessions.get(shard_id)
        return session is not None and session.connected

    def shard_of(self, guild_id: Optional[int]) -> Optional[int]:
        """The shard Discord routes a guild's events to (DMs: shard 0); None while unsharded."""
        if self.shard_count is None:
            return None
        return 0 if guild_id is None else (int(guild_id) >> 22) % self.shard_count

    def _session_for(self, guild_id: Optional[int]) -> Optional[_Session]:
        shard = self.shard_of(guild_id)
        return self.current_session if shard is None else self.shard_sessions.get(shard)

    async def wait_for_commands(self, guild_id: Optional[int] = None, timeout: float = 10.0) -> list[dict]:
        """Until the bot has synced its (global, or that guild's) command set; returns it."""
        gid = int(guild_id) if guild_id is not None else None

        def check():
            if any(g == gid for g, _ in self.command_syncs):
                return (self.commands if gid is None else self.guild_commands.get(gid, []),)
            return None

        what = "a global command sync" if guild_id is None else f"a command sync for guild {guild_id}"
        return (await self.wait_until(check, timeout, what))[0]

    def mark(self) -> int:
        """A cursor: pass it as ``since=`` to only consider messages created after this point."""
        return self._snow()

    def messages(self, channel_id: int, *, include_ephemeral: bool = True, include_deleted: bool = False) -> list[MessageRecord]:
        return [
            m
            for m in self._channel_messages.get(int(channel_id), [])
            if (include_ephemeral or not m.ephemeral) and (include_deleted or not m.deleted)
        ]

    def message(self, message_id: int) -> MessageRecord:
        return self._messages[int(message_id)]

    def dms(self, user: UserRef) -> list[MessageRecord]:
        uid = int(self.resolve_user(user)["id"])
        cid = self._dm_channel_of.get(uid)
        return self.messages(cid) if cid else []

    async def wait_for_message(
        self,
        channel_id: int,
        predicate: Optional[Callable[[MessageRecord], Any]] = None,
        timeout: float = 5.0,
        *,
        since: Optional[int] = None,
        include_ephemeral: bool = True,
    ) -> MessageRecord:
        """First message in the channel (current content, so edits count) matching ``predicate``."""

        def check():
            for m in self.messages(channel_id, include_ephemeral=include_ephemeral):
                if since is not None and m.id <= since:
                    continue
                if predicate is None or predicate(m):
                    return m
            return None

        return await self.wait_until(check, timeout, f"a message in channel {channel_id}")

    async def wait_for_dm(
        self, user: UserRef, predicate: Optional[Callable[[MessageRecord], Any]] = None, timeout: float = 5.0, *, since: Optional[int] = None
    ) -> MessageRecord:
        uid = int(self.resolve_user(user)["id"])

        def check():
            for m in self.dms(uid):
                if (since is None or m.id > since) and (predicate is None or predicate(m)):
                    return m
            return None

        return await self.wait_until(check, timeout, f"a DM to user {uid}")

    async def wait_for_dm_failure(self, user: UserRef, timeout: float = 5.0) -> dict:
        uid = int(self.resolve_user(user)["id"])
        return await self.wait_until(
            lambda: next((p for u, p in self.dm_failures if u == uid), None), timeout, f"a refused DM to user {uid}"
        )

    def assert_clean(self) -> None:
        """Raise AssertionError listing every violation (unknown routes included)."""
        if self.violations:
            raise AssertionError("fakediscord violations:\n  " + "\n  ".join(str(v) for v in self.violations))

    def requests_to(self, method: str, path_regex: str) -> list[RequestRecord]:
        rx = re.compile(path_regex)
        return [r for r in self.requests if r.method == method.upper() and rx.search(r.path)]

    # =========================================================================================
    # HTTP plumbing
    # =========================================================================================

    # A path template's parameters: the handler's keyword and what the parameter matches.
    _PARAMS = {
        "application_id": ("app", r"\d+"), "webhook_id": ("app", r"\d+"), "guild_id": ("gid", r"\d+"),
        "channel_id": ("cid", r"\d+"), "message_id": ("mid", r"\d+"), "user_id": ("uid", r"\d+"),
        "interaction_id": ("iid", r"\d+"), "interaction_token": ("token", r"[^/]+"),
        "webhook_token": ("token", r"[^/]+"), "member": (None, r"@me|\d+"), "emoji_id": ("eid", r"\d+"),
        "instance_id": ("instance", r"[^/]+"),
    }

    def _build_routes(self) -> list[tuple[str, str, re.Pattern, Callable, bool]]:
        """(method, path template as Discord writes it, its regex, handler, needs a bot token: True,
        or "bearer": a bot token or a user's OAuth2 token where Discord's description allows one).
        The template is the route's rate-limit bucket (with its major parameters)."""
        table = [
            ("GET", "/gateway", self._r_gateway, False),
            ("GET", "/gateway/bot", self._r_gateway_bot, True),
            ("GET", "/users/@me", self._r_me, "bearer"),
            ("POST", "/users/@me/channels", self._r_create_dm, True),
            ("GET", "/users/{user_id}", self._r_get_user, True),
            ("GET", "/oauth2/applications/@me", self._r_application, True),
            ("GET", "/applications/@me", self._r_application, True),
            ("GET", "/applications/{application_id}/activity-instances/{instance_id}", self._r_activity_instance, True),
            ("GET", "/applications/{application_id}/commands", self._r_get_commands, True),
            ("PUT", "/applications/{application_id}/commands", self._r_put_commands, True),
            ("POST", "/applications/{application_id}/commands", self._r_post_command, True),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self._r_get_commands, True),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._r_put_commands, True),
            ("POST", "/applications/{application_id}/guilds/{guild_id}/commands", self._r_post_command, True),
            ("GET", "/applications/{application_id}/emojis", self._r_list_emojis, True),
            ("POST", "/applications/{application_id}/emojis", self._r_create_emoji, True),
            ("GET", "/applications/{application_id}/emojis/{emoji_id}", self._r_get_emoji, True),
            ("PATCH", "/applications/{application_id}/emojis/{emoji_id}", self._r_edit_emoji, True),
            ("DELETE", "/applications/{application_id}/emojis/{emoji_id}", self._r_delete_emoji, True),
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self._r_callback, False),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}", self._r_followup, False),
            ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self._r_webhook_get, False),
            ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self._r_webhook_edit, False),
            ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self._r_webhook_delete, False),
            ("GET", "/channels/{channel_id}", self._r_get_channel, True),
            ("PATCH", "/channels/{channel_id}", self._r_edit_channel, True),
            ("POST", "/channels/{channel_id}/typing", self._r_typing, True),
            ("GET", "/channels/{channel_id}/messages", self._r_history, True),
            ("POST", "/channels/{channel_id}/messages", self._r_post_message, True),
            ("GET", "/channels/{channel_id}/messages/pins", self._r_list_pins_new, True),
            ("GET", "/channels/{channel_id}/pins", self._r_list_pins_old, True),
            ("PUT", "/channels/{channel_id}/messages/pins/{message_id}", self._r_pin, True),
            ("PUT", "/channels/{channel_id}/pins/{message_id}", self._r_pin, True),
            ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", self._r_unpin, True),
            ("DELETE", "/channels/{channel_id}/pins/{message_id}", self._r_unpin, True),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._r_get_message, True),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._r_edit_message, True),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._r_delete_message, True),
            ("POST", "/channels/{channel_id}/threads", self._r_create_thread, True),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._r_create_thread, True),
            ("PUT", "/channels/{channel_id}/thread-members/{member}", self._r_no_content, True),
            ("DELETE", "/channels/{channel_id}/thread-members/{member}", self._r_no_content, True),
            ("GET", "/guilds/{guild_id}", self._r_get_guild, True),
            ("GET", "/guilds/{guild_id}/channels", self._r_guild_channels, True),
            ("GET", "/guilds/{guild_id}/roles", self._r_guild_roles, True),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._r_guild_member, True),
        ]
        return [(m, t, self._template_regex(t), h, auth) for m, t, h, auth in table]

    @classmethod
    def _template_regex(cls, template: str) -> re.Pattern:
        def param(match: re.Match) -> str:
            name = match.group(1)
            group, pattern = cls._PARAMS[name]
            if name == "message_id" and template.startswith("/webhooks/"):
                pattern = r"\d+|@original"  # an interaction's first answer
            return f"(?P<{group}>{pattern})" if group else f"(?:{pattern})"

        return re.compile("^" + re.sub(r"\{(\w+)\}", param, template) + "$")

    def _response(self, status: int, body: Any, headers: Optional[dict[str, str]] = None) -> web.Response:
        if body is None:
            return web.Response(status=status, headers=headers)
        # discord.py compares Content-Type to exactly 'application/json' (no charset suffix).
        return web.Response(status=status, body=to_json(self._signed(body)).encode("utf-8"),
                            headers={**(headers or {}), "Content-Type": "application/json"})

    def _signed(self, obj: Any) -> Any:
        """What leaves the stand-in carries attachment URLs as Discord's CDN hands them out: signed
        (``?ex=<expiry>&is=<issued>&hm=<signature>&``), and signed afresh every time, so two copies of
        one attachment's URL never compare equal. Records inside keep the plain URL."""
        prefix = f"{self.base_url}/attachments/"

        def walk(o: Any) -> Any:
            if isinstance(o, dict):
                return {k: walk(v) for k, v in o.items()}
            if isinstance(o, list):
                return [walk(v) for v in o]
            if isinstance(o, str) and o.startswith(prefix) and "?" not in o:
                issued = int(time.time())
                return f"{o}?ex={issued + 86400:x}&is={issued:x}&hm={secrets.token_hex(32)}&"
            return o

        return walk(obj)

    def _check_media_urls(self, ctx: Optional[_Ctx], components: Any) -> None:
        """A component's media pointing at an attachment's CDN URL: Discord takes it, and the image
        is gone once the signature expires (an unsigned one never shows). Media of the message's own
        files is referenced as ``attachment://<filename>``."""
        prefix = f"{self.base_url}/attachments/"
        for c in V.walk_components(components or []):
            media = [c.get("media")] + [i.get("media") for i in c.get("items") or [] if isinstance(i, dict)]
            if c.get("type") == 13:
                media.append(c.get("file"))
            for m in media:
                if isinstance(m, dict) and str(m.get("url", "")).startswith(prefix):
                    self._violation("cdn_media_url", f"component media points at a CDN attachment URL that "
                                    f"expires ({m['url'][:80]}...); use attachment://<filename>", ctx)

    async def _read_body(self, request: web.Request) -> tuple[Any, list[FileRecord]]:
        files: list[FileRecord] = []
        payload: Any = None
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                data = await part.read(decode=False)
                if part.name == "payload_json":
                    payload = json.loads(data.decode("utf-8"))
                elif part.filename is not None or (part.name or "").startswith("files["):
                    files.append(FileRecord(part.name or "", part.filename or "", part.headers.get("Content-Type"), bytes(data)))
                else:  # plain form field
                    if payload is None:
                        payload = {}
                    if isinstance(payload, dict):
                        payload[part.name] = data.decode("utf-8", "replace")
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                try:
                    payload = json.loads(raw.decode("utf-8"))
                except ValueError:
                    raise HTTPError(400, 50109, "The request body contains invalid JSON.") from None
        return payload, files

    async def _http_handler(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if path.startswith("/attachments/"):
            return self._serve_attachment(path)
        if path.startswith("/cdn/"):
            return web.Response(body=make_png(64, 64, (120, 120, 120)), content_type="image/png")
        if request.method.upper() == "POST" and path in (API_PREFIX + "/oauth2/token", "/api/oauth2/token"):
            return await self._oauth_token(request, path)
        method = request.method.upper()
        sub = path[len(API_PREFIX):] if path.startswith(API_PREFIX + "/") else path
        auth = request.headers.get("Authorization")
        record = RequestRecord(method, sub, dict(request.query), None, [], bool(auth), asyncio.get_running_loop().time())
        self.requests.append(record)
        headers: dict[str, str] = {}
        try:
            record.json, record.files = await self._read_body(request)
            ctx = _Ctx(request, method, sub, record.json, record.files, dict(request.query), record)
            if not path.startswith(API_PREFIX + "/"):
                raise self._unknown_route(ctx)
            await self._latency(method, sub)
            for m, template, rx, handler, needs_auth in self._routes:
                match = rx.match(sub)
                if match and m == method:
                    if needs_auth == "bearer" and (auth or "").startswith("Bearer "):
                        ctx.bearer_user = self._bearer_user(ctx, auth)
                    elif needs_auth:
                        self._check_auth(ctx, auth)
                    headers = self._rate_limit(ctx, template, match)
                    self._check_openapi(ctx)
                    status, body = await handler(ctx, **match.groupdict())
                    self._check_answer(ctx, template, status, body)
                    break
            else:
                raise self._unknown_route(ctx)
        except HTTPError as err:
            status, body = err.status, err.body
            headers.update(err.headers)
        except ConnectionResetError:
            # The client hung up mid-upload (the bot was stopped): nothing reached Discord and
            # Discord refuses nothing; the request simply never happened.
            self.requests.remove(record)
            self.abandoned_requests.append(record)
            raise
        except Exception as exc:  # a bug in the stand-in: make it loud, but don't trigger 5xx retries
            log.exception("fakediscord: handler crashed on %s %s", method, sub)
            self._violation("stand_in_error", f"the stand-in crashed on {method} {sub}: {exc!r}")
            status, body = 400, {"message": f"fakediscord internal error: {exc!r}", "code": 0}
        record.status, record.response = status, body
        self._notify()
        return self._response(status, body, headers)

    def slow(self, method: str, path: str, seconds: float) -> None:
        """Requests of ``method`` whose path matches the regular expression ``path`` (without
        /api/v10) take ``seconds`` more before Discord handles them, as a slow upload would."""
        self.latencies.append((method.upper(), re.compile(path), seconds))

    async def _latency(self, method: str, path: str) -> None:
        for m, rx, seconds in self.latencies:
            if m == method and rx.search(path):
                await asyncio.sleep(seconds)
                return

    def _rate_limit(self, ctx: _Ctx, template: str, match: re.Match) -> dict[str, str]:
        """Count the request in its route's bucket and the global one (see ratelimits.py); the
        rate-limit headers of its answer, or a 429 as Discord's when a bucket is spent."""
        if self._limiter is None:
            return {}
        groups = match.groupdict()
        params = {name: groups.get(self._PARAMS[name][0]) for name in re.findall(r"\{(\w+)\}", template)}
        interaction = template.startswith(("/interactions/", "/webhooks/"))  # exempt from the global limit
        headers, refused = self._limiter.check(ctx.method, template, params, exempt_from_global=interaction)
        if refused is None:
            return headers
        retry_after, is_global, route = refused
        self.rate_limited.append(Limited(ctx.method, ctx.path, route, retry_after, is_global))
        err = HTTPError(429, 0, "You are being rate limited.")
        err.body = {"message": "You are being rate limited.", "retry_after": round(retry_after, 3), "global": is_global}
        err.headers = dict(headers, Via="1.1 google")  # discord.py reads a 429 without Via as a Cloudflare ban
        raise err

    def _check_openapi(self, ctx: _Ctx) -> None:
        """The body against Discord's own description of the route (openapi.py): a body it would
        not take is answered 400 50035 as Discord would, and recorded."""
        if self.openapi is None:
            return
        multipart = ctx.request.content_type.startswith("multipart/")
        body = ctx.json if ctx.json is not None or not multipart else {}
        has_body = body is not None or bool(ctx.files)
        problems = [p for p in self.openapi.problems(ctx.method, ctx.path, body, multipart=multipart, has_body=has_body)]
        if problems:
            self._violation("openapi", "; ".join(problems), ctx, detail=problems)
            raise HTTPError(400, 50035, "Invalid Form Body", {"_errors": [{"code": "OPENAPI", "message": p} for p in problems]})

    # The answers the stand-in also checks against the description's response schemas: the ones the
    # web table's Activity path reads (a wrong shape there would pass unnoticed). Older routes' answers
    # are not (their messages lack fields the description requires and discord.py never reads).
    ANSWERS_CHECKED = frozenset({
        "/users/@me",
        "/applications/{application_id}/activity-instances/{instance_id}",
    })

    def _check_answer(self, ctx: _Ctx, template: str, status: int, body: Any) -> None:
        launched = isinstance(body, dict) and (body.get("resource") or {}).get("type") == 12
        if self.openapi is None or not (template in self.ANSWERS_CHECKED or launched) or status != 200:
            return
        problems = self.openapi.answer_problems(ctx.method, ctx.path, status, body)
        if problems:
            self._violation("stand_in_answer", "; ".join(problems), ctx, detail=problems)

    def _unknown_route(self, ctx: _Ctx) -> HTTPError:
        self.unknown_routes.append((ctx.method, ctx.path))
        self._violation("unknown_route", f"the stand-in has no route for {ctx.method} {ctx.path}", ctx)
        return HTTPError(404, 0, "404: Not Found")

    def _check_auth(self, ctx: _Ctx, header: Optional[str]) -> None:
        if not header or not header.startswith("Bot ") or len(header) <= 4:
            self._violation("missing_auth", "request without an 'Authorization: Bot <token>' header", ctx)
            raise HTTPError(401, 0, "401: Unauthorized")
        if self.token is not None and header[4:] != self.token:
            raise HTTPError(401, 0, "401: Unauthorized")

    def _invalid(self, ctx: _Ctx, problems: list[V.Problem], kind: str = "invalid_form_body") -> HTTPError:
        self._violation(kind, "; ".join(str(p) for p in problems), ctx, detail=problems)
        return HTTPError(400, 50035, "Invalid Form Body", V.problems_to_errors(problems))

    def _serve_attachment(self, path: str) -> web.Response:
        parts = path.split("/")
        try:
            att = self._attachments[int(parts[3])]
        except (IndexError, ValueError, KeyError):
            return web.Response(status=404, text="not found")
        return web.Response(body=att.data, headers={"Content-Type": att.content_type.split(";")[0]})

    # =========================================================================================
    # REST handlers
    # =========================================================================================

    async def _r_no_content(self, ctx: _Ctx, **_: Any):
        return 204, None

    async def _r_gateway(self, ctx: _Ctx):
        return 200, {"url": self.gateway_url}

    async def _r_gateway_bot(self, ctx: _Ctx):
        return 200, {
            "url": self.gateway_url,
            "shards": self.shards_required or 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1},
        }

    def _bot_user_full(self) -> dict:
        return dict(self.bot_user, verified=True, mfa_enabled=False, flags=0, locale="en-US", email=None, premium_type=0)

    async def _r_me(self, ctx: _Ctx):
        if ctx.bearer_user is not None:
            token = self.oauth_tokens[ctx.request.headers["Authorization"][len("Bearer "):]]
            return 200, self._me_for_bearer(ctx.bearer_user, token.scopes)
        return 200, self._bot_user_full()

    async def _oauth_token(self, request: web.Request, path: str) -> web.Response:
        """``POST /oauth2/token`` (activities.py), recorded like every other request; OAuth2's own
        error shape, not Discord's."""
        record = RequestRecord("POST", "/oauth2/token", dict(request.query), None, [],
                               bool(request.headers.get("Authorization")), asyncio.get_running_loop().time())
        self.requests.append(record)
        status, body = await self._oauth_token_answer(request, path[len(API_PREFIX):] if path.startswith(API_PREFIX) else path[len("/api"):])
        record.status, record.response = status, body
        self._notify()
        return web.Response(status=status, body=to_json(body).encode("utf-8"), headers={"Content-Type": "application/json"})

    async def _r_get_user(self, ctx: _Ctx, uid: str):
        user = self.users.get(int(uid))
        if user is None:
            raise HTTPError(404, 10013, "Unknown User")
        return 200, user

    def application_object(self) -> dict:
        owner = self.resolve_user(None)
        return {
            "id": str(self.application_id),
            "name": self.bot_user["username"],
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": owner,
            "team": None,
            "flags": (1 << 23) | (FLAG_EMBEDDED if self.activities_enabled else 0),
            "rpc_origins": [],
            "redirect_uris": [],
            "tags": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(self._guilds),
            "approximate_user_install_count": 0,
            "bot": self.bot_user,
            "integration_types_config": {"0": {}},
            "event_webhooks_url": None,
            "event_webhooks_status": 1,
            "event_webhooks_types": [],
            "install_params": None,
            "custom_install_url": None,
        }

    async def _r_application(self, ctx: _Ctx):
        return 200, self.application_object()

    # ----- the application's own emoji ------------------------------------------------------------

    def _app_emoji(self, app: str, eid: Optional[str] = None) -> Optional[dict]:
        self._check_app(None, app)
        if eid is None:
            return None
        emoji = self.app_emojis.get(int(eid))
        if emoji is None:
            raise HTTPError(404, 10014, "Unknown Emoji")
        return emoji

    def _emoji_name_problems(self, name: Any) -> list:
        if not isinstance(name, str) or not EMOJI_NAME.match(name):
            return [V.Problem("name", "BASE_TYPE_BAD_EMOJI_NAME", "2-32 letters, digits or underscores")]
        if any(e["name"] == name for e in self.app_emojis.values()):
            return [V.Problem("name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "an emoji of this app has that name")]
        return []

    async def _r_list_emojis(self, ctx: _Ctx, app: str):
        self._app_emoji(app)
        return 200, {"items": [dict(e) for e in self.app_emojis.values()]}

    async def _r_get_emoji(self, ctx: _Ctx, app: str, eid: str):
        return 200, dict(self._app_emoji(app, eid))

    async def _r_create_emoji(self, ctx: _Ctx, app: str):
        """An emoji's image is a data URI of at most 256 KiB (a bigger one is a plain 400, with no
        JSON code, as Discord documents); a name is unique among the app's emoji; 2,000 at most."""
        self._app_emoji(app)
        body = ctx.json if isinstance(ctx.json, dict) else {}
        problems = self._emoji_name_problems(body.get("name"))
        image = body.get("image")
        match = re.match(r"^data:image/(png|jpeg|gif|webp|avif);base64,(.+)$", image or "", re.S)
        if match is None:
            problems.append(V.Problem("image", "IMAGE_INVALID", "an image data URI"))
        if problems:
            raise self._invalid(ctx, problems)
        import base64
        data = base64.b64decode(match.group(2))
        if len(data) > MAX_EMOJI_BYTES:
            raise HTTPError(400, 0, "Asset exceeds maximum size: 262144")
        if len(self.app_emojis) >= self.app_emoji_limit:
            raise HTTPError(400, 30008, "Maximum number of emojis reached")
        eid = self._snow()
        self.app_emojis[eid] = {"id": str(eid), "name": body["name"], "roles": [], "user": self.bot_user,
                                "require_colons": True, "managed": False, "animated": False, "available": True}
        self.app_emoji_images[eid] = data
        return 201, dict(self.app_emojis[eid])

    async def _r_edit_emoji(self, ctx: _Ctx, app: str, eid: str):
        emoji = self._app_emoji(app, eid)
        body = ctx.json if isinstance(ctx.json, dict) else {}
        if body.get("name") != emoji["name"]:
            problems = self._emoji_name_problems(body.get("name"))
            if problems:
                raise self._invalid(ctx, problems)
        emoji["name"] = body["name"]
        return 200, dict(emoji)

    async def _r_delete_emoji(self, ctx: _Ctx, app: str, eid: str):
        self._app_emoji(app, eid)
        del self.app_emojis[int(eid)]
        self.app_emoji_images.pop(int(eid), None)
        return 204, None

    async def _r_create_dm(self, ctx: _Ctx):
        body = ctx.json or {}
        rid = body.get("recipient_id")
        try:
            user = self.users[int(rid)]
        except (KeyError, TypeError, ValueError):
            raise HTTPError(400, 50033, "Invalid Recipient(s)") from None
        cid = self.dm_channel_id(int(user["id"]))
        return 200, self._channel_public(self._channels[cid])

    # ----- application commands ---------------------------------------------------------------

    def _check_app(self, ctx: _Ctx, app: str) -> None:
        if int(app) != self.application_id:
            self._violation("wrong_application", f"application id {app} is not this bot's ({self.application_id})", ctx)
            raise HTTPError(403, 20012, "You are not authorized to perform this action on this application")

    def _store_command(self, cmd: dict, guild_id: Optional[int]) -> dict:
        ctype = cmd.get("type", 1) or 1
        key = (guild_id, ctype, cmd.get("name"))
        cid = self._command_ids.get(key) or self._snow()
        self._command_ids[key] = cid

        def clean(obj: Any) -> Any:
            if isinstance(obj, dict):
                return {k: clean(v) for k, v in obj.items() if v is not None}
            if isinstance(obj, list):
                return [clean(v) for v in obj]
            return obj

        stored = clean(copy.deepcopy(cmd))
        stored.update(
            id=str(cid),
            application_id=str(self.application_id),
            version=str(self._snow()),
            type=ctype,
            default_member_permissions=cmd.get("default_member_permissions"),
            nsfw=bool(cmd.get("nsfw", False)),
            description=cmd.get("description") or "",
            dm_permission=cmd.get("dm_permission", True),
            contexts=cmd.get("contexts"),
            integration_types=cmd.get("integration_types") or [0],
        )
        stored.setdefault("options", [])
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        return stored

    async def _r_put_commands(self, ctx: _Ctx, app: str, gid: Optional[str] = None):
        self._check_app(ctx, app)
        guild_id = int(gid) if gid else None
        if guild_id is not None and guild_id not in self._guilds:
            raise HTTPError(403, 50001, "Missing Access")
        problems = V.commands_problems(ctx.json)
        if problems:
            raise self._invalid(ctx, problems, "invalid_command")
        if guild_id is None:
            self._entry_point_kept(ctx, ctx.json)
        stored = [self._store_command(c, guild_id) for c in ctx.json]
        if guild_id is None:
            self.commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.command_syncs.append((guild_id, stored))
        return 200, stored

    async def _r_post_command(self, ctx: _Ctx, app: str, gid: Optional[str] = None):
        self._check_app(ctx, app)
        guild_id = int(gid) if gid else None
        problems = V.command_problems(ctx.json)
        if problems:
            raise self._invalid(ctx, problems, "invalid_command")
        stored = self._store_command(ctx.json, guild_id)
        target = self.commands if guild_id is None else self.guild_commands.setdefault(guild_id, [])
        existing = [i for i, c in enumerate(target) if c["name"] == stored["name"] and c["type"] == stored["type"]]
        if existing:
            target[existing[0]] = stored
            return 200, stored
        target.append(stored)
        return 201, stored

    async def _r_get_commands(self, ctx: _Ctx, app: str, gid: Optional[str] = None):
        self._check_app(ctx, app)
        return 200, self.commands if gid is None else self.guild_commands.get(int(gid), [])

    # ----- channels & messages ----------------------------------------------------------------

    def _channel_public(self, ch: dict) -> dict:
        return {k: v for k, v in ch.items() if not k.endswith("_int")}

    def _get_channel_or_404(self, cid: Any) -> dict:
        ch = self._channels.get(int(cid))
        if ch is None:
            raise HTTPError(404, 10003, "Unknown Channel")
        return ch

    async def _r_get_channel(self, ctx: _Ctx, cid: str):
        ch = self._get_channel_or_404(cid)
        self._require(ctx, ch)
        return 200, self._channel_public(ch)

    async def _r_typing(self, ctx: _Ctx, cid: str):
        ch = self._get_channel_or_404(cid)
        self._require(ctx, ch, self._send_permission(ch))
        return 204, None

    def _check_thread_edit(self, ctx: _Ctx, thread: dict, body: dict) -> None:
        """Discord's rule for editing a thread: unarchiving an unlocked thread needs only Send
        Messages; its creator may also rename it and set its idle time; anything else (locking,
        unlocking, reopening a locked thread) needs Manage Threads. An archived thread takes no
        edit that leaves it archived."""
        meta = thread["thread_metadata"]
        owner = int(thread.get("owner_id") or 0) == self.application_id
        plain = {"archived", "auto_archive_duration", "name"} if owner else {"archived"}
        if set(body) - plain or meta.get("locked"):
            needed = ["MANAGE_THREADS"]
        elif body.get("archived") is False:
            needed = ["SEND_MESSAGES"]
        elif body.get("archived") is True and not owner:
            needed = ["MANAGE_THREADS"]
        else:
            needed = []
        self._require(ctx, thread, *needed)
        if meta.get("archived") and body.get("archived") is not False:
            raise HTTPError(400, 50083, "Thread is archived")

    async def _r_edit_channel(self, ctx: _Ctx, cid: str):
        ch = self._get_channel_or_404(cid)
        body = ctx.json or {}
        if ch["type"] in THREAD_TYPES:
            self._check_thread_edit(ctx, ch, body)
        else:
            self._require(ctx, ch, "MANAGE_CHANNELS")
        if "name" in body:
            problems = V._length("name", body["name"], 1, 100)
            if problems:
                raise self._invalid(ctx, problems)
            ch["name"] = body["name"]
        if ch["type"] in (10, 11, 12):
            meta = ch["thread_metadata"]
            for key in ("archived", "locked", "auto_archive_duration", "invitable"):
                if key in body:
                    meta[key] = body[key]
            if "archived" in body:
                meta["archive_timestamp"] = iso_now()
            event = "THREAD_UPDATE"
        else:
            for key in ("topic", "nsfw", "rate_limit_per_user"):
                if key in body:
                    ch[key] = body[key]
            event = "CHANNEL_UPDATE"
        self._spawn(self.dispatch_event(event, self._channel_public(ch), intent=INTENT_GUILDS))
        return 200, self._channel_public(ch)

    async def _r_history(self, ctx: _Ctx, cid: str):
        perms = self._require(ctx, self._get_channel_or_404(cid))
        if not perms & P["READ_MESSAGE_HISTORY"]:
            return 200, []  # Discord answers, with nothing in it
        msgs = [m for m in self.messages(int(cid), include_ephemeral=False)]
        limit = max(1, min(100, int(ctx.query.get("limit", 50))))
        if "before" in ctx.query:
            msgs = [m for m in msgs if m.id < int(ctx.query["before"])]
        if "after" in ctx.query:
            msgs = [m for m in msgs if m.id > int(ctx.query["after"])]
            return 200, [m.data for m in reversed(msgs[:limit])]
        return 200, [m.data for m in reversed(msgs)][:limit]

    def _get_message_or_404(self, cid: Any, mid: Any, *, allow_ephemeral: bool = False) -> MessageRecord:
        msg = self._messages.get(int(mid))
        if msg is None or msg.channel_id != int(cid) or msg.deleted or (msg.ephemeral and not allow_ephemeral):
            raise HTTPError(404, 10008, "Unknown Message")
        return msg

    async def _r_get_message(self, ctx: _Ctx, cid: str, mid: str):
        self._require(ctx, self._get_channel_or_404(cid), "READ_MESSAGE_HISTORY")
        return 200, self._get_message_or_404(cid, mid).data

    def upload_limit(self, channel_id: Optional[int]) -> int:
        """The largest file one may send where ``channel_id`` is: a server's limit grows with its
        boost tier (8 MiB unboosted, as the brief for this bot takes it; 50 and 100 MiB at tiers 2
        and 3), DMs have the unboosted limit, and ``max_file_size`` caps every one (a test may lower it)."""
        ch = self._channels.get(int(channel_id)) if channel_id is not None else None
        tier = 0
        if ch is not None and ch.get("guild_id"):
            tier = int(self._guilds[int(ch["guild_id"])].data.get("premium_tier") or 0)
        return min(self.max_file_size, UPLOAD_LIMITS.get(tier, UPLOAD_LIMITS[0]))

    def _check_files(self, ctx: _Ctx, files: list[FileRecord], channel_id: Optional[int] = None) -> None:
        limit = self.upload_limit(channel_id) if channel_id is not None else self.max_file_size
        for f in files:
            if f.size > limit:
                self._violation("file_too_large", f"{f.filename} is {f.size} bytes > {limit}", ctx)
                raise HTTPError(413, 40005, "Request entity too large")

    def _check_can_send(self, ctx: _Ctx, ch: dict, payload: dict, n_files: int = 0) -> None:
        if ch["type"] == 1:
            uid = ch["recipient_id_int"]
            if uid in self.dm_closed:
                self.dm_failures.append((uid, payload))
                raise HTTPError(403, 50007, "Cannot send messages to this user")
            return
        needed = [self._send_permission(ch)]
        if n_files or any(isinstance(a, dict) for a in payload.get("attachments") or []):
            needed.append("ATTACH_FILES")
        if isinstance(payload.get("message_reference"), dict):
            needed.append("READ_MESSAGE_HISTORY")  # a reply
        self._require(ctx, ch, *needed)
        if ch["type"] in THREAD_TYPES and ch["thread_metadata"].get("archived") and ch["thread_metadata"].get("locked"):
            raise HTTPError(400, 50083, "Thread is archived")  # only an explicit unarchive reopens it

    async def _r_post_message(self, ctx: _Ctx, cid: str):
        ch = self._get_channel_or_404(cid)
        payload = ctx.json if isinstance(ctx.json, dict) else {}
        self._check_can_send(ctx, ch, payload, len(ctx.files))
        self._check_files(ctx, ctx.files, int(ch["id"]))
        flags = int(payload.get("flags") or 0)
        problems = V.message_problems(payload, n_files=len(ctx.files))
        if problems:
            raise self._invalid(ctx, problems)
        if V.is_empty_message(payload, len(ctx.files)):
            self._violation("empty_message", "Cannot send an empty message", ctx)
            raise HTTPError(400, 50006, "Cannot send an empty message")
        if flags & V.FLAG_EPHEMERAL:
            self._violation(
                "ephemeral_flag_on_channel_message",
                "EPHEMERAL only works on interaction responses: this channel message is PUBLIC",
                ctx,
            )
            flags &= ~V.FLAG_EPHEMERAL
        if ch["type"] in THREAD_TYPES and ch["thread_metadata"].get("archived"):
            ch["thread_metadata"]["archived"] = False  # sending unarchives (an unlocked thread)
        msg = self._create_message(ch, payload, ctx.files, ctx=ctx, flags=flags)
        return 200, msg.data

    async def _r_edit_message(self, ctx: _Ctx, cid: str, mid: str):
        ch = self._get_channel_or_404(cid)
        # One's own message: seeing the channel is enough, new files need Attach Files; a locked
        # thread takes editing away from whoever lacks Manage Threads, an archived one from everyone.
        needed = ["ATTACH_FILES"] if ctx.files else []
        if ch["type"] in THREAD_TYPES and ch["thread_metadata"].get("locked"):
            needed.append("MANAGE_THREADS")
        self._require(ctx, ch, *needed)
        self._not_archived(ch)
        msg = self._get_message_or_404(cid, mid)
        if msg.author_id != self.application_id:
            raise HTTPError(403, 50005, "Cannot edit a message authored by another user")
        self._check_old_edit(msg)
        self._edit_message(ctx, msg, ctx.json if isinstance(ctx.json, dict) else {}, ctx.files)
        return 200, msg.data

    async def _r_delete_message(self, ctx: _Ctx, cid: str, mid: str):
        ch = self._get_channel_or_404(cid)
        msg = self._get_message_or_404(cid, mid)
        self._require(ctx, ch, *([] if msg.author_id == self.application_id else ["MANAGE_MESSAGES"]))
        self._delete_message(msg)
        return 204, None

    async def _r_pin(self, ctx: _Ctx, cid: str, mid: str):
        ch = self._get_channel_or_404(cid)
        self._require(ctx, ch, "PIN_MESSAGES")  # no longer Manage Messages, since 2026-01-12
        self._not_archived(ch)
        msg = self._get_message_or_404(cid, mid)
        if sum(1 for m in self.messages(int(cid)) if m.pinned) >= 50 and not msg.pinned:
            raise HTTPError(400, 30003, "Maximum number of pins reached (50)")
        msg.pinned = True
        msg.data["pinned"] = True
        self._notify()
        return 204, None

    async def _r_unpin(self, ctx: _Ctx, cid: str, mid: str):
        ch = self._get_channel_or_404(cid)
        self._require(ctx, ch, "PIN_MESSAGES")
        self._not_archived(ch)
        msg = self._get_message_or_404(cid, mid)
        msg.pinned = False
        msg.data["pinned"] = False
        return 204, None

    async def _r_list_pins_new(self, ctx: _Ctx, cid: str):
        perms = self._require(ctx, self._get_channel_or_404(cid))
        pins = [m for m in self.messages(int(cid), include_ephemeral=False) if m.pinned]
        if not perms & P["READ_MESSAGE_HISTORY"]:
            pins = []  # Discord answers, with nothing in it
        return 200, {"items": [{"pinned_at": iso_now(), "message": m.data} for m in reversed(pins)], "has_more": False}

    async def _r_list_pins_old(self, ctx: _Ctx, cid: str):
        if not self._require(ctx, self._get_channel_or_404(cid)) & P["READ_MESSAGE_HISTORY"]:
            return 200, []
        return 200, [m.data for m in reversed(self.messages(int(cid), include_ephemeral=False)) if m.pinned]

    async def _r_create_thread(self, ctx: _Ctx, cid: str, mid: Optional[str] = None):
        parent = self._get_channel_or_404(cid)
        if parent["type"] not in (0, 5):
            raise HTTPError(400, 50024, "Cannot execute action on this channel type")
        body = ctx.json if isinstance(ctx.json, dict) else {}
        problems = V._length("name", body.get("name"), 1, 100)
        if body.get("auto_archive_duration") not in (None, 60, 1440, 4320, 10080):
            problems.append(V.Problem("auto_archive_duration", "BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}."))
        if problems:
            raise self._invalid(ctx, problems)
        ttype_wanted = 11 if mid is not None else (body.get("type") or 12)
        self._require(ctx, parent, "CREATE_PRIVATE_THREADS" if ttype_wanted == 12 else "CREATE_PUBLIC_THREADS")
        starter: Optional[MessageRecord] = None
        if mid is not None:
            starter = self._get_message_or_404(cid, mid)
            if starter.data.get("thread"):
                raise HTTPError(400, 160004, "A thread has already been created for this message")
            tid = starter.id
            ttype = 11
        else:
            tid = self._snow()
            ttype = body.get("type") or 12
        gid = int(parent["guild_id"])
        thread = {
            "id": str(tid),
            "type": ttype,
            "guild_id": str(gid),
            "parent_id": parent["id"],
            "owner_id": str(self.application_id),
            "name": body["name"],
            "last_message_id": None,
            "message_count": 0,
            "total_message_sent": 0,
            "member_count": 1,
            "rate_limit_per_user": body.get("rate_limit_per_user") or 0,
            "flags": 0,
            "applied_tags": [],
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": body.get("auto_archive_duration") or 1440,
                "archive_timestamp": iso_now(),
                "locked": False,
                "invitable": body.get("invitable", True) if ttype == 12 else None,
                "create_timestamp": iso_now(),
            },
            "member": {"id": str(tid), "user_id": str(self.application_id), "join_timestamp": iso_now(), "flags": 0},
        }
        thread["thread_metadata"] = {k: v for k, v in thread["thread_metadata"].items() if v is not None}
        self._channels[tid] = thread
        self._channel_messages[tid] = []
        self._guilds[gid].thread_ids.append(tid)
        if starter is not None:  # not an edit: no history entry, no edited_timestamp
            starter.data["thread"] = self._channel_public(thread)
            starter.data["flags"] = starter.flags | 32  # HAS_THREAD
        self._spawn(self.dispatch_event("THREAD_CREATE", dict(self._channel_public(thread), newly_created=True), intent=INTENT_GUILDS))
        self._notify()
        return 201, self._channel_public(thread)

    # ----- guilds -----------------------------------------------------------------------------

    def _guild_rest(self, g: _Guild) -> dict:
        return {k: v for k, v in g.data.items() if not k.endswith("_role_id")}

    async def _r_get_guild(self, ctx: _Ctx, gid: str):
        g = self._guilds.get(int(gid))
        if g is None:
            raise HTTPError(404, 10004, "Unknown Guild")
        out = self._guild_rest(g)
        if ctx.query.get("with_counts") in ("true", "1", "True"):
            out.update(approximate_member_count=len(g.members), approximate_presence_count=len(g.members))
        return 200, out

    async def _r_guild_channels(self, ctx: _Ctx, gid: str):
        g = self._guilds.get(int(gid))
        if g is None:
            raise HTTPError(404, 10004, "Unknown Guild")
        return 200, [self._channel_public(self._channels[c]) for c in g.channel_ids]

    async def _r_guild_roles(self, ctx: _Ctx, gid: str):
        g = self._guilds.get(int(gid))
        if g is None:
            raise HTTPError(404, 10004, "Unknown Guild")
        return 200, g.data["roles"]

    async def _r_guild_member(self, ctx: _Ctx, gid: str, uid: str):
        g = self._guilds.get(int(gid))
        if g is None:
            raise HTTPError(404, 10004, "Unknown Guild")
        member = g.members.get(int(uid))
        if member is None:
            raise HTTPError(404, 10007, "Unknown Member")
        return 200, member

    # =========================================================================================
    # messages
    # =========================================================================================

    def _make_attachments(
        self, ctx: Optional[_Ctx], channel_id: int, entries: Any, files: list[FileRecord], existing: list[AttachmentRecord] = ()
    ) -> list[AttachmentRecord]:
        by_index: dict[int, FileRecord] = {}
        for i, f in enumerate(files):
            m = re.fullmatch(r"files\[(\d+)\]", f.field)
            by_index[int(m.group(1)) if m else i] = f
        old = {a.id: a for a in existing}
        if not isinstance(entries, list):
            entries = [{"id": i} for i in by_index] if entries is None else []
            keep_old = list(existing)
        else:
            keep_old = []
        result: list[AttachmentRecord] = list(keep_old)
        used: set[int] = set()
        problems = []
        for n, entry in enumerate(entries):
            try:
                eid = int(entry.get("id"))
            except (TypeError, ValueError, AttributeError):
                problems.append(V.Problem(f"attachments.{n}.id", "BASE_TYPE_REQUIRED", "This field is required"))
                continue
            if eid in old:
                result.append(old[eid])
            elif eid in by_index:
                f = by_index[eid]
                used.add(eid)
                result.append(self._new_attachment(channel_id, entry.get("filename") or f.filename, f.data, entry.get("description")))
            else:
                problems.append(V.Problem(f"attachments.{n}.id", "ATTACHMENT_NOT_FOUND", f"Unknown attachment id {eid}"))
        for idx, f in by_index.items():  # files not referenced in payload_json still get attached
            if idx not in used:
                result.append(self._new_attachment(channel_id, f.filename, f.data, None))
        if problems and ctx is not None:
            raise self._invalid(ctx, problems)
        if len(result) > V.MAX_FILES and ctx is not None:
            raise self._invalid(ctx, [V.Problem("attachments", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")])
        return result

    def _new_attachment(self, channel_id: int, filename: str, data: bytes, description: Optional[str]) -> AttachmentRecord:
        aid = self._snow()
        filename = re.sub(r"[^\w.\-]", "_", filename or "unknown") or "unknown"
        size = image_size(data)
        att = AttachmentRecord(
            id=aid,
            filename=filename,
            content_type=sniff_content_type(data, filename),
            data=data,
            url=f"{self.base_url}/attachments/{channel_id}/{aid}/{filename}",
            description=description,
            width=size[0] if size else None,
            height=size[1] if size else None,
        )
        self._attachments[aid] = att
        return att

    def _resolve_attachment_urls(self, obj: Any, atts: list[AttachmentRecord], *, media: bool = False) -> Any:
        """``attachment://name`` becomes the attachment's URL; in components (``media``) the
        unfurled media item also names the attachment by id, as Discord's does."""
        by_name = {a.filename: a for a in atts}

        def walk(o: Any) -> Any:
            if isinstance(o, dict):
                out = {k: walk(v) for k, v in o.items()}
                url = out.get("url")
                if isinstance(url, str) and url.startswith("attachment://"):
                    att = by_name.get(url[len("attachment://"):])
                    if att is not None:
                        out.update(url=att.url, proxy_url=att.url)
                        if att.width is not None:
                            out.update(width=att.width, height=att.height)
                        if media:
                            out.update(id=str(self._snow()), attachment_id=str(att.id), content_type=att.content_type)
                return out
            if isinstance(o, list):
                return [walk(v) for v in o]
            return o

        return walk(obj)

    def _normalize_embeds(self, embeds: Any, atts: list[AttachmentRecord]) -> list[dict]:
        out = []
        for e in embeds or []:
            e = dict(e)
            e.setdefault("type", "rich")
            e = self._resolve_attachment_urls(e, atts)
            out.append(e)
        return out

    def _mentions(self, payload: dict, data: Optional[dict] = None) -> list[dict]:
        """The users a message pings: mentions in its content or (Components V2) its text displays,
        narrowed by ``allowed_mentions`` as Discord parses them. ``data`` is the message as it
        will be (an edit), else the payload itself."""
        data = data if data is not None else payload
        texts = [data.get("content") or ""]
        texts += [c.get("content") or "" for c in V.walk_components(data.get("components") or []) if c.get("type") == 10]
        ids = list(dict.fromkeys(int(x) for x in re.findall(r"<@!?(\d+)>", "\n".join(texts))))
        allowed = payload.get("allowed_mentions")
        if isinstance(allowed, dict):
            named = {int(u) for u in allowed.get("users") or []}
            ids = [u for u in ids if "users" in (allowed.get("parse") or []) or u in named]
        return [self.users[u] for u in ids if u in self.users]

    def _create_message(
        self,
        ch: dict,
        payload: dict,
        files: list[FileRecord],
        *,
        ctx: Optional[_Ctx],
        flags: int,
        author: Optional[dict] = None,
        interaction: Optional[InteractionRecord] = None,
        msg_type: int = 0,
        member: Optional[dict] = None,
    ) -> MessageRecord:
        cid = int(ch["id"])
        mid = self._snow()
        atts = self._make_attachments(ctx, cid, payload.get("attachments"), files)
        if flags & V.FLAG_COMPONENTS_V2 and ctx is not None:
            problems = V.attachment_reference_problems(payload.get("components"), [a.filename for a in atts])
            if problems:
                raise self._invalid(ctx, problems)
        if ctx is not None:
            self._check_media_urls(ctx, payload.get("components"))
        ephemeral = bool(flags & V.FLAG_EPHEMERAL)
        author = author or self.bot_user
        data: dict = {
            "id": str(mid),
            "channel_id": str(cid),
            "author": author,
            "content": payload.get("content") or "",
            "timestamp": iso_from_snowflake(mid),
            "edited_timestamp": None,
            "tts": bool(payload.get("tts", False)),
            "mention_everyone": False,
            "mentions": self._mentions(payload),
            "mention_roles": [],
            "mention_channels": [],
            "attachments": [a.to_dict(ephemeral=ephemeral) for a in atts],
            "embeds": self._normalize_embeds(payload.get("embeds"), atts),
            "components": self._resolve_attachment_urls(copy.deepcopy(payload.get("components") or []), atts, media=True),
            "pinned": False,
            "type": msg_type,
            "flags": flags,
        }
        if payload.get("nonce") is not None:
            data["nonce"] = payload["nonce"]
        if isinstance(payload.get("message_reference"), dict):
            ref = dict(payload["message_reference"])
            ref.setdefault("channel_id", str(cid))
            data["message_reference"] = ref
            data["type"] = 19
        if payload.get("poll"):
            data["poll"] = payload["poll"]
        if interaction is not None:
            ip = interaction.payload
            iuser = (ip.get("member") or {}).get("user") or ip.get("user")
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            data["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": iuser,
                "authorizing_integration_owners": ip.get("authorizing_integration_owners", {}),
            }
            if interaction.type == I_COMMAND:
                data["interaction_metadata"]["name"] = ip["data"]["name"]
                data["interaction_metadata"]["command_type"] = 1
            if interaction.type == I_COMPONENT and ip.get("message"):
                data["interaction_metadata"]["interacted_message_id"] = ip["message"]["id"]
            data["interaction"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "name": (ip.get("data") or {}).get("name", ""),
                "user": iuser,
            }
        msg = MessageRecord(data, atts, payload=payload)
        msg.created_at = self._clock()
        if interaction is not None:
            msg.interaction_id = interaction.id
        if ch["type"] == 1:
            msg.dm_user_id = ch["recipient_id_int"]
        self._messages[mid] = msg
        self._channel_messages.setdefault(cid, []).append(msg)
        if not ephemeral:
            ch["last_message_id"] = str(mid)
            if ch["type"] in (10, 11, 12):
                ch["message_count"] = ch.get("message_count", 0) + 1
                ch["total_message_sent"] = ch.get("total_message_sent", 0) + 1
            self._spawn(self._dispatch_message_event("MESSAGE_CREATE", msg, ch, member=member))
        self._notify()
        return msg

    def _edit_message(self, ctx: Optional[_Ctx], msg: MessageRecord, payload: dict, files: list[FileRecord]) -> None:
        if ctx is not None:
            self._check_files(ctx, files, msg.channel_id)
        old_flags = msg.flags
        new_flags = old_flags & ~V.FLAG_LOADING
        if "flags" in payload and payload["flags"] is not None:
            editable = V.FLAG_SUPPRESS_EMBEDS | V.FLAG_COMPONENTS_V2
            new_flags = (new_flags & ~editable) | (int(payload["flags"]) & editable)
            if old_flags & V.FLAG_COMPONENTS_V2 and not new_flags & V.FLAG_COMPONENTS_V2 and not old_flags & V.FLAG_LOADING:
                problems = [V.Problem("flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", "The IS_COMPONENTS_V2 flag cannot be removed")]
                if ctx is not None:
                    raise self._invalid(ctx, problems)
        problems = V.message_problems(payload, n_files=len(files), editing=True, flags=new_flags)
        if new_flags & V.FLAG_COMPONENTS_V2 and "content" not in payload and msg.content:
            problems.append(V.Problem("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "Clear 'content' when switching to IS_COMPONENTS_V2"))
        if problems and ctx is not None:
            raise self._invalid(ctx, problems)
        if "attachments" in payload or files:
            atts = self._make_attachments(ctx, msg.channel_id, payload.get("attachments"), files, existing=msg.attachments)
        else:
            atts = msg.attachments
        if new_flags & V.FLAG_COMPONENTS_V2 and "components" in payload and ctx is not None:
            problems = V.attachment_reference_problems(payload["components"], [a.filename for a in atts])
            if problems:
                raise self._invalid(ctx, problems)
        if ctx is not None and "components" in payload:
            self._check_media_urls(ctx, payload["components"])
        new = copy.deepcopy(msg.data)
        if "content" in payload:
            new["content"] = payload["content"] or ""
        if "embeds" in payload:
            new["embeds"] = self._normalize_embeds(payload["embeds"], atts)
        if "components" in payload:
            new["components"] = self._resolve_attachment_urls(copy.deepcopy(payload["components"] or []), atts, media=True)
        if "content" in payload or "components" in payload:
            new["mentions"] = self._mentions(payload, new)
        new["attachments"] = [a.to_dict(ephemeral=msg.ephemeral) for a in atts]
        new["flags"] = new_flags
        new["edited_timestamp"] = iso_now()
        empty = not (new["content"] or new["embeds"] or new["components"] or new["attachments"] or new.get("poll") or new.get("sticker_items"))
        if empty and ctx is not None:
            self._violation("empty_message", "the edit would leave the message empty", ctx)
            raise HTTPError(400, 50006, "Cannot send an empty message")
        msg.history.append(msg.data)
        msg.data = new
        msg.attachments = list(atts)
        msg.payload = payload
        msg.loading_unedited = False
        if not msg.ephemeral:
            self._spawn(self._dispatch_message_event("MESSAGE_UPDATE", msg, self._channels[msg.channel_id]))
        self._notify()

    def _delete_message(self, msg: MessageRecord) -> None:
        msg.deleted = True
        ch = self._channels[msg.channel_id]
        if not msg.ephemeral:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if ch.get("guild_id"):
                data["guild_id"] = ch["guild_id"]
            intent = INTENT_DIRECT_MESSAGES if ch["type"] == 1 else INTENT_GUILD_MESSAGES
            self._spawn(self.dispatch_event("MESSAGE_DELETE", data, intent=intent))
        self._notify()

    async def _dispatch_message_event(self, event: str, msg: MessageRecord, ch: dict, member: Optional[dict] = None) -> None:
        if ch["type"] == GROUP_DM:
            return  # the bot is in no group DM: it hears nothing of one
        session = self._session_for(int(ch["guild_id"]) if ch.get("guild_id") else None)
        if session is None:
            return
        is_dm = ch["type"] == 1
        data = copy.deepcopy(msg.data)
        if not is_dm:
            data["guild_id"] = ch["guild_id"]
            if member is not None:
                data["member"] = {k: v for k, v in member.items() if k != "user"}
        content_visible = (
            msg.author_id == self.application_id
            or is_dm
            or session.intents & INTENT_MESSAGE_CONTENT
            or any(int(u["id"]) == self.application_id for u in data.get("mentions", []))
        )
        if not content_visible:
            data.update(content="", embeds=[], attachments=[], components=[])
        await self.dispatch_event(event, data, session=session,
                                  intent=INTENT_DIRECT_MESSAGES if is_dm else INTENT_GUILD_MESSAGES)

    async def send_user_message(self, channel_id: int, user: UserRef, content: str) -> MessageRecord:
        """A human posts in a channel (dispatched as MESSAGE_CREATE if the bot's intents allow)."""
        u = self.resolve_user(user)
        ch = self.channel(channel_id)
        member = None
        if ch.get("guild_id"):
            member = self._guild(ch["guild_id"]).members.get(int(u["id"]))
        return self._create_message(ch, {"content": content}, [], ctx=None, flags=0, author=u, member=member)

    # =========================================================================================
    # interactions: callbacks, follow-ups, webhook edits
    # =========================================================================================

    def _expire(self, rec: InteractionRecord) -> None:
        if rec.callbacks or rec.expired:
            return
        rec.expired = True
        what = (rec.payload.get("data") or {}).get("name") or (rec.payload.get("data") or {}).get("custom_id")
        self._violation(
            "late_response",
            f"interaction {rec.id} (type {rec.type}, {what!r}) was not answered within {self.response_deadline}s",
            detail=rec,
        )

    async def _r_callback(self, ctx: _Ctx, iid: str, token: str):
        rec = self.interactions.get(int(iid))
        if rec is None or rec.token != token:
            self._violation("unknown_interaction", f"callback for unknown interaction {iid}", ctx)
            raise HTTPError(404, 10062, "Unknown interaction")
        now = asyncio.get_running_loop().time()
        err: Optional[HTTPError] = None
        if rec.expired or (not rec.callbacks and now - rec.dispatched_at > self.response_deadline):
            if not rec.expired:
                self._expire(rec)
            err = HTTPError(404, 10062, "Unknown interaction")
        elif rec.callbacks:
            self._violation("already_acknowledged", f"second callback to interaction {rec.id}", ctx)
            err = HTTPError(400, 40060, "Interaction has already been acknowledged.")
        if err is not None:
            rec.rejected.append((err.status, err.body))
            raise err
        body = ctx.json if isinstance(ctx.json, dict) else {}
        ctype = body.get("type")
        data = body.get("data")
        if ctype not in ALLOWED_CALLBACKS.get(rec.type, set()):
            problems = [V.Problem("type", "INTERACTION_RESPONSE_TYPE_INVALID", f"callback type {ctype!r} is not valid for interaction type {rec.type}")]
            rec.rejected.append((400, {"code": 50035}))
            raise self._invalid(ctx, problems, "invalid_callback")
        if ctype in (7, 6) and rec.payload.get("message") is None:
            problems = [V.Problem("type", "INTERACTION_RESPONSE_TYPE_INVALID", "update-message callbacks need a message")]
            raise self._invalid(ctx, problems, "invalid_callback")
        self._check_files(ctx, ctx.files, rec.channel_id)
        if ctype == 4:
            d = data if isinstance(data, dict) else {}
            problems = V.message_problems(d, n_files=len(ctx.files))
            if not problems and V.is_empty_message(d, len(ctx.files)):
                self._violation("empty_message", "Cannot send an empty message", ctx)
                raise HTTPError(400, 50006, "Cannot send an empty message")
        elif ctype == 7:
            problems = []  # checked by _edit_message
        elif ctype == 8:
            problems = V.autocomplete_problems(data)
        elif ctype == 9:
            problems = V.modal_problems(data)
        else:
            problems = []
        if problems:
            raise self._invalid(ctx, [V.Problem("data." + p.path, p.code, p.message) if not p.path.startswith("data") else p for p in problems])

        ch = self._channels[rec.channel_id]
        message: Optional[MessageRecord] = None
        d = data if isinstance(data, dict) else {}
        instance = self._launch_activity(ctx, rec) if ctype == 12 else None
        if ctype == 4:
            flags = int(d.get("flags") or 0) & (V.FLAG_EPHEMERAL | V.FLAG_SUPPRESS_EMBEDS | V.FLAG_SUPPRESS_NOTIFICATIONS | V.FLAG_COMPONENTS_V2)
            message = self._create_message(ch, d, ctx.files, ctx=ctx, flags=flags, interaction=rec, msg_type=20 if rec.type == I_COMMAND else 0)
            rec.original = message
        elif ctype == 5:
            flags = V.FLAG_LOADING | (int(d.get("flags") or 0) & V.FLAG_EPHEMERAL)
            message = self._create_message(ch, {}, [], ctx=ctx, flags=flags, interaction=rec, msg_type=20 if rec.type == I_COMMAND else 0)
            message.loading_unedited = True
            rec.original = message
        elif ctype in (6, 7):
            target = self._messages.get(int(rec.payload["message"]["id"]))
            if target is None or target.deleted:
                raise HTTPError(404, 10008, "Unknown Message")
            if ctype == 7:
                self._edit_message(ctx, target, d, ctx.files)
            rec.original = target
            message = target if ctype == 7 else None
        cb = CallbackRecord(ctype, data, ctx.files, now, now - rec.dispatched_at, message)
        rec.callbacks.append(cb)
        self._notify()
        if ctx.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        interaction = {"id": str(rec.id), "type": rec.type}
        if message is not None:
            interaction.update(
                response_message_id=str(message.id),
                response_message_loading=message.loading,
                response_message_ephemeral=message.ephemeral,
            )
        out: dict = {"interaction": interaction}
        resource: dict = {"type": ctype}
        if message is not None:
            resource["message"] = message.data
        if instance is not None:
            resource["activity_instance"] = {"id": instance.instance_id}
            interaction["activity_instance_id"] = instance.instance_id
        out["resource"] = resource
        return 200, out

    def _webhook_interaction(self, ctx: _Ctx, app: str, token: str) -> InteractionRecord:
        rec = self._interactions_by_token.get(token)
        if rec is None or int(app) != self.application_id:
            self._violation("unknown_webhook", f"webhook {app}/<token> is not an interaction token of this bot", ctx)
            raise HTTPError(404, 10015, "Unknown Webhook")
        now = asyncio.get_running_loop().time()
        if now - rec.dispatched_at > self.token_lifetime:
            self._violation("expired_token", f"interaction {rec.id} token used after {self.token_lifetime}s", ctx)
            rec.rejected.append((401, {"code": 50027}))
            raise HTTPError(401, 50027, "Invalid Webhook Token")
        if not rec.callbacks:
            self._violation("followup_before_response", f"webhook call on interaction {rec.id} before any callback", ctx)
            rec.rejected.append((404, {"code": 10015}))
            raise HTTPError(404, 10015, "Unknown Webhook")
        return rec

    def _webhook_message(self, rec: InteractionRecord, mid: str) -> MessageRecord:
        if mid == "@original":
            msg = rec.original
        else:
            msg = self._messages.get(int(mid))
            if msg is not None and msg is not rec.original and msg not in rec.followups:
                msg = None
        if msg is None or msg.deleted:
            raise HTTPError(404, 10008, "Unknown Message")
        return msg

    async def _r_followup(self, ctx: _Ctx, app: str, token: str):
        rec = self._webhook_interaction(ctx, app, token)
        if "0" not in (rec.payload.get("authorizing_integration_owners") or {}):
            rec.followup_requests += 1
            if rec.followup_requests > MOST_USER_INSTALL_FOLLOW_UPS:
                self._violation("followup_limit", f"follow-up {rec.followup_requests} of interaction {rec.id}, "
                                f"where the app is installed only to a user", ctx)
                rec.rejected.append((400, {"code": 40094}))
                raise HTTPError(400, 40094, "This interaction has hit the maximum number of follow up messages")
        payload = ctx.json if isinstance(ctx.json, dict) else {}
        self._check_files(ctx, ctx.files, rec.channel_id)
        problems = V.message_problems(payload, n_files=len(ctx.files))
        if problems:
            raise self._invalid(ctx, problems)
        if V.is_empty_message(payload, len(ctx.files)):
            self._violation("empty_message", "Cannot send an empty message", ctx)
            raise HTTPError(400, 50006, "Cannot send an empty message")
        orig = rec.original
        if orig is not None and orig.loading_unedited and not orig.deleted:
            # The first follow-up after a deferred "thinking" response replaces the placeholder.
            edit = {k: v for k, v in payload.items() if k != "flags"}
            edit.setdefault("content", "")
            self._edit_message(ctx, orig, edit, ctx.files)
            msg = orig
            if msg not in rec.followups:
                rec.followups.append(msg)
        else:
            flags = int(payload.get("flags") or 0) & (V.FLAG_EPHEMERAL | V.FLAG_SUPPRESS_EMBEDS | V.FLAG_SUPPRESS_NOTIFICATIONS | V.FLAG_COMPONENTS_V2)
            ch = self._channels[rec.channel_id]
            msg = self._create_message(ch, payload, ctx.files, ctx=ctx, flags=flags, interaction=rec)
            rec.followups.append(msg)
        self._notify()
        if ctx.query.get("wait") in ("true", "1", "True"):
            return 200, msg.data
        return 204, None

    async def _r_webhook_get(self, ctx: _Ctx, app: str, token: str, mid: str):
        rec = self._webhook_interaction(ctx, app, token)
        return 200, self._webhook_message(rec, mid).data

    async def _r_webhook_edit(self, ctx: _Ctx, app: str, token: str, mid: str):
        rec = self._webhook_interaction(ctx, app, token)
        msg = self._webhook_message(rec, mid)
        self._edit_message(ctx, msg, ctx.json if isinstance(ctx.json, dict) else {}, ctx.files)
        return 200, msg.data

    async def _r_webhook_delete(self, ctx: _Ctx, app: str, token: str, mid: str):
        rec = self._webhook_interaction(ctx, app, token)
        msg = self._webhook_message(rec, mid)
        self._delete_message(msg)
        return 204, None

    # =========================================================================================
    # gateway
    # =========================================================================================

    async def _gateway_handler(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self.gateway_queries.append(dict(request.query))
        compress = request.query.get("compress")
        if compress not in (None, "zlib-stream"):
            log.warning("fakediscord: unsupported gateway compression %r; sending plain text", compress)
            self._violation("unsupported_compression", f"gateway compress={compress!r} is not supported by the stand-in; sent plain text")
            compress = None
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"only encoding=json is supported")
            return ws
        conn = _Conn(ws, request, compress)
        self._conns.add(conn)
        try:
            await conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval, "_trace": ["fakediscord-gateway"]}, "s": None, "t": None})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    text = msg.data
                elif msg.type == WSMsgType.BINARY:
                    text = msg.data.decode("utf-8", "replace")
                else:
                    break
                try:
                    payload = json.loads(text)
                    op = payload["op"]
                except (ValueError, KeyError, TypeError):
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                await self._gateway_op(conn, op, payload.get("d"))
        except ConnectionResetError:
            pass
        finally:
            self._conns.discard(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
                conn.session.live = False
            self._notify()
        return ws

    async def _gateway_op(self, conn: _Conn, op: int, d: Any) -> None:
        redacted = copy.deepcopy(d)
        if isinstance(redacted, dict) and "token" in redacted:
            redacted["token"] = "<redacted>"
        self.gateway_received.append({"op": op, "d": redacted})
        if op == 1:
            await conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            await self._identify(conn, d or {})
        elif op == 6:
            await self._resume(conn, d or {})
        elif conn.session is None:
            await conn.ws.close(code=4003, message=b"Not authenticated.")
        elif op == 3:
            self.presence = d
        elif op == 8:
            await self._request_members(conn, d or {})
        elif op in (4, 5, 31, 36, 37):
            pass
        else:
            await conn.ws.close(code=4001, message=b"Unknown opcode.")
        self._notify()

    def _token_ok(self, token: Any) -> bool:
        if not isinstance(token, str) or not token:
            return False
        if token.startswith("Bot "):
            self._violation("gateway_token_prefix", "IDENTIFY/RESUME token must not carry the 'Bot ' prefix")
            token = token[4:]
        return self.token is None or token == self.token

    async def _identify(self, conn: _Conn, d: dict) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        if not self._token_ok(d.get("token")):
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = d.get("intents")
        if intents is None:
            await conn.ws.close(code=4013, message=b"Invalid intent(s).")
            return
        if int(intents) & PRIVILEGED_INTENTS & ~self.allowed_privileged_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = d.get("shard")
        if shard is not None and not _valid_shard(shard):
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        if self.shards_required and (shard is None or shard[1] < self.shards_required):
            await conn.ws.close(code=4011, message=b"Sharding required.")
            return
        session = _Session(secrets.token_hex(16), {k: v for k, v in d.items() if k != "token"})
        self.sessions[session.id] = session
        self.current_session = session
        if shard is None:
            self.shard_count, self.shard_sessions = None, {}
        else:
            if shard[1] != self.shard_count:
                self.shard_sessions = {}
            self.shard_count = shard[1]
            self.shard_sessions[shard[0]] = session
        mine = [g for g in self._guilds.values() if shard is None or self.shard_of(g.id) == shard[0]]
        self.identify_count += 1
        session.conn = conn
        conn.session = session
        ready = {
            "v": API_VERSION,
            "user": self._bot_user_full(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 1 << 23},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": ["japan", "hongkong"],
            "auth_session_id_hash": secrets.token_hex(8),
            "_trace": ["fakediscord-gateway"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        await self.dispatch_event("READY", ready, session=session)
        if session.intents & INTENT_GUILDS:
            for g in mine:
                await self.dispatch_event("GUILD_CREATE", self._guild_create_payload(g), session=session)
        session.live = True
        self._notify()

    async def _resume(self, conn: _Conn, d: dict) -> None:
        session = self.sessions.get(d.get("session_id") or "")
        if session is None or not self._token_ok(d.get("token")):
            await conn.send({"op": 9, "d": False, "s": None, "t": None})
            return
        old = session.conn
        if old is not None and old is not conn and old.open:
            await old.ws.close(code=4000, message=b"session resumed elsewhere")
        session.conn = conn
        conn.session = session
        self.current_session = session
        if session.shard is not None and session.shard[1] == self.shard_count:
            self.shard_sessions[session.shard[0]] = session
        self.resume_count += 1
        last = int(d.get("seq") or 0)
        for event in session.buffer:
            if event["s"] > last:
                await conn.send(event)
        await self.dispatch_event("RESUMED", {"_trace": ["fakediscord-gateway"]}, session=session)
        session.live = True
        self._notify()

    async def _request_members(self, conn: _Conn, d: dict) -> None:
        g = self._guilds.get(int(d.get("guild_id") or 0))
        if g is None:
            return
        members = list(g.members.values())
        query = d.get("query")
        if d.get("user_ids"):
            ids = {int(x) for x in (d["user_ids"] if isinstance(d["user_ids"], list) else [d["user_ids"]])}
            members = [m for m in members if int(m["user"]["id"]) in ids]
        elif query:
            members = [m for m in members if m["user"]["username"].lower().startswith(query.lower())]
        if d.get("limit"):
            members = members[: int(d["limit"])]
        chunk = {"guild_id": str(g.id), "members": members, "chunk_index": 0, "chunk_count": 1, "not_found": []}
        if d.get("nonce") is not None:
            chunk["nonce"] = d["nonce"]
        if d.get("presences"):
            chunk["presences"] = []
        await self.dispatch_event("GUILD_MEMBERS_CHUNK", chunk, session=conn.session)

    def _guild_create_payload(self, g: _Guild, *, joined: bool = False) -> dict:
        """``joined``: the bot was just added (no ``unavailable`` key, so discord.py fires guild_join)."""
        data = self._guild_rest(g)
        data.update(
            joined_at=g.members[self.application_id]["joined_at"],
            large=False,
            unavailable=False,
            member_count=len(g.members),
            members=list(g.members.values()),
            channels=[{k: v for k, v in self._channels[c].items() if k != "guild_id"} for c in g.channel_ids],
            threads=[self._channel_public(self._channels[t]) for t in g.thread_ids if not self._channels[t]["thread_metadata"].get("archived")],
            presences=[],
            voice_states=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
            lazy=True,
        )
        if joined:
            del data["unavailable"]
        return data

    async def dispatch_event(self, event: str, data: Any, *, session: Optional[_Session] = None, intent: Optional[int] = None) -> None:
        """Send a DISPATCH to the session of the shard it belongs to (buffered for RESUME if it is
        disconnected): a guild's events to ``(guild_id >> 22) % shard_count``, the rest to shard 0."""
        session = session or self._session_for(_event_guild(event, data))
        if session is None:
            return
        if intent is not None and not session.intents & intent:
            return
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": self._signed(data)}
        session.buffer.append(payload)
        conn = session.conn
        if conn is not None and conn.open:
            try:
                await conn.send(payload)
            except (ConnectionResetError, RuntimeError):
                pass  # stays in the buffer; a RESUME replays it

    async def drop_connections(self, code: int = 4000, *, abort: bool = False) -> None:
        """Close every gateway connection (the sessions stay resumable)."""
        for conn in list(self._conns):
            if conn.session is not None:
                conn.session.live = False
            if abort:
                transport = conn.request.transport
                if transport is not None:
                    transport.abort()
            else:
                try:
                    await asyncio.wait_for(conn.ws.close(code=code, message=b"dropped by test"), 2.0)
                except asyncio.TimeoutError:
                    if conn.request.transport is not None:
                        conn.request.transport.abort()
        self._notify()

    def invalidate_sessions(self) -> None:
        """Forget every session: the next RESUME gets INVALID_SESSION and the bot must IDENTIFY again."""
        self.sessions.clear()

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT on every connection (the bot should reconnect and RESUME)."""
        for conn in list(self._conns):
            try:
                await conn.send({"op": 7, "d": None, "s": None, "t": None})
            except ConnectionResetError:
                pass

    # =========================================================================================
    # test-facing interaction API
    # =========================================================================================

    def _interaction_base(self, itype: int, user: UserRef, ch: dict, *, locale: str, guild_locale: Optional[str]) -> dict:
        u = self.resolve_user(user)
        uid = int(u["id"])
        payload: dict = {
            "id": str(self._interaction_id()),
            "application_id": str(self.application_id),
            "type": itype,
            "token": "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(60),
            "version": 1,
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": self.upload_limit(int(ch["id"])),
            "channel_id": ch["id"],
        }
        if ch["type"] == 1:
            payload.update(
                user=u,
                channel=self._channel_public(ch),
                app_permissions=str(DM_APP_PERMISSIONS),
                context=1,
                authorizing_integration_owners={"0": "0"},
            )
        elif ch["type"] == GROUP_DM:
            if not any(int(r["id"]) == uid for r in ch["recipients"]):
                raise LookupError(f"user {u['username']} is not in group DM {ch['id']}")
            payload.update(
                user=u,
                channel=self._channel_public(ch),
                app_permissions=str(DM_APP_PERMISSIONS),
                context=2,  # PRIVATE_CHANNEL
                # a command: the invoker's own install (completed by the caller for a component)
                authorizing_integration_owners={"1": str(uid)} if uid in self.user_installs else {},
            )
        else:
            g = self._guild(ch["guild_id"])
            member = g.members.get(uid)
            if member is None:
                raise LookupError(f"user {u['username']} is not a member of guild {g.data['name']}")
            perms = self.permissions_in(int(ch["id"]), uid)  # Discord sends them resolved for this channel
            payload.update(
                guild_id=str(g.id),
                guild={"id": str(g.id), "locale": g.locale, "features": g.data["features"]},
                guild_locale=guild_locale or g.locale,
                member=dict(member, permissions=str(perms)),
                channel=dict(self._channel_public(ch), permissions=str(perms)),
                app_permissions=str(self.bot_permissions_in(int(ch["id"]))),
                context=0,
                authorizing_integration_owners={"0": str(g.id)},
            )
        return payload

    def _interaction_id(self) -> int:
        """A fresh interaction id. An id dates its interaction, and a bot reads the token's expiry
        from it (discord.py's ``Interaction.expires_at``: its time + 15 minutes, as on Discord); with
        a shorter ``token_lifetime`` the id is dated back by the difference, so the expiry the bot
        reads is the one the stand-in enforces."""
        back = max(0.0, TOKEN_LIFETIME - self.token_lifetime)
        return self._dated_snow(back) if back else self._snow()

    def _interaction_channel(self, guild_id: Optional[int], channel_id: Optional[int], user: UserRef) -> dict:
        if channel_id is None:
            if guild_id is not None:
                return self._channels[self._guild(guild_id).channel_ids[0]]
            return self._channels[self.dm_channel_id(user)]
        ch = self._channels.get(int(channel_id))
        if ch is None:
            raise LookupError(f"unknown channel {channel_id}")
        if guild_id is not None and str(ch.get("guild_id")) != str(guild_id):
            raise LookupError(f"channel {channel_id} is not in guild {guild_id}")
        return ch

    async def _dispatch_interaction(self, payload: dict, wait_connected: bool) -> InteractionHandle:
        """Deliver an interaction to the shard owning its guild (a DM's to shard 0). ``wait_connected``
        waits for that shard; otherwise an interaction for a shard nobody holds is left unanswered,
        as on Discord (the user sees "This interaction failed")."""
        guild_id = int(payload["guild_id"]) if payload.get("guild_id") else None
        shard = self.shard_of(guild_id)
        if wait_connected:
            await self.wait_connected(shards=None if shard is None else [shard])
        elif self.current_session is None:
            raise RuntimeError("no bot session: the bot never identified")
        loop = asyncio.get_running_loop()
        rec = InteractionRecord(payload, loop.time())
        rec.shard = shard
        self.interactions[rec.id] = rec
        self._interactions_by_token[rec.token] = rec
        self._timers.append(loop.call_later(self.response_deadline, self._expire, rec))
        await self.dispatch_event("INTERACTION_CREATE", payload, session=self._session_for(guild_id))
        self._notify()
        return InteractionHandle(self, rec)

    def find_command(self, name: str, guild_id: Optional[int] = None, type: int = 1) -> Optional[dict]:
        if guild_id is not None:
            for c in self.guild_commands.get(int(guild_id), []):
                if c["name"] == name and c["type"] == type:
                    return c
        for c in self.commands:
            if c["name"] == name and c["type"] == type:
                return c
        return None

    def _resolve_value(self, opt: dict, value: Any, guild_id: Optional[int], resolved: dict, focused: bool) -> Any:
        t = opt["type"]
        name = opt["name"]
        if focused:
            return str(value)
        if t == 3:
            value = str(value)
            if opt.get("min_length") is not None and len(value) < opt["min_length"]:
                raise ValueError(f"option {name}: shorter than min_length {opt['min_length']}")
            if opt.get("max_length") is not None and len(value) > opt["max_length"]:
                raise ValueError(f"option {name}: longer than max_length {opt['max_length']}")
        elif t == 4:
            value = int(value)
        elif t == 5:
            value = bool(value)
        elif t == 10:
            value = float(value)
        if t in (4, 10):
            if opt.get("min_value") is not None and value < opt["min_value"]:
                raise ValueError(f"option {name}: {value} < min_value {opt['min_value']}")
            if opt.get("max_value") is not None and value > opt["max_value"]:
                raise ValueError(f"option {name}: {value} > max_value {opt['max_value']}")
        if t in (3, 4, 10) and opt.get("choices"):
            allowed = [c["value"] for c in opt["choices"]]
            if value not in allowed:
                raise ValueError(f"option {name}: {value!r} is not one of the choices {allowed}")
        if t in (6, 9) and not (t == 9 and self._is_role(value, guild_id)):
            u = self.resolve_user(value)
            resolved.setdefault("users", {})[u["id"]] = u
            if guild_id is not None:
                member = self._guild(guild_id).members.get(int(u["id"]))
                if member is not None:
                    m = {k: v for k, v in member.items() if k != "user"}
                    m["permissions"] = str(self.member_permissions(guild_id, int(u["id"])))
                    resolved.setdefault("members", {})[u["id"]] = m
            return u["id"]
        if t in (8, 9):
            role = self._role_of(value, guild_id)
            resolved.setdefault("roles", {})[role["id"]] = role
            return role["id"]
        if t == 7:
            ch = self._channels[int(value["id"] if isinstance(value, dict) else value)]
            entry = {k: v for k, v in self._channel_public(ch).items() if k in ("id", "name", "type", "parent_id", "thread_metadata", "guild_id")}
            entry["permissions"] = str(ALL_PERMISSIONS)
            resolved.setdefault("channels", {})[ch["id"]] = entry
            return ch["id"]
        if t == 11:
            if isinstance(value, AttachmentRecord):
                att = value
            elif isinstance(value, (bytes, bytearray)):
                att = self._new_attachment(0, "upload.bin", bytes(value), None)
            else:
                filename, data = value
                att = self._new_attachment(0, filename, bytes(data), None)
            resolved.setdefault("attachments", {})[str(att.id)] = att.to_dict(ephemeral=True)
            return str(att.id)
        return value

    def _is_role(self, value: Any, guild_id: Optional[int]) -> bool:
        try:
            self._role_of(value, guild_id)
            return True
        except LookupError:
            return False

    def _role_of(self, value: Any, guild_id: Optional[int]) -> dict:
        if guild_id is None:
            raise LookupError("roles need a guild")
        for r in self._guild(guild_id).data["roles"]:
            if r["id"] == str(value.get("id") if isinstance(value, dict) else value) or r["name"] == value:
                return r
        raise LookupError(f"unknown role {value!r}")

    def _build_options(
        self, defs: list[dict], given: Any, guild_id: Optional[int], resolved: dict, focused: Optional[str]
    ) -> list[dict]:
        if isinstance(given, list):  # raw option dicts: sent as they are
            return copy.deepcopy(given)
        given = dict(given or {})
        out = []
        by_name = {d["name"]: d for d in defs}
        for key in given:
            if key not in by_name:
                raise ValueError(f"unknown option {key!r}; the command has {sorted(by_name)}")
        if focused is not None and focused not in given:
            raise ValueError(f"focused option {focused!r} needs a (partial) value in options")
        for d in defs:
            if d["name"] not in given:
                if d.get("required") and focused is None:
                    raise ValueError(f"required option {d['name']!r} missing")
                continue
            is_focused = d["name"] == focused
            entry = {"name": d["name"], "type": d["type"], "value": self._resolve_value(d, given[d["name"]], guild_id, resolved, is_focused)}
            if is_focused:
                entry["focused"] = True
            out.append(entry)
        return out

    def _command_data(
        self, name: str, subcommand: Any, options: Any, guild_id: Optional[int], focused: Optional[str] = None
    ) -> dict:
        path = name.split()
        if subcommand:
            path += subcommand.split() if isinstance(subcommand, str) else list(subcommand)
        cmd = self.find_command(path[0], guild_id)
        if cmd is None:
            synced = sorted({c["name"] for c in self.commands} | {c["name"] for c in self.guild_commands.get(guild_id or 0, [])})
            raise LookupError(f"/{path[0]} is not a synced command (synced: {synced})")
        if guild_id is None and cmd.get("contexts") is not None and 1 not in cmd["contexts"]:
            raise LookupError(f"/{path[0]} is not available in bot DMs (contexts={cmd['contexts']})")
        data: dict = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        container = data
        defs = cmd.get("options") or []
        for sub in path[1:]:
            d = next((o for o in defs if o["name"] == sub and o["type"] in (1, 2)), None)
            if d is None:
                raise LookupError(f"/{' '.join(path)}: no sub-command {sub!r}")
            node = {"name": sub, "type": d["type"], "options": []}
            container["options"] = [node]
            container = node
            defs = d.get("options") or []
        if any(o["type"] in (1, 2) for o in defs):
            raise ValueError(f"/{' '.join(path)} needs a sub-command: {[o['name'] for o in defs]}")
        resolved: dict = {}
        container["options"] = self._build_options(defs, options, guild_id, resolved, focused)
        if resolved:
            data["resolved"] = resolved
        return data

    async def send_slash(
        self,
        guild_id: Optional[int],
        channel_id: Optional[int],
        user: UserRef,
        name: str,
        options: Any = None,
        *,
        subcommand: Any = None,
        locale: str = "en-US",
        guild_locale: Optional[str] = None,
        wait_connected: bool = True,
        command_timeout: float = 10.0,
    ) -> InteractionHandle:
        """Dispatch a slash command. ``name`` may hold the sub-command path ("game new");
        ``options`` is {name: value} (types come from the synced definition) or a raw option list.
        ``guild_id=None, channel_id=None`` means the user's DM with the bot."""
        ch = self._interaction_channel(guild_id, channel_id, user)
        gid = int(ch["guild_id"]) if ch.get("guild_id") else None
        await self.wait_until(lambda: self.find_command(name.split()[0], gid), command_timeout, f"/{name.split()[0]} to be synced")
        payload = self._interaction_base(I_COMMAND, user, ch, locale=locale, guild_locale=guild_locale)
        self._check_invocable(payload, name)
        payload["data"] = self._command_data(name, subcommand, options, gid)
        return await self._dispatch_interaction(payload, wait_connected)

    async def autocomplete(
        self,
        guild_id: Optional[int],
        channel_id: Optional[int],
        user: UserRef,
        name: str,
        options: dict,
        focused: str,
        *,
        subcommand: Any = None,
        locale: str = "en-US",
        guild_locale: Optional[str] = None,
        wait_connected: bool = True,
        command_timeout: float = 10.0,
    ) -> InteractionHandle:
        """Dispatch an autocomplete request; ``options[focused]`` is what the user has typed so far."""
        ch = self._interaction_channel(guild_id, channel_id, user)
        gid = int(ch["guild_id"]) if ch.get("guild_id") else None
        await self.wait_until(lambda: self.find_command(name.split()[0], gid), command_timeout, f"/{name.split()[0]} to be synced")
        payload = self._interaction_base(I_AUTOCOMPLETE, user, ch, locale=locale, guild_locale=guild_locale)
        self._check_invocable(payload, name)
        payload["data"] = self._command_data(name, subcommand, options, gid, focused=focused)
        return await self._dispatch_interaction(payload, wait_connected)

    def _check_invocable(self, payload: dict, name: str) -> None:
        """As Discord offers a command: in a group DM only to someone who installed the app, and
        only a command whose ``contexts`` and ``integration_types`` allow it there."""
        context = payload["context"]
        cmd = self.find_command(name.split()[0], int(payload["guild_id"]) if payload.get("guild_id") else None)
        if payload["authorizing_integration_owners"] == {}:
            raise PermissionError(f"/{name} is not offered here: the app is not installed for this user")
        contexts = cmd.get("contexts") if cmd else None
        types = cmd.get("integration_types") if cmd else None
        if contexts is not None and context not in contexts:
            raise PermissionError(f"/{name} does not allow context {context}")
        owners = {int(k) for k in payload["authorizing_integration_owners"]}
        if context != 0 or owners != {0}:  # beyond a server that added the bot: the command must say so
            if types is None or not owners & set(types):
                raise PermissionError(f"/{name} declares integration types {types}, not {sorted(owners)}")

    def _resolve_message(self, message: Any) -> MessageRecord:
        if isinstance(message, MessageRecord):
            msg = message
        elif isinstance(message, dict):
            msg = self._messages[int(message["id"])]
        else:
            msg = self._messages[int(message)]
        if msg.deleted:
            raise LookupError(f"message {msg.id} was deleted")
        return msg

    def _component_payload(self, msg: MessageRecord, user: UserRef, *, locale: str, guild_locale: Optional[str]) -> dict:
        u = self.resolve_user(user)
        if msg.ephemeral and msg.interaction_id is not None:
            owner = self.interactions[msg.interaction_id].user_id
            if owner != int(u["id"]):
                raise PermissionError(f"only user {owner} can see ephemeral message {msg.id}")
        ch = self._channels[msg.channel_id]
        payload = self._interaction_base(I_COMPONENT, u, ch, locale=locale, guild_locale=guild_locale)
        payload["message"] = copy.deepcopy(msg.data)
        if ch["type"] == GROUP_DM:  # anyone may press: the install that made the message authorizes it
            owners = (msg.data.get("interaction_metadata") or {}).get("authorizing_integration_owners")
            payload["authorizing_integration_owners"] = dict(owners or {})
        return payload

    async def click_button(
        self,
        message: Any,
        custom_id: str,
        user: UserRef,
        *,
        locale: str = "en-US",
        guild_locale: Optional[str] = None,
        wait_connected: bool = True,
    ) -> InteractionHandle:
        """Click the button ``custom_id`` on ``message`` (a MessageRecord, message dict or id)."""
        msg = self._resolve_message(message)
        comp = msg.component(custom_id)
        if comp is None or comp.get("type") != 2:
            raise LookupError(f"no button {custom_id!r} on message {msg.id}; custom ids: {msg.custom_ids()}")
        if comp.get("disabled"):
            raise PermissionError(f"button {custom_id!r} is disabled")
        payload = self._component_payload(msg, user, locale=locale, guild_locale=guild_locale)
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        if comp.get("id") is not None:
            payload["data"]["id"] = comp["id"]
        return await self._dispatch_interaction(payload, wait_connected)

    async def forge_click(self, message: Any, custom_id: str, user: UserRef, *, values: Optional[list] = None,
                          locale: str = "en-US", wait_connected: bool = True) -> InteractionHandle:
        """A click by ``user`` on a component of someone else's ephemeral message, which Discord
        never shows them: what a modified client replaying a copied custom id would send. The bot
        must refuse it by itself (its custom ids name their owner)."""
        msg = self._resolve_message(message)
        comp = msg.component(custom_id)
        if comp is None:
            raise LookupError(f"no component {custom_id!r} on message {msg.id}")
        ch = self._channels[msg.channel_id]
        payload = self._interaction_base(I_COMPONENT, self.resolve_user(user), ch, locale=locale, guild_locale=None)
        payload["message"] = copy.deepcopy(msg.data)
        payload["data"] = {"custom_id": custom_id, "component_type": comp["type"]}
        if values is not None:
            payload["data"]["values"] = [str(v) for v in values]
        return await self._dispatch_interaction(payload, wait_connected)

    async def select(
        self,
        message: Any,
        custom_id: str,
        values: list,
        user: UserRef,
        *,
        locale: str = "en-US",
        guild_locale: Optional[str] = None,
        wait_connected: bool = True,
    ) -> InteractionHandle:
        """Choose ``values`` in the select menu ``custom_id`` on ``message``."""
        msg = self._resolve_message(message)
        comp = msg.component(custom_id)
        if comp is None or comp.get("type") not in V.SELECT_TYPES:
            raise LookupError(f"no select {custom_id!r} on message {msg.id}; custom ids: {msg.custom_ids()}")
        if comp.get("disabled"):
            raise PermissionError(f"select {custom_id!r} is disabled")
        values = list(values)
        lo = comp.get("min_values", 1) if comp.get("min_values") is not None else 1
        hi = comp.get("max_values", 1) if comp.get("max_values") is not None else 1
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        payload = self._component_payload(msg, user, locale=locale, guild_locale=guild_locale)
        data: dict = {"custom_id": custom_id, "component_type": comp["type"]}
        gid = int(payload["guild_id"]) if payload.get("guild_id") else None
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options") or []]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"select {custom_id!r}: {bad} not among options {allowed}")
            data["values"] = [str(v) for v in values]
        else:
            resolved: dict = {}
            kind = {5: 6, 6: 8, 7: 9, 8: 7}[comp["type"]]  # user, role, mentionable, channel
            data["values"] = [self._resolve_value({"type": kind, "name": custom_id}, v, gid, resolved, False) for v in values]
            data["resolved"] = resolved
        if comp.get("id") is not None:
            data["id"] = comp["id"]
        payload["data"] = data
        return await self._dispatch_interaction(payload, wait_connected)

    async def submit_modal(
        self,
        source: Union[InteractionHandle, InteractionRecord],
        values: dict[str, Any],
        user: UserRef = None,
        *,
        locale: Optional[str] = None,
        wait_connected: bool = True,
    ) -> InteractionHandle:
        """Submit the modal the bot opened (callback type 9) in answer to ``source``.
        ``values`` maps text-input custom ids to strings (select custom ids to lists, radio groups
        to one value). As on Discord, only the user the modal was opened for can submit it, only
        while it is open (``token_lifetime`` after it opened), with every required input filled
        and only values among a select's or radio group's options."""
        rec = source.record if isinstance(source, InteractionHandle) else source
        cb = rec.response
        if cb is None or cb.type != 9:
            raise LookupError(f"interaction {rec.id} was not answered with a modal")
        if user is not None and self.resolve_user(user)["id"] != str(rec.user_id):
            raise PermissionError(f"modal of interaction {rec.id} was opened for user {rec.user_id}, not {user!r}")
        if asyncio.get_running_loop().time() - cb.at > self.token_lifetime:
            raise TimeoutError(f"modal of interaction {rec.id} closed {self.token_lifetime}s after it opened")
        return await self._modal_submit(rec, values, rec.user_id, locale=locale, wait_connected=wait_connected)

    async def forge_modal_submit(self, source: Union[InteractionHandle, InteractionRecord], values: dict[str, Any],
                                 user: UserRef, *, locale: Optional[str] = None,
                                 wait_connected: bool = True) -> InteractionHandle:
        """A submit of someone else's modal, or with values it never offered: what a modified
        client replaying a copied custom id would send. Discord's own client never does; the bot
        must refuse it by itself."""
        rec = source.record if isinstance(source, InteractionHandle) else source
        if rec.response is None or rec.response.type != 9:
            raise LookupError(f"interaction {rec.id} was not answered with a modal")
        return await self._modal_submit(rec, values, user, locale=locale, wait_connected=wait_connected, checked=False)

    async def _modal_submit(self, rec: InteractionRecord, values: dict[str, Any], user: UserRef, *,
                            locale: Optional[str], wait_connected: bool, checked: bool = True) -> InteractionHandle:
        modal = rec.response.data or {}

        def offered(c: dict, chosen: list) -> None:
            allowed = [o.get("value") for o in c.get("options") or []]
            bad = [v for v in chosen if v not in allowed]
            if checked and bad:
                raise ValueError(f"input {c.get('custom_id')!r}: {bad} not among options {allowed}")
            if checked and c.get("required", True) and not chosen:
                raise ValueError(f"input {c.get('custom_id')!r} is required")
        known: set[str] = set()
        resolved_atts: dict[str, dict] = {}

        def mirror(c: dict) -> dict:
            t = c.get("type")
            if t == 1:
                return {"type": 1, "components": [mirror(x) for x in c.get("components") or []]}
            if t == 18:
                out = {"type": 18, "component": mirror(c["component"])}
                if c.get("id") is not None:
                    out["id"] = c["id"]
                return out
            cid = c.get("custom_id")
            if cid:
                known.add(cid)
            if t == 4:
                value = values.get(cid, c.get("value") or "")
                if c.get("required", True) and not value:
                    raise ValueError(f"text input {cid!r} is required")
                return {"type": 4, "custom_id": cid, "value": str(value)}
            if t in V.SELECT_TYPES or t == 22:  # selects, checkbox group
                chosen = [str(v) for v in values.get(cid, [])]
                if t in (3, 22):
                    offered(c, chosen)
                return {"type": t, "custom_id": cid, "values": chosen}
            if t == 21:  # radio group
                offered(c, [values[cid]] if values.get(cid) is not None else [])
                return {"type": t, "custom_id": cid, "value": values.get(cid)}
            if t == 23:  # checkbox
                return {"type": t, "custom_id": cid, "value": bool(values.get(cid, False))}
            if t == 19:  # file upload: values are (filename, bytes) pairs
                ids = []
                for item in values.get(cid, []):
                    filename, data = item
                    att = self._new_attachment(0, filename, bytes(data), None)
                    resolved_atts[str(att.id)] = att.to_dict(ephemeral=True)
                    ids.append(str(att.id))
                return {"type": t, "custom_id": cid, "values": ids}
            out = {"type": t}
            if c.get("id") is not None:
                out["id"] = c["id"]
            return out

        components = [mirror(c) for c in modal.get("components") or []]
        unknown = set(values) - known
        if unknown:
            raise ValueError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(unknown)}; it has {sorted(known)}")
        ch = self._channels[rec.channel_id]
        u = user if user is not None else rec.user_id
        payload = self._interaction_base(I_MODAL, u, ch, locale=locale or rec.payload.get("locale", "en-US"), guild_locale=None)
        if rec.payload.get("message"):
            m = self._messages.get(int(rec.payload["message"]["id"]))
            payload["message"] = copy.deepcopy(m.data if m else rec.payload["message"])
        payload["data"] = {"custom_id": modal.get("custom_id"), "components": components}
        if resolved_atts:
            payload["data"]["resolved"] = {"attachments": resolved_atts}
        return await self._dispatch_interaction(payload, wait_connected)
