"""Localised command names and descriptions, read from the same catalogues as everything else."""

from __future__ import annotations

from discord import Locale, app_commands

from .. import i18n


def L(key: str) -> app_commands.locale_str:  # noqa: N802
    """A command string: English by default, its catalogue key carried for translation."""
    return app_commands.locale_str(i18n.t("en", key), key=key)


class CatalogueTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: Locale, context) -> str | None:
        key = string.extras.get("key")
        if key is None or i18n.language_of(locale) == i18n.DEFAULT:
            return None
        lang = i18n.language_of(locale)
        return i18n.t(lang, key) if key in i18n.catalogue(lang) else None
