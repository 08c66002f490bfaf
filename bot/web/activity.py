"""The table as a Discord Activity: the page Discord opens in its iframe, and the sign-in behind it.

Discord's client loads the Activity's root (the developer portal's URL mapping ``/`` → this server)
with its own query parameters. The page (static/activity.html + activity.js) runs Discord's
Embedded App SDK, the vendored build of the npm package: ``ready()``, then ``authorize`` for a code
(scope ``identify``), which it POSTs here. This server exchanges the code at Discord's
``/oauth2/token`` with the application's client secret, asks ``/users/@me`` with the user's token who
they are, finds the game the Activity was launched for (the Table button noted its instance) and
checks with Discord's Activity-instance lookup that this user is in that instance. Only then does it
open a session for that user and game, as a signed link would, and answer the access token, with
which the page calls the SDK's ``authenticate``. The client secret and the bot token never leave
the server; the page holds nothing it could forge a session with.
"""

from __future__ import annotations

import base64
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from importlib import resources
from typing import Callable

import aiohttp
from aiohttp import web

from ..service import Where
from .links import Pass

log = logging.getLogger("bot.web.activity")

DISCORD_API = "https://discord.com/api/v10"
LAUNCH_SECONDS = 6 * 3600  # how long a launched instance stays tied to its game
MOST_LAUNCHES = 10_000  # instances remembered at once; the oldest are forgotten first
MAX_CODE = 256  # an OAuth2 code or an instance id longer than this is no code of Discord's
DISCORD_TIMEOUT = aiohttp.ClientTimeout(total=10)


@dataclass(frozen=True)
class ActivitySettings:
    """What the Activity path needs of the application. ``enabled``: the application has Activities
    turned on in the developer portal (WEB_ACTIVITY=1), so the Table button launches it."""

    enabled: bool
    application_id: int | None
    client_secret: str | None
    bot_token: str | None
    api_base: str = DISCORD_API


def activity_settings(config, application_id: int | None = None) -> ActivitySettings:
    """From the bot's configuration (``bot.config.Config``); the application id is known once logged in."""
    return ActivitySettings(bool(config.web_activity), application_id, config.client_secret, config.token,
                            (config.api_base or DISCORD_API).rstrip("/"))


def bind_application(web_settings, application_id: int | None) -> None:
    """The application id, learnt at login (the SDK and the token exchange both name it)."""
    found = settings_of(web_settings)
    if found is not None and application_id is not None:
        web_settings.extra["activity"] = replace(found, application_id=int(application_id))


def settings_of(web_settings) -> ActivitySettings | None:
    return web_settings.extra.get("activity")


class Launches:
    """Which game each launched Activity instance shows, and from where it was launched. Kept in
    memory by the process that answered the Table button (the one that serves the page too)."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self.items: OrderedDict[str, tuple[int, Where, float]] = OrderedDict()

    def note(self, instance_id: str, game_id: int, where: Where) -> None:
        self.items[instance_id] = (game_id, where, self.clock() + LAUNCH_SECONDS)
        self.items.move_to_end(instance_id)
        while len(self.items) > MOST_LAUNCHES:
            self.items.popitem(last=False)

    def find(self, instance_id: str) -> tuple[int, Where] | None:
        found = self.items.get(instance_id)
        if found is None or found[2] < self.clock():
            return None
        return found[0], found[1]


def launches_of(web_settings) -> Launches:
    return web_settings.extra.setdefault("launches", Launches())


class ActivityRefused(Exception):
    def __init__(self, key: str, status: int) -> None:
        super().__init__(key)
        self.key, self.status = key, status


class DiscordAuth:
    """The three calls to Discord the sign-in makes, each to the documented route."""

    def __init__(self, settings: ActivitySettings) -> None:
        self.settings = settings

    async def exchange(self, http: aiohttp.ClientSession, code: str) -> str:
        """The code for the user's access token (topics/oauth2.mdx: form-encoded, client id and secret
        by HTTP Basic)."""
        form = {"grant_type": "authorization_code", "code": code}
        pair = f"{self.settings.application_id}:{self.settings.client_secret or ''}".encode()
        basic = {"Authorization": "Basic " + base64.b64encode(pair).decode("ascii")}
        async with http.post(f"{self.settings.api_base}/oauth2/token", data=form, headers=basic) as resp:
            body = await _json(resp)
            if resp.status != 200 or not isinstance(body.get("access_token"), str):
                log.info("Activity sign-in: the code exchange was refused (%s %s)", resp.status, body.get("error"))
                raise ActivityRefused("activity_code", 401)
            return body["access_token"]

    async def user_id(self, http: aiohttp.ClientSession, access_token: str) -> int:
        async with http.get(f"{self.settings.api_base}/users/@me",
                            headers={"Authorization": f"Bearer {access_token}"}) as resp:
            body = await _json(resp)
            if resp.status != 200 or not str(body.get("id", "")).isdigit():
                raise ActivityRefused("activity_code", 401)
            return int(body["id"])

    async def instance_users(self, http: aiohttp.ClientSession, instance_id: str) -> set[int] | None:
        """The users in a running Activity instance (developer docs: "preventing unwanted activity
        sessions"), None where Discord has no such instance."""
        url = f"{self.settings.api_base}/applications/{self.settings.application_id}/activity-instances/{instance_id}"
        async with http.get(url, headers={"Authorization": f"Bot {self.settings.bot_token}"}) as resp:
            if resp.status == 404:
                return None
            body = await _json(resp)
            if resp.status != 200:
                raise ActivityRefused("activity_discord", 502)
            return {int(u) for u in body.get("users", []) if str(u).isdigit()}


async def _json(resp: aiohttp.ClientResponse) -> dict:
    try:
        body = await resp.json(content_type=None)
    except (ValueError, aiohttp.ContentTypeError):
        return {}
    return body if isinstance(body, dict) else {}


class ActivityRoutes:
    """The Activity's routes on the table's application (``table``: its ``TableApp``, whose signer,
    rates, body reader and host they share; ``cookie_name``: the session cookie's name for a game)."""

    def __init__(self, table, cookie_name: Callable[[int], str]) -> None:
        self.table, self.cookie_name = table, cookie_name

    @property
    def settings(self) -> ActivitySettings | None:
        return settings_of(self.table.settings)

    async def page(self, request: web.Request) -> web.Response:
        """The page Discord loads in the iframe: the SDK's handshake needs the application's id,
        which is public (it is in every invite link)."""
        settings = self.settings
        if settings is None or settings.application_id is None:
            raise ActivityRefused("activity_off", 404)
        lang = self.table.lang(request)
        from ..i18n import T, render

        html = (_static("activity.html").replace("{{lang}}", lang)
                .replace("{{client_id}}", str(settings.application_id))
                .replace("{{opening}}", _escape(render(lang, T("web.activity_opening")))))
        return web.Response(text=html, content_type="text/html")

    async def token(self, request: web.Request) -> web.Response:
        """``{code, instance_id}`` from the SDK → ``{access_token, session, game_id}`` and the session
        cookie (cross-site in Discord's iframe: ``SameSite=None; Partitioned``)."""
        settings = self.settings
        if settings is None or settings.application_id is None or not settings.client_secret:
            raise ActivityRefused("activity_off", 404)
        body = await self.table.body(request)
        code, instance_id = body.get("code"), body.get("instance_id")
        if not _short_text(code) or not _short_text(instance_id):
            raise ActivityRefused("activity_code", 400)
        auth = DiscordAuth(settings)
        async with aiohttp.ClientSession(timeout=DISCORD_TIMEOUT) as http:
            access_token = await auth.exchange(http, code)
            user_id = await auth.user_id(http, access_token)
            self.table.rates.take(user_id, "any", self.table.settings.requests_per_window)
            launched = launches_of(self.table.settings).find(instance_id)
            if launched is None:
                raise ActivityRefused("activity_no_game", 404)
            users = await auth.instance_users(http, instance_id)
            if users is None or user_id not in users:
                raise ActivityRefused("activity_not_in_instance", 403)
        game_id, where = launched
        await self.table.host.table(game_id, user_id, where=where)  # may they look at it from there at all
        session = self.table.signer.session_token(Pass(user_id, game_id, where, 0))
        response = web.json_response({"access_token": access_token, "session": session, "game_id": game_id})
        # Written by hand: Python's cookie module before 3.14 knows no Partitioned attribute.
        response.headers["Set-Cookie"] = (f"{self.cookie_name(game_id)}={session}; Max-Age={self.table.settings.session_seconds}; "
                                          "Path=/; HttpOnly; Secure; SameSite=None; Partitioned")
        return response


def _short_text(value) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_CODE and value.isprintable()


def _static(name: str) -> str:
    return (resources.files(__package__) / "static" / name).read_text(encoding="utf-8")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _refusals(refused: type[Exception]):
    """A middleware turning the Activity's refusals into the table's own (``refused``: its refusal
    type, worded and localised by the table's guard; nothing is changed)."""

    @web.middleware
    async def middleware(request: web.Request, handler):
        try:
            return await handler(request)
        except ActivityRefused as e:
            raise refused(e.key, e.status) from None
        except aiohttp.ClientError:
            log.warning("Activity sign-in: Discord could not be reached", exc_info=True)
            raise refused("activity_discord", 502) from None

    return middleware


def register(app: web.Application, table, *, refused: type[Exception], cookie_name: Callable[[int], str]) -> None:
    """Add the Activity's routes to the table's application (``make_app`` calls this, with its
    refusal type and cookie names, so this module needs nothing of it)."""
    routes = ActivityRoutes(table, cookie_name)
    app.middlewares.append(_refusals(refused))
    app.router.add_get("/", routes.page)
    app.router.add_get("/activity", routes.page)
    app.router.add_post("/api/activity/token", routes.token)
