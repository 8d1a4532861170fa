"""``layoutkit train TRUTH_DIR... -o MODEL.npz``: a line-type model fitted to truth files
(with the lines the shipped model was fitted to, or ``--alone``), with its
cross-validated scores beside the rules' (`layoutkit.tools.train`)."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from ..errors import UsageError
from .common import Commands, Outcome, reading_config, reading_options

__all__ = ["COMMANDS", "add_commands", "run"]

COMMANDS = ("train",)
"""The commands of this module."""

_log = logging.getLogger(__name__)


def add_commands(commands: Commands) -> None:
    """``layoutkit train TRUTH_DIR... -o MODEL.npz``."""
    train = commands.add_parser(
        "train", help="fit a line-type model to truth files (layoutkit truth draft/review)",
        description="Read the pages labelled with line types in the truth files of each "
                    "TRUTH_DIR (or truth files named), fit a line-type model to them and "
                    "write it to MODEL (use it with --model MODEL or --set model=MODEL). "
                    "By default the model is fitted to those lines together with the "
                    "lines the shipped model was fitted to (shipped with layoutkit), each "
                    "of yours weighing more, so that a few corrected pages of one "
                    "publication teach its own conventions while the broad corpus holds "
                    "elsewhere; --alone fits your lines alone. "
                    "Prints precision and recall per class, cross-validated by publisher "
                    "(where the truth files name two or more, else by document, else by "
                    "page), beside those of the rules (or the configuration's model) on "
                    "the same pages.")
    train.add_argument("roots", nargs="+", type=Path, metavar="TRUTH_DIR",
                       help="a folder of *.truth.json files, or a truth file")
    train.add_argument("-o", "--output", type=Path, required=True, metavar="MODEL",
                       help="the model file to write (.npz)")
    train.add_argument("--alone", action="store_true",
                       help="fit the truth's lines alone, without the shipped model's")
    train.add_argument("--rows", type=Path, metavar="ROWS",
                       help="also write the truth's labelled lines (features, classes, "
                            "groups) to ROWS (.npz); the shipped model's rows are made so")
    reading_options(train, jobs=False)


def run(args: argparse.Namespace) -> Outcome:
    """The model file ``layoutkit train`` writes and the report it prints."""
    from ..tools.train import train_report

    if args.output.suffix != ".npz":
        raise UsageError(f"-o {args.output}: a model file ends in .npz")
    if args.rows is not None and args.rows.suffix != ".npz":
        raise UsageError(f"--rows {args.rows}: a rows file ends in .npz")
    config, _ = reading_config(args)
    made = train_report(args.roots, config, lambda name: _log.info("reading %s", name),
                        alone=args.alone)
    written = [(f"-o {args.output}", args.output, made.model)]
    if args.rows is not None:
        written.append((f"--rows {args.rows}", args.rows, made.rows))
    for option, path, data in written:
        try:
            path.write_bytes(data)
        except OSError as exc:
            raise UsageError(f"{option}: cannot write ({exc.strerror or exc})") from None
    return Outcome({None: "\n".join(made.lines) + "".join(f"\nwrote {path}"
                                                         for _, path, _ in written) + "\n"})
