"""Proves the Discord stand-in with a tiny real discord.py client run in this process.

The client logs in over REST, connects to the stand-in's gateway (zlib-stream), syncs a command
tree with Japanese localisations, and answers slash commands, buttons and autocomplete.  The real
end-to-end tests run the bot as a subprocess against the same stand-in.
"""

from __future__ import annotations

import asyncio
import io
import json

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.app_commands import locale_str

from bot.discord_app.endpoint import gateway_url_for, point_at, reset
from tests.fakediscord import FakeDiscord, make_png

FRUITS = ["apple", "apricot", "banana", "grape", "cherry"]

JA = {
    "board": "ばん",
    "Show a test board": "テスト用の盤面を表示",
    "size": "サイズ",
    "Board size": "盤面の大きさ",
}


class JaTranslator(app_commands.Translator):
    async def translate(self, string: locale_str, locale: discord.Locale, context) -> str | None:
        if locale is discord.Locale.japanese:
            return JA.get(string.message)
        return None


class DmView(discord.ui.View):
    """Persistent view: works on any message carrying the custom id, as the real bot's do."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="DM me", custom_id="selftest:dm", style=discord.ButtonStyle.primary)
    async def dm(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        client: SelfTestClient = interaction.client  # type: ignore[assignment]
        try:
            await interaction.user.send("your secret panel")
        except discord.Forbidden as exc:
            client.forbidden_codes.append(exc.code)
            await interaction.response.send_message("DMs closed", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)


@app_commands.command(name=locale_str("board"), description=locale_str("Show a test board"))
@app_commands.describe(size=locale_str("Board size"))
async def board_cmd(interaction: discord.Interaction, size: app_commands.Range[int, 1, 8]) -> None:
    await interaction.response.defer(thinking=True)
    png = make_png(size * 10, size * 10)
    text = "盤面" if interaction.locale is discord.Locale.japanese else "board"
    await interaction.followup.send(text, file=discord.File(io.BytesIO(png), "board.png"), view=DmView(), wait=True)


@app_commands.command(name="pick", description="Pick a fruit")
async def pick_cmd(interaction: discord.Interaction, fruit: str) -> None:
    await interaction.response.send_message(f"picked {fruit}")


@pick_cmd.autocomplete("fruit")
async def fruit_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=f, value=f) for f in FRUITS if current.lower() in f][:25]


@app_commands.command(name="slow", description="Answers too late")
async def slow_cmd(interaction: discord.Interaction) -> None:
    client: SelfTestClient = interaction.client  # type: ignore[assignment]
    await asyncio.sleep(client.slow_delay)
    try:
        await interaction.response.send_message("too late")
    except discord.NotFound as exc:
        client.errors.append(exc.code)
    client.slow_done.set()


class NameModal(discord.ui.Modal, title="Your name"):
    name = discord.ui.TextInput(label="Name", custom_id="selftest:name-input", max_length=32)

    def __init__(self) -> None:
        super().__init__(custom_id="selftest:modal")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}", ephemeral=True)


class OrderModal(discord.ui.Modal, title="Your order"):
    """Components V2 modal: a Label around a RadioGroup and a Label around a Select."""

    def __init__(self) -> None:
        super().__init__(custom_id="selftest:order")
        self.move = discord.ui.RadioGroup(custom_id="selftest:move-radio", options=[
            discord.RadioGroupOption(label=x, value=x) for x in ("F", "S")])
        self.turn = discord.ui.Select(custom_id="selftest:turn-select", required=True, options=[
            discord.SelectOption(label=x, value=x) for x in ("0", "R", "L")])
        self.add_item(discord.ui.Label(text="Movement", component=self.move))
        self.add_item(discord.ui.Label(text="Facing", component=self.turn))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"order {self.move.value}/{self.turn.values[0]} "
                                                f"by {interaction.user.name}", ephemeral=True)


class MoveView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="selftest:move",
        options=[discord.SelectOption(label=x.upper(), value=x) for x in "abc"],
        max_values=2,
    )
    async def move(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"moved {'+'.join(select.values)}", view=self)

    @discord.ui.button(label="Name", custom_id="selftest:ask-name")
    async def ask_name(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(NameModal())

    @discord.ui.button(label="Order", custom_id="selftest:ask-order")
    async def ask_order(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(OrderModal())


game_group = app_commands.Group(name="game", description="Game commands")


@game_group.command(name="new", description="Start a game")
@app_commands.describe(kind="Which game", opponent="Who to play against")
@app_commands.choices(kind=[app_commands.Choice(name="Chess", value="chess"), app_commands.Choice(name="Go", value="go")])
async def game_new(interaction: discord.Interaction, kind: app_commands.Choice[str], opponent: discord.Member) -> None:
    client: SelfTestClient = interaction.client  # type: ignore[assignment]
    await interaction.response.defer(ephemeral=True, thinking=True)
    embed = discord.Embed(title=f"{kind.name} vs {opponent.display_name}").set_image(url="attachment://b.png")
    msg = await interaction.channel.send(embed=embed, file=discord.File(io.BytesIO(make_png(4, 4)), "b.png"), view=MoveView())
    await msg.pin()
    thread = await msg.create_thread(name="game-1")
    await thread.send("moves go here")
    await msg.edit(attachments=[discord.File(io.BytesIO(make_png(8, 8)), "b.png")])
    await interaction.edit_original_response(content=f"started {kind.value} against {opponent.mention}")
    client.notes.append((await interaction.original_response()).content)
    await interaction.followup.send("only you see this", ephemeral=True)


@app_commands.command(name="ping", description="Works in DMs too")
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def ping_cmd(interaction: discord.Interaction) -> None:
    where = "dm" if interaction.guild_id is None else "guild"
    await interaction.response.send_message(f"pong from {where}")


@app_commands.command(name="layout", description="A components v2 message")
async def layout_cmd(interaction: discord.Interaction) -> None:
    view = discord.ui.LayoutView()
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay("hello layout"),
            discord.ui.ActionRow(discord.ui.Button(label="OK", custom_id="selftest:v2-ok")),
        )
    )
    await interaction.response.send_message(view=view)


class SelfTestClient(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.forbidden_codes: list[int] = []
        self.errors: list[int] = []
        self.slow_delay = 0.0
        self.slow_done = asyncio.Event()
        self.ready_event = asyncio.Event()
        self.resumed_count = 0
        self.notes: list[str] = []

    async def setup_hook(self) -> None:
        await self.tree.set_translator(JaTranslator())
        for cmd in (board_cmd, pick_cmd, slow_cmd, game_group, ping_cmd, layout_cmd):
            self.tree.add_command(cmd)
        self.add_view(DmView())
        self.add_view(MoveView())
        await self.tree.sync()

    async def on_ready(self) -> None:
        self.ready_event.set()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py sleeps 5 s before every non-initial IDENTIFY; skipped here to keep the test fast.
        return None

    async def on_resumed(self) -> None:
        self.resumed_count += 1


@pytest.fixture
async def fake():
    fd = FakeDiscord(dm_closed=["bob"], guild_locale="ja")
    await fd.start()
    point_at(fd.api_base)
    try:
        yield fd
    finally:
        await fd.stop()
        reset()


@pytest.fixture
async def client(fake: FakeDiscord):
    c = SelfTestClient()
    task = asyncio.create_task(c.start("fake-token"))
    try:
        done, _ = await asyncio.wait({task, asyncio.create_task(fake.wait_connected(5.0))}, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            task.result()  # raise the client's startup error
        await asyncio.wait_for(c.ready_event.wait(), 30)
        yield c
    finally:
        await c.close()
        try:
            await asyncio.wait_for(task, 5.0)  # clean-up only: a slow end is no verdict
        except Exception:
            task.cancel()


def test_point_at_patches_every_base() -> None:
    import discord.asset
    import discord.gateway
    import discord.http

    before = (discord.http.Route.BASE, str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY), discord.asset.Asset.BASE)
    point_at(None)  # production: nothing changes
    assert (discord.http.Route.BASE, str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY), discord.asset.Asset.BASE) == before
    try:
        point_at("http://127.0.0.1:5555/api/v10")
        assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:5555/api/v10/users/@me"
        # follow-ups and interaction callbacks use the same Route class
        from discord.webhook.async_ import Route as WebhookRoute

        assert WebhookRoute is discord.http.Route
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:5555/gateway"
        assert discord.asset.Asset.BASE == "http://127.0.0.1:5555/cdn"
        with pytest.raises(ValueError):
            point_at("http://example.org/api/v10")  # plain http off-machine would leak the token
    finally:
        reset()
    assert (discord.http.Route.BASE, str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY), discord.asset.Asset.BASE) == before
    assert gateway_url_for("https://x.test/api/v10") == "wss://x.test/gateway"


async def test_full_flow(fake: FakeDiscord, client: SelfTestClient) -> None:
    # login + gateway: the client used zlib-stream and identified once
    assert fake.gateway_queries[0] == {"v": "10", "encoding": "json", "compress": "zlib-stream"}
    assert fake.identify_count == 1
    assert [r.path for r in fake.requests[:2]] == ["/users/@me", "/oauth2/applications/@me"]
    assert client.get_guild(fake.guild_id) is not None
    assert client.get_guild(fake.guild_id).preferred_locale is discord.Locale.japanese

    # command sync with Japanese localisations
    commands = await fake.wait_for_commands()
    board = next(c for c in commands if c["name"] == "board")
    assert board["name_localizations"] == {"ja": "ばん"}
    assert board["description_localizations"] == {"ja": "テスト用の盤面を表示"}
    size = board["options"][0]
    assert size["name_localizations"] == {"ja": "サイズ"} and size["min_value"] == 1 and size["max_value"] == 8

    # slash command: deferred, then a follow-up with a PNG that replaces the "thinking" message
    h = await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "board", {"size": 3}, locale="ja")
    response = await h.response()
    assert response.type == 5 and response.latency < 3
    msg = await h.original(lambda m: not m.loading)
    assert msg.content == "盤面"
    att = msg.attachment("board.png")
    assert att.data == make_png(30, 30)
    assert (att.content_type, att.width, att.height) == ("image/png", 30, 30)
    assert msg.custom_ids() == ["selftest:dm"]
    assert msg in fake.messages(fake.channel_id, include_ephemeral=False)
    async with aiohttp.ClientSession() as http:  # the attachment URL serves the bytes
        async with http.get(att.url) as resp:
            assert await resp.read() == att.data

    # button: bob's DMs are closed -> 50007, then an ephemeral reply
    click = await fake.click_button(msg, "selftest:dm", "bob", locale="ja")
    reply = await click.response()
    assert reply.type == 4 and reply.ephemeral and reply.content == "DMs closed"
    assert client.forbidden_codes == [50007]
    await fake.wait_for_dm_failure("bob")
    refused = fake.requests_to("POST", r"^/channels/\d+/messages$")[-1]
    assert (refused.status, refused.response["code"]) == (403, 50007)

    # ... alice's are open: the DM arrives
    click = await fake.click_button(msg, "selftest:dm", "alice")
    assert (await click.response()).content == "sent"
    dm = await fake.wait_for_dm("alice")
    assert dm.content == "your secret panel"

    # autocomplete
    ac = await fake.autocomplete(fake.guild_id, fake.channel_id, "carol", "pick", {"fruit": "ap"}, focused="fruit")
    assert [c["name"] for c in await ac.choices()] == ["apple", "apricot", "grape"]
    pick = await fake.send_slash(fake.guild_id, fake.channel_id, "carol", "pick", {"fruit": "grape"})
    assert (await pick.response()).content == "picked grape"

    fake.assert_clean()
    assert fake.violations == []


async def test_violation_is_detected_and_refused(fake: FakeDiscord, client: SelfTestClient) -> None:
    fake.openapi = None  # the stand-in's own rules alone (Discord's description refuses some first)
    channel = client.get_channel(fake.channel_id)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="x", custom_id="x" * 101))
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("hello", view=view)
    assert info.value.status == 400 and info.value.code == 50035
    assert [v.kind for v in fake.violations] == ["invalid_form_body"]
    assert "components.0.components.0.custom_id" in fake.violations[0].message
    assert fake.messages(fake.channel_id) == []

    # a second callback to the same interaction is refused with 40060
    h = await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "pick", {"fruit": "apple"})
    await h.response()
    url = f"{fake.api_base}/interactions/{h.id}/{h.token}/callback"
    async with aiohttp.ClientSession() as http:
        async with http.post(url, json={"type": 4, "data": {"content": "again"}}) as resp:
            assert resp.status == 400
            assert (await resp.json())["code"] == 40060
    assert fake.violations[-1].kind == "already_acknowledged"


def test_modal_validator_matches_discord_limits() -> None:
    """Modals: title and labels up to 45, 1-5 top-level components, radio groups of 2-10 unique
    options, selects of up to 25 options, custom ids unique and up to 100 characters."""
    from tests.fakediscord import validate as V

    radio = lambda cid, n: {"type": 21, "custom_id": cid, "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]}  # noqa: E731
    label = lambda text, inner: {"type": 18, "label": text, "component": inner}  # noqa: E731
    good = {"custom_id": "m", "title": "t" * 45, "components": [label("l" * 45, radio("a", 10))]}
    assert V.modal_problems(good) == []
    select = {"type": 3, "custom_id": "s", "options": [{"label": str(i), "value": str(i)} for i in range(26)]}
    dup_values = radio("d", 2)
    dup_values["options"][1]["value"] = "v0"
    bad = [
        {**good, "title": "t" * 46},
        {**good, "components": [label("l" * 46, radio("a", 2))]},
        {**good, "components": [label(f"l{i}", radio(f"a{i}", 2)) for i in range(6)]},
        {**good, "components": [label("l", radio("a", 1))]},
        {**good, "components": [label("l", radio("a", 11))]},
        {**good, "components": [label("l", dup_values)]},
        {**good, "components": [label("l", select)]},
        {**good, "components": [label("l", radio("a", 2)), label("k", radio("a", 2))]},
        {**good, "custom_id": "c" * 101},
        {**good, "components": []},
    ]
    for data in bad:
        assert V.modal_problems(data), data


async def test_validators_match_discord_limits(fake: FakeDiscord) -> None:
    """Raw requests, no client: each one breaks one documented limit."""
    fake.openapi = None  # the stand-in's own rules alone (Discord's description refuses some first)
    base = fake.api_base
    headers = {"Authorization": "Bot test"}
    row = lambda *items: {"type": 1, "components": list(items)}  # noqa: E731
    button = lambda cid: {"type": 2, "style": 1, "label": "b", "custom_id": cid}  # noqa: E731
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    bad_messages = [
        {"content": "x" * 2001},
        {"content": "rows", "components": [row(button(f"r{i}")) for i in range(6)]},
        {"content": "wide", "components": [row(*[button(f"w{i}") for i in range(6)])]},
        {"content": "sel", "components": [row(select, button("b"))]},
        {"content": "dup", "components": [row(button("same"), button("same"))]},
        {"content": "label", "components": [row({"type": 2, "style": 1, "label": "x" * 81, "custom_id": "l"})]},
        {"content": "style", "components": [row({"type": 2, "style": 9, "label": "x", "custom_id": "s9"})]},
        {"embeds": [{"title": "t" * 257}]},
        {"embeds": [{"description": "d" * 4096}, {"description": "d" * 2000}]},
        {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
        {"content": "v2", "flags": 1 << 15, "components": [{"type": 10, "content": "hi"}]},
        {"content": "defaults", "components": [row({"type": 3, "custom_id": "d", "options": [
            {"label": "a", "value": "a", "default": True}, {"label": "b", "value": "b", "default": True}]})]},
    ]
    app = fake.application_id
    bad_commands = [
        [{"name": "Board", "description": "upper case", "type": 1}],
        [{"name": "has space", "description": "space", "type": 1}],
        [{"name": "x" * 33, "description": "long", "type": 1}],
        [{"name": "nodesc", "description": "", "type": 1}],
        [{"name": "loc", "description": "d", "type": 1, "name_localizations": {"jp": "ばん"}}],
        [{"name": "opts", "description": "d", "options": [{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)]}],
        [{"name": "ch", "description": "d", "options": [{"type": 3, "name": "o", "description": "d", "choices": [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]}]}],
        [{"name": "req", "description": "d", "options": [{"type": 3, "name": "a", "description": "d"}, {"type": 3, "name": "b", "description": "d", "required": True}]}],
    ]
    async with aiohttp.ClientSession(headers=headers) as http:
        for body in bad_messages:
            async with http.post(f"{base}/channels/{fake.channel_id}/messages", json=body) as resp:
                assert resp.status == 400, body
                assert (await resp.json())["code"] == 50035, body
        for body in bad_commands:
            async with http.put(f"{base}/applications/{app}/commands", json=body) as resp:
                assert resp.status == 400, body
        good = [{"name": "ばん", "description": "日本語の名前", "type": 1, "name_localizations": {"ja": "ばん", "hi": "खेल"}}]
        async with http.put(f"{base}/applications/{app}/commands", json=good) as resp:
            assert resp.status == 200, await resp.text()
        async with http.post(f"{base}/channels/{fake.channel_id}/messages", json={}) as resp:
            assert (resp.status, (await resp.json())["code"]) == (400, 50006)
        async with http.get(f"{base}/no/such/route") as resp:
            assert resp.status == 404
    # A file over an unboosted server's 8 MiB upload limit is refused; a boosted server takes it.
    big = aiohttp.FormData()
    big.add_field("payload_json", '{"content": "big"}', content_type="application/json")
    big.add_field("files[0]", b"\0" * (8 * 1024 * 1024 + 1), filename="big.webp")
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.post(f"{base}/channels/{fake.channel_id}/messages", data=big) as resp:
            assert resp.status == 413 and (await resp.json())["code"] == 40005
    assert fake.violations[-1].kind == "file_too_large"
    fake._guilds[fake.guild_id].data["premium_tier"] = 2
    assert fake.upload_limit(fake.channel_id) == 25 * 1024 * 1024  # capped by max_file_size
    fake._guilds[fake.guild_id].data["premium_tier"] = 0
    kinds = [v.kind for v in fake.violations]
    assert kinds.count("invalid_form_body") == len(bad_messages)
    assert kinds.count("invalid_command") == len(bad_commands)
    assert fake.unknown_routes == [("GET", "/no/such/route")]


async def test_late_response_is_recorded(fake: FakeDiscord, client: SelfTestClient) -> None:
    fake.response_deadline = 0.2
    client.slow_delay = 0.4
    h = await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "slow")
    await asyncio.wait_for(client.slow_done.wait(), 30)
    assert client.errors == [10062]
    assert [v.kind for v in fake.violations] == ["late_response"]
    assert h.record.callbacks == [] and h.record.rejected[0][1]["code"] == 10062


async def test_gateway_resume_replays_missed_events(fake: FakeDiscord, client: SelfTestClient) -> None:
    await fake.drop_connections()
    # dispatched while the bot is disconnected: buffered, replayed after RESUME
    h = await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "pick", {"fruit": "cherry"}, wait_connected=False)
    assert (await h.response()).content == "picked cherry"
    assert (fake.identify_count, fake.resume_count) == (1, 1)
    await fake.wait_connected()
    assert client.resumed_count == 1
    h = await fake.send_slash(fake.guild_id, fake.channel_id, "bob", "pick", {"fruit": "banana"})
    assert (await h.response()).content == "picked banana"
    fake.assert_clean()


async def test_invalid_session_forces_a_new_identify(fake: FakeDiscord, client: SelfTestClient) -> None:
    fake.invalidate_sessions()
    await fake.drop_connections()
    await fake.wait_until(lambda: fake.identify_count == 2 and fake.current_session.connected, 5.0, "a fresh IDENTIFY")
    h = await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "pick", {"fruit": "apple"})
    assert (await h.response()).content == "picked apple"
    fake.assert_clean()


async def test_groups_threads_selects_modals_dms_and_layouts(fake: FakeDiscord, client: SelfTestClient) -> None:
    bob = fake.user("bob")
    h = await fake.send_slash(
        fake.guild_id, fake.channel_id, "alice", "game new", {"kind": "go", "opponent": bob}
    )
    assert (await h.response()).ephemeral
    original = await h.original(lambda m: not m.loading)
    assert original.ephemeral and original.content == f"started go against <@{bob['id']}>"
    assert (await h.followup(predicate=lambda m: m is not original)).content == "only you see this"
    await h.message(lambda m: m.content == "only you see this" and m.ephemeral)

    board = await fake.wait_for_message(fake.channel_id, lambda m: m.embeds and not m.ephemeral)
    assert board.pinned and board.embeds[0]["title"] == "Go vs Bob"
    assert board.data["thread"]["name"] == "game-1"
    assert board.attachment("b.png").width == 8  # replaced by the edit
    assert board.embeds[0]["image"]["url"] == board.history[0]["attachments"][0]["url"]
    thread_id = int(board.data["thread"]["id"])
    assert [m.content for m in fake.messages(thread_id)] == ["moves go here"]

    # select: the bot edits the board message in place (callback type 7)
    sel = await fake.select(board, "selftest:move", ["a", "c"], "bob")
    assert (await sel.response()).type == 7
    assert fake.message(board.id).content == "moved a+c"

    # button -> modal -> submit
    ask = await fake.click_button(board, "selftest:ask-name", "carol")
    modal = await ask.response()
    assert modal.type == 9 and modal.data["title"] == "Your name"
    submitted = await fake.submit_modal(ask, {"selftest:name-input": "Carol"})
    answer = await submitted.response()
    assert answer.ephemeral and answer.content == "hello Carol"

    # a Components V2 modal: Label + RadioGroup, Label + Select; only its user submits it, whole,
    # with offered values; a forged submit (someone else's, or off-menu values) still reaches the bot
    ask = await fake.click_button(board, "selftest:ask-order", "bob")
    modal = await ask.response()
    assert [c["type"] for c in modal.data["components"]] == [18, 18]
    assert [c["component"]["type"] for c in modal.data["components"]] == [21, 3]
    with pytest.raises(PermissionError):
        await fake.submit_modal(ask, {"selftest:move-radio": "F", "selftest:turn-select": ["R"]}, "carol")
    with pytest.raises(ValueError):
        await fake.submit_modal(ask, {"selftest:move-radio": "F"})  # the select is required
    with pytest.raises(ValueError):
        await fake.submit_modal(ask, {"selftest:move-radio": "B", "selftest:turn-select": ["R"]})
    forged = await fake.forge_modal_submit(ask, {"selftest:move-radio": "B", "selftest:turn-select": ["R"]}, "carol")
    assert (await forged.response()).content == "order B/R by carol"
    ask = await fake.click_button(board, "selftest:ask-order", "bob")  # discord.py closed the first one
    await ask.response()
    order = await fake.submit_modal(ask, {"selftest:move-radio": "F", "selftest:turn-select": ["L"]})
    assert (await order.response()).content == "order F/L by bob"

    # a slash command in the bot's DMs
    dm = await fake.send_slash(None, None, "alice", "ping")
    assert (await dm.response()).content == "pong from dm"
    assert fake.dms("alice")[-1].content == "pong from dm"

    # components v2
    lay = await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "layout")
    msg = (await lay.response()).message
    assert msg.flags & (1 << 15) and "hello layout" in msg.text() and msg.custom_ids() == ["selftest:v2-ok"]

    assert client.notes == [f"started go against <@{bob['id']}>"]
    fake.assert_clean()


# ---- sharding --------------------------------------------------------------------------------------
@app_commands.command(name="whoami", description="Which client answered")
async def whoami_cmd(interaction: discord.Interaction) -> None:
    client: ShardClient = interaction.client  # type: ignore[assignment]
    shard = interaction.guild.shard_id if interaction.guild is not None else "dm"
    await interaction.response.send_message(f"{client.label} shard {shard}")


class ShardClient(discord.AutoShardedClient):
    """Holds some of the application's shards, as one of several bot processes would."""

    def __init__(self, label: str, shard_ids: list[int], shard_count: int, *, sync: bool) -> None:
        super().__init__(intents=discord.Intents.default(), shard_ids=shard_ids, shard_count=shard_count,
                         guild_ready_timeout=0.05)
        self.label, self.sync = label, sync
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(whoami_cmd)
        self.ready_event = asyncio.Event()

    async def setup_hook(self) -> None:
        if self.sync:
            await self.tree.sync()

    async def on_ready(self) -> None:
        self.ready_event.set()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # no 5 s pause between this test's IDENTIFYs


async def test_shards_get_their_own_guilds_interactions_and_dms_on_shard_0() -> None:
    fake = FakeDiscord()
    guilds = {s: fake.add_guild(f"guild on shard {s}", shard=(s, 4)) for s in range(4)}
    await fake.start()
    point_at(fake.api_base)
    clients = [ShardClient("A", [0, 1], 4, sync=True), ShardClient("B", [2, 3], 4, sync=False)]
    tasks = [asyncio.create_task(c.start("fake-token")) for c in clients]
    try:
        await fake.wait_connected(timeout=10, shards=range(4))
        for c in clients:
            await asyncio.wait_for(c.ready_event.wait(), 30)
        await fake.wait_for_commands()
        identified = [r["d"]["shard"] for r in fake.gateway_received if r["op"] == 2]
        assert sorted(identified) == [[0, 4], [1, 4], [2, 4], [3, 4]]
        # Each client was told only of its own shards' guilds (and the first guild, wherever it landed).
        for c, shards in zip(clients, ([0, 1], [2, 3])):
            seen = {g.id for g in c.guilds}
            assert {guilds[s]["id_int"] for s in shards} <= seen
            assert not {guilds[s]["id_int"] for s in range(4) if s not in shards} & seen
            assert all(fake.shard_of(g) in shards for g in seen)
        for s, g in guilds.items():
            h = await fake.send_slash(g["id_int"], g["channel_ids"][0], "alice", "whoami")
            assert (await h.response()).content == f"{'A' if s < 2 else 'B'} shard {s}"
            assert h.record.shard == s
        dm = await fake.send_slash(None, None, "bob", "whoami")
        assert (await dm.response()).content == "A shard dm" and dm.record.shard == 0
        # A shard whose client is gone: its guild's interactions wait, the others' are still served.
        await clients[1].close()
        await fake.wait_until(lambda: not fake.shard_connected(2), 5, "shard 2 to drop")
        fake.response_deadline = 0.3
        lost = await fake.send_slash(guilds[2]["id_int"], guilds[2]["channel_ids"][0], "alice", "whoami",
                                     wait_connected=False)
        await fake.wait_until(lambda: lost.record.expired, 5, "the unserved interaction to expire")
        assert [v.kind for v in fake.violations] == ["late_response"]
        fake.violations.clear()
        h = await fake.send_slash(guilds[1]["id_int"], guilds[1]["channel_ids"][0], "alice", "whoami")
        assert (await h.response()).content == "A shard 1"
        fake.assert_clean()
    finally:
        for c in clients:
            await c.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        await fake.stop()
        reset()


async def _identify_raw(fake: FakeDiscord, shard) -> int | None:
    """IDENTIFY over a bare websocket; the close code Discord would answer with (None: READY)."""
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
            await ws.receive_json()  # HELLO
            payload = {"token": "fake-token", "intents": 1, "properties": {}}
            if shard is not None:
                payload["shard"] = shard
            await ws.send_json({"op": 2, "d": payload})
            msg = await ws.receive()
            if msg.type == aiohttp.WSMsgType.TEXT:
                ready = json.loads(msg.data)
                assert ready["t"] == "READY"
                return None
            return ws.close_code


async def test_identify_checks_the_shard_like_discord() -> None:
    async with FakeDiscord() as fake:
        for bad in ([4, 4], [-1, 2], [0, 0], [1], "0,2", [0.0, 2]):
            assert await _identify_raw(fake, bad) == 4010, bad
        assert await _identify_raw(fake, [1, 2]) is None
        assert fake.sessions[fake.current_session.id].shard == [1, 2]
    async with FakeDiscord(shards_required=2) as fake:
        assert await _identify_raw(fake, None) == 4011
        assert await _identify_raw(fake, [0, 1]) == 4011
        assert await _identify_raw(fake, [0, 2]) is None


# ---- Components V2 messages --------------------------------------------------------------------------
V2 = 1 << 15


def _board(text="board", alt="alt", url="attachment://board.png", accent=0x0072B2, rows=()) -> list[dict]:
    """A one-message board as the bot sends it: a container with text, the image and action rows."""
    gallery = {"type": 12, "items": [{"media": {"url": url}, "description": alt}]}
    return [{"type": 17, "accent_color": accent, "components": [{"type": 10, "content": text}, gallery, *rows]}]


def _with_png(body: dict) -> aiohttp.FormData:
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(body), content_type="application/json")
    form.add_field("files[0]", make_png(4, 4), filename="board.png", content_type="image/png")
    return form


def _codes(errors: dict) -> set[str]:
    out = set()
    for key, value in errors.items():
        if key == "_errors":
            out |= {e["code"] for e in value}
        elif isinstance(value, dict):
            out |= _codes(value)
    return out


async def test_components_v2_messages_follow_discords_rules(fake: FakeDiscord) -> None:
    """Each refused payload breaks exactly one Components V2 rule, and gets Discord's 50035 answer
    with the error code Discord gives; the good board and the edits that keep the rules pass."""
    fake.openapi = None  # the stand-in's own rules alone (Discord's description refuses some first)
    base, channel = fake.api_base, fake.channel_id
    row = lambda *items: {"type": 1, "components": list(items)}  # noqa: E731
    button = lambda cid: {"type": 2, "style": 1, "label": "b", "custom_id": cid}  # noqa: E731
    too_many = [row(*[button(f"b{r}{i}") for i in range(5)]) for r in range(6)]  # 3 + 6 x 6 = 39 ... + sep
    bad = {  # expected code -> payload (sent with board.png uploaded)
        "UNION_TYPE_CHOICES": {"components": _board()},  # layout components without the flag
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2": {"flags": V2, "content": "x", "components": _board()},
        "BASE_TYPE_MAX_LENGTH": {"flags": V2, "components": _board(rows=too_many + [{"type": 14}, {"type": 14}])},
        "BASE_TYPE_BAD_LENGTH": {"flags": V2, "components": [{"type": 12, "items": []}]},
        "NUMBER_TYPE_MAX": {"flags": V2, "components": _board(accent=0x1000000)},
        "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND": {"flags": V2, "components": _board(url="attachment://other.png")},
        "COMPONENT_CUSTOM_ID_DUPLICATED": {"flags": V2, "components": _board(rows=[row(button("same")), row(button("same"))])},
    }
    long_text = {"flags": V2, "components": _board(text="t" * 2500) + [{"type": 10, "content": "u" * 1501}]}
    long_alt = {"flags": V2, "components": _board(alt="a" * 1025)}
    many_items = {"flags": V2, "components": [{"type": 12, "items": [{"media": {"url": "attachment://board.png"}}] * 11}]}
    embeds = {"flags": V2, "embeds": [{"title": "t"}], "components": _board()}
    cases = [(code, body) for code, body in bad.items()] + [
        ("BASE_TYPE_MAX_LENGTH", long_text), ("BASE_TYPE_MAX_LENGTH", long_alt),
        ("BASE_TYPE_BAD_LENGTH", many_items), ("MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", embeds)]
    alice = int(fake.user("alice")["id"])
    bob = int(fake.user("bob")["id"])
    async with aiohttp.ClientSession(headers={"Authorization": "Bot test"}) as http:
        for code, body in cases:
            async with http.post(f"{base}/channels/{channel}/messages", data=_with_png(body)) as resp:
                answer = await resp.json()
                assert resp.status == 400 and answer["code"] == 50035, (body, answer)
                assert code in _codes(answer["errors"]), (code, answer)
        # the good board: 40 components at most, text and alt within limits; pings only the named user
        full = [row(*[button(f"g{r}{i}") for i in range(5)]) for r in range(5)]
        good = {"flags": V2, "components": _board(text=f"<@{alice}> <@{bob}> your turn", alt="a" * 1024, rows=full),
                "allowed_mentions": {"parse": [], "users": [str(alice)]}}
        async with http.post(f"{base}/channels/{channel}/messages", data=_with_png(good)) as resp:
            assert resp.status == 200, await resp.text()
            mid = (await resp.json())["id"]
        msg = fake.message(int(mid))
        assert msg.flags & V2 and msg.mention_ids() == [alice] and len(msg.custom_ids()) == 25
        url = f"{base}/channels/{channel}/messages/{mid}"
        edits_refused = {
            "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG": {"flags": 0, "components": []},
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2": {"content": "now with content"},
            "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND": {"components": _board(url="attachment://gone.png")},
        }
        for code, body in edits_refused.items():
            async with http.patch(url, json=body) as resp:
                answer = await resp.json()
                assert resp.status == 400 and code in _codes(answer.get("errors", {})), (code, answer)
        # retiring: the same text and image (kept attachment), no action rows; the flag stays
        async with http.patch(url, json={"components": _board(text="retired")}) as resp:
            assert resp.status == 200, await resp.text()
    msg = fake.message(int(mid))
    assert msg.flags & V2 and msg.custom_ids() == [] and msg.attachment("board.png") and "retired" in msg.text()
    gallery = next(c for c in msg.all_components() if c["type"] == 12)
    assert gallery["items"][0]["media"]["url"] == msg.attachment("board.png").url


# ---- the bot's permissions --------------------------------------------------------------------------
from tests.fakediscord.server import ALL_PERMISSIONS, P as PERM  # noqa: E402


def _bits(*names: str) -> int:
    return sum(PERM[n] for n in names)


async def test_permissions_are_resolved_as_discord_documents(fake: FakeDiscord) -> None:
    """Base from @everyone and roles, Administrator short-circuits; then the @everyone overwrite,
    the member's roles' overwrites together, the member's own; no View Channel means nothing, no
    Send Messages no Attach Files; threads follow their parent, and a locked one leaves little to
    whoever lacks Manage Threads."""
    from bot.common.permissions import INVITE_INTEGER

    gid, cid, bot = fake.guild_id, fake.channel_id, fake.application_id
    g = fake._guild(gid)
    bot_role, admin_role = int(g.data["bot_role_id"]), int(g.data["admin_role_id"])
    everyone = int(g.data["roles"][0]["permissions"])
    assert fake.bot_permissions_in(cid) == INVITE_INTEGER | everyone  # invited with the documented link

    fake.set_overwrite(cid, gid, deny=_bits("SEND_MESSAGES", "PIN_MESSAGES"))  # @everyone
    got = fake.bot_permissions_in(cid)
    assert not got & _bits("SEND_MESSAGES", "PIN_MESSAGES", "ATTACH_FILES")  # Attach Files goes with sending
    assert got & _bits("VIEW_CHANNEL", "READ_MESSAGE_HISTORY", "CREATE_PUBLIC_THREADS")
    fake.set_overwrite(cid, bot_role, allow=_bits("SEND_MESSAGES"))  # a role's allow beats @everyone's deny
    assert fake.bot_permissions_in(cid) & _bits("SEND_MESSAGES", "ATTACH_FILES") == _bits("SEND_MESSAGES", "ATTACH_FILES")
    fake.set_overwrite(cid, "TabletopBot", deny=_bits("ATTACH_FILES"))  # the member's own beats the role's
    assert fake.bot_permissions_in(cid) & _bits("SEND_MESSAGES", "ATTACH_FILES") == _bits("SEND_MESSAGES")
    fake.set_overwrite(cid, bot, deny=_bits("VIEW_CHANNEL"))
    assert fake.bot_permissions_in(cid) == 0
    fake.set_overwrite(cid, bot)  # removed
    assert [o["id"] for o in fake.channel(cid)["permission_overwrites"]] == [str(gid), str(bot_role)]

    # Administrator (dora's admin role) and ownership ignore every overwrite
    dora = fake.add_user("dora", admin=True)
    fake.set_overwrite(cid, dora, deny=_bits("VIEW_CHANNEL"))
    assert fake.permissions_in(cid, dora) == ALL_PERMISSIONS
    assert admin_role in {int(r) for r in g.members[int(dora["id"])]["roles"]}
    owner = int(g.data["owner_id"])
    fake.set_overwrite(cid, owner, deny=_bits("VIEW_CHANNEL"))
    assert fake.permissions_in(cid, owner) == ALL_PERMISSIONS

    # the guild role: @everyone's grants still add to the bot's role
    fake.set_bot_permissions(gid, _bits("VIEW_CHANNEL"), everyone=_bits("VIEW_CHANNEL", "SEND_MESSAGES"))
    other = fake.guild["channel_ids"][1]
    assert fake.bot_permissions_in(other) == _bits("VIEW_CHANNEL", "SEND_MESSAGES")
    fake.set_bot_permissions(gid, INVITE_INTEGER & ~_bits("MANAGE_THREADS"), everyone=everyone)  # withheld, below

    # threads: the parent's permissions; locked, little is left without Manage Threads
    async with aiohttp.ClientSession(headers={"Authorization": "Bot test"}) as http:
        async with http.post(f"{fake.api_base}/channels/{other}/messages", json={"content": "lobby"}) as resp:
            mid = (await resp.json())["id"]
        async with http.post(f"{fake.api_base}/channels/{other}/messages/{mid}/threads", json={"name": "t"}) as resp:
            tid = int((await resp.json())["id"])
    assert fake.bot_permissions_in(tid) == fake.bot_permissions_in(other)
    fake.set_overwrite(other, gid, deny=_bits("SEND_MESSAGES_IN_THREADS"))
    assert not fake.bot_permissions_in(tid) & _bits("SEND_MESSAGES_IN_THREADS", "ATTACH_FILES")
    assert fake.bot_permissions_in(other) & _bits("SEND_MESSAGES", "ATTACH_FILES")  # the channel itself keeps them
    fake.set_overwrite(other, gid)
    fake.set_thread_state(tid, locked=True)
    assert fake.bot_permissions_in(tid) == _bits("VIEW_CHANNEL", "READ_MESSAGE_HISTORY", "ADD_REACTIONS",
                                                 "USE_EXTERNAL_EMOJIS")
    fake.set_overwrite(other, bot_role, allow=_bits("MANAGE_THREADS"))  # Manage Threads keeps everything
    assert fake.bot_permissions_in(tid) & _bits("SEND_MESSAGES_IN_THREADS", "PIN_MESSAGES", "MANAGE_THREADS")


async def test_requests_are_refused_as_discord_refuses_them(fake: FakeDiscord) -> None:
    """Each channel request needs its permissions: 403 50001 without View Channel, 403 50013
    without another; a refusal is Discord's answer, not a violation, and is listed with what was
    missing. Interactions carry the bot's resolved permissions in the channel."""
    base, cid, gid = fake.api_base, fake.channel_id, fake.guild_id
    bot_role = int(fake._guild(gid).data["bot_role_id"])
    async with aiohttp.ClientSession(headers={"Authorization": "Bot test"}) as http:
        async def call(method: str, path: str, **kw) -> tuple[int, dict | None]:
            async with http.request(method, f"{base}{path}", **kw) as resp:
                return resp.status, (await resp.json() if resp.content_type == "application/json" else None)

        status, msg = await call("POST", f"/channels/{cid}/messages", json={"content": "hello"})
        assert status == 200
        mid = msg["id"]
        checks = [  # (overwrite's deny, request, expected code)
            (_bits("SEND_MESSAGES"), ("POST", f"/channels/{cid}/messages", {"json": {"content": "x"}}), 50013),
            (_bits("VIEW_CHANNEL"), ("POST", f"/channels/{cid}/messages", {"json": {"content": "x"}}), 50001),
            (_bits("ATTACH_FILES"), ("POST", f"/channels/{cid}/messages", {"data": _with_png({"content": "x"})}), 50013),
            (_bits("PIN_MESSAGES"), ("PUT", f"/channels/{cid}/messages/pins/{mid}", {}), 50013),
            (_bits("PIN_MESSAGES"), ("PUT", f"/channels/{cid}/pins/{mid}", {}), 50013),
            (_bits("READ_MESSAGE_HISTORY"), ("GET", f"/channels/{cid}/messages/{mid}", {}), 50013),
            (_bits("CREATE_PUBLIC_THREADS"), ("POST", f"/channels/{cid}/messages/{mid}/threads", {"json": {"name": "t"}}), 50013),
            (_bits("SEND_MESSAGES"), ("POST", f"/channels/{cid}/typing", {}), 50013),
            (0, ("PATCH", f"/channels/{cid}", {"json": {"topic": "mine now"}}), 50013),  # Manage Channels
        ]
        for deny, (method, path, kw), code in checks:
            fake.set_overwrite(cid, bot_role, deny=deny)
            status, body = await call(method, path, **kw)
            assert (status, body["code"]) == (403, code), (deny, method, path, body)
        assert [missing for _, _, missing in fake.permission_refusals] == [
            ["SEND_MESSAGES"], ["VIEW_CHANNEL", "SEND_MESSAGES"], ["ATTACH_FILES"], ["PIN_MESSAGES"], ["PIN_MESSAGES"],
            ["READ_MESSAGE_HISTORY"], ["CREATE_PUBLIC_THREADS"], ["SEND_MESSAGES"], ["MANAGE_CHANNELS"]]
        fake.set_overwrite(cid, bot_role, deny=_bits("READ_MESSAGE_HISTORY"))
        assert await call("GET", f"/channels/{cid}/messages") == (200, [])  # answered, with nothing in it
        fake.set_overwrite(cid, bot_role)
        assert (await call("PUT", f"/channels/{cid}/messages/pins/{mid}"))[0] == 204

        # the bot's own thread: reopening needs only Send Messages, unless it is locked
        status, thread = await call("POST", f"/channels/{cid}/messages/{mid}/threads", json={"name": "t"})
        tid = int(thread["id"])
        fake.set_thread_state(tid, archived=True)
        assert (await call("PUT", f"/channels/{tid}/messages/pins/{mid}"))[1]["code"] == 50083
        reopen = {"json": {"archived": False, "auto_archive_duration": 10080}}
        assert (await call("PATCH", f"/channels/{tid}", **reopen))[0] == 200
        fake.set_thread_state(tid, archived=True)
        status, _ = await call("POST", f"/channels/{tid}/messages", json={"content": "wakes it"})
        assert status == 200 and not fake.channel(tid)["thread_metadata"]["archived"]
        fake.set_bot_permissions(gid, fake.bot_permissions_in(cid) & ~_bits("MANAGE_THREADS"))  # withheld here
        fake.set_thread_state(tid, archived=True, locked=True)  # a moderator's "close and lock"
        assert (await call("POST", f"/channels/{tid}/messages", json={"content": "x"}))[1]["code"] == 50013
        assert (await call("PATCH", f"/channels/{tid}", **reopen))[1]["code"] == 50013
        assert (await call("PATCH", f"/channels/{tid}", json={"archived": False, "locked": False}))[1]["code"] == 50013
        fake.set_overwrite(cid, bot_role, allow=_bits("MANAGE_THREADS"))  # granted: it may reopen it
        assert (await call("POST", f"/channels/{tid}/messages", json={"content": "x"}))[1]["code"] == 50083
        assert (await call("PATCH", f"/channels/{tid}", json={"archived": False, "locked": False}))[0] == 200
        assert (await call("POST", f"/channels/{tid}/messages", json={"content": "open again"}))[0] == 200

        fake.blocked_channels.add(cid)  # the older switch still works
        assert (await call("POST", f"/channels/{cid}/messages", json={"content": "x"}))[1]["code"] == 50013
        fake.blocked_channels.clear()
    assert fake.violations == []

    # an interaction carries the bot's permissions in its channel, overwrites included
    fake.set_overwrite(cid, gid, deny=_bits("PIN_MESSAGES", "CREATE_PUBLIC_THREADS"))
    payload = fake._interaction_base(2, "alice", fake.channel(cid), locale="en-US", guild_locale=None)
    app = discord.Permissions(int(payload["app_permissions"]))
    assert app.send_messages and app.attach_files and not app.pin_messages and not app.create_public_threads
    assert int(payload["member"]["permissions"]) == fake.permissions_in(cid, "alice")


async def test_attachment_urls_are_signed_afresh_and_media_names_its_attachment(fake: FakeDiscord) -> None:
    """As on Discord's CDN: every URL handed out carries ``?ex=&is=&hm=``, different each time (two
    fetches, or the attachment and the media pointing at it, never compare equal), each attachment
    has its id and a component's media names it (``attachment_id``). Sending such a URL back as media
    is taken, and recorded as a violation: the image would vanish when the signature expires."""
    base, cid = fake.api_base, fake.channel_id
    async with aiohttp.ClientSession(headers={"Authorization": "Bot test"}) as http:
        async with http.post(f"{base}/channels/{cid}/messages", data=_with_png({"flags": V2, "components": _board()})) as resp:
            sent = await resp.json()
        fetched = []
        for _ in range(2):
            async with http.get(f"{base}/channels/{cid}/messages/{sent['id']}") as resp:
                fetched.append(await resp.json())
        urls = [m["attachments"][0]["url"] for m in [sent] + fetched]
        media = [m["components"][0]["components"][1]["items"][0]["media"] for m in [sent] + fetched]
        assert len(set(urls + [m["url"] for m in media])) == 6  # never the same string twice
        att = fake.message(int(sent["id"])).attachment("board.png")
        for url in urls + [m["url"] for m in media]:
            path, query = url.split("?")
            assert path == att.url and {k for k, _ in (p.split("=") for p in query.rstrip("&").split("&"))} == {"ex", "is", "hm"}
        assert {m["attachments"][0]["id"] for m in fetched} == {str(att.id)}
        assert {m["attachment_id"] for m in media} == {str(att.id)}
        async with http.get(urls[-1]) as resp:  # a signed URL serves the file
            assert await resp.read() == att.data
        assert fake.violations == []
        # echoing the signed URL back as media: taken, and a violation
        echoed = _board(text="retired", url=media[-1]["url"])
        async with http.patch(f"{base}/channels/{cid}/messages/{sent['id']}", json={"components": echoed}) as resp:
            assert resp.status == 200
    assert [v.kind for v in fake.violations] == ["cdn_media_url"]
