"""Monster Hunter through the game host service (issue #15): saved decks, private panels sent only
when they change (their buttons valid meanwhile), quiet steps and one ping per wait, saved default
policies played as ordinary actions, retired seats out of pings and lists, and no secret on any
public surface (every public post, image and history line is the same, byte for byte, when
everything hidden is re-dealt)."""

from __future__ import annotations

import json

import pytest

import renderers
from bot.i18n import render
from bot.service import GameHost
from bot.service.decks import logged_action
from bot.storage.sqlite import Store
from games import get_game
from games.rng import Rng
from tests.test_service import refused

G = get_game("monsterhunter")
A, B, C, D = 101, 202, 303, 404


@pytest.fixture
async def host(tmp_path):
    store = await Store.open(str(tmp_path / "mh.sqlite3"))
    seeds = iter(range(7000, 8000))
    h = GameHost(store, clock=lambda: "2026-11-21T00:00:00+00:00", seed_source=lambda: next(seeds),
                 render=renderers.render)
    h.db_path = str(tmp_path / "mh.sqlite3")
    yield h
    await store.close()




async def start(host, users=(A, B, C)):
    row, _ = await host.create("monsterhunter", None, guild_id=1, channel_id=5, user_id=users[0], locale="en")
    for u in users[1:]:
        await host.join(row.id, u)
    outbox = await host.start(row.id, users[0])
    return row.id, outbox


def text(lines) -> str:
    return "\n".join(render("en", line) for line in lines)


READY = G.ready_decks()["ready-h02"]


async def test_decks_saved_checked_shown_and_named_at_the_loadout(host):
    out = await host.deck_check(A, READY)
    assert "✅" in text(out.reply) and "40" in text(out.reply)
    out = await host.deck_check(A, "A01x41.H01x1.Z99x2")
    said = text(out.reply)
    assert "4 problems" in said and "44 cards" in said and "A01" in said and "H01" in said and "Z99" in said
    assert "malformed" in text((await host.deck_check(A, "A01x2..")).reply)
    await refused(host, host.deck_save(A, "bad", "A01x41"), "deck_refused")
    await refused(host, host.deck_save(A, "two words", READY), "deck_name_bad")
    await refused(host, host.deck_save(A, "x" * 33, READY), "deck_name_long")
    await refused(host, host.deck_save(A, "ready-h01", READY), "deck_name_reserved")
    assert "saved" in text((await host.deck_save(A, "ｍｙｄｅｃｋ", READY)).reply)  # NFKC: full-width typed
    assert "replaced" in text((await host.deck_save(A, "mydeck", READY)).reply)
    listing = text((await host.deck_list(A)).reply)
    assert "`mydeck`" in listing and "`ready-h01`" in listing and "(1/25 saved)" in listing
    assert "`mydeck`" not in text((await host.deck_list(B)).reply)  # per user
    shown = await host.deck_show(A, "mydeck")
    assert shown.reply_image[:4] == b"\x89PNG" and READY in text(shown.reply)
    await refused(host, host.deck_show(B, "mydeck"), "deck_not_found")
    for i in range(24):
        await host.deck_save(A, f"d{i}", READY)
    await refused(host, host.deck_save(A, "onemore", READY), "deck_limit")
    assert "deleted" in text((await host.deck_delete(A, "d0")).reply)
    await refused(host, host.deck_delete(A, "d0"), "deck_not_found")
    await refused(host, host.deck_delete(A, "ready-h01"), "deck_name_reserved")
    # At the loadout: the saved name is expanded into its code; panels and autocomplete offer it.
    game_id, outbox = await start(host, (A, B))
    panel = next(p for p in outbox.privates if p.user_id == A)
    assert "take H01 2A mydeck" in panel.controls.actions or any(
        "mydeck" in a for a in await host._offered(await host.store.load(game_id), G, 0))
    row = await host.store.load(game_id)
    seat = row.seat_of(A)
    assert "take H03 2A mydeck" in await host.deck_completions(game_id, A, "take H03 2A my")
    await host.act(game_id, A, "take H03 2A mydeck", typed=True)
    logged = await host.store.actions(game_id)
    assert logged[-1].action == f"take H03 2A {READY}" and logged[-1].seat == seat
    history = text(await host.history(game_id))
    assert READY not in history and "🔒" in history


async def play_go(host, game_id, limit=400, on_outbox=None):
    """Everyone answers with ``go`` until the game ends; returns the outboxes."""
    seen = []
    for _ in range(limit):
        row = await host.store.load(game_id)
        if row.status != "active":
            break
        seat = min(G.to_act(row.state))
        out = await host.act(game_id, row.user_of(seat), "go", seen_version=row.version)
        seen.append((row, seat, out))
        if on_outbox:
            await on_outbox(row, seat, out)
    return seen


async def test_panels_pings_and_posts_follow_what_changed(host):
    game_id, _ = await start(host, (A, B, C))
    quiet = posted = 0
    async def check(before, seat, out):
        nonlocal quiet, posted
        row = await host.store.load(game_id)
        waiting = sorted(G.to_act(row.state)) if row.status == "active" else []
        for private in out.privates:  # only seats that must act get a panel, and only a changed one
            s = row.seat_of(private.user_id)
            assert s in waiting
            assert row.settings["panels"][str(s)][1] == row.version
        for post in out.posts:
            if post.quiet:
                quiet += 1
                assert not post.lines and not post.image and not post.mentions
            else:
                posted += 1
            if post.mentions:  # one ping per wait, naming everyone the game waits for
                assert row.settings["wait_from"] == row.version
                assert sorted(post.mentions) == sorted(row.user_of(s) for s in waiting)
    await play_go(host, game_id, on_outbox=check)
    assert quiet > 5 and posted > 5
    assert (await host.store.load(game_id)).status == "finished"


async def test_an_old_panel_stays_valid_while_it_shows_the_same(host):
    """A seat's panel buttons work after others acted elsewhere, as long as its own hand and
    question are unchanged; once they change, the old panel is refused as stale."""
    game_id, outbox = await start(host, (A, B, C))
    row = await host.store.load(game_id)
    assert row.state["phase"] == "loadout"
    drawn = {p.user_id: p.controls.version for p in outbox.privates}
    # A and B hand in their loadouts; C's panel (drawn at the start) still works.
    for user in (A, B):
        await host.act(game_id, user, "go", seen_version=drawn[user])
    assert "✅" in text((await host.act(game_id, C, "go", seen_version=drawn[C])).reply)
    row = await host.store.load(game_id)
    assert row.state["phase"] == "prep"
    # In the preparation, an old version from before C's own change is refused.
    seat = row.seat_of(C)
    await refused(host, host.act(game_id, C, "go", seen_version=drawn[C]), "stale")
    assert row.settings["panels"][str(seat)][1] <= row.version


async def test_saved_policies_are_played_for_the_player_privately(host):
    await host.set_policy(B, "def:block")
    await host.set_policy(B, "atk:auto")
    assert (await host.store.preferences(B))["monsterhunter"] == {"def": "block", "atk": "auto"}
    await refused(host, host.set_policy(B, "def:maybe"), "policy_bad")
    await host.set_policy(B, "atk:ask")  # the default: nothing to play
    assert (await host.store.preferences(B))["monsterhunter"] == {"def": "block"}
    game_id, _ = await start(host, (A, B))
    await play_go(host, game_id, limit=6)
    row = await host.store.load(game_id)
    logged = [(a.seat, a.user_id, a.action) for a in await host.store.actions(game_id)]
    assert (row.seat_of(B), B, "auto def:block") in logged
    assert row.state["seats"][row.seat_of(B)]["policy"]["def"] == "block"
    assert "auto def:block" not in text(await host.history(game_id))


async def test_a_retired_seat_is_never_pinged_nor_listed(host):
    game_id, _ = await start(host, (A, B, C))
    await play_go(host, game_id, limit=8)
    await host.resign(game_id, C)
    row = await host.store.load(game_id)
    seat = row.seat_of(C)
    assert seat in G.retired(row.state)
    async def check(before, s, out):
        for post in out.posts:
            assert C not in post.mentions
        assert all(p.user_id != C for p in out.privates)
    await play_go(host, game_id, limit=60, on_outbox=check)
    summary = (await host.summaries([game_id]))[0]
    assert C not in summary.to_act_user_ids


async def test_no_secret_reaches_a_public_surface(host):
    """Re-deal everything hidden (hands, deck orders, face-down cards, pending answers, policies)
    and compare every public post's text and image and the history, byte for byte; and another
    seat's panel likewise."""
    game_id, _ = await start(host, (A, B, C))
    checked = 0
    for step, (row, seat, out) in enumerate(await play_go(host, game_id, limit=120)):
        if step % 7:
            continue
        row = await host.store.load(game_id)
        if row.status != "active":
            break
        surfaces = await public_surfaces(host, row)
        for i in range(3):
            scrambled = G.scramble_hidden(row.state, None, Rng(step * 10 + i))
            assert await public_surfaces(host, row, scrambled) == surfaces
        viewer = min(G.to_act(row.state))
        panel = await panel_surface(host, row, viewer)
        other = G.scramble_hidden(row.state, viewer, Rng(step))
        assert await panel_surface(host, row, viewer, other) == panel
        checked += 1
    assert checked >= 5


async def public_surfaces(host, row, state=None):
    from bot.service import Outbox

    if state is not None:
        row = type(row)(**{**row.__dict__, "state": state})
    outbox = Outbox()
    await host._announce(outbox, row, G, [])
    post = outbox.posts[0]
    return (text(post.lines), post.image, text(post.status_lines), text(await host.history(row.id)),
            json.dumps(G.view(row.state, None), sort_keys=True))


async def panel_surface(host, row, seat, state=None):
    if state is not None:
        row = type(row)(**{**row.__dict__, "state": state})
    private = await host._private(row, G, seat)
    return text(private.lines), private.image, sorted(private.controls.actions) if private.controls else None


async def drill_to(host, game_id, user, version, prefix):
    out = await host.drill(game_id, user, version, prefix)
    return out.reply_controls


async def test_the_loadout_panel_pictures_the_choices_and_offers_saved_then_ready_decks(host):
    await host.deck_save(A, "stones", READY)
    game_id, outbox = await start(host, (A, B))
    row = await host.store.load(game_id)
    seat = row.seat_of(A)
    panel = next(p for p in outbox.privates if p.user_id == A)
    # The picture: the hunters and sheets on offer, not the (still empty) board.
    view = G.view(row.state, seat)
    assert view["me"]["offer"] == {"kind": "two", "hunters": ["H01", "H02", "H03", "H04"],
                                   "sheets": ["2A", "2B", "2C"], "flip": False}
    assert panel.image == renderers.render_panel("monsterhunter", view) != renderers.render("monsterhunter", view)
    # hunters > sheets > decks: the deck menu names the default, the saved deck, then the other ready decks.
    controls = await drill_to(host, game_id, A, panel.controls.version, ("take", "H01", "take H01 2A"))
    base = "take H01 2A"
    assert controls.actions == [base, f"{base} stones", f"{base} ready-h02", f"{base} ready-h03", f"{base} ready-h04"]
    words = {lang: [render(lang, controls.labels[a]) for a in controls.actions] for lang in ("en", "ja")}
    assert words["en"] == ["The hunter's own ready deck", "Your deck: stones",
                           "Ready deck: Powder and Stone, Brann's ready deck (H02)",
                           "Ready deck: Long Shots, Sora's ready deck (H03)",
                           "Ready deck: Field Medic, Mirei's ready deck (H04)"]
    assert words["ja"][1] == "保存したデッキ：stones" and words["ja"][2].startswith("構築済みデッキ：")
    assert render("en", controls.question).startswith("Choose a deck")
    # Picking a ready deck in the menu plays it: the reply names it, the log holds its code.
    out = await host.drill(game_id, A, panel.controls.version, ("take", "H01", base, f"{base} ready-h03"))
    assert f"`{base} ready-h03`" in text(out.reply)
    logged = (await host.store.actions(game_id))[-1]
    assert logged.action == f"{base} {G.ready_decks()['ready-h03']}" == logged_action(G, f"{base} ready-h03")
    # Once picked, A's panel shows the pick; after the loadout, the board with the hand.
    row = await host.store.load(game_id)
    assert (await host.panel(game_id, A)).image == renderers.render_panel("monsterhunter", G.view(row.state, seat))
    await host.act(game_id, B, "go", seen_version=row.version)
    row = await host.store.load(game_id)
    assert row.state["phase"] == "prep"
    assert (await host.panel(game_id, A)).image == renderers.render("monsterhunter", G.view(row.state, seat))


async def test_a_full_deck_menu_splits_into_menus_of_25_at_most(host):
    from bot.discord_app.components import controls_view

    for i in range(25):
        await host.deck_save(A, f"d{i:02d}", READY)
    game_id, outbox = await start(host, (A, B))
    panel = next(p for p in outbox.privates if p.user_id == A)
    controls = await drill_to(host, game_id, A, panel.controls.version, ("take", "H02", "take H02 2B"))
    assert len(controls.actions) == 1 + 25 + 3  # default, saved, the other hunters' ready decks
    assert controls.actions[1:26] == [f"take H02 2B d{i:02d}" for i in range(25)]
    assert "take H02 2B ready-h02" not in controls.actions  # that one is the default
    menus = [item for item in controls_view(controls, "ja").children if hasattr(item, "options")
             or hasattr(getattr(item, "item", None), "options")]
    sizes = [len(getattr(m, "item", m).options) for m in menus]
    assert sizes == [25, 4]


def test_logged_action_is_the_one_mapping_from_a_choice_to_the_log():
    ready = G.ready_decks()
    assert logged_action(G, "take h2 2b ready-h04") == f"take H02 2B {ready['ready-h04']}"
    assert logged_action(G, "take H02 2B ready-h02") == "take H02 2B"  # the plain take plays it
    assert logged_action(G, "take H02 2B mine", {"mine": ready["ready-h01"]}) == f"take H02 2B {ready['ready-h01']}"
    assert logged_action(G, "take H02 2B unknown") == "take H02 2B unknown"  # refused by the engine later
    assert logged_action(G, "go") == "go" and logged_action(G, "HIT M7 w3") == "hit m7 W03"
