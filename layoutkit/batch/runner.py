"""One batch run: the inbox's files registered, their actions run, everything recorded.

The accepted documents' actions run in a process pool or on a Dask cluster, and
everything is recorded in the state database.

- A run can be killed at any moment and started again: moves are finished from what
  the database says was decided, actions recorded as done are not redone, failed ones
  are tried again.
- A document's output folder appears (by a rename of its staging folder) only once all
  its actions are done.
- Runs on a PostgreSQL database may share it and the inbox, on one machine or several:
  each file is registered by one run and each document claimed by one (see `state`).
  Runs on an SQLite database take the inbox one at a time.
"""

from __future__ import annotations

import fcntl
import importlib
import logging
import multiprocessing
import multiprocessing.forkserver
import os
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import IO, Any

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from ..errors import UsageError
from ..loudness import Loudness
from ..outputs.named import DEFAULT
from ..profile import load_profile
from . import manifest, state
from .actions import ActionResult, Job, actions_for, clear_scratch, run_job, start_worker
from .clock import now
from .inbox import (
    ACCEPTED,
    NAME_MAX,
    REJECTED,
    Arrival,
    check,
    content_hash,
    fitted,
    free_name,
    kind_of,
    move,
    open_lock,
    own_places,
    refused,
    safe_stem,
    scan,
    shown,
    write_reason,
)
from .manifest import PARTIAL as _PARTIAL
from .pool import Lost, run_jobs
from .progress import Progress, counted

__all__ = ["EXECUTORS", "BatchOptions", "Summary", "run_batch"]

EXECUTORS = ("local", "dask")
DATABASE = "batch.sqlite"
"""The state database's file in the output folder when no ``--db`` is given."""
WORKER_MODULES = ("__main__", "layoutkit.batch.pool", "layoutkit.batch.actions",
                  "layoutkit.batch.orphans")
"""What a local worker runs: the program's main module (multiprocessing's default
preload), the pool's worker loop and the actions.  The fork server imports them
once, and every worker is forked from it with them loaded."""

BLAS_THREADS = "OPENBLAS_NUM_THREADS"
"""The environment variable that sets how many threads OpenBLAS (numpy's) starts."""

DASK_LOGGING = "DASK_LOGGING__DISTRIBUTED"
"""The environment variable that sets the level of Dask distributed's logs."""

SCHEDULER_TIMEOUT = "5s"
"""How long a run tries to reach a Dask scheduler before it gives up (and moves
nothing)."""

Execute = Callable[[Sequence[Job]], Generator[tuple[Job, Sequence[ActionResult]], None, None]]
"""Runs jobs on the workers: yields each job with its results, as they finish."""

TAKEN = "taken by another run"
"""What becomes of a file of the inbox another run registered first."""

_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BatchOptions:
    """How a batch runs: the ``inbox`` to take documents from, the folder ``out`` to
    write each one's outputs to, the state database's SQLAlchemy URL ``db``
    (default: ``sqlite:///OUT/batch.sqlite``), ``workers`` processes, the
    ``executor`` (``local`` or ``dask``), a Dask ``scheduler`` address (implies
    ``dask``; without one a local Dask cluster is started), a ``profile`` and the
    ``outputs`` written."""

    inbox: Path
    out: Path
    db: str | None = None
    workers: int = 1
    executor: str = "local"
    scheduler: str | None = None
    profile: str | None = None
    loudness: Loudness = field(default_factory=Loudness)
    """How loud the local workers are (as the command line that started the run)."""
    outputs: tuple[str, ...] = DEFAULT
    """The outputs written into each document's folder, by name
    (`layoutkit.outputs.named.FILES`)."""

    @property
    def on_dask(self) -> bool:
        """Whether the actions run on a Dask cluster."""
        return self.executor == "dask" or self.scheduler is not None

    def database(self) -> str:
        """The state database's URL."""
        return self.db or f"sqlite:///{(self.out / DATABASE).resolve()}"

    @property
    def inbox_key(self) -> str:
        """The inbox as the database names it (runs on other inboxes may share it)."""
        return str(self.inbox.resolve())


@dataclass(frozen=True, slots=True)
class Summary:
    """What one run did: documents accepted, rejected and failed, documents finished
    and their pages, in ``seconds``."""

    run_id: int
    accepted: int
    rejected: int
    failed: int
    done: int
    pages: int
    seconds: float

    @property
    def pages_per_second(self) -> float:
        """Pages finished per second of the run."""
        return self.pages / self.seconds if self.seconds > 0 else 0.0

    def text(self) -> str:
        """The summary as the command prints it."""
        return (f"run {self.run_id}: {self.accepted} accepted, {self.rejected} rejected, "
                f"{self.failed} failed, {self.done} done, {counted(self.pages, 'page')} in "
                f"{self.seconds:.1f} s ({self.pages_per_second:.1f} pages/s)\n")


def run_batch(options: BatchOptions, progress: IO[str] | None = None) -> Summary:
    """Process every document waiting in ``options.inbox``; returns the run's summary.

    Progress goes to ``progress`` (a bar when it is a terminal, else one line per
    document; None: nothing).  Raises UsageError for bad options, a missing inbox, an
    inbox another run holds or whose own places hold a symbolic link, a state
    database or a Dask scheduler that cannot be used: all found before any file is
    moved; `state.StateError` when the database fails during the run (a full
    disk): what it recorded, and the files, are as a killed run leaves them, which
    the next run finishes.
    """
    _check(options)
    if options.profile:
        load_profile(options.profile)  # a bad profile stops the run before anything moves
    started = time.monotonic()
    if not options.on_dask:
        _start_fork_server()
    options.out.mkdir(parents=True, exist_ok=True)
    engine = state.connect(options.database())
    try:
        with _locked(options.inbox, state.shared(engine)), _executor(options) as execute, \
                closing(state.RunHold(engine)) as hold:
            run_id = hold.start(options.inbox_key, str(options.out.resolve()),
                                "dask" if options.on_dask else "local", options.workers)
            try:
                return _run(engine, hold, options, progress, started, execute)
            except KeyboardInterrupt:
                with suppress(SQLAlchemyError):
                    state.interrupt_run(engine, run_id)
                raise Interrupted(f"batch: interrupted; run {run_id} stopped, its documents "
                                  "not done are left for the next run") from None
    except SQLAlchemyError as exc:
        raise state.failed(options.database(), exc) from None
    finally:
        engine.dispose()


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C (SIGINT), its workers ended: what it left, in words."""


def _run(engine: Engine, hold: state.RunHold, options: BatchOptions,
         progress: IO[str] | None, started: float, execute: Execute) -> Summary:
    """The run itself, once the inbox is locked (or the database shared), the executor
    ready and the run started on the connection ``hold`` holds open."""
    run_id = hold.run_id
    batch = _Batch(engine, hold, options)
    for row in state.documents(engine, ["registered"], options.inbox_key, left=True):
        batch.place(row)  # moves a dead run decided
    batch.recover()  # files of accepted/ the database does not know: read them again
    arrivals = scan(options.inbox)
    with Progress(progress, len(arrivals)) as bar:
        for arrival in arrivals:
            bar.advance(shown(arrival.name), batch.register(arrival))
    pending = batch.pending()
    # closed as the loop is left, by an error or Ctrl-C too: the workers end with it
    with Progress(progress, len(pending)) as bar, closing(execute(pending)) as finished:
        for job, results in finished:
            bar.advance(shown(job.source.name), batch.record(job, results))
    summary = Summary(run_id, batch.accepted, batch.rejected, batch.failed, batch.done,
                      batch.pages, time.monotonic() - started)
    state.finish_run(engine, run_id, accepted=summary.accepted, rejected=summary.rejected,
                     failed=summary.failed, done=summary.done, pages=summary.pages)
    return summary


def _check(options: BatchOptions) -> None:
    if not options.inbox.is_dir():
        raise UsageError(f"{options.inbox}: " + ("is a file, expected the inbox folder"
                                                 if options.inbox.exists() else
                                                 "no such inbox folder"))
    if options.out.resolve().is_relative_to(options.inbox.resolve()):
        raise UsageError(f"--out {options.out}: must not be inside the inbox {options.inbox}")
    if isinstance(options.workers, bool) or options.workers < 1:
        raise UsageError(f"--workers: expected a whole number >= 1, got {options.workers!r}")
    if options.executor not in EXECUTORS:
        raise UsageError(f"--executor {options.executor!r}: expected one of "
                         f"{', '.join(EXECUTORS)}")


def _start_fork_server() -> None:
    """Start the local workers' fork server now, with `WORKER_MODULES` to
    import, so that it loads them while this process registers the inbox instead
    of after (a fork server already running, from an earlier run in this process,
    is kept).

    The server is started with one BLAS thread (unless the environment names a
    number): the documents' actions make no use of more, and OpenBLAS starting a
    thread per core as numpy is imported keeps them spinning for a tenth of a second
    of CPU taken from the work beside it (the server's CPU 0.34 -> 0.22 s).

    It is started ignoring SIGINT, and so are the workers forked from it: a terminal's
    Ctrl-C, sent to the whole process group, is for this process to handle (it ends
    the workers, see `pool`); the server would otherwise print a traceback when
    it came as it imported the modules, and a worker stop part-way."""
    multiprocessing.get_context("forkserver").set_forkserver_preload(list(WORKER_MODULES))
    saved = os.environ.get(BLAS_THREADS)
    os.environ.setdefault(BLAS_THREADS, "1")
    try:
        with _sigint_ignored():
            multiprocessing.forkserver.ensure_running()
    finally:
        if saved is None:
            del os.environ[BLAS_THREADS]


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Runs the block with SIGINT ignored (inherited so by the processes it starts),
    when this is the main thread (the only one that may set a signal's handler)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, saved)


@contextmanager
def _locked(inbox: Path, shared: bool) -> Iterator[None]:
    """Hold the inbox's lock file for the run (the system releases it when the
    process dies, however it dies): alone, or with the other runs of a ``shared``
    database.  The inbox's own places are refused if a link is planted there
    (`inbox.own_places`) before anything is moved."""
    own_places(inbox)
    with open_lock(inbox) as fh:
        try:
            fcntl.flock(fh, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError(f"{inbox}: another batch run is using this inbox"
                             + ("" if shared else " (runs share an inbox on a PostgreSQL "
                                                  "database, --db postgresql://...)")) from None
        yield


class _Batch:
    """The run's dealings with the database and the folders, with its counts."""

    def __init__(self, engine: Engine, hold: state.RunHold, options: BatchOptions) -> None:
        self.engine, self.hold, self.options = engine, hold, options
        self.run_id = hold.run_id
        self.accepted = self.rejected = self.failed = self.done = self.pages = 0
        self.scanned = now()
        """When the run looked into the inbox (a file gone since may have been taken
        by another run)."""

    def register(self, arrival: Arrival) -> str:
        """Record a file found in the inbox, decide where it goes and move it there;
        returns ``accepted``, ``rejected: reason`` or, for a file another run has
        taken, ``taken by another run``."""
        pages: int | None = None
        digest = ""
        self.hold.renew()
        try:
            reason = refused(arrival.path)  # before the hash: a FIFO would hang it
            if reason is None:
                digest = content_hash(arrival.path)
                same = state.same_content(self.engine, digest)
                if same is not None:
                    reason = (f"the same content as {same.file} "
                              f"(document {same.id}, {same.status})")
                else:
                    pages, reason = check(arrival.path)
        except FileNotFoundError:
            if state.moved_since(self.engine, arrival.name, self.scanned, self.run_id):
                return TAKEN
            vanished = state.add_document(self.engine, self.run_id, file=arrival.name,
                                          status="registered", language=arrival.language)
            return TAKEN if vanished is None else self._vanished(vanished)
        except OSError as exc:
            digest, reason = "", f"cannot be read ({exc.strerror or exc})"
        folder = self.options.inbox / (REJECTED if reason else ACCEPTED)
        target = free_name(folder / Path(arrival.name).parent, arrival.path.name)
        document_id = state.add_document(
            self.engine, self.run_id, file=arrival.name, hash=digest or None,
            stored=self._relative(target), kind=kind_of(arrival.name),
            status="registered", language=arrival.language, pages=pages, error=reason)
        if document_id is None:
            return TAKEN
        if state.moved_since(self.engine, arrival.name, self.scanned, self.run_id,
                             other_than=document_id):
            # another run registered and moved it while this one read it: its move may
            # even be the one this run would make (the same free name)
            state.remove_document(self.engine, document_id)
            return TAKEN
        return self.place(state.document(self.engine, document_id))

    def place(self, row: state.DocumentRow) -> str:
        """Finish moving a registered document to the place recorded for it (another
        free name if that has been taken meanwhile); returns its new status."""
        if row.stored is None:
            return self._vanished(row.id)
        source, target = self.options.inbox / row.file, self.options.inbox / row.stored
        try:
            while not move(source, target, self.options.inbox):
                target = free_name(target.parent, source.name)
                state.set_document(self.engine, row.id, stored=self._relative(target))
        except FileNotFoundError:
            if state.moved_since(self.engine, row.file, self.scanned, self.run_id,
                                 other_than=row.id):
                state.remove_document(self.engine, row.id)
                return TAKEN
            return self._vanished(row.id)
        if row.error:
            write_reason(self.options.inbox, target, row.error + "\n")
            state.set_document(self.engine, row.id, status="rejected")
            self.rejected += 1
            return f"rejected: {row.error}"
        state.set_document(self.engine, row.id, status="accepted",
                           output=self._output_name(row))
        self.accepted += 1
        return "accepted"

    def _output_name(self, row: state.DocumentRow) -> str:
        """A name for the accepted document's output folder: its file's stem and id,
        shortened to leave room for the staging folder's dot and ``.partial``, and
        numbered on when a folder of that name (or its staging folder, unless empty) is
        there already: left by a run whose database was since deleted, it is not this
        document's, whose actions have not started."""
        stem, limit = safe_stem(row.file), NAME_MAX - len(f".{_PARTIAL}")
        for n in range(1, 10_000):
            name = fitted(stem, f"_{row.id}" if n == 1 else f"_{row.id}-{n}", limit)
            if not os.path.lexists(self.options.out / name) and \
                    manifest.vacant(self.options.out / f".{name}{_PARTIAL}"):
                return name
        raise FileExistsError(f"{self.options.out}: no free output folder for {row.file}")

    def recover(self) -> None:
        """Register again the accepted files the database does not know: it was
        deleted or replaced by an empty one, or a run that did so was killed before
        it had registered them all.  A file whose output folder is there (its
        `manifest` names the file's content hash) is done already; one whose
        staging folder is there is finished in it; any other is read again into a new
        output folder.  None is lost, none is written twice, and no folder is taken
        for a document it was not made from."""
        accepted = self.options.inbox / ACCEPTED
        # listed before the database is read: a run sharing it records where a file
        # goes before it moves it there
        found = scan(accepted) if accepted.is_dir() else []
        if not found:
            return
        rows = state.documents(self.engine, ["registered", "accepted", "working", "rejected",
                                             "failed", "done"], self.options.inbox_key)
        known = {row.stored for row in rows}
        contents = {row.hash for row in rows if row.status != "rejected"}
        outputs: dict[str, manifest.Made] | None = None  # read once, if needed
        for arrival in found:
            stored = f"{ACCEPTED}/{arrival.name}"
            if stored in known or refused(arrival.path):
                continue
            digest = content_hash(arrival.path)
            if digest in contents:  # a known document's file, moving to a new name
                continue
            contents.add(digest)
            if outputs is None:
                outputs = manifest.made(self.options.out)
            document_id = state.add_document(
                self.engine, self.run_id, file=arrival.name, stored=stored, hash=digest,
                kind=kind_of(arrival.name), status="registered", language=arrival.language)
            if document_id is None:  # another run sharing the database registers it
                continue
            made = outputs.get(digest)
            if made is not None and made.done:
                state.set_document(self.engine, document_id, status="done",
                                   output=made.folder, pages=made.pages)
                _log.info("%s: accepted and done before, unknown to the database: its "
                          "outputs are in %s", shown(stored), shown(made.folder))
                continue
            output = made.folder if made is not None else \
                self._output_name(state.document(self.engine, document_id))
            state.set_document(self.engine, document_id, status="accepted", output=output)
            _log.info("%s: accepted before, unknown to the database: read again",
                      shown(stored))

    def _vanished(self, document_id: int) -> str:
        reason = "vanished from the inbox before it could be moved"
        state.set_document(self.engine, document_id, status="rejected", stored=None,
                           error=reason)
        self.rejected += 1
        return f"rejected: {reason}"

    def _relative(self, path: Path) -> str:
        return path.relative_to(self.options.inbox).as_posix()

    def pending(self) -> list[Job]:
        """A job for each accepted or failed document with actions left to do (those
        with none left are finished on the spot), the longest first.

        Longest first, so that the workers end on short jobs and together: jobs with
        a conversion to do (seconds each, and pages unknown until it is done), then
        the most pages.
        """
        rows = [row for row in state.documents(self.engine, ["accepted", "failed"],
                                               self.options.inbox_key)
                if state.claim(self.engine, self.run_id, row.id)]
        jobs, sizes = [], {}
        for row in rows:
            left = tuple(a for a in actions_for(row.kind or "pdf")
                         if a not in state.done_actions(self.engine, row.id))
            job = self._job(row, left)
            if left:
                manifest.write(job.staging, row.file, row.hash)
                jobs.append(job)
                sizes[row.id] = ("convert" in left, row.pages or 0)
            else:
                self._finish(row, job)
        jobs.sort(key=lambda job: sizes[job.document_id], reverse=True)
        share = max(1, self.options.workers // max(1, len(jobs)))
        if not self.options.on_dask and share > 1:
            jobs = [replace(job, jobs=share) for job in jobs]
        return jobs

    def _job(self, row: state.DocumentRow, left: tuple[str, ...]) -> Job:
        assert row.stored is not None and row.output is not None
        source = self.options.inbox / row.stored
        staging = self.options.out / f".{row.output}{_PARTIAL}"
        pdf = source if row.kind == "pdf" else staging / fitted(safe_stem(row.file), ".pdf")
        return Job(row.id, source, pdf, staging, left, self.options.profile,
                   language=row.language, outputs=self.options.outputs)

    def record(self, job: Job, results: Sequence[ActionResult]) -> str:
        """Record the job's results; a document whose actions are all done gets its
        output folder.  Returns ``done`` or ``failed: reason``."""
        self.hold.renew()
        state.record_actions(self.engine, self.run_id, job.document_id, results)
        failed = next((r for r in results if r.error), None)
        if failed is not None or len(results) < len(job.actions):
            error = failed.error if failed else "the worker returned no result"
            state.set_document(self.engine, job.document_id, status="failed",
                               error=f"{failed.action if failed else 'run'}: {error}")
            self.failed += 1
            return f"failed: {error}"
        unread = "; ".join(f"{r.action}: {r.unread}" for r in results if r.unread)
        return self._finish(state.document(self.engine, job.document_id), job, unread or None)

    def _finish(self, row: state.DocumentRow, job: Job, unread: str | None = None) -> str:
        """Rename the staging folder to the output folder (unless a killed run did);
        the pages the actions left ``unread`` are the done document's note."""
        assert row.output is not None
        final = self.options.out / row.output
        if final.exists() and job.staging.is_dir() and \
                manifest.made_from(final) not in (row.hash, None):
            # not this document's: a folder left by a run whose database was deleted
            row = replace(row, output=self._output_name(row))
            state.set_document(self.engine, row.id, output=row.output)
            final = self.options.out / str(row.output)
        if not final.exists():  # else a killed run renamed it
            clear_scratch(job.staging)
            manifest.write(job.staging, row.file, row.hash, row.pages, done=True)
            job.staging.rename(final)
        state.set_document(self.engine, row.id, status="done", error=unread)
        self.done += 1
        self.pages += row.pages or 0
        return f"done ({counted(row.pages or 0, 'page')})" + (f", {unread}" if unread else "")


@contextmanager
def _executor(options: BatchOptions) -> Iterator[Execute]:
    """The run's way of executing jobs: a local process pool, or a client of a Dask
    cluster (a local one of ``workers`` processes, or the ``scheduler``'s), connected
    here, before the run moves any file.  Raises UsageError when distributed is not
    installed or the scheduler cannot be reached."""
    if not options.on_dask:
        yield partial(_on_pool, options.workers, options.loudness)
        return
    if not logging.getLogger().isEnabledFor(logging.INFO):
        # Dask's information (a cluster started, workers joining), in this process and
        # in the workers it starts, only with -v
        os.environ.setdefault(DASK_LOGGING, "warning")
    try:
        dask: Any = importlib.import_module("distributed")  # its API is untyped
    except ImportError:
        raise UsageError("--executor dask: needs the distributed package "
                         "(pip install 'layoutkit[dask]')") from None
    cluster: Any = None
    try:
        if options.scheduler is None:
            cluster = dask.LocalCluster(n_workers=options.workers, threads_per_worker=1,
                                        dashboard_address=None)
        try:
            client = dask.Client(options.scheduler or cluster, timeout=SCHEDULER_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            raise UsageError(f"--scheduler {options.scheduler}: cannot reach it "
                             f"({str(exc).strip().splitlines()[0]})") from None
        with client:
            yield partial(_on_dask, dask, client)
    finally:
        if cluster is not None:
            cluster.close()


def _on_pool(workers: int, loudness: Loudness, jobs: Sequence[Job]
             ) -> Generator[tuple[Job, Sequence[ActionResult]], None, None]:
    """Each job run by a local worker (of ``workers``, as loud as ``loudness``), with its
    results, as the workers finish them; a job whose worker died has its first action
    failed with the signal that ended it, and costs no other job (see `pool`)."""
    for job, done in run_jobs(jobs, workers, run_job, start_worker, (os.getpid(), loudness)):
        if isinstance(done, Lost):
            stamp = now()
            yield job, (ActionResult(job.actions[0], stamp, stamp, done.reason),)
        else:
            yield job, done


def _on_dask(dask: Any, client: Any, jobs: Sequence[Job]
             ) -> Generator[tuple[Job, Sequence[ActionResult]], None, None]:
    """Each job run on the Dask cluster of ``client``, with its results, as the
    workers finish them."""
    if not jobs:
        return
    futures = {client.submit(run_job, job, pure=False): job for job in jobs}
    for future in dask.as_completed(list(futures)):
        yield futures[future], _results(future.result, futures[future])


def _results(result: Any, job: Job) -> Sequence[ActionResult]:
    """The job's results, or its first action failed with the reason its worker gave
    none (a worker that died, a lost connection)."""
    try:
        return tuple(result())
    except Exception as exc:
        stamp = now()
        return (ActionResult(job.actions[0], stamp, stamp,
                             f"the worker failed: {type(exc).__name__}: {exc}"),)
