"""The people around the board (issue 34), through the service on a moved clock: quiet hours and
time zones, ping choices, draw offers and agreed ends, deadline votes, turn-time statistics and
substitutes. Nothing here sleeps; the scheduler's tick is called by hand."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from bot.i18n import render
from bot.common.quiet_hours import QuietHours, known_zone, local_wall, quiet_until
from bot.service.scheduler import Scheduler
from bot.service import GameHost, ServiceError, make_settings
from games import get_game
from tests.test_over_days import started
from tests.test_service import fake_render

ALICE, BOB, CAROL, DAVE = 111, 222, 333, 444
UTC = timezone.utc


class Clock:
    def __init__(self, start: datetime = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


class DeliveredHost(GameHost):
    """As if every board reached its channel (the adapter's delivery marks each one posted)."""

    async def _address(self, outbox):
        outbox = await super()._address(outbox)
        for post in outbox.posts:
            if post.board_version is not None:
                await self.store.mark_posted(post.game_id, post.board_version, 1000 + post.board_version)
        return outbox


class Table:
    """A host on a moved clock, its scheduler, and everything the scheduler handed to delivery."""

    def __init__(self, host, clock, store):
        self.host, self.clock, self.store = host, clock, store
        self.delivered, self.reminders, self.notices, self.followers = [], [], [], []

        async def deliver(outbox):
            self.delivered.append(outbox)
            self.notices += outbox.notices

        async def remind(reminders):
            self.reminders += reminders

        async def notices(notices):
            self.notices += notices

        async def follow(notices):
            self.followers += notices

        self.scheduler = Scheduler(host, deliver, remind, notify_followers=follow, notices=notices)

    async def tick(self, **delta):
        self.clock.advance(**delta)
        await self.scheduler.tick()


@pytest.fixture
async def table(backend):
    store = await backend.open()
    clock = Clock()
    seeds = iter(range(7000, 9000))
    host = DeliveredHost(store, clock=clock, seed_source=lambda: next(seeds), render=fake_render)
    host.follow_gather_seconds = 0
    yield Table(host, clock, store)
    await store.close()


def waiting(row) -> list[int]:
    game = get_game(row.game)
    return [row.user_of(s) for s in sorted(game.to_act(row.state))]


def say(lines, lang="en") -> str:
    return "\n".join(render(lang, line) for line in lines)


async def play_first_legal(host, row, user):
    game = get_game(row.game)
    return await host.act(row.id, user, game.legal_actions(row.state, row.seat_of(user))[0])


# ---- quiet hours: the arithmetic ------------------------------------------------------------------
def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def test_quiet_hours_across_midnight():
    window = QuietHours.parse("23:00-08:00")
    assert window.text == "23:00-08:00"
    # Paris in winter is UTC+1: 22:30 UTC is 23:30 there (quiet until 08:00 Paris = 07:00 UTC).
    assert quiet_until(at("2026-12-01T22:30:00+00:00"), window, "Europe/Paris") == at("2026-12-02T07:00:00+00:00")
    assert quiet_until(at("2026-12-02T05:00:00+00:00"), window, "Europe/Paris") == at("2026-12-02T07:00:00+00:00")
    assert quiet_until(at("2026-12-02T07:00:00+00:00"), window, "Europe/Paris") is None  # the end is not quiet
    assert quiet_until(at("2026-12-02T12:00:00+00:00"), window, "Europe/Paris") is None
    day = QuietHours.parse("13-14")  # a window inside one day
    assert quiet_until(at("2026-12-02T13:30:00+00:00"), day, None) == at("2026-12-02T14:00:00+00:00")
    assert quiet_until(at("2026-12-02T12:59:59+00:00"), day, "UTC") is None


def test_quiet_hours_across_the_date_line():
    """Kiritimati (UTC+14) and Pago Pago (UTC-11) read the same instant 25 hours apart: two
    calendar days. 09:00 UTC on 1 December is 23:00 on the 1st in one and 22:00 on 30 November
    in the other; both are quiet, and each quiet period ends at 07:00 of its own next day."""
    window = QuietHours.parse("22:00-07:00")
    now = at("2026-12-01T09:00:00+00:00")
    assert local_wall(now, "Pacific/Kiritimati").date().isoformat() == "2026-12-01"
    assert local_wall(now, "Pacific/Pago_Pago").date().isoformat() == "2026-11-30"
    assert quiet_until(now, window, "Pacific/Kiritimati") == at("2026-12-01T17:00:00+00:00")  # 07:00 on the 2nd
    assert quiet_until(now, window, "Pacific/Pago_Pago") == at("2026-12-01T18:00:00+00:00")  # 07:00 on 1 Dec
    assert quiet_until(now, window, "Asia/Tokyo") is None  # 18:00 in Tokyo


def test_quiet_hours_over_a_clock_change():
    """Paris moves its clocks from 02:00 to 03:00 on 29 March 2026: a night from 01:00 to 08:00
    lasts six hours that night, and the end is 08:00 by the new offset (06:00 UTC)."""
    window = QuietHours.parse("01:00-08:00")
    assert quiet_until(at("2026-03-29T00:30:00+00:00"), window, "Europe/Paris") == at("2026-03-29T06:00:00+00:00")
    across_gap = QuietHours.parse("22:00-02:30")  # ends at a wall time that does not exist that night
    end = quiet_until(at("2026-03-28T23:00:00+00:00"), across_gap, "Europe/Paris")
    assert end is not None and end > at("2026-03-28T23:00:00+00:00")


def test_quiet_hours_and_zones_parse_or_refuse():
    assert QuietHours.parse("7-9").text == "07:00-09:00"
    assert QuietHours.parse("22:00-24:00").text == "22:00-00:00"
    for bad in ("23:00", "25:00-08:00", "08:00-08:00", "noon-dusk", "23:60-01:00"):
        with pytest.raises(ValueError):
            QuietHours.parse(bad)
    assert known_zone("asia/tokyo") == "Asia/Tokyo" and known_zone("Mars/Olympus") is None


# ---- quiet hours: settings ------------------------------------------------------------------------
async def test_quiet_settings_are_checked_before_anything_is_stored(table):
    host = table.host
    for quiet, zone, key in (("23:00", None, "quiet_syntax"), ("23:00-08:00", "Mars/Olympus", "tz_unknown"),
                             (None, "x" * 200, "tz_long")):
        with pytest.raises(ServiceError) as err:
            await host.set_quiet(ALICE, quiet, zone)
        assert err.value.key == key
        mine = await host.store.user_settings(ALICE)
        assert mine["quiet_hours"] is None and mine["time_zone"] is None
    reply = say((await host.set_quiet(ALICE, "２３：００-０８：００", "asia/tokyo")).reply)  # typed full-width
    assert "Asia/Tokyo" in reply and "23:00-08:00" in reply
    mine = await host.store.user_settings(ALICE)
    assert (mine["quiet_hours"], mine["time_zone"]) == ("23:00-08:00", "Asia/Tokyo")
    shown = say(await host.settings_lines(ALICE, 1), "ja")
    assert "Asia/Tokyo" in shown and "23:00-08:00" in shown
    await host.set_quiet(ALICE, "off", None)
    assert (await host.store.user_settings(ALICE))["quiet_hours"] is None


# ---- quiet hours: a ping held and delivered once at their end ------------------------------------
async def test_a_ping_is_held_through_quiet_hours_and_delivered_at_their_end_once(table):
    host, clock = table.host, table.clock
    # 09:00 UTC is 18:00 in Tokyo: Bob's quiet hours (23:00-08:00 Tokyo) begin at 14:00 UTC.
    await host.set_quiet(BOB, "23:00-08:00", "Asia/Tokyo")
    row = await started(host, deadline="3d")
    if waiting(row) == [BOB]:  # make Alice the one to move, so Bob's turn comes in his night
        clock.advance(minutes=1)
        await play_first_legal(host, row, BOB)
        row = await host.store.load(row.id)
    clock.now = at("2026-12-01T16:00:00+00:00")  # 01:00 in Tokyo
    outbox = await play_first_legal(host, row, ALICE)
    board = outbox.posts[-1]
    assert board.mentions == [] and BOB not in board.dm_turn  # named on the board, not pinged
    assert "quiet until 08:00 their time" in say(board.lines)
    status = say((await host.status(row.id, ALICE)).reply)
    assert "quiet until 08:00 their time (Asia/Tokyo" in status
    for _ in range(3):  # the night goes by: nothing reaches Bob
        await table.tick(hours=2)
    assert table.notices == [] and table.reminders == []
    await table.tick(hours=10)  # 08:00 in Tokyo: one message, once
    assert len(table.notices) == 1
    notice = table.notices[0]
    assert notice.user_id == BOB and f"#{row.id}" in say(notice.lines) and "your turn" in say(notice.lines)
    await table.tick(minutes=5)
    await table.tick(hours=1)
    assert len(table.notices) == 1


async def test_a_turn_played_meanwhile_is_not_announced_when_quiet_ends(table):
    host, clock = table.host, table.clock
    await host.set_quiet(BOB, "22:00-07:00", "UTC")
    row = await started(host, deadline="3d")
    if waiting(row) == [BOB]:
        await play_first_legal(host, row, BOB)
        row = await host.store.load(row.id)
    clock.now = at("2026-12-01T23:00:00+00:00")
    await play_first_legal(host, row, ALICE)  # Bob's turn, held
    row = await host.store.load(row.id)
    await play_first_legal(host, row, BOB)  # Bob plays from the board anyway, in his night
    await table.tick(hours=9)
    assert table.notices == []  # nothing held is still true: no stale notice


async def test_reminders_and_follow_notices_wait_for_quiet_hours(table):
    host, clock = table.host, table.clock
    row = await started(host, deadline="24h")
    await host.follow(row.id, CAROL)
    await host.set_quiet(CAROL, "08:00-12:00", "UTC")  # quiet now (09:00 UTC)
    await play_first_legal(host, row, waiting(row)[0])  # a new turn: Carol would hear of it
    row = await host.store.load(row.id)
    absent = waiting(row)[0]
    await host.set_quiet(absent, "20:00-23:00", "UTC")  # the half-way reminder (21:00) falls inside
    await table.tick(minutes=1)
    assert table.followers == []
    await table.tick(hours=3)  # 12:01: Carol's quiet hours are over, she hears of the turn under way
    assert [(n.user_id, n.game_ids) for n in table.followers] == [(CAROL, [row.id])]
    await table.tick(hours=9)  # 21:01: the reminder is due, and held
    assert table.reminders == [] and table.notices == []
    await table.tick(hours=2)  # 23:01: released as one message
    released = [n for n in table.notices if n.user_id == absent]
    assert len(released) == 1 and f"#{row.id}" in say(released[0].lines) and "deadline" in say(released[0].lines)
    await table.tick(hours=1)
    assert len(table.notices) == 1 and len(table.followers) == 1


async def test_a_deadline_does_not_run_out_in_quiet_hours(table):
    host, clock = table.host, table.clock
    row = await started(host, deadline="24h")
    assert row.settings["quiet_deadlines"] is True
    absent = waiting(row)[0]
    await host.set_quiet(absent, "06:00-12:00", "UTC")  # the deadline, 09:00 next day, falls inside
    await table.tick(hours=24, minutes=1)
    row = await host.store.load(row.id)
    assert await host.store.actions(row.id) == []  # nobody played for the sleeper
    assert row.deadline_at == "2026-12-02T13:00:00+00:00"  # their quiet end (12:00) plus an hour
    await table.tick(hours=4)
    assert len(await host.store.actions(row.id)) == 1  # then the timeout applies
    short = await started(host, users=(CAROL, DAVE), deadline="2h")
    assert short.settings["quiet_deadlines"] is False  # shorter deadlines run as before unless asked
    asked = await started(host, users=(CAROL, DAVE), deadline="2h", quiet_deadlines=True)
    assert asked.settings["quiet_deadlines"] is True


# ---- ping choices ---------------------------------------------------------------------------------
def board_of(outbox):
    return next(p for p in reversed(outbox.posts) if p.board_version is not None)


async def test_pings_every_turn_mention_the_waiting_player_too(table):
    host = table.host
    await host.set_pings(BOB, "every", None, None)
    row, _ = await host.create("squares", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en")
    await host.join(row.id, BOB)
    board = board_of(await host.start(row.id, ALICE))
    for _ in range(2):
        row = await host.store.load(row.id)
        # Bob hears of every turn; Alice (the default) only of hers.
        assert set(board.mentions) == {BOB} | set(waiting(row))
        assert ("a new turn has begun" in say(board.lines)) == (waiting(row) == [ALICE])
        board = board_of(await play_first_legal(host, row, waiting(row)[0]))


async def test_pings_before_my_turn_tell_the_next_seat(table):
    host = table.host
    users = (ALICE, BOB, CAROL)
    for u in users:
        await host.set_pings(u, "before", None, None)
    row, _ = await host.create("hostile", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en")
    for u in users[1:]:
        await host.join(row.id, u)
    board = board_of(await host.start(row.id, ALICE))
    row = await host.store.load(row.id)
    first = min(get_game("hostile").to_act(row.state))
    next_up = row.user_of((first + 1) % 3)
    assert set(board.mentions) == {row.user_of(first), next_up}
    assert say(board.lines).count("a new turn has begun") == 1


async def test_pings_none_and_via_dm_and_per_game_choices(table):
    host = table.host
    await host.set_pings(ALICE, "none", None, None)
    await host.set_pings(BOB, None, "dm", None)
    row, _ = await host.create("squares", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en")
    await host.join(row.id, BOB)
    outbox = await host.start(row.id, ALICE)
    row = await host.store.load(row.id)
    board = board_of(outbox)
    assert ALICE not in board.mentions and ALICE not in board.dm_turn
    if waiting(row) == [BOB]:
        assert BOB not in board.mentions and BOB in board.dm_turn  # a DM instead of the mention
    await host.set_game_pings(row.id, ALICE, "mine", "both", None)  # this game: pinged after all
    assert (await host._ping_choices(row.id, [ALICE]))[ALICE].mode == "mine"
    assert (await host._ping_choices(row.id + 1, [ALICE]))[ALICE].mode == "none"  # the default is kept
    if waiting(row) == [BOB]:
        board = board_of(await play_first_legal(host, row, BOB))
        assert ALICE in board.mentions and ALICE in board.dm_turn
    with pytest.raises(ServiceError) as err:
        await host.set_game_pings(row.id, CAROL, "every", None, None)
    assert err.value.key == "not_in_game"
    with pytest.raises(ServiceError) as err:
        await host.set_pings(ALICE, "loud", None, None)
    assert err.value.key == "ping_mode"


async def test_the_last_one_we_wait_for_is_told_once(table, secret_game):
    host = table.host
    row = await started(host, game="secretpick", deadline="24h")
    outbox = await host.act(row.id, ALICE, "pick2")
    assert [(n.user_id, n.game_turns[0][0]) for n in outbox.notices] == [(BOB, row.id)]
    assert "you are the last one" in say(outbox.notices[0].lines)
    assert BOB not in board_of(outbox).mentions  # the notice is his one ping for this board
    assert (await host.act(row.id, BOB, "pick2")).notices == []  # the step is complete (a tie): the next begins
    await host.set_pings(ALICE, None, None, False)
    assert (await host.act(row.id, BOB, "pick1")).notices == []  # Alice, last now, does not want the notice
    await host.act(row.id, ALICE, "pick1")
    await host.set_game_pings(row.id, BOB, "none", None, None)
    assert (await host.act(row.id, ALICE, "pick1")).notices == []  # nor Bob, who takes no pings here


async def test_reminders_follow_the_choices_and_go_once_the_turn_passed(table):
    host, clock = table.host, table.clock
    row = await started(host, deadline="24h")
    absent = waiting(row)[0]
    other = next(u for u in (ALICE, BOB) if u != absent)
    await host.set_pings(absent, None, "dm", None)
    await table.tick(hours=13)
    assert [(r.user_id, r.dm, r.channel) for r in table.reminders] == [(absent, True, False)]
    await host.notice_posted(5, 9001, list(zip(table.reminders[0].game_ids, table.reminders[0].turns)))
    outbox = await play_first_legal(host, row, absent)  # the turn passes: the reminder goes
    assert outbox.retire_notices == [(5, 9001)]
    row = await host.store.load(row.id)
    await host.set_game_pings(row.id, other, "none", None, None)
    await table.tick(hours=13)
    assert len(table.reminders) == 1  # the other player takes no pings in this game


async def test_a_daily_digest_at_nine_in_the_players_morning_once(table):
    host, clock = table.host, table.clock
    await host.set_pings(BOB, "digest", None, None)
    await host.set_quiet(BOB, None, "Asia/Tokyo")  # 09:00 UTC is 18:00 in Tokyo: past nine, due today
    clock.now = at("2026-12-01T00:00:00+00:00")  # 09:00 in Tokyo
    row = await started(host, deadline="3d")
    if waiting(row) != [BOB]:
        await play_first_legal(host, row, ALICE)
    board_row = await host.store.load(row.id)
    assert waiting(board_row) == [BOB]
    await table.tick(minutes=1)
    digests = [n for n in table.notices if n.user_id == BOB]
    assert len(digests) == 1 and f"#{row.id}" in say(digests[0].lines) and "daily digest" in say(digests[0].lines)
    await table.tick(hours=5)
    assert len([n for n in table.notices if n.user_id == BOB]) == 1  # once a day
    await table.tick(hours=19)  # the next morning in Tokyo
    assert len([n for n in table.notices if n.user_id == BOB]) == 2


# ---- draw offers and agreed ends ------------------------------------------------------------------
async def only_proposal(host, gid):
    return (await host.store.open_proposals(gid))[0]


async def test_a_draw_offer_declined_changes_nothing_and_accepted_ends_the_game_as_a_draw(table):
    host = table.host
    row = await started(host)
    before = await host.store.load(row.id)
    outbox = await host.propose_draw(row.id, ALICE)
    post = outbox.posts[0]
    assert post.mentions == [BOB] and post.proposal[1] == "draw" and "offers a draw" in say(post.lines)
    offer = await only_proposal(host, row.id)
    for user, key in ((ALICE, "proposal_own"), (CAROL, "not_in_game")):
        with pytest.raises(ServiceError) as err:
            await host.answer_proposal(row.id, user, offer.id, True)
        assert err.value.key == key
    with pytest.raises(ServiceError) as err:
        await host.propose_deadline(row.id, BOB, "pause")
    assert err.value.key == "proposal_pending"  # one at a time
    outbox = await host.answer_proposal(row.id, BOB, offer.id, False)
    assert "nothing changes" in say(outbox.posts[0].lines)
    assert [(e.game_id, e.proposal_id) for e in outbox.retire_proposals] == []  # not posted (no message yet)
    after = await host.store.load(row.id)
    assert (after.status, after.version, after.state) == ("active", before.version, before.state)
    with pytest.raises(ServiceError) as err:
        await host.answer_proposal(row.id, BOB, offer.id, True)
    assert err.value.key == "proposal_already_answered"
    # Offered again and accepted: a draw, in the log, the stats and the ratings.
    await host.propose_draw(row.id, BOB)
    offer = await only_proposal(host, row.id)
    await host.proposal_posted(offer.id, 4242)
    outbox = await host.answer_proposal(row.id, ALICE, offer.id, True)
    row = await host.store.load(row.id)
    assert row.status == "finished" and row.state["outcome"] == {"winners": [], "reason": "agreed", "draw": True}
    assert "Draw (by agreement)" in say(outbox.posts[-1].lines)
    assert [e.proposal_id for e in outbox.retire_proposals] == [offer.id]  # its buttons go
    assert (await host.store.actions(row.id))[-1].action == "agreed-end"
    assert {(u, won, drawn) for _, u, _, won, drawn in await host.store.stats(1)} == {(ALICE, 0, 1), (BOB, 0, 1)}
    changes = await host.store.rating_changes(row.id)
    assert abs(changes[f"user:{ALICE}"][2] - changes[f"user:{BOB}"][2]) < 1e-9  # a tie moves both alike
    history = say(await host.history(row.id))
    assert "agreed end" in history
    exported = await host.export(row.id, ALICE)
    assert b'"agreed-end"' in exported.reply_files[0][1]
    last = await host.replay(row.id, ALICE)  # the viewer opens on the last step
    assert "agreed to end the game" in say(last.reply) and "Draw (by agreement)" in say(last.reply)


async def test_an_agreed_end_with_a_seat_already_out_shares_first_place_among_the_rest(table):
    host = table.host
    row = await started(host, game="hostile", users=(ALICE, BOB, CAROL))
    await host.propose_draw(row.id, ALICE)
    offer = await only_proposal(host, row.id)
    assert sorted(row.user_of(s) for s in offer.needed) == [BOB, CAROL]
    await host.answer_proposal(row.id, BOB, offer.id, True)
    row = await host.store.load(row.id)
    assert row.status == "active"
    await host.answer_proposal(row.id, CAROL, offer.id, True)
    row = await host.store.load(row.id)
    assert row.status == "finished" and row.state["outcome"]["reason"] == "agreed"
    changes = await host.store.rating_changes(row.id)
    assert len({round(changes[f"user:{u}"][2], 9) for u in (ALICE, BOB, CAROL)}) == 1  # one shared place


async def test_an_agreed_end_leaves_a_retired_seat_behind(table, secret_game):
    row = await started(table.host, game="monsterhunter", users=(ALICE, BOB, CAROL))
    await table.host.resign(row.id, CAROL)  # with three players a resignation retires the seat
    row = await table.host.store.load(row.id)
    assert row.status == "active" and row.seat_of(CAROL) in get_game("monsterhunter").retired(row.state)
    with pytest.raises(ServiceError) as err:
        await table.host.propose_draw(row.id, CAROL)
    assert err.value.key == "consent_retired"
    await table.host.propose_draw(row.id, ALICE)
    offer = await only_proposal(table.host, row.id)
    assert [row.user_of(s) for s in offer.needed] == [BOB]  # only those still playing are asked
    await table.host.answer_proposal(row.id, BOB, offer.id, True)
    row = await table.host.store.load(row.id)
    assert row.status == "finished"
    assert sorted(row.state["outcome"]["winners"]) == sorted([row.seat_of(ALICE), row.seat_of(BOB)])
    results = {u: (won, drawn) for _, u, _, won, drawn in await table.host.store.stats(1)}
    assert results == {ALICE: (0, 1), BOB: (0, 1), CAROL: (0, 0)}
    changes = await table.host.store.rating_changes(row.id)
    assert changes[f"user:{CAROL}"][2] < changes[f"user:{ALICE}"][2]


# ---- deadline votes -------------------------------------------------------------------------------
async def test_a_paused_deadline_waits_until_resumed(table):
    host, clock = table.host, table.clock
    row = await started(host, deadline="24h")
    await host.propose_deadline(row.id, ALICE, "pause")
    vote = await only_proposal(host, row.id)
    clock.advance(hours=2)
    outbox = await host.answer_proposal(row.id, BOB, vote.id, True)
    row = await host.store.load(row.id)
    assert row.deadline_at is None and row.settings["paused"]["left"] == 22 * 3600
    assert outbox.posts[-1].quiet and outbox.posts[-1].board_version == row.version  # the board stays valid
    assert "paused" in say(outbox.posts[0].lines)
    await table.tick(days=5)
    assert await host.store.actions(row.id) == []  # no deadline ran out
    assert "Deadline paused" in say((await host.status(row.id, ALICE)).reply)
    await play_first_legal(host, row, waiting(row)[0])  # play goes on, the clock stays stopped
    row = await host.store.load(row.id)
    assert row.deadline_at is None
    with pytest.raises(ServiceError) as err:
        await host.propose_deadline(row.id, BOB, "pause")
    assert err.value.key == "deadline_paused"
    await host.propose_deadline(row.id, BOB, "resume")  # no vote needed: the time left comes back
    row = await host.store.load(row.id)
    assert "paused" not in row.settings and row.deadline_at == stamp_of(clock.now + timedelta(hours=22))
    with pytest.raises(ServiceError) as err:
        await host.propose_deadline(row.id, BOB, "resume")
    assert err.value.key == "deadline_not_paused"


def stamp_of(moment):
    return moment.astimezone(UTC).isoformat(timespec="seconds")


async def test_extend_and_advance_by_consent(table):
    host, clock = table.host, table.clock
    row = await started(host, deadline="24h")
    mover, slow = waiting(row)[0], next(u for u in (ALICE, BOB) if u != waiting(row)[0])
    with pytest.raises(ServiceError) as err:
        await host.propose_deadline(row.id, mover, "extend")
    assert err.value.key == "deadline_extend_by"
    await host.propose_deadline(row.id, slow, "extend", "12h")
    await host.answer_proposal(row.id, mover, (await only_proposal(host, row.id)).id, True)
    row = await host.store.load(row.id)
    assert row.deadline_at == "2026-12-02T21:00:00+00:00"
    await play_first_legal(host, row, mover)
    row = await host.store.load(row.id)
    with pytest.raises(ServiceError) as err:
        await host.propose_deadline(row.id, slow, "advance")  # the slow one is to act: not theirs to advance
    assert err.value.key == "advance_not_yet"
    await host.propose_deadline(row.id, mover, "advance")
    before = len(await host.store.actions(row.id))
    outbox = await host.answer_proposal(row.id, slow, (await only_proposal(host, row.id)).id, True)
    log = await host.store.actions(row.id)
    assert len(log) == before + 1 and log[-1].user_id is None and log[-1].seat == row.seat_of(slow)
    row = await host.store.load(row.id)
    assert row.seat_row(row.seat_of(slow)).absences == 0  # agreed to: no absence counted
    assert "deadline passes now" in say(board_of(outbox).lines)


async def test_a_vote_nobody_answers_expires_and_changes_nothing(table):
    host, clock = table.host, table.clock
    row = await started(host, deadline="3d")
    await host.propose_deadline(row.id, ALICE, "extend", "1d")
    vote = await only_proposal(host, row.id)
    await host.proposal_posted(vote.id, 777)
    await table.tick(hours=23)
    assert (await host.store.proposal(vote.id)).status == "open"
    await table.tick(hours=2)
    assert (await host.store.proposal(vote.id)).status == "expired"
    said = "\n".join(say(p.lines) for o in table.delivered for p in o.posts)
    assert "not answered in time: nothing changes" in said
    assert [e.proposal_id for o in table.delivered for e in o.retire_proposals] == [vote.id]
    assert (await host.store.load(row.id)).deadline_at == row.deadline_at
    with pytest.raises(ServiceError) as err:
        await host.answer_proposal(row.id, BOB, vote.id, True)
    assert err.value.key == "proposal_expired"
    await table.tick(hours=1)
    assert len([o for o in table.delivered if o.retire_proposals]) == 1  # expired once


async def test_a_vote_lapses_when_the_turn_passes(table):
    host = table.host
    row = await started(host, deadline="3d")
    mover = waiting(row)[0]
    other = next(u for u in (ALICE, BOB) if u != mover)
    await host.propose_deadline(row.id, other, "pause")
    vote = await only_proposal(host, row.id)
    await play_first_legal(host, row, mover)
    assert (await host.store.proposal(vote.id)).status == "lapsed"
    with pytest.raises(ServiceError) as err:
        await host.answer_proposal(row.id, mover, vote.id, True)
    assert err.value.key == "proposal_expired"


# ---- turn-time statistics -------------------------------------------------------------------------
async def test_time_to_act_per_player_per_game_and_per_server_from_the_log(table):
    host, clock = table.host, table.clock
    row = await started(host, deadline="3d")
    first, second = waiting(row)[0], next(u for u in (ALICE, BOB) if u != waiting(row)[0])
    for hours, user in ((1, first), (2, second), (1, first), (6, second)):  # after 1 h, 2 h, 1 h, 6 h
        clock.advance(hours=hours)
        row = await host.store.load(row.id)
        await play_first_legal(host, row, user)
    # The first move has no earlier entry to count from; then second: 2 h and 6 h, first: 1 h.
    times = sorted(await host.store.turn_times_in([row.id]))
    assert times == sorted([(second, 7200.0), (first, 3600.0), (second, 21600.0)])
    assert sorted(await host.store.turn_times(1)) == times and await host.store.turn_times(2) == []
    assert sorted(await host.store.turn_times(1, "squares")) == times and await host.store.turn_times(1, "osu") == []
    status = say((await host.status(row.id, first)).reply)
    assert f"<@{second}>: 4 h 0 min / 4 h 0 min over 2 turns" in status
    assert f"<@{first}>: 1 h 0 min / 1 h 0 min over 1 turn" in status
    stats = say(await host.stats_lines(1, first), "ja")
    assert f"<@{second}>：4時間0分 / 4時間0分（2手番）" in stats
    assert "3 h 0 min on average (median 2 h 0 min, 3 turns)" in say(await host.list_lines(1, first))
    assert "You take 4 h 0 min to act on average" in say(await host.mine_lines(second))
    # A stand-in's move is nobody's time.
    clock.advance(days=4)
    await table.tick()
    assert sorted(await host.store.turn_times_in([row.id])) == times


# ---- substitutes ----------------------------------------------------------------------------------
FIRST_SEAT = ["N1@a2", "a2-a3", "M1@b2", "b2-b3", "P2@c2", "c2-c3"]  # a quick SQUARESIV win for seat 0
SECOND_SEAT = ["N1@e5", "M1@d5", "M2@c5", "T2@b5", "W3@e4"]


async def test_a_player_hands_their_seat_and_the_substitute_plays_on(table):
    host = table.host
    row = await started(host, deadline="3d")
    holder = row.user_of(0)
    other = row.user_of(1)
    await host.act(row.id, holder, FIRST_SEAT[0])
    await host.act(row.id, other, SECOND_SEAT[0])
    for user, key in ((CAROL, "not_in_game"), (other, "substitute_seated")):  # not theirs to give; seated already
        with pytest.raises(ServiceError) as err:
            await host.offer_seat(row.id, user, DAVE if user == CAROL else other)
        assert err.value.key == key
    outbox = await host.offer_seat(row.id, holder, CAROL)
    post = outbox.posts[0]
    assert post.mentions == [CAROL] and post.proposal[1] == "substitute"
    offer = await only_proposal(host, row.id)
    for user in (holder, other, DAVE):
        with pytest.raises(ServiceError) as err:
            await host.answer_seat(row.id, user, offer.id, True)
        assert err.value.key == "substitute_not_you"
    before = await host.store.load(row.id)
    outbox = await host.answer_seat(row.id, CAROL, offer.id, True)
    row = await host.store.load(row.id)
    assert row.user_of(0) == CAROL and row.version == before.version + 1 and row.state == before.state
    assert "takes over" in say(board_of(outbox).lines) and board_of(outbox).mentions == [CAROL]
    with pytest.raises(ServiceError) as err:
        await host.act(row.id, holder, FIRST_SEAT[1])
    assert err.value.key == "not_in_game"
    await host.act(row.id, CAROL, FIRST_SEAT[1])
    history = say(await host.history(row.id))
    lines = history.splitlines()
    assert any(l.startswith(f"1. <@{holder}>") and f"`{FIRST_SEAT[0]}`" in l for l in lines), history
    assert any(l.startswith(f"3. <@{CAROL}>") and f"`{FIRST_SEAT[1]}`" in l for l in lines), history
    assert f"**A** ● blue: <@{CAROL}> takes over from <@{holder}>" in history
    assert history.index("takes over") < history.index(FIRST_SEAT[1])
    exported = await host.export(row.id, other)
    assert b'"substitutions"' in exported.reply_files[0][1] and b'"after": 2' in exported.reply_files[0][1]
    with pytest.raises(ServiceError) as err:
        await host.answer_seat(row.id, CAROL, offer.id, True)
    assert err.value.key == "proposal_expired"


async def test_the_creator_hands_on_a_seat_only_after_two_missed_deadlines(table):
    host, clock = table.host, table.clock
    row, _ = await host.create("squares", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en",
                               settings=make_settings(deadline="24h"))
    await host.join(row.id, BOB)
    await host.start(row.id, ALICE)
    row = await host.store.load(row.id)
    with pytest.raises(ServiceError) as err:
        await host.offer_seat(row.id, ALICE, CAROL, BOB)
    assert err.value.key == "substitute_too_soon"
    for _ in range(8):  # Bob never plays: his deadlines pass (Alice plays hers)
        row = await host.store.load(row.id)
        if row.seat_row(row.seat_of(BOB)).absences >= 2:
            break
        if waiting(row) == [ALICE]:
            await play_first_legal(host, row, ALICE)
        else:
            await table.tick(hours=25)
    row = await host.store.load(row.id)
    assert row.seat_row(row.seat_of(BOB)).absences == 2
    await host.offer_seat(row.id, ALICE, CAROL, BOB)
    offer = await only_proposal(host, row.id)
    outbox = await host.answer_seat(row.id, CAROL, offer.id, False)
    assert "declined" in say(outbox.posts[0].lines) and (await host.store.load(row.id)).user_of(row.seat_of(BOB)) == BOB
    await host.offer_seat(row.id, ALICE, CAROL, BOB)
    await host.answer_seat(row.id, CAROL, (await only_proposal(host, row.id)).id, True)
    row = await host.store.load(row.id)
    seat = row.seat_of(CAROL)
    assert seat is not None and row.seat_of(BOB) is None and row.seat_row(seat).absences == 0


async def test_an_offer_nobody_takes_expires(table):
    host = table.host
    row = await started(host, deadline="3d")
    await host.offer_seat(row.id, ALICE, CAROL)
    offer = await only_proposal(host, row.id)
    await table.tick(hours=25)
    assert (await host.store.proposal(offer.id)).status == "expired"
    with pytest.raises(ServiceError) as err:
        await host.answer_seat(row.id, CAROL, offer.id, True)
    assert err.value.key == "proposal_expired"
    assert (await host.store.load(row.id)).seat_of(CAROL) is None


async def test_the_seats_secrets_go_to_the_new_player_only(table, secret_game):
    host = table.host
    row = await started(host, game="secretpick", deadline="3d")
    await host.offer_seat(row.id, BOB, CAROL)
    outbox = await host.answer_seat(row.id, CAROL, (await only_proposal(host, row.id)).id, True)
    assert [p.user_id for p in outbox.privates] == [CAROL]  # the seat's panel, to the new player only
    with pytest.raises(ServiceError) as err:
        await host.panel(row.id, BOB)
    assert err.value.key == "not_in_game"
    assert (await host.panel(row.id, CAROL)).user_id == CAROL


async def test_ratings_credit_each_holder_for_the_part_they_played(table):
    host = table.host
    row = await started(host, deadline="3d")
    first, second = row.user_of(0), row.user_of(1)
    moves = []
    for i in range(len(FIRST_SEAT) + len(SECOND_SEAT)):
        seat = i % 2
        moves.append((seat, (FIRST_SEAT if seat == 0 else SECOND_SEAT)[i // 2]))
    for i, (seat, action) in enumerate(moves):
        if i == 4:  # after two moves of seat 0, Carol takes it over and plays its four others
            await host.offer_seat(row.id, first, CAROL)
            await host.answer_seat(row.id, CAROL, (await only_proposal(host, row.id)).id, True)
        row = await host.store.load(row.id)
        await host.act(row.id, row.user_of(seat), action)
    row = await host.store.load(row.id)
    assert row.status == "finished" and row.state["outcome"]["winners"] == [0]
    changes = await host.store.rating_changes(row.id)
    delta = {k: changes[k][2] - changes[k][0] for k in changes}
    assert set(delta) == {f"user:{first}", f"user:{CAROL}", f"user:{second}"}
    # Both started from the default rating: each gets the winner's change times their share.
    assert delta[f"user:{first}"] > 0 and abs(delta[f"user:{first}"] / delta[f"user:{CAROL}"] - 0.5) < 1e-9
    assert delta[f"user:{second}"] < 0
    stats = {(u, won) for _, u, _, won, _ in await host.store.stats(1)}
    assert stats == {(first, 1), (CAROL, 1), (second, 0)}


async def test_a_grace_period_after_a_missed_deadline_then_the_timeout(table):
    host = table.host
    row = await started(host, deadline="24h", grace="2h")
    assert row.settings["grace_hours"] == 2
    late = waiting(row)[0]
    await table.tick(hours=24, minutes=1)  # the deadline passed: a grace period and a ping, nothing played
    assert await host.store.actions(row.id) == []
    notices = [p for o in table.delivered for p in o.posts if late in p.mentions]
    assert len(notices) == 1 and "grace period of 2 h" in say(notices[0].lines)
    assert (await host.store.load(row.id)).deadline_at == "2026-12-02T11:01:00+00:00"
    await table.tick(hours=1)
    assert await host.store.actions(row.id) == []
    await table.tick(hours=1, minutes=1)  # the grace ran out too: the timeout applies, once
    log = await host.store.actions(row.id)
    assert len(log) == 1 and log[0].user_id is None
    assert (await host.store.load(row.id)).seat_row(row.seat_of(late)).absences == 1


async def test_pings_held_for_someone_who_takes_them_by_dm_arrive_as_one_dm(table):
    host, clock = table.host, table.clock
    await host.set_pings(BOB, None, "dm", None)
    await host.set_quiet(BOB, "22:00-07:00", "UTC")
    rows = []
    for creator in (ALICE, CAROL):  # two games, in two places
        row, _ = await host.create("squares", None, guild_id=1, channel_id=5 + creator, user_id=creator, locale="en",
                                   settings=make_settings(deadline="3d"))
        await host.join(row.id, BOB)
        await host.start(row.id, creator)
        row = await host.store.load(row.id)
        if waiting(row) == [BOB]:
            await play_first_legal(host, row, BOB)
        rows.append(await host.store.load(row.id))
    clock.now = at("2026-12-01T23:00:00+00:00")
    for row in rows:
        await play_first_legal(host, row, waiting(row)[0])
    await table.tick(hours=8, minutes=1)
    assert len(table.notices) == 1
    notice = table.notices[0]
    assert notice.dm and not notice.channel and {g for g, _ in notice.game_turns} == {r.id for r in rows}
