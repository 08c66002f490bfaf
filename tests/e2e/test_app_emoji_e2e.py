"""The games' pieces as the application's own emoji: drawn by renderers/emoji.py, uploaded once at
start through the application emoji endpoints (again only when a drawing changed), and shown beside
a Monster Hunter card's name in a menu and as a seat's piece in a panel's words."""

from __future__ import annotations

from bot.discord_app.custom_ids import decode
from renderers import emoji as pictures
from tests.e2e.test_bot_e2e import open_lobby, reply_text, running_bot
from tests.e2e.test_mh_e2e import panel_of


def emoji_posts(fake) -> list:
    return [r for r in fake.requests if r.method == "POST" and r.path.endswith("/emojis")]


async def test_a_monster_hunter_menu_shows_card_emoji_uploaded_once(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob"), guild_locale="en-US") as (fake, bot):
        drawn = pictures.drawings()
        await fake.wait_until(lambda: len(fake.app_emojis) == len(drawn), timeout=30, what="the emoji uploads")
        by_name = {e["name"]: int(e["id"]) for e in fake.app_emojis.values()}
        for key, png in drawn.items():  # each under its drawing's hash, the very picture drawn
            assert fake.app_emoji_images[by_name[pictures.emoji_name(key, png)]] == png
        assert len(emoji_posts(fake)) == len(drawn)

        game_id, lobby = await open_lobby(fake, game="monsterhunter")
        join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
        await reply_text(await fake.click_button(lobby, join, "bob"))
        start = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":start"))
        await reply_text(await fake.click_button(fake.message(lobby.id), start, "alice"))
        panel = await panel_of(fake, bot, game_id, "alice")
        pieces = [f"<:{pictures.emoji_name(f'piece_{s}', drawn[f'piece_{s}'])}:" for s in range(pictures.SEATS)]
        assert any(p in panel.text() for p in pieces), panel.text()  # the seat's mark drawn as its piece
        menu = next(c for c in panel.custom_ids() if decode(c) and decode(c).kind == "g")
        picker = await fake.select(panel, menu, ["take"], "alice")
        await picker.response()
        hunters = await picker.answer(lambda m: m.custom_ids(), timeout=10)
        options = [o for c in hunters.all_components() if c.get("type") == 3 for o in c["options"]]
        hunter_emoji = by_name[pictures.emoji_name("card_hunter", drawn["card_hunter"])]
        assert options and all(o["value"].startswith("H") for o in options)
        assert all(int(o["emoji"]["id"]) == hunter_emoji for o in options), options  # the picture beside the name

        # A restart uploads nothing: every drawing is there under its hash.
        await bot.stop()
        await bot.start()
        await fake.wait_for_commands(timeout=30)
        await fake.wait_until(lambda: sum(1 for r in fake.requests if r.method == "GET" and r.path.endswith("/emojis"))
                              >= 2, timeout=30, what="the second start to list the emoji")
        assert len(emoji_posts(fake)) == len(drawn)


async def test_a_changed_drawing_replaces_its_emoji_and_a_refused_upload_leaves_words(tmp_path):
    async with running_bot(tmp_path, users=("alice",), guild_locale="en-US") as (fake, bot):
        drawn = pictures.drawings()
        await fake.wait_until(lambda: len(fake.app_emojis) == len(drawn), timeout=30, what="the emoji uploads")
        # An emoji from an older drawing (another hash) is deleted at the next start; a full app refuses uploads.
        stale = next(e for e in fake.app_emojis.values() if e["name"].startswith("tt_die_1_"))
        stale["name"] = "tt_die_1_00000000"
        fake.app_emoji_limit = len(fake.app_emojis)
        await bot.stop()
        await bot.start()
        await fake.wait_until(lambda: all(e["name"] != "tt_die_1_00000000" for e in fake.app_emojis.values()),
                              timeout=30, what="the stale emoji to be deleted")
        assert any(r.method == "DELETE" and "/emojis/" in r.path for r in fake.requests)
