"""Faults in ``layoutkit batch`` (issue 23): file names no database column takes,
FIFOs, names too long for a staging folder, two inboxes sharing one database, a
database deleted between runs and a run killed with its workers busy.  Each ends
with every document accounted for once and no process left behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from layoutkit.batch import BatchOptions, run_batch, state, status_text
from layoutkit.batch.inbox import NAME_MAX
from tests.batch_inbox import rows
from tests.test_cli import build_pdf

ROOT = Path(__file__).resolve().parent.parent


def document(folder: Path, name: str, words: str) -> Path:
    """A one-page PDF named ``name`` (a str that may hold surrogates: its bytes) whose
    body reads ``words``."""
    folder.mkdir(parents=True, exist_ok=True)
    return build_pdf(folder / name, [[words, "A second line of body text here."]])


def statuses(out: Path) -> dict[str, tuple[str, str | None]]:
    """Each document's file name (as the run gave it) → (status, error)."""
    engine = state.connect(f"sqlite:///{out / 'batch.sqlite'}")
    try:
        return {row.file: (row.status, row.error) for row in state.documents(
            engine, ["registered", "accepted", "rejected", "failed", "done"])}
    finally:
        engine.dispose()


def test_batch_names_fifo_and_long_names(tmp_path: Path) -> None:
    """A name that is not UTF-8, a name with a newline and a 250-character name are
    processed and stored losslessly, a FIFO is rejected with its reason (instead of
    hanging the hash), and ``batch status`` shows every name on one line, escaped."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    latin = os.fsdecode(b"Gr\xfc\xdfe.pdf")
    long_name = "L" * 246 + ".pdf"
    document(inbox, latin, "Greetings from a Latin-1 name.")
    document(inbox, "two\nlines.pdf", "A name with a newline in it.")
    document(inbox, long_name, "A name of two hundred and fifty characters.")
    os.mkfifo(inbox / "pipe.pdf")
    summary = run_batch(BatchOptions(inbox, out))
    assert (summary.accepted, summary.rejected, summary.done, summary.failed) == (3, 1, 3, 0)
    found = statuses(out)
    assert found[latin] == ("done", None)
    assert found["two\nlines.pdf"] == ("done", None)
    assert found[long_name] == ("done", None)
    assert found["pipe.pdf"] == ("rejected", "a FIFO, not a regular file; copy the document "
                                             "in as a file")
    assert (inbox / "accepted" / latin).is_file()
    assert (inbox / "rejected" / "pipe.pdf.reason.txt").is_file()
    folders = [p.name for p in out.iterdir() if p.is_dir()]
    assert len(folders) == 3 and all(len(os.fsencode(f)) <= NAME_MAX for f in folders)
    assert all((out / f / "text.txt").read_text(encoding="utf-8").strip() for f in folders)
    shown = status_text(f"sqlite:///{out / 'batch.sqlite'}")
    assert shown.splitlines()[-1] == ("rejected 3\tpipe.pdf\ta FIFO, not a regular file; "
                                      "copy the document in as a file")


def test_batch_status_escapes_names(tmp_path: Path) -> None:
    """``batch status`` writes a rejected name's newline as ``\\n`` and its bytes that
    are not UTF-8 as ``\\xNN``: one line a document."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    (inbox / "bad\nname.txt").write_text("not a document\n")
    (inbox / os.fsdecode(b"caf\xe9.txt")).write_text("not a document\n")
    run_batch(BatchOptions(inbox, out))
    shown = status_text(f"sqlite:///{out / 'batch.sqlite'}")
    rejected = [line for line in shown.splitlines() if line.startswith("rejected")]
    assert [line.split("\t")[1] for line in rejected] == ["bad\\nname.txt", "caf\\xe9.txt"]


def test_batch_two_inboxes_share_one_database(tmp_path: Path) -> None:
    """Runs on two inboxes writing to one database each process their own documents
    only, with ids and output folders unique across both."""
    db = f"sqlite:///{tmp_path / 'shared.sqlite'}"
    document(tmp_path / "a", "issue.pdf", "The first inbox's issue.")
    document(tmp_path / "b", "issue.pdf", "The second inbox's other issue.")
    first = run_batch(BatchOptions(tmp_path / "a", tmp_path / "out", db))
    second = run_batch(BatchOptions(tmp_path / "b", tmp_path / "out", db))
    assert (first.done, first.failed, second.done, second.failed) == (1, 0, 1, 0)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["issue_1", "issue_2"]
    assert "second inbox" in (tmp_path / "out" / "issue_2" / "text.txt").read_text()


def test_batch_rebuilds_from_accepted_when_the_database_is_gone(tmp_path: Path) -> None:
    """With the database deleted between runs, a document accepted and done before is
    recognised by the content hash its output folder's source.json holds (done, its
    folder kept, not read again beside it), and a new document gets a folder of its
    own."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    document(inbox, "issue.pdf", "The April issue of the gazette.")
    assert run_batch(BatchOptions(inbox, out)).done == 1
    first = (out / "issue_1" / "text.txt").stat()
    (out / "batch.sqlite").unlink()
    document(inbox, "issue.pdf", "The May issue of the gazette.")
    summary = run_batch(BatchOptions(inbox, out))
    assert (summary.accepted, summary.done, summary.failed) == (1, 1, 0)
    outputs = rows(out / "batch.sqlite", "SELECT id, file, stored, status, output, pages "
                                         "FROM document")
    assert outputs == [(1, "issue.pdf", "accepted/issue.pdf", "done", "issue_1", 1),
                       (2, "issue.pdf", "accepted/issue (2).pdf", "done", "issue_2", 1)]
    texts = {p.name: (p / "text.txt").read_text() for p in out.iterdir() if p.is_dir()}
    assert sorted(texts) == ["issue_1", "issue_2"]
    assert "April" in texts["issue_1"] and "May" in texts["issue_2"]
    again = (out / "issue_1" / "text.txt").stat()
    assert (again.st_ino, again.st_mtime_ns) == (first.st_ino, first.st_mtime_ns)


def test_batch_takes_no_stale_folder_for_a_new_document(tmp_path: Path) -> None:
    """With the database deleted and the accepted file taken away, a new document given
    the old one's id gets a folder of its own: a folder whose source.json names other
    content is never taken for its outputs."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    document(inbox, "issue.pdf", "The April issue of the gazette.")
    assert run_batch(BatchOptions(inbox, out)).done == 1
    (out / "batch.sqlite").unlink()
    (inbox / "accepted" / "issue.pdf").unlink()
    document(inbox, "issue.pdf", "The May issue of the gazette.")
    assert run_batch(BatchOptions(inbox, out)).done == 1
    assert rows(out / "batch.sqlite", "SELECT id, output FROM document") == [(1, "issue_1-2")]
    assert "April" in (out / "issue_1" / "text.txt").read_text()
    assert "May" in (out / "issue_1-2" / "text.txt").read_text()


def _descendants(pid: int) -> set[int]:
    """The processes below ``pid``, found by their parents in /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_batch_workers_die_with_the_run(tmp_path: Path) -> None:
    """Killing the run's process alone (SIGKILL, not its group) ends its fork server and
    its workers too, instead of leaving them writing into staging folders."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    for n in range(4):
        (inbox / f"record {n}.pdf").write_bytes(
            (ROOT / "fixtures" / "pdf" / "cleveland-city-record-2016-04-27.pdf").read_bytes()
            + b"\n%" + bytes([n]))
    run = subprocess.Popen([sys.executable, "-m", "layoutkit", "batch", str(inbox), "--out",
                            str(out), "--workers", "2"], cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        below: set[int] = set()
        for _ in range(600):  # until the workers are at work
            below = _descendants(run.pid)
            if any(out.glob(".*.partial")) and len(below) >= 4:
                break
            time.sleep(0.1)
        assert len(below) >= 4, below  # fork server, resource tracker, two workers
        run.send_signal(signal.SIGKILL)
        run.wait()
        for _ in range(300):
            if not any(_alive(pid) for pid in below):
                break
            time.sleep(0.1)
        assert [pid for pid in below if _alive(pid)] == []
    finally:
        run.kill()


def test_batch_notes_a_page_left_unread(tmp_path: Path) -> None:
    """A document with a page past its budget (a fan-out of forms between two pages of
    text) is done, its other pages written, the unread page its note in the database;
    the run goes on with the next document."""
    from tests.hostile import form_fan_out

    inbox, out = tmp_path / "inbox", tmp_path / "out"
    document(inbox, "plain.pdf", "A plain page of body text.")
    (inbox / "fan-out.pdf").write_bytes(form_fan_out(between=True))
    summary = run_batch(BatchOptions(inbox, out))
    assert (summary.accepted, summary.done, summary.failed) == (2, 2, 0)
    found = statuses(out)
    assert found["plain.pdf"] == ("done", None)
    assert found["fan-out.pdf"] == ("done", (
        "parse: read in part: page 2 draws more than 16,000,000 bytes of content "
        "(page_max_content_bytes; its forms counted each time they are drawn), more than "
        "can be read safely"))
    folder = next(p for p in out.iterdir() if p.name.startswith("fan-out"))
    assert (folder / "text.txt").read_text(encoding="utf-8") == "before\n\f\n\fafter\n"
