"""Discord's global rate limit, as a bot meets it: 50 requests a second for the whole bot, shared by
every game at once, with interaction answers exempt. A click on a game's button costs none of it: its
board comes as the click's follow-up, the last board loses its buttons through the interaction that
posted it, and the clicker's next panel in their DMs is the answer to their click there. Played in
two servers at once, through the real bot and the stand-in (which keeps the request log these
tests read, and enforces the limits).
"""

from __future__ import annotations

import re

from bot.discord_app.custom_ids import decode
from tests.e2e.test_bot_e2e import FIRST_SEAT, SECOND_SEAT, is_board, reply_text, running_bot, uid

GLOBAL_ROUTES = re.compile(r"^/(channels|users|guilds|applications)/")  # what the global limit counts


def counted(requests) -> list:
    """The requests Discord counts against the bot's global limit (all but interaction answers)."""
    return [r for r in requests if GLOBAL_ROUTES.match(r.path)]


async def open_game(fake, bot, guild: int, channel: int, players: list[str], game: str) -> tuple[int, int]:
    """The first player opens a lobby in ``channel``, the others join by button, the first starts.
    Returns the game's id and where it posts (its thread)."""
    mark = fake.mark()
    answer = await reply_text(await fake.send_slash(guild, channel, players[0], "game new", {"game": game}))
    game_id = int(re.search(r"#(\d+)", answer)[1])
    lobby = await fake.wait_for_message(channel, lambda m: not m.ephemeral and f"#{game_id}" in m.text()
                                        and m.custom_ids(), since=mark)
    for name in players[1:]:
        join = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":join"))
        await reply_text(await fake.click_button(fake.message(lobby.id), join, name))
    start = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":start"))
    await reply_text(await fake.click_button(fake.message(lobby.id), start, players[0]))
    home = bot.database.game_row(game_id)["thread_id"] or channel
    return game_id, home


async def newest_board(fake, home: int, game_id: int, since: int):
    def live(m):
        return is_board(m) and any(decode(c) and decode(c).game_id == game_id for c in m.custom_ids())
    return await fake.wait_for_message(home, live, since=since, timeout=15)


async def squaresiv_between_alice_and_carol(fake, bot):
    """A started SQUARESIV game in the first server: its id, where it posts, its first board, and
    who moves first and second."""
    mark = fake.mark()
    game_id, home = await open_game(fake, bot, fake.guild_id, fake.channel_id, ["alice", "carol"], "squares")
    board = await newest_board(fake, home, game_id, mark)
    first = waits_for(fake, board, ["alice", "carol"])
    return game_id, home, board, first, "carol" if first == "alice" else "alice"


def waits_for(fake, board, names: list[str]) -> str:
    waiting = int(re.search(r"<@(\d+)>", board.text().split("👉")[-1])[1])
    return next(n for n in names if uid(fake, n) == waiting)


async def click_move(fake, board, user: str, action: str):
    """Pick the piece in the board's menu, then press the move on the private picker: the handle of
    that last click."""
    select = next(c for c in board.custom_ids() if decode(c).kind == "g")
    picker = await fake.select(board, select, [action.split("@")[0] if "@" in action else action[:2]], user)
    panel = await picker.answer(lambda m: m.custom_ids(), timeout=10)
    return await fake.click_button(panel, next(c for c in panel.custom_ids() if decode(c).arg == action), user)


async def test_clicks_in_two_servers_cost_nothing_of_the_global_limit(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob", "carol", "dave")) as (fake, bot):
        other = fake.add_guild("Other server", locale="ja", members=["bob", "dave"])
        places = [(fake.guild_id, fake.channel_id, ["alice", "carol"]), (other["id_int"], other["channel_ids"][0], ["bob", "dave"])]
        games = []
        for guild, channel, names in places:
            mark = fake.mark()
            game_id, home = await open_game(fake, bot, guild, channel, names, "squares")
            games.append((game_id, home, names, await newest_board(fake, home, game_id, mark)))
        moves = {0: list(FIRST_SEAT[:3]), 1: list(SECOND_SEAT[:3])}
        for turn in range(4):
            for n, (game_id, home, names, board) in enumerate(games):
                player = waits_for(fake, board, names)
                seat = 0 if turn % 2 == 0 else 1
                first_request, mark = len(fake.requests), fake.mark()
                handle = await click_move(fake, board, player, moves[seat][turn // 2])
                assert "✅" in (await handle.answer(timeout=10)).content
                new = await newest_board(fake, home, game_id, mark)
                # The board is the click's public follow-up, posted before the clicker's answer.
                assert new in handle.followups and not new.ephemeral
                answer = next(m for m in handle.followups if m.ephemeral)
                assert handle.followups.index(new) < handle.followups.index(answer)
                # The last board lost its buttons and kept its picture: edited through the interaction
                # that posted it (the first board, posted by Start as it opened the thread, through
                # the channel).
                await fake.wait_until(lambda: not fake.message(board.id).custom_ids(), 10, "the last board retired")
                assert fake.message(board.id).attachments
                retired = [r for r in fake.requests[first_request:] if r.path.endswith(f"/messages/{board.id}")]
                assert [r.method for r in retired] == ["PATCH"]
                assert retired[0].path.startswith("/webhooks/" if turn else "/channels/"), retired
                status = bot.database.game_row(game_id)["status_message_id"]  # the thread's pinned status
                spent = [r for r in counted(fake.requests[first_request:]) if str(home) in r.path
                         and not r.path.endswith((f"/messages/{status}", f"/messages/{board.id}"))]
                assert not spent, spent  # nothing else of this click went through the bot's counted routes
                games[n] = (game_id, home, names, new)
        assert [len(bot.database.actions(g)) for g, *_ in games] == [4, 4]


async def test_a_typed_play_is_answered_first_and_the_next_action_waits_for_its_board(tmp_path):
    """/play's answer takes its "thinking…" placeholder's place at once, and its board follows as a
    public follow-up (none of the global limit). Discord is slow to take uploads here, and the
    other player types their move before that board is out: their action waits for it, so it
    retires that board, not the one before, and leaves no stale buttons live. The board before, a
    click's follow-up, loses its buttons through that click's interaction."""
    async with running_bot(tmp_path, users=("alice", "carol")) as (fake, bot):
        game_id, home, board, first, second = await squaresiv_between_alice_and_carol(fake, bot)
        mark = fake.mark()
        clicked = await click_move(fake, board, first, FIRST_SEAT[0])
        await clicked.answer(timeout=10)
        board = await newest_board(fake, home, game_id, mark)
        fake.slow("POST", rf"^/webhooks/{fake.application_id}/[^/]+$", 0.6)  # every follow-up: a slow upload
        first_request, mark = len(fake.requests), fake.mark()
        typed = await fake.send_slash(fake.guild_id, home, second, "play", {"action": SECOND_SEAT[0]})
        assert "✅" in await reply_text(typed)
        assert not [m for m in fake.messages(home, include_ephemeral=False) if m.id > mark], "answered first"
        quick = await fake.send_slash(fake.guild_id, home, first, "play", {"action": FIRST_SEAT[1]})
        new = await newest_board(fake, home, game_id, mark)
        assert new in typed.followups and not new.ephemeral and typed.followups.index(new) == 1
        assert "✅" in await reply_text(quick)
        newest = await newest_board(fake, home, game_id, new.id)
        assert newest in quick.followups
        await fake.wait_until(lambda: not fake.message(new.id).custom_ids(), 10, "the typed board retired")
        assert fake.message(new.id).attachments  # it kept its picture
        await fake.wait_until(lambda: not fake.message(board.id).custom_ids(), 10, "the clicked board retired")
        retired = [r for r in fake.requests[first_request:] if r.path.endswith(f"/messages/{board.id}")]
        assert retired and all(r.path.startswith(f"/webhooks/{fake.application_id}/{clicked.token}/") for r in retired)
        assert [a[2] for a in bot.database.actions(game_id)] == [FIRST_SEAT[0], SECOND_SEAT[0], FIRST_SEAT[1]]
        posted = [r for r in counted(fake.requests[first_request:]) if r.method == "POST" and "/messages" in r.path]
        assert not posted, posted


async def order_by_click(fake, panel, user: str, order: str):
    """An Arena order on a DM panel: its button, or its movement in the menu and then the facing on
    the private picker; the handle of the click that gave the order."""
    direct = [c for c in panel.custom_ids() if decode(c).kind == "a" and decode(c).arg == order]
    if not direct:
        menu = next(c for c in panel.custom_ids() if decode(c).kind == "g")
        picker = await fake.select(panel, menu, [order.split("/")[0]], user)
        panel = await picker.answer(lambda m: m.custom_ids(), timeout=10)
        direct = [c for c in panel.custom_ids() if decode(c).arg == order]
    return await fake.click_button(panel, direct[0], user)


async def test_a_secret_order_in_the_dms_brings_the_next_panel_as_its_answer(tmp_path):
    """Arena Duel: each player orders on their DM panel; the order that resolves the turn brings that
    player's next panel as the answer to their click, while the other player's is DMed (counted)."""
    from tests.e2e.test_games_e2e import order_through

    async with running_bot(tmp_path, users=("alice", "bob", "carol", "dave")) as (fake, bot):
        other = fake.add_guild("Other server", members=["bob", "dave"])
        mark = fake.mark()
        game_id, home = await open_game(fake, bot, other["id_int"], other["channel_ids"][0], ["bob", "dave"], "arena")
        panels = {name: await fake.wait_for_dm(name, lambda m: m.custom_ids() and m.attachments) for name in ("bob", "dave")}
        assert "✅" in await order_through(fake, panels["bob"], "bob", "F/0")
        first_request = len(fake.requests)
        resolving = await order_by_click(fake, panels["dave"], "dave", "F/0")
        assert "✅" in (await resolving.answer(timeout=10)).content
        await fake.wait_for_message(home, lambda m: is_board(m) and "F/0" in m.text(), since=mark, timeout=15)
        dave_next = await fake.wait_for_dm("dave", lambda m: m.custom_ids() and m.attachments and m.id != panels["dave"].id)
        bob_next = await fake.wait_for_dm("bob", lambda m: m.custom_ids() and m.attachments and m.id != panels["bob"].id)
        assert dave_next in resolving.followups and not dave_next.ephemeral
        assert bob_next not in resolving.followups
        dm_posts = {r.path for r in counted(fake.requests[first_request:]) if r.method == "POST" and r.path.endswith("/messages")}
        assert f"/channels/{bob_next.channel_id}/messages" in dm_posts
        assert f"/channels/{dave_next.channel_id}/messages" not in dm_posts


async def test_an_answer_that_cannot_go_first_leaves_the_board_to_the_usual_way(tmp_path, monkeypatch):
    """Discord refuses the answer a typed /play would give before its board: the board still goes
    out (through the channel, the placeholder still waiting), the answer follows it, the move is
    stored once and the game goes on."""
    monkeypatch.setenv("TABLETOP_FAIL_AT", "delivery.answer_first")
    async with running_bot(tmp_path, users=("alice", "carol")) as (fake, bot):
        game_id, home, board, first, second = await squaresiv_between_alice_and_carol(fake, bot)
        mark = fake.mark()
        typed = await fake.send_slash(fake.guild_id, home, first, "play", {"action": FIRST_SEAT[0]})
        assert "✅" in await reply_text(typed)
        new = await newest_board(fake, home, game_id, mark)
        assert new not in typed.followups  # posted in the channel
        await fake.wait_until(lambda: not fake.message(board.id).custom_ids(), 10, "the last board retired")
        assert "an answer before its board of game 0 failed" in bot.log.read_text()
        mark = fake.mark()
        assert "✅" in await reply_text(await fake.send_slash(fake.guild_id, home, second, "play", {"action": SECOND_SEAT[0]}))
        await newest_board(fake, home, game_id, mark)
        assert [a[2] for a in bot.database.actions(game_id)] == [FIRST_SEAT[0], SECOND_SEAT[0]]
