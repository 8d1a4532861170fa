"""Tokens, NLPTextDocument and language detection on every fixture PDF (issue 5's bars).

Usage::

    python -m benchmarks.nlp     # prints the markdown sections of RESULTS.md

Each fixture is parsed once (not timed); then timed: ``analyse`` (language,
paragraphs, spaCy) and the NLPTextDocument written and read back.  Language
detection compares py3langid (what layoutkit uses) with langdetect (seeded, so
that it is deterministic) on the whole text and on every page long enough to
judge, both choosing among the same candidate languages' text.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import layoutkit
from benchmarks.peers import REPO
from layoutkit.config import LayoutConfig, NlpConfig
from layoutkit.nlp.language import detect
from layoutkit.nlp.nlptext import from_document, read, write
from layoutkit.nlp.paragraphs import ignored_codes
from layoutkit.nlp.tokens import analyse

__all__ = ["EXPECTED", "measure", "tables"]

PDFS = REPO / "fixtures" / "pdf"
EXPECTED = {
    "cleveland-city-record-2016-04-27": "en", "cleveland-city-record-2004-06-09": "en",
    "federal-register-2020-08-06": "en", "geotopo-lecture-notes-de": "de",
    "copyright-office-dmca-summary": "en", "senate-bill-equality-act": "en",
}


@dataclass(frozen=True)
class Row:
    """One fixture: its pages, tokens, the time spaCy's reading and the NLPTextDocument
    took, and each detector's verdicts."""

    name: str
    pages: int
    tokens: int
    analyse_s: float
    nlptext_s: float
    round_trip: bool
    detectors: dict[str, tuple[str, int, int, float]]
    """name -> (document language, pages right, pages judged, seconds)."""


def _langdetect() -> Callable[[str], str]:
    from langdetect import DetectorFactory
    from langdetect import detect as guess

    DetectorFactory.seed = 0
    return lambda text: str(guess(text))


def _detectors(config: NlpConfig) -> dict[str, Callable[[str], str]]:
    return {"py3langid": lambda text: detect(text, config), "langdetect": _langdetect()}


def measure() -> list[Row]:
    """One row per fixture PDF."""
    config = LayoutConfig().nlp
    detectors = _detectors(config)
    rows = []
    for name, lang in EXPECTED.items():
        document = layoutkit.parse(PDFS / f"{name}.pdf")
        started = time.perf_counter()
        analysis = analyse(document, config)
        analysed = time.perf_counter()
        tree = from_document(document, ignored_codes(config) - {"toc"})
        same = read(write(tree)) == tree
        written = time.perf_counter()
        texts = [page.text() for page in document.pages]
        judged = [t for t in texts if sum(c.isalpha() for c in t) >= config.lang_min_chars]
        verdicts = {}
        for label, guess in detectors.items():
            begun = time.perf_counter()
            whole = guess("\n".join(texts))
            right = sum(guess(t) == lang for t in judged)
            verdicts[label] = (whole, right, len(judged), time.perf_counter() - begun)
        rows.append(Row(name, len(document.pages),
                        sum(len(doc) for _, doc in analysis.paragraphs),
                        analysed - started, written - analysed, same, verdicts))
    return rows


def tables(rows: list[Row]) -> list[str]:
    """The markdown sections of the report."""
    lines = ["## Tokens and NLPTextDocument (layoutkit)", "",
             "Every fixture PDF whole (`benchmarks/nlp.py`): spaCy time is `analyse` (language, "
             "paragraphs, a blank pipeline with sentencizer and lookup lemmatizer; the first "
             "document also loads the pipeline), NLPTextDocument time is building the tree, "
             "writing and reading it back.", "",
             "| document | pages | tokens | spaCy s | tokens/s | nlp.txt s | round trip |",
             "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        lines.append(f"| {r.name} | {r.pages} | {r.tokens} | {r.analyse_s:.2f} | "
                     f"{r.tokens / r.analyse_s:.0f} | {r.nlptext_s:.2f} | "
                     f"{'same tree' if r.round_trip else 'DIFFERS'} |")
    total_tokens = sum(r.tokens for r in rows)
    total_s = sum(r.analyse_s for r in rows)
    lines += [f"| all | {sum(r.pages for r in rows)} | {total_tokens} | {total_s:.2f} | "
              f"{total_tokens / total_s:.0f} | {sum(r.nlptext_s for r in rows):.2f} | |", "",
              "## Language detection", "",
              "The whole text of each fixture and each of its pages with at least "
              "`lang_min_chars` letters; a page counts right when it gets the document's "
              "language. Time: the whole text and every judged page.", "",
              "| document | truth | py3langid | pages right | s | langdetect | pages right | s |",
              "| --- | --- | --- | ---: | ---: | --- | ---: | ---: |"]
    for r in rows:
        cells = []
        for label in ("py3langid", "langdetect"):
            whole, right, judged, seconds = r.detectors[label]
            cells.append(f"{whole} | {right}/{judged} | {seconds:.2f}")
        lines.append(f"| {r.name} | {EXPECTED[r.name]} | {' | '.join(cells)} |")
    return lines


if __name__ == "__main__":
    print("\n".join(tables(measure())))
