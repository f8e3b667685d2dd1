"""A game word is said one way in each language, on every page and in every script.

Each language has a glossary (docs/i18n.md gives it as a table): for every concept the
English source names (score, rating, round, turn, ...), the word its translation must
use wherever the English uses the concept, and the alternatives it must not use for it.
Some words are banned outright: Brazilian or machine-made choices that a reader of
that language stumbled over ("rodada", "bernilai", "Ste na hode", an informal Slovak
imperative).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from babel.messages.pofile import read_po
from catalog_check import LOCALE

#: Placeholders name no concept: "{tile} is already covered" is not about the word tile.
PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)[sd]")

#: Where the English uses a concept. "Turn on push notifications" (or "to turn them
#: on") is not a turn, a rematch is not a match, and "match these filters" is a verb.
ENGLISH = {
    "score": r"(?i)\b(turn scores?(?! nothing)|(your|expected|lowest|possible) score)\b",
    "rating": r"\b[Rr]atings?\b",
    "rated": r"\b[Rr]ated\b",
    "round": r"\b[Rr]ounds?\b",
    "turn": r"(?<!\bto )\b[Tt]urns?\b(?! (on|off)\b)(?!(?: [\w-]+){1,3} (on|off)\b)",
    # "Your throw" says whose turn it is (Slovak: "Ste na rade"); 'throw' is the API's.
    "throw": r"(?<![Yy]our )(?<!their )(?<![\x27\x22])\b[Tt]hrow(s|n|ing)?\b",
    "move": r"\b[Mm]oves?\b(?! the ratings)",
    "match": r"\b[Mm]atch(es)?\b(?! (these|a die|an account))",
    "tile": r"\b[Tt]iles?\b",
    "deadline": r"\b[Dd]eadlines?\b",
    # The daily deal, also as "today's deals", "the deal's dice" and "a daily entry";
    # "the players who left were dealt with" is not one.
    "daily deal": r"\b[Dd]eal(s|'s)?\b|\bdaily (entry|·)",
    # "challenges must be ..." names the API field, which stays English.
    "challenge": r"\b[Cc]halleng(e|es|ed|ing)\b(?! must be)",
    "tournament": r"\b[Tt]ournaments?\b",
    # A tournament's order of players ("where a player stands" is no standings).
    "standings": r"\b[Ss]tandings\b",
}


@dataclass(frozen=True)
class Term:
    """`word` (a regex) must be in every translation of an entry whose English uses the
    concept; none of `not_words` may be, unless that entry's English also uses the
    concept `unless` names (a turn and a move in one sentence)."""

    word: str
    not_words: str | None = None
    unless: str | None = None


GLOSSARY: dict[str, dict[str, Term]] = {
    "pt": {
        "score": Term(r"(?i)pontuaç"),
        "rating": Term(r"(?i)\bratings?\b", r"(?i)pontuaç"),
        "rated": Term(r"\brating\b", r"pontuad"),
        "round": Term(r"\b[Rr]ondas?\b", r"rodada"),
        "turn": Term(r"(?i)\bturnos?\b|\bvez\b"),
        "throw": Term(r"(?i)lan[çc]", r"arremess"),
        "move": Term(r"(?i)jogadas?\b"),
        "match": Term(r"(?i)partidas?\b"),
        "tile": Term(r"(?i)\bpeças?\b", r"(?i)\bpedras?\b|\btampas?\b"),
        "deadline": Term(r"(?i)prazos?\b"),
        # The day's dice are not one player's offer of a match, and no offer is daily.
        "daily deal": Term(r"(?i)jogos? do dia", r"(?i)desafi"),
        "challenge": Term(r"(?i)desafi", r"(?i)jogos? do dia"),
        "tournament": Term(r"(?i)torneio"),
        "standings": Term(r"(?i)classifica"),
    },
    "ms": {
        "score": Term(r"(?i)\bskor\b"),
        "rating": Term(r"(?i)penarafan"),
        "rated": Term(r"(?i)penarafan", r"(?i)bernilai|dinilai"),
        "round": Term(r"(?i)\bpusingan\b"),
        "turn": Term(r"(?i)\bgiliran"),
        "throw": Term(r"(?i)baling"),
        "move": Term(r"(?i)\blangkah"),
        "match": Term(r"(?i)\bperlawanan\b"),
        "tile": Term(r"(?i)\bjubin\b"),
        "deadline": Term(r"(?i)\bhad masa\b", r"(?i)tarikh akhir"),
        "daily deal": Term(r"(?i)permainan harian", r"(?i)cabar"),
        "challenge": Term(r"(?i)cabar", r"(?i)permainan harian"),
        "tournament": Term(r"(?i)kejohanan"),
        "standings": Term(r"(?i)kedudukan"),
    },
    "et": {
        "score": Term(r"(?i)punktisumma", r"(?i)\btulemus"),
        "rating": Term(r"(?i)reiting"),
        "rated": Term(r"(?i)reiting"),
        "round": Term(r"(?i)\bvoor"),
        # A turn is a player's run of throws (mängukord, "Sinu kord"); a move is one
        # throw or cover (käik), so "time left for your move" is per throw.
        "turn": Term(r"(?i)kor[dr]", r"(?i)käi[gk]", unless="move"),
        "throw": Term(r"(?i)\bvis[aek]"),
        "move": Term(r"(?i)käi[gk]", r"(?i)\bkor[dr]", unless="turn"),
        # "Aus mäng" is fair play, and "mängu jääma" to stay in the game.
        "match": Term(
            r"(?i)partii", r"(?i)(?<!aus )\bmängu?(d|s|des|deks|ust|uga)?\b(?! (ajal|jää|olija))"
        ),
        "tile": Term(r"(?i)\bklap"),
        "deadline": Term(r"(?i)tähta[ej]"),
        "daily deal": Term(r"(?i)päevamän[gu]", r"(?i)väljakut"),
        "challenge": Term(r"(?i)väljakut", r"(?i)päevamän[gu]"),
        "tournament": Term(r"(?i)turniir"),
        "standings": Term(r"(?i)turniiritabel"),
    },
    "sk": {
        "score": Term(r"(?i)skóre"),
        "rating": Term(r"(?i)hodnoteni"),
        "rated": Term(r"(?i)hodnoten"),
        "round": Term(r"(?i)\bkol|\bkôl"),
        # A turn is a ťah and whose turn it is "na rade"; a move is a krok.
        "turn": Term(r"(?i)ťah|na rade", r"(?i)\bkrok", unless="move"),
        "throw": Term(r"(?i)\bho[dď]|hádž|hádz"),
        "move": Term(r"(?i)\bkrok", r"(?i)ťah", unless="turn"),
        "match": Term(r"(?i)\bparti"),
        "tile": Term(r"(?i)doštič"),
        "deadline": Term(r"(?i)lehot"),
        # Denná hra, dennej hry, dennú hru, denných hier; výzva, výziev, vyzvať, vyzýva.
        "daily deal": Term(r"(?i)\bdenn\w+ h(r|ier)", r"(?i)výz[vi]|vyz[vý]"),
        "challenge": Term(r"(?i)výz[vi]|vyz[vý]", r"(?i)\bdenn\w+ h(r|ier)"),
        "tournament": Term(r"(?i)turnaj"),
        "standings": Term(r"(?i)poradi|poradí"),
    },
}

#: Never right in these catalogs, whatever the English.
BANNED: dict[str, str] = {
    # Brazilian: "rodada", the n > 1 ordinal "1º"; "Enviem-me" spoke to the site as a crowd.
    "pt": r"rodada|\)sº|\dº|Enviem|pontuad|\bFecha a caixa",
    # "mix the dice", "valuable", a final date for a one-minute deadline.
    "ms": r"(?i)campur|bernilai|dinilai|tarikh akhir|terpaksa",
    "et": r"(?i)\bpööre|klassikalises mängus",
    # The informal imperatives; "Ste na hode" for "your throw".
    "sk": r"\b(Zavri|Hoď|Zakry|Pozri|Skús)\b|na hode|Na hode|\bbox\b",
}


def entries(lang: str) -> list[tuple[str, str]]:
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


def uses(concept: str, english: str) -> bool:
    return re.search(ENGLISH[concept], PLACEHOLDER.sub("", english)) is not None


def misuses(lang: str, concept: str, pairs: list[tuple[str, str]]) -> list[str]:
    """Every entry of `pairs` that says `concept` another way than the glossary."""
    term = GLOSSARY[lang][concept]
    found: list[str] = []
    for english, text in pairs:
        if not uses(concept, english):
            continue
        if not re.search(term.word, text):
            found.append(f"{english!r} -> {text!r}: no {term.word!r}")
        shared = term.unless is not None and uses(term.unless, english)
        if term.not_words and not shared and (bad := re.search(term.not_words, text)):
            found.append(f"{english!r} -> {text!r}: {bad.group(0)!r} is not the {concept}")
    return found


@pytest.mark.parametrize("concept", ENGLISH)
@pytest.mark.parametrize("lang", GLOSSARY)
def test_each_concept_has_one_word(lang: str, concept: str) -> None:
    pairs = entries(lang)
    meant = [english for english, _text in pairs if uses(concept, english)]
    assert len(meant) >= 3, (concept, meant)
    found = misuses(lang, concept, pairs)
    assert not found, f"{lang}: the {concept} is said otherwise:\n" + "\n".join(found)


@pytest.mark.parametrize("lang", BANNED)
def test_banned_words_are_gone(lang: str) -> None:
    left = [(en, text) for en, text in entries(lang) if re.search(BANNED[lang], text)]
    assert not left, left


def test_the_check_catches_a_word_that_drifts() -> None:
    """A Portuguese "rodada" in one round entry, the rating called "pontuação", or a
    Slovak turn called a move, fails; a placeholder named like a concept does not count."""
    drifted = [
        ("Round {n}", "Rodada {n}"),
        ("Rating", "Pontuação"),
        ("Round %(round)s: %(name)s threw %(dice)s", "Ronda %(round)s: %(name)s lançou %(dice)s"),
        ("{tile} is already covered.", "A {tile} já está coberta."),
    ]
    assert misuses("pt", "round", drifted) == [
        "'Round {n}' -> 'Rodada {n}': no '\\\\b[Rr]ondas?\\\\b'"
    ]
    assert misuses("pt", "rating", drifted) == [
        "'Rating' -> 'Pontuação': no '(?i)\\\\bratings?\\\\b'",
        "'Rating' -> 'Pontuação': 'Pontuaç' is not the rating",
    ]
    assert misuses("pt", "tile", drifted) == []
    assert re.search(BANNED["pt"], "Terminou em %(place)sº lugar.")
    assert not re.search(BANNED["pt"], "Terminou em %(place)s.º lugar.")
    assert re.search(BANNED["sk"], "Zavri krabicu.") and re.search(BANNED["sk"], "Ste na hode")
    sk = [("Your turn.", "Ste na rade."), ("{name}'s turn.", "Krok: {name}.")]
    assert misuses("sk", "turn", sk) == [
        "\"{name}'s turn.\" -> 'Krok: {name}.': no '(?i)ťah|na rade'",
        "\"{name}'s turn.\" -> 'Krok: {name}.': 'Krok' is not the turn",
    ]


def test_the_daily_deal_and_a_challenge_stay_apart() -> None:
    """The daily deal called by the challenge's word again ("Desafio diário", "dennú
    výzvu"), or a challenge by the daily deal's, fails; players "dealt with" are no deal."""
    pt = [
        ("Daily deal", "Desafio diário"),
        ("Challenge sent.", "Jogo do dia enviado."),
        ("The players who left were dealt with as the rules say: {outs}.", "Saíram: {outs}."),
    ]
    assert [m.split(": ", 1)[1] for m in misuses("pt", "daily deal", pt)] == [
        "no '(?i)jogos? do dia'",
        "'Desafi' is not the daily deal",
    ]
    assert [m.split(": ", 1)[1] for m in misuses("pt", "challenge", pt)] == [
        "no '(?i)desafi'",
        "'Jogo do dia' is not the challenge",
    ]
    sk = [("Back to the daily deal", "Späť na dennú výzvu"), ("Today's deals", "Denné hry na dnes")]
    assert [m.split(": ", 1)[1] for m in misuses("sk", "daily deal", sk)] == [
        "no '(?i)\\\\bdenn\\\\w+ h(r|ier)'",
        "'výzv' is not the daily deal",
    ]


def test_the_old_terms_are_kept() -> None:
    """Malay resigns with "menyerah kalah" (the seeds' draw is an "undian", never
    "mencabut"), and Portuguese calls the lobby "salão", never "átrio"."""
    for lang, english, word, not_words in (
        # A quoted "resigned" is the record's value, kept as it is written.
        ("ms", r'(?<!")\b[Rr]esign(?!ed")', "menyerah kalah", r"(?i)tarik(an)? diri|cabut"),
        ("pt", r"(?<!/)\b[Ll]obby\b", "salão", r"(?i)átrio|\bsala\b"),
    ):
        pairs = entries(lang)
        meant = [(en, text) for en, text in pairs if re.search(english, en)]
        assert len(meant) >= 3, meant
        for en, text in meant:
            assert word in text.lower(), (en, text)
        left = [(en, text) for en, text in pairs if re.search(not_words, text)]
        assert not left, left
