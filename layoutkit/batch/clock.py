"""The batch's clock, in a module of its own.

A worker process stamps its results with it without importing the database layer.
"""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["now"]


def now() -> datetime:
    """The current time in UTC, as every timestamp of the state database is."""
    return datetime.now(UTC)
