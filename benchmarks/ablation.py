"""Ablation: what each parameter of the configuration changes on the labelled pages.

Each parameter of the sections that shape reading and typing (words, gutters,
furniture, profile, reading, linetypes) is switched off or set to its neutral value
(:data:`NEUTRAL`: a threshold set so that its rule never fires, or, where there is no
such value, halved and doubled), and every labelled page is read again: the
development corpus (``regions/corpus``), the labelled real pages (``regions/*.truth.json``)
and the held-out documents (``regions/heldout``).  The change in found, order and leak
of each document, and in the pooled F1 of the line types (headings, contents, list
items, tables, scored as :mod:`benchmarks.linetypes` scores them), is what the
parameter does on the whole corpus.  The parameters of the other sections (budgets,
limits, paths, speed knobs, output choices) are listed with why they are not ablated
(:data:`NOT_ABLATED`).

Each page's glyphs are read once (a scanned page's OCR too, at the default
configuration); each setting runs only the stages after extraction (words, running
furniture, gutters, lay-out, line types: :mod:`layoutkit.pipeline`'s steps), in
worker processes.  The parameters of the profile section act only with a publication
profile: they, and those a bundled profile sets, are measured on the labelled pages
of the publications with a bundled profile (:data:`benchmarks.profiles.PROFILES`),
read with it.

Run alone, at low priority, with
``nice -n 10 python -m benchmarks.ablation [--update RESULTS_MD] [--jobs 2] [--raw FILE]``
(``--raw`` keeps what was measured, so that an interrupted run resumes);
``python -m benchmarks.run --ablation`` includes it.  It takes about an hour on a
2-core machine shared with other work (load average 8 to 12): 2.5 minutes to read
the glyphs, then some 160 settings in 2 worker processes, 6 seconds each for the line
types section (typing alone), 45 to 60 for the others, 100 for the profiled ones; so
a run without the flag carries the section over as it was measured.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import pickle
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, fields, replace
from functools import cache, partial
from pathlib import Path
from typing import Any

from benchmarks.linetypes import CORPUS_CLASSES, corpus_page_types
from benchmarks.peers import REPO
from benchmarks.profiles import PROFILES
from benchmarks.sections import carried_section, update_section
from layoutkit.config import _SECTIONS, LayoutConfig
from layoutkit.geometry.furniture import edge_lines
from layoutkit.geometry.gutters import shared_gutters
from layoutkit.geometry.words import words_from_glyphs
from layoutkit.linetypes.driver import line_types, runner
from layoutkit.linetypes.lines import retyped
from layoutkit.model import NO_GLYPHS, Document, OcrQuality, PageGlyphs, Word
from layoutkit.parallel import EachPage, collector_paused, open_shares
from layoutkit.pipeline import (
    _CONTEXT,
    Job,
    ReadPage,
    _decided,
    _lay_out,
    _Sent,
    loaded_profile,
    prepare_page,
    typing_of,
)
from layoutkit.profile import Profile
from layoutkit.sources import DEFAULT_ENGINE, open_source
from layoutkit.sources.guard import check_structure
from layoutkit.sources.ocr.scanned import is_scanned, ocr_scanned_page
from layoutkit.sources.ruled_tables import find_ruled_tables
from layoutkit.tools.evaluate import PageScore, TypeScore, combine, score_truth
from layoutkit.tools.truth import DocumentTruth, load_truth, truth_files

__all__ = ["NEUTRAL", "NOT_ABLATED", "TITLE", "Effect", "Measured", "Neutral", "carried",
           "measure", "section"]

TITLE = "## Ablation: what each parameter changes"

ROOTS = (REPO / "regions" / "corpus", REPO / "regions", REPO / "regions" / "heldout")
"""The folders of labelled pages read for every setting."""

ABLATED = ("words", "gutters", "furniture", "profile", "reading", "linetypes")
"""The sections whose parameters shape reading and typing."""

BIG = 1e9
"""A threshold no measure reaches: the rule it gates never fires."""


@dataclass(frozen=True, slots=True)
class Neutral:
    """The settings a parameter is ablated at: its neutral value (one), or its default
    halved and doubled (two) where it has none; and why."""

    key: str
    values: tuple[Any, ...]
    why: str


def _scaled(key: str, why: str = "no neutral value: the rule's core threshold") -> Neutral:
    """``key`` halved and doubled (a whole number kept whole, a share kept within 1)."""
    default = LayoutConfig().value(key)
    half, double = default / 2, default * 2
    if isinstance(default, int):
        half, double = max(0, default // 2), default * 2
    if key in _SHARE_KEYS:
        double = min(1.0, double)
    return Neutral(key, (half, double), why)


_SHARE_KEYS = frozenset({
    "line_overlap", "glyph_repeat_overlap", "baseline_tolerance", "grid_overlap",
    "furniture_top", "furniture_bottom", "furniture_min_share", "furniture_masthead_top",
    "furniture_dateline_top", "furniture_cover_dateline_top", "cut_tie_ratio",
    "column_min_density", "column_min_flush", "crossing_gap_ratio", "even_space_tolerance",
    "line_like_size_ratio", "float_flow_size_tolerance",
    "ruled_gutter_min_share", "stream_across_share", "stream_down_max_share"})


NEUTRAL: tuple[Neutral, ...] = (
    # words
    _scaled("word_gap_em"),
    _scaled("line_overlap"),
    Neutral("line_like_size_ratio", (0.0,), "0: every word is of one size with every other,"
            " so the like-size condition never holds a baseline back"),
    _scaled("glyph_row_tolerance_em"),
    Neutral("glyph_row_max_span_em", (BIG,), "no chained row is ever cut"),
    Neutral("glyph_repeat_overlap", (0.0,), "only a glyph drawn again at the very same"
            " place is dropped"),
    Neutral("vertical_max_gap_em", (0.0,), "no glyph run is set in vertical writing"),
    Neutral("vertical_hanging_gap_em", (0.0,), "no hanging glyph joins a vertical run"),
    _scaled("baseline_tolerance"),
    Neutral("drop_cap_min_height", (BIG,), "no word is a drop capital"),
    # gutters
    _scaled("gutter_min_width"),
    _scaled("word_space_ratio"),
    Neutral("crossing_gap_ratio", (0.0,), "no row ends a gutter's run by crossing it"),
    Neutral("even_space_tolerance", (0.0,), "no row counts as evenly spaced"),
    Neutral("even_space_min_spaces", (BIG,), "no row has enough spaces to be evenly spaced"),
    _scaled("gutter_min_lines"),
    _scaled("gutter_min_lines_on_grid"),
    Neutral("column_min_density", (0.0,), "the density test always passes"),
    Neutral("column_min_flush", (0.0,), "the flush test always passes"),
    Neutral("sparse_column_gap_em", (BIG,), "no strip is wide enough to waive density"),
    _scaled("stack_gap_em"),
    Neutral("stack_max_level_rows", (0,), "no stacks side by side share a level row"),
    Neutral("side_head_align_em", (0.0,), "no side heading stands level with its text"),
    Neutral("stream_across_share", (1.0,), "a strip is read across in every row only"
            " (the stream test hardly ever fires)"),
    Neutral("stream_across_min_rows", (BIG,), "never enough rows read across"),
    Neutral("stream_down_max_share", (1.0,), "the stream's steps never veto a strip"),
    _scaled("column_min_width_em"),
    _scaled("grid_resolution", "the occupancy grid's step: no neutral value"),
    Neutral("rule_min_length", (BIG,), "no horizontal rule blocks a gutter"),
    Neutral("ruled_gutter_min_share", (1.0,), "a rule makes a gutter only when it runs"
            " the whole strip"),
    Neutral("cell_wall_min_rows", (BIG,), "no vertical rule is a cell wall"),
    Neutral("cut_tie_ratio", (1.0,), "only the widest gap ends a band: no ties"),
    Neutral("band_lead_gap_ratio", (BIG,), "no leading lines close the band above"),
    _scaled("baseline_bin_em"),
    _scaled("line_pitch_em"),
    _scaled("flush_tolerance_em"),
    Neutral("leader_reach_em", (0.0,), "no dot leaders reach a strip"),
    Neutral("grid_min_pages", (BIG,), "no gutter belongs to the column grid"),
    _scaled("grid_overlap"),
    _scaled("grid_cut_min_lines"),
    Neutral("leader_min_lines", (BIG,), "dot leaders never make a strip a table's edge"),
    Neutral("crossing_max_trims", (0,), "a gutter's run is never trimmed"),
    # furniture
    _scaled("furniture_top"),
    _scaled("furniture_bottom"),
    _scaled("line_header_max_lines"),
    _scaled("line_footer_max_lines"),
    _scaled("furniture_max_distance"),
    _scaled("furniture_min_gap_em"),
    Neutral("furniture_trim_margin", (0.0,), "no line stands in the trim margin"),
    _scaled("furniture_min_similarity"),
    _scaled("furniture_y_tolerance"),
    _scaled("furniture_min_share"),
    Neutral("furniture_masthead_top", (0.0,), "no masthead zone"),
    Neutral("furniture_dateline_top", (0.0,), "no dateline zone"),
    Neutral("furniture_cover_dateline_top", (0.0,), "no cover dateline"),
    Neutral("furniture_masthead_min_run", (BIG,), "no piece carries a long enough run"),
    Neutral("furniture_bar_gap_em", (0.0,), "no ruled bar under a nameplate"),
    Neutral("furniture_nameplate_min_size", (BIG,), "no line is a nameplate"),
    Neutral("furniture_row_max_words", (0,), "no masthead row's pieces"),
    _scaled("furniture_piece_gap_em"),
    Neutral("furniture_folio_min_words", (BIG,), "no folio line by its words"),
    Neutral("furniture_folio_gap_em", (BIG,), "no folio line by its gap"),
    Neutral("furniture_min_letters", (0,), "every line may repeat by edit distance"),
    Neutral("furniture_masthead_max_size", (0.0,), "no piece is small enough for a masthead"),
    Neutral("furniture_block_min_pages", (BIG,), "no text block is found"),
    Neutral("furniture_block_max_size", (0.0,), "no line is small enough outside the block"),
    Neutral("furniture_block_max_lines", (0,), "no block outside the text block"),
    Neutral("furniture_block_foot_gap_em", (BIG,), "no line is set apart enough at the foot"),
    Neutral("furniture_stamp_max_lines", (0,), "no turned words are margin stamps"),
    # profile
    # reading
    _scaled("block_gap_ratio"),
    Neutral("footnote_max_size", (0.0,), "no footnotes read after the columns"),
    Neutral("notice_pattern", ("(?!)",), "a pattern that matches nothing: no notices"),
    Neutral("float_flow_size_tolerance", (0.0,), "only text of the very same size runs on"
            " under a float"),
    Neutral("cjk_space_em", (0.0,), "every gap in a CJK line is a space"),
    # linetypes
    Neutral("toc_last_page", (0,), "no contents looked for"),
    _scaled("toc_min_entries"),
    _scaled("lt_list_min_entries"),
    _scaled("lt_list_indent_tolerance_em"),
    Neutral("lt_note_mark_max_size", (0.0,), "no note numbers open items"),
    _scaled("table_min_gap_em"),
    _scaled("table_min_columns"),
    _scaled("table_min_rows"),
    Neutral("table_min_pair_rows", (BIG,), "no table of two columns"),
    _scaled("heading_max_level"),
    Neutral("heading_min_pages", (1,), "every numbered heading rule counts"),
    Neutral("heading_style_min_pages", (0,), "every heading style opens a level"),
    Neutral("heading_style_min_headings", (0,), "every first-page style opens a level"),
    Neutral("heading_outgrow_ratio", (BIG,), "no line outgrows the line above"),
    Neutral("heading_display_size_ratio", (BIG,), "no style is display type"),
    _scaled("heading_max_words"),
    _scaled("heading_min_size_ratio"),
    _scaled("heading_min_bold_size_ratio"),
    _scaled("heading_min_space_em"),
)
"""The settings each ablated parameter is measured at, with the reason."""

NEUTRAL = tuple(replace(n, values=tuple(int(v) if isinstance(LayoutConfig().value(n.key), int)
                                        and isinstance(v, float) else v for v in n.values))
                for n in NEUTRAL)

NOT_ABLATED: dict[str, str] = {
    **{f.name: "budget or limit" for f in fields(_SECTIONS["sources"])  # type: ignore[arg-type]
       if f.name.startswith(("page_", "image_max", "convert_"))},
    "image_dpi": "input resolution (image inputs only)",
    "image_max_area": "extraction (figures against backgrounds), fixed with the glyphs",
    "stream_chunk_pages": "speed and memory knob (same result by design)",
    "stream_whole_chunks": "speed and memory knob (same result by design)",
    "regex_timeout": "limit (a profile's regular expressions)",
    "furniture_window_pages": "speed knob (documents here are shorter than the window)",
    "heading_toc_incl_no_ctx": "output choice (`<name>.toc.json`)",
    "heading_rules_file": "path (a user's heading rules)",
    **{f.name: "NLP output choice" for f in fields(_SECTIONS["nlp"])},  # type: ignore[arg-type]
    **{f.name: "OCR: fixed with the glyphs (read once)"
       for f in fields(_SECTIONS["ocr"])},  # type: ignore[arg-type]
}
"""The parameters not ablated, and why."""


# --------------------------------------------------------------------------- reading once

@dataclass(frozen=True, slots=True)
class Labelled:
    """A document with labelled pages: its truth, the pages read (those labelled and their
    neighbours), their glyphs read once, and the words of the pages read by OCR."""

    name: str
    truth: DocumentTruth
    count: int
    wanted: tuple[int, ...]
    context: tuple[int, ...]
    risks: Mapping[int, Any]
    glyphs: Mapping[int, PageGlyphs]
    scanned: Mapping[int, tuple[PageGlyphs, tuple[Word, ...], OcrQuality]]
    words: Mapping[int, tuple[Word, ...]]
    """Each page's words at the reading configuration's words section."""
    profile: Profile | None = None

    @property
    def profiled(self) -> frozenset[str]:
        """The keys measured on the document read with its profile: the profile
        section's, and those the profile sets."""
        default = LayoutConfig()
        return _PROFILE_KEYS | {key for key in default.known_keys()
                                if self.config.value(key) != default.value(key)}

    @property
    def config(self) -> LayoutConfig:
        """The configuration the document is read with (its profile's, or the defaults)."""
        return self.profile.config if self.profile else LayoutConfig()


def _read_once(truth: DocumentTruth, profile: Profile | None = None) -> Labelled:
    """The glyphs of ``truth``'s labelled pages and their neighbours, read once."""
    config = profile.config if profile else LayoutConfig()
    path = truth.source
    wanted = tuple(sorted({p.page for p in truth.pages if p.ordered or p.types is not None}))
    with open_source(path, DEFAULT_ENGINE) as source:
        count = source.page_count
        risks = check_structure(path, config.sources)
        first = 1 if profile and profile.sections else None
        context = tuple(sorted({q for p in wanted
                                for q in range(first or p - _CONTEXT, p + _CONTEXT + 1)
                                if 1 <= q <= count}))
        glyphs = {n: g for n, g in zip(context, source.pages(list(context)), strict=True)}
    scanned, made = {}, {}
    for number, g in glyphs.items():
        made[number] = words = words_from_glyphs(g.glyphs, config.words)
        if is_scanned(path, g, words, config):
            scanned[number] = ocr_scanned_page(path, g, words, config)
    name = truth.path.name.removesuffix(".truth.json") + (" (profile)" if profile else "")
    return Labelled(name, truth, count, wanted, context, risks, glyphs, scanned, made,
                    profile)


def _cached_read(labelled: Labelled, job: Job, states: Mapping[int, object], given: None
                 ) -> Iterator[tuple[int, ReadPage, _Sent]]:
    """The pipeline's first step (:func:`layoutkit.pipeline.read_pages`) on glyphs read
    once: words made with ``job``'s configuration (a scanned page keeps its OCR words),
    a profile's ignored regions taken out, the candidate furniture lines found."""
    config = job.config
    for number in states:
        g = labelled.glyphs[number]
        quality = None
        if number in labelled.scanned:
            g, words, quality = labelled.scanned[number]
        elif config.words == labelled.config.words:
            words = labelled.words[number]
        else:
            words = words_from_glyphs(g.glyphs, config.words)
        has_words = bool(words)
        if job.profile:
            from layoutkit.profile.stage import without_ignored

            words = without_ignored(job.profile, g, words, job.count, config)
        edges = edge_lines(words, g.height, config, g.label or str(g.page_no))
        yield number, ReadPage(replace(g, glyphs=NO_GLYPHS), words, edges), \
            _Sent(edges, quality, has_words, g.unreadable)


@cache
def _ruled(path: Path, pages: tuple[int, ...]) -> tuple[Any, ...]:
    """The ruled tables of ``pages`` (they depend on no parameter), found once."""
    return tuple(find_ruled_tables(path, list(pages)))


def _laid_out(labelled: Labelled, config: LayoutConfig) -> Document:
    """The labelled pages laid out under ``config`` (not typed), as :func:`layoutkit.parse`
    does after reading (:func:`layoutkit.pipeline._document`), from glyphs read once."""
    path = labelled.truth.source
    job = Job(path, DEFAULT_ENGINE, labelled.count, labelled.wanted, config,
              labelled.profile, labelled.risks)
    context = list(labelled.context)
    with collector_paused(), open_shares([dict.fromkeys(context)], path) as kept:
        read = kept.run(partial(_cached_read, labelled, job), None)
        ocr, runs = _decided(job, context, read)
        prepared = kept.run(EachPage(partial(prepare_page, job)), runs)
        grid = shared_gutters([prepared[n].gutters for n in context], config.gutters)
        # without a profile no section runs from page to page: the pages read for their
        # neighbours' sake need no lay-out (the pipeline segments them all the same)
        laid_out, _ = _lay_out(kept, job, context if labelled.profile else list(job.wanted),
                               grid)
        ruled = tuple(n for n in job.wanted if prepared[n].gridded)
        return Document(path, tuple(laid_out[n] for n in job.wanted), job.count,
                        _ruled(path, ruled), tuple(ocr))


def _typed(labelled: Labelled, document: Document, config: LayoutConfig) -> Document:
    """The laid-out ``document`` typed under ``config`` (its line types alone depend on
    the linetypes section: a setting of it types the default lay-out again)."""
    job = Job(document.path, DEFAULT_ENGINE, labelled.count, labelled.wanted, config,
              labelled.profile, labelled.risks)
    pages = {page.page_no: page for page in document.pages}
    with collector_paused(), open_shares([pages], document.path) as kept:
        return retyped(document, line_types(
            document, runner(kept, config.linetypes, partial(typing_of, job)),
            config.linetypes))


def _parsed(labelled: Labelled, config: LayoutConfig, typing_only: bool) -> Document:
    """The labelled pages laid out and typed under ``config``; with ``typing_only``, the
    default lay-out (kept from before the workers were forked) typed under it."""
    untyped = _UNTYPED.get(labelled.name) if typing_only else None
    if untyped is None:
        untyped = _laid_out(labelled, config)
    return _typed(labelled, untyped, config)


# --------------------------------------------------------------------------- scoring

@dataclass(frozen=True, slots=True)
class Scores:
    """One document read under one setting: found, order and leak of its pages labelled
    for reading order combined, and its line-type scores per class."""

    reading: PageScore
    types: Mapping[str, TypeScore]


def _scored(labelled: Labelled, config: LayoutConfig, typing_only: bool = False) -> Scores:
    """``labelled`` read under ``config`` (see :func:`_parsed`) and scored."""
    try:
        document = _parsed(labelled, config, typing_only)
    except Exception:  # a setting that breaks a document scores it as nothing read
        pages = {}
    else:
        pages = {page.page_no: page for page in document.pages}
    reading = combine(score_truth(pages[p.page].text() if p.page in pages else "", p)
                      for p in labelled.truth.pages if p.ordered)
    types = dict.fromkeys(CORPUS_CLASSES, TypeScore(0, 0, 0))
    for p in labelled.truth.pages:
        if p.types is not None and p.page in pages and labelled.profile is None:
            found, _ = corpus_page_types(pages[p.page], p.types)
            types = {kind: types[kind] + found[kind] for kind in CORPUS_CLASSES}
    return Scores(reading, types)


_DOCUMENTS: tuple[Labelled, ...] = ()
"""The documents read once, inherited by the worker processes (forked)."""

_UNTYPED: dict[str, Document] = {}
"""The documents without a profile laid out at the defaults, not typed, inherited
likewise: the settings of the linetypes section only type them again."""


def _setting(task: tuple[str, Any]) -> tuple[str, Any, dict[str, Scores], float]:
    """Every document read with one parameter (``task``: key and value; ("", None): the
    defaults) set, its scores by document, and the seconds it took."""
    key, value = task
    started = time.perf_counter()
    scores = {}
    for labelled in _DOCUMENTS:
        if key and key not in (labelled.profiled if labelled.profile else _PLAIN_KEYS):
            continue
        # a limit, not measured: raised so that a search of a profile's patterns on a
        # loaded machine is not taken for catastrophic backtracking
        own = (labelled.profile.config if labelled.profile else LayoutConfig()).replace(
            regex_timeout=_REGEX_TIMEOUT)
        scores[labelled.name] = _scored(labelled, own.replace(**{key: value}) if key else own,
                                        not key or key in _TYPING_KEYS)
    return key, value, scores, time.perf_counter() - started


_REGEX_TIMEOUT = 60.0
"""The seconds a search of a profile's regular expression may take while measuring."""

_PROFILE_KEYS = frozenset(f.name for f in fields(_SECTIONS["profile"]))  # type: ignore[arg-type]
_SECTION_OF = {f.name: name for name, s in _SECTIONS.items()
               for f in fields(s)}  # type: ignore[arg-type]
_QUICKEST = ("linetypes", "reading", "furniture", "gutters", "words", "profile")
_PLAIN_KEYS = frozenset(LayoutConfig.known_keys()) - _PROFILE_KEYS
_TYPING_KEYS = frozenset(f.name for f in fields(_SECTIONS["linetypes"]))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- effects

def _f1(types: Mapping[str, Mapping[str, TypeScore]]) -> tuple[float, dict[str, float]]:
    """The pooled F1 over the four classes (their scores summed) and each class's."""
    pooled = {kind: sum((t[kind] for t in types.values()), TypeScore(0, 0, 0))
              for kind in CORPUS_CLASSES}
    return sum(pooled.values(), TypeScore(0, 0, 0)).f1, {k: s.f1 for k, s in pooled.items()}


@dataclass(frozen=True, slots=True)
class Effect:
    """What one setting changes against the defaults, on the documents it was run on."""

    key: str
    section: str
    value: Any
    why: str
    moved: tuple[str, ...]
    """The documents whose found, order, leak or line-type scores changed."""
    order: float
    found: float
    leak: float
    f1: float
    f1_class: str
    """The class whose F1 moved most, with its change ('' when none moved)."""
    worst: str
    """The document whose order (else found) dropped most, with the drop ('' if none)."""
    seconds: float

    @property
    def changes(self) -> bool:
        return bool(self.moved)


def effects(base: Mapping[str, Scores], runs: Sequence[tuple[str, Any, Mapping[str, Scores],
                                                                float]]) -> list[Effect]:
    """Each setting's :class:`Effect` against the defaults ``base``."""
    reasons = {n.key: n.why for n in NEUTRAL}
    section_of = {f.name: name for name, s in _SECTIONS.items()
                  for f in fields(s)}  # type: ignore[arg-type]
    out = []
    for key, value, scores, seconds in runs:
        names = list(scores)
        before = {n: base[n] for n in names}
        pooled_a = combine(before[n].reading for n in names)
        pooled_b = combine(scores[n].reading for n in names)
        f1_a, classes_a = _f1({n: before[n].types for n in names})
        f1_b, classes_b = _f1({n: scores[n].types for n in names})
        moved = tuple(n for n in names if scores[n] != before[n])
        deltas = {k: classes_b[k] - classes_a[k] for k in CORPUS_CLASSES}
        top = max(deltas, key=lambda k: abs(deltas[k]))
        f1_class = f"{top} {deltas[top]:+.3f}" if abs(deltas[top]) > 5e-4 else ""
        drops = [(scores[n].reading.order - before[n].reading.order,
                  scores[n].reading.found - before[n].reading.found, n) for n in names]
        low = min(drops, default=(0.0, 0.0, ""))
        worst = f"{low[2]} order {low[0]:+.3f}" if low[0] < -5e-4 else ""
        if not worst:
            low = min(drops, key=lambda d: d[1], default=(0.0, 0.0, ""))
            worst = f"{low[2]} found {low[1]:+.3f}" if low[1] < -5e-4 else ""
        out.append(Effect(key, section_of[key], value, reasons[key], moved,
                          pooled_b.order - pooled_a.order, pooled_b.found - pooled_a.found,
                          pooled_b.leak - pooled_a.leak, f1_b - f1_a, f1_class, worst,
                          seconds))
    return out


# --------------------------------------------------------------------------- running

def _documents() -> list[Labelled]:
    """Every document with pages labelled for reading order or line types under
    :data:`ROOTS`, read once; and those of a publication with a bundled profile once
    more, with the profile (for the profile section's parameters and those the profile
    sets)."""
    out = []
    for path in truth_files(ROOTS):
        truth = load_truth(path)
        if not any(p.ordered or p.types is not None for p in truth.pages):
            continue
        out.append(_read_once(truth))
        profile = next((p for prefix, p in PROFILES.items()
                        if truth.source.name.startswith(prefix)), None)
        if profile is not None:
            out.append(_read_once(truth, loaded_profile(profile)))
    return out


@dataclass(frozen=True, slots=True)
class Measured:
    """An ablation run: every setting's effect, the documents and pages read, and the
    seconds taken (reading once; every setting; in all)."""

    effects: list[Effect]
    documents: int
    pages: int
    reading: float
    total: float
    jobs: int


def measure(jobs: int = 2, keys: Sequence[str] | None = None, raw: Path | None = None
            ) -> Measured:
    """Every setting of :data:`NEUTRAL` (or of the ``keys`` named) measured against the
    defaults, in ``jobs`` worker processes forked once the documents are read; each
    setting's scores appended to the file ``raw`` (when given) as it is measured, and
    those already there taken from it (an interrupted run resumes; the glyphs read once
    are kept beside it, in ``raw.documents``)."""
    global _DOCUMENTS
    started = time.perf_counter()
    kept = raw.with_name(raw.name + ".documents") if raw is not None else None
    if kept is not None and kept.is_file():
        _DOCUMENTS = pickle.loads(kept.read_bytes())
    else:
        _DOCUMENTS = tuple(_documents())
        if kept is not None:
            kept.write_bytes(pickle.dumps(_DOCUMENTS, pickle.HIGHEST_PROTOCOL))
    _UNTYPED.update((d.name, _laid_out(d, LayoutConfig())) for d in _DOCUMENTS
                    if d.profile is None)
    read = time.perf_counter() - started
    print(f"ablation: {len(_DOCUMENTS)} documents read in {read:.0f} s", file=sys.stderr)
    chosen = [n for n in NEUTRAL if keys is None or n.key in keys]
    runs = _kept(raw)
    done = {(r[0], repr(r[1])) for r in runs}
    # the parameters' first settings first, by section from the quickest to re-run (line
    # types alone) to the slowest (words, then a profile's pages), then their second
    first = sorted(chosen, key=lambda n: _QUICKEST.index(_SECTION_OF[n.key]))
    tasks = [t for t in [("", None)] + [(n.key, n.values[0]) for n in first]
             + [(n.key, v) for n in first for v in n.values[1:]]
             if (t[0], repr(t[1])) not in done]
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for count, result in enumerate(pool.imap_unordered(_setting, tasks), 1):
            runs.append(result)
            if raw is not None:
                with raw.open("ab") as file:
                    pickle.dump(result, file)
            print(f"ablation: {count}/{len(tasks)} {result[0] or 'defaults'}={result[1]!r} "
                  f"{result[3]:.0f} s", file=sys.stderr)
    base = next(r[2] for r in runs if not r[0])
    order = {(n.key, repr(v)): k for k, (n, v) in
             enumerate((n, v) for n in chosen for v in n.values)}
    settings = sorted((r for r in runs if (r[0], repr(r[1])) in order),
                      key=lambda r: order[(r[0], repr(r[1]))])
    pages = sum(len(d.wanted) for d in _DOCUMENTS)
    return Measured(effects(base, settings), len(_DOCUMENTS), pages, read,
                    time.perf_counter() - started, jobs)


def _kept(raw: Path | None) -> list[tuple[str, Any, dict[str, Scores], float]]:
    """The settings already measured in the file ``raw`` (none when it is not given or
    does not exist)."""
    runs: list[tuple[str, Any, dict[str, Scores], float]] = []
    if raw is None or not raw.is_file():
        return runs
    with raw.open("rb") as file:
        while True:
            try:
                runs.append(pickle.load(file))
            except EOFError:
                return runs


def _value(value: Any) -> str:
    if isinstance(value, int | float) and value >= BIG:
        return "never (1e9)"
    if isinstance(value, str):
        return f"`{value}`"
    return f"{value:g}" if isinstance(value, float) else str(value)


def table(measured: Measured) -> list[str]:
    """The markdown table: one row a setting."""
    lines = ["| parameter | section | setting | why | documents moved | Δ order | Δ found "
             "| Δ leak | Δ F1 (class moved most) | worst document |",
             "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- | --- |"]
    for e in measured.effects:
        f1 = f"{e.f1:+.3f}" + (f" ({e.f1_class})" if e.f1_class else "")
        lines.append(f"| `{e.key}` | {e.section} | {_value(e.value)} | {e.why} | "
                     f"{len(e.moved)} | {e.order:+.3f} | {e.found:+.3f} | {e.leak:+.3f} | "
                     f"{f1} | {e.worst or '–'} |")
    return lines


def unchanged(measured: Measured) -> list[str]:
    """The parameters none of whose settings moved any figure."""
    by_key: dict[str, bool] = {}
    for e in measured.effects:
        by_key[e.key] = by_key.get(e.key, False) or e.changes
    return [k for k, moved in by_key.items() if not moved]


def section(measured: Measured) -> list[str]:
    """The report's section: what was measured, the table, the parameters that changed
    nothing, and those not ablated."""
    still = unchanged(measured)
    minutes = measured.total / 60
    not_ablated: dict[str, list[str]] = {}
    for key, why in NOT_ABLATED.items():
        not_ablated.setdefault(why, []).append(f"`{key}`")
    return [TITLE, "",
            "Each parameter of the sections that shape reading and typing set to its neutral"
            " value (its rule never fires), or halved and doubled where it has none, and every"
            f" labelled page read again: {measured.documents} documents, {measured.pages}"
            " labelled pages (the development corpus, the labelled real pages, the held-out"
            " documents; the profile section's parameters, and those a bundled profile sets,"
            " on the publications with a bundled profile too, read with it)"
            " (`benchmarks/ablation.py`). Δ order, found and leak are"
            " pooled over the documents; Δ F1 is the pooled F1 of headings, contents, list"
            " items and tables together (the class that moved most in brackets); worst"
            " document: the largest drop in order (else found). Glyphs read once"
            f" ({measured.reading:.0f} s), each setting re-running the stages after"
            f" extraction; {minutes:.0f} minutes in all with {measured.jobs} worker processes"
            " at `nice -n 10` on a 2-core machine shared with other work.", "",
            *table(measured), "",
            f"Parameters no setting moved ({len(still)}): "
            + (", ".join(f"`{k}`" for k in still) or "none") + ".", "",
            "Not ablated: " + "; ".join(f"{why}: {', '.join(keys)}"
                                          for why, keys in not_ablated.items()) + "."]


def carried(report: Path) -> list[str]:
    """The section as ``report`` has it, or a line saying it was not measured:
    ``benchmarks.run`` without ``--ablation`` carries it over."""
    return carried_section(report, TITLE, "`python -m benchmarks.run --ablation` or "
                                          "`python -m benchmarks.ablation`")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ablation",
                                     description="What each parameter changes on the "
                                                 "labelled pages.")
    parser.add_argument("--update", type=Path, metavar="RESULTS_MD",
                        help="replace (or add) this section of the report")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--keys", nargs="*", help="ablate only these parameters")
    parser.add_argument("--json", type=Path, help="also write every setting's effect here")
    parser.add_argument("--raw", type=Path, help="keep every setting's scores in this file "
                        "as it is measured, and resume from it")
    args = parser.parse_args(argv)
    measured = measure(args.jobs, args.keys, args.raw)
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(e) for e in measured.effects], indent=1,
                                        default=str), encoding="utf-8")
    text = "\n".join(section(measured))
    if args.update is None:
        print(text)
    else:
        update_section(args.update, TITLE, text, "## Truth lines that no system finds")
    return 0


if __name__ == "__main__":
    # run as the package's module, so that what the workers and the ``--raw`` file pickle
    # names benchmarks.ablation's classes, not this script's
    from benchmarks.ablation import main as _main

    raise SystemExit(_main())
