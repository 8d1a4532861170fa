"""Outputs of a parsed document: plain text and JSON, written atomically.

JSON schema ``layoutkit.document/1`` (every coordinate in points, origin at the
page's top-left)::

    {"schema": "layoutkit.document/1", "document": "<file name>", "pageCount": 38,
     "pages": [{"pageNo": 1, "width": 603.0, "height": 783.0,
                "bands": [{"index": 0, "kind": "header|body|footer|margin",
                           "bbox": [x0, top, x1, bottom],
                           "columns": [{"index": 0, "bbox": [...]}]}],
                "lines": [{"text": "...", "bbox": [x0, top, x1, bottom], "band": 0,
                           "column": 0, "block": 0, "lineType": "b",
                           "fontSize": 8.0, "fonts": ["Times-Roman"]}]}]}

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

from .model import Document, Line, Page

__all__ = ["SCHEMA", "document_json", "dumps", "write_atomic"]

SCHEMA = "layoutkit.document/1"


def document_json(document: Document) -> dict[str, Any]:
    """The document as plain JSON-ready data, schema :data:`SCHEMA`."""
    return {"schema": SCHEMA, "document": document.path.name,
            "pageCount": document.page_count,
            "pages": [_page(page) for page in document.pages]}


def _page(page: Page) -> dict[str, Any]:
    return {
        "pageNo": page.page_no,
        "width": round(page.width, 2),
        "height": round(page.height, 2),
        "bands": [{"index": band.index, "kind": band.kind.value, "bbox": band.bbox.as_list(),
                   "columns": [{"index": c.index, "bbox": c.bbox.as_list()}
                               for c in band.columns]}
                  for band in page.bands],
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


def dumps(document: Document) -> str:
    """The document's JSON as text, UTF-8 characters kept as they are."""
    return json.dumps(document_json(document), ensure_ascii=False, indent=1) + "\n"
