"""Game terms in words: engines name things by identifiers; players read catalogue words."""

from __future__ import annotations

from games import Game
from renderers.common import player_style

from ..i18n import T, Text


def termed(game: Game, params: dict) -> dict:
    """Params ending in ``_term`` name a game term (a tile, a skill, a facing): say it in words,
    through the catalogue key ``term.<game>.<value>``."""
    return {k: (T(f"term.{game.name}.{v}") if k.endswith("_term") and isinstance(v, str) else v)
            for k, v in params.items()}


def position_words(game: Game, view: dict) -> list[Text]:
    """The position in ``view`` in words, one Text a sentence, for the board image's alt text (a
    screen reader follows the game by them). Empty when the game describes nothing itself."""
    return [_alt_text(game, event) for event in game.describe_position(view)]


def _alt_text(game: Game, event: dict) -> Text:
    params = {k: _alt_param(game, k, v) for k, v in event.items() if k != "type"}
    return T(f"alt.{game.name}.{event['type']}", **params)


def _alt_param(game: Game, key: str, value):
    """A describing event's parameter in words: a seat number as its letter and colour, a game
    term through its catalogue word, a step of the round through its ``phase`` words, a card id through its name, a nested event (or a list of
    them: pieces, figures) as its own ``alt`` sentence part."""
    if isinstance(value, dict) and "type" in value:
        return _alt_text(game, value)
    if isinstance(value, list):
        return [_alt_param(game, key, v) for v in value]
    if key.endswith(("seat", "seats")) and isinstance(value, int):
        style = player_style(value)
        return T("alt.seat", letter=style.letter, colour=T(f"colour.{style.name}"))
    if key.endswith("_term") and isinstance(value, str):
        return T(f"term.{game.name}.{value}")
    if key.endswith("_phase") and isinstance(value, str):
        return T(f"phase.{game.name}.{value}")
    if key.endswith("_card") and isinstance(value, str):
        return T(f"mh.card.{value}")  # the card catalogue's names (Monster Hunter's cards)
    return value
