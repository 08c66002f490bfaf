"""The application's own emoji: the games' pieces drawn by ``renderers.emoji``, uploaded once at
start through the application emoji endpoints (usable everywhere the app is, user installs
included). A picture whose drawing changed has a new name (its hash), so it is uploaded anew and
the old one deleted; one Discord did not take is simply not used (buttons and menus keep their
words, text its Unicode)."""

from __future__ import annotations

import logging

import discord

from renderers import emoji as pictures

log = logging.getLogger(__name__)

PREFIX = "tt_"  # the emoji this bot manages (others, uploaded in the portal, are left alone)


class AppEmoji:
    def __init__(self) -> None:
        self._by_key: dict[str, discord.PartialEmoji] = {}

    def get(self, key: str | None) -> discord.PartialEmoji | None:
        return self._by_key.get(key) if key else None

    async def sync(self, client: discord.Client, *, upload: bool = True) -> None:
        """Upload what is missing or changed, delete what no drawing names any more (``upload``;
        else only find them); never raises."""
        try:
            existing = {e.name: e for e in await client.fetch_application_emojis()}
        except discord.HTTPException as e:
            log.warning("could not list the application's emoji (%s); Unicode it is", e.code)
            return
        wanted = {key: pictures.emoji_name(key, png) for key, png in pictures.drawings().items()}
        for key, name in wanted.items():
            found = existing.get(name)
            if found is None and not upload:
                continue
            if found is None:
                try:
                    found = await client.create_application_emoji(name=name, image=pictures.drawings()[key])
                except discord.HTTPException as e:
                    log.warning("emoji %s was not taken (%s); its Unicode stays", name, e.code)
                    continue
            self._by_key[key] = discord.PartialEmoji(name=found.name, id=found.id)
        for name, old in existing.items() if upload else ():
            if name.startswith(PREFIX) and name not in wanted.values():
                try:
                    await old.delete()
                except discord.HTTPException as e:
                    log.info("could not delete the old emoji %s (%s)", name, e.code)
        log.info("%d application emoji ready", len(self._by_key))


APP_EMOJI = AppEmoji()  # one per process: the components read it when they draw a menu


def emoji_for(params: dict | None) -> discord.PartialEmoji | None:
    """The app emoji beside a choice whose words have these parameters, if any was uploaded."""
    return APP_EMOJI.get(pictures.key_for(params or {}))
