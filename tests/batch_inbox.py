"""Inboxes for the batch tests: good documents of every kind and each bad input,
made in the test's own folder, with what should become of each."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.pdfencrypt import StandardEncryption
from reportlab.pdfgen import canvas
from sqlalchemy import create_engine, text

from fixtures.synthetic import CASES, gazette
from tests.handmade import pdf_bytes

ROOT = Path(__file__).resolve().parent.parent
FEDERAL_REGISTER = ROOT / "fixtures" / "pdf" / "federal-register-2020-08-06.pdf"

MARKDOWN = """# Notice of Public Hearing

The council of the city will hold a public hearing on the proposed water rates
for the coming fiscal year in the chamber of the city hall.

## Street Resurfacing

Contracts for the resurfacing of Euclid Avenue and Superior Avenue were awarded
to the lowest responsible bidders after public advertisement.
"""
"""The text every office document of the tests is made from."""
OFFICE_WORDS = ("hearing", "resurfacing", "Superior")
"""Words each office document's text output must hold."""


@dataclass(frozen=True)
class Expected:
    """What should become of one inbox file: ``accepted`` (with outputs) or the
    start of the reason it is rejected for."""

    name: str
    accepted: bool
    reason: str = ""


def synthetic(inbox: Path, name: str, case: str, seed: int = 0) -> Expected:
    (inbox / name).parent.mkdir(parents=True, exist_ok=True)
    (inbox / name).write_bytes(gazette(case, "linear", seed).pdf)
    return Expected(name, True)


def office(inbox: Path, suffix: str) -> Expected:
    """An office or markup document made from :data:`MARKDOWN` (pandoc writes the
    binary formats)."""
    path = inbox / f"notice{suffix}"
    if suffix == ".md":
        path.write_text(MARKDOWN, encoding="utf-8")
    elif suffix == ".csv":
        path.write_text("item,hearing,amount\nresurfacing,Superior,1200\n", encoding="utf-8")
    else:
        writer = {".docx": "docx", ".odt": "odt", ".rtf": "rtf", ".html": "html",
                  ".epub": "epub", ".rst": "rst"}[suffix]
        subprocess.run(["pandoc", "--standalone", "--metadata", "title=Notice", "--from",
                        "markdown", "--to", writer, "--output", str(path)],
                       input=MARKDOWN, text=True, check=True, capture_output=True)
    return Expected(path.name, True)


def encrypted(inbox: Path) -> Expected:
    pdf = canvas.Canvas(str(inbox / "locked.pdf"),
                        encrypt=StandardEncryption("user-pw", "owner-pw"))
    pdf.drawString(72, 700, "A secret line of text.")
    pdf.showPage()
    pdf.save()
    return Expected("locked.pdf", False, "encrypted PDF")


def bad_inputs(inbox: Path) -> list[Expected]:
    """Each bad input of the batch's specification but the file that vanishes."""
    (inbox / "empty.pdf").write_bytes(b"")
    (inbox / "truncated.pdf").write_bytes(gazette("two_column").pdf[:2500])
    (inbox / "nopages.pdf").write_bytes(pdf_bytes(
        [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]))
    (inbox / "photo.png").write_text("this is not an image\n")
    (inbox / "notes.xyz").write_text("what is this?\n")
    (inbox / "letter.docx").write_text("a docx that is plain text\n")
    outside = inbox.parent / "outside.pdf"
    outside.write_bytes(gazette("two_column").pdf)
    (inbox / "escape.pdf").symlink_to(Path("..") / outside.name)
    return [encrypted(inbox),
            Expected("empty.pdf", False, "empty file"),
            Expected("truncated.pdf", False, "corrupt or unreadable PDF"),
            Expected("nopages.pdf", False, "the PDF has no pages"),
            Expected("photo.png", False, "not a readable png image"),
            Expected("notes.xyz", False, "unknown extension '.xyz'"),
            Expected("letter.docx", False, "not a docx file"),
            Expected("escape.pdf", False, "a symbolic link")]


def hashes(inbox: Path) -> Counter[str]:
    """The content hashes of the files waiting in ``inbox`` (links not followed)."""
    found: Counter[str] = Counter()
    for path in inbox.rglob("*"):
        if path.is_symlink():
            found["link:" + str(path.readlink())] += 1
        elif path.is_file() and not path.name.startswith(".") \
                and not path.name.endswith(".reason.txt"):
            found[hashlib.sha256(path.read_bytes()).hexdigest()] += 1
    return found


def rows(db: Path | str, query: str) -> list[tuple[object, ...]]:
    """The rows ``query`` gives on the state database ``db`` (an SQLite file, or a URL)."""
    engine = create_engine(db if isinstance(db, str) else f"sqlite:///{db}")
    with engine.connect() as connection:
        found = [tuple(row) for row in connection.execute(text(query))]
    engine.dispose()
    return found


def check_accounted(inbox: Path, out: Path, before: Counter[str], count: int,
                    db: Path | str | None = None) -> None:
    """Every one of the ``count`` files that were in ``inbox`` is accounted for
    exactly once, in the state database ``db`` (by default ``out``'s SQLite file) and
    on disk: in accepted/ with complete outputs, or in rejected/ with its reason
    (``before``: the hashes of those that did not vanish); nothing is left
    half-written."""
    left = [p for p in inbox.rglob("*") if (p.is_file() or p.is_symlink())
            and p.name != ".layoutkit-batch.lock"
            and p.parts[len(inbox.parts)] not in ("accepted", "rejected")]
    assert left == []
    # a dot file is no document (a reason's temporary file a killed run left)
    moved = [p for p in inbox.rglob("*") if (p.is_file() or p.is_symlink())
             and p.parts[len(inbox.parts)] in ("accepted", "rejected")
             and not p.name.endswith(".reason.txt") and not p.name.startswith(".")]
    assert len(moved) == before.total(), sorted(p.relative_to(inbox).as_posix() for p in moved)
    assert hashes(inbox / "accepted") + hashes(inbox / "rejected") == before
    documents = rows(out / "batch.sqlite" if db is None else db,
                     "SELECT id, file, stored, status, error, pages, output FROM document")
    assert len(documents) == count
    assert {status for _, _, _, status, _, _, _ in documents} <= {"done", "rejected"}
    done = {output: pages for _, _, _, status, _, pages, output in documents
            if status == "done"}
    for _, _, stored, status, error, _, _ in documents:
        if status == "rejected":
            assert error
            if stored is not None:
                assert (inbox / f"{stored}.reason.txt").read_text() == f"{error}\n"
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == sorted(done)
    assert [p for p in out.rglob("*") if p.name.startswith(".")] == []
    for output, pages in done.items():
        document = json.loads((out / output / "document.json").read_text(encoding="utf-8"))
        assert document["pageCount"] == pages
        assert len(document["pages"]) == pages
        assert (out / output / "text.txt").read_text(encoding="utf-8").strip()


def copy_fixture(inbox: Path, name: str) -> Expected:
    shutil.copyfile(FEDERAL_REGISTER, inbox / name)
    return Expected(name, True)


__all__ = ["CASES", "OFFICE_WORDS", "Expected", "bad_inputs", "check_accounted",
           "copy_fixture", "hashes", "office", "rows", "synthetic"]
