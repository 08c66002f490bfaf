"""Fuzzing the service for every game: random and near-miss notation, wrong users, stale and future
versions, unknown games and options. Nothing but a typed refusal may come out, a refusal changes no
stored row, and the engine never fails on what a player typed (no error is logged).

``FUZZ_INPUTS=20000`` runs more inputs per game than the default.
"""

from __future__ import annotations

import logging
import os

import pytest

from bot.service import GameHost, ServiceError
from bot.storage.sqlite import Store
from games import all_games
from games.rng import Rng

INPUTS = int(os.environ.get("FUZZ_INPUTS", "2000"))
NOISE = " \t/-@<>^*:|,.0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ０１２３٣٥éあア🙂\u200b\x00'\""


def near_miss(action: str, rng: Rng) -> str:
    """A legal action bent the way people and broken clients bend them."""
    kind = rng.below(9)
    if kind == 0 and action:
        i = rng.below(len(action))
        return action[:i] + action[i + 1:]
    if kind == 1:
        i = rng.below(len(action) + 1)
        return action[:i] + NOISE[rng.below(len(NOISE))] + action[i:]
    if kind == 2:
        return action.swapcase()
    if kind == 3:
        return f"  {action}  "
    if kind == 4:
        return action + " " + action
    if kind == 5:
        return action * (1 + rng.below(80))
    if kind == 6:
        return action.translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    if kind == 7:
        return "".join(NOISE[rng.below(len(NOISE))] for _ in range(rng.below(12)))
    return action


def players_for(game) -> int:
    return max(game.player_counts())


@pytest.mark.parametrize("game", [g.name for g in all_games()])
async def test_the_service_refuses_every_bad_input_and_changes_nothing(tmp_path, game, caplog):
    store = await Store.open(str(tmp_path / "fuzz.sqlite3"))
    seeds = iter(range(10_000, 20_000))
    host = GameHost(store, clock=lambda: "2026-11-21T00:00:00+00:00", seed_source=lambda: next(seeds),
                    render=lambda name, view: b"PNG")
    rng = Rng(hash(game) & 0xFFFF)
    caplog.set_level(logging.ERROR)

    async def new_game() -> int:
        users = [100 + i for i in range(players_for(game_engine))]
        row, _ = await host.create(game, None, guild_id=1, channel_id=5, user_id=users[0], locale="en")
        for u in users[1:]:
            await host.join(row.id, u)
        await host.start(row.id, users[0])
        return row.id

    async def changes() -> int:
        return await store._run(lambda c: c.total_changes)

    game_engine = next(g for g in all_games() if g.name == game)
    game_id = await new_game()
    accepted = refused = 0
    try:
        for _ in range(INPUTS):
            row = await store.load(game_id)
            if row.status != "active":
                game_id = await new_game()
                continue
            to_act = sorted(game_engine.to_act(row.state))
            seat = to_act[rng.below(len(to_act))]
            legal = game_engine.legal_actions(row.state, seat)
            user = row.user_of(seat)
            pick = rng.below(10)
            if pick < 5:
                call = host.act(game_id, user, near_miss(legal[rng.below(len(legal))], rng),
                                seen_version=row.version if rng.below(2) else None, typed=bool(rng.below(2)))
            elif pick == 5:
                call = host.act(game_id, 999, legal[0], seen_version=row.version)  # not seated
            elif pick == 6:
                version = rng.choice([row.version - 1, row.version + 1, -5, 10 ** 12, row.step_version - 1])
                call = host.act(game_id, user, legal[0], seen_version=version)
            elif pick == 7:
                call = host.act(game_id + 10_000, user, legal[0])  # no such game
            elif pick == 8:
                prefix = tuple(near_miss(p, rng) for p in game_engine.action_path(legal[0])[:1 + rng.below(2)])
                call = host.drill(game_id, user, row.version, prefix)
            else:
                name = rng.choice([game, "chess", "", game.upper(), "x" * 300])
                options = rng.choice([None, "nosuch=1", 'a="b', "=", "turn_limit=-4", "x" * 400, "cap=9999999"])
                call = host.create(name, options, guild_id=1, channel_id=5, user_id=1, locale="en")
            before = await changes()
            try:
                await call
                accepted += 1
            except ServiceError:
                refused += 1
                assert await changes() == before, "a refusal changed stored rows"
    finally:
        await store.close()
    assert refused > INPUTS // 4 and accepted > 0
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
