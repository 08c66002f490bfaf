"""The web way in: one game's table as a page, served by the bot from its own event loop.

Every request is one person (a signed link's session, see :mod:`bot.web.links`) asking the same
service the Discord way in asks, with the same place (``Where``), the same version checks and the
same catalogues. The page (static/) draws what the JSON here says; nothing here knows a game's
rules. Routes: docs/web.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
import struct
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from importlib import resources
from types import SimpleNamespace
from typing import Awaitable, Callable

from aiohttp import web

from ..i18n import T, render
from ..service import GameHost, Outbox, ServiceError, Where
from ..service.present import seat_mark
from .activity import register as register_activity
from .changes import Changes
from .links import LINK_SECONDS, SESSION_SECONDS, BadToken, Pass, Signer
from .words import MENTION, choose_language, say, say_all

log = logging.getLogger("bot.web")

FRAME_ANCESTORS = "'self' https://discord.com https://*.discord.com https://*.discordsays.com"
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
       f"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors {FRAME_ANCESTORS}")
SESSION_HEADER = "X-Table-Session"  # the Activity's way to carry its session (no third-party cookie)
STATUS_OF = {"game_not_found": 404, "not_in_game": 403, "stale": 409, "stale_typed": 409, "not_your_turn": 409,
             "busy": 503}


@dataclass
class WebSettings:
    """How the web table is served. ``local``: the terminal's table (``where`` None links)."""

    secret: bytes
    port: int | None = None
    public_url: str | None = None
    bind: str = "0.0.0.0"
    local: bool = False
    max_body: int = 16 * 1024  # a move is a short JSON object
    moves_per_window: int = 30  # per user: posts a window may hold
    requests_per_window: int = 600  # per user: every API call
    window_seconds: float = 60.0
    streams_per_user: int = 8  # live connections one person may hold open
    poll_seconds: float = 2.0  # how often a watched game's version is read (saves by other processes)
    link_seconds: int = LINK_SECONDS
    session_seconds: int = SESSION_SECONDS
    clock: Callable[[], float] = time.time
    client_secret: str | None = None
    extra: dict = field(default_factory=dict)  # what other parts of the web way in keep here

    def signer(self) -> Signer:
        return Signer(self.secret, link_seconds=self.link_seconds, session_seconds=self.session_seconds,
                      clock=self.clock)


def table_link(settings: WebSettings, user_id: int, game_id: int, where: Where | None) -> str:
    """A short-lived link that opens this game's table for this user, as seen from ``where`` (the
    place the user asked from: Discord's Table button, a "your turn" DM)."""
    if where is None and not settings.local:
        raise ValueError("a link without a place is the local table's only")
    base = (settings.public_url or f"http://localhost:{settings.port}").rstrip("/")
    return f"{base}/t/{settings.signer().link_token(user_id, game_id, where)}"


class Refused(Exception):
    """A refusal of the web way in itself (not the service's): ``key`` under ``web.error.``."""

    def __init__(self, key: str, status: int = 400):
        super().__init__(key)
        self.key, self.status = key, status


class Rates:
    """Requests each person made in the last window, per kind; over the limit is refused."""

    def __init__(self, window: float, clock=time.monotonic):
        self.window, self.clock = window, clock
        self.seen: dict[tuple[int, str], deque] = {}

    def take(self, user_id: int, kind: str, limit: int) -> None:
        now = self.clock()
        times = self.seen.setdefault((user_id, kind), deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= limit:
            raise Refused("rate", 429)
        times.append(now)
        if len(self.seen) > 10_000:  # forget the idle, so the table stays small
            for key in [k for k, v in self.seen.items() if not v or v[-1] <= now - self.window]:
                del self.seen[key]


class Images:
    """Recently drawn pictures by (game, viewer, what, version): the JSON draws, the image request reads."""

    def __init__(self, most: int = 128):
        self.most, self.items = most, OrderedDict()

    def get(self, key):
        image = self.items.get(key)
        if image is not None:
            self.items.move_to_end(key)
        return image

    def put(self, key, image: bytes) -> bytes:
        self.items[key] = image
        while len(self.items) > self.most:
            self.items.popitem(last=False)
        return image


def png_size(image: bytes) -> tuple[int, int]:
    if len(image) >= 24 and image[:8] == b"\x89PNG\r\n\x1a\n":
        return struct.unpack(">II", image[16:24])
    return 0, 0


def static_text(name: str) -> str:
    return (resources.files(__package__) / "static" / name).read_text(encoding="utf-8")


class TableApp:
    def __init__(self, host: GameHost, settings: WebSettings,
                 deliver: Callable[[Outbox], Awaitable[None]] | None = None):
        self.host, self.settings, self.deliver = host, settings, deliver
        self.signer = settings.signer()
        self.rates = Rates(settings.window_seconds)
        self.images = Images()
        self.changes = Changes(host, settings.poll_seconds)
        self.streams: dict[int, int] = {}
        self.tasks: set[asyncio.Task] = set()
        self.page = static_text("table.html")

    # ---- who asks ------------------------------------------------------------------------------
    def session(self, request: web.Request, game_id: int) -> Pass:
        token = request.headers.get(SESSION_HEADER) or request.cookies.get(cookie_name(game_id))
        if not token:
            raise Refused("no_session", 401)
        try:
            found = self.signer.open_session(token)
        except BadToken as e:
            raise Refused(e.key, 401) from None
        if found.game_id != game_id:
            raise Refused("wrong_game", 403)
        self.rates.take(found.user_id, "any", self.settings.requests_per_window)
        return found

    @staticmethod
    def lang(request: web.Request, stored: str | None = None) -> str:
        return choose_language(stored, request.headers.get("Accept-Language"))

    async def stored_lang(self, request: web.Request, user_id: int | None) -> str:
        """The viewer's stored Discord locale (as the Discord side keeps it), else the browser's."""
        stored = None
        if user_id is not None and user_id > 0:
            try:
                stored = (await self.host.store.users_settings([user_id])).get(user_id, {}).get("locale")
            except Exception:  # a refusal still answers, in the browser's language
                log.warning("could not read user %s's language", user_id, exc_info=True)
        return self.lang(request, stored)

    def asker(self, request: web.Request) -> int | None:
        """Who a request says it is, by a signed token even expired or refused (only to pick the
        language a refusal speaks)."""
        token = request.match_info.get("token") or request.headers.get(SESSION_HEADER)
        game = request.match_info.get("game_id", "")
        if not token and game.isascii() and game.isdigit() and len(game) <= 12:
            token = request.cookies.get(cookie_name(int(game)))
        return self.signer.signed_user(token)

    # ---- pages -----------------------------------------------------------------------------------
    async def open_link(self, request: web.Request) -> web.Response:
        try:
            link = self.signer.open_link(request.match_info["token"])
        except BadToken as e:
            return await self.error_page(request, e.key, 403)
        if link.where is None and not self.settings.local:
            return await self.error_page(request, "bad_link", 403)
        response = web.Response(status=303, headers={"Location": f"/game/{link.game_id}"})
        response.set_cookie(cookie_name(link.game_id), self.signer.session_token(link), max_age=self.settings.session_seconds,
                            path="/", httponly=True, secure=True, samesite="Lax")
        return response

    async def table_page(self, request: web.Request) -> web.Response:
        game_id = game_id_of(request)
        try:
            who = self.session(request, game_id)
        except Refused as e:
            return await self.error_page(request, e.key, e.status)
        lang = await self.stored_lang(request, who.user_id)
        words = {key: render(lang, T(f"web.{key}", time=TIME_SLOT)) for key in PAGE_WORDS}
        html = (self.page.replace("{{lang}}", lang)
                .replace("{{title}}", escape(render(lang, T("web.title", id=game_id))))
                .replace("{{game_id}}", str(game_id))
                .replace("{{words}}", json.dumps(words, ensure_ascii=False).replace("<", "\\u003c")))
        return web.Response(text=html, content_type="text/html")

    async def error_page(self, request: web.Request, key: str, status: int) -> web.Response:
        lang = await self.stored_lang(request, self.asker(request))
        html = (self.page_error.replace("{{lang}}", lang)
                .replace("{{title}}", escape(render(lang, T("web.error_title"))))
                .replace("{{message}}", escape(render(lang, T(f"web.error.{key}")))))
        return web.Response(text=html, content_type="text/html", status=status)

    @property
    def page_error(self) -> str:
        return static_text("error.html")

    # ---- the table as JSON -----------------------------------------------------------------------
    async def state(self, request: web.Request) -> web.Response:
        game_id = game_id_of(request)
        who = self.session(request, game_id)
        return web.json_response(await self.state_of(request, who), dumps=dumps)

    async def state_of(self, request: web.Request, who: Pass, said: list | None = None) -> dict:
        host, uid, where = self.host, who.user_id, who.where
        table = await host.table(who.game_id, uid, where=where)
        lang = self.lang(request, table.locale)
        names = self.names(lang, table, uid)
        out = {
            "game_id": table.game_id, "game": table.game, "version": table.version, "status": table.status,
            "lang": lang, "title": say(lang, T(f"game.{table.game}.title")), "seat": table.seat,
            "summary": say(lang, table.summary, names), "lines": say_all(lang, table.state_lines, names),
            "players": [{"seat": s, "mark": say(lang, mark), "name": say(lang, name, names),
                         "you": s == table.seat, "to_act": s in table.to_act} for s, mark, name in table.seats],
            "your_turn": table.seat is not None and table.seat in table.to_act,
            "deadline": epoch(table.deadline_at), "paused": table.paused,
            "question": say(lang, table.question, names), "outcome": say(lang, table.outcome, names),
            "board": None, "panel": None, "actions": [], "history": [], "said": said or [],
            "csrf": self.signer.csrf(who),
        }
        if table.status in ("active", "finished", "abandoned") and table.regions is not None:
            version, image = await self.board_image(who, table.version)
            if image:
                width, height = png_size(image)
                out["board"] = {"url": f"/api/game/{who.game_id}/board.png?v={version}", "width": width,
                                "height": height, "regions": regions_json(lang, table.regions, names)}
        if table.private:
            panel = await host.table_panel(who.game_id, uid, where=where)
            self.images.put((who.game_id, uid, "panel", panel.version), panel.image)
            width, height = png_size(panel.image)
            out["panel"] = {"url": f"/api/game/{who.game_id}/panel.png?v={panel.version}", "width": width,
                            "height": height, "regions": regions_json(lang, panel.regions, names),
                            "lines": say_all(lang, panel.lines, names)}
        out["actions"] = [{"action": a.action, "targets": list(a.targets), "path": list(a.path),
                           "steps": [say(lang, s, names) for s in a.steps],
                           "words": say(lang, a.words, names) or a.action} for a in table.actions]
        if table.status != "lobby":
            out["history"] = say_all(lang, await host.history(who.game_id, asker=uid, where=where), names)
        return out

    @staticmethod
    def names(lang: str, table, viewer: int) -> dict[int, str]:
        """Mentions said as the seats' marks (the service keeps no Discord names, only ids: the
        marks are what the board draws), "you" for the viewer."""
        names = {}
        for seat, mark, name in table.seats:
            found = MENTION.fullmatch(name) if isinstance(name, str) else None
            if found:
                uid = int(found[1])
                names[uid] = render(lang, T("web.you_mark" if uid == viewer else "web.player_mark",
                                            mark=mark, n=seat + 1)).replace("**", "")
        return names

    async def seat_names(self, lang: str, who: Pass) -> dict[int, str]:
        """The same names for an answer without a table at hand (history, replay), after the
        service has let the viewer see the game."""
        row = await self.host.store.load(who.game_id)
        return self.names(lang, SimpleNamespace(seats=[(s.seat, seat_mark(s.seat), f"<@{s.user_id}>") for s in row.seats]),
                          who.user_id)

    async def board_image(self, who: Pass, version: int | None = None) -> tuple[int, bytes]:
        key = (who.game_id, who.user_id, "board", version)
        if version is not None and (image := self.images.get(key)) is not None:
            return version, image
        version, image = await self.host.table_board(who.game_id, who.user_id, where=who.where)
        return version, self.images.put((who.game_id, who.user_id, "board", version), image)

    async def board_png(self, request: web.Request) -> web.Response:
        who = self.session(request, game_id_of(request))
        _, image = await self.board_image(who, int_param(request, "v"))
        return png(image)

    async def panel_png(self, request: web.Request) -> web.Response:
        who = self.session(request, game_id_of(request))
        version = int_param(request, "v")
        image = self.images.get((who.game_id, who.user_id, "panel", version))
        if image is None:
            panel = await self.host.table_panel(who.game_id, who.user_id, where=who.where)
            image = panel.image
        return png(image)

    async def history(self, request: web.Request) -> web.Response:
        who = self.session(request, game_id_of(request))
        page = int_param(request, "page") or 1
        lang = await self.stored_lang(request, who.user_id)
        lines = await self.host.history(who.game_id, page, asker=who.user_id, where=who.where)
        return web.json_response({"lines": say_all(lang, lines, await self.seat_names(lang, who))}, dumps=dumps)

    async def replay(self, request: web.Request) -> web.Response:
        who = self.session(request, game_id_of(request))
        step = int_param(request, "step")
        outbox = await self.host.replay(who.game_id, who.user_id, step, where=who.where)
        viewer = outbox.reply_viewer
        lang = await self.stored_lang(request, who.user_id)
        if outbox.reply_image:
            self.images.put((who.game_id, who.user_id, "replay", viewer.step, viewer.steps), outbox.reply_image)
        width, height = png_size(outbox.reply_image or b"")
        names = await self.seat_names(lang, who)
        return web.json_response({"step": viewer.step, "steps": viewer.steps, "lines": say_all(lang, outbox.reply, names),
                                  "image": {"url": f"/api/game/{who.game_id}/replay/{viewer.step}.png?of={viewer.steps}",
                                            "width": width, "height": height}}, dumps=dumps)

    async def replay_png(self, request: web.Request) -> web.Response:
        who = self.session(request, game_id_of(request))
        step = int(request.match_info["step"])
        image = self.images.get((who.game_id, who.user_id, "replay", step, int_param(request, "of")))
        if image is None:
            image = (await self.host.replay(who.game_id, who.user_id, step, where=who.where)).reply_image or b""
        return png(image)

    # ---- a move ----------------------------------------------------------------------------------
    async def move(self, request: web.Request) -> web.Response:
        who = self.session(request, game_id_of(request))
        self.rates.take(who.user_id, "move", self.settings.moves_per_window)
        body = await self.body(request)
        action, version, csrf = body.get("action"), body.get("version"), body.get("csrf")
        if not self.signer.csrf_ok(who, csrf):
            raise Refused("csrf", 403)
        if not isinstance(action, str) or not isinstance(version, int) or isinstance(version, bool):
            raise Refused("bad_body", 400)
        outbox = await self.host.act(who.game_id, who.user_id, action, seen_version=version, where=who.where)
        self.hand_on(outbox)
        lang = await self.stored_lang(request, who.user_id)
        state = await self.state_of(request, who)
        state["said"] = say_all(lang, outbox.reply, self.names(lang, await self.host.table(
            who.game_id, who.user_id, where=who.where), who.user_id))
        return web.json_response(state, dumps=dumps)

    async def body(self, request: web.Request) -> dict:
        if request.content_length is not None and request.content_length > self.settings.max_body:
            raise Refused("too_large", 413)
        try:
            raw = await request.read()
        except web.HTTPRequestEntityTooLarge:
            raise Refused("too_large", 413) from None
        if len(raw) > self.settings.max_body:
            raise Refused("too_large", 413)
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise Refused("bad_body", 400) from None
        if not isinstance(body, dict):
            raise Refused("bad_body", 400)
        return body

    def hand_on(self, outbox: Outbox) -> None:
        """What the move tells others (the board in Discord, panels, pings) goes out as any move's does."""
        if self.deliver is None:
            return
        task = asyncio.ensure_future(self.deliver(outbox))
        self.tasks.add(task)
        task.add_done_callback(self._delivered)

    def _delivered(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("delivering a web move's outbox failed", exc_info=task.exception())

    # ---- live updates ----------------------------------------------------------------------------
    async def events(self, request: web.Request) -> web.StreamResponse:
        who = self.session(request, game_id_of(request))
        table = await self.host.table(who.game_id, who.user_id, where=who.where)  # may they look at all
        if self.streams.get(who.user_id, 0) >= self.settings.streams_per_user:
            raise Refused("rate", 429)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        self.streams[who.user_id] = self.streams.get(who.user_id, 0) + 1
        try:
            await response.prepare(request)
            async with self.changes.watching(who.game_id, table.version) as changed:
                await response.write(sse("changed", {"version": table.version}))
                while True:
                    try:
                        version = await asyncio.wait_for(changed.get(), 15)
                    except asyncio.TimeoutError:
                        await response.write(b": still here\n\n")  # keeps proxies from closing it
                        continue
                    await response.write(sse("changed", {"version": version}))
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.streams[who.user_id] -= 1
            if not self.streams[who.user_id]:
                del self.streams[who.user_id]
        return response

    # ---- refusals --------------------------------------------------------------------------------
    @web.middleware
    async def guard(self, request: web.Request, handler):
        """Headers on every answer; every refusal as words in the viewer's language."""
        try:
            response = await handler(request)
        except Refused as e:
            response = await self.refusal(request, f"web.error.{e.key}", {}, e.status)
        except ServiceError as e:
            response = await self.refusal(request, e.text.key, e.text.params, STATUS_OF.get(e.key, 400))
        except web.HTTPRequestEntityTooLarge:
            response = await self.refusal(request, "web.error.too_large", {}, 413)
        except web.HTTPException as e:
            if e.status < 400:
                secure(e)
                raise
            response = await self.refusal(request, "web.error.not_found" if e.status == 404 else "web.error.bad_body",
                                          {}, e.status)
        secure(response)
        return response

    async def refusal(self, request: web.Request, key: str, params: dict, status: int) -> web.Response:
        lang = await self.stored_lang(request, self.asker(request))
        words = say(lang, T(key, **params))
        if request.path.startswith("/api/"):
            return web.json_response({"error": words}, status=status, dumps=dumps)
        return await self.error_page(request, key.removeprefix("web.error."), status) if key.startswith("web.error.") \
            else web.Response(text=words, status=status)

    async def on_startup(self, app) -> None:
        self.changes.start()

    async def on_shutdown(self, app) -> None:
        await self.changes.stop()


TABLE = web.AppKey("table", TableApp)  # the app's TableApp (the activity routes reach its signer and settings)

TIME_SLOT = "{time}"  # where the page writes a time it formats in the viewer's own zone
PAGE_WORDS = ("loading", "your_turn", "waiting", "deadline", "paused", "history", "replay", "replay_step", "zoom_in",
              "zoom_out", "zoom_fit", "panel", "choices", "back", "spectator", "live_lost", "no_move_here", "tapped",
              "board", "players", "start_over", "sending", "played", "latest", "you")


def cookie_name(game_id: int) -> str:
    return f"tt_{game_id}"


def game_id_of(request: web.Request) -> int:
    text = request.match_info["game_id"]
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        raise Refused("not_found", 404)
    return int(text)


def int_param(request: web.Request, name: str) -> int | None:
    text = request.query.get(name, "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None


def epoch(stamp: str | None) -> int | None:
    from datetime import datetime

    if not stamp:
        return None
    try:
        return int(datetime.fromisoformat(stamp).timestamp())
    except ValueError:
        return None


def regions_json(lang: str, regions: list[dict], names: dict[int, str]) -> list[dict]:
    return [{"key": r["key"], "kind": r.get("kind"), "box": list(r["box"]), "words": say(lang, r.get("words"), names)}
            for r in regions]


def png(image: bytes) -> web.Response:
    if not image:
        raise Refused("not_found", 404)
    return web.Response(body=image, content_type="image/png", headers={"Cache-Control": "private, max-age=300"})


def sse(event: str, data: dict) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def secure(response) -> None:
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CSP)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "no-referrer")  # a link's token never leaves in a Referer
    headers.setdefault("Cache-Control", "no-store")


def make_app(host: GameHost, settings: WebSettings,
             deliver: Callable[[Outbox], Awaitable[None]] | None = None) -> web.Application:
    """The web table's application (``deliver``: how a web move's outbox reaches Discord, or the terminal)."""
    table = TableApp(host, settings, deliver)
    app = web.Application(middlewares=[table.guard], client_max_size=settings.max_body)
    app[TABLE] = table
    app.router.add_get("/t/{token}", table.open_link)
    app.router.add_get("/game/{game_id}", table.table_page)
    app.router.add_get("/api/game/{game_id}", table.state)
    app.router.add_get("/api/game/{game_id}/board.png", table.board_png)
    app.router.add_get("/api/game/{game_id}/panel.png", table.panel_png)
    app.router.add_get("/api/game/{game_id}/history", table.history)
    app.router.add_get("/api/game/{game_id}/replay", table.replay)
    app.router.add_get("/api/game/{game_id}/replay/{step:\\d{1,6}}.png", table.replay_png)
    app.router.add_post("/api/game/{game_id}/move", table.move)
    app.router.add_get("/api/game/{game_id}/events", table.events)
    app.router.add_static("/static/", str(resources.files(__package__) / "static"))
    register_activity(app, table, refused=Refused, cookie_name=cookie_name)  # the Discord Activity's page and sign-in
    app.on_startup.append(table.on_startup)
    app.on_shutdown.append(table.on_shutdown)
    return app


async def start_web(host: GameHost, settings: WebSettings,
                    deliver: Callable[[Outbox], Awaitable[None]] | None = None) -> web.AppRunner:
    """Serve the table on ``settings.port`` from the running event loop (the bot's own)."""
    runner = web.AppRunner(make_app(host, settings, deliver), shutdown_timeout=2.0)
    await runner.setup()
    await web.TCPSite(runner, settings.bind, settings.port).start()
    log.info("web table on port %s", settings.port)
    return runner
