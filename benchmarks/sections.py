"""Replacing one section of ``RESULTS.md`` when a part of the benchmarks is rerun alone."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["carried_section", "section_main", "update_section"]


def section_main(argv: Sequence[str] | None, module: str, description: str, title: str,
                 before: str, render: Callable[[], list[str]]) -> int:
    """``python -m benchmarks.MODULE [--update RESULTS_MD]``: print the section that
    ``render`` measures and writes, or replace it in the report (see
    :func:`update_section`)."""
    parser = argparse.ArgumentParser(prog=f"python -m benchmarks.{module}",
                                     description=description)
    parser.add_argument("--update", type=Path, metavar="RESULTS_MD",
                        help="replace (or add) this section of the report")
    args = parser.parse_args(argv)
    text = "\n".join(render())
    if args.update is None:
        print(text)
    else:
        update_section(args.update, title, text, before)
    return 0


def update_section(report_path: Path, title: str, text: str, before: str) -> None:
    """Replace the section headed ``title`` in the report with ``text`` (which starts
    with that title); a report without it gets it just before the section headed
    ``before``."""
    report = report_path.read_text(encoding="utf-8")
    if title not in report:
        report = report.replace(f"\n{before}", f"\n{title}\n\n{before}", 1)
    head, _, rest = report.partition(title)
    tail = rest[rest.find("\n## "):] if "\n## " in rest else "\n"
    report_path.write_text(head.rstrip("\n") + "\n\n" + text + "\n" + tail, encoding="utf-8")
    print(f"updated {report_path}", file=sys.stderr)


def carried_section(report: Path, title: str, how: str) -> list[str]:
    """The section headed ``title`` as ``report`` has it (measured by an earlier run),
    or a line saying it was not measured in this run and ``how`` it is measured: what a
    run that skips a long part carries over."""
    text = report.read_text(encoding="utf-8") if report.is_file() else ""
    if title not in text:
        return [title, "", f"Not measured in this run ({how} measures it)."]
    rest = text.partition(title)[2]
    body = rest[:rest.find("\n## ")] if "\n## " in rest else rest
    return [title, *body.rstrip("\n").split("\n")]
