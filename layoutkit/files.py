"""Writing files so that a reader never sees half of one.

Every file layoutkit writes (the outputs of the command line, the results of a
batch, a stored document) goes through :func:`write_atomic`: a process stopped
mid-write, or a reader looking at the file while it is written, finds either the
old file or the whole new one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_atomic"]


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file in the same folder,
    so a reader never sees half a file and a failure leaves nothing behind; returns
    nothing.  The file gets the permissions of the file it replaces, or those a
    plain ``open()`` would give a new one."""
    folder = path.parent if str(path.parent) else Path()
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        Path(temporary).chmod(_mode_for(path))
        Path(temporary).replace(path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _mode_for(path: Path) -> int:
    """The permissions ``open()`` would give a new file (or the replaced file's own):
    ``mkstemp`` makes its file readable by its owner alone."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
