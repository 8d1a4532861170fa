"""The pipeline in one call: ``parse(path) -> Document``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from .config import LayoutConfig
from .errors import PageRangeError
from .extract import open_source
from .furniture import find_furniture
from .model import Document
from .order import body_words, layout_page
from .segment import prepare, segment, shared_gutters
from .words import words_from_glyphs

__all__ = ["parse", "parse_page_spec"]

_CONTEXT = 2
"""Pages on each side of a requested page read as well, so that running headers
can be recognised by their repetition even when one page is asked for."""

_SPEC = re.compile(r"^\s*(\d+)?\s*(-)?\s*(\d+)?\s*$")


def parse_page_spec(spec: str, page_count: int) -> list[int]:
    """The 1-based pages a spec such as ``"1,3-5,9-"`` (or ``"-3"``, pages 1 to 3)
    names, sorted, without repeats.

    Raises PageRangeError naming the part that is malformed or out of range.
    """
    pages: set[int] = set()
    for part in spec.split(","):
        match = _SPEC.match(part)
        if not part.strip() or match is None or not (match[1] or match[3]):
            raise PageRangeError(
                f"page range {spec!r}: cannot read {part.strip()!r}; "
                "expected numbers and ranges such as 1,3-5,9-"
            )
        first = int(match[1]) if match[1] else 1
        last = (int(match[3]) if match[3] else max(first, page_count)) if match[2] else first
        if first > last:
            raise PageRangeError(f"page range {spec!r}: {part.strip()!r} runs backwards")
        if not 1 <= first <= last <= page_count:
            raise PageRangeError(f"page range {spec!r}: {part.strip()!r} is outside the "
                                 f"document's pages 1-{page_count}")
        pages.update(range(first, last + 1))
    return sorted(pages)


def parse(path: str | Path, config: LayoutConfig | None = None,
          pages: Iterable[int] | str | None = None, *, engine: str = "pdfminer") -> Document:
    """Read ``path`` and lay out its pages (all, or the 1-based ``pages``).

    Returns a Document whose pages hold bands, columns, blocks and lines in
    reading order, running headers and footers typed as such.
    """
    config = config or LayoutConfig()
    path = Path(path)
    with open_source(path, engine) as source:
        count = source.page_count
        if pages is None:
            wanted = list(range(1, count + 1))
        elif isinstance(pages, str):
            try:
                wanted = parse_page_spec(pages, count)
            except PageRangeError as exc:
                raise PageRangeError(f"{path}: {exc}") from None
        else:
            wanted = sorted(set(pages))
            bad = [p for p in wanted if not 1 <= p <= count]
            if bad:
                raise PageRangeError(f"{path}: page {bad[0]} is outside the document's "
                                     f"pages 1-{count}")
        context = sorted({q for p in wanted for q in range(p - _CONTEXT, p + _CONTEXT + 1)
                          if 1 <= q <= count})
        read = []
        for glyphs in source.pages(context):
            read.append((glyphs, words_from_glyphs(glyphs.glyphs, config)))
    furniture = find_furniture([(words, g.width, g.height) for g, words in read], config)
    prepared = [prepare(body_words(words, found)[0], g.rules, g.images, g.width, g.height, config)
                for (g, words), found in zip(read, furniture, strict=True)]
    shared = shared_gutters(prepared)
    laid_out = [layout_page(g, words, found, segment(canvas, shared), config)
                for (g, words), found, canvas in zip(read, furniture, prepared, strict=True)
                if g.page_no in wanted]
    return Document(path, tuple(laid_out), count)


