"""Game options as slash-command parameters: one optional parameter per option name.

Slash parameters are declared once for ``/play``, so the options of every
registered game are merged by name: a bool stays a boolean, an int an integer
(with the widest bounds), a Literal a string with choices, a list a string
such as ``"1,2,3"``. A value is converted back to the chosen game's own type
before its options model validates it.
"""

from __future__ import annotations

import types
from dataclasses import dataclass, field
from typing import Any, Literal, Union, get_args, get_origin

import games
from games.core.errors import SetupError

Kind = Literal["bool", "int", "choice", "list", "str"]


@dataclass
class OptionSpec:
    """One slash parameter of ``/play`` and the games that have that option."""

    name: str
    kind: Kind
    games: list[str] = field(default_factory=list)
    choices: list[str] = field(default_factory=list)
    minimum: int | None = None
    maximum: int | None = None

    def description(self) -> str:
        titles = ", ".join(games.get(g).title for g in self.games)
        hint = " (a list such as 1,2,3)" if self.kind == "list" else ""
        return f"{titles} option{hint}"[:100]


def _strip_optional(annotation: Any) -> Any:
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _bounds(metadata: list[Any]) -> tuple[int | None, int | None]:
    """The inclusive bounds of an int field from its constraints (``Field(ge=1, le=5)``)."""
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


def _spec_of(name: str, annotation: Any, metadata: list[Any]) -> OptionSpec:
    annotation = _strip_optional(annotation)
    origin = get_origin(annotation)
    if annotation is bool:
        return OptionSpec(name, "bool")
    if annotation is int:
        low, high = _bounds(metadata)
        return OptionSpec(name, "int", minimum=low, maximum=high)
    if origin is Literal:
        return OptionSpec(name, "choice", choices=[str(a) for a in get_args(annotation)])
    if origin in (list, tuple):
        return OptionSpec(name, "list")
    return OptionSpec(name, "str")


def _merge(old: OptionSpec, new: OptionSpec) -> OptionSpec:
    if old.kind != new.kind:
        return OptionSpec(old.name, "str", games=old.games)
    merged = OptionSpec(old.name, old.kind, games=old.games)
    merged.choices = list(dict.fromkeys(old.choices + new.choices))
    if old.kind == "int":
        lows = [b for b in (old.minimum, new.minimum) if b is not None]
        highs = [b for b in (old.maximum, new.maximum) if b is not None]
        merged.minimum = min(lows) if len(lows) == 2 else None
        merged.maximum = max(highs) if len(highs) == 2 else None
    if len(merged.choices) > 25:
        merged.kind, merged.choices = "str", []
    return merged


def option_specs() -> dict[str, OptionSpec]:
    """Every option name of every registered game, merged, in a stable order."""
    specs: dict[str, OptionSpec] = {}
    for game in games.names():
        for name, info in games.get(game).options_model.model_fields.items():
            spec = _spec_of(name, info.annotation, list(info.metadata))
            if name in specs:
                spec = _merge(specs[name], spec)
                spec.games = specs[name].games
            spec.games.append(game)
            specs[name] = spec
    return specs


def to_model_values(game: str, raw: dict[str, Any]) -> dict[str, Any]:
    """Slash values turned into ``game``'s own option types; SetupError naming the problem."""
    cls = games.get(game)
    fields = cls.options_model.model_fields
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        known = ", ".join(fields) or "none"
        raise SetupError(f"{cls.title} has no option {', '.join(unknown)} (its options: {known})")
    out: dict[str, Any] = {}
    for name, value in raw.items():
        spec = _spec_of(name, fields[name].annotation, list(fields[name].metadata))
        out[name] = _convert(spec, value)
    return out


# A game at a Discord table should end the same day: a record may list any number
# of entries (the rules set no limit), but /play takes at most this many.
MAX_LIST_ENTRIES = 24


def _convert(spec: OptionSpec, value: Any) -> Any:
    if spec.kind == "list" and isinstance(value, str):
        parts = [p for p in value.replace(" ", ",").split(",") if p]
        if len(parts) > MAX_LIST_ENTRIES:
            raise SetupError(f"{spec.name} takes at most {MAX_LIST_ENTRIES} entries at a table")
        try:
            return [int(p) for p in parts]
        except ValueError:
            return parts
    if spec.kind == "int" and isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            raise SetupError(f"{spec.name} must be a whole number, not {value!r}") from None
    if spec.kind == "bool" and isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return value
