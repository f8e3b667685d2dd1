"""HTML forms: read one CSRF-checked, take its fields, redirect within the site."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import RedirectResponse
from starlette.datastructures import FormData

from jackpot.web.base.edge.http import check_form_csrf
from jackpot.web.base.errors import invalid


async def read_form(request: Request) -> FormData:
    form = await request.form()
    check_form_csrf(request, form)
    return form


def form_text(form: FormData, key: str, default: str = "") -> str:
    value = form.get(key, default)
    return value if isinstance(value, str) else default


def form_int(form: FormData, key: str, default: int) -> int:
    try:
        return int(form_text(form, key, str(default)))
    except ValueError:
        raise invalid("%(field)s must be a whole number", field=key) from None


def safe_next(value: Any, default: str = "/") -> str:
    """Where to go after a form: a path on this site, never another site's address."""
    if (
        isinstance(value, str)
        and value.startswith("/")
        and not value.startswith("//")
        and "\\" not in value
        and len(value) <= 2000
    ):
        return value
    return default


def see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)
