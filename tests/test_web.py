"""The web way in (#42), over real HTTP in-process (aiohttp's test server): links and sessions,
moves through the page's JSON, every refusal changing nothing stored, and live updates."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import GameHost, Where
from bot.storage.sqlite import Store
from bot.web import WebSettings, make_app, table_link
from games import get_game

ALICE, BOB, CAROL = 111, 222, 333
GUILD, CHANNEL = 1, 5
HERE = Where(GUILD, CHANNEL)


class Now:
    """A settable clock for the links (never the wall clock: the tests decide expiry by value)."""

    def __init__(self):
        self.now = 1_800_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture
async def host(tmp_path):
    store = await Store.open(str(tmp_path / "web.sqlite3"))
    made = GameHost(store, seed_source=lambda: 4242)
    yield made
    await store.close()


@pytest.fixture
def now():
    return Now()


@pytest.fixture
def settings(now):
    return WebSettings(secret=b"k" * 32, port=0, public_url="https://table.example", clock=now, poll_seconds=0)


@pytest.fixture
async def server(host, settings):
    delivered = []

    async def deliver(outbox):
        delivered.append(outbox)

    app = make_app(host, settings, deliver)
    srv = TestServer(app)
    await srv.start_server()
    srv.delivered = delivered
    yield srv
    await srv.close()


class Browser:
    """One person's browser: its own cookies (sent by hand: the test server is plain http, where
    aiohttp's jar keeps Secure cookies back; Chrome treats localhost as secure)."""

    def __init__(self, server: TestServer):
        self.server = server
        self.client = TestClient(server)
        self.cookies: dict[str, str] = {}

    async def open(self, link: str):
        path = link.split("table.example", 1)[1]
        response = await self.client.get(path, allow_redirects=False)
        for header in response.headers.getall("Set-Cookie", []):
            name, _, rest = header.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return response

    def headers(self, extra=None):
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return {"Cookie": cookie, **(extra or {})} if cookie else dict(extra or {})

    async def get(self, path: str, **kw):
        return await self.client.get(path, headers=self.headers(kw.pop("headers", None)), **kw)

    async def post(self, path: str, body, **kw):
        data = body if isinstance(body, (bytes, str)) else json.dumps(body)
        return await self.client.post(path, data=data, headers=self.headers(
            {"Content-Type": "application/json", **kw.pop("headers", {})}), **kw)

    async def close(self):
        await self.client.close()


@pytest.fixture
async def browsers(server):
    made = []

    def browser():
        b = Browser(server)
        made.append(b)
        return b

    yield browser
    for b in made:
        await b.close()


async def squares_game(host: GameHost) -> int:
    row, _ = await host.create("squares", None, guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, locale="en")
    await host.join(row.id, BOB)
    await host.start(row.id, ALICE)
    return row.id


async def signed_in(browsers, settings, user, game_id, where=HERE):
    b = browsers()
    response = await b.open(table_link(settings, user, game_id, where))
    assert response.status == 303 and response.headers["Location"] == f"/game/{game_id}"
    return b


def to_act(row):
    game = get_game(row.game)
    seat = min(game.to_act(row.state))
    return seat, row.user_of(seat), game.legal_actions(row.state, seat)


async def test_a_link_opens_the_table_and_a_move_made_there_counts(host, settings, browsers, server):
    game_id = await squares_game(host)
    row = await host.store.load(game_id)
    seat, user, legal = to_act(row)
    b = await signed_in(browsers, settings, user, game_id)
    cookie = b.cookies[f"tt_{game_id}"]
    assert cookie
    page = await b.get(f"/game/{game_id}")
    assert page.status == 200
    html = await page.text()
    assert "/static/table.js" in html
    assert "frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com" \
        in page.headers["Content-Security-Policy"]
    state = await (await b.get(f"/api/game/{game_id}")).json()
    assert state["version"] == row.version and state["seat"] == seat and state["your_turn"]
    assert {a["action"] for a in state["actions"]} == set(legal)
    board = await b.get(state["board"]["url"])
    assert board.status == 200 and (await board.read())[:8] == b"\x89PNG\r\n\x1a\n"
    answer = await b.post(f"/api/game/{game_id}/move",
                          {"action": legal[0], "version": state["version"], "csrf": state["csrf"]})
    assert answer.status == 200, await answer.text()
    after = await host.store.load(game_id)
    assert after.version > row.version
    assert [a.action for a in await host.store.actions(game_id)][-1:] == [legal[0]] or after.version > row.version + 1
    assert server.delivered, "the move's outbox went to the Discord side as any move's"


# ---- refusals: each answered in words, nothing stored changes ----------------------------------------
async def stored(host, game_id):
    row = await host.store.load(game_id)
    return row.version, json.dumps(row.state, sort_keys=True), len(await host.store.actions(game_id))


async def move_body(b, game_id):
    state = await (await b.get(f"/api/game/{game_id}")).json()
    return state, {"action": state["actions"][0]["action"], "version": state["version"], "csrf": state["csrf"]}


async def test_an_expired_link_is_refused_in_words(host, settings, browsers, now):
    game_id = await squares_game(host)
    link = table_link(settings, ALICE, game_id, HERE)
    now.now += settings.link_seconds + 1
    b = browsers()
    response = await b.open(link)
    assert response.status == 403 and not b.cookies
    assert "expired" in await response.text()


async def test_a_tampered_link_and_another_games_session_are_refused(host, settings, browsers):
    game_id = await squares_game(host)
    other = await squares_game(host)
    b = browsers()
    link = table_link(settings, ALICE, game_id, HERE)
    forged = link[:-3] + ("AAA" if not link.endswith("AAA") else "BBB")
    assert (await b.open(forged)).status == 403 and not b.cookies
    b = await signed_in(browsers, settings, ALICE, game_id)
    # The session for one game opens nothing of another, even under that game's cookie name.
    b.cookies[f"tt_{other}"] = b.cookies[f"tt_{game_id}"]
    answer = await b.get(f"/api/game/{other}")
    assert answer.status == 403 and "another game" in (await answer.json())["error"]


async def test_another_users_link_moves_nothing_of_the_seat(host, settings, browsers):
    game_id = await squares_game(host)
    row = await host.store.load(game_id)
    seat, user, _ = to_act(row)
    waiting = BOB if user == ALICE else ALICE
    b = await signed_in(browsers, settings, waiting, game_id)
    before = await stored(host, game_id)
    state = await (await b.get(f"/api/game/{game_id}")).json()
    assert not state["your_turn"] and state["actions"] == []
    legal = get_game("squares").legal_actions(row.state, seat)
    answer = await b.post(f"/api/game/{game_id}/move", {"action": legal[0], "version": state["version"],
                                                         "csrf": state["csrf"]})
    assert answer.status >= 400 and (await answer.json())["error"]
    assert await stored(host, game_id) == before


@pytest.mark.parametrize("spoil", ["stale", "forged_csrf", "missing_csrf", "other_sessions_csrf", "oversized", "not_json"])
async def test_refused_moves_change_nothing(host, settings, browsers, spoil):
    game_id = await squares_game(host)
    row = await host.store.load(game_id)
    _, user, _ = to_act(row)
    b = await signed_in(browsers, settings, user, game_id)
    state, body = await move_body(b, game_id)
    if spoil == "stale":
        body["version"] -= 1
    elif spoil == "forged_csrf":
        body["csrf"] = body["csrf"][::-1]
    elif spoil == "missing_csrf":
        del body["csrf"]
    elif spoil == "other_sessions_csrf":  # the same person's other tab: a token is its own session's only
        other = await signed_in(browsers, settings, user, game_id)
        body["csrf"] = (await (await other.get(f"/api/game/{game_id}")).json())["csrf"]
    before = await stored(host, game_id)
    if spoil == "oversized":
        answer = await b.post(f"/api/game/{game_id}/move", json.dumps({**body, "pad": "x" * (settings.max_body + 1)}))
    elif spoil == "not_json":
        answer = await b.post(f"/api/game/{game_id}/move", b"action=" + body["action"].encode())
    else:
        answer = await b.post(f"/api/game/{game_id}/move", body)
    assert 400 <= answer.status < 500
    words = (await answer.json())["error"]
    assert words and "error." not in words  # a catalogue sentence, not a key
    assert await stored(host, game_id) == before


async def test_refusals_follow_the_viewers_language(host, settings, browsers):
    game_id = await squares_game(host)
    _, user, _ = to_act(await host.store.load(game_id))
    b = await signed_in(browsers, settings, user, game_id)
    _, body = await move_body(b, game_id)
    body["csrf"] = "x"
    answer = await b.post(f"/api/game/{game_id}/move", body, headers={"Accept-Language": "ja,en;q=0.5"})
    assert "変更されていません" in (await answer.json())["error"]


async def test_a_person_has_a_rate(host, settings, browsers):
    settings.moves_per_window = 3
    game_id = await squares_game(host)
    _, user, _ = to_act(await host.store.load(game_id))
    b = await signed_in(browsers, settings, user, game_id)
    state, body = await move_body(b, game_id)
    body["version"] = state["version"] + 100  # refused as stale: counts towards the rate, changes nothing
    statuses = [(await b.post(f"/api/game/{game_id}/move", body)).status for _ in range(4)]
    assert statuses[:3] == [409, 409, 409] and statuses[3] == 429
    before = await stored(host, game_id)
    _, good = await move_body(b, game_id)
    refused = await b.post(f"/api/game/{game_id}/move", good)
    assert refused.status == 429 and "Wait a minute" in (await refused.json())["error"]
    assert await stored(host, game_id) == before


async def test_a_page_without_a_session_says_how_to_open_it(host, browsers):
    game_id = await squares_game(host)
    b = browsers()
    page = await b.get(f"/game/{game_id}")
    assert page.status == 401 and "Table button" in await page.text()
    answer = await b.get(f"/api/game/{game_id}")
    assert answer.status == 401 and (await answer.json())["error"]


# ---- live updates ------------------------------------------------------------------------------------
async def next_event(response) -> dict:
    """The next ``changed`` event of a server-sent stream (keep-alive comments skipped)."""
    event = None
    while True:
        line = (await asyncio.wait_for(response.content.readline(), 60)).decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "changed":
            return json.loads(line[6:])


async def test_a_move_made_through_the_service_reaches_the_page_live(host, settings, browsers):
    game_id = await squares_game(host)
    row = await host.store.load(game_id)
    seat, user, legal = to_act(row)
    watcher = await signed_in(browsers, settings, CAROL, game_id)  # a spectator in the game's server
    stream = await watcher.get(f"/api/game/{game_id}/events")
    assert stream.status == 200 and stream.headers["Content-Type"].startswith("text/event-stream")
    assert (await next_event(stream))["version"] == row.version
    await host.act(game_id, user, legal[0], seen_version=row.version, where=HERE)  # as Discord would
    assert (await next_event(stream))["version"] > row.version
    stream.close()


async def test_a_save_by_another_process_is_found_by_the_version_poll(host, settings, tmp_path):
    from bot.web.changes import Changes

    game_id = await squares_game(host)
    row = await host.store.load(game_id)
    other = GameHost(await Store.open(str(tmp_path / "web.sqlite3")), seed_source=lambda: 4242)
    changes = Changes(host, poll_seconds=0)
    try:
        async with changes.watching(game_id, row.version) as queue:
            _, user, legal = to_act(row)
            await other.act(game_id, user, legal[0], seen_version=row.version)
            assert queue.empty()  # another process's save: this one's watcher never heard it
            await changes.poll_once()
            assert queue.get_nowait() > row.version
    finally:
        await changes.stop()
        await other.store.close()


# ---- leaks: what each viewer reads holds none of another seat's secrets -------------------------------
def leaves(value, out=None) -> set[str]:
    """Every string value in a view (card ids, hidden identities...; keys are its shape, not secrets)."""
    out = set() if out is None else out
    if isinstance(value, dict):
        for v in value.values():
            leaves(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            leaves(v, out)
    elif isinstance(value, str):
        out.add(value)
    return out


IDENTITY = re.compile(r"[A-Za-z][A-Za-z_]*\d[\w-]*")  # a card's, a monster's, a skill's id: words are no secret


def secret_game_names():
    from games import all_games

    return [g.name for g in all_games() if g.hidden_information]


async def played_game(host, name: str, plies: int) -> tuple[int, list[int]]:
    game = get_game(name)
    users = [501 + i for i in range(game.min_players)]
    row, _ = await host.create(name, None, guild_id=GUILD, channel_id=CHANNEL, user_id=users[0], locale="en")
    for u in users[1:]:
        await host.join(row.id, u)
    await host.start(row.id, users[0])
    for n in range(plies):
        row = await host.store.load(row.id)
        if row.status != "active":
            break
        seat = sorted(game.to_act(row.state))[n % len(game.to_act(row.state))]
        legal = game.legal_actions(row.state, seat)
        if legal:
            await host.act(row.id, row.user_of(seat), legal[(n * 7) % len(legal)], where=HERE)
    return row.id, users


@pytest.mark.parametrize("name", secret_game_names())
async def test_no_page_event_or_answer_holds_another_seats_secrets(host, settings, browsers, name):
    game_id, users = await played_game(host, name, 14)
    row = await host.store.load(game_id)
    game = get_game(name)
    views = {s.seat: game.view(row.state, s.seat) for s in row.seats}
    public = leaves(game.view(row.state, None))
    secrets_somewhere = False
    for viewer, user in [(None, CAROL)] + [(s.seat, s.user_id) for s in row.seats]:
        mine = leaves(views[viewer]) if viewer is not None else set()
        secrets = set()
        for seat, view in views.items():
            if seat != viewer:
                secrets |= {s for s in leaves(view) - mine - public if IDENTITY.fullmatch(s)}
        secrets_somewhere |= bool(secrets)
        b = await signed_in(browsers, settings, user, game_id)
        read = [await (await b.get(f"/game/{game_id}")).text()]
        state = await (await b.get(f"/api/game/{game_id}")).json()
        assert (state["panel"] is not None) == (viewer is not None and row.status == "active")
        read.append(json.dumps(state, ensure_ascii=False))
        read.append(await (await b.get(f"/api/game/{game_id}/history")).text())
        read.append(await (await b.get(f"/api/game/{game_id}/replay")).text())
        stream = await b.get(f"/api/game/{game_id}/events")
        read.append(json.dumps(await next_event(stream)))
        stream.close()
        if viewer is None:
            assert (await b.get(f"/api/game/{game_id}/panel.png")).status in (403, 404)
        text = "\n".join(read)
        leaked = {s for s in secrets if re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text)}
        assert not leaked, f"{name}: viewer {viewer} reads another seat's {sorted(leaked)[:5]}"
    if name == "monsterhunter":  # its hands and decks are ids; Arena's secrets (orders) have no id form
        assert secrets_somewhere, f"{name}: the position holds no secret to look for (play it further)"
