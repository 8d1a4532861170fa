"""Paragraphs, footnotes and hyphenated line ends read alike by every text output.

A generated two-column page with exact truth: justified paragraphs opening with a
first-line indent, a flush paragraph after a vertical gap, a footnote called by a
superscript number and set small at the first column's foot, and words hyphenated at
line ends (some joined only by the language's word list, a compound kept), and a
caption set close under a paragraph.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.cli import main
from layoutkit.model import BBox, Document, Line, Word
from layoutkit.nlp.breaks import Measure, parted
from layoutkit.outputs.html import html_document
from layoutkit.outputs.markdown import markdown
from layoutkit.outputs.structure import paragraph_text

_FONT, _SIZE, _LEAD, _INDENT = "Times-Roman", 10.0, 12.0, 12.0
_MEASURE = 230.0
_COLUMNS = (54.0, 324.0)

# Each column: paragraphs of lines; a paragraph is (indented, gap before, its lines).
# The last line of a paragraph is set ragged, the others justified to the measure.
_LEFT = [
    (True, False, ["The first paragraph opens the study and we exam-",
                   "ine how readers join the words that printers break",
                   "at the ends of lines, a habit that is well-",
                   "known to every reader of the columns of a paper",
                   "and that software has to undo before it counts words."]),
    (True, False, ["The second paragraph sets out a reading that is rea-",
                   "sonable for most papers and that keeps each printed",
                   "paragraph apart from the next one in the column.",
                   "Its last sentence ends the paragraph here."]),
    (False, True, ["A flush paragraph follows after a gap in the column,",
                   "its lines all set against the left edge of the text",
                   "with no indent at all, so only the white space above",
                   "parts it from the paragraph before, and its text",
                   "goes on at the foot of the column where it differs from"]),
]
_RIGHT = [
    (False, False, ["the earlier one and runs on into the second column",
                    "without a break in its sentence until it ends here."]),
    (False, False, ["Figure 1: The page drawn as boxes, one for each line."]),
    (True, False, ["The fourth paragraph keeps measur-",
                   "ing the text of the page line by line so that every",
                   "reader sees the same words in every output format.",
                   "It ends at the foot of the second column too."]),
]
_NOTE = "However, Wang et al. read the same pages another way."
_NOTE2 = "Their figures are not compared here."

PARAGRAPHS = [
    "The first paragraph opens the study and we examine how readers join the words "
    "that printers break at the ends of lines, a habit that is well-known to every "
    "reader of the columns of a paper and that software has to undo "
    "before it counts words.",
    "The second paragraph sets out a reading that is reasonable for most papers and "
    "that keeps each printed paragraph apart from the next one in the column. Its last "
    "sentence ends the paragraph here.",
    "A flush paragraph follows after a gap in the column, its lines all set against "
    "the left edge of the text with no indent at all, so only the white space above "
    "parts it from the paragraph before, and its text goes on at the foot of the "
    "column where it differs from 1 the earlier one and runs on into the second column "
    "without a break in its sentence until it ends here.",
    "Figure 1: The page drawn as boxes, one for each line.",
    "The fourth paragraph keeps measuring the text of the page line by line so that "
    "every reader sees the same words in every output format. It ends at the foot of "
    "the second column too.",
]
FOOTNOTE = f"1 {_NOTE} {_NOTE2}"
MARKED = [p.replace("from 1 the", "from<sup>1</sup> the") for p in PARAGRAPHS]
"""The paragraphs as Markdown and HTML mark them: the note's call a superscript."""
JOINED = {"examine", "reasonable", "measuring"}


def _draw_line(canvas: Canvas, x: float, y: float, text: str, width: float,
               justify: bool) -> None:
    """``text`` at ``x`` on baseline ``y``, its word spaces widened to fill ``width``
    when ``justify``."""
    words = text.split()
    natural = sum(stringWidth(w, _FONT, _SIZE) for w in words)
    space = (width - natural) / (len(words) - 1) if justify else stringWidth(" ", _FONT, _SIZE)
    for word in words:
        marker = word.endswith("from") and text.endswith("differs from")
        canvas.setFont(_FONT, _SIZE)
        canvas.drawString(x, y, word)
        x += stringWidth(word, _FONT, _SIZE)
        if marker and word is words[-1]:
            canvas.setFont(_FONT, 6.0)
            canvas.drawString(x + 0.3, y + 3.5, "1")
        x += space


def write_page(path: Path) -> None:
    """The two-column page of the module's truth."""
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    canvas.setTitle("paragraphs")
    bottoms = []
    for x0, column in zip(_COLUMNS, (_LEFT, _RIGHT), strict=True):
        y = 720.0
        for indented, gap, lines in column:
            if gap:
                y -= _LEAD
            for k, text in enumerate(lines):
                x = x0 + (_INDENT if indented and k == 0 else 0.0)
                last = k == len(lines) - 1
                _draw_line(canvas, x, y, text, x0 + _MEASURE - x, not last)
                y -= _LEAD
        bottoms.append(y)
    # the footnote: a superscript number and two lines of 8 pt type at the first
    # column's foot, parted from the text by a rule's worth of white space
    y = bottoms[0] - 10.0
    canvas.setFont(_FONT, 5.5)
    canvas.drawString(_COLUMNS[0], y + 3.0, "1")
    canvas.setFont(_FONT, 8.0)
    canvas.drawString(_COLUMNS[0] + 4.0, y, _NOTE)
    canvas.drawString(_COLUMNS[0], y - 9.5, _NOTE2)
    canvas.save()


@pytest.fixture(scope="module")
def page_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("paragraphs") / "paragraphs.pdf"
    write_page(path)
    return path


@pytest.fixture(scope="module")
def document(page_pdf: Path) -> Document:
    return layoutkit.parse(page_pdf)


def test_paragraphs_markdown_blocks_are_the_printed_paragraphs(document: Document) -> None:
    """Markdown: each printed paragraph one block, indented or parted by a gap, the
    caption its own, the footnote its own block after the page's body, hyphenated
    words joined by the language's word list and the compound kept."""
    blocks = markdown(document, layoutkit.LayoutConfig().linetypes).strip().split("\n\n")
    assert blocks == [*MARKED, "[^1]: " + FOOTNOTE[2:]]


def test_paragraphs_html_paragraphs(document: Document) -> None:
    """HTML: a ``<p>`` per printed paragraph, the footnote an ``<aside>``."""
    page = html_document(document, layoutkit.LayoutConfig().linetypes)
    body = [line for line in page.splitlines() if line.startswith(("<p ", "<aside "))]
    texts = [line.split(">", 1)[1].rsplit("</", 1)[0] for line in body]
    assert texts == [*MARKED, "<sup>1</sup>" + FOOTNOTE[1:]]
    assert body[-1].startswith('<aside class="footnote" ')


def test_paragraphs_text_option(page_pdf: Path, tmp_path: Path) -> None:
    """``layoutkit text --paragraphs``: one printed paragraph a line, the footnote last."""
    out = tmp_path / "out.txt"
    assert main(["text", "--paragraphs", str(page_pdf), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").splitlines() == [*PARAGRAPHS, FOOTNOTE]
    assert paragraph_text(document=layoutkit.parse(page_pdf), skip=frozenset({"h", "f"})
                          ).splitlines() == [*PARAGRAPHS, FOOTNOTE]


def test_paragraphs_tokens_agree_with_markdown(page_pdf: Path, tmp_path: Path) -> None:
    """tokens read the same paragraphs and join the same hyphenated words as Markdown."""
    out = tmp_path / "tokens.json"
    assert main(["tokens", str(page_pdf), "-o", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    texts = [" ".join(s["text"] for s in p["sentences"]) for page in data["pages"]
             for p in page["paragraphs"]]
    assert texts == [*PARAGRAPHS, FOOTNOTE]
    words = {t["text"] for page in data["pages"] for p in page["paragraphs"]
             for s in p["sentences"] for t in s["tokens"]}
    assert words >= JOINED
    assert not words & {"exam-", "rea-", "measur-", "exam", "ine", "sonable", "wellknown"}


ACL = Path(__file__).parent.parent / "fixtures" / "corpus" / "acl-2014-phrase-generation.pdf"


def test_paragraphs_real_paper_page_counts_its_printed_paragraphs() -> None:
    """A two-column ACL paper, p.2 (counted on the page image): seven printed paragraphs
    of body text (one running on from the first column into the second, two holding
    displayed formulas followed by ``where…``), four headings and one footnote under
    the second column, kept out of every body paragraph."""
    document = layoutkit.parse(ACL, pages=[2])
    config = layoutkit.LayoutConfig().linetypes
    blocks = markdown(document, config).strip().split("\n\n")
    body = [b for b in blocks if not b.startswith(("#", "[^"))]
    notes = [b for b in blocks if b.startswith("[^")]
    assert len(body) == 7
    assert [b[:40] for b in body] == [
        "this paper, we introduce a more direct a", "To the best of our knowledge, we are the",
        "Andreas and Ghahramani (2013) discuss th", "Socher et al. (2011) come closest to our",
        "We start by presenting the familiar synt", "To construct the vector representing a t",
        "Although we are not bound to a specific "]
    assert notes == ["[^1]: Here we make the simplifying assumption that all vectors have "
                     "the same dimensionality, however this need not necessarily be the case."]
    assert not any("simplifying" in b for b in body)
    assert "longer phrases is handled by recursive extension" in body[4]
    page = html_document(document, config)
    assert page.count("<p ") == 7 and page.count('<aside class="footnote"') == 1


APL = (Path(__file__).parent.parent / "fixtures" / "corpus"
       / "appl-phys-lett-2011-spin-polarized-tip.pdf")


def test_paragraphs_letter_abstract_author_note_and_references_apart() -> None:
    """A physics letter (counted on its page images): the abstract, set across the page
    and ending with its DOI, is a paragraph of its own, not the start of the columns'
    first; the author's note under the first column ('a) Electronic mail') is a
    footnote, in no body paragraph; each of the 15 references, opening with a raised
    number, is its own block."""
    document = layoutkit.parse(APL)
    blocks = markdown(document, layoutkit.LayoutConfig().linetypes).strip().split("\n\n")
    abstract = next(k for k, b in enumerate(blocks) if b.startswith("We present a high"))
    assert blocks[abstract].endswith("[\\[doi:10.1063/1.3558920\\]]"
                                     "(http://dx.doi.org/10.1063/1.3558920)")
    assert blocks[abstract + 1].startswith("Spin-polarized scanning tunneling microscopy")
    assert [b for b in blocks if "Electronic mail" in b] == [
        "[^a]: Electronic mail: guillemin.rodary@lpn.cnrs.fr."]
    references = [b for b in blocks if b.startswith("<sup>")]
    assert [b.split("</sup>")[0].removeprefix("<sup>") for b in references] == [
        str(n) for n in range(1, 16)]
    assert references[0].startswith("<sup>1</sup> M. Bode, ")


_FLUSH = [
    ["The council met on the first day of the month and heard the",
     "reports of its committees on the roads, the water supply and the",
     "library, each of which was received and placed on the record."],
    ["Members then asked about the state of the footpath along the",
     "river, which the county had promised to mend before the winter.",
     "It is still closed to walkers."],
    ["The meeting closed at nine."],
]
"""Three flush paragraphs; the first ends on a line as long as the lines before it."""


def _flush_page(path: Path, justify: bool) -> None:
    """One column of flush paragraphs (no indent, no gap between them), justified to
    the measure or ragged."""
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    y = 720.0
    for lines in _FLUSH:
        for k, text in enumerate(lines):
            _draw_line(canvas, 72.0, y, text, 300.0, justify and k < len(lines) - 1)
            y -= _LEAD
    canvas.save()


@pytest.mark.parametrize(("justify", "joined"), [(True, False), (False, True)],
                         ids=["justified", "ragged"])
def test_paragraphs_flush_paragraphs_end_where_a_word_would_have_fit(
        tmp_path: Path, justify: bool, joined: bool) -> None:
    """Paragraphs set flush with no gap between them: a line after which the next
    line's first word would have fit ends its paragraph, justified or ragged; a line
    that wraps because the next word does not fit goes on.  The first paragraph's last
    line, set at its own width, stops short of the justified lines before it, but in
    ragged text it runs as long as the others, and nothing on the page tells that
    paragraph from the next."""
    path = tmp_path / "flush.pdf"
    _flush_page(path, justify)
    document = layoutkit.parse(path)
    blocks = markdown(document, layoutkit.LayoutConfig().linetypes).strip().split("\n\n")
    first, second, third = (" ".join(lines) for lines in _FLUSH)
    assert blocks == ([f"{first} {second}", third] if joined else [first, second, third])


def _set(text: str, x0: float, top: float, x1: float | None = None) -> Line:
    """A line of 10 pt words 5 pt a character from ``x0`` at ``top``, 2.5 pt apart or
    justified to end at ``x1``."""
    parts = text.split()
    natural = 5.0 * sum(map(len, parts))
    space = 2.5 if x1 is None or len(parts) < 2 else (x1 - x0 - natural) / (len(parts) - 1)
    words, x = [], x0
    for part in parts:
        words.append(Word(part, BBox(x, top, x + 5.0 * len(part), top + 10.0), "F", 10.0))
        x += 5.0 * len(part) + space
    return Line(text, BBox.union(w.bbox for w in words), tuple(words), 1, 0, 0, 0)


_COLUMN = {(1, 0, 0): Measure(left=72.0, leading=12.0, size=10.0, flush=True, width=300.0,
                              spans=((72.0, 372.0, 10.0),) * 20, lines=20)}
_TWO_PRINTED = {(1, 0, 0): Measure(
    left=72.0, leading=12.0, size=10.0, flush=True, width=428.0,
    spans=((72.0, 260.0, 10.0),) * 10 + ((300.0, 500.0, 10.0),) * 10
    + ((72.0, 500.0, 12.0),) * 2, lines=22)}
"""A column of the page's grid holding two printed ones under a deck across both."""


@pytest.mark.parametrize(("before", "after", "starts"), [
    (_set("ends here.", 72.0, 100.0), _set("Next", 72.0, 112.0), True),
    (_set("a line that runs on to the edge", 72.0, 100.0, x1=372.0),
     _set("Next", 72.0, 112.0), False),
    (_set("a word cut in hyph-", 72.0, 100.0), _set("Enation", 72.0, 112.0), False),
    (_set("ends here.", 72.0, 100.0), _set("Beside", 150.0, 100.0), False),
    (_set("a quotation set in on both sides", 96.0, 100.0, x1=330.0),
     _set("to the end", 96.0, 112.0), False),
    (_set("議" * 56, 72.0, 100.0), _set("郭榮鏗議員", 72.0, 112.0), True),
    (_set("議" * 60, 72.0, 100.0), _set("郭榮鏗議員", 72.0, 112.0), False),
], ids=["room left", "full line", "hyphenated", "same row", "lower case", "cjk room left",
        "cjk full line"])
def test_paragraphs_a_break_is_on_purpose_where_the_next_word_would_have_fit(
        before: Line, after: Line, starts: bool) -> None:
    """A line starts a paragraph when its first word would have fit after the line
    before, within the column's reach; not after a full line or a hyphenated word,
    beside the line on its own row, nor where it goes on in lower case (a quotation set
    in on both sides, whose lines all end short of the column's reach).  Chinese wraps
    between any two characters: a line ending two characters short of the reach ends
    its paragraph though the next line's first word, a whole name, would not fit."""
    assert parted(before, after, _COLUMN) is starts


def test_paragraphs_a_narrow_printed_column_is_measured_against_its_own_lines() -> None:
    """Two printed columns under a deck across both, one column of the page's grid: a
    line of the narrow one is measured against its own lines' reach, not the wider
    one's, so a wrapped line ('rue de la' over 'Milétrie.') goes on."""
    before = _set("words that fill the narrow col", 72.0, 100.0, x1=255.0)
    assert parted(before, _set("Milétrie.", 72.0, 112.0), _TWO_PRINTED) is False
    assert parted(_set("ends here.", 72.0, 100.0), _set("Next", 72.0, 112.0),
                  _TWO_PRINTED) is True
    few = {(1, 0, 0): Measure(left=72.0, leading=12.0, size=10.0, flush=True, width=300.0,
                              spans=((72.0, 130.0, 10.0), (72.0, 372.0, 10.0))
                              + ((72.0, 372.0, 12.0),) * 10, lines=12)}
    assert parted(_set("ends here.", 72.0, 100.0), _set("Next", 72.0, 112.0), few) is True
