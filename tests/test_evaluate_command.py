"""Tests of ``layoutkit evaluate``, its report functions and the pytest plugin: the
metrics on hand-made pages, and the bars of the issue on a truth made from a parse
of the Federal Register's first two pages (an unedited truth scores 1, 1, 0; two
lines swapped by hand lower the order and are named; a bound missed exits 1 naming
the page; a bad truth exits 2 in one line; the HTML report shows in a browser)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator, Sequence
from itertools import pairwise
from pathlib import Path

import pytest

import layoutkit
from layoutkit.cli import main
from layoutkit.files import sha256_of
from layoutkit.model import Band, BandKind, BBox, Block, Column, Document, Line, LineType, Page
from layoutkit.tools.evaluate import (
    line_index,
    line_starts,
    missing_lines,
    order_breaks,
    reduce,
    score_page,
    scored_lines,
)
from layoutkit.tools.evaluation import (
    Bounds,
    DocumentEvaluation,
    Evaluation,
    PageEvaluation,
    break_text,
    evaluate_page,
    type_scores,
)
from layoutkit.tools.truth import DocumentTruth, PageTruth, PageTypes, write_truth
from tests.browser import Browser, load_in_browser, open_browser

pytest_plugins = ["pytester"]

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
PDF = FIXTURES / "pdf" / "federal-register-2020-08-06.pdf"

LEFT = ["Ord. No. 501-16. By Council", "Members Brancatelli and Kelley",
        "An emergency ordinance to amend", "the title and Sections 1 and 2.",
        "of Ordinance No. 1451-14, passed"]
RIGHT = ["Whereas, under Ordinance No. 1451-", "14, passed December 8, 2014, as",
         "amended by Ordinance No. 1444-15,", "passed December 7, 2015, this Council",
         "authorized the Director of Public Works"]
TRUTH = LEFT + RIGHT
ACROSS = [line for row in zip(LEFT, RIGHT, strict=True) for line in row]


# --------------------------------------------------------------------------- metrics


def test_two_columns_read_straight_across_keep_no_pair_in_order() -> None:
    score = score_page("\n".join(ACROSS), TRUTH)
    assert (score.found, score.order, score.pairs) == (1.0, 0.0, 9)


def test_two_columns_read_straight_across_every_pair_breaks_and_says_what_came() -> None:
    breaks = order_breaks("\n".join(ACROSS), TRUTH)
    assert len(breaks) == 9
    first = breaks[0]
    assert (first.after, first.expected, first.instead, first.kind) == (
        LEFT[0], LEFT[1], RIGHT[0], "order")
    # the last left line is followed by the last right line, not the first
    assert (breaks[4].after, breaks[4].expected, breaks[4].instead) == (LEFT[4], RIGHT[0],
                                                                      RIGHT[4])
    assert break_text(first) == (f"after «{LEFT[0]}» expected «{LEFT[1]}», "
                                 f"came «{RIGHT[0]}»")


@pytest.mark.parametrize("output", [
    TRUTH,
    ACROSS,
    [*LEFT[:2], *RIGHT[:2], *LEFT[2:], *RIGHT[2:]],
    [*LEFT[:3], *RIGHT],
    [*RIGHT, *LEFT],
    [LEFT[0], *TRUTH],
])
def test_order_breaks_are_the_pairs_the_order_score_misses(output: Sequence[str]) -> None:
    score = score_page("\n".join(output), TRUTH)
    breaks = order_breaks("\n".join(output), TRUTH)
    assert len(breaks) == score.pairs - round(score.order * score.pairs)
    kept = scored_lines(TRUTH)
    assert {(reduce(b.after), reduce(b.expected)) for b in breaks} <= set(pairwise(kept))


def test_columns_swapped_whole_break_only_at_the_seams() -> None:
    breaks = order_breaks("\n".join([*RIGHT, *LEFT]), TRUTH)
    # L4 -> R0 is the only pair out of order: R4 ends the output before L0 starts it
    assert [(b.after, b.expected, b.instead) for b in breaks] == [(LEFT[4], RIGHT[0], None)]
    assert breaks[0].following == ""
    assert break_text(breaks[0]).endswith("came the end of the page")


def test_a_missing_line_is_listed_and_breaks_both_of_its_pairs() -> None:
    output = "\n".join(line for line in TRUTH if line != LEFT[2])
    assert missing_lines(output, TRUTH) == [LEFT[2]]
    breaks = order_breaks(output, TRUTH)
    assert [(b.after, b.expected, b.kind) for b in breaks] == [
        (LEFT[1], LEFT[2], "missing"), (LEFT[2], LEFT[3], "missing")]
    assert breaks[0].instead == LEFT[3]
    assert "(the expected line is not in the output)" in break_text(breaks[0])
    assert breaks[1].after_at is None and breaks[1].instead is None
    assert break_text(breaks[1]).endswith("came nothing: that line itself is not in the output")


def test_a_line_read_twice_has_no_place() -> None:
    output = "\n".join([*TRUTH, LEFT[3]])
    breaks = order_breaks(output, TRUTH)
    assert [(b.after, b.expected, b.kind) for b in breaks] == [
        (LEFT[2], LEFT[3], "repeated"), (LEFT[3], LEFT[4], "repeated")]
    assert missing_lines(output, TRUTH) == []


def test_the_text_after_a_line_comes_from_the_output_shortened() -> None:
    # a line that glues the two columns: after LEFT[0] comes the start of RIGHT[0]
    output = "\n".join([f"{LEFT[0]} {RIGHT[0]}", *LEFT[1:], *RIGHT[1:]])
    first = order_breaks(output, TRUTH)[0]
    assert first.instead == RIGHT[0]
    assert first.following == "Whereas, under Ordinance No. 1451- Members Brancatelli and …"
    assert len(first.following) == 60


def test_line_starts_place_a_reduced_position_in_its_line() -> None:
    starts = line_starts(["Ab, c", "", "d-e f"])
    assert starts == [0, 3, 3, 6]
    assert [line_index(starts, p) for p in range(7)] == [0, 0, 0, 2, 2, 2, None]


# --------------------------------------------------------------------------- pages


def _line(text: str, top: float, kind: LineType = LineType.BODY, level: int = 0) -> Line:
    return Line(text, BBox(50, top, 300, top + 10), (), 1, 0, 0, 0, kind, level)


def _page(*lines: Line) -> Page:
    box = BBox(0, 0, 612, 792)
    return Page(1, 612, 792, (Band(0, BandKind.BODY, box,
                                   (Column(0, box, (Block(lines, box),)),)),))


def test_evaluate_page_scores_lines_and_types() -> None:
    page = _page(_line("The City Record 5", 10, LineType.HEADER),
                 _line("CITY COUNCIL MEETING", 30, LineType.HEADING, 1),
                 _line(LEFT[0], 50), _line("Board of Control", 60, LineType.HEADING, 2),
                 _line(LEFT[1], 70), _line("• the first item of a list", 80,
                                          LineType.LIST_BULLET))
    truth = PageTruth("x.pdf", 1, (LEFT[0], LEFT[1], "• the first item of a list"),
                      ("The City Record 5",), (), "TODO", Path("x.truth.json"),
                      types=PageTypes(headings=((1, "CITY COUNCIL MEETING"),
                                                (2, "Minutes of the meeting")),
                                      list_items=("• the first item of a list",)))
    result = evaluate_page(truth, page, ["headings", "list items"])
    assert result.score is not None
    assert (result.score.found, result.score.order, result.score.leak) == (1.0, 1.0, 0.0)
    headings, items = result.types["headings"], result.types["list items"]
    assert (headings.predicted, headings.expected, headings.hits) == (2, 2, 1)
    assert (items.precision, items.recall) == (1.0, 1.0)
    assert set(result.types) == {"headings", "list items"}
    assert result.missing == () and result.breaks == ()


def test_a_contents_page_without_its_lines_counts_every_body_line_but_headings() -> None:
    page = _page(_line("Contents", 10, LineType.HEADING, 1),
                 _line("1 Introduction 3", 30, LineType.TOC),
                 _line("2 Methods 7", 40, LineType.BODY))
    scores = type_scores(PageTypes(headings=((1, "Contents"),), contents_page=True), page,
                         ["contents"])
    assert (scores["contents"].predicted, scores["contents"].expected,
            scores["contents"].hits) == (1, 2, 1)


def test_bounds_name_the_page_and_the_pooled_score() -> None:
    worse = score_page("\n".join(ACROSS), TRUTH)
    good = score_page("\n".join(TRUTH), TRUTH)
    truth = DocumentTruth(Path("a.truth.json"), "a.pdf", "0" * 64, ())
    document = Document(Path("a.pdf"), (), 2)
    evaluation = Evaluation((DocumentEvaluation(truth, document, (
        PageEvaluation(1, good), PageEvaluation(2, worse))),), Bounds(min_order=0.9))
    assert evaluation.failures == ["a.truth.json page 2: order 0.000 (0/9) < 0.900",
                                   "pooled: order 0.500 (9/18) < 0.900"]
    assert Bounds().misses(worse) == [] and not Bounds().given


@pytest.mark.parametrize("bound", ["--min-order=1.5", "--min-found=-1", "--max-leak=nan"])
def test_a_bound_out_of_0_to_1_exits_2(bound: str, tmp_path: Path, parsed: Document,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A bound is a share: 1.5 would fail every page and -1 pass them all."""
    truth, _ = write_made_truth(tmp_path, parsed)
    assert main(["evaluate", str(truth), bound]) == 2
    assert "expected a share from 0 to 1" in capsys.readouterr().err


def test_nothing_to_evaluate_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder without truth files, or truth with nothing to score, is a usage error,
    not a check that passes."""
    assert main(["evaluate", str(tmp_path), "--min-order", "0.99"]) == 2
    assert "no *.truth.json file to evaluate" in capsys.readouterr().err
    empty = tmp_path / "empty.truth.json"
    write_truth(DocumentTruth(empty, os.path.relpath(PDF, tmp_path), sha256_of(PDF), (
        PageTruth(PDF.name, 1, ("short",), (), (), "TODO", empty),)))
    assert main(["evaluate", str(empty)]) == 2
    assert "nothing to score" in capsys.readouterr().err


def test_pages_still_checked_todo_are_named(tmp_path: Path, parsed: Document,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A draft nobody checked scores well and says nothing; the report says so."""
    truth, _ = write_made_truth(tmp_path, parsed)
    data = json.loads(truth.read_text(encoding="utf-8"))
    data["pages"][1]["checked"] = "TODO"
    truth.write_text(json.dumps(data), encoding="utf-8")
    assert main(["evaluate", str(truth)]) == 0
    assert f"note: 1 of 2 labelled page(s) still checked TODO, drafts nobody compared with " \
           f"the page: {truth} page 2" in capsys.readouterr().out


# --------------------------------------------------------------------------- the bars


@pytest.fixture(scope="module")
def parsed() -> Document:
    return layoutkit.parse(PDF, pages="1-2")


def write_made_truth(folder: Path, document: Document, pdf: Path = PDF,
                     swap: tuple[int, int] | None = None) -> tuple[Path, list[str]]:
    """Write a truth of ``document``'s pages (body lines and furniture as parsed) to
    ``folder``, its document named relative to it; with ``swap``, the scored lines of
    page 2 at those two ranks change places.  Returns the file and the lines swapped."""
    path = folder / "federal-register.truth.json"
    pages, swapped = [], []
    for page in document.pages:
        lines = [line.text for line in page.body_lines]
        if swap is not None and page.page_no == 2:
            kept = set(scored_lines(lines))
            ranks = [k for k, text in enumerate(lines) if reduce(text) in kept]
            i, j = ranks[swap[0]], ranks[swap[1]]
            lines[i], lines[j] = lines[j], lines[i]
            swapped = [lines[j], lines[i]]
        pages.append(PageTruth(pdf.name, page.page_no, tuple(lines),
                               tuple(line.text for line in page.lines if line.furniture),
                               (), "made from a parse, unedited", path))
    write_truth(DocumentTruth(path, os.path.relpath(pdf, folder), sha256_of(pdf),
                              tuple(pages)))
    return path, swapped


def test_an_unedited_truth_scores_found_and_order_one_and_no_leak(
        parsed: Document, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    truth, _ = write_made_truth(tmp_path, parsed)
    assert main(["evaluate", str(truth), "--json", "--min-order", "1", "--min-found", "1",
                 "--max-leak", "0"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["schema"] == "layoutkit.evaluation/1"
    score = report["score"]
    assert (score["found"], score["order"], score["leak"]) == (1.0, 1.0, 0.0)
    assert score["lines"] > 300 and score["furniture"] == 9
    pages = report["documents"][0]["pages"]
    assert [p["page"] for p in pages] == [1, 2]
    assert all(p["missing"] == [] and p["orderBreaks"] == [] for p in pages)
    assert report["failures"] == []


def test_two_lines_swapped_lower_the_order_and_are_named(
        parsed: Document, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    truth, swapped = write_made_truth(tmp_path, parsed, swap=(10, 40))
    assert main(["evaluate", str(truth)]) == 0
    out = capsys.readouterr().out
    page_2 = next(line for line in out.splitlines() if line.startswith("  page 2:"))
    assert "found 1.000" in page_2 and "order 1.000" not in page_2
    for line in swapped:
        assert f"«{line}»" in out
    # a swap breaks the pairs into and out of each of the two lines
    assert sum(1 for line in out.splitlines() if line.startswith("    after «")) == 4


def test_a_missed_bound_exits_1_naming_the_page(
        parsed: Document, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    truth, _ = write_made_truth(tmp_path, parsed, swap=(10, 40))
    assert main(["evaluate", str(tmp_path), "--min-order", "0.99"]) == 1
    failed = [line for line in capsys.readouterr().out.splitlines()
              if line.startswith("FAILED")]
    assert failed[0].startswith(f"FAILED {truth} page 2: order 0.98")
    assert failed[0].endswith("< 0.990")
    assert len(failed) == 2 and failed[1].startswith("FAILED pooled: order")


@pytest.mark.parametrize(("edit", "message"), [
    (lambda data: data.pop("sha256"), "$: expected the keys"),
    (lambda data: data["pages"][0].update(page=99), "$.pages[1].page: page 99"),
    (lambda data: data.update(sha256="0" * 64), "$.sha256: the truth was made for another"),
])
def test_bad_truth_exits_2_with_one_line(
        parsed: Document, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        edit: object, message: str) -> None:
    truth, _ = write_made_truth(tmp_path, parsed)
    data = json.loads(truth.read_text(encoding="utf-8"))
    assert callable(edit)
    edit(data)
    truth.write_text(json.dumps(data), encoding="utf-8")
    assert main(["evaluate", str(truth)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"layoutkit: error: {truth}: ")
    assert message in lines[0]


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    with open_browser() as browser:
        yield browser


def test_the_html_report_shows_the_failing_page_with_its_breaks(
        parsed: Document, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        chromium: Browser) -> None:
    truth, _ = write_made_truth(tmp_path, parsed, swap=(10, 40))
    report = tmp_path / "report.html"
    assert main(["evaluate", str(truth), "--min-order", "0.99", "--html", str(report)]) == 1
    capsys.readouterr()
    html = report.read_text(encoding="utf-8")
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in html
    page = load_in_browser(report, ("section.page", "g.break", "ol.breaks li", "img"),
                           browser=chromium)
    assert page.errors == ()
    assert page.images == page.images_shown == 1
    assert page.counts["section.page"] == 1
    assert page.counts["g.break"] == page.counts["ol.breaks li"] == 4


# --------------------------------------------------------------------------- the plugin


def _plugin_folder(pytester: pytest.Pytester, document: Document,
                   swap: tuple[int, int] | None = None, opt_in: bool = True,
                   min_order: str = "0.99") -> None:
    pdf = pytester.path / PDF.name
    shutil.copyfile(PDF, pdf)
    write_made_truth(pytester.path, document, pdf, swap)
    pytester.makeini("[pytest]\n" + ("layoutkit_truth = true\n" if opt_in else "")
                     + f"layoutkit_min_order = {min_order}\n")


def test_the_plugin_collects_a_test_per_labelled_page(
        pytester: pytest.Pytester, parsed: Document) -> None:
    _plugin_folder(pytester, parsed)
    result = pytester.runpytest("-v", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*federal-register.truth.json::page-1 PASSED*",
                                 "*federal-register.truth.json::page-2 PASSED*"])


def test_the_plugin_fails_a_page_naming_what_broke(
        pytester: pytest.Pytester, parsed: Document) -> None:
    _plugin_folder(pytester, parsed, swap=(10, 40))
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*federal-register.truth.json page 2: order 0.98* < 0.990",
                                 "  after «*» expected «*», came «*»"])


def test_the_plugin_collects_nothing_unless_asked(
        pytester: pytest.Pytester, parsed: Document) -> None:
    _plugin_folder(pytester, parsed, opt_in=False)
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_the_plugin_tells_a_broken_truth_file_in_one_line(
        pytester: pytest.Pytester, parsed: Document) -> None:
    _plugin_folder(pytester, parsed)
    truth = pytester.path / "federal-register.truth.json"
    data = json.loads(truth.read_text(encoding="utf-8"))
    data["sha256"] = "0" * 64
    truth.write_text(json.dumps(data), encoding="utf-8")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*federal-register.truth.json: $.sha256: the truth was "
                                 "made for another file than *"])
    assert "Traceback" not in result.stdout.str()


def test_types_naming_no_line_of_their_page_are_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A heading label left behind when its line was split by hand scores against text no
    longer labelled: the report names it."""
    dmca = PDF.parent / "copyright-office-dmca-summary.pdf"
    truth = tmp_path / "dmca.truth.json"
    assert main(["truth", "draft", str(dmca), "--pages", "4", "-o", str(truth)]) == 0
    data = json.loads(truth.read_text(encoding="utf-8"))
    page = data["pages"][0]
    heading = page["types"]["headings"][0][1]
    index = page["lines"].index(heading)
    page["lines"][index:index + 1] = [heading[:len(heading) // 2], heading[len(heading) // 2:]]
    truth.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    main(["evaluate", str(truth)])
    assert f"note: {truth} page 4: its types name «{heading}», which is not one of its " \
           f"lines" in capsys.readouterr().out


@pytest.mark.parametrize(("setting", "message"), [
    ("layoutkit_min_order = abc", "layoutkit: layoutkit_min_order = 'abc': expected a number"),
    ("layoutkit_min_order = 1.5", "layoutkit: layoutkit_min_order = 1.5: expected a share from "
                                  "0 to 1"),
    ("layoutkit_profile = no-such-profile", "layoutkit: *no-such-profile*"),
])
def test_the_plugin_tells_a_bad_ini_option_once(
        pytester: pytest.Pytester, parsed: Document, setting: str, message: str) -> None:
    """A bad bound or profile in the ini file is one usage error when pytest starts, not
    a traceback in every test."""
    _plugin_folder(pytester, parsed)
    pytester.makeini(f"[pytest]\nlayoutkit_truth = true\n{setting}\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{message}*"])
    assert "Traceback" not in result.stdout.str() + result.stderr.str()
