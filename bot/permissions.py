"""The Discord permissions the bot asks for when a server invites it, and why it needs each.

    python -m bot.permissions [APPLICATION_ID]     # the list, the integer and the invite link

Bit positions are Discord's (https://discord.com/developers/docs/topics/permissions). The README's
invite link and docs/hosting.md show the integer; tests/test_docs.py recomputes it from this list,
checks each bit against discord.py's own flag of that name, and checks the README and hosting.md
name exactly this integer, so they cannot drift apart.

>>> invite_permissions()
2252126231301120
"""

from __future__ import annotations

# (discord.py's flag name, the name the Developer Portal shows, bit, why the bot needs it)
INVITE_PERMISSIONS: tuple[tuple[str, str, int, str], ...] = (
    ("view_channel", "View Channels", 10,
     "see the channel a game is started in, and the game's thread"),
    ("send_messages", "Send Messages", 11,
     "post lobbies, boards, reminders and spectators' notices in the channel"),
    ("attach_files", "Attach Files", 15,
     "attach the board image to every board message, and the recap of a finished game"),
    ("read_message_history", "Read Message History", 16,
     "read the previous board back to take its buttons off, and check a recap was not posted already"),
    ("manage_threads", "Manage Threads", 34,
     "reopen a game's thread that was archived and locked (games may wait longer than a thread stays open)"),
    ("create_public_threads", "Create Public Threads", 35,
     "give each game a thread of its own, started on its lobby message"),
    ("send_messages_in_threads", "Send Messages in Threads", 38,
     "post the game's boards and messages inside its thread"),
    ("pin_messages", "Pin Messages", 51,
     "pin the game's status message in its thread"),
)


def invite_permissions() -> int:
    """The permissions integer of the invite link."""
    return sum(1 << bit for _, _, bit, _ in INVITE_PERMISSIONS)


def invite_url(application_id: int | str) -> str:
    """The link that invites the bot with exactly these permissions and its slash commands."""
    return (f"https://discord.com/oauth2/authorize?client_id={application_id}"
            f"&scope=bot+applications.commands&permissions={invite_permissions()}")


def main(argv: list[str]) -> int:
    """``python -m bot.permissions [APPLICATION_ID]``: each permission and why, then the invite link."""
    for _, shown, bit, why in INVITE_PERMISSIONS:
        print(f"{shown:<26} 1 << {bit:<3} {why}")
    print(f"permissions integer: {invite_permissions()}")
    if argv:
        print(invite_url(argv[0]))
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
