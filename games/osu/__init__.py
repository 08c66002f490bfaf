"""OSU: registered as ``osu``. Rules, notation and house choices: :mod:`games.osu.engine`."""

from ..registry import register
from .engine import Osu

GAME = register(Osu())
