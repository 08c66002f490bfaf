"""HOSTILE in words: what buttons, menus, turn pings, events and refusals say instead of notation.

The engine names things by identifiers (``spring``, ``lwall``, ``NE``, ``skill crash``); players
read catalogue words. Everything here returns ``{"type": t, **params}`` for the catalogue families
``choice.hostile.*``, ``menu.hostile.*`` and ``phase.hostile.*``; params ending in ``_term`` are said
through ``term.hostile.<value>``:

* tiles and skills: their kind or id (``spring``, ``lwall``, ``crash``);
* a placed tile's facing: ``arrow_N`` ... ``arrow_NW`` for slides, diagonal slides and springs
  (where the arrow points), ``closed_NE`` ... ``closed_EW`` / ``closed_all`` for walls (which sides
  are closed), ``plain`` for ice and stop;
* a step of movement: ``dir_N`` ... ``dir_W``; the steps of a round: ``step_<phase>`` (and
  ``can_<phase>``, what a player may do in it); the facings a kind takes: ``facings_<kind>``.

>>> facing_term("lwall", "NE"), facing_term("para", "EW"), facing_term("box", ""), facing_term("diag", "SW")
('closed_NE', 'closed_EW', 'closed_all', 'arrow_SW')
>>> choice_words(("place spring", "C4", "N"))
{'type': 'place_facing', 'tile_term': 'spring', 'square': 'C4', 'facing_term': 'arrow_N'}
>>> menu_words(("place lwall", "D1"))
{'type': 'place_wall', 'tile_term': 'lwall', 'square': 'D1'}
>>> choice_words(("take ice",), {"viewer": 0, "hands": [["box", "box", "C5", "D5"], []]})
{'type': 'take_discarded', 'tile_term': 'ice'}
"""

from __future__ import annotations

import re

from .tiles import SKILLS, board, closed_sides, floor_kinds

PAIRS = ("NE", "SE", "SW", "NW", "NS", "EW")   # closed pairs, as the notation writes them
PLAIN = "plain"  # ice and stop look the same every way round
SKILL_VERBS = ("crash", "rotate", "recall", "steal")
_SQ = re.compile(r"[A-H][1-8]")


def facing_term(kind: str, orient: str) -> str:
    """The term value for how a placed tile faces (see the module docstring)."""
    spec = floor_kinds()[kind]
    if spec.effect == "wall":
        closed = closed_sides(kind, orient)
        if len(closed) == 4:
            return "closed_all"
        return "closed_" + next((p for p in PAIRS if set(p) == set(closed)), "".join(sorted(closed)))
    return f"arrow_{orient}" if orient else PLAIN


def tile_params(kind: str, orient: str) -> dict:
    """A placed tile as event params: what it is and how it faces."""
    return {"tile_term": kind, "facing_term": facing_term(kind, orient)}


def is_gem_tile(tile: str) -> bool:
    return bool(_SQ.fullmatch(tile))


def _w(kind: str, **params) -> dict:
    return {"type": kind, **params}


# Choices that put a tile into the chooser's hand (the line's tiles, a stolen tile).
GAINS_A_TILE = ("take", "take_gem", "steal_skill", "steal")


def hand_full(view: dict | None) -> bool:
    """Whether the reader's own hand is at the limit, so a tile it gains is discarded (the
    rulebook: 「手札が4枚の時、4枚を超えて新たに獲得したタイルは、捨て札になります」). False
    for a spectator or without a view."""
    seat = (view or {}).get("viewer")
    return seat is not None and len(view["hands"][seat]) >= board()["hand_limit"]   # type: ignore[index]


def choice_words(path: tuple[str, ...], view: dict | None = None) -> dict | None:
    """Words for the choice at the end of ``path`` (a prefix of ``Hostile.action_path``), as the
    reader of ``view`` reads it: a choice that would take a tile into a full hand says that the
    tile is discarded (``take_discarded``, ``steal_discarded``...)."""
    words = _choice_words(path)
    if words is not None and words["type"] in GAINS_A_TILE and hand_full(view):
        words["type"] += "_discarded"
    return words


def _choice_words(path: tuple[str, ...]) -> dict | None:
    if not path:
        return None
    first = path[0]
    verb, _, arg = first.partition(" ")
    if len(path) == 1:
        if verb == "corner":
            return _w("corner", square=arg)
        if verb == "skill":
            return _w("skill", skill_term=arg, effect_term=f"effect_{arg}")
        if verb == "take":
            return _w("take_gem", square=arg) if is_gem_tile(arg) else _w("take", tile_term=arg)
        if verb == "home":
            return _w("home_gem", square=arg) if is_gem_tile(arg) else _w("home", tile_term=arg)
        if verb == "gem":
            return _w("gem", square=arg)
        if verb == "move":
            return _w("move", dir_term=f"dir_{arg}")
        if verb == "place":
            return _w("place_kind", tile_term=arg)
        if verb in SKILL_VERBS:
            return _w(verb if verb == "recall" else f"{verb}_skill")
        if verb == "end":
            return _w("end")
        return None
    if verb == "place":
        square = path[1]
        if len(path) == 3:
            return _w("place_facing", tile_term=arg, square=square, facing_term=facing_term(arg, path[2]))
        if floor_kinds()[arg].oriented:
            return None  # a square on the way to the facing: the coordinate says it
        return _w("place", tile_term=arg, square=square)
    if verb in ("crash", "steal"):
        return _w(verb, square=path[1])
    if verb == "rotate":
        if len(path) == 3:
            return _w(f"rotate_{path[2]}", square=path[1])
        return None
    return None


def menu_words(prefix: tuple[str, ...], view: dict | None = None) -> dict | None:
    """What the menu of next steps below ``prefix`` asks for (a steal into the reader's full
    hand: that the stolen tile is discarded)."""
    if not prefix:
        return _w("root")
    verb, _, arg = prefix[0].partition(" ")
    if verb == "steal" and len(prefix) == 1 and hand_full(view):
        return _w("steal_discarded")
    if verb == "place":
        if len(prefix) == 1:
            return _w("place_square", tile_term=arg)
        asks = {True: "place_wall", False: "place_arrow"}[floor_kinds()[arg].effect == "wall"]
        return _w(asks, tile_term=arg, square=prefix[1])
    if verb in ("crash", "steal") and len(prefix) == 1:
        return _w(verb)
    if verb == "rotate":
        return _w("rotate") if len(prefix) == 1 else _w("rotate_way", square=prefix[1])
    return None


def phase_words(state: dict) -> dict | None:
    """The step of the round: the corner pick, a draft (with picks left) or the turns (AP left)."""
    phase = state["phase"]
    if phase == "corner":
        return _w("corner")
    if phase not in ("skill", "draft", "turn"):
        return None
    second = "_second" if state["players"] == 2 and state["cycle"] == 2 else ""
    words = _w(phase + second, round=state["round"])
    if phase == "draft":
        words["picks"] = state["picks"]
    if phase == "turn":
        words["ap"] = (state["turn"] or {}).get("ap", 0)
    return words


def cards_event(kind: str, cards: list[str]) -> dict:
    """An event naming a few skill cards (``skills_excluded_2``: 2 cards, ``skill1_term``...)."""
    if 1 <= len(cards) <= 3:
        return {"type": f"{kind}_{len(cards)}", **{f"skill{i}_term": c for i, c in enumerate(cards, 1)}}
    return {"type": f"{kind}_many", "count": len(cards)}


def line_event(state: dict, new_gems: list[str], new_floor: list[str]) -> dict:
    """The line after a refill: the new gem tiles, how many floor tiles came, and the line by kind."""
    counts = {f"n_{k}": state["line_floor"].count(k) for k in floor_kinds()}
    return {"type": "line_refilled", "gems": ", ".join(new_gems) or "-", "added": len(new_floor),
            "line_gems": ", ".join(state["line_gems"]) or "-",
            "size": len(state["line_floor"]) + len(state["line_gems"]), **counts}


def identifiers() -> frozenset[str]:
    """Tile kinds, skill ids, placed tiles as ``kind:facing``, rotation words: notation only."""
    kinds = floor_kinds()
    out = set(kinds) | set(SKILLS) | set(board()["skills"]) | {"cw", "ccw"}
    out |= {f"{k}:{o}" for k, spec in kinds.items() for o in spec.orientations if o}
    return frozenset(out)
