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

from games import Game, get_game
from games.hostile.tiles import floor_kinds
from games.hostile.words import facing_term, is_gem_tile
from games.monsterhunter.words import card_facts

from ..i18n import T, Text
from .words import _term_or_card, alt_seat, worded

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
    if isinstance(value, Text):
        return value
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


# ---- Arena Duel ----------------------------------------------------------------------------------------
FACINGS = ("N", "NE", "SE", "S", "SW", "NW")


def _arena_hex(data: dict, view: dict) -> Event:
    figure = data.get("figure")
    if not figure:
        return {"type": "hex_empty", "hex": data["hex"]}
    return {"type": "hex_figure_charge" if figure.get("can_charge") else "hex_figure", "hex": data["hex"],
            "seat": figure["seat"], "facing": T(f"alt.arena.facing_{FACINGS[figure['facing'] % 6]}"),
            "life": figure["life"], "life_max": data["life_max"]}


def _arena_life(data: dict, view: dict) -> Event:
    return {"type": "life", "seat": data["seat"], "life": data["life"], "life_max": data["life_max"]}


def _arena_dice(data: dict, view: dict) -> Event:
    dice = list(data["dice"])   # joined in the reader's language
    if data.get("own"):
        if data.get("order"):
            return {"type": "dice_own_order", "turn": data["turn"], "dice": dice, "order": data["order"]}
        return {"type": "dice_own", "turn": data["turn"], "dice": dice}
    return {"type": "dice_last", "seat": data["seat"], "turn": data["turn"], "dice": dice, "order": data["order"]}


# ---- OSU -------------------------------------------------------------------------------------------------
SIDES = ("up", "right", "down", "left")


def _osu_cell(data: dict, view: dict) -> Event:
    where = {"type": "passage" if data.get("passage") else "osu_square" if data.get("osu") else "square",
             "square": data["square"]}
    tile = data.get("tile")
    if not tile:
        return {"type": "cell_empty", "where": where}
    faces = tile["faces"]
    animals = {side: {"type": f"animal_{faces[side]}"} for side in SIDES}
    mouse = next((side for side in SIDES if faces[side] == "mouse"), "up")
    return {"type": "cell_tile", "where": where, "seat": tile["seat"], "number": tile["number"], **animals,
            "mouse_term": mouse}


def _osu_score(data: dict, view: dict) -> Event:
    return {"type": "score", "seat": data["seat"], "score": data["score"], "target": data["target"]}


# ---- HOSTILE ---------------------------------------------------------------------------------------------
def _hostile_cell(data: dict, view: dict) -> Event:
    """The square, then what lies on it: whose piece, the floor tile and what it does, gems, and
    whose start (or start zone) it is."""
    parts: list[Event] = []
    if data.get("piece") is not None:
        parts.append({"type": "on_piece", "seat": data["piece"]})
    tile = data.get("tile")
    if tile:
        parts.append({"type": "on_tile", "tile_term": tile["kind"], "facing_term": facing_term(tile["kind"], tile["orient"]),
                      "does": {"type": f"does_{tile['effect']}"}})
    if data.get("gems"):
        parts.append({"type": "on_gems", "count": data["gems"]})
    if data.get("start") is not None:
        parts.append({"type": "on_start", "seat": data["start"]})
    elif data.get("zone") is not None:
        parts.append({"type": "on_zone", "seat": data["zone"]})
    if not parts:
        return {"type": "cell_empty", "square": data["square"]}
    return {"type": "cell", "square": data["square"], "parts": parts}


def _hostile_tile(data: dict, view: dict, where: str) -> Event:
    tile = data["tile"]
    if is_gem_tile(tile):
        return {"type": f"{where}_gem", "square": tile, **({"seat": data["seat"]} if "seat" in data else {})}
    return {"type": where, "tile_term": tile, **({"seat": data["seat"]} if "seat" in data else {}),
            "does": {"type": f"does_{floor_kinds()[tile].effect}"}}


def _hostile_skill(data: dict, view: dict) -> Event:
    skill, owner = data["skill"], data.get("owner")
    if owner is None:
        return {"type": "skill_" + ("free" if data.get("free") else "unowned"), "skill_term": skill,
                "effect_term": f"effect_{skill}"}
    return {"type": "skill_owned", "skill_term": skill, "effect_term": f"effect_{skill}", "seat": owner}


# ---- Monster Hunter ----------------------------------------------------------------------------------------
_MH = get_game("monsterhunter")


def _mh_facts(cid: str) -> list:
    """A card's numbers and what it does, as the game words them (``word.monsterhunter.stat_*``)."""
    return [worded(_MH, "fact", fact) for fact in card_facts(cid)]


def _mh_monster(data: dict, view: dict) -> Event:
    if "card" not in data:   # face down, and not the reader's own: only where it lies
        return {"type": "monster_down", "id": data["id"], "area": data["area"]}
    cid = data["card"]
    return {"type": "monster_up" if data.get("up") else "monster_own_down", "id": data["id"], "area": data["area"],
            "monster_card": cid, "health": data["health"], "facts": _mh_facts(cid)}


def _mh_card(data: dict, view: dict) -> Event:
    return {"type": "card", "card_card": data["card"], "card": data["card"], "facts": _mh_facts(data["card"])}


def _mh_area(data: dict, view: dict) -> Event:
    monsters, hunters = data.get("monsters") or [], data.get("hunters") or []
    return {"type": "area_camp" if data.get("camp") else "area", "area": data["area"], "seat": data.get("seat"),
            "monsters": len(monsters), "hunters": [{"type": "hunter_here", "seat": s} for s in hunters]}


def _mh_sheet(data: dict, view: dict) -> Event:
    return {"type": "sheet_flip" if data.get("flip") else "sheet", "sheet_sheet": data["sheet"], "sheet": data["sheet"]}


_SAYERS: dict[str, dict[str, Sayer]] = {
    "squares": {"cell": _squares_cell, "hand": _squares_hand, "cap": _squares_cap},
    "arena": {"hex": _arena_hex, "life": _arena_life, "dice": _arena_dice},
    "osu": {"cell": _osu_cell, "score": _osu_score},
    "hostile": {"cell": _hostile_cell, "skill": _hostile_skill,
                "hand": lambda data, view: _hostile_tile(data, view, "hand"),
                "line": lambda data, view: _hostile_tile(data, view, "line")},
    "monsterhunter": {"monster": _mh_monster, "card": _mh_card, "hunter": _mh_card, "area": _mh_area,
                      "sheet": _mh_sheet},
}
