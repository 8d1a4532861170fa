"""Reading order on pages of the development corpus that showed a general cause of lost
or misplaced lines: the first time layoutkit read them (``benchmarks/corpus-first-reads.md``),
or where the page's whitespace alone leaves a band's end open."""

from __future__ import annotations

from pathlib import Path

import pytest

import layoutkit
from layoutkit.config import LayoutConfig

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus"
ERCOT = CORPUS / "ercot-fact-sheet-2024-02.pdf"

INTRO = ["The Electric Reliability Council of Texas (ERCOT) is a nonprofit",
         "organization that ensures reliable electric service for 90 percent of",
         "the state of Texas. The grid operator is regulated by the Public Utility",
         "Commission of Texas and the Texas Legislature."]

SIDEBAR = ["1,873+", "1,250+", "54,100+", "98,000+ MW", "37,725 MW", "18,364 MW", "4,048 MW",
           "27,548 MW", "69.15%", "17,201 MW", "39.94%", "$3.3 billion"]


def ercot_lines(config: LayoutConfig | None = None) -> list[str]:
    """The body lines of the ERCOT fact sheet's first page, as read."""
    page = layoutkit.parse(ERCOT, config, pages=[1], typed=False)[0]
    return [line.text for line in page.lines if not line.furniture]


def test_tall_figure_beside_two_lines_joins_neither_to_the_other() -> None:
    """The sidebar's 20 pt figures stand level with two 10 pt lines of the intro each;
    with the sidebar left unparted from the main column (sparse gutters off), each line
    still comes out whole, words in order, the figure at most beside one of them
    (``line_like_size_ratio``), where the two lines used to be glued into one with
    their words in x order ('The organization Electric Reliability that ...')."""
    lines = ercot_lines(LayoutConfig().replace(sparse_column_gap_em=1000.0))
    for expected in INTRO:
        assert any(line.startswith(expected) for line in lines), expected
    # the two figures' captions, level with each other and drawn one after the other,
    # are lines of their own (geometry.parting)
    assert "Record peak demand" in lines and "Weekend peak demand record" in lines
    assert any(line.startswith("(August 10, 2023) (August 20, 2023)") for line in lines)


def test_sidebar_of_spaced_figures_is_read_after_the_main_column() -> None:
    """The sidebar's twelve figures, spaced down the page with their captions, are a
    column beside the main column of infographics though too sparse for a dense stack
    (``sparse_column_gap_em``): the main column is read first, then the sidebar's
    figures in order, each line whole."""
    lines = ercot_lines()
    assert lines[:4] == INTRO
    at = [lines.index(figure) for figure in SIDEBAR]
    assert at == sorted(at)
    assert at[0] > lines.index("imports/exports and an adjustment for wholesale storage load.")



def lines_of(stem: str, page: int) -> list[str]:
    """The body lines of a corpus page, in reading order."""
    parsed = layoutkit.parse(CORPUS / f"{stem}.pdf", pages=[page], typed=False)[0]
    return parsed.text().splitlines()


def test_order_corpus_address_line_closes_the_masthead() -> None:
    """The newsletter's address line, set under its motto and level with the top of the
    dark sidebar (no white between them), is the masthead's last line: read before the
    sidebar, not after it in the main column."""
    lines = lines_of("uufom-candle-flame", 1)
    address = lines.index("6220 Jefferson Avenue, Midland www.uufom.org")
    assert lines[address - 1].startswith("A liberal religious haven")
    assert lines[address + 1] == "Pastoral Care"
    main_column = lines.index("October 2016 (Volume LXVIII No. 10)")
    assert lines[main_column - 1] == "Th 9:00-10:00AM"


def test_order_corpus_ocr_layer_joined_across_columns_keeps_the_gutter() -> None:
    """The scan's OCR layer draws lines of both columns that stand level as one (an
    equation number with a caption, a line of text with a plot's tick label): read
    across in those few rows only, among the columns' many, the stream is no table's,
    so the gutter holds and the left column is read to its end before the right."""
    lines = lines_of("z-naturforsch-a-1999-shallow-water-scan", 2)
    where = next(k for k, line in enumerate(lines) if line.startswith("where <^ is"))
    assert lines[where] == "where <^ is an arbitrary constant. In addition to the above"
    last_left = next(k for k, line in enumerate(lines) if line.startswith("38y"))
    assert where < last_left < next(k for k, line in enumerate(lines)
                                    if line.startswith("Lastly we present"))


def test_order_corpus_ruled_table_reads_row_by_row_across_its_cell_walls() -> None:
    """The contract awards' 11-column table is ruled cell by cell: each vertical rule
    between its cells meets horizontal rules running on to both its sides above and
    below every row, a cell wall, not a rule between columns.  Every row is read printed
    line by printed line across its cells, row 10 (whose first cell wraps over five
    lines, under a taller row 9) as the others, where its cells were read one after the
    other, as columns."""
    lines = lines_of("ghana-transport-sector-contract-awards-2016-08", 1)
    row = lines.index("10 Colour Printers MRH/IDA/TSP/NCB/G NCB Microsys Company Box TN 1393, "
                      "45,262.32 GHS 17‐June‐11 17‐July‐11 Completed")
    assert lines[row + 1:row + 5] == ["(21No.), Black & White ‐2/ Lot 3 Limited Teshie Nungua",
                                      "Printers (3No.), Est ‐ Accra", "Scanning Machines",
                                      "(4No.)"]
    assert lines[row + 5].startswith("11 Colour Photocopiers")


def test_order_corpus_figure_drawn_last_is_read_after_the_paragraph_round_it() -> None:
    """The abstract's paragraph narrows to a right-hand column beside a chart and its
    caption, then runs on full width under them; the stream draws the chart and caption
    after everything else, and the paragraph's column ends in the size the full-width
    lines open in: the figure is a float, read after the band below, so the paragraph
    is no longer broken twice by the caption (once before its column, once after)."""
    lines = lines_of("pusep-magneto-photoluminescence-abstract", 1)
    column = lines.index("quantum wells. The structure studied here consists of a")
    assert lines[column - 1] == "weakly coupled, intentionally disordered multiple"
    end = lines.index("field QH states.")
    assert lines[end + 1] == "References:"
    caption = lines.index("Figure. 1: (a) Rxx and Rxy as a function of the")
    assert caption > end
    assert lines[caption + 6] == "mK."


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_order_corpus_signatures_side_by_side_read_minister_by_minister(engine: str) -> None:
    """At the foot of the Greek gazette's right column two ministers sign side by side
    under 'Οι Υπουργοί', each a ministry over a name, the names level and 6.5 pt apart,
    the right ministry one line taller: each signature is read whole, left then right,
    where the rows were read across both (the content stream draws them so too)."""
    page = layoutkit.parse(CORPUS / "fek-a-10-2018-01-24.pdf", pages=[1], typed=False,
                           engine=engine)[0]
    lines = page.text().splitlines()
    at = lines.index("Οι Υπουργοί")
    assert lines[at - 1] == "ΠΡΟΚΟΠΙΟΣ Β. ΠΑΥΛΟΠΟΥΛΟΣ"
    assert lines[at + 1:] == ["Εσωτερικών", "ΠΑΝΑΓΙΩΤΗΣ ΣΚΟΥΡΛΕΤΗΣ", "Ναυτιλίας και",
                              "Νησιώτικής Πολιτικής", "ΠΑΝΑΓΙΩΤΗΣ ΚΟΥΡΟΥΜΠΛΗΣ"]


def test_order_corpus_key_figures_in_circles_read_figure_by_figure() -> None:
    """The annual report's four key figures stand in circles side by side, three of
    three centred lines and the last of two centred between their rows: each figure is
    read whole, left to right, where the rows were read across all four."""
    lines = lines_of("carpentries-2024-annual-report-cover-impact", 2)
    at = lines.index("Delivered")
    assert lines[at:at + 11] == ["Delivered", "4,600+", "Workshops", "Trained", "5,100+",
                                 "Instructors", "And 185", "Instructor", "Trainers", "In 71",
                                 "Countries"]


def test_order_corpus_key_figures_level_read_figure_by_figure() -> None:
    """The annual report's ten key figures stand in a staggered grid, each a 30 pt
    number over a caption of 9 pt lines flush left, the outer figures level in pairs:
    each figure is read whole, left then right, the middle one after them, where each
    pair's numbers made one line and their captions' rows were read across both."""
    lines = lines_of("wikimedia-deutschland-2017-annual-report-looking-back", 2)
    at = lines.index("5,844")
    assert lines[at:at + 12] == [
        "5,844", "times people took part in", "activities related to the",
        "Wikimedia projects.", "39,345", "times the Digital-O-Mat",
        "was used before the federal", "elections.", "436", "volunteers received direct",
        "support in 2017.", "1,531"]


def test_order_corpus_board_members_read_officer_by_officer() -> None:
    """The newsletter's board sets its four officers two by two: the heading 'Board
    Members' flush over the left pair, narrower than it, the right pair level with the
    left one.  Two stacks that end level and start apart: the left pair is read after
    the heading and before the right pair, not row by row across them."""
    lines = lines_of("lake-evesham-news-2020-02", 1)
    at = lines.index("Board Members")
    assert lines[at + 1:at + 5] == ["Theresa Furnari, President", "Anthony Cataldo, Vice President",
                                    "Ryan Ahearn, Secretary", "Macky Ayers, Treasurer"]


def test_order_corpus_portrait_and_caption_beside_the_letter_read_as_a_column() -> None:
    """The chairman's letter opens under a display title with his portrait at the left,
    its three-line caption under it, and the letter in two justified columns under a
    salutation at the right.  The portrait stands in its column as the lines its height
    holds, so the strip beside the caption is a gutter and the portrait ends no band: the
    caption is read after the title, then the salutation, the left column whole and the
    right column whole, where the columns were read row by row across (order 0.22)."""
    lines = lines_of("mercedes-benz-group-2023-geschaeftsbericht-contents-letter", 2)
    assert lines[:6] == ["Brief des Vorstandsvorsitzenden", "Ola Källenius",
                         "Vorsitzender des Vorstands", "der Mercedes-Benz Group AG",
                         "Sehr geehrte Aktionärinnen, sehr geehrte Aktionäre,",
                         "das Jahr 2023 war geprägt von einer herausfordernden"]
    last_left = lines.index("erreichen.")
    assert lines[last_left + 1] == "Diese erfolgreichen Entwicklungen spiegeln sich auch in"
    assert lines[-1] == "Standorten, durch die wir unsere Marken noch"
    assert len(lines) == 1 + 3 + 1 + 22 + 22


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_order_corpus_marks_of_one_column_keep_off_the_line_beside_it(engine: str) -> None:
    """On the Arabic gazette's page the two columns' baselines stand 2-4 pt apart near
    the top, and the text layer draws each shadda as a glyph of its own whose box
    reaches down to the baseline of the line beside it in the other column.  Each
    shadda joins the letter it stands over, so no word crosses the gutter: the right
    column is read first, from the ordinance's title through its recitals, then the
    left column from its top."""
    page = layoutkit.parse(CORPUS / "journal-officiel-algerie-arabe-2020-51.pdf", pages=[1],
                           typed=False, engine=engine)[0]
    lines = page.text().splitlines()

    def where(start: str) -> int:
        return next(k for k, line in enumerate(lines) if line.startswith(start))

    assert lines[4:7] == ["––––––––––", "إنّ رئيس الجمهورية،",
                          "– بناء على الدستور، لاسـيما المادتان ١٤٠ و١٤2 منه،"]
    assert where("المنظمة عبر الوطنية") == 8
    assert where("تبييض الأموال وتمويل الإرهاب") == where("والقرض،") + 3

