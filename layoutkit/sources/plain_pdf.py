"""The objects of a plain PDF read with regular expressions, for the structure check.

A plain PDF has a cross-reference table (no cross-reference or object streams) and is
not encrypted.  The objects the check reads (the page tree, the pages' resources and
content streams, the form XObjects) are then each at the offset the table gives, and a
few regular expressions read them several times faster than a general parser, with
nothing to import.

Anything else (a cross-reference stream, an encrypted file, an object that is not where
the table says, a filter other than Flate) raises `NotPlainError`, and the check reads
the file with pdfminer.six instead (`guard`), so a file is never judged by less than a
full parser would read.
"""

from __future__ import annotations

import mmap
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Name", "NotPlainError", "PlainPdf", "Ref", "Stream", "decoded", "inflated"]


class NotPlainError(Exception):
    """The file is not a plain PDF this module reads: a full parser must read it."""


@dataclass(frozen=True, slots=True)
class Ref:
    """A reference to an indirect object."""

    objid: int


@dataclass(frozen=True, slots=True)
class Name:
    """A name object (``/Form``), its ``#xx`` escapes decoded."""

    name: str


@dataclass(frozen=True, slots=True)
class Stream:
    """A stream: its dictionary and its data as stored."""

    attrs: dict[str, Any]
    rawdata: bytes

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key`` in the stream's dictionary."""
        return self.attrs.get(key, default)


_DELIMITER = rb"\s/\[\]()<>{}%\x00"
_TOKEN = re.compile(rb"(?:[\s\x00]|%[^\r\n]*)*(?:"
                    rb"(?P<ref>(\d+)[\s\x00]+(\d+)[\s\x00]+R(?![^" + _DELIMITER + rb"]))"
                    rb"|(?P<num>[+-]?(?:\d+\.?\d*|\.\d+))"
                    rb"|(?P<name>/[^" + _DELIMITER + rb"]*)"
                    rb"|(?P<open><<|\[)|(?P<close>>>|\])"
                    rb"|(?P<hex><[0-9A-Fa-f\s]*>)"
                    rb"|(?P<str>\()"
                    rb"|(?P<word>[^" + _DELIMITER + rb"]+))")
"""One token after any white space and comments: a reference, a number, a name, an
opening or closing bracket of a dictionary or array, a hex string, the start of a
literal string, or a keyword (true, false, null, obj, stream...)."""

_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_STRING_PART = re.compile(rb"\\.|[()]", re.S)
_OBJECT = re.compile(rb"[\s\x00]*(\d+)[\s\x00]+(\d+)[\s\x00]+obj")
_STREAM = re.compile(rb"[\s\x00]*stream\r?\n")
_ENDSTREAM = re.compile(rb"[\s\x00]*endstream")
_ENTRY = re.compile(rb"(\d{10})[ ](\d{5})[ ]([nf])")
_SUBSECTION = re.compile(rb"[\s\x00]*(\d+)[ ]+(\d+)[ \t]*\r?\n?")


class PlainPdf:
    """The objects of a plain PDF file, each read when it is first asked for; raises
    `NotPlainError` (when opened, or when an object is read) for any other file."""

    def __init__(self, path: Path) -> None:
        with path.open("rb") as file:
            self.data: Any = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        self.offsets: dict[int, int] = {}
        self.objects: dict[int, Any] = {}
        self.trailer = self._read_xref()
        if "Encrypt" in self.trailer:
            raise NotPlainError("encrypted")

    def close(self) -> None:
        """Let the file go."""
        self.data.close()

    def resolve(self, value: Any) -> Any:
        """``value``, or the object it refers to (references followed)."""
        seen = 0
        while isinstance(value, Ref):
            value = self.get(value.objid)
            seen += 1
            if seen > 32:
                raise NotPlainError("a chain of references")
        return value

    def get(self, objid: int) -> Any:
        """Indirect object ``objid`` (None for one the table does not list)."""
        if objid not in self.objects:
            offset = self.offsets.get(objid)
            self.objects[objid] = None if offset is None else self._object_at(objid, offset)
        return self.objects[objid]

    def text_of(self, objid: int, limit: int) -> bytes | None:
        """The text of object ``objid`` as stored, up to its ``endobj`` and no more
        than ``limit`` bytes, unparsed; None for one the table does not list."""
        offset = self.offsets.get(objid)
        if offset is None:
            return None
        head = _OBJECT.match(self.data, offset)
        if head is None or int(head[1]) != objid:
            raise NotPlainError(f"object {objid} is not where the table says")
        end = self.data.find(b"endobj", head.end(), head.end() + limit)
        return bytes(self.data[head.end():end if end >= 0 else head.end() + limit])

    def _read_xref(self) -> dict[str, Any]:
        """The trailer of the cross-reference tables, the tables read into ``offsets``
        (a later table's entries over an earlier one's)."""
        at = self.data.rfind(b"startxref", max(0, len(self.data) - 4096))
        if at < 0:
            raise NotPlainError("no startxref")
        match = re.compile(rb"startxref[\s\x00]+(\d+)").match(self.data, at)
        if match is None:
            raise NotPlainError("no startxref")
        offset: int | None = int(match[1])
        trailer: dict[str, Any] | None = None
        seen: set[int] = set()
        while offset is not None:
            if offset in seen or len(seen) > 64:
                raise NotPlainError("cross-reference tables loop")
            seen.add(offset)
            section = self._xref_section(offset)
            trailer = trailer or section
            if "XRefStm" in section:
                raise NotPlainError("a hybrid file")
            prev = section.get("Prev")
            offset = prev if isinstance(prev, int) else None
        assert trailer is not None
        return trailer

    def _xref_section(self, offset: int) -> dict[str, Any]:
        """The trailer of the table at ``offset``, its entries added to ``offsets``
        where a later table gave none."""
        if self.data[offset:offset + 4] != b"xref":
            raise NotPlainError("a cross-reference stream")
        at = offset + 4
        while True:
            head = _SUBSECTION.match(self.data, at)
            if head is None:
                break
            first, count = int(head[1]), int(head[2])
            at = head.end()
            for number in range(first, first + count):
                entry = _ENTRY.search(self.data, at, at + 40)
                if entry is None:
                    raise NotPlainError("a broken cross-reference table")
                at = entry.end()
                if entry[3] == b"n":
                    self.offsets.setdefault(number, int(entry[1]))
        keyword = re.compile(rb"[\s\x00]*trailer").match(self.data, at)
        if keyword is None:
            raise NotPlainError("no trailer")
        trailer, _ = self._value(keyword.end())
        if not isinstance(trailer, dict):
            raise NotPlainError("no trailer")
        return trailer

    def _object_at(self, objid: int, offset: int) -> Any:
        """The object ``objid`` stored at ``offset``: its value, a Stream for a stream."""
        head = _OBJECT.match(self.data, offset)
        if head is None or int(head[1]) != objid:
            raise NotPlainError(f"object {objid} is not where the table says")
        value, at = self._value(head.end())
        start = _STREAM.match(self.data, at)
        if start is None:
            return value
        if not isinstance(value, dict):
            raise NotPlainError(f"object {objid}: a stream without a dictionary")
        length = self.resolve(value.get("Length"))
        if not isinstance(length, int) or length < 0:
            raise NotPlainError(f"object {objid}: a stream without its length")
        end = start.end() + length
        if _ENDSTREAM.match(self.data, end) is None:
            raise NotPlainError(f"object {objid}: a stream whose length is wrong")
        return Stream(value, self.data[start.end():end])

    def _value(self, at: int) -> tuple[Any, int]:
        """The object that starts at ``at`` and where it ends."""
        token = _TOKEN.match(self.data, at)
        if token is None:
            raise NotPlainError(f"no object at {at}")
        kind, end = token.lastgroup, token.end()
        if kind == "ref":
            return Ref(int(token[2])), end
        if kind == "num":
            text = token["num"]
            return (float(text) if b"." in text else int(text)), end
        if kind == "name":
            return Name(_ESCAPE.sub(lambda m: bytes([int(m[1], 16)]),
                                    token["name"][1:]).decode("latin-1")), end
        if kind == "open":
            return self._container(token["open"] == b"<<", end)
        if kind == "hex":
            return b"", end
        if kind == "str":
            return b"", self._string_end(end)
        word = token["word"]
        if word in (b"true", b"false"):
            return word == b"true", end
        if word == b"null":
            return None, end
        raise NotPlainError(f"an unexpected {word[:20]!r} at {at}")

    def _container(self, dictionary: bool, at: int) -> tuple[Any, int]:
        """The dictionary (or array) whose opening bracket ends at ``at``, and its end."""
        items: list[Any] = []
        while True:
            close = _TOKEN.match(self.data, at)
            if close is not None and close.lastgroup == "close":
                if (close["close"] == b">>") != dictionary:
                    raise NotPlainError(f"mismatched brackets at {at}")
                at = close.end()
                break
            value, at = self._value(at)
            items.append(value)
        if not dictionary:
            return items, at
        if len(items) % 2 or not all(isinstance(k, Name) for k in items[::2]):
            raise NotPlainError(f"a broken dictionary before {at}")
        return {k.name: v for k, v in zip(items[::2], items[1::2], strict=True)}, at

    def _string_end(self, at: int) -> int:
        """Where the literal string whose ``(`` ends at ``at`` ends."""
        depth = 1
        while depth:
            part = _STRING_PART.search(self.data, at)
            if part is None:
                raise NotPlainError("an unterminated string")
            at = part.end()
            if part[0] == b"(":
                depth += 1
            elif part[0] == b")":
                depth -= 1
        return at


def decoded(stream: Stream, limit: int) -> bytes:
    """The data of ``stream`` decoded, no more than ``limit`` bytes of it; raises
    NotPlainError for a filter other than Flate (without parameters)."""
    filters = stream.attrs.get("Filter")
    filters = filters if isinstance(filters, list) else [filters] if filters else []
    if not filters:
        return bytes(stream.rawdata[:limit])
    if len(filters) == 1 and isinstance(filters[0], Name) and \
            filters[0].name in ("FlateDecode", "Fl") and not stream.attrs.get("DecodeParms"):
        return inflated(stream.rawdata, limit)
    raise NotPlainError("a stream filter other than Flate")


def inflated(data: bytes, limit: int) -> bytes:
    """``data`` decompressed by Flate (zlib), no more than ``limit`` bytes of it; what
    is broken in it ends it (an engine reports it)."""
    try:
        return zlib.decompressobj().decompress(data, limit)
    except zlib.error:
        return b""
