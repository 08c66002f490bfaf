"""Japanese and English catalogues for every string a player sees.

Catalogues are Project Fluent files (``.ftl``), one folder per language and one file per area
(``core.ftl``, then one per game), merged at load time. Fluent gives each language its own plural
rules (CLDR, through Babel) and selects: ``{ $count -> [one] 1 game *[other] { $count } games }``.
Keys name areas with dots (``error.not_found``); in the files a dot is written ``--``. A :class:`Text`
is a key plus parameters; it is resolved only at the edge (Discord adapter, local driver), in the
reader's language. Parameters that are themselves Texts are resolved in the same language.

>>> t("ja", "error.not_your_turn") != t("en", "error.not_your_turn")
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from fluent.runtime import FluentBundle, FluentResource
from fluent.runtime.types import fluent_number
from fluent.syntax import FluentParser, FluentSerializer, ast
from fluent.syntax.visitor import Visitor

from .ftl import key_of, pattern_from_format

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
    """Every message of a language: key -> its Fluent source (what follows ``id =`` in the file)."""
    merged: dict[str, str] = {}
    for name, part in catalogue_files(lang).items():
        clash = merged.keys() & part.keys()
        if clash:
            raise ValueError(f"{lang}/{name}.ftl repeats keys: {sorted(clash)}")
        merged.update(part)
    return merged


def extend(lang: str, entries: dict[str, str]) -> None:
    """Add a plugin's strings (e.g. a game shipped outside this package), written as ``str.format``
    templates (``"Score {a} to {b}"``); never overrides."""
    current = catalogue(lang)
    clash = current.keys() & entries.keys()
    if clash:
        raise ValueError(f"plugin strings repeat keys: {sorted(clash)}")
    current.update({key: " " + pattern_from_format(template) for key, template in entries.items()})


def catalogue_files(lang: str) -> dict[str, dict[str, str]]:
    folder = resources.files(__package__) / lang
    return {p.name[:-4]: _messages(p.read_text(encoding="utf-8"), f"{lang}/{p.name}")
            for p in sorted(folder.iterdir(), key=lambda p: p.name) if p.name.endswith(".ftl")}


def _messages(ftl: str, where: str) -> dict[str, str]:
    resource = FluentParser().parse(ftl)
    broken = [entry for entry in resource.body if isinstance(entry, ast.Junk)]
    if broken:
        raise ValueError(f"{where}: not Fluent: {broken[0].content[:80]!r}")
    serializer = FluentSerializer()
    return {key_of(m.id.name): serializer.serialize_entry(m).split("=", 1)[1].rstrip("\n")
            for m in resource.body if isinstance(m, ast.Message)}


def language_of(locale: object) -> str:
    """Discord locale ('ja', 'en-US', discord.Locale.japanese ...) -> catalogue language."""
    text = str(getattr(locale, "value", locale) or "").lower()
    return "ja" if text.startswith("ja") else DEFAULT


def has(key: str) -> bool:
    return key in catalogue(DEFAULT)


def t(lang: str, key: str, **params) -> str:
    """Resolve a key in a language; a missing key falls back to English, then shows the key. A
    parameter the message needs but was not given shows as ``{name}`` (a slip must not crash a reply)."""
    lang = lang if lang in LANGUAGES else DEFAULT
    source = catalogue(lang).get(key)
    if source is None:
        lang, source = DEFAULT, catalogue(DEFAULT).get(key)
    if source is None:
        return key
    plain = _plain(source)
    if plain is not None:  # text and variables only (most messages): joined without Fluent's resolver
        return "".join(part if is_text else _plain_argument(lang, params, part) for is_text, part in plain)
    return _by_fluent(lang, source, params)


def _by_fluent(lang: str, source: str, params: dict) -> str:
    args = {name: "{" + name + "}" for name in placeholders(source)}
    args.update({k: _argument(lang, v) for k, v in params.items()})
    bundle = _compiled(lang, source)
    text, _ = bundle.format_pattern(bundle.get_message("m").value, args)
    return text


@lru_cache(maxsize=None)
def _plain(source: str) -> tuple[tuple[bool, str], ...] | None:
    """A message that is only text and variables, as its parts in order ((True, text) or (False,
    variable name)); None when it selects, calls a function or references another message. Fluent
    would print such a message as its text with each variable's value in place (whole numbers
    without grouping, as ``_argument`` asks), which is what ``t`` then does itself: the catalogues
    are read on every reply, and Fluent's resolver and Babel's number patterns were a tenth of the
    bot's own CPU per action (tests/test_i18n.py holds the two ways equal on every message)."""
    entry = FluentParser().parse("m =" + source).body[0]
    if not isinstance(entry, ast.Message) or entry.value is None or entry.attributes:
        return None
    parts = []
    for element in entry.value.elements:
        if isinstance(element, ast.TextElement):
            parts.append((True, element.value))
        elif isinstance(element, ast.Placeable) and isinstance(element.expression, ast.VariableReference):
            parts.append((False, element.expression.id.name))
        else:
            return None
    return tuple(parts)


def _plain_argument(lang: str, params: dict, name: str) -> str:
    if name not in params:
        return "{" + name + "}"  # a slip shows, as in Fluent's path
    value = params[name]
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return str(_resolve(lang, value))


@lru_cache(maxsize=None)
def _compiled(lang: str, source: str) -> FluentBundle:
    bundle = FluentBundle([lang], use_isolating=False)  # no Unicode isolation marks in Discord text
    bundle.add_resource(FluentResource("m =" + source))
    return bundle


def _argument(lang: str, value: Any) -> Any:
    """A parameter as Fluent takes it: whole numbers stay numbers (plural categories read them)
    but print without grouping (game #12345, not #12,345); everything else as text."""
    if isinstance(value, int) and not isinstance(value, bool):
        return fluent_number(value, useGrouping=False)
    return str(_resolve(lang, value))


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


@lru_cache(maxsize=None)
def placeholders(source: str) -> frozenset[str]:
    """The variables a message's Fluent source reads (``{ $id }`` -> ``id``)."""
    names: set[str] = set()

    class Variables(Visitor):
        def visit_VariableReference(self, node):  # noqa: N802  (fluent.syntax's visitor naming)
            names.add(node.id.name)

    Variables().visit(FluentParser().parse("m =" + source))
    return frozenset(names)
