"""What the stand-in records: requests, messages, interactions, violations."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

from .util import shorten_tokens
from .validate import FLAG_EPHEMERAL, FLAG_LOADING, walk_components

if TYPE_CHECKING:  # pragma: no cover
    from .server import FakeDiscord

# Every wait on the stand-in is for something that will happen: its timeout only catches a hang.
# The shortest one is this long, so a machine busy with other work (where a board can take seconds)
# never fails a scenario that passes on a quiet one; a wait that succeeds costs nothing more.
HANG_BOUND_SECONDS = 30.0


@dataclass
class Violation:
    """Something the bot did that Discord would refuse or punish."""

    kind: str
    message: str
    method: Optional[str] = None
    path: Optional[str] = None
    detail: Any = None

    def __str__(self) -> str:
        where = f" [{self.method} {shorten_tokens(self.path or '')}]" if self.method else ""
        return f"{self.kind}: {self.message}{where}"


@dataclass
class FileRecord:
    """One uploaded multipart file, exactly as received."""

    field: str
    filename: str
    content_type: Optional[str]
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class RequestRecord:
    method: str
    path: str  # without the /api/v10 prefix
    query: dict
    json: Any
    files: list[FileRecord]
    authorized: bool  # an "Authorization: Bot ..." header was present (the token itself is never stored)
    at: float
    status: Optional[int] = None
    response: Any = None

    def __repr__(self) -> str:
        return f"<Request {self.method} {shorten_tokens(self.path)} -> {self.status}>"


@dataclass
class AttachmentRecord:
    id: int
    filename: str
    content_type: str
    data: bytes
    url: str
    description: Optional[str] = None
    width: Optional[int] = None
    height: Optional[int] = None

    @property
    def size(self) -> int:
        return len(self.data)

    def to_dict(self, *, ephemeral: bool = False) -> dict:
        d = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description:
            d["description"] = self.description
        if self.width is not None:
            d["width"] = self.width
            d["height"] = self.height
        if ephemeral:
            d["ephemeral"] = True
        return d


class MessageRecord:
    """A message the bot (or a test user) created. ``data`` is the current Discord message object."""

    def __init__(self, data: dict, attachments: list[AttachmentRecord], *, payload: dict | None = None) -> None:
        self.data = data
        self.attachments = attachments
        self.payload = payload or {}  # the last request body that created/edited it
        self.history: list[dict] = []  # earlier versions of ``data``
        self.deleted = False
        self.interaction_id: Optional[int] = None
        self.dm_user_id: Optional[int] = None
        self.pinned = False
        self.loading_unedited = False  # a deferred "thinking" placeholder nobody has edited yet
        self.created_at = 0.0  # on the stand-in's clock (the old-message edit limit counts from it)

    @property
    def id(self) -> int:
        return int(self.data["id"])

    @property
    def channel_id(self) -> int:
        return int(self.data["channel_id"])

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def embeds(self) -> list[dict]:
        return self.data.get("embeds") or []

    @property
    def components(self) -> list[dict]:
        return self.data.get("components") or []

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def author_id(self) -> int:
        return int(self.data["author"]["id"])

    @property
    def edited(self) -> bool:
        return bool(self.history)

    def all_components(self) -> list[dict]:
        return list(walk_components(self.components))

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.all_components() if isinstance(c.get("custom_id"), str)]

    def component(self, custom_id: str) -> Optional[dict]:
        for c in self.all_components():
            if c.get("custom_id") == custom_id:
                return c
        return None

    def mention_ids(self) -> list[int]:
        """The users this message pinged (mentions Discord parsed under its allowed_mentions)."""
        return [int(u["id"]) for u in self.data.get("mentions") or []]

    def text(self) -> str:
        """Content, embed texts and text displays joined: handy for ``in`` assertions."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            parts += [(f.get("name") or "") + " " + (f.get("value") or "") for f in e.get("fields") or []]
            parts.append((e.get("footer") or {}).get("text") or "")
        parts += [c.get("content") or "" for c in self.all_components() if c.get("type") == 10]
        parts += [c.get("label") or "" for c in self.all_components() if c.get("type") == 2]
        return "\n".join(p for p in parts if p)

    def attachment(self, filename: str | None = None) -> AttachmentRecord:
        for a in self.attachments:
            if filename is None or a.filename == filename:
                return a
        raise LookupError(f"message {self.id} has no attachment {filename!r}: {[a.filename for a in self.attachments]}")

    def __repr__(self) -> str:
        flags = []
        if self.ephemeral:
            flags.append("ephemeral")
        if self.loading:
            flags.append("loading")
        if self.deleted:
            flags.append("deleted")
        return (
            f"<Message {self.id} ch={self.channel_id} {' '.join(flags)} content={self.content[:60]!r} "
            f"embeds={len(self.embeds)} files={[a.filename for a in self.attachments]} ids={self.custom_ids()[:6]}>"
        )


@dataclass
class CallbackRecord:
    """One accepted ``POST /interactions/{id}/{token}/callback``."""

    type: int
    data: Optional[dict]
    files: list[FileRecord]
    at: float
    latency: float  # seconds between dispatch and this callback
    message: Optional[MessageRecord] = None  # message created (4, 5) or edited (7)

    @property
    def flags(self) -> int:
        return int((self.data or {}).get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def content(self) -> str:
        return (self.data or {}).get("content") or ""

    @property
    def choices(self) -> list[dict]:
        return (self.data or {}).get("choices") or []

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)


class InteractionRecord:
    def __init__(self, payload: dict, dispatched_at: float) -> None:
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.dispatched_at = dispatched_at
        self.callbacks: list[CallbackRecord] = []
        self.rejected: list[tuple[int, dict]] = []  # (status, error body) of refused callbacks / follow-ups
        self.followups: list[MessageRecord] = []
        self.followup_requests = 0  # follow-ups asked for (Discord counts them where the app is user-installed)
        self.original: Optional[MessageRecord] = None
        self.expired = False  # the response deadline passed without a callback
        self.shard: Optional[int] = None  # the shard it was delivered to (None: unsharded bot)
        self.user_id = int((payload.get("member") or {}).get("user", payload.get("user") or {}).get("id"))
        self.channel_id = int(payload["channel"]["id"])

    @property
    def response(self) -> Optional[CallbackRecord]:
        return self.callbacks[0] if self.callbacks else None

    @property
    def messages(self) -> list[MessageRecord]:
        out = [self.original] if self.original is not None else []
        return out + [m for m in self.followups if m is not self.original]

    def __repr__(self) -> str:
        return f"<Interaction {self.id} type={self.type} callbacks={[c.type for c in self.callbacks]} followups={len(self.followups)}>"


class InteractionHandle:
    """Returned by ``FakeDiscord.send_slash`` & co.: await the bot's answers to one interaction."""

    def __init__(self, fake: "FakeDiscord", record: InteractionRecord) -> None:
        self._fake = fake
        self.record = record

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def token(self) -> str:
        return self.record.token

    @property
    def payload(self) -> dict:
        return self.record.payload

    @property
    def followups(self) -> list[MessageRecord]:
        return self.record.followups

    async def response(self, timeout: float = 5.0) -> CallbackRecord:
        """The first (and only valid) interaction callback."""
        return await self._fake.wait_until(
            lambda: self.record.response, timeout, f"a callback to interaction {self.id} ({self._describe()})"
        )

    async def followup(
        self, index: int = 0, predicate: Callable[[MessageRecord], Any] | None = None, timeout: float = 5.0
    ) -> MessageRecord:
        """The ``index``-th follow-up message (or the first one matching ``predicate``)."""

        def check():
            if predicate is not None:
                return next((m for m in self.record.followups if predicate(m)), None)
            return self.record.followups[index] if len(self.record.followups) > index else None

        return await self._fake.wait_until(check, timeout, f"follow-up #{index} of interaction {self.id}")

    async def original(self, predicate: Callable[[MessageRecord], Any] | None = None, timeout: float = 5.0) -> MessageRecord:
        """The @original response message, optionally waiting until ``predicate(message)`` holds
        (e.g. ``lambda m: not m.loading`` after a defer)."""

        def check():
            m = self.record.original
            if m is None:
                return None
            if predicate is not None and not predicate(m):
                return None
            return m

        return await self._fake.wait_until(check, timeout, f"the original response of interaction {self.id}")

    async def answer(self, predicate: Callable[[MessageRecord], Any] | None = None, timeout: float = 5.0) -> MessageRecord:
        """The bot's private answer to the person who interacted, as their client shows it: the
        @original response once it is no longer "thinking…" (a message, or a deferred one), or,
        after a click acknowledged as an update of its message (callback type 6), the first
        ephemeral follow-up; optionally the first one for which ``predicate(message)`` holds."""
        await self.response(timeout)
        return await self._fake.wait_until(
            lambda: next((m for m in self._answers() if predicate is None or predicate(m)), None),
            timeout, f"the answer to interaction {self.id}")

    def answered(self) -> str | None:
        """The text of the bot's answer if it has given one by now, else None; never waits (for
        checks that must not block on one interaction). A message callback (type 4 or 7) answers
        with its own content, otherwise the first message :meth:`answer` would return does."""
        response = self.record.response
        if response is None:
            return None
        if response.type in (4, 7):
            return response.data.get("content", "")
        return next((m.content for m in self._answers()), None)

    def _answers(self):
        """The messages that count as the answer so far, after a deferred or update callback."""
        if self.record.response.type == 6:
            return (m for m in self.record.followups if m.ephemeral)
        return (m for m in [self.record.original] if m is not None and not m.loading)

    async def message(self, predicate: Callable[[MessageRecord], Any], timeout: float = 5.0) -> MessageRecord:
        """Any message produced by this interaction (original or follow-up) matching ``predicate``."""
        return await self._fake.wait_until(
            lambda: next((m for m in self.record.messages if predicate(m)), None),
            timeout,
            f"a message of interaction {self.id} matching the predicate",
        )

    async def choices(self, timeout: float = 5.0) -> list[dict]:
        """Autocomplete results."""
        cb = await self.response(timeout)
        if cb.type != 8:
            raise AssertionError(f"expected an autocomplete result (type 8), got type {cb.type}")
        return cb.choices

    def _describe(self) -> str:
        data = self.record.payload.get("data") or {}
        return data.get("name") or data.get("custom_id") or "?"

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.record!r}>"


class Waiters:
    """Predicate waiters woken whenever the stand-in's state changes (no polling)."""

    def __init__(self) -> None:
        self._waiters: list[tuple[asyncio.Future, Callable[[], Any]]] = []

    def notify(self) -> None:
        for fut, pred in list(self._waiters):
            if fut.done():
                continue
            try:
                value = pred()
            except Exception as exc:  # surface predicate bugs in the waiting test
                fut.set_exception(exc)
                continue
            if value:
                fut.set_result(value)

    async def wait(self, pred: Callable[[], Any], timeout: float) -> Any:
        value = pred()
        if value:
            return value
        fut = asyncio.get_running_loop().create_future()
        entry = (fut, pred)
        self._waiters.append(entry)
        try:
            return await asyncio.wait_for(fut, max(timeout, HANG_BOUND_SECONDS))
        finally:
            self._waiters.remove(entry)
