"""A vertical rule drawn down a strip of white parts columns, however few lines stand
on one side (a picture with its heading and caption beside a column of text)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.config import LayoutConfig
from tests.test_segment import VOCAB


def picture_beside_column(path: Path, *, rule: float) -> tuple[list[str], list[str]]:
    """A letter page: a column of 30 lines at the left (x 54-250); at the right, from
    the column's top, a heading and a subheading, a picture (a grey box) and a
    two-line caption level with the column's lines; a rule at x 262 between them down
    from 712 pt over ``rule`` points (none at 0; the column and caption span 368).
    Returns the column's lines and the right side's."""
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    rng = random.Random(11)
    canvas.setFont("Times-Roman", 10)
    column = []
    for k in range(30):
        text = " ".join(rng.choice(VOCAB) for _ in range(5)) + f" c{k}"
        canvas.drawString(54.0, 700.0 - 12.0 * k, text)
        column.append(text)
    side = ["PICTURE OF THE WEEK", "Moving slowly in a fast city",
            "An aerial view of the traffic at the junction", "in the morning rush hour"]
    canvas.setFont("Helvetica-Bold", 10)
    canvas.drawString(274.0, 700.0, side[0])
    canvas.drawString(274.0, 688.0, side[1])
    canvas.setFillGray(0.6)
    canvas.rect(274.0, 400.0, 300.0, 276.0, stroke=0, fill=1)
    canvas.setFillGray(0.0)
    canvas.setFont("Times-Italic", 9)
    canvas.drawString(274.0, 388.0, side[2])
    canvas.drawString(274.0, 377.0, side[3])
    if rule:
        canvas.setLineWidth(0.5)
        canvas.line(262.0, 712.0, 262.0, 712.0 - rule)
    canvas.save()
    return column, side


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_rule_parts_a_column_from_a_picture_side(tmp_path: Path, engine: str) -> None:
    """With the rule, the column reads through, then the picture's heading and caption;
    the page draws them in that order, so the stream cannot tell the two apart."""
    path = tmp_path / "ruled.pdf"
    column, side = picture_beside_column(path, rule=372.0)
    page = layoutkit.parse(path, engine=engine, typed=False)[0]
    assert [line.text for line in page.body_lines] == column + side


def test_rule_share_is_a_parameter(tmp_path: Path) -> None:
    """A rule down less than ruled_gutter_min_share of the strip (160 of 368 pt) is no
    evidence: the page reads as without it (the side's heading beside the column's
    first lines stands as no column, and those rows read across); with the share
    lowered to 0.4 it parts the columns."""
    short = tmp_path / "short.pdf"
    column, side = picture_beside_column(short, rule=160.0)
    plain = tmp_path / "plain.pdf"
    picture_beside_column(plain, rule=0.0)

    def lines(path: Path, config: LayoutConfig | None = None) -> list[str]:
        return [line.text for line in layoutkit.parse(path, config, typed=False)[0].body_lines]

    assert lines(short) == lines(plain) != column + side
    assert lines(short, LayoutConfig().replace(ruled_gutter_min_share=0.4)) == column + side
