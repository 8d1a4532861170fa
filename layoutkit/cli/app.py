"""The ``layoutkit`` command's parser, built from the commands of each module of
`layoutkit.cli`, and `main`, which runs the command given and writes what
it makes.  Errors are one line on stderr: exit status 2 for a usage error (bad
option, missing file, page out of range), 1 for a document that cannot be
processed."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from .. import __version__
from ..errors import LayoutkitError, UsageError
from ..files import write_atomic
from ..parallel import collector_paused
from ..sources.inputs import STDIN
from . import batch, config, outputs, profile, reading, serve, train, truth
from .common import Outcome, Parser, chosen_parser, loudness_of, profile_option

__all__ = ["RUNS", "build_parser", "main"]

_log = logging.getLogger(__name__)

# A command imports what it runs: the modules of the other commands (profiles,
# drawing, NLPTextDocument, tokens, batch) are imported where those commands start.

_MODULES = (reading, outputs, profile, batch, truth, train, config, serve)
"""The modules of the commands, in the order of the command line's help."""
RUNS: dict[str, Callable[[argparse.Namespace], Outcome]] = {
    name: module.run for module in _MODULES for name in module.COMMANDS}
"""The function that runs each command, by name."""


def build_parser() -> Parser:
    """The parser of the ``layoutkit`` command line and its commands."""
    parser = Parser(
        prog="layoutkit",
        description="Read columned documents (gazettes, records, reports) in reading order.")
    parser.add_argument("--version", action="version", version=f"layoutkit {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     parser_class=Parser)
    for module in _MODULES:
        module.add_commands(commands)
        if module is outputs:  # the commands that read one document take a profile
            for name in (*reading.COMMANDS, *outputs.COMMANDS):
                profile_option(commands.choices[name])
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: the process's arguments, the command
    the process runs); returns the exit status."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # told by the parser of the command they were given to
        chosen_parser(parser, args).error(f"unrecognized arguments: {' '.join(extra)}")
    loudness_of(args).apply()
    # The values a command makes hold no reference cycles (see collector_paused), so
    # the collector stays paused until it ends; when the process ends with it, what is
    # left is frozen, and the interpreter's collection at exit does not traverse it
    # (a tenth of a second on a 38-page issue).
    with collector_paused():
        status = _command(args)
        if argv is None:
            gc.freeze()
    return status


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
    started = time.monotonic()
    try:
        _check_output(args)
        outcome = RUNS[args.command](args)
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
              f"or ocr_max_pixels, or read in fewer processes, --jobs 1)", file=sys.stderr)
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
        _log.info("wrote %s", path)
    if outcome.read is not None:
        _log.info("%s: %s in %.2f s", args.file, outcome.read, time.monotonic() - started)
    return outcome.status


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
