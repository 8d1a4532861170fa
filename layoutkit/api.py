"""The pipeline in one call: ``parse(path) -> Document``."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from pathlib import Path

from .config import LayoutConfig
from .errors import PageRangeError, UsageError
from .extract import DEFAULT_ENGINE, GlyphSource, open_source
from .furniture import find_furniture
from .linetypes import type_lines
from .linetypes.tables import find_ruled_tables, type_tables
from .model import Document, PageGlyphs, Word
from .order import body_words, layout_page
from .profile import Profile, load_profile
from .profile.stage import profile_furniture, profile_trees, without_ignored
from .segment import prepare, segment, shared_gutters
from .words import words_from_glyphs

__all__ = ["parse", "parse_page_spec"]

_CONTEXT = 2
"""Pages on each side of a requested page read as well, so that running headers
can be recognised by their repetition even when one page is asked for."""

_SPEC = re.compile(r"^\s*(\d+)?\s*(-)?\s*(\d+)?\s*$")


def parse_page_spec(spec: str, page_count: int) -> list[int]:
    """The 1-based pages a spec such as ``"1,3-5,9-"`` (or ``"-3"``, pages 1 to 3)
    names, sorted, without repeats.

    Raises PageRangeError naming the part that is malformed or out of range.
    """
    pages: set[int] = set()
    for part in spec.split(","):
        match = _SPEC.match(part)
        if not part.strip() or match is None or not (match[1] or match[3]):
            raise PageRangeError(
                f"page range {spec!r}: cannot read {part.strip()!r}; "
                "expected numbers and ranges such as 1,3-5,9-"
            )
        first = int(match[1]) if match[1] else 1
        last = (int(match[3]) if match[3] else max(first, page_count)) if match[2] else first
        if first > last:
            raise PageRangeError(f"page range {spec!r}: {part.strip()!r} runs backwards")
        if not 1 <= first <= last <= page_count:
            raise PageRangeError(f"page range {spec!r}: {part.strip()!r} is outside the "
                                 f"document's pages 1-{page_count}")
        pages.update(range(first, last + 1))
    return sorted(pages)


def parse(path: str | Path, config: LayoutConfig | None = None,
          pages: Iterable[int] | str | None = None, *, engine: str = DEFAULT_ENGINE,
          jobs: int = 1, profile: Profile | str | Path | None = None,
          tables: bool = False) -> Document:
    """Read ``path`` and lay out its pages (all, or the 1-based ``pages``).

    Returns a Document whose pages hold bands, columns, blocks and lines in
    reading order, every line typed (running headers and footers, contents,
    headings, lists, body).  With ``jobs`` > 1 the pages are read in that many
    processes; the result is the same.  A ``profile`` (a :class:`Profile`, a
    bundled profile's name or a TOML path) says how the publication's pages are
    read; its ``[config]`` is used when no ``config`` is given.  With ``tables``
    the ruled tables of the pages are found too (pdfplumber reads the document
    once more): their lines are typed ``tab``, their cells kept in
    ``Document.tables``.
    """
    if profile is not None and not isinstance(profile, Profile):
        profile = load_profile(profile)
    config = config or (profile.config if profile else LayoutConfig())
    path = Path(path)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise UsageError(f"jobs: expected a whole number of processes >= 1, got {jobs!r}")
    with open_source(path, engine) as source:
        count = source.page_count
        wanted = _wanted(path, pages, count)
        # a section runs on from the page it starts on: read from the first page
        first = 1 if profile and profile.sections else None
        context = sorted({q for p in wanted for q in range(first or p - _CONTEXT,
                                                           p + _CONTEXT + 1) if 1 <= q <= count})
        read = _read(source, context, config) if jobs == 1 or len(context) < 2 else None
    if read is None:
        read = _read_in_parallel(path, engine, context, config, jobs)
    if profile:
        read = without_ignored(profile, read, count, config)
    furniture = find_furniture([(words, g.width, g.height) for g, words in read], config)
    if profile:
        furniture = profile_furniture(profile, read, furniture)
    bodies = [body_words(words, found)[0] for (_, words), found in zip(read, furniture,
                                                                       strict=True)]
    prepared = [prepare(body, g.rules, g.images, g.width, g.height, config)
                for (g, _), body in zip(read, bodies, strict=True)]
    shared = shared_gutters(prepared)
    trees = (profile_trees(profile, read, bodies, prepared, shared, count, config) if profile
             else [segment(canvas, shared) for canvas in prepared])
    laid_out = [layout_page(g, words, found, tree, config)
                for (g, words), found, tree in zip(read, furniture, trees, strict=True)
                if g.page_no in wanted]
    document = Document(path, tuple(laid_out), count)
    if tables:
        document = type_tables(document, find_ruled_tables(path, wanted))
    return type_lines(document, config)


def _wanted(path: Path, pages: Iterable[int] | str | None, count: int) -> list[int]:
    """The 1-based pages asked for, checked against the document's ``count``."""
    if pages is None:
        return list(range(1, count + 1))
    if isinstance(pages, str):
        try:
            return parse_page_spec(pages, count)
        except PageRangeError as exc:
            raise PageRangeError(f"{path}: {exc}") from None
    wanted = sorted(set(pages))
    bad = [p for p in wanted if not 1 <= p <= count]
    if bad:
        raise PageRangeError(f"{path}: page {bad[0]} is outside the document's pages 1-{count}")
    return wanted


_Read = list[tuple[PageGlyphs, tuple[Word, ...]]]


def _read(source: GlyphSource, numbers: Sequence[int], config: LayoutConfig) -> _Read:
    """Each page's size, rules and images (its glyphs dropped once they are words)
    with its words."""
    return [(dataclasses.replace(g, glyphs=()), words_from_glyphs(g.glyphs, config))
            for g in source.pages(numbers)]


def _read_pages(path: Path, engine: str, numbers: Sequence[int], config: LayoutConfig) -> _Read:
    """:func:`_read` in a worker process, which opens the document itself."""
    with open_source(path, engine) as source:
        return _read(source, numbers, config)


def _read_in_parallel(path: Path, engine: str, numbers: Sequence[int], config: LayoutConfig,
                      jobs: int) -> _Read:
    """:func:`_read` over ``jobs`` processes, each taking every jobs-th page (pages of
    one document cost about the same, so the shares come out even)."""
    shares = [numbers[k::jobs] for k in range(min(jobs, len(numbers)))]
    with ProcessPoolExecutor(max_workers=len(shares)) as pool:
        parts = pool.map(_read_pages, repeat(path), repeat(engine), shares, repeat(config))
        by_page = {g.page_no: (g, words) for part in parts for g, words in part}
    return [by_page[n] for n in numbers]
