"""Catalogue text as a web page shows it: Discord's markup (mentions, timestamps, bold) said in
plain words, in the viewer's language. The page escapes everything it is given; times are left as
``{{t:EPOCH}}`` for the browser to format in the viewer's own time zone (Intl)."""

from __future__ import annotations

import re

from ..i18n import LANGUAGES, T, Text, language_of, render

MENTION = re.compile(r"<@!?(\d+)>")
TIMESTAMP = re.compile(r"<t:(-?\d+)(?::[tTdDfFR])?>")
CHANNEL = re.compile(r"<#\d+>")


def say(lang: str, text: Text | str | None, names: dict[int, str] | None = None) -> str | None:
    """One line for the page; ``names`` says who a mention is (the seats' marks), else "a player"."""
    if text is None:
        return None
    line = render(lang, text).replace("**", "").replace("__", "")
    line = mentions_named(line, names or {}, render(lang, T("web.someone")))
    line = TIMESTAMP.sub(lambda m: "{{t:" + m[1] + "}}", line)
    return CHANNEL.sub(render(lang, T("web.the_channel")), line)


def mentions_named(line: str, names: dict[int, str], someone: str) -> str:
    """Each mention said as its name; where the line already put the seat's mark before it ("B ■
    <@5>") and the name begins with that mark ("B ■ orange"), the mark is said once."""
    out, start = [], 0
    for m in MENTION.finditer(line):
        before, name = line[start:m.start()], names.get(int(m[1]))
        if name:
            words = name.split(" ")
            for k in range(len(words) - 1, 0, -1):
                said = " ".join(words[:k]) + " "
                if before.endswith(said):
                    before = before[:-len(said)]
                    break
        out += [before, name or someone]
        start = m.end()
    return "".join(out) + line[start:]


def say_all(lang: str, lines, names: dict[int, str] | None = None) -> list[str]:
    return [s for line in lines if (s := say(lang, line, names)) is not None]


def choose_language(stored: str | None, accept: str | None) -> str:
    """The viewer's stored Discord locale, else the browser's first language we have, else English."""
    if stored:
        return language_of(stored)
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip().lower()
        if tag[:2] in LANGUAGES:
            return tag[:2]
    return "en"
