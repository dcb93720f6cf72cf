"""A game's options as slash-command parameters of its own ``/play`` subcommand.

Each registered game gets ``/play <game>`` (:mod:`cogs.commands.play`) with one optional
parameter per field of its options model: a bool stays a boolean, an int an
integer with the model's bounds, a Literal a string with those choices, a list
a string such as ``"1,2,3"``. Each parameter's description says what the option
means (the model field's ``description``), what it allows and its default.
A value is turned back into the game's own type before the model validates it,
and a refusal says in plain words what was given and what is allowed
(:mod:`games.core.option_words`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

import games
from games.core.errors import SetupError
from games.core.option_words import bounds, entry_type, refusal, shown, strip_optional

Kind = Literal["bool", "int", "choice", "list", "str"]
DESCRIPTION_LIMIT = 100
"""Discord's longest option description."""


@dataclass
class OptionSpec:
    """One slash parameter of a game's ``/play`` subcommand."""

    name: str
    kind: Kind
    meaning: str = ""
    default: Any = None
    choices: list[str] = field(default_factory=list)
    minimum: int | None = None
    maximum: int | None = None

    def default_words(self) -> str:
        """The default as ``/play`` and ``/rules`` say it: ``yes``/``no``, ``3``, ``1,2``."""
        if self.kind == "bool":
            return "yes" if self.default else "no"
        return shown(self.default).strip('"')

    def description(self) -> str:
        """Meaning, range and default in at most 100 characters (the meaning is cut first)."""
        allowed = {"int": f"{self.minimum} to {self.maximum}", "bool": "",
                   "choice": "", "str": "",
                   "list": f"e.g. 1,2; each {self.minimum} to {self.maximum}"}[self.kind]
        if self.kind in ("int", "list") and (self.minimum is None or self.maximum is None):
            allowed = "e.g. 1,2" if self.kind == "list" else ""
        tail = "; ".join(filter(None, (allowed, f"default {self.default_words()}")))
        room = DESCRIPTION_LIMIT - len(tail) - 3
        meaning = self.meaning if len(self.meaning) <= room else self.meaning[: room - 1] + "…"
        return f"{meaning} ({tail})"


def _spec_of(name: str, info: Any) -> OptionSpec:
    annotation = strip_optional(info.annotation)
    default = info.get_default(call_default_factory=True)
    spec = OptionSpec(name, "str", meaning=info.description or name, default=default)
    if annotation is bool:
        spec.kind = "bool"
    elif annotation is int:
        spec.kind = "int"
        spec.minimum, spec.maximum = bounds(list(info.metadata))
    elif get_origin(annotation) is Literal:
        spec.kind, spec.choices = "choice", [str(a) for a in get_args(annotation)]
    elif get_origin(annotation) in (list, tuple):
        spec.kind = "list"
        spec.minimum, spec.maximum = bounds(entry_type(annotation)[1])
    return spec


def game_specs(game: str) -> list[OptionSpec]:
    """The options of ``game``, in the order its model declares them."""
    model = games.get(game).options_model
    return [_spec_of(name, info) for name, info in model.model_fields.items()]


def to_model_values(game: str, raw: dict[str, Any]) -> dict[str, Any]:
    """Slash values turned into ``game``'s own option types; SetupError naming the problem."""
    cls = games.get(game)
    specs = {spec.name: spec for spec in game_specs(game)}
    unknown = sorted(set(raw) - set(specs))
    if unknown:
        known = ", ".join(specs) or "none"
        raise SetupError(f"{cls.title} has no option {', '.join(unknown)} (its options: {known})")
    try:
        return {name: _convert(specs[name], value) for name, value in raw.items()}
    except SetupError as exc:
        raise SetupError(refusal(cls.title, exc.message)) from None


# A game at a Discord table should end the same day: a record may list any number
# of entries (the rules set no limit), but /play takes at most this many.
MAX_LIST_ENTRIES = 24
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")
"""An entry read as a number: ASCII digits, few enough for any option. ``str.isdigit``
would pass ``"²"`` or 5,000 digits, which ``int()`` then refuses with a crash."""


def _convert(spec: OptionSpec, value: Any) -> Any:
    """A list typed as ``"1,2 3"`` becomes ``[1, 2, 3]``; entries that are not numbers stay
    text, so the model's refusal names them."""
    if spec.kind == "list" and isinstance(value, str):
        parts = [p for p in value.replace(" ", ",").split(",") if p]
        if len(parts) > MAX_LIST_ENTRIES:
            raise SetupError(f"`{spec.name}` was given {len(parts)} entries; a table takes "
                             f"at most {MAX_LIST_ENTRIES}")
        return [int(p) if WHOLE_NUMBER.fullmatch(p) else p for p in parts]
    return value
