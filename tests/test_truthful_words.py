"""Issue #43, "words that tell the truth, in the third person": what the channel reads says who did
what, of players in the third person, and leaves nothing unsaid or doubled."""

from __future__ import annotations

import re

from bot import i18n
from bot.i18n import T, render
from bot.service.words import termed
from games import get_game
from tests.test_contract import playout
from tests.test_hostile import turn_of

SECOND_PERSON = re.compile(r"\byou(r|rs|rself)?\b", re.I)


def public_line(game, event: dict) -> str:
    params = termed(game, {k: v for k, v in event.items() if k not in ("type", "to")}, seat_words=lambda s: f"P{s + 1}")
    params = {k: (f"P{v + 1}" if k in ("winner", "loser", "attacker", "defender", "pushed_seat") and isinstance(v, int)
                  else v) for k, v in params.items()}
    key = f"event.{game.name}.{event['type']}"
    return render("en", T(key if i18n.has(key) else f"event.{event['type']}", **params))


def test_arena_speaks_of_the_players_in_the_third_person():
    """`📜 P1 on c1 ↑: Forward, then keep your facing` spoke to everyone of P1's facing as "your"."""
    game = get_game("arena")
    lines = [public_line(game, e) for seed in range(4) for *_, events in playout(game, seed)
             for e in events if e.get("to") is None]
    assert any(line.startswith("📜") for line in lines)
    assert [line for line in lines if SECOND_PERSON.search(line)] == []
    # the history says an order in the choice's words: neither "you" nor "your" in any order
    for order in game.legal_actions(game.setup(2, {}, 1), 0):
        words = game.choice_words(game.action_path(order))
        if words:
            assert not SECOND_PERSON.search(render("en", T(f"choice.arena.{words['type']}", **termed(
                game, {k: v for k, v in words.items() if k != "type"})))), order


def test_hostile_says_who_reached_the_target():
    game = get_game("hostile")
    s = turn_of(pos={0: "B4"})
    s["score"] = [21, 3]
    events = []
    game._finish(s, events)
    end = next(e for e in events if e["type"] == "game_end_target")
    assert end["seats"] == [0]
    line = public_line(game, end)
    assert line.startswith("🏁 P1 reached 20 gems") and "Someone" not in line


def test_a_hostile_skill_draft_reads_as_a_draft():
    """The history said "King: become the next start player (`skill king`)" of a draft pick."""
    game = get_game("hostile")
    words = game.choice_words(("skill king",))
    params = termed(game, {k: v for k, v in words.items() if k != "type"})
    assert render("en", T("choice.hostile.skill", **params)).startswith("Draft King")
    assert "ドラフト" in render("ja", T("choice.hostile.skill", **params))


def test_the_king_held_from_the_first_cycle_keeps_its_slot_in_the_skill_row():
    """Second cycle of a 2-player round: the King's holder drafts again, the King card stays theirs."""
    from renderers.hostile import SKILLS, _skill_states

    view = {"skills": ["ghost", "quick"], "pool": [], "excluded": ["crash", "rotate"], "leftovers": [], "king": 0}
    states, owners = _skill_states(view)
    king = SKILLS.index("king")
    assert (states[king], owners[king]) == ("taken", 0)


def test_a_shared_win_is_one_line():
    from games.monsterhunter import model

    state = {"outcome": None, "phase": "result", "hunt": None, "keep": None}
    events = []
    model.finish(state, [1, 0], "hr", events)
    assert [e["type"] for e in events] == ["won"]
    game = get_game("monsterhunter")
    line = public_line(game, events[0])
    assert line == "🎉 P1, P2 share the win!" or line.startswith("🎉 P1") and "share the win" in line
    one = []
    model.finish(dict(state), [1], "hr", one)
    assert public_line(game, one[0]) == "🎉 P2 wins!"
    assert "同点勝利" in render("ja", T("event.monsterhunter.won", seats=["P1", "P2"], count=2))
