"""Compare layoutkit's reading order and speed with peer extractors; write RESULTS.md.

Usage::

    python -m benchmarks.run [--quick] [--out benchmarks/RESULTS.md]

Four parts, each a table in the report (see benchmarks/README.md for what the numbers
mean):

1. the synthetic gazette suite (``fixtures.synthetic.suite``), whose truth is known
   exactly, aggregated per content-stream order and per layout case, and the varied
   synthetic layouts (``fixtures.varied.suite``, ``benchmarks/varied.py``);
2. every hand-labelled real page under ``regions/``, one row per page;
3. the wall time to extract the whole 38-page Cleveland City Record of 2016-04-27,
   as a ratio to pdfminer.six measured in the same run;
4. where that time goes: each glyph engine's stages and busiest functions
   (``benchmarks/stages.py``), and layout time against page density
   (``benchmarks/density.py``).
5. the 48-page City Record of 2004-06-09 parsed with ``jobs=1`` and ``jobs=2``
   (``benchmarks/jobs.py``).
6. with ``--ablation``, what each parameter changes on the labelled pages
   (``benchmarks/ablation.py``; about an hour on 2 shared cores, so without the flag
   the section is carried over from the report as it was last measured).

``--quick`` runs only synthetic seed 0 and skips the speed parts (3 to 5).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import resource
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import TypeVar

from benchmarks.ablation import carried as carried_ablation
from benchmarks.ablation import measure as measure_ablation
from benchmarks.ablation import section as ablation_section
from benchmarks.batch import BAR as BATCH_BAR
from benchmarks.batch import TITLE as BATCH_TITLE
from benchmarks.batch import BatchTiming, ceiling
from benchmarks.batch import measure as measure_batch
from benchmarks.batch import section as batch_section
from benchmarks.corpus import CorpusRow
from benchmarks.corpus import measure as measure_corpus
from benchmarks.corpus import section as corpus_section
from benchmarks.density import DensityRow
from benchmarks.density import measure as measure_density
from benchmarks.density import table as density_table
from benchmarks.fastreaders import FastRow
from benchmarks.fastreaders import measure as measure_fast
from benchmarks.fastreaders import section as fast_section
from benchmarks.figures import carried as carried_figures
from benchmarks.figures import section as figures_section
from benchmarks.heldout import measure_heldout
from benchmarks.heldout import section as heldout_section
from benchmarks.jobs import JOBS_BAR, JOBS_PDF, JobsRun
from benchmarks.jobs import measure as measure_jobs
from benchmarks.jobs import ratio as jobs_ratio
from benchmarks.jobs import table as jobs_table
from benchmarks.learned import carried as carried_learned
from benchmarks.learned import section as learned_section
from benchmarks.linetypes import Row as LineTypeRow
from benchmarks.linetypes import measure as measure_linetypes
from benchmarks.linetypes import section as linetype_section
from benchmarks.mined import measure_mined
from benchmarks.mined import section as mined_section
from benchmarks.nlp import Row as NlpRow
from benchmarks.nlp import measure as measure_nlp
from benchmarks.nlp import tables as nlp_tables
from benchmarks.ocr import TITLE as OCR_TITLE
from benchmarks.ocr import OcrRun
from benchmarks.ocr import measure as measure_ocr
from benchmarks.ocr import section as ocr_section
from benchmarks.paragraphs import carried as carried_paragraphs
from benchmarks.paragraphs import section as paragraphs_section
from benchmarks.peers import (
    LAYOUTKIT_CLI,
    PDFMINER_CLI,
    REPO,
    SPEED_PDF,
    System,
    extract_all,
    extract_docs,
    systems,
)
from benchmarks.profiles import ProfileRow
from benchmarks.profiles import measure as measure_profiles
from benchmarks.profiles import section as profiles_section
from benchmarks.stages import StageTimes
from benchmarks.stages import measure as measure_stages
from benchmarks.stages import table as stages_table
from benchmarks.usertrain import carried as carried_usertrain
from benchmarks.usertrain import section as usertrain_section
from benchmarks.varied import VariedRow
from benchmarks.varied import measure as measure_varied
from benchmarks.varied import section as varied_section
from fixtures.synthetic import STREAM_ORDERS, suite
from layoutkit.tools.evaluate import (
    PageScore,
    combine,
    reduce,
    score_page,
    score_truth,
    scored_lines,
)
from layoutkit.tools.truth import PageTruth, labelled_pages

"""Content-stream orders of the synthetic suite, in report order (others follow, sorted)."""

SEEDS = (0, 1)
"""Seeds of the synthetic suite in a full run (each seed: every case in every stream order)."""

QUICK_SEEDS = (0,)
"""Seeds of the synthetic suite with ``--quick``."""


STAGE_ENGINES = ("pdfium", "pdfminer")
"""The glyph engines whose stages the report times (see ``benchmarks/stages.py``)."""

STAGES_BEFORE = REPO / "benchmarks" / "stages-before.md"
JOBS_BEFORE = REPO / "benchmarks" / "jobs-before.md"
"""Where the time went before the current engines' speed-ups, measured once with
``benchmarks/stages.py`` on the older code and kept for comparison; the report
includes it after the current profile."""

SPEED_ROUNDS = 2
"""Times a system extracts the speed document (see :func:`_speed_runs`); the best counts."""


@dataclass(frozen=True)
class Bar:
    """A target for layoutkit: ``metric`` at least ``limit`` (at most, if ``at_most``)."""

    metric: str
    limit: float
    at_most: bool = False

    def met(self, value: float) -> bool:
        """Return whether ``value`` meets the bar."""
        return value <= self.limit if self.at_most else value >= self.limit

    def describe(self) -> str:
        """Return the bar as written in the report, e.g. ``order ≥ 0.99``."""
        return f"{self.metric} {'≤' if self.at_most else '≥'} {self.limit:g}"


SYNTHETIC_BARS = (Bar("order", 0.99), Bar("found", 0.99), Bar("leak", 0.01, at_most=True))
REAL_BARS = (Bar("order", 0.97), Bar("found", 0.97))
CORPUS_BARS = (Bar("order", 0.98), Bar("found", 0.99), Bar("leak", 0.02, at_most=True))
"""The development corpus pooled (issue 17); each document's order must also be within
``CORPUS_PEER_MARGIN`` of the best peer's on it, or above it."""
CORPUS_PEER_MARGIN = 0.01
VARIED_BARS = (Bar("order", 0.995), Bar("found", 0.995))
"""The varied synthetic layouts: every stream order and every layout case."""
SPEED_BAR = Bar("wall time / pdfminer.six", 1.15, at_most=True)
ENGINE_SPEED_BARS = {  # the speed issue's bars: pdfium 6 times faster, pdfminer at par
    "layoutkit": Bar("wall time / pdfminer.six", 0.15, at_most=True),
    "layoutkit pdfminer": Bar("wall time / pdfminer.six", 1.1, at_most=True),
}
CLI_SPEED_BAR = Bar("wall time / pdfminer.six CLI", 0.167, at_most=True)
"""The pdfium bar for the commands, each started from a shell: ``layoutkit text`` against
pdfminer.six's ``pdf2txt.py``, interpreter start-up and imports included on both sides."""


@dataclass(frozen=True)
class Scored:
    """One page's score for one system, with the labels the tables group by.

    ``stream_order`` and ``case`` are those of a synthetic document, empty for real pages.
    """

    system: str
    page: str
    score: PageScore
    stream_order: str = ""
    case: str = ""


@dataclass(frozen=True)
class Timing:
    """The best of ``runs`` runs of one system on the speed document."""

    system: str
    note: str
    runs: int
    wall: float
    cpu: float
    chars: int


@dataclass(frozen=True)
class Run:
    """Everything one benchmark run measured, ready to render."""

    systems: list[System]
    skipped: dict[str, str]
    synthetic: list[Scored]
    synthetic_note: str
    real: list[Scored]
    truths: list[PageTruth]
    outputs: dict[tuple[str, str, int], str]
    speed: list[Timing]
    stages: list[StageTimes]
    density: list[DensityRow]
    jobs: list[JobsRun]
    errors: list[str]
    profiles: list[ProfileRow]
    corpus: list[CorpusRow]
    linetypes: list[LineTypeRow]
    nlp: list[NlpRow]
    ocr: OcrRun | None
    batch: list[BatchTiming] = field(default_factory=list)
    machine: float = 0.0
    """The batch section's ceiling: 2 processes against 1 on a CPU-bound loop."""
    varied: list[VariedRow] = field(default_factory=list)
    """Every system on the varied synthetic layouts (``benchmarks/varied.py``)."""
    heldout: list[CorpusRow] = field(default_factory=list)
    """Every system on the held-out documents (``benchmarks/heldout.py``): reported, no bar."""
    ablation: list[str] = field(default_factory=list)
    """The ablation section (``benchmarks/ablation.py``), measured or carried over."""
    fast: list[FastRow] = field(default_factory=list)
    """layoutkit ``text`` against pdftotext and PyMuPDF (``benchmarks/fastreaders.py``)."""
    learned: list[str] = field(default_factory=list)
    """The learned line types against the rules (``benchmarks/learned.py``) and training
    on a publication's own pages (``benchmarks/usertrain.py``), measured, or carried over
    with ``--quick``."""
    mined: list[CorpusRow] = field(default_factory=list)
    """Every system on the documents mined from tagged PDFs (``benchmarks/mined.py``)."""
    figures: list[str] = field(default_factory=list)
    """Captions found and linked to figures (``benchmarks/figures.py``), measured, or
    carried over with ``--quick``."""
    paragraphs: list[str] = field(default_factory=list)
    """Paragraph starts and footnotes in the text outputs (``benchmarks/paragraphs.py``),
    measured, or carried over with ``--quick``."""


def run_synthetic(
    runnable: Sequence[System], seeds: Sequence[int], errors: list[str]
) -> tuple[list[Scored], str]:
    """Return every synthetic page's score for every system, and a note on the suite used."""
    docs = [doc for seed in seeds for doc in suite(seed)]
    results: list[Scored] = []
    for doc, extracted in zip(docs, extract_docs(docs, runnable, errors), strict=True):
        for system, texts in zip(runnable, extracted, strict=True):
            for page in doc.pages:
                text = texts.get(page.page_no, "")
                score = score_page(text, page.lines, page.furniture, page.paragraphs)
                label = f"{doc.name} p{page.page_no}"
                results.append(Scored(system.name, label, score, doc.stream_order, doc.case))
    pages = sum(len(doc.pages) for doc in docs)
    note = f"seed {', '.join(map(str, seeds))}: {len(docs)} documents, {pages} pages"
    return results, note


def run_real(
    runnable: Sequence[System], truths: Sequence[PageTruth], errors: list[str]
) -> tuple[list[Scored], dict[tuple[str, str, int], str]]:
    """Return every labelled page's score for every system, and the texts scored.

    Each system extracts each document once, for all its labelled pages together.
    """
    by_document: dict[str, list[PageTruth]] = defaultdict(list)
    for truth in truths:
        by_document[truth.document].append(truth)
    jobs = [
        (system.name, REPO / "fixtures" / "pdf" / document, tuple(t.page for t in pages))
        for document, pages in by_document.items()
        for system in runnable
    ]
    outputs = iter(extract_all(jobs, errors))
    results: list[Scored] = []
    texts_scored: dict[tuple[str, str, int], str] = {}
    for document, pages in by_document.items():
        for system in runnable:
            texts = next(outputs)
            for truth in pages:
                text = texts.get(truth.page, "")
                texts_scored[(system.name, document, truth.page)] = text
                label = f"{Path(document).stem} p{truth.page}"
                results.append(Scored(system.name, label, score_truth(text, truth)))
    return results, texts_scored


def _time_once(work: Callable[[Path], int], path: Path) -> tuple[float, float, int]:
    """Return (wall seconds, CPU seconds including child processes, characters) of one run."""
    gc.collect()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time()
    wall = time.perf_counter()
    chars = work(path)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu += (after.ru_utime - children.ru_utime) + (after.ru_stime - children.ru_stime)
    return wall, cpu, chars


def _speed_runs(name: str) -> int:
    """Return how many times the system ``name`` extracts the speed document.

    layoutkit and pdfminer.six, whose ratio is the speed bar, and the fast peers run
    :data:`SPEED_ROUNDS` times; pdfplumber, shown for context only and the slowest,
    runs once to keep the whole benchmark within a few minutes.
    """
    return 1 if name == "pdfplumber" else SPEED_ROUNDS


def run_speed(runnable: Sequence[System], errors: list[str]) -> list[Timing]:
    """Return the best wall and CPU time of each system on :data:`SPEED_PDF`.

    The systems take turns, round after round, so that a change in machine load during
    the run affects all of them alike.  Nothing else of the benchmark runs meanwhile.
    """
    timed = list(runnable)
    if any(s.name == "layoutkit" for s in runnable):
        timed.insert(1, LAYOUTKIT_CLI)
    if any(s.name == "pdfminer.six" for s in runnable) and PDFMINER_CLI.missing() is None:
        timed.insert(timed.index(next(s for s in timed if s.name == "pdfminer.six")) + 1,
                     PDFMINER_CLI)
    best: dict[str, tuple[float, float, int]] = {}
    for round_no in range(SPEED_ROUNDS):
        for system in timed:
            if round_no >= _speed_runs(system.name):
                continue
            try:
                wall, cpu, chars = _time_once(system.whole, SPEED_PDF)
            except Exception as error:  # reported, and the system gets no speed row
                errors.append(f"{system.name} on {SPEED_PDF.name}: {error}")
                continue
            old_wall, old_cpu, _ = best.get(system.name, (wall, cpu, chars))
            best[system.name] = (min(wall, old_wall), min(cpu, old_cpu), chars)
    return [
        Timing(s.name, s.note, _speed_runs(s.name), *best[s.name]) for s in timed if s.name in best
    ]


def _ordered(values: Iterable[str], first: Sequence[str] = ()) -> list[str]:
    """Return the distinct ``values``: those in ``first`` in its order, then the rest sorted."""
    distinct = set(values)
    return [v for v in first if v in distinct] + sorted(distinct - set(first))


def _f(value: float | None) -> str:
    """Return a share with three decimals, or a dash when there is none."""
    return "–" if value is None else f"{value:.3f}"


def _mark(ok: bool) -> str:
    """Return how the report writes a bar that is met (``ok``) or missed."""
    return "pass" if ok else "FAIL"


def _metric(score: PageScore, name: str) -> float:
    """Return the share ``name`` ("found", "order" or "leak") of ``score``."""
    return {"found": score.found, "order": score.order, "leak": score.leak}[name]


def _synthetic_table(results: Sequence[Scored], names: Sequence[str], by_case: bool) -> list[str]:
    """Return the markdown rows of the synthetic table, by stream order or ``by_case``."""

    def key(r: Scored) -> str:
        return r.case if by_case else r.stream_order

    keys = _ordered(map(key, results), () if by_case else STREAM_ORDERS)
    rows = [
        f"| {'case' if by_case else 'stream order'} | system | pages | lines | found | order "
        "| leak | paragraphs found |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for k in keys:
        for name in names:
            scores = [r.score for r in results if key(r) == k and r.system == name]
            if scores:
                total = combine(scores)
                rows.append(
                    f"| {k} | {name} | {len(scores)} | {total.lines} | {_f(total.found)} | "
                    f"{_f(total.order)} | {_f(total.leak)} | {_f(total.paragraphs_found)} |"
                )
    return rows


def _real_table(run: Run, names: Sequence[str]) -> list[str]:
    """Return the markdown rows of the real-page table, then one combined row per system."""
    rows = [
        "| page | system | lines | found | order | leak |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    unchecked = {f"{Path(t.document).stem} p{t.page}" for t in run.truths if t.checked == "TODO"}
    labels = [f"{Path(t.document).stem} p{t.page}" for t in run.truths]
    for label in labels:
        shown = f"{label} (truth unchecked)" if label in unchecked else label
        for name in names:
            for r in run.real:
                if r.page == label and r.system == name:
                    s = r.score
                    rows.append(
                        f"| {shown} | {name} | {s.lines} | {_f(s.found)} | {_f(s.order)} | "
                        f"{_f(s.leak)} |"
                    )
    for name in names:
        total = combine(r.score for r in run.real if r.system == name)
        rows.append(
            f"| **all {len(labels)} pages** | {name} | {total.lines} | {_f(total.found)} | "
            f"{_f(total.order)} | {_f(total.leak)} |"
        )
    return rows


def _speed_table(speed: Sequence[Timing]) -> list[str]:
    """Return the markdown rows of the speed table, ratios to pdfminer.six's best time."""
    base = next((t for t in speed if t.system == "pdfminer.six"), None)
    rows = [
        "| system | runs | best wall time (s) | wall / pdfminer.six | best CPU time (s) | "
        "CPU / pdfminer.six | characters out |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for t in speed:
        wall_ratio = f"{t.wall / base.wall:.3f}" if base else "–"
        cpu_ratio = f"{t.cpu / base.cpu:.3f}" if base else "–"
        rows.append(
            f"| {t.system} | {t.runs} | {t.wall:.3f} | {wall_ratio} | "
            f"{t.cpu:.3f} | {cpu_ratio} | {t.chars} |"
        )
    return rows


def _bars(run: Run) -> list[str]:
    """Return the report's bar lines for layoutkit, the first being the overall verdict."""
    checks: list[tuple[str, bool]] = []

    def check(part: str, bar: Bar, value: float) -> None:
        checks.append((f"{part}: {bar.metric} {value:.3f} (bar {bar.describe()})", bar.met(value)))

    mine = [r for r in run.synthetic if r.system == "layoutkit"]
    for group in _ordered((r.stream_order for r in mine), STREAM_ORDERS):
        total = combine(r.score for r in mine if r.stream_order == group)
        for bar in SYNTHETIC_BARS:
            check(f"synthetic {group}", bar, _metric(total, bar.metric))
    real = [r.score for r in run.real if r.system == "layoutkit"]
    if real:
        for bar in REAL_BARS:
            check("real pages, all combined", bar, _metric(combine(real), bar.metric))
            check("real pages, worst page", bar, min(_metric(r, bar.metric) for r in real))
    varied = [r for r in run.varied if r.system == "layoutkit"]
    for label, key in (("stream order", "stream_order"), ("case", "case")):
        groups = dict.fromkeys(getattr(r, key) for r in varied)
        for bar in VARIED_BARS:
            worst = min(((_metric(combine(r.score for r in varied if getattr(r, key) == g),
                                  bar.metric), g) for g in groups), default=None)
            if worst is not None:
                check(f"varied layouts, worst {label} ({worst[1]})", bar, worst[0])
    corpus = [r for r in run.corpus if r.system == "layoutkit"]
    if corpus:
        pooled = combine(r.score for r in corpus)
        for bar in CORPUS_BARS:
            check("development corpus, pooled", bar, _metric(pooled, bar.metric))
        peers = [r for r in run.corpus if not r.system.startswith("layoutkit")]
        behind = [(r.score.order - max(p.score.order for p in peers
                                      if p.document == r.document), r.document)
                  for r in corpus if any(p.document == r.document for p in peers)]
        if behind:
            gap, document = min(behind)
            check(f"development corpus, each document against the best peer (worst: "
                  f"{document})", Bar("order - best peer's", -CORPUS_PEER_MARGIN), gap)
    times = {t.system: t.wall for t in run.speed}
    if "pdfminer.six" in times:
        reference = times["pdfminer.six"]
        for name in ("layoutkit", "layoutkit CLI"):
            if name in times:
                check(f"speed, {name}", SPEED_BAR, times[name] / reference)
        for name, bar in ENGINE_SPEED_BARS.items():
            if name in times:
                check(f"speed, {name} (speed issue)", bar, times[name] / reference)
        if "layoutkit CLI" in times and "pdfminer.six CLI" in times:
            check("speed, layoutkit CLI (speed issue)", CLI_SPEED_BAR,
                  times["layoutkit CLI"] / times["pdfminer.six CLI"])
    if run.jobs:
        check("pages in parallel (speed issue)", Bar("wall jobs=1 / jobs=2", JOBS_BAR),
              jobs_ratio(run.jobs))
    if run.batch:
        check("batch, 2 workers", Bar("pages/s × 1 worker", BATCH_BAR),
              run.batch[-1].pages_per_second / run.batch[0].pages_per_second)
    if not checks:
        return ["**Bars for layoutkit: not measured** (layoutkit could not run)."]
    failed = sum(1 for _, ok in checks if not ok)
    verdict = "PASS" if not failed else f"FAIL ({failed} of {len(checks)} bars missed)"
    if not run.speed:
        verdict += ", speed not measured"
    return [f"**Bars for layoutkit: {verdict}**", ""] + [
        f"- {_mark(ok)}: {text}" for text, ok in checks
    ]


def _unfound(run: Run) -> list[str]:
    """Return the scored truth lines that no system found, one bullet each.

    A line that no extractor finds is more likely a labelling error (a typo, or text
    read from an image) than a failure of all of them.
    """
    bullets = []
    names = {r.system for r in run.real}
    for truth in run.truths:
        texts = [reduce(run.outputs.get((n, truth.document, truth.page), "")) for n in names]
        originals = {reduce(line): line for line in truth.lines}
        for line in scored_lines(truth.lines):
            if not any(line in text for text in texts):
                bullets.append(f"- `{truth.path.relative_to(REPO)}`: {originals[line]!r}")
    return bullets


def _versions() -> list[str]:
    """Return report lines naming the machine and the versions of everything measured."""
    libraries = []
    for package in ("pdfminer.six", "pdfplumber", "pymupdf", "numpy", "layoutkit"):
        try:
            libraries.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            libraries.append(f"{package} (not installed as a distribution)")
    poppler = subprocess.run(["pdftotext", "-v"], capture_output=True, text=True, check=False)
    first = (poppler.stderr or poppler.stdout).splitlines()
    libraries.append(first[0] if first else "pdftotext (version unknown)")
    return [
        f"- date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        f"- machine: {platform.platform()}, `nproc` = {len(os.sched_getaffinity(0))}",
        f"- python: {platform.python_version()}",
        f"- versions: {', '.join(libraries)}",
    ]


NOT_MEASURED = "Not measured in this run (`--quick`)."
"""What a section says when ``--quick`` skipped its measurement."""

_T = TypeVar("_T")


def _measured(title: str, measured: Sequence[_T],
              table: Callable[[Sequence[_T]], list[str]], intro: str) -> list[str]:
    """A report section: its title, then ``intro`` and the ``table`` of what was
    ``measured``, or :data:`NOT_MEASURED` when nothing was."""
    body = [intro, "", *table(measured)] if measured else [NOT_MEASURED]
    return ["", title, "", *body]


def render(run: Run, quick: bool) -> str:
    """Return the markdown report of ``run``."""
    names = [s.name for s in run.systems]
    lines = [
        "# Benchmark results",
        "",
        "Generated by `python -m benchmarks.run"
        + (" --quick`" if quick else "`")
        + "; see `benchmarks/README.md` for what each number means. Shares are micro-averages"
        " over all scored lines (found), line pairs (order) and furniture lines (leak).",
        "",
        *_versions(),
        "",
        *_bars(run),
        "",
        "## Systems",
        "",
        *[f"- **{s.name}**: {s.note}" for s in run.systems],
        *[f"- **{name}**: skipped, {why}" for name, why in sorted(run.skipped.items())],
        "",
        f"## Synthetic gazettes by stream order ({run.synthetic_note})",
        "",
        *_synthetic_table(run.synthetic, names, by_case=False),
        "",
        "## Synthetic gazettes by layout case (all stream orders)",
        "",
        *_synthetic_table(run.synthetic, names, by_case=True),
        "",
        f"## Labelled real pages ({len(run.truths)} pages)",
        "",
        *_real_table(run, names),
        "",
        *varied_section(run.varied),
        "",
        *corpus_section(run.corpus),
        "",
        *heldout_section(run.heldout),
        "",
        *mined_section(run.mined),
        "",
        *profiles_section(run.profiles),
        "",
        *(ocr_section(run.ocr) if run.ocr else [OCR_TITLE, "", NOT_MEASURED]),
    ]
    lines += _measured(
        "## Speed", run.speed, _speed_table,
        f"Whole document `{SPEED_PDF.relative_to(REPO)}`, best of the runs of each system,"
        " the systems taking turns; CPU time includes child processes.")
    if run.fast:
        lines += ["", *fast_section(run.fast)]
    lines += _measured(
        "## Where the time goes", run.stages, stages_table,
        f"Each engine on `{SPEED_PDF.relative_to(REPO)}`, stage by stage, one run"
        " (`benchmarks/stages.py`; run alone, after the speed table).")
    lines += ["", STAGES_BEFORE.read_text(encoding="utf-8").rstrip()]
    lines += ["", *(batch_section(run.batch, run.machine) if run.batch else
                    [BATCH_TITLE, "", NOT_MEASURED])]
    lines += _measured(
        "## Layout time against page density", run.density, density_table,
        "Layout stages alone (words to reading order) on synthetic three-column"
        " pages built as glyphs, best of 3 (`benchmarks/density.py`).")
    lines += _measured(
        "## Pages in parallel", run.jobs, jobs_table,
        f"`layoutkit.parse` on `{JOBS_PDF.relative_to(REPO)}` with 1 and 2 processes,"
        " each in a fresh interpreter, taking turns (`benchmarks/jobs.py`); CPU times of"
        " the best run.")
    lines += ["", JOBS_BEFORE.read_text(encoding="utf-8").rstrip()]
    lines += ["", *linetype_section(run.linetypes), "", *run.learned, "", *run.paragraphs, "",
              *run.figures, "", *nlp_tables(run.nlp)]
    if run.ablation:
        lines += ["", *run.ablation]
    unfound = _unfound(run)
    lines += ["", "## Truth lines that no system finds", ""]
    lines += unfound or ["None: every scored truth line is found by at least one system."]
    if run.errors:
        lines += ["", "## Errors", "", *[f"- {e}" for e in run.errors]]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark, write the report, and return the process exit status (0)."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.run",
        description="Compare layoutkit's reading order and speed with peer extractors.",
        epilog="See benchmarks/README.md for what the numbers mean.",
    )
    parser.add_argument(
        "--quick", action="store_true", help="synthetic seed 0 only, and no speed part"
    )
    parser.add_argument(
        "--out", type=Path, default=REPO / "benchmarks" / "RESULTS.md", help="report path"
    )
    parser.add_argument(
        "--ablation", action="store_true",
        help="measure what each parameter changes (about an hour); without it the "
        "section is carried over from the report")
    args = parser.parse_args(argv)

    candidates = systems()
    skipped = {s.name: why for s in candidates if (why := s.missing()) is not None}
    runnable = [s for s in candidates if s.name not in skipped]
    errors: list[str] = []
    truths = labelled_pages([REPO / "regions"])

    started = time.perf_counter()
    seeds = QUICK_SEEDS if args.quick else SEEDS
    synthetic, synthetic_note = run_synthetic(runnable, seeds, errors)
    print(f"synthetic: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    varied = measure_varied(runnable, errors)
    print(f"varied: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    real, outputs = run_real(runnable, truths, errors)
    print(f"real pages: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    corpus = measure_corpus(runnable, errors)
    print(f"corpus: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    heldout = measure_heldout(runnable, errors)
    print(f"held-out documents: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    mined = measure_mined(runnable, errors)
    print(f"mined documents: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    speed = [] if args.quick else run_speed(runnable, errors)
    fast = [] if args.quick else measure_fast()
    print(f"speed: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    stages = [] if args.quick else [measure_stages(engine, SPEED_PDF)
                                    for engine in STAGE_ENGINES]
    density = [] if args.quick else measure_density()
    jobs = [] if args.quick else measure_jobs()
    print(f"density and jobs: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    linetypes = measure_linetypes()
    print(f"line types: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    batch = [] if args.quick else measure_batch()
    machine = ceiling() if batch else 0.0
    ablation = ablation_section(measure_ablation()) if args.ablation else \
        carried_ablation(args.out)
    learned = carried_learned(args.out) if args.quick else learned_section()
    learned += ["", *(carried_usertrain(args.out) if args.quick else usertrain_section())]
    figures = carried_figures(args.out) if args.quick else figures_section()
    paragraphs = carried_paragraphs(args.out) if args.quick else paragraphs_section()
    print(f"ablation: {time.perf_counter() - started:.0f} s", file=sys.stderr)

    run = Run(runnable, skipped, synthetic, synthetic_note, real, truths, outputs, speed,
              stages, density, jobs, errors, measure_profiles(), corpus, linetypes, measure_nlp(),
              None if args.quick else measure_ocr(), batch, machine, varied, heldout, ablation,
              fast, learned, mined, figures, paragraphs)
    args.out.write_text(render(run, args.quick), encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
