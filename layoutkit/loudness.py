"""How much the command line says on standard error: its log and warnings.

- Each line reads `layoutkit: ...`; `-q` keeps only errors, `-v` adds the log.
- It is set once in the command's process, and again in each batch worker it starts (a
  worker forked from the fork server inherits none of it).
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import OcrQuality
    from .profile import Profile

__all__ = ["Loudness", "read_summary"]

FORMAT = "layoutkit: %(message)s"
"""How a log line is written on standard error."""


@dataclass(frozen=True, slots=True)
class Loudness:
    """The command line's ``-v`` (``verbose``), ``-q`` (``quiet``) and
    ``--verbose-linetypes`` (``linetypes``)."""

    verbose: bool = False
    quiet: bool = False
    linetypes: bool = False

    def apply(self) -> None:
        """Make this process log and warn as the command line says (the log's first
        set-up in the process holds)."""
        logging.basicConfig(level=logging.INFO if self.verbose else
                            logging.ERROR if self.quiet else logging.WARNING, format=FORMAT)
        if self.quiet:
            warnings.simplefilter("ignore")
        if not self.verbose:
            logging.getLogger("pdfminer").setLevel(logging.ERROR)
        logging.getLogger("layoutkit.linetypes").setLevel(
            logging.INFO if self.linetypes else logging.WARNING)


def read_summary(pages: int, engine: str, ocr: Sequence[OcrQuality],
                 profile: Profile | None) -> str:
    """What reading a document did, in words, for ``-v``'s log: its ``pages`` read, by
    which glyph ``engine``, how many by OCR (and in which languages, or from the
    scan's own text layer) and with which profile."""
    by_ocr = [q for q in ocr if q.done and q.error is None]
    layer = sum(q.source == "text layer" for q in ocr)
    languages = sorted({q.language for q in by_ocr if q.language})
    said = [f"{pages} page(s) read by {engine}",
            f"{len(by_ocr)} by OCR" + (f" in {', '.join(languages)}" if languages else "")
            if by_ocr else "no OCR"]
    if layer:
        said.append(f"{layer} scanned page(s) kept their text layer")
    said.append(f"profile {profile.name}" if profile is not None else "no profile")
    return ", ".join(said)
