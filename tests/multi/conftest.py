"""Fixtures for tests/multi (defined in multi_helpers.py, shared with its tests)."""

from multi_helpers import db_url, http, servers

__all__ = ["db_url", "http", "servers"]
