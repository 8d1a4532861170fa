"""The state database: what every batch run saw and did, the single source of truth.

Three tables (SQLAlchemy Core, so any SQLAlchemy URL serves: SQLite by default,
PostgreSQL through psycopg for runs on several machines):

- `run`: one row per `layoutkit batch` run: when, on which folders, how, and its
  counts;
- `document`: one row per file found in the inbox: where it came from and lies now,
  its content hash, status, language, pages and the reason it was rejected or failed;
- `action`: one row per (document, action): status, attempts, when it started and
  finished, how long it took and its error.

File names are stored as text: a name that is not valid UTF-8 (its bytes kept by
Python as lone surrogates) is stored percent-encoded after a ``/``, which no name
relative to the inbox starts with, and read back to the very same name
(`_to_text`, `_to_name`).

Document statuses move ``registered`` (its move decided) → ``accepted`` or
``rejected``; an accepted document is ``working`` while a run (``claimed_by``) does
its actions, and becomes ``done`` when all its actions are, or ``failed`` when one
fails (and is tried again by the next run).  Only the processes that run batches
write here; workers return their results to them.

Several runs may share one database (PostgreSQL) and one inbox: a file is registered
by one run alone (a unique index on the files being registered), and a document is
claimed by one run alone (an atomic update from ``accepted`` or ``failed`` to
``working``).  A run that dies leaves its documents ``working``; the next run to start
gives them back once it knows that run is dead (see `start_run`).

A connection lost to a database server that stops and comes back (a restart, a
fail-over) is made again: each unit of work (a function here, one transaction) is
tried again while the connection cannot be made, for `RECONNECT_WAITS`, and a
run holding its lock takes it again on a new connection (`RunHold`).  A
database that does not come back within that stops the run with one line
(`StateError`); what was recorded is kept, and the next run goes on from it.
"""

from __future__ import annotations

import functools
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar
from urllib.parse import quote_from_bytes, unquote_to_bytes

from sqlalchemy import (
    Column,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    func,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    NoSuchModuleError,
    OperationalError,
    SQLAlchemyError,
)

from ..errors import LayoutkitError, UsageError
from ..files import text_name
from .clock import now

if TYPE_CHECKING:
    from .actions import ActionResult

__all__ = [
    "ACTION",
    "DOCUMENT",
    "METADATA",
    "RECONNECT_WAITS",
    "RUN",
    "DocumentRow",
    "RunHold",
    "StateError",
    "connect",
    "failed",
]

_P = ParamSpec("_P")
_T = TypeVar("_T")

_log = logging.getLogger(__name__)

RECONNECT_WAITS = (0.5, 1.0, 2.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0)
"""Seconds waited before each new try of a unit of work whose connection to the
database server was lost, or cannot be made (27.5 s in all: a server restarted is
back within seconds); then the run stops with one line."""

METADATA = MetaData()

RUN = Table(
    "run", METADATA,
    Column("id", Integer, primary_key=True),
    Column("started", DateTime(timezone=True), nullable=False),
    Column("finished", DateTime(timezone=True)),
    Column("status", String(16), nullable=False),
    Column("inbox", Text, nullable=False),
    Column("out", Text, nullable=False),
    Column("executor", String(16), nullable=False),
    Column("workers", Integer, nullable=False),
    Column("accepted", Integer, nullable=False, default=0),
    Column("rejected", Integer, nullable=False, default=0),
    Column("failed", Integer, nullable=False, default=0),
    Column("done", Integer, nullable=False, default=0),
    Column("pages", Integer, nullable=False, default=0),
)

DOCUMENT = Table(
    "document", METADATA,
    Column("id", Integer, primary_key=True),
    Column("run_id", ForeignKey("run.id"), nullable=False),
    Column("file", Text, nullable=False),
    Column("stored", Text),
    Column("hash", String(64), index=True),
    Column("kind", String(16)),
    Column("status", String(16), nullable=False, index=True),
    Column("language", String(8)),
    Column("pages", Integer),
    Column("output", Text),
    Column("error", Text),
    Column("registered", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
    Column("claimed_by", Integer),
)

Index("document_registering", DOCUMENT.c.file, unique=True,
      sqlite_where=DOCUMENT.c.status == "registered",
      postgresql_where=DOCUMENT.c.status == "registered")
"""A file of the inbox is being registered by one run at a time."""

_ADDED = {"document": ("claimed_by", "INTEGER")}
"""Columns added since the first databases were made, added to those on connecting."""

_SCHEMA_LOCK = -1
"""The PostgreSQL advisory lock held while the tables are made (the runs' locks are
their ids, from 1)."""

ACTION = Table(
    "action", METADATA,
    Column("id", Integer, primary_key=True),
    Column("document_id", ForeignKey("document.id"), nullable=False),
    Column("run_id", ForeignKey("run.id"), nullable=False),
    Column("action", String(32), nullable=False),
    Column("status", String(16), nullable=False),
    Column("attempts", Integer, nullable=False, default=1),
    Column("started", DateTime(timezone=True), nullable=False),
    Column("finished", DateTime(timezone=True)),
    Column("duration", Float),
    Column("error", Text),
    UniqueConstraint("document_id", "action"),
)


@dataclass(frozen=True, slots=True)
class DocumentRow:
    """One ``document`` row (see the table for what each field holds)."""

    id: int
    file: str
    stored: str | None
    hash: str | None
    kind: str | None
    status: str
    language: str | None
    pages: int | None
    output: str | None
    error: str | None


_NAMES = ("file", "stored")
"""The document columns that hold file names."""


def _to_text(name: str) -> str:
    """A file name as the database stores it: as it is when it is valid UTF-8, else
    ``/`` and its bytes percent-encoded."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "/" + quote_from_bytes(os.fsencode(name), safe="/")
    return name


def _to_name(text: str | None) -> str | None:
    """The file name `_to_text` stored as ``text``."""
    if text is None or not text.startswith("/"):
        return text
    return os.fsdecode(unquote_to_bytes(text[1:]))


def _stored(values: dict[str, Any]) -> dict[str, Any]:
    """Column values with the file names (and messages naming files) as the database
    stores them."""
    return {k: _to_text(v) if k in _NAMES and isinstance(v, str)
            else text_name(v) if k == "error" and isinstance(v, str) else v
            for k, v in values.items()}


def _document_row(row: Sequence[Any]) -> DocumentRow:
    """A ``document`` row read back, its file names as they were given."""
    values: list[Any] = [_to_name(v) if k in _NAMES else v
                         for k, v in zip(DocumentRow.__slots__, row, strict=True)]
    return DocumentRow(*values)


def connect(url: str) -> Engine:
    """An engine on the database at ``url`` with the tables created if missing.

    Raises UsageError naming the URL when it cannot be used: a malformed URL, a
    database driver that is not installed, a server that cannot be reached.
    """
    try:
        # a pooled connection the server dropped (restarted) is tested and made again
        engine = create_engine(url, pool_pre_ping=True)
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _write_ahead)
        with engine.begin() as db:
            # runs starting together make the tables one at a time, each after looking
            # for them with the lock held
            if shared(engine):
                db.execute(select(func.pg_advisory_xact_lock(_SCHEMA_LOCK)))
            elif engine.dialect.name == "sqlite":
                # the driver begins no transaction before CREATE TABLE (nor before the
                # look for the table): one that writes at once, waiting for another
                db.exec_driver_sql("BEGIN IMMEDIATE")
            METADATA.create_all(db)
            _add_columns(db)
    except ImportError as exc:
        raise UsageError(f"--db {url}: cannot open the state database (its driver is not "
                         f"installed: {exc})") from None
    except (ArgumentError, NoSuchModuleError, SQLAlchemyError) as exc:
        reason = str(exc).strip().splitlines()[0]
        raise UsageError(f"--db {url}: cannot open the state database ({reason})") from None
    return engine


def _add_columns(db: Connection) -> None:
    """Add the columns of `_ADDED` a database made before them lacks."""
    for table, (column, kind) in _ADDED.items():
        if column not in {c["name"] for c in inspect(db).get_columns(table)}:
            db.execute(text(f"ALTER TABLE {table} ADD COLUMN {column} {kind}"))


def _write_ahead(connection: Any, _record: Any) -> None:
    """Put an SQLite database in write-ahead-log mode, still synced at every commit.

    A commit then syncs the log alone instead of the rollback journal and the
    database: 4-5 ms against 17-20 ms on the ext4 disk measured, paid twice per
    document as the run registers the inbox (before the first document can start)
    and twice as it records each one.  Every commit is as durable as before, and
    readers (``layoutkit batch status``) no longer wait for the run's writes.

    The mode is kept in the file: set by the first run on a new database.  Runs that
    start together on it all try to set it, and SQLite refuses a change of mode while
    another connection makes one, at once ("database is locked", without waiting):
    each looks again, for `_WAL_TRIES`, until the file is in the mode.
    """
    cursor = connection.cursor()
    for _ in range(_WAL_TRIES):
        try:
            if cursor.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal":
                break
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc):
                raise
        time.sleep(_WAL_WAIT)
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


_WAL_TRIES = 100
"""How many times a connection tries to put a new SQLite database in write-ahead-log
mode while other connections do (`_WAL_WAIT` apart: 5 s, as long as SQLite's
driver waits for a lock)."""
_WAL_WAIT = 0.05


def shared(engine: Engine) -> bool:
    """Whether runs may share the database at ``engine`` (a PostgreSQL server; an
    SQLite file is for the runs on one inbox, one at a time)."""
    return engine.dialect.name == "postgresql"


def _lost(exc: DBAPIError) -> bool:
    """Whether ``exc`` is the connection to the database server lost, or not to be
    made (the server stopping, starting, or not there): what trying again mends once
    the server is back.  An SQLite file's errors (a full disk) are not."""
    if exc.connection_invalidated:
        return True
    sqlstate = getattr(exc.orig, "sqlstate", "-")  # PostgreSQL's class of error
    return isinstance(exc, OperationalError) and (
        sqlstate is None or sqlstate.startswith(("08", "57P")))


def first_line(exc: BaseException) -> str:
    """The first line of an error's message (the driver's, for a database error)."""
    orig = getattr(exc, "orig", None) or exc
    return (str(orig).strip().splitlines() or [type(orig).__name__])[0]


def retried(work: Callable[_P, _T]) -> Callable[_P, _T]:
    """``work`` (one unit of work, its own transaction) tried again, after each of
    `RECONNECT_WAITS`, while the connection to the database server is lost
    (`_lost`); other errors, and the last, are raised."""

    @functools.wraps(work)
    def again(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        for wait in (*RECONNECT_WAITS, None):
            try:
                return work(*args, **kwargs)
            except DBAPIError as exc:
                if wait is None or not _lost(exc):
                    raise
                if wait == RECONNECT_WAITS[0]:
                    _log.warning("the state database cannot be reached (%s); trying again "
                                 "for %.0f s", first_line(exc), sum(RECONNECT_WAITS))
                time.sleep(wait)
        raise AssertionError("unreachable")  # the last try returns or raises

    return again


class RunHold:
    """The connection a run holds open to its end: on a database runs share, it holds
    the run's lock (see `start_run`), taken again on a new connection after the
    server was restarted (`renew`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.connection = engine.connect()
        self.run_id = 0

    def start(self, inbox: str, out: str, executor: str, workers: int) -> int:
        """Start the run (see `start_run`); returns its id."""
        self.run_id = start_run(self.connection, inbox, out, executor, workers)
        return self.run_id

    def renew(self) -> None:
        """Make sure the run still holds its lock: on a database runs share, a new
        connection takes it again when the held one was lost (within
        `RECONNECT_WAITS`).  Raises StateError when another run has meanwhile
        taken the run for dead (and its documents back); on an SQLite file, does
        nothing (the inbox's lock is held)."""
        if not shared(self.engine) or not self.run_id:
            return
        try:
            self.connection.execute(select(1))
            self.connection.rollback()
            return
        except DBAPIError as exc:
            if not _lost(exc):
                raise
        self.connection.close()
        self.connection = retried(_hold_again)(self.engine, self.run_id)
        _log.warning("the state database is back: run %d goes on", self.run_id)

    def close(self) -> None:
        """Let the connection (and the run's lock) go."""
        self.connection.close()


def _hold_again(engine: Engine, run_id: int) -> Connection:
    """A new connection holding the lock of the run ``run_id``, which must still be
    ``running`` (see `RunHold.renew`)."""
    connection = engine.connect()
    try:
        connection.execute(select(func.pg_advisory_lock(run_id)))
        status = connection.scalar(select(RUN.c.status).where(RUN.c.id == run_id))
        connection.commit()
    except BaseException:
        connection.close()
        raise
    if status != "running":
        connection.close()
        raise StateError(f"run {run_id}: another run took it for dead while the state "
                         "database was unreachable, and its documents with it; stopped "
                         "(run again for what is left)")
    return connection


def interrupt_run(engine: Engine, run_id: int) -> None:
    """Record the run ``run_id`` as ``interrupted`` and give back the documents it was
    working on, for the next run (tried once: an interrupted run does not wait)."""
    with engine.begin() as db:
        db.execute(update(RUN).where(RUN.c.id == run_id).values(
            finished=now(), status="interrupted"))
        db.execute(update(DOCUMENT).where(DOCUMENT.c.status == "working",
                                          DOCUMENT.c.claimed_by == run_id)
                   .values(status="accepted", claimed_by=None))


def start_run(db: Connection, inbox: str, out: str, executor: str, workers: int) -> int:
    """A new ``run`` row's id, on the connection ``db``, which the run holds open to its
    end (it holds the run's lock, on a database runs share).

    Runs left ``running`` that are dead become ``interrupted``, and the documents they
    left ``working`` are ``accepted`` again, for this run or another to claim.  On a
    database runs share, a run is alive while it holds its lock (a PostgreSQL advisory
    lock on its id, which the server lets go when the run's connection ends, however
    it ends); on another, the caller holds the inbox's lock, so none is.
    """
    with db.begin():
        running = list(db.scalars(select(RUN.c.id).where(RUN.c.status == "running")))
        dead = [run_id for run_id in running if not _alive(db, run_id)]
        if dead:
            db.execute(update(RUN).where(RUN.c.id.in_(dead)).values(status="interrupted"))
            db.execute(update(DOCUMENT).where(DOCUMENT.c.status == "working",
                                              DOCUMENT.c.claimed_by.in_(dead))
                       .values(status="accepted", claimed_by=None))
        result = db.execute(RUN.insert().values(
            started=now(), status="running", inbox=_to_text(inbox), out=_to_text(out),
            executor=executor,
            workers=workers, accepted=0, rejected=0, failed=0, done=0, pages=0))
        run_id = _new_id(result.inserted_primary_key)
        if shared(db.engine):  # held before the row is seen, so never taken for dead
            db.execute(select(func.pg_advisory_lock(run_id)))
        return run_id


def _alive(db: Connection, run_id: int) -> bool:
    """Whether the run ``run_id`` is alive (see `start_run`)."""
    if not shared(db.engine):
        return False
    if not db.scalar(select(func.pg_try_advisory_lock(run_id))):
        return True
    db.execute(select(func.pg_advisory_unlock(run_id)))
    return False


@retried
def claim(engine: Engine, run_id: int, document_id: int) -> bool:
    """Whether run ``run_id`` claimed the document (``accepted`` or ``failed``, now
    ``working``); False when another run has it."""
    with engine.begin() as db:
        claimed = db.execute(update(DOCUMENT).where(
            DOCUMENT.c.id == document_id, DOCUMENT.c.status.in_(["accepted", "failed"]))
            .values(status="working", claimed_by=run_id, updated=now()))
        return bool(claimed.rowcount == 1)


@retried
def moved_since(engine: Engine, file: str, since: datetime, run_id: int,
                other_than: int | None = None) -> bool:
    """Whether another run than ``run_id`` registered ``file`` (as another document than
    ``other_than``) and moved it (or is moving it) after ``since``: a file a run saw in
    the inbox, gone when it came to register or move it, was taken by another run."""
    query = select(func.count()).select_from(DOCUMENT).where(
        DOCUMENT.c.file == _to_text(file), DOCUMENT.c.id != (other_than or 0),
        DOCUMENT.c.run_id != run_id,
        (DOCUMENT.c.status == "registered") | (DOCUMENT.c.updated >= since))
    with engine.connect() as db:
        return bool(db.scalar(query))


def _new_id(key: Any) -> int:
    """The id of a row just inserted."""
    return int(key[0])


@retried
def finish_run(engine: Engine, run_id: int, **counts: int) -> None:
    """Close the run with its counts."""
    with engine.begin() as db:
        db.execute(update(RUN).where(RUN.c.id == run_id).values(
            finished=now(), status="finished", **counts))


@retried
def add_document(engine: Engine, run_id: int, **values: Any) -> int | None:
    """A new ``document`` row's id; None when the row would register a file another run
    is registering (see `DOCUMENT`'s index)."""
    stamp = now()
    try:
        with engine.begin() as db:
            result = db.execute(DOCUMENT.insert().values(run_id=run_id, registered=stamp,
                                                         updated=stamp, **_stored(values)))
            return _new_id(result.inserted_primary_key)
    except IntegrityError:
        return None


@retried
def remove_document(engine: Engine, document_id: int) -> None:
    """Remove a document this run registered for a file another run took."""
    with engine.begin() as db:
        db.execute(DOCUMENT.delete().where(DOCUMENT.c.id == document_id))


@retried
def set_document(engine: Engine, document_id: int, **values: Any) -> None:
    """Change fields of one document."""
    with engine.begin() as db:
        db.execute(update(DOCUMENT).where(DOCUMENT.c.id == document_id)
                   .values(updated=now(), **_stored(values)))


@retried
def documents(engine: Engine, statuses: Iterable[str], inbox: str | None = None, *,
              left: bool = False) -> list[DocumentRow]:
    """The documents in any of ``statuses``, by id; with ``inbox``, only those found
    in that inbox (another inbox may share the database); with ``left``, only those of
    runs that are no longer running."""
    query = (select(*(DOCUMENT.c[name] for name in DocumentRow.__slots__))
             .where(DOCUMENT.c.status.in_(list(statuses))).order_by(DOCUMENT.c.id))
    if inbox is not None:
        query = (query.join(RUN, RUN.c.id == DOCUMENT.c.run_id)
                 .where(RUN.c.inbox == _to_text(inbox)))
    if left:
        query = query.where(DOCUMENT.c.run_id.in_(select(RUN.c.id)
                                                  .where(RUN.c.status != "running")))
    with engine.connect() as db:
        return [_document_row(row) for row in db.execute(query)]


@retried
def document(engine: Engine, document_id: int) -> DocumentRow:
    """The document with id ``document_id``."""
    query = (select(*(DOCUMENT.c[name] for name in DocumentRow.__slots__))
             .where(DOCUMENT.c.id == document_id))
    with engine.connect() as db:
        return _document_row(db.execute(query).one())


@retried
def same_content(engine: Engine, digest: str) -> DocumentRow | None:
    """The first document not rejected whose content hash is ``digest``."""
    query = (select(*(DOCUMENT.c[name] for name in DocumentRow.__slots__))
             .where(DOCUMENT.c.hash == digest, DOCUMENT.c.status != "rejected")
             .order_by(DOCUMENT.c.id).limit(1))
    with engine.connect() as db:
        row = db.execute(query).first()
    return _document_row(row) if row else None


@retried
def done_actions(engine: Engine, document_id: int) -> set[str]:
    """The names of the document's actions that have finished."""
    query = select(ACTION.c.action).where(ACTION.c.document_id == document_id,
                                          ACTION.c.status == "done")
    with engine.connect() as db:
        return set(db.scalars(query))


@retried
def record_actions(engine: Engine, run_id: int, document_id: int,
                   results: Sequence[ActionResult]) -> None:
    """Record one attempt at each of a document's actions (inserted on the first,
    attempts counted on each retry) and the pages an action counted.

    One transaction, so that a run killed meanwhile leaves all of them recorded or
    none (then the next run does the actions again), never an action done without
    the page count it found.
    """
    with engine.begin() as db:
        for result in results:
            values = _stored({"run_id": run_id,
                              "status": "failed" if result.error else "done",
                              "started": result.started, "finished": result.finished,
                              "duration": (result.finished - result.started).total_seconds(),
                              "error": result.error or result.unread})
            changed = db.execute(update(ACTION).where(ACTION.c.document_id == document_id,
                                                      ACTION.c.action == result.action)
                                 .values(attempts=ACTION.c.attempts + 1, **values))
            if changed.rowcount == 0:
                db.execute(ACTION.insert().values(document_id=document_id,
                                                  action=result.action, attempts=1, **values))
            if result.pages is not None:
                db.execute(update(DOCUMENT).where(DOCUMENT.c.id == document_id)
                           .values(updated=now(), pages=result.pages))


def counts(engine: Engine) -> tuple[dict[str, int], dict[tuple[str, str], int], int]:
    """Documents by status, actions by (action, status), and the pages of the
    documents done: the database's view for ``layoutkit batch status``."""
    with engine.connect() as db:
        by_status = {s: int(n) for s, n in db.execute(
            select(DOCUMENT.c.status, func.count()).group_by(DOCUMENT.c.status))}
        by_action = {(a, s): int(n) for a, s, n in db.execute(
            select(ACTION.c.action, ACTION.c.status, func.count())
            .group_by(ACTION.c.action, ACTION.c.status))}
        pages = db.scalar(select(func.coalesce(func.sum(DOCUMENT.c.pages), 0))
                          .where(DOCUMENT.c.status == "done"))
    return by_status, by_action, int(pages or 0)


def runs(engine: Engine) -> list[dict[str, Any]]:
    """Every run, oldest first, as column → value."""
    with engine.connect() as db:
        return [dict(row._mapping) for row in db.execute(select(RUN).order_by(RUN.c.id))]


class StateError(LayoutkitError, OSError):
    """The state database failed during a run (a full disk, a server gone for longer
    than `RECONNECT_WAITS`), or another run took this one for dead meanwhile."""


def failed(url: str, exc: SQLAlchemyError) -> StateError:
    """The error a run stops with when the database at ``url`` fails: one line naming
    the database and the driver's reason (``database or disk is full``)."""
    return StateError(f"{url}: the state database failed ({first_line(exc)}); what was done is "
                      "kept: run the batch again once it can be written")
