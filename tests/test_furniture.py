"""Unit tests of running headers, footers and margin stamps found on hand-built pages."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from layoutkit.config import LayoutConfig
from layoutkit.geometry.furniture import Furniture, edge_lines, find_furniture, mask_numbers
from layoutkit.model import BBox, Rule, Word

CONFIG = LayoutConfig()
WIDTH, HEIGHT = 612.0, 792.0
CHAR, SIZE = 4.0, 8.0
BODY_TOP = 100.0  # below the header zone (furniture_top x HEIGHT = 95 pt)

_VOCAB = ("council", "ordinance", "resolution", "public", "hearing", "notice", "budget",
          "street", "bridge", "repair", "contract", "section", "emergency", "water")

Page = tuple[list[Word], float, float]


def words(text: str, x0: float, top: float, *, direction: int = 0,
          size: float = SIZE) -> list[Word]:
    """The words of ``text`` set from ``x0`` at ``top``: 4 pt a character, 2 pt spaces
    (at the default 8 pt size; scaled with ``size``)."""
    out, x, scale = [], x0, size / SIZE
    for part in text.split():
        width = CHAR * scale * len(part)
        out.append(Word(part, BBox(x, top, x + width, top + size), "F", size, direction))
        x += width + 2.0 * scale
    return out


def body(seed: int, top: float = BODY_TOP, count: int = 40) -> list[Word]:
    """``count`` body lines from ``top`` whose text differs from page to page."""
    rng = random.Random(seed)
    out: list[Word] = []
    for k in range(count):
        text = " ".join(rng.choice(_VOCAB) for _ in range(7))
        out += words(f"{text} p{seed}l{k}", 36.0, top + 10.0 * k)
    return out


def page(*parts: list[Word]) -> Page:
    return [w for part in parts for w in part], WIDTH, HEIGHT


def texts(page: Page, indexes: frozenset[int]) -> list[str]:
    """The words of ``page`` at ``indexes``, in index order."""
    return [page[0][i].text for i in sorted(indexes)]


def headers(pages: Sequence[Page]) -> list[list[str]]:
    return [texts(p, f.header) for p, f in zip(pages, find_furniture(pages, CONFIG), strict=True)]


def test_furniture_repeated_header_found_on_every_page() -> None:
    """The same header text at the same height on 4 pages, page number changing, is found."""
    pages = [page(words(f"The Gazette {12 + p}", 250.0, 30.0), body(p)) for p in range(4)]
    assert headers(pages) == [["The", "Gazette", str(12 + p)] for p in range(4)]


def test_furniture_header_of_a_small_page_printed_on_a_large_sheet() -> None:
    """A book's pages reprinted on a larger sheet: the running header, the first line,
    stands 112 pt down, below the sheet's top zone (95 pt), 9 pt over the body; it is
    found where the text begins.  A page whose text begins lower, a chapter's title over
    it, keeps its title."""
    top = 112.0

    def inset(lines: list[Word]) -> list[Word]:
        """The lines moved right, inside the sheet's sides as they are inside its top."""
        return [replace(w, bbox=BBox(w.bbox.x0 + 82.0, w.bbox.top, w.bbox.x1 + 82.0,
                                     w.bbox.bottom)) for w in lines]

    running = [words(f"{1168 + p} CONSTITUENT ASSEMBLY OF INDIA", 118.0, top) if p % 2 == 0
               else words(f"DRAFT CONSTITUTION {1168 + p}", 300.0, top) for p in range(1, 6)]
    pages = [page(line, inset(body(p, top + 20.0, 50))) for p, line in enumerate(running, 1)]
    opening = page(words("CONSTITUENT ASSEMBLY OF INDIA", 208.0, 168.0),
                   inset(body(9, 190.0, 45)))
    contents = page(words("Contents", 118.0, 269.0, size=24.0),
                    *(words(entry, 118.0, 321.0 + 24.0 * k) + words(folio, 470.0, 321.0 + 24.0 * k)
                      for k, (entry, folio) in enumerate([("Abstract", "ii"),
                                                          ("Acknowledgements", "iv")])))
    assert headers([contents, opening, *pages]) == [
        [], [],
        ["DRAFT", "CONSTITUTION", "1169"], ["1170", "CONSTITUENT", "ASSEMBLY", "OF", "INDIA"],
        ["DRAFT", "CONSTITUTION", "1171"], ["1172", "CONSTITUENT", "ASSEMBLY", "OF", "INDIA"],
        ["DRAFT", "CONSTITUTION", "1173"]]
    flush = [page(line, body(p, top + 20.0, 50)) for p, line in enumerate(running, 1)]
    assert headers(flush) == [[]] * len(flush)  # the text as wide as the sheet lets it
    head = "Name Department Salary"  # a table's head over every page, begun far down
    low = [page(words(head, 118.0, 200.0), inset(body(p, 220.0, 40))) for p in range(5)]
    assert headers(low) == [[]] * len(low)


def test_furniture_text_block_without_pages_to_tell_it() -> None:
    """With furniture_block_min_pages 0, a document with no text in its foot zone tells
    no text block there, and nothing fails."""
    pages = [page(body(p, top=100.0, count=20)) for p in range(3)]
    found = find_furniture(pages, CONFIG.replace(furniture_block_min_pages=0))
    assert [f.footer for f in found] == [frozenset()] * 3


def test_furniture_lines_a_few_edits_apart_repeat_only_where_most_stays() -> None:
    """Lines of neighbouring pages a few edits apart repeat where the edits leave most
    of the line ('Part One Review' and 'Part Two Review', three edits of fifteen
    letters); two members' names in Chinese, three characters of five apart, opening
    two pages of a list of members, do not: they stay body."""
    def first_lines(texts: list[str]) -> list[list[str]]:
        return headers([page(words(text, 250.0, 30.0), body(p, top=45.0))
                        for p, text in enumerate(texts)])

    titles = ["Part One Review", "Part Two Review", "Part One Review", "Part Two Review"]
    assert first_lines(titles) == [text.split() for text in titles]
    assert first_lines(["黃毓民議員", "郭家麒議員", "張宇人議員", "梁君彥議員"]) == [[]] * 4


def test_furniture_result_has_one_entry_per_page_and_no_footer() -> None:
    """find_furniture gives one Furniture per page; a page with a header only has no footer."""
    pages = [page(words(f"The Gazette {12 + p}", 250.0, 30.0), body(p)) for p in range(4)]
    found = find_furniture(pages, CONFIG)
    assert found == [Furniture(frozenset({0, 1, 2}), frozenset(), frozenset())] * 4


def test_furniture_alternating_mirrored_headers_found() -> None:
    """Headers alternating between '12 The Gazette' (left, even) and 'The Gazette 13' (right)."""
    pages = []
    for p in range(6):
        number = 12 + p
        header = (words(f"{number} The Gazette", 36.0, 30.0) if number % 2 == 0
                  else words(f"The Gazette {number}", 500.0, 30.0))
        pages.append(page(header, body(p)))
    assert headers(pages) == [
        ["12", "The", "Gazette"], ["The", "Gazette", "13"],
        ["14", "The", "Gazette"], ["The", "Gazette", "15"],
        ["16", "The", "Gazette"], ["The", "Gazette", "17"],
    ]


def test_furniture_parity_header_found() -> None:
    """A header on every other page only (recto pages) repeats on its parity and is found."""
    pages = [page(words(f"Notices {12 + p}", 500.0, 30.0) if p % 2 else [], body(p))
             for p in range(6)]
    assert headers(pages) == [[], ["Notices", "13"], [], ["Notices", "15"], [], ["Notices", "17"]]


@pytest.mark.parametrize("folio", ["- 7 -", "Page 7", "vii", "7", "Page 7 of 40", "7/40",
                                   "Seite 7 von 40", "página 7 de 40", "Pag. 7", "Стр. 7",
                                   "страница 7 из 40", "σελίδα 7", "עמוד 7", "صفحة 7", "第7頁"])
def test_furniture_page_number_footer_on_one_page(folio: str) -> None:
    """A footer that is a bare page number is furniture even on a one-page document."""
    document = [page(body(1), words(folio, 300.0, 760.0))]
    found = find_furniture(document, CONFIG)[0]
    assert texts(document[0], found.footer) == folio.split()
    assert found.header == frozenset()


def test_furniture_page_number_header_on_one_page() -> None:
    """A bare page number at the top of a one-page document is a header."""
    document = [page(words("12", 300.0, 30.0), body(1))]
    assert headers(document) == [["12"]]


def test_furniture_footer_text_on_one_page_not_found() -> None:
    """A footer line that is more than a page number needs other pages to repeat on."""
    document = [page(body(1), words("The Gazette 7", 300.0, 760.0))]
    assert find_furniture(document, CONFIG)[0].footer == frozenset()


@pytest.mark.parametrize(("line", "top", "edge"), [
    ([*words("60", 36.0, 30.0), *words("SARAH HANLEY", 250.0, 30.0)], 30.0, "header"),
    ([*words("February 2017", 480.0, 760.0), *words("023", 560.0, 760.0)], 760.0, "footer"),
    (words("14 | Interview CFO Hans Scholten", 36.0, 30.0), 30.0, "header"),
    (words("Annual Report 2017 • 15", 400.0, 760.0), 760.0, "footer"),
])
def test_furniture_folio_piece_beside_words_on_one_page(line: list[Word], top: float,
                                                        edge: str) -> None:
    """A page number standing apart from a running title or a date on its line, or
    parted from it by a bar or a bullet, the line a blank line's worth from the body,
    is furniture with no other page to repeat it on."""
    document = [page(line, body(1))]
    found = find_furniture(document, CONFIG)[0]
    assert texts(document[0], getattr(found, edge)) == [w.text for w in line]


def test_furniture_figure_in_brackets_beside_a_label_is_no_folio() -> None:
    """An account's last row at the foot of a page, its figure below zero in brackets
    standing apart from its label ('SURPLUS/ (DEFICIT) FOR YEAR   (467)'), is text; the
    same row with a page number there would be a folio line."""
    row = [*words("SURPLUS/ (DEFICIT) FOR YEAR", 36.0, 760.0), *words("(467)", 500.0, 760.0)]
    assert find_furniture([page(row, body(1))], CONFIG)[0].footer == frozenset()
    folio = [*words("SURPLUS/ (DEFICIT) FOR YEAR", 36.0, 760.0), *words("467", 500.0, 760.0)]
    assert find_furniture([page(folio, body(1))], CONFIG)[0].footer != frozenset()


@pytest.mark.parametrize("number", ["7.", "4)", "§ 6", "iv."])
def test_furniture_enumerated_line_at_the_edge_is_body(number: str) -> None:
    """A list item or a statute's section standing at the page's edge a blank line's
    worth from the body, its number set apart by a tab ('7.⇥Beschlussfassung über
    ...', '§ 6⇥Organe des Vereins'), is body: the number counts items, it is no
    folio."""
    for top, edge in ((30.0, "header"), (760.0, "footer")):
        line = [*words(number, 36.0, top), *words("Organe des Vereins sind", 80.0, top)]
        document = [page(line, body(1))]
        assert getattr(find_furniture(document, CONFIG)[0], edge) == frozenset()


@pytest.mark.parametrize(("label", "furniture"), [("(c)", False), ("D", False),
                                                  ("(xc)", True), ("xiv", True)])
def test_furniture_panel_letter_beside_a_line_is_no_roman_folio(label: str,
                                                               furniture: bool) -> None:
    """A figure's panel labels standing apart from the first line of a page's column,
    level with it ('... and the  (a)  (b)  (c)'), or a section's letter, read as Roman
    numerals are a hundred and more: no folio numbers front matter so far.  A Roman
    folio below a hundred beside a running title is one."""
    line = [*words("Running text of the first column", 36.0, 30.0),
            *words("(a)", 330.0, 30.0), *words(label, 420.0, 30.0)]
    found = find_furniture([page(line, body(1))], CONFIG)[0]
    assert bool(found.header) is furniture


def test_furniture_stamp_over_a_running_head_on_a_page_alone() -> None:
    """A download stamp over a journal's running head ('Advocacy in Action', its folio
    447 far to the right) on a page alone: the head is furniture by its folio, and
    the stamp between it and the page's top with it.  A contents page's first entry,
    under its title, numbered at both ends ('1 Terms and abbreviations .... 4', on page
    1), is no running head: the title over it stays."""
    stamp = words("Downloaded from http://journal.example.org/ on July 12, 2017", 80.0, 8.0)
    head = [*words("Advocacy in Action", 36.0, 20.0), *words("447", 560.0, 20.0)]
    found = find_furniture([page(stamp, head, body(1))], CONFIG)[0]
    assert texts(page(stamp, head, body(1)), found.header) == [w.text for w in stamp + head]
    title = words("CONTENTS", 36.0, 30.0)
    entry = [*words("1 Terms and abbreviations", 36.0, 42.0), *words("4", 560.0, 42.0)]
    assert find_furniture([page(title, entry, body(1))], CONFIG)[0].header == frozenset()


@pytest.mark.parametrize(("gap", "furniture"), [(30.0, True), (2.0, False)])
def test_furniture_line_ending_with_its_named_page_on_a_page_alone(gap: float,
                                                                   furniture: bool) -> None:
    """A web page's print names its page at the end of the title line over the text
    ('…, Tuesday 15 July 1902, page 4'), set apart: furniture on a page alone.  At the
    body's spacing, a sentence ending so is the text's; so is one a paragraph's gap
    under a running head, which is the outermost line."""
    line = words("Richmond Examiner (Grafton, NSW), Tuesday 15 July 1902, page 4", 36.0,
                 BODY_TOP - gap - SIZE)
    found = find_furniture([page(line, body(1))], CONFIG)[0]
    assert bool(found.header) is furniture
    pages = [page(words(f"The Gazette {n}", 36.0, 20.0),
                  words("the budget is set out in the schedule on page 12.", 36.0, 60.0)
                  if n == 2 else [], body(n)) for n in range(1, 5)]
    assert texts(pages[1], find_furniture(pages, CONFIG)[1].header) == ["The", "Gazette", "2"]


@pytest.mark.parametrize(("top", "furniture"), [(774.0, True), (700.0, False)])
def test_furniture_stamp_of_two_lines_at_the_foot_of_a_page_alone(top: float,
                                                                 furniture: bool) -> None:
    """A download notice of two lines set small at the very foot of a page alone, its
    last line in the trim margin, far under the text, is furniture as a one-line stamp
    is, and the body's spacing is read on the body, not on the notice's own gap: the
    running title over the text, its folio beside it, stands apart.  Two small lines
    inside the margins, far under a short page's text, are its footnotes."""
    head = [*words("REVIEWS OF BOOKS", 200.0, 62.0, size=10.0),
            *words("219", 540.0, 62.0, size=10.0)]
    notice = [*words("This content downloaded from 62.122.73.250 on 16 Jun 2014",
                     120.0, top - 8.0, size=6.0),
              *words("All use subject to Terms and Conditions", 160.0, top, size=6.0)]
    found = find_furniture([page(head, body(1, top=80.0, count=30), notice)], CONFIG)[0]
    assert texts(page(head, body(1, top=80.0, count=30), notice), found.header) == \
        [w.text for w in head]
    assert len(found.footer) == (len(notice) if furniture else 0)


@pytest.mark.parametrize("ruled", [True, False])
def test_furniture_folio_parted_from_its_title_by_a_drawn_rule(ruled: bool) -> None:
    """A folio parted from its running title by a rule drawn down between them (a law
    review's '180 | The Inaugural Issue ...'), standing closer to the title than a
    piece's gap, is a folio piece on a page alone: the line is furniture.  Without the
    rule, the number opens the title's words."""
    line = [*words("180", 36.0, 30.0), *words("The Inaugural Issue a Decade Later", 56.0, 30.0)]
    rules = [(Rule(BBox(51.5, 28.0, 52.0, 42.0)),)] if ruled else None
    found = find_furniture([page(line, body(1))], CONFIG, rules=rules)[0]
    assert bool(found.header) is ruled


def test_furniture_number_beside_a_bar_inside_a_piece_is_no_folio() -> None:
    """A bar parts a folio from its running title only at the line's end: a number
    between two bars, inside the line, is no folio ('Report | 14 | Interview')."""
    line = words("Report | 14 | Interview", 36.0, 30.0)
    assert find_furniture([page(line, body(1))], CONFIG)[0].header == frozenset()


def test_furniture_numbered_table_row_at_body_spacing_is_body() -> None:
    """A table's first row, numbered in its first cell, at the table's own spacing is
    body: a folio line stands a blank line's worth apart."""
    row = [*words("24", 36.0, 40.0), *words("RICARDO JESUS SEPULVEDA", 100.0, 40.0)]
    document = [page(row, body(1, top=50.0))]
    assert find_furniture(document, CONFIG)[0].header == frozenset()


def foot_pages(extra: list[Word]) -> list[Page]:
    """Four pages whose body runs down to 748 pt, each with its page number at 760 pt;
    the first page has the ``extra`` words too."""
    return [page(body(p, top=360.0, count=39), words(str(p + 1), 300.0, 760.0),
                 extra if p == 0 else []) for p in range(4)]


def test_furniture_short_pages_leave_the_text_block_to_full_pages() -> None:
    """A report whose pages end where their sections do: three short pages set no text
    in the foot zone, which tells only that their text stops short.  The text block ends
    where the full pages' does, so a page's last line set off by a blank line, inside
    that block (a listing's 'def main():'), is its text, not furniture beyond it."""
    full = [page(body(p, top=100.0, count=64)) for p in (0, 4)]
    short = [page(body(p, top=100.0, count=20)) for p in (1, 2, 3)]
    last = page(body(5, top=100.0, count=60), words("def main():", 36.0, 720.0))
    pages = [full[0], *short, full[1], last]
    assert find_furniture(pages, CONFIG)[-1].footer == frozenset()


def test_furniture_page_number_under_imprint_outside_text_block() -> None:
    """A page number between the body and an imprint in small type that repeats on no
    page (a proceedings' first page) is furniture with the imprint."""
    pages = foot_pages(words("Proceedings of the Annual Meeting", 200.0, 775.0, size=6.0))
    found = find_furniture(pages, CONFIG)[0]
    assert texts(pages[0], found.footer) == ["1", "Proceedings", "of", "the", "Annual",
                                             "Meeting"]


def test_furniture_folio_past_the_zone_of_a_page_with_wide_margins() -> None:
    """A page number in Persian digits under a text block set with wide margins
    (LaTeX's on A4): 100 pt from the foot, past the foot zone (95 pt), it is the page's
    outermost line and a bare page number, so a footer; a number that is no outermost
    line (a table's last figure over a footnote), or set large far from the foot (a
    cover's year), is none."""
    pages = [page(body(p, top=100.0, count=40), words("۱۲۳۴"[p], 300.0, 692.0))
             for p in range(4)]
    assert [texts(p, f.footer) for p, f in zip(pages, find_furniture(pages, CONFIG),
                                               strict=True)] == [["۱"], ["۲"], ["۳"], ["۴"]]
    pages = [page(body(p, top=100.0, count=40), words(str(p + 1), 300.0, 560.0),
                  words("a note set at the foot of the page", 36.0, 692.0))
             for p in range(4)]
    assert not any(f.footer for f in find_furniture(pages, CONFIG))
    # a cover's year in display type, the outermost line far up the page, is none
    pages = [page(body(p, top=100.0, count=20), words("2024", 200.0, 500.0, size=40.0))
             for p in range(4)]
    assert not any(f.footer for f in find_furniture(pages, CONFIG))


@pytest.mark.parametrize("count", [20, 3])
def test_furniture_list_running_past_the_text_block_is_text(count: int) -> None:
    """A list of references in small type, its items spaced evenly, that runs on past
    where the other pages' text ends is the page's text to its last item; the same
    lines as a block of their own, their spacing not the text's, are an imprint."""
    items = [w for k in range(count)
             for w in words(f"{k + 1}. Storage Whitepaper https://example.org/{k}", 36.0,
                            781.0 - 9.0 * (count - 1 - k), size=6.0)]
    pages = [page(body(0, top=360.0, count=20), items),
             *(page(body(p, top=360.0, count=39)) for p in range(1, 4))]
    footer = find_furniture(pages, CONFIG)[0].footer
    assert len(footer) == (0 if count == 20 else len(items))


@pytest.mark.parametrize(("gap", "found"), [(12.0, True), (2.0, False)])
def test_furniture_line_below_text_block_parted_by_blank_line(gap: float,
                                                              found: bool) -> None:
    """A line below the other pages' text block, set larger than the body, is furniture
    when a blank line's worth of white parts it from the text above (a navigation bar
    over the footer), and body at the usual spacing."""
    pages = [page(body(p, top=360.0, count=36), words("The Gazette", 300.0, 775.0),
                  words("Copper | Gold | Iron Ore | Nickel", 100.0, 718.0 + gap, size=10.0)
                  if p == 0 else []) for p in range(4)]
    footer = texts(pages[0], find_furniture(pages, CONFIG)[0].footer)
    bar = ["Copper", "|", "Gold", "|", "Iron", "Ore", "|", "Nickel"]
    assert footer == ["The", "Gazette", *bar] if found else ["The", "Gazette"]


NAMEPLATE = words("The Gazette", 200.0, 40.0, size=24.0)
ISSUE_ROW = [*words("24 January 2018", 36.0, 80.0), *words("FIRST SERIES", 280.0, 80.0),
             *words("No. 10", 530.0, 80.0)]
BAR = (Rule(BBox(30.0, 77.0, 580.0, 77.0)), Rule(BBox(30.0, 91.0, 300.0, 91.0)),
       Rule(BBox(300.0, 91.0, 580.0, 91.0)))


@pytest.mark.parametrize(("parts", "rules", "found"), [
    ([NAMEPLATE, ISSUE_ROW], BAR, True),
    ([NAMEPLATE, ISSUE_ROW], BAR[:2], False),  # the rule under it runs under half of it
    ([NAMEPLATE, ISSUE_ROW], (), False),
    ([words("notice of the council", 36.0, 30.0), ISSUE_ROW], BAR, False),
])
def test_furniture_issue_row_on_ruled_bar_under_nameplate(
        parts: list[list[Word]], rules: tuple[Rule, ...], found: bool) -> None:
    """The row of a masthead's date, series and issue number between rules running
    over and under all of it, under the nameplate, is furniture on a page alone; not
    without its rules, nor under body text."""
    document = [page(*parts, body(1, top=110.0))]
    header = texts(document[0], find_furniture(document, CONFIG, rules=[rules])[0].header)
    assert header == ([w.text for w in ISSUE_ROW] if found else [])


@pytest.mark.parametrize(("banner", "found"), [
    ([*words("RESEARCH ARTICLE", 36.0, 40.0, size=10.0),
      *words("Open Access", 500.0, 40.0, size=10.0)], True),
    (words("RESEARCH ARTICLE", 36.0, 40.0, size=10.0), False),  # one piece: a kicker
    # the first lines of two columns, over a heading set large in one of them
    ([*words("the council heard the budget of the water board", 36.0, 40.0, size=10.0),
      *words("and the repair of the bridge on the street", 320.0, 40.0, size=10.0)], False),
])
def test_furniture_banner_row_over_title(banner: list[Word], found: bool) -> None:
    """A row of pieces with nothing above it, right over a title set large, is the
    publisher's banner: furniture."""
    document = [page(banner, words("Barriers to quality improvement", 36.0, 60.0, size=20.0),
                     body(1, top=110.0))]
    header = texts(document[0], find_furniture(document, CONFIG)[0].header)
    assert header == ([w.text for w in banner] if found else [])


def test_furniture_repeated_footer_found() -> None:
    """The same footer text on 3 pages is found on every page."""
    pages = [page(body(p), words("Printed on recycled paper", 200.0, 760.0)) for p in range(3)]
    found = find_furniture(pages, CONFIG)
    assert [texts(p, f.footer) for p, f in zip(pages, found, strict=True)] == [
        ["Printed", "on", "recycled", "paper"]] * 3


def test_furniture_varying_top_line_not_found() -> None:
    """A body line in the header zone whose text differs on every page is not furniture."""
    firsts = ["Ordinance 12 amends the zoning code", "Resolution adopted by unanimous vote",
              "Notice of a public hearing on budget", "Bids requested for bridge repairs"]
    pages = [page(words(f"The Gazette {12 + p}", 250.0, 30.0), words(firsts[p], 36.0, 60.0),
                  body(p)) for p in range(4)]
    assert headers(pages) == [["The", "Gazette", str(12 + p)] for p in range(4)]


@pytest.mark.parametrize(("size", "gap", "found"), [
    (SIZE, 22.0, True),        # the body's type, far apart: a running head
    (SIZE, 12.0, False),       # as close as a heading stands over its text
    (2 * SIZE, 40.0, False),   # larger than the body: each page's (each slide's) title
])
def test_furniture_running_head_naming_each_chapter(size: float, gap: float,
                                                     found: bool) -> None:
    """A line over the body at the same height on pages far apart in a manual (an
    excerpt of its pages 1, 31 and 51), naming each page's chapter: its words change
    from page to page, its place and type do not.  It is a running head when set
    apart by twice its size or more, in type no larger than the body's; closer, it is
    a heading that opens each page's text, and larger, a title of the page's own."""
    chapters = ["Multimedia Encode and Decode", "Video Transcode with GStreamer",
                "Camera Capture Reference"]
    pages = [page(words(chapters[p], 36.0, 10.0, size=size),
                  body(p, top=10.0 + size + gap)) for p in range(3)]
    assert headers(pages) == [chapters[p].split() if found else [] for p in range(3)]


def test_furniture_header_out_of_place_not_matched() -> None:
    """A header 20 pt lower on one page than on the others is not matched on that page
    (mastheads and the text block off); with the default masthead zone it is that
    page's masthead: the page has no running header of its own, and the line spells
    out its neighbours'."""
    assert CONFIG.furniture.furniture_y_tolerance < 20.0
    pages = [page(words(f"The Gazette {12 + p}", 250.0, 50.0 if p == 2 else 30.0), body(p))
             for p in range(4)]
    found = [texts(p, f.header) for p, f in zip(
        pages, find_furniture(pages, CONFIG.replace(furniture_masthead_top=0.0,
                                                    furniture_dateline_top=0.0,
                                                    furniture_cover_dateline_top=0.0,
                                                    furniture_block_min_pages=99)),
        strict=True)]
    assert found == [["The", "Gazette", "12"], ["The", "Gazette", "13"], [],
                     ["The", "Gazette", "15"]]
    assert headers(pages)[2] == ["The", "Gazette", "14"]


def test_furniture_header_within_tolerance_matched() -> None:
    """A header 4 pt lower on one page (within furniture_y_tolerance) is still matched."""
    pages = [page(words(f"The Gazette {12 + p}", 250.0, 34.0 if p == 2 else 30.0), body(p))
             for p in range(4)]
    assert headers(pages) == [["The", "Gazette", str(12 + p)] for p in range(4)]


def test_furniture_rotated_margin_words() -> None:
    """Rotated words outside the upright text are margin furniture; inside its extent,
    clear of its lines (below the body), they are not."""
    stamp = [Word("PROOF", BBox(10.0, 300.0, 18.0, 330.0), "F", SIZE, 90),
             Word("COPY", BBox(10.0, 260.0, 18.0, 290.0), "F", SIZE, 90)]
    inside = [Word("inset", BBox(100.0, 520.0, 108.0, 550.0), "F", SIZE, 90)]
    document = [page(body(3), stamp, inside)]
    first = len(document[0][0]) - 3
    found = find_furniture(document, CONFIG)[0]
    assert found.margin == frozenset({first, first + 1})
    assert found.header == found.footer == frozenset()


@pytest.mark.parametrize(("folio", "found"), [("22", True), ("3.", False)])
def test_furniture_running_title_turned_in_the_margin_with_its_folio(folio: str,
                                                                     found: bool) -> None:
    """A magazine's running title turned in its outer margin, its folio standing
    upright further out: the folio does not put the title inside the text's extent,
    and both are margin furniture.  A list's number ('3.') standing there is text."""
    title = [Word("Print", BBox(8.0, 600.0, 16.0, 630.0), "F", SIZE, 90),
             Word("365", BBox(8.0, 635.0, 16.0, 650.0), "F", SIZE, 90)]
    number = [Word(folio, BBox(4.0, 580.0, 12.0, 588.0), "F", SIZE, 0)]
    document = [page(body(3), title, number)]
    first = len(document[0][0]) - 3
    margin = find_furniture(document, CONFIG)[0].margin
    assert margin == (frozenset({first, first + 1, first + 2}) if found else frozenset())


def test_furniture_turned_head_of_a_column_of_figures_is_body() -> None:
    """A column of figures right of the prose under a turned head ('Total') is text,
    and so is its head: the figures keep the text's extent, though the one nearest
    the head could be a folio."""
    head = [Word("Total", BBox(400.0, 110.0, 408.0, 140.0), "F", SIZE, 90)]
    figures = [Word(str(10 * k + 7), BBox(400.0, 150.0 + 10.0 * k, 412.0, 158.0 + 10.0 * k),
                    "F", SIZE, 0) for k in range(12)]
    document = [page(body(3), head, figures)]
    assert find_furniture(document, CONFIG)[0].margin == frozenset()


def test_furniture_turned_block_beside_the_text_is_body() -> None:
    """Rotated words beside the upright text making more than
    furniture_stamp_max_lines lines (a table set sideways) are not margin stamps."""
    block = [Word(f"row{k}", BBox(520.0 + 12.0 * k, 300.0, 528.0 + 12.0 * k, 330.0), "F",
                  SIZE, 90) for k in range(3)]
    document = [page(body(3), block)]
    assert find_furniture(document, CONFIG)[0].margin == frozenset()


def test_furniture_rotated_words_over_the_text_are_a_watermark() -> None:
    """Rotated (or diagonal) words printed over the body's lines are margin furniture,
    a watermark, wherever they stand."""
    mark = [Word(letter, BBox(60.0 + 30.0 * k, 400.0 - 30.0 * k, 84.0 + 30.0 * k,
                              424.0 - 30.0 * k), "F", 24.0, 45)
            for k, letter in enumerate("COPY")]
    document = [page(body(3), mark)]
    first = len(document[0][0]) - 4
    found = find_furniture(document, CONFIG)[0]
    assert found.margin == frozenset(range(first, first + 4))


def test_furniture_imprint_above_the_text_block_of_one_page() -> None:
    """A line in a small font above the first page's title, where no other page has
    text (an imprint repeated nowhere), is header, and so is a short last page's
    colophon below the text block; the title, larger than the body, is not."""
    imprint_text = "Journal of Examples 12 (2014) 305-313"
    imprint = words(imprint_text, 36.0, 40.0, size=7.0)
    title = words("A Title Set Large", 36.0, 60.0, size=20.0)
    colophon_text = "Printed by the Examples Press"
    colophon = words(colophon_text, 36.0, 760.0, size=7.0)
    pages = [page(imprint, title, body(0, 90.0, 38)),
             *[page(words(f"Running head {k}", 250.0, 30.0), body(k)) for k in (1, 2, 3)],
             page(words("Running head 4", 250.0, 30.0), body(4, count=10), colophon)]
    found = find_furniture(pages, CONFIG)
    assert texts(pages[0], found[0].header) == imprint_text.split(" ")
    assert texts(pages[4], found[4].footer) == colophon_text.split(" ")
    assert [texts(p, f.header) for p, f in zip(pages[1:4], found[1:4], strict=True)] == \
        [["Running", "head", str(k)] for k in (1, 2, 3)]


def test_furniture_footer_kept_at_its_distance_from_the_foot() -> None:
    """A footer repeats at the same distance from the foot on pages of different
    heights (a letter page and a legal one)."""
    pages = [(words("Printed 11/23/2016 town clerk", 36.0, height - 30.0)
              + body(k, count=20), WIDTH, height) for k, height in enumerate((792.0, 1008.0))]
    found = find_furniture(pages, CONFIG)
    assert [texts(p, f.footer) for p, f in zip(pages, found, strict=True)] == \
        [["Printed", "11/23/2016", "town", "clerk"]] * 2


@pytest.mark.parametrize(("gap", "trim", "found"), [
    (2.0, 12.0, True),    # in the trim margin: furniture however close the body comes
    (2.0, 4.0, False),    # outside it: as close as the body's own lines, so body
    (6.0, 4.0, True),     # set apart: furniture anywhere
])
def test_furniture_repeated_line_in_the_trim_margin(gap: float, trim: float,
                                                     found: bool) -> None:
    """A repeated line whose outer side stands within ``furniture_trim_margin`` of the
    page edge (a newspaper's edition code printed just under its columns) is furniture
    even ``gap`` points from the body, less than ``furniture_min_gap_em`` of its size."""
    config = CONFIG.replace(furniture_trim_margin=trim)
    code_top = HEIGHT - 6.0 - SIZE
    pages = [page(body(k, top=code_top - gap - 10.0 * 40 + 2.0),
                  words("AND-NDE CM", 500.0, code_top)) for k in range(3)]
    footers = [texts(p, f.footer) for p, f in
               zip(pages, find_furniture(pages, config), strict=True)]
    assert footers == [["AND-NDE", "CM"] if found else []] * 3


@pytest.mark.parametrize(("gap", "found"), [
    (8.0, True),   # an em of the body's type: more white than its lines leave
    (3.0, False),  # less than half the body's em: a title of its text
])
def test_furniture_large_running_title_parted_by_the_body_leading(gap: float,
                                                                 found: bool) -> None:
    """A datasheet's part number, set at 30 pt at the top of every page, stands ``gap``
    points over 8-pt body type set 14 points apart: the white is judged by the body's
    em, the smaller of the two, not the title's (half its own 30-pt em would be 15
    points, more than such a header leaves, and 8 points is less than twice the body's
    6 points of white, so the title is not set apart either)."""
    title_top, rng = 40.0, random.Random(6206)
    pages = [page(words("XC6206", 400.0, title_top, size=30.0),
                  *(words(" ".join(rng.choice(_VOCAB) for _ in range(7)), 36.0,
                          title_top + 30.0 + gap + 14.0 * k) for k in range(30)))
             for _ in range(3)]
    assert headers(pages) == [["XC6206"] if found else []] * 3


def test_furniture_mask_numbers_exact() -> None:
    """mask_numbers replaces runs of digits and Roman numerals by '#'."""
    assert mask_numbers("Page 12 of 40") == "Page # of #"
    assert mask_numbers("xiv") == "#"
    assert mask_numbers("XIV") == "#"
    assert mask_numbers("The Gazette 13") == "The Gazette #"
    assert mask_numbers("- 7 -") == "- # -"
    assert mask_numbers("Vol. 85, No. 152") == "Vol. #, No. #"
    assert mask_numbers("April 27, 2016") == "April #, #"
    assert mask_numbers("The City Record") == "The City Record"


def test_furniture_mask_numbers_keeps_words() -> None:
    """mask_numbers leaves ordinary words that only use Roman-numeral letters alone."""
    assert mask_numbers("Civic Center") == "Civic Center"
    assert mask_numbers("did mid") == "did mid"


def test_furniture_short_body_line_at_foot_not_a_page_number() -> None:
    """A body line of one ordinary word at the foot of a page is not a page-number footer."""
    text = words("as the Council", 36.0, 720.0) + words("did.", 36.0, 730.0)
    document = [page(body(1), text, words("- 7 -", 300.0, 760.0))]
    found = find_furniture(document, CONFIG)[0]
    assert texts(document[0], found.footer) == ["-", "7", "-"]


# --------------------------------------------------------------------------- mastheads

MASTHEAD = ("The Gazette", "Vol. 3, No. 12", "Monday, May 4, 2020")
RUNNING = "The Gazette / Vol. 3, No. 12 / Monday, May 4, 2020 / Notices"


def masthead_issue(title: list[Word], *, dateline: bool = False,
                   folio: str = "1") -> list[Page]:
    """Four pages of an issue: the first has a page number (``folio``), the ``title`` at the left
    and the masthead (``MASTHEAD``, three lines of 8 pt) at the right, its body from
    122 pt; the others repeat the masthead as one running header line.  With
    ``dateline`` the second page also has a short line spelling the date below its
    running header, set apart from the body."""
    first = page(words(folio, 36.0, 30.0), title,
                 *[words(text, 400.0, top) for text, top in zip(MASTHEAD, (59.0, 74.0, 91.0),
                                                                strict=True)],
                 body(0, top=122.0))
    rest = [page(words(f"{RUNNING} {1 + p}", 36.0, 30.0),
                 words(MASTHEAD[2], 400.0, 60.0) if dateline and p == 1 else [],
                 body(p, top=122.0 if dateline and p == 1 else BODY_TOP)) for p in range(1, 4)]
    return [first, *rest]


@pytest.mark.parametrize("folio", ["1", "Page 1"])
def test_furniture_masthead_pieces_found_beside_large_title(folio: str) -> None:
    """On a first page without a running header (a page number aside), the lines that
    spell out the next pages' running header in pieces (a masthead) are header,
    however the masthead shares its first line with the title; the title 'Notices',
    a run of the header's words but set larger (18 pt) than it, stays body."""
    pages = masthead_issue(words("Notices", 36.0, 54.0, size=18.0), folio=folio)
    assert headers(pages)[0] == [*folio.split(), "The", "Gazette", "Vol.", "3,", "No.", "12",
                                 "Monday,", "May", "4,", "2020"]
    assert headers(pages)[1:] == [[*RUNNING.split(), str(1 + p)] for p in range(1, 4)]


def test_furniture_first_page_title_sharing_header_words_not_masthead() -> None:
    """A first-page title at the header's size that shares words with the running
    header but is no run of its words ('Gazette Notices Explained') stays body, while
    the masthead beside it is header."""
    pages = masthead_issue(words("Gazette Notices Explained", 36.0, 59.0))
    found = headers(pages)[0]
    assert found == ["1", "The", "Gazette", "Vol.", "3,", "No.", "12", "Monday,", "May", "4,",
                     "2020"]
    assert "Explained" not in found and "Notices" not in found


def test_furniture_masthead_only_on_page_without_running_header() -> None:
    """A line spelling part of the running header ('Monday, May 4, 2020') below the
    running header of a page that has one is no masthead: it stays body (unless, set
    apart from the text outside the text block, it is found so: that rule is off)."""
    pages = masthead_issue(words("Notices", 36.0, 54.0, size=18.0), dateline=True)
    config = CONFIG.replace(furniture_block_min_pages=99)
    assert texts(pages[1], find_furniture(pages, config)[1].header) == \
        [*RUNNING.split(), "2"]


def test_furniture_opening_lines_that_repeat_into_their_text_spell_no_masthead() -> None:
    """A report's pages that each open with a table's caption of four lines, the first
    two alike but for the table's number ('Table 3: Summary of survey activity ...'),
    repeat them as a run; run on at the lines' spacing into their caption, they are no
    running header those pages keep apart, and the paragraph that opens the page before
    under its heading, sharing a long run of their words, is no masthead: it stays body."""
    caption = ["Table {n}: Summary of survey activity at the refuges",
               "of the region in the year of the report covering",
               "the biotic groups {n} recorded in the database of",
               "surveys planned and done {n} times by the staff"]
    first = page(words("Summary Information", 36.0, 30.0, size=14.0),
                 words("This report summarizes survey activity at the refuges", 36.0, 52.0),
                 words("of the region in the year of the report covering", 36.0, 62.0),
                 body(0, top=90.0))
    rest = [page(*[words(line.format(n=2 + p), 36.0, 30.0 + 10.0 * k)
                   for k, line in enumerate(caption)], body(p, top=80.0)) for p in range(1, 4)]
    pages = [first, *rest]
    assert headers(pages)[0] == []


@pytest.mark.parametrize(("header_top", "body_top"), [(30.0, 100.0), (4.0, 14.0)])
def test_furniture_masthead_spells_a_header_kept_apart_or_in_the_trim_margin(
        header_top: float, body_top: float) -> None:
    """The first page's masthead spells out the next pages' running header whether
    they set it apart from their body or close over it in the trim margin, where it is
    furniture all the same."""
    first = masthead_issue(words("Notices", 36.0, 54.0, size=18.0))[0]
    rest = [page(words(f"{RUNNING} {1 + p}", 36.0, header_top), body(p, top=body_top))
            for p in range(1, 4)]
    assert headers([first, *rest])[0] == ["1", "The", "Gazette", "Vol.", "3,", "No.", "12",
                                          "Monday,", "May", "4,", "2020"]


def test_furniture_masthead_parameters() -> None:
    """Without room for the masthead's last line (furniture_masthead_top and
    furniture_dateline_top 0.11, 87 pt) only the lines inside the zone are header;
    with furniture_masthead_max_size 0.5 the 8 pt pieces are larger than allowed
    beside the 8 pt running header and none is header."""
    pages = masthead_issue(words("Notices", 36.0, 54.0, size=18.0))

    def first(config: LayoutConfig) -> list[str]:
        return texts(pages[0], find_furniture(pages, config)[0].header)

    assert first(CONFIG.replace(furniture_masthead_top=0.11, furniture_dateline_top=0.11)) == [
        "1", "The", "Gazette", "Vol.", "3,", "No.", "12"]
    assert first(CONFIG.replace(furniture_masthead_max_size=0.5)) == ["1"]


def dateline_issue(dateline: str, beside: str = "12/2020") -> list[Page]:
    """Four pages of an issue: the first has a page number, a large title at 170 pt
    (a gazette's nameplate above it), and at 200 pt the ``dateline`` at the left beside
    an issue number in figures ('12/2020') at the right, its body from 230 pt; the
    others repeat the masthead as one running header line."""
    first = page(words("1", 36.0, 30.0), words("Notices", 36.0, 170.0, size=18.0),
                 words(dateline, 36.0, 200.0), words(beside, 500.0, 200.0),
                 body(0, top=230.0, count=30))
    rest = [page(words(f"{RUNNING} {1 + p}", 36.0, 30.0), body(p)) for p in range(1, 4)]
    return [first, *rest]


def test_furniture_masthead_dateline_carrying_a_run_of_the_header() -> None:
    """A masthead piece that adds the place to the running header's date
    ('Springfield, Monday, May 4, 2020': a run of four of the header's words, more than
    half of its own) is header, and so is the issue number in figures on its row;
    a body line that carries the same run among many more words stays body, and so
    does a short one that is a run of the header's words but stands below the
    masthead zone (the end of a paragraph, 'Notices')."""
    found = headers(dateline_issue("Springfield, Monday, May 4, 2020"))[0]
    assert found == ["1", "Springfield,", "Monday,", "May", "4,", "2020", "12/2020"]
    told = "Monday, May 4, 2020 was the day the council met on the budget again"
    assert headers(dateline_issue(told))[0] == ["1"]
    assert headers(dateline_issue("Notices"))[0] == ["1"]


def test_furniture_masthead_dateline_stands_under_a_nameplate() -> None:
    """A line spelling the running header below the masthead zone with no nameplate over
    it, neither a larger title nor a picture, opens the page's text (a cover's title,
    the title over a chapter of proceedings): body.  Under a nameplate drawn as a
    picture that reaches behind it, it is the masthead's dateline."""
    def issue() -> list[Page]:
        first = page(words("1", 36.0, 30.0), words("Springfield, Monday, May 4, 2020", 36.0,
                                                   200.0), body(0, top=230.0, count=30))
        return [first, *dateline_issue("")[1:]]

    assert headers(issue())[0] == ["1"]
    logo = [BBox(540.0, 20.0, 580.0, 50.0)]  # in the corner, over no part of the line
    assert texts(issue()[0], find_furniture(issue(), CONFIG, pictures=[logo, [], [], []])[0]
                 .header) == ["1"]
    nameplate = [BBox(36.0, 120.0, 560.0, 215.0)]
    found = find_furniture(issue(), CONFIG, pictures=[nameplate, [], [], []])[0]
    assert texts(issue()[0], found.header) == ["1", "Springfield,", "Monday,", "May", "4,",
                                               "2020"]


def test_furniture_masthead_takes_the_dateline_row() -> None:
    """Beside a dateline (a piece found by its long run of the header's words) a
    piece set no larger is masthead whatever its words ('Edition A'); beside a line
    that is no dateline it stays body."""
    found = headers(dateline_issue("Springfield, Monday, May 4, 2020", "Edition A"))[0]
    assert found == ["1", "Springfield,", "Monday,", "May", "4,", "2020", "Edition", "A"]
    assert headers(dateline_issue("Springfield in the spring", "Edition A"))[0] == ["1"]


def test_furniture_masthead_takes_pieces_between_its_rows() -> None:
    """A line between two masthead lines ('Founded 1887 in Springfield', no run of the
    header's words) is masthead too when set no larger than the running header; set
    larger (a title) it stays body."""
    def issue(size: float) -> list[Page]:
        first = page(words("1", 36.0, 30.0), words("The Gazette", 400.0, 59.0),
                     words("Founded 1887 in Springfield", 400.0, 74.0, size=size),
                     words("Monday, May 4, 2020", 400.0, 95.0), body(0, top=122.0))
        return [first, *[page(words(f"{RUNNING} {1 + p}", 36.0, 30.0), body(p))
                         for p in range(1, 4)]]

    assert headers(issue(SIZE))[0] == ["1", "The", "Gazette", "Founded", "1887", "in",
                                       "Springfield", "Monday,", "May", "4,", "2020"]
    assert headers(issue(12.0))[0] == ["1", "The", "Gazette", "Monday,", "May", "4,", "2020"]


def test_furniture_masthead_min_run() -> None:
    """With furniture_masthead_min_run 5 the dateline's run of four words is too short."""
    pages = dateline_issue("Springfield, Monday, May 4, 2020")
    found = find_furniture(pages, CONFIG.replace(furniture_masthead_min_run=5))[0]
    assert texts(pages[0], found.header) == ["1"]


# --------------------------------------------------------------------------- notices, held lines


def notice_document(notice: Sequence[str], gap: float) -> list[Page]:
    """Four pages with a running footer and a body from 100 pt; the first page has no
    running header but, from 20 pt, the lines of ``notice`` in 6 pt type 7 pt apart,
    then ``gap`` points of white space, then its title (12 pt) and body."""
    top = 20.0 + 7.0 * len(notice) + gap
    first = page(*[words(text, 36.0, 20.0 + 7.0 * k, size=6.0) for k, text in enumerate(notice)],
                 words("A Title", 36.0, top, size=12.0), body(0, top=top + 20.0, count=35))
    rest = [page(words(f"The Gazette {1 + p}", 250.0, 30.0), body(p)) for p in range(1, 4)]
    return [first, *rest]


NOTICE = ("Journal of Things (2014), 26:1, 147-154 published open access under the",
          "terms of the licence below; permission is needed for commercial re-use of",
          "this article, which is distributed by the Society of Things and its press.",
          "doi:10.1017/S1041610213001804")


def test_furniture_notice_block_over_first_page_title() -> None:
    """A block of small lines close together above where the pages' text block begins
    (a licence notice over a first page's title), parted from the title by a clear gap,
    is header as a whole, although its last lines reach into the text block; the title
    stays body."""
    pages = notice_document(NOTICE, gap=6.0)
    found = headers(pages)[0]
    assert found == [w for text in NOTICE for w in text.split()]


def test_furniture_notice_block_needs_clear_gap_and_lines() -> None:
    """Without a clear gap before the title the block is body; with
    furniture_block_max_lines 3 its four lines are not all looked at, and it is body."""
    assert headers(notice_document(NOTICE, gap=1.0))[0] == []
    pages = notice_document(NOTICE, gap=6.0)
    found = find_furniture(pages, CONFIG.replace(furniture_block_max_lines=3))[0]
    assert texts(pages[0], found.header) == []


def test_furniture_running_header_held_over_table_right_under_it() -> None:
    """A running header (two lines) that stands apart from the body on the next page is
    header on the first too, where a table starts right under it at the usual line
    spacing; a header line repeated on no page apart from its body stays body."""
    header = ("Official 2008 Abstract", "4/8/2010")
    pages = [page(words(header[0], 36.0, 20.0), words(header[1], 36.0, 30.0),
                  body(p, top=40.0 if p == 0 else 120.0, count=30)) for p in range(2)]
    assert headers(pages) == [["Official", "2008", "Abstract", "4/8/2010"]] * 2
    tight = [page(words(header[0], 36.0, 20.0), words(header[1], 36.0, 30.0),
                  body(p, top=40.0, count=30)) for p in range(2)]
    assert headers(tight) == [[], []]


def test_furniture_line_carrying_its_page_number_without_repeat() -> None:
    """The second page of two carries a running header the first (a masthead page)
    does not: set apart from the body and ending with the page's own number after
    three words and more, it is header; a heading 'Chapter 2' is not, nor a line at
    the usual spacing of the body."""
    def pair(line: str, gap: float) -> list[Page]:
        return [page(words("THE NEW TIMES", 36.0, 30.0, size=30.0), body(0, top=80.0)),
                page(words(line, 36.0, 30.0), body(1, top=38.0 + gap))]

    found = find_furniture(pair("The New Times: 24 SEP 2015 2", 20.0), CONFIG)[1]
    assert found.header == frozenset(range(7))
    assert find_furniture(pair("Chapter 2", 20.0), CONFIG)[1].header == frozenset()
    assert find_furniture(pair("The New Times: 24 SEP 2015 2", 2.0), CONFIG)[1].header \
        == frozenset()


def test_furniture_header_takes_lines_reaching_into_it() -> None:
    """A repeated header line ('THE GAZETTE 12') takes the line that reaches into it
    (a section name set large whose top touches it, different on every page); a body
    line set apart under it does not join it."""
    sections = ("Editorial", "Opinion", "Letters", "Sport")
    pages = [page(words(f"THE GAZETTE {12 + p}", 250.0, 20.0),
                  words(sections[p], 36.0, 28.0, size=20.0), body(p, top=80.0))
             for p in range(4)]
    assert headers(pages) == [["THE", "GAZETTE", str(12 + p), sections[p]] for p in range(4)]
    apart = [page(words(f"THE GAZETTE {12 + p}", 250.0, 20.0),
                  words(sections[p], 36.0, 40.0, size=20.0), body(p, top=80.0))
             for p in range(4)]
    assert headers(apart) == [["THE", "GAZETTE", str(12 + p)] for p in range(4)]


# --------------------------------------------------------------------------- DCR's parameters


def section_headers() -> list[Page]:
    """Eight pages whose running header names the section, which changes every two
    pages: each header repeats on one neighbour only, too few pages for the share rule."""
    return [page(words(f"{20 + p} {1 + p // 2}.1. SECTION {'ABCD'[p // 2]}LPHA", 36.0, 30.0),
                 body(p)) for p in range(8)]


def test_furniture_header_repeating_on_neighbour_page_found() -> None:
    """DCR's rule: a header within furniture_max_distance edits of a header on the
    previous or next page is furniture; the first and last pages compare with their
    one neighbour."""
    found = headers(section_headers())
    assert found == [[str(20 + p), f"{1 + p // 2}.1.", "SECTION", f"{'ABCD'[p // 2]}LPHA"]
                     for p in range(8)]


def test_furniture_max_distance() -> None:
    """Headers one letter apart from page to page (the share rule made exact, so that
    only the edit distance decides; set larger than the body, so that they are no
    running head placed alike) are furniture with the default distance, not with
    furniture_max_distance 0."""
    exact = CONFIG.replace(furniture_min_similarity=100.0)
    pages = [page(words(f"{20 + p} SECTION {'ABCDEFGH'[p]}LPHA", 36.0, 30.0, size=10.0),
                  body(p)) for p in range(8)]

    def found(config: LayoutConfig) -> list[list[str]]:
        return [texts(p, f.header) for p, f in zip(pages, find_furniture(pages, config),
                                                    strict=True)]

    assert found(exact) == [[str(20 + p), "SECTION", f"{'ABCDEFGH'[p]}LPHA"] for p in range(8)]
    assert found(exact.replace(furniture_max_distance=0)) == [[]] * 8


def test_furniture_line_header_and_footer_max_lines() -> None:
    """Two repeated header lines are both furniture, unless line_header_max_lines is 1;
    line_footer_max_lines limits the footer alike."""
    pages = [page(words(f"The Gazette {12 + p}", 250.0, 20.0), words("City of Nowhere", 250.0,
                                                                     32.0),
                  body(p), words("Printed on recycled paper", 200.0, 760.0),
                  words(f"Page {p + 1}", 280.0, 772.0)) for p in range(4)]
    both = find_furniture(pages, CONFIG)
    assert [len(f.header) for f in both] == [6] * 4
    assert [len(f.footer) for f in both] == [6] * 4
    one = find_furniture(pages, CONFIG.replace(line_header_max_lines=1, line_footer_max_lines=1))
    assert [texts(p, f.header) for p, f in zip(pages, one, strict=True)] == [
        ["The", "Gazette", str(12 + p)] for p in range(4)]
    assert [texts(p, f.footer) for p, f in zip(pages, one, strict=True)] == [
        ["Page", str(p + 1)] for p in range(4)]


def test_furniture_roman_page_numbers_match() -> None:
    """Front-matter headers numbered in Roman numerals match from page to page."""
    pages = [page(words(f"Preface {roman}", 250.0, 30.0), body(p))
             for p, roman in enumerate(["iii", "iv", "v", "vi"])]
    assert headers(pages) == [["Preface", r] for r in ["iii", "iv", "v", "vi"]]


_SWAPPED = ("Annals Society Review Quarterly", "Quarterly Review Society Annals",
            "Society Quarterly Annals Review")
"""One header in three orders of its words: the same line to the token-sort ratio, too
far apart in edits to repeat the neighbouring pages'."""


def swapped_header(k: int) -> list[Word]:
    """The ``k``-th header, its words in one of three orders (another than the next two
    headers' and the previous two's), set close enough to the body to stand in the text
    block."""
    return words(_SWAPPED[k % 3], 200.0, 82.0)


def test_furniture_parity_follows_page_labels_across_a_plate() -> None:
    """A header on the even-numbered pages only, recurring on too few pages overall
    (furniture_min_share 0.6), is found on all of them by the parity of the page labels,
    though an unnumbered plate after page 6 throws the parity of the file out."""
    labels = [str(n) for n in range(1, 7)] + ["Plate"] + [str(n) for n in range(7, 13)]
    pages = [page(swapped_header(int(label) // 2) if label.isdigit() and int(label) % 2 == 0
                  else [], body(k)) for k, label in enumerate(labels)]
    config = CONFIG.replace(furniture_min_share=0.6)

    def found(labelled: list[str] | None) -> list[str]:
        return [label for label, p, f in zip(labels, pages, find_furniture(pages, config, labelled),
                                             strict=True) if texts(p, f.header)]

    assert found(labels) == ["2", "4", "6", "8", "10", "12"]
    assert found(None) == []


def test_furniture_share_counted_within_a_window_of_pages() -> None:
    """A header on the first 8 of 30 pages recurs on too few of them (furniture_min_share
    0.6), but on enough of the pages within a window of 9, except on the eighth page,
    whose window (pages 4-12) holds it on 4 other pages of 8."""
    pages = [page(swapped_header(k) if k < 8 else [], body(k)) for k in range(30)]
    config = CONFIG.replace(furniture_min_share=0.6)

    def found(window: int) -> list[int]:
        return [k for k, (p, f) in enumerate(zip(pages, find_furniture(
            pages, config.replace(furniture_window_pages=window)), strict=True))
            if texts(p, f.header)]

    assert found(201) == []
    assert found(9) == list(range(7))


@pytest.mark.parametrize(("label", "parity"), [("12", 0), ("A-7", 1), ("xiv", 0), ("ix", 1),
                                               ("Plate", None), ("", None)])
def test_furniture_parity_of_page_label(label: str, parity: int | None) -> None:
    """A page's parity is that of the number its label ends with, Arabic or Roman."""
    assert edge_lines([], HEIGHT, CONFIG, label).parity == parity


@pytest.mark.parametrize("folio", ["S1984", "H596", "A-12", "12a"])
def test_furniture_lettered_folio_header_set_larger_on_one_page(folio: str) -> None:
    """A folio with a letter before or after it, beside a running title and a date,
    set larger than a closely set body and parted from it by far more than the body's
    own spacing (yet less than its own size's clear gap) is furniture on a page alone."""
    line = [*words(folio, 36.0, 20.0, size=12.0),
            *words("CONGRESSIONAL RECORD", 200.0, 20.0, size=12.0),
            *words("March 20, 2013", 480.0, 20.0, size=12.0)]
    close = [w for k in range(40) for w in words(f"line {k} of the closely set body text",
                                                   36.0, 37.5 + 9.0 * k)]
    document = [page(line, close)]
    found = find_furniture(document, CONFIG)[0]
    assert texts(document[0], found.header) == [w.text for w in line]


def test_furniture_header_at_body_spacing_is_body() -> None:
    """The same line at the body's own spacing stays body: standing apart takes more
    white space than the body's lines have between them."""
    line = [*words("S1984", 36.0, 20.0, size=12.0),
            *words("CONGRESSIONAL RECORD", 200.0, 20.0, size=12.0)]
    close = [w for k in range(40) for w in words(f"line {k} of the body", 36.0,
                                                   33.0 + 9.0 * k)]
    assert find_furniture([page(line, close)], CONFIG)[0].header == frozenset()


@pytest.mark.parametrize(("size", "gap", "found"), [
    (6.5, 32.0, True),   # a proof stamp in small type far under the text
    (6.5, 10.0, False),  # a footnote close under the text
    (8.0, 32.0, False),  # a last body line at the usual size
])
def test_furniture_small_stamp_at_the_foot_of_a_short_document(size: float, gap: float,
                                                               found: bool) -> None:
    """On a page with too few others to show its text block, its last line is a stamp
    when set smaller than the usual size and parted from the text by
    ``furniture_stamp_gap_em`` of its size."""
    text = body(1, top=340.0)  # 40 lines ending at 738
    stamp = words("VerDate Mar 15 2010 07:23 Jkt 029060 PO 00000 Frm 00018", 36.0,
                  738.0 + gap, size=size)
    document = [page(text, stamp)]
    footer = find_furniture(document, CONFIG)[0].footer
    assert texts(document[0], footer) == ([w.text for w in stamp] if found else [])


@pytest.mark.parametrize(("bars", "found"), [
    ((1.0, 8.0), True),      # bars between the pieces: an address, an e-mail, a number
    ((20.0, 30.0), False),   # a rule running down past the line: a chart's axis
])
def test_furniture_stamp_with_bars_between_its_pieces(bars: tuple[float, float],
                                                      found: bool) -> None:
    """A small line far under a short document's text stays a stamp when the rules drawn
    beside its words are bars standing between them ('ARN 354404 | contact@fund.example
    | +91 8999378754'); a rule running down past it makes it a chart's label."""
    text = body(1, top=340.0)  # 40 lines ending at 738
    top = 738.0 + 32.0
    stamp = [*words("ARN 354404", 36.0, top, size=6.5),
             *words("contact@fund.example", 120.0, top, size=6.5),
             *words("+91 8999378754", 240.0, top, size=6.5)]
    rules = [(Rule(BBox(x, top - bars[0], x + 0.5, top + bars[1])),) for x in (110.0, 230.0)]
    document = [page(text, stamp)]
    footer = find_furniture(document, CONFIG, rules=[tuple(r for rule in rules for r in rule)]
                            )[0].footer
    assert texts(document[0], footer) == ([w.text for w in stamp] if found else [])


@pytest.mark.parametrize(("gap", "size", "found"), [
    (40.0, 6.5, True),   # the section's name under a report's header bar
    (40.0, 8.0, False),  # a line at the usual size: a title
    (12.0, 6.5, False),  # close over the text: its caption or byline
])
def test_furniture_small_line_under_running_header_of_a_short_document(
        gap: float, size: float, found: bool) -> None:
    """On a document too short to show its text block, the line right under a running
    header (a section's name that repeats on no other page), set smaller than the usual
    size and parted from the text by ``furniture_stamp_gap_em`` of its size, is header
    too."""
    running = [*words("Annual Report 2023", 36.0, 20.0), *words("7", 560.0, 20.0)]
    pages = [page(running if p == 0 else [*running[:-1], *words("8", 560.0, 20.0)],
                  words(("Letter to the shareholders", "Report of the board")[p], 36.0,
                        40.0, size=size),
                  body(p, top=40.0 + size + gap)) for p in range(2)]
    header = find_furniture(pages, CONFIG)[0].header
    assert texts(pages[0], header) == ["Annual", "Report", "2023", "7"] + (
        ["Letter", "to", "the", "shareholders"] if found else [])


def vertical_page(margin: list[Word]) -> Page:
    """A page of vertical writing, 516 by 728 pt: fourteen columns of 14 pt type from
    x = 77 to 455, 14 pt apart, and the ``margin`` words."""
    text = "天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往秋收冬藏閏餘成歲律呂調陽雲騰致雨"
    columns = [Word(text[k:] + text[:k], BBox(77.0 + 28.0 * k, 180.0, 91.0 + 28.0 * k,
                                              669.0), "F", 14.0, 270) for k in range(14)]
    return [*columns, *margin], 516.0, 728.0


def column(text: str, x0: float, top: float, size: float = 9.0) -> Word:
    """A word of vertical writing set from ``top`` down at ``x0``: a character an em."""
    return Word(text, BBox(x0, top, x0 + size, top + size * len(text)), "F", size, 270)


@pytest.mark.parametrize(("margin", "edge"), [
    ([column("脂硯齋重評石頭記", 466.0, 223.0), column("六（第二頁）", 466.0, 545.0)],
     "header"),
    ([column("五（第一頁）", 40.0, 545.0)], "footer"),
])
def test_furniture_folio_beside_vertical_columns(margin: list[Word], edge: str) -> None:
    """On a page of vertical writing, the column in the right (left) margin beside the
    text, set smaller, that holds a folio alone or beside a running title is its
    running head (foot), found where the columns read as lines."""
    document = [vertical_page(margin)]
    found = find_furniture(document, CONFIG)[0]
    assert texts(document[0], getattr(found, edge)) == [w.text for w in margin]


@pytest.mark.parametrize("margin", [
    [column("脂硯齋重評石頭記", 466.0, 223.0)],  # a running title without its folio
    [column("脂硯齋重評石頭記", 469.0, 223.0, 14.0),
     column("六", 469.0, 545.0, 14.0)],  # a column of the text, at its size and spacing
])
def test_furniture_vertical_column_without_folio_apart_is_body(margin: list[Word]) -> None:
    """A margin column without a folio, or one set as the text is, is not taken."""
    found = find_furniture([vertical_page(margin)], CONFIG)[0]
    assert found.header == found.footer == frozenset()


# --------------------------------------------------------------------------- charts at a page's top


def chart_document(axis: bool) -> tuple[list[Page], list[list[Rule]]]:
    """Four pages with a running footer, the body from 100 pt; the third page opens
    with a chart over its body, from 20 pt: its tick labels ('0 10 20 30 40') and its
    axis's title in 6 pt type under it, then the body 30 pt lower; with ``axis``, the
    chart's axis and tick marks run down beside the labels."""
    pages, rules = [], []
    for p in range(4):
        parts = [words(f"Page {p + 1} of 4", 280.0, 770.0)]
        drawn: list[Rule] = []
        if p == 2:
            parts += [words("0 10 20 30 40", 60.0, 40.0, size=6.0),
                      words("t (s)", 90.0, 47.0, size=6.0)]
            if axis:
                drawn = [Rule(BBox(60.0 + 12.0 * k, 20.0, 60.5 + 12.0 * k, 39.0))
                         for k in range(5)]
        parts.append(body(p, top=BODY_TOP))
        pages.append(page(*parts))
        rules.append(drawn)
    return pages, rules


@pytest.mark.parametrize(("axis", "typed"), [
    (True, []),  # the chart's labels
    (False, ["0", "10", "20", "30", "40", "t", "(s)"]),  # small lines alone: an imprint
])
def test_furniture_chart_labels_at_a_pages_top(axis: bool, typed: list[str]) -> None:
    """Small lines standing beyond the text block at a page's top are an imprint
    (header) alone, but a chart's labels where the chart's rules run down beside them:
    body, as the chart is."""
    pages, rules = chart_document(axis)
    found = find_furniture(pages, CONFIG, rules=rules)[2]
    assert texts(pages[2], found.header) == typed


def test_furniture_row_of_numbers_is_no_page_number() -> None:
    """A bare page number is one number among marks ('- 3 -', 'Page 3 of 40'); a row of
    numbers ('20 10 0 10 20', a chart's ticks) is none."""
    from layoutkit.geometry.furniture import _PAGE_NUMBER

    assert [bool(_PAGE_NUMBER.match(mask_numbers(text))) for text in
            ("3", "- 3 -", "Page 3 of 40", "(iv)", "20 10 0 10 20", "1 2")] == [
        True, True, True, True, False, False]


@pytest.mark.parametrize(("folio", "found"), [
    ("Page 1 of 9", True),    # a page number named as one
    ("Página 1 de 9", True),  # in Spanish
    ("1", False),             # a bare number: a list's number, a table's cell
])
def test_furniture_named_page_number_under_a_display_title(folio: str, found: bool) -> None:
    """On a page alone, a page number named as one ('Página 1 de 9') standing apart under
    a display title that repeats nowhere is furniture, though the title stops the run
    from the edge; a bare number there stays body."""
    title = words("Honorable Chamber of Deputies", 36.0, 20.0, size=20.0)
    number = words(folio, 36.0, 50.0)
    document = [page(title, number, body(1))]
    header = find_furniture(document, CONFIG)[0].header
    assert texts(document[0], header) == ([w.text for w in number] if found else [])


@pytest.mark.parametrize(("gap", "size", "found"), [
    (28.0, SIZE, ["IJCAI-07", "2671"]),  # a conference's name and the folio, far under the text
    (28.0, 14.0, ["2671"]),              # a title set larger over the folio: the folio alone
    (2.0, SIZE, []),                     # the line over the folio is the body's last
])
def test_furniture_folio_right_under_a_line_apart_from_the_body(gap: float, size: float,
                                                                found: list[str]) -> None:
    """A bare folio 1.2 pt under a line ('2671' under 'IJCAI-07') is no body line at the
    text's edge when that line stands apart from the body: the two are a block at the
    foot, furniture both when the line is set no larger than the body, the folio alone
    when it is larger; under the body's last line the folio is body."""
    text = body(1, top=320.0)  # 40 lines ending at 718
    name = words("IJCAI-07", 250.0, 718.0 + gap, size=size)
    folio = words("2671", 280.0, 718.0 + gap + size + 1.2)
    document = [page(text, name, folio)]
    footer = find_furniture(document, CONFIG)[0].footer
    assert texts(document[0], footer) == found


@pytest.mark.parametrize(("size", "gap", "found"), [
    (6.5, 40.0, True),   # a journal's imprint in small type far over the text
    (6.5, 12.0, False),  # close over the text: a kicker, a byline
    (8.0, 40.0, False),  # at the usual size: a title
])
def test_furniture_small_line_far_over_the_text_of_a_page_alone(size: float, gap: float,
                                                                found: bool) -> None:
    """On a page alone without a running header, its first line is a stamp when set
    smaller than the usual size and parted from the text by ``furniture_stamp_gap_em``
    of its size, as its last line is at the foot ('GLIA 24:39-49 (1998)' over an
    article's first page)."""
    imprint = words("GLIA 24:39-49 (1998)", 36.0, 20.0, size=size)
    document = [page(imprint, body(1, top=20.0 + size + gap))]
    header = find_furniture(document, CONFIG)[0].header
    assert texts(document[0], header) == ([w.text for w in imprint] if found else [])


@pytest.mark.parametrize(("size", "found"), [
    (SIZE, True),       # the body's type: a running head naming each section
    (2 * SIZE, False),  # larger than the body: each page's own title
])
def test_furniture_running_head_over_a_body_starting_past_the_zone(size: float,
                                                                   found: bool) -> None:
    """Pages with one line in their top zone and one in their bottom zone show no body
    line among their candidates; the body's spacing is read from the lines right past
    the zones, so a running head that names each page's section, far over the text,
    stands apart from it and is found on pages far apart in a manual."""
    sections = ["Scope and definitions", "Organisation of safety and health",
                "Duties of the operator"]
    pages = [page(words(sections[p], 36.0, 16.0, size=size), body(p),
                  words(str(4 * p + 4), 300.0, 770.0)) for p in range(3)]
    assert headers(pages) == [sections[p].split() if found else [] for p in range(3)]
