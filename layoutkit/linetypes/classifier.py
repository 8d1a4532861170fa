"""Line types from a learned model: the document's decision once the rules have typed it.

The model (a `Forest`) gives every body line of the document one class
(`CLASSES`), all lines at once; the classes become types:

- ``heading``: a heading at the level the rules gave it; a line the rules did not
  call a heading takes the level the rules gave its style (`Style`) most often
  in the document, else one below the rules' headings set larger than it (level 1
  when none is), at most ``heading_max_level``;
- ``list``: an item's first line, ``ln`` when it opens with a number, else ``lb``
  (the rules' own type when they called it a list item too);
- ``table`` and ``contents``: ``tab`` and ``toc``;
- ``body`` (and ``caption``, ``footnote``, which layoutkit types body): body, but for
  a line the rules typed a list item's next line (no marker of its own) right after a
  line typed a list item: it goes on with that item.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from ..config import LinetypesConfig
from ..errors import ConfigError
from ..model import LineType
from .features import BASE, FEATURES, PageFeatures
from .lines import Key, Style, Typed
from .model_file import Forest

__all__ = ["BODY", "CLASSES", "learned_types", "rules_class"]

BODY = "body"
CLASSES = ("body", "heading", "list", "table", "contents", "caption", "footnote")
"""Every class a model may decide (those a model's training truth names)."""
_TYPES = {"table": LineType.TABLE, "contents": LineType.TOC}
_LISTS = (LineType.LIST_BULLET, LineType.LIST_NUMBER)
_BULLET, _NUMBER = BASE.index("starts_bullet"), BASE.index("starts_list_number")


def rules_class(typed: Typed | None) -> str:
    """The class of `CLASSES` a line the rules typed ``typed`` (None: body) is in,
    list items' next lines counted in their item's class."""
    if typed is None:
        return BODY
    kind = typed.line_type
    if kind is LineType.HEADING:
        return "heading"
    if kind in _LISTS:
        return "list"
    return {LineType.TABLE: "table", LineType.TOC: "contents"}.get(kind, BODY)


def learned_types(pages: Sequence[PageFeatures], forest: Forest,
                  config: LinetypesConfig) -> dict[Key, Typed]:
    """The types of the lines of a document whose pages, in order, have ``pages``'
    features, as ``forest`` classes them (see the module docstring): every line not
    typed body.  Raises ConfigError when the model was made for other features."""
    if forest.features != FEATURES:
        raise ConfigError("linetypes.model: the model was made for other features "
                          f"({len(forest.features)}, this layoutkit computes {len(FEATURES)}); "
                          "make it again with layoutkit train")
    rows = [page.matrix for page in pages if len(page.keys)]
    if not rows:
        return {}
    matrix = np.vstack(rows)
    predicted = [forest.classes[k] for k in forest.predict_index(matrix)]
    levels = _style_levels(pages)
    out: dict[Key, Typed] = {}
    at = 0
    for page in pages:
        before: Typed | None = None
        for k, key in enumerate(page.keys):
            typed = _typed(predicted[at], page.rules[k], page.styles[k],
                           page.matrix[k], before, levels, config)
            at += 1
            if typed is not None:
                out[key] = typed
            before = typed
    return out


def _typed(kind: str, rules: Typed | None, style: Style, row: np.ndarray,
           before: Typed | None, levels: dict[Style, int], config: LinetypesConfig
           ) -> Typed | None:
    """The type of one line the model classed ``kind`` (None: body), the rules having
    typed it ``rules`` and the line before it ``before``."""
    if kind == "heading":
        if rules is not None and rules.line_type is LineType.HEADING:
            return rules
        return Typed(LineType.HEADING, _level(style, levels, config.heading_max_level))
    if kind == "list":
        if rules is not None and rules.line_type in _LISTS:
            return rules
        return Typed(LineType.LIST_NUMBER if row[_NUMBER] and not row[_BULLET]
                     else LineType.LIST_BULLET)
    if kind in _TYPES:
        return Typed(_TYPES[kind])
    if (rules is not None and rules.line_type in _LISTS and before is not None
            and before.line_type in _LISTS and not row[_BULLET] and not row[_NUMBER]):
        return Typed(before.line_type)
    return None


def _style_levels(pages: Sequence[PageFeatures]) -> dict[Style, int]:
    """The level the rules gave each style's headings most often (the smaller level
    on a tie)."""
    seen: dict[Style, Counter[int]] = {}
    for page in pages:
        for style, typed in zip(page.styles, page.rules, strict=True):
            if typed is not None and typed.line_type is LineType.HEADING:
                seen.setdefault(style, Counter())[typed.level] += 1
    return {style: min(counts, key=lambda level: (-counts[level], level))
            for style, counts in seen.items()}


def _level(style: Style, levels: dict[Style, int], deepest: int) -> int:
    """The level of a heading in ``style`` that the rules did not call one: its
    style's level, else one below the deepest of the styles set larger (by size, then
    bold), 1 when none is."""
    if style in levels:
        return levels[style]
    larger = [level for other, level in levels.items() if other > style]
    return max(1, min(max(larger, default=0) + 1, deepest))
