"""The one error shape of the API: ``{"error": {"code", "message"}}``.

Actions raise :class:`ApiError`; the app turns it (and every framework error) into
that JSON, or into an error page for a browser, so no input ever produces a 500.
"""

from __future__ import annotations


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def bad_request(message: str, code: str = "bad_request") -> ApiError:
    return ApiError(400, code, message)


def unauthorized(message: str = "sign in first") -> ApiError:
    return ApiError(401, "unauthorized", message)


def forbidden(message: str, code: str = "forbidden") -> ApiError:
    return ApiError(403, code, message)


def not_found(message: str = "no such thing here") -> ApiError:
    return ApiError(404, "not_found", message)


def conflict(message: str, code: str = "conflict") -> ApiError:
    return ApiError(409, code, message)


def invalid(message: str, code: str = "invalid") -> ApiError:
    return ApiError(422, code, message)
