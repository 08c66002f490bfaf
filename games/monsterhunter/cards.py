"""Monster Hunter TCG data (``data/*.json``, MONSTER_HUNTER.md part 3 and 4): loading, schema
checks, and deck codes.

* ``cards.json``: every card by kind (hunters, monsters, weapons, armours, items), schema 3.2.
* ``decks.json``: one ready deck per hunter (3.6).
* ``sheets.json``: the play sheets, 2-player ("two") and 3-4-player ("ring") sides (4.2).
* ``rules.json``: the rulebook's numbers; option defaults come from here.

Each ``validate_*`` returns a list of problems (empty when valid); :func:`load` refuses a broken
file loudly. A deck is a list of card ids or a **deck code**: ``<id>x<count>`` entries in ascending
id order joined by ``.``:

>>> deck_code(["M01", "A01", "M01"])
'A01x1.M01x2'
>>> deck_problems(ready_deck("H01"))
[]
>>> deck_problems("A01x41")
['mh.deck.size', 'mh.deck.copies']
>>> deck_problems("M01x2..")
['mh.deck.code']
"""

from __future__ import annotations

import json
import re
from collections import Counter, deque
from functools import cache
from importlib import resources

from ..errors import GameError

ICONS = ("meat", "barrel", "ball", "ammo", "bottle", "material", "medicine")
WEAPON_TYPES = ("gs", "ls", "sns", "db", "hm", "lc", "lbg", "hbg", "bow")
KINDS = {"hunters": "H", "monsters": "M", "weapons": "W", "armours": "A", "items": "I"}
EFFECT_N = {"attack_up": (1, 5), "bomb": (1, 5), "capture": (1, 5), "defence_up": (1, 5), "recover": (1, 5),
            "draw": (1, 3), "weak_hit": None, "evade": None}
ATTACK_WINDOW = ("attack_up", "bomb", "capture", "weak_hit", "draw")
DEFENCE_WINDOW = ("defence_up", "evade", "recover")
DATA_FILES = ("cards.json", "decks.json", "sheets.json", "rules.json")
TWO_NODES = ("0", "1", "2", "3", "4")
RING_NODES = ("0", "1", "2")


def _data(name: str) -> object:
    return json.loads((resources.files(__package__) / "data" / name).read_text(encoding="utf-8"))


# ---- schema helpers --------------------------------------------------------------------------------
def _int_in(value, low, high) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _name_problems(where: str, name) -> list[str]:
    if not isinstance(name, dict) or set(name) != {"en", "ja"}:
        return [f"{where}: name must be exactly {{en, ja}}"]
    out = []
    for lang, cap in (("en", 40), ("ja", 20)):
        if not isinstance(name[lang], str) or not 1 <= len(name[lang]) <= cap:
            out.append(f"{where}: name.{lang} must be 1-{cap} characters")
    return out


def _icons_ok(icons) -> bool:
    return (isinstance(icons, list) and 1 <= len(icons) <= 4 and len(set(icons)) == len(icons)
            and all(i in ICONS for i in icons))


# Field name -> check, per kind (3.2).
_FIELDS = {
    "hunters": {"attack": lambda v: _int_in(v, 1, 9), "move": lambda v: _int_in(v, 1, 5),
                "reach": lambda v: _int_in(v, 1, 9), "items": _icons_ok},
    "monsters": {"attack": lambda v: _int_in(v, 0, 9), "reach": lambda v: _int_in(v, 1, 9),
                 "health": lambda v: _int_in(v, 1, 20), "rank": lambda v: _int_in(v, 1, 5),
                 "material": lambda v: _int_in(v, 0, 9),
                 "weak": lambda v: isinstance(v, list) and len(v) <= 3 and len(set(v)) == len(v)
                 and all(w in WEAPON_TYPES for w in v),
                 "main": lambda v: isinstance(v, bool), "unique": lambda v: isinstance(v, bool)},
    "weapons": {"type": lambda v: v in WEAPON_TYPES, "attack": lambda v: _int_in(v, 1, 9),
                "move": lambda v: _int_in(v, 1, 5), "reach": lambda v: _int_in(v, 1, 9), "items": _icons_ok,
                "cost": lambda v: _int_in(v, 0, 12)},
    "armours": {"defence": lambda v: _int_in(v, 1, 9), "cost": lambda v: _int_in(v, 0, 12)},
    "items": {"icons": _icons_ok, "effect": lambda v: _effect_ok(v)},
}
_MINIMUM = {"hunters": 4, "monsters": 16, "weapons": 12, "armours": 6, "items": 12}


def _effect_ok(effect) -> bool:
    if not isinstance(effect, dict) or effect.get("kind") not in EFFECT_N:
        return False
    span = EFFECT_N[effect["kind"]]
    if span is None:
        return set(effect) == {"kind"}
    return set(effect) == {"kind", "n"} and _int_in(effect["n"], *span)


def validate_cards(data: object) -> list[str]:
    """Problems with a cards document (schema 3.2 plus its cross-checks)."""
    if not isinstance(data, dict) or set(data) != set(KINDS):
        return [f"cards must be an object with exactly {sorted(KINDS)}"]
    problems: list[str] = []
    ids: set[str] = set()
    names = {"en": set(), "ja": set()}
    for kind, prefix in KINDS.items():
        cards = data[kind]
        if not isinstance(cards, list) or len(cards) < _MINIMUM[kind]:
            problems.append(f"{kind} must be a list of at least {_MINIMUM[kind]}")
            continue
        for i, card in enumerate(cards):
            where = f"{kind}[{i}]"
            fields = _FIELDS[kind]
            if not isinstance(card, dict) or set(card) != {"id", "name", *fields}:
                problems.append(f"{where}: keys must be exactly {sorted({'id', 'name', *fields})}")
                continue
            cid = card["id"]
            if not isinstance(cid, str) or not re.fullmatch(prefix + r"[0-9]{2}", cid):
                problems.append(f"{where}: id must be {prefix}## (got {cid!r})")
            elif cid in ids:
                problems.append(f"{where}: id {cid} repeats")
            ids.add(cid if isinstance(cid, str) else "")
            problems += _name_problems(where, card["name"])
            if isinstance(card["name"], dict):
                for lang in ("en", "ja"):
                    if card["name"].get(lang) in names[lang]:
                        problems.append(f"{where}: name.{lang} repeats")
                    names[lang].add(card["name"].get(lang))
            for field, ok in fields.items():
                if not ok(card[field]):
                    problems.append(f"{where}: bad {field} {card[field]!r}")
    if problems:
        return problems
    if {w["type"] for w in data["weapons"]} != set(WEAPON_TYPES):
        problems.append("all 9 weapon types must occur among weapons")
    if {i for item in data["items"] for i in item["icons"]} != set(ICONS):
        problems.append("all 7 item icons must occur among items")
    if not any(m["main"] for m in data["monsters"]):
        problems.append("at least one monster must have the main-target icon")
    if not any(m["unique"] for m in data["monsters"]):
        problems.append("at least one monster must be one-copy-in-all-areas")
    return problems


def validate_rules(data: object) -> list[str]:
    keys = {"hand_size", "deck_size", "max_copies", "hr_target", "retreats_to_retire", "area_cap", "weak_bonus",
            "turn_limit", "min_connector_distance_two"}
    if not isinstance(data, dict) or set(data) != keys:
        return [f"rules must have exactly {sorted(keys)}"]
    problems = [f"{k} must be a positive integer" for k in keys - {"area_cap", "weak_bonus"}
                if not _int_in(data[k], 1, 99)]
    if not _int_in(data["weak_bonus"], 0, 5):
        problems.append("weak_bonus must be 0-5")
    cap = data["area_cap"]
    if not isinstance(cap, dict) or set(cap) != {"two", "ring"} or not all(_int_in(v, 1, 9) for v in cap.values()):
        problems.append("area_cap must be {two, ring} positive integers")
    return problems


# ---- sheets ----------------------------------------------------------------------------------------
def sheet_distances(sheet: dict, start: str) -> dict[str, int]:
    """Roads from ``start`` to every node of one sheet, never passing through the camp (G19)."""
    adjacent: dict[str, set[str]] = {}
    for a, b in sheet["roads"]:
        adjacent.setdefault(a, set()).add(b)
        adjacent.setdefault(b, set()).add(a)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if node == "0" and node != start:
            continue  # camps are never crossed
        for nxt in adjacent.get(node, ()):
            if nxt not in dist:
                dist[nxt] = dist[node] + 1
                queue.append(nxt)
    return dist


def _sheet_problems(kind: str, sheet, min_distance: int) -> list[str]:
    where = f"{kind} sheet {sheet.get('id') if isinstance(sheet, dict) else sheet!r}"
    keys = {"id", "name", "cells", "roads", "connectors"} | ({"scenery"} if kind == "ring" else set())
    if not isinstance(sheet, dict) or set(sheet) != keys:
        return [f"{where}: keys must be exactly {sorted(keys)}"]
    problems = _name_problems(where, sheet["name"])
    nodes = TWO_NODES if kind == "two" else RING_NODES
    grid = ([c + r for r in "123" for c in "abc"] if kind == "two" else ["a1", "b1", "a2", "b2"])
    if not re.fullmatch(("2" if kind == "two" else "4") + "[A-Z]", str(sheet["id"])):
        problems.append(f"{where}: bad id")
    cells = sheet["cells"]
    if not isinstance(cells, dict) or tuple(sorted(cells)) != nodes:
        return problems + [f"{where}: cells must name exactly the nodes {nodes}"]
    used = list(cells.values()) + ([sheet["scenery"]] if kind == "ring" else [])
    if any(c not in grid for c in used) or len(set(used)) != len(used):
        problems.append(f"{where}: nodes (and scenery) need distinct cells of the grid")
    if kind == "ring" and len(used) != 4:
        problems.append(f"{where}: the scenery takes the remaining cell")
    roads = sheet["roads"]
    seen = set()
    for road in roads if isinstance(roads, list) else [None]:
        if not isinstance(road, list) or len(road) != 2 or any(n not in nodes for n in road) or road[0] == road[1]:
            problems.append(f"{where}: bad road {road!r}")
            continue
        pair = frozenset(road)
        if pair in seen:
            problems.append(f"{where}: road {road} repeats")
        seen.add(pair)
    if problems:
        return problems
    if set(sheet_distances(sheet, "0")) != set(nodes):
        return problems + [f"{where}: roads must connect every node"]
    areas = [n for n in nodes if n != "0"]
    if set(sheet_distances(sheet, areas[0])) - {"0"} != set(areas):
        problems.append(f"{where}: areas must stay connected without the camp")
    sides = ("L", "R") if kind == "two" else ("N", "E", "S", "W")
    conn = sheet["connectors"]
    if not isinstance(conn, dict) or tuple(sorted(conn)) != tuple(sorted(sides)) or any(
            v not in areas for v in conn.values()):
        return problems + [f"{where}: connectors {sides} must each name an area"]
    if kind == "two":
        if conn["L"] == conn["R"]:
            problems.append(f"{where}: L and R must lead to different areas")
        if cells[conn["L"]] != "a1" or cells[conn["R"]] != "c1":
            problems.append(f"{where}: L must be above column a and R above column c in row 1")
        dist = sheet_distances(sheet, "0")
        if min(dist[conn["L"]], dist[conn["R"]]) < min_distance:
            problems.append(f"{where}: connector areas must be at least {min_distance} from the camp (G27)")
    else:
        touch = {"N": lambda c: c[1] == "1", "S": lambda c: c[1] == "2", "W": lambda c: c[0] == "a",
                 "E": lambda c: c[0] == "b"}
        for side, area in conn.items():
            if not touch[side](cells[area]):
                problems.append(f"{where}: connector {side} must name an area touching that side")
    return problems


def validate_sheets(data: object, min_distance: int = 3) -> list[str]:
    if not isinstance(data, dict) or set(data) != {"two", "ring"}:
        return ["sheets must be an object with exactly 'two' and 'ring'"]
    problems = []
    for kind in ("two", "ring"):
        sheets = data[kind]
        if not isinstance(sheets, list) or len(sheets) < 3:
            problems.append(f"at least 3 {kind} sheets")
            continue
        ids = [s.get("id") if isinstance(s, dict) else None for s in sheets]
        if len(set(ids)) != len(ids):
            problems.append(f"{kind} sheet ids repeat")
        for sheet in sheets:
            problems += _sheet_problems(kind, sheet, min_distance)
    return problems


# ---- decks -----------------------------------------------------------------------------------------
_CODE = re.compile(r"[A-Z][0-9]{2}x[0-9]{1,2}")


def deck_code(cards: list[str]) -> str:
    counts = Counter(cards)
    return ".".join(f"{cid}x{counts[cid]}" for cid in sorted(counts))


def parse_deck_code(code: str) -> list[str] | None:
    """The card ids of a deck code (sorted), or None when it is malformed."""
    parts = code.split(".") if code else []
    if not parts or any(not _CODE.fullmatch(p) for p in parts):
        return None
    ids = [p.split("x")[0] for p in parts]
    if ids != sorted(ids) or len(set(ids)) != len(ids):
        return None
    counts = [int(p.split("x")[1]) for p in parts]
    if any(n < 1 for n in counts):
        return None
    return [cid for cid, n in zip(ids, counts) for _ in range(n)]


def deck_problems(deck: str | list[str]) -> list[str]:
    """Message keys of everything wrong with a deck (G4), empty when it is legal."""
    if isinstance(deck, str):
        parsed = parse_deck_code(deck)
        if parsed is None:
            return ["mh.deck.code"]
        deck = parsed
    rules = load("rules.json")
    known = card_index()
    problems = []
    if len(deck) != rules["deck_size"]:
        problems.append("mh.deck.size")
    if any(n > rules["max_copies"] for n in Counter(deck).values()):
        problems.append("mh.deck.copies")
    if any(known.get(c, {}).get("kind") == "hunters" for c in deck):
        problems.append("mh.deck.hunter")
    if any(c not in known for c in deck):
        problems.append("mh.deck.unknown")
    return problems


def validate_decks(data: object, cards: dict | None = None) -> list[str]:
    cards = cards if cards is not None else load("cards.json")
    if not isinstance(data, dict) or set(data) != {"ready"} or not isinstance(data["ready"], dict):
        return ["decks must be an object with exactly a 'ready' object"]
    hunters = [h["id"] for h in cards["hunters"]]
    problems = []
    if sorted(data["ready"]) != sorted(hunters):
        problems.append("there must be exactly one ready deck per hunter")
    used = set()
    for hid, deck in data["ready"].items():
        if not isinstance(deck, dict) or set(deck) != {"name", "cards"} or not isinstance(deck["cards"], dict):
            problems.append(f"deck {hid}: keys must be exactly name, cards")
            continue
        problems += _name_problems(f"deck {hid}", deck["name"])
        if not all(_int_in(n, 1, 99) for n in deck["cards"].values()):
            problems.append(f"deck {hid}: counts must be positive integers")
            continue
        ids = [cid for cid, n in deck["cards"].items() for _ in range(n)]
        problems += [f"deck {hid}: {key}" for key in deck_problems(ids)]
        used |= set(ids)
    every = {c["id"] for kind in ("monsters", "weapons", "armours", "items") for c in cards[kind]}
    if every - used:
        problems.append(f"cards in no ready deck: {sorted(every - used)}")
    return problems


VALIDATORS = {"cards.json": validate_cards, "decks.json": validate_decks, "sheets.json": validate_sheets,
              "rules.json": validate_rules}


@cache
def load(name: str) -> dict:
    """A data file, checked against its schema (a broken file is refused loudly)."""
    data = _data(name)
    problems = VALIDATORS[name](data)
    if problems:
        raise GameError("mh.bad_data", name=name, problems="; ".join(problems))
    return data  # type: ignore[return-value]


@cache
def card_index() -> dict[str, dict]:
    """Every card by id, each with its ``kind`` (the cards.json list it comes from)."""
    out = {}
    for kind in KINDS:
        for card in _data("cards.json")[kind]:  # raw: deck_problems is used by validate_decks too
            out[card["id"]] = dict(card, kind=kind)
    return out


def card(cid: str) -> dict:
    return card_index()[cid]


def kind_of(cid: str) -> str:
    """'hunters', 'monsters', 'weapons', 'armours' or 'items'."""
    return card_index()[cid]["kind"]


def ready_deck(hunter: str) -> list[str]:
    deck = load("decks.json")["ready"][hunter]["cards"]
    return sorted(cid for cid, n in deck.items() for _ in range(n))


def hunter_ids() -> list[str]:
    return [h["id"] for h in load("cards.json")["hunters"]]


def sheets(kind: str) -> dict[str, dict]:
    return {s["id"]: s for s in load("sheets.json")[kind]}


def rules() -> dict:
    return load("rules.json")


def sort_key(cid: str) -> str:
    """Card lists are written in ascending id order (A < I < M < W)."""
    return cid
