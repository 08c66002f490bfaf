"""Every illegal or malformed input gets a clear, localised answer and changes nothing (issue #29).

From positions of seeded random play, wrong inputs go through the engine as the service sends
them (``canonical`` first, then ``apply``). Each must be either legal (then offered by
``legal_actions``) or refused with a ``GameError`` whose message exists in both catalogues and,
with its params worded as the service words them, leaves no ``{placeholder}`` and names no missing
term or card; never another exception; the state is unchanged either way.

* Monster Hunter: for each verb of the notation (5.8), every slot gets every kind of card id (held
  in hand, in material, not held, unknown), areas, monster instances, sheets and nonsense; words
  are dropped, repeated and added.
* Every game: tokens of its legal actions recombined (a cheap generic fuzz over each notation).
"""

from __future__ import annotations

import json
import re

import pytest

from bot import i18n
from bot.i18n import Text
from bot.service.words import termed
from games import all_games, get_game
from games.errors import GameError
from games.monsterhunter.cards import KINDS, card_index, deck_code, ready_deck
from games.rng import Rng
from tests.playouts import random_states

MH = get_game("monsterhunter")


def catalogued(text: Text) -> list[str]:
    """Keys of a Text and the Texts nested in its params that either catalogue lacks."""
    missing = [text.key for lang in i18n.LANGUAGES if text.key not in i18n.catalogue(lang)]
    for value in text.params.values():
        for v in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(v, Text):
                missing += catalogued(v)
    return missing


def try_input(game, state: dict, seat: int, typed: str) -> str | None:
    """Apply ``typed`` for ``seat`` as the service does; None if it was legal, else the refusal's
    key, after checking that the refusal renders whole in both languages."""
    action = game.canonical(typed)
    try:
        game.apply(state, seat, action)
    except GameError as e:
        text = i18n.T(f"error.{e.key}", **termed(game, e.params))
        assert not catalogued(text), (typed, e.key, catalogued(text))
        for lang in i18n.LANGUAGES:
            assert "{" not in i18n.render(lang, text), (typed, lang, i18n.render(lang, text))
        return e.key
    base = " ".join(action.split()[:3]) if action.startswith("take ") else action  # a custom deck
    assert action in game.legal_actions(state, seat) or base in game.legal_actions(state, seat), typed
    return None


def try_inputs(game, state: dict, seat: int, inputs: list[str]) -> set[str | None]:
    """:func:`try_input` for each input; the state's JSON must be the same after them all (and if
    it is not, the first input that changes it is named)."""
    before = json.dumps(state, sort_keys=True)
    keys = {try_input(game, state, seat, typed) for typed in inputs}
    if json.dumps(state, sort_keys=True) != before:
        for typed in inputs:
            fresh = json.loads(before)
            try_input(game, fresh, seat, typed)
            assert json.dumps(fresh, sort_keys=True) == before, f"{typed!r} changed the state"
    return keys


# ---- Monster Hunter: every kind of word in every slot ----------------------------------------------------
CARD, AREA, MONSTER, SHEET, POLICY, DECK = "<card>", "<area>", "<monster>", "<sheet>", "<policy>", "<deck>"
FORMS = [
    ["take", CARD, SHEET], ["take", CARD, SHEET, DECK],
    ["equip", CARD], ["equip", CARD, CARD], ["equip", CARD, CARD, CARD],
    ["discard", CARD], ["discard", CARD, CARD], ["discard", "-"],
    ["deploy", CARD, AREA], ["deploy", CARD, AREA, "x", MONSTER], ["deploy", "-"],
    ["move", AREA], ["stay"], ["skip"],
    ["flip", MONSTER], ["flip", MONSTER, "auto"], ["flip", MONSTER, "-"],
    ["hit", MONSTER], ["hit", MONSTER, CARD], ["hit", MONSTER, CARD, CARD],
    ["def", CARD], ["def", CARD, CARD], ["def", "-"],
    ["keep", MONSTER], ["auto", POLICY], ["go"],
]
ASKED = {"loadout": {"take"}, "equip": {"equip", "discard"}, "discard": {"discard"}, "deploy": {"deploy"},
         "move": {"move", "stay"}, "attack": {"skip", "flip", "hit"}, "cards": {"hit"}, "defend": {"def"},
         "keep": {"keep"}}
NONSENSE = ["", "-", "x", "auto", "W99", "H00", "m3", "w3", "X01", "m0", "m999", "a0", "z9", "d4", "2Z", "4A~",
            "def:retreat", "atk:maybe", "A01x40", "🙂", "ｗ３", "0"]
FIRST_OF_KIND = {kind: min(c for c, spec in card_index().items() if spec["kind"] == kind) for kind in KINDS}


def mh_words(state: dict, seat: int) -> list[str]:
    """Words for any slot: a card of each kind in hand, in material and not held (a repeat of a held
    card included), own and other areas and camps, the monsters on the map, sheets, policies, decks."""
    s = state["seats"][seat]
    held = s["hand"] + s["material"]
    cards = {min((c for c in pile if card_index()[c]["kind"] == kind), default=None)
             for pile in (s["hand"], s["material"]) for kind in KINDS}
    cards |= {min((c for c in card_index() if card_index()[c]["kind"] == kind and c not in held), default=None)
              for kind in KINDS}
    cards |= set(FIRST_OF_KIND.values())
    letter = "abcd"[seat]
    areas = [f"{letter}1", f"{'abcd'[(seat + 1) % state['players']]}1", f"{letter}2", f"{letter}4"]
    monsters = [f"m{m['id']}" for m in state["monsters"][:4]]
    return sorted(c for c in cards if c) + areas + monsters + ["2A", "4B~", "atk:auto", "def:ask",
                                                                deck_code(ready_deck("H02"))] + NONSENSE


def mh_bases(state: dict, seat: int) -> list[list[str]]:
    """Each form with its slots filled as plausibly as the position allows: a legal action of that
    verb and length; else the words of a legal action of that verb, as far as they go (``equip W05``
    gives ``equip W05 <card>``, so every payment slot is tried after a card that may be equipped);
    else a word of the right sort."""
    legal = [a.split() for a in MH.legal_actions(state, seat)]
    s = state["seats"][seat]
    plain = {CARD: (s["hand"] or ["M01"])[0], AREA: "abcd"[seat] + "1", MONSTER: "m1", SHEET: "2A",
             POLICY: "atk:auto", DECK: deck_code(ready_deck("H01"))}
    out = []
    for form in FORMS:
        same = next((w for w in legal if w[0] == form[0] and len(w) == len(form)), None)
        like = next((w for w in legal if w[0] == form[0]), [])
        out.append(same or [like[j] if j < len(like) else plain.get(w, w) for j, w in enumerate(form)])
    return out


def mh_inputs(state: dict, seat: int) -> list[str]:
    """For the verbs the seat is asked for now: every word in every slot, a word dropped, repeated or
    added. For the other verbs: the plausible form and one wrong word per slot (refused by step)."""
    decision = MH._decision(state, seat)
    asked = ASKED.get(decision["kind"], set()) | {"auto", "go"}
    words = mh_words(state, seat)
    out = []
    for i, base in enumerate(mh_bases(state, seat)):
        variants = [base, base + [base[-1]], base + ["M01"], base[:-1]]
        for slot in range(1, len(base)):
            choices = words if base[0] in asked else [words[(i + slot) % len(words)]]
            variants += [base[:slot] + [w] + base[slot + 1:] for w in choices]
        out += [" ".join(v) for v in variants]
    return out


def mh_positions() -> list[dict]:
    """Positions of real play, a few of each kind of decision."""
    picked, seen = [], {}
    for state in random_states(MH, (2, 3, 4), range(5), steps=400):
        if MH.outcome(state) is not None:
            continue
        kinds = {MH._decision(state, s)["kind"] for s in MH.to_act(state)}
        if any(seen.get(k, 0) < 4 for k in kinds):
            picked.append(state)
            for k in kinds:
                seen[k] = seen.get(k, 0) + 1
    assert {"loadout", "equip", "discard", "deploy", "move", "attack", "defend"} <= set(seen), seen
    return picked


def test_monster_hunter_refuses_every_wrong_word_in_every_slot():
    refusals: set[str | None] = set()
    tried = 0
    for state in mh_positions():
        for seat in sorted(MH.to_act(state)):
            inputs = mh_inputs(state, seat)
            refusals |= try_inputs(MH, state, seat, inputs)
            tried += len(inputs)
    # the precise refusals the wrong kinds of cards earn, not just the step's
    assert {"mh.not_equipment", "mh.not_material", "mh.not_deployable", "mh.not_guard", "mh.bad_card",
            "mh.not_a_hunter", "mh.no_such_area", "mh.not_in_hand"} <= refusals, sorted(map(str, refusals))
    assert tried > 5000


# ---- every game: tokens of its legal actions recombined -------------------------------------------------
TOKEN = re.compile(r"(\s+|[^\w\s]+)")


def recombined(legal: list[str], rng: Rng, n: int) -> list[str]:
    """Legal actions with one token swapped, added or dropped, and runs of random tokens."""
    pool = sorted({t for a in legal for t in TOKEN.split(a) if t})
    out = []
    for _ in range(n):
        tokens = [t for t in TOKEN.split(legal[rng.below(len(legal))]) if t]
        kind = rng.below(4)
        if kind == 0:
            tokens[rng.below(len(tokens))] = rng.choice(pool)
        elif kind == 1:
            tokens.insert(rng.below(len(tokens) + 1), rng.choice(pool))
        elif kind == 2 and len(tokens) > 1:
            del tokens[rng.below(len(tokens))]
        else:
            tokens = [rng.choice(pool) for _ in range(1 + rng.below(6))]
        out.append("".join(tokens))
    return out


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_recombined_notation_is_refused_clearly(game):
    rng = Rng(29)
    tried = 0
    counts = game.player_counts()
    for state in random_states(game, (counts[0], counts[-1]), range(2), steps=60):
        if game.outcome(state) is not None:
            continue
        for seat in sorted(game.to_act(state)):
            inputs = recombined(game.legal_actions(state, seat), rng, 12)
            try_inputs(game, state, seat, inputs)
            tried += len(inputs)
    assert tried > 500

