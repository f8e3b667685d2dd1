"""The ways on after a match (a new match, a rematch, the replay) read differently in
every language: in Malay and Estonian "play again", "rematch" and "replay" came out as
near-synonyms, and players could not tell the links apart."""

from __future__ import annotations

import pytest
from catalog_check import LANGS

from jackpot.i18n.catalogs import translations

#: Each label after a result, by catalog: the server's page and rematch.js.
LABELS = [
    ("messages", "New match against the bot"),
    ("messages", "New practice match, alone"),
    ("messages", "Set up a new match"),
    ("messages", "Watch the replay and analysis"),
    ("js", "Offer the same players a rematch"),
]


@pytest.mark.parametrize("lang", LANGS)
def test_each_way_on_has_words_of_its_own(lang: str) -> None:
    shown = [translations(lang, domain).gettext(text) for domain, text in LABELS]
    assert all(s != text for s, (_, text) in zip(shown, LABELS, strict=True)), shown
    assert len(set(shown)) == len(shown), shown
    # The replay's label shares no word of four letters or more with the rematch's but
    # Malay's "semula" (again), which both words for them carry: the replay is watched
    # ("tonton main semula"), the rematch is a match offered ("tawarkan perlawanan semula").
    replay, rematch = shown[3].lower().split(), shown[4].lower().split()
    shared = {w for w in replay if len(w) >= 4} & set(rematch) - {"semula"}
    assert not shared, (lang, shared)
    assert replay[0] != rematch[0], (lang, replay, rematch)
