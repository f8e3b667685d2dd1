"""The OpenAPI schema says what the app does: its refusals' shape, and no NUL in any text.

FastAPI documents its own validation error (``{"detail": [...]}``) for 422, which
this API never sends (app.py turns every error into the one shape). So the schema
is rewritten once, when first asked for: every API operation answers 4XX with the
``Error`` shape, and FastAPI's validation-error schemas go. Every text field of a
request body and every text parameter says that it holds no NUL character, which
``TextGuard`` refuses everywhere (422 ``bad_text``); and a limit that comes from the
settings (``field_rules.MINIMUM_SETTING``) gets its value. Clients generated from the
schema, and the schemathesis run in the tests, then expect what they get.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from jackpot.web.base.edge.field_rules import MINIMUM_SETTING
from jackpot.web.base.settings import Settings

#: Text without a NUL character (a JSON Schema pattern: ECMA-262, and Python's too).
NO_NUL = "^[^\\u0000]*$"

ERROR = {
    "type": "object",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "additionalProperties": False,
            "properties": {
                "code": {"type": "string", "description": "for programs, e.g. not_found"},
                "message": {"type": "string", "description": "for people"},
            },
        }
    },
}
_REFUSED = {
    "description": "refused; the message says why (4XX: what was wrong with the request)",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def _texts(node: Any, schemas: dict[str, Any], seen: set[str]) -> None:
    """Every text in ``node`` (a request's schema, followed through its references)
    also refuses NUL: as its pattern, or beside the pattern it has."""
    if isinstance(node, list):
        for item in node:
            _texts(item, schemas, seen)
        return
    if not isinstance(node, dict):
        return
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
        name = ref.rsplit("/", 1)[1]
        if name not in seen:
            seen.add(name)
            _texts(schemas.get(name), schemas, seen)
    if node.get("type") == "string" or any(
        isinstance(v, dict) and v.get("type") == "string" for v in node.get("anyOf", ())
    ):
        if "pattern" not in node:
            node["pattern"] = NO_NUL
        elif {"pattern": NO_NUL} not in node.get("allOf", []):
            node.setdefault("allOf", []).append({"pattern": NO_NUL})
    for key, value in list(node.items()):
        if key not in ("allOf", "enum", "default", "examples"):
            _texts(value, schemas, seen)


def _settings_limits(node: Any, settings: Settings | None) -> None:
    """``{"x-minimum-setting": "min_deadline_seconds"}`` becomes that setting's value
    as the ``minimum``."""
    if isinstance(node, list):
        for item in node:
            _settings_limits(item, settings)
    elif isinstance(node, dict):
        name = node.pop(MINIMUM_SETTING, None)
        if isinstance(name, str) and settings is not None:
            node["minimum"] = getattr(settings, name)
        for value in node.values():
            _settings_limits(value, settings)


def _rewrite(schema: dict[str, Any], settings: Settings | None) -> dict[str, Any]:
    components = schema.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    schemas["Error"] = ERROR
    seen: set[str] = set()
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)
            responses["4XX"] = _REFUSED
            _texts(operation.get("requestBody", {}).get("content"), schemas, seen)
            _texts([p.get("schema") for p in operation.get("parameters", [])], schemas, seen)
    _settings_limits(schema, settings)
    return schema


def document_errors(app: FastAPI) -> None:
    """Make ``app.openapi()`` describe the error shape the app really sends, and
    the rules every text field and parameter follows."""
    plain = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            settings = getattr(app.state, "settings", None)
            app.openapi_schema = _rewrite(plain(), settings)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
