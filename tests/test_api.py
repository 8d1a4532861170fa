"""The parse API: page selection and reading pages in several processes."""

from __future__ import annotations

import dataclasses
import gc
import os
import pickle
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import layoutkit
import layoutkit.pipeline
from fixtures.synthetic import gazette
from layoutkit.cli import main
from layoutkit.errors import PageRangeError
from layoutkit.linetypes import outline
from layoutkit.model import BandKind, BBox, Glyph, Glyphs, Line, LineType, Page, PageGlyphs, Rule
from layoutkit.parallel import AUTO, processes, processors
from tests.handmade import pdf_bytes

FR = Path("fixtures/pdf/federal-register-2020-08-06.pdf")
CR2004 = Path("fixtures/pdf/cleveland-city-record-2004-06-09.pdf")


@dataclass(frozen=True)
class Reading:
    """A document to read and how: which pages, with which profile, tables or not."""

    path: Path
    pages: str | None = None
    profile: str | None = None
    tables: bool = False

    def parse(self, jobs: int = 1) -> layoutkit.Document:
        return layoutkit.parse(self.path, pages=self.pages, profile=self.profile,
                               tables=self.tables, jobs=jobs)


def document(which: str, folder: Path) -> Reading:
    """What to read of a document: some pages of real fixtures (with the City Record
    profile, or the ruled tables found), or every page of a synthetic gazette of mixed
    layouts, four pages (written to ``folder``)."""
    if which == "federal-register":
        return Reading(FR, "4-8")
    if which == "federal-register-tables":
        return Reading(FR, "1-6", tables=True)
    if which == "city-record-2004":
        return Reading(CR2004, "8-13,30")
    if which == "city-record-2004-profile":
        return Reading(CR2004, "1-3,9-12", "cleveland-city-record")
    doc = gazette("mixed", "blocks_shuffled", seed=1)
    path = folder / f"{doc.name}.pdf"
    path.write_bytes(doc.pdf)
    return Reading(path)


@pytest.mark.parametrize(("which", "codes"), [
    ("federal-register", {"h", "f", "b", "h_1", "h_2", "h_3", "lb", "ln"}),
    ("federal-register-tables", {"h", "f", "b", "h_1", "h_2", "h_3", "lb", "ln", "tab"}),
    ("city-record-2004", {"h", "f", "b", "h_1", "h_2", "lb", "ln"}),
    ("city-record-2004-profile", {"h", "f", "b", "toc", "tab", "h_1", "h_2", "lb", "ln"}),
    ("synthetic", {"h", "f", "b", "h_1", "h_2"})])
def test_api_jobs_give_the_same_document(which: str, codes: set[str], tmp_path: Path) -> None:
    """Reading, laying out and typing pages in two or three processes gives exactly the
    document one process gives: every page, band, column, block, line and word, every
    line's type (contents, tables, headings levelled across pages, lists running across
    pages) and so the outline of headings, and the ruled tables found."""
    reading = document(which, tmp_path)
    serial = reading.parse()
    assert len(serial) >= 3
    assert sum(len(page.lines) for page in serial) > 100
    assert {line.code for page in serial for line in page.lines} == codes
    assert bool(serial.tables) is reading.tables
    for jobs in (2, 3):
        parallel = reading.parse(jobs)
        assert parallel == serial
        assert outline(parallel, 2) == outline(serial, 2)


@pytest.mark.parametrize("which", ["federal-register-tables", "city-record-2004-profile",
                                   "synthetic"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_api_untyped_parse_gives_the_same_pages_and_text(which: str, jobs: int,
                                                         tmp_path: Path) -> None:
    """A parse that does not type its lines (``layoutkit text`` without ``--skip``) lays
    out the same lines in the same order with the same text, furniture and all, and
    types them only as the layout does: running headers, footers and body."""
    reading = document(which, tmp_path)
    typed = reading.parse()
    untyped = layoutkit.parse(reading.path, pages=reading.pages, profile=reading.profile,
                              tables=reading.tables, jobs=jobs, typed=False)
    assert {line.code for page in untyped for line in page.lines} == {"h", "f", "b"}
    assert {line.code for page in typed for line in page.lines} > {"h", "f", "b"}
    for furniture in (False, True):
        assert untyped.text(furniture=furniture) == typed.text(furniture=furniture)
    assert [[(line.bbox, line.words) for line in page.lines] for page in untyped] == \
        [[(line.bbox, line.words) for line in page.lines] for page in typed]


PROFILE = ("--profile", "cleveland-city-record")


@pytest.mark.parametrize(("command", "options"), [
    (["text"], [*PROFILE]), (["text"], ["--keep-furniture", "--skip", "h_,lb,tab", *PROFILE]),
    (["parse"], ["--toc", "--tables", *PROFILE]), (["tokens"], [*PROFILE]),
    (["nlptext"], [*PROFILE]), (["draw"], ["--dpi", "40", *PROFILE]),
    (["profile", "suggest"], [])])
def test_api_cli_writes_the_same_with_jobs(command: list[str], options: list[str],
                                           tmp_path: Path) -> None:
    """Every file the command line writes (text, the JSON model with its contents and
    tables files, tokens, the NLPTextDocument, the page pictures, a drafted profile) is
    the same, byte for byte, with one, two or three processes, or those chosen (auto)."""
    written = {}
    for jobs in (1, 2, 3, "auto"):
        folder = tmp_path / str(jobs)
        folder.mkdir()
        out = folder / ("pictures" if command == ["draw"] else "out.json")
        assert main([*command, str(CR2004), "--pages", "1-3", "--jobs", str(jobs),
                     "-o", str(out), *options]) == 0
        written[jobs] = {path.relative_to(folder): path.read_bytes()
                         for path in sorted(folder.rglob("*")) if path.is_file()}
    assert written[1]
    assert written[2] == written[1]
    assert written[3] == written[1]
    assert written["auto"] == written[1]


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


def test_api_jobs_keep_a_running_section_that_starts_again(tmp_path: Path) -> None:
    """A section whose start matches again on a later page, while it is running, does
    not start anew there, whichever process lays the page out: the sections a worker
    is sent are told apart by value, not by which copy of the profile they came in."""
    doc = gazette("mixed", "blocks_shuffled", seed=1)
    path = tmp_path / f"{doc.name}.pdf"
    path.write_bytes(doc.pdf)
    starts = [doc.pages[n].lines[len(doc.pages[n].lines) // 2] for n in (1, 2)]
    profile_path = tmp_path / "p.toml"
    pattern = "|".join(re.escape(line) for line in starts)
    profile_path.write_text(f'name = "t"\n[[sections]]\nname = "rest"\nlayout = "auto"\n'
                            f"starts_at = {{ line = '^({pattern})$' }}\n", encoding="utf-8")
    profile = layoutkit.load_profile(profile_path)
    serial = layoutkit.parse(path, profile=profile)
    for jobs in (2, 3):
        assert layoutkit.parse(path, profile=profile, jobs=jobs) == serial


def test_api_jobs_leave_the_garbage_collector_as_it_was() -> None:
    """Objects are frozen out of garbage collection only while worker processes start
    (so that the workers' collections leave the memory they share alone): afterwards as
    many are frozen as before, none or those the caller froze itself."""
    assert gc.get_freeze_count() == 0
    layoutkit.parse(FR, pages="1", jobs=2)
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        layoutkit.parse(FR, pages="1", jobs=2)
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("jobs", [1, 2])
def test_api_parse_leaves_the_collector_as_it_was(jobs: int) -> None:
    """The cyclic garbage collector is paused while a document is read, and left as it
    was: running again after a parse, still paused when the caller had paused it, and
    after a parse that fails too."""
    assert gc.isenabled()
    layoutkit.parse(FR, pages="1", jobs=jobs)
    assert gc.isenabled()
    with pytest.raises(PageRangeError):
        layoutkit.parse(FR, pages="99", jobs=jobs)
    assert gc.isenabled()
    gc.disable()
    try:
        layoutkit.parse(FR, pages="1", jobs=jobs)
        assert not gc.isenabled()
    finally:
        gc.enable()


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


def test_api_pages_pickled_as_columns_come_back_whole() -> None:
    """A page pickled as columns of numbers and strings comes back equal, field by
    field of the same Python types: bands of every kind, typed lines with a level,
    rotated words, fonts shared by words, and a page without a line."""
    page = layoutkit.parse(FR, pages="5").pages[0]
    assert {band.kind for band in page.bands} == set(BandKind)
    line = page.bands[1].columns[0].blocks[0].lines[0]
    word = dataclasses.replace(line.words[0], direction=90)
    heading = dataclasses.replace(line, words=(word, *line.words[1:]),
                                  line_type=LineType.HEADING, level=2)
    page = _with_first_line(page, heading)
    again = pickle.loads(pickle.dumps(page, pickle.HIGHEST_PROTOCOL))
    assert again == page
    first = again.bands[1].columns[0].blocks[0].lines[0]
    assert (first.code, first.words[0].upright, first.words[1].upright) == ("h_2", False, True)
    assert [type(v) for v in (first.bbox.x0, first.words[0].size, first.level, first.block)] == [
        float, float, int, int]
    assert len({w.font for x in again.lines for w in x.words}) < 10 < len(again.lines)
    empty = Page(7, 612.0, 792.0, ())
    assert pickle.loads(pickle.dumps(empty)) == empty


def _with_first_line(page: Page, line: Line) -> Page:
    """``page`` with the first line of its first body band replaced by ``line``."""
    band = page.bands[1]
    column = band.columns[0]
    block = column.blocks[0]
    block = dataclasses.replace(block, lines=(line, *block.lines[1:]))
    column = dataclasses.replace(column, blocks=(block, *column.blocks[1:]))
    band = dataclasses.replace(band, columns=(column, *band.columns[1:]))
    return dataclasses.replace(page, bands=(page.bands[0], band, *page.bands[2:]))


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


@pytest.mark.parametrize("bad", [5, 6])
@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_api_bad_page_fails_as_serially_in_any_process(jobs: int, bad: int,
                                                       tmp_path: Path) -> None:
    """A page that cannot be read raises the same DocumentError, naming the file and the
    page, whichever process read it (with two processes this one reads the odd pages,
    the worker the even ones)."""
    path = broken_pdf(tmp_path, 7, bad)
    with pytest.raises(layoutkit.DocumentError) as raised:
        layoutkit.parse(path, jobs=jobs)
    assert str(raised.value) == f"{path}: page {bad} cannot be read (PDFium cannot load it)"
    assert [p.text() for p in layoutkit.parse(path, pages="1", jobs=jobs)] == ["Page 1 body text"]


def test_api_worker_error_that_does_not_pickle_names_itself(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception raised in a worker that cannot be pickled back (a class of its own,
    defined in a function) reaches the parent as a RuntimeError naming its type and
    message, not as a worker that stopped without a word."""
    parent = os.getpid()
    words = layoutkit.pipeline.words_from_glyphs

    class PageTroubleError(Exception):
        pass

    def fails_in_a_worker(*args: object) -> object:
        if os.getpid() != parent:
            raise PageTroubleError("the page is in trouble")
        return words(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(layoutkit.pipeline, "words_from_glyphs", fails_in_a_worker)
    with pytest.raises(RuntimeError, match=r"^PageTroubleError: the page is in trouble$"):
        layoutkit.parse(FR, jobs=2)


def test_api_worker_that_dies_is_a_document_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker process that ends without a word (killed, out of memory) is a
    DocumentError naming the file and the worker's exit code, not a hang."""
    parent = os.getpid()
    words = layoutkit.pipeline.words_from_glyphs

    def dies_in_a_worker(*args: object) -> object:
        if os.getpid() != parent:
            os._exit(3)
        return words(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(layoutkit.pipeline, "words_from_glyphs", dies_in_a_worker)
    with pytest.raises(layoutkit.DocumentError) as raised:
        layoutkit.parse(FR, jobs=2)
    assert str(raised.value) == \
        f"{FR}: a worker process stopped while reading pages (exit code 3)"


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


@pytest.mark.parametrize("jobs", [0, -1, 1.5, True, "two"])
def test_api_jobs_must_be_a_positive_whole_number(jobs: object) -> None:
    """A jobs value that is neither 'auto' nor a whole number >= 1 is a usage error naming it."""
    with pytest.raises(layoutkit.UsageError, match=r"jobs: expected 'auto' or a whole number"):
        layoutkit.parse(FR, pages="1", jobs=jobs)  # type: ignore[arg-type]


def test_api_auto_jobs_are_one_process_per_processor_with_pages_enough(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``jobs="auto"`` reads on every processor the process may run on (eight at most),
    each process with two pages at least; a number given is taken as it is."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(6)), raising=False)
    assert processors() == 6
    assert [processes(AUTO, pages) for pages in (1, 2, 3, 7, 16, 400)] == [1, 1, 1, 3, 6, 6]
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)
    assert processes(AUTO, 400) == 8
    assert processes(3, 1) == 3


def test_api_cli_jobs_zero_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """`--jobs 0` on the command line is a one-line usage error, exit status 2."""
    assert main(["text", str(FR), "--pages", "1", "--jobs", "0"]) == 2
    err = capsys.readouterr().err
    assert err == ("layoutkit: error: jobs: expected 'auto' or a whole number of processes "
                   ">= 1, got 0\n")


def test_api_pages_given_as_numbers_or_spec_agree() -> None:
    """Pages given as numbers and as a spec string select the same pages."""
    assert [p.page_no for p in layoutkit.parse(FR, pages=[7, 5])] == [5, 7]
    assert [p.page_no for p in layoutkit.parse(FR, pages="5,7")] == [5, 7]
