"""Footnotes at the foot of a column are read after all the band's columns, and every
text output sets them apart, on a page of one column as of several."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.cli import main
from layoutkit.nlp.breaks import footnotes
from layoutkit.outputs.markdown import markdown
from layoutkit.tools.evaluation import evaluate
from tests.test_deep_descent import DEJAVU
from tests.test_segment import VOCAB


def two_columns(path: Path, note: str) -> tuple[list[str], list[str], list[str]]:
    """A letter page of two ragged columns of 40 lines of 10 pt type, the first ending
    in a footnote of two 8 pt lines set 8 pt apart from it (in DejaVu Sans where its
    mark is no Latin-1 character); returns the lines of the first column, of the
    second and of the footnote."""
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    rng = random.Random(3)
    columns: list[list[str]] = []
    for x in (54.0, 324.0):
        lines = []
        canvas.setFont("Times-Roman", 10)
        for k in range(40):
            text = " ".join(rng.choice(VOCAB) for _ in range(6)) + f" {x:.0f}x{k}"
            canvas.drawString(x, 720.0 - 12.0 * k, text)
            lines.append(text)
        columns.append(lines)
    if note.isascii():
        canvas.setFont("Times-Roman", 8)
    else:
        pdfmetrics.registerFont(TTFont("DejaVuSans", str(DEJAVU)))
        canvas.setFont("DejaVuSans", 8)
    notes = [f"{note} A note on the first column set in smaller type here",
             "and its second line runs on below the first one"]
    for k, text in enumerate(notes):
        canvas.drawString(54.0, 720.0 - 12.0 * 39 - 20.0 - 9.0 * k, text)
    canvas.save()
    return columns[0], columns[1], notes


@pytest.mark.parametrize(("mark", "label"), [("1", "1"), ("*", "u2a"), ("∗", "u2217"),
                                           ("‖", "u2016"), ("a)", "a")])
def test_footnote_read_after_the_columns(tmp_path: Path, mark: str, label: str) -> None:
    """A footnote under the first column, marked by a number, a symbol (TeX's asterisk
    is the asterisk operator, ∗) or a letter with a bracket (a physics journal's author
    note), is read after the second column, and Markdown writes it apart, labelled by
    its mark."""
    path = tmp_path / "notes.pdf"
    first, second, notes = two_columns(path, mark)
    page = layoutkit.parse(path)[0]
    assert [line.text for line in page.body_lines] == first + second + notes
    assert [page.lines[k].text for k in sorted(footnotes(page))] == notes
    out = tmp_path / "notes.md"
    assert main(["markdown", str(path), "-o", str(out)]) == 0
    note = notes[0].removeprefix(mark).strip()
    assert f"[^{label}]: {note} {notes[1]}" in out.read_text(encoding="utf-8").splitlines()


def notes_running_on(path: Path, opening: str) -> tuple[list[str], list[str], list[str]]:
    """A letter page of two columns of 24 lines of 10 pt type, each ending in notes of
    7 pt set 20 pt under it: the left column's note runs on into the right column's
    foot, whose notes open with ``opening`` and close with a second note; returns the
    text's lines in order, the left notes and the right ones."""
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    rng = random.Random(11)
    text: list[str] = []
    for x in (54.0, 324.0):
        canvas.setFont("Times-Roman", 10)
        for k in range(24):
            line = " ".join(rng.choice(VOCAB) for _ in range(6)) + f" {x:.0f}t{k}"
            canvas.drawString(x, 720.0 - 12.0 * k, line)
            text.append(line)
    left = ["1 " + " ".join(rng.choice(VOCAB) for _ in range(7))]
    left += [" ".join(rng.choice(VOCAB) for _ in range(8)) + f" l{letter}"
             for letter in "abcde"]  # each line ends in a letter: the note runs on
    right = [f"{opening} " + " ".join(rng.choice(VOCAB) for _ in range(7))]
    right += [" ".join(rng.choice(VOCAB) for _ in range(8)) + f" r{k}" for k in range(1, 5)]
    right += ["2 The second note closes the page here."]
    canvas.setFont("Times-Roman", 7)
    for x, notes in ((54.0, left), (324.0, right)):
        for k, line in enumerate(notes):
            canvas.drawString(x, 720.0 - 12.0 * 23 - 20.0 - 8.0 * k, line)
    canvas.save()
    return text, left, right


@pytest.mark.parametrize(("opening", "running"), [("and", True), ("Figure", False)])
def test_note_running_on_into_the_next_column_is_read_after_it(
        tmp_path: Path, opening: str, running: bool) -> None:
    """A note broken mid-sentence at the left column's foot runs on at the right
    column's, with no mark: it is read after the left column's notes, all of them
    footnotes (a law review's notes, where the running-on part was read before the
    left column's).  Where the right column's small lines open otherwise (a capital,
    a caption's), they stay where they stand."""
    path = tmp_path / "running.pdf"
    text, left, right = notes_running_on(path, opening)
    page = layoutkit.parse(path)[0]
    lines = [line.text for line in page.body_lines]
    if running:
        assert lines == text + left + right
        assert [page.lines[k].text for k in sorted(footnotes(page))] == left + right
    else:
        assert lines == text + right + left


def test_footnote_without_a_mark_stays_in_its_column(tmp_path: Path) -> None:
    """Small lines at a column's foot that open with no note mark (a caption, a
    signature) stay where they stand."""
    path = tmp_path / "caption.pdf"
    first, second, notes = two_columns(path, "Figure:")
    page = layoutkit.parse(path, typed=False)[0]
    assert [line.text for line in page.body_lines] == first + notes + second


def test_footnotes_not_taken_from_small_type_running_on(tmp_path: Path) -> None:
    """Numbered references in small type ending one column and filling the next are no
    footnotes: the small type runs on in the other column, and the page reads in order."""
    path = tmp_path / "references.pdf"
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    rng = random.Random(5)
    expected: list[str] = []
    for x, body, refs in ((54.0, 30, 10), (324.0, 0, 60)):
        y = 720.0
        for k in range(body):
            canvas.setFont("Times-Roman", 10)
            text = " ".join(rng.choice(VOCAB) for _ in range(6)) + f" {x:.0f}b{k}"
            canvas.drawString(x, y, text)
            expected.append(text)
            y -= 12.0
        y -= 8.0
        for _ in range(refs):
            canvas.setFont("Times-Roman", 8)
            text = f"{len(expected)}. " + " ".join(rng.choice(VOCAB) for _ in range(5))
            canvas.drawString(x, y, text)
            expected.append(text)
            y -= 9.5
    canvas.save()
    page = layoutkit.parse(path, typed=False)[0]
    assert [line.text for line in page.body_lines] == expected


CORPUS = Path(__file__).parent.parent / "fixtures" / "corpus"
RESHUMOT = CORPUS / "reshumot-hatzaot-hok-566-2011.pdf"
"""A Hebrew bill: two columns read right to left, two footnotes under the right one,
then a footer row (the page number under one column, the issue under the other)."""


def test_right_to_left_footnotes_read_after_both_columns_above_a_footer_row() -> None:
    """Footnotes open at their right end on a right-to-left page, and a footer row that
    closes both columns apart from their text does not hide them: the notes come after
    the left column (the second read), the footer row stays where it stood."""
    lines = [line.text for line in layoutkit.parse(RESHUMOT, typed=False)[0].body_lines]
    notes = [k for k, text in enumerate(lines) if text.startswith(("1 ס\"ח", "2 ס\"ח"))]
    last_of_left = lines.index("ולביטויים המופיעים בחוק האמור.")
    assert len(notes) == 2
    assert notes == [len(lines) - 2, len(lines) - 1]
    assert last_of_left < notes[0]


def one_column(path: Path, note: str, note_size: float, *, call: bool = True,
               raised: bool = False) -> tuple[list[str], list[str]]:
    """A letter page of one column of 40 lines of 11 pt type (the size of a word
    processor's body text), the note called (with ``call``) by a 7 pt superscript
    "1" at the end of line 10, ending in a note of two lines set ``note_size`` pt, 8 pt
    apart from it, its mark ``note`` a word of its own, or (with ``raised``) a 7 pt
    superscript; returns the lines of the column and of the note."""
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    rng = random.Random(7)
    lines = []
    for k in range(40):
        text = " ".join(rng.choice(VOCAB) for _ in range(9)) + f" line{k}"
        canvas.setFont("Times-Roman", 11)
        canvas.drawString(72.0, 720.0 - 13.0 * k, text)
        if call and k == 10:
            canvas.setFont("Times-Roman", 7)
            canvas.drawString(72.0 + canvas.stringWidth(text, "Times-Roman", 11) + 0.5,
                              724.0 - 13.0 * k, "1")
            text += " 1"
        lines.append(text)
    notes = [f"{note} A note on the page set in the note size of the word processor",
             "and its second line runs on below the first one"]
    for k, text in enumerate(notes):
        y, x = 720.0 - 13.0 * 39 - 21.0 - (note_size + 2.0) * k, 72.0
        if raised and k == 0:
            canvas.setFont("Times-Roman", 7)
            canvas.drawString(x, y + 4.0, note)
            x, text = x + canvas.stringWidth(f"{note} ", "Times-Roman", 7), text[len(note) + 1:]
        canvas.setFont("Times-Roman", note_size)
        canvas.drawString(x, y, text)
    canvas.save()
    return lines, notes


def test_footnote_of_a_single_column_page_is_set_apart(tmp_path: Path) -> None:
    """A numbered note in 10 pt type under a column of 11 pt (a word processor's
    sizes) is a footnote on a page of one column too: read last, where it stands, and
    written apart from the text, never inside its last paragraph."""
    path = tmp_path / "single.pdf"
    column, notes = one_column(path, "1", 10.0)
    page = layoutkit.parse(path)[0]
    assert [line.text for line in page.body_lines] == column + notes
    assert [page.lines[k].text for k in sorted(footnotes(page))] == notes
    out = tmp_path / "single.md"
    assert main(["markdown", str(path), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert f"[^1]: {notes[0][2:]} {notes[1]}" in text.splitlines()
    assert not any("A note on the page" in block for block in text.split("\n\n")
                   if not block.startswith("[^"))


@pytest.mark.parametrize(("note", "size", "call"), [
    ("Source:", 10.0, True), ("1", 11.0, True), ("1", 10.0, False),
], ids=["no mark", "body size", "never called"])
def test_single_column_foot_without_a_mark_or_a_call_is_no_footnote(
        tmp_path: Path, note: str, size: float, call: bool) -> None:
    """The same lines opening with no note mark (a source line under a table), set in
    the text's own size, or numbered but called nowhere in the text above (a numbered
    reference list closing a paper of one column) are no footnote."""
    path = tmp_path / "plain.pdf"
    one_column(path, note, size, call=call)
    page = layoutkit.parse(path)[0]
    assert footnotes(page) == frozenset()
    assert len(page.bands) == 1


@pytest.mark.parametrize("call", [True, False], ids=["called", "never called"])
def test_note_as_large_as_the_text_told_by_its_raised_mark(tmp_path: Path,
                                                           call: bool) -> None:
    """A note set as large as the text (11 pt, as a word processor may set it), its mark
    a superscript raised beside its first word, is a footnote when the text calls its
    mark by a superscript: written apart, never inside the last paragraph.  Called
    nowhere, it stays the page's last lines."""
    path = tmp_path / "raised.pdf"
    column, notes = one_column(path, "1", 11.0, call=call, raised=True)
    page = layoutkit.parse(path)[0]
    assert [line.text for line in page.body_lines] == column + notes
    assert [page.lines[k].text for k in sorted(footnotes(page))] == (notes if call else [])
    assert len(page.bands) == (2 if call else 1)


TAGGED = Path(__file__).parent.parent / "regions" / "tagged"


def test_footnotes_scored_against_the_notes_a_tagged_thesis_marks() -> None:
    """A senior thesis from Word (one column, 12 pt text, 10 pt notes) tags its two
    notes on page 2 as Note: `layoutkit evaluate` scores the outputs' footnotes against
    them, both found, no other line taken for one."""
    evaluation = evaluate([TAGGED / "bates-college-economics-senior-thesis-2023.truth.json"])
    score = evaluation.types["footnotes"]
    assert (score.predicted, score.expected, score.hits) == (2, 2, 2)


CORPUS = Path(__file__).parent.parent / "regions" / "corpus"


def test_notes_holding_more_words_than_the_text_are_footnotes() -> None:
    """A law review's page sets its notes in 7 pt in two columns under text of 9 pt,
    notes running on from one column into the other: they hold more words than the
    text above them, so the page's usual size is theirs; measured against the text
    they note, all 49 note lines are found (none was), no other line taken."""
    evaluation = evaluate([CORPUS / "cclr-2017-3-bausch-mehling-negotiating-climate-change"
                                    "-p180.truth.json"])
    score = evaluation.types["footnotes"]
    assert (score.predicted, score.expected, score.hits) == (49, 49, 49)


def test_notes_as_large_as_the_text_called_in_an_earlier_band() -> None:
    """A security report from Word sets its notes in its text's 10 pt, each mark a
    6.5 pt superscript, under a paragraph that follows a full-width break (page 1: three
    notes, seven lines); the text calls them near the page's top, in another band.  Each
    of the 11 note lines the tags mark on its pages is found, and no other line is
    taken for one."""
    evaluation = evaluate([TAGGED / "microsoft-msrc-memory-tagging-security-analysis-2020"
                                    ".truth.json"])
    score = evaluation.types["footnotes"]
    assert (score.predicted, score.expected, score.hits) == (11, 11, 11)


IJCAI = (Path(__file__).parent.parent / "fixtures" / "corpus"
         / "ijcai-2007-banko-open-information-extraction.pdf")


def test_footnotes_over_a_bare_folio_are_set_apart() -> None:
    """A conference paper's page alone in its file: its two notes under the second
    column stand over the page number, which no other page shows to be the footer.
    They are footnotes all the same, in Markdown each apart, and the paragraph that
    calls the first reads on without it."""
    document = layoutkit.parse(IJCAI)
    blocks = markdown(document, layoutkit.LayoutConfig().linetypes).strip().split("\n\n")
    assert [b for b in blocks if b.startswith("[^")] == [
        "[^1]: Since the Learner labels its own training data, we refer to it as "
        "*self supervised.*",
        "[^2]: Base noun phrases do not contain nested noun phrases, or optional phrase "
        "modifiers, such as prepositional phrases."]
    assert not any("Since the Learner" in b for b in blocks if not b.startswith("[^"))
