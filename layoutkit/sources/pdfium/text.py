"""The glyphs of a page's text, read from PDFium's text page.

They are boxed as pdfminer's engine boxes them (see `layoutkit.sources.pdfium`).
"""

from __future__ import annotations

import ctypes
import math
import string
import unicodedata
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ...model import (
    CODE_POINTS,
    NO_GLYPHS,
    Glyphs,
    char_test,
    code_points,
    is_right_to_left,
    spell,
)
from ..base import FORCE_BOLD, box_descent, direction_of, font_weight
from ..builtin_encoding import (
    builtin_names,
    glyph_text,
    is_agl_name,
    is_standard_type1,
    is_type1,
)
from ..differences import FontName, unlisted_differences
from .bindings import (
    address,
    argument,
    font_of,
    font_size_at,
    is_generated,
    is_hyphen,
    loose_box_at,
    matrix_at,
    origin_at,
    out_params,
    pdfium_c,
    pointer,
    text_object_at,
    unicode_error_at,
)
from .frame import Frame

__all__ = ["BuiltinEncodings", "TextReader"]

_HYPHENS = frozenset(("\ufffe", "\x02"))
"""What PDFium's page text holds for a hyphen it may mark as a line-end hyphen."""

_ZERO_WIDTH = frozenset(("Mn", "Me", "Cf"))
"""The Unicode categories of characters that take no room of their own: combining
marks and format characters."""

_UNMAPPED = frozenset(map(chr, range(0x20)))
"""Characters that are a font's code rather than text when PDFium's text page says
the code has no Unicode value (``FPDFText_HasUnicodeMapError``): the control
characters (PDFium's own line breaks are generated, and dropped before)."""

def _char_texts(textpage: Any, count: int) -> str | None:
    """The page's text, one character per char index, or None when it does not line up.

    PDFium's text buffer holds one UTF-16 code unit for every char index, its
    generated spaces and line breaks included, so one bulk ``FPDFText_GetText``
    replaces a call per character.  A character above U+FFFF takes two char indices,
    its surrogates, and stays two characters here (joined into one glyph by
    `TextReader.glyphs`).  Characters PDFium keeps out of the buffer (control characters)
    would shift everything after them; the buffer is then shorter, or its last char
    index maps elsewhere, and the caller asks for each character instead.
    """
    if count == 0:
        return ""
    buffer = (ctypes.c_ushort * (count + 1))()  # a code unit a char index, and the end
    written = int(pdfium_c.FPDFText_GetText(textpage, 0, count, buffer))
    text = spell(np.frombuffer(bytes(buffer), dtype=np.uint16)[: max(written - 1, 0)]
                 .astype(np.int64))
    aligned = (len(text) == count
               and pdfium_c.FPDFText_GetTextIndexFromCharIndex(textpage, count - 1) == count - 1)
    return text if aligned else None


_FontKey = tuple[int, str, int]
"""A font of a document: its handle, base name and the size of its program."""


class BuiltinEncodings:
    """The text of the codes of a document's fonts that PDFium may read no Unicode
    for, by font: the codes whose glyph name in the embedded program's built-in
    encoding is not one of the Adobe Glyph List's (which PDFium maps itself), with
    the text `builtin_encoding` gives the name (empty for none).

    A font's program is read once a document: PDFium keeps a document's fonts, so a
    font has the same handle on every page; its base name and the size of its program
    go with the handle into the key, should a handle be reused for another font.  A
    CFF program is read when the font is first met (0.1 to 0.4 ms), and so is a Type 1
    one in StandardEncoding; any other Type 1 one, whose encoding takes a PostScript
    interpreter (1 to 2 ms a TeX font), once PDFium has read no Unicode for one of its
    characters (`TextReader._builtin`), which for most fonts never happens.
    Fonts that are not embedded, or whose program has no built-in encoding by glyph
    name (TrueType, OpenType), or only names of the Adobe Glyph List (most text
    fonts), get none, and their characters are read as PDFium gives them.  fontTools
    is imported with the first program a process reads (35 ms, once).

    Codes a font's ``/Differences`` names by a glyph outside the Adobe Glyph List
    (`differences`) come out as ``(cid:N)``, or as a punctuation code PDFium reads no
    Unicode for (`unmapped`); the document at ``path`` is read for those names the first
    time a page has such a glyph (`unlisted`).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._texts: dict[_FontKey, dict[int, str]] = {}
        self._type1: dict[_FontKey, bytes] = {}
        self._unlisted: dict[FontName, dict[int, str]] | None = None
        self._unmapped: dict[tuple[_FontKey, int], bool] = {}

    @staticmethod
    def key(handle: Any, name: str) -> _FontKey | None:
        """The key of the font ``handle`` (base name ``name``), None for a font that
        is not embedded."""
        if pdfium_c.FPDFFont_GetIsEmbedded(handle) != 1:
            return None
        size = ctypes.c_size_t()
        if not pdfium_c.FPDFFont_GetFontData(handle, None, 0, size):
            return None
        return address(handle), name, size.value

    def texts(self, key: _FontKey | None, handle: Any) -> dict[int, str] | None:
        """The codes of the font ``handle`` (key ``key``) that PDFium may read no
        Unicode for, with their text; None for a Type 1 program not read yet."""
        if key is None:
            return {}
        texts = self._texts.get(key)
        if texts is None and key not in self._type1:
            size = ctypes.c_size_t(key[2])
            buffer = (ctypes.c_ubyte * key[2])()
            pdfium_c.FPDFFont_GetFontData(handle, buffer, key[2], size)
            program = bytes(buffer)
            if is_type1(program) and not is_standard_type1(program):
                self._type1[key] = program
            else:
                texts = self._texts[key] = self._read(program)
        return texts

    def read(self, key: _FontKey) -> dict[int, str]:
        """The texts of the Type 1 program of the font ``key``, read now."""
        texts = self._texts[key] = self._read(self._type1.pop(key))
        return texts

    def unlisted(self, key: _FontKey | None) -> dict[int, str]:
        """The text of the codes that the ``/Differences`` of the font ``key`` names
        by glyphs outside the Adobe Glyph List, where the name has one: a code named by
        a producer's scheme of its own ('C65') keeps what PDFium reads for it, the
        code itself where it has no Unicode, named ``(cid:N)`` if a control code."""
        if key is None:
            return {}
        if self._unlisted is None:
            self._unlisted = unlisted_differences(self.path)
        names = self._unlisted.get((key[1], key[2]), {})
        return {code: text for code, name in names.items() if (text := glyph_text(name))}

    def unmapped(self, key: _FontKey | None, code: int, argument: Any, index: int) -> bool:
        """Whether PDFium reads no Unicode for the character ``code`` of the embedded
        font ``key``, which it gives as the code itself: asked of character ``index`` of
        the text page ``argument``, which draws it, the first time a page of the document
        draws the character in the font (the answer is the font's, the same on every
        page; a font that draws it from a second code, mapped, is asked of the one met
        first)."""
        if key is None:
            return False
        unmapped = self._unmapped.get((key, code))
        if unmapped is None:
            unmapped = self._unmapped[key, code] = unicode_error_at(argument, index) == 1
        return unmapped

    @staticmethod
    def _read(program: bytes) -> dict[int, str]:
        return {code: glyph_text(glyph) for code, glyph in builtin_names(program).items()
                if not is_agl_name(glyph)}


@dataclass(frozen=True, slots=True)
class _Font:
    """A font as the boxes need it: name, descent (ems, negative below the baseline)
    and advance widths (ems) by character, read from the font's tables on demand;
    its key in `BuiltinEncodings` (None for a font not embedded); and its
    weight (`font_weight`)."""

    handle: Any
    name: str
    descent: float
    widths: dict[str, float | None]
    key: _FontKey | None
    weight: int

    @staticmethod
    def of(handle: Any) -> _Font:
        """The font PDFium's ``handle`` points to (its base name without a subset tag
        such as ``PQUCUD+``; the descent its glyphs' boxes start at, `box_descent` of
        PDFium's descent and ascent, each 0 when PDFium has none).  PDFium's weight is
        the descriptor's ``/FontWeight``, else `stem_weight` of its
        ``/StemV`` (-1 when it has none to give), and its flags the descriptor's."""
        length = int(pdfium_c.FPDFFont_GetBaseFontName(handle, None, 0))
        name = ctypes.create_string_buffer(max(length, 1))
        pdfium_c.FPDFFont_GetBaseFontName(handle, name, len(name))
        descent, ascent = ctypes.c_float(), ctypes.c_float()
        if not pdfium_c.FPDFFont_GetDescent(handle, 1.0, descent):
            descent.value = 0.0
        if not pdfium_c.FPDFFont_GetAscent(handle, 1.0, ascent):
            ascent.value = 0.0
        text = name.value.decode("utf-8", errors="replace")
        flags = int(pdfium_c.FPDFFont_GetFlags(handle))
        weight = font_weight(text, max(int(pdfium_c.FPDFFont_GetWeight(handle)), 0),
                             embedded=pdfium_c.FPDFFont_GetIsEmbedded(handle) == 1,
                             force_bold=flags > 0 and bool(flags & FORCE_BOLD))
        return _Font(handle, text, box_descent(descent.value, ascent.value), {},
                     BuiltinEncodings.key(handle, text), weight)

    def width(self, text: str) -> float | None:
        """The advance width in ems of the glyph the font maps ``text`` to, or None.

        PDFium looks the glyph up by its Unicode value, which a font's encoding may
        map to another glyph than the one drawn: a second opinion, not the rule.  For
        a font in a vertical writing mode (``Identity-V``) it gives the advance down
        the column, negative (-1 em for a full-width glyph): not a width across it.
        A width of naught for a character that takes room (not a combining mark or a
        format character) is no width: the Unicode value led to another code than the
        one drawn, one the font does not use (a TeX font's second hyphen).
        """
        if text not in self.widths:
            width = ctypes.c_float()
            ok = len(text) == 1 and pdfium_c.FPDFFont_GetGlyphWidth(
                self.handle, ord(text), 1.0, width)
            self.widths[text] = float(width.value) if ok and (
                width.value != 0 or unicodedata.category(text) in _ZERO_WIDTH) else None
        return self.widths[text]


@dataclass(frozen=True, slots=True)
class _Run:
    """What the characters of one text object share: font, size and orientation.

    ``em_x``/``em_y`` are the text-space x and y unit vectors scaled by the font size,
    in user space: one em along the baseline and one em across it.  ``low``/``high``
    are the box's lowest and highest offsets (x, y) across the baseline, from the
    descent to one em above it.  ``side`` is the side of PDFium's loose box (0 left,
    1 bottom, 2 right, 3 top) where the advance ends when the baseline runs along an
    axis, ``along`` the em along that axis (signed); None and 0 otherwise.  ``size``
    is the em across the baseline, pdfminer's size for upright text (horizontal
    scaling and skew act along the baseline and leave it alone).  ``direction`` is
    the direction the baseline runs in as the page is displayed
    (`direction_of`).
    """

    font: _Font
    em_x: tuple[float, float]
    low: tuple[float, float]
    high: tuple[float, float]
    side: int | None
    along: float
    size: float
    direction: int

    @staticmethod
    def of(font: _Font, a: float, b: float, c: float, d: float, rotate: int) -> _Run:
        """The run of ``font`` drawn with the em vectors (a, b) and (c, d) on a page
        the viewer turns ``rotate`` degrees."""
        d0, d1 = font.descent, font.descent + 1.0
        low = min(c * d0, c * d1), min(d * d0, d * d1)
        high = max(c * d0, c * d1), max(d * d0, d * d1)
        side: int | None = None
        along = 0.0
        if b == 0 and c == 0 and a:  # the baseline runs along x
            side, along = (2 if a > 0 else 0), a
        elif a == 0 and d == 0 and b:  # the baseline runs along y
            side, along = (3 if b > 0 else 1), b
        ta, tb = _turn(rotate, a, b)
        tc, td = _turn(rotate, c, d)
        length = math.hypot(a, b)
        size = abs(a * d - b * c) / length if length else 0.0
        return _Run(font, (a, b), low, high, side, along, size, direction_of(ta, tb, tc, td))


def _turn(rotate: int, x: float, y: float) -> tuple[float, float]:
    """The user-space vector (x, y) as the viewer shows it after turning the page
    ``rotate`` degrees clockwise (bottom-left origin, y upwards)."""
    if rotate == 90:
        return y, -x
    if rotate == 180:
        return -x, -y
    if rotate == 270:
        return -y, x
    return x, y


_PUNCTUATION = frozenset(string.punctuation)
"""The printable codes of a simple font whose glyphs are asked whether PDFium read a
Unicode for them: ASCII's punctuation, where a font puts the ligatures and symbols it
names only in its ``/Differences`` (``f_i`` at code 33), and which PDFium then gives
as the code itself ('!')."""

_LOOSE_SIDES = [0, 3, 2, 1]
"""Columns of an ``FS_RECTF`` (left, top, right, bottom) in ``_Run.side`` order (left,
bottom, right, top)."""

_SHAPE = np.dtype([("font", np.uint64), ("em", np.float64, 4)])
"""What tells runs apart: the font (its handle) and the em vectors (a, b) and (c, d)."""

_WIDTH_TOLERANCE = 1e-3
"""Ems by which the loose box's advance and the font's width table may disagree
before the ink box is consulted (the boxes are single-precision floats)."""



def _found_again(objects: npt.NDArray[np.uint64], matrices: npt.NDArray[np.float32],
                 sizes: npt.NDArray[np.float64]) -> None:
    """Give back, in place, the matrix and font size of the characters whose text page
    lost them: PDFium reports some characters of a right-to-left line it reorders
    (Hebrew set by InDesign in a 1-pt font scaled by the text matrix) with the identity
    matrix and a font size of 1, a 1-pt glyph, where their text object holds the
    scale.  Such a character takes its object's matrix and font size."""
    lost = np.flatnonzero((matrices[:, :4] == (1.0, 0.0, 0.0, 1.0)).all(axis=1) & (sizes == 1.0))
    for k in lost.tolist():
        handle = ctypes.cast(int(objects[k]), pdfium_c.FPDF_PAGEOBJECT)
        matrix, size = pdfium_c.FS_MATRIX(), ctypes.c_float()
        if (pdfium_c.FPDFPageObj_GetMatrix(handle, matrix)
                and pdfium_c.FPDFTextObj_GetFontSize(handle, size)):
            matrices[k, :4] = (matrix.a, matrix.b, matrix.c, matrix.d)
            sizes[k] = size.value


class TextReader:
    """Reads the glyphs of one text page; caches fonts while it does, and the built-in
    encodings of the document's fonts in ``encodings``."""

    def __init__(self, textpage: Any, frame: Frame, encodings: BuiltinEncodings) -> None:
        self.textpage = textpage
        self.argument = argument(textpage)  # for the per-character calls
        self.frame = frame
        self.encodings = encodings
        self.fonts: dict[int, _Font] = {}

    def glyphs(self) -> tuple[Glyphs, npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
        """The page's visible glyphs in PDFium's character order, boxed as pdfminer's
        engine boxes them (see the module docstring), the text objects (addresses,
        sorted) that draw characters, and the text object that draws each glyph.

        PDFium is asked, per character, only for its text object, origin and loose
        box, the last two written straight into arrays; everything else is asked
        once per text object, and the boxes are worked out on the arrays.
        """
        textpage, argument = self.textpage, self.argument
        count = int(pdfium_c.FPDFText_CountChars(textpage))
        texts = _char_texts(textpage, count)
        if texts is None:
            texts = "".join(chr(pdfium_c.FPDFText_GetUnicode(textpage, index))
                            for index in range(count))
        # PDFium only generates whitespace: spaces between words and line breaks.
        codes = code_points(texts)
        keep = np.ones(count, dtype=np.bool_)
        spaces = np.flatnonzero(char_test(codes, str.isspace))
        keep[spaces] = ~np.fromiter(map(is_generated, repeat(argument, len(spaces)),
                                        spaces.tolist()), dtype=np.bool_, count=len(spaces))
        kept_at = np.flatnonzero(keep)
        kept = kept_at.tolist()
        chars = list(spell(codes[keep]))
        for k in np.flatnonzero(char_test(codes[keep], _HYPHENS.__contains__)).tolist():
            if is_hyphen(argument, kept[k]):
                chars[k] = "-"
        # A code the font maps to no Unicode comes as the code itself: named as
        # pdfminer names it where that is a control character (a symbol font's
        # low codes), so that the engines read the same text.  Code 0 comes as
        # U+0000 and is not marked.
        for k in np.flatnonzero(char_test(codes[keep], _UNMAPPED.__contains__)).tolist():
            if chars[k] == "\x00" or (chars[k] != "-" and pdfium_c.FPDFText_HasUnicodeMapError(
                    textpage, kept[k]) == 1):
                chars[k] = f"(cid:{ord(chars[k])})"
        n = len(kept)
        if not n:
            return NO_GLYPHS, np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.uint64)
        origins = np.zeros((n, 2), dtype=np.float64)
        loose = np.zeros((n, 4), dtype=np.float32)  # FS_RECTF: left, top, right, bottom
        list(map(origin_at, repeat(argument, n), kept, out_params(origins),
                 out_params(origins, 8)))
        list(map(loose_box_at, repeat(argument, n), kept, out_params(loose)))
        objects = np.fromiter(map(text_object_at, repeat(argument, n), kept),
                              dtype=np.uint64, count=n)
        edges = loose[:, _LOOSE_SIDES].astype(np.float64)  # left, bottom, right, top
        # A piece of the glyph before it (a ligature's letters): the next character
        # from the same text object at the same origin with the same box, or a vowel
        # sign with the box after its letter's (PDFium shares the width of a glyph of
        # a syllable out among its characters: Sinhala's 'යෙ').
        kept_codes = codes[keep]
        sign = np.zeros(n, dtype=np.bool_)
        sign[1:] = (char_test(kept_codes[1:], _combining) & char_test(kept_codes[:-1], str.isalpha)
                    & (loose[1:, 0] == loose[:-1, 2])
                    & (loose[1:, [1, 3]] == loose[:-1, [1, 3]]).all(axis=1))
        follows = np.zeros(n, dtype=np.bool_)
        follows[1:] = ((kept_at[1:] == kept_at[:-1] + 1) & (objects[1:] == objects[:-1])
                       & (origins[1:] == origins[:-1]).all(axis=1)
                       & ((loose[1:] == loose[:-1]).all(axis=1) | sign[1:]))
        # PDFium gives a character above U+FFFF as two chars, its UTF-16 surrogates:
        # the low one is a piece of the glyph of the high one before it, and the pair
        # becomes the character when the glyphs are made (Glyphs cleans its texts)
        follows[1:] |= ((kept_codes[:-1] >= 0xD800) & (kept_codes[:-1] <= 0xDBFF)
                        & (kept_codes[1:] >= 0xDC00) & (kept_codes[1:] <= 0xDFFF)
                        & (kept_at[1:] == kept_at[:-1] + 1))
        first = np.flatnonzero(~follows)
        if len(first) == n:
            joined, indices = chars, kept
        else:
            joined = [chars[k] for k in first.tolist()]
            glyph_of = np.cumsum(~follows) - 1
            for k in np.flatnonzero(follows).tolist():
                joined[glyph_of[k]] += chars[k]
            joined = [text[::-1] if _reversed_ligature(text) else text for text in joined]
            indices = kept_at[first].tolist()
        keys, where, object_of = np.unique(objects[first], return_index=True,
                                           return_inverse=True)
        runs, run_of_object = self._runs(keys, kept_at[first[where]])
        run_of = run_of_object[object_of]
        pieces = np.diff(np.append(first, n))
        single = np.where(pieces == 1, codes[kept_at[first]], -1)
        read = self._builtin(joined, indices, single, runs, run_of)
        reach = edges[first]  # a glyph's box reaches over its pieces'
        reach[:, 2] = np.maximum.reduceat(edges[:, 2], first)
        glyphs, shown = self._boxes(joined, read, indices, origins[first], reach, runs,
                                    run_of)
        # a piece has the text object of the glyph before it
        return glyphs, keys, objects[first][shown]

    def _builtin(self, texts: list[str], indices: list[int], codes: npt.NDArray[np.int64],
                 runs: list[_Run], run_of: npt.NDArray[np.intp]) -> list[str]:
        """``texts`` with the glyphs PDFium read no Unicode for read by their font's
        built-in encoding (`BuiltinEncodings`): the text of the code's glyph
        name, or ``(cid:N)`` where the name has none, as pdfminer names the code.

        ``codes`` are the characters PDFium gave (-1 for a glyph of several), which for
        a code without Unicode is the code itself; character ``indices[k]`` draws
        glyph ``k`` in run ``runs[run_of[k]]``.  The glyphs of a Type 1 font not read
        yet are each asked whether PDFium found their Unicode, and the font is read at
        the first that it did not: asking for one glyph of a code would not do, as
        such a code comes as a character another code of the font may map to (CMMI's
        hook ↩ at code 44 as the comma of code 59).  Of a font read, only the glyphs
        whose code its built-in encoding names by a name outside the Adobe Glyph List
        are asked: none on most pages.
        """
        fonts = [run.font for run in runs]
        tables = [self.encodings.texts(font.key, font.handle) for font in fonts]
        simple = (codes >= 0) & (codes < 256)  # a simple font's code, as PDFium gives it
        unread = [k for k, table in enumerate(tables) if table is None]
        if unread:
            at = np.flatnonzero(simple & np.isin(run_of, unread))
            errors = np.fromiter(map(unicode_error_at, repeat(self.argument, len(at)),
                                     np.asarray(indices)[at].tolist()),
                                 dtype=np.intc, count=len(at))
            # code 0 comes as U+0000, named (cid:0) before, and is not marked
            for k in at[(errors == 1) | (codes[at] == 0)].tolist():
                key = fonts[run_of[k]].key
                if key is not None and tables[run_of[k]] is None:
                    texts_of_font = self.encodings.read(key)
                    tables = [texts_of_font if font.key == key else table
                              for font, table in zip(fonts, tables, strict=True)]
        every, listed = self._unlisted_fonts(texts, indices, codes, fonts, run_of)
        if every or listed:
            tables = [{**(table or {}), **self.encodings.unlisted(font.key)} or table
                      if every or font.key in listed else table
                      for font, table in zip(fonts, tables, strict=True)]
        if not any(tables):
            return texts
        named = np.zeros((len(runs), 257), dtype=np.bool_)  # column 256: no code
        for k, table in enumerate(tables):
            named[k, list(table or ())] = True
        asked = np.flatnonzero(named[run_of, np.where(simple, codes, 256)])
        read = texts
        for k in asked.tolist():
            if self._unread(texts, indices, codes, k):
                if read is texts:
                    read = list(texts)
                code = int(codes[k])
                read[k] = (tables[run_of[k]] or {})[code] or f"(cid:{code})"
        return read

    def _unlisted_fonts(self, texts: list[str], indices: list[int],
                        codes: npt.NDArray[np.int64], fonts: list[_Font],
                        run_of: npt.NDArray[np.intp]) -> tuple[bool, set[_FontKey | None]]:
        """Whether every font of the page, else which, has its codes named by glyphs
        outside the Adobe Glyph List in its ``/Differences`` (`BuiltinEncodings.unlisted`)
        read by those names: every font where a glyph of the page came out as
        ``(cid:N)`` (a control code); else the fonts that draw one of ASCII's punctuation
        codes which PDFium reads no Unicode for, and so gives as the code itself (a
        ligature named ``f_i`` at code 33 comes as '!'), where the name has a text.  A
        font whose names have none ('C44', a producer's own scheme) keeps PDFium's
        characters, the codes themselves.  Each font's punctuation is asked once a
        document (`BuiltinEncodings.unmapped`): on most pages, nothing is new."""
        # a page's thousands of texts searched at once first: most have no (cid:N)
        named: set[_FontKey | None] = set()
        if "(cid:" in "".join(texts) and any(text.startswith("(cid:") for text in texts):
            return True, named
        at = np.flatnonzero(char_test(codes, _PUNCTUATION.__contains__))
        if not len(at):
            return False, named
        _, first = np.unique(np.stack((run_of[at], codes[at])), axis=1, return_index=True)
        for k in at[first].tolist():
            key, code = fonts[run_of[k]].key, int(codes[k])
            if key not in named and self.encodings.unmapped(key, code, self.argument, indices[k]) \
                    and code in self.encodings.unlisted(key):
                named.add(key)
        return False, named

    def _unread(self, texts: list[str], indices: list[int], codes: npt.NDArray[np.int64],
                k: int) -> bool:
        """Whether PDFium read no Unicode for glyph ``k`` (text ``texts[k]``, character
        ``indices[k]``, code ``codes[k]``): named ``(cid:N)`` already (a control
        character, or code 0, which PDFium gives as U+0000 and does not mark), or
        given as the code itself and marked so (not a hyphen PDFium made of it)."""
        text = texts[k]
        return text.startswith("(cid:") or (
            text == chr(codes[k]) and unicode_error_at(self.argument, indices[k]) == 1)

    def _boxes(self, texts: list[str], read: list[str], indices: list[int],
               origins: npt.NDArray[np.float64], edges: npt.NDArray[np.float64],
               runs: list[_Run], run_of: npt.NDArray[np.intp]
               ) -> tuple[Glyphs, npt.NDArray[np.bool_]]:
        """The glyphs of ``texts`` (character ``indices``, ``origins`` and loose-box
        ``edges`` left, bottom, right, top), each drawn in run ``runs[run_of[k]]``,
        boxed in displayed points and read as ``read``; those whose centre is off the
        page left out, and which were kept.  The advances are worked out from
        ``texts``, the characters PDFium gave (its width table is looked up by them)."""
        def column(value: Any) -> npt.NDArray[np.float64]:
            return np.array([value(run) for run in runs], dtype=np.float64).reshape(
                len(runs), -1)[run_of]

        ox, oy = origins[:, 0], origins[:, 1]
        em_x, low, high = (column(lambda r: r.em_x), column(lambda r: r.low),
                           column(lambda r: r.high))
        width = self._advances(texts, indices, ox, oy, edges, runs, run_of)
        wx, wy = em_x[:, 0] * width, em_x[:, 1] * width
        x0 = ox + low[:, 0] + np.minimum(wx, 0.0)
        x1 = ox + high[:, 0] + np.maximum(wx, 0.0)
        y0 = oy + low[:, 1] + np.minimum(wy, 0.0)
        y1 = oy + high[:, 1] + np.maximum(wy, 0.0)
        vx0, vy0, vx1, vy1 = self.frame.visible
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        shown = (vx0 <= cx) & (cx <= vx1) & (vy0 <= cy) & (cy <= vy1)  # Frame.shows
        da, db, dc, dd, de, df = self.frame.display
        u0, v0 = da * x0 + dc * y0 + de, db * x0 + dd * y0 + df
        u1, v1 = da * x1 + dc * y1 + de, db * x1 + dd * y1 + df
        boxes = np.stack([np.minimum(u0, u1), np.minimum(v0, v1),
                          np.maximum(u0, u1), np.maximum(v0, v1)], axis=1)[shown]
        run_at = run_of[shown]
        names = np.array([run.font.name for run in runs], dtype=object)[run_at]
        directions = np.array([run.direction for run in runs], dtype=np.int16)[run_at]
        weights = np.array([run.font.weight for run in runs], dtype=np.int16)[run_at]
        picked = read if shown.all() else [read[k] for k in np.flatnonzero(shown).tolist()]
        return Glyphs(tuple(picked), boxes, tuple(names.tolist()),
                      column(lambda r: r.size)[shown, 0], directions, weights), shown

    def _runs(self, objects: npt.NDArray[np.uint64], indices: npt.NDArray[np.intp]
              ) -> tuple[list[_Run], npt.NDArray[np.intp]]:
        """The distinct runs of the text ``objects`` (each drawing character
        ``indices[k]``), and the run of each object as an index into them.

        Many producers draw every character as a text object of its own, so the
        runs are told apart by their font and matrix, not by object.
        """
        argument, count = self.argument, len(objects)
        shapes = np.zeros(count, dtype=_SHAPE)
        shapes["font"] = np.fromiter(map(font_of, map(pointer, objects.tolist())),
                                     dtype=np.uint64, count=count)
        matrices = np.zeros((count, 6), dtype=np.float32)  # FS_MATRIX: a, b, c, d, e, f
        listed = indices.tolist()
        list(map(matrix_at, repeat(argument, count), listed,
                 out_params(matrices)))
        sizes = np.fromiter(map(font_size_at, repeat(argument, count), listed),
                            dtype=np.float64, count=count)
        _found_again(objects, matrices, sizes)
        # + 0.0 turns -0.0 into 0.0: equal shapes have equal bytes
        shapes["em"] = matrices[:, :4].astype(np.float64) * sizes[:, None] + 0.0
        _, first, run_of = np.unique(shapes.view(np.dtype((np.void, _SHAPE.itemsize))),
                                     return_index=True, return_inverse=True)
        runs = []
        for font_key, (a, b, c, d) in zip(shapes["font"][first].tolist(),
                                          shapes["em"][first].tolist(), strict=True):
            font = self.fonts.get(font_key)
            if font is None:
                font = self.fonts[font_key] = _Font.of(ctypes.cast(font_key, pdfium_c.FPDF_FONT))
            runs.append(_Run.of(font, a, b, c, d, self.frame.rotate))
        return runs, run_of.reshape(-1)

    def _advances(self, texts: list[str], indices: list[int], ox: npt.NDArray[np.float64],
                  oy: npt.NDArray[np.float64], edges: npt.NDArray[np.float64],
                  runs: list[_Run], run_of: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
        """The advance width in ems of each glyph (see `_advance`), worked out on
        the arrays where the loose box and the font's width table agree; for a glyph
        of a vertical font, the loose box's width across the column."""
        side = np.array([-1 if r.side is None else r.side for r in runs], dtype=np.intp)[run_of]
        along = np.array([r.along or 1.0 for r in runs], dtype=np.float64)[run_of]
        on_axis = side >= 0
        far = np.take_along_axis(edges, np.maximum(side, 0)[:, None], axis=1)[:, 0]
        measured = (far - np.where(side % 2 == 1, oy, ox)) / along
        table = _table_widths(texts, runs, run_of)
        # A vertical font's table gives the advance down the column (negative), not
        # the glyph's width across it, which the loose box measures: were the table
        # asked, a glyph whose ink passes the em (機) would be boxed one em to the
        # left of its column.  Such a glyph has no table width.
        down = table < 0
        table[down] = math.nan
        agree = np.abs(measured - table) <= _WIDTH_TOLERANCE  # False where table is NaN
        widths = measured.copy()
        run_at = run_of.tolist()
        for k in np.flatnonzero(~on_axis | (~agree & ~down)).tolist():
            known = float(table[k])
            widths[k] = self._advance(indices[k], runs[run_at[k]],
                                      None if math.isnan(known) else known, float(far[k]),
                                      float(measured[k]))
        return widths

    def _advance(self, index: int, run: _Run, table: float | None, far: float,
                 measured: float) -> float:
        """The advance width in ems of character ``index``, whose font's width table
        gives ``table`` and whose loose box ends at ``far`` along the baseline, an
        advance of ``measured``.

        PDFium's loose box runs from the origin to the advance along the baseline, so
        it measures the advance wherever the baseline runs along an axis.  But it is
        grown to hold the ink: when it disagrees with the font's width table the ink
        box decides: if the loose box ends where the ink ends, the ink reached past
        the advance (an italic *f*) and the table is right; otherwise the box is (the
        font maps the character to another glyph than the one drawn).  Baselines at
        other angles have no axis to measure along and take the table, or failing
        that the ink's extent.
        """
        if run.side is None:
            if table is not None:
                return table
            left, bottom, right, top = self._ink(index)
            length = math.hypot(*run.em_x)
            return math.hypot(right - left, top - bottom) / length if length else 0.0
        if table is None:
            return measured
        return table if far == self._ink(index)[run.side] else measured

    def _ink(self, index: int) -> tuple[float, float, float, float]:
        """The ink box (tight box) of character ``index``: left, bottom, right, top,
        in the order of ``_advance``'s edges."""
        left, right, bottom, top = (ctypes.c_double() for _ in range(4))
        pdfium_c.FPDFText_GetCharBox(self.textpage, index, left, right, bottom, top)
        return left.value, bottom.value, right.value, top.value




def _reversed_ligature(text: str) -> bool:
    """Whether the letters of a right-to-left ligature (``text``, a glyph's letters as
    PDFium gives them) came reversed.  PDFium gives the letters a font's
    ``/ToUnicode`` maps one glyph to reversed on a right-to-left line (لا as ا then
    ل, لم as م then ل), but those of a presentation form it decomposes itself in their
    order (ﻻ, ﷲ, ﷼): a glyph of several right-to-left letters came reversed unless
    they spell a presentation form (`_PRESENTED`)."""
    return (len(text) > 1 and text not in _PRESENTED
            and all(map(is_right_to_left, text)))


_PRESENTED = frozenset(
    spelled for code in (*range(0xFB1D, 0xFE00), *range(0xFE70, 0xFF00))
    if len(spelled := unicodedata.normalize("NFKC", chr(code))) > 1)
"""The letters of the Hebrew and Arabic presentation forms that spell several, in
their order: the ligatures PDFium decomposes itself."""


def _combining(char: str) -> bool:
    """Whether ``char`` is a combining mark of any kind, spacing or not (a Sinhala vowel
    sign, an accent): category M (the word stage's marks are the non-spacing ones)."""
    return unicodedata.category(char).startswith("M")


def _joins(char: str) -> bool:
    """Whether ``char`` is a letter of a script whose letters join (Arabic, Syriac,
    Thaana, N'Ko): the bidi class AL."""
    return unicodedata.bidirectional(char) == "AL"


def _table_widths(texts: list[str], runs: list[_Run], run_of: npt.NDArray[np.intp]
                  ) -> npt.NDArray[np.float64]:
    """The advance width in ems that the font's width table gives each glyph of
    ``texts`` (drawn in run ``runs[run_of[k]]``), NaN where it gives none; each
    distinct run and character is looked up once.  A letter of a joining script
    (Arabic) gets none: PDFium gives the shaped form drawn (initial, medial, final)
    as the plain letter, whose glyph in the table is the isolated form, of another
    width."""
    codes = code_points(texts)  # -1 for a ligature's letters, which the table lacks
    codes[char_test(codes, _joins)] = -1
    keys, key_of = np.unique(np.where(codes < 0, -1, run_of * CODE_POINTS + codes),
                             return_inverse=True)
    widths = [math.nan if key < 0 else runs[key // CODE_POINTS].font.width(chr(key % CODE_POINTS))
              for key in keys.tolist()]
    return np.array([math.nan if w is None else w for w in widths], dtype=np.float64)[key_of]


