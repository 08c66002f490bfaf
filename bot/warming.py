"""Importing this module starts drawing every renderer's sprite on a thread of the lowest priority
(``bot.workers.warm_in_background``). The workers' fork server imports it last, with
``WARM_SPRITES``, after the palettes (``renderers.warmed``)."""

from .workers import warm_in_background

warm_in_background()
