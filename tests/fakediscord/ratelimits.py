"""Discord's rate limits, as the stand-in enforces them: per-route buckets and the global limit.

Discord counts requests per route (method + path template) and per "major parameter" of the path
(``channel_id``, ``guild_id``, or ``webhook_id`` with ``webhook_token``): the 6th message in 5 s to
one channel is refused with 429 while another channel takes its own 5. Every answer on a limited
route carries ``X-RateLimit-Limit/-Remaining/-Reset/-Reset-After/-Bucket``, which discord.py reads
to wait before it would be refused; a refusal is 429 with ``{"message", "retry_after", "global"}``,
``Retry-After`` and ``X-RateLimit-Scope`` (and ``Via``: without it discord.py takes a 429 for a
Cloudflare ban and gives up). On top, 50 requests a second per bot (global), from which interaction
callbacks and interaction webhooks are exempt, as on Discord.

Discord publishes no per-route numbers (its headers tell them); ``REALISTIC_RATE_LIMITS`` holds
those its headers are commonly seen to report (messages 5 per 5 s per channel, webhooks 5 per 2 s).
"""

from __future__ import annotations

import collections
import hashlib
import math
import time
from dataclasses import dataclass
from typing import Callable, Optional

# "METHOD /template": (requests, per seconds). Routes not listed are not limited per route (the
# global limit still counts them): Discord publishes no numbers, and these are the ones its headers
# are commonly seen to report.
REALISTIC_RATE_LIMITS: dict[str, tuple[int, float]] = {
    "POST /channels/{channel_id}/messages": (5, 5.0),
    "PATCH /channels/{channel_id}/messages/{message_id}": (5, 5.0),
    "DELETE /channels/{channel_id}/messages/{message_id}": (5, 1.0),
    "POST /webhooks/{webhook_id}/{webhook_token}": (5, 2.0),
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": (5, 2.0),
    "GET /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": (5, 2.0),
    "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": (5, 2.0),
}
GLOBAL_RATE_LIMIT: tuple[int, float] = (50, 1.0)
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id", "webhook_token")


@dataclass
class _Window:
    limit: int
    per: float
    count: int = 0
    resets_at: float = 0.0


@dataclass
class Limited:
    """A request refused with 429."""

    method: str
    path: str
    route: str  # "METHOD /template", or "global"
    retry_after: float
    is_global: bool


class RateLimiter:
    """Counts requests in fixed windows opened by a bucket's first request (as Discord's
    ``X-RateLimit-Reset-After`` counts down from it). ``clock`` is the stand-in's own."""

    def __init__(self, routes: dict[str, tuple[int, float]], global_limit: Optional[tuple[int, float]],
                 clock: Callable[[], float]) -> None:
        self.routes = dict(routes)
        self.global_limit = global_limit
        self.clock = clock
        self._windows: dict[tuple, _Window] = {}
        # Requests that took a bucket's last place ("METHOD /template" or "global"): a client going
        # at a bucket's pace meets its limit here even when it never needs a 429 to learn it.
        self.emptied: collections.Counter[str] = collections.Counter()

    def _window(self, key: tuple, limit: tuple[int, float], now: float) -> _Window:
        w = self._windows.get(key)
        if w is None or now >= w.resets_at:
            w = self._windows[key] = _Window(limit[0], limit[1], 0, now + limit[1])
        return w

    def check(self, method: str, template: str, params: dict[str, str], *,
              exempt_from_global: bool) -> tuple[dict[str, str], Optional[tuple[float, bool, str]]]:
        """Count one request. Returns the rate-limit headers of its answer and, when it is refused,
        ``(retry_after, is_global, route)``."""
        now = self.clock()
        route = f"{method} {template}"
        limit = self.routes.get(route)
        headers: dict[str, str] = {}
        if not exempt_from_global and self.global_limit is not None:
            g = self._window(("global",), self.global_limit, now)
            if g.count >= g.limit:
                retry = max(0.001, g.resets_at - now)
                return {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global",
                        "Retry-After": str(math.ceil(retry))}, (retry, True, "global")
            g.count += 1
            if g.count == g.limit:
                self.emptied["global"] += 1
        if limit is None:
            return headers, None
        major = tuple(params.get(k) for k in MAJOR_PARAMETERS)
        w = self._window((route, major), limit, now)
        reset_after = max(0.0, w.resets_at - now)
        headers.update({
            "X-RateLimit-Limit": str(w.limit),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(route.encode()).hexdigest()[:16],
        })
        if w.count >= w.limit:
            headers.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Scope": "user",
                            "Retry-After": str(math.ceil(reset_after))})
            return headers, (max(0.001, reset_after), False, route)
        w.count += 1
        if w.count == w.limit:
            self.emptied[route] += 1
        headers["X-RateLimit-Remaining"] = str(w.limit - w.count)
        return headers, None
