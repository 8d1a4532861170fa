"""What a learned line-type model sees of each body line: a fixed list of named numbers.

Each line's features are those the geometry and the rules already compute:

- how it is set: font size in body sizes, bold, italic, share of capitals, of digits;
- how it opens: a heading rule's number (decimal, dotted decimal, Roman, letter), a
  list marker (bullet or number), a section mark (``SEC.``, ``§``, ``Article``);
- where it stands: indentation from its column's left and space to its right, in body
  sizes; width in the column's; off-centre; gaps above and below in body line heights;
  place down the page; the index of its page;
- what it holds: words, characters, cells apart by table-wide gaps, whether it ends in
  a page number or a leader, closes a sentence, opens in lower case;
- how often the same text stands on the document's other pages;
- the rules' own decision for it (heading and level, list, table, contents, body);
- the main of these for the line before and the line after it in the page's reading
  order.

`FEATURES` names them in order; a model stores the names it was fitted with, so a
model and the features it is given always agree (`layoutkit.linetypes.model_file`).
A page's features come from its `PageTyping` once the rules typed it
(`page_features`); the document's part (body size, repeated texts) is a
`DocumentFacts` made from what each page sends (`page_facts`, `document_facts`),
so the features are the same wherever the pages are kept.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from ..model import LineType, Word
from .headings import body_size, size_counts
from .lines import Key, Style, Typed, TypedLine, closes_sentence, column_of
from .lists import marker
from .page_typing import PageTyping
from .rules import DEFAULT_RULES

__all__ = ["BASE", "FEATURES", "NEIGHBOUR", "DocumentFacts", "PageFacts", "PageFeatures",
           "document_facts", "page_facts", "page_features", "text_key"]

_SECTION = re.compile(r"^(§|SEC\.?|Sec\.|SECTION|Section|ARTICLE|Article|CHAPTER|Chapter|"
                      r"PART|Part|TITLE|Title|Art\.)(\s|$)")
_DECIMAL = re.compile(r"^\d+[.)]?$")
_DOTTED = re.compile(r"^\d+(\.\d+)+\.?$")
_ROMAN = re.compile(r"^\(?(?=[IVXLC]+\b)M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})"
                    r"(IX|IV|V?I{0,3})[.)]?$", re.IGNORECASE)
_LETTER = re.compile(r"^\(?[A-Za-z][.)]$")
_HEADING_NUMBER = re.compile("|".join(f"(?:{rule.regexp.pattern})" for rule in DEFAULT_RULES
                                     if rule.is_first_token))
"""The first word of a line that the default heading rules read as a heading's number."""
_NOT_ALNUM = re.compile(r"[\W_]+")
"""What `text_key` drops: every character but letters and digits (``str.isalnum``)."""
_LEADER = re.compile(r"(\.\s?){4,}|…|_{4,}|·{3,}")
_PAGE_NUMBER = re.compile(r"^(\d{1,4}|[ivxlc]{1,6})$", re.IGNORECASE)
_CELL_GAP_EM = 1.5
"""Space between two words, in their size, that parts two cells of an aligned row
(as `table_min_gap_em` by default)."""
_NO_GAP = 10.0
"""The gap given a line that opens or closes its column (in body line heights): far."""

BASE: tuple[str, ...] = (
    "size_ratio", "bold", "italic", "caps_share", "digits_share",
    "starts_decimal", "starts_dotted", "starts_roman", "starts_letter", "starts_bullet",
    "starts_list_number", "starts_section", "heading_rule",
    "indent_em", "right_space_em", "width_share", "off_centre", "gap_above", "gap_below",
    "page_position", "page_index", "words", "chars", "cells", "ends_page_number",
    "has_leader", "closes_sentence", "starts_lower", "repeated_pages",
    "rules_heading", "rules_level", "rules_list", "rules_item_start", "rules_table",
    "rules_contents")
"""The features of the line itself, in order."""
NEIGHBOUR: tuple[str, ...] = (
    "size_ratio", "bold", "caps_share", "indent_em", "gap_above", "words", "starts_bullet",
    "starts_list_number", "cells", "rules_heading", "rules_list", "rules_item_start",
    "rules_table", "rules_contents")
"""The main features, given for the line before and the line after too."""
FEATURES: tuple[str, ...] = (*BASE, *(f"prev_{n}" for n in NEIGHBOUR),
                             *(f"next_{n}" for n in NEIGHBOUR), "has_prev", "has_next")
"""Every feature a model is given, in order."""
_NEIGHBOUR_AT = [BASE.index(n) for n in NEIGHBOUR]
_LISTED = BASE.index("rules_list")


@dataclass(frozen=True, slots=True)
class PageFacts:
    """What the document needs of a typed page: the character counts of its body
    font sizes (the lines the rules left body), and the reduced texts of its lines."""

    sizes: Counter[float]
    texts: frozenset[str]


@dataclass(frozen=True, slots=True)
class DocumentFacts:
    """What a page's features need of its document: the body size and, for each
    reduced text, on how many pages it stands."""

    body_size: float
    pages: Counter[str]


@dataclass(frozen=True, slots=True)
class PageFeatures:
    """A page's lines as a model takes them: their keys in reading order, their
    features (a row each, float32 as trees compare them), their `Style` and the
    rules' decision for each (None: body)."""

    keys: tuple[Key, ...]
    matrix: npt.NDArray[np.float32]
    styles: tuple[Style, ...]
    rules: tuple[Typed | None, ...]


def page_facts(page: PageTyping) -> PageFacts:
    """The `PageFacts` of ``page``, typed by the rules."""
    return PageFacts(size_counts(page.body),
                     frozenset(text for text in (text_key(item.line.text) for item in page.lines)
                               if text))


def document_facts(facts: Iterable[PageFacts]) -> DocumentFacts:
    """The `DocumentFacts` of a document whose pages, in order, sent ``facts``."""
    chosen = list(facts)
    pages: Counter[str] = Counter()
    for fact in chosen:
        pages.update(fact.texts)
    return DocumentFacts(body_size(fact.sizes for fact in chosen), pages)


def page_features(page: PageTyping, facts: DocumentFacts) -> PageFeatures:
    """The `PageFeatures` of ``page`` (typed by the rules) in a document of ``facts``."""
    lines = page.lines
    size = facts.body_size or (float(np.median([item.line.size for item in lines]))
                               if lines else 10.0)
    size = size if size > 0 else 10.0
    left: dict[tuple[int, int, int], float] = {}
    right: dict[tuple[int, int, int], float] = {}
    columns = [column_of(item) for item in lines]
    for item, key in zip(lines, columns, strict=True):
        left[key] = min(left.get(key, item.line.bbox.x0), item.line.bbox.x0)
        right[key] = max(right.get(key, item.line.bbox.x1), item.line.bbox.x1)
    tops = [item.line.bbox.top for item in lines]
    page_top = min(tops, default=0.0)
    page_span = max((max(item.line.bbox.bottom for item in lines) - page_top) if lines else 1.0,
                    1.0)
    base: list[list[float]] = []
    styles = []
    listed = False
    for k, item in enumerate(lines):
        column = columns[k]
        before = lines[k - 1] if k and columns[k - 1] == column else None
        after = lines[k + 1] if k + 1 < len(lines) and columns[k + 1] == column else None
        kept = item.kept_words
        bold = bool(kept) and all(w.bold for w in kept)
        line_size = item.line.size
        styles.append((round(line_size * 2) / 2, bold))
        base.append(_base(item, kept, (line_size, bold), before, after, size,
                          (left[column], right[column]),
                          (item.line.bbox.top - page_top) / page_span, page.index,
                          facts.pages.get(text_key(item.line.text), 1) - 1,
                          page.decided.get(item.key), listed))
        listed = bool(base[-1][_LISTED])
    width = len(BASE)
    rows = np.zeros((len(lines), len(FEATURES)), dtype=np.float64)
    if base:
        rows[:, :width] = np.array(base, dtype=np.float64)
    if len(lines) > 1:
        rows[1:, width:width + len(NEIGHBOUR)] = rows[:-1, _NEIGHBOUR_AT]
        rows[:-1, width + len(NEIGHBOUR):width + 2 * len(NEIGHBOUR)] = rows[1:, _NEIGHBOUR_AT]
        rows[1:, -2] = 1.0
        rows[:-1, -1] = 1.0
    return PageFeatures(tuple(item.key for item in lines), rows.astype(np.float32),
                        tuple(styles),
                        tuple(page.decided.get(item.key) for item in lines))


def text_key(text: str) -> str:
    """``text`` as the scoring compares lines (`layoutkit.tools.evaluate.reduce`):
    NFKC, case-folded, letters and digits alone; the same line on two pages has the
    same key whatever its spacing or punctuation."""
    return _NOT_ALNUM.sub("", unicodedata.normalize("NFKC", text).casefold())


def _base(item: TypedLine, kept: tuple[Word, ...], set_in: tuple[float, bool],
          before: TypedLine | None, after: TypedLine | None, size: float,
          column: tuple[float, float], position: float, page_index: int, repeated: int,
          rules: Typed | None, listed: bool) -> list[float]:
    """The `BASE` features of one line (its ``kept`` words, its size and whether it is
    bold), in order (``listed``: the rules typed the line before it a list item's)."""
    line, words = item.line, item.words
    line_size, bold = set_in
    left, right = column
    text = " ".join(words)
    letters = sum(map(str.isalpha, text))
    first = words[0] if words else ""
    last = words[-1] if words else ""
    found = marker(kept) if kept else None
    bbox = line.bbox
    width = max(right - left, 1.0)
    height = size * 1.2
    gap_above = (bbox.top - before.line.bbox.bottom) / height if before else _NO_GAP
    gap_below = (after.line.bbox.top - bbox.bottom) / height if after else _NO_GAP
    cells = 1 + sum(1 for a, b in pairwise(kept)
                    if b.bbox.x0 - a.bbox.x1 > _CELL_GAP_EM * max(a.size, 1.0))
    kind = rules.line_type if rules is not None else LineType.BODY
    return [
        line_size / size,
        float(bold),
        float(bool(kept) and all(_italic(w.font) for w in kept)),
        sum(map(str.isupper, text)) / letters if letters else 0.0,
        sum(map(str.isdigit, text)) / len(text) if text else 0.0,
        float(bool(_DECIMAL.match(first))),
        float(bool(_DOTTED.match(first))),
        float(bool(_ROMAN.match(first))),
        float(bool(_LETTER.match(first))),
        float(found is not None and found.bulleted),
        float(found is not None and not found.bulleted),
        float(bool(_SECTION.match(text))),
        float(_HEADING_NUMBER.fullmatch(first) is not None),
        (bbox.x0 - left) / size,
        (right - bbox.x1) / size,
        bbox.width / width,
        abs((bbox.x0 + bbox.x1) / 2 - (left + right) / 2) / width,
        min(max(gap_above, -_NO_GAP), _NO_GAP),
        min(max(gap_below, -_NO_GAP), _NO_GAP),
        position,
        float(min(page_index, 20)),
        float(len(words)),
        float(len(text)),
        float(cells),
        float(len(words) > 1 and bool(_PAGE_NUMBER.match(last))),
        float(bool(_LEADER.search(text))),
        float(closes_sentence(text)),
        float(first[:1].islower()),
        float(min(repeated, 20)),
        float(kind is LineType.HEADING),
        float(rules.level if rules is not None and kind is LineType.HEADING else 0),
        float(kind in (LineType.LIST_BULLET, LineType.LIST_NUMBER)),
        float(kind in (LineType.LIST_BULLET, LineType.LIST_NUMBER)
              and (not listed or found is not None)),
        float(kind is LineType.TABLE),
        float(kind is LineType.TOC),
    ]


@cache
def _italic(font: str) -> bool:
    """Whether a font's name says it is italic or oblique."""
    name = font.lower()
    return "italic" in name or "oblique" in name or name.endswith("-it")

