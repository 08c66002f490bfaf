"""Logging that never writes a credential, at any level.

discord.py's DEBUG logs carry interaction tokens (15-minute reply credentials) in request paths and
gateway payloads. The formatter below redacts the whole formatted line, traceback included, so a
secret cannot slip out through a message, an argument or an exception text.
"""

from __future__ import annotations

import logging
import re

REDACTED = "<redacted>"
_PATTERNS = (
    re.compile(r"(/(?:interactions/\d+|webhooks/\d+)/)[A-Za-z0-9_\-.]+"),  # REST paths
    re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+"""),  # payloads, JSON or repr
)


class RedactingFormatter(logging.Formatter):
    def __init__(self, fmt: str, secrets: tuple[str, ...] = ()):
        super().__init__(fmt)
        self.secrets = tuple(s for s in secrets if s and len(s) >= 8)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record), self.secrets)


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    for secret in secrets:
        text = text.replace(secret, REDACTED)
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
    return text


def configure(level: str, secrets: tuple[str, ...] = ()) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s", secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
