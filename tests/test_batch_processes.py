"""Processes, signals and the state database in ``layoutkit batch``: Ctrl-C to the
run's process group while its workers convert, a worker killed part-way, two runs
starting together on a new SQLite database, and a PostgreSQL server restarted
mid-run.  Each ends with every document accounted for once and nothing left
running."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
import pytest

from layoutkit.batch import BatchOptions, run_batch, state
from tests.batch_inbox import check_accounted, hashes, office, rows
from tests.postgres import PostgresServer, postgres_server

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "fixtures" / "pdf" / "cleveland-city-record-2016-04-27.pdf"
SMALL = ROOT / "fixtures" / "pdf" / "officers-letter-hebrew-2023.pdf"
HANG_BOUND = 60.0
"""Seconds after which a run that should have ended is taken to hang."""


def batch_command(inbox: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "layoutkit", "batch", str(inbox), "--out", str(out), *extra]


@contextmanager
def started(command: list[str]) -> Iterator[subprocess.Popen[bytes]]:
    """``command`` running in a session of its own, its output piped; its process group
    killed on the way out if it is still running (a test that failed mid-run)."""
    run = subprocess.Popen(command, cwd=ROOT, start_new_session=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        yield run
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()


def until(ready: object, process: subprocess.Popen[bytes], what: str) -> None:
    """Wait (within :data:`HANG_BOUND`) until ``ready()`` while ``process`` runs."""
    deadline = time.monotonic() + HANG_BOUND
    while not ready():  # type: ignore[operator]
        assert process.poll() is None, f"the run ended before {what}"
        assert time.monotonic() < deadline, f"no {what} within {HANG_BOUND} s"
        time.sleep(0.05)


def below(pid: int) -> list[psutil.Process]:
    """The processes under ``pid`` (none when it is gone)."""
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def alive(processes: list[psutil.Process]) -> list[str]:
    """The command names of those of ``processes`` still running (not zombies)."""
    found = []
    for process in processes:
        try:
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                found.append(process.name())
        except psutil.NoSuchProcess:
            continue
    return found


def test_ctrl_c_to_the_process_group_ends_the_run_and_the_next_finishes(tmp_path: Path) -> None:
    """SIGINT to the run's whole process group, as a terminal's Ctrl-C, while a worker
    converts a document with LibreOffice: the run ends with exit status 130 and one
    line (it hung before, its workers going on), no worker nor converter is left
    running, and the next run finishes every document."""
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    office(inbox, ".docx")
    shutil.copyfile(RECORD, inbox / "record.pdf")
    shutil.copyfile(SMALL, inbox / "letter.pdf")
    before = hashes(inbox)
    with started(batch_command(inbox, out, "--workers", "2")) as run:
        until(lambda: "soffice.bin" in alive(below(run.pid)), run, "conversion under way")
        under = below(run.pid)
        os.killpg(run.pid, signal.SIGINT)
        _, err = run.communicate(timeout=HANG_BOUND)
    assert run.returncode == 130
    lines = err.decode().splitlines()
    assert [line for line in lines if not line.startswith("layoutkit: batch: [")] == [
        "layoutkit: batch: interrupted; run 1 stopped, its documents not done are left "
        "for the next run"]
    time.sleep(0.5)  # a process killed is gone once the kernel has reaped it
    assert alive(under) == []
    assert rows(out / "batch.sqlite", "SELECT status FROM run") == [("interrupted",)]
    assert {s for (s,) in rows(out / "batch.sqlite", "SELECT status FROM document")} <= {
        "accepted", "done"}
    summary = run_batch(BatchOptions(inbox, out, workers=2))
    assert summary.failed == 0
    check_accounted(inbox, out, before, 3)
    docx = next(p for p in out.iterdir() if p.name.startswith("notice"))
    assert "hearing" in (docx / "text.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("sent", [signal.SIGKILL, signal.SIGABRT])
def test_a_worker_killed_fails_its_own_document_alone(tmp_path: Path,
                                                      sent: signal.Signals) -> None:
    """A worker killed as it reads a document (SIGKILL, as the kernel does when memory
    runs out; SIGABRT, as a native library's abort) fails that document alone, with
    one line naming the signal: a new worker reads the documents queued behind it
    (they failed too, BrokenProcessPool), and the next run reads the failed one."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    shutil.copyfile(RECORD, inbox / "record.pdf")  # the most pages: read first
    shutil.copyfile(SMALL, inbox / "letter.pdf")
    (inbox / "letter copy.pdf").write_bytes(SMALL.read_bytes() + b"\n%another\n")
    with started(batch_command(inbox, out, "--workers", "1")) as run:
        def workers() -> list[psutil.Process]:
            """The fork server's children."""
            servers = [p for p in below(run.pid)
                       if "forkserver" in " ".join(p.cmdline())]
            return [child for server in servers for child in server.children()]

        def reading() -> bool:
            # the worker has made the record's staging folder: it is reading the record
            return bool(workers()) and any(out.glob(".record_*.partial")) and \
                not any(p.name.startswith("record_") for p in out.iterdir())

        until(reading, run, "the record read")
        [worker] = workers()
        worker.rlimit(psutil.RLIMIT_CORE, (0, 0))  # no core file of the abort
        os.kill(worker.pid, sent)
        _, err = run.communicate(timeout=HANG_BOUND * 3)
    assert run.returncode == 1, err.decode()
    found = {file: (status, error) for file, status, error in rows(
        out / "batch.sqlite", "SELECT file, status, error FROM document")}
    assert found == {"record.pdf": ("failed", f"parse: its worker was ended by {sent.name}"),
                     "letter.pdf": ("done", None), "letter copy.pdf": ("done", None)}
    assert f"layoutkit: batch: [1/3] record.pdf: failed: its worker was ended by {sent.name}" \
        in err.decode().splitlines()
    again = run_batch(BatchOptions(inbox, out))
    assert (again.done, again.failed) == (1, 0)
    assert rows(out / "batch.sqlite", "SELECT status, count(*) FROM document "
                                      "GROUP BY status") == [("done", 3)]


def _connect(url: str, start: multiprocessing.synchronize.Barrier,
             errors: multiprocessing.queues.Queue[str]) -> None:
    """Connect to ``url`` (making its tables) once every process is ready to."""
    start.wait()
    try:
        state.connect(url).dispose()
    except Exception as exc:
        errors.put(f"{type(exc).__name__}: {exc}")


def test_runs_starting_together_on_a_new_sqlite_database_all_make_it(tmp_path: Path) -> None:
    """Eight processes opening one new SQLite state database at the same moment all
    succeed, and it has its tables once: each made them after looking for them in
    one exclusive transaction (before, 'table run already exists' or 'database is
    locked' in each of ten tries)."""
    context = multiprocessing.get_context("fork")
    for trial in range(5):
        url = f"sqlite:///{tmp_path / f'shared{trial}.sqlite'}"
        start, errors = context.Barrier(8), context.Queue()
        processes = [context.Process(target=_connect, args=(url, start, errors))
                     for _ in range(8)]
        for process in processes:
            process.start()
        for process in processes:
            process.join(HANG_BOUND)
        assert [p.exitcode for p in processes] == [0] * 8
        assert errors.empty(), errors.get()
        assert rows(tmp_path / f"shared{trial}.sqlite",
                    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") == [
            ("action",), ("document",), ("run",)]
        assert rows(tmp_path / f"shared{trial}.sqlite", "PRAGMA journal_mode") == [("wal",)]


def test_two_batch_runs_started_together_on_a_new_sqlite_database_both_run(
        tmp_path: Path) -> None:
    """Two runs on two inboxes sharing one new SQLite database, started together, both
    finish their own document."""
    db = f"sqlite:///{tmp_path / 'shared.sqlite'}"
    for name, source in (("a", SMALL), ("b", ROOT / "fixtures" / "pdf" /
                                        "senate-bill-equality-act.pdf")):
        (tmp_path / name).mkdir()
        shutil.copyfile(source, tmp_path / name / source.name)
    runs = [subprocess.Popen(batch_command(tmp_path / name, tmp_path / f"out-{name}", "--db",
                                           db, "-q"), cwd=ROOT, stderr=subprocess.PIPE)
            for name in ("a", "b")]
    errors = [run.communicate(timeout=HANG_BOUND * 3)[1].decode() for run in runs]
    assert [run.returncode for run in runs] == [0, 0], errors
    assert rows(tmp_path / "shared.sqlite", "SELECT status, count(*) FROM document "
                                            "GROUP BY status") == [("done", 2)]


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    try:
        with postgres_server() as server:
            yield server
    except RuntimeError as exc:  # the programs are not installed
        pytest.skip(str(exc))


def test_a_postgresql_server_restarted_mid_run_the_run_goes_on(
        tmp_path: Path, postgres: PostgresServer) -> None:
    """The PostgreSQL server stopped (every connection ended) for four seconds while
    the run's workers read, then started again: the run connects again, takes its lock
    again and finishes every document once (before: AdminShutdown, a traceback, and
    documents left working)."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    for n in range(4):
        (inbox / f"record {n}.pdf").write_bytes(RECORD.read_bytes() + b"\n%" + bytes([n]))
    before = hashes(inbox)
    url = postgres.database()
    with started(batch_command(inbox, out, "--workers", "2", "--db", url)) as run:
        until(lambda: any(out.glob(".record*.partial")), run, "the documents read")
        postgres.stop()
        time.sleep(4)
        postgres.start()
        _, err = run.communicate(timeout=HANG_BOUND * 4)
    assert run.returncode == 0, err.decode()
    assert "Traceback" not in err.decode()
    check_accounted(inbox, out, before, 4, url)
    assert rows(url, "SELECT status, count(*) FROM document GROUP BY status") == [("done", 4)]
    assert rows(url, "SELECT status FROM run") == [("finished",)]
    assert rows(url, "SELECT count(*), max(attempts) FROM action WHERE status = 'done'") == [
        (4, 1)]


class _DriverError(Exception):
    """A driver's error with PostgreSQL's SQLSTATE (None: no connection was made)."""

    def __init__(self, message: str, sqlstate: str | None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate


def test_a_unit_of_work_is_tried_again_while_the_server_is_away_then_stops(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A unit of work that cannot reach the server (no connection made, or one the
    server ended: SQLSTATE class 08 or 57P) is tried again after each of
    RECONNECT_WAITS, then its error is raised; any other error (an SQLite file's full
    disk, a constraint) is raised at once."""
    from sqlalchemy.exc import IntegrityError, OperationalError

    monkeypatch.setattr(state, "RECONNECT_WAITS", (0.0, 0.0, 0.0))
    calls: list[str] = []

    def failing(error: Exception) -> object:
        @state.retried
        def work() -> str:
            calls.append("try")
            if len(calls) < 3 or isinstance(error, IntegrityError):
                raise error
            return "done"
        return work

    refused = OperationalError("connect", {}, _DriverError("connection refused", None))
    assert failing(refused)() == "done"  # type: ignore[operator]
    assert len(calls) == 3
    calls.clear()
    shutdown = OperationalError("select", {}, _DriverError("terminating connection", "57P01"))
    assert failing(shutdown)() == "done"  # type: ignore[operator]
    calls.clear()
    full = OperationalError("insert", {}, Exception("database or disk is full"))
    with pytest.raises(OperationalError):
        failing(full)()  # type: ignore[operator]
    assert len(calls) == 1
    calls.clear()
    taken = IntegrityError("insert", {}, _DriverError("duplicate key", "23505"))
    with pytest.raises(IntegrityError):
        failing(taken)()  # type: ignore[operator]
    assert len(calls) == 1

    calls.clear()

    @state.retried
    def away() -> None:
        calls.append("try")
        raise refused

    with pytest.raises(OperationalError):
        away()
    assert len(calls) == 4  # the first try and one after each of the three waits
