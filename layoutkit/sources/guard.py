"""Checks of a PDF's structure made before a glyph engine reads it, so that a small
hostile file cannot make an engine run for hours, take all memory or abort the
process (PDFium aborts when an allocation fails).

:func:`check_structure` walks the page tree and the form XObjects each page draws,
with pdfminer.six's parser (which reads the objects lazily, a document of a few
hundred pages in a few hundredths of a second).  It refuses a page tree that lists
one page more than once (a ``/Kids`` array holding the same page 100,000 times) or
that loops back on itself, and measures what each page draws: its content streams
decoded, and each form XObject's decoded stream counted every time it is drawn, forms
within forms multiplied out (twenty forms each drawing the next twice draw the last a
million times).  Streams are decompressed only up to ``page_max_content_bytes``, so a
decompression bomb costs no more than that.  The pages drawing more than
``page_alone_content_bytes`` are returned, to be read in a process of their own
(:mod:`.alone`), or, past ``page_max_content_bytes``, not at all (:func:`PageRisk.reason`).

A file pdfminer.six cannot parse is left to the engine, which reports (or repairs)
what it finds.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import SourcesConfig
from ..errors import DocumentError
from .differences import name_of

__all__ = ["PageRisk", "check_structure"]

_DRAW = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*Do(?![^\s/\[\]()<>{}%])")
"""A ``/Name Do`` operator of a content stream: the XObject drawn."""

_FLATE_MAX_RATIO = 1032
"""The most Flate (deflate) can compress: 1032 bytes of output for a byte of input."""


@dataclass(frozen=True, slots=True)
class PageRisk:
    """A page that draws more than an ordinary page: how much (some number past
    ``page_max_content_bytes`` when it draws more than that), and its media box's
    size in points, for a page left unread."""

    draws: int
    width: float
    height: float

    def reason(self, config: SourcesConfig) -> str | None:
        """Why the page is not read, past ``page_max_content_bytes``; None for a page
        to read (in a process of its own)."""
        if self.draws <= config.page_max_content_bytes:
            return None
        return (f"draws more than {config.page_max_content_bytes:,} bytes of content "
                f"(page_max_content_bytes; its forms counted each time they are drawn), "
                f"more than can be read safely")


def check_structure(path: Path, config: SourcesConfig) -> dict[int, PageRisk]:
    """The pages of the PDF at ``path`` (by number) that draw more than
    ``page_alone_content_bytes``; raises DocumentError naming the page tree's repeated
    page."""
    from pdfminer.pdfdocument import PDFDocument  # only for a PDF, read once
    from pdfminer.pdfparser import PDFParser

    with path.open("rb") as stream:
        try:
            document = PDFDocument(PDFParser(stream))
            pages = list(_leaves(path, document))
        except DocumentError:
            raise
        except Exception:  # pdfminer raises many types on broken files
            return {}  # the engine reports (or repairs) what pdfminer cannot parse
        drawn = _Drawn(config.page_max_content_bytes, config.page_alone_content_bytes)
        risks: dict[int, PageRisk] = {}
        for number, (contents, resources, box) in enumerate(pages, 1):
            try:
                size = drawn.page(contents, resources)
            except Exception:  # a broken stream or object: the engine's to report
                continue
            if size > config.page_alone_content_bytes:
                risks[number] = PageRisk(size, *_size(box))
        return risks


def _size(box: Any) -> tuple[float, float]:
    """The width and height of a media box, a US Letter page where it is not one."""
    from pdfminer.pdftypes import resolve1

    try:
        x0, y0, x1, y1 = (float(resolve1(v)) for v in resolve1(box))
    except (TypeError, ValueError):
        return 612.0, 792.0
    return abs(x1 - x0) or 612.0, abs(y1 - y0) or 792.0


def _leaves(path: Path, document: Any) -> Iterator[tuple[Any, Any, Any]]:
    """The contents, resources and media box (both inherited where the page has none)
    of each page of ``document``, in order; raises DocumentError when the tree lists a
    page twice or loops."""
    from pdfminer.pdftypes import PDFObjRef, resolve1

    root = document.catalog.get("Pages")
    stack: list[tuple[Any, Any, Any]] = [(root, None, None)]
    seen: set[int] = set()
    while stack:
        reference, inherited, inherited_box = stack.pop()
        key = reference.objid if isinstance(reference, PDFObjRef) else id(reference)
        node = resolve1(reference)
        if not isinstance(node, dict):
            continue
        if key in seen:
            kind = "page" if "Kids" not in node else "page tree node"
            raise DocumentError(f"{path}: the page tree lists a {kind} (object {key}) more than "
                                f"once; a page may appear in it once")
        seen.add(key)
        resources = node.get("Resources", inherited)
        box = node.get("MediaBox", inherited_box)
        kids = resolve1(node.get("Kids"))
        if isinstance(kids, list):
            stack.extend((kid, resources, box) for kid in reversed(kids))
        else:
            yield node.get("Contents"), resources, box


class _Drawn:
    """The bytes of content a page draws, each form XObject's decoded stream measured
    once per document and counted each time it is drawn."""

    def __init__(self, budget: int, ordinary: int) -> None:
        self.budget = budget
        self.ordinary = ordinary
        self.forms: dict[int, int] = {}
        self.drawing: set[int] = set()

    def page(self, contents: Any, resources: Any) -> int:
        """What the page whose ``contents`` (a stream or an array of them) and
        ``resources`` draws; past the budget, some number above it; within what an
        ordinary page draws, some number within that."""
        from pdfminer.pdftypes import resolve1

        streams = resolve1(contents)
        streams = [resolve1(s) for s in (streams if isinstance(streams, list) else [streams])]
        if not self._has_forms(resources):
            # a bound within an ordinary page's content spares decompressing the streams
            bound = sum(self._bound(s) for s in streams)
            return bound if bound <= self.ordinary else sum(len(self._decoded(s))
                                                            for s in streams)
        data = b"".join(self._decoded(s) for s in streams)
        return len(data) + self._forms(data, resources)

    def _has_forms(self, resources: Any) -> bool:
        """Whether ``resources`` name any form XObject a content stream could draw."""
        from pdfminer.pdftypes import resolve1

        xobjects = resolve1((resolve1(resources) or {}).get("XObject")) or {}
        return any(name_of(resolve1(x).get("Subtype")) == "Form" for x in xobjects.values()
                   if hasattr(resolve1(x), "get"))

    def _bound(self, stream: Any) -> int:
        """At least the decoded size of ``stream``: its compressed size times the most
        Flate can compress (1032 to 1), without decompressing it."""
        from pdfminer.pdftypes import PDFStream

        if isinstance(stream, PDFStream) and stream.rawdata is not None:
            return len(stream.rawdata) * _FLATE_MAX_RATIO
        return len(self._decoded(stream))

    def _forms(self, data: bytes, resources: Any) -> int:
        """The content drawn by the form XObjects that ``data`` draws by name."""
        from pdfminer.pdftypes import PDFObjRef, PDFStream, resolve1

        uses = Counter(match[1] for match in _DRAW.finditer(data))
        if not uses:
            return 0
        xobjects = resolve1((resolve1(resources) or {}).get("XObject")) or {}
        total = 0
        for name, count in uses.items():
            reference = xobjects.get(name.decode("latin-1"))
            form = resolve1(reference)
            if not isinstance(form, PDFStream) or name_of(form.get("Subtype")) != "Form":
                continue
            key = reference.objid if isinstance(reference, PDFObjRef) else id(form)
            if key in self.drawing:  # a form drawing itself: engines stop such loops
                continue
            if key not in self.forms:
                self.drawing.add(key)
                body = self._decoded(form)
                self.forms[key] = len(body) + self._forms(body, form.get("Resources", resources))
                self.drawing.discard(key)
            total += count * self.forms[key]
            if total > self.budget:
                break
        return total

    def _decoded(self, stream: Any) -> bytes:
        """The decoded data of a stream, a Flate stream decompressed no further than
        one byte past the budget."""
        from pdfminer.pdftypes import PDFStream

        if not isinstance(stream, PDFStream):
            return b""
        filters = stream.get_filters()
        raw = stream.rawdata
        if raw is not None and not filters:
            return bytes(raw)
        if (raw is not None and len(filters) == 1 and stream.decipher is None
                and name_of(filters[0][0]) in ("FlateDecode", "Fl")):
            try:
                return zlib.decompressobj().decompress(raw, self.budget + 1)
            except zlib.error:
                return b""  # the engine's to report
        return bytes(stream.get_data())
