"""Fixtures of the browser tests: one Chromium per module, a context per person, the web table in-process.

``table`` serves the web way in from a thread's event loop on 127.0.0.1 (a fresh database per
module); ``people`` opens a browser context per person at a viewport, each with its own cookies.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field

import pytest

from tests.browser.harness import DESKTOP, WAIT_MS, LoopThread, launch_chromium, require_browser

GUILD, CHANNEL = 7001, 7002
ALICE, BOB, CAROL = 101, 202, 303


@pytest.fixture(scope="module")
def browser():
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class WebTable:
    """The web table served in-process: its host (the service), its settings and its address."""

    loop: LoopThread
    host: object = None
    settings: object = None
    runner: object = None
    store: object = None
    base: str = ""
    delivered: list = field(default_factory=list)

    async def _start(self, database: str) -> None:
        from aiohttp import web

        from bot.service import GameHost
        from bot.storage.sqlite import Store
        from bot.web import WebSettings, make_app

        self.store = await Store.open(database)
        self.host = GameHost(self.store, seed_source=lambda: 4242)
        self.settings = WebSettings(secret=secrets.token_bytes(32), port=0, bind="127.0.0.1")

        async def deliver(outbox):
            self.delivered.append(outbox)

        self.runner = web.AppRunner(make_app(self.host, self.settings, deliver), shutdown_timeout=1.0)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        self.settings.port, self.settings.public_url = port, f"http://127.0.0.1:{port}"
        self.base = self.settings.public_url

    async def _stop(self) -> None:
        await self.runner.cleanup()
        await self.store.close()

    def run(self, coro):
        return self.loop.run(coro)

    def link(self, user_id: int, game_id: int, where=None) -> str:
        from bot.service import Where
        from bot.web import table_link

        return table_link(self.settings, user_id, game_id, where or Where(GUILD, CHANNEL))

    def new_game(self, game: str, players: list[int], options: str | None = None) -> int:
        """A game made and started through the service, as the Discord commands make one."""

        async def make() -> int:
            row, _ = await self.host.create(game, options, guild_id=GUILD, channel_id=CHANNEL, user_id=players[0],
                                            locale="en")
            for uid in players[1:]:
                await self.host.join(row.id, uid)
            await self.host.start(row.id, players[0])
            return row.id

        return self.run(make())


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    loop = LoopThread()
    made = WebTable(loop)
    loop.run(made._start(str(tmp_path_factory.mktemp("web") / "table.sqlite3")))
    try:
        yield made
    finally:
        loop.run(made._stop())
        loop.stop()


class Person:
    """One person at their own browser (a context: their own cookies), on one page."""

    def __init__(self, browser, table: WebTable, user_id: int, viewport: dict) -> None:
        self.table, self.user_id = table, user_id
        self.context = browser.new_context(viewport=viewport, locale="en-US")
        self.context.set_default_timeout(WAIT_MS)
        self.page = self.context.new_page()

    def open(self, game_id: int) -> None:
        self.page.goto(self.table.link(self.user_id, game_id))
        self.page.wait_for_selector("#board img", state="attached")

    def state(self) -> dict:
        """What the page's own API says to this person now (the same JSON the page draws)."""
        game = self.page.evaluate("document.body.dataset.game")
        found = self.page.evaluate("async (id) => (await fetch(`/api/game/${id}`, {credentials: 'same-origin'})).json()",
                                   game)
        assert "error" not in found, found["error"]
        return found

    def text(self) -> str:
        return self.page.inner_text("body")

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def people(browser, table):
    made: list[Person] = []

    def person(user_id: int, viewport: dict = DESKTOP) -> Person:
        p = Person(browser, table, user_id, viewport)
        made.append(p)
        return p

    yield person
    for p in made:
        p.close()


def dumps(value) -> str:
    return json.dumps(value)
