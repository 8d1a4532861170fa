"""Build the publications ``layoutkit train`` is measured on: ten pages of each, cut
small, with truth mined from its tagged original (``benchmarks/usertrain.py``).

Usage::

    python tools/usertrain_corpus.py /work/tagged            # the folder of the manifests
    python tools/usertrain_corpus.py /work/tagged --repo .   # the checkout to write into

For each publication of `PAGES` (a manifest entry of the tagged corpus, its original
in ``src/<slug>.pdf``; see ``tools/tagged_corpus.py``):

1. the ten pages are mined from the ORIGINAL (`layoutkit.tools.tagged`);
2. they are cut into ``fixtures/usertrain/<slug>.pdf`` (`tools.tagged_corpus.cut`: the
   same bytes on a rerun) and numbered 1-10 in its order;
3. ``regions/usertrain/<slug>-train.truth.json`` holds the first five (1-5), and
   ``<slug>-test.truth.json`` the last five (6-10), both naming the publisher;
4. ``fixtures/usertrain/README.md`` gives each file's provenance.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tagged_corpus import cut, entries, publisher

from layoutkit.files import sha256_of
from layoutkit.tools.tagged import CONVENTIONS, mine_truth
from layoutkit.tools.truth import DocumentTruth, dumps

PAGES: dict[str, tuple[int, ...]] = {
    "simcom-sim800c-hardware-design-v1-05": (8, 9, 10, 11, 12, 13, 15, 17, 18, 19),
    "nvidia-jetson-nano-product-design-guide-2020": (9, 10, 12, 16, 17, 18, 19, 20, 23, 24),
    "dta-gatekeeper-pki-framework-v3-1": (7, 8, 9, 10, 12, 13, 15, 17, 18, 20),
    "sgad-radar-covid-eipd-2020": (3, 4, 5, 6, 7, 10, 12, 13, 15, 16),
    "ams-amsmath-users-guide-amsldoc-tagged": (5, 6, 7, 8, 9, 10, 12, 14, 15, 16),
    "owasp-asvs-4-0-3-standard-2021": (9, 11, 12, 13, 14, 15, 16, 17, 18, 20),
    "intesis-knx-mitsubishi-gateway-user-manual": (5, 6, 7, 8, 10, 11, 12, 13, 14, 15),
    "lts-va-devops-maturity-white-paper-2020": (4, 6, 8, 9, 10, 11, 13, 14, 15, 17),
}
"""Each publication's ten pages: the first ten after its contents whose tags the miner
accepts, that hold a heading or a list item, and that are not among the pages of the
tagged corpus (which the shipped model was fitted to)."""
LEFT_OUT: dict[str, str] = {
    "ocp-project-cerberus-challenge-protocol": "rules and shipped model both 1.000 on the "
                                               "test pages (headings and lists)",
    "owasp-top-10-2007-report": "rules and shipped model both 1.000",
    "microsoft-msrc-cheri-isa-security-analysis-2020": "headings 0.966, lists 1.000 for both",
    "cncf-software-supply-chain-best-practices-v2": "headings 0.909, lists 1.000 for both",
    "ocp-project-olympus-rack-manager-spec": "one list item on the test pages; shipped "
                                             "model 1.000",
    "nettimelogic-pps-master-clock-reference-manual": "no ten pages after its contents "
                                                      "hold a heading or a list item",
}
"""The other long tagged documents measured the same way and why they were left out:
the shipped model typed their test pages (almost) without fault, so a user would not
train on them."""
TRAIN = 5
"""How many of the ten pages are fitted to (the first); the others are scored."""


def build(entry: dict[str, Any], pages: Sequence[int], folder: Path, repo: Path) -> None:
    """Mine, cut and write one publication."""
    slug = entry["slug"]
    source = folder / "src" / f"{slug}.pdf"
    pdf = repo / "fixtures" / "usertrain" / f"{slug}.pdf"
    pdf.parent.mkdir(parents=True, exist_ok=True)
    cut(source, pages, pdf)
    renumber = {old: new for new, old in enumerate(pages, 1)}
    where = f"{entry['repo']}/{entry['path']}@{entry['commit'][:12]}"
    for name, chosen in (("train", pages[:TRAIN]), ("test", pages[TRAIN:])):
        path = repo / "regions" / "usertrain" / f"{slug}-{name}.truth.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        mined = mine_truth(source, path, ",".join(map(str, chosen)))
        truth = DocumentTruth(
            path=path, document=f"../../fixtures/usertrain/{slug}.pdf", sha256=sha256_of(pdf),
            pages=tuple(replace(page, page=renumber[page.page]) for page in mined.pages),
            checked=mined.checked, publisher=publisher(entry),
            conventions=f"{CONVENTIONS} Pages {', '.join(map(str, chosen))} of {where}, cut "
                        f"into the document with pages {', '.join(map(str, pages))} and "
                        f"numbered 1-{len(pages)}.")
        path.write_text(dumps(truth), "utf-8")


def readme(built: Sequence[tuple[dict[str, Any], Sequence[int]]]) -> str:
    """The text of ``fixtures/usertrain/README.md``."""
    lines = [
        "# Publications to train on: ten pages each, truth mined from their tags", "",
        "Each file holds ten pages cut from a tagged PDF by `qpdf --empty "
        "--deterministic-id --object-streams=generate --compress-streams=y "
        "--recompress-flate --compression-level=9 --pages SOURCE P1,...,P10 --`; "
        "`regions/usertrain/<file stem>-train.truth.json` is the truth of its pages 1-5 "
        "and `<file stem>-test.truth.json` of its pages 6-10, mined by `layoutkit truth "
        "mine` from the ORIGINAL's structure tree (the cut drops it). None of the pages is "
        "among those of `fixtures/tagged` (which the shipped model was fitted to). Built by "
        "`tools/usertrain_corpus.py`; measured by `benchmarks/usertrain.py` (`layoutkit "
        "train` on pages 1-5, scored on pages 6-10).", "",
        "| file | what it is | source (repository/path@commit) | pages taken | licence "
        "| publisher | producer | language |",
        "|---|---|---|---|---|---|---|---|"]
    for entry, pages in built:
        lines.append(
            f"| {entry['slug']}.pdf | {entry.get('kind', '')}, {entry.get('layout', '')}, "
            f"{entry.get('pages_total', '?')} pages | {entry['repo']}/{entry['path']}"
            f"@{entry['commit'][:12]} | {', '.join(map(str, pages))} | "
            f"{entry['licence']} | {entry['publisher']} | {entry['producer']} | "
            f"{entry['language']} |".replace("\n", " "))
    lines += ["", "Also measured (the same page choice, the pages typed in the original "
                  "documents), left out:", "",
              *(f"- {slug}: {why}." for slug, why in LEFT_OUT.items())]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Build every publication of `PAGES` from the manifests in the folder given."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the folder of manifest-*.jsonl and src/")
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the checkout to write fixtures/usertrain and regions/usertrain "
                             "into")
    args = parser.parse_args(argv)
    found = {entry["slug"]: entry for entry in entries(args.folder)}
    built = []
    for slug, pages in PAGES.items():
        taken = set(pages) & {int(p) for p in found[slug]["pages"]}
        if taken:
            raise SystemExit(f"{slug}: pages {sorted(taken)} are in the tagged corpus")
        build(found[slug], pages, args.folder, args.repo)
        built.append((found[slug], pages))
        print(f"{slug}: pages {', '.join(map(str, pages))}", flush=True)
    (args.repo / "fixtures" / "usertrain" / "README.md").write_text(readme(built), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
