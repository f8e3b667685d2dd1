"""Numbers, percentages, dates and durations written the current language's way (Babel)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from functools import cache

from babel import Locale, dates, lists, numbers

from jackpot.i18n.catalogs import N_, current_locale, gettext, ngettext

#: Babel's plain "pt" writes numbers and dates as Brazil does ("12.345,5"); the site's
#: Portuguese is Portugal's ("12 345,5", "04/12/2026"), as its words are.
FORMAT_LOCALES = {"pt": "pt_PT"}

#: The two games' names as players read them ("Jackpot" stays a name everywhere).
VARIANT_NAMES = {"jackpot": N_("Jackpot"), "classic": N_("Classic")}


def format_locale() -> str:
    """The Babel locale whose conventions the current language writes numbers and dates by."""
    locale = current_locale()
    return FORMAT_LOCALES.get(locale, locale)


def variant_name(variant: str) -> str:
    return gettext(VARIANT_NAMES[variant]) if variant in VARIANT_NAMES else variant


def number(value: float, digits: int = 0) -> str:
    """A number with exactly `digits` decimals: 3.5 in English, 3,5 in Slovak."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return numbers.format_decimal(value, format=pattern, locale=format_locale())


@cache
def _percent_format(locale_name: str, digits: int) -> tuple[Locale, numbers.NumberPattern]:
    """The language's percent pattern with ``digits`` decimals, parsed once: a replay
    writes a few hundred percentages, and parsing the locale and the pattern each time
    was most of its cost."""
    locale = Locale.parse(locale_name)
    pattern = locale.percent_formats[None].pattern
    if digits:
        pattern = re.sub(r"0(\s*%)", "0." + "0" * digits + r"\1", pattern, count=1)
    return locale, numbers.parse_pattern(pattern)


def percent(share: float, digits: int = 1) -> str:
    """A share of 1 as a percentage: 0.0799874 reads 8.0% or 8,0 % by language."""
    locale, pattern = _percent_format(format_locale(), digits)
    return str(pattern.apply(share, locale))


def exact_percent(share: float) -> str:
    """Every decimal the value has: 7.99874% (English), 7,99874 % (Slovak)."""
    return numbers.format_percent(share, locale=format_locale(), decimal_quantization=False)


def day(value: str | date | datetime | None) -> str:
    """A date (an ISO string from the database is fine) in the language's medium form."""
    if value is None or value == "":
        return "–"
    if isinstance(value, str):
        text = value
        try:
            value = datetime.fromisoformat(text[:19])
        except ValueError:
            return text[:10]
    if isinstance(value, datetime):
        value = value.date()
    return dates.format_date(value, format="medium", locale=format_locale())


def moment(at: datetime) -> str:
    """A date and time of day (UTC) the language's way, for mails: "Dec 1, 2026, 14:05"."""
    locale = format_locale()
    day = dates.format_date(at.astimezone(UTC).date(), format="medium", locale=locale)
    return day + ", " + dates.format_time(at, format="short", tzinfo=UTC, locale=locale)


def time_left(delta: timedelta) -> str:
    """'3 hours 5 minutes', 'less than a minute': the time left before a deadline, at
    most its two largest units (a push's deadline, a challenge's expiry)."""
    secs = int(delta.total_seconds())
    if secs < 60:
        return gettext("less than a minute")
    days, rest = divmod(secs, 86400)
    hours, rest = divmod(rest, 3600)
    parts = []
    if days:
        parts.append(ngettext("%(num)d day", "%(num)d days", days))
    if hours:
        parts.append(ngettext("%(num)d hour", "%(num)d hours", hours))
    if rest >= 60:
        parts.append(ngettext("%(num)d minute", "%(num)d minutes", rest // 60))
    return " ".join(parts[:2])


def duration(seconds: int) -> str:
    """A deadline in whole units, words spelled out: "1 day", "5 minutes", "1 päev"."""
    for limit, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= limit and seconds % limit == 0:
            n = seconds // limit
            return _unit(unit, n)
    return _unit("second", seconds)


def _unit(unit: str, n: int) -> str:
    if unit == "day":
        return ngettext("%(num)d day", "%(num)d days", n)
    if unit == "hour":
        return ngettext("%(num)d hour", "%(num)d hours", n)
    if unit == "minute":
        return ngettext("%(num)d minute", "%(num)d minutes", n)
    return ngettext("%(num)d second", "%(num)d seconds", n)


def and_list(items: Iterable[object]) -> str:
    """2, 5 and 7 / 2, 5 e 7: a list joined the language's way."""
    return lists.format_list([str(i) for i in items], locale=format_locale())


def or_list(items: Iterable[object]) -> str:
    """2, 5 or 7 / 2, 5 alebo 7."""
    return lists.format_list([str(i) for i in items], style="or", locale=format_locale())
