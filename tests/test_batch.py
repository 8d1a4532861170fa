"""``layoutkit batch``: an inbox of good documents of every kind and every bad input,
processed, resumed and reported on; the state database's schema."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import re
import shutil
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import inspect, text

from fixtures.synthetic import gazette
from layoutkit import parse
from layoutkit.batch import BatchOptions, Summary, run_batch, runner, status_text
from layoutkit.batch.inbox import Arrival
from layoutkit.batch.state import connect
from layoutkit.cli import main
from layoutkit.outputs import document_text, dumps
from tests.batch_inbox import (
    CASES,
    OFFICE_WORDS,
    Expected,
    bad_inputs,
    check_accounted,
    copy_fixture,
    hashes,
    office,
    rows,
    synthetic,
)

REPO = Path(__file__).resolve().parent.parent
OFFICE_SUFFIXES = (".docx", ".odt", ".rtf", ".html", ".epub", ".csv", ".rst", ".md")
VANISHES = "vanishes.pdf"


def make_inbox(inbox: Path) -> list[Expected]:
    """Synthetic gazettes (some in language subfolders, some with odd names), a
    fixture, an office document of each format, each bad input, a duplicate and
    a file that will vanish."""
    inbox.mkdir()
    expected = [synthetic(inbox, f"{case}.pdf", case) for case in CASES]
    expected += [synthetic(inbox, "de/Amtsblatt Nr. 3 – Ämter.pdf", "two_column", 1),
                 synthetic(inbox, "fr/l'avis \"spécial\".pdf", "three_column", 2),
                 synthetic(inbox, " ..pdf", "boxed_note", 3),
                 copy_fixture(inbox, "federal register.pdf")]
    expected += [office(inbox, suffix) for suffix in OFFICE_SUFFIXES]
    expected += bad_inputs(inbox)
    shutil.copyfile(inbox / "two_column.pdf", inbox / "two_column_again.pdf")
    expected.append(Expected("two_column_again.pdf", False, "the same content as two_column.pdf"))
    synthetic(inbox, VANISHES, "mixed", 4)
    expected.append(Expected(VANISHES, False, "vanished from the inbox"))
    return expected


@dataclass(frozen=True)
class Processed:
    root: Path
    expected: list[Expected]
    before: Counter[str]
    summary: Summary

    @property
    def inbox(self) -> Path:
        return self.root / "inbox"

    @property
    def out(self) -> Path:
        return self.root / "out"


@pytest.fixture(scope="module")
def processed(tmp_path_factory: pytest.TempPathFactory) -> Processed:
    """The inbox processed with two workers; one file vanishes between the inbox
    being read and its registration."""
    root = tmp_path_factory.mktemp("batch")
    expected = make_inbox(root / "inbox")
    inbox = root / "inbox"
    before = hashes(inbox)
    before[hashlib.sha256((inbox / VANISHES).read_bytes()).hexdigest()] -= 1
    scan = runner.scan

    def scan_then_vanish(folder: Path) -> list[Arrival]:
        found = scan(folder)
        (folder / VANISHES).unlink()
        return found

    patch = pytest.MonkeyPatch()
    patch.setattr(runner, "scan", scan_then_vanish)
    try:
        summary = run_batch(BatchOptions(inbox, root / "out", workers=2))
    finally:
        patch.undo()
    return Processed(root, expected, +before, summary)


def documents(p: Processed) -> dict[str, tuple[str, str | None, str | None, str | None]]:
    """Each document's file: (status, error, language, output)."""
    found = rows(p.out / "batch.sqlite", "SELECT file, status, error, language, output "
                                          "FROM document")
    return {str(f): (str(s), e, lang, o) for f, s, e, lang, o in found}  # type: ignore[misc]


def test_the_inbox_holds_thirty_documents_or_more(processed: Processed) -> None:
    assert len(processed.expected) >= 30
    assert len(documents(processed)) == len(processed.expected)


def test_good_documents_are_accepted_and_bad_ones_rejected_with_their_reason(
        processed: Processed) -> None:
    found = documents(processed)
    for expected in processed.expected:
        name = expected.name
        status, error, _, _ = found[name]
        if expected.accepted:
            assert (status, error) == ("done", None), name
        else:
            assert status == "rejected", name
            assert error is not None and error.startswith(expected.reason), (name, error)


def test_every_file_is_accounted_for_once_with_complete_outputs(processed: Processed) -> None:
    check_accounted(processed.inbox, processed.out, processed.before, len(processed.expected))


def test_the_summary_counts_what_the_run_did(processed: Processed) -> None:
    accepted = sum(e.accepted for e in processed.expected)
    summary = processed.summary
    assert (summary.accepted, summary.rejected, summary.failed, summary.done) == (
        accepted, len(processed.expected) - accepted, 0, accepted)
    pages = rows(processed.out / "batch.sqlite",
                 "SELECT sum(pages) FROM document WHERE status = 'done'")[0][0]
    assert summary.pages == pages
    assert summary.pages > 2 * accepted


def test_language_subfolders_set_the_language_and_odd_names_are_kept(
        processed: Processed) -> None:
    found = documents(processed)
    assert found["de/Amtsblatt Nr. 3 – Ämter.pdf"][2] == "de"
    assert found["fr/l'avis \"spécial\".pdf"][2] == "fr"
    assert found["two_column.pdf"][2] is None
    assert (processed.inbox / "accepted" / "de" / "Amtsblatt Nr. 3 – Ämter.pdf").is_file()
    outputs = {o for _, _, _, o in found.values() if o}
    assert all(processed.out / o in processed.out.iterdir() for o in outputs)
    assert any(o.startswith("Amtsblatt_Nr._3_Ämter_") for o in outputs)
    assert any(o.startswith("l_avis_spécial_") for o in outputs)
    assert any(o.startswith("document_") for o in outputs)  # " ..pdf" has no usable stem


def test_the_symbolic_link_is_rejected_and_what_it_points_to_left_alone(
        processed: Processed) -> None:
    assert (processed.inbox / "rejected" / "escape.pdf").is_symlink()
    assert (processed.root / "outside.pdf").is_file()


def test_office_documents_are_converted_and_read(processed: Processed) -> None:
    found = documents(processed)
    for suffix in OFFICE_SUFFIXES:
        output = found[f"notice{suffix}"][3]
        assert output is not None
        folder = processed.out / output
        assert (folder / "notice.pdf").read_bytes().startswith(b"%PDF-")
        text = (folder / "text.txt").read_text(encoding="utf-8")
        assert all(word in text for word in OFFICE_WORDS), (suffix, text)


def test_outputs_are_what_the_library_reads(processed: Processed) -> None:
    output = documents(processed)["three_column.pdf"][3]
    assert output is not None
    folder = processed.out / output
    document = parse(processed.inbox / "accepted" / "three_column.pdf")
    assert (folder / "document.json").read_text(encoding="utf-8") == dumps(document)
    text = document_text(document)
    assert (folder / "text.txt").read_text(encoding="utf-8") == text + "\n"
    assert text.splitlines()[:3] == list(gazette("three_column").pages[0].lines[:3])


def test_a_second_run_redoes_nothing_and_knows_a_file_dropped_again(
        processed: Processed) -> None:
    shutil.copyfile(processed.inbox / "accepted" / "mixed.pdf", processed.inbox / "mixed.pdf")
    again = run_batch(BatchOptions(processed.inbox, processed.out, workers=2))
    assert (again.accepted, again.rejected, again.failed, again.done) == (0, 1, 0, 0)
    assert (processed.inbox / "rejected" / "mixed.pdf").is_file()
    assert "the same content as mixed.pdf" in (
        processed.inbox / "rejected" / "mixed.pdf.reason.txt").read_text()
    attempts = rows(processed.out / "batch.sqlite", "SELECT max(attempts) FROM action")
    assert attempts == [(1,)]


def test_status_prints_the_databases_view(processed: Processed,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["batch", "status", "--out", str(processed.out)]) == 0
    printed = capsys.readouterr().out
    accepted = sum(e.accepted for e in processed.expected)
    assert f"{accepted} done" in printed
    assert "rejected" in printed and "empty file (0 bytes)" in printed
    assert printed == status_text(f"sqlite:///{processed.out / 'batch.sqlite'}")


def test_the_longest_documents_go_first(tmp_path: Path) -> None:
    """The document to convert starts first, then the PDFs by pages, most first
    (with one worker they run one after another, in the order they were given)."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    synthetic(inbox, "a two pages.pdf", "two_column")
    synthetic(inbox, "b three pages.pdf", "three_column")
    synthetic(inbox, "c four pages.pdf", "mixed")
    office(inbox, ".md")
    summary = run_batch(BatchOptions(inbox, tmp_path / "out"))
    assert summary.done == 4
    started = rows(tmp_path / "out" / "batch.sqlite",
                   "SELECT d.file, d.pages FROM document d JOIN action a ON a.document_id = d.id "
                   "GROUP BY d.id ORDER BY min(a.started)")
    assert started == [("notice.md", 1), ("c four pages.pdf", 4), ("b three pages.pdf", 3),
                       ("a two pages.pdf", 2)]


def test_workers_start_with_one_blas_thread_and_the_environment_is_kept(
        tmp_path: Path) -> None:
    """The workers' fork server starts with one OpenBLAS thread unless the environment
    names a number; the run's own environment is left as it was."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    synthetic(inbox, "two pages.pdf", "two_column")
    before = dict(os.environ)
    assert run_batch(BatchOptions(inbox, tmp_path / "out")).done == 1
    assert dict(os.environ) == before
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver")) as pool:
        threads = pool.submit(os.getenv, runner.BLAS_THREADS).result()
    assert threads == before.get(runner.BLAS_THREADS, "1")


def test_the_schema_has_run_document_and_action_tables(tmp_path: Path) -> None:
    engine = connect(f"sqlite:///{tmp_path / 'state.sqlite'}")
    schema = inspect(engine)
    assert set(schema.get_table_names()) == {"run", "document", "action"}
    columns = {t: {c["name"] for c in schema.get_columns(t)} for t in ("document", "action")}
    assert {"file", "hash", "status", "language", "pages", "error"} <= columns["document"]
    assert {"document_id", "action", "status", "started", "finished", "duration",
            "error"} <= columns["action"]
    assert [u["column_names"] for u in schema.get_unique_constraints("action")] == [
        ["document_id", "action"]]


def test_a_database_of_an_earlier_version_gets_the_columns_added_since(tmp_path: Path) -> None:
    """A state database made before documents were claimed by runs gets the column on
    connecting, its rows kept."""
    url = f"sqlite:///{tmp_path / 'state.sqlite'}"
    engine = connect(url)
    with engine.begin() as db:
        db.execute(text("ALTER TABLE document DROP COLUMN claimed_by"))
    engine.dispose()
    engine = connect(url)
    assert "claimed_by" in {c["name"] for c in inspect(engine).get_columns("document")}
    engine.dispose()


@pytest.mark.parametrize(("argv", "message"), [
    (["batch", "{tmp}/missing", "--out", "{tmp}/out"], "{tmp}/missing: no such inbox folder"),
    (["batch", "{tmp}/in"], "batch: --out DIR is required"),
    (["batch", "{tmp}/in", "--out", "{tmp}/in/out"], "--out {tmp}/in/out: must not be inside"),
    (["batch", "{tmp}/in", "--out", "{tmp}/out", "--workers", "0"],
     "--workers: expected a whole number >= 1, got 0"),
    (["batch", "{tmp}/in", "--out", "{tmp}/out", "--db", "nosuch://x"],
     "--db nosuch://x: cannot open the state database"),
    (["batch", "{tmp}/in", "--out", "{tmp}/out", "--profile", "no-such-profile"],
     "no-such-profile"),
    (["batch", "{tmp}/in", "--out", "{tmp}/out", "--db", "postgresql+psycopg2://u@localhost/d"],
     "cannot open the state database (its driver is not installed: No module named "
     "'psycopg2')"),
    (["batch", "{tmp}/in", "--out", "{tmp}/out", "--db", "postgresql://u@127.0.0.1:1/d"],
     "--db postgresql://u@127.0.0.1:1/d: cannot open the state database ((psycopg."
     "OperationalError) connection failed"),
    (["batch", "{tmp}/in", "--out", "{tmp}/out", "--scheduler", "tcp://127.0.0.1:1"],
     "--scheduler tcp://127.0.0.1:1: cannot reach it"),
])
def test_bad_batch_arguments_are_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
        message: str) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.pdf").write_bytes(b"%PDF-1.4\n")
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("layoutkit: error: ")
    assert message.format(tmp=tmp_path) in err
    assert (tmp_path / "in" / "a.pdf").exists()  # nothing moved


def test_a_relative_inbox_converts_markup_and_every_image_text_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``layoutkit batch inbox --out results`` run from the inbox's parent: the Markdown
    file is converted (LibreOffice is given an absolute profile folder) and the WebP, GIF
    and BMP images, which ``layoutkit text`` reads, are taken; one page is "1 page", and
    the run's start and end are written alike."""
    monkeypatch.chdir(tmp_path)
    inbox = Path("inbox")
    inbox.mkdir()
    office(inbox, ".md")
    scan = REPO / "fixtures" / "scanned" / "cfr-5-page7-two-column.jpg"
    with Image.open(scan) as image:
        top = image.crop((0, 0, image.width, image.height // 4))
        for suffix in (".webp", ".gif", ".bmp"):
            top.save(inbox / f"scan{suffix}")
    assert main(["batch", "inbox", "--out", "results"]) == 0
    found = rows(Path("results") / "batch.sqlite", "SELECT file, status, error FROM document")
    assert sorted(found) == [("notice.md", "done", None), ("scan.bmp", "done", None),
                             ("scan.gif", "done", None), ("scan.webp", "done", None)]
    assert "] notice.md: done (1 page)\n" in capsys.readouterr().err
    assert main(["batch", "status", "--out", "results"]) == 0
    run_line = capsys.readouterr().out.splitlines()[4]
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"
    assert re.fullmatch(rf"  1\tfinished\t{stamp}\t{stamp}\tlocal×1\t4 accepted, 0 rejected, "
                        r"0 failed, 4 done, 4 pages", run_line), run_line


def test_batch_status_help_is_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["batch", "status", "--help"])
    printed = capsys.readouterr().out
    assert stopped.value.code == 0
    assert printed.startswith("usage: layoutkit batch status [-h] [--out DIR] [--db URL]\n")
    assert "--workers" not in printed
