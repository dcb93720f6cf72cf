"""What a table needs of the bot in a channel: :func:`missing_permissions` names what it
lacks before a lobby opens there (``/play``, ``/daily``), and ``/status`` shows it to admins."""

from __future__ import annotations

import discord

NEEDED = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
}
"""What a table needs of the bot in its channel (the README's invite list)."""
IN_THREADS = {"send_messages_in_threads": "Send Messages in Threads"}
NEW_THREAD = {"create_public_threads": "Create Public Threads",
              "send_messages_in_threads": "Send Messages in Threads"}
PRIVATE_THREAD = {"create_private_threads": "Create Private Threads",
                  "send_messages_in_threads": "Send Messages in Threads"}
"""What ``/daily`` needs to play a deal in a private thread (else it uses a direct message)."""


def missing_permissions(permissions: discord.Permissions, *, in_thread: bool,
                        new_thread: bool) -> list[str]:
    """The names of the permissions a table here needs that ``permissions`` lacks."""
    needed = dict(NEEDED)
    if in_thread:
        needed.pop("send_messages")
        needed |= IN_THREADS
    if new_thread:
        needed |= NEW_THREAD
    return [name for flag, name in needed.items() if not getattr(permissions, flag)]


def missing_text(missing: list[str]) -> str:
    """The refusal naming what is missing."""
    return ("I cannot run a table here: I am missing the permission"
            + ("s " if len(missing) > 1 else " ") + ", ".join(f"**{m}**" for m in missing)
            + " in this channel. A server admin can grant them to Fivefold (channel settings, "
              "Permissions), then try again.")


__all__ = ["IN_THREADS", "NEEDED", "NEW_THREAD", "PRIVATE_THREAD", "missing_permissions",
           "missing_text"]
