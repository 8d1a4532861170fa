"""Inline marks of the marked-up outputs: bold, italic, code, superscripts and links.

What the page shows of a word's type, carried onto the text Markdown and HTML write:

- **bold**: the word's font is bold by its weight ([`Word.bold`][layoutkit.model.Word.bold]);
- *italic*: its font's name says italic, oblique or slanted (`is_italic`);
- `code`: its font's name is a monospaced face's, Courier or a typewriter (`is_monospace`);
- a superscript (a note's mark): raised beside a word set in the line's size
  ([`Word.raised_beside`][layoutkit.model.Word.raised_beside], `superscripts`); it
  follows the word before it without a space;
- a link: the address of the link annotation it stands in
  ([`Word.link`][layoutkit.model.Word.link]: ``http``, ``https`` or ``mailto``).

A run of words in one style takes one pair of marks, and the words of one link one
link.  A mark says how a word differs from the text around it: the style of the
document's body text is left unmarked (a document set in a typewriter's face is not all
code), and so is bold in a heading or in a paragraph, list item or entry that is bold
throughout.  Words are found in an item's text in order (`spans`); a word that cannot be
found there (a list's bullet, a line of right-to-left text read in logical order) is
left unmarked.

Contents entries are written without their dot leaders and page numbers
(`contents_text`), at the level their indentation gives them (`contents_levels`).
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from itertools import groupby
from urllib.parse import quote

from ..config import LinetypesConfig
from ..model import Document, Line, LineType, Word, untagged
from .structure import FURNITURE, Item

__all__ = ["Marks", "Style", "contents_levels", "contents_text", "contents_titles",
           "is_italic", "is_monospace", "superscripts"]

_ITALIC = re.compile(r"Ital|Oblique|Obl(?![a-z])|Slant|Kursiv|It(?![a-z])|italic|oblique"
                     r"|(?:^|[^A-Za-z])(?:CM|EC|SF|LM|TC)?(?:B?X?TI|SL|BXSL|ITT|SLTT)\d"
                     r"|[a-z]T[BZ]?I$")
"""What a font's name says when its face is italic (``Times-Italic``,
``NimbusRomNo9L-ReguItal``, ``Helvetica-Oblique``, ``MyriadPro-It``,
``LMRomanSlant10-Regular``), TeX's italic, slanted and italic typewriter faces by their
short names (``CMTI10``, ``CMBXTI10``, ``CMSL9``, ``SFTI1000``) and by the suffix its
Type 1 faces take after the family (``LinLibertineTI``, ``LinBiolinumTBI``, as every
ACM paper sets them); math italic (``CMMI10``) is a formula's, not emphasis."""
_MONOSPACE = re.compile(r"courier|mono|consol|menlo|typewriter|inconsolata|lucida ?console"
                        r"|source ?code|fira ?code|andale|(?:^|[^a-z])(?:cm|ec|sf|lm|tc)?"
                        r"(?:s?l?tt|itt|tctt)\d", re.IGNORECASE)
"""What a font's name says when its face is monospaced: Courier, the faces named
``Mono`` (``LMMono10-Regular``, ``DejaVuSansMono``), Consolas, Menlo, and TeX's
typewriter faces by their short names (``CMTT10``, ``SFTT1000``)."""


@cache
def is_italic(font: str) -> bool:
    """Whether the font named ``font`` (a subset tag aside) is an italic, oblique or
    slanted face, by its name (`_ITALIC`)."""
    return _ITALIC.search(untagged(font)) is not None


@cache
def is_monospace(font: str) -> bool:
    """Whether the font named ``font`` (a subset tag aside) is a monospaced face, by its
    name (`_MONOSPACE`)."""
    return _MONOSPACE.search(untagged(font)) is not None


@dataclass(frozen=True, slots=True)
class Style:
    """How a run of text is marked: bold, italic, code, a superscript, a link (its
    address; empty for none)."""

    bold: bool = False
    italic: bool = False
    code: bool = False
    sup: bool = False
    link: str = ""

    def without(self, other: Style) -> Style:
        """This style less what ``other`` has of bold, italic and code: what marks it
        among text of style ``other``."""
        if not (other.bold or other.italic or other.code):
            return self
        return Style(self.bold and not other.bold, self.italic and not other.italic,
                     self.code and not other.code, self.sup, self.link)


PLAIN = Style()
"""Text without marks."""


def superscripts(words: Sequence[Word]) -> list[bool]:
    """Whether each of a line's ``words`` (left to right) is a superscript: raised beside
    a word next to it that is set in the line's size
    ([`Word.raised_beside`][layoutkit.model.Word.raised_beside]), or after a
    superscript, raised beside the word in the line's size before them (the calls
    ``4, 5`` after a name).  The line's size is the one most of its characters have,
    when more than half of them have it: an OCR layer that gives each word a size of
    its own has no superscripts to tell."""
    if len({word.size for word in words}) < 2:  # most lines: one size
        return [False] * len(words)
    counts: Counter[float] = Counter()
    for word in words:
        counts[word.size] += len(word.text)
    size, most = counts.most_common(1)[0] if counts else (0.0, 0)
    if 2 * most <= sum(counts.values()):
        return [False] * len(words)

    raised = [any(words[j].size == size and word.raised_beside(words[j])
                  for j in (k - 1, k + 1) if 0 <= j < len(words))
              for k, word in enumerate(words)]
    host = None  # the last word in the line's size: what a run of calls is raised beside
    for k, word in enumerate(words):
        if word.size == size:
            host = word
        elif k and raised[k - 1] and not raised[k] and host is not None:
            raised[k] = word.raised_beside(host)  # a call after a call: '⁴, ⁵'
    return raised


def _word_styles(line: Line) -> list[Style]:
    """The style of each word of ``line``, as the page shows it."""
    sups = superscripts(line.words) if len(line.words) > 1 else [False]
    return [Style(word.bold, is_italic(word.font), is_monospace(word.font), sup, word.link)
            for word, sup in zip(line.words, sups, strict=True)]


def body_style(document: Document) -> Style:
    """The bold, italic and code the most characters of the document's body text have:
    its usual type, which no mark stands for."""
    counts: Counter[tuple[bool, bool, bool]] = Counter()
    for page in document.pages:
        for line in page.lines:
            if line.code in FURNITURE or line.line_type is LineType.HEADING:
                continue
            for word in line.words:
                counts[word.bold, is_italic(word.font), is_monospace(word.font)] += len(word.text)
    if not counts:
        return PLAIN
    bold, italic, code = counts.most_common(1)[0][0]
    return Style(bold, italic, code)


_Span = tuple[int, int, Style, int]
"""Where a word stands in an item's text (its start and end), its style, and the index
of its line among the item's."""


def spans(text: str, lines: Iterable[Line], styles: Callable[[Line], Sequence[Style]]
          ) -> list[_Span]:
    """Where each word of ``lines`` stands in ``text`` (their item's text: their own texts
    joined by spaces, a word hyphenated at a line end joined again, a list's bullet left
    out), with its style (``styles`` gives a line's): ``(start, end, style, line)`` in
    order, ``line`` the index of the word's line.

    The words are looked for in order, each where the last ended or at the start of the
    next piece of ``text`` between spaces; a word not found there is passed over (a
    bullet, a word read in another order), and so is the part of a word that ``text``
    does not hold (a hyphen dropped at a line end)."""
    found: list[_Span] = []
    at = 0
    for k, line in enumerate(lines):
        for word, style in zip(line.words, styles(line), strict=True):
            start = _find(text, word.text, at)
            if start is None:
                continue
            end = start + len(word.text)
            if text[start:end] != word.text:  # a hyphen dropped at the line end
                end -= 1
            found.append((start, end, style, k))
            at = end
    return found


def _find(text: str, word: str, at: int) -> int | None:
    """Where ``word`` (or, ending in a hyphen, ``word`` without it) stands in ``text``,
    at ``at`` or after the spaces there, or at the start of the next piece after ``at``;
    None when at neither."""
    here = _past_spaces(text, at)
    after = text.find(" ", here)
    for start in (here, _past_spaces(text, after)) if after >= 0 else (here,):
        if text.startswith(word, start) or (
                word.endswith("-") and len(word) > 1 and text.startswith(word[:-1], start)):
            return start
    return None


def _past_spaces(text: str, at: int) -> int:
    """Where the spaces at ``at`` in ``text`` end (``at`` when there are none)."""
    while at < len(text) and text[at] == " ":
        at += 1
    return at


_Run = tuple[str, Style]


def _runs(text: str, found: Sequence[_Span]) -> list[_Run]:
    """``text`` cut into runs of one style each: words of one style next to each other
    (only spaces between) one run with those spaces, the text between runs plain (the
    spaces between two runs of one link in the link); superscripts of two lines two
    runs (two notes' marks), the spaces before each left out (it follows the word it
    marks)."""
    runs: list[_Run] = []
    at = 0
    for style, group in groupby(found, key=lambda span: span[2]):
        members = list(group)
        chunks: list[tuple[int, int]] = []
        start, end, line = members[0][0], members[0][1], members[0][3]
        for a, b, _, k in members[1:]:
            if text[end:a].strip() or (style.sup and k != line):  # two runs
                chunks.append((start, end))
                start = a
            end, line = b, k
        chunks.append((start, end))
        for start, end in chunks:
            gap = text[at:start]
            if style.sup and (runs or gap.strip()):
                gap = gap.rstrip()
            linked = bool(style.link) and bool(runs) and runs[-1][1].link == style.link
            _append(runs, gap, Style(link=style.link) if linked and not gap.strip() else PLAIN)
            _append(runs, text[start:end], style)
            at = end
    _append(runs, text[at:], PLAIN)
    return runs


def _append(runs: list[_Run], piece: str, style: Style) -> None:
    if piece:
        runs.append((piece, style))


@dataclass(frozen=True, slots=True)
class Marks:
    """The inline marks of one document's items: the line types' config (which sets a
    contents entry's level) and its body style (`body_style`)."""

    config: LinetypesConfig
    body: Style = PLAIN

    @staticmethod
    def of(document: Document, config: LinetypesConfig) -> Marks:
        """The marks of ``document``'s items."""
        return Marks(config, body_style(document))

    def runs(self, item: Item, text: str, *, heading: bool = False) -> list[_Run]:
        """``text`` (``item``'s text, or the end of it) in runs of one style each, the
        styles only what marks them (see the module)."""
        found = spans(text, item.lines, _word_styles)
        if not found:
            return [(text, PLAIN)] if text else []
        usual = self.body
        if heading or all(style.bold for _, _, style, _ in found):
            usual = replace(usual, bold=True)
        return _runs(text, [(a, b, style.without(usual), k) for a, b, style, k in found])

    def markdown(self, item: Item, text: str, escape: Callable[[str], str], *,
                 heading: bool = False) -> str:
        """``text`` of ``item`` as Markdown, its plain text escaped by ``escape``: a run of
        bold ``**``, italic ``*``, code in backticks, a superscript ``<sup>``, a link
        ``[text](address)``."""
        out: list[str] = []
        for link, group in groupby(self.runs(item, text, heading=heading),
                                   key=lambda run: run[1].link):
            inner = "".join(_markdown_run(piece, style, escape) for piece, style in group)
            out.append(_markdown_link(inner, link) if link else inner)
        return "".join(out)

    def html(self, item: Item, text: str, escape: Callable[[str], str], *,
             heading: bool = False) -> str:
        """``text`` of ``item`` as HTML, its plain text escaped by ``escape``: a run of
        bold in ``<b>``, italic ``<i>``, code ``<code>``, a superscript ``<sup>``, a link
        ``<a href>``."""
        out: list[str] = []
        for link, group in groupby(self.runs(item, text, heading=heading),
                                   key=lambda run: run[1].link):
            inner = "".join(_html_run(piece, style, escape) for piece, style in group)
            out.append(f'<a href="{html.escape(link, quote=True)}">{inner}</a>'
                       if link else inner)
        return "".join(out)


def _markdown_run(piece: str, style: Style, escape: Callable[[str], str]) -> str:
    """One run as Markdown (its spaces outside its marks, where CommonMark wants them)."""
    core = piece.strip()
    if not core or style == replace(PLAIN, link=style.link):
        return escape(piece)
    lead, trail = piece[:len(piece) - len(piece.lstrip())], piece[len(piece.rstrip()):]
    text = _code_span(core) if style.code else escape(core)
    if style.sup:
        text = f"<sup>{text}</sup>"
    stars = "*" * (2 * style.bold + style.italic)
    return escape(lead) + stars + text + stars + escape(trail)


def _code_span(text: str) -> str:
    """``text`` as a Markdown code span: fenced by one backtick more than the longest
    run of backticks in it, a space inside the fences where it starts or ends with one."""
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return fence + pad + text + pad + fence


def _markdown_link(text: str, address: str) -> str:
    """A Markdown link to ``address`` (its spaces, brackets and characters outside ASCII
    percent-encoded, so that it ends where CommonMark ends it) with ``text``."""
    return f"[{text}]({quote(address, safe=_URI_SAFE)})"


_URI_SAFE = "/:?#[]@!$&'*+,;=%~-._"
"""The characters of an address kept as they are in a Markdown link: those a URI holds,
but for the parentheses that would end it."""


def _html_run(piece: str, style: Style, escape: Callable[[str], str]) -> str:
    """One run as HTML."""
    core = piece.strip()
    if not core:
        return escape(piece)
    lead, trail = piece[:len(piece) - len(piece.lstrip())], piece[len(piece.rstrip()):]
    text = escape(core)
    for tag, on in (("code", style.code), ("sup", style.sup), ("i", style.italic),
                    ("b", style.bold)):
        if on:
            text = f"<{tag}>{text}</{tag}>"
    return escape(lead) + text + escape(trail)


_LEADER_END = re.compile(r"\s*(?:(?:[.·…‥_]\s*){2,}|…\s*)"
                         r"(?:(?:\d{1,6}|[ivxlcdm]{1,7}|[IVXLCDM]{1,7})[\s,–—-]*)*$")
"""A dot leader at the end of a contents entry, and the page numbers after it (a range
of them, ``12—15``, a list, ``3, 7``)."""
_NUMBER_END = re.compile(r"(?<=\S)\s+(\d{1,6})\s*$")
"""A page number (Arabic) ending a contents entry without a leader."""


def contents_text(text: str, following: int | None = None) -> str:
    """A contents entry's ``text`` without its dot leader and page numbers
    (``MAIN GAME ......6`` is ``MAIN GAME``); an entry that is nothing else keeps them.
    Without a leader, the page numbers are the last number ending it and those before
    it of as many digits, in order (``Speeches 12877 12879``), none past the page that
    ``following`` entries name first after a leader (pages run on down the contents):
    another number is the title's (``Survey of 2021 5``, ``Chapter 3 12``, 'Thursday,
    4th November 1948' over entries on page 1)."""
    title = _LEADER_END.sub("", text)
    if title != text:
        return title.strip() or text
    after: str | None = None
    while (found := _NUMBER_END.search(title)) \
            and (following is None or int(found[1]) <= following) \
            and (after is None or (len(found[1]) == len(after) and int(found[1]) <= int(after))):
        title, after = title[:found.start()], found[1]
    return title.strip() or text


def contents_titles(items: Sequence[Item]) -> list[str]:
    """The titles of contents entries ``items`` (`contents_text`), each told against the
    first page the entries after it name after a leader."""
    titles: list[str] = []
    following: int | None = None
    for item in reversed(items):
        titles.append(contents_text(item.text, following))
        if (leader := _LEADER_END.search(item.text)) and (page := re.search(r"\d+", leader[0])):
            following = int(page[0])
    return titles[::-1]


def contents_levels(items: Sequence[Item], config: LinetypesConfig) -> list[int]:
    """The level of each contents entry (0 the outermost) by its indentation: how far
    its first line starts right of the leftmost entry of its column on its page.  The
    indentations are grouped where, sorted, each lies within
    ``lt_list_indent_tolerance_em`` of a line's size of the one before (entries whose
    starts drift, as a scan's do, stay one level), a group a level, at most
    ``heading_max_level`` of them (the deepest taking the rest), and no entry more than
    one level deeper than the one before."""
    def column(item: Item) -> tuple[int, int, int]:
        line = item.lines[0]
        return line.page_no, line.band, line.column
    lefts: dict[tuple[int, int, int], float] = {}
    for item in items:
        lefts[column(item)] = min(lefts.get(column(item), item.lines[0].bbox.x0),
                                  item.lines[0].bbox.x0)
    indents = [item.lines[0].bbox.x0 - lefts[column(item)] for item in items]
    group: dict[float, int] = {}
    last = None
    for indent, item in sorted(zip(indents, items, strict=True), key=lambda pair: pair[0]):
        tolerance = config.lt_list_indent_tolerance_em * item.lines[0].size
        level = 0 if last is None else group[last] + (indent - last > tolerance)
        group[indent] = min(level, max(config.heading_max_level - 1, 0))
        last = indent
    levels: list[int] = []
    for indent in indents:
        levels.append(min(group[indent], levels[-1] + 1 if levels else 0))
    return levels
