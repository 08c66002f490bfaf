"""Importing this module draws every renderer's sprites (``renderers.warm_all``).

The worker pool's fork server imports it once at start-up, when ``WARM_SPRITES`` is on: every
worker forked from it starts with the sprites drawn, so the first boards of a game are as cheap as
the later ones (a few seconds of CPU once, instead of tens of milliseconds on players' actions).
"""

from . import warm_all

warm_all()
