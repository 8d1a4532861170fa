"""The immutable values that flow through the pipeline.

Coordinates are PDF points with the origin at the page's top-left corner
(``x0, top, x1, bottom``), as pdfplumber uses them; extraction converts once,
everything downstream relies on it::

    (0, 0) ------------------------------> x
      |     x0,top +--------+
      |            |  word  |
      |            +--------+ x1,bottom
      v y

The values live by kind: `value` (the frozen base, pickled as its
constructor call), `clean` (text as it enters the model: safe to print and to
encode), `geometry` (boxes, rules), `outline` (the PDF's bookmarks), `glyphs` (a page's glyph
arrays as a source reads them), `layout` (words, lines, blocks, columns, bands,
pages, the document), `weight` (a font's weight), `captions` (what a figure's or a
table's caption opens with, the vocabulary the stages share) and `codec` (the
document's JSON, published and stored).
"""

from .clean import clean_text, clean_texts
from .geometry import BBox, Rule, quarter_turn, turned_boxes
from .glyphs import (
    CODE_POINTS,
    LINK_SCHEMES,
    NO_GLYPHS,
    Glyph,
    Glyphs,
    Link,
    PageGlyphs,
    char_test,
    code_points,
    is_cjk,
    is_right_to_left,
    spell,
    visual_order,
)
from .layout import (
    Band,
    BandKind,
    Block,
    Column,
    Document,
    Line,
    LineType,
    OcrQuality,
    Page,
    PageDrawing,
    Table,
    Word,
    draw_pages_with,
    tables_by_page,
)
from .outline import OutlineEntry
from .value import Value, from_columns
from .weight import BOLD, BOLD_MIN, MAX_WEIGHT, REGULAR, is_bold, named_weight, untagged

__all__ = [
    "BOLD",
    "BOLD_MIN",
    "CODE_POINTS",
    "LINK_SCHEMES",
    "MAX_WEIGHT",
    "NO_GLYPHS",
    "REGULAR",
    "BBox",
    "Band",
    "BandKind",
    "Block",
    "Column",
    "Document",
    "Glyph",
    "Glyphs",
    "Line",
    "LineType",
    "Link",
    "OcrQuality",
    "OutlineEntry",
    "Page",
    "PageDrawing",
    "PageGlyphs",
    "Rule",
    "Table",
    "Value",
    "Word",
    "char_test",
    "clean_text",
    "clean_texts",
    "code_points",
    "draw_pages_with",
    "from_columns",
    "is_bold",
    "is_cjk",
    "is_right_to_left",
    "named_weight",
    "quarter_turn",
    "spell",
    "tables_by_page",
    "turned_boxes",
    "untagged",
    "visual_order",
]
