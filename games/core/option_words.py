"""A game's options in plain words: what each one allows, and why a value was refused.

pydantic's own messages ("fazes.1: Input should be less than or equal to 6") name
a location and a constraint, not what a person typed. :func:`options_problem`
turns them into sentences that name the option, what was given and what is
allowed ("`fazes` was given 9 as its 2nd entry; each entry must be a whole number
from 1 to 6"). The same reading of a field's type serves the slash commands'
descriptions (:func:`allowed`).

>>> from games.fazes.options import FazesOptions
>>> allowed(FazesOptions, "fazes")
'a list of whole numbers from 1 to 6, such as 1,2,3'
"""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from games.core.counted import plural


def strip_optional(annotation: Any) -> Any:
    """``X | None`` -> ``X``; any other annotation as it is."""
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def bounds(metadata: list[Any]) -> tuple[int | None, int | None]:
    """The inclusive bounds of an int from its constraints (``Field(ge=1, le=5)``)."""
    low = high = None
    for item in metadata:
        if getattr(item, "ge", None) is not None:
            low = int(item.ge)
        if getattr(item, "gt", None) is not None:
            low = int(item.gt) + 1
        if getattr(item, "le", None) is not None:
            high = int(item.le)
        if getattr(item, "lt", None) is not None:
            high = int(item.lt) - 1
    return low, high


def entry_type(annotation: Any) -> tuple[Any, list[Any]]:
    """The type of a list option's entries and their constraints (``list[Annotated[int,
    Field(ge=1)]]`` -> ``(int, [Ge(1)])``)."""
    args = get_args(strip_optional(annotation))
    inner = args[0] if args else Any
    metadata: list[Any] = []
    if hasattr(inner, "__metadata__"):
        for extra in inner.__metadata__:
            metadata += list(getattr(extra, "metadata", [extra]))
        inner = get_args(inner)[0]
    return inner, metadata


def _number(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"of at least {low}"
    if high is not None:
        return f"of at most {high}"
    return ""


def _scalar(annotation: Any, metadata: list[Any], *, plural: bool = False) -> str:
    """What a single value of ``annotation`` may be, in words."""
    if annotation is bool:
        return "true or false"
    if annotation is int:
        words = "whole numbers" if plural else "a whole number"
        return " ".join(filter(None, (words, _number(*bounds(metadata)))))
    if get_origin(annotation) is Literal:
        return "one of " + ", ".join(str(a) for a in get_args(annotation))
    return "text"


def _is_list(annotation: Any) -> bool:
    return get_origin(strip_optional(annotation)) in (list, tuple)


def allowed(model: type[BaseModel], name: str) -> str:
    """What option ``name`` of ``model`` accepts, in words ("a whole number from 1 to 5")."""
    info = model.model_fields[name]
    if _is_list(info.annotation):
        inner, metadata = entry_type(info.annotation)
        return f"a list of {_scalar(inner, metadata, plural=True)}, such as 1,2,3"
    return _scalar(strip_optional(info.annotation), list(info.metadata))


SHOWN_LENGTH = 24
"""The longest value a refusal quotes in full: a longer one is cut, so that a pasted wall
of text cannot make the refusal too long to send."""


def shown(value: Any) -> str:
    """A value as a person would have typed it (cut short past :data:`SHOWN_LENGTH`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return _cut(",".join(map(shown, value))) or "nothing"
    if isinstance(value, str):
        return f'"{_cut(value)}"'
    return _cut(str(value))


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN_LENGTH else text[: SHOWN_LENGTH - 1] + "…"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _sentence(model: type[BaseModel], error: ErrorDetails) -> str:
    loc = error["loc"]
    name = str(loc[0]) if loc else "?"
    if name not in model.model_fields:
        return f"there is no option `{name}`"
    info = model.model_fields[name]
    if len(loc) > 1 and isinstance(loc[1], int) and _is_list(info.annotation):
        inner, metadata = entry_type(info.annotation)
        return (f"`{name}` was given {shown(error['input'])} as its {_ordinal(loc[1] + 1)} "
                f"entry; each entry must be {_scalar(inner, metadata)}")
    if error["type"] == "too_short":
        least = (error.get("ctx") or {}).get("min_length", 1)
        return f"`{name}` needs at least {plural(least, 'entry', 'entries')}"
    return f"`{name}` was given {shown(error['input'])}; it must be {allowed(model, name)}"


def refusal(title: str, problem: str) -> str:
    """The refusal of a table's options: ``those Fazes options will not do: <problem>``."""
    return f"those {title} options will not do: {problem}"


def options_problem(model: type[BaseModel], exc: ValidationError) -> str:
    """Every complaint of ``exc`` (from validating ``model``) as plain sentences, joined."""
    sentences = list(dict.fromkeys(_sentence(model, error) for error in exc.errors()))
    return "; ".join(sentences)


__all__ = ["allowed", "bounds", "entry_type", "options_problem", "refusal", "shown",
           "strip_optional"]
