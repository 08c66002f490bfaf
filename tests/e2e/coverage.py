"""What the end-to-end scenarios used of what the bot offers: every slash command it registers must
be typed, and every kind of component it offers clicked, by some scenario. A command or button that
never answers cannot hide behind tests that never touch it.

The scenarios run in several test processes (pytest-xdist); each process records its share
(:meth:`Coverage.record`, after each scenario) and hands it to the controlling process at its end,
which checks the union once every scenario has run, none left out by a filter (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

from bot.discord_app.custom_ids import decode

SCENARIOS = Path(__file__).parent


def component_kind(custom_id: str) -> str | None:
    """A component's kind for coverage: action button, step menu, panel, rematch, or the lobby's (undo's,
    follow's) op."""
    route = decode(custom_id)
    if route is None:
        return None
    if route.kind == "v":
        return f"replay {route.arg.split(':')[0]}"
    if route.kind in ("l", "u", "f", "o", "s"):
        return f"{ {'l': 'lobby', 'u': 'undo', 'f': 'follow', 'o': 'vote', 's': 'seat'}[route.kind]} {route.arg}"
    return {"a": "action", "g": "menu", "m": "form", "p": "panel", "r": "rematch"}[route.kind]


class Coverage:
    """What the bot offered (commands, components) and what the scenarios used, over every run."""

    FIELDS = ("registered", "typed", "offered", "used")

    def __init__(self):
        self.registered, self.typed, self.offered, self.used = set(), set(), set(), set()

    def record(self, fake) -> None:
        for command in fake.commands:
            subs = [o["name"] for o in command.get("options", []) if o.get("type") == 1]
            self.registered.update(f"{command['name']} {s}" for s in subs) if subs else self.registered.add(command["name"])
        for rec in fake.interactions.values():
            data = rec.payload.get("data") or {}
            if rec.type == 2:
                subs = [o["name"] for o in data.get("options", []) if o.get("type") == 1]
                self.typed.add(f"{data['name']} {subs[0]}" if subs else data["name"])
            elif rec.type == 3 and (kind := component_kind(data.get("custom_id", ""))):
                self.used.add(kind)
        for channel in list(fake._channel_messages):
            for message in fake.messages(channel):
                self.offered.update(filter(None, map(component_kind, message.custom_ids())))

    def as_json(self) -> dict[str, list[str]]:
        """This process's share, as a test process hands it on (xdist's ``workeroutput``)."""
        return {field: sorted(getattr(self, field)) for field in self.FIELDS}

    def merge(self, share: dict[str, list[str]]) -> None:
        for field in self.FIELDS:
            getattr(self, field).update(share.get(field, ()))

    def gaps(self) -> list[str]:
        """What was offered and never used, one line per kind; empty when every one was."""
        lines = []
        if never := self.registered - self.typed:
            lines.append(f"slash commands no scenario typed: {', '.join(sorted(never))}")
        if never := self.offered - self.used:
            lines.append(f"components no scenario clicked: {', '.join(sorted(never))}")
        return lines


def scenario_files() -> set[str]:
    """Every scenario file, as pytest names it in a test id (``tests/e2e/test_x.py``)."""
    return {f"tests/e2e/{path.name}" for path in SCENARIOS.glob("test_*.py")}


COVERAGE = Coverage()
