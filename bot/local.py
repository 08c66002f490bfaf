"""Play any registered game in a terminal, hot-seat or against the AI, through the real service.

    python -m bot.local squares                 # two humans at one keyboard
    python -m bot.local squares --ai 1          # you against one AI seat
    python -m bot.local squares --ai 2 --auto   # AI against AI, no input
    python -m bot.local squares --lang ja --out boards/

Each board image is written to the output folder as ``game<id>-v<version>.png``. Type an action
in the game's notation, ``?`` for the legal actions, ``h`` for the history, ``q`` to quit.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
from pathlib import Path

from games import all_games, get_game

from .i18n import T, Text, render
from .service import GameHost, Outbox, ServiceError
from .store import Store

FIRST_HUMAN_ID = 1001


def plain(lang: str, lines: list[Text]) -> str:
    text = "\n".join(render(lang, line) for line in lines)
    return re.sub(r"<@(\d+)>", lambda m: f"P{int(m[1]) - FIRST_HUMAN_ID + 1}", text)


class LocalTable:
    def __init__(self, host: GameHost, lang: str, out: Path, echo=print):
        self.host, self.lang, self.out, self.echo = host, lang, out, echo
        out.mkdir(parents=True, exist_ok=True)

    def show(self, outbox: Outbox) -> None:
        for post in outbox.posts:
            self.echo(plain(self.lang, post.lines))
            if post.image and post.board_version is not None:
                path = self.out / f"game{post.game_id}-v{post.board_version:04d}.png"
                path.write_bytes(post.image)
                self.echo(f"  [board: {path}]")
        for private in outbox.privates:
            self.echo(plain(self.lang, private.lines))

    async def setup(self, game_name: str, humans: int, ais: int, options: str | None) -> int:
        """Open a game whose creator (P1) plays only when there is at least one human seat."""
        ids = [FIRST_HUMAN_ID + i for i in range(max(humans, 1))]
        row, _ = await self.host.create(game_name, options, guild_id=None, channel_id=1, user_id=ids[0],
                                        locale=self.lang, seat_creator=humans > 0)
        for uid in ids[1:humans]:
            await self.host.join(row.id, uid)
        for _ in range(ais):
            await self.host.add_ai(row.id, ids[0])
        self.show(await self.host.start(row.id, ids[0], is_admin=True))
        return row.id

    async def play(self, game_id: int, read=input) -> None:
        while True:
            row = await self.host.store.load(game_id)
            if row.status != "active":
                return
            game = get_game(row.game)
            seat = min(game.to_act(row.state))
            user = row.user_of(seat)
            prompt = plain(self.lang, [T("local.prompt", player=f"<@{user}>", seat=seat + 1)]) + " "
            try:
                text = read(prompt).strip()
            except EOFError:
                return
            if text in ("q", "quit"):
                return
            if text == "?":
                self.echo(" ".join(game.legal_actions(row.state, seat)))
                continue
            if text == "h":
                self.echo(plain(self.lang, await self.host.history(game_id)))
                continue
            try:
                self.show(await self.host.act(game_id, user, text))
            except ServiceError as e:
                self.echo(plain(self.lang, [e.text]))


async def run(args) -> int:
    db_path = args.db or str(Path(tempfile.mkdtemp()) / "local.sqlite3")
    store = await Store.open(db_path)
    try:
        host = GameHost(store)
        table = LocalTable(host, args.lang, Path(args.out))
        game = get_game(args.game)
        ais = args.ai or 0
        humans = 0 if args.auto else max(1, game.min_players - ais)
        if args.auto:
            ais = max(ais, game.min_players)
        game_id = await table.setup(game.name, humans, ais, args.options)
        if humans:
            await table.play(game_id)
        return 0
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    names = [g.name for g in all_games()]
    parser = argparse.ArgumentParser(prog="python -m bot.local", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help=f"one of: {', '.join(names)}")
    parser.add_argument("--ai", type=int, default=None, help="number of AI seats")
    parser.add_argument("--auto", action="store_true", help="AI plays every seat")
    parser.add_argument("--options", default=None, help='game options, e.g. "cap=6"')
    parser.add_argument("--lang", default="en", choices=("en", "ja"))
    parser.add_argument("--out", default="boards", help="folder for board images")
    parser.add_argument("--db", default=None, help="SQLite file (default: a temporary one)")
    args = parser.parse_args(argv)
    try:
        get_game(args.game)
    except Exception:
        parser.error(f"unknown game {args.game!r}; choose one of: {', '.join(names)}")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
