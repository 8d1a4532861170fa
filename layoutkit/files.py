"""Files as layoutkit writes and recognises them.

Every file layoutkit writes (the outputs of the command line, the results of a
batch, a stored document, truth files and snapshots) goes through
`write_atomic`: a process stopped mid-write, or a reader looking at the file
while it is written, finds either the old file or the whole new one.  A document is
recognised by its bytes' digest (`sha256_of`): a truth file or a snapshot names
the very file it was made from.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import secrets
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

__all__ = ["NAME_MAX", "fitted", "replace_in", "sha256_of", "text_name", "write_atomic"]

NAME_MAX = 255
"""The most bytes a file name may have on the file systems layoutkit writes to."""

_RANDOM = 8
"""The characters ``tempfile.mkstemp`` puts between a temporary file's prefix and suffix."""
_TEMPORARY = ".tmp"
"""The end of every temporary file's name."""


def write_atomic(path: Path, text: str | Iterable[str]) -> None:
    """Write ``text`` (UTF-8; or its pieces, each written as it comes) to ``path``;
    returns nothing.

    A regular file (or a new one) is written through a temporary file in the same
    folder and renamed over it, so a reader never sees half a file and a failure
    leaves nothing behind; the file gets the permissions of the file it replaces, or
    those a plain ``open()`` would give a new one.  A symbolic link is followed: its
    target is written, the link kept.  Anything else that exists (a device such as
    ``/dev/null``, a FIFO, a terminal) cannot be replaced by a rename and is written
    in place (`_write_in_place`).  Every write and the final close are checked:
    a full disk or device raises OSError naming ``path``."""
    pieces = [text] if isinstance(text, str) else text
    try:
        status = path.stat()  # follows links; a loop or a bad folder raises here
    except FileNotFoundError:
        status = None
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    if status is not None and not stat.S_ISREG(status.st_mode):
        _write_in_place(path, pieces)
        return
    # a link (or a dangling one) is written at its target; a rename would replace it
    target = Path(os.path.realpath(path))
    # ".NAME." shortened (by bytes) so that the temporary name fits where NAME does
    prefix = fitted(f".{target.name}", ".", NAME_MAX - _RANDOM - len(_TEMPORARY))
    try:
        fd, temporary = tempfile.mkstemp(prefix=prefix, suffix=_TEMPORARY, dir=target.parent)
    except OSError as exc:  # named after the file asked for, not the temporary one
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.writelines(pieces)
        Path(temporary).chmod(_mode_for(target))
        Path(temporary).replace(target)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        if exc.errno is None:  # raised making a piece (a document that failed), not writing
            raise
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def replace_in(folder: int, name: str, text: str) -> None:
    """Write ``text`` (UTF-8) as the file ``name`` of the open folder ``folder`` (a
    descriptor); returns nothing.

    For the files a program keeps for itself in a folder others may write to (a
    batch's reasons in its inbox): the text goes to a new file of a short temporary
    name, made without following any link, then renamed over ``name``, so whatever
    lies at ``name`` (a symbolic link too) is replaced, never written through, and a
    name as long as the file system allows still has room for its temporary one.
    Raises OSError naming ``name``."""
    temporary = f".{secrets.token_hex(8)}{_TEMPORARY}"  # 21 bytes
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(temporary, flags, 0o666, dir_fd=folder)  # the umask applies
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, name) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.rename(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
        if isinstance(exc, OSError) and exc.errno is not None:
            raise OSError(exc.errno, exc.strerror, name) from None
        raise


def fitted(stem: str, suffix: str = "", limit: int = NAME_MAX) -> str:
    """``stem + suffix``, its stem cut and followed by a hash of the whole stem when the
    name would be longer than ``limit`` bytes: a name the file system takes, different
    for different stems.  Cut by bytes, as the file system counts them: a name of
    two-byte letters keeps half as many."""
    if len(os.fsencode(stem + suffix)) <= limit:
        return stem + suffix
    tag = "~" + hashlib.sha256(os.fsencode(stem)).hexdigest()[:12]
    room = limit - len(os.fsencode(tag + suffix))
    cut = os.fsencode(stem)[:room].decode("utf-8", "ignore")
    while len(os.fsencode(cut)) > room:  # a name with surrogates: bytes per character vary
        cut = cut[:-1]
    return cut + tag + suffix


def _write_in_place(path: Path, pieces: Iterable[str]) -> None:
    """Write ``pieces`` (UTF-8) into the existing file ``path`` that is not a regular
    file (a device, a FIFO, a terminal), through its own open handle and without
    creating or renaming anything.  A FIFO nobody reads from is an error rather than a
    wait (it is opened without blocking); a directory is the error ``open`` gives."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO with no reader
            raise OSError(exc.errno, "a FIFO with no reader", str(path)) from None
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        os.set_blocking(fd, True)
        for piece in pieces:
            view = memoryview(piece.encode("utf-8"))
            while view:
                view = view[os.write(fd, view):]
    except OSError as exc:
        if exc.errno is None:  # raised making a piece, not writing
            raise
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    finally:
        os.close(fd)


def _mode_for(path: Path) -> int:
    """The permissions ``open()`` would give a new file (or the replaced file's own):
    ``mkstemp`` makes its file readable by its owner alone."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def text_name(name: str) -> str:
    """``name`` (a file name or a text holding one) as UTF-8 text can hold it: bytes of
    a name that are not UTF-8, which Python keeps as lone surrogates, written ``\\xNN``;
    any other text unchanged."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def sha256_of(path: Path) -> str:
    """The SHA-256 of the bytes of ``path``, in hex, read a megabyte at a time: what a
    truth file or a snapshot holds to tell whether a document is the one it was made
    from."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
