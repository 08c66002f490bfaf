"""Pure rules engines. No discord, PIL, database, clock or global random lives below here."""

from .base import MAX_FORM_CHOICES, MAX_FORM_FIELDS, Event, Form, FormField, Game, Option, Outcome, State, events_for
from .errors import GameError, GameOver, IllegalAction, NotationError, NotYourTurn
from .registry import all_games, get_game, register

from . import squaresiv  # noqa: E402,F401  (self-registration)
from . import arena, hostile, osu  # noqa: E402,F401,I001
from . import monsterhunter  # noqa: E402,F401  (its renderer is still to come)

__all__ = [
    "MAX_FORM_CHOICES", "MAX_FORM_FIELDS", "Event", "Form", "FormField", "Game", "Option", "Outcome", "State", "events_for",
    "GameError", "GameOver", "IllegalAction", "NotationError", "NotYourTurn",
    "all_games", "get_game", "register",
]
