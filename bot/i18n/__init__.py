"""Japanese and English catalogues for every string a player sees.

Catalogues are flat JSON files ``{key: template}`` with ``{name}`` placeholders, one folder per
language and one file per area (``core.json``, then one per game), merged at load time. A :class:`Text`
is a key plus parameters; it is resolved only at the edge (Discord adapter, local driver), in the
reader's language. Parameters that are themselves Texts are resolved in the same language.

>>> t("ja", "error.not_your_turn") != t("en", "error.not_your_turn")
True
"""

from __future__ import annotations

import json
import string
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "ja")
DEFAULT = "en"


@dataclass(frozen=True)
class Text:
    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def __hash__(self):
        return hash((self.key, tuple(sorted(map(str, self.params.items())))))


def T(key: str, **params) -> Text:  # noqa: N802  (reads like a constructor)
    return Text(key, params)


@cache
def catalogue(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for name, part in catalogue_files(lang).items():
        clash = merged.keys() & part.keys()
        if clash:
            raise ValueError(f"{lang}/{name}.json repeats keys: {sorted(clash)}")
        merged.update(part)
    return merged


def extend(lang: str, entries: dict[str, str]) -> None:
    """Add a plugin's strings (e.g. a game shipped outside this package); never overrides."""
    current = catalogue(lang)
    clash = current.keys() & entries.keys()
    if clash:
        raise ValueError(f"plugin strings repeat keys: {sorted(clash)}")
    current.update(entries)


def catalogue_files(lang: str) -> dict[str, dict[str, str]]:
    folder = resources.files(__package__) / lang
    return {p.name[:-5]: json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(folder.iterdir(), key=lambda p: p.name) if p.name.endswith(".json")}


def language_of(locale: object) -> str:
    """Discord locale ('ja', 'en-US', discord.Locale.japanese ...) -> catalogue language."""
    text = str(getattr(locale, "value", locale) or "").lower()
    return "ja" if text.startswith("ja") else DEFAULT


def has(key: str) -> bool:
    return key in catalogue(DEFAULT)


def t(lang: str, key: str, **params) -> str:
    """Resolve a key in a language; a missing key falls back to English, then shows the key."""
    lang = lang if lang in LANGUAGES else DEFAULT
    if params.get("count") == 1 and f"{key}.one" in catalogue(lang):  # "1 action", not "1 actions"
        key = f"{key}.one"
    template = catalogue(lang).get(key) or catalogue(DEFAULT).get(key)
    if template is None:
        return key
    resolved = {k: _resolve(lang, v) for k, v in params.items()}
    return template.format_map(_Lenient(resolved))


def _resolve(lang: str, value: Any) -> Any:
    """Texts render in the reader's language; lists (of names, say) join with the language's
    separator (", " in English, "、" in Japanese)."""
    if isinstance(value, Text):
        return render(lang, value)
    if isinstance(value, (list, tuple)):
        return t(lang, "list.separator").join(str(_resolve(lang, v)) for v in value) or "-"
    return value


def render(lang: str, text: Text | str) -> str:
    if isinstance(text, str):
        return text
    return t(lang, text.key, **text.params)


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class _Lenient(dict):
    """A missing parameter shows as {name} instead of crashing a reply."""

    def __missing__(self, key):
        return "{" + key + "}"
