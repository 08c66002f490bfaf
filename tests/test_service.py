"""The game host service end to end on a real SQLite file, without Discord."""

from __future__ import annotations

import asyncio
import gc
import sqlite3

import pytest

from bot.i18n import catalogue, placeholders, render
from games import get_game
from bot.service import GameHost, ServiceError, Where
from bot.storage.sqlite import Store

ALICE, BOB, CAROL = 111, 222, 333


def fake_render(game, view):
    return b"PNG:" + repr(sorted(view)).encode()


@pytest.fixture
async def host(tmp_path):
    store = await Store.open(str(tmp_path / "svc.sqlite3"))
    seeds = iter(range(1000, 2000))
    h = GameHost(store, clock=lambda: "2026-11-21T00:00:00+00:00", seed_source=lambda: next(seeds),
                 render=fake_render)
    h.db_path = str(tmp_path / "svc.sqlite3")
    yield h
    await store.close()


def dump(host) -> str:
    if getattr(host, "dump_database", None):  # a host on PostgreSQL (tests/conftest.py)
        return host.dump_database()
    with sqlite3.connect(host.db_path) as db:
        return "\n".join(db.iterdump())


async def refused(host, coro, key):
    before = dump(host)
    with pytest.raises(ServiceError) as err:
        await coro
    assert err.value.key == key, err.value.key
    assert dump(host) == before, "a refusal changed stored bytes"
    return err.value


async def started(host, game="squares", options=None, users=(ALICE, BOB)):
    row, _ = await host.create(game, options, guild_id=1, channel_id=5, user_id=users[0], locale="en")
    for u in users[1:]:
        await host.join(row.id, u)
    outbox = await host.start(row.id, users[0])
    return (await host.store.load(row.id)), outbox


def player(row, seat):
    return row.user_of(seat)


async def test_lobby_flow_and_refusals(host):
    row, outbox = await host.create("squaresiv", "cap=6", guild_id=1, channel_id=5, user_id=ALICE, locale="ja")
    assert row.game == "squares" and row.options["cap"] == 6 and row.status == "lobby"
    assert outbox.posts[0].lobby
    await refused(host, host.join(row.id, ALICE), "already_joined")
    await refused(host, host.start(row.id, ALICE), "not_enough_players")
    await host.join(row.id, BOB)
    await refused(host, host.join(row.id, CAROL), "lobby_full")
    await refused(host, host.start(row.id, CAROL), "not_in_game")
    await refused(host, host.act(row.id, ALICE, "T2@b2"), "game_not_started")
    await refused(host, host.start(row.id, BOB), "not_starter")  # the creator starts the lobby
    outbox = await host.start(row.id, ALICE)
    assert outbox.posts[0].lobby is False and outbox.posts[0].replaces_message_id == row.board_message_id
    post = outbox.posts[-1]
    assert post.image and post.controls and post.board_version is not None
    row = await host.store.load(row.id)
    assert row.status == "active" and sorted(row.user_ids) == [ALICE, BOB]
    assert post.mentions == [player(row, 0)]
    await refused(host, host.join(row.id, CAROL), "not_in_lobby")


async def test_create_refuses_unknown_games_and_options(host):
    await refused(host, host.create("chess", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en"),
                  "unknown_game")
    await refused(host, host.create("squares", "cap=99", guild_id=1, channel_id=5, user_id=ALICE, locale="en"),
                  "option_out_of_range")
    await refused(host, host.create("squares", "colour=red", guild_id=1, channel_id=5, user_id=ALICE,
                                    locale="en"), "option_unknown")
    await refused(host, host.create("squares", "cap", guild_id=1, channel_id=5, user_id=ALICE, locale="en"),
                  "option_syntax")


async def test_leaving_the_last_human_closes_the_lobby(host):
    row, _ = await host.create("squares", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en")
    await host.join(row.id, BOB)
    await host.leave(row.id, ALICE)
    assert (await host.store.load(row.id)).user_ids == [BOB]
    await host.leave(row.id, BOB)
    assert (await host.store.load(row.id)).status == "abandoned"


async def test_a_legal_action_is_saved_with_its_log_row(host):
    row, _ = await started(host)
    first = player(row, 0)
    outbox = await host.act(row.id, first, "T2@b2", seen_version=row.version)
    after = await host.store.load(row.id)
    assert after.version == row.version + 1 and after.state["board"] == {"b2": [0, "T2"]}
    assert [(a.seat, a.action) for a in await host.store.actions(row.id)] == [(0, "T2@b2")]
    post = outbox.posts[0]
    assert post.mentions == [player(row, 1)] and post.controls.version == after.version
    assert any(line.key == "event.squares.placed" for line in post.lines)


async def test_typed_notation_is_canonicalised(host):
    row, _ = await started(host)
    await host.act(row.id, player(row, 0), "  t2@B2 ")
    assert [a.action for a in await host.store.actions(row.id)] == ["T2@b2"]


async def test_every_kind_of_bad_input_changes_nothing(host):
    row, _ = await started(host)
    first, second = player(row, 0), player(row, 1)
    await refused(host, host.act(row.id, second, "T2@b4"), "not_your_turn")
    await refused(host, host.act(row.id, CAROL, "T2@b2"), "not_in_game")
    await refused(host, host.act(row.id, first, "T2@b3"), "squaresiv.not_home")
    await refused(host, host.act(row.id, first, "hello"), "bad_notation")
    await refused(host, host.act(row.id, first, "T2@b2", seen_version=row.version + 5), "stale")
    await refused(host, host.act(999, first, "T2@b2"), "game_not_found")


async def test_a_double_click_applies_once(host):
    row, _ = await started(host)
    first = player(row, 0)
    await host.act(row.id, first, "T2@b2", seen_version=row.version)
    await refused(host, host.act(row.id, first, "T2@b2", seen_version=row.version), "stale")
    # A board is valid only for the position it was drawn from, for every seat.
    await refused(host, host.act(row.id, player(row, 1), "T2@b4", seen_version=row.version), "stale")
    await host.act(row.id, player(row, 1), "T2@b4", seen_version=row.version + 1)


async def test_simultaneous_clicks_apply_exactly_once(host):
    row, _ = await started(host)
    first = player(row, 0)
    results = await asyncio.gather(
        host.act(row.id, first, "T2@b2", seen_version=row.version),
        host.act(row.id, first, "T5@c2", seen_version=row.version),
        return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(r.key == "stale" for r in results if isinstance(r, ServiceError))
    assert len(await host.store.actions(row.id)) == 1


async def test_two_hosts_on_one_file_apply_exactly_once(host, tmp_path):
    """Two bot processes sharing the database: the version check, not the lock, decides."""
    other = GameHost(await Store.open(host.db_path), render=fake_render)
    try:
        row, _ = await started(host)
        first = player(row, 0)
        results = await asyncio.gather(
            host.act(row.id, first, "T2@b2", seen_version=row.version),
            other.act(row.id, first, "T5@c2", seen_version=row.version), return_exceptions=True)
        assert sum(not isinstance(r, Exception) for r in results) == 1
        assert len(await host.store.actions(row.id)) == 1
    finally:
        await other.store.close()


async def test_the_board_is_drawn_while_the_action_is_saved_once_and_from_the_saved_state(host, monkeypatch):
    """The public board starts drawing before the save commits (issue #11): it is the board of
    the saved state, drawn once per action. (A save that loses to another process raises, see
    test_two_hosts_on_one_file_apply_exactly_once: its drawing is dropped.)"""
    drawn: list[dict] = []
    before_commit: list[int] = []

    def counting(game, view):
        drawn.append(view)
        return fake_render(game, view)
    host.render = counting
    real_save = host.store.save

    async def observed_save(draft, now):
        await asyncio.sleep(0)  # the drawing task runs here, before the commit
        before_commit.append(len(drawn))
        return await real_save(draft, now)
    monkeypatch.setattr(host.store, "save", observed_save)
    row, _ = await started(host)
    drawn.clear()
    before_commit.clear()
    outbox = await host.act(row.id, player(row, 0), "T2@b2", seen_version=row.version)
    saved = await host.store.load(row.id)
    assert before_commit == [1] and drawn == [get_game("squares").view(saved.state, None)]
    assert outbox.posts[0].image == fake_render("squares", drawn[0])



async def test_resign_and_abandon(host):
    row, _ = await started(host)
    await refused(host, host.abandon(row.id, CAROL, where=Where(row.guild_id, row.channel_id)), "not_creator")
    loser = player(row, 1)
    outbox = await host.resign(row.id, loser)
    after = await host.store.load(row.id)
    assert after.status == "finished" and after.state["outcome"]["winners"] == [0]
    assert any(line.key == "outcome.win" for line in outbox.posts[0].lines)
    await refused(host, host.act(row.id, player(row, 0), "T2@b2"), "game_finished")
    await refused(host, host.resign(row.id, loser), "game_finished")

    row, _ = await started(host)
    await host.abandon(row.id, CAROL, where=Where(row.guild_id, 99, manages_server=True))  # Manage Server there
    assert (await host.store.load(row.id)).status == "abandoned"
    await refused(host, host.act(row.id, player(row, 0), "T2@b2"), "game_abandoned")


async def test_an_ai_seat_answers_at_once_and_the_game_finishes(host):
    row, _ = await host.create("squares", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en")
    await host.add_ai(row.id, ALICE)
    await host.start(row.id, ALICE)
    for _ in range(400):
        row = await host.store.load(row.id)
        if row.status != "active":
            break
        game = get_game("squares")
        seat = row.seat_of(ALICE)
        assert game.to_act(row.state) == {seat}, "the AI must have moved already"
        await host.act(row.id, ALICE, game.legal_actions(row.state, seat)[0])
    assert row.status == "finished"
    log = await host.store.actions(row.id)
    assert {a.user_id for a in log} == {ALICE, None}


async def test_history_and_list(host):
    row, _ = await started(host)
    await host.act(row.id, player(row, 0), "T2@b2")
    lines = await host.history(row.id)
    assert lines[0].params["count"] == 1 and lines[1].params["action"] == "T2@b2"
    listed = await host.list_lines(1, ALICE)
    assert any(line.key == "list.line" and line.params["id"] == row.id for line in listed)
    assert await host.games_for(5, ALICE) == [row.id]
    assert await host.games_for(5, CAROL) == []


async def test_posts_lost_in_a_crash_are_found_again(host):
    row, outbox = await started(host)
    assert [p.game_id for p in await host.pending_posts()] == [row.id]
    await host.mark_posted(row.id, outbox.posts[-1].board_version, 1234)
    assert await host.pending_posts() == []
    await host.act(row.id, player(row, 0), "T2@b2")  # "crash" before the board is posted
    assert await host.pending_posts() == []  # the first repost's claim still holds (another process might be at it)
    host.clock = lambda: "2026-11-21T00:05:00+00:00"
    pending = await host.pending_posts()
    assert len(pending) == 1 and pending[0].replaces_message_id == 1234


async def test_a_board_saved_since_start_up_is_left_to_its_own_delivery(host):
    """Players may act before the gateway says ready: those boards are on their way, not lost."""
    row, outbox = await started(host)
    await host.mark_posted(row.id, outbox.posts[-1].board_version, 1234)
    host.clock = lambda: "2026-11-21T00:05:00+00:00"
    started_at = host.now_stamp()
    await host.act(row.id, player(row, 0), "T2@b2")  # saved by this process, delivery in flight
    assert await host.pending_posts(saved_before=started_at) == []
    assert [p.game_id for p in await host.pending_posts(saved_before="2026-11-21T00:05:01+00:00")] == [row.id]


async def test_no_game_stays_in_memory(host):
    row, _ = await started(host)
    await host.act(row.id, player(row, 0), "T2@b2")
    gc.collect()
    assert len(host._locks) == 0


async def test_secret_steps_go_to_private_panels(host, secret_game):
    row, outbox = await started(host, game="secretpick")
    post = outbox.posts[-1]
    assert post.controls is None and post.panel_button
    assert sorted(p.user_id for p in outbox.privates) == sorted([ALICE, BOB])
    assert all(p.controls and p.controls.actions == ["pick1", "pick2", "pick3"] for p in outbox.privates)
    outbox = await host.act(row.id, ALICE, "pick3", seen_version=row.version)
    public = " ".join(render("en", line) for line in outbox.posts[0].lines)
    assert "pick3" not in public
    assert not any(line.key == "event.secretpick.revealed" for line in outbox.posts[0].lines)
    # Bob's panel from before Alice's pick is still valid: he has not acted since.
    outbox = await host.act(row.id, BOB, "pick1", seen_version=row.version)
    assert any(line.key == "event.secretpick.revealed" or line.params.get("a") == 3
               for line in outbox.posts[0].lines)
    history = " ".join(render("en", line) for line in await host.history(row.id))
    assert "pick1" not in history and "pick3" not in history and history.count("🔒") == 2
    panel = await host.panel(row.id, BOB)
    assert panel.controls is not None and panel.user_id == BOB
    await refused(host, host.panel(row.id, CAROL), "not_in_game")


async def test_drilling_down_an_action_path(host):
    row, outbox = await started(host)
    first = player(row, 0)
    root = outbox.posts[-1].controls
    assert root.prefix == () and set(root.choices) == {"T2", "T5", "W3", "W4", "P2", "P3", "M1", "M2", "N1", "N4"}
    await refused(host, host.drill(row.id, player(row, 1), row.version, ("T2",)), "not_your_turn")
    step = await host.drill(row.id, first, row.version, ("T2",))
    assert step.reply_controls.prefix == ("T2",) and len(step.reply_controls.actions) == 10
    await refused(host, host.drill(row.id, first, row.version, ("Z9",)), "stale")
    played = await host.drill(row.id, first, row.version, ("T2", "T2@c1"))
    assert played.posts and [a.action for a in await host.store.actions(row.id)] == ["T2@c1"]


async def test_the_seed_is_committed_at_start_and_revealed_at_the_end(host):
    from bot.common.fairplay import commitment

    row, outbox = await started(host)
    committed = next(line for line in outbox.posts[-1].lines if line.key == "game.commitment").params["hash"]
    assert str(row.seed) not in " ".join(render("en", line) for line in outbox.posts[-1].lines)
    outbox = await host.resign(row.id, player(row, 0))
    reveal = next(line for line in outbox.posts[0].lines if line.key == "game.reveal").params
    assert reveal["seed"] == row.seed and commitment(reveal["seed"], reveal["salt"]) == committed


async def test_a_team_game_keeps_the_pairing_chosen_in_the_lobby(host):
    users = (11, 22, 33, 44)
    row, _ = await host.create("hostile", "teams=13-24", guild_id=1, channel_id=5, user_id=users[0],
                               locale="en")
    for u in users[1:]:
        await host.join(row.id, u)
    await host.start(row.id, users[0])
    row = await host.store.load(row.id)
    assert row.user_ids == [11, 33, 22, 44]  # seats 0+1 (team X) are the 1st and 3rd to join


async def test_the_lobby_refuses_a_player_count_the_game_cannot_seat(host):
    row, _ = await host.create("osu", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en")
    for u in (BOB, CAROL):
        await host.join(row.id, u)
    err = await refused(host, host.start(row.id, ALICE), "player_count")
    assert "2, 4" in render("en", err.text) and "2、4" in render("ja", err.text)  # each language's list


async def test_ai_seats_play_at_the_level_they_were_added_with(host):
    from bot.i18n import render as say
    from bot.service import make_settings

    row, _ = await host.create("squares", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en",
                               settings=make_settings(ai_level="easy"))
    await refused(host, host.add_ai(row.id, ALICE, level="godlike"), "ai_level")
    outbox = await host.add_ai(row.id, ALICE, level="hard")
    assert "AI 1 (hard)" in say("en", outbox.posts[0].lines[1]) and "AI 1（つよい）" in say("ja", outbox.posts[0].lines[1])
    row = await host.store.load(row.id)
    ai_seat = row.seat_of(-1)
    assert host._level_of(row, ai_seat) == "hard"
    assert host._level_of(row, row.seat_of(ALICE)) == "easy"  # were Alice replaced by a stand-in


async def test_a_win_is_announced_once(host):
    from games import get_game
    from games.rng import Rng

    game, rng = get_game("squares"), Rng(3)
    for attempt in range(20):
        row, _ = await started(host, users=(7000 + 2 * attempt, 7001 + 2 * attempt))
        outbox = None
        while row.status == "active":
            seat = min(game.to_act(row.state))
            legal = game.legal_actions(row.state, seat)
            outbox = await host.act(row.id, row.user_of(seat), legal[rng.below(len(legal))])
            row = await host.store.load(row.id)
        if row.state["outcome"]["reason"] == "centre":
            keys = [line.key for line in outbox.posts[-1].lines]
            assert keys.count("event.squares.won_centre") == 1 and "outcome.win" not in keys
            return
    pytest.fail("no game was won on the centre row")


@pytest.mark.parametrize("game", ["squares", "arena", "osu", "hostile", "monsterhunter"])
async def test_a_refused_line_is_quoted_as_it_was_typed(host, game):
    """`move b1 up` was answered "`moveb1up` is not an action", `deploy banana` as `deploy BANANA`."""
    row, _ = await started(host, game)
    actor = player(row, min(get_game(game).to_act(row.state)))
    for typed in ("move b1 up", "deploy banana", "  spaced   out  ", "tick`s `code`"):
        before = dump(host)
        with pytest.raises(ServiceError) as err:
            await host.act(row.id, actor, typed, typed=True)
        assert dump(host) == before
        if "action" not in placeholders(catalogue("en")[f"error.{err.value.key}"]):  # it does not quote the line
            continue
        quoted = err.value.params["action"]
        assert quoted == " ".join(typed.split()).replace("`", "ˋ")
        for lang in ("en", "ja"):
            assert f"`{quoted}`" in render(lang, err.value.text)


async def test_a_policy_too_long_to_be_one_is_refused_with_the_policies(host):
    """Issue #29: `/game settings policy:` with 41 characters answered "Write a policy as key:value,
    one of: {choices}" with the placeholder unfilled, in both languages."""
    text = "def:" + "retreat" * 5 + "xx"
    assert len(text) == 41
    err = await refused(host, host.set_policy(ALICE, text), "policy_bad")
    for lang in ("en", "ja"):
        line = render(lang, err.text)
        assert "{" not in line and "def:ask|none|retreat|block" in line, line


async def test_an_ai_level_too_long_to_be_one_is_refused_with_the_levels(host):
    row, _ = await host.create("squares", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en")
    err = await refused(host, host.add_ai(row.id, ALICE, level="x" * 21), "ai_level_long")
    for lang in ("en", "ja"):
        line = render(lang, err.text)
        assert "{" not in line and "easy" in line and "hard" in line, line


async def test_the_lobby_post_says_how_many_sit_and_play(host):
    """Issue #43: a started 2-player OSU game's lobby said "(2 or 4 players)", and no option chosen
    read "Options: the rulebook's"."""
    row, outbox = await host.create("osu", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en")
    header = render("en", outbox.posts[0].lines[0])
    assert "1 player so far (2 or 4 can play)" in header and "Options: as in the rulebook" in header
    await host.join(row.id, BOB)
    outbox = await host.start(row.id, ALICE)
    header = render("en", outbox.posts[0].lines[0])
    assert "game #1, 2 players." in header and "2 or 4" not in header, header
    assert "、2人。" in render("ja", outbox.posts[0].lines[0])
