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


def one_page(content: bytes, resources: bytes, *extra: bytes,
             size: tuple[int, int] = (612, 792)) -> bytes:
    """A one-page PDF of ``size`` points drawing ``content`` with ``resources`` (a
    dictionary's source, its objects referred to from 5 on); ``extra`` are further
    objects, numbered from 5 on."""
    return pdf_bytes([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources %s /Contents 4 0 R >>"
        % (*size, resources),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        *extra,
    ])
