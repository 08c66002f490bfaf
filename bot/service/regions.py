"""What a tap on a board or panel region says in words (the web table): a square and its piece, a
tile's animals and facing, a monster's name and numbers, a card's name and what it does.

A region (``renderers.regions``) carries the view's facts about what it shows in ``data``. Each
game's sayer turns them into a describing event ``{"type": t, **params}`` read through the catalogue
key ``region.<game>.<t>`` (bot/i18n/*/regions.ftl); params are worded as in an image's alt text
(seats by letter and colour, ``_term`` params through ``term.<game>.<value>``, nested events through
their own ``region.<game>.<t>``). Only ``data`` and the reader's own view are read, so a region
says nothing its picture does not show.
"""

from __future__ import annotations

from collections.abc import Callable

from games import Game

from ..i18n import T, Text
from .words import _term_or_card, alt_seat

Event = dict
Sayer = Callable[[dict, dict], Event]


def region_text(game: Game, region: dict, view: dict) -> Text:
    """What a tap on ``region`` (of the picture drawn from ``view``) says."""
    say = _SAYERS.get(game.name, {}).get(region.get("kind", ""))
    if say is None:
        return T("region.unnamed")
    return _text(game, say(region.get("data") or {}, view))


def _text(game: Game, event: Event) -> Text:
    return T(f"region.{game.name}.{event['type']}", **{k: _param(game, k, v) for k, v in event.items() if k != "type"})


def _param(game: Game, key: str, value):
    if isinstance(value, dict) and "type" in value:
        return _text(game, value)
    if isinstance(value, list) and not key.endswith(("_cards", "_terms")):
        return [_param(game, key, v) for v in value] or T("list.nothing")
    if key.endswith("seat") and isinstance(value, int) and not isinstance(value, bool):
        return alt_seat(value)
    return _term_or_card(game, key, value)


# ---- SQUARESIV ---------------------------------------------------------------------------------------
def _squares_cell(data: dict, view: dict) -> Event:
    piece = data.get("piece")
    if not piece:
        return {"type": "cell_empty", "square": data["square"]}
    if piece.get("petrified"):
        return {"type": "cell_petrified", "square": data["square"], "seat": piece["seat"], "kind_term": piece["kind"]}
    return {"type": "cell_piece", "square": data["square"], "seat": piece["seat"], "kind_term": piece["kind"],
            "effect": {"type": f"effect_{piece['ability']}"}}


def _squares_hand(data: dict, view: dict) -> Event:
    return {"type": "hand", "seat": data["seat"], "kind_term": data["kind"],
            "effect": {"type": f"effect_{data['ability']}"}}


def _squares_cap(data: dict, view: dict) -> Event:
    return {"type": "cap", "seat": data["seat"], "row": data["row"], "total": data["total"], "cap": data["cap"]}


_SAYERS: dict[str, dict[str, Sayer]] = {
    "squares": {"cell": _squares_cell, "hand": _squares_hand, "cap": _squares_cap},
}
