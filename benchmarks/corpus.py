"""Reading order on the development corpus: documents from publishers the project had not
read before, labelled by hand (``regions/corpus/*.truth.json``, PDFs in ``fixtures/corpus/``).

Every system reads every labelled page; found, order and leak are scored as on the other
real pages, per document (its pages combined) and pooled.  The content-stream peers
(PyMuPDF's ``get_text()``, pypdfium2's ``get_text_range()``, ``pdftotext -raw``) give the
order a reader gets from the producer alone.  These are development figures: the
heuristics are tuned on these pages, and the project is measured on other documents it
never sees.  Run alone with ``python -m benchmarks.corpus [--update benchmarks/RESULTS.md]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.peers import REPO, System, extract_all, systems
from benchmarks.sections import section_main
from layoutkit.tools.evaluate import PageScore, combine, score_truth
from layoutkit.tools.truth import load_truth, truth_files

__all__ = ["CORPUS", "FIRST_READS", "TITLE", "CorpusRow", "measure", "section", "table"]

CORPUS = REPO / "regions" / "corpus"
"""The truth files of the development corpus."""

TITLE = "## Development corpus (other publishers, labelled by hand)"

FIRST_READS = REPO / "benchmarks" / "corpus-first-reads.md"
"""How documents added to the corpus read the first time, before anything was tuned on
them: measured once when they were added and kept, the section ending with it."""


@dataclass(frozen=True, slots=True)
class CorpusRow:
    """One system's reading of one corpus document: its labelled pages combined."""

    system: str
    document: str
    pages: int
    score: PageScore


def measure(runnable: Sequence[System] | None = None, errors: list[str] | None = None,
            root: Path = CORPUS) -> list[CorpusRow]:
    """Every runnable system's scores on every document labelled in the folder ``root``
    (the development corpus unless told; each system reads a document once, for all its
    labelled pages); a system that fails scores zero there and its error is appended to
    ``errors``."""
    runnable = [s for s in systems() if s.missing() is None] if runnable is None else runnable
    errors = [] if errors is None else errors
    truths = [load_truth(path) for path in truth_files([root])] if root.is_dir() else []
    labelled = [(truth, [p for p in truth.pages if p.ordered]) for truth in truths]
    jobs = [(system.name, truth.source, tuple(p.page for p in pages))
            for truth, pages in labelled for system in runnable]
    outputs = iter(extract_all(jobs, errors))
    rows = []
    for truth, pages in labelled:
        for system in runnable:
            texts = next(outputs)
            rows.append(CorpusRow(system.name, truth.source.stem, len(pages),
                                  combine(score_truth(texts.get(p.page, ""), p) for p in pages)))
    return rows


def table(rows: Sequence[CorpusRow]) -> list[str]:
    """Two markdown tables: each system pooled over the corpus, then the order (and
    found) of each system on each document."""
    names = list(dict.fromkeys(r.system for r in rows))
    documents = list(dict.fromkeys(r.document for r in rows))
    lines = ["| system | documents | pages | lines | found | order | leak |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in names:
        mine = [r for r in rows if r.system == name]
        pooled = combine(r.score for r in mine)
        lines.append(f"| {name} | {len(mine)} | {sum(r.pages for r in mine)} | {pooled.lines} | "
                     f"{pooled.found:.3f} | {pooled.order:.3f} | {pooled.leak:.3f} |")
    lines += ["", "Order (found) by document:", "",
              "| document | pages | lines | " + " | ".join(names) + " |",
              "| --- | ---: | ---: | " + " | ".join("---:" for _ in names) + " |"]
    for document in documents:
        mine = {r.system: r for r in rows if r.document == document}
        first = next(iter(mine.values()))
        cells = " | ".join(f"{mine[n].score.order:.3f} ({mine[n].score.found:.3f})"
                           for n in names)
        lines.append(f"| {document} | {first.pages} | {first.score.lines} | {cells} |")
    return lines


def section(rows: Sequence[CorpusRow]) -> list[str]:
    """The report's section: title, what was measured, the tables (or why there are none),
    then the kept first reads of documents added to the corpus (:data:`FIRST_READS`)."""
    intro = ("Hand-labelled pages of documents from publishers and producers the project had"
             " not read before (`benchmarks/corpus.py`; provenance in `fixtures/README.md`)."
             " Development figures: the heuristics are tuned on these pages. PyMuPDF,"
             " pypdfium2 and `pdftotext -raw` give the content stream's own order.")
    if not rows:
        return [TITLE, "", intro, "", "No corpus truth files under `regions/corpus/`."]
    return [TITLE, "", intro, "", *table(rows), "",
            FIRST_READS.read_text(encoding="utf-8").rstrip()]


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "corpus", "Reading order on the development corpus.",
                        TITLE, "## Publication profiles on labelled pages",
                        lambda: section(measure()))


if __name__ == "__main__":
    raise SystemExit(main())
