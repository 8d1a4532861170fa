"""Build the tagged corpus: truth mined from tagged PDFs, with the pages cut out small.

Usage::

    python tools/tagged_corpus.py /work/tagged            # the folder of the manifests
    python tools/tagged_corpus.py /work/tagged --repo .   # the checkout to write into

The folder holds manifests ``manifest-*.jsonl`` (one JSON object a line: ``slug, repo,
path, commit, licence, publisher, producer, language, kind, layout, pages_total, pages,
why``; ``pages`` the page numbers chosen) and the original documents in
``src/<slug>.pdf``.  For each document, in the order of the manifests (a slug listed
twice is taken once):

1. its chosen pages are mined from the ORIGINAL (`layoutkit.tools.tagged`): cutting
   pages out drops the structure tree;
2. those pages are cut into ``fixtures/tagged/<slug>.pdf`` (``qpdf --empty --pages``,
   compressed with object streams, with a deterministic ``/ID``, so a rerun writes the
   same bytes);
3. ``regions/tagged/<slug>.truth.json`` is written: its ``document`` is the cut file,
   its pages numbered 1, 2, 3 in the cut file's order, its ``sha256`` the cut file's;
4. ``fixtures/tagged/README.md`` lists every document kept with its provenance, and
   every document refused with the reason (tags that contradict a page, no original,
   a cut file above `MAX_BYTES`, a repository in `EXCLUDED`).

A refused document leaves no file behind (a file of an earlier run is removed), so the
folders always hold exactly what the README lists; running again rebuilds the same.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from layoutkit.files import sha256_of
from layoutkit.tools.tagged import CONVENTIONS, TagsRefusedError, mine_truth
from layoutkit.tools.truth import DocumentTruth, dumps

MAX_BYTES = 1_500_000
"""The largest cut file kept in the repository (three pages)."""
EXCLUDED = frozenset({
    "opencleveland/drocer", "clenel/ezgov", "camelot-dev/camelot", "docling-project/docling",
    "unstructured-io/unstructured", "pdfminer/pdfminer.six", "jsvine/pdfplumber",
    "opendatalab/mineru", "valxntim/rag-diario-oficial", "dmsfiris/fek-extractor",
    "s-fey/can-ai-read-newspapers", "danmorper/reflex_tfg", "patent-analysis/text-mining-poc",
    "cueichi/2024gamelib", "lukecarr/haldonviews", "freelawproject/x-ray",
    "4ku/place-recognition-evaluation", "tufte-latex/tufte-latex",
    "11leoool/uncertainty-aware-closed-loop-model-predictive-control-with-ekf-slam",
    "rodyoung1967/main-street-archives"})
"""Repositories (lower case) whose documents are kept for independent evaluation: never
taken into the corpus."""
FIELDS = ("slug", "repo", "path", "commit", "licence", "publisher", "producer", "language",
          "pages")


@dataclass(frozen=True)
class Outcome:
    """What became of one manifest entry: kept (``refused`` empty) or refused."""

    entry: dict[str, Any]
    refused: str = ""


def entries(folder: Path) -> Iterator[dict[str, Any]]:
    """The manifest entries of ``folder``, each slug once, in the order of the
    manifests' names and lines; a line that is not a complete entry is skipped with a
    note on standard error."""
    seen: set[str] = set()
    for manifest in sorted(folder.glob("manifest-*.jsonl")):
        for number, line in enumerate(manifest.read_text("utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                print(f"{manifest}:{number}: not JSON, skipped", file=sys.stderr)
                continue
            missing = [key for key in FIELDS if key not in entry]
            if missing or entry["slug"] in seen:
                if missing:
                    print(f"{manifest}:{number}: lacks {', '.join(missing)}, skipped",
                          file=sys.stderr)
                continue
            seen.add(entry["slug"])
            yield entry


def cut(source: Path, pages: Sequence[int], target: Path) -> None:
    """Write ``pages`` of ``source`` to ``target`` with qpdf in one pass, compressed
    (object streams, flate at level 9, unused resources dropped), with a deterministic
    ``/ID``: the same input gives the same bytes.  (A second pass would keep the random
    ``/ID`` the first one wrote.)"""
    done = subprocess.run(
        ["qpdf", "--empty", "--deterministic-id", "--object-streams=generate",
         "--compress-streams=y", "--recompress-flate", "--compression-level=9",
         "--remove-unreferenced-resources=yes", "--pages", str(source),
         ",".join(map(str, pages)), "--", str(target)], capture_output=True, check=False)
    if done.returncode not in (0, 3):  # 3: written, with warnings
        raise subprocess.CalledProcessError(done.returncode, done.args, done.stdout,
                                            done.stderr)


def build(entry: dict[str, Any], folder: Path, repo: Path) -> Outcome:
    """Mine, cut and write one manifest entry; its `Outcome`."""
    slug, pages = entry["slug"], sorted(int(p) for p in entry["pages"])
    source = folder / "src" / f"{slug}.pdf"
    pdf = repo / "fixtures" / "tagged" / f"{slug}.pdf"
    truth_path = repo / "regions" / "tagged" / f"{slug}.truth.json"
    if str(entry["repo"]).lower() in EXCLUDED:
        return _refuse(entry, f"{entry['repo']} is kept for independent evaluation", pdf,
                       truth_path)
    if not source.is_file():
        return _refuse(entry, f"no original at src/{slug}.pdf", pdf, truth_path)
    try:
        truth = mine_truth(source, truth_path, ",".join(map(str, pages)), document="-",
                           sha256="0" * 64)
    except TagsRefusedError as error:
        return _refuse(entry, str(error).replace(str(source), f"{slug}.pdf"), pdf,
                       truth_path)
    except Exception as error:  # a document pdfplumber cannot read at all
        return _refuse(entry, f"{slug}.pdf: cannot be read ({type(error).__name__}: "
                              f"{error})", pdf, truth_path)
    pdf.parent.mkdir(parents=True, exist_ok=True)
    truth_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        cut(source, pages, pdf)
    except subprocess.CalledProcessError as error:
        return _refuse(entry, f"qpdf cannot cut pages {pages}: "
                              f"{error.stderr.decode(errors='replace').strip()[:200]}",
                       pdf, truth_path)
    if pdf.stat().st_size > MAX_BYTES:
        return _refuse(entry, f"pages {pages} cut to {pdf.stat().st_size:,} bytes "
                              f"(at most {MAX_BYTES:,} kept)", pdf, truth_path)
    renumber = {old: new for new, old in enumerate(pages, 1)}
    where = f"{entry['repo']}/{entry['path']}@{entry['commit'][:12]}"
    truth = DocumentTruth(
        path=truth_path, document=f"../../fixtures/tagged/{slug}.pdf", sha256=sha256_of(pdf),
        pages=tuple(_renumbered(page, renumber) for page in truth.pages),
        checked=truth.checked, publisher=publisher(entry),
        conventions=f"{CONVENTIONS} Pages {', '.join(map(str, pages))} of {where}, cut into "
                    f"the document and numbered 1-{len(pages)}.")
    text = dumps(truth)
    if not truth_path.is_file() or truth_path.read_text("utf-8") != text:
        truth_path.write_text(text, "utf-8")
    return Outcome(entry)


def publisher(entry: dict[str, Any]) -> str:
    """The manifest's publisher without what its gatherer added in brackets or after a
    comma (``Texas A&M University, ECEN (course ...)``): the organisation alone, so that
    its documents fall on one side of a split."""
    return re.split(r"\s*[,(]", str(entry["publisher"]), maxsplit=1)[0].strip()


def _renumbered(page: Any, renumber: dict[int, int]) -> Any:
    """``page`` (a PageTruth) numbered as in the cut file."""
    from dataclasses import replace

    return replace(page, page=renumber[page.page])


def _refuse(entry: dict[str, Any], reason: str, *stale: Path) -> Outcome:
    """A refused `Outcome`, the files an earlier run wrote for the entry removed."""
    for path in stale:
        path.unlink(missing_ok=True)
    return Outcome(entry, reason)


def _cell(text: object) -> str:
    """``text`` fit for a markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def readme(outcomes: Sequence[Outcome]) -> str:
    """The text of ``fixtures/tagged/README.md``: the provenance of every document kept
    and the reason of every document refused."""
    kept = [o.entry for o in outcomes if not o.refused]
    refused = [o for o in outcomes if o.refused]
    lines = [
        "# Tagged PDFs: truth mined from their structure trees", "",
        "Each file holds three pages cut from a tagged PDF by `qpdf --empty "
        "--deterministic-id --object-streams=generate --compress-streams=y "
        "--recompress-flate --compression-level=9 --pages SOURCE P1,P2,P3 --` (a rerun "
        "writes the same bytes); `regions/tagged/<file stem>.truth.json` is their "
        "truth, mined by `layoutkit truth mine` from the ORIGINAL's structure tree (the cut "
        "drops it) and numbered 1-3 in the order of the pages. Built by "
        "`tools/tagged_corpus.py` from the manifests of the gathered documents; rerun it to "
        "rebuild this folder.", "",
        f"{len(kept)} documents kept, {len(refused)} refused.", "",
        "| file | what it is | source (repository/path@commit, pages) | licence | publisher "
        "| producer | language | why |",
        "|---|---|---|---|---|---|---|---|"]
    for entry in kept:
        pages = ", ".join(str(p) for p in sorted(int(p) for p in entry["pages"]))
        lines.append(
            f"| {entry['slug']}.pdf | {_cell(entry.get('kind', ''))}, "
            f"{_cell(entry.get('layout', ''))}, {_cell(entry.get('pages_total', '?'))} pages "
            f"| {_cell(entry['repo'])}/{_cell(entry['path'])}@{entry['commit'][:12]}, "
            f"pages {pages} | {_cell(entry['licence'])} | {_cell(entry['publisher'])} | "
            f"{_cell(entry['producer'])} | {_cell(entry['language'])} | "
            f"{_cell(entry.get('why', ''))} |")
    lines += ["", "## Refused", "",
              "Documents whose tags contradict their pages (or that could not be cut); "
              "nothing of them is kept.", ""]
    lines += [f"- {o.entry['slug']} ({_cell(o.entry['producer'])}): {_cell(o.refused)}"
              for o in refused] or ["None."]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Build the tagged corpus from the manifests in the folder given; prints how many
    documents were kept and refused."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the folder of manifest-*.jsonl and src/")
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the checkout to write fixtures/tagged and regions/tagged into")
    args = parser.parse_args(argv)
    outcomes = []
    for entry in entries(args.folder):
        outcome = build(entry, args.folder, args.repo)
        print(f"{entry['slug']}: {'refused: ' + outcome.refused if outcome.refused else 'kept'}",
              flush=True)
        outcomes.append(outcome)
    listed = {o.entry["slug"] for o in outcomes if not o.refused}
    for folder, suffix in (("fixtures/tagged", ".pdf"), ("regions/tagged", ".truth.json")):
        for stale in (args.repo / folder).glob(f"*{suffix}"):
            if stale.name.removesuffix(suffix) not in listed:
                stale.unlink()
    (args.repo / "fixtures" / "tagged").mkdir(parents=True, exist_ok=True)
    (args.repo / "fixtures" / "tagged" / "README.md").write_text(readme(outcomes), "utf-8")
    kept = len(listed)
    print(f"{kept} kept, {len(outcomes) - kept} refused")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
