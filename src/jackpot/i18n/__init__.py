"""The site's languages: catalogs, the current language of a request or a mail, and
locale-aware formatting of numbers, dates and durations (Babel + gettext)."""

from jackpot.i18n.catalogs import (
    DEFAULT,
    LANGUAGES,
    N_,
    current_locale,
    gettext,
    negotiate,
    ngettext,
    pick,
    use_locale,
)

_ = gettext

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "_",
    "current_locale",
    "gettext",
    "negotiate",
    "ngettext",
    "pick",
    "use_locale",
]
