"""Game terms in words: engines name things by identifiers; players read catalogue words. Also
the position in words, a board image's alt text (:func:`position_words`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from games import Game
from renderers.common import player_style

from .. import i18n
from ..i18n import T, Text


def termed(game: Game, params: dict, seat_words: Callable[[int], object] | None = None) -> dict:
    """Params in words, by what their names end with (see :func:`worded`); ``seat_words`` says a
    seat number (params ``seat``, ``*_seat``, ``*_seats``) as the caller names players."""
    return {k: worded(game, k, v, seat_words) for k, v in params.items()}


def worded(game: Game, key: str, value, seat_words: Callable[[int], object] | None = None):
    """One param in words. A dict with a ``type`` is a thing named in words (a monster, a camp, a
    card's numbers): ``word.<game>.<type>``, its own params worded alike; a list, each item alike;
    seats through ``seat_words``; the rest by :func:`_term_or_card`."""
    if isinstance(value, dict) and "type" in value:
        inner = {k: v for k, v in value.items() if k != "type"}
        return T(f"word.{game.name}.{value['type']}", **termed(game, inner, seat_words))
    if seat_words is not None and _names_seats(key, value):
        return [seat_words(v) for v in value] if isinstance(value, list) else seat_words(value)
    if isinstance(value, list) and not key.endswith(("_cards", "_terms")):
        return [worded(game, key, v, seat_words) for v in value]
    return _term_or_card(game, key, value)


def _names_seats(key: str, value) -> bool:
    if not (key == "seat" or key.endswith(("_seat", "seats"))):
        return False
    items = value if isinstance(value, list) else [value]
    return all(isinstance(v, int) and not isinstance(v, bool) for v in items)


def _term_or_card(game: Game, key: str, value):
    """By the param's name: ``_term`` a game term (``term.<game>.<value>``), ``_terms`` a list of
    them; ``_card`` a card by its name (``mh.card.<id>``, the card catalogue's names: Monster
    Hunter's cards), ``_cards`` a list of cards by name and number, repeats counted ("Wren Talons
    (W04) ×2"); ``_sheet`` a play sheet by its name; ``_phase`` a step of the round."""
    if key.endswith("_term") and isinstance(value, str):
        return T(f"term.{game.name}.{value}")
    if key.endswith("_terms") and isinstance(value, list):
        return [T(f"term.{game.name}.{v}") for v in value] or T("list.nothing")
    if key.endswith("_card") and isinstance(value, str):
        return T(f"mh.card.{value}")
    if key.endswith("_cards") and isinstance(value, list):
        return [T("mh.named_cards" if n > 1 else "mh.named_card", name=T(f"mh.card.{c}"), id=c, count=n)
                for c, n in Counter(value).items()] or T("list.nothing")
    if key.endswith("_sheet") and isinstance(value, str):
        return T(f"mh.sheet.{value}")
    if key.endswith("_phase") and isinstance(value, str):
        return T(f"phase.{game.name}.{value}")
    return value


ALT_TEXT_LIMIT = 1024  # Discord's limit on a media item's description


def position_words(game: Game, view: dict, limit: int = ALT_TEXT_LIMIT) -> list[Text]:
    """The position in ``view`` in words, one Text a sentence, for the board image's alt text (a
    screen reader follows the game by them). Empty when the game describes nothing itself.

    Joined by spaces (or line breaks) they fit in ``limit`` characters in every language: on a
    crowded board the longest lists (gems, tiles...) are cut short, ending in "+N more"."""
    events = [dict(e) for e in game.describe_position(view)]
    texts = [_alt_text(game, e) for e in events]
    while _longest(texts) > limit:
        place = _longest_list(game, events)
        if place is None:  # nothing left to shorten (no game says this much without a list)
            break
        i, key = place
        items, more = _split_more(events[i][key])
        events[i][key] = items[:-1] + [{"type": "__more", "count": more + 1}]
        texts[i] = _alt_text(game, events[i])
    return texts


def _longest(texts: list[Text]) -> int:
    return max((len(" ".join(i18n.render(lang, t) for t in texts)) for lang in i18n.LANGUAGES), default=0)


def _split_more(value: list) -> tuple[list, int]:
    """A list param's own items and how many were already cut ("+N more" at its end)."""
    if value and isinstance(value[-1], dict) and value[-1].get("type") == "__more":
        return value[:-1], value[-1]["count"]
    return list(value), 0


def _longest_list(game: Game, events: list[dict]) -> tuple[int, str] | None:
    """Where the longest list of two or more items is (event index, param), by its English words."""
    best, where = 0, None
    for i, event in enumerate(events):
        for key, value in event.items():
            if not isinstance(value, list) or key.endswith("seats"):  # who is named is never cut
                continue
            items, _ = _split_more(value)
            if len(items) < 2:
                continue
            size = sum(len(i18n.render("en", v)) if isinstance(v, Text) else len(str(v))
                       for v in _alt_param(game, key, value))
            if size > best:
                best, where = size, (i, key)
    return where


def _alt_text(game: Game, event: dict) -> Text:
    params = {k: _alt_param(game, k, v) for k, v in event.items() if k != "type"}
    return T(f"alt.{game.name}.{event['type']}", **params)


def _alt_param(game: Game, key: str, value):
    """A describing event's parameter in words: a seat number as its letter and colour, a game
    term through its catalogue word, a step of the round through its ``phase`` words, a card id
    through its name, a nested event (or a list of them: pieces, figures) as its own ``alt``
    sentence part."""
    if isinstance(value, dict) and value.get("type") == "__more":
        return T("alt.more", count=value["count"])
    if isinstance(value, dict) and "type" in value:
        return _alt_text(game, value)
    if isinstance(value, list) and not key.endswith(("_cards", "_terms")):
        return [_alt_param(game, key, v) for v in value]
    if key.endswith(("seat", "seats")) and isinstance(value, int):
        return alt_seat(value)
    return _term_or_card(game, key, value)


def alt_seat(seat: int) -> Text:
    """A seat in an image's alt text: letter and colour, no markdown (a screen reader reads it)."""
    style = player_style(seat)
    return T("alt.seat", letter=style.letter, colour=T(f"colour.{style.name}"))
