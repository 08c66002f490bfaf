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
    line = render(lang, text)
    names = names or {}
    line = MENTION.sub(lambda m: names.get(int(m[1])) or render(lang, T("web.someone")), line)
    line = TIMESTAMP.sub(lambda m: "{{t:" + m[1] + "}}", line)
    line = CHANNEL.sub(render(lang, T("web.the_channel")), line)
    return line.replace("**", "").replace("__", "")


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
