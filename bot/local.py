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
import time
import tempfile
from pathlib import Path

from games import all_games, get_game

from .i18n import T, Text, render
from .service import GameHost, Outbox, ServiceError
from .store import open_store

FIRST_HUMAN_ID = 1001


# What Discord shows a player, said for a terminal instead.
TERMINAL_WORDS = {"panel.your_choice": "local.your_choice", "error.bad_notation": "local.bad_notation",
                  "error.action_empty": "local.action_empty"}


def plain(lang: str, lines: list[Text], now: float | None = None) -> str:
    """Discord markup made readable in a terminal: names for mentions, times in words, no ``**``."""
    lines = [T(TERMINAL_WORDS[line.key], **line.params) if isinstance(line, Text) and line.key in TERMINAL_WORDS
             else line for line in lines]
    text = "\n".join(render(lang, line) for line in lines)
    text = re.sub(r"<@(\d+)>", lambda m: f"P{int(m[1]) - FIRST_HUMAN_ID + 1}", text)
    text = re.sub(r"<t:(\d+):R>", lambda m: relative_time(lang, int(m[1]) - (now or time.time())), text)
    text = re.sub(r"<#\d+>", render(lang, T("local.here")), text)
    return text.replace("**", "")


def relative_time(lang: str, seconds: float) -> str:
    hours = abs(seconds) / 3600
    amount = (f"{hours / 24:.0f}", "d") if hours >= 48 else (f"{hours:.0f}", "h") if hours >= 1 else (
        f"{abs(seconds) / 60:.0f}", "m")
    return render(lang, T("local.in" if seconds >= 0 else "local.ago", amount=amount[0],
                          unit=T(f"local.unit.{amount[1]}")))


def grouped(game, actions: list[str], prefix: tuple[str, ...] = ()) -> list[str]:
    """The legal actions as the menus group them: each next step with how many actions follow."""
    steps: dict[str, list[str]] = {}
    for a in actions:
        path = game.action_path(a)
        if path[: len(prefix)] == prefix:
            steps.setdefault(path[len(prefix)] if len(path) > len(prefix) else a, []).append(a)
    return [under[0] if len(under) == 1 else f"{step} … ({len(under)})" for step, under in steps.items()]


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
            if text == "?" or text.startswith("? "):
                prefix = tuple(text[2:].split(" | ")) if text.startswith("? ") else ()
                self.echo("  ".join(grouped(game, game.legal_actions(row.state, seat), prefix)))
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
    store = await open_store(db_path)
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
    parser.add_argument("--db", default=None, help="SQLite file or postgresql:// URL (default: a temporary SQLite file)")
    args = parser.parse_args(argv)
    try:
        get_game(args.game)
    except Exception:
        parser.error(f"unknown game {args.game!r}; choose one of: {', '.join(names)}")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
