"""The local driver: the real service in a terminal, writing every board image to a folder."""

from __future__ import annotations


import pytest
from PIL import Image

from bot import local
from bot.service import GameHost
from bot.store import Store
from games import all_games


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_ai_against_ai_plays_every_game_to_the_end(tmp_path, game):
    out = tmp_path / "boards"
    assert local.main([game, "--auto", "--out", str(out), "--db", str(tmp_path / "g.sqlite3")]) == 0
    boards = sorted(out.glob("*.png"))
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
