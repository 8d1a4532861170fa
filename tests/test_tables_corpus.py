"""Whitespace-aligned tables typed ``tab`` by default (issue 19, item 4), on
development-corpus pages read as the benchmark reads them (the labelled pages of
each document, default configuration, no ``tables=True``): rows with columns left
empty or set close, the titles between a table's parts, a table's head; and no
table in justified text spread wide or in formulas.  Hand-built pages pin each rule."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

import layoutkit
from layoutkit.linetypes import type_aligned_tables
from layoutkit.model import Document, Page, Table
from tests.linetype_pages import L, codes, document, prose

ROOT = Path(__file__).resolve().parent.parent
CORPUS, PDFS = ROOT / "fixtures" / "corpus", ROOT / "fixtures" / "pdf"
CONFIG = layoutkit.LayoutConfig().linetypes


@cache
def _parsed(path: Path, pages: tuple[int, ...]) -> Document:
    return layoutkit.parse(path, pages=list(pages))


def _page(stem: str, pages: tuple[int, ...], number: int, folder: Path = CORPUS) -> Page:
    return next(p for p in _parsed(folder / f"{stem}.pdf", pages) if p.page_no == number)


def _body(page: Page) -> list[tuple[str, str]]:
    """(code, text) of the page's lines but its running headers and footers."""
    return [(x.code, x.text) for x in page.lines if x.code not in ("h", "f")]


def _table(page: Page) -> list[str]:
    return [x.text for x in page.lines if x.code == "tab"]


def test_tables_corpus_election_results_whole_page() -> None:
    """Lexington's results: every line of the page is the table's, the offices between
    its parts (``PRESIDENT AND VICE PRESIDENT``, ``FIFTH DISTICT``) and the precincts'
    head (``Pct 1 Pct 2 ...``, its labels closer than the figures) too, none a heading;
    rows with four precincts of nine (a district's) stand in it.  The page's rules draw
    the table's grid, so it is found by default as a ruled table, the town's title in
    its first row (the truth takes the title either way); the title's two stacks
    ('Official Results' at left, the town, election and date centred at right, ending
    level) read one after the other, each line whole."""
    stem, pages = "lexington-election-results-2016", (1, 2)
    first = _page(stem, pages, 1)
    assert len(_table(first)) == 59
    assert [text for _, text in _body(first)][:4] == [
        "Official Results", "Town of Lexington", "State Election", "November 8, 2016"]
    assert [code for code, _ in _body(first)] == ["tab"] * 59
    assert {"Pct 1 Pct 2 Pct 3 Pct 4 Pct 5 Pct 6 Pct 7 Pct 8 Pct 9 TOTAL",
            "PRESIDENT AND VICE PRESIDENT", "FIFTH DISTICT", "SENATOR IN GENERAL COURT",
            "MICHAEL J. BARRETT (DEMOCRATIC) 1336 1478 1528 4342",
            "0 0 0 0 0 0 0 0 0 0"} <= set(_table(first))
    second = _page(stem, pages, 2)
    assert len(_table(second)) == 20
    assert [code for code, _ in _body(second)] == ["tab"] * 20


@pytest.mark.parametrize(("stem", "pages", "counts"), [
    ("melrose-election-results-2016", (1, 5), {1: 25, 5: 10}),
    # the abstract's title (and on page 2 the auditor's signature) stands in the grid
    # its rules draw: the ruled table's lines
    ("barnes-county-nd-election-abstract-2008", (1, 2), {1: 50, 2: 28}),
    ("chatham-town-clerk-election-report-2010", (1, 3), {1: 25, 3: 20}),
])
def test_tables_corpus_election_tables(stem: str, pages: tuple[int, ...],
                                       counts: dict[int, int]) -> None:
    """The other election reports: each table line typed ``tab`` (Barnes's abstract,
    whose rows leave out the precincts outside a district, its head over fifteen
    precincts, Chatham's heads ``PRECINCT 1 PRECINCT 2 TOTAL`` with no label of
    their own), none a heading or a list item."""
    for number, count in counts.items():
        page = _page(stem, pages, number)
        assert len(_table(page)) == count, number
    barnes = "barnes-county-nd-election-abstract-2008"
    if stem == barnes:
        assert "SCATTERING 0 0 0 1 1" in _table(_page(stem, pages, 1))
        assert _table(_page(stem, pages, 2))[1].startswith("OFFICE PARTY CANDIDATE 22401")


def test_tables_corpus_paper_tables() -> None:
    """The ACL paper's table of translations (three columns of words) and its table of
    accuracies with its head are tables, and so is the table of two columns beside
    them: five rows of a word and its translation, each pair flush with the one above,
    with the phrase each part translates (``indissoluble tie``) between them."""
    table = _table(_page("acl-2014-phrase-generation", (1, 8), 8))
    assert table[:7] == [
        "Input Output Gold",
        "vicious killer assassino feroce (ferocious killer) killer pericoloso",
        "spectacular woman donna affascinante (fascinating woman) donna eccezionale",
        "huge chest petto grande (big chest) scrigno immenso",
        "rough neighborhood zona malfamata (ill-repute zone) quartiere difficile",
        "mortal sin peccato eterno (eternal sin) pecato mortale",
        "canine star stella stellare (stellar star) star canina"]
    assert "Thr. Accuracy Cov. Accuracy Cov." in table
    assert {"cravatta (tie) nero (black)", "giacca (jacket) giallo (yellow)",
            "indissoluble tie", "legame (bond) sacramentale (sacramental)"} <= set(table)


def test_tables_corpus_item_whose_values_stand_below() -> None:
    """The dementia paper's table: an item with its p-value alone (``Alcohol use``)
    over the rows of its answers stands in the table, as do the rows around it."""
    table = _table(_page("intpsychogeriatrics-dementia-2014", (1, 3), 3))
    assert len(table) == 13
    assert {"Alcohol use <0.001", "Yes (%) 75.2 63.0",
            "No, never drank or have quit (%) 24.8 37.0"} <= set(table)


def test_tables_corpus_head_of_labels_set_close() -> None:
    """The BMC paper's table head ``Item Yes (%) No (%) Respondents`` is the table's:
    its labels stand apart by less than the rows' cells, over the rows' columns."""
    table = _table(_page("bmc-health-services-malawi-2014", (1, 4), 4))
    assert table[0] == "Item Yes (%) No (%) Respondents" and len(table) == 11


def test_tables_justified_text_and_formulas_are_no_tables() -> None:
    """The City Record's narrow justified columns (``SPECIFICATIONS IN THE``, its words
    set wide apart) and the lecture notes' formulas (signs set apart) are not tables."""
    record = _page("cleveland-city-record-2016-04-27", (24,), 24, PDFS)
    assert not {"SPECIFICATIONS IN THE", "A CASHIER’S CHECK OR"} & set(_table(record))
    notes = _parsed(PDFS / "geotopo-lecture-notes-de.pdf", (6, 63, 70))
    assert not [x.text for page in notes for x in page.lines if x.code == "tab"]


def test_tables_columns_of_text_side_by_side_are_no_table() -> None:
    """The Hindu's spread, where two columns of an article and a photograph's caption
    are read as one line (``five-odd hours that it took ... | ry”. It seems to some
    ...``), has no table: a row holds at most one cell of running text."""
    pages = (1, 2)
    for number in pages:
        assert not _table(_page("the-hindu-2025-09-19-editorial-opinion", pages, number))
    side = [L(f"ordinary words of an article set {k} | in a column beside another one "
              f"{k} | X", 72 + 12 * k, 0) for k in range(4)]
    assert {c for c, _ in codes(type_aligned_tables(document(side), CONFIG))} == {"b"}


def test_tables_title_between_parts() -> None:
    """A part's title between two rows stands in the table, and two of them open the
    next part when its rows stand in other columns; the text around is not the
    table's."""
    page = [*prose(72, 0, 2, "a"),
            L("Total | 2164 | 2637 | 2185", 110, 1),
            L("Votes | 1799 | 2305 | 1775", 122, 1),
            L("PRESIDENT", 134, 1),
            L("CLINTON | 1334 | 1823 | 1393", 146, 1),
            L("SENATOR", 158, 1), L("THIRD DISTRICT", 170, 1),
            L("BARRETT | | | | | | 1336 | 1478 | 1528", 182, 1),
            L("BLANKS | | | | | | 439 | 527 | 585", 194, 1),
            L("ALL OTHERS | | | | | | 0 | 0 | 0", 206, 1),
            *prose(230, 2, 2, "b")]
    typed = [c for c, _ in codes(type_aligned_tables(document(page), CONFIG))]
    assert typed == ["b", "b"] + ["tab"] * 9 + ["b", "b"]


def test_tables_spread_text_is_no_row() -> None:
    """Lines whose words are all set the same wide distance apart up to the column's
    edge, where its lines of text end, are justified text: no rows."""
    spread = [L("ordinary text that fills the column to its right", 60, 0),
              L("SPECIFICATIONS | IN | THE", 72, 0), L("A | CASHIER'S | CHECK | OR", 84, 0),
              L("CREDIT | CARDS | WILL | BE", 96, 0)]
    assert {c for c, _ in codes(type_aligned_tables(document(spread), CONFIG))} == {"b"}


def test_tables_corpus_ruled_table_found_by_default() -> None:
    """The Ghana contract awards: a fully ruled table of eleven columns whose cells wrap
    over up to five lines, on a landscape page.  Its rules draw a grid, so pdfplumber's
    table finder looks at the page by default: every line under the page's title is the
    table's (a wrapped cell's lines too), and its cells are kept; the title (a heading
    or body: the truth takes it either way) is not."""
    stem = "ghana-transport-sector-contract-awards-2016-08"
    document = _parsed(CORPUS / f"{stem}.pdf", (1,))
    body = _body(document.pages[0])
    assert body[0][1] == ("PUBLICATION OF AWARD OF CONTRACTS UNDER THE TRANSPORT SECTOR "
                          "PROJECT (P102000)")
    assert body[0][0] != "tab"
    assert [code for code, _ in body[1:]] == ["tab"] * 49
    assert {"Mm/dd/yr completion", "(4x2) Pickups", "Heavy Duty (2)",
            "High Schools Accra"} <= {text for _, text in body[1:]}
    (table,) = document.tables
    assert (len(table.rows), len(table.rows[0])) == (14, 11)
    assert table.rows[1][:3] == ("1", "Procurement of 33No.\n(4X4) Pickups, 4No.\n(4x2) Pickups",
                                 "MRH/IDA/TSP/ICB/G‐\n1/Lot 1")


def test_tables_corpus_grid_holding_no_table() -> None:
    """Grids that hold no table are left out, asked for or not: the Algerian journal's
    cover, framed in rules whose rows are mostly one box of text each (the masthead,
    the prices below), and the axes of a paper's plots (a grid with a label or two)."""
    for stem, number in (("journal-officiel-algerie-2022-50", 1),
                         ("gretsi-2025-kravchuk-transform", 4)):
        for tables in (False, True):
            document = layoutkit.parse(CORPUS / f"{stem}.pdf", pages=[number], tables=tables)
            assert document.tables == ()
            assert _table(document.pages[0]) == [], (stem, tables)


def test_tables_corpus_table_finder_only_on_gridded_pages(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """By default the table finder (which reads the document once more) is handed only
    the pages whose rules draw a ruled table's grid: none of the City Record's pages
    (ruled between notices, in no grid), Lexington's results both; with ``tables`` every
    page."""
    handed: list[list[int]] = []
    finder = layoutkit.pipeline.find_ruled_tables

    def spy(path: Path, numbers: list[int]) -> tuple[Table, ...]:
        handed.append(list(numbers))
        return finder(path, numbers)

    monkeypatch.setattr(layoutkit.pipeline, "find_ruled_tables", spy)
    layoutkit.parse(PDFS / "cleveland-city-record-2016-04-27.pdf", pages="1-4")
    layoutkit.parse(CORPUS / "lexington-election-results-2016.pdf")
    layoutkit.parse(PDFS / "cleveland-city-record-2016-04-27.pdf", pages="1-2", tables=True)
    assert handed == [[], [1, 2], [1, 2]]


def test_tables_corpus_head_above_ruled_table() -> None:
    """Melrose's results: the ward and precinct head stands above the ruled grid of
    each contest; aligned tables are looked for among the ruled table's lines too, so
    the head is the table's whether the grid is found by default or asked for."""
    head = "Ward & Precinct 1-1 1-2 2-1 2-2 3-1 3-2 4-1 4-2 5-1 5-2 6-1 6-2 7-1 7-2 TOTAL"
    for tables in (False, True):
        page = layoutkit.parse(CORPUS / "melrose-election-results-2016.pdf", pages=[5],
                               tables=tables).pages[0]
        assert head in _table(page), tables


def test_tables_corpus_labels_and_values() -> None:
    """Tables of two columns: the HSBC note's sidebar of codes and key data (a label
    and its value flush right, ``Mkt cap (GBPm) 254``, the block's title ``Key data``
    between), and the scanned CACM paper's output function (``5 {she, he}``) are
    tables; the analysts' contacts below the key data, four pairs parted by names and
    an address, are not (two cells stand in a form for a few lines as often as in a
    table)."""
    hsbc = _page("hsbc-uk-morning-meeting-notes-2001-08-31", (1,), 1)
    table = _table(hsbc)
    assert {"Reuters RIC PON.L", "Bloomberg PON LN", "Key data", "Mkt cap (GBPm) 254",
            "Gearing (%) 0.00"} <= set(table)
    assert not {"Philip Sparks 3458", "David Kelso 4633", "+44 20 7336+ Ext"} & set(table)
    cacm = _page("cacm-1975-aho-corasick-scan", (2,), 2)
    assert _table(cacm) == ["i output (i)", "2 {he}", "5 {she, he}", "7 {his}", "9 {hers}"]


def test_tables_pairs_of_labels_and_values() -> None:
    """Five lines of a label and its value, flush with each other, are a table; four
    are not, nor five list items whose markers stand apart from their text, nor five
    notes whose numbers do (a value is a few words), nor pairs out of line."""
    def typed(rows: list[L]) -> set[str]:
        return {c for c, _ in codes(type_aligned_tables(document(rows), CONFIG))}

    def pairs(texts: list[str], shift: float = 0.0) -> list[L]:
        return [L(text, 72 + 12 * k, 0, x0=72 + shift * (k % 2)) for k, text in enumerate(texts)]

    values = [f"Label{k} | {k}{k}" for k in range(1, 6)]
    assert typed(pairs(values)) == {"tab"}
    assert typed(pairs(values[:4])) == {"b"}
    assert typed(pairs(values, shift=30)) == {"b"}
    assert typed(pairs([f"{k}. | Item text number {k}" for k in range(1, 6)])) == {"b"}
    assert typed(pairs([f"{k} | A note of the report that runs long {k}"
                        for k in range(1, 6)])) == {"b"}
