"""Checks of a PDF's structure made before a glyph engine reads it.

They keep a small hostile file from making an engine run for hours, take all memory or
abort the process (PDFium aborts when an allocation fails).  `check_structure` walks
the page tree and the form XObjects each page draws, reading the objects lazily: those
of a plain PDF (a cross-reference table, not encrypted) with a few regular expressions
(`plain_pdf`), any other with pdfminer.six's parser, imported only then.

- A page tree that lists one page more than once (a `/Kids` array holding the same page
  100,000 times) or loops back on itself is refused; an empty node listed again (a
  report's tree repeats its empty `/Pages` nodes) holds no page and is passed over.
- What each page draws is measured: its content streams decoded, each form XObject's
  stream counted every time it is drawn, forms within forms multiplied out (twenty
  forms each drawing the next twice draw the last a million times).  The annotations'
  appearance streams, drawn when the page is rendered for OCR, count as forms.
- Streams are decompressed only up to `page_max_content_bytes`, so a decompression bomb
  costs no more than that.
- Pages drawing more than `page_alone_content_bytes` are returned, to be read in a
  process of their own (`alone`), or, past `page_max_content_bytes`, not at all
  (`PageRisk.reason`).
- Nor is a page read whose forms draw each other (PDFium follows such a loop to its
  own nesting limit: two forms, one drawing the other twice, draw a million times) or
  nest deeper than `page_max_form_depth`.
- Nor one whose `/Annots` array lists more than `page_max_annotations` entries, counted
  in its text without parsing each (2.5 million made PDFium abort and took pdfminer.six
  most of a minute to parse).
- Nor one whose resources name more than `page_max_resources` fonts, XObjects and the
  like.

A file pdfminer.six cannot parse is left to the engine, which reports (or repairs) what
it finds.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
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
    refused: str | None = None
    """Why the page is not read whatever it draws (its forms draw each other or nest
    past ``page_max_form_depth``; it has more annotations than ``page_max_annotations``
    or names more resources than ``page_max_resources``); None for a page refused, if
    at all, by what it draws."""

    def reason(self, config: SourcesConfig) -> str | None:
        """Why the page is not read, past ``page_max_content_bytes`` or refused by the
        check; None for a page to read (in a process of its own)."""
        if self.refused is not None:
            return self.refused
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
    """`check_structure` of the file at ``path`` with the objects one of the
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
        drawn = _Drawn(reader, config)
        risks: dict[int, PageRisk] = {}
        for number, (contents, resources, box, annots) in enumerate(pages, 1):
            try:
                refused = _too_many(
                    reader.entries(annots, config.page_max_annotations),
                    config.page_max_annotations, "annotations", "page_max_annotations"
                ) or _too_many(reader.resources(resources, config.page_max_resources),
                               config.page_max_resources, "resources (fonts, XObjects...)",
                               "page_max_resources")
                size = 0 if refused else drawn.page(contents, resources, annots)
            except _RefusedError as exc:
                refused, size = str(exc), 0
            except NotPlainError:
                raise
            except Exception as exc:  # a broken stream or object: the engine's to report
                unread(exc)
                continue
            if refused or size > config.page_alone_content_bytes:
                risks[number] = PageRisk(size, *_size(reader, box), refused=refused)
        return risks


def _too_many(count: int, most: int, what: str, key: str) -> str | None:
    """Why a page with ``count`` of ``what`` is not read; None within ``most`` (the
    config's ``key``)."""
    if count <= most:
        return None
    return f"has more than {most:,} {what} ({key}), more than can be read safely"


class _RefusedError(Exception):
    """A page the check refuses by what its forms draw: the reason, in words."""


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

    def text(self, value: Any) -> bytes | None:
        """The text of the object a reference refers to, as stored (no more than
        `_TEXT_MAX` bytes), when it is not parsed yet; None for anything else."""
        raise NotImplementedError

    def entries(self, value: Any, most: int) -> int:
        """The number of entries of an array (or of the array a reference refers to),
        0 for anything else, or some number past ``most``; an indirect array is counted
        in its text, without parsing each entry (2.5 million references take
        pdfminer.six most of a minute), at least as many as it holds (`_entries`)."""
        text = self.text(value)
        if text is not None:
            return _entries(text, most)
        value = self.resolve(value)
        return len(value) if isinstance(value, list) else 0

    def keys(self, value: Any) -> int:
        """The number of keys of a dictionary (or of the dictionary a reference refers
        to), 0 for anything else; an indirect one is counted in its text, by its names,
        at least as many as its keys."""
        text = self.text(value)
        if text is not None:
            return text.count(b"/")
        value = self.resolve(value)
        return len(value) if isinstance(value, dict) else 0

    def resources(self, value: Any, most: int) -> int:
        """At least the number of resources (fonts, XObjects, graphics states...) that
        the resource dictionary ``value`` names, or some number past ``most``; one whose
        own text holds more than ``8 * most`` names is not parsed."""
        if self.keys(value) > 8 * most:
            return most + 1
        resources = self.resolve(value)
        if not isinstance(resources, dict):
            return 0
        total = 0
        for kind in _RESOURCE_KINDS:
            total += self.keys(resources.get(kind))
            if total > most:
                break
        return total


class _Plain(_Objects):
    """The objects of a plain PDF (`plain_pdf`)."""

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

    def text(self, value: Any) -> bytes | None:
        if isinstance(value, Ref) and value.objid not in self.pdf.objects:
            return self.pdf.text_of(value.objid, _TEXT_MAX)
        return None


class _Pdfminer(_Objects):
    """The objects of any PDF pdfminer.six parses, read from ``stream``."""

    def __init__(self, stream: BinaryIO) -> None:
        from pdfminer.pdfdocument import PDFDocument  # only for a PDF not plain
        from pdfminer.pdfparser import PDFParser

        self.stream = stream
        self.document = PDFDocument(PDFParser(stream))
        self.object_streams: dict[int, bytes] = {}
        """Object streams decoded, by object number, to read objects' texts from."""

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

    def text(self, value: Any) -> bytes | None:
        from pdfminer.pdftypes import PDFObjRef

        if isinstance(value, PDFObjRef) and value.objid not in self.document._cached_objs:
            return self._text_of(int(value.objid))
        return None

    def _text_of(self, objid: int) -> bytes | None:
        """The text of indirect object ``objid`` as stored (in the file, up to its
        ``endobj``; in an object stream, up to the next object), no more than
        `_TEXT_MAX` bytes of it; None where the cross-reference does not say."""
        for xref in self.document.xrefs:
            try:
                stream_id, index, _ = xref.get_pos(objid)
            except KeyError:
                continue
            if stream_id is None:
                return self._in_file(index)
            return self._in_object_stream(int(stream_id), index)
        return None

    def _in_file(self, offset: int) -> bytes:
        """The text from ``offset`` to the next ``endobj``, read a block at a time."""
        self.stream.seek(offset)
        text = bytearray()
        while len(text) < _TEXT_MAX:
            searched = max(0, len(text) - 8)
            block = self.stream.read(1 << 16)
            text += block
            end = text.find(b"endobj", searched)
            if end >= 0:
                return bytes(text[:end])
            if not block:
                break
        return bytes(text[:_TEXT_MAX])

    def _in_object_stream(self, stream_id: int, index: int) -> bytes | None:
        """The text of the ``index``-th object of object stream ``stream_id``."""
        stream = self.resolve(self.document.getobj(stream_id))
        if not self.is_stream(stream):
            return None
        if stream_id not in self.object_streams:
            self.object_streams[stream_id] = self.decoded(stream, _TEXT_MAX)
        data = self.object_streams[stream_id]
        first, count = self.resolve(stream.get("First")), self.resolve(stream.get("N"))
        if not isinstance(first, int) or not isinstance(count, int) or not 0 <= index < count:
            return None
        offsets = data[:first].split()[1:2 * count:2]
        try:
            start = first + int(offsets[index])
            end = first + int(offsets[index + 1]) if index + 1 < len(offsets) else len(data)
        except (IndexError, ValueError):
            return None
        return data[start:end]


_TEXT_MAX = 64 << 20
"""The most of an object's text read to count its entries."""

_RESOURCE_KINDS = ("Font", "XObject", "ExtGState", "ColorSpace", "Pattern", "Shading",
                   "Properties")
"""The kinds of resources a page's content names."""

_ENTRY = re.compile(rb"(?<![^\s/\[\]()<>{}%\x00])R(?![^\s/\[\]()<>{}%\x00])|<<")
"""What begins or ends an entry of an array of annotations: a reference's ``R`` or a
dictionary's ``<<``."""


def _entries(text: bytes, most: int) -> int:
    """At least the number of entries of the array in ``text`` (an object's text), or
    ``most`` + 1 when that is more: its references and dictionaries (those within a
    dictionary counted too), found without parsing them."""
    return sum(1 for _ in islice(_ENTRY.finditer(text), most + 1))


def _size(objects: _Objects, box: Any) -> tuple[float, float]:
    """The width and height of a media box, a US Letter page where it is not one."""
    try:
        x0, y0, x1, y1 = (float(objects.resolve(v)) for v in objects.resolve(box))
    except (TypeError, ValueError):
        return 612.0, 792.0
    return abs(x1 - x0) or 612.0, abs(y1 - y0) or 792.0


def _leaves(path: Path, objects: _Objects) -> Iterator[tuple[Any, Any, Any, Any]]:
    """The contents, resources, media box (both inherited where the page has none) and
    annotations (as stored: an array or a reference to one) of each page, in order;
    raises DocumentError when the tree lists a node twice (but an empty one) or
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
            kids = objects.resolve(node.get("Kids"))
            if kids == []:
                continue  # an empty node listed again holds no page to read twice
            kind = "page" if kids is None else "page tree node"
            raise DocumentError(f"{path}: the page tree lists a {kind} (object {key}) more than "
                                f"once; a page may appear in it once")
        seen.add(key)
        resources = node.get("Resources", inherited)
        box = node.get("MediaBox", inherited_box)
        kids = objects.resolve(node.get("Kids"))
        if isinstance(kids, list):
            stack.extend((kid, resources, box) for kid in reversed(kids))
        else:
            yield node.get("Contents"), resources, box, node.get("Annots")


class _Drawn:
    """The bytes of content a page draws, each form XObject's decoded stream measured
    once per document and counted each time it is drawn; raises `_RefusedError` for
    forms that draw each other or nest deeper than ``page_max_form_depth``."""

    def __init__(self, objects: _Objects, config: SourcesConfig) -> None:
        self.objects = objects
        self.budget = config.page_max_content_bytes
        self.ordinary = config.page_alone_content_bytes
        self.depth = config.page_max_form_depth
        self.forms: dict[int, tuple[int, int]] = {}
        """Each form measured: what it draws and how deep the forms within it nest."""
        self.drawing: list[int] = []

    def page(self, contents: Any, resources: Any, annots: Any = None) -> int:
        """What the page whose ``contents`` (a stream or an array of them),
        ``resources`` and annotations ``annots`` (their appearance streams, drawn when
        the page is rendered) draws; past the budget, some number above it; within what
        an ordinary page draws, some number within that."""
        resolve = self.objects.resolve
        self.drawing = []
        appearances = self._appearances(annots)
        streams = resolve(contents)
        streams = [resolve(s) for s in (streams if isinstance(streams, list) else [streams])]
        if not self._has_forms(resources):
            # a bound within an ordinary page's content spares decompressing the streams
            bound = sum(self._bound(s) for s in streams)
            return appearances + (bound if bound <= self.ordinary
                                  else sum(len(self._decoded(s)) for s in streams))
        data = b"".join(self._decoded(s) for s in streams)
        return appearances + len(data) + self._forms(data, resources)[0]

    def _appearances(self, annots: Any) -> int:
        """What the appearance streams of the annotations ``annots`` draw (each form
        of ``/AP``'s normal, rollover and down appearances, or of their states)."""
        resolve = self.objects.resolve
        annots = resolve(annots)
        total = 0
        for annot in annots if isinstance(annots, list) else ():
            annot = resolve(annot)
            appearance = resolve(annot.get("AP")) if isinstance(annot, dict) else None
            if not isinstance(appearance, dict):
                continue
            for kind in ("N", "R", "D"):
                forms = resolve(appearance.get(kind))
                for reference in forms.values() if isinstance(forms, dict) else [
                        appearance.get(kind)]:
                    total += self._form(reference, None)[0]
                    if total > self.budget:
                        return total
        return total

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

    def _forms(self, data: bytes, resources: Any) -> tuple[int, int]:
        """The content drawn by the form XObjects that ``data`` draws by name, and how
        deep they nest (0 for none); raises `_RefusedError` for a form drawn within
        itself (PDFium follows such a loop to its own nesting limit, and a form drawing
        the other twice then draws it a million times) or forms nesting past the
        depth budget, the forms being drawn now in `drawing`."""
        uses = Counter(match[1] for match in _DRAW.finditer(data))
        if not uses:
            return 0, 0
        xobjects = self._xobjects(resources)
        total = deepest = 0
        for name, count in uses.items():
            size, depth = self._form(xobjects.get(name.decode("latin-1")), resources)
            total += count * size
            deepest = max(deepest, depth)
            if total > self.budget:
                break
        return total, deepest

    def _form(self, reference: Any, resources: Any) -> tuple[int, int]:
        """What the form XObject ``reference`` refers to draws (its own content and its
        forms'), and how deep forms nest in it (1 for none); 0, 0 for what is not a form
        XObject; raises `_RefusedError` as `_forms` says."""
        form = self.objects.resolve(reference)
        if not self.objects.is_stream(form) or \
                self.objects.name(form.get("Subtype")) not in ("Form", ""):
            return 0, 0
        key = self.objects.key(reference, form)
        if key in self.drawing:
            raise _RefusedError(f"draws form XObjects that draw each other (object {key} "
                                f"is drawn within itself), a loop an engine may follow for ever")
        if key not in self.forms:
            if len(self.drawing) >= self.depth:
                raise _RefusedError(self._too_deep())
            self.drawing.append(key)
            body = self._decoded(form)
            size, depth = self._forms(body, form.get("Resources", resources))
            self.forms[key] = (len(body) + size, depth + 1)
            self.drawing.pop()
        size, depth = self.forms[key]
        if len(self.drawing) + depth > self.depth:
            raise _RefusedError(self._too_deep())
        return size, depth

    def _too_deep(self) -> str:
        """Why a page whose forms nest too deep is not read."""
        return (f"draws form XObjects nested more than {self.depth} deep "
                f"(page_max_form_depth), more than can be read safely")

    def _decoded(self, stream: Any) -> bytes:
        """The decoded data of a stream, a Flate stream decompressed no further than
        one byte past the budget."""
        if not self.objects.is_stream(stream):
            return b""
        return self.objects.decoded(stream, self.budget + 1)
