"""The engine's refusals said in the reader's language, from the data each one carries
(its reason and facts), so the pure core stays English-only and does no I/O."""

from __future__ import annotations

from collections.abc import Sequence

from jackpot.engine.errors import IllegalMove
from jackpot.i18n.catalogs import N_, gettext, ngettext

#: Why a seat is out, as the engine records it.
OUT_REASONS = {"resigned": N_("resigned"), "timeout": N_("timeout")}


def explain(exc: IllegalMove) -> str:
    """`exc` in the current language; in English, exactly the engine's own message."""
    facts = exc.facts
    reason = exc.reason
    if reason in ("must_cover", "choose", "not_on_offer"):
        dice = _dice(facts["dice"], facts["variant"])  # type: ignore[arg-type]
        offered = _options(facts["options"])  # type: ignore[arg-type]
        if reason == "must_cover":
            return gettext(
                "seat %(seat)s must cover before throwing again: %(dice)s reach %(options)s",
                seat=facts["seat"],
                dice=dice,
                options=offered,
            )
        if reason == "choose":
            return gettext(
                "choose what to cover: %(dice)s reach %(options)s", dice=dice, options=offered
            )
        tiles: Sequence[int] = facts["tiles"]  # type: ignore[assignment]
        return ngettext(
            "tile %(tiles)s is not on offer: %(dice)s reach %(options)s",
            "tiles %(tiles)s are not on offer: %(dice)s reach %(options)s",
            len(tiles),
            tiles=_and(tiles),
            dice=dice,
            options=offered,
        )
    if reason == "dice_range":
        return gettext(
            "a throw is one or two dice from 1 to 6, not %(given)s", given=facts["given"]
        )
    if reason == "one_die_classic":
        return gettext("one die is allowed only in Classic, once 7, 8 and 9 are all covered")
    if reason == "one_die_jackpot":
        return gettext("Jackpot is always played with two dice")
    if reason == "must_throw":
        return gettext("seat %(seat)s must throw before covering", seat=facts["seat"])
    if reason == "match_over":
        return gettext("the match is over")
    if reason == "unknown_seat":
        return gettext(
            "there is no seat %(seat)s in a match of %(seats)s",
            seat=facts["seat"],
            seats=facts["seats"],
        )
    if reason == "seat_out":
        why = str(facts["why"])
        return gettext(
            "seat %(seat)s is out of the match (%(why)s)",
            seat=facts["seat"],
            why=gettext(OUT_REASONS[why]) if why in OUT_REASONS else why,
        )
    if reason == "not_your_turn":
        return gettext(
            "it is not seat %(seat)s's turn: seat %(turn)s is to play",
            seat=facts["seat"],
            turn=facts["turn_seat"],
        )
    if reason == "no_turn":
        return gettext("no turn is in progress")
    return str(exc)


def _dice(dice: Sequence[int], variant: str) -> str:
    if len(dice) == 1:
        return gettext("the die %(die)s", die=dice[0])
    if variant == "classic":
        return gettext(
            "the dice %(first)s and %(second)s (total %(total)s)",
            first=dice[0],
            second=dice[1],
            total=sum(dice),
        )
    return gettext("the dice %(first)s and %(second)s", first=dice[0], second=dice[1])


def _options(options: Sequence[Sequence[int]]) -> str:
    if not options:
        return gettext("nothing")
    words = [str(o[0]) if len(o) == 1 else "{" + ", ".join(map(str, o)) + "}" for o in options]
    if len(words) == 1:
        return words[0]
    return gettext("%(some)s or %(last)s", some=", ".join(words[:-1]), last=words[-1])


def _and(tiles: Sequence[int]) -> str:
    if len(tiles) == 1:
        return str(tiles[0])
    return gettext(
        "%(some)s and %(last)s", some=", ".join(map(str, tiles[:-1])), last=str(tiles[-1])
    )
