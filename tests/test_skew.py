"""A page scanned askew (:mod:`layoutkit.geometry.skew`): its skew told from its words,
its lines and columns found where they stand level, its boxes given back on the page.

The pages are newspapers of five to seven narrow columns whose every word is a text
object of its own turned about the page's centre, as an OCR layer sets the words of a
scan fed askew (:mod:`tests.skewed_pages`): the truth is the level layout's lines.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import layoutkit
from layoutkit.config import LayoutConfig
from layoutkit.geometry.skew import level_boxes, levelled, restored, skew_of
from layoutkit.geometry.words import words_from_glyphs
from layoutkit.model import NO_GLYPHS, BBox, PageGlyphs, Word
from layoutkit.sources import open_source
from tests.skewed_pages import skewed_page

WORDS = LayoutConfig().words


def page_lines(path: Path) -> list[str]:
    return [line.text for line in layoutkit.parse(path).pages[0].lines]


@pytest.mark.parametrize(("angle", "columns"), [(0.5, 7), (-0.7, 6), (1.0, 5), (-1.0, 7)])
def test_skew_page_askew_reads_every_line_whole_in_column_order(
        tmp_path: Path, angle: float, columns: int) -> None:
    """Turned by half a degree to a degree, the lines of neighbouring columns climb into
    one another and the gutters lean (read along the page's axes, words break across
    rows of glyphs and no column is found); read level, every line is whole and the
    columns follow one another."""
    path = tmp_path / "askew.pdf"
    truth = skewed_page(path, angle, columns)
    assert len(truth) > 100 * columns
    assert page_lines(path) == truth


def test_skew_level_page_reads_as_before(tmp_path: Path) -> None:
    """A page whose words stand level tells a skew of 0: nothing is turned, and every
    line reads whole in column order."""
    path = tmp_path / "level.pdf"
    truth = skewed_page(path, 0.0, 7)
    with open_source(path) as source:
        page = next(iter(source.pages([1])))
    words = words_from_glyphs(page.glyphs, WORDS)
    assert skew_of(words, WORDS) == 0.0
    same_page, same_words, slope = levelled(page, words, WORDS)
    assert (same_page, same_words, slope) == (page, words, 0.0)
    assert page_lines(path) == truth


@pytest.mark.parametrize("angle", [0.5, -0.8])
def test_skew_told_from_the_words_is_the_angle_they_were_turned_by(
        tmp_path: Path, angle: float) -> None:
    """The slope told from the runs of words is the one the page was turned by: text
    turned anticlockwise on the page climbs rightwards, a negative slope downwards."""
    path = tmp_path / "askew.pdf"
    skewed_page(path, angle, 6)
    with open_source(path) as source:
        page = next(iter(source.pages([1])))
    slope = skew_of(words_from_glyphs(page.glyphs, WORDS), WORDS)
    assert math.degrees(math.atan(-slope)) == pytest.approx(angle, abs=0.01)


def test_skew_words_given_back_where_they_stand_on_the_page(tmp_path: Path) -> None:
    """The page laid out level is turned back: its first word's box is the box its
    glyphs have on the page, each line's box holds its words' boxes."""
    path = tmp_path / "askew.pdf"
    skewed_page(path, 1.0, 5)
    with open_source(path) as source:
        glyphs = next(iter(source.pages([1]))).glyphs
    first = next(w for w in words_from_glyphs(glyphs, WORDS) if w.stream == 0)
    page = layoutkit.parse(path).pages[0]
    word = page.lines[0].words[0]
    assert word.text == first.text == "letter"
    assert np.allclose(word.bbox.as_list(), first.bbox.as_list(), atol=0.2)
    for line in page.lines:
        assert line.bbox == BBox.union(w.bbox for w in line.words)
    # turned anticlockwise, the first line climbs from its first word to its last
    words = page.lines[0].words
    first_box, last_box = words[0].bbox, words[-1].bbox
    climb = (first_box.top + first_box.bottom - last_box.top - last_box.bottom) / 2
    across = (last_box.x0 + last_box.x1 - first_box.x0 - first_box.x1) / 2
    assert climb == pytest.approx(across * math.tan(math.radians(1.0)), abs=0.05)


def word(text: str, x0: float, bottom: float, stream: int, width: float = 20.0) -> Word:
    return Word(text, BBox(x0, bottom - 8.0, x0 + width, bottom), "Times-Roman", 8.0,
                stream=stream)


def lines_of(slope: float, rows: int = 30, per_row: int = 6) -> list[Word]:
    """``rows`` lines of ``per_row`` words each, every word's centre on a line leaning
    by ``slope``, drawn line by line."""
    words = []
    for row in range(rows):
        for k in range(per_row):
            x0 = 50.0 + 24.0 * k
            centre = 100.0 + 10.0 * row + slope * (x0 + 10.0)
            words.append(word(f"w{row}.{k}", x0, centre + 4.0, len(words)))
    return words


def test_skew_of_hand_built_lines() -> None:
    """Words along lines leaning by a slope tell that slope; lines leaning so little that
    across their width they drift less than ``baseline_tolerance`` of a line's height
    tell 0, as do lines whose runs lean either way by chance."""
    assert skew_of(lines_of(0.02), WORDS) == pytest.approx(0.02)
    assert skew_of(lines_of(-0.015), WORDS) == pytest.approx(-0.015)
    # 140 points across, 8 high: 0.2 * 8 / 140 = 0.0114 is the least that matters
    assert skew_of(lines_of(0.011), WORDS) == 0.0
    assert skew_of(lines_of(0.012), WORDS) == pytest.approx(0.012)
    rng = np.random.default_rng(7)
    noisy = [word(w.text, w.bbox.x0, w.bbox.bottom + float(rng.normal(0, 0.6)), w.stream)
             for w in lines_of(0.0)]
    assert skew_of(noisy, WORDS) == 0.0
    assert skew_of([], WORDS) == 0.0
    assert skew_of(lines_of(0.02, rows=1, per_row=1), WORDS) == 0.0


def test_skew_ocr_words_without_glyphs_are_turned_level() -> None:
    """Words read by OCR (a page without glyphs) are turned about the page's centre:
    each line's words then share a centre line."""
    words = tuple(lines_of(0.02))
    page = PageGlyphs(1, 300.0, 500.0, NO_GLYPHS)
    same, level, slope = levelled(page, words, WORDS)
    assert same == page and slope == pytest.approx(0.02)
    assert [w.text for w in level] == [w.text for w in words]
    for row in range(30):
        centres = [(w.bbox.top + w.bbox.bottom) / 2 for w in level[6 * row:6 * row + 6]]
        assert max(centres) - min(centres) < 1e-9
    assert skew_of(level, WORDS) == 0.0


@given(st.lists(st.tuples(st.floats(0, 800), st.floats(0, 1100), st.floats(0, 60),
                          st.floats(0, 20)), min_size=1, max_size=20),
       st.floats(-0.1, 0.1))
def test_skew_levelling_turned_back_is_the_identity(
        boxes: list[tuple[float, float, float, float]], slope: float) -> None:
    """Boxes levelled and turned back stand where they stood, their sizes kept."""
    rows = np.array([(x, y, x + w, y + h) for x, y, w, h in boxes], dtype=np.float64)
    level = level_boxes(rows, slope, 842.0, 1191.0)
    assert np.allclose(level[:, 2] - level[:, 0], rows[:, 2] - rows[:, 0])
    assert np.allclose(level[:, 3] - level[:, 1], rows[:, 3] - rows[:, 1])
    assert np.allclose(level_boxes(level, -slope, 842.0, 1191.0), rows)


def test_skew_restored_page_without_skew_is_the_page(tmp_path: Path) -> None:
    """A page read level is given back as it is."""
    path = tmp_path / "level.pdf"
    skewed_page(path, 0.0, 5)
    page = layoutkit.parse(path).pages[0]
    assert restored(page, 0.0) is page


TRIBUNE = Path(__file__).resolve().parent.parent / "fixtures" / "corpus" / \
    "national-tribune-1898-11-10-front-page.pdf"
"""The National Tribune (Washington, D.C.), 10 November 1898, page 1: a scan of seven
narrow columns under an OCR text layer, askew by a third of a degree (more at the foot
and the right than at the head: the sheet was not flat)."""

LEFT_COLUMN = (
    'The division known as the Pennsylvania',
    'Reserves, which had among its officers during',
    'the first year of its service such distinguished',
    'soldiers as Meade, Reynolds, Ord and Sey-',
    'mour, finished its history May 30, 1864, at',
    'Bethesda Church. The men who had not',
    'ed went home, and the remaining',
    'fragments of these regiments were organized',
    'into two veteran regiments, numbered 190th',
    'and 191st, or 1st and 2d Yeteran Reserves,',
    'with an aggregate of about 1,429 officers and',
    'men, the former under the command of Col.',
    '"W. R. Hartshorue, formerly of the 13th Re-',
    'serves; the latter under Col. James Carl, of',
    'the 6th Reserves. They constituted the',
    'Third Brigade, Third Division, Fifth Corps.',
    'For some cause Col. Hartshorne was absent',
    'until after the army readied Petersburg, and',
    'the 190th was commanded by Lieut.-Co- l.',
    'Joseph B. Pattee, while Col. Carl commanded',
    'the brigade until Aug. 19, 1864.',
    'These men participated in the operations',
    'around Cold Harbor, though fortunately',
    'without loss, so far as can now be remem-',
    "bered or ascertained, except Serg't Woodard,",
    'of Co. A, 190th, who was killed June 3.',
    'There may have been other casualties, but',
    'the records of that period are defective.',
    'On June 13 they skirmished near White',
    'Oak Swamp, with a loss of two killed, 10',
    'wounded, one officer and six men missing.',
    "In this affair Lieut-Co- l. Pattee's horse was",
    'shot under him. Although the organization',
)
"""The first column's lines from the start of its article, as the layer spells them
(checked on the page's picture)."""

RIGHT_COLUMN = (
    'The destructive and wholly unexpected',
    'fire which broke out in the Capitol of tha',
    '"United States on last Sunday evening attracts',
    'the attention of every American to that grand',
    'edifice, around which the history of tha',
    'United States has centered for more than a',
    'century.',
    'WHAT THE BUILDINO IS.',
    'In the opinion of many competent observers',
    'the "United States Capitol is incomparably tha',
    'finest building in the world. It is the only',
    'great building erected distinctly for a Na-',
    'tional Capitol, and for more than a century',
    'there has been lavished upon it all tha6',
    'architectural art could suggest or money',
    'procure to make it ideal for its purpose.',
    'Differing from all other National Capitohj it',
    'stands alone, on a commanding hight, sepa-',
    'rated by hundreds of feet of beantiful grounds',
    'from any other building. The site waa',
    'chosen by George Washington himself, and',
    'cannot be surpassed anywhere. The western',
    'portico- - overlooks the greater part of Wash-',
    'ing, with the noble stretch of Pennsylvania',
    'Avenue as far as the Treasury and the "White',
)
"""The seventh column's lines from the start of its article."""


@pytest.fixture(scope="module")
def tribune() -> list[str]:
    return [line.text for line in layoutkit.parse(TRIBUNE).pages[0].lines]


@pytest.mark.parametrize("column", [LEFT_COLUMN, RIGHT_COLUMN], ids=["left", "right"])
def test_skew_scanned_newspaper_columns_read_line_by_line(
        tribune: list[str], column: tuple[str, ...]) -> None:
    """On a real scan askew the first and last columns, a picture between them, read
    line after line: along the page's axes each of their lines took in the line of the
    other column level with it, or two of its own."""
    first = tribune.index(column[0])
    assert tuple(tribune[first:first + len(column)]) == column


def test_skew_scanned_newspaper_skew_told() -> None:
    """The skew told from the layer's words: a third of a degree, clockwise."""
    with open_source(TRIBUNE) as source:
        page = next(iter(source.pages([1])))
    slope = skew_of(words_from_glyphs(page.glyphs, WORDS), WORDS)
    assert math.degrees(math.atan(slope)) == pytest.approx(0.35, abs=0.01)
