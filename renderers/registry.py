"""Where the per-game renderers register themselves: by game name, the board, the deck-list and the
private-panel pictures. A module of its own, importing nothing of the package, so a renderer that
registers here does not import the package that imports it."""

from __future__ import annotations

from typing import Callable

Renderer = Callable[..., bytes]

_RENDERERS: dict[str, Renderer] = {}
_DECK_RENDERERS: dict[str, Renderer] = {}
_PANEL_RENDERERS: dict[str, Renderer] = {}


def register(name: str) -> Callable[[Renderer], Renderer]:
    """Decorator: ``@register("squares")`` makes ``render("squares", view)`` call the function."""

    def deco(fn: Renderer) -> Renderer:
        _RENDERERS[name] = fn
        return fn

    return deco


def register_deck(name: str) -> Callable[[Renderer], Renderer]:
    """Decorator for a game's deck-list picture: ``render_deck(name, cards)`` calls the function
    with ``[(card id, count), ...]`` (what ``Game.deck_cards`` returns)."""

    def deco(fn: Renderer) -> Renderer:
        _DECK_RENDERERS[name] = fn
        return fn

    return deco


def register_panel(name: str) -> Callable[[Renderer], Renderer]:
    """Decorator for a game whose private panel is drawn differently from its board at some
    steps (Monster Hunter's loadout): ``render_panel(name, view)`` calls the function with the
    seat's view, and the function decides from the view what to draw."""

    def deco(fn: Renderer) -> Renderer:
        _PANEL_RENDERERS[name] = fn
        return fn

    return deco
