"""The HTML report of `layoutkit evaluate --html`: one self-contained page.

Its images are embedded as data URIs, with no script and nothing fetched.  It shows the
scores and, for each failing page, its image with the breaks of the truth's order drawn
on it:

- a break is numbered; on the image its line `a` is framed and a mark with its number
  stands at the line's end;
- an arrow runs from there to the line that came instead (the next scored truth line in
  the output, or else the output line right after `a`);
- the line expected instead is framed with a dashed line.

Lines are found on the page by matching reduced text to the parse's lines
(`evaluate.line_starts`), the same positions the order score is computed from.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..files import text_name
from ..model import BBox, Page
from ..outputs.pictures import data_uri, page_png
from .evaluate import OrderBreak, PageScore, line_index, line_starts
from .evaluation import DocumentEvaluation, Evaluation, PageEvaluation, break_text, share_text

__all__ = ["REPORT_DPI", "break_boxes", "html_report"]

REPORT_DPI = 80
"""The resolution of the page images of the report."""

_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.failed { color: #b00020; font-weight: bold; }
section.page { margin: 2em 0; border-top: 2px solid #888; padding-top: 0.5em; }
.sheet { position: relative; display: inline-block; border: 1px solid #aaa; }
.sheet img { display: block; max-width: 100%; }
.sheet svg { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
.a { fill: none; stroke: #d32f2f; stroke-width: 1.2; }
.expected { fill: none; stroke: #1976d2; stroke-width: 1.2; stroke-dasharray: 3 2; }
.arrow { stroke: #d32f2f; stroke-width: 1.4; }
.mark circle { fill: #d32f2f; }
.mark text { fill: white; font: bold 7px sans-serif; text-anchor: middle; }
ol.breaks li, ul.missing li { margin: 0.2em 0; }
"""


def break_boxes(page: Page, item: OrderBreak) -> tuple[BBox | None, BBox | None, BBox | None]:
    """Return the boxes on ``page`` (points, top-left origin) of a break's line ``a``,
    of the line that came instead and of the line expected, each None when it has no
    place in the output (the body lines the order score was computed on)."""
    lines = page.body_lines
    starts = line_starts([line.text for line in lines])

    def box(first: int | None, last: int | None) -> BBox | None:
        if first is None:
            return None
        a, b = line_index(starts, first), line_index(starts, max(first, last or first))
        return None if a is None or b is None else BBox.union(x.bbox for x in lines[a:b + 1])

    after = (None if item.after_at is None or item.end_at is None
             else box(item.after_at, item.end_at - 1))
    came = item.instead_at if item.instead is not None else item.end_at
    expected = None
    if item.expected_at is not None:
        expected = box(item.expected_at, item.expected_at)
    return after, box(came, came), expected


def _svg(page: Page, breaks: Sequence[OrderBreak], size: tuple[float, float], key: str) -> str:
    """The SVG drawn over a page image of ``size`` points: each break's frames, arrow
    and numbered mark."""
    width, height = size
    parts = [f'<svg viewBox="0 0 {width:.1f} {height:.1f}" xmlns="http://www.w3.org/2000/svg">'
             f'<defs><marker id="head-{key}" viewBox="0 0 10 10" refX="9" refY="5" '
             f'markerWidth="6" markerHeight="6" orient="auto-start-reverse">'
             f'<path d="M0,0 L10,5 L0,10 z" fill="#d32f2f"/></marker></defs>']
    for number, item in enumerate(breaks, 1):
        after, came, expected = break_boxes(page, item)
        if after is None:
            continue
        group = [f'<g class="break" data-break="{number}">',
                 _rect(after, "a")]
        if expected is not None:
            group.append(_rect(expected, "expected"))
        x, y = after.x1 + 5, (after.top + after.bottom) / 2
        if came is not None:
            group.append(f'<line class="arrow" x1="{x:.1f}" y1="{y:.1f}" '
                         f'x2="{came.x0 - 1:.1f}" y2="{(came.top + came.bottom) / 2:.1f}" '
                         f'marker-end="url(#head-{key})"/>')
        group.append(f'<g class="mark"><circle cx="{x:.1f}" cy="{y:.1f}" r="5"/>'
                     f'<text x="{x:.1f}" y="{y + 2.5:.1f}">{number}</text></g></g>')
        parts.extend(group)
    parts.append("</svg>")
    return "".join(parts)


def _rect(box: BBox, kind: str) -> str:
    return (f'<rect class="{kind}" x="{box.x0 - 1:.1f}" y="{box.top - 1:.1f}" '
            f'width="{box.width + 2:.1f}" height="{box.height + 2:.1f}"/>')


def _score_cells(score: PageScore) -> str:
    return "".join(f"<td>{share_text(value, hits, total)}</td>"
                   for value, hits, total in ((score.found, score.found_lines, score.lines),
                                              (score.order, score.ordered_pairs, score.pairs),
                                              (score.leak, score.leaked, score.furniture)))


def _page_section(evaluation: Evaluation, doc: DocumentEvaluation, page: PageEvaluation,
                  key: str, dpi: int) -> str:
    """One failing page: its scores, missing lines, image with the breaks, and the
    breaks listed with their numbers."""
    parsed = next(p for p in doc.document.pages if p.page_no == page.page)
    image, scale = page_png(doc.truth.source, page.page, dpi)
    missed = [] if page.score is None else evaluation.bounds.misses(page.score)
    out = [f'<section class="page" id="{key}"><h2>{escape(text_name(doc.truth.path.name))}, '
           f'page {page.page}</h2>']
    if page.score is not None:
        out.append("<table><tr><th></th><th>found</th><th>order</th><th>leak</th></tr>"
                   f"<tr><td>page {page.page}</td>{_score_cells(page.score)}</tr></table>")
    if missed:
        out.append(f'<p class="failed">{escape(", ".join(missed))}</p>')
    if page.missing:
        out.append("<p>Truth lines missing from the output:</p><ul class=\"missing\">"
                   + "".join(f"<li>{escape(line)}</li>" for line in page.missing) + "</ul>")
    out.append(f'<div class="sheet"><img class="page-image" alt="page {page.page}" '
               f'src="{data_uri(image)}" width="{image.width}" height="{image.height}">'
               f'{_svg(parsed, page.breaks, (image.width / scale, image.height / scale), key)}'
               f"</div>")
    if page.breaks:
        out.append('<ol class="breaks">' + "".join(
            f"<li>{escape(break_text(item))}</li>" for item in page.breaks) + "</ol>")
    out.append("</section>")
    return "".join(out)


def html_report(evaluation: Evaluation, dpi: int = REPORT_DPI) -> str:
    """Return the HTML report of ``evaluation``: the pooled and per-document scores,
    the bounds missed, and each page `Evaluation.shown` picks with its image
    rendered at ``dpi`` and its order breaks drawn on it."""
    rows = "".join(f"<tr><td>{escape(text_name(str(doc.truth.path)))}</td>"
                   f"{_score_cells(doc.score)}</tr>" for doc in evaluation.documents)
    out = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
           "<title>layoutkit evaluation</title>"
           f"<style>{_STYLE}</style></head><body><h1>layoutkit evaluation</h1>",
           "<table><tr><th>truth</th><th>found</th><th>order</th><th>leak</th></tr>"
           f"{rows}<tr><th>pooled</th>{_score_cells(evaluation.score)}</tr></table>"]
    out.extend(f'<p class="failed">FAILED {escape(failure)}</p>'
               for failure in evaluation.failures)
    shown = 0
    for d, doc in enumerate(evaluation.documents):
        for page in doc.pages:
            if evaluation.shown(page):
                shown += 1
                out.append(_page_section(evaluation, doc, page, f"d{d}-p{page.page}", dpi))
    if not shown:
        out.append("<p>No page to show: every page keeps its bounds.</p>")
    out.append("</body></html>\n")
    return "".join(out)
