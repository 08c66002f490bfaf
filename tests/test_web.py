"""The web way in (#42), over real HTTP in-process (aiohttp's test server): links and sessions,
moves through the page's JSON, every refusal changing nothing stored, and live updates."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import GameHost, Where
from bot.storage.sqlite import Store
from bot.web import WebSettings, make_app, table_link
from bot.web.links import Signer
from games import get_game

ALICE, BOB, CAROL = 111, 222, 333
GUILD, CHANNEL = 1, 5
HERE = Where(GUILD, CHANNEL)


class Now:
    """A settable clock for the links (never the wall clock: the tests decide expiry by value)."""

    def __init__(self):
        self.now = 1_800_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture
async def host(tmp_path):
    store = await Store.open(str(tmp_path / "web.sqlite3"))
    made = GameHost(store, seed_source=lambda: 4242)
    yield made
    await store.close()


@pytest.fixture
def now():
    return Now()


@pytest.fixture
def settings(now):
    return WebSettings(secret=b"k" * 32, port=0, public_url="https://table.example", clock=now, poll_seconds=0)


@pytest.fixture
async def server(host, settings):
    delivered = []

    async def deliver(outbox):
        delivered.append(outbox)

    app = make_app(host, settings, deliver)
    srv = TestServer(app)
    await srv.start_server()
    srv.delivered = delivered
    yield srv
    await srv.close()


class Browser:
    """One person's browser: its own cookies (sent by hand: the test server is plain http, where
    aiohttp's jar keeps Secure cookies back; Chrome treats localhost as secure)."""

    def __init__(self, server: TestServer):
        self.server = server
        self.client = TestClient(server)
        self.cookies: dict[str, str] = {}

    async def open(self, link: str):
        path = link.split("table.example", 1)[1]
        response = await self.client.get(path, allow_redirects=False)
        for header in response.headers.getall("Set-Cookie", []):
            name, _, rest = header.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return response

    def headers(self, extra=None):
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return {"Cookie": cookie, **(extra or {})} if cookie else dict(extra or {})

    async def get(self, path: str, **kw):
        return await self.client.get(path, headers=self.headers(kw.pop("headers", None)), **kw)

    async def post(self, path: str, body, **kw):
        data = body if isinstance(body, (bytes, str)) else json.dumps(body)
        return await self.client.post(path, data=data, headers=self.headers(
            {"Content-Type": "application/json", **kw.pop("headers", {})}), **kw)

    async def close(self):
        await self.client.close()


@pytest.fixture
async def browsers(server):
    made = []

    def browser():
        b = Browser(server)
        made.append(b)
        return b

    yield browser
    for b in made:
        await b.close()


async def squares_game(host: GameHost) -> int:
    row, _ = await host.create("squares", None, guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, locale="en")
    await host.join(row.id, BOB)
    await host.start(row.id, ALICE)
    return row.id


async def signed_in(browsers, settings, user, game_id, where=HERE):
    b = browsers()
    response = await b.open(table_link(settings, user, game_id, where))
    assert response.status == 303 and response.headers["Location"] == f"/game/{game_id}"
    return b


def to_act(row):
    game = get_game(row.game)
    seat = min(game.to_act(row.state))
    return seat, row.user_of(seat), game.legal_actions(row.state, seat)


async def test_a_link_opens_the_table_and_a_move_made_there_counts(host, settings, browsers, server):
    game_id = await squares_game(host)
    row = await host.store.load(game_id)
    seat, user, legal = to_act(row)
    b = await signed_in(browsers, settings, user, game_id)
    cookie = b.cookies[f"tt_{game_id}"]
    assert cookie
    page = await b.get(f"/game/{game_id}")
    assert page.status == 200
    html = await page.text()
    assert "/static/table.js" in html
    assert "frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com" \
        in page.headers["Content-Security-Policy"]
    state = await (await b.get(f"/api/game/{game_id}")).json()
    assert state["version"] == row.version and state["seat"] == seat and state["your_turn"]
    assert {a["action"] for a in state["actions"]} == set(legal)
    board = await b.get(state["board"]["url"])
    assert board.status == 200 and (await board.read())[:8] == b"\x89PNG\r\n\x1a\n"
    answer = await b.post(f"/api/game/{game_id}/move",
                          {"action": legal[0], "version": state["version"], "csrf": state["csrf"]})
    assert answer.status == 200, await answer.text()
    after = await host.store.load(game_id)
    assert after.version > row.version
    assert [a.action for a in await host.store.actions(game_id)][-1:] == [legal[0]] or after.version > row.version + 1
    assert server.delivered, "the move's outbox went to the Discord side as any move's"
