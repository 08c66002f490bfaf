"""SQUARESIV: registered as ``squares`` (aliases ``squaresiv``, ``sq4``)."""

from ..registry import register
from .engine import SquaresIV

GAME = register(SquaresIV(), "squaresiv", "sq4", "squares4")
