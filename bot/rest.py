"""Discord's REST calls on kept HTTP/1.1 connections, without aiohttp's Python for each call.

discord.py makes every REST call through ``aiohttp.ClientSession.request``: a request
object, a URL parsed by yarl, a payload object, a timer, a writer and a response object
with its stream, each a few Python calls deep. A busy bot makes about two calls an
interaction (the answer, then the table's edit or another player's menu), and that Python
was a quarter of the bot's CPU (``docs/performance.md``, "REST calls on kept connections").

:class:`RestSession` stands in for the session discord.py holds. It answers ``request``
itself for what a REST call to Discord is (a method, a URL, headers, a body of text or
bytes or a form of files, no proxy) and hands everything else to the aiohttp session it
wraps, unchanged: the gateway's websocket, downloads (``get``), streamed bodies, and every
call while a proxy is set. A form is made into bytes by aiohttp itself (its multipart
writer), then sent here. Each origin keeps its own connections: a call takes the idle one used last
or opens one, writes its request in one piece, and httptools (the C parser uvicorn uses)
reads the answer, which is whole before the caller sees it. What the caller gets has what
discord.py reads of aiohttp's response: ``status``, ``reason``, ``headers``, ``read()``,
``text()`` and ``json()``. Errors are aiohttp's own, so every ``except`` written for
aiohttp still holds: :class:`aiohttp.ClientOSError` when a connection cannot be opened,
:class:`aiohttp.ServerDisconnectedError` when one closes before its answer,
:class:`aiohttp.ClientPayloadError` for an answer that is not HTTP, :class:`TimeoutError`
after :data:`TIMEOUT`.

As aiohttp does: a connection idle for :data:`KEEPALIVE` seconds is closed; a call that
may be repeated (``GET``, ``PUT``, ``DELETE`` ...) is sent again once, on a new connection,
when a kept connection turns out closed before a byte of its answer; a ``POST`` is not.
A connection whose call was cancelled or failed is closed, never used again. Nothing is
asked compressed (``Accept-Encoding: identity``), so answers come plain; ``gzip`` and
``deflate`` are read all the same. New connections are opened as aiohttp opens them: the
host's addresses tried with Happy Eyeballs (aiohappyeyeballs, aiohttp's own), within
:data:`CONNECT_TIMEOUT`.

Without httptools (:func:`install` says so) discord.py keeps aiohttp for everything.
"""

from __future__ import annotations

import asyncio
import codecs
import json
import logging
import re
import socket
import ssl
import zlib
from collections.abc import Callable, Generator, Mapping
from typing import Any

import aiohappyeyeballs
import aiohttp
from multidict import CIMultiDict, CIMultiDictProxy
from yarl import URL

httptools: Any
try:
    import httptools
except ImportError:  # the dependency is declared; bench.bot's without=httptools hides it
    httptools = None

log = logging.getLogger(__name__)

KEEPALIVE = 15.0
"""Seconds a connection may stay idle before it is closed (aiohttp's default)."""

TIMEOUT = 300.0
"""Seconds a call may take in all, connecting included (aiohttp's default)."""

CONNECT_TIMEOUT = 30.0
"""Seconds a new connection may take to open, TLS included (aiohttp's default)."""

HAPPY_EYEBALLS_DELAY = 0.25
"""Seconds before the next of a host's addresses is tried beside the first (aiohttp's,
RFC 8305's): a host whose IPv6 is broken costs a quarter second, not a timeout."""

REPEATABLE = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"})
"""The methods sent again when a kept connection was found closed (RFC 9110's idempotent)."""

BODILESS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "DELETE"})
"""The methods whose request has no ``Content-Length`` when it has no body."""

_OURS = frozenset({"data", "headers", "params", "proxy", "proxy_auth"})
"""The keyword arguments answered here; any other one goes to aiohttp."""

_RESERVED = frozenset({"host", "content-length", "transfer-encoding", "connection",
                       "expect", "upgrade", "accept", "accept-encoding"})
"""Header names the connection itself decides: a call that sets one goes to aiohttp."""

_METHOD = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_BAD_TARGET = re.compile(r"[\x00-\x20\x7f]")
_BAD_HEADER = re.compile(r"[\r\n\x00]")

FORMS = hasattr(aiohttp.MultipartWriter, "as_bytes")
"""Whether forms (uploads) go on kept connections too: aiohttp 3.12 and later give a
form's bytes at once (``as_bytes``); before, aiohttp sends them itself."""

USER_AGENT = aiohttp.http.SERVER_SOFTWARE
"""aiohttp's own, for a call that names none (discord.py's webhook calls)."""


def install(http: Any) -> str:
    """Put a :class:`RestSession` in place of discord.py's session on ``http`` (a
    ``discord.http.HTTPClient`` after login); returns what the start-up log says of it."""
    if httptools is None:
        return "aiohttp's own (httptools is not installed)"
    session = http._HTTPClient__session
    if not isinstance(session, RestSession):
        http._HTTPClient__session = RestSession(session)
    return f"kept HTTP/1.1 connections (httptools {httptools.__version__})"


class RestResponse:
    """An answer, read whole: what discord.py reads of ``aiohttp.ClientResponse``."""

    __slots__ = ("_body", "headers", "method", "reason", "status", "url")

    def __init__(self, method: str, url: str, status: int, reason: str,
                 headers: CIMultiDictProxy[str], body: bytes) -> None:
        self.method = method
        self.url = url
        self.status = status
        self.reason = reason
        self.headers = headers
        self._body = body

    def __repr__(self) -> str:
        return f"<RestResponse {self.method} {self.url} {self.status} {self.reason}>"

    @property
    def ok(self) -> bool:
        return self.status < 400

    @property
    def content_type(self) -> str:
        return self.headers.get("Content-Type", "application/octet-stream") \
            .partition(";")[0].strip().lower()

    @property
    def charset(self) -> str | None:
        """The ``Content-Type``'s charset, None when it names none or one Python lacks
        (then ``text()`` reads UTF-8, as aiohttp does)."""
        for param in self.headers.get("Content-Type", "").split(";")[1:]:
            name, _, value = param.partition("=")
            if name.strip().lower() == "charset":
                try:
                    return codecs.lookup(value.strip().strip('"')).name
                except LookupError:
                    return None
        return None

    async def read(self) -> bytes:
        return self._body

    async def text(self, encoding: str | None = None, errors: str = "strict") -> str:
        return self._body.decode(encoding or self.charset or "utf-8", errors)

    async def json(self, *, encoding: str | None = None,
                   loads: Callable[[str], Any] = json.loads,
                   content_type: str | None = "application/json") -> Any:
        if content_type and content_type not in self.content_type:
            url = URL(self.url)
            raise aiohttp.ContentTypeError(
                aiohttp.RequestInfo(url, self.method, CIMultiDictProxy(CIMultiDict()), url),
                (), status=self.status, headers=self.headers,
                message=f"Attempt to decode JSON with unexpected mimetype: "
                        f"{self.content_type}")
        return loads(await self.text(encoding))

    def release(self) -> None:
        """Nothing to give back: the connection was released when the answer was whole."""

    def close(self) -> None:
        """As :meth:`release`."""


class _Origin:
    """One scheme, host and port: its idle connections, the used-last at the end."""

    __slots__ = ("host", "host_header", "idle", "port", "scheme", "ssl")

    def __init__(self, scheme: str, host: str, port: int,
                 context: ssl.SSLContext | None) -> None:
        self.scheme = scheme
        self.host = host
        self.port = port
        self.ssl = context
        default = 443 if scheme == "https" else 80
        name = f"[{host}]" if ":" in host else host
        self.host_header = name if port == default else f"{name}:{port}"
        self.idle: list[_Connection] = []


class _Connection(asyncio.Protocol):
    """One kept connection: one call at a time, its answer parsed as it arrives."""

    def __init__(self, origin: _Origin) -> None:
        self.origin = origin
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.waiter: asyncio.Future[tuple[int, str, CIMultiDict[str], bytes, bool]] | None = None
        self.reason = ""
        self.headers: CIMultiDict[str] = CIMultiDict()
        self.body: list[bytes] = []
        self.heard = False  # a byte of the current answer has come
        self.headers_done = False
        self.calls = 0
        self.idle_since = 0.0
        self.closed = False

    # asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's is no subclass

    def data_received(self, data: bytes) -> None:
        if self.waiter is None or self.waiter.done():
            self.abort()  # bytes no call asked for: this connection cannot be trusted
            return
        self.heard = True
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            self._fail(aiohttp.ClientPayloadError(f"Discord's answer is not HTTP: {exc}"))
            self.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        idle = self.origin.idle
        if self in idle:
            idle.remove(self)
        waiter = self.waiter
        if waiter is None or waiter.done():
            return
        if exc is None and self.headers_done and self._until_close():
            self.on_message_complete()  # an answer whose end is the connection's
            return
        if isinstance(exc, OSError):  # as aiohttp: errno kept (discord.py's retry reads it)
            self._fail(aiohttp.ClientOSError(*exc.args))
        else:
            self._fail(aiohttp.ServerDisconnectedError(
                "the connection closed before its answer was whole"))

    # httptools' callbacks

    def on_message_begin(self) -> None:
        if self.waiter is None or self.waiter.done():
            self.closed = True  # bytes past the answer: never used again
        self.reason = ""
        self.headers = CIMultiDict()
        self.body = []
        self.headers_done = False

    def on_status(self, status: bytes) -> None:
        self.reason += status.decode("latin-1")

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers.add(name.decode("latin-1"), value.decode("latin-1"))

    def on_headers_complete(self) -> None:
        self.headers_done = True

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        status = self.parser.get_status_code()
        if 100 <= status < 200 and status != 101:
            self.headers_done = False  # an interim answer: the final one follows
            return
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            keep = not self.closed and self.parser.should_keep_alive()
            waiter.set_result((status, self.reason, self.headers,
                               b"".join(self.body), keep))

    # the session's side

    def _until_close(self) -> bool:
        headers = self.headers
        return "Content-Length" not in headers and "chunked" not in \
            headers.get("Transfer-Encoding", "").lower()

    def _fail(self, exc: BaseException) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_exception(exc)

    def abort(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.abort()

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()


class _Call:
    """What ``request`` returns: awaited, or entered with ``async with`` (as aiohttp's)."""

    __slots__ = ("_send",)

    def __init__(self, send: Callable[[], Any]) -> None:
        self._send = send

    def __await__(self) -> Generator[Any, None, RestResponse]:
        return self._send().__await__()  # type: ignore[no-any-return]

    async def __aenter__(self) -> RestResponse:
        response: RestResponse = await self._send()
        return response

    async def __aexit__(self, *exc_info: object) -> None:
        return None


class RestSession:
    """discord.py's session, with its REST calls made here (the module says how).

    ``ssl_context`` checks the servers' certificates (the system's trusted ones when
    None); ``timeout`` bounds each call.
    """

    def __init__(self, session: aiohttp.ClientSession, *,
                 ssl_context: ssl.SSLContext | None = None,
                 timeout: float = TIMEOUT, keepalive: float = KEEPALIVE) -> None:
        self._session = session
        if ssl_context is None:  # made once here: it reads the system's certificates
            ssl_context = ssl.create_default_context()
            ssl_context.set_alpn_protocols(["http/1.1"])
        self._ssl = ssl_context
        self._timeout = timeout
        self._keepalive = keepalive
        self._origins: dict[str, _Origin] = {}
        self._busy: set[_Connection] = set()
        self._sweeper: asyncio.TimerHandle | None = None
        self._closed = False
        self.calls = 0
        """How many calls were answered here (not by aiohttp)."""
        self.opened = 0
        """How many connections were opened for them."""

    # what discord.py asks of its session besides ``request``

    @property
    def closed(self) -> bool:
        return self._closed or self._session.closed

    def __getattr__(self, name: str) -> Any:
        """The wrapped aiohttp session's: ``ws_connect`` (the gateway), ``get`` (downloads)
        and whatever else discord.py asks of it."""
        return getattr(self._session, name)

    async def close(self) -> None:
        """Close every connection, idle or in a call (its caller gets an error), then the
        aiohttp session."""
        if not self._closed:
            log.info("REST calls: %d on kept connections, %d connections opened for them",
                     self.calls, self.opened)
        self._closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for origin in self._origins.values():
            for connection in origin.idle:
                connection.close()
            origin.idle.clear()
        for connection in list(self._busy):
            connection.abort()
        await self._session.close()

    def idle_connections(self) -> int:
        """How many connections are kept open between calls."""
        return sum(len(origin.idle) for origin in self._origins.values())

    # the calls

    def request(self, method: str, url: str | URL, **kwargs: Any) -> Any:
        """As ``aiohttp.ClientSession.request``: answered here when it is a plain REST
        call, by aiohttp otherwise."""
        if self._closed or not self._ours(method, url, kwargs):
            return self._session.request(method, url, **kwargs)
        return _Call(lambda: self._send(method.upper(), str(url), kwargs.get("headers"),
                                        kwargs.get("params"), kwargs.get("data")))

    def _ours(self, method: str, url: str | URL, kwargs: Mapping[str, Any]) -> bool:
        if not _OURS.issuperset(kwargs) or kwargs.get("proxy") is not None \
                or kwargs.get("proxy_auth") is not None or method.upper() == "HEAD":
            return False
        data = kwargs.get("data")
        if data is not None and not isinstance(data, str | bytes | bytearray | memoryview) \
                and not (FORMS and isinstance(data, aiohttp.FormData)):
            return False  # files and streams: aiohttp's payloads
        headers = kwargs.get("headers")
        if headers and any(str(name).lower() in _RESERVED for name in headers):
            return False
        text = str(url)
        return text.startswith("https://") or text.startswith("http://")

    async def _send(self, method: str, url: str, headers: Mapping[str, str] | None,
                    params: Mapping[str, Any] | None, data: Any) -> RestResponse:
        self.calls += 1
        origin, target = self._where(url, params)
        body, kind = await _body(data)
        request = self._head(method, target, origin, headers, body, kind)
        if body:
            request += body
        async with asyncio.timeout(self._timeout):
            for attempt in range(2):
                connection = await self._connection(origin, fresh=attempt > 0)
                try:
                    status, reason, answer_headers, raw = await self._call(connection,
                                                                           request)
                except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError):
                    if attempt == 0 and connection.calls > 1 and not connection.heard \
                            and method in REPEATABLE:
                        continue  # a kept connection the server had closed: once more
                    raise
                break
        answer = CIMultiDictProxy(answer_headers)
        return RestResponse(method, url, status, reason, answer,
                            _decoded(raw, answer.get("Content-Encoding")))

    async def _call(self, connection: _Connection, request: bytes
                    ) -> tuple[int, str, CIMultiDict[str], bytes]:
        """Send ``request`` on ``connection`` and wait for its answer (status, reason,
        headers, body); the connection is kept if the answer allows it, else closed."""
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[tuple[int, str, CIMultiDict[str], bytes, bool]]
        waiter = connection.waiter = loop.create_future()
        connection.heard = False
        connection.calls += 1
        self._busy.add(connection)
        try:
            assert connection.transport is not None
            if connection.closed:  # lost before a byte was written
                raise aiohttp.ServerDisconnectedError("the connection closed before the call")
            connection.transport.write(request)
            outcome = await waiter
        except BaseException:
            connection.abort()  # cancelled or failed midway: never used again
            raise
        finally:
            connection.waiter = None
            self._busy.discard(connection)
        status, reason, headers, body, keep = outcome
        if keep and not self._closed and not connection.closed:
            connection.idle_since = loop.time()
            connection.origin.idle.append(connection)
            if self._sweeper is None:
                self._sweeper = loop.call_later(self._keepalive, self._sweep)
        else:
            connection.close()
        return status, reason, headers, body

    async def _connection(self, origin: _Origin, fresh: bool = False) -> _Connection:
        idle = origin.idle
        while idle and not fresh:
            connection = idle.pop()
            if not connection.closed and connection.transport is not None \
                    and not connection.transport.is_closing():
                return connection
        loop = asyncio.get_running_loop()
        context = origin.ssl
        self.opened += 1
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT):
                addresses = await loop.getaddrinfo(origin.host, origin.port,
                                                   type=socket.SOCK_STREAM)
                sock = await aiohappyeyeballs.start_connection(
                    addresses, happy_eyeballs_delay=HAPPY_EYEBALLS_DELAY, interleave=1)
                try:
                    _, connection = await loop.create_connection(
                        lambda: _Connection(origin), sock=sock, ssl=context,
                        server_hostname=origin.host if context is not None else None)
                except BaseException:
                    sock.close()
                    raise
        except TimeoutError:
            raise aiohttp.ConnectionTimeoutError(
                f"Connection timeout to {origin.scheme}://{origin.host_header}") from None
        except OSError as exc:
            raise aiohttp.ClientOSError(
                exc.errno, f"Cannot connect to {origin.scheme}://{origin.host_header} "
                           f"[{exc.strerror or exc}]") from exc
        return connection

    def _sweep(self) -> None:
        """Close the connections idle for :data:`KEEPALIVE`; come back while any is kept."""
        self._sweeper = None
        now = asyncio.get_running_loop().time()
        soonest = None
        for origin in self._origins.values():
            kept = []
            for connection in origin.idle:
                if now - connection.idle_since >= self._keepalive:
                    connection.close()
                else:
                    kept.append(connection)
                    due = connection.idle_since + self._keepalive
                    soonest = due if soonest is None else min(soonest, due)
            origin.idle[:] = kept
        if soonest is not None and not self._closed:
            self._sweeper = asyncio.get_running_loop().call_at(soonest, self._sweep)

    def _where(self, url: str, params: Mapping[str, Any] | None) -> tuple[_Origin, str]:
        """The origin ``url`` names and the request target: its path and query, encoded as
        aiohttp would (through yarl) unless it is plain ASCII already."""
        scheme, _, rest = url.partition("://")
        authority, slash, path = rest.partition("/")
        target = slash + path or "/"
        if params or not target.isascii() or _BAD_TARGET.search(target) \
                or "@" in authority or "?" in authority or "#" in authority \
                or "#" in target:
            parsed = URL(url)
            if params:
                parsed = parsed.extend_query(params)
            if parsed.host is None or parsed.user is not None:
                raise aiohttp.InvalidURL(url)
            authority = parsed.raw_authority
            target = parsed.raw_path_qs
        origin = self._origins.get(f"{scheme}://{authority}")
        if origin is None:
            origin = self._origin(scheme, authority, url)
        return origin, target

    def _origin(self, scheme: str, authority: str, url: str) -> _Origin:
        parsed = URL(f"{scheme}://{authority}/")
        if parsed.host is None or parsed.port is None:
            raise aiohttp.InvalidURL(url)
        origin = _Origin(scheme, parsed.host, parsed.port,
                         self._ssl if scheme == "https" else None)
        self._origins[f"{scheme}://{authority}"] = origin
        return origin

    @staticmethod
    def _head(method: str, target: str, origin: _Origin, headers: Mapping[str, str] | None,
              body: bytes | None, kind: str | None) -> bytes:
        if not _METHOD.fullmatch(method):
            raise ValueError(f"{method!r} is not an HTTP method")
        lines = [f"{method} {target} HTTP/1.1\r\nHost: {origin.host_header}\r\n"
                 "Accept: */*\r\nAccept-Encoding: identity\r\n"]
        named = set()
        for name, value in (headers or {}).items():
            line = f"{name}: {value}\r\n"
            if _BAD_HEADER.search(line, 0, len(line) - 2) or ":" in name:
                raise ValueError(f"the header {name!r} has a line break or a colon in it")
            named.add(name.lower())
            lines.append(line)
        if "user-agent" not in named:
            lines.append(f"User-Agent: {USER_AGENT}\r\n")
        if kind is not None and "content-type" not in named:
            lines.append(f"Content-Type: {kind}\r\n")
        if body or method not in BODILESS:
            lines.append(f"Content-Length: {len(body or b'')}\r\n")
        lines.append("\r\n")
        return "".join(lines).encode()


async def _body(data: Any) -> tuple[bytes | None, str | None]:
    """The bytes of a call's ``data`` and their content type, as aiohttp would send them."""
    if data is None:
        return None, None
    if isinstance(data, str):
        return data.encode(), "text/plain; charset=utf-8"
    if isinstance(data, aiohttp.FormData):
        payload = data()  # a form of files: aiohttp's own multipart, made into bytes
        return await payload.as_bytes(), payload.content_type
    return bytes(data), "application/octet-stream"


def _decoded(body: bytes, encoding: str | None) -> bytes:
    """``body`` as sent, undone of a ``gzip`` or ``deflate`` the server chose anyway."""
    if not encoding or encoding.lower() == "identity" or not body:
        return body
    kind = encoding.lower().strip()
    try:
        if kind in ("gzip", "x-gzip"):
            return zlib.decompress(body, 16 + zlib.MAX_WBITS)
        if kind == "deflate":
            try:
                return zlib.decompress(body)
            except zlib.error:
                return zlib.decompress(body, -zlib.MAX_WBITS)
    except zlib.error as exc:
        raise aiohttp.ClientPayloadError(f"a {kind} answer that does not decompress: {exc}") \
            from exc
    raise aiohttp.ClientPayloadError(f"an answer in {encoding!r}, which was not asked for")
