"""Which servers this process plays: Discord's shards, and the tables that come with them.

Discord splits a bot's servers into shards by ``(guild_id >> 22) % shard_count``
(discord.py's formula, :meth:`discord.Guild.shard_id`) and sends a server's events
only to the connection holding its shard. Several processes sharing one database
split the shards between them (``SHARD_COUNT=2``, ``SHARD_IDS=0`` and ``=1``); each
must then resume, time, expire and play only the tables of its own shards' servers,
or two processes would play one table. :class:`ShardPlan` is that decision, in one
place, from the settings alone; the table service refuses a request about another
process's server with it (:func:`bot.tables.checks.require_shard`).

>>> plan = ShardPlan(count=2, ids=frozenset({1}))
>>> plan.owns(1 << 22), plan.owns(2 << 22), plan.owns(None)
(True, False, False)
>>> ShardPlan.everything().owns(2 << 22)
True
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard of ``guild_id`` among ``count``; direct messages (None) are shard 0's."""
    return 0 if guild_id is None else (guild_id >> 22) % count


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """The shards this process connects: ``count`` in all, ``ids`` of them here.

    ``count`` None means "as many as Discord recommends, all of them here" (no
    ``SHARD_COUNT`` set): the process owns every server, whatever the count.
    """

    count: int | None = None
    ids: frozenset[int] | None = None

    @classmethod
    def everything(cls) -> ShardPlan:
        """One process for the whole bot (the default)."""
        return cls()

    @property
    def everywhere(self) -> bool:
        """Whether this process holds every shard (and so every server's tables)."""
        return self.count is None or self.ids is None or len(self.ids) == self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether the tables of ``guild_id`` are this process's to play."""
        if self.everywhere:
            return True
        assert self.count is not None and self.ids is not None
        return shard_of(guild_id, self.count) in self.ids

    def describe(self) -> str:
        """The plan in words for the start-up line of the log."""
        if self.count is None:
            return "shards: all Discord recommends"
        if self.ids is None:
            return f"shards: all {self.count} here"
        return f"shards {', '.join(map(str, sorted(self.ids)))} of {self.count}"


__all__ = ["ShardPlan", "shard_of"]
