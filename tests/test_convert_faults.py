"""The converters of ``layoutkit batch`` read the inbox's document alone: no file of the
machine (``.. include:: /etc/passwd``, an image by path or ``file://``), no address on
the network, within a memory and a time bound whose end leaves no process running;
and an image of 10,000 frames is read a frame at a time, within ``image_max_frames``,
its blank frames never OCR'd.

The reproducers are in ``tests/data/faults`` (see its README); their fixed addresses
are pointed at a loopback HTTP server and files of the test's own before converting.
"""

from __future__ import annotations

import http.server
import io
import logging
import os
import re
import resource
import shutil
import struct
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2_raw as pdfium_c  # type: ignore[import-untyped]
import pytest
from PIL import Image

from layoutkit.batch import BatchOptions, run_batch
from layoutkit.config import SourcesConfig
from layoutkit.errors import DocumentError
from layoutkit.sources import bounded
from layoutkit.sources.convert import to_pdf
from tests.test_batch_faults import statuses

REPO = Path(__file__).resolve().parent.parent
FAULTS = REPO / "tests" / "data" / "faults"
ADDRESS_SPACE = 4 << 30
"""A worker's memory: 4 GB of address space."""
HANG = 90
"""Seconds after which a run counts as a hang."""
PASSWD = "root:x:0:0"
"""What /etc/passwd holds on every Linux machine."""

needs_converters = pytest.mark.skipif(
    shutil.which("pandoc") is None or shutil.which("soffice") is None,
    reason="pandoc and LibreOffice are not installed (make system)")


class _Recorder(http.server.BaseHTTPRequestHandler):
    """Answers every request 404, recording its path in the server's ``hits``."""

    def do_GET(self) -> None:
        self.server.hits.append(self.path)  # type: ignore[attr-defined]
        self.send_response(404)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


@pytest.fixture
def server() -> Iterator[tuple[int, list[str]]]:
    """A loopback HTTP server: its port, and the paths requested of it."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    httpd.hits = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1], httpd.hits  # type: ignore[attr-defined]
    httpd.shutdown()
    httpd.server_close()


def _pointed(name: str, folder: Path, port: int, outside: Path) -> Path:
    """The reproducer ``name`` copied into ``folder``, its server, image and files
    pointed at the test's, made in ``outside``: ``secret.png`` (a picture the PDF must
    not show), ``canary.txt`` (text it must not hold), and the macro's mark ``PWNED``."""
    Image.new("RGB", (37, 41), (200, 10, 10)).save(outside / "secret.png")
    (outside / "canary.txt").write_text("CANARY-TEXT-OF-THE-MACHINE\n", encoding="utf-8")
    changes = {b"127.0.0.1:8765": f"127.0.0.1:{port}".encode(),
               b"/usr/share/pixmaps/secret.png": str(outside / "secret.png").encode(),
               b"/tmp/layoutkit-probe/canary.txt": str(outside / "canary.txt").encode(),
               b"/tmp/layoutkit-probe/PWNED-by-macro": str(outside / "PWNED").encode()}

    def pointed(data: bytes) -> bytes:
        for old, new in changes.items():
            data = data.replace(old, new)
        return data

    target = folder / name
    if name.endswith(".odt"):
        with zipfile.ZipFile(FAULTS / name) as given, zipfile.ZipFile(target, "w") as made:
            for item in given.infolist():
                made.writestr(item, pointed(given.read(item.filename)))
    else:
        target.write_bytes(pointed((FAULTS / name).read_bytes()))
    return target


def _linked_docx(folder: Path, port: int) -> Path:
    """A DOCX made by pandoc whose picture is linked, not embedded, from the server
    (``r:link``, an external relationship), with a second linked from a file of the
    machine and an ``INCLUDETEXT`` field of /etc/passwd (LibreOffice fetched the
    first)."""
    made = folder / "made.docx"
    subprocess.run(["pandoc", "--from", "markdown", "--output", str(made)], check=True,
                   input=f"# Title\n\nAn ordinary paragraph of text.\n\n"
                         f"![]({folder / 'secret.png'})\n", text=True, capture_output=True)
    field = ('<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText '
             'xml:space="preserve"> INCLUDETEXT "/etc/passwd" </w:instrText></w:r><w:r>'
             '<w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>included</w:t></w:r><w:r>'
             '<w:fldChar w:fldCharType="end"/></w:r></w:p>')
    target = folder / "linked.docx"
    with zipfile.ZipFile(made) as given, zipfile.ZipFile(target, "w") as linked:
        for item in given.infolist():
            data = given.read(item.filename).decode("utf-8", "surrogateescape")
            if item.filename == "word/_rels/document.xml.rels":
                data = re.sub(r'Target="media/([^"]+)"', f'Target="http://127.0.0.1:{port}/'
                              r'docx-\1" TargetMode="External"', data)
                data = data.replace("</Relationships>", (
                    '<Relationship Id="rIdSecret" Type="http://schemas.openxmlformats.org/'
                    'officeDocument/2006/relationships/image" Target="file://'
                    f'{folder / "secret.png"}" TargetMode="External"/></Relationships>'))
            elif item.filename == "word/document.xml":
                data = data.replace("r:embed=", "r:link=").replace("<w:sectPr", field
                                                                     + "<w:sectPr", 1)
            linked.writestr(item, data.encode("utf-8", "surrogateescape"))
    made.unlink()
    return target


def _pdf_text_and_images(path: Path) -> tuple[str, int]:
    """The text of the PDF at ``path`` and the number of pictures it draws."""
    pdf = pdfium.PdfDocument(path)
    try:
        text = "".join(page.get_textpage().get_text_range() for page in pdf)
        images = sum(len(list(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE])))
                     for page in pdf)
    finally:
        pdf.close()
    return text, images


@needs_converters
def test_batch_include_of_etc_passwd_leaves_no_trace_in_any_output(tmp_path: Path) -> None:
    """``.. include:: /etc/passwd`` (``:literal:``) and ``.. image::`` of a file of the
    machine: the document is read without them, and nothing of /etc/passwd or the
    picture is in text.txt, document.json or the converted PDF (pandoc copied the file
    into all three); a ``csv-table`` reading /etc/passwd fails its document in one
    line saying so."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    _pointed("convert_rst_include_etc_passwd.rst", inbox, 1, tmp_path)
    (inbox / "table.rst").write_text("Table\n=====\n\nAn ordinary paragraph of text.\n\n"
                                     ".. csv-table:: Users\n   :file: /etc/passwd\n")
    run_batch(BatchOptions(inbox, out))
    found = statuses(out)
    assert found["convert_rst_include_etc_passwd.rst"] == ("done", None)
    status, error = found["table.rst"]
    assert status == "failed" and error is not None
    assert error.startswith("convert: it reads a file or address outside itself, which "
                            "converters may not (File /etc/passwd not found"), error
    [folder] = [p for p in out.iterdir() if p.name.startswith("convert_rst")]
    text = (folder / "text.txt").read_text(encoding="utf-8")
    assert "An ordinary paragraph of text." in text
    assert PASSWD not in text
    assert PASSWD not in (folder / "document.json").read_text(encoding="utf-8")
    [pdf] = folder.glob("*.pdf")
    pdf_text, images = _pdf_text_and_images(pdf)
    assert "ordinary paragraph" in pdf_text and PASSWD not in pdf_text
    assert images == 0


@needs_converters
@pytest.mark.parametrize("namespace", [True, False], ids=["namespace", "settings-alone"])
def test_converters_read_nothing_outside_the_document_and_reach_no_address(
        tmp_path: Path, server: tuple[int, list[str]], namespace: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An image by absolute path (Markdown, reStructuredText), an HTML page's stylesheet
    and images (http and ``file://``), an ODT's linked image, linked section, linked
    object and load macro, a DOCX's linked pictures and ``INCLUDETEXT`` field:
    converted without any of them (the PDFs show no picture, no text of the linked
    files), and no request reaches the loopback server, in a network namespace of its
    own or, where none is permitted, by the converters' settings alone (both embedded
    the picture; LibreOffice fetched the stylesheet and the images, pandoc the remote
    image)."""
    if not namespace:
        monkeypatch.setattr(bounded, "offline_prefix", lambda: ())
    elif not bounded.offline_prefix():
        pytest.skip("no network namespace permitted here")
    port, hits = server
    (tmp_path / "image.rst").write_text(
        f"Title\n=====\n\nAn ordinary paragraph of text.\n\n.. image:: {tmp_path}/secret.png\n"
        f"\n.. image:: http://127.0.0.1:{port}/rst.png\n", encoding="utf-8")
    sources = [_pointed(name, tmp_path, port, tmp_path) for name in (
        "convert_md_embeds_local_image.md", "convert_html_fetches_network_and_local_image.html",
        "convert_odt_remote_image_linked_section_macro.odt")]
    sources += [tmp_path / "image.rst", _linked_docx(tmp_path, port)]
    for source in sources:
        target = tmp_path / f"{source.name}.pdf"
        to_pdf(source, target)
        text, images = _pdf_text_and_images(target)
        assert "ordinary paragraph" in text, source.name
        assert images == 0, source.name
        assert "CANARY" not in text and PASSWD not in text, source.name
    time.sleep(0.5)  # a request on its way
    assert hits == []
    assert not (tmp_path / "PWNED").exists()


@needs_converters
def test_include_of_dev_zero_ends_at_once_with_one_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """``.. include:: /dev/zero``: pandoc grew to 1.4 GB in 10 s, bounded only by the
    time limit; it is now left out, with one warning naming it, and the rest of the
    document converted."""
    source = tmp_path / "zero.rst"
    shutil.copy(FAULTS / "convert_rst_include_dev_zero_memory.rst", source)
    with caplog.at_level(logging.WARNING):
        assert to_pdf(source, tmp_path / "zero.pdf") is None
    assert [r.getMessage() for r in caplog.records] == [
        f"{source}: left out what it reads from outside itself (converters read the "
        "document alone): /dev/zero"]
    text, _ = _pdf_text_and_images(tmp_path / "zero.pdf")
    assert "Some text." in text


def test_bounded_run_stops_at_its_memory_bound(tmp_path: Path) -> None:
    """A converter that asks for more than its address-space bound fails on its own
    (a child allocating 2 GB under a bound of 300 MB)."""
    ended = bounded.run_bounded([sys.executable, "-c", "b = bytearray(2_000_000_000)"],
                                seconds=HANG, memory=300_000_000, cwd=tmp_path)
    assert not ended.timed_out
    assert ended.returncode == 1
    assert ended.stderr.strip().splitlines()[-1] == "MemoryError"


@needs_converters
def test_converter_past_its_memory_bound_is_one_line(tmp_path: Path) -> None:
    """pandoc given less memory than it needs fails its document in one line naming
    the bound."""
    source = tmp_path / "notes.md"
    source.write_text("# Notes\n\nAn ordinary paragraph.\n", encoding="utf-8")
    with pytest.raises(DocumentError) as caught:
        to_pdf(source, tmp_path / "notes.pdf", SourcesConfig(convert_max_memory=300_000_000))
    assert str(caught.value) == (f"{source}: pandoc ran out of memory within its bound of "
                                 "300,000,000 bytes (convert_max_memory); it was stopped")


def _converter_processes(marker: str) -> list[tuple[int, str]]:
    """The processes running (zombies left out) whose command line holds ``marker``,
    with their command lines."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            state = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()[0]
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(
                "utf-8", "replace")
        except (OSError, IndexError):
            continue
        if marker in command and state not in (b"Z", b"X"):
            found.append((int(entry.name), command))
    return found


@needs_converters
def test_time_bound_ends_every_process_of_the_converter(tmp_path: Path) -> None:
    """A document LibreOffice takes longer than ``convert_max_seconds`` over: one line
    naming the bound, and no process of the conversion left (soffice.bin kept running,
    re-parented to pid 1, when only oosplash was killed)."""
    big = tmp_path / "big.rtf"
    big.write_text("{\\rtf1\\ansi " + "".join(
        f"Paragraph {i} of a long document that LibreOffice takes a while to render.\\par\n"
        for i in range(100_000)) + "}", encoding="ascii")
    seen: set[str] = set()
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            seen.update(command.split()[0] for _, command in _converter_processes(str(tmp_path)))
            time.sleep(0.2)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with pytest.raises(DocumentError) as caught:
            to_pdf(big, tmp_path / "big.pdf", SourcesConfig(convert_max_seconds=6.0))
    finally:
        stop.set()
        watcher.join()
    assert str(caught.value) == (f"{big}: soffice took over 6 s (convert_max_seconds); it "
                                 "was stopped, with every process it started")
    assert any(name.endswith("soffice.bin") for name in seen), seen
    assert _converter_processes(str(tmp_path)) == []
    assert not (tmp_path / "big.pdf").exists()


_TYPE_SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8}
"""The bytes of one value of each TIFF field type."""


def blank_tiff(path: Path, frames: int, size: tuple[int, int] = (2550, 3300)) -> Path:
    """A TIFF at ``path`` of ``frames`` blank bilevel frames of ``size`` pixels at 300
    dpi, Group 4 compressed, made in a moment: one frame written by Pillow, its
    directory (with its values stored apart) then repeated ``frames - 1`` times, each
    pointing at the same compressed strips (10,000 frames: 3 MB; Pillow would encode
    each frame, for minutes)."""
    one = io.BytesIO()
    Image.new("1", size, 1).save(one, "TIFF", compression="group4", dpi=(300, 300))
    data = bytearray(one.getvalue())
    assert data[:4] == b"II*\0"
    first = struct.unpack_from("<I", data, 4)[0]
    count = struct.unpack_from("<H", data, first)[0]
    entries = [bytes(data[first + 2 + 12 * k:first + 14 + 12 * k]) for k in range(count)]
    next_at = first + 2 + 12 * count  # where each directory points at the next
    for _ in range(frames - 1):
        copied = []
        for entry in entries:
            kind, number, offset = struct.unpack_from("<HII", entry, 2)
            length = _TYPE_SIZES.get(kind, 1) * number
            if length > 4:  # its values stored apart: a copy of them for this frame
                data += b"\0" * (len(data) % 2)
                entry = entry[:8] + struct.pack("<I", len(data))
                data += data[offset:offset + length]
            copied.append(entry)
        data += b"\0" * (len(data) % 2)
        struct.pack_into("<I", data, next_at, len(data))
        next_at = len(data) + 2 + 12 * count
        data += struct.pack("<H", count) + b"".join(copied) + b"\0\0\0\0"
    path.write_bytes(bytes(data))
    return path


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def test_tiff_of_10000_blank_frames_is_read_within_its_budget(tmp_path: Path) -> None:
    """``layoutkit text`` on a TIFF of 10,000 blank frames, in 4 GB: the frames past
    ``image_max_frames`` are left unread with one warning, the blank frames are told
    blank from their extrema, not OCR'd (1.25 s a frame: every frame was, for hours),
    and the run ends in one error line, no traceback."""
    tiff = blank_tiff(tmp_path / "blank.tiff", 10_000)
    with Image.open(tiff) as image:
        assert image.n_frames == 10_000
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "layoutkit", "text", str(tiff), "--set",
                           "image_max_frames=100"], capture_output=True, text=True,
                          timeout=HANG, check=False, env=env, preexec_fn=_limited)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"layoutkit: {tiff}: the frames past the first 100 are left unread (image_max_frames)",
        f"layoutkit: error: {tiff}: no text found on any page, by its text layer or by OCR"]


_CONVERT_FRAMES = """
import resource, sys
from pathlib import Path
from layoutkit.sources.convert import to_pdf
from layoutkit.config import SourcesConfig
left = to_pdf(Path(sys.argv[1]), Path(sys.argv[2]),
              SourcesConfig(image_max_frames=int(sys.argv[3])))
print(left)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


def test_tiff_frames_are_converted_one_at_a_time(tmp_path: Path) -> None:
    """In batch, the TIFF of 10,000 blank frames is made into a PDF of its first
    ``image_max_frames`` frames, a frame at a time (every frame was held in RGB at once,
    25 MB each: a MemoryError in 4 GB), each blank frame an empty page; what is left
    unread is said.  Ten times the frames take no more memory than a frame's more
    (the peak of 300 frames against that of 30, in the same run)."""
    tiff = blank_tiff(tmp_path / "blank.tiff", 10_000)
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def convert(frames: int) -> tuple[str, int]:
        done = subprocess.run([sys.executable, "-c", _CONVERT_FRAMES, str(tiff),
                               str(tmp_path / "blank.pdf"), str(frames)], capture_output=True,
                              text=True, timeout=HANG, check=False, env=env,
                              preexec_fn=_limited)
        assert done.returncode == 0, done.stderr
        left, peak = done.stdout.splitlines()
        return left, int(peak)

    _, few = convert(30)
    left, many = convert(300)
    assert left == "the frames past the first 300 are left unread (image_max_frames)"
    assert many - few < 30_000_000, (few, many)  # one frame in RGB: 25 MB; 270 more: 6.8 GB
    pdf = pdfium.PdfDocument(tmp_path / "blank.pdf")
    try:
        assert len(pdf) == 300
        assert [round(v) for v in pdf[299].get_size()] == [612, 792]
    finally:
        pdf.close()
    _, images = _pdf_text_and_images(tmp_path / "blank.pdf")
    assert images == 0


def test_image_frames_with_ink_keep_their_picture(tmp_path: Path) -> None:
    """Frames with something on them become pages showing them (bilevel and grey
    kept as they are, a palette frame in RGB); a frame of one colour an empty page."""
    inked = Image.new("L", (200, 100), 255)
    inked.paste(0, (20, 20, 80, 60))
    palette = inked.convert("P")
    source = tmp_path / "three.tiff"
    inked.save(source, save_all=True, append_images=[Image.new("L", (200, 100), 128), palette],
               dpi=(100, 100))
    assert to_pdf(source, tmp_path / "three.pdf") is None
    pdf = pdfium.PdfDocument(tmp_path / "three.pdf")
    try:
        drawn = [len(list(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE])))
                 for page in pdf]
        sizes = [[round(v) for v in page.get_size()] for page in pdf]
    finally:
        pdf.close()
    assert drawn == [1, 0, 1]
    assert sizes == [[144, 72]] * 3


def test_image_source_reads_no_frame_past_its_budget(tmp_path: Path) -> None:
    """An image opened with a budget of frames has as many pages as the budget allows,
    and says frames are left past them; within the budget it says none are."""
    from layoutkit.sources.images import ImageSource

    path = blank_tiff(tmp_path / "five.tiff", 5, (300, 200))
    source = ImageSource(path, 300, max_frames=3)
    assert (source.page_count, source.more) == (3, True)
    source = ImageSource(path, 300, max_frames=5)
    assert (source.page_count, source.more) == (5, False)


def test_a_frame_of_one_colour_is_blank_and_not_ocrd(tmp_path: Path) -> None:
    """An image's frame all of one colour (white, or grey) is blank, told from its
    extrema; a frame with one dark dot is not."""
    from layoutkit import LayoutConfig
    from layoutkit.sources import open_source
    from layoutkit.sources.ocr.scanned import is_scanned

    dotted = Image.new("L", (300, 200), 255)
    dotted.putpixel((150, 100), 0)
    path = tmp_path / "three.tiff"
    Image.new("L", (300, 200), 255).save(
        path, save_all=True, append_images=[Image.new("L", (300, 200), 90), dotted])
    with open_source(path) as source:
        pages = list(source.pages([1, 2, 3]))
    assert [is_scanned(path, page, (), LayoutConfig()) for page in pages] == [False, False, True]
