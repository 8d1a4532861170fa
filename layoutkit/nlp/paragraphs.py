"""Paragraphs from typed lines: the running text an NLP user reads.

- Lines are taken in reading order, those of the skipped line types left out (by
  default as DCR's `spacy_ignore_line_type_*`: running headers, footers and contents).
- A paragraph is a run of body lines, a heading, a list item, a table row or a
  contents entry.  Body lines of one block part where a printed paragraph starts
  (`layoutkit.nlp.breaks`: a first-line indent, an outdent or a gap measured against
  the column's own left edge and leading, or a caption).
- Footnotes (`layoutkit.nlp.breaks.footnotes`: small type under a page's text,
  opening with a note mark) are paragraphs of their own, one a note, marked
  ``footnote``, read after the body paragraph that is open when the page ends, so a
  sentence running on past them stays whole.
- A body block that ends a column or a page without closing its sentence (no `.`, `!`,
  `?`, `:`, `。`, `！` or `？` at its end), or whose next block starts in lower case,
  runs on into the first block of the next column or page, so a sentence crossing the
  break stays whole.
- Lines are joined with a space, except that a word hyphenated at a line end is joined
  without its hyphen when the joined form is a word (see `line_join`; the words
  are `layoutkit.nlp.lexicon`'s, the document's and its language's), and an address
  broken at a line end and CJK text run on without one.
- Each paragraph keeps, for every line, where its text starts, so each character
  traces back to its line.
"""

from __future__ import annotations

from collections.abc import Collection, Container, Iterable, Iterator, Mapping
from dataclasses import dataclass

from ..config import NlpConfig
from ..linetypes.hyphens import (
    document_vocabulary,
    join_hyphenated,
    line_join,
    page_vocabulary,
)
from ..linetypes.lines import runs_on
from ..linetypes.lists import marker
from ..linetypes.outline import continues_heading
from ..model import Document, Line, LineType, Page
from .breaks import Key, Measure, footnotes, measure, note_mark, parted, remeasured

__all__ = ["Paragraph", "Piece", "document_vocabulary", "ignored_codes", "join_hyphenated",
           "kept_lines", "measure", "page_vocabulary", "paragraphs", "paragraphs_of",
           "starts_paragraph"]

_IGNORE_KEYS = {
    "h": "spacy_ignore_line_type_header",
    "f": "spacy_ignore_line_type_footer",
    "b": "spacy_ignore_line_type_body",
    "h_": "spacy_ignore_line_type_heading",
    "lb": "spacy_ignore_line_type_list_bullet",
    "ln": "spacy_ignore_line_type_list_number",
    "toc": "spacy_ignore_line_type_toc",
    "tab": "spacy_ignore_line_type_table",
}


@dataclass(frozen=True, slots=True)
class Piece:
    """One line's share of a paragraph: the line, its index among its page's lines
    and where its text starts in the paragraph's text."""

    line: Line
    index: int
    start: int


@dataclass(frozen=True, slots=True)
class Paragraph:
    """Running text made of lines: its text, the lines it came from (in order) and
    the line type code of its first line (``b``, ``h_1``, ``lb``...); ``footnote``
    for a footnote (its text opening with its mark)."""

    text: str
    pieces: tuple[Piece, ...]
    code: str
    footnote: bool = False

    @property
    def page_no(self) -> int:
        """The page the paragraph starts on."""
        return self.pieces[0].line.page_no


def ignored_codes(config: NlpConfig) -> frozenset[str]:
    """The line type codes (``h``, ``f``, ``toc``...) the config leaves out of the text."""
    return frozenset(code for code, key in _IGNORE_KEYS.items() if getattr(config, key))


def paragraphs(document: Document, skip: Collection[str],
               vocabulary: Container[str] = frozenset()) -> list[Paragraph]:
    """The document's paragraphs in reading order, lines of the ``skip`` codes left out
    (``h_`` skips every heading level); ``vocabulary`` holds the lower-case words
    (see `document_vocabulary`) that decide hyphenated line ends."""
    return list(paragraphs_of(document.pages, skip, vocabulary))


def paragraphs_of(pages: Iterable[Page], skip: Collection[str],
                  vocabulary: Container[str] = frozenset()) -> Iterator[Paragraph]:
    """`paragraphs` of a document's ``pages`` as they come: each paragraph once
    the line after it is read, so that only the paragraph running on across a page
    break is held with the page after it (and the footnotes of the page it left)."""
    group: list[tuple[Line, int]] = []
    notes: list[list[tuple[Line, int]]] = []
    for page in pages:
        measures, foot = measure(page), footnotes(page)
        for line, index in kept_lines((page,), skip):
            if index in foot:
                if (not notes or note_mark(line) is not None
                        or notes[-1][-1][0].page_no != line.page_no):
                    notes.append([])
                notes[-1].append((line, index))
                continue
            if group and _starts_paragraph(group[-1][0], line, measures):
                yield _assemble(group, vocabulary)
                group = []
                yield from (_assemble(note, vocabulary, footnote=True) for note in notes)
                notes = []
            group.append((line, index))
    if group:
        yield _assemble(group, vocabulary)
    yield from (_assemble(note, vocabulary, footnote=True) for note in notes)


def kept_lines(pages: Iterable[Page], skip: Collection[str]) -> Iterator[tuple[Line, int]]:
    """Each line of the ``pages`` not of a ``skip`` code (``h_``: every heading level)
    and not blank, with its index among its page's lines, in reading order."""
    for page in pages:
        for index, line in enumerate(page.lines):
            code = "h_" if line.line_type is LineType.HEADING else line.code
            if code not in skip and line.text.strip():
                yield line, index


def starts_paragraph(before: Line | None, line: Line,
                     measures: Mapping[Key, Measure] | None = None) -> bool:
    """Whether ``line`` starts a new paragraph after the line ``before`` it in reading
    order (None: it is the first), as `paragraphs` parts them: at a change of line
    type or of block within a column, where a printed paragraph starts within a block
    (``measures``: its page's columns, `layoutkit.nlp.breaks.measure`), at a heading,
    list item, contents entry or table row, and across columns and pages where the
    text does not run on."""
    return before is None or _starts_paragraph(before, line, measures or {})


def _starts_paragraph(before: Line, line: Line, measures: Mapping[Key, Measure]) -> bool:
    """Whether ``line`` starts a new paragraph after ``before``, its column's
    ``measures`` deciding where a printed paragraph starts within a block."""
    if line.code != before.code or line.line_type in (LineType.TOC, LineType.TABLE):
        return True
    if line.line_type in (LineType.LIST_BULLET, LineType.LIST_NUMBER):
        return marker(line.words) is not None
    if line.line_type is LineType.HEADING:
        return not continues_heading(before, line)
    same_column = (line.page_no, line.band, line.column) == (before.page_no, before.band,
                                                             before.column)
    if same_column:
        return parted(before, line, measures)
    return not runs_on(before, line) or (remeasured(before, line, measures)
                                         and not line.text[:1].islower())


def _assemble(group: Iterable[tuple[Line, int]], vocabulary: Container[str], *,
              footnote: bool = False) -> Paragraph:
    """One paragraph from its lines, hyphenated line ends joined where they should be."""
    parts: list[str] = []
    pieces: list[Piece] = []
    length = 0
    for line, index in group:
        if parts:
            joined = line_join(parts[-1], line.text, vocabulary)
            length += len(joined) - len(parts[-1])
            parts[-1] = joined
        pieces.append(Piece(line, index, length))
        parts.append(line.text)
        length += len(line.text)
    return Paragraph("".join(parts), tuple(pieces), pieces[0].line.code, footnote)
