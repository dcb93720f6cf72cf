"""The bot's settings, read from the environment and ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import zoneinfo
from typing import Annotated, Literal, Self

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.logs import LogFormat
from bot.models import DEFAULT_TIMER, SERVER_SECONDS
from bot.shards import ShardPlan
from bot.store.url import parse_database_url

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class Settings(BaseSettings):
    """Everything an operator can set. Field names are the environment variables, upper-cased."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr = SecretStr("")
    """The bot token from the Discord developer portal (Bot tab, Reset Token)."""
    database_url: str | None = None
    """Where tables, finished games, ratings and server settings are kept:
    ``sqlite:///fivefold.db`` (a file; the default) or ``postgresql://user:pass@host/db``
    (several processes sharing one database). Unset: SQLite at ``database_path``."""
    database_path: str = "fivefold.db"
    """The SQLite file, when ``database_url`` is unset: shorthand for ``sqlite:///PATH``."""
    dev_guild_id: int | None = None
    """Sync slash commands to this one server at once (global sync can take an hour)."""
    log_level: LogLevel = "INFO"
    log_format: LogFormat = "text"
    """``text``: lines about a table start with ``[table <id>]``; ``json``: one JSON object
    a line with a ``table`` key (:mod:`bot.logs`)."""
    computer_delay: float = Field(default=1.5, ge=0)
    """Seconds a computer player waits before it acts, so people can follow the play."""
    computer_workers: int = Field(default=1, ge=1, le=64)
    """Worker processes that think for the computer players (and the hints), so a hard
    decision never holds up the bot. One per core the bot may use besides its own: 1 on
    a two-core machine."""
    computer_budget: float = Field(default=1.0, gt=0, le=10)
    """Scales the hard computer's search (1: the game's own budget, 20,000 simulated
    moves a decision in most games and 26,000 in Fizzbin, a few hundred milliseconds at
    most). Lower is quicker and weaker; the same value replays
    the same moves, so keep it across restarts."""
    table_edit_interval: float = Field(default=1.0, ge=0)
    """Seconds between two edits of one table message at most: faster play is shown
    several moves at a time (Discord allows 5 edits in 5 s in a channel)."""
    turn_timeout: float = Field(default=SERVER_SECONDS[DEFAULT_TIMER], ge=0)
    """The turn timer of tables whose server chose none (``/settings timer:``) and that
    chose none themselves (``/play ... timer:``): seconds before a computer plays a
    person's turn. 0: no timer for such tables (servers and tables may still choose one)."""
    timer_check_seconds: float = Field(default=1.0, gt=0)
    """A running turn timer reads the clock at least this often, in seconds (tests lower
    it to move a fake clock; one second is exact enough for people)."""
    timezone: str = "UTC"
    max_tables_per_host: int = Field(default=3, ge=1)
    max_tables_per_server: int = Field(default=50, ge=1)
    commands_per_minute: int = Field(default=6, ge=0)
    lobby_idle_minutes: int = Field(default=15, ge=1)
    game_idle_hours: float = Field(default=24, gt=0)
    expiry_check_seconds: float = Field(default=60, gt=0)
    table_retention_days: float = Field(default=30, gt=0)
    """Days a finished or cancelled table stays in the database after its last change
    (its result, record and ratings stay for good)."""
    """The zone of the clock that decides Fizzbin's day and night, for servers that set
    none with ``/timezone``."""
    health_file: str | None = None
    """A file the bot touches while connected to Discord, for ``fivefold-health``
    (the Docker image's health check); None: no heartbeat."""
    shard_count: int | None = Field(default=None, ge=1, le=10_000)
    """How many gateway shards the whole bot has, across all its processes; None: as
    many as Discord recommends, all in this process."""
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    """The shards this process connects (``0,1``), needs SHARD_COUNT; None: all of them.
    This process then plays only the tables of those shards' servers."""

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        """``SHARD_IDS=0,1`` (or ``0 1``) from the environment; empty: all shards."""
        if isinstance(value, int):
            return (value,)
        if not isinstance(value, str):
            return value
        parts = value.replace(",", " ").split()
        if not all(part.isdigit() for part in parts):
            raise ValueError(f"{value!r} is not a list of shard numbers like 0,1")
        return tuple(int(part) for part in parts) or None

    @model_validator(mode="after")
    def _shards_fit(self) -> Self:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the bot's shards in all)")
        outside = sorted(i for i in set(self.shard_ids) if not 0 <= i < self.shard_count)
        if outside:
            raise ValueError(f"SHARD_IDS {outside} are not shards of SHARD_COUNT="
                             f"{self.shard_count} (0 to {self.shard_count - 1})")
        self.shard_ids = tuple(sorted(set(self.shard_ids)))
        return self

    @property
    def shards(self) -> ShardPlan:
        """Which servers' tables this process plays (:mod:`bot.shards`)."""
        ids = None if self.shard_ids is None else frozenset(self.shard_ids)
        return ShardPlan(count=self.shard_count, ids=ids)

    @field_validator("dev_guild_id", "health_file", "database_url", "shard_count",
                     mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, value: str | None) -> str | None:
        if value is not None:
            parse_database_url(value)  # a ValueError names what is wrong with it
        return value

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            zoneinfo.ZoneInfo(value)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {value!r} (try UTC or Europe/Paris)") from None
        return value

    @property
    def store_url(self) -> str:
        """The database to open: ``database_url``, else the SQLite file ``database_path``."""
        return self.database_url or f"sqlite:///{self.database_path}"

    @property
    def token(self) -> str:
        return self.discord_token.get_secret_value().strip()
