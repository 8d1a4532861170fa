"""The inbox: which files are waiting, what kind each is, whether it can be read,
and moving it to ``accepted/`` or ``rejected/`` without ever overwriting a file.

A file counts as waiting when it lies directly in the inbox or in a language
subfolder (``INBOX/de/``: a two- or three-letter ISO 639 code), is not hidden
(a name starting with a dot is a file still being copied in) and is not in the
inbox's own ``accepted/`` and ``rejected/`` folders.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from ..errors import DocumentError, UsageError
from ..files import text_name
from ..sources import IMAGE_SUFFIXES, open_source

__all__ = [
    "ACCEPTED",
    "IMAGE_SUFFIXES",
    "KINDS",
    "OFFICE_SUFFIXES",
    "REJECTED",
    "Arrival",
    "check",
    "content_hash",
    "fitted",
    "free_name",
    "kind_of",
    "move",
    "refused",
    "safe_stem",
    "scan",
    "shown",
]

ACCEPTED = "accepted"
REJECTED = "rejected"

OFFICE_SUFFIXES = (".docx", ".odt", ".rtf", ".html", ".htm", ".epub", ".csv", ".rst", ".md")
"""Formats converted to PDF before they are parsed (see :mod:`.convert`)."""
KINDS = {".pdf": "pdf", **dict.fromkeys(OFFICE_SUFFIXES, "office"),
         **dict.fromkeys(sorted(IMAGE_SUFFIXES), "image")}
"""Each accepted file-name suffix and the kind of document it names: the page images
are those ``layoutkit text`` reads, made into one-page-per-frame PDFs before they are
parsed."""

NAME_MAX = 255
"""The most bytes a file name may have on the file systems layoutkit writes to."""

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

    Symbolic links are listed too (:func:`check` rejects them); other subfolders
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


def fitted(stem: str, suffix: str = "", limit: int = NAME_MAX) -> str:
    """``stem + suffix``, its stem cut and followed by a hash of the whole stem when the
    name would be longer than ``limit`` bytes: a name the file system takes, different
    for different stems."""
    if len(os.fsencode(stem + suffix)) <= limit:
        return stem + suffix
    tag = "~" + hashlib.sha256(os.fsencode(stem)).hexdigest()[:12]
    room = limit - len(os.fsencode(tag + suffix))
    cut = os.fsencode(stem)[:room].decode("utf-8", "ignore")
    while len(os.fsencode(cut)) > room:  # a name with surrogates: bytes per character vary
        cut = cut[:-1]
    return cut + tag + suffix


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
    """``folder/name``, or ``stem (2).ext``, ``stem (3).ext``… when that is taken."""
    wanted = Path(name)
    for n in range(1, 10_000):
        target = folder / (wanted.name if n == 1 else f"{wanted.stem} ({n}){wanted.suffix}")
        if not target.exists() and not target.is_symlink():
            return target
    raise FileExistsError(f"{folder}: no free name for {wanted.name}")


def move(path: Path, target: Path) -> bool:
    """Move ``path`` to ``target`` (a name from :func:`free_name`); False when the name
    has been taken meanwhile by another file.

    The move is a hard link then an unlink: it never overwrites, and a run killed
    half-way leaves the file in one place or in both as the same file, never
    nowhere.  Moving again after such a kill finishes the move.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(path, target, follow_symlinks=False)
    except FileExistsError:
        if path.exists() and not path.samefile(target):
            return False
    except FileNotFoundError:
        if not target.exists():
            raise
        return True  # moved before the run was killed
    path.unlink(missing_ok=True)
    return True
