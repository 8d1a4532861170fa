"""layoutkit: read columned documents (gazettes, records, reports) in the order a person does.

>>> import layoutkit
>>> doc = layoutkit.parse("fixtures/pdf/cleveland-city-record-2016-04-27.pdf", pages="5")
>>> doc[0].text()[:40]  # doctest: +SKIP

``layoutkit.parse`` returns a `layoutkit.Document` (the parsed value, from
`layoutkit.model`); ``layoutkit.iter_pages`` hands a long document's pages over
one by one (a `layoutkit.PageStream`); ``layoutkit.TextDocument(path)`` wraps a
Document (``.layout``) with pages (`TextPage`), text, language and word counts;
``layoutkit.chunks(doc, max_tokens=512)`` cuts a document into `Chunk` passages under
their headings, for retrieval.
"""

from typing import TYPE_CHECKING

from .config import LayoutConfig
from .errors import (
    ConfigError,
    ConfigTypeError,
    DocumentError,
    LayoutkitError,
    PageNotParsedError,
    PageRangeError,
    ProfileError,
    UsageError,
)
from .lazy import lazy_names
from .model import (
    Band,
    BandKind,
    BBox,
    Block,
    Column,
    Document,
    Glyph,
    Glyphs,
    Line,
    LineType,
    Page,
    Word,
)
from .pipeline import PageStream, iter_pages, parse, parse_page_spec

if TYPE_CHECKING:
    from .document import TextDocument, TextPage
    from .outputs.chunks import Chunk, chunks
    from .profile import Profile, load_profile

__all__ = [
    "BBox",
    "Band",
    "BandKind",
    "Block",
    "Chunk",
    "Column",
    "ConfigError",
    "ConfigTypeError",
    "Document",
    "DocumentError",
    "Glyph",
    "Glyphs",
    "LayoutConfig",
    "LayoutkitError",
    "Line",
    "LineType",
    "Page",
    "PageNotParsedError",
    "PageRangeError",
    "PageStream",
    "Profile",
    "ProfileError",
    "TextDocument",
    "TextPage",
    "UsageError",
    "Word",
    "chunks",
    "iter_pages",
    "load_profile",
    "parse",
    "parse_page_spec",
]

__version__ = "0.1.0"


__getattr__ = lazy_names(__name__, {"TextDocument": "document", "TextPage": "document",
                                   "Profile": "profile", "load_profile": "profile",
                                   "Chunk": "outputs.chunks", "chunks": "outputs.chunks"})
"""Names imported from their module when first asked for: the text document API, the
profile package (TOML, validation) and the chunks for retrieval load only where they
are used, not in every command that reads a document."""
