"""The parts of the benchmark that run alone (``benchmarks.profiles``,
``benchmarks.ocr``): print their section of ``RESULTS.md``, or replace it in place."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["replace_section", "section_main"]


def replace_section(report_path: Path, title: str, text: str, *, before: str) -> None:
    """Write ``text`` (starting with the heading ``title``) over that section of the report
    at ``report_path``, or, when the report has no such section yet, just before the
    section headed ``before``."""
    report = report_path.read_text(encoding="utf-8")
    if title not in report:
        report = report.replace(f"\n{before}", f"\n{title}\n\n{before}", 1)
    head, _, rest = report.partition(title)
    tail = rest[rest.find("\n## "):] if "\n## " in rest else "\n"
    report_path.write_text(head.rstrip("\n") + "\n\n" + text + "\n" + tail, encoding="utf-8")


def section_main(argv: Sequence[str] | None, *, prog: str, description: str, title: str,
                 build: Callable[[], list[str]]) -> int:
    """The command line of a part that runs alone: print the lines ``build`` returns, or
    with ``--update RESULTS_MD`` put them in place of the report's section ``title``
    (before the Speed section when the report has none yet).  Returns the exit status."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--update", type=Path, metavar="RESULTS_MD",
                        help="replace this part's section of the report")
    args = parser.parse_args(argv)
    text = "\n".join(build())
    if args.update is None:
        print(text)
        return 0
    replace_section(args.update, title, text, before="## Speed")
    print(f"updated {args.update}", file=sys.stderr)
    return 0
