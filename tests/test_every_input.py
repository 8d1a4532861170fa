"""Every command that reads one document reads what ``layoutkit batch`` accepts: a PDF,
an image (by OCR), an office or markup document (converted to PDF by the batch's
sandboxed converter, its temporary PDF removed afterwards); any other kind of file is
one error line naming the kinds that are read."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

import layoutkit
from layoutkit.cli import main

MARKDOWN = """# Notice of hearing

The council meets on Tuesday to hear the resurfacing of Superior Avenue.

- the first item of the agenda
- the second item of the agenda
"""
SENTENCE = "The council meets on Tuesday to hear the resurfacing of Superior Avenue."

needs_converters = pytest.mark.skipif(
    shutil.which("pandoc") is None or shutil.which("soffice") is None,
    reason="pandoc and LibreOffice are not installed (make system)")


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The folder temporary files are made in for the test: empty again at its end."""
    folder = tmp_path / "temporary"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    assert sorted(p.name for p in folder.iterdir()) == []


def _written(suffix: str, folder: Path) -> Path:
    """``MARKDOWN`` as a document of the kind ``suffix`` names (pandoc writes it)."""
    path = folder / f"report{suffix}"
    if suffix == ".md":
        path.write_text(MARKDOWN, encoding="utf-8")
        return path
    subprocess.run(["pandoc", "--standalone", "--metadata", "title=Notice", "--from",
                    "markdown", "--to", suffix[1:], "--output", str(path)],
                   input=MARKDOWN, text=True, check=True, capture_output=True)
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@needs_converters
def test_text_reads_a_word_file(tmp_path: Path, scratch: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    """``layoutkit text report.docx`` converts the Word file and prints its text in
    reading order; its temporary PDF is gone once the command ends."""
    status, out, err = _run(capsys, "text", _written(".docx", tmp_path))
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Notice"
    assert SENTENCE in lines and lines.index("Notice of hearing") < lines.index(SENTENCE)
    assert "• the second item of the agenda" in lines


@needs_converters
def test_text_reads_an_html_file(tmp_path: Path, scratch: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "text", _written(".html", tmp_path))
    assert (status, err) == (0, "")
    assert SENTENCE in out.splitlines()


@needs_converters
def test_parse_and_markdown_name_the_document_given(tmp_path: Path, scratch: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The JSON names the Markdown file given, not the PDF it was converted to; the
    Markdown output keeps its heading and list."""
    source = _written(".md", tmp_path)
    out = tmp_path / "report.json"
    assert _run(capsys, "parse", source, "-o", out)[0] == 0
    parsed = json.loads(out.read_text(encoding="utf-8"))
    assert (parsed["document"], parsed["pageCount"]) == ("report.md", 1)
    status, markdown, _ = _run(capsys, "markdown", source)
    assert status == 0
    assert "# Notice of hearing" in markdown and "- the first item of the agenda" in markdown


@needs_converters
def test_python_entry_points_read_an_office_file(tmp_path: Path, scratch: Path) -> None:
    """`layoutkit.parse` of a binary file object named ``.odt``, and `TextDocument` of
    its path, convert it; the temporary PDF lives as long as the document."""
    source = _written(".odt", tmp_path)
    with source.open("rb") as fh:
        document = layoutkit.parse(fh)
    assert document.path == source and SENTENCE in document.text()
    with layoutkit.TextDocument(source) as text_document:
        assert text_document.path == source
        assert text_document.layout.source.suffix == ".pdf"
        assert text_document.layout.source.is_file()
        assert SENTENCE in text_document.text()
    del document


def test_text_reads_a_png_by_ocr(tmp_path: Path, scratch: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    image = Image.new("L", (1200, 260), 255)
    pen = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=44)
    pen.text((60, 60), "The council met on Monday", fill=0, font=font)
    pen.text((60, 150), "and adopted the budget.", fill=0, font=font)
    path = tmp_path / "scan.png"
    image.save(path, dpi=(150, 150))
    status, out, _ = _run(capsys, "text", path, "-q")
    assert status == 0
    assert " ".join(out.split()) == "The council met on Monday and adopted the budget."


def test_an_unknown_kind_of_file_is_one_line_naming_the_kinds_read(
        tmp_path: Path, scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notes.xyz"
    path.write_text("what is this?\n", encoding="utf-8")
    status, out, err = _run(capsys, "text", path)
    assert (status, out) == (1, "")
    assert err.count("\n") == 1
    assert err.startswith(f"layoutkit: error: {path}: not a kind of document layoutkit reads "
                          "(.xyz); expected one of .pdf, ")
    for kind in (".png", ".tiff", ".docx", ".html", ".md"):
        assert f" {kind}," in err or err.endswith(f" {kind}\n")


def test_a_pdf_under_another_name_is_still_read(tmp_path: Path, scratch: Path) -> None:
    """A file whose suffix is none of those read, holding a PDF, is read as the PDF."""
    pdf = Path(__file__).resolve().parent.parent / "fixtures" / "pdf"
    first = sorted(pdf.glob("*.pdf"))[0]
    renamed = tmp_path / "download.bin"
    renamed.write_bytes(first.read_bytes())
    assert layoutkit.parse(renamed, pages="1").text() == layoutkit.parse(first, pages="1").text()
