"""Figures found, linked to their captions, placed in the reading and written as PNGs
(`layoutkit.outputs.figures`, ``--images DIR`` of ``markdown``, ``html`` and ``parse``).

A generated two-column document of two pages whose every figure's box, pixels and
caption are known (a raster picture with its caption under it, a vector drawing with
its caption over it, a ruled table under its ``Table 1.`` caption), and a real
two-column paper with figures."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from layoutkit import parse
from layoutkit.cli import main
from layoutkit.config import LayoutConfig
from layoutkit.model import LineType
from layoutkit.model.codec import json_schema
from layoutkit.outputs.figures import FIGURE_DPI, FigureKind, captions, document_figures
from layoutkit.outputs.html import html_document
from layoutkit.outputs.markdown import markdown

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
PAPER = FIXTURES / "corpus" / "appl-phys-lett-2011-spin-polarized-tip.pdf"
WIDTH, HEIGHT = 612.0, 792.0
LEFT, RIGHT = (54.0, 288.0), (324.0, 558.0)
PIXELS = (240, 160)
"""The raster picture's own size, in pixels."""
RASTER = (54.0, 200.0, 234.0, 320.0)
"""Boxes in points from the page's top-left corner: the picture (page 1, left)..."""
DRAWING = (324.0, 215.0, 504.0, 335.0)
"""... the drawing (page 1, right) ..."""
TABLE = (54.0, 165.0, 264.0, 229.0)
"""... and the ruled table (page 2, left)."""
CAPTIONS = {1: "Figure 1: A raster picture of random noise.",
            2: "Figure 2: A vector drawing of circles and lines.",
            3: "Table 1. Results of the three runs."}
WORDS = ["reader", "column", "figure", "caption", "picture", "drawing", "table", "text",
         "page", "line", "order", "place", "measure", "result", "study", "method", "value",
         "sample", "report", "window", "river", "stone", "garden", "market", "letter",
         "number"]


def _sentences(name: str, count: int) -> list[str]:
    """``count`` lines of a paragraph called ``name``, each its own sentence as wide as
    the column allows (the last line shorter, as a paragraph's last line is)."""
    lines = []
    for k in range(count):
        words = [f"{name.capitalize()} line {k + 1} tells of the"]
        for j in range(12):
            longer = [*words, WORDS[(k * 7 + j * 3 + len(name)) % len(WORDS)]]
            if stringWidth(" ".join(longer) + ".", "Times-Roman", 10) > LEFT[1] - LEFT[0]:
                break
            words = longer
        lines.append(" ".join(words) + ".")
    lines[-1] = lines[-1].split(" of the ")[0] + "."
    return lines


def _text(canvas: Canvas, column: tuple[float, float], top: float, lines: list[str],
          size: float = 10.0, font: str = "Times-Roman") -> float:
    """``lines`` set from ``top`` (points from the page's top) down ``column``; returns
    where the next line would stand."""
    canvas.setFont(font, size)
    for line in lines:
        canvas.drawString(column[0], HEIGHT - top - size, line)
        top += size * 1.2
    return top


PARAGRAPHS = {name: _sentences(name, count) for name, count in
              (("alpha", 8), ("bravo", 22), ("charlie", 8), ("delta", 22),
               ("echo", 6), ("foxtrot", 30), ("golf", 36))}


def _document(path: Path) -> Path:
    """The generated document: page 1 a title over two columns, the picture in the
    left one with its caption under it, the drawing in the right one with its caption
    over it; page 2 the ruled table under its caption in the left column."""
    rng = np.random.default_rng(7)
    noise = Image.fromarray(rng.integers(0, 255, (PIXELS[1], PIXELS[0], 3), dtype=np.uint8))
    canvas = Canvas(str(path), pagesize=(WIDTH, HEIGHT))
    canvas.setFont("Helvetica-Bold", 16)
    canvas.drawString(LEFT[0], HEIGHT - 60, "Figures In The Reading Order")
    _text(canvas, LEFT, 90, PARAGRAPHS["alpha"])
    x0, top, x1, bottom = RASTER
    canvas.drawImage(ImageReader(noise), x0, HEIGHT - bottom, x1 - x0, bottom - top)
    _text(canvas, LEFT, 330, [CAPTIONS[1]], size=9)
    _text(canvas, LEFT, 352, PARAGRAPHS["bravo"])
    _text(canvas, RIGHT, 90, PARAGRAPHS["charlie"])
    _text(canvas, RIGHT, 196, [CAPTIONS[2]], size=9)
    x0, top, x1, bottom = DRAWING
    canvas.setLineWidth(0.5)
    canvas.rect(x0, HEIGHT - bottom, x1 - x0, bottom - top)
    for k in range(4):
        canvas.circle(x0 + 30 + 40 * k, HEIGHT - top - 60, 15 + 3 * k, fill=k % 2)
    canvas.line(x0 + 10, HEIGHT - bottom + 10, x1 - 10, HEIGHT - top - 10)
    canvas.line(x0 + 10, HEIGHT - top - 10, x1 - 10, HEIGHT - bottom + 10)
    _text(canvas, RIGHT, 352, PARAGRAPHS["delta"])
    canvas.showPage()
    _text(canvas, LEFT, 72, PARAGRAPHS["echo"])
    _text(canvas, LEFT, 148, [CAPTIONS[3]], size=9)
    x0, top, x1, bottom = TABLE
    rows = [("Run", "Time", "Score"), ("First", "12.5", "0.91"), ("Second", "11.2", "0.88"),
            ("Third", "13.0", "0.95")]
    xs = [x0, x0 + 70, x0 + 140, x1]
    ys = [top + 16 * k for k in range(5)]
    canvas.setLineWidth(0.5)
    canvas.grid(xs, [HEIGHT - y for y in ys])
    canvas.setFont("Times-Roman", 10)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            canvas.drawString(xs[c] + 4, HEIGHT - ys[r] - 12, cell)
    _text(canvas, LEFT, 245, PARAGRAPHS["foxtrot"])
    _text(canvas, RIGHT, 72, PARAGRAPHS["golf"])
    canvas.showPage()
    canvas.save()
    return path


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _document(tmp_path_factory.mktemp("figures") / "figures.pdf")


def _near(box: list[float], truth: tuple[float, ...], tolerance: float = 1.5) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(box, truth, strict=True))


def test_figures_found_with_their_boxes_kinds_and_captions(generated: Path) -> None:
    """Every figure of the generated document is found, once, with its box, its kind
    and its caption's exact text, numbered on its page in reading order."""
    figures = document_figures(parse(generated))
    found = [(f.page_no, f.index, f.kind, f.caption) for f in figures]
    assert found == [(1, 1, FigureKind.IMAGE, CAPTIONS[1]), (1, 2, FigureKind.DRAWING, CAPTIONS[2]),
                     (2, 1, FigureKind.TABLE, CAPTIONS[3])]
    for figure, truth in zip(figures, (RASTER, DRAWING, TABLE), strict=True):
        assert _near(figure.bbox.as_list(), truth), (figure.bbox, truth)


def test_figures_written_at_their_sizes_and_linked_in_place(generated: Path,
                                                            tmp_path: Path) -> None:
    """``markdown --images``: the picture is taken out at its own pixel size, the drawing
    and the table rendered from their boxes; each is linked with its caption between
    the paragraphs around it, and the captions are in no paragraph."""
    out = tmp_path / "out" / "doc.md"
    images = tmp_path / "out" / "figs"
    assert main(["markdown", str(generated), "-o", str(out), "--images", str(images)]) == 0
    assert sorted(p.name for p in images.iterdir()) == ["p1-fig1.png", "p1-fig2.png",
                                                       "p2-fig1.png"]
    with Image.open(images / "p1-fig1.png") as picture:
        assert picture.size == PIXELS
    for name, (x0, top, x1, bottom) in (("p1-fig2.png", DRAWING), ("p2-fig1.png", TABLE)):
        with Image.open(images / name) as picture:
            expected = ((x1 - x0) * FIGURE_DPI / 72, (bottom - top) * FIGURE_DPI / 72)
            assert all(abs(a - b) <= 4 for a, b in zip(picture.size, expected, strict=True)), \
                (name, picture.size, expected)
    text = out.read_text(encoding="utf-8")
    links = [f"![{CAPTIONS[1]}](figs/p1-fig1.png)", f"![{CAPTIONS[2]}](figs/p1-fig2.png)",
             f"![{CAPTIONS[3]}](figs/p2-fig1.png)"]
    blocks = text.split("\n\n")
    for link in links:
        assert link in blocks
    at = {name: text.index(PARAGRAPHS[name][0]) for name in PARAGRAPHS}
    spots = [text.index(link) for link in links]
    assert at["alpha"] < spots[0] < at["bravo"] < at["charlie"] < spots[1] < at["delta"]
    assert at["delta"] < at["echo"] < spots[2] < at["foxtrot"]
    for block in blocks:
        if not block.startswith("!["):
            assert not re.search(r"Figure \d:|Table 1\.", block), block


def test_captions_stand_where_figures_were_without_images(generated: Path) -> None:
    """Without ``images`` no file is written; the Markdown holds each caption alone in
    the figure's place, and the HTML a ``<figure>`` with its ``<figcaption>`` and no
    picture."""
    document = parse(generated)
    config = LayoutConfig().linetypes
    text = markdown(document, config)
    blocks = text.split("\n\n")
    for caption in CAPTIONS.values():
        assert f"*{caption}*" in blocks
    assert text.index(PARAGRAPHS["alpha"][0]) < text.index(CAPTIONS[1]) \
        < text.index(PARAGRAPHS["bravo"][0])
    page = html_document(document, config)
    figures = re.findall(r"<figure [^>]*>(.*?)</figure>", page)
    assert figures == [f"<figcaption>{caption}</figcaption>" for caption in CAPTIONS.values()]


def test_html_links_figures_with_their_captions(generated: Path, tmp_path: Path) -> None:
    """``html --images``: each ``<figure>`` holds its ``<img>`` and its caption."""
    out = tmp_path / "doc.html"
    assert main(["html", str(generated), "-o", str(out), "--images",
                 str(tmp_path / "figs")]) == 0
    page = out.read_text(encoding="utf-8")
    figures = re.findall(r'<figure [^>]*><img src="([^"]+)" alt="([^"]*)">'
                         r"<figcaption>([^<]*)</figcaption></figure>", page)
    assert figures == [("figs/p1-fig1.png", CAPTIONS[1], CAPTIONS[1]),
                       ("figs/p1-fig2.png", CAPTIONS[2], CAPTIONS[2]),
                       ("figs/p2-fig1.png", CAPTIONS[3], CAPTIONS[3])]


def test_parse_json_gives_each_page_its_figures(generated: Path, tmp_path: Path) -> None:
    """``parse --images``: each page holds its figures (box, kind, caption, file, the line
    it stands before), valid against the published schema."""
    out = tmp_path / "doc.json"
    assert main(["parse", str(generated), "-o", str(out), "--images",
                 str(tmp_path / "figs")]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(data, json_schema())
    first, second = data["pages"]
    assert [(f["index"], f["kind"], f["caption"], f["image"]) for f in first["figures"]] == [
        (1, "image", CAPTIONS[1], "figs/p1-fig1.png"),
        (2, "drawing", CAPTIONS[2], "figs/p1-fig2.png")]
    assert [(f["kind"], f["caption"]) for f in second["figures"]] == [("table", CAPTIONS[3])]
    assert _near(first["figures"][0]["bbox"], RASTER)
    lines = first["lines"]
    before = first["figures"][0]["before"]
    assert lines[before]["text"] == CAPTIONS[1]
    assert "figures" not in json.loads(
        _parsed_without_images(generated, tmp_path))["pages"][0]


def _parsed_without_images(path: Path, tmp_path: Path) -> str:
    out = tmp_path / "plain.json"
    assert main(["parse", str(path), "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def test_real_paper_figures_linked_to_their_captions(tmp_path: Path) -> None:
    """A two-column letter (Applied Physics Letters): its three figures (a pair of
    micrographs with an inset, panels with a magnified square, a pair of maps) are
    found, each as one figure the width of its column, linked to its caption and
    written; its text paragraphs hold no caption."""
    document = parse(PAPER)
    figures = document_figures(document)
    assert [(f.page_no, f.caption[:7]) for f in figures] == [(1, "FIG. 1."), (2, "FIG. 2."),
                                                              (3, "FIG. 3.")]
    assert figures[0].caption.endswith("Cr oxide present at the Cr surface.")
    for figure in figures:
        assert 230 <= figure.bbox.width <= 245 and figure.bbox.height >= 110
    out = tmp_path / "paper.md"
    assert main(["markdown", str(PAPER), "-o", str(out), "--images",
                 str(tmp_path / "figs")]) == 0
    blocks = out.read_text(encoding="utf-8").split("\n\n")
    pictures = [b for b in blocks if b.startswith("![")]
    assert [re.sub(r".*\]\((.*)\)", r"\1", b) for b in pictures] == [
        "figs/p1-fig1.png", "figs/p2-fig1.png", "figs/p3-fig1.png"]
    assert not any("FIG. " in b for b in blocks if not b.startswith("!["))


def test_real_paper_figures_and_tables_with_bold_labels() -> None:
    """A two-column journal paper (Clinical Science) whose captions open with a bold
    label and no stop (``Figure 4 Logarithmic...``, ``Table 4 Inhibitor-binding...``):
    pages 5-7 hold six figures and two tables, each found and linked to its own
    caption, the pictures as pictures and the ruled tables as tables."""
    document = parse(FIXTURES / "corpus" / "clinical-science-ace-inhibitors-2014.pdf",
                     pages="5-7")
    found = [(f.page_no, f.kind.value, " ".join(f.caption.split()[:2]))
             for f in document_figures(document)]
    assert found == [(5, "image", "Figure 2"), (5, "image", "Figure 3"),
                     (5, "image", "Figure 4"), (5, "table", "Table 4"),
                     (6, "image", "Figure 5"), (6, "table", "Table 5"),
                     (6, "image", "Figure 6"), (7, "image", "Figure 7")]


def _linked(path: Path, pages: str | None = None) -> list[tuple[int, str, str, list[int]]]:
    """The figures of the document at ``path`` (its ``pages``): page, kind, caption's
    label and box, rounded."""
    document = parse(path, pages=pages) if pages else parse(path)
    return [(f.page_no, f.kind.value, " ".join(f.caption.split()[:2]),
             [round(v) for v in f.bbox.as_list()]) for f in document_figures(document)]


def test_clipped_chart_parts_no_drawing_across_the_gutter() -> None:
    """A conference paper (IEEE DSN) whose page 10 places two charts from other PDFs,
    one a column: the bar chart's PDF paints a grey page behind it that its clip cuts
    to the placed box, so the line chart (Fig. 6, left) and the bar chart (Fig. 7,
    right) are two drawings, each linked to its own caption, and no drawn piece
    reaches the page's edge."""
    import pypdfium2 as pdfium

    from layoutkit.outputs.figures.drawn import page_pieces

    path = FIXTURES / "corpus" / "ieee-dsn-2011-zab-broadcast.pdf"
    assert _linked(path, "10") == [(10, "drawing", "Fig. 6.", [65, 427, 285, 581]),
                                   (10, "drawing", "Fig. 7.", [330, 399, 546, 546])]
    pdf = pdfium.PdfDocument(path)
    try:
        assert max(piece.box.x1 for piece in page_pieces(pdf[9])) < 560
    finally:
        pdf.close()


def test_tables_under_their_captions_and_between_two_captions() -> None:
    """A two-column paper (ACL) whose captions stand under their tables: page 8's
    wide Table 7 caption stands over Table 9 too, which goes to its own caption under
    it (as many captions linked as can be); Table 8, ruled across only (no grid),
    is found from its rows over its caption."""
    assert _linked(FIXTURES / "corpus" / "acl-2014-phrase-generation.pdf", "8") == [
        (8, "table", "Table 7:", [138, 62, 457, 136]),
        (8, "table", "Table 8:", [87, 176, 273, 263]),
        (8, "table", "Table 9:", [310, 176, 523, 261]),
        (8, "image", "Figure 1:", [335, 322, 498, 453])]


def test_algorithm_set_as_a_table_runs_to_the_body_prose() -> None:
    """A two-column paper (ICML) whose Table 4 is an algorithm set as a list, no rule
    nor row: it is the lines under its caption down to the column's prose (``ble 3
    shows...``, set in the text's size across the column), the list's and its
    formulas'."""
    document = parse(FIXTURES / "corpus" / "icml-2003-naive-bayes-poor-assumptions.pdf",
                     pages="7")
    figures = document_figures(document)
    assert [(f.kind.value, f.caption[:39], [round(v) for v in f.bbox.as_list()])
            for f in figures] == [
        ("table", "Table 3. Experiments comparing multinom", [70, 164, 275, 224]),
        ("table", "Table 4. Our new Naive Bayes procedure.", [317, 107, 541, 357])]


def test_charts_at_a_pages_top_keep_their_labels() -> None:
    """A four-page two-column paper (GRETSI) with charts at the top of pages 2 and 4:
    their tick labels (``20 10 0 10 20``, ``t (s)``), beyond the text block and alike
    on both pages, are the charts' labels, no running header, so Figure 4 holds its
    top row of charts; and Figure 5, whose chart is placed clipped, is linked to its
    caption."""
    document = parse(FIXTURES / "corpus" / "gretsi-2025-kravchuk-transform.pdf")
    assert not [line.text for page in document.pages for line in page.lines
                if line.line_type is LineType.HEADER]
    found = [(f.page_no, " ".join(f.caption.split()[:2]), [round(v) for v in f.bbox.as_list()])
             for f in document_figures(document)]
    assert found == [(2, "FIGURE 1", [43, 40, 291, 109]), (2, "FIGURE 2", [310, 41, 560, 106]),
                     (3, "FIGURE 3", [62, 43, 262, 153]), (4, "FIGURE 4", [46, 43, 549, 195]),
                     (4, "FIGURE 5", [44, 237, 292, 302])]


def test_caption_ends_where_the_text_after_it_begins() -> None:
    """A datasheet (Analog Devices) sets its captions in the text's size and block,
    the text going on right under them: a caption ends where a line starts left of
    it (``Figure 20.``, centred, over the ``Digital Interface`` heading) or stands
    farther under it than its own lines stand apart (``Figure 24.``'s two lines over
    the paragraph), so the paragraphs after them stay in the reading."""
    document = parse(FIXTURES / "corpus" / "analog-devices-ssm2163-datasheet-1996.pdf",
                     pages="10,12")
    found = {lines[0].text[:10]: [line.text for line in lines]
             for page in document.pages for lines in captions(page)}
    assert found["Figure 20."] == ["Figure 20. SSM2163 Analog Signal Path"]
    assert found["Figure 21."] == ["Figure 21. SSM2163 Serial Data Interface Block Diagram"]
    assert found["Figure 24."] == ["Figure 24. Use Separate Traces to Reduce Power Supply",
                                   "Noise"]
    assert found["Figure 25."] == ["Figure 25. An 8-Input, 2-Output Mixer"]


def test_charts_beside_a_turned_axis_title_taken_for_a_margin_stamp() -> None:
    """A datasheet's page of four charts (Analog Devices): the turned axis title of the
    left charts is read as a margin stamp, typed as furniture like a footer; it stands
    beside the text, not under it, so the lower charts are no furniture under the
    page's text and each of the four is linked to its caption."""
    path = FIXTURES / "corpus" / "analog-devices-ssm2163-datasheet-1996.pdf"
    assert _linked(path, "7") == [(7, "drawing", "Figure 4.", [85, 83, 289, 249]),
                                  (7, "drawing", "Figure 5.", [83, 300, 292, 467]),
                                  (7, "drawing", "Figure 6.", [350, 84, 544, 241]),
                                  (7, "drawing", "Figure 7.", [341, 300, 558, 471])]


def test_figure_framed_with_its_caption() -> None:
    """A paper's flow chart (BMC) is drawn in a rounded frame that holds its caption
    too: the frame is neither the chart's nor a figure under the caption, so the chart
    stops over its caption and is linked to it."""
    path = FIXTURES / "corpus" / "bmc-health-services-malawi-2014.pdf"
    assert _linked(path, "7") == [(7, "drawing", "Figure 1", [56, 90, 291, 238])]


@pytest.mark.parametrize(("name", "pages", "expected"), [
    ("uit-typst-thesis-template-sample-2025", "2",  # each caption under its table's rows
     [(2, "table", "Table 3.1", [198, 206, 431, 314]),
      (2, "table", "Table 3.2", [168, 408, 461, 538])]),
    ("utwente-typst-slides-template-example", "3",  # two captions side by side
     [(3, "table", "Table 1:", [61, 191, 388, 295]),
      (3, "table", "Table 2:", [468, 211, 767, 295])]),
    ("kaganguner-diabetes-classification-makale", "3",  # Turkish labels
     [(3, "image", "Şekil 10.Karar", [70, 227, 525, 462]),
      (3, "table", "Tablo 3.Performans", [36, 537, 545, 662])]),
])
def test_captions_under_rows_beside_each_other_and_in_other_languages(
        name: str, pages: str, expected: list[tuple[int, str, str, list[int]]]) -> None:
    """Mined tagged documents: a caption right under its table's last row, or beside
    another caption on the same row, opens a caption as one after a sentence does; a
    Turkish caption is labelled ``Şekil`` or ``Tablo`` (`layoutkit.model.captions.
    FIGURE_NAMES`, `TABLE_NAMES`)."""
    assert _linked(FIXTURES / "tagged" / f"{name}.pdf", pages) == expected


@pytest.mark.parametrize(("name", "expected", "kept"), [
    ("serverless-dataflows-ieee-abstract-p11",
     [(1, "image", "Fig. 6:", [49, 51, 300, 211]), (1, "image", "Fig. 7:", [49, 349, 300, 558]),
      (1, "image", "Fig. 8:", [312, 146, 563, 397]), (1, "image", "Fig. 9:", [312, 447, 563, 699])],
     "Figure 7 highlights the effect of both our scheduling approach"),
    ("dola-t5-arxiv-p5",
     [(1, "image", "Figure 4:", [57, 57, 298, 164]), (1, "image", "Figure 5:", [306, 57, 547, 302]),
      (1, "table", "Table 2:", [321, 564, 523, 616])],
     "**Keyword Constraints** In contrast, keyword-insertion tasks often show the opposite"),
])
def test_pictures_in_two_columns_are_two_figures_and_no_paragraph_is_lost(
        name: str, expected: list[tuple[int, str, str, list[int]]], kept: str) -> None:
    """Pictures set in two columns a gutter apart, a paragraph under one of them, are
    each a figure of their own with their captions: not one figure across both columns
    whose box would take the paragraph out of the reading."""
    path = FIXTURES / "figures" / f"{name}.pdf"
    assert _linked(path) == expected
    assert kept in " ".join(markdown(parse(path), LayoutConfig().linetypes).split())
