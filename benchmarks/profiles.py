"""Auto mode against the bundled publication profiles on every labelled real page.

Each labelled document is read twice, without a profile and with the bundled profile
of its publication, and each labelled page scored both ways.  Run alone with
``python -m benchmarks.profiles [--update benchmarks/RESULTS.md]`` to print the table
(or replace its section of the report); ``benchmarks.run`` includes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.sections import section_main
from layoutkit import parse
from layoutkit.tools.evaluate import PageScore, combine, load_truth, score_truth, truth_files

REPO = Path(__file__).resolve().parent.parent
TITLE = "## Publication profiles on labelled pages"
PROFILES = {"cleveland-city-record": "cleveland-city-record",
            "federal-register": "federal-register"}
"""The bundled profile of each labelled publication, by document name prefix."""


@dataclass(frozen=True, slots=True)
class ProfileRow:
    """One labelled page scored in auto mode and with its publication's profile."""

    document: str
    page: int
    profile: str
    auto: PageScore
    profiled: PageScore


def measure() -> list[ProfileRow]:
    """Every labelled page of a publication with a bundled profile, scored both ways."""
    truths = [load_truth(path) for path in truth_files(REPO / "regions")]
    rows = []
    for document in sorted({t.document for t in truths}):
        profile = next((p for prefix, p in PROFILES.items() if document.startswith(prefix)), None)
        if profile is None:
            continue
        mine = [t for t in truths if t.document == document]
        pages = [t.page for t in mine]
        pdf = REPO / "fixtures" / "pdf" / document
        auto = parse(pdf, pages=pages)
        profiled = parse(pdf, pages=pages, profile=profile)
        rows += [ProfileRow(Path(document).stem, t.page, profile,
                            score_truth(a.text(), t), score_truth(p.text(), t))
                 for t, a, p in zip(mine, auto, profiled, strict=True)]
    return rows


def _cells(score: PageScore) -> str:
    return f"{score.found:.3f} | {score.order:.3f} | {score.leak:.3f}"


def table(rows: Sequence[ProfileRow]) -> list[str]:
    """The markdown table: found, order and leak per page, auto then profile, and per
    profile all its pages combined."""
    lines = ["| page | profile | lines | auto found | auto order | auto leak | profile found |"
             " profile order | profile leak |", "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
             " ---: | ---: |"]
    lines += [f"| {r.document} p{r.page} | {r.profile} | {r.auto.lines} | {_cells(r.auto)} | "
              f"{_cells(r.profiled)} |" for r in rows]
    for profile in sorted({r.profile for r in rows}):
        mine = [r for r in rows if r.profile == profile]
        auto, profiled = combine(r.auto for r in mine), combine(r.profiled for r in mine)
        lines.append(f"| **all {len(mine)} pages** | {profile} | {auto.lines} | {_cells(auto)} | "
                     f"{_cells(profiled)} |")
    return lines


def section(rows: Sequence[ProfileRow]) -> list[str]:
    """The report's section: title, what was measured, the table."""
    return [TITLE, "", "Each labelled page read in auto mode and with the bundled profile of its"
            " publication (`benchmarks/profiles.py`). Bars: City Record order and found ≥ 0.99,"
            " leak 0 on every page; Federal Register order ≥ 0.99.", "", *table(rows)]


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "profiles", "Auto mode against bundled profiles.",
                        TITLE, "## Speed", lambda: section(measure()))


if __name__ == "__main__":
    raise SystemExit(main())
