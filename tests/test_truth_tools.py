"""Tests of ``layoutkit truth draft`` and ``layoutkit truth review``: a draft holds
the reading's lines and types and reads back as a truth file; its review page opens
in headless Chromium with every picture shown and every line listed; a truth that
breaks the schema or does not fit its document is refused in one line.

The document is pages 1-2 of a real Federal Register issue (a masthead, three
columns, bulleted addresses), copied into a temporary folder with its truth.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

import layoutkit
from layoutkit.cli import main
from layoutkit.files import sha256_of
from layoutkit.model import BBox
from layoutkit.outputs.pictures import data_uri, page_png
from layoutkit.tools.evaluation import JSON_KINDS, TYPE_KINDS
from layoutkit.tools.review import locate
from layoutkit.tools.truth import load_truth
from tests.browser import Browser, load_in_browser, open_browser

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures/pdf/federal-register-2020-08-06.pdf"


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The issue (``issue.pdf``) and the truth ``layoutkit truth draft`` wrote of its
    pages 1-2, side by side in a folder of their own."""
    folder = tmp_path_factory.mktemp("draft")
    pdf = shutil.copyfile(FIXTURE, folder / "issue.pdf")
    truth = folder / "issue.truth.json"
    assert main(["truth", "draft", str(pdf), "--pages", "1-2", "-o", str(truth)]) == 0
    return pdf, truth


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """One headless Chromium for the module's browser tests."""
    with open_browser() as browser:
        yield browser


def _error_line(capsys: pytest.CaptureFixture[str]) -> str:
    """The one line of standard error a refused command printed."""
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# --------------------------------------------------------------------------- draft


def test_truth_draft_holds_the_readings_lines_and_types(drafted: tuple[Path, Path]) -> None:
    pdf, path = drafted
    truth = load_truth(path)
    document = layoutkit.parse(pdf, pages=[1, 2])
    assert truth.document == "issue.pdf"
    assert truth.sha256 == sha256_of(pdf)
    assert [page.page for page in truth.pages] == [1, 2]
    for page, read in zip(truth.pages, document.pages, strict=True):
        assert page.checked == "TODO"
        assert page.lines == tuple(line.text for line in read.lines if not line.furniture)
        assert page.furniture == tuple(line.text for line in read.lines if line.furniture)
    first = truth.pages[0]
    assert first.lines[:2] == ("Proposed Rules", "This section of the FEDERAL REGISTER")
    assert first.furniture[:2] == ("47698", "Federal Register")
    assert first.types is not None
    assert first.types.headings[:3] == ((1, "Proposed Rules"),
                                        (1, "DEPARTMENT OF TRANSPORTATION"),
                                        (1, "Federal Aviation Administration"))
    # the bulleted addresses: their first lines only, not the lines that continue them
    assert first.types.list_items == ("• Federal eRulemaking Portal: Go to",
                                      "• Fax: 202–493–2251.", "• Mail: U.S. Department of",
                                      "• Hand Delivery: Deliver to Mail")
    assert truth.pages[1].types is None  # no heading, list item, table or contents line


def test_truth_draft_refuses_to_replace_a_truth_file_without_force(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf = shutil.copyfile(FIXTURE, tmp_path / "issue.pdf")
    truth = tmp_path / "labels" / "issue.truth.json"
    truth.parent.mkdir()
    assert main(["truth", "draft", str(pdf), "--pages", "2", "-o", str(truth)]) == 0
    assert capsys.readouterr().out == (f"{truth}: 1 page(s), 223 body line(s) drafted from "
                                       f"the reading of {pdf}; every page checked TODO\n")
    assert json.loads(truth.read_text())["document"] == "../issue.pdf"
    truth.write_text("corrected by hand")
    assert main(["truth", "draft", str(pdf), "--pages", "2", "-o", str(truth)]) == 2
    assert _error_line(capsys) == (f"layoutkit: error: {truth}: exists; a draft replaces a "
                                   f"truth file only with --force")
    assert truth.read_text() == "corrected by hand"
    assert main(["truth", "draft", str(pdf), "--pages", "2", "-o", str(truth), "--force"]) == 0
    assert len(load_truth(truth).pages[0].lines) == 223


# --------------------------------------------------------------------------- review


@pytest.mark.browser
def test_truth_review_opens_in_a_browser_with_every_line_numbered(
        drafted: tuple[Path, Path], chromium: Browser, tmp_path: Path) -> None:
    _, path = drafted
    truth = load_truth(path)
    html = tmp_path / "review.html"
    assert main(["truth", "review", str(path), "-o", str(html)]) == 0
    lines = sum(len(page.lines) for page in truth.pages)
    furniture = sum(len(page.furniture) for page in truth.pages)
    shown = load_in_browser(html, selectors=(
        "li.line", "li.furniture", "li.missing", "a.mark", "a.mark.furniture",
        "img[src^='data:image/png;base64,']", "script", "link", "[src^='http']"),
        browser=chromium)
    assert shown.errors == ()
    assert shown.images == shown.images_shown == 2
    assert dict(shown.counts) == {
        "li.line": lines, "li.furniture": furniture, "li.missing": 0,
        "a.mark": lines + furniture, "a.mark.furniture": furniture,
        "img[src^='data:image/png;base64,']": 2, "script": 0, "link": 0, "[src^='http']": 0}
    assert lines == 400


@pytest.mark.browser
def test_truth_review_flags_a_line_not_on_the_page(
        drafted: tuple[Path, Path], chromium: Browser, tmp_path: Path) -> None:
    pdf, path = drafted
    data = json.loads(path.read_text())
    data["document"] = str(pdf)
    data["pages"] = data["pages"][1:]
    lines = data["pages"][0]["lines"]
    lines[3] = lines[3].replace("the", "teh")  # an edited line is still placed
    lines.insert(5, "A line the page does not have at all")
    edited = tmp_path / "edited.truth.json"
    edited.write_text(json.dumps(data))
    html = tmp_path / "review.html"
    assert main(["truth", "review", str(edited), "-o", str(html)]) == 0
    shown = load_in_browser(html, selectors=("li.line", "li.missing", "a.mark:not(.furniture)",
                                             "li.missing a"), browser=chromium)
    assert shown.errors == () and shown.images == shown.images_shown == 1
    assert dict(shown.counts) == {"li.line": len(lines), "li.missing": 1,
                                  "a.mark:not(.furniture)": len(lines) - 1, "li.missing a": 0}
    assert "A line the page does not have at all" in html.read_text()


@pytest.mark.browser
def test_browser_harness_reports_console_errors_and_broken_images(
        chromium: Browser, tmp_path: Path) -> None:
    """The harness fails a broken page: it does not pass what it could not see."""
    html = tmp_path / "broken.html"
    html.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"><title>x</title></head>'
                    '<body><img src="missing.png" alt=""><img src="' + data_uri(
                        Image.new("RGB", (4, 3), "white")) + '" alt="">'
                    "<script>console.error('boom'); undefinedName();</script></body></html>")
    shown = load_in_browser(html, selectors=("img", "p"), browser=chromium)
    assert shown.images == 2 and shown.images_shown == 1
    assert dict(shown.counts) == {"img": 2, "p": 0}
    assert len(shown.errors) == 3
    for cause in ("missing.png", "boom", "undefinedName"):  # in the order they come
        assert sum(cause in error for error in shown.errors) == 1, (cause, shown.errors)


def test_locate_places_same_edited_and_glued_lines() -> None:
    reading = [("Running head", BBox(0, 0, 100, 10)),
               ("The first line of text", BBox(0, 20, 100, 30)),
               ("The first line of text", BBox(0, 40, 100, 50)),
               ("Left column words  Right column words", BBox(0, 60, 200, 70)),
               ("The last line of the page", BBox(0, 80, 100, 90)),
               ("14 (b) PURPOSE.—It is the purpose", BBox(0, 100, 100, 110))]
    found = locate(["The first line of text", "The first line of text",
                    "The last line of teh page", "Right column words", "Nowhere to be seen",
                    "(b) PURPOSE.—It is the purpose"], reading)
    assert [f.how if f else None for f in found] == ["same", "same", "edited", "part", None,
                                                     "same"]
    assert [f.bbox.top for f in found if f] == [20, 40, 80, 60, 100]
    glued = found[3]
    assert glued is not None and 95 < glued.bbox.x0 < 110 and glued.bbox.x1 == 200


# --------------------------------------------------------------------------- bad truth


def test_truth_review_refuses_a_file_that_breaks_the_schema(
        drafted: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(drafted[1].read_text())
    data["pages"][0]["page"] = "one"
    broken = tmp_path / "broken.truth.json"
    broken.write_text(json.dumps(data))
    assert main(["truth", "review", str(broken), "-o", str(tmp_path / "r.html")]) == 2
    line = _error_line(capsys)
    assert line.startswith(f"layoutkit: error: {broken}: $.pages[0].page: expected a integer")
    assert not (tmp_path / "r.html").exists()


def test_truth_review_refuses_another_file(
        drafted: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = shutil.copyfile(FIXTURE.with_name("senate-bill-equality-act.pdf"),
                            tmp_path / "issue.pdf")
    truth = shutil.copyfile(drafted[1], tmp_path / "issue.truth.json")
    assert main(["truth", "review", str(truth), "-o", str(tmp_path / "r.html")]) == 2
    assert _error_line(capsys) == (
        f"layoutkit: error: {truth}: $.sha256: the truth was made for another file than "
        f"{other}: expected SHA-256 {sha256_of(FIXTURE)}, the file's is {sha256_of(other)}")


def test_truth_review_refuses_a_page_the_document_lacks(
        drafted: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf, path = drafted
    data = json.loads(path.read_text())
    data["document"] = str(pdf)
    data["pages"][1]["page"] = 16
    beyond = tmp_path / "beyond.truth.json"
    beyond.write_text(json.dumps(data))
    assert main(["truth", "review", str(beyond), "-o", str(tmp_path / "r.html")]) == 2
    assert _error_line(capsys) == (f"layoutkit: error: {beyond}: $.pages[1].page: page 16, "
                                   f"but issue.pdf has 15 page(s)")


# --------------------------------------------------------------------------- pictures


def test_page_png_renders_pdf_and_image_pages_at_the_resolution_asked(tmp_path: Path) -> None:
    picture, scale = page_png(FIXTURE, 1, 100)
    assert picture.size == (850, 1100) and picture.mode == "RGB"
    assert scale == pytest.approx(100 / 72)
    scan = tmp_path / "scan.png"
    Image.new("L", (600, 300), 255).save(scan, dpi=(300, 300))
    picture, scale = page_png(scan, 1, 100)
    assert picture.size == (200, 100) and picture.mode == "RGB"
    assert scale == pytest.approx(100 / 72, rel=1e-4)  # PNG keeps dots per metre
    uri = data_uri(picture, colours=16)
    assert uri.startswith("data:image/png;base64,iVBORw0KGgo")


def test_truth_draft_review_evaluate_round_trip(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The labelling loop a user runs on a document of the corpus: a draft, reviewed and
    evaluated unedited, scores 1.000 on every metric; two of its lines swapped by hand
    lower the order of their page, and the report names both lines."""
    dmca = FIXTURE.parent / "copyright-office-dmca-summary.pdf"
    truth = tmp_path / "dmca.truth.json"
    assert main(["truth", "draft", str(dmca), "--pages", "4-5", "-o", str(truth)]) == 0
    assert main(["truth", "review", str(truth), "-o", str(tmp_path / "review.html")]) == 0
    capsys.readouterr()
    assert main(["evaluate", str(truth), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {key: report["score"][key] for key in ("found", "order", "leak")} == {
        "found": 1.0, "order": 1.0, "leak": 0.0}
    assert report["score"]["lines"] == 65
    assert report["types"]["headings"]["precision"] == report["types"]["headings"]["recall"] == 1
    assert report["types"]["listItems"]["recall"] == 1.0

    # a truth file that labels footnotes and paragraphs reports them too
    labelled = Path(__file__).parent.parent / "regions" / "corpus" / \
        "thai-law-3154-budget-law-textbook-p95.truth.json"
    assert main(["evaluate", str(labelled), "--json"]) == 0
    types = json.loads(capsys.readouterr().out)["documents"][0]["types"]
    assert types["footnotes"]["expected"] == 5
    assert set(JSON_KINDS) == set(TYPE_KINDS)  # every kind scored is reported

    data = json.loads(truth.read_text(encoding="utf-8"))
    lines = data["pages"][0]["lines"]
    first, second = lines[3], lines[20]
    lines[3], lines[20] = second, first
    truth.write_text(json.dumps(data), encoding="utf-8")
    assert main(["evaluate", str(truth), "--min-order", "0.99"]) == 1
    out = capsys.readouterr().out
    page_4 = next(line for line in out.splitlines() if line.startswith("  page 4:"))
    assert "order 1.000" not in page_4
    assert f"«{first}»" in out and f"«{second}»" in out
