"""Undo by consent and ratings through the service, on a real SQLite file and on PostgreSQL (no Discord)."""

from __future__ import annotations

import random

import pytest

from bot.i18n import render
from bot.service import Where
from bot.storage.undo_log import rebuild, standing
from bot.storage.rows import ActionRow, Draft
from games import all_games, get_game
from tests.test_service import ALICE, BOB, CAROL, refused, started


@pytest.fixture
def host(host_on_each_backend):
    """Every scenario here runs on SQLite and on PostgreSQL (the store's undo and rating parts)."""
    return host_on_each_backend



def text(outbox_or_lines) -> str:
    lines = outbox_or_lines if isinstance(outbox_or_lines, list) else (
        outbox_or_lines.reply + [line for p in outbox_or_lines.posts for line in p.lines])
    return "\n".join(render("en", line) for line in lines)


async def first_move(host, row):
    game = get_game(row.game)
    seat = min(game.to_act(row.state))
    action = game.legal_actions(row.state, seat)[0]
    outbox = await host.act(row.id, row.user_of(seat), action)
    return seat, action, outbox


async def test_undo_accepted_by_the_other_player_returns_the_position_as_a_new_log_entry(host):
    row, _ = await started(host)
    start_state = row.state
    seat, action, outbox = await first_move(host, row)
    assert outbox.reply_undo is not None  # the actor is offered the button
    mover, other = row.user_of(seat), row.user_of(1 - seat)
    await refused(host, host.ask_undo(row.id, other), "undo_not_yours")
    await refused(host, host.ask_undo(row.id, CAROL), "not_in_game")
    asked = await host.ask_undo(row.id, mover)
    assert asked.posts[0].undo_version is not None and asked.posts[0].mentions == [other]
    version = asked.posts[0].undo_version
    await refused(host, host.ask_undo(row.id, mover), "undo_pending")
    await refused(host, host.answer_undo(row.id, mover, version, True), "undo_own_request")
    await refused(host, host.answer_undo(row.id, CAROL, version, True), "not_in_game")
    done = await host.answer_undo(row.id, other, version, True)
    assert "taken back" in text(done)
    after = await host.store.load(row.id)
    assert after.state == start_state and after.version == version + 1
    log = await host.store.actions(row.id)
    assert [a.action for a in log] == [action, "undo 1"] and log[1].user_id == mover
    await refused(host, host.answer_undo(row.id, other, version, True), "undo_already_answered")
    # Buttons drawn before the undo are stale; the history shows both entries.
    await refused(host, host.act(row.id, mover, action, seen_version=version), "stale")
    history = text(await host.history(row.id))
    assert "taken back" in history and "took back everything from action 1" in history
    # The game goes on from the old position, and the log replays to the stored state.
    await host.act(row.id, mover, action, seen_version=after.version)
    game = get_game(after.game)
    _, steps = rebuild(game, 2, after.options, after.seed, standing(await host.store.actions(row.id)))
    assert steps[-1].after == (await host.store.load(row.id)).state


async def test_one_decline_ends_the_request_and_a_new_move_lets_a_request_lapse(host):
    row, _ = await started(host, users=(ALICE, BOB))
    seat, action, _ = await first_move(host, row)
    mover, other = row.user_of(seat), row.user_of(1 - seat)
    version = (await host.ask_undo(row.id, mover)).posts[0].undo_version
    declined = await host.answer_undo(row.id, other, version, False)
    assert "declined" in text(declined)
    await refused(host, host.answer_undo(row.id, other, version, True), "undo_already_answered")
    await refused(host, host.ask_undo(row.id, mover), "undo_declined_here")
    assert [a.action for a in await host.store.actions(row.id)] == [action]
    # The other player moves: nothing of the first mover's is the latest any more.
    now = await host.store.load(row.id)
    game = get_game(now.game)
    await host.act(row.id, other, game.legal_actions(now.state, 1 - seat)[0])
    await refused(host, host.ask_undo(row.id, mover), "undo_not_yours")


async def test_a_request_lapses_when_anyone_moves(host):
    row, _ = await started(host)
    game = get_game("squares")
    seat, action, _ = await first_move(host, row)
    version = (await host.ask_undo(row.id, row.user_of(seat))).posts[0].undo_version
    nxt = await host.store.load(row.id)
    other = 1 - seat
    await host.act(row.id, nxt.user_of(other), game.legal_actions(nxt.state, other)[0])  # instead of answering
    await refused(host, host.answer_undo(row.id, nxt.user_of(other), version, True), "undo_expired")
    await refused(host, host.answer_undo(row.id, nxt.user_of(other), version + 7, True), "undo_expired")


async def test_against_the_ai_the_move_and_its_reply_go_back_at_once(host):
    row, _ = await host.create("squares", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en")
    await host.add_ai(row.id, ALICE)
    await host.start(row.id, ALICE)
    row = await host.store.load(row.id)
    game = get_game("squares")
    seat = row.seat_of(ALICE)
    before = row.state
    await host.act(row.id, ALICE, game.legal_actions(row.state, seat)[0])
    assert len(await host.store.actions(row.id)) >= 2 - (seat == 1)
    outbox = await host.ask_undo(row.id, ALICE)
    assert "taken back" in text(outbox)
    assert (await host.store.load(row.id)).state == before


async def test_undo_is_refused_once_the_arena_resolution_revealed_the_orders(host):
    row, _ = await started(host, game="arena")
    game = get_game("arena")
    for seat in (0, 1):
        await host.act(row.id, row.user_of(seat), game.legal_actions(row.state, seat)[0])
    log = await host.store.actions(row.id)
    last = row.user_of(log[-1].seat)
    await refused(host, host.ask_undo(row.id, last), "undo_final")
    await refused(host, host.ask_undo(row.id, row.user_of(log[0].seat)), "undo_not_yours")


async def test_a_win_rates_both_players_once_and_the_final_post_shows_it(host):
    row, _ = await started(host)
    outbox = await host.resign(row.id, ALICE)
    final = text(outbox)
    assert "Ratings" in final and "→" in final
    changes = await host.store.rating_changes(row.id)
    assert set(changes) == {f"user:{ALICE}", f"user:{BOB}"}
    alice, bob = changes[f"user:{ALICE}"], changes[f"user:{BOB}"]
    assert bob[2] > 25 > alice[2] and bob[2] - 25 == pytest.approx(25 - alice[2])
    # The same end saved again (a retried final save) does not count twice.
    done = await host.store.load(row.id)
    draft = Draft.of(done)
    draft.rating = [((f"user:{ALICE}",), 0), ((f"user:{BOB}",), 1)]
    await host.store.save(draft, "2026-11-21T00:00:01+00:00")
    assert await host.store.rating_changes(row.id) == changes
    board = await host.store.leaderboard(1, "squares", 10)
    assert [p for p, *_ in board] == [f"user:{BOB}", f"user:{ALICE}"] and all(g == 1 for *_, g in board)
    lines = text(await host.leaderboard_lines(1, ALICE, "squares"))
    assert lines.index(f"<@{BOB}>") < lines.index(f"<@{ALICE}>") and "1 game" in lines
    assert "Nobody is rated" in text(await host.leaderboard_lines(2, ALICE, None))


async def test_hostile_two_against_two_rates_teams_and_ai_seats_by_level(host):
    row, _ = await host.create("hostile", "teams=12-34", guild_id=1, channel_id=5, user_id=ALICE, locale="en")
    await host.join(row.id, BOB)
    await host.join(row.id, CAROL)
    await host.add_ai(row.id, ALICE, level="hard")
    await host.start(row.id, ALICE)
    row = await host.store.load(row.id)
    await host.resign(row.id, ALICE)
    changes = await host.store.rating_changes(row.id)
    assert len(changes) == 4 and "ai:hard" in changes
    state = (await host.store.load(row.id)).state
    team_of = {s: i for i, team in enumerate(state["teams"]) for s in team}
    key = {s.seat: ("ai:hard" if s.user_id < 0 else f"user:{s.user_id}") for s in row.seats}
    deltas = {s: changes[key[s]][2] - changes[key[s]][0] for s in range(4)}
    alice_team = team_of[row.seat_of(ALICE)]
    for s in range(4):
        assert (deltas[s] < 0) == (team_of[s] == alice_team)


async def test_ai_seats_of_one_level_on_opposite_sides_are_not_rated_against_themselves(host):
    row, _ = await host.create("osu", None, guild_id=1, channel_id=5, user_id=ALICE, locale="en")
    await host.join(row.id, BOB)
    await host.add_ai(row.id, ALICE, level="normal")
    await host.add_ai(row.id, ALICE, level="normal")
    await host.start(row.id, ALICE)
    row = await host.store.load(row.id)
    await host.resign(row.id, ALICE)
    done = await host.store.load(row.id)
    assert done.status == "finished"
    changes = await host.store.rating_changes(row.id)
    assert set(changes) == {f"user:{ALICE}", f"user:{BOB}"}  # the two "normal" seats faced each other
    assert changes[f"user:{BOB}"][2] > changes[f"user:{ALICE}"][2]  # Alice resigned


def playout(game, players, seed):
    rng = random.Random(seed)
    state = game.setup(players, game.resolve_options({}, players), seed)
    for _ in range(300):
        if game.outcome(state) is not None:
            return
        seat = rng.choice(sorted(game.to_act(state)))
        action = rng.choice(game.legal_actions(state, seat))
        after, events = game.apply(state, seat, action)
        yield state, seat, action, after, events
        state = after


@pytest.mark.parametrize("game", [g for g in all_games() if g.name != "secretpick"], ids=lambda g: g.name)
def test_undoable_actions_drew_nothing_and_taking_them_back_replays(game):
    """Whenever a game calls an action undoable, its generator and decks are untouched, and the log
    with an ``undo`` entry replays to the position before the action."""
    seen = {True: 0, False: 0}
    for seed in range(3):
        players = max(game.player_counts())
        log: list[ActionRow] = []
        for before, seat, action, after, events in playout(game, players, seed):
            ok = game.undoable(before, after, events)
            seen[ok] += 1
            log.append(ActionRow(len(log) + 1, seat, 1, action, len(log) + 1, ""))
            if ok:
                assert before.get("rng") == after.get("rng")
                if "floor_deck" in before:
                    assert before["floor_deck"] == after["floor_deck"] and before["gem_deck"] == after["gem_deck"]
                if "seats" in before and isinstance(before["seats"][0], dict) and "deck" in before["seats"][0]:
                    assert [s["deck"] for s in before["seats"]] == [s["deck"] for s in after["seats"]]
            if ok and len(log) % 7 == 0:  # take it back in the log and replay
                undone = log + [ActionRow(len(log) + 1, seat, 1, f"undo {len(log)}", len(log) + 1, "")]
                start, steps = rebuild(game, players, game.resolve_options({}, players), seed, standing(undone))
                assert (steps[-1].after if steps else start) == before
    assert seen[True] > 0, "no action was ever undoable"
    if game.name != "squares":
        assert seen[False] > 0, "a game with chance or secrets must refuse some undos"


async def test_replay_and_export_show_the_game_as_it_stands_after_an_undo(host):
    import json

    row, _ = await started(host)
    seat, action, _ = await first_move(host, row)
    mover, other = row.user_of(seat), row.user_of(1 - seat)
    version = (await host.ask_undo(row.id, mover)).posts[0].undo_version
    await host.answer_undo(row.id, other, version, True)
    game = get_game(row.game)
    now = await host.store.load(row.id)
    replacement = [a for a in game.legal_actions(now.state, seat) if a != action][0]
    await host.act(row.id, mover, replacement)
    exported = await host.export(row.id, mover, where=Where(row.guild_id, row.channel_id))
    data = json.loads(exported.reply_files[0][1])
    assert [a["action"] for a in data["actions"]] == [replacement]  # the undone move is gone, the undo too
    viewer = await host.replay(row.id, mover, where=Where(row.guild_id, row.channel_id))
    assert viewer.reply_viewer is not None and viewer.reply_viewer.steps == 1


async def test_an_undo_posts_buttons_go_when_its_request_ends_however_it_ends(host):
    """Agreed, declined or lapsed: the next outbox about the game retires the request's post
    (known by its stored message id), once; a request still open keeps its buttons."""
    from bot.service import GameHost

    game = get_game("squares")

    async def asked_and_posted(row, message_id):
        seat = min(game.to_act(row.state))
        await host.act(row.id, row.user_of(seat), game.legal_actions(row.state, seat)[0])
        asked = await host.ask_undo(row.id, row.user_of(seat))
        assert asked.retire_undo == []  # open: its buttons stay
        version = asked.posts[0].undo_version
        await host.undo_posted(row.id, version, message_id)
        return row.user_of(seat), row.user_of(1 - seat), version

    def retired(outbox):
        return [(e.game_id, e.version, e.message_id, e.channel_id) for e in outbox.retire_undo]

    row, _ = await started(host)
    home = row.thread_id or row.channel_id
    mover, other, version = await asked_and_posted(row, 901)
    assert retired(await host.answer_undo(row.id, other, version, False)) == [(row.id, version, 901, home)]
    # Not retired yet (delivery failed, or the process died): the next post about the game retires it.
    now = await host.store.load(row.id)
    seat = min(game.to_act(now.state))
    moved = await host.act(row.id, now.user_of(seat), game.legal_actions(now.state, seat)[0])
    assert retired(moved) == [(row.id, version, 901, home)]
    await host.undo_post_retired(row.id, version)
    # A request that lapses because the other player moved instead of answering.
    now = await host.store.load(row.id)
    mover, other, version = await asked_and_posted(now, 902)
    now = await host.store.load(row.id)
    moved = await host.act(row.id, other, game.legal_actions(now.state, now.seat_of(other))[0])
    assert retired(moved) == [(row.id, version, 902, home)]
    await host.undo_post_retired(row.id, version)
    # One agreed to, seen by another process (a restart): the stored message id is all it needs.
    now = await host.store.load(row.id)
    mover, other, version = await asked_and_posted(now, 903)
    restarted = GameHost(host.store, clock=host.clock, render=host.render)
    done = await restarted.answer_undo(row.id, other, version, True)
    assert "taken back" in text(done) and retired(done) == [(row.id, version, 903, home)]
    await restarted.undo_post_retired(row.id, version)
    assert await restarted.store.ended_undo_posts(row.id) == []  # each retired once
