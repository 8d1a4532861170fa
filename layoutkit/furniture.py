"""Running headers and footers found by position and repetition across pages.

A line near the top (bottom) edge of a page is furniture when a line of nearly
the same words in any order (mirrored headers of facing pages swap their left
and right parts), digits and Roman numerals masked, stands at nearly the same
height on enough of the other pages (or of the pages of the same parity, for
headers that alternate between left and right pages), or when it is a bare
page number.  Rotated text in the side margins (proof stamps) is furniture too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from .config import LayoutConfig
from .model import Word
from .words import group_lines

__all__ = ["Furniture", "find_furniture", "mask_numbers"]

_NUMBER = re.compile(r"\d+|\b[ivxlcdm]+\b", re.IGNORECASE)
_PAGE_NUMBER = re.compile(r"^\W*(page\s*)?#(\s*(of|/)\s*#)?\W*$", re.IGNORECASE)


def mask_numbers(text: str) -> str:
    """``text`` with every run of digits and every Roman numeral replaced by ``#``."""
    return _NUMBER.sub("#", text)


@dataclass(frozen=True, slots=True)
class Furniture:
    """The words of one page that are running header, footer or margin text."""

    header: frozenset[int]
    footer: frozenset[int]
    margin: frozenset[int]


@dataclass(frozen=True, slots=True)
class _Candidate:
    page: int
    top: float
    text: str
    words: tuple[int, ...]


def find_furniture(pages: Sequence[tuple[Sequence[Word], float, float]],
                   config: LayoutConfig) -> list[Furniture]:
    """The furniture of each page, given each page's words, width and height."""
    headers = [_edge_lines(words, height, config, top=True) for words, _, height in pages]
    footers = [_edge_lines(words, height, config, top=False) for words, _, height in pages]
    result = []
    for p, (words, _, _) in enumerate(pages):
        header = _repeated(p, headers, config)
        footer = _repeated(p, footers, config)
        result.append(Furniture(frozenset(header), frozenset(footer),
                                frozenset(_margin(words, header | footer))))
    return result


def _edge_lines(words: Sequence[Word], height: float, config: LayoutConfig, *,
                top: bool) -> list[_Candidate]:
    """The first (or last) ``furniture_max_lines`` lines inside the page's top (bottom) zone."""
    if top:
        limit = config.furniture_top * height
        chosen = [i for i, w in enumerate(words) if w.upright and w.bbox.bottom <= limit]
    else:
        limit = (1 - config.furniture_bottom) * height
        chosen = [i for i, w in enumerate(words) if w.upright and w.bbox.top >= limit]
    position = {id(words[i]): i for i in chosen}
    lines = group_lines([words[i] for i in chosen], config)
    lines = lines[: config.furniture_max_lines] if top else lines[-config.furniture_max_lines:]
    return [_Candidate(-1, min(w.bbox.top for w in line), " ".join(w.text for w in line),
                       tuple(position[id(w)] for w in line)) for line in lines]


def _repeated(page: int, candidates: Sequence[Sequence[_Candidate]],
              config: LayoutConfig) -> set[int]:
    """Word indexes of ``page``'s candidate lines that repeat on other pages."""
    found: set[int] = set()
    others = [q for q in range(len(candidates)) if q != page]
    same_parity = [q for q in others if q % 2 == page % 2]
    for line in candidates[page]:
        masked = mask_numbers(line.text)
        if _PAGE_NUMBER.match(masked):
            found.update(line.words)
            continue
        matches = {q for q in others if any(
            abs(other.top - line.top) <= config.furniture_y_tolerance
            and fuzz.token_sort_ratio(masked, mask_numbers(other.text))
            >= config.furniture_min_similarity
            for other in candidates[q])}
        share = len(matches) / len(others) if others else 0.0
        parity_share = (len(matches & set(same_parity)) / len(same_parity)
                        if same_parity else 0.0)
        if others and max(share, parity_share) >= config.furniture_min_share:
            found.update(line.words)
    return found


def _margin(words: Sequence[Word], taken: set[int]) -> set[int]:
    """Rotated words standing outside the horizontal extent of the upright text."""
    upright = [w.bbox for i, w in enumerate(words) if w.upright and i not in taken]
    if not upright:
        return set()
    left = min(b.x0 for b in upright)
    right = max(b.x1 for b in upright)
    return {i for i, w in enumerate(words)
            if not w.upright and (w.bbox.x1 <= left or w.bbox.x0 >= right)}
