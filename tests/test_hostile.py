"""Hostile and broken inputs end in one error line, exit status 1 or 2, within a
bounded time and memory: no signal, no traceback, no hang (issue 23).

Each input is made here in a few lines (:mod:`tests.hostile`) and read by the real
command in a process limited to 4 GB of address space, as a worker of two cores and
4 GB would run it; the time limit only stops a hang, it is not what is tested.  It is
a limit of processor time, which other work on the machine does not use up (the
suite runs on two processes, and machines do other things: the 5,000 pages take 44 s
of processor time, and took over four minutes of the clock on a busy machine); the
clock's limit only ends a run that waits without computing."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import layoutkit
from layoutkit import LayoutConfig
from layoutkit.errors import DocumentError
from layoutkit.sources.ocr.scanned import page_image
from tests import hostile

REPO = Path(__file__).resolve().parent.parent
FAULTS = REPO / "tests" / "data" / "faults"
ADDRESS_SPACE = 4 << 30
"""The worker's memory: 4 GB of address space."""
HANG = 90
"""Seconds of processor time after which a run counts as a hang: the kernel kills it
(RLIMIT_CPU), and its status is a signal's, which no test expects."""
WAITING = 600
"""Seconds of the clock after which a run that waits without computing counts as a
hang."""


def _timed() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (HANG, HANG))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file of a run ended


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    _timed()


def read(path: Path, *options: str) -> tuple[int, str]:
    """The exit status and standard error of ``layoutkit text path`` in a process
    limited to :data:`ADDRESS_SPACE`."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "layoutkit", "text", str(path), *options],
                          capture_output=True, text=True, timeout=WAITING, check=False,
                          env=env, preexec_fn=_limited)
    return done.returncode, done.stderr


def one_line(err: str) -> str:
    """The one ``layoutkit: error:`` line of ``err``, after checking there is only it."""
    assert "Traceback" not in err, err
    assert len(err.splitlines()) == 1 and err.startswith("layoutkit: error: "), err
    return err.strip()


@pytest.mark.parametrize(("name", "make", "expected"), [
    ("fan-out.pdf", hostile.form_fan_out,
     "fan-out.pdf: page 1 draws more than 16,000,000 bytes of content"),
    ("operators.pdf", hostile.many_operators,
     "operators.pdf: page 1 draws more than 16,000,000 bytes of content"),
    ("kids.pdf", hostile.repeated_kids,
     "kids.pdf: the page tree lists a page (object 4) more than once"),
    ("cycle.pdf", hostile.forms_drawing_each_other,
     "cycle.pdf: page 1 draws form XObjects that draw each other (object 6 is drawn within "
     "itself), a loop an engine may follow for ever"),
    ("mutual.pdf", lambda: hostile.forms_drawing_each_other(2),
     "mutual.pdf: page 1 draws form XObjects that draw each other (object 6 is drawn within "
     "itself), a loop an engine may follow for ever"),
    ("h_xobject_mutual.pdf", lambda: (FAULTS / "h_xobject_mutual.pdf").read_bytes(),
     "h_xobject_mutual.pdf: page 1 draws form XObjects that draw each other (object 6 is "
     "drawn within itself)"),
    ("annots.pdf", lambda: (FAULTS / "annots_2_5M_in_objstm_textless_page_sigabrt.pdf"
                            ).read_bytes(),
     "annots.pdf: page 1 has more than 10,000 annotations (page_max_annotations), more than "
     "can be read safely"),
    ("appearance.pdf", hostile.appearance_loop,
     "appearance.pdf: page 1 draws form XObjects that draw each other (object 6 is drawn "
     "within itself)"),
    ("xobjects.pdf", hostile.many_resources,
     "xobjects.pdf: page 1 has more than 10,000 resources (fonts, XObjects...) "
     "(page_max_resources), more than can be read safely"),
    ("fonts.pdf", lambda: hostile.many_resources(kind=b"Font"),
     "fonts.pdf: page 1 has more than 10,000 resources (fonts, XObjects...) "
     "(page_max_resources), more than can be read safely"),
    ("blank.pdf", hostile.blank_pages,
     "blank.pdf: no text found on any page, by its text layer or by OCR"),
    ("huge.pdf", lambda: hostile.blank_pages(1, 14400),
     "huge.pdf: no text found on any page, by its text layer or by OCR"),
    ("bomb.png", lambda: hostile.png_header(100_000, 100_000),
     "bomb.png: the image is too large to read"),
    ("large.png", lambda: hostile.png_header(12_000, 10_000),
     "large.png: the image is 12000 x 10000 pixels, more than image_max_pixels (100,000,000)"),
])
@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_hostile_input_is_one_line_and_status_1(tmp_path: Path, name: str, make: object,
                                                 expected: str, engine: str) -> None:
    """A fan-out of forms, millions of operators, a page tree repeating one page, forms
    drawing each other (once, or one the other twice), 2.5 million annotations in an
    object stream, an annotation whose appearance is such a loop of forms, half a
    million XObjects or fonts in a page's resources, 5,000 blank pages, a blank page
    200 inches wide and an image whose header claims ten billion pixels: each one line
    and status 1 (PDFium aborted on the first two, on forms drawing each other twice,
    on the annotations and, rendering the page for OCR, on the appearance; the page
    tree ran for minutes, pdfminer.six for more than a minute on the XObjects, blank
    pages were OCR'd one by one, the large page and the image were tracebacks)."""
    path = tmp_path / name
    path.write_bytes(make())  # type: ignore[operator]
    status, err = read(path, "--engine", engine)
    assert status == 1, err
    assert one_line(err).startswith(f"layoutkit: error: {path.parent}/{expected}"), err


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_page_tree_listing_an_empty_node_again_is_read(tmp_path: Path, engine: str) -> None:
    """An empty node of the page tree listed five times beside the page (an annual
    report's tree repeats its empty nodes so; every other reader reads it) holds no
    page to read twice: the page is read, where the document was refused as a page
    tree listing a node more than once."""
    path = tmp_path / "empty-nodes.pdf"
    path.write_bytes(hostile.repeated_empty_node())
    document = layoutkit.parse(path, engine=engine)
    assert [page.text() for page in document] == ["once"]


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_input_that_is_not_a_regular_file_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    """A FIFO (which would hang the reader) or a device is refused before it is opened."""
    if kind == "fifo":
        path = tmp_path / "input.pdf"
        os.mkfifo(path)
    else:
        path = Path("/dev/zero")
    status, err = read(path)
    what = "a FIFO" if kind == "fifo" else "a device"
    assert (status, one_line(err)) == (2, f"layoutkit: error: {path}: is {what}, expected a "
                                          f"PDF file")


def test_page_image_fits_the_pixel_budget(tmp_path: Path) -> None:
    """A page 200 inches square is rendered for OCR at the resolution that fits
    ``ocr_max_pixels`` (not at ocr_dpi, which would need 3.6 billion pixels), and the
    points per pixel say so."""
    path = tmp_path / "drawn.pdf"
    path.write_bytes(hostile.drawn_page(14400))
    config = LayoutConfig().replace(ocr_max_pixels=1_000_000)
    image, scale = page_image(path, 1, config)
    assert image.width * image.height <= 1_000_000
    assert image.width == 1000
    assert scale == pytest.approx(14400 / 1000)


def test_page_image_of_a_document_pdfium_refuses_names_the_page(tmp_path: Path) -> None:
    """A document PDFium cannot open (read by pdfminer.six, then sent to OCR) is a
    DocumentError naming the page, not a PdfiumError."""
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.4\nnothing else\n")
    with pytest.raises(DocumentError, match=r"broken\.pdf: page 1: PDFium cannot open the "
                                            r"document to render the page"):
        page_image(path, 1, LayoutConfig())


def test_structure_check_passes_every_corpus_document() -> None:
    """The check refuses none of the corpus's documents: a page whose content comes in
    many small streams (the Diário da República's first page, 130 kB in all) is
    measured by what they hold, not by a bound summed over them."""
    from layoutkit.sources.guard import check_structure

    documents = sorted((REPO / "fixtures").glob("*/*.pdf"))
    assert len(documents) >= 30
    for path in documents:
        check_structure(path, LayoutConfig().sources)


def _unread_warning(path: Path, page: int, reason: str) -> str:
    return f"layoutkit: {path}: page {page} {reason}; it is left unread (empty in the output)"


_TOO_MUCH = ("draws more than 16,000,000 bytes of content (page_max_content_bytes; its forms "
             "counted each time they are drawn), more than can be read safely")


_TOO_DEEP = ("draws form XObjects nested more than 30 deep (page_max_form_depth), more than "
             "can be read safely")
_TOO_MANY = ("has more than 10,000 annotations (page_max_annotations), more than can be read "
             "safely")
_NAMES_TOO_MANY = ("has more than 10,000 resources (fonts, XObjects...) (page_max_resources), "
                   "more than can be read safely")


@pytest.mark.parametrize(("name", "make", "reason"), [
    ("fan-out.pdf", lambda: hostile.form_fan_out(between=True), _TOO_MUCH),
    ("operators.pdf", lambda: hostile.many_operators(between=True), _TOO_MUCH),
    ("chain.pdf", lambda: hostile.form_chain(31, between=True), _TOO_DEEP),
    ("annots.pdf", lambda: hostile.many_annotations(10_001, between=True), _TOO_MANY),
    ("fonts.pdf", lambda: hostile.many_resources(10_000, b"Font", between=True),
     _NAMES_TOO_MANY),
])
@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_page_past_its_budget_is_left_unread_and_the_others_read(
        tmp_path: Path, name: str, make: object, reason: str, engine: str) -> None:
    """A page past page_max_content_bytes, page_max_form_depth or page_max_annotations
    between two pages of text: one warning naming the file, the page and the budget;
    the other pages written, the unread page's form feeds kept so that the pages keep
    their numbers; exit status 1 (read in part)."""
    path, out = tmp_path / name, tmp_path / "out.txt"
    path.write_bytes(make())  # type: ignore[operator]
    status, err = read(path, "--engine", engine, "-o", str(out))
    assert (status, err) == (1, _unread_warning(path, 2, reason) + "\n")
    assert out.read_text(encoding="utf-8") == "before\n\f\n\fafter\n"


def test_unread_page_in_json_and_in_the_api(tmp_path: Path) -> None:
    """``parse`` writes the unread page with its reason and no lines (a JSON the schema
    allows); the API's Document names it in ``unreadable``."""
    import json

    import jsonschema

    import layoutkit
    from layoutkit.model.codec import json_schema

    path, out = tmp_path / "fan-out.pdf", tmp_path / "out.json"
    path.write_bytes(hostile.form_fan_out(between=True))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "layoutkit", "parse", str(path), "-o", str(out)],
                          capture_output=True, text=True, timeout=WAITING, check=False,
                          env=env, preexec_fn=_timed)
    assert done.returncode == 1, done.stderr
    written = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(written, json_schema())
    assert [(p["pageNo"], p.get("unreadable"), len(p["lines"])) for p in written["pages"]] == [
        (1, None, 1), (2, _TOO_MUCH, 0), (3, None, 1)]
    document = layoutkit.parse(path)
    assert document.unreadable == {2: _TOO_MUCH}
    assert [page.text() for page in document.pages] == ["before", "", "after"]


def test_every_page_unread_is_the_document_error(tmp_path: Path) -> None:
    """When no page asked for can be read, the document is the error (one line, exit 1,
    no output), the first page's reason."""
    path = tmp_path / "fan-out.pdf"
    path.write_bytes(hostile.form_fan_out(between=True))
    status, err = read(path, "--pages", "2")
    assert (status, one_line(err)) == (1, f"layoutkit: error: {path}: page 2 {_TOO_MUCH}")


@pytest.mark.parametrize(("setting", "reason"), [
    ("page_max_memory=10000000", "needed more memory than page_max_memory (10,000,000 bytes) "
                                 "to read, in a process of its own"),
    ("page_max_seconds=0.000001", "took more than page_max_seconds (1e-06 s) to read, in a "
                                  "process of its own"),
])
def test_page_read_alone_past_its_budget_is_left_unread(tmp_path: Path, setting: str,
                                                         reason: str) -> None:
    """A page drawing more than page_alone_content_bytes (a million operators, 7 MB) is
    read in a process of its own: past its memory or time budget that process is
    stopped (an abort in PDFium would end it too) and the page is left unread, the
    others read."""
    path, out = tmp_path / "operators.pdf", tmp_path / "out.txt"
    path.write_bytes(hostile.many_operators(1_000_000, between=True))
    status, err = read(path, "--set", setting, "-o", str(out))
    assert (status, err) == (1, _unread_warning(path, 2, reason) + "\n")
    assert out.read_text(encoding="utf-8") == "before\n\f\n\fafter\n"


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_page_read_alone_is_the_page_read_here(engine: str) -> None:
    """A page read in a process of its own gives the glyphs, rules and pictures it gives
    read in this one (a corpus page, its first and its densest)."""
    from layoutkit.sources import open_source
    from layoutkit.sources.alone import read_alone

    path = REPO / "fixtures" / "pdf" / "federal-register-2020-08-06.pdf"
    with open_source(path, engine) as source:
        here = list(source.pages([1, 2]))
    assert [read_alone(path, engine, n, LayoutConfig()) for n in (1, 2)] == here
    assert all(len(page.glyphs) > 1000 for page in here)


def test_five_thousand_pages_in_a_4_gb_worker(tmp_path: Path) -> None:
    """5,000 pages of one line each, read under the 4 GB address-space cap, are read
    whole (OpenCV ran out of memory on them when all pages were held at once)."""
    path, out = tmp_path / "lines.pdf", tmp_path / "out.txt"
    path.write_bytes(hostile.one_line_pages(5000))
    status, err = read(path, "-q", "-o", str(out))
    assert (status, err) == (0, "")
    pages = out.read_text(encoding="utf-8").split("\n\f")
    assert len(pages) == 5000
    assert (pages[0], pages[4999]) == ("page 1", "page 5000\n")


REWRITTEN = {"tagged", "usertrain", "figures"}
"""Fixture folders whose files a tool wrote again (`tools/tagged_corpus.py` and
`tools/usertrain_corpus.py` cut pages with qpdf, as `fixtures/README.md` says the
figure pages were cut)."""


def test_structure_check_of_plain_pdfs_is_pdfminers() -> None:
    """The structure check reads a plain PDF (a cross-reference table, not encrypted)
    with regular expressions, any other with pdfminer.six: on every corpus document and
    every hostile one, it measures the same pages as pdfminer.six alone (with a low
    page_alone_content_bytes, so that many pages are measured), and refuses the same
    page trees; the plain reader reads the speed document and most of the documents as
    their producers made them (the pages cut from tagged PDFs are qpdf's files, written
    with cross-reference streams, and say nothing of their producers')."""
    from layoutkit.sources import guard
    from layoutkit.sources.plain_pdf import NotPlainError, PlainPdf

    config = LayoutConfig().replace(page_alone_content_bytes=20_000).sources
    hostile_documents = {"fan-out": hostile.form_fan_out(between=True),
                         "operators": hostile.many_operators(between=True),
                         "kids": hostile.repeated_kids(1000),
                         "cycle": hostile.forms_drawing_each_other(),
                         "mutual": hostile.forms_drawing_each_other(2),
                         "chain": hostile.form_chain(31),
                         "annots": hostile.many_annotations(10_001),
                         "xobjects": hostile.many_resources(10_001),
                         "appearance": hostile.appearance_loop()}

    def verdict(path: Path, objects: object) -> object:
        try:
            return guard._checked(path, config, objects)  # type: ignore[arg-type]
        except DocumentError as exc:
            return str(exc)

    def plain(path: Path) -> bool:
        try:
            PlainPdf(path).close()
        except NotPlainError:
            return False
        return True

    documents = sorted((REPO / "fixtures").glob("*/*.pdf"))
    with tempfile.TemporaryDirectory() as folder:
        for name, data in hostile_documents.items():
            (Path(folder) / f"{name}.pdf").write_bytes(data)
            documents.append(Path(folder) / f"{name}.pdf")
        measured = 0
        for path in documents:
            found = verdict(path, guard._Pdfminer)
            try:
                checked: object = guard.check_structure(path, config)
            except DocumentError as exc:
                checked = str(exc)
            assert checked == found, path.name
            measured += len(found) if isinstance(found, dict) else 0
        as_made = [p for p in documents if p.parent.name not in REWRITTEN]
        read_plain = [p.name for p in as_made if plain(p)]
    assert measured > 200
    assert "cleveland-city-record-2016-04-27.pdf" in read_plain
    assert len(read_plain) > len(as_made) / 2
    assert all(f"{name}.pdf" in read_plain for name in hostile_documents)


@pytest.mark.parametrize(("setting", "expected"), [
    ("page_max_form_depth=30", {}),
    ("page_max_form_depth=29", {2: _TOO_DEEP.replace("30", "29")}),
    ("page_max_annotations=10001", {}),
    ("page_max_annotations=10000", {2: _TOO_MANY}),
    ("page_max_resources=10001", {}),
    ("page_max_resources=10000", {2: _NAMES_TOO_MANY}),
])
def test_page_budgets_hold_to_the_count(tmp_path: Path, setting: str, expected: object) -> None:
    """Forms nested 30 deep, 10,001 annotations and 10,001 resources (each counted in
    the text of an indirect object) are within budgets of 30 and 10,001, and refused
    one below; the other pages of the document are not touched."""
    from layoutkit.sources.guard import check_structure

    key, value = setting.split("=")
    config = LayoutConfig().replace(**{key: int(value)}).sources
    path = tmp_path / "page.pdf"
    path.write_bytes(hostile.form_chain(30, between=True) if "depth" in key
                     else hostile.many_annotations(10_001, between=True) if "annot" in key
                     else hostile.many_resources(10_000, b"Font", between=True))
    refused = {n: risk.reason(config) for n, risk in check_structure(path, config).items()}
    assert refused == expected


def test_annotations_in_an_object_stream_are_counted_by_both_readers() -> None:
    """The 2.5 million references of an /Annots array in an object stream are counted
    in its text (pdfminer.six took 47 s to parse them), past the budget: the structure
    check refuses the page within seconds."""
    from layoutkit.sources import guard

    path = FAULTS / "annots_2_5M_in_objstm_textless_page_sigabrt.pdf"
    config = LayoutConfig().sources
    with path.open("rb") as stream:
        reader = guard._Pdfminer(stream)
        annots = next(guard._leaves(path, reader))[3]
        assert reader.entries(annots, 3_000_000) == 2_500_000
    risk = guard.check_structure(path, config)[1]
    assert risk.reason(config) == _TOO_MANY


@pytest.mark.parametrize(("name", "make"), [
    ("dct.pdf", lambda: hostile.image_bomb("dct", 60_000)),
    ("ccitt.pdf", lambda: hostile.image_bomb("ccitt", 100_000)),
    ("flate.pdf", lambda: hostile.image_bomb("flate", 40_000)),
    ("jbig2.pdf", lambda: hostile.image_bomb("jbig2", 65_535)),
])
def test_image_bomb_on_a_page_without_text_is_one_line(tmp_path: Path, name: str,
                                                       make: object) -> None:
    """A page drawing one image whose dictionary claims 60,000 (JPEG), 100,000 (Group 4
    fax), 40,000 (Flate, a megabyte of its 1.6 GB given) or 65,535 (JBIG2) pixels
    square, from a stream of a few kilobytes: the page has no text layer and is
    rendered for OCR within ocr_max_pixels, which finds nothing: one line, exit 1 (the
    Flate one, 8 s, is the slowest: the cost is in drawing it, not in its data)."""
    path = tmp_path / name
    path.write_bytes(make())  # type: ignore[operator]
    status, err = read(path)
    assert (status, one_line(err)) == (
        1, f"layoutkit: error: {path}: no text found on any page, by its text layer or by OCR")


def _text(path: Path, *options: str) -> tuple[int, str, str]:
    """The exit status, standard error and output of ``layoutkit text path`` under the
    address-space limit."""
    out = path.with_suffix(".txt")
    status, err = read(path, "-o", str(out), *options)
    assert "Traceback" not in err, err
    return status, err, out.read_text(encoding="utf-8") if out.exists() else ""


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_outline_100000_deep_is_not_followed(tmp_path: Path, engine: str) -> None:
    """An outline of 100,000 bookmarks each inside the one before (14 MB) does not
    reach the text: the page is read whole, exit 0, no warning."""
    path = tmp_path / "outline.pdf"
    path.write_bytes(hostile.deep_outline(100_000))
    assert _text(path, "--engine", engine) == (0, "", "outlined\n")


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_type3_glyph_of_a_million_segments_is_read(tmp_path: Path, engine: str) -> None:
    """A Type 3 font whose one glyph program strokes a million segments (12 MB of
    operators from a few kilobytes), drawn 200 times: its glyphs are read as text
    beside the Helvetica line, without running into the content budget (PDFium
    separates the glyphs by spaces, pdfminer.six does not)."""
    path = tmp_path / "type3.pdf"
    path.write_bytes(hostile.type3_glyph_program(1_000_000, 200))
    status, err, text = _text(path, "--engine", engine)
    assert (status, err) == (0, "")
    first, second = text.splitlines()
    assert (first, second.replace(" ", "")) == ("visible", "g" * 200)


@pytest.mark.parametrize("content_bytes", [3_990_000, 15_900_000])
def test_millions_of_glyphs_on_one_page_are_read(tmp_path: Path, content_bytes: int) -> None:
    """3.9 million glyphs in a content stream under 4 MB (read in this process) and 15.7
    million under 16 MB (past page_alone_content_bytes, read in a process of its own)
    in rows 0.1 point apart, most of them below the page: the row on the page is read,
    exit 0, in a few seconds with PDFium (pdfminer.six, the other engine, takes 25 to
    45 s and ends at the memory budget, one line)."""
    path = tmp_path / "glyphs.pdf"
    path.write_bytes(hostile.glyph_rows(content_bytes))
    assert _text(path) == (0, "", "x" * 390 + "\n")


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_million_annotations_on_a_page_of_text_are_one_line(tmp_path: Path,
                                                             engine: str) -> None:
    """A page whose /Annots lists one annotation a million times (6 MB, a plain array
    rather than in an object stream) is refused by the annotation budget: one line,
    exit 1."""
    path = tmp_path / "annots.pdf"
    path.write_bytes(hostile.many_annotations(1_000_000))
    status, err = read(path, "--engine", engine)
    assert (status, one_line(err)) == (
        1, f"layoutkit: error: {path}: page 1 {_TOO_MANY}")
