"""Play over days: deadlines, reminders, timeouts, stand-ins, vacations, rematches and stats,
all on a controllable clock (nothing here sleeps)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from bot.i18n import render
from bot.service.scheduler import Scheduler
from bot.service import GameHost, ServiceError, Where, make_settings, parse_deadline
from bot.storage.sqlite import Store
from games import all_games, registry
from tests.fake_games import SecretPick

ALICE, BOB, CAROL, DAVE = 111, 222, 333, 444


class Clock:
    def __init__(self):
        self.now = datetime(2026, 11, 21, 9, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


def fake_render(game, view):
    return b"PNG"


class DeliveredHost(GameHost):
    """As if every board reached its channel: the adapter's delivery records each one posted."""

    async def _address(self, outbox):
        outbox = await super()._address(outbox)
        for post in outbox.posts:
            if post.board_version is not None:
                await self.store.mark_posted(post.game_id, post.board_version, 1)
        return outbox


@pytest.fixture
async def table(tmp_path):
    store = await Store.open(str(tmp_path / "days.sqlite3"))
    clock = Clock()
    seeds = iter(range(5000, 9000))
    host = DeliveredHost(store, clock=clock, seed_source=lambda: next(seeds), render=fake_render)
    delivered, reminded = [], []

    async def deliver(outbox):
        delivered.append(outbox)

    async def remind(reminders):
        reminded.append(reminders)

    scheduler = Scheduler(host, deliver, remind)
    yield host, clock, scheduler, delivered, reminded
    await store.close()


async def started(host, game="squares", users=(ALICE, BOB), **settings):
    row, _ = await host.create(game, None, guild_id=1, channel_id=5, user_id=users[0], locale="en",
                               settings=make_settings(**settings))
    for u in users[1:]:
        await host.join(row.id, u)
    await host.start(row.id, users[0])
    return await host.store.load(row.id)


def waiting_user(row, game="squares"):
    from games import get_game

    return row.user_of(min(get_game(game).to_act(row.state)))


def text(outboxes) -> str:
    return "\n".join(render("en", line) for o in outboxes for p in o.posts for line in p.lines)


def test_deadline_and_settings_parsing():
    assert parse_deadline("24h") == 24 and parse_deadline("3d") == 72 and parse_deadline(None) == 24
    assert parse_deadline("none") == 0 and parse_deadline("90m") == 1.5
    for bad in ("soon", "5m", "90d"):
        with pytest.raises(ServiceError):
            parse_deadline(bad)
    with pytest.raises(ServiceError):
        make_settings(timeout="explode")
    assert make_settings()["timeout"] == "ai" and make_settings()["thread"] is True


async def test_deadline_is_stored_and_renewed_by_every_action(table):
    host, clock, *_ = table
    row = await started(host)
    assert row.deadline_at == "2026-11-22T09:00:00+00:00"
    clock.advance(hours=5)
    await host.act(row.id, waiting_user(row), "T2@b2" if row.user_of(0) == waiting_user(row) else "T2@b4")
    row = await host.store.load(row.id)
    assert row.deadline_at == "2026-11-22T14:00:00+00:00"
    no_deadline = await started(host, users=(CAROL, DAVE), deadline="none")
    assert no_deadline.deadline_at is None


async def test_a_passed_deadline_lets_the_stand_in_play_once(table):
    host, clock, scheduler, delivered, _ = table
    row = await started(host)
    absent = waiting_user(row)
    clock.advance(hours=23)
    await scheduler.tick()
    assert delivered == [] and len(await host.store.actions(row.id)) == 0
    clock.advance(hours=2)
    await scheduler.tick()
    log = await host.store.actions(row.id)
    assert len(log) == 1 and log[0].user_id is None and log[0].seat == row.seat_of(absent)
    row = await host.store.load(row.id)
    assert row.seat_row(row.seat_of(absent)).absences == 1 and not row.seat_row(row.seat_of(absent)).stand_in
    said = text(delivered)
    assert "let the deadline pass" in said and "Stand-in for" in said
    assert row.deadline_at == "2026-11-23T10:00:00+00:00"  # a new deadline from now
    await scheduler.tick()  # nothing more until the next deadline
    assert len(await host.store.actions(row.id)) == 1


async def test_three_absences_hand_the_seat_to_the_stand_in_for_good(table):
    host, clock, scheduler, delivered, _ = table
    row = await started(host)
    absent = waiting_user(row)
    present = next(u for u in row.user_ids if u != absent)
    from games import get_game

    game = get_game("squares")
    for _ in range(3):
        clock.advance(hours=25)
        await scheduler.tick()
        row = await host.store.load(row.id)
        if waiting_user(row) == present:
            await host.act(row.id, present, game.legal_actions(row.state, row.seat_of(present))[0])
    row = await host.store.load(row.id)
    assert row.seat_row(row.seat_of(absent)).stand_in
    assert "the stand-in plays their seat for the rest of the game" in text(delivered)
    # From now on the stand-in answers at once, without waiting for a deadline.
    if row.status == "active":
        before = len(await host.store.actions(row.id))
        await host.act(row.id, present, game.legal_actions(row.state, row.seat_of(present))[0])
        log = await host.store.actions(row.id)
        assert len(log) == before + 2 or (await host.store.load(row.id)).status == "finished"


async def test_forfeit_policy_ends_a_two_player_game(table):
    host, clock, scheduler, delivered, _ = table
    row = await started(host, timeout="forfeit")
    absent = waiting_user(row)
    clock.advance(days=2)
    await scheduler.tick()
    row = await host.store.load(row.id)
    assert row.status == "finished" and row.state["outcome"]["winners"] == [1 - row.seat_of(absent)]
    assert "forfeits" in text(delivered)
    stats = await host.store.stats(1)
    assert {(u, won) for _, u, _, won, _ in stats} == {(absent, 0), (next(u for u in row.user_ids if u != absent), 1)}


class Passable(SecretPick):
    """The secret-pick game with a pass, so the skip policy has something to skip with."""

    def __init__(self):
        super().__init__()
        self.name = "passable"

    def legal_actions(self, state, seat):
        return super().legal_actions(state, seat) + (["pass"] if seat in self.to_act(state) else [])

    def parse(self, action):
        return 0 if action == "pass" else super().parse(action)


@pytest.fixture
def passable():
    import renderers

    game = registry.register(Passable())
    renderers.register(game.name)(lambda view, **kw: b"PNG")
    yield game
    registry.unregister(game.name)
    renderers._RENDERERS.pop(game.name, None)


async def test_skip_policy_passes_where_the_game_allows_it(table, passable):
    host, clock, scheduler, delivered, _ = table
    row = await started(host, game="passable", timeout="skip")
    await host.act(row.id, ALICE, "pick2")
    clock.advance(days=2)
    await scheduler.tick()
    log = await host.store.actions(row.id)
    assert [(a.user_id, a.action) for a in log] == [(ALICE, "pick2"), (None, "pass")]
    assert "turn is skipped" in text(delivered)


async def test_skip_falls_back_to_the_stand_in_when_the_game_cannot_skip(table):
    host, clock, scheduler, delivered, _ = table
    row = await started(host, timeout="skip")
    clock.advance(days=2)
    await scheduler.tick()
    log = await host.store.actions(row.id)
    assert len(log) == 1 and log[0].action != "pass" and "Stand-in for" in text(delivered)


async def test_vacation_pauses_deadlines_within_the_creators_limit(table):
    host, clock, scheduler, delivered, _ = table
    row = await started(host, vacation_days=3)
    absent = waiting_user(row)
    reply = await host.vacation(absent, 10)
    assert "3 days" in render("en", reply.reply[0])
    clock.advance(days=2)
    await scheduler.tick()
    assert await host.store.actions(row.id) == []  # away: nobody plays for them
    row = await host.store.load(row.id)
    assert row.deadline_at >= row.seat_row(row.seat_of(absent)).vacation_until
    lines = await host.list_lines(1, BOB)
    assert "🏖️" in "".join(render("en", line) for line in lines)
    again = await host.vacation(absent, 1)
    assert "no vacation days are left" in render("en", again.reply[0])
    clock.advance(days=3)
    await scheduler.tick()
    assert len(await host.store.actions(row.id)) == 1  # back from vacation and still absent
    with pytest.raises(ServiceError):
        await host.vacation(CAROL, 2)


async def test_reminders_are_combined_and_sent_once(table):
    host, clock, scheduler, _, reminded = table
    first = await started(host)
    second = await started(host, users=(BOB, ALICE))
    third = await started(host, users=(CAROL, DAVE), deadline="3d")
    clock.advance(hours=13)
    await scheduler.tick()
    reminders = {r.user_id: r for batch in reminded for r in batch}
    waiting = [waiting_user(first), waiting_user(second)]
    for user in set(waiting):
        assert sorted(reminders[user].game_ids) == sorted(
            g.id for g, u in ((first, waiting[0]), (second, waiting[1])) if u == user)
    assert waiting_user(third) not in reminders  # 13 h is not half of 3 days
    lines = next(iter(reminders.values())).lines
    assert lines[0].key == "reminder.header" and all(line.key == "reminder.game" for line in lines[1:])
    await scheduler.tick()
    assert len(reminded) == 1  # reminded once per turn


async def test_catching_up_after_downtime_acts_once_per_game_and_sends_no_stale_reminders(table):
    host, clock, scheduler, delivered, reminded = table
    games = [await started(host), await started(host, users=(CAROL, DAVE))]
    clock.advance(days=9)  # the bot was down for nine days
    await scheduler.tick()
    assert len(delivered) == 2 and reminded == []
    for row in games:
        assert len(await host.store.actions(row.id)) == 1
        assert (await host.store.load(row.id)).deadline_at == "2026-12-01T09:00:00+00:00"


@pytest.mark.parametrize("game", [g for g in all_games()], ids=lambda g: g.name)
async def test_the_stand_in_finishes_an_abandoned_game(table, game):
    host, clock, scheduler, delivered, _ = table
    users = (ALICE, BOB, CAROL, DAVE)[: game.max_players if game.name == "osu" else game.min_players]
    row = await started(host, game=game.name, users=users)
    for _ in range(60):
        clock.advance(hours=25)
        await scheduler.tick()
        row = await host.store.load(row.id)
        if row.status != "active":
            break
    assert row.status == "finished", f"{game.name} did not finish"
    assert all(s.stand_in for s in row.seats)
    log = await host.store.actions(row.id)
    assert log and all(a.user_id is None for a in log)


async def test_rematch_keeps_the_seats_and_the_winner_moves_second(table):
    host, clock, *_ = table
    row = await started(host)
    loser = waiting_user(row)
    await host.resign(row.id, loser)
    outbox = await host.rematch(row.id, loser)
    new_id = (await host.store.load(row.id)).rematch_id
    new = await host.store.load(new_id)
    assert sorted(new.user_ids) == sorted(row.user_ids) and new.status == "active"
    winner = next(u for u in row.user_ids if u != loser)
    assert new.user_of(1) == winner  # the winner of the last game moves second
    assert outbox.posts[0].board_version == new.version
    with pytest.raises(ServiceError) as err:
        await host.rematch(row.id, winner)
    assert err.value.key == "rematch_exists"
    with pytest.raises(ServiceError) as err:
        await host.rematch(new_id, winner)
    assert err.value.key == "rematch_not_finished"


async def test_stats_count_games_played_and_won(table):
    host, *_ = table
    for _ in range(2):
        row = await started(host)
        await host.resign(row.id, BOB)
    lines = await host.stats_lines(1, ALICE)
    said = "\n".join(render("en", line) for line in lines)
    assert f"<@{ALICE}>: 2 won / 2 played" in said and f"<@{BOB}>: 0 won / 2 played" in said
    assert "No finished games" in render("en", (await host.stats_lines(99, ALICE))[-1])


async def test_dashboards_show_whose_turn_and_time_left(table):
    host, *_ = table
    row = await started(host)
    here = "\n".join(render("en", line) for line in await host.list_lines(1, ALICE))
    assert f"#{row.id}" in here and "<t:" in here and f"<@{waiting_user(row)}>" in here
    mine = "\n".join(render("en", line) for line in await host.mine_lines(BOB))
    assert f"#{row.id}" in mine


async def test_the_deadline_runs_per_turn_not_per_action(table, secret_game):
    host, clock, *_ = table
    row = await started(host, game="secretpick")
    first_deadline = row.deadline_at
    clock.advance(hours=3)
    await host.act(row.id, ALICE, "pick1")  # Bob is still thinking: his clock keeps running
    assert (await host.store.load(row.id)).deadline_at == first_deadline
    clock.advance(hours=1)
    await host.act(row.id, BOB, "pick2")  # both in: a new round, a new deadline
    assert (await host.store.load(row.id)).deadline_at == "2026-11-22T13:00:00+00:00"


async def test_a_servers_admins_choose_its_stand_in_level(table, monkeypatch):
    """Issue 16: the stand-in plays at normal unless the server's admins chose otherwise; a game
    created with ``ai:`` keeps its own level; only an admin in a server may change it."""
    from bot.workers import pool as workers

    host, clock, _, _, _ = table
    levels = []
    real_think = workers.think

    def think(game_name, state, seat, seed, level, seconds=1.0):
        levels.append(level)
        return real_think(game_name, state, seat, seed, level, seconds)

    monkeypatch.setattr(workers, "think", think)
    for guild, user, admin, key in ((1, BOB, False, "standin_not_admin"), (None, ALICE, False, "standin_server_only")):
        with pytest.raises(ServiceError) as err:
            await host.set_stand_in_level(user, "hard", Where(guild, 5, admin))
        assert err.value.key == key
    assert await host.store.server_settings(1) == {"stand_in_level": None}  # nothing stored
    with pytest.raises(ServiceError) as err:
        await host.set_stand_in_level(ALICE, "godlike", Where(1, 5, True))
    assert err.value.key == "ai_level"
    said = await host.set_stand_in_level(ALICE, "hard", Where(1, 5, True))
    assert "**hard**" in render("en", said.reply[0]) and "「**つよい**」" in render("ja", said.reply[0])

    async def game_in(guild, users, **settings):
        row, _ = await host.create("squares", None, guild_id=guild, channel_id=5, user_id=users[0], locale="en",
                                   settings=make_settings(**settings))
        await host.join(row.id, users[1])
        await host.start(row.id, users[0])
        return row.id

    here, elsewhere = await game_in(1, (ALICE, BOB)), await game_in(2, (CAROL, DAVE))
    chosen = await game_in(1, (555, 666), ai_level="easy")  # /game new ai:easy in the same server
    clock.advance(hours=25)
    for game_id, expected in ((here, "hard"), (elsewhere, "normal"), (chosen, "easy")):
        levels.clear()
        await host.timeout(game_id)
        log = await host.store.actions(game_id)
        assert len(log) == 1 and log[0].stand_in and levels == [expected], (game_id, levels)
    shown = " ".join(render("en", line) for line in await host.settings_lines(BOB, 1))
    assert "**hard**" in shown and "DM too: off" in shown
    shown = " ".join(render("ja", line) for line in await host.settings_lines(CAROL, 2))
    assert "「**ふつう**」（既定）" in shown
    assert "use this command in a server" in render("en", (await host.settings_lines(BOB, None))[-1])
