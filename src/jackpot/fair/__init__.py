"""Provable fairness: jackpot-fair/1 (seeds, dice, bot strengths) and jackpot-record/1.

Pure: no I/O, no clock, no randomness. The caller draws the server seed
(``secrets.token_hex(32)``) and passes it in.
"""

from jackpot.fair import record
from jackpot.fair.dice import bot_strength, byte_stream, throw_dice
from jackpot.fair.record import (
    FORMAT,
    OutEntry,
    Record,
    RecordEvent,
    RecordFormatError,
    RecordResult,
    SeatEntry,
    ThrowEntry,
    parse_record,
)
from jackpot.fair.seeds import (
    check_client_seed,
    check_server_seed,
    combine_client_seeds,
    commitment,
    split_client_seed,
)
from jackpot.fair.verify import Verification, verify

__all__ = [
    "FORMAT",
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
    "check_server_seed",
    "combine_client_seeds",
    "commitment",
    "parse_record",
    "record",
    "split_client_seed",
    "throw_dice",
    "verify",
]
