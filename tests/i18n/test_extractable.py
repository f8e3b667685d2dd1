"""Text marked for translation where Babel can find it: inside an f-string a
``gettext("...")`` call is part of one string token, which the extractor skips, so
its text never reached the catalogs and showed in English in every language."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

SOURCES = Path(__file__).resolve().parents[2] / "src" / "jackpot"
CALL = re.compile(r"\b(?:n?gettext|_)\(")


def marked_inside_f_strings(source: str) -> list[int]:
    """Lines of ``source`` where an f-string holds a translation call."""
    lines = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.STRING:
            continue
        prefix = token.string[: token.string.index(token.string[-1])].lower()
        if "f" in prefix and CALL.search(token.string):
            lines.append(token.start[0])
    return lines


def test_the_check_sees_a_call_inside_an_f_string() -> None:
    assert marked_inside_f_strings('x = f"<b>{gettext(\'hi\')}</b>"\n') == [1]
    assert marked_inside_f_strings('x = gettext("hi")\ny = f"<b>{x}</b>"\n') == []


def test_no_translation_call_hides_inside_an_f_string() -> None:
    found = {
        f"{path.relative_to(SOURCES)}:{line}"
        for path in SOURCES.rglob("*.py")
        for line in marked_inside_f_strings(path.read_text())
    }
    assert not found
