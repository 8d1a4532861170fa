"""Batch processing of an inbox of documents, resumable, on one machine or a Dask cluster.

See `run_batch` and `layoutkit batch --help`.  The public names are imported on first
use, so that a worker process, which imports `actions` alone, does without the
database and progress modules that only the run's own process needs (a fifth of a
second less before the first document starts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    from .runner import BatchOptions, Summary, run_batch
    from .status import status_text

__all__ = ["BatchOptions", "Summary", "run_batch", "status_text"]

__getattr__ = lazy_names(__name__, {"BatchOptions": "runner", "Summary": "runner",
                                   "run_batch": "runner", "status_text": "status"})
