"""The engine contract, checked for every registered game by random legal playouts."""

from __future__ import annotations

import json

import pytest

from games import all_games, events_for
from games.ai import choose_action
from games.errors import GameError, NotYourTurn
from games.rng import Rng
from tests.fake_games import SecretPick

SEEDS = range(12)
MAX_STEPS = 3000
MALFORMED = ["", "???", "zz9-zz9", "x" * 200, "pass pass", "\u3042"]


def contract_games():
    return all_games() + [SecretPick()]


def playout(game, seed):
    """Yield (state, seat, action, new_state, events) for a random game from this seed."""
    rng = Rng(seed * 7919 + 1)
    counts = game.player_counts()
    state = game.setup(counts[seed % len(counts)], {}, seed)
    for _ in range(MAX_STEPS):
        if game.outcome(state) is not None:
            return
        seats = sorted(game.to_act(state))
        assert seats, "a running game must have someone to act"
        seat = seats[rng.below(len(seats))]
        action = choose_action(game, state, seat, rng)
        new, events = game.apply(state, seat, action)
        yield state, seat, action, new, events
        state = new
    pytest.fail(f"{game.name} seed {seed} did not end within {MAX_STEPS} steps")


@pytest.mark.parametrize("game", contract_games(), ids=lambda g: g.name)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_keeps_the_contract(game, seed):
    rng = Rng(seed)
    log = []
    players = None
    final = None
    for state, seat, action, new, events in playout(game, seed):
        players = state["players"]
        snapshot = json.dumps(state, sort_keys=True)
        # JSON round trip is lossless.
        assert json.loads(json.dumps(new)) == new
        # apply never mutates its input.
        assert json.dumps(state, sort_keys=True) == snapshot
        # The action is one legal_actions offered, in canonical notation.
        assert action in game.legal_actions(state, seat)
        assert game.canonical(action) == action
        # Views hide what each viewer may not know.
        for viewer in [None] + list(range(players)):
            assert_view_hides_secrets(game, new, viewer, rng)
            json.dumps(game.view(new, viewer))
        # Private events never reach the public list.
        assert all("to" not in e for e in events_for(events, None))
        assert_illegal_refused(game, new, rng)
        log.append((seat, action))
        final = new
    assert final is not None and game.outcome(final) is not None
    # Replay from seed + log reproduces the final state exactly.
    replay = game.setup(players, {}, seed)
    for seat, action in log:
        replay, _ = game.apply(replay, seat, action)
    assert replay == final


def assert_view_hides_secrets(game, state, viewer, rng):
    view = game.view(state, viewer)
    scrambled = game.scramble_hidden(state, viewer, rng)
    assert game.view(scrambled, viewer) == view, f"{game.name}: view for {viewer} depends on hidden data"


def assert_illegal_refused(game, state, rng):
    """Malformed text, out-of-turn seats and actions not offered are refused without change."""
    before = json.dumps(state, sort_keys=True)
    players = state["players"]
    to_act = game.to_act(state)
    for text in MALFORMED:
        for seat in range(players):
            with pytest.raises(GameError):
                game.apply(state, seat, text)
    for seat in range(players):
        if seat not in to_act:
            with pytest.raises((NotYourTurn, GameError)):
                game.apply(state, seat, "pass")
        else:
            legal = set(game.legal_actions(state, seat))
            other = [a for s in range(players) for a in game.legal_actions(state, s) if a not in legal]
            for action in other[:3]:
                with pytest.raises(GameError):
                    game.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before


def test_scramble_is_not_vacuous_for_hidden_games():
    """The leak check only proves something if scrambling really changes hidden data."""
    game = SecretPick()
    state = game.setup(2, {}, 1)
    state, _ = game.apply(state, 0, "pick3")
    changed = {game.scramble_hidden(state, 1, Rng(i))["picks"][0] for i in range(20)}
    assert len(changed) > 1

    class Leaky(SecretPick):
        def view(self, state, seat):
            return dict(super().view(state, seat), picks=state["picks"])

    with pytest.raises(AssertionError):
        for i in range(20):
            assert_view_hides_secrets(Leaky(), state, 1, Rng(i))


@pytest.mark.parametrize("game", contract_games(), ids=lambda g: g.name)
def test_unknown_options_are_refused(game):
    with pytest.raises(GameError) as err:
        game.setup(game.min_players, {"no_such_option": "1"}, 1)
    assert err.value.key == "option_unknown"


@pytest.mark.parametrize("game", contract_games(), ids=lambda g: g.name)
def test_private_event_marker_is_only_ever_a_seat_list(game):
    """``to`` marks a private event; a public event using it as a parameter would vanish."""
    for seed in range(4):
        for _, _, _, _, events in playout(game, seed):
            for event in events:
                if "to" in event:
                    assert isinstance(event["to"], list) and all(isinstance(s, int) for s in event["to"])
