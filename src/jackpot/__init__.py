"""peer2peergames' Jackpot: Shut the Box, provably fair."""

__version__ = "0.1.0"
