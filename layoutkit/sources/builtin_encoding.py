"""The text of the glyphs a simple font draws by its program's own (built-in) encoding.

A simple font with no `/ToUnicode` is read by the glyph names its `/Encoding` gives the
codes.  TeX's math fonts (CMSY, CMMI, CMEX, MSAM, … as Type 1 `FontFile` or CFF
`FontFile3`) come with no `/Encoding`: the names are those of the embedded program's
built-in encoding (`dup 48 /prime put`), many of them TeX's (`prime`,
`angbracketleft`, `negationslash`), not the Adobe Glyph List's.  Left alone, both
engines read such a code as its Latin letter ("0" for the prime) or `(cid:48)`.

This module reads the built-in encoding with fontTools and gives each code the text of
its glyph name, by the first of:

1. `fontTools.agl.toUnicode`: the Adobe Glyph List, `uniXXXX` names, ligatures `f_i`
   and suffixes `a.sc`;
2. the TeX names of `TEX_GLYPHS`;
3. the size variants of TeX's extension font (`summationdisplay`, `parenleftbigg`) by
   their operator or delimiter.

A name none of these knows has no text, and its code stays `(cid:N)` as pdfminer.six
names it.  Each engine asks once per font (`layoutkit.sources.pdfminer` per font
object, `layoutkit.sources.pdfium` per embedded font and document).  fontTools is
imported on the first call, not with the package (its CFF reader takes 35 ms to
import), so documents without Type 1 or CFF fonts never import it.
"""

from __future__ import annotations

import re
from functools import cache
from io import BytesIO

__all__ = ["DINGBAT_GLYPHS", "PI_GLYPHS", "STANDARD_SYMBOLIC", "TEX_GLYPHS", "builtin_names",
           "builtin_texts", "glyph_text", "is_agl_name", "is_standard_type1", "is_type1",
           "standard_symbolic_texts"]

TEX_GLYPHS: dict[str, str] = {
    "Ifractur": "\u2111", "Rfractur": "\u211c",
    "angbracketleft": "\u27e8", "angbracketright": "\u27e9",
    "arrowbothv": "\u2195", "arrowdblbothv": "\u21d5",
    "arrowleftbothalf": "\u21bd", "arrowlefttophalf": "\u21bc",
    "arrownortheast": "\u2197", "arrownorthwest": "\u2196",
    "arrowrightbothalf": "\u21c1", "arrowrighttophalf": "\u21c0",
    "arrowsoutheast": "\u2198", "arrowsouthwest": "\u2199",
    "asteriskcentered": "\u2217", "bardbl": "\u2225",
    "ceilingleft": "\u2308", "ceilingright": "\u2309",
    "circlecopyrt": "\u20dd", "circledivide": "\u2298", "circledot": "\u2299",
    "circleminus": "\u2296", "coproduct": "\u2a3f",
    "dblbracketleft": "\u27e6", "dblbracketright": "\u27e7", "diamondmath": "\u22c4",
    "epsilon1": "\u03f5", "epsiloninv": "\u03f6", "equivasymptotic": "\u224d",
    "flat": "\u266d", "floorleft": "\u230a", "floorright": "\u230b",
    "follows": "\u227b", "followsequal": "\u2ab0", "followsorcurly": "\u227d",
    "greatermuch": "\u226b", "intersectionsq": "\u2293", "latticetop": "\u22a4",
    "lessmuch": "\u226a", "lscript": "\u2113", "natural": "\u266e",
    "negationslash": "\u0338", "owner": "\u220b", "pi1": "\u03d6",
    "precedesequal": "\u2aaf", "precedesorcurly": "\u227c", "prime": "\u2032",
    "rho1": "\u03f1", "sharp": "\u266f", "similarequal": "\u2243",
    "slurabove": "\u2322", "slurbelow": "\u2323", "star": "\u22c6",
    "subsetsqequal": "\u2291", "supersetsqequal": "\u2292",
    "triangle": "\u25b3", "triangleinv": "\u25bd", "triangleleft": "\u25c1",
    "triangleright": "\u25b7", "turnstileleft": "\u22a2", "turnstileright": "\u22a3",
    "unionmulti": "\u228e", "unionsq": "\u2294", "vector": "\u20d7",
    "wreathproduct": "\u2240",
    # the AMS fonts' (MSAM, MSBM) and txfonts' symbols
    "greaterorsimilar": "\u2273", "lessorsimilar": "\u2272", "measuredangle": "\u2221",
    "notexistential": "\u2204", "planckover2pi": "\u210f", "planckover2pi1": "\u210f",
    "square": "\u25a1", "squaresolid": "\u25a0", "subsetnoteql": "\u228a",
    "supersetnoteql": "\u228b", "vec": "\u20d7",
}
"""TeX glyph names the Adobe Glyph List lacks, with their text.  The names and values
are the math symbols of lcdf-typetools' ``texglyphlist.txt`` (version 2.84, Eddie
Kohler; TeX Live's ``fonts/map/glyphlist/texglyphlist.txt``, which pdfTeX's
``glyphtounicode.tex`` also takes in), the first value where it gives several
(``prime`` is U+2032, not U+02B9); its entries for text fonts (small capitals,
``compwordmark``) and its invalid code points are left out, and so are the names
fontTools' Adobe Glyph List already maps (``phi``, ``dotlessj``, ``heart``).  The
symbols of the AMS fonts and txfonts that papers set (``greaterorsimilar`` for ≳,
``planckover2pi1`` for ℏ, ``vec``) read as the Unicode character of that name; the
pieces TeX builds a symbol from (CMSY's ``mapsto``, the bar of ↦; CMEX's extenders and
the parts of a tall radical) have none."""

PI_GLYPHS: dict[str, str] = {
    "H11001": "+", "H11002": "\u2212", "H11003": "\u00d7", "H11005": "=", "H11006": "\u00b1",
    "H20648": "\u2225",
    "H20849": "(", "H20850": ")", "H20851": "[", "H20852": "]",
    **{f"H{9251 + k}": chr(0x3B1 + k) for k in range(16)},
}
"""Names of glyphs in Linotype's Mathematical Pi and Universal Greek with Math Pi
fonts, which typesetters of physics journals (XPP) set brackets, operators and Greek
letters in, with their text.  The names are the fonts' own numbers, outside every
glyph list, so PDF readers name such codes ``(cid:N)``.  Each text was read from the
glyph as printed on a page of the development corpus (brackets, ∥, ×, ±, μ) or from
the formula it stands in (+, −, = in cos a + cos b = 2 cos …); the Greek lowercase
letters run in alphabetical order from H9251 (α), as μ (H9262) and π (H9266) show:
only α to π, before the final sigma could break the run."""

def _runs(runs: dict[int, str]) -> dict[int, str]:
    """A table of codes from runs of consecutive codes: each run's first code and the
    texts of its codes, one character each."""
    return {start + k: char for start, text in runs.items() for k, char in enumerate(text)}


STANDARD_SYMBOLIC: dict[str, dict[int, str]] = {
    "Symbol": _runs({
        32: " !∀#∃%&∋()∗+,−./0123456789:;<=>?≅ΑΒΧ∆ΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥς\u2126ΞΨΖ[∴]⊥_\uf8e5αβχδε"
            "φγηιϕκλµνοπθρστυϖωξψζ{|}∼",
        160: "€ϒ′≤⁄∞ƒ♣♦♥♠↔←↑→↓°±″≥×∝∂•÷≠≡≈…\uf8e6\uf8e7↵ℵℑℜ℘⊗⊕∅∩∪⊃⊇⊄⊂⊆∈∉∠∇\uf6da\uf6d9\uf6db∏√"
             "⋅¬∧∨⇔⇐⇑⇒⇓◊\u2329\uf8e8\uf8e9\uf8ea∑\uf8eb\uf8ec\uf8ed\uf8ee\uf8ef\uf8f0\uf8f1"
             "\uf8f2\uf8f3\uf8f4",
        241: "\u232a∫⌠\uf8f5⌡\uf8f6\uf8f7\uf8f8\uf8f9\uf8fa\uf8fb\uf8fc\uf8fd\uf8fe"}),
    "ZapfDingbats": _runs({
        32: " ✁✂✃✄☎✆✇✈✉☛☞✌✍✎✏✐✑✒✓✔✕✖✗✘✙✚✛✜✝✞✟✠✡✢✣✤✥✦✧★✩✪✫✬✭✮✯✰✱✲✳✴✵✶✷✸✹✺✻✼✽✾✿❀❁❂❃❄❅❆❇❈❉❊❋●❍■❏"
            "❐❑❒▲▼◆❖◗❘❙❚❛❜❝❞",
        128: "❨❩❪❫❬❭❮❯❰❱❲❳❴❵",
        161: "❡❢❣❤❥❦❧♣♦♥♠①②③④⑤⑥⑦⑧⑨⑩❶❷❸❹❺❻❼❽❾❿➀➁➂➃➄➅➆➇➈➉➊➋➌➍➎➏➐➑➒➓➔→↔↕➘➙➚➛➜➝➞➟➠➡➢➣➤➥➦➧➨➩➪➫➬➭➮➯",
        241: "➱➲➳➴➵➶➷➸➹➺➻➼➽➾"}),
}
"""The text of each code of the built-in encodings of the two symbolic standard fonts,
Symbol and ZapfDingbats (PDF 32000-1, annex D.5 and D.6), which a PDF names without
embedding them: as PDFium reads them, the same as ReportLab's ``symbol`` and
``zapfdingbats`` codecs (tests/test_engine_agreement.py); Symbol's pieces of large
brackets and its serif signs are in Adobe's private use area (U+F6D9–F8FE), as PDFium
gives them.  Without these, pdfminer.six reads such a font's codes by StandardEncoding,
as the Latin letters of the codes (``a`` for α, ``7`` for ✗)."""

DINGBAT_GLYPHS: dict[str, str] = dict(zip(
    (f"a{number}" for number in (
        1, 2, 202, 3, 4, 5, 119, 118, 117, 11, 12, 13, 14, 15, 16, 105, 17, 18, 19, 20, 21, 22,
        23, 24, 25, 26, 27, 28, 6, 7, 8, 9, 10, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
        41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62,
        63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 203, 75, 204, 76, 77, 78, 79, 81, 82,
        83, 84, 97, 98, 99, 100, 89, 90, 93, 94, 91, 92, 205, 85, 206, 86, 87, 88, 95, 96, 101,
        102, 103, 104, 106, 107, 108, 112, 111, 110, 109, 120, 121, 122, 123, 124, 125, 126,
        127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143,
        144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160,
        161, 163, 164, 196, 165, 192, 166, 167, 168, 169, 170, 171, 172, 173, 162, 174, 175,
        176, 177, 178, 179, 193, 180, 199, 181, 200, 182, 201, 183, 184, 197, 185, 194, 198,
        186, 195, 187, 188, 189, 190, 191)),
    [text for code, text in sorted(STANDARD_SYMBOLIC["ZapfDingbats"].items()) if code > 32],
    strict=True))
"""The glyph names of ITC Zapf Dingbats (``a1`` to ``a206``), which the Adobe Glyph List
leaves to a list of their own, with their text: the names of its built-in encoding,
code by code (ReportLab's ``ZapfDingbatsEncoding``), read as the codes are.  An
embedded ZapfDingbats program, or ``/Differences`` naming its glyphs, gives these
names; PDFium reads them, and pdfminer.six named them ``(cid:N)``."""


def standard_symbolic_texts(base_font: str) -> dict[int, str] | None:
    """The text of each code of the standard font named ``base_font`` when it is one of
    the two symbolic ones (`STANDARD_SYMBOLIC`; named exactly, as PDFium matches
    them); None for any other font."""
    return STANDARD_SYMBOLIC.get(base_font)


_SIZES = ("display", "text", "Bigg", "bigg", "Big", "big", "widest", "wider", "wide")
"""The endings of the size variants in TeX's extension fonts (CMEX):
``summationtext``/``summationdisplay``, ``parenleftbig`` … ``parenleftBigg``,
``hatwide`` … ``hatwidest``, longest first."""

_OPERATORS: dict[str, str] = {
    "coproduct": "\u2210", "contintegral": "\u222e",
    "logicaland": "\u22c0", "logicalor": "\u22c1",
    "intersection": "\u22c2", "union": "\u22c3",
    "circledot": "\u2a00", "circleplus": "\u2a01", "circlemultiply": "\u2a02",
    "unionmulti": "\u2a04", "squareunion": "\u2a06",
    "hat": "\u02c6",
}
"""The text of a CMEX size variant whose stem would read as another character: the
big operators are Unicode's n-ary ones (``logicalanddisplay`` is ⋀ U+22C0, where
``logicaland`` is the binary ∧; Mathematical Operators U+2200–22FF and Supplemental
Mathematical Operators U+2A00–2AFF), and ``hatwide`` is the circumflex.  Other
stems (``summation``, ``integral``, ``parenleft``, ``radical``, ``angbracketleft``)
are read as any glyph name is."""


def is_agl_name(name: str) -> bool:
    """Whether ``name`` is one of the Adobe Glyph List's own names, which every PDF
    reader maps to Unicode (PDFium too)."""
    from fontTools.agl import LEGACY_AGL2UV

    return name in LEGACY_AGL2UV


@cache
def glyph_text(name: str) -> str:
    """The text of the glyph named ``name``: by the Adobe Glyph List (fontTools), the
    TeX names, the Math Pi names, the Zapf Dingbats names, or as a CMEX size variant;
    empty when none of them knows it."""
    from fontTools.agl import toUnicode

    text: str = toUnicode(name)
    if text:
        return text
    if name in TEX_GLYPHS:
        return TEX_GLYPHS[name]
    if name in PI_GLYPHS:
        return PI_GLYPHS[name]
    if name in DINGBAT_GLYPHS:
        return DINGBAT_GLYPHS[name]
    for size in _SIZES:
        if name.endswith(size) and len(name) > len(size):
            stem = name[:-len(size)]
            return _OPERATORS.get(stem) or glyph_text(stem)
    return ""


def is_type1(program: bytes) -> bool:
    """Whether the font ``program`` is a Type 1 one (PFA or PFB layout)."""
    return program.startswith((b"%!", b"\x80\x01"))


def is_standard_type1(program: bytes) -> bool:
    """Whether the font ``program`` is a Type 1 one that says its encoding is
    StandardEncoding (most text fonts): read without a PostScript interpreter."""
    return is_type1(program) and _STANDARD.search(_clear_text(program)) is not None


def builtin_names(program: bytes) -> dict[int, str]:
    """The glyph name of each code of the font ``program``'s built-in encoding
    (``.notdef`` left out): a Type 1 program (``FontFile``, the PFA/PFB layout) or a
    bare CFF one (``FontFile3`` of subtype ``Type1C``).  Empty for any other program
    (TrueType, OpenType, a CID-keyed CFF), for a CFF font in the Expert encoding, and
    for one fontTools cannot read."""
    try:
        if is_type1(program):
            names = _type1_encoding(program)
        elif program[:1] == b"\x01":
            names = _cff_encoding(program)
        else:
            return {}
    except Exception:  # fontTools raises many unrelated types on broken programs
        return {}
    return {code: name for code, name in enumerate(names[:256])
            if isinstance(name, str) and name != ".notdef"}


def builtin_texts(program: bytes) -> dict[int, str]:
    """The text (`glyph_text`) of each code of the font ``program``'s built-in
    encoding, empty for a glyph name none of the tables knows."""
    return {code: glyph_text(name) for code, name in builtin_names(program).items()}


_STANDARD = re.compile(rb"/Encoding\s+StandardEncoding\s+def\b")
"""A Type 1 program's statement that its encoding is StandardEncoding (text fonts)."""


def _type1_encoding(program: bytes) -> list[str]:
    """The ``/Encoding`` of a Type 1 program, read from its clear-text part.

    fontTools' `T1Font` reads the whole program and decrypts
    every glyph (10 to 25 ms a TeX font); the encoding is defined before ``eexec``,
    so the part before it is given to the PostScript interpreter T1Font uses
    (`fontTools.misc.psLib.suckfont`), 1 to 2 ms.  The font dictionary is then
    on the operand stack (``currentdict end``), or still open on the dictionary
    stack, or defined as a font.  A program that says ``/Encoding StandardEncoding
    def`` (most text fonts) is not interpreted.
    """
    from fontTools.encodings.StandardEncoding import StandardEncoding
    from fontTools.misc.psLib import PSInterpreter, ps_dict, unpack_item

    clear = _clear_text(program)
    if _STANDARD.search(clear):  # what the interpreter would find, without it
        return list(StandardEncoding)
    interpreter = PSInterpreter()
    try:
        interpreter.interpret(clear)
        fonts = interpreter.dictstack[0]["FontDirectory"].value
        for item in [*reversed(interpreter.stack), *reversed(interpreter.dictstack[2:]),
                     *fonts.values()]:
            font = item.value if isinstance(item, ps_dict) else item
            if isinstance(font, dict) and "Encoding" in font:
                encoding = unpack_item(font["Encoding"])
                return list(encoding) if isinstance(encoding, list) else []
        return []
    finally:
        interpreter.close()  # its objects refer to each other


def _clear_text(program: bytes) -> bytes:
    """The clear-text part of a Type 1 program: up to ``eexec``, in the first segment
    of a PFB."""
    if program.startswith(b"\x80\x01"):
        program = program[6:6 + int.from_bytes(program[2:6], "little")]
    end = program.find(b"eexec")
    return program if end < 0 else program[:end]


def _cff_encoding(program: bytes) -> list[str]:
    """The encoding of the first font of a CFF program (fontTools' cffLib)."""
    from fontTools.cffLib import CFFFontSet
    from fontTools.encodings.StandardEncoding import StandardEncoding

    fonts = CFFFontSet()
    fonts.decompile(BytesIO(program), None, isCFF2=False)
    top = fonts.topDictIndex[0]
    if hasattr(top, "ROS"):  # CID-keyed: no encoding by glyph name
        return []
    encoding = top.Encoding
    if encoding == "StandardEncoding":
        return list(StandardEncoding)
    if not isinstance(encoding, list):
        return []
    names = list(encoding)
    offset = top.rawDict.get("Encoding", 0)
    if offset > 1 and program[offset] & 0x7F == 0:
        # Format 0 lists a code for each glyph from GID 1 on; cffLib drops code 0
        # (its own writer puts 0 for a glyph without a code), which TeX's CMSY gives
        # its minus sign.  Read as FreeType (and so PDFium) reads it: the last glyph
        # listed with code 0 has it.
        count = program[offset + 1]
        for gid, code in enumerate(program[offset + 2:offset + 2 + count], 1):
            if code == 0 and gid < len(top.charset):
                names[0] = top.charset[gid]
    return names
