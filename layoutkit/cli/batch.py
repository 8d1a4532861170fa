"""``layoutkit batch INBOX --out DIR`` (every document of an inbox folder processed)
and ``layoutkit batch status`` (the state database's view)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ..errors import DocumentError, UsageError
from ..outputs.named import DEFAULT, FILES, output_names
from .common import Commands, Outcome, Parser, loudness_of, loudness_options

__all__ = ["COMMANDS", "DESCRIPTION", "add_commands", "run"]

COMMANDS = ("batch",)
"""The commands of this module."""
DESCRIPTION = ("Move each document of INBOX (and of its language subfolders such as INBOX/de) "
               "to INBOX/accepted or INBOX/rejected and write each accepted one's outputs to "
               "DIR/<name>_<id>/ (the document's file name and its id in the state database): "
               "the outputs --outputs names. 'layoutkit batch status' prints the state "
               "database's view.")
"""What ``layoutkit batch --help`` says the command does."""


def add_commands(commands: Commands) -> None:
    """``layoutkit batch INBOX --out DIR`` and ``layoutkit batch status``."""
    batch = commands.add_parser(
        "batch", help="process every document in an inbox folder (or: batch status)",
        description=DESCRIPTION, add_help=False)
    # 'status' is a value of INBOX, not a subcommand: its own help is a parser of its own
    status = Parser(prog="layoutkit batch status",
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
    batch.add_argument("--outputs", default=",".join(DEFAULT), metavar="NAMES",
                       help="the outputs written into each document's folder, comma-separated: "
                            + ", ".join(f"{name} ({file})" for name, file in FILES.items())
                            + " (default: %(default)s)")
    loudness_options(batch)


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


def run(args: argparse.Namespace) -> Outcome:
    """What ``layoutkit batch`` prints: the status, or the run's summary (an error,
    exit status 1, when a document failed: the next run tries it again)."""
    # SQLAlchemy takes a third of a second to import: only this command loads it
    from ..batch import BatchOptions, run_batch, status_text

    if args.out is None and not (args.inbox == "status" and args.db):
        raise UsageError("batch: --out DIR is required" + (" (or --db URL)" if args.inbox ==
                                                            "status" else ""))
    options = BatchOptions(Path(args.inbox), args.out or Path(), args.db, args.workers,
                           args.executor, args.scheduler, args.profile, loudness_of(args),
                           outputs=DEFAULT if args.inbox == "status" else
                           output_names(args.outputs))
    if args.inbox == "status":
        return Outcome({None: status_text(options.database())})
    summary = run_batch(options, progress=sys.stderr)
    if summary.failed:
        raise DocumentError(f"batch: {summary.failed} document(s) failed, see layoutkit batch "
                            f"status; {summary.text().strip()}")
    return Outcome({None: summary.text()})
