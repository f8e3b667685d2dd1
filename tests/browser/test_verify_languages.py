"""The Verify page in the reader's language: a Classic match against the bot played in
Portuguese, then "Verify this match", and the whole report (summary and every check)
is in Portuguese, with no English sentence of the verifier left in it, the guest named
in Portuguese, and a text that is not a record refused in Portuguese too."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.extract import extract_from_file
from browser_helpers import NEXT_ACTION, play_the_bot
from playwright.sync_api import Browser, expect

from jackpot.i18n.catalogs import translations

WORDS = Path(__file__).resolve().parents[2] / "src" / "jackpot" / "static" / "verify-words.js"
PLACEHOLDER = re.compile(r"\{\w+\}")


def english_fragments(lang: str) -> list[str]:
    """The English pieces (between placeholders) of the verifier's sentences that the
    language's catalog words otherwise."""
    gettext = translations(lang, "js")
    messages = [
        m if isinstance(m, tuple) else (m,)
        for _line, m, _comments, _context in extract_from_file(
            "javascript", str(WORDS), keywords={"t": None, "tn": (1, 2)}
        )
    ]
    translated = " ".join(
        gettext.ngettext(ids[0], ids[1], n) if len(ids) == 2 else gettext.gettext(ids[0])
        for ids in messages
        for n in (1, 2, 5)
    )
    return sorted(
        {
            fragment
            for ids in messages
            for text in ids
            for piece in PLACEHOLDER.split(text)
            if len(re.findall(r"[A-Za-z]", fragment := piece.strip(" .,:;()…'\""))) >= 3
            and fragment not in translated
        }
    )


def test_a_finished_match_verifies_in_portuguese(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    pt = translations("pt", "messages").gettext
    context = browser.new_context(locale="pt-PT")
    page = context.new_page()
    try:
        classic = pt("Classic against the bot")
        play_the_bot(page, live_server.url, f"role=button[name='{classic}']")
        expect(page.locator("html")).to_have_attribute("lang", "pt")
        for _ in range(200):
            action = page.wait_for_function(NEXT_ACTION).json_value()
            if action == "over":
                break
            if action == "throw":
                page.keyboard.press("Space")
            elif page.locator(".option").count():
                page.locator(".option").first.click()
        expect(page.locator("#result")).to_be_visible()

        page.get_by_role("link", name=pt("Verify this match")).click()
        expect(page).to_have_url(re.compile(r"/verify\?match=m_[0-9a-f]+$"))
        summary = page.locator("#verify-summary")
        expect(summary).to_contain_text(
            "✓ Verificado: uma partida de Clássico com 2 lugares", timeout=30000
        )
        checks = page.locator("#verify-checks li")
        expect(checks).not_to_have_count(0)
        report = [summary.inner_text(), *checks.all_inner_texts()]
        assert any(c.startswith("✓ O registo está completo") for c in report[1:]), report
        rule = "Cada bot joga pela regra que as sementes sortearam"
        assert any(rule in c for c in report), report
        # The guest who played is named as the site names guests in Portuguese, though
        # the record keeps the stored English name.
        assert "Convidado " in " ".join(report) and "Guest " not in " ".join(report), report
        left = [
            (f, line)
            for line in report
            for f in english_fragments("pt")
            if re.search(rf"(?<!\w){re.escape(f)}(?!\w)", line)
        ]
        assert not left, left
        # Nor English words between the pieces: lists are joined the page's way.
        assert not re.search(r"\b(and|or|the|seat|throws?|round)\b", " ".join(report)), report

        # A text that is not a record: where it breaks, in Portuguese, not the browser's
        # own English message.
        page.fill("#record-text", '{"format": "jackpot-record/2",\n  "seats": [,]}')
        page.click("#verify-button")
        problem = page.locator("#verify-problem-text")
        expect(problem).to_have_text(
            "isto não é um registo de partida: "
            "o texto não é JSON válido perto da linha 2, coluna 13"
        )
        assert not re.search(r"Unexpected|Expected|position", summary.inner_text())
    finally:
        context.close()
