"""Hand-written PDFs for tests that need exact content-stream control."""

from __future__ import annotations

from collections.abc import Sequence


def pdf_bytes(objects: Sequence[bytes], version: bytes = b"1.7") -> bytes:
    """A PDF file of ``objects`` (numbered from 1, the first being the catalog) with a
    correct cross-reference table."""
    out = bytearray(b"%PDF-" + version + b"\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)
