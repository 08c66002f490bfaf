"""The Monster Hunter action notation (MONSTER_HUNTER.md 5.8): parsing and normalising.

One line per action; keywords lower case, card ids upper case (``W03``), areas and monster
instances lower case (``b2``, ``m7``); card lists in ascending id order, repeats allowed.

==========================================  =====  ==============================================
form                                        step   meaning
==========================================  =====  ==============================================
``take H## <sheet>[~] [<deck code>]``       L      hunter, sheet (``~`` flipped, ring sheets),
                                                   ready deck of that hunter or a deck code
``equip <W##|A##> [M## ...]``               P      equip from hand paying with material cards
``discard -`` / ``discard <card> ...``      P      hand-phase discard (ends the equip stage)
``deploy -`` / ``deploy M## <area>``        P      deploy face down; ``x m<id>`` replaces a face-up
``deploy M## <area> x m<id>``                      monster on a full sheet
``move <area>`` / ``stay``                  M      move the hunter / stay on its area
``skip``                                    H      do not attack (every monster there face down)
``flip m<id> [auto|-]``                     H      attack a face-down monster; then ask / autopilot /
                                                   no cards
``hit m<id> [<card> ...]``                  H      hit a face-up monster spending these cards
``def -`` / ``def <card> ...``              H      spend armour and items against a monster attack
``keep m<id>``                              K      the main-target monster that survives
``auto <policy>:<value>``                   any    standing policy: atk ask|auto, def ask|none|
                                                   retreat|block, keep ask|auto, disc ask|none
``go``                                      any    the autopilot's answer for this decision
==========================================  =====  ==============================================

>>> canonical("HIT M7 w3, i3 w3")
'hit m7 I03 W03 W03'
>>> canonical("move stay"), canonical("def"), canonical("deploy m3 A1 X M4")
('stay', 'def -', 'deploy M03 a1 x m4')
>>> parse("take H02 4C~")
('take', 'H02', '4C', True, None)
"""

from __future__ import annotations

import re

from ..errors import NotationError
from .cards import card_index
from .model import POLICY_VALUES

CARD = re.compile(r"^[AHIMW][0-9]{2}$")
AREA = re.compile(r"^[a-d][0-4]$")
MONSTER = re.compile(r"^m[0-9]{1,4}$")
SHEET = re.compile(r"^[24][A-Z]~?$")
LIST_FORMS = ("discard", "deploy", "def")


def _card(word: str) -> str:
    """'w3' -> 'W03'; anything else upper-cased as typed."""
    m = re.fullmatch(r"([aAhHiImMwW])0*([0-9]{1,2})", word)
    return f"{m.group(1).upper()}{int(m.group(2)):02d}" if m else word.upper()


def _monster(word: str) -> str:
    m = re.fullmatch(r"[mM]0*([0-9]{1,4})", word)
    return f"m{int(m.group(1))}" if m else word.lower()


def _deck_code(word: str) -> str:
    parts = word.split(".")
    out = []
    for p in parts:
        m = re.fullmatch(r"([a-zA-Z])0*([0-9]{1,2})[xX]([0-9]{1,2})", p)
        out.append(f"{m.group(1).upper()}{int(m.group(2)):02d}x{int(m.group(3))}" if m else p)
    return ".".join(out)


def canonical(text: str) -> str:
    """Normalise what a person typed to the notation ``legal_actions`` uses (best effort)."""
    words = text.replace(",", " ").split()
    if not words:
        return ""
    verb = words[0].lower()
    rest = words[1:]
    if verb == "move" and (not rest or rest[0].lower() in ("-", "stay")):
        return "stay"
    if verb in LIST_FORMS and (not rest or rest[0].lower() in ("-", "none")):
        return f"{verb} -"
    if verb == "take" and len(rest) >= 2:
        return " ".join(["take", _card(rest[0]), rest[1].upper(), *(_deck_code(w) for w in rest[2:])])
    if verb in ("hit", "flip", "keep") and rest:
        tail = [w.lower() for w in rest[1:]] if verb == "flip" else sorted(_card(w) for w in rest[1:])
        return " ".join([verb, _monster(rest[0]), *tail])
    if verb == "deploy":
        head = [_card(rest[0])] + [w.lower() for w in rest[1:2]]
        tail = ["x", _monster(rest[3])] if len(rest) == 4 and rest[2].lower() == "x" else [w.lower() for w in rest[2:]]
        return " ".join(["deploy", *head, *tail])
    if verb == "equip" and rest:
        return " ".join(["equip", _card(rest[0]), *sorted(_card(w) for w in rest[1:])])
    if verb in ("discard", "def"):
        return " ".join([verb, *sorted(_card(w) for w in rest)])
    return " ".join([verb, *(w.lower() for w in rest)])


def _cards(words: list[str]) -> list[str]:
    """Card ids of the pool (``W99`` is shaped like one but names no card: refused here, so no rule
    below ever looks up a card that does not exist)."""
    bad = next((w for w in words if not CARD.match(w) or w not in card_index()), None)
    if bad is not None:
        raise NotationError("mh.bad_card", card=bad)
    return words


def _mon(word: str) -> int:
    if not MONSTER.match(word):
        raise NotationError("mh.bad_monster", monster=word)
    return int(word[1:])


def parse(action: str) -> tuple:
    """The action as a tuple, or NotationError (keys ``mh.bad_form``, ``mh.bad_card``,
    ``mh.bad_area``, ``mh.bad_monster``). Expects canonical text."""
    words = action.split()
    if not words:
        raise NotationError("mh.bad_form", action=action)
    verb, rest = words[0], words[1:]
    if verb == "go" and not rest:
        return ("go",)
    if verb == "skip" and not rest:
        return ("skip",)
    if verb == "stay" and not rest:
        return ("move", None)
    if verb == "move" and len(rest) == 1:
        if not AREA.match(rest[0]) or rest[0].endswith("0"):
            raise NotationError("mh.bad_area", area=rest[0])
        return ("move", rest[0])
    if verb == "take" and len(rest) in (2, 3):
        _cards(rest[:1])
        if not SHEET.match(rest[1]):
            raise NotationError("mh.bad_form", action=action)
        return ("take", rest[0], rest[1].rstrip("~"), rest[1].endswith("~"), rest[2] if len(rest) == 3 else None)
    if verb == "equip" and rest:
        return ("equip", *_cards(rest[:1]), _cards(rest[1:]))
    if verb in ("discard", "def") and rest:
        return (verb, [] if rest == ["-"] else _cards(rest))
    if verb == "deploy" and rest:
        if rest == ["-"]:
            return ("deploy", None, None, None)
        if len(rest) in (2, 4):
            _cards(rest[:1])
            if not AREA.match(rest[1]) or rest[1].endswith("0"):
                raise NotationError("mh.bad_area", area=rest[1])
            if len(rest) == 4:
                if rest[2] != "x":
                    raise NotationError("mh.bad_form", action=action)
                return ("deploy", rest[0], rest[1], _mon(rest[3]))
            return ("deploy", rest[0], rest[1], None)
    if verb == "flip" and len(rest) in (1, 2):
        if len(rest) == 2 and rest[1] not in ("auto", "-"):
            raise NotationError("mh.bad_form", action=action)
        return ("flip", _mon(rest[0]), (rest + ["ask"])[1])
    if verb == "hit" and rest:
        return ("hit", _mon(rest[0]), _cards(rest[1:]))
    if verb == "keep" and len(rest) == 1:
        return ("keep", _mon(rest[0]))
    if verb == "auto" and len(rest) == 1 and ":" in rest[0]:
        key, value = rest[0].split(":", 1)
        if value in POLICY_VALUES.get(key, ()):
            return ("auto", key, value)
    raise NotationError("mh.bad_form", action=action)
