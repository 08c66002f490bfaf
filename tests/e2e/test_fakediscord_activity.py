"""The stand-in's Activity side (tests/fakediscord/activities.py), proved with plain HTTP and a tiny
discord.py client: the OAuth2 code exchange, ``/users/@me`` with a user's bearer token, the
``LAUNCH_ACTIVITY`` answer and the Activity-instance lookup, each as Discord documents them and
checked against its OpenAPI description."""

from __future__ import annotations

import asyncio
import base64

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.discord_app.endpoint import point_at, reset
from tests.fakediscord import FakeDiscord
from tests.fakediscord import openapi as OA

needs_description = pytest.mark.skipif(OA.contract() is None, reason=OA.status())


@app_commands.command(name="table", description="Open the table")
async def table_cmd(interaction: discord.Interaction) -> None:
    client: LaunchClient = interaction.client  # type: ignore[assignment]
    try:
        answer = await interaction.response.launch_activity()
    except discord.HTTPException as exc:
        client.refusals.append(exc.status)
    else:
        client.launched.append(answer.resource.id if answer.resource else None)  # type: ignore[union-attr]
    finally:
        client.answered.set()


class LaunchClient(discord.Client):
    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.launched: list = []
        self.refusals: list[int] = []
        self.answered = asyncio.Event()

    async def setup_hook(self) -> None:
        self.tree.add_command(table_cmd)
        # to the guild: with Activities enabled, a global overwrite must also carry the Entry Point command
        self.tree.copy_global_to(guild=discord.Object(self.guild_id))
        await self.tree.sync(guild=discord.Object(self.guild_id))


async def _started(activities: bool):
    fake = FakeDiscord(activities=activities)
    await fake.start()
    point_at(fake.api_base)
    return fake


@pytest.fixture
async def fake():
    fd = await _started(activities=True)
    try:
        yield fd
    finally:
        await fd.stop()
        reset()


async def _post_token(base: str, form: dict, *, basic: tuple[str, str] | None = None, as_json: bool = False):
    headers = {}
    if basic:
        headers["Authorization"] = "Basic " + base64.b64encode(f"{basic[0]}:{basic[1]}".encode()).decode()
    async with aiohttp.ClientSession() as http:
        kw = {"json": form} if as_json else {"data": form}
        async with http.post(f"{base}/oauth2/token", headers=headers, **kw) as resp:
            return resp.status, await resp.json()


async def test_code_exchange_as_discord_documents_it(fake: FakeDiscord) -> None:
    """A code from the SDK's authorize command buys one access token, with the client's id and
    secret in the form or by HTTP Basic; a code used twice, a wrong secret, a JSON body and an
    unknown grant are refused in OAuth2's own error shape."""
    app, secret = str(fake.application_id), fake.client_secret
    code = fake.authorize_code("alice")
    form = {"grant_type": "authorization_code", "code": code, "client_id": app, "client_secret": secret}
    status, body = await _post_token(fake.api_base, form)
    assert status == 200, body
    assert body["token_type"] == "Bearer" and body["scope"] == "identify" and body["access_token"]
    assert (await _post_token(fake.api_base, form)) == (400, {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'})

    code = fake.authorize_code("bob")
    status, body = await _post_token(fake.api_base, {"grant_type": "authorization_code", "code": code}, basic=(app, secret))
    assert status == 200, body

    code = fake.authorize_code("bob")
    wrong = {"grant_type": "authorization_code", "code": code, "client_id": app, "client_secret": "not-it"}
    assert (await _post_token(fake.api_base, wrong))[1]["error"] == "invalid_client"
    form = dict(wrong, client_secret=secret, grant_type="password")
    assert (await _post_token(fake.api_base, form))[1]["error"] == "unsupported_grant_type"
    assert fake.violations == []
    status, body = await _post_token(fake.api_base, dict(form, grant_type="authorization_code"), as_json=True)
    assert (status, body["error"]) == (400, "invalid_request")
    assert [v.kind for v in fake.violations] == ["oauth_body"]
    assert [(e.status, e.error) for e in fake.token_exchanges] == [
        (200, None), (400, "invalid_grant"), (200, None), (401, "invalid_client"), (400, "unsupported_grant_type"),
        (400, "invalid_request")]


@needs_description
async def test_a_bearer_token_reads_its_user_where_the_description_allows(fake: FakeDiscord) -> None:
    """``GET /users/@me`` with a user's token answers that user (no email under ``identify``),
    shaped as the description's answer; a revoked token gets 401; a bearer token on a route that
    takes a bot token only is refused."""
    token = fake.access_token_for("carol")
    async with aiohttp.ClientSession(headers={"Authorization": f"Bearer {token}"}) as http:
        async with http.get(f"{fake.api_base}/users/@me") as resp:
            me = await resp.json()
            assert resp.status == 200
        assert me["id"] == fake.user("carol")["id"] and me["username"] == "carol" and "email" not in me
        async with http.get(f"{fake.api_base}/channels/{fake.channel_id}") as resp:
            assert resp.status == 401
        fake.revoke_token(token)
        async with http.get(f"{fake.api_base}/users/@me") as resp:
            assert resp.status == 401
    assert [v.kind for v in fake.violations] == ["missing_auth"]  # the bearer token on a bot-only route
    assert OA.contract().oauth2_token_paths() == {"/oauth2/token"}


@pytest.mark.parametrize("enabled", [True, False])
async def test_launch_activity_and_the_instance_lookup(enabled: bool) -> None:
    """Callback type 12 opens an Activity where the interaction happened (its instance answered in
    the callback's resource, and by the lookup route with the bot's token, as the description
    shapes it); an application without Activities enabled is refused and it is recorded."""
    fake = await _started(activities=enabled)
    client = LaunchClient(fake.guild_id)
    task = asyncio.create_task(client.start("fake-token"))
    try:
        await fake.wait_connected(30)
        await fake.wait_for_commands(fake.guild_id)
        if enabled:  # Discord's default Entry Point command: a global overwrite may not drop it
            assert [(c["type"], c["name"], c["handler"]) for c in fake.commands] == [(4, "launch", 2)]
            with pytest.raises(discord.HTTPException) as refused:
                await client.tree.sync()
            assert refused.value.code == 50240 and [v.kind for v in fake.violations] == ["entry_point_removed"]
            fake.violations.clear()
        handle = await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "table", {})
        await asyncio.wait_for(client.answered.wait(), 30)  # a hang bound
        if not enabled:
            assert client.refusals == [400]
            assert [v.kind for v in fake.violations] == ["activity_not_enabled"]
            assert fake.activity_instances == {}
            return
        (instance,) = fake.launched_activities()
        assert client.launched == [instance.instance_id]
        assert (await handle.response()).type == 12
        assert instance.users == [int(fake.user("alice")["id"])] and instance.guild_id == fake.guild_id
        async with aiohttp.ClientSession(headers={"Authorization": "Bot fake-token"}) as http:
            url = f"{fake.api_base}/applications/{fake.application_id}/activity-instances"
            async with http.get(f"{url}/{instance.instance_id}") as resp:
                found = await resp.json()
                assert resp.status == 200
            async with http.get(f"{url}/i-1-gc-1-1") as resp:
                assert (resp.status, (await resp.json())["code"]) == (404, 0)
        assert found["location"] == {"id": f"gc-{fake.guild_id}-{fake.channel_id}", "kind": "gc",
                                     "channel_id": str(fake.channel_id), "guild_id": str(fake.guild_id)}
        assert found["users"] == [fake.user("alice")["id"]]
        fake.assert_clean()  # the answers, too, match Discord's description
    finally:
        await client.close()
        try:
            await asyncio.wait_for(task, 5.0)
        except Exception:
            task.cancel()
        await fake.stop()
        reset()
