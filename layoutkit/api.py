"""The pipeline in one call: ``parse(path) -> Document``."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import LayoutConfig
from .errors import PageRangeError, UsageError
from .extract import DEFAULT_ENGINE, open_source
from .furniture import repeating_runs
from .linetypes.driver import PageStep, line_types
from .linetypes.lines import retyped
from .linetypes.tables import find_ruled_tables
from .model import Document, Page
from .ocr import check_scanned
from .segment import shared_gutters
from .shares import PageShare, Shares, collector_paused, open_shares

if TYPE_CHECKING:
    from .profile import Profile, Section

__all__ = ["loaded_profile", "parse", "parse_page_spec"]

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
          tables: bool = False, typed: bool = True) -> Document:
    """Read ``path`` and lay out its pages (all, or the 1-based ``pages``).

    Returns a Document whose pages hold bands, columns, blocks and lines in reading
    order, every line typed (running headers and footers, contents, headings, lists,
    body).  With ``jobs`` > 1 the pages are read, laid out and typed in that many
    processes (this one and ``jobs - 1`` workers), the decisions across pages taken in
    this one; the result is the same.  A ``profile`` (a :class:`Profile`, a bundled
    profile's name or a TOML path) says how the publication's pages are read; its
    ``[config]`` is used when no ``config`` is given.  With ``tables`` the ruled tables
    of the pages are found too (pdfplumber reads the document once more): their lines
    are typed ``tab``, their cells kept in ``Document.tables``.  With ``typed`` false
    the lines keep the types the layout gives them (running headers, footers and margin
    stamps; the rest body): contents, tables, headings and lists are not looked for, and
    the pages, their reading order and text are the same, for a caller that needs no
    more (``layoutkit text`` without ``--skip``).
    """
    profile = loaded_profile(profile)
    config = config or (profile.config if profile else LayoutConfig())
    path = Path(path)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise UsageError(f"jobs: expected a whole number of processes >= 1, got {jobs!r}")
    with open_source(path, engine, image_dpi=config.image_dpi) as source:
        count = source.page_count
    wanted = _wanted(path, pages, count)
    # a section runs on from the page it starts on: read from the first page
    first = 1 if profile and profile.sections else None
    context = sorted({q for p in wanted for q in range(first or p - _CONTEXT, p + _CONTEXT + 1)
                      if 1 <= q <= count})
    # every jobs-th page to each process: neighbouring pages cost about the same,
    # so the shares come out even
    shares = [PageShare(path, engine, context[k::jobs], count, frozenset(wanted), config,
                        profile)
              for k in range(min(jobs, len(context)))]
    with collector_paused(), open_shares(shares) as running:
        edges = running.run(PageShare.read)
        scans = running.run(PageShare.scanned)
        ocr = [scans[n][0] for n in context if scans[n][0] is not None]
        check_scanned(path, ocr, any(scans[n][1] for n in context), config)
        runs = dict(zip(context, repeating_runs([edges[n] for n in context], config),
                        strict=True))
        gutters = running.run(PageShare.gutters, runs)
        shared = shared_gutters([gutters[n] for n in context])
        laid_out = _lay_out(running, context, shared)
        document = Document(path, tuple(laid_out[n] for n in wanted), count,
                            find_ruled_tables(path, wanted) if tables else (),
                            tuple(q for q in ocr if q.page_no in wanted))

        if not typed:
            return document

        def run(step: PageStep, given: object) -> dict[int, Any]:
            return running.run(PageShare.type_lines, step, given)

        return retyped(document, line_types(document, run, config))


def loaded_profile(profile: Profile | str | Path | None) -> Profile | None:
    """``profile`` as a :class:`~layoutkit.profile.Profile`: a bundled profile's name or
    a TOML path loaded, a Profile as it is, None for none.

    The profile package (TOML, validation) is imported here, when a profile is given:
    a document read without one does not load it."""
    if profile is None:
        return None
    from .profile import Profile, load_profile

    return profile if isinstance(profile, Profile) else load_profile(profile)


def _lay_out(running: Shares, context: Sequence[int],
             shared: Sequence[tuple[float, float]]) -> dict[int, Page]:
    """The wanted pages of ``context`` laid out by the ``running`` shares.

    Pages are laid out at once as if no profile section ran into them; a page whose
    previous page ends in a section is laid out again with it, until every page has
    the section its previous page ends in (one round without sections), so the
    result is what reading the pages one after another gives.
    """
    entering: dict[int, Section | None] = dict.fromkeys(context)
    results: dict[int, tuple[Section | None, Page | None]] = running.run(
        PageShare.lay_out, shared, entering)
    while True:
        stale = {n: results[before][0] for before, n in pairwise(context)
                 if results[before][0] != entering[n]}
        if not stale:
            return {n: page for n, (_, page) in results.items() if page is not None}
        entering.update(stale)
        results.update(running.run(PageShare.lay_out, shared, stale))


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
