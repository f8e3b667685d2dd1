"""The scripts' side of the catalogs: static/i18n.js picks the same plural form as
each js.po says, and the page carries the catalog of its language."""

from __future__ import annotations

import json
import re
import subprocess
from typing import Any

import pytest
from catalog_check import LANGS, LOCALE, ROOT, read_catalog

from jackpot.i18n.catalogs import translations

CATALOG = re.compile(r'<script id="i18n-catalog" type="application/json">(.*?)</script>')
I18N_JS = ROOT / "src" / "jackpot" / "static" / "i18n.js"


@pytest.mark.parametrize("lang", LANGS)
def test_the_scripts_plural_rules_match_the_catalogs(lang: str) -> None:
    counts = list(range(0, 230))
    script = (
        f"import {{ pluralForm }} from {json.dumps(I18N_JS.as_uri())};"
        f"const counts = {json.dumps(counts)};"
        f"console.log(JSON.stringify(counts.map((n) => pluralForm({json.dumps(lang)}, n))));"
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert (LOCALE / lang / "LC_MESSAGES" / "js.mo").is_file()
    gettext = translations(lang, "js")
    assert json.loads(out.stdout) == [gettext.plural(n) for n in counts]  # type: ignore[attr-defined]


async def test_a_page_carries_its_languages_script_catalog(app: Any, make_client: Any) -> None:
    client = await make_client()
    page = await client.get("/verify", headers={"accept": "text/html", "accept-language": "sk"})
    raw = CATALOG.search(page.text)
    assert raw is not None
    catalog = json.loads(raw.group(1))
    assert catalog["locale"] == "sk"
    assert catalog["messages"]["Checking…"] == "Overuje sa…"
    english = await client.get("/verify", headers={"accept": "text/html"})
    raw = CATALOG.search(english.text)
    assert raw is not None and json.loads(raw.group(1)) == {"locale": "en", "messages": {}}


@pytest.mark.parametrize("domain", ["messages", "js"])
def test_portuguese_counts_as_portugal_does(domain: str) -> None:
    """CLDR's rule for Portugal (one: i = 1 and v = 0): "0 pontos", where Brazil's rule
    (n > 1) would write "0 ponto". The scripts follow it too (checked above)."""
    assert read_catalog("pt", domain).plural_expr == "(n != 1)"
    gettext = translations("pt", domain)
    assert [gettext.plural(n) for n in (0, 1, 2, 5)] == [1, 0, 1, 1]  # type: ignore[attr-defined]
    if domain == "js":
        english = ("Practice over: you scored {n} point", "Practice over: you scored {n} points")
        zero = gettext.ngettext(*english, 0)
        assert zero == "Treino terminado: fez {n} pontos"
