"""What the commands share: the parser with one-line errors, the options of every
command that reads documents, ``--set``'s settings read into a configuration, and
the `Outcome` a command hands back for the command line to write."""

from __future__ import annotations

import argparse
import difflib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ..config import LayoutConfig
from ..errors import ConfigError
from ..loudness import Loudness
from ..outputs import DPI_RANGE
from ..parallel import AUTO, MOST_PROCESSES, PAGES_PER_PROCESS, Jobs
from ..pipeline import loaded_profile
from ..sources import DEFAULT_ENGINE, ENGINES

if TYPE_CHECKING:
    from ..profile import Profile

__all__ = ["Commands", "Outcome", "Parser", "chosen_parser", "document_options", "dpi",
           "loudness_of", "loudness_options", "output_file", "positive", "profile_option",
           "read_in_part", "reading_config", "reading_options", "settings_config"]

Commands = Any
"""argparse's subparsers action, whose ``add_parser`` makes a command's parser."""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors, like every other error of the command, each
    pointing to the help of the command that was given (``layoutkit text --help``);
    the action that holds its subcommands is kept as ``commands``."""

    commands: Any = None

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"layoutkit: error: {message} (see {self.prog} --help)\n")

    def add_subparsers(self, **kwargs: Any) -> Any:
        self.commands = super().add_subparsers(**kwargs)
        return self.commands


def chosen_parser(parser: argparse.ArgumentParser, args: argparse.Namespace
                  ) -> argparse.ArgumentParser:
    """The parser of the (sub)command ``args`` name, the deepest one that was given
    (``layoutkit profile check`` for ``args`` of that command)."""
    while (commands := getattr(parser, "commands", None)) is not None and \
            getattr(args, commands.dest, None) in commands.choices:
        parser = commands.choices[getattr(args, commands.dest)]
    return parser


def dpi(text: str) -> int:
    """``--dpi``'s value, a whole number within `layoutkit.outputs.DPI_RANGE`
    (else a usage error)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not DPI_RANGE[0] <= value <= DPI_RANGE[1]:
        raise argparse.ArgumentTypeError(f"expected {DPI_RANGE[0]} to {DPI_RANGE[1]}, "
                                         f"got {value}")
    return value


def positive(text: str) -> int:
    """A whole number above zero (``--max-chars``), else a usage error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number above 0, got {value}")
    return value


def output_file(text: str) -> Path | None:
    """``-o``'s value: the file to write, None for standard output (``-o -``); a name
    ending in a slash names a folder (a usage error)."""
    if text.endswith(("/", os.sep)):
        raise argparse.ArgumentTypeError(f"{text}: is a folder; expected the file to write")
    return None if text == "-" else Path(text)


def document_options(sub: argparse.ArgumentParser, *, folder: bool = False,
                     model: bool = True) -> None:
    """The options of a command that reads one document: the file, its pages, the
    output (a file, or with ``folder`` a folder), its password, the reading options
    (``--model`` with ``model``), OCR and its languages, and the logging of line
    types."""
    sub.add_argument("file", type=Path,
                     help="the PDF, image (png, jpeg, tiff, ...; read by OCR) or office or "
                          "markup document (docx, odt, rtf, html, epub, csv, rst, md; "
                          "converted to PDF first) to read; - reads it from standard input")
    sub.add_argument("--pages", metavar="SPEC",
                     help="pages to read, such as 1,3-5,9- or -4 (default: all): numbers "
                          "are places in the file (1 the first page); a part that is not "
                          "numbers names pages by the labels the PDF prints (/PageLabels): "
                          "iv, A-3, or a range of labels such as ii-v or iv-")
    if folder:
        sub.add_argument("-o", "--output", type=Path, metavar="DIR", required=True,
                         help="the folder to write the PNGs to")
    else:
        sub.add_argument("-o", "--output", type=output_file, metavar="OUT",
                         help="file to write; - or none: standard output")
    sub.add_argument("--password", metavar="PASSWORD",
                     help="the user password of an encrypted PDF")
    reading_options(sub, profile=False, model=model)
    sub.add_argument("--ocr", choices=("auto", "always", "never"),
                     help="read pages by OCR: auto (scanned pages only; the default), "
                          "always or never (sets the config key ocr)")
    sub.add_argument("--lang", metavar="LANGS",
                     help="the languages scanned pages are written in, tesseract or ISO "
                          "639-1 codes joined by + such as deu or de+fr (default: each "
                          "page's own, detected; sets the config key ocr_languages)")
    sub.add_argument("--verbose-linetypes", action="store_true",
                     help="log why each line was typed heading, list or contents")


def _jobs(text: str) -> Jobs:
    """An argparse type: ``auto`` or a whole number (checked by the pipeline, as a
    caller's ``jobs`` is)."""
    if text == AUTO:
        return AUTO
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected 'auto' or a whole number of processes, got {text!r}") from None


def reading_options(sub: argparse.ArgumentParser, *, jobs: bool = True,
                    profile: bool = True, model: bool = True) -> None:
    """The options of every command that reads documents: the glyph engine, the
    processes (``jobs``), configuration settings, the line-type model (``model``;
    ``tokens`` has a ``--model`` of its own, spaCy's), progress logging and
    (``profile``) a publication profile."""
    sub.add_argument("--engine", choices=list(ENGINES), default=DEFAULT_ENGINE,
                     help="glyph source (default: %(default)s)")
    if jobs:
        sub.add_argument("--jobs", type=_jobs, default=AUTO, metavar="N|auto",
                         help="read and lay out pages in N processes (default: auto, one "
                              f"per processor, {MOST_PROCESSES} at most, with "
                              f"{PAGES_PER_PROCESS} pages each at least)")
    sub.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                     help="set a configuration parameter (repeatable; see layoutkit config)")
    if model:
        sub.add_argument("--model", metavar="FILE", dest="linetypes_model",
                             help="type lines with this model file (made by layoutkit train), "
                              "'learned' (the shipped model) or 'rules' (as --set model=...)")
    loudness_options(sub)
    if profile:
        sub.add_argument("--profile", metavar="NAME|PATH", help="a publication profile")


def profile_option(sub: argparse.ArgumentParser) -> None:
    """``--profile`` of a command that reads one document."""
    sub.add_argument("--profile", metavar="NAME|PATH",
                     help="a publication profile: a bundled name (see layoutkit profiles) "
                          "or a TOML file")


def loudness_options(sub: argparse.ArgumentParser) -> None:
    """``-v`` (log what is done to each document and page, and other libraries'
    information too) and ``-q`` (no progress bar, no warnings: errors only)."""
    loudness = sub.add_mutually_exclusive_group()
    loudness.add_argument("-v", "--verbose", action="store_true",
                          help="log what is done: each page read (engine, OCR) and each "
                               "document (pages, profile, time)")
    loudness.add_argument("-q", "--quiet", action="store_true",
                          help="no progress bar and no warnings: errors only")


def loudness_of(args: argparse.Namespace) -> Loudness:
    """How loud the command line ``args`` ask the command to be."""
    return Loudness(getattr(args, "verbose", False), getattr(args, "quiet", False),
                    getattr(args, "verbose_linetypes", False))


def settings_config(settings: Sequence[str], base: LayoutConfig) -> LayoutConfig:
    """``base`` with ``KEY=VALUE`` strings applied, values read as the key's type; a
    bad setting raises ConfigError pointing to ``layoutkit config``."""
    known = {name: type(value) for name, value in LayoutConfig().as_mapping().items()}
    values: dict[str, object] = {}
    for setting in settings:
        key, sep, raw = setting.partition("=")
        key = key.strip()
        if not sep:
            raise ConfigError(f"--set {setting!r}: expected KEY=VALUE")
        if key not in known:
            close = difflib.get_close_matches(key.lower(), known, n=3)
            raise ConfigError(f"--set {key!r}: unknown key; " + (
                f"did you mean {' or '.join(close)}? (see layoutkit config)" if close else
                "layoutkit config lists the keys"))
        try:
            values[key] = (_flag(raw) if known[key] is bool else known[key](raw.strip()))
        except ValueError:
            kind = {int: "whole number", bool: "true or false"}.get(known[key], "number")
            raise ConfigError(f"--set {key}={raw!r}: expected a {kind} (see layoutkit "
                              f"config {key})") from None
    try:
        return base.replace(**values)
    except ConfigError as exc:
        named = next((f" {k}" for k in values if repr(k) in str(exc)), "")
        raise ConfigError(f"{exc} (see layoutkit config{named})") from None


def _flag(raw: str) -> bool:
    """``true``/``false`` (or ``1``/``0``, ``yes``/``no``) as a bool."""
    word = raw.strip().lower()
    if word not in ("true", "false", "1", "0", "yes", "no"):
        raise ValueError(raw)
    return word in ("true", "1", "yes")


def reading_config(args: argparse.Namespace) -> tuple[LayoutConfig, Profile | None]:
    """The configuration a command that reads documents reads them with: its profile's
    (or the defaults) with ``--set``, ``--ocr`` and ``--lang`` applied, and the
    profile."""
    profile = loaded_profile(getattr(args, "profile", None) or None)
    config = settings_config(args.set, profile.config if profile else LayoutConfig())
    if getattr(args, "ocr", None):
        config = config.replace(ocr=args.ocr)
    if getattr(args, "lang", None):
        config = config.replace(ocr_languages=args.lang)
    if getattr(args, "linetypes_model", None):
        config = config.replace(model=args.linetypes_model)
    return config, profile


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a command makes: the contents of its files by path (None: standard output)
    and its exit status, 1 when a check it ran failed (a bound missed, a page that
    changed) or its document was read in part (pages past a budget left unread) though
    the command itself ran."""

    files: dict[Path | None, str | Iterable[str]]
    """Each file's text, or its pieces as they are made (a document's pages)."""
    status: int = 0
    read: str | None = None
    """What was read, in words, for the log once the files are written (``-v``): the
    document's pages, how and with what (None: the command read no document)."""


def read_in_part(unreadable: Mapping[int, str]) -> int:
    """The exit status of a command whose document was read but for the pages
    ``unreadable`` (each already reported by a warning): 1 when there are any, the
    other pages written."""
    return 1 if unreadable else 0
