"""The profile stage: between geometry and reading order, a profile decides how pages are read.

- For every page the last `pages` rule that selects it gives a layout (or explicit
  regions).
- A section whose `starts_at` matches a line (in the page's reading order) takes over
  from that line down, and on later pages until another section starts (or to the end
  of its page, with `until = "page-end"`).
- Furniture bands replace the running headers and footers found by repetition.
- Ignore boxes drop their words before anything else sees them.
- A `contains` selector or a `starts_at` search taking longer than `regex_timeout` is a
  profile error.
- Every layout is built from the auto-mode machinery of `layoutkit.geometry.segment`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..config import LayoutConfig
from ..errors import ProfileError
from ..geometry.furniture import Furniture
from ..geometry.gutters import Gutters, PageCanvas
from ..geometry.segment import Leaf, Node, Split, bands_of, force_columns, segment
from ..geometry.words import group_lines
from ..model import BBox, PageGlyphs, Word
from .patterns import search
from .values import Band, Box, Kind, Layout, PageRule, Profile, Section, Until

__all__ = ["page_text", "profile_furniture", "profile_tree", "without_ignored"]

_SECTION_ROW_TOLERANCE = 1.0
"""Words standing up to this many points above the first line of a section that starts
mid-page still belong to the section (they share its text row).  Not a parameter: half
or twice it reads the profiled publications' labelled pages alike."""

def page_text(words: Sequence[Word], config: LayoutConfig) -> str:
    """The page's text row by row (every word on a line, left to right), which
    ``contains`` selectors search."""
    return "\n".join(" ".join(w.text for w in line) for line in group_lines(words, config.words))


def _resolve(profile: Profile, box: Box | Band, key: str, glyphs: PageGlyphs) -> BBox:
    """A box in points on the page, or a ProfileError if it lies outside the page."""
    resolved = box.resolve(glyphs.width, glyphs.height)
    if resolved.x1 > glyphs.width + 0.5 or resolved.bottom > glyphs.height + 0.5:
        raise ProfileError([f"{profile.path}: {key}: box {resolved.as_list(1)} lies outside "
                            f"page {glyphs.page_no} ({glyphs.width:g} x {glyphs.height:g} pt)"])
    return resolved


def without_ignored(profile: Profile, glyphs: PageGlyphs, words: tuple[Word, ...], count: int,
                    config: LayoutConfig) -> tuple[Word, ...]:
    """The page's ``words`` with those inside the profile's ignore boxes left out
    (``count`` is the document's page count, which selectors such as ``last`` need)."""
    text = page_text(words, config) if any(i.select.by_content for i in profile.ignore) else ""
    boxes = [_resolve(profile, i.box, i.key, glyphs) for i in profile.ignore
             if i.select.selects(glyphs.page_no, count, text, config.profile.regex_timeout)]
    return tuple(w for w in words if not any(b.contains_centre_of(w.bbox) for b in boxes))


def profile_furniture(profile: Profile, glyphs: PageGlyphs, words: Sequence[Word],
                      auto: Furniture) -> Furniture:
    """The page's furniture with the profile's header and footer bands, where given,
    in place of the header and footer found by repetition (``auto``)."""
    header, footer = auto.header, auto.footer
    if profile.header is not None:
        band = _resolve(profile, profile.header, "furniture.header", glyphs)
        header = frozenset(i for i, w in enumerate(words)
                           if w.upright and band.contains_centre_of(w.bbox))
    if profile.footer is not None:
        band = _resolve(profile, profile.footer, "furniture.footer", glyphs)
        footer = frozenset(i for i, w in enumerate(words)
                           if w.upright and band.contains_centre_of(w.bbox) and i not in header)
    return Furniture(header, footer - header, auto.margin - header - footer)


@dataclass(frozen=True, slots=True)
class _Page:
    """What building one page's tree needs."""

    profile: Profile
    glyphs: PageGlyphs
    body: Sequence[Word]
    canvas: PageCanvas
    shared: Gutters
    config: LayoutConfig

    def build(self, how: Layout | PageRule, idx: list[int]) -> Node:
        """The tree of words ``idx`` read with a layout, or a rule's regions."""
        if isinstance(how, PageRule):
            if not how.regions:
                return self.build(how.layout, idx)
            parts: list[Node] = []
            left = set(idx)
            for region in sorted(how.regions, key=lambda r: r.order):
                box = _resolve(self.profile, region.box, region.key, self.glyphs)
                inside = [i for i in sorted(left) if box.contains_centre_of(self.body[i].bbox)]
                left -= set(inside)
                parts.append(self.build(region.layout, inside))
            parts.append(self.build(Layout(Kind.AUTO), sorted(left)))
            return Split(False, tuple(parts))
        if not idx or how.kind is Kind.IGNORE:
            return Leaf(())
        if how.kind is Kind.AUTO:
            return segment(self.canvas, self.shared, idx)
        if how.kind is Kind.COLUMNS:
            return force_columns(self.canvas, how.columns,
                                 how.gutter_points(self.glyphs.width), idx)
        return Leaf(tuple(sorted(idx)), whole=True)

    def start(self, tree: Node, sections: Sequence[Section],
              below: float) -> tuple[Section, float] | None:
        """The first section (and the top of its line) that starts on a line of ``tree``
        lower than ``below``, lines taken in reading order."""
        if not sections:
            return None
        timeout = self.config.profile.regex_timeout
        for band in bands_of(tree):
            for column in band:
                for leaf in column:
                    for line in group_lines([self.body[i] for i in leaf.words], self.config.words):
                        text = " ".join(w.text for w in line)
                        top = min(w.bbox.top for w in line)
                        for section in sections:
                            if top > below and search(section.starts_at, text, timeout):
                                return section, top
        return None

    def tree(self, how: Layout | PageRule, idx: list[int], active: Section | None,
             below: float = -math.inf) -> tuple[Node, Section | None]:
        """The tree of words ``idx`` read with ``how`` until a section starts on a line
        lower than ``below``, and the section still running at the end of the page."""
        tree = self.build(how, idx)
        hit = self.start(tree, [s for s in self.profile.sections if s != active], below)
        if hit is None:
            return tree, active
        section, top = hit
        row_top = top - _SECTION_ROW_TOLERANCE
        above = [i for i in idx if self.body[i].bbox.top < row_top]
        rest = [i for i in idx if self.body[i].bbox.top >= row_top]
        lower, after = self.tree(section.layout, rest, section, top)
        if after == section and section.until is Until.PAGE_END:
            after = active
        return Split(False, (self.build(how, above), lower)), after


def profile_tree(profile: Profile, glyphs: PageGlyphs, words: Sequence[Word],
                 body: Sequence[Word], canvas: PageCanvas, shared: Gutters,
                 count: int, active: Section | None,
                 config: LayoutConfig) -> tuple[Node, Section | None]:
    """The reading-order tree of a page body (``body`` being the upright body words
    ``canvas`` was prepared from, ``words`` all the page's words), read as the
    profile says, and the section still running at the end of the page.

    ``active`` is the section running at the end of the previous page: a section
    carries on from page to page, so pages are read in document order (or their
    trees made again when the section that ran into them turns out otherwise).
    """
    by_content = any(rule.select.by_content for rule in profile.pages)
    text = page_text(words, config) if by_content else ""
    rules = [r for r in profile.pages
             if r.select.selects(glyphs.page_no, count, text, config.profile.regex_timeout)]
    how: Layout | PageRule = active.layout if active else (
        rules[-1] if rules else Layout(Kind.AUTO))
    page = _Page(profile, glyphs, body, canvas, shared, config)
    return page.tree(how, list(range(len(body))), active)
