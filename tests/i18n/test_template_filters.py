"""A filter of the reader's language gives each reader their own language, even on a
literal that Jinja could work out once when it compiles the template."""

from __future__ import annotations

from jinja2 import Environment

from jackpot.i18n import use_locale
from jackpot.i18n.jinja import install


def test_a_filter_on_a_literal_follows_each_readers_language() -> None:
    env = Environment(autoescape=True)
    install(env)
    template = env.from_string('{{ "classic"|variant }} · {{ 3600|seconds }}')
    with use_locale("en"):
        english = template.render()
    with use_locale("sk"):
        slovak = template.render()
    with use_locale("en"):
        again = template.render()
    assert english == "Classic · 1 hour"
    assert slovak.startswith("Klasika") and "hodina" in slovak
    assert again == english
