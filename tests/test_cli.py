"""Tests of the ``layoutkit`` command: exit statuses, one-line errors, outputs.

Most tests call :func:`layoutkit.cli.main` in-process; a few run the installed
console script (and ``python -m layoutkit``) to prove that a real process exits
with the right status and prints no traceback.  Every PDF is generated with
reportlab (or by hand) inside pytest's ``tmp_path``.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from reportlab.lib.pdfencrypt import StandardEncryption
from reportlab.pdfgen import canvas

from layoutkit import __version__
from layoutkit.cli import main
from tests.handmade import pdf_bytes

REPO = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).parent / "layoutkit"
"""The console script installed next to the interpreter running the tests."""

PAGE_LINES = [
    ["The quick brown fox jumps", "over a lazy dog near", "Agência Nacional de Águas",
     "rivers and dams."],
    ["Second page starts here,", "with two short", "lines of plain body text",
     "and one more at the end."],
    ["Third page has its own", "words in a", "different order", "from the others."],
]
"""Body text of each generated page: lines of different lengths, so that no
whitespace river lines up down the page and reads as a column gutter."""

HEADER = "The Test Gazette"


# --------------------------------------------------------------------------- helpers


def build_pdf(path: Path, pages: Sequence[Sequence[str]], header: str | None = None,
              password: str | None = None) -> Path:
    """Write a US-letter PDF with ``pages`` of body lines (and a running ``header``),
    encrypted with the user ``password`` if one is given."""
    pdf = canvas.Canvas(str(path), pagesize=(612, 792), invariant=1,
                        encrypt=None if password is None else
                        StandardEncryption(password, "owner-pw"))
    for lines in pages:
        if header is not None:
            pdf.setFont("Helvetica-Bold", 11)
            pdf.drawString(72, 792 - 40, header)
        pdf.setFont("Helvetica", 10)
        for i, text in enumerate(lines):
            pdf.drawString(72, 792 - 200 - 14 * i, text)
        pdf.showPage()
    pdf.save()
    return path


def zero_pages_pdf() -> bytes:
    """A well-formed PDF whose page tree is empty (``/Kids [] /Count 0``)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    return pdf_bytes(objects, b"1.4")


def page_text(*pages: int) -> str:
    """The text ``layoutkit text`` prints for the given 1-based generated pages."""
    return "\n\f".join("\n".join(PAGE_LINES[p - 1]) for p in pages) + "\n"


@dataclass(frozen=True)
class Run:
    """What one command run returned and printed."""

    status: int
    out: str
    err: str


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Run:
    """Run ``layoutkit argv`` in-process, returning its status and captured output."""
    capsys.readouterr()
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse exits for --version and usage errors
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return Run(status, out, err)


def run_script(*argv: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed console script in a real process."""
    return subprocess.run([str(SCRIPT), *map(str, argv)], capture_output=True, text=True,
                          cwd=cwd, timeout=60, check=False)


def error_line(err: str) -> str:
    """The single ``layoutkit: error:`` line of ``err``, after checking there is only it."""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("layoutkit: error: ")
    assert err == lines[0] + "\n"
    return lines[0]


def two_pages(folder: Path) -> Path:
    """The 2-page body-only PDF most tests read."""
    return build_pdf(folder / "two.pdf", PAGE_LINES[:2])


def with_header(folder: Path) -> Path:
    """The 3-page PDF with ``HEADER`` at the same place on every page."""
    return build_pdf(folder / "gazette.pdf", PAGE_LINES, header=HEADER)


@pytest.fixture
def out_dir(tmp_path: Path) -> Path:
    """An empty output folder, to check that failures leave nothing in it."""
    folder = tmp_path / "out"
    folder.mkdir()
    return folder


# --------------------------------------------------------------------------- unreadable input


def make_missing(folder: Path) -> Path:
    return folder / "missing.pdf"


def make_directory(folder: Path) -> Path:
    path = folder / "folder.pdf"
    path.mkdir()
    return path


def make_text_file(folder: Path) -> Path:
    path = folder / "notes.pdf"
    path.write_text("These are notes, not a PDF.\n", encoding="utf-8")
    return path


def make_empty(folder: Path) -> Path:
    path = folder / "empty.pdf"
    path.write_bytes(b"")
    return path


def make_truncated(folder: Path) -> Path:
    data = two_pages(folder).read_bytes()
    path = folder / "truncated.pdf"
    path.write_bytes(data[: len(data) * 2 // 5])
    return path


def make_corrupt(folder: Path) -> Path:
    noise = random.Random(20200806).randbytes(4000)
    path = folder / "corrupt.pdf"
    path.write_bytes(b"%PDF-1.4\n" + noise)
    return path


def make_encrypted(folder: Path) -> Path:
    path = folder / "locked.pdf"
    pdf = canvas.Canvas(str(path), encrypt=StandardEncryption("user-pw", "owner-pw"))
    pdf.drawString(72, 700, "A secret line of text.")
    pdf.showPage()
    pdf.save()
    return path


def make_zero_pages(folder: Path) -> Path:
    path = folder / "nopages.pdf"
    path.write_bytes(zero_pages_pdf())
    return path


UNREADABLE = [
    pytest.param(make_missing, 2, "{path}: no such file", id="missing"),
    pytest.param(make_directory, 2, "{path}: is a directory, expected a PDF file", id="directory"),
    pytest.param(make_text_file, 1, "{path}: not a PDF (no %PDF- header in its first 1024 bytes)",
                 id="not-pdf"),
    pytest.param(make_empty, 1, "{path}: empty file, expected a PDF", id="empty"),
    pytest.param(make_truncated, 1, "{path}: corrupt or unreadable PDF (", id="truncated"),
    pytest.param(make_corrupt, 1, "{path}: corrupt or unreadable PDF (", id="corrupt"),
    pytest.param(make_encrypted, 1, "{path}: encrypted PDF, a password is needed to read it",
                 id="encrypted"),
    pytest.param(make_zero_pages, 1, "{path}: the PDF has no pages", id="zero-pages"),
]
"""(make the input, exit status, expected message).  A message ending in ``(``
is a prefix: pdfminer's own reason follows it in parentheses."""


@pytest.mark.parametrize("command", ["text", "parse"])
@pytest.mark.parametrize(("make", "status", "message"), UNREADABLE)
def test_cli_unreadable_input_fails_with_one_line_and_writes_nothing(
    tmp_path: Path, out_dir: Path, capsys: pytest.CaptureFixture[str],
    make: Callable[[Path], Path], status: int, message: str, command: str,
) -> None:
    """An input that is missing, not a file or not a readable PDF exits 2 or 1 with one line."""
    path = make(tmp_path)
    result = run(capsys, command, str(path), "-o", str(out_dir / "result.out"))
    assert result.status == status
    assert result.out == ""
    line = error_line(result.err)
    expected = "layoutkit: error: " + message.format(path=path)
    if expected.endswith("("):
        assert line.startswith(expected)
        assert line.endswith(")")
    else:
        assert line == expected
    assert list(out_dir.iterdir()) == []


def test_cli_encrypted_pdf_message_says_encrypted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A PDF that needs a user password is refused, the message naming it encrypted."""
    path = make_encrypted(tmp_path)
    result = run(capsys, "text", str(path))
    assert result.status == 1
    assert "encrypted" in error_line(result.err)
    assert str(path) in result.err


# --------------------------------------------------------------------------- page ranges


@pytest.mark.parametrize(("spec", "problem"), [
    ("99", "'99' is outside the document's pages 1-2"),
    ("1,3-9", "'3-9' is outside the document's pages 1-2"),
    ("0", "'0' is outside the document's pages 1-2"),
    ("3-x", "cannot read '3-x'; expected numbers and ranges such as 1,3-5,9- "
            "(the document has no page labels)"),
    (",", "cannot read ''; expected numbers and ranges such as 1,3-5,9-"),
    ("", "cannot read ''; expected numbers and ranges such as 1,3-5,9-"),
    ("5-2", "'5-2' runs backwards"),
])
def test_cli_bad_page_range_exits_2_naming_file_and_range(
    tmp_path: Path, out_dir: Path, capsys: pytest.CaptureFixture[str], spec: str, problem: str,
) -> None:
    """A malformed or out-of-range --pages exits 2, naming the file, the range and the part."""
    path = two_pages(tmp_path)
    result = run(capsys, "text", str(path), "--pages", spec, "-o", str(out_dir / "x.txt"))
    assert result.status == 2
    assert result.out == ""
    assert error_line(result.err) == f"layoutkit: error: {path}: page range {spec!r}: {problem}"
    assert list(out_dir.iterdir()) == []


@pytest.mark.parametrize("spec", ["3-", "99-"])
def test_cli_open_range_past_the_end_is_reported_outside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str,
) -> None:
    """An open range starting after the last page is reported as outside the document."""
    path = two_pages(tmp_path)
    result = run(capsys, "text", str(path), "--pages", spec)
    assert result.status == 2
    assert error_line(result.err) == (
        f"layoutkit: error: {path}: page range {spec!r}: {spec!r} is outside the document's "
        "pages 1-2")


# --------------------------------------------------------------------------- --set


@pytest.mark.parametrize(("key", "advice"), [
    ("gutter_min_widht", "did you mean gutter_min_width or gutter_min_lines or "
                         "gutter_min_lines_on_grid? (see layoutkit config)"),
    ("GUTTER_MIN_WIDTH", "did you mean gutter_min_width or gutter_min_lines or "
                         "gutter_min_lines_on_grid? (see layoutkit config)"),
    ("zzz", "layoutkit config lists the keys"),
    ("help", "layoutkit config lists the keys"),
])
def test_cli_unknown_set_key_exits_2_naming_the_keys_it_may_mean(
    tmp_path: Path, out_dir: Path, capsys: pytest.CaptureFixture[str], key: str, advice: str,
) -> None:
    """--set with an unknown key exits 2 naming the known keys closest to it (not all
    of them), whatever its case."""
    path = two_pages(tmp_path)
    result = run(capsys, "text", str(path), "--set", f"{key}=1", "-o", str(out_dir / "x.txt"))
    assert result.status == 2
    assert error_line(result.err) == f"layoutkit: error: --set {key!r}: unknown key; {advice}"
    assert list(out_dir.iterdir()) == []


@pytest.mark.parametrize(("setting", "message"), [
    ("gutter_min_width=abc", "--set gutter_min_width='abc': expected a number (see layoutkit "
                             "config gutter_min_width)"),
    ("gutter_min_width=-1", "config key 'gutter_min_width': expected a finite number >= 0, "
                            "got -1.0 (see layoutkit config gutter_min_width)"),
    ("line_overlap=nan", "config key 'line_overlap': expected a finite number >= 0, got nan "
                         "(see layoutkit config line_overlap)"),
    ("line_overlap=1.5", "config key 'line_overlap': expected a share from 0 to 1, got 1.5 "
                         "(see layoutkit config line_overlap)"),
    ("gutter_min_width", "--set 'gutter_min_width': expected KEY=VALUE"),
])
def test_cli_bad_set_value_exits_2_naming_the_key(
    tmp_path: Path, out_dir: Path, capsys: pytest.CaptureFixture[str], setting: str, message: str,
) -> None:
    """--set with a value of the wrong type or out of range exits 2, naming key and value."""
    path = two_pages(tmp_path)
    result = run(capsys, "parse", str(path), "--set", setting, "-o", str(out_dir / "x.json"))
    assert result.status == 2
    assert result.out == ""
    assert error_line(result.err) == f"layoutkit: error: {message}"
    assert list(out_dir.iterdir()) == []


# --------------------------------------------------------------------------- output errors


def test_cli_output_in_missing_folder_exits_1_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """-o into a folder that does not exist exits 1 naming the output, creating nothing."""
    path = two_pages(tmp_path)
    target = tmp_path / "absent" / "result.txt"
    result = run(capsys, "text", str(path), "-o", str(target))
    assert result.status == 1
    assert result.out == ""
    assert error_line(result.err) == (
        f"layoutkit: error: {target}: cannot write (No such file or directory)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["two.pdf"]


@pytest.mark.parametrize("form", ["taken", "taken/", "absent/"])
def test_cli_output_onto_a_folder_is_a_usage_error_and_writes_nothing(
    tmp_path: Path, out_dir: Path, capsys: pytest.CaptureFixture[str], form: str,
) -> None:
    """-o naming a folder (one that exists, or any name ending in a slash) exits 2
    before the document is read, and leaves nothing behind."""
    path = two_pages(tmp_path)
    (out_dir / "taken").mkdir()
    target = f"{out_dir}/{form}"
    result = run(capsys, "text", str(path), "-o", target)
    assert result.status == 2
    line = error_line(result.err)
    assert "is a folder; expected the file to write" in line and form in line
    assert [p.name for p in out_dir.iterdir()] == ["taken"]
    assert list((out_dir / "taken").iterdir()) == []


# --------------------------------------------------------------------------- success


def test_cli_text_to_stdout_is_reading_order_with_form_feeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """`text` prints every page's lines, a form feed between pages on a line of its own
    (a page's last line ends before it), a newline at the end."""
    result = run(capsys, "text", str(two_pages(tmp_path)))
    assert result == Run(0, page_text(1, 2), "")
    assert result.out.count("\f") == 1
    assert "\nrivers and dams.\n\fSecond page starts here,\n" in result.out


def test_cli_text_to_file_writes_the_same_text_and_nothing_else(
    tmp_path: Path, out_dir: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """`text -o FILE` writes the stdout text as UTF-8, prints nothing, leaves no temp file."""
    target = out_dir / "two.txt"
    result = run(capsys, "text", str(two_pages(tmp_path)), "-o", str(target))
    assert result == Run(0, "", "")
    assert target.read_bytes() == page_text(1, 2).encode("utf-8")
    assert [p.name for p in out_dir.iterdir()] == ["two.txt"]


def test_cli_text_replaces_an_existing_output_file(
    tmp_path: Path, out_dir: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """`text -o FILE` over an existing file replaces its content entirely."""
    target = out_dir / "two.txt"
    target.write_text("old content that is longer than the new one\n" * 100, encoding="utf-8")
    result = run(capsys, "text", str(two_pages(tmp_path)), "-o", str(target))
    assert result.status == 0
    assert target.read_text(encoding="utf-8") == page_text(1, 2)
    assert [p.name for p in out_dir.iterdir()] == ["two.txt"]


def test_cli_text_leaves_out_running_header_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A line repeated at the top of every page is furniture and left out of `text`."""
    result = run(capsys, "text", str(with_header(tmp_path)))
    assert result == Run(0, page_text(1, 2, 3), "")
    assert HEADER not in result.out


def test_cli_text_keep_furniture_keeps_running_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """--keep-furniture prints the running header first on every page."""
    result = run(capsys, "text", str(with_header(tmp_path)), "--keep-furniture")
    expected = "\n\f".join(HEADER + "\n" + "\n".join(lines) for lines in PAGE_LINES) + "\n"
    assert result == Run(0, expected, "")


def test_cli_text_pages_2_prints_only_page_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """--pages 2 prints page 2 alone, its header still recognised from its neighbours."""
    path = with_header(tmp_path)
    assert run(capsys, "text", str(path), "--pages", "2") == Run(0, page_text(2), "")
    assert run(capsys, "text", str(path), "--pages", "2", "--keep-furniture") == Run(
        0, HEADER + "\n" + page_text(2), "")


def test_cli_parse_writes_valid_json_with_every_page(
    tmp_path: Path, out_dir: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """`parse -o out.json` writes UTF-8 JSON holding each page's lines in order."""
    target = out_dir / "out.json"
    result = run(capsys, "parse", str(two_pages(tmp_path)), "-o", str(target))
    assert result == Run(0, "", "")
    raw = target.read_bytes()
    assert "Agência Nacional de Águas".encode() in raw
    data = json.loads(raw.decode("utf-8"))
    assert data["schema"] == "layoutkit.document/1"
    assert data["document"] == "two.pdf"
    assert data["pageCount"] == 2
    assert [page["pageNo"] for page in data["pages"]] == [1, 2]
    assert [[line["text"] for line in page["lines"]] for page in data["pages"]] == PAGE_LINES[:2]
    assert {line["lineType"] for page in data["pages"] for line in page["lines"]} == {"b"}
    assert [p.name for p in out_dir.iterdir()] == ["out.json"]


def test_cli_parse_pages_2_holds_only_page_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """`parse --pages 2` to stdout holds page 2 alone, with the document's page count."""
    result = run(capsys, "parse", str(with_header(tmp_path)), "--pages", "2")
    assert result.status == 0
    assert result.err == ""
    data = json.loads(result.out)
    assert data["pageCount"] == 3
    assert [page["pageNo"] for page in data["pages"]] == [2]
    lines = data["pages"][0]["lines"]
    assert [(line["text"], line["lineType"]) for line in lines] == (
        [(HEADER, "h")] + [(text, "b") for text in PAGE_LINES[1]])


def test_cli_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    """--version prints `layoutkit <version>` and exits 0."""
    assert run(capsys, "--version") == Run(0, f"layoutkit {__version__}\n", "")


# --------------------------------------------------------------------------- real processes


def test_cli_python_m_layoutkit_version_exits_0() -> None:
    """`python -m layoutkit --version` prints the version and exits 0."""
    done = subprocess.run([sys.executable, "-m", "layoutkit", "--version"], capture_output=True,
                          text=True, cwd=REPO, timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"layoutkit {__version__}\n", "")


IMPORTS_OF = """
import json, sys
from layoutkit.cli import main
status = main(sys.argv[1:])
print(json.dumps([status, sorted(sys.modules)]))
"""
"""A process that runs the command given as its arguments and prints its exit status
and the modules it has imported."""

NOT_FOR_BORN_DIGITAL = {
    "pytesseract", "PIL", "pypdfium2", "spacy", "pdfplumber", "sqlalchemy", "dask", "rich",
    "jsonschema", "pandas", "py3langid", "spacy_lookups_data", "tomllib", "multiprocessing",
    "layoutkit.profile", "layoutkit.nlp", "layoutkit.outputs.draw",
    "layoutkit.sources.images", "layoutkit.sources.ocr.image",
    "layoutkit.batch", "layoutkit.tools",
}
"""Modules (with their submodules) of OCR, profiles, tables, the other commands and worker
processes, none of which reading a born-digital PDF with one process uses (pypdfium2's
helpers among them: the pdfium engine needs its raw bindings, pypdfium2_raw, alone)."""


def imported_by(*argv: str | Path) -> set[str]:
    """The modules a fresh process has imported after running ``layoutkit argv``
    (which must succeed)."""
    done = subprocess.run([sys.executable, "-c", IMPORTS_OF, *map(str, argv)],
                          capture_output=True, text=True, cwd=REPO, timeout=60, check=True)
    status, modules = json.loads(done.stdout.splitlines()[-1])
    assert status == 0, done.stderr
    return set(modules)


def test_cli_text_of_born_digital_pdf_imports_no_other_commands_modules(tmp_path: Path) -> None:
    """`layoutkit text` on a born-digital PDF imports neither OCR's libraries nor those of
    profiles, tables, tokens, batch or the other commands: each costs start-up time."""
    modules = imported_by("text", two_pages(tmp_path), "-o", tmp_path / "out.txt")
    assert {"layoutkit.sources.pdfium", "layoutkit.geometry.segment", "cv2"} <= modules
    assert not {m for m in modules
                if any(".".join(m.split(".")[:k]) in NOT_FOR_BORN_DIGITAL for k in range(1, 5))}


def test_cli_text_with_profile_imports_the_profile_package(tmp_path: Path) -> None:
    """The profile package loads when a profile is named (the check above can fail)."""
    modules = imported_by("text", two_pages(tmp_path), "--profile", "federal-register",
                          "-o", tmp_path / "out.txt")
    assert {"layoutkit.profile", "layoutkit.profile.stage", "tomllib"} <= modules


def test_cli_script_missing_file_exits_2_without_traceback(tmp_path: Path) -> None:
    """The console script exits 2 on a missing file, printing one line and no traceback."""
    done = run_script("text", "missing.pdf", "-o", "out.txt", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert error_line(done.stderr) == "layoutkit: error: missing.pdf: no such file"
    assert list(tmp_path.iterdir()) == []


def test_cli_script_corrupt_pdf_exits_1_without_traceback(tmp_path: Path) -> None:
    """The console script exits 1 on a corrupt PDF, printing one line and no traceback."""
    path = make_corrupt(tmp_path)
    done = run_script("parse", path.name, "-o", "out.json", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert error_line(done.stderr).startswith(
        "layoutkit: error: corrupt.pdf: corrupt or unreadable PDF (")
    assert [p.name for p in tmp_path.iterdir()] == ["corrupt.pdf"]


def test_cli_script_encrypted_pdf_exits_1_without_traceback(tmp_path: Path) -> None:
    """The console script exits 1 on a password-protected PDF, naming it encrypted."""
    path = make_encrypted(tmp_path)
    done = run_script("text", path, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert error_line(done.stderr) == (
        f"layoutkit: error: {path}: encrypted PDF, a password is needed to read it")


def test_cli_script_text_writes_utf8_to_stdout(tmp_path: Path) -> None:
    """The console script prints the text of a real process's stdout and exits 0."""
    done = run_script("text", two_pages(tmp_path), "--pages", "1")
    assert (done.returncode, done.stdout, done.stderr) == (0, page_text(1), "")


def test_cli_script_closed_stdout_exits_without_traceback(tmp_path: Path) -> None:
    """A reader that closes the pipe early ends the command quietly, without a traceback."""
    path = two_pages(tmp_path)
    with subprocess.Popen([str(SCRIPT), "text", str(path)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()  # before the child has even started: its write must fail
        err = process.stderr.read().decode("utf-8")
        process.wait(timeout=60)
    assert "Traceback" not in err
    assert "BrokenPipeError" not in err


def test_cli_script_full_stdout_is_one_error_line(tmp_path: Path) -> None:
    """Standard output on a full device (``> /dev/full``) is one error line and status
    1, not a traceback or a silent success."""
    path = two_pages(tmp_path)
    with Path("/dev/full").open("wb") as full:
        done = subprocess.run([str(SCRIPT), "text", str(path)], stdout=full,
                              stderr=subprocess.PIPE, timeout=60, check=False)
    err = done.stderr.decode("utf-8")
    assert done.returncode == 1
    assert error_line(err) == ("layoutkit: error: standard output: cannot write "
                               "(No space left on device)")


def test_cli_output_through_links_devices_and_loops(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """``-o`` follows a link to its target; a full device is one line and status 1, the
    device left a device; a symlink loop is one line and status 1."""
    path = two_pages(tmp_path)
    (tmp_path / "link.txt").symlink_to("target.txt")
    assert run(capsys, "text", str(path), "--pages", "1", "-o", str(tmp_path / "link.txt")
               ).status == 0
    assert (tmp_path / "target.txt").read_text(encoding="utf-8") == page_text(1)
    assert (tmp_path / "link.txt").is_symlink()
    (tmp_path / "full").symlink_to("/dev/full")
    done = run(capsys, "text", str(path), "--pages", "1", "-o", str(tmp_path / "full"))
    assert (done.status, error_line(done.err)) == (
        1, f"layoutkit: error: {tmp_path / 'full'}: cannot write (No space left on device)")
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    done = run(capsys, "text", str(path), "--pages", "1", "-o", str(tmp_path / "a"))
    assert (done.status, error_line(done.err)) == (
        1, f"layoutkit: error: {tmp_path / 'a'}: cannot write (Too many levels of symbolic "
           f"links)")


def test_cli_script_unencodable_stdout_fails_without_traceback(tmp_path: Path) -> None:
    """Text a narrow stdout encoding cannot hold is written as UTF-8 or refused in one line."""
    path = two_pages(tmp_path)
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([str(SCRIPT), "text", str(path)], capture_output=True, env=env,
                          timeout=60, check=False)
    err = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err
    if done.returncode == 0:
        assert done.stdout == page_text(1, 2).encode("utf-8")
    else:
        assert done.returncode == 1
        error_line(err)


# --------------------------------------------------------------------------- line types


def report(folder: Path) -> Path:
    """Two pages of a report: a bold heading and a numbered list on each."""
    path = folder / "report.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(612, 792), invariant=1)
    for number, title in ((1, "Scope of the Work"), (2, "Terms of Payment")):
        pdf.setFont("Helvetica-Bold", 14)
        pdf.drawString(72, 700, f"{number} {title}")
        pdf.setFont("Helvetica", 10)
        rows = ["The council agreed on the following points for the year:",
                "1. the budget is approved as presented to the board",
                "2. the contract runs until the end of the season"]
        for k, text in enumerate(rows):
            pdf.drawString(72, 670 - 14 * k, f"{text} (page {number})")
        pdf.showPage()
    pdf.save()
    return path


def test_cli_parse_line_types_in_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "parse", str(report(tmp_path)))
    assert result.status == 0
    typed = [(x["lineType"], x["text"]) for x in json.loads(result.out)["pages"][0]["lines"]]
    assert typed == [("h_1", "1 Scope of the Work"),
                     ("b", "The council agreed on the following points for the year: (page 1)"),
                     ("ln", "1. the budget is approved as presented to the board (page 1)"),
                     ("ln", "2. the contract runs until the end of the season (page 1)")]


def test_cli_text_skip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "text", str(report(tmp_path)), "--skip", "ln,h_", "--pages", "2")
    assert (result.status, result.out) == (
        0, "The council agreed on the following points for the year: (page 2)\n")


def test_cli_text_skip_unknown_type(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "text", str(report(tmp_path)), "--skip", "toc,hx")
    assert result.status == 2
    assert "--skip 'toc,hx': unknown line type 'hx'" in error_line(result.err)


def test_cli_parse_toc_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.json"
    result = run(capsys, "parse", str(report(tmp_path)), "-o", str(out), "--toc")
    assert result.status == 0
    toc = json.loads((tmp_path / "report.toc.json").read_text(encoding="utf-8"))
    assert toc == {"schema": "layoutkit.toc/1", "document": "report.pdf", "source": "headings",
                   "headings": [
        {"level": 1, "text": "1 Scope of the Work", "page": 1,
         "context": ["The council agreed on the following points for the year: (page 1)"]},
        {"level": 1, "text": "2 Terms of Payment", "page": 2,
         "context": ["The council agreed on the following points for the year: (page 2)"]}]}


def test_cli_parse_toc_needs_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "parse", str(report(tmp_path)), "--toc")
    assert result.status == 2
    assert "--toc: expected -o OUT" in error_line(result.err)


def test_cli_verbose_linetypes_logs_reasons(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            caplog: pytest.LogCaptureFixture) -> None:
    """Each heading is logged with its rule (or "typography") and type, each list
    with its first item; without the option nothing is."""
    path = report(tmp_path)
    assert run(capsys, "text", str(path)).status == 0
    assert not [r for r in caplog.records if r.name == "layoutkit.linetypes"]
    assert run(capsys, "text", str(path), "--verbose-linetypes").status == 0
    messages = [r.getMessage() for r in caplog.records if r.name == "layoutkit.linetypes"]
    assert "page 1: heading level 1 (999, 14.0 pt, bold): '1 Scope of the Work'" in messages
    assert any(m.startswith("page 2: ln list of 2 items from '1. the budget") for m in messages)


def ruled(folder: Path) -> Path:
    """A page with a paragraph above a ruled 3 x 3 table whose middle column is empty."""
    path = folder / "ruled.pdf"
    pdf = canvas.Canvas(str(path), pagesize=(612, 792), invariant=1)
    pdf.setFont("Helvetica", 10)
    pdf.drawString(72, 720, "The fees of the year are set out in the table below.")
    cells = [["Item", "", "Fee"], ["Permit", "", "40"], ["Licence", "", "25"]]
    for r, row in enumerate(cells):
        for c, text in enumerate(row):
            pdf.drawString(76 + 120 * c, 684 - 20 * r, text)
    for k in range(4):
        pdf.line(72, 700 - 20 * k, 432, 700 - 20 * k)
        pdf.line(72 + 120 * k, 700, 72 + 120 * k, 640)
    pdf.showPage()
    pdf.save()
    return path


def test_cli_parse_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--tables types the table's lines tab and writes its cells; the empty column goes
    with --table-drop-empty-columns."""
    out = tmp_path / "ruled.json"
    path = ruled(tmp_path)
    assert run(capsys, "parse", str(path), "-o", str(out), "--tables").status == 0
    typed = [(x["lineType"], x["text"]) for x in
             json.loads(out.read_text(encoding="utf-8"))["pages"][0]["lines"]]
    assert typed == [("b", "The fees of the year are set out in the table below."),
                     ("tab", "Item Fee"), ("tab", "Permit 40"), ("tab", "Licence 25")]
    tables = json.loads((tmp_path / "ruled.table.json").read_text(encoding="utf-8"))
    assert tables["schema"] == "layoutkit.tables/1"
    (table,) = tables["tables"]
    assert (table["page"], table["bbox"]) == (1, [72.0, 92.0, 432.0, 152.0])
    assert table["rows"] == [["Item", "", "Fee"], ["Permit", "", "40"], ["Licence", "", "25"]]
    assert run(capsys, "parse", str(path), "-o", str(out), "--tables",
               "--table-drop-empty-columns").status == 0
    dropped = json.loads((tmp_path / "ruled.table.json").read_text(encoding="utf-8"))
    assert dropped["tables"][0]["rows"] == [["Item", "Fee"], ["Permit", "40"], ["Licence", "25"]]


def test_cli_text_skip_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "text", str(ruled(tmp_path)), "--skip", "tab")
    assert (result.status, result.out) == (
        0, "The fees of the year are set out in the table below.\n")
    assert run(capsys, "parse", str(ruled(tmp_path)), "--tables").status == 2
