"""Jinja2 wired to the catalogs: `{% trans %}` blocks (trimmed), `_()`, and the
locale-aware filters the templates format numbers, dates and durations with."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache
from typing import Any

from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from jackpot.i18n import formats
from jackpot.i18n.catalogs import LANGUAGES, current_locale, translations
from jackpot.i18n.names import shown_name


def _gettext(message: str) -> str:
    return translations(current_locale()).ugettext(message)


def _ngettext(singular: str, plural: str, n: int) -> str:
    return translations(current_locale()).ungettext(singular, plural, n)


def _pgettext(context: str, message: str) -> str:
    return translations(current_locale()).upgettext(context, message)


def local_time(at: datetime) -> Markup:
    """A moment as a ``<time class="local">``: the server knows no reader's time zone, so
    it writes the UTC time in the reader's language, and static/local-times.js rewrites
    it in the browser's own zone (a page without scripts keeps the UTC text)."""
    utc = (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(UTC)
    return Markup('<time class="local" datetime="{}">{} UTC</time>').format(
        utc.strftime("%Y-%m-%dT%H:%M:%SZ"), formats.moment(utc)
    )


def per_reader(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` as a filter that runs when the page is made, for its reader.

    Jinja works out a filter applied to a literal (``{{ "classic"|variant }}``) once,
    when it compiles the template, unless the filter asks for the render's context:
    the first reader's language would then stay in the page for every later one."""

    @pass_context
    def filter_(_context: Context, value: Any, *args: Any, **kwargs: Any) -> Any:
        return fn(value, *args, **kwargs)

    return filter_


def install(env: Environment) -> None:
    env.add_extension("jinja2.ext.i18n")
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_callables(  # type: ignore[attr-defined]
        _gettext, _ngettext, newstyle=True, pgettext=_pgettext
    )
    # Every one of them speaks the reader's language.
    filters: dict[str, Callable[..., Any]] = {
        "seconds": formats.duration,
        "number": formats.number,
        "percent": formats.percent,
        "day": formats.day,
        "moment": formats.moment,
        "and_list": formats.and_list,
        "or_list": formats.or_list,
        "variant": formats.variant_name,
        "shown_name": shown_name,
        "local_time": local_time,
    }
    env.filters.update({name: per_reader(fn) for name, fn in filters.items()})
    env.globals.update(
        current_locale=current_locale,
        languages=LANGUAGES,
        js_catalog=lambda: js_catalog(current_locale()),
    )


@cache
def js_catalog(locale: str) -> str:
    """The browser's catalog for `locale` as JSON safe inside a <script> element:
    msgid -> text, or msgid -> [forms] for plurals (static/i18n.js reads it)."""
    messages: dict[str, str | list[str]] = {}
    catalog = getattr(translations(locale, "js"), "_catalog", {})
    for key, text in catalog.items():
        if isinstance(key, tuple):
            msgid, index = key
            forms = messages.setdefault(msgid, [])
            assert isinstance(forms, list)
            forms.extend([""] * (index + 1 - len(forms)))
            forms[index] = text
        elif key:
            messages[key] = text
    body = json.dumps({"locale": locale, "messages": messages}, ensure_ascii=False)
    return body.replace("<", "\\u003c")
