"""Sheets joined into one map (MONSTER_HUNTER.md 4.4) and distances on it (G19).

Node ids are the seat letter plus the sheet's node: ``a0`` is seat 0's camp, ``a1``-``a4`` (two)
or ``a1``-``a2`` (ring) its areas.

>>> m = build_map("two", [("2A", False), ("2C", False)])
>>> m["joins"]
[['a1', 'b2'], ['a2', 'b1']]
>>> reachable(m["roads"], "a0", 3) == {"a3": 1, "a4": 2, "a1": 3, "a2": 3}
True
>>> build_map("ring", [("4A", False), ("4B", False), ("4C", False)])["joins"]
[['a1', 'b2'], ['b2', 'c1'], ['c2', 'a2']]
"""

from __future__ import annotations

from collections import deque

from .cards import sheets

LETTERS = "abcd"
RING_SLOTS = ("TL", "TR", "BR", "BL")


def node(seat: int, n: str | int) -> str:
    return f"{LETTERS[seat]}{n}"


def seat_of(node_id: str) -> int:
    return LETTERS.index(node_id[0])


def is_camp(node_id: str) -> bool:
    return node_id[1:] == "0"


def build_map(kind: str, layout: list[tuple[str, bool]]) -> dict:
    """Roads of every sheet with seat-prefixed ids, plus the joining roads between sheets."""
    specs = sheets(kind)
    roads: list[list[str]] = []
    nodes: dict[str, dict] = {}
    for seat, (sid, _flipped) in enumerate(layout):
        sheet = specs[sid]
        for n, cell in sorted(sheet["cells"].items()):
            nodes[node(seat, n)] = ({"seat": seat, "camp": True, "cell": cell} if n == "0"
                                    else {"seat": seat, "area": int(n), "cell": cell})
        roads += [sorted([node(seat, a), node(seat, b)]) for a, b in sheet["roads"]]
    joins: list[list[str]] = []
    n = len(layout)
    if kind == "two":
        (sa, _), (sb, _) = layout
        a, b = specs[sa]["connectors"], specs[sb]["connectors"]
        joins = [[node(0, a["L"]), node(1, b["R"])], [node(0, a["R"]), node(1, b["L"])]]
    else:
        for seat in range(n):
            nxt = (seat + 1) % n
            out_side = "W" if layout[seat][1] else "E"
            in_side = "N" if layout[nxt][1] else "S"
            joins.append([node(seat, specs[layout[seat][0]]["connectors"][out_side]),
                          node(nxt, specs[layout[nxt][0]]["connectors"][in_side])])
    return {"kind": kind, "nodes": nodes, "roads": sorted(roads + [sorted(j) for j in joins]), "joins": joins,
            "sheets": [{"seat": s, "layout": sid, "flipped": fl,
                        "slot": ("B" if s == 0 else "T") if kind == "two" else RING_SLOTS[s],
                        "turn": (180 * s if kind == "two" else (90 * s + (180 if fl else 0)) % 360)}
                       for s, (sid, fl) in enumerate(layout)]}


def adjacency(roads: list[list[str]]) -> dict[str, list[str]]:
    adjacent: dict[str, list[str]] = {}
    for a, b in roads:
        adjacent.setdefault(a, []).append(b)
        adjacent.setdefault(b, []).append(a)
    return adjacent


def reachable(roads: list[list[str]], start: str, steps: int) -> dict[str, int]:
    """Areas within ``steps`` roads of ``start`` (excluding it): camps are never entered nor crossed."""
    adjacent = adjacency(roads)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if dist[here] >= steps:
            continue
        for nxt in adjacent.get(here, ()):
            if nxt not in dist and not is_camp(nxt):
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return {k: v for k, v in dist.items() if k != start}
