"""Arena Duel: registered as ``arena`` (aliases ``arenaduel``, ``arena_duel``).

``dice_for_turn(seed, turn, seat)`` recomputes any bot-rolled die of a game from its seed.
"""

from ..registry import register
from .engine import Arena, dice_for_turn

GAME = register(Arena(), "arenaduel", "arena_duel")

__all__ = ["Arena", "GAME", "dice_for_turn"]
