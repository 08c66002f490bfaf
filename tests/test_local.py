"""The local driver: the real service in a terminal, writing every board image to a folder."""

from __future__ import annotations

import asyncio


import pytest
from PIL import Image

from bot.terminal import driver as local
from bot.service import GameHost
from bot.storage.sqlite import Store
from games import all_games


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
