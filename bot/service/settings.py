"""Parsing what people type when they create a game: options, deadlines, timeout policies.

Every input is bounded before it is parsed, and every problem becomes a ServiceError.
"""

from __future__ import annotations

import shlex
import unicodedata
from datetime import datetime, timezone

from .outbox import ServiceError

TIMEOUT_POLICIES = ("ai", "skip", "forfeit")
AI_LEVELS = ("easy", "normal", "hard")
DEFAULT_AI_LEVEL = "normal"
DEFAULT_DEADLINE_HOURS = 24
MAX_DEADLINE_HOURS = 24 * 30
DEFAULT_VACATION_DAYS = 7
MAX_OPTIONS_LENGTH = 300
MAX_ACTION_LENGTH = 320  # a typed Monster Hunter loadout with a whole deck code is 100-270
MAX_SHORT_INPUT = 20


def normalized(text: str | None, limit: int, error: str, **params) -> str:
    """NFKC (full-width digits and letters from a Japanese keyboard become ASCII), bounded. Too long
    a text is refused with ``error``, given ``limit`` and ``params`` (what its message names)."""
    raw = text or ""
    if len(raw) > limit * 4:  # refuse before normalising a huge paste
        raise ServiceError(error, limit=limit, **params)
    clean = unicodedata.normalize("NFKC", raw).strip()
    if len(clean) > limit:
        raise ServiceError(error, limit=limit, **params)
    return clean


ECHO_LENGTH = 60


def echoed(text: str) -> str:
    """What a player typed, to quote back inside `code`: as typed (trimmed), on one line, cut to
    ``ECHO_LENGTH`` characters, with backticks (which would end the code span) made harmless."""
    one_line = " ".join(text.split())
    cut = one_line if len(one_line) <= ECHO_LENGTH else one_line[: ECHO_LENGTH - 1] + "…"
    return cut.replace("`", "ˋ")


def parse_deadline(text: str | None) -> float:
    """"24h", "3d", "90m", "none" -> hours (0 = no deadline). Plain numbers are hours."""
    raw = normalized(text, MAX_SHORT_INPUT, "deadline_syntax_long").lower()
    if not raw:
        return DEFAULT_DEADLINE_HOURS
    if raw in ("none", "off", "0", "なし"):
        return 0
    unit = {"m": 1 / 60, "h": 1, "d": 24}.get(raw[-1], None)
    number = raw[:-1] if unit else raw
    if not number.replace(".", "", 1).isascii() or not number.replace(".", "", 1).isdigit():
        raise ServiceError("deadline_syntax", value=text)
    hours = float(number) * (unit or 1)
    if not 0.25 <= hours <= MAX_DEADLINE_HOURS:
        raise ServiceError("deadline_range", value=text)
    return hours


QUIET_DEADLINES_FROM_HOURS = 24  # deadlines this long or longer wait for quiet hours unless told not to


def make_settings(deadline: str | None = None, timeout: str | None = None, thread: bool | None = None,
                  vacation_days: int | None = None, ai_level: str | None = None,
                  quiet_deadlines: bool | None = None, grace: str | None = None) -> dict:
    """The platform's own per-game settings, chosen at creation (games know nothing of them).
    ``quiet_deadlines``: a deadline does not run out while a player it waits for is in their quiet
    hours (default: on for deadlines of a day or more); ``grace``: once a deadline passes, the
    players it waited for get this much more, and a ping, before the timeout applies."""
    policy = normalized(timeout or "ai", MAX_SHORT_INPUT, "timeout_policy_long").lower()
    if policy not in TIMEOUT_POLICIES:
        raise ServiceError("timeout_policy", value=policy, choices=list(TIMEOUT_POLICIES))
    days = DEFAULT_VACATION_DAYS if vacation_days is None else vacation_days
    if not 0 <= days <= 60:
        raise ServiceError("vacation_range", value=days)
    settings = {"deadline_hours": parse_deadline(deadline), "timeout": policy,
                "thread": True if thread is None else bool(thread), "vacation_days": days,
                "ai_level": ai_level_of(ai_level)}
    if grace is not None:  # a grace period after a missed deadline, before the timeout applies
        settings["grace_hours"] = parse_deadline(grace)
    hours = settings["deadline_hours"]
    settings["quiet_deadlines"] = (bool(hours) and hours >= QUIET_DEADLINES_FROM_HOURS
                                   if quiet_deadlines is None else bool(quiet_deadlines))
    if ai_level is not None:  # chosen for this game; else stand-ins play at the server's level
        settings["stand_in_level"] = ai_level_of(ai_level)
    return settings


def ai_level_of(text: str | None) -> str:
    level = normalized(text or DEFAULT_AI_LEVEL, MAX_SHORT_INPUT, "ai_level_long", choices=list(AI_LEVELS)).lower()
    if level not in AI_LEVELS:
        raise ServiceError("ai_level", value=level, choices=list(AI_LEVELS))
    return level


def parse_options(text: str | None) -> dict[str, str]:
    """``"cap=6 set=heavy"`` -> ``{"cap": "6", "set": "heavy"}``."""
    raw = normalized(text, MAX_OPTIONS_LENGTH, "options_too_long")
    try:
        tokens = shlex.split(raw)
    except ValueError:  # an unbalanced quote
        raise ServiceError("option_quote") from None
    options = {}
    for token in tokens:
        name, sep, value = token.partition("=")
        if not sep or not name.strip():
            raise ServiceError("option_syntax", token=token[:40])
        options[name.strip().lower()] = value.strip()
    return options


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def stamp(moment: datetime) -> str:
    """Stored times: UTC ISO 8601 to the second, so they sort and compare as text."""
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def discord_time(iso: str | None, style: str = "R") -> str:
    """A Discord timestamp tag: each reader sees it in their own language and time zone (``R``:
    "in 3 hours", ``t``: "08:00")."""
    return f"<t:{int(datetime.fromisoformat(iso).timestamp())}:{style}>" if iso else "-"
