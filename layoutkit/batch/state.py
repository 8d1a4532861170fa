"""The state database: what every batch run saw and did, the single source of truth.

Three tables (SQLAlchemy Core, so any SQLAlchemy URL serves: SQLite by default,
PostgreSQL through psycopg for runs on several machines):

``run``       one row per ``layoutkit batch`` run: when, on which folders, how, and
              its counts;
``document``  one row per file found in the inbox: where it came from and lies now,
              its content hash, status, language, pages and the reason it was
              rejected or failed;
``action``    one row per (document, action): status, attempts, when it started
              and finished, how long it took and its error.

Document statuses move ``registered`` (its move decided) → ``accepted`` or
``rejected``; an accepted document becomes ``done`` when all its actions are,
or ``failed`` when one fails (and is tried again by the next run).  Only the
process that runs the batch writes here; workers return their results to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Column,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    func,
    select,
    update,
)
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

from ..errors import UsageError
from .clock import now

if TYPE_CHECKING:
    from .actions import ActionResult

__all__ = [
    "ACTION",
    "DOCUMENT",
    "METADATA",
    "RUN",
    "DocumentRow",
    "connect",
]

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
)

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


def connect(url: str) -> Engine:
    """An engine on the database at ``url`` with the tables created if missing.

    Raises UsageError naming the URL when it cannot be used: a malformed URL, a
    database driver that is not installed, a server that cannot be reached.
    """
    try:
        engine = create_engine(url)
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _write_ahead)
        METADATA.create_all(engine)
    except ImportError as exc:
        raise UsageError(f"--db {url}: cannot open the state database (its driver is not "
                         f"installed: {exc})") from None
    except (ArgumentError, NoSuchModuleError, SQLAlchemyError) as exc:
        reason = str(exc).strip().splitlines()[0]
        raise UsageError(f"--db {url}: cannot open the state database ({reason})") from None
    return engine


def _write_ahead(connection: Any, _record: Any) -> None:
    """Put an SQLite database in write-ahead-log mode, still synced at every commit.

    A commit then syncs the log alone instead of the rollback journal and the
    database: 4-5 ms against 17-20 ms on the ext4 disk measured, paid twice per
    document as the run registers the inbox (before the first document can start)
    and twice as it records each one.  Every commit is as durable as before, and
    readers (``layoutkit batch status``) no longer wait for the run's writes.
    """
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def start_run(engine: Engine, inbox: str, out: str, executor: str, workers: int) -> int:
    """A new ``run`` row's id; runs left ``running`` by a killed process become
    ``interrupted`` (the caller holds the inbox's lock, so none is still going)."""
    with engine.begin() as db:
        db.execute(update(RUN).where(RUN.c.status == "running").values(status="interrupted"))
        result = db.execute(RUN.insert().values(
            started=now(), status="running", inbox=inbox, out=out, executor=executor,
            workers=workers, accepted=0, rejected=0, failed=0, done=0, pages=0))
        return _new_id(result.inserted_primary_key)


def _new_id(key: Any) -> int:
    """The id of a row just inserted."""
    return int(key[0])


def finish_run(engine: Engine, run_id: int, **counts: int) -> None:
    """Close the run with its counts."""
    with engine.begin() as db:
        db.execute(update(RUN).where(RUN.c.id == run_id).values(
            finished=now(), status="finished", **counts))


def add_document(engine: Engine, run_id: int, **values: Any) -> int:
    """A new ``document`` row's id."""
    stamp = now()
    with engine.begin() as db:
        result = db.execute(DOCUMENT.insert().values(run_id=run_id, registered=stamp,
                                                     updated=stamp, **values))
        return _new_id(result.inserted_primary_key)


def set_document(engine: Engine, document_id: int, **values: Any) -> None:
    """Change fields of one document."""
    with engine.begin() as db:
        db.execute(update(DOCUMENT).where(DOCUMENT.c.id == document_id)
                   .values(updated=now(), **values))


def documents(engine: Engine, statuses: Iterable[str]) -> list[DocumentRow]:
    """The documents in any of ``statuses``, by id."""
    query = (select(*(DOCUMENT.c[name] for name in DocumentRow.__slots__))
             .where(DOCUMENT.c.status.in_(list(statuses))).order_by(DOCUMENT.c.id))
    with engine.connect() as db:
        return [DocumentRow(*row) for row in db.execute(query)]


def document(engine: Engine, document_id: int) -> DocumentRow:
    """The document with id ``document_id``."""
    query = (select(*(DOCUMENT.c[name] for name in DocumentRow.__slots__))
             .where(DOCUMENT.c.id == document_id))
    with engine.connect() as db:
        return DocumentRow(*db.execute(query).one())


def same_content(engine: Engine, digest: str) -> DocumentRow | None:
    """The first document not rejected whose content hash is ``digest``."""
    query = (select(*(DOCUMENT.c[name] for name in DocumentRow.__slots__))
             .where(DOCUMENT.c.hash == digest, DOCUMENT.c.status != "rejected")
             .order_by(DOCUMENT.c.id).limit(1))
    with engine.connect() as db:
        row = db.execute(query).first()
    return DocumentRow(*row) if row else None


def done_actions(engine: Engine, document_id: int) -> set[str]:
    """The names of the document's actions that have finished."""
    query = select(ACTION.c.action).where(ACTION.c.document_id == document_id,
                                          ACTION.c.status == "done")
    with engine.connect() as db:
        return set(db.scalars(query))


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
            values = {"run_id": run_id, "status": "failed" if result.error else "done",
                      "started": result.started, "finished": result.finished,
                      "duration": (result.finished - result.started).total_seconds(),
                      "error": result.error}
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
