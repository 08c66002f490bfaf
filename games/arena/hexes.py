"""The 19-hex arena: names, axial coordinates, the six facings and relative directions.

The arena is a hexagon of radius 2 made of flat-topped hexes, drawn in five columns ``a``-``e``
(left to right) of 3, 4, 5, 4 and 3 hexes, numbered from the bottom of each column up::

            c5
        b4      d4
    a3      c4      e3
        b3      d3
    a2      c3      e2
        b2      d2
    a1      c2      e1
        b1      d1
            c1

Internally a hex is axial ``(q, r)`` with ``q = column - 2`` and ``r`` growing downwards (the
flat-top axial system of renderers.common.HexLayout with ``pointy=False``).

Facings are the six hex sides, numbered clockwise from north: 0 N (up), 1 NE, 2 SE, 3 S (down),
4 SW, 5 NW. Turning right is +1, left is -1.

>>> axial("c1"), name((0, 2))
((0, 2), 'c1')
>>> step("c1", 0), step("c1", 3) is None
('c2', True)
>>> len(HEXES), HEXES[0], HEXES[-1]
(19, 'a1', 'e3')
"""

from __future__ import annotations

COLUMNS = "abcde"
RADIUS = 2

# Axial steps for facings 0..5 (N, NE, SE, S, SW, NW) with r growing downwards.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
FACING_ARROWS = ("↑", "↗", "↘", "↓", "↙", "↖")
FACING_NAMES = ("N", "NE", "SE", "S", "SW", "NW")

Axial = tuple[int, int]


def in_arena(hex_: Axial) -> bool:
    q, r = hex_
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


def _rows(q: int) -> tuple[int, int]:
    """(lowest r, highest r) of column q; the highest r is the bottom hex, number 1."""
    return max(-RADIUS, -RADIUS - q), min(RADIUS, RADIUS - q)


def name(hex_: Axial) -> str:
    """Axial -> player name like ``c3`` (``ValueError`` outside the arena)."""
    if not in_arena(hex_):
        raise ValueError(f"{hex_} is outside the arena")
    q, r = hex_
    return f"{COLUMNS[q + RADIUS]}{_rows(q)[1] - r + 1}"


def axial(hex_name: str) -> Axial:
    """Player name -> axial (``ValueError`` for names that are not arena hexes)."""
    found = _AXIAL.get(hex_name)
    return found if found is not None else _axial(hex_name)


def _axial(hex_name: str) -> Axial:
    if len(hex_name) != 2 or hex_name[0] not in COLUMNS or not hex_name[1].isdigit():
        raise ValueError(f"{hex_name!r} is not an arena hex")
    q = COLUMNS.index(hex_name[0]) - RADIUS
    low, high = _rows(q)
    r = high - int(hex_name[1]) + 1
    if not low <= r <= high:
        raise ValueError(f"{hex_name!r} is not an arena hex")
    return q, r


HEXES: tuple[str, ...] = tuple(
    name((q, r)) for q in range(-RADIUS, RADIUS + 1) for r in range(_rows(q)[1], _rows(q)[0] - 1, -1))
# The arena has 19 hexes, so names, steps and distances are tabulated once: search resolves
# thousands of turns per decision and these lookups dominated its time (same results).
_AXIAL: dict[str, Axial] = {h: _axial(h) for h in HEXES}


def neighbour(hex_: Axial, direction: int) -> Axial:
    dq, dr = DIRECTIONS[direction % 6]
    return hex_[0] + dq, hex_[1] + dr


def step(hex_name: str, direction: int) -> str | None:
    """The named neighbour in an absolute direction, or None where the wall is."""
    steps = _STEPS.get(hex_name)
    return steps[direction % 6] if steps is not None else _step(hex_name, direction)


def _step(hex_name: str, direction: int) -> str | None:
    nxt = neighbour(axial(hex_name), direction)
    return name(nxt) if in_arena(nxt) else None


def direction_between(a: str, b: str) -> int | None:
    """The facing index from hex ``a`` to the adjacent hex ``b``; None if not adjacent."""
    found = _BETWEEN.get((a, b), -1)
    return found if found != -1 else _direction_between(a, b)


def _direction_between(a: str, b: str) -> int | None:
    qa, ra = axial(a)
    qb, rb = axial(b)
    try:
        return DIRECTIONS.index((qb - qa, rb - ra))
    except ValueError:
        return None


def distance(a: str, b: str) -> int:
    found = _DISTANCES.get((a, b))
    return found if found is not None else _distance(a, b)


def _distance(a: str, b: str) -> int:
    (qa, ra), (qb, rb) = axial(a), axial(b)
    dq, dr = qa - qb, ra - rb
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


_STEPS: dict[str, tuple[str | None, ...]] = {h: tuple(_step(h, d) for d in range(6)) for h in HEXES}
_DISTANCES: dict[tuple[str, str], int] = {(a, b): _distance(a, b) for a in HEXES for b in HEXES}
_BETWEEN: dict[tuple[str, str], int | None] = {(a, b): _direction_between(a, b) for a in HEXES for b in HEXES}
