"""What discord.py spends turning one click into an ``Interaction`` and finding its item.

``python -m bench.clicks`` builds the gateway payload of a click on a hand menu of
``--buttons`` buttons, then times, in this process, what discord.py does with it before
any handler of ours runs: the ``Interaction`` (its message and every component parsed)
and the view discord.py makes from that message to find the dynamic item clicked. Once
with the payload whole, once cut by the gate to the clicked button
(:func:`cogs.clicks.deadline.clicked_only`); the two alternate, round by round, and each
round's ratio is given. CPU time, microseconds a click.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import asdict
from typing import Any

import discord
from discord.utils import time_snowflake, utcnow

from bench.rules import Spread, machine
from cogs import ids
from cogs.clicks.deadline import clicked_only

PER_ROW = 5
USER = {"id": "7", "username": "alice", "discriminator": "0", "avatar": None}
BOT = {"id": "1", "username": "fivefold", "discriminator": "0", "avatar": None}


def payload(buttons: int) -> dict[str, Any]:
    """A click on the middle card of an ephemeral hand menu of ``buttons`` card buttons,
    as the gateway sends it."""
    customs = [ids.card_id("t1234567", 7, f"S{n % 13 + 1}", n) for n in range(buttons)]
    rows = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": f"card {n}", "custom_id": customs[n]}
        for n in range(start, min(start + PER_ROW, buttons))]}
        for start in range(0, buttons, PER_ROW)]
    return {
        "type": 3, "id": str(time_snowflake(utcnow())), "token": "token", "version": 1,
        "application_id": "1", "attachment_size_limit": 10_485_760, "entitlements": [],
        "authorizing_integration_owners": {}, "context": 0, "locale": "en-US",
        "app_permissions": "0", "channel_id": "5", "guild_id": "6",
        "channel": {"id": "5", "type": 0, "guild_id": "6", "name": "table", "position": 0,
                    "permission_overwrites": [], "nsfw": False, "parent_id": None},
        "member": {"user": USER, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                   "deaf": False, "mute": False, "permissions": "0", "flags": 0},
        "data": {"custom_id": customs[buttons // 2], "component_type": 2},
        "message": {"id": "9", "channel_id": "5", "type": 0, "flags": 64,
                    "content": "Your hand: " + ", ".join(f"card {n}" for n in range(buttons)),
                    "author": BOT, "attachments": [], "embeds": [], "mentions": [],
                    "mention_roles": [], "pinned": False, "mention_everyone": False,
                    "tts": False, "timestamp": "2026-01-01T00:00:00+00:00",
                    "edited_timestamp": None, "components": rows},
    }


def state() -> Any:
    """A connection state that builds interactions as a logged-in client's does."""
    client = discord.Client(intents=discord.Intents.none())
    connection = client._connection
    connection.user = discord.ClientUser(state=connection, data=BOT)  # type: ignore[arg-type]
    return connection


def parse(data: dict[str, Any], connection: Any) -> int:
    """discord.py's work for one click: the interaction, then the view of its message."""
    interaction = discord.Interaction(data=data, state=connection)  # type: ignore[arg-type]
    assert interaction.message is not None
    view = discord.ui.View.from_message(interaction.message, timeout=None)
    return len(view.children)


def per_click(data: dict[str, Any], connection: Any, clicks: int, cut: bool) -> float:
    """Microseconds of CPU a click, over ``clicks`` clicks (the gate's cut included)."""
    start = time.process_time()
    for _ in range(clicks):
        parse(clicked_only(data) if cut else data, connection)
    return (time.process_time() - start) / clicks * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.clicks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--buttons", type=int, default=25, help="buttons on the menu (1-25)")
    parser.add_argument("--clicks", type=int, default=3000, help="clicks a round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args(argv)
    if not 1 <= args.buttons <= 25 or args.clicks < 1 or args.rounds < 1:
        parser.error("--buttons takes 1 to 25; --clicks and --rounds at least 1")
    data, connection = payload(args.buttons), state()
    assert parse(clicked_only(data), connection) == 1 and parse(data, connection) == args.buttons
    whole: list[float] = []
    cut: list[float] = []
    for number in range(args.rounds):  # alternating, so a busier moment moves both alike
        for side in ((False, True) if number % 2 == 0 else (True, False)):
            (cut if side else whole).append(per_click(data, connection, args.clicks, side))
    ratios = [c / w for c, w in zip(cut, whole, strict=True)]
    result = {"machine": machine(), "buttons": args.buttons, "clicks": args.clicks,
              "rounds": args.rounds, "whole_us": asdict(Spread.of(whole)),
              "cut_us": asdict(Spread.of(cut)), "cut_over_whole": asdict(Spread.of(ratios))}
    print(f"a click on a menu of {args.buttons} buttons, discord.py's interaction and view, "
          f"CPU µs a click, median (min-max) of {args.rounds} rounds of {args.clicks}:")
    print(f"  whole payload {Spread.of(whole).text(',.0f')}")
    print(f"  cut by the gate {Spread.of(cut).text(',.0f')}")
    print(f"  cut / whole {Spread.of(ratios).text('.2f')} (round by round)")
    print(f"  median {statistics.median(whole) - statistics.median(cut):,.0f} µs saved a click")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
