"""Real use through the service: many games at once, stale buttons, doubled lines, damaged rows,
crashes between steps, and inputs that must be refused rather than crash (issue #10)."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.service.scheduler import Scheduler
from bot.service import GameHost, make_settings
from games import get_game
from games.rng import Rng
from tests.test_service import ALICE, BOB, dump, fake_render, host, refused, started  # noqa: F401 (host: the fixture)

ROOT = Path(__file__).resolve().parents[1]


async def play_random(host, game_id: int, actions: int, rng: Rng) -> int:
    """Play ``actions`` legal actions with buttons drawn for the current version; returns how many."""
    done = 0
    for _ in range(actions):
        row = await host.store.load(game_id)
        if row.status != "active":
            break
        game = get_game(row.game)
        seat = min(game.to_act(row.state))
        legal = game.legal_actions(row.state, seat)
        await host.act(game_id, row.user_of(seat), legal[rng.below(len(legal))], seen_version=row.version)
        done += 1
        await asyncio.sleep(0)
    return done


async def test_eight_games_acting_at_once_all_apply(host_on_each_backend):
    host = host_on_each_backend
    games = [(await started(host, users=(1000 + i, 2000 + i)))[0] for i in range(8)]
    counts = await asyncio.gather(*(play_random(host, row.id, 25, Rng(i)) for i, row in enumerate(games)))
    for row, count in zip(games, counts):
        after = await host.store.load(row.id)
        assert after.version == row.version + count and await host.store.action_count(row.id) == count


async def test_games_in_flight_are_bounded_and_the_others_wait_their_turn(host):
    """Twelve games act at once through a host that lets 3 in: never more than 3 are between
    loading and saving, and every action still applies exactly once."""
    games = [(await started(host, users=(1000 + i, 2000 + i)))[0] for i in range(12)]
    bounded = GameHost(host.store, clock=host.clock, render=fake_render, games_in_flight=3)
    inside, most = 0, 0
    load, save = host.store.load, host.store.save
    full = asyncio.Event()  # three games inside at once: the first ones wait for it, however slow the machine

    async def slow_load(game_id):
        nonlocal inside, most
        inside += 1
        most = max(most, inside)
        if most == 3:
            full.set()
        await asyncio.wait_for(full.wait(), 60)  # a fourth, were it let in, would arrive meanwhile
        await asyncio.sleep(0)
        return await load(game_id)

    async def counted_save(draft, *args, **kwargs):
        nonlocal inside
        try:
            return await save(draft, *args, **kwargs)
        finally:
            inside -= 1

    async def act_once(row):
        game = get_game(row.game)
        seat = min(game.to_act(row.state))
        await bounded.act(row.id, row.user_of(seat), game.legal_actions(row.state, seat)[0], seen_version=row.version)

    host.store.load, host.store.save = slow_load, counted_save
    try:
        await asyncio.gather(*(act_once(row) for row in games))
    finally:
        host.store.load, host.store.save = load, save
    assert most == 3
    for row in games:
        assert (await host.store.load(row.id)).version == row.version + 1


async def test_a_games_lock_taken_inside_anothers_is_refused_not_a_hang(host):
    """With one slot in flight, a second game's lock inside a first one's would wait forever, and
    the same game's lock at once: both raise, and the locks are free again afterwards."""
    single = GameHost(host.store, clock=host.clock, render=fake_render, games_in_flight=1)
    for inner in (2, 1):
        with pytest.raises(RuntimeError, match=f"game {inner}'s lock taken inside game 1's"):
            async with single._lock(1):
                async with single._lock(inner):
                    pass  # never reached
    # Separate tasks are separate operations: they take their turns, each with its own game.
    order = []

    async def one(game_id):
        async with single._lock(game_id):
            order.append(game_id)
            await asyncio.sleep(0)

    await asyncio.wait_for(asyncio.gather(one(1), one(2), one(1)), timeout=60)  # a hang bound
    assert sorted(order) == [1, 1, 2]


async def test_a_language_remembered_while_games_save_is_stored(host_on_each_backend):
    host = host_on_each_backend
    row, _ = await started(host)
    await asyncio.gather(play_random(host, row.id, 10, Rng(1)), host.remember_language(4242, "ja"))
    assert (await host.store.user_settings(4242))["locale"] == "ja"


async def hostile_until_the_actor_changes(host):
    """A HOSTILE 2-player game played until a turn passes; returns the row and the version of the
    last board drawn for the previous player's turn."""
    row, _ = await started(host, game="hostile")
    game = get_game("hostile")
    while True:
        seat = min(game.to_act(row.state))
        drawn_for = row.version
        action = "end" if "end" in game.legal_actions(row.state, seat) else game.legal_actions(row.state, seat)[0]
        await host.act(row.id, row.user_of(seat), action, seen_version=row.version)
        row = await host.store.load(row.id)
        if min(game.to_act(row.state)) != seat:
            return row, seat, drawn_for


async def test_an_old_boards_button_is_refused_for_every_seat(host):
    row, previous, drawn_for = await hostile_until_the_actor_changes(host)
    now_to_act = min(get_game("hostile").to_act(row.state))
    assert now_to_act != previous
    legal = get_game("hostile").legal_actions(row.state, now_to_act)
    await refused(host, host.act(row.id, row.user_of(now_to_act), legal[0], seen_version=drawn_for), "stale")


async def test_a_secret_order_handed_in_does_not_stale_the_others_panel(host):
    row, outbox = await started(host, game="arena")
    panels = {p.user_id: p.controls for p in outbox.privates}
    first, second = list(panels)
    await host.act(row.id, first, "S/R", seen_version=panels[first].version)
    await host.act(row.id, second, "F/0", seen_version=panels[second].version)  # drawn before, still valid
    await refused(host, host.act(row.id, first, "S/L", seen_version=panels[first].version), "stale")  # turn over


async def test_a_doubled_play_line_applies_once(host_on_each_backend):
    host = host_on_each_backend
    row, _ = await started(host, game="hostile")
    game = get_game("hostile")
    while row.state.get("phase") != "turn":  # past the skill draft, into turns of several action points
        seat = min(game.to_act(row.state))
        await host.act(row.id, row.user_of(seat), game.legal_actions(row.state, seat)[0])
        row = await host.store.load(row.id)
    seat = min(game.to_act(row.state))
    line = next(a for a in game.legal_actions(row.state, seat) if a.startswith("move "))
    await host.mark_posted(row.id, row.version, 1)  # the player saw this board
    results = await asyncio.gather(*(host.act(row.id, row.user_of(seat), line, typed=True) for _ in range(2)),
                                   return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert [r.key for r in results if isinstance(r, Exception)] == ["stale_typed"]
    assert await host.store.action_count(row.id) == len(await host.store.actions(row.id))
    after = await host.store.load(row.id)
    assert after.version == row.version + 1
    await host.mark_posted(row.id, after.version, 2)  # once the new board is shown, a new line plays
    if line in game.legal_actions(after.state, seat):
        await host.act(row.id, row.user_of(seat), line, typed=True)


async def test_two_bot_processes_on_one_database_play_each_action_once(host_on_each_backend):
    """Two processes' services (their own stores and in-process locks) clicking the same board,
    and both schedulers reposting lost boards: the database decides, each applies once."""
    host = host_on_each_backend
    other = GameHost(await host.backend.open(), clock=host.clock, render=fake_render)
    try:
        rows = [(await started(host, users=(700 + i, 800 + i)))[0] for i in range(6)]
        game = get_game("squares")
        clicks = []
        for row in rows:
            seat = min(game.to_act(row.state))
            legal = game.legal_actions(row.state, seat)
            clicks += [h.act(row.id, row.user_of(seat), legal[i], seen_version=row.version)
                       for i, h in enumerate((host, other, host, other))]
        results = await asyncio.gather(*clicks, return_exceptions=True)
        assert sum(not isinstance(r, Exception) for r in results) == len(rows)
        assert {getattr(r, "key", None) for r in results if isinstance(r, Exception)} == {"stale"}
        for row in rows:
            assert await host.store.action_count(row.id) == 1
            assert (await other.store.load(row.id)).version == row.version + 1
        leases = await asyncio.gather(*(h.store.claim_repost(rows[0].id, "2026-11-21T00:00:00+00:00",
                                                             "2026-11-21T00:01:00+00:00") for h in (host, other) * 4))
        assert leases.count(True) == 1
    finally:
        await other.store.close()


# ---- damaged rows -----------------------------------------------------------------------------------------
def damage(db_path: str, game_id: int, how: str) -> None:
    sql = {"undecodable": "UPDATE games SET state = '{not json' WHERE id = ?",
           "wrong shape": "UPDATE games SET state = '{\"x\": 1}' WHERE id = ?",
           "unknown game": "UPDATE games SET game = 'chess' WHERE id = ?"}[how]
    with sqlite3.connect(db_path) as db:
        db.execute(sql, (game_id,))


async def test_damaged_games_are_set_aside_once_and_the_others_go_on(host, caplog):
    healthy, _ = await started(host)
    damaged = {how: (await started(host, users=(3000 + i, 4000 + i)))[0]
               for i, how in enumerate(("undecodable", "wrong shape", "unknown game"))}
    for how, row in damaged.items():
        damage(host.db_path, row.id, how)
    with sqlite3.connect(host.db_path) as db:  # every game is overdue and past half its deadline
        db.execute("UPDATE games SET deadline_at = '2026-11-20T00:00:00+00:00', remind_at = '2026-11-19T00:00:00+00:00'")
    caplog.set_level(logging.ERROR, logger="bot.service")
    delivered = []

    async def deliver(outbox):
        delivered.append(outbox)

    scheduler = Scheduler(host, deliver, deliver)
    await scheduler.tick()
    assert await host.store.action_count(healthy.id) == 1  # the healthy game's deadline fired
    assert {p.game_id for o in delivered for p in getattr(o, "posts", [])} >= {healthy.id}
    lines = await host.list_lines(1, ALICE)
    assert lines[0].params["count"] == 1 and len(lines) == 2
    assert await host.games_for(5, ALICE) == [healthy.id]
    assert [p.game_id for p in await host.pending_posts()] == [healthy.id]
    for row in damaged.values():
        await refused(host, host.act(row.id, row.user_ids[0], "pass"), "game_broken")
    await scheduler.tick()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert sorted(int(m.split()[1]) for m in errors) == sorted(r.id for r in damaged.values())  # once each


async def test_a_damaged_game_does_not_stop_start_up_reposting(host):
    good, _ = await started(host)
    bad, _ = await started(host, users=(5, 6))
    damage(host.db_path, bad.id, "wrong shape")
    assert [p.game_id for p in await host.pending_posts()] == [good.id]


# ---- crashes between steps -----------------------------------------------------------------------------
CRASHING = textwrap.dedent("""
    import asyncio, sys
    from bot.service import GameHost
    from bot.storage.sqlite import Store
    from tests.test_service import fake_render

    async def main(path, op, game_id, user_id):
        store = await Store.open(path)
        host = GameHost(store, clock=lambda: "2026-11-25T00:00:00+00:00", render=fake_render)
        if op == "rematch":
            await host.rematch(game_id, user_id)
        else:
            await host.timeout(game_id)
        print("finished without crashing")

    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
""")


def run_crashing(db_path: str, op: str, game_id: int, user_id: int, point: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, TABLETOP_CRASH_AT=point, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", CRASHING, db_path, op, str(game_id), str(user_id)],
                          env=env, capture_output=True, text=True, timeout=60, cwd=str(ROOT))


async def finished_game(host):
    row, _ = await started(host)
    await host.resign(row.id, row.user_of(0))
    return await host.store.load(row.id)


async def test_a_crash_inside_a_rematch_leaves_nothing_and_it_can_be_asked_again(host):
    row = await finished_game(host)
    before = dump(host)
    crashed = run_crashing(host.db_path, "rematch", row.id, ALICE, "store.save.before_commit")
    assert crashed.returncode == -9, crashed.stderr
    assert dump(host) == before  # no seatless lobby, no link
    outbox = await host.rematch(row.id, ALICE)
    rematch = await host.store.load((await host.store.load(row.id)).rematch_id)
    assert rematch.status == "active" and sorted(rematch.user_ids) == sorted(row.user_ids)
    assert outbox.posts and outbox.posts[-1].game_id == rematch.id


async def test_a_crash_inside_a_timeout_counts_the_absence_once(host):
    row, _ = await started(host)
    with sqlite3.connect(host.db_path) as db:
        db.execute("UPDATE games SET deadline_at = '2026-11-22T00:00:00+00:00' WHERE id = ?", (row.id,))
    absent = min(get_game("squares").to_act(row.state))
    before = dump(host)
    crashed = run_crashing(host.db_path, "timeout", row.id, 0, "store.save.before_commit")
    assert crashed.returncode == -9, crashed.stderr
    assert dump(host) == before
    host.clock = lambda: "2026-11-25T00:00:00+00:00"
    await host.timeout(row.id)
    after = await host.store.load(row.id)
    assert after.seat_row(absent).absences == 1 and await host.store.action_count(row.id) == 1


async def test_a_crash_after_saving_reposts_the_board_on_restart(host):
    row, _ = await started(host)
    with sqlite3.connect(host.db_path) as db:
        db.execute("UPDATE games SET deadline_at = '2026-11-22T00:00:00+00:00' WHERE id = ?", (row.id,))
    crashed = run_crashing(host.db_path, "timeout", row.id, 0, "service.saved")
    assert crashed.returncode == -9, crashed.stderr
    after = await host.store.load(row.id)
    assert after.version == row.version + 1  # saved, never delivered
    assert [p.game_id for p in await host.pending_posts()] == [row.id]


# ---- inputs ---------------------------------------------------------------------------------------------
async def test_inputs_that_used_to_crash_are_refused(host):
    row, _ = await started(host, game="arena", options="dice=reported")
    user = row.user_ids[0]
    await refused(host, host.act(row.id, user, "1" * 4301), "action_too_long")
    await refused(host, host.act(row.id, user, "   "), "action_empty")
    err = await refused(host, host.act(row.id, user, "٣-٥-١"), "bad_notation")  # Arabic-Indic digits
    assert err.key != "arena.already_reported"
    with pytest.raises(Exception) as bad_quote:
        await host.create("squares", 'cap="6', guild_id=1, channel_id=5, user_id=ALICE, locale="en")
    assert getattr(bad_quote.value, "key", None) == "option_quote"
    for bad in ("9" * 5000 + "h", "٣d", "1e9h"):
        with pytest.raises(Exception) as deadline:
            make_settings(deadline=bad)
        assert getattr(deadline.value, "key", "").startswith("deadline_")


async def test_full_width_digits_from_a_japanese_keyboard_are_read(host):
    row, outbox = await started(host, game="arena", options="dice=reported")
    seat = min(get_game("arena").to_act(row.state))
    legal = get_game("arena").legal_actions(row.state, seat)
    wide = legal[0].translate(str.maketrans("0123456789-", "０１２３４５６７８９－"))
    await host.act(row.id, row.user_of(seat), wide)
    assert [a.action for a in await host.store.actions(row.id)] == [legal[0]]


async def test_a_refused_join_writes_nothing(host):
    row, _ = await host.create("squares", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en")
    await host.join(row.id, BOB)
    await refused(host, host.join(row.id, 999, lang="ja"), "lobby_full")
    assert (await host.store.user_settings(999))["locale"] is None


async def test_a_lobby_closed_before_it_started_is_not_reposted(host):
    row, _ = await host.create("squares", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en")
    await host.leave(row.id, ALICE)  # nobody left: the lobby closes, no board ever existed
    assert (await host.store.load(row.id)).status == "abandoned"
    assert await host.pending_posts() == []
