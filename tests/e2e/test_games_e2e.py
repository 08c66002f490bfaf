"""End-to-end scenarios for the later games: Arena Duel orders by DM and by the fallback panel,
and a four-player OSU game, all through the real bot process and the Discord stand-in."""

from __future__ import annotations

import io
import re
import sqlite3

import pytest
from PIL import Image

from bot.discord_app.custom_ids import decode
from tests.e2e.test_bot_e2e import board_shown, is_board, game_row, home, log_rows, open_lobby, play_suggested, reply_text, running_bot, uid


@pytest.fixture
async def world4(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob", "carol", "dave"), guild_locale="en-US") as w:
        yield w


async def fill_and_start(fake, game: str, players: list[str]) -> int:
    game_id, lobby = await open_lobby(fake, creator=players[0], game=game)
    for name in players[1:]:
        join = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":join"))
        await reply_text(await fake.click_button(fake.message(lobby.id), join, name))
    start = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":start"))
    await reply_text(await fake.click_button(fake.message(lobby.id), start, players[0]))
    return game_id


async def order_through(fake, panel, user: str, order: str) -> str:
    """Press the order's button, or pick its movement in the menu and then the facing button."""
    direct = [c for c in panel.custom_ids() if decode(c).kind == "a" and decode(c).arg == order]
    if direct:
        return await reply_text(await fake.click_button(panel, direct[0], user))
    menu = next(c for c in panel.custom_ids() if decode(c).kind == "g")
    picker = await fake.select(panel, menu, [order.split("/")[0]], user)
    await picker.response()
    choices = await picker.answer(lambda m: m.custom_ids(), timeout=10)
    button = next(c for c in choices.custom_ids() if decode(c).arg == order)
    return await reply_text(await fake.click_button(choices, button, user))


async def test_arena_orders_by_dm_and_by_the_fallback_panel(world4):
    fake, bot = world4
    mark = fake.mark()
    game_id = await fill_and_start(fake, "arena", ["alice", "carol"])
    # Turn 1: both orders arrive by DM, each panel showing that player's own dice.
    panels = {name: await fake.wait_for_dm(name, lambda m: m.custom_ids()) for name in ("alice", "carol")}
    for name, panel in panels.items():
        assert re.search(r"🎲.*\*\*[1-6]\*\*.*\*\*[1-6]\*\*.*\*\*[1-6]\*\*", panel.content), panel.content
        assert panel.attachments
    assert "✅" in await order_through(fake, panels["carol"], "carol", "F/0")
    public = [m.text() for m in fake.messages(home(bot, fake, game_id), include_ephemeral=False)]
    assert not any("F/0" in c for c in public)  # never what, only who
    # Carol closes her DMs before Alice's order resolves the turn, so her turn-2 panel cannot be DMed.
    # (Alice's own comes as the answer to her click in her DMs.)
    fake.set_dm_closed("carol")
    assert "✅" in await order_through(fake, panels["alice"], "alice", "S/R")
    resolved = await fake.wait_for_message(home(bot, fake, game_id), lambda m: "S/R" in m.text() and "F/0" in m.text(),
                                           since=mark)
    assert resolved.attachments
    await fake.wait_for_dm_failure("carol")
    mark = fake.mark()
    notice = await fake.wait_for_message(
        home(bot, fake, game_id), lambda m: "DM" in m.text() and str(uid(fake, "carol")) in m.text() and any(
            decode(c) and decode(c).kind == "p" for c in m.custom_ids()))
    # Turn 2's panel (with its image), not the turn-1 "you may still change" answer, now stale.
    alice_panel = await fake.wait_for_dm("alice", lambda m: m.custom_ids() and m.attachments
                                         and m.id != panels["alice"].id)
    assert "✅" in await order_through(fake, alice_panel, "alice", "S/L")
    handle = await fake.click_button(notice, next(c for c in notice.custom_ids() if decode(c).kind == "p"), "carol")
    await handle.response()
    panel = await handle.answer(timeout=10)
    assert panel.ephemeral and "🎲" in panel.content
    assert "✅" in await order_through(fake, panel, "carol", "S/0")
    await fake.wait_for_message(home(bot, fake, game_id), lambda m: "S/L" in m.text() and "S/0" in m.text(), since=mark)
    actions = [a for _, _, a in log_rows(bot.db_path, game_id)]
    assert sorted(actions[:2]) == ["F/0", "S/R"] and sorted(actions[2:4]) == ["S/0", "S/L"]


async def test_four_players_play_osu_through_autocomplete_and_play(world4):
    fake, bot = world4
    names = ["alice", "bob", "carol", "dave"]
    game_id = await fill_and_start(fake, "osu", names)
    played = await play_suggested(fake, bot, game_id, names, turns=12)
    assert [a for _, _, a in log_rows(bot.db_path, game_id)] == [a for _, a in played]
    assert {u for u, _ in played} == set(names)  # all four seats took turns
    last = [m for m in fake.messages(home(bot, fake, game_id)) if is_board(m)][-1]
    image = Image.open(io.BytesIO(last.attachments[0].data))
    assert image.format == "PNG" and image.size[0] >= 600


async def test_hostile_two_versus_two(world4):
    fake, bot = world4
    names = ["alice", "bob", "carol", "dave"]
    game_id, lobby = await open_lobby(fake, creator="alice", game="hostile")
    # The pairing is part of the lobby: recreate with alice+carol against bob+dave.
    answer = await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "game abandon",
                                                    {"game_id": game_id}))
    assert "abandoned" in answer
    mark = fake.mark()
    h = await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "game new",
                              {"game": "hostile", "options": "teams=13-24"})
    game_id = int(re.search(r"#(\d+)", await reply_text(h))[1])
    lobby = await fake.wait_for_message(fake.channel_id, lambda m: not m.ephemeral and m.custom_ids()
                                        and f"#{game_id}" in m.text(), since=mark)
    for name in names[1:]:
        join = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":join"))
        await reply_text(await fake.click_button(fake.message(lobby.id), join, name))
    start = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":start"))
    await reply_text(await fake.click_button(fake.message(lobby.id), start, "alice"))
    import sqlite3

    with sqlite3.connect(bot.db_path) as db:
        seats = [r[0] for r in db.execute("SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))]
    assert seats == [uid(fake, n) for n in ("alice", "carol", "bob", "dave")]
    played = [a for _, a in await play_suggested(fake, bot, game_id, names, turns=16, pick=lambda c: c[-1])]
    assert [a for _, _, a in log_rows(bot.db_path, game_id)] == played and len(played) >= 8
    last = [m for m in fake.messages(home(bot, fake, game_id)) if is_board(m)][-1]
    assert Image.open(io.BytesIO(last.attachments[0].data)).format == "PNG"


async def test_a_turn_of_several_actions_edits_one_board(world4):
    """HOSTILE turns spend several action points: one board per turn, edited as the turn goes on."""
    import json as _json

    from games import get_game

    fake, bot = world4
    game_id = await fill_and_start(fake, "hostile", ["alice", "bob"])
    engine = get_game("hostile")
    names = {uid(fake, n): n for n in ("alice", "bob")}
    edited_turns = 0
    for _ in range(40):
        row = game_row(bot.db_path, game_id)
        if row["status"] != "active":
            break
        state = _json.loads(row["state"])
        seat = min(engine.to_act(state))
        with sqlite3.connect(bot.db_path) as db:
            user = names[db.execute("SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)).fetchone()[0]]
        boards = len([m for m in fake.messages(home(bot, fake, game_id), include_ephemeral=False) if m.attachments])
        action = engine.legal_actions(state, seat)[0]
        assert "✅" in await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, user, "play",
                                                              {"action": action, "game_id": game_id}))
        await board_shown(fake, bot, game_id)
        after = _json.loads(game_row(bot.db_path, game_id)["state"])
        now = len([m for m in fake.messages(home(bot, fake, game_id), include_ephemeral=False) if m.attachments])
        if engine.outcome(after) is None and engine.to_act(after) == {seat} == engine.to_act(state):
            assert now == boards, "an action inside a turn must edit the turn's board"
            edited_turns += 1
        else:
            assert now == boards + 1, "a new player to act gets a new board"
    assert edited_turns >= 3
