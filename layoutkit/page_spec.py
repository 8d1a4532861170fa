"""Which pages a selection such as ``1,3-5,9-`` or ``iv-x,A-3`` names.

- A part of numbers (``3``, ``3-5``, ``9-``, ``-4``) names pages by their place in the
  file, 1 for the first, whatever the document's page labels.
- Any other part names pages by their labels (the PDF's ``/PageLabels``, as
  `layoutkit.model.Page.label` gives them), in a document that has them: a label
  (``iv``, ``A-3``: every page so labelled) or a range of two labels joined by ``-``
  (``iv-x``: from the first page of the one to the last page of the other; ``iv-``
  runs to the last page, ``-x`` from the first).  A label that holds ``-`` itself is
  read whole before it is read as a range.
- A part that reads neither way raises a `PageRangeError` in one line, naming the
  labels the document has.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from .errors import PageRangeError
from .geometry.numerals import roman_value

__all__ = ["describe_labels", "parse_page_spec"]

_SPEC = re.compile(r"^\s*(\d+)?\s*(-)?\s*(\d+)?\s*$")
"""A part of numbers: a page, a range, or a range open at one end."""
_NUMBERED = re.compile(r"^(.*?)(\d+|[ivxlcdm]+|[IVXLCDM]+)$")
"""A label as a prefix and the number it ends with (Arabic or Roman)."""
_SHOWN_RUNS = 8
"""The runs of labels an error names before it says how many more there are."""


def parse_page_spec(spec: str, page_count: int, labels: Sequence[str] = ()) -> list[int]:
    """The 1-based pages ``spec`` names (see the module's list), sorted, without
    repeats, in a document of ``page_count`` pages whose pages carry ``labels`` (none:
    no labels, or all empty).

    Raises PageRangeError naming the part that is malformed or out of range."""
    labelled = any(labels)
    pages: set[int] = set()
    for part in spec.split(","):
        match = _SPEC.match(part)
        if part.strip() and match is not None and (match[1] or match[3]):
            pages.update(_numbered(spec, part, match, page_count))
        elif labelled and part.strip():
            pages.update(_labelled(spec, part.strip(), labels))
        else:
            raise PageRangeError(
                f"page range {spec!r}: cannot read {part.strip()!r}; expected numbers and "
                f"ranges such as 1,3-5,9-" + (
                    "" if labelled or not part.strip() else " (the document has no page labels)"))
    return sorted(pages)


def _numbered(spec: str, part: str, match: re.Match[str], page_count: int) -> range:
    """The pages a part of numbers names."""
    first = int(match[1]) if match[1] else 1
    last = (int(match[3]) if match[3] else max(first, page_count)) if match[2] else first
    if first > last:
        raise PageRangeError(f"page range {spec!r}: {part.strip()!r} runs backwards")
    if not 1 <= first <= last <= page_count:
        raise PageRangeError(f"page range {spec!r}: {part.strip()!r} is outside the "
                             f"document's pages 1-{page_count}")
    return range(first, last + 1)


def _labelled(spec: str, part: str, labels: Sequence[str]) -> Sequence[int]:
    """The pages a part naming labels names: a label, or a range of two."""
    whole = [k for k, label in enumerate(labels, 1) if label == part]
    if whole:
        return whole
    for at in (m.start() for m in re.finditer("-", part)):
        left, right = part[:at].strip(), part[at + 1:].strip()
        first = _first(labels, left) if left else 1
        last = _last(labels, right) if right else len(labels)
        if first is None or last is None:
            continue
        if first > last:
            raise PageRangeError(f"page range {spec!r}: {part!r} runs backwards (page "
                                 f"{first} to page {last})")
        return range(first, last + 1)
    raise PageRangeError(f"page range {spec!r}: no page is labelled {part!r}; the "
                         f"document's labels: {describe_labels(labels)}")


def _first(labels: Sequence[str], label: str) -> int | None:
    """The first page labelled ``label`` (1-based), None when none is."""
    return next((k for k, found in enumerate(labels, 1) if found == label), None)


def _last(labels: Sequence[str], label: str) -> int | None:
    """The last page labelled ``label`` (1-based), None when none is."""
    return next((k for k in range(len(labels), 0, -1) if labels[k - 1] == label), None)


def describe_labels(labels: Sequence[str]) -> str:
    """The labels of a document's pages in short: runs of labels counting up by one
    (``i-iv``, ``1-114``, ``A-1-A-3``) joined by commas, the first `_SHOWN_RUNS`
    of them."""
    runs: list[list[str]] = []
    for before, label in pairwise(["", *labels]):
        if runs and _follows(before, label):
            runs[-1].append(label)
        else:
            runs.append([label])
    shown = [run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs
             if run[0]][:_SHOWN_RUNS]
    more = len([run for run in runs if run[0]]) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _follows(before: str, label: str) -> bool:
    """Whether ``label`` counts on by one from ``before``: the same prefix, the next
    number (Arabic, or Roman in the same case)."""
    a, b = _NUMBERED.match(before), _NUMBERED.match(label)
    if a is None or b is None or a[1] != b[1]:
        return False
    if a[2].isdigit() and b[2].isdigit():
        return int(b[2]) == int(a[2]) + 1
    if a[2].isdigit() or b[2].isdigit() or a[2].islower() != b[2].islower():
        return False
    x, y = roman_value(a[2]), roman_value(b[2])
    return x is not None and y is not None and y == x + 1
