"""The parse API: page selection and reading pages in several processes."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

import layoutkit
from fixtures.synthetic import gazette
from layoutkit.cli import main
from layoutkit.model import BBox, Glyph, Glyphs, PageGlyphs, Rule
from tests.handmade import pdf_bytes

FR = Path("fixtures/pdf/federal-register-2020-08-06.pdf")
CR2004 = Path("fixtures/pdf/cleveland-city-record-2004-06-09.pdf")


def document(which: str, folder: Path) -> tuple[Path, str | None]:
    """A document to read and the pages to read of it: some pages of two real fixtures,
    or every page of a synthetic gazette of mixed layouts, four pages (written to
    ``folder``)."""
    if which == "federal-register":
        return FR, "4-8"
    if which == "city-record-2004":
        return CR2004, "8-13,30"
    doc = gazette("mixed", "blocks_shuffled", seed=1)
    path = folder / f"{doc.name}.pdf"
    path.write_bytes(doc.pdf)
    return path, None


@pytest.mark.parametrize("which", ["federal-register", "city-record-2004", "synthetic"])
def test_api_jobs_give_the_same_document(which: str, tmp_path: Path) -> None:
    """Reading and laying out pages in two or three processes gives exactly the document
    one process gives: every page, band, column, block, line and word."""
    path, pages = document(which, tmp_path)
    serial = layoutkit.parse(path, pages=pages)
    assert len(serial) >= 3
    assert sum(len(page.lines) for page in serial) > 100
    for jobs in (2, 3):
        assert layoutkit.parse(path, pages=pages, jobs=jobs) == serial


def test_api_jobs_carry_a_profile_section_across_pages(tmp_path: Path) -> None:
    """A profile section that starts on page 2 of four runs on to the end whichever
    process lays out the later pages: the document is the one a single process gives,
    and the pages after the section's start read differently than without it."""
    doc = gazette("mixed", "blocks_shuffled", seed=1)
    path = tmp_path / f"{doc.name}.pdf"
    path.write_bytes(doc.pdf)
    start = doc.pages[1].lines[len(doc.pages[1].lines) // 2]
    profile_path = tmp_path / "p.toml"
    profile_path.write_text(f'name = "t"\n[[sections]]\nname = "rest"\nlayout = "single"\n'
                            f"starts_at = {{ line = '^{re.escape(start)}$' }}\n",
                            encoding="utf-8")
    profile = layoutkit.load_profile(profile_path)
    serial = layoutkit.parse(path, profile=profile)
    auto = layoutkit.parse(path)
    assert serial[0] == auto[0]
    assert all(len(page.bands[0].columns) == 1 for page in serial[2:])
    assert [p.text() for p in serial[2:]] != [p.text() for p in auto[2:]]
    for jobs in (2, 3):
        assert layoutkit.parse(path, profile=profile, jobs=jobs) == serial


def test_api_more_jobs_than_pages() -> None:
    """More processes than pages to read (one page and its context) is no error."""
    assert layoutkit.parse(FR, pages="1", jobs=8) == layoutkit.parse(FR, pages="1")


def test_api_values_survive_pickling() -> None:
    """Values pickled as constructor calls come back equal: a laid-out document (as
    pages cross from the workers) and values of one field or with defaults."""
    document = layoutkit.parse(FR, pages="5")
    assert pickle.loads(pickle.dumps(document)) == document
    glyphs = Glyphs.of([Glyph("a", BBox(1.0, 2.0, 6.0, 12.0), "Times-Roman", 10.0)])
    page = PageGlyphs(3, 612.0, 792.0, glyphs, (Rule(BBox(1.0, 2.0, 300.0, 2.5)),))
    again = pickle.loads(pickle.dumps(page))
    assert again == page
    assert not again.glyphs.boxes.flags.writeable


def broken_pdf(folder: Path, count: int, bad: int) -> Path:
    """A PDF of ``count`` one-line pages whose page ``bad`` is not a page dictionary
    (PDFium cannot load it)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [%s] /Count %d >>"
               % (b" ".join(b"%d 0 R" % (4 + 2 * k) for k in range(count)), count),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    for k in range(count):
        text = b"BT /F1 12 Tf 72 400 Td (Page %d body text) Tj ET" % (k + 1)
        objects.append(b"42" if k + 1 == bad else
                       b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                       b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (5 + 2 * k))
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text))
    path = folder / "broken-page.pdf"
    path.write_bytes(pdf_bytes(objects))
    return path


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_api_bad_page_in_a_worker_fails_as_serially(jobs: int, tmp_path: Path) -> None:
    """A page that cannot be read raises the same DocumentError, naming the file and the
    page, whichever process read it."""
    path = broken_pdf(tmp_path, 7, 5)
    with pytest.raises(layoutkit.DocumentError) as raised:
        layoutkit.parse(path, jobs=jobs)
    assert str(raised.value) == f"{path}: page 5 cannot be read (PDFium cannot load it)"
    assert [p.text() for p in layoutkit.parse(path, pages="1", jobs=jobs)] == ["Page 1 body text"]


def test_api_cli_bad_page_with_jobs_is_one_line(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """On the command line a page a worker cannot read is the serial one-line error, exit 1."""
    path = broken_pdf(tmp_path, 7, 5)
    assert main(["text", str(path), "--jobs", "1"]) == 1
    serial = capsys.readouterr()
    assert main(["text", str(path), "--jobs", "2"]) == 1
    parallel = capsys.readouterr()
    assert parallel.out == serial.out == ""
    assert parallel.err == serial.err == (
        f"layoutkit: error: {path}: page 5 cannot be read (PDFium cannot load it)\n")


@pytest.mark.parametrize("jobs", [0, -1, 1.5, True])
def test_api_jobs_must_be_a_positive_whole_number(jobs: object) -> None:
    """A jobs value that is not a whole number >= 1 is a usage error naming it."""
    with pytest.raises(layoutkit.UsageError, match=r"jobs: expected a whole number"):
        layoutkit.parse(FR, pages="1", jobs=jobs)  # type: ignore[arg-type]


def test_api_cli_jobs_zero_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """`--jobs 0` on the command line is a one-line usage error, exit status 2."""
    assert main(["text", str(FR), "--pages", "1", "--jobs", "0"]) == 2
    err = capsys.readouterr().err
    assert err == "layoutkit: error: jobs: expected a whole number of processes >= 1, got 0\n"


def test_api_pages_given_as_numbers_or_spec_agree() -> None:
    """Pages given as numbers and as a spec string select the same pages."""
    assert [p.page_no for p in layoutkit.parse(FR, pages=[7, 5])] == [5, 7]
    assert [p.page_no for p in layoutkit.parse(FR, pages="5,7")] == [5, 7]
