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
    assert page.exists(), f"a new game needs docs/games/{game.name}.md (python -m bot.common.rules_doc starts one)"
    text = page.read_text(encoding="utf-8")
    options = text.partition("## Options")[2].partition("\n## ")[0]
    for option in game.options:
        assert f"`{option.name}`" in options, f"option {option.name} is missing from the Options table of {page.name}"


# ---- links, commands and paths named in README.md and docs/ ----------------------------------------
import re  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tomllib  # noqa: E402
import unicodedata  # noqa: E402

PAGES = [ROOT / "README.md"] + sorted(DOCS.rglob("*.md"))
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)|<img\s[^>]*src=\"([^\"]+)\"")
MODULE = re.compile(r"python3?\s+-m\s+([A-Za-z_][\w.]*)")
SCRIPT = re.compile(r"python3?\s+((?:[\w.-]+/)*[\w-]+\.py)\b")
VENV_TOOL = re.compile(r"(?<![\w/])\.venv/bin/([\w-]+)")
REPO_PATH = re.compile(r"^(?:\.ci|benchmarks|bot|docs|games|renderers|tests)/[\w./-]*$")


def page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def code_spans(text: str) -> list[str]:
    """Fenced blocks, then inline code spans of the prose around them."""
    prose = FENCE.sub("", text)
    return FENCE.findall(text) + re.findall(r"`([^`\n]+)`", prose)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower()
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#{1,6}\s+(.+)$", text, re.M):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_relative_link_and_image_exists(page):
    text = page.read_text(encoding="utf-8")
    assert "../shared" not in text  # a clone has no shared/ folder beside it
    for match in LINK.finditer(FENCE.sub("", text)):
        target = match.group(1) or match.group(2)
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        assert resolved.exists(), f"{page_id(page)} links to {target}, which does not exist"
        if anchor and resolved.suffix == ".md":
            assert anchor in anchors(resolved), f"{page_id(page)} links to {target}: no such heading"


def project_scripts() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return set(data["project"].get("scripts", {}))


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_command_names_a_module_script_or_file_that_exists(page):
    for code in code_spans(page.read_text(encoding="utf-8")):
        for module in MODULE.findall(code):
            assert importlib.util.find_spec(module) is not None, f"{page_id(page)}: no module {module}"
        for script in SCRIPT.findall(code):
            assert (ROOT / script).is_file(), f"{page_id(page)}: no script {script}"
        for tool in VENV_TOOL.findall(code):
            assert tool in {"python", "python3", "pip"} | project_scripts(), f"{page_id(page)}: .venv/bin/{tool}"
        for word in code.split():
            word = word.strip("'\"(),;:")
            if REPO_PATH.match(word) and not re.search(r"NNN|<|\*", word):
                assert (ROOT / word).exists(), f"{page_id(page)} names {word}, which does not exist"


def test_the_readme_is_a_first_visit_and_its_test_command_is_the_ci_s():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250, "the README is for a first visit: move details to docs/"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci in readme, "the README's test command must be the one .ci/run runs"
    assert "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/python -m bot\n" in readme
    first_screen = "\n".join(readme.splitlines()[:30])
    assert "bot.local" in first_screen and "permissions" in first_screen


# ---- the invite's permissions and the configuration keys --------------------------------------------
def test_the_invite_asks_for_exactly_the_listed_permissions():
    import discord

    from bot.common.permissions import INVITE_PERMISSIONS, invite_permissions

    for flag, _, bit, why in INVITE_PERMISSIONS:
        assert getattr(discord.Permissions, flag).flag == 1 << bit, flag
        assert why
    value = invite_permissions()
    assert value == discord.Permissions(**{flag: True for flag, *_ in INVITE_PERMISSIONS}).value
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    hosting = (DOCS / "hosting.md").read_text(encoding="utf-8")
    assert f"&permissions={value}`" in readme
    for text in (readme, hosting):
        assert set(re.findall(r"\b\d{12,}\b", text)) == {str(value)}, "a stale permissions integer"
        for _, shown, bit, why in INVITE_PERMISSIONS:
            assert f"| {shown} |" in text and why in text, shown
    for _, shown, bit, _ in INVITE_PERMISSIONS:
        assert f"| {shown} | `1 << {bit}` |" in hosting and f"| {shown} | `1 << {bit}` |" in readme


def env_example_keys() -> list[str]:
    return re.findall(r"^([A-Z][A-Z0-9_]+)=", (ROOT / ".env.example").read_text(encoding="utf-8"), re.M)


def test_every_configuration_key_is_in_env_example_and_documented_in_hosting():
    keys = env_example_keys()
    config = (ROOT / "bot" / "config.py").read_text(encoding="utf-8")
    read = set(re.findall(r"environ\.get\(\"([A-Z0-9_]+)\"", config))
    assert read <= set(keys), f"bot/config.py reads keys .env.example does not list: {read - set(keys)}"
    table = (DOCS / "hosting.md").read_text(encoding="utf-8").partition("## Configuration")[2].partition("\n## ")[0]
    missing = [key for key in keys if f"| `{key}` |" not in table]
    assert not missing, f"docs/hosting.md's configuration table lacks {missing}"


# ---- the test run reads clean -------------------------------------------------------------------
def test_postgres_skips_fold_into_one_summary_line(tmp_path):
    env = {k: v for k, v in __import__("os").environ.items() if k != "TEST_DATABASE_URL"}
    run = subprocess.run([sys.executable, "-m", "pytest", "tests/test_store_export.py", "-p", "no:cacheprovider"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    lines = [line for line in run.stdout.splitlines() if "TEST_DATABASE_URL" in line]
    assert len(lines) == 1, run.stdout[-3000:]
    assert re.match(r"SKIPPED \[\d+\] tests/conftest.py: PostgreSQL runs skipped", lines[0]), lines[0]
    assert int(re.search(r"\[(\d+)\]", lines[0]).group(1)) > 1
