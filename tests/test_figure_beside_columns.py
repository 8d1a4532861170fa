"""Reading order of a page where a photograph with a short caption under it stands beside
two justified columns of text, under a display title (an annual report's letter opening).

The page is drawn here with reportlab, so its truth is exact: the title; the caption,
read where it stands as the leftmost column; the salutation over both columns; the left
column, then the right one.  The caption has three lines, fewer than a gutter needs beside
it (``gutter_min_lines``); the picture over it fills its column all the same."""

from __future__ import annotations

import random
from io import BytesIO
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.config import LayoutConfig
from layoutkit.geometry.gutters import prepare
from layoutkit.model import BBox, Word

CONFIG = LayoutConfig().gutters

WIDTH, HEIGHT = 842.0, 595.0  # landscape A4
PICTURE = (48.0, 176.0, 288.0, 493.0)  # x0, top, x1, bottom
COLUMNS = ((301.0, 536.0), (554.0, 793.0))
BODY = ("Helvetica", 10.0, 13.5)  # font, size, line pitch
COLUMN_LINES = 22

TITLE = "Letter from the Chair of the Board"
CAPTION = ["Jane Example", "Chair of the Board of Management", "of Example Holdings plc"]
SALUTATION = "Dear shareholders, dear friends of the company,"

_VOCAB_TEXT = """year market growth vehicle sales result dividend board share customer brand
strategy network service electric charging growth quarter profit capital invest region
product factory partner future team digital software energy supply demand margin cost
revenue plant battery design retail launch model record solid strong steady global"""
_VOCAB = tuple(_VOCAB_TEXT.split())

_Line = tuple[str, float, float, float, float, float]
"""A line to draw: its text, font size, x, baseline (from the top), word space, bold."""


def _justified(x0: float, x1: float, top: float, count: int, seed: int) -> list[_Line]:
    """``count`` lines of words justified between ``x0`` and ``x1`` (the last ragged),
    the first line's baseline at ``top``; every line different."""
    font, size, pitch = BODY
    rng = random.Random(seed)
    lines: list[_Line] = []
    for k in range(count):
        words: list[str] = []
        while True:
            word = f"{rng.choice(_VOCAB)}{rng.randint(1, 99)}"
            if stringWidth(" ".join([*words, word]), font, size) > x1 - x0:
                break
            words.append(word)
        text = " ".join(words)
        gaps = len(words) - 1
        extra = (x1 - x0 - stringWidth(text, font, size)) / gaps \
            if k < count - 1 and gaps else 0.0
        lines.append((text, size, x0, top + k * pitch, extra, 0.0))
    return lines


def letter_page() -> tuple[list[_Line], list[str]]:
    """The page's lines in reading order and their texts (the truth)."""
    title: _Line = (TITLE, 30.0, 48.0, 135.0, 0.0, 0.0)
    caption: list[_Line] = [(text, 8.0, 60.0, 512.0 + 13.0 * k, 0.0, 1.0 if k == 0 else 0.0)
                            for k, text in enumerate(CAPTION)]
    salutation: _Line = (SALUTATION, 12.0, COLUMNS[0][0], 189.0, 0.0, 1.0)
    left = _justified(*COLUMNS[0], 230.0, COLUMN_LINES, 1)
    right = _justified(*COLUMNS[1], 230.0, COLUMN_LINES, 2)
    lines = [title, *caption, salutation, *left, *right]
    texts = [line[0] for line in lines]
    assert len(set(texts)) == len(texts), "the test page repeats a line"
    return lines, texts


def draw(path: Path, lines: list[_Line], *, reverse: bool) -> None:
    """The page written to ``path``: the picture, then the lines, in reading order or
    (``reverse``) from the last line to the first."""
    buffer = BytesIO()
    photo = Image.new("RGB", (48, 64), (40, 40, 48))
    photo.paste((180, 150, 130), (14, 10, 34, 40))
    canvas = Canvas(buffer, pagesize=(WIDTH, HEIGHT), invariant=1, pageCompression=0)
    x0, top, x1, bottom = PICTURE
    canvas.drawImage(ImageReader(photo), x0, HEIGHT - bottom, width=x1 - x0, height=bottom - top)
    for text, size, x, baseline, word_space, bold in (lines[::-1] if reverse else lines):
        line = canvas.beginText(x, HEIGHT - baseline)
        line.setFont("Helvetica-Bold" if bold else "Helvetica", size)
        line.setWordSpace(word_space)
        line.textLine(text)
        canvas.drawText(line)
    canvas.showPage()
    canvas.save()
    path.write_bytes(buffer.getvalue())


@pytest.mark.parametrize("reverse", [False, True], ids=["drawn-in-order", "drawn-backwards"])
def test_picture_and_short_caption_beside_two_columns_read_column_by_column(
        tmp_path: Path, reverse: bool) -> None:
    """The page reads exactly as its truth, drawn in reading order or backwards: the
    caption after the title, then the salutation, then the left column whole and the
    right column whole, where the two columns were read row by row across (the strip
    beside the three-line caption refused as a gutter, the picture blocking every cut
    under the salutation)."""
    lines, truth = letter_page()
    path = tmp_path / "letter.pdf"
    draw(path, lines, reverse=reverse)
    page = layoutkit.parse(path, typed=False)[0]
    assert page.text().splitlines() == truth


def test_picture_stands_in_a_column_only_against_the_strip() -> None:
    """On the page's canvas the picture stands against the strip between it and the
    letter (its right edge is the strip's left edge) and counts the lines its height
    holds: with its three caption lines it is a column of ``gutter_min_lines`` and more,
    which the caption alone is not.  Against the letter's own gutter, a column's width
    further right, it stands nowhere."""
    lines, _ = letter_page()
    words = [Word(text, BBox(x, baseline - size, x + stringWidth(text, "Helvetica", size),
                             baseline), "Helvetica", size)
             for text, size, x, baseline, _, _ in lines]
    canvas = prepare(words, [], [BBox(*PICTURE)], WIDTH, HEIGHT, CONFIG).canvas
    x0, top, x1, bottom = PICTURE
    left, right = canvas.against(x1, COLUMNS[0][0], top, bottom)
    assert left.tolist() == [[x0, top, x1, bottom]] and not len(right)
    assert not any(len(side) for side in canvas.against(*COLUMNS[0][1:], *COLUMNS[1][:1],
                                                          top, bottom))
    caption = np.array([k for k, w in enumerate(words) if w.text in CAPTION])
    assert canvas.picture_lines(left) == int((bottom - top)
                                             // (CONFIG.line_pitch_em * canvas.size))
    assert canvas.is_column(caption, CONFIG.gutter_min_lines, left)
    assert not canvas.is_column(caption, CONFIG.gutter_min_lines)


def test_picture_clear_of_the_strip_covers_a_column_but_makes_no_lines() -> None:
    """A picture in a column, clear of the strip beside it, covers the column's height
    as lines do: six lines over it and two under it stand as a column with it, not
    without it; three lines with it are still too few for a column."""
    words = [Word(f"line{k} of the notice", BBox(300.0, top, 400.0, top + 10.0), "Helvetica",
                  10.0) for k, top in enumerate([100.0, 112.0, 124.0, 136.0, 148.0, 160.0,
                                                 600.0, 612.0])]
    photo = BBox(310.0, 175.0, 390.0, 590.0)
    canvas = prepare(words, [], [photo], WIDTH, 842.0, CONFIG).canvas
    every, three = np.arange(len(words)), np.array([0, 1, 7])
    fill = np.array([[photo.x0, photo.top, photo.x1, photo.bottom]])
    assert not canvas.is_column(every, CONFIG.gutter_min_lines)
    assert canvas.is_column(every, CONFIG.gutter_min_lines, fill=fill)
    assert not canvas.is_column(three, CONFIG.gutter_min_lines, fill=fill)


SIDEBAR = (60.0, 190.0)  # x0, x1 of a shaded sidebar's text, centred
NOTICE = (230.0, 540.0)  # a boxed notice over a photograph, centred
PHOTO = (310.0, 470.0, 460.0, 650.0)  # x0, top, x1, bottom: clear of the strip
OFFICERS = ["Ada Example", "Ben Sample", "Cleo Instance", "Dan Specimen", "Eve Model",
            "Finn Pattern", "Gia Template", "Hal Prototype", "Ivy Exemplar", "Jon Paradigm",
            "Kay Archetype", "Leo Standard", "Mia Measure", "Ned Gauge", "Ola Yardstick",
            "Pia Benchmark", "Quin Norm", "Rae Criterion"]
ROLES = ["President", "Vice President", "Treasurer", "Secretary", "Director of Programs",
         "Director of Service", "Director of Youth", "Director of Events", "Advisor",
         "Membership Chair", "Foundation Chair", "Public Relations", "House Committee",
         "Club Programs", "Executive Secretary", "Winter Gala", "Charity Ride", "Bulletin"]
NOTICE_LINES = ["This Week's Program", "our program will highlight the club's work in the",
                "community; we will hear from two organisations that received",
                "funds from the club's giving program and how the donation",
                "has made a difference to the people they serve, and if time",
                "allows we will also celebrate the fellowship month together"]
PHOTO_CAPTION = ["Alex Example", "Senior Development Officer, Example County",
                 "Boys and Girls Clubs of Example"]


def _centred(text: str, x0: float, x1: float, baseline: float, size: float) -> _Line:
    """``text`` in Helvetica of ``size`` centred between ``x0`` and ``x1``."""
    width = stringWidth(text, "Helvetica", size)
    return (text, size, (x0 + x1 - width) / 2, baseline, 0.0, 0.0)


def bulletin_page() -> tuple[list[_Line], list[str]]:
    """A bulletin's page: a sidebar of officers (a name over a role, in pairs down the
    page, a wider gap halfway) beside a notice and a photograph centred under it with
    its caption.  The page's lines in reading order (the sidebar, then the notice and
    the caption) and their texts."""
    sidebar: list[_Line] = []
    for k, (name, role) in enumerate(zip(OFFICERS, ROLES, strict=True)):
        top = 80.0 + 33.0 * k + (16.0 if k >= 9 else 0.0)
        sidebar += [_centred(name, *SIDEBAR, top, 8.0), _centred(role, *SIDEBAR, top + 10.0, 8.0)]
    notice = [_centred(text, *NOTICE, 130.0 + 15.0 * k, 11.0)
              for k, text in enumerate(NOTICE_LINES)]
    caption = [_centred(text, *NOTICE, 672.0 + 14.0 * k, 11.0)
               for k, text in enumerate(PHOTO_CAPTION)]
    lines = [*sidebar, *notice, *caption]
    texts = [line[0] for line in lines]
    assert len(set(texts)) == len(texts), "the test page repeats a line"
    return lines, texts


def test_photograph_clear_of_the_strip_fills_its_column(tmp_path: Path) -> None:
    """A photograph centred under a notice, clear of the strip beside the sidebar, fills
    the notice's column as lines do: the sidebar reads whole, then the notice and the
    photograph's caption, where the page was cut across at the sidebar's wider gap
    (level with the white between notice and photograph) and the caption read into the
    sidebar's foot."""
    lines, truth = bulletin_page()
    path = tmp_path / "bulletin.pdf"
    buffer = BytesIO()
    canvas = Canvas(buffer, pagesize=(WIDTH, HEIGHT * 842.0 / 595.0), invariant=1,
                    pageCompression=0)
    height = HEIGHT * 842.0 / 595.0
    x0, top, x1, bottom = PHOTO
    canvas.drawImage(ImageReader(Image.new("RGB", (40, 48), (90, 80, 70))), x0,
                     height - bottom, width=x1 - x0, height=bottom - top)
    for text, size, x, baseline, _, _ in lines:
        canvas.setFont("Helvetica", size)
        canvas.drawString(x, height - baseline, text)
    canvas.showPage()
    canvas.save()
    path.write_bytes(buffer.getvalue())
    page = layoutkit.parse(path, typed=False)[0]
    assert page.text().splitlines() == truth
