"""The text document API: a PDF read once, its pages, text, language and word counts.

``layoutkit.TextDocument(path)`` parses the PDF (`layoutkit.parse`) and
keeps the parsed value (`layoutkit.model.Document`) as ``.layout``; the NLP
reading of it (paragraphs, spaCy tokens, languages) is made on first use.
``store(dir)`` writes the parsed value in the store form of the document codec
(`layoutkit.model.codec`), which `TextDocument.load` reads back equal,
any Unicode text kept exactly.

It stands beside the pipeline rather than in the ``nlp`` stage because it runs
the pipeline (`layoutkit.parse`), which no stage may import.
"""

from __future__ import annotations

import warnings
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from . import model
from .config import LayoutConfig
from .errors import DocumentError
from .files import write_atomic
from .model.codec import is_stored_document, store_dumps, store_loads
from .pipeline import loaded_profile, parse

if TYPE_CHECKING:
    from .nlp.tokens import Analysis
    from .outputs.draw import PageImage
    from .profile import Profile
    from .sources.inputs import Source

__all__ = ["TextDocument", "TextPage"]

_T = TypeVar("_T")


class _WordCounts(ABC):
    """Frequency lists derived from a `bag_of_words`."""

    @property
    @abstractmethod
    def bag_of_words(self) -> dict[str, int]:
        """How often each word (lower case, stop words and punctuation left out) occurs."""

    @property
    def freq_dist(self) -> list[tuple[str, int]]:
        """`bag_of_words` as (word, count), most frequent first."""
        return sorted(self.bag_of_words.items(), key=lambda item: (-item[1], item[0]))

    @property
    def term_freq(self) -> list[tuple[str, float]]:
        """`freq_dist` with each count divided by the number of words."""
        total = sum(self.bag_of_words.values())
        return [(word, count / total) for word, count in self.freq_dist]


class TextPage(_WordCounts):
    """One page of a [`TextDocument`][layoutkit.document.TextDocument]: its layout (``.layout``),
    text, language and word counts."""

    def __init__(self, document: TextDocument, index: int) -> None:
        self._document = document
        self.layout: model.Page = document.layout.pages[index]
        self._index = index

    @property
    def page_no(self) -> int:
        """The page's 1-based number in the PDF."""
        return self.layout.page_no

    @property
    def text(self) -> _PageText:
        """The page's text in reading order: ``page.text()``, running headers and footers
        left out (``furniture=True``: kept), as `layoutkit.Page.text` gives it.

        Read as an attribute (``page.text``, as earlier versions had it) it is still that text,
        and using it so warns (DeprecationWarning)."""
        return _PageText(self.layout.text(), self.layout.text)

    @property
    def lang(self) -> str:
        """The ISO 639-1 code of the page's language."""
        return self._document.analysis.page_langs[self._index]

    @property
    def bag_of_words(self) -> dict[str, int]:
        """How often each word (lower case, stop words and punctuation left out) occurs."""
        from .nlp.tokens import words

        return dict(Counter(words(self._document.analysis, self.page_no)))

    def to_image(self, resolution: int = 72) -> PageImage:
        """The page rendered at ``resolution`` dpi, to draw its layout on
        (``.draw_lines()``, ``.draw_columns()``, ``.draw_bands()``, ``.draw_words()``...)
        and ``.save()``; a notebook shows it: `layoutkit.Page.to_image` of the
        page, drawn from the document's file (a stored document's too).  Raises
        UsageError for a resolution out of 10 to 600."""
        page = replace(self.layout, file=self._document.layout.file)
        picture: PageImage = page.to_image(resolution)
        return picture

    def __repr__(self) -> str:
        return f"<TextPage {self.page_no} of {str(self._document.path)!r}>"


class TextDocument(_WordCounts):
    """A PDF read in reading order: ``len(doc)`` pages, ``doc[i]`` a `TextPage`
    (``doc.page(n)`` the page numbered n), ``doc.text()`` its text, ``doc.lang`` the
    language.  ``path`` is whatever `layoutkit.parse` reads (a path, bytes, a
    binary file object), ``password`` an encrypted PDF's; a ``with`` block closes it
    (deleting the copy of a document given as bytes)."""

    def __init__(self, path: Source, profile: Profile | str | Path | None = None,
                 config: LayoutConfig | None = None, *,
                 layout: model.Document | None = None, password: str | None = None) -> None:
        # a profile named beside a parsed layout is not read: only its config would count
        chosen = None if layout is not None and isinstance(profile, str | Path) else \
            loaded_profile(profile)
        self.config = config or (chosen.config if chosen else LayoutConfig())
        self.layout = layout or parse(path, config, profile=chosen, password=password)
        self.path = self.layout.path

    def __enter__(self) -> TextDocument:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release what the document holds (the temporary copy it was read from)."""
        self.layout.close()

    def __repr__(self) -> str:
        return repr(self.layout).replace("<Document", "<TextDocument", 1)

    def page(self, page_no: int) -> TextPage:
        """The page numbered ``page_no`` (1-based, as in the PDF); ``doc[i]`` is the
        i-th page read.  Raises PageNotParsedError (a KeyError too) naming the pages read
        when it is none of them."""
        return TextPage(self, self.layout.pages.index(self.layout.page(page_no)))

    @classmethod
    def from_layout(cls, layout: model.Document,
                    config: LayoutConfig | None = None) -> TextDocument:
        """A TextDocument around an already parsed value (no PDF read again)."""
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
        from .nlp.tokens import analyse

        return analyse(self.layout, self.config.nlp)

    @property
    def text(self) -> _DocumentText:
        """The document's text in reading order: ``doc.text()``, a form feed between
        pages, running headers and footers left out (``furniture=True``: kept), as
        `layoutkit.Document.text` gives it; each page's alone is
        ``[page.text() for page in doc]``.

        Read as an attribute (``doc.text``, as earlier versions had it) it is still the list of
        each page's text, and using it so warns (DeprecationWarning)."""
        return _DocumentText([page.text() for page in self.layout.pages], self.layout.text)

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
        from .nlp.tokens import words

        return dict(Counter(words(self.analysis)))

    def store(self, directory: str | Path, *, pages: bool = False) -> Path:
        """Write the parsed document to ``<directory>/<name>.json`` (and with ``pages``
        each page to ``<name><pageno>.json`` and ``<name><pageno>.txt``), each file
        atomically, in the codec's store form; returns the document's file."""
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        name = self.path.stem
        target = folder / f"{name}.json"
        write_atomic(target, store_dumps(self.layout))
        if pages:
            for page in self.layout.pages:
                write_atomic(folder / f"{name}{page.page_no}.json", store_dumps(page))
                write_atomic(folder / f"{name}{page.page_no}.txt", page.text())
        return target

    @classmethod
    def load(cls, directory: str | Path, name: str | None = None,
             config: LayoutConfig | None = None) -> TextDocument:
        """The TextDocument [`store`][layoutkit.document.TextDocument.store] wrote to ``directory``
        (``name``: which one, when the directory holds several); raises DocumentError when there is
        none, several, or the file is not one the codec can read."""
        folder = Path(directory)
        stored = ([folder / f"{name}.json"] if name else
                  [p for p in sorted(folder.glob("*.json")) if _is_stored(p)])
        if len(stored) != 1:
            raise DocumentError(f"{folder}: expected one stored document, found "
                                f"{len(stored)}; name the one to load")
        return cls.from_layout(store_loads(stored[0].read_text(encoding="utf-8"),
                                           str(stored[0])), config)


class _TextMethod(Protocol):
    def __call__(self, *, furniture: bool = False) -> str: ...


_OLD_USES = ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__len__",
             "__iter__", "__reversed__", "__getitem__", "__contains__", "__add__", "__radd__",
             "__iadd__", "__mul__", "__rmul__", "__mod__", "__str__", "__format__", "__bool__")
"""The operations of a str or a list through which the value of the old ``text``
property is used (besides its named methods: ``split``, ``index``...)."""


def _warn_old_text(owner: str) -> None:
    warnings.warn(f"{owner}.text is a method, as Document.text() and Page.text() are: call "
                  f"it ({owner}.text()); its use as an attribute is deprecated",
                  DeprecationWarning, stacklevel=3)


def _warning_on_old_uses(cls: type[_T]) -> type[_T]:
    """``cls`` (a subclass of str or list) warning of the deprecated attribute form
    wherever its value is used as the base class's value: every operation of
    `_OLD_USES` and every named method."""
    owner = cls.owner  # type: ignore[attr-defined]
    for name in _OLD_USES:
        inherited = next((vars(b)[name] for b in cls.__mro__[1:] if name in vars(b)), None)
        if inherited is None or inherited is object.__dict__.get(name):
            continue

        def warned(self: object, *args: object, _inherited: Any = inherited) -> object:
            _warn_old_text(owner)
            return _inherited(self, *args)

        setattr(cls, name, warned)

    inherited_get: Any = cls.__mro__[1].__getattribute__

    def __getattribute__(self: object, name: str) -> object:  # noqa: N807
        if not name.startswith("_"):
            _warn_old_text(owner)
        return inherited_get(self, name)

    cls.__getattribute__ = __getattribute__  # type: ignore[method-assign]
    return cls


@_warning_on_old_uses
class _PageText(str):
    """What ``TextPage.text`` gives: called, the page's text (``page.text()``); used as
    a string, the old property's value, with a DeprecationWarning."""

    owner = "TextPage"

    def __new__(cls, value: str, method: _TextMethod) -> _PageText:
        made = super().__new__(cls, value)
        made._method = method
        return made

    _method: _TextMethod

    def __call__(self, *, furniture: bool = False) -> str:
        return self._method(furniture=furniture)


@_warning_on_old_uses
class _DocumentText(list[str]):
    """What ``TextDocument.text`` gives: called, the document's text (``doc.text()``);
    used as a list, the old property's value (each page's text), with a
    DeprecationWarning."""

    owner = "TextDocument"

    def __init__(self, pages: list[str], method: _TextMethod) -> None:
        super().__init__(pages)
        self._method = method

    def __call__(self, *, furniture: bool = False) -> str:
        return self._method(furniture=furniture)


def _is_stored(path: Path) -> bool:
    """Whether the file ``path`` holds a stored document (False when it cannot be read)."""
    try:
        return is_stored_document(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return False
