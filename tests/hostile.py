"""Hostile and broken documents, made in a few lines each for the tests that hold the
command to one error line, a bounded time and a bounded memory on them (they are
small files that ask a reader for a great deal: nesting and fan-out bombs, a page
tree that repeats one page, a huge page, blank pages by the thousand)."""

from __future__ import annotations

import struct
import zlib

from tests.handmade import pdf_bytes

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def _stream(data: bytes, extra: bytes = b"", *, flate: bool = False) -> bytes:
    if flate:
        data = zlib.compress(data, 9)
        extra += b" /Filter /FlateDecode"
    return b"<< /Length %d%s >>\nstream\n%s\nendstream" % (len(data), extra, data)


def _page(contents: int, resources: bytes = b"", size: float = 612) -> bytes:
    return (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] /Contents %d 0 R "
            b"/Resources << /Font << /F1 3 0 R >> %s >> >>" % (size, size, contents, resources))


def text_pdf(lines: list[str], size: float = 612) -> bytes:
    """One page of ``lines`` in Helvetica, top to bottom."""
    ops = b"".join(b"BT /F1 10 Tf 72 %g Td (%s) Tj ET\n" % (size - 72 - 14 * k, t.encode())
                   for k, t in enumerate(lines))
    return pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R >>",
                      b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>", FONT,
                      _page(5, size=size), _stream(ops)])


def _between(objects: list[bytes], between: bool) -> bytes:
    """The PDF of ``objects`` (catalog, page tree, font, page 4); with ``between``, a
    page of text (``before`` and ``after``) on each side of page 4."""
    if between:
        first = len(objects) + 1
        objects = [*objects[:1], b"<< /Type /Pages /Kids [%d 0 R 4 0 R %d 0 R] /Count 3 >>"
                   % (first, first + 2), *objects[2:]]
        for k, word in enumerate((b"before", b"after")):
            objects += [_page(first + 2 * k + 1),
                        _stream(b"BT /F1 10 Tf 72 540 Td (%s) Tj ET\n" % word)]
    return pdf_bytes(objects)


def form_fan_out(depth: int = 20, fan: int = 2, *, between: bool = False) -> bytes:
    """A page drawing form 1, each form drawing the next ``fan`` times, ``depth`` deep:
    ``fan ** depth`` drawings of a line of text from a few hundred bytes (with
    ``between``, a page of text on each side of it)."""
    first = 6
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>", FONT,
               _page(5, b"/XObject << /X 6 0 R >>"), _stream(b"/X Do\n")]
    for level in range(depth):
        number = first + level
        if level + 1 < depth:
            body = b"q 1 0 0 1 1 1 cm /X Do Q\n" * fan
            resources = b" /Resources << /XObject << /X %d 0 R >> >>" % (number + 1)
        else:
            body = b"BT /F1 10 Tf 72 700 Td (bomb) Tj ET\n"
            resources = b" /Resources << /Font << /F1 3 0 R >> >>"
        objects.append(_stream(body, b" /Type /XObject /Subtype /Form /BBox [0 0 612 792]"
                                     + resources))
    return _between(objects, between)


def forms_drawing_each_other(draws: int = 1) -> bytes:
    """Two forms each drawing the other (the second ``draws`` times): a cycle a reader
    must not follow for ever (PDFium follows it to its nesting limit, where two draws
    make a million)."""
    def form(other: int) -> bytes:
        return _stream(b"/X Do " * (draws if other == 6 else 1)
                       + b"BT /F1 10 Tf 72 700 Td (loop) Tj ET\n",
                       b" /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << "
                       b"/XObject << /X %d 0 R >> /Font << /F1 3 0 R >> >>" % other)
    return pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R >>",
                      b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>", FONT,
                      _page(5, b"/XObject << /X 6 0 R >>"), _stream(b"/X Do\n"),
                      form(7), form(6)])


def appearance_loop() -> bytes:
    """A page with no text whose one annotation's appearance is a form drawing a form
    that draws the first twice: drawn when the page is rendered for OCR (PDFium
    aborted under 4 GB), not when its text is read."""
    def form(other: int, draws: int) -> bytes:
        return _stream(b"/X Do " * draws + b"0 g 0 0 5 5 re f\n",
                       b" /Type /XObject /Subtype /Form /BBox [0 0 612 792] "
                       b"/Resources << /XObject << /X %d 0 R >> >>" % other)
    return pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R >>",
                      b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>", FONT,
                      _page(5)[:-2] + b" /Annots [8 0 R] >>",
                      _stream(b"0 g 100 600 200 20 re f\n"), form(7, 1), form(6, 2),
                      b"<< /Type /Annot /Subtype /Square /Rect [0 0 612 792] "
                      b"/AP << /N 6 0 R >> /F 4 >>"])


def form_chain(depth: int = 40, *, between: bool = False) -> bytes:
    """A page drawing form 1, each form drawing the next once, ``depth`` deep (with
    ``between``, a page of text on each side of it)."""
    return form_fan_out(depth, 1, between=between)


def many_annotations(count: int = 100_000, *, between: bool = False) -> bytes:
    """One page whose ``/Annots`` (an indirect array) lists one square annotation
    ``count`` times (with ``between``, a page of text on each side of it)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>", FONT,
               _page(5)[:-2] + b" /Annots 6 0 R >>", _stream(b"0 g 100 600 200 20 re f\n"),
               b"[" + b"7 0 R " * count + b"]",
               b"<< /Type /Annot /Subtype /Square /Rect [100 100 110 110] /F 4 >>"]
    return _between(objects, between)


def many_resources(count: int = 500_000, kind: bytes = b"XObject", *,
                   between: bool = False) -> bytes:
    """One page of a line of text whose resources (an object of their own) name
    ``count`` fonts or XObjects besides its font, all one object, none of them used
    (with ``between``, a page of text on each side of it)."""
    target = b"3 0 R" if kind == b"Font" else b"6 0 R"
    named = b" ".join(b"/R%d %s" % (k, target) for k in range(count))
    fonts = b"/F1 3 0 R " + named if kind == b"Font" else b"/F1 3 0 R"
    others = b"" if kind == b"Font" else b"/%s << %s >>" % (kind, named)
    return _between([b"<< /Type /Catalog /Pages 2 0 R >>",
                     b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>", FONT,
                     b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
                     b"/Resources 7 0 R >>",
                     _stream(b"BT /F1 10 Tf 72 700 Td (hello) Tj ET\n"),
                     _stream(b"0 g 0 0 10 10 re f", b" /Type /XObject /Subtype /Form "
                                                    b"/BBox [0 0 10 10]"),
                     b"<< /Font << %s >> %s >>" % (fonts, others)], between)


def many_operators(count: int = 5_000_000, *, between: bool = False) -> bytes:
    """One page whose Flate-compressed content stream holds ``count`` text-showing
    operators (a few kilobytes that decompress to tens of megabytes; with ``between``,
    a page of text on each side of it)."""
    ops = b"BT /F1 1 Tf 10 10 Td " + b"(a) Tj " * count + b"ET\n"
    return _between([b"<< /Type /Catalog /Pages 2 0 R >>",
                     b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>", FONT,
                     _page(5), _stream(ops, flate=True)], between)


def repeated_kids(times: int = 100_000) -> bytes:
    """A page tree whose ``/Kids`` holds the same page ``times`` times."""
    kids = b"[" + b"4 0 R " * times + b"]"
    return pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R >>",
                      b"<< /Type /Pages /Kids %s /Count %d >>" % (kids, times), FONT,
                      _page(5), _stream(b"BT /F1 10 Tf 72 700 Td (once) Tj ET\n")])


def repeated_empty_node(times: int = 5) -> bytes:
    """A page of text whose page tree lists an empty ``/Pages`` node (no kids, count 0)
    ``times`` times beside the page, as a report's tree does: nothing is read twice."""
    kids = b"[4 0 R " + b"6 0 R " * times + b"]"
    return pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R >>",
                      b"<< /Type /Pages /Kids %s /Count 1 >>" % kids, FONT,
                      _page(5), _stream(b"BT /F1 10 Tf 72 540 Td (once) Tj ET\n"),
                      b"<< /Type /Pages /Parent 2 0 R /Kids [] /Count 0 >>"])


def blank_pages(count: int = 5000, size: float = 612) -> bytes:
    """``count`` pages with empty content streams, ``size`` points square."""
    kids = b" ".join(b"%d 0 R" % (4 + k) for k in range(count))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, count), FONT]
    content = 4 + count
    objects += [_page(content, size=size) for _ in range(count)]
    objects.append(_stream(b""))
    return pdf_bytes(objects)


def png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` grey pixels, with one tiny
    (wrong) data chunk: a decompression bomb's calling card."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0,
                                                               0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""))


def drawn_page(size: float = 14400) -> bytes:
    """One page ``size`` points square with a filled triangle on it and no text: a
    page that shows something, so it goes to OCR, rendered within the pixel budget."""
    ops = b"0 g %g %g m %g %g l %g %g l f\n" % (size * 0.1, size * 0.1, size * 0.5,
                                                 size * 0.9, size * 0.9, size * 0.1)
    return pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R >>",
                      b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>", FONT,
                      _page(5, size=size), _stream(ops)])


def one_line_pages(count: int = 5000) -> bytes:
    """``count`` pages of one line of text each (``page N``): a long document whose
    pages are each cheap, read in full under a memory cap."""
    kids = b" ".join(b"%d 0 R" % (4 + 2 * k) for k in range(count))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, count), FONT]
    for k in range(count):
        objects += [_page(5 + 2 * k),
                    _stream(b"BT /F1 10 Tf 72 540 Td (page %d) Tj ET\n" % (k + 1))]
    return pdf_bytes(objects)



def _image_page(header: bytes, data: bytes) -> bytes:
    """One page filled by an image XObject of dictionary entries ``header`` and
    stream ``data``, and no text."""
    return pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R >>",
                      b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>", FONT,
                      _page(5, b"/XObject << /I 6 0 R >>"),
                      _stream(b"q 612 0 0 612 0 0 cm /I Do Q\n"),
                      _stream(data, b" /Type /XObject /Subtype /Image " + header)])


def _jpeg(width: int, height: int) -> bytes:
    """A baseline JPEG whose frame header claims ``width`` x ``height`` RGB pixels,
    with one-code Huffman tables and a few zero bytes of scan."""
    def segment(marker: int, body: bytes) -> bytes:
        return struct.pack(">BBH", 0xFF, marker, len(body) + 2) + body
    components = b"".join(struct.pack(">BBB", c, 0x11, 0) for c in (1, 2, 3))
    table = bytes([1] + [0] * 15) + b"\x00"
    return (b"\xff\xd8" + segment(0xDB, b"\x00" + b"\x01" * 64)
            + segment(0xC0, struct.pack(">BHHB", 8, height, width, 3) + components)
            + segment(0xC4, b"\x00" + table) + segment(0xC4, b"\x10" + table)
            + segment(0xDA, b"\x03\x01\x00\x02\x00\x03\x00\x00\x3f\x00")
            + b"\x00" * 1000 + b"\xff\xd9")


def _jbig2(width: int, height: int) -> bytes:
    """An embedded JBIG2 stream: a page information segment and an immediate lossless
    generic region (MMR), both ``width`` x ``height``, with 64 bytes of region data."""
    def segment(number: int, kind: int, body: bytes) -> bytes:
        return struct.pack(">IBBBI", number, kind, 0, 1, len(body)) + body
    region = struct.pack(">IIIIB", width, height, 0, 0, 0) + b"\x01" + b"\x00" * 64
    return (segment(0, 48, struct.pack(">IIIIBH", width, height, 0, 0, 0, 0))
            + segment(1, 38, region))


def image_bomb(kind: str, side: int, data_bytes: int = 1 << 20) -> bytes:
    """One page drawing one image whose dictionary claims ``side`` x ``side`` pixels
    (billions) from a small stream: ``kind`` is ``dct`` (a JPEG header), ``ccitt`` (a
    Group 4 fax of all-``V0`` rows, one bit a row), ``flate`` (``data_bytes`` zeros,
    compressed, a part of the grey image) or ``jbig2`` (a generic region)."""
    size = b"/Width %d /Height %d" % (side, side)
    if kind == "dct":
        return _image_page(size + b" /ColorSpace /DeviceRGB /BitsPerComponent 8 "
                                  b"/Filter /DCTDecode", _jpeg(side, side))
    if kind == "ccitt":
        return _image_page(size + b" /ColorSpace /DeviceGray /BitsPerComponent 1 "
                                  b"/Filter /CCITTFaxDecode /DecodeParms << /K -1 "
                                  b"/Columns %d /Rows %d /BlackIs1 true >>" % (side, side),
                           b"\xff" * (side // 8) + b"\x00\x10\x01")
    if kind == "flate":
        return _image_page(size + b" /ColorSpace /DeviceGray /BitsPerComponent 8 "
                                  b"/Filter /FlateDecode", zlib.compress(b"\x00" * data_bytes, 9))
    return _image_page(size + b" /ColorSpace /DeviceGray /BitsPerComponent 1 "
                              b"/Filter /JBIG2Decode", _jbig2(side, side))


def deep_outline(depth: int = 100_000) -> bytes:
    """A page of one line of text (``outlined``) whose outline (bookmarks) nests
    ``depth`` items each inside the one before."""
    first = 6
    items = []
    for level in range(depth):
        number = first + level
        parent = 5 if level == 0 else number - 1
        child = (b" /First %d 0 R /Last %d 0 R /Count 1" % (number + 1, number + 1)
                 if level + 1 < depth else b"")
        items.append(b"<< /Title (Level %d) /Parent %d 0 R /Dest [4 0 R /Fit]%s >>"
                     % (level, parent, child))
    return pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R /Outlines 5 0 R "
                      b"/PageMode /UseOutlines >>",
                      b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>", FONT,
                      _page(first + depth),
                      b"<< /Type /Outlines /First 6 0 R /Last 6 0 R /Count %d >>" % depth,
                      *items,
                      _stream(b"BT /F1 10 Tf 72 540 Td (outlined) Tj ET\n")])


def type3_glyph_program(segments: int = 1_000_000, draws: int = 200) -> bytes:
    """A page of a line of Helvetica (``visible``) and a line of ``draws`` glyphs of a
    Type 3 font whose one glyph program strokes ``segments`` line segments (a few
    kilobytes, compressed, that are tens of megabytes of operators)."""
    program = b"1000 0 0 0 1000 1000 d1 " + b"0 0 m 1 1 l " * segments + b"S\n"
    ops = (b"BT /F1 10 Tf 72 540 Td (visible) Tj ET\n"
           b"BT /T3 2 Tf 72 500 Td (" + b"g" * draws + b") Tj ET\n")
    return pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R >>",
                      b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>", FONT,
                      b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
                      b"/Resources << /Font << /F1 3 0 R /T3 6 0 R >> >> >>",
                      _stream(ops),
                      b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] "
                      b"/FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /g 7 0 R >> "
                      b"/Encoding << /Type /Encoding /Differences [103 /g] >> "
                      b"/FirstChar 103 /LastChar 103 /Widths [1000] >>",
                      _stream(program, flate=True)])


def glyph_rows(content_bytes: int = 3_990_000, row: int = 390) -> bytes:
    """One page whose content stream (uncompressed, under ``content_bytes``) shows rows
    of ``row`` glyphs (``x``) of a 1-point font 0.1 point apart, starting near the top:
    millions of glyphs, most of them below the page."""
    line = b"(" + b"x" * row + b") '\n"
    head = b"BT /F1 1 Tf 0.1 TL 10 600 Td\n"
    count = (content_bytes - len(head) - 3) // len(line)
    return pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R >>",
                      b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>", FONT,
                      _page(5), _stream(head + line * count + b"ET\n")])
