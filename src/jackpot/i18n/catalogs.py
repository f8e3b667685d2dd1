"""The compiled gettext catalogs and the one place that knows which language is current.

The language lives in a context variable, set once per request by the web layer (or
around a mail by the mailer), so code deep inside an action translates without a
request being passed down to it. English is the source language: its text is the
msgid, and it needs no catalog.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from babel.support import NullTranslations, Translations

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DEFAULT = "en"
#: Every language of the site, with its name in itself, in the switcher's order.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "pt": "Português",
    "ms": "Bahasa Melayu",
    "et": "Eesti",
    "sk": "Slovenčina",
}
#: The two catalogs: the server's (templates, Python) and the browser's (static/*.js).
DOMAINS = ("messages", "js")

_current: contextvars.ContextVar[str] = contextvars.ContextVar("jackpot_locale", default=DEFAULT)


class MissingCatalog(RuntimeError):
    """A language of the site whose compiled catalog is absent (run `make messages`)."""

    def __init__(self, locale: str, path: Path) -> None:
        super().__init__(f"{path} is missing: `make messages` compiles the catalogs")
        self.locale = locale
        self.path = path


@cache
def translations(locale: str, domain: str = "messages") -> NullTranslations:
    if locale == DEFAULT:
        return NullTranslations()
    mo = LOCALE_DIR / locale / "LC_MESSAGES" / f"{domain}.mo"
    if not mo.is_file():
        raise MissingCatalog(locale, mo)
    with mo.open("rb") as fp:
        return Translations(fp, domain=domain)


def check_catalogs() -> None:
    """Load every catalog once, so a missing one stops start-up instead of a page."""
    for locale in LANGUAGES:
        for domain in DOMAINS:
            translations(locale, domain)


def current_locale() -> str:
    return _current.get()


@contextlib.contextmanager
def use_locale(locale: str | None) -> Iterator[str]:
    """Translate in `locale` inside the block (a mail in its recipient's language)."""
    chosen = pick(locale) or DEFAULT
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


def set_locale(locale: str) -> None:
    """For the request's own task: the web layer sets it once per request."""
    _current.set(pick(locale) or DEFAULT)


def gettext(message: str, **params: object) -> str:
    text = translations(_current.get()).ugettext(message)
    return text % params if params else text


def ngettext(singular: str, plural: str, n: int, **params: object) -> str:
    text = translations(_current.get()).ungettext(singular, plural, n)
    return text % {"num": n, **params}


def pgettext(context: str, message: str, **params: object) -> str:
    text = translations(_current.get()).upgettext(context, message)
    return text % params if params else text


def N_(message: str) -> str:
    """Marks text for the catalog where it is written; it is translated where shown."""
    return message


def pick(value: str | None) -> str | None:
    """One of the site's languages from a cookie or form value ("pt", "pt-BR"), or None."""
    if not value:
        return None
    base = value.strip().replace("_", "-").split("-", 1)[0].lower()
    return base if base in LANGUAGES else None


def negotiate(accept_language: str | None, max_items: int = 20) -> str | None:
    """The best of the site's languages for an Accept-Language header, or None.

    Read tolerantly (a hostile header never raises) and only its first items, so a
    huge header costs nothing.
    """
    if not accept_language:
        return None
    best: tuple[float, int, str] | None = None
    for index, item in enumerate(accept_language[:1000].split(",")[:max_items]):
        tag, _sep, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        locale = pick(tag)
        if locale is None or not 0 < quality <= 1:
            continue
        if best is None or (quality, -index) > (best[0], best[1]):
            best = (quality, -index, locale)
    return best[2] if best else None
