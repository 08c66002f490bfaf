"""Several bot processes on one database (issue #17): each guarantee that spans processes lives in
the database. Two hosts here, each with its own connection to one SQLite file, stand for two bot
processes; a gate on one host's save makes the two meet exactly between load and save."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.service import GameHost, ServiceError, make_settings
from bot.storage.sqlite import Store
from bot.storage.rows import VersionConflict
from games import get_game

ALICE, BOB = 111, 222
NOW = "2026-11-21T00:00:00+00:00"


def fake_render(game, view):
    return b"PNG"


@pytest.fixture
async def hosts(tmp_path):
    path = str(tmp_path / "shared.sqlite3")
    stores = [await Store.open(path), await Store.open(path)]
    made = [GameHost(s, clock=lambda: NOW, seed_source=lambda: 4242, render=fake_render) for s in stores]
    for h in made:
        h.db_path = path
    yield made
    for s in stores:
        await s.close()


async def started(host, game="squares", settings=None):
    row, _ = await host.create(game, None, guild_id=1, channel_id=5, user_id=ALICE, locale="en", settings=settings)
    await host.join(row.id, BOB)
    await host.start(row.id, ALICE)
    return await host.store.load(row.id)


class Gate:
    """Holds a host's first save until released, after telling that it got there (its game loaded)."""

    def __init__(self, host):
        self.host, self.real = host, host.store.save
        self.reached, self.open = asyncio.Event(), asyncio.Event()
        host.store.save = self.save

    async def save(self, draft, now):
        self.host.store.save = self.real  # the rerun saves straight away
        self.reached.set()
        await self.open.wait()
        return await self.real(draft, now)


async def meet(first, second_call, other_call):
    """Run ``second_call`` on ``first``'s gated host up to its save, ``other_call`` to the end, then
    let the first save: it collides with what ``other_call`` saved."""
    gate = Gate(first)
    held = asyncio.create_task(second_call())
    await gate.reached.wait()
    other = await other_call()
    gate.open.set()
    return other, await held


def db_rows(path, sql, *params):
    with sqlite3.connect(path) as db:
        return db.execute(sql, params).fetchall()


async def test_a_deadline_timed_out_by_two_processes_fires_once(hosts):
    a, b = hosts
    row = await started(a, settings=make_settings(deadline="1h"))
    db_rows(a.db_path, "UPDATE games SET deadline_at = '2026-11-20T00:00:00+00:00' WHERE id = ?", row.id)
    won, lost = await meet(b, lambda: b.timeout(row.id), lambda: a.timeout(row.id))
    assert len(won.posts) == 1 and any(line.key == "timeout.passed" for line in won.posts[0].lines)
    assert lost.posts == [] and lost.privates == []  # the loser stays silent: nothing to post twice
    assert await a.store.action_count(row.id) == 1
    assert db_rows(a.db_path, "SELECT absences FROM seats WHERE game_id = ? ORDER BY absences DESC", row.id)[0] == (1,)


async def test_one_button_pressed_on_two_processes_applies_once(hosts):
    a, b = hosts
    row = await started(a)
    game = get_game("squares")
    seat = min(game.to_act(row.state))
    user, action = row.user_of(seat), game.legal_actions(row.state, seat)[0]

    async def press(host):
        try:
            return await host.act(row.id, user, action, seen_version=row.version)
        except ServiceError as e:
            return e

    applied, refused = await meet(b, lambda: press(b), lambda: press(a))
    assert applied.reply and isinstance(refused, ServiceError) and refused.key == "stale"
    assert [a for a, in db_rows(a.db_path, "SELECT action FROM actions WHERE game_id = ?", row.id)] == [action]


async def test_parts_of_a_simultaneous_step_from_two_processes_both_apply(hosts, secret_game):
    a, b = hosts
    row = await started(a, game="secretpick")
    outs = await meet(b, lambda: b.act(row.id, row.user_of(1), "pick1", seen_version=row.version),
                      lambda: a.act(row.id, row.user_of(0), "pick3", seen_version=row.version))
    assert all(o.reply for o in outs)  # neither was refused for colliding with the other
    logged = db_rows(a.db_path, "SELECT seat, action, version FROM actions WHERE game_id = ? ORDER BY n", row.id)
    assert [(s, x) for s, x, _ in logged] == [(0, "pick3"), (1, "pick1")]
    assert [v for _, _, v in logged] == [row.version + 1, row.version + 2]
    state = (await a.store.load(row.id)).state
    assert state["revealed"] == [[3, 1]] and state["score"] == [1, 0]


async def test_a_lost_board_is_reposted_by_one_process(hosts):
    a, b = hosts
    row = await started(a)  # never marked posted: as if the process stopped before posting
    first, second = await asyncio.gather(a.pending_posts(), b.pending_posts())
    assert sorted(len(p) for p in (first, second)) == [0, 1]
    assert [p.game_id for p in first + second] == [row.id]


async def test_an_idle_thread_is_touched_by_one_process(hosts):
    a, b = hosts
    row = await started(a)
    await a.thread_created(row.id, 9001)
    db_rows(a.db_path, "UPDATE games SET thread_touched_at = '2026-01-01T00:00:00+00:00' WHERE id = ?", row.id)
    first, second = await asyncio.gather(a.threads_to_keep_open(), b.threads_to_keep_open())
    assert sorted((first, second)) == [[], [9001]]
    assert await a.threads_to_keep_open() == []  # its idle clock restarted


async def test_endless_collisions_end_in_a_clear_answer_and_change_nothing(hosts):
    a, _ = hosts
    row = await started(a)

    async def always_conflicts(draft, now):
        raise VersionConflict(draft.row.id, "version changed")

    a.store.save = always_conflicts
    with pytest.raises(ServiceError) as refused:
        await a.act(row.id, row.user_of(0), "T2@b2", seen_version=row.version)
    assert refused.value.key == "busy"
    assert await a.store.action_count(row.id) == 0
