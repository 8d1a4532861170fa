"""A two-column paper's marked-up outputs, as a user of a retrieval pipeline reads them.

The paper is held out of reading-order tuning (fixtures/heldout: an ACM paper set in
Linux Libertine, with a figure whose turned labels stand on its edge, footnotes, links
and an outline): chunks, figures with captions, bold and italic, links and
``parse --toc`` against what the PDF itself says.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest
from parsed import parsed
from PIL import Image

import layoutkit
from layoutkit.cli import main
from layoutkit.config import LayoutConfig
from layoutkit.model import Document
from layoutkit.outputs.figures import FigureKind, document_figures

PAPER = (Path(__file__).resolve().parent.parent / "fixtures" / "heldout"
         / "arxiv-2023-beyond-summarization-acm.pdf")
CAPTION = "Figure 1: Dissecting an expository writing piece."


@pytest.fixture(scope="module")
def document() -> Document:
    return parsed(PAPER)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The paper's Markdown with its figures written beside it."""
    out = tmp_path_factory.mktemp("paper") / "paper.md"
    assert main(["markdown", str(PAPER), "-o", str(out), "--images",
                 str(out.parent / "figs")]) == 0
    return out.read_text(encoding="utf-8"), out.parent / "figs"


def test_paper_chunks_cover_every_body_line_once(document: Document) -> None:
    """Every line that is no running header or footer is in exactly one chunk, none
    over 200 tokens, each with a heading path (the abstract's chunk under the
    title's) and a box for each line."""
    found = layoutkit.chunks(document, max_tokens=200)
    body = Counter((page.page_no, k) for page in document.pages
                   for k, line in enumerate(page.lines)
                   if not line.furniture and line.text.strip())
    assert Counter((p.line.page_no, p.index) for c in found for p in c.lines) == body
    assert max(c.tokens for c in found) <= 200
    assert all(c.headings for c in found[1:])
    assert all(p.line.bbox.width > 0 and p.line.bbox.height > 0
               for c in found for p in c.lines)


def test_paper_figure_written_and_linked_to_its_caption(written: tuple[str, Path],
                                                        document: Document) -> None:
    """The one figure (a drawing on page 2) is written as a picture of its box, its
    caption linked to it, and the labels turned on its edge are the figure's: in no
    paragraph.  The paragraph that runs on across the figure, from page 1 to page 2, is
    one block, the figure after it."""
    text, images = written
    figures = document_figures(document, LayoutConfig().linetypes)
    assert [(f.page_no, f.kind, f.caption.startswith(CAPTION)) for f in figures] == [
        (2, FigureKind.DRAWING, True)]
    box = figures[0].bbox
    assert box.x0 < 122.5 and box.x1 > 489.5  # the turned labels on its two edges
    assert [p.name for p in images.iterdir()] == ["p2-fig1.png"]
    with Image.open(images / "p2-fig1.png") as picture:
        assert picture.size[0] > picture.size[1] > 0
    blocks = text.split("\n\n")
    assert any(b.startswith(f"![{CAPTION}") and b.endswith("(figs/p2-fig1.png)")
               for b in blocks)
    assert "Evidence-Based" not in text and "Knowledge-Generation" not in text
    run_on = [k for k, b in enumerate(blocks) if "Many realistic expository writing" in b]
    assert len(run_on) == 1
    assert "Many realistic expository writing tasks require domain experts" in blocks[run_on[0]]
    assert blocks[run_on[0] + 1].startswith(f"![{CAPTION}")  # floats after the paragraph


def test_paper_footnotes_apart_links_kept(written: tuple[str, Path]) -> None:
    """The four footnotes are footnote elements, in no paragraph, their calls in the
    text superscripts (set at 0.81 of the text's size, raised by half their own); their
    web addresses are links."""
    text, _ = written
    assert "composition,<sup>3</sup> personal knowledge management,<sup>4</sup> and so on" \
        in text.replace("\n", " ")
    notes = re.findall(r"^\[\^(\d)\]: (.*)$", text, flags=re.MULTILINE)
    assert [n for n, _ in notes] == ["1", "2", "3", "4"]
    assert notes[0][1].startswith("In the remainder of this work")
    body = [b for b in text.split("\n\n") if not b.startswith("[^")]
    assert not any("In the remainder of this work" in b for b in body)
    assert "[https://platform.openai.com/examples](https://platform.openai.com/examples)" \
        in text


def test_paper_bold_and_italic_marked(written: tuple[str, Path]) -> None:
    """Bold words (Linux Libertine's ``TB``) and italic ones (its ``TI``) are marked;
    a compound set in italics and broken nowhere keeps its hyphen and no space."""
    text, _ = written
    assert "**sensemaking**" in text
    assert "*evidence-driven* and *knowledge-generating*" in text
    assert "real- world" not in text and "evidence- driven" not in text


def test_paper_toc_is_the_outline(tmp_path: Path) -> None:
    """``parse --toc`` gives the PDF's bookmarks: titles, levels and pages."""
    out = tmp_path / "paper.json"
    assert main(["parse", "--toc", str(PAPER), "-o", str(out)]) == 0
    toc = json.loads(out.with_suffix(".toc.json").read_text(encoding="utf-8"))
    pdf = pdfium.PdfDocument(PAPER)
    try:
        outline = [(b.get_title(), b.level + 1, b.get_dest().get_index() + 1)
                   for b in pdf.get_toc()]
    finally:
        pdf.close()
    assert toc["source"] == "outline"
    assert [(h["text"], h["level"], h["page"]) for h in toc["headings"]] == outline
    assert len(outline) == 6
