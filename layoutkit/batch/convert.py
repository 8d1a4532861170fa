"""Office and markup documents made into PDFs, so they are parsed like any PDF.

LibreOffice (headless Writer) renders the word-processor formats (docx, odt,
rtf, html): it keeps the page size, margins and columns the author set, which
is what the reading order works from.  The markup formats it cannot lay out
(epub, csv, rst, md) are first read by pandoc into an ODT document, which
LibreOffice then renders.  Images become one PDF page per frame with Pillow.
A converter that is not installed is an error for that document alone.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from ..errors import DocumentError
from ..sources import IMAGE_SUFFIXES

__all__ = ["PANDOC_FIRST", "WRITER_SUFFIXES", "to_pdf"]

WRITER_SUFFIXES = (".docx", ".odt", ".rtf", ".html", ".htm")
"""Rendered by LibreOffice straight away."""
PANDOC_FIRST = {".epub": "epub", ".csv": "csv", ".rst": "rst", ".md": "markdown"}
"""Read by pandoc (with this input format) into ODT before LibreOffice renders them."""

_TIMEOUT = 300.0
"""Seconds a converter may take over one document before it is stopped."""


def to_pdf(source: Path, target: Path) -> None:
    """Write the PDF rendering of ``source`` to ``target`` (complete or not at all).

    Raises DocumentError naming the file and what went wrong: an unknown format,
    a converter that is not installed, or one that failed or made no PDF.
    """
    suffix = source.suffix.lower()
    with tempfile.TemporaryDirectory(prefix=".convert-", dir=target.parent) as scratch:
        work = Path(scratch)
        if suffix in IMAGE_SUFFIXES:
            made = _image_pdf(source, work / "image.pdf")
        elif suffix in PANDOC_FIRST:
            odt = work / "pandoc.odt"
            _call(source, ["pandoc", "--from", PANDOC_FIRST[suffix], "--to", "odt",
                           "--output", str(odt), str(source)])
            made = _writer_pdf(source, odt, work)
        elif suffix in WRITER_SUFFIXES:
            made = _writer_pdf(source, source, work)
        else:
            raise DocumentError(f"{source}: no converter for {suffix or 'files without a suffix'}")
        made.replace(target)


def _image_pdf(source: Path, target: Path) -> Path:
    # imported here, by the workers that convert an image: the workers' fork server
    # imports this module, and most documents of a batch are PDFs
    from PIL import Image, ImageSequence

    with Image.open(source) as image:
        frames = [frame.convert("RGB") for frame in ImageSequence.Iterator(image)]
    frames[0].save(target, "PDF", save_all=True, append_images=frames[1:], resolution=300.0)
    return target


def _writer_pdf(original: Path, source: Path, work: Path) -> Path:
    """LibreOffice's PDF of ``source`` in ``work``; a private profile folder keeps
    parallel conversions from waiting on each other's lock."""
    profile = (work / "profile").absolute().as_uri()
    _call(original, ["soffice", f"-env:UserInstallation={profile}", "--headless", "--norestore",
                     "--convert-to", "pdf", "--outdir", str(work / "pdf"), str(source)])
    made = work / "pdf" / f"{source.stem}.pdf"
    if not made.is_file() or made.stat().st_size == 0:
        raise DocumentError(f"{original}: LibreOffice made no PDF of it "
                            "(a format or content it cannot read)")
    return made


def _call(original: Path, command: list[str]) -> None:
    if shutil.which(command[0]) is None:
        raise DocumentError(f"{original}: converting it needs {command[0]}, which is not "
                            "installed (make system installs it)")
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=_TIMEOUT,
                              check=False)
    except subprocess.TimeoutExpired:
        raise DocumentError(f"{original}: {command[0]} took over {_TIMEOUT:.0f} s; "
                            "stopped") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise DocumentError(f"{original}: {command[0]} failed ({last})")
