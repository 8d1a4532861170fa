"""Headings guided by the PDF's outline (its bookmarks).

An outline is the author's own list of the document's sections: where a line reads
as an entry's title, on the page the entry points to, the line is a heading, whatever
its type face says.

- A match: one line, or a heading wrapped over up to `_MAX_WRAPPED` lines of
  one column, whose text is the entry's title (rapidfuzz's ratio of the two, case,
  spacing and punctuation aside, at least `MIN_RATIO`; a section number leading
  either left out when the other has none).  Where several runs of lines match, the
  closest, then the shortest, then the one nearest the height the entry points to;
  each line matches one entry at most.  Lines already typed contents or a table are
  not looked at.
- A matched line is a heading at the entry's level moved by the document's offset:
  outlines count from their own top (a gazette's outline opens below the section
  and the heading its entries stand under), so the levels typography gave the
  matched headings tell how far the outline's levels stand from the document's
  (the most frequent difference, the smallest in a tie; 0 when typography typed
  none of them).
- An outline of one level says nothing of levels: there a line typography made a
  heading keeps its level, and a line it did not takes the level the others were
  given (the entry's level moved by the offset).
- A level past ``heading_max_level`` makes no heading.
- Where the outline has levels and is complete (every entry pointing to a page
  read has its title there), a heading typography found that no entry matches is
  a sibling the outline left out where it is set as matched headings are (it takes
  their level), else deeper than the outline goes: one level below the matched
  heading before it (those before the first keep theirs).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.utils import default_process

from ..config import LinetypesConfig
from ..model import LineType, OutlineEntry
from .lines import Key, Style, Typed, TypedLine, column_of, log, style_of

__all__ = ["MIN_RATIO", "Match", "entry_matches", "outline_headings", "same_title"]

MIN_RATIO = 90.0
"""How alike (rapidfuzz's ratio, 0 to 100) an entry's title and a line's text are to
match: a title's accents, dashes or a letter read otherwise (``Comité`` against
``COMITE``) pass, another heading of the page (``Results`` and ``Methods``) does
not."""
_MAX_WRAPPED = 4
"""A title wraps over at most this many lines."""
_NUMBER = re.compile(r"^(?:\d+ )+")
"""A section number leading a title, as `default_process` leaves it (``2 1 ``)."""


@dataclass(frozen=True, slots=True)
class Match:
    """The lines of a page that read as one outline entry's title: their keys, the
    entry's place in the outline and its level, the page and the lines' text."""

    keys: tuple[Key, ...]
    entry: int
    level: int
    page_no: int
    text: str
    style: Style
    """How the title's first line is set."""


def _key(text: str) -> str:
    """``text`` as titles are compared: lower case, punctuation as spaces, spaces
    single."""
    return " ".join(default_process(text).split())


def same_title(title: str, text: str) -> float:
    """How alike an entry's ``title`` and a line's ``text`` are (0 to 100): their
    ratio (`_key`), or that of the two with a leading section number left out
    where one of them has none (``Introduction`` and ``1 Introduction``)."""
    return _likeness(_key(title), _key(text))


def _likeness(a: str, b: str) -> float:
    """`same_title` of two texts already keyed (`_key`)."""
    score = fuzz.ratio(a, b)
    bare_a, bare_b = _NUMBER.sub("", a), _NUMBER.sub("", b)
    if (bare_a != a) != (bare_b != b) and bare_a and bare_b:
        score = max(score, fuzz.ratio(bare_a, bare_b))
    return float(score)


def _runs(lines: Sequence[TypedLine]) -> list[tuple[int, int, str]]:
    """Every run of up to `_MAX_WRAPPED` consecutive lines of one column: its first
    and last index and its text keyed (`_key`)."""
    runs: list[tuple[int, int, str]] = []
    for start in range(len(lines)):
        text = ""
        for end in range(start, min(start + _MAX_WRAPPED, len(lines))):
            if column_of(lines[end]) != column_of(lines[start]):
                break
            text = f"{text} {lines[end].line.text}" if text else lines[end].line.text
            runs.append((start, end, _key(text)))
    return runs


def entry_matches(lines: Sequence[TypedLine], outline: Sequence[OutlineEntry]
                  ) -> list[Match]:
    """The runs of the body ``lines`` of one page (in reading order, those still
    undecided) that read as the titles of the ``outline``'s entries pointing to that
    page (see the module's list)."""
    if not lines:
        return []
    page_no = lines[0].line.page_no
    entries = [(k, entry, title) for k, entry in enumerate(outline)
               if entry.page_no == page_no and (title := _key(entry.title))]
    if not entries:
        return []
    runs = _runs(lines)
    taken: set[int] = set()
    found: list[Match] = []
    for k, entry, title in entries:
        best: tuple[float, int, float, int] | None = None
        for start, end, text in runs:
            if taken.intersection(range(start, end + 1)):
                continue
            score = _likeness(title, text)
            if score < MIN_RATIO:
                continue
            away = 0.0 if entry.top is None else abs(lines[start].line.bbox.top - entry.top)
            rank = (-score, end - start, away, start)
            if best is None or rank < best:
                best = rank
        if best is not None:
            start, end = best[3], best[3] + best[1]
            taken.update(range(start, end + 1))
            run = lines[start:end + 1]
            found.append(Match(tuple(item.key for item in run), k, entry.level, page_no,
                               " ".join(item.line.text for item in run), style_of(run[0])))
    return found


def outline_headings(matches: Sequence[Match], typed: Mapping[Key, Typed],
                     styles: Mapping[Key, Style], outline: Sequence[OutlineEntry],
                     pages: Collection[int], config: LinetypesConfig) -> dict[Key, Typed]:
    """The headings the ``outline`` makes of its ``matches`` on the document's parsed
    ``pages`` (by number), over the headings typography ``typed`` (set in ``styles``;
    see the module's list)."""
    if not matches:
        return {}
    flat = len({entry.level for entry in outline}) == 1
    differences = Counter(typed[m.keys[0]].level - m.level for m in matches
                          if _heading(typed.get(m.keys[0])))
    offset = min(differences.items(), key=lambda kv: (-kv[1], abs(kv[0]), kv[0]))[0] \
        if differences else 0
    decisions: dict[Key, Typed] = {}
    for match in matches:
        before = typed.get(match.keys[0])
        if flat and _heading(before):
            continue
        level = max(1, match.level + offset)
        if level > config.heading_max_level:
            continue
        if any(typed.get(key) != Typed(LineType.HEADING, level) for key in match.keys):
            log.info("page %d: heading level %d (outline entry %r): %r", match.page_no,
                     level, outline[match.entry].title, match.text)
        decisions.update((key, Typed(LineType.HEADING, level)) for key in match.keys)
    if not flat and _complete(matches, outline, pages):
        by_style: dict[Style, Counter[int]] = {}
        for match in matches:
            if match.keys[0] in decisions:
                by_style.setdefault(match.style, Counter())[
                    decisions[match.keys[0]].level] += 1
        sibling = {style: levels.most_common(1)[0][0] for style, levels in by_style.items()}
        decisions.update(_unmatched(decisions, typed, styles, sibling, config))
    return decisions


def _complete(matches: Sequence[Match], outline: Sequence[OutlineEntry],
              pages: Collection[int]) -> bool:
    """Whether every entry of the ``outline`` that points to one of the parsed
    ``pages`` has its title on that page (`matches`): the outline and the text
    agree."""
    pointing = {k for k, entry in enumerate(outline) if entry.page_no in pages}
    return bool(pointing) and pointing <= {match.entry for match in matches}


def _unmatched(matched: Mapping[Key, Typed], typed: Mapping[Key, Typed],
               styles: Mapping[Key, Style], sibling: Mapping[Style, int],
               config: LinetypesConfig) -> dict[Key, Typed]:
    """The levels of the headings typography ``typed`` that no entry of a complete
    outline ``matched``: one set as matched headings are (``sibling``: the level those
    of each style were given) is their sibling, left out of the outline (a paper's
    references); one set otherwise is deeper than the outline goes (a definition
    under a numbered section), one level below the matched heading before it in reading
    order (a heading wrapped over lines taking one level).  Those before the first
    matched heading keep their level."""
    decisions: dict[Key, Typed] = {}
    under: int | None = None
    previous: tuple[Key, int] | None = None
    for key in sorted({*matched, *typed}):
        if key in matched:
            under, previous = matched[key].level, None
            continue
        if under is None or not _heading(typed[key]):
            previous = None
            continue
        # a heading wrapped onto the next line stays one heading
        if previous is not None and previous[0] == (key[0], key[1] - 1):
            level = previous[1]
        else:
            level = sibling.get(styles[key], under + 1) if key in styles else under + 1
        previous = (key, level)
        if level <= config.heading_max_level and level != typed[key].level:
            decisions[key] = Typed(LineType.HEADING, level)
    return decisions


def _heading(typed: Typed | None) -> bool:
    """Whether a decision types its line a heading."""
    return typed is not None and typed.line_type is LineType.HEADING
