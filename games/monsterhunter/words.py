"""Monster Hunter in words: what buttons, menus, panels and events say instead of notation.

The notation numbers things (``m7``, ``W03``, ``s0``); players read names. Everything here returns
``{"type": t, **params}`` for the catalogue families ``choice.monsterhunter.*`` and
``menu.monsterhunter.*``, or, nested inside those and inside events and panel notes, things said in
words through ``word.monsterhunter.*`` (the service words params by their names: ``_card`` a card's
name, ``_cards`` cards by name and number, ``_terms`` terms, ``seat`` a player):

* a monster as the board draws it: its number, and its card's name when the reader may know it
  (``monster``), else ``monster_down`` (face down) or ``monster_no`` (not on the board);
* a hunter in a hunt's acting order (``hunter``: its player), a camp (``camp``), an area
  (``area``: the board's label);
* a card's numbers in words (``stat_*``, ``effect_*``, ``trait_*``).

>>> choice_words(("hit", "m7", "hit m7 I03 W03"), None)["used_cards"]
['I03', 'W03']
>>> choice_words(("hit", "m7"), {"monsters": [{"id": 7, "up": True, "card": "M05"}]})
{'type': 'target', 'monster': {'type': 'monster', 'id': 7, 'monster_card': 'M05'}}
"""

from __future__ import annotations

from .cards import card, sheet_distances, sheets

SEAT_LETTERS = "ABCD"  # as the images draw seats (tokens, tents)
STEP_VERBS = ("take", "equip", "discard", "deploy", "flip", "hit", "def", "auto")  # actions chosen in steps


def _w(kind: str, **params) -> dict:
    return {"type": kind, **params}


# ---- things --------------------------------------------------------------------------------------------
def monster(m: dict | None, mid: int) -> dict:
    """A monster as the board draws it: its number, with its card's name when ``m`` (a monster of
    the state, or of a view) shows the card."""
    if m is None:
        return _w("monster_no", id=mid)
    if m.get("card") and (m.get("up") or m.get("hidden")):
        return _w("monster", id=m["id"], monster_card=m["card"])
    return _w("monster_down", id=m["id"])


def monster_in(view: dict | None, mid: int) -> dict:
    """Monster ``mid`` as ``view`` (a seat's or the public view; None: no position) shows it."""
    found = next((m for m in (view or {}).get("monsters", ()) if m["id"] == mid), None)
    return monster(found, mid)


def hidden_at(m: dict) -> dict:
    """One of the viewer's own face-down monsters, with its card and area (its owner's panel)."""
    return _w("hidden_monster", id=m["id"], monster_card=m["card"], area=m["area"])


def place(nodes: dict, node: str) -> dict:
    """Where a hunter stands, as the board labels it: a seat's camp (a tent with the seat's
    letter), or an area (``b2``)."""
    spec = nodes.get(node) or {}
    return _w("camp", letter=SEAT_LETTERS[spec["seat"]]) if spec.get("camp") else _w("area", area=node)


def actor(state: dict, name: str) -> dict:
    """An actor of a hunt (``s<seat>`` or ``m<id>``) in words."""
    if name[0] == "s":
        return _w("hunter", seat=int(name[1:]))
    mid = int(name[1:])
    return monster(next((m for m in state["monsters"] if m["id"] == mid), None), mid)


def card_facts(cid: str) -> list[dict]:
    """A card's numbers in words, one part each (the images show them as ``A5 R3 HP8 ★3``); a part
    that lists several things (weak points, item icons) comes last, so its list reads whole."""
    spec = card(cid)
    kind = spec["kind"]
    if kind == "monsters":
        facts = [_w("stat_attack", n=spec["attack"]), _w("stat_reach", n=spec["reach"]),
                 _w("stat_health", n=spec["health"]), _w("stat_rank", n=spec["rank"]),
                 _w("stat_material", n=spec["material"])]
        facts += [_w(f"trait_{t}") for t in ("main", "unique") if spec[t]]
        return facts + [_w("stat_weak", weak_terms=list(spec["weak"]))]
    if kind == "armours":
        return [_w("stat_defence", n=spec["defence"]), _w("stat_cost", n=spec["cost"])]
    if kind == "items":
        effect = spec["effect"]
        return [_w(f"effect_{effect['kind']}", **({"n": effect["n"]} if "n" in effect else {})),
                _w("stat_icons", icons_terms=list(spec["icons"]))]
    facts = [_w("stat_type", type_term=spec["type"])] if kind == "weapons" else []
    facts += [_w("stat_attack", n=spec["attack"]), _w("stat_move", n=spec["move"]), _w("stat_reach", n=spec["reach"])]
    facts += [_w("stat_cost", n=spec["cost"])] if kind == "weapons" else []
    return facts + [_w("stat_icons", icons_terms=list(spec["items"]))]


# ---- choices and menus -----------------------------------------------------------------------------
def choice_words(path: tuple[str, ...], view: dict | None) -> dict | None:
    """Words for the step at the end of ``path`` (a prefix of ``MonsterHunter.action_path``): a
    whole action says all it does (it may stand alone as a button); a step names what it adds."""
    if not path:
        return None
    last = path[-1]
    if " " in last or last in ("go", "stay", "skip"):
        return None if len(path) >= 4 and path[0] == "take" else _action_words(last.split(), view)
    verb = path[0]
    if len(path) == 1:
        return _w(f"verb_{verb}") if verb in STEP_VERBS else None
    if verb == "hit" and len(path) == 2:
        return _w("target", monster=monster_in(view, int(last[1:])))
    if verb == "take" or (len(path) == 2 and verb in ("equip", "deploy")):
        return _w("card", card_card=last, card=last)
    return _w("more_card", card_card=last, card=last)


def choice_facts(path: tuple[str, ...]) -> list[dict]:
    """The numbers a loadout is chosen by: a hunter's (``take H01``: attack, movement, reach,
    item icons), a sheet's (``take H01 2A``: its roads, and how many roads its farthest area lies
    from the camp, where a hunter arrives)."""
    if len(path) < 2 or path[0] != "take":
        return []
    if len(path) == 2:
        return card_facts(path[1])
    sheet_id = path[-1].split()[-1].rstrip("~")
    spec = next((s for kind in ("two", "ring") for s in sheets(kind).values() if s["id"] == sheet_id), None)
    if spec is None:
        return []
    return [_w("sheet_roads", n=len(spec["roads"])), _w("sheet_farthest", n=max(sheet_distances(spec, "0").values()))]


def _action_words(words: list[str], view: dict | None) -> dict | None:
    verb = words[0]
    if verb == "go":
        return _w("go")
    if verb == "stay":
        me = (view or {}).get("me")
        pos = view["seats"][me["seat"]]["pos"] if me else None
        return _w("stay", area=pos) if pos else _w("stay_here")
    if verb == "skip":
        return _w("skip")
    if verb == "take":
        sheet = words[2].rstrip("~")
        return _w(("take", "take_flipped")[words[2].endswith("~")], hunter_card=words[1], hunter=words[1],
                  sheet_sheet=sheet, sheet=sheet)
    if verb == "move":
        return _w("move", area=words[1])
    if verb == "keep":
        return _w("keep", monster=monster_in(view, int(words[1][1:])))
    if verb == "auto":
        return _w("policy", policy_term=words[1].replace(":", "_"))
    if verb in ("discard", "deploy", "def") and words[1:] == ["-"]:
        return _w(f"{verb}_none")
    if verb == "discard":
        return _w("discard", discarded_cards=words[1:])
    if verb == "def":
        return _w("def", used_cards=words[1:])
    if verb == "equip":
        if len(words) == 2:
            return _w("equip_free", card_card=words[1], card=words[1])
        return _w("equip", card_card=words[1], card=words[1], paid_cards=words[2:])
    if verb == "deploy":
        params = {"card_card": words[1], "card": words[1], "area": words[2]}
        if len(words) == 5:  # deploy M03 a1 x m4
            return _w("deploy_replace", **params, monster=monster_in(view, int(words[4][1:])))
        return _w("deploy", **params)
    if verb == "flip":
        mode = {"auto": "flip_auto", "-": "flip_bare"}.get(words[2] if len(words) > 2 else "", "flip")
        return _w(mode, monster=monster_in(view, int(words[1][1:])))
    if verb == "hit":
        target = monster_in(view, int(words[1][1:]))
        return _w("hit", monster=target, used_cards=words[2:]) if words[2:] else _w("hit_bare", monster=target)
    return None


def menu_words(prefix: tuple[str, ...], view: dict | None) -> dict | None:
    """What the menu of next steps below ``prefix`` asks for."""
    if not prefix:
        return _w("root")
    verb = prefix[0]
    if verb == "take":
        return _w("take") if len(prefix) == 1 else _w("take_sheet", hunter_card=prefix[1]) if len(prefix) == 2 else None
    if verb == "equip":
        return _w("equip") if len(prefix) == 1 else _w("equip_pay", card_card=prefix[1])
    if verb == "deploy":
        return _w("deploy") if len(prefix) == 1 else _w("deploy_area", card_card=prefix[1])
    if verb == "hit":
        return _w("hit") if len(prefix) == 1 else _w("hit_cards", monster=monster_in(view, int(prefix[1][1:])))
    if verb in ("discard", "def"):
        return _w(verb if len(prefix) == 1 else f"{verb}_more")
    if verb in ("flip", "auto"):
        return _w(verb)
    return None
