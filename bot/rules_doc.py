"""The README's "Rules in brief" section, written from the catalogues (both languages), so the
rules a clone carries are the ones players read in /game rules.

    python -m bot.rules_doc          # rewrite the section in README.md
"""

from __future__ import annotations

import sys
from pathlib import Path

from games import all_games

from . import i18n

START, END = "<!-- rules:start (python -m bot.rules_doc) -->", "<!-- rules:end -->"
README = Path(__file__).resolve().parents[1] / "README.md"
LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}


def section() -> str:
    parts = [START]
    for game in all_games():
        if not i18n.has(f"rules.{game.name}.summary"):
            continue
        for lang in ("en", "ja"):
            title = i18n.t(lang, f"game.{game.name}.title")
            keys = [f"rules.{game.name}.{k}" for k in ("summary", "notation", "policies")]
            body = "\n\n".join(i18n.t(lang, k) for k in keys if i18n.has(k))
            parts.append(f"<details><summary>{title} ({LANGUAGE_NAMES[lang]})</summary>\n\n{body}\n\n</details>")
    return "\n\n".join(parts + [END])


def rewritten(text: str) -> str:
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    return head + section() + tail


def main() -> int:
    README.write_text(rewritten(README.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
