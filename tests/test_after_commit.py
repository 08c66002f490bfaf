"""Once an action is saved it counted (issue #30): a failure while drawing or posting what it
shows is never told as a refusal ("nothing was changed"), and the board arrives within seconds
from the scheduler, drawn afresh from the saved state, without the "restart" wording.

The service is driven on a real SQLite file with a renderer that fails on demand; the scheduler
runs as the bot runs it (ticks an hour apart here, so only the redelivery between ticks can bring
the board in time). The adapter is driven through discord.py's real objects (tests/test_adapter.py)."""

from __future__ import annotations

import asyncio
import itertools

import discord
import pytest

from bot.i18n import render
from bot.service.scheduler import Scheduler
from bot.service import GameHost
from bot.storage.sqlite import Store
from games import get_game
from tests.test_adapter import CHANNEL_ID, FakeResponse, click, dispatch, harness, new_started_game  # noqa: F401
from tests.test_service import ALICE, BOB, fake_render, refused

NOW = "2026-11-21T00:00:00+00:00"
PROCESS_START = "2026-11-20T23:00:00+00:00"  # this process started before every save below
# Only a hang detector: no tick runs in these tests, so whatever arrives came by redelivery, however
# slow the machine.
ARRIVAL_SECONDS = 60.0
REFUSAL = "Nothing was changed"
COUNTED = "That counted"


class FlakyRender:
    """The fake renderer, failing the next ``failures`` drawings (boards and panels alike)."""

    def __init__(self):
        self.failures = 0

    def __call__(self, game, view, **options):
        if self.failures:
            self.failures -= 1
            raise RuntimeError("the PNG writer failed")
        return fake_render(game, view)


class Table:
    """A host, its flaky renderer, and what the scheduler delivered (boards recorded as posted)."""

    def __init__(self, host: GameHost, render: FlakyRender):
        self.host, self.render = host, render
        self.delivered = []
        self._message_ids = itertools.count(9000)

    async def deliver(self, outbox):
        self.delivered.append(outbox)
        await self.shown(outbox)

    async def shown(self, outbox):
        """As the adapter does once Discord took a board."""
        for post in outbox.posts:
            if post.board_version is not None:
                await self.host.mark_posted(post.game_id, post.board_version, next(self._message_ids))
        return outbox

    def boards(self, game_id: int, version: int):
        return [p for o in self.delivered for p in o.posts
                if p.game_id == game_id and p.board_version == version and p.image]


@pytest.fixture
async def table(tmp_path):
    store = await Store.open(str(tmp_path / "commit.sqlite3"))
    seeds = iter(range(3000, 4000))
    flaky = FlakyRender()
    host = GameHost(store, clock=lambda: NOW, seed_source=lambda: next(seeds), render=flaky)
    host.db_path = str(tmp_path / "commit.sqlite3")  # for tests.test_service.refused
    t = Table(host, flaky)

    async def remind(_):
        pass

    scheduler = Scheduler(host, t.deliver, remind, started_at=PROCESS_START)
    await scheduler.tick()  # as run() starts; from now on only the redelivery can act
    running = asyncio.create_task(scheduler.redeliver_when_owed())
    yield t
    running.cancel()
    await store.close()


def said(lines) -> str:
    return "\n".join(render("en", line) for line in lines)


def assert_counted(outbox, version: int) -> None:
    """The actor hears it counted and that the board follows; the board is left for redelivery."""
    answer = said(outbox.reply)
    assert REFUSAL not in answer and COUNTED in answer, answer
    assert not [p for p in outbox.posts if p.board_version == version and p.image]


async def board_arrives(t: Table, game_id: int, version: int):
    """The board of that version, delivered once by the scheduler within seconds, worded as a
    board of this process (no restart happened)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ARRIVAL_SECONDS
    while not t.boards(game_id, version):
        assert loop.time() < deadline, f"game {game_id}'s board v{version} did not arrive in {ARRIVAL_SECONDS} s"
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.5)  # long enough for a second redelivery to show up, if there were one
    [board] = t.boards(game_id, version)
    text = said(board.lines)
    assert "restart" not in text and f"Game #{game_id}: here is the board" in text, text
    row = await t.host.store.load(game_id)
    assert row.posted_version == row.version == version
    return board


async def lobby(t: Table, *users, ai: str | None = None, game="squares") -> int:
    row, _ = await t.host.create(game, None, guild_id=1, channel_id=5, user_id=users[0], locale="en")
    for u in users[1:]:
        await t.host.join(row.id, u)
    if ai:
        await t.host.add_ai(row.id, users[0], ai)
    return row.id


async def running(t: Table, *users, game="squares", ai: str | None = None):
    game_id = await lobby(t, *users, ai=ai, game=game)
    await t.shown(await t.host.start(game_id, users[0]))
    return await t.host.store.load(game_id)


def to_act(row) -> tuple[int, int, str]:
    """The first seat to act, its user and its first legal action."""
    game = get_game(row.game)
    seat = min(game.to_act(row.state))
    return seat, row.user_of(seat), game.legal_actions(row.state, seat)[0]


async def logged(t: Table, game_id: int) -> list[tuple[int, str]]:
    return [(a.seat, a.action) for a in await t.host.store.actions(game_id)]


# ---- each operation, its drawing failing after the save --------------------------------------------
async def test_start(table):
    game_id = await lobby(table, ALICE, BOB)
    table.render.failures = 1
    outbox = await table.host.start(game_id, ALICE)
    row = await table.host.store.load(game_id)
    assert row.status == "active" and sorted(row.user_ids) == [ALICE, BOB]
    assert_counted(outbox, row.version)
    assert "Game #%d started" % game_id in said(outbox.reply)
    await refused(table.host, table.host.start(game_id, ALICE), "not_in_lobby")  # started once
    await board_arrives(table, game_id, row.version)


@pytest.mark.parametrize("typed", [False, True], ids=["button", "/play"])
async def test_act(table, typed):
    row = await running(table, ALICE, BOB)
    seat, user, action = to_act(row)
    table.render.failures = 1
    seen = None if typed else row.version
    outbox = await table.host.act(row.id, user, action, seen_version=seen, typed=typed)
    assert_counted(outbox, row.version + 1)
    assert f"`{action}` played" in said(outbox.reply)
    assert await logged(table, row.id) == [(seat, action)]
    await refused(table.host, table.host.act(row.id, user, action, seen_version=seen, typed=typed),
                  "stale_typed" if typed else "stale")  # sent twice before its board showed
    await board_arrives(table, row.id, row.version + 1)
    assert await logged(table, row.id) == [(seat, action)]


async def test_a_deadline_passing(table):
    row = await running(table, ALICE, BOB)
    absent, _, _ = to_act(row)
    table.host.clock = lambda: "2026-11-22T06:00:00+00:00"  # a day and more without a move
    table.render.failures = 1
    outbox = await table.host.timeout(row.id)
    assert not [p for p in outbox.posts if p.image]
    saved = await table.host.store.load(row.id)
    assert saved.seat_row(absent).absences == 1
    [(seat, _)] = await logged(table, row.id)  # the stand-in played for the absent seat, once
    assert seat == absent
    assert await table.host.timeout(row.id) == type(outbox)()  # handled: nothing is due any more
    await board_arrives(table, row.id, saved.version)
    assert len(await logged(table, row.id)) == 1


async def test_the_ai_answering_a_move(table):
    row = await running(table, ALICE, ai="easy")
    before = await logged(table, row.id)  # the AI may have opened
    seat, user, action = to_act(row)
    assert user == ALICE
    table.render.failures = 1
    outbox = await table.host.act(row.id, ALICE, action, seen_version=row.version)
    saved = await table.host.store.load(row.id)
    assert_counted(outbox, saved.version)
    after = await logged(table, row.id)
    assert after[: len(before) + 1] == before + [(seat, action)]
    assert len(after) == len(before) + 2 and after[-1][0] == 1 - seat  # the AI answered, once
    await board_arrives(table, row.id, saved.version)
    assert await logged(table, row.id) == after


async def test_rematch(table):
    row = await running(table, ALICE, BOB)
    await table.shown(await table.host.resign(row.id, ALICE))
    table.render.failures = 1
    outbox = await table.host.rematch(row.id, BOB)
    rematch_id = (await table.host.store.load(row.id)).rematch_id
    assert rematch_id
    new = await table.host.store.load(rematch_id)
    assert new.status == "active" and sorted(new.user_ids) == [ALICE, BOB]
    assert_counted(outbox, new.version)
    assert f"Rematch #{rematch_id} started" in said(outbox.reply)
    await refused(table.host, table.host.rematch(row.id, ALICE), "rematch_exists")  # one rematch
    await board_arrives(table, rematch_id, new.version)


async def test_undo(table):
    row = await running(table, ALICE, BOB)
    seat, mover, action = to_act(row)
    await table.shown(await table.host.act(row.id, mover, action))
    version = (await table.host.ask_undo(row.id, mover)).posts[0].undo_version
    other = row.user_of(1 - seat)
    table.render.failures = 1
    outbox = await table.host.answer_undo(row.id, other, version, True)
    assert_counted(outbox, version + 1)
    assert "was taken back" in said(outbox.reply)
    assert await logged(table, row.id) == [(seat, action), (seat, "undo 1")]
    await refused(table.host, table.host.answer_undo(row.id, other, version, True), "undo_already_answered")
    board = await board_arrives(table, row.id, version + 1)
    assert board.controls is not None and board.controls.version == version + 1
    assert await logged(table, row.id) == [(seat, action), (seat, "undo 1")]


async def test_a_submitted_form(table):
    """Arena orders: the first seat hands in its order by button, the last by the form; the
    step's resolution is saved and its drawing fails."""
    row = await running(table, ALICE, BOB, game="arena")
    game = get_game("arena")
    first, last = sorted(game.to_act(row.state))
    first_order = game.legal_actions(row.state, first)[0]
    await table.shown(await table.host.act(row.id, row.user_of(first), first_order))
    spec = await table.host.form(row.id, row.user_of(last))
    values = [choices[0][0] for _, choices in spec.fields]
    table.render.failures = 1
    outbox = await table.host.submit_form(row.id, row.user_of(last), spec.version, spec.owner, values)
    saved = await table.host.store.load(row.id)
    assert_counted(outbox, saved.version)
    last_order = game.form_action(row.state, last, tuple(values))
    assert await logged(table, row.id) == [(first, first_order), (last, last_order)]
    await refused(table.host, table.host.submit_form(row.id, row.user_of(last), spec.version, spec.owner, values),
                  "stale")
    await board_arrives(table, row.id, saved.version)


# ---- redelivery -------------------------------------------------------------------------------------
async def test_a_board_lost_to_a_real_restart_says_so_and_one_of_this_process_does_not(tmp_path):
    store = await Store.open(str(tmp_path / "restart.sqlite3"))
    try:
        host = GameHost(store, clock=lambda: NOW, seed_source=lambda: 77, render=fake_render)
        row, _ = await host.create("squares", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en")
        await host.join(row.id, BOB)
        await host.start(row.id, ALICE)  # saved; its board never reached the channel
        lost, = await host.pending_posts(process_started="2026-11-21T00:00:01+00:00")  # started after the save
        assert "before a restart" in said(lost.lines)
        later = GameHost(store, clock=lambda: "2026-11-21T00:05:00+00:00", render=fake_render)  # lease expired
        ours, = await later.pending_posts(process_started=PROCESS_START)  # saved by this very process
        text = said(ours.lines)
        assert "restart" not in text and f"Game #{row.id}: here is the board" in text
    finally:
        await store.close()


async def test_a_board_whose_panels_cannot_be_drawn_still_arrives(table):
    """A panel that fails every time (as a player's large view did) holds back neither the
    answer nor the board: its player keeps the "my panel" button; the other panel goes out."""
    row = await running(table, ALICE, BOB, game="arena")
    game = get_game("arena")
    first, last = sorted(game.to_act(row.state))
    await table.shown(await table.host.act(row.id, row.user_of(first), game.legal_actions(row.state, first)[0]))

    def panel_render(name, view, **options):
        if view.get("viewer") == first:
            raise RuntimeError("this player's large view cannot be drawn")
        return fake_render(name, view)

    table.host.render_panel = panel_render
    outbox = await table.host.act(row.id, row.user_of(last), game.legal_actions(row.state, last)[0])
    saved = await table.host.store.load(row.id)
    assert sorted(game.to_act(saved.state)) == [first, last]  # the step resolved: both order again
    assert_counted(outbox, saved.version)
    board = await board_arrives(table, row.id, saved.version)
    assert board.panel_button
    assert [p.user_id for o in table.delivered for p in o.privates if p.game_id == row.id] == [row.user_of(last)]


# ---- the adapter: Discord does not take the board ------------------------------------------------------
class BoardRefusedOnce:
    """The recorder's REST and webhook stand-ins, refusing the next board with a 500 wherever it goes:
    as the click's follow-up, and then in the channel (a Discord outage, not one route's hiccup)."""

    def __init__(self, recorder):
        self.recorder, self.armed = recorder, False
        self.original, self.original_webhook = recorder.http_request, recorder.webhook_request

    def _refuse(self, route, files) -> None:
        if self.armed and route.method == "POST" and files:
            if route.url.endswith(f"/channels/{CHANNEL_ID}/messages"):
                self.armed = False
            raise discord.HTTPException(FakeResponse(500), {"code": 0, "message": "Internal Server Error"})

    async def __call__(self, route, **kwargs):
        self._refuse(route, kwargs.get("files"))
        return await self.original(route, **kwargs)

    async def webhook(self, route, session=None, **kwargs):
        if "/callback" not in route.url:
            self._refuse(route, kwargs.get("files"))
        return await self.original_webhook(route, session, **kwargs)


async def test_a_board_discord_did_not_take_is_told_as_counted_and_posted_again(harness, monkeypatch):
    bot, recorder = harness
    game_id = await new_started_game(bot, recorder)
    row = await bot.store.load(game_id)
    seat, user, action = to_act(row)
    who = {"id": str(user), "username": "p", "global_name": "P", "discriminator": "0", "avatar": None}
    failing = BoardRefusedOnce(recorder)
    monkeypatch.setattr(bot.http, "request", failing)
    monkeypatch.setattr(recorder, "webhook_request", failing.webhook)
    failing.armed = True
    # Recorded: the acknowledgement and the answer (the refused boards never reached the recorder).
    calls = await dispatch(bot, recorder, click(f"tt:a:{game_id}:{row.version}:{action}", user=who), expect_calls=2)
    answer = calls[-1]["json"]["content"]
    assert REFUSAL not in answer and f"`{action}` played" in answer and COUNTED in answer, answer
    assert not failing.armed and [(a.seat, a.action) for a in await bot.store.actions(game_id)] == [(seat, action)]
    assert (await bot.store.load(game_id)).posted_version < row.version + 1
    # The scheduler (as on_ready starts it) posts it within seconds, drawn afresh, without "restart".
    posted = len(recorder.channel_posts())
    scheduler = Scheduler(bot.host, bot.delivery.send, bot.delivery.reminders, started_at=bot.started_at)
    running_scheduler = asyncio.create_task(scheduler.run(interval=3600))
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ARRIVAL_SECONDS
        while (await bot.store.load(game_id)).posted_version < row.version + 1:
            assert loop.time() < deadline, "the board was never posted again"
            await asyncio.sleep(0.05)
    finally:
        running_scheduler.cancel()
    [board] = recorder.channel_posts()[posted:]
    assert board["files"] == ["board.png"]
    text = str(board["json"])
    assert "restart" not in text and f"#{game_id}" in text


async def test_an_answer_that_cannot_be_shown_is_not_told_as_a_refusal(harness, monkeypatch):
    """The move is saved and its board posted; building the actor's answer then fails. They hear
    it was done (not "nothing was changed", not silence)."""
    bot, recorder = harness
    game_id = await new_started_game(bot, recorder)
    row = await bot.store.load(game_id)
    seat, user, action = to_act(row)
    who = {"id": str(user), "username": "p", "global_name": "P", "discriminator": "0", "avatar": None}
    real_reply = bot.delivery.reply

    async def reply_fails_once(interaction, outbox):
        monkeypatch.setattr(bot.delivery, "reply", real_reply)
        raise ValueError("a component Discord would refuse")

    monkeypatch.setattr(bot.delivery, "reply", reply_fails_once)
    calls = await dispatch(bot, recorder, click(f"tt:a:{game_id}:{row.version}:{action}", user=who), expect_calls=3)
    answer = calls[-1]["json"]["content"]
    assert REFUSAL not in answer and "That was done" in answer, answer
    assert [(a.seat, a.action) for a in await bot.store.actions(game_id)] == [(seat, action)]
    assert (await bot.store.load(game_id)).posted_version == row.version + 1
