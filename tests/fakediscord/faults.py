"""Rate limits and outages on demand: a test says which requests Discord refuses, and how.

`FakeDiscord.rate_limit(...)` and `FakeDiscord.fail(...)` add a `Fault`; the REST handler
asks `FaultPlan.take` before routing each request, and a matching fault answers in place
of the route, the way Discord's edge does (the request never reaches the route):

- a **route** 429: `retry_after` in the body, `Retry-After`, the `X-RateLimit-*` bucket
  headers with `Remaining: 0` and `X-RateLimit-Scope: user` (or `shared`);
- a **global** 429: `"global": true`, `X-RateLimit-Global: true`, scope `global`;
- a **5xx**: 500 and 503 with Discord's JSON body, 502 with Cloudflare's HTML page.

Every 429 carries `Via`, as Discord's do: discord.py takes a 429 without it for a
Cloudflare ban and raises instead of waiting.
"""

from __future__ import annotations

import json
import math
import re
import secrets
import time
from dataclasses import dataclass, field

from aiohttp import web

from .core import RequestRecord

RATE_LIMITED = "You are being rate limited."
SERVER_ERRORS = {
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
    504: "504: Gateway Timeout",
}
VIA = "1.1 google"


@dataclass
class Fault:
    """Refuse up to `times` requests of `method` whose path fully matches `path`."""

    method: str
    path: re.Pattern[str]
    status: int
    times: int
    retry_after: float = 0.0
    is_global: bool = False
    scope: str = "user"
    bucket: str = field(default_factory=lambda: secrets.token_hex(16))
    hits: list[RequestRecord] = field(default_factory=list)
    """The requests this fault answered, in order."""

    def matches(self, method: str, path: str) -> bool:
        return self.times > len(self.hits) and method == self.method \
            and self.path.fullmatch(path) is not None

    @property
    def spent(self) -> bool:
        return len(self.hits) >= self.times

    def response(self) -> web.Response:
        if self.status == 429:
            return self._rate_limited()
        if self.status == 502:  # Cloudflare's page, not Discord's JSON
            return web.Response(status=502, text="<html><body>502 Bad Gateway</body></html>",
                                content_type="text/html")
        body = {"message": SERVER_ERRORS.get(self.status, f"{self.status}: Server Error"),
                "code": 0}
        return web.Response(status=self.status, body=json.dumps(body).encode(),
                            headers={"Content-Type": "application/json"})

    def _rate_limited(self) -> web.Response:
        body = {"message": RATE_LIMITED, "retry_after": self.retry_after,
                "global": self.is_global}
        headers = {"Content-Type": "application/json", "Via": VIA,
                   "Retry-After": str(math.ceil(self.retry_after))}
        if self.is_global:
            headers |= {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
        else:
            headers |= {
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + self.retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{self.retry_after:.3f}",
                "X-RateLimit-Bucket": self.bucket,
                "X-RateLimit-Scope": self.scope,
            }
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)


class FaultPlan:
    """The faults a test asked for, first added first served."""

    def __init__(self) -> None:
        self.faults: list[Fault] = []
        self.answered: list[RequestRecord] = []
        """Every request a fault answered, in order."""

    def add(self, fault: Fault) -> Fault:
        if fault.status != 429 and fault.status < 500:
            raise ValueError(f"a fault is a 429 or a 5xx, not {fault.status}")
        self.faults.append(fault)
        return fault

    def take(self, record: RequestRecord) -> Fault | None:
        """The fault that answers this request, if any (the request is counted as its hit)."""
        for fault in self.faults:
            if fault.matches(record.method, record.path):
                fault.hits.append(record)
                self.answered.append(record)
                return fault
        return None


def path_pattern(path: str | re.Pattern[str]) -> re.Pattern[str]:
    """A path given as text matches itself only; a compiled pattern matches as it says."""
    return path if isinstance(path, re.Pattern) else re.compile(re.escape(path))
