"""One frozen, validated object carrying every parameter of the pipeline, a section per stage.

- Each stage reads its own section (`config.gutters.gutter_min_width`,
  `config.ocr.ocr_dpi`).
- Every key's name is unique across the sections, so a user names a key alone wherever
  one is written (`--set gutter_min_width=4`, a profile's `[config]` table,
  `LayoutConfig.from_mapping`, `LayoutConfig.replace`), with DCR's name where DCR has
  one.
- Lengths are in points unless the name says otherwise; `*_em` values are multiples of
  the local font size, so one configuration serves 7 pt gazettes and 12 pt reports
  alike.
- Each key's documentation opens with one line saying what it is.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any, Self

from .errors import ConfigError

__all__ = ["FurnitureConfig", "GuttersConfig", "KeyDoc", "LayoutConfig", "LinetypesConfig",
           "NlpConfig", "OcrConfig", "ProfileConfig", "ReadingConfig", "Section",
           "SourcesConfig", "WordsConfig", "key_docs"]


_CHOICES: dict[str, re.Pattern[str]] = {
    "ocr": re.compile(r"auto|always|never"),
    "ocr_languages": re.compile(r"[a-z][a-z_]*(\+[a-z][a-z_]*)*"),
}
"""The text-valued keys and the values each accepts."""

_EXPECTED = {"ocr": "auto, always or never",
             "ocr_languages": "auto, or language codes joined by + (eng, eng+deu, de)"}

_SHARES = frozenset({"line_overlap", "glyph_repeat_overlap", "baseline_tolerance",
                     "grid_overlap", "furniture_top", "furniture_bottom", "furniture_min_share",
                     "furniture_masthead_top", "furniture_dateline_top",
                     "furniture_cover_dateline_top", "cut_tie_ratio",
                     "image_max_area",
                     "column_min_density", "column_min_flush", "crossing_gap_ratio",
                     "even_space_tolerance",
                     "line_like_size_ratio", "float_flow_size_tolerance",
                     "ruled_gutter_min_share",
                     "stream_across_share",
                     "stream_down_max_share",
                     "ocr_garbage_share", "ocr_min_quality", "ocr_layer_margin",
                     "ocr_sample_height", "ocr_script_min_confidence",
                     "ocr_mixed_min_share"})
"""The keys whose values are shares, from 0 to 1."""

_PATTERNS = frozenset({"notice_pattern"})
"""The text-valued keys whose values are regular expressions."""

_RESOLUTIONS = frozenset({"ocr_dpi", "image_dpi", "ocr_blank_dpi"})
"""The keys whose values are dots per inch, at least 1."""

_POSITIVE = frozenset({"grid_resolution", "regex_timeout",
                       "page_max_content_bytes",
                       "page_alone_content_bytes", "page_max_seconds", "page_max_form_depth",
                       "page_max_annotations", "page_max_resources", "page_max_memory",
                       "image_max_pixels", "ocr_max_pixels", "image_max_frames",
                       "convert_max_seconds", "convert_max_memory"})
"""The keys whose values must be above 0 (a step, a time)."""


def _check(name: str, kind: object, value: object) -> None:
    """Raise ConfigError naming the key ``name`` unless ``value`` is of its ``kind``
    (the field's annotation) and within its range."""
    if name in _CHOICES:
        if not isinstance(value, str) or not _CHOICES[name].fullmatch(value):
            raise ConfigError(f"config key {name!r}: expected {_EXPECTED[name]}, got {value!r}")
        return
    if kind in ("bool", bool):
        if not isinstance(value, bool):
            raise ConfigError(f"config key {name!r}: expected true or false, got {value!r}")
        return
    if kind in ("str", str):
        if not isinstance(value, str):
            raise ConfigError(f"config key {name!r}: expected text, got {value!r}")
        if name in _PATTERNS:
            try:
                re.compile(value)
            except re.error as error:
                raise ConfigError(f"config key {name!r}: expected a regular expression, "
                                  f"got {value!r} ({error})") from None
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"config key {name!r}: expected a number, got {value!r}")
    if kind in ("int", int) and not isinstance(value, int):
        raise ConfigError(f"config key {name!r}: expected a whole number, got {value!r}")
    if not math.isfinite(value) or value < 0:
        raise ConfigError(f"config key {name!r}: expected a finite number >= 0, got {value!r}")
    if name in _SHARES and value > 1:
        raise ConfigError(f"config key {name!r}: expected a share from 0 to 1, got {value!r}")
    if name in _RESOLUTIONS and value < 1:
        raise ConfigError(f"config key {name!r}: expected dots per inch >= 1, got {value!r}")
    if name in _POSITIVE and value <= 0:
        raise ConfigError(f"config key {name!r}: expected > 0, got {value!r}")


class Section:
    """A section of the configuration, the parameters of one stage: each checked
    when the section is made, so that a bad value is named where it is given."""

    __slots__ = ()

    def __post_init__(self) -> None:
        for f in fields(self):  # type: ignore[arg-type]
            _check(f.name, f.type, getattr(self, f.name))

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` (keys of this section) applied, validated like the
        constructor; an unknown key raises ConfigError listing the section's keys."""
        known = [f.name for f in fields(self)]  # type: ignore[arg-type]
        unknown = [key for key in changes if key not in known]
        if unknown:
            raise ConfigError(f"config section {type(self).__name__}: unknown key "
                              f"{unknown[0]!r}; known keys: {', '.join(known)}")
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]


@dataclass(frozen=True, slots=True)
class SourcesConfig(Section):
    """Reading a document's pages: the glyph sources."""

    image_dpi: int = 300
    """Resolution assumed for an image input that does not state its own."""
    image_max_area: float = 0.6
    """Largest share of the page a picture may cover and still be a figure.

    Figures block gutters like text; larger pictures are backgrounds (a scan under its text
    layer), which the layout ignores and which mark a page that may need OCR.
    """
    page_max_content_bytes: int = 16_000_000
    """Most content a PDF page may draw, in bytes of its decoded content streams.

    Each form XObject counts every time it is drawn (the corpus's largest page draws
    0.5 MB).  A glyph engine's time and memory grow with it (pdfium needs about a hundred
    times as much memory), so a page past it (a form drawing a form twice, twenty deep;
    millions of operators in a few compressed kilobytes) is found before any engine reads
    it (`layoutkit.sources.guard`), left unread and reported; the other pages are read.
    """
    page_max_form_depth: int = 30
    """Deepest nesting of form XObjects allowed on a PDF page.

    A form drawing a form drawing a form is 3 deep, the corpus's deepest.  Each level may
    multiply what an engine draws, so a page whose forms nest deeper, or draw each other
    in a loop (PDFium follows one to its own nesting limit), is found before any engine
    reads it, left unread and reported.
    """
    page_max_annotations: int = 10_000
    """Most annotations a PDF page may have.

    The corpus's most is 90.  An engine holds every one (PDFium aborts past its memory on
    2.5 million), so a page with more is found before any engine reads it, left unread and
    reported.  They are counted in the text of the page's `/Annots` array, without reading
    each one.
    """
    page_max_resources: int = 10_000
    """Most resources a PDF page's resource dictionary may name.

    Resources are fonts, XObjects, graphics states, colour spaces, patterns, shadings and
    property lists; the corpus's most is 69.  pdfminer.six sets up every one (half a
    million made it run for more than a minute), so a page naming more is found before any
    engine reads it, left unread and reported.  A dictionary of them stored as an object of
    its own is counted by the names in its text, at least as many as it holds.
    """
    page_alone_content_bytes: int = 4_000_000
    """Content size, in bytes, past which a PDF page is read in a process of its own.

    Eight times the corpus's largest page.  The process runs within `page_max_seconds` and
    `page_max_memory`, so an engine that runs on or aborts (PDFium aborts when an
    allocation fails) costs the page and not the document; the other pages are read in the
    document's process, at no extra cost.
    """
    page_max_seconds: float = 30.0
    """Wall-clock seconds a page read in a process of its own may take.

    Past it the process is stopped and the page reported unreadable.
    """
    page_max_memory: int = 2_000_000_000
    """Address space a page read in a process of its own may add to its parent's.

    Within the process's own limit, if lower; past it the page is reported unreadable.
    With the reading process, it fits a 4 GB worker.
    """
    image_max_pixels: int = 100_000_000
    """Most pixels an image input's frame may have.

    A 600 dpi scan of an A3 page has 70 million; a larger frame, or one whose header
    claims more, is refused before it is decoded.
    """
    image_max_frames: int = 1000
    """Most frames of an image input (a multi-page TIFF's pages) that are read.

    They are read one at a time; the frames past them are left unread, with one warning.
    A fax or scanner's TIFF holds tens of pages; 10,000 blank frames fit in 13 MB of
    Group 4.
    """
    convert_max_seconds: float = 300.0
    """Wall-clock seconds a converter may take over one document in `layoutkit batch`.

    The converters are pandoc and LibreOffice, for office and markup documents; past it
    every process the converter started is stopped and the document fails.
    """
    convert_max_memory: int = 2_000_000_000
    """Address space each process of a converter may take.

    LibreOffice takes under 0.5 GB for an ordinary document; past it the converter fails
    and the document with it.
    """
    stream_chunk_pages: int = 32
    """Pages laid out together when a long document is read page by page.

    Reading page by page is `layoutkit.iter_pages`, `layoutkit text`, `parse`, `tokens`
    and `nlptext`: no more pages than these are held in memory at once in a document
    longer than `stream_whole_chunks` chunks.  The decisions across pages are the same
    whatever the number (taken over the whole document).
    """
    stream_whole_chunks: int = 2
    """Chunks up to which a document read page by page is laid out in one go.

    A document of at most this many chunks of `stream_chunk_pages` is laid out and typed
    in one go, as `layoutkit.parse` does; a longer one a chunk at a time, its decisions
    across pages taken in passes over the whole document, which keep memory flat on long
    documents but cost more time (on the 38-page City Record, 1.7 times the CPU of one go).
    """


@dataclass(frozen=True, slots=True)
class WordsConfig(Section):
    """Glyphs into words, words into lines (`layoutkit.geometry.words`)."""

    word_gap_em: float = 0.12
    """Horizontal gap between glyphs on one baseline, in font sizes, that ends a word."""
    line_overlap: float = 0.5
    """Least share of the smaller height two words must overlap vertically to be on one line."""
    line_like_size_ratio: float = 0.8
    """Ratio within which two words' heights count as one size.

    A baseline joins the line above only if one of its words overlaps (by `line_overlap`)
    a word of its own size in that line, when either has such a word: a taller word level
    with two lines of smaller text (a large figure in a sidebar beside a paragraph) then no
    longer joins them into one line, while a superscript, a subscript or a word in a larger
    font still joins its line (a subscript hung from a word of a line whose only words of
    its size are calls raised over it too).  In vertical writing, CJK glyphs smaller than
    this share of a column glyph they stand level with and beside are ruby (a line of
    their own, never part of the column), and smaller than this share of a column's
    largest glyph, a row of their own (a side comment; a note set in the column joins its
    line where the column has no text); glyphs of unlike sizes stack into no column where
    the larger is set in a row (ruby over a line of horizontal writing).
    """
    glyph_row_tolerance_em: float = 0.25
    """Baseline distance, in font sizes (at least 1 point), within which glyphs stand on one row."""
    glyph_row_max_span_em: float = 0.5
    """Height, in font sizes, past which a chained row of glyphs is cut into rows.

    Each row cut is within `glyph_row_tolerance_em` of its first baseline.
    """
    glyph_repeat_overlap: float = 0.3
    """Share of a glyph's width within which the same glyph drawn again on its row is dropped.

    A glyph drawn twice (fake bold, a shadow) starts and ends within it of the first;
    a letter touching another of its text (an Arabic word's final nun, the next word's
    narrow initial nun beside it) ends elsewhere.
    """
    vertical_max_gap_em: float = 0.5
    """Gap, in glyph sizes, within which upright glyphs drawn one under another stack into a column.

    Each glyph stands under the one before with at most this gap; the run is vertical
    writing when a CJK character is among them (Japanese or Chinese columns read top to
    bottom).
    """
    vertical_hanging_gap_em: float = 1.5
    """Gap, in glyph sizes, within which a lone CJK glyph over or under a column's end joins it.

    An item's number set a full-width space above its column (一 保険医療機関…) is set in
    the column too.
    """
    baseline_tolerance: float = 0.2
    """Share of their height within which word bottoms share a baseline."""
    drop_cap_min_height: float = 2.0
    """Height, in times the column's usual word, from which a word may be a drop capital.

    Such a word, standing left of all the words of two lines or more beside it, opens the
    first of those lines instead of gluing them into one.
    """


@dataclass(frozen=True, slots=True)
class GuttersConfig(Section):
    """Gutters, columns and bands: the segmentation of a page's body (the occupancy
    grid, `layoutkit.geometry.grid`; the gutters, `gutters`;
    the layout tree, `segment`)."""

    gutter_min_width: float = 3.0
    """The narrowest whitespace strip, in points, that can separate two columns."""
    word_space_ratio: float = 1.5
    """Multiple of a row's word spaces up to which its gap across a gutter may be a word space.

    See `crossing_gap_ratio`.
    """
    crossing_gap_ratio: float = 0.8
    """Share of a gutter's usual width below which a row's gap there crosses the gutter.

    A text row at the end of a gutter's run (a title, the last line of a full-width
    paragraph) runs across the gutter and ends the run when its gap there is narrower than
    this share and no wider than `word_space_ratio` times the row's own word spaces.
    """
    even_space_tolerance: float = 0.1
    """Share by which an evenly spaced row's word spaces may differ from its narrowest.

    A row whose spaces, the gap across a gutter among them, differ by no more, with
    `even_space_min_spaces` spaces besides that gap, runs across the gutter whatever the
    gutter's usual width: it is one evenly spaced line (a title spaced out over the columns
    below), where a row of two columns' lines has the spaces of each line and the gutter
    between them.
    """
    even_space_min_spaces: int = 2
    """Fewest word spaces, besides the gap across a gutter, of an evenly spaced row.

    See `even_space_tolerance`: fewer spaces do not show a row evenly spaced.
    """
    gutter_min_lines: int = 6
    """Fewest text lines a gutter must run beside on each side.

    Rivers of aligned word spaces in justified text rarely run longer; a picture standing
    against it counts the lines its height holds (see `line_pitch_em`); see
    `gutter_min_lines_on_grid` for the document's column grid.
    """
    gutter_min_lines_on_grid: int = 3
    """Fewest text lines on each side for a gutter where the document's column grid has one.

    The grid is the gutters found on other pages too (see `gutter_min_lines`).
    """
    column_min_density: float = 0.5
    """Least share of their height the lines beside a gutter must cover, at the usual pitch.

    Columns are dense stacks of lines; labels strewn down a table's margin are not.  A
    picture on a side, standing across its words, covers the height it takes there (a
    photograph centred under its caption).
    """
    column_min_flush: float = 0.6
    """Least share of a gutter's rows flush against it, on one side at least.

    Justified line ends on the left, line starts on the right.
    """
    sparse_column_gap_em: float = 2.5
    """Strip width, in body font sizes, that separates columns however sparse their lines.

    `column_min_density` is waived when one side stands flush against the strip
    (`column_min_flush`) and the content stream reads the two sides one after the other: a
    sidebar of figures and captions spaced down a page beside a main column of blocks and
    pictures.
    """
    stack_gap_em: float = 0.5
    """White, in body font sizes beyond the usual, that sets stacks of lines apart above and below.

    Blocks of lines set side by side (ministers' signatures, addresses) stand apart from
    the text above and below them by this much more than the region's usual white between
    lines.
    """
    stack_max_level_rows: int = 2
    """Most rows that stacks of lines set side by side may share level across them all.

    A name and the line above it; more are a table's rows repeating across, read row by
    row.
    """
    side_head_align_em: float = 0.5
    """Baseline distance, in body font sizes, within which a side heading is level with its text."""
    stream_across_share: float = 0.5
    """Share of rows read straight across by the content stream past which a strip is no gutter.

    A table's rows are drawn cell after cell.  The rows counted are those of the side with
    fewer, from the first to the last row level on both sides (the lines of a scan's two
    columns stand level only here and there, where an OCR layer may draw them as one).
    """
    stream_across_min_rows: int = 3
    """Fewest rows the stream must read straight across for a strip to be no gutter.

    See `stream_across_share`: fewer are no evidence.
    """
    stream_down_max_share: float = 0.1
    """Share of rows the stream may step across an unflushed strip in and still have a gutter.

    A strip with neither side flush against it is a gutter only where the content stream
    reads one side after the other, stepping across it no more than twice or in this share
    of the rows beside it.
    """
    column_min_width_em: float = 5.0
    """Least width, in body font sizes, of the text on each side of a gutter.

    Narrower strips are list numbers or table cells, not columns.
    """
    grid_resolution: float = 1.0
    """Size, in points, of a cell of the occupancy grid used to find whitespace."""
    rule_min_length: float = 30.0
    """Least length, in points, of a horizontal rule that blocks gutters (it separates bands)."""
    ruled_gutter_min_share: float = 0.8
    """Share of a strip's run a vertical rule must cover to make it a gutter.

    Such a strip is a gutter beside text on each side as one on the column grid is (fewer
    lines, no column tests): the rule is drawn to part columns, however narrow the white
    beside it.
    """
    cell_wall_min_rows: int = 2
    """Fewest rows crossed by horizontal rules that make a vertical rule a table's cell wall.

    The horizontal rules run on to both sides of the vertical one, above, between and
    below the rows; the table's cells are read row by row across it, not as columns.
    """
    cut_tie_ratio: float = 0.8
    """Ratio to the widest gap within which gaps tie where a column band ends.

    Tied gaps count as equally wide and the one nearest the line that ends the band wins.
    """
    band_lead_gap_ratio: float = 2.0
    """Ratio of white under to white over a column's leading lines that closes the band above.

    Lines at the head of one column of a band, above the other columns' first lines, close
    the band above instead when the white under them (down to their column's next line)
    is at least this many times the white over them: an address line set under a
    masthead, level with the top of a sidebar.
    """
    baseline_bin_em: float = 0.3
    """Step, in body font sizes (at least a grid cell), within which word bottoms share a row."""
    line_pitch_em: float = 1.2
    """Usual line pitch, in font sizes, against which a stack's density is judged.

    See `column_min_density`; a picture standing against a gutter counts as the lines its
    height holds at this pitch (`gutter_min_lines`).
    """
    flush_tolerance_em: float = 0.15
    """Distance, in body font sizes (at least a point), within which line ends stand flush.

    Line ends (or starts) within it of the outermost one stand flush against a gutter; a
    picture's edge this near a strip's (and a grid cell) stands against the strip.
    """
    leader_reach_em: float = 2.0
    """Distance, in body font sizes, within which dot leaders ending before a strip run up to it.

    The strip then separates a table's cells or an index's page numbers.
    """
    grid_min_pages: int = 2
    """Fewest pages a gutter must be found on to belong to the document's column grid."""
    grid_overlap: float = 0.5
    """Least overlap, as a share of the narrower, of a strip on the grid with a grid gutter."""
    grid_cut_min_lines: int = 2
    """Fewest text lines on each side for a strip on the column grid to part a region's columns."""
    leader_min_lines: int = 2
    """Fewest lines of dot leaders running up to a strip that make it a cell edge, not a gutter.

    The edge of a table's cells, or of an index's page numbers.
    """
    crossing_max_trims: int = 3
    """Most times a gutter's run is cut back at its ends where a text row runs across it.

    A title, or the last line of a full-width paragraph.
    """


@dataclass(frozen=True, slots=True)
class FurnitureConfig(Section):
    """Running headers and footers found by position and repetition
    (`layoutkit.geometry.furniture`)."""

    furniture_top: float = 0.12
    """Share of the page height, from the top, where running headers may stand."""
    furniture_bottom: float = 0.12
    """Share of the page height, from the bottom, where running footers may stand."""
    line_header_max_lines: int = 3
    """Most lines at the top of a page that may be running header (DCR's name)."""
    line_footer_max_lines: int = 3
    """Most lines at the bottom of a page that may be running footer."""
    furniture_max_distance: int = 3
    """Most Levenshtein edits between a top (bottom) line and its neighbour's for them to repeat.

    The neighbour is the previous or next page, or the one before or after that for
    alternating headers; digits and Roman numerals are masked.  It is DCR's
    `line_header_max_distance` and `line_footer_max_distance`, one for both: neither
    changes a result on the labelled pages from 1 to 6.
    """
    furniture_min_gap_em: float = 0.5
    """Least gap, in the line's font sizes, that parts furniture from the body.

    A line at the usual spacing belongs to the body.  The gap under a running title
    set larger than the body is judged by the body's size, the smaller: the white
    between lines is set by the smaller type's leading.
    """
    furniture_trim_margin: float = 12.0
    """Distance from the page edge, in points, within which a repeated line is furniture regardless.

    It is furniture however close the body comes: the trim margin, where no body is set,
    holds printer's marks and slug lines (a newspaper's colour bars and edition code just
    under its columns).
    """
    furniture_min_similarity: float = 80.0
    """rapidfuzz token-sort ratio (0-100), digits masked, from which two lines repeat each other."""
    furniture_y_tolerance: float = 10.0
    """Height difference, in points, within which two repeated lines stand at the same height.

    A word processor's footer sits 8 pt lower on a page whose last paragraph ran on.
    """
    furniture_min_share: float = 0.3
    """Least share of the other pages a line must recur on to be furniture.

    Counted over pages of the same parity too, for alternating headers.
    """
    furniture_window_pages: int = 201
    """Pages in the window around a line's own on which it is looked for.

    The window holds all the pages of a shorter document.  A running header recurs near
    where it runs, and the comparison across pages takes a time in proportion to the
    number of pages.
    """
    furniture_masthead_top: float = 0.15
    """Share of the page height, from the top, where a masthead may stand.

    A masthead is the running header of the next pages spelled out in pieces (title,
    volume, date on lines of their own) on the first page of a document or part, which
    has no running header of its own.  A masthead is taller than a running header.
    """
    furniture_dateline_top: float = 0.33
    """Share of the page height, from the top, where a masthead's dateline may stand.

    Under a gazette's nameplate a quarter of the page high.  A piece there that carries a
    run of `furniture_masthead_min_run` of a running header's words, covering at least half
    of its own, is masthead.
    """
    furniture_cover_dateline_top: float = 0.66
    """Share of the page height down to which a page's first text row may be its dateline.

    Wherever the dateline zone ends: a cover whose nameplate is a picture half a page high
    (see `furniture_dateline_top`).
    """
    furniture_masthead_min_run: int = 3
    """Fewest running-header words in a run that make a piece a masthead's dateline.

    See `furniture_dateline_top` (a dateline adds the weekday or the place to the header's
    date).
    """
    furniture_bar_gap_em: float = 1.0
    """Distance, in the row's sizes, within which rules over and under a masthead's issue row lie.

    The issue row on a ruled bar: date, series and number in pieces under a gazette's
    nameplate (see `furniture_nameplate_min_size`).
    """
    furniture_nameplate_min_size: float = 1.5
    """Size, in the page's usual font sizes, from which a line is a nameplate or a title.

    A row of short pieces with nothing else above it is the masthead's when rules run over
    and under it (the issue row on a ruled bar) or when the title stands right under it
    (a journal's banner): furniture with no neighbouring page to show the running header.
    """
    furniture_row_max_words: int = 4
    """Most words in each piece of a masthead's row.

    The pieces are labels ('24 Ιανουαρίου 2018', 'Open Access'; see
    `furniture_nameplate_min_size`); the first lines of columns side by side are longer.
    """
    furniture_piece_gap_em: float = 1.5
    """Gap, in font sizes, past which words of one line are separate masthead pieces.

    A masthead set beside a title.
    """
    furniture_folio_min_words: int = 3
    """Fewest other words beside a page's own number that make an edge line a folio line.

    A line at a page's edge, set apart from its body, that opens or ends with the page's
    own number (its label, or its place in the file) after that many words is a running
    header or footer without repeating ('The New Times: 24 SEP 2015 2'); a heading such as
    'Chapter 2' has too few.
    """
    furniture_folio_gap_em: float = 1.0
    """Gap, in the line's sizes, that sets a folio line apart from the body.

    A line at a page's edge whose first or last piece (see `furniture_piece_gap_em`) is a
    page number, beside words, is a running header or footer without repeating when so
    parted from the body: a folio beside a running title or a date ('60 SARAH HANLEY',
    'February 2017 023') on a page whose neighbours are not in the file.  A table's row
    numbered in its first cell stands at the table's own spacing.
    """
    furniture_min_letters: int = 3
    """Fewest letters a line needs to repeat its neighbour's by edit distance.

    A stray symbol at the top of two pages of formulas is not a header.
    """
    furniture_masthead_max_size: float = 1.3
    """Largest size of a masthead piece, in times the running header it is a fragment of.

    A cover's dateline in 12 pt over 10 pt running headers, in 11.5 pt over 9 pt; a title
    that repeats the header's words is set larger.
    """
    furniture_block_min_pages: int = 3
    """Fewest pages on which to find the text block for lines outside it to be furniture.

    A line outside the document's text block (above where the body of its pages usually
    begins, below where it ends) is furniture without repeating when set smaller than
    `furniture_block_max_size` times the pages' usual font size (or, below it, set apart:
    see `furniture_block_foot_gap_em`).
    """
    furniture_block_max_size: float = 0.95
    """Largest size, in usual font sizes, of a line outside the text block taken for furniture.

    See `furniture_block_min_pages`.
    """
    furniture_block_max_lines: int = 6
    """Most lines from the page edge looked at for a block of furniture outside the text block.

    Lines close together there make one block, furniture as a whole when its outermost
    line stands outside the text block and a clear gap (`furniture_min_gap_em`) parts its
    innermost from the body (a licence notice over a first page's title).
    """
    furniture_stamp_gap_em: float = 4.0
    """White, in the line's sizes, that parts a lone small edge line from the text as a stamp.

    On a page with too few others to show where the text block ends, a line left alone at
    its edge, set smaller than `furniture_block_max_size` of the page's usual size and so
    parted from the text, is furniture: a printer's proof stamp at the foot, the section's
    name under a report's header bar (a footnote stands closer to its text, a title to the
    text it opens).
    """
    furniture_block_foot_gap_em: float = 1.0
    """White, in the line's sizes, that makes a line below the text block furniture.

    A line there no smaller than the usual font is furniture when so parted from the text:
    a blank line's worth (a colophon at the foot of a short last page; a navigation bar
    over a running footer, set larger than the body).  Above the text block, where titles
    stand, only a line set smaller is.
    """
    furniture_stamp_max_lines: int = 2
    """Most lines of turned words beside the upright text that are margin stamps.

    Counted among the words of one direction there: a proof stamp, a filing number; more
    are turned body text (a table or a notice set sideways).
    """


@dataclass(frozen=True, slots=True)
class ProfileConfig(Section):
    """Laying a page out as a publication profile says (`layoutkit.profile.stage`)."""

    regex_timeout: float = 1.0
    """Seconds one search of a profile's regular expression may take.

    A `contains` selector over a page's text, a section's `starts_at` over a line; a
    longer one is a profile error (catastrophic backtracking) rather than a reading that
    hangs.
    """


@dataclass(frozen=True, slots=True)
class ReadingConfig(Section):
    """The page in reading order: lines into blocks (`layoutkit.reading`)."""

    block_gap_ratio: float = 1.6
    """Vertical gap, in times the column's usual line pitch, that starts a new block."""
    footnote_max_size: float = 0.92
    """Largest size, in the column's usual font sizes, of a band's footnotes.

    Lines at the foot of a column of a band, so set, parted from the text above by more
    than its usual leading and opening with a note mark (a number, *, †, ‡, §, ¶), are the
    band's footnotes: read after all its columns, and set apart in every text output.  A
    word processor's notes (10 pt under 11 pt text: 0.91) are so set.
    """
    notice_pattern: str = (r"\W{0,3}((copyright\s*)?(©|copyright)\s*((19|20)\d\d|by\b)"
                           r"|(copyright\s*)?\(c\)\s*(19|20)\d\d|\d{4}-\d{3}[\dX]\s*/)")
    """Regular expression for the opening of a publisher's notice, which is furniture.

    A paragraph whose first line opens so is a notice (`layoutkit.reading.notices`): a
    copyright mark or the word and a year (or 'by'), case aside, '(c)' and a year (a list's
    '(c) by inserting ...' is none), or a journal's ISSN before a slash (the fee code
    of a journal's copyright line, `0003-6951/2011/98(8)/082505/3/$30.00`).  So is a
    column's first (last) paragraph at the head (foot) of the page's text with a line or
    sentence opening so (an imprint: `... volume 48. Copyright 2016 by the author(s).`).
    """
    float_flow_size_tolerance: float = 0.1
    """Share of size within which the text beside a float runs on into the band below.

    A column the stream draws after the band below is a float read after that band only
    when the text beside it runs on into the band below: the band's first words set within
    this share of the size of the last words beside the float.
    """
    cjk_space_em: float = 0.9
    """Gap, in the first word's sizes, from which CJK words are joined by a space.

    Words of a CJK line join without a space unless the gap along the baseline reaches it:
    a full-width space (an em, less the text layer's rounding), such as parts a list
    item's number from its text (`一 保険医療機関…`); a justified line's wider spacing stays
    no space.
    """


@dataclass(frozen=True, slots=True)
class LinetypesConfig(Section):
    """Line types, after reading order, with DCR's names (`layoutkit.linetypes`)."""

    toc_last_page: int = 3
    """Pages from the start within which a table of contents stands.

    Pages count by their place in the file, and also by the number the document gives them
    when it has page labels (`/PageLabels`, which LaTeX writes): a front matter numbered in
    Roman numerals (i, ii, iii...) all counts, and so do the pages labelled 1 to this
    number, so a contents page after a title page and a foreword is looked at.
    """
    toc_min_entries: int = 3
    """Fewest entries a table of contents has.

    Entries end in an ascending page number, or open with ascending section numbers of more
    than one level (1, 1.1, 2...).
    """
    lt_list_min_entries: int = 2
    """Fewest items a bulleted or numbered list has."""
    lt_list_indent_tolerance_em: float = 0.5
    """Distance, in ems, within which the lines of one list item start.

    A change of indentation is a new paragraph; items opened by note numbers start within
    it of each other; a line of no item starting further left than this of a numbered
    list's last item ends the list.
    """
    lt_note_mark_max_size: float = 0.8
    """Largest size of a superscript note number, in times the word after it.

    A line opening with such a number (an endnote's) opens a list item when such numbers
    count up at one indentation.
    """
    table_min_gap_em: float = 1.5
    """Gap, in font sizes, past which words are in different cells of a whitespace-aligned table."""
    table_min_columns: int = 3
    """Fewest cells in a row of a whitespace-aligned table.

    Two are a list marker and its text, or a label and its value: see `table_min_pair_rows`.
    """
    table_min_rows: int = 3
    """Fewest rows a whitespace-aligned table has."""
    table_min_pair_rows: int = 5
    """Fewest rows of a whitespace-aligned table of two columns, labels and their values.

    Two cells side by side stand in forms, figures and contact blocks for a few lines as
    often as in a table.
    """
    heading_max_level: int = 3
    """Deepest heading level kept; headings deeper than this are typed body."""
    heading_min_pages: int = 2
    """Fewest pages a numbered heading rule's headings must stand on for it to count.

    Fewer is a numbered list in the text, not a hierarchy.
    """
    heading_style_min_pages: int = 1
    """Fewest pages an unnumbered heading style must stand on to open a level of its own.

    The level is one below the next larger style; a rarer style (a nameplate, a cover)
    takes the level of the next larger one, so it does not push the recurring headings
    below `heading_max_level`.
    """
    heading_style_min_headings: int = 2
    """Fewest headings a style on the document's first page needs to open a level.

    Fewer (a title, a nameplate, a cover's lines) open no level either.
    """
    heading_outgrow_ratio: float = 1.3
    """Size, in times the line right above, from which a line starts a heading however close.

    A headline under its kicker.
    """
    heading_display_size_ratio: float = 1.4
    """Size, in body font sizes, from which heading styles are display type and share one level.

    Headlines are set larger the more a story matters.
    """
    heading_max_words: int = 12
    """Most words a heading line may have."""
    heading_min_size_ratio: float = 1.05
    """Least size, in body font sizes, of a heading set in a regular (not bold) font."""
    heading_min_bold_size_ratio: float = 0.85
    """Least size, in body font sizes, of a heading set in bold.

    Bold type clearly smaller than the body is a figure's label, a byline or a caption.
    """
    heading_min_space_em: float = 0.5
    """Least space above a heading, in its font sizes, unless it opens its column.

    After a line in its own style, this many times the body size beyond the column's most
    frequent gap between lines.
    """
    heading_toc_incl_no_ctx: int = 1
    """Lines after each heading that `<name>.toc.json` gives with it."""
    heading_rules_file: str = ""
    """JSON file of heading rules replacing the defaults (empty: the defaults).

    The rules are in DCR's `lineTypeHeadingRules` shape.
    """
    model: str = "rules"
    """What types the lines: ``rules``, ``learned`` (the shipped model) or a model file.

    A model file is made by ``layoutkit train``.  A model takes the rules' types as
    features with the lines' geometry and decides each line's type
    (`layoutkit.linetypes.classifier`).
    """


@dataclass(frozen=True, slots=True)
class NlpConfig(Section):
    """Text for NLP: paragraphs, tokens and language, with DCR's names (`layoutkit.nlp`)."""

    spacy_ignore_line_type_header: bool = True
    """Leave running headers out of the paragraphs, tokens and NLPTextDocument."""
    spacy_ignore_line_type_footer: bool = True
    """Leave running footers out of the NLP text."""
    spacy_ignore_line_type_toc: bool = True
    """Leave table of contents lines out of paragraphs and tokens."""
    spacy_ignore_line_type_body: bool = False
    """Leave body lines out of the NLP text."""
    spacy_ignore_line_type_heading: bool = False
    """Leave headings (every level) out of the NLP text."""
    spacy_ignore_line_type_list_bullet: bool = False
    """Leave bulleted list items out of the NLP text."""
    spacy_ignore_line_type_list_number: bool = False
    """Leave numbered list items out of the NLP text."""
    spacy_ignore_line_type_table: bool = False
    """Leave table rows out of the NLP text."""
    lang_min_chars: int = 200
    """Fewest letters a page needs to keep its own language guess.

    A page with fewer takes the document's language (short text is guessed badly).
    """
    lang_candidates: str = "en,de,fr,es,it,nl,pt,el,ru,uk,he,ar,fa,zh,ja"
    """The languages (ISO 639-1 codes, comma-separated) the detector chooses among."""
    tokenizer_fallbacks: str = "ja:zh,ko:zh,th:xx,vi:xx"
    """`lang:other` pairs (comma-separated): the blank spaCy pipeline a language falls back to.

    Used for a language whose own tokenizer needs a package that is not installed
    (Japanese: SudachiPy and its dictionary; Korean: mecab-ko; Thai: pythainlp;
    Vietnamese: pyvi).  `zh` cuts CJK text into characters, as spaCy's Chinese does by
    default; `xx` (spaCy's multi-language class) at spaces and punctuation.  A language
    without a pair falls back to `xx`.
    """


@dataclass(frozen=True, slots=True)
class OcrConfig(Section):
    """Scanned pages and images read by OCR (`layoutkit.sources.ocr`)."""

    ocr: str = "auto"
    """When pages are read by OCR: `auto`, `always` or `never`.

    `auto` reads pages without a text layer, or whose text layer over a page-size picture
    is invisible or garbage and does not read as words (`ocr_min_quality`).
    """
    ocr_languages: str = "auto"
    """Languages pages are read in: `auto`, or language codes joined by `+`.

    `auto` is each page's own, found as `layoutkit.sources.ocr.language` says; otherwise
    tesseract's codes or ISO 639-1 codes (`eng+deu`, `de`), as `--lang` and an inbox's
    language folder give them.  Each needs its tesseract pack, Debian's `tesseract-ocr-`
    and the code with `-` for `_` (`tesseract-ocr-deu`, `tesseract-ocr-chi-sim`).
    """
    ocr_sample_height: float = 0.3
    """Share of a page's height, about its middle, read first to tell its script and language.

    It is read in the candidate scripts' models.
    """
    ocr_script_min_confidence: float = 0.75
    """Mean word confidence (0-1) from which a sample is taken to be in the model's script.

    The first candidate that reads it so is taken without trying the others.
    """
    ocr_language_chunk: int = 150
    """Letters of a page's sample (or text layer) whose language is told at once.

    A page's language is the one most of its runs are in.
    """
    ocr_mixed_min_share: float = 0.3
    """Share of a page's letters from which a second language joins the page's main one.

    A language whose runs hold at least this share of the sample's letters joins it
    (`deu+fra`): the page mixes them.
    """
    ocr_dpi: int = 300
    """Resolution at which PDF pages are rendered for OCR."""
    ocr_max_pixels: int = 40_000_000
    """Most pixels a page image given to OCR may have.

    A page of A2 at 300 dpi has 35 million; a larger page is rendered at a lower
    resolution, a larger image reduced, so that OCR's copies of it fit a worker's memory.
    """
    ocr_blank_dpi: int = 18
    """Resolution of the preview that tells a PDF page with nothing on it is blank.

    A page with no text, pictures or rules is looked at on it before OCR: a page on which
    nothing shows is blank and not OCR'd.
    """
    ocr_garbage_share: float = 0.3
    """Least share of a text layer's words in the word list for a layer over a picture to be kept.

    A text layer over a page-size picture with fewer is garbage; the page is then OCR'd.
    """
    ocr_min_quality: float = 0.7
    """OCR quality below which a page (or document) is reported with a warning.

    It also judges a scanned page's text layer before any OCR: a layer at least this share
    of whose words read as real in its language (`layoutkit.sources.ocr.quality.read_share`:
    words of the word list, words of it run together, numbers), or too few words to tell
    their share from it (`layoutkit.sources.ocr.quality.may_read`: 95 % Wilson interval),
    is kept and the page is not OCR'd.
    """
    ocr_layer_margin: float = 0.05
    """Share of real-reading words by which OCR must beat a scanned page's text layer to replace it.

    A scanned page whose text layer surely reads below `ocr_min_quality` is OCR'd, and
    keeps its layer unless tesseract's words read better by more than this
    (`layoutkit.sources.ocr.quality.read_share`).  `ocr = always` uses tesseract's words
    regardless.
    """
    ocr_max_skew: float = 10.0
    """Largest skew, in degrees, that is corrected before OCR."""
    ocr_min_skew: float = 0.1
    """Smallest skew, in degrees, that is corrected before OCR; smaller ones are left alone."""
    ocr_min_orientation_confidence: float = 5.0
    """Tesseract's orientation confidence above which a turned page is set upright before OCR.

    A page read sideways or upside down.
    """
    ocr_rule_min_length: float = 72.0
    """Least length, in points, of a straight stroke painted out before OCR as a rule.

    The stroke is no thicker than a ruling line (2 points); painting it out keeps
    tesseract from reading words into a box's sides.  An inch: longer than the tallest
    letters of type up to about 90 points.
    """


_SECTIONS: dict[str, type[Section]] = {
    "sources": SourcesConfig, "words": WordsConfig, "gutters": GuttersConfig,
    "furniture": FurnitureConfig, "profile": ProfileConfig, "reading": ReadingConfig,
    "linetypes": LinetypesConfig, "nlp": NlpConfig, "ocr": OcrConfig,
}
"""The sections by name, in the order data flows through their stages."""

_SECTION_OF = {f.name: name for name, section in _SECTIONS.items()
               for f in fields(section)}  # type: ignore[arg-type]
"""The section each key belongs to."""


@dataclass(frozen=True, slots=True)
class LayoutConfig:
    """Every parameter of extraction, geometry, reading order, line types, NLP and OCR,
    in a section per stage, each with its default.

    Build one with no arguments (every default), with sections, with
    `from_mapping` (which rejects unknown keys, listing the known ones) or with
    `replace`.
    """

    sources: SourcesConfig = field(default_factory=SourcesConfig)
    words: WordsConfig = field(default_factory=WordsConfig)
    gutters: GuttersConfig = field(default_factory=GuttersConfig)
    furniture: FurnitureConfig = field(default_factory=FurnitureConfig)
    profile: ProfileConfig = field(default_factory=ProfileConfig)
    reading: ReadingConfig = field(default_factory=ReadingConfig)
    linetypes: LinetypesConfig = field(default_factory=LinetypesConfig)
    nlp: NlpConfig = field(default_factory=NlpConfig)
    ocr: OcrConfig = field(default_factory=OcrConfig)

    def __post_init__(self) -> None:
        for name, section in _SECTIONS.items():
            if not isinstance(getattr(self, name), section):
                raise ConfigError(f"config section {name!r}: expected a {section.__name__}, "
                                  f"got {getattr(self, name)!r}")

    @classmethod
    def known_keys(cls) -> tuple[str, ...]:
        """The names of every parameter, section by section in declaration order."""
        return tuple(_SECTION_OF)

    def value(self, key: str) -> Any:
        """The value of the parameter named ``key`` (a name of `known_keys`)."""
        return getattr(getattr(self, _SECTION_OF[key]), key)

    def as_mapping(self) -> dict[str, Any]:
        """Every parameter by its name, as `from_mapping` takes them."""
        return {key: self.value(key) for key in _SECTION_OF}

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], *, where: str = "config") -> LayoutConfig:
        """A config from ``values``, keys by name (each in its own section); an unknown
        key raises ConfigError naming ``where``."""
        unknown = [key for key in values if key not in _SECTION_OF]
        if unknown:
            raise ConfigError(f"{where}: unknown key {unknown[0]!r}; known keys: "
                              f"{', '.join(cls.known_keys())}")
        by_section: dict[str, dict[str, Any]] = {name: {} for name in _SECTIONS}
        for key, value in values.items():
            by_section[_SECTION_OF[key]][key] = value
        sections: dict[str, Any] = {name: _SECTIONS[name](**items)
                                    for name, items in by_section.items()}
        return cls(**sections)

    def replace(self, **changes: Any) -> LayoutConfig:
        """A copy with ``changes`` (keys by name) applied, validated like the
        constructor."""
        return self.from_mapping({**self.as_mapping(), **changes})


@dataclass(frozen=True, slots=True)
class KeyDoc:
    """A configuration key as ``layoutkit config`` shows it: its name, its section, its
    type's name, its default and its meaning (the first sentence of its docstring)."""

    key: str
    section: str
    type: str
    default: object
    meaning: str


_SENTENCE_END = re.compile(r"(?<=\.)\s+(?=[A-Z(`'\"])")
"""Where a docstring's first sentence ends: a full stop before the next one's capital."""
_ROLE = re.compile(r":\w+:`~?([^`]+)`")
"""A cross-reference in a docstring (a role and its target), shown as its target."""


@cache
def _field_docs() -> dict[str, str]:
    """Each key's docstring, the string that follows its field in this module (where
    every key is documented, once), its white space folded and its markup made plain:
    double backquotes single, a cross-reference its target alone."""
    import ast  # for ``layoutkit config`` alone

    docs: dict[str, str] = {}
    sections = {section.__name__ for section in _SECTIONS.values()}
    for node in ast.parse(Path(__file__).read_text(encoding="utf-8")).body:
        if not (isinstance(node, ast.ClassDef) and node.name in sections):
            continue
        for statement, after in zip(node.body, node.body[1:], strict=False):
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) \
                    and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) \
                    and isinstance(after.value.value, str):
                text = _ROLE.sub(r"\1", " ".join(after.value.value.split()))
                docs[statement.target.id] = text.replace("``", "`")
    return docs


def key_docs() -> tuple[KeyDoc, ...]:
    """Every configuration key, section by section in declaration order (as
    `LayoutConfig.known_keys`), with its section, type, default and meaning: the
    first sentence of the docstring this module gives its field."""
    docs = _field_docs()
    return tuple(KeyDoc(f.name, name, str(f.type), f.default,
                        _SENTENCE_END.split(docs.get(f.name, ""), maxsplit=1)[0])
                 for name, section in _SECTIONS.items()
                 for f in fields(section))  # type: ignore[arg-type]
