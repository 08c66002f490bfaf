"""The bot's permission list (bot/common/permissions.py) agrees with Discord, with the docs and with the
catalogues; and what the bot decides from its permissions in a channel."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest

from bot import i18n
from bot.common import permissions as P
from bot.i18n import render

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "permissions.md").read_text(encoding="utf-8")


def test_the_invite_integer_in_the_docs_is_the_computed_one():
    stated = re.search(r"\*\*Permissions integer: `(\d+)`\*\*", DOC)
    assert stated, "docs/permissions.md must state the integer"
    assert int(stated[1]) == P.INVITE_INTEGER == P.invite_permissions() == sum(1 << p.bit for p in P.REQUESTED)


def test_every_bit_is_discords():
    # discord.py's flags are an oracle independent of this project (pin_messages arrived in 2.6)
    for p in P.REQUESTED:
        assert getattr(discord.Permissions, p.flag).flag == p.value, p.name
    assert P.PIN_MESSAGES.value == 1 << 51 and P.MANAGE_THREADS.value == 1 << 34
    assert P.INVITE_PERMISSIONS == tuple((p.flag, p.shown, p.bit, p.doc) for p in P.REQUESTED)


def test_the_docs_table_is_the_modules_list():
    section = DOC.split("## The invite", 1)[1].split("\n#", 1)[0]
    rows = [(m[1], m[2], int(m[3]), int(m[4])) for m in re.finditer(
        r"^\| ([^|(]+) \(`([A-Z_]+)`\) \| (\d+) \| (\d+) \|", section, re.M)]
    assert rows == [(p.shown, p.name, p.bit, p.value) for p in P.REQUESTED]


def test_the_old_invite_lacked_pins_and_the_new_one_has_them():
    old = 309237763072  # the README's integer before issue #30
    for needed in (P.PIN_MESSAGES, P.MANAGE_THREADS):
        assert not old & needed.value and P.INVITE_INTEGER & needed.value


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_permission_has_a_name_and_a_reason_in_both_languages(lang):
    for p in P.REQUESTED:
        for text in (p.label, p.why):
            assert text.key in i18n.catalogue(lang), text.key
            assert render(lang, text) != render("en" if lang == "ja" else "ja", text)


def reach(*missing: P.Permission, in_thread: bool = False) -> P.Reach:
    return P.Reach(1, P.INVITE_INTEGER & ~sum(p.value for p in missing), in_thread)


def test_the_plan_for_every_missing_permission():
    full = P.plan(reach(), thread=True)
    assert (full.blocked, full.thread, full.pins, full.notices) == ([], True, True, [])

    no_pin = P.plan(reach(P.PIN_MESSAGES), thread=True)
    assert (no_pin.thread, no_pin.pins) == (True, False)
    assert [n.key for n in no_pin.notices] == ["perm.notice.no_pin"]
    assert P.plan(reach(P.PIN_MESSAGES), thread=False).notices == []  # no thread, no status to pin

    for lacking in (P.CREATE_PUBLIC_THREADS, P.SEND_MESSAGES_IN_THREADS):
        no_thread = P.plan(reach(lacking, P.PIN_MESSAGES), thread=True)
        assert not no_thread.thread and [n.key for n in no_thread.notices] == ["perm.notice.no_thread"]
        assert lacking.label in no_thread.notices[0].params["missing"]
    # a thread that exists already needs only the right to post in it
    assert P.plan(reach(P.CREATE_PUBLIC_THREADS), thread=True, thread_exists=True).thread

    for lacking in (P.VIEW_CHANNEL, P.SEND_MESSAGES, P.ATTACH_FILES):
        assert P.plan(reach(lacking), thread=True).blocked == [lacking]
    assert P.plan(reach(P.SEND_MESSAGES, in_thread=True), thread=False).blocked == []  # threads: their own
    assert P.plan(reach(P.SEND_MESSAGES_IN_THREADS, in_thread=True), thread=False).blocked == [
        P.SEND_MESSAGES_IN_THREADS]
    assert [n.key for n in P.plan(reach(P.READ_MESSAGE_HISTORY), thread=False).notices] == [
        "perm.notice.no_history"]


def test_help_names_what_is_missing_and_the_integer():
    assert [t.key for t in P.help_lines(reach())] == ["perm.help.all_present", "perm.help.invite"]
    lines = P.help_lines(reach(P.PIN_MESSAGES, P.ATTACH_FILES))
    assert [t.key for t in lines] == ["perm.help.missing_header", "perm.help.line", "perm.help.line", "perm.help.invite"]
    text = "\n".join(render("ja", t) for t in lines)
    assert "メッセージをピン留め" in text and "ファイルを添付" in text and str(P.INVITE_INTEGER) in text


# ---- Start, through the service -------------------------------------------------------------------
from bot.service.settings import make_settings  # noqa: E402
from games import get_game  # noqa: E402
from tests.test_service import ALICE, BOB, host, refused  # noqa: E402,F401  (the fixture)

HOME, THREAD = 5, 99


def at_home(*missing: P.Permission) -> P.Reach:
    """The bot's permissions in the game's channel, less ``missing``."""
    return P.Reach(HOME, P.INVITE_INTEGER & ~sum(p.value for p in missing))


async def lobby_in_thread(host, **settings) -> int:
    row, _ = await host.create("squares", None, guild_id=1, channel_id=HOME, user_id=ALICE, locale="en",
                               settings=make_settings() | settings)
    await host.thread_created(row.id, THREAD)
    await host.join(row.id, BOB)
    return row.id


async def test_start_with_every_permission_pins_the_status_in_the_thread(host):
    game_id = await lobby_in_thread(host)
    outbox = await host.start(game_id, ALICE, reach=at_home())
    board = outbox.posts[-1]
    assert board.channel_id == THREAD and board.status_lines and board.lines[0].key != "game.summary"
    assert [t.key for t in outbox.reply] == ["lobby.started"]


async def test_start_without_pin_messages_puts_the_status_in_every_board(host):
    game_id = await lobby_in_thread(host)
    outbox = await host.start(game_id, ALICE, reach=at_home(P.PIN_MESSAGES))
    board = outbox.posts[-1]
    assert board.channel_id == THREAD and board.status_lines == [] and board.lines[0].key == "game.summary"
    assert [t.key for t in outbox.reply] == ["lobby.started", "perm.notice.no_pin"]
    row = await host.store.load(game_id)
    assert row.settings["pins"] is False
    game = get_game(row.game)
    seat = min(game.to_act(row.state))
    later = await host.act(game_id, row.user_of(seat), game.legal_actions(row.state, seat)[0])
    assert later.posts[-1].lines[0].key == "game.summary" and later.posts[-1].status_lines == []


async def test_start_without_thread_permission_plays_in_the_channel(host):
    game_id = await lobby_in_thread(host)
    outbox = await host.start(game_id, ALICE, reach=at_home(P.SEND_MESSAGES_IN_THREADS))
    assert outbox.posts[-1].channel_id == HOME and not outbox.posts[-1].in_thread
    assert (await host.store.load(game_id)).thread_id is None
    assert [t.key for t in outbox.reply] == ["lobby.started", "perm.notice.no_thread"]


async def test_start_where_no_game_can_be_shown_is_refused_and_changes_nothing(host):
    game_id = await lobby_in_thread(host)
    error = await refused(host, host.start(game_id, ALICE, reach=at_home(P.ATTACH_FILES)), "bot_cannot_show")
    assert error.params["missing"] == [P.ATTACH_FILES.label]
    # permissions read in another channel say nothing about the game's: they are not used
    outbox = await host.start(game_id, ALICE, reach=P.Reach(HOME + 1, 0))
    assert (await host.store.load(game_id)).status == "active" and outbox.posts[-1].status_lines


@pytest.mark.parametrize("given", ["abc", "123", "1234567890123456", "123456789012345678901", "12345678901234567x",
                                   "-123456789012345678", "１２３４５６７８９０１２３４５６７８"])
def test_the_invite_link_is_refused_for_what_is_not_an_application_id(given, capsys):
    assert P.main([given]) == 2
    out = capsys.readouterr()
    assert "client_id" not in out.out and "https://" not in out.out
    assert repr(given) in out.err and "17 to 20 digits" in out.err


@pytest.mark.parametrize("given", ["12345678901234567", "1234567890123456789", "12345678901234567890"])
def test_the_invite_link_is_printed_for_a_snowflake(given, capsys):
    assert P.main([given]) == 0
    assert f"client_id={given}&" in capsys.readouterr().out
