"""The web way in keeps every secret with its holder (#42), proven three ways for each game with
hidden information, at positions where secrets exist (Arena Duel: dice dealt, one order in and the
other not; Monster Hunter: mid-hunt and mid-preparation, hands and face-down monsters), as a
spectator and as each seat, in English and Japanese:

- **content**: each other seat's secrets are derived from the engine state (Arena: the pending
  order's notation and words, the dice as the panel words them; Monster Hunter: every card id in
  another seat's hand, deck or face-down monster, and each one's name in both catalogues) and none
  appears in anything the viewer reads (the page, every JSON answer, every replay step, the live
  event);
- **pictures**: the board a viewer is served is the renderer's drawing of that viewer's own view (a
  spectator's: the public view, seat None); a panel is served to its holder only, and is the drawing
  of the holder's view;
- **re-dealing**: with everything the viewer cannot know re-dealt (``Game.scramble_hidden``), every
  answer the viewer reads is byte for byte the same.

The checks are shown to bite: a table service that serves a spectator a seat's table, or a seat
another seat's panel, is reported by each of them.
"""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

import renderers
from bot.i18n import T
from bot.web.app import TABLE
from bot.web.words import say
from games import all_games, get_game
from games.arena.engine import dice_for_turn, dice_text
from tests.test_web import CAROL, HERE, Browser, host, leaves, next_event, now, settings, signed_in  # noqa: F401 (fixtures)

LANGS = ("en", "ja")
CARD = re.compile(r"[AHIMW]\d\d")
BOUNDED = "(?<![\\w/-]){}(?![\\w/-])"  # an id or a notation standing alone, not inside another word


@pytest.fixture
async def server(host, settings):  # noqa: F811 (the fixtures above are test_web's)
    from aiohttp.test_utils import TestServer

    from bot.web import make_app

    srv = TestServer(make_app(host, settings))
    await srv.start_server()
    yield srv
    await srv.close()


@pytest.fixture
async def browsers(server):
    made = []

    def browser():
        made.append(Browser(server))
        return made[-1]

    yield browser
    for b in made:
        await b.close()


def test_the_games_checked_here_are_every_game_with_secrets():
    assert {g.name for g in all_games() if g.hidden_information} == {"arena", "monsterhunter"}


# ---- what a viewer reads -----------------------------------------------------------------------------
@dataclasses.dataclass
class Reading:
    texts: dict[str, str]  # where it was read -> its text
    images: dict[str, bytes]  # "board", "panel" (when served), "replay <step>"
    panel_status: int


async def read_everything(b: Browser, game_id: int, lang: str, *, replay_steps: int = 6) -> Reading:
    """Everything the page of this viewer can fetch, in one language: the page, the state (its
    actions apart: a seat's own offers), the board and panel pictures, the history, the replay at
    its latest step and the last ``replay_steps`` steps with their pictures, and the live event."""
    headers = {"Accept-Language": lang}
    texts, images = {}, {}

    async def get(path):
        response = await b.get(path, headers=headers)
        return response.status, await response.read()

    status, page = await get(f"/game/{game_id}")
    assert status == 200
    texts["page"] = page.decode()
    status, raw = await get(f"/api/game/{game_id}")
    assert status == 200
    state = json.loads(raw)
    assert state["lang"] == lang
    texts["actions"] = json.dumps(state.pop("actions"), ensure_ascii=False)
    state.pop("csrf")
    texts["state"] = json.dumps(state, ensure_ascii=False)
    status, images["board"] = await get(state["board"]["url"])
    assert status == 200
    panel_status, panel = await get(f"/api/game/{game_id}/panel.png")
    if panel_status == 200:
        images["panel"] = panel
    if state["panel"]:
        status, served = await get(state["panel"]["url"])
        assert status == 200 and served == panel
    texts["history"] = (await get(f"/api/game/{game_id}/history"))[1].decode()
    status, raw = await get(f"/api/game/{game_id}/replay")
    texts["replay"] = raw.decode()
    if status == 200:
        steps = json.loads(raw)["steps"]
        for step in range(max(0, steps - replay_steps), steps + 1):
            status, raw = await get(f"/api/game/{game_id}/replay?step={step}")
            texts[f"replay {step}"] = raw.decode()
            if status == 200 and json.loads(raw)["image"]["width"]:
                images[f"replay {step}"] = (await get(json.loads(raw)["image"]["url"]))[1]
    stream = await b.get(f"/api/game/{game_id}/events", headers=headers)
    texts["event"] = json.dumps(await next_event(stream))
    stream.close()
    return Reading(texts, images, panel_status)


# ---- what a viewer must not read ---------------------------------------------------------------------
@dataclasses.dataclass
class Secrets:
    """Strings saying another seat's secrets: ``bounded`` stand alone (ids, notation), ``phrases``
    anywhere; ``orders`` are also a seat's own offers, so they are not looked for in its actions."""

    bounded: set[str] = dataclasses.field(default_factory=set)
    phrases: set[str] = dataclasses.field(default_factory=set)
    orders: set[str] = dataclasses.field(default_factory=set)

    def __bool__(self):
        return bool(self.bounded or self.phrases or self.orders)



def arena_secrets(state: dict, viewer: int | None, order_words: dict[str, list[str]]) -> Secrets:
    """The other seat's dice (as its panel words them, as notation, as a view's list) and pending
    order (notation, its words), unless the viewer may know them anyway: their own are the same, or
    the same dice were shown when an earlier turn resolved."""
    found = Secrets()
    public = {dice_text(dice_for_turn(state["rng"], turn, seat)) for turn in range(1, state["turn"]) for seat in (0, 1)}
    for other in (0, 1):
        if other == viewer:
            continue
        dice = state["dice"][other]
        mine = state["dice"][viewer] if viewer is not None else None
        if dice and dice != mine and dice_text(dice) not in public:
            d1, d2, d3 = dice
            found.bounded |= {dice_text(dice)}
            found.phrases |= {json.dumps(dice), json.dumps(dice, separators=(",", ":"))}
            found.phrases |= {say(lang, T("panel.arena.dice", d1=d1, d2=d2, d3=d3)) for lang in LANGS}
        order = state["orders"][other]
        if order and order != (state["orders"][viewer] if viewer is not None else None):
            found.orders |= {order, *order_words.get(order, [])}
            found.phrases |= {say(lang, T("panel.arena.pending", order=order)) for lang in LANGS}
    return found


def card_names(card: str) -> set[str]:
    return {say(lang, T(f"mh.card.{card}")) for lang in LANGS}


def monsterhunter_secrets(state: dict, viewer: int | None) -> Secrets:
    """Every card in another seat's hand or deck, or under its face-down monsters, by id and by name in
    both languages; unless the viewer sees a copy of it legitimately (their own view holds its id) or
    its name is part of a name they see."""
    game = get_game("monsterhunter")
    seen = {c for c in leaves(game.view(state, viewer)) if CARD.fullmatch(c)}
    hidden = set()
    for seat, s in enumerate(state["seats"]):
        if seat != viewer:
            hidden |= set(s["hand"]) | set(s["deck"])
    hidden |= {m["card"] for m in state["monsters"] if not m["up"] and m["seat"] != viewer}
    hidden -= seen
    seen_names = set().union(*(card_names(c) for c in seen)) if seen else set()
    names = {n for c in hidden for n in card_names(c) if not any(n in s for s in seen_names)}
    return Secrets(bounded=hidden, phrases=names)


def findings(reading: Reading, secrets: Secrets) -> list[str]:
    """Where a reading says a secret."""
    out = []
    for where, text in reading.texts.items():
        for s in secrets.bounded | (secrets.orders if where != "actions" else set()):
            if re.search(BOUNDED.format(re.escape(s)), text):
                out.append(f"{where}: {s!r}")
        out += [f"{where}: {s!r}" for s in secrets.phrases if s in text]
    return out


def picture_findings(reading: Reading, name: str, state: dict, viewer: int | None) -> list[str]:
    """The board is the drawing of the viewer's own view; a panel is the holder's, and only theirs."""
    game = get_game(name)
    view = game.view(state, viewer)
    options = renderers.view_options(name, {}, viewer)
    out = []
    if reading.images["board"] != renderers.render(name, view, **options):
        out.append(f"board: not the drawing of viewer {viewer}'s view")
    if viewer is None:
        if reading.panel_status < 400 or "panel" in reading.images:
            out.append(f"panel: served to a spectator (status {reading.panel_status})")
    elif reading.images.get("panel") != renderers.render_panel(name, view, **options):
        out.append(f"panel: not the drawing of seat {viewer}'s own view")
    return out


def differences(a: Reading, b: Reading) -> list[str]:
    out = [f"{k}: differs" for k in sorted(a.texts.keys() | b.texts.keys()) if a.texts.get(k) != b.texts.get(k)]
    out += [f"{k} picture: differs" for k in sorted(a.images.keys() | b.images.keys())
            if a.images.get(k) != b.images.get(k)]
    return out + ([f"panel status {a.panel_status} != {b.panel_status}"] if a.panel_status != b.panel_status else [])


# ---- positions with secrets ----------------------------------------------------------------------------
async def new_game(host, name: str, players: int) -> tuple[int, list[int]]:
    users = [501 + i for i in range(players)]
    row, _ = await host.create(name, None, guild_id=HERE.guild_id, channel_id=HERE.channel_id, user_id=users[0],
                               locale="en")
    for u in users[1:]:
        await host.join(row.id, u)
    await host.start(row.id, users[0])
    return row.id, users


async def arena_position(host, turns: int, committer: int | None) -> tuple[int, dict[str, list[str]]]:
    """Arena Duel after ``turns`` resolved turns, then ``committer``'s order in and the other's not
    (an order never played before in this game, so only the secret can say it); with each order's
    words as the committer's page offered them."""
    game = get_game("arena")
    game_id, _ = await new_game(host, "arena", 2)
    played: set[str] = set()
    for n in range(turns):
        for seat in (0, 1):
            row = await host.store.load(game_id)
            legal = game.legal_actions(row.state, seat)
            action = legal[(3 * n + seat) % len(legal)]
            played.add(action)
            await host.act(game_id, row.user_of(seat), action, where=HERE)
    words: dict[str, list[str]] = {}
    if committer is not None:
        row = await host.store.load(game_id)
        assert row.status == "active"
        offers = {}
        for lang in LANGS:
            table = await host.table(game_id, row.user_of(committer), where=HERE)
            offers = {a.action: a for a in table.actions}
            for action, offer in offers.items():
                words.setdefault(action, []).append(say(lang, offer.words))
        order = next(a for a in sorted(offers, key=len, reverse=True) if a not in played and "/" in a)
        await host.act(game_id, row.user_of(committer), order, where=HERE)
        row = await host.store.load(game_id)
        assert row.state["orders"][committer] == order and row.state["orders"][1 - committer] is None
    return game_id, words


async def monsterhunter_position(host, phase: str, players: int) -> int:
    """Monster Hunter played by each seat's suggested answer (``go``) into ``phase`` with secrets open:
    in a hunt, face-down monsters on the map; in a preparation, one seat done and another not."""
    game = get_game("monsterhunter")
    game_id, _ = await new_game(host, "monsterhunter", players)
    for _ in range(400):
        row = await host.store.load(game_id)
        state = row.state
        if state["phase"] == phase and state["turn"] >= 1:
            if phase == "hunt" and any(not m["up"] for m in state["monsters"]):
                return game_id
            if phase == "prep" and len(game.to_act(state)) < players and game.to_act(state):
                return game_id
        assert row.status == "active"
        seat = sorted(game.to_act(state))[0]
        await host.act(game_id, row.user_of(seat), "go", where=HERE)
    raise AssertionError(f"no {phase} position reached")


POSITIONS = {
    "arena, dice dealt, no order in": ("arena", dict(turns=0, committer=None)),
    "arena, turn 1, A's order in": ("arena", dict(turns=0, committer=0)),
    "arena, turn 2, B's order in": ("arena", dict(turns=1, committer=1)),
    "monsterhunter, mid-hunt, 3 players": ("monsterhunter", dict(phase="hunt", players=3)),
    "monsterhunter, mid-preparation, 4 players": ("monsterhunter", dict(phase="prep", players=4)),
}


async def position(host, key: str) -> tuple[str, int, dict]:
    name, how = POSITIONS[key]
    if name == "arena":
        game_id, words = await arena_position(host, **how)
        return name, game_id, words
    return name, await monsterhunter_position(host, **how), {}


async def secrets_for(host, name: str, game_id: int, viewer: int | None, words: dict) -> Secrets:
    state = (await host.store.load(game_id)).state
    if name == "arena":
        assert state["dice_mode"] == "bot"
        return arena_secrets(state, viewer, words)
    return monsterhunter_secrets(state, viewer)


async def viewers(host, settings, browsers, game_id: int) -> list[tuple[int | None, Browser]]:
    row = await host.store.load(game_id)
    people = [(None, CAROL)] + [(s.seat, s.user_id) for s in row.seats]
    return [(seat, await signed_in(browsers, settings, user, game_id)) for seat, user in people]


# ---- the checks ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", list(POSITIONS))
async def test_no_viewer_reads_another_seats_secrets(host, settings, browsers, key):
    name, game_id, words = await position(host, key)
    state = (await host.store.load(game_id)).state
    people = await viewers(host, settings, browsers, game_id)
    looked_for = 0
    for viewer, b in people:
        secrets = await secrets_for(host, name, game_id, viewer, words)
        looked_for += bool(secrets)
        for lang in LANGS:
            reading = await read_everything(b, game_id, lang)
            found = findings(reading, secrets) + picture_findings(reading, name, state, viewer)
            assert not found, f"{key}: viewer {viewer} ({lang}) reads {found[:6]}"
    assert looked_for == len(people), f"{key}: some viewer had no secret to look for (pick another position)"


@pytest.mark.parametrize("key", list(POSITIONS))
async def test_what_a_viewer_reads_is_the_same_whatever_the_others_hide(host, settings, browsers, server,
                                                                      monkeypatch, key):
    from games.rng import Rng

    name, game_id, _ = await position(host, key)
    game = get_game(name)
    row = await host.store.load(game_id)
    people = await viewers(host, settings, browsers, game_id)
    load = host.store.load
    for n, (viewer, b) in enumerate(people):
        scrambled = game.scramble_hidden(row.state, viewer, Rng(77 + n))
        changed = [(s, o) for s, o in people if s not in (None, viewer) and game.view(scrambled, s) != game.view(row.state, s)]
        assert changed, "nothing was re-dealt"
        control_seat, control = changed[0]
        before = await read_everything(b, game_id, "en")
        control_before = await (await control.get(f"/api/game/{game_id}/panel.png")).read()

        async def scrambled_load(gid, *, _load=load, _state=scrambled):
            found = await _load(gid)
            return dataclasses.replace(found, state=_state) if gid == game_id else found

        monkeypatch.setattr(host.store, "load", scrambled_load)
        server.app[TABLE].images.items.clear()
        after = await read_everything(b, game_id, "en")
        # The re-deal reached the server: the seat whose secrets changed sees its new panel.
        control_after = await (await control.get(f"/api/game/{game_id}/panel.png")).read()
        assert control_after != control_before, f"seat {control_seat}'s panel did not change with its secrets"
        monkeypatch.setattr(host.store, "load", load)
        server.app[TABLE].images.items.clear()
        assert not differences(before, after), f"{key}: viewer {viewer} reads {differences(before, after)[:6]}"


# ---- the checks bite -------------------------------------------------------------------------------------
def serve_as(monkeypatch, host, game_id: int, asker: int, as_user: int, methods=("table", "table_board", "table_panel")):
    """A broken table service: ``asker`` is answered as if they were ``as_user``."""
    for method in methods:
        real = getattr(host, method)

        async def broken(gid, user_id, *a, _real=real, **kw):
            return await _real(gid, as_user if (gid, user_id) == (game_id, asker) else user_id, *a, **kw)

        monkeypatch.setattr(host, method, broken)


@pytest.mark.parametrize("key", ["arena, turn 2, B's order in", "monsterhunter, mid-hunt, 3 players"])
async def test_a_spectator_served_a_seats_table_is_caught(host, settings, browsers, server, monkeypatch, key):
    name, game_id, words = await position(host, key)
    row = await host.store.load(game_id)
    people = await viewers(host, settings, browsers, game_id)
    spectator = people[0][1]
    public = await read_everything(spectator, game_id, "en")
    secrets = await secrets_for(host, name, game_id, None, words)
    seat = row.state["orders"].index(None) ^ 1 if name == "arena" else 0  # arena: the seat whose order is in
    serve_as(monkeypatch, host, game_id, CAROL, row.user_of(seat))
    server.app[TABLE].images.items.clear()
    for lang in LANGS:
        leaked = await read_everything(spectator, game_id, lang)
        said = findings(leaked, secrets)
        assert any(f.startswith(("state", "page")) for f in said), said
        pictures = picture_findings(leaked, name, row.state, None)
        assert any(p.startswith("panel: served to a spectator") for p in pictures), pictures
        assert any(p.startswith("board:") for p in pictures) or name == "arena", pictures  # Arena's board shows no dice
        if lang == "en":
            assert differences(public, leaked)


@pytest.mark.parametrize("key", ["arena, turn 1, A's order in", "monsterhunter, mid-hunt, 3 players"])
async def test_a_seat_served_another_seats_panel_is_caught(host, settings, browsers, server, monkeypatch, key):
    name, game_id, words = await position(host, key)
    row = await host.store.load(game_id)
    people = await viewers(host, settings, browsers, game_id)
    viewer, b = people[2]  # seat 1: in "A's order in", the one still to give an order
    honest = await read_everything(b, game_id, "en")
    secrets = await secrets_for(host, name, game_id, viewer, words)
    serve_as(monkeypatch, host, game_id, row.user_of(viewer), row.user_of(0), methods=("table_panel",))
    server.app[TABLE].images.items.clear()
    leaked = await read_everything(b, game_id, "en")
    assert any(f.startswith("state") for f in findings(leaked, secrets)), findings(leaked, secrets)
    assert "panel: not the drawing of seat 1's own view" in picture_findings(leaked, name, row.state, viewer)
    assert any(d.startswith("panel picture") for d in differences(honest, leaked))


async def test_an_engine_view_that_shows_a_spectator_a_seats_cards_is_caught(host, settings, browsers, server,
                                                                            monkeypatch):
    """The full secrets of a seat in the public view (a broken ``Game.view``), below the service."""
    name, game_id, _ = await position(host, "monsterhunter, mid-hunt, 3 players")
    game = get_game(name)
    row = await host.store.load(game_id)
    spectator = (await viewers(host, settings, browsers, game_id))[0][1]
    honest = await read_everything(spectator, game_id, "en")
    real = type(game).view
    monkeypatch.setattr(type(game), "view", lambda self, state, seat: real(self, state, 0 if seat is None else seat))
    server.app[TABLE].images.items.clear()
    leaked = await read_everything(spectator, game_id, "en")
    monkeypatch.undo()
    assert "board: not the drawing of viewer None's view" in picture_findings(leaked, name, row.state, None)
    assert "board picture: differs" in differences(honest, leaked)
