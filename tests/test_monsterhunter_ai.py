"""Monster Hunter's AI levels (``games/monsterhunter/ai.py``): the play-outs' fast autopilot view
answers exactly like ``go``, and ``hard`` keeps ``normal``'s choice unless its re-deals disagree."""

from __future__ import annotations

import pytest

from games import get_game
from games.ai import choose_action
from games.monsterhunter import ai as mh_ai
from games.rng import Rng

MH = get_game("monsterhunter")


def _positions(players, seed, limit=400):
    """Every waiting seat of a game played half by ``go``, half by random answers (so policies,
    odd hands and crowded areas occur too)."""
    rng = Rng(seed)
    state = MH.setup(players, MH.resolve_options({}, players), seed)
    for _ in range(limit):
        if MH.outcome(state) is not None:
            return
        for seat in sorted(MH.to_act(state)):
            yield state, seat
        seat = min(MH.to_act(state))
        action = rng.choice(MH.legal_actions(state, seat)) if rng.below(2) else "go"
        state = MH.apply(state, seat, action)[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_out_autopilot_answers_like_go(players):
    kinds = set()
    for seed in (1, 2):
        for state, seat in _positions(players, seed):
            assert mh_ai.pilot_answer(MH, state, seat) == MH._suggest(state, seat)
            kinds.add(MH._decision(state, seat)["kind"])
    # every decision kind of a running game was met (keep conflicts are rare, so not required)
    assert {"discard", "deploy", "move", "attack", "defend"} <= kinds


def _normal_and_hard(state, seat, monkeypatch, margin):
    monkeypatch.setattr(mh_ai.AI, "hard_margin", margin)
    normal = choose_action(MH, state, seat, Rng(3), level="normal")
    return normal, choose_action(MH, state, seat, Rng(3), level="hard", budget=2)


def test_hard_plays_normals_choice_unless_its_re_deals_clearly_disagree(monkeypatch):
    differ = 0
    for steps in (6, 14, 22, 30, 38, 46):
        state = MH.setup(2, MH.resolve_options({}, 2), 9)
        for _ in range(steps):
            state = MH.apply(state, min(MH.to_act(state)), "go")[0]
        if MH.outcome(state) is not None:
            continue
        seat = min(MH.to_act(state))
        normal, hard = _normal_and_hard(state, seat, monkeypatch, 2.0)  # no value beats it by 2
        assert hard == normal
        normal, hard = _normal_and_hard(state, seat, monkeypatch, -2.0)  # the best mean wins
        differ += hard != normal
    assert differ >= 1   # without the anchor the search does pick something else somewhere


def test_normal_and_hard_deploy_whenever_the_autopilot_does():
    """A face-down monster scores each result phase (R83); the play-outs undervalue that, so
    ``deploy -`` is never weighed against the autopilot's deploy."""
    assert mh_ai._keep_deploying(["deploy -", "deploy M01 a1"], "deploy M01 a1") == ["deploy M01 a1"]
    assert mh_ai._keep_deploying(["deploy -", "deploy M01 a1"], "deploy -") == ["deploy -", "deploy M01 a1"]
    seen = 0
    for state, seat in _positions(4, 5):
        if MH._decision(state, seat)["kind"] != "deploy" or mh_ai.pilot_answer(MH, state, seat) == "deploy -":
            continue
        seen += 1
        for level, budget in (("normal", None), ("hard", 2)):
            assert choose_action(MH, state, seat, Rng(seen), level=level, budget=budget) != "deploy -"
        if seen == 4:
            break
    assert seen == 4
