"""Discord's REST calls on kept connections (bot/rest.py), against local servers.

An aiohttp server stands for Discord where an answer is ordinary; a raw socket server
where it is not (an answer cut short, garbled, ending with its connection, or a kept
connection the server had closed). Every server listens on 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import io
import json
import socket
import ssl
import struct
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import discord
import pytest
import trustme
from aiohttp import web
from aiohttp.test_utils import TestServer
from multidict import CIMultiDict, CIMultiDictProxy

from bot import rest
from bot.rest import RestResponse, RestSession


@contextlib.asynccontextmanager
async def serving(handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
                  ssl_context: ssl.SSLContext | None = None) -> AsyncIterator[TestServer]:
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server(ssl=ssl_context)
    try:
        yield server
    finally:
        await server.close()


@contextlib.asynccontextmanager
async def raw_server(answer: Callable[[asyncio.StreamReader, asyncio.StreamWriter, int],
                                      Awaitable[None]]) -> AsyncIterator[dict[str, Any]]:
    """A server that reads requests itself; ``answer(reader, writer, n)`` for the n-th
    connection. Yields its port and the connections it took."""
    seen: dict[str, Any] = {"connections": 0}

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen["connections"] += 1
        try:
            await answer(reader, writer, seen["connections"])
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    seen["port"] = server.sockets[0].getsockname()[1]
    try:
        yield seen
    finally:
        server.close()
        await server.wait_closed()


async def read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return head + await reader.readexactly(length)


def replying(reply: bytes, *, then: str = "close") -> Callable[..., Awaitable[None]]:
    """A raw server's answer: read the request, write ``reply``, then close the connection
    (``then="close"``) or wait until the client does (``then="wait"``)."""
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int
                     ) -> None:
        await read_request(reader)
        writer.write(reply)
        await writer.drain()
        if then == "wait":
            await reader.read()

    return answer


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait for ``condition``, a turn of the loop at a time (at most 10 s: then fail)."""
    async with asyncio.timeout(10):
        while not condition():
            await asyncio.sleep(0.01)
    assert condition(), what


@pytest.fixture
async def session() -> AsyncIterator[RestSession]:
    wrapped = aiohttp.ClientSession()
    lean = RestSession(wrapped)
    yield lean
    await lean.close()


async def test_a_call_is_answered_and_its_connection_kept_for_the_next(session: RestSession
                                                                       ) -> None:
    seen: list[dict[str, Any]] = []

    async def handler(request: web.Request) -> web.Response:
        seen.append({"method": request.method, "path": request.path_qs,
                     "headers": dict(request.headers), "body": await request.text(),
                     "peer": request.transport.get_extra_info("peername")})  # type: ignore[union-attr]
        return web.json_response({"id": "1"}, headers={"X-RateLimit-Bucket": "abc"})

    async with serving(handler) as server:
        port = server.port
        url = f"http://127.0.0.1:{port}/api/v10/channels/1/messages"
        for _ in range(2):
            async with session.request("POST", url, data='{"content": "hi ♠"}',
                                       headers={"Content-Type": "application/json",
                                                "Authorization": "Bot t"}) as response:
                assert response.status == 200 and response.reason == "OK"
                assert response.headers["x-ratelimit-bucket"] == "abc"
                assert response.content_type == "application/json"
                assert await response.json() == {"id": "1"}
                assert await response.text(encoding="utf-8") == '{"id": "1"}'
        assert session.calls == 2
    assert seen[0]["method"] == "POST" and seen[0]["path"] == "/api/v10/channels/1/messages"
    assert seen[0]["body"] == '{"content": "hi ♠"}'
    assert seen[0]["headers"]["Authorization"] == "Bot t"
    assert seen[0]["headers"]["Content-Length"] == str(len('{"content": "hi ♠"}'.encode()))
    assert seen[0]["headers"]["Host"] == f"127.0.0.1:{port}"
    assert seen[0]["headers"]["User-Agent"] == rest.USER_AGENT
    assert seen[0]["headers"]["Accept-Encoding"] == "identity"  # answers come plain
    assert seen[0]["peer"] == seen[1]["peer"], "the second call took a new connection"


async def test_a_query_is_encoded_as_aiohttp_encodes_it(session: RestSession) -> None:
    paths: list[str] = []

    async def handler(request: web.Request) -> web.Response:
        paths.append(request.raw_path)
        return web.Response(status=204)

    async with serving(handler) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with session.request("GET", f"{base}/a b/é", params={"wait": 1, "x": "a&b"}):
            pass
        async with session.request("DELETE", f"{base}/plain?with_response=false"):
            pass
    assert paths == ["/a%20b/%C3%A9?wait=1&x=a%26b", "/plain?with_response=false"]


async def test_calls_at_once_each_take_a_connection_then_are_kept(session: RestSession
                                                                  ) -> None:
    arrived: set[Any] = set()
    everyone = asyncio.Event()

    async def handler(request: web.Request) -> web.Response:
        arrived.add(request.transport.get_extra_info("peername"))  # type: ignore[union-attr]
        if len(arrived) == 5:
            everyone.set()
        await everyone.wait()  # no answer until all five are in: five connections
        return web.Response(text="ok")

    async with serving(handler) as server:
        url = f"http://127.0.0.1:{server.port}/x"

        async def call() -> str:
            async with session.request("PATCH", url, data=b"{}") as response:
                return await response.text()

        assert await asyncio.gather(*(call() for _ in range(5))) == ["ok"] * 5
        assert len(arrived) == 5
        assert session.idle_connections() == 5


async def test_an_answer_that_closes_its_connection_is_not_kept(session: RestSession) -> None:
    peers: list[Any] = []

    async def handler(request: web.Request) -> web.Response:
        peers.append(request.transport.get_extra_info("peername"))  # type: ignore[union-attr]
        return web.Response(text="bye", headers={"Connection": "close"})

    async with serving(handler) as server:
        for _ in range(2):
            async with session.request("GET", f"http://127.0.0.1:{server.port}/") as response:
                assert await response.text() == "bye"
            assert session.idle_connections() == 0
    assert peers[0] != peers[1]


async def test_chunked_and_gzip_answers_are_read_whole(session: RestSession) -> None:
    async def handler(request: web.Request) -> web.StreamResponse:
        if request.path == "/chunked":
            response = web.StreamResponse()
            response.enable_chunked_encoding()
            await response.prepare(request)
            for part in (b"one ", b"two ", b"three"):
                await response.write(part)
            await response.write_eof()
            return response
        return web.Response(body=gzip.compress(b"squeezed" * 100),
                            headers={"Content-Encoding": "gzip"})

    async with serving(handler) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with session.request("GET", f"{base}/chunked") as response:
            assert await response.read() == b"one two three"
        async with session.request("GET", f"{base}/gzip") as response:
            assert await response.read() == b"squeezed" * 100
        assert session.idle_connections() == 1


async def test_an_answer_ended_by_its_connection_is_read(session: RestSession) -> None:
    answer = replying(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end")
    async with raw_server(answer) as server, \
            session.request("GET", f"http://127.0.0.1:{server['port']}/") as response:
        assert await response.text() == "until the end"
    assert session.idle_connections() == 0


@pytest.mark.parametrize("reply", [b"", b"HTTP/1.1 200 OK\r\nContent-Len",
                                   b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf"],
                         ids=["nothing", "headers cut", "body cut"])
async def test_a_connection_closed_before_its_answer_fails_the_call(
        session: RestSession, reply: bytes) -> None:
    async with raw_server(replying(reply)) as server:
        with pytest.raises(aiohttp.ServerDisconnectedError):
            async with session.request("POST", f"http://127.0.0.1:{server['port']}/",
                                       data="{}"):
                pass
        assert server["connections"] == 1, "a POST was sent twice"
    assert session.idle_connections() == 0


async def test_a_garbled_answer_is_a_payload_error(session: RestSession) -> None:
    async with raw_server(replying(b"SMTP ready\r\n\r\n", then="wait")) as server:
        with pytest.raises(aiohttp.ClientPayloadError, match="not HTTP"):
            async with session.request("GET", f"http://127.0.0.1:{server['port']}/"):
                pass
    assert session.idle_connections() == 0


@pytest.mark.parametrize(("method", "repeated"), [("GET", True), ("DELETE", True),
                                                  ("POST", False), ("PATCH", False)])
async def test_a_kept_connection_found_closed_is_tried_again_only_where_that_is_safe(
        session: RestSession, method: str, repeated: bool) -> None:
    """Each connection answers one request and closes on the next without a word: the
    race of a call that takes a kept connection as the server lets it go."""
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int
                     ) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        await writer.drain()
        await read_request(reader)  # the second request: dropped, the connection closed

    async with raw_server(answer) as server:
        url = f"http://127.0.0.1:{server['port']}/"
        async with session.request(method, url) as response:
            assert await response.read() == b"ok"
        if repeated:
            async with session.request(method, url) as response:
                assert await response.read() == b"ok"
            assert server["connections"] == 2
        else:
            with pytest.raises(aiohttp.ServerDisconnectedError):
                async with session.request(method, url):
                    pass
            assert server["connections"] == 1, f"a {method} was sent again"


async def test_an_idle_connection_is_closed_after_the_keepalive() -> None:
    closed = asyncio.Event()

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int
                     ) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
        await writer.drain()
        assert await reader.read() == b""  # the client closed it
        closed.set()

    lean = RestSession(aiohttp.ClientSession(), keepalive=0.05)
    try:
        async with raw_server(answer) as server:
            async with lean.request("GET", f"http://127.0.0.1:{server['port']}/") as response:
                assert response.status == 204
            assert lean.idle_connections() == 1
            async with asyncio.timeout(10):
                await closed.wait()
            assert lean.idle_connections() == 0
    finally:
        await lean.close()


async def test_a_cancelled_call_closes_its_connection_and_the_next_takes_a_new_one(
        session: RestSession) -> None:
    got = asyncio.Event()
    dropped = asyncio.Event()

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int
                     ) -> None:
        await read_request(reader)
        if n == 1:
            got.set()
            assert await reader.read() == b""
            dropped.set()
            return
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfresh")
        await writer.drain()
        await reader.read()

    async with raw_server(answer) as server:
        url = f"http://127.0.0.1:{server['port']}/"

        async def call() -> None:
            async with session.request("POST", url, data="{}"):
                pass

        task = asyncio.create_task(call())
        async with asyncio.timeout(10):
            await got.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with asyncio.timeout(10):
            await dropped.wait()
        async with session.request("POST", url, data="{}") as response:
            assert await response.read() == b"fresh"
        assert server["connections"] == 2


async def test_a_form_of_files_is_sent_whole_as_aiohttp_would(session: RestSession) -> None:
    """discord.py's upload: the payload's JSON and a file, as multipart/form-data."""
    got: dict[str, Any] = {}

    async def handler(request: web.Request) -> web.Response:
        got["type"] = request.content_type
        form = await request.post()
        got["payload_json"] = form["payload_json"]
        picture = form["files[0]"]
        assert isinstance(picture, web.FileField)
        got["file"] = (picture.filename, picture.content_type, picture.file.read())
        return web.Response(status=204)

    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(name="payload_json", value='{"content": "a picture"}')
    form.add_field(name="files[0]", value=io.BytesIO(png), filename="table.png",
                   content_type="application/octet-stream")
    async with serving(handler) as server:
        async with session.request("PATCH", f"http://127.0.0.1:{server.port}/m",
                                   data=form) as response:
            assert response.status == 204
        assert session.calls == 1
    assert got == {"type": "multipart/form-data", "payload_json": '{"content": "a picture"}',
                   "file": ("table.png", "application/octet-stream", png)}


async def test_a_call_not_answered_in_time_is_a_timeout_error() -> None:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int
                     ) -> None:
        await read_request(reader)
        await reader.read()  # never answers

    lean = RestSession(aiohttp.ClientSession(), timeout=0.2)
    try:
        async with raw_server(answer) as server:
            with pytest.raises(TimeoutError):
                async with lean.request("GET", f"http://127.0.0.1:{server['port']}/"):
                    pass
            assert lean.idle_connections() == 0
    finally:
        await lean.close()


async def test_a_header_with_a_line_break_is_refused_before_anything_is_sent(
        session: RestSession) -> None:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int
                     ) -> None:
        await reader.read()

    async with raw_server(answer) as server:
        for headers in ({"X-Audit-Log-Reason": "a\r\nX-Evil: 1"}, {"X:Y": "1"}):
            with pytest.raises(ValueError, match="line break or a colon"):
                async with session.request("POST", f"http://127.0.0.1:{server['port']}/",
                                           data="{}", headers=headers):
                    pass
        assert server["connections"] == 0


async def test_a_host_that_does_not_answer_is_aiohttps_connection_error(
        session: RestSession) -> None:
    probe = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = probe.sockets[0].getsockname()[1]
    probe.close()
    await probe.wait_closed()
    with pytest.raises(aiohttp.ClientOSError) as caught:
        async with session.request("GET", f"http://127.0.0.1:{port}/"):
            pass
    assert isinstance(caught.value, OSError)  # discord.py's retry reads errno from it


async def test_https_is_checked_against_the_trusted_certificates() -> None:
    authority = trustme.CA()
    certificate = authority.issue_cert("127.0.0.1")
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    certificate.configure_cert(server_context)
    client_context = ssl.create_default_context()
    authority.configure_trust(client_context)

    async def handler(request: web.Request) -> web.Response:
        return web.Response(text=f"secure {request.secure}")

    async with serving(handler, server_context) as server:
        url = f"https://127.0.0.1:{server.port}/"
        trusting = RestSession(aiohttp.ClientSession(), ssl_context=client_context)
        untrusting = RestSession(aiohttp.ClientSession())
        try:
            async with trusting.request("GET", url) as response:
                assert await response.text() == "secure True"
            with pytest.raises(aiohttp.ClientOSError, match="CERTIFICATE_VERIFY_FAILED"):
                async with untrusting.request("GET", url):
                    pass
        finally:
            await trusting.close()
            await untrusting.close()


class Recorder:
    """A stand-in for the aiohttp session: records what it is handed."""

    closed = False

    def __init__(self) -> None:
        self.handed: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def request(self, *args: Any, **kwargs: Any) -> str:
        self.handed.append(("request", args, kwargs))
        return "aiohttp's"

    def ws_connect(self, *args: Any, **kwargs: Any) -> str:
        self.handed.append(("ws_connect", args, kwargs))
        return "aiohttp's"

    def get(self, *args: Any, **kwargs: Any) -> str:
        self.handed.append(("get", args, kwargs))
        return "aiohttp's"

    async def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("kwargs", [
    {"data": "{}", "proxy": "http://proxy:3128"},
    {"data": iter([b"a stream"])},
    {"data": "{}", "timeout": aiohttp.ClientTimeout(total=1)},
    {"data": "{}", "headers": {"Content-Length": "2"}},
    {"json": {"a": 1}},
], ids=["proxy", "stream", "timeout", "own length", "json"])
async def test_what_is_not_a_plain_rest_call_goes_to_aiohttp(kwargs: dict[str, Any]) -> None:
    recorder = Recorder()
    lean = RestSession(recorder)  # type: ignore[arg-type]
    assert lean.request("POST", "https://discord.com/api/v10/x", **kwargs) == "aiohttp's"
    assert lean.request("HEAD", "https://discord.com/api/v10/x") == "aiohttp's"
    assert lean.ws_connect("wss://gateway.discord.gg") == "aiohttp's"
    assert lean.get("https://cdn.discordapp.com/x.png") == "aiohttp's"
    assert [name for name, _, _ in recorder.handed] == ["request", "request", "ws_connect",
                                                        "get"]
    assert recorder.handed[0][2] == kwargs
    assert lean.calls == 0
    await lean.close()
    assert recorder.closed and lean.closed


async def test_close_ends_every_connection_and_the_aiohttp_session() -> None:
    ended = asyncio.Event()

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int
                     ) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        assert await reader.read() == b""
        ended.set()

    wrapped = aiohttp.ClientSession()
    lean = RestSession(wrapped)
    async with raw_server(answer) as server:
        async with lean.request("PUT", f"http://127.0.0.1:{server['port']}/", data=b""):
            pass
        await lean.close()
        async with asyncio.timeout(10):
            await ended.wait()
    assert wrapped.closed and lean.closed
    assert lean.idle_connections() == 0


async def test_discord_py_reads_errors_and_rate_limits_from_the_answers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py's own HTTP client on a RestSession: a 429 waited out and retried, a 404
    raised as NotFound with Discord's code and message."""
    asked: list[str] = []

    def answer(document: dict[str, Any], status: int = 200, **headers: str) -> web.Response:
        """JSON as Discord sends it: ``application/json``, no charset (discord.py reads
        a body as JSON only then)."""
        return web.Response(body=json.dumps(document).encode(), status=status,
                            headers={"Content-Type": "application/json"} | headers)

    async def handler(request: web.Request) -> web.Response:
        asked.append(request.path)
        if request.path.endswith("/limited") and asked.count(request.path) == 1:
            return answer({"message": "slow down", "retry_after": 0.01, "global": False},
                          429, Via="1.1 google", **{"X-RateLimit-Remaining": "0"})
        if request.path.endswith("/gone"):
            return answer({"message": "Unknown Message", "code": 10008}, 404)
        return answer({"ok": True}, **{"X-RateLimit-Remaining": "4", "X-RateLimit-Limit": "5",
                                       "X-RateLimit-Reset-After": "1",
                                       "X-RateLimit-Bucket": "b"})

    async with serving(handler) as server:
        monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{server.port}")
        http = discord.http.HTTPClient(asyncio.get_running_loop())
        http._HTTPClient__session = RestSession(aiohttp.ClientSession())  # type: ignore[attr-defined]
        http.token = "t"
        http._global_over = asyncio.Event()  # as static_login sets it
        http._global_over.set()
        try:
            assert await http.request(discord.http.Route("GET", "/limited")) == {"ok": True}
            with pytest.raises(discord.NotFound) as caught:
                await http.request(discord.http.Route("DELETE", "/gone"))
            assert caught.value.code == 10008 and caught.value.text == "Unknown Message"
            assert caught.value.status == 404
            assert "404 Not Found" in str(caught.value)
        finally:
            await http.close()
    assert asked == ["/limited", "/limited", "/gone"]


def test_install_wraps_discord_pys_session_once() -> None:
    class FakeHTTP:
        _HTTPClient__session: Any = Recorder()

    http = FakeHTTP()
    said = rest.install(http)
    assert "kept HTTP/1.1 connections" in said
    lean = http._HTTPClient__session
    assert isinstance(lean, RestSession)
    rest.install(http)
    assert http._HTTPClient__session is lean


# What an independent review found (each test failed before its mend).


@pytest.mark.parametrize("interim", [b"HTTP/1.1 100 Continue\r\n\r\n",
                                     b"HTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload"
                                     b"\r\n\r\n"], ids=["100", "103"])
async def test_an_interim_1xx_answer_is_skipped_and_never_answers_the_next_call(
        session: RestSession, interim: bytes) -> None:
    """Whether the final answer comes in the interim one's packet or a later one (the
    pause makes a later one likely, not certain), the call gets the final answer and the
    next call its own: before the mend, one or the other got the 1xx."""
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int
                     ) -> None:
        await read_request(reader)
        writer.write(interim)
        await writer.drain()
        await asyncio.sleep(0.05)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst")
        await writer.drain()
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecond")
        await writer.drain()
        await reader.read()

    async with raw_server(answer) as server:
        url = f"http://127.0.0.1:{server['port']}/"
        got = []
        for _ in range(2):
            async with session.request("POST", url, data="{}") as response:
                got.append((response.status, await response.read()))
    assert got == [(200, b"first"), (200, b"second")]


async def test_an_interim_answer_then_a_close_fails_the_call(session: RestSession) -> None:
    answer = replying(b"HTTP/1.1 100 Continue\r\n\r\n")
    async with raw_server(answer) as server, asyncio.timeout(10):
        with pytest.raises(aiohttp.ServerDisconnectedError):
            async with session.request("POST", f"http://127.0.0.1:{server['port']}/",
                                       data="{}"):
                pass


async def test_a_connection_with_stray_bytes_after_its_answer_is_not_kept(
        session: RestSession) -> None:
    """Bytes past a whole answer would be read as the start of the next call's answer
    (a 500 here, which discord.py would answer by sending its POST again)."""
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int
                     ) -> None:
        await read_request(reader)
        if n == 1:
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 500 Inte")
            await writer.drain()
            await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecond")
        await writer.drain()
        await reader.read()

    async with raw_server(answer) as server:
        url = f"http://127.0.0.1:{server['port']}/"
        for expected in (b"ok", b"second"):
            async with session.request("GET", url) as response:
                assert (response.status, await response.read()) == (200, expected)
        assert server["connections"] == 2


async def test_a_reset_before_the_answer_is_aiohttps_os_error_with_its_errno(
        session: RestSession) -> None:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int
                     ) -> None:
        await read_request(reader)
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()  # an RST

    async with raw_server(answer) as server:
        with pytest.raises(aiohttp.ClientOSError) as caught:
            async with session.request("POST", f"http://127.0.0.1:{server['port']}/",
                                       data="{}"):
                pass
        assert server["connections"] == 1
    assert caught.value.errno is not None  # discord.py's retry reads it (54/10054)


async def test_the_retry_takes_a_new_connection_not_another_stale_one(
        session: RestSession) -> None:
    both = asyncio.Event()

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int
                     ) -> None:
        await read_request(reader)
        if n == 2:
            both.set()
        if n <= 2:
            await both.wait()  # the first two calls at once: two kept connections
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        await writer.drain()
        await read_request(reader)  # then dropped without a word, as a server going away

    async with raw_server(answer) as server:
        url = f"http://127.0.0.1:{server['port']}/"

        async def get() -> bytes:
            async with session.request("GET", url) as response:
                return await response.read()

        assert await asyncio.gather(get(), get()) == [b"ok", b"ok"]
        assert session.idle_connections() == 2
        assert await get() == b"ok"
        assert server["connections"] == 3


async def test_a_url_with_a_query_and_no_path_keeps_its_query(session: RestSession) -> None:
    seen: list[bytes] = []

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int
                     ) -> None:
        seen.append((await read_request(reader)).split(b"\r\n")[0])
        writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
        await writer.drain()
        await reader.read()

    async with raw_server(answer) as server, \
            session.request("GET", f"http://127.0.0.1:{server['port']}?wait=true"):
        pass
    assert seen == [b"GET /?wait=true HTTP/1.1"]


async def test_a_content_type_error_can_be_printed() -> None:
    response = RestResponse("GET", "https://discord.com/api/v10/x", 502, "Bad Gateway",
                            CIMultiDictProxy(CIMultiDict({"Content-Type": "text/html"})), b"<")
    with pytest.raises(aiohttp.ContentTypeError) as caught:
        await response.json()
    assert "502" in str(caught.value)


async def test_a_method_that_is_not_a_token_is_refused(session: RestSession) -> None:
    with pytest.raises(ValueError, match="not an HTTP method"):
        async with session.request("GET /x HTTP/1.1\r\n", "http://127.0.0.1:1/"):
            pass
    assert session.opened == 0


@pytest.mark.parametrize(("content_type", "charset", "text"), [
    ("text/plain; charset=latin-1", "iso8859-1", "café"),
    ("text/plain; charset=klingon", None, "cafÃ©"),
    ("text/plain", None, "cafÃ©"),
], ids=["named", "unknown", "none"])
async def test_an_answers_charset_is_read_and_an_unknown_one_is_utf8(
        content_type: str, charset: str | None, text: str) -> None:
    body = "café".encode("latin-1") if charset else "cafÃ©".encode()
    response = RestResponse("GET", "https://discord.com/api/v10/x", 200, "OK",
                            CIMultiDictProxy(CIMultiDict({"Content-Type": content_type})),
                            body)
    assert response.charset == charset
    assert await response.text() == text
