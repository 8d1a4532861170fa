"""The command line's Unix habits: ``-`` reads the document from standard input, ``-o -``
writes to standard output, ``--password`` opens an encrypted PDF (with either engine,
as ``password=`` does in the API), ``-q`` silences warnings and ``-v`` logs."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

import layoutkit
from tests.parsed import parsed
from tests.test_cli import PAGE_LINES, build_pdf, error_line, page_text, run

REPO = Path(__file__).resolve().parent.parent
DMCA = REPO / "fixtures" / "pdf" / "copyright-office-dmca-summary.pdf"


def command(*argv: str | Path, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """``python -m layoutkit argv`` in a process of its own, ``stdin`` its input."""
    return subprocess.run([sys.executable, "-m", "layoutkit", *map(str, argv)], input=stdin,
                          capture_output=True, timeout=300, check=False)


def locked(path: Path, password: str = "foo") -> Path:
    """The three pages of ``PAGE_LINES`` in a PDF whose user password is ``password``."""
    return build_pdf(path, PAGE_LINES, password=password)


def test_stdin_to_stdout_is_the_text_of_the_file() -> None:
    """``cat doc.pdf | layoutkit text - -o -`` prints what ``layoutkit text doc.pdf``
    does, byte for byte."""
    piped = command("text", "-", "-o", "-", stdin=DMCA.read_bytes())
    named = command("text", DMCA)
    assert (piped.returncode, piped.stderr) == (0, b"")
    assert piped.stdout == named.stdout and len(named.stdout) > 1000


def test_parse_of_stdin_names_the_document_stdin(tmp_path: Path) -> None:
    path = build_pdf(tmp_path / "two.pdf", PAGE_LINES[:2])
    done = command("parse", "-", "--pages", "2", stdin=path.read_bytes())
    assert done.returncode == 0
    assert b'"document": "<stdin>"' in done.stdout and b"Second page starts here," in done.stdout


def test_stdin_that_is_no_pdf_is_one_line_naming_stdin() -> None:
    done = command("text", "-", stdin=b"These are notes, not a PDF.\n")
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr.decode() == ("layoutkit: error: <stdin>: not a PDF (no %PDF- header in "
                                    "its first 1024 bytes)\n")


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_password_reads_an_encrypted_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         engine: str) -> None:
    """``layoutkit text --password foo`` reads a PDF whose user password is foo as the
    same PDF unencrypted reads, with either engine."""
    path = locked(tmp_path / "locked.pdf")
    result = run(capsys, "text", str(path), "--password", "foo", "--engine", engine)
    assert (result.status, result.out, result.err) == (0, page_text(1, 2, 3), "")
    document = layoutkit.parse(path, password="foo", engine=engine, pages="2")
    assert document.path == path and document[0].text() == "\n".join(PAGE_LINES[1])


def test_password_with_stdin(tmp_path: Path) -> None:
    path = locked(tmp_path / "locked.pdf")
    done = command("text", "-", "--password", "foo", "--pages", "3", stdin=path.read_bytes())
    assert (done.returncode, done.stdout.decode()) == (0, page_text(3))


@pytest.mark.parametrize(("password", "problem"), [
    (None, "encrypted PDF, a password is needed to read it"),
    ("bar", "wrong password for the encrypted PDF"),
])
def test_encrypted_pdf_without_its_password_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], password: str | None,
        problem: str) -> None:
    path = locked(tmp_path / "locked.pdf")
    given = ["--password", password] if password else []
    result = run(capsys, "text", str(path), *given, "-o", str(tmp_path / "out.txt"))
    assert result.status == 1
    assert error_line(result.err) == f"layoutkit: error: {path}: {problem}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["locked.pdf"]


def test_parse_takes_bytes_and_binary_file_objects(tmp_path: Path) -> None:
    """``parse`` reads a path, the document's bytes or a binary file object alike;
    the document is named by the file object's name, else ``<bytes>``/``<stream>``;
    its temporary copy lasts until the document is closed."""
    path = build_pdf(tmp_path / "two.pdf", PAGE_LINES[:2])
    data = path.read_bytes()
    expected = layoutkit.parse(path).text()
    with path.open("rb") as stream:
        from_file = layoutkit.parse(stream)
    from_bytes, from_buffer = layoutkit.parse(data), layoutkit.parse(io.BytesIO(data))
    assert [d.text() for d in (from_file, from_bytes, from_buffer)] == [expected] * 3
    assert [str(d.path) for d in (from_file, from_bytes, from_buffer)] == [
        str(path), "<bytes>", "<stream>"]
    copy = from_bytes.source
    assert copy is not None and copy.read_bytes() == data
    with from_bytes:
        pass
    assert not copy.exists()
    with pytest.raises(layoutkit.UsageError, match="expected a path, bytes or a binary file"):
        layoutkit.parse(12)  # type: ignore[arg-type]
    with pytest.raises(layoutkit.DocumentError, match=r"^<bytes>: not a PDF"):
        layoutkit.parse(b"not a PDF")


def test_parse_takes_an_image_as_bytes() -> None:
    """Bytes of an image are read as the image (by OCR), as its file would be."""
    scan = REPO / "fixtures" / "scanned" / "cfr-5-page7-two-column.jpg"
    document = layoutkit.parse(scan.read_bytes())
    assert document.text() == parsed(scan).text() and len(document.text()) > 1000


def _low_quality_scan(path: Path) -> Path:
    """A small picture of two typed lines: its OCR reads below a quality of 1."""
    image = Image.new("L", (900, 200), 255)
    pen = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=36)
    pen.text((40, 40), "The council met on Monday", fill=0, font=font)
    pen.text((40, 100), "and adopted the budget.", fill=0, font=font)
    image.save(path, dpi=(150, 150))
    return path


def test_quiet_leaves_out_warnings_and_verbose_logs(tmp_path: Path) -> None:
    scan = _low_quality_scan(tmp_path / "scan.png")
    loud = command("text", scan, "--set", "ocr_min_quality=1")
    quiet = command("text", scan, "--set", "ocr_min_quality=1", "-q")
    assert loud.returncode == quiet.returncode == 0 and loud.stdout == quiet.stdout
    assert b"is below ocr_min_quality 1.00" in loud.stderr and loud.stderr.count(b"\n") == 1
    assert quiet.stderr == b""
    out = tmp_path / "scan.txt"
    verbose = command("text", scan, "-v", "-o", out)
    assert verbose.returncode == 0 and f"layoutkit: wrote {out}\n".encode() in verbose.stderr
    both = command("text", scan, "-v", "-q")
    assert both.returncode == 2 and b"not allowed with argument" in both.stderr
