"""A LangChain document loader giving a Document a chunk or a page.

Its Documents are those of `layoutkit.chunks` in reading order, or the document's pages.

>>> from layoutkit.loaders.langchain import LayoutkitLoader
>>> loader = LayoutkitLoader("report.pdf", max_tokens=400, tokenizer="cl100k_base")
>>> docs = loader.load()  # doctest: +SKIP
>>> docs[3].metadata["headings"], docs[3].metadata["pages"]  # doctest: +SKIP

The metadata is described in `layoutkit.loaders.records`; its ``lines`` (each line's
page and box) is a list of objects, which a vector store that keeps only flat values
drops with ``langchain_community.vectorstores.utils.filter_complex_metadata``.
Needs ``langchain-core`` (``pip install 'layoutkit[langchain]'``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import UsageError
from ..outputs.chunks import TokenCounter
from ..sources.inputs import Source
from .records import MODES, records

try:
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document
except ImportError:
    raise UsageError("layoutkit.loaders.langchain needs langchain-core: "
                     "pip install 'layoutkit[langchain]'") from None

__all__ = ["LayoutkitLoader"]


class LayoutkitLoader(BaseLoader):
    """Loads ``source`` (a path, the document's bytes or a binary file object) as
    LangChain Documents: one a chunk at most ``max_chars`` characters and ``max_tokens``
    tokens as ``tokenizer`` counts them, or with ``mode="page"`` one a page.  Other
    keyword arguments go to `layoutkit.parse` (``config``, ``pages``, ``profile``,
    ``password``...).  The document is read when the Documents are asked for."""

    def __init__(self, source: Source, *, mode: str = "chunk", max_chars: int | None = None,
                 max_tokens: int | None = None, tokenizer: str | TokenCounter | None = None,
                 **parse_options: Any) -> None:
        if mode not in MODES:
            raise UsageError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
        self.source = source
        self.mode = mode
        self.options: dict[str, Any] = {"max_chars": max_chars, "max_tokens": max_tokens,
                                        "tokenizer": tokenizer, **parse_options}

    def lazy_load(self) -> Iterator[Document]:
        """A Document a chunk (or page) in reading order, its metadata as
        `layoutkit.loaders.records` describes."""
        for text, metadata in records(self.source, mode=self.mode, **self.options):
            yield Document(page_content=text, metadata=metadata)
