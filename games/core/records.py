"""Game records: the JSON document that replays a game exactly (like PGN).

The format is specified in ``docs/rules/README.md``. Loading a record
validates its shape; a malformed one raises :class:`SetupError`.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError

from games.core.errors import SetupError


class Record(BaseModel):
    """A game record. Unknown top-level keys (the bot's ``meta``) are kept and ignored."""

    model_config = ConfigDict(extra="allow", strict=True)

    game: StrictStr
    players: StrictInt
    options: dict[str, Any] = {}
    seed: StrictInt | None = None
    dealer: StrictInt | None = None
    deals: list[dict[str, Any]] = []
    actions: list[StrictStr] = []

    @classmethod
    def from_json(cls, text: str) -> Record:
        """Parse and validate a record; :class:`SetupError` with one clear line if malformed."""
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise SetupError(f"the record is not JSON: {exc}") from None
        return cls.from_data(data)

    @classmethod
    def from_data(cls, data: object) -> Record:
        """Validate an already parsed record."""
        if not isinstance(data, dict):
            raise SetupError("the record must be a JSON object")
        if "record" in data and "game" not in data:
            raise SetupError('this is a record wrapped in {"record": ..., "expect": ...} (a rule '
                             'vector): replay its "record" alone')
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(map(str, first["loc"])) or "record"
            raise SetupError(f"{where}: {first['msg']}") from None
