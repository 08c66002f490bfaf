"""The before-and-after pictures of docs/readability.md: boards drawn by the renderers and shown
400 px wide, as a phone shows a posted image.

    .venv/bin/python docs/make_readability_pictures.py after     # docs/img/readability/*-after.png

(``after`` also draws the boards that write names in Japanese: ``*-after-ja.png``.)

Each position is a seeded random playout (the AI's ``random`` level), chosen to show what issue
#43 was about: OSU's animals, a HOSTILE piece standing on a tile and gems on wall squares, Monster
Hunter's face-up monsters and its hunter and sheet selection. The "before" pictures were drawn
with this script from the renderers as they were before that change, and are kept as drawn.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

import renderers  # noqa: E402
from games import get_game  # noqa: E402
from games.ai import choose_action  # noqa: E402
from games.rng import Rng  # noqa: E402

OUT = Path(__file__).resolve().parent / "img" / "readability"
PHONE = 400

# file stem: (game, players, seed, random actions played)
POSITIONS = {
    "osu-4p": ("osu", 4, 1, 40),
    "hostile-2p": ("hostile", 2, 5, 107),
    "monsterhunter-hunt": ("monsterhunter", 4, 1, 120),
    "monsterhunter-selection": ("monsterhunter", 3, 1, 1),
}


def position(name: str, players: int, seed: int, steps: int) -> dict:
    """The public view after ``steps`` random legal actions from ``seed``."""
    game = get_game(name)
    rng, state = Rng(seed), game.setup(players, game.resolve_options({}, players), seed)
    for _ in range(steps):
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, choose_action(game, state, seat, rng))
    return game.view(state, None)


def at_phone_width(stem: str, lang: str = "en") -> Image.Image:
    name, *spec = POSITIONS[stem]
    image = Image.open(io.BytesIO(renderers.render(name, position(name, *spec), lang=lang))).convert("RGB")
    return image.resize((PHONE, round(image.height * PHONE / image.width)), Image.Resampling.LANCZOS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("stage", choices=("before", "after"))
    stage = parser.parse_args(argv).stage
    OUT.mkdir(parents=True, exist_ok=True)
    for stem in POSITIONS:
        at_phone_width(stem).save(OUT / f"{stem}-{stage}.png", optimize=True)
        print(OUT / f"{stem}-{stage}.png")
        if stage == "after" and POSITIONS[stem][0] in ("hostile", "monsterhunter"):   # boards that write names
            at_phone_width(stem, "ja").save(OUT / f"{stem}-{stage}-ja.png", optimize=True)
            print(OUT / f"{stem}-{stage}-ja.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
