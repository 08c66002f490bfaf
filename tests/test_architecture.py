"""The layering of DESIGN.md: games/ is pure, imports point down only, data files match schemas."""

from __future__ import annotations

import ast
import json
from importlib import resources
from pathlib import Path

import pytest

from games.squaresiv.pieces import load_set, set_files, validate_set

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN_IN_GAMES = {"discord", "PIL", "aiosqlite", "asyncpg", "sqlite3", "asyncio", "time", "random", "datetime",
                      "bot", "renderers", "secrets", "os"}
FORBIDDEN_IN_RENDERERS = {"discord", "aiosqlite", "asyncpg", "sqlite3", "bot"}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "games").rglob("*.py")), ids=lambda p: p.name)
def test_games_stay_pure(path):
    assert not imports(path) & FORBIDDEN_IN_GAMES


@pytest.mark.parametrize("path", sorted((ROOT / "renderers").rglob("*.py")), ids=lambda p: p.name)
def test_renderers_do_not_reach_up(path):
    assert not imports(path) & FORBIDDEN_IN_RENDERERS


def test_the_service_knows_no_discord():
    service = sorted((ROOT / "bot" / "service").glob("*.py"))
    assert len(service) >= 6
    for path in service + [ROOT / "bot" / name for name in ("storage/sqlite.py", "terminal/driver.py", "discord_app/custom_ids.py", "service/scheduler.py")]:
        assert "discord" not in imports(path), path


@pytest.mark.parametrize("name", set_files())
def test_squaresiv_piece_sets_match_the_schema(name):
    path = resources.files("games.squaresiv") / "data" / "sets" / f"{name}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert validate_set(data) == []
    assert data["name"] == name
    assert len(load_set(name)) == 10


def test_the_schema_rejects_bad_sets():
    good = {"name": "x", "pieces": [{"ability": "plain", "points": 1}] * 10}
    assert validate_set(good) == []
    assert validate_set({"name": "x", "pieces": [{"ability": "plain", "points": 1}] * 9})
    assert validate_set({"name": "x", "pieces": [{"ability": "laser", "points": 1}] * 10})
    assert validate_set({"name": "x", "pieces": [{"ability": "plain", "points": 0}] * 10})
    assert validate_set({"name": "x", "pieces": [{"ability": "plain", "points": True}] * 10})
    assert validate_set({"name": "", "pieces": good["pieces"], "extra": 1})
    assert validate_set([1, 2])


def test_every_migration_is_numbered_once():
    from bot.storage.sqlite import Store

    numbers = [n for n, _ in Store.migrations()]
    assert numbers == sorted(set(numbers)) and numbers[0] == 1
