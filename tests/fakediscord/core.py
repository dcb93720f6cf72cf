"""Small shared pieces: the test-controlled clock, violations, request records, API errors."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .world import JSON


class FakeClock:
    """Monotonic seconds that tests can move forward without sleeping.

    `now()` is real monotonic time plus `offset`; `advance(s)` adds to the offset, so
    "15 minutes later" is one call. Deadlines (3 s to answer, 15 min token life) use it.
    """

    def __init__(self) -> None:
        self.offset: float = 0.0

    def now(self) -> float:
        return time.monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@dataclass(frozen=True)
class Violation:
    """Something the bot did that Discord forbids or would reject (see `FakeDiscord.violations`).

    kind is one of: "limits", "openapi", "late_response", "double_response",
    "unanswered", "unknown_route", "bad_request", "expired_token" (a followup or edit
    through an interaction token older than 15 minutes).
    """

    kind: str
    detail: str
    method: str = ""
    path: str = ""

    def __str__(self) -> str:
        where = f" [{self.method} {self.path}]" if self.method else ""
        return f"{self.kind}: {self.detail}{where}"


@dataclass
class RequestRecord:
    """One REST request the bot made, as the fake saw it."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    files: list[tuple[str, str, bytes]] = field(default_factory=list)
    """(form field, filename, bytes) of each uploaded file."""
    status: int = 0
    error_code: int | None = None
    at: float = field(default_factory=time.monotonic)
    """When the fake received it (``time.monotonic()``, not the :class:`FakeClock`)."""


class DiscordAPIError(Exception):
    """Raised by a route handler to answer with Discord's error JSON."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def payload(self) -> JSON:
        data: JSON = {"message": self.message, "code": self.code}
        if self.errors is not None:
            data["errors"] = self.errors
        return data


def unknown(what: str, code: int) -> DiscordAPIError:
    return DiscordAPIError(404, code, f"Unknown {what}")


UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
INVALID_WEBHOOK_TOKEN = 50027
UNKNOWN_INTERACTION = 10062
UNKNOWN_APPLICATION_COMMAND = 10063
CANNOT_SEND_EMPTY = 50006
CANNOT_DM_USER = 50007
CANNOT_EDIT_OTHERS = 50005
INVALID_CHANNEL_TYPE = 50024
INVALID_FORM_BODY = 50035
MISSING_PERMISSIONS = 50013
MISSING_ACCESS = 50001
TOO_MANY_OLD_EDITS = 30046
ALREADY_ACKNOWLEDGED = 40060
THREAD_ALREADY_CREATED = 160004
THREAD_ARCHIVED = 50083
