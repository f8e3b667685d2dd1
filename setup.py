"""The build step pyproject.toml cannot say: compile the translation catalogs.

Every ``locale/<lang>/LC_MESSAGES/*.po`` becomes the ``.mo`` the site reads, inside
the package being built, so a wheel (and an install from it, or from the source
tree) serves every language without ``make catalogs``. The ``.mo`` files are not
kept in git: they are made from the ``.po`` here. In an editable install they are
written beside the ``.po`` in the source tree, which the install points at.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py

LOCALE = Path("src/jackpot/locale")


class BuildWithCatalogs(build_py):  # type: ignore[misc]
    """``build_py``, then each catalog compiled into the package it built."""

    def run(self) -> None:
        super().run()
        editable = bool(getattr(self, "editable_mode", False))
        for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
            relative = po.relative_to("src").with_suffix(".mo")
            target = Path("src") / relative if editable else Path(self.build_lib) / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parts[-3])
            with target.open("wb") as out:
                write_mo(out, catalog)


setup(cmdclass={"build_py": BuildWithCatalogs})
