"""What is done to an accepted document, one action after another.

A `Job` names a document's pending actions; `run_job` does them in
a worker (a local process or a Dask worker) and returns one
`ActionResult` each, for the batch's own process to record.  Every
output is written into the document's staging folder under a temporary name
and renamed, so a killed worker leaves no half-written file.  More actions
(OCR, tokens, tables) are added to `ACTIONS` in the order they run.
"""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import LayoutConfig
from ..errors import DocumentError, LayoutkitError
from ..files import write_atomic
from ..loudness import Loudness, read_summary
from ..outputs import document_text
from ..outputs.named import DEFAULT, FILES, output_text
from ..pipeline import loaded_profile, parse
from ..sources import DEFAULT_ENGINE
from ..sources.convert import to_pdf
from .clock import now
from .orphans import die_with_run

if TYPE_CHECKING:
    from ..profile import Profile

__all__ = ["ACTIONS", "ActionResult", "Job", "actions_for", "clear_scratch", "run_job",
           "start_worker"]

_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Job:
    """A document's pending actions: ``source`` is the accepted file, ``pdf`` the PDF
    to parse (``source`` itself, or the conversion's output in ``staging``), ``jobs``
    the processes its pages are read in, ``language`` the inbox's language folder it
    came from (``de``: its scanned pages are read in German), None for the inbox, and
    the ``outputs`` its parse writes."""

    document_id: int
    source: Path
    pdf: Path
    staging: Path
    actions: tuple[str, ...]
    profile: str | None = None
    jobs: int = 1
    language: str | None = None
    outputs: tuple[str, ...] = DEFAULT
    """The outputs the parse action writes, by name (`layoutkit.outputs.named.FILES`)."""


@dataclass(frozen=True, slots=True)
class ActionResult:
    """How one action went: its error (None when it succeeded) and, for ``parse``,
    the document's page count."""

    action: str
    started: datetime
    finished: datetime
    error: str | None = None
    pages: int | None = None
    unread: str | None = None
    """The pages a done action left unread (past a budget), in words; None for none."""


def _config(profile: Profile | None) -> LayoutConfig:
    """The configuration a document is read with: its ``profile``'s, else the
    defaults."""
    return profile.config if profile else LayoutConfig()


def _convert(job: Job) -> tuple[int | None, str | None]:
    left = to_pdf(job.source, job.pdf, _config(loaded_profile(job.profile)).sources)
    return None, f"read in part: {left}" if left else None


def _parse(job: Job) -> tuple[int | None, str | None]:
    started = time.monotonic()
    profile = loaded_profile(job.profile)
    config = _config(profile)
    if job.language:
        config = config.replace(ocr_languages=job.language)
    document = parse(job.pdf, config, jobs=job.jobs, profile=profile)
    text = document_text(document)
    if not text.strip():
        raise DocumentError(f"{job.source}: no text on any of its {document.page_count} "
                            "page(s) (a scanned document needs OCR)")
    for name in job.outputs:
        write_atomic(job.staging / FILES[name],
                     text + "\n" if name == "text" else output_text(name, document, config))
    _log.info("%s: %s in %.2f s", job.source, read_summary(
        len(document.pages), DEFAULT_ENGINE, document.ocr, profile), time.monotonic() - started)
    unread = "; ".join(f"page {n} {reason}" for n, reason in document.unreadable.items())
    return document.page_count, f"read in part: {unread}" if unread else None


ACTIONS: dict[str, Callable[[Job], tuple[int | None, str | None]]] = {
    "convert": _convert, "parse": _parse}
"""Each action by name, in the order they run; each returns pages when it counts them,
and the pages it left unread, in words, when it left any."""


def actions_for(kind: str) -> tuple[str, ...]:
    """The actions a document of ``kind`` (pdf, office, image) goes through."""
    return tuple(name for name in ACTIONS if name != "convert" or kind != "pdf")


def start_worker(run: int, loudness: Loudness) -> None:
    """Start a local worker of the pool of the run ``run`` (its initializer): it ends
    when the run ends (`orphans.die_with_run`), and logs and warns as the
    command line that started the run (``layoutkit: ``, nothing but errors with
    ``-q``), which a process forked from the fork server does not inherit."""
    die_with_run(run)
    loudness.apply()


def run_job(job: Job) -> tuple[ActionResult, ...]:
    """Do the job's actions in order, stopping at the first that fails (the next
    ones need its output); returns one result per action attempted."""
    job.staging.mkdir(parents=True, exist_ok=True)
    clear_scratch(job.staging)
    results = []
    for name in job.actions:
        started = now()
        try:
            pages, unread = ACTIONS[name](job)
        except (LayoutkitError, OSError) as exc:
            results.append(ActionResult(name, started, now(), _reason(exc, job)))
            break
        except Exception as exc:  # a bug in one document must not stop the batch
            results.append(ActionResult(name, started, now(),
                                        f"internal error: {type(exc).__name__}: {exc}"))
            break
        results.append(ActionResult(name, started, now(), None, pages, unread))
    return tuple(results)


def clear_scratch(staging: Path) -> None:
    """Remove what a killed worker left in ``staging``: every hidden entry there is
    a temporary file or folder of an action that did not finish."""
    for stale in staging.glob(".*"):
        if stale.is_dir() and not stale.is_symlink():
            shutil.rmtree(stale, ignore_errors=True)
        else:
            stale.unlink(missing_ok=True)


def _reason(exc: BaseException, job: Job) -> str:
    """The error's message without the file's path, which the database holds already."""
    return str(exc).removeprefix(f"{job.source}: ").removeprefix(f"{job.pdf}: ")
