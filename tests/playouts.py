"""Seeded random playouts the tests share."""

from __future__ import annotations

from games.ai import choose_action
from games.rng import Rng


def random_states(game, counts, seeds, steps=400):
    """States of random playouts (each players count and seed), the starting positions included."""
    for players in counts:
        for seed in seeds:
            rng, state = Rng(seed), game.setup(players, game.resolve_options({}, players), seed)
            for _ in range(steps):
                yield state
                if game.outcome(state) is not None:
                    break
                seat = min(game.to_act(state))
                state, _ = game.apply(state, seat, choose_action(game, state, seat, rng))
