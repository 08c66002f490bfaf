"""Game terms in words: engines name things by identifiers; players read catalogue words."""

from __future__ import annotations

from games import Game

from ..i18n import T


def termed(game: Game, params: dict) -> dict:
    """Params ending in ``_term`` name a game term (a tile, a skill, a facing): say it in words,
    through the catalogue key ``term.<game>.<value>``."""
    return {k: (T(f"term.{game.name}.{v}") if k.endswith("_term") and isinstance(v, str) else v)
            for k, v in params.items()}
