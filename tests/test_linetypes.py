"""Unit tests of the line-typing stage on hand-built documents: comparison
functions, heading rules and their file, headings, lists, contents, outline."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from layoutkit import parse
from layoutkit.config import LayoutConfig
from layoutkit.errors import ConfigError
from layoutkit.geometry.numerals import roman_value
from layoutkit.linetypes import (
    outline,
    type_aligned_tables,
    type_headings,
    type_lines,
    type_lists,
    type_toc,
)
from layoutkit.linetypes.lines import Typed, TypedLine, retyped, style_of
from layoutkit.linetypes.rules import DEFAULT_RULES, load_rules
from layoutkit.linetypes.sequence import is_start, is_successor
from layoutkit.linetypes.tables import cells
from layoutkit.linetypes.toc import is_first_page
from layoutkit.model import BBox, Line, LineType, Page, Word
from tests.linetype_pages import BODY, BOLD, CELL, L, codes, document, line, prose

CONFIG = LayoutConfig().linetypes


# --------------------------------------------------------------------------- comparison functions


@pytest.mark.parametrize(("text", "value"), [
    ("i", 1), ("iv", 4), ("ix", 9), ("XIV", 14), ("xl", 40), ("MCMXCIX", 1999)])
def test_linetypes_roman_value(text: str, value: int) -> None:
    assert roman_value(text) == value


@pytest.mark.parametrize("text", ["", "iiii", "Iv", "vx", "abc", "12"])
def test_linetypes_roman_value_rejects(text: str) -> None:
    assert roman_value(text) is None


@pytest.mark.parametrize(("function", "previous", "current", "expected"), [
    ("string_integers", "(1)", "(2)", True),
    ("string_integers", "9.", "10.", True),
    ("string_integers", "(1)", "(3)", False),
    ("string_integers", "2", "1", False),
    ("lowercase_letters", "a)", "b)", True),
    ("lowercase_letters", "(a)", "(c)", False),
    ("lowercase_letters", "a", "B", False),
    ("uppercase_letters", "(A)", "(B)", True),
    ("uppercase_letters", "A.", "b.", False),
    ("romans", "(iv)", "(v)", True),
    ("romans", "IX.", "X.", True),
    ("romans", "(v)", "(iv)", False),
    ("romans", "(i)", "(iii)", False),
    ("string_floats", "1.2", "1.3", True),
    ("string_floats", "1.9", "1.10", True),
    ("string_floats", "1.2", "2.1", True),
    ("string_floats", "1.2", "2.2", False),
    ("string_floats", "1.2", "1.2.1", False),
    ("string_floats", "4.2.1", "4.2.2", True),
    ("strings", "Abschnitt", "Anhang", True),
    ("strings", "b", "a", False),
    ("ignore", "x", "a", True),
])
def test_linetypes_is_successor(function: str, previous: str, current: str,
                                expected: bool) -> None:
    assert is_successor(function, previous, current) is expected


@pytest.mark.parametrize(("function", "value", "starts", "expected"), [
    ("string_integers", "(1)", ("(1)",), True),
    ("string_integers", "(2)", ("(1)",), False),
    ("string_floats", "2.1", ("1.1",), True),
    ("string_floats", "2.2", ("1.1",), False),
    ("romans", "(i)", ("(i)",), True),
])
def test_linetypes_is_start(function: str, value: str, starts: tuple[str, ...],
                            expected: bool) -> None:
    assert is_start(function, value, starts) is expected


# --------------------------------------------------------------------------- heading rules


def test_linetypes_default_rules_match_first_word() -> None:
    """The first default rule that matches a word is the expected one."""
    def rule_of(word: str) -> str:
        return next(r.name for r in DEFAULT_RULES if r.matches((word, "Title")) is not None)

    assert [rule_of(w) for w in ("(1)", "(B)", "(IV)", "(c)", "(ix)", "3)", "1.2", "1.2.3",
                                 "4.", "7", "II.", "B.", "b.")] == [
        "(999)", "(A)", "(ROM)", "(a)", "(rom)", "999)", "999.999", "999.999.999", "999.",
        "999", "ROM.", "A.", "a."]


def test_linetypes_rules_file_read(tmp_path: Path) -> None:
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"lineTypeHeadingRules": [
        {"name": "Part", "isFirstToken": False, "regexp": r"Part \d+",
         "functionIsAsc": "string_integers", "startValues": ["Part 1"]}]}))
    (rule,) = load_rules(path)
    assert (rule.name, rule.is_first_token, rule.function_is_asc, rule.start_values) == (
        "Part", False, "string_integers", ("Part 1",))
    assert rule.matches(("Part", "2", "Money")) == "Part 2"
    assert rule.matches(("Partial", "2")) is None


@pytest.mark.parametrize(("content", "message"), [
    ("{", "not JSON"),
    ("[]", "non-empty list 'lineTypeHeadingRules'"),
    ('{"lineTypeHeadingRules": [{"name": "x"}]}', "rule 1: expected exactly the keys"),
    ('{"lineTypeHeadingRules": [{"name": "x", "isFirstToken": true, "regexp": "a",'
     ' "functionIsAsc": "sideways", "startValues": []}]}', "functionIsAsc one of"),
    ('{"lineTypeHeadingRules": [{"name": "x", "isFirstToken": true, "regexp": "(",'
     ' "functionIsAsc": "romans", "startValues": []}]}', "rule 1: bad regexp"),
])
def test_linetypes_rules_file_errors_name_file(tmp_path: Path, content: str,
                                               message: str) -> None:
    path = tmp_path / "rules.json"
    path.write_text(content)
    with pytest.raises(ConfigError, match=message) as error:
        load_rules(path)
    assert str(path) in str(error.value)


def test_linetypes_rules_file_missing(tmp_path: Path) -> None:
    config = CONFIG.replace(heading_rules_file=str(tmp_path / "none.json"))
    with pytest.raises(ConfigError, match=r"none\.json.*cannot read"):
        type_headings(document(prose(100, 0, 3, "a")), config)


# --------------------------------------------------------------------------- headings


def numbered() -> list[list[L]]:
    """Two pages of a report numbered 1 / 1.1 / 1.2 / 2 / 2.1 in bold larger type."""
    return [
        [L("1 Introduction", 72, 0, 14, BOLD), *prose(100, 1, 4, "p1a"),
         L("1.1 Scope", 160, 2, 12, BOLD), *prose(180, 3, 4, "p1b"),
         L("1.2 Terms", 240, 4, 12, BOLD), *prose(260, 5, 4, "p1c")],
        [L("2 Methods", 72, 0, 14, BOLD), *prose(100, 1, 4, "p2a"),
         L("2.1 Data", 160, 2, 12, BOLD), *prose(180, 3, 4, "p2b"),
         L("Remarks", 240, 4, 12, BOLD), *prose(260, 5, 4, "p2c")],
    ]


def test_linetypes_numbered_headings_levelled() -> None:
    typed = codes(type_headings(document(*numbered()), CONFIG))
    assert [(c, t) for c, t in typed if c != "b"] == [
        ("h_1", "1 Introduction"), ("h_2", "1.1 Scope"), ("h_2", "1.2 Terms"),
        ("h_1", "2 Methods"), ("h_2", "2.1 Data"), ("h_2", "Remarks")]


def test_linetypes_heading_rule_on_one_page_is_not_a_hierarchy() -> None:
    """With heading_min_pages 3 the numbered rules (on two pages) do not count: the
    headings are levelled by typography alone."""
    typed = codes(type_headings(document(*numbered()), CONFIG.replace(heading_min_pages=3)))
    assert [c for c, _ in typed if c != "b"] == ["h_1", "h_2", "h_2", "h_1", "h_2", "h_2"]


def test_linetypes_heading_max_level() -> None:
    typed = codes(type_headings(document(*numbered()), CONFIG.replace(heading_max_level=1)))
    assert [t for c, t in typed if c != "b"] == ["1 Introduction", "2 Methods"]


def test_linetypes_heading_number_out_of_sequence_levelled_by_type() -> None:
    """"1.5" does not follow "1.1": it is no rule heading but keeps the level of its style."""
    pages = numbered()
    pages[0][6] = L("1.5 Terms", 240, 4, 12, BOLD)
    typed = dict((t, c) for c, t in codes(type_headings(document(*pages), CONFIG)))
    assert typed["1.5 Terms"] == "h_2"


def test_linetypes_body_line_in_body_font_is_no_heading() -> None:
    """A short line of the body font after a gap, and a bold line without space
    above it, are body."""
    page = [*prose(72, 0, 3, "a"), L("Short line", 130, 1), *prose(142, 1, 2, "b"),
            L("Bold but inline", 166, 1, 10, BOLD), *prose(178, 1, 2, "c")]
    assert {c for c, _ in codes(type_headings(document(page), CONFIG))} == {"b"}


def test_linetypes_heading_in_capitals_at_the_body_size() -> None:
    """A line in capitals after space, in the body's font, heads the text under it; a
    line of the body's font in capitals that runs on from the line above does not."""
    page = [*prose(72, 0, 3, "a"), L("2. RESULTS AND DISCUSSION", 120, 1),
            *prose(134, 1, 3, "b"), L("SEE ALSO THE TABLE", 170, 1), *prose(182, 1, 2, "c")]
    typed = codes(type_headings(document(page), CONFIG))
    assert [(c, t) for c, t in typed if c != "b"] == [("h_1", "2. RESULTS AND DISCUSSION")]


@pytest.mark.parametrize("text", [
    f"Current price {CELL} 62p", f"85,508 MW {CELL} 85,116 MW", "TOTAL TURNOUT: 81.96%",
    "Fig. 3. The measured spectrum", "“Section 4: Definitions", "Figures In bold lead",
    "$3.3 billion", "Dear shareholders,", "Cari lettori,"])
def test_linetypes_not_one_phrase_is_no_heading(text: str) -> None:
    """A label and its value in cells, figures side by side, a field and its figure, a
    caption, quoted text opening on the line, a line whose first words are bold and
    the rest regular, a figure and its unit, and a phrase running on past a comma (a
    salutation) are no headings, set in 12 pt bold over 10 pt text or not."""
    first = "Times-Bold" if text.startswith("Figures") else None
    font = "Times-Roman" if first else BOLD
    page = [*prose(72, 0, 3, "a"), L(text, 120, 1, 12, font, first_font=first),
            *prose(140, 2, 3, "b")]
    assert {c for c, _ in codes(type_headings(document(page), CONFIG))} == {"b"}


def test_linetypes_salutation_under_a_heading_in_its_style_is_left_out() -> None:
    """A heading set in the style of the salutation right under it keeps its type; the
    salutation, ending with a comma, is no line of it and no heading."""
    page = [*prose(72, 0, 3, "a"), L("Letter from the Chair", 120, 1, 12, BOLD),
            L("Dear members,", 134, 1, 12, BOLD), *prose(154, 2, 3, "b")]
    typed = codes(type_headings(document(page), CONFIG))
    assert [(c, t) for c, t in typed if c != "b"] == [("h_1", "Letter from the Chair")]


def test_linetypes_heading_with_its_number_set_apart() -> None:
    """A heading whose section number stands apart before it, or a chapter's number
    after it, past a cell's gap, is a heading."""
    page = [*prose(72, 0, 3, "a"), L(f"3.5 {CELL} Metaclustering", 120, 1, 12, BOLD),
            *prose(140, 2, 3, "b"), L(f"Breeds {CELL} 1", 190, 3, 12, BOLD),
            *prose(210, 4, 3, "c")]
    typed = codes(type_headings(document(page), CONFIG))
    assert [t for c, t in typed if c != "b"] == ["3.5 Metaclustering", "Breeds 1"]


def test_linetypes_kicker_over_its_headline_is_no_heading() -> None:
    """A 10 pt bold kicker right over its 16 pt headline on a second page (not a
    title's): the headline is the heading."""
    page = [*prose(72, 0, 3, "a"), L("PICTURE OF THE WEEK", 120, 1, 10, BOLD),
            L("Moving slowly in a city", 132, 1, 16, BOLD), *prose(160, 2, 3, "b")]
    typed = codes(type_headings(document(prose(72, 0, 5, "p"), page), CONFIG))
    assert [t for c, t in typed if c != "b"] == ["Moving slowly in a city"]


def test_linetypes_label_beside_a_row_of_figures_is_a_heading() -> None:
    """A 10 pt bold label set at the left of a row of 28 pt figures that starts right
    under it, further right (an impact report's 'IMPACT SNAPSHOT' beside '20 35 9'):
    no kicker, as nothing of the larger line stands under it, so it heads the row."""
    page = [*prose(72, 0, 3, "a"), L("IMPACT SNAPSHOT", 120, 1, 10, BOLD),
            L("20 35 9", 132, 1, 28, x0=200.0), *prose(170, 2, 3, "b")]
    typed = codes(type_headings(document(prose(72, 0, 5, "p"), page), CONFIG))
    assert "IMPACT SNAPSHOT" in [t for c, t in typed if c.startswith("h_")]


def test_linetypes_wrapped_heading_joined_in_outline() -> None:
    page = [L("A Long Title That", 72, 0, 16, BOLD), L("Wraps Over Two Lines", 90, 0, 16, BOLD),
            *prose(120, 1, 5, "x"), L("Next Part", 200, 2, 16, BOLD), *prose(230, 3, 3, "y")]
    doc = type_headings(document(page), CONFIG)
    assert [(h.level, h.text, h.page_no) for h in outline(doc)] == [
        (1, "A Long Title That Wraps Over Two Lines", 1), (1, "Next Part", 1)]
    first = outline(doc, context=2)[0]
    assert first.context == ("ordinary body text x 0 of the page that runs on",
                             "ordinary body text x 1 of the page that runs on")


@pytest.mark.parametrize("label", ["(a) (b) (c)", "a b c", "Рис. 1", "Table 3"])
def test_linetypes_what_labels_a_figure_is_no_heading(label: str) -> None:
    """A figure's panel letters in bold over its panels, or a caption's label alone on
    its line over the legend, is no heading; a bold heading set so is."""
    page = [*prose(72, 0, 3, "a"), L(label, 120, 1, 10, BOLD), *prose(140, 2, 3, "b"),
            L("Results and Methods", 200, 3, 10, BOLD), *prose(220, 4, 3, "c")]
    typed = codes(type_headings(document(prose(72, 0, 5, "p"), page), CONFIG))
    assert [t for c, t in typed if c.startswith("h_")] == ["Results and Methods"]


def test_linetypes_bold_line_with_a_raised_call_is_bold() -> None:
    """A bold title's note call, raised after its last word and drawn from a symbol
    font of another weight ('réels†'), leaves the line bold; a word of another weight
    on the baseline does not."""
    def styled(last: Word) -> bool:
        words = (Word("et", BBox(72.0, 100.0, 90.0, 117.2), "Times-Bold", 17.2, weight=700),
                 Word("réels", BBox(94.0, 100.0, 140.0, 117.2), "Times-Bold", 17.2,
                      weight=700), last)
        built = Line("et réels " + last.text, BBox.union(w.bbox for w in words), words,
                     1, 0, 0, 0)
        return style_of(TypedLine((0, 0), built, tuple(w.text for w in words)))[1]
    assert styled(Word("†", BBox(141.0, 98.0, 147.0, 110.0), "CMSY10", 12.0, weight=200))
    assert not styled(Word("†", BBox(141.0, 105.2, 147.0, 117.2), "CMSY10", 12.0, weight=200))
    assert not styled(Word("réels", BBox(141.0, 100.0, 180.0, 117.2), "Times-Roman", 17.2,
                           weight=400))


def test_linetypes_heading_over_its_first_subsection_is_two_in_outline() -> None:
    """A section's heading with its first subsection's right under it, both bold in one
    size, more than an em apart ('II. THEORY' over 'A. Collision Model'): two headings,
    not one wrapped over two lines."""
    page = [*prose(72, 0, 3, "a"), L("II. THEORY", 120, 1, 10, BOLD),
            L("A. Collision Model", 143, 2, 10, BOLD), *prose(160, 3, 3, "b")]
    doc = type_headings(document(prose(72, 0, 5, "p"), page), CONFIG)
    assert [h.text for h in outline(doc)] == ["II. THEORY", "A. Collision Model"]


def test_linetypes_heading_above_a_paragraph_in_its_style() -> None:
    """A gazette sets an ordinance's number and its title in one bold, tight under
    each other: the number (a short line after space, before lines that fill the
    column) is the heading, the title is not; the next number after space is one
    too, though the line above it is in its style."""
    title = [L(f"ordinary body text t{k} of the page that runs on", 132 + 12 * k, 1, 10, BOLD)
             for k in range(5)]
    page = [*prose(72, 0, 3, "a"), L("File No. 12-16.", 120, 1, 10, BOLD), *title,
            L("ends the title.", 192, 1, 10, BOLD), L("Ord. No. 13-16.", 216, 2, 10, BOLD),
            *[L(x.text, x.top + 96, 2, 10, BOLD) for x in title], *prose(294, 3, 3, "b")]
    typed = codes(type_headings(document(page), CONFIG))
    assert [(c, t) for c, t in typed if c != "b"] == [
        ("h_1", "File No. 12-16."), ("h_1", "Ord. No. 13-16.")]


def test_linetypes_heading_style_on_few_pages_opens_no_level() -> None:
    """A nameplate (20 pt) and a one-page 16 pt title above the 12 pt headings of
    both pages.  By default the nameplate, one heading on the first page, opens no
    level, the supplement's title on page 2 does, shared with it as display type: the
    12 pt parts are level 2.  Where every style opens a level (one heading is enough,
    no display type) the parts sink below both; with heading_style_min_pages 2 the
    one-page 16 pt style takes the nameplate's level instead of pushing them one
    deeper."""
    pages = [[L("Gazette Nameplate", 72, 0, 20, BOLD), *prose(100, 1, 3, "a"),
              L("Regular Part", 150, 2, 12, BOLD), *prose(172, 3, 3, "b")],
             [L("Special Supplement", 72, 0, 16, BOLD), *prose(100, 1, 3, "c"),
              L("Another Part", 150, 2, 12, BOLD), *prose(172, 3, 3, "d")]]
    each = CONFIG.replace(heading_style_min_headings=1, heading_display_size_ratio=99.0)
    levels = [[c for c, _ in codes(type_headings(document(*pages), config)) if c != "b"]
              for config in (CONFIG, each, each.replace(heading_style_min_pages=2))]
    assert levels == [["h_1", "h_2", "h_1", "h_2"], ["h_1", "h_3", "h_2", "h_3"],
                      ["h_1", "h_2", "h_1", "h_2"]]


def _headed(*headings: tuple[str, float]) -> list[L]:
    """A page of bold headings, given by text and size, each over two lines of prose."""
    page: list[L] = []
    top = 72.0
    for k, (text, size) in enumerate(headings):
        page += [L(text, top, 2 * k, size, BOLD), *prose(top + size + 6, 2 * k + 1, 2, f"p{k}")]
        top += size + 6 + 24 + 16
    return page


def _typed_headings(page: list[L]) -> list[tuple[str, str]]:
    return [(c, t) for c, t in codes(type_headings(document(page), CONFIG)) if c != "b"]


def test_linetypes_display_headlines_share_a_level() -> None:
    """Headlines in display sizes (28, 20 and 16 pt over a 10 pt body, each story's
    set by how much it matters) are all level 1, their 10 pt bold sub-headings
    level 2."""
    assert _typed_headings(_headed(
        ("Main Story Headline", 28), ("A Sub Heading", 10), ("Second Story", 20),
        ("Third Story", 16), ("Another Sub Heading", 10), ("Fourth Story", 20))) == [
        ("h_1", "Main Story Headline"), ("h_2", "A Sub Heading"), ("h_1", "Second Story"),
        ("h_1", "Third Story"), ("h_2", "Another Sub Heading"), ("h_1", "Fourth Story")]


def test_linetypes_chapters_in_the_body_font_by_their_ascending_numbers() -> None:
    """A law sets "CAPÍTULO I" and its title centred in the body's font, tight under
    the text above: numbered in sequence (I, II), each with its title line, they are
    headings; a centred "Figure 3" alone has no sequence and stays body."""
    middle = (72 + line(prose(0, 0, 1, "a")[0], 1).bbox.x1) / 2

    def centred(text: str, top: float, block: int) -> L:
        width = line(L(text, top, block), 1).bbox.x1 - 72
        return L(text, top, block, x0=middle - width / 2)
    page = [*prose(72, 0, 2, "a"), centred("CAPÍTULO I", 96, 0), centred("DOS OBJETIVOS", 108, 0),
            *prose(120, 0, 2, "b"), centred("CAPÍTULO II", 144, 0),
            centred("DAS COMPETÊNCIAS", 156, 0), *prose(168, 0, 2, "c"),
            centred("Figure 3", 192, 0), *prose(204, 0, 2, "d")]
    assert _typed_headings(page) == [("h_1", "CAPÍTULO I"), ("h_1", "DOS OBJETIVOS"),
                                     ("h_1", "CAPÍTULO II"), ("h_1", "DAS COMPETÊNCIAS")]


def test_linetypes_style_heading_no_smaller_heading_opens_no_level() -> None:
    """A newsletter's 12 pt box titles head only text, its 11 pt sub-headings stand
    under the 14 pt sections: both are level 2, the 12 pt style does not push the
    11 pt one to level 3."""
    assert _typed_headings(_headed(
        ("Board Members", 12), ("Members at Large", 12), ("Treasurer Corner", 14),
        ("Disbursements", 11), ("Deposits", 11), ("Schedule of Events", 14))) == [
        ("h_2", "Board Members"), ("h_2", "Members at Large"), ("h_1", "Treasurer Corner"),
        ("h_2", "Disbursements"), ("h_2", "Deposits"), ("h_1", "Schedule of Events")]


def test_linetypes_section_number_depth_levels_without_a_rule() -> None:
    """Sections and a sub-section set alike on one page (too few pages for the
    numbering rules to count): "1.1" is one level below "1" and "2" by its depth."""
    assert _typed_headings(_headed(
        ("1 Introduction", 12), ("1.1 Scope of the work", 12), ("2 Methods", 12))) == [
        ("h_1", "1 Introduction"), ("h_2", "1.1 Scope of the work"), ("h_1", "2 Methods")]


def test_linetypes_bold_bulleted_item_is_no_heading() -> None:
    page = [*prose(72, 0, 3, "a"), L("• A BOLD ITEM", 120, 1, 10, BOLD),
            L("• ANOTHER BOLD ITEM", 132, 1, 10, BOLD), *prose(150, 2, 3, "b")]
    assert not [c for c, _ in codes(type_headings(document(page), CONFIG)) if c != "b"]


# --------------------------------------------------------------------------- lists


def test_linetypes_numbered_list_with_continuations() -> None:
    page = [*prose(72, 0, 2, "a"),
            L("(1) the first item of the list", 110, 1), L("runs on here", 122, 1),
            L("(2) the second item", 134, 1), L("(3) the third item", 146, 1),
            L("and its last line.", 158, 1), *prose(190, 2, 2, "b")]
    typed = codes(type_lists(document(page), CONFIG))
    assert [c for c, _ in typed] == ["b", "b", "ln", "ln", "ln", "ln", "ln", "b", "b"]


def test_linetypes_lone_or_unordered_markers_are_body() -> None:
    page = [L("(a) a lone item of nothing", 72, 0), *prose(84, 0, 2, "a"),
            L("2. starts at two", 130, 1), L("3. goes on", 142, 1),
            L("(1) one", 170, 2), L("(3) three", 182, 2)]
    assert {c for c, _ in codes(type_lists(document(page), CONFIG))} == {"b"}


def test_linetypes_bullets_and_symbol_font_bullets() -> None:
    symbol = "WPTypographicSymbols"
    page = [L("• first bullet", 72, 0), L("• second bullet", 84, 0),
            *prose(110, 1, 2, "a"),
            L("! drawn from a symbol font", 150, 2, first_font=symbol),
            L("! and again", 162, 2, first_font=symbol)]
    typed = codes(type_lists(document(page), CONFIG))
    assert [c for c, _ in typed] == ["lb", "lb", "b", "b", "lb", "lb"]


def test_linetypes_dash_before_figures_is_no_bullet() -> None:
    """A dash before figures alone is a minus or a table's cell for no value
    (``— 60,721``), not a bullet; before words it is one."""
    page = [L("— 60,721", 72, 0), L("— 1,204 12.5%", 84, 0), L("— (3.2)", 96, 0),
            L("— the first dashed item", 120, 1), L("— 12 items in the second", 132, 1)]
    assert [c for c, _ in codes(type_lists(document(page), CONFIG))] == [
        "b", "b", "b", "lb", "lb"]


def test_linetypes_exclamation_in_text_font_is_no_bullet() -> None:
    page = [L("! not a bullet", 72, 0), L("! nor this", 84, 0)]
    assert {c for c, _ in codes(type_lists(document(page), CONFIG))} == {"b"}


def test_linetypes_bill_line_numbers_set_aside() -> None:
    """A page whose lines are numbered 1, 2, 3... in the margin reads its list markers
    after the numbers (the first number a word space from its heading's text, as a
    bill's indented heading has it)."""
    page = [L(f"{k + 1} {CELL if k else ''} " + text, 72 + 12 * k, 0) for k, text in enumerate([
        "SEC. 2. FINDINGS.", "(a) IN GENERAL.—Congress finds", "(1) the first finding",
        "runs on", "(2) the second finding", "runs on too"])]
    typed = codes(type_lists(document(page), CONFIG))
    assert [c for c, _ in typed] == ["b", "b", "ln", "ln", "ln", "ln"]


def test_linetypes_numbers_before_a_dash_are_items_not_line_numbers() -> None:
    """Paragraphs numbered "1 — ", "2 — "... (a space from their text, not apart in
    the margin) are numbered items, and so are Roman "I - ", "II - "."""
    page = [L(f"{k + 1} — paragraph {k + 1} of the act", 72 + 24 * k, 0) for k in range(5)]
    page += [L(f"{roman} - item {roman} of the article", 200 + 12 * k, 1)
             for k, roman in enumerate(["I", "II", "III", "IV"])]
    typed = codes(type_lists(document(page), CONFIG))
    assert [c for c, _ in typed] == ["ln"] * 9


def test_linetypes_item_goes_on_until_indentation_or_font_changes() -> None:
    """An item's next lines hang at one indentation in the item's font: a line back at
    the margin is a new paragraph, a bold line is not the item's either, though both
    stand in the item's block."""
    page = [L("1. the first item of the list", 72, 0), L("runs on here", 84, 0, x0=84),
            L("2. the second item", 96, 0), L("runs on", 108, 0, x0=84),
            L("and on", 120, 0, x0=84), L("A new paragraph at the margin", 132, 0),
            L("3. the third item", 144, 0), L("Bold Words Then", 156, 0, font=BOLD)]
    typed = codes(type_lists(document(page), CONFIG))
    assert [c for c, _ in typed] == ["ln", "ln", "ln", "ln", "ln", "b", "ln", "b"]


def test_linetypes_paragraph_at_the_margin_after_an_indented_list_is_no_item() -> None:
    """Bullets indented from the text's margin: the paragraph after the last, set
    back at the margin, left of its bullet, where its first word would have fit after
    the item, is the text's, even right after an item that closes no sentence; a line
    at the bullet's text stays the item's."""
    page = [L("• Karaoke night", 72, 0, x0=90), L("• Biggest Morning Tea", 84, 0, x0=90),
            L("The committee agreed to hold the morning tea again", 96, 0, x0=72),
            L("this year.", 108, 0)]
    assert [c for c, _ in codes(type_lists(document(page), CONFIG))] == ["lb", "lb", "b", "b"]
    page[2] = L("run by the committee", 96, 0, x0=96)
    assert [c for c, _ in codes(type_lists(document(page), CONFIG))][:3] == ["lb", "lb", "lb"]


def test_linetypes_list_min_entries() -> None:
    page = [L("1. one", 72, 0), L("2. two", 84, 0)]
    config = CONFIG.replace(lt_list_min_entries=3)
    assert {c for c, _ in codes(type_lists(document(page), config))} == {"b"}


def test_linetypes_lists_run_across_a_page_break() -> None:
    """Items chain across a page break as within a page: numbered ones by their
    numbers, bulleted ones when no line stands between the last item of one page and
    the first of the next; an item's continuation lines stay on its page."""
    config = CONFIG.replace(lt_list_min_entries=3)
    numbers = document([*prose(72, 0, 2, "a"), L("1. the first item", 110, 1),
                        L("2. the second item", 122, 1), L("runs on to the end", 134, 1)],
                       [L("3. the third item", 72, 0), *prose(96, 1, 2, "b")])
    assert [c for c, _ in codes(type_lists(numbers, config))] == [
        "b", "b", "ln", "ln", "ln", "ln", "b", "b"]
    bullets = [*prose(72, 0, 2, "a"), L("• the first item", 110, 1), L("• the second", 122, 1)]
    chained = document(bullets, [L("• the third item", 72, 0), *prose(96, 1, 2, "b")])
    assert [c for c, _ in codes(type_lists(chained, config))] == [
        "b", "b", "lb", "lb", "lb", "b", "b"]
    parted = document([*bullets, L("a line of another block", 160, 2)],
                      [L("• the third item", 72, 0), *prose(96, 1, 2, "b")])
    assert {c for c, _ in codes(type_lists(parted, config))} == {"b"}


def test_linetypes_bullets_chain_over_lines_of_their_block_only() -> None:
    """Bullets chain when the lines between two items continue the first item (stand
    in its block, whatever the blocks around), not when a line of another block does."""
    config = CONFIG.replace(lt_list_min_entries=3)
    page = [L("• one", 72, 0), L("runs on", 84, 0), L("• two", 96, 0), L("• three", 120, 1)]
    assert [c for c, _ in codes(type_lists(document(page), config))] == ["lb"] * 4
    page.insert(3, L("a line of another block", 108, 2))
    assert {c for c, _ in codes(type_lists(document(page), config))} == {"b"}


def test_linetypes_letters_that_read_as_roman_numerals_continue_their_list() -> None:
    """``(c)``, ``(i)`` and ``i.`` read as Roman numerals or letters: after ``(b)``,
    ``(h)`` and ``h.`` they go on with the letters (the ten lettered items of a
    Hansard's paper); a list that opens ``(i)``, ``(ii)`` counts in Roman numerals."""
    letters = [L(f"({c}) item {c} of the list", 72 + 12 * k, 0) for k, c in enumerate("abcdefghij")]
    dotted = [L(f"{c}. dotted item {c}", 220 + 12 * k, 1) for k, c in enumerate("abcdefghi")]
    romans = [L(f"({r}) roman item {r}", 350 + 12 * k, 2) for k, r in enumerate(["i", "ii", "iii"])]
    typed = codes(type_lists(document([*letters, *dotted, *romans]), CONFIG))
    assert [c for c, _ in typed] == ["ln"] * 22


@pytest.mark.parametrize("numbers", [
    ("（１）", "（２）", "（３）"), ("１．", "２．", "３．"), ("١.", "٢.", "٣."),
    ("一", "二", "三"), ("（一）", "（二）", "（三）"), ("①", "②", "③"), ("❶", "❷", "❸")])
def test_linetypes_item_numbers_in_any_script(numbers: tuple[str, ...]) -> None:
    """Items numbered in full-width forms, Arabic-Indic digits, CJK numerals (a word of
    their own: a full-width space parts them from the text) or one character each (①)
    chain by their value."""
    page = [*prose(72, 0, 2, "a"), *[L(f"{n} item text", 110 + 12 * k, 1)
                                     for k, n in enumerate(numbers)], *prose(160, 2, 2, "b")]
    typed = codes(type_lists(document(page), CONFIG))
    assert [c for c, _ in typed] == ["b", "b", "ln", "ln", "ln", "b", "b"]


def test_linetypes_bracketed_number_glued_to_its_text() -> None:
    """A reference numbered ``[2]S.I.Shevchenko``, its text run on without a space, is
    the item after ``[1]``; a number glued to other text in brackets is no marker."""
    page = [L("[1] C.B.Hanna, Phys.Rev.B 65", 72, 0), L("[2]S.I.Shevchenko, Low Temp.", 84, 0),
            L("[3] G. M. Gusev, Phys.Rev.B 81", 96, 0), L("(1), (2) and (3) as above", 120, 1),
            L("(2)), then more", 132, 1)]
    typed = codes(type_lists(document(page), CONFIG))
    assert [c for c, _ in typed] == ["ln", "ln", "ln", "b", "b"]


def _notes(top: float, step: float = 0.0) -> list[L]:
    """Three notes numbered by superscripts, each indented as a paragraph's first line,
    each ``step`` further right than the one before."""
    out = []
    for k in range(3):
        out += [L(f"{k + 1} Note {k + 1} opens its paragraph here", top + 36 * k, 1,
                  first_size=6.0, x0=90.0 + step * k),
                L("and runs on at the margin of the notes", top + 36 * k + 12, 1)]
    return out


def test_linetypes_note_numbers_open_items_under_a_heading() -> None:
    """Endnotes numbered by superscripts under their heading (``Notes``), at one
    indentation, are a numbered list; the same numbers opening footnotes (no heading
    above them) or lines that do not start at one indentation (centred affiliations)
    are not."""
    def typed(lines: list[L], heading: bool) -> list[str]:
        doc = document([L("Notes", 72, 0, 14, BOLD), *lines])
        if heading:
            doc = retyped(doc, {(0, 0): Typed(LineType.HEADING, 1)})
        return [c for c, _ in codes(type_lists(doc, CONFIG))][1:]

    assert typed(_notes(100), heading=True) == ["ln"] * 6
    assert set(typed(_notes(100), heading=False)) == {"b"}
    assert set(typed(_notes(100, step=20.0), heading=True)) == {"b"}


def test_linetypes_numbered_list_ends_back_at_the_margin() -> None:
    """Sub-captions ``(a)``, ``(b)`` under the parts of a figure, with the figure's
    rows at the margin between them, are no list: a line outside an item's run that
    starts left of the item's lines ends its list.  Items indented as a paragraph's
    first line, with blocks at their text's margin between them, stay one list."""
    captions = [L("(a) Goto function.", 72, 0, x0=150), L("i 1 2 3 4 5", 96, 1),
                L("(b) Failure function.", 108, 1, x0=150), L("2 he", 132, 2, x0=140),
                L("(c) Output function.", 144, 2, x0=150)]
    assert {c for c, _ in codes(type_lists(document(captions), CONFIG))} == {"b"}
    indented = [L("(a) the first item, indented", 72, 0, x0=84), L("runs on", 84, 0),
                L("203.08 a section it names", 108, 1), L("(b) the second item", 132, 2, x0=84)]
    assert [c for c, _ in codes(type_lists(document(indented), CONFIG))] == [
        "ln", "ln", "b", "ln"]


def test_linetypes_item_ended_before_an_indented_paragraph() -> None:
    """A paragraph after a list, its first line indented as far as the items' text:
    the last item closed its sentence short of the column's edge, where the
    paragraph's first word would have fit, so the paragraph is no line of it; an item
    whose sentence runs on to the edge goes on under it."""
    page = [*prose(72, 0, 2, "a"), L("• the first item of the list", 110, 1),
            L("• and the last item of it.", 122, 1),
            L("Then a paragraph opens here", 134, 1, x0=78),
            L("and runs on back at the margin of the page", 146, 1),
            L("• an item that runs on to the edge of the column so", 170, 2),
            L("far that it wraps.", 182, 2, x0=78)]
    assert [c for c, _ in codes(type_lists(document(page), CONFIG))] == [
        "b", "b", "lb", "lb", "b", "b", "lb", "lb"]
    references = [*prose(72, 0, 2, "a"), L("• Chen L, et al. The health crisis.", 110, 1),
                  L("Lancet 2004, 364.", 122, 1, x0=78), L("• Next reference here", 134, 1),
                  L("and its second line.", 146, 1, x0=78)]
    assert [c for c, _ in codes(type_lists(document(references), CONFIG))] == [
        "b", "b", "lb", "lb", "lb", "lb"]


def test_linetypes_item_runs_on_into_the_next_column() -> None:
    """A bulleted item whose sentence the column break cuts goes on at the head of the
    next column, and the bullet after it there chains with it; where the item ended
    its sentence, the next column opens a paragraph of its own and the lone bullet
    after it is no list."""
    def page(end: str, next_text: str) -> list[L]:
        return [*prose(72, 0, 2, "a"), L("• the first item of a list that", 110, 1),
                L(f"runs on to the foot of the column{end}", 122, 1),
                L(next_text, 72, 0, column=1), L("and its last line.", 84, 0, column=1),
                L("• the second item", 96, 0, column=1)]

    assert [c for c, _ in codes(type_lists(document(page("", "and on at the head of the next")),
                                           CONFIG))] == ["b", "b"] + ["lb"] * 5
    assert {c for c, _ in codes(type_lists(document(page(".", "A new paragraph starts")),
                                           CONFIG))} == {"b"}


# --------------------------------------------------------------------------- contents


def contents(top: float = 72, *, numbered: bool = True) -> list[L]:
    """A contents page's lines: entries ending in page numbers, opening with section
    numbers unless not ``numbered``."""
    def entry(number: str, title: str) -> str:
        return f"{number} {title}" if numbered else title

    return [L("Contents", top, 0, 16, BOLD),
            L(entry("1", "Introduction . . . . . 3"), top + 30, 1),
            L(entry("2", "Methods . . . . . 5"), top + 42, 1),
            L(entry("2.1", "Data"), top + 54, 1), L(". . . . . 6", top + 54, 1, x0=300),
            L(entry("3", "Results 9"), top + 66, 1)]


def test_linetypes_contents_typed_toc() -> None:
    doc = type_toc(document(contents(), prose(72, 0, 5, "p2"), page_count=12), CONFIG)
    assert [c for c, _ in codes(doc)] == ["b", "toc", "toc", "toc", "toc", "toc"] + ["b"] * 5


def test_linetypes_contents_after_toc_last_page_or_beyond_page_count_is_body() -> None:
    late = document(prose(72, 0, 3, "1"), prose(72, 0, 3, "2"), contents(), page_count=12)
    assert {c for c, _ in codes(type_toc(late, CONFIG.replace(toc_last_page=2)))} == {"b"}
    short = document(contents(numbered=False), page_count=6)
    assert {c for c, _ in codes(type_toc(short, CONFIG))} == {"b", "toc"}
    beyond = document(contents(numbered=False), page_count=4)
    assert {c for c, _ in codes(type_toc(beyond, CONFIG))} == {"b"}


def boxed_contents(top: float = 72) -> list[L]:
    """A web page's contents box: a title, then bulleted entries opening with section
    numbers, subsections indented, no page numbers."""
    entries = ("1 History", "1.1 Blind and visually impaired users", "2 Applications",
               "3 Types", "4 Techniques", "4.1 Pre-processing", "4.2 Character recognition",
               "5 Workarounds")
    return [L("Contents", top, 0, 14, BOLD),
            *[L(f"■ {text}", top + 20 + 12 * k, 1, x0=72 + 15 * text.count("."))
              for k, text in enumerate(entries)]]


def test_linetypes_contents_by_section_number_typed_toc() -> None:
    """Bulleted entries opening with ascending section numbers of two levels are
    contents without page numbers; the title and the text after them are not."""
    doc = type_toc(document([*boxed_contents(), *prose(200, 2, 3, "p1")]), CONFIG)
    assert [c for c, _ in codes(doc)] == ["b"] + ["toc"] * 8 + ["b"] * 3


def test_linetypes_contents_by_section_number_through_wrapped_and_unread_lines() -> None:
    """A title wrapped onto a second line and an entry whose number OCR misread
    (``4,1``) stand inside the contents; two lines apart, entries are no longer one
    list."""
    specs = [L("1 History", 72, 0), L("1.1 Blind and visually impaired users of", 84, 0),
             L("reading machines", 96, 0, x0=90), L("2 Applications", 108, 0),
             L("= 2,1 Scanners", 120, 0), L("2.2 Cameras", 132, 0), L("3 Types", 144, 0)]
    assert {c for c, _ in codes(type_toc(document(specs), CONFIG))} == {"toc"}
    texts = ["1 History", "1.1 Blind and visually impaired users", "an ordinary line of text",
             "another ordinary line", "2 Applications", "2.1 Scanners", "3 Types"]
    apart = [L(text, 72 + 12 * k, 0) for k, text in enumerate(texts)]
    assert [c for c, _ in codes(type_toc(document(apart), CONFIG))] == ["b"] * 4 + ["toc"] * 3


def test_linetypes_contents_by_section_number_five_chapters() -> None:
    """Chapter numbers 1 to 5 down the page, as a bill numbers its lines, still open
    their entries."""
    texts = ["1 Scope", "1.1 Terms", "2 Methods", "3 Data", "3.1 Sources", "4 Results",
             "5 Outlook"]
    specs = [L(text, 72 + 12 * k, 0) for k, text in enumerate(texts)]
    assert [c for c, _ in codes(type_toc(document(specs), CONFIG))] == ["toc"] * 7


@pytest.mark.parametrize("texts", [
    ("1 Introduction", "2 Methods", "3 Results", "4 Discussion"),
    ("1. Apples from the orchard", "2. Pears", "3. Plums", "4. Cherries"),
    ("2 Methods", "1.1 Scope", "1 Introduction", "2.1 Data"),
    ("1 Introduction", "1.1 Scope", "2015 was a year of growth", "2016 followed"),
])
def test_linetypes_contents_by_section_number_not_lists(texts: tuple[str, ...]) -> None:
    """Flat numbered lists (one level), numbers that do not ascend, and years are not
    contents."""
    specs = [L(text, 72 + 12 * k, 0) for k, text in enumerate(texts)]
    assert {c for c, _ in codes(type_toc(document(specs), CONFIG))} == {"b"}


def test_linetypes_contents_by_section_number_not_numbered_headings() -> None:
    """Numbered headings of the text, paragraphs apart, are not contents, even on the
    first pages."""
    assert {c for c, _ in codes(type_toc(document(*numbered()), CONFIG))} == {"b"}


def test_linetypes_contents_by_section_number_not_minutes_of_one_line_items() -> None:
    """Minutes whose bold numbered headings each stand over a paragraph of one line,
    set in the text's weight, are no contents; the wrapped title of an entry, in its
    weight, stays one."""
    texts = ["1 Attendance", "1.1 Opening", "Braden was elected Chair", "1.2 Apologies",
             "Apologies were received", "1.3 Membership", "Daniel welcomed the committee",
             "2 Advertising"]
    specs = [L(text, 72 + 14 * k, 0, 12 if text[0].isdigit() else 10,
               BOLD if text[0].isdigit() else BODY) for k, text in enumerate(texts)]
    assert {c for c, _ in codes(type_toc(document(specs), CONFIG))} == {"b"}
    specs = [L(text, 72 + 14 * k, 0, 12, BOLD) for k, text in enumerate(texts)]
    assert {c for c, _ in codes(type_toc(document(specs), CONFIG))} == {"toc"}
    # contents whose numbers are bold, their titles and a wrapped title regular
    specs = [L(text, 72 + 14 * k, 0, 12, BODY, first_font=BOLD if text[0].isdigit() else None)
             for k, text in enumerate(texts)]
    assert {c for c, _ in codes(type_toc(document(specs), CONFIG))} == {"toc"}


def test_linetypes_contents_by_section_number_only_on_first_pages() -> None:
    late = document(prose(72, 0, 3, "1"), prose(72, 0, 3, "2"), prose(72, 0, 3, "3"),
                    boxed_contents())
    assert {c for c, _ in codes(type_toc(late, CONFIG))} == {"b"}


@pytest.mark.parametrize(("page_no", "label", "expected"), [
    (3, "", True), (4, "", False), (4, "1", True), (6, "3", True), (7, "4", False),
    (7, "vii", True), (9, "IX", True), (5, "A-1", False), (2, "47820", True)])
def test_linetypes_is_first_page(page_no: int, label: str, expected: bool) -> None:
    """A page is one of the first toc_last_page (3) pages by its place in the file,
    or by its label: Roman-numbered front matter, or a label from 1 to 3."""
    assert is_first_page(Page(page_no, 612, 792, (), label), CONFIG) is expected


def test_linetypes_contents_after_labelled_front_matter() -> None:
    """A contents page after a title page and a foreword numbered i-iii (PDF page 4,
    labelled 1) is typed toc; without page labels it is beyond toc_last_page."""
    pages = [prose(72, 0, 3, "title"), prose(72, 0, 5, "foreword"), prose(72, 0, 5, "more"),
             contents(numbered=False), prose(72, 0, 5, "text")]
    labelled = type_toc(document(*pages, page_count=12, labels=("i", "ii", "iii", "1", "2")),
                        CONFIG)
    assert [x.code for x in labelled.pages[3].lines] == ["b"] + ["toc"] * 5
    assert {c for c, _ in codes(type_toc(document(*pages, page_count=12), CONFIG))} == {"b"}


def test_linetypes_type_lines_order_toc_then_headings() -> None:
    """Contents entries are never headings; the contents title is one."""
    doc = type_lines(document(contents(), *numbered(), page_count=12), CONFIG)
    typed = codes(doc)
    assert typed[0] == ("h_1", "Contents")
    assert [c for c, _ in typed[1:6]] == ["toc"] * 5


def test_linetypes_type_lines_is_each_stage_over_the_document() -> None:
    """Typing page by page with the decisions across pages taken apart gives what the
    stages give one after the other over the whole document: contents, an aligned
    table, headings numbered across pages, a list running on to the next page."""
    pages = numbered()
    pages[0][-3:] = [L("Ward | Name | Vote", 260, 5), L("W-01 | Reed | 1692", 272, 5),
                     L("W-12 | Ruiz | 94", 284, 5), L("1. the first item", 310, 6),
                     L("2. the second item", 322, 6)]
    pages[1].insert(1, L("3. the third item", 88, 7))
    built = document(contents(), *pages, page_count=12)
    staged = built
    for stage in (type_toc, type_aligned_tables, type_headings, type_lists):
        staged = stage(staged, CONFIG)
    typed = type_lines(built, CONFIG)
    assert typed == staged
    assert {c for c, _ in codes(typed)} == {"b", "toc", "tab", "h_1", "h_2", "ln"}


# --------------------------------------------------------------------------- aligned tables


def test_linetypes_cells_split_at_wide_gaps() -> None:
    spans = cells(line(L("Ward | Name of member | Residence", 72, 0), 1), 1.5)
    assert spans == [(72.0, 92.0), (124.5, 189.5), (222.0, 267.0)]


def test_linetypes_aligned_table_typed() -> None:
    """Three rows of three cells, each overlapping the one above, are a table; the
    two-cell list and the prose around are not."""
    page = [*prose(72, 0, 2, "a"),
            L("Ward | Name | Vote", 110, 1), L("W-01 | Reed | 1692", 122, 1),
            L("W-12 | Ruiz | 94", 134, 1, x0=70),
            L("1. | first item", 160, 2), L("2. | second item", 172, 2),
            L("3. | third item", 184, 2), *prose(210, 3, 2, "b")]
    typed = codes(type_aligned_tables(document(page), CONFIG))
    assert [c for c, _ in typed] == ["b", "b", "tab", "tab", "tab", "b", "b", "b", "b", "b"]


def test_linetypes_aligned_table_needs_rows_and_alignment() -> None:
    two_rows = [L("Ward | Name | Vote", 110, 0), L("W-01 | Reed | 1692", 122, 0)]
    assert {c for c, _ in codes(type_aligned_tables(document(two_rows), CONFIG))} == {"b"}
    shifted = [L("a | b | c", 110, 0), L("a | b | c", 122, 0, x0=300), L("a | b | c", 134, 0)]
    assert {c for c, _ in codes(type_aligned_tables(document(shifted), CONFIG))} == {"b"}
    config = CONFIG.replace(table_min_rows=2)
    assert [c for c, _ in codes(type_aligned_tables(document(two_rows), config))] == [
        "tab", "tab"]


def test_linetypes_panels_legends_are_no_table_row() -> None:
    """Four charts side by side: their tick labels and axis titles stand in columns,
    and so do the legends under them, each opening with its panel's letter in order:
    a figure's labels, no table; a table whose cells open with other words is one."""
    page = [L("0 | 10 | 0 | 10 | 0 | 10 | 0 | 10", 110, 0), L("t | t | t | t", 122, 0),
            L("(a) Dirac | (b) Sine | (c) Chirp | (d) State", 134, 0)]
    assert {c for c, _ in codes(type_aligned_tables(document(page), CONFIG))} == {"b"}
    page[2] = L("(a) Dirac | (c) Sine | (b) Chirp | (d) State", 134, 0)
    assert {c for c, _ in codes(type_aligned_tables(document(page), CONFIG))} == {"tab"}


def test_linetypes_table_head_is_no_heading() -> None:
    """A bold line whose cells stand over the cells of the line under it is a table's
    head, not a heading, though its rows are too few to be typed a table; a bold title
    over prose, and a bold line of one cell over a row, stay headings."""
    row = "7:0 | XOUT | High byte of the data"
    page = [L("Register Map", 72, 0, 12, BOLD), *prose(92, 1, 2, "a"),
            L("Bit | Name | Function", 130, 2, 10, BOLD), L(row, 142, 2),
            *prose(166, 3, 2, "b"),
            L("Fields of the register", 204, 4, 10, BOLD), L(row, 216, 4),
            *prose(240, 5, 2, "c")]
    typed = codes(type_headings(document(page), CONFIG))
    assert [t for c, t in typed if c.startswith("h_")] == ["Register Map",
                                                          "Fields of the register"]


def test_linetypes_quotation_going_on_at_a_column_top_is_no_heading() -> None:
    """A quotation set larger than the body, its first line leaving its sentence open
    ('… and'), its last line read at the top of the next column, in lower case: that
    line goes on from the first, no heading; a line in the style that opens its
    sentence there is one."""
    first = "I said, I will confess my transgressions to the Lord, and you forgave me all the"

    def headings(last: str) -> list[str]:
        page = [*prose(72, 0, 3, "a"), L(first, 120, 1, 12), L(last, 40, 2, 12, column=1),
                *(replace(spec, column=1) for spec in prose(60, 3, 3, "b"))]
        return [t for c, t in codes(type_headings(document(page), CONFIG)) if c.startswith("h_")]

    assert headings("forgave the guilt of my sin.") == []
    assert headings("Forgiveness") == ["Forgiveness"]


def test_linetypes_title_block_ends_at_a_numbered_heading() -> None:
    """Minutes: under the title, the society's name and the date are the title's; the
    first numbered section, its first subsection right under it, is a heading, not
    the title's."""
    page = [L("Committee Meeting Agenda", 40, 0, 17, BOLD), L("Physics Society", 66, 0, 12),
            L("14.00, Tuesday 15th March, 2016", 80, 0, 12),
            L("1 Attendance", 104, 1, 14, BOLD), L("1.1 Opening", 124, 1, 12, BOLD),
            *prose(140, 1, 2, "a"), L("1.2 Apologies", 176, 2, 12, BOLD),
            *prose(192, 2, 2, "b"), L("2 Advertising", 228, 3, 14, BOLD),
            *prose(248, 3, 3, "c")]
    typed = codes(type_headings(document(page), CONFIG))
    assert [t for c, t in typed if c.startswith("h_")] == [
        "Committee Meeting Agenda", "1 Attendance", "1.1 Opening", "1.2 Apologies",
        "2 Advertising"]


@pytest.mark.parametrize("formula", ["E = P · T (8)", "CPIbase − CPIimproved",
                                     "Out(0) <= In(27);", "F=1.0MHz"])
def test_linetypes_formula_is_no_heading(formula: str) -> None:
    """A display equation or a line of code set apart in bold (a relation between two
    operands, a difference with the minus sign) is no heading; the bold title over it
    is one, and so is a title that holds a hyphen or a dash."""
    page = [L("Energy model", 72, 0, 12, BOLD), *prose(92, 1, 3, "a"),
            L(formula, 140, 2, 12, BOLD), *prose(160, 3, 3, "b"),
            L("Pre- and post-test – results", 210, 4, 12, BOLD), *prose(230, 5, 3, "c")]
    typed = codes(type_headings(document(page), CONFIG))
    assert [t for c, t in typed if c.startswith("h_")] == ["Energy model",
                                                          "Pre- and post-test – results"]


@pytest.mark.parametrize("title", ["Results for k = 5", "Patients aged ≥65 years"])
def test_linetypes_heading_holding_a_relation_is_a_heading(title: str) -> None:
    """A title of words of prose that holds a relation is a heading, no formula."""
    page = [L("Energy model", 72, 0, 12, BOLD), *prose(92, 1, 3, "a"),
            L(title, 140, 2, 12, BOLD), *prose(160, 3, 3, "b")]
    typed = codes(type_headings(document(page), CONFIG))
    assert [t for c, t in typed if c.startswith("h_")] == ["Energy model", title]


@pytest.mark.parametrize("date", ["June 7, 2014", "August 3 - August 9, 2014",
                                  "Mercredi 5 mai 2021", "du 3 au 9 août 2022",
                                  "Wednesday, 21st May 2008", "Tuesday, 24 th June 2025"])
def test_linetypes_date_alone_is_no_heading(date: str) -> None:
    """A bold line that is a date (or a span of dates) alone, with space above it, is
    body; the bold name over it is a heading, and so is a bold line that names a month
    among other words."""
    page = [L("Summer Camp", 72, 0, 12, BOLD), L(date, 92, 1, 11, BOLD),
            *prose(110, 2, 4, "a"), L("Camp in May 2014", 170, 3, 12, BOLD),
            *prose(190, 4, 4, "b")]
    typed = codes(type_headings(document(page), CONFIG))
    assert [t for c, t in typed if c != "b"] == ["Summer Camp", "Camp in May 2014"]


@pytest.mark.parametrize("call", ["\u2020", "*"])
def test_linetypes_title_with_a_raised_call_in_another_weight_is_a_heading(
        tmp_path: Path, call: str) -> None:
    """A bold title whose note call is raised after it in a regular face ('Pages†') is
    the document's first heading, the call read on its line."""
    path = tmp_path / "titled.pdf"
    canvas = Canvas(str(path), pagesize=(595.0, 842.0))
    title, y = "On the Reading Order of Pages", 700.0
    canvas.setFont("Helvetica-Bold", 18)
    canvas.drawString(72, y, title)
    canvas.setFont("Times-Roman", 10)
    canvas.drawString(72 + stringWidth(title, "Helvetica-Bold", 18) + 0.5, y + 8, call)
    canvas.setFont("Helvetica", 11)
    canvas.drawString(72, y - 24, "Jane Doe and John Roe")
    y -= 54
    for heading in ("1 Introduction", "2 Methods"):
        canvas.setFont("Helvetica-Bold", 12)
        canvas.drawString(72, y, heading)
        canvas.setFont("Times-Roman", 10)
        for k in range(3):
            canvas.drawString(72, y - 18 - 12 * k, f"The body of the section runs on, line {k} "
                              "of a paragraph that fills the measure of the page.")
        y -= 68
    canvas.save()
    page = parse(path)[0]
    first = next(line for line in page.lines if line.line_type is LineType.HEADING)
    assert first.text.startswith(title) and first.text.endswith(call)
