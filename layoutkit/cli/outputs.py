"""The commands that write a document marked up or drawn: ``layoutkit markdown``,
``html``, ``alto`` (the typed document marked up) and ``draw`` (PNG overlays of its
pages)."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from ..loudness import read_summary
from ..outputs import DPI_RANGE
from ..outputs.named import MARKUPS, output_text
from ..pipeline import parse
from .common import Commands, Outcome, document_options, dpi, read_in_part, reading_config

__all__ = ["COMMANDS", "HELP", "add_commands", "run"]

HELP = {"markdown": "Markdown: headings, lists, pipe tables, paragraphs",
        "html": "semantic HTML (h1-h6, ul/ol, table, p), each element with its page and box",
        "alto": "ALTO v4 XML: pages, text blocks in reading order, lines, words with their "
                "boxes"}
"""The marked-up outputs of a typed document (`layoutkit.outputs.named.MARKUPS`),
by command, with their help."""
COMMANDS = (*HELP, "draw")
"""The commands of this module, in the order of the command line's help."""


def add_commands(commands: Commands) -> None:
    """``layoutkit markdown``, ``html`` and ``alto`` (the document marked up) and
    ``draw``."""
    for name, help_text in HELP.items():
        marked = commands.add_parser(name, help=help_text)
        document_options(marked)
        marked.add_argument("--tables", action="store_true",
                            help="find ruled tables on every page, not only where rules draw "
                                 "a grid: their lines are typed tab and their cells are the "
                                 "table's (markdown, html)")
        if name != "alto":
            marked.add_argument("--images", type=Path, metavar="DIR",
                                help="write each figure (picture, drawing, captioned table) "
                                     "to DIR as p<page>-fig<n>.png and link it with its "
                                     "caption where it stands")
    draw = commands.add_parser("draw", help="PNG overlays of pages: regions, columns, line types")
    document_options(draw, folder=True)
    draw.add_argument("--dpi", type=dpi, default=100,
                      help=f"resolution, {DPI_RANGE[0]} to {DPI_RANGE[1]} (default: %(default)s)")


def run(args: argparse.Namespace) -> Outcome:
    """What ``layoutkit markdown``, ``html`` or ``alto`` writes, or the pictures
    ``draw`` wrote."""
    config, profile = reading_config(args)
    document = parse(args.file, config, args.pages, engine=args.engine, jobs=args.jobs,
                     profile=profile, tables=args.command in MARKUPS and args.tables,
                     password=args.password)
    status = read_in_part(document.unreadable)
    read = read_summary(len(document.pages), args.engine, document.ocr, profile)
    if args.command in MARKUPS:
        images = getattr(args, "images", None)
        link_from = args.output.parent if args.output is not None else None
        return Outcome({args.output: output_text(args.command, document, config, images=images,
                                                 link_from=link_from)}, status, read)
    from ..outputs.draw import draw_document

    for written in draw_document(document, args.output, dpi=args.dpi):
        logging.getLogger(__name__).info("wrote %s", written)
    return Outcome({}, status, read)
