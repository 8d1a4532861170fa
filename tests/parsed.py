"""Fixture documents read once per test process.

Several test files read the same fixture whole with the default configuration (the
City Record, the German lecture notes, the scanned CFR page, whose OCR alone takes
seconds).  A :class:`~layoutkit.model.Document` is a frozen value (tuples of frozen
dataclasses), so one reading is shared by every test that asks for it: no test can
change what another sees.  Under pytest-xdist (``make test``) each worker process reads
a document at most once, the first time a test of that worker asks for it.

Ask for a document only where nothing of layoutkit is patched (``monkeypatch``): the
reading made then would be the one every later test sees."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import layoutkit
from layoutkit.model import Document

__all__ = ["parsed"]


@cache
def parsed(path: Path) -> Document:
    """``layoutkit.parse(path)`` in the default configuration, read on the first call
    for ``path`` and the same frozen document returned on every later one."""
    return layoutkit.parse(path)
