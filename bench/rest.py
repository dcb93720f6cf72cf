"""What the bot's own process spends on each REST call, on kept connections and through aiohttp.

``python -m bench.rest`` makes REST calls as the bot makes them to Discord, against a
local server in a process of its own (127.0.0.1), and measures the CPU this process spends
on each, from the call to its answer read: once through :class:`bot.rest.RestSession`,
which the bot uses, and once through an ``aiohttp.ClientSession`` made as discord.py makes
its own (no connection limit, no cookies). The two alternate, round by round, and each
round's ratio is given. The server's work is in its own process, so what is measured is
the client's cost. On uvloop where it is installed, as the bot.

The calls: *answer*, an interaction's answer (a hand menu's JSON out, 204 back); *edit*, a
message edited (its JSON out, the message's JSON back); *upload*, a table picture sent as
discord.py sends one (a form of the message's JSON and ``--picture-bytes`` of PNG).
``--in-flight`` calls are kept going at once, as many tables do.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import random
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from aiohttp import web

from bench.rules import chosen_kinds, per_call_options, report_per_call
from bot.__main__ import event_loop
from bot.rest import RestSession

KINDS = ("answer", "edit", "upload")
SIDES = ("kept", "aiohttp")

MENU = json.dumps({"type": 7, "data": {"content": "Your hand: " + "9♠ " * 12, "components": [
    {"type": 1, "components": [{"type": 2, "custom_id": f"ff:1:{r}:{i}", "label": f"{i}♥",
                                "style": 2} for i in range(5)]} for r in range(5)]}})
"""An answer as the bot sends one: a hand menu of 25 buttons."""

MESSAGE = json.dumps({"id": "1" * 18, "channel_id": "2" * 18, "content": "x" * 600,
                      "components": [], "attachments": [], "embeds": []})
"""A message as Discord sends it back after an edit."""

HEADERS = {"User-Agent": "DiscordBot (https://github.com/Rapptz/discord.py 2.7) Python/3.11",
           "Authorization": "Bot abc.def.ghi"}


async def answer(request: web.Request) -> web.Response:
    """Discord's side: read the call whole, answer as Discord answers that kind."""
    if request.content_type.startswith("multipart/"):
        await request.post()
    else:
        await request.read()
    if request.method == "POST":
        return web.Response(status=204, headers={"X-RateLimit-Remaining": "4"})
    return web.Response(body=MESSAGE.encode(), content_type="application/json",
                        headers={"X-RateLimit-Remaining": "4", "X-RateLimit-Bucket": "b"})


def serve() -> None:
    """``--serve``: listen on a free port of 127.0.0.1, say which on stdout, serve until
    stdin closes."""
    async def run() -> None:
        app = web.Application(client_max_size=8 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", answer)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        print(port, flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        await runner.cleanup()

    factory, _ = event_loop()
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(run())


Call = Callable[[int], Awaitable[None]]


def calls(session: Any, base: str, kind: str, picture_bytes: int) -> Call:
    """One call of ``kind`` through ``session`` (either side), its answer read as
    discord.py reads it (the text, then a header)."""
    picture = random.Random(5).randbytes(picture_bytes)

    async def one(number: int) -> None:
        headers = dict(HEADERS)
        if kind == "answer":
            url = f"{base}/api/v10/interactions/{10**17 + number}/token{number}/callback"
            method, data = "POST", MENU
            headers["Content-Type"] = "application/json"
        elif kind == "edit":
            url = f"{base}/api/v10/channels/{10**17}/messages/{10**17 + number}"
            method, data = "PATCH", MENU
            headers["Content-Type"] = "application/json"
        else:
            url = f"{base}/api/v10/channels/{10**17}/messages/{10**17 + number}"
            method = "PATCH"
            data = aiohttp.FormData(quote_fields=False)
            data.add_field(name="payload_json", value=MENU)
            data.add_field(name="files[0]", value=io.BytesIO(picture), filename="table.png",
                           content_type="application/octet-stream")
        async with session.request(method, url, data=data, headers=headers) as response:
            await response.text(encoding="utf-8")
            response.headers.get("X-RateLimit-Bucket")
            if response.status >= 300:
                raise RuntimeError(f"the server answered {response.status}")

    return one


async def per_call(call: Call, count: int, in_flight: int) -> float:
    """Microseconds of this process's CPU a call, over ``count`` calls."""
    numbers = iter(range(count))

    async def lane() -> None:
        for number in numbers:
            await call(number)

    start = time.process_time()
    await asyncio.gather(*(lane() for _ in range(in_flight)))
    return (time.process_time() - start) / count * 1e6


async def measure(kinds: list[str], count: int, rounds: int, in_flight: int,
                  picture_bytes: int) -> dict[str, dict[str, list[float]]]:
    """Each kind's µs a call on each side, round by round, the sides alternating."""
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.rest", "--serve", stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE)
    assert server.stdout is not None and server.stdin is not None
    sessions: dict[str, Any] = {}
    try:
        line = await asyncio.wait_for(server.stdout.readline(), 30)
        if not line.strip():
            raise RuntimeError("the server did not start")
        base = f"http://127.0.0.1:{int(line)}"
        for side in SIDES:
            made = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                         cookie_jar=aiohttp.DummyCookieJar())
            sessions[side] = RestSession(made) if side == "kept" else made
        figures: dict[str, dict[str, list[float]]] = {kind: {s: [] for s in SIDES}
                                                      for kind in kinds}
        for kind in kinds:
            for side in SIDES:  # warm both: connections open, code paths taken
                await per_call(calls(sessions[side], base, kind, picture_bytes), 50, in_flight)
            for number in range(rounds):  # alternating, so a busier moment moves both alike
                for side in SIDES if number % 2 == 0 else SIDES[::-1]:
                    figures[kind][side].append(await per_call(
                        calls(sessions[side], base, kind, picture_bytes), count, in_flight))
        return figures
    finally:
        for session in sessions.values():
            await session.close()
        server.stdin.close()
        try:
            await asyncio.wait_for(server.wait(), 10)
        except TimeoutError:
            server.kill()
            await server.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.rest", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    per_call_options(parser, KINDS, calls=4000, in_flight=20,
                     picture_help="the size of an upload's picture")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve()
        return 0
    kinds = chosen_kinds(parser, args, KINDS)
    if min(args.calls, args.rounds, args.in_flight, args.picture_bytes) < 1:
        parser.error("--calls, --rounds, --in-flight and --picture-bytes take at least 1")
    factory, loop_name = event_loop()
    with asyncio.Runner(loop_factory=factory) as runner:
        figures = runner.run(measure(kinds, args.calls, args.rounds, args.in_flight,
                                     args.picture_bytes))
    report_per_call(args, figures, loop=loop_name, this="kept", reference="aiohttp",
                    names=("kept connections", "aiohttp"),
                    heading=f"this process's CPU a REST call, µs, median (min-max) of "
                            f"{args.rounds} rounds of {args.calls} calls, {args.in_flight} "
                            f"at once, {loop_name}:")
    return 0


if __name__ == "__main__":
    sys.exit(main())
