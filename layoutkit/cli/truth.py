"""The commands that check a reading: ``layoutkit regress`` (a folder's reading kept
in a snapshot, and compared with a new reading), ``evaluate`` (a reading scored
against truth files) and ``truth`` (a truth file drafted from the reading, or
reviewed beside its pages)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import LayoutConfig
from ..errors import UsageError
from ..files import sha256_of, text_name
from ..outputs import DPI_RANGE
from ..pipeline import parse
from .common import Commands, Outcome, Parser, dpi, reading_config, reading_options

if TYPE_CHECKING:
    from ..profile import Profile

__all__ = ["COMMANDS", "add_commands", "run"]

COMMANDS = ("regress", "evaluate", "truth")
"""The commands of this module, in the order of the command line's help."""


def add_commands(commands: Commands) -> None:
    """``layoutkit regress``, ``evaluate`` and ``truth``."""
    _regress_command(commands)
    _evaluate_command(commands)
    _truth_command(commands)


def run(args: argparse.Namespace) -> Outcome:
    """What ``layoutkit regress``, ``evaluate`` or ``truth`` prints and writes, and its
    exit status (``truth mine`` reads tags, not a reading: no configuration)."""
    if args.command == "truth" and args.action == "mine":
        return _mine(args)
    config, profile = reading_config(args)
    return {"regress": _regress, "evaluate": _evaluate, "truth": _truth}[args.command](
        args, config, profile)


def _regress_command(commands: Commands) -> None:
    """``layoutkit regress snapshot DIR -o SNAPSHOT`` and ``layoutkit regress check DIR
    SNAPSHOT``: a folder's reading kept, and compared with a new reading."""
    regress = commands.add_parser(
        "regress", help="snapshot the reading of a folder of samples, or check it against one",
        description="Read every PDF and image of DIR (not its subfolders) and keep each "
                    "page's lines, types and furniture in SNAPSHOT (snapshot), or read DIR "
                    "again and report every page that changed (check: exit 1 on a change)")
    actions = regress.add_subparsers(dest="action", required=True, metavar="ACTION",
                                     parser_class=Parser)
    snapshot = actions.add_parser("snapshot", help="read DIR and write SNAPSHOT")
    snapshot.add_argument("folder", type=Path, metavar="DIR", help="the folder of samples")
    snapshot.add_argument("--force", action="store_true",
                          help="replace the snapshot SNAPSHOT holds (the baseline)")
    snapshot.add_argument("-o", "--output", dest="snapshot", type=Path, required=True,
                          metavar="SNAPSHOT", help="the folder to write the snapshot to")
    check = actions.add_parser("check", help="read DIR again and report what changed "
                                             "from SNAPSHOT; exit 1 on a change")
    check.add_argument("folder", type=Path, metavar="DIR", help="the folder of samples")
    check.add_argument("snapshot", type=Path, metavar="SNAPSHOT",
                       help="a folder written by layoutkit regress snapshot")
    check.add_argument("--allow", action="append", default=[], metavar="PATTERN",
                       help="an expected change: a glob over DOCUMENT or DOCUMENT:PAGE "
                            "(issue-2004.pdf:12, issue-*.pdf), reported but not failing "
                            "the check (repeatable)")
    for action in (snapshot, check):
        reading_options(action)


def _regress(args: argparse.Namespace, config: LayoutConfig, profile: Profile | None
             ) -> Outcome:
    """What ``layoutkit regress`` prints: the snapshot written, or the check's report
    (exit status 1 when it found a change no ``--allow`` names)."""
    from ..tools.regress import (
        compare,
        load_snapshot,
        report,
        snapshot_target,
        take_snapshot,
        write_snapshot,
    )

    # a broken snapshot, or one that would be replaced unasked, is told before the
    # folder is read
    if args.action == "check":
        before = load_snapshot(args.snapshot)
    else:
        before = None
        snapshot_target(args.snapshot, replace=args.force)
    after = take_snapshot(args.folder, config, profile=profile, profile_name=args.profile,
                          engine=args.engine, jobs=args.jobs)
    if before is None:
        write_snapshot(after, args.snapshot, replace=args.force)
        pages = sum(len(record.pages) for record in after.documents)
        return Outcome({None: f"{args.snapshot}: {len(after.documents)} document(s), "
                              f"{pages} page(s) read by layoutkit {after.version}\n"})
    comparison = compare(before, after, args.allow)
    return Outcome({None: report(comparison)}, status=1 if comparison.failed else 0)


def _evaluate_command(commands: Commands) -> None:
    """``layoutkit evaluate TRUTH...``: a reading scored against truth files."""
    evaluate = commands.add_parser(
        "evaluate", help="score the reading of labelled pages against truth files",
        description="Check each truth file (layoutkit.truth/1) against its document, read "
                    "its labelled pages and score them: found, order and leak per page, "
                    "document and pooled, line types' precision and recall, the truth lines "
                    "missing and the places where the order breaks. Exit 1 when a bound "
                    "is missed.")
    evaluate.add_argument("truths", nargs="+", type=Path, metavar="TRUTH",
                          help="a truth file, or a folder searched for *.truth.json")
    reading_options(evaluate)
    evaluate.add_argument("--html", type=Path, metavar="REPORT",
                          help="also write an HTML report showing each failing page's image "
                               "with its order breaks drawn on it")
    evaluate.add_argument("--json", action="store_true",
                          help="print the report as JSON (layoutkit.evaluation/1)")
    for bound, text in (("--min-order", "least order"), ("--min-found", "least found"),
                        ("--max-leak", "most leak")):
        evaluate.add_argument(bound, type=float, metavar="X",
                              help=f"the {text} of every page and of the pooled score; exit "
                                   f"1 when it is missed")


def _evaluate(args: argparse.Namespace, config: LayoutConfig, profile: Profile | None
              ) -> Outcome:
    """What ``layoutkit evaluate`` prints (the text or JSON report) and writes (the
    HTML report); exit status 1 when a bound is missed."""
    from ..tools.evaluation import Bounds, evaluate, json_report, text_report

    bounds = Bounds(args.min_order, args.min_found, args.max_leak)
    evaluation = evaluate(args.truths, config, profile=profile, engine=args.engine,
                          jobs=args.jobs, bounds=bounds)
    files: dict[Path | None, str | Iterable[str]] = {
        None: json_report(evaluation) if args.json else text_report(evaluation)}
    if args.html is not None:
        from ..tools.report import html_report

        files[args.html] = html_report(evaluation)
    return Outcome(files, status=1 if evaluation.failures else 0)


def _truth_command(commands: Commands) -> None:
    """``layoutkit truth draft FILE -o TRUTH``, ``layoutkit truth mine FILE [-o
    TRUTH]`` and ``layoutkit truth review TRUTH -o HTML``: a truth file drafted from
    today's reading, one mined from a tagged PDF's structure tree, and one shown beside
    its pages."""
    truth = commands.add_parser(
        "truth", help="draft a truth file from the reading, mine one from a tagged PDF, "
                      "or review one beside its pages",
        description="draft: write a truth file (layoutkit.truth/1) of FILE's pages as read "
                    "today, every page checked TODO, for a person to correct. mine: write "
                    "one from a tagged PDF's structure tree. review: write "
                    "one HTML page showing each labelled page of TRUTH beside its lines, "
                    "numbered in reading order, the numbers drawn where the lines stand.")
    actions = truth.add_subparsers(dest="action", required=True, metavar="ACTION",
                                   parser_class=Parser)
    draft = actions.add_parser("draft", help="write a truth file from today's reading of FILE")
    draft.add_argument("file", type=Path, help="the PDF or image to label")
    draft.add_argument("--pages", metavar="SPEC",
                       help="pages to label, such as 1,3-5,9- or -4 (default: all)")
    draft.add_argument("-o", "--output", type=Path, required=True, metavar="TRUTH",
                       help="the truth file to write (name it <document stem>.truth.json)")
    draft.add_argument("--force", action="store_true", help="replace TRUTH if it exists")
    draft.add_argument("--tables", action="store_true",
                       help="also find ruled tables, so their lines are labelled tables")
    draft.add_argument("--password", metavar="PASSWORD",
                       help="the user password of an encrypted PDF")
    reading_options(draft)
    mine = actions.add_parser(
        "mine", help="write a truth file from FILE's tags (a tagged PDF's structure tree)",
        description="Write a truth file (layoutkit.truth/1) of a tagged PDF's pages from "
                    "its structure tree: the body lines in the tree's reading order, the "
                    "artifacts as furniture, the types its elements give (headings with "
                    "their levels, list items, tables, contents, captions, footnotes). A "
                    "page whose tags contradict it (text outside the tree, lines read "
                    "upward, one element for the whole page) is refused, and so is a "
                    "document without tags: exit status 1.")
    mine.add_argument("file", type=Path, help="the tagged PDF")
    mine.add_argument("--pages", metavar="SPEC",
                      help="pages to mine, such as 1,3-5,9- or -4 (default: all)")
    mine.add_argument("-o", "--output", type=Path, metavar="TRUTH",
                      help="the truth file to write (default: <FILE stem>.truth.json beside "
                           "FILE)")
    mine.add_argument("--force", action="store_true", help="replace TRUTH if it exists")
    review = actions.add_parser("review", help="write an HTML page of TRUTH beside its pages")
    review.add_argument("truth", type=Path, metavar="TRUTH", help="a layoutkit.truth/1 file")
    review.add_argument("-o", "--output", type=Path, required=True, metavar="HTML",
                        help="the HTML file to write")
    review.add_argument("--dpi", type=dpi, default=100,
                        help=f"resolution of the page pictures, {DPI_RANGE[0]} to {DPI_RANGE[1]} "
                             f"(default: %(default)s)")
    reading_options(review, jobs=False)


def _truth(args: argparse.Namespace, config: LayoutConfig, profile: Profile | None
           ) -> Outcome:
    """What ``layoutkit truth`` makes: the draft written (and a line saying what it
    holds), or the review page.  A draft never replaces a truth file without
    ``--force``: a corrected truth is a person's work."""
    if args.action == "review":
        from ..tools.review import review_truth

        if args.output.resolve() == args.truth.resolve():
            raise UsageError(f"{args.output}: the output would overwrite the truth file")
        return Outcome({args.output: review_truth(args.truth, config, profile=profile,
                                                  engine=args.engine, dpi=args.dpi),
                        None: text_name(f"{args.output}: the labelled pages of {args.truth} "
                                        f"beside their numbered lines\n")})
    from ..tools.truth import dumps
    from ..tools.truth_draft import document_reference, draft_truth

    if args.output.exists() and not args.force:
        raise UsageError(f"{args.output}: exists; a draft replaces a truth file only with "
                         f"--force")
    document_reference(args.file, args.output)  # a name a truth file cannot hold: before reading
    document = parse(args.file, config, args.pages, engine=args.engine, jobs=args.jobs,
                     profile=profile, tables=args.tables, password=args.password)
    truth = draft_truth(document, args.output, sha256_of(args.file), profile=args.profile)
    lines = sum(len(page.lines) for page in truth.pages)
    return Outcome({args.output: dumps(truth),
                    None: text_name(f"{args.output}: {len(truth.pages)} page(s), {lines} body "
                                    f"line(s) drafted from the reading of {args.file}; every "
                                    f"page checked TODO\n")})


def _mine(args: argparse.Namespace) -> Outcome:
    """What ``layoutkit truth mine`` makes: the truth file mined from FILE's tags and a
    line saying what it holds; a page whose tags contradict it is refused (TagsRefusedError,
    exit status 1)."""
    from ..tools.tagged import mine_truth
    from ..tools.truth import SUFFIX, dumps
    from ..tools.truth_draft import document_reference

    output: Path = args.output or args.file.with_name(args.file.stem + SUFFIX)
    if output.exists() and not args.force:
        raise UsageError(f"{output}: exists; mined truth replaces a truth file only with "
                         f"--force")
    if not args.file.is_file():
        raise UsageError(f"{args.file}: no such file")
    document_reference(args.file, output)
    truth = mine_truth(args.file, output, args.pages)
    lines = sum(len(page.lines) for page in truth.pages)
    return Outcome({output: dumps(truth),
                    None: text_name(f"{output}: {len(truth.pages)} page(s), {lines} body "
                                    f"line(s) mined from the structure tree of "
                                    f"{args.file}\n")})
