"""The commands that read a document and write what was read: ``layoutkit text``
(its text in reading order), ``parse`` (the layout model as JSON), ``tokens``
(paragraphs, sentences and tokens) and ``nlptext`` (the NLPTextDocument tree)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from itertools import chain
from pathlib import Path

from .. import outputs
from ..config import LayoutConfig
from ..errors import UsageError
from ..loudness import read_summary
from ..model import Page, Table, tables_by_page
from ..outputs import SKIPPABLE, skip_codes
from ..pipeline import iter_pages, parse
from ..progress import pages_bar
from ..sources.inputs import STDIN
from .common import Commands, Outcome, document_options, read_in_part, reading_config

__all__ = ["COMMANDS", "PARSE_FLAGS", "add_commands", "run"]

NLP = ("tokens", "nlptext")
"""The commands that write NLP outputs."""
COMMANDS = ("text", "parse", *NLP)
"""The commands of this module, in the order of the command line's help."""
PARSE_FLAGS = {
    "--toc": "also write the contents to <OUT stem>.toc.json beside -o OUT: the PDF's "
             "outline (bookmarks) when it has one, else the headings typed",
    "--tables": "find ruled tables on every page, not only where rules draw a grid (lines "
                "typed tab), and write their cells to <OUT stem>.table.json beside -o OUT",
    "--table-drop-empty-columns": "leave the columns without text out of the .table.json",
    "--words": "give each line its words, with their boxes, font and size"}
"""The switches of ``layoutkit parse``, with their help."""


def add_commands(commands: Commands) -> None:
    """``layoutkit text``, ``parse``, ``tokens`` and ``nlptext``."""
    text = commands.add_parser("text", help="text in reading order, a form feed between pages")
    document_options(text)
    text.add_argument("--keep-furniture", action="store_true",
                      help="keep running headers and footers")
    text.add_argument("--skip", default="", metavar="TYPES",
                      help=f"leave out lines of these types, comma-separated: "
                           f"{', '.join(SKIPPABLE)} (h_ is every heading level)")
    text.add_argument("--paragraphs", action="store_true",
                      help="one paragraph a line: lines joined, words hyphenated at line ends "
                           "joined again")
    text.add_argument("--blank-lines", action="store_true",
                      help="a blank line between paragraphs (a heading, a list item, a "
                           "block of text each stand apart), as pdftotext writes; with "
                           "--paragraphs, a blank line after each")
    parse_cmd = commands.add_parser("parse", help="the layout model as JSON")
    document_options(parse_cmd)
    for flag, help_text in PARSE_FLAGS.items():
        parse_cmd.add_argument(flag, action="store_true", help=help_text)
    parse_cmd.add_argument("--images", type=Path, metavar="DIR",
                           help="write each figure (picture, drawing, captioned table) to DIR "
                                "as p<page>-fig<n>.png, and give each page its figures, "
                                "with their captions and files")
    tokens = commands.add_parser("tokens", help="paragraphs, sentences and spaCy tokens as JSON")
    document_options(tokens, model=False)
    tokens.add_argument("--model", metavar="NAME",
                        help="an installed trained spaCy pipeline such as en_core_web_sm "
                             "(default: a blank pipeline for the detected language)")
    nlptext = commands.add_parser("nlptext", help="the NLPTextDocument (.nlp.txt) tree: "
                                                  "sections, lists, tables, text blocks")
    document_options(nlptext)


def run(args: argparse.Namespace) -> Outcome:
    """What ``layoutkit text``, ``parse``, ``tokens`` or ``nlptext`` writes: a page at a
    time as the pages are laid out, or, where the whole document is needed first (a
    table of contents, tables, paragraphs, standard input, a password), once it is
    read."""
    config, profile = reading_config(args)
    parsing = args.command == "parse"
    text = args.command == "text"
    skip = skip_codes(args.skip) if text else frozenset()
    beside = {"--toc": parsing and args.toc, "--tables": parsing and args.tables}
    for option in (o for o, wanted in beside.items() if wanted and args.output is None):
        raise UsageError(f"{option}: expected -o OUT (its file goes beside it)")
    paragraphs = text and args.paragraphs
    blank = text and args.blank_lines
    # a page's text does not depend on its lines' types unless some types are left out,
    # paragraphs are parted (or their typing is logged): ``layoutkit text`` otherwise
    # leaves the lines untyped
    typed = not text or bool(skip) or args.verbose_linetypes or paragraphs or blank
    images = args.images if parsing else None
    whole = (beside["--toc"] or beside["--tables"] or "tab" in skip or args.file == STDIN
             or args.password or paragraphs or images is not None)
    if not whole:
        stream = iter_pages(args.file, config, args.pages, engine=args.engine, jobs=args.jobs,
                            profile=profile, tables=args.command == "nlptext", typed=typed,
                            progress=pages_bar(sys.stderr, args.quiet))
        status = read_in_part(stream.unreadable)
        asked = len(stream.wanted)
        read = read_summary(asked, args.engine, stream.ocr, profile)
        if args.command in NLP:
            return Outcome({args.output: _nlp_output(args, stream.path.name, stream,
                                                     stream.tables, config)}, status, read)
        pieces = outputs.dumps_pieces(stream.path, stream.page_count, stream.ocr, stream,
                                      words=args.words) if parsing else \
            chain(outputs.text_pieces(stream, furniture=args.keep_furniture, skip=skip,
                                      blank_lines=blank), ["\n"])
        return Outcome({args.output: pieces}, status, read)
    document = parse(args.file, config, args.pages, engine=args.engine, jobs=args.jobs,
                     profile=profile, tables="tab" in skip or beside["--tables"]
                     or args.command == "nlptext", typed=typed, password=args.password)
    status = read_in_part(document.unreadable)
    read = read_summary(len(document.pages), args.engine, document.ocr, profile)
    if args.command in NLP:
        return Outcome({args.output: _nlp_output(args, document.path.name, document.pages,
                                                 tables_by_page(document.tables), config)},
                       status, read)
    if paragraphs:
        from ..outputs.structure import FURNITURE, paragraph_text

        furniture = frozenset() if args.keep_furniture else FURNITURE
        return Outcome({args.output: paragraph_text(document, skip | furniture,
                                                    blank_lines=blank)}, status, read)
    if text:
        whole_text = outputs.document_text(document, furniture=args.keep_furniture, skip=skip,
                                           blank_lines=blank)
        return Outcome({args.output: whole_text + "\n"}, status, read)
    figures = None
    if images is not None:
        from ..outputs.figures import by_page, document_figures, figure_json, write_figures

        found = write_figures(document, document_figures(document, config.linetypes), images,
                              link_from=args.output.parent if args.output else None)
        figures = {page: [figure_json(f) for f in on_page] for page, on_page in by_page(found)}
    files: dict[Path | None, str | Iterable[str]] = {
        args.output: outputs.dumps(document, words=args.words, figures=figures)}
    if args.toc:
        files[args.output.with_suffix(".toc.json")] = outputs.toc_dumps(
            document, config.linetypes.heading_toc_incl_no_ctx)
    if args.tables:
        files[args.output.with_suffix(".table.json")] = outputs.table_dumps(
            document, empty_columns=not args.table_drop_empty_columns)
    return Outcome(files, status, read)


def _nlp_output(args: argparse.Namespace, name: str, pages: Iterable[Page],
                tables: Mapping[int, Sequence[Table]], config: LayoutConfig) -> Iterator[str]:
    """What ``layoutkit tokens`` or ``layoutkit nlptext`` writes of the document named
    ``name``, whose ``pages`` come one at a time (its ruled ``tables`` by page for
    ``nlptext``, known once the pages are all taken)."""
    if args.command == "tokens":
        # spaCy takes seconds to import: only this command loads it
        from ..nlp.tokens import tokens_pieces

        return tokens_pieces(name, pages, config.nlp, args.model)
    from ..nlp import nlptext
    from ..nlp.paragraphs import ignored_codes

    modified = datetime.now(tz=UTC) if args.file == STDIN else \
        datetime.fromtimestamp(args.file.stat().st_mtime, tz=UTC)
    # the contents become a NavigationList, so they are kept even when tokens skip them
    return nlptext.write_pieces(name, pages, tables, ignored_codes(config.nlp) - {"toc"},
                                timestamp=modified.isoformat(timespec="seconds"))
