"""The values a publication profile is made of, frozen once validated.

Boxes are in points from the page's top-left corner, or in fractions of the page width
and height (`fraction`); they are resolved against each page's size when the profile is
applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from ..config import LayoutConfig
from ..model import BBox
from .selectors import PageSelector

__all__ = ["Band", "Box", "Ignore", "Kind", "Layout", "PageRule", "Profile", "Region", "Section",
           "Until"]


class Kind(StrEnum):
    """How a page, a region or a section is read."""

    AUTO = "auto"
    """Columns, full-width items and bands found from the whitespace, as without a profile."""
    SINGLE = "single"
    """One column, top to bottom."""
    COLUMNS = "columns"
    """A given number of columns (at given gutters, or at the emptiest vertical strips);
    rows that run across a gutter are read as full-width items between the columns."""
    POSITIONAL = "positional"
    """Rows across the whole region, top to bottom, never split into columns (tables,
    forms): the reading of ``single``, named for what the region holds."""
    IGNORE = "ignore"
    """Left out of the text."""


class Until(StrEnum):
    """Where a section ends."""

    NEXT_SECTION = "next-section"
    """At the start of another section, on this page or a later one."""
    PAGE_END = "page-end"
    """At the end of the page it starts on."""


@dataclass(frozen=True, slots=True)
class Box:
    """A box in points, or in fractions of the page's width and height."""

    x0: float
    top: float
    x1: float
    bottom: float
    fraction: bool = False

    def resolve(self, width: float, height: float) -> BBox:
        """The box in points on a page of ``width`` by ``height`` points."""
        if not self.fraction:
            return BBox(self.x0, self.top, self.x1, self.bottom)
        return BBox(self.x0 * width, self.top * height, self.x1 * width, self.bottom * height)


@dataclass(frozen=True, slots=True)
class Band:
    """A horizontal band across the whole page (furniture), in points from the top or in
    fractions of the page height."""

    top: float
    bottom: float
    fraction: bool = False

    def resolve(self, width: float, height: float) -> BBox:
        """The band in points on a page of ``width`` by ``height`` points."""
        scale = height if self.fraction else 1.0
        return BBox(0.0, self.top * scale, width, self.bottom * scale)


@dataclass(frozen=True, slots=True)
class Layout:
    """A way of reading part of a page: its kind, and for ``columns`` their number
    and optional gutter positions (x centres, points or page-width fractions)."""

    kind: Kind
    columns: int = 0
    gutters: tuple[float, ...] = ()
    fraction: bool = False

    def gutter_points(self, width: float) -> tuple[float, ...]:
        """The gutter x centres in points on a page ``width`` points wide."""
        return tuple(g * width for g in self.gutters) if self.fraction else self.gutters


@dataclass(frozen=True, slots=True)
class Region:
    """A box of the page read with its own layout, ``order``-th in the reading order."""

    box: Box
    layout: Layout
    order: int
    key: str
    """Where the region is defined (``pages[2].regions[0]``), for error messages."""


@dataclass(frozen=True, slots=True)
class PageRule:
    """How the pages a selector picks are read: one layout, or explicit regions (read
    in their order, words outside every region last, in auto mode)."""

    select: PageSelector
    layout: Layout
    regions: tuple[Region, ...]
    key: str


@dataclass(frozen=True, slots=True)
class Section:
    """A part of the publication that starts at a line matching ``starts_at`` (a regular
    expression searched in each line's text) and is read with ``layout`` from that line
    down, until ``until``."""

    name: str
    starts_at: str
    layout: Layout
    until: Until
    key: str


@dataclass(frozen=True, slots=True)
class Ignore:
    """A box whose words are left out on the pages ``select`` picks."""

    select: PageSelector
    box: Box
    key: str


@dataclass(frozen=True, slots=True)
class Profile:
    """A validated publication profile (the format: docs/reference/profiles.md).

    ``pages`` rules apply in order, a later rule winning over an earlier one for the
    pages both select; pages no rule selects are read in auto mode.  ``header`` and
    ``footer`` bands, when given, replace the running headers and footers found by
    repetition.
    """

    name: str
    description: str
    path: Path
    config: LayoutConfig
    pages: tuple[PageRule, ...] = ()
    sections: tuple[Section, ...] = ()
    header: Band | None = None
    footer: Band | None = None
    ignore: tuple[Ignore, ...] = ()
