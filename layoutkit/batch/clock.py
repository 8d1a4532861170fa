"""The batch's clock, in a module of its own so that a worker process can stamp its
results without importing the database layer."""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["now"]


def now() -> datetime:
    """The current time in UTC, as every timestamp of the state database is."""
    return datetime.now(UTC)
