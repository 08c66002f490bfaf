"""The screenshots in docs/img/web/: each game's table page at a phone's width (400×800), taken in
Debian's Chromium with Playwright, as the browser tests drive it.

    .venv/bin/python docs/make_web_pictures.py            # rewrite docs/img/web/<game>.png
    .venv/bin/python docs/make_web_pictures.py --out DIR

Each game is a fresh two-player game served by the web table in-process, seen by its first player
after a few moves made through the service (so the board is not empty). Pages change with the
code; run this after changing the page or a renderer, and commit the pictures it rewrote.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository first (see make_pictures.py)

from games import registry  # noqa: E402
from tests.browser.conftest import ALICE, BOB, WebTable  # noqa: E402
from tests.browser.harness import PHONE, WAIT_MS, LoopThread, browser_problem, launch_chromium  # noqa: E402

MOVES = 4  # moves played before the picture (each seat's first choice), so pieces are on the board


def play_a_little(table: WebTable, game_id: int) -> None:
    async def play() -> None:
        for _ in range(MOVES):
            for user in (ALICE, BOB):
                seen = await table.host.table(game_id, user)
                if seen.actions:
                    await table.host.act(game_id, user, seen.actions[0].action, seen_version=seen.version)
                    break

    table.run(play())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).with_name("img") / "web"))
    out = Path(parser.parse_args().out)
    problem = browser_problem()
    if problem:
        print(f"cannot take the pictures: {problem}", file=sys.stderr)
        return 1
    out.mkdir(parents=True, exist_ok=True)
    from tempfile import TemporaryDirectory

    from playwright.sync_api import sync_playwright

    loop = LoopThread()
    with TemporaryDirectory() as scratch, sync_playwright() as playwright:
        table = WebTable(loop)
        loop.run(table._start(str(Path(scratch) / "pictures.sqlite3")))
        browser = launch_chromium(playwright)
        try:
            for game in registry.all_games():
                game_id = table.new_game(game.name, [ALICE, BOB])
                play_a_little(table, game_id)
                context = browser.new_context(viewport=PHONE, locale="en-US", device_scale_factor=1)
                context.set_default_timeout(WAIT_MS)
                page = context.new_page()
                page.goto(table.link(ALICE, game_id))
                page.wait_for_selector("#board img", state="attached")
                page.wait_for_function("() => [...document.images].every(i => i.complete)")
                page.screenshot(path=str(out / f"{game.name}.png"), full_page=True)
                context.close()
                print(out / f"{game.name}.png")
        finally:
            browser.close()
            loop.run(table._stop())
            loop.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
