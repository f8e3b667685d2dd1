"""A position stated on the analysis board, read from the query and refused field by field.

The board takes the fields ``players/odds_view.py``'s ``board_link`` writes, so a
replay's step opens on it as it was played:

- ``variant``: jackpot or classic;
- ``open``: the open tiles, "1,2,5" (or "125");
- ``dice``: "3,4", one die "5" (Classic, once 7, 8 and 9 are covered), or nothing
  for the odds before the throw;
- what the seat plays for. Classic: ``beat``, the lowest score among the seats
  before it still in, ``holders``, how many of them are on it, and ``after``, the
  seats still to play after it; Jackpot: ``seats``, the seats still in (its own
  included), ``shut``, how many of those before it shut the box this round, and
  ``after``. None of them: a seat alone, for whom only shutting the box counts.

Each refusal names its field and says in the reader's language what it takes
(``FieldError``), for the API's 422 and for the page beside the field. Every text is
short and every number small before anything is worked out, so no query is dearer
than the dearest real position (docs/analysis.md, "The analysis board").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from jackpot.engine import Variant, may_throw_one_die
from jackpot.i18n import gettext
from jackpot.i18n.formats import variant_name
from jackpot.strategy.classic_match import MAX_SCORE, MAX_SEATS, Facing
from jackpot.strategy.match_odds import JackpotRound, Stake

#: The fields the board reads, in the order the page and the API check them.
FIELDS = ("variant", "open", "dice", "seats", "shut", "beat", "holders", "after")
#: The fields only one variant takes.
ONLY_IN = {
    "seats": Variant.JACKPOT,
    "shut": Variant.JACKPOT,
    "beat": Variant.CLASSIC,
    "holders": Variant.CLASSIC,
}
#: No field needs more: nine tiles with commas are 17 characters.
MAX_TEXT = 24


class FieldError(ValueError):
    """One field refused: ``field`` as the query names it, ``message`` said already."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class BoardPosition:
    """A turn's position and what the seat plays for (``stake``: None alone)."""

    variant: Variant
    open_tiles: frozenset[int]
    dice: tuple[int, ...] | None
    stake: Stake


def read_position(query: Mapping[str, str | None]) -> BoardPosition:
    """The position ``query`` states; FieldError on the first field it gets wrong.

    A missing field and an empty one are alike: the board's form sends empty fields."""
    given = {k: (query.get(k) or "").strip() for k in FIELDS}
    for field, text in given.items():
        if len(text) > MAX_TEXT:
            raise FieldError(field, gettext("is too long"))
    variant = _variant(given["variant"])
    for field, only in ONLY_IN.items():
        if given[field] and only is not variant:
            raise FieldError(
                field,
                gettext(
                    "is not used in %(variant)s: leave it out", variant=variant_name(variant)
                ),
            )
    open_tiles = _open(given["open"])
    dice = _dice(given["dice"], variant, open_tiles)
    after = _number(given, "after", 0, MAX_SEATS - 1, 0)
    if variant is Variant.CLASSIC:
        stake: Stake = _classic(given, after)
    else:
        stake = _jackpot(given, after)
    return BoardPosition(variant, open_tiles, dice, stake)


def _variant(text: str) -> Variant:
    if not text:
        raise FieldError("variant", gettext("choose Jackpot or Classic"))
    try:
        return Variant(text.lower())
    except ValueError:
        raise FieldError("variant", gettext("choose Jackpot or Classic")) from None


def _digits(text: str) -> list[str]:
    """"1,2,5", "1, 2, 5" and "125" alike: with commas each item is one number."""
    if "," in text:
        return [item.strip() for item in text.split(",")]
    return list(text.replace(" ", ""))


def _open(text: str) -> frozenset[int]:
    if not text:
        raise FieldError("open", gettext("say which tiles are open, such as 1,2,5"))
    tiles: list[int] = []
    for item in _digits(text):
        if len(item) != 1 or not "1" <= item <= "9":
            raise FieldError("open", gettext("tiles are numbers from 1 to 9, such as 1,2,5"))
        tile = int(item)
        if tile in tiles:
            raise FieldError("open", gettext("tile %(tile)s is listed twice", tile=tile))
        tiles.append(tile)
    return frozenset(tiles)


def _dice(text: str, variant: Variant, open_tiles: frozenset[int]) -> tuple[int, ...] | None:
    if not text:
        return None
    items = _digits(text)
    if len(items) > 2 or any(len(d) != 1 or not "1" <= d <= "6" for d in items):
        raise FieldError(
            "dice",
            gettext("give one or two dice from 1 to 6, such as 3,4, or none before the throw"),
        )
    dice = tuple(int(d) for d in items)
    if len(dice) == 1 and variant is Variant.JACKPOT:
        raise FieldError("dice", gettext("Jackpot is always played with two dice"))
    if len(dice) == 1 and not may_throw_one_die(variant, open_tiles):
        raise FieldError(
            "dice", gettext("one die may be thrown only once 7, 8 and 9 are all covered")
        )
    return dice


def _number(given: Mapping[str, str], field: str, low: int, high: int, default: int) -> int:
    text = given[field]
    if not text:
        return default
    if not text.isascii() or not text.isdigit() or not low <= int(text) <= high:
        raise FieldError(
            field, gettext("must be a whole number from %(low)s to %(high)s", low=low, high=high)
        )
    return int(text)


def _classic(given: Mapping[str, str], after: int) -> Facing | None:
    beat = _number(given, "beat", 1, MAX_SCORE, 0) or None
    if beat is None:
        if given["holders"]:
            raise FieldError(
                "holders", gettext("say the score to beat first: seats are on it only then")
            )
        # Nobody before this seat and nobody after: it plays alone.
        return Facing(None, 0, after) if after else None
    holders = _number(given, "holders", 1, MAX_SEATS - 1, 1)
    if holders + 1 + after > MAX_SEATS:
        raise FieldError(
            "after",
            gettext(
                "a match has four seats at most: those on the score to beat, yours and "
                "those after yours come to more"
            ),
        )
    return Facing(beat, holders, after)


def _jackpot(given: Mapping[str, str], after: int) -> JackpotRound | None:
    seats = _number(given, "seats", 1, MAX_SEATS, 1)
    shut = _number(given, "shut", 0, MAX_SEATS - 1, 0)
    if seats == 1:
        for field in ("shut", "after"):
            if given[field] and given[field] != "0":
                raise FieldError(
                    field, gettext("alone, no other seat plays: give the seats still in first")
                )
        return None
    if after > seats - 1:
        raise FieldError(
            "after", gettext("more seats after yours than the other seats still in")
        )
    if shut + after > seats - 1:
        raise FieldError(
            "shut",
            gettext(
                "the seats that shut the box before yours and those after yours come to "
                "more than the other seats still in"
            ),
        )
    return JackpotRound(seats, shut, after)
