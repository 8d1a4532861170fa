"""The pipeline in one call: ``parse(path) -> Document``, its stages declared once.

A page is read, laid out and typed in steps, with the decisions that need the whole
document taken between them; `parse` is the one list of them::

    each page (where it is kept)                  the document
    read: glyphs, words (OCR), edge lines  -->    running furniture (repeating_runs)
    prepare: furniture, body, gutters      <--    runs
                                           -->    the common column grid (shared_gutters)
    lay out: segment (profile), order      <--    grid; the section running into it
                                           -->    the sections settle; Document
    line types, in steps                   <->    contents, body size, heading levels,
                                                  list chains (linetypes.driver)

The page steps run through `layoutkit.parallel`, which keeps each page's state
where the page was read, in this process or in workers (``jobs``), and knows no step
by name: one process or several, the same steps run on the same pages, so the result
is the same.  The glyphs of a page are dropped once they are words, and only the
small values on the arrows and the laid-out pages cross processes.

A publication profile's section runs on from the page where it starts, so the lay-out
step also sends the section running at the end of each page; the pages whose section
turns out to be another than assumed are laid out again (`_lay_out`).

`iter_pages` reads a short document as `parse` does, and a long one page by page, so
that memory holds the small values of every page and the pages of one chunk
(`stream_chunk_pages`, `stream_whole_chunks`):

1. Every page is read once, what the decisions across pages need of it kept (its edge
   lines, its OCR quality), and the page itself written to a temporary file and let go.
2. The running furniture is decided over the whole document, as `parse` does; then the
   column grid, from each page's own gutters, in a first pass over the pages, a chunk
   at a time, which writes each page prepared (its furniture, body and occupancy grid)
   to a file in place of the page read.
3. The pages are taken up prepared and laid out a chunk at a time, the section running
   out of one chunk running into the next, and written to a file again.
4. They are typed in passes over that file, each line typing step over the whole
   document (`_typed_stream`); so the pages handed over are `parse`'s.
"""

from __future__ import annotations

import gc
import logging
import os
import pickle
import re
import tempfile
import weakref
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .config import LayoutConfig
from .errors import DocumentError, LayoutkitError, PageRangeError, UsageError
from .geometry.furniture import (
    EdgeLines,
    Furniture,
    Runs,
    body_words,
    edge_lines,
    page_furniture,
    repeating_runs,
)
from .geometry.gutters import Gutters, PageCanvas, prepare, shared_gutters
from .geometry.links import linked
from .geometry.segment import segment
from .geometry.skew import levelled, restored
from .geometry.turn import turned_back, upturned
from .geometry.words import words_from_glyphs
from .linetypes.driver import PageStep, PageTyping, line_types, runner
from .linetypes.lines import Key, Typed, retyped
from .linetypes.toc import is_first_page
from .model import (
    NO_GLYPHS,
    BBox,
    Document,
    OcrQuality,
    OutlineEntry,
    Page,
    PageGlyphs,
    Table,
    Word,
    draw_pages_with,
    tables_by_page,
)
from .page_spec import parse_page_spec
from .parallel import AUTO, EachPage, Jobs, Shares, collector_paused, open_shares, processes
from .reading.page import layout_page
from .sources import GlyphSource, is_image, open_source
from .sources.guard import PageRisk, check_structure
from .sources.inputs import Input, Source, as_input, readable, renamed
from .sources.ocr.scanned import check_scanned, is_scanned, ocr_scanned_page
from .sources.ruled_tables import find_ruled_tables

if TYPE_CHECKING:
    from .outputs.draw import PageImage
    from .profile import Profile, Section

__all__ = ["PageProgress", "PageStream", "iter_pages", "loaded_profile", "parse",
           "parse_page_spec"]

_log = logging.getLogger(__name__)



def page_image(page: Page, file: Path, resolution: int) -> PageImage:
    """Page ``page`` of the document at ``file`` rendered at ``resolution`` dpi, to draw
    on (`layoutkit.outputs.draw.PageImage`; Pillow is imported when a page is
    first drawn): what `Page.to_image` gives, registered here because the model
    may not import the outputs."""
    from .outputs.draw import PageImage

    return PageImage.of(page, file, resolution)


draw_pages_with(page_image)

_CONTEXT = 2
"""Pages on each side of a requested page read as well, so that running headers
can be recognised by their repetition even when one page is asked for."""


def parse(path: Source, config: LayoutConfig | None = None,
          pages: Iterable[int] | str | None = None, *, engine: str = "pdfium",
          jobs: Jobs = 1, profile: Profile | str | Path | None = None,
          tables: bool = False, typed: bool = True, password: str | None = None,
          ocr: str | None = None, lang: str | None = None) -> Document:
    """Read ``path`` and lay out its pages (all, or the 1-based ``pages``: numbers, or a
    selection such as ``"1,3-5,9-"``, or ``"iv-x"`` by the pages' labels, see
    [`parse_page_spec`][layoutkit.page_spec.parse_page_spec]).

    ``path`` is a file's path (``-``: standard input), the document's bytes or a binary
    file object; an encrypted PDF is read with its user ``password``, by either engine;
    an image is read by OCR, an office or markup document (docx, odt, rtf, html, epub,
    csv, rst, md) converted to PDF first by the batch's sandboxed converter
    ([`layoutkit.sources.inputs`][layoutkit.sources.inputs]).

    Returns a Document whose pages hold bands, columns, blocks and lines in reading
    order, every line typed (running headers and footers, contents, headings, lists,
    body).  With ``jobs`` > 1 the pages are read, laid out and typed in that many
    processes (this one and ``jobs - 1`` workers), the decisions across pages taken in
    this one; the result is the same.  With ``jobs="auto"`` the processes are as many as
    the processors this one may run on (eight at most), each with a few pages at least
    ([`processes`][layoutkit.parallel.processes]).
    A ``profile`` (a [`Profile`][layoutkit.pipeline.Profile], a
    bundled profile's name or a TOML path) says how the publication's pages are read; its
    ``[config]`` is used when no ``config`` is given.  The ruled tables of the pages
    whose rules draw a table's grid are found (pdfplumber reads those pages once more),
    and with ``tables`` those of every page: their lines are typed ``tab``, their cells
    kept in ``Document.tables``.  With ``typed`` false the lines keep the types the
    layout gives them (running headers, footers and margin stamps; the rest body):
    contents, tables, headings and lists are not looked for (ruled tables only with
    ``tables``), and the pages, their reading order and text are the same, for a caller
    that needs no more (``layoutkit text`` without ``--skip``).

    ``engine`` is ``"pdfium"`` (the default) or ``"pdfminer"``: the library the glyphs
    are read with (`layoutkit.sources.ENGINES`).

    ``ocr`` says which pages are read by OCR: ``"auto"`` (pages without a readable text
    layer; the default), ``"always"`` or ``"never"`` (the config key ``ocr``, as
    ``--ocr``); ``lang`` the languages scanned pages are written in, tesseract or
    ISO 639-1 codes joined by ``+`` (``"deu"``, ``"de+fr"``; default ``"auto"``, each
    page's own, detected; the config key ``ocr_languages``, as ``--lang``).  They are
    set over ``config`` (or the profile's).

    Any other setting is a key of `layoutkit.LayoutConfig`, passed in
    ``config``: ``parse(path, config=LayoutConfig().replace(gutter_min_width=4.0,
    ocr_dpi=400))`` (keys by name, validated: an unknown key or a bad value raises
    ConfigError naming it), or over a profile's, ``config=load_profile(name).config
    .replace(...)``; ``LayoutConfig.known_keys()`` lists them, and the CLI's
    ``--set key=value`` sets the same keys.
    """
    given = as_input(path, password)
    with _removed_on_error(given):
        profile = loaded_profile(profile)
        overrides = _Overrides(ocr, lang)
        given = readable(given, _config(config, profile, overrides).sources)
    with _removed_on_error(given):
        document = _drawable(_parse(given.path, config, pages, engine, jobs, profile, tables,
                                    typed, overrides), given.path)
    if not given.temporary:
        return document
    document = replace(document, path=given.name, source=given.path)
    weakref.finalize(document, given.remove)
    return document


def _drawable(document: Document, file: Path) -> Document:
    """``document`` with each page naming the ``file`` it was read from
    (`Page.file`), so that it draws itself (`Page.to_image`)."""
    return replace(document, pages=tuple(replace(page, file=file) for page in document.pages))


def _parse(path: Path, config: LayoutConfig | None, pages: Iterable[int] | str | None,
           engine: str, jobs: Jobs, profile: Profile | str | Path | None, tables: bool,
           typed: bool, overrides: _Overrides) -> Document:
    """`parse` of the file at ``path``."""
    job, context, shares = _job(path, config, pages, engine, jobs, profile, overrides,
                                typed=typed)
    return _parsed(job, context, shares, tables=tables, typed=typed)


def _parsed(job: Job, context: Sequence[int], jobs: int, *, tables: bool, typed: bool,
            progress: PageProgress | None = None) -> Document:
    """The wanted pages of ``context`` read, laid out and typed (unless not ``typed``) in
    ``jobs`` processes, every page kept in memory meanwhile, as a Document (with its
    ruled tables, when ``tables``); ``progress`` hears of each page read and of the
    laying out beginning."""
    def heard(number: int, sent: _Sent) -> None:
        if progress is not None:
            progress.advance(sent.ocr is not None)

    with collector_paused(), open_shares(_shares(dict.fromkeys(context), jobs), job.path) as kept:
        read: dict[int, _Sent] = kept.run(partial(read_pages, job), None, heard)
        ocr, runs = _decided(job, context, read)
        if progress is not None:
            progress.start("laying out", len(job.wanted))
        return _document(kept, job, context, runs, ocr, tables=tables, typed=typed)[0]


@dataclass(frozen=True, slots=True)
class PageStream:
    """A document read page by page (see [`iter_pages`][layoutkit.pipeline.iter_pages]): what is
    known of it before its first page is laid out, and its pages, laid out and typed, in order
    (iterating over the stream takes them, once)."""

    path: Path
    page_count: int
    """The document's number of pages."""
    ocr: tuple[OcrQuality, ...]
    """The OCR quality of each page read by OCR among those asked for."""
    unreadable: dict[int, str]
    """Why each page asked for that was left unread was
    ([`Document.unreadable`][layoutkit.model.layout.Document.unreadable])."""
    pages: Iterator[Page]
    tables: Mapping[int, Sequence[Table]]
    """The ruled tables found (when asked for) on the pages handed over so far, by page
    number."""
    wanted: tuple[int, ...] = ()
    """The pages asked for, by number."""

    def __iter__(self) -> Iterator[Page]:
        return self.pages


class PageProgress(Protocol):
    """What [`iter_pages`][layoutkit.pipeline.iter_pages] tells of its progress."""

    def start(self, phase: str, total: int) -> None:
        """A phase (``reading``, ``laying out``) of ``total`` pages begins."""

    def advance(self, ocr: bool) -> None:
        """One more page of the phase is done (read by OCR, if ``ocr``)."""


def iter_pages(path: str | Path, config: LayoutConfig | None = None,
               pages: Iterable[int] | str | None = None, *, engine: str = "pdfium",
               jobs: Jobs = 1, profile: Profile | str | Path | None = None,
               tables: bool = False, typed: bool = True, progress: PageProgress | None = None,
               ocr: str | None = None, lang: str | None = None) -> PageStream:
    """Read ``path`` as `parse` does, page by page, for documents of any length.

    A document of no more than ``stream_whole_chunks`` chunks of ``stream_chunk_pages``
    is read, laid out and typed in one go, as by [`parse`][layoutkit.pipeline.parse], before this
    returns. Of a longer one, every page is read (by OCR, if scanned) before this returns, and
    kept in a temporary file; the running headers and footers are decided over the
    whole document, as by [`parse`][layoutkit.pipeline.parse].  Iterating over the stream lays out
    and types the pages ``stream_chunk_pages`` at a time (in ``jobs`` processes) and hands each
    over; the common column grid and the line types (contents, heading levels, list
    chains) are decided over the whole document too, from small values of every page
    gathered in passes over the pages kept in files, so the pages are `parse`'s.
    Memory holds the small values of every page and the pages of one chunk.  With
    ``tables`` the ruled tables are found too, as by `parse`, and kept in the
    stream's ``tables``.  ``progress`` hears of each page read and each page laid out.
    ``engine``, ``ocr``, ``lang`` and ``config`` (any setting) are `parse`'s, and so
    are the files read (an office or markup document converted to a temporary PDF
    first, removed once the pages are all taken or dropped).
    """
    profile = loaded_profile(profile)
    overrides = _Overrides(ocr, lang)
    given = readable(Input(Path(path), Path(path)), _config(config, profile, overrides).sources)
    with _removed_on_error(given):
        stream = _stream(given.path, config, pages, engine, jobs, profile, tables, typed,
                         progress, overrides)
    if not given.temporary:
        return stream
    return replace(stream, path=given.name, pages=_removing(stream.pages, given))


@contextmanager
def _removed_on_error(given: Input) -> Iterator[None]:
    """Removes ``given``'s temporary file (an office document's PDF) when reading it
    fails, and names the file the user gave in the error rather than the temporary one."""
    try:
        yield
    except LayoutkitError as exc:
        given.remove()
        raise renamed(exc, given) from None
    except BaseException:
        given.remove()
        raise


def _removing(pages: Iterator[Page], given: Input) -> Iterator[Page]:
    """``pages`` handed over, then ``given``'s temporary file removed (also when the
    pages are dropped before they are all taken)."""
    def handed() -> Iterator[Page]:
        try:
            yield from pages
        finally:
            given.remove()

    taken = handed()
    weakref.finalize(taken, given.remove)
    return taken


def _stream(path: Path, config: LayoutConfig | None, pages: Iterable[int] | str | None,
            engine: str, jobs: Jobs, profile: Profile | None, tables: bool, typed: bool,
            progress: PageProgress | None, overrides: _Overrides) -> PageStream:
    """`iter_pages` of the file at ``path``."""
    job, context, shares = _job(path, config, pages, engine, jobs, profile, overrides,
                                typed=typed)
    if progress is not None:
        progress.start("reading", len(context))
    found: dict[int, list[Table]] = {}
    sources = job.config.sources
    if len(context) <= sources.stream_chunk_pages * sources.stream_whole_chunks:
        # short: kept in memory, without the files and passes that keep a long one's flat
        document = _parsed(job, context, shares, tables=tables, typed=typed, progress=progress)
        return PageStream(job.path, job.count, document.ocr, document.unreadable,
                          _handed_over(_pages_of(document, progress),
                                       found if tables else None, job.path), found, job.wanted)
    folder = tempfile.TemporaryDirectory(prefix="layoutkit-")

    def heard(number: int, sent: tuple[_Sent, _Spilled]) -> None:
        if progress is not None:
            progress.advance(sent[0].ocr is not None)

    try:
        with collector_paused(), open_shares(_shares(dict.fromkeys(context), shares),
                                             job.path) as kept:
            sent: dict[int, tuple[_Sent, _Spilled]] = kept.run(
                partial(spill_pages, job, Path(folder.name)), None, heard)
        qualities, runs = _decided(job, context, {n: page for n, (page, _) in sent.items()})
    except BaseException:
        folder.cleanup()
        raise
    unreadable = {n: sent[n][0].unreadable for n in job.wanted if sent[n][0].unreadable}
    return PageStream(job.path, job.count, tuple(qualities), unreadable, _handed_over(_streamed(
        job, context, runs, {n: spilled for n, (_, spilled) in sent.items()}, folder, shares,
        typed, progress, tables), found if tables else None, job.path), found, job.wanted)


def _streamed(job: Job, context: Sequence[int], runs: Mapping[int, Runs],
              spilled: Mapping[int, _Spilled], folder: tempfile.TemporaryDirectory[str],
              jobs: int, typed: bool, progress: PageProgress | None, tables: bool
              ) -> Iterator[tuple[Page, list[Table]]]:
    """The wanted pages of ``context``, read back from where they were ``spilled`` in
    ``folder`` (removed at the end), laid out and typed as [`parse`][layoutkit.pipeline.parse] does,
    a chunk at a time, each with its ruled tables (when ``tables``).

    Each decision across pages is taken over the whole document, from small values of
    every page: the column grid from each page's own gutters (a first pass), the
    sections as they run from page to page, and the line types (contents, body size,
    heading levels, list chains) from the laid-out pages, which wait in a file of
    ``folder`` meanwhile (`_typed_stream`)."""
    size = job.config.sources.stream_chunk_pages
    chunks = [context[start:start + size] for start in range(0, len(context), size)]
    with folder:
        prepared: dict[int, tuple[_Prepared, _Spilled]] = {}
        for chunk in chunks:
            with collector_paused(), _kept(chunk, spilled, jobs, job.path) as kept:
                prepared.update(kept.run(partial(spill_prepared, job, Path(folder.name)), runs))
        for file in {where.file for where in spilled.values()}:
            Path(file).unlink()  # the pages read are kept prepared from here on
        grid = shared_gutters([prepared[n][0].gutters for n in context], job.config.gutters)
        if progress is not None:
            progress.start("laying out", len(job.wanted))
        laid_out = _laid_out(job, chunks, prepared, grid, jobs, tables, typed, progress)
        if typed:
            laid_out = _typed_stream(job, laid_out, Path(folder.name), jobs)
        yield from laid_out


def _handed_over(laid_out: Iterable[tuple[Page, list[Table]]],
                 tables: dict[int, list[Table]] | None, file: Path) -> Iterator[Page]:
    """The pages ``laid_out``, their ruled tables put in ``tables`` (when given) as each
    page is handed over, each naming the ``file`` it was read from (`Page.file`)."""
    for page, found in laid_out:
        if tables is not None and found:
            tables[page.page_no] = found
        yield replace(page, file=file)


def _pages_of(document: Document, progress: PageProgress | None
              ) -> Iterator[tuple[Page, list[Table]]]:
    """The pages of ``document``, each with its ruled tables, ``progress`` hearing of
    each."""
    found = tables_by_page(document.tables)
    for page in document.pages:
        if progress is not None:
            progress.advance(False)
        yield page, found.get(page.page_no, [])


@contextmanager
def _kept(numbers: Sequence[int], spilled: Mapping[int, _Spilled], jobs: int, path: Path
          ) -> Iterator[Shares]:
    """The pages ``numbers``, read back from where they were ``spilled``, kept for
    steps in ``jobs`` processes while the block runs."""
    with open_shares(_shares({n: spilled[n] for n in numbers}, jobs), path) as kept:
        kept.run(EachPage(_unspilled))
        yield kept


def _laid_out(job: Job, chunks: Sequence[Sequence[int]],
              prepared: Mapping[int, tuple[_Prepared, _Spilled]], grid: Gutters, jobs: int,
              tables: bool, typed: bool, progress: PageProgress | None
              ) -> Iterator[tuple[Page, list[Table]]]:
    """The wanted pages of ``chunks``, read back from where they were written
    ``prepared`` (`spill_prepared`), laid out on the document's column ``grid``, a
    chunk at a time, the section running out of one chunk running into the next, not
    typed; each with its ruled tables (when ``tables``; when the pages are to be
    ``typed``, those of the pages whose rules draw a grid, as [`parse`][layoutkit.pipeline.parse]
    types them), ``progress`` hearing of it."""
    entering: Section | None = None
    spilled = {n: where for n, (_, where) in prepared.items()}
    for chunk in chunks:
        part = replace(job, wanted=tuple(n for n in chunk if job.index(n) is not None))
        with collector_paused(), _kept(chunk, spilled, jobs, job.path) as kept:
            document, entering = _document(kept, part, chunk, {}, (), tables=tables,
                                           typed=False, entering=entering, grid=grid,
                                           typed_later=typed,
                                           prepared={n: prepared[n][0] for n in chunk})
        gc.collect(0)  # the cycles laying the chunk out left
        yield from _pages_of(document, progress)


def _typed_stream(job: Job, laid_out: Iterable[tuple[Page, list[Table]]], folder: Path,
                  jobs: int) -> Iterator[tuple[Page, list[Table]]]:
    """The pages ``laid_out`` (with their ruled tables) typed as [`parse`][layoutkit.pipeline.parse]
    types them: each page is written to a file of ``folder`` and let go, what the decisions
    across pages need of it kept (its width, and the whole page for the first pages,
    where contents stand); typing runs its steps over the pages read back a chunk at
    a time, each step replaying the steps before it on the page (they are quick, and
    a page typed half-way would take as much room as the page); and the pages are read
    back once more, given their types and handed over."""
    config = job.config
    located: dict[int, _Spilled] = {}
    summaries: list[Page] = []
    found: list[Table] = []
    with (folder / "laid-out.pages").open("wb") as file:
        for page, tables in laid_out:
            offset = file.tell()
            file.write(pickle.dumps(page, pickle.HIGHEST_PROTOCOL))
            located[len(located)] = _Spilled(file.name, offset, file.tell() - offset)
            summaries.append(page if is_first_page(page, config.linetypes)
                             else replace(page, bands=()))
            found += tables
    size = config.sources.stream_chunk_pages
    chunks = [range(start, min(start + size, len(located)))
              for start in range(0, len(located), size)]
    done: list[tuple[PageStep, object]] = []

    def run(step: PageStep, given: object) -> dict[int, Any]:
        sent: dict[int, Any] = {}
        for chunk in chunks:
            with collector_paused(), _kept(chunk, located, jobs, job.path) as kept:
                each = runner(kept, config.linetypes, partial(typing_of, job))
                for before, value in done:
                    each(before, value)
                sent.update(each(step, given))
        done.append((step, given))
        return sent

    types = line_types(Document(job.path, tuple(summaries), job.count, tuple(found),
                                outline=job.outline), run, config.linetypes)
    by_page: dict[int, dict[Key, Typed]] = {}
    for (index, k), typed in types.items():
        by_page.setdefault(index, {})[(0, k)] = typed
    on_page = tables_by_page(found)
    for index, where in located.items():
        back = _unspilled(where, None)[0]
        assert isinstance(back, Page), "the file holds the pages laid out"
        yield retyped(Document(job.path, (back,), job.count), by_page.get(index, {})
                      ).pages[0], on_page.get(back.page_no, [])


@dataclass(frozen=True, slots=True)
class _Overrides:
    """The settings `parse` takes by name (``ocr=``, ``lang=``), None where not
    given."""

    ocr: str | None = None
    lang: str | None = None

    def over(self, config: LayoutConfig) -> LayoutConfig:
        """``config`` with the settings given set (each validated as the config's key)."""
        changes = {key: value for key, value in (("ocr", self.ocr),
                                                 ("ocr_languages", self.lang))
                   if value is not None}
        return config.replace(**changes) if changes else config


def _job(path: str | Path, config: LayoutConfig | None, pages: Iterable[int] | str | None,
         engine: str, jobs: Jobs, profile: Profile | str | Path | None,
         overrides: _Overrides = _Overrides(), *, typed: bool = True
         ) -> tuple[Job, list[int], int]:
    """The parse of ``path`` (see `parse`), the pages it reads (those asked for
    with their neighbours; all from the first, for a profile with sections) and the
    processes it reads them in (``jobs``, see `processes`).  The document's outline
    is read when its lines are to be ``typed``: it guides the headings
    (`linetypes.bookmarks`)."""
    profile = loaded_profile(profile)
    config = _config(config, profile, overrides)
    if jobs != AUTO and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise UsageError(f"jobs: expected 'auto' or a whole number of processes >= 1, "
                         f"got {jobs!r}")
    path = Path(path)
    with open_source(path, engine, image_dpi=config.sources.image_dpi,
                     image_max_pixels=config.sources.image_max_pixels,
                     image_max_frames=config.sources.image_max_frames) as source:
        risks = {} if is_image(path) else check_structure(path, config.sources)
        count = source.page_count
        if getattr(source, "more", False):  # an image's frames past image_max_frames
            _log.warning("%s: the frames past the first %s are left unread "
                         "(image_max_frames)", path, f"{count:,}")
        # labels only where the selection names pages by them
        labels = source.labels() if isinstance(pages, str) and _names_labels(pages) else ()
        outline = source.outline(risks.keys()) if typed else ()
    wanted = _wanted(path, pages, count, labels)
    # a section runs on from the page it starts on: read from the first page
    first = 1 if profile and profile.sections else None
    context = sorted({q for p in wanted for q in range(first or p - _CONTEXT, p + _CONTEXT + 1)
                      if 1 <= q <= count})
    return (Job(path, engine, count, tuple(wanted), config, profile, risks, outline), context,
            processes(jobs, len(context)))


def _config(config: LayoutConfig | None, profile: Profile | None,
            overrides: _Overrides) -> LayoutConfig:
    """The configuration a document is read with: ``config``, else ``profile``'s, else
    the defaults, with the settings given by name (``overrides``) set over it."""
    return overrides.over(config or (profile.config if profile else LayoutConfig()))


def _shares(states: Mapping[int, object], jobs: int) -> list[dict[int, object]]:
    """The pages' first ``states`` shared out among ``jobs`` processes: every jobs-th
    page to each (neighbouring pages cost about the same, so the shares come out
    even)."""
    numbers = list(states)
    return [{n: states[n] for n in numbers[k::jobs]} for k in range(min(jobs, len(numbers)))]


def _decided(job: Job, context: Sequence[int], read: Mapping[int, _Sent]
             ) -> tuple[list[OcrQuality], dict[int, Runs]]:
    """What is decided of the pages once they are all ``read``: the OCR of the pages
    asked for, checked (those read for their neighbours' sake are only logged, with
    ``-v``, when they were OCR'd or their OCR failed), and the running furniture of
    every page."""
    _report_unread(job, read)
    if _log.isEnabledFor(logging.INFO):
        for number in job.wanted:
            _log.info("%s: page %d: read by %s, %s", job.path, number, job.engine,
                      _how_read(read[number]))
        wanted = set(job.wanted)
        for number in context:  # the time a neighbour's OCR takes is the user's too
            if number not in wanted and (tried := read[number].ocr) is not None \
                    and (tried.done or tried.error is not None):
                _log.info("%s: page %d, read for its neighbours' running headers: %s",
                          job.path, number, _how_read(read[number]))
    ocr = [q for n in job.wanted if (q := read[n].ocr) is not None]
    check_scanned(job.path, ocr, any(read[n].has_words for n in context), job.config)
    return ocr, dict(zip(context, repeating_runs([read[n].edges for n in context], job.config),
                         strict=True))


def _how_read(sent: _Sent) -> str:
    """How a page was read, in words, for the log (``-v``): whether by OCR, in which
    languages, and why (`OcrQuality.why`)."""
    if sent.unreadable:
        return f"left unread ({sent.unreadable})"
    if sent.ocr is None:
        return "no OCR" if sent.has_words else "no OCR, no words"
    why = f": {sent.ocr.why}" if sent.ocr.why else ""
    if sent.ocr.error is not None:
        return f"scanned, OCR failed{why}"
    if not sent.ocr.done:
        return f"scanned, its text layer kept (no OCR){why}"
    return f"scanned, OCR in {sent.ocr.language}{why}"


def _report_unread(job: Job, read: Mapping[int, _Sent]) -> None:
    """A warning for each page asked for that was left unread, naming the page and the
    budget; a DocumentError, the first page's reason, when no page asked for was read."""
    unread = [(n, reason) for n in job.wanted if (reason := read[n].unreadable)]
    if unread and len(unread) == len(job.wanted):
        number, reason = unread[0]
        raise DocumentError(f"{job.path}: page {number} {reason}")
    for number, reason in unread:
        _log.warning("%s: page %d %s; it is left unread (empty in the output)", job.path,
                     number, reason)


def _document(kept: Shares, job: Job, context: Sequence[int], runs: Mapping[int, Runs],
              ocr: Sequence[OcrQuality], *, tables: bool, typed: bool,
              entering: Section | None = None, grid: Gutters | None = None,
              typed_later: bool = False, prepared: Mapping[int, _Prepared] | None = None
              ) -> tuple[Document, Section | None]:
    """The wanted pages of ``context``, read and ``kept``, laid out (the first entered by
    the section ``entering``, on the column ``grid`` when it is given, else on the one
    their gutters share) and typed unless not ``typed``, as a Document; and the section
    running out of the last page; the ruled tables typing needs are found when the
    pages are ``typed_later`` too.  The pages are prepared here from the repeating
    ``runs`` unless they are kept ``prepared`` already (what preparing them sent)."""
    config = job.config
    if prepared is None:
        prepared = kept.run(EachPage(partial(prepare_page, job)), runs)
    shared = grid if grid is not None else \
        shared_gutters([prepared[n].gutters for n in context], config.gutters)
    laid_out, leaving = _lay_out(kept, job, context, shared, entering)
    # ruled tables: on every page when asked for; else, for typing, where rules draw a grid
    ruled = job.wanted if tables else \
        [n for n in job.wanted if (typed or typed_later) and prepared[n].gridded]
    document = Document(job.path, tuple(laid_out[n] for n in job.wanted), job.count,
                        find_ruled_tables(job.path, ruled), tuple(ocr), job.outline)
    if typed:
        document = retyped(document, line_types(
            document, runner(kept, config.linetypes, partial(typing_of, job)),
            config.linetypes))
    return document, leaving


@dataclass(frozen=True, slots=True)
class Job:
    """What every page step knows of the parse it is part of."""

    path: Path
    engine: str
    count: int
    """The document's number of pages."""
    wanted: tuple[int, ...]
    """The pages asked for, ascending (the others are read for their context)."""
    config: LayoutConfig
    profile: Profile | None
    risks: Mapping[int, PageRisk]
    """The pages that draw far more than an ordinary page (`sources.guard`), read
    in a process of their own or, past the budget, not at all."""
    outline: tuple[OutlineEntry, ...] = ()
    """The document's outline (read when its lines are typed)."""

    def index(self, number: int) -> int | None:
        """The place of page ``number`` among the wanted pages, which is its place in
        the document parsed; None for a page read for its context alone."""
        k = bisect_left(self.wanted, number)
        return k if k < len(self.wanted) and self.wanted[k] == number else None


@dataclass(frozen=True, slots=True)
class ReadPage:
    """A page once read: its size, rules and pictures (its glyphs dropped once they
    are words), its words and its candidate furniture lines, the words set level where
    the page was scanned askew (`geometry.skew`), and the slope its lines leaned
    by (0.0 for a page whose words stand as they were drawn), by which the page laid
    out is turned back; the page turned upright where its text runs turned
    (`geometry.turn`), and the turn (0 for a page read as it stands)."""

    glyphs: PageGlyphs
    words: tuple[Word, ...]
    edges: EdgeLines
    skew: float = 0.0
    turn: int = 0


@dataclass(frozen=True, slots=True)
class _Sent:
    """What reading a page tells the document: its candidate furniture lines, its OCR
    quality (None when it was not read by OCR), whether it has any words (before a
    profile's ignored regions are taken out) and why it could not be read (empty when
    it was)."""

    edges: EdgeLines
    ocr: OcrQuality | None
    has_words: bool
    unreadable: str = ""


@dataclass(frozen=True, slots=True)
class _Spilled:
    """Where a page once read was written: the file, and the place and length of its
    pickle in it."""

    file: str
    offset: int
    length: int


@dataclass(frozen=True, slots=True)
class PreparedPage:
    """A page read, its furniture decided and its body ready to segment; once laid
    out, the page too (None for a page read for its context alone)."""

    read: ReadPage
    furniture: Furniture
    body: list[Word]
    canvas: PageCanvas
    page: Page | None = None


@dataclass(frozen=True, slots=True)
class _Prepared:
    """What preparing a page tells the document: the gutters found on the page alone,
    and whether its rules draw a ruled table's grid (`PageCanvas.gridded`), where
    ruled tables are looked for by default."""

    gutters: Gutters
    gridded: bool


def read_pages(job: Job, states: Mapping[int, object], given: None
               ) -> Iterator[tuple[int, ReadPage, _Sent]]:
    """The first step: each page of ``states`` (by number) read from the document,
    opened once for every ``stream_chunk_pages`` pages (PDFium keeps what it parsed of
    the pages it loaded, some 40 KB a page, until the document is closed), its words
    made (by OCR for a scanned page), a profile's ignored regions taken out, and its
    candidate furniture lines found.

    The reference cycles reading leaves (PDFium's objects in ctypes, some 90 KB a page)
    are collected after each chunk, among the values made since (see
    [`collector_paused`][layoutkit.parallel.collector_paused])."""
    config = job.config
    numbers = list(states)
    for start in range(0, len(numbers), config.sources.stream_chunk_pages):
        yield from _read_chunk(job, numbers[start:start + config.sources.stream_chunk_pages])
        gc.collect(0)


def _read_chunk(job: Job, numbers: Sequence[int]) -> Iterator[tuple[int, ReadPage, _Sent]]:
    """The pages ``numbers`` read as `read_pages` says, the document opened once;
    a page past a budget read as an unreadable page (`_page_glyphs`)."""
    config = job.config
    with open_source(job.path, job.engine, image_dpi=config.sources.image_dpi,
                     image_max_pixels=config.sources.image_max_pixels,
                     image_max_frames=config.sources.image_max_frames) as source:
        for number in numbers:
            g = _page_glyphs(job, source, number)
            try:
                words = linked(words_from_glyphs(g.glyphs, config.words), g.links)
                quality = None
                if not g.unreadable and is_scanned(job.path, g, words, config):
                    links = g.links
                    g, words, quality = ocr_scanned_page(job.path, g, words, config)
                    words = linked(words, links)  # OCR's words stand in the links too
                g, words, skew = levelled(g, words, config.words)
                turn = 0
                if not job.profile:  # a profile's regions stand on the page as it is shown
                    g, words, turn = upturned(g, words, config.furniture)
            except MemoryError:
                g, words, quality = _unread(g, "ran out of memory as it was read"), (), None
                skew, turn = 0.0, 0
            has_words = bool(words)
            if job.profile:
                # the profile stage, like the profile package, only with a profile
                from .profile.stage import without_ignored

                words = without_ignored(job.profile, g, words, job.count, config)
            edges = edge_lines(words, g.height, config, g.label or str(g.page_no), g.width,
                               _drawn(g, config))
            yield g.page_no, ReadPage(replace(g, glyphs=NO_GLYPHS), words, edges, skew, turn), \
                _Sent(edges, quality, has_words, g.unreadable)


def _drawn(g: PageGlyphs, config: LayoutConfig) -> tuple[BBox, ...]:
    """What a page draws that lines set on it are a chart's labels of, not furniture
    (`layoutkit.geometry.furniture.edge_lines`): its rules that run down (a chart's axis,
    ticks, grid; a running header's rule runs across) and its pictures (a background's
    left out, ``image_max_area``)."""
    return (*(rule.bbox for rule in g.rules if not rule.horizontal),
            *g.figures(config.sources.image_max_area))


def _page_glyphs(job: Job, source: GlyphSource, number: int) -> PageGlyphs:
    """Page ``number`` read from the open ``source``; a page that draws far more than an
    ordinary page read in a process of its own (`read_alone`), or,
    past ``page_max_content_bytes`` or that process's budgets, an unreadable page: no
    glyphs, and the reason
    ([`PageGlyphs.unreadable`][layoutkit.model.glyphs.PageGlyphs.unreadable])."""
    risk = job.risks.get(number)
    if risk is None:
        return next(iter(source.pages([number])))
    empty = PageGlyphs(number, risk.width, risk.height, NO_GLYPHS)
    reason = risk.reason(job.config.sources)
    if reason is not None:
        return _unread(empty, reason)
    from .sources.alone import read_alone

    read = read_alone(job.path, job.engine, number, job.config)
    return _unread(empty, read) if isinstance(read, str) else read


def _unread(glyphs: PageGlyphs, reason: str) -> PageGlyphs:
    """The page of ``glyphs`` left unread, for ``reason``: nothing on it."""
    return PageGlyphs(glyphs.page_no, glyphs.width, glyphs.height, NO_GLYPHS,
                      label=glyphs.label, unreadable=reason)


def spill_pages(job: Job, folder: Path, states: Mapping[int, object], given: None
                ) -> Iterator[tuple[int, None, tuple[_Sent, _Spilled]]]:
    """The first step of [`iter_pages`][layoutkit.pipeline.iter_pages]: each page read (see
    `read_pages`), written to a file of ``folder`` (one for each process) and let go; sends what
    reading it tells the document, and where it was written."""
    with (folder / f"{os.getpid()}.pages").open("wb") as file:
        for number, page, sent in read_pages(job, states, given):
            offset = file.tell()
            file.write(pickle.dumps(page, pickle.HIGHEST_PROTOCOL))
            yield number, None, (sent, _Spilled(file.name, offset, file.tell() - offset))


def spill_prepared(job: Job, folder: Path, states: Mapping[int, ReadPage],
                   runs: Mapping[int, Runs]
                   ) -> Iterator[tuple[int, None, tuple[_Prepared, _Spilled]]]:
    """Each page read prepared (`prepare_page`), written to a file of ``folder`` (one
    for each process) and let go, so that laying it out takes it up prepared; sends
    what preparing it tells the document, and where it was written."""
    with (folder / f"{os.getpid()}.prepared").open("ab") as file:
        for number, read in states.items():
            page, sent = prepare_page(job, read, runs)
            offset = file.tell()
            file.write(pickle.dumps(page, pickle.HIGHEST_PROTOCOL))
            yield number, None, (sent, _Spilled(file.name, offset, file.tell() - offset))


def _unspilled(spilled: _Spilled, given: None) -> tuple[ReadPage | PreparedPage | Page, None]:
    """A page read back from where it was written: read (`spill_pages`), prepared
    (`spill_prepared`) or laid out (`_typed_stream`)."""
    with Path(spilled.file).open("rb") as file:
        file.seek(spilled.offset)
        page = pickle.loads(file.read(spilled.length))
    assert isinstance(page, ReadPage | PreparedPage | Page), \
        "a spilled page is a page read, prepared or laid out"
    return page, None


def prepare_page(job: Job, read: ReadPage, runs: Mapping[int, Runs]
                 ) -> tuple[PreparedPage, _Prepared]:
    """The page's furniture decided from the repeating ``runs`` of the document's edge
    lines (by page number), and its body prepared for segmentation; sends its own
    gutters and whether its rules draw a table's grid."""
    g, words = read.glyphs, read.words
    found = page_furniture(words, read.edges, runs[g.page_no], job.config, g.rules,
                           g.figures(job.config.sources.image_max_area))
    if job.profile:
        from .profile.stage import profile_furniture

        found = profile_furniture(job.profile, g, words, found)
    body = body_words(words, found)[0]
    canvas = prepare(body, g.rules, g.figures(job.config.sources.image_max_area), g.width,
                     g.height, job.config.gutters)
    return PreparedPage(read, found, body, canvas), _Prepared(canvas.gutters, canvas.gridded)


def lay_out_pages(job: Job, states: Mapping[int, PreparedPage],
                  given: tuple[Gutters, Mapping[int, Section | None]]
                  ) -> Iterator[tuple[int, PreparedPage, tuple[Section | None, Page | None]]]:
    """The pages named in ``entering`` segmented and put in reading order, ``shared``
    being the document's common gutters and ``entering`` the profile section running
    into each page (``given`` is the two); sends the section running on at each page's
    end, with the page if it is wanted."""
    shared, entering = given
    for number, prepared in states.items():
        if number not in entering:
            continue
        g, words = prepared.read.glyphs, prepared.read.words
        leaving = None
        if job.profile:
            from .profile.stage import profile_tree

            tree, leaving = profile_tree(job.profile, g, words, prepared.body, prepared.canvas,
                                         shared, job.count, entering[number], job.config)
        else:
            tree = segment(prepared.canvas, shared)
        page = restored(turned_back(layout_page(g, words, prepared.furniture, tree, job.config),
                                    prepared.read.turn),
                        prepared.read.skew) if job.index(number) is not None else None
        yield number, replace(prepared, page=page), (leaving, page)


def typing_of(job: Job, state: object) -> PageTyping | None:
    """A page's state as line typing takes it up: a wanted page laid out becomes a
    `PageTyping` (indexed by its place among the wanted pages, which is its
    place in the document); a page being typed stays one; a page read for its context
    alone is not typed (None); a wanted page read back laid out (`_typed_stream`)
    is typed too."""
    if isinstance(state, Page):
        index = job.index(state.page_no)
        assert index is not None, "only the wanted pages are laid out"
        return PageTyping.of(state, index)
    if isinstance(state, PreparedPage):
        if state.page is None:
            return None
        index = job.index(state.page.page_no)
        assert index is not None, "only the wanted pages are laid out"
        return PageTyping.of(state.page, index)
    return state if isinstance(state, PageTyping) else None


def loaded_profile(profile: Profile | str | Path | None) -> Profile | None:
    """``profile`` as a [`Profile`][layoutkit.profile.Profile]: a bundled profile's name or
    a TOML path loaded, a Profile as it is, None for none.

    The profile package (TOML, validation) is imported here, when a profile is given:
    a document read without one does not load it."""
    if profile is None:
        return None
    from .profile import Profile, load_profile

    return profile if isinstance(profile, Profile) else load_profile(profile)


def _lay_out(kept: Shares, job: Job, context: Sequence[int], shared: Gutters,
             first: Section | None = None) -> tuple[dict[int, Page], Section | None]:
    """The wanted pages of ``context`` laid out by the ``kept`` shares, the ``first``
    entered by that section; and the section running out of the last.

    Pages are laid out at once as if no profile section ran into them; a page whose
    previous page ends in a section is laid out again with it, until every page has
    the section its previous page ends in (one round without sections), so the
    result is what reading the pages one after another gives.
    """
    step = partial(lay_out_pages, job)
    entering: dict[int, Section | None] = dict.fromkeys(context)
    if context:
        entering[context[0]] = first
    results: dict[int, tuple[Section | None, Page | None]] = kept.run(step, (shared, entering))
    while True:
        stale = {n: results[before][0] for before, n in pairwise(context)
                 if results[before][0] != entering[n]}
        if not stale:
            return ({n: page for n, (_, page) in results.items() if page is not None},
                    results[context[-1]][0] if context else first)
        entering.update(stale)
        results.update(kept.run(step, (shared, stale)))


def _names_labels(spec: str) -> bool:
    """Whether a page selection has a part that is no numbers (see `page_spec`),
    which names pages by their labels."""
    return any(not re.fullmatch(r"\s*\d*\s*-?\s*\d*\s*", part) for part in spec.split(","))


def _wanted(path: Path, pages: Iterable[int] | str | None, count: int,
            labels: Sequence[str] = ()) -> list[int]:
    """The 1-based pages asked for, checked against the document's ``count`` (by
    their ``labels`` where the selection names them so)."""
    if pages is None:
        return list(range(1, count + 1))
    if isinstance(pages, str):
        try:
            return parse_page_spec(pages, count, labels)
        except PageRangeError as exc:
            raise PageRangeError(f"{path}: {exc}") from None
    wanted = sorted(set(pages))
    bad = [p for p in wanted if not 1 <= p <= count]
    if bad:
        raise PageRangeError(f"{path}: page {bad[0]} is outside the document's pages 1-{count}")
    return wanted
