"""Who may do what with a game, and where (issue #29): every operation of ``bot.service.access``'s
table, asked by every kind of person from every kind of place, on both storage backends.

The expectations below are written out again from the issue's words, not read from ``access``:
a game belongs to its server; a request is honoured only there (or, for its players and
followers, in a DM with the bot); Manage Server counts only in the game's own server; anything
else is answered exactly as a game that does not exist, and changes nothing stored.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from bot.service import GameHost, ServiceError, Where
from bot.service.access import RULES, START_OPENS_TO_ALL_AFTER
from games import get_game
from tests.test_service import dump, host  # noqa: F401  (the fixture)

ROOT = Path(__file__).resolve().parents[1]
HOME_GUILD, OTHER_GUILD = 1, 2
HOME_CHANNEL, OTHER_CHANNEL, STRANGER_CHANNEL = 5, 6, 7
CREATOR, PLAYER, FOLLOWER, MEMBER, ADMIN, STRANGER = 111, 222, 333, 444, 555, 666
WHO = {"creator": CREATOR, "player": PLAYER, "follower": FOLLOWER, "member": MEMBER, "admin": ADMIN,
       "stranger_admin": STRANGER}
# Where each person can type at all: members of the game's server there; the other server's owner
# and a player who is also a member of the other server there; everyone in a DM with the bot.
PLACES_OF = {"creator": ("home", "other_channel", "other_server", "dm"),
             "player": ("home", "other_channel", "other_server", "dm"),
             "follower": ("home", "other_channel", "dm"), "member": ("home", "other_channel", "dm"),
             "admin": ("home", "other_channel", "dm"), "stranger_admin": ("other_server", "dm")}
AUTH_REFUSALS = {"game_not_found", "not_in_game", "not_creator", "not_starter"}


def where(who: str, place: str) -> Where:
    return {"home": Where(HOME_GUILD, HOME_CHANNEL, who == "admin"),
            "other_channel": Where(HOME_GUILD, OTHER_CHANNEL, who == "admin"),
            "other_server": Where(OTHER_GUILD, STRANGER_CHANNEL, who == "stranger_admin"),
            "dm": Where(None, None, False)}[place]


def expected(op: str, who: str, place: str) -> str:
    """The issue's rules, restated: the refusal key, or "ok"."""
    in_home_server = place in ("home", "other_channel")
    seated = who in ("creator", "player")
    if not (in_home_server or (place == "dm" and who in ("creator", "player", "follower"))):
        return "game_not_found"
    manager = who == "creator" or (who == "admin" and in_home_server)
    if op in ("leave", "invite", "act", "drill", "panel", "legal_actions", "resign", "undo", "rematch",
              "pings", "draw", "deadline", "vote") and not seated:
        return "not_in_game"
    if op in ("add_ai", "remove_seat", "abandon") and not manager:
        return "not_creator"
    if op == "substitute" and not (seated or manager):
        return "not_in_game"
    if op == "start" and not manager:
        return "not_starter" if seated else "not_in_game"
    return "ok"


async def lobby(host, game="osu", users=(CREATOR, PLAYER)) -> int:
    row, _ = await host.create(game, None, guild_id=HOME_GUILD, channel_id=HOME_CHANNEL, user_id=users[0],
                               locale="en")
    for u in users[1:]:
        await host.join(row.id, u)
    await host.follow(row.id, FOLLOWER)
    return row.id


async def active(host) -> int:
    gid = await lobby(host, "squares")
    await host.start(gid, CREATOR)
    return gid


async def offered(host) -> int:
    """A running game with a draw offered by the player (the creator is asked)."""
    gid = await active(host)
    await host.propose_draw(gid, PLAYER)
    return gid


async def seat_offered(host) -> int:
    """A running game whose player offers their seat to a member of the server."""
    gid = await active(host)
    await host.offer_seat(gid, PLAYER, MEMBER)
    return gid


async def finished(host) -> int:
    gid = await active(host)
    await host.resign(gid, PLAYER)
    return gid


async def to_act_action(host, gid, user) -> str:
    row = await host.store.load(gid)
    game = get_game(row.game)
    seat = row.seat_of(user)
    if seat is None or seat not in game.to_act(row.state):
        seat = min(game.to_act(row.state))
    return game.legal_actions(row.state, seat)[0]


# op -> (how its game is set up, how it is asked for)
def calls():
    async def act(h, g, u, w):
        return await h.act(g, u, await to_act_action(h, g, u), where=w)

    async def answer(h, g, u, w):
        offer = (await h.store.open_proposals(g))[0]
        return await h.answer_proposal(g, u, offer.id, True, where=w)

    async def take(h, g, u, w):
        offer = (await h.store.open_proposals(g))[0]
        return await h.answer_seat(g, u, offer.id, True, where=w)

    async def drill(h, g, u, w):
        row = await h.store.load(g)
        return await h.drill(g, u, row.version, (), where=w)

    return {
        "status": (active, lambda h, g, u, w: h.status(g, u, where=w)),
        "history": (active, lambda h, g, u, w: h.history(g, asker=u, where=w)),
        "replay": (active, lambda h, g, u, w: h.replay(g, u, where=w)),
        "export": (active, lambda h, g, u, w: h.export(g, u, where=w)),
        "follow": (active, lambda h, g, u, w: h.follow(g, u, where=w)),
        "unfollow": (active, lambda h, g, u, w: h.unfollow(g, u, where=w)),
        "join": (lobby, lambda h, g, u, w: h.join(g, u, where=w)),
        "leave": (lobby, lambda h, g, u, w: h.leave(g, u, where=w)),
        "invite": (lobby, lambda h, g, u, w: h.invite(g, u, [MEMBER, STRANGER], where=w)),
        "act": (active, act),
        "drill": (active, drill),
        "panel": (active, lambda h, g, u, w: h.panel(g, u, where=w)),
        "legal_actions": (active, lambda h, g, u, w: h.legal_actions(g, u, where=w)),
        "resign": (active, lambda h, g, u, w: h.resign(g, u, where=w)),
        "undo": (active, lambda h, g, u, w: h.ask_undo(g, u, where=w)),
        "rematch": (finished, lambda h, g, u, w: h.rematch(g, u, where=w)),
        "pings": (active, lambda h, g, u, w: h.set_game_pings(g, u, "every", None, None, where=w)),
        "draw": (active, lambda h, g, u, w: h.propose_draw(g, u, where=w)),
        "deadline": (active, lambda h, g, u, w: h.propose_deadline(g, u, "extend", "12h", where=w)),
        "vote": (offered, answer),
        "substitute": (active, lambda h, g, u, w: h.offer_seat(g, u, 999, where=w)),
        "take_seat": (seat_offered, take),
        "add_ai": (lobby, lambda h, g, u, w: h.add_ai(g, u, where=w)),
        "remove_seat": (lobby, lambda h, g, u, w: h.remove_seat(g, u, 1, where=w)),
        "abandon": (active, lambda h, g, u, w: h.abandon(g, u, where=w)),
        "start": (lambda h: lobby(h, "squares"), lambda h, g, u, w: h.start(g, u, where=w)),
    }


CELLS = [(op, who, place) for op in calls() for who, places in PLACES_OF.items() for place in places]


async def outcome(host, op, who, place) -> str:
    setup, call = calls()[op]
    gid = await setup(host)
    before = dump(host)
    try:
        await call(host, gid, WHO[who], where(who, place))
    except ServiceError as e:
        if e.key not in AUTH_REFUSALS:
            return "ok"  # past the gate; refused for the game's own reasons (e.g. not your turn)
        assert dump(host) == before, f"{op} by {who} in {place} was refused but changed stored data"
        return e.key
    return "ok"


@pytest.mark.parametrize("op", list(calls()))
async def test_every_operation_from_every_place_by_everyone(host, op):
    wrong = []
    for _, who, place in [c for c in CELLS if c[0] == op]:
        got = await outcome(host, op, who, place)
        if got != expected(op, who, place):
            wrong.append(f"{who} in {place}: {got}, expected {expected(op, who, place)}")
    assert not wrong, f"/{op}:\n" + "\n".join(wrong)


async def test_an_unseen_game_reads_exactly_as_a_missing_one(host):
    gid = await active(host)
    missing = gid + 1000
    for op in ("status", "abandon", "start", "join", "follow"):
        call = calls()[op][1]
        with pytest.raises(ServiceError) as seen:
            await call(host, gid, STRANGER, where("stranger_admin", "other_server"))
        with pytest.raises(ServiceError) as nothing:
            await call(host, missing, STRANGER, where("stranger_admin", "other_server"))
        assert (seen.value.key, seen.value.params) == (nothing.value.key, {"id": gid}), op
        assert nothing.value.params == {"id": missing}


async def test_the_found_cases_of_the_issue(host_on_each_backend):
    """A second server's owner could abandon, start, read and follow the first server's games."""
    host = host_on_each_backend
    stranger = where("stranger_admin", "other_server")
    gid, lobby_id = await active(host), await lobby(host, "squares")
    for call in (host.abandon(gid, STRANGER, where=stranger), host.start(lobby_id, STRANGER, where=stranger),
                 host.status(gid, STRANGER, where=stranger), host.history(gid, asker=STRANGER, where=stranger),
                 host.follow(gid, STRANGER, where=stranger)):
        with pytest.raises(ServiceError) as err:
            await call
        assert err.value.key == "game_not_found"
    assert (await host.store.load(gid)).status == "active" and (await host.store.load(lobby_id)).status == "lobby"
    assert await host.store.followers(gid) == [FOLLOWER]


async def test_a_joiner_may_start_once_the_creator_left_or_a_day_passed(tmp_path):
    from bot.storage.sqlite import Store
    from tests.test_service import fake_render

    now = ["2026-11-21T00:00:00+00:00"]
    store = await Store.open(str(tmp_path / "start.sqlite3"))
    host = GameHost(store, clock=lambda: now[0], seed_source=lambda: 7, render=fake_render)
    try:
        gid = await lobby(host, "hostile", (CREATOR, PLAYER, MEMBER))
        with pytest.raises(ServiceError) as err:
            await host.start(gid, PLAYER, where=where("player", "home"))
        assert err.value.key == "not_starter" and err.value.params["hours"] == 24
        now[0] = "2026-11-22T00:00:00+00:00"
        assert START_OPENS_TO_ALL_AFTER.total_seconds() == 24 * 3600
        await host.start(gid, PLAYER, where=where("player", "home"))
        assert (await host.store.load(gid)).status == "active"

        gid = await lobby(host, "hostile", (CREATOR, PLAYER, MEMBER))
        await host.leave(gid, CREATOR)
        await host.start(gid, MEMBER, where=where("member", "home"))
        assert (await host.store.load(gid)).status == "active"
    finally:
        await store.close()


async def test_game_number_choices_come_only_from_here(host):
    here = await active(host)
    row, _ = await host.create("squares", None, guild_id=OTHER_GUILD, channel_id=STRANGER_CHANNEL, user_id=PLAYER,
                               locale="en")
    assert await host.game_choices(PLAYER, where("player", "home")) == [here]
    assert await host.game_choices(PLAYER, where("player", "other_server")) == [row.id]
    assert sorted(await host.game_choices(PLAYER, where("player", "dm"))) == sorted([here, row.id])
    replayable = await host.replay_choices(STRANGER, where("stranger_admin", "other_server"))
    assert here not in replayable


# ---- figures typed in a DM (issue #40) ------------------------------------------------------------
# Alice and Bob each play in their own DM with the bot (Bob also against Carol there), and both in
# the home server. Typed in a DM, /game stats and /game leaderboard showed every DM game's players.
ALICE, BOB, CAROL = 7001, 7002, 7003
ALICE_DM, BOB_DM = 8001, 8002


@pytest.fixture
async def timed_host(backend):
    """A host on each backend whose clock moves when told (times to act are read off the log)."""
    from tests.test_people import Clock
    from tests.test_service import fake_render

    store = await backend.open()
    seeds = iter(range(3000, 4000))
    clock = Clock()
    yield GameHost(store, clock=clock, seed_source=lambda: next(seeds), render=fake_render), clock
    await store.close()


async def played(host, clock, users, *, hours: int, guild_id=None, channel_id=None, ai=False) -> None:
    """A game of SQUARESIV (against the AI when ``ai``): each move ``hours`` after the one before,
    four moves, then the last player resigns."""
    row, _ = await host.create("squares", None, guild_id=guild_id, channel_id=channel_id, user_id=users[0],
                               locale="en")
    for user in users[1:]:
        await host.join(row.id, user)
    if ai:
        await host.add_ai(row.id, users[0])
    await host.start(row.id, users[0])
    for _ in range(4):
        clock.advance(hours=hours)
        row = await host.store.load(row.id)
        seat = min(get_game(row.game).to_act(row.state))
        await host.act(row.id, row.user_of(seat), await to_act_action(host, row.id, row.user_of(seat)))
    await host.resign(row.id, users[-1])


def said(lines, lang="en") -> str:
    from bot.i18n import render
    return "\n".join(render(lang, line) for line in lines)


async def dm_and_server_games(host, clock) -> None:
    await played(host, clock, (ALICE,), hours=1, channel_id=ALICE_DM, ai=True)
    await played(host, clock, (BOB,), hours=2, channel_id=BOB_DM, ai=True)
    await played(host, clock, (BOB, CAROL), hours=2, channel_id=BOB_DM)  # Carol resigns
    await played(host, clock, (ALICE, BOB), hours=3, guild_id=HOME_GUILD, channel_id=HOME_CHANNEL)  # Bob resigns


async def test_stats_and_leaderboard_typed_in_a_dm_show_the_askers_own_figures_only(timed_host):
    host, clock = timed_host
    await dm_and_server_games(host, clock)
    for me in (ALICE, BOB, CAROL):
        shown = said(await host.stats_lines(None, me)) + said(await host.leaderboard_lines(None, me))
        shown += said(await host.stats_lines(None, me, "squares")) + said(await host.leaderboard_lines(None, me, "squares"))
        strangers = [u for u in (ALICE, BOB, CAROL) if u != me and str(u) in shown]
        assert not strangers, f"{me} saw {strangers} in a DM:\n{shown}"
        assert "AI" not in shown  # no ranking of anyone, an AI neither: only the asker's own rating
    # Each sees their own DM games only (never the server's game), and their own time to act.
    alice = said(await host.stats_lines(None, ALICE))
    assert "SQUARESIV: 0 won / 1 played (0 drawn)" in alice and "you take 1 h 0 min to act on average" in alice
    bob = said(await host.stats_lines(None, BOB))
    assert "SQUARESIV: 1 won / 2 played (0 drawn)" in bob and "you take 2 h 0 min to act on average" in bob
    rated = said(await host.leaderboard_lines(None, BOB, "squares"))
    assert "per server" in rated and "SQUARESIV — " in rated and "(2 games)" in rated
    assert "あなたの成績" in said(await host.stats_lines(None, CAROL), "ja")
    assert "ランキングはサーバーごと" in said(await host.leaderboard_lines(None, CAROL), "ja")


async def test_a_dm_with_no_finished_game_says_so_and_names_nobody(timed_host):
    host, clock = timed_host
    await dm_and_server_games(host, clock)
    dave = 7004
    stats, rated = said(await host.stats_lines(None, dave)), said(await host.leaderboard_lines(None, dave))
    assert "You have not finished a game in a DM" in stats and "You have no rating from games in DMs" in rated
    assert not [u for u in (ALICE, BOB, CAROL) if str(u) in stats + rated]


async def test_a_servers_figures_are_its_games_whoever_asks(timed_host):
    host, clock = timed_host
    await dm_and_server_games(host, clock)
    stats = said(await host.stats_lines(HOME_GUILD, ALICE))
    assert f"<@{ALICE}>: 1 won / 1 played" in stats and f"<@{BOB}>: 0 won / 1 played" in stats
    assert f"<@{ALICE}>: 3 h 0 min / 3 h 0 min" in stats and str(CAROL) not in stats
    board = said(await host.leaderboard_lines(HOME_GUILD, ALICE))
    assert board.index(f"<@{ALICE}>") < board.index(f"<@{BOB}>") and str(CAROL) not in board
    assert said(await host.stats_lines(HOME_GUILD, CAROL)) == stats
    assert said(await host.leaderboard_lines(HOME_GUILD, CAROL)) == board


# ---- the rules are one table, used everywhere, and written down -----------------------------------
GAME_ENTRY_POINTS = {  # GameHost method -> the rule it asks
    "join": "join", "leave": "leave", "start": "start", "add_ai": "add_ai", "remove_seat": "remove_seat",
    "invite": "invite", "rematch": "rematch", "act": "act", "drill": "act", "form": "act", "submit_form": "act",
    "panel": "panel", "legal_actions": "panel", "deck_completions": "panel", "resign": "resign", "hand_to_ai": "resign",
    "abandon": "abandon", "status": "status", "table": "status", "table_board": "status", "table_panel": "panel", "history": "history", "replay": "replay", "export": "export",
    "follow": "follow", "unfollow": "unfollow", "ask_undo": "undo", "answer_undo": "undo",
    "tournament_join": "tournament_join", "tournament_leave": "tournament_leave", "tournament_start": "tournament_start",
    "tournament_standings": "tournament_standings", "tournament_drop": "tournament_drop",
    "tournament_abandon": "tournament_abandon", "league_play": "league_play",
    "set_game_pings": "pings", "propose_draw": "draw", "propose_deadline": "deadline", "answer_proposal": "vote",
    "offer_seat": "substitute", "answer_seat": "take_seat",
}


def test_every_entry_point_takes_a_place_and_every_rule_is_used():
    for name, op in GAME_ENTRY_POINTS.items():
        assert "where" in inspect.signature(getattr(GameHost, name)).parameters, name
        assert op in RULES
    assert set(GAME_ENTRY_POINTS.values()) == set(RULES)
    for name, member in inspect.getmembers(GameHost, inspect.iscoroutinefunction):
        params = list(inspect.signature(member).parameters)
        if not name.startswith("_") and params[1:3] in (["game_id", "user_id"], ["tournament_id", "user_id"]):
            assert name in GAME_ENTRY_POINTS, f"GameHost.{name} takes a user's game or tournament id but asks no rule"


def test_the_adapter_passes_where_to_every_entry_point():
    missing = []
    ways_in = [p for folder in ("discord_app", "web") for p in (ROOT / "bot" / folder).glob("*.py")]
    assert len(ways_in) > 5, "the Discord adapter and the web table were not found"
    for path in ways_in:
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in GAME_ENTRY_POINTS and "host" in ast.unparse(node.func.value)
                    and not any(k.arg == "where" for k in node.keywords)):
                missing.append(f"{path.name}:{node.lineno} {ast.unparse(node)[:80]}")
    assert not missing, missing


def test_the_docs_table_matches_the_code():
    text = (ROOT / "docs" / "authorization.md").read_text()
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+?) \|", text, re.M))
    assert set(rows) == set(RULES), set(rows) ^ set(RULES)
    for op, rule in RULES.items():
        assert rows[op].strip() == rule.who.value, op
