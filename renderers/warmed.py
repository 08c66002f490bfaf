"""Importing this module draws every renderer's palette (``renderers.warm_palettes``).

The worker pool's fork server imports it once at start-up, when ``WARM_SPRITES`` is on: a palette
is built from a swatch of the renderer's sprites, and it was most of a game's first board (0.3-0.4
of 0.4-0.5 s of CPU for SQUARESIV and OSU); after it, a first board costs about 50 ms. About a
second of CPU for all five, shared by every worker forked after it; each worker then draws the
other sprites on a thread of the lowest priority (``bot.workers.warm_in_background``).
"""

from . import warm_palettes

warm_palettes()
