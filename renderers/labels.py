"""The words a board writes, in its reader's language: Monster Hunter's card and sheet names (the
game's own data files) and HOSTILE's skill names (``labels.json``, the rulebook's terms, the same
as the catalogues' ``term.hostile.*``: tests/test_words_on_images.py holds them together).

Renderers take a ``lang`` display option ("en" or "ja"); everything else on a board is numbers,
coordinates and drawn symbols, the same in every language. :func:`drawable_texts` lists every
string the renderers can write in a language: the Japanese font subset is made from it
(renderers/fonts/make_subset.py) and tested against it.

>>> card_name("M05", "ja"), skill_name("king", "en")
('イバラジシ', 'King')
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "ja")


def language(lang: str | None) -> str:
    """``lang`` if the images speak it, else English (a reader's Discord locale may be anything)."""
    return lang if lang in LANGUAGES else "en"


@cache
def _labels() -> dict:
    return json.loads((Path(__file__).parent / "labels.json").read_text(encoding="utf-8"))


def skill_name(skill: str, lang: str = "en") -> str:
    return _labels()["hostile"]["skills"][skill][language(lang)]


def card_name(cid: str, lang: str = "en") -> str:
    from games.monsterhunter.cards import card
    return card(cid)["name"][language(lang)]


def sheet_name(kind: str, layout: str, lang: str = "en") -> str:
    from games.monsterhunter.cards import sheets
    return sheets(kind)[layout]["name"][language(lang)]


def drawable_texts(lang: str) -> list[str]:
    """Every name a renderer can draw in ``lang`` (numbers, coordinates and letters besides)."""
    from games.monsterhunter.cards import card_index, sheets
    out = [c["name"][lang] for c in card_index().values()]
    out += [s["name"][lang] for kind in ("two", "ring") for s in sheets(kind).values()]
    out += [names[lang] for names in _labels()["hostile"]["skills"].values()]
    return out
