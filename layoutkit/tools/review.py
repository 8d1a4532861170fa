"""A truth file shown beside its pages: one self-contained HTML page per document.

A truth file lists a page's lines in the order a person reads them; whether that
order is right can only be judged against the page.  `review_html` lays each
labelled page's picture beside its lines, numbered in reading order (furniture
apart, marked F1, F2...; what was excluded listed), and draws each number on the
picture where its line stands, so that a person follows the numbers down the
columns and sees at a glance where the order jumps.

Where a truth line stands is found in a fresh reading of the page
(`locate`): by its reduced text (`layoutkit.tools.evaluate.reduce`)
first, then, for a line a person edited, by the closest line text (rapidfuzz), then
as part of a longer line (a line a person cut out of two columns the reading glued
together).  A line found none of these ways is listed without a number on the
picture and flagged.

The HTML needs nothing beside it: the pictures are ``data:`` URIs, the style is
inline and there is no script; the numbers are links between the picture and the
list.  `review_html` is pure; `review_truth` reads the document,
checks the truth against it and renders the pages.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from ..files import text_name
from ..model import BBox
from .evaluate import reduce
from .truth import DocumentTruth, PageTruth, PageTypes

if TYPE_CHECKING:
    from ..config import LayoutConfig
    from ..profile import Profile

__all__ = ["EDITED_SCORE", "PART_SCORE", "Found", "PagePicture", "ReviewEntry", "locate",
           "page_entries", "review_html", "review_truth"]

EDITED_SCORE = 80.0
"""The least rapidfuzz ratio (0-100) of reduced texts at which a truth line not found
as it is counts as a line of the reading a person edited."""

PART_SCORE = 90.0
"""The least rapidfuzz partial ratio at which a truth line counts as part of a line of
the reading (or the reading's line as part of it)."""

_COLOURS = 64
"""The colours a page's picture keeps in the review (enough for print, a quarter of the
bytes of a full-colour one)."""

_MIN_PART_CHARS = 8
"""Reduced length below which a text is too short to be looked for inside another."""


@dataclass(frozen=True)
class PagePicture:
    """A labelled page as the review shows it: its number, its picture (a ``data:``
    URI, ``pixels`` wide and tall), its size in points and the text and box of every
    line a fresh reading found on it, in reading order."""

    page: int
    image: str
    pixels: tuple[int, int]
    width: float
    height: float
    lines: tuple[tuple[str, BBox], ...]


@dataclass(frozen=True)
class Found:
    """Where a truth line stands: ``bbox`` on the page (part of a reading line's box
    when it is part of one), and how it was found: ``"same"`` (its reduced text),
    ``"edited"`` (close to a line's) or ``"part"`` (inside a longer line, or a line
    inside it)."""

    bbox: BBox
    how: str


@dataclass(frozen=True)
class ReviewEntry:
    """One numbered entry of a page's list: its ``label`` (``1``, ``F1``), its text,
    its ``kind`` (``line``, ``furniture``, or ``typed`` on a page labelled for its
    types alone), the line types the truth gives it (``h2``, ``item``, ``table``,
    ``contents``, ``either``) and where it stands (None: not found)."""

    label: str
    text: str
    kind: str
    tags: tuple[str, ...]
    found: Found | None


def locate(texts: Sequence[str], lines: Sequence[tuple[str, BBox]]) -> list[Found | None]:
    """Where each of ``texts`` (truth lines) stands among ``lines`` (the text and box
    of each line of a reading), None where it is not found.

    A reading line is given to one truth line with its reduced text (a bill's line
    number before it aside), the next one after the last so given when the text
    repeats, so repeated lines keep their order; then each truth line still unplaced
    goes to the unclaimed line closest to it (ratio at least `EDITED_SCORE`);
    then to the line it is part of, or that is part of it (partial ratio at least
    `PART_SCORE`, either text at least eight characters long), which several
    truth lines may share."""
    keys = [reduce(text) for text in texts]
    reading = [reduce(text) for text, _ in lines]
    found: list[Found | None] = [None] * len(texts)
    taken: set[int] = set()
    last = -1
    for k, key in enumerate(keys):
        same = [i for i, text in enumerate(reading) if key and i not in taken
                and _same(key, text)]
        if same:
            chosen = next((i for i in same if i > last), same[0])
            found[k], last = Found(lines[chosen][1], "same"), chosen
            taken.add(chosen)
    for k, key in enumerate(keys):
        if found[k] is not None or not key:
            continue
        scores = [(fuzz.ratio(key, text), -i) for i, text in enumerate(reading)
                  if i not in taken and text]
        best = max(scores, default=(0.0, 0))
        if best[0] >= EDITED_SCORE:
            found[k] = Found(lines[-best[1]][1], "edited")
            taken.add(-best[1])
    for k, key in enumerate(keys):
        if found[k] is None:
            found[k] = _part(key, reading, lines)
    return found


def _same(key: str, text: str) -> bool:
    """Whether the reduced truth line ``key`` reads as the reduced reading line
    ``text``, or as its end after a number (a bill's line number stands before it)."""
    return text == key or (text.endswith(key) and text[:len(text) - len(key)].isdigit())


def _part(key: str, reading: Sequence[str], lines: Sequence[tuple[str, BBox]]) -> Found | None:
    """Where the reduced truth line ``key`` stands as part of a reading line (the
    share of the line's box its letters take), or as a reading line within it."""
    best: tuple[float, int, int, int] | None = None
    for i, text in enumerate(reading):
        if min(len(key), len(text)) < _MIN_PART_CHARS:
            continue
        aligned = fuzz.partial_ratio_alignment(key, text, score_cutoff=PART_SCORE)
        if aligned is not None and (best is None or aligned.score > best[0]):
            start, end = ((aligned.dest_start, aligned.dest_end) if len(key) <= len(text)
                          else (0, len(text)))
            best = (aligned.score, i, start, end)
    if best is None:
        return None
    _, i, start, end = best
    box, size = lines[i][1], max(1, len(reading[i]))
    return Found(BBox(box.x0 + box.width * start / size, box.top,
                      box.x0 + box.width * end / size, box.bottom), "part")


def page_entries(truth: PageTruth, lines: Sequence[tuple[str, BBox]]) -> list[ReviewEntry]:
    """The numbered entries of a labelled page, each placed among ``lines`` (the
    page's reading): its body lines (``1``, ``2``...) and furniture (``F1``...) for
    a page labelled for reading order, or the lines its types name (headings, list
    items, tables, contents) for a page labelled for its types alone."""
    tags = _tags(truth.types)
    if truth.ordered:
        listed = [(str(n), text, "line") for n, text in enumerate(truth.lines, 1)]
        listed += [(f"F{n}", text, "furniture") for n, text in enumerate(truth.furniture, 1)]
    else:
        listed = [(str(n), text, "typed") for n, text in enumerate(tags, 1)]
    places = locate([text for _, text, _ in listed], lines)
    return [ReviewEntry(label, text, kind, tags.get(text, ()), place)
            for (label, text, kind), place in zip(listed, places, strict=True)]


def _tags(types: PageTypes | None) -> dict[str, tuple[str, ...]]:
    """The line types ``types`` gives each text it names, in the order first named."""
    tags: dict[str, tuple[str, ...]] = {}
    if types is None:
        return tags
    named = [(f"h{level}", text) for level, text in types.headings]
    named += [("item", text) for text in types.list_items]
    named += [("table", text) for text in types.tables]
    named += [("contents", text) for text in types.contents]
    named += [("either", text) for text in types.either]
    named += [("caption", text) for text in types.captions]
    named += [("footnote", text) for text in types.footnotes]
    for tag, text in named:
        if tag not in tags.get(text, ()):
            tags[text] = (*tags.get(text, ()), tag)
    return tags


def review_html(truth: DocumentTruth, pictures: Sequence[PagePicture]) -> str:
    """The review page of ``truth``: for each of its pages that has a picture in
    ``pictures``, the picture with the entries' numbers where their lines stand
    beside the numbered list of entries, the unplaced ones flagged.  Returns the
    whole HTML document, which needs no other file and no network."""
    by_page = {picture.page: picture for picture in pictures}
    sections, missing = [], 0
    for page in truth.pages:
        picture = by_page.get(page.page)
        if picture is None:
            continue
        entries = page_entries(page, picture.lines)
        missing += sum(1 for entry in entries if entry.found is None)
        sections.append(_section(page, picture, entries))
    name = html.escape(text_name(Path(truth.document).name))
    summary = (f"{len(sections)} page(s), {sum(len(p.lines) for p in truth.pages)} line(s), "
               f"{missing} entr{'y' if missing == 1 else 'ies'} not found on the page")
    about = "".join(f"<p><b>{label}</b> {html.escape(value)}</p>" for label, value in (
        ("truth file", text_name(str(truth.path))), ("document", text_name(truth.document)),
        ("sha256", truth.sha256), ("checked", truth.checked),
        ("conventions", truth.conventions)) if value)
    pages = " ".join(f'<a href="#page-{p.page}">{p.page}</a>' for p in truth.pages
                     if p.page in by_page)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>Truth review: {name}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            f'<header>\n<h1>Truth review: {name}</h1>\n{about}\n<p class="summary">'
            f"{html.escape(summary)}</p>\n<p>{_LEGEND}</p>\n<nav>Pages: {pages}</nav>\n"
            f"</header>\n{''.join(sections)}</body>\n</html>\n")


_LEGEND = ("Each number on a page stands where its line starts, in the truth's reading "
           "order: follow them down the columns. "
           '<span class="mark sample">1</span> body line, '
           '<span class="mark furniture sample">F1</span> furniture, '
           '<span class="flag">≈</span> found after editing or as part of a line, '
           '<span class="flag">not found</span> not on the page as read today.')

_STYLE = """
body { font: 14px/1.35 system-ui, sans-serif; margin: 0 1em 3em; color: #222; }
header p { margin: .2em 0; word-break: break-all; }
h2 { border-top: 2px solid #888; padding-top: .5em; margin-top: 2em; }
.sheet { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1.5em;
         align-items: start; }
.picture { position: sticky; top: 0; margin: 0; }
.frame { position: relative; border: 1px solid #999; line-height: 0; }
.frame img { width: 100%; height: auto; display: block; }
.box { position: absolute; border: 1px solid rgba(30, 100, 220, .55); box-sizing: border-box;
       background: rgba(30, 100, 220, .06); }
.box.furniture { border-color: rgba(120, 120, 120, .7); background: rgba(0, 0, 0, .08); }
.box.edited, .box.part { border-style: dashed; }
.mark { position: absolute; transform: translate(-100%, -15%); font: bold 11px/1.2 sans-serif;
        color: #fff; background: rgba(200, 20, 20, .9); padding: 0 3px; border-radius: 3px;
        text-decoration: none; white-space: nowrap; }
.mark.furniture { background: rgba(90, 90, 90, .9); }
.mark.sample { position: static; transform: none; display: inline-block; }
.mark:target, li:target { outline: 3px solid #fb0; }
ol { list-style: none; padding: 0; margin: 0; }
li { padding: 1px 4px; border-bottom: 1px solid #eee; }
li .no { display: inline-block; min-width: 2.6em; font-weight: bold; color: #b11;
         text-decoration: none; }
li.furniture { background: #eee; color: #555; }
li.furniture .no { color: #555; }
li.missing { background: #fde0e0; }
.tag { font-size: 11px; color: #fff; background: #2a7; border-radius: 3px; padding: 0 3px;
       margin-left: .4em; }
.flag { font-size: 11px; font-weight: bold; color: #b11; margin-left: .4em; }
.excluded li { color: #555; font-style: italic; }
h3 { font-size: 1em; margin: 1em 0 .3em; }
"""


def _section(page: PageTruth, picture: PagePicture, entries: Sequence[ReviewEntry]) -> str:
    """The HTML of one page: its heading, picture with marks and list of entries."""
    anchor = f"p{page.page}"
    marks = []
    for entry in entries:
        if entry.found is None:
            continue
        box, kind = entry.found.bbox, ("furniture" if entry.kind == "furniture" else "line")
        left, top = 100 * box.x0 / picture.width, 100 * box.top / picture.height
        wide = 100 * box.width / picture.width
        tall = 100 * box.height / picture.height
        marks.append(f'<span class="box {kind} {entry.found.how}" style="left:{left:.3f}%;'
                     f'top:{top:.3f}%;width:{wide:.3f}%;height:{tall:.3f}%"></span>'
                     f'<a class="mark {kind}" id="{anchor}-m{entry.label}" '
                     f'href="#{anchor}-l{entry.label}" style="left:{left:.3f}%;top:{top:.3f}%">'
                     f"{entry.label}</a>")
    width, height = picture.pixels
    image = (f'<figure class="picture"><div class="frame"><img src="{picture.image}" '
             f'width="{width}" height="{height}" alt="page {page.page}">{"".join(marks)}'
             f"</div></figure>")
    body = [entry for entry in entries if entry.kind != "furniture"]
    furniture = [entry for entry in entries if entry.kind == "furniture"]
    what = ("Lines in reading order" if page.ordered else
            "Labelled for line types alone: the lines its types name")
    parts = [f'<h3>{what} ({len(body)})</h3><ol class="entries">',
             *(_entry(anchor, entry) for entry in body), "</ol>"]
    if page.ordered:
        parts += [f'<h3>Furniture ({len(furniture)})</h3><ol class="entries">',
                  *(_entry(anchor, entry) for entry in furniture), "</ol>"]
    if page.excluded:
        parts += ['<h3>Excluded</h3><ul class="excluded">',
                  *(f"<li>{html.escape(e.what)}: {html.escape(e.why)}</li>"
                    for e in page.excluded), "</ul>"]
    notes = "".join(f"<p><b>{label}</b> {html.escape(value)}</p>" for label, value in
                    (("checked", page.checked), ("conventions", page.conventions)) if value)
    return (f'<section class="page" id="page-{page.page}">\n<h2>Page {page.page}</h2>\n{notes}\n'
            f'<div class="sheet">\n{image}\n<div class="list">{"".join(parts)}</div>\n'
            f"</div>\n</section>\n")


def _entry(anchor: str, entry: ReviewEntry) -> str:
    """One entry of a page's list: its number (a link to its mark on the picture,
    when it has one), text, types and flag."""
    classes = [entry.kind] + (["missing"] if entry.found is None else [])
    number = (f'<a class="no" href="#{anchor}-m{entry.label}">{entry.label}</a>'
              if entry.found is not None else f'<span class="no">{entry.label}</span>')
    tags = "".join(f'<span class="tag">{tag}</span>' for tag in entry.tags)
    flag = ('<span class="flag">not found</span>' if entry.found is None else
            "" if entry.found.how == "same" else
            f'<span class="flag" title="found {entry.found.how}">≈</span>')
    return (f'<li class="{" ".join(classes)}" id="{anchor}-l{entry.label}">{number}'
            f"{html.escape(entry.text)}{tags}{flag}</li>")


def review_truth(path: Path, config: LayoutConfig, *, profile: Profile | None = None,
                 engine: str | None = None, dpi: int = 100) -> str:
    """The review page of the truth file at ``path``: the truth is read and checked
    against its document (which must be the file it was made for, with every page
    it labels), the labelled pages read afresh with ``config`` (and ``profile``) and
    rendered at ``dpi``.  Raises UsageError, in one line naming the truth file, for
    a truth that does not match the schema or its document."""
    from ..outputs.pictures import data_uri, page_png
    from ..pipeline import parse
    from ..sources import DEFAULT_ENGINE
    from .truth import read_truth

    truth = read_truth(path, engine, config.sources.image_dpi)
    engine = engine or DEFAULT_ENGINE
    numbers = [p.page for p in truth.pages]
    document = parse(truth.source, config, numbers, engine=engine, profile=profile, typed=False)
    pictures = []
    for page in document.pages:
        image, _ = page_png(truth.source, page.page_no, dpi, image_dpi=config.sources.image_dpi)
        lines = tuple((line.text, line.bbox) for line in page.lines)
        pictures.append(PagePicture(page.page_no, data_uri(image, colours=_COLOURS),
                                    image.size, page.width, page.height, lines))
    return review_html(truth, pictures)
