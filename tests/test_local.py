"""The local driver: the real service in a terminal, writing every board image to a folder."""

from __future__ import annotations

import pytest
from PIL import Image

from bot.terminal import driver as local
from bot.service import GameHost
from bot.storage.sqlite import Store
from games import all_games, get_game


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_ai_against_ai_plays_every_game_to_the_end(tmp_path, game):
    out = tmp_path / "boards"
    assert local.main([game, "--auto", "--out", str(out), "--db", str(tmp_path / "g.sqlite3")]) == 0
    boards = sorted(out.glob("*/*.png"))  # in the run's own folder
    assert boards and Image.open(boards[-1]).format == "PNG"


async def test_hot_seat_reads_actions_and_answers_refusals(tmp_path):
    store = await Store.open(str(tmp_path / "h.sqlite3"))
    said: list[str] = []
    try:
        table = local.LocalTable(GameHost(store), "en", tmp_path / "out", echo=said.append)
        game_id = await table.setup("squares", humans=2, ais=0, options=None)
        script = iter(["?", "? T2", "T2@b3", "T2@b2", "h", "q"])  # hot seat: seat 1 (row 1 side) moves first
        await table.play(game_id, read=lambda prompt: next(script))
        text = "\n".join(said)
        assert "T2 … (" in text and "T2@a1" in text  # "?" listed the steps as the menus do, "? T2" its actions
        assert "<t:" not in text and "**" not in text  # Discord markup made readable
        assert "only be placed in your home" in text  # a refusal, in words
        assert "1. " in text and "`T2@" in text  # the history
        assert len(await store.actions(game_id)) == 1
        assert len(list((tmp_path / "out").glob("*.png"))) == 2
    finally:
        await store.close()


async def test_monster_hunter_is_played_by_typed_actions_with_open_eyes(tmp_path):
    """Issue #31: after the loadout the seat's panel was never printed again, `equip`/`discard`
    printed nothing, `? take H02` printed an empty line, so the only way through was `go`. Here a
    person types real choices (never `go`), opening each choice's menu with `? STEP` first."""
    from games import get_game

    store = await Store.open(str(tmp_path / "mh.sqlite3"))
    said: list[str] = []
    try:
        table = local.LocalTable(GameHost(store, seed_source=lambda: 7), "en", tmp_path / "out", echo=said.append)
        game_id = await table.setup("mh", humans=1, ais=1, options=None, level="easy")
        game = get_game("monsterhunter")
        typed: list[tuple[str, int]] = []  # each line typed, and where the output stood then
        queue: list[str] = []

        async def decide() -> None:
            """What the person types next: `? <first step>` of a choice, then the choice itself."""
            row = await store.load(game_id)
            seat = row.seat_of(local.FIRST_HUMAN_ID)
            legal = [a for a in game.legal_actions(row.state, seat) if a != "go" and not a.startswith("auto")]
            if len(typed) >= 80 or not legal:
                queue.append("q")
                return
            choice = legal[len(typed) % len(legal)]
            queue.extend([f"? {game.action_path(choice)[0]}", choice])

        def read(prompt: str) -> str:
            line = queue.pop(0)
            typed.append((line, len(said)))
            return line

        asked = table.ask

        async def ask_then_decide(gid, game_, user):  # the person reads the panel, then decides
            await asked(gid, game_, user)
            if not queue:
                await decide()
        table.ask = ask_then_decide
        await table.play(game_id, read=read)

        actions = [line for line, _ in typed if not line.startswith("?") and line != "q"]
        assert len(actions) >= 20, typed
        text = "\n".join(said)
        assert text.count("Your private panel") >= len(actions) // 3
        for (line, start), (_, end) in zip(typed, typed[1:]):
            printed = [p for p in said[start:end] if p.strip()]
            assert printed, f"`{line}` printed nothing"
            if line.startswith("? "):
                assert not any("No choice" in p for p in printed), (line, printed)
        mine = (await store.load(game_id)).seat_of(local.FIRST_HUMAN_ID)
        logged = [a.action for a in await store.actions(game_id) if a.seat == mine]
        assert "go" not in logged and len(logged) >= 20
    finally:
        await store.close()


def test_the_help_names_the_aliases_and_the_ai_level(capsys):
    with pytest.raises(SystemExit):
        local.main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "mh = monsterhunter" in out and "--level {easy,normal,hard}" in out


async def test_the_choices_listing_names_cards_and_places(tmp_path):
    """Monster Hunter's "?" says each step in words beside the notation to type (issue #31)."""
    store = await Store.open(str(tmp_path / "mh.sqlite3"))
    said: list[str] = []
    try:
        table = local.LocalTable(GameHost(store), "en", tmp_path / "out", echo=said.append)
        game_id = await table.setup("monsterhunter", humans=2, ais=0, options=None)
        script = iter(["?", "? take", "? take H02", "q"])
        await table.play(game_id, read=lambda prompt: next(script))
        lines = [line.strip() for line in "\n".join(said).splitlines()]
        assert "go  — 🤖 Suggested answer" in lines and "take … (12)  — Hunter and sheet…" in lines
        # Issue #43: a hunter and a sheet are chosen by their numbers, so `? take` says them.
        assert ("H02 … (3)  — Brann Stonearm (H02): attack 2, movement 2, reach 1, "
                "item icons: barrel bomb, meat, monster material") in lines
        assert ("take H02 2A  — Riverside Grounds (2A) for Brann Stonearm (H02): 5 roads, "
                "farthest area 3 roads from the camp") in lines
        assert "take H02 2C  — Marsh Grounds (2C) for Brann Stonearm (H02): 4 roads, farthest area 4 roads from the camp" in lines
    finally:
        await store.close()


@pytest.mark.parametrize("lang, discarded", [("en", "your hand is full: it is discarded"),
                                             ("ja", "手札が上限のため捨て札になります")])
def test_the_choices_listing_says_a_tile_taken_into_a_full_hand_is_discarded(tmp_path, lang, discarded):
    """HOSTILE (issue #31, part 6): `?` offered `take slide` with a full hand as an ordinary move,
    and the tile was thrown away. The line says so now, as the buttons do; `? steal` too."""
    from games import get_game
    from tests.test_hostile import FULL_HAND, hand_of

    game, said = get_game("hostile"), []
    table = local.LocalTable(None, lang, tmp_path / "out", echo=said.append)
    for hand, typed in ((FULL_HAND, ""), (FULL_HAND, "steal"), (FULL_HAND[:3], "")):
        state = hand_of(hand)
        said.clear()
        table.list_choices(game, game.legal_actions(state, 0), typed, game.view(state, 0))
        lines = {line.split("  — ")[0].strip(): line for line in said}
        gaining = [lines[a] for a in ("take slide", "take E5", "steal D5") if a in lines]
        assert gaining and all((discarded in line) == (hand == FULL_HAND) for line in gaining), said
        assert not any(discarded in line for to_type, line in lines.items() if to_type.startswith(("move", "end")))


# ---- issue #43: the terminal driver, as a newcomer found it ---------------------------------------------
def test_each_run_keeps_its_boards_in_a_folder_of_its_own(tmp_path, capsys):
    """Every run's game is #1 in its own database: runs wrote the same ``game1-vNNNN.png`` names
    into one folder, so the second overwrote the first. Each run has its folder, named at the start."""
    out = tmp_path / "boards"
    firsts = []
    for n in range(2):
        assert local.main(["squares", "--auto", "--out", str(out), "--db", str(tmp_path / f"r{n}.sqlite3")]) == 0
        firsts.append(capsys.readouterr().out.splitlines()[0])
    folders = sorted(p for p in out.iterdir() if p.is_dir())
    assert len(folders) == 2 and not list(out.glob("*.png"))
    for folder in folders:
        assert list(folder.glob("game1-v*.png"))
        assert any(str(folder) in line for line in firsts)  # printed when the run starts


def test_a_run_folder_is_never_reused(tmp_path):
    first = local.run_folder(tmp_path, "osu", now=0)
    second = local.run_folder(tmp_path, "osu", now=0)  # the same second
    assert first != second and first.is_dir() and second.is_dir() and "osu" in second.name


async def human_against_ai(tmp_path, game: str, lang: str = "en", seed: int = 7, **table):
    tmp_path.mkdir(parents=True, exist_ok=True)
    store = await Store.open(str(tmp_path / f"{game}.sqlite3"))
    said: list[str] = []
    host = GameHost(store, seed_source=lambda: seed, ai_level="easy")
    t = local.LocalTable(host, lang, tmp_path / "out", echo=said.append, **table)
    game_id = await t.setup(game, humans=1, ais=1, options=None, level="easy")
    return store, t, game_id, said


async def test_arena_prints_the_private_panel_once_a_turn(tmp_path):
    """Arena Duel printed the panel as the DM, then again before the prompt (what was said last
    was the reply "✅ played", so the panel counted as not shown)."""
    store, table, game_id, said = await human_against_ai(tmp_path, "arena")
    try:
        script = iter(["S/0", "S/0", "S/0", "q"])
        prompts = []

        def read(prompt):
            prompts.append(len(said))
            return next(script)
        await table.play(game_id, read=read)
        for start, end in zip(prompts, prompts[1:]):  # between two prompts: one turn
            assert sum("Your private panel" in line for line in said[start:end]) == 1, said[start:end]
    finally:
        await store.close()


async def test_a_panels_picture_is_written_beside_the_boards(tmp_path):
    store, table, game_id, said = await human_against_ai(tmp_path, "monsterhunter")
    try:
        script = iter(["take H01 2A", "q"])
        await table.play(game_id, read=lambda prompt: next(script))
        panels = sorted((tmp_path / "out").glob("game1-P1-panel-*.png"))
        assert len(panels) >= 2 and all(Image.open(p).format == "PNG" for p in panels)
        assert any(f"[your panel: {panels[0]}]" in line for line in said)
    finally:
        await store.close()


@pytest.mark.parametrize("lang, board, unfinished", [("en", "[board: ", "is left unfinished"),
                                                      ("ja", "［盤面：", "終わらないまま中断しました")])
async def test_quitting_says_the_game_is_left_unfinished_and_how_to_resume(tmp_path, lang, board, unfinished):
    store, table, game_id, said = await human_against_ai(tmp_path, "squares", lang, db="games.sqlite3")
    try:
        await table.play(game_id, read=lambda prompt: "q")
        text = "\n".join(said)
        assert unfinished in text and "--db games.sqlite3 --resume 1" in text
        assert board in text and (lang == "en" or "[board:" not in text)  # the board line in the reader's language
        assert (await store.load(game_id)).status == "active"
    finally:
        await store.close()


async def test_a_quit_game_is_resumed_from_its_database(tmp_path, capsys):
    db, out = str(tmp_path / "kept.sqlite3"), str(tmp_path / "boards")
    lines = iter(["q"])
    args = local.argparse.Namespace(game="osu", ai=1, auto=False, level="easy", options=None, lang="en", out=out,
                                    db=db, resume=None)
    assert await local.run(args, read=lambda prompt: next(lines)) == 0
    assert f"--db {db} --resume 1" in capsys.readouterr().out
    args.resume, args.game = 1, None
    lines = iter(["resign"])
    assert await local.run(args, read=lambda prompt: next(lines)) == 0
    said = capsys.readouterr().out
    assert "#1 OSU" in said and "You resigned game #1." in said


async def test_resign_ends_the_game_in_every_game(tmp_path):
    for game in [g.name for g in all_games()]:
        store, table, game_id, said = await human_against_ai(tmp_path / game, game)
        try:
            await table.play(game_id, read=lambda prompt: "resign")
            row = await store.load(game_id)
            assert row.status == "finished" and "You resigned" in said[-1], (game, said[-3:])
            assert [a.action for a in await store.actions(game_id)][-1] == "resign"
        finally:
            await store.close()


@pytest.mark.parametrize("game", [g.name for g in all_games()])
async def test_the_ai_plays_a_handed_seat_to_the_end(tmp_path, game):
    """``ai``: the AI plays the person's seat for the rest of the game, which finishes; the seat
    stays theirs (the log names the AI's moves as a stand-in's)."""
    store, table, game_id, said = await human_against_ai(tmp_path, game)
    try:
        lines = iter(["ai"])
        await table.play(game_id, read=lambda prompt: next(lines))  # no second prompt: StopIteration otherwise
        row = await store.load(game_id)
        mine = row.seat_of(local.FIRST_HUMAN_ID)
        assert row.status == "finished" and row.user_of(mine) == local.FIRST_HUMAN_ID
        played = [a for a in await store.actions(game_id) if a.seat == mine]
        assert played and all(a.stand_in for a in played)
        text = "\n".join(said)
        assert "P1 hands their seat to the AI" in text and "The AI plays your seat in game #1 to the end." in text
    finally:
        await store.close()


async def test_only_a_seated_player_hands_their_seat_to_the_ai(tmp_path):
    from bot.service import ServiceError

    store, table, game_id, said = await human_against_ai(tmp_path, "squares")
    try:
        before = await store.load(game_id)
        with pytest.raises(ServiceError) as refused:
            await table.host.hand_to_ai(game_id, 4242)
        assert refused.value.key == "not_in_game"
        after = await store.load(game_id)
        assert after.version == before.version and not any(s.stand_in for s in after.seats)
    finally:
        await store.close()


@pytest.mark.parametrize("lang, game, typo, near, says", [
    ("en", "hostile", "skill quikc", "skill quick", "Did you mean `skill quick`?"),
    ("ja", "hostile", "skill quikc", "skill quick", "`skill quick`のことですか？"),
    ("en", "monsterhunter", "zake H01 2A", "take H01 2A", "Did you mean `take H01 2A`?"),
    ("en", "squares", "t2@a11", "T2@a1", "Did you mean `T2@a1`?")])
async def test_a_typo_is_answered_with_the_closest_legal_action(tmp_path, lang, game, typo, near, says):
    store, table, game_id, said = await human_against_ai(tmp_path, game, lang)
    try:
        row = await store.load(game_id)
        assert near in get_game(game).legal_actions(row.state, row.seat_of(local.FIRST_HUMAN_ID))
        script = iter([typo, "q"])
        start = len(said)
        await table.play(game_id, read=lambda prompt: next(script))
        refusal = "\n".join(said[start:])
        assert says in refusal and (await store.load(game_id)).version == row.version
    finally:
        await store.close()


def test_a_well_formed_but_illegal_action_gets_no_guess():
    """Its refusal says why it is not allowed; a guess would only get in the way."""
    game = get_game("squares")
    state = game.setup(2, game.resolve_options({}, 2), 1)
    assert local.closest(game, game.legal_actions(state, 0), "T2@b3") is None  # outside the home rows
    assert local.closest(game, game.legal_actions(state, 0), "xyzzy") is None  # a typo of nothing


async def test_the_driver_shows_no_ratings_but_discord_does(tmp_path):
    """The driver's database is thrown away: "P1: 0.0 → -1.8" meant nothing there."""
    store, table, game_id, said = await human_against_ai(tmp_path, "squares")
    try:
        await table.play(game_id, read=lambda prompt: "resign")
        assert (await store.load(game_id)).status == "finished"
        assert not any("→" in line or "Rating" in line for line in said), said[-6:]
    finally:
        await store.close()
    store = await Store.open(str(tmp_path / "discord.sqlite3"))
    try:
        host = GameHost(store, seed_source=lambda: 7)
        row, _ = await host.create("squares", None, guild_id=1, channel_id=1, user_id=1001, locale="en")
        await host.add_ai(row.id, 1001, "easy")
        await host.start(row.id, 1001)
        outbox = await host.resign(row.id, 1001)
        keys = [line.key for post in outbox.posts for line in post.lines if hasattr(line, "key")]
        assert "rating.header" in keys
    finally:
        await store.close()
