"""Simple fonts read by their embedded program's built-in encoding, in both engines.

TeX's math fonts come without ``/ToUnicode`` or ``/Encoding``: the glyph names are in
the font program's own encoding, and many are TeX's (``prime``, ``angbracketleft``),
not the Adobe Glyph List's.  Hand-made pages embed a CFF font (``FontFile3``) made
here with fontTools; the TeX papers of the corpus hold Type 1 ones (``FontFile``).
"""

from __future__ import annotations

from collections import Counter
from io import BytesIO
from pathlib import Path

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen

import layoutkit
from layoutkit.config import LayoutConfig
from layoutkit.model import PageGlyphs
from layoutkit.sources import differences, open_source
from layoutkit.sources.builtin_encoding import builtin_names, builtin_texts, glyph_text
from tests.handmade import pdf_bytes

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fixtures" / "corpus"
ENGINES = ("pdfminer", "pdfium")

BUILTIN = {0: "minus", 5: "diamondmath", 48: "prime", 54: "negationslash", 65: "A",
           66: "notaglyphname", 88: "summationdisplay", 104: "angbracketleft",
           105: "angbracketright"}
"""The built-in encoding of the hand-made font: code 0 (which cffLib does not read
itself), a control code, TeX names, a CMEX size variant, a letter, and a name
nothing maps."""

DRAWN = bytes([65, 48, 104, 105, 54, 61, 5, 88, 66, 0])
"""The codes the hand-made pages draw, in order (61 is not in the built-in encoding)."""


def cff_program(encoding: dict[int, str]) -> bytes:
    """A bare CFF font program (``FontFile3``, subtype ``Type1C``) whose glyphs are
    boxes, with ``encoding`` as its built-in encoding."""
    names = [".notdef", *encoding.values()]
    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({})
    glyphs = {}
    for name in names:
        pen = T2CharStringPen(500, None)
        pen.moveTo((50, 0))
        pen.lineTo((450, 0))
        pen.lineTo((450, 700))
        pen.lineTo((50, 700))
        pen.closePath()
        glyphs[name] = pen.getCharString()
    builder.setupCFF("TestMath", {"FullName": "TestMath"}, glyphs, {})
    fonts = builder.font["CFF "].cff
    codes = [".notdef"] * 256
    for code, name in encoding.items():
        codes[code] = name
    fonts.topDictIndex[0].Encoding = codes
    out = BytesIO()
    fonts.compile(out, builder.font)
    return out.getvalue()


def type1_header(encoding: bytes) -> bytes:
    """The clear-text part of a Type 1 program defining ``encoding`` (PostScript),
    and a stand-in for the encrypted part, which is not read."""
    return (b"%!PS-AdobeFont-1.0: TestMath 001.000\n"
            b"11 dict begin\n/FontName /TestMath def\n/PaintType 0 def\n"
            b"/FontMatrix [0.001 0 0 0.001 0 0] readonly def\n"
            b"/Encoding " + encoding + b" def\n"
            b"currentdict end\ncurrentfile eexec\n" + bytes(range(256)))


def font_pdf(path: Path, font: bytes, *extra: bytes, drawn: bytes = DRAWN,
             beside: bytes = b"") -> Path:
    """A page drawing ``drawn`` in the hand-made CFF font, whose font dictionary has the
    entries ``font`` (an /Encoding, a /ToUnicode) besides its own; ``extra`` are
    further objects, numbered from 8 on; where ``beside`` is given, the codes it holds
    drawn after it in a second font of the same program (/F2, numbered after them)."""
    content = b"BT /F1 12 Tf 20 100 Td <" + drawn.hex().encode() + b"> Tj ET"
    second = 8 + len(extra)
    if beside:
        content += b"\nBT /F2 12 Tf 20 50 Td <" + beside.hex().encode() + b"> Tj ET"
    path.write_bytes(pdf_bytes([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] "
        b"/Resources << /Font << /F1 5 0 R%s >> >> /Contents 4 0 R >>" % (
            b" /F2 %d 0 R" % second if beside else b""),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        *_font_objects(5, b"ABCDEF+TestMath", font),
        *extra,
        *(_font_objects(second, b"GHIJKL+Other", b"") if beside else ())]))
    return path


def _font_objects(number: int, name: bytes, entries: bytes) -> tuple[bytes, bytes, bytes]:
    """Object ``number``, a font named ``name`` of the hand-made CFF program whose
    dictionary has the entries ``entries`` besides its own, and its descriptor and
    program as the next two objects."""
    program = cff_program(BUILTIN)
    return (b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /FirstChar 0 /LastChar 127 "
            b"/Widths [%s] /FontDescriptor %d 0 R %s >>" % (
                name, b" ".join([b"500"] * 128), number + 1, entries),
            b"<< /Type /FontDescriptor /FontName /%s /Flags 4 /FontBBox [0 0 500 700] "
            b"/ItalicAngle 0 /Ascent 700 /Descent 0 /CapHeight 700 /StemV 80 "
            b"/FontFile3 %d 0 R >>" % (name, number + 2),
            b"<< /Subtype /Type1C /Length %d >>\nstream\n%s\nendstream" % (
                len(program), program))


def texts(path: Path, engine: str) -> list[str]:
    """The glyph texts ``engine`` reads on the first page of ``path``."""
    with open_source(path, engine) as source:
        return [g.text for g in next(iter(source.pages([1]))).glyphs]


# ------------------------------------------------------------------- glyph names


@pytest.mark.parametrize(("name", "text"), [
    ("minus", "−"), ("A", "A"), ("uni2032", "′"), ("f_i", "fi"), ("a.sc", "a"),  # the AGL
    ("prime", "′"), ("angbracketleft", "⟨"), ("angbracketright", "⟩"),  # TeX's
    ("negationslash", "\u0338"), ("lscript", "ℓ"), ("epsilon1", "ϵ"), ("star", "⋆"),
    ("summationdisplay", "∑"), ("integraltext", "∫"), ("logicalanddisplay", "⋀"),  # CMEX
    ("uniontext", "⋃"), ("parenleftbigg", "("), ("angbracketrightBig", "⟩"),
    ("radicalbig", "√"), ("tildewide", "˜"), ("hatwider", "ˆ"),
    ("greaterorsimilar", "≳"), ("planckover2pi1", "ℏ"), ("squaresolid", "■"),  # AMS
    ("H20849", "("), ("H11006", "±"), ("H9262", "μ"), ("H20648", "∥"),  # Math Pi's
    ("vextendsingle", ""), ("mapsto", ""), ("notaglyphname", ""), ("big", ""),  # none
    ("H9267", ""),  # Math Pi's Greek after π: not known
])
def test_builtin_encoding_glyph_text(name: str, text: str) -> None:
    """Glyph names are read by the Adobe Glyph List, TeX's names (the AMS fonts'
    too), Math Pi's numbers and CMEX's sizes."""
    assert glyph_text(name) == text


def test_builtin_encoding_reads_cff_programs() -> None:
    """A CFF program's own encoding, code 0 included; other programs have none."""
    assert builtin_names(cff_program(BUILTIN)) == BUILTIN
    assert builtin_texts(cff_program({48: "prime", 66: "notaglyphname"})) == {
        48: "′", 66: ""}
    assert builtin_names(b"\x00\x01\x00\x00" + bytes(200)) == {}  # TrueType
    assert builtin_names(b"\x01\x00\x04\x02garbage") == {}  # not a CFF program after all


def test_builtin_encoding_reads_type1_programs() -> None:
    """A Type 1 program's encoding, an array or StandardEncoding, from its clear text."""
    array = (b"256 array 0 1 255 {1 index exch /.notdef put} for "
             b"dup 48 /prime put dup 104 /angbracketleft put readonly")
    assert builtin_names(type1_header(array)) == {48: "prime", 104: "angbracketleft"}
    standard = builtin_names(type1_header(b"StandardEncoding"))
    assert (standard[65], standard[48], 5 in standard) == ("A", "zero", False)
    assert builtin_names(b"%!PS-AdobeFont-1.0 {{{ not a font") == {}


# ------------------------------------------------------------------- hand-made pages


@pytest.mark.parametrize("engine", ENGINES)
def test_builtin_encoding_without_encoding(tmp_path: Path, engine: str) -> None:
    """Without /Encoding or /ToUnicode the codes are read by the program's built-in
    encoding: TeX's names as their symbols, code 0 too, and a code whose name nothing
    maps as ``(cid:N)``.  A code the built-in encoding lacks (61) draws no glyph;
    PDFium reads it by StandardEncoding, and so does pdfminer."""
    path = font_pdf(tmp_path / "builtin.pdf", b"")
    assert texts(path, engine) == ["A", "′", "⟨", "⟩", "\u0338", "=", "⋄", "∑",
                                   "(cid:66)", "−"]


@pytest.mark.parametrize("engine", ENGINES)
def test_builtin_encoding_under_a_base_encoding(tmp_path: Path, engine: str) -> None:
    """A base encoding names the codes it has names for ("0" for 48, "=" for 61); the
    codes it has none for are read by the built-in encoding."""
    path = font_pdf(tmp_path / "winansi.pdf", b"/Encoding /WinAnsiEncoding")
    assert texts(path, engine) == ["A", "0", "h", "i", "6", "=", "⋄", "X", "B", "−"]


@pytest.mark.parametrize("engine", ENGINES)
def test_builtin_encoding_after_to_unicode(tmp_path: Path, engine: str) -> None:
    """A /ToUnicode map wins where it maps the code."""
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
            b"/CMapName /Test def /CMapType 2 def 1 begincodespacerange <00> <FF> "
            b"endcodespacerange 2 beginbfchar <30> <2033> <68> <0078> endbfchar endcmap "
            b"CMapName currentdict /CMap defineresource pop end end")
    path = font_pdf(tmp_path / "tounicode.pdf", b"/ToUnicode 8 0 R",
                    b"<< /Length %d >>\nstream\n%s\nendstream" % (len(cmap), cmap))
    assert texts(path, engine)[:4] == ["A", "″", "x", "⟩"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("name", "text"), [("angbracketleft", "⟨"), ("H20849", "(")])
def test_builtin_encoding_differences_names(tmp_path: Path, engine: str, name: str,
                                            text: str) -> None:
    """A name outside the Adobe Glyph List in /Differences (TeX's, Linotype Math Pi's)
    is read by the same tables in both engines.  PDFium's API gives no /Differences:
    on a page where PDFium read no Unicode for a glyph (here code 66), the
    pdfium engine reads the document's /Differences itself
    (:mod:`layoutkit.sources.differences`)."""
    path = font_pdf(tmp_path / "differences.pdf",
                    b"/Encoding << /Differences [61 /%s] >>" % name.encode())
    assert texts(path, engine)[5] == text
    assert texts(path, "pdfium")[8] == "(cid:66)"  # what sends the pdfium engine there


@pytest.mark.parametrize("engine", ENGINES)
def test_builtin_encoding_ligature_named_at_a_punctuation_code(tmp_path: Path,
                                                               engine: str) -> None:
    """A ligature named ``f_i`` in /Differences at a punctuation code ('=' here; '!' in
    the fonts of InDesign pages) is read as "fi" by both engines, on a page where no
    other glyph lacks its Unicode: PDFium gives such a code as itself, and the pdfium
    engine asks whether it read a Unicode for it before it reads the /Differences."""
    path = font_pdf(tmp_path / "ligature.pdf", b"/Encoding << /Differences [61 /f_i] >>",
                    drawn=bytes([65, 61, 65, 46]))
    assert texts(path, engine) == ["A", "fi", "A", "."]


def test_builtin_encoding_unknown_names_at_punctuation_codes_keep_the_codes(
        tmp_path: Path) -> None:
    """A font whose ``/Differences`` names its glyphs by a scheme of its own ('C44',
    'C65'), at their ASCII codes, is read by the pdfium engine as PDFium gives it, the
    codes themselves, on a page that draws punctuation too: the names have no text to
    read instead (pdfminer names them ``(cid:N)``)."""
    path = font_pdf(tmp_path / "own-names.pdf", OWN_NAMES, drawn=b"HA,A.")
    assert texts(path, "pdfium") == ["H", "A", ",", "A", "."]
    # beside a glyph of another font PDFium reads no Unicode for (code 1: a control code)
    path = font_pdf(tmp_path / "beside.pdf", OWN_NAMES, drawn=b"HA,A.", beside=b"\x01")
    assert texts(path, "pdfium") == ["H", "A", ",", "A", ".", "(cid:1)"]


OWN_NAMES = b"/Encoding << /Differences [44 /C44 46 /C46 65 /C65 72 /C72] >>"
"""An encoding naming the glyphs of some ASCII codes by a producer's scheme of its own."""


def test_builtin_encoding_math_pi_glyphs_on_a_physics_letter() -> None:
    """The brackets, ±, × and μ an XPP-typeset letter sets in Linotype's Math Pi fonts,
    named in /Differences, are read as printed by both engines (they were
    ``(cid:N)``)."""
    path = CORPUS / "appl-phys-lett-2011-spin-polarized-tip.pdf"
    for engine in ENGINES:
        with open_source(path, engine) as source:
            page = next(iter(source.pages([2])))
        glyphs = Counter(g.text for g in page.glyphs)
        assert not [t for t in glyphs if t.startswith("(cid:")], engine
        assert (glyphs["±"], glyphs["μ"], glyphs["×"], glyphs["∥"]) == (1, 1, 1, 3), engine


def test_differences_scanned_once_for_a_document_read_in_chunks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pdfium engine scans the whole document for /Differences names once, not at
    each of the openings a document read in chunks makes (one a chunk: a 5,000-page
    document was scanned 157 times, most of its reading time), and each page still
    gets its Math Pi glyphs."""
    scans: list[Path] = []
    scanned = differences._scanned

    def counted(path: Path) -> dict[differences.FontName, dict[int, str]]:
        scans.append(path)
        return scanned(path)

    monkeypatch.setattr(differences, "_scanned", counted)
    monkeypatch.setattr(differences, "_SCANNED", {})
    path = CORPUS / "appl-phys-lett-2011-spin-polarized-tip.pdf"
    config = LayoutConfig().replace(stream_chunk_pages=1)
    pages = list(layoutkit.iter_pages(path, config, engine="pdfium"))
    assert [page.page_no for page in pages] == [1, 2, 3]
    assert "±" in pages[1].text()
    assert scans == [path]


# ------------------------------------------------------------------- TeX papers


def symbols(page: PageGlyphs) -> Counter[str]:
    """The page's glyphs that are one of the math symbols of TEX_PAGES, or a code
    named ``(cid:N)``."""
    return Counter(g.text for g in page.glyphs
                   if g.text in "′⟨⟩\u0338⋀∑√˜" or g.text.startswith("(cid:"))


TEX_PAGES = {
    ("ieee-dsn-2011-zab-broadcast", 3): Counter({"′": 19, "⟨": 2, "⟩": 2, "\u0338": 2,
                                                 "⋀": 2}),
    ("gretsi-2025-kravchuk-transform", 1): Counter({"∑": 1, "√": 1, "⟨": 1, "⟩": 1}),
    ("gretsi-2025-kravchuk-transform", 2): Counter({"˜": 7, "(cid:12)": 6, "(cid:55)": 3,
                                                    "√": 4, "∑": 2}),
    ("gretsi-2025-kravchuk-transform", 4): Counter({"˜": 1}),
}
"""The math symbols each engine reads on pages of the TeX papers (Computer Modern in
Type 1 ``FontFile`` programs without /Encoding): primes, angle brackets, the slash
of ≠, ⋀ and ∑ from CMEX, √ and the wide tilde; CMEX's ``vextendsingle`` (a piece of
a tall bar) and CMSY's ``mapsto`` (the bar of ↦) have no text and stay ``(cid:N)``."""


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("document", "page_no"), list(TEX_PAGES))
def test_builtin_encoding_tex_papers(document: str, page_no: int, engine: str) -> None:
    """Both engines read the math symbols of the TeX papers, the same."""
    with open_source(CORPUS / f"{document}.pdf", engine) as source:
        page = next(iter(source.pages([page_no])))
    assert symbols(page) == TEX_PAGES[(document, page_no)]
