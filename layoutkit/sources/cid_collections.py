"""The text of a composite font's CIDs where the font carries no `/ToUnicode` map.

A composite (Type 0) font without `/ToUnicode` names its glyphs by the CIDs of the
character collection its `/CIDSystemInfo` names (Adobe-Japan1, -GB1, -CNS1, -Korea1);
a reader maps them to text by that collection's table.  Neither engine's tables hold
every CID of the collections' later supplements: upLaTeX's Pr6N fonts (Adobe-Japan1-6)
give PDFium the CID itself where it has none (挺, CID 20286, as U+4F3E) and pdfminer.six
`(cid:20286)`.

- `collection_table`: the text of a collection's CIDs by poppler-data's table
  (`cidToUnicode`, all supplements) where the machine has it (`POPPLER_DATA`), else
  by pdfminer.six's; both engines read such fonts by it.
- `font_collections`: the collection of each composite font of a document that has no
  `/ToUnicode`, by the name of its descendant font.
- `read_by_collection`: PDFium maps such a font's CIDs by tables of its own, which
  name some characters otherwise than the collection does (吞 as 呑, 絕 as 絶) and give
  no CID; the pdfium engine reads a page drawn in such a font again with pdfminer.six,
  whose text of each glyph it takes where the two name different characters.

A Type 3 font without `/ToUnicode` whose `/Differences` names a code's glyph by the
name of another character than the code's own (Scribus numbers them from 0:
`/V /S /U /P`) is read so too (`TYPE3`): PDFium gives such a font's codes themselves,
control characters and wrong letters ('!', '5' for 'V', 'S'), where pdfminer.six
reads the names.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..model import Glyphs, turned_boxes, untagged
from .base import FileIdentity
from .differences import differences_of, font_dictionaries, name_of, scanned_once, untagged_name

__all__ = ["POPPLER_DATA", "TYPE3", "collection_table", "drawn_by_collection", "font_collections",
           "read_by_collection"]

POPPLER_DATA = (Path("/usr/share/poppler"), Path("/usr/local/share/poppler"),
                Path("/opt/homebrew/share/poppler"))
"""Where poppler-data installs its tables (Debian, a build from source, Homebrew)."""


@cache
def collection_table(collection: str) -> dict[int, str]:
    """The text of each CID of the character ``collection`` ('Adobe-Japan1'):
    poppler-data's table (a line a CID, the hexadecimal of its code point, 0 for none)
    where one is installed, else pdfminer.six's (Adobe's tables as it bundles them);
    empty for a collection neither knows, or a name that is none (a file's path)."""
    if not _COLLECTION.fullmatch(collection):
        return {}
    for root in POPPLER_DATA:
        path = root / "cidToUnicode" / collection
        if path.is_file():
            lines = path.read_text(encoding="ascii", errors="replace").split()
            return {cid: chr(code) for cid, line in enumerate(lines)
                    if _HEX.fullmatch(line) and 0 < (code := int(line, 16)) <= sys.maxunicode}
    from pdfminer.cmapdb import CMapDB

    try:
        return dict(CMapDB.get_unicode_map(collection).cid2unichr)
    except CMapDB.CMapNotFound:
        return {}


_COLLECTION = re.compile(r"[A-Za-z0-9]+-[A-Za-z0-9]+")
_HEX = re.compile(r"[0-9A-Fa-f]{1,6}")

TYPE3 = "Type3"
"""What `font_collections` gives for a Type 3 font without `/ToUnicode` whose
`/Differences` names a code's glyph by a name of another character than the code's
own, which PDFium gives; by its `/BaseFont` without a subset tag, as PDFium names it,
or '' for one without (the name PDFium gives such a font)."""

_COLLECTIONS: dict[FileIdentity, dict[str, str]] = {}
"""What `font_collections` found in the document it last read in this process."""


def font_collections(path: Path) -> dict[str, str]:
    """For each composite font of the document at ``path`` without `/ToUnicode`, the
    character collection its CIDs number ('Adobe-Japan1'), by its descendant's base name
    without a subset tag, where the collection's table is known (`collection_table`:
    not 'Adobe-Identity', whose CIDs name no characters); `TYPE3` for a Type 3 font
    without `/ToUnicode` that names a glyph in `/Differences` by another character than
    its code's; empty for a document pdfminer.six cannot read."""
    return scanned_once(path, _COLLECTIONS, _collections)


def _collections(path: Path) -> dict[str, str]:
    """What `font_collections` returns, read from the file."""
    from pdfminer.pdftypes import resolve1

    found: dict[str, str] = {}
    try:
        for font in font_dictionaries(path):
            if name_of(font.get("Subtype")) == "Type3":
                if "ToUnicode" not in font and _named_otherwise(font.get("Encoding")):
                    found[untagged_name(font.get("BaseFont")) if "BaseFont" in font
                          else ""] = TYPE3
                continue
            descendants = resolve1(font.get("DescendantFonts"))
            if name_of(font.get("Subtype")) != "Type0" or "ToUnicode" in font \
                    or not isinstance(descendants, list) or not descendants:
                continue
            descendant = resolve1(descendants[0])
            info = resolve1(descendant.get("CIDSystemInfo")) \
                if isinstance(descendant, dict) else None
            if isinstance(info, dict):
                registry, ordering = (resolve1(info.get(key)) for key in ("Registry", "Ordering"))
                if isinstance(registry, bytes) and isinstance(ordering, bytes):
                    collection = f"{registry.decode('latin-1')}-{ordering.decode('latin-1')}"
                    if collection_table(collection):
                        found[untagged_name(descendant.get("BaseFont"))] = collection
    except Exception:  # pdfminer raises many unrelated types on a broken file
        return found
    return found


def _named_otherwise(encoding: object) -> bool:
    """Whether the ``/Differences`` of a Type 3 font's ``encoding`` name a code's glyph
    by a name pdfminer.six reads as another text than the code's own character, which
    PDFium gives: a re-read would tell it (a name neither reads, a PK font's 'a12',
    changes nothing)."""
    from pdfminer.encodingdb import name2unicode
    from pdfminer.pdfexceptions import PDFKeyError

    for code, name in differences_of(encoding).items():
        try:
            if name2unicode(name) != chr(code):
                return True
        except (PDFKeyError, ValueError):
            continue
    return False


def drawn_by_collection(glyphs: Glyphs, collections: Mapping[str, str]) -> bool:
    """Whether any of ``glyphs`` is drawn in a font of ``collections`` (`font_collections`)."""
    return bool(collections) and any(untagged(font) in collections for font in set(glyphs.fonts))


_SAME_PLACE = 0.5
"""How far apart, in ems of its size, the centres of a glyph's two readings may stand:
the engines' boxes of a vertical glyph differ by up to a fifth of an em, and two glyphs
of one font stand a whole em apart."""


_APART = 1e6
"""Points between the frames of two directions in `_starts`: farther than any page."""


def _starts(glyphs: Glyphs) -> npt.NDArray[np.float64]:
    """Where each of ``glyphs`` starts, its box's start and top in the frame where it
    reads upright, the glyphs of each direction set far from the others' (the frames
    of two directions share no axes)."""
    starts = np.empty((len(glyphs), 2))
    for direction in np.unique(glyphs.directions).tolist():
        at = np.flatnonzero(glyphs.directions == direction)
        starts[at] = turned_boxes(glyphs.boxes[at], direction)[:, :2] + _APART * direction
    return starts


def read_by_collection(glyphs: Glyphs, read: Glyphs, collections: Mapping[str, str]) -> Glyphs:
    """``glyphs`` (a page as PDFium reads it) with each glyph drawn in a font of
    ``collections`` given the text of the glyph ``read`` (the same page as the pdfminer
    engine reads it, each CID by `collection_table`) in the same font at the same place,
    where that text names another character: not ``(cid:N)`` (a CID neither table
    maps) nor a compatibility form of PDFium's (the Kangxi radical ⿈ for 黃).

    Why: PDFium maps such a font's CIDs by its own tables, which give some CIDs of the
    collection's later supplements the character of another CID (吞 as 呑, 絕 as 絶,
    挺 as 伾), and it reports no CID to look up again.

    A glyph of a `TYPE3` font takes the text and the box of the glyph whose box starts
    where its own does, in the frame where both read upright, whatever that glyph's font
    (pdfminer.six names a Type 3 font by its descriptor's ``/FontName``, or 'unknown'):
    PDFium boxes such a glyph by the width of the character it read, the code's own, so
    that only the start of its box stands where the glyph is drawn."""
    from scipy.spatial import cKDTree  # type: ignore[import-untyped]  # for such a page only

    texts = list(glyphs.texts)
    boxes = glyphs.boxes.copy()
    fonts = np.array([untagged(font) for font in glyphs.fonts], dtype=object)
    their_fonts = np.array([untagged(font) for font in read.fonts], dtype=object)
    drawn = set(fonts.tolist()) & set(collections)
    centres = ((glyphs.boxes[:, :2] + glyphs.boxes[:, 2:]) / 2,
               (read.boxes[:, :2] + read.boxes[:, 2:]) / 2)
    starts = (_starts(glyphs), _starts(read)) if TYPE3 in {collections[f] for f in drawn} \
        else centres
    for font in drawn:
        type3 = collections[font] == TYPE3
        mine = np.flatnonzero(fonts == font)
        other = np.arange(len(read)) if type3 else np.flatnonzero(their_fonts == font)
        if not len(other):
            continue
        places, theirs = starts if type3 else centres
        distance, nearest = cKDTree(theirs[other]).query(places[mine])
        for k, d, j in zip(mine.tolist(), distance.tolist(), other[nearest].tolist(),
                           strict=True):
            text = read.texts[j]
            if d <= _SAME_PLACE * glyphs.sizes[k] and not text.startswith("(cid:") \
                    and unicodedata.normalize("NFKC", text) != texts[k]:
                texts[k] = text
                if type3:
                    boxes[k] = read.boxes[j]
    return Glyphs(tuple(texts), boxes, glyphs.fonts, glyphs.sizes, glyphs.directions,
                  glyphs.weights)
