"""Auto mode against the bundled publication profiles on every labelled real page.

Each truth file of a publication with a bundled profile is evaluated twice, as
``layoutkit evaluate`` does it (:mod:`layoutkit.tools.evaluation`): without a profile
and with the bundled profile of its publication.  Run alone with
``python -m benchmarks.profiles [--update benchmarks/RESULTS.md]`` to print the table
(or replace its section of the report); ``benchmarks.run`` includes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.sections import section_main
from layoutkit.pipeline import loaded_profile
from layoutkit.tools.evaluate import PageScore, combine
from layoutkit.tools.evaluation import evaluate_document
from layoutkit.tools.truth import read_truth, truth_files

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
    """Every page labelled for reading order of a publication with a bundled profile,
    evaluated both ways."""
    rows = []
    for path in truth_files([REPO / "regions"]):
        truth = read_truth(path)
        profile = next((p for prefix, p in PROFILES.items()
                        if truth.source.name.startswith(prefix)), None)
        if profile is None:
            continue
        auto = evaluate_document(truth)
        profiled = evaluate_document(truth, profile=loaded_profile(profile))
        rows += [ProfileRow(truth.source.stem, a.page, profile, a.score, p.score)
                 for a, p in zip(auto.pages, profiled.pages, strict=True)
                 if a.score is not None and p.score is not None]
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
