"""Batch processing of an inbox of documents, resumable, on one machine or a Dask
cluster; see :func:`run_batch` and ``layoutkit batch --help``.

The public names are imported on first use, so that a worker process, which
imports :mod:`.actions` alone, does without the database and progress modules
that only the run's own process needs (a fifth of a second less before the
first document starts)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .runner import BatchOptions, Summary, run_batch
    from .status import status_text

__all__ = ["BatchOptions", "Summary", "run_batch", "status_text"]

_HOMES = {"BatchOptions": "runner", "Summary": "runner", "run_batch": "runner",
          "status_text": "status"}


def __getattr__(name: str) -> Any:
    """The public name ``name``, from the module that defines it."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_HOMES[name]}", __name__), name)
