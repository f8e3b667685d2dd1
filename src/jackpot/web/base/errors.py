"""The one error shape of the API: ``{"error": {"code", "message"}}``.

Actions raise :class:`ApiError`; the app turns it (and every framework error) into
that JSON, or into an error page for a browser, so no input ever produces a 500.
The message is a catalog entry with named placeholders: ``code`` stays a stable
English identifier, ``message`` is said in the request's language when it is read.
"""

from __future__ import annotations

from jackpot.engine import IllegalMove
from jackpot.i18n import gettext, ngettext
from jackpot.i18n.engine_errors import explain


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, **params: object) -> None:
        super().__init__(message % params if params else message)
        self.status = status
        self.code = code
        self.template = message
        self.params = params

    @property
    def message(self) -> str:
        """The message in the current language (the request's, or a mail's)."""
        return gettext(self.template, **self.params)


class CountedError(ApiError):
    """An error that counts something ("you may have 5 challenges open"): its message
    takes the plural form the reader's language uses for ``num`` (Slovak 3 výzvy, 5
    výziev), which a number slotted into one sentence cannot."""

    def __init__(
        self, status: int, code: str, singular: str, plural: str, num: int, **params: object
    ) -> None:
        super().__init__(status, code, singular if num == 1 else plural, num=num, **params)
        self.singular = singular
        self.plural = plural
        self.num = num

    @property
    def message(self) -> str:
        params = {k: v for k, v in self.params.items() if k != "num"}
        return ngettext(self.singular, self.plural, self.num, **params)


def already_said(status: int, code: str, message: str) -> ApiError:
    """An error whose message was put together from catalog entries already, in the
    reader's language (a model's refusal of a field: ``responses.validation_message``)."""
    return ApiError(status, code, message)


def bad_request(message: str, code: str = "bad_request", **params: object) -> ApiError:
    return ApiError(400, code, message, **params)


def unauthorized(message: str = "sign in first") -> ApiError:
    return ApiError(401, "unauthorized", message)


def forbidden(message: str, code: str = "forbidden", **params: object) -> ApiError:
    return ApiError(403, code, message, **params)


def not_found(message: str = "no such thing here", **params: object) -> ApiError:
    return ApiError(404, "not_found", message, **params)


def conflict(message: str, code: str = "conflict", **params: object) -> ApiError:
    return ApiError(409, code, message, **params)


def invalid(message: str, code: str = "invalid", **params: object) -> ApiError:
    return ApiError(422, code, message, **params)


class Refusal(ApiError):
    """The engine's refusal of a move, said in the reader's language from its data."""

    def __init__(self, status: int, code: str, refusal: IllegalMove) -> None:
        super().__init__(status, code, str(refusal))
        self.refusal = refusal

    @property
    def message(self) -> str:
        return explain(self.refusal)
