"""The Activity's sign-in (bot/web/activity.py) against the Discord stand-in, over real HTTP: the
SDK's code is exchanged at /oauth2/token, /users/@me says who it is, Discord's instance lookup says
they are in the Activity the Table button launched, and only then is a session opened, for that
game; every other case is refused in words and opens nothing."""

from __future__ import annotations

import json

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import GameHost, Where
from bot.storage.sqlite import Store
from bot.web import WebSettings, make_app
from bot.web.activity import ActivitySettings, launches_of
from tests.fakediscord import FakeDiscord


@pytest.fixture
async def fake():
    fd = FakeDiscord(activities=True)
    await fd.start()
    yield fd
    await fd.stop()


@pytest.fixture
async def host(tmp_path):
    store = await Store.open(str(tmp_path / "activity.sqlite3"))
    yield GameHost(store, seed_source=lambda: 4242)
    await store.close()


def uid(fake: FakeDiscord, name: str) -> int:
    return int(fake.user(name)["id"])


@pytest.fixture
async def game(fake, host) -> int:
    row, _ = await host.create("squares", None, guild_id=fake.guild_id, channel_id=fake.channel_id,
                               user_id=uid(fake, "alice"), locale="en")
    await host.join(row.id, uid(fake, "bob"))
    await host.start(row.id, uid(fake, "alice"))
    return row.id


def web_settings(fake: FakeDiscord, *, secret: str | None = None) -> WebSettings:
    settings = WebSettings(secret=b"s" * 32, port=0, public_url="https://table.example", poll_seconds=0)
    settings.extra["activity"] = ActivitySettings(True, fake.application_id, secret or fake.client_secret,
                                                  "fake-token", fake.api_base)
    return settings


@pytest.fixture
async def client(fake, host):
    settings = web_settings(fake)
    server = TestServer(make_app(host, settings))
    made = TestClient(server)
    await made.start_server()
    made.settings = settings
    yield made
    await made.close()


async def sign_in(client: TestClient, code: str, instance_id: str):
    response = await client.post("/api/activity/token", data=json.dumps({"code": code, "instance_id": instance_id}),
                                 headers={"Content-Type": "application/json"})
    return response, await response.json()


async def test_a_player_in_the_launched_activity_gets_a_session_for_its_game(fake, host, game, client) -> None:
    instance = fake.open_activity("alice", fake.channel_id)
    launches_of(client.settings).note(instance, game, Where(fake.guild_id, fake.channel_id))
    response, body = await sign_in(client, fake.authorize_code("alice"), instance)
    assert response.status == 200, body
    assert body["game_id"] == game and fake.oauth_tokens[body["access_token"]].user_id == uid(fake, "alice")
    cookie = response.headers["Set-Cookie"]
    for part in ("HttpOnly", "Secure", "SameSite=None", "Partitioned", f"tt_{game}="):
        assert part in cookie, cookie
    state = await client.get(f"/api/game/{game}", headers={"X-Table-Session": body["session"]})
    assert state.status == 200 and (await state.json())["seat"] is not None  # a player, not a spectator
    # the exchange went where Discord documents it: form-encoded, the client's id and secret by Basic
    (exchange,) = fake.token_exchanges
    assert (exchange.grant_type, exchange.client_id, exchange.status) == ("authorization_code", str(fake.application_id), 200)
    assert [r.path for r in fake.requests] == ["/oauth2/token", "/users/@me",
                                               f"/applications/{fake.application_id}/activity-instances/{instance}"]
    fake.assert_clean()


async def test_every_other_sign_in_is_refused_and_opens_nothing(fake, host, game, client) -> None:
    instance = fake.open_activity("alice", fake.channel_id)
    launches_of(client.settings).note(instance, game, Where(fake.guild_id, fake.channel_id))
    code = fake.authorize_code("alice")
    assert (await sign_in(client, code, instance))[0].status == 200
    cases = [
        ("a code used twice", code, instance, 401, "did not confirm who you are"),
        ("a made-up code", "not-a-code", instance, 401, "did not confirm who you are"),
        ("someone not in the Activity", fake.authorize_code("bob"), instance, 403, "not in this Activity"),
        ("an Activity no button launched", fake.authorize_code("alice"), fake.open_activity("alice", fake.channel_id),
         404, "not tied to a game"),
        ("no code at all", "", instance, 400, "did not confirm who you are"),
    ]
    for what, given, inst, status, words in cases:
        response, body = await sign_in(client, given, inst)
        assert (response.status, "Set-Cookie" in response.headers) == (status, False), what
        assert words in body["error"], (what, body)
    fake.end_activity(instance)  # everyone left: Discord no longer knows the instance
    response, body = await sign_in(client, fake.authorize_code("alice"), instance)
    assert response.status == 403 and "not in this Activity" in body["error"]
    # once bob joins the Activity in Discord, his own sign-in opens the same game, as bob
    other = fake.open_activity("alice", fake.channel_id)
    launches_of(client.settings).note(other, game, Where(fake.guild_id, fake.channel_id))
    fake.join_activity(other, "bob")
    response, body = await sign_in(client, fake.authorize_code("bob"), other)
    assert response.status == 200, body
    assert fake.oauth_tokens[body["access_token"]].user_id == uid(fake, "bob")


async def test_a_wrong_client_secret_is_refused_by_discord(fake, host, game) -> None:
    settings = web_settings(fake, secret="not-the-secret")
    instance = fake.open_activity("alice", fake.channel_id)
    launches_of(settings).note(instance, game, Where(fake.guild_id, fake.channel_id))
    async with TestClient(TestServer(make_app(host, settings))) as client:
        response, body = await sign_in(client, fake.authorize_code("alice"), instance)
    assert response.status == 401 and [e.error for e in fake.token_exchanges] == ["invalid_client"]


async def test_without_activity_settings_there_is_no_activity(host) -> None:
    settings = WebSettings(secret=b"s" * 32, port=0, public_url="https://table.example", poll_seconds=0)
    async with TestClient(TestServer(make_app(host, settings))) as client:
        response, body = await sign_in(client, "code", "i-1-gc-1-1")
        assert response.status == 404 and body["error"]
        assert (await client.get("/activity")).status == 404
