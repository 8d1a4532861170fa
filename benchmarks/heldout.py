"""Reading order on held-out documents: pages labelled by hand that nobody tunes on
(``regions/heldout/*.truth.json``, PDFs in ``fixtures/heldout/``).

The development corpus (``benchmarks/corpus.py``) gives development figures: its pages
are the ones the heuristics are tuned on.  These documents come from other publishers,
producers and repositories, were labelled before layoutkit read them, and are only
reported, with no bar: a change made to read them better would make their figures
development figures too.  Every system reads every labelled page and is scored as on the
corpus, per document and pooled.  Run alone with
``python -m benchmarks.heldout [--update benchmarks/RESULTS.md]``.
"""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.corpus import CorpusRow, measure, table
from benchmarks.peers import REPO, System
from benchmarks.sections import section_main

__all__ = ["FIRST_READS", "HELDOUT", "TITLE", "leaks", "measure_heldout", "section"]

HELDOUT = REPO / "regions" / "heldout"
"""The truth files of the held-out documents."""

FIRST_READS = REPO / "benchmarks" / "heldout-first-reads.md"
"""How held-out documents read the first time, measured once when they were added and
kept, the section ending with it (as `benchmarks.corpus.FIRST_READS` for the corpus)."""

TITLE = "## Held-out documents (never tuned on, labelled by hand)"


def measure_heldout(runnable: Sequence[System] | None = None,
                    errors: list[str] | None = None) -> list[CorpusRow]:
    """Every runnable system's scores on every held-out document, as
    :func:`benchmarks.corpus.measure` scores the corpus."""
    return measure(runnable, errors, HELDOUT)


def leaks(rows: Sequence[CorpusRow]) -> list[str]:
    """A markdown table of the furniture lines each system leaks into the body text of
    each document, as ``leaked/checked``: the share alone hides how few lines a page's
    furniture can be."""
    names = list(dict.fromkeys(r.system for r in rows))
    documents = list(dict.fromkeys(r.document for r in rows))
    lines = ["| document | " + " | ".join(names) + " |",
             "| --- | " + " | ".join("---:" for _ in names) + " |"]
    for document in documents:
        scores = {r.system: r.score for r in rows if r.document == document}
        cells = " | ".join(f"{round(scores[n].leak * scores[n].furniture)}/{scores[n].furniture}"
                           for n in names)
        lines.append(f"| {document} | {cells} |")
    return lines


def section(rows: Sequence[CorpusRow]) -> list[str]:
    """The report's section: title, what was measured and why there is no bar, then the
    pooled and per-document tables (or why there are none), then the kept first reads
    of the documents added (:data:`FIRST_READS`)."""
    intro = ("Hand-labelled pages of documents from publishers, producers and repositories"
             " that neither the fixtures nor the development corpus hold"
             " (`benchmarks/heldout.py`; provenance in `fixtures/README.md`), labelled before"
             " layoutkit read them. These documents are never tuned on: the figures are"
             " reported with no bar, and a failure seen here is fixed on corpus pages that"
             " show it, never on these. PyMuPDF, pypdfium2 and `pdftotext -raw` give the"
             " content stream's own order.")
    if not rows:
        return [TITLE, "", intro, "", "No held-out truth files under `regions/heldout/`."]
    return [TITLE, "", intro, "", *table(rows), "",
            "Leak (furniture lines leaked / checked) by document:", "", *leaks(rows), "",
            FIRST_READS.read_text(encoding="utf-8").rstrip()]


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "heldout", "Reading order on the held-out documents.",
                        TITLE, "## Publication profiles on labelled pages",
                        lambda: section(measure_heldout()))


if __name__ == "__main__":
    raise SystemExit(main())
