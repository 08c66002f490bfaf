"""Discord's side of an Activity, for the stand-in: OAuth2 codes and tokens, ``/users/@me`` with a
user's bearer token, the ``LAUNCH_ACTIVITY`` answer (interaction callback type 12) and the
Activity-instance lookup.

What Discord's client does inside the Activity's iframe (the Embedded App SDK's ``authorize``
command hands the page a one-time code) is ``authorize_code(user)`` here: a test asks for the code
a user's client would get, and the bot's server exchanges it at ``POST /oauth2/token`` as on
Discord (topics/oauth2.mdx: form-encoded, ``grant_type=authorization_code``, the client's id and
secret by HTTP Basic or in the form). Codes are single-use and short-lived; tokens carry their
scopes, and a route takes a bearer token only where Discord's description lists the OAuth2 scheme
with one of the token's scopes (``GET /users/@me``: ``identify``).
"""

from __future__ import annotations

import base64
import binascii
import secrets
from dataclasses import dataclass, field
from typing import Any, Optional
from urllib.parse import parse_qsl

from .records import InteractionRecord

CODE_LIFETIME = 600.0  # seconds an authorization code may wait for its exchange (Discord: ten minutes)
TOKEN_LIFETIME = 604800  # an access token's expires_in (topics/oauth2.mdx's example answer)
FLAG_EMBEDDED = 1 << 17  # application flag: the app has Activities enabled (resources/application.mdx)
GRANT_TYPES = ("authorization_code", "refresh_token", "client_credentials")


@dataclass
class OAuthCode:
    code: str
    user_id: int
    scopes: tuple[str, ...]
    issued_at: float
    used: bool = False


@dataclass
class OAuthToken:
    access_token: str
    user_id: int
    scopes: tuple[str, ...]
    issued_at: float
    revoked: bool = False


@dataclass
class ActivityInstance:
    """One running Activity (resources/application.mdx, "Activity Instance Object")."""

    instance_id: str
    launch_id: str
    guild_id: Optional[int]
    channel_id: int
    users: list[int] = field(default_factory=list)
    interaction_id: Optional[int] = None

    def location(self) -> dict:
        if self.guild_id is not None:
            kind, lid = "gc", f"gc-{self.guild_id}-{self.channel_id}"
            return {"id": lid, "kind": kind, "channel_id": str(self.channel_id), "guild_id": str(self.guild_id)}
        return {"id": f"pc-{self.channel_id}", "kind": "pc", "channel_id": str(self.channel_id)}


@dataclass
class TokenExchange:
    """One ``POST /oauth2/token`` as the stand-in saw it."""

    grant_type: Optional[str]
    client_id: Optional[str]
    code: Optional[str]
    status: int
    error: Optional[str]


class OAuthError(Exception):
    """An OAuth2 refusal: the token endpoint answers ``{"error", "error_description"}``, not Discord's
    ``{"message", "code"}``."""

    def __init__(self, status: int, error: str, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.body = {"error": error, "error_description": description}


class ActivitiesMixin:
    """The Activity routes and state of ``FakeDiscord`` (server.py mixes it in)."""

    def _init_activities(self, *, activities: bool, client_secret: Optional[str]) -> None:
        self.activities_enabled = activities  # the developer portal's "Enable Activities"
        self.client_secret = client_secret or secrets.token_urlsafe(24)
        self.oauth_codes: dict[str, OAuthCode] = {}
        self.oauth_tokens: dict[str, OAuthToken] = {}
        self.token_exchanges: list[TokenExchange] = []
        self.activity_instances: dict[str, ActivityInstance] = {}

    def _default_entry_point(self) -> None:
        """Enabling Activities gives the application Discord's default Entry Point command, "Launch"
        (type 4, PRIMARY_ENTRY_POINT, handled by Discord: handler 2), among its global commands."""
        if self.activities_enabled:
            self.commands = [self._store_command({"name": "launch", "type": 4, "description": "", "handler": 2,
                                                  "integration_types": [0, 1], "contexts": [0, 1, 2]}, None)]

    def _entry_point_kept(self, ctx, payload: list) -> None:
        """A bulk overwrite of the global commands must carry the Entry Point command when the
        application has one: Discord refuses to remove it that way (error 50240)."""
        from .server import HTTPError

        had = any(c.get("type") == 4 for c in self.commands)
        if had and not any(isinstance(c, dict) and c.get("type") == 4 for c in payload):
            self._violation("entry_point_removed", "a bulk overwrite of the global commands without the "
                            "application's Entry Point command", ctx)
            raise HTTPError(400, 50240, "You cannot remove this app's Entry Point command in a bulk update "
                            "operation. Please include the Entry Point command in your update request or "
                            "delete it separately.")

    # ---- what Discord's client hands the Activity ------------------------------------------

    def authorize_code(self, user: Any, scopes: tuple[str, ...] = ("identify",)) -> str:
        """The code the SDK's ``authorize`` command gives ``user``'s Activity (``prompt: 'none'``:
        no consent screen, the user has authorised the app before)."""
        uid = int(self.resolve_user(user)["id"])
        code = secrets.token_urlsafe(20)
        self.oauth_codes[code] = OAuthCode(code, uid, tuple(scopes), self._clock())
        return code

    def access_token_for(self, user: Any, scopes: tuple[str, ...] = ("identify",)) -> str:
        """An access token as a finished exchange would have given it (for tests of ``/users/@me``)."""
        uid = int(self.resolve_user(user)["id"])
        return self._issue_token(uid, tuple(scopes)).access_token

    def revoke_token(self, access_token: str) -> None:
        self.oauth_tokens[access_token].revoked = True

    def _issue_token(self, user_id: int, scopes: tuple[str, ...]) -> OAuthToken:
        token = OAuthToken(secrets.token_urlsafe(24), user_id, scopes, self._clock())
        self.oauth_tokens[token.access_token] = token
        return token

    def join_activity(self, instance_id: str, user: Any) -> None:
        """Another user joins a running Activity (clicks "Join" in Discord)."""
        uid = int(self.resolve_user(user)["id"])
        inst = self.activity_instances[instance_id]
        if uid not in inst.users:
            inst.users.append(uid)

    def end_activity(self, instance_id: str) -> None:
        """Everyone left: Discord forgets the instance (its lookup answers 404)."""
        self.activity_instances.pop(instance_id, None)

    # ---- POST /oauth2/token ------------------------------------------------------------------

    def _token_url_problems(self, path: str) -> list[str]:
        """The token endpoint is not an operation of Discord's description; it is the tokenUrl of its
        OAuth2 security scheme's flows. A request elsewhere is no token request at all."""
        if self.openapi is None:
            return []
        urls = self.openapi.oauth2_token_paths()
        return [] if path in urls else [f"{path} is not Discord's OAuth2 token URL ({sorted(urls)})"]

    async def _oauth_token_answer(self, request, path: str) -> tuple[int, dict]:
        raw = await request.read()
        exchange = TokenExchange(None, None, None, 0, None)
        self.token_exchanges.append(exchange)
        try:
            problems = self._token_url_problems(path)
            if problems:
                self._violation("openapi", "; ".join(problems))
                raise OAuthError(404, "invalid_request", problems[0])
            if not request.content_type == "application/x-www-form-urlencoded":
                self._violation("oauth_body", f"POST /oauth2/token with {request.content_type!r}: Discord's token "
                                "endpoint takes application/x-www-form-urlencoded only")
                raise OAuthError(400, "invalid_request", "body must be application/x-www-form-urlencoded")
            form = dict(parse_qsl(raw.decode("utf-8", "replace"), keep_blank_values=True))
            exchange.grant_type, exchange.code = form.get("grant_type"), form.get("code")
            client_id, secret = self._client_credentials(request, form)
            exchange.client_id = client_id
            if client_id != str(self.application_id) or secret != self.client_secret:
                raise OAuthError(401, "invalid_client", "unknown client or wrong secret")
            if exchange.grant_type not in GRANT_TYPES:
                raise OAuthError(400, "unsupported_grant_type", f"grant_type {exchange.grant_type!r}")
            if exchange.grant_type != "authorization_code":
                raise OAuthError(400, "unsupported_grant_type", "the stand-in models the authorization code grant only")
            grant = self.oauth_codes.get(exchange.code or "")
            if grant is None or grant.used or self._clock() - grant.issued_at > CODE_LIFETIME:
                raise OAuthError(400, "invalid_grant", 'Invalid "code" in request.')
            grant.used = True  # a code is good for one exchange, whatever its outcome next
            token = self._issue_token(grant.user_id, grant.scopes)
            exchange.status = 200
            return 200, {"access_token": token.access_token, "token_type": "Bearer", "expires_in": TOKEN_LIFETIME,
                         "refresh_token": secrets.token_urlsafe(24), "scope": " ".join(grant.scopes)}
        except OAuthError as err:
            exchange.status, exchange.error = err.status, err.body["error"]
            return err.status, err.body

    @staticmethod
    def _client_credentials(request, form: dict) -> tuple[Optional[str], Optional[str]]:
        """The client's id and secret: HTTP Basic, else ``client_id`` and ``client_secret`` in the form
        (topics/oauth2.mdx: "either HTTP Basic authentication or client_id and client_secret")."""
        header = request.headers.get("Authorization", "")
        if header.startswith("Basic "):
            try:
                pair = base64.b64decode(header[6:], validate=True).decode("utf-8")
            except (binascii.Error, UnicodeDecodeError):
                return None, None
            cid, _, secret = pair.partition(":")
            return cid, secret
        return form.get("client_id"), form.get("client_secret")

    # ---- bearer tokens on REST routes ----------------------------------------------------------

    def _bearer_user(self, ctx, header: str) -> Optional[dict]:
        """The user a ``Bearer`` token stands for, where the route takes one by Discord's description
        (its OAuth2 security scheme, with one of the token's scopes); else 401 as Discord answers."""
        from .server import HTTPError  # the mixin's module is imported by server.py

        token = self.oauth_tokens.get(header[len("Bearer "):])
        if token is None or token.revoked or self._clock() - token.issued_at > TOKEN_LIFETIME:
            raise HTTPError(401, 0, "401: Unauthorized")
        if self.openapi is not None:
            allowed = self.openapi.oauth2_scopes(ctx.method, ctx.path)
            if not set(token.scopes) & set(allowed):
                self._violation("oauth_scope", f"{ctx.method} {ctx.path} with a bearer token of scopes "
                                f"{list(token.scopes)}; Discord's description takes {allowed or 'no bearer token'}", ctx)
                raise HTTPError(403, 50001, "Missing Access")
        return self.users[token.user_id]

    def _me_for_bearer(self, user: dict, scopes: tuple[str, ...]) -> dict:
        """``/users/@me`` for a user's token: their user, without email unless the ``email`` scope."""
        out = dict(user, flags=0, locale="en-US", mfa_enabled=False, premium_type=0)
        if "email" in scopes:
            out.update(email=f"{user['username']}@example.invalid", verified=True)
        return out

    # ---- LAUNCH_ACTIVITY and the instance lookup -----------------------------------------------

    def _launch_activity(self, ctx, rec: InteractionRecord) -> ActivityInstance:
        """Callback type 12: Discord opens the Activity where the interaction happened, for its user."""
        from .server import HTTPError

        if not self.activities_enabled:
            self._violation("activity_not_enabled", "LAUNCH_ACTIVITY answered for an application without "
                            "Activities enabled (developer portal: Activities > Settings)", ctx)
            raise HTTPError(400, 50035, "Invalid Form Body", {"type": {"_errors": [
                {"code": "INTERACTION_RESPONSE_TYPE_INVALID", "message": "Application has no embedded activity"}]}})
        guild_id = int(rec.payload["guild_id"]) if rec.payload.get("guild_id") else None
        return self._new_instance(guild_id, rec.channel_id, rec.user_id, rec.id)

    def open_activity(self, user: Any, channel_id: int) -> str:
        """``user`` starts the Activity in a channel from Discord's own App Launcher (no interaction);
        its instance id."""
        uid = int(self.resolve_user(user)["id"])
        ch = self.channel(channel_id)
        guild_id = int(ch["guild_id"]) if ch.get("guild_id") else None
        return self._new_instance(guild_id, int(ch["id"]), uid, None).instance_id

    def _new_instance(self, guild_id: Optional[int], channel_id: int, user_id: int,
                      interaction_id: Optional[int]) -> ActivityInstance:
        launch_id = str(self._snow())
        inst = ActivityInstance("", launch_id, guild_id, channel_id, [user_id], interaction_id)
        inst.instance_id = f"i-{launch_id}-{inst.location()['id']}"
        self.activity_instances[inst.instance_id] = inst
        return inst

    def activity_instance_object(self, inst: ActivityInstance) -> dict:
        return {"application_id": str(self.application_id), "instance_id": inst.instance_id,
                "launch_id": inst.launch_id, "location": inst.location(), "users": [str(u) for u in inst.users]}

    async def _r_activity_instance(self, ctx, app: str, instance: str):
        from .server import HTTPError

        self._check_app(ctx, app)
        inst = self.activity_instances.get(instance)
        if inst is None:
            raise HTTPError(404, 0, "404: Not Found")
        return 200, self.activity_instance_object(inst)

    def launched_activities(self) -> list[ActivityInstance]:
        return list(self.activity_instances.values())

    async def wait_for_launch(self, user: Any, timeout: float = 5.0) -> ActivityInstance:
        uid = int(self.resolve_user(user)["id"])
        return await self.wait_until(
            lambda: next((i for i in self.activity_instances.values() if i.users and i.users[0] == uid), None),
            timeout, f"an Activity launched for {uid}")
