"""HOSTILE: registered as ``hostile``. Rules, notation and house choices: :mod:`games.hostile.engine`."""

from ..registry import register
from .engine import Hostile

GAME = register(Hostile())

__all__ = ["Hostile", "GAME"]
