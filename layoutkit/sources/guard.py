"""Checks of a PDF's structure made before a glyph engine reads it, so that a small
hostile file cannot make an engine run for hours, take all memory or abort the
process (PDFium aborts when an allocation fails).

:func:`check_structure` walks the page tree and the form XObjects each page draws,
reading the objects lazily: those of a plain PDF (a cross-reference table, not
encrypted) with a few regular expressions (:mod:`.plain_pdf`), any other with
pdfminer.six's parser, which is imported only then.  It refuses a page tree that lists
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
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from ..config import SourcesConfig
from ..errors import DocumentError
from .plain_pdf import Name, NotPlainError, PlainPdf, Ref, Stream, decoded, inflated

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
    try:
        plain = PlainPdf(path)
    except (NotPlainError, OSError, ValueError):
        return _checked(path, config, _Pdfminer)
    try:
        return _checked(path, config, lambda _: _Plain(plain))
    except NotPlainError:
        return _checked(path, config, _Pdfminer)
    finally:
        plain.close()


def _checked(path: Path, config: SourcesConfig, objects: Callable[[BinaryIO], _Objects]
             ) -> dict[int, PageRisk]:
    """:func:`check_structure` of the file at ``path`` with the objects one of the
    readers gives.  What pdfminer.six cannot parse is left to the engine; what the
    plain reader cannot read is NotPlainError, for pdfminer.six to read."""
    lenient = objects is _Pdfminer

    def unread(exc: Exception) -> dict[int, PageRisk]:
        if lenient:
            return {}  # the engine reports (or repairs) what pdfminer cannot parse
        raise NotPlainError(f"{type(exc).__name__}: {exc}") from exc

    with path.open("rb") as stream:
        try:
            reader = objects(stream)
            pages = list(_leaves(path, reader))
        except (DocumentError, NotPlainError):
            raise
        except Exception as exc:  # pdfminer raises many types on broken files
            return unread(exc)
        drawn = _Drawn(reader, config.page_max_content_bytes, config.page_alone_content_bytes)
        risks: dict[int, PageRisk] = {}
        for number, (contents, resources, box) in enumerate(pages, 1):
            try:
                size = drawn.page(contents, resources)
            except NotPlainError:
                raise
            except Exception as exc:  # a broken stream or object: the engine's to report
                unread(exc)
                continue
            if size > config.page_alone_content_bytes:
                risks[number] = PageRisk(size, *_size(reader, box))
        return risks


class _Objects:
    """What the check asks of a PDF's objects, from one of the two readers."""

    def root(self) -> Any:
        """The root of the page tree (``/Pages`` of the catalog)."""
        raise NotImplementedError

    def resolve(self, value: Any) -> Any:
        """``value``, or the object it refers to."""
        raise NotImplementedError

    def key(self, reference: Any, value: Any) -> int:
        """The object number of ``reference``; for a direct object, one of its own."""
        raise NotImplementedError

    def is_stream(self, value: Any) -> bool:
        """Whether ``value`` is a stream."""
        raise NotImplementedError

    def raw_size(self, stream: Any) -> int | None:
        """The size of the stream's data as stored (None when it is not known)."""
        raise NotImplementedError

    def decoded(self, stream: Any, limit: int) -> bytes:
        """The stream's data decoded (Flate: no more than ``limit`` bytes)."""
        raise NotImplementedError

    def name(self, value: Any) -> str:
        """The name a name object (or a reference to one) holds; empty for another."""
        raise NotImplementedError


class _Plain(_Objects):
    """The objects of a plain PDF (:mod:`.plain_pdf`)."""

    def __init__(self, pdf: PlainPdf) -> None:
        self.pdf = pdf

    def root(self) -> Any:
        catalog = self.pdf.resolve(self.pdf.trailer.get("Root"))
        return catalog.get("Pages") if isinstance(catalog, dict) else None

    def resolve(self, value: Any) -> Any:
        return self.pdf.resolve(value)

    def key(self, reference: Any, value: Any) -> int:
        return reference.objid if isinstance(reference, Ref) else id(value)

    def is_stream(self, value: Any) -> bool:
        return isinstance(value, Stream)

    def raw_size(self, stream: Any) -> int | None:
        return len(stream.rawdata)

    def decoded(self, stream: Any, limit: int) -> bytes:
        attrs = {**stream.attrs, "Filter": self.resolve(stream.get("Filter"))}
        return decoded(Stream(attrs, stream.rawdata), limit)

    def name(self, value: Any) -> str:
        value = self.resolve(value)
        return value.name if isinstance(value, Name) else ""


class _Pdfminer(_Objects):
    """The objects of any PDF pdfminer.six parses, read from ``stream``."""

    def __init__(self, stream: BinaryIO) -> None:
        from pdfminer.pdfdocument import PDFDocument  # only for a PDF not plain
        from pdfminer.pdfparser import PDFParser

        self.document = PDFDocument(PDFParser(stream))

    def root(self) -> Any:
        return self.document.catalog.get("Pages")

    def resolve(self, value: Any) -> Any:
        from pdfminer.pdftypes import resolve1

        return resolve1(value)

    def key(self, reference: Any, value: Any) -> int:
        from pdfminer.pdftypes import PDFObjRef

        return int(reference.objid) if isinstance(reference, PDFObjRef) else id(value)

    def is_stream(self, value: Any) -> bool:
        from pdfminer.pdftypes import PDFStream

        return isinstance(value, PDFStream)

    def raw_size(self, stream: Any) -> int | None:
        return None if stream.rawdata is None else len(stream.rawdata)

    def decoded(self, stream: Any, limit: int) -> bytes:
        filters = stream.get_filters()
        raw = stream.rawdata
        if raw is not None and not filters:
            return bytes(raw)
        if (raw is not None and len(filters) == 1 and stream.decipher is None
                and self.name(filters[0][0]) in ("FlateDecode", "Fl")):
            return inflated(raw, limit)
        return bytes(stream.get_data())

    def name(self, value: Any) -> str:
        from .differences import name_of

        return name_of(value)


def _size(objects: _Objects, box: Any) -> tuple[float, float]:
    """The width and height of a media box, a US Letter page where it is not one."""
    try:
        x0, y0, x1, y1 = (float(objects.resolve(v)) for v in objects.resolve(box))
    except (TypeError, ValueError):
        return 612.0, 792.0
    return abs(x1 - x0) or 612.0, abs(y1 - y0) or 792.0


def _leaves(path: Path, objects: _Objects) -> Iterator[tuple[Any, Any, Any]]:
    """The contents, resources and media box (both inherited where the page has none)
    of each page, in order; raises DocumentError when the tree lists a page twice or
    loops."""
    stack: list[tuple[Any, Any, Any]] = [(objects.root(), None, None)]
    seen: set[int] = set()
    while stack:
        reference, inherited, inherited_box = stack.pop()
        node = objects.resolve(reference)
        if not isinstance(node, dict):
            continue
        key = objects.key(reference, node)
        if key in seen:
            kind = "page" if "Kids" not in node else "page tree node"
            raise DocumentError(f"{path}: the page tree lists a {kind} (object {key}) more than "
                                f"once; a page may appear in it once")
        seen.add(key)
        resources = node.get("Resources", inherited)
        box = node.get("MediaBox", inherited_box)
        kids = objects.resolve(node.get("Kids"))
        if isinstance(kids, list):
            stack.extend((kid, resources, box) for kid in reversed(kids))
        else:
            yield node.get("Contents"), resources, box


class _Drawn:
    """The bytes of content a page draws, each form XObject's decoded stream measured
    once per document and counted each time it is drawn."""

    def __init__(self, objects: _Objects, budget: int, ordinary: int) -> None:
        self.objects = objects
        self.budget = budget
        self.ordinary = ordinary
        self.forms: dict[int, int] = {}
        self.drawing: set[int] = set()

    def page(self, contents: Any, resources: Any) -> int:
        """What the page whose ``contents`` (a stream or an array of them) and
        ``resources`` draws; past the budget, some number above it; within what an
        ordinary page draws, some number within that."""
        resolve = self.objects.resolve
        streams = resolve(contents)
        streams = [resolve(s) for s in (streams if isinstance(streams, list) else [streams])]
        if not self._has_forms(resources):
            # a bound within an ordinary page's content spares decompressing the streams
            bound = sum(self._bound(s) for s in streams)
            return bound if bound <= self.ordinary else sum(len(self._decoded(s))
                                                            for s in streams)
        data = b"".join(self._decoded(s) for s in streams)
        return len(data) + self._forms(data, resources)

    def _xobjects(self, resources: Any) -> dict[str, Any]:
        """The XObjects ``resources`` name."""
        resolve = self.objects.resolve
        xobjects = resolve((resolve(resources) or {}).get("XObject")) or {}
        return xobjects if isinstance(xobjects, dict) else {}

    def _has_forms(self, resources: Any) -> bool:
        """Whether ``resources`` name any form XObject a content stream could draw."""
        resolve, name = self.objects.resolve, self.objects.name
        return any(name(resolve(x).get("Subtype")) == "Form"
                   for x in self._xobjects(resources).values() if hasattr(resolve(x), "get"))

    def _bound(self, stream: Any) -> int:
        """At least the decoded size of ``stream``: its compressed size times the most
        Flate can compress (1032 to 1), without decompressing it."""
        size = self.objects.raw_size(stream) if self.objects.is_stream(stream) else None
        return size * _FLATE_MAX_RATIO if size is not None else len(self._decoded(stream))

    def _forms(self, data: bytes, resources: Any) -> int:
        """The content drawn by the form XObjects that ``data`` draws by name."""
        uses = Counter(match[1] for match in _DRAW.finditer(data))
        if not uses:
            return 0
        xobjects = self._xobjects(resources)
        total = 0
        for name, count in uses.items():
            reference = xobjects.get(name.decode("latin-1"))
            form = self.objects.resolve(reference)
            if not self.objects.is_stream(form) or \
                    self.objects.name(form.get("Subtype")) != "Form":
                continue
            key = self.objects.key(reference, form)
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
        if not self.objects.is_stream(stream):
            return b""
        return self.objects.decoded(stream, self.budget + 1)
