"""Point discord.py at a Discord stand-in (end-to-end tests only).

Production leaves ``DISCORD_API_BASE`` unset and nothing here changes anything.  With it set
(e.g. ``http://127.0.0.1:53123/api/v10``) every base URL discord.py uses at run time is
re-pointed, through class attributes only (no file is edited):

* ``discord.http.Route.BASE``: every REST call.  Interaction callbacks, follow-ups and
  ``@original`` edits go through ``discord.webhook.async_.AsyncWebhookAdapter``, which imports the
  very same ``Route`` class, so this one attribute covers them too.
* ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``: a plain ``discord.Client`` never asks
  ``GET /gateway/bot``; it opens this URL directly (and falls back to it after INVALID_SESSION).
  Only ``AutoShardedClient`` asks ``/gateway/bot``.  The stand-in serves its websocket at
  ``/gateway`` on the same host and port, so the URL is derived from the API base;
  ``DISCORD_GATEWAY_URL`` overrides it.  After READY, discord.py resumes at the
  ``resume_gateway_url`` the stand-in announced.
* ``discord.asset.Asset.BASE``: the CDN (avatars, icons), served by the stand-in at ``/cdn``.
"""

from __future__ import annotations

import ipaddress
import os
from typing import Mapping, Optional
from urllib.parse import urlsplit

ENV_API_BASE = "DISCORD_API_BASE"
ENV_GATEWAY_URL = "DISCORD_GATEWAY_URL"

_originals: Optional[dict] = None


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def gateway_url_for(api_base: str) -> str:
    """``http://HOST:PORT/api/v10`` -> ``ws://HOST:PORT/gateway`` (``https`` -> ``wss``)."""
    parts = urlsplit(api_base)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/gateway"


def point_at(api_base: str | None, gateway_url: str | None = None) -> None:
    """Re-point discord.py at ``api_base``; ``None`` or ``""`` leaves it talking to Discord."""
    if not api_base:
        return
    import discord.asset
    import discord.gateway
    import discord.http
    import yarl

    base = api_base.rstrip("/")
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{ENV_API_BASE} must be an http(s) URL, got {api_base!r}")
    if parts.scheme == "http" and not _is_loopback(parts.hostname):
        # The bot token travels in every request: never send it in clear text off this machine.
        raise ValueError(f"{ENV_API_BASE} may use plain http only on a loopback address, got {parts.hostname!r}")
    expected = f"/api/v{discord.http.INTERNAL_API_VERSION}"
    if not parts.path.endswith(expected):
        raise ValueError(f"{ENV_API_BASE} must end with {expected!r}, got {api_base!r}")

    global _originals
    if _originals is None:
        _originals = {
            "route": discord.http.Route.BASE,
            "gateway": discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            "asset": discord.asset.Asset.BASE,
        }
    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url or gateway_url_for(base))
    discord.asset.Asset.BASE = f"{parts.scheme}://{parts.netloc}/cdn"


def point_at_env(environ: Mapping[str, str] | None = None) -> str | None:
    """Apply ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` from the environment; returns the API base used."""
    env = os.environ if environ is None else environ
    base = (env.get(ENV_API_BASE) or "").strip() or None
    gateway = (env.get(ENV_GATEWAY_URL) or "").strip() or None
    point_at(base, gateway)
    return base


def reset() -> None:
    """Undo :func:`point_at` (for tests that run a client in-process)."""
    global _originals
    if _originals is None:
        return
    import discord.asset
    import discord.gateway
    import discord.http

    discord.http.Route.BASE = _originals["route"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = _originals["gateway"]
    discord.asset.Asset.BASE = _originals["asset"]
    _originals = None
