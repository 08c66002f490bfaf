"""The layering of docs/architecture.md: games/ is pure, imports point down only and never in a circle,
each of bot/'s layers keeps to its side, the service's parts use only what they declare, data files
match schemas."""

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


def modules() -> dict[str, Path]:
    """Every module of bot/, games/ and renderers/ by its dotted name."""
    found = {}
    for top in ("bot", "games", "renderers"):
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = modules()


def imported_modules(name: str) -> set[str]:
    """The modules of the tree ``name`` imports, relative imports resolved, those inside functions too.
    ``from package import name`` counts as importing the submodule when ``name`` is one, else the package."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            subs = {f"{target}.{a.name}" for a in node.names} & MODULES.keys()
            found |= subs or {target}
    return {m for m in found if m in MODULES}


GRAPH = {name: imported_modules(name) for name in MODULES}


def under(prefix: str) -> list[str]:
    return sorted(m for m in MODULES if m == prefix or m.startswith(prefix + "."))


def test_no_import_circles():
    """Tarjan's strongly connected components of the import graph: each must be one module alone."""
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1 or v in GRAPH[v]:
                circles.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    assert circles == []


def reaches(name: str, forbidden: tuple[str, ...]) -> set[str]:
    """What ``name`` imports directly from the ``forbidden`` packages."""
    return {m for m in GRAPH[name] if any(m == f or m.startswith(f + ".") for f in forbidden)}


@pytest.mark.parametrize("name", under("bot.storage"))
def test_storage_imports_no_service_nor_way_in(name):
    assert not reaches(name, ("bot.service", "bot.discord_app", "bot.terminal", "bot.workers"))
    assert "discord" not in imports(MODULES[name])


@pytest.mark.parametrize("name", under("bot.service") + under("bot.common") + under("bot.terminal")
                         + under("bot.workers") + under("bot.web") + ["bot.local"])
def test_only_the_discord_way_in_knows_discord(name):
    assert "discord" not in imports(MODULES[name])
    assert not reaches(name, ("bot.discord_app",))


@pytest.mark.parametrize("name", under("bot.discord_app") + under("bot.terminal") + under("bot.web") + ["bot.local"])
def test_a_way_in_reaches_storage_only_through_the_service(name):
    assert not reaches(name, ("bot.storage",))


@pytest.mark.parametrize("name", under("bot.common"))
def test_the_common_helpers_use_no_layer(name):
    assert not reaches(name, ("bot.storage", "bot.service", "bot.workers", "bot.discord_app", "bot.terminal"))


def test_the_root_of_bot_holds_entry_points_and_configuration_only():
    assert {p.name for p in (ROOT / "bot").glob("*.py")} <= {
        "__init__.py", "__main__.py", "local.py", "config.py", "faults.py", "logsafe.py"}


def service_parts() -> dict[str, ast.ClassDef]:
    """GameHost's bases, by name: each a class of bot/service/."""
    init = ast.parse((ROOT / "bot" / "service" / "__init__.py").read_text(encoding="utf-8"))
    host = next(n for n in init.body if isinstance(n, ast.ClassDef) and n.name == "GameHost")
    names = {b.id for b in host.bases}
    found = {}
    for path in (ROOT / "bot" / "service").glob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and node.name in names:
                found[node.name] = node
    assert found.keys() == names
    return found


def _on_self(node) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


def defined_by(part: ast.ClassDef) -> set[str]:
    """A part's methods and class attributes, and the attributes its methods set on ``self``."""
    names = set()
    for node in part.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    for node in ast.walk(part):
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        names |= {t.attr for t in targets if _on_self(t)}
    return names


def declared(part: ast.ClassDef, attribute: str) -> tuple[str, ...]:
    for node in part.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == attribute:
            return ast.literal_eval(node.value)
    return ()


PARTS = service_parts()
DEFINED = {name: defined_by(part) for name, part in PARTS.items()}


@pytest.mark.parametrize("name", sorted(PARTS))
def test_each_service_part_uses_only_what_it_declares(name):
    """A part may use, through ``self``, what it defines, what HostCore ``exposes``, and what the parts
    named in its ``uses`` define; and every part it names there, it uses."""
    part = PARTS[name]
    uses = declared(part, "uses")
    assert set(uses) <= PARTS.keys() - {name}
    exposed = set(declared(PARTS["HostCore"], "exposes"))
    assert exposed <= DEFINED["HostCore"]
    allowed = DEFINED[name] | (set() if name == "HostCore" else exposed)
    for other in uses:
        allowed |= DEFINED[other]
    used = {n.attr for n in ast.walk(part) if _on_self(n)}
    assert used - allowed == set(), f"{name} uses these without declaring their part"
    for other in uses:
        assert used & (DEFINED[other] - DEFINED[name] - exposed), f"{name} declares {other} but uses none of it"


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
