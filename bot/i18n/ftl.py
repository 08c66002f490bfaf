"""Fluent (Project Fluent's FTL) for the catalogues: message ids, patterns, and the one bridge
from ``str.format`` templates (plugins' strings, and the JSON catalogues this project kept before
it moved to Fluent).

Fluent message ids may not contain dots, which our keys use to name areas (``error.not_found``);
a key's id writes each dot as ``--`` (no key contains ``--``, so the mapping is one to one).
"""

from __future__ import annotations

import re

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_SPECIAL_AT_LINE_START = ("[", "*", ".")


def message_id(key: str) -> str:
    return key.replace(".", "--")


def key_of(message_id_: str) -> str:
    return message_id_.replace("--", ".")


def _literal(text: str) -> str:
    """Text with Fluent's own braces quoted (our templates never use them as text, but be safe)."""
    return text.replace("{", '{"{"}').replace("}", '{"}"}')


def pattern_from_format(template: str) -> str:
    """A ``str.format`` template (``Game #{id}``) as a Fluent pattern (``Game #{ $id }``), written
    so it can follow ``id =`` in an FTL file: continuation lines indented, and a line that would
    read as Fluent syntax (starting with ``[``, ``*`` or ``.``, or blank) quoted."""
    lines = []
    for line in template.split("\n"):
        parts = _PLACEHOLDER.split(line)
        text = "".join(_literal(p) if i % 2 == 0 else f"{{ ${p} }}" for i, p in enumerate(parts))
        if text.startswith(_SPECIAL_AT_LINE_START) or text.startswith(" ") or not text:
            text = f'{{"{text[:1]}"}}{text[1:]}' if text else '{""}'
        if text.endswith(" "):
            text = text.rstrip(" ") + '{" "}' * (len(text) - len(text.rstrip(" ")))
        lines.append(text)
    return "\n    ".join(lines)


def plural_pattern(one: str, other: str, selector: str = "one") -> str:
    """A pattern that reads ``one`` when ``$count`` matches ``selector`` (a plural category of the
    language, CLDR rules through Babel, or an exact number such as ``1``), else ``other``."""
    def variant(pattern: str) -> str:
        return pattern.replace("\n    ", "\n            ")
    return ("\n    { $count ->\n"
            f"        [{selector}] {variant(one)}\n"
            f"       *[other] {variant(other)}\n"
            "    }")
