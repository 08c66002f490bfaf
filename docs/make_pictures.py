"""The pictures in docs/games/: seeded positions of each game, drawn by the game's own renderer.

    .venv/bin/python docs/make_pictures.py              # rewrite docs/games/img/
    .venv/bin/python docs/make_pictures.py --out DIR    # write them somewhere else

Each position is a random playout (the AI's ``random`` level, as tests/playouts.py plays them) of
a fixed seed and length, so the same code always draws the same pictures. tests/test_docs.py draws
them again and fails when a committed picture no longer matches what the renderers draw: after
changing a renderer or an engine, run this script and commit the pictures it rewrote.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and its games/ (the pages) would hide the
# games package: the repository goes first instead, as in benchmarks/.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import PIL  # noqa: E402
from PIL import Image  # noqa: E402
from PIL.PngImagePlugin import PngInfo  # noqa: E402

import renderers  # noqa: E402
from games import get_game  # noqa: E402
from games.ai import choose_action  # noqa: E402
from games.rng import Rng  # noqa: E402

IMG = Path(__file__).resolve().parent / "games" / "img"

# file name: (game, players, seed, random actions played, seat whose panel is drawn or None: the public board)
PICTURES = {
    "squares.png": ("squares", 2, 1, 20, None),
    "arena.png": ("arena", 2, 1, 12, None),
    "osu-2p.png": ("osu", 2, 1, 15, None),
    "osu-4p.png": ("osu", 4, 1, 40, None),
    "hostile.png": ("hostile", 2, 1, 40, None),
    "monsterhunter-4p.png": ("monsterhunter", 4, 1, 120, None),
    "monsterhunter-panel.png": ("monsterhunter", 2, 2, 60, 0),
}


def position(name: str, players: int, seed: int, steps: int) -> dict:
    """The state after ``steps`` random legal actions from ``seed`` (the seat to act first plays)."""
    game = get_game(name)
    rng, state = Rng(seed), game.setup(players, game.resolve_options({}, players), seed)
    for _ in range(steps):
        if game.outcome(state) is not None:
            raise ValueError(f"{name} seed {seed} ends before {steps} actions: choose fewer")
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, choose_action(game, state, seat, rng))
    return state


def picture(file: str) -> Image.Image:
    """One picture as the bot draws it: the public board, or a seat's private panel."""
    name, players, seed, steps, seat = PICTURES[file]
    view = get_game(name).view(position(name, players, seed, steps), seat)
    png = renderers.render(name, view) if seat is None else renderers.render_panel(name, view)
    return Image.open(io.BytesIO(png))


def drawn_by() -> str:
    return f"Pillow {PIL.__version__}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=IMG, help=f"folder for the pictures (default {IMG})")
    out = parser.parse_args(argv).out
    out.mkdir(parents=True, exist_ok=True)
    info = PngInfo()
    info.add_text("Software", drawn_by())  # another Pillow may rasterize text a little differently
    for file in PICTURES:
        # Pillow's slowest, smallest compression: the same pixels as the bot's PNG in 35-45% fewer bytes.
        picture(file).save(out / file, optimize=True, pnginfo=info)
        print(out / file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
