"""Copyright and licence notices set into a page's columns are furniture."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.config import LayoutConfig
from layoutkit.errors import ConfigError
from layoutkit.model import LineType
from tests.test_segment import VOCAB

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fixtures" / "corpus"

NOTICE = ["Copyright © 1975, Association for Computing Machinery, Inc.",
          "General permission to republish, but not for profit, all or part",
          "of this material is granted, provided that the notice is given."]
ADDRESSES = ["Authors' present addresses: A. V. Aho, Bell Laboratories,",
             "Murray Hill, N.J. 07974."]


def first_page(path: Path, opening: str, *, gap: float) -> tuple[list[str], list[str]]:
    """A letter page of two columns of 10 pt type; the first column's text ends at
    400 pt and, ``gap`` points under it, a paragraph opening with ``opening`` and
    going on as ``NOTICE`` does (a 9 pt first line indented 10 pt, then two flush
    lines) stands over the authors' addresses (an indented paragraph); returns the
    lines of the two columns and of that paragraph."""
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    rng = random.Random(7)
    columns: list[list[str]] = []
    for x, count in ((54.0, 27), (324.0, 50)):
        canvas.setFont("Times-Roman", 10)
        lines = []
        for k in range(count):
            text = " ".join(rng.choice(VOCAB) for _ in range(6)) + f" {x:.0f}x{k}"
            canvas.drawString(x, 720.0 - 12.0 * k, text)
            lines.append(text)
        columns.append(lines)
    canvas.setFont("Times-Roman", 9)
    paragraph = [opening + NOTICE[0].removeprefix("Copyright © 1975"), *NOTICE[1:], *ADDRESSES]
    top = 720.0 - 12.0 * 26 - gap - 11.0
    for k, text in enumerate(paragraph):
        indent = 10.0 if k in (0, len(NOTICE)) else 0.0
        canvas.drawString(54.0 + indent, top - 11.0 * k, text)
    canvas.save()
    return columns[0] + columns[1], paragraph


def test_copyright_notice_under_a_column_is_furniture(tmp_path: Path) -> None:
    """A paragraph set apart under the first column and opening with a copyright mark
    and a year is furniture, up to the indented paragraph after it, which stays in
    its column."""
    path = tmp_path / "notice.pdf"
    body, paragraph = first_page(path, "Copyright © 1975", gap=30.0)
    page = layoutkit.parse(path, typed=False)[0]
    assert [line.text for line in page.body_lines] == body[:27] + ADDRESSES + body[27:]
    assert [line.text for line in page.lines if line.line_type is LineType.FOOTER] == \
        paragraph[:len(NOTICE)]


@pytest.mark.parametrize("opening", ["(c) 1975", "© 1975", "0001-0782/75"])
def test_notice_marks(tmp_path: Path, opening: str) -> None:
    """'(c)' and '©' with a year open a notice as 'Copyright ©' does, and so does a
    journal's fee code, an ISSN before a slash."""
    path = tmp_path / "notice.pdf"
    _, paragraph = first_page(path, opening, gap=30.0)
    page = layoutkit.parse(path, typed=False)[0]
    assert [line.text for line in page.lines if line.line_type is LineType.FOOTER] == \
        paragraph[:len(NOTICE)]


@pytest.mark.parametrize(("opening", "gap"), [("Copyright owners 1975", 30.0),
                                              ("Copyright © 1975", 0.0),
                                              ("0001-0782 is the ISSN", 30.0)])
def test_no_notice_without_mark_and_year_or_white_space(tmp_path: Path, opening: str,
                                                        gap: float) -> None:
    """A paragraph opening with the word 'Copyright' but no mark or year before its
    words, or one that follows the text above it closely, is body."""
    path = tmp_path / "body.pdf"
    body, paragraph = first_page(path, opening, gap=gap)
    page = layoutkit.parse(path, typed=False)[0]
    assert not [line for line in page.lines if line.line_type is LineType.FOOTER]
    assert sorted(line.text for line in page.body_lines) == sorted(body + paragraph)


def test_notice_pattern_set_and_checked(tmp_path: Path) -> None:
    """notice_pattern is a regular expression: one that never matches turns notices
    off; one that does not compile is refused, naming the key."""
    path = tmp_path / "notice.pdf"
    body, paragraph = first_page(path, "Copyright © 1975", gap=30.0)
    config = LayoutConfig().replace(notice_pattern=r"(?!)")
    page = layoutkit.parse(path, config, typed=False)[0]
    assert sorted(line.text for line in page.body_lines) == sorted(body + paragraph)
    with pytest.raises(ConfigError, match=r"notice_pattern.*regular expression"):
        LayoutConfig().replace(notice_pattern="(")


PROCEEDINGS = ["Proceedings of the 33rd International Conference on Machine",
               "Learning, New York, NY, USA, 2016. JMLR: W&CP volume",
               "48. Copyright 2016 by the author(s)."]


def imprint_page(path: Path, place: str, imprint: Sequence[str] = PROCEEDINGS
                 ) -> tuple[list[str], list[str]]:
    """A letter page of two columns of 10 pt type, the first column's text in two
    paragraphs parted by white space; the ``imprint`` in 9 pt (by default
    ``PROCEEDINGS``, its mark and year in its last line) stands 20 pt apart at the
    ``place`` of that column: "foot" (under its text), "head" (over it) or "between"
    (between its paragraphs).  Returns the body lines in reading order and the
    imprint's lines."""
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    rng = random.Random(11)
    paragraphs = [[" ".join(rng.choice(VOCAB) for _ in range(6)) + f" {p}x{k}"
                   for k in range(count)] for p, count in enumerate((12, 12, 50))]
    first = [("text", paragraphs[0]), ("text", paragraphs[1])]
    first.insert({"head": 0, "between": 1, "foot": 2}[place], ("imprint", list(imprint)))
    top = 720.0
    for kind, lines in first:
        canvas.setFont("Times-Roman", 9 if kind == "imprint" else 10)
        for k, text in enumerate(lines):
            canvas.drawString(54.0, top - 12.0 * k, text)
        top -= 12.0 * len(lines) + 20.0
    canvas.setFont("Times-Roman", 10)
    for k, text in enumerate(paragraphs[2]):
        canvas.drawString(324.0, 720.0 - 12.0 * k, text)
    canvas.save()
    body = [line for kind, lines in first for line in lines if kind == "text"]
    return body + paragraphs[2], list(imprint)


@pytest.mark.parametrize("place", ["head", "foot"])
def test_imprint_at_a_column_edge_is_furniture(tmp_path: Path, place: str) -> None:
    """A column's first or last paragraph, set apart and no larger than its text, that
    carries a copyright mark and a year anywhere (a proceedings' imprint at the foot of a
    paper's first column) is furniture; the column's text reads on without it."""
    path = tmp_path / "imprint.pdf"
    body, imprint = imprint_page(path, place)
    page = layoutkit.parse(path, typed=False)[0]
    assert [line.text for line in page.body_lines] == body
    assert sorted(line.text for line in page.lines if line.line_type in (
        LineType.HEADER, LineType.FOOTER)) == sorted(imprint)


def test_imprint_between_paragraphs_is_body(tmp_path: Path) -> None:
    """The same paragraph between two paragraphs of the column is text: only a notice
    opening with its mark and year is furniture there."""
    path = tmp_path / "imprint.pdf"
    body, imprint = imprint_page(path, "between")
    page = layoutkit.parse(path, typed=False)[0]
    assert not [line for line in page.lines if line.line_type in (
        LineType.HEADER, LineType.FOOTER)]
    assert sorted(line.text for line in page.body_lines) == sorted(body + imprint)


def test_imprint_needs_its_mark_opening_a_sentence(tmp_path: Path) -> None:
    """A column's last paragraph whose text matches the notice pattern only inside a
    word (an address's '2004-2006/' read as a fee code) is text."""
    path = tmp_path / "note.pdf"
    body, imprint = imprint_page(path, "foot", [
        "Available at http://www.example.gov/acts/_ato2004-2006/2006/law.htm,",
        "seen on 15 June 2016."])
    page = layoutkit.parse(path, typed=False)[0]
    assert sorted(line.text for line in page.body_lines) == sorted(body + imprint)


def one_column_page(path: Path, last: Sequence[str], *, size: float, gap: float) -> list[str]:
    """A page of one column of 10 pt type: a paragraph of twenty lines, then, ``gap``
    points under it (none: the paragraph indented instead), the paragraph ``last`` in
    ``size`` points.  Returns the page's lines in order."""
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    rng = random.Random(5)
    first = [" ".join(rng.choice(VOCAB) for _ in range(9)) + f" x{k}" for k in range(20)]
    canvas.setFont("Times-Roman", 10)
    for k, text in enumerate(first):
        canvas.drawString(72.0, 720.0 - 12.0 * k, text)
    canvas.setFont("Times-Roman", size)
    top = 720.0 - 12.0 * 20 - gap
    for k, text in enumerate(last):
        canvas.drawString(72.0 + (12.0 if k == 0 and not gap else 0.0), top - 12.0 * k, text)
    canvas.save()
    return first + list(last)


@pytest.mark.parametrize(("last", "size", "gap"), [
    # a legal text's last paragraph, parted by its indent alone
    (["clause 4 of the act, which protects a work from",
      "copyright by reproducing it in any form, is read with",
      "clause 5 of the schedule and its notes as they stand."], 10.0, 0.0),
    # a paragraph of more lines than an imprint, parted by white space
    ([f"clause {k} of the act, which protects a work from" for k in range(4)]
     + ["copyright by reproducing it in any form, is read with"], 10.0, 12.0),
    # a list's items after semicolons, an amendment's item opening a line
    (["The board may act (a) by notice, (b) by order; (c) by regulation, or in",
      "any other way the act allows."], 10.0, 12.0),
    (["(C) by inserting after paragraph (3) the following:"], 10.0, 12.0),
    # a figure's caption crediting its source
    (["Figure 3. The lattice as grown on the substrate. Reproduced with",
      "permission. Copyright 2015, American Chemical Society."], 9.0, 20.0),
])
def test_one_column_page_last_paragraph_is_body(tmp_path: Path, last: list[str], size: float,
                                                gap: float) -> None:
    """On a page of one column, where the column's first and last paragraphs are at the
    head and foot of the page's text, a paragraph parted by its indent alone, one of
    more lines than an imprint, a list's '(c) by ...', an amendment's '(C) by inserting'
    and a caption's copyright credit stay text."""
    path = tmp_path / "one-column.pdf"
    lines = one_column_page(path, last, size=size, gap=gap)
    page = layoutkit.parse(path, typed=False)[0]
    assert [line.text for line in page.lines] == lines
    assert all(line.line_type not in (LineType.HEADER, LineType.FOOTER) for line in page.lines)


@pytest.mark.parametrize(("stem", "gone", "kept"), [
    ("cacm-1975-aho-corasick-scan", "General permission to republish",
     "Authors' present addresses"),
    ("bmc-health-services-malawi-2014", "licensee BioMed Central",
     "Full list of author information"),
    ("appl-phys-lett-2011-spin-polarized-tip", "0003-6951/2011/98(8)/082505/3/$30.00",
     "Electronic mail: guillemin.rodary@lpn.cnrs.fr"),
    ("appl-phys-lett-2011-spin-polarized-tip", "0003-6951/2011/98(8)/082505/3/$30.00",
     "confirm this conclusion. © 2011 American Institute of Physics."),
])
def test_corpus_first_page_notices_left_out(stem: str, gone: str, kept: str) -> None:
    """On the first pages of a scanned 1975 journal paper (its OCR layer) and of an
    open-access article, and under the columns of a physics letter (its fee code and
    copyright), the copyright or licence notice is furniture; the footnote beside it
    stays body, and so does the letter's abstract, which ends in its copyright under
    the title (no paragraph at the head of the page's text)."""
    text = layoutkit.parse(CORPUS / f"{stem}.pdf", pages=[1], typed=False)[0].text()
    assert gone not in text and kept in text
