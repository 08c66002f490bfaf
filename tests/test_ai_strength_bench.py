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


# ---- the baselines of issue 44 -------------------------------------------------------------------
def test_the_baseline_pairings_exist_on_seeds_of_their_own():
    assert {"normal-greedy", "hard-greedy", "normal-pilot", "hard-pilot"} <= set(ai_strength.BASELINE_PAIRINGS)
    levels = ai_strength.first_seed("hard-normal")
    baselines = ai_strength.first_seed("normal-greedy")
    assert ai_strength.first_seed("hard-pilot") == baselines
    # the level rows play 200 games or more from their first seed: no seed is shared below 10,000 games
    assert baselines - levels >= 10_000 or levels - baselines >= 10_000
    assert ai_strength.first_seed("normal-greedy", seed=7) == 7


def test_greedy_plays_the_action_the_evaluation_scores_best():
    from games import get_game
    from games.ai import baseline_action, game_ai
    from games.rng import Rng
    game = get_game("osu")
    ai = game_ai(game)
    state = game.setup(2, game.resolve_options({}, 2), 3)
    for step in range(6):
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, game.legal_actions(state, seat)[step % 3])
    seat = min(game.to_act(state))
    chosen = baseline_action(game, state, seat, Rng(1), "greedy")
    seen = ai.determinize(game, state, seat, Rng(1))
    scores = {a: ai.score(game, ai.simulate(game, seen, seat, a))[seat] for a in game.legal_actions(state, seat)}
    assert len(set(scores.values())) > 1   # a position where the choice matters
    assert scores[chosen] == max(scores.values())


def test_pilot_is_the_games_own_autopilot_and_greedy_elsewhere():
    from games import get_game
    from games.ai import baseline_action
    from games.rng import Rng
    mh = get_game("monsterhunter")
    state = mh.setup(2, mh.resolve_options({}, 2), 5)
    seat = min(mh.to_act(state))
    assert baseline_action(mh, state, seat, Rng(1), "pilot") == mh.suggest(state, seat)
    osu = get_game("osu")
    state = osu.setup(2, osu.resolve_options({}, 2), 5)
    assert baseline_action(osu, state, 0, Rng(1), "pilot") == baseline_action(osu, state, 0, Rng(1), "greedy")
    with pytest.raises(ValueError):
        baseline_action(osu, state, 0, Rng(1), "genius")


def test_a_baseline_game_is_the_same_game_given_its_seed():
    from games import get_game
    game = get_game("hostile")
    runs = []
    for _ in range(2):
        times: dict = {}
        score = ai_strength.play(game, 2, {}, {0}, ("greedy", "random"), 50_003, {}, times)
        runs.append((score, len(times["greedy"]), len(times["random"])))
    assert runs[0] == runs[1]


def test_the_benchmark_plays_baseline_rows(tmp_path):
    import subprocess
    import sys
    out = tmp_path / "rows.jsonl"
    subprocess.run([sys.executable, str(_PATH), "--only", "mh:2", "--pairings", "normal-pilot",
                    "--games", "2", "--jsonl", str(out)], check=True, capture_output=True, timeout=600)
    row = json.loads(out.read_text(encoding="utf-8"))
    assert (row["case"], row["pairing"], row["games"]) == ("mh:2", "normal-pilot", 2)
    assert len(row["a_cpu_ms"]) == 2 and 0 <= row["ci"][0] <= row["score"] <= row["ci"][1] <= 1
