"""The web table beside Discord, through the real bot process and the Discord stand-in:

- the Table button answers a private link; a move typed in Discord (``/play``) shows on that page
  without a reload, and a move tapped on the page shows in Discord as a new board;
- with Activities enabled, the Table button answers ``LAUNCH_ACTIVITY`` (type 12), and the page Discord
  would open signs in through the vendored Embedded App SDK (ready, authorize, the server's code
  exchange, authenticate) with Discord's client played by the test over postMessage, and axe-core
  finds nothing serious on the table it shows.
"""

from __future__ import annotations

import re
import socket
import uuid

import pytest

from bot.discord_app.custom_ids import decode
from tests.browser.harness import DESKTOP, WAIT_MS, LoopThread, inject_axe, launch_chromium, require_browser
from tests.browser.tapping import board_version, tap_action, wait_until
from tests.e2e.test_bot_e2e import BotProcess, home, is_board, latest_board, log_rows, reply_text, start_two_player, uid
from tests.fakediscord import FakeDiscord


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class World:
    """The stand-in and the bot (serving its web table) in a loop thread of their own."""

    def __init__(self, tmp_path, *, activity: bool) -> None:
        self.loop = LoopThread()
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.fake = FakeDiscord(users=("alice", "bob", "carol"), guild_locale="en-US", activities=activity)
        self.loop.run(self.fake.start())
        env = {"WEB_PORT": str(self.port), "WEB_PUBLIC_URL": self.base, "WEB_ACTIVITY": "1" if activity else "0"}
        self.bot = BotProcess(self.fake, tmp_path / "games.sqlite3", tmp_path, env=env)
        self.loop.run(self.bot.start(), timeout=120)
        self.loop.run(self.fake.wait_for_commands(timeout=60), timeout=90)

    def run(self, coro, timeout: float = 60):
        return self.loop.run(coro, timeout)

    def close(self) -> None:
        try:
            self.run(self.bot.stop())
            self.run(self.fake.stop())
        finally:
            self.loop.stop()


@pytest.fixture(scope="module")
def chromium():
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()


def table_button(message) -> str:
    return next(c for c in message.custom_ids() if decode(c) and decode(c).kind == "w")


def test_a_move_typed_in_discord_shows_on_the_page_and_a_tap_shows_in_discord(tmp_path, chromium) -> None:
    world = World(tmp_path, activity=False)
    fake, bot = world.fake, world.bot
    try:
        game_id, seats = world.run(start_two_player(fake, bot))
        board = world.run(latest_board(fake, bot, game_id))
        # alice asks for her table: a private link, hers alone
        answer = world.run(reply_text(world.run(fake.click_button(board, table_button(board), "alice"))))
        link = re.search(r"http://\S+/t/\S+", answer)[0]
        context = chromium.new_context(viewport=DESKTOP, locale="en-US")
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        page.goto(link)
        page.wait_for_selector("#board img", state="attached")
        first_navigation = page.evaluate("performance.timeOrigin")

        def play_in_discord(user: str) -> None:
            choices = world.run(world.run(fake.autocomplete(fake.guild_id, home(bot, fake, game_id), user, "play",
                                                            {"action": ""}, "action")).choices())
            placement = next(c["value"] for c in choices if "@" in c["value"])
            world.run(reply_text(world.run(fake.send_slash(fake.guild_id, home(bot, fake, game_id), user, "play",
                                                           {"action": placement}))))

        def page_state() -> dict:
            return page.evaluate("async (id) => (await fetch(`/api/game/${id}`)).json()", game_id)

        if seats[0] == "carol":  # carol moves first: her move, typed in Discord, reaches alice's page
            before = board_version(page)
            play_in_discord("carol")
            wait_until(lambda: (board_version(page) or 0) > before, "carol's /play on alice's page")
        # alice taps her move on the page; Discord shows the new board
        state = page_state()
        assert state["your_turn"]
        move = next(a for a in state["actions"] if "@" in a["action"])
        mark = fake.mark()
        tap_action(page, move)
        posted = world.run(fake.wait_for_message(home(bot, fake, game_id), is_board, since=mark))
        assert log_rows(bot.db_path, game_id)[-1][2] == move["action"]  # the board Discord shows is after it
        # and carol's answer, typed in Discord, shows on alice's page, still without a reload
        before = board_version(page)
        play_in_discord("carol")
        wait_until(lambda: (board_version(page) or 0) > before, "carol's second /play on alice's page")
        assert page.evaluate("performance.timeOrigin") == first_navigation
        context.close()
    finally:
        world.close()
    assert not fake.violations, fake.violations


# Discord's client, as the Embedded App SDK meets it in its parent frame (RPC over postMessage:
# [opcode, payload]; 0 handshake, 1 frame). Each command goes to the test (window.discordClient),
# which answers as Discord would, backed by the stand-in.
CLIENT_PAGE = """<!doctype html><html><body>
<iframe id="activity" src="%(src)s" style="width:400px;height:760px;border:0"></iframe>
<script>
const frame = document.getElementById('activity');
window.addEventListener('message', async (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  const reply = (data) => frame.contentWindow.postMessage([1, data], '*');
  if (opcode === 0) {
    reply({cmd: 'DISPATCH', evt: 'READY', nonce: null, data: {v: 1, config: {api_endpoint: '//discord.com/api', environment: 'production'}}});
  } else if (opcode === 1) {
    const answer = await window.discordClient(payload.cmd, payload.args || {});
    if (answer !== null) reply({cmd: payload.cmd, evt: null, nonce: payload.nonce, data: answer});
  }
});
</script></body></html>"""


def test_the_table_button_launches_the_activity_and_the_sdk_signs_the_player_in(tmp_path, chromium) -> None:
    world = World(tmp_path, activity=True)
    fake, bot = world.fake, world.bot
    try:
        # the bot's command sync kept Discord's Entry Point command ("Launch"), which enabling
        # Activities made: a bulk overwrite without it is refused
        assert {(c["type"], c["name"]) for c in fake.commands} >= {(4, "launch"), (1, "game")}
        game_id, _ = world.run(start_two_player(fake, bot))
        board = world.run(latest_board(fake, bot, game_id))
        handle = world.run(fake.click_button(board, table_button(board), "alice"))
        assert world.run(handle.response()).type == 12  # LAUNCH_ACTIVITY
        (instance,) = fake.launched_activities()
        commands: list[str] = []

        def discord_client(cmd: str, args: dict):
            """What Discord's client answers the SDK: a code for AUTHORIZE (for alice, who launched it),
            the user for AUTHENTICATE once the token is one the stand-in issued for her."""
            commands.append(cmd)
            if cmd == "AUTHORIZE":
                assert args["client_id"] == str(fake.application_id) and args["scope"] == ["identify"]
                assert args["response_type"] == "code"
                return {"code": fake.authorize_code("alice")}
            if cmd == "AUTHENTICATE":
                token = fake.oauth_tokens[args["access_token"]]
                user = fake.users[token.user_id]
                return {"access_token": args["access_token"], "scopes": list(token.scopes), "expires": "2099-01-01T00:00:00Z",
                        "user": {"id": user["id"], "username": user["username"], "discriminator": "0",
                                 "public_flags": 0, "global_name": user["global_name"]},
                        "application": {"id": str(fake.application_id), "name": "TabletopBot", "description": ""}}
            return None  # what the test's Discord does not model (captured console logs) goes unanswered

        context = chromium.new_context(viewport={"width": 420, "height": 800}, locale="en-US")
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        page.expose_function("discordClient", discord_client)
        query = (f"instance_id={instance.instance_id}&frame_id={uuid.uuid4()}&platform=desktop"
                 f"&guild_id={fake.guild_id}&channel_id={fake.channel_id}")
        # Discord's client page at Discord's own origin (fulfilled by the browser's request routing: no
        # network), so the table's frame-ancestors and the SDK's allowed origins meet what they meet in Discord.
        # The Activity itself at its discordsays.com address, which Discord proxies to the URL mapping's
        # target: here the browser's routing does the proxying, to the bot's web table on 127.0.0.1.
        proxy = f"https://{fake.application_id}.discordsays.com"
        client_page = CLIENT_PAGE % {"src": f"{proxy}/?{query}"}
        page.route("https://discord.com/**", lambda route: route.fulfill(status=200, content_type="text/html",
                                                                         body=client_page))

        def discord_proxy(route) -> None:
            if route.request.url.split("?")[0].endswith("/events"):
                route.abort()  # a stream never ends, and the proxy here forwards whole answers only
                return
            route.fulfill(response=route.fetch(url=route.request.url.replace(proxy, world.base, 1)))

        page.route(f"{proxy}/**", discord_proxy)
        page.goto("https://discord.com/activities/test")
        frame = page.frame_locator("#activity")
        frame.locator("#board img").wait_for(state="attached")
        assert commands[:2] == ["AUTHORIZE", "AUTHENTICATE"]
        assert [r.path for r in fake.requests if r.path.startswith(("/oauth2/token", "/users/@me", "/applications/"))
                and r.method in ("POST", "GET") and "commands" not in r.path][-3:] == [
            "/oauth2/token", "/users/@me", f"/applications/{fake.application_id}/activity-instances/{instance.instance_id}"]
        seat = page.frames[1].evaluate("async (id) => (await fetch(`/api/game/${id}`)).json()", game_id)["seat"]
        assert seat is not None  # alice's own seat: her page, as a player
        found = inject_axe(page.frames[1])  # the table inside Discord's frame reads as well as the plain page
        assert not found, [f"{v['impact']} {v['id']}: {v['help']}: {v['nodes'][0]['html'][:100]}" for v in found]
        assert [t.user_id for t in fake.oauth_tokens.values()] == [uid(fake, "alice")]  # one sign-in, hers
        context.close()
    finally:
        world.close()
    assert not fake.violations, fake.violations
