"""The application's own emoji: the games' pieces drawn by ``renderers.emoji``, uploaded once at
start through the application emoji endpoints (usable everywhere the app is, user installs
included). A picture whose drawing changed has a new name (its hash), so it is uploaded anew and
the old one deleted; one Discord did not take is simply not used (buttons and menus keep their
words, text its Unicode)."""

from __future__ import annotations

import asyncio
import logging
import re

import aiohttp
import discord

from renderers import emoji as pictures
from renderers.common import SHAPE_SYMBOLS, player_style

log = logging.getLogger(__name__)

PREFIX = "tt_"  # the emoji this bot manages (others, uploaded in the portal, are left alone)


# Whatever keeps the pictures from Discord leaves today's Unicode in place; start-up goes on.
UNREACHABLE = (discord.DiscordException, aiohttp.ClientError, OSError, asyncio.TimeoutError)


class AppEmoji:
    def __init__(self) -> None:
        self._by_key: dict[str, discord.PartialEmoji] = {}

    def get(self, key: str | None) -> discord.PartialEmoji | None:
        return self._by_key.get(key) if key else None

    def markup(self, key: str) -> str | None:
        """``<:name:id>``, the emoji in a message's text, if it was uploaded."""
        emoji = self._by_key.get(key)
        return str(emoji) if emoji is not None else None

    async def sync(self, client: discord.Client, *, upload: bool = True) -> None:
        """Upload what is missing or changed, delete what no drawing names any more (``upload``;
        else only find them); never raises."""
        if client.application_id is None:  # not logged in (a test's bot, a tool): Unicode it is
            log.info("no application id yet: the games' pictures stay Unicode")
            return
        try:
            existing = {e.name: e for e in await client.fetch_application_emojis()}
        except UNREACHABLE as e:
            log.warning("could not list the application's emoji (%s); Unicode it is", getattr(e, "code", e))
            return
        wanted = {key: pictures.emoji_name(key, png) for key, png in pictures.drawings().items()}
        for key, name in wanted.items():
            found = existing.get(name)
            if found is None and not upload:
                continue
            if found is None:
                try:
                    found = await client.create_application_emoji(name=name, image=pictures.drawings()[key])
                except UNREACHABLE as e:
                    log.warning("emoji %s was not taken (%s); its Unicode stays", name, getattr(e, "code", e))
                    continue
            self._by_key[key] = discord.PartialEmoji(name=found.name, id=found.id)
        for name, old in existing.items() if upload else ():
            if name.startswith(PREFIX) and name not in wanted.values():
                try:
                    await old.delete()
                except UNREACHABLE as e:
                    log.info("could not delete the old emoji %s (%s)", name, getattr(e, "code", e))
        log.info("%d application emoji ready", len(self._by_key))


APP_EMOJI = AppEmoji()  # one per process: the components read it when they draw a menu


# A seat's mark in words, "**A** ●": its shape may be drawn as the seat's own piece, in colour
SEAT_MARK = re.compile(r"\*\*([A-Z])\*\* (" + "|".join(map(re.escape, SHAPE_SYMBOLS.values())) + ")")
UNICODE = re.compile("|".join(map(re.escape, pictures.UNICODE)))
LEADING = re.compile(r"^(" + "|".join(map(re.escape, pictures.UNICODE)) + r")\s*")


def emoji_for(text) -> discord.PartialEmoji | None:
    """The app emoji beside a choice whose words are ``text`` (a ``Text``), if any was uploaded."""
    if text is None:
        return None
    return APP_EMOJI.get(pictures.key_for(getattr(text, "params", None) or {}, getattr(text, "key", "")))


def label_and_emoji(label: str, text=None) -> tuple[str, discord.PartialEmoji | None]:
    """A button's or a menu option's words and the picture beside them: the one its words name
    (``emoji_for``), else the picture of the Unicode the label starts with, taken out of the label
    (a label shows no emoji markup). Without uploaded emoji, the label as it was."""
    emoji = emoji_for(text)
    if emoji is not None:
        return label, emoji
    lead = LEADING.match(label)
    emoji = APP_EMOJI.get(pictures.UNICODE[lead.group(1)]) if lead else None
    if emoji is None or not label[lead.end():].strip():
        return label, None
    return label[lead.end():], emoji


def _seat_key(match: re.Match) -> str | None:
    seat = ord(match.group(1)) - ord("A")
    if seat >= pictures.SEATS or SHAPE_SYMBOLS.get(player_style(seat).shape) != match.group(2):
        return None
    return f"piece_{seat}"


def in_text(text: str, limit: int) -> str:
    """``text`` with the games' Unicode pieces (and seat marks' shapes) as the app's emoji, each as
    long as the text stays within ``limit`` characters (Discord's, for where it goes): ``<:name:id>``
    is some 45 characters for one, so a long text keeps its later Unicode. Without uploads, as is."""
    if not APP_EMOJI._by_key:
        return text
    room = limit - len(text)
    out, last = [], 0
    spots = sorted([(m.start(2), m.end(2), _seat_key(m)) for m in SEAT_MARK.finditer(text)]
                   + [(m.start(), m.end(), pictures.UNICODE[m.group()]) for m in UNICODE.finditer(text)])
    for start, end, key in spots:
        markup = APP_EMOJI.markup(key) if key else None
        if markup is None or start < last or len(markup) - (end - start) > room:
            continue
        out += [text[last:start], markup]
        room -= len(markup) - (end - start)
        last = end
    return "".join(out) + text[last:]
