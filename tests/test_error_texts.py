"""Every error message a player can be shown is whole: found by reading the code (``ast``), each
place that raises an error with a message key is rendered in both languages with exactly the
arguments that place passes, and no ``{placeholder}`` may be left and no key may be missing.

Raise sites are calls of the error classes (``ServiceError`` in bot/, ``GameError`` and its
subclasses and SQUARESIV's ``_Refused`` in games/), of functions that pass a key they were given on
to one of those (``normalized(text, limit, "key")``), and the refusals games return for
well-formed but illegal actions (``why_illegal``, ``refusal``, ``*_refusal*`` and every function of
a ``refusals.py``). A key the code builds at run time must be enumerated below (or its site named
as one that passes on a key checked elsewhere), so a new dynamic key cannot slip past unseen.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, fields
from pathlib import Path

import pytest

from bot import i18n
from bot.service.asking import AskingWords
from bot.service.consent import PROPOSAL_WORDS
from bot.service.undo import UNDO_WORDS

ROOT = Path(__file__).resolve().parents[1]
ERRORS = {"ServiceError", "GameError", "NotationError", "IllegalAction", "NotYourTurn", "GameOver", "_Refused"}

# Keys built from an f-string: every value they can take there, and why.
BUILT_KEYS = {
    # play.py, follow.py and core.py each raise it only after checking the game is neither in its
    # lobby nor running (core.py names the lobby itself), so only these statuses remain.
    "f'game_{row.status}'": {"game_finished", "game_abandoned"},
    # tournaments.py and leagues.py raise it only for a tournament that is over (an open or running
    # one is handled, or named, before), so only these statuses remain.
    "f'tournament_{t.status}'": {"tournament_finished", "tournament_abandoned"},
    "f'{family}_which'": {"tournament_which", "league_which"},
    "f'{family}_none_here'": {"tournament_none_here", "league_none_here"},
}

# Sites whose key is an expression that passes on a key raised, and checked, elsewhere.
PASSED_ON = {
    ("bot/service/core.py", "e.key"): "a GameError turned into a ServiceError: checked where games/ raises it",
    ("bot/service/lobby.py", "e.key"): "a GameError turned into a ServiceError: checked where games/ raises it",
    ("bot/service/tournaments.py", "e.key"): "a GameError turned into a ServiceError: checked where games/ raises it",
    ("games/base.py", "key"): "the key and params of refusal(): checked as the games' refusals",
    ("games/monsterhunter/engine.py", "key"): "the key and params of refusal(): checked as its refusals",
    ("games/arena/engine.py", "self.why_illegal(state, seat, action)"):
        "why_illegal's keys are checked as refusals, with the params this site adds (REFUSAL_PARAMS)",
}

# Keys a site takes from data rather than code: every value, and why.
DATA_KEYS = {
    ("games/monsterhunter/engine.py", "problems[0]"):
        ({"mh.deck.code", "mh.deck.size", "mh.deck.copies", "mh.deck.hunter", "mh.deck.unknown"},
         "the first problem cards.deck_problems finds with a custom deck"),
    # asking.py checks an answer to an undo or a proposal alike; each kind's refusal keys are data
    **{("bot/service/asking.py", f"words.{field}"):
       ({getattr(UNDO_WORDS, field), getattr(PROPOSAL_WORDS, field)}, f"the {field} refusal of an undo or a proposal")
       for field in (f.name for f in fields(AskingWords) if f.name != "prefix")},
}

# Refusals that only return a key get their params where the engine raises them: arena adds the
# movement refused (``_refusal_params``) to every key of its why_illegal; the base refusal adds none.
REFUSAL_PARAMS = {"games/arena/engine.py": {"move_term"}}


@dataclass(frozen=True)
class Site:
    where: str
    key: str
    params: frozenset


def modules(folder: str) -> dict[str, ast.Module]:
    return {str(p.relative_to(ROOT)): ast.parse(p.read_text(encoding="utf-8"))
            for p in sorted((ROOT / folder).rglob("*.py"))}


MODULES = {**modules("bot"), **modules("games")}


def _functions() -> dict[str, list[tuple[str, ast.FunctionDef]]]:
    out: dict[str, list] = {}
    for path, tree in MODULES.items():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.setdefault(node.name, []).append((path, node))
    return out


FUNCTIONS = _functions()


def _called(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _enclosing(tree: ast.Module) -> dict[ast.AST, ast.FunctionDef | None]:
    """Each node's innermost enclosing function."""
    owner: dict[ast.AST, ast.FunctionDef | None] = {}

    def visit(node, fn):
        for child in ast.iter_child_nodes(node):
            inner = child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else fn
            owner[child] = inner
            visit(child, inner)
    visit(tree, None)
    return owner


def keys_of(expr: ast.AST, where: str) -> set[str] | None:
    """The keys an expression can give, or None when it is not written in the code."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return {expr.value}
    if isinstance(expr, ast.IfExp):
        a, b = keys_of(expr.body, where), keys_of(expr.orelse, where)
        return None if a is None or b is None else a | b
    if isinstance(expr, ast.JoinedStr):
        built = BUILT_KEYS.get(ast.unparse(expr))
        assert built is not None, f"{where}: {ast.unparse(expr)} is built at run time: list its keys in BUILT_KEYS"
        return set(built)
    return None


def params_of(expr: ast.AST, fn, depth: int = 0) -> list[frozenset] | None:
    """Every set of names a params expression (a dict, a ``**spread``) may hold, one per way the
    code can build it (``x if c else {}`` gives two), or None if that is not written in the code."""
    if depth > 4:
        return None
    if isinstance(expr, ast.Dict):
        out = [frozenset()]
        for k, v in zip(expr.keys, expr.values):
            if k is None:
                inner = params_of(v, fn, depth + 1)
                if inner is None:
                    return None
                out = [a | b for a in out for b in inner]
            elif isinstance(k, ast.Constant):
                out = [a | {k.value} for a in out]
            else:
                return None
        return out
    if isinstance(expr, ast.IfExp):
        a, b = params_of(expr.body, fn, depth + 1), params_of(expr.orelse, fn, depth + 1)
        return None if a is None or b is None else a + b
    if isinstance(expr, ast.Name) and fn is not None:  # a local dict
        found = [params_of(n.value, fn, depth + 1) for n in ast.walk(fn) if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
        return _either(found)
    if isinstance(expr, ast.Call):
        name = _called(expr)
        if name == "dict" and not expr.args:
            return [frozenset(k.arg for k in expr.keywords)] if all(k.arg for k in expr.keywords) else None
        found = []
        for _, f in FUNCTIONS.get(name, []):  # a helper returning a dict
            found += [params_of(n.value, f, depth + 1) for n in ast.walk(f) if isinstance(n, ast.Return)
                      and n.value is not None]
        return _either(found)
    return None


def _either(found: list) -> list[frozenset] | None:
    return None if not found or None in found else sorted({s for alts in found for s in alts}, key=sorted)


def forwarders() -> dict[str, tuple[int, str, set[str], bool]]:
    """Functions that raise an error with a key they were given: name -> (the key's position,
    its parameter name, the params the raise passes, whether it passes on the caller's keywords)."""
    out = {}
    for path, tree in MODULES.items():
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            args = [a.arg for a in fn.args.args]
            for call in ast.walk(fn):
                if isinstance(call, ast.Call) and _called(call) in ERRORS and call.args \
                        and isinstance(call.args[0], ast.Name) and call.args[0].id in args:
                    spread = fn.args.kwarg.arg if fn.args.kwarg else None
                    named = {k.arg for k in call.keywords if k.arg}
                    passes = any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == spread
                                 for k in call.keywords)
                    position = args.index(call.args[0].id) - (1 if args[:1] == ["self"] else 0)
                    out[fn.name] = (position, call.args[0].id, named, passes)
    return out


FORWARDERS = forwarders()


def raise_sites() -> list[Site]:
    sites = []
    for path, tree in MODULES.items():
        owner = _enclosing(tree)
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            name = _called(call)
            fn = owner.get(call)
            if name in ERRORS and call.args:
                key_expr, extra = call.args[0], set()
                if fn is not None and fn.name in FORWARDERS and isinstance(key_expr, ast.Name) \
                        and key_expr.id == FORWARDERS[fn.name][1]:
                    continue  # its callers name the key
            elif name in FORWARDERS:
                position, param, extra, passes = FORWARDERS[name]
                key_expr = next((k.value for k in call.keywords if k.arg == param), None)
                if key_expr is None and len(call.args) > position:
                    key_expr = call.args[position]
                if key_expr is None:
                    continue
                extra = set(extra) | ({k.arg for k in call.keywords if k.arg and k.arg != param} if passes else set())
                call = ast.Call(call.func, [], [k for k in call.keywords if k.arg is None] if passes else [])
            else:
                continue
            where = f"{path}:{key_expr.lineno}"
            source = ast.unparse(key_expr)
            keys = keys_of(key_expr, where)
            if keys is None:
                if (path, source) in PASSED_ON:
                    continue
                assert (path, source) in DATA_KEYS, \
                    f"{where}: the key `{source}` is not written here: explain it in PASSED_ON or DATA_KEYS"
                keys = DATA_KEYS[(path, source)][0]
            ways = [frozenset(extra) | {k.arg for k in call.keywords if k.arg}]
            for k in call.keywords:
                if k.arg is None:
                    spread = params_of(k.value, fn)
                    assert spread is not None, f"{where}: cannot tell which params **{ast.unparse(k.value)} holds"
                    ways = [a | b for a in ways for b in spread]
            sites += [Site(where, key, params) for key in keys for params in ways]
    return sites


def _refusal_function(path: str, fn) -> bool:
    return path.endswith("refusals.py") or fn.name in ("why_illegal", "refusal") or "refusal" in fn.name


def refusal_sites() -> list[Site]:
    """What the games' refusal functions return: a key, or (key, params)."""
    sites = []
    for path, tree in MODULES.items():
        if not path.startswith("games/"):
            continue
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or not _refusal_function(path, fn):
                continue
            for ret in (n for n in ast.walk(fn) if isinstance(n, ast.Return) and n.value is not None):
                sites += _returned(path, fn, ret.value)
    return sites


def _returned(path: str, fn, value: ast.AST) -> list[Site]:
    where = f"{path}:{value.lineno}"
    if isinstance(value, (ast.IfExp, ast.BoolOp)):
        parts = [value.body, value.orelse] if isinstance(value, ast.IfExp) else value.values
        return [s for part in parts for s in _returned(path, fn, part)]
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [Site(where, value.value, frozenset(REFUSAL_PARAMS.get(path, set())))]
    if isinstance(value, ast.Tuple) and len(value.elts) == 2:
        keys = keys_of(value.elts[0], where)
        if keys is None:
            return []  # (a position, a board ...): not a refusal
        ways = params_of(value.elts[1], fn)
        assert ways is not None, f"{where}: cannot tell which params {ast.unparse(value.elts[1])} holds"
        return [Site(where, key, params) for key in keys for params in ways]
    return []  # a call (another refusal function, checked on its own), None, a name


SITES = raise_sites() + refusal_sites()


def test_the_scan_finds_the_raise_sites_it_should():
    found = {(s.key, s.params) for s in SITES}
    assert len(SITES) > 150
    # a literal ServiceError, one through a forwarding helper, a refusal returned with params,
    # a bare refusal key, and a GameError subclass in games/
    assert ("game_not_found", frozenset({"id"})) in found
    assert any(s.key == "options_too_long" and s.params == {"limit"} for s in SITES)
    assert any(s.key == "hostile.place_tile" and {"square", "tile_term", "facing_term"} <= s.params for s in SITES)
    assert any(s.key == "mh.must_attack" for s in SITES)
    assert ("mh.bad_card", frozenset({"card"})) in found


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_raised_error_renders_whole(lang):
    catalogue = i18n.catalogue(lang)
    problems = []
    for site in SITES:
        key = f"error.{site.key}"
        if key not in catalogue:
            problems.append(f"{site.where}: {key} is missing from {lang}")
            continue
        text = i18n.t(lang, key, **{p: f"<{p}>" for p in site.params})
        if "{" in text:
            problems.append(f"{site.where}: {key} with {sorted(site.params)} leaves {text!r}")
    assert not problems, "\n".join(sorted(set(problems)))
