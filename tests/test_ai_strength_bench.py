"""The AI strength benchmark's bookkeeping: fair seats, and rows split into parts that add up."""

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "ai_strength.py"
_spec = importlib.util.spec_from_file_location("ai_strength", _PATH)
ai_strength = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ai_strength)


@pytest.mark.parametrize("key", list(ai_strength.CASES))
@pytest.mark.parametrize("seating", ["balanced", "one"])
def test_every_seat_is_held_by_each_level_equally_over_a_swap_round(key, seating):
    _, players, _ = ai_strength.CASES[key]
    rounds = ai_strength.seat_swap_round(key, players, seating)
    held = Counter()
    for game in range(rounds):
        a_seats = ai_strength.seats_of_a(key, players, game, seating)
        assert a_seats and a_seats < set(range(players))
        held.update(a_seats)
    share = rounds * ai_strength.chance_level(key, players, seating)
    assert all(held[seat] == share for seat in range(players)), held


def _row(first, games, score, case="hostile:3", pairing="hard-normal"):
    return json.dumps({"case": case, "pairing": pairing, "seating": "balanced", "first": first,
                       "games": games, "score": score, "seconds": 60.0, "a_cpu_ms": [100.0, 200.0 + first]})


def test_parts_of_a_row_add_up_to_one_row():
    lines = [_row(0, 50, 0.5), _row(50, 150, 0.7), _row(0, 200, 1.0, pairing="hard-random")]
    rows = {r["pairing"]: r for r in ai_strength.combined_rows(lines)}
    split = rows["hard-normal"]
    assert split["games"] == 200
    assert split["score"] == pytest.approx((25 + 105) / 200)
    assert split["spans"] == [(0, 50), (50, 200)]
    assert split["a_cpu_ms"] == [100.0, 250.0]   # the worst part's, never an average that hides it
    assert split["ci"] == list(ai_strength.wilson(130, 200))
    assert rows["hard-random"]["games"] == 200


def test_parts_that_play_the_same_games_twice_are_refused():
    with pytest.raises(ValueError, match="overlap"):
        ai_strength.combined_rows([_row(0, 100, 0.5), _row(50, 100, 0.5)])


def test_the_table_adds_up_parts_kept_in_separate_files(tmp_path, capsys):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(_row(0, 50, 1.0) + "\n", encoding="utf-8")
    second.write_text(_row(50, 150, 0.5) + "\n", encoding="utf-8")
    ai_strength.print_table([str(first), str(second)])
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[:4] == ["hostile:3", "hard-normal", "balanced", "200"]
    assert row[4] == "62.5%" and row[-4:] == ["[(0,", "50),", "(50,", "200)]"]
