"""Reading order on pages of the development corpus where a band ends in a way the
page's whitespace alone leaves open."""

from __future__ import annotations

from pathlib import Path

import layoutkit

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus"


def lines_of(stem: str, page: int) -> list[str]:
    """The body lines of a corpus page, in reading order."""
    parsed = layoutkit.parse(CORPUS / f"{stem}.pdf", pages=[page], typed=False)[0]
    return parsed.text().splitlines()


def test_order_corpus_address_line_closes_the_masthead() -> None:
    """The newsletter's address line, set under its motto and level with the top of the
    dark sidebar (no white between them), is the masthead's last line: read before the
    sidebar, not after it in the main column."""
    lines = lines_of("uufom-candle-flame", 1)
    address = lines.index("6220 Jefferson Avenue, Midland www.uufom.org")
    assert lines[address - 1].startswith("A liberal religious haven")
    assert lines[address + 1] == "Pastoral Care"
    main_column = lines.index("October 2016 (Volume LXVIII No. 10)")
    assert lines[main_column - 1] == "Th 9:00-10:00AM"


def test_order_corpus_ocr_layer_joined_across_columns_keeps_the_gutter() -> None:
    """The scan's OCR layer draws lines of both columns that stand level as one (an
    equation number with a caption, a line of text with a plot's tick label): read
    across in those few rows only, among the columns' many, the stream is no table's,
    so the gutter holds and the left column is read to its end before the right."""
    lines = lines_of("z-naturforsch-a-1999-shallow-water-scan", 2)
    where = next(k for k, line in enumerate(lines) if line.startswith("where <^ is"))
    assert lines[where] == "where <^ is an arbitrary constant. In addition to the above"
    last_left = next(k for k, line in enumerate(lines) if line.startswith("38y"))
    assert where < last_left < next(k for k, line in enumerate(lines)
                                    if line.startswith("Lastly we present"))
