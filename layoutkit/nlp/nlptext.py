"""NLPTextDocument: the ``.nlp.txt`` structured text format, written and read.

The format is the one of the nlptextdoc project (wordslab; described at
cognitivefactory.org/nlptextdocument, its writer and reader in the
``NLPTextDocumentWriter``/``NLPTextDocumentReader`` sources): UTF-8 lines,

* a header of ``## NLPTextDocument Title|Uri|Timestamp <value>`` and
  ``## NLPTextDocument Metadata <key>=<value>`` lines, then an empty line;
* ``## <NestingLevel> <Element> Start [title]`` ... ``## <NestingLevel> <Element> End
  [<<title>>]`` around the content of a Section, List, NavigationList, ListItem,
  Table, TableHeader or TableCell (a cell's title is ``row,col`` or
  ``row:rowspan,col:colspan``); the nesting level counts the open elements, 1 at
  the top; an empty line before each Section, List and Table;
* the compact form of a short list, ``## <NestingLevel> List Items [title] >> item
  || item``;
* every other line is a TextBlock, its line breaks written ``\\n``.

So that any text comes back exactly, this writer also escapes a backslash as
``\\\\``, a carriage return as ``\\r`` and a text line (or a title) starting with
``#`` as ``\\#``; a file without backslashes reads as the published format says.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..config import NlpConfig
from ..errors import DocumentError
from ..files import text_name
from ..model import Document, Line, LineType, Page, tables_by_page
from ..model import Table as RuledTable
from .lexicon import document_lexicon, lexicon
from .paragraphs import Paragraph, ignored_codes, paragraphs, paragraphs_of
from .spool import spooled

__all__ = ["ListElement", "ListItem", "NLPTextDocument", "Section", "Table", "TableCell",
           "TextBlock", "from_document", "read", "write", "write_pieces"]

_PROPERTY = "## NLPTextDocument "
_ELEMENT = re.compile(r"## (\d+) (Section|List|NavigationList|ListItem|Table|TableHeader|"
                      r"TableCell) (Start|End|Items)(?: |$)")
_CELL = re.compile(r"(\d+)(?::(\d+))?,(\d+)(?::(\d+))?")
_SHORT_LIST = 120
"""A list whose items (one text block each) add up to at most this many characters
is written in the compact one-line form."""


@dataclass(frozen=True, slots=True)
class TextBlock:
    """A run of text (a paragraph); never empty."""

    text: str


@dataclass(frozen=True, slots=True)
class ListItem:
    elements: tuple[Element, ...] = ()


@dataclass(frozen=True, slots=True)
class ListElement:
    """A List, or a NavigationList (a table of contents, a menu)."""

    title: str = ""
    items: tuple[ListItem, ...] = ()
    navigation: bool = False


@dataclass(frozen=True, slots=True)
class TableCell:
    """A cell (or a header cell) of a table, at 1-based ``row`` and ``col``."""

    row: int
    col: int
    elements: tuple[Element, ...] = ()
    header: bool = False
    rowspan: int = 1
    colspan: int = 1


@dataclass(frozen=True, slots=True)
class Table:
    title: str = ""
    cells: tuple[TableCell, ...] = ()


@dataclass(frozen=True, slots=True)
class Section:
    title: str = ""
    elements: tuple[Element, ...] = ()


Element = TextBlock | Section | ListElement | ListItem | Table | TableCell


@dataclass(frozen=True, slots=True)
class NLPTextDocument:
    """A document tree with its header properties."""

    title: str = ""
    uri: str = ""
    timestamp: str = ""
    metadata: tuple[tuple[str, str], ...] = ()
    elements: tuple[Element, ...] = field(default=())


def _escape(text: str) -> str:
    text = text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
    return "\\" + text if text.startswith("#") else text


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "r": "\r"}.get(m[1], m[1]), text)


def write(doc: NLPTextDocument) -> str:
    """The ``.nlp.txt`` text of ``doc``."""
    return "\n".join([*_header(doc), *_elements(doc.elements, 1)]) + "\n"


def _header(doc: NLPTextDocument) -> list[str]:
    """The header lines of ``doc``'s text, with the empty line after them."""
    return [f"{_PROPERTY}Title {_escape(doc.title)}", f"{_PROPERTY}Uri {_escape(doc.uri)}",
            f"{_PROPERTY}Timestamp {_escape(doc.timestamp)}",
            *(f"{_PROPERTY}Metadata {_escape(k)}={_escape(v)}" for k, v in doc.metadata), ""]


def _elements(elements: tuple[Element, ...], level: int) -> Iterator[str]:
    for element in elements:
        if isinstance(element, TextBlock):
            yield _escape(element.text)
            continue
        name, title, children = _parts(element)
        if isinstance(element, ListElement) and _compact(element):
            items = " || ".join(_escape(_only_text(item)) for item in element.items)
            yield f"## {level} {name} Items {_escape(title) + ' ' if title else ''}>> {items}"
            continue
        titled = isinstance(element, (Section, ListElement, Table))
        yield from _start(name, title, level, titled)
        yield from _elements(children, level + 1)
        yield _end(name, title, level, titled)


def _start(name: str, title: str, level: int, titled: bool) -> Iterator[str]:
    """The lines that open an element (a Section, List or Table, ``titled``, after an
    empty line)."""
    if titled:
        yield ""
    yield f"## {level} {name} Start" + (f" {_escape(title)}" if title else "")


def _end(name: str, title: str, level: int, titled: bool) -> str:
    """The line that closes an element (a Section, List or Table with the start of
    its title, when ``titled``)."""
    short = (title if len(title) <= 47 else title[:47] + "...") if titled else ""
    return f"## {level} {name} End" + (f" <<{_escape(short)}>>" if short else "")


def _parts(element: Element) -> tuple[str, str, tuple[Element, ...]]:
    """An element's name in the format, its title and its children."""
    if isinstance(element, Section):
        return "Section", element.title, element.elements
    if isinstance(element, ListElement):
        return ("NavigationList" if element.navigation else "List"), element.title, element.items
    if isinstance(element, ListItem):
        return "ListItem", "", element.elements
    if isinstance(element, Table):
        return "Table", element.title, element.cells
    assert isinstance(element, TableCell)
    spans = (f"{element.row},{element.col}" if (element.rowspan, element.colspan) == (1, 1)
             else f"{element.row}:{element.rowspan},{element.col}:{element.colspan}")
    return ("TableHeader" if element.header else "TableCell"), spans, element.elements


def _only_text(item: ListItem) -> str:
    block = item.elements[0]
    assert isinstance(block, TextBlock)
    return block.text


def _compact(element: ListElement) -> bool:
    """Whether a list can be written on one line and read back the same."""
    if not element.items or ">>" in element.title or element.title.endswith(" "):
        return False
    texts = []
    for item in element.items:
        if len(item.elements) != 1 or not isinstance(item.elements[0], TextBlock):
            return False
        texts.append(item.elements[0].text)
    return (sum(map(len, texts)) <= _SHORT_LIST
            and all(t == t.strip() and t and "||" not in t and "|" not in t[-1:] + t[:1]
                    and "\n" not in t and "\\" not in t for t in texts))


def read(text: str, *, where: str = "<nlp.txt>") -> NLPTextDocument:
    """The tree ``text`` (the content of a ``.nlp.txt`` file) holds.

    Raises DocumentError naming ``where`` and the line for a file that is not in
    the format."""
    lines = text.removeprefix("\ufeff").split("\n")
    props: dict[str, str] = {}
    metadata: list[tuple[str, str]] = []
    at = 0
    while at < len(lines) and lines[at].startswith(_PROPERTY):
        name, _, value = lines[at][len(_PROPERTY):].partition(" ")
        if name == "Metadata":
            key, _, val = value.partition("=")
            metadata.append((_unescape(key), _unescape(val)))
        else:
            props[name] = _unescape(value)
        at += 1
    # each open element: (name, title, children so far, level)
    stack: list[tuple[str, str, list[Element]]] = [("Document", "", [])]
    for number, line in enumerate(lines[at:], start=at + 1):
        line = line.removesuffix("\r")
        if not line:
            continue
        match = _ELEMENT.match(line)
        if not line.startswith("##"):
            stack[-1][2].append(TextBlock(_unescape(line)))
            continue
        if match is None:
            raise DocumentError(f"{where}: line {number}: expected '## <level> <Element> "
                                f"Start|End|Items', got {line[:50]!r}")
        level, name, command = int(match[1]), match[2], match[3]
        rest = line[match.end():]
        expected = len(stack) - (command == "End")
        if level != expected:
            raise DocumentError(f"{where}: line {number}: nesting level {level}, expected "
                                f"{expected}")
        if command == "Start":
            stack.append((name, _unescape(rest), []))
        elif command == "End":
            if stack[-1][0] != name or len(stack) == 1:
                raise DocumentError(f"{where}: line {number}: {name} End without its Start")
            done, title, children = stack.pop()
            stack[-1][2].append(_build(done, title, children, where, number))
        else:
            head, sep, items = rest.partition(">> ")
            if not sep or name not in ("List", "NavigationList"):
                raise DocumentError(f"{where}: line {number}: expected '{name} Items [title] "
                                    ">> item || item'")
            stack[-1][2].append(ListElement(
                _unescape(head.removesuffix(" ")),
                tuple(ListItem((TextBlock(_unescape(item)),)) for item in items.split(" || ")),
                name == "NavigationList"))
    if len(stack) > 1:
        raise DocumentError(f"{where}: {stack[-1][0]} {stack[-1][1]!r} has no End")
    return NLPTextDocument(props.get("Title", ""), props.get("Uri", ""),
                           props.get("Timestamp", ""), tuple(metadata), tuple(stack[0][2]))


def _build(name: str, title: str, children: list[Element], where: str, number: int) -> Element:
    if name == "Section":
        return Section(title, tuple(children))
    if name == "ListItem":
        return ListItem(tuple(children))
    if name in ("TableHeader", "TableCell"):
        spans = _CELL.fullmatch(title)
        if spans is None:
            raise DocumentError(f"{where}: line {number}: {name} needs 'row,col' or "
                                f"'row:rowspan,col:colspan', got {title!r}")
        return TableCell(int(spans[1]), int(spans[3]), tuple(children), name == "TableHeader",
                         int(spans[2] or 1), int(spans[4] or 1))
    wrong = [c for c in children
             if not isinstance(c, ListItem if name.endswith("List") else TableCell)]
    if wrong:
        raise DocumentError(f"{where}: line {number}: {name} {title!r} holds something "
                            "other than its items or cells")
    if name == "Table":
        return Table(title, tuple(c for c in children if isinstance(c, TableCell)))
    return ListElement(title, tuple(c for c in children if isinstance(c, ListItem)),
                       name == "NavigationList")


def from_document(document: Document, skip: frozenset[str], *, timestamp: str = "",
                  metadata: tuple[tuple[str, str], ...] = ()) -> NLPTextDocument:
    """The tree of a parsed document: a Section per heading, nested by heading level
    (its title the heading's text), lists of consecutive list items, a
    NavigationList for the contents, a Table for each run of table rows (a ruled
    table's cells when it was found, else each row one cell per line) and a
    TextBlock per paragraph, in reading order; lines of the ``skip`` codes left
    out."""
    root: list[Element] = []
    # open sections: (title, children)
    open_sections: list[tuple[str, list[Element]]] = []
    for part in _parts_of(paragraphs(document, skip, document_lexicon(document)),
                          tables_by_page(document.tables)):
        if isinstance(part, _Opened):
            open_sections.append((part.title, []))
            continue
        if isinstance(part, _Closed):
            title, children = open_sections.pop()
            part = Section(title, tuple(children))
        (open_sections[-1][1] if open_sections else root).append(part)
    path = Path(text_name(document.path.name))  # a name that is not UTF-8 as \xNN
    return NLPTextDocument(path.stem, path.name, timestamp, metadata,
                           tuple(root))


def write_pieces(name: str, pages: Iterable[Page], tables: Mapping[int, Sequence[RuledTable]],
                 skip: frozenset[str], *, timestamp: str = "",
                 metadata: tuple[tuple[str, str], ...] = ()) -> Iterator[str]:
    """The text [`write`][layoutkit.nlp.nlptext.write] gives of
    [`from_document`][layoutkit.nlp.nlptext.from_document] of the document named ``name`` whose
    ``pages`` come one at a time ([`layoutkit.iter_pages`][layoutkit.iter_pages]), its ruled
    ``tables`` by page (filled by the time the pages are all taken), a part at a time: the pages are
    taken once for the document's words (`spool`) before anything is written, then read back and
    written, a section's start as its heading comes and its end as the next heading of
    its level or above, so that memory holds the open sections' titles and the list or
    table being read, not the pages."""
    path = Path(text_name(name))  # a name that is not UTF-8 as \xNN
    titles: list[str] = []
    with spooled(pages, ignored_codes(NlpConfig())) as spool:
        words = lexicon(spool.vocabulary, list(spool.texts), NlpConfig())
        yield "\n".join(_header(NLPTextDocument(path.stem, path.name, timestamp,
                                                metadata))) + "\n"
        for part in _parts_of(paragraphs_of(spool.pages(), skip, words), tables):
            level = len(titles) + 1
            if isinstance(part, _Opened):
                titles.append(part.title)
                lines = list(_start("Section", part.title, level, True))
            elif isinstance(part, _Closed):
                lines = [_end("Section", titles.pop(), level - 1, True)]
            else:
                lines = list(_elements((part,), level))
            yield "".join(line + "\n" for line in lines)


@dataclass(frozen=True, slots=True)
class _Opened:
    """A heading that opens a section (the next elements are its own)."""

    title: str


@dataclass(frozen=True, slots=True)
class _Closed:
    """The end of the innermost open section."""


def _parts_of(found: Iterable[Paragraph], tables: Mapping[int, Sequence[RuledTable]]
              ) -> Iterator[Element | _Opened | _Closed]:
    """The tree of [`from_document`][layoutkit.nlp.nlptext.from_document] from its paragraphs in
    reading order (and the ruled tables by page), as it is read: the sections opened and closed, and
    the elements (lists and tables once their run ends) in between."""
    levels: list[int] = []
    run: list[Paragraph] = []
    for paragraph in found:
        first = paragraph.pieces[0].line
        if run and (run[-1].code[:2] != paragraph.code[:2]
                    or first.line_type in (LineType.HEADING, LineType.BODY)):
            yield _group(run, tables)
            run = []
        if first.line_type is LineType.HEADING:
            while levels and levels[-1] >= first.level:
                levels.pop()
                yield _Closed()
            levels.append(first.level)
            yield _Opened(paragraph.text)
        elif first.line_type is LineType.BODY:
            yield TextBlock(paragraph.text)
        else:
            run.append(paragraph)
    if run:
        yield _group(run, tables)
    for _ in levels:
        yield _Closed()


def _group(run: list[Paragraph], tables: Mapping[int, Sequence[RuledTable]]) -> Element:
    """The List, NavigationList or Table a run of list, contents or table paragraphs
    makes."""
    first = run[0].pieces[0].line
    if first.line_type is LineType.TABLE:
        ruled = _ruled_table(first, tables.get(first.page_no, ()))
        if ruled is not None:
            return Table("", tuple(TableCell(r + 1, c + 1, (TextBlock(text),), r == 0)
                                   for r, row in enumerate(ruled.rows)
                                   for c, text in enumerate(row) if text))
        return Table("", tuple(TableCell(r + 1, 1, (TextBlock(p.text),))
                               for r, p in enumerate(run)))
    return ListElement("", tuple(ListItem((TextBlock(p.text),)) for p in run),
                       first.line_type is LineType.TOC)


def _ruled_table(line: Line, tables: Sequence[RuledTable]) -> RuledTable | None:
    """The table of ``tables`` (those of the line's page) that ``line`` lies in."""
    for table in tables:
        box = table.bbox
        if (box.x0 <= line.bbox.x0 + 1
                and line.bbox.x1 <= box.x1 + 1 and box.top <= line.bbox.top + 1
                and line.bbox.bottom <= box.bottom + 1):
            return table
    return None
