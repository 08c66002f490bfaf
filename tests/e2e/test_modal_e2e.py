"""End-to-end: a secret step answered in one dialog ("Fill in the form"), through the real bot and
the Discord stand-in. Carol's DMs are closed: she hands in whole Arena orders with one click and one
submit, while Alice plays by her DM panel; stale, foreign and forged forms are refused."""

from __future__ import annotations

import pytest

from bot.discord_app.custom_ids import decode
from tests.e2e.test_bot_e2e import game_row, home, log_rows, reply_text, running_bot
from tests.e2e.test_games_e2e import fill_and_start, order_through


@pytest.fixture
async def closed_carol(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob", "carol"), dm_closed=("carol",),
                           guild_locale="en-US") as w:
        yield w


def form_buttons(message) -> list[str]:
    return [c for c in message.custom_ids() if decode(c) and decode(c).kind == "m"]


async def open_form(fake, message, user: str, locale: str = "en-US"):
    """Click "Fill in the form" on ``message``: the bot must answer with the dialog itself."""
    handle = await fake.click_button(message, form_buttons(message)[0], user, locale=locale)
    response = await handle.response()
    assert response.type == 9, response
    return handle, response.data


def fields(modal: dict) -> list[dict]:
    """Each question's inner component (a radio group or a select), as the dialog shows them."""
    assert all(c["type"] == 18 for c in modal["components"])
    return [c["component"] for c in modal["components"]]


def offered(field: dict) -> list[str]:
    return [o["value"] for o in field["options"]]


async def test_closed_dms_hand_in_whole_orders_by_form(closed_carol):
    fake, bot = closed_carol
    mark = fake.mark()
    game_id = await fill_and_start(fake, "arena", ["alice", "carol"])
    alice_panel = await fake.wait_for_dm("alice", lambda m: m.custom_ids())
    assert form_buttons(alice_panel), "the DM panel offers the form too"
    notice = await fake.wait_for_message(
        home(bot, fake, game_id), lambda m: form_buttons(m) and "DM" in m.text(), since=mark)
    board = await fake.wait_for_message(
        home(bot, fake, game_id), lambda m: m.attachments and form_buttons(m), since=mark)
    assert any(decode(c).kind == "p" for c in board.custom_ids())

    # Carol opens the form twice from the fallback notice (one dialog will go stale).
    early, modal = await open_form(fake, notice, "carol")
    assert modal["title"] == "Your order for this turn"
    assert [c["label"] for c in modal["components"]] == ["Movement", "Then, your facing"]
    move, turn = fields(modal)
    assert move["type"] == 21 and turn["type"] == 21  # radio groups: 2-10 choices each
    assert "S" in offered(move) and "CF" not in offered(move)  # no charge right on turn 1
    assert offered(turn) == ["0", "R", "L"]
    assert [o["label"] for o in turn["options"]] == ["no turn", "turn right 60°", "turn left 60°"]
    # The ephemeral "My panel" offers it as well (drawn for its version).
    mine = await fake.click_button(notice, next(c for c in notice.custom_ids() if decode(c).kind == "p"), "carol")
    await mine.response()
    panel = await mine.answer(lambda m: m.custom_ids(), timeout=10)
    assert panel.ephemeral and decode(form_buttons(panel)[0]).version is not None
    form, _ = await open_form(fake, panel, "carol")

    assert "✅" in await order_through(fake, alice_panel, "alice", "S/L")
    before = log_rows(bot.db_path, game_id)

    # Someone else's dialog, and answers the dialog never offered: refused, nothing stored.
    foreign = await fake.forge_modal_submit(form, {"f0": "F", "f1": "R"}, "alice")
    assert "someone else" in await reply_text(foreign)
    no_charge = await fake.forge_modal_submit(form, {"f0": "CF", "f1": "0"}, "carol")
    assert "no charge right" in (text := await reply_text(no_charge)) and text.startswith("⚠️"), text
    nonsense = await fake.forge_modal_submit(form, {"f0": "XX", "f1": "0"}, "carol")
    assert "never offered" in await reply_text(nonsense)
    assert log_rows(bot.db_path, game_id) == before

    # One submit hands in the whole order and resolves the turn.
    mark = fake.mark()
    done = await fake.submit_modal(form, {"f0": "S", "f1": "R"})
    assert "✅" in await reply_text(done)
    await fake.wait_for_message(home(bot, fake, game_id), lambda m: "S/L" in m.text() and "S/R" in m.text(),
                                since=mark)
    assert [a for _, _, a in log_rows(bot.db_path, game_id)][-2:] in (["S/L", "S/R"], ["S/R", "S/L"])

    # The first dialog was opened before the step moved on: stale, nothing changes.
    rows = log_rows(bot.db_path, game_id)
    stale = await fake.submit_modal(early, {"f0": "F", "f1": "0"})
    assert "out of date" in await reply_text(stale)
    assert log_rows(bot.db_path, game_id) == rows

    # Turn 2 in Japanese: the form from the new board, one click and one submit.
    board2 = await fake.wait_for_message(home(bot, fake, game_id), lambda m: m.attachments and form_buttons(m),
                                         since=mark)
    ja_form, ja_modal = await open_form(fake, board2, "carol", locale="ja")
    assert ja_modal["title"] == "このターンの命令"
    assert [c["label"] for c in ja_modal["components"]] == ["移動", "移動のあとの向き"]
    assert "向きを変えない" in [o["label"] for o in fields(ja_modal)[1]["options"]]
    answer = await reply_text(await fake.submit_modal(ja_form, {"f0": "S", "f1": "0"}))
    assert "✅" in answer and "を行いました" in answer
    assert game_row(bot.db_path, game_id)["status"] == "active"
    assert [a for s, _, a in log_rows(bot.db_path, game_id)][-1] == "S/0"


async def test_reported_dice_are_a_form_too(closed_carol):
    fake, bot = closed_carol
    mark = fake.mark()
    h = await fake.send_slash(fake.guild_id, fake.channel_id, "carol", "game new",
                              {"game": "arena", "options": "dice=reported", "thread": False})
    answer = await reply_text(h)
    assert "#" in answer, answer
    game_id = int(answer.split("#")[1].split()[0].strip("*:,.)"))
    lobby = await fake.wait_for_message(fake.channel_id, lambda m: m.custom_ids() and f"#{game_id}" in m.text(),
                                        since=mark)
    join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
    await reply_text(await fake.click_button(lobby, join, "alice"))
    start = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":start"))
    await reply_text(await fake.click_button(fake.message(lobby.id), start, "carol"))
    board = await fake.wait_for_message(home(bot, fake, game_id), lambda m: m.attachments and form_buttons(m),
                                        since=mark)
    dice, modal = await open_form(fake, board, "carol", locale="ja")
    assert modal["title"] == "3個のダイスを報告"
    assert [offered(f) for f in fields(modal)] == [["1", "2", "3", "4", "5", "6"]] * 3
    mark = fake.mark()
    assert "✅" in await reply_text(await fake.submit_modal(dice, {"f0": "6", "f1": "2", "f2": "4"}))
    # Her next panel cannot be DMed either: the channel's notice offers the order's form.
    notice = await fake.wait_for_message(home(bot, fake, game_id), lambda m: form_buttons(m) and "DM" in m.text(),
                                         since=mark)
    order, modal = await open_form(fake, notice, "carol")
    assert modal["title"] == "Your order for this turn"
    assert "✅" in await reply_text(await fake.submit_modal(order, {"f0": "F", "f1": "L"}))
    assert [a for _, _, a in log_rows(bot.db_path, game_id)][-2:] == ["6-2-4", "F/L"]
