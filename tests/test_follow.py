"""Spectators and view choices (#18) at the service, storage and renderer layers: two hosts on one
SQLite file stand for two bot processes; a settable clock moves turns past the gather time."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import renderers
from bot.i18n import render as say
from bot.service import GameHost, ServiceError
from bot.storage.sqlite import Store
from games import get_game
from renderers.common import SquareGrid

ALICE, BOB, SPECTATOR = 111, 222, 333


class Clock:
    def __init__(self):
        self.now = "2026-11-21T00:00:00+00:00"

    def __call__(self):
        return self.now

    def advance(self, seconds: int) -> None:
        from datetime import datetime, timedelta
        self.now = (datetime.fromisoformat(self.now) + timedelta(seconds=seconds)).isoformat()


@pytest.fixture
async def hosts(tmp_path):
    path = str(tmp_path / "shared.sqlite3")
    stores = [await Store.open(path), await Store.open(path)]
    clock = Clock()
    made = [GameHost(s, clock=clock, seed_source=lambda: 4242, render=lambda game, view, **o: b"PNG") for s in stores]
    for h in made:
        h.follow_gather_seconds = 60
        h.clock_control = clock
    yield made
    for s in stores:
        await s.close()


async def started(host, channel=5):
    row, _ = await host.create("squares", None, guild_id=1, channel_id=channel, user_id=ALICE, locale="en")
    await host.join(row.id, BOB)
    await host.start(row.id, ALICE)
    return await host.store.load(row.id)


async def play(host, game_id):
    row = await host.store.load(game_id)
    game = get_game("squares")
    seat = min(game.to_act(row.state))
    await host.act(game_id, row.user_of(seat), game.legal_actions(row.state, seat)[0])


async def test_one_combined_notice_per_turn_claimed_once_across_processes(hosts):
    a, b = hosts
    first, second, elsewhere = await started(a), await started(a), await started(a, channel=6)
    for game in (first, second, elsewhere):
        await a.follow(game.id, SPECTATOR)
    assert await a.due_follow_notices() == []  # the turn under way when they followed
    await play(a, first.id)
    a.clock_control.advance(30)
    await play(a, second.id)
    await play(a, elsewhere.id)
    assert await a.due_follow_notices() == []  # within the gather time: later turns may join
    a.clock_control.advance(40)  # the first game's turn has waited 70 s: its place is due
    both = await asyncio_gather(a.due_follow_notices(), b.due_follow_notices())
    notices = [n for found in both for n in found]
    assert len(notices) == 1 and sorted(notices[0].game_ids) == [first.id, second.id]
    assert notices[0].channel_id == 5 and notices[0].user_id == SPECTATOR
    text = say("en", notices[0].lines[0]) + say("ja", notices[0].lines[1])
    assert "2 games" in text and "手番" in text
    a.clock_control.advance(60)
    later = await a.due_follow_notices()
    assert [n.game_ids for n in later] == [[elsewhere.id]]  # the other place, once; never the same turn again
    assert await b.due_follow_notices() == []


async def asyncio_gather(*calls):
    import asyncio
    return await asyncio.gather(*calls)


async def test_players_cannot_follow_and_follow_twice_changes_nothing(hosts):
    a, _ = hosts
    game = await started(a)
    with pytest.raises(ServiceError) as refused:
        await a.follow(game.id, ALICE)
    assert refused.value.key == "follow_playing"
    await a.follow(game.id, SPECTATOR)
    with pytest.raises(ServiceError) as again:
        await a.follow(game.id, SPECTATOR)
    assert again.value.key == "follow_already" and await a.store.followers(game.id) == [SPECTATOR]
    await a.unfollow(game.id, SPECTATOR)
    with pytest.raises(ServiceError):
        await a.unfollow(game.id, SPECTATOR)
    assert await a.store.followers(game.id) == []


async def test_view_choices_are_stored_with_other_preferences(hosts):
    a, _ = hosts
    await a.store.set_preferences(ALICE, {"monsterhunter": {"x": "y"}})
    await a.set_view(ALICE, True, None)
    await a.set_view(ALICE, None, True)
    assert await a.store.preferences(ALICE) == {"monsterhunter": {"x": "y"}, "view": {"side": True, "large": True}}
    assert (await a.store.users_settings([ALICE, BOB]))[ALICE]["view"] == {"side": True, "large": True}
    assert (await a.store.users_settings([BOB]))[BOB]["view"] == {}


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def test_renderer_view_options():
    game = get_game("squares")
    state = game.setup(2, {}, seed=3)
    seat = min(game.to_act(state))
    state, _ = game.apply(state, seat, game.legal_actions(state, seat)[0])
    view = game.view(state, 1)
    plain = renderers.render("squares", view)
    assert renderers.render("squares", view, viewer_seat=0) == plain  # the first seat sits at the bottom already
    turned = renderers.render("squares", view, viewer_seat=1)
    assert turned != plain and size(turned) == size(plain)
    large = renderers.render("squares", view, scale=1.5)
    assert size(large) == (round(size(plain)[0] * 1.5), round(size(plain)[1] * 1.5))
    assert renderers.view_options("squares", {"side": True, "large": True}, 1) == {"viewer_seat": 1, "scale": 1.5}
    assert renderers.view_options("squares", {"side": True}, None) == {}  # a spectator has no side
    assert renderers.view_options("hostile", {"side": True}, 1) == {"viewer_seat": 1}  # every game turns now


def test_a_flipped_grid_turns_the_board_half_round():
    grid, turned = SquareGrid(0, 0, 10), SquareGrid(0, 0, 10, flipped=True)
    assert turned.box("a1") == grid.box("e5") and turned.box("e5") == grid.box("a1")


async def test_a_position_restored_by_an_undo_is_a_new_turn_for_followers(hosts):
    a, _ = hosts
    game = await started(a)
    await a.follow(game.id, SPECTATOR)
    await play(a, game.id)  # the second player's turn
    a.clock_control.advance(70)
    told = await a.due_follow_notices()
    assert [n.game_ids for n in told] == [[game.id]]
    row = await a.store.load(game.id)
    mover = row.user_of(1 - min(get_game("squares").to_act(row.state)))
    asked = await a.ask_undo(game.id, mover)
    await a.answer_undo(game.id, row.user_of(min(get_game("squares").to_act(row.state))), asked.posts[0].undo_version,
                        True)
    restored = await a.store.load(game.id)
    assert restored.user_of(min(get_game("squares").to_act(restored.state))) == mover  # the mover's turn again
    a.clock_control.advance(70)
    again = await a.due_follow_notices()
    assert [n.game_ids for n in again] == [[game.id]]
    assert f"<@{mover}>" in say("en", again[0].lines[1])
    assert await a.due_follow_notices() == []  # told once
