"""Headings (``h_1`` ... ``h_N``): lines that stand out by their type, levelled by
DCR's numbering rules where they are numbered and by their typography where not.

A line is a heading candidate when it has space above it, is set in a bold or
clearly larger font than the body and has few words; the lines below it in the
same style (at most three) belong to it.

Numbered candidates are levelled by the rule engine: the first rule whose
pattern matches the line is its rule; the rules met so far form a hierarchy,
searched bottom-up -- a rule already in it gives the heading that rule's depth
(when its number follows the rule's previous one) and closes the rules below;
a new rule (opening with one of its start values) goes one level deeper.
Unnumbered candidates take the level of the numbered headings of their style,
or one level below the nearest larger style.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..config import LayoutConfig
from ..model import Document, LineType
from .lines import Key, Typed, TypedLine, body_lines, is_bold, log, retyped
from .rules import DEFAULT_RULES, HeadingRule, load_rules
from .sequence import is_start, is_successor

__all__ = ["body_size", "type_headings"]

Style = tuple[float, bool]
"""(font size to the half point, bold) of a heading line."""


@dataclass(slots=True)
class _Open:
    """A rule in the hierarchy: its last number and its first heading's left edge."""

    rule: HeadingRule
    value: str
    x0: float


def body_size(lines: list[TypedLine]) -> float:
    """The font size most characters of the body lines are set in."""
    sizes: Counter[float] = Counter()
    for item in lines:
        for word in item.line.words:
            sizes[round(word.size * 2) / 2] += len(word.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _style(item: TypedLine) -> Style:
    words = item.line.words[len(item.line.words) - len(item.words):]
    return (round(item.line.size * 2) / 2, all(is_bold(w.font) for w in words))


_MAX_WRAPPED = 3
"""A heading wraps over at most this many lines."""
_MIN_LETTERS = 3
"""A heading has at least this many letters (a large symbol in a figure has not)."""


def _candidates(lines: list[TypedLine], size: float, config: LayoutConfig) -> list[int]:
    """Indexes of the lines that stand out as headings: a line with space above it
    (it opens its column, or the gap to the line above is at least
    ``heading_min_space_em`` of its size) in a style that is bold or at least
    ``heading_min_size_ratio`` times the body size, with the lines below it in the
    same style (a wrapped heading), at most ``_MAX_WRAPPED`` lines of at most
    ``heading_max_words`` words, the first with at least ``_MIN_LETTERS`` letters."""
    found: list[int] = []
    for k, item in enumerate(lines):
        style = _style(item)
        above = lines[k - 1] if k and _column(lines[k - 1]) == _column(item) else None
        if above is not None and (_style(above) == style or item.line.bbox.top
                                  - above.line.bbox.bottom < config.heading_min_space_em
                                  * item.line.size):
            continue
        if not (style[1] or style[0] >= config.heading_min_size_ratio * size) or sum(
                c.isalpha() for c in item.line.text) < _MIN_LETTERS:
            continue
        run = [k]
        while (run[-1] + 1 < len(lines) and _column(lines[run[-1] + 1]) == _column(item)
               and _style(lines[run[-1] + 1]) == style):
            run.append(run[-1] + 1)
        if len(run) <= _MAX_WRAPPED and all(
                len(lines[j].words) <= config.heading_max_words for j in run):
            found.extend(run)
    return found


def _column(item: TypedLine) -> tuple[int, int, int]:
    """(page, band, column) of a line."""
    line = item.line
    return (item.key[0], line.band, line.column)


def _rule_levels(lines: list[TypedLine], candidates: list[int], rules: tuple[HeadingRule, ...],
                 config: LayoutConfig, width: dict[int, float]) -> dict[int, tuple[int, str]]:
    """The level and rule name of each numbered candidate the rule engine accepts."""
    stack: list[_Open] = []
    levels: dict[int, tuple[int, str]] = {}
    for k in candidates:
        item = lines[k]
        for rule in rules:
            value = rule.matches(item.words)
            if value is not None:
                break
        else:
            continue
        tolerance = config.heading_tolerance_x / 100 * width[item.key[0]]
        depth = next((d for d in range(len(stack) - 1, -1, -1) if stack[d].rule == rule), None)
        if depth is not None:
            entry = stack[depth]
            if not is_successor(rule.function_is_asc, entry.value, value) \
                    or abs(item.line.bbox.x0 - entry.x0) > tolerance:
                continue
            del stack[depth + 1:]
            entry.value = value
        elif is_start(rule.function_is_asc, value, rule.start_values):
            stack.append(_Open(rule, value, item.line.bbox.x0))
            depth = len(stack) - 1
        else:
            continue
        levels[k] = (depth + 1, rule.name)
    return levels


def type_headings(document: Document, config: LayoutConfig) -> Document:
    """``document`` with its headings typed ``h_<level>`` (levels 1 to
    ``heading_max_level``); see the module docstring for how they are found."""
    rules = load_rules(Path(config.heading_rules_file)) if config.heading_rules_file \
        else DEFAULT_RULES
    lines = body_lines(document)
    size = body_size(lines)
    candidates = _candidates(lines, size, config)
    width = {p: page.width for p, page in enumerate(document.pages)}
    while True:
        levels = _rule_levels(lines, candidates, rules, config, width)
        pages: dict[str, set[int]] = {}
        for k, (_, name) in levels.items():
            pages.setdefault(name, set()).add(lines[k].key[0])
        few = {name for name, seen in pages.items() if len(seen) < config.heading_min_pages}
        if not few:
            break
        rules = tuple(rule for rule in rules if rule.name not in few)
    by_style = _style_levels(lines, candidates, levels)
    decisions: dict[Key, Typed] = {}
    for k in candidates:
        item = lines[k]
        level, why = levels.get(k, (0, ""))
        if not level:
            level, why = by_style[_style(item)], "typography"
        if level > config.heading_max_level:
            continue
        log.info("page %d: heading level %d (%s, %.1f pt%s): %r", item.line.page_no, level,
                 why, item.line.size, ", bold" if _style(item)[1] else "", item.line.text)
        decisions[item.key] = Typed(LineType.HEADING, level)
    return retyped(document, decisions)


def _style_levels(lines: list[TypedLine], candidates: list[int],
                  levels: dict[int, tuple[int, str]]) -> dict[Style, int]:
    """The level of each candidate style: the most frequent level of the numbered
    headings set in it, else one below the nearest larger style (1 for the largest)."""
    known: dict[Style, Counter[int]] = {}
    for k, (level, _) in levels.items():
        known.setdefault(_style(lines[k]), Counter())[level] += 1
    result: dict[Style, int] = {}
    previous = 0
    for style in sorted({_style(lines[k]) for k in candidates}, key=lambda s: (-s[0], not s[1])):
        counts = known.get(style)
        previous = counts.most_common(1)[0][0] if counts else previous + 1
        result[style] = previous
    return result
