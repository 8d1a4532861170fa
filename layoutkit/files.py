"""Files as layoutkit writes and recognises them.

Every file layoutkit writes (the outputs of the command line, the results of a
batch, a stored document, truth files and snapshots) goes through
:func:`write_atomic`: a process stopped mid-write, or a reader looking at the file
while it is written, finds either the old file or the whole new one.  A document is
recognised by its bytes' digest (:func:`sha256_of`): a truth file or a snapshot names
the very file it was made from.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

__all__ = ["sha256_of", "write_atomic"]


def write_atomic(path: Path, text: str | Iterable[str]) -> None:
    """Write ``text`` (UTF-8; or its pieces, each written as it comes) to ``path``
    through a temporary file in the same folder, so a reader never sees half a file
    and a failure leaves nothing behind; returns nothing.  The file gets the
    permissions of the file it replaces, or those a plain ``open()`` would give a new
    one."""
    folder = path.parent if str(path.parent) else Path()
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:  # named after the file asked for, not the temporary one
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.writelines([text] if isinstance(text, str) else text)
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


def sha256_of(path: Path) -> str:
    """The SHA-256 of the bytes of ``path``, in hex, read a megabyte at a time: what a
    truth file or a snapshot holds to tell whether a document is the one it was made
    from."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
