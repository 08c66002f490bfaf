"""SQUARESIV piece sets: data files validated against a small schema.

A piece is fully described by its ability and points; its notation *kind* is the ability letter
plus the points, e.g. ``T5`` for transfer 5.

>>> kind_of({"ability": "tide", "points": 3})
'W3'
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from ..errors import GameError

ABILITY_LETTERS = {"transfer": "T", "tide": "W", "petrify": "P", "martial_arts": "M", "plain": "N"}
LETTER_ABILITIES = {v: k for k, v in ABILITY_LETTERS.items()}
SET_SIZE = 10
MIN_POINTS, MAX_POINTS = 1, 9


def kind_of(piece: dict) -> str:
    return f"{ABILITY_LETTERS[piece['ability']]}{piece['points']}"


def piece_of(kind: str) -> dict:
    return {"ability": LETTER_ABILITIES[kind[0]], "points": int(kind[1:])}


def validate_set(data: object) -> list[str]:
    """Return the list of problems with a piece-set document (empty when valid)."""
    problems = []
    if not isinstance(data, dict):
        return ["a set must be an object"]
    if not isinstance(data.get("name"), str) or not data["name"]:
        problems.append("name must be a non-empty string")
    extra = set(data) - {"name", "pieces"}
    if extra:
        problems.append(f"unknown keys: {sorted(extra)}")
    pieces = data.get("pieces")
    if not isinstance(pieces, list) or len(pieces) != SET_SIZE:
        return problems + [f"pieces must be a list of exactly {SET_SIZE}"]
    for i, piece in enumerate(pieces):
        if not isinstance(piece, dict) or set(piece) != {"ability", "points"}:
            problems.append(f"piece {i} must have exactly ability and points")
            continue
        if piece["ability"] not in ABILITY_LETTERS:
            problems.append(f"piece {i}: unknown ability {piece['ability']!r}")
        points = piece["points"]
        if not isinstance(points, int) or isinstance(points, bool) or not MIN_POINTS <= points <= MAX_POINTS:
            problems.append(f"piece {i}: points must be an integer {MIN_POINTS}-{MAX_POINTS}")
    return problems


def set_files() -> list[str]:
    folder = resources.files(__package__) / "data" / "sets"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


@cache
def load_set(name: str) -> tuple[str, ...]:
    """The kinds of a named set, e.g. ('T2', 'T5', ...). Unknown or invalid sets are refused."""
    if name not in set_files():
        raise GameError("squaresiv.unknown_set", name=name, known=", ".join(set_files()))
    path = resources.files(__package__) / "data" / "sets" / f"{name}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    problems = validate_set(data)
    if problems:
        raise GameError("squaresiv.bad_set", name=name, problems="; ".join(problems))
    return tuple(kind_of(p) for p in data["pieces"])
