"""HOSTILE data files (``data/*.json``), their schema checks, and the board geometry.

* ``floor_tiles.json``: the 57 floor tiles: kind (its notation name), count, effect
  (slide | ice | spring | stop | wall), the orientations a placer may choose (``""`` = the tile
  looks the same every way round) and, for walls, the closed sides per orientation.
* ``gem_tiles.json``: the 48 squares that have a gem tile.
* ``board.json``: size, start corners (clockwise), seat corners and teams per player count, gem
  targets, action points, hand limit, emission and line sizes, and the seven skill cards with
  their numbers (uses per turn, AP cost, extra AP).

Squares are written ``A1``-``H8`` (columns A-H left to right, rows 1-8 bottom to top); directions
are ``N E S W NE SE SW NW`` (N = towards row 8).

>>> step("C4", "NE"), step("H4", "E")
('D5', None)
>>> rotate_orientation("lwall", "NE", clockwise=True), rotate_orientation("para", "NS", clockwise=False)
('SE', 'EW')
>>> sorted(entering_sides("NE")), sorted(leaving_sides("NE"))
(['S', 'W'], ['E', 'N'])
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..errors import GameError

DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0),
    "NE": (1, 1), "SE": (1, -1), "SW": (-1, -1), "NW": (-1, 1),
}
ORTHOGONAL = ("N", "E", "S", "W")
DIAGONAL = ("NE", "SE", "SW", "NW")
SIDES = "NESW"
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
CLOCKWISE = {"N": "E", "E": "S", "S": "W", "W": "N", "NE": "SE", "SE": "SW", "SW": "NW", "NW": "NE"}
ANTICLOCKWISE = {v: k for k, v in CLOCKWISE.items()}
EFFECTS = ("slide", "ice", "spring", "stop", "wall")
SKILLS = ("crash", "rotate", "recall", "king", "steal", "ghost", "quick")
COLUMNS = "ABCDEFGH"


# ---- geometry ------------------------------------------------------------------------------------
def coords(square: str) -> tuple[int, int]:
    """'C4' -> (2, 3): 0-based column and row."""
    return COLUMNS.index(square[0]), int(square[1:]) - 1


def square_at(col: int, row: int, size: int = 8) -> str | None:
    if 0 <= col < size and 0 <= row < size:
        return f"{COLUMNS[col]}{row + 1}"
    return None


def step(square: str, direction: str, times: int = 1) -> str | None:
    """The square ``times`` steps from ``square`` in ``direction``, or None off the board."""
    key = (square, direction, times)
    try:
        return _STEPS[key]   # movement and the loop check ask the same few hundred questions
    except KeyError:
        pass
    col, row = coords(square)
    dc, dr = DIRECTIONS[direction]
    _STEPS[key] = found = square_at(col + dc * times, row + dr * times)
    return found


_STEPS: dict[tuple[str, str, int], str | None] = {}


def all_squares(size: int = 8) -> tuple[str, ...]:
    """A1, B1, ... H1, A2, ... H8."""
    return tuple(f"{COLUMNS[c]}{r + 1}" for r in range(size) for c in range(size))


def leaving_sides(direction: str) -> set[str]:
    """The sides of the square a piece leaves that a move in ``direction`` crosses."""
    return set(direction)


def entering_sides(direction: str) -> set[str]:
    """The sides of the square a piece enters that a move in ``direction`` crosses."""
    return {OPPOSITE[s] for s in direction}


def rotate_direction(direction: str, clockwise: bool) -> str:
    return (CLOCKWISE if clockwise else ANTICLOCKWISE)[direction]


# ---- floor tiles -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class FloorKind:
    kind: str
    count: int
    effect: str
    orientations: tuple[str, ...]
    closed: dict  # orientation -> frozenset of closed sides (walls only)

    @property
    def oriented(self) -> bool:
        return self.orientations != ("",)


def _data(name: str) -> object:
    path = resources.files(__package__) / "data" / name
    return json.loads(path.read_text(encoding="utf-8"))


DATA_FILES = ("floor_tiles.json", "gem_tiles.json", "board.json")


def validate_floor_tiles(data: object) -> list[str]:
    """Problems with a floor tile document (empty when valid)."""
    if not isinstance(data, dict) or set(data) != {"tiles"} or not isinstance(data["tiles"], list):
        return ["floor tiles must be an object with exactly a 'tiles' list"]
    problems = []
    seen = set()
    for i, tile in enumerate(data["tiles"]):
        if not isinstance(tile, dict):
            problems.append(f"tile {i} must be an object")
            continue
        keys = set(tile)
        if not {"kind", "count", "effect", "orientations"} <= keys <= {"kind", "count", "effect", "orientations",
                                                                       "closed"}:
            problems.append(f"tile {i}: keys must be kind, count, effect, orientations (+ closed for walls)")
            continue
        kind, count, effect, orients = tile["kind"], tile["count"], tile["effect"], tile["orientations"]
        if not isinstance(kind, str) or not kind.isalpha() or not kind.islower() or kind in seen:
            problems.append(f"tile {i}: kind must be a new lowercase word")
        seen.add(kind)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            problems.append(f"tile {i}: count must be a positive integer")
        if effect not in EFFECTS:
            problems.append(f"tile {i}: unknown effect {effect!r}")
        if not isinstance(orients, list) or not orients or len(set(orients)) != len(orients):
            problems.append(f"tile {i}: orientations must be a non-empty list without repeats")
            continue
        if orients != [""]:
            allowed = {"slide": ORTHOGONAL + DIAGONAL, "spring": ORTHOGONAL + DIAGONAL}.get(effect)
            if effect == "wall":
                allowed = tuple(tile.get("closed", {}) if isinstance(tile.get("closed"), dict) else ())
            if allowed is None or any(o not in allowed for o in orients):
                problems.append(f"tile {i}: orientations {orients} do not fit effect {effect!r}")
            elif effect != "wall" and {rotate_direction(o, True) for o in orients} != set(orients):
                problems.append(f"tile {i}: orientations must be closed under a quarter turn")
        elif effect in ("slide", "spring"):
            problems.append(f"tile {i}: a {effect} needs arrow orientations")
        if effect == "wall":
            closed = tile.get("closed")
            if not isinstance(closed, dict) or set(closed) != set(orients):
                problems.append(f"tile {i}: a wall needs 'closed' sides for each orientation")
            elif any(not isinstance(v, str) or not v or set(v) - set(SIDES) or len(set(v)) != len(v)
                     for v in closed.values()):
                problems.append(f"tile {i}: closed sides must be letters of NESW")
            else:
                sets = {frozenset(v) for v in closed.values()}
                if len(sets) != len(closed) or {frozenset(rotate_direction(s, True) for s in v) for v in sets} != sets:
                    problems.append(f"tile {i}: closed sides must differ and be closed under a quarter turn")
        elif "closed" in tile:
            problems.append(f"tile {i}: only walls have closed sides")
    return problems


def validate_gem_tiles(data: object) -> list[str]:
    if not isinstance(data, dict) or set(data) != {"squares"} or not isinstance(data["squares"], list):
        return ["gem tiles must be an object with exactly a 'squares' list"]
    squares = data["squares"]
    problems = []
    if len(set(squares)) != len(squares):
        problems.append("gem tile squares repeat")
    bad = [s for s in squares if not isinstance(s, str) or s not in all_squares()]
    if bad:
        problems.append(f"not squares: {bad}")
    return problems


def validate_board(data: object) -> list[str]:
    expected = {"size", "corners", "seat_corners", "teams", "target", "three_player_start_bonus", "action_points",
                "hand_limit", "emission", "line_gems", "line_floor", "draft_picks", "skills_excluded", "skills"}
    if not isinstance(data, dict):
        return ["board must be an object"]
    if set(data) != expected:
        return [f"board keys must be exactly {sorted(expected)}"]
    problems = []
    if data["size"] != 8:
        problems.append("the board is 8x8")
    corners = data["corners"]
    if not isinstance(corners, list) or len(corners) != 4 or any(c not in all_squares() for c in corners):
        problems.append("corners must be 4 squares")
    for n in ("2", "3", "4"):
        if n not in data["target"] or not isinstance(data["target"][n], int) or data["target"][n] < 1:
            problems.append(f"target for {n} players must be a positive integer")
        teams = data["teams"].get(n)
        if not isinstance(teams, list) or sorted(s for t in teams for s in t) != list(range(int(n))):
            problems.append(f"teams for {n} players must split seats 0..{int(n) - 1}")
    for n in ("2", "4"):
        sc = data["seat_corners"].get(n)
        if not isinstance(sc, list) or len(sc) != int(n) or len(set(sc)) != len(sc) or any(
                not isinstance(c, int) or not 0 <= c < 4 for c in sc) or sc != sorted(sc):
            problems.append(f"seat corners for {n} players must be clockwise corner indexes")
    for key in ("three_player_start_bonus", "action_points", "hand_limit", "emission", "line_gems", "line_floor",
                "draft_picks", "skills_excluded"):
        value = data[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            problems.append(f"{key} must be a non-negative integer")
    skills = data["skills"]
    if not isinstance(skills, dict) or tuple(skills) != SKILLS:
        problems.append(f"skills must be exactly {list(SKILLS)} in that order")
    else:
        allowed = {"crash": {"uses"}, "rotate": {"uses"}, "recall": {"uses"}, "king": set(), "steal": {"ap"},
                   "ghost": set(), "quick": {"extra_ap"}}
        for name, params in skills.items():
            if not isinstance(params, dict) or set(params) != allowed[name] or any(
                    not isinstance(v, int) or isinstance(v, bool) or v < 1 for v in params.values()):
                problems.append(f"skill {name}: parameters must be exactly {sorted(allowed[name])} (positive)")
    if isinstance(skills, dict) and isinstance(data["skills_excluded"], int) and \
            len(skills) - 1 - data["skills_excluded"] < 4:
        problems.append("at least 4 non-king skills must remain after exclusion")
    return problems


VALIDATORS = {"floor_tiles.json": validate_floor_tiles, "gem_tiles.json": validate_gem_tiles,
              "board.json": validate_board}


@cache
def load(name: str) -> object:
    """A data file, checked against its schema (a broken file is refused loudly)."""
    data = _data(name)
    problems = VALIDATORS[name](data)
    if problems:
        raise GameError("hostile.bad_data", name=name, problems="; ".join(problems))
    return data


@cache
def floor_kinds() -> dict[str, FloorKind]:
    out = {}
    for tile in load("floor_tiles.json")["tiles"]:  # type: ignore[index]
        closed = {o: frozenset(s) for o, s in tile.get("closed", {}).items()}
        out[tile["kind"]] = FloorKind(tile["kind"], tile["count"], tile["effect"], tuple(tile["orientations"]),
                                      closed)
    return out


@cache
def gem_squares() -> tuple[str, ...]:
    return tuple(load("gem_tiles.json")["squares"])  # type: ignore[index]


@cache
def board() -> dict:
    return load("board.json")  # type: ignore[return-value]


def floor_deck() -> list[str]:
    """Every floor tile once, by kind, in data-file order (shuffle before use)."""
    return [k.kind for k in floor_kinds().values() for _ in range(k.count)]


def closed_sides(kind: str, orientation: str) -> frozenset:
    """The closed sides of a placed tile (empty for everything but walls)."""
    key = (kind, orientation)
    if key not in _CLOSED:
        spec = floor_kinds()[kind]
        _CLOSED[key] = spec.closed.get(orientation, frozenset()) if spec.effect == "wall" else frozenset()
    return _CLOSED[key]


_CLOSED: dict[tuple[str, str], frozenset] = {}


def rotate_orientation(kind: str, orientation: str, clockwise: bool) -> str:
    """A placed tile's orientation after a quarter turn."""
    spec = floor_kinds()[kind]
    if not spec.oriented:
        return orientation
    if spec.effect == "wall":
        turned = frozenset(rotate_direction(s, clockwise) for s in spec.closed[orientation])
        return next(o for o, sides in spec.closed.items() if sides == turned)
    return rotate_direction(orientation, clockwise)
