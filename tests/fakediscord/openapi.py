"""Every request body checked against Discord's own published OpenAPI description.

``../shared/discord/openapi.json`` (beside the repository, never inside it; see its README) is
Discord's v10 HTTP API as Discord describes it: an oracle independent of the stand-in's own rules
(validate.py), which were written from the docs by us. For each request the operation is found
from the method and the concrete path (``/channels/123/messages`` -> ``/channels/{channel_id}/messages``),
and its JSON body, or the ``payload_json`` of a multipart one, is validated against that
operation's request schema with ``jsonschema`` (Draft 2020-12, as OpenAPI 3.1 is), ``$ref``\\s
resolved inside the document.

Where the file is absent (a checkout without ``shared/``) nothing is validated and the stand-in
says so once (``status()`` is also printed in pytest's header).

Where the description is stricter than Discord itself, the relaxation is made here, narrowly and
with its reason (``RELAXED``); nothing else of the description is changed.
"""

from __future__ import annotations

import copy
import functools
import json
import logging
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Optional

log = logging.getLogger("fakediscord")

SPEC_PATH = Path(__file__).resolve().parents[2] / ".." / "shared" / "discord" / "openapi.json"
SPEC_URI = "urn:discord:openapi"

# Where Discord's description is stricter than Discord is, and why we relax it (each one narrow).
RELAXED = {
    "SnowflakeType": (
        "The description types every snowflake as a decimal string; Discord's API takes integers as well "
        "(its docs: 'snowflakes are strings ... you may send them as integers'), and discord.py sends "
        "integers where it builds ids itself (allowed_mentions.users, attachments[].id as file indexes)."),
}

_METHODS = ("get", "put", "post", "patch", "delete")


@dataclass(frozen=True)
class Operation:
    method: str
    template: str  # the description's path template, e.g. /channels/{channel_id}/messages
    operation_id: str
    body: Optional[dict]  # content type -> JSON pointer of its schema; None: the operation takes no body
    body_required: bool


class OpenAPIContract:
    """Discord's description, ready to find operations and validate request bodies."""

    def __init__(self, spec: dict) -> None:
        import jsonschema
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        self.spec = _relaxed(spec)
        self._validator_class = jsonschema.Draft202012Validator
        self._registry = Registry().with_resource(SPEC_URI, Resource.from_contents(self.spec, default_specification=DRAFT202012))
        self._format_checker = _format_checker(jsonschema)
        self._routes: list[tuple[str, re.Pattern, int, Operation]] = []
        for template, item in self.spec["paths"].items():
            for method in _METHODS:
                op = item.get(method)
                if op is None:
                    continue
                body = op.get("requestBody")
                pointers = None
                if body is not None:
                    pointers = {ctype: _pointer("paths", template, method, "requestBody", "content", ctype, "schema")
                                for ctype in body.get("content", {})}
                operation = Operation(method.upper(), template, op.get("operationId", ""), pointers,
                                      bool(body and body.get("required")))
                literal = sum(1 for part in template.split("/") if part and not part.startswith("{"))
                self._routes.append((method.upper(), _template_regex(template), literal, operation))
        # A literal segment beats a parameter (/messages/pins before /messages/{message_id}).
        self._routes.sort(key=lambda r: -r[2])

    def operation(self, method: str, path: str) -> Optional[Operation]:
        """The description's operation for a concrete request path (without ``/api/v10``)."""
        for m, rx, _, op in self._routes:
            if m == method and rx.match(path):
                return op
        return None

    def problems(self, method: str, path: str, body: Any, *, multipart: bool = False, has_body: bool = True) -> list[str]:
        """What is wrong with a request by Discord's description: an operation it does not have, a
        body it does not take, a body it needs and did not get, or each schema error (at its path)."""
        op = self.operation(method, path)
        if op is None:
            return [f"Discord's API has no operation {method} {path}"]
        if not has_body:
            return [f"{op.operation_id} ({method} {op.template}) needs a request body"] if op.body_required else []
        if op.body is None:
            return [f"{op.operation_id} ({method} {op.template}) takes no request body"]
        ctype = "multipart/form-data" if multipart else "application/json"
        pointer = op.body.get(ctype) or op.body.get("application/json")
        if pointer is None:
            return [f"{op.operation_id} ({method} {op.template}) does not take {ctype}"]
        validator = self._validator(pointer)
        out = []
        for error in sorted(validator.iter_errors(body), key=lambda e: list(map(str, e.absolute_path))):
            leaf = _leaf(error)
            out.append(f"{op.operation_id} body.{'.'.join(map(str, leaf.absolute_path)) or '(root)'}: {leaf.message[:300]}")
        return out

    def oauth2_token_paths(self) -> set[str]:
        """The token URL's path (without ``/api`` or a version) in every flow of the description's
        OAuth2 security scheme: the one place it names ``/oauth2/token``, which is no operation."""
        flows = self.spec["components"]["securitySchemes"]["OAuth2"]["flows"]
        out = set()
        for flow in flows.values():
            for key in ("tokenUrl", "refreshUrl"):
                if key in flow:
                    out.add(re.sub(r"^https://[^/]+/api(/v\d+)?", "", flow[key]))
        return out

    def oauth2_scopes(self, method: str, path: str) -> list[str]:
        """The OAuth2 scopes whose bearer token the operation takes (empty: a bot token only)."""
        op = self.operation(method, path)
        if op is None:
            return []
        security = self.spec["paths"][op.template][op.method.lower()].get("security") or []
        return [scope for entry in security for scope in entry.get("OAuth2", [])]

    def answer_problems(self, method: str, path: str, status: int, body: Any) -> list[str]:
        """What is wrong with an answer by the description's response schema for that status (the
        stand-in's own answers, for the routes it checks them on)."""
        op = self.operation(method, path)
        if op is None:
            return [f"Discord's API has no operation {method} {path}"]
        responses = self.spec["paths"][op.template][op.method.lower()].get("responses", {})
        if str(status) not in responses or "content" not in responses[str(status)]:
            return []
        pointer = _pointer("paths", op.template, op.method.lower(), "responses", str(status), "content",
                           "application/json", "schema")
        return [f"{op.operation_id} answer.{'.'.join(map(str, _leaf(e).absolute_path)) or '(root)'}: {_leaf(e).message[:300]}"
                for e in self._validator(pointer).iter_errors(body)]

    @functools.lru_cache(maxsize=None)
    def _validator(self, pointer: str):
        return self._validator_class({"$ref": f"{SPEC_URI}#{pointer}"}, registry=self._registry,
                                     format_checker=self._format_checker)


def _pointer(*parts: str) -> str:
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


def _template_regex(template: str) -> re.Pattern:
    pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
    return re.compile("^" + pattern + "$")


def _relaxed(spec: dict) -> dict:
    spec = copy.deepcopy(spec)
    schemas = spec["components"]["schemas"]
    snowflake = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0, "maximum": (1 << 64) - 1}]}
    _dispatch_on_type(spec, spec)
    return spec


def _dispatch_on_type(spec: dict, node: Any) -> None:
    """Speed, same meaning: a ``oneOf``/``anyOf`` whose branches are objects each requiring its own
    ``type`` values (components, interaction callbacks) becomes if/then on ``type``. Only the branch
    of the value's own type can match, so validating that one alone accepts and refuses exactly what
    the union does, instead of every branch at every level of nested components (30 ms a board,
    then 10). A ``oneOf`` of distinct named constants (Discord's enums) becomes an ``enum``."""
    if isinstance(node, list):
        for item in node:
            _dispatch_on_type(spec, item)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _dispatch_on_type(spec, value)
    consts = node.get("oneOf")
    if (isinstance(consts, list) and consts and "enum" not in node
            and all(isinstance(b, dict) and "const" in b and set(b) <= {"const", "title", "description"} for b in consts)
            and len({json.dumps(b["const"]) for b in consts}) == len(consts)):
        node["enum"] = [b["const"] for b in consts]  # Discord's named enums: distinct consts, one of them
        del node["oneOf"]
    for union in ("oneOf", "anyOf"):
        branches = node.get(union)
        kinds = [_type_values(spec, b) for b in branches] if isinstance(branches, list) else None
        if not kinds or any(k is None for k in kinds) or len(set().union(*kinds)) != sum(map(len, kinds)):
            continue
        chain: dict = {union: branches}  # a value of none of the types: the union's own error
        for branch, values in reversed(list(zip(branches, kinds))):
            test = {"type": "object", "required": ["type"], "properties": {"type": {"enum": sorted(values)}}}
            chain = {"if": test, "then": branch, "else": chain}
        del node[union]
        node["allOf"] = node.get("allOf", []) + [chain]


def _type_values(spec: dict, branch: Any) -> Optional[set]:
    """The ``type`` values an object branch requires, or None when it is not such a branch."""
    schema = branch
    while isinstance(schema, dict) and set(schema) == {"$ref"} and schema["$ref"].startswith("#/"):
        target: Any = spec
        for part in schema["$ref"][2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        schema = target
    if not isinstance(schema, dict) or schema.get("type") != "object" or "type" not in schema.get("required", []):
        return None
    prop = (schema.get("properties") or {}).get("type") or {}
    values = prop.get("enum") if "enum" in prop else ([prop["const"]] if "const" in prop else None)
    return set(values) if values else None


def _leaf(error):
    """The error to report: for a failed oneOf/anyOf, the error of the branch that came closest
    (jsonschema's ``best_match``), followed down through nested unions."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        from jsonschema.exceptions import best_match

        # The branch meant is the one of the instance's own kind: not one for another JSON type
        # (the "null" of an optional field), nor one for another "type" (components, callbacks).
        branches: dict = {}
        for e in error.context:
            branches.setdefault(e.relative_schema_path[0], []).append(e)

        def other_kind(e) -> bool:
            return ((e.validator == "type" and not list(e.relative_path))
                    or (e.validator in ("enum", "const") and list(e.relative_path) == ["type"]))
        own = [errs for errs in branches.values() if not any(other_kind(e) for e in errs)]
        return _leaf(best_match(own[0] if len(own) == 1 else error.context))
    return error


def _format_checker(jsonschema):
    """Formats the description uses, checked where a wrong value would be refused."""
    checker = jsonschema.FormatChecker(formats=())

    @checker.checks("int32")
    def int32(value: Any) -> bool:
        return not isinstance(value, int) or -(1 << 31) <= value < (1 << 31)

    @checker.checks("int64")
    def int64(value: Any) -> bool:
        return not isinstance(value, int) or -(1 << 63) <= value < (1 << 63)

    @checker.checks("snowflake")
    def snowflake(value: Any) -> bool:
        return not isinstance(value, str) or (value.isdigit() and int(value) < (1 << 64))

    @checker.checks("uri")
    def uri(value: Any) -> bool:
        return not isinstance(value, str) or re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:\S+$", value) is not None

    @checker.checks("date-time")
    def date_time(value: Any) -> bool:
        if not isinstance(value, str):
            return True
        try:
            datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return False
        return True

    return checker


_loaded: Optional[OpenAPIContract] = None
_load_tried = False


def contract() -> Optional[OpenAPIContract]:
    """The description, loaded once per process; None (said once) when the file is absent."""
    global _loaded, _load_tried
    if not _load_tried:
        _load_tried = True
        if SPEC_PATH.is_file():
            _loaded = OpenAPIContract(json.loads(SPEC_PATH.read_text(encoding="utf-8")))
        else:
            log.warning("fakediscord: %s", status())
    return _loaded


def status() -> str:
    """One line on whether request bodies are checked against Discord's description."""
    if SPEC_PATH.is_file():
        return f"Discord OpenAPI validation on ({SPEC_PATH.resolve()})"
    return (f"Discord OpenAPI validation OFF: {SPEC_PATH.resolve()} is absent (Discord's description lives in "
            f"shared/discord beside the repository); the stand-in's own rules still apply")
