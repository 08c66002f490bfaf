"""``python -m bot.local <game> --web``: the terminal's game served as the web table on localhost.

The terminal driver sets the game up as usual; this serves it and prints one link per human seat
(the local table's links carry no place: there, as in the terminal, the host itself asks). The
links last as long as the process, since nobody else can reach localhost."""

from __future__ import annotations

import asyncio

from ..service import GameHost, Outbox
from .app import WebSettings, start_web, table_link
from .links import derive_secret

LOCAL_PORT = 8642


def local_settings(port: int = LOCAL_PORT) -> WebSettings:
    return WebSettings(secret=derive_secret(None), port=port, public_url=f"http://localhost:{port}", bind="127.0.0.1",
                       local=True, link_seconds=7 * 24 * 3600)


async def serve_local(host: GameHost, game_id: int, user_ids: list[int], echo=print, port: int = LOCAL_PORT,
                      show=None, until: asyncio.Event | None = None) -> None:
    """Serve the game until interrupted (or ``until`` is set), printing each human seat's link;
    ``show`` prints what a web move tells everyone (the terminal's outbox printer)."""
    settings = local_settings(port)

    async def deliver(outbox: Outbox) -> None:
        if show is not None:
            show(outbox)

    runner = await start_web(host, settings, deliver)
    try:
        for user_id in user_ids:
            echo(table_link(settings, user_id, game_id, None))
        await (until.wait() if until is not None else asyncio.Event().wait())
    finally:
        await runner.cleanup()
