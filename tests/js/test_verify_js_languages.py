"""The browser verifier speaks the page's language: with a page's script catalog it
writes every check, problem and summary in Portuguese, Malay, Estonian or Slovak,
verifies the same records as in English, and leaves no English sentence behind."""

from __future__ import annotations

import copy
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from js_records import node_verify, node_verify_texts
from test_verify_js import (
    classic_three_seats,
    drawn_three_people,
    first_live_throw,
    jackpot_three_seats_two_resign,
    solo_jackpot_until_shut,
    tampered,
)
from test_verify_js_crosscheck import random_record, shared_place_records
from test_verify_js_daily import daily_record, tamper
from test_verify_js_v4 import position_entry, v4_record

from jackpot.engine import Variant
from jackpot.fair import TournamentTable
from jackpot.i18n.catalogs import translations
from jackpot.i18n.jinja import js_catalog

STATIC = Path(__file__).parents[2] / "src" / "jackpot" / "static"
WORDS = tuple(
    STATIC / name for name in ("verify-words.js", "verify-words-daily.js", "verify-words-v4.js")
)
PLACEHOLDER = re.compile(r"\{\w+\}")
LANGS = ("pt", "ms", "et", "sk")


@cache
def english_fragments(lang: str) -> list[str]:
    """The English pieces of the verifier's sentences (between placeholders) that the
    language's catalog words otherwise: finding one in a report means English is left."""
    gettext = translations(lang, "js")
    messages = [
        m if isinstance(m, tuple) else (m,)
        for words in WORDS
        for _line, m, _comments, _context in extract_from_file(
            "javascript", str(words), keywords={"t": None, "tn": (1, 2)}
        )
    ]
    # Words the translations keep (record fields such as "cover", "Jackpot") are not English left.
    translated = " ".join(
        text
        for ids in messages
        for text in (
            [gettext.ngettext(ids[0], ids[1], n) for n in (1, 2, 5)]
            if len(ids) == 2
            else [gettext.gettext(ids[0])]
        )
    )
    found: set[str] = set()
    for ids in messages:
        for text in ids:
            for piece in PLACEHOLDER.split(text):
                fragment = piece.strip(" .,:;()…'\"")
                if len(re.findall(r"[A-Za-z]", fragment)) >= 3 and fragment not in translated:
                    found.add(fragment)
    assert len(found) > 100
    return sorted(found, key=len, reverse=True)


def english_in(text: str, lang: str) -> list[str]:
    return [f for f in english_fragments(lang) if re.search(rf"(?<!\w){re.escape(f)}(?!\w)", text)]


def records() -> list[dict[str, Any]]:
    base = classic_three_seats()
    i = first_live_throw(base)
    fair = base["events"][i]["dice"]
    drawn = drawn_three_people()
    joined = drawn["joined"]

    def dice(r: dict[str, Any]) -> None:
        r["events"][i]["dice"] = [fair[0] % 6 + 1, fair[1]]

    def cover(r: dict[str, Any]) -> None:
        r["events"][i]["cover"] = [99]

    def dead(r: dict[str, Any]) -> None:
        r["events"][i]["cover"] = []

    def renumber(r: dict[str, Any]) -> None:
        for e in r["events"][i:]:
            e["n"] += 1

    rng = random.Random(8)
    finished = daily_record(rng, "finished", published=True)
    table = v4_record(
        random.Random(5), people=2, table=TournamentTable("t_9", 3, 2), spares=1, miss=0.3,
        variant=Variant.CLASSIC,
    )
    table["origin"] = {"kind": "tournament", "id": "t_9"}
    table["seats"][0]["seed_by"] = "server"
    spare = next(k for k, e in enumerate(table["events"]) if e["type"] == "spare")
    hidden = copy.deepcopy(table)
    for part in hidden["parts"]:
        part["part"] = None
    by_position = position_entry(random.Random(6), Variant.CLASSIC)
    return [
        base,
        table,
        hidden,
        by_position,
        tampered(table, lambda r: r["parts"][0].update(commitment="f" * 64)),
        tampered(table, lambda r: r["tournament"].update(round=4)),
        tampered(table, lambda r: r["events"].insert(spare, r["events"][spare])),
        tampered(table, lambda r: r.pop("parts")),
        tampered(base, lambda r: r.update(format="jackpot-record/4")),
        tampered(by_position, lambda r: r["events"][0].update(dice=[6, 1])),
        *shared_place_records(1),
        finished,
        daily_record(rng, "gave_up", published=True),
        daily_record(rng, "day_closed", published=False),
        daily_record(rng, "playing", published=False),
        tamper(rng, finished, "die"),
        tamper(rng, finished, "renumber"),
        tamper(rng, finished, "total"),
        tamper(rng, finished, "client"),
        tamper(rng, finished, "seats"),
        jackpot_three_seats_two_resign(),
        solo_jackpot_until_shut(),
        drawn,
        tampered(base, dice),
        tampered(base, cover),
        tampered(base, dead),
        tampered(base, renumber),
        tampered(base, lambda r: r.update(server_seed="0" * 64)),
        tampered(base, lambda r: r.update(server_seed=None)),
        tampered(base, lambda r: r.update(client_seed="p0seed.p1 seed.p2seed")),
        tampered(base, lambda r: r.update(result=None)),
        tampered(base, lambda r: r["result"]["totals"].__setitem__(0, 1)),
        tampered(
            base, lambda r: r["events"].append({"type": "out", "seat": 0, "reason": "resigned"})
        ),
        tampered(base, lambda r: r["events"][i].update(dice=fair[:1])),
        tampered(base, lambda r: r.update(format="jackpot-record/3")),
        tampered(base, lambda r: r.update(joined=[0, 1, 2])),
        tampered(drawn, lambda r: r.update(joined=[joined[1], joined[0], joined[2]])),
        tampered(base, lambda r: r["events"].insert(0, {"type": "dance"})),
        "{not json",
    ]


@pytest.fixture(scope="module")
def english() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    made = records()
    return made, node_verify(*made)


@pytest.mark.parametrize("lang", LANGS)
def test_the_report_is_in_the_pages_language(
    lang: str, english: tuple[list[dict[str, Any]], list[dict[str, Any]]]
) -> None:
    made, in_english = english
    reports = node_verify(*made, catalog=js_catalog(lang))
    assert [r["ok"] for r in reports] == [r["ok"] for r in in_english]
    assert in_english[0]["ok"] and not in_english[-1]["ok"]
    for report, source in zip(reports, in_english, strict=True):
        sentences = [report["summary"], report["problem"] or "", *report["checks"]]
        assert len(report["checks"]) == len(source["checks"])
        for sentence, was in zip(
            sentences, [source["summary"], source["problem"] or "", *source["checks"]], strict=True
        ):
            assert not english_in(sentence, lang), (lang, sentence, english_in(sentence, lang))
            assert sentence != was or not sentence, (lang, sentence)


def test_portuguese_words_and_plurals(
    english: tuple[list[dict[str, Any]], list[dict[str, Any]]],
) -> None:
    made, _ = english
    good, *_rest, broken = node_verify(*made, catalog=js_catalog("pt"))
    assert good["summary"].startswith("Verificado: uma partida de Clássico com 3 lugares, ")
    assert good["checks"][0] == "O registo está completo: uma partida de Clássico com 3 lugares."
    # Where the text breaks, in the page's words, not the browser's English message.
    assert broken["summary"] == (
        "Não verificado: Isto não é um registo de partida: "
        "o texto não é JSON válido perto da linha 1, coluna 2."
    )
    (sk,) = node_verify(made[0], catalog=js_catalog("sk"))
    assert "ktorá má 3 miesta." in sk["checks"][0]


def records_with_every_strength() -> list[dict[str, Any]]:
    rng = random.Random(16)
    made: list[dict[str, Any]] = []
    seen: set[str] = set()
    while seen != {"lowest", "highest", "best"}:
        record = random_record(rng, Variant.CLASSIC, 4)
        new = {s["bot"] for s in record["seats"] if s["bot"]} - seen
        if new:
            made.append(record)
            seen |= new
    return made


@pytest.mark.parametrize("lang", LANGS)
def test_bot_strengths_are_named_in_the_pages_language(lang: str) -> None:
    """A record names a bot's strength by its id ("best"); the report says the rule it
    plays by ("best move") in the page's words."""
    gettext = translations(lang, "js").gettext
    rules = {"lowest": "lowest tile", "highest": "highest tile", "best": "best move"}
    made = records_with_every_strength()
    reports = node_verify(*made, catalog=js_catalog(lang))
    for record, report in zip(made, reports, strict=True):
        assert report["ok"], report
        checks = " ".join(report["checks"])
        for strength in {s["bot"] for s in record["seats"] if s["bot"]}:
            assert gettext(rules[strength]) != rules[strength]
            assert re.search(rf"(?<!\w){re.escape(gettext(rules[strength]))}(?!\w)", checks), checks
            assert not re.search(rf"(?<!\w){strength}(?!\w)", checks), checks


# Words of a programmer the report must not use: the file's fields and formats, "null",
# "[]", hashes and indices, a seat counted from 0.
PROGRAMMER = re.compile(
    r"\bnull\b|\[\]|\bjoined\b|\bcover \[|\bresult:|SHA-256|\bhash|\bindex|\bindeks|\bhex\b"
    r"|\bseat 0\b|\bevents?\b"
)


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_the_report_reads_in_a_players_words(
    lang: str, english: tuple[list[dict[str, Any]], list[dict[str, Any]]]
) -> None:
    made, in_english = english
    reports = in_english if lang == "en" else node_verify(*made, catalog=js_catalog(lang))
    for report in reports:
        said = [report["summary"], *report["checks"]]
        # What was checked names no format and no JSON: those are for a verifier's author.
        assert not any(re.search(r"jackpot-record|JSON", s) for s in report["checks"]), said
        for sentence in [*said, report["problem"] or ""]:
            assert not PROGRAMMER.search(sentence), (lang, sentence)


NOT_JSON_AT = (
    "this is not a match record: its text is not valid JSON near line {line}, column {column}"
)
CUT_SHORT = "this is not a match record: its text ends too soon, as if it had been cut off"
BROKEN = [
    ('{"format": "jackpot-record/2",\n  "seats": [,]}', (2, 13)),
    ("{not json", (1, 2)),
    ('{"format": "jackpot-record/2", "seats": [', None),
]


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_a_text_that_is_not_a_record_is_said_in_the_pages_words(lang: str) -> None:
    """JSON.parse's own message is the browser's English (and differs between browsers):
    the report names the line and column itself, in the page's language."""
    gettext = translations(lang, "js").gettext
    catalog = None if lang == "en" else js_catalog(lang)
    reports = node_verify_texts(*(text for text, _ in BROKEN), catalog=catalog)
    for (text, where), report in zip(BROKEN, reports, strict=True):
        assert not report["ok"] and not report["checks"], report
        if where is None:
            said = gettext(CUT_SHORT)
        else:
            said = gettext(NOT_JSON_AT).format(line=where[0], column=where[1])
        assert report["problem"] == said, (text, report["problem"])
        assert not re.search(r"Unexpected|Expected|position|token", report["summary"]), report


def with_guests(record: dict[str, Any]) -> dict[str, Any]:
    """The record with guests' default names, as the site stores them (in English)."""
    copied = copy.deepcopy(record)
    copied["seats"][0]["name"] = "Guest 1a2b"
    copied["seats"][1]["name"] = "Guest 00ff"
    return copied


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_a_guests_name_is_said_in_the_pages_language(lang: str) -> None:
    """The record keeps "Guest 1a2b" (it must read the same for everybody, and still
    verifies); the report names the guest the way the rest of the site does."""
    gettext = translations(lang, "js").gettext
    base = classic_three_seats()
    guests = with_guests(base)
    wrong = with_guests(tampered(base, lambda r: r["result"]["totals"].__setitem__(0, 1)))
    catalog = None if lang == "en" else js_catalog(lang)
    good, bad = node_verify(guests, wrong, catalog=catalog)
    assert good["ok"], good["problem"]
    assert guests["seats"][0]["name"] == "Guest 1a2b"
    shown = gettext("Guest {tag}").format(tag="1a2b")
    report = " ".join([good["summary"], *good["checks"], bad["problem"]])
    assert shown in good["summary"] and shown in bad["problem"], report
    assert gettext("Guest {tag}").format(tag="00ff") in report
    if lang != "en":
        assert "Guest" not in report, report
