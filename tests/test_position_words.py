"""The position in words (the board image's alt text, issue #18): for every game and player count,
over random playouts, each position's description renders in both languages through catalogue
entries that exist, fits Discord's 1,024 characters of alt text, names no engine identifier, and
says nothing a re-deal of the hidden things would change."""

from __future__ import annotations

import re

import pytest

from bot import i18n
from bot.i18n import Text, render
from bot.service.words import ALT_TEXT_LIMIT, position_words
from games import all_games, get_game
from games.rng import Rng

POSITIONS = 200
EVERY = 3          # keep every third position of a playout, so late crowded boards are reached
MAX_ACTIONS = 800  # a playout stops here even without an outcome

CASES = [(g.name, n) for g in all_games() for n in g.player_counts()]


def playout_positions(game, players: int, count: int, seed: int = 1) -> list[dict]:
    """``count`` states from random playouts (whole games, several seeds), beginning to end."""
    states: list[dict] = []
    rng = Rng(seed)
    game_seed = seed
    while len(states) < count:
        state = game.setup(players, {}, seed=game_seed)
        game_seed += 1
        for step in range(MAX_ACTIONS):
            if step % EVERY == 0:
                states.append(state)
            if game.outcome(state) is not None:
                states.append(state)
                break
            seat = sorted(game.to_act(state))[0]
            legal = game.legal_actions(state, seat)
            state, _ = game.apply(state, seat, legal[rng.below(len(legal))])
    return states[:count]


def alt_text(texts: list[Text], lang: str) -> str:
    return " ".join(render(lang, t) for t in texts)


def keys_of(value) -> list[str]:
    """Every catalogue key a Text uses, nested params included."""
    if isinstance(value, Text):
        return [value.key] + [k for v in value.params.values() for k in keys_of(v)]
    if isinstance(value, (list, tuple)):
        return [k for v in value for k in keys_of(v)]
    return []


def leaked(text: str, identifiers: frozenset[str]) -> list[str]:
    return [w for w in identifiers if re.search(rf"(?<![\w`]){re.escape(w)}(?![\w`])", text)]


@pytest.mark.parametrize(("game_name", "players"), CASES)
def test_every_game_describes_its_position_within_alt_text_limits(game_name, players):
    game = get_game(game_name)
    longest = {"en": 0, "ja": 0}
    for state in playout_positions(game, players, POSITIONS):
        for seat in [None] + list(range(players)):
            texts = position_words(game, game.view(state, seat))
            assert texts, "a game describes its own position"
            missing = [k for k in keys_of(texts) if not i18n.has(k)]
            assert not missing, missing
            for lang in ("en", "ja"):
                shown = alt_text(texts, lang)
                longest[lang] = max(longest[lang], len(shown))
                assert len(shown) <= ALT_TEXT_LIMIT, (lang, len(shown), shown)
                assert "{" not in shown, shown  # every placeholder filled
                assert not leaked(shown, game.identifiers()), (lang, shown)
    assert min(longest.values()) > 40  # the words describe something, not just a title


@pytest.mark.parametrize(("game_name", "players"), [c for c in CASES if get_game(c[0]).hidden_information])
def test_the_description_says_nothing_hidden(game_name, players):
    """Re-dealing what a viewer cannot see changes nothing in the words it is given."""
    game = get_game(game_name)
    rng = Rng(7)
    for state in playout_positions(game, players, POSITIONS // 2, seed=3):
        for seat in [None] + list(range(players)):
            scrambled = game.scramble_hidden(state, seat, rng)
            assert game.describe_position(game.view(state, seat)) == \
                game.describe_position(game.view(scrambled, seat))


def test_the_public_description_names_no_face_down_monster_even_for_its_owner():
    """Monster Hunter: the owner's view knows its face-down cards; the words never say them."""
    game = get_game("monsterhunter")
    for state in playout_positions(game, 3, 60, seed=5):
        for seat in range(3):
            view = game.view(state, seat)
            hidden = {m["card"] for m in view["monsters"] if not m["up"] and "card" in m}
            up = {m["card"] for m in view["monsters"] if m["up"]}
            said = repr(game.describe_position(view))
            assert not any(f"'{card}'" in said for card in hidden - up), said


def crowded_hostile_view() -> dict:
    """A 2 vs 2 HOSTILE board fuller than play makes it: every floor tile placed, gems on every
    other square, full hands of the longest names, a full line."""
    from games.hostile.tiles import floor_kinds

    game = get_game("hostile")
    view = game.view(game.setup(4, {}, 3), None)
    free = [f"{c}{r}" for r in range(1, 9) for c in "ABCDEFGH" if f"{c}{r}" not in ("A1", "A8", "H8", "H1")]
    tiles = [(kind, spec) for kind, spec in floor_kinds().items() for _ in range(spec.count)]
    view["tiles"] = [{"square": sq, "kind": kind, "orient": spec.orientations[i % len(spec.orientations)],
                      "effect": spec.effect, "closed": ""} for i, (sq, (kind, spec)) in enumerate(zip(free, tiles))]
    view["gems"] = {sq: 1 + i % 3 for i, sq in enumerate(free) if i % 2 == 0}
    view["hands"] = [["diag", "para", "lwall", "C2"]] * 4
    view["skills"] = ["rotate", "recall", "steal", "quick"]
    view["line"] = {"gems": ["B2", "C3"], "floor": list(floor_kinds()) + ["diag", "para"]}
    return view


def test_a_board_too_crowded_for_the_limit_is_cut_short_in_every_language():
    game = get_game("hostile")
    view = crowded_hostile_view()
    full = alt_text(position_words(game, view, limit=10**6), "en")
    assert len(full) > ALT_TEXT_LIMIT   # the case is real: said in full it would not fit
    texts = position_words(game, view)
    for lang in ("en", "ja"):
        shown = alt_text(texts, lang)
        assert len(shown) <= ALT_TEXT_LIMIT, (lang, len(shown))
        assert re.search(r"\+\d+ more" if lang == "en" else r"ほか\d+件", shown), shown
    # every sentence is still there, only lists got shorter
    assert [t.key for t in texts] == [t.key for t in position_words(game, view, limit=10**6)]


def test_cutting_keeps_each_list_s_first_items_and_counts_the_rest():
    game = get_game("squares")
    view = game.view(playout_positions(game, 2, 40)[-1], None)
    full = position_words(game, view, limit=10**6)
    limit = max(len(alt_text(full, lang)) for lang in ("en", "ja")) - 60
    texts = position_words(game, view, limit=limit)
    for lang, more in (("en", r"\+\d+ more"), ("ja", r"ほか\d+件")):
        shown = alt_text(texts, lang)
        assert len(shown) <= limit and re.search(more, shown), shown
    cut = next(i for i, (a, b) in enumerate(zip(full, texts)) if a != b)
    kept = [p for p in texts[cut].params["pieces"] if p.key != "alt.more"]
    assert kept == full[cut].params["pieces"][:len(kept)]   # the first items, in order
    more = texts[cut].params["pieces"][-1].params["count"]
    assert len(kept) + more == len(full[cut].params["pieces"])   # and the count of the rest
