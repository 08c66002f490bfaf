"""Tournaments and leagues end to end: the real bot process against the Discord stand-in, its
time moved by the test (tests/fake_clock.py). An organiser runs an 8-player Swiss event from the
first ``/tournament new`` to the final standings by commands alone: players join (one leaves
again), the bot pairs and announces each round and opens each game in a thread of its own, a
player is dropped, one lets the deadline pass and forfeits, the odd player out gets a bye, and the
final standings come as a picture and in words. Public posts speak the server's Japanese, each
person's answers their own language. Then a 4-player round robin, an elimination bracket with
byes, a 3-player HOSTILE table, and a league."""

from __future__ import annotations

import asyncio
import io
import re

import pytest

from PIL import Image

from bot.discord_app.custom_ids import decode
from tests.e2e.database import PgDatabase, stored_until
from tests.e2e.test_bot_e2e import reply_text, running_bot, uid
from tests.fake_clock import FakeClock

PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
STRONGEST_FIRST = ("heidi", "grace", "frank", "erin", "dave", "carol", "bob", "alice")
ROUND_TIMEOUT = 60.0  # two shared cores, recaps drawing meanwhile


def name_of(fake, user_id: int) -> str:
    return fake.users[int(user_id)]["username"]


def tables(bot, tid: int, round_: int | None = None) -> list[dict]:
    sql = "SELECT * FROM tournament_tables WHERE tournament_id = ?" + (" AND round = ?" if round_ is not None else "")
    return bot.database.rows(sql + " ORDER BY round, table_no", (tid,) + ((round_,) if round_ is not None else ()))


def tournament(bot, tid: int) -> dict:
    return bot.database.rows("SELECT * FROM tournaments WHERE id = ?", (tid,))[0]


def players_of(table: dict) -> list[int]:
    return [int(u) for u in re.findall(r"\d+", table["players"])]


async def slash(fake, user, command, options=None, *, channel=None, locale="en-US") -> str:
    return await reply_text(await fake.send_slash(fake.guild_id, channel or fake.channel_id, user, command,
                                                  options or {}, locale=locale))


async def until(predicate, what: str, timeout: float = ROUND_TIMEOUT) -> None:
    await stored_until(predicate, what, timeout)


async def wait_for_round(fake, bot, tid: int, round_: int) -> None:
    await until(lambda: tournament(bot, tid)["round"] >= round_, f"round {round_} of tournament {tid}")
    await wait_boards(fake, bot, tid, round_)


async def wait_boards(fake, bot, tid: int, round_: int) -> None:
    """Until every game of the round has its first board posted and its own thread."""
    def ready():
        games = [t["game_id"] for t in tables(bot, tid, round_) if t["game_id"]]
        return all(bot.database.game_row(g)["thread_id"] and bot.database.game_row(g)["posted_version"] >= 1
                   for g in games)
    await until(ready, f"the boards and threads of round {round_}")


async def resign_losers(fake, bot, tid: int, round_: int, *, skip=()) -> None:
    """Each game of the round: the weaker players resign, from the game's own thread."""
    for table in tables(bot, tid, round_):
        if not table["game_id"] or table["game_id"] in skip:
            continue
        game = bot.database.game_row(table["game_id"])
        if game["status"] != "active":
            continue
        names = sorted((name_of(fake, u) for u in players_of(table)), key=STRONGEST_FIRST.index)
        for loser in names[1:]:
            if bot.database.game_row(table["game_id"])["status"] != "active":
                break
            answer = await slash(fake, loser, "game resign", {"game_id": table["game_id"]}, channel=game["thread_id"])
            assert not answer.startswith("⚠️"), answer


def announcements(fake, since=None) -> list:
    return [m for m in fake.messages(fake.channel_id, include_ephemeral=False)
            if (since is None or m.id > since) and "🏆" in m.text() and "#" in m.text()]


async def wait_announcement(fake, words: str, since: int):
    return await fake.wait_for_message(fake.channel_id, lambda m: not m.ephemeral and words in m.text(),
                                       since=since, timeout=ROUND_TIMEOUT)


def png(message) -> Image.Image:
    image = Image.open(io.BytesIO(message.attachments[0].data))
    image.load()
    assert image.format == "PNG"
    return image


# What the channel (in the server's language) and the other language's reader see.
WORDS = {
    "ja": {"created": "大会", "swiss": "スイス式", "round": "第{n}ラウンド", "table4": "第4卓", "pairings": "組み合わせ",
           "results1": "第1ラウンドの結果", "standings": "順位", "dropped": "棄権扱い", "forfeit": "期限切れで不戦敗",
           "bye": "不戦勝", "final": "最終順位", "champion": "優勝", "buchholz": "ブッフホルツ", "out": "（棄権）"},
    "en": {"created": "Tournament", "swiss": "Swiss", "round": "Round {n} of 3", "table4": "Table 4", "pairings": "Pairings",
           "results1": "Results of round 1", "standings": "Standings", "dropped": "dropped", "forfeit": "forfeits",
           "bye": "a bye", "final": "Final standings", "champion": "Winner", "buchholz": "Buchholz", "out": "(dropped out)"},
}


@pytest.mark.parametrize("lang", ["ja", "en"])
async def test_an_organiser_runs_an_eight_player_swiss_event_to_its_final_standings(tmp_path, lang):
    clock = FakeClock(tmp_path / "now", start="2026-12-01T09:00:00+00:00")
    users = PLAYERS + ("ivan", "olivia")
    here, other = WORDS[lang], WORDS["en" if lang == "ja" else "ja"]
    locale, other_locale = ("ja", "en-US") if lang == "ja" else ("en-US", "ja")
    async with running_bot(tmp_path, clock=clock, users=users, guild_locale=locale) as (fake, bot):
        mark = fake.mark()
        answer = await slash(fake, "olivia", "tournament new", {"game": "squares", "format": "swiss", "rounds": 3,
                                                                "deadline": "24h", "options": "cap=6"}, locale=locale)
        tid = int(re.search(r"#(\d+)", answer)[1])
        assert here["created"] in answer  # the organiser reads their language
        opened = await wait_announcement(fake, f"#{tid}", mark)
        assert here["swiss"] in opened.text() and "/tournament join" in opened.text()
        for name in PLAYERS + ("ivan",):
            joined = await slash(fake, name, "tournament join", locale="ja" if name == "carol" else "en-US")
            assert (f"joined tournament #{tid}" in joined) or ("参加しました" in joined), joined
        assert "left tournament" in await slash(fake, "ivan", "tournament leave")
        refused = await slash(fake, "bob", "tournament start")  # only the organiser (or an admin) starts
        assert refused.startswith("⚠️") and "organiser" in refused
        assert tournament(bot, tid)["status"] == "open"

        mark = fake.mark()
        assert f"#{tid}" in await slash(fake, "olivia", "tournament start", locale=locale)
        round_one = await wait_announcement(fake, here["round"].format(n=1), mark)
        assert here["table4"] in round_one.text() and here["pairings"] in round_one.text()
        await wait_boards(fake, bot, tid, 1)
        first = tables(bot, tid, 1)
        assert len(first) == 4
        threads = set()
        for table in first:  # a game per table, with the tournament's options and deadline, in its own thread
            game = bot.database.game_row(table["game_id"])
            assert game["status"] == "active" and '"cap": 6' in game["options"] and game["thread_id"]
            assert game["deadline_at"] == "2026-12-02T09:00:00+00:00"
            threads.add(game["thread_id"])
        assert len(threads) == 4

        # Round 1: the weaker player of each game resigns; the bot pairs round 2 by itself.
        mark = fake.mark()
        await resign_losers(fake, bot, tid, 1)
        await wait_for_round(fake, bot, tid, 2)
        round_two = await wait_announcement(fake, here["round"].format(n=2), mark)
        assert here["results1"] in round_two.text() and here["standings"] in round_two.text()
        assert round_two.attachments and png(round_two).size[0] == 800  # the standings picture
        second = tables(bot, tid, 2)
        met = {frozenset(players_of(t)) for t in first}
        assert not [t for t in second if frozenset(players_of(t)) in met]

        # The organiser drops a player mid-round (their game is resigned for them); another player
        # never moves: a day passes, the deadline forfeits them, and the round is complete.
        dropped = next(u for t in second for u in players_of(t) if name_of(fake, u) == "alice")
        dropped_game = next(t["game_id"] for t in second if dropped in players_of(t))
        mark = fake.mark()
        answer = await slash(fake, "olivia", "tournament drop", {"player": dropped}, locale=locale)
        assert str(dropped) in answer and not answer.startswith("⚠️")
        notice = await wait_announcement(fake, here["dropped"], mark)
        assert str(dropped) in notice.text()
        await until(lambda: bot.database.game_row(dropped_game)["status"] == "finished",
                    "the dropped player's game to be resigned")
        absent_game = next(t["game_id"] for t in second if t["game_id"] != dropped_game)
        await resign_losers(fake, bot, tid, 2, skip={absent_game})
        absent_seat_player = bot.database.seats(absent_game)[0]  # squares: the first seat is to move
        assert tournament(bot, tid)["round"] == 2
        mark = fake.mark()
        clock.advance(hours=25)
        await wait_for_round(fake, bot, tid, 3)
        round_three = await wait_announcement(fake, here["round"].format(n=3), mark)
        assert here["forfeit"] in round_three.text() and str(absent_seat_player) in round_three.text()
        assert here["bye"] in round_three.text()  # seven players: one has a bye
        third = tables(bot, tid, 3)
        byes = [t for t in third if t["note"] == "bye"]
        assert len(byes) == 1 and len([t for t in third if t["game_id"]]) == 3
        assert dropped not in {u for t in third for u in players_of(t)}

        # Round 3 ends: the final standings, as a picture and in words, posted once.
        mark = fake.mark()
        await resign_losers(fake, bot, tid, 3)
        final = await wait_announcement(fake, here["final"], mark)
        assert here["champion"] in final.text() and here["buchholz"] in final.text() and here["out"] in final.text()
        assert png(final).size[0] == 800
        await until(lambda: tournament(bot, tid)["status"] == "finished", "the end")
        # recorded once Discord has answered the post (the message shows a moment before that)
        await until(lambda: tournament(bot, tid)["announced"] == tournament(bot, tid)["stage"], "the end announced")
        assert str(uid(fake, "heidi")) in final.text().split(here["champion"])[1]  # the strongest won every game
        standings = await fake.send_slash(fake.guild_id, fake.channel_id, "bob", "tournament standings",
                                          {"tournament": tid}, locale=other_locale)
        words = await reply_text(standings)
        message = await standings.answer(timeout=10)
        assert other["standings"] in words and other["buchholz"] in words and message.attachments  # bob's language
        assert len([t for t in tables(bot, tid) if t["game_id"]]) == 4 + 4 + 3
        assert len(announcements(fake, since=None)) >= 5


async def test_a_four_player_round_robin_meets_everyone_once(tmp_path):
    async with running_bot(tmp_path, users=PLAYERS[:4] + ("olivia",)) as (fake, bot):
        answer = await slash(fake, "olivia", "tournament new", {"game": "squares", "format": "roundrobin"})
        tid = int(re.search(r"#(\d+)", answer)[1])
        for name in PLAYERS[:4]:
            await slash(fake, name, "tournament join", {"tournament": tid})
        await slash(fake, "olivia", "tournament start", {"tournament": tid})
        for round_ in (1, 2, 3):
            await wait_for_round(fake, bot, tid, round_)
            await resign_losers(fake, bot, tid, round_)
        await until(lambda: tournament(bot, tid)["status"] == "finished", "the end")
        pairs = [frozenset(players_of(t)) for t in tables(bot, tid)]
        assert len(pairs) == len(set(pairs)) == 6
        final = await wait_announcement(fake, "Final standings", 0)
        lines = [line for line in final.text().splitlines() if "points" in line]
        order = [name_of(fake, int(re.search(r"<@(\d+)>", line)[1])) for line in lines]
        assert order == ["dave", "carol", "bob", "alice"]  # 3, 2, 1 and 0 wins
        assert "Winner of tournament" in final.text()


async def test_an_elimination_bracket_gives_byes_to_the_top_seeds(tmp_path):
    async with running_bot(tmp_path, users=PLAYERS[:5] + ("olivia",)) as (fake, bot):
        answer = await slash(fake, "olivia", "tournament new", {"game": "squares", "format": "elimination"})
        tid = int(re.search(r"#(\d+)", answer)[1])
        for name in PLAYERS[:5]:
            await slash(fake, name, "tournament join")
        mark = fake.mark()
        await slash(fake, "olivia", "tournament start")
        first = await wait_announcement(fake, "Round 1 of 3", mark)
        assert first.attachments and png(first)  # the bracket from the first round
        assert first.text().count("a bye this round") == 3
        for round_ in (1, 2, 3):
            await wait_for_round(fake, bot, tid, round_)
            await resign_losers(fake, bot, tid, round_)
        await until(lambda: tournament(bot, tid)["status"] == "finished", "the end")
        final = await wait_announcement(fake, "Final standings", mark)
        assert "wins" in final.text() and png(final)
        assert [len(tables(bot, tid, r)) for r in (1, 2, 3)] == [4, 2, 1]
        champion = STRONGEST_FIRST[min(STRONGEST_FIRST.index(n) for n in PLAYERS[:5])]
        assert str(uid(fake, champion)) in final.text().split("Winner")[1]


async def test_a_three_player_hostile_table_scores_by_placing(tmp_path):
    async with running_bot(tmp_path, users=PLAYERS[:3] + ("olivia",)) as (fake, bot):
        answer = await slash(fake, "olivia", "tournament new", {"game": "hostile", "format": "swiss", "table": 3,
                                                                "rounds": 1})
        tid = int(re.search(r"#(\d+)", answer)[1])
        for name in PLAYERS[:3]:
            await slash(fake, name, "tournament join")
        mark = fake.mark()
        await slash(fake, "olivia", "tournament start")
        await wait_for_round(fake, bot, tid, 1)
        (table,) = tables(bot, tid, 1)
        assert len(players_of(table)) == 3 and len(bot.database.seats(table["game_id"])) == 3
        game = bot.database.game_row(table["game_id"])
        # alice concedes: HOSTILE's rule gives the other two the win, shared (¾ point each by placing)
        await slash(fake, "alice", "game resign", {"game_id": table["game_id"]}, channel=game["thread_id"])
        final = await wait_announcement(fake, "Final standings", mark)
        assert "points 0.75" in final.text() and "points 0 " in final.text() + " "
        assert "#" in final.text() and png(final)


async def test_a_league_pairs_those_who_ask_and_keeps_its_table(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob", "carol", "olivia")) as (fake, bot):
        answer = await slash(fake, "olivia", "league new", {"game": "squares", "games": 2})
        lid = int(re.search(r"#(\d+)", answer)[1])
        # a Swiss tournament's number given to /league join is refused, not joined
        swiss = await slash(fake, "olivia", "tournament new", {"game": "squares", "format": "swiss"})
        tid = int(re.search(r"#(\d+)", swiss)[1])
        before = tournament(bot, tid)["version"]
        refused = await slash(fake, "carol", "league join", {"league": tid})
        assert refused.startswith("⚠️") and "is a tournament, not a league" in refused, refused
        assert tournament(bot, tid)["version"] == before
        await slash(fake, "olivia", "tournament abandon", {"tournament": tid})
        for name in ("alice", "bob", "carol"):
            assert "league" in await slash(fake, name, "league join")
        assert "waiting" in await slash(fake, "alice", "league play")
        mark = fake.mark()
        paired = await slash(fake, "bob", "league play")
        game_id = int(re.search(r"game #(\d+)", paired)[1])
        await until(lambda: bot.database.game_row(game_id)["thread_id"], "the league game's thread")
        assert [t["game_id"] for t in tables(bot, lid)] == [game_id]
        await slash(fake, "alice", "game resign", {"game_id": game_id}, channel=bot.database.game_row(game_id)["thread_id"])
        await until(lambda: tables(bot, lid)[0]["places"] is not None, "the league result to be recorded")
        table = await fake.send_slash(fake.guild_id, fake.channel_id, "carol", "league table")
        words = await reply_text(table)
        assert f"<@{uid(fake, 'bob')}> — points 1" in words.splitlines()[2]
        assert (await table.answer(timeout=10)).attachments
        assert "You left" in await slash(fake, "carol", "league leave")
        await wait_announcement(fake, "dropped out", mark)  # the channel hears of it
        refused = await slash(fake, "bob", "tournament abandon", {"tournament": lid})
        assert refused.startswith("⚠️")  # the organiser's (or an admin's) to stop
        mark = fake.mark()
        await slash(fake, "olivia", "tournament abandon", {"tournament": lid})
        stopped = await wait_announcement(fake, "abandoned", mark)
        assert str(uid(fake, "olivia")) in stopped.text()
        assert tournament(bot, lid)["status"] == "abandoned"


async def crash_after_pairing(tmp_path, monkeypatch, database=None):
    """The bot is killed the moment it has saved round 2's pairing and games, before announcing
    them; the next process announces the round once, and posts each game's board once."""
    async with running_bot(tmp_path, database=database, users=PLAYERS[:4] + ("olivia",)) as (fake, bot):
        answer = await slash(fake, "olivia", "tournament new", {"game": "squares", "format": "swiss", "rounds": 2})
        tid = int(re.search(r"#(\d+)", answer)[1])
        for name in PLAYERS[:4]:
            await slash(fake, name, "tournament join")
        await slash(fake, "olivia", "tournament start")
        await wait_for_round(fake, bot, tid, 1)
        last = tables(bot, tid, 1)[-1]["game_id"]
        await resign_losers(fake, bot, tid, 1, skip={last})
        await bot.stop()
        monkeypatch.setenv("TABLETOP_CRASH_AT", "tournament.round.saved")
        await bot.start()
        mark = fake.mark()
        loser = max((name_of(fake, u) for u in players_of(tables(bot, tid, 1)[-1])), key=STRONGEST_FIRST.index)
        # the last game of round 1 ends; its answer may never come: the process dies meanwhile
        await fake.send_slash(fake.guild_id, bot.database.game_row(last)["thread_id"], loser, "game resign",
                              {"game_id": last})
        await asyncio.wait_for(bot.proc.wait(), 30)  # killed itself right after saving round 2
        row = tournament(bot, tid)
        assert row["round"] == 2 and row["announced"] < row["stage"] and len(tables(bot, tid, 2)) == 2
        assert not [m for m in fake.messages(fake.channel_id) if m.id > mark and "Round 2" in m.text()]
        monkeypatch.delenv("TABLETOP_CRASH_AT")
        await bot.start()
        await wait_for_round(fake, bot, tid, 2)
        await until(lambda: tournament(bot, tid)["announced"] == tournament(bot, tid)["stage"], "the announcement")
        await asyncio.sleep(1.0)  # a few more scheduler passes: nothing is posted twice
        assert len([m for m in fake.messages(fake.channel_id) if "Round 2 of 2" in m.text()]) == 1
        second = tables(bot, tid, 2)
        assert len(second) == 2 and len(tables(bot, tid)) == 4
        for table in second:
            game = bot.database.game_row(table["game_id"])
            boards = [m for m in fake.messages(fake.channel_id) + fake.messages(game["thread_id"])
                      if m.attachments and not m.ephemeral
                      and any(decode(c) and decode(c).game_id == table["game_id"] for c in m.custom_ids())]
            assert len(boards) == 1 and game["thread_id"], boards
        await resign_losers(fake, bot, tid, 2)
        await until(lambda: tournament(bot, tid)["status"] == "finished", "the end")


async def test_a_crash_right_after_pairing_a_round_loses_nothing_and_doubles_nothing(tmp_path, monkeypatch):
    await crash_after_pairing(tmp_path, monkeypatch)


async def test_the_same_on_postgres(tmp_path, monkeypatch, pg_backend):
    with PgDatabase(pg_backend.target) as database:
        await crash_after_pairing(tmp_path, monkeypatch, database)
