"""Ratings and undo by consent through the real bot and the Discord stand-in (issue #18).

A full game ends with each player's rating change in the final post, then /game leaderboard;
undo is asked with the button the actor alone sees (or /game undo), agreed or declined with the
buttons under the request; double clicks, clicks by people outside the game, a reveal that makes
a move final, and both languages.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3

import pytest

from bot.discord_app.custom_ids import decode, encode_action
from games import get_game
from tests.e2e.database import stored_until
from tests.e2e.test_bot_e2e import (FIRST_SEAT, SECOND_SEAT, board_shown, is_board, game_row, home, log_rows, post_as_bot,
                                    play_by_command, reply_text, running_bot, start_two_player, uid)


@pytest.fixture
async def world(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob", "carol"), dm_closed=("bob",), guild_locale="ja") as w:
        yield w


async def typed(fake, user: str, command: str, options: dict | None = None, locale: str = "en-US"):
    """A slash command; returns the interaction handle (for its reply and any buttons on it)."""
    return await fake.send_slash(fake.guild_id, fake.channel_id, user, command, options or {}, locale=locale)


async def played_with_undo_button(fake, user: str, action: str, locale: str = "en-US"):
    """/play an action; returns the actor's ephemeral answer, which carries the take-back button."""
    handle = await typed(fake, user, "play", {"action": action}, locale)
    await handle.response()
    return await handle.answer(timeout=10)


def undo_button(message, op: str) -> str:
    return next(c for c in message.custom_ids() if decode(c) and decode(c).kind == "u" and decode(c).arg == op)


async def request_post(fake, bot, game_id: int, since: int):
    return await fake.wait_for_message(
        home(bot, fake, game_id), lambda m: not m.ephemeral and any(decode(c) and decode(c).kind == "u"
                                                                    for c in m.custom_ids()), since=since)


async def click(fake, message, custom_id: str, user: str, locale: str = "en-US") -> str:
    return await reply_text(await fake.click_button(message, custom_id, user, locale=locale))


async def test_a_finished_game_shows_rating_changes_and_the_leaderboard(world):
    fake, bot = world
    game_id, seats = await start_two_player(fake, bot)
    for turn in range(len(FIRST_SEAT) + len(SECOND_SEAT)):
        seat = turn % 2
        assert "✅" in await play_by_command(fake, seats[seat], (FIRST_SEAT if seat == 0 else SECOND_SEAT)[turn // 2])
        await board_shown(fake, bot, game_id)
    final = [m for m in fake.messages(home(bot, fake, game_id), include_ephemeral=False) if is_board(m)][-1]
    assert "🏆" in final.text() and "📈" in final.text()  # the server speaks Japanese: レーティング
    winner, loser = uid(fake, seats[0]), uid(fake, seats[1])
    # before → after (change): a first game starts from 0.0, never "-1.8 → -1.8" (issue #31)
    found = re.finditer(r"<@(\d+)>[:：] ?(-?\d+\.\d) → (-?\d+\.\d)（([+-]\d+\.\d)）", final.text())
    lines = {int(m[1]): (m[4], m[3], m[2]) for m in found}
    assert set(lines) == {winner, loser}, final.text()
    assert float(lines[winner][0]) > 0 > float(lines[loser][0])
    assert lines[winner][2] == lines[loser][2] == "0.0"
    with sqlite3.connect(bot.db_path) as db:
        stored = dict(db.execute("SELECT player, mu - 3 * sigma FROM ratings WHERE game = 'squares'").fetchall())
    assert f"{stored[f'user:{winner}']:.1f}" == lines[winner][1]
    # The leaderboard, in the asker's language, names both without pinging anyone.
    first_request = len(fake.requests)
    english = await reply_text(await typed(fake, "bob", "game leaderboard", {"game": "squares"}))
    assert english.index(f"<@{winner}>") < english.index(f"<@{loser}>") and "(1 game)" in english
    japanese = await reply_text(await typed(fake, "carol", "game leaderboard", locale="ja"))
    assert "ランキング" in japanese and "1戦" in japanese
    sent = [r.json for r in fake.requests[first_request:] if r.method in ("POST", "PATCH") and isinstance(r.json, dict)
            and "<@" in (r.json.get("content") or "")]
    assert sent and all(r.get("allowed_mentions", {}).get("parse") == [] for r in sent), sent


async def test_undo_declined_by_one_player_then_accepted_with_double_clicks_and_strangers(world):
    fake, bot = world
    game_id, seats = await start_two_player(fake, bot)
    first, second = seats[0], seats[1]
    answer = await played_with_undo_button(fake, first, "N1@a2")
    ask = undo_button(answer, "ask")
    not_yours = await reply_text(await typed(fake, second, "game undo", locale="ja"))
    assert not_yours.startswith("⚠️") and "直前に行動した" in not_yours  # only the one who just acted
    mark = fake.mark()
    asked = await click(fake, answer, ask, first)
    assert f"#{game_id}" in asked and not asked.startswith("⚠️")
    request = await request_post(fake, bot, game_id, mark)
    assert str(uid(fake, second)) in request.text()
    yes, no = undo_button(request, "yes"), undo_button(request, "no")
    stranger = await click(fake, request, yes, "bob")
    assert stranger.startswith("⚠️") and f"#{game_id}" in stranger  # bob is not in this game
    assert "⚠️" in await click(fake, request, yes, first)  # the asker does not answer their own request
    declined = await asyncio.gather(*[click(fake, request, no, second) for _ in range(2)])
    assert sum(a.startswith("⚠️") for a in declined) == 1, declined  # a double click answers once
    await fake.wait_until(lambda: not fake.message(request.id).custom_ids(), timeout=10,
                          what="the declined request's buttons to be removed")
    assert [a for _, _, a in log_rows(bot.db_path, game_id)] == ["N1@a2"]
    japanese = await click(fake, answer, ask, first, locale="ja")
    assert japanese.startswith("⚠️") and "断られて" in japanese  # declined once: the move stands

    # The second player moves and asks with /game undo; this time the first player agrees.
    await board_shown(fake, bot, game_id)
    old_version = game_row(bot.db_path, game_id)["version"]  # the board on which the second seat moves
    assert "✅" in await play_by_command(fake, second, "N1@e5")
    await board_shown(fake, bot, game_id)
    mark = fake.mark()
    asked = await reply_text(await typed(fake, second, "game undo"))
    assert f"#{game_id}" in asked and not asked.startswith("⚠️")
    request = await request_post(fake, bot, game_id, mark)
    version = game_row(bot.db_path, game_id)["version"]
    agreed = await asyncio.gather(*[click(fake, request, undo_button(request, "yes"), first) for _ in range(2)])
    assert sum(a.startswith("⚠️") for a in agreed) == 1, agreed
    await board_shown(fake, bot, game_id)
    await fake.wait_until(lambda: not fake.message(request.id).custom_ids(), timeout=10,
                          what="the agreed request's buttons to be removed")
    # The bot records the retirement once Discord took the edit: after the stand-in saw it.
    await stored_until(lambda: request.id in {r[0] for r in bot.database.query(
        "SELECT message_id FROM undo_requests WHERE game_id = ? AND controls_retired = 1", (game_id,))},
        "the retired request to be recorded")
    row = game_row(bot.db_path, game_id)
    assert row["version"] == version + 1
    assert [a for _, _, a in log_rows(bot.db_path, game_id)] == ["N1@a2", "N1@e5", "undo 2"]
    state = json.loads(row["state"])
    assert get_game("squares").to_act(state) == {1}  # the second seat is to move again
    # Buttons drawn before the undo are refused; the new board works; the history shows the undo.
    # A button drawn before the undo (an old client still showing it) is refused, though the
    # same action is legal again on the new board.
    legacy = await post_as_bot(fake, [encode_action(game_id, old_version, "M1@d5")])
    stale = await click(fake, legacy, legacy.custom_ids()[0], second)
    assert stale.startswith("⚠️") and "out of date" in stale, stale
    history = await reply_text(await typed(fake, first, "game history"))
    assert "↩️" in history and "~~" in history
    assert "✅" in await play_by_command(fake, second, "M1@d5")
    assert [a for _, _, a in log_rows(bot.db_path, game_id)][-1] == "M1@d5"


async def test_undo_is_refused_after_the_arena_resolution_revealed_both_orders(world):
    fake, bot = world
    game_id, seats = await start_two_player(fake, bot, game="arena")
    assert "✅" in await play_by_command(fake, seats[0], "S/0")
    answer = await played_with_undo_button(fake, seats[1], "S/0")  # the turn resolves: orders shown, new dice
    assert not [c for c in answer.custom_ids() if decode(c) and decode(c).kind == "u"]  # no button offered
    await board_shown(fake, bot, game_id)
    before = game_row(bot.db_path, game_id)
    english = await reply_text(await typed(fake, seats[1], "game undo"))
    japanese = await reply_text(await typed(fake, seats[1], "game undo", locale="ja"))
    assert english.startswith("⚠️") and "revealed" in english
    assert japanese.startswith("⚠️") and "公開" in japanese
    assert game_row(bot.db_path, game_id) == before
    nothing = await reply_text(await typed(fake, seats[0], "game undo"))
    assert nothing.startswith("⚠️") and "just acted" in nothing
