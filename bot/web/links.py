"""Signed links and sessions: who a web request is, without a table of sessions to keep.

A *link* (``/t/<token>``) is made by the bot for one user and one game, with the place it was asked
from (the same ``Where`` the Discord way in passes, so the web sees exactly what that person sees
there), and lasts minutes. Opening it sets a *session* cookie, signed the same way, for that game
only and for hours. Both are ``payload.signature``: the payload is JSON in URL-safe base64, the
signature HMAC-SHA256 over it with the server's secret. A token of one kind is never taken for the
other, and the CSRF token of a session is an HMAC of its random id, so it needs no storage either.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass

from ..service import Where

LINK_SECONDS = 15 * 60
SESSION_SECONDS = 12 * 3600
MAX_TOKEN = 1024  # longer is no token of ours, and is not worth a signature check


class BadToken(ValueError):
    """Not ours, tampered with, of the wrong kind, or expired; ``key`` says which, for the page."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


@dataclass(frozen=True)
class Pass:
    """What a valid link or session says: this user, this game, seen from this place (``where``
    None only for the local table, where one person holds every seat)."""

    user_id: int
    game_id: int
    where: Where | None
    expires: int
    session_id: str = ""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def derive_secret(*materials: str | None) -> bytes:
    """The signing key: from the application's secrets when set (so every process of one bot and a
    restart accept the same links), else random for this process only."""
    material = next((m for m in materials if m), None)
    if material is None:
        return secrets.token_bytes(32)
    return hmac.new(material.encode(), b"tabletop web links v1", hashlib.sha256).digest()


class Signer:
    def __init__(self, secret: bytes, *, link_seconds: int = LINK_SECONDS, session_seconds: int = SESSION_SECONDS,
                 clock=time.time):
        self.secret, self.link_seconds, self.session_seconds, self.clock = secret, link_seconds, session_seconds, clock

    def _sign(self, payload: dict) -> str:
        body = _b64(json.dumps(payload, separators=(",", ":"), sort_keys=True).encode())
        mac = hmac.new(self.secret, body.encode(), hashlib.sha256).digest()
        return f"{body}.{_b64(mac)}"

    def _open(self, token: str, kind: str) -> dict:
        if not token or len(token) > MAX_TOKEN or token.count(".") != 1:
            raise BadToken("bad_link")
        body, mac = token.split(".")
        want = hmac.new(self.secret, body.encode(), hashlib.sha256).digest()
        try:
            if not hmac.compare_digest(_unb64(mac), want):
                raise BadToken("bad_link")
            payload = json.loads(_unb64(body))
        except (ValueError, TypeError):
            raise BadToken("bad_link") from None
        if not isinstance(payload, dict) or payload.get("k") != kind:
            raise BadToken("bad_link")
        if payload.get("x", 0) < self.clock():
            raise BadToken("expired_link" if kind == "link" else "expired_session")
        return payload

    @staticmethod
    def _place(where: Where | None) -> list | None:
        return None if where is None else [where.guild_id, where.channel_id, bool(where.manages_server)]

    @staticmethod
    def _where(place) -> Where | None:
        return None if place is None else Where(place[0], place[1], bool(place[2]))

    def link_token(self, user_id: int, game_id: int, where: Where | None) -> str:
        return self._sign({"k": "link", "u": user_id, "g": game_id, "w": self._place(where),
                           "x": int(self.clock()) + self.link_seconds, "n": secrets.token_hex(4)})

    def signed_user(self, token: str | None) -> int | None:
        """The user a token of ours names, even expired or of either kind: only to speak to them in
        their own language when refusing it (never to let them in)."""
        try:
            body, mac = (token or "").split(".")
            if len(token) > MAX_TOKEN or not hmac.compare_digest(
                    _unb64(mac), hmac.new(self.secret, body.encode(), hashlib.sha256).digest()):
                return None
            user = json.loads(_unb64(body)).get("u")
        except (ValueError, TypeError, AttributeError):
            return None
        return user if isinstance(user, int) and not isinstance(user, bool) else None

    def open_link(self, token: str) -> Pass:
        p = self._open(token, "link")
        return Pass(int(p["u"]), int(p["g"]), self._where(p["w"]), int(p["x"]))

    def session_token(self, link: Pass) -> str:
        return self._sign({"k": "session", "u": link.user_id, "g": link.game_id, "w": self._place(link.where),
                           "x": int(self.clock()) + self.session_seconds, "s": secrets.token_hex(16)})

    def open_session(self, token: str) -> Pass:
        p = self._open(token, "session")
        return Pass(int(p["u"]), int(p["g"]), self._where(p["w"]), int(p["x"]), str(p["s"]))

    def csrf(self, session: Pass) -> str:
        return _b64(hmac.new(self.secret, f"csrf|{session.session_id}".encode(), hashlib.sha256).digest())

    def csrf_ok(self, session: Pass, given) -> bool:
        return isinstance(given, str) and hmac.compare_digest(given.encode(), self.csrf(session).encode())
