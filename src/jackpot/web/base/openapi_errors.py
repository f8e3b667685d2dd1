"""The OpenAPI schema says what a refusal looks like: ``{"error": {"code", "message"}}``.

FastAPI documents its own validation error (``{"detail": [...]}``) for 422, which
this API never sends (app.py turns every error into the one shape). So the schema
is rewritten once, when first asked for: every API operation answers 4XX with the
``Error`` shape, and FastAPI's validation-error schemas go. Clients generated from
the schema, and the schemathesis run in the tests, then expect what they get.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

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


def _rewrite(schema: dict[str, Any]) -> dict[str, Any]:
    components = schema.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    schemas["Error"] = ERROR
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)
            responses["4XX"] = _REFUSED
    return schema


def document_errors(app: FastAPI) -> None:
    """Make ``app.openapi()`` describe the error shape the app really sends."""
    plain = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _rewrite(plain())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
