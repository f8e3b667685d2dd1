"""What each kind of request field may hold, as the OpenAPI schema says it.

The checks themselves stay where they are (they answer in the reader's language,
naming what was wrong); a model's field carries the same rule for the schema as
``json_schema_extra``, so a client generated from the schema, or a fuzzer, knows
what the route refuses. ``openapi_errors`` adds what holds for every text field
(no NUL) and fills in limits that come from the settings (``MINIMUM_SETTING``).
"""

from __future__ import annotations

from typing import Any

from jackpot.fair.seeds import CLIENT_SEED_ALPHABET, CLIENT_SEED_MAX
from jackpot.i18n import LANGUAGES
from jackpot.web.base import names, passwords

#: The key of a ``json_schema_extra`` whose value names a setting: the schema's
#: ``minimum`` is that setting's value (openapi_errors.py fills it in).
MINIMUM_SETTING = "x-minimum-setting"

#: An address sign-up accepts (accounts/credentials.py's check_email, which strips
#: the white space around it first).
EMAIL: dict[str, Any] = {
    "maxLength": 254,
    "pattern": r"^\s*[^@\s]{1,64}@[^@\s]+\.[^@\s]+\s*$",
}
#: A new password: its length, and not only white space (zxcvbn's judgement is the
#: rest of the check, which no schema can say).
NEW_PASSWORD: dict[str, Any] = {
    "minLength": passwords.MIN_LENGTH,
    "maxLength": passwords.MAX_LENGTH,
    "pattern": r"\S",
}
#: A display name (base/names.py: 2 to 24 letters, digits, spaces, '.', '_', '-',
#: counted in its normal form).
NAME: dict[str, Any] = {
    "minLength": names.MIN_LENGTH,
    "maxLength": names.MAX_LENGTH,
    "pattern": r"\S",
}
#: A client seed; empty (or null) asks the server for one.
CLIENT_SEED: dict[str, Any] = {
    "maxLength": CLIENT_SEED_MAX,
    "pattern": f"^[{CLIENT_SEED_ALPHABET}]*$",
}


def one_of(*values: Any, nullable: bool = False) -> dict[str, Any]:
    """An ``enum`` (with null when the field may be null: an enum binds every type)."""
    return {"enum": [*values, None] if nullable else list(values)}


#: The account's language, or null for no change.
LOCALE = one_of(*LANGUAGES, nullable=True)
