"""The glyph names a document's simple fonts give their codes by `/Differences`.

An `/Encoding` dictionary's `/Differences` names the glyph each code draws; a reader
maps the name to text by the Adobe Glyph List.  A name outside it (TeX's `prime`,
Linotype's Math Pi numbers `H20849`) gets no text from PDFium, which keeps no glyph
names it cannot map and offers no way to ask for them.

- The pdfium engine reads them here, with pdfminer.six's parser, on the first page
  where a glyph came out as `(cid:N)`, or as a code of ASCII's punctuation that PDFium
  read no Unicode for (InDesign's `f_i` ligature at code 33 comes as '!').
- A document without such a glyph is never parsed twice (and the pdfium engine imports
  pdfminer.six only then); a document read in chunks, opened once a chunk, is scanned
  once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from ..model import untagged
from .base import FileIdentity, file_identity
from .builtin_encoding import is_agl_name

__all__ = ["FontName", "differences_of", "font_dictionaries", "name_of", "scanned_once",
           "unlisted_differences", "untagged_name"]

_Found = TypeVar("_Found")

FontName = tuple[str, int]
"""An embedded font as both engines know it: its base name without a subset tag
(``Times-Roman``, not ``ABCDEF+Times-Roman``) and the size of its program in bytes."""


def name_of(value: Any) -> str:
    """The name a PDF name object (or a reference to one) holds, as pdfminer.six parses
    it; empty for anything else."""
    from pdfminer.pdftypes import resolve1
    from pdfminer.psparser import PSLiteral

    value = resolve1(value)
    return str(value.name) if isinstance(value, PSLiteral) else ""


def differences_of(encoding: object) -> dict[int, str]:
    """The glyph names the ``/Differences`` of an encoding dictionary give, by code."""
    from pdfminer.pdftypes import resolve1

    encoding = resolve1(encoding)
    if not isinstance(encoding, dict):
        return {}
    names: dict[int, str] = {}
    code = 0
    entries = resolve1(encoding.get("Differences"))
    for entry in entries if isinstance(entries, list) else ():
        entry = resolve1(entry)
        if isinstance(entry, int):
            code = entry
        elif name := name_of(entry):
            names[code] = name
            code += 1
    return names


_SCANNED: dict[FileIdentity, dict[FontName, dict[int, str]]] = {}
"""What `unlisted_differences` found in the document it last scanned in this
process, by its file's identity."""


def unlisted_differences(path: Path) -> dict[FontName, dict[int, str]]:
    """For each embedded simple font of the document at ``path`` (on its pages and in
    the forms they draw) whose ``/Differences`` names glyphs outside the Adobe Glyph
    List: those names, by code.  Empty for a document pdfminer.six cannot read."""
    return scanned_once(path, _SCANNED, _scanned)


def scanned_once(path: Path, cache: dict[FileIdentity, _Found],
                 scan: Callable[[Path], _Found]) -> _Found:
    """What ``scan`` reads from the document at ``path``, kept in ``cache`` (which holds
    the last document read): a whole document is scanned once while the same file is
    opened again (each chunk of a long document opens it), not once a chunk; a file
    that cannot be read is scanned every time (and ``scan`` reads nothing from it)."""
    try:
        key = file_identity(path.stat())
    except OSError:
        return scan(path)
    found = cache.get(key)
    if found is None:
        cache.clear()
        found = cache[key] = scan(path)
    return found


def _scanned(path: Path) -> dict[FontName, dict[int, str]]:
    """What `unlisted_differences` returns, read from the file."""
    found: dict[FontName, dict[int, str]] = {}
    try:
        for font in font_dictionaries(path):
            names = {code: name for code, name in
                     differences_of(font.get("Encoding")).items() if not is_agl_name(name)}
            program = _program(font) if names else None
            if program is not None:
                found[(untagged_name(font.get("BaseFont")), len(program))] = names
    except Exception:  # pdfminer raises many unrelated types on a broken file
        return found
    return found


def font_dictionaries(path: Path) -> Iterator[dict[str, object]]:
    """The font dictionaries of the pages of the document at ``path`` and of the forms
    they draw, each once, read with pdfminer.six while the file stays open; none for a
    file that cannot be opened (pdfminer's errors on a broken file reach the caller)."""
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfparser import PDFParser

    if not path.is_file():
        return
    with path.open("rb") as file:
        yield from _fonts(PDFDocument(PDFParser(file)))


def _fonts(document: Any) -> Iterator[dict[str, object]]:
    """The font dictionaries of every page's resources (of pdfminer.six's ``document``)
    and of the forms they hold, each once."""
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdftypes import PDFStream, resolve1

    seen: set[int] = set()
    pending = [resolve1(page.resources) for page in PDFPage.create_pages(document)]
    while pending:
        resources = pending.pop()
        if not isinstance(resources, dict) or id(resources) in seen:
            continue
        seen.add(id(resources))
        fonts = resolve1(resources.get("Font"))
        for font in (fonts.values() if isinstance(fonts, dict) else ()):
            font = resolve1(font)
            if isinstance(font, dict) and id(font) not in seen:
                seen.add(id(font))
                yield font
        forms = resolve1(resources.get("XObject"))
        for form in (forms.values() if isinstance(forms, dict) else ()):
            form = resolve1(form)
            if isinstance(form, PDFStream):
                pending.append(resolve1(form.get("Resources")))


def _program(font: dict[str, object]) -> bytes | None:
    """The embedded program of a simple font, decoded; None for a font without one."""
    from pdfminer.pdftypes import PDFStream, resolve1

    descriptor = resolve1(font.get("FontDescriptor"))
    if not isinstance(descriptor, dict):
        return None
    for key in ("FontFile", "FontFile3", "FontFile2"):
        program = resolve1(descriptor.get(key))
        if isinstance(program, PDFStream):
            data: bytes = program.get_data()
            return data
    return None


def untagged_name(name: object) -> str:
    """A base font name without its subset tag ([`untagged`][layoutkit.model.untagged])."""
    return untagged(name_of(name) or str(name))
