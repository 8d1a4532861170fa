"""Batch processing of an inbox of documents, resumable, on one machine or a Dask
cluster; see :func:`run_batch` and ``layoutkit batch --help``."""

from .runner import BatchOptions, Summary, run_batch
from .status import status_text

__all__ = ["BatchOptions", "Summary", "run_batch", "status_text"]
