"""The commands that write a document marked up, cut or drawn: ``layoutkit markdown``,
``html``, ``alto`` (the typed document marked up), ``chunks`` (passages for retrieval,
as JSON Lines) and ``draw`` (PNG overlays of its pages)."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from ..loudness import read_summary
from ..outputs import DPI_RANGE
from ..outputs.named import MARKUPS, output_text
from ..pipeline import parse
from .common import (
    Commands,
    Outcome,
    document_options,
    dpi,
    positive,
    read_in_part,
    reading_config,
)

__all__ = ["COMMANDS", "HELP", "add_commands", "run"]

HELP = {"markdown": "Markdown: headings, lists, pipe tables, paragraphs",
        "html": "semantic HTML (h1-h6, ul/ol, table, p), each element with its page and box",
        "alto": "ALTO v4 XML: pages, text blocks in reading order, lines, words with their "
                "boxes"}
"""The marked-up outputs of a typed document (`layoutkit.outputs.named.MARKUPS`),
by command, with their help."""
COMMANDS = (*HELP, "chunks", "draw")
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
        if name == "markdown":
            marked.add_argument("--page-separator", action="store_true",
                                help="a line <!-- page N --> before each page's text")
        if name != "alto":
            marked.add_argument("--images", type=Path, metavar="DIR",
                                help="write each figure (picture, drawing, captioned table) "
                                     "to DIR as p<page>-fig<n>.png and link it with its "
                                     "caption where it stands")
    chunks = commands.add_parser(
        "chunks", help="passages for retrieval under their headings, one JSON object a line, "
                       "each line's page and box")
    document_options(chunks)
    chunks.add_argument("--max-chars", type=positive, metavar="N",
                        help="at most N characters a chunk (default: no bound)")
    chunks.add_argument("--max-tokens", type=positive, metavar="N",
                        help="at most N tokens a chunk, as --tokenizer counts them "
                             "(default: no bound)")
    chunks.add_argument("--tokenizer", metavar="NAME",
                        help="what counts tokens: whitespace (the default), a tiktoken "
                             "encoding or model (cl100k_base, gpt-4o) or a Hugging Face "
                             "tokenizer, when that library is installed")
    draw = commands.add_parser("draw", help="PNG overlays of pages: regions, columns, line types")
    document_options(draw, folder=True)
    draw.add_argument("--dpi", type=dpi, default=100,
                      help=f"resolution, {DPI_RANGE[0]} to {DPI_RANGE[1]} (default: %(default)s)")


def run(args: argparse.Namespace) -> Outcome:
    """What ``layoutkit markdown``, ``html``, ``alto`` or ``chunks`` writes, or the
    pictures ``draw`` wrote."""
    config, profile = reading_config(args)
    if args.command == "chunks":  # a tokenizer that cannot be had fails before the reading
        from ..outputs.chunks import chunks_jsonl, token_counter

        count = token_counter(args.tokenizer)
    document = parse(args.file, config, args.pages, engine=args.engine, jobs=args.jobs,
                     profile=profile, tables=args.command in MARKUPS and args.tables,
                     password=args.password)
    status = read_in_part(document.unreadable)
    read = read_summary(len(document.pages), args.engine, document.ocr, profile)
    if args.command in MARKUPS:
        link_from = args.output.parent if args.output is not None else None
        text = output_text(args.command, document, config,
                           page_separator=getattr(args, "page_separator", False),
                           images=getattr(args, "images", None), link_from=link_from)
        return Outcome({args.output: text}, status, read)
    if args.command == "chunks":
        return Outcome({args.output: chunks_jsonl(document, max_chars=args.max_chars,
                                                  max_tokens=args.max_tokens,
                                                  tokenizer=count)}, status, read)
    from ..outputs.draw import draw_document

    for written in draw_document(document, args.output, dpi=args.dpi):
        logging.getLogger(__name__).info("wrote %s", written)
    return Outcome({}, status, read)
