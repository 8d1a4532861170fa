"""Regression checks over a folder of sample issues: what layoutkit read, kept to be read again.

- A *snapshot* keeps, for every PDF (and image) of a folder, the lines of each page in
  reading order with their line type codes and whether they are furniture, along with
  the layoutkit version, the config and profile they were read with and each file's
  SHA-256.
- A *check* reads the folder again, with the same options or new ones, and compares the
  two page by page: a page whose text, order, furniture or line types changed is named
  with a short unified diff of its lines, and so is a document added, missing, or whose
  file changed.
- Nothing is compared as bytes, so a snapshot survives any change to the JSON layoutkit
  writes.

The snapshot is a folder: one JSON file per document (`<document>.json`) and an index
(`index.json`) listing them, every file of schema `layoutkit.snapshot/1`.  The
functions here are pure but for `take_snapshot` (which reads the documents),
`write_snapshot` and `load_snapshot`; the values are frozen dataclasses.
"""

from __future__ import annotations

import difflib
import fnmatch
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..config import LayoutConfig
from ..errors import UsageError
from ..files import sha256_of, text_name, write_atomic
from ..model import Document, Page
from ..parallel import Jobs
from ..pipeline import parse
from ..sources import DEFAULT_ENGINE, is_image

if TYPE_CHECKING:
    from ..profile import Profile

__all__ = [
    "DIFF_LINES",
    "INDEX",
    "SCHEMA",
    "Comparison",
    "DocumentChange",
    "DocumentRecord",
    "LineRecord",
    "PageChange",
    "PageRecord",
    "Snapshot",
    "compare",
    "compare_pages",
    "documents_in",
    "load_snapshot",
    "record_document",
    "report",
    "snapshot_files",
    "snapshot_target",
    "take_snapshot",
    "write_snapshot",
]

SCHEMA = "layoutkit.snapshot/1"
"""The schema of every file of a snapshot, its index and its documents."""

INDEX = "index.json"
"""The snapshot's index: the options it was taken with and its documents' files."""

DIFF_LINES = 12
"""The most lines of unified diff shown for one page; the rest are counted."""


@dataclass(frozen=True, slots=True)
class LineRecord:
    """A line as a snapshot keeps it: its text, its line type code (``b``, ``h_2``,
    ``f``...) and whether it is furniture (a running header or footer)."""

    text: str
    code: str
    furniture: bool

    def shown(self) -> str:
        """The line as a diff shows it, its type and furniture before its text, so that
        a change of type alone is a changed line too."""
        return f"[{self.code}{' furniture' if self.furniture else ''}] {self.text}"


@dataclass(frozen=True, slots=True)
class PageRecord:
    """A page as a snapshot keeps it: its 1-based number and its lines in reading order,
    furniture included."""

    page_no: int
    lines: tuple[LineRecord, ...]

    @property
    def text(self) -> str:
        """The page's text as ``layoutkit text`` gives it: body lines, in order."""
        return "\n".join(line.text for line in self.lines if not line.furniture)


@dataclass(frozen=True, slots=True)
class DocumentRecord:
    """A document as a snapshot keeps it: its file name in the folder, the SHA-256 of
    the file and its pages in order."""

    name: str
    sha256: str
    pages: tuple[PageRecord, ...]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a folder read as: the layoutkit version, the config (every key by name, as
    [`LayoutConfig.as_mapping`][layoutkit.config.LayoutConfig.as_mapping] gives them), the profile
    given (its name or path as the user wrote it, None for none), the glyph engine, and the
    documents by name order."""

    version: str
    config: Mapping[str, Any]
    profile: str | None
    engine: str
    documents: tuple[DocumentRecord, ...]


@dataclass(frozen=True, slots=True)
class PageChange:
    """A page that reads differently from its snapshot.

    ``kinds`` says what changed, in this order: ``page added`` or ``page missing`` (the
    document has more or fewer pages), ``text`` (lines of other text), ``order`` (the
    same lines in another order), ``furniture`` (a line became or stopped being a
    running header or footer), ``line types`` (another code, furniture alike).
    ``changed`` counts the lines concerned; ``diff`` is the unified diff of the page's
    lines, at most `DIFF_LINES` of it, and ``more`` the diff lines left out.
    ``allowed`` is whether an ``--allow`` pattern names the page.
    """

    document: str
    page_no: int
    kinds: tuple[str, ...]
    changed: int
    diff: tuple[str, ...]
    more: int
    allowed: bool = False


@dataclass(frozen=True, slots=True)
class DocumentChange:
    """A document the folder and the snapshot do not share alike: ``added`` (in the
    folder only), ``missing`` (in the snapshot only) or ``file changed`` (another
    SHA-256), with ``detail`` saying how; ``allowed`` as for a page."""

    document: str
    kind: str
    detail: str
    allowed: bool = False


@dataclass(frozen=True, slots=True)
class Comparison:
    """What a check found: notes (another version, other options) that change nothing,
    the documents and pages that changed, how many of each were compared, and the
    ``--allow`` patterns that named no change (likely mistyped)."""

    notes: tuple[str, ...]
    documents: tuple[DocumentChange, ...]
    pages: tuple[PageChange, ...]
    documents_compared: int
    pages_compared: int
    unused_allowances: tuple[str, ...] = ()

    @property
    def failed(self) -> bool:
        """Whether a change was found that no ``--allow`` pattern names: the check fails."""
        return (any(not change.allowed for change in self.documents)
                or any(not change.allowed for change in self.pages))


def documents_in(folder: Path) -> list[Path]:
    """The PDFs and images lying in ``folder`` (not in its subfolders), sorted by name;
    names starting with a dot are left out (files still being copied in).  A missing
    folder or one without a document is a UsageError."""
    if not folder.is_dir():
        what = "is a file" if folder.exists() else "no such folder"
        raise UsageError(f"{folder}: {what}, expected a folder of PDFs or images")
    found = sorted(path for path in folder.iterdir()
                   if path.is_file() and not path.name.startswith(".")
                   and (path.suffix.lower() == ".pdf" or is_image(path)))
    if not found:
        raise UsageError(f"{folder}: no PDF or image files in this folder")
    return found


def _page_record(page: Page) -> PageRecord:
    return PageRecord(page.page_no, tuple(LineRecord(line.text, line.code, line.furniture)
                                          for line in page.lines))


def record_document(document: Document, name: str, sha256: str) -> DocumentRecord:
    """The record of a parsed ``document`` (its lines typed) under ``name``: what a
    snapshot keeps of it, and what a check compares."""
    return DocumentRecord(name, sha256, tuple(_page_record(page) for page in document))


def take_snapshot(folder: Path, config: LayoutConfig, *, profile: Profile | None = None,
                  profile_name: str | None = None, engine: str = DEFAULT_ENGINE,
                  jobs: Jobs = 1) -> Snapshot:
    """Read every document of ``folder`` (`documents_in`) with ``config``,
    ``profile``, ``engine`` and ``jobs``, every line typed; returns the Snapshot, to be
    written (`write_snapshot`) or compared with one (`compare`).
    ``profile_name`` is how the profile was named, to be recorded.  A document is
    recorded under its file's name, bytes that are not UTF-8 written ``\\xNN``
    (`text_name`), as the snapshot's JSON holds it."""
    records = tuple(record_document(parse(path, config, engine=engine, jobs=jobs,
                                          profile=profile, typed=True),
                                    text_name(path.name), sha256_of(path))
                    for path in documents_in(folder))
    return Snapshot(__version__, config.as_mapping(), profile_name, engine, records)


def _file_name(document: str) -> str:
    return f"{document}.json"


def snapshot_files(snapshot: Snapshot) -> dict[str, str]:
    """The files of ``snapshot`` by name: one JSON document per document (its pages'
    text and lines) and the index, last, that names them with the version and options;
    UTF-8 text, so that a diff of two snapshots is readable too."""
    files: dict[str, str] = {}
    for record in snapshot.documents:
        files[_file_name(record.name)] = _dumps({
            "schema": SCHEMA, "kind": "document", "layoutkit": snapshot.version,
            "document": record.name, "sha256": record.sha256,
            "pages": [{"page": page.page_no, "text": page.text,
                       "lines": [{"text": line.text, "code": line.code,
                                  "furniture": line.furniture} for line in page.lines]}
                      for page in record.pages]})
    files[INDEX] = _dumps({
        "schema": SCHEMA, "kind": "index", "layoutkit": snapshot.version,
        "profile": snapshot.profile, "engine": snapshot.engine,
        "config": dict(snapshot.config),
        "documents": [{"document": record.name, "file": _file_name(record.name),
                       "sha256": record.sha256, "pages": len(record.pages)}
                      for record in snapshot.documents]})
    return files


def _dumps(value: object) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False) + "\n"


def snapshot_target(folder: Path, *, replace: bool = False) -> list[Path]:
    """The document files of the snapshot ``folder`` holds, to be replaced (none for a
    new or empty folder), once ``folder`` is checked to take a snapshot: a file, or a
    snapshot already there without ``replace``, is a UsageError, told before any
    document is read."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: is a file, expected a folder to write the snapshot to")
    if not (folder / INDEX).exists():
        return []
    if not replace:
        raise UsageError(f"{folder}: holds a snapshot already; replace it with --force")
    return [folder / Path(entry["file"]).name
            for entry in _read_json(folder / INDEX, "index").get("documents", ())
            if isinstance(entry, dict) and isinstance(entry.get("file"), str)]


def write_snapshot(snapshot: Snapshot, folder: Path, *, replace: bool = False) -> list[Path]:
    """Write ``snapshot`` into ``folder`` (made if missing), each file atomically and the
    index last, so that a snapshot stopped midway keeps its former index; returns the
    paths written.

    A folder that already holds a snapshot is a baseline: it is replaced only with
    ``replace``, and then the files of the documents the new snapshot no longer has are
    removed (see `snapshot_target`)."""
    former = snapshot_target(folder, replace=replace)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in snapshot_files(snapshot).items():
        write_atomic(folder / name, text)
        written.append(folder / name)
    for stale in set(former) - set(written):
        stale.unlink(missing_ok=True)
    return written


def _read_json(path: Path, kind: str) -> dict[str, Any]:
    """The JSON object of the snapshot file ``path``, checked to be of `SCHEMA`
    and ``kind``; a UsageError naming the file and what was expected otherwise."""
    expected = f"expected a {SCHEMA} {kind} file (made by layoutkit regress snapshot)"
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file, {expected}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError(f"{path}: cannot be read as JSON ({exc}), {expected}") from None
    if not isinstance(value, dict) or value.get("schema") != SCHEMA:
        schema = value.get("schema") if isinstance(value, dict) else None
        found = f"schema {schema!r}" if isinstance(schema, str) else "no schema"
        raise UsageError(f"{path}: {found}, {expected}")
    if value.get("kind") != kind:
        raise UsageError(f"{path}: kind {value.get('kind')!r}, {expected}")
    return value


def load_snapshot(folder: Path) -> Snapshot:
    """The snapshot written in ``folder`` by `write_snapshot`.  A missing folder or
    file, a file that is not JSON, has another schema or lacks a field is a UsageError
    naming the file and what was expected."""
    if not folder.is_dir():
        what = "is a file" if folder.exists() else "no such folder"
        raise UsageError(f"{folder}: {what}, expected a snapshot folder (made by layoutkit "
                         f"regress snapshot DIR -o SNAPSHOT)")
    index_path = folder / INDEX
    index = _read_json(index_path, "index")
    try:
        listed = [(str(entry["document"]), str(entry["file"])) for entry in index["documents"]]
        config = dict(index["config"])
        header = (str(index["layoutkit"]), index.get("profile"), str(index["engine"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise UsageError(f"{index_path}: {_malformed(exc)}, expected a {SCHEMA} index "
                         f"file") from None
    documents = []
    for name, file in listed:
        path = folder / Path(file).name
        value = _read_json(path, "document")
        try:
            pages = tuple(PageRecord(int(page["page"]), tuple(
                LineRecord(str(line["text"]), str(line["code"]), bool(line["furniture"]))
                for line in page["lines"])) for page in value["pages"])
            documents.append(DocumentRecord(name, str(value["sha256"]), pages))
        except (KeyError, TypeError, ValueError) as exc:
            raise UsageError(f"{path}: {_malformed(exc)}, expected a {SCHEMA} document "
                             f"file") from None
    profile = header[1] if isinstance(header[1], str) else None
    return Snapshot(header[0], config, profile, header[2], tuple(documents))


def _malformed(error: Exception) -> str:
    """What reading a snapshot file's fields ran into, in words: a field missing
    (named), or a field of the wrong shape."""
    if isinstance(error, KeyError):
        return f"field {error.args[0]!r} missing"
    return "a field of the wrong type or value"


def _allowed(patterns: Sequence[str], document: str, page_no: int | None = None) -> set[str]:
    """The patterns of ``patterns`` that name ``document`` (or its page ``page_no``)."""
    names = [document] if page_no is None else [document, f"{document}:{page_no}"]
    return {p for p in patterns if any(fnmatch.fnmatchcase(name, p) for name in names)}


def compare_pages(document: str, before: PageRecord | None,
                  after: PageRecord | None) -> PageChange | None:
    """How page ``before`` (as the snapshot has it) reads now as ``after``; None when
    its lines, their order, types and furniture are the same.  Either may be None for
    a page the document has gained or lost.

    Lines are matched by their text (difflib): lines with other text make a ``text``
    change, unless the page has the same lines as before in another order (``order``);
    a matched line of another type is a ``furniture`` change when it became or stopped
    being furniture, a ``line types`` change otherwise."""
    old = before.lines if before else ()
    new = after.lines if after else ()
    if old == new and before and after:
        return None
    kinds: list[str] = []
    if before is None:
        kinds.append("page added")
    elif after is None:
        kinds.append("page missing")
    old_texts = [line.text for line in old]
    new_texts = [line.text for line in new]
    matcher = difflib.SequenceMatcher(None, old_texts, new_texts, autojunk=False)
    changed = 0
    furniture = types = False
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            changed += max(i2 - i1, j2 - j1)
            continue
        for a, b in zip(old[i1:i2], new[j1:j2], strict=True):
            if a != b:
                changed += 1
                furniture |= a.furniture != b.furniture
                types |= a.furniture == b.furniture
    if old_texts != new_texts and before and after:
        kinds.append("order" if sorted(old_texts) == sorted(new_texts) else "text")
    kinds += ["furniture"] * furniture + ["line types"] * types
    page_no = after.page_no if after else before.page_no if before else 0
    diff = list(difflib.unified_diff([line.shown() for line in old],
                                     [line.shown() for line in new],
                                     f"{document}:{page_no} snapshot",
                                     f"{document}:{page_no} now", n=1, lineterm=""))
    return PageChange(document, page_no, tuple(kinds), changed, tuple(diff[:DIFF_LINES]),
                      max(0, len(diff) - DIFF_LINES))


def _notes(before: Snapshot, after: Snapshot) -> list[str]:
    """What differs in how the two snapshots were taken: worth saying, never a change."""
    notes = []
    if before.version != after.version:
        notes.append(f"the snapshot was made by layoutkit {before.version}, this is "
                     f"layoutkit {after.version}: comparing anyway")
    settings = [f"{key} {before.config.get(key)!r} -> {value!r}"
                for key, value in after.config.items() if before.config.get(key) != value]
    if settings:
        notes.append(f"config differs from the snapshot's: {', '.join(settings)}")
    if before.profile != after.profile:
        notes.append(f"profile differs from the snapshot's: {before.profile or 'none'} -> "
                     f"{after.profile or 'none'}")
    if before.engine != after.engine:
        notes.append(f"engine differs from the snapshot's: {before.engine} -> {after.engine}")
    return notes


def compare(before: Snapshot, after: Snapshot, allow: Sequence[str] = ()) -> Comparison:
    """What changed from snapshot ``before`` to the reading ``after`` of the same folder:
    the documents added, missing or whose file changed, and every page that reads
    differently (`compare_pages`), in document and page order.  A change that a
    glob of ``allow`` names (``document`` or ``document:page``) is marked allowed: it
    is reported, and does not fail the check."""
    old = {record.name: record for record in before.documents}
    new = {record.name: record for record in after.documents}
    used: set[str] = set()
    documents: list[DocumentChange] = []
    pages: list[PageChange] = []
    compared = 0
    for name in sorted(old.keys() | new.keys()):
        named = _allowed(allow, name)
        if name not in old or name not in new:
            kind, detail = (("added", "not in the snapshot") if name not in old
                            else ("missing", "in the snapshot, not in the folder"))
            used |= named
            documents.append(DocumentChange(name, kind, detail, bool(named)))
            continue
        if old[name].sha256 != new[name].sha256:
            used |= named
            documents.append(DocumentChange(
                name, "file changed",
                f"SHA-256 {old[name].sha256[:12]}... -> {new[name].sha256[:12]}...",
                bool(named)))
        before_pages = {page.page_no: page for page in old[name].pages}
        after_pages = {page.page_no: page for page in new[name].pages}
        for page_no in sorted(before_pages.keys() | after_pages.keys()):
            compared += 1
            change = compare_pages(name, before_pages.get(page_no), after_pages.get(page_no))
            if change is None:
                continue
            named = _allowed(allow, name, page_no)
            used |= named
            pages.append(PageChange(change.document, change.page_no, change.kinds,
                                    change.changed, change.diff, change.more, bool(named)))
    common = len(old.keys() & new.keys())
    return Comparison(tuple(_notes(before, after)), tuple(documents), tuple(pages), common,
                      compared, tuple(p for p in dict.fromkeys(allow) if p not in used))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def report(comparison: Comparison) -> str:
    """The check's report, as ``layoutkit regress check`` prints it: the notes, each
    document change on a line, each changed page on a line (its document, number, what
    changed, how many lines, ``allowed`` when an ``--allow`` pattern names it) followed
    by its diff indented, and a last line with the counts.  When nothing changed, the
    notes and one line saying so."""
    lines = list(comparison.notes)
    compared = (f"{_count(comparison.documents_compared, 'document')}, "
                f"{_count(comparison.pages_compared, 'page')}")
    if not comparison.documents and not comparison.pages:
        lines.append(f"no changes: {compared} read as in the snapshot")
        lines += [f"--allow {p}: named no change" for p in comparison.unused_allowances]
        return "\n".join(lines) + "\n"
    for doc in comparison.documents:
        lines.append(f"{doc.document}: {doc.kind}{' (allowed)' if doc.allowed else ''}: "
                     f"{doc.detail}")
    for page in comparison.pages:
        lines.append(f"{page.document} page {page.page_no}"
                     f"{' (allowed)' if page.allowed else ''}: {', '.join(page.kinds)} "
                     f"({_count(page.changed, 'line')} changed)")
        lines += [f"    {line}" for line in page.diff]
        if page.more:
            lines.append(f"    ... {_count(page.more, 'more diff line')}")
    lines += [f"--allow {p}: named no change" for p in comparison.unused_allowances]
    allowed = (sum(c.allowed for c in comparison.documents)
               + sum(c.allowed for c in comparison.pages))
    changes = len(comparison.documents) + len(comparison.pages)
    lines.append(f"{compared} compared: {_count(len(comparison.pages), 'page')} and "
                 f"{_count(len(comparison.documents), 'document')} changed"
                 + (f", {allowed} of {changes} changes allowed" if allowed else ""))
    return "\n".join(lines) + "\n"
