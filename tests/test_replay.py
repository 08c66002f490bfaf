"""Replays: every step rebuilt from seed + log, the viewer's policy (nothing secret to a non-player
mid-game), the export file played back by the local driver, and the recap posted once."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from bot.workers import replay_frames
from bot.i18n import render
from bot.terminal.driver import play_back
from bot.service import GameHost, ServiceError, Where
from bot.service.replay import Replays, viewpoints
from bot.storage.rows import ActionRow
from bot.storage.sqlite import Store
from games import all_games, get_game
from games.ai import choose_action
from games.replay import CHECKPOINT_EVERY, Replay, state_hash
from games.rng import Rng
from tests.test_service import fake_render

USERS = (111, 222, 333, 444)
STRANGER = 999


@pytest.fixture
async def host(tmp_path):
    store = await Store.open(str(tmp_path / "replay.sqlite3"))
    seeds = iter(range(5000, 6000))
    h = GameHost(store, clock=lambda: "2026-11-21T00:00:00+00:00", seed_source=lambda: next(seeds),
                 render=fake_render)
    Replays._frame_cache = None
    replay_frames._replays.clear()
    yield h
    await store.close()


async def started(host, game: str, players: int):
    row, _ = await host.create(game, None, guild_id=1, channel_id=5, user_id=USERS[0], locale="en")
    for u in USERS[1:players]:
        await host.join(row.id, u)
    await host.start(row.id, USERS[0])
    return row.id


async def play(host, game_id: int, steps: int | None = None, seed: int = 1, stop=None) -> None:
    """Random legal actions by whoever must act, through the service, for ``steps`` actions (or to
    the end); ``stop(game, state, seat, action)`` may end it right after an action."""
    rng = Rng(seed)
    done = 0
    while steps is None or done < steps:
        row = await host.store.load(game_id)
        if row.status != "active":
            return
        game = get_game(row.game)
        seat = sorted(game.to_act(row.state))[0]
        action = choose_action(game, row.state, seat, rng)
        await host.act(game_id, row.user_of(seat), action)
        done += 1
        if stop and stop(game, row.state, seat, action):
            return


def random_log(game, players: int, seed: int):
    rng = Rng(seed)
    state = game.setup(players, game.resolve_options({}, players), seed)
    states, log = [state], []
    while game.outcome(state) is None and len(log) < 3000:
        seat = sorted(game.to_act(state))[rng.below(len(game.to_act(state)))]
        action = choose_action(game, state, seat, rng)
        state, _ = game.apply(state, seat, action)
        states.append(state)
        log.append((seat, action))
    return states, log


# ---- the pure rebuild -----------------------------------------------------------------------------------
@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_step_rebuilds_from_seed_and_log_in_any_order(game):
    for players in game.player_counts():
        states, log = random_log(game, players, seed=players)
        replay = Replay(game, players, game.resolve_options({}, players), players, log)
        order = Rng(7).shuffled(list(range(len(states))))
        for k in order:  # random access: checkpoints must not depend on the order steps are asked
            assert replay.state_at(k) == states[k], (game.name, players, k)
        assert [s.state for s in Replay(game, players, game.resolve_options({}, players), players, log).walk()] == states


def test_a_concession_replays_through_the_engines_resign():
    game = get_game("squares")
    states, log = random_log(game, 2, seed=3)
    cut = log[:4] + [(0, "resign")]
    replay = Replay(game, 2, game.resolve_options({}, 2), 3, cut)
    assert game.outcome(replay.state_at(5)).winners == (1,)
    assert replay.state_at(4) == states[4]
    assert len(replay._checkpoints) >= 1 and CHECKPOINT_EVERY > 1


# ---- the viewer's policy --------------------------------------------------------------------------------
async def test_points_of_view_widen_only_when_the_game_is_over(host):
    gid = await started(host, "arena", 2)
    row = await host.store.load(gid)
    assert viewpoints(row, STRANGER) == [None]
    assert viewpoints(row, USERS[0]) == [row.seat_of(USERS[0]), None]
    other = 1 - row.seat_of(USERS[0])
    with pytest.raises(ServiceError) as err:
        await host.replay(gid, USERS[0], 0, other, where=Where(1, None))
    assert err.value.key == "replay_view_refused"
    with pytest.raises(ServiceError) as err:
        await host.replay(gid, STRANGER, 0, None, where=Where(2, None))  # another server's game
    assert err.value.key == "game_not_found"
    await play(host, gid)
    row = await host.store.load(gid)
    assert viewpoints(row, STRANGER) == [None, 0, 1]
    outbox = await host.replay(gid, STRANGER, 1, other, where=Where(1, None))
    assert outbox.reply_viewer.pov == other and outbox.reply_image.startswith(b"\x89PNG")
    with pytest.raises(ServiceError) as err:
        await host.replay(gid, STRANGER, 10_000, None, where=Where(1, None))
    assert err.value.key == "replay_step_gone"


def texts(outbox) -> list[str]:
    viewer = outbox.reply_viewer
    labels = [render("en", text) for menu in viewer.jumps for _, text in menu]
    labels += [render("en", text) for _, text in viewer.povs]
    return [render("en", line) for line in outbox.reply] + labels


def secret_move(game, state, seat, action) -> bool:
    return not game.action_is_public(action)


@pytest.mark.parametrize("name, players, steps", [("arena", 2, None), ("monsterhunter", 2, 40),
                                                  ("monsterhunter", 3, 60), ("hostile", 4, 60)])
async def test_a_non_player_mid_game_sees_the_same_bytes_with_the_secrets_re_dealt(host, name, players, steps,
                                                                                   monkeypatch):
    gid = await started(host, name, players)
    # Play on, stopping right after a secret action (an Arena order whose step has not resolved).
    await play(host, gid, steps=steps or 400, seed=5,
               stop=(lambda *a: secret_move(*a) and a[0].name == "arena"))
    row = await host.store.load(gid)
    assert row.status == "active"
    actions = await host.store.actions(gid)

    async def every_step():
        Replays._frame_cache = None
        replay_frames._replays.clear()
        return [await host.replay(gid, STRANGER, k, where=Where(1, None)) for k in range(len(actions) + 1)]

    honest = await every_step()
    assert all(o.reply_viewer.povs == honest[0].reply_viewer.povs for o in honest)
    assert [p for p, _ in honest[0].reply_viewer.povs] == [None]

    # Re-deal: every action still secret is replaced in what the service reads, and every state's
    # hidden parts are shuffled before it is viewed. Nothing the stranger gets may change.
    game = get_game(name)
    secret = [a for a in actions if not game.action_is_public(a.action)]
    original = [(a.seat, a.action) for a in actions]
    real_actions = host.store.actions

    async def re_dealt_actions(game_id, **kw):
        rows = await real_actions(game_id, **kw)
        return [ActionRow(a.n, a.seat, a.user_id, "zz" if (a in secret and a.version > row.step_version) else a.action,
                          a.version, a.at, a.stand_in) for a in rows]

    def re_dealt_frame(game_name, players_, options, seed, log, pov, lang="en"):
        replay = Replay(game, players_, options, seed, original[: len(log)])
        step = replay.step(len(log))
        scrambled = game.scramble_hidden(step.state, pov, Rng(len(log) + 99))
        outcome = game.outcome(scrambled)
        import renderers
        from games.base import events_for
        return (events_for(step.events, None), outcome.to_json() if outcome else None,
                renderers.render(game_name, game.view(scrambled, pov), lang=lang))

    monkeypatch.setattr(host.store, "actions", re_dealt_actions)
    monkeypatch.setattr(replay_frames, "frame", re_dealt_frame)
    again = await every_step()
    for k, (a, b) in enumerate(zip(honest, again)):
        assert a.reply_image == b.reply_image, f"step {k}: the image depends on a secret"
        assert texts(a) == texts(b), f"step {k}: the words depend on a secret"
    if name in ("arena", "monsterhunter"):
        assert secret and any("🔒" in line for o in honest for line in texts(o))


async def test_a_player_sees_their_own_secrets_in_their_own_view(host):
    gid = await started(host, "monsterhunter", 2)
    await play(host, gid, steps=10)
    row = await host.store.load(gid)
    seat = row.seat_of(USERS[0])
    mine = await host.replay(gid, USERS[0], 10, where=Where(1, None))
    assert mine.reply_viewer.pov == seat
    public = await host.replay(gid, USERS[0], 10, None, where=Where(1, None))
    assert mine.reply_image != public.reply_image  # a hand is drawn only in its owner's view
    stranger = await host.replay(gid, STRANGER, 10, where=Where(1, None))
    assert stranger.reply_image == public.reply_image


# ---- export and playback --------------------------------------------------------------------------------
@pytest.mark.parametrize("name, players", [(g.name, n) for g in all_games() for n in g.player_counts()])
async def test_export_then_local_replay_round_trips(host, tmp_path, name, players):
    gid = await started(host, name, players)
    await play(host, gid, seed=players)
    row = await host.store.load(gid)
    assert row.status == "finished"
    outbox = await host.export(gid, STRANGER, where=Where(1, None))
    (filename, content), = outbox.reply_files
    data = json.loads(content)
    assert data["seed"] == row.seed and data["final_state_sha256"] == state_hash(row.state)
    assert [a["action"] for a in data["actions"]] == [a.action for a in await host.store.actions(gid)]
    path = tmp_path / filename
    path.write_bytes(content)
    said = []
    assert play_back(str(path), "en", tmp_path / "boards", echo=said.append) == 0, said[-3:]
    assert any("✅" in s and "final position" in s for s in said) and any("commitment" in s for s in said)
    assert len(list((tmp_path / "boards").glob("*.png"))) == len(data["actions"]) + 1
    # A file whose actions were changed does not pass.
    data["actions"] = data["actions"][:-1]
    path.write_text(json.dumps(data))
    said.clear()
    assert play_back(str(path), "ja", tmp_path / "boards2", echo=said.append) == 1
    assert "❌" in said[-2] + said[-1]


async def test_a_running_hidden_game_exports_no_seed_and_no_secret(host, tmp_path):
    gid = await started(host, "arena", 2)
    await play(host, gid, steps=1)  # one secret order handed in, its step not resolved
    row = await host.store.load(gid)
    outbox = await host.export(gid, STRANGER, where=Where(1, None))
    content = outbox.reply_files[0][1].decode()
    data = json.loads(content)
    assert data["seed"] is None and data["salt"] is None and data["final_state_sha256"] is None
    assert str(row.seed) not in content and row.salt not in content
    assert data["commitment"] and [a["action"] for a in data["actions"]] == [None]
    own = json.loads((await host.export(gid, row.user_of(data["actions"][0]["seat"]), where=Where(1, None))).reply_files[0][1])
    assert own["actions"][0]["action"] is not None  # a player's own order is theirs to see
    path = tmp_path / "running.json"
    path.write_text(content)
    said = []
    assert play_back(str(path), "en", tmp_path / "b", echo=said.append) == 0
    assert "seed" in said[1] and not list((tmp_path / "b").glob("*.png"))


async def test_a_bad_file_is_refused_clearly(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{\"format\": \"something else\"}")
    said = []
    assert play_back(str(path), "en", tmp_path, echo=said.append) == 2 and "not a game export" in said[0]


# ---- the recap ------------------------------------------------------------------------------------------
async def test_the_recap_is_claimed_once_and_fits_the_budget(host):
    gid = await started(host, "squares", 2)
    await play(host, gid)
    row = await host.store.load(gid)
    await host.store.mark_posted(gid, row.version, 1)
    assert await host.due_recaps() == [gid]
    recap = await host.claim_recap(gid)
    assert recap is not None and len(recap.data) < 8 * 1024 * 1024
    animation = Image.open(io.BytesIO(recap.data))
    assert animation.format == "WEBP" and getattr(animation, "n_frames", 1) > 1
    assert await host.claim_recap(gid) is None  # leased by the first
    await host.recap_posted(gid, 42)
    assert await host.due_recaps() == [] and await host.claim_recap(gid) is None


async def test_a_recap_that_cannot_be_drawn_is_given_up_after_a_few_tries(host, monkeypatch):
    gid = await started(host, "squares", 2)
    await play(host, gid)
    row = await host.store.load(gid)
    await host.store.mark_posted(gid, row.version, 1)

    def broken(*args):
        raise ValueError("too big")

    monkeypatch.setattr(replay_frames, "recap", broken)
    for _ in range(3):
        assert await host.claim_recap(gid) is None
    assert await host.due_recaps() == []


def test_a_long_game_recap_shrinks_its_frames_to_fit():
    game = get_game("hostile")
    _, log = random_log(game, 4, seed=2)
    options = game.resolve_options({}, 4)
    full = Image.open(io.BytesIO(replay_frames.recap("hostile", 4, options, 2, log)))
    data = replay_frames.recap("hostile", 4, options, 2, log, budget=1200 * 1024)
    assert len(data) <= 1200 * 1024
    assert Image.open(io.BytesIO(data)).width < full.width
    tiny = replay_frames.recap("hostile", 4, options, 2, log, budget=300 * 1024)
    assert len(tiny) <= 300 * 1024 and Image.open(io.BytesIO(tiny)).n_frames < full.n_frames
