"""ALTO XML (version 4, schema 4.4) of a parsed document.

ALTO is the format libraries and newspaper archives keep digitised pages in.  One
`Page` per page read (`PHYSICAL_IMG_NR` its number, `PRINTED_IMG_NR` its label when the
PDF has page labels), with the page's text blocks in reading order:

- `PrintSpace`, the box of the body lines, holds the body's blocks;
- running headers and footers (and margin stamps) go to the margins around it:
  `LeftMargin`/`RightMargin` for a line wholly beside the print space, otherwise
  `TopMargin` for a header and `BottomMargin` for a footer;
- a `TextBlock` is a block of layoutkit's layout (lines of one column with no unusual
  gap between them), a `TextLine` a line, a `String` a word with an `SP` between two
  words.

Coordinates are in 1/1200 inch (`MeasurementUnit` `inch1200`) from the page's top-left
corner, rounded to whole units; font sizes are in points, as ALTO has them.  Each
string names its font and size (`STYLEREFS` to a `TextStyle`), each line its line type
(`TAGREFS` to a `StructureTag` whose `LABEL` is the type's code: `b`, `h_1`, `lb`,
`tab`...; see `layoutkit parse`).  Characters XML does not allow (control characters a
PDF's text may hold) are left out of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import groupby
from xml.etree import ElementTree as ET

from .. import __version__
from ..model import BBox, Document, Line, LineType, Page

__all__ = ["NAMESPACE", "SCHEMA_LOCATION", "UNITS_PER_POINT", "alto", "xml_text"]

NAMESPACE = "http://www.loc.gov/standards/alto/ns-v4#"
SCHEMA_LOCATION = "http://www.loc.gov/standards/alto/v4/alto-4-4.xsd"
UNITS_PER_POINT = 1200 / 72
"""ALTO's ``inch1200`` units in a PDF point (1/72 inch)."""
_XSI = "http://www.w3.org/2001/XMLSchema-instance"
_MARGINS = ("TopMargin", "LeftMargin", "RightMargin", "BottomMargin")
"""The page spaces around the print space, in the order ALTO lists them."""
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 does not allow (control characters,
    lone surrogates), which an XML or HTML reader would refuse."""
    return _NOT_XML.sub("", text)


def alto(document: Document) -> str:
    """The document as ALTO XML text (see the module), declared UTF-8."""
    # names written as they stand (the namespaces declared here once), so that no
    # prefix is registered in ElementTree's table for the whole process
    root = ET.Element("alto", {"xmlns": NAMESPACE, "xmlns:xsi": _XSI, "SCHEMAVERSION": "4.4",
                               "xsi:schemaLocation": f"{NAMESPACE} {SCHEMA_LOCATION}"})
    description = ET.SubElement(root, "Description")
    ET.SubElement(description, "MeasurementUnit").text = "inch1200"
    source = ET.SubElement(description, "sourceImageInformation")
    ET.SubElement(source, "fileName").text = xml_text(document.path.name)
    processing = ET.SubElement(description, "Processing", ID="layoutkit")
    software = ET.SubElement(processing, "processingSoftware")
    ET.SubElement(software, "softwareName").text = "layoutkit"
    ET.SubElement(software, "softwareVersion").text = __version__
    lines = [line for page in document.pages for line in page.lines if line.words]
    styles = {key: f"font{i}" for i, key in enumerate(dict.fromkeys(
        (word.font, word.size) for line in lines for word in line.words))}
    if styles:
        styles_element = ET.SubElement(root, "Styles")
        for (font, size), style in styles.items():
            ET.SubElement(styles_element, "TextStyle", ID=style,
                          FONTFAMILY=xml_text(font), FONTSIZE=f"{size:g}")
    codes = sorted({line.code for line in lines})
    if codes:
        tags = ET.SubElement(root, "Tags")
        for code in codes:
            ET.SubElement(tags, "StructureTag", ID=_tag(code), LABEL=code,
                          TYPE="line type")
    layout = ET.SubElement(root, "Layout")
    for page in document.pages:
        layout.append(_page(page, styles))
    ET.indent(root, space=" ")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + ET.tostring(root, encoding="unicode") + "\n")


def _tag(code: str) -> str:
    return f"type_{code}"


def _units(points: float) -> str:
    return str(round(points * UNITS_PER_POINT))


def _box(box: BBox) -> dict[str, str]:
    """The ``HPOS``, ``VPOS``, ``WIDTH`` and ``HEIGHT`` of ``box`` in ALTO's units."""
    return {"HPOS": _units(box.x0), "VPOS": _units(box.top),
            "WIDTH": _units(box.width), "HEIGHT": _units(box.height)}


def _page(page: Page, styles: dict[tuple[str, float], str]) -> ET.Element:
    """A ``Page``: its margins, with the furniture, and its print space, with the body."""
    label = {"PRINTED_IMG_NR": xml_text(page.label)} if page.label else {}
    element = ET.Element("Page", {"ID": f"p{page.page_no}", "PHYSICAL_IMG_NR": str(page.page_no),
                                  **label, "WIDTH": _units(page.width),
                                  "HEIGHT": _units(page.height)})
    body = [line for line in page.body_lines if line.words]
    space = (BBox.union(line.bbox for line in body) if body
             else BBox(0.0, 0.0, page.width, page.height))
    spaces = {name: ET.Element(name, _box(area))
              for name, area in _areas(page, space).items()}
    for number, (name, lines) in enumerate(_blocks(page, space)):
        block = ET.SubElement(spaces[name], "TextBlock",
                              {"ID": f"p{page.page_no}_b{number}",
                               **_box(BBox.union(line.bbox for line in lines))})
        for index, line in enumerate(lines):
            block.append(_line(line, f"p{page.page_no}_b{number}_l{index}", styles))
    for name in _MARGINS:
        if len(spaces[name]):
            element.append(spaces[name])
    element.append(spaces["PrintSpace"])
    return element


def _areas(page: Page, space: BBox) -> dict[str, BBox]:
    """The print space and the four margins between it and the page's edges."""
    return {"TopMargin": BBox(0.0, 0.0, page.width, space.top),
            "LeftMargin": BBox(0.0, space.top, space.x0, space.bottom),
            "RightMargin": BBox(space.x1, space.top, page.width, space.bottom),
            "BottomMargin": BBox(0.0, space.bottom, page.width, page.height),
            "PrintSpace": space}


def _blocks(page: Page, space: BBox) -> Iterator[tuple[str, Sequence[Line]]]:
    """The page's text blocks in reading order, each with the page space it goes to:
    layoutkit's blocks, split where their lines go to different spaces."""
    for band in page.bands:
        for column in band.columns:
            for block in column.blocks:
                for name, lines in groupby((line for line in block.lines if line.words),
                                           key=lambda line: _space_of(line, space)):
                    yield name, tuple(lines)


def _space_of(line: Line, space: BBox) -> str:
    """Where a line goes: the print space for a body line; for furniture the margin
    beside the print space that holds it wholly, else the top margin for a header and
    the bottom margin for a footer."""
    if not line.furniture:
        return "PrintSpace"
    if line.bbox.x1 <= space.x0:
        return "LeftMargin"
    if line.bbox.x0 >= space.x1:
        return "RightMargin"
    return "TopMargin" if line.line_type is LineType.HEADER else "BottomMargin"


def _line(line: Line, identifier: str, styles: dict[tuple[str, float], str]) -> ET.Element:
    """A ``TextLine``: its words as ``String`` elements with an ``SP`` between two."""
    element = ET.Element("TextLine", {"ID": identifier, **_box(line.bbox),
                                          "TAGREFS": _tag(line.code)})
    previous = None
    for word in line.words:
        if previous is not None:
            gap = max(word.bbox.x0 - previous.bbox.x1, 0.0)
            ET.SubElement(element, "SP", HPOS=_units(previous.bbox.x1),
                          VPOS=_units(min(previous.bbox.top, word.bbox.top)), WIDTH=_units(gap))
        ET.SubElement(element, "String", {**_box(word.bbox), "CONTENT": xml_text(word.text),
                                              "STYLEREFS": styles[word.font, word.size]})
        previous = word
    return element
