"""The Discord adapter driven through discord.py's real objects.

Interactions are built from gateway payloads and fed to the client's real ConnectionState (as
discord.py's own tests build models from payloads). HTTP is the only thing replaced: a recorder
stands in for discord.py's REST client and its webhook adapter, so we can assert on exactly what
the bot would have sent to Discord.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json

import discord
import pytest
import re
from discord.webhook.async_ import AsyncWebhookAdapter

from bot import i18n
from games import get_game
from bot.discord_app.client import TabletopBot
from bot.discord_app.custom_ids import decode

APP_ID = 900000000000000001
BOT_ID = 900000000000000002
GUILD_ID = 700000000000000001
CHANNEL_ID = 700000000000000002
ALICE = {"id": "500000000000000001", "username": "alice", "global_name": "Alice", "discriminator": "0",
         "avatar": None}
BOB = {"id": "500000000000000002", "username": "bob", "global_name": "Bob", "discriminator": "0", "avatar": None}
# Snowflakes of now: an interaction's id dates it, and one from the past would have an expired token.
def fresh_snowflakes():
    """Ids dated now, each larger than the last. discord.py dates an interaction's token by its id,
    so ids counted from the module's import would expire 15 minutes into a long test run."""
    last = 0
    while True:
        last = max(last + 1, discord.utils.time_snowflake(discord.utils.utcnow()))
        yield last


_ids = fresh_snowflakes()


class Recorder:
    """Everything the bot sent, as (method, path, json payload, file names)."""

    def __init__(self, closed_dms=()):
        self.calls: list[dict] = []
        self.closed_dms = set(closed_dms)
        self.messages: dict[str, dict] = {}  # what a GET of a message answers (a retire reads it back)

    async def http_request(self, route, *, files=None, form=None, **kwargs):
        body = kwargs.get("json")
        if form:
            payload = next((f["value"] for f in form if f["name"] == "payload_json"), None)
            body = json.loads(payload) if payload else None
        self.calls.append({"via": "bot", "method": route.method, "path": route.url, "json": body, "files": [f.filename for f in files or []]})
        if route.method == "POST" and route.url.endswith("/users/@me/channels"):
            user = body["recipient_id"]
            return {"id": str(int(user) + 1), "type": 1, "recipients": [{"id": str(user), "username": "u",
                                                                         "discriminator": "0", "avatar": None}]}
        if route.method == "POST" and route.url.endswith("/threads"):
            # As in a server that denies Create Public Threads: the game stays in the channel.
            raise discord.Forbidden(FakeResponse(403), {"code": 50013, "message": "Missing Permissions"})
        if route.method == "POST" and "/channels/" in route.url and route.url.endswith("/messages"):
            channel = int(route.url.split("/channels/")[1].split("/")[0])
            if channel - 1 in {int(u) for u in self.closed_dms}:
                raise discord.Forbidden(FakeResponse(403), {"code": 50007, "message": "Cannot send messages to this user"})
            return self.keep(message(channel, body))
        if route.method == "PATCH":
            channel = int(route.url.split("/channels/")[1].split("/")[0])
            return message(channel, body)
        if route.method == "GET" and "/messages/" in route.url:
            return self.messages.get(route.url.rsplit("/", 1)[1])
        return None

    def keep(self, data: dict) -> dict:
        self.messages[data["id"]] = data
        return data

    async def webhook_request(self, route, session=None, *, payload=None, multipart=None, files=None, **kwargs):
        body = payload
        if multipart:
            raw = next((m["value"] for m in multipart if m["name"] == "payload_json"), None)
            body = json.loads(raw) if raw else None
        self.calls.append({"via": "webhook", "method": route.method, "path": route.url, "json": body,
                           "files": [f.filename for f in files or []]})
        if route.url.endswith("/callback"):
            interaction_id = route.url.split("/interactions/")[1].split("/")[0]
            return {"interaction": {"id": interaction_id, "type": 2}, "resource": {"type": body["type"]}}
        if route.method in ("POST", "PATCH") and "/webhooks/" in route.url:
            return message(CHANNEL_ID, body or {})
        return None

    def interaction_responses(self):
        return [c for c in self.calls if c["path"].endswith("/callback")]

    def followups(self):
        return [c for c in self.calls if "/webhooks/" in c["path"]]

    def channel_posts(self):
        return [c for c in self.calls if c["via"] == "bot" and c["method"] == "POST"
                and f"/channels/{CHANNEL_ID}/messages" in c["path"]]


class FakeResponse:
    def __init__(self, status):
        self.status = status
        self.reason = "Forbidden"


def message(channel_id, body):
    body = body or {}
    return {"id": str(next(_ids)), "channel_id": str(channel_id), "type": 0, "content": body.get("content", ""),
            "author": {"id": str(BOT_ID), "username": "bot", "discriminator": "0", "avatar": None, "bot": True},
            "attachments": [], "embeds": [], "mentions": [], "mention_roles": [], "pinned": False,
            "mention_everyone": False, "tts": False, "timestamp": "2026-11-21T00:00:00+00:00",
            "edited_timestamp": None, "flags": body.get("flags", 0), "components": body.get("components", [])}


@pytest.fixture
async def harness(tmp_path, monkeypatch):
    recorder = Recorder()
    monkeypatch.setattr(AsyncWebhookAdapter, "request",
                        lambda self, route, session=None, **kw: recorder.webhook_request(route, session, **kw))
    bot = TabletopBot(str(tmp_path / "adapter.sqlite3"), worker_processes=0)
    monkeypatch.setattr(bot.http, "request", recorder.http_request)
    await bot._async_setup_hook()
    bot._connection.application_id = APP_ID
    bot._connection.user = discord.ClientUser(state=bot._connection, data={
        "id": str(BOT_ID), "username": "tabletop", "discriminator": "0", "avatar": None, "bot": True})
    await bot.prepare()
    yield bot, recorder
    await bot.store.close()


def interaction_payload(kind: int, data: dict, user=ALICE, locale="en-US", permissions="0"):
    return {
        "id": str(next(_ids)), "application_id": str(APP_ID), "type": kind, "token": f"tok{next(_ids)}",
        "version": 1, "guild_id": str(GUILD_ID), "channel_id": str(CHANNEL_ID),
        "channel": {"id": str(CHANNEL_ID), "type": 0, "guild_id": str(GUILD_ID), "name": "games", "position": 0,
                    "permission_overwrites": [], "nsfw": False, "parent_id": None},
        "member": {"user": user, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
                   "mute": False, "permissions": permissions, "flags": 0},
        "locale": locale, "guild_locale": "ja", "app_permissions": "2248473465835073", "entitlements": [],
        "authorizing_integration_owners": {"0": str(GUILD_ID)}, "context": 0, "data": data,
        "attachment_size_limit": 26214400,
    }


def slash(name, options, subcommand=None, **kw):
    opts = [{"name": k, "type": 3 if isinstance(v, str) else 4, "value": v} for k, v in options.items()]
    if subcommand:
        opts = [{"name": subcommand, "type": 1, "options": opts}]
    return interaction_payload(2, {"id": str(next(_ids)), "name": name, "type": 1, "options": opts}, **kw)


def autocomplete(name, options, focused, **kw):
    opts = [{"name": k, "type": 3, "value": v, **({"focused": True} if k == focused else {})}
            for k, v in options.items()]
    return interaction_payload(4, {"id": str(next(_ids)), "name": name, "type": 1, "options": opts}, **kw)


def click(custom_id, **kw):
    """A button press; Discord always sends the message the button sits on."""
    payload = interaction_payload(3, {"custom_id": custom_id, "component_type": 2}, **kw)
    button = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
    payload["message"] = message(CHANNEL_ID, {"components": [{"type": 1, "components": [button]}]})
    return payload


def choose(custom_id, values, **kw):
    payload = interaction_payload(3, {"custom_id": custom_id, "component_type": 3, "values": values}, **kw)
    select = {"type": 3, "custom_id": custom_id, "options": [{"label": v, "value": v} for v in values],
              "min_values": 1, "max_values": 1}
    payload["message"] = message(CHANNEL_ID, {"components": [{"type": 1, "components": [select]}]})
    return payload


async def dispatch(bot, recorder, payload, *, expect_calls=1, timeout=30.0):
    """Feed one INTERACTION_CREATE to the real client and wait until its handling is over: the
    expected calls were made and every task started since has ended (but the timers of the views
    it sent, which last for minutes). The timeout only catches a hang."""
    start, running_before = len(recorder.calls), asyncio.all_tasks()
    bot._connection.parse_interaction_create(payload)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while len(recorder.calls) - start < expect_calls or handling(running_before):
        if loop.time() > deadline:
            break  # the test's own assertions say what is missing
        await asyncio.sleep(0.01)
    return recorder.calls[start:]


def handling(running_before: set[asyncio.Task]) -> bool:
    """Whether a task started by the interaction still runs."""
    return any(not t.done() and "timeout_task" not in t.get_coro().__qualname__
               for t in asyncio.all_tasks() - running_before if t is not asyncio.current_task())


def components_of(call):
    """The buttons and selects of a sent message, in action rows at the top or inside a container."""
    def rows(components):
        for c in components:
            if c["type"] == 1:
                yield c
            elif c["type"] == 17:
                yield from rows(c["components"])
    return [c for row in rows((call["json"] or {}).get("components", [])) for c in row["components"]]


async def new_started_game(bot, recorder):
    await dispatch(bot, recorder, slash("game", {"game": "squares"}, subcommand="new"), expect_calls=3)
    game_id = (await bot.store.game_ids_in_channel(CHANNEL_ID))[-1]
    await dispatch(bot, recorder, click(f"tt:l:{game_id}:join", user=BOB), expect_calls=3)
    await dispatch(bot, recorder, click(f"tt:l:{game_id}:start", user=ALICE), expect_calls=3)
    return game_id


async def test_slash_command_opens_a_lobby_with_persistent_buttons(harness):
    bot, recorder = harness
    calls = await dispatch(bot, recorder, slash("game", {"game": "squares"}, subcommand="new"), expect_calls=3)
    callback = next(c for c in calls if c["path"].endswith("/callback"))
    assert callback["json"]["type"] == 5 and callback["json"]["data"]["flags"] & 64  # deferred, ephemeral
    lobby = next(c for c in calls if c["via"] == "bot" and c["method"] == "POST")
    ids = [c["custom_id"] for c in components_of(lobby)]
    assert {decode(i).arg for i in ids} == {"join", "leave", "start", "ai", "invite"}
    assert "SQUARESIV" in lobby["json"]["content"] and "ゲーム" in lobby["json"]["content"]  # server locale: ja
    followup = next(c for c in calls if c["via"] == "webhook" and "/callback" not in c["path"])
    assert "Lobby #" in followup["json"]["content"]  # the user's own locale: en


async def test_button_click_plays_and_posts_a_new_board(harness):
    bot, recorder = harness
    game_id = await new_started_game(bot, recorder)
    row = await bot.store.load(game_id)
    assert row.status == "active"
    board = recorder.channel_posts()[-1]
    assert board["files"] == ["board.png"]
    first = ALICE if row.seat_of(int(ALICE["id"])) == 0 else BOB
    select = components_of(board)[0]
    assert select["type"] == 3 and decode(select["custom_id"]).kind == "g"
    # Choosing a piece answers ephemerally with one button per legal action of that piece.
    calls = await dispatch(bot, recorder, choose(select["custom_id"], ["T2"], user=first), expect_calls=2)
    reply = calls[-1]
    buttons = [c["custom_id"] for c in components_of(reply)]
    assert len(buttons) == 10 and all(decode(b).kind == "a" for b in buttons)
    assert reply["json"]["flags"] & 64
    calls = await dispatch(bot, recorder, click(buttons[0], user=first), expect_calls=4)
    assert (await bot.store.load(game_id)).version == row.version + 1
    # Acknowledged as an update of the clicked message (no "thinking…"), so the new board is the
    # click's public follow-up, before the clicker's private answer.
    assert calls[0]["json"]["type"] == 6
    follow_ups = [c for c in calls if c["via"] == "webhook" and c["method"] == "POST" and "/callback" not in c["path"]]
    assert follow_ups[0]["files"] == ["board.png"] and not follow_ups[0]["json"].get("flags", 0) & 64
    assert follow_ups[-1]["json"]["flags"] & 64 and "played" in follow_ups[-1]["json"]["content"]
    # The previous board, posted by this process, keeps its text and image and loses only its
    # action rows (not read back: the bot knows what it posted).
    assert not [c for c in calls if c["method"] == "GET"]
    retired = [c for c in calls if c["via"] == "bot" and c["method"] == "PATCH"]
    assert retired and not components_of(retired[-1])
    kept = retired[-1]["json"]["components"][0]["components"]
    assert [c["type"] for c in kept] == [10, 12] and kept[1]["items"][0]["media"]["url"] == "attachment://board.png"
    assert "flags" not in retired[-1]["json"] and "content" not in retired[-1]["json"]
    # The same button again: refused as stale, ephemerally, and nothing changes.
    calls = await dispatch(bot, recorder, click(buttons[0], user=first), expect_calls=2)
    assert (await bot.store.load(game_id)).version == row.version + 1
    assert "out of date" in calls[-1]["json"]["content"] and calls[-1]["json"]["flags"] & 64


async def test_errors_speak_the_users_language(harness):
    bot, recorder = harness
    game_id = await new_started_game(bot, recorder)
    row = await bot.store.load(game_id)
    second = ALICE if row.seat_of(int(ALICE["id"])) == 1 else BOB
    calls = await dispatch(bot, recorder, slash("play", {"action": "T2@b4"}, user=second, locale="ja"),
                           expect_calls=2)
    assert "手番ではありません" in calls[-1]["json"]["content"]
    outsider = {"id": "500000000000000009", "username": "eve", "global_name": "Eve", "discriminator": "0",
                "avatar": None}
    calls = await dispatch(bot, recorder, slash("play", {"action": "T2@b4", "game_id": game_id}, user=outsider),
                           expect_calls=2)
    assert "not a player" in calls[-1]["json"]["content"]
    calls = await dispatch(bot, recorder, click("tt:zz:garbage"), expect_calls=2)
    assert "not one I know" in calls[-1]["json"]["content"]


async def test_autocomplete_offers_only_legal_actions(harness):
    bot, recorder = harness
    game_id = await new_started_game(bot, recorder)
    row = await bot.store.load(game_id)
    first = ALICE if row.seat_of(int(ALICE["id"])) == 0 else BOB
    calls = await dispatch(bot, recorder, autocomplete("play", {"action": "T5@"}, "action", user=first))
    choices = calls[-1]["json"]["data"]["choices"]
    assert calls[-1]["json"]["type"] == 8
    assert [c["value"] for c in choices] == [f"T5@{sq}" for sq in
                                             ("a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2")]
    second = BOB if first is ALICE else ALICE
    calls = await dispatch(bot, recorder, autocomplete("play", {"action": ""}, "action", user=second))
    assert calls[-1]["json"]["data"]["choices"] == []


async def test_closed_dms_fall_back_to_the_panel_button(harness, secret_game):
    bot, recorder = harness
    recorder.closed_dms = {BOB["id"]}
    await dispatch(bot, recorder, slash("game", {"game": "squares"}, subcommand="new"), expect_calls=3)
    # Use the hidden-information test game through the same commands.
    row, _ = await bot.host.create("secretpick", None, guild_id=GUILD_ID, channel_id=CHANNEL_ID,
                                   user_id=int(ALICE["id"]), locale="en")
    calls = await dispatch(bot, recorder, click(f"tt:l:{row.id}:join", user=BOB), expect_calls=4)
    assert "DMs are closed" in calls[-1]["json"]["content"]  # the DM probe on joining a secret game
    calls = await dispatch(bot, recorder, click(f"tt:l:{row.id}:start", user=ALICE), expect_calls=6)
    dm_sends = [c for c in calls if c["via"] == "bot" and c["method"] == "POST" and "/channels/" in c["path"]
                and f"/channels/{CHANNEL_ID}/" not in c["path"]]
    assert len(dm_sends) == 2  # Alice's panel arrives by DM; Bob's is refused with 50007
    assert {c["files"][0] for c in dm_sends} == {"board.png"}
    notices = [c for c in calls if c["via"] == "bot" and "DMs are closed" in ((c["json"] or {}).get("content") or "")]
    assert len(notices) == 1 and BOB["id"] in notices[0]["json"]["content"]
    panel_id = components_of(notices[0])[0]["custom_id"]
    assert decode(panel_id).kind == "p"
    assert (await bot.store.user_settings(int(BOB["id"])))["dm_open"] is False
    calls = await dispatch(bot, recorder, click(panel_id, user=BOB), expect_calls=2)
    panel = calls[-1]
    assert panel["json"]["flags"] & 64 and {c["label"] for c in components_of(panel)} == {"pick1", "pick2", "pick3"}


def test_long_step_lists_split_over_several_menus():
    from bot.discord_app.components import controls_view
    from bot.service import Controls

    choices = {f"s{i:02d}": [f"s{i:02d}-x", f"s{i:02d}-y"] for i in range(60)}
    view = controls_view(Controls(7, 3, ("tile",), choices), "en")
    menus = [item.item for item in view.children]
    assert len(menus) == 3 and [len(m.options) for m in menus] == [25, 25, 10]
    ids = [m.custom_id for m in menus]
    assert len(set(ids)) == 3 and all(len(i) <= 100 for i in ids)
    assert {decode(i).arg.split("|", 1)[1] for i in ids} == {"tile"}
    leaves = controls_view(Controls(7, 3, ("tile", "C4"), {d: [f"T@C4{d}"] for d in "NESW"}), "en")
    assert [decode(b.item.custom_id).arg for b in leaves.children] == ["T@C4N", "T@C4E", "T@C4S", "T@C4W"]


def gallery_of(call):
    """The media gallery item of a one-message board (a Components V2 payload)."""
    container = call["json"]["components"][0]
    assert container["type"] == 17 and call["json"]["flags"] & (1 << 15) and not call["json"].get("content")
    return next(c for c in container["components"] if c["type"] == 12)["items"][0]


async def test_a_board_image_describes_the_public_position_in_the_servers_language(harness, secret_game, monkeypatch):
    """describe_position's events reach the image's alt text through ``alt.<game>.<type>``, in the
    game's language; they are asked of the PUBLIC view only (the panels' seat views never)."""
    bot, recorder = harness
    seen = []

    def describe(view):
        seen.append(view["viewer"])
        return [{"type": "score", "a": view["score"][0], "b": view["score"][1], "seat": 1}]

    monkeypatch.setattr(secret_game, "describe_position", describe)
    monkeypatch.setitem(i18n.catalogue("en"), "alt.secretpick.score", " Score { $a } to { $b }; { $seat } watches.")
    monkeypatch.setitem(i18n.catalogue("ja"), "alt.secretpick.score", " 得点は{ $a }対{ $b }、{ $seat }が見ています。")
    expected = {"en": "Score 0 to 0; B (orange) watches.", "ja": "得点は0対0、B（オレンジ）が見ています。"}
    for lang, alt in expected.items():
        row, _ = await bot.host.create("secretpick", None, guild_id=GUILD_ID, channel_id=CHANNEL_ID,
                                       user_id=int(ALICE["id"]), locale=lang)
        await dispatch(bot, recorder, click(f"tt:l:{row.id}:join", user=BOB), expect_calls=3)
        await dispatch(bot, recorder, click(f"tt:l:{row.id}:start", user=ALICE), expect_calls=5)
        board = [c for c in recorder.channel_posts() if c["files"] == ["board.png"]][-1]
        item = gallery_of(board)
        assert item["description"] == alt and item["media"]["url"] == "attachment://board.png"
        texts = [c["content"] for c in board["json"]["components"][0]["components"] if c["type"] == 10]
        assert f"<@{ALICE['id']}>" in texts[0]  # the ping is in the text display, allowed for the named users
        assert set(map(str, board["json"]["allowed_mentions"]["users"])) == {ALICE["id"], BOB["id"]}
    assert seen and set(seen) == {None}  # panels were drawn from seat views; the alt text never was


async def test_without_game_words_the_alt_text_names_the_game_and_whose_turn(harness, monkeypatch):
    bot, recorder = harness
    monkeypatch.setattr(get_game("squaresiv"), "describe_position", lambda view: [])
    await new_started_game(bot, recorder)
    item = gallery_of(recorder.channel_posts()[-1])
    # the server's language (ja): game, number, move and the seat to act, letter and colour
    assert re.fullmatch(r"SQUARESIVの盤面（ゲーム #\d+、\d+手目）：[AB]（(青|オレンジ)）の手番です。", item["description"])


def test_a_board_keeps_within_40_components_and_drops_rows_that_would_not_fit():
    """A classic view's five full rows fit (3 + separator + 5 x 6 = 34); past 40, rows are left out."""
    from bot.discord_app.components import board_layout, view_rows
    from bot.service import Controls
    from bot.discord_app.components import controls_view

    controls = Controls(1, 1, (), {f"x{i}": [f"x{i}"] for i in range(25)})
    layout = board_layout("t", "a", 0x0072B2, view_rows(controls_view(controls, "en")))
    counts = layout.to_components()
    total = sum(1 for _ in walk(counts))
    assert total == 34 and sum(1 for c in walk(counts) if c["type"] == 2) == 25
    rows = [[discord.ui.Button(label="b", custom_id=f"b{r}{i}") for i in range(5)] for r in range(7)]
    layout = board_layout("t", "a", None, rows)
    kept = [c for c in walk(layout.to_components()) if c["type"] == 1]
    assert len(kept) == 6 and sum(1 for _ in walk(layout.to_components())) == 40


def walk(components):
    for c in components:
        yield c
        yield from walk(c.get("components") or [])


def test_a_retired_board_references_its_own_image_however_the_cdn_signed_its_url():
    """Discord signs attachment URLs afresh on every fetch: the media of a board read back is
    matched to the message's attachment by id (or by URL without its signature), never by the
    exact string, and sent back as ``attachment://``; a foreign image keeps its URL."""
    from bot.discord_app.components import without_action_rows

    cdn = "https://cdn.discordapp.com/attachments/1/2/board.png"
    attachments = [{"id": "2", "filename": "board.png", "url": f"{cdn}?ex=1&is=2&hm=aa&",
                    "proxy_url": f"https://media.discordapp.net/attachments/1/2/board.png?ex=1&is=2&hm=aa&"}]

    def board(media: dict) -> list[dict]:
        return [{"type": 17, "components": [
            {"type": 10, "content": "t"}, {"type": 12, "items": [{"media": media, "description": "alt"}]},
            {"type": 14}, {"type": 1, "components": [{"type": 2, "custom_id": "x", "label": "x", "style": 1}]}]}]

    def sent(media: dict) -> dict:
        return without_action_rows(board(media), attachments)[0]["components"][1]["items"][0]

    by_id = sent({"url": f"{cdn}?ex=9&is=8&hm=bb&", "attachment_id": "2", "id": "77"})
    assert by_id == {"media": {"url": "attachment://board.png"}, "description": "alt"}
    assert sent({"url": f"{cdn}?ex=5&is=6&hm=cc&"})["media"] == {"url": "attachment://board.png"}
    assert sent({"url": "https://example.org/x.png"})["media"] == {"url": "https://example.org/x.png"}
    assert [c["type"] for c in without_action_rows(board({"url": cdn}), attachments)[0]["components"]] == [10, 12]


async def test_long_boards_stay_within_discords_v2_limits_and_edit_in_place_as_v2(harness):
    """6000 characters of lines and 3000 of alt text: cut to 4000 and 1024, and the payload passes
    the stand-in's Components V2 checks; a board edited in place (a turn of several actions) stays
    a V2 message, never gaining content."""
    from bot.i18n import T
    from bot.service import Post
    from tests.fakediscord import validate as V

    bot, recorder = harness
    post = Post(1, CHANNEL_ID, [f"line {n:03d} " + "x" * 11 for n in range(400)], lang="en", image=b"\x89PNG",
                alt_lines=[T("alt.seat", letter="A", colour="x" * 25)] * 100, accent=0x0072B2)
    await bot.delivery.post(post)
    sent = recorder.channel_posts()[-1]["json"]
    text = next(c for c in walk(sent["components"]) if c["type"] == 10)["content"]
    alt = next(c for c in walk(sent["components"]) if c["type"] == 12)["items"][0]["description"]
    assert 3900 < len(text) <= 4000 and text.endswith("…") and 1000 < len(alt) <= 1024
    assert V.message_problems(sent, n_files=1) == []
    board_id = recorder.messages[max(recorder.messages, key=int)]["id"]
    post.edit_in_place, post.replaces_message_id, post.lines = True, int(board_id), ["edited"]
    await bot.delivery.post(post)
    edit = [c for c in recorder.calls if c["method"] == "PATCH"][-1]
    assert edit["path"].endswith(f"/messages/{board_id}") and edit["files"] == ["board.png"]
    assert edit["json"]["flags"] & (1 << 15) and not edit["json"].get("content")
    assert V.message_problems(edit["json"], n_files=1, editing=True, flags=1 << 15) == []


def test_controls_name_every_action_a_player_sees_and_only_those():
    """The service words only the actions its buttons and menu notes can show (wording every one
    of a HOSTILE step's ~1,000 actions cost milliseconds per click); what a player sees is the same
    as with every action worded, in both languages, at every position of seeded games."""
    from types import SimpleNamespace

    from bot.discord_app.components import controls_view
    from bot.service import GameHost
    from games import all_games
    from tests.playouts import random_states

    host = GameHost(None)
    pruned = 0
    for game in all_games():
        for version, state in enumerate(random_states(game, game.player_counts(), [11], steps=60)):
            row = SimpleNamespace(id=7, version=version, state=state)
            for seat in sorted(game.to_act(state)):
                controls = host._controls(row, game, seat)
                for prefix in [()] + [(step,) for step in list(controls.choices)[:2]]:
                    legal = game.legal_actions(state, seat)
                    below = [a for a in legal if game.action_path(a)[: len(prefix)] == prefix]
                    shown = host._controls(row, game, seat, prefix, below if prefix else None)
                    every = dataclasses.replace(shown, labels=dict(shown.labels))
                    for a in every.actions:
                        if a not in every.labels and (text := host._choice_text(game, game.action_path(a))):
                            every.labels[a] = text
                    pruned += len(every.labels) - len(shown.labels)
                    for lang, limit in itertools.product(("en", "ja"), (20, 25)):
                        assert (controls_view(shown, lang, direct_limit=limit).to_components()
                                == controls_view(every, lang, direct_limit=limit).to_components()), (game.name, prefix)
    assert pruned > 1000  # the test saw positions where most actions are never shown
