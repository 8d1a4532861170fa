"""The inbox: waiting files, their kinds, and moving them without overwriting a file.

- A file counts as waiting when it lies directly in the inbox or in a language
  subfolder (`INBOX/de/`: a two- or three-letter ISO 639 code), is not hidden (a name
  starting with a dot is a file still being copied in) and is not in the inbox's own
  `accepted/` and `rejected/` folders.
- Each is told its kind and whether it can be read, then moved to `accepted/` or
  `rejected/` without ever overwriting a file.
- Others may write to the inbox, so the places a run writes to there (its lock file,
  `accepted/`, `rejected/` and their language subfolders, a rejected file's reason) are
  reached through no symbolic link: a link planted at one is refused, or, at a reason's
  name, stepped around or replaced, never written through.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import stat
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from PIL import Image, UnidentifiedImageError

from ..errors import DocumentError, UsageError
from ..files import NAME_MAX, fitted, replace_in, text_name
from ..sources import IMAGE_SUFFIXES, open_source
from ..sources.convert import SUFFIXES

__all__ = [
    "ACCEPTED",
    "IMAGE_SUFFIXES",
    "KINDS",
    "LOCK",
    "NAME_MAX",
    "OFFICE_SUFFIXES",
    "OWN",
    "REJECTED",
    "Arrival",
    "check",
    "content_hash",
    "fitted",
    "free_name",
    "kind_of",
    "move",
    "open_lock",
    "own_places",
    "reason_name",
    "refused",
    "safe_stem",
    "scan",
    "shown",
    "write_reason",
]

ACCEPTED = "accepted"
REJECTED = "rejected"
LOCK = ".layoutkit-batch.lock"
"""The file in the inbox a run holds locked, so that two runs never share an inbox."""
OWN = (LOCK, ACCEPTED, REJECTED)
"""The places in the inbox a run writes to: followed through no link."""

OFFICE_SUFFIXES = SUFFIXES
"""Formats converted to PDF before they are parsed (see `convert`)."""
KINDS = {".pdf": "pdf", **dict.fromkeys(OFFICE_SUFFIXES, "office"),
         **dict.fromkeys(sorted(IMAGE_SUFFIXES), "image")}
"""Each accepted file-name suffix and the kind of document it names: the page images
are those ``layoutkit text`` reads, made into one-page-per-frame PDFs before they are
parsed."""

_LANGUAGE = re.compile(r"^[a-z]{2,3}$")
_ZIPPED = (".docx", ".odt", ".epub")
_UNSAFE = re.compile(r"[^\w.-]+")


@dataclass(frozen=True, slots=True)
class Arrival:
    """A file found waiting in the inbox: its path, its name relative to the inbox
    (``de/Amtsblatt 3.pdf``) and the language its subfolder names, if any."""

    path: Path
    name: str
    language: str | None


def scan(inbox: Path) -> list[Arrival]:
    """The files waiting in ``inbox`` and its language subfolders, sorted by name.

    Symbolic links are listed too (`check` rejects them); other subfolders
    are left where they are.
    """
    found: list[Arrival] = []
    for folder, language in [(inbox, None), *((sub, sub.name) for sub in _languages(inbox))]:
        for entry in sorted(folder.iterdir()):
            if entry.name.startswith(".") or (entry.is_dir() and not entry.is_symlink()):
                continue
            found.append(Arrival(entry, entry.relative_to(inbox).as_posix(), language))
    return found


def _languages(inbox: Path) -> list[Path]:
    return sorted(sub for sub in inbox.iterdir()
                  if sub.is_dir() and not sub.is_symlink() and _LANGUAGE.match(sub.name))


def shown(name: str) -> str:
    """``name`` as it can be printed on one line: bytes that are not UTF-8 (kept in a
    name as lone surrogates) as ``\\xNN``, control characters (a newline) escaped as
    Python writes them."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text_name(name))


def kind_of(name: str) -> str | None:
    """``pdf``, ``office`` or ``image`` by the name's suffix; None for any other."""
    return KINDS.get(Path(name).suffix.lower())


def content_hash(path: Path) -> str:
    """The SHA-256 of the file's bytes, in hex: the same file dropped twice has the same."""
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def refused(path: Path) -> str | None:
    """Why the entry at ``path`` cannot be taken whatever it holds (a symbolic link, a
    FIFO, a device), before anything opens it (a FIFO would hang its reader); None
    for a regular file.  Raises FileNotFoundError when it has vanished."""
    mode = path.lstat().st_mode
    if stat.S_ISLNK(mode):
        return "a symbolic link (it could point outside the inbox); copy the file in instead"
    if not stat.S_ISREG(mode):
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) \
            else "a device"
        return f"{kind}, not a regular file; copy the document in as a file"
    return None


def check(path: Path) -> tuple[int | None, str | None]:
    """Whether the file at ``path`` can be taken: ``(pages, None)`` (pages None where
    only the conversion will tell) or ``(None, reason)`` naming what is wrong.

    Raises FileNotFoundError when the file has vanished.
    """
    problem = refused(path)
    if problem:
        return None, problem
    kind = kind_of(path.name)
    if kind is None:
        return None, (f"unknown extension {path.suffix or '(none)'!r}; expected one of "
                      f"{', '.join(sorted(KINDS))}")
    if path.stat().st_size == 0:
        return None, "empty file (0 bytes)"
    if kind == "pdf":
        try:
            with open_source(path, "pdfium") as source:
                return source.page_count, None
        except DocumentError as exc:
            return None, str(exc).removeprefix(f"{path}: ")
        except UsageError:  # no such file: it vanished since the inbox was listed
            raise FileNotFoundError(path) from None
    if kind == "image":
        return _check_image(path)
    return None, _check_office(path)


def _check_image(path: Path) -> tuple[int | None, str | None]:
    try:
        with Image.open(path) as image:
            frames = getattr(image, "n_frames", 1)  # counted first: verify() closes a GIF
            image.verify()
            return frames, None
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        return None, f"not a readable {path.suffix.lower()[1:]} image (Pillow cannot read it)"


def _check_office(path: Path) -> str | None:
    suffix = path.suffix.lower()
    if suffix in _ZIPPED:
        return None if zipfile.is_zipfile(path) else f"not a {suffix[1:]} file (not a zip archive)"
    with path.open("rb") as fh:
        head = fh.read(4096)
    if suffix == ".rtf":
        return None if head.startswith(b"{\\rtf") else "not an RTF file (no {\\rtf header)"
    return "not a text file (it holds NUL bytes)" if b"\0" in head else None


def safe_stem(name: str) -> str:
    """The file name's stem made safe for a folder name: runs of anything but letters,
    digits, dots and dashes become ``_``, no leading dot, never empty."""
    return _UNSAFE.sub("_", Path(name).stem).strip("._") or "document"


def free_name(folder: Path, name: str) -> Path:
    """``folder/name``, or ``stem (2).ext``, ``stem (3).ext``… when that is taken, or
    when the reason file it would get (`reason_name`) is: a link or a file planted
    at a reason's name is never written through nor over.

    A name too long for the file system with its number is shortened (`fitted`),
    and a name a language subfolder could have (``de``) starts at ``de (2)``, so that
    a rejected file never takes the place of the folder of a language's documents."""
    wanted = Path(name)
    for n in range(2 if _LANGUAGE.match(name) else 1, 10_000):
        target = folder / (wanted.name if n == 1 else fitted(wanted.stem, f" ({n}){wanted.suffix}"))
        if not any(path.exists() or path.is_symlink()
                   for path in (target, target.with_name(reason_name(target.name)))):
            return target
    raise FileExistsError(f"{folder}: no free name for {wanted.name}")


def reason_name(name: str) -> str:
    """The name of the file that says why the file ``name`` was rejected, beside it:
    ``NAME.reason.txt``, shortened where that is too long."""
    return fitted(name, ".reason.txt")


def own_places(inbox: Path) -> None:
    """Refuse an inbox whose own places (`OWN`: the lock file, ``accepted/``,
    ``rejected/``, and their subfolders of the inbox's languages) hold a symbolic link,
    or a file where a folder belongs: a run would write through it, outside the inbox.
    Raises UsageError naming it; returns nothing when all are as a run makes them (or
    not made yet)."""
    languages = [sub.name for sub in _languages(inbox)]
    for name in [*OWN, *(f"{own}/{language}" for own in (ACCEPTED, REJECTED)
                         for language in languages)]:
        try:
            mode = (inbox / name).lstat().st_mode
        except (FileNotFoundError, NotADirectoryError):
            continue
        if stat.S_ISLNK(mode):
            raise UsageError(_linked(inbox / name))
        if not (stat.S_ISREG(mode) if name == LOCK else stat.S_ISDIR(mode)):
            raise UsageError(f"{inbox / name}: expected the batch's own "
                             f"{'lock file' if name == LOCK else 'folder'}; move it away")


def open_lock(inbox: Path) -> IO[str]:
    """The inbox's lock file (`LOCK`), opened for appending and made if missing,
    without following a link.  Raises UsageError when it is a link or not a regular
    file."""
    flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
             | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        fd = os.open(inbox / LOCK, flags, 0o666)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UsageError(_linked(inbox / LOCK)) from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UsageError(f"{inbox / LOCK}: expected the batch's own lock file; move it away")
    return os.fdopen(fd, "a")


def _linked(path: Path) -> str:
    return (f"{path}: a symbolic link where layoutkit batch keeps its own files; it follows "
            "no link there (one could lead outside the inbox): remove it")


@contextmanager
def _own_folder(inbox: Path, folder: Path) -> Iterator[int]:
    """The folder ``folder`` (``inbox``, or one below it) open as a descriptor, each
    part below ``inbox`` made when missing and opened without following a link, so
    that nothing is written through a link planted there.  Raises UsageError for a
    link or a file on the way."""
    fd = os.open(inbox, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        parts = folder.relative_to(inbox).parts
        for n, part in enumerate(parts):
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, dir_fd=fd)
            try:
                below = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
                                | os.O_CLOEXEC, dir_fd=fd)
            except OSError as exc:
                if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                    raise
                raise UsageError(_not_folder(inbox.joinpath(*parts[:n + 1]))) from None
            os.close(fd)
            fd = below
        yield fd
    finally:
        os.close(fd)


def _not_folder(path: Path) -> str:
    if path.is_symlink():
        return _linked(path)
    return f"{path}: a file where layoutkit batch keeps a folder of its own; move it away"


def write_reason(inbox: Path, target: Path, reason: str) -> None:
    """Write ``reason`` into the reason file of the rejected file ``target`` (in the
    inbox's ``rejected/`` folder), replacing whatever lies at its name, through no
    link (see `layoutkit.files.replace_in`)."""
    with _own_folder(inbox, target.parent) as folder:
        replace_in(folder, reason_name(target.name), reason)


def move(path: Path, target: Path, inbox: Path | None = None) -> bool:
    """Move ``path`` to ``target`` (a name from `free_name`); False when the name
    has been taken meanwhile by another file.

    The move is a hard link then an unlink: it never overwrites, and a run killed
    half-way leaves the file in one place or in both as the same file, never
    nowhere.  Moving again after such a kill finishes the move.  The folders of
    ``target`` below ``inbox`` (``accepted/de/``) are made where missing and followed
    through no link (UsageError for one); without ``inbox``, ``target``'s folder
    must be there.
    """
    with _own_folder(inbox or target.parent, target.parent) as folder:
        try:
            os.link(path, target.name, dst_dir_fd=folder, follow_symlinks=False)
        except FileExistsError:
            if path.exists() and not _same(path, target.name, folder):
                return False
        except FileNotFoundError:
            if not _there(target.name, folder):
                raise
            return True  # moved before the run was killed
    path.unlink(missing_ok=True)
    return True


def _same(path: Path, name: str, folder: int) -> bool:
    """Whether ``path`` and the entry ``name`` of ``folder`` are one file (links not
    followed)."""
    one, other = path.lstat(), os.stat(name, dir_fd=folder, follow_symlinks=False)
    return (one.st_dev, one.st_ino) == (other.st_dev, other.st_ino)


def _there(name: str, folder: int) -> bool:
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True
