"""The documentation stays true to the code: pictures drawn by today's renderers, every game and
option documented, every link and command pointing at something that exists."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from PIL import Image

from games import all_games

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def make_pictures():
    spec = importlib.util.spec_from_file_location("make_pictures", DOCS / "make_pictures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pixels(path: Path) -> tuple:
    with Image.open(path) as image:
        return image.size, image.convert("RGBA").tobytes()


def test_the_pictures_are_what_the_renderers_draw_today(tmp_path):
    pictures = make_pictures()
    assert pictures.main(["--out", str(tmp_path)]) == 0
    committed = sorted(p.name for p in pictures.IMG.glob("*.png"))
    assert committed == sorted(pictures.PICTURES), "docs/games/img/ holds exactly the pictures make_pictures.py draws"
    stale = [name for name in committed if pixels(pictures.IMG / name) != pixels(tmp_path / name)]
    drawn = {Image.open(pictures.IMG / name).text.get("Software") for name in stale}
    assert not stale, (f"{stale} no longer match the renderers: run .venv/bin/python docs/make_pictures.py and commit "
                       f"them (they were drawn with {', '.join(map(str, drawn))}; this is {pictures.drawn_by()})")


def test_every_picture_is_shown_on_a_page():
    pages = "\n".join(p.read_text(encoding="utf-8") for p in (DOCS / "games").glob("*.md"))
    for name in make_pictures().PICTURES:
        assert f"(img/{name})" in pages, name


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_game_has_a_page_naming_each_of_its_options(game):
    page = DOCS / "games" / f"{game.name}.md"
    assert page.exists(), f"a new game needs docs/games/{game.name}.md (python -m bot.rules_doc starts one)"
    text = page.read_text(encoding="utf-8")
    options = text.partition("## Options")[2].partition("\n## ")[0]
    for option in game.options:
        assert f"`{option.name}`" in options, f"option {option.name} is missing from the Options table of {page.name}"
