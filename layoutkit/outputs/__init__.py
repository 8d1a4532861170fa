"""Outputs of a parsed document: plain text and JSON, written atomically.

JSON schema ``layoutkit.document/1`` (every coordinate in points, origin at the
page's top-left)::

    {"schema": "layoutkit.document/1", "document": "<file name>", "pageCount": 38,
     "ocr": {"scanned": true, "quality": 0.93},
     "pages": [{"pageNo": 1, "width": 603.0, "height": 783.0,
                "ocr": {"words": 712, "confidence": 0.94, "dictionary": 0.92,
                        "quality": 0.93, "error": null},
                "bands": [{"index": 0, "kind": "header|body|footer|margin",
                           "bbox": [x0, top, x1, bottom],
                           "columns": [{"index": 0, "bbox": [...]}]}],
                "lines": [{"text": "...", "bbox": [x0, top, x1, bottom], "band": 0,
                           "column": 0, "block": 0, "lineType": "b",
                           "fontSize": 8.0, "fonts": ["Times-Roman"]}]}]}

``ocr`` is present only when pages were read by OCR (``quality`` null when every
one failed), and ``pages[].ocr`` only on those pages (``dictionary``: the share of
their words in the language's word list, null without one; ``error``: why OCR
failed, the text layer then used).
``pages[].lines`` are in reading order; ``band`` and ``column`` index into
``bands`` and their ``columns``; ``block`` numbers the blocks of a column.
``lineType`` is DCR's code: ``h``/``f`` running header/footer, ``b`` body, ``h_1``,
``h_2``... heading of that level, ``lb``/``ln`` bulleted/numbered list item,
``toc`` table of contents.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..linetypes import outline
from ..linetypes.tables import without_empty_columns
from ..model import Document, Line, OcrQuality, Page

__all__ = ["SCHEMA", "SKIPPABLE", "TABLE_SCHEMA", "TOC_SCHEMA", "document_json",
           "document_text", "dumps", "skip_codes", "table_dumps", "toc_dumps", "write_atomic"]

SCHEMA = "layoutkit.document/1"
TOC_SCHEMA = "layoutkit.toc/1"
TABLE_SCHEMA = "layoutkit.tables/1"
SKIPPABLE = ("b", "h_", "lb", "ln", "toc", "tab")
"""Line types ``layoutkit text --skip`` can leave out (``h_`` is every heading level)."""


def document_json(document: Document) -> dict[str, Any]:
    """The document as plain JSON-ready data, schema :data:`SCHEMA`."""
    scanned, quality = document.scanned
    ocr = {q.page_no: q for q in document.ocr}
    return {"schema": SCHEMA, "document": document.path.name,
            "pageCount": document.page_count,
            **({"ocr": {"scanned": True, "quality": _rounded(quality)}} if scanned else {}),
            "pages": [_page(page, ocr.get(page.page_no)) for page in document.pages]}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _ocr(quality: OcrQuality) -> dict[str, Any]:
    return {"words": quality.words, "confidence": _rounded(quality.confidence),
            "dictionary": _rounded(quality.dictionary),
            "quality": None if quality.error else _rounded(quality.score),
            "error": quality.error}


def _page(page: Page, ocr: OcrQuality | None) -> dict[str, Any]:
    return {
        "pageNo": page.page_no,
        "width": round(page.width, 2),
        "height": round(page.height, 2),
        **({"label": page.label} if page.label else {}),
        "bands": [{"index": band.index, "kind": band.kind.value, "bbox": band.bbox.as_list(),
                   "columns": [{"index": c.index, "bbox": c.bbox.as_list()}
                               for c in band.columns]}
                  for band in page.bands],
        **({"ocr": _ocr(ocr)} if ocr else {}),
        "lines": [_line(line) for line in page.lines],
    }


def _line(line: Line) -> dict[str, Any]:
    return {"text": line.text, "bbox": line.bbox.as_list(), "band": line.band,
            "column": line.column, "block": line.block, "lineType": line.code,
            "fontSize": round(line.size, 2), "fonts": list(line.fonts)}


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file in the same folder,
    so a reader never sees half a file and a failure leaves nothing behind."""
    folder = path.parent if str(path.parent) else Path()
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        Path(temporary).chmod(_mode_for(path))
        Path(temporary).replace(path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _mode_for(path: Path) -> int:
    """The permissions ``open()`` would give a new file (or the replaced file's own)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def skip_codes(spec: str) -> frozenset[str]:
    """The line types a ``--skip`` value such as ``"toc,lb"`` names; raises
    UsageError naming an unknown one."""
    codes = frozenset(part.strip() for part in spec.split(",") if part.strip())
    unknown = sorted(codes - set(SKIPPABLE))
    if unknown:
        raise UsageError(f"--skip {spec!r}: unknown line type {unknown[0]!r}; expected a "
                         f"comma-separated list of {', '.join(SKIPPABLE)}")
    return codes


def document_text(document: Document, *, furniture: bool = False,
                  skip: frozenset[str] = frozenset()) -> str:
    """The document's text in reading order (a form feed between pages), running
    headers and footers left out unless ``furniture``, and lines of the types in
    ``skip`` left out."""
    def kept(line: Line) -> bool:
        code = "h_" if line.code.startswith("h_") else line.code
        return (furniture or not line.furniture) and code not in skip
    return "\f".join("\n".join(line.text for line in page.lines if kept(line))
                     for page in document.pages)


def toc_dumps(document: Document, context: int) -> str:
    """The outline of the document as JSON, schema :data:`TOC_SCHEMA`: each heading
    with its level, text, page and the text of up to ``context`` lines after it."""
    return json.dumps({"schema": TOC_SCHEMA, "document": document.path.name, "headings": [
        {"level": h.level, "text": h.text, "page": h.page_no, "context": list(h.context)}
        for h in outline(document, context)]}, ensure_ascii=False, indent=1) + "\n"


def table_dumps(document: Document, *, empty_columns: bool = True) -> str:
    """The ruled tables of the document as JSON, schema :data:`TABLE_SCHEMA`: each with
    its page, box and rows of cells (``null`` for a merged cell); without
    ``empty_columns`` the columns with no text are left out."""
    tables = document.tables if empty_columns else tuple(
        without_empty_columns(t) for t in document.tables)
    return json.dumps({"schema": TABLE_SCHEMA, "document": document.path.name, "tables": [
        {"page": t.page_no, "bbox": t.bbox.as_list(), "rows": [list(row) for row in t.rows]}
        for t in tables]}, ensure_ascii=False, indent=1) + "\n"


def dumps(document: Document) -> str:
    """The document's JSON as text, UTF-8 characters kept as they are."""
    return json.dumps(document_json(document), ensure_ascii=False, indent=1) + "\n"
