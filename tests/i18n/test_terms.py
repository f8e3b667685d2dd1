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
    # One person's play of a daily deal; "you have entered this deal" is the verb.
    "entry": r"\b[Ee]ntr(y|ies)\b",
    # The replay of a match (a page), not the verb of the verifier ("replay the match").
    "replay": r"(?i)(\b(the|a) |^)replay\b(?!ed)",
    # A computer player; "Bot", "Bot 2" are the bots' names, said as they are.
    # 'Bot' quoted is a reserved name, and "bots must be" the API's field.
    "bot": r"(?<!')\b[Bb]ots?\b(?! \d| must)",
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
        "entry": Term(r"(?i)participaç"),
        "replay": Term(r"(?i)repetiç"),
        "bot": Term(r"(?i)\bbots?\b"),
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
        "entry": Term(r"(?i)penyertaan"),
        # One word for the replay: not "ulang tayang" (a broadcast's) or "rakaman".
        "replay": Term(r"(?i)main semula", r"(?i)ulang tayang|rakaman|ulangan"),
        "bot": Term(r"(?i)\bbot\b"),
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
        # An attempt (sooritus), which can be better than par; osavõtt is taking part.
        "entry": Term(r"(?i)soorit", r"(?i)osav[õo]t|osale"),
        "replay": Term(r"(?i)kordus"),
        # "client_seed:bot:1" is the label, written as it is.
        "bot": Term(r"(?i)robot", r"(?i)(?<![:{])\bbot(?!:)"),
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
        # An attempt (pokus), which can be better than par; účasť is taking part.
        "entry": Term(r"(?i)\bpokus", r"(?i)účas[tť]"),
        # The replay is watched (prehrávanie); a záznam is the record one downloads.
        "replay": Term(r"(?i)prehráva", r"(?i)záznam"),
        "bot": Term(r"(?i)\bbot"),
    },
}

#: Never right in these catalogs, whatever the English.
BANNED: dict[str, str] = {
    # Brazilian: "rodada", the n > 1 ordinal "1º"; "Enviem-me" spoke to the site as a crowd.
    "pt": r"rodada|\)sº|\dº|Enviem|pontuad|\bFecha a caixa"
    # A reader's round three: a masculine "nos etiquetas", a clumsy "À espera de que X
    # aceite", "de 1 a 64" for a length, "ótimo" for perfect play.
    r"|nos etiquetas|À espera de que|não tem de \d|[Jj]ogo ótimo|nada do que alcança",
    # "mix the dice", "valuable", a final date for a one-minute deadline.
    "ms": r"(?i)campur|bernilai|dinilai|tarikh akhir|terpaksa"
    # The spoken register ("Tolong", "Faham"), and calques ("Tidak sekali-kali" for
    # never, "mengambil" nine throws, "tiada sesiapa ... ialah manusia").
    r"|\btolong\b|^faham$|sekali-kali|mengambil sembilan|ialah manusia, jadi",
    "et": r"(?i)\bpööre|klassikalises mängus"
    r"|\bLugu on\b|Jäta see lõpuks|\biganes\b|Ootavad kohe|p\.p\.|\bJackpote\b"
    r"|^(Kõrgemale|Madalamale)$",
    # The informal imperatives; "Ste na hode" for "your throw".
    "sk": r"\b(Zavri|Hoď|Zakry|Pozri|Skús)\b|na hode|Na hode|\bbox\b"
    # Past events in the present ("sa vzdáva", "odmieta"), a bot "on a strength", a
    # nominative after "z" ("z dvanásť a pol"), "vyberá sa" for "is choosing".
    r"|sa vzdáva|odmieta odvetu|troch síl|z dvanásť|vyberá sa",
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


def test_portuguese_says_no_voce_in_a_sentence() -> None:
    """The site speaks to a stranger without a pronoun ("Esta página só é visível para
    si"); "você" is left only as the one-word label of the reader's own seat."""
    labels = {"You", "you", "(you)", " (you)"}
    left = [(en, text) for en, text in entries("pt") if "você" in text.lower() and en not in labels]
    assert not left, left


def test_malay_says_result_as_hasil() -> None:
    """A result is "hasil"; "keputusan" stays for a decision, which the same pages count."""
    # "result must be 'won' ..." names the API's field, which stays English.
    said = [
        (en, text)
        for en, text in entries("ms")
        if re.search(r"(?i)\bresults?\b(?! must)", PLACEHOLDER.sub("", en))
    ]
    assert len(said) >= 5, said
    wrong = [(en, text) for en, text in said if not re.search(r"(?i)hasil", text)]
    wrong += [(en, text) for en, text in said if re.search(r"(?i)keputusan", text)]
    assert not wrong, wrong
    decided = [text for en, text in entries("ms") if en == "Decisions"]
    assert decided == ["Keputusan"]


def test_an_entry_is_an_attempt_and_a_replay_is_watched() -> None:
    """An entry said as taking part ("osavõtt", "účasť"), the replay called the record
    ("záznam") or a broadcast ("ulang tayang"), or an Estonian "bot", fails."""
    drifted = misuses("et", "entry", [("Your entry", "Sinu osavõtt")])
    assert [m.split(": ", 1)[1] for m in drifted] == [
        "no '(?i)soorit'",
        "'osavõt' is not the entry",
    ]
    assert misuses("sk", "entry", [("Your entry", "Váš pokus")]) == []
    assert len(misuses("sk", "replay", [("Replay", "Záznam")])) == 2
    assert len(misuses("ms", "replay", [("Loading the replay…", "Memuatkan ulang tayang…")])) == 2
    assert misuses("sk", "replay", [("Hash the seed; replay the match by the rules", "x")]) == []
    assert len(misuses("et", "bot", [("Play the bot", "Mängi boti vastu")])) == 2
    assert misuses("et", "bot", [("A bot in seat 1", "Robot kohal 1 (client_seed:bot:1)")]) == []


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
