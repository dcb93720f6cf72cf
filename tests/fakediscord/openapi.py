"""Validate the bot's JSON request bodies against Discord's own OpenAPI description.

The spec (`tests/fakediscord/discord-api/openapi.json`, with its licence: the repository's copy
of the shared `discord-api/` folder, which `.ci/run` keeps equal to it) is loaded and indexed
once per process. It is never optional: a missing file is an error, not a reason to validate
nothing.
Each request is matched to its operation (method + path template); the JSON body is validated
against that operation's `requestBody` schema with `jsonschema` (draft 2020-12, which is what
OpenAPI 3.1 uses). `$ref`s resolve inside the whole document through a `referencing` registry.
"""

from __future__ import annotations

import functools
import json
import re
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_URI = "urn:discord-openapi"
DEFAULT_SPEC_PATH = Path(__file__).resolve().parent / "discord-api" / "openapi.json"
API_PREFIX = "/api/v10"


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    operation_id: str
    pattern: re.Pattern[str]
    n_params: int
    schema_pointer: str | None
    """JSON pointer to the application/json request-body schema, if the operation has one."""


class OpenAPISpec:
    """An indexed spec: match requests to operations and validate their bodies."""

    def __init__(self, document: dict[str, Any]) -> None:
        _patch_known_quirks(document)
        self.document = document
        resource = Resource.from_contents(document, default_specification=DRAFT202012)
        self._registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self._operations: dict[str, list[Operation]] = {}
        self._validators: dict[str, Draft202012Validator] = {}
        for template, item in document.get("paths", {}).items():
            for method, op in item.items():
                if method not in ("get", "post", "put", "patch", "delete"):
                    continue
                self._add_operation(method.upper(), template, op)
        for ops in self._operations.values():
            # Literal segments win over parameters: `/messages/@original` before `/{message_id}`.
            ops.sort(key=lambda o: o.n_params)

    def _add_operation(self, method: str, template: str, op: dict[str, Any]) -> None:
        regex = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        content = (op.get("requestBody") or {}).get("content") or {}
        pointer = None
        if "application/json" in content:
            escaped = template.replace("~", "~0").replace("/", "~1")
            pointer = (
                f"/paths/{escaped}/{method.lower()}/requestBody/content/application~1json/schema"
            )
        self._operations.setdefault(method, []).append(
            Operation(
                method=method,
                template=template,
                operation_id=op.get("operationId", f"{method} {template}"),
                pattern=re.compile(regex),
                n_params=template.count("{"),
                schema_pointer=pointer,
            )
        )

    def match(self, method: str, path: str) -> Operation | None:
        """The operation for a request path (with or without the `/api/v10` prefix)."""
        if path.startswith(API_PREFIX):
            path = path[len(API_PREFIX) :]
        for op in self._operations.get(method.upper(), []):
            if op.pattern.match(path):
                return op
        return None

    def validator(self, op: Operation) -> Draft202012Validator | None:
        if op.schema_pointer is None:
            return None
        cached = self._validators.get(op.operation_id)
        if cached is None:
            ref = SPEC_URI + "#" + urllib.parse.quote(op.schema_pointer, safe="/~")
            cached = Draft202012Validator({"$ref": ref}, registry=self._registry)
            self._validators[op.operation_id] = cached
        return cached

    def validate(self, method: str, path: str, body: Any) -> list[str]:
        """Problems with `body` for this request; [] if valid or nothing to validate."""
        op = self.match(method, path)
        if op is None:
            return []
        validator = self.validator(op)
        if validator is None:
            return []
        errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
        return [f"{op.operation_id}: {_describe(e)}" for e in errors]

    def validate_response(self, method: str, path: str, body: Any, status: int = 200) -> list[str]:
        """Problems with a response the fake gives (``body``, JSON) for this request.

        The fake's own answers, checked against the operation's ``responses``
        schema; an unknown route or one without a JSON schema is a problem too.
        """
        op = self.match(method, path)
        if op is None:
            return [f"{method} {path}: no such operation"]
        escaped = op.template.replace("~", "~0").replace("/", "~1")
        pointer = (f"/paths/{escaped}/{method.lower()}/responses/{status}"
                   "/content/application~1json/schema")
        ref = SPEC_URI + "#" + urllib.parse.quote(pointer, safe="/~")
        validator = Draft202012Validator({"$ref": ref}, registry=self._registry)
        try:
            errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
        except Exception as exc:  # the pointer resolves to nothing: no such response
            return [f"{op.operation_id}: no JSON schema for a {status} response ({exc})"]
        return [f"{op.operation_id} response: {_describe(e)}" for e in errors]


def _is_discriminator_miss(error: ValidationError) -> bool:
    """True for "this union branch is for another kind of value".

    That is a branch whose `type` property wants another number (a button tried as a select),
    or the `{"type": "null"}` branch of a nullable field tried against an object.
    """
    if error.validator == "type" and not error.relative_path and error.validator_value == "null":
        return True
    return (
        error.validator in ("enum", "const")
        and bool(error.relative_path)
        and error.relative_path[-1] == "type"
    )


def _most_specific(error: ValidationError) -> ValidationError:
    """Descend a failed oneOf/anyOf into the branch the body was evidently meant for."""
    while error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        plausible = [
            errs for errs in branches.values() if not any(_is_discriminator_miss(e) for e in errs)
        ]
        if len(plausible) != 1:
            # No branch, or several, fit the discriminator: the union error itself is the
            # clearest statement (e.g. "null" vs object branches both failing).
            if not plausible:
                return error
            plausible.sort(key=len)
        error = plausible[0][0]
    return error


def _describe(error: ValidationError) -> str:
    best = _most_specific(error)
    where = "/".join(str(p) for p in best.absolute_path) or "<body>"
    message = best.message if len(best.message) < 300 else best.message[:300] + "..."
    return f"at {where}: {message}"


def _patch_known_quirks(document: dict[str, Any]) -> None:
    """Loosen the two places where the spec is known to disagree with working clients.

    The spec types every snowflake as a decimal string, but Discord accepts integers, and
    discord.py sends some as integers (message_reference.message_id, allowed_mentions.users,
    an attachment's id, a component emoji's id). So a snowflake may also be a non-negative
    integer. Nothing else is loosened: in particular `oneOf` stays `oneOf`; the spec's
    top-level unions are already `anyOf` (marked `x-discord-union: oneOf`), which we keep.
    """
    schemas = document.get("components", {}).get("schemas", {})
    snowflake = schemas.get("SnowflakeType")
    if snowflake is not None and "anyOf" not in snowflake:
        schemas["SnowflakeType"] = {
            "anyOf": [snowflake, {"type": "integer", "minimum": 0}],
        }


@functools.cache
def load_spec(path: Path = DEFAULT_SPEC_PATH) -> OpenAPISpec:
    """The spec at `path`, loaded and indexed once per process; FileNotFoundError if absent."""
    if not path.is_file():
        raise FileNotFoundError(f"Discord's OpenAPI description is missing: {path}")
    with path.open(encoding="utf-8") as f:
        return OpenAPISpec(json.load(f))


__all__ = ["DEFAULT_SPEC_PATH", "OpenAPISpec", "Operation", "load_spec"]
