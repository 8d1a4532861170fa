"""Drafting a profile from a sample issue: what auto mode found, written as rules.

The draft reads the sample as auto mode does, and says so in rules a researcher
can edit: a furniture band where every page's running header (footer) stands
clear of the body, with an ignore box for furniture that reaches over the other
pages' body (a first page's masthead); runs of pages read as plain columns, with
their gutters; pages that differ from the rest left in auto mode; and a section where a page changes
mid-page to one column that carries on over the following pages (an index).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from itertools import pairwise
from pathlib import Path

import numpy as np

from ..config import LayoutConfig
from ..files import text_name
from ..model import Band, BandKind, BBox, Document, Page
from ..parallel import Jobs
from ..pipeline import parse
from ..sources import DEFAULT_ENGINE

__all__ = ["suggest"]

_MARGIN = 1.0
"""Points added above and below a furniture band."""


def _body(page: Page) -> list[Band]:
    return [band for band in page.bands if band.kind is BandKind.BODY]


def _plain_columns(page: Page) -> tuple[int, tuple[float, ...]] | None:
    """The column count and gutter centres of a page whose body is one band of columns
    and nothing else; None for a page with full-width items or none."""
    bands = _body(page)
    if len(bands) != 1:
        return None
    columns = bands[0].columns
    return len(columns), tuple((a.bbox.x1 + b.bbox.x0) / 2 for a, b in pairwise(columns))


def _band(document: Document, kind: BandKind
          ) -> tuple[float, float, list[int], dict[int, BBox]] | None:
    """A band from the highest to the lowest furniture line of ``kind``, the pages with
    body text inside it (where a fixed band would take body text), and the furniture
    left out of it, as one box by page.

    Furniture lines that stand wholly outside the band where the furniture of the
    median page stands, over another page's body text (a first page's masthead,
    taller than the running header of the rest), do not widen the band; they are
    left for an ignore box.
    """
    lines = {page.page_no: [line.bbox for band in page.bands if band.kind is kind
                            for line in band.lines] for page in document}
    lines = {n: boxes for n, boxes in lines.items() if boxes}
    if not lines:
        return None
    body = {page.page_no: [line.bbox for band in _body(page) for line in band.lines]
            for page in document}

    def over_body(box: BBox, pages: Iterable[int]) -> bool:
        return any(b.bottom >= box.top and b.top <= box.bottom for n in pages for b in body[n])

    usual_top = float(np.median([min(b.top for b in boxes) for boxes in lines.values()]))
    usual_bottom = float(np.median([max(b.bottom for b in boxes) for boxes in lines.values()]))
    left_out = {n: [b for b in boxes if (b.top > usual_bottom or b.bottom < usual_top)
                    and over_body(b, (q for q in body if q != n))]
                for n, boxes in lines.items()}
    kept = [b for n, boxes in lines.items() for b in boxes if b not in left_out[n]]
    top = max(0.0, min(b.top for b in kept) - _MARGIN)
    bottom = max(b.bottom for b in kept) + _MARGIN
    crowded = [n for n in body if over_body(BBox(0.0, top, 0.0, bottom), [n])]
    return top, bottom, crowded, {
        n: BBox(min(b.x0 for b in boxes) - _MARGIN, min(b.top for b in boxes) - _MARGIN,
                max(b.x1 for b in boxes) + _MARGIN, max(b.bottom for b in boxes) + _MARGIN)
        for n, boxes in left_out.items() if boxes}


def _kind(page: Page) -> tuple[str, int]:
    """How a page's body reads: ``("columns", n)`` for one band of n columns, else auto."""
    plain = _plain_columns(page)
    return ("auto", 0) if plain is None else ("columns", plain[0])


def _runs(document: Document, skip: set[int]) -> Iterable[tuple[str, str]]:
    """``(selector, layout lines)`` for each run of consecutive pages read alike (the
    same plain column count, or auto mode for pages with full-width items)."""
    pages = [p for p in document if p.page_no not in skip]
    k = 0
    while k < len(pages):
        kind = _kind(pages[k])
        end = k + 1
        while (end < len(pages) and _kind(pages[end]) == kind
               and pages[end].page_no == pages[end - 1].page_no + 1):
            end += 1
        first, last = pages[k].page_no, pages[end - 1].page_no
        select = f"{first}" if first == last else f"{first}-{last}"
        if kind[0] == "auto":
            layout = 'layout = "auto"'
        elif kind[1] == 1:
            layout = 'layout = "single"'
        else:
            gutters = np.median([_plain_columns(p)[1] for p in pages[k:end]  # type: ignore[index]
                                 ], axis=0)
            layout = (f'layout = "columns"\ncolumns = {kind[1]}\n'
                      f"gutters = [{', '.join(f'{g:.1f}' for g in gutters)}]")
        yield select, layout
        k = end


def _index_start(document: Document) -> tuple[int, str] | None:
    """The page and first line of a one-column body band that follows columns on its
    page and runs on, alone, over every later page of the sample."""
    pages = list(document)
    for n, page in enumerate(pages):
        bands = _body(page)
        if (len(bands) >= 2 and len(bands[-1].columns) == 1 and len(bands[-2].columns) > 1
                and n + 1 < len(pages)
                and all(_plain_columns(p) == (1, ()) for p in pages[n + 1:])):
            return page.page_no, bands[-1].lines[0].text
    return None


def suggest(path: str | Path, config: LayoutConfig | None = None, pages: str | None = None,
            *, engine: str = DEFAULT_ENGINE, jobs: Jobs = 1, password: str | None = None) -> str:
    """A draft profile (TOML text) for the publication of the sample ``path``."""
    document = parse(path, config, pages, engine=engine, jobs=jobs, password=password)
    name = Path(text_name(document.path.name))  # a name that is not UTF-8 as \xNN
    out = [f"# Drafted from {name.name} ({document.page_count} pages) by layoutkit "
           "profile suggest;",
           "# edit, then run layoutkit profile check.",
           f"name = {json.dumps(name.stem)}",
           f"description = {json.dumps(f'drafted from {name.name}')}", ""]
    bands = {kind: _band(document, kind) for kind in (BandKind.HEADER, BandKind.FOOTER)}
    if any(bands.values()):
        out.append("[furniture]")
        for kind, band in bands.items():
            if band is None:
                continue
            top, bottom, crowded, _ = band
            if crowded:  # left to repetition, which tells furniture from body page by page
                out.append(f"# body text stands in the {kind} band on pages "
                           f"{', '.join(map(str, crowded))}:")
            out.append(f"{'# ' if crowded else ''}{kind} = {{ top = {top:.1f}, "
                       f"bottom = {bottom:.1f} }}")
        out.append("")
        for kind, band in bands.items():
            for page_no, box in (band[3] if band and not band[2] else {}).items():
                out += [f"# page {page_no}: {kind} furniture over the other pages' body text"
                        " (a masthead)", "[[ignore]]", f"select = {page_no}",
                        f"box = [{box.x0:.1f}, {box.top:.1f}, {box.x1:.1f}, {box.bottom:.1f}]",
                        ""]
    index = _index_start(document)
    skip = {p.page_no for p in document if index and p.page_no > index[0]}
    for select, layout in _runs(document, skip):
        out += ["[[pages]]", f"select = {json.dumps(select)}", layout, ""]
    if index is not None:
        out += [f"# page {index[0]} changes mid-page to one column, which runs on to the end",
                "[[sections]]", 'name = "index"',
                f"starts_at = {{ line = {json.dumps('^' + re.escape(index[1]) + '$')} }}",
                'layout = "single"', ""]
    return "\n".join(out)
