"""What the catalog tests check, as functions: the messages the sources use, and the
problems of one language's catalog against them (missing, empty, fuzzy, or with other
placeholders or markup than the English)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "src" / "jackpot" / "locale"
LANGS = ("pt", "ms", "et", "sk")
#: gettext's python-format specifiers (%(name)s, %d, %%) and the scripts' {name}.
PY_FORMAT = re.compile(r"%(?:\((\w+)\))?[#0 +\-]*\d*(?:\.\d+)?([a-zA-Z%])")
JS_FORMAT = re.compile(r"\{(\w+)\}")
TAG = re.compile(r"</?[a-zA-Z][^>]*>")
JS_KEYWORDS = {"t": None, "tn": (1, 2)}
#: The API's error helpers take a catalog message too (web/base/errors.py).
ERROR_KEYWORDS = {
    name: None
    for name in ("bad_request", "unauthorized", "forbidden", "not_found", "conflict", "invalid")
} | {"ApiError": (3,), "CountedError": (3, 4)}


def source_messages(domain: str) -> dict[str, str | None]:
    """msgid -> msgid_plural (None for a singular) of every string the sources mark."""
    cfg = "babel.cfg" if domain == "messages" else "js.cfg"
    with (ROOT / cfg).open() as fp:
        method_map, options_map = parse_mapping_cfg(fp)
    keywords = {**DEFAULT_KEYWORDS, **ERROR_KEYWORDS} if domain == "messages" else JS_KEYWORDS
    found: dict[str, str | None] = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords
    ):
        if isinstance(message, tuple):
            found[message[0]] = message[1]
        elif message:
            found[message] = None
    return found


def placeholders(text: str, domain: str) -> list[str]:
    if domain == "js":
        return sorted(JS_FORMAT.findall(text))
    return sorted(
        f"%({name}){kind}" if name else f"%{kind}"
        for name, kind in PY_FORMAT.findall(text)
        if kind != "%"
    )


def markup(text: str) -> list[str]:
    return sorted(TAG.findall(text))


def read_catalog(lang: str, domain: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as fp:
        return read_po(fp, locale=lang)


def problems(
    catalog: Catalog, wanted: dict[str, str | None], domain: str
) -> Iterable[str]:
    for msgid, plural in wanted.items():
        message = catalog.get(msgid)
        if message is None:
            yield f"missing: {msgid!r}"
            continue
        if message.fuzzy:
            yield f"fuzzy: {msgid!r}"
        forms = list(message.string) if isinstance(message.string, tuple) else [message.string]
        if plural is not None and len(forms) != catalog.num_plurals:
            yield f"{len(forms)} plural forms, {catalog.num_plurals} wanted: {msgid!r}"
        english = plural if plural is not None else msgid
        for form in forms:
            if not form:
                yield f"untranslated: {msgid!r}"
            elif placeholders(form, domain) != placeholders(english, domain):
                yield f"placeholders differ: {msgid!r} -> {form!r}"
            elif markup(form) != markup(english):
                yield f"markup differs: {msgid!r} -> {form!r}"
