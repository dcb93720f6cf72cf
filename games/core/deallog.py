"""The deals a game has played, kept compact: each one as its JSON text.

A record carries every deal of its game (``docs/rules/README.md``), and a table keeps
its record in memory while it is played. Kept as JSON data (a dict of lists of card
names) a deal took 0.6 to 1.5 KB, the lists' pointers mostly: a 25-point Fumblaroo match
or a 15-hand Fizzbin held 15 to 25 KB of deals, a third of the table
(``docs/performance.md``). :class:`DealLog` keeps each deal as its compact JSON text
(about 5 bytes a card) and reads as the same sequence of dicts, each a fresh copy that
the reader may change at will. The table's stored head writes the text as it is
(:meth:`DealLog.fragments`), without building the dicts again at every action.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Self, overload

import orjson


def _interned(value: Any) -> Any:
    """JSON data read back with every string interned: a card's name is then the one
    string the process holds for it (:mod:`games.core.cards` interns them), so that two
    copies of a record cost their lists, not their card names again."""
    if isinstance(value, str):
        return sys.intern(value)
    if isinstance(value, list):
        return [_interned(item) for item in value]
    if isinstance(value, dict):
        return {key: _interned(item) for key, item in value.items()}
    return value


def _loaded(text: str) -> dict[str, Any]:
    """One deal read back from its text: a new dict, its card names interned."""
    deal: dict[str, Any] = _interned(orjson.loads(text))
    return deal


def _text(deal: dict[str, Any]) -> str:
    """``deal`` as compact JSON text. A string, not :func:`orjson.dumps`'s bytes, which
    keep the 4 KB buffer they were written in (measured with tracemalloc): the string is
    a copy of the bare text."""
    return orjson.dumps(deal).decode()


class DealLog(Sequence[dict[str, Any]]):
    """The deals of one game, in order, each stored as its JSON text.

    >>> log = DealLog([{"hands": [["AS", "2S"]], "night": False}])
    >>> log.append({"hands": [["3S"]], "night": True})
    >>> log[-1], len(log), log == [{"hands": [["AS", "2S"]], "night": False},
    ...                            {"hands": [["3S"]], "night": True}]
    ({'hands': [['3S']], 'night': True}, 2, True)
    >>> log[0]["hands"].append(["KS"]); log[0]  # each read is the reader's own copy
    {'hands': [['AS', '2S']], 'night': False}
    """

    __slots__ = ("_texts",)

    def __init__(self, deals: Iterable[dict[str, Any]] = ()) -> None:
        self._texts = [_text(deal) for deal in deals]

    def append(self, deal: dict[str, Any]) -> None:
        """Add ``deal`` (in record form) at the end."""
        self._texts.append(_text(deal))

    def replace_last(self, deal: dict[str, Any]) -> None:
        """Put ``deal`` in place of the last one (a fact settled once its hand starts)."""
        self._texts[-1] = _text(deal)

    def copy(self) -> Self:
        """An independent copy (a game's clone): the list copied, the texts shared."""
        new = type(self).__new__(type(self))
        new._texts = self._texts.copy()
        return new

    def __copy__(self) -> Self:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.copy()

    def fragments(self) -> list[orjson.Fragment]:
        """The deals as JSON already written, for :func:`orjson.dumps` to put in place."""
        return [orjson.Fragment(text) for text in self._texts]

    def to_json(self) -> list[dict[str, Any]]:
        """The deals as JSON data: a new list of new dicts, the caller's own."""
        return [_loaded(text) for text in self._texts]

    @property
    def nbytes(self) -> int:
        """The bytes of the deals' JSON texts (the list's own pointers aside)."""
        return sum(len(text) for text in self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [_loaded(text) for text in self._texts[index]]
        return _loaded(self._texts[index])

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (_loaded(text) for text in self._texts)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DealLog):
            return self._texts == other._texts
        if isinstance(other, list | tuple):
            return len(other) == len(self) and all(
                mine == theirs for mine, theirs in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like the list it replaces

    def __repr__(self) -> str:
        return f"DealLog({self.to_json()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its deals (a worker process builds its own texts)."""
        return (type(self), (self.to_json(),))


def deals_json(deals: Sequence[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """``deals`` (a :class:`DealLog` or a list of dicts) as a new list of JSON data."""
    if deals is None:
        return []
    if isinstance(deals, DealLog):
        return deals.to_json()
    return list(deals)
