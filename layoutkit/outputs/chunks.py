"""Chunks for retrieval: the document's text cut into passages under their headings.

A chunk is a run of the document's paragraphs (`layoutkit.nlp.paragraphs.paragraphs`,
running headers and footers left out) in reading order:

- A heading starts a chunk: it is the chunk's first line, and the chunk's heading path
  is the titles of the headings it stands under, from the top level down, its own last.
  The chunks after it, up to the next heading, carry the same path.
- Consecutive list items, contents entries and table rows make one list, contents or
  table, kept whole in a chunk where it fits in one.  A caption (``Table 2:``,
  ``Fig. 3.``) is a part of its own, even when it is set close under the text before
  it, and goes with the table it stands next to; a figure, which has no lines of its
  own, is its caption.
- With a maximum size (``max_chars``, ``max_tokens``, or both) a chunk takes parts while
  they fit, and a new chunk starts at a paragraph's boundary.  A part larger than a
  chunk is cut: a list or table between its items, a paragraph between its lines, after
  a line that closes a sentence where one does (`layoutkit.linetypes.lines.closes_sentence`),
  else after any line.  A heading is not left alone in its chunk when the paragraph after
  it has a sentence that fits beside it.
- Lines are never cut: every body line lands in exactly one chunk with its page and box,
  and a chunk is over the maximum only when one line alone is.

Sizes are counted on the chunk's text: characters, and tokens by the tokenizer named
(`token_counter`: a callable, a tiktoken encoding or model, a Hugging Face tokenizer
when ``transformers`` is installed; by default the words between white space).  The
text joins a paragraph's lines with spaces (a word hyphenated at a line end joined
again), the items of a list or table with line breaks, and parts with a blank line.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ..errors import UsageError
from ..linetypes.lines import closes_sentence
from ..model import Document, Line, LineType
from ..model.captions import is_caption
from ..nlp.lexicon import document_lexicon
from ..nlp.paragraphs import Paragraph, Piece, paragraphs
from .structure import FURNITURE

__all__ = ["CHUNK_SCHEMA", "Chunk", "TokenCounter", "chunks", "chunks_jsonl", "token_counter"]

CHUNK_SCHEMA = "layoutkit.chunk/1"
"""The schema of a chunk's JSON object, one a line in ``layoutkit chunks`` output."""

TokenCounter = Callable[[str], int]
"""How many tokens a text holds."""

_GROUPED = frozenset({LineType.LIST_BULLET, LineType.LIST_NUMBER, LineType.TOC,
                      LineType.TABLE})
"""The line types whose consecutive paragraphs make one part, kept whole where it fits."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """A passage of the document: its text, the titles of the headings it stands under
    (top level first), its lines in reading order (each a `Piece`: the line, its index
    among its page's lines and where its text starts in the chunk's ``text``) and its
    size in characters and in tokens."""

    text: str
    headings: tuple[str, ...]
    lines: tuple[Piece, ...]
    chars: int
    tokens: int

    @property
    def pages(self) -> tuple[int, ...]:
        """The pages the chunk's lines stand on, in order."""
        return tuple(dict.fromkeys(piece.line.page_no for piece in self.lines))

    @property
    def line_types(self) -> tuple[str, ...]:
        """The line type codes of the chunk's lines (``h_1``, ``b``, ``tab``...), each
        once, in order of first use."""
        return tuple(dict.fromkeys(piece.line.code for piece in self.lines))

    def to_dict(self) -> dict[str, Any]:
        """The chunk as plain JSON values, schema `CHUNK_SCHEMA` (its ``index`` and
        ``document`` added by `chunks_jsonl`): boxes are ``[x0, top, x1, bottom]`` in
        points from the page's top-left corner."""
        return {"text": self.text, "headings": list(self.headings), "pages": list(self.pages),
                "lineTypes": list(self.line_types), "chars": self.chars, "tokens": self.tokens,
                "lines": [{"page": p.line.page_no, "line": p.index, "start": p.start,
                           "lineType": p.line.code, "bbox": p.line.bbox.as_list()}
                          for p in self.lines]}


def token_counter(tokenizer: str | TokenCounter | None = None) -> TokenCounter:
    """The token count ``tokenizer`` names: a callable as it is; None or
    ``"whitespace"``, the words between white space; another name, a tiktoken
    encoding (``cl100k_base``) or model (``gpt-4o``), else a Hugging Face tokenizer
    (``bert-base-uncased``) when ``transformers`` is installed.  Raises UsageError when
    the name is none of these or its tokenizer cannot be loaded."""
    if callable(tokenizer):
        return tokenizer
    if tokenizer is None or tokenizer == "whitespace":
        return _words
    for load in (_tiktoken, _hugging_face):
        try:
            found = load(tokenizer)
        except Exception as exc:  # whatever a loader raises: one line
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise UsageError(f"tokenizer {tokenizer!r}: cannot be loaded ({reason})") from None
        if found is not None:
            return found
    raise UsageError(f"tokenizer {tokenizer!r}: not a tiktoken encoding or model, nor a Hugging "
                     "Face tokenizer (install tiktoken or transformers), nor 'whitespace'")


def _words(text: str) -> int:
    return len(text.split())


def _tiktoken(name: str) -> TokenCounter | None:
    """The count of the tiktoken encoding or model ``name`` (None: tiktoken is not
    installed or knows no such name)."""
    try:
        import tiktoken
    except ImportError:
        return None
    try:
        encoding = tiktoken.get_encoding(name)
    except ValueError:
        try:
            encoding = tiktoken.encoding_for_model(name)
        except KeyError:
            return None
    return lambda text: len(encoding.encode(text, disallowed_special=()))


def _hugging_face(name: str) -> TokenCounter | None:
    """The count of the Hugging Face tokenizer ``name`` (None: transformers is not
    installed)."""
    try:
        from transformers import AutoTokenizer  # type: ignore[import-not-found]
    except ImportError:
        return None
    tokenizer = AutoTokenizer.from_pretrained(name)
    return lambda text: len(tokenizer.encode(text, add_special_tokens=False))


@dataclass(frozen=True, slots=True)
class _Span:
    """Lines ``start`` to ``stop`` of a paragraph, the ``item``-th span of the document's
    ``part``-th part."""

    paragraph: Paragraph
    part: int
    item: int
    start: int
    stop: int

    @property
    def first(self) -> Line:
        """The span's first line."""
        return self.paragraph.pieces[self.start].line

    @property
    def text(self) -> str:
        pieces = self.paragraph.pieces
        end = pieces[self.stop].start if self.stop < len(pieces) else len(self.paragraph.text)
        return self.paragraph.text[pieces[self.start].start:end].rstrip()


_Segment = tuple[_Span, ...]


@dataclass(frozen=True, slots=True)
class _Measure:
    """Whether a text fits in a chunk: at most ``max_chars`` characters and
    ``max_tokens`` tokens (None: no bound)."""

    max_chars: int | None
    max_tokens: int | None
    count: TokenCounter

    def fits(self, segment: _Segment) -> bool:
        if self.max_chars is None and self.max_tokens is None:
            return True  # a section is one chunk, its text not made again at each part
        text = _text(segment)
        return ((self.max_chars is None or len(text) <= self.max_chars)
                and (self.max_tokens is None or self.count(text) <= self.max_tokens))


class _Wrapped(Protocol):
    """A document API object around a parsed document (`layoutkit.TextDocument`)."""

    @property
    def layout(self) -> Document: ...


def chunks(document: Document | _Wrapped, *, max_chars: int | None = None,
           max_tokens: int | None = None,
           tokenizer: str | TokenCounter | None = None) -> list[Chunk]:
    """The chunks of ``document`` (a parsed `layoutkit.Document`, or a
    `layoutkit.TextDocument`) in reading order, each at most ``max_chars`` characters and
    ``max_tokens`` tokens as ``tokenizer`` counts them (see `token_counter`) unless one
    line alone is more (see the module).  Raises UsageError for a maximum that is not a
    positive whole number, or a tokenizer that cannot be had."""
    for name, bound in (("max_chars", max_chars), ("max_tokens", max_tokens)):
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)
                                  or bound < 1):
            raise UsageError(f"{name}={bound!r}: expected a positive whole number")
    layout = document if isinstance(document, Document) else document.layout
    count = token_counter(tokenizer)
    measure = _Measure(max_chars, max_tokens, count)
    found: list[Chunk] = []
    for headings, parts in _sections(layout):
        for segment in _pack(parts, measure, top=True):
            text = _text(segment)
            found.append(Chunk(text, headings, _pieces(segment), len(text), count(text)))
    return found


def chunks_jsonl(document: Document | _Wrapped, **options: Any) -> str:
    """The `chunks` of ``document`` as JSON Lines: one object a chunk (`Chunk.to_dict`),
    with its ``schema``, ``document`` (the file's name) and ``index``."""
    import json

    from ..files import text_name

    layout = document if isinstance(document, Document) else document.layout
    name = text_name(layout.path.name)
    return "".join(json.dumps({"schema": CHUNK_SCHEMA, "document": name, "index": k,
                               **chunk.to_dict()}, ensure_ascii=False) + "\n"
                   for k, chunk in enumerate(chunks(layout, **options)))


def _sections(document: Document) -> list[tuple[tuple[str, ...], list[_Segment]]]:
    """The document's parts (each a segment of whole paragraphs) by section: the text
    before the first heading, then each heading with the parts up to the next, each
    with its heading path."""
    read = paragraphs(document, FURNITURE, document_lexicon(document))
    spans = [span for paragraph in read for span in _captions_apart(paragraph)]
    groups = [list(group) for _, group in itertools.groupby(
        spans, key=lambda s: s.first.line_type if s.first.line_type in _GROUPED else id(s))]
    sections: list[tuple[tuple[str, ...], list[_Segment]]] = []
    path: tuple[str, ...] = ()
    for k, group in enumerate(_captions_to_tables(groups)):
        segment = tuple(replace(span, part=k, item=i) for i, span in enumerate(group))
        first = group[0].first
        if first.line_type is LineType.HEADING:
            path = (*path[:max(first.level - 1, 0)], " ".join(group[0].text.split()))
            sections.append((path, [segment]))
        elif sections:
            sections[-1][1].append(segment)
        else:
            sections.append(((), [segment]))
    return sections


def _captions_apart(paragraph: Paragraph) -> list[_Span]:
    """The paragraph's lines as one span, or, where a line of body text that opens as
    a caption (`is_caption`) follows a line that closes a sentence, as two: a caption
    set close under the text before it is a part of its own."""
    cuts = [k for k in range(1, len(paragraph.pieces))
            if paragraph.code == LineType.BODY.value
            and is_caption(paragraph.pieces[k].line.text)
            and closes_sentence(paragraph.pieces[k - 1].line.text)]
    bounds = [0, *cuts, len(paragraph.pieces)]
    return [_Span(paragraph, 0, 0, a, b) for a, b in itertools.pairwise(bounds)]


def _captions_to_tables(groups: list[list[_Span]]) -> list[list[_Span]]:
    """``groups`` with each caption joined to the table next to it (the one after it,
    else the one before)."""
    def table(group: list[_Span] | None) -> bool:
        return group is not None and group[0].first.line_type is LineType.TABLE

    def caption(group: list[_Span]) -> bool:
        return len(group) == 1 and group[0].first.line_type is LineType.BODY \
            and is_caption(group[0].text)

    joined: list[list[_Span]] = []
    pending: list[_Span] = []
    for k, group in enumerate(groups):
        after = groups[k + 1] if k + 1 < len(groups) else None
        if caption(group) and table(after):
            pending = group
        elif caption(group) and table(joined[-1] if joined else None) and not pending:
            joined[-1] = joined[-1] + group
        else:
            joined.append(pending + group)
            pending = []
    return joined


def _pack(segments: Iterable[_Segment], measure: _Measure, *, top: bool = False,
          current: _Segment = ()) -> list[_Segment]:
    """``segments`` gathered into chunks that fit: each added to the chunk while it
    fits, else it opens the next; one too large is cut (`_finer`) and its pieces packed
    on from the chunk before.  With ``top`` (the parts of a section), a paragraph that
    does not fit beside its heading alone is cut at sentences to join it."""
    done: list[_Segment] = []
    for segment in segments:
        if measure.fits(current + segment):
            current += segment
            continue
        if not measure.fits(segment):
            finer = _finer(segment)
        else:
            finer = _sentences(segment) if top and _heading_alone(current) else None
        if finer is not None:
            *full, current = _pack(finer, measure, current=current) or [()]
            done.extend(full)
            continue
        if current:
            done.append(current)
        current = segment
    return [*done, current] if current else done


def _heading_alone(segment: _Segment) -> bool:
    """Whether ``segment`` holds a heading and nothing else."""
    return len(segment) == 1 and segment[0].paragraph.code.startswith("h_")


def _finer(segment: _Segment) -> list[_Segment] | None:
    """The pieces ``segment`` is cut into when it is too large: its paragraphs, else
    its sentences (`_sentences`), else its lines; None for a line alone."""
    if len(segment) > 1:
        return [(span,) for span in segment]
    sentences = _sentences(segment)
    if sentences is not None:
        return sentences
    span = segment[0]
    if span.stop - span.start > 1:
        return [(_Span(span.paragraph, span.part, span.item, k, k + 1),)
                for k in range(span.start, span.stop)]
    return None


def _sentences(segment: _Segment) -> list[_Segment] | None:
    """A paragraph's lines in runs, each ending with a line that closes a sentence (or
    the paragraph's last); None when there are fewer than two such runs or the segment
    is not one paragraph of the text (a list item, a table row, a heading)."""
    if len(segment) != 1 or segment[0].paragraph.code != LineType.BODY.value:
        return None
    span = segment[0]
    pieces = span.paragraph.pieces
    ends = [k + 1 for k in range(span.start, span.stop - 1)
            if closes_sentence(pieces[k].line.text)]
    if not ends:
        return None
    bounds = [span.start, *ends, span.stop]
    return [(_Span(span.paragraph, span.part, span.item, a, b),)
            for a, b in itertools.pairwise(bounds)]


def _joints(segment: _Segment) -> Iterable[tuple[_Span, str]]:
    """Each span of ``segment`` with what stands before its text: nothing for the
    first, a line break between the items of a part, a blank line between parts; the
    spans of one paragraph that follow each other are made one first."""
    merged: list[_Span] = []
    for span in segment:
        if merged and merged[-1].paragraph is span.paragraph and merged[-1].part == span.part:
            merged[-1] = replace(merged[-1], stop=span.stop)
        else:
            merged.append(span)
    for before, span in zip([None, *merged], merged, strict=False):
        yield span, ("" if before is None else "\n\n" if before.part != span.part
                     else "\n")


def _text(segment: _Segment) -> str:
    return "".join(joint + span.text for span, joint in _joints(segment))


def _pieces(segment: _Segment) -> tuple[Piece, ...]:
    """The lines of ``segment``, each with where its text starts in the chunk's text."""
    found: list[Piece] = []
    at = 0
    for span, joint in _joints(segment):
        at += len(joint)
        pieces: Sequence[Piece] = span.paragraph.pieces
        first = pieces[span.start].start
        found.extend(Piece(p.line, p.index, at + p.start - first)
                     for p in pieces[span.start:span.stop])
        at += len(span.text)
    return tuple(found)


