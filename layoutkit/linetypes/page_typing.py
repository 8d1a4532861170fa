"""One page being typed: the value each page step of the typing driver takes and gives.

Its body lines, the types decided for them so far, and its list markers once found
(see `layoutkit.linetypes.driver`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from ..model import LineType, Page
from .lines import Key, Typed, TypedLine, page_body_lines, page_typed_lines
from .lists import ListMarks

__all__ = ["PageTyping"]


@dataclass(frozen=True, slots=True)
class PageTyping:
    """One page being typed, the ``index``-th of its document: its body lines as
    typing found them, the types decided for them so far, and once found its list
    markers."""

    index: int
    lines: tuple[TypedLine, ...]
    decided: Mapping[Key, Typed]
    marks: ListMarks | None = None

    @staticmethod
    def of(page: Page, index: int) -> PageTyping:
        """``page``, the ``index``-th of its document, before its lines are typed."""
        return PageTyping(index, page_body_lines(page, index), {})

    @staticmethod
    def typed(page: Page, index: int) -> PageTyping:
        """``page``, the ``index``-th of its document, as typing left it: its lines
        typed, their types decided (what a learned model's features are made of)."""
        lines = page_typed_lines(page, index)
        return PageTyping(index, lines, {
            item.key: Typed(item.line.line_type, item.line.level) for item in lines
            if item.line.line_type is not LineType.BODY})

    @property
    def body(self) -> list[TypedLine]:
        """The lines still typed body, in reading order."""
        return [item for item in self.lines if item.key not in self.decided]

    def deciding(self, decisions: Mapping[Key, Typed]) -> PageTyping:
        """The page with those of ``decisions`` (for any pages) that name its body
        lines decided too."""
        mine = {item.key: decisions[item.key] for item in self.body if item.key in decisions}
        return dataclasses.replace(self, decided={**self.decided, **mine}) if mine else self
