"""A LlamaIndex reader giving a Document a chunk or a page.

Its Documents are those of `layoutkit.chunks` in reading order, or the document's pages.

>>> from layoutkit.loaders.llamaindex import LayoutkitReader
>>> docs = LayoutkitReader(max_tokens=400).load_data("report.pdf")  # doctest: +SKIP
>>> docs[3].metadata["headings"], docs[3].metadata["pages"]  # doctest: +SKIP

The metadata is described in `layoutkit.loaders.records`.  Its ``lines`` (each line's
page and box) are kept out of the text LlamaIndex embeds and gives the model (and out
of the size its node parsers measure); the source, pages and headings stay in.  The
reader also serves ``SimpleDirectoryReader(file_extractor={".pdf": LayoutkitReader()})``.
Needs ``llama-index-core`` (``pip install 'layoutkit[llamaindex]'``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import UsageError
from ..outputs.chunks import TokenCounter
from ..sources.inputs import Source
from .records import MODES, records

try:
    from llama_index.core.readers.base import BaseReader
    from llama_index.core.schema import Document
except ImportError:
    raise UsageError("layoutkit.loaders.llamaindex needs llama-index-core: "
                     "pip install 'layoutkit[llamaindex]'") from None

__all__ = ["LayoutkitReader"]

_HIDDEN = ["lines", "line_types", "chars", "tokens", "chunk"]
"""The metadata kept out of the text LlamaIndex embeds and shows a model."""


class LayoutkitReader(BaseReader):
    """Reads documents as LlamaIndex Documents: one a chunk at most ``max_chars``
    characters and ``max_tokens`` tokens as ``tokenizer`` counts them, or with
    ``mode="page"`` one a page.  Other keyword arguments go to `layoutkit.parse`
    (``config``, ``profile``, ``password``...)."""

    def __init__(self, *, mode: str = "chunk", max_chars: int | None = None,
                 max_tokens: int | None = None, tokenizer: str | TokenCounter | None = None,
                 **parse_options: Any) -> None:
        if mode not in MODES:
            raise UsageError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
        self.mode = mode
        self.options: dict[str, Any] = {"max_chars": max_chars, "max_tokens": max_tokens,
                                        "tokenizer": tokenizer, **parse_options}

    def lazy_load_data(self, file: Source, extra_info: dict[str, Any] | None = None,
                       **_: Any) -> Iterator[Document]:
        """A Document a chunk (or page) of ``file`` in reading order, its metadata as
        `layoutkit.loaders.records` describes, with ``extra_info`` added."""
        for text, metadata in records(file, mode=self.mode, **self.options):
            yield Document(text=text, metadata={**metadata, **(extra_info or {})},
                           excluded_embed_metadata_keys=list(_HIDDEN),
                           excluded_llm_metadata_keys=list(_HIDDEN))

    def load_data(self, file: Source, extra_info: dict[str, Any] | None = None,
                  **options: Any) -> list[Document]:
        """The Documents of `lazy_load_data`, as a list (``SimpleDirectoryReader``
        passes ``extra_info`` and the file system, which is not used)."""
        return list(self.lazy_load_data(file, extra_info, **options))
