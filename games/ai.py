"""A stand-in player for any registered game: a uniformly random legal action.

>>> from games import get_game
>>> from games.rng import Rng
>>> g = get_game("squares")
>>> s = g.setup(2, {}, seed=7)
>>> choose_action(g, s, 0, Rng(1)) in g.legal_actions(s, 0)
True
"""

from __future__ import annotations

from .base import Game, State
from .rng import Rng


def choose_action(game: Game, state: State, seat: int, rng: Rng) -> str:
    actions = game.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    return rng.choice(actions)
