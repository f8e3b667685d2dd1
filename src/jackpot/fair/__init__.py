"""Provable fairness: jackpot-fair/1 (seeds, dice, bot strengths, order of play) and records.

Pure: no I/O, no clock, no randomness. The caller draws the server seed
(``secrets.token_hex(32)``) and passes it in.
"""

from jackpot.fair import record
from jackpot.fair.daily import DailyDeal, check_daily_date, daily_client_seed
from jackpot.fair.dice import bot_strength, byte_stream, throw_dice
from jackpot.fair.record import (
    FORMAT_V1,
    FORMAT_V2,
    FORMAT_V3,
    FORMATS,
    OutEntry,
    Record,
    RecordEvent,
    RecordFormatError,
    RecordResult,
    SeatEntry,
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
    "FORMATS",
    "FORMAT_V1",
    "FORMAT_V2",
    "FORMAT_V3",
    "DailyDeal",
    "OutEntry",
    "Record",
    "RecordEvent",
    "RecordFormatError",
    "RecordResult",
    "SeatEntry",
    "ThrowEntry",
    "Verification",
    "bot_strength",
    "byte_stream",
    "check_client_seed",
    "check_daily_date",
    "check_server_seed",
    "combine_client_seeds",
    "commitment",
    "daily_client_seed",
    "draw_order",
    "order_of_play",
    "parse_record",
    "record",
    "record_format",
    "split_client_seed",
    "throw_dice",
    "verify",
]
