"""layoutkit: read columned documents (gazettes, records, reports) in the order a person does.

>>> import layoutkit
>>> doc = layoutkit.parse("fixtures/pdf/cleveland-city-record-2016-04-27.pdf", pages="5")
>>> doc[0].text()[:40]  # doctest: +SKIP
"""

from .api import parse, parse_page_spec
from .config import LayoutConfig
from .errors import (
    ConfigError,
    DocumentError,
    LayoutkitError,
    PageRangeError,
    ProfileError,
    UsageError,
)
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
from .profile import Profile, load_profile

__all__ = [
    "BBox",
    "Band",
    "BandKind",
    "Block",
    "Column",
    "ConfigError",
    "Document",
    "DocumentError",
    "Glyph",
    "Glyphs",
    "LayoutConfig",
    "LayoutkitError",
    "Line",
    "LineType",
    "Page",
    "PageRangeError",
    "Profile",
    "ProfileError",
    "UsageError",
    "Word",
    "load_profile",
    "parse",
    "parse_page_spec",
]

__version__ = "0.1.0"
