"""What each endpoint of ``layoutkit serve`` makes of its upload, as a table.

- An `Endpoint` names its path, what it answers (a media type), the uploads it
  takes, the query options it reads beyond the common ones (`COMMON`: ``profile``,
  ``pages``) and its `make` function.
- ``make`` runs in a worker process of its own (`layoutkit.server.worker`), so it
  must be a module-level function: it receives a `Task` (the uploads as files, the
  options checked) and returns the body of the answer.
- A new endpoint is one more entry of `ENDPOINTS`; the routes and the OpenAPI
  schema (`layoutkit.server.schema`) are made from the table.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ..config import LayoutConfig
from ..errors import UsageError
from ..model import Document

__all__ = ["COMMON", "ENDPOINTS", "Endpoint", "Option", "ServeOptions", "Task", "output", "parsed",
           "truth_of"]


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """The server's limits (the options of ``layoutkit serve``): an upload's bytes at
    most, the documents read at once (each in a worker process), and the seconds a
    request may wait for a worker and a worker may take."""

    max_upload: int = 50 * 2**20
    workers: int = 2
    timeout: float = 120.0

    def __post_init__(self) -> None:
        if self.max_upload < 1:
            raise UsageError(f"--max-upload-mb: expected more than 0, got {self.max_upload}")
        if self.workers < 1:
            raise UsageError(f"--workers: expected 1 or more, got {self.workers}")
        if self.timeout <= 0:
            raise UsageError(f"--timeout: expected seconds more than 0, got {self.timeout:g}")


@dataclass(frozen=True, slots=True)
class Option:
    """A query option: its name, its JSON Schema type (``string``, ``integer``,
    ``boolean``), what it means, and its default (None: not given)."""

    name: str
    kind: str
    description: str
    default: str | int | bool | None = None

    def value(self, given: str | None) -> str | int | bool | None:
        """The option's value from its query text ``given`` (None: not in the query);
        raises UsageError naming the option and what it expects."""
        if given is None:
            return self.default
        if self.kind == "integer":
            try:
                return int(given)
            except ValueError:
                raise UsageError(f"{self.name}: expected a whole number, got {given!r}"
                                 ) from None
        if self.kind == "boolean":
            if given.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise UsageError(f"{self.name}: expected true or false, got {given!r}")
            return given.lower() in ("true", "1", "yes")
        return given


COMMON = (
    Option("profile", "string", "a bundled publication profile to read the document with "
                                "(`layoutkit profiles` lists them)"),
    Option("pages", "string", "the pages to read, such as 1,3-5,9- (default: all)"),
)
"""The query options every endpoint that reads a document takes."""


@dataclass(frozen=True, slots=True)
class Task:
    """One request's work: its folder, its uploads in it by field name (``file``, or
    ``document`` and ``truth`` for ``/review``; each named as the client named it,
    relative to the folder, the worker's working folder), and the query options
    checked (`Endpoint.options`)."""

    endpoint: str
    folder: Path
    files: Mapping[str, Path]
    options: Mapping[str, Any] = field(default_factory=dict)

    def config(self) -> LayoutConfig:
        """The configuration the document is read with: its profile's, else the
        defaults (the worker's memory budget is its ``page_max_memory``)."""
        from ..pipeline import loaded_profile

        profile = loaded_profile(self.options.get("profile"))
        return profile.config if profile else LayoutConfig()


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A ``POST`` endpoint: its path, summary, the media type it answers with, the
    uploads it takes (field names: the first is the document), its options beyond
    `COMMON`, and ``make``, which makes the answer's body of a `Task` (in a worker
    process)."""

    path: str
    summary: str
    media_type: str
    make: Callable[[Task], str]
    uploads: tuple[str, ...] = ("file",)
    options: tuple[Option, ...] = ()

    @property
    def all_options(self) -> tuple[Option, ...]:
        """`COMMON` and the endpoint's own options."""
        return (*COMMON, *self.options)


def parsed(task: Task, *, tables: bool = False) -> Document:
    """The task's document read (its pages and profile as asked), in the task's
    folder (so named as the client named it)."""
    from ..pipeline import parse

    return parse(task.files["file"], task.config(), task.options.get("pages"),
                 profile=task.options.get("profile"), tables=tables)


def output(name: str, task: Task) -> str:
    """The task's document read and written as the output ``name`` (``json``, ``text``,
    ``markdown``, ``html``, ``alto``: `layoutkit.outputs.named.output_text`), as the
    command of that name writes it."""
    from ..outputs.named import output_text

    return output_text(name, parsed(task), task.config())


def truth_of(task: Task) -> Path:
    """The task's uploaded truth file, its ``document`` pointed at the uploaded
    document (beside it), whose SHA-256 must still be the truth's."""
    truth = task.files["truth"]
    try:
        data = json.loads(truth.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise UsageError(f"truth: not a JSON truth file ({exc})") from None
    if isinstance(data, dict):  # anything else is refused by the schema, naming it
        data["document"] = task.files["document"].name
        truth.write_text(json.dumps(data), encoding="utf-8")
    return truth


def _review(task: Task) -> str:
    """The review page of a truth file beside its document's pages (``layoutkit truth
    review``)."""
    from ..pipeline import loaded_profile
    from ..tools.review import review_truth

    return review_truth(truth_of(task), task.config(),
                        profile=loaded_profile(task.options.get("profile")))


def _evaluation(task: Task) -> str:
    """The evaluation page of a document against its truth file (``layoutkit evaluate
    --html``)."""
    from ..pipeline import loaded_profile
    from ..tools.evaluation import evaluate
    from ..tools.report import html_report

    return html_report(evaluate([truth_of(task)], task.config(),
                                profile=loaded_profile(task.options.get("profile"))))


def _chunks(task: Task) -> str:
    """The document's chunks for retrieval as JSON Lines (``layoutkit chunks``), at
    most ``max_chars`` characters and ``max_tokens`` words each where asked."""
    from ..outputs.chunks import chunks_jsonl

    return chunks_jsonl(parsed(task), max_chars=task.options.get("max_chars"),
                        max_tokens=task.options.get("max_tokens"))


_HTML = "text/html; charset=utf-8"
_TRUTH = ("document", "truth")

ENDPOINTS: dict[str, Endpoint] = {e.path: e for e in (
    Endpoint("/parse", "The layout model as JSON (layoutkit parse)", "application/json",
             partial(output, "json")),
    Endpoint("/text", "The text in reading order, a form feed between pages (layoutkit text)",
             "text/plain; charset=utf-8", partial(output, "text")),
    Endpoint("/markdown", "Markdown: headings, lists, pipe tables, paragraphs",
             "text/markdown; charset=utf-8", partial(output, "markdown")),
    Endpoint("/html", "Semantic HTML, each element with its page and box", _HTML,
             partial(output, "html")),
    Endpoint("/alto", "ALTO v4 XML: pages, text blocks in reading order, lines, words",
             "application/xml", partial(output, "alto")),
    Endpoint("/chunks", "Passages for retrieval under their headings, one JSON object a "
                        "line (layoutkit chunks)", "application/x-ndjson", _chunks,
             options=(Option("max_chars", "integer", "the most characters in a chunk"),
                      Option("max_tokens", "integer",
                             "the most tokens (whitespace-separated words) in a chunk"))),
    Endpoint("/review", "The review page of a truth file beside its document's pages "
                        "(layoutkit truth review)", _HTML, _review, uploads=_TRUTH),
    Endpoint("/evaluate", "The evaluation page of a document against its truth file "
                          "(layoutkit evaluate --html)", _HTML, _evaluation, uploads=_TRUTH),
)}
"""Every endpoint that reads an upload, by path."""
