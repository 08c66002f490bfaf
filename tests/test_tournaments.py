"""Tournaments and leagues in the game host service (no Discord): every format from the first
command to the final standings, results from real games (resignations, a forfeit past the
deadline, an abandoned game), dropouts, late joiners and byes, a round paired twice or cut short
by a crash, multi-player tables, the league's games on request, and every refusal."""

from __future__ import annotations

import asyncio
import sqlite3
from itertools import combinations

import pytest

from bot.storage import postgres_tournaments as store_pg_tournaments, sqlite_tournaments as store_tournaments
from bot.i18n import render
from bot.service import GameHost, ServiceError, Where
from bot.service.tournaments import first_mover, game_tables
from bot.common.tournaments.standings import totals
from bot.storage.sqlite import Store
from tests.test_service import dump, fake_render, refused

GUILD, CHANNEL, OTHER_GUILD = 1, 5, 2
ORGANISER = 900
PLAYERS = list(range(101, 109))
HOME = Where(GUILD, CHANNEL, False)
NOW = "2026-11-21T00:00:00+00:00"


@pytest.fixture
async def host(tmp_path):
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    seeds = iter(range(1000, 9000))
    h = GameHost(store, clock=lambda: NOW, seed_source=lambda: next(seeds), render=fake_render)
    h.db_path = str(tmp_path / "t.sqlite3")
    yield h
    await store.close()


def text(outbox, lang="en") -> str:
    return "\n".join(render(lang, line) for post in outbox.posts for line in post.lines)


def reply(outbox, lang="en") -> str:
    return "\n".join(render(lang, line) for line in outbox.reply)


async def new(host, kind="swiss", game="squares", players=PLAYERS, **options) -> int:
    outbox = await host.tournament_new(game, kind, guild_id=GUILD, channel_id=CHANNEL, user_id=ORGANISER,
                                       locale="en", **options)
    tid = int(reply(outbox).split("#")[1].split()[0].rstrip("."))
    for p in players:
        await host.tournament_join(tid, p, where=HOME)
    return tid


async def tables(host, tid, round_=None):
    t = await host.store.load_tournament(tid)
    return [x for x in t.tables if round_ is None or x.round == round_]


async def finish_round(host, tid, winner=max, *, skip=()):
    """End every running game of the current round: the player ``winner`` picks wins (the others
    resign, one by one, as at a table of several), except the games in ``skip``."""
    t = await host.store.load_tournament(tid)
    for x in t.tables_of(t.round):
        if x.game_id is None or x.game_id in skip:
            continue
        best = winner(x.players)
        for loser in [p for p in x.players if p != best]:
            row = await host.store.load(x.game_id)
            if row.status == "active" and row.seat_of(loser) is not None:
                await host.resign(x.game_id, loser)
    return await host.tournament_tick()


async def test_an_eight_player_swiss_runs_to_its_final_standings_with_a_dropout_and_byes(host):
    tid = await new(host, rounds=3, deadline="12h", options="cap=6")
    outbox = await host.tournament_start(tid, ORGANISER, where=HOME)
    assert "Round 1 of 3" in text(outbox) and "Table 4" in text(outbox)
    first = await tables(host, tid, 1)
    assert len(first) == 4 and all(x.game_id for x in first)
    for x in first:  # each game: the tournament's options and deadline, started, in a thread of its own
        row = await host.store.load(x.game_id)
        assert row.status == "active" and sorted(row.user_ids) == sorted(x.players)
        assert row.options["cap"] == 6 and row.settings["deadline_hours"] == 12 and row.settings["own_thread"]
        assert row.deadline_at == "2026-11-21T12:00:00+00:00"
    boards = [p for p in outbox.posts if p.game_id]
    assert len(boards) == 4 and all(p.open_thread and p.image for p in boards)
    announcement = outbox.posts[0]
    assert announcement.announces == (tid, 1) and set(announcement.mentions) == set(PLAYERS)
    await host.announcement_done(tid, 1)
    assert await host.tournament_tick() == []  # nothing new: the round runs

    # Round 1 ends (higher ids win); the scheduler pairs round 2 and announces it with the standings.
    outboxes = await finish_round(host, tid)
    assert len(outboxes) == 1
    words = text(outboxes[0])
    assert "Results of round 1" in words and "Standings after round 1" in words and "Round 2 of 3" in words
    assert outboxes[0].posts[0].image  # the standings picture
    second = await tables(host, tid, 2)
    met = {frozenset(x.players) for x in first}
    assert not [x for x in second if frozenset(x.players) in met]  # nobody meets again
    t = await host.store.load_tournament(tid)
    # Winners of round 1 meet each other: pairing by score.
    winners = {max(x.players) for x in first}
    assert {frozenset(x.players) <= winners for x in second if x.game_id} >= {True}

    # A dropout before round 3: 7 players left, so someone has a bye.
    dropper = second[0].players[0]
    out = await host.tournament_leave(tid, dropper, where=HOME)
    assert "dropped out" in text(out) and any(p.game_id == second[0].game_id for p in out.posts)  # resigned
    assert (await host.store.load(second[0].game_id)).status == "finished"
    await host.announcement_done(tid, 2)
    outboxes = await finish_round(host, tid)
    third = await tables(host, tid, 3)
    byes = [x for x in third if x.note == "bye"]
    assert len(byes) == 1 and dropper not in {p for x in third for p in x.players}
    standings_before = (await host.store.load_tournament(tid))
    bye = byes[0].players[0]
    # the bye goes to the bottom of the field (pairing order: score, then rating)
    rows = totals([x for x in game_tables(standings_before) if x.round < 3])
    active = [p.user_id for p in standings_before.active(3)]
    assert rows[bye] == min(rows[p] for p in active)
    await host.announcement_done(tid, 3)

    # Round 3 ends: the tournament is over; the final standings and the winner are announced once.
    outboxes = await finish_round(host, tid)
    t = await host.store.load_tournament(tid)
    assert t.status == "finished" and len(outboxes) == 1
    final = text(outboxes[0])
    assert "Final standings" in final and "Winner of tournament" in final and "Buchholz" in final
    assert "(dropped out)" in final
    assert await host.tournament_tick() == []  # announced once (its claim still runs)
    rows = await host._standings(t)
    assert rows[0].points == 3.0 and rows[0].player == 108  # the highest id won every game
    assert sum(x.game_id is not None for x in t.tables) == 4 + 4 + 3
    # Ratings counted the tournament's games like any other.
    rated = await host.store.ratings_of(GUILD, "squares", [f"user:{p}" for p in PLAYERS])
    assert len(rated) == 8
    standings = await host.tournament_standings(tid, PLAYERS[0], where=HOME)
    assert standings.reply_image and "1. `#8` <@108> — points 3" in reply(standings)
    assert "1位`#8` <@108> — 3点" in reply(standings, "ja")


async def test_a_round_paired_twice_creates_one_set_of_games(host):
    tid = await new(host, players=PLAYERS[:4])
    await host.tournament_start(tid, ORGANISER, where=HOME)
    t = await host.store.load_tournament(tid)
    for x in t.tables_of(1):
        await host.resign(x.game_id, min(x.players))
    await host._record_results()
    games_before = len(await host.store.unposted_game_ids())
    # Two passes at once (two processes, or a retry racing the first): one round 2.
    await asyncio.gather(host._advance(tid), host._advance(tid))
    await host._advance(tid)  # and once more afterwards: nothing to do
    t = await host.store.load_tournament(tid)
    assert t.round == 2 and len(t.tables_of(2)) == 2
    assert len(await host.store.unposted_game_ids()) == games_before + 2


async def test_a_crash_while_pairing_leaves_nothing_and_the_rerun_pairs_once(host, monkeypatch):
    tid = await new(host, players=PLAYERS[:4])
    await host.tournament_start(tid, ORGANISER, where=HOME)
    t = await host.store.load_tournament(tid)
    for x in t.tables_of(1):
        await host.resign(x.game_id, min(x.players))
    await host._record_results()
    before = dump(host)

    def crash(name):
        if name == "store.tournament.before_commit":
            raise RuntimeError("killed")
    monkeypatch.setattr(store_tournaments, "crash_point", crash)
    monkeypatch.setattr(store_pg_tournaments, "crash_point", crash)
    with pytest.raises(RuntimeError):
        await host._advance(tid)
    assert dump(host) == before  # no tables, no games, no round 2
    monkeypatch.undo()
    outboxes = await host.tournament_tick()
    t = await host.store.load_tournament(tid)
    assert t.round == 2 and len(t.tables_of(2)) == 2 and len(outboxes) == 1


async def test_an_announcement_lost_with_its_process_is_posted_by_the_next_tick(host):
    tid = await new(host, players=PLAYERS[:4])
    await host.tournament_start(tid, ORGANISER, where=HOME)  # delivered nowhere: the process "died"
    assert await host.tournament_tick() == []  # the claim still runs
    later = "2026-11-21T00:11:00+00:00"
    host.clock = lambda: later
    again = await host.tournament_tick()
    assert len(again) == 1 and "Round 1 of 2" in text(again[0])
    # its boards were claimed with it: the generic repost does not post them a second time
    assert await host.pending_posts() == [] or all(p.game_id == 0 for p in await host.pending_posts())


async def test_a_player_absent_for_a_whole_round_forfeits(host):
    tid = await new(host, players=PLAYERS[:4], deadline="24h")
    await host.tournament_start(tid, ORGANISER, where=HOME)
    first = await tables(host, tid, 1)
    await finish_round(host, tid, skip={first[1].game_id})
    host.clock = lambda: "2026-11-22T01:00:00+00:00"  # a day passes: nobody moved in the second game
    for gid in await host.store.due_game_ids(host.now_stamp()):
        await host.timeout(gid)
    outboxes = await host.tournament_tick()
    words = text(outboxes[0])
    assert "let the deadline pass and forfeits" in words and "期限切れで不戦敗" in text(outboxes[0], "ja")
    x = (await tables(host, tid, 1))[1]
    assert x.note == "forfeit" and sorted(x.places) == [0, 1]


async def test_a_round_robin_meets_everyone_once_and_ranks_by_head_to_head(host):
    tid = await new(host, "roundrobin", players=PLAYERS[:4])
    await host.tournament_start(tid, ORGANISER, where=HOME)
    t = await host.store.load_tournament(tid)
    assert t.settings["rounds"] == 3
    for _ in range(3):
        await finish_round(host, tid)
    t = await host.store.load_tournament(tid)
    assert t.status == "finished"
    pairs = [frozenset(x.players) for x in t.tables]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, combinations(PLAYERS[:4], 2))))
    rows = await host._standings(t)
    assert [r.player for r in rows] == [104, 103, 102, 101] and [r.points for r in rows] == [3, 2, 1, 0]
    words = reply(await host.tournament_standings(tid, 101, where=HOME))
    assert "round robin" in words


async def test_a_round_robin_dropout_gives_walkovers(host):
    tid = await new(host, "roundrobin", players=PLAYERS[:4])
    await host.tournament_start(tid, ORGANISER, where=HOME)
    await host.tournament_drop(tid, ORGANISER, 101, where=HOME)
    await host.tournament_tick()
    await finish_round(host, tid)
    second = await tables(host, tid, 2)
    walkovers = [x for x in second if x.note == "walkover"]
    assert len(walkovers) == 1 and 101 not in walkovers[0].players and walkovers[0].places == [0]


async def test_an_elimination_bracket_with_byes_for_the_top_seeds(host):
    tid = await new(host, "elimination", players=PLAYERS[:5])
    outbox = await host.tournament_start(tid, ORGANISER, where=HOME)
    assert outbox.posts[0].image  # the bracket, from the first round
    first = await tables(host, tid, 1)
    assert [x.note for x in first].count("bye") == 3 and sum(1 for x in first if x.game_id) == 1
    t = await host.store.load_tournament(tid)
    assert t.settings["rounds"] == 3
    await finish_round(host, tid)
    await finish_round(host, tid)
    await finish_round(host, tid, winner=min)
    t = await host.store.load_tournament(tid)
    assert t.status == "finished" and [len(t.tables_of(r)) for r in (1, 2, 3)] == [4, 2, 1]
    final = t.tables_of(3)[0]
    rows = await host._standings(t)
    assert rows[0].player == min(final.players) and rows[0].rank == 1 and rows[1].rank == 2
    words = reply(await host.tournament_standings(tid, 101, where=HOME))
    assert "wins" in words


async def test_three_player_hostile_tables_score_by_placing(host):
    players = PLAYERS[:6]
    tid = await new(host, game="hostile", players=players, table=3, rounds=2)
    outbox = await host.tournament_start(tid, ORGANISER, where=HOME)
    first = await tables(host, tid, 1)
    assert [len(x.players) for x in first] == [3, 3]
    for x in first:
        assert len((await host.store.load(x.game_id)).seats) == 3
    # One player resigns at each table: the other two share the win (HOSTILE's rule).
    for x in first:
        await host.resign(x.game_id, min(x.players))
    await host.tournament_tick()
    t = await host.store.load_tournament(tid)
    rows = {r.player: r.points for r in await host._standings(t)}
    for x in first:
        assert rows[min(x.players)] == 0.0 and all(rows[p] == 0.75 for p in x.players if p != min(x.players))
    second = t.tables_of(2)
    assert [len(x.players) for x in second] == [3, 3] and "Table 2" in text(outbox)


async def test_swiss_seats_alternate_who_moves_first(host):
    """A two-player game whose seat 0 moves first: the pairing seats each table (the first listed
    plays seat 0), the one who moved first less often moves first, read back from the games."""
    tid = await new(host, rounds=3)
    await host.tournament_start(tid, ORGANISER, where=HOME)
    moves: dict[int, list[bool]] = {p: [] for p in PLAYERS}
    for round_ in (1, 2, 3):
        t = await host.store.load_tournament(tid)
        assert await host._first_moves(t) == {p: m for p, m in moves.items() if m}
        for x in t.tables_of(round_):
            row = await host.store.load(x.game_id)
            assert row.user_ids == x.players  # seat 0 = the first listed
            a, b = x.players
            balance = {p: sum(1 if m else -1 for m in moves[p]) for p in (a, b)}
            assert balance[a] <= balance[b]
            if balance[a] == balance[b] and moves[a]:
                assert not moves[a][-1] or moves[b][-1]  # equal: who moved second last time goes first
            moves[a].append(True)
            moves[b].append(False)
        await finish_round(host, tid, winner=lambda players: players[round_ % 2])


async def test_who_moved_first_is_read_from_the_games_seats(host):
    # An event paired before seats were balanced dealt them at random: the table lists the better
    # player first, the game's seat 0 may hold the other. The game tells.
    tid = await new(host, players=PLAYERS[:4], rounds=2)
    await host.tournament_start(tid, ORGANISER, where=HOME)
    t = await host.store.load_tournament(tid)
    table = t.tables_of(1)[0]
    a, b = table.players
    with sqlite3.connect(host.db_path) as db:  # swap the seats, as a random deal would have
        db.execute("UPDATE seats SET user_id = -1 WHERE game_id = ? AND user_id = ?", (table.game_id, a))
        db.execute("UPDATE seats SET user_id = ? WHERE game_id = ? AND user_id = ?", (a, table.game_id, b))
        db.execute("UPDATE seats SET user_id = ? WHERE game_id = ? AND user_id = -1", (b, table.game_id))
    await finish_round(host, tid)
    t = await host.store.load_tournament(tid)
    first = await host._first_moves(t)
    assert first[b] == [True] and first[a] == [False]


async def test_seats_of_a_game_without_a_first_player_stay_dealt_at_random(host):
    tid = await new(host, game="arena", players=PLAYERS[:4])
    t = await host.store.load_tournament(tid)
    assert await host._first_moves(t) is None
    squares = await host.store.load_tournament(await new(host, players=PLAYERS[:4]))
    assert await host._first_moves(squares) == {}


def test_the_first_mover_of_a_table_survives_a_hand_over():
    assert first_mover([1, 2], [2, 1]) == 2
    assert first_mover([1, 2], [9, 1]) == 2  # seat 0 went to a substitute: 1 sat second
    assert first_mover([1, 2], [9, 8]) is None
    assert first_mover([1, 2], []) is None


async def test_a_late_joiner_enters_a_swiss_event_in_the_next_round(host):
    tid = await new(host, players=PLAYERS[:4], rounds=3)
    await host.tournament_start(tid, ORGANISER, where=HOME)
    out = await host.tournament_join(tid, 777, where=HOME)
    assert "from round 2" in reply(out)
    await finish_round(host, tid)
    second = await tables(host, tid, 2)
    assert 777 in {p for x in second for p in x.players} and [x.note for x in second].count("bye") == 1
    assert 777 not in {p for x in await tables(host, tid, 1) for p in x.players}


async def test_a_league_pairs_players_who_ask_by_rating_and_keeps_a_table(host):
    outbox = await host.tournament_new("squares", "league", guild_id=GUILD, channel_id=CHANNEL, user_id=ORGANISER,
                                       locale="ja", games=2)
    tid = int(reply(outbox).split("#")[1].split()[0].rstrip("."))
    assert "リーグ" in text(outbox, "ja")
    for p in PLAYERS[:3]:
        await host.tournament_join(tid, p, where=HOME)
    assert await host.tournament_here(GUILD, league=True) == tid
    waiting = await host.league_play(tid, 101, where=HOME)
    assert "waiting" in reply(waiting)
    await refused(host, host.league_play(tid, 101, where=HOME), "league_already_waiting")
    paired = await host.league_play(tid, 102, where=HOME)
    t = await host.store.load_tournament(tid)
    assert len(t.tables) == 1 and sorted(t.tables[0].players) == [101, 102]
    assert all(p.waiting_since is None for p in t.players)
    assert any(p.open_thread for p in paired.posts) and "#" in reply(paired)
    await host.resign(t.tables[0].game_id, 101)
    await host.tournament_tick()
    # 101 asks again: 102 is not waiting, 103 is not either: 101 waits; 102 asks: not 101 again (met), waits
    await host.league_play(tid, 101, where=HOME)
    await host.league_play(tid, 102, where=HOME)
    t = await host.store.load_tournament(tid)
    assert len(t.tables) == 1
    await host.league_play(tid, 103, where=HOME)  # paired with one of them
    t = await host.store.load_tournament(tid)
    assert len(t.tables) == 2 and 103 in t.tables[1].players
    table = await host.tournament_standings(tid, 103, where=HOME)
    assert "1. `#2` <@102> — points 1" in reply(table) and table.reply_image
    await host.resign(t.tables[1].game_id, 103)
    await refused(host, host.league_play(tid, 102 if 102 in t.tables[1].players else 101, where=HOME),
                  "league_done")
    out = await host.tournament_leave(tid, 103, where=HOME)
    assert "dropped out" in text(out)
    await refused(host, host.league_play(tid, 103, where=HOME), "tournament_dropped")


async def test_what_a_player_reads_about_a_league_names_a_league(host):
    """Refusals and messages shared with tournaments name a league when the thing is one (and a
    ``/league`` command's "not here" names one too), in both languages."""
    lid = await new(host, "league", players=PLAYERS[:2])
    read = []

    async def refusal(coro, key):
        read.append((await refused(host, coro, key)).text)

    await refusal(host.tournament_join(lid + 50, 555, where=HOME, league=True), "tournament_not_found")
    await refusal(host.tournament_standings(lid, 555, where=ELSEWHERE, league=True), "tournament_not_found")
    await refusal(host.tournament_join(lid, PLAYERS[0], where=HOME, league=True), "tournament_already_joined")
    await refusal(host.league_play(lid, 555, where=HOME), "not_in_tournament")
    await refusal(host.tournament_drop(lid, ORGANISER, 555, where=HOME), "tournament_not_entrant")
    await refusal(host.tournament_start(lid, ORGANISER, where=HOME), "tournament_started")
    await refusal(host.tournament_abandon(lid, PLAYERS[0], where=HOME), "not_organiser")
    for outbox in (await host.tournament_join(lid, PLAYERS[2], where=HOME, league=True),
                   await host.tournament_leave(lid, PLAYERS[2], where=HOME, league=True),
                   await host.tournament_drop(lid, ORGANISER, PLAYERS[1], where=HOME)):
        read += outbox.reply[:1] + outbox.posts[0].lines
    read += (await host.tournament_standings(lid, PLAYERS[0], where=HOME, league=True)).reply[:1]
    await refusal(host.tournament_leave(lid, PLAYERS[2], where=HOME, league=True), "tournament_dropped")
    abandoned = await host.tournament_abandon(lid, ORGANISER, where=HOME)
    read += abandoned.reply[:1] + abandoned.posts[0].lines[:1]
    await refusal(host.tournament_join(lid, 556, where=HOME, league=True), "tournament_abandoned")
    for lang, league, tournament in (("en", "league", "tournament"), ("ja", "リーグ", "大会")):
        for line in read:
            words = render(lang, line).lower()
            assert league in words and tournament not in words, (lang, line.key, words)


async def test_refusals_are_clear_and_change_nothing(host):
    with pytest.raises(ServiceError) as err:
        await host.tournament_new("squares", "swiss", guild_id=None, channel_id=9, user_id=1, locale="en")
    assert err.value.key == "tournament_needs_server"
    for kind, options, key in (("roundrobin", {"rounds": 3}, "tournament_rounds_swiss_only"),
                               ("swiss", {"table": 3}, "tournament_table_size"),
                               ("elimination", {"table": 4}, "tournament_table_size"),
                               ("swiss", {"options": "cap=banana"}, None)):
        with pytest.raises(ServiceError) as err:
            await host.tournament_new("squares", kind, guild_id=GUILD, channel_id=CHANNEL, user_id=1, locale="en",
                                      **options)
        assert key is None or err.value.key == key
    with pytest.raises(ServiceError) as err:
        await host.tournament_new("osu", "roundrobin", guild_id=GUILD, channel_id=CHANNEL, user_id=1, locale="en",
                                  table=4)
    assert err.value.key == "tournament_two_players"
    tid = await new(host, players=PLAYERS[:1])
    await refused(host, host.tournament_join(tid, PLAYERS[0], where=HOME), "tournament_already_joined")
    await refused(host, host.tournament_start(tid, ORGANISER, where=HOME), "tournament_too_few")
    await refused(host, host.tournament_start(tid, PLAYERS[0], where=HOME), "not_organiser")
    await refused(host, host.tournament_leave(tid, 555, where=HOME), "not_in_tournament")
    await refused(host, host.league_play(tid, PLAYERS[0], where=HOME), "league_not_a_league")
    # /league join, table and leave given a tournament's number refuse it (join used to enter it)
    await refused(host, host.tournament_join(tid, 555, where=HOME, league=True), "league_not_a_league")
    await refused(host, host.tournament_standings(tid, 555, where=HOME, league=True), "league_not_a_league")
    await refused(host, host.tournament_leave(tid, PLAYERS[0], where=HOME, league=True), "league_not_a_league")
    await refused(host, host.tournament_standings(tid + 50, 1, where=HOME), "tournament_not_found")
    rr = await new(host, "roundrobin", players=PLAYERS[:2])
    await host.tournament_start(rr, ORGANISER, where=HOME)
    await refused(host, host.tournament_join(rr, 555, where=HOME), "tournament_running")
    await refused(host, host.tournament_start(rr, ORGANISER, where=HOME), "tournament_started")
    await host.tournament_abandon(rr, ORGANISER, where=HOME)
    await refused(host, host.tournament_abandon(rr, ORGANISER, where=HOME), "tournament_abandoned")
    await refused(host, host.tournament_join(rr, 556, where=HOME), "tournament_abandoned")
    assert await host.tournament_here(GUILD, league=False) == tid  # the one still open here
    await new(host, players=())
    with pytest.raises(ServiceError) as err:
        await host.tournament_here(GUILD, league=False)
    assert err.value.key == "tournament_which"
    with pytest.raises(ServiceError) as err:
        await host.tournament_here(GUILD, league=True)
    assert err.value.key == "league_none_here"


# ---- who may, and where ---------------------------------------------------------------------------
ELSEWHERE = Where(OTHER_GUILD, 66, True)  # another server's admin
ADMIN_HERE = Where(GUILD, 6, True)
DM = Where(None, None, False)


async def test_an_organisers_rights_are_in_their_server_only(host):
    tid = await new(host, players=PLAYERS[:3])
    for op in (host.tournament_start(tid, ORGANISER, where=ELSEWHERE), host.tournament_abandon(tid, 555, where=ELSEWHERE),
               host.tournament_join(tid, 555, where=ELSEWHERE), host.tournament_standings(tid, 555, where=ELSEWHERE),
               host.tournament_drop(tid, 555, PLAYERS[0], where=ELSEWHERE)):
        await refused(host, op, "tournament_not_found")  # as if it did not exist
    await refused(host, host.tournament_standings(tid, 555, where=DM), "tournament_not_found")
    assert (await host.tournament_standings(tid, PLAYERS[0], where=DM)).reply  # its players from a DM
    await refused(host, host.tournament_abandon(tid, PLAYERS[0], where=HOME), "not_organiser")
    await refused(host, host.tournament_drop(tid, PLAYERS[0], PLAYERS[1], where=HOME), "not_organiser")
    # An admin of this server may; the organiser may.
    await host.tournament_drop(tid, 555, PLAYERS[2], where=ADMIN_HERE)
    await host.tournament_start(tid, ORGANISER, where=HOME)
    await host.tournament_abandon(tid, 555, where=ADMIN_HERE)
    assert (await host.store.load_tournament(tid)).status == "abandoned"


async def test_tournaments_on_postgresql_too(host_on_each_backend):
    host = host_on_each_backend
    tid = await new(host, players=PLAYERS[:5], rounds=2)
    await host.tournament_start(tid, ORGANISER, where=HOME)
    await finish_round(host, tid)
    await asyncio.gather(host._advance(tid), host._advance(tid))
    await finish_round(host, tid)
    t = await host.store.load_tournament(tid)
    assert t.status == "finished" and [len(t.tables_of(r)) for r in (1, 2)] == [3, 3]
    assert sum(x.note == "bye" for x in t.tables) == 2 and len({x.players[0] for x in t.tables if x.note == "bye"}) == 2


async def test_the_pictures_are_drawn_for_real(tmp_path):
    """With the real renderers (not the tests' stand-in): the standings and bracket PNGs."""
    import io

    import renderers
    from PIL import Image

    store = await Store.open(str(tmp_path / "real.sqlite3"))
    seeds = iter(range(1000, 2000))
    host = GameHost(store, clock=lambda: NOW, seed_source=lambda: next(seeds), render=renderers.render)
    try:
        for kind, count in (("elimination", 5), ("swiss", 4)):
            tid = await new(host, kind, players=PLAYERS[:count])
            outbox = await host.tournament_start(tid, ORGANISER, where=HOME)
            if kind == "elimination":
                assert Image.open(io.BytesIO(outbox.posts[0].image)).format == "PNG"
            await finish_round(host, tid)
            standings = await host.tournament_standings(tid, PLAYERS[0], where=HOME)
            image = Image.open(io.BytesIO(standings.reply_image))
            assert image.format == "PNG" and image.width == 800
    finally:
        await store.close()


async def test_a_large_fields_announcement_keeps_every_pairing_within_discords_limit(host):
    from bot.discord_app.components import MAX_V2_TEXT
    from bot.discord_app.delivery import join_lines

    players = list(range(2001, 2065))
    tid = await new(host, players=players)
    await host.tournament_start(tid, ORGANISER, where=HOME)
    await host.announcement_done(tid, 1)
    outboxes = await finish_round(host, tid)
    post = outboxes[0].posts[0]
    for lang in ("en", "ja"):
        shown = join_lines(lang, post.lines, MAX_V2_TEXT)
        assert len(shown) <= MAX_V2_TEXT
        t = await host.store.load_tournament(tid)
        assert all(f"#{x.game_id}" in shown for x in t.tables_of(2))  # every pairing of the new round
    assert len(post.mentions) == 64
