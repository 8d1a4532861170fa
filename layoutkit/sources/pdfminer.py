"""Glyphs, rules and images from pdfminer.six's content-stream interpreter.

The pure-Python engine: slower than `layoutkit.sources.pdfium`, whose values it
defines (`tests/test_engines.py` holds the two to the same glyphs).
"""

from __future__ import annotations

import dataclasses
import os
import weakref
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence, Set
from functools import partialmethod
from itertools import islice
from pathlib import Path
from typing import Any, BinaryIO, cast

import numpy as np
import numpy.typing as npt
from pdfminer import settings
from pdfminer.cmapdb import UnicodeMap
from pdfminer.converter import PDFPageAggregator
from pdfminer.encodingdb import name2unicode
from pdfminer.layout import LTChar, LTContainer, LTCurve, LTImage, LTLine, LTPage, LTRect
from pdfminer.pdfdevice import PDFTextSeq
from pdfminer.pdfdocument import PDFDocument, PDFEncryptionError, PDFPasswordIncorrect
from pdfminer.pdfexceptions import PDFObjectNotFound
from pdfminer.pdffont import PDFCIDFont, PDFFont, PDFTrueTypeFont, PDFType1Font, PDFType3Font
from pdfminer.pdfinterp import LITERAL_FORM, PDFPageInterpreter, PDFResourceManager, PDFStackT
from pdfminer.pdfpage import LITERAL_PAGE, LITERAL_PAGES, PDFPage
from pdfminer.pdfparser import PDFParser
from pdfminer.pdftypes import PDFStream, dict_value, list_value, resolve1
from pdfminer.psparser import LIT, literal_name
from pdfminer.utils import (
    MATRIX_IDENTITY,
    Matrix,
    PathSegment,
    Point,
    apply_matrix_pt,
    mult_matrix,
    translate_matrix,
)

from ..errors import DocumentError
from ..model import BBox, Glyphs, Link, OutlineEntry, PageGlyphs, Rule
from .base import (
    FORCE_BOLD,
    ClosingSource,
    FileIdentity,
    Rect,
    box_descent,
    check_readable,
    direction_of,
    file_identity,
    font_weight,
    shape_rules,
    stem_weight,
    visible_rect,
)
from .builtin_encoding import builtin_names, glyph_text, standard_symbolic_texts
from .cid_collections import collection_table
from .differences import differences_of, name_of
from .occlusion import INVISIBLE, Fill, Outline, uncovered
from .pdfminer_outline import outline

__all__ = ["PdfminerSource"]


class PdfminerSource(ClosingSource):
    """Glyphs and rules from pdfminer.six's content-stream interpreter.

    Layout analysis is switched off (``laparams=None``): pdfminer only reports
    what is drawn where, and layoutkit's geometry does the rest.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        check_readable(path)
        self._fh: BinaryIO = path.open("rb")
        try:
            self._document = PDFDocument(PDFParser(self._fh))
            self._tree = _page_tree(self._document, os.fstat(self._fh.fileno()))
        except (PDFPasswordIncorrect, PDFEncryptionError) as exc:
            self._fh.close()
            raise DocumentError(f"{path}: encrypted PDF, a password is needed to read it") from exc
        except Exception as exc:  # pdfminer raises many unrelated types on broken files
            self._fh.close()
            raise DocumentError(f"{path}: corrupt or unreadable PDF ({_reason(exc)})") from exc
        if not self._tree.pages:
            self._fh.close()
            raise DocumentError(f"{path}: the PDF has no pages")
        self._resources = _Resources(caching=True)
        self._device = _Device(self._resources)
        self._interpreter = _Interpreter(self._resources, self._device)

    @property
    def page_count(self) -> int:
        return len(self._tree.pages)

    def pages(self, page_numbers: Sequence[int]) -> Iterator[PageGlyphs]:
        for page_no in page_numbers:
            try:
                page = self._tree.page(self._document, page_no)
                _normalise_boxes(page)
                self._interpreter.process_page(page)
                layout: LTPage = self._device.get_result()
            except Exception as exc:
                raise DocumentError(
                    f"{self.path}: page {page_no} cannot be read ({_reason(exc)})"
                ) from exc
            yield dataclasses.replace(_page_glyphs(page_no, page, layout, self._device.covering,
                                                   self._device.weights, self._device.invisible),
                                      label=self._tree.labels[page_no - 1])

    def labels(self) -> tuple[str, ...]:
        """Each page's label by the PDF's ``/PageLabels``; all empty when it has none."""
        return self._tree.labels

    def outline(self, heavy: Collection[int] = ()) -> tuple[OutlineEntry, ...]:
        """The document's outline (`pdfminer_outline.outline`); empty when it has none;
        the entries pointing to the ``heavy`` pages give no height, as PDFium's."""
        return outline(self._document, [number for number, _ in self._tree.pages],
                       self._frame, heavy)

    def _frame(self, page_no: int) -> tuple[Rect, int]:
        """The visible part and the rotation of page ``page_no`` (its content unread)."""
        page = self._tree.page(self._document, page_no)
        _normalise_boxes(page)
        return visible_rect(page.mediabox, page.cropbox), (page.rotate or 0) % 360

    def close(self) -> None:
        self._fh.close()


@dataclasses.dataclass(frozen=True, slots=True)
class _Painting:
    """How the graphics state paints fills: the transparency (its constant fill
    alpha, blend mode and whether a soft mask is set) and the clipping paths set
    (``W``, ``W*``), each of one subpath, as outlines in pdfminer's page space."""

    alpha: float = 1.0
    blend: str = "Normal"
    masked: bool = False
    clips: tuple[Outline, ...] = ()

    @property
    def transparent(self) -> bool:
        return self.alpha < 1.0 or self.blend not in ("Normal", "Compatible") or self.masked

    def set(self, state: Mapping[str, object]) -> _Painting:
        """This painting with what the parameter dictionary ``state`` sets."""
        alpha = resolve1(state.get("ca"))
        blend = resolve1(state.get("BM"))
        if isinstance(blend, list):  # modes in order of preference: the first is taken
            blend = blend[0] if blend else None
        mask = resolve1(state.get("SMask"))
        return dataclasses.replace(
            self, alpha=float(alpha) if isinstance(alpha, (int, float)) else self.alpha,
            blend=name_of(blend) or self.blend if blend is not None else self.blend,
            masked=self.masked if mask is None else name_of(mask) != "None")

    def clipped(self, outline: Outline) -> _Painting:
        """This painting clipped to ``outline`` too."""
        return dataclasses.replace(self, clips=(*self.clips, outline))


class _Device(PDFPageAggregator):
    """pdfminer's aggregating device, whose filled shapes say whether they cover what
    was painted before them (``covering``): a path of one subpath filled while the
    graphics state sets no transparency (``painting``, which `_Interpreter`
    keeps), within the clips it sets; see `occlusion`."""

    painting = _Painting()

    def __init__(self, resources: _Resources) -> None:
        super().__init__(resources, laparams=None)
        self.covering: dict[int, tuple[Outline, ...]] = {}
        """The ids of the page's shapes that cover what was painted before them, with
        the clips each is painted through (pdfminer's page space)."""
        self.weights: dict[int, int] = {}
        """The weight of the font of each of the page's characters, by the character's id
        (`_Resources.weights`)."""
        self.invisible: set[int] = set()
        """The ids of the page's characters drawn in a render mode that paints nothing
        (`occlusion.INVISIBLE`)."""
        self._resources = resources
        self._invisibly = False

    def render_string(self, textstate: Any, seq: PDFTextSeq, ncs: Any, graphicstate: Any
                      ) -> None:
        self._invisibly = textstate.render in INVISIBLE
        super().render_string(textstate, seq, ncs, graphicstate)

    def render_char(self, matrix: Any, font: PDFFont, fontsize: float, scaling: float,
                    rise: float, cid: int, ncs: Any, graphicstate: Any) -> float:
        advance: float = super().render_char(matrix, font, fontsize, scaling, rise, cid, ncs,
                                             graphicstate)
        char = id(self.cur_item._objs[-1])
        self.weights[char] = self._resources.weights.get(font, 0)
        if self._invisibly:
            self.invisible.add(char)
        return advance

    def _show(self, axis: int, seq: PDFTextSeq, matrix: Matrix, pos: Point, font: PDFFont,
              fontsize: float, scaling: float, charspace: float, wordspace: float,
              rise: float, dxscale: float, ncs: Any, graphicstate: Any) -> Point:
        """The pen's place after showing the strings and adjustments of ``seq`` from
        ``pos`` along ``axis`` (0 in horizontal writing, 1 in vertical), each glyph
        rendered where the pen stands.

        Each glyph moves the pen by its advance and the character spacing (``Tc``), a
        single-byte space also by the word spacing (``Tw``), as PDF 32000-1 9.4.4 says
        and PDFium and poppler do.  pdfminer.six's own loop applies ``Tc`` only between
        the glyphs of one text-showing operator (pdfminer/pdfminer.six#1128): the last
        glyph of every ``Tj`` or ``TJ`` goes without it, and a ``TJ`` that opens with
        an adjustment gets one before its first glyph.  A line shown an operator a
        word, as macOS Quartz writes Hebrew with a ``Tc`` of about minus a glyph's
        width, then drifts by ``Tc`` at every operator and its words overlap."""
        pen = list(pos)
        for obj in seq:
            if isinstance(obj, (int, float)):
                pen[axis] -= obj * dxscale
            elif isinstance(obj, bytes):
                for cid in font.decode(obj):
                    pen[axis] += charspace + self.render_char(
                        translate_matrix(matrix, (pen[0], pen[1])), font, fontsize, scaling,
                        rise, cid, ncs, graphicstate)
                    if cid == 32 and wordspace:
                        pen[axis] += wordspace
        return pen[0], pen[1]


    render_string_horizontal = partialmethod(_show, 0)
    render_string_vertical = partialmethod(_show, 1)

    def paint_path(self, gstate: Any, stroke: bool, fill: bool, evenodd: bool,
                   path: Sequence[PathSegment]) -> None:
        before = len(self.cur_item._objs)
        super().paint_path(gstate, stroke, fill, evenodd, path)
        if (fill and not self.painting.transparent
                and sum(segment[0] == "m" for segment in path) <= 1):
            self.covering.update(dict.fromkeys(map(id, self.cur_item._objs[before:]),
                                               self.painting.clips))


class _Interpreter(PDFPageInterpreter):
    """pdfminer's interpreter, which also reads the transparency a graphics state
    parameter dictionary (``gs``) sets and the clipping paths (``W``, ``W*``), which
    pdfminer itself ignores, into the device's ``painting`` (`_Device`), saved and
    restored with the graphics state."""

    device: _Device

    def __init__(self, rsrcmgr: PDFResourceManager, device: _Device) -> None:
        super().__init__(rsrcmgr, device)
        self._saved: list[_Painting] = []

    def process_page(self, page: PDFPage) -> None:
        self._saved, self.device.painting = [], _Painting()
        self.device.covering.clear()
        self.device.weights.clear()
        self.device.invisible.clear()
        super().process_page(page)

    def do_q(self) -> None:
        self._saved.append(self.device.painting)
        super().do_q()

    def do_Q(self) -> None:  # noqa: N802 (pdfminer's name for the Q operator)
        if self._saved:
            self.device.painting = self._saved.pop()
        super().do_Q()

    def do_Do(self, xobjid: PDFStackT) -> None:  # noqa: N802 (pdfminer's name for Do)
        """Paint an XObject: a form clipped to its bounding box (``BBox``, corners, not
        a width and height as pdfminer's figure takes them), its own transparency
        and clips ending with it, as its graphics state is saved before and restored
        after (PDF 32000-1 8.10.1)."""
        painting = self.device.painting
        form = resolve1(self.xobjmap.get(literal_name(xobjid)))
        if isinstance(form, PDFStream) and form.get("Subtype") is LITERAL_FORM:
            box, matrix = list_value(form.get("BBox", [])), list_value(
                form.get("Matrix", MATRIX_IDENTITY))
            if len(box) == 4 and len(matrix) == 6:
                x0, y0, x1, y1 = map(float, box)
                to_page = mult_matrix(cast(Matrix, tuple(map(float, matrix))), self.ctm)
                self.device.painting = painting.clipped(tuple(
                    apply_matrix_pt(to_page, corner)
                    for corner in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))))
        try:
            super().do_Do(xobjid)
        finally:
            self.device.painting = painting

    def do_W(self) -> None:  # noqa: N802 (pdfminer's name for the W operator)
        self._clip()

    def do_W_a(self) -> None:  # noqa: N802 (pdfminer's name for the W* operator)
        self._clip()

    def _clip(self) -> None:
        """Clip the fills that follow to the current path when it is one subpath (a
        path of several, or with a hole, is not followed: fills then cover as if
        unclipped).  A curve keeps its control points, which stand outside it, as
        the pdfium engine's clips do."""
        path = self.curpath
        if sum(seg[0] == "m" for seg in path) != 1 or path[0][0] != "m":
            return
        points = tuple(apply_matrix_pt(self.ctm, (float(seg[k]), float(seg[k + 1])))
                       for seg in path for k in range(1, len(seg) - 1, 2))
        if len(points) >= 3:
            self.device.painting = self.device.painting.clipped(points)

    def do_gs(self, name: object) -> None:
        states = resolve1((self.resources or {}).get("ExtGState"))
        state = resolve1(states.get(name_of(name))) if isinstance(states, dict) else None
        if isinstance(state, dict):
            self.device.painting = self.device.painting.set(state)


_FONT_FILES = ("FontFile", "FontFile2", "FontFile3")
"""The keys of a font descriptor that hold the font's program: the font is embedded."""


def _descriptor(spec: Mapping[str, object]) -> Mapping[str, object]:
    """The font descriptor of the font dictionary ``spec`` (empty if it has none)."""
    descriptor = resolve1(spec.get("FontDescriptor"))
    return descriptor if isinstance(descriptor, dict) else {}


def _flags(font: PDFFont, descriptor: Mapping[str, object]) -> int:
    """The ``/Flags`` of ``font``'s ``descriptor``, as PDFium reads them: 0 where it has
    none or they are no positive number, and for a Type 3 font."""
    flags = resolve1(descriptor.get("Flags"))
    return flags if isinstance(flags, int) and flags > 0 and not isinstance(
        font, PDFType3Font) else 0


def _font_weight(font: PDFFont, spec: Mapping[str, object]) -> int:
    """The weight of ``font`` (`font_weight`) from the descriptor of its
    dictionary ``spec``, read as PDFium reads it: ``/FontWeight`` when it is positive,
    else the weight of its ``/StemV`` (`stem_weight`); embedded when the
    descriptor holds a font program, or the font is a Type 3 font, whose glyphs the
    document draws.  (pdfminer's own descriptor of a standard font is its metrics
    file's, even where the document embeds a program and describes it.)"""
    descriptor = _descriptor(spec)
    stated = resolve1(descriptor.get("FontWeight"))
    if not (isinstance(stated, (int, float)) and stated > 0):
        stem = resolve1(descriptor.get("StemV"))
        stated = stem_weight(stem) if isinstance(stem, (int, float)) else 0
    return font_weight(str(font.fontname), int(stated),
                       embedded=isinstance(font, PDFType3Font)
                       or any(key in descriptor for key in _FONT_FILES),
                       force_bold=bool(_flags(font, descriptor) & FORCE_BOLD))


class _Resources(PDFResourceManager):
    """pdfminer's resource manager, whose simple fonts read the codes their encoding
    gives no text by the font program's built-in encoding
    (`_use_builtin_encoding`), and whose fonts are weighed
    (`_font_weight`), once per font object.  A composite font is made of its
    descendant's dictionary, which holds its descriptor, and is read with that."""

    def __init__(self, caching: bool = True) -> None:
        super().__init__(caching=caching)
        self._read: weakref.WeakSet[Any] = weakref.WeakSet()
        self.weights: weakref.WeakKeyDictionary[PDFFont, int] = weakref.WeakKeyDictionary()
        """The weight of each font read."""

    def get_font(self, objid: object, spec: Mapping[str, object]) -> Any:
        font = super().get_font(objid, spec)
        if font not in self._read:
            self._read.add(font)
            _use_standard_symbolic(font, spec)
            _use_builtin_encoding(font, spec)
            _use_collection(font, spec)
            _bound_descent(font)
            self.weights[font] = _font_weight(font, spec)
        return font


def _bound_descent(font: PDFFont) -> None:
    """Set ``font``'s descent, which its glyphs' boxes start at, to `box_descent`'s."""
    if font.vscale:
        font.descent = box_descent(font.get_descent(), font.get_ascent()) / font.vscale


def _use_collection(font: Any, spec: Mapping[str, object]) -> None:
    """Read the CIDs of the composite ``font`` (its descendant's dictionary ``spec``,
    with the composite's ``/ToUnicode``, if any) that has no ``/ToUnicode`` and that
    pdfminer.six's table of its character collection lacks (CIDs of the later
    supplements, which it names ``(cid:N)``) by `cid_collections.collection_table`,
    as the pdfium engine reads those PDFium has no Unicode for."""
    if not isinstance(font, PDFCIDFont) or "ToUnicode" in spec:
        return
    table = collection_table(font.cidcoding)
    if table:
        read = UnicodeMap()
        read.cid2unichr = {**table,
                           **(font.unicode_map.cid2unichr if font.unicode_map else {})}
        font.unicode_map = read


_SYMBOLIC = 4
"""The flag of a font descriptor's ``/Flags`` saying the font is symbolic (bit 3):
its glyphs are not the standard Latin character set, and its own encoding is the
built-in one (PDF 32000-1, 9.8.2)."""


def _use_standard_symbolic(font: Any, spec: Mapping[str, object]) -> None:
    """Read the codes of the Type 1 ``font`` (font dictionary ``spec``) named Symbol or
    ZapfDingbats and not embedded by that standard font's built-in encoding
    (`.builtin_encoding.STANDARD_SYMBOLIC`), with the names its ``/Differences``
    gives over it, as PDFium reads them: pdfminer.six reads them by StandardEncoding, as
    Latin letters (``a`` for α, ``7`` for ✗).  A symbolic font's own encoding is its
    built-in one whatever ``/Encoding`` or ``/BaseEncoding`` names (PDFium), and a
    ``/ToUnicode`` map, which pdfminer asks first, wins where it maps the code."""
    if not isinstance(font, PDFType1Font) or isinstance(font, PDFTrueTypeFont):
        return
    table = standard_symbolic_texts(str(font.basefont))
    if table is None or any(key in _descriptor(spec) for key in _FONT_FILES):
        return  # an embedded program's built-in encoding is read by _use_builtin_encoding
    font.cid2unicode = _named(dict(table),
                              differences_of(resolve1(spec.get("Encoding"))).items())


def _use_builtin_encoding(font: Any, spec: Mapping[str, object]) -> None:
    """Read the codes of the Type 1 or CFF simple ``font`` (font dictionary ``spec``)
    that its encoding gives no text by the glyph names of `builtin_encoding`,
    in ``font.cid2unicode``: the name ``/Differences`` gives the code, or else the one
    the embedded program's built-in encoding gives it.

    pdfminer reads a ``/Differences`` name with a glyph list that lacks TeX's names
    (``prime``, ``vector``, ``tildewide``), and then keeps the base encoding's text
    for the code ("0" for a prime): such names are read by the TeX names, or their
    code dropped, to be named ``(cid:N)``.  Without ``/Encoding`` the built-in
    encoding is the font's encoding (PDF 32000-1 9.6.6.1, and PDFium).  pdfminer reads
    that of a Type 1 ``FontFile`` itself, with the same glyph list: the codes it read
    stay, those it could not (``angbracketleft``) are added.  For a CFF ``FontFile3``
    it takes StandardEncoding instead: every code of the built-in encoding is read by
    it, and one whose glyph name has no text is dropped.  With an ``/Encoding``, the
    codes it names no glyph for (neither by its base encoding nor by
    ``/Differences``) are added, as PDFium draws them: a ``/Differences`` without
    ``/BaseEncoding`` is read over StandardEncoding, as PDFium and the producers read
    it, not over the built-in encoding (a subset's may number the glyphs 1, 2, 3 …
    in the order they were used); but a symbolic font's (its descriptor's flag 3, as
    every TeX font's) is read over its built-in encoding, as PDFium reads and draws it:
    a code the ``/Differences`` leaves alone is the built-in encoding's glyph (CMEX's
    ``bracehtipupleft`` at 124, named ``(cid:124)`` by both engines, where pdfminer read
    StandardEncoding's ``|``).  A ``/ToUnicode`` map, which pdfminer asks first, wins
    where it maps the code.
    """
    if not isinstance(font, PDFType1Font) or isinstance(font, PDFTrueTypeFont):
        return
    descriptor = _descriptor(spec)
    program = resolve1(descriptor.get("FontFile"))
    if program is None:
        program = resolve1(descriptor.get("FontFile3"))
        if not isinstance(program, PDFStream) or name_of(program.get("Subtype")) != "Type1C":
            return
    if not isinstance(program, PDFStream):
        return
    try:
        names = builtin_names(program.get_data())
    except Exception:  # pdfminer raises many unrelated types on a broken stream
        return
    encoding = resolve1(spec.get("Encoding"))
    differences = differences_of(encoding)
    # Without /Encoding pdfminer reads a Type 1 FontFile by its own reading of the
    # built-in encoding, any other program by StandardEncoding, whose table it shares;
    # it reads a symbolic font's /Differences over StandardEncoding too.
    replace = (encoding is None and "FontFile" not in font.descriptor) or (
        isinstance(encoding, dict) and "BaseEncoding" not in encoding
        and bool(_flags(font, descriptor) & _SYMBOLIC))
    table = dict(font.cid2unicode)
    read = [(code, name) for code, name in differences.items() if not _known(name)]
    read += [(code, name) for code, name in names.items()
             if code not in differences and (replace or code not in table)]
    font.cid2unicode = _named(table, read)


def _named(table: dict[int, str], names: Iterable[tuple[int, str]]) -> dict[int, str]:
    """``table`` (codes to texts) with each code of ``names`` (codes and glyph names)
    reading as its glyph name's text, or taken out where the name has none."""
    for code, name in names:
        text = glyph_text(name)
        if text:
            table[code] = text
        else:
            table.pop(code, None)
    return table


def _known(name: str) -> bool:
    """Whether pdfminer's glyph list reads the glyph name ``name``."""
    try:
        name2unicode(name)
    except (KeyError, ValueError):
        return False
    return True


@dataclasses.dataclass(frozen=True, slots=True)
class _PageTree:
    """Where each page of a document is in its page tree, and its label: what
    ``PDFPage.create_pages`` finds by walking the whole tree, kept so that a page is
    then made from its own object and its ancestors' alone (`page`).

    The pipeline opens a document anew for every ``stream_chunk_pages`` pages, as
    PDFium keeps what it parsed until the document is closed (and pdfminer the objects
    it resolved): a walk at every opening made reading a long document quadratic (five
    thousand pages: 157 walks of 5,000 page objects)."""

    pages: tuple[tuple[int, tuple[int, ...]], ...]
    """Each page's object number, and those of the page tree nodes it inherits
    attributes from, nearest first."""
    from_catalog: bool
    """Whether the pages also inherit from the catalog (the tree was walked from it,
    not found by scanning the cross-reference table)."""
    labels: tuple[str, ...]
    """Each page's label by the PDF's ``/PageLabels``, empty ones when it has none."""

    def page(self, document: PDFDocument, page_no: int) -> PDFPage:
        """Page ``page_no`` (1-based) of ``document``, with the attributes it inherits,
        as ``PDFPage.create_pages`` makes it."""
        number, ancestors = self.pages[page_no - 1]
        attrs = dict(dict_value(document.getobj(number)))
        givers = [dict_value(document.getobj(node)) for node in ancestors]
        if self.from_catalog:
            givers.append(document.catalog)
        for giver in givers:
            for key in PDFPage.INHERITABLE_ATTRS - attrs.keys():
                if key in giver:
                    attrs[key] = giver[key]
        return PDFPage(document, number, attrs, self.labels[page_no - 1] or None)


_TREES: dict[FileIdentity, _PageTree] = {}
"""The page tree of the document last opened in this process, by its file's identity
(`_page_tree`)."""


def _page_tree(document: PDFDocument, stat: os.stat_result) -> _PageTree:
    """The page tree of ``document``, whose open file's status is ``stat``: walked
    once, then kept while the same file (device, inode, size and modification time) is
    opened again."""
    key = file_identity(stat)
    tree = _TREES.get(key)
    if tree is None:
        _TREES.clear()
        tree = _TREES[key] = _walked(document)
    return tree


def _walked(document: PDFDocument) -> _PageTree:
    """The page tree of ``document`` by a walk that follows ``PDFPage.create_pages``:
    depth first from the catalog's ``/Pages``, each node once, and without a page found
    there, the page objects of the cross-reference table."""
    found: list[tuple[int, tuple[int, ...]]] = []
    seen: set[int] = set()

    def walk(reference: Any, ancestors: tuple[int, ...]) -> None:
        number = reference if isinstance(reference, int) else reference.objid
        node = dict_value(document.getobj(number) if isinstance(reference, int)
                          else reference)
        if number in seen:
            return
        seen.add(number)
        kind = node.get("Type")
        if kind is None and not settings.STRICT:
            kind = node.get("type")
        if kind is LITERAL_PAGES and "Kids" in node:
            for child in list_value(node["Kids"]):
                walk(child, (number, *ancestors))
        elif kind is LITERAL_PAGE:
            found.append((number, ancestors))

    if "Pages" in document.catalog:
        walk(document.catalog["Pages"], ())
    from_catalog = bool(found)
    if not found:
        for xref in document.xrefs:
            for number in xref.get_objids():
                try:
                    node = document.getobj(number)
                except PDFObjectNotFound:
                    continue
                if isinstance(node, dict) and node.get("Type") is LITERAL_PAGE:
                    found.append((number, ()))
    return _PageTree(tuple(found), from_catalog, _page_labels(document, len(found)))


def _page_labels(document: PDFDocument, count: int) -> tuple[str, ...]:
    """The label of each of the ``count`` pages by the PDF's ``/PageLabels``, empty
    ones when it has none, or labels pdfminer cannot read: they only name pages, and
    a document is read the same without them."""
    try:
        return tuple(islice(document.get_page_labels(), count))
    except Exception:  # PDFNoPageLabels, or pdfminer's many errors on a broken tree
        return ("",) * count


_LETTER: Rect = (0.0, 0.0, 612.0, 792.0)
"""The media box of a page without one, or with an empty one: pdfminer's default and
PDFium's."""


def _normalise_boxes(page: PDFPage) -> None:
    """Give ``page`` its media and crop boxes with the lower-left corner first, as
    PDFium reads them: pdfminer takes a box written ``[595 842 0 0]`` as it stands,
    and then reports a page of negative size with nothing on it.  An empty media box
    is US Letter, as for PDFium."""
    def normal(box: Rect) -> Rect:
        x0, y0, x1, y1 = box
        return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)

    media = normal(page.mediabox)
    if media[2] <= media[0] or media[3] <= media[1]:
        media = _LETTER
    page.mediabox = media
    page.cropbox = normal(page.cropbox)


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _visible_box(page: PDFPage, layout: LTPage) -> Rect:
    """The crop box in the interpreter's (rotated, bottom-left) space: x0, y0, x1, y1.

    pdfminer already rotates by ``/Rotate`` and moves the media box to the origin;
    the crop box has to follow the same transformation to know what is visible.
    """
    return _turned(page, visible_rect(page.mediabox, page.cropbox))


def _turned(page: PDFPage, rect: Rect) -> Rect:
    """The user-space ``rect`` of ``page`` in the interpreter's space, where pdfminer
    has turned the page by its ``/Rotate`` and moved its media box to the origin."""
    mx0, my0, mx1, my1 = page.mediabox
    cx0, cy0, cx1, cy1 = rect
    x0, y0, x1, y1 = cx0 - mx0, cy0 - my0, cx1 - mx0, cy1 - my0
    width, height = mx1 - mx0, my1 - my0
    rotate = (page.rotate or 0) % 360
    if rotate == 90:
        return y0, width - x1, y1, width - x0
    if rotate == 180:
        return width - x1, height - y1, width - x0, height - y0
    if rotate == 270:
        return height - y1, x0, height - y0, x1
    return x0, y0, x1, y1


def _page_glyphs(page_no: int, page: PDFPage, layout: LTPage,
                 covering: Mapping[int, tuple[Outline, ...]], weights: Mapping[int, int],
                 invisible: Set[int]) -> PageGlyphs:
    """Convert pdfminer's bottom-left objects to top-left glyphs and rules, cropped,
    without the glyphs a shape filled after them covers (the ids of such shapes are
    ``covering``; see `occlusion`), but for the characters drawn in a render mode that
    paints nothing (their ids ``invisible``); ``weights`` holds the weight of each
    character's font by the character's id."""
    vx0, vy0, vx1, vy1 = _visible_box(page, layout)
    chars: list[LTChar] = []
    painted: list[int] = []
    rules: list[Rule] = []
    images: list[BBox] = []
    fills: list[Fill] = []

    def box(x0: float, y0: float, x1: float, y1: float) -> BBox:
        return BBox(x0 - vx0, vy1 - y1, x1 - vx0, vy1 - y0)

    def shown(points: Iterable[Point]) -> Outline:
        return tuple((x - vx0, vy1 - y) for x, y in points)

    clips: dict[int, Outline] = {}  # a clip shared by many shapes is moved once

    def clip_shown(outline: Outline) -> Outline:
        if id(outline) not in clips:
            clips[id(outline)] = shown(outline)
        return clips[id(outline)]

    def visible(x0: float, y0: float, x1: float, y1: float) -> bool:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        return vx0 <= cx <= vx1 and vy0 <= cy <= vy1

    def walk(container: Any, form: int | None) -> None:
        """The items of ``container`` in painting order: the page's own at their
        places, those inside a form at the form's (its glyphs at none: no fill is
        known to cover them, as in the pdfium engine; pdfminer.six reads a form with
        the text state reset, where PDF keeps the render mode it is drawn in)."""
        for place, item in enumerate(container):
            if isinstance(item, LTChar):
                chars.append(item)
                painted.append(place if form is None else _UNPLACED)
            elif isinstance(item, (LTRect, LTLine, LTCurve)):
                rules.extend(_rules_of(item, box, visible))
                if id(item) in covering:
                    fills.append(Fill(shown(item.pts), place if form is None else form,
                                      tuple(map(clip_shown, covering[id(item)]))))
            elif isinstance(item, LTImage):
                if visible(item.x0, item.y0, item.x1, item.y1):
                    images.append(box(item.x0, item.y0, item.x1, item.y1))
            elif isinstance(item, LTContainer):
                walk(item, place if form is None else form)

    walk(layout, None)
    glyphs, kept = _glyphs(chars, (vx0, vy0, vx1, vy1), weights)
    if fills:
        glyphs = uncovered(glyphs, np.array(painted, dtype=np.int64)[kept], fills,
                           lambda found: np.fromiter((id(chars[k]) in invisible
                                                      for k in kept[found].tolist()),
                                                     dtype=np.bool_, count=len(found)))
    return PageGlyphs(page_no, vx1 - vx0, vy1 - vy0, glyphs, tuple(rules), tuple(images),
                      links=_links(page, box))


_LINK = LIT("Link")
_URI = LIT("URI")


def _links(page: PDFPage, box: Callable[[float, float, float, float], BBox]
           ) -> tuple[Link, ...]:
    """The link annotations of ``page`` whose action opens an address of a kept scheme
    ([`Link.kept`][layoutkit.model.Link.kept]), in the order of its ``/Annots``, their
    rectangles as ``box`` makes the interpreter's rectangles top-left boxes: the links
    the pdfium engine reads (`layoutkit.sources.pdfium.links`)."""
    found: list[Link] = []
    try:
        annotations = list_value(resolve1(page.annots or []))
    except Exception:  # a broken /Annots holds no link a reader can follow
        return ()
    for reference in annotations:
        try:
            annotation = dict_value(reference)
            action = dict_value(annotation.get("A")) if annotation.get("A") else {}
            if resolve1(annotation.get("Subtype")) is not _LINK or \
                    resolve1(action.get("S")) is not _URI:
                continue
            uri = resolve1(action.get("URI"))
            x0, y0, x1, y1 = (float(resolve1(v)) for v in list_value(annotation.get("Rect")))
        except Exception:  # pdfminer raises many types on broken objects
            continue
        if not isinstance(uri, bytes | str):
            continue
        text = uri.decode("utf-8", errors="replace") if isinstance(uri, bytes) else uri
        kept = Link.kept(box(*_turned(page, (min(x0, x1), min(y0, y1), max(x0, x1),
                                              max(y0, y1)))), text)
        if kept is not None:
            found.append(kept)
    return tuple(found)


_UNPLACED = np.iinfo(np.int64).max
"""The painting place of a glyph inside a form."""


def _glyphs(chars: Sequence[LTChar], visible: Rect, weights: Mapping[int, int]
            ) -> tuple[Glyphs, npt.NDArray[np.intp]]:
    """The characters whose centre lies in the ``visible`` rectangle, as glyph columns
    in top-left points (the weight of each one's font in ``weights``, by its id), and
    the index of each among ``chars``.  A glyph's size is
    the em across its baseline, as the pdfium engine gives it: pdfminer's size is its
    box's height, which for text running up or down the page is the advance."""
    vx0, vy0, vx1, vy1 = visible
    x0, y0, x1, y1 = np.array([(c.x0, c.y0, c.x1, c.y1) for c in chars],
                              dtype=np.float64).reshape(len(chars), 4).T
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    shown = (vx0 <= cx) & (cx <= vx1) & (vy0 <= cy) & (cy <= vy1)
    picked = [chars[k] for k in np.flatnonzero(shown).tolist()]
    directions = np.array([direction_of(*c.matrix[:4]) for c in picked], dtype=np.int16)
    sizes = np.array([c.size for c in picked], dtype=np.float64)
    across = directions % 180 == 90
    sizes[across] = (x1 - x0)[shown][across]
    return Glyphs(tuple(c.get_text() for c in picked),
                  np.stack([x0 - vx0, vy1 - y1, x1 - vx0, vy1 - y0], axis=1)[shown],
                  tuple(c.fontname for c in picked), sizes, directions,
                  np.array([weights[id(c)] for c in picked], dtype=np.int16)), np.flatnonzero(shown)


def _rules_of(
    item: LTCurve,
    box: Callable[[float, float, float, float], BBox],
    visible: Callable[[float, float, float, float], bool],
) -> list[Rule]:
    """The ruling lines a drawn path contributes: thin shapes, and the edges of stroked boxes."""
    x0, y0, x1, y1 = item.x0, item.y0, item.x1, item.y1
    if not visible(x0, y0, x1, y1):
        return []
    simple = isinstance(item, (LTLine, LTRect)) or len(item.pts) <= 5
    return shape_rules(x0, y0, x1, y1, simple=simple,
                       stroked_box=isinstance(item, LTRect) and bool(item.stroke), box=box)


