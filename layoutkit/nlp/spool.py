"""A document's pages taken once, as a stream hands them over, and kept in a temporary file.

The NLP outputs decide some things over the whole document before writing its first
page (its language, the words that decide hyphenated line ends).  The pages are kept in
the file meanwhile, to be read back in order: memory holds those small values and one
page at a time.
"""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO

from ..model import Page
from .paragraphs import kept_lines, page_vocabulary

__all__ = ["Spooled", "page_text", "spooled"]


def page_text(page: Page, skip: Collection[str]) -> str:
    """The text of ``page`` its language is detected from: its lines not of the ``skip``
    codes, one a line."""
    return "\n".join(line.text for line, _ in kept_lines((page,), skip))


@dataclass(frozen=True, slots=True)
class Spooled:
    """The pages of a document taken once: their numbers, the words written whole on
    them (see `document_vocabulary`), each page's text
    (`page_text`, when asked for), and the file they wait in."""

    numbers: tuple[int, ...]
    vocabulary: frozenset[str]
    texts: tuple[str, ...]
    file: IO[bytes]

    def pages(self) -> Iterator[Page]:
        """The pages again, in order, each read back as it is wanted."""
        self.file.seek(0)
        for _ in self.numbers:
            page = pickle.load(self.file)
            assert isinstance(page, Page), "the file holds the pages written to it"
            yield page


@contextmanager
def spooled(pages: Iterable[Page], texts: Collection[str] | None = None
            ) -> Iterator[Spooled]:
    """``pages`` taken once and written to a temporary file, removed on leaving; with
    ``texts`` (the line type codes left out of them), each page's text kept too."""
    with tempfile.TemporaryFile(prefix="layoutkit-") as file:
        numbers: list[int] = []
        words: set[str] = set()
        found: list[str] = []
        for page in pages:
            pickle.dump(page, file, pickle.HIGHEST_PROTOCOL)
            numbers.append(page.page_no)
            words |= page_vocabulary(page)
            if texts is not None:
                found.append(page_text(page, texts))
        yield Spooled(tuple(numbers), frozenset(words), tuple(found), file)
