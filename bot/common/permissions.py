"""The Discord permissions the bot asks for when a server invites it, why it needs each, and what a
game does where one is missing.

    python -m bot.common.permissions [APPLICATION_ID]     # the list, the integer and the invite link

Bit positions are Discord's (https://discord.com/developers/docs/topics/permissions). The README's
invite link, docs/hosting.md and docs/permissions.md show the integer; tests/test_docs.py and
tests/test_permissions.py recompute it from this list, check each bit against discord.py's own
flag of that name, and check those pages name exactly this integer, so they cannot drift apart.

The same list drives what the bot checks where a game is played: ``/game new`` and Start read the
bot's permissions in that channel (Discord's ``app_permissions``) and say, in the player's
language, what is missing and what the game does without it; ``/help`` shows them. No Discord
types here: the service reads this module too.

>>> invite_permissions()
2252126231301120
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from ..i18n import T, Text


@dataclass(frozen=True)
class Permission:
    name: str  # as Discord's documentation spells it
    bit: int
    shown: str  # as the Developer Portal shows it
    doc: str  # why the bot needs it, as the README and docs/hosting.md say

    @property
    def flag(self) -> str:
        """discord.py's name of the flag."""
        return self.name.lower()

    @property
    def value(self) -> int:
        return 1 << self.bit

    @property
    def label(self) -> Text:
        """Its name as Discord's own app shows it, in the reader's language."""
        return T(f"perm.{self.flag}")

    @property
    def why(self) -> Text:
        """What the bot does with it and what a game does without it, in the reader's language."""
        return T(f"perm.{self.flag}.why")


VIEW_CHANNEL = Permission("VIEW_CHANNEL", 10, "View Channels",
                          "see the channel a game is started in, and the game's thread")
SEND_MESSAGES = Permission("SEND_MESSAGES", 11, "Send Messages",
                           "post lobbies, boards, reminders and spectators' notices in the channel")
ATTACH_FILES = Permission("ATTACH_FILES", 15, "Attach Files",
                          "attach the board image to every board message, and the recap of a finished game")
READ_MESSAGE_HISTORY = Permission("READ_MESSAGE_HISTORY", 16, "Read Message History",
                                  "read the previous board back to take its buttons off, and check a recap was "
                                  "not posted already")
MANAGE_THREADS = Permission("MANAGE_THREADS", 34, "Manage Threads",
                            "reopen a game's thread that was archived and locked (games may wait longer than a "
                            "thread stays open)")
CREATE_PUBLIC_THREADS = Permission("CREATE_PUBLIC_THREADS", 35, "Create Public Threads",
                                   "give each game a thread of its own, started on its lobby message")
SEND_MESSAGES_IN_THREADS = Permission("SEND_MESSAGES_IN_THREADS", 38, "Send Messages in Threads",
                                      "post the game's boards and messages inside its thread")
# Split from Manage Messages; since 2026-01-12 Manage Messages no longer lets anyone pin.
PIN_MESSAGES = Permission("PIN_MESSAGES", 51, "Pin Messages", "pin the game's status message in its thread")

# What the invite asks for. Not asked for: Embed Links (the bot sends no embeds: a board is an
# uploaded image in a Components V2 message) and Manage Messages (it edits and pins only its own
# messages, and pinning has its own permission now).
REQUESTED = (VIEW_CHANNEL, SEND_MESSAGES, ATTACH_FILES, READ_MESSAGE_HISTORY, MANAGE_THREADS, CREATE_PUBLIC_THREADS,
             SEND_MESSAGES_IN_THREADS, PIN_MESSAGES)

# (discord.py's flag name, the name the Developer Portal shows, bit, why the bot needs it)
INVITE_PERMISSIONS: tuple[tuple[str, str, int, str], ...] = tuple((p.flag, p.shown, p.bit, p.doc) for p in REQUESTED)


def invite_permissions() -> int:
    """The permissions integer of the invite link."""
    return sum(1 << bit for _, _, bit, _ in INVITE_PERMISSIONS)


INVITE_INTEGER = invite_permissions()


def invite_url(application_id: int | str) -> str:
    """The link that invites the bot with exactly these permissions and its slash commands."""
    return (f"https://discord.com/oauth2/authorize?client_id={application_id}"
            f"&scope=bot+applications.commands&permissions={invite_permissions()}")


# ---- where a game is played ------------------------------------------------------------------------
@dataclass(frozen=True)
class Reach:
    """The bot's permissions in one channel or thread, as Discord resolved them (overwrites included)."""

    channel_id: int
    permissions: int
    in_thread: bool = False

    def has(self, permission: Permission) -> bool:
        return bool(self.permissions & permission.value)

    def to_show(self) -> list[Permission]:
        """Missing here to show a game at all: see the channel, post in it, upload the board image."""
        send = SEND_MESSAGES_IN_THREADS if self.in_thread else SEND_MESSAGES
        return [p for p in (VIEW_CHANNEL, send, ATTACH_FILES) if not self.has(p)]

    def for_thread(self, *, exists: bool) -> list[Permission]:
        """Missing here to play in a game thread: open one (unless it ``exists``) and post in it."""
        need = (SEND_MESSAGES_IN_THREADS,) if exists or self.in_thread else (CREATE_PUBLIC_THREADS,
                                                                           SEND_MESSAGES_IN_THREADS)
        return [p for p in need if not self.has(p)]

    def missing(self) -> list[Permission]:
        wanted = [p for p in REQUESTED if not (self.in_thread and p is CREATE_PUBLIC_THREADS)]  # no thread in a thread
        return [p for p in wanted if not self.has(p)]


@dataclass
class Plan:
    """How a game is played where the bot has ``Reach``: refused (``blocked`` names what is missing),
    in its own thread or not, with a pinned status message or the status in every board."""

    blocked: list[Permission]
    thread: bool
    pins: bool
    notices: list[Text] = field(default_factory=list)  # for the person who asked, in their language


def plan(reach: Reach, *, thread: bool, thread_exists: bool = False) -> Plan:
    """``thread``: the game wants its own thread (``thread_exists``: it has one already)."""
    notices = []
    if thread and (lacking := reach.for_thread(exists=thread_exists)):
        thread = False
        notices.append(T("perm.notice.no_thread", missing=[p.label for p in lacking]))
    pins = reach.has(PIN_MESSAGES)
    if thread and not pins:
        notices.append(T("perm.notice.no_pin", missing=[PIN_MESSAGES.label]))
    if not reach.has(READ_MESSAGE_HISTORY):
        notices.append(T("perm.notice.no_history", missing=[READ_MESSAGE_HISTORY.label]))
    return Plan(reach.to_show(), thread, pins, notices)


def blocked_error_params(missing: list[Permission]) -> dict:
    return {"missing": [p.label for p in missing]}


def help_lines(reach: Reach) -> list[Text]:
    """``/help``: what the bot lacks in this channel and what that changes; the invite integer."""
    missing = reach.missing()
    if not missing:
        lines = [T("perm.help.all_present")]
    else:
        lines = [T("perm.help.missing_header")] + [T("perm.help.line", name=p.label, why=p.why) for p in missing]
    return lines + [T("perm.help.invite", value=INVITE_INTEGER)]


def is_snowflake(text: str) -> bool:
    """Whether ``text`` can be a Discord id (an application's included): a snowflake, 17 to 20
    decimal digits (the id's timestamp makes every id since 2015 at least 17 digits long)."""
    return text.isascii() and text.isdigit() and 17 <= len(text) <= 20


def main(argv: list[str]) -> int:
    """``python -m bot.common.permissions [APPLICATION_ID]``: each permission and why, then the
    invite link. An id that is not a snowflake is refused (exit code 2, as for a usage error):
    a link with it would open Discord's own error page."""
    if argv and not is_snowflake(argv[0]):
        print(f"{argv[0]!r} is not an application id: an application id (a Discord snowflake) is 17 to 20 "
              "digits, as the Developer Portal shows it under General Information.", file=sys.stderr)
        return 2
    for _, shown, bit, why in INVITE_PERMISSIONS:
        print(f"{shown:<26} 1 << {bit:<3} {why}")
    print(f"permissions integer: {invite_permissions()}")
    if argv:
        print(invite_url(argv[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
