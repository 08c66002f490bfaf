"""The stand-in speaks Discord's contract (issue #30): request bodies against Discord's published
OpenAPI description, per-route and global rate limits, the old-message edit limit, and interaction
ids that date their tokens. Raw requests prove what the stand-in answers; discord.py's own HTTP
client proves that it reads those answers as it reads Discord's.
"""

from __future__ import annotations

import asyncio
import datetime

import aiohttp
import discord
import pytest

from bot.discord_app.endpoint import point_at, reset
from tests.fakediscord import FakeDiscord
from tests.fakediscord import openapi as OA
from tests.fakediscord.ratelimits import REALISTIC_RATE_LIMITS

needs_spec = pytest.mark.skipif(not OA.SPEC_PATH.is_file(), reason=OA.status())


async def call(fake: FakeDiscord, method: str, path: str, body=None) -> tuple[int, dict, dict]:
    """One raw request as the bot; (status, JSON answer, headers)."""
    headers = {"Authorization": "Bot test"}
    async with aiohttp.ClientSession() as session:
        async with session.request(method, fake.api_base + path, json=body, headers=headers) as response:
            data = await response.json() if response.content_type == "application/json" else {}
            return response.status, data, dict(response.headers)


# ---- Discord's OpenAPI description ---------------------------------------------------------------
@needs_spec
async def test_a_body_discords_description_refuses_is_refused_and_recorded():
    async with FakeDiscord() as fake:
        # Each passes the stand-in's own rules; Discord's description refuses it.
        for body in ({"content": "hi", "allowed_mentions": {"parse": ["nobody"]}},
                     {"content": "hi", "tts": "yes"},
                     {"content": "hi", "components": [{"type": 1, "components": [
                         {"type": 2, "style": 1, "label": "b", "custom_id": "c", "emoji": "🎲"}]}]}):
            status, data, _ = await call(fake, "POST", f"/channels/{fake.channel_id}/messages", body)
            assert (status, data["code"]) == (400, 50035), body
        assert [v.kind for v in fake.violations] == ["openapi"] * 3
        assert "allowed_mentions.parse.0" in fake.violations[0].message
        assert "emoji" in fake.violations[2].message
        assert not fake.messages(fake.channel_id)


@needs_spec
async def test_the_payload_json_of_a_multipart_request_is_checked_too():
    async with FakeDiscord() as fake:
        form = aiohttp.FormData(quote_fields=False)
        form.add_field("payload_json", '{"content": "board", "attachments": [{"id": 0, "filename": 7}]}',
                       content_type="application/json")
        form.add_field("files[0]", b"\x89PNG\r\n\x1a\n", filename="board.png", content_type="image/png")
        async with aiohttp.ClientSession() as session:
            async with session.post(f"{fake.api_base}/channels/{fake.channel_id}/messages", data=form,
                                    headers={"Authorization": "Bot test"}) as response:
                assert response.status == 400
        assert [v.kind for v in fake.violations] == ["openapi"]
        assert "attachments.0.filename" in fake.violations[0].message


@needs_spec
async def test_what_discord_takes_passes_including_integer_snowflakes():
    async with FakeDiscord() as fake:
        alice = int(fake.user("alice")["id"])
        status, _, _ = await call(fake, "POST", f"/channels/{fake.channel_id}/messages",
                                  {"content": f"<@{alice}>", "allowed_mentions": {"users": [alice]}})
        assert status == 200
        fake.assert_clean()


@needs_spec
def test_operations_are_found_by_discords_own_templates():
    spec = OA.contract()
    assert spec.operation("GET", "/channels/1/messages/pins").template == "/channels/{channel_id}/messages/pins"
    assert spec.operation("GET", "/channels/1/messages/2").template == "/channels/{channel_id}/messages/{message_id}"
    assert spec.operation("PATCH", "/webhooks/1/tok/messages/@original").operation_id
    assert spec.operation("POST", "/channels/1/nowhere") is None
    assert spec.problems("PUT", "/channels/1/messages/pins/2", None, has_body=False) == []
    assert spec.problems("POST", "/channels/1/messages", None, has_body=False)  # a message needs a body


def test_without_the_description_the_stand_in_says_so_in_one_line():
    assert OA.status().startswith("Discord OpenAPI validation ")
    assert FakeDiscord(openapi=False).openapi is None


# ---- rate limits ---------------------------------------------------------------------------------
async def test_a_spent_route_bucket_answers_429_as_discord_does():
    async with FakeDiscord(rate_limits={"POST /channels/{channel_id}/messages": (2, 1.0)}) as fake:
        here = f"/channels/{fake.channel_id}/messages"
        first = await call(fake, "POST", here, {"content": "1"})
        second = await call(fake, "POST", here, {"content": "2"})
        assert [first[0], second[0]] == [200, 200]
        assert [first[2]["X-RateLimit-Remaining"], second[2]["X-RateLimit-Remaining"]] == ["1", "0"]
        assert first[2]["X-RateLimit-Limit"] == "2" and first[2]["X-RateLimit-Bucket"]
        status, data, headers = await call(fake, "POST", here, {"content": "3"})
        assert status == 429
        assert data["global"] is False and 0 < data["retry_after"] <= 1.0
        assert headers["X-RateLimit-Scope"] == "user" and headers["Retry-After"] == "1" and headers["Via"]
        other = fake.guild["channel_ids"][1]  # another channel has its own bucket
        assert (await call(fake, "POST", f"/channels/{other}/messages", {"content": "x"}))[0] == 200
        await asyncio.sleep(data["retry_after"])
        assert (await call(fake, "POST", here, {"content": "3 again"}))[0] == 200
        assert [m.content for m in fake.messages(fake.channel_id)] == ["1", "2", "3 again"]
        assert [(r.route, r.is_global) for r in fake.rate_limited] == [("POST /channels/{channel_id}/messages", False)]
        fake.assert_clean()  # being rate limited is Discord's answer, not a violation


async def test_the_global_limit_spares_interaction_endpoints():
    async with FakeDiscord(global_rate_limit=(2, 1.0)) as fake:
        assert (await call(fake, "GET", "/users/@me"))[0] == 200
        assert (await call(fake, "GET", "/users/@me"))[0] == 200
        status, data, headers = await call(fake, "GET", "/users/@me")
        assert status == 429 and data["global"] is True
        assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
        # An interaction callback is not counted (Discord: interaction endpoints are exempt).
        status, data, _ = await call(fake, "POST", "/interactions/1/nothing/callback", {"type": 1})
        assert status == 404 and data["code"] == 10062
        fake.violations.clear()  # that callback named no interaction: recorded, and beside the point here


async def test_discord_py_waits_out_the_limits_and_sends_each_message_once():
    """discord.py's own HTTP client under tight limits: it reads the headers and waits, retries
    each 429 after ``retry_after``, and every message lands exactly once."""
    limits = {"POST /channels/{channel_id}/messages": (2, 0.5)}
    async with FakeDiscord(rate_limits=limits, global_rate_limit=(3, 0.5)) as fake:
        point_at(fake.api_base)
        http = discord.http.HTTPClient(asyncio.get_running_loop())
        started = asyncio.get_running_loop().time()
        try:
            await http.static_login("test")
            channels = fake.guild["channel_ids"][:2]
            await asyncio.gather(*(http.send_message(c, params=discord.http.handle_message_parameters(
                content=f"{c}:{i}")) for i in range(8) for c in channels))
        finally:
            await http.close()
            reset()
        for c in channels:
            assert sorted(m.content for m in fake.messages(c)) == sorted(f"{c}:{i}" for i in range(8))
        # Two channels' 2 a half-second would be 8 a second: the global 6 held them back with 429s,
        # which discord.py waited out; each channel's own limit it kept by reading the headers.
        assert any(r.is_global for r in fake.rate_limited)
        assert asyncio.get_running_loop().time() - started >= 2.0  # 16 messages and /users/@me at 6 a second
        fake.assert_clean()


def test_realistic_limits_name_routes_the_stand_in_serves():
    fake = FakeDiscord()
    served = {f"{m} {t}" for m, t, *_ in fake._routes}
    assert set(REALISTIC_RATE_LIMITS) <= served


# ---- editing old messages ------------------------------------------------------------------------
async def test_old_messages_take_three_edits_per_six_seconds_per_channel():
    async with FakeDiscord(old_message_edits=(3, 0.5)) as fake:
        here = f"/channels/{fake.channel_id}/messages"
        old = [(await call(fake, "POST", here, {"content": f"board {i}"}))[1]["id"] for i in range(2)]
        fresh = (await call(fake, "POST", here, {"content": "new"}))[1]["id"]
        for mid in old:
            fake.age_message(int(mid), 3600)
        answers = [(await call(fake, "PATCH", f"{here}/{old[i % 2]}", {"content": f"edit {i}"}))[:2] for i in range(4)]
        assert [a[0] for a in answers] == [200, 200, 200, 400]
        assert answers[3][1]["code"] == 30046
        assert (await call(fake, "PATCH", f"{here}/{fresh}", {"content": "fresh edit"}))[0] == 200  # under an hour
        await asyncio.sleep(0.5)
        assert (await call(fake, "PATCH", f"{here}/{old[1]}", {"content": "later"}))[0] == 200
        assert fake.old_edit_refusals == [(fake.channel_id, int(old[1]))]
        fake.assert_clean()


# ---- interaction tokens --------------------------------------------------------------------------
def test_an_interaction_id_dates_its_token_to_the_lifetime_the_stand_in_enforces():
    for lifetime in (900, 5):
        fake = FakeDiscord(token_lifetime=lifetime)
        created = discord.utils.snowflake_time(fake._interaction_id())
        expires = created + datetime.timedelta(minutes=15)  # how discord.py dates an interaction's expiry
        left = (expires - discord.utils.utcnow()).total_seconds()
        assert lifetime - 1 < left <= lifetime
