"""The web table's speed and weight, in Debian's Chromium (figures with their goals; not a test).

    .venv/bin/python benchmarks/web_bench.py                 # all three
    .venv/bin/python benchmarks/web_bench.py --games 20 --moves 5 --loads 5

1. First page load on localhost: from the link's navigation to the page's board (and, for a game
   with secrets, the panel) drawn, in a fresh browser context (no cache); goal ≤ 500 ms.
2. A tap to the updated board on the other player's page, with N games open at once (each with
   its other player's page live): from the move's POST to that page's new board picture loaded;
   p95, goal ≤ 300 ms with 20 games.
3. The bot's memory (resident set) with and without the web way in: the real bot process against
   the Discord stand-in, idle after start-up, then after serving a game's page.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import registry  # noqa: E402
from tests.browser.conftest import ALICE, BOB, WebTable  # noqa: E402
from tests.browser.harness import DESKTOP, PHONE, LoopThread, browser_problem, launch_chromium  # noqa: E402

LOAD_GOAL_MS, TAP_GOAL_MS = 500, 300

# In the watching page: the time (epoch ms) its board picture of a version newer than ``after``
# finished loading.
WATCH_JS = """(after) => new Promise((resolve) => {
  const seen = () => { const img = document.querySelector('#board img');
    if (!img) return false; const v = Number((img.getAttribute('src').split('v=')[1] || '0').split('&')[0]);
    if (v > after && img.complete && img.naturalWidth) { resolve(performance.timeOrigin + performance.now()); return true; }
    if (v > after) img.addEventListener('load', () => resolve(performance.timeOrigin + performance.now()), {once: true});
    return v > after; };
  if (seen()) return;
  new MutationObserver((_, obs) => { if (seen()) obs.disconnect(); }).observe(document.body, {subtree: true, childList: true, attributes: true});
})"""


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def first_loads(browser, table: WebTable, loads: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for game in registry.all_games():
        for _ in range(loads):
            game_id = table.new_game(game.name, [ALICE, BOB])
            context = browser.new_context(viewport=PHONE)
            page = context.new_page()
            started = time.perf_counter()
            page.goto(table.link(ALICE, game_id))
            page.wait_for_function("() => { const b = document.querySelector('#board img');"
                                   " const p = document.querySelector('#panel img');"
                                   " const shown = (i) => i && i.complete && i.naturalWidth > 0;"
                                   " return shown(b) && (document.getElementById('panel-section').hidden || shown(p)); }",
                                   polling="raf")
            out.setdefault(game.name, []).append((time.perf_counter() - started) * 1000)
            context.close()
    return out


def taps(browser, table: WebTable, games: int, moves: int) -> list[float]:
    """Squares games (alternating turns): the mover posts through their session; the other page waits."""
    import aiohttp

    # Each game its own two people (one person's live pages are capped, as a person's rate is).
    people = {}
    for i in range(games):
        a, b = 10_000 + i, 20_000 + i
        people[table.new_game("squares", [a, b])] = (a, b)
    ids = list(people)
    watchers = {}  # the first player's page of each game, live, while the second moves
    for game_id in ids:
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.goto(table.link(people[game_id][0], game_id))
        page.wait_for_selector("#board img", state="attached")
        watchers[game_id] = page
    latencies: list[float] = []

    async def post_move(game_id: int) -> float | None:
        async with aiohttp.ClientSession() as http:
            mover = people[game_id][1]
            if not (await table.host.table(game_id, mover)).actions:
                return None
            link = table.link(mover, game_id).replace(table.base, "")
            async with http.get(table.base + link, allow_redirects=False) as r:
                cookie = r.headers["Set-Cookie"].split(";", 1)[0]
            headers = {"Cookie": cookie, "Content-Type": "application/json"}
            async with http.get(f"{table.base}/api/game/{game_id}", headers=headers) as r:
                state = await r.json()
            action = next(a for a in state["actions"] if "@" in a["action"])["action"]
            started = time.time() * 1000
            async with http.post(f"{table.base}/api/game/{game_id}/move", headers=headers,
                                 data=json.dumps({"action": action, "version": state["version"], "csrf": state["csrf"]})) as r:
                assert r.status == 200, await r.text()
            return started

    async def first_moves(game_id: int) -> None:  # the watcher's own move, through the service
        first = people[game_id][0]
        seen = await table.host.table(game_id, first)
        if seen.actions:
            action = next(a.action for a in seen.actions if "@" in a.action)
            await table.host.act(game_id, first, action, seen_version=seen.version)

    for _ in range(moves):
        for game_id in ids:
            table.run(first_moves(game_id))
        for game_id in ids:
            page = watchers[game_id]
            version = table.run(table.host.table(game_id, people[game_id][0])).version
            page.evaluate(f"(after) => {{ window.__seen = null; ({WATCH_JS})(after).then((t) => window.__seen = t); }}",
                          version)
            started = table.run(post_move(game_id))
            if started is None:
                continue
            seen_at = page.wait_for_function("() => window.__seen", polling="raf").json_value()
            latencies.append(seen_at - started)
    return latencies


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def bot_memory(web: bool) -> tuple[int, int]:
    """(KiB idle after start-up, KiB after a game's page was served) of the bot's own process."""
    import aiohttp

    from tests.e2e.test_bot_e2e import BotProcess, start_two_player
    from tests.fakediscord import FakeDiscord

    fake = FakeDiscord(users=("alice", "bob", "carol"), openapi=False)
    await fake.start()
    with tempfile.TemporaryDirectory() as scratch:
        port = free_port()
        env = {"WEB_PORT": str(port), "WEB_PUBLIC_URL": f"http://127.0.0.1:{port}"} if web else {"WEB_PORT": ""}
        bot = BotProcess(fake, Path(scratch) / "games.sqlite3", Path(scratch), env=env, log_level="WARNING")
        await bot.start()
        try:
            await fake.wait_for_commands(timeout=60)
            await asyncio.sleep(2)
            idle = rss_kib(bot.proc.pid)
            game_id, _ = await start_two_player(fake, bot)
            if web:  # the page, its state, its board: what one viewer costs
                from bot.web.links import Signer, derive_secret  # the bot's own signing key, from its token
                from bot.service import Where

                signer = Signer(derive_secret(fake.client_secret, fake.env["DISCORD_TOKEN"]))
                token = signer.link_token(int(fake.user("alice")["id"]), game_id, Where(fake.guild_id, fake.channel_id))
                async with aiohttp.ClientSession() as http:
                    async with http.get(f"http://127.0.0.1:{port}/t/{token}", allow_redirects=False) as r:
                        cookie = r.headers.get("Set-Cookie", "").split(";", 1)[0]
                    for path in (f"/game/{game_id}", f"/api/game/{game_id}"):
                        async with http.get(f"http://127.0.0.1:{port}{path}", headers={"Cookie": cookie}) as r:
                            await r.read()
            await asyncio.sleep(1)
            return idle, rss_kib(bot.proc.pid)
        finally:
            await bot.stop()
            await fake.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=5)
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    problem = browser_problem()
    if problem:
        print(f"cannot measure in a browser: {problem}", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    loop = LoopThread()
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        table = WebTable(loop)
        loop.run(table._start(str(Path(scratch) / "bench.sqlite3")))
        browser = launch_chromium(playwright)
        try:
            print("first page load on localhost (link → board and panel drawn), fresh context, 400×800:")
            everything = []
            for name, times in first_loads(browser, table, args.loads).items():
                everything += times
                print(f"  {name:14} median {statistics.median(times):6.0f} ms   worst {max(times):6.0f} ms")
            print(f"  all games      p95 {pct(everything, 95):6.0f} ms   goal ≤ {LOAD_GOAL_MS} ms")
            lat = taps(browser, table, args.games, args.moves)
            print(f"tap → updated board on the other player's page, {args.games} games open, {len(lat)} moves:")
            print(f"  median {statistics.median(lat):6.0f} ms   p95 {pct(lat, 95):6.0f} ms   goal ≤ {TAP_GOAL_MS} ms p95")
        finally:
            browser.close()
            loop.run(table._stop())
            loop.stop()
    without = asyncio.run(bot_memory(False))
    with_web = asyncio.run(bot_memory(True))
    print("the bot's memory (resident set of its own process):")
    print(f"  without the web way in: {without[0] / 1024:6.1f} MiB idle, {without[1] / 1024:6.1f} MiB after a game")
    print(f"  with the web way in:    {with_web[0] / 1024:6.1f} MiB idle, {with_web[1] / 1024:6.1f} MiB after a game "
          f"and its page")
    return 0


if __name__ == "__main__":
    sys.exit(main())
