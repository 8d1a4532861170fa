"""The document a caller gives, as a file the glyph sources can read.

- A path is read as it is.
- Bytes, a binary file object or standard input (`-` on the command line) are spooled
  to a temporary file first; an encrypted PDF given with its password is decrypted (by
  PDFium) into one.
- Every later stage, in this process or in workers, then opens a plain file by its
  path, whichever engine reads it.
- An office or markup document (docx, odt, rtf, html, epub, csv, rst, md) is converted
  into a temporary PDF by the batch's sandboxed converter (`layoutkit.sources.convert`:
  pandoc and LibreOffice, bounded in time and memory, reading the document alone)
  before it is read (`readable`); an image is read as it is (by OCR).
- A file of any other kind is one error line naming the kinds that are read.
- The temporary file lives as long as the document parsed from it (`Input`), so its
  pages can still be drawn.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from ..errors import DocumentError, LayoutkitError, UsageError
from .base import IMAGE_SUFFIXES, is_image

if TYPE_CHECKING:
    from ..config import SourcesConfig

__all__ = ["STDIN", "Input", "Source", "accepted_suffixes", "as_input", "readable", "renamed"]

STDIN = Path("-")
"""The path that names standard input on the command line."""

Source = str | os.PathLike[str] | bytes | bytearray | memoryview | BinaryIO
"""What [`layoutkit.parse`][layoutkit.parse] reads: a path, the document's bytes, or a binary file
object open for reading."""

_HEAD = 1024
"""Bytes looked at to tell a PDF from an image (a PDF's header lies within them)."""


@dataclass(frozen=True, slots=True)
class Input:
    """A document ready to read: ``path`` the file the sources open, ``name`` what
    messages and outputs call it (the path given, ``<stdin>``, ``<bytes>`` or a file
    object's name); ``temporary`` when ``path`` is a spooled or decrypted copy, which
    [`remove`][layoutkit.sources.inputs.Input.remove] deletes."""

    path: Path
    name: Path
    temporary: bool = False

    def remove(self) -> None:
        """Delete the temporary copy (nothing for a caller's own file)."""
        if self.temporary:
            self.path.unlink(missing_ok=True)


def as_input(source: Source, password: str | None = None) -> Input:
    """``source`` as a file to read (see the module's note); the caller removes it
    ([`Input.remove`][layoutkit.sources.inputs.Input.remove]) once done.

    Raises UsageError for a value that is not a document, DocumentError naming the
    document for a wrong password.
    """
    if isinstance(source, bytes | bytearray | memoryview):
        given = _spooled(bytes(source), Path("<bytes>"))
    elif hasattr(source, "read"):
        given = _from_stream(source)  # type: ignore[arg-type]
    elif isinstance(source, str | os.PathLike):
        path = Path(source)
        given = _from_stream(sys.stdin.buffer) if path == STDIN else Input(path, path)
    else:
        raise UsageError(f"expected a path, bytes or a binary file object to read, got "
                         f"{type(source).__name__}")
    if password is None:
        return given
    try:
        decrypted = _decrypted(given, password)
    except BaseException:
        given.remove()
        raise
    if decrypted is not given:
        given.remove()
    return decrypted


def accepted_suffixes() -> tuple[str, ...]:
    """Every file-name suffix read: ``.pdf``, the images' and the converted documents'
    (`layoutkit.sources.convert.SUFFIXES`), those that ``layoutkit batch`` accepts."""
    from .convert import SUFFIXES  # the converters: only past a PDF or an image

    return (".pdf", *sorted(IMAGE_SUFFIXES), *SUFFIXES)


def readable(given: Input, config: SourcesConfig) -> Input:
    """``given`` as a file the glyph sources read: itself for a PDF or an image (and for
    a file that is not there, which the source reports); for an office or markup
    document, its PDF rendering by the sandboxed converter within ``config``'s bounds
    (`layoutkit.sources.convert.to_pdf`), a temporary file (``given``'s own temporary
    copy, if any, is then removed).  A file whose suffix is none of
    `accepted_suffixes` is read as a PDF when it holds one (a PDF saved under
    another name).

    Raises DocumentError, in one line naming the document, for a file of an unknown
    kind (listing the kinds that are read) or one the converter cannot convert."""
    path = given.path
    suffix = path.suffix.lower()
    if suffix == ".pdf" or is_image(path) or not path.is_file():
        return given
    from .convert import SUFFIXES, to_pdf

    if suffix not in SUFFIXES:
        with path.open("rb") as fh:
            if b"%PDF-" in fh.read(_HEAD):
                return given
        raise DocumentError(f"{given.name}: not a kind of document layoutkit reads "
                            f"({suffix or 'no suffix'}); expected one of "
                            f"{', '.join(accepted_suffixes())}")
    fd, made = tempfile.mkstemp(prefix="layoutkit-", suffix=".pdf")
    os.close(fd)
    target = Path(made)
    try:
        to_pdf(path, target, config)
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    given.remove()
    return Input(target, given.name, temporary=True)


def renamed(exc: LayoutkitError, given: Input) -> LayoutkitError:
    """``exc`` with the temporary copy's path in its message replaced by the document's
    name (the message is what the user sees: it names what they gave)."""
    if given.temporary and str(given.path) in str(exc):
        exc.args = (str(exc).replace(str(given.path), str(given.name)),)
    return exc


def _from_stream(stream: BinaryIO) -> Input:
    """A binary file object's remaining bytes spooled, named after its file."""
    try:
        data = stream.read()
    except OSError as exc:
        raise DocumentError(f"{_stream_name(stream)}: cannot be read ({exc.strerror or exc})"
                            ) from None
    if not isinstance(data, bytes):
        raise UsageError(f"{_stream_name(stream)}: expected a binary file object (opened "
                         f"with 'rb'), got text")
    return _spooled(data, _stream_name(stream))


def _stream_name(stream: BinaryIO) -> Path:
    name = getattr(stream, "name", None)  # sys.stdin.buffer's is "<stdin>"
    return Path(name) if isinstance(name, str) else Path("<stream>")


def _spooled(data: bytes, name: Path) -> Input:
    """``data`` written to a temporary file ending as a PDF or as the image it is."""
    fd, temporary = tempfile.mkstemp(prefix="layoutkit-", suffix=_suffix(data, name))
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return Input(Path(temporary), name, temporary=True)


def _suffix(data: bytes, name: Path) -> str:
    """``.pdf``, or the ending of the image format ``data`` holds (the sources tell an
    image by its file's ending): a name's own ending if it is an image's or a converted
    document's (`readable` converts it), else what Pillow recognises; a file that is
    none of these is spooled as a PDF, to be reported not one."""
    if is_image(name):
        return name.suffix.lower()
    if name.suffix.lower() not in ("", ".pdf") and name.suffix.lower() in accepted_suffixes():
        return name.suffix.lower()  # an office or markup document, converted when read
    if not data or b"%PDF-" in data[:_HEAD]:
        return ".pdf"
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            found = f".{(image.format or '').lower()}"
    except (UnidentifiedImageError, OSError):
        return ".pdf"
    return found if found in IMAGE_SUFFIXES else ".pdf"


def _decrypted(given: Input, password: str) -> Input:
    """``given`` opened with ``password`` and saved without its encryption; ``given``
    itself when it is not an encrypted PDF (or not a PDF the sources will read: they
    report why)."""
    if is_image(given.path) or not given.path.is_file():
        return given
    import pypdfium2 as pdfium  # type: ignore[import-untyped]
    import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]

    try:
        pdf = pdfium.PdfDocument(given.path, password=password)
    except pdfium.PdfiumError as exc:
        if exc.err_code == pdfium_c.FPDF_ERR_PASSWORD:
            raise DocumentError(f"{given.name}: wrong password for the encrypted PDF"
                                ) from None
        return given
    try:
        if pdfium_c.FPDF_GetSecurityHandlerRevision(pdf.raw) < 0:
            return given
        fd, temporary = tempfile.mkstemp(prefix="layoutkit-", suffix=".pdf")
        os.close(fd)
        try:
            pdf.save(temporary, flags=pdfium_c.FPDF_REMOVE_SECURITY)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    finally:
        pdf.close()
    return Input(Path(temporary), given.name, temporary=True)
