"""The text and metadata the loaders hand over, one record a chunk or a page.

A record's metadata holds plain JSON values only:

- ``source``: the document's path as given (``<bytes>`` for bytes);
- ``pages``: the pages its lines stand on, ``page`` the first;
- ``headings``: the titles of the headings it stands under (top level first), and
  ``section`` the same joined by `` > `` for stores that keep only strings;
- ``line_types``, ``chars`` and ``tokens`` (a chunk's, `layoutkit.Chunk`);
- ``chunk``: a chunk's index in the document (chunk mode);
- ``lines``: each line's ``page``, ``line`` (its index among its page's lines),
  ``start`` (where its text starts in the record's text), ``lineType`` and ``bbox``
  (``[x0, top, x1, bottom]`` in points from the page's top-left corner).

In page mode a record is a page's text (running headers and footers left out), its
headings those in force where the page begins; a page with no text gives none.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..outputs.chunks import Chunk, TokenCounter, chunks, token_counter
from ..pipeline import parse
from ..sources.inputs import Source

__all__ = ["MODES", "Record", "records"]

MODES = ("chunk", "page")
"""What a record is: a chunk (`layoutkit.chunks`) or a page."""

Record = tuple[str, dict[str, Any]]
"""A record's text and metadata."""


def records(source: Source, *, mode: str = "chunk", max_chars: int | None = None,
            max_tokens: int | None = None, tokenizer: str | TokenCounter | None = None,
            **parse_options: Any) -> Iterator[Record]:
    """The records of the document ``source`` (what `layoutkit.parse` reads, read with
    ``parse_options``: ``config``, ``pages``, ``profile``, ``password``...): one a chunk
    at most ``max_chars`` characters and ``max_tokens`` tokens, or with ``mode="page"``
    one a page.  Raises UsageError for another mode."""
    if mode not in MODES:
        raise UsageError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
    tokenizer = token_counter(tokenizer)
    with parse(source, **parse_options) as document:
        name = str(source) if isinstance(source, str | Path) else str(document.path)
        found = chunks(document, max_chars=None if mode == "page" else max_chars,
                       max_tokens=None if mode == "page" else max_tokens, tokenizer=tokenizer)
        if mode == "chunk":
            for k, chunk in enumerate(found):
                yield chunk.text, _metadata(name, chunk, k)
            return
        headings = {(p.line.page_no, p.index): c.headings for c in found for p in c.lines}
        for page in document.pages:
            lines = [(k, line) for k, line in enumerate(page.lines)
                     if (page.page_no, k) in headings]
            if not lines:
                continue
            starts = [0]
            for _, line in lines[:-1]:
                starts.append(starts[-1] + len(line.text) + 1)
            yield "\n".join(line.text for _, line in lines), {
                "source": name, "page": page.page_no, "pages": [page.page_no],
                **_path(headings[page.page_no, lines[0][0]]),
                "lines": [{"page": page.page_no, "line": k, "start": start,
                           "lineType": line.code, "bbox": line.bbox.as_list()}
                          for (k, line), start in zip(lines, starts, strict=True)]}


def _path(headings: tuple[str, ...]) -> dict[str, Any]:
    return {"headings": list(headings), "section": " > ".join(headings)}


def _metadata(name: str, chunk: Chunk, index: int) -> dict[str, Any]:
    data = chunk.to_dict()
    return {"source": name, "chunk": index, "page": data["pages"][0], "pages": data["pages"],
            **_path(chunk.headings), "line_types": data["lineTypes"], "chars": data["chars"],
            "tokens": data["tokens"], "lines": data["lines"]}
