"""Seeded random playouts the tests share."""

from __future__ import annotations

from games.ai import choose_action
from games.rng import Rng


def random_steps(game, players, seed, steps=400):
    """Each step of one random playout, as (state, seat, action, new state, events); the lowest
    seat to act acts."""
    rng, state = Rng(seed), game.setup(players, game.resolve_options({}, players), seed)
    for _ in range(steps):
        if game.outcome(state) is not None:
            return
        seat = min(game.to_act(state))
        action = choose_action(game, state, seat, rng)
        new, events = game.apply(state, seat, action)
        yield state, seat, action, new, events
        state = new


def random_states(game, counts, seeds, steps=400):
    """States of random playouts (each players count and seed), the starting positions and the ends
    reached included."""
    for players in counts:
        for seed in seeds:
            new = None
            for state, _, _, new, _ in random_steps(game, players, seed, steps):
                yield state
            if new is not None and game.outcome(new) is not None:
                yield new
