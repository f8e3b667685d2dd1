"""Every string the site shows has a translation in every language, with the same
placeholders and markup as the English, and the compiled catalogs match the sources."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import read_mo
from catalog_check import LANGS, LOCALE, problems, read_catalog, source_messages

DOMAINS = ("messages", "js")


def _flat(value: object) -> object:
    return tuple(value) if isinstance(value, list | tuple) else value


@pytest.fixture(scope="module")
def wanted() -> dict[str, dict[str, str | None]]:
    return {domain: source_messages(domain) for domain in DOMAINS}


def test_the_sources_mark_text_for_both_catalogs(wanted: dict[str, dict[str, str | None]]) -> None:
    assert "Play the bot" in wanted["messages"]
    assert "{clock} left" in wanted["js"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_translated_with_the_same_placeholders(
    lang: str, domain: str, wanted: dict[str, dict[str, str | None]]
) -> None:
    found = list(problems(read_catalog(lang, domain), wanted[domain], domain))
    assert not found, f"{lang}/{domain}.po, run `make messages` and translate:\n" + "\n".join(
        found
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalog_is_the_current_one(lang: str, domain: str) -> None:
    def entries(messages: Iterable[Message]) -> dict[object, object]:
        return {_flat(m.id): _flat(m.string) for m in messages if m.id and not m.fuzzy}

    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo").open("rb") as fp:
        compiled = entries(read_mo(fp))
    source = entries(read_catalog(lang, domain))
    assert compiled == source, "run `make catalogs`"


def test_the_check_catches_a_missing_and_a_broken_translation() -> None:
    catalog = Catalog(locale="sk")
    catalog.add("Page %(page)s of %(pages)s", "Strana %(page)s z %(pagse)s")
    catalog.add("See <a href=\"/rules\">rules</a>.", "Pozri pravidlá.")
    catalog.add(("%(num)d day", "%(num)d days"), ("%(num)d deň", "%(num)d dni"))
    wanted = {
        "Page %(page)s of %(pages)s": None,
        "See <a href=\"/rules\">rules</a>.": None,
        "%(num)d day": "%(num)d days",
        "Not translated at all": None,
    }
    found = " | ".join(problems(catalog, wanted, "messages"))
    assert "placeholders differ: 'Page" in found
    assert "markup differs: 'See" in found
    assert "2 plural forms, 3 wanted" in found
    assert "missing: 'Not translated at all'" in found
    js = Catalog(locale="pt")
    js.add("{s} s left", "faltam {seg} s")
    assert list(problems(js, {"{s} s left": None}, "js")) == [
        "placeholders differ: '{s} s left' -> 'faltam {seg} s'"
    ]
