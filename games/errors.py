"""The engine error taxonomy: every refusal carries a message key for the i18n catalogues.

>>> try:
...     raise IllegalAction("squaresiv.cap", row=3)
... except GameError as e:
...     (e.key, e.params)
('squaresiv.cap', {'row': 3})
"""


class GameError(ValueError):
    """A refused input. ``key`` names a catalogue entry under ``error.``; ``params`` fill it."""

    def __init__(self, key: str, **params):
        super().__init__(f"{key} {params}" if params else key)
        self.key = key
        self.params = params


class NotationError(GameError):
    """The text is not an action of this game at all (malformed)."""


class IllegalAction(GameError):
    """A well-formed action the rules do not allow now."""


class NotYourTurn(GameError):
    """The seat is not among those who must act now."""


class GameOver(GameError):
    """The game has already ended."""
