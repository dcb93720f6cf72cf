"""A game's history kept compact: two bytes an action instead of a string each.

A game's history is the record's ``"actions"`` (``"0 play S4"``), appended once per
action and read by the record, the replay, the computer players' perspective and the
fast paths. Kept as a list of strings it was the one part of a table that grew
without bound: about 60 bytes of string and 8 of list per action, so a 1,100-action
Fizzbin game held 70 KB of history (``docs/performance.md``).

Only legal actions are ever appended, and a game has few distinct ones (a seat and
a verb on one of its cards), so the texts repeat endlessly. :class:`ActionLog` keeps
each distinct text once for the whole process (:data:`_TEXTS`, shared by every table)
and a table only the index of each of its actions, in an :class:`array.array`: two
bytes an action while the process has seen fewer than 65,536 distinct texts, four
after (a log widens itself when it first meets a larger code). It reads as a sequence
of the same strings, equal to the list it replaces; copying it (a clone for search)
copies two bytes an action.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Self, overload

_TEXTS: list[str] = []
"""Every distinct action text seen in this process, by its code."""
_CODES: dict[str, int] = {}
"""The code of each text in :data:`_TEXTS`."""


def _code(text: str) -> int:
    """The code of ``text``, given one the first time it is seen."""
    code = _CODES.get(text)
    if code is None:
        code = _CODES[text] = len(_TEXTS)
        _TEXTS.append(text)
    return code


def distinct_texts() -> int:
    """How many distinct action texts this process holds (shared by every table)."""
    return len(_TEXTS)


def index_bytes() -> int:
    """What the process's index of texts takes itself: its list and its dict (the texts
    aside, :func:`shared_bytes`)."""
    return sys.getsizeof(_TEXTS) + sys.getsizeof(_CODES)


def shared_bytes(first: int = 0, index_before: int | None = None) -> int:
    """What the texts from code ``first`` on take: each string, plus what the index grew
    by since it took ``index_before`` bytes (:func:`index_bytes`; its list slots and
    dict entries). For ``bench.bot``'s memory figures, which count them apart from any table."""
    grown = 0 if index_before is None else index_bytes() - index_before
    return sum(sys.getsizeof(text) for text in _TEXTS[first:]) + grown


_SHORT, _LONG = "H", "I"
"""The arrays' item types: two bytes a code while the codes allow, else four."""
_SHORT_MAX = 2 ** (8 * array(_SHORT).itemsize) - 1


class ActionLog(Sequence[str]):
    """The actions of one game, in order, as a compact sequence of their texts.

    >>> log = ActionLog(["0 play S4", "1 play S9"])
    >>> log.append("2 play S4")
    >>> list(log), log[-1], len(log), log == ["0 play S4", "1 play S9", "2 play S4"]
    (['0 play S4', '1 play S9', '2 play S4'], '2 play S4', 3, True)
    >>> log.nbytes
    6
    """

    __slots__ = ("_codes",)

    def __init__(self, texts: Iterable[str] = ()) -> None:
        codes = [_code(t) for t in texts]
        self._codes = array(_SHORT if max(codes, default=0) <= _SHORT_MAX else _LONG, codes)

    def append(self, text: str) -> None:
        """Add ``text`` at the end (the action just applied)."""
        code = _code(text)
        if code > _SHORT_MAX and self._codes.typecode == _SHORT:
            self._codes = array(_LONG, self._codes)
        self._codes.append(code)

    def copy(self) -> Self:
        """An independent copy (a game's clone): the codes copied, the texts shared."""
        new = type(self).__new__(type(self))
        new._codes = array(self._codes.typecode, self._codes)
        return new

    def __copy__(self) -> Self:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.copy()

    @property
    def nbytes(self) -> int:
        """The bytes this log's codes take (the texts are shared by the whole process)."""
        return len(self._codes) * self._codes.itemsize

    def __len__(self) -> int:
        return len(self._codes)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [_TEXTS[c] for c in self._codes[index]]
        return _TEXTS[self._codes[index]]

    def __iter__(self) -> Iterator[str]:
        texts = _TEXTS
        return (texts[c] for c in self._codes)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionLog):
            return self._codes == other._codes
        if isinstance(other, list | tuple):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other,
                                                                            strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like the list it replaces

    def __repr__(self) -> str:
        return f"ActionLog({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its texts: a worker process has its own codes."""
        return (type(self), (list(self),))


__all__ = ["ActionLog", "distinct_texts", "shared_bytes"]
