"""Game images: one pure renderer per game, found by game name.

A renderer takes exactly the dict ``get_game(name).view(state, seat)`` returns and gives PNG
bytes. Renderers never see engine state and never import the bot, discord or storage; shared
drawing helpers live in :mod:`renderers.common`. Per-game modules register themselves with
:func:`register` (:mod:`renderers.registry`, which imports nothing of the package) when imported at
the bottom of this file.

>>> from games import get_game
>>> g = get_game("squares")
>>> render("squares", g.view(g.setup(2, {}, seed=3), 0))[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import inspect

from .taps import collecting, scaled
from .registry import _DECK_RENDERERS, _PANEL_RENDERERS, _RENDERERS, Renderer, register, register_deck, register_panel


class UnknownRenderer(KeyError):
    """No renderer is registered for this game name."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name

    def __str__(self) -> str:
        known = ", ".join(sorted(_RENDERERS)) or "-"
        return f"no renderer for game {self.name!r} (known: {known})"


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


LARGE_SCALE = 1.5  # "a larger board for small screens"


def render(game_name: str, view: dict, *, scale: float = 1.0, viewer_seat: int | None = None, **options) -> bytes:
    """PNG bytes for ``view`` drawn by ``game_name``'s renderer (keyword display options pass
    through, e.g. ``last=False``). ``viewer_seat`` draws the board from that seat's side where the
    renderer can (see :func:`draws_sides`); ``scale`` enlarges the finished image; ``lang``
    ("en", "ja") is the language of the names a board writes, for renderers that write any
    (:func:`speaks`; the others draw the same image in every language)."""
    return _drawn(renderer_for(game_name), view, scale, viewer_seat, options)


def _drawn(fn: Renderer, view: dict, scale: float, viewer_seat: int | None, options: dict) -> bytes:
    if viewer_seat is not None and _takes(fn, "viewer_seat"):
        options["viewer_seat"] = viewer_seat
    lang = options.pop("lang", None)
    if lang is not None and _takes(fn, "lang"):
        options["lang"] = lang
    png = fn(view, **options)
    if scale != 1.0:
        from .common import scaled_png
        png = scaled_png(png, scale)
    return png


def _takes(fn: Renderer, name: str) -> bool:
    try:
        return name in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def draws_sides(game_name: str) -> bool:
    """Whether the game's renderer can draw its board from a seat's side (``viewer_seat``)."""
    try:
        return _takes(renderer_for(game_name), "viewer_seat")
    except UnknownRenderer:
        return False


def speaks(game_name: str) -> bool:
    """Whether the game's board writes words in its reader's language (its ``lang`` option): a
    cache of its images must then be kept per language."""
    try:
        return _takes(renderer_for(game_name), "lang")
    except UnknownRenderer:
        return False


def view_options(game_name: str, prefs: dict, seat: int | None) -> dict:
    """Render options for one person's saved view choices (``{"side": bool, "large": bool}``)
    and their seat (None for a spectator: nothing to turn)."""
    options: dict = {}
    if prefs.get("side") and seat is not None and draws_sides(game_name):
        options["viewer_seat"] = seat
    if prefs.get("large"):
        options["scale"] = LARGE_SCALE
    return options


def render_deck(game_name: str, cards: list[tuple[str, int]], lang: str | None = None) -> bytes | None:
    """PNG bytes of a deck list (its names in ``lang``), or None when the game draws no deck pictures."""
    fn = _DECK_RENDERERS.get(_resolve(game_name))
    if fn is None:
        return None
    return fn(list(cards), lang=lang) if lang is not None and _takes(fn, "lang") else fn(list(cards))


def render_panel(game_name: str, view: dict, *, scale: float = 1.0, viewer_seat: int | None = None,
                 **options) -> bytes:
    """PNG bytes of a seat's private panel picture: the game's panel renderer where it has one,
    else the board drawn from that seat's view (:func:`render`); view choices as for :func:`render`."""
    fn = _PANEL_RENDERERS.get(_resolve(game_name)) or renderer_for(game_name)
    return _drawn(fn, view, scale, viewer_seat, options)


def render_with_regions(game_name: str, view: dict, *, scale: float = 1.0, viewer_seat: int | None = None,
                        **options) -> tuple[bytes, list[dict]]:
    """The board as :func:`render` draws it, and its tap regions (:mod:`renderers.taps`): what it
    shows where, in that image's px, recorded by the drawing itself."""
    with collecting() as found:
        png = _drawn(renderer_for(game_name), view, scale, viewer_seat, options)
    return png, scaled(found, scale)


def regions(game_name: str, view: dict, *, viewer_seat: int | None = None, **options) -> list[dict]:
    """What the board image drawn by ``render(game_name, view, viewer_seat=..., **options)``
    shows where: ``[{"key", "kind", "box": [x0, y0, x1, y1], "data"}, ...]``."""
    return render_with_regions(game_name, view, viewer_seat=viewer_seat, **options)[1]


def render_panel_with_regions(game_name: str, view: dict, *, scale: float = 1.0, viewer_seat: int | None = None,
                              **options) -> tuple[bytes, list[dict]]:
    """The private panel as :func:`render_panel` draws it, and its tap regions."""
    fn = _PANEL_RENDERERS.get(_resolve(game_name)) or renderer_for(game_name)
    with collecting() as found:
        png = _drawn(fn, view, scale, viewer_seat, options)
    return png, scaled(found, scale)


def panel_regions(game_name: str, view: dict, *, viewer_seat: int | None = None, **options) -> list[dict]:
    """The tap regions of :func:`render_panel`'s picture of ``view``."""
    return render_panel_with_regions(game_name, view, viewer_seat=viewer_seat, **options)[1]


def registered() -> list[str]:
    return sorted(_RENDERERS)


def warm_palettes() -> None:
    """Build every renderer's palette now (each module's ``palette()``, where it has one): what a
    first board of each game needs most (the workers' fork server does, bot/workers/warming.py)."""
    import sys
    for module in sorted({fn.__module__ for fn in _RENDERERS.values()}):
        palette = getattr(sys.modules[module], "palette", None)
        if palette is not None:
            palette()


def warm_all() -> None:
    """Draw every renderer's sprites now (each module's ``warm()``), so no player's board is the
    first to need one. Run once where workers fork from: they inherit the drawn caches."""
    import sys
    for module in sorted({fn.__module__ for fn in _RENDERERS.values()}):
        warm = getattr(sys.modules[module], "warm", None)
        if warm is not None:
            warm()


from . import squaresiv  # noqa: E402,F401  (self-registration)
from . import arena, hostile, osu  # noqa: E402,F401,I001
from . import monsterhunter  # noqa: E402,F401

__all__ = ["render", "render_panel", "regions", "panel_regions", "render_with_regions", "render_panel_with_regions", "register", "register_panel", "renderer_for", "has_renderer", "speaks", "registered", "warm_all",
           "warm_palettes", "UnknownRenderer"]
