"""Line typing: every body line of a document gets a type with DCR's codes.

The types, each from a module of its own:

- `toc`: table of contents (`toc`).
- `tables`: whitespace-aligned table (`tab`); ruled tables are typed `tab` on request.
- `headings`: heading (`h_1`...); `bookmarks`: the PDF's outline, where it has one,
  makes its titles headings at its levels.
- `lists`: bulleted or numbered list (`lb`, `ln`).
- Everything else is body (`b`).
- With ``linetypes.model`` a learned model (`classifier`, `features`, `model_file`)
  decides every type, the rules' types among its features.

Running headers and footers (`h`, `f`) are typed before segmentation, by
`layoutkit.geometry.furniture`.  Each rule types only lines still typed body, in this
order: ruled tables, contents, aligned tables, headings, lists; so a contents entry is
never a heading and a heading never a list item.

Each is also a function `Document, LinetypesConfig -> Document` (`type_toc`...) that
types it alone.  `type_lines` types them all, each page's part and the document's part
apart (`driver`), as `layoutkit.parse` does with pages kept in several processes.
"""

from __future__ import annotations

from ..config import LinetypesConfig
from ..model import Document
from ..parallel import open_shares
from .driver import PageTyping, line_types, runner
from .headings import type_headings
from .lines import retyped
from .lists import type_lists
from .outline import Heading, outline
from .tables import type_aligned_tables
from .toc import type_toc

__all__ = ["Heading", "outline", "type_aligned_tables", "type_headings", "type_lines",
           "type_lists", "type_toc"]


def type_lines(document: Document, config: LinetypesConfig) -> Document:
    """``document`` with its ruled tables (those it holds), contents, aligned tables,
    headings and lists typed, its pages kept in this process."""
    pages = {p: PageTyping.of(page, p) for p, page in enumerate(document.pages)}
    with open_shares([pages], document.path) as kept:
        return retyped(document, line_types(document, runner(kept, config, _typing), config))


def _typing(state: PageTyping) -> PageTyping:
    """A page being typed, as it is."""
    return state
