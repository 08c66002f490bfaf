"""Games register themselves here by name; the bot loops over the registry instead of naming games."""

from __future__ import annotations

from .base import Game
from .errors import GameError

_GAMES: dict[str, Game] = {}
_ALIASES: dict[str, str] = {}


def register(game: Game, *aliases: str) -> Game:
    _GAMES[game.name] = game
    for alias in aliases:
        _ALIASES[alias] = game.name
    return game


def aliases() -> dict[str, str]:
    """Other names a game answers to (``mh`` -> ``monsterhunter``)."""
    return dict(_ALIASES)


def unregister(name: str) -> None:
    _GAMES.pop(name, None)
    for alias in [a for a, n in _ALIASES.items() if n == name]:
        del _ALIASES[alias]


def get_game(name: str) -> Game:
    key = (name or "").strip().lower()
    key = _ALIASES.get(key, key)
    try:
        return _GAMES[key]
    except KeyError:
        raise GameError("unknown_game", name=name) from None


def all_games() -> list[Game]:
    return list(_GAMES.values())
