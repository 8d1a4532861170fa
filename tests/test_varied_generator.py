"""Tests of the varied synthetic generator (``fixtures/varied.py``): its cases, its exact
truth (checked against the glyphs PyMuPDF reads from the PDFs) and its stream orders."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import pytest

from fixtures.synthetic import SyntheticDoc, TruthPage
from fixtures.varied import (
    CASES,
    FONTS,
    PAPERS,
    SPECS,
    STREAM_ORDERS,
    TURN_WAYS,
    TURNED_CASES,
    TURNS,
    check_truth,
    main,
    reduce_key,
    suite,
    turned,
    varied,
)
from layoutkit.tools.evaluate import score_page, scored_lines
from tests.test_synthetic_generator import paragraph_lines

pymupdf = pytest.importorskip("pymupdf")

Box = tuple[float, float, float, float]
TOL = 0.5
"""Points of slack between a truth box and a glyph's origin."""


@cache
def seed_zero() -> dict[tuple[str, str], SyntheticDoc]:
    """The seed-0 suite by (case, stream order), generated once per test session."""
    return {(d.case, d.stream_order): d for d in suite(0)}


def doc(case: str, order: str = "linear") -> SyntheticDoc:
    return seed_zero()[case, order]


@dataclass(frozen=True)
class Parsed:
    """What PyMuPDF reads from one page, in content-stream order."""

    chars: tuple[tuple[str, float, float], ...]
    """Every glyph: text, origin x, baseline y (from the top)."""
    lines: tuple[Box, ...]
    """Straight strokes (x0, top, x1, bottom)."""
    rects: tuple[tuple[Box, bool], ...]
    """Rectangles and whether each is filled."""
    size: tuple[float, float]


@cache
def parsed(case: str, order: str) -> tuple[Parsed, ...]:
    """Every page of the seed-0 document of ``case`` in ``order`` as PyMuPDF reads it."""
    pages = []
    with pymupdf.open(stream=doc(case, order).pdf) as document:
        for page in document:
            raw = page.get_text("rawdict", sort=False)
            chars = tuple((c["c"], c["origin"][0], c["origin"][1])
                          for block in raw["blocks"] if block["type"] == 0
                          for line in block["lines"] for span in line["spans"]
                          for c in span["chars"])
            lines, rects = [], []
            for drawing in page.get_drawings():
                for item in drawing["items"]:
                    if item[0] == "l":
                        a, b = item[1], item[2]
                        lines.append((min(a.x, b.x), min(a.y, b.y), max(a.x, b.x), max(a.y, b.y)))
                    elif item[0] == "re":
                        r = item[1]
                        rects.append(((r.x0, r.y0, r.x1, r.y1), drawing.get("fill") is not None))
            pages.append(Parsed(chars, tuple(lines), tuple(rects),
                                (float(page.rect.width), float(page.rect.height))))
    return tuple(pages)


def inside(x: float, y: float, box: Box, tol: float = TOL) -> bool:
    return box[0] - tol <= x <= box[2] + tol and box[1] - tol <= y <= box[3] + tol


def ink(texts: Sequence[str]) -> Counter[str]:
    """The multiset of the non-space characters of ``texts``."""
    return Counter(ch for text in texts for ch in text if not ch.isspace())


def assign(truth: TruthPage, page: Parsed) -> list[int | None]:
    """For each glyph of the page (stream order), the truth line whose box holds it."""
    by_y: dict[float, list[int]] = {}
    owners: list[int | None] = []
    for _, x, y in page.chars:
        if y not in by_y:
            by_y[y] = [i for i, box in enumerate(truth.line_boxes)
                       if box[1] - TOL <= y <= box[3] + TOL]
        owners.append(next((i for i in by_y[y] if inside(x, y, truth.line_boxes[i])), None))
    return owners


def misplaced_lines(truth: TruthPage, page: Parsed) -> list[str]:
    """The truth lines whose box does not hold exactly their glyphs."""
    drawn: list[Counter[str]] = [Counter() for _ in truth.lines]
    for (c, _, _), owner in zip(page.chars, assign(truth, page), strict=True):
        if owner is not None and not c.isspace():
            drawn[owner][c] += 1
    return [text for text, glyphs in zip(truth.lines, drawn, strict=True)
            if glyphs != ink([text])]


def drawn_line_order(truth: TruthPage, page: Parsed) -> list[int]:
    """The truth indices of the body lines in the order the stream draws their glyphs."""
    drawn: list[int] = []
    for (c, _, _), line in zip(page.chars, assign(truth, page), strict=True):
        if line is not None and not c.isspace() and (not drawn or drawn[-1] != line):
            drawn.append(line)
    return drawn


# --------------------------------------------------------------------------- cases


def test_cases_cover_the_layouts_the_issue_asks_for() -> None:
    specs = list(SPECS.values())
    assert 20 <= len(CASES) <= 30 and len(set(CASES)) == len(CASES)
    assert STREAM_ORDERS == ("linear", "blocks_shuffled", "lines_shuffled")
    assert {s.columns for s in specs} == {1, 2, 3, 4, 5, 6}
    gutters = {s.gutter for s in specs if s.columns > 1 or s.sidehead}
    assert min(gutters) == 4 and max(gutters) == 24
    assert {s.justify for s in specs} == {True, False}
    ruled = {s.gutter for s in specs if s.rules}
    assert 4 in ruled and max(ruled) >= 12  # rules with and without white space beside them
    for feature in ("figures", "tables", "sidehead", "title", "band"):
        assert any(getattr(s, feature) for s in specs), feature
    assert {s.paper for s in specs} == set(PAPERS)
    assert {s.font for s in specs} == set(FONTS)
    assert {min(s.size for s in specs), max(s.size for s in specs)} == {7, 12}
    assert {s.language for s in specs} == {"en", "pt", "fr", "de", "es"}
    assert {len(d.pages) for d in seed_zero().values()} == {2}


@pytest.mark.parametrize("case", CASES)
def test_case_name_says_its_layout(case: str) -> None:
    spec = SPECS[case]
    prefix = "sidehead" if spec.sidehead else f"cols{spec.columns}"
    assert case.startswith(prefix)
    if spec.columns > 1 or spec.sidehead:
        assert f"-gutter{spec.gutter:g}-" in case
    assert ("justified" if spec.justify else "ragged") in case
    for feature, word in (("rules", "rules"), ("figures", "figure"), ("tables", "table"),
                          ("title", "title"), ("band", "band")):
        assert getattr(spec, feature) == (f"-{word}" in case), word
    assert (spec.language != "en") == case.endswith(f"-{spec.language}")


def test_unknown_case_and_order_raise_value_error() -> None:
    with pytest.raises(ValueError, match="cols3-gutter6-justified"):
        varied("nope")
    with pytest.raises(ValueError, match="lines_shuffled"):
        varied(CASES[0], "backwards")


def test_same_arguments_give_byte_identical_pdfs_and_the_suite_matches() -> None:
    case = "cols3-gutter8-justified-rules-title-figure-table-es"
    for order in STREAM_ORDERS:
        first = varied(case, order, 3)
        assert first.pdf == varied(case, order, 3).pdf
    assert varied(case, "linear", 0).pdf == doc(case).pdf
    assert varied(case, "linear", 0).pages == doc(case).pages
    assert varied(case, "linear", 1).pages != doc(case).pages


def test_suite_yields_every_case_in_every_order() -> None:
    assert sorted(seed_zero()) == sorted(itertools.product(CASES, STREAM_ORDERS))


def test_command_line_writes_pdf_and_truth(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    assert main([str(tmp_path), "--seed", "0"]) == 0
    assert len(list(tmp_path.glob("*.pdf"))) == len(CASES) * len(STREAM_ORDERS)
    assert len(list(tmp_path.glob("*.truth.json"))) == len(CASES) * len(STREAM_ORDERS)
    assert "wrote" in capsys.readouterr().out


# --------------------------------------------------------------------------- truth


@pytest.mark.parametrize("case", CASES)
def test_truth_lines_are_unique_and_all_scored(case: str) -> None:
    document = doc(case)
    size = PAPERS[SPECS[case].paper]
    for page in document.pages:
        keys = [reduce_key(t) for t in (*page.lines, *page.furniture)]
        assert len(keys) == len(set(keys))
        assert min(len(reduce_key(t)) for t in page.lines) >= 12
        # the metric keeps every line: none is found twice in the page's reduced text
        assert scored_lines(page.lines) == [reduce_key(t) for t in page.lines]
        assert all(t == " ".join(t.split()) for t in (*page.lines, *page.paragraphs))
        assert len(page.line_boxes) == len(page.lines) and len(page.furniture) == 2
        paragraph_lines(page)
        assert set(page.headings) <= set(page.lines)
        boxes = sorted(page.line_boxes, key=lambda b: b[1])
        for i, (x0, top, x1, bottom) in enumerate(boxes):
            assert 0 < x0 < x1 < size[0] and 0 < top < bottom < size[1]
            for other in boxes[i + 1:]:
                if other[1] >= bottom:
                    break
                assert other[0] >= x1 or other[2] <= x0, "two line boxes overlap"
        perfect = score_page("\n".join(page.lines), page.lines, page.furniture, page.paragraphs)
        assert (perfect.found, perfect.order, perfect.paragraphs_found) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("case", CASES)
def test_every_truth_line_is_drawn_in_its_box_and_nothing_else_is(case: str) -> None:
    for truth, page in zip(doc(case).pages, parsed(case, "linear"), strict=True):
        assert page.size == pytest.approx(PAPERS[SPECS[case].paper], abs=0.01)
        assert misplaced_lines(truth, page) == []
        drawn = Counter(c for c, _, _ in page.chars if not c.isspace())
        assert drawn == ink([*truth.lines, *truth.furniture])


def test_the_box_check_catches_a_wrong_truth() -> None:
    case = "cols2-gutter4-ragged"
    truth, page = doc(case).pages[0], parsed(case, "linear")[0]
    swapped = list(truth.lines)
    swapped[3], swapped[4] = swapped[4], swapped[3]
    assert misplaced_lines(replace(truth, lines=tuple(swapped)), page) == swapped[3:5]
    assert drawn_line_order(truth, page) == list(range(len(truth.lines)))
    with pytest.raises(RuntimeError, match="share a key"):
        check_truth(replace(truth, lines=(*truth.lines, truth.lines[0].upper())))
    with pytest.raises(RuntimeError, match="occurs twice"):
        check_truth(replace(truth, lines=(*truth.lines, f"{truth.lines[0]} {truth.lines[1]}")))


def glyphs(page: Parsed) -> Counter[tuple[str, float, float]]:
    """The page's non-space glyphs with their positions (PyMuPDF adds spaces of its own
    between lines it joins, which depends on the drawing order)."""
    return Counter((c, round(x, 2), round(y, 2)) for c, x, y in page.chars if not c.isspace())


@pytest.mark.parametrize("case", CASES)
def test_every_stream_order_has_the_same_truth_and_geometry(case: str) -> None:
    linear = parsed(case, "linear")
    for order in STREAM_ORDERS[1:]:
        assert doc(case, order).pages == doc(case).pages
        for a, b in zip(linear, parsed(case, order), strict=True):
            assert glyphs(a) == glyphs(b)
            assert Counter(a.lines) == Counter(b.lines)
            assert Counter(a.rects) == Counter(b.rects)


@pytest.mark.parametrize("case", CASES)
def test_linear_draws_in_reading_order_and_shuffled_orders_do_not(case: str) -> None:
    truth = doc(case).pages[0]
    in_order = list(range(len(truth.lines)))
    assert drawn_line_order(truth, parsed(case, "linear")[0]) == in_order
    blocks = drawn_line_order(truth, parsed(case, "blocks_shuffled")[0])
    lines = drawn_line_order(truth, parsed(case, "lines_shuffled")[0])
    assert sorted(blocks) == sorted(lines) == in_order
    breaks_blocks = sum(1 for a, b in itertools.pairwise(blocks) if b != a + 1)
    breaks_lines = sum(1 for a, b in itertools.pairwise(lines) if b != a + 1)
    assert 0 < breaks_blocks <= len(truth.paragraphs) + 2 * SPECS[case].columns
    assert breaks_lines > 0.8 * len(lines)
    first = "".join(c for c, _, _ in parsed(case, "linear")[0].chars if not c.isspace())
    assert first.startswith(truth.furniture[0].replace(" ", ""))


# --------------------------------------------------------------------------- layouts


def column_lefts(truth: TruthPage) -> list[float]:
    """The left edges of the page's columns: edges where five lines or more start, an
    indent (less than 15 pt right of an edge) not counted."""
    counts = Counter(round(box[0], 1) for box in truth.line_boxes)
    lefts: list[float] = []
    for x in sorted(x for x, n in counts.items() if n >= 5):
        if not lefts or x - lefts[-1] >= 15:
            lefts.append(x)
    return lefts


@pytest.mark.parametrize("case", [c for c in CASES if not SPECS[c].sidehead])
def test_columns_and_gutters_are_as_named(case: str) -> None:
    spec = SPECS[case]
    truth = doc(case).pages[0]
    lefts = column_lefts(truth)
    assert len(lefts) == spec.columns
    # body lines, not the title band's (whose glyphs are bigger): none crosses a gutter
    body = [box for box, line in zip(truth.line_boxes, truth.lines, strict=True)
            if line not in truth.headings and box[3] - box[1] < spec.size + 0.01]
    for left, following in itertools.pairwise(lefts):
        right = max(box[2] for box in body if left - TOL <= box[0] < following - 1)
        if spec.justify:
            assert following - right == pytest.approx(spec.gutter, abs=0.2)
        else:
            assert spec.gutter - 0.01 <= following - right < spec.gutter + 15
    lines = [box for box in body if box[0] == pytest.approx(lefts[0], abs=0.1)]
    widest = max(box[2] for box in lines)
    full = [box for box in lines if box[2] > widest - 0.01]
    if spec.justify:
        assert len(full) > len(lines) / 2
    else:
        assert len(full) < len(lines) / 4


@pytest.mark.parametrize("case", [c for c in CASES if SPECS[c].rules])
def test_rules_stand_in_the_gutters(case: str) -> None:
    spec = SPECS[case]
    truth, page = doc(case).pages[0], parsed(case, "linear")[0]
    vertical = [ln for ln in page.lines if ln[0] == pytest.approx(ln[2]) and ln[3] - ln[1] > 200]
    assert len(vertical) >= spec.columns - 1
    for x, top, _, bottom in vertical:
        # no line box crosses the rule; the nearest text is half the gutter away
        beside = [box for box in truth.line_boxes if box[1] < bottom and box[3] > top]
        assert not any(box[0] < x < box[2] for box in beside)
        nearest = min(min(abs(box[0] - x), abs(box[2] - x)) for box in beside)
        assert nearest == pytest.approx(spec.gutter / 2, abs=0.3)


def test_unruled_cases_draw_no_vertical_rules() -> None:
    for case in CASES:
        if not SPECS[case].rules:
            page = parsed(case, "linear")[0]
            assert not any(ln[0] == pytest.approx(ln[2]) for ln in page.lines), case


@pytest.mark.parametrize("case", [c for c in CASES if SPECS[c].figures])
def test_figures_are_rectangles_in_a_column_with_the_caption_under_them(case: str) -> None:
    spec = SPECS[case]
    term = {"de": "Abbildung"}.get(spec.language, "Figure" if spec.language in ("en", "fr")
                                     else "Figura")
    found = 0
    for truth, page in zip(doc(case).pages, parsed(case, "linear"), strict=True):
        figures = [box for box, _ in page.rects
                   if box[3] - box[1] > 30 and box[2] - box[0] > 30]
        for x0, _, x1, bottom in figures:
            below = [(box, line) for box, line in zip(truth.line_boxes, truth.lines, strict=True)
                     if x0 - TOL <= box[0] and box[2] <= x1 + TOL and box[1] >= bottom]
            box, caption = min(below, key=lambda item: item[0][1])
            assert box[1] - bottom < 12
            assert re.match(rf"{term} \d+\. ", caption), caption
            assert any(abs(b[0] - x0) < TOL for b in truth.line_boxes)
            found += 1
    assert found >= 1


@pytest.mark.parametrize("case", [c for c in CASES if SPECS[c].tables])
def test_tables_are_rows_of_cells_read_left_to_right(case: str) -> None:
    found = 0
    for truth, page in zip(doc(case).pages, parsed(case, "linear"), strict=True):
        for line, box in zip(truth.lines, truth.line_boxes, strict=True):
            cells = line.split(" ")
            if not re.fullmatch(r"\d{1,2},\d{3}", cells[-1]):
                continue
            found += 1
            glyphs = sorted((x, c) for c, x, y in page.chars if inside(x, y, box))
            # the cells stand apart: a gap wider than a space before the first number
            number = next(i for i, cell in enumerate(cells) if re.fullmatch(r"\d+,\d{3}", cell))
            label = " ".join(cells[:number]).replace(" ", "")
            xs = [x for x, c in glyphs if not c.isspace()]
            assert "".join(c for _, c in glyphs if not c.isspace()).startswith(label)
            assert xs[len(label)] - xs[len(label) - 1] > 8
    assert found >= 4


@pytest.mark.parametrize("case", [c for c in CASES if SPECS[c].sidehead])
def test_side_headings_stand_in_the_margin_beside_their_paragraph(case: str) -> None:
    truth = doc(case).pages[0]
    heads = [i for i, line in enumerate(truth.lines) if line in truth.headings]
    assert heads
    margin = min(box[0] for box in truth.line_boxes)
    for i in heads:
        box = truth.line_boxes[i]
        assert box[0] == pytest.approx(margin)
        if i + 1 < len(truth.lines) and truth.lines[i + 1] in truth.headings:
            continue
        # the paragraph that follows in the truth starts beside the heading's first line
        first = i
        while first > 0 and truth.lines[first - 1] in truth.headings:
            first -= 1
        after = truth.line_boxes[i + 1]
        assert after[0] > box[2] and after[1] == pytest.approx(truth.line_boxes[first][1])


@pytest.mark.parametrize("case", [c for c in CASES if SPECS[c].title or SPECS[c].band])
def test_title_bands_span_the_columns(case: str) -> None:
    spec = SPECS[case]
    pages = doc(case).pages
    truth = pages[0] if spec.title else pages[-1]
    width = PAPERS[spec.paper][0]
    titles = [(i, box) for i, box in enumerate(truth.line_boxes)
              if truth.lines[i] in truth.headings and box[0] < width / 2 < box[2]
              and box[3] - box[1] > spec.size + 4]
    assert titles
    i, box = titles[0]
    if spec.title:
        assert i == 0
    else:
        # a band of columns reads before the title, the band below after it
        assert 0 < i < len(truth.lines) - 1
        above = [b for b in truth.line_boxes[:i]]
        assert max(b[3] for b in above) < box[1]
        assert min(b[1] for b in truth.line_boxes[i + 2:]) > box[3]


def test_accented_text_is_drawn_and_read_back() -> None:
    for case in CASES:
        language = SPECS[case].language
        truth, page = doc(case).pages[0], parsed(case, "linear")[0]
        accented = {c for c, _, _ in page.chars if c.isalpha() and not c.isascii()}
        assert bool(accented) == (language != "en"), case
        if language != "en":
            assert accented <= {c for line in truth.lines + truth.furniture for c in line}
            assert len(accented) >= 5, case


# --------------------------------------------------------------------------- turned pages


def shown_chars(pdf: bytes) -> list[tuple[tuple[str, float, float], ...]]:
    """Every glyph of every page (text, origin x, origin y from the top) where it stands
    on the page as it is shown, the page's /Rotate applied."""
    pages = []
    with pymupdf.open(stream=pdf) as document:
        for page in document:
            raw = page.get_text("rawdict", sort=False)
            turn = page.rotation_matrix
            pages.append(tuple((c["c"], *(pymupdf.Point(c["origin"]) * turn))
                               for block in raw["blocks"] if block["type"] == 0
                               for line in block["lines"] for span in line["spans"]
                               for c in span["chars"]))
    return pages


@pytest.mark.parametrize("way", TURN_WAYS)
@pytest.mark.parametrize("direction", TURNS)
def test_turned_pages_keep_the_truth_and_draw_each_line_in_its_box(direction: int,
                                                                    way: str) -> None:
    """A turned case has the upright case's lines; its page is shown with its sides
    swapped by a quarter turn, /Rotate set only when the page is turned (the turn the
    other way from the text's), and every line's glyphs stand in its moved box."""
    case = TURNED_CASES[0]
    upright, doc_ = doc(case), turned(case, direction, way)
    assert [p.lines for p in doc_.pages] == [p.lines for p in upright.pages]
    with pymupdf.open(stream=doc_.pdf) as document:
        page = document[0]
        width, height = page.rect.width, page.rect.height
        assert page.rotation == ((360 - direction) % 360 if way == "page" else 0)
    sides = parsed(case, "linear")[0].size
    assert (width, height) == pytest.approx(sides[::-1] if direction in (90, 270) else sides)
    for truth, chars in zip(doc_.pages, shown_chars(doc_.pdf), strict=True):
        shown = Parsed(chars, (), (), (width, height))
        assert misplaced_lines(truth, shown) == []
        assert drawn_line_order(truth, shown) == list(range(len(truth.lines)))


def test_turned_rejects_an_unknown_direction_and_way() -> None:
    with pytest.raises(ValueError, match="direction"):
        turned(TURNED_CASES[0], 45)
    with pytest.raises(ValueError, match="way"):
        turned(TURNED_CASES[0], 90, "sideways")
