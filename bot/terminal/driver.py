"""Play any registered game in a terminal, hot-seat or against the AI, through the real service.

    python -m bot.local squares                 # two humans at one keyboard
    python -m bot.local squares --ai 1          # you against one AI seat
    python -m bot.local squares --ai 2 --auto   # AI against AI, no input
    python -m bot.local squares --ai 1 --web    # the same, in a browser: prints the table's address
    python -m bot.local squares --lang ja --out boards/
    python -m bot.local squares --db games.sqlite3      # keep the game: `q`, then later
    python -m bot.local --db games.sqlite3 --resume 1   # go on with game #1
    python -m bot.local --replay game12-hostile.json   # play back a /game export, step by step

Each run writes its images to a folder of its own under the output folder (``boards/<date>-<time>-
<game>/``, named at the start): each board as ``game<id>-v<version>.png``, each private panel's
picture as ``game<id>-P<n>-panel-<k>.png`` (replays: ``replay<id>-<step>.png``). A replay waits for Enter between steps when run in a terminal (``b``
goes back, ``q`` quits), and at the end checks the final position against the file's state hash
and the seed against the fair-play commitment.

In a game, type an action in the game's notation, ``?`` for the choices, ``? STEP`` for the
choices under one (``? take``, ``? take H02``: any depth, as the words are typed), ``h`` for the
history, ``resign`` to resign, ``ai`` (or ``auto``) to let the AI play your seat to the end of the
game, ``q`` to quit (the game is left unfinished: kept, and resumable, only with ``--db``). A line
that is no action of the game (a typo) is answered with the closest legal action. Ratings are not
shown: the driver's database is a throwaway one. Before each prompt the seat to act sees what it must decide (in a game with
secrets, its private panel: hot-seat players look away), and every action prints its effect.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import json
import re
import sys
import time
import tempfile
from pathlib import Path

import renderers
from games import all_games, get_game, registry
from games.errors import NotationError
from games.replay import AGREED_END, CONCESSIONS, Replay, ReplayError, state_hash

from ..common import fairplay
from ..i18n import T, Text, render
from ..service import AI_LEVELS, GameHost, GameRow, Outbox, ServiceError, is_ai, open_host
from ..service.present import Presenter, seat_mark
from ..service.words import termed
from ..service.replay import EXPORT_FORMAT

FIRST_HUMAN_ID = 1001
RESIGN, TO_AI, QUIT = ("resign",), ("ai", "auto"), ("q", "quit")  # the driver's own words, beside `?` and `h`


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


def run_folder(parent: Path, game_name: str, now: float | None = None) -> Path:
    """A new folder for one run's images, named by when it started and its game, so no run
    overwrites another's (every run's game is #1 in its own throwaway database)."""
    name = time.strftime("%Y%m%d-%H%M%S", time.localtime(now if now is not None else time.time())) + f"-{game_name}"
    for n in range(1, 1000):
        folder = parent / (name if n == 1 else f"{name}-{n}")
        try:
            folder.mkdir(parents=True)
            return folder
        except FileExistsError:
            continue
    raise FileExistsError(parent / name)


def closest(game, legal: list[str], typed: str) -> str | None:
    """The legal action nearest to a line that is no action of the game at all (a typo), or None
    when the line is well-formed (its refusal says why it is not allowed) or nothing is near."""
    try:
        game.parse(game.canonical(typed))
        return None
    except NotationError:
        pass
    except Exception:  # a game that cannot parse alone: the refusal stands by itself
        return None
    by_case = {a.lower(): a for a in legal}  # notations differ in case (``T2@b4``, ``take H01 2A``): not a typo
    near = difflib.get_close_matches(" ".join(typed.lower().split()), list(by_case), n=1, cutoff=0.6)
    return by_case[near[0]] if near else None


def grouped(game, actions: list[str], prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str]]:
    """The legal actions as the menus group them: each next step's path, and what to type for it
    (the action itself, or the step with how many actions follow)."""
    steps: dict[tuple[str, ...], list[str]] = {}
    for a in actions:
        path = game.action_path(a)
        if path[: len(prefix)] == prefix:
            steps.setdefault(path[: len(prefix) + 1] if len(path) > len(prefix) else (a,), []).append(a)
    return [(step, under[0] if len(under) == 1 else f"{step[-1]} … ({len(under)})") for step, under in steps.items()]


def opened(game, actions: list[str], typed: str) -> tuple[tuple[str, ...], list[str]]:
    """What ``? STEP`` opens: the menu path whose steps, joined by spaces, are what was typed (any
    depth; ``|`` may separate steps too); else the actions that begin with it."""
    wanted = " ".join(typed.replace("|", " ").split()).lower()
    for a in actions:
        path = game.action_path(a)
        for depth in range(len(path), 0, -1):
            if " ".join(" ".join(path[:depth]).split()).lower() == wanted:
                return path[:depth], actions
    return (), [a for a in actions if a.lower().startswith(wanted)]


class LocalTable:
    def __init__(self, host: GameHost, lang: str, out: Path, echo=print, db: str | None = None):
        self.host, self.lang, self.out, self.echo = host, lang, out, echo
        self.db = db  # the database named on the command line (a game there may be resumed); None: a throwaway
        if host is not None:
            host.shows_ratings = False  # ratings in a throwaway database mean nothing
        self.words = Presenter()
        self.shown: dict[int, str] = {}  # what each player was told privately since the last action
        self.panels = 0  # panel pictures written so far
        out.mkdir(parents=True, exist_ok=True)

    def show(self, outbox: Outbox, actor: int | None = None) -> None:
        """What happened (the posts and their boards), then what each player is told privately,
        then the actor's own answer: what counted, and often its next question."""
        self.shown = {}
        for post in outbox.posts:
            self.echo(plain(self.lang, post.lines))
            if post.image and post.board_version is not None:
                path = self.out / f"game{post.game_id}-v{post.board_version:04d}.png"
                path.write_bytes(post.image)
                self.echo(plain(self.lang, [T("local.board", path=str(path))]))
        for private in outbox.privates:
            self.say_privately(private.user_id, plain(self.lang, private.lines), private.image, private.game_id)
        if outbox.reply and actor is not None:
            game_id = outbox.posts[0].game_id if outbox.posts else None
            self.say_privately(actor, plain(self.lang, outbox.reply), outbox.reply_image, game_id)

    def say_privately(self, user: int, text: str, image: bytes | None = None, game_id: int | None = None) -> None:
        """Words for one player (hot seat: the others look away), and their panel's picture
        written beside the boards."""
        self.echo(text)
        if image:
            self.panels += 1
            player = f"P{user - FIRST_HUMAN_ID + 1}"
            name = (f"game{game_id}-" if game_id is not None else "") + f"{player}-panel-{self.panels:04d}.png"
            path = self.out / name
            path.write_bytes(image)
            self.echo(plain(self.lang, [T("local.panel_image", path=str(path))]))
        self.shown[user] = self.shown.get(user, "") + "\n" + text

    async def setup(self, game_name: str, humans: int, ais: int, options: str | None, level: str | None = None) -> int:
        """Open a game whose creator (P1) plays only when there is at least one human seat."""
        ids = [FIRST_HUMAN_ID + i for i in range(max(humans, 1))]
        row, _ = await self.host.create(game_name, options, guild_id=None, channel_id=1, user_id=ids[0],
                                        locale=self.lang, seat_creator=humans > 0)
        for uid in ids[1:humans]:
            await self.host.join(row.id, uid)
        for _ in range(ais):
            await self.host.add_ai(row.id, ids[0], level)
        self.show(await self.host.start(row.id, ids[0]))
        return row.id

    async def play(self, game_id: int, read=input) -> None:
        """Prompt the seat to act until the game ends, or the player quits (``q``, end of input)."""
        while True:
            row = await self.host.store.load(game_id)
            if row.status != "active":
                return
            game = get_game(row.game)
            people = sorted(s for s in game.to_act(row.state)
                            if not (is_ai(row.user_of(s)) or row.seat_row(s).stand_in))  # the AI plays the rest
            if not people:
                return
            seat = people[0]
            user = row.user_of(seat)
            await self.ask(game_id, game, user)
            prompt = plain(self.lang, [T("local.prompt", player=f"<@{user}>", seat=seat + 1)]) + " "
            try:
                text = read(prompt).strip()
            except EOFError:
                self.leave(game_id)
                return
            if text in QUIT:
                self.leave(game_id)
                return
            if text == "?" or text.startswith("? "):
                self.list_choices(game, game.legal_actions(row.state, seat), text[1:].strip(),
                                  game.view(row.state, seat))
                continue
            if text == "h":
                self.echo(plain(self.lang, await self.host.history(game_id)))
                continue
            try:
                if text in RESIGN:
                    outbox = await self.host.resign(game_id, user)
                elif text in TO_AI:
                    outbox = await self.host.hand_to_ai(game_id, user)
                else:
                    outbox = await self.host.act(game_id, user, text)
                self.show(outbox, actor=user)
            except ServiceError as e:
                near = closest(game, game.legal_actions(row.state, seat), text)
                self.echo(plain(self.lang, [e.text] + ([T("local.did_you_mean", action=near)] if near else [])))

    def leave(self, game_id: int) -> None:
        """Quitting leaves the game unfinished: say so, and how to go on with it where it is kept."""
        hint = (T("local.resume", command=f"python -m bot.local --db {self.db} --resume {game_id}") if self.db
                else T("local.no_resume"))
        self.echo(plain(self.lang, [T("local.left_unfinished", id=game_id), hint]))


    async def ask(self, game_id: int, game, user: int) -> None:
        """Before a seat's prompt: in a game with secrets, the seat's private panel (its hand, the
        question, the choices), as Discord would show it by DM, unless it was just printed."""
        if not game.hidden_information:
            return
        try:
            private = await self.host.panel(game_id, user)
        except ServiceError:
            return
        text = plain(self.lang, private.lines)
        if text not in self.shown.get(user, ""):
            self.say_privately(user, text, private.image, game_id)

    def list_choices(self, game, actions: list[str], typed: str, view: dict | None = None) -> None:
        """``?`` and ``? STEP``: one line a choice, what to type and its words (``view``, the
        seat's own, names what the notation numbers: a monster by its card)."""
        prefix, actions = opened(game, actions, typed) if typed else ((), actions)
        if not actions:
            self.echo(plain(self.lang, [T("local.no_choice", typed=typed)]))
            return
        for path, to_type in grouped(game, actions, prefix):
            words = self.words._choice_text(game, path, view)
            facts = game.choice_facts(path, view)
            if words is not None and facts:  # the numbers a choice is made by (a hunter's stats)
                words = T("local.choice_facts", words=words, facts=termed(game, {"facts": facts})["facts"])
            self.echo(f"  {to_type}" + (f"  — {plain(self.lang, [words])}" if words is not None else ""))


async def run(args, read=input, echo=print) -> int:
    db_path = args.db or str(Path(tempfile.mkdtemp()) / "local.sqlite3")
    host = await open_host(db_path, ai_level=args.level or "normal")  # `ai` hands a seat to this level too
    try:
        if args.resume is not None:
            return await resume(host, args, read, echo)
        game = get_game(args.game)
        out = run_folder(Path(args.out), game.name)
        table = LocalTable(host, args.lang, out, echo=echo, db=args.db)
        echo(plain(args.lang, [T("local.boards_folder", path=str(out))]))
        ais = args.ai or 0
        humans = 0 if args.auto else max(1, game.min_players - ais)
        if args.auto:
            ais = max(ais, game.min_players)
        game_id = await table.setup(game.name, humans, ais, args.options, args.level)
        if humans and getattr(args, "web", False):  # the same table as a web page (bot/web/local.py)
            from ..web.local import serve_local
            await serve_local(host, game_id, [FIRST_HUMAN_ID + i for i in range(humans)], show=table.show)
        elif humans:
            await table.play(game_id, read)
        return 0
    finally:
        await host.store.close()


async def resume(host: GameHost, args, read, echo) -> int:
    """Go on with a game kept in ``--db``: its position first, then the prompts as before."""
    try:
        status = await host.status(args.resume)
    except ServiceError as e:
        echo(plain(args.lang, [e.text]))
        return 1
    row = await host.store.load(args.resume)
    out = run_folder(Path(args.out), row.game)
    table = LocalTable(host, args.lang, out, echo=echo, db=args.db)
    echo(plain(args.lang, [T("local.boards_folder", path=str(out))]))
    echo(plain(args.lang, status.reply))
    if status.reply_image:
        path = out / f"game{row.id}-v{row.version:04d}.png"
        path.write_bytes(status.reply_image)
        echo(plain(args.lang, [T("local.board", path=str(path))]))
    await table.play(row.id, read)
    return 0


class ReplayFile:
    """A ``/game export`` file played back: every step's board written out, its words printed."""

    def __init__(self, data: dict, lang: str, out: Path, echo=print):
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise ValueError(f"format is not {EXPORT_FORMAT}")
        self.data, self.lang, self.out, self.echo = data, lang, out, echo
        self.game = get_game(data["game"])
        self.words = Presenter()
        # Names by seat only: a file carries no Discord users (the presenter names seats "#1"...).
        self.row = GameRow(data.get("id"), self.game.name, None, 0, None, 0, data.get("status", "finished"),
                           data.get("options") or {}, data.get("seed"), None, 0, None, 0, lang, "", "")

    def say(self, *lines: Text) -> None:
        self.echo(plain(self.lang, list(lines)))

    def line(self, step, events: list[dict]) -> list[Text]:
        if step.n == 0:
            return [T("replay.start")] + self.words._event_lines(self.row, self.game, events)
        player = seat_mark(step.seat)
        if step.action in CONCESSIONS:
            first = T("replay.conceded", player=player)
        elif step.action == AGREED_END:
            first = T("replay.agreed_end")
        else:
            words = self.words._choice_text(self.game, self.game.action_path(step.action))
            first = (T("turn.played_words", player=player, words=words, action=step.action) if words is not None
                     else T("turn.played", player=player, action=step.action))
        return [first] + self.words._event_lines(self.row, self.game, events)

    def run(self, read=None) -> int:
        data = self.data
        self.say(T("local.replay.start", id=data.get("id"), game=T(f"game.{self.game.name}.title"),
                   players=data["players"], options=json.dumps(data.get("options") or {}, ensure_ascii=False)))
        actions = data["actions"]
        if data.get("seed") is None or any(a.get("action") is None for a in actions):
            self.say(T("local.replay.no_seed"))
            for a in actions:
                shown = a["action"] if a.get("action") is not None else render(self.lang, T("local.replay.hidden"))
                self.say(T("local.replay.step", step=a["n"], steps=len(actions),
                           line=T("turn.played", player=seat_mark(a["seat"]), action=shown)))
            return 0
        replay = Replay(self.game, data["players"], data.get("options") or {}, int(data["seed"]),
                        [(a["seat"], a["action"]) for a in actions])
        self.out.mkdir(parents=True, exist_ok=True)
        k, last = 0, None
        try:
            while k <= replay.steps:
                step = replay.step(k)
                last = step if k == replay.steps else last
                path = self.out / f"replay{data.get('id')}-{k:04d}.png"
                path.write_bytes(renderers.render(self.game.name, self.game.view(step.state, None), lang=self.lang))
                for text in self.line(step, [e for e in step.events if "to" not in e]):
                    self.say(T("local.replay.step", step=k, steps=replay.steps, line=text))
                self.say(T("local.replay.board", path=str(path)))
                answer = read(render(self.lang, T("local.replay.next"))).strip().lower() if read else ""
                if answer == "q":
                    return 0
                k = max(0, k - 1) if answer == "b" else k + 1
        except ReplayError as e:
            self.say(T("local.replay.broken", step=e.step, reason=e.reason))
            return 1
        return self.verify(last.state)

    def verify(self, final: dict) -> int:
        ok = True
        data = self.data
        if data.get("final_state_sha256"):
            got = state_hash(final)
            if got == data["final_state_sha256"]:
                self.say(T("local.replay.verified", hash=got[:16]))
            else:
                self.say(T("local.replay.mismatch", expected=data["final_state_sha256"][:16], got=got[:16]))
                ok = False
        if data.get("commitment") and data.get("salt"):
            if fairplay.commitment(int(data["seed"]), data["salt"]) == data["commitment"]:
                self.say(T("local.replay.commitment_ok"))
            else:
                self.say(T("local.replay.commitment_bad", commitment=data["commitment"][:16]))
                ok = False
        return 0 if ok else 1


def play_back(path: str, lang: str, out: Path, read=None, echo=print) -> int:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        table = ReplayFile(data, lang, out, echo)
    except (OSError, ValueError, KeyError, TypeError) as e:
        echo(plain(lang, [T("local.replay.bad_file", reason=str(e))]))
        return 2
    except Exception as e:  # e.g. an unknown game name
        echo(plain(lang, [T("local.replay.bad_file", reason=getattr(e, "key", str(e)))]))
        return 2
    return table.run(read)


def main(argv: list[str] | None = None) -> int:
    names = [g.name for g in all_games()]
    aliases = [f"{alias} = {name}" for alias, name in sorted(registry.aliases().items())]
    parser = argparse.ArgumentParser(prog="python -m bot.local", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", help=f"one of: {', '.join(names)} (also {', '.join(aliases)})")
    parser.add_argument("--replay", metavar="FILE", default=None, help="play back a /game export file")
    parser.add_argument("--ai", type=int, default=None, help="number of AI seats")
    parser.add_argument("--level", choices=AI_LEVELS, default=None, help="the AI seats' strength (default: normal)")
    parser.add_argument("--auto", action="store_true", help="AI plays every seat")
    parser.add_argument("--options", default=None, help='game options, e.g. "cap=6"')
    parser.add_argument("--web", action="store_true", help="play in a browser: serve the table on localhost")
    parser.add_argument("--lang", default="en", choices=("en", "ja"))
    parser.add_argument("--out", default="boards", help="folder for board images")
    parser.add_argument("--db", default=None, help="SQLite file or postgresql:// URL (default: a temporary SQLite file)")
    parser.add_argument("--resume", type=int, metavar="ID", default=None,
                        help="go on with game ID, kept in --db (a game left with q)")
    args = parser.parse_args(argv)
    if args.replay:
        return play_back(args.replay, args.lang, Path(args.out), read=input if sys.stdin.isatty() else None)
    if args.resume is not None:
        if not args.db:
            parser.error("--resume needs the --db the game was kept in")
        return asyncio.run(run(args))
    if not args.game:
        parser.error("name a game, or give --replay FILE (or --db FILE --resume ID)")
    try:
        get_game(args.game)
    except Exception:
        parser.error(f"unknown game {args.game!r}; choose one of: {', '.join(names)}")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
