"""Crash safety and retries of ``layoutkit batch``: runs killed with SIGKILL part-way
and started again account for every inbox file exactly once, on SQLite and on a
PostgreSQL server, and so do two runs sharing a PostgreSQL database and an inbox, one
of them killed; a failed action is tried again by the next run; the Dask executor on a
local cluster."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError, ProgrammingError

from layoutkit.batch import BatchOptions, run_batch, state
from layoutkit.batch.actions import ActionResult
from layoutkit.batch.clock import now
from tests.batch_inbox import check_accounted, hashes, office, rows, synthetic
from tests.postgres import PostgresServer, postgres_server

ROOT = Path(__file__).resolve().parent.parent


def small_inbox(inbox: Path) -> int:
    """Eight good documents (two of them office files) and three bad ones; returns
    how many files there are."""
    inbox.mkdir()
    for seed, case in enumerate(("two_column", "three_column", "mixed", "boxed_note",
                                 "index_mid_page", "staggered_tops")):
        synthetic(inbox, f"issue {seed}.pdf" if seed % 2 else f"de/Ausgabe {seed}.pdf",
                  case, seed)
    office(inbox, ".docx")
    office(inbox, ".md")
    (inbox / "empty.pdf").write_bytes(b"")
    (inbox / "notes.txt").write_text("not a document\n")
    (inbox / "issue 1 again.pdf").write_bytes((inbox / "issue 1.pdf").read_bytes())
    return 11


def batch_command(inbox: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "layoutkit", "batch", str(inbox), "--out", str(out), *extra]


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    with postgres_server() as server:
        yield server


def count(db: Path | str, query: str) -> int:
    """The number ``query`` gives on the database (an SQLite file or a URL), 0 while it
    is not there or locked."""
    if isinstance(db, Path) and not db.exists():
        return 0
    try:
        return int(rows(db, query)[0][0] or 0)  # type: ignore[call-overload]
    except (OperationalError, ProgrammingError):  # locked, or not made yet
        return 0


def start(command: list[str]) -> subprocess.Popen[bytes]:
    """``command`` started in its own process group."""
    return subprocess.Popen(command, cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def kill_when(command: list[str], ready: Callable[[], bool]) -> None:
    """Start ``command`` in its own process group and SIGKILL the whole group (its
    workers too) as soon as ``ready()``; fails if the run ends before that."""
    process = start(command)
    try:
        while not ready():
            assert process.poll() is None, "the run ended before it could be killed"
            time.sleep(0.02)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_runs_killed_part_way_then_resumed_account_for_every_file(
        tmp_path: Path, request: pytest.FixtureRequest, database: str) -> None:
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    files = small_inbox(inbox)
    before = hashes(inbox)
    url = request.getfixturevalue("postgres").database() if database == "postgresql" else None
    db: Path | str = url or out / "batch.sqlite"
    command = batch_command(inbox, out, "--workers", "2", *(["--db", url] if url else []))
    # while the inbox is being registered
    kill_when(command, lambda: count(db, "SELECT count(*) FROM document") >= 2)
    # while the actions run: one document finished, others under way
    kill_when(command, lambda: count(db, "SELECT count(*) FROM document "
                                         "WHERE status = 'done'") >= 1)
    assert count(db, "SELECT count(*) FROM document WHERE status = 'done'") < 8
    summary = run_batch(BatchOptions(inbox, out, url, workers=2))
    assert summary.failed == 0
    check_accounted(inbox, out, before, files, db)
    assert count(db, "SELECT count(*) FROM document WHERE status = 'done'") == 8
    assert count(db, "SELECT count(*) FROM document WHERE status = 'rejected'") == 3
    statuses = [status for (status,) in rows(db, "SELECT status FROM run ORDER BY id")]
    assert statuses == ["interrupted", "interrupted", "finished"]
    # no action was done twice: each one finished once, in one attempt
    assert rows(db, "SELECT count(*), max(attempts) FROM action WHERE status = 'done'") == [
        (10, 1)]


def test_two_runs_sharing_a_database_and_an_inbox_one_killed_do_each_file_once(
        tmp_path: Path, postgres: PostgresServer) -> None:
    """Two runs on one PostgreSQL database and one inbox at once, the first killed with
    SIGKILL once it has claimed documents and finished one, the other left to finish,
    then a run resumed: every file is accounted for once, every action done once."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    files = small_inbox(inbox)
    before = hashes(inbox)
    url = postgres.database()
    command = batch_command(inbox, out, "--workers", "2", "--db", url)
    killed = start(command)
    other: subprocess.Popen[bytes] | None = None
    try:
        # the second run starts while the first registers the inbox
        while count(url, "SELECT count(*) FROM document") < 2:
            assert killed.poll() is None, "the first run ended before it registered"
            time.sleep(0.02)
        other = start(command)
        while count(url, "SELECT count(*) FROM document WHERE status = 'done' "
                         "AND claimed_by = 1") < 1:
            assert killed.poll() is None, "the first run ended before it could be killed"
            time.sleep(0.02)
    finally:
        os.killpg(killed.pid, signal.SIGKILL)
        killed.wait()
    assert other is not None and other.wait(timeout=900) == 0
    run_batch(BatchOptions(inbox, out, url, workers=2))
    check_accounted(inbox, out, before, files, url)
    assert count(url, "SELECT count(*) FROM document WHERE status = 'done'") == 8
    assert count(url, "SELECT count(*) FROM document WHERE status = 'rejected'") == 3
    assert sorted(status for (status,) in rows(url, "SELECT status FROM run")) == [
        "finished", "finished", "interrupted"]
    assert rows(url, "SELECT count(*), max(attempts) FROM action WHERE status = 'done'") == [
        (10, 1)]


def test_a_failed_action_is_tried_again_by_the_next_run(tmp_path: Path) -> None:
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    office(inbox, ".md")
    synthetic(inbox, "gazette.pdf", "two_column")
    nothing = tmp_path / "no-programs"
    nothing.mkdir()
    first = subprocess.run(batch_command(inbox, out), cwd=ROOT, capture_output=True,
                           text=True, env={**os.environ, "PATH": str(nothing)}, check=False)
    assert first.returncode == 1
    assert first.stderr.splitlines()[-1].startswith(
        "layoutkit: error: batch: 1 document(s) failed, see layoutkit batch status; run 1: "
        "2 accepted, 0 rejected, 1 failed, 1 done")
    db = out / "batch.sqlite"
    assert rows(db, "SELECT status, error FROM document WHERE file = 'notice.md'") == [
        ("failed", "convert: converting it needs pandoc, which is not installed "
                   "(make system installs it)")]
    second = run_batch(BatchOptions(inbox, out))
    assert (second.accepted, second.failed, second.done) == (0, 0, 1)
    assert rows(db, "SELECT action, status, attempts FROM action ORDER BY document_id, "
                    "action") == [("parse", "done", 1), ("convert", "done", 2),
                                  ("parse", "done", 1)]
    assert (out / "notice_2" / "notice.pdf").is_file()


def test_a_documents_results_are_recorded_all_or_none(tmp_path: Path) -> None:
    """A job's results and the page count are recorded in one transaction: an error
    part-way leaves none of them, so that a run killed while recording never leaves
    a document whose actions are done but whose pages are unknown."""
    db = tmp_path / "state.sqlite"
    engine = state.connect(f"sqlite:///{db}")
    with engine.connect() as held:
        run_id = state.start_run(held, "inbox", "out", "local", 1)
    document_id = state.add_document(engine, run_id, file="notice.md", kind="office",
                                     status="accepted")
    assert document_id is not None
    stamp = now()
    good = [ActionResult("convert", stamp, stamp), ActionResult("parse", stamp, stamp, None, 3)]
    broken = ActionResult("tokens", stamp, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        state.record_actions(engine, run_id, document_id, [*good, broken])
    assert rows(db, "SELECT count(*) FROM action") == [(0,)]
    assert state.document(engine, document_id).pages is None
    state.record_actions(engine, run_id, document_id, good)
    engine.dispose()
    assert rows(db, "SELECT action, status, attempts FROM action ORDER BY id") == [
        ("convert", "done", 1), ("parse", "done", 1)]
    assert rows(db, "SELECT pages FROM document") == [(3,)]


def test_the_dask_executor_runs_the_actions_on_a_cluster(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    for seed, case in enumerate(("two_column", "three_column", "boxed_note")):
        synthetic(inbox, f"{case}.pdf", case, seed)
    (inbox / "truncated.pdf").write_bytes((inbox / "two_column.pdf").read_bytes()[:900])
    before = hashes(inbox)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        summary = run_batch(BatchOptions(inbox, out, workers=2,
                                         scheduler=cluster.scheduler_address))
    assert (summary.accepted, summary.rejected, summary.failed, summary.done) == (3, 1, 0, 3)
    check_accounted(inbox, out, before, 4)
    assert rows(out / "batch.sqlite", "SELECT executor, workers, done FROM run") == [
        ("dask", 2, 3)]
