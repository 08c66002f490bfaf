"""One damaged game costs no other game anything (issue #29, part 2): the findings, one test each,
on SQLite and on PostgreSQL (tests/conftest.py's ``backend``). The field-by-field damage of every
game is tests/test_damaged_rows.py."""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta, timezone

import pytest

from bot.workers import pool as workers
from bot.i18n import render
from bot.service import GameHost, make_settings
from games import get_game

ALICE, BOB, CAROL, SPECTATOR = 111, 222, 333, 444
GUILD, CHANNEL = 1, 5


class Clock:
    def __init__(self):
        self.now = datetime(2026, 11, 21, 9, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
async def table(backend, caplog):
    """A host on each backend, a clock it reads, and the raw database beside it."""
    store = await backend.open()
    clock = Clock()
    seeds = iter(range(7000, 9000))
    host = GameHost(store, clock=clock, seed_source=lambda: next(seeds), render=lambda *a, **k: b"PNG",
                    ai_level="easy")
    host.follow_gather_seconds = 0
    caplog.set_level(logging.INFO, logger="bot")
    yield host, clock, backend
    await store.close()


async def started(host, game: str, users: tuple[int, ...]):
    row, _ = await host.create(game, None, guild_id=GUILD, channel_id=CHANNEL, user_id=users[0], locale="en",
                               settings=make_settings(deadline="24h"))
    for u in users[1:]:
        await host.join(row.id, u)
    await host.start(row.id, users[0])
    return await host.store.load(row.id)


async def next_turn(host, game_id: int):
    """Act for whoever must until a new wait begins (someone new must act)."""
    row = await host.store.load(game_id)
    turn, game = row.settings["turn_from"], get_game(row.game)
    while row.settings["turn_from"] == turn:
        seat = min(game.to_act(row.state))
        await host.act(game_id, row.user_of(seat), game.legal_actions(row.state, seat)[0])
        row = await host.store.load(game_id)
    return row


def waiting_users(row) -> set[int]:
    game = get_game(row.game)
    return {row.user_of(s) for s in game.to_act(row.state) - game.retired(row.state)}


def reminded(reminders) -> dict[int, set[int]]:
    """game id -> the players reminded of it."""
    out: dict[int, set[int]] = {}
    for r in reminders:
        for game_id in r.game_ids:
            out.setdefault(game_id, set()).add(r.user_id)
    return out


def listed(lines) -> set[int]:
    return {line.params["id"] for line in lines if line.key == "list.line"}


def set_aside_logs(caplog, game_id: int) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.levelno >= logging.ERROR and r.getMessage().startswith(f"game {game_id} set aside")]


def errors(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def is_flagged(host, game_id: int) -> bool:
    return game_id not in await host.store.game_ids_in_guild(GUILD)


# ---- finding 1: a deadline that is not a time ---------------------------------------------------------
async def test_a_deadline_that_is_not_a_time_costs_no_other_game_its_reminder_or_its_line(table, caplog):
    host, clock, backend = table
    healthy = await started(host, "squares", (ALICE, BOB))
    damaged = await started(host, "monsterhunter", (CAROL, ALICE))
    await backend.execute("UPDATE games SET deadline_at = ? WHERE id = ?", "not a time", damaged.id)
    clock.advance(hours=13)
    reminders = await host.due_reminders()
    assert reminded(reminders) == {healthy.id: waiting_users(healthy)}
    assert await host.due_reminders() == []  # reminded once for this turn, not again
    assert listed(await host.list_lines(GUILD, ALICE)) == {healthy.id}
    assert listed(await host.mine_lines(ALICE)) == {healthy.id}
    assert [s.id for s in await host.summaries([healthy.id, damaged.id])] == [healthy.id]
    assert await is_flagged(host, damaged.id) and len(set_aside_logs(caplog, damaged.id)) == 1
    assert errors(caplog) == set_aside_logs(caplog, damaged.id)


# ---- finding 2: a seat row missing ---------------------------------------------------------------------
async def test_a_missing_seat_row_costs_no_other_game_its_reminder(table, caplog):
    host, clock, backend = table
    healthy = await started(host, "arena", (ALICE, BOB))
    damaged = await started(host, "squares", (CAROL, ALICE))
    await backend.execute("DELETE FROM seats WHERE game_id = ?", damaged.id)
    clock.advance(hours=13)
    reminders = await host.due_reminders()
    assert reminded(reminders) == {healthy.id: waiting_users(healthy)}
    lines = {render("en", line) for r in reminders for line in r.lines}
    assert any(f"#{healthy.id}" in line for line in lines) and not any(f"#{damaged.id} " in line for line in lines)
    assert await host.due_reminders() == []
    assert await is_flagged(host, damaged.id) and len(set_aside_logs(caplog, damaged.id)) == 1
    assert errors(caplog) == set_aside_logs(caplog, damaged.id)


# ---- finding 3: a turn number that is not a number ---------------------------------------------------
async def test_a_turn_that_is_not_a_number_stops_no_other_games_follower_notices(table, caplog):
    host, _, backend = table
    healthy = await started(host, "squares", (ALICE, BOB))
    damaged = await started(host, "hostile", (CAROL, ALICE))
    for row in (healthy, damaged):
        await host.follow(row.id, SPECTATOR)
    await next_turn(host, damaged.id)  # the damaged game moves
    settings = dict((await host.store.load(damaged.id)).settings)
    settings["turn_from"] = "a turn"
    await backend.execute("UPDATE games SET settings = ? WHERE id = ?", json.dumps(settings), damaged.id)
    healthy = await next_turn(host, healthy.id)
    notices = await host.due_follow_notices()
    assert [(n.user_id, n.game_ids) for n in notices] == [(SPECTATOR, [healthy.id])]
    assert "#%d" % healthy.id in render("en", notices[0].lines[1])
    assert await host.due_follow_notices() == []  # told once of this turn
    assert await is_flagged(host, damaged.id) and len(set_aside_logs(caplog, damaged.id)) == 1
    assert errors(caplog) == set_aside_logs(caplog, damaged.id)


# ---- a reminder that could not be composed is not lost ---------------------------------------------------
async def test_a_reminder_pass_that_fails_loses_no_reminder(table, caplog):
    """The database failing half-way through a pass (after the games were read) leaves every
    reminder of that turn to the next pass: none was claimed without being composed."""
    host, clock, _ = table
    first = await started(host, "squares", (ALICE, BOB))
    second = await started(host, "osu", (CAROL, ALICE))
    clock.advance(hours=13)
    read = host.store.users_settings

    async def gone(user_ids):
        raise OSError("the database went away")

    host.store.users_settings = gone
    with pytest.raises(OSError):
        await host.due_reminders()
    host.store.users_settings = read
    assert reminded(await host.due_reminders()) == {first.id: waiting_users(first), second.id: waiting_users(second)}
    assert await host.due_reminders() == []
    assert errors(caplog) == []


async def test_a_reminder_composed_from_an_older_turn_claims_nothing(table):
    """Two processes: one composed a game's reminder, then the game moved on before it claimed it.
    Its claim of the old turn fails, and the new turn's reminder stays to be sent in its time."""
    host, clock, _ = table
    row = await started(host, "squares", (ALICE, BOB))
    assert await host.store.claim_reminders([(row.id, row.version - 1)]) == []
    assert await host.store.claim_reminders([(row.id, row.version)]) == [row.id]
    assert await host.store.claim_reminders([(row.id, row.version)]) == []
    assert await host.store.claim_reminders([]) == []


# ---- the machinery failing is no game's fault -----------------------------------------------------------
async def test_a_lost_drawing_worker_leaves_a_board_for_the_next_pass_and_sets_nothing_aside(table, caplog):
    """A worker that died while drawing one game's lost board is the pool's failure, not the game's:
    the game is left out of this pass only (a warning), the others are reposted, and the next pass
    after the repost lease reposts it."""
    host, clock, _ = table
    unlucky = await started(host, "squares", (ALICE, BOB))
    other = await started(host, "osu", (CAROL, ALICE))
    draw = host.render

    def lost_once(game, view, **options):
        if game == "squares" and host.render is lost_once:
            host.render = draw
            raise workers.WorkerLost("the worker died")
        return draw(game, view, **options)

    host.render = lost_once
    clock.advance(minutes=1)
    assert [p.game_id for p in await host.pending_posts()] == [other.id]
    assert not await is_flagged(host, unlucky.id) and errors(caplog) == []
    assert any(r.levelno == logging.WARNING and f"game {unlucky.id}" in r.getMessage() for r in caplog.records)
    clock.advance(minutes=2)  # past the repost lease
    assert unlucky.id in [p.game_id for p in await host.pending_posts()]


async def test_a_database_failure_in_one_games_part_sets_nothing_aside(table, caplog):
    host, clock, _ = table
    unlucky = await started(host, "squares", (ALICE, BOB))
    other = await started(host, "arena", (CAROL, ALICE))
    claim = host.store.claim_repost

    async def gone_once(game_id, *args):
        if game_id == unlucky.id and host.store.claim_repost is gone_once:
            host.store.claim_repost = claim
            raise host.store.outages[0]("the database went away")
        return await claim(game_id, *args)

    host.store.claim_repost = gone_once
    clock.advance(minutes=1)
    assert [p.game_id for p in await host.pending_posts()] == [other.id]
    assert not await is_flagged(host, unlucky.id) and errors(caplog) == []
    assert [p.game_id for p in await host.pending_posts()] == [unlucky.id]
