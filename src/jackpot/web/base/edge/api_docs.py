"""The API's documentation as a page of the site, built from the OpenAPI schema.

Every path and method with what it does, in the site's layout and language.
FastAPI's own page loaded Swagger UI from another origin and is gone (edge/headers.py);
the account page's link to "the API's documentation" then opened the raw schema, JSON
a person could not read. This page is built from the same schema, so it lists what
the API is; the schema stays at /api/openapi.json.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from jackpot.web.base.edge.templates import render

router = APIRouter(include_in_schema=False)

METHODS = ("get", "post", "put", "patch", "delete")


def operations(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """Every operation of ``schema``, grouped by the path's first part after /api/
    (matches, account, daily, ...): ``[{"group", "operations": [{"method", "path",
    "summary", "description"}]}]``, in the schema's order."""
    groups: dict[str, list[dict[str, str]]] = {}
    for path, ops in schema.get("paths", {}).items():
        group = path.removeprefix("/api/").split("/")[0] or "api"
        for method in METHODS:
            op = ops.get(method)
            if op is None:
                continue
            description = str(op.get("description") or "").strip()
            groups.setdefault(group, []).append(
                {
                    "method": method.upper(),
                    "path": path,
                    "summary": str(op.get("summary") or ""),
                    # The first paragraph: what it does, without the details for us.
                    "description": description.split("\n\n")[0],
                }
            )
    return [{"group": g, "operations": items} for g, items in groups.items()]


@router.get("/api-docs")
async def api_docs(request: Request) -> Response:
    return await render(
        request, "api_docs.html", {"groups": operations(request.app.openapi())}
    )
