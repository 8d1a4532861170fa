"""Regression tests on the hand-labelled real pages: the project's bars and exact spot checks.

Each page is parsed once (with its neighbours as context, as ``parse`` always does)
and cached per (document, page) for the whole module.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import layoutkit
from layoutkit.model import Line, LineType, Page
from layoutkit.tools.evaluate import reduce, score_truth
from layoutkit.tools.truth import PageTruth, labelled_pages

ROOT = Path(__file__).resolve().parent.parent
PDFS = ROOT / "fixtures" / "pdf"
TRUTHS = labelled_pages([ROOT / "regions"])
ORDER_BAR = 0.97
FOUND_BAR = 0.97

CITY_2004 = "cleveland-city-record-2004-06-09.pdf"
CITY_2016 = "cleveland-city-record-2016-04-27.pdf"
FEDERAL = "federal-register-2020-08-06.pdf"

_PARSED: dict[tuple[str, int], Page] = {}


def parsed(document: str, page: int) -> Page:
    """Page ``page`` of ``document`` under fixtures/pdf, parsed once per test session."""
    key = (document, page)
    if key not in _PARSED:
        _PARSED[key] = layoutkit.parse(PDFS / document, pages=[page])[0]
    return _PARSED[key]


def truth_id(truth: PageTruth) -> str:
    return f"{Path(truth.document).stem}-p{truth.page}"


def body_texts(page: Page) -> list[str]:
    return [line.text for line in page.body_lines]


def body_column(page: Page, band: int, column: int) -> tuple[Line, ...]:
    return page.bands[band].columns[column].lines


# Pages below a bar, by id, with the reason and the scores measured (none at present):
# their bar test is marked xfail(strict=True) so that reaching the bar is noticed.
_BELOW_BAR: dict[str, str] = {}


def _bar_params() -> list[object]:
    params: list[object] = []
    for truth in TRUTHS:
        marks = []
        if truth_id(truth) in _BELOW_BAR:
            marks.append(pytest.mark.xfail(strict=True, reason=_BELOW_BAR[truth_id(truth)]))
        params.append(pytest.param(truth, id=truth_id(truth), marks=marks))
    return params


def test_regression_truth_files_found() -> None:
    """The ten labelled pages are all found under regions/."""
    assert [truth_id(t) for t in TRUTHS] == [
        "cleveland-city-record-2004-06-09-p9",
        "cleveland-city-record-2004-06-09-p10",
        "cleveland-city-record-2004-06-09-p36",
        "cleveland-city-record-2016-04-27-p2",
        "cleveland-city-record-2016-04-27-p5",
        "cleveland-city-record-2016-04-27-p7",
        "cleveland-city-record-2016-04-27-p27",
        "federal-register-2020-08-06-p1",
        "federal-register-2020-08-06-p5",
        "federal-register-2020-08-06-p7",
    ]


@pytest.mark.parametrize("truth", _bar_params())
def test_regression_page_meets_bars(truth: PageTruth) -> None:
    """The page's body text scores order >= 0.97 and found >= 0.97 against its truth."""
    score = score_truth(parsed(truth.document, truth.page).text(), truth)
    assert score.order >= ORDER_BAR, f"order {score.order:.4f} over {score.pairs} pairs"
    assert score.found >= FOUND_BAR, f"found {score.found:.4f} of {score.lines} lines"


# --------------------------------------------------------------------------- spot checks


def test_regression_city_2016_p27_index_after_columns() -> None:
    """On 2016 page 27 'Index' follows the last line of column 3 and precedes the index key."""
    page = parsed(CITY_2016, 27)
    texts = body_texts(page)
    last_of_column_3 = body_column(page, 1, 2)[-1].text
    assert last_of_column_3 == "Polensek."
    at = texts.index("Index")
    assert texts[at - 1] == "Polensek."
    assert texts[at + 1] == "O—Ordinance; R—Resolution; F—File"


def test_regression_city_2016_p27_three_columns_then_index() -> None:
    """On 2016 page 27 the body is three columns, then one column from 'Index' on."""
    page = parsed(CITY_2016, 27)
    body = [band for band in page.bands if band.kind == layoutkit.BandKind.BODY]
    assert [len(band.columns) for band in body] == [3, 1]
    assert body[1].columns[0].lines[0].text == "Index"


def test_regression_city_2016_p2_columns_not_interleaved() -> None:
    """On 2016 page 2 every line of the left column is read before any of the right one."""
    page = parsed(CITY_2016, 2)
    sides = ["L" if line.bbox.x1 <= 300.0 else "R" if line.bbox.x0 >= 300.0 else "-"
             for line in page.body_lines if line.bbox.top > 75.0]  # below the title
    assert "".join(sides).strip("-") == "L" * sides.count("L") + "R" * sides.count("R")
    texts = body_texts(page)
    health = "Health – _____________, Commissioner, 75 Erieview Plaza"
    safety = "DEPT. OF PUBLIC SAFETY – Michael C. McGrath, Director, Room 230"
    assert texts.index(health) < texts.index(safety)
    assert texts.index(safety) == texts.index(health) + 1


def test_regression_city_2016_p2_title_whole() -> None:
    """On 2016 page 2 the title 'DIRECTORY OF CITY OFFICIALS' is one line, read first."""
    page = parsed(CITY_2016, 2)
    assert body_texts(page)[0] == "DIRECTORY OF CITY OFFICIALS"
    assert len(page.bands[0].columns) == 1


def test_regression_city_2004_p9_ordinance_after_columns() -> None:
    """On 2004 page 9 the full-width Ord. No. 1095-04 starts right after column 3 ends."""
    page = parsed(CITY_2004, 9)
    texts = body_texts(page)
    columns = next(band for band in page.bands if band.kind == layoutkit.BandKind.BODY).columns
    assert [len(column.lines) for column in columns] == [50, 48, 50]
    last = columns[2].lines[-1].text
    assert last == "Finance."
    at = texts.index("Ord. No. 1095-04.")
    assert texts[at - 1] == last
    assert texts[at + 1] == ("By Council Members Gordon, Lewis and Jackson "
                             "(by departmental request).")


def test_regression_city_2016_p5_running_header() -> None:
    """On 2016 page 5 the running header is typed HEADER, read first and kept out of text()."""
    page = parsed(CITY_2016, 5)
    header = "April 27, 2016 The City Record 5"
    first = page.lines[0]
    assert (first.text, first.line_type) == (header, LineType.HEADER)
    assert page.bands[0].kind == layoutkit.BandKind.HEADER
    assert header not in page.text()
    assert page.text(furniture=True).startswith(header + "\n")
    assert [line.text for line in page.lines if line.line_type == LineType.HEADER] == [header]


@pytest.mark.parametrize(("document", "page_no", "folio"), [
    pytest.param(CITY_2004, 9, "1101", id="cleveland-city-record-2004-06-09-p9"),
    pytest.param(CITY_2004, 10, "1102", id="cleveland-city-record-2004-06-09-p10"),
    pytest.param(CITY_2004, 36, "1128", id="cleveland-city-record-2004-06-09-p36"),
    pytest.param(CITY_2016, 5, "631", id="cleveland-city-record-2016-04-27-p5"),
    pytest.param(CITY_2016, 7, "633", id="cleveland-city-record-2016-04-27-p7"),
    pytest.param(CITY_2016, 27, "653", id="cleveland-city-record-2016-04-27-p27"),
])
def test_regression_city_record_folio_is_footer(document: str, page_no: int, folio: str) -> None:
    """The volume page number at the foot of a City Record page is a FOOTER line, read last."""
    page = parsed(document, page_no)
    last = page.lines[-1]
    assert (last.text, last.line_type) == (folio, LineType.FOOTER)
    assert folio not in body_texts(page)


def test_regression_federal_p5_margin_stamp() -> None:
    """On Federal Register page 5 the sideways proof stamp is furniture, read bottom to top."""
    page = parsed(FEDERAL, 5)
    stamp = [line for line in page.lines if line.text == "jbell on DSKJLSW7X2PROD with PROPOSALS"]
    assert len(stamp) == 1
    assert stamp[0].line_type == LineType.FOOTER
    assert not any(w.upright for w in stamp[0].words)
    assert "DSKJLSW7X2PROD" not in page.text()


def test_regression_federal_p1_masthead_not_body() -> None:
    """On Federal Register page 1 the masthead lines stay out of the body text, typed
    header, and are not glued to a body line; the title 'Proposed Rules' on the
    masthead's first baseline stays in it.  (The body's boxed note names the FEDERAL
    REGISTER in capitals, so only the volume and date lines are also looked for with
    case and spacing ignored.)"""
    page = parsed(FEDERAL, 1)
    reduced = reduce(page.text())
    for text in ("Federal Register", "Vol. 85, No. 152", "Thursday, August 6, 2020"):
        assert not any(text in line for line in body_texts(page))
        assert [line.line_type for line in page.lines if line.text == text] == [
            LineType.HEADER]
    for text in ("Vol. 85, No. 152", "Thursday, August 6, 2020"):
        assert reduce(text) not in reduced
    assert "Proposed Rules" in body_texts(page)
