"""The web way in: the table page for every game, served by the bot itself (docs/web.md)."""

from .app import WebSettings, make_app, start_web, table_link
from .links import derive_secret

__all__ = ["WebSettings", "derive_secret", "make_app", "start_web", "table_link"]
