"""A local Discord stand-in (REST + gateway) for end-to-end tests. See README.md."""

from .records import (
    AttachmentRecord,
    CallbackRecord,
    FileRecord,
    InteractionHandle,
    InteractionRecord,
    MessageRecord,
    RequestRecord,
    Violation,
)
from .server import FakeDiscord
from .util import make_png

__all__ = [
    "AttachmentRecord",
    "CallbackRecord",
    "FakeDiscord",
    "FileRecord",
    "InteractionHandle",
    "InteractionRecord",
    "MessageRecord",
    "RequestRecord",
    "Violation",
    "make_png",
]
