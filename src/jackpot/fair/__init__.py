"""Provable fairness: jackpot-fair/1 (seeds and their parts, dice, bots, order of play), records.

Pure: no I/O, no clock, no randomness. The caller draws the server seed
(``secrets.token_hex(32)``) and passes it in.
"""

from jackpot.fair import record
from jackpot.fair.daily import (
    BY_NUMBER,
    BY_POSITION,
    DailyDeal,
    DiceBy,
    check_daily_date,
    daily_client_seed,
    dice_due,
)
from jackpot.fair.dice import bot_strength, byte_stream, position_dice, position_label, throw_dice
from jackpot.fair.origin import ORIGIN_KINDS, Origin, OriginKind
from jackpot.fair.parts import (
    SeedPart,
    TournamentTable,
    check_part,
    part_commitment,
    seed_from_parts,
    tournament_suffix,
)
from jackpot.fair.record import (
    FORMAT_V1,
    FORMAT_V2,
    FORMAT_V3,
    FORMAT_V4,
    FORMATS,
    OutEntry,
    Record,
    RecordEvent,
    RecordFormatError,
    RecordResult,
    SeatEntry,
    SpareEntry,
    ThrowEntry,
    parse_record,
    record_format,
)
from jackpot.fair.seating import draw_order, order_of_play
from jackpot.fair.seeds import (
    check_client_seed,
    check_server_seed,
    combine_client_seeds,
    commitment,
    split_client_seed,
)
from jackpot.fair.verify import Verification, verify

__all__ = [
    "BY_NUMBER",
    "BY_POSITION",
    "FORMATS",
    "FORMAT_V1",
    "FORMAT_V2",
    "FORMAT_V3",
    "FORMAT_V4",
    "ORIGIN_KINDS",
    "DailyDeal",
    "DiceBy",
    "Origin",
    "OriginKind",
    "OutEntry",
    "Record",
    "RecordEvent",
    "RecordFormatError",
    "RecordResult",
    "SeatEntry",
    "SeedPart",
    "SpareEntry",
    "ThrowEntry",
    "TournamentTable",
    "Verification",
    "bot_strength",
    "byte_stream",
    "check_client_seed",
    "check_daily_date",
    "check_part",
    "check_server_seed",
    "combine_client_seeds",
    "commitment",
    "daily_client_seed",
    "dice_due",
    "draw_order",
    "order_of_play",
    "parse_record",
    "part_commitment",
    "position_dice",
    "position_label",
    "record",
    "record_format",
    "seed_from_parts",
    "split_client_seed",
    "throw_dice",
    "tournament_suffix",
    "verify",
]
