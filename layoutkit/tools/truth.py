"""Truth files (``layoutkit.truth/1``): what a person says a document's pages read like.

One JSON file per document, checked against the JSON Schema shipped beside this module
(``truth.schema.json``)::

    {"schema": "layoutkit.truth/1",
     "document": "issue-2016-04-27.pdf",          # relative to the truth file's folder
     "sha256": "<64 hex digits>",                 # the document the truth was made for
     "checked": "...", "conventions": "...",      # how it was labelled (optional)
     "outline": [[1, "CITY COUNCIL"], ...],       # the headings in order (optional)
     "pages": [{"page": 5, "checked": "...",
                "lines": ["...", ...],            # body lines in reading order
                "furniture": ["...", ...],        # running headers, footers, stamps
                "excluded": [{"what": "...", "why": "..."}],
                "regions": [{"bbox": [x0, top, x1, bottom], "kind": "columns",
                             "columns": 3}],      # optional
                "types": {"headings": [[2, "..."]], "listItems": ["..."],
                          "tables": ["..."], "contents": ["..."],
                          "either": ["..."], "captions": ["..."],
                          "footnotes": ["..."], "paragraphs": ["..."],
                          "contentsPage": true}}]} # optional

A page without ``lines`` is labelled for its line types alone.  In ``types``,
``headings`` are the heading lines as [level, text] in reading order, ``listItems``
the first line of each list item, ``tables`` every line of a table, ``contents`` the
lines of contents entries, ``captions`` the lines of figure and table captions,
``footnotes`` the lines of footnotes and endnotes (scored as the text outputs' footnotes;
no scorer reads the captions yet), ``paragraphs`` the first line of each paragraph of
body text (scored where the text outputs start one),
and ``either`` the lines a reader could reasonably take both ways (a bold run-in
paragraph lead, a caption that could be a heading, a row of a layout table): the
scorers of `evaluate` count a line named there neither as a miss nor as a false
positive of any type.  ``checked`` says how
a page was verified against its image, ``TODO`` while it was not.  A file that does
not match the schema is refused with one line naming the file, the JSON path of the
first problem and what was expected; so is one whose ``sha256`` is not the
document's, when the document is read (`check_document`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..files import sha256_of, write_atomic
from ..model.clean import SURROGATE

__all__ = ["SUFFIX", "TRUTH_SCHEMA", "UNCHECKED", "DocumentTruth", "Exclusion", "PageTruth",
           "PageTypes", "Region", "check_document", "dumps", "labelled_pages", "load_truth",
           "read_truth", "schema", "truth_files", "truth_json", "write_truth"]

TRUTH_SCHEMA = "layoutkit.truth/1"
"""The schema name every truth file carries."""

UNCHECKED = "TODO"
"""What a page's ``checked`` says while nobody has verified it against its image (a
draft)."""

SUFFIX = ".truth.json"
"""The ending of a truth file's name: ``issue.pdf`` has ``issue.truth.json`` beside it."""


@dataclass(frozen=True)
class Exclusion:
    """A part of a labelled page left out of the truth lines (``what``) and the reason (``why``)."""

    what: str
    why: str


@dataclass(frozen=True)
class Region:
    """A region of a page as a person sees it: its box (top-left points), kind
    (columns, single, table, figure, ignore), column count and label."""

    bbox: tuple[float, float, float, float]
    kind: str
    columns: int | None = None
    label: str = ""


@dataclass(frozen=True)
class PageTypes:
    """The line types a person gave a page's lines: its heading lines as (level, text)
    in reading order, the first lines of its list items, its table lines, the lines of
    contents entries on it, whether it is a contents page, the lines a reader could
    take both ways (``either``: scored as neither a miss nor a false positive), and the
    lines of its captions and of its footnotes (no scorer reads the captions yet), and
    the first line of each of its paragraphs of body text."""

    headings: tuple[tuple[int, str], ...] = ()
    list_items: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    contents: tuple[str, ...] = ()
    contents_page: bool = False
    either: tuple[str, ...] = ()
    captions: tuple[str, ...] = ()
    footnotes: tuple[str, ...] = ()
    paragraphs: tuple[str, ...] = ()

    @property
    def texts(self) -> tuple[str, ...]:
        """Every text these types name: heading, list item, table, contents and
        either lines."""
        return (*(text for _, text in self.headings), *self.list_items, *self.tables,
                *self.contents, *self.either)


@dataclass(frozen=True)
class PageTruth:
    """The truth of one page: ``page`` is 1-based; ``lines`` are the body lines in
    reading order (empty for a page labelled for its types alone); ``furniture`` the
    running header and footer lines; ``excluded`` what was deliberately not labelled;
    ``checked`` how the page was verified ("TODO" while it was not); ``path`` the
    truth file and ``document`` the document's file name."""

    document: str
    page: int
    lines: tuple[str, ...]
    furniture: tuple[str, ...]
    excluded: tuple[Exclusion, ...]
    checked: str
    path: Path
    conventions: str = ""
    regions: tuple[Region, ...] = ()
    types: PageTypes | None = None

    @property
    def unchecked(self) -> bool:
        """Whether the page is still a draft nobody compared with its image."""
        return self.checked.strip().upper() == UNCHECKED

    @property
    def ordered(self) -> bool:
        """Whether the page is labelled for reading order: it has body lines, or only
        furniture (a masthead page), whose leak is scored."""
        return bool(self.lines or self.furniture)


@dataclass(frozen=True)
class DocumentTruth:
    """A truth file read: the document it is for (``document`` as the file names it,
    relative to its folder, and its ``sha256``), how it was labelled, its ``outline``
    (the headings in order, with levels), its labelled pages in page order, and who
    published it (empty when the file does not say)."""

    path: Path
    document: str
    sha256: str
    pages: tuple[PageTruth, ...]
    checked: str = ""
    conventions: str = ""
    outline: tuple[tuple[int, str], ...] = ()
    publisher: str = ""

    @property
    def source(self) -> Path:
        """The document's path: ``document`` taken from the truth file's folder."""
        return self.path.parent / self.document

    def page(self, number: int) -> PageTruth | None:
        """The truth of page ``number``, None when it is not labelled."""
        return next((p for p in self.pages if p.page == number), None)


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of truth files, as shipped beside this module."""
    text = resources.files(__package__).joinpath("truth.schema.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def load_truth(path: Path) -> DocumentTruth:
    """The truth stored in ``path``.

    Raises UsageError, in one line naming the file, when it cannot be read, is not
    JSON, or does not match the schema (naming the JSON path of the first problem
    and what was expected), holds a lone surrogate (``"\\ud800"``: half of a UTF-16
    pair, which no output can encode) or labels a page twice."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageError(f"{path}: cannot be read ({error.strerror or error})") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise UsageError(f"{path}: not a JSON truth file ({error})") from None
    _validate(path, data)
    halved = _lone_surrogate(data)
    if halved is not None:
        raise UsageError(f"{path}: {halved}: expected text without a lone surrogate (a "
                         f"\\uD800-\\uDFFF escape outside a pair encodes no character)")
    pages = tuple(_page(path, data["document"], item) for item in data["pages"])
    numbers = [p.page for p in pages]
    twice = next((n for n in numbers if numbers.count(n) > 1), None)
    if twice is not None:
        raise UsageError(f"{path}: $.pages: page {twice} is labelled twice")
    return DocumentTruth(path, data["document"], data["sha256"],
                         tuple(sorted(pages, key=lambda p: p.page)),
                         data.get("checked", ""), data.get("conventions", ""),
                         tuple((level, text) for level, text in data.get("outline", ())),
                         data.get("publisher", ""))


def _validate(path: Path, data: object) -> None:
    """Raise UsageError naming ``path``, the JSON path and what was expected at the
    first place where ``data`` breaks the schema."""
    from jsonschema import Draft202012Validator

    errors = sorted(Draft202012Validator(schema()).iter_errors(data),
                    key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    if errors:
        error = errors[0]
        raise UsageError(f"{path}: {error.json_path}: {_expected(error)}")


def _lone_surrogate(data: object, where: str = "$") -> str | None:
    """The JSON path of the first text of ``data`` (a key or a value) holding a lone
    surrogate, which JSON's ``\\u`` escapes can write and `json.loads` keeps
    (a pair becomes its character); None when there is none."""
    if isinstance(data, str):
        return where if SURROGATE.search(data) else None
    if isinstance(data, list):
        return next((found for k, item in enumerate(data)
                     if (found := _lone_surrogate(item, f"{where}[{k}]")) is not None), None)
    if isinstance(data, dict):
        for key, value in data.items():
            inside = f"{where}.{key}" if key.isidentifier() else f"{where}[{json.dumps(key)}]"
            if SURROGATE.search(key):
                return inside
            found = _lone_surrogate(value, inside)
            if found is not None:
                return found
    return None


def _expected(error: Any) -> str:
    """What the schema expected where ``error`` (a jsonschema error) stands, in words,
    with jsonschema's own message after it."""
    value = error.validator_value
    match error.validator:
        case "const":
            expected = repr(value)
        case "required":
            expected = "the keys " + ", ".join(map(repr, value))
        case "additionalProperties":
            expected = "no other keys"
        case "type":
            expected = f"a {value}"
        case "minItems":
            expected = f"at least {value} item(s)"
        case "maxItems":
            expected = f"at most {value} item(s)"
        case "minimum":
            expected = f"a number >= {value}"
        case "pattern":
            expected = f"text matching {value}"
        case "minLength":
            expected = "text that is not empty"
        case "enum":
            expected = "one of " + ", ".join(map(str, value))
        case _:
            return str(error.message)
    return f"expected {expected} ({error.message})"


def _page(path: Path, document: str, item: Mapping[str, Any]) -> PageTruth:
    """A page of a truth file, already checked against the schema."""
    types = item.get("types")
    return PageTruth(
        document=Path(document).name, page=item["page"], lines=tuple(item.get("lines", ())),
        furniture=tuple(item.get("furniture", ())),
        excluded=tuple(Exclusion(e["what"], e["why"]) for e in item.get("excluded", ())),
        checked=item["checked"], path=path, conventions=item.get("conventions", ""),
        regions=tuple(Region(tuple(r["bbox"]), r["kind"], r.get("columns"), r.get("label", ""))
                      for r in item.get("regions", ())),
        types=None if types is None else PageTypes(
            tuple((level, text) for level, text in types.get("headings", ())),
            tuple(types.get("listItems", ())), tuple(types.get("tables", ())),
            tuple(types.get("contents", ())), bool(types.get("contentsPage", False)),
            tuple(types.get("either", ())), tuple(types.get("captions", ())),
            tuple(types.get("footnotes", ())), tuple(types.get("paragraphs", ()))))


def truth_json(truth: DocumentTruth) -> dict[str, Any]:
    """``truth`` as the JSON of its file, every empty optional part left out."""
    data: dict[str, Any] = {"schema": TRUTH_SCHEMA, "document": truth.document,
                            "sha256": truth.sha256}
    data.update(_present({"checked": truth.checked, "publisher": truth.publisher,
                          "conventions": truth.conventions,
                          "outline": [list(h) for h in truth.outline]}))
    data["pages"] = [_page_json(page) for page in truth.pages]
    return data


def _present(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` without the empty ones (an optional part not given)."""
    return {key: value for key, value in values.items() if value not in ("", [], None, False)}


def _page_json(page: PageTruth) -> dict[str, Any]:
    """One page of a truth file as JSON; a page labelled for reading order always
    with its furniture (none is a label too)."""
    data: dict[str, Any] = {"page": page.page, "checked": page.checked}
    data.update(_present({"conventions": page.conventions}))
    if page.ordered:
        data.update(lines=list(page.lines), furniture=list(page.furniture))
    data.update(_present({
        "excluded": [{"what": e.what, "why": e.why} for e in page.excluded],
        "regions": [_present({"bbox": list(r.bbox), "kind": r.kind, "columns": r.columns,
                              "label": r.label}) for r in page.regions]}))
    if page.types is not None:
        types = page.types
        data["types"] = _present({
            "headings": [list(h) for h in types.headings], "listItems": list(types.list_items),
            "tables": list(types.tables), "contents": list(types.contents),
            "either": list(types.either), "contentsPage": types.contents_page,
            "captions": list(types.captions), "footnotes": list(types.footnotes),
            "paragraphs": list(types.paragraphs)})
    return data


def dumps(truth: DocumentTruth) -> str:
    """``truth`` as the text of its file: JSON indented by one space, characters as
    themselves, a newline at the end."""
    return json.dumps(truth_json(truth), ensure_ascii=False, indent=1) + "\n"


def write_truth(truth: DocumentTruth) -> None:
    """Write ``truth`` to its file (``truth.path``), atomically."""
    write_atomic(truth.path, dumps(truth))


def read_truth(path: Path, engine: str | None = None,
               image_dpi: int | None = None) -> DocumentTruth:
    """The truth stored in ``path`` (`load_truth`), checked against its document
    as `check_document` does; the document is opened with the glyph ``engine``
    (default: the default one) to count its pages only once it is known to be the
    file the truth was made for."""
    from ..sources import DEFAULT_ENGINE, open_source

    truth = load_truth(path)
    _check_source(truth)
    with open_source(truth.source, engine or DEFAULT_ENGINE, image_dpi=image_dpi) as source:
        _check_pages(truth, source.page_count)
    return truth


def check_document(truth: DocumentTruth, page_count: int) -> None:
    """Raise UsageError, in one line naming the truth file, when its document is
    missing, is another file than the one it was made for (its SHA-256 differs) or
    lacks a page it labels (``page_count`` pages)."""
    _check_source(truth)
    _check_pages(truth, page_count)


def _check_source(truth: DocumentTruth) -> None:
    """Raise UsageError when ``truth``'s document is missing or another file than the
    one it was made for."""
    if not truth.source.is_file():
        raise UsageError(f"{truth.path}: $.document: {truth.source} does not exist")
    found = sha256_of(truth.source)
    if found != truth.sha256:
        raise UsageError(f"{truth.path}: $.sha256: the truth was made for another file than "
                         f"{truth.source}: expected SHA-256 {truth.sha256}, the file's is "
                         f"{found}")


def _check_pages(truth: DocumentTruth, page_count: int) -> None:
    """Raise UsageError when ``truth`` labels a page past the document's ``page_count``."""
    beyond = [p.page for p in truth.pages if p.page > page_count]
    if beyond:
        index = next(k for k, p in enumerate(truth.pages) if p.page == beyond[0])
        raise UsageError(f"{truth.path}: $.pages[{index}].page: page {beyond[0]}, but "
                         f"{truth.source.name} has {page_count} page(s)")


def truth_files(roots: Iterable[Path]) -> list[Path]:
    """The truth files named by ``roots``: files, or the ``*.truth.json`` files of
    folders (not of their subfolders); sorted by path, so that reports list documents
    the same way on every machine."""
    found: set[Path] = set()
    for root in roots:
        found.update(root.glob(f"*{SUFFIX}") if root.is_dir() else [root])
    return sorted(found)


def labelled_pages(roots: Iterable[Path]) -> list[PageTruth]:
    """Every page labelled for reading order in the truth files of ``roots`` (see
    `truth_files`), document by document, page by page."""
    return [page for path in truth_files(roots) for page in load_truth(path).pages
            if page.ordered]
