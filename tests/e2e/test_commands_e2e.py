"""Every slash command, typed as a person types it, through the real bot and the stand-in (#12).

Each command must answer (the stand-in fails the run if any interaction is not answered within
Discord's 3 s) and have its intended effect, checked in storage. The run fails when a registered
command is typed by no scenario (tests/e2e/coverage.py).
"""

from __future__ import annotations

import re
import sqlite3

import pytest

from tests.e2e.test_bot_e2e import game_row, log_rows, reply_text, running_bot, uid



@pytest.fixture
async def world(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob", "carol"), dm_closed=("bob",), guild_locale="ja") as w:
        yield w


async def typed(fake, user: str, command: str, options: dict | None = None, locale: str = "en-US") -> str:
    return await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, user, command, options or {},
                                                  locale=locale))


def seats(bot, game_id: int) -> list[int]:
    with sqlite3.connect(bot.db_path) as db:
        return [r[0] for r in db.execute("SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))]


def to_act_user(fake, bot, game_id: int) -> str:
    from games import get_game

    row = game_row(bot.db_path, game_id)
    import json

    seat = min(get_game(row["game"]).to_act(json.loads(row["state"])))
    user_id = seats(bot, game_id)[seat]
    return next(n for n in ("alice", "bob", "carol") if uid(fake, n) == user_id)


async def test_the_lobby_commands(world):
    fake, bot = world
    answer = await typed(fake, "alice", "game new", {"game": "squares", "thread": False})
    game_id = int(re.search(r"#(\d+)", answer)[1])
    assert game_row(bot.db_path, game_id)["status"] == "lobby" and seats(bot, game_id) == [uid(fake, "alice")]
    assert f"#{game_id}" in await typed(fake, "bob", "game join", {"game_id": game_id})
    assert seats(bot, game_id) == [uid(fake, "alice"), uid(fake, "bob")]
    assert f"#{game_id}" in await typed(fake, "bob", "game leave", {"game_id": game_id})
    assert seats(bot, game_id) == [uid(fake, "alice")]
    await typed(fake, "carol", "game join", {"game_id": game_id})
    answer = await typed(fake, "alice", "game start")  # no number: the one lobby here she sits in
    assert f"#{game_id}" in answer and game_row(bot.db_path, game_id)["status"] == "active"


async def test_a_game_played_looked_at_and_resigned(world):
    fake, bot = world
    answer = await typed(fake, "alice", "game new", {"game": "squares", "thread": False}, locale="ja")
    assert re.search(r"[ぁ-んァ-ン]", answer)  # a Japanese client is answered in Japanese
    game_id = int(re.search(r"#(\d+)", answer)[1])
    await typed(fake, "carol", "game join", {"game_id": game_id})
    await typed(fake, "alice", "game start", {"game_id": game_id})
    actor = to_act_user(fake, bot, game_id)
    choices = await (await fake.autocomplete(fake.guild_id, fake.channel_id, actor, "play", {"action": ""},
                                             "action")).choices()
    assert "✅" in await typed(fake, actor, "play", {"action": choices[0]["value"]})
    assert [a for _, _, a in log_rows(bot.db_path, game_id)] == [choices[0]["value"]]
    status = await typed(fake, "carol", "game status", {"game_id": game_id})
    assert f"#{game_id}" in status
    history = await typed(fake, "alice", "game history")
    assert choices[0]["value"] in history
    assert f"#{game_id}" in await typed(fake, "carol", "game resign", {"game_id": game_id})
    row = game_row(bot.db_path, game_id)
    assert row["status"] == "finished" and log_rows(bot.db_path, game_id)[-1][2] == "resign"
    stats = await typed(fake, "alice", "game stats", {"game": "squares"})
    assert str(uid(fake, "alice")) in stats


async def test_abandon_list_mine_rules_settings_vacation(world):
    fake, bot = world
    answer = await typed(fake, "alice", "game new", {"game": "arena", "thread": False})
    arena = int(re.search(r"#(\d+)", answer)[1])
    await typed(fake, "carol", "game join", {"game_id": arena})
    await typed(fake, "alice", "game start", {"game_id": arena})
    assert f"#{arena}" in await typed(fake, "alice", "game list")
    assert f"#{arena}" in await typed(fake, "carol", "game mine")
    for game in ("squares", "arena", "osu", "hostile", "monsterhunter"):
        handle = await fake.send_slash(fake.guild_id, fake.channel_id, "bob", "game rules", {"game": game})
        text = await reply_text(handle)
        assert len(text) > 100
        assert (await handle.message(lambda m: m.attachments, timeout=10)).attachments  # the rules' picture
    assert "/game new" in await typed(fake, "bob", "help")
    assert "/ゲーム 新規" in await typed(fake, "bob", "help", locale="ja")
    assert "DM" in await typed(fake, "carol", "game settings", {"dm_reminders": True})
    with sqlite3.connect(bot.db_path) as db:
        assert db.execute("SELECT dm_reminders FROM user_settings WHERE user_id = ?",
                          (uid(fake, "carol"),)).fetchone() == (1,)
    assert f"#{arena}" in await typed(fake, "carol", "game vacation", {"days": 2})
    with sqlite3.connect(bot.db_path) as db:
        until, used = db.execute("SELECT vacation_until, vacation_days_used FROM seats s JOIN games g ON g.id = s.game_id "
                                 "WHERE g.id = ? AND s.user_id = ?", (arena, uid(fake, "carol"))).fetchone()
    assert until and used == 2
    refused = await typed(fake, "carol", "game abandon", {"game_id": arena})  # not the creator
    assert refused.startswith("⚠️") and game_row(bot.db_path, arena)["status"] == "active"
    assert f"#{arena}" in await typed(fake, "alice", "game abandon", {"game_id": arena})
    assert game_row(bot.db_path, arena)["status"] == "abandoned"


async def test_the_deck_commands_in_japanese(world):
    """Every /deck subcommand typed in Japanese: answers in Japanese, effects checked in storage,
    and nonsense (a bad code, a ready deck's name, a deck that is not there) refused unchanged."""
    from games import get_game

    fake, bot = world
    ready = get_game("monsterhunter").ready_decks()["ready-h02"]

    async def deck(command: str, options: dict) -> str:   # the whole name, as the player types it
        return await typed(fake, "carol", command, options, locale="ja")

    def saved() -> list[tuple[str, str]]:
        with sqlite3.connect(bot.db_path) as db:
            return db.execute("SELECT name, code FROM decks WHERE user_id = ? ORDER BY name",
                              (uid(fake, "carol"),)).fetchall()

    bad = await deck("deck check", {"code": "A01x41.Z99x2"})
    assert bad.startswith("❌") and "問題" in bad and "Z99" in bad
    assert "このデッキは使えます" in await deck("deck check", {"code": ready})
    assert "保存しました" in await deck("deck save", {"name": "ishi", "code": ready})
    assert "置き換えました" in await deck("deck save", {"name": "ishi", "code": ready})
    assert (await deck("deck save", {"name": "ready-h01", "code": ready})).startswith("⚠️")
    assert (await deck("deck save", {"name": "broken", "code": "A01x3"})).startswith("⚠️")
    assert saved() == [("ishi", ready)]
    listing = await deck("deck list", {})
    assert "`ishi`" in listing and "`ready-h01`" in listing and "あなたのデッキ" in listing
    handle = await fake.send_slash(fake.guild_id, fake.channel_id, "carol", "deck show", {"name": "ishi"},
                                   locale="ja")
    await handle.response()
    shown = await handle.answer(timeout=10)
    assert shown.attachments and ready in shown.text() and "枚" in shown.text()
    assert "という名前のデッキはありません" in await deck("deck show", {"name": "nothing"})
    assert (await deck("deck delete", {"name": "ready-h02"})).startswith("⚠️")
    assert "削除しました" in await deck("deck delete", {"name": "ishi"})
    assert saved() == []
    assert "という名前のデッキはありません" in await deck("deck delete", {"name": "ishi"})
