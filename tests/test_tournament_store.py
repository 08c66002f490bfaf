"""Tournaments in storage, on SQLite and PostgreSQL (PostgreSQL with TEST_DATABASE_URL): a round's
tables and games are written in one transaction or not at all, a stale or repeated pairing
writes nothing, results are recorded once, announcements are claimed once across processes."""

from __future__ import annotations

import pytest

from bot.storage import postgres_tournaments as store_pg_tournaments, sqlite_tournaments as store_tournaments
from bot.storage.rows import Draft, new_game_row
from bot.storage.rows import (EntrantRow, TableRow, TournamentChanged, TournamentDraft, TournamentNotFound,
                              TournamentRow)

NOW = "2026-11-21T10:00:00+00:00"


@pytest.fixture
async def store(backend):
    s = await backend.open()
    yield s
    await s.close()


def new_tournament(kind="swiss") -> TournamentRow:
    return TournamentRow(id=None, guild_id=1, channel_id=2, creator_id=10, kind=kind, game="squares",
                         options={"cap": 8}, settings={"deadline_hours": 24, "table": 2}, status="open", round=0,
                         version=0, stage=0, announced=0, locale="ja", created_at=NOW, updated_at=NOW)


async def with_players(store, users=(10, 20, 30, 40)) -> TournamentRow:
    draft = TournamentDraft.new(new_tournament())
    for i, u in enumerate(users, 1):
        draft.add(EntrantRow(u, i, NOW))
    return await store.save_tournament(draft, [], NOW)


def game_draft(users) -> Draft:
    row = new_game_row(game="squares", guild_id=1, channel_id=2, creator_id=10, options={"cap": 8}, locale="ja", now=NOW)
    draft = Draft.new(row)
    draft.replace_seats(list(users), NOW)
    row.state, row.seed, row.status = {"n": 0}, 7, "active"
    draft.bump()
    return draft


def first_round(row: TournamentRow) -> tuple[TournamentDraft, list[Draft]]:
    draft = TournamentDraft.of(row)
    draft.row.status, draft.row.round = "running", 1
    draft.bump(announce=True)
    games = [game_draft((10, 20)), game_draft((30, 40))]
    for i, users in enumerate(((10, 20), (30, 40))):
        draft.table(TableRow(1, i + 1, list(users), new_game=i))
    return draft, games


async def game_count(store) -> int:
    return len(await store.unposted_game_ids())  # every game here is saved and never posted


async def test_a_tournament_round_trips_with_its_players(store):
    row = await with_players(store)
    again = await store.load_tournament(row.id)
    assert again == row and [p.user_id for p in row.players] == [10, 20, 30, 40]
    assert row.options == {"cap": 8} and row.settings["table"] == 2 and row.version == 0
    assert await store.tournament_ids_in_guild(1) == [row.id] and await store.tournament_ids_in_guild(3) == []
    with pytest.raises(TournamentNotFound):
        await store.load_tournament(row.id + 100)


async def test_a_round_and_its_games_are_saved_together_and_only_once(store):
    row = await with_players(store)
    draft, games = first_round(row)
    saved = await store.save_tournament(draft, games, NOW)
    assert saved.round == 1 and saved.status == "running" and saved.version == 1 and saved.stage == 1
    tables = saved.tables_of(1)
    assert [t.players for t in tables] == [[10, 20], [30, 40]]
    assert all(t.game_id for t in tables) and [t.game_id for t in tables] == [g.row.id for g in games]
    for t in tables:
        assert (await store.load(t.game_id)).user_ids == t.players
    # The same round paired again from the row loaded before (a rerun after a crash, a second
    # process): refused by the version, and no second set of games.
    again, more = first_round(row)
    with pytest.raises(TournamentChanged):
        await store.save_tournament(again, more, NOW)
    assert all(g.row.id is None for g in more)
    assert await game_count(store) == 2
    assert len((await store.load_tournament(row.id)).tables) == 2


async def test_a_crash_before_the_commit_leaves_no_table_and_no_game(store, monkeypatch):
    row = await with_players(store)

    def crash(name):
        if name == "store.tournament.before_commit":
            raise RuntimeError("power cut")
    monkeypatch.setattr(store_tournaments, "crash_point", crash)
    monkeypatch.setattr(store_pg_tournaments, "crash_point", crash)
    draft, games = first_round(row)
    with pytest.raises(RuntimeError):
        await store.save_tournament(draft, games, NOW)
    assert await store.load_tournament(row.id) == row and await game_count(store) == 0
    monkeypatch.undo()
    draft, games = first_round(row)
    assert len((await store.save_tournament(draft, games, NOW)).tables) == 2 and await game_count(store) == 2


async def test_entrants_are_added_changed_and_removed(store):
    row = await with_players(store)
    draft = TournamentDraft.of(row)
    draft.remove(40)
    draft.change(30, dropped_round=2, seed=3)
    draft.add(EntrantRow(50, 5, NOW, joined_round=2))
    draft.bump()
    saved = await store.save_tournament(draft, [], NOW)
    assert [p.user_id for p in saved.players] == [10, 20, 30, 50]
    assert saved.entrant(30).dropped_round == 2 and saved.entrant(30).seed == 3
    assert [p.user_id for p in saved.active(2)] == [10, 20, 50] and [p.user_id for p in saved.active(1)] == [10, 20, 30]


async def test_results_are_recorded_once_and_a_finished_round_is_found(store):
    row = await with_players(store)
    draft, games = first_round(row)
    saved = await store.save_tournament(draft, games, NOW)
    assert await store.unrecorded_tables() == [] and await store.finished_round_ids() == []
    first = await store.load(saved.tables[0].game_id)
    ended = Draft.of(first)
    ended.row.status = "finished"
    ended.bump()
    await store.save(ended, NOW)
    assert await store.unrecorded_tables() == [(row.id, 1, 1, first.id)]
    assert await store.record_table(row.id, 1, 1, [0, 1], None)
    assert not await store.record_table(row.id, 1, 1, [1, 0], None)  # once
    assert await store.unrecorded_tables() == [] and await store.finished_round_ids() == []
    assert await store.record_table(row.id, 1, 2, [], "void")
    assert await store.finished_round_ids() == [row.id]
    tables = (await store.load_tournament(row.id)).tables
    assert [(t.places, t.note) for t in tables] == [([0, 1], None), ([], "void")]


async def test_an_announcement_is_claimed_once_across_processes(backend):
    one, two = await backend.open(), await backend.open()
    try:
        row = await with_players(one)
        draft, games = first_round(row)
        await one.save_tournament(draft, games, NOW)
        assert await one.unannounced_tournament_ids(NOW) == [row.id]
        until = "2026-11-21T10:10:00+00:00"
        claims = [await one.claim_announcement(row.id, 1, NOW, until), await two.claim_announcement(row.id, 1, NOW, until)]
        assert claims == [True, False]
        assert await two.unannounced_tournament_ids(NOW) == []  # claimed: not due meanwhile
        assert await two.claim_announcement(row.id, 1, until, "2026-11-21T10:20:00+00:00")  # the lease ran out
        await two.announcement_done(row.id, 1)
        assert await one.unannounced_tournament_ids(until) == []
        assert not await one.claim_announcement(row.id, 1, "2027-01-01T00:00:00+00:00", "2027-01-02T00:00:00+00:00")
    finally:
        await one.close()
        await two.close()


async def test_ratings_are_read_for_the_players_asked(store):
    from tests.test_store import new_active

    game = await new_active(store, users=(10, 20))
    draft = Draft.of(game)
    draft.row.status = "finished"
    draft.rating = [(("user:10",), 0), (("user:20",), 1)]
    draft.bump()
    await store.save(draft, NOW)
    found = await store.ratings_of(1, "squares", ["user:10", "user:20", "user:30"])
    assert set(found) == {"user:10", "user:20"} and found["user:10"][0] > found["user:20"][0]
    assert await store.ratings_of(2, "squares", ["user:10"]) == {}


async def test_the_schedulers_tournament_queries_search_an_index(tmp_path):
    """Every scheduler tick asks these: each plan searches an index, never scans a whole table."""
    from bot.storage.sqlite import Store

    store = await Store.open(str(tmp_path / "hot.sqlite3"))
    row = await with_players(store)
    draft, games = first_round(row)
    await store.save_tournament(draft, games, NOW)
    seen: list[str] = []
    await store._run(lambda c: c.set_trace_callback(seen.append))
    await store.unrecorded_tables()
    await store.finished_round_ids()
    await store.unannounced_tournament_ids(NOW)
    await store.tournament_ids_in_guild(1)
    await store._run(lambda c: c.set_trace_callback(None))
    assert len(seen) == 4
    for sql in seen:
        plan = await store._run(lambda c: [r[-1] for r in c.execute("EXPLAIN QUERY PLAN " + sql)])
        assert not [step for step in plan if step.startswith("SCAN") and "USING" not in step], (sql, plan)
    await store.close()


async def test_seat_holders_reads_each_games_seats_in_order(store):
    row = await with_players(store)
    draft, games = first_round(row)
    games[1].replace_seats([40, 30], NOW)  # the second game seats its players the other way round
    await store.save_tournament(draft, games, NOW)
    ids = [g.row.id for g in games]
    assert await store.seat_holders(ids + [999_999]) == {ids[0]: [10, 20], ids[1]: [40, 30]}
    assert await store.seat_holders([]) == {}
