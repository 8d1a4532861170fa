"""Running headers and footers, found by position and repetition across pages.

The lines chosen are typed `h`/`f` and kept out of segmentation.  Repetition is looked
for among the first (last) lines of a page's top (bottom) zone (`furniture_top`,
`furniture_bottom`, `line_header_max_lines`, `line_footer_max_lines`), digits and Roman
numerals masked; the lines of every page are indexed by page and height once, so each
line is compared with the lines of nearby pages only.

A line is furniture when one of these holds:

- It repeats, within a few edits, a line at nearly the same height on the previous or
  next page, or on the one before or after that for headers alternating between left
  and right pages; the first and last pages compare with their one neighbour (DCR's
  rule: `furniture_max_distance`, `furniture_y_tolerance`, `furniture_min_letters`).
- A line of nearly the same words in any order stands there on enough of the other
  pages in a window around its own, or of those whose labels have its parity, since
  mirrored headers swap their parts (`furniture_min_similarity`,
  `furniture_min_share`, `furniture_window_pages`).
- It is a page's outermost line, far apart from the body and set no larger than it,
  and a neighbouring page's outermost line is so set at the same height and size: a
  running head that names the chapter or section, whose words change.
- It is a bare page number; or a page number named as one, with the word for page or
  for "of" ('Página 1 de 9'), set apart, wherever it stands among the candidates (under
  a display title that is none).  A page's outermost line that is a bare page number,
  near the edge and no larger than the text, is a candidate even past the zone (a page
  set with wide margins).
- It repeats close over the body while a neighbouring page shows the same line set
  apart from its body, or it stands in the trim margin (`furniture_min_gap_em`,
  `furniture_trim_margin`).
- On a page with no running header of its own (a document's or a part's first page),
  it is a masthead piece near the top whose words are a run of a neighbouring page's
  running header, set no larger than it (`furniture_masthead_top`,
  `furniture_masthead_max_size`).
- Lower down, it is a masthead's dateline carrying a long run of the header's words,
  under a nameplate: a picture, or text set larger (`furniture_dateline_top`,
  `furniture_cover_dateline_top`, `furniture_masthead_min_run`).
- It stands outside the document's text block, in small type or set far apart (an
  imprint, a licence notice, a colophon), a block of close lines counted as a whole
  (`furniture_block_min_pages`, `furniture_block_max_size`, `furniture_block_max_lines`,
  `furniture_block_foot_gap_em`).  A line standing on a drawing (a picture, a rule running
  down: a chart's tick labels at the top of a page) is none.
- Where no neighbouring page repeats its lines (a page alone, a first page), it is a
  folio set apart beside a running title or a date, or parted from it by a bar or a
  bullet ('14 | Interview'), the folio maybe with a letter, 'S1984'
  (`furniture_folio_min_words`, `furniture_folio_gap_em`, `furniture_piece_gap_em`).
- Where too few pages show the text block, it is a line in small type far from the
  text, at the foot or at the top (under the running header, if any): a proof stamp, a
  section's name under a header bar, a journal's imprint over an article's first page
  (`furniture_stamp_gap_em`).
- It is a masthead's row of short pieces with nothing above it but the header and the
  nameplate: an issue row on a ruled bar, or a banner right over the title
  (`furniture_nameplate_min_size`, `furniture_bar_gap_em`, `furniture_row_max_words`).
- On a page of vertical writing, found where its columns read as lines, it is a
  column in the margin beside the text, set apart: a folio alone or beside a running
  title ('六（第二頁）', Chinese numerals read as numbers).
- It is rotated text in the side margins, a proof stamp (`furniture_stamp_max_lines`),
  or rotated or diagonal text printed over the upright text, a watermark.
- It is a line number printed in a margin: a review copy's ruler, pleading paper's
  numbers, a patent's (`line_numbers`).

A line stands apart from the body by its own size's gap, or by twice the white the
body's lines have between them (read from the candidates, or, on a page with a single
candidate at each edge, from the lines right past the zones).  A run is cut back to
such a gap, but for a bare folio right over (under) a line that stands apart: the two
are a block at the page's edge ('IJCAI-07' over '2671'), furniture both when the line
is set no larger than the body.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import partial

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from ..config import LayoutConfig
from ..model import BBox, Rule, Word, is_cjk, turned_boxes
from .grid import OVERPRINT_INSET, overlapping, weighted_median
from .line_numbers import line_numbers
from .numerals import ROMAN_DIGITS, roman_value
from .words import VERTICAL, group_lines, split_at_gaps

__all__ = [
    "EdgeLines", "Furniture", "Runs", "body_words", "edge_lines", "find_furniture",
    "is_page_number", "mask_numbers", "page_furniture", "repeating_runs",
]

_NUMBER = re.compile(rf"\d+|\b[{''.join(ROMAN_DIGITS)}]+\b", re.IGNORECASE)
_PAGE_WORDS = ("page", "pages", "p", "pg", "seite", "s", "página", "pág", "pagina", "pag",
               "bladzijde", "blz", "strona", "str", "страница", "стр", "σελίδα", "σελ", "sayfa",
               "sivu", "sida", "side", "עמוד", "עמ", "صفحة", "ص", "第")
"""The word for "page" (and its abbreviations) in the languages of the documents read
(English, German, French, Spanish, Portuguese, Italian, Dutch, Polish, Russian, Greek,
Turkish, Finnish, Swedish, Danish and Norwegian, Hebrew, Arabic; 第 opens a Chinese or
Japanese page number, 第3頁)."""
_OF_WORDS = ("of", "von", "de", "di", "van", "z", "из", "από", "/")
"""The word for "of" between a page number and the page count ("Page 3 of 40")."""
_NAMED_END = re.compile(
    rf"\b({'|'.join(w for w in _PAGE_WORDS if len(w) > 3)})\.?\s*#(\s*({'|'.join(_OF_WORDS)})"
    r"\s*#)?[^\w#]*$", re.IGNORECASE)
"""A line's end that names its page, masked: the word for page spelled out (not an
abbreviation, as a reference's 'p. 4' or 'pág. 4' is) and its number, maybe with the page count
('…, Tuesday 15 July 1902, page 4', 'Rev. A | Page 4 of 24')."""
_PAGE_NUMBER = re.compile(
    rf"^[^\w#]*(({'|'.join(_PAGE_WORDS)})\.?\s*)?#(\s*({'|'.join(_OF_WORDS)})\s*#)?"
    r"\s*(頁|页|ページ)?[^\w#]*$", re.IGNORECASE)
"""A bare page number, masked (`mask_numbers`): one number, maybe with the word for
page and the page count, among marks ('- 3 -', 'Page 3 of 40'); not a row of numbers
(a chart's tick labels, '20 10 0 10 20')."""
_TOKEN = re.compile(r"[^\W_]+|#")
_LETTERED_FOLIO = re.compile(r"^\W*([^\W\d_]-?#|#-?[^\W\d_])\W*$")
"""A page number, masked, with a letter before or after it: the folios of a journal's
parts or of a gazette's sections ('S1984', 'H596', 'A-12', '12a')."""
_WRAPPED_FOLIO = re.compile(r"^\W*#\s*[(（]\s*第?\s*#\s*[頁页]?\s*[)）]\W*$")
"""A number followed by the page's place in brackets ('六（第二頁）': a leaf's folio
beside the page's)."""
_NEGATIVE = re.compile(r"^\s*\(\s*\d[\d,.]*\s*\)\s*$")
"""A number in figures in brackets: an account's figure below zero beside its row's
label ('SURPLUS/ (DEFICIT) FOR YEAR (467)'), no folio (a Roman one, '(xc)', may be)."""
_ENUMERATOR = re.compile(r"^\s*(§+\s*#\W*|#[.)])\s*$")
"""A number, masked, that counts a list's items or a statute's sections ('7.', '4)',
'§ 6'), set apart from its text by a tab: no folio."""
_NOTE_MARKS = ".,:;()[]"
"""The marks around a note's number, at a footnote's start or at its call ('1.', '(2)')."""
_RUNNING_HEAD_GAP_EM = 2.0
"""White, in its sizes, under a running head (over a running foot) whose words change
from page to page: a heading at the top of a page's text stands closer to its text."""
_SAME_SIZE = 0.05
"""Sizes within this share of each other are one type size (a PDF's sizes come from
matrices, and rounding parts 9.96 from 10)."""
_CJK_NUMBER = re.compile("[〇零一二三四五六七八九十百千]+")
"""A number in Chinese numerals, masked as ``#`` in a folio piece set in CJK script."""


def _cjk_piece(piece: Sequence[Word]) -> bool:
    """Whether a line's piece is set in CJK script: its words run on without spaces."""
    return any(is_cjk(c) for w in piece for c in w.text)


def is_page_number(text: str) -> bool:
    """Whether a line reading ``text`` is a bare page number ('- 3 -', 'Page 3 of 40',
    'iv', '第3頁'; `_PAGE_NUMBER`)."""
    return _PAGE_NUMBER.match(mask_numbers(text)) is not None


def mask_numbers(text: str, roman_below: int | None = None) -> str:
    """``text`` with every run of digits and every well-formed Roman numeral (of a value
    below ``roman_below``, if given) replaced by ``#`` ("Civic" or "did" are words, not
    numerals)."""
    def masked(found: re.Match[str]) -> str:
        number = found[0]
        if number[0].isdigit():
            return "#"
        value = roman_value(number.lower())
        return "#" if value is not None and (roman_below is None or value < roman_below) \
            else number

    return _NUMBER.sub(masked, text)


_ROMAN_FOLIO_BELOW = 100
"""Roman numerals number a book's front matter, never a hundred pages of it: a piece
'(c)' or 'D' beside a line is a figure's panel or a section's letter, no folio."""


@dataclass(frozen=True, slots=True)
class Furniture:
    """The words of one page that are running header, footer or margin text."""

    header: frozenset[int]
    footer: frozenset[int]
    margin: frozenset[int]


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A line that may be furniture: its extent, size, text with numbers masked and
    the indexes of its words, and its distance from the page edge it stands by (its
    top's from the top edge, its bottom's from the bottom edge): pages of one document
    may differ in height, and a footer keeps its distance from the foot."""

    top: float
    bottom: float
    size: float
    masked: str
    words: tuple[int, ...]
    edge: float
    inner_gap: float = float("inf")
    """The white space between the line and the nearest text further into the page
    (for header and footer candidates)."""
    numbered: bool = False
    """Whether the line opens or ends with the page's own number (its label, or its
    place in the file) after at least ``furniture_folio_min_words`` other words."""
    folio: bool = False
    """Whether the line opens or ends with a page number of any value standing apart
    from the rest of the line, a piece of its own (``furniture_piece_gap_em``), beside
    words: a folio beside a running title or a date, on a page whose neighbours are not
    in the file to repeat it (an excerpt, a cover).  The number may carry a letter
    before or after it ('S1984', 'H596', 'A-12', '12a')."""
    apart: bool = False
    """Whether the line stands apart from the body by more than the body's own spacing:
    the white space under it (over it, at the foot) is at least twice the page's usual
    white space between lines (see `_leading`) and at least
    ``furniture_min_gap_em`` of the page's usual font size.  A running header set larger
    than the body over a closely set text is parted from it by less than its own size's
    gap, but by far more than the body's lines are from each other."""
    note: bool = False
    """Whether the line opens with a number the page's text calls as a note (`note_calls`):
    a footnote, the page's own text wherever it stands, whatever its number."""
    drawn: bool = False
    """Whether the line stands on a drawing: a picture, or a rule running down the page,
    meets its box grown by its size on every side (a chart's tick labels and axis
    title, a key, a panel's label).  A chart at the top of a page is no imprint over
    the text block (`_beyond_text_block`), nor a stamp (`_stamp`): its labels are set
    small beyond the text block, and a running header's rule runs across, not down."""


@dataclass(frozen=True, slots=True)
class EdgeLines:
    """A page's candidate header and footer lines, outermost first: all that the
    comparison across pages needs of a page."""

    header: tuple[_Candidate, ...]
    footer: tuple[_Candidate, ...]
    height: float = 0.0
    """The page's height."""
    size: float = 0.0
    """The page's usual font size: the median size of its words, by characters (0
    for a page without words)."""
    width: float = 0.0
    """The page's width (0 when not known: no frame of vertical writing is looked at)."""
    parity: int | None = None
    """Whether the page's number as printed (its label, or its place in the file) is
    odd (1) or even (0); None for a page whose label is no number (a plate, a
    cover): the side of the spread it stands on, which alternating headers follow."""


@dataclass(frozen=True, slots=True)
class Runs:
    """What of a page's `EdgeLines` repeats on other pages: how many of its
    header and of its footer candidate lines, from the page edge inwards, and, for a
    page without a running header of its own, the running header lines of its
    neighbours that its masthead may spell out (their sizes and words, digits masked
    and case aside)."""

    header: int
    footer: int
    nearby: tuple[tuple[float, tuple[str, ...]], ...] = ()
    held: tuple[int, int] = (0, 0)
    """How many of the header and of the footer run, from the edge inwards, repeat a
    neighbouring page's lines that stand apart from its body there: furniture
    however close the body comes on this page (a running header over a table that
    starts right under it)."""


def body_words(words: Sequence[Word], furniture: Furniture) -> tuple[list[Word], list[Word]]:
    """The words of the page body: upright ones (to segment) and rotated ones."""
    taken = furniture.header | furniture.footer | furniture.margin
    body = [w for i, w in enumerate(words) if i not in taken]
    rotated = [w for w in body if w.direction]
    return ([w for w in body if w.upright] if rotated else body), rotated


def find_furniture(pages: Sequence[tuple[Sequence[Word], float, float]],
                   config: LayoutConfig, labels: Sequence[str] | None = None,
                   rules: Sequence[Sequence[Rule]] | None = None,
                   pictures: Sequence[Sequence[BBox]] | None = None) -> list[Furniture]:
    """The furniture of each page, given each page's words, width and height, its
    label (by default the pages numbered from 1), its ruling lines and its pictures (by
    default none; the rules that run down and the pictures are drawings lines may stand
    on, `edge_lines`)."""
    labels = labels or [str(k) for k in range(1, len(pages) + 1)]
    rules = rules or [()] * len(pages)
    pictures = pictures or [()] * len(pages)
    edges = [edge_lines(words, height, config, label, width,
                        [*(rule.bbox for rule in page_rules if not rule.horizontal),
                         *page_pictures])
             for (words, width, height), label, page_rules, page_pictures
             in zip(pages, labels, rules, pictures, strict=True)]
    return [page_furniture(words, page_edges, runs, config, page_rules, page_pictures)
            for (words, _, _), page_edges, runs, page_rules, page_pictures
            in zip(pages, edges, repeating_runs(edges, config), rules, pictures, strict=True)]


def edge_lines(words: Sequence[Word], height: float, config: LayoutConfig,
               folio: str = "", width: float = 0.0, drawn: Sequence[BBox] = ()) -> EdgeLines:
    """The lines of one page (its ``words``, its ``height``, its number ``folio`` as
    printed, if known, its ``width``, if known) that may be furniture, each marked when
    it stands on a drawing (`_Candidate.drawn`) among the boxes ``drawn`` of the page's
    rules that run down and of its pictures (none known by default)."""
    size = weighted_median(np.array([w.size for w in words]),
                           np.array([len(w.text) for w in words], dtype=float)) \
        if words else 0.0
    spans = np.array([(i, w.bbox.top, w.bbox.bottom) for i, w in enumerate(words)
                      if not w.direction], dtype=np.float64).reshape(-1, 3)
    inset = _inset(words, height, width, config)
    header = _edge_lines(words, spans, height, config, folio, top=True, drawn=drawn,
                         inset=inset)
    footer = _edge_lines(words, spans, height, config, folio, top=False, drawn=drawn)
    # the body's spacing, read on the candidates further in and on the lines right past
    # the zones, which are the body's: the candidates may all be a notice's lines
    leading = _leading(
        header + _edge_lines(words, spans, height, config, folio, top=True, past=True,
                             inset=inset),
        footer + _edge_lines(words, spans, height, config, folio, top=False, past=True))
    least = config.furniture.furniture_min_gap_em * size
    openings = {id(line): _opening(line, words) for line in (*header, *footer)}
    calls = note_calls(words) if any(map(str.isdigit, openings.values())) else frozenset()

    def marked(line: _Candidate) -> _Candidate:
        note = openings[id(line)] in calls
        return replace(line, apart=line.inner_gap >= max(2 * leading, least),
                       drawn=_on_drawing(line, words, drawn), note=note,
                       numbered=line.numbered and not note)

    return EdgeLines(tuple(map(marked, header)), tuple(map(marked, footer)), height, size,
                     width, _parity(folio))


def _on_drawing(line: _Candidate, words: Sequence[Word], drawn: Sequence[BBox]) -> bool:
    """Whether one of the ``drawn`` boxes meets the box of ``line`` (its ``words``) grown
    by its size on every side (see `_Candidate.drawn`), other than a bar standing between
    two of its words (`_between`: a footer's 'address | e-mail | telephone')."""
    if not drawn:
        return False
    x0 = min(words[i].bbox.x0 for i in line.words) - line.size
    x1 = max(words[i].bbox.x1 for i in line.words) + line.size
    top, bottom = line.top - line.size, line.bottom + line.size
    met = [box for box in drawn
           if box.x0 <= x1 and x0 <= box.x1 and box.top <= bottom and top <= box.bottom]
    if not met:
        return False
    ordered = sorted((words[i] for i in line.words), key=lambda w: w.bbox.x0)
    return not all(any(map(partial(_between, box), ordered, ordered[1:])) for box in met)


def _leading(header: Sequence[_Candidate], footer: Sequence[_Candidate]) -> float:
    """The page's usual white space between lines: the median gap under (over) its
    header (footer) lines but the outermost (`edge_lines` gives the candidates and the
    lines right past the zones, where the body's lines stand); infinite on a page with
    none (nothing is apart from a body not seen)."""
    gaps = [line.inner_gap for lines in (header, footer) for line in lines[1:]
            if np.isfinite(line.inner_gap)]
    return float(np.median(gaps)) if gaps else float("inf")


_LABEL_NUMBER = re.compile(r"\d+$")


def _parity(folio: str) -> int | None:
    """The parity of the number a page label ends with (Arabic, '12' or 'A-12') or is
    (Roman, 'xiv'); None when it has none."""
    folio = folio.strip()
    number = _LABEL_NUMBER.search(folio)
    value = int(number[0]) if number else roman_value(folio)
    return None if value is None else value % 2


def repeating_runs(pages: Sequence[EdgeLines], config: LayoutConfig) -> list[Runs]:
    """For each page, how many of its header and of its footer candidate lines, from
    the page edge inwards, repeat on other pages (or are bare page numbers), and
    the running header lines of the neighbours of a page that has none.

    The one step that compares pages; it sees only their `EdgeLines`, so the
    pages themselves can stay where they were read.
    """
    furniture = config.furniture
    headers = [page.header for page in pages]
    footers = [page.footer for page in pages]
    parities = [page.parity for page in pages]
    sizes = [page.size for page in pages]
    top = _Zone.of(headers, parities, furniture.furniture_max_distance, config, sizes)
    bottom = _Zone.of(footers, parities, furniture.furniture_max_distance, config, sizes)
    counts = _beyond_text_block(pages, [
        (_run(p, top, furniture.line_header_max_lines, config, to_folio=True),
         _run(p, bottom, furniture.line_footer_max_lines, config))
        for p in range(len(pages))], (top, bottom), config)
    header_runs = [page.header[:h] for page, (h, _) in zip(pages, counts, strict=True)]
    footer_runs = [page.footer[:f] for page, (_, f) in zip(pages, counts, strict=True)]
    header_apart = [_apart(run, config) for run in header_runs]
    footer_apart = [_apart(run, config) for run in footer_runs]
    def lettered(line: _Candidate) -> bool:
        return _lettered(line, config) and not _PAGE_NUMBER.match(line.masked)

    running = [[line for line in run if lettered(line)] for run in header_runs]
    # a page has a running header of its own when lines repeat at its top, but a
    # masthead spells out only lines its neighbour keeps as one (`_furniture`): apart
    # from its body (the run's prefix `_apart`) or in the trim margin, not opening lines
    # that merely repeat there (a report's table captions, 'Table 3: Summary of ...')
    margin = config.furniture.furniture_trim_margin
    shown = [[line for k, line in enumerate(run)
              if lettered(line) and (k < len(apart) or line.edge <= margin)]
             for run, apart in zip(header_runs, header_apart, strict=True)]
    return [Runs(header, footer, () if running[p] else _nearby(p, shown),
                 (_held(p, header_runs[p], header_apart, config),
                  _held(p, footer_runs[p], footer_apart, config)))
            for p, (header, footer) in enumerate(counts)]


def _nearby(page: int, running: Sequence[Sequence[_Candidate]]
            ) -> tuple[tuple[float, tuple[str, ...]], ...]:
    """The size and words, digits masked and case aside, of the ``running`` header lines
    of ``page``'s neighbours (DCR's: the previous or next page, or the one before or
    after that)."""
    return tuple((line.size, tuple(_TOKEN.findall(line.masked.lower())))
                 for q in (page - 2, page - 1, page + 1, page + 2) if 0 <= q < len(running)
                 for line in running[q])


def _apart(run: Sequence[_Candidate], config: LayoutConfig) -> Sequence[_Candidate]:
    """The lines of a page's ``run`` of repeating lines up to its last line followed by
    a clear gap (``furniture_min_gap_em``)."""
    ends = [k for k, line in enumerate(run) if _set_apart(line, config)]
    return run[:ends[-1] + 1] if ends else ()


def _held(page: int, run: Sequence[_Candidate], apart: Sequence[Sequence[_Candidate]],
          config: LayoutConfig) -> int:
    """How many of ``page``'s ``run`` of repeating lines, from the edge inwards, are the
    same lines, digits masked, at the same height as lines of a neighbouring page's run
    that a clear gap parts from that page's body (the ``apart`` lines of each page's
    run, see `_apart`)."""
    furniture = config.furniture
    shown = [line for q in (page - 2, page - 1, page + 1, page + 2)
             if run and 0 <= q < len(apart) for line in apart[q]]
    held = 0
    for line in run:
        if not any(abs(other.edge - line.edge) <= furniture.furniture_y_tolerance
                   and other.masked == line.masked for other in shown):
            break
        held += 1
    return held


def _beyond_text_block(pages: Sequence[EdgeLines], counts: list[tuple[int, int]],
                       zones: tuple[_Zone, _Zone], config: LayoutConfig
                       ) -> list[tuple[int, int]]:
    """``counts`` (each page's repeating header and footer runs) extended over the
    candidate lines that stand outside the document's text block: above the top (below
    the bottom) where the body of its pages usually begins (ends) by more than their
    own size, and set smaller than ``furniture_block_max_size`` of the pages' usual
    font size or, below the text block, apart from the text by
    ``furniture_block_foot_gap_em`` of its size (a title, or a first page's opening
    line, is neither), and past such a block over the lines
    that repeat in the ``zones`` (top, bottom) as a run from the edge does (a page
    number under a proceedings' imprint).  A block whose lines run on, set and spaced
    alike, to a line inside the text block is that text's end (`runs_on`).
    A journal's imprint over its first page's title, a gazette's date line under its
    masthead, a colophon at the foot of a short last page: furniture that repeats on
    no other page, in the margin the other pages keep empty.

    A page's text block is the median over the other pages of the distance from the
    top (the foot) of the first (last) candidate line that is not furniture, or of the
    zone's inner edge where there is none (at the foot, pages without one leave it to
    those with one, `_text_block_edges`), so pages of different heights share it and a
    line outside it does not move it; it takes ``furniture_block_min_pages`` pages to
    know it."""
    furniture = config.furniture
    if len(pages) < furniture.furniture_block_min_pages:
        # at the top, under the running header or from the edge (a title is set larger,
        # a kicker or a byline closer to the text); at the foot, only from the edge (over
        # a running footer, a line set small is the page's own: a figure's caption, a
        # footnote)
        return [(h + _stamp(page.header[h:], page.size, config),
                 f + _stamp(page.footer if not f else (), page.size, config))
                for page, (h, f) in zip(pages, counts, strict=True)]
    # a page whose text begins below the top zone is a chapter's opening or a plate,
    # whose text would begin at the top were it not one; a page whose text ends short
    # of the foot zone is as often short as not (`_text_block_edges`)
    tops = _medians_of_others([page.header[h].edge if h < len(page.header)
                               else furniture.furniture_top * page.height
                               for page, (h, _) in zip(pages, counts, strict=True)])
    foots = _text_block_edges([page.footer[f].edge if f < len(page.footer) else None
                               for page, (_, f) in zip(pages, counts, strict=True)],
                              [furniture.furniture_bottom * page.height for page in pages],
                              furniture.furniture_block_min_pages)
    sizes = [page.size for page in pages if page.size]
    largest = furniture.furniture_block_max_size * float(np.median(sizes)) if sizes else 0.0

    def apart(line: _Candidate, gap_em: float) -> bool:
        return line.size < largest or line.inner_gap >= gap_em * line.size

    def beyond(line: _Candidate, edge: float, gap_em: float) -> bool:
        """The line stands nearer its page edge than the text block by its size, on no
        drawing (a chart at the top of the page)."""
        extent = line.bottom - line.top
        return apart(line, gap_em) and line.edge + extent < edge - line.size \
            and not line.drawn

    def block_end(lines: Sequence[_Candidate], start: int, edge: float, gap_em: float) -> int:
        """Past the end of the block of lines from ``start`` inwards if it stands
        beyond the text block: its outermost line beyond it, every line set apart and
        none a footnote (`_Candidate.note`), the lines close together and a clear gap
        after the last, the lines further in not running on from it (`runs_on`: a
        list of references running past where the other pages' text ends); else
        ``start``."""
        if start >= len(lines) or not beyond(lines[start], edge, gap_em):
            return start
        for end in range(start, len(lines)):
            if not apart(lines[end], gap_em) or lines[end].note:
                return start
            if _set_apart(lines[end], config):
                return start if runs_on(lines, end, edge, gap_em) else end + 1
        return start

    def runs_on(lines: Sequence[_Candidate], end: int, edge: float, gap_em: float) -> bool:
        """Whether the lines from ``end`` inwards are set and spaced alike (`_alike`)
        up to one within the text block: the last lines of its text, not a block of
        their own."""
        for k in range(end, len(lines) - 1):
            if not _alike(lines[k], lines[k + 1]):
                return False
            if not beyond(lines[k + 1], edge, gap_em):
                return True
        return False

    def run_end(lines: Sequence[_Candidate], start: int, zone: _Zone, page: int) -> int:
        """Past the lines from ``start`` inwards that repeat in ``zone``."""
        while start < len(lines) and zone.repeats(page, lines[start]):
            start += 1
        return start

    extended = []
    for p, (page, (h, f)) in enumerate(zip(pages, counts, strict=True)):
        # above the text block a line set apart but no smaller may be a title
        while (after := block_end(page.header, h, tops[p], float("inf"))) > h:
            h = run_end(page.header, after, zones[0], p)
        while (after := block_end(page.footer, f, foots[p],
                                  furniture.furniture_block_foot_gap_em)) > f:
            f = run_end(page.footer, after, zones[1], p)
        extended.append((h, f))
    return extended


def _alike(line: _Candidate, inner: _Candidate) -> bool:
    """Whether ``line`` is set and spaced as the ``inner`` line next to it, one line
    further into the page, is: in its size, parted from it by the white that parts the
    inner line from the text further in (each within `_SAME_SIZE`): a text's lines,
    or a list's items, spaced evenly."""
    return abs(line.size - inner.size) <= _SAME_SIZE * inner.size \
        and abs(line.inner_gap - inner.inner_gap) <= _SAME_SIZE * inner.inner_gap


def _stamp(lines: Sequence[_Candidate], size: float, config: LayoutConfig) -> int:
    """How many of the ``lines`` left at a page's edge past its repeating run (outermost
    first) are furniture: the outermost, or a block of them from the edge inwards whose
    outermost stands in the trim margin (``furniture_trim_margin``, where no text is
    set: a download notice of two lines at a scan's foot), every line set smaller than
    ``furniture_block_max_size`` of the page's usual font ``size``, on no drawing and
    no footnote, the innermost parted from the text further in by
    ``furniture_stamp_gap_em`` of its own size and those before it by less (a printer's
    proof stamp at the foot, a filing slug; the section's name under a report's header
    bar, a journal's imprint over an article's first page); 0 when there is none.  The
    rule of the text block (`_beyond_text_block`) told on a page with too few others to
    show where the text block begins and ends; a footnote stands closer to the text it
    notes, and its lines inside the margins, a title or a byline to the text it opens,
    a chart's labels on its drawing (`_Candidate.drawn`)."""
    furniture = config.furniture
    for count, line in enumerate(lines, 1):
        if line.size >= furniture.furniture_block_max_size * size or line.drawn \
                or line.note:
            return 0
        if line.inner_gap >= furniture.furniture_stamp_gap_em * line.size:
            return count if count == 1 or lines[0].edge <= furniture.furniture_trim_margin \
                else 0
    return 0


def _text_block_edges(edges: Sequence[float | None], zones: Sequence[float],
                      least: int) -> list[float]:
    """Where each page's text block begins (ends), from the page edge: the median over
    the other pages of the ``edges`` of their first (last) lines that are not furniture
    inside the zone, once ``least`` pages have one; a page without one (a short page, a
    page ending in a table) tells only that the text stays out of the zone, and leaves
    it to the others.  Where fewer pages have one, a page without one counts as
    ending at the zone's inner edge (``zones``)."""
    known = [edge for edge in edges if edge is not None]
    if len(known) < max(least, 2):
        return _medians_of_others([zone if edge is None else edge
                                   for edge, zone in zip(edges, zones, strict=True)])
    medians = iter(_medians_of_others(known))
    whole = float(np.median(known))
    return [next(medians) if edge is not None else whole for edge in edges]


def _medians_of_others(values: Sequence[float]) -> list[float]:
    """For each of two or more ``values``, the median of the others, each found in
    constant time from the values sorted once (a document of thousands of pages)."""
    ordered = np.sort(np.asarray(values, dtype=float))
    ranks = np.searchsorted(ordered, values)  # where each stands; equal values, one median
    count = len(ordered) - 1

    def others(k: int) -> np.ndarray:
        """The ``k``-th of the other values, for each value."""
        chosen: np.ndarray = np.where(k < ranks, ordered[k], ordered[min(k + 1, count)])
        return chosen

    return [float(m) for m in (others((count - 1) // 2) + others(count // 2)) / 2]


def page_furniture(words: Sequence[Word], edges: EdgeLines, runs: Runs,
                   config: LayoutConfig, rules: Sequence[Rule] = (),
                   pictures: Sequence[BBox] = ()) -> Furniture:
    """The furniture of one page, given its ``edges`` and their repeating ``runs``
    (see `repeating_runs`), its ruling lines ``rules`` and its ``pictures`` (a
    nameplate may be one)."""
    masthead: list[_Candidate] = []
    if runs.nearby:
        pieces = _masthead_pieces(words, edges.height, config)
        masthead = [pieces[k] for k in _masthead(pieces, words, edges.height, runs.nearby,
                                                 config, pictures)]
    header = _furniture(sorted([*edges.header[: runs.header], *masthead],
                               key=lambda line: line.bottom), words, config, top=True,
                        held=runs.held[0], beyond=edges.header[runs.header:],
                        usual=edges.size)
    header |= _issue_bar(words, rules, edges, header, config)
    header |= _named_pages(edges.header, runs.header, config)
    footer = _furniture(edges.footer[: runs.footer], words, config, top=False,
                        held=runs.held[1], beyond=edges.footer[runs.footer:],
                        usual=edges.size) \
        | _named_pages(edges.footer, runs.footer, config)
    beside = _vertical_folios(words, edges, header | footer, config)
    header |= beside[0]
    footer |= beside[1]
    taken = header | footer
    return Furniture(frozenset(header), frozenset(footer),
                     frozenset(_margin(words, taken, config) | line_numbers(words, taken)))


def _named_pages(lines: Sequence[_Candidate], run: int, config: LayoutConfig) -> set[int]:
    """Word indexes of a page's candidate ``lines`` past its repeating ``run`` (of that
    many lines) that are a page number named as one, with the word for page or for "of"
    ('Página 1 de 9', 'Page 3', '3 of 40', `_PAGE_NUMBER`), or, the page's outermost
    line and no footnote, end with one named (`_NAMED_END`: a web page's print,
    'Examiner …, page 4'), set apart from the text further in (`_set_apart`):
    furniture wherever it stands among them (under a display title that is none).  A
    bare number there may be a table's cell or a list's number."""
    return {i for k, line in enumerate(lines[run:], run)
            if (_PAGE_NUMBER.match(line.masked)
                or (k == 0 and not line.note and _NAMED_END.search(line.masked)))
            and any(map(str.isalpha, line.masked)) and _set_apart(line, config)
            for i in line.words}


def _vertical_folios(words: Sequence[Word], edges: EdgeLines, taken: set[int],
                     config: LayoutConfig) -> tuple[set[int], set[int]]:
    """Word indexes of the running head and foot of a page set in vertical writing:
    in the frame where its columns read as upright lines
    (`upright_words`), the outermost column beside them
    at the right (left) edge, within ``furniture_top`` (``furniture_bottom``) of the
    page's width, when it is a folio ('二', '五（第一頁）'), or carries one beside a
    running title (see `_Candidate.folio`), set apart from the text: the margin
    where such pages set their running title and page number
    ('脂硯齋重評石頭記 … 六（第二頁）').  Nothing on a page
    where vertical writing carries fewer characters than the other words, or whose
    width is not known."""
    vertical = sum(len(w.text) for w in words if w.direction == VERTICAL)
    if not edges.width or not vertical or 2 * vertical <= sum(len(w.text) for w in words):
        return set(), set()
    boxes = np.array([(w.bbox.x0, w.bbox.top, w.bbox.x1, w.bbox.bottom) for w in words])
    turned = [replace(w, bbox=BBox(*box), direction=0) for w, box in zip(
        words, turned_boxes(boxes, VERTICAL, edges.width, edges.height).tolist(), strict=True)]
    framed = edge_lines(turned, edges.width, config)
    furniture = config.furniture

    def folio(line: _Candidate) -> bool:
        """Whether the column is a folio, alone or beside a running title, set apart
        from the text (see `_Candidate.apart`), or set smaller than it
        (``furniture_block_max_size``) and parted from it by half its size
        (``furniture_min_gap_em``): the text's columns often stand an em apart, so an
        em of white is no mark of a margin here."""
        bare = any(pattern.match(_CJK_NUMBER.sub("#", line.masked.replace(" ", "")))
                   for pattern in (_PAGE_NUMBER, _WRAPPED_FOLIO))
        small = line.size < furniture.furniture_block_max_size * framed.size
        return (line.folio or bare) and not taken.intersection(line.words) and (
            line.apart or (small and line.inner_gap
                           >= furniture.furniture_min_gap_em * line.size))

    return ({i for line in framed.header[:1] if folio(line) for i in line.words},
            {i for line in framed.footer[:1] if folio(line) for i in line.words})


def _inset(words: Sequence[Word], height: float, width: float,
           config: LayoutConfig) -> float:
    """How far down the sheet a page printed small on it begins (a book's page reprinted
    on A4): the top of its text where that stands below the sheet's top zone
    (``furniture_top`` of its height) but within twice its depth, and the text is as far
    inside the sheet's sides (as large a share of its width); 0 for any other page (a
    page whose text begins lower opens a chapter), and where the ``width`` is not known.
    Its running header stands there, under the sheet's zone."""
    if not width or not words:
        return 0.0
    first = min(w.bbox.top for w in words)
    zone, side = config.furniture.furniture_top * height, config.furniture.furniture_top * width
    inside = min(w.bbox.x0 for w in words) > side and width - max(w.bbox.x1 for w in words) > side
    return first if inside and zone < first <= 2 * zone else 0.0


def _outer_folio(words: Sequence[Word], spans: npt.NDArray[np.float64], height: float,
                 zone: float, *, top: bool) -> npt.NDArray[np.bool_]:
    """Which of the words of ``spans`` (index, top and bottom of each) stand on the
    page's outermost line, at its top or its foot, when that line is a bare page
    number (`is_page_number`) within twice the ``zone``'s depth of the page's edge
    and set no larger than most of the page's words: a page set with wide margins (a
    book's, LaTeX's on A4) puts its folio past the zone; a year or a chapter's number
    in display type, further in, is none, and so is a page's only line."""
    index, tops, bottoms = spans.T
    none = np.zeros(len(index), dtype=np.bool_)
    edge = int(np.argmin(tops)) if top else int(np.argmax(bottoms))
    if (tops[edge] if top else height - bottoms[edge]) > 2 * zone:
        return none
    outer = (tops < bottoms[edge]) & (bottoms > tops[edge])
    outer[edge] = True  # a box of no height overlaps nothing, its own line too
    if outer.all():
        return none  # a page of one line: no text for a folio to stand apart from
    line = sorted((words[int(i)] for i in index[outer].tolist()), key=lambda w: w.bbox.x0)
    usual = float(np.median([words[int(i)].size for i in index.tolist()]))
    if max(w.size for w in line) > usual:
        return none
    return outer if is_page_number(" ".join(w.text for w in line)) else none


def _edge_lines(words: Sequence[Word], spans: npt.NDArray[np.float64], height: float,
                config: LayoutConfig, folio: str, *, top: bool,
                past: bool = False, drawn: Sequence[BBox] = (),
                inset: float = 0.0) -> tuple[_Candidate, ...]:
    """The first ``line_header_max_lines`` (or last ``line_footer_max_lines``) lines
    inside the page's top (bottom) zone, outermost first, or ``furniture_block_max_lines``
    if that is more (a notice outside the text block may be longer than a running
    header); ``spans`` holds each upright word's index, top and bottom.  With ``past``,
    as many lines right past the zone, in a band as deep as the zone, from the zone
    inwards (where the body's spacing is read, `_leading`: only their gaps are set, not
    whether they carry a folio).  The boxes ``drawn`` (rules
    that run down, pictures) may part a line's folio from its title (`_folio_piece`).
    The top zone begins ``inset`` down the page (`_inset`).  A page's outermost line
    that is a folio standing past the zone is inside it (`_outer_folio`)."""
    index, tops, bottoms = spans.T
    zone = (config.furniture.furniture_top if top else config.furniture.furniture_bottom) \
        * height
    if top:
        inside = (bottoms > inset + zone) & (tops <= inset + 2 * zone) if past \
            else bottoms <= inset + zone
    else:
        inside = (tops < height - zone) & (bottoms >= height - 2 * zone) if past \
            else tops >= height - zone
    if not past and len(index):
        inside |= _outer_folio(words, spans, height, zone, top=top)
    chosen = index[inside].astype(np.intp).tolist()
    lines = group_lines([words[i] for i in chosen], config.words)
    outermost_first = lines if top else lines[::-1]
    most = config.furniture.line_header_max_lines if top \
        else config.furniture.line_footer_max_lines
    lines = outermost_first[: most if past
                            else max(most, config.furniture.furniture_block_max_lines)]
    candidates = _candidates(lines, words, chosen, height if not top else None)
    if not candidates:
        return ()
    # the white space from each line to the nearest word further into the page
    if top:
        gaps = [float(tops[tops >= line.bottom].min(initial=np.inf)) - line.bottom
                for line in candidates]
    else:
        gaps = [line.top - float(bottoms[bottoms <= line.top].max(initial=-np.inf))
                for line in candidates]
    if past:  # the body's: only their spacing is asked
        return tuple(replace(line, inner_gap=gap)
                     for line, gap in zip(candidates, gaps, strict=True))
    # a line under the sheet's own zone is furniture only where it repeats: no folio
    # beside a title there (a contents page's 'Abstract  ii' under a chapter's title)
    return tuple(replace(line, inner_gap=gap, numbered=_numbered(line, words, folio, config),
                         folio=(line.edge <= zone or not top)
                         and _folio_piece(line, words, config, drawn))
                 for line, gap in zip(candidates, gaps, strict=True))


def _numbered(line: _Candidate, words: Sequence[Word], folio: str,
              config: LayoutConfig) -> bool:
    """Whether ``line`` opens or ends with the page number ``folio`` after at least
    ``furniture_folio_min_words`` other words (see `_Candidate.numbered`)."""
    texts = [words[i].text.strip(".,:;-–—|()[]") for i in
             sorted(line.words, key=lambda i: words[i].bbox.x0)]
    return bool(folio) and len(texts) > config.furniture.furniture_folio_min_words \
        and folio in (texts[0], texts[-1])


def _opening(line: _Candidate, words: Sequence[Word]) -> str:
    """The first word of ``line`` (of ``words``), without the marks around a note's
    number."""
    return words[min(line.words, key=lambda i: words[i].bbox.x0)].text.strip(_NOTE_MARKS)


def note_calls(words: Sequence[Word]) -> frozenset[str]:
    """The numbers ``words`` call as notes: a figure of one to three digits drawn right
    after a word (producers draw a note's call with the word it follows), standing
    after it on its line (or kerned into its last letter), raised beside it
    (`layoutkit.model.Word.raised_beside`)."""
    figures = [(i, number) for i, w in enumerate(words) if w.text[:1].isdigit()
               and len(number := w.text.strip(_NOTE_MARKS)) <= 3 and number.isdigit()]
    if not figures:
        return frozenset()
    stream, size = np.array([(w.stream, w.size) for w in words], dtype=np.float64).T
    drawn = np.argsort(stream, kind="stable")
    place = np.empty(len(words), dtype=np.intp)
    place[drawn] = np.arange(len(words))
    at = np.array([i for i, _ in figures], dtype=np.intp)
    after = drawn[place[at] - 1]
    smaller = (place[at] > 0) & (size[at] < size[after])  # a call is set smaller
    out = set()
    for k in np.flatnonzero(smaller).tolist():
        call, word = words[figures[k][0]], words[int(after[k])]
        if call.raised_beside(word) and -call.size < call.bbox.x0 - word.bbox.x1 < word.size:
            out.add(figures[k][1])
    return frozenset(out)


def _folio_piece(line: _Candidate, words: Sequence[Word], config: LayoutConfig,
                 drawn: Sequence[BBox] = ()) -> bool:
    """Whether ``line``'s first or last piece (words parted from the rest by more than
    ``furniture_piece_gap_em``, or by a bar or a bullet, `_parted`, typed or among the
    boxes ``drawn``) is a page number (a Roman one below `_ROMAN_FOLIO_BELOW`), the
    others carrying letters (see `_Candidate.folio`)."""
    texts = ["".join(w.text for w in piece) if _cjk_piece(piece)
             else " ".join(w.text for w in piece)
             for gapped in split_at_gaps(sorted((words[i] for i in line.words),
                                                key=lambda w: w.bbox.x0),
                                         config.furniture.furniture_piece_gap_em)
             for piece in _parted(gapped, drawn)]
    pieces = [_CJK_NUMBER.sub("#", mask_numbers(text, _ROMAN_FOLIO_BELOW)) for text in texts]
    return len(pieces) > 1 and any(
        any(folio.match(end) for folio in (_PAGE_NUMBER, _LETTERED_FOLIO, _WRAPPED_FOLIO))
        and not _ENUMERATOR.match(end) and not _NEGATIVE.match(text)
        and any(map(str.isalpha, "".join(rest)))
        for end, text, rest in ((pieces[0], texts[0], pieces[1:]),
                                (pieces[-1], texts[-1], pieces[:-1])))


_SEPARATOR = re.compile(r"^[|│¦•·]+$")
"""A word that parts a running head's pieces as a gap does ('14 | Interview',
'Annual Report 2017 • 15')."""


def _parted(piece: Sequence[Word], drawn: Sequence[BBox] = ()) -> list[list[Word]]:
    """The runs of ``piece``'s words (left to right) between its separators: a bar or a
    bullet typed (`_SEPARATOR`), which belongs to none, or a bar among the boxes
    ``drawn`` standing between two of its words across half their height (a rule drawn
    between a folio and its running title)."""
    runs: list[list[Word]] = [[]]
    for word in piece:
        if _SEPARATOR.match(word.text):
            runs.append([])
            continue
        if runs[-1] and any(_between(box, runs[-1][-1], word) for box in drawn):
            runs.append([])
        runs[-1].append(word)
    return [run for run in runs if run]


def _between(box: BBox, left: Word, right: Word) -> bool:
    """Whether ``box`` stands between the words ``left`` and ``right`` of a line, across
    half the height of the shorter and no more than twice as tall as the taller: a bar,
    not a chart's axis running down past its labels."""
    heights = (left.bbox.bottom - left.bbox.top, right.bbox.bottom - right.bbox.top)
    across = min(box.bottom, left.bbox.bottom, right.bbox.bottom) \
        - max(box.top, left.bbox.top, right.bbox.top)
    return (left.bbox.x1 <= box.x0 and box.x1 <= right.bbox.x0
            and min(heights) / 2 <= across and box.bottom - box.top <= 2 * max(heights))


def _masthead_pieces(words: Sequence[Word], height: float,
                     config: LayoutConfig) -> tuple[_Candidate, ...]:
    """The pieces (runs of words parted by ``furniture_piece_gap_em``) of the lines
    inside the page's masthead zone (or its dateline zone, if that reaches further, or
    down to its first row of text, if that stands lower: a cover whose nameplate is a
    picture half a page high, its dateline the first text under it, no lower than
    ``furniture_cover_dateline_top``), top to bottom and left to right."""
    furniture = config.furniture
    upright = [w.bbox for w in words if w.upright]
    first_row = min((b.bottom for b in upright), default=0.0)
    limit = max(furniture.furniture_masthead_top * height,
                furniture.furniture_dateline_top * height,
                min(max((b.bottom for b in upright if b.top < first_row), default=0.0),
                    furniture.furniture_cover_dateline_top * height))
    chosen = [i for i, w in enumerate(words) if w.upright and w.bbox.bottom <= limit]
    pieces = [piece for line in group_lines([words[i] for i in chosen], config.words)
              for piece in split_at_gaps(line, config.furniture.furniture_piece_gap_em)]
    return _candidates(pieces, words, chosen, None, typical=True)


def _candidates(lines: Sequence[Sequence[Word]], words: Sequence[Word],
                chosen: Sequence[int], foot: float | None, *,
                typical: bool = False) -> tuple[_Candidate, ...]:
    """``lines`` (groups of the ``chosen`` ``words``) as candidates, carrying the
    indexes of their words in ``words``; ``foot`` is the height of the page for lines
    at its foot (their edge is measured from it), None for lines at its top.  A
    candidate's size is its largest word's, or with ``typical`` the size of most of its
    characters (a masthead piece whose issue number is set large is read at its text's
    size)."""
    position = {id(words[i]): i for i in chosen}
    candidates = []
    for line in lines:
        top, bottom = min(w.bbox.top for w in line), max(w.bbox.bottom for w in line)
        size = weighted_median(np.array([w.size for w in line]),
                               np.array([len(w.text) for w in line], dtype=float)) \
            if typical else max(w.size for w in line)
        candidates.append(_Candidate(top, bottom, size,
                                     mask_numbers(" ".join(w.text for w in line)),
                                     tuple(position[id(w)] for w in line),
                                     top if foot is None else foot - bottom))
    return tuple(candidates)


_TOUCHING = 1.0
"""Lines closer than this many points reach into each other."""


def _run(page: int, zone: _Zone, max_lines: int, config: LayoutConfig, *,
         to_folio: bool = False) -> int:
    """How many of ``page``'s first ``max_lines`` candidate lines, from the edge
    inwards, repeat, with those after them that reach into the lines found (a
    newspaper's folio line whose section name, set large, is no line of its
    neighbours': 'Editorial' beside the date, 'Opinion' on the next page), and, with
    ``to_folio`` (over the text), as far as a folio line among them (`_folio_line`),
    none a number at both ends (`_NUMBERED_ENDS`), none on a drawing (a chart's labels,
    `_Candidate.drawn`): what stands between the page's top and its running head is no
    text of the page (a stamp, 'Downloaded from ...').  Under the text, notes and a
    contents page's last entries read as folio lines."""
    lines = zone.candidates[page][:max_lines]
    count, reach = 0, 0.0
    for line in lines:
        if not ((count and line.edge <= reach + _TOUCHING) or zone.repeats(page, line)):
            break
        count += 1
        reach = max(reach, line.edge + line.bottom - line.top)
    if not to_folio:
        return count
    return max([count] + [k + 1 for k in range(count, len(lines))
                          if _folio_line(lines[k], config)
                          and not _NUMBERED_ENDS.match(lines[k].masked)
                          and not any(line.drawn for line in lines[count:k + 1])])


_NUMBERED_ENDS = re.compile(r"^\W*#.*#\W*$")
"""A line opening and ending with a number, masked: a contents entry (its section's
number and its page's), which a running head further in than the page's top is not
told from by its folio alone."""


def _folio_line(line: _Candidate, config: LayoutConfig) -> bool:
    """Whether ``line`` carries the page's own number set apart from the body (a running
    header with no other page to repeat it on: the second page of two), or a page
    number piece beside words, set farther apart (see `_Candidate.folio`)."""
    return (line.numbered and _set_apart(line, config)) or (line.folio and (
        line.apart or line.inner_gap >= config.furniture.furniture_folio_gap_em * line.size))


def _furniture(run: Sequence[_Candidate], words: Sequence[Word], config: LayoutConfig, *,
               top: bool, held: int = 0, beyond: Sequence[_Candidate] = (),
               usual: float = 0.0) -> set[int]:
    """Word indexes of a page's running header (``top``) or footer.

    The furniture is the ``run`` of candidate lines from the page edge inwards that
    repeat on other pages (or are bare page numbers), cut back until a clear gap,
    ``furniture_min_gap_em`` of the line's size (or of the nearest body line's, if
    smaller), parts it from the body: a body line
    at the edge of the text that happens to resemble other pages' (an index entry
    with dot leaders) stands at the usual line spacing.  The first ``held`` lines of
    the run stay, close or not (see `Runs.held`), and so do those in the trim
    margin (``furniture_trim_margin``), where no body is set.  So does a bare page
    number ending the run right over (under) the lines ``beyond`` it, when those, within
    the first ``line_header_max_lines`` (``line_footer_max_lines``) from the edge, are a
    block apart from the body, and with it the block's lines set no larger than the
    page's ``usual`` size (`_folio_block`): a folio under a conference's name set far
    under the text ('IJCAI-07' over '2671') stands at the block's edge, not at the
    text's.
    """
    run = list(run)
    taken = {i for line in run for i in line.words}
    limit = config.furniture.line_header_max_lines if top \
        else config.furniture.line_footer_max_lines
    block = [line for line in beyond[: max(0, limit - len(run))]
             if run and line.edge > run[-1].edge]
    last = run[-1] if run else None
    while len(run) > held:
        inner = run[-1]
        if inner.edge <= config.furniture.furniture_trim_margin:
            break
        # the white to each word further into the page, and its size
        whites = [((w.bbox.top - inner.bottom) if top else (inner.top - w.bbox.bottom), w.size)
                  for i, w in enumerate(words) if w.upright and i not in taken]
        gap, nearest_size = min(((white, size) for white, size in whites if white >= 0),
                                default=(float("inf"), inner.size))
        # the white between lines of two sizes is set by the smaller's leading: a large
        # running title over body type is parted by white the body's lines never leave
        size = min(inner.size, nearest_size)
        if gap >= config.furniture.furniture_min_gap_em * size \
                or (inner.apart and gap >= inner.inner_gap):
            break
        if inner is last and (companions := _folio_block(inner, block, usual)) is not None:
            taken.update(i for line in companions for i in line.words)
            break
        run.pop()
        taken -= set(inner.words)
    return taken


def _folio_block(folio: _Candidate, lines: Sequence[_Candidate], usual: float
                 ) -> Sequence[_Candidate] | None:
    """The lines of the block that a bare page number ``folio`` stands at the outer
    side of, None if it is none: the ``lines`` further in (in order from it) up to
    one that stands apart from the body (see `_Candidate.apart`), none before it a
    note.  They are furniture with the folio when all are set no larger than the
    page's ``usual`` size (a conference's name over the folio), else the folio is
    alone (empty): a chapter's title under its folio is set larger."""
    if not _PAGE_NUMBER.match(folio.masked):
        return None
    for k, line in enumerate(lines):
        if line.note:
            return None
        if line.apart:
            block = lines[:k + 1]
            return block if all(other.size <= (1 + _SAME_SIZE) * usual for other in block) \
                else ()
    return None


@dataclass(frozen=True, slots=True)
class _Zone:
    """The candidate lines of one edge of every page (their headers, or their footers),
    indexed for the comparison across pages: every line's page, distance from the
    edge and masked text (as a number, one for each different text), in page order.

    Each text is kept with its words sorted, as rapidfuzz's token-sort ratio sorts
    them, once for all its comparisons, and its length, which bounds its ratio with
    another before it is computed."""

    candidates: Sequence[Sequence[_Candidate]]
    parities: np.ndarray
    """Each page's `EdgeLines.parity`, -1 for none."""
    pages: np.ndarray
    edges: np.ndarray
    texts: np.ndarray
    sorted_texts: np.ndarray
    """The masked texts, their words sorted, by their number."""
    lengths: np.ndarray
    """The length of each of ``sorted_texts``."""
    max_distance: int
    config: LayoutConfig
    sizes: Sequence[float]
    """Each page's usual font size (`EdgeLines.size`)."""

    @classmethod
    def of(cls, candidates: Sequence[Sequence[_Candidate]], parities: Sequence[int | None],
           max_distance: int, config: LayoutConfig, sizes: Sequence[float]) -> _Zone:
        """The index of the ``candidates`` of each page, whose labels have the
        ``parities`` and whose usual font sizes are ``sizes``; lines repeat their
        neighbours' within ``max_distance`` edits."""
        numbers: dict[str, int] = {}
        lines = [(p, line.edge, numbers.setdefault(line.masked, len(numbers)))
                 for p, page in enumerate(candidates) for line in page]
        pages, edges, texts = (np.array(column) for column in zip(*lines, strict=True)) \
            if lines else (np.zeros(0, int), np.zeros(0), np.zeros(0, int))
        sorted_texts = np.array([" ".join(sorted(text.split())) for text in numbers],
                                dtype=object)
        return cls(candidates, np.array([-1 if q is None else q for q in parities], dtype=int),
                   pages, edges, texts, sorted_texts,
                   np.array([len(text) for text in sorted_texts], dtype=float),
                   max_distance, config, sizes)

    def repeats(self, page: int, line: _Candidate) -> bool:
        """Whether ``line`` of ``page`` is a bare page number, or carries the page's own
        number set apart from the body (a running header with no other page to repeat
        it on: the second page of two), or a page number piece beside words set farther
        apart (see `_Candidate.folio`), or repeats a line of a neighbouring page
        (DCR's rule: the previous or next page, or the one before or after that for
        headers that alternate between left and right pages) within ``max_distance``
        edits (`_few_edits`), or recurs near the same height (token-sort ratio
        ``furniture_min_similarity``) on ``furniture_min_share`` of the other pages
        within ``furniture_window_pages`` of its own, or of those whose labels have
        its parity."""
        furniture = self.config.furniture
        if _PAGE_NUMBER.match(line.masked) or _folio_line(line, self.config):
            return True
        count = len(self.candidates)
        if count < 2:
            return False
        if self._placed_alike(page, line):
            return True
        tolerance = furniture.furniture_y_tolerance
        if _lettered(line, self.config) and any(
                abs(other.edge - line.edge) <= tolerance
                and _few_edits(line.masked, other.masked, self.max_distance)
                for q in (page - 2, page - 1, page + 1, page + 2) if 0 <= q < count
                for other in self.candidates[q]):
            return True
        first = max(0, min(page - furniture.furniture_window_pages // 2,
                           count - furniture.furniture_window_pages))
        last = min(count, first + furniture.furniture_window_pages)
        start, end = np.searchsorted(self.pages, (first, last))
        near = start + np.flatnonzero((np.abs(self.edges[start:end] - line.edge) <= tolerance)
                                      & (self.pages[start:end] != page))
        parity = int(self.parities[page])
        same = int(np.count_nonzero(self.parities[first:last] == parity)) - 1 \
            if parity >= 0 else 0

        def enough(pages: np.ndarray) -> bool:
            """Whether the line recurring on ``pages`` (other pages of the window, each
            once) is recurring on enough of them."""
            share = len(pages) / (last - first - 1)
            parity_share = np.count_nonzero(self.parities[pages] == parity) / same \
                if same > 0 else 0.0
            return max(share, parity_share) >= furniture.furniture_min_share

        return enough(np.unique(self.pages[near[self._similar(line.masked, self.texts[near])]]))

    def _placed_alike(self, page: int, line: _Candidate) -> bool:
        """Whether ``line``, the outermost candidate of ``page``, far apart from the body
        in type no larger than the page's usual, with letters (`_running_like`), finds
        its like on a neighbouring page (DCR's: the previous or next page, or the one
        before or after that): the outermost candidate there, so set, as far from the
        edge and of the same size.  A running head that names the chapter or section
        keeps its place and type while its words change from part to part; a slide's or
        a chapter's title is set larger than the text under it, and a heading opening a
        page's text stands closer to it."""
        if not self._running_like(page, line):
            return False
        return any(self._running_like(q, other := self.candidates[q][0])
                   and abs(other.edge - line.edge) <= self.config.furniture.furniture_y_tolerance
                   and abs(other.size - line.size) <= _SAME_SIZE * line.size
                   for q in (page - 2, page - 1, page + 1, page + 2)
                   if 0 <= q < len(self.candidates) and self.candidates[q])

    def _running_like(self, page: int, line: _Candidate) -> bool:
        """Whether ``line`` is ``page``'s outermost candidate, set apart from the body by
        `_RUNNING_HEAD_GAP_EM` of its size and by twice the body's spacing, with
        letters, in type no larger than the page's usual (see `_placed_alike`)."""
        candidates = self.candidates[page]
        return bool(candidates) and candidates[0] is line and line.apart \
            and line.inner_gap >= _RUNNING_HEAD_GAP_EM * line.size \
            and line.size <= self.sizes[page] and _lettered(line, self.config)

    def _similar(self, masked: str, texts: np.ndarray) -> np.ndarray:
        """Which of ``texts`` (by number) have a token-sort ratio with ``masked`` of at
        least ``furniture_min_similarity``: those whose length leaves room for it are
        compared by rapidfuzz in one call."""
        least = self.config.furniture.furniture_min_similarity
        key = " ".join(sorted(masked.split()))
        lengths = self.lengths[texts]
        # the ratio is 100 (1 - distance / total length), the distance no less than the
        # difference of the lengths
        similar: np.ndarray = 100.0 * (1.0 - np.abs(lengths - len(key))
                                       / np.maximum(lengths + len(key), 1.0)) >= least
        if similar.any():
            similar[similar] = process.cdist(
                [key], self.sorted_texts[texts[similar]], scorer=fuzz.ratio,
                dtype=np.float64, score_cutoff=least)[0] >= least
        return similar


def _set_apart(line: _Candidate, config: LayoutConfig) -> bool:
    """Whether a clear gap, ``furniture_min_gap_em`` of its size, parts ``line`` from the
    text further into the page, or it stands apart from the body by more than the
    body's spacing (see `_Candidate.apart`)."""
    return line.apart or line.inner_gap >= config.furniture.furniture_min_gap_em * line.size


def _few_edits(text: str, other: str, most: int) -> bool:
    """Whether ``text`` is ``other`` within ``most`` Levenshtein edits, and fewer edits
    than half the shorter's characters: the edits leave most of the line as it was.  A
    few characters are a whole name in Chinese or Japanese ('黃毓民議員' and
    '郭家麒議員', the last lines of two pages of a list of members, differ by three),
    where three edits of a running title in letters change a word at most."""
    distance = Levenshtein.distance(text, other, score_cutoff=most)
    return distance <= most and 2 * distance < min(len(text), len(other))


def _lettered(line: _Candidate, config: LayoutConfig) -> bool:
    """Whether ``line`` has letters enough (``furniture_min_letters``) to be compared
    as text, not as a number or a stray symbol."""
    return sum(map(str.isalpha, line.masked)) >= config.furniture.furniture_min_letters


def _masthead(pieces: Sequence[_Candidate], words: Sequence[Word], height: float,
              headers: Sequence[tuple[float, Sequence[str]]], config: LayoutConfig,
              pictures: Sequence[BBox] = ()) -> tuple[int, ...]:
    """Indexes of the masthead ``pieces`` (of the page's ``words``) of a page (``height``
    high) that spell out a neighbouring page's running header, given the ``headers``
    nearby (the size and words of each running header line, with letters and more than
    a page number, of the previous or next page, or of the one before or after that:
    DCR's neighbours).

    Only a page without a running header of its own (a bare page number aside) has
    a masthead.  A piece in the masthead zone belongs to it when its words, digits
    masked and case aside, are consecutive words of one of those lines; a
    piece in the dateline zone, when it carries such a run of at least
    ``furniture_masthead_min_run`` words covering at least half of its own (a dateline
    under a nameplate that adds the weekday to the header's date), where a nameplate
    stands over it: one of the page's ``pictures``, or a piece set larger than
    ``furniture_masthead_max_size`` times it (a title that spells the header with no
    nameplate over it opens the page's text: a cover's, a chapter's); and it is set no
    larger than ``furniture_masthead_max_size`` times that line: a title that repeats
    the header's words stands out by its size, a title that merely shares some of
    them carries no run of the header's words.  On the row of a piece found, the
    pieces that are runs of the header's words, or bare numbers (a date in figures),
    are masthead too; so is every piece set no larger on the row of a dateline (the
    issue number beside it) or between the rows of pieces found (a masthead is one: an
    issue number between the ISSN and the dateline).
    """
    zone = config.furniture.furniture_masthead_top * height
    min_run = config.furniture.furniture_masthead_min_run

    def spelled(piece: _Candidate, short: bool) -> bool:
        """Whether the piece carries a long enough run of a header's words, or with
        ``short`` is a run of them."""
        tokens = _TOKEN.findall(piece.masked.lower())
        return _lettered(piece, config) and any(
            piece.size <= config.furniture.furniture_masthead_max_size * size
            and (((run := _common_run(tokens, header)) == len(tokens) and short)
                 or min_run <= run >= len(tokens) / 2)
            for size, header in headers)

    def under_nameplate(piece: _Candidate) -> bool:
        """Whether a picture begins over the piece, across it (the nameplate's may be
        drawn behind it), or a piece set larger stands over it."""
        larger = config.furniture.furniture_masthead_max_size * piece.size
        left = min(words[i].bbox.x0 for i in piece.words)
        right = max(words[i].bbox.x1 for i in piece.words)
        return any(box.top < piece.top and box.x0 < right and left < box.x1
                   for box in pictures) or any(
            other.bottom <= piece.top and other.size > larger for other in pieces)

    found = [k for k, piece in enumerate(pieces) if spelled(piece, piece.bottom <= zone)
             and (piece.bottom <= zone or under_nameplate(piece))]
    if not found:
        return ()
    datelines = [pieces[k] for k in found if spelled(pieces[k], False)]
    largest = config.furniture.furniture_masthead_max_size * max(size for size, _ in headers)

    upper = min(pieces[j].bottom for j in found)
    lower = max(pieces[j].top for j in found)

    def beside(piece: _Candidate, others: Sequence[_Candidate]) -> bool:
        return any(other.top < piece.bottom and piece.top < other.bottom for other in others)

    def joins(piece: _Candidate) -> bool:
        """Whether a piece not found belongs to the masthead by where it stands."""
        numbers = not any(c.isalpha() for c in piece.masked) and "#" in piece.masked
        if beside(piece, [pieces[j] for j in found]) and (numbers or spelled(piece, True)):
            return True
        between = upper <= piece.top and piece.bottom <= lower
        return piece.size <= largest and (between or beside(piece, datelines))

    others = [k for k, piece in enumerate(pieces) if k not in found and joins(piece)]
    return tuple(sorted(found + others))


def _issue_bar(words: Sequence[Word], rules: Sequence[Rule], edges: EdgeLines,
               taken: set[int], config: LayoutConfig) -> set[int]:
    """Word indexes of a row of short pieces (parted by ``furniture_piece_gap_em``, of
    at most ``furniture_row_max_words`` words each) in a page's masthead, within
    ``furniture_dateline_top`` of its height, with nothing above it but the header
    ``taken`` and the nameplate (set at least ``furniture_nameplate_min_size`` times the
    page's usual size): the issue row under the nameplate set on a ruled bar, one piece
    carrying a number (a date, an issue number) between horizontal rules that run under
    and over all of it within ``furniture_bar_gap_em`` of its size, nothing else between
    them; or the banner right over the title, the first text under the header
    ('RESEARCH ARTICLE', 'Open Access').  The apparatus of a gazette or a journal, told
    without a neighbouring page to show its running header (a page alone in its
    file); a table's ruled heading row has body above it, or no number, and the first
    lines of columns are longer than labels."""
    furniture = config.furniture
    upright = [(i, w) for i, w in enumerate(words) if w.upright and i not in taken]
    nameplate = furniture.furniture_nameplate_min_size * edges.size
    # a line has only the nameplate above it when it starts above the first smaller word's
    # foot, and nothing when it starts above every word's
    first = min((w.bbox.bottom for _, w in upright if w.size < nameplate), default=0.0)
    highest = min((w.bbox.bottom for _, w in upright), default=0.0)
    limit = furniture.furniture_dateline_top * edges.height
    flat = [r.bbox for r in rules if r.horizontal]
    for line in group_lines([w for _, w in upright if w.bbox.top < first
                             and w.bbox.bottom <= limit], config.words):
        top, bottom = min(w.bbox.top for w in line), max(w.bbox.bottom for w in line)
        pieces = split_at_gaps(line, furniture.furniture_piece_gap_em)
        if len(pieces) < 2 or max(map(len, pieces)) > furniture.furniture_row_max_words:
            continue
        members = {id(w) for w in line}
        below = min((w for _, w in upright if w.bbox.top >= bottom),
                    key=lambda w: w.bbox.top, default=None)
        if (top < highest and below is not None and below.size >= nameplate) or (
                any(c.isdigit() for w in line for c in w.text)
                and _ruled(line, flat, [w for _, w in upright if id(w) not in members],
                           furniture.furniture_bar_gap_em)):
            return {i for i, w in upright if id(w) in members}
    return set()


def _ruled(line: Sequence[Word], flat: Sequence[BBox], others: Sequence[Word],
           gap_em: float) -> bool:
    """Whether horizontal rules (boxes ``flat``) run over and under all of ``line``
    within ``gap_em`` of its size, none of the ``others`` words between them."""
    top, bottom = min(w.bbox.top for w in line), max(w.bbox.bottom for w in line)
    x0, x1 = min(w.bbox.x0 for w in line), max(w.bbox.x1 for w in line)
    reach = gap_em * max(w.size for w in line)
    over = [b for b in flat if top - reach <= b.bottom <= top and b.x0 <= x1 and x0 <= b.x1]
    under = [b for b in flat if bottom <= b.top <= bottom + reach and b.x0 <= x1 and x0 <= b.x1]
    if not (_spans(over, x0, x1) and _spans(under, x0, x1)):
        return False
    ceiling, floor = max(b.bottom for b in over), min(b.top for b in under)
    return not any(ceiling < w.bbox.bottom and w.bbox.top < floor for w in others)


def _spans(segments: Sequence[BBox], x0: float, x1: float) -> bool:
    """Whether the horizontal ``segments``, joined end to end (a rule drawn in pieces),
    run under all of ``x0`` to ``x1``, give or take ``_TOUCHING``."""
    reach = x0
    for segment in sorted(segments, key=lambda b: b.x0):
        if segment.x0 > reach + _TOUCHING:
            break
        reach = max(reach, segment.x1)
    return reach >= x1 - _TOUCHING


def _common_run(part: Sequence[str], whole: Sequence[str]) -> int:
    """The length of the longest run of consecutive items that ``part`` and ``whole``
    share."""
    return SequenceMatcher(None, part, whole, autojunk=False).find_longest_match().size


def _vertical_writing(word: Word, columns: Sequence[BBox]) -> bool:
    """Whether ``word`` is a column's word of vertical writing: CJK read top to bottom,
    or read top to bottom in the width of one of the ``columns`` (the boxes of such CJK
    words): figures or a note's call set in a column."""
    if word.direction != VERTICAL:
        return False
    centre = (word.bbox.x0 + word.bbox.x1) / 2
    return any(map(is_cjk, word.text)) or any(c.x0 <= centre <= c.x1 for c in columns)


def _margin(words: Sequence[Word], taken: set[int], config: LayoutConfig) -> set[int]:
    """Rotated words standing outside the horizontal extent of the upright text, those
    of each direction making at most ``furniture_stamp_max_lines`` lines there (proof
    stamps, a running title turned in the side margin), or drawn over upright words (a
    watermark set across the columns: the text of a page is never printed over itself
    otherwise), by more than `OVERPRINT_INSET` on every side; and the folios of a
    running title so turned (`_turned_folios`), which stand further out than the
    text but for it.  Columns of vertical writing are text however few and narrow they
    stand beside upright words (a heading, a folio): never stamps."""
    rotated = [i for i, w in enumerate(words) if not w.upright]
    upright = [i for i, w in enumerate(words) if w.upright and i not in taken] \
        if rotated else []
    if not upright:
        return set()
    folios = _turned_folios(words, upright, rotated)
    text = [words[i].bbox for i in upright if i not in folios]
    left = min(b.x0 for b in text)
    right = max(b.x1 for b in text)
    rotated_boxes = np.array([(words[i].bbox.x0, words[i].bbox.top, words[i].bbox.x1,
                               words[i].bbox.bottom) for i in rotated])
    upright_boxes = np.array([(words[i].bbox.x0, words[i].bbox.top, words[i].bbox.x1,
                               words[i].bbox.bottom) for i in upright])
    over_text = np.asarray(overlapping(rotated_boxes, upright_boxes, OVERPRINT_INSET).any(axis=1))
    found = {i for i, printed_over in zip(rotated, over_text, strict=True) if printed_over}
    columns = [words[i].bbox for i in rotated if _vertical_writing(words[i], ())]
    beside = [i for i in rotated if (words[i].bbox.x1 <= left or words[i].bbox.x0 >= right)
              and not _vertical_writing(words[i], columns)]
    for direction in {words[i].direction for i in beside}:
        chosen = [i for i in beside if words[i].direction == direction]
        lines = group_lines([words[i] for i in chosen], config.words)
        if len(lines) <= config.furniture.furniture_stamp_max_lines:
            found.update(chosen)
    return found | _turned_folios(words, sorted(folios), sorted(found.intersection(beside)))


def _turned_folios(words: Sequence[Word], upright: Sequence[int],
                   turned: Sequence[int]) -> set[int]:
    """The ``upright`` words (indexes into ``words``) that are bare page numbers (a
    list's number is none) standing at an end of one of the ``turned`` words: across
    from it and within twice their size of it, above or below, as a magazine sets its
    folios with a running title turned in the side margin."""
    found = set()
    for i in upright:
        masked = mask_numbers(words[i].text)
        if not _PAGE_NUMBER.match(masked) or _ENUMERATOR.match(masked):
            continue
        box, near = words[i].bbox, 2 * words[i].size
        if any(box.x0 < t.x1 and t.x0 < box.x1
               and max(t.top - box.bottom, box.top - t.bottom) <= near
               for t in (words[k].bbox for k in turned)):
            found.add(i)
    return found
