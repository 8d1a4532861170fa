"""The ``layoutkit`` command: a thin layer that parses arguments, calls the
library and writes files.  Errors are one line on stderr: exit status 2 for a
usage error (bad option, missing file, page out of range), 1 for a document
that cannot be processed."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from . import __version__
from .api import parse
from .config import LayoutConfig
from .errors import ConfigError, LayoutkitError, UsageError
from .extract import DEFAULT_ENGINE, ENGINES
from .output import (
    SKIPPABLE,
    document_text,
    dumps,
    skip_codes,
    table_dumps,
    toc_dumps,
    write_atomic,
)

__all__ = ["main"]


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

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("file", type=Path, help="the PDF to read")
        sub.add_argument("--pages", metavar="SPEC",
                         help="pages to read, such as 1,3-5,9- or -4 (default: all)")
        sub.add_argument("-o", "--output", type=Path, metavar="OUT",
                         help="file to write (default: standard output)")
        sub.add_argument("--engine", choices=list(ENGINES), default=DEFAULT_ENGINE,
                         help="glyph source (default: %(default)s)")
        sub.add_argument("--jobs", type=int, default=1, metavar="N",
                         help="read pages in N processes (default: %(default)s)")
        sub.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                         help="set a configuration parameter (repeatable)")
        sub.add_argument("-v", "--verbose", action="store_true", help="log progress")
        sub.add_argument("--verbose-linetypes", action="store_true",
                         help="log why each line was typed heading, list or contents")

    text = commands.add_parser("text", help="text in reading order, a form feed between pages")
    common(text)
    text.add_argument("--keep-furniture", action="store_true",
                      help="keep running headers and footers")
    text.add_argument("--skip", default="", metavar="TYPES",
                      help=f"leave out lines of these types, comma-separated: "
                           f"{', '.join(SKIPPABLE)} (h_ is every heading level)")
    parse_cmd = commands.add_parser("parse", help="the layout model as JSON")
    common(parse_cmd)
    parse_cmd.add_argument("--toc", action="store_true",
                           help="also write the headings to <OUT stem>.toc.json beside -o OUT")
    parse_cmd.add_argument("--tables", action="store_true",
                           help="find ruled tables (lines typed tab) and write their cells to "
                                "<OUT stem>.table.json beside -o OUT")
    parse_cmd.add_argument("--table-drop-empty-columns", action="store_true",
                           help="leave the columns without text out of the .table.json")
    return parser


def _config(settings: Sequence[str]) -> LayoutConfig:
    """A config from ``KEY=VALUE`` strings, values read as the key's type."""
    known = {name: type(value) for name, value in
             ((n, getattr(LayoutConfig(), n)) for n in LayoutConfig.known_keys())}
    values: dict[str, object] = {}
    for setting in settings:
        key, sep, raw = setting.partition("=")
        key = key.strip()
        if not sep:
            raise ConfigError(f"--set {setting!r}: expected KEY=VALUE")
        if key not in known:
            raise ConfigError(f"--set {key!r}: unknown key; known keys: {', '.join(known)}")
        try:
            values[key] = known[key](raw.strip())
        except ValueError:
            kind = "whole number" if known[key] is int else "number"
            raise ConfigError(f"--set {key}={raw!r}: expected a {kind}") from None
    return LayoutConfig.from_mapping(values, where="--set")


def _to_stdout(text: str) -> int:
    """Write ``text`` to standard output as UTF-8 (as ``-o`` files are), whatever the
    locale; a reader that stops early (``| head``) is not an error."""
    try:
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="layoutkit: %(message)s")
    if not args.verbose:
        logging.getLogger("pdfminer").setLevel(logging.ERROR)
    logging.getLogger("layoutkit.linetypes").setLevel(
        logging.INFO if args.verbose_linetypes else logging.WARNING)
    try:
        if args.output is not None and args.output.resolve() == args.file.resolve():
            raise UsageError(f"{args.output}: the output would overwrite the input file")
        config = _config(args.set)
        parsing = args.command == "parse"
        skip = frozenset() if parsing else skip_codes(args.skip)
        beside = {"--toc": parsing and args.toc, "--tables": parsing and args.tables}
        for option in (o for o, wanted in beside.items() if wanted and args.output is None):
            raise UsageError(f"{option}: expected -o OUT (its file goes beside it)")
        tables = "tab" in skip or beside["--tables"]
        document = parse(args.file, config, args.pages, engine=args.engine, jobs=args.jobs,
                         tables=tables)
        extra: dict[Path, str] = {}
        if not parsing:
            result = document_text(document, furniture=args.keep_furniture, skip=skip) + "\n"
        else:
            result = dumps(document)
            if args.toc:
                extra[args.output.with_suffix(".toc.json")] = toc_dumps(
                    document, config.heading_toc_incl_no_ctx)
            if args.tables:
                extra[args.output.with_suffix(".table.json")] = table_dumps(
                    document, empty_columns=not args.table_drop_empty_columns)
    except UsageError as exc:
        print(f"layoutkit: error: {exc}", file=sys.stderr)
        return 2
    except LayoutkitError as exc:
        print(f"layoutkit: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"layoutkit: error: {exc.filename or args.file}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    if args.output is None:
        return _to_stdout(result)
    for path, content in {args.output: result, **extra}.items():
        try:
            write_atomic(path, content)
        except OSError as exc:
            print(f"layoutkit: error: {path}: cannot write ({exc.strerror or exc})",
                  file=sys.stderr)
            return 1
        logging.getLogger(__name__).info("wrote %s", path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
