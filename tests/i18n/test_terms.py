"""A game word is said one way in each language, on every page and in every script:
Malay resigns with "menyerah kalah" (not "menarik diri", and the seeds' draw is an
"undian", never "mencabut"), and Portuguese calls the lobby "salão", never "átrio"."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from catalog_check import LOCALE


def translations(lang: str) -> list[tuple[str, str]]:
    """(English, translation) for every form of every message of both catalogs."""
    pairs: list[tuple[str, str]] = []
    for domain in ("messages", "js"):
        with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as fp:
            catalog = read_po(fp)
        for message in catalog:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            pairs += [(ids[0], text) for text in texts]
    return pairs


@pytest.mark.parametrize(
    ("lang", "english", "word", "not_words"),
    [
        # A quoted "resigned" is the record's value, kept as it is written.
        ("ms", r'(?<!")\b[Rr]esign(?!ed")', "menyerah kalah", r"(?i)tarik(an)? diri|cabut"),
        ("pt", r"(?<!/)\b[Ll]obby\b", "salão", r"(?i)átrio|\bsala\b"),
    ],
)
def test_one_word_for_one_thing(lang: str, english: str, word: str, not_words: str) -> None:
    pairs = translations(lang)
    meant = [(en, text) for en, text in pairs if re.search(english, en)]
    assert len(meant) >= 3, meant
    for en, text in meant:
        assert word in text.lower(), (en, text)
    left = [(en, text) for en, text in pairs if re.search(not_words, text)]
    assert not left, left
