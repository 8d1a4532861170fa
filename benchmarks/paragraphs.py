"""Paragraphs and footnotes in the text outputs: where Markdown, HTML, ``--paragraphs``,
NLPTextDocument, tokens and chunks start a paragraph, and which lines they set apart as
footnotes, against labelled pages.

Two sets of truth (`layoutkit evaluate`'s ``paragraphs`` and ``footnotes`` kinds):

- the pages mined from tagged PDFs (``regions/tagged``): the first line of each ``P``
  outside lists, tables, contents, notes and captions, and the lines of ``Note`` and
  ``FENote`` elements, as each producer tagged them;
- the development corpus pages labelled with paragraph starts or footnotes by hand
  (two-column papers).

Paragraph starts are scored among each page's labelled body lines; its first line
(which may go on from the page before) and the lines of other types count neither way.
Run alone with ``python -m benchmarks.paragraphs [--update benchmarks/RESULTS.md]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from benchmarks.corpus import CORPUS
from benchmarks.mined import MINED
from benchmarks.sections import carried_section, section_main
from layoutkit.tools.evaluate import TypeScore
from layoutkit.tools.evaluation import evaluate
from layoutkit.tools.truth import load_truth, truth_files

__all__ = ["TITLE", "carried", "measure_outputs", "section"]

TITLE = "## Paragraphs and footnotes in the text outputs"
BEFORE = "## Figures and their captions"
KINDS = ("paragraphs", "footnotes")


def _labelled(root: Path) -> list[Path]:
    """The truth files under ``root`` that label paragraph starts or footnotes."""
    return [path for path in truth_files([root])
            if any(page.types is not None and (page.types.paragraphs or page.types.footnotes)
                   for page in load_truth(path).pages)]


def measure_outputs() -> list[tuple[str, int, dict[str, TypeScore]]]:
    """For each set of truth (mined, development corpus): its name, how many documents
    label these kinds, and the pooled scores of each kind."""
    found = []
    for name, root in (("mined from tagged PDFs", MINED), ("development corpus", CORPUS)):
        paths = _labelled(root)
        scores = evaluate(paths).types if paths else {}
        found.append((name, len(paths), {kind: scores[kind] for kind in KINDS
                                         if kind in scores}))
    return found


def _cell(score: TypeScore | None) -> str:
    if score is None:
        return "– | – | – | –"
    return f"{score.expected} | {score.predicted} | {score.precision:.3f} | {score.recall:.3f}"


def section(rows: Sequence[tuple[str, int, dict[str, TypeScore]]] | None = None) -> list[str]:
    """The report's section: what is measured and the pooled table."""
    measured = measure_outputs() if rows is None else rows
    table = ["| truth | documents | paragraph starts | started | P | R "
             "| footnote lines | set apart | P | R |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    table += [f"| {name} | {count} | {_cell(scores.get('paragraphs'))} "
              f"| {_cell(scores.get('footnotes'))} |" for name, count, scores in measured]
    intro = ("Where every text output (Markdown, HTML, `--paragraphs`, NLPTextDocument,"
             " tokens, chunks: `layoutkit.nlp.paragraphs`) starts a paragraph or another"
             " block, and which lines it sets apart as footnotes (`layoutkit.nlp.breaks`),"
             " scored by `layoutkit evaluate` (`benchmarks/paragraphs.py`): against the"
             " mined pages' `P` and `Note` elements, and against the development pages"
             " labelled with them by hand. A paragraph start is scored among the page's"
             " labelled body lines; the page's first line and the lines of other types"
             " count neither way.")
    return [TITLE, "", intro, "", *table]


def carried(report: Path) -> list[str]:
    """The section as ``report`` has it, or a line saying it was not measured:
    ``benchmarks.run --quick`` carries it over."""
    return carried_section(report, TITLE, "`python -m benchmarks.paragraphs`")


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "paragraphs", "Paragraphs and footnotes in the text outputs.",
                        TITLE, BEFORE, section)


if __name__ == "__main__":
    raise SystemExit(main())
