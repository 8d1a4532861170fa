"""The ``layoutkit`` command: a thin layer that parses arguments, calls the
library and writes files.  Errors are one line on stderr: exit status 2 for a
usage error (bad option, missing file, page out of range), 1 for a document
that cannot be processed."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .api import parse
from .config import LayoutConfig
from .errors import ConfigError, LayoutkitError, UsageError
from .extract import ENGINES
from .output import dumps, write_atomic

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="layoutkit",
        description="Read columned documents (gazettes, records, reports) in reading order.")
    parser.add_argument("--version", action="version", version=f"layoutkit {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("file", type=Path, help="the PDF to read")
        sub.add_argument("--pages", metavar="SPEC",
                         help="pages to read, such as 1,3-5,9- (default: all)")
        sub.add_argument("-o", "--output", type=Path, metavar="OUT",
                         help="file to write (default: standard output)")
        sub.add_argument("--engine", choices=sorted(ENGINES), default=next(iter(ENGINES)),
                         help="glyph source (default: %(default)s)")
        sub.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                         help="set a configuration parameter (repeatable)")
        sub.add_argument("-v", "--verbose", action="store_true", help="log progress")

    text = commands.add_parser("text", help="text in reading order, a form feed between pages")
    common(text)
    text.add_argument("--keep-furniture", action="store_true",
                      help="keep running headers and footers")
    parse_cmd = commands.add_parser("parse", help="the layout model as JSON")
    common(parse_cmd)
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
            raise ConfigError(f"--set {key}={raw!r}: expected a {known[key].__name__}") from None
    return LayoutConfig.from_mapping(values, where="--set")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="layoutkit: %(message)s")
    if not args.verbose:
        logging.getLogger("pdfminer").setLevel(logging.ERROR)
    try:
        config = _config(args.set)
        document = parse(args.file, config, args.pages, engine=args.engine)
        if args.command == "text":
            result = document.text(furniture=args.keep_furniture) + "\n"
        else:
            result = dumps(document)
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
        sys.stdout.write(result)
        return 0
    try:
        write_atomic(args.output, result)
    except OSError as exc:
        print(f"layoutkit: error: {args.output}: cannot write ({exc.strerror or exc})",
              file=sys.stderr)
        return 1
    logging.getLogger(__name__).info("wrote %s", args.output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
