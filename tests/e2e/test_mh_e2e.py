"""Monster Hunter in Discord (issue #15), through the real bot process and the stand-in: saved decks
by /deck, a three-player game with one player's DMs closed and one AI seat played by panel buttons
(DM, and the ephemeral "My panel" fallback) and /play, a restart in the middle of a hunt with an old
panel's button still working, and a four-player game to its end whose loadouts are picked by clicks
(a saved deck, another hunter's ready deck)."""

from __future__ import annotations

import json
import re

from bot.discord_app.custom_ids import decode
from bot.i18n import T, render
from bot.service.words import termed
from games import get_game
from tests.e2e.test_load_e2e import options_of
from tests.e2e.test_bot_e2e import game_row, is_board, home, log_rows, open_lobby, reply_text, running_bot, uid

G = get_game("monsterhunter")
READY = G.ready_decks()["ready-h02"]


async def deck(fake, user: str, command: str, **options) -> str:
    """Type a /deck command (named in full, e.g. "deck check") and read its answer."""
    return await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, user, command, options))


async def panel_of(fake, bot, game_id: int, user: str):
    """The user's private panel through the "My panel" button of the game's latest post."""
    carrier = [m for m in fake.messages(home(bot, fake, game_id), include_ephemeral=False)
               if any(decode(c) and decode(c).kind == "p" and decode(c).game_id == game_id for c in m.custom_ids())][-1]
    button = next(c for c in carrier.custom_ids() if decode(c).kind == "p")
    handle = await fake.click_button(carrier, button, user)
    await handle.response()
    return await handle.answer(timeout=10)


async def press_go(fake, panel, user: str) -> str:
    go = next(c for c in panel.custom_ids() if decode(c) and decode(c).arg == "go")
    return await reply_text(await fake.click_button(panel, go, user))


def state_of(bot, game_id: int) -> dict:
    return json.loads(game_row(bot.db_path, game_id)["state"])


def seat_users(bot, game_id: int) -> dict[int, int]:
    import sqlite3

    with sqlite3.connect(bot.db_path) as db:
        return dict(db.execute("SELECT seat, user_id FROM seats WHERE game_id = ?", (game_id,)).fetchall())


async def play_by_panels(fake, bot, game_id: int, names: list[str], steps: int, on_step=None) -> int:
    """Each step, someone the game waits for opens their panel and presses ``go``."""
    by_id = {uid(fake, n): n for n in names}
    done = 0
    for _ in range(steps):
        row = game_row(bot.db_path, game_id)
        if row["status"] != "active":
            break
        state = json.loads(row["state"])
        users = seat_users(bot, game_id)
        seat = min(s for s in G.to_act(state) if users[s] > 0)
        name = by_id[users[seat]]
        if on_step:
            await on_step(state, name)
        panel = await panel_of(fake, bot, game_id, name)
        assert panel.ephemeral and panel.attachments, panel.content
        assert decode(panel.custom_ids()[0]).arg == "go"  # go is the first button
        answer = await press_go(fake, panel, name)
        assert "✅" in answer, answer
        done += 1
    return done


async def pick_in_menus(fake, message, user: str, steps: list[str]):
    """Choose each step in turn in the menus of a panel (each answer carries the next menus); stop
    where the actions below are few enough to be buttons."""
    for step in steps:
        menu = next((c for c in message.custom_ids() if decode(c) and decode(c).kind == "g"
                     and step in options_of(message, c)), None)
        if menu is None:
            assert any(decode(c) and decode(c).kind == "a" for c in message.custom_ids()), message.text()
            break
        picker = await fake.select(message, menu, [step], user)
        await picker.response()
        message = await picker.answer(timeout=10)
    return message


def button_labels(message) -> dict[str, str]:
    return {c["custom_id"]: c.get("label", "") for c in message.all_components() if c.get("type") == 2}


async def take_by_panel(fake, bot, game_id: int, user: str, hunter: str, sheet: str, deck: str, label: str) -> None:
    """A whole loadout by clicks: the panel's menus (take > hunter > sheet), then the deck's button."""
    panel = await panel_of(fake, bot, game_id, user)
    base = f"take {hunter} {sheet}"
    decks = await pick_in_menus(fake, panel, user, ["take", hunter, base])
    labels = {decode(c).arg: text for c, text in button_labels(decks).items() if decode(c)}
    if list(labels)[0] == base:  # the deck menu of one sheet: the default, saved decks, ready decks
        assert labels[base] == "The hunter's own ready deck" and labels[f"{base} {deck}"] == label, labels
    else:  # every sheet and deck of this hunter as buttons: each names its deck and sheet (80 characters at most)
        assert labels[f"{base} {deck}"] == f"{label} · {said_en(base)}"[:80], labels
    button = next(c for c in decks.custom_ids() if decode(c) and decode(c).arg == f"{base} {deck}")
    answer = await reply_text(await fake.click_button(decks, button, user))
    assert "✅" in answer and f"`{base} {deck}`" in answer, answer


def said_en(action: str) -> str:
    """A Monster Hunter action in the words its buttons use."""
    words = G.choice_words(G.action_path(action))
    params = termed(G, {k: v for k, v in words.items() if k != "type"})
    return render("en", T(f"choice.monsterhunter.{words['type']}", **params))


def public_texts(fake, bot, game_id: int) -> str:
    return "\n".join(m.text() for m in fake.messages(home(bot, fake, game_id), include_ephemeral=False))


async def test_decks_and_a_three_player_hunt_with_closed_dms_an_ai_and_a_restart(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob", "carol"), dm_closed=("bob",),
                           guild_locale="en-US") as (fake, bot):
        # Decks: every problem named, saved per user, shown as a picture, deleted.
        bad = await deck(fake, "alice", "deck check", code="A01x41.H01x1.Z99x2")
        assert "4 problems" in bad and "Z99" in bad and "H01" in bad
        assert "✅" in await deck(fake, "alice", "deck check", code=READY)
        refused = await deck(fake, "alice", "deck save", name="broken", code="A01x3")
        assert refused.startswith("⚠️") and "40" in refused
        assert "saved" in await deck(fake, "alice", "deck save", name="stones", code=READY)
        assert "saved" in await deck(fake, "alice", "deck save", name="spare", code=READY)
        listing = await deck(fake, "alice", "deck list")
        assert "`stones`" in listing and "`ready-h01`" in listing
        handle = await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "deck show", {"name": "stones"})
        await handle.response()
        shown = await handle.answer(timeout=10)
        assert shown.attachments and READY in shown.text()
        assert "deleted" in await deck(fake, "alice", "deck delete", name="spare")
        assert (await deck(fake, "alice", "deck delete", name="spare")).startswith("⚠️")

        # A three-player game: alice, bob (DMs closed) and an AI seat.
        game_id, lobby = await open_lobby(fake, game="monsterhunter")
        join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
        assert "DM" in await reply_text(await fake.click_button(lobby, join, "bob"))
        menu = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":ai"))
        await reply_text(await fake.select(fake.message(lobby.id), menu, ["easy"], "alice"))
        start = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":start"))
        await reply_text(await fake.click_button(fake.message(lobby.id), start, "alice"))
        dm = await fake.wait_for_dm("alice", lambda m: m.custom_ids())
        assert dm.attachments and decode(dm.custom_ids()[0]).arg == "go"
        await fake.wait_for_message(home(bot, fake, game_id), lambda m: str(uid(fake, "bob")) in m.text()
                                    and "DM" in m.text() and m.custom_ids())
        # Alice names her saved deck in /play (autocomplete offers it); the log holds the code.
        choices = await (await fake.autocomplete(fake.guild_id, fake.channel_id, "alice", "play",
                                                 {"action": "take H03 4A st"}, "action")).choices()
        assert [c["value"] for c in choices] == ["take H03 4A stones"]
        assert "✅" in await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "play",
                                                              {"action": "take H03 4A stones"}))
        assert any(a == f"take H03 4A {READY}" for _, _, a in log_rows(bot.db_path, game_id))
        # Bob's panel arrives by the fallback button; he picks through the menus there.
        panel = await panel_of(fake, bot, game_id, "bob")
        menus = [c for c in panel.custom_ids() if decode(c).kind == "g"]
        assert menus  # hunters, sheets and decks are in the menus below go
        assert "✅" in await press_go(fake, panel, "bob")

        # Play by panels until the first hunt decision; restart the bot there and press an old panel.
        for _ in range(80):
            state = state_of(bot, game_id)
            if state["phase"] == "hunt" or game_row(bot.db_path, game_id)["status"] != "active":
                break
            await play_by_panels(fake, bot, game_id, ["alice", "bob"], 1)
        state = state_of(bot, game_id)
        assert state["phase"] == "hunt", state["phase"]
        if True:
            users = seat_users(bot, game_id)
            name = {uid(fake, n): n for n in ("alice", "bob")}[users[min(s for s in G.to_act(state) if users[s] > 0)]]
            old = await panel_of(fake, bot, game_id, name)
            await bot.kill()
            await bot.start()
            assert "✅" in await press_go(fake, old, name)  # drawn before the restart, still valid
        await play_by_panels(fake, bot, game_id, ["alice", "bob"], 40)
        # Nothing secret in the channel: no hand card names, no deck code, no secret action.
        public = public_texts(fake, bot, game_id)
        assert READY not in public and "take H03" not in public and "auto " not in public
        for seat_state in state_of(bot, game_id)["seats"]:
            for cid in set(seat_state["hand"]):
                assert not re.search(rf"\b{cid}\b.*🔒", public)


async def test_four_players_play_monster_hunter_to_its_end(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob", "carol", "dave"), guild_locale="en-US") as (fake, bot):
        names = ["alice", "bob", "carol", "dave"]
        assert "saved" in await deck(fake, "alice", "deck save", name="mine", code=READY)
        game_id, lobby = await open_lobby(fake, game="monsterhunter")
        for name in names[1:]:
            join = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":join"))
            await reply_text(await fake.click_button(fake.message(lobby.id), join, name))
        start = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":start"))
        await reply_text(await fake.click_button(fake.message(lobby.id), start, "alice"))
        await fake.wait_until(lambda: game_row(bot.db_path, game_id)["status"] == "active", timeout=10)
        # By clicks alone: alice takes her saved deck, bob another hunter's ready deck (both as codes in the log).
        await take_by_panel(fake, bot, game_id, "alice", "H01", "4A", "mine", "Your deck: mine")
        await take_by_panel(fake, bot, game_id, "bob", "H03", "4B~", "ready-h04",
                            "Ready deck: Field Medic, Mirei's ready deck (H04)")
        played = {a for _, _, a in log_rows(bot.db_path, game_id)}
        assert {f"take H01 4A {READY}", f"take H03 4B~ {G.ready_decks()['ready-h04']}"} <= played, played
        steps = await play_by_panels(fake, bot, game_id, names, 600)
        assert game_row(bot.db_path, game_id)["status"] == "finished", steps
        final = [m for m in fake.messages(home(bot, fake, game_id), include_ephemeral=False) if is_board(m)][-1]
        assert "🏆" in final.text() or "🤝" in final.text()
        # Fewer boards than actions: steps that change nothing public post nothing.
        boards = [m for m in fake.messages(home(bot, fake, game_id), include_ephemeral=False) if m.attachments]
        assert len(boards) < steps
