"""Reading order on the corpus mined from tagged PDFs (``regions/tagged/*.truth.json``,
PDFs in ``fixtures/tagged/``, built by ``tools/tagged_corpus.py``).

A tagged PDF's structure tree holds its producer's own reading order, so these pages
need no hand: three pages of each document, from many publishers.  Most producers
also draw their text in that order, so the truth favours the content stream's order;
a document where layoutkit reads below the stream is one where its layout analysis
costs the reader.  Every system reads every page and is scored as on the development
corpus; the section lists the documents where layoutkit's order falls below the best
content-stream peer's.  Run alone with
``python -m benchmarks.mined [--update benchmarks/RESULTS.md]``.
"""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.corpus import CorpusRow, measure, table
from benchmarks.peers import REPO, System
from benchmarks.sections import section_main

__all__ = ["MINED", "STREAM", "TITLE", "behind_the_stream", "measure_mined", "section"]

MINED = REPO / "regions" / "tagged"
"""The truth files mined from tagged PDFs."""

TITLE = "## Documents mined from tagged PDFs (reading order)"

STREAM = ("PyMuPDF", "pypdfium2", "pdftotext -raw")
"""The peers that give the content stream's own order."""

MARGIN = 0.02
"""How far below the best stream peer's order a document is listed."""


def measure_mined(runnable: Sequence[System] | None = None,
                  errors: list[str] | None = None) -> list[CorpusRow]:
    """Every runnable system's scores on every mined document, as
    :func:`benchmarks.corpus.measure` scores the corpus."""
    return measure(runnable, errors, MINED)


def behind_the_stream(rows: Sequence[CorpusRow]) -> list[tuple[str, float, float, str]]:
    """The documents where layoutkit's order is more than `MARGIN` below the best
    stream peer's, worst first: (document, layoutkit's order, the peer's, the peer)."""
    by_document: dict[str, dict[str, CorpusRow]] = {}
    for row in rows:
        by_document.setdefault(row.document, {})[row.system] = row
    behind = []
    for document, systems in by_document.items():
        peers = [(systems[name].score.order, name) for name in STREAM if name in systems]
        if "layoutkit" not in systems or not peers:
            continue
        best, peer = max(peers)
        mine = systems["layoutkit"].score.order
        if mine < best - MARGIN:
            behind.append((document, mine, best, peer))
    return sorted(behind, key=lambda item: item[1] - item[2])


def section(rows: Sequence[CorpusRow]) -> list[str]:
    """The report's section: what was measured, the pooled table, and the documents
    read below the content stream (or why there are none)."""
    intro = ("Pages whose truth is their producer's structure tree (`layoutkit truth mine`;"
             " `benchmarks/mined.py`; provenance in `fixtures/tagged/README.md`): government"
             " and agency reports, policies, minutes, forms, datasheets, manuals, slides,"
             " theses and papers in 20 languages. Most producers draw their text in the"
             " tree's order, so this truth favours the content stream's order, which"
             " PyMuPDF, pypdfium2 and `pdftotext -raw` give. The first read of these"
             " documents is kept in `benchmarks/corpus-first-reads.md`.")
    if not rows:
        return [TITLE, "", intro, "", "No mined truth files under `regions/tagged/`."]
    pooled = table(rows)
    pooled = pooled[:pooled.index("")]
    behind = behind_the_stream(rows)
    listed = [f"| {document} | {mine:.3f} | {best:.3f} ({peer}) |"
              for document, mine, best, peer in behind]
    documents = len({row.document for row in rows})
    return [TITLE, "", intro, "", *pooled, "",
            f"Documents where layoutkit's order is more than {MARGIN} below the best stream"
            f" peer's: {len(behind)} of {documents}.", "",
            "| document | layoutkit | best stream peer |", "| --- | ---: | ---: |", *listed]


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "mined", "Reading order on the documents mined from tagged PDFs.",
                        TITLE, "## Publication profiles on labelled pages",
                        lambda: section(measure_mined()))


if __name__ == "__main__":
    raise SystemExit(main())
