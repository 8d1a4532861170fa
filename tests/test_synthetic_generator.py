"""Tests of the synthetic gazette generator: its truth, its PDFs and its stream orders."""

from __future__ import annotations

import io
import itertools
import json
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pdfplumber
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures import synthetic
from fixtures.synthetic import (
    CASES,
    STREAM_ORDERS,
    SyntheticDoc,
    TruthPage,
    gazette,
    main,
    suite,
)

Box = tuple[float, float, float, float]
TOL = 0.5  # points of slack between truth boxes and pdfplumber's glyph boxes


def key(text: str) -> str:
    """Return the text as the metric sees it: case-folded letters and digits."""
    return re.sub(r"[^0-9a-z]", "", text.casefold())


@cache
def seed_zero() -> dict[tuple[str, str], SyntheticDoc]:
    """Return the seed-0 suite by (case, stream order), generated once per test session."""
    return {(d.case, d.stream_order): d for d in suite(0)}


def doc(case: str, order: str = "linear") -> SyntheticDoc:
    """Return the seed-0 document of ``case`` drawn in ``order``."""
    return seed_zero()[case, order]


def media_size(pdf: bytes) -> tuple[float, float]:
    """Return the page size written in the PDF (all pages of a document share it)."""
    sizes = set(re.findall(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", pdf))
    assert len(sizes) == 1
    ((width, height),) = sizes
    return float(width), float(height)


def text_operations(pdf: bytes) -> Counter[bytes]:
    """Return the multiset of text objects (BT ... ET, with position and text) the PDF draws."""
    return Counter(re.findall(rb"BT 1 0 0 1 .*? ET", pdf, flags=re.DOTALL))


@dataclass(frozen=True)
class Parsed:
    """What pdfplumber reads from one page."""

    chars: tuple[tuple[str, float, float], ...]  # text, x0, top in stream order
    words: tuple[tuple[str, float, float, float, float], ...]  # text, x0, top, x1, bottom
    rules: tuple[Box, ...]  # straight line segments (x0, top, x1, bottom)
    rects: tuple[Box, ...]
    size: tuple[float, float]


@cache
def parsed(case: str, order: str, page_index: int) -> Parsed:
    """Return one page of a seed-0 document as read by pdfplumber (parsed once: it is slow)."""
    with pdfplumber.open(io.BytesIO(doc(case, order).pdf)) as pdf:
        page = pdf.pages[page_index]
        return Parsed(
            chars=tuple((c["text"], c["x0"], c["top"]) for c in page.chars),
            words=tuple(
                (w["text"], w["x0"], w["top"], w["x1"], w["bottom"]) for w in page.extract_words()
            ),
            rules=tuple((ln["x0"], ln["top"], ln["x1"], ln["bottom"]) for ln in page.lines),
            rects=tuple((r["x0"], r["top"], r["x1"], r["bottom"]) for r in page.rects),
            size=(float(page.width), float(page.height)),
        )


def inside(x: float, y: float, box: Box, tol: float = TOL) -> bool:
    """Return whether the point lies in the box widened by ``tol``."""
    return box[0] - tol <= x <= box[2] + tol and box[1] - tol <= y <= box[3] + tol


def words_in(words: Sequence[tuple[str, float, float, float, float]], box: Box) -> str:
    """Return the words whose centre lies in ``box``, left to right, joined by single spaces."""
    found = [w for w in words if inside((w[1] + w[3]) / 2, (w[2] + w[4]) / 2, box)]
    return " ".join(w[0] for w in sorted(found, key=lambda w: w[1]))


def paragraph_lines(page: TruthPage) -> list[list[str]]:
    """Return the page's lines grouped into its paragraphs, failing unless they partition them."""
    groups: list[list[str]] = []
    remaining = list(page.lines)
    for paragraph in page.paragraphs:
        group: list[str] = []
        while " ".join(group) != paragraph:
            assert remaining, f"paragraph {paragraph[:40]!r} is not made of the page's lines"
            group.append(remaining.pop(0))
            assert paragraph.startswith(" ".join(group))
        groups.append(group)
    assert not remaining
    return groups


def columns_of(boxes: Sequence[Box]) -> list[list[Box]]:
    """Return the boxes clustered by left edge (columns are far apart, indents are small)."""
    clusters: list[list[Box]] = []
    for box in sorted(boxes, key=lambda b: b[0]):
        if clusters and box[0] - clusters[-1][-1][0] < 40:
            clusters[-1].append(box)
        else:
            clusters.append([box])
    return clusters


def check_truth_invariants(document: SyntheticDoc, size: tuple[float, float]) -> None:
    """Assert the properties every document's truth must have."""
    assert document.name == f"{document.case}-{document.stream_order}-s{document.seed}"
    assert [p.page_no for p in document.pages] == list(range(1, len(document.pages) + 1))
    for page in document.pages:
        keys = [key(t) for t in (*page.lines, *page.furniture)]
        assert len(keys) == len(set(keys)), f"page {page.page_no} repeats a line"
        assert min(len(key(t)) for t in page.lines) >= 12
        assert all(t == " ".join(t.split()) for t in (*page.lines, *page.paragraphs))
        assert len(page.furniture) == 2
        assert len(page.line_boxes) == len(page.lines)
        paragraph_lines(page)
        boxes = sorted(page.line_boxes, key=lambda b: b[1])
        for i, (x0, top, x1, bottom) in enumerate(boxes):
            assert 0 < x0 < x1 < size[0] and 0 < top < bottom < size[1]
            for other in boxes[i + 1 :]:
                if other[1] >= bottom:
                    break
                assert other[0] >= x1 or other[2] <= x0, "two line boxes overlap"


# --------------------------------------------------------------------------- API


def test_cases_and_stream_orders_are_the_documented_ones() -> None:
    assert CASES == (
        "three_column",
        "two_column",
        "full_width_between",
        "full_width_across_pages",
        "staggered_tops",
        "index_mid_page",
        "boxed_note",
        "mixed",
    )
    assert STREAM_ORDERS == ("linear", "blocks_shuffled", "lines_shuffled")


def test_unknown_case_raises_value_error_listing_the_cases() -> None:
    with pytest.raises(ValueError, match=r"'four_column'.*three_column, two_column"):
        gazette("four_column")


def test_unknown_stream_order_raises_value_error_listing_the_orders() -> None:
    with pytest.raises(ValueError, match=r"'reversed'.*linear, blocks_shuffled, lines_shuffled"):
        gazette("mixed", "reversed")


def test_same_arguments_give_byte_identical_pdfs() -> None:
    again = gazette("mixed", "lines_shuffled", 0)
    assert again.pdf == doc("mixed", "lines_shuffled").pdf
    assert again.pages == doc("mixed", "lines_shuffled").pages
    assert gazette("mixed", "lines_shuffled", 1).pdf != again.pdf


def test_suite_yields_every_case_in_every_order() -> None:
    names = [d.name for d in seed_zero().values()]
    assert names == [f"{c}-{o}-s0" for c in CASES for o in STREAM_ORDERS]


@pytest.mark.parametrize("case", CASES)
def test_every_stream_order_has_the_same_truth_and_glyph_positions(case: str) -> None:
    linear = doc(case)
    operations = text_operations(linear.pdf)
    assert sum(operations.values()) == sum(len(p.lines) + 4 for p in linear.pages)
    for order in STREAM_ORDERS[1:]:
        other = doc(case, order)
        assert other.pages == linear.pages
        assert text_operations(other.pdf) == operations
        assert other.pdf != linear.pdf


@pytest.mark.parametrize("case", CASES)
def test_truth_invariants_hold_for_seed_zero(case: str) -> None:
    check_truth_invariants(doc(case), media_size(doc(case).pdf))
    assert 2 <= len(doc(case).pages) <= 4
    assert sum(len(p.lines) for p in doc(case).pages) > 250


def test_truth_json_has_the_documented_shape() -> None:
    document = doc("index_mid_page")
    truth = document.truth_json()
    assert truth["document"] == "index_mid_page-linear-s0.pdf"
    assert (truth["case"], truth["stream_order"], truth["seed"]) == ("index_mid_page", "linear", 0)
    first = truth["pages"][0]
    assert set(first) == {"page", "lines", "paragraphs", "furniture", "headings"}
    assert first["lines"] == list(document.pages[0].lines)
    assert first["headings"] and set(first["headings"]) < set(first["lines"])
    assert json.loads(json.dumps(truth)) == truth


def test_command_line_writes_pdf_and_truth_for_the_whole_suite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds: list[int] = []

    def cached_suite(seed: int = 0) -> Iterator[SyntheticDoc]:
        seeds.append(seed)
        return iter(seed_zero().values())

    monkeypatch.setattr(synthetic, "suite", cached_suite)  # the suite itself is tested above
    assert main([str(tmp_path / "out"), "--seed", "7"]) == 0
    assert seeds == [7]
    assert len(list((tmp_path / "out").iterdir())) == 2 * len(seed_zero())
    for document in seed_zero().values():
        written = tmp_path / "out" / f"{document.name}.pdf"
        assert written.read_bytes() == document.pdf
        truth = written.with_name(f"{document.name}.truth.json").read_text(encoding="utf-8")
        assert json.loads(truth) == document.truth_json()


@pytest.mark.parametrize("case", CASES)
def test_running_header_puts_the_page_number_outside(case: str) -> None:
    """Odd pages end the header with the page number, even pages start with it."""
    folios = []
    for page in doc(case).pages:
        words = page.furniture[0].split()
        folio = words[-1] if page.page_no % 2 else words[0]
        assert folio.isdigit()
        folios.append(int(folio))
        assert re.search(r"City Record|Federal Register|Municipal Gazette", page.furniture[0])
    assert folios == list(range(folios[0], folios[0] + len(folios)))


@settings(max_examples=20, deadline=None)
@given(
    case=st.sampled_from(CASES),
    order=st.sampled_from(STREAM_ORDERS),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_truth_invariants_hold_for_any_seed(case: str, order: str, seed: int) -> None:
    document = gazette(case, order, seed)
    check_truth_invariants(document, media_size(document.pdf))


# --------------------------------------------------------------------------- the PDFs

# The pages pdfplumber reads (it is slow): for each case, the pages with its hard parts.
FEATURE_PAGES = [
    ("three_column", 0),
    ("two_column", 0),
    ("full_width_between", 0),
    ("full_width_between", 1),
    ("full_width_across_pages", -2),
    ("staggered_tops", 0),
    ("index_mid_page", -1),
    ("boxed_note", 0),
    ("mixed", 0),
]


@pytest.mark.parametrize(("case", "index"), FEATURE_PAGES)
def test_every_truth_line_is_read_at_its_box(case: str, index: int) -> None:
    page = doc(case).pages[index]
    read = parsed(case, "linear", index)
    for text, box in zip(page.lines, page.line_boxes, strict=True):
        assert words_in(read.words, box) == text
    assert len(read.words) == sum(len(t.split()) for t in (*page.lines, *page.furniture))


@pytest.mark.parametrize(("case", "index"), FEATURE_PAGES)
def test_furniture_lies_in_the_margins(case: str, index: int) -> None:
    page = doc(case).pages[index]
    read = parsed(case, "linear", index)
    body_top = min(b[1] for b in page.line_boxes)
    body_bottom = max(b[3] for b in page.line_boxes)
    above = [w for w in read.words if w[4] < body_top]
    below = [w for w in read.words if w[2] > body_bottom]
    assert " ".join(w[0] for w in sorted(above, key=lambda w: w[1])) == page.furniture[0]
    assert " ".join(w[0] for w in sorted(below, key=lambda w: w[1])) == page.furniture[1]


@pytest.mark.parametrize(("case", "index"), FEATURE_PAGES)
def test_linear_stream_draws_in_reading_order(case: str, index: int) -> None:
    page = doc(case).pages[index]
    drawn = "".join(c[0] for c in parsed(case, "linear", index).chars if c[0] != " ")
    expected = [page.furniture[0], *page.lines, page.furniture[1]]
    assert drawn == "".join(t.replace(" ", "") for t in expected)


@pytest.mark.parametrize(("case", "index"), [("mixed", 0)])
def test_stream_orders_draw_the_same_glyphs_in_a_different_order(case: str, index: int) -> None:
    linear = parsed(case, "linear", index).chars
    rounded = Counter((t, round(x, 2), round(y, 2)) for t, x, y in linear)
    for order in STREAM_ORDERS[1:]:
        chars = parsed(case, order, index).chars
        assert Counter((t, round(x, 2), round(y, 2)) for t, x, y in chars) == rounded
        assert chars != linear


def drawn_line_order(case: str, order: str, index: int) -> list[int]:
    """Return the truth indices of the body lines in the order the stream draws them."""
    page = doc(case).pages[index]
    by_top: dict[float, list[tuple[float, float, int]]] = {}
    for i, (x0, top, x1, _) in enumerate(page.line_boxes):
        by_top.setdefault(round(top, 1), []).append((x0, x1, i))
    drawn: list[int] = []
    for _, x, top in parsed(case, order, index).chars:
        line = next((i for x0, x1, i in by_top.get(round(top, 1), []) if x0 - TOL <= x <= x1), None)
        if line is not None and (not drawn or drawn[-1] != line):
            drawn.append(line)
    assert sorted(drawn) == list(range(len(page.lines)))
    return drawn


def test_blocks_keep_their_lines_together_and_shuffled_lines_do_not() -> None:
    blocks = drawn_line_order("mixed", "blocks_shuffled", 0)
    lines = drawn_line_order("mixed", "lines_shuffled", 0)
    breaks_blocks = sum(1 for a, b in itertools.pairwise(blocks) if b != a + 1)
    breaks_lines = sum(1 for a, b in itertools.pairwise(lines) if b != a + 1)
    paragraphs = len(doc("mixed").pages[0].paragraphs)
    assert 0 < breaks_blocks <= 2 * paragraphs
    assert breaks_lines > 0.9 * len(lines)
    assert drawn_line_order("mixed", "linear", 0) == list(range(len(lines)))


# --------------------------------------------------------------------------- hard cases


def test_three_columns_have_narrow_gutters() -> None:
    page = doc("three_column").pages[0]
    cols = columns_of(page.line_boxes)
    assert len(cols) == 3
    rights = [max(b[2] for b in col) for col in cols]
    lefts = [min(b[0] for b in col) for col in cols]
    assert [round(lefts[i + 1] - rights[i], 2) for i in range(2)] == [6.0, 6.0]


def test_two_columns_have_a_vertical_rule_in_the_gutter() -> None:
    page = doc("two_column").pages[0]
    left, right = columns_of(page.line_boxes)
    gutter = (max(b[2] for b in left), min(b[0] for b in right))
    assert gutter[1] - gutter[0] == pytest.approx(18.0)
    verticals = [r for r in parsed("two_column", "linear", 0).rules if r[0] == r[2]]
    assert len(verticals) == 1
    assert verticals[0][0] == pytest.approx(sum(gutter) / 2)


def test_full_width_item_sits_between_column_bands_ruled_on_one_page_only() -> None:
    ruled = []
    for index, page in enumerate(doc("full_width_between").pages):
        wide = [(b[2] - b[0]) > page_width_share(page) for b in page.line_boxes]
        first, last = wide.index(True), len(wide) - 1 - wide[::-1].index(True)
        above, item, below = (
            page.line_boxes[:first],
            page.line_boxes[first : last + 1],
            page.line_boxes[last + 1 :],
        )
        top, bottom = min(b[1] for b in item), max(b[3] for b in item)
        assert max(b[3] for b in above) < top and bottom < min(b[1] for b in below)
        assert len(columns_of(above)) == 3 and len(columns_of(below)) == 3
        horizontals = [
            r
            for r in parsed("full_width_between", "linear", index).rules
            if r[1] == r[3] and r[2] - r[0] > 300
        ]
        assert all(r[1] < top or r[1] > bottom for r in horizontals)
        ruled.append(len(horizontals))
    assert sorted(ruled) == [0, 2]


def page_width_share(page: TruthPage) -> float:
    """Return a width only full-width lines exceed: half the widest line on the page."""
    return max(b[2] - b[0] for b in page.line_boxes) / 2


def test_full_width_item_breaks_a_paragraph_across_pages() -> None:
    pages = doc("full_width_across_pages").pages
    widest = max(b[2] - b[0] for p in pages for b in p.line_boxes)
    before, after = pages[-2], pages[-1]
    assert before.line_boxes[-1][2] - before.line_boxes[-1][0] == pytest.approx(widest)
    assert after.line_boxes[0][2] - after.line_boxes[0][0] == pytest.approx(widest)
    assert after.line_boxes[0][1] == min(b[1] for b in after.line_boxes)
    head, tail = paragraph_lines(before)[-1], paragraph_lines(after)[0]
    assert len(head) >= 2 and len(tail) >= 2
    # The last line on the first page is justified to the full measure, so the paragraph
    # goes on; its continuation is the first paragraph of the next page.
    assert before.paragraphs[-1] == " ".join(head)
    assert after.paragraphs[0] == " ".join(tail)
    # Columns stand above the notice on the first page and below it on the second.
    assert len(columns_of([b for b in before.line_boxes if b[2] - b[0] < widest / 2])) == 3
    assert len(columns_of([b for b in after.line_boxes if b[2] - b[0] < widest / 2])) == 3


def test_staggered_columns_start_at_different_heights_under_an_image() -> None:
    page = doc("staggered_tops").pages[0]
    tops = sorted(min(b[1] for b in col) for col in columns_of(page.line_boxes))
    assert tops[1] - tops[0] >= 20 and tops[2] - tops[1] >= 20
    read = parsed("staggered_tops", "linear", 0)
    (image,) = read.rects
    assert image[1] == pytest.approx(tops[0] - 1, abs=3)  # the placeholder tops its column
    assert not [w for w in read.words if inside((w[1] + w[3]) / 2, (w[2] + w[4]) / 2, image, 0)]


def test_index_starts_mid_page_under_a_centred_title() -> None:
    page = doc("index_mid_page").pages[-1]
    title = next(i for i, t in enumerate(page.lines) if t.startswith("Index"))
    entries = page.lines[title + 1 :]
    boxes = page.line_boxes[title + 1 :]
    assert len(entries) >= 10
    assert all(re.fullmatch(r".+ \.{3,} \d+", e) for e in entries)
    assert len({round(b[2], 2) for b in boxes}) == 1  # page numbers end at the right margin
    height = parsed("index_mid_page", "linear", -1).size[1]
    assert 0.3 * height < page.line_boxes[title][1] < 0.8 * height
    x0, _, x1, _ = page.line_boxes[title]
    assert (x0 + x1) / 2 == pytest.approx((boxes[0][0] + boxes[0][2]) / 2, abs=0.5)
    assert len(columns_of(page.line_boxes[:title])) == 3


def test_boxed_note_is_inside_column_two_within_a_rectangle() -> None:
    page = doc("boxed_note").pages[0]
    start = next(i for i, t in enumerate(page.lines) if t.startswith("Note:"))
    count = next(len(g) for g in paragraph_lines(page) if g[0].startswith("Note:"))
    assert 3 <= count <= 6
    note = page.line_boxes[start : start + count]
    cols = columns_of(page.line_boxes[:start] + page.line_boxes[start + count :])
    assert len(cols) == 3
    second = (min(b[0] for b in cols[1]), max(b[2] for b in cols[1]))
    (rect,) = parsed("boxed_note", "linear", 0).rects
    assert rect[0] == pytest.approx(second[0], abs=0.01)
    assert rect[2] == pytest.approx(second[1], abs=0.01)
    for box in note:
        assert rect[0] + 2 < box[0] and box[2] < rect[2] - 2
        assert rect[1] < box[1] and box[3] < rect[3]


def test_mixed_combines_the_hard_cases() -> None:
    first, between, foot, last = doc("mixed").pages
    widest = max(b[2] - b[0] for p in (between, foot, last) for b in p.line_boxes)
    starts = {round(min(b[1] for b in col)) for col in columns_of(first.line_boxes)}
    assert len(starts) == 3  # staggered tops
    assert any(p.startswith("Note:") for p in first.paragraphs)
    assert any(b[2] - b[0] == pytest.approx(widest) for b in between.line_boxes)
    assert foot.line_boxes[-1][2] - foot.line_boxes[-1][0] == pytest.approx(widest)
    assert last.line_boxes[0][2] - last.line_boxes[0][0] == pytest.approx(widest)
    assert any(t.startswith("Index") for t in last.lines)
