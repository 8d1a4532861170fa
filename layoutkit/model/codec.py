"""The JSON codec of a parsed document: its two JSON forms, made and read in one place.

A `Document` becomes JSON for two different readers, and
each gets its own schema name:

``layoutkit.document/1``, the published view (`document_json`, `dumps`)
    What ``layoutkit parse`` writes for other programs: pages, bands, columns and
    the lines in reading order, coordinates rounded to 2 places, camelCase keys,
    the words left out.  Other programs depend on it, so its bytes do not change.
    It is a view: it cannot be read back into a Document.

``layoutkit.store/1``, the store (`store_dumps`, `store_loads`)
    What `layoutkit.TextDocument.store` writes and ``load`` reads back:
    every field of every value, named as the model's dataclasses name them, so
    that ``store_loads(store_dumps(d)) == d``, every number and any Unicode text
    exactly.  Its encoding is derived from the dataclasses' fields and annotations
    (`encode`, `decode`): a dataclass is an object of its fields, a
    tuple a list, an enum its value, a path its text.  A field added to the model
    with a default is stored without a change here, and older files still read.

Why one module with two schemas rather than one form: the published view must
stay small and byte-for-byte stable, the store must lose nothing, and no single
form does both.  What the two share is defined here once: the envelope
(``{"schema": ..., ...}``), the text (UTF-8 characters as themselves, never
``\\u`` escapes), and the reading of a schema name, where `store_loads`
answers anything but a store, the published view included, with a one-line
`DocumentError`.

Published view (every coordinate in points, origin at the page's top-left)::

    {"schema": "layoutkit.document/1", "document": "<file name>", "pageCount": 38,
     "ocr": {"scanned": true, "quality": 0.93},
     "pages": [{"pageNo": 1, "width": 603.0, "height": 783.0,
                "ocr": {"words": 712, "confidence": 0.94, "dictionary": 0.92,
                        "quality": 0.93, "error": null, "source": "tesseract",
                        "layerQuality": 0.41, "tesseractQuality": 0.95,
                        "language": "eng", "wordList": "american-english+british-english",
                        "done": true, "why": "layer reads poorly (0.41 of its words ..."},
                "bands": [{"index": 0, "kind": "header|body|footer|margin",
                           "bbox": [x0, top, x1, bottom],
                           "columns": [{"index": 0, "bbox": [...]}]}],
                "lines": [{"text": "...", "bbox": [x0, top, x1, bottom], "band": 0,
                           "column": 0, "block": 0, "lineType": "b",
                           "fontSize": 8.0, "fonts": ["Times-Roman"],
                           "words": [{"text": "...", "x0": 72.0, "top": 90.1, "x1": 96.5,
                                      "bottom": 98.1, "upright": true,
                                      "fontname": "Times-Roman", "size": 8.0,
                                      "weight": 400, "link": "https://..."}]}]}]}

``ocr`` is present only when pages were read by OCR (``quality`` null when every
one failed), and ``pages[].ocr`` only on those pages (``dictionary``: the share of
their words in the language's word list, null without one; ``error``: why OCR
failed, the text layer then used).  ``source`` says whose words the page has:
``"tesseract"``, or ``"text layer"`` when the scan's own OCR layer read better (null
when OCR failed on a page without one); ``layerQuality`` and ``tesseractQuality``
are the shares of each one's words that read as real, which chose it (null: no
layer; tesseract not run, the layer reading too well to lose, when ``confidence``
and ``dictionary`` are null too).  ``quality`` is the kept words': for a text layer
its ``layerQuality``.  ``language`` is the languages the page was read and judged in
(tesseract codes joined by ``+``), ``wordList`` the word lists that gave
``dictionary`` and the read shares (null: none for the language, ``quality`` is then
tesseract's confidence alone).
``words`` is there only when asked for (``layoutkit parse --words``); a word's
``link`` only where it stands in a link annotation to an ``http``, ``https`` or
``mailto`` address; ``pages[].figures`` only with ``layoutkit parse --images DIR``: each
figure in reading order, ``{"index": 1, "kind": "image|drawing|table", "bbox": [...],
"caption": "...", "before": 12, "image": "DIR/p1-fig1.png"}`` (``before``: the index of
the page's line it stands before; ``caption`` empty when none was found).  The JSON
Schema of this view is ``document.schema.json`` beside this module
(`json_schema`).
``pages[].lines`` are in reading order; ``band`` and ``column`` index into
``bands`` and their ``columns``; ``block`` numbers the blocks of a column.
``lineType`` is DCR's code: ``h``/``f`` running header/footer, ``b`` body, ``h_1``,
``h_2``... heading of that level, ``lb``/``ln`` bulleted/numbered list item,
``toc`` table of contents.

Store::

    {"schema": "layoutkit.store/1", "document": {"path": "...", "pages": [...],
     "page_count": 38, "tables": [...], "ocr": [...]}}

and, for one page, ``{"schema": "layoutkit.store/1", "page": {"page_no": 1, ...}}``.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Iterable, Iterator, Mapping, Sequence
from enum import Enum
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from ..errors import DocumentError
from ..files import text_name
from .layout import Document, Line, OcrQuality, Page, Word

__all__ = ["DOCUMENT_SCHEMA", "STORE_SCHEMA", "decode", "document_json", "dumps", "encode",
           "is_stored_document", "json_pieces", "json_schema", "store_dumps", "store_loads",
           "word_json"]

DOCUMENT_SCHEMA = "layoutkit.document/1"
"""The schema of the published view, the JSON ``layoutkit parse`` writes."""
STORE_SCHEMA = "layoutkit.store/1"
"""The schema of the store, the lossless JSON a stored document is read back from."""

_STORE_FAMILY = STORE_SCHEMA.partition("/")[0] + "/"
"""What every version of the store's schema name begins with."""

_T = TypeVar("_T")


# --------------------------------------------------------------------------- published view


Figures = Mapping[int, Sequence[Mapping[str, Any]]]
"""The figures of a document's pages as the published view gives them, by page number
(`layoutkit.outputs.figures.figure_json` makes them)."""


def document_json(document: Document, *, words: bool = False,
                  figures: Figures | None = None) -> dict[str, Any]:
    """The published view of ``document`` as plain JSON-ready data, schema
    [`DOCUMENT_SCHEMA`][layoutkit.model.codec.DOCUMENT_SCHEMA]: what other programs read, numbers
    rounded; with ``words``, each line also holds its words (see `word_json`); with
    ``figures``, each page holds its figures (none: an empty list)."""
    scanned, quality = document.scanned
    ocr = {q.page_no: q for q in document.ocr}
    return {"schema": DOCUMENT_SCHEMA, "document": text_name(document.path.name),
            "pageCount": document.page_count,
            **({"ocr": {"scanned": True, "quality": _rounded(quality)}} if scanned else {}),
            "pages": [_page(page, ocr.get(page.page_no), words,
                            None if figures is None else figures.get(page.page_no, ()))
                      for page in document.pages]}


def dumps(document: Document, *, words: bool = False, figures: Figures | None = None) -> str:
    """The published view of ``document`` as JSON text (indented by one space, a
    newline at the end), UTF-8 characters kept as they are: what ``layoutkit
    parse`` writes (``--words``: with each line's words; ``--images``: with each page's
    ``figures``)."""
    return _text(document_json(document, words=words, figures=figures), indent=1)


def word_json(word: Word) -> dict[str, Any]:
    """A word as ``layoutkit parse --words`` gives it, with the keys pdfplumber's
    ``extract_words(extra_attrs=["fontname", "size"])`` gives a word: its text, box
    (``x0``, ``top``, ``x1``, ``bottom``), ``upright``, ``fontname`` and ``size``; and
    the ``weight`` of its font ([`weight`][layoutkit.model.Word.weight]: 400 regular, 700
    bold, 0 where none was read and the name alone tells); and for a word in a link
    annotation, the ``link`` it opens ([`link`][layoutkit.model.Word.link])."""
    return {"text": word.text, "x0": round(word.bbox.x0, 2), "top": round(word.bbox.top, 2),
            "x1": round(word.bbox.x1, 2), "bottom": round(word.bbox.bottom, 2),
            "upright": word.upright, "fontname": word.font, "size": round(word.size, 2),
            "weight": word.weight, **({"link": word.link} if word.link else {})}


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the published view, shipped with the package
    as ``layoutkit/model/document.schema.json``."""
    text = resources.files(__package__).joinpath("document.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def dumps_pieces(path: Path, page_count: int, ocr: Sequence[OcrQuality],
                 pages: Iterable[Page], *, words: bool = False) -> Iterator[str]:
    """The text of [`dumps`][layoutkit.model.codec.dumps] of the document at ``path``
    (``page_count`` pages, the ``ocr`` quality of its pages read by OCR; each line's words with
    ``words``), a page at a time as ``pages`` come."""
    head = document_json(Document(path, (), page_count, (), tuple(ocr)))
    by_page = {q.page_no: q for q in ocr}
    return json_pieces(head, (_page(page, by_page.get(page.page_no), words) for page in pages))


def json_pieces(head: dict[str, Any], items: Iterable[Any]) -> Iterator[str]:
    """The indented JSON text of ``head`` ([`dumps`][layoutkit.model.codec.dumps]' layout) whose
    last key holds an empty list, with ``items`` in that list: a piece for each item as it comes,
    and one for the end, so that a document's pages are written without all being held."""
    opening, _, closing = _text(head, indent=1).rpartition("[]")
    written = False
    for item in items:
        text = json.dumps(item, ensure_ascii=False, indent=1)
        yield (",\n" if written else opening + "[\n") + "\n".join(
            "  " + line for line in text.split("\n"))
        written = True
    yield ("\n " if written else opening + "[") + "]" + closing


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _ocr(quality: OcrQuality) -> dict[str, Any]:
    unread = quality.error is None and quality.source == "text layer" and \
        quality.tesseract is None  # a layer too good to lose: tesseract not run
    return {"words": quality.words,
            "confidence": None if unread else _rounded(quality.confidence),
            "dictionary": None if unread else _rounded(quality.dictionary),
            "quality": None if quality.error else _rounded(quality.score),
            "error": quality.error, "source": quality.source,
            "layerQuality": _rounded(quality.layer),
            "tesseractQuality": _rounded(quality.tesseract),
            "language": quality.language, "wordList": quality.word_list,
            "done": quality.done, "why": quality.why}


def _page(page: Page, ocr: OcrQuality | None, words: bool,
          figures: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "pageNo": page.page_no,
        "width": round(page.width, 2),
        "height": round(page.height, 2),
        **({"label": page.label} if page.label else {}),
        **({"unreadable": page.unreadable} if page.unreadable else {}),
        "bands": [{"index": band.index, "kind": band.kind.value, "bbox": band.bbox.as_list(),
                   "columns": [{"index": c.index, "bbox": c.bbox.as_list()}
                               for c in band.columns]}
                  for band in page.bands],
        **({"ocr": _ocr(ocr)} if ocr else {}),
        "lines": [_line(line, words) for line in page.lines],
        **({"figures": [dict(figure) for figure in figures]} if figures is not None else {}),
    }


def _line(line: Line, words: bool) -> dict[str, Any]:
    return {"text": line.text, "bbox": line.bbox.as_list(), "band": line.band,
            "column": line.column, "block": line.block, "lineType": line.code,
            "fontSize": round(line.size, 2), "fonts": list(line.fonts),
            **({"words": [word_json(word) for word in line.words]} if words else {})}


# --------------------------------------------------------------------------- store


def encode(value: object) -> Any:
    """``value`` (a model value, or a tuple, enum, path or plain value in one) as
    JSON-ready data that `decode` turns back into an equal value: dataclasses
    as objects of their fields, tuples as lists, enums by value, paths as text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [encode(item) for item in value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Path):
        return str(value)
    return value


def decode(kind: type[_T], data: Any) -> _T:
    """The value of the model class ``kind`` that `encode` made ``data`` from,
    each field rebuilt as the class's annotations type it; raises ValueError for a
    field the class has not and TypeError or ValueError for data of another shape."""
    value: _T = _decoded(kind, data)
    return value


def _decoded(kind: Any, data: Any) -> Any:
    """`decode` for any annotation: a dataclass, ``tuple[X, ...]`` or a fixed
    tuple, ``X | None``, an enum, Path or a plain type."""
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        fields = _field_types(kind)
        if kind in _EARLIER_KINDS:
            data = dict(_current(kind, name, value) for name, value in data.items())
        unknown = next((name for name in data if name not in fields), None)
        if unknown is not None:
            raise ValueError(f"{kind.__name__} has no field {unknown!r}")
        return kind(**{name: _decoded(fields[name], value) for name, value in data.items()})
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decoded(args[0], item) for item in data)
        return tuple(_decoded(arg, item) for arg, item in zip(args, data, strict=True))
    if origin in (typing.Union, types.UnionType):
        if data is None:
            return None
        return _decoded(next(a for a in args if a is not type(None)), data)
    if isinstance(kind, type) and issubclass(kind, (Enum, Path)):
        return kind(data)
    return data


_EARLIER: dict[tuple[type, str], tuple[str, Any]] = {
    (Word, "upright"): ("direction", lambda upright: 0 if upright else 90)}
"""Fields a store written by an earlier version holds, by class and name: the field
each became and how its value reads as that field's (a word not upright was read
bottom to top)."""
_EARLIER_KINDS = frozenset(kind for kind, _ in _EARLIER)


def _current(kind: type, name: str, value: Any) -> tuple[str, Any]:
    """The field ``name`` of ``kind`` and its ``value`` as this version stores them."""
    earlier = _EARLIER.get((kind, name))
    return (name, value) if earlier is None else (earlier[0], earlier[1](value))


@cache
def _field_types(kind: type) -> dict[str, Any]:
    """The annotation of each field of the dataclass ``kind``, resolved once per class
    (a stored document holds thousands of words)."""
    return typing.get_type_hints(kind)


def store_dumps(value: Document | Page) -> str:
    """The store of a whole document or of one page as JSON text, schema
    `STORE_SCHEMA` (``"document"`` or ``"page"`` beside it), on one line,
    UTF-8 characters kept as they are; `store_loads` reads a document's back."""
    key = "document" if isinstance(value, Document) else "page"
    return _text({"schema": STORE_SCHEMA, key: encode(value)}, indent=None)


def store_loads(text: str, origin: str = "<text>") -> Document:
    """The document `store_dumps` wrote as ``text`` (read from ``origin``, which
    error messages name), equal to the one stored.  Raises DocumentError, in one
    line, when ``text`` is not JSON, has another schema (the published view
    included: it leaves out too much to be read back) or does not fit the model."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise DocumentError(f"{origin}: not JSON ({error})") from None
    schema = data.get("schema") if isinstance(data, dict) else None
    if schema != STORE_SCHEMA:
        hint = ("the published view `layoutkit parse` writes, which leaves out the words; "
                "store the document with TextDocument.store" if schema == DOCUMENT_SCHEMA
                else "unknown to this version of layoutkit")
        raise DocumentError(f"{origin}: schema {schema!r} is {hint}; expected "
                            f"{STORE_SCHEMA!r}")
    if "document" not in data:
        raise DocumentError(f"{origin}: a {STORE_SCHEMA} file without a document "
                            f"(a page's file?)")
    try:
        return decode(Document, data["document"])
    except (TypeError, ValueError, AttributeError) as error:
        raise DocumentError(f"{origin}: not a valid {STORE_SCHEMA} document: "
                            f"{error}") from None


def is_stored_document(text: str) -> bool:
    """Whether ``text`` is a stored document of any version of the store's schema (a
    page's file, the published view or other JSON is not): what a folder is searched
    for, so that a version this one cannot read is reported instead of passed over."""
    try:
        data = json.loads(text)
    except ValueError:
        return False
    return (isinstance(data, dict) and isinstance(data.get("schema"), str)
            and data["schema"].startswith(_STORE_FAMILY) and "document" in data)


def _text(data: dict[str, Any], *, indent: int | None) -> str:
    """``data`` as JSON text with non-ASCII characters as themselves: indented, and
    ending in a newline, when ``indent`` is given; on one line as it is without."""
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    return text if indent is None else text + "\n"
