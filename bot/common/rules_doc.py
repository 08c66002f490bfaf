"""The "Rules in brief" section of each game's page (docs/games/<game>.md), written from the
catalogues in both languages, so the rules the docs carry are the ones players read in /game rules.

    python -m bot.common.rules_doc          # rewrite the section in every game's page (a missing page is started)
"""

from __future__ import annotations

import sys
from pathlib import Path

from games import all_games

from .. import i18n

START, END = "<!-- rules:start (python -m bot.common.rules_doc) -->", "<!-- rules:end -->"
GAMES_DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}
# The parts of a game's rules, in the order /game rules shows them; a game may lack the later ones.
# `terms` defines the words its refusals use (tests/test_refusal_terms.py), `legend` the pictures.
PARTS = ("summary", "notation", "policies", "terms", "legend")


def documented_games() -> list:
    """The registered games whose catalogue carries a rules summary (each has a page)."""
    return [game for game in all_games() if i18n.has(f"rules.{game.name}.summary")]


def rules_keys(game) -> list[str]:
    """The catalogue keys of a game's rules page, those it has."""
    return [key for key in (f"rules.{game.name}.{part}" for part in PARTS) if i18n.has(key)]


def rules_text(game, lang: str) -> str:
    """A game's rules page as a reader of that language sees it."""
    return "\n\n".join(i18n.t(lang, key) for key in rules_keys(game))


def page(game) -> Path:
    return GAMES_DOCS / f"{game.name}.md"


def section(game) -> str:
    parts = [START]
    for lang in ("en", "ja"):
        parts.append(f"### {LANGUAGE_NAMES[lang]}\n\n{rules_text(game, lang)}")
    return "\n\n".join(parts + [END])


def rewritten(text: str, game) -> str:
    if START not in text:  # a new game's page: the section goes at the end
        return text.rstrip("\n") + "\n\n## Rules in brief\n" + section(game) + "\n"
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    return head + section(game) + tail


def main() -> int:
    GAMES_DOCS.mkdir(parents=True, exist_ok=True)
    for game in documented_games():
        path = page(game)
        text = path.read_text(encoding="utf-8") if path.exists() else f"# {i18n.t('en', f'game.{game.name}.title')}\n"
        path.write_text(rewritten(text, game), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
