"""Game images: one pure renderer per game, found by game name.

A renderer takes exactly the dict ``get_game(name).view(state, seat)`` returns and gives PNG
bytes. Renderers never see engine state and never import the bot, discord or storage; shared
drawing helpers live in :mod:`renderers.common`. Per-game modules register themselves with
:func:`register` when imported at the bottom of this file.

>>> from games import get_game
>>> g = get_game("squares")
>>> render("squares", g.view(g.setup(2, {}, seed=3), 0))[:4]
b'\\x89PNG'
"""

from __future__ import annotations

from typing import Callable

Renderer = Callable[..., bytes]

_RENDERERS: dict[str, Renderer] = {}


class UnknownRenderer(KeyError):
    """No renderer is registered for this game name."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name

    def __str__(self) -> str:
        known = ", ".join(sorted(_RENDERERS)) or "-"
        return f"no renderer for game {self.name!r} (known: {known})"


def register(name: str) -> Callable[[Renderer], Renderer]:
    """Decorator: ``@register("squares")`` makes ``render("squares", view)`` call the function."""

    def deco(fn: Renderer) -> Renderer:
        _RENDERERS[name] = fn
        return fn

    return deco


def _resolve(game_name: str) -> str:
    key = (game_name or "").strip().lower()
    if key in _RENDERERS:
        return key
    try:  # accept the engine registry's aliases ("squaresiv", "sq4", ...)
        from games import get_game

        return get_game(key).name
    except Exception:
        return key


def has_renderer(game_name: str) -> bool:
    return _resolve(game_name) in _RENDERERS


def renderer_for(game_name: str) -> Renderer:
    """The render function for a game name or alias; :class:`UnknownRenderer` if none."""
    key = _resolve(game_name)
    try:
        return _RENDERERS[key]
    except KeyError:
        raise UnknownRenderer(game_name) from None


def render(game_name: str, view: dict, **options) -> bytes:
    """PNG bytes for ``view`` drawn by ``game_name``'s renderer (keyword display options pass
    through, e.g. ``last=False``)."""
    return renderer_for(game_name)(view, **options)


_DECK_RENDERERS: dict[str, Renderer] = {}


def register_deck(name: str) -> Callable[[Renderer], Renderer]:
    """Decorator for a game's deck-list picture: ``render_deck(name, cards)`` calls the function
    with ``[(card id, count), ...]`` (what ``Game.deck_cards`` returns)."""

    def deco(fn: Renderer) -> Renderer:
        _DECK_RENDERERS[name] = fn
        return fn

    return deco


def render_deck(game_name: str, cards: list[tuple[str, int]]) -> bytes | None:
    """PNG bytes of a deck list, or None when the game draws no deck pictures."""
    fn = _DECK_RENDERERS.get(_resolve(game_name))
    return fn(list(cards)) if fn else None


def registered() -> list[str]:
    return sorted(_RENDERERS)


from . import squaresiv  # noqa: E402,F401  (self-registration)
from . import arena, hostile, osu  # noqa: E402,F401,I001
from . import monsterhunter  # noqa: E402,F401

__all__ = ["render", "register", "renderer_for", "has_renderer", "registered", "UnknownRenderer"]
