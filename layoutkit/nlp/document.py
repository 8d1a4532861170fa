"""The Document API: a PDF read once, its pages, text, language and word counts.

``layoutkit.Document(path)`` parses the PDF (:func:`layoutkit.parse`) and keeps
the parsed value (:class:`layoutkit.model.Document`) as ``.layout``; the NLP
reading of it (paragraphs, spaCy tokens, languages) is made on first use.
``store(dir)`` writes the parsed value as JSON that :meth:`Document.load` reads
back equal, any Unicode text kept exactly.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator
from enum import Enum
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import model
from ..config import LayoutConfig
from ..errors import DocumentError
from ..pipeline import loaded_profile, parse

if TYPE_CHECKING:
    from ..profile import Profile
    from .tokens import Analysis

__all__ = ["STORE_SCHEMA", "Document", "TextPage"]

STORE_SCHEMA = "layoutkit.store/1"


class _WordCounts(ABC):
    """Frequency lists derived from a :attr:`bag_of_words`."""

    @property
    @abstractmethod
    def bag_of_words(self) -> dict[str, int]:
        """How often each word (lower case, stop words and punctuation left out) occurs."""

    @property
    def freq_dist(self) -> list[tuple[str, int]]:
        """:attr:`bag_of_words` as (word, count), most frequent first."""
        return sorted(self.bag_of_words.items(), key=lambda item: (-item[1], item[0]))

    @property
    def term_freq(self) -> list[tuple[str, float]]:
        """:attr:`freq_dist` with each count divided by the number of words."""
        total = sum(self.bag_of_words.values())
        return [(word, count / total) for word, count in self.freq_dist]


class TextPage(_WordCounts):
    """One page of a :class:`Document`: its layout (``.layout``), text, language and
    word counts."""

    def __init__(self, document: Document, index: int) -> None:
        self._document = document
        self.layout: model.Page = document.layout.pages[index]
        self._index = index

    @property
    def page_no(self) -> int:
        """The page's 1-based number in the PDF."""
        return self.layout.page_no

    @property
    def text(self) -> str:
        """The page's text in reading order, running headers and footers left out."""
        return self.layout.text()

    @property
    def lang(self) -> str:
        """The ISO 639-1 code of the page's language."""
        return self._document.analysis.page_langs[self._index]

    @property
    def bag_of_words(self) -> dict[str, int]:
        """How often each word (lower case, stop words and punctuation left out) occurs."""
        from .tokens import words

        return dict(Counter(words(self._document.analysis, self.page_no)))


class Document(_WordCounts):
    """A PDF read in reading order: ``len(doc)`` pages, ``doc[i]`` a :class:`TextPage`,
    ``doc.text`` the page texts, ``doc.lang`` the language."""

    def __init__(self, path: str | Path, profile: Profile | str | Path | None = None,
                 config: LayoutConfig | None = None, *,
                 layout: model.Document | None = None) -> None:
        # a profile named beside a parsed layout is not read: only its config would count
        chosen = None if layout is not None and isinstance(profile, str | Path) else \
            loaded_profile(profile)
        self.config = config or (chosen.config if chosen else LayoutConfig())
        self.layout = layout or parse(path, config, profile=chosen)
        self.path = self.layout.path

    @classmethod
    def from_layout(cls, layout: model.Document,
                    config: LayoutConfig | None = None) -> Document:
        """A Document around an already parsed value."""
        return cls(layout.path, config=config, layout=layout)

    def __len__(self) -> int:
        return len(self.layout.pages)

    def __getitem__(self, index: int) -> TextPage:
        if not -len(self) <= index < len(self):
            raise IndexError(f"page index {index} out of range for {len(self)} pages")
        return TextPage(self, index % len(self))

    def __iter__(self) -> Iterator[TextPage]:
        return (TextPage(self, k) for k in range(len(self)))

    @cached_property
    def analysis(self) -> Analysis:
        """The document's paragraphs through spaCy, with its languages (spaCy is
        imported on first use: it takes seconds)."""
        from .tokens import analyse

        return analyse(self.layout, self.config)

    @property
    def text(self) -> list[str]:
        """Each page's text in reading order, running headers and footers left out."""
        return [page.text() for page in self.layout.pages]

    @property
    def lang(self) -> str:
        """The ISO 639-1 code of the document's language."""
        return self.analysis.lang

    @property
    def scanned(self) -> tuple[bool, float | None]:
        """Whether pages were read by OCR, and the OCR quality estimate (0 to 1) of
        those pages: ``(True, 0.93)``, or ``(False, None)``."""
        return self.layout.scanned

    @property
    def bag_of_words(self) -> dict[str, int]:
        """How often each word (lower case, stop words and punctuation left out) occurs."""
        from .tokens import words

        return dict(Counter(words(self.analysis)))

    def store(self, directory: str | Path, *, pages: bool = False) -> Path:
        """Write the parsed document to ``<directory>/<name>.json`` (and with ``pages``
        each page to ``<name><pageno>.json`` and ``<name><pageno>.txt``); returns the
        document's file."""
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        name = self.path.stem
        target = folder / f"{name}.json"
        _write_json(target, {"schema": STORE_SCHEMA, "document": _encode(self.layout)})
        if pages:
            for page in self.layout.pages:
                _write_json(folder / f"{name}{page.page_no}.json",
                            {"schema": STORE_SCHEMA, "page": _encode(page)})
                (folder / f"{name}{page.page_no}.txt").write_text(page.text(), encoding="utf-8")
        return target

    @classmethod
    def load(cls, directory: str | Path, name: str | None = None,
             config: LayoutConfig | None = None) -> Document:
        """The Document :meth:`store` wrote to ``directory`` (``name``: which one, when
        the directory holds several)."""
        folder = Path(directory)
        stored = ([folder / f"{name}.json"] if name else
                  [p for p in sorted(folder.glob("*.json")) if _is_document(p)])
        if len(stored) != 1:
            raise DocumentError(f"{folder}: expected one stored document, found "
                                f"{len(stored)}; name the one to load")
        data = json.loads(stored[0].read_text(encoding="utf-8"))
        return cls.from_layout(_decode(model.Document, data["document"]), config)


def _is_document(path: Path) -> bool:
    try:
        return "document" in json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError):
        return False


def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def _encode(value: Any) -> Any:
    """A frozen model value as JSON-ready data: dataclasses as objects of their
    fields, tuples as lists, enums by value, paths as text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Path):
        return str(value)
    return value


def _decode(kind: Any, data: Any) -> Any:
    """The value of type ``kind`` (a model dataclass, tuple, enum, Path or plain
    type, as the model's annotations say) that :func:`_encode` made ``data`` from."""
    if dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind, vars(model))
        return kind(**{name: _decode(hints[name], value)  # type: ignore[operator]
                       for name, value in data.items()})
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], item) for item in data)
        return tuple(_decode(arg, item) for arg, item in zip(args, data, strict=True))
    if origin in (typing.Union, types.UnionType):
        if data is None:
            return None
        return _decode(next(a for a in args if a is not type(None)), data)
    if isinstance(kind, type) and issubclass(kind, (Enum, Path)):
        return kind(data)
    return data
