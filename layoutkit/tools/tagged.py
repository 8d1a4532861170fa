"""Truth mined from a tagged PDF: the producer's own reading order and element types.

A tagged PDF (PDF/UA; exported with a structure tree by Word, InDesign, Acrobat,
LibreOffice) says in its structure tree which text is a heading (``H1``-``H6``, ``H``),
a paragraph, a list item (``LI``), a table (``Table``), a contents entry (``TOC``,
``TOCI``), a caption or a note, and in which order they read; the running headers,
footers and folios are marked ``/Artifact`` and stand outside the tree.  `mine_truth`
turns that into a ``layoutkit.truth/1`` file:

- the tree is read per page with pdfplumber (`pdfplumber.structure.PDFStructTree`),
  custom types resolved to standard ones through the document's ``/RoleMap`` (chains
  followed); a tree whose parent tree pdfplumber cannot follow is walked from its root
  instead (`_root_walk`, pdfplumber's own walk);
- each *block* element (one that is not inline: ``Span``, ``Link``, ``Lbl``, ``LBody``
  and the like belong to the block around them) gathers the characters of its marked
  content (their ``mcid``) and of its inline descendants, in the order the page draws
  them, and cuts them into printed lines by their geometry: a character that does not
  share the current line's height (`SAME_LINE_OVERLAP`), or stands an em left of
  where the line has reached, starts a new line;
- blocks follow in the tree's order; the last line of a block and the first of the
  next are one printed line when they share its height and are cells of one table row,
  or stand closer than `RUN_IN_EMS` ems (a run-in heading, a list label);
- a line's text is its characters left to right, spaced as pdfplumber spaces words
  (`pdfplumber.utils.extract_text`); its types come from the elements around its first
  character; the first line of each ``P`` outside lists, tables, contents, notes and
  captions starts a paragraph of body text;
- the lines of a table row, read cell by cell, are cut again into the lines the row
  prints (pieces sharing a height, left to right); the lines of footnotes and endnotes
  (``Note``, ``FENote``), which Word tags where they are cited, go to the end of the
  page's body, where they are printed;
- the characters marked ``/Artifact`` make the page's furniture, cut into lines the same
  way; text under ``Figure`` and ``Formula`` is left out of the lines (a chart's labels
  are not body text).

A page is *refused* with a `TagsRefusedError` naming the file and the page, when its tags
contradict it: the document has no structure tree; more than `MAX_UNTAGGED_SHARE` of its
printed characters belong to no element and no artifact; more than
`MAX_BACKWARD_SHARE` of the steps between consecutive lines of one element in one column
go upward; more than `MAX_LATE_SHARE` of its elements are read after text printed
below them in their column; or all of its body, at least `MIN_ONE_ELEMENT_LINES` lines,
is one element.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby, islice, pairwise
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import DocumentError
from ..model import visual_order
from ..page_spec import parse_page_spec
from .truth import DocumentTruth, PageTruth, PageTypes

__all__ = ["MAX_BACKWARD_SHARE", "MAX_LATE_SHARE", "MAX_UNTAGGED_SHARE", "MINED",
           "MIN_ONE_ELEMENT_LINES", "RUN_IN_EMS", "SAME_LINE_OVERLAP", "MinedLine",
           "MinedPage", "TagsRefusedError", "mine_page", "mine_pages", "mine_truth",
           "standard_type"]

MAX_UNTAGGED_SHARE = 0.05
"""The share of a page's printed (non-blank) characters that may belong to no structure
element and be no artifact: above it the tree misses text of the page, and its reading
order cannot be the page's."""

MAX_BACKWARD_SHARE = 0.10
"""The share of steps between consecutive lines of one element, in one column (their
spans across the page overlap), that may go upward: above it the element's marked
content is not in reading order (a tree that reads a column from the bottom)."""

MAX_LATE_SHARE = 0.5
"""The share of a page's elements that may be read after a line of another element
printed below them in their column (`_late_share`): above it the tree follows something
else than the page (the order shapes were drawn on a slide, boxes put last, a title
read after the abstract), and most of its order would be wrong.  Fewer late elements
are a float or a text box placed out of the flow, which a reader may also read apart."""

MIN_ONE_ELEMENT_LINES = 8
"""A page of at least this many body lines that all come from one structure element is
refused: such a tree (everything one ``P`` or one ``Span``) tells no reading order
and no types."""

SAME_LINE_OVERLAP = 0.5
"""How much of the smaller height a character and a line must share vertically for the
character to be printed on that line."""

RUN_IN_EMS = 1.5
"""The widest gap, in ems of the font, between the end of one block and the start of
the next on the same printed line for both to be one line (a run-in heading, a list
label before its body); table cells of one row join whatever the gap."""

MINED = (f"Mined from the document's structure tree by layoutkit {__version__} "
         f"(layoutkit truth mine)")
"""What a mined page's ``checked`` says: who labelled it (the producer's tags) and how."""

CONVENTIONS = (
    "Lines are the text of the structure tree's block elements in the tree's order, "
    "cut into printed lines by geometry; furniture is the text marked /Artifact. Custom "
    "types are resolved through /RoleMap. headings: lines under H1-H6 with that level; "
    "a plain H takes the number of sections (Sect, Part, Art, Div) around it, at least "
    "1 and at most 6. listItems: the first line of each LI. tables: every line "
    "under Table (or a stray TR/TH/TD). contents: lines under TOC/TOCI. captions: "
    "lines under Caption. footnotes: lines under Note/FENote. Text under Figure and "
    "Formula is left out of the lines.")
"""The page conventions every mined truth file carries."""

_INLINE = frozenset({
    "Span", "Link", "Quote", "Reference", "BibEntry", "Code", "Annot", "Ruby", "RB",
    "RT", "RP", "Warichu", "WT", "WP", "Lbl", "LBody", "Em", "Strong", "Sub", "Form",
    "NonStruct", "Private"})
"""Inline types: their text belongs to the block element around them."""
_STANDARD = _INLINE | frozenset({
    "Document", "DocumentFragment", "Part", "Art", "Sect", "Div", "BlockQuote", "Caption",
    "TOC", "TOCI", "Index", "P", "H", "H1", "H2", "H3", "H4", "H5", "H6", "L", "LI",
    "Table", "TR", "TH", "TD", "THead", "TBody", "TFoot", "Figure", "Formula", "Note",
    "FENote", "Title", "Aside", "Artifact"})
"""The standard structure types of PDF 1.7 and PDF 2.0."""
_WORD_ROLES = {"InlineShape": "Figure", "Chart": "Figure", "Diagram": "Figure",
               "DropCap": "Figure", "Footnote": "Note", "Endnote": "Note", "TextBox": "Art",
               "Annotation": "Span", "Outline": "Span", "Strikeout": "Span",
               "Subscript": "Span", "Superscript": "Span", "Underline": "Span",
               "Bibliography": "BibEntry"}
"""The custom types Word writes and the standard ones its role maps give them: used
for a Word document whose tree has them but no ``/RoleMap`` (Word 2007 writes none)."""
_LEFT_OUT = frozenset({"Figure", "Formula"})
_SECTIONS = frozenset({"Sect", "Part", "Art", "Div"})
_NOTES = frozenset({"Note", "FENote"})
_HEADING = re.compile(r"^H([1-6])$")


class TagsRefusedError(DocumentError):
    """A tagged PDF whose tags contradict its pages (or that has none): its truth cannot
    be mined.  The message is one line naming the file, the page and the reason."""


@dataclass(frozen=True)
class MinedLine:
    """A printed line: its text, its box (top-left points: ``x0, top, x1, bottom``), the
    standard types of the elements around its first character, outermost first
    (``path``), the identities of those elements (``ids``) and of its first block
    (``block``)."""

    text: str
    box: tuple[float, float, float, float]
    path: tuple[str, ...]
    ids: tuple[int, ...]
    block: int


@dataclass(frozen=True)
class MinedPage:
    """One page mined: its number, its body lines in the tree's order, its furniture
    lines, and the shares the refusal rules look at: of its printed characters in no
    element (``untagged``), of its elements' line steps going upward (``backward``),
    of its elements read after text below them in their column (``late``)."""

    page: int
    lines: tuple[MinedLine, ...]
    furniture: tuple[str, ...]
    untagged: float
    backward: float
    late: float = 0.0


def standard_type(name: str, role_map: Mapping[str, Any]) -> str:
    """The standard type ``name`` stands for: followed through ``role_map`` (a PDF
    ``/RoleMap``: names to names) until a standard type is reached, a name maps to
    nothing, or a chain loops (then the last name reached).  A custom name the map
    lacks is Word's if Word writes it (`_WORD_ROLES`), else itself."""
    seen = {name}
    if name not in _STANDARD and name not in role_map:
        return _WORD_ROLES.get(name, name)
    while name not in _STANDARD and name in role_map:
        target = role_map[name]
        name = target.name if hasattr(target, "name") else str(target)
        if isinstance(name, bytes):
            name = name.decode("latin-1")
        if name in seen:
            break
        seen.add(name)
    return name


def mine_truth(path: Path, truth_path: Path, pages: str | None = None, *,
               document: str | None = None, sha256: str | None = None,
               numbers: Mapping[int, int] | None = None) -> DocumentTruth:
    """The truth of ``path``'s pages (``pages``, a page spec; default all) mined from its
    structure tree, to be stored at ``truth_path``.  ``document`` and ``sha256`` name
    the document the truth is for (default: ``path`` from the truth file's folder and
    its digest); ``numbers`` renumbers pages (a page cut out of ``path`` into another
    file).  Raises TagsRefusedError when a page's tags contradict it."""
    from ..files import sha256_of
    from .truth_draft import document_reference

    mined = mine_pages(path, pages)
    renumber = dict(numbers or {})
    return DocumentTruth(
        path=truth_path,
        document=document if document is not None else document_reference(path, truth_path),
        sha256=sha256 if sha256 is not None else sha256_of(path),
        pages=tuple(page_truth(page, truth_path, renumber.get(page.page, page.page))
                    for page in mined),
        checked=MINED, conventions=CONVENTIONS)


def mine_pages(path: Path, pages: str | None = None) -> list[MinedPage]:
    """Each page of ``path`` that ``pages`` names (default: all) mined; raises
    TagsRefusedError on the first page refused, UsageError for a bad page spec, DocumentError
    for a file that is not a PDF."""
    import pdfplumber
    from pdfminer.pdfparser import PDFSyntaxError

    try:
        pdf = pdfplumber.open(path)
    except (PDFSyntaxError, OSError) as error:
        raise DocumentError(f"{path}: cannot be read as a PDF ({error})") from None
    with pdf:
        if "StructTreeRoot" not in pdf.doc.catalog:
            raise TagsRefusedError(f"{path}: not tagged: the document has no structure tree")
        count = len(pdf.pages)
        chosen = parse_page_spec(pages, count, _labels(pdf)) if pages else range(1, count + 1)
        return [_refused(path, mine_page(pdf, pdf.pages[number - 1])) for number in chosen]


def _labels(pdf: Any) -> list[str]:
    """The page labels of an open pdfplumber document (none when it has none)."""
    try:
        return list(islice(pdf.doc.get_page_labels(), len(pdf.pages)))  # an endless iterator
    except Exception:  # pdfminer raises PDFNoPageLabels, or fails on a broken tree
        return []


def _refused(path: Path, page: MinedPage) -> MinedPage:
    """``page`` itself, or TagsRefusedError naming ``path`` and the page when its tags
    contradict it."""
    where = f"{path}: page {page.page}"
    if page.untagged > MAX_UNTAGGED_SHARE:
        raise TagsRefusedError(f"{where}: the structure tree misses {page.untagged:.0%} of the "
                          f"page's text (at most {MAX_UNTAGGED_SHARE:.0%} allowed)")
    if page.backward > MAX_BACKWARD_SHARE:
        raise TagsRefusedError(f"{where}: the structure tree reads {page.backward:.0%} of its "
                          f"elements' lines upward (at most {MAX_BACKWARD_SHARE:.0%} "
                          f"allowed)")
    if page.late > MAX_LATE_SHARE:
        raise TagsRefusedError(f"{where}: the structure tree reads {page.late:.0%} of the "
                               f"page's elements after text printed below them in their "
                               f"column (at most {MAX_LATE_SHARE:.0%} allowed)")
    if not page.lines:
        raise TagsRefusedError(f"{where}: the structure tree holds no text of the page")
    if len(page.lines) >= MIN_ONE_ELEMENT_LINES and len({line.block for line in page.lines}) == 1:
        raise TagsRefusedError(f"{where}: the structure tree holds all {len(page.lines)} lines "
                          f"of the page in one element ({page.lines[0].path[-1]})")
    return page


# ---------------------------------------------------------------- the tree of one page


def _lenient_tree() -> Any:
    """pdfplumber's `PDFStructTree` made to ignore an element's attributes it cannot
    read (an attribute object left as a reference, which pdfplumber does not resolve):
    mining reads types and marked content, not attributes."""
    from pdfplumber.structure import PDFStructTree

    class Lenient(PDFStructTree):
        def _make_attributes(self, obj: dict[str, Any], revision: int | None
                             ) -> dict[str, Any]:
            try:
                attributes: dict[str, Any] = super()._make_attributes(obj, revision)
            except (AttributeError, TypeError, KeyError):
                return {}
            return attributes

    return Lenient


def _root_walk(pdf: Any, page: Any) -> Any:
    """``page``'s structure tree walked from the root by pdfplumber (its own way when a
    document has no parent tree), for a tree whose parent tree it cannot follow (an
    element without its parent ``/P``)."""
    from pdfminer.pdftypes import resolve1

    kind = _lenient_tree()
    tree = kind.__new__(kind)
    tree.doc = pdf.doc
    tree.root = resolve1(pdf.doc.catalog["StructTreeRoot"])
    tree.role_map = resolve1(tree.root.get("RoleMap", {}))
    tree.class_map = resolve1(tree.root.get("ClassMap", {}))
    tree.children = []
    tree.page, tree.pages, tree.page_dict = page, {page.page_number: page}, None
    tree._parse_struct_tree()
    return tree


def _tree(pdf: Any, page: Any) -> Any:
    """``page``'s structure tree as pdfplumber reads it, walked from the root when
    pdfplumber cannot follow its parent tree; TagsRefusedError when neither way reads it."""
    try:
        return _lenient_tree()(pdf, page)
    except Exception:  # a malformed parent tree (KeyError 'P', a broken number tree)
        pass
    try:
        return _root_walk(pdf, page)
    except Exception as error:
        raise TagsRefusedError(f"{pdf.stream.name if hasattr(pdf.stream, 'name') else 'PDF'}: "
                          f"page {page.page_number}: the structure tree cannot be read "
                          f"({type(error).__name__}: {error})") from None


@dataclass(frozen=True)
class _Block:
    """A block element's marked content: the MCIDs of it and its inline descendants,
    the standard types of the elements around it, outermost first, and their
    identities."""

    mcids: tuple[int, ...]
    path: tuple[str, ...]
    ids: tuple[int, ...]


def _blocks(tree: Any) -> list[_Block]:
    """The block elements of ``tree`` (a `PDFStructTree`) in the tree's order, each with
    the MCIDs of its own marked content and of its inline descendants."""
    role_map = tree.role_map or {}
    blocks: list[_Block] = []

    def inline_mcids(element: Any) -> Iterator[int]:
        yield from element.mcids
        for child in element.children:
            if standard_type(child.type, role_map) in _INLINE:
                yield from inline_mcids(child)

    def visit(element: Any, path: tuple[str, ...], ids: tuple[int, ...]) -> None:
        kind = standard_type(element.type, role_map)
        path, ids = (*path, kind), (*ids, id(element))
        inline = kind in _INLINE and len(path) > 1
        if not inline:
            mcids = tuple(inline_mcids(element))
            if mcids:
                blocks.append(_Block(mcids, path, ids))
        for child in element.children:
            if inline and standard_type(child.type, role_map) in _INLINE:
                continue
            if not inline and standard_type(child.type, role_map) in _INLINE:
                _nested_blocks(child, path, ids)
                continue
            visit(child, path, ids)

    def _nested_blocks(element: Any, path: tuple[str, ...], ids: tuple[int, ...]) -> None:
        # an inline element's text is its block's; a block inside it still is one
        kind = standard_type(element.type, role_map)
        for child in element.children:
            if standard_type(child.type, role_map) in _INLINE:
                _nested_blocks(child, (*path, kind), (*ids, id(element)))
            else:
                visit(child, (*path, kind), (*ids, id(element)))

    for element in tree.children:
        visit(element, (), ())
    return blocks


# ---------------------------------------------------------------- characters to lines


def mine_page(pdf: Any, page: Any) -> MinedPage:
    """One page of an open pdfplumber document mined: its body lines in the tree's
    order, its artifact lines, the share of its printed characters no element holds and
    the share of its elements' line steps that go upward (not yet refused)."""
    tree = _tree(pdf, page)
    chars = page.chars
    by_mcid: dict[int, list[dict[str, Any]]] = {}
    for char in chars:
        if char.get("mcid") is not None and char.get("tag") != "Artifact":
            by_mcid.setdefault(char["mcid"], []).append(char)
    order = {id(char): k for k, char in enumerate(chars)}
    blocks = _blocks(tree)
    held: set[int] = set()
    lines: list[MinedLine] = []
    steps = backward = 0
    for number, block in enumerate(blocks):
        mine = sorted((c for m in dict.fromkeys(block.mcids) for c in by_mcid.get(m, ())),
                      key=lambda c: order[id(c)])
        held.update(id(c) for c in mine)
        if any(kind in _LEFT_OUT for kind in block.path):
            continue
        cut = [run for run in _printed_lines(mine, join_gap=None) if _text(run).strip()]
        for a, b in pairwise(cut):
            if _overlaps_across(a, b):
                steps += 1
                backward += _box(b)[3] <= _box(a)[1]
        for run in cut:
            line = MinedLine(_text(run), _box(run), block.path, block.ids, number)
            if lines and _joins(lines[-1], line, run, blocks):
                lines[-1] = _joined(lines[-1], line)
            else:
                lines.append(line)
    printed = [c for c in chars if c["text"].strip() and c.get("tag") != "Artifact"]
    untagged = sum(1 for c in printed if id(c) not in held)
    artifacts = [c for c in chars if c.get("tag") == "Artifact"]
    furniture = tuple(text for run in _printed_lines(artifacts, join_gap=RUN_IN_EMS)
                      if (text := _text(run).strip()))
    lines = _rows_as_printed(lines)
    notes = [line for line in lines if _NOTES.intersection(line.path)]
    lines = [line for line in lines if not _NOTES.intersection(line.path)] + notes
    return MinedPage(page.page_number, tuple(lines), furniture,
                     untagged / len(printed) if printed else 0.0,
                     backward / steps if steps else 0.0, _late_share(lines))


def _row(line: MinedLine) -> int | None:
    """The identity of the innermost table row around ``line``, None outside tables."""
    return next((i for i, kind in zip(reversed(line.ids), reversed(line.path), strict=True)
                 if kind == "TR"), None)


def _rows_as_printed(lines: Sequence[MinedLine]) -> list[MinedLine]:
    """``lines`` with the lines of each table row (read cell by cell) cut again into
    the lines the row prints: pieces that share a height, left to right, top to
    bottom."""
    out: list[MinedLine] = []
    for row, group in groupby(lines, key=_row):
        pieces = list(group)
        if row is None or len(pieces) == 1:
            out += pieces
            continue
        printed: list[list[MinedLine]] = []
        for piece in sorted(pieces, key=lambda p: p.box[1]):
            home = next((found for found in printed
                         if _same_height(min(p.box[1] for p in found),
                                         max(p.box[3] for p in found),
                                         piece.box[1], piece.box[3])), None)
            if home is None:
                printed.append([piece])
            else:
                home.append(piece)
        for found in printed:
            found.sort(key=lambda p: p.box[0])
            first = min(found, key=pieces.index)
            box = (min(p.box[0] for p in found), min(p.box[1] for p in found),
                   max(p.box[2] for p in found), max(p.box[3] for p in found))
            out.append(MinedLine(" ".join(p.text for p in found), box, first.path, first.ids,
                                 first.block))
    return out


def _late_share(lines: Sequence[MinedLine]) -> float:
    """The share of the elements of ``lines`` read after a line of another element
    printed below them in their column (their spans across the page overlap by half
    the narrower): text the tree reads once its column was left (a text box Word puts
    last, a title read after the abstract).  Elements count, not lines, so a long
    paragraph read in its place weighs no more than a heading read out of it.
    Captions neither count nor make others late: a caption read before the table or
    figure it is printed under is the tagging's own convention."""
    placed = [line for line in lines if "Caption" not in line.path]
    late: set[int] = set()
    for k, line in enumerate(placed):
        x0, _, x1, bottom = line.box
        for before in placed[:k]:
            bx0, btop, bx1, _ = before.box
            shared = min(x1, bx1) - max(x0, bx0)
            if before.block != line.block and btop >= bottom and \
                    shared >= 0.5 * min(x1 - x0, bx1 - bx0):
                late.add(line.block)
                break
    blocks = {line.block for line in placed}
    return len(late) / len(blocks) if blocks else 0.0


def _printed_lines(chars: Sequence[dict[str, Any]], join_gap: float | None
                   ) -> list[list[dict[str, Any]]]:
    """``chars`` (in the order drawn) cut into printed lines: a character starts a new
    line when it does not share the line's height (`SAME_LINE_OVERLAP`), or jumps back
    more than an em left of the character before and of the line's end (a new line under
    tall letters that span two); with ``join_gap`` (ems), also when it stands farther
    than that from the line's ends.  Text drawn right to left letter by letter, as
    Hebrew and Arabic may be, stays one line.  Turned
    text (a character not upright: a margin stamp printed up the page) makes lines of
    its own, cut where a character does not share the line's span across the page."""
    runs: list[list[dict[str, Any]]] = []
    top = bottom = left = right = 0.0
    for char in chars:
        upright = _upright(char)
        low, high = (char["top"], char["bottom"]) if upright else (char["x0"], char["x1"])
        em = char["size"]
        near = join_gap is None or not upright or (
            char["x0"] - right <= join_gap * em and left - char["x1"] <= join_gap * em)
        # back into the line's span from its end: a new line, not a letter or a segment
        # of a right-to-left line drawn leftward (those land left of the line)
        back = upright and bool(runs) and char["text"].strip() != "" and \
            left - em / 2 <= char["x0"] < right - em and \
            char["x1"] < runs[-1][-1]["x0"] - em
        if runs and _upright(runs[-1][0]) == upright and near and not back and \
                _same_height(top, bottom, low, high):
            runs[-1].append(char)
            top, bottom = min(top, low), max(bottom, high)
            left, right = min(left, char["x0"]), max(right, char["x1"])
        else:
            runs.append([char])
            top, bottom, left, right = low, high, char["x0"], char["x1"]
    return runs


def _upright(char: dict[str, Any]) -> bool:
    """Whether ``char`` is printed upright: its text matrix advances it rightward more
    than up or down (pdfminer's own ``upright`` takes a glyph turned a quarter with a
    rounding error in its matrix for an upright one)."""
    matrix = char.get("matrix")
    if not matrix:
        return bool(char.get("upright", True))
    a, b = matrix[0], matrix[1]
    return bool(a > abs(b))


def _same_height(top: float, bottom: float, char_top: float, char_bottom: float) -> bool:
    """Whether a character spanning ``char_top``-``char_bottom`` is printed on a line
    spanning ``top``-``bottom``."""
    shared = min(bottom, char_bottom) - max(top, char_top)
    return shared >= SAME_LINE_OVERLAP * max(min(bottom - top, char_bottom - char_top), 0.1)


def _text(run: Sequence[dict[str, Any]]) -> str:
    """The text of a printed line's characters, left to right, spaced as pdfplumber
    spaces words; a line holding right-to-left letters (Hebrew, Arabic) put from that
    visual order into logical order by the Unicode bidi algorithm (python-bidi, as
    layoutkit's reading does), in the direction most of its letters have, the letters
    of a glyph that spells several (pdfplumber gives a ligature's in logical order)
    put in visual order first."""
    from pdfplumber.utils.text import extract_text

    if not _upright(run[0]):  # turned text: in the order drawn
        return " ".join("".join(c["text"] for c in run).split())
    # a glyph of several letters (a lam-alef ligature) stands in visual order too
    shown = [{**c, "text": visual_order(c["text"])} if len(c["text"]) > 1 else c for c in run]
    text = " ".join(str(extract_text(shown, y_tolerance=10_000)).split())
    classes = [unicodedata.bidirectional(c) for c in text]
    rtl = sum(1 for c in classes if c in ("R", "AL"))
    if rtl:
        from bidi import get_display

        ltr = sum(1 for c in classes if c == "L")
        text = str(get_display(text, base_dir="R" if rtl >= ltr else "L"))
    return text


def _box(run: Sequence[dict[str, Any]]) -> tuple[float, float, float, float]:
    """The box of a run of characters (x0, top, x1, bottom)."""
    return (min(c["x0"] for c in run), min(c["top"] for c in run),
            max(c["x1"] for c in run), max(c["bottom"] for c in run))


def _overlaps_across(a: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]]) -> bool:
    """Whether two upright lines stand in one column: their spans across the page
    overlap."""
    if not (_upright(a[0]) and _upright(b[0])):
        return False
    ax0, _, ax1, _ = _box(a)
    bx0, _, bx1, _ = _box(b)
    return min(ax1, bx1) > max(ax0, bx0)


def _joins(last: MinedLine, line: MinedLine, run: Sequence[dict[str, Any]],
           blocks: Sequence[_Block]) -> bool:
    """Whether ``line`` (the first printed line of a block) continues ``last`` (the last
    line of the block before) on the same printed line: the same height, to its right,
    and cells of one table row or closer than `RUN_IN_EMS` ems."""
    if line.block == last.block:
        return False
    x0, top, _, bottom = line.box
    _, ltop, lx1, lbottom = last.box
    if not _same_height(ltop, lbottom, top, bottom) or x0 < lx1 - 1:
        return False
    rows = [i for i, kind in zip(last.ids, last.path, strict=True) if kind == "TR"]
    if rows and rows[-1] in line.ids:
        return True
    size = max(c["size"] for c in run)
    return bool(x0 - lx1 <= RUN_IN_EMS * size)


def _joined(last: MinedLine, line: MinedLine) -> MinedLine:
    """``last`` and ``line`` as one printed line, typed by ``last``'s first character."""
    box = (min(last.box[0], line.box[0]), min(last.box[1], line.box[1]),
           max(last.box[2], line.box[2]), max(last.box[3], line.box[3]))
    return MinedLine(f"{last.text} {line.text}", box, last.path, last.ids, last.block)


# ---------------------------------------------------------------- lines to truth


def page_truth(page: MinedPage, truth_path: Path, number: int) -> PageTruth:
    """The `PageTruth` of a mined ``page``, numbered ``number`` (its own, or its place
    in a file cut from the document)."""
    lines = page.lines
    return PageTruth(
        document=truth_path.name, page=number, lines=tuple(line.text for line in lines),
        furniture=page.furniture, excluded=(), checked=MINED, path=truth_path,
        types=PageTypes(
            headings=tuple(_headings(lines)),
            list_items=tuple(_first_lines(lines, "LI")),
            tables=_typed(lines, {"Table", "TR", "TH", "TD"}),
            contents=_typed(lines, {"TOC", "TOCI"}),
            captions=_typed(lines, {"Caption"}),
            footnotes=_typed(lines, {"Note", "FENote"}),
            paragraphs=tuple(_first_lines(
                (line for line in lines if not _NOT_BODY.intersection(line.path)), "P"))))


_NOT_BODY = frozenset({"L", "LI", "Table", "TR", "TH", "TD", "TOC", "TOCI", "Note", "FENote",
                       "Caption", "Form"})
"""The elements whose paragraphs are no paragraphs of body text: a list item's, a table
cell's, a contents entry's, a note's, a caption's or a form field's (a figure's text is
no line at all)."""


def _typed(lines: Iterable[MinedLine], kinds: set[str]) -> tuple[str, ...]:
    """The texts of the lines under an element of one of ``kinds``."""
    return tuple(line.text for line in lines if kinds.intersection(line.path))


def _headings(lines: Iterable[MinedLine]) -> Iterator[tuple[int, str]]:
    """(level, text) of the lines under a heading element: ``H1``-``H6`` give their
    level; a plain ``H`` the number of sections (``Sect``, ``Part``, ``Art``,
    ``Div``) around it, at least 1 and at most 6."""
    for line in lines:
        for depth, kind in reversed(list(enumerate(line.path))):
            found = _HEADING.match(kind)
            if found:
                yield int(found[1]), line.text
                break
            if kind == "H":
                sections = sum(1 for k in line.path[:depth] if k in _SECTIONS)
                yield min(max(sections, 1), 6), line.text
                break


def _first_lines(lines: Iterable[MinedLine], kind: str) -> Iterator[str]:
    """The first line under each element of ``kind``."""
    seen: set[int] = set()
    for line in lines:
        new = [i for i, k in zip(line.ids, line.path, strict=True) if k == kind and i not in seen]
        if new:
            seen.update(new)
            yield line.text
