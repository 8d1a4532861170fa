"""Structural edits of a PDF for the mutation fuzzer (:mod:`tests.fuzzing`): a page's
dictionary, its content or the catalog rewritten in an incremental update (new
objects, a cross-reference section and a trailer appended, as an editor saves), so
that the mutation reaches a reader whole instead of as broken bytes.

The document is read with pdfminer.six; a page's or the catalog's dictionary is
written back with :func:`pdf_value`, references kept as references.
"""

from __future__ import annotations

import io
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Edit", "Raw", "edited", "pdf_value"]

_REGULAR = re.compile(rb"[^\x21-\x7e]|[#/\[\]()<>{}%]")
"""The bytes a name writes as ``#xx``."""


class Raw(bytes):
    """PDF text written as it is (a reference to a new object: ``b"12 0 R"``)."""


def pdf_value(value: Any) -> bytes:
    """``value`` (as pdfminer.six parses it) written as PDF; a stream (which must be
    an indirect object) as null."""
    from pdfminer.pdftypes import PDFObjRef, PDFStream
    from pdfminer.psparser import PSKeyword, PSLiteral

    if isinstance(value, Raw):
        return bytes(value)
    if isinstance(value, PDFObjRef):
        return b"%d 0 R" % value.objid
    if isinstance(value, PSLiteral):
        name = value.name.encode("latin-1", "replace") if isinstance(value.name, str) \
            else bytes(value.name)
        return b"/" + _REGULAR.sub(lambda m: b"#%02X" % m[0][0], name)
    if isinstance(value, bool):
        return b"true" if value else b"false"
    if isinstance(value, (int, float)):
        return b"%d" % value if isinstance(value, int) else b"%.4f" % value
    if isinstance(value, (bytes, str)):
        data = value.encode("latin-1", "replace") if isinstance(value, str) else value
        return b"<" + data.hex().encode() + b">"
    if isinstance(value, dict):
        return b"<< " + b" ".join(pdf_value(_literal(k)) + b" " + pdf_value(v)
                                  for k, v in value.items()) + b" >>"
    if isinstance(value, list):
        return b"[" + b" ".join(pdf_value(v) for v in value) + b"]"
    if isinstance(value, (PDFStream, PSKeyword)) or value is None:
        return b"null"
    return b"null"


def _literal(key: Any) -> Any:
    """A dictionary's key as a name."""
    from pdfminer.psparser import LIT

    return LIT(key) if isinstance(key, str) else key


@dataclass
class Edit:
    """What an edit sees of the document and what it changes: the first page's object
    number, dictionary and decoded content; the catalog's; objects to add (numbered
    by :meth:`add`) and objects replaced (by number), written as given."""

    page_id: int
    page: dict[str, Any]
    content: bytes
    catalog_id: int
    catalog: dict[str, Any]
    next_id: int
    objects: dict[int, bytes] = field(default_factory=dict)

    def add(self, body: bytes) -> int:
        """The number of a new object holding ``body``."""
        number = self.next_id
        self.next_id += 1
        self.objects[number] = body
        return number

    def add_stream(self, data: bytes, extra: bytes = b"") -> int:
        """The number of a new Flate stream holding ``data``."""
        packed = zlib.compress(data)
        return self.add(b"<< /Length %d /Filter /FlateDecode%s >>\nstream\n%s\nendstream"
                        % (len(packed), extra, packed))

    def set_page(self, **entries: bytes) -> None:
        """The first page rewritten with ``entries`` (PDF text) in place of its own."""
        self.objects[self.page_id] = _dictionary(self.page, entries)

    def set_catalog(self, **entries: bytes) -> None:
        """The catalog rewritten with ``entries`` (PDF text) in place of its own."""
        self.objects[self.catalog_id] = _dictionary(self.catalog, entries)


def _dictionary(attrs: dict[str, Any], entries: dict[str, bytes]) -> bytes:
    """The dictionary ``attrs`` written as PDF with ``entries`` in place of its own."""
    kept = b" ".join(pdf_value(_literal(k)) + b" " + pdf_value(v)
                     for k, v in attrs.items() if k not in entries)
    return b"<< " + kept + b" " + b" ".join(b"/%s %s" % (k.encode(), v)
                                            for k, v in entries.items()) + b" >>"


def edited(data: bytes, change: Callable[[Edit], None]) -> bytes | None:
    """``data`` with the edit ``change`` makes saved as an incremental update; None
    when pdfminer.six cannot read the document's first page (a mutant already broken)
    or the document is encrypted."""
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdfparser import PDFParser
    from pdfminer.pdftypes import PDFObjRef, resolve1

    try:
        document = PDFDocument(PDFParser(io.BytesIO(data)))
        if document.encryption:
            return None
        page = next(iter(PDFPage.create_pages(document)))
        if not isinstance(page.pageid, int):
            return None
        content = b"".join(s.get_data() for s in page.contents)
        trailer = document.xrefs[0].get_trailer()
        root = trailer.get("Root")
        if not isinstance(root, PDFObjRef):
            return None
        size = 1 + max(n for xref in document.xrefs for n in xref.get_objids())
        attrs = dict(page.attrs)
        attrs["Resources"] = page.resources  # inherited ones made the page's own
        edit = Edit(page.pageid, attrs, content, int(root.objid),
                    dict(resolve1(root)), size)
        change(edit)
    except Exception:  # pdfminer raises many types on a broken mutant
        return None
    at = data.rfind(b"startxref")
    match = re.match(rb"startxref\s+(\d+)", data[at:]) if at >= 0 else None
    prev = b" /Prev %s" % match[1] if match else b""
    out = bytearray(data if data.endswith(b"\n") else data + b"\n")
    offsets = {}
    for number, body in sorted(edit.objects.items()):
        offsets[number] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n" + b"".join(b"%d 1\n%010d 00000 n \n" % (n, offsets[n]) for n in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        edit.next_id, edit.catalog_id, prev, xref)
    return bytes(out)
