"""Every error in the one shape (JSON or error page), and the handlers making it.

Programs get ``{"error": {"code", "message"}}``, a browser the error page.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match

from jackpot.i18n import N_, gettext
from jackpot.web.base.errors import ApiError

log = logging.getLogger("jackpot.web")

#: PostgreSQL's answers to two transactions that crossed: a deadlock it broke, a
#: serialization failure, a row another transaction inserted first.
RACES = frozenset({"40P01", "40001", "23505"})


def lost_race(exc: BaseException) -> bool:
    """Whether ``exc`` is the database refusing a transaction that another one, running
    at the same moment, got ahead of. The known races are taken care of where they
    happen (locks taken in one order, the row locked before it is read); this is
    the answer for any left: the request changed nothing and may simply be sent
    again, which a 409 says, where a 500 would say the site is broken."""
    return isinstance(exc, DBAPIError) and getattr(exc.orig, "sqlstate", None) in RACES

STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    422: "invalid",
    429: "too_many_requests",
}


#: What the framework's own refusals say (a wrong address, a wrong method).
HTTP_MESSAGES = {
    404: N_("there is nothing at this address"),
    405: N_("this address does not take that method"),
}
#: FastAPI's refusal of a body its JSON parser gave up on (bad UTF-8, a number of
#: thousands of digits, nesting thousands deep), in our words.
UNREADABLE_BODY = "There was an error parsing the body"

#: The framework's complaints about a field, in our words; any other is "is not valid"
#: (the framework's own wording is English only).
VALIDATION_PROBLEMS = {
    "missing": N_("is required"),
    "int_parsing": N_("must be a whole number"),
    "int_type": N_("must be a whole number"),
    "int_from_float": N_("must be a whole number"),
    "float_parsing": N_("must be a number"),
    "float_type": N_("must be a number"),
    "bool_parsing": N_("must be true or false"),
    "bool_type": N_("must be true or false"),
    "string_type": N_("must be text"),
    "list_type": N_("must be a list"),
    "string_too_long": N_("is too long"),
    "string_too_short": N_("is too short"),
    "too_long": N_("is too long"),
    "too_short": N_("is too short"),
    "string_pattern_mismatch": N_("is not in the expected form"),
    "greater_than_equal": N_("is too small"),
    "greater_than": N_("is too small"),
    "less_than_equal": N_("is too large"),
    "less_than": N_("is too large"),
    "literal_error": N_("is not one of the allowed values"),
    "enum": N_("is not one of the allowed values"),
    "extra_forbidden": N_("is not a field this request takes"),
    "model_attributes_type": N_("must be an object"),
    "dict_type": N_("must be an object"),
}


def wants_html(request: Request) -> bool:
    return not request.url.path.startswith("/api") and "text/html" in request.headers.get(
        "accept", ""
    )


def error_response(
    request: Request, status: int, code: str, message: str,
    headers: dict[str, str] | None = None,
) -> Response:
    if wants_html(request):
        templates = request.app.state.templates
        return templates.TemplateResponse(  # type: ignore[no-any-return]
            request, "error.html", {"status": status, "message": message}, status_code=status,
            headers=headers,
        )
    return JSONResponse(
        {"error": {"code": code, "message": message}}, status_code=status, headers=headers
    )


#: The methods a 405's ``Allow`` header may name.
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(request: Request) -> dict[str, str]:
    """A 405's ``Allow`` header (RFC 9110 requires one): every method the routes of
    this path take, found by asking the routes as if the request had come with each
    (included routers answer for their own routes)."""
    allowed = [
        method
        for method in METHODS
        if any(
            isinstance(route, BaseRoute)
            and route.matches({**request.scope, "method": method})[0] == Match.FULL
            for route in request.app.router.routes
        )
    ]
    return {"Allow": ", ".join(allowed)} if allowed else {}


def validation_message(errors: Sequence[Any]) -> tuple[int, str, str]:
    """Status, code and a message a person can act on, for a body the models refused
    (pydantic's ``errors()``): the first problem, named by where it is."""
    for err in errors:
        if err.get("type") == "json_invalid":
            return 400, "bad_json", gettext("the body is not valid JSON")
    if errors:
        err = errors[0]
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        if err.get("type") == "missing" and where == "body":
            return 422, "invalid", gettext("a JSON body is required")
        problem = VALIDATION_PROBLEMS.get(str(err.get("type")))
        text = gettext(problem or "is not valid")
        return 422, "invalid", f"{where}: {text}"
    return 422, "invalid", gettext("the request is not valid")


def handle_errors(app: FastAPI) -> None:
    """Answer ``ApiError``, the framework's errors and anything unexpected in the one
    shape: no input ever produces a bare 500."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> Response:
        return error_response(request, exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        status, code, message = validation_message(exc.errors())
        return error_response(request, status, code, message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        status = exc.status_code
        if status == 400 and exc.detail == UNREADABLE_BODY:
            # The same code as the JSON the parser could not read at all.
            message = gettext(
                "the request body could not be read: send UTF-8 JSON without huge numbers"
                " or deep nesting"
            )
            return error_response(request, status, "bad_json", message)
        message = gettext(HTTP_MESSAGES.get(status, N_("request refused")))
        headers = allowed_methods(request) if status == 405 else None
        return error_response(
            request, status, STATUS_CODES.get(status, "error"), message, headers
        )

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        if lost_race(exc):
            log.warning("a race on %s %s: %s", request.method, request.url.path, exc)
            message = gettext(
                "another request changed the same thing at the same moment; try again"
            )
            return error_response(request, 409, "retry", message)
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        message = gettext("something went wrong on our side")
        return error_response(request, 500, "internal", message)
