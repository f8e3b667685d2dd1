"""Random legal matches written as records, for the verifier's property tests.

Everything random comes from hypothesis: it draws the match's shape, the seeds and
one integer that drives a ``random.Random`` for the many small choices of play
(covers, dice counts, who leaves and when). Drawing each of a few hundred choices
from hypothesis directly would overflow its buffer on long Jackpot matches.

The record is written through ``jackpot.fair.recorder``, the path the site and
selfplay use, so these tests also check that the recorder writes what verify reads.

A plan with ``drawn`` is written as jackpot-record/2, or /3 when it is played by the
rules of /3 (``rules``): people join first (in the order of their client-seed parts),
then the bots; the seed draws the order of play, and ``bots`` then says nothing about
where the bots sit, only how many there are. Without ``drawn`` it is a /1, played by
the rules of /1 and /2.

A /4 plan (``plans_v4``) adds what jackpot-record/4 has: a server seed made of one part
per person (a tournament table's with its round and table), and spare deadlines, where
a seat's missed deadline goes through ``Match.deadline_passed`` (a spare, or out).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hypothesis import strategies as st

from jackpot.engine import RULES, RULES_BEFORE_SHARED_PLACE, Match, Option, Thrown, Variant
from jackpot.fair import (
    Record,
    RecordEvent,
    RecordResult,
    SeatEntry,
    SeedPart,
    TournamentTable,
    bot_strength,
    combine_client_seeds,
    commitment,
    order_of_play,
    part_commitment,
    seed_from_parts,
    throw_dice,
)
from jackpot.fair.recorder import append_events
from jackpot.strategy.bots import choose_cover, choose_dice_count
from jackpot.strategy.strength import Strength

#: After this many throws every seat resigns in turn, so a match of weak bots that
#: rarely shut the box cannot run for thousands of throws.
THROW_BUDGET = 300

CLIENT_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"


@dataclass(frozen=True)
class Plan:
    variant: Variant
    bots: tuple[bool, ...]
    server_seed: str
    client_parts: tuple[str, ...]
    play_seed: int
    #: Chance, before each action, that a human seat leaves (resigns or times out).
    leave_rate: float
    #: Seats in the order the seed draws (jackpot-record/2) rather than as listed (/1).
    drawn: bool = False
    #: The rules played (Match.rules); RULES with ``drawn`` makes a jackpot-record/3.
    rules: int = RULES_BEFORE_SHARED_PLACE
    #: /4: the server seed's parts, one per person in joining order (server_seed unused).
    seed_parts: tuple[str, ...] = ()
    tournament: TournamentTable | None = None
    #: /4: spare deadlines per seat, and the chance, before each move a person owes,
    #: that its deadline passes (``Match.deadline_passed``: a spare, or out).
    spares: int = 0
    deadline_rate: float = 0.0

    @property
    def seed(self) -> str:
        if self.seed_parts:
            return seed_from_parts(self.seed_parts, self.tournament)
        return self.server_seed


@dataclass
class Played:
    record: Record
    #: What each throw offered, by throw number (to tamper with covers knowingly).
    offered: dict[int, tuple[Option, ...]] = field(default_factory=dict)
    #: The open tiles before each throw, by throw number.
    open_before: dict[int, frozenset[int]] = field(default_factory=dict)


@st.composite
def plans(draw: st.DrawFn, variant: Variant | None = None) -> Plan:
    chosen = variant if variant is not None else draw(st.sampled_from(list(Variant)))
    seats = draw(st.integers(1, 4))
    bots = tuple(draw(st.lists(st.booleans(), min_size=seats, max_size=seats)))
    humans = sum(not b for b in bots)
    parts = draw(
        st.lists(
            st.text(CLIENT_ALPHABET, min_size=1, max_size=20), min_size=humans, max_size=humans
        )
    )
    return Plan(
        variant=chosen,
        bots=bots,
        server_seed=draw(st.binary(min_size=32, max_size=32)).hex(),
        client_parts=tuple(parts),
        play_seed=draw(st.integers(0, 2**32 - 1)),
        leave_rate=draw(st.sampled_from([0.0, 0.01, 0.03, 0.1])),
        drawn=(drawn := draw(st.booleans())),
        rules=draw(st.sampled_from([RULES, RULES_BEFORE_SHARED_PLACE]))
        if drawn
        else RULES_BEFORE_SHARED_PLACE,
    )


@st.composite
def plans_v4(draw: st.DrawFn) -> Plan:
    """A /4 match: parts (one per person, maybe at a tournament table) or spares, or both."""
    base = draw(plans())
    people = sum(not b for b in base.bots)
    with_parts = people > 0 and draw(st.booleans())
    spares = draw(st.integers(0 if with_parts else 1, 5))
    parts = (
        tuple(draw(st.binary(min_size=32, max_size=32)).hex() for _ in range(people))
        if with_parts
        else ()
    )
    table = None
    if with_parts and draw(st.booleans()):
        table = TournamentTable(
            id=f"t_{draw(st.integers(0, 999))}", round=draw(st.integers(1, 15)),
            table=draw(st.integers(1, 40)),
        )
    return Plan(
        variant=base.variant,
        bots=base.bots,
        server_seed=base.server_seed,
        client_parts=base.client_parts,
        play_seed=base.play_seed,
        leave_rate=draw(st.sampled_from([0.01, 0.03, 0.1])),
        drawn=True,
        rules=RULES,
        seed_parts=parts,
        tournament=table,
        spares=spares,
        deadline_rate=draw(st.sampled_from([0.0, 0.05, 0.2])),
    )


def seating(plan: Plan, client_seed: str) -> tuple[tuple[bool, ...], tuple[int, ...] | None]:
    """Which seats (in the order of play) are bots, and ``joined`` for a drawn plan."""
    if not plan.drawn:
        return plan.bots, None
    people = sum(not b for b in plan.bots)
    joined = order_of_play(plan.seed, client_seed, len(plan.bots), people=people)
    return tuple(j >= people for j in joined), joined


def play(plan: Plan) -> Played:
    rng = random.Random(plan.play_seed)
    client_seed = combine_client_seeds(plan.client_parts)
    seats = len(plan.bots)
    bots, joined = seating(plan, client_seed)
    server_seed = plan.seed
    strengths: list[Strength | None] = [
        bot_strength(server_seed, client_seed, s) if is_bot else None
        for s, is_bot in enumerate(bots)
    ]
    names = []
    human_no = bot_no = 0
    for s, is_bot in enumerate(bots):
        if joined is not None:
            # Numbered by joining order, as the site names them before the draw.
            people = seats - sum(bots)
            j = joined[s]
            names.append(f"Bot {j - people + 1}" if is_bot else f"player{j + 1}")
        elif not is_bot:
            human_no += 1
            names.append(f"player{human_no}")
        else:
            bot_no += 1
            names.append(f"Bot {bot_no}")
    match = Match.new(plan.variant, seats, rules=plan.rules, spares=plan.spares)
    log: list[RecordEvent] = []
    offered: dict[int, tuple[Option, ...]] = {}
    open_before: dict[int, frozenset[int]] = {}
    while not match.finished:
        turn = match.turn
        assert turn is not None
        if match.throws >= THROW_BUDGET:
            leaver = rng.choice([s for s in range(seats) if match.out[s] is None])
            match, events = match.leave(leaver, "resigned")
            append_events(log, events)
            continue
        in_humans = [s for s in range(seats) if match.out[s] is None and strengths[s] is None]
        if in_humans and rng.random() < plan.leave_rate:
            leaver = rng.choice(in_humans)
            # Only the seat that owes a move can miss its deadline; anyone may resign.
            reason = "timeout" if leaver == turn.seat and rng.random() < 0.5 else "resigned"
            if reason == "timeout" and plan.spares:
                match, events = match.deadline_passed(leaver)  # a spare while it has one
            else:
                match, events = match.leave(leaver, reason)
            append_events(log, events)
            continue
        strength = strengths[turn.seat]
        if strength is None and plan.deadline_rate and rng.random() < plan.deadline_rate:
            match, events = match.deadline_passed(turn.seat)
            append_events(log, events)
            continue
        if turn.dice is None:
            if strength is not None:
                count = choose_dice_count(plan.variant, strength, turn.open)
            else:
                count = rng.choice((1, 2)) if match.may_throw_one_die else 2
            n = match.throws
            open_before[n] = turn.open
            dice = throw_dice(server_seed, client_seed, n, count)
            match, events = match.throw(turn.seat, dice)
            for e in events:
                if isinstance(e, Thrown):
                    offered[e.n] = e.options
        else:
            if strength is not None:
                tiles = choose_cover(plan.variant, strength, turn.open, turn.dice)
            else:
                tiles = rng.choice(turn.options)
            match, events = match.cover(turn.seat, tiles)
        append_events(log, events)
    result = match.result
    assert result is not None
    record = Record(
        id=f"m_{plan.play_seed:08x}",
        variant=plan.variant,
        deadline_seconds=rng.choice((60, 3600, 86400, 604800)),
        created="2026-11-30T10:00:00Z",
        seats=tuple(SeatEntry(name, s) for name, s in zip(names, strengths, strict=True)),
        commitment=commitment(server_seed),
        server_seed=server_seed,
        client_seed=client_seed,
        events=tuple(log),
        result=RecordResult(
            rounds=result.rounds,
            totals=result.totals,
            shut=result.shut,
            places=result.places,
            winners=result.winners,
        ),
        joined=joined,
        rules=plan.rules,
        parts=tuple(SeedPart(part_commitment(p), p) for p in plan.seed_parts)
        if plan.seed_parts
        else None,
        tournament=plan.tournament,
        spares=plan.spares,
    )
    return Played(record=record, offered=offered, open_before=open_before)


def fixed_plans(count: int, seed: int) -> list[Plan]:
    """A deterministic spread of plans, for tests that must see every kind of match."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        seats = rng.randint(1, 4)
        bots = tuple(rng.random() < 0.4 for _ in range(seats))
        parts = tuple(
            "".join(rng.choices(CLIENT_ALPHABET, k=rng.randint(1, 16))) for b in bots if not b
        )
        out.append(
            Plan(
                variant=rng.choice(list(Variant)),
                bots=bots,
                server_seed=rng.randbytes(32).hex(),
                client_parts=parts,
                play_seed=rng.getrandbits(32),
                leave_rate=rng.choice([0.0, 0.01, 0.03, 0.1]),
                drawn=i % 2 == 1,
                rules=RULES if i % 4 == 3 else RULES_BEFORE_SHARED_PLACE,
            )
        )
    return out
