"""A page's glyphs as its source reads them, and code-point helpers for many characters at once.

The glyphs are arrays of texts, boxes, fonts and sizes, with the page's size, rules
and pictures.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from bidi import get_display

from .clean import clean_text, clean_texts
from .geometry import BBox, Rule
from .value import Value, gist

__all__ = ["CODE_POINTS", "LINK_SCHEMES", "NO_GLYPHS", "Glyph", "Glyphs", "Link", "PageGlyphs",
           "char_test",
           "code_points", "is_cjk", "is_right_to_left", "spell", "visual_order"]


@dataclass(frozen=True, slots=True)
class Glyph(Value):
    """One character drawn on a page, as the glyph source reports it."""

    text: str
    bbox: BBox
    font: str
    size: float
    direction: int = 0
    """The direction its baseline runs in, degrees anticlockwise as the page is shown
    (`direction_of`): 0 upright, 90 bottom to top, 180
    upside down, 270 top to bottom."""
    weight: int = 0
    """Its font's weight (`weight`: 400 regular, 700 bold) as
    the font tells it (`font_weight`); 0 where the
    source reads none, and the font's name says ([`is_bold`][layoutkit.model.is_bold])."""

    @property
    def upright(self) -> bool:
        """Whether the glyph is set upright (its baseline runs rightwards)."""
        return self.direction == 0


@dataclass(frozen=True, slots=True, eq=False)
class Glyphs(Value):
    """The glyphs of one page as columns: one entry per glyph in each.

    A page holds thousands of glyphs and the stages that read them work on arrays,
    so a glyph source hands them over as arrays instead of one object per glyph.
    ``boxes`` holds ``x0, top, x1, bottom`` per row.  The arrays are read-only and
    equality compares contents, so the value is as immutable as a tuple of
    [`Glyph`][layoutkit.model.glyphs.Glyph]; indexing and iterating give
    [`Glyph`][layoutkit.model.glyphs.Glyph] values.  The texts are cleaned on the way in
    ([`clean_text`][layoutkit.model.clean.clean_text]): every glyph source makes its glyphs here, so
    no engine's text reaches an output with a control character or a lone surrogate.
    """

    texts: tuple[str, ...]
    boxes: npt.NDArray[np.float64]
    fonts: tuple[str, ...]
    sizes: npt.NDArray[np.float64]
    directions: npt.NDArray[np.int16]
    """The direction of each glyph's baseline
    ([`Glyph.direction`][layoutkit.model.glyphs.Glyph.direction])."""
    weights: npt.NDArray[np.int16]
    """The weight of each glyph's font ([`Glyph.weight`][layoutkit.model.glyphs.Glyph.weight])."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "texts", clean_texts(self.texts))
        n = len(self.texts)
        if (self.boxes.shape != (n, 4) or len(self.fonts) != n or self.sizes.shape != (n,)
                or self.directions.shape != (n,) or self.weights.shape != (n,)):
            raise ValueError(f"Glyphs: columns of unequal length ({n} texts, boxes "
                             f"{self.boxes.shape}, {len(self.fonts)} fonts, sizes "
                             f"{self.sizes.shape}, directions {self.directions.shape}, "
                             f"weights {self.weights.shape})")
        for column in (self.boxes, self.sizes, self.directions, self.weights):
            column.flags.writeable = False

    @staticmethod
    def of(glyphs: Iterable[Glyph]) -> Glyphs:
        """The columns of ``glyphs``, in their order."""
        items = list(glyphs)
        return Glyphs(tuple(g.text for g in items),
                      np.array([(g.bbox.x0, g.bbox.top, g.bbox.x1, g.bbox.bottom) for g in items],
                               dtype=np.float64).reshape(len(items), 4),
                      tuple(g.font for g in items),
                      np.array([g.size for g in items], dtype=np.float64),
                      np.array([g.direction for g in items], dtype=np.int16),
                      np.array([g.weight for g in items], dtype=np.int16))

    def __len__(self) -> int:
        return len(self.texts)

    def __repr__(self) -> str:
        """The glyphs in one short line: how many, and the beginning of their text."""
        return f"<Glyphs {len(self):,}: {gist(''.join(self.texts))}>"

    def __getitem__(self, index: int) -> Glyph:
        x0, top, x1, bottom = self.boxes[index].tolist()
        return Glyph(self.texts[index], BBox(x0, top, x1, bottom), self.fonts[index],
                     float(self.sizes[index]), int(self.directions[index]),
                     int(self.weights[index]))

    def __iter__(self) -> Iterator[Glyph]:
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Glyphs):
            return NotImplemented
        return (self.texts == other.texts and self.fonts == other.fonts
                and np.array_equal(self.boxes, other.boxes)
                and np.array_equal(self.sizes, other.sizes)
                and np.array_equal(self.directions, other.directions)
                and np.array_equal(self.weights, other.weights))

    __hash__: Any = None


NO_GLYPHS = Glyphs.of(())
"""A page's glyphs once nothing needs them any more (or a page without text)."""


CODE_POINTS = 0x110000
"""How many code points Unicode has: one more than the highest."""


def code_points(texts: Sequence[str]) -> npt.NDArray[np.int64]:
    """The code point of each text of one character, -1 for any other text.

    Nearly every glyph's text is one character, so this is the glyphs' text as an
    array numpy can compare and look up, made in one pass when all of them are.
    """
    joined = "".join(texts)
    # the items of a str are one character each; other texts are when none is empty
    # and they add up to one character each
    if isinstance(texts, str) or (len(joined) == len(texts) and "" not in texts):
        return np.frombuffer(joined.encode("utf-32-le", "surrogatepass"),
                             dtype=np.uint32).astype(np.int64)
    return np.array([ord(t) if len(t) == 1 else -1 for t in texts], dtype=np.int64)


def spell(codes: npt.NDArray[np.int64]) -> str:
    """The string whose characters are the code points ``codes`` (none of them -1):
    [`code_points`][layoutkit.model.glyphs.code_points] undone, in one pass."""
    return codes.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")


def char_test(codes: npt.NDArray[np.int64], test: Callable[[str], bool]) -> npt.NDArray[np.bool_]:
    """``test`` of the character of each of the ``codes`` (False for -1), asked once
    for each distinct character: a page holds thousands of glyphs but few characters.

    The answers go in a table indexed by code point (one past the highest code; most
    pages stay below U+3000), which finds the distinct codes and looks each glyph's
    answer up in one pass each, where sorting them takes several."""
    if not len(codes):
        return np.zeros(0, dtype=np.bool_)
    table = np.zeros(int(codes.max()) + 2, dtype=np.bool_)  # code c at c + 1, -1 at 0
    table[codes + 1] = True
    distinct = np.flatnonzero(table[1:])
    table[0] = False
    table[distinct + 1] = [test(chr(c)) for c in distinct.tolist()]
    return table[codes + 1]


_HANGUL = ((0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F), (0xAC00, 0xD7FF))
"""Korean letters: wide, but Korean separates its words by spaces."""


def is_right_to_left(char: str) -> bool:
    """Whether ``char`` is a letter of a right-to-left script (Hebrew, Arabic, Syriac,
    Thaana, N'Ko): bidi class R or AL."""
    return unicodedata.bidirectional(char) in ("R", "AL")


def is_cjk(char: str) -> bool:
    """Whether ``char`` is a wide character of a script written without spaces between
    words (Chinese, Japanese) or full-width punctuation (。、「」): such text is set
    without spaces, and may be set in vertical writing."""
    code = ord(char)
    return (unicodedata.east_asian_width(char) in ("W", "F")
            and not any(a <= code <= b for a, b in _HANGUL))


def visual_order(text: str) -> str:
    """One word's ``text`` with its letters in the order they stand on the page, left
    to right: its right-to-left letters reversed, the digits and Latin letters among
    them kept left to right (the bidi algorithm, python-bidi); ``text`` itself when it
    has no right-to-left letter.

    Glyphs come in that order from a PDF, and a line's words are read back into
    logical order from it (`line_text`); OCR gives words
    in logical order, which this turns visual.  Reordering one word is its own
    inverse, so this also gives a word's logical order back, for judging its
    language or its spelling."""
    if not any(map(is_right_to_left, text)):
        return text
    return str(get_display(text, base_dir="R"))


LINK_SCHEMES = ("http", "https", "mailto")
"""The schemes of the addresses a link keeps: web pages and mail.  A link to another
scheme (``javascript:``, ``file:``), one that launches a program or one that goes to a
place in the document links nowhere a reader of the text can follow."""


@dataclass(frozen=True, slots=True)
class Link(Value):
    """A link annotation of a page: the box it covers (top-left points, as every box)
    and the address it opens, one of [`LINK_SCHEMES`][layoutkit.model.LINK_SCHEMES]."""

    bbox: BBox
    uri: str

    @staticmethod
    def kept(bbox: BBox, uri: str) -> Link | None:
        """The link of ``bbox`` to ``uri`` (spaces around it stripped), or None when its
        scheme is not one of [`LINK_SCHEMES`][layoutkit.model.LINK_SCHEMES]: what every
        engine keeps of a page's link annotations, so that they agree."""
        uri = clean_text(uri).strip()
        scheme, colon, rest = uri.partition(":")
        if not colon or scheme.lower() not in LINK_SCHEMES or not rest.strip("/"):
            return None
        return Link(bbox, uri)


@dataclass(frozen=True, slots=True)
class PageGlyphs(Value):
    """What a glyph source yields for one page: its size, glyphs, rules and images,
    and its label (`Page.label`)."""

    page_no: int
    width: float
    height: float
    glyphs: Glyphs
    rules: tuple[Rule, ...] = ()
    images: tuple[BBox, ...] = ()
    label: str = ""
    unreadable: str = ""
    """Why the page was not read (past a budget: it draws too much, it took too long),
    its glyphs left empty; empty for a page that was read (`Page.unreadable`)."""
    links: tuple[Link, ...] = ()
    """The page's links to web pages and mail ([`Link`][layoutkit.model.Link]), which
    the words they cover take (`Word.link`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "label", clean_text(self.label))

    def __repr__(self) -> str:
        """The page's glyphs in one short line: its number, size, how many glyphs,
        rules and pictures, and the beginning of its text."""
        return (f"<PageGlyphs {self.page_no} {self.width:g}x{self.height:g}: "
                f"{len(self.glyphs):,} glyphs, {len(self.rules):,} rules, "
                f"{len(self.images):,} images: {gist(''.join(self.glyphs.texts))}>")

    def figures(self, max_area: float) -> tuple[BBox, ...]:
        """The page's pictures covering at most ``max_area`` (a share) of it: figures,
        which stand in the layout as text does; a larger picture is a background (a
        scan under its text layer)."""
        largest = max_area * (self.width * self.height)
        return tuple(b for b in self.images if b.width * b.height <= largest)
