"""The ``layoutkit`` command: a thin layer that parses arguments, calls the
library and writes files.  Errors are one line on stderr: exit status 2 for a
usage error (bad option, missing file, page out of range), 1 for a document
that cannot be processed."""

from __future__ import annotations

import argparse
import difflib
import gc
import logging
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from . import __version__
from .config import LayoutConfig
from .errors import ConfigError, DocumentError, LayoutkitError, ProfileError, UsageError
from .files import sha256_of, text_name, write_atomic
from .loudness import Loudness
from .model import Document, Page, Table, tables_by_page
from .outputs import (
    DPI_RANGE,
    SKIPPABLE,
    document_text,
    dumps,
    dumps_pieces,
    skip_codes,
    table_dumps,
    text_pieces,
    toc_dumps,
)
from .parallel import collector_paused
from .pipeline import iter_pages, loaded_profile, parse
from .progress import pages_bar
from .sources import DEFAULT_ENGINE, ENGINES
from .sources.inputs import STDIN

if TYPE_CHECKING:
    from .profile import Profile

__all__ = ["main"]

# A command imports what it runs: the modules of the other commands (profiles,
# drawing, NLPTextDocument, tokens, batch) are imported where those commands start.


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors, like every other error of the command."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"layoutkit: error: {message} (see layoutkit --help)\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="layoutkit",
        description="Read columned documents (gazettes, records, reports) in reading order.")
    parser.add_argument("--version", action="version", version=f"layoutkit {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     parser_class=_Parser)

    def common(sub: argparse.ArgumentParser, *, folder: bool = False) -> None:
        sub.add_argument("file", type=Path,
                         help="the PDF or image (png, jpeg, tiff, ...) to read; - reads it "
                              "from standard input")
        sub.add_argument("--pages", metavar="SPEC",
                         help="pages to read, such as 1,3-5,9- or -4 (default: all)")
        if folder:
            sub.add_argument("-o", "--output", type=Path, metavar="DIR", required=True,
                             help="the folder to write the PNGs to")
        else:
            sub.add_argument("-o", "--output", type=_output, metavar="OUT",
                             help="file to write; - or none: standard output")
        sub.add_argument("--password", metavar="PASSWORD",
                         help="the user password of an encrypted PDF")
        _reading_options(sub, profile=False)
        sub.add_argument("--ocr", choices=("auto", "always", "never"),
                         help="read pages by OCR: auto (scanned pages only; the default), "
                              "always or never (sets the config key ocr)")
        sub.add_argument("--lang", metavar="LANGS",
                         help="the languages scanned pages are written in, tesseract or ISO "
                              "639-1 codes joined by + such as deu or de+fr (default: each "
                              "page's own, detected; sets the config key ocr_languages)")
        sub.add_argument("--verbose-linetypes", action="store_true",
                         help="log why each line was typed heading, list or contents")

    text = commands.add_parser("text", help="text in reading order, a form feed between pages")
    common(text)
    text.add_argument("--keep-furniture", action="store_true",
                      help="keep running headers and footers")
    text.add_argument("--skip", default="", metavar="TYPES",
                      help=f"leave out lines of these types, comma-separated: "
                           f"{', '.join(SKIPPABLE)} (h_ is every heading level)")
    text.add_argument("--paragraphs", action="store_true",
                      help="one paragraph a line: lines joined, words hyphenated at line ends "
                           "joined again")
    parse_cmd = commands.add_parser("parse", help="the layout model as JSON")
    common(parse_cmd)
    parse_cmd.add_argument("--toc", action="store_true",
                           help="also write the headings to <OUT stem>.toc.json beside -o OUT")
    parse_cmd.add_argument("--tables", action="store_true",
                           help="find ruled tables on every page, not only where rules draw a "
                                "grid (lines typed tab), and write their cells to "
                                "<OUT stem>.table.json beside -o OUT")
    parse_cmd.add_argument("--table-drop-empty-columns", action="store_true",
                           help="leave the columns without text out of the .table.json")
    parse_cmd.add_argument("--words", action="store_true",
                           help="give each line its words, with their boxes, font and size")
    tokens = commands.add_parser("tokens", help="paragraphs, sentences and spaCy tokens as JSON")
    common(tokens)
    tokens.add_argument("--model", metavar="NAME",
                        help="an installed trained spaCy pipeline such as en_core_web_sm "
                             "(default: a blank pipeline for the detected language)")
    nlptext = commands.add_parser("nlptext", help="the NLPTextDocument (.nlp.txt) tree: "
                                                  "sections, lists, tables, text blocks")
    common(nlptext)
    _markup_commands(commands, common)
    _profile_commands(commands, common)
    _batch_command(commands)
    _regress_command(commands)
    _evaluate_command(commands)
    _truth_command(commands)
    return parser


def _dpi(text: str) -> int:
    """``--dpi``'s value, a whole number within :data:`~layoutkit.outputs.DPI_RANGE`
    (else a usage error)."""
    try:
        dpi = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise argparse.ArgumentTypeError(f"expected {DPI_RANGE[0]} to {DPI_RANGE[1]}, got {dpi}")
    return dpi


def _output(text: str) -> Path | None:
    """``-o``'s value: the file to write, None for standard output (``-o -``); a name
    ending in a slash names a folder (a usage error)."""
    if text.endswith(("/", os.sep)):
        raise argparse.ArgumentTypeError(f"{text}: is a folder; expected the file to write")
    return None if text == "-" else Path(text)


_NLP = ("tokens", "nlptext")
"""The commands that write NLP outputs."""
_MARKUPS = {"markdown": "Markdown: headings, lists, pipe tables, paragraphs",
            "html": "semantic HTML (h1-h6, ul/ol, table, p), each element with its page "
                    "and box",
            "alto": "ALTO v4 XML: pages, text blocks in reading order, lines, words with "
                    "their boxes"}
"""The marked-up outputs of a typed document, by command, with their help."""


def _markup_commands(commands: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """``layoutkit markdown``, ``html`` and ``alto``: the document marked up."""
    for name, help_text in _MARKUPS.items():
        markup = commands.add_parser(name, help=help_text)
        common(markup)
        markup.add_argument("--tables", action="store_true",
                            help="find ruled tables on every page, not only where rules draw "
                                 "a grid: their lines are typed tab and their cells are the "
                                 "table's (markdown, html)")


def _markup(command: str, document: Document, config: LayoutConfig) -> str:
    """What ``layoutkit markdown``, ``html`` or ``alto`` writes."""
    if command == "markdown":
        from .outputs.markdown import markdown

        return markdown(document, config.linetypes)
    if command == "html":
        from .outputs.html import html_document

        return html_document(document, config.linetypes)
    from .outputs.alto import alto

    return alto(document)


def _reading_options(sub: argparse.ArgumentParser, *, jobs: bool = True,
                     profile: bool = True) -> None:
    """The options of every command that reads documents: the glyph engine, the
    processes (``jobs``), configuration settings, progress logging and (``profile``)
    a publication profile."""
    sub.add_argument("--engine", choices=list(ENGINES), default=DEFAULT_ENGINE,
                     help="glyph source (default: %(default)s)")
    if jobs:
        sub.add_argument("--jobs", type=int, default=1, metavar="N",
                         help="read and lay out pages in N processes (default: %(default)s)")
    sub.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                     help="set a configuration parameter (repeatable)")
    _loudness(sub)
    if profile:
        sub.add_argument("--profile", metavar="NAME|PATH", help="a publication profile")


def _loudness(sub: argparse.ArgumentParser) -> None:
    """``-v`` (log progress, and other libraries' information too) and ``-q`` (no
    progress bar, no warnings: errors only)."""
    loudness = sub.add_mutually_exclusive_group()
    loudness.add_argument("-v", "--verbose", action="store_true", help="log progress")
    loudness.add_argument("-q", "--quiet", action="store_true",
                          help="no progress bar and no warnings: errors only")


def _profile_commands(commands: Any, common: Callable[..., None]) -> None:
    """The ``--profile`` option and the commands that write, check and show profiles."""
    draw = commands.add_parser("draw", help="PNG overlays of pages: regions, columns, line types")
    common(draw, folder=True)
    draw.add_argument("--dpi", type=_dpi, default=100,
                      help=f"resolution, {DPI_RANGE[0]} to {DPI_RANGE[1]} (default: %(default)s)")
    for name in ("text", "parse", "draw", "tokens", "nlptext", *_MARKUPS):
        commands.choices[name].add_argument(
            "--profile", metavar="NAME|PATH",
            help="a publication profile: a bundled name (see layoutkit profiles) or a TOML file")
    commands.add_parser("profiles", help="list the bundled publication profiles")
    profile = commands.add_parser("profile", help="check or draft a publication profile")
    actions = profile.add_subparsers(dest="action", required=True, metavar="ACTION",
                                     parser_class=_Parser)
    check = actions.add_parser("check", help="validate profiles; exit 2 on any problem")
    check.add_argument("profiles", nargs="+", metavar="FILE", help="profile (path or name)")
    suggest = actions.add_parser("suggest", help="draft a profile from a sample issue")
    common(suggest)


def _batch_command(commands: Any) -> None:
    """``layoutkit batch INBOX --out DIR`` and ``layoutkit batch status``."""
    batch = commands.add_parser(
        "batch", help="process every document in an inbox folder (or: batch status)",
        description="Move each document of INBOX (and of its language subfolders such as "
                    "INBOX/de) to INBOX/accepted or INBOX/rejected and write each accepted "
                    "one's outputs to DIR/<name>_<id>/. 'layoutkit batch status' prints the "
                    "state database's view.", add_help=False)
    # 'status' is a value of INBOX, not a subcommand: its own help is a parser of its own
    status = _Parser(prog="layoutkit batch status",
                     description="Print the state database's view of the batch: documents "
                                 "and actions by status, the runs, and every document "
                                 "rejected or failed with its reason.")
    batch.add_argument("-h", "--help", action=_BatchHelp, status=status,
                       help="show this help message and exit")
    batch.add_argument("inbox", metavar="INBOX|status", help="the inbox folder, or 'status'")
    for sub in (batch, status):
        sub.add_argument("--out", type=Path, metavar="DIR",
                         help="the folder for the outputs" if sub is batch else
                              "the folder the outputs were written to, which holds "
                              "batch.sqlite")
        sub.add_argument("--db", metavar="URL", help="state database, any SQLAlchemy URL "
                         "(default: sqlite:///DIR/batch.sqlite)")
    batch.add_argument("--profile", metavar="NAME|PATH", help="a publication profile")
    batch.add_argument("--workers", type=int, default=1, metavar="N",
                       help="documents processed at once (default: %(default)s)")
    batch.add_argument("--executor", default="local", metavar="local|dask",
                       help="a local process pool or a Dask cluster (default: %(default)s)")
    batch.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="a running Dask scheduler (implies --executor dask)")
    _loudness(batch)


class _BatchHelp(argparse.Action):
    """``-h`` of ``layoutkit batch``: the help of ``batch status`` after ``status``."""

    def __init__(self, option_strings: Sequence[str], dest: str, *,
                 status: argparse.ArgumentParser, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)
        self.status = status

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        (self.status if getattr(namespace, "inbox", None) == "status" else parser).print_help()
        parser.exit()


def _regress_command(commands: Any) -> None:
    """``layoutkit regress snapshot DIR -o SNAPSHOT`` and ``layoutkit regress check DIR
    SNAPSHOT``: a folder's reading kept, and compared with a new reading."""
    regress = commands.add_parser(
        "regress", help="snapshot the reading of a folder of samples, or check it against one",
        description="Read every PDF and image of DIR (not its subfolders) and keep each "
                    "page's lines, types and furniture in SNAPSHOT (snapshot), or read DIR "
                    "again and report every page that changed (check: exit 1 on a change)")
    actions = regress.add_subparsers(dest="action", required=True, metavar="ACTION",
                                     parser_class=_Parser)
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
        _reading_options(action)


def _regress(args: argparse.Namespace, config: LayoutConfig, profile: Profile | None
             ) -> Outcome:
    """What ``layoutkit regress`` prints: the snapshot written, or the check's report
    (exit status 1 when it found a change no ``--allow`` names)."""
    from .tools.regress import (
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


def _evaluate_command(commands: Any) -> None:
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
    _reading_options(evaluate)
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
    from .tools.evaluation import Bounds, evaluate, json_report, text_report

    bounds = Bounds(args.min_order, args.min_found, args.max_leak)
    evaluation = evaluate(args.truths, config, profile=profile, engine=args.engine,
                          jobs=args.jobs, bounds=bounds)
    files: dict[Path | None, str | Iterable[str]] = {
        None: json_report(evaluation) if args.json else text_report(evaluation)}
    if args.html is not None:
        from .tools.report import html_report

        files[args.html] = html_report(evaluation)
    return Outcome(files, status=1 if evaluation.failures else 0)


def _truth_command(commands: Any) -> None:
    """``layoutkit truth draft FILE -o TRUTH`` and ``layoutkit truth review TRUTH -o
    HTML``: a truth file drafted from today's reading, and one shown beside its pages."""
    truth = commands.add_parser(
        "truth", help="draft a truth file from the reading, or review one beside its pages",
        description="draft: write a truth file (layoutkit.truth/1) of FILE's pages as read "
                    "today, every page checked TODO, for a person to correct. review: write "
                    "one HTML page showing each labelled page of TRUTH beside its lines, "
                    "numbered in reading order, the numbers drawn where the lines stand.")
    actions = truth.add_subparsers(dest="action", required=True, metavar="ACTION",
                                   parser_class=_Parser)
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
    _reading_options(draft)
    review = actions.add_parser("review", help="write an HTML page of TRUTH beside its pages")
    review.add_argument("truth", type=Path, metavar="TRUTH", help="a layoutkit.truth/1 file")
    review.add_argument("-o", "--output", type=Path, required=True, metavar="HTML",
                        help="the HTML file to write")
    review.add_argument("--dpi", type=_dpi, default=100,
                        help=f"resolution of the page pictures, {DPI_RANGE[0]} to {DPI_RANGE[1]} "
                             f"(default: %(default)s)")
    _reading_options(review, jobs=False)


def _truth(args: argparse.Namespace, config: LayoutConfig, profile: Profile | None
           ) -> Outcome:
    """What ``layoutkit truth`` makes: the draft written (and a line saying what it
    holds), or the review page.  A draft never replaces a truth file without
    ``--force``: a corrected truth is a person's work."""
    if args.action == "review":
        from .tools.review import review_truth

        if args.output.resolve() == args.truth.resolve():
            raise UsageError(f"{args.output}: the output would overwrite the truth file")
        return Outcome({args.output: review_truth(args.truth, config, profile=profile,
                                                  engine=args.engine, dpi=args.dpi),
                        None: text_name(f"{args.output}: the labelled pages of {args.truth} "
                                        f"beside their numbered lines\n")})
    from .tools.truth import dumps
    from .tools.truth_draft import document_reference, draft_truth

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


def _batch(args: argparse.Namespace) -> str:
    """What ``layoutkit batch`` prints: the status, or the run's summary (an error,
    exit status 1, when a document failed: the next run tries it again)."""
    # SQLAlchemy takes a third of a second to import: only this command loads it
    from .batch import BatchOptions, run_batch, status_text

    if args.out is None and not (args.inbox == "status" and args.db):
        raise UsageError("batch: --out DIR is required" + (" (or --db URL)" if args.inbox ==
                                                            "status" else ""))
    options = BatchOptions(Path(args.inbox), args.out or Path(), args.db, args.workers,
                           args.executor, args.scheduler, args.profile, _loudness_of(args))
    if args.inbox == "status":
        return status_text(options.database())
    summary = run_batch(options, progress=sys.stderr)
    if summary.failed:
        raise DocumentError(f"batch: {summary.failed} document(s) failed, see layoutkit batch "
                            f"status; {summary.text().strip()}")
    return summary.text()


def _profiles(args: argparse.Namespace) -> str:
    """What ``layoutkit profiles`` prints (the bundled profiles), or ``layoutkit profile
    check`` (each profile ok, or a ProfileError with every problem)."""
    from .profile import bundled_profiles, load_profile

    if args.command == "profiles":
        return "".join(f"{name}\t{load_profile(path).description}\n"
                       for name, path in sorted(bundled_profiles().items()))
    problems = []
    for spec in args.profiles:
        try:
            load_profile(spec)
        except UsageError as exc:
            problems.append(str(exc))
    if problems:
        raise ProfileError(problems)
    return "".join(f"{spec}: ok\n" for spec in args.profiles)


def _config(settings: Sequence[str], base: LayoutConfig) -> LayoutConfig:
    """``base`` with ``KEY=VALUE`` strings applied, values read as the key's type."""
    known = {name: type(value) for name, value in LayoutConfig().as_mapping().items()}
    values: dict[str, object] = {}
    for setting in settings:
        key, sep, raw = setting.partition("=")
        key = key.strip()
        if not sep:
            raise ConfigError(f"--set {setting!r}: expected KEY=VALUE")
        if key not in known:
            close = difflib.get_close_matches(key, known, n=3)
            raise ConfigError(f"--set {key!r}: unknown key; " + (
                f"did you mean {' or '.join(close)}?" if close else
                "the keys are the fields of the sections of layoutkit/config.py"))
        try:
            values[key] = (_flag(raw) if known[key] is bool else known[key](raw.strip()))
        except ValueError:
            kind = {int: "whole number", bool: "true or false"}.get(known[key], "number")
            raise ConfigError(f"--set {key}={raw!r}: expected a {kind}") from None
    return base.replace(**values)


def _flag(raw: str) -> bool:
    """``true``/``false`` (or ``1``/``0``, ``yes``/``no``) as a bool."""
    word = raw.strip().lower()
    if word not in ("true", "false", "1", "0", "yes", "no"):
        raise ValueError(raw)
    return word in ("true", "1", "yes")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a command makes: the contents of its files by path (None: standard output)
    and its exit status, 1 when a check it ran failed (a bound missed, a page that
    changed) or its document was read in part (pages past a budget left unread) though
    the command itself ran."""

    files: dict[Path | None, str | Iterable[str]]
    """Each file's text, or its pieces as they are made (a document's pages)."""
    status: int = 0


def _run(args: argparse.Namespace) -> Outcome:
    """What the command writes, by file (None: standard output; none when it wrote its
    files itself), and its exit status."""
    if args.command == "profiles" or (args.command == "profile" and args.action == "check"):
        return Outcome({None: _profiles(args)})
    if args.command == "batch":
        return Outcome({None: _batch(args)})
    profile = loaded_profile(getattr(args, "profile", None) or None)
    config = _config(args.set, profile.config if profile else LayoutConfig())
    if getattr(args, "ocr", None):
        config = config.replace(ocr=args.ocr)
    if getattr(args, "lang", None):
        config = config.replace(ocr_languages=args.lang)
    if args.command == "regress":
        return _regress(args, config, profile)
    if args.command == "evaluate":
        return _evaluate(args, config, profile)
    if args.command == "truth":
        return _truth(args, config, profile)
    if args.command == "profile":
        from .tools.suggest_profile import suggest

        return Outcome({args.output: suggest(args.file, config, args.pages, engine=args.engine,
                                             jobs=args.jobs, password=args.password)})
    parsing = args.command == "parse"
    skip = skip_codes(args.skip) if args.command == "text" else frozenset()
    beside = {"--toc": parsing and args.toc, "--tables": parsing and args.tables}
    for option in (o for o, wanted in beside.items() if wanted and args.output is None):
        raise UsageError(f"{option}: expected -o OUT (its file goes beside it)")
    # a page's text does not depend on its lines' types unless some types are left out
    # (or their typing is logged): ``layoutkit text`` otherwise leaves the lines untyped
    typed = args.command != "text" or bool(skip) or args.verbose_linetypes or args.paragraphs
    whole = (beside["--toc"] or beside["--tables"] or "tab" in skip or args.file == STDIN
             or args.password or getattr(args, "paragraphs", False))
    if args.command in ("text", "parse", *_NLP) and not whole:
        # written a page at a time, as the pages are laid out
        stream = iter_pages(args.file, config, args.pages, engine=args.engine, jobs=args.jobs,
                            profile=profile, tables=args.command == "nlptext", typed=typed,
                            progress=pages_bar(sys.stderr, args.quiet))
        if args.command in _NLP:
            return Outcome({args.output: _nlp_output(args, stream.path.name, stream,
                                                     stream.tables, config)},
                           status=_read_in_part(stream.unreadable))
        return Outcome({args.output: dumps_pieces(stream.path, stream.page_count, stream.ocr,
                                                  stream, words=args.words) if parsing else
                        chain(text_pieces(stream, furniture=args.keep_furniture, skip=skip),
                              ["\n"])}, status=_read_in_part(stream.unreadable))
    document = parse(args.file, config, args.pages, engine=args.engine, jobs=args.jobs,
                     profile=profile, tables="tab" in skip or beside["--tables"]
                     or args.command == "nlptext" or (args.command in _MARKUPS and args.tables),
                     typed=typed, password=args.password)
    status = _read_in_part(document.unreadable)
    if args.command in _NLP:
        return Outcome({args.output: _nlp_output(args, document.path.name, document.pages,
                                                 tables_by_page(document.tables), config)},
                       status)
    if args.command in _MARKUPS:
        return Outcome({args.output: _markup(args.command, document, config)}, status)
    if args.command == "draw":
        from .outputs.draw import draw_document

        for written in draw_document(document, args.output, dpi=args.dpi):
            logging.getLogger(__name__).info("wrote %s", written)
        return Outcome({}, status)
    if not parsing and args.paragraphs:
        from .outputs.structure import FURNITURE, paragraph_text

        furniture = frozenset() if args.keep_furniture else FURNITURE
        return Outcome({args.output: paragraph_text(document, skip | furniture)},
                       status)
    if not parsing:
        return Outcome({args.output: document_text(document, furniture=args.keep_furniture,
                                                   skip=skip) + "\n"}, status)
    files: dict[Path | None, str | Iterable[str]] = {
        args.output: dumps(document, words=args.words)}
    if args.toc:
        files[args.output.with_suffix(".toc.json")] = toc_dumps(
            document, config.linetypes.heading_toc_incl_no_ctx)
    if args.tables:
        files[args.output.with_suffix(".table.json")] = table_dumps(
            document, empty_columns=not args.table_drop_empty_columns)
    return Outcome(files, status)


def _read_in_part(unreadable: Mapping[int, str]) -> int:
    """The exit status of a command whose document was read but for the pages
    ``unreadable`` (each already reported by a warning): 1 when there are any, the
    other pages written."""
    return 1 if unreadable else 0


def _nlp_output(args: argparse.Namespace, name: str, pages: Iterable[Page],
                tables: Mapping[int, Sequence[Table]], config: LayoutConfig) -> Iterator[str]:
    """What ``layoutkit tokens`` or ``layoutkit nlptext`` writes of the document named
    ``name``, whose ``pages`` come one at a time (its ruled ``tables`` by page for
    ``nlptext``, known once the pages are all taken)."""
    if args.command == "tokens":
        # spaCy takes seconds to import: only this command loads it
        from .nlp.tokens import tokens_pieces

        return tokens_pieces(name, pages, config.nlp, args.model)
    from .nlp import nlptext
    from .nlp.paragraphs import ignored_codes

    modified = datetime.now(tz=UTC) if args.file == STDIN else \
        datetime.fromtimestamp(args.file.stat().st_mtime, tz=UTC)
    # the contents become a NavigationList, so they are kept even when tokens skip them
    return nlptext.write_pieces(name, pages, tables, ignored_codes(config.nlp) - {"toc"},
                                timestamp=modified.isoformat(timespec="seconds"))


def _to_stdout(text: str | Iterable[str]) -> int:
    """Write ``text`` (or its pieces, each as it comes) to standard output as UTF-8 (as
    ``-o`` files are), whatever the locale; returns the exit status.  A reader that
    stops early (``| head``) is not an error; a write that fails (``> /dev/full``) is
    one line and status 1.  Either way standard output is pointed at the null device,
    so the interpreter's own flush at exit finds nothing left to write."""
    try:
        for piece in [text] if isinstance(text, str) else text:
            sys.stdout.buffer.write(piece.encode("utf-8"))
            sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()
    except LayoutkitError:  # a page that failed as it was made
        raise
    except OSError as exc:
        _drop_stdout()
        print(f"layoutkit: error: standard output: cannot write ({exc.strerror or exc})",
              file=sys.stderr)
        return 1
    return 0


def _drop_stdout() -> None:
    """Standard output pointed at the null device, what it still buffers dropped."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: the process's arguments, the command
    the process runs); returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    _loudness_of(args).apply()
    # The values a command makes hold no reference cycles (see collector_paused), so
    # the collector stays paused until it ends; when the process ends with it, what is
    # left is frozen, and the interpreter's collection at exit does not traverse it
    # (a tenth of a second on a 38-page issue).
    with collector_paused():
        status = _command(args)
        if argv is None:
            gc.freeze()
    return status


def _loudness_of(args: argparse.Namespace) -> Loudness:
    """How loud the command line ``args`` ask the command to be."""
    return Loudness(getattr(args, "verbose", False), getattr(args, "quiet", False),
                    getattr(args, "verbose_linetypes", False))


def _check_output(args: argparse.Namespace) -> None:
    """Raise a UsageError for an ``-o`` file that cannot be the command's output: the
    input itself, or a folder (``draw``'s ``-o`` is one)."""
    output: Path | None = getattr(args, "output", None)
    if output is None or args.command == "draw":
        return
    if "file" in args and args.file != STDIN and \
            os.path.realpath(output) == os.path.realpath(args.file):
        raise UsageError(f"{output}: the output would overwrite the input file")
    if output.is_dir():
        raise UsageError(f"-o {output}: is a folder; expected the file to write")


def _command(args: argparse.Namespace) -> int:
    """Run the parsed command and write what it makes; returns the exit status."""
    try:
        _check_output(args)
        outcome = _run(args)
    except UsageError as exc:
        for problem in str(exc).splitlines():
            print(f"layoutkit: error: {problem}", file=sys.stderr)
        return 2
    except LayoutkitError as exc:
        print(f"layoutkit: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"layoutkit: error: {exc.filename or getattr(args, 'file', '')}: "
              f"{exc.strerror or exc}",
              file=sys.stderr)
        return 1
    except MemoryError:
        print(f"layoutkit: error: {getattr(args, 'file', '') or args.command}: not enough "
              f"memory to finish (lower the budgets page_max_content_bytes, image_max_pixels "
              f"or ocr_max_pixels, or --jobs)", file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:  # Ctrl-C: what the command left, when it says
        if str(exc):
            print(f"layoutkit: {exc}", file=sys.stderr)
        return 130
    for path, content in outcome.files.items():
        try:
            if path is None:
                if _to_stdout(content):
                    return 1
                continue
            write_atomic(path, content)
        except LayoutkitError as exc:  # a page that failed as it was made
            print(f"layoutkit: error: {exc}", file=sys.stderr)
            return 2 if isinstance(exc, UsageError) else 1
        except OSError as exc:
            print(f"layoutkit: error: {path}: cannot write ({exc.strerror or exc})",
                  file=sys.stderr)
            return 1
        except KeyboardInterrupt:  # Ctrl-C as the pages are made and written
            return 130
        logging.getLogger(__name__).info("wrote %s", path)
    return outcome.status


if __name__ == "__main__":
    raise SystemExit(main())
