"""Issue #43's "done when": a whole game of each kind, played in the terminal as a newcomer plays it.

A person against one AI seat types ``?``, then a move with a typo (the driver answers with the
move meant), the move itself, a few more moves, and then either resigns (OSU) or hands the seat to
the AI (every other game), which plays it to the end. In English and in Japanese. Bounded by
moves, never by time: three typed moves, then the easy AI finishes the game.
"""

from __future__ import annotations

import pytest

from bot.i18n import T, render
from bot.service import GameHost
from bot.storage.sqlite import Store
from bot.terminal import driver as local
from games import all_games, get_game

TYPED_MOVES = 3
RESIGNS = "osu"  # the game the newcomer resigns; in the others they hand their seat to the AI

WORDS = {  # what the driver says, in each language
    "en": {"near": "Did you mean `{}`?", "board": "[board: ", "to_ai": "P1 hands their seat to the AI", "resigned": "You resigned game #1.", "prompt": "(seat "},
    "ja": {"near": "`{}`のことですか？", "board": "［盤面：", "to_ai": "P1は席をAIに任せました", "resigned": "ゲーム #1を投了しました。", "prompt": "番席）"},
}
ENGLISH_ONLY = ("Did you mean", "[board: ", "left unfinished", "your turn", "Your private panel")


def typo_of(game, legal: list[str], meant: str) -> str:
    """A slip of the fingers on ``meant``: two neighbouring characters swapped, or one left out,
    that is no action of the game and whose nearest legal action is ``meant``."""
    slips = [meant[:i] + meant[i + 1] + meant[i] + meant[i + 2:] for i in range(len(meant) - 1)]
    slips += [meant[:i] + meant[i + 1:] for i in range(len(meant))]
    for slip in slips:
        if slip.strip() and slip != meant and local.closest(game, legal, slip) == meant:
            return slip
    raise AssertionError(f"no typo of {meant!r} found")


def meant(game, legal: list[str]) -> str:
    """What a newcomer picks from the list: the first real choice (not ``go``, not a standing policy)."""
    return next(a for a in legal if a != "go" and not a.startswith("auto "))


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("name", [g.name for g in all_games()])
async def test_a_newcomer_plays_a_whole_game_in_the_terminal(tmp_path, name, lang):
    store = await Store.open(str(tmp_path / "local.sqlite3"))
    said: list[str] = []
    try:
        host = GameHost(store, seed_source=lambda: 11, ai_level="easy")  # the stand-in plays as easily as the seat
        out = local.run_folder(tmp_path / "boards", name)
        table = local.LocalTable(host, lang, out, echo=said.append)
        game_id = await table.setup(name, humans=1, ais=1, options=None, level="easy")
        game = get_game(name)
        typed: list[str] = []  # the lines the person typed
        prompts: list[str] = []
        queue: list[str] = ["?"]
        typo: list[tuple[str, str]] = []
        leave = "resign" if name == RESIGNS else "ai"

        asked = table.ask

        async def read_then_decide(gid, game_, user):  # the person reads what they are shown, then types
            await asked(gid, game_, user)
            if queue:
                return
            row = await store.load(gid)
            legal = game.legal_actions(row.state, row.seat_of(user))
            moves = [line for line in typed if line not in ("?",) and line != (typo[0][0] if typo else None)]
            if len(moves) >= TYPED_MOVES or len(typed) > 3 * TYPED_MOVES:
                queue.append(leave if leave not in typed else "q")
                return
            move = meant(game, legal)
            if not typo:
                typo.append((typo_of(game, legal, move), move))
                queue.append(typo[0][0])
            queue.append(move)
        table.ask = read_then_decide

        def read(prompt: str) -> str:
            prompts.append(prompt)
            typed.append(queue.pop(0))
            return typed[-1]

        await table.play(game_id, read=read)

        row = await store.load(game_id)
        mine = row.seat_of(local.FIRST_HUMAN_ID)
        text = "\n".join(said)
        words = WORDS[lang]
        assert row.status == "finished", (typed, said[-8:])  # the game was played to its end
        assert typed[-1] == leave and "q" not in typed
        assert words["near"].format(typo[0][1]) in text  # the typo, answered with the move meant
        logged = [a for a in await store.actions(game_id) if a.seat == mine]
        by_hand = [a.action for a in logged if not a.stand_in and a.action != "resign"]
        assert len(by_hand) == TYPED_MOVES, (typed, by_hand)
        if leave == "ai":
            assert words["to_ai"] in text and any(a.stand_in for a in logged)
        else:
            assert words["resigned"] in text and logged[-1].action == "resign"
        assert all(words["prompt"] in p for p in prompts)
        boards = sorted(out.glob("game1-v*.png"))
        assert boards and words["board"] + str(boards[-1]) + ("]" if lang == "en" else "］") in text
        if game.hidden_information:
            assert list(out.glob("game1-P1-panel-*.png"))
        assert render(lang, T("rating.header")) not in text  # no ratings from a throwaway database
        if lang == "ja":
            leaked = [w for w in ENGLISH_ONLY if w in text]
            assert not leaked, leaked
    finally:
        await store.close()
