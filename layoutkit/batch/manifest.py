"""The note in each output folder of what it was made from: ``source.json``.

It holds the content hash (SHA-256) of the document the folder's outputs were read
from, its file name, and, once every action is done, its page count.  A run whose
database was deleted (or replaced by an empty one) reads these notes to recognise the
outputs it already wrote: an accepted file whose hash a finished folder names is done
already, and a staging folder that names it (a run killed while it worked) is
finished in place, instead of either being written again beside the first.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError
from ..files import text_name, write_atomic

__all__ = ["MANIFEST", "PARTIAL", "Made", "made", "made_from", "vacant", "write"]

MANIFEST = "source.json"
"""The note's file name in an output (or staging) folder."""
PARTIAL = ".partial"
"""The end of a staging folder's name: ``.NAME.partial`` becomes ``NAME`` when done."""
_FORMAT = "layoutkit.batch-source/1"


@dataclass(frozen=True, slots=True)
class Made:
    """An output folder found with its note: its name in the output folder (a staging
    folder's under the name it will take), whether all its actions are done, and
    then the document's pages."""

    folder: str
    done: bool
    pages: int | None = None


def write(folder: Path, file: str, digest: str | None, pages: int | None = None,
          *, done: bool = False) -> None:
    """Make ``folder`` (a staging folder) if missing and write its note: the source
    ``file`` (its name in the inbox), its content hash ``digest`` and, when ``done``,
    its ``pages``.  Raises UsageError when ``folder`` is a symbolic link (a run writes
    through none)."""
    folder.mkdir(exist_ok=True)
    if stat.S_ISLNK(folder.lstat().st_mode):
        raise UsageError(f"{folder}: a symbolic link where layoutkit batch makes a staging "
                         "folder; it follows no link there: remove it")
    note: dict[str, object] = {"format": _FORMAT, "file": text_name(file), "sha256": digest}
    if done:
        note["pages"] = pages
    write_atomic(folder / MANIFEST, json.dumps(note, ensure_ascii=False, indent=1) + "\n")


def made(out: Path) -> dict[str, Made]:
    """The folders of ``out`` whose notes name a content hash, by that hash: finished
    folders first; a staging folder only when the folder it becomes is not there.
    Links, folders without a note and notes that cannot be read are left out."""
    found: dict[str, Made] = {}
    staged: dict[str, Made] = {}
    with os.scandir(out) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            if not entry.is_dir(follow_symlinks=False):
                continue
            note = _note(Path(entry.path))
            if note is None:
                continue
            digest, pages, done = note
            if not entry.name.startswith("."):
                if done:
                    found.setdefault(digest, Made(entry.name, True, pages))
                continue
            final = entry.name[1:].removesuffix(PARTIAL)
            if entry.name.endswith(PARTIAL) and final and \
                    not os.path.lexists(out / final):
                staged.setdefault(digest, Made(final, False))
    return {**staged, **found}


def vacant(folder: Path) -> bool:
    """Whether a staging folder may be given to a document: it is not there, or it
    is an empty folder (but for hidden scratch: a run killed as it made it, before
    its note was written), which holds nothing of another document."""
    try:
        if not stat.S_ISDIR(folder.lstat().st_mode):
            return False
        with os.scandir(folder) as entries:
            return all(entry.name.startswith(".") for entry in entries)
    except FileNotFoundError:
        return True


def made_from(folder: Path) -> str | None:
    """The content hash ``folder``'s note names; None when it has no note that can be
    read (a folder made before notes were written, or not by a run)."""
    note = _note(folder)
    return note[0] if note else None


def _note(folder: Path) -> tuple[str, int | None, bool] | None:
    """The hash, pages and doneness ``folder``'s note holds; None when it has none
    that can be read."""
    path = folder / MANIFEST
    try:
        if not stat.S_ISREG(path.lstat().st_mode):
            return None
        note = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(note, dict) or note.get("format") != _FORMAT \
            or not isinstance(note.get("sha256"), str):
        return None
    pages = note.get("pages")
    return note["sha256"], pages if isinstance(pages, int) else None, "pages" in note
