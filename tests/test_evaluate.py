"""Tests of the reading-order metrics, with values worked out by hand."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from layoutkit.tools.evaluate import (
    PageScore,
    TypeScore,
    combine,
    count_occurrences,
    reduce,
    score_furniture,
    score_heading_levels,
    score_heading_lines,
    score_headings,
    score_list_items,
    score_page,
    score_typed_lines,
    scored_lines,
)

# Two columns of four lines each; every line reduces to 12 or more characters.
LEFT = [
    "Ord. No. 501-16. By Council",
    "Members Brancatelli and Kelley",
    "An emergency ordinance to amend",
    "the title and Sections 1 and 2.",
]
RIGHT = [
    "Whereas, under Ordinance No. 1451-",
    "14, passed December 8, 2014, as",
    "amended by Ordinance No. 1444-15,",
    "passed December 7, 2015, this Council",
]
TRUTH = LEFT + RIGHT


def page(*lines: str) -> str:
    """Join output lines the way an extractor prints them."""
    return "\n".join(lines)


# --------------------------------------------------------------------------- reduce


def test_reduce_keeps_casefolded_letters_and_digits_only() -> None:
    assert reduce("Ord. No. 501-16,\n passed!") == "ordno50116passed"


def test_reduce_drops_the_kashidas_that_stretch_an_arabic_line() -> None:
    """However many kashidas a justified line is stretched with (an engine keeps more or
    fewer of them where the producer drew them overlapping), its words reduce alike."""
    assert reduce("اتـفـــاقــــية") == reduce("اتفاقية") == "اتفاقية"
    assert reduce("الشـــــرطة القضـــائيــــــــة") == reduce("الشـرطة القضائيـة")


def test_reduce_expands_ligatures_and_folds_case() -> None:
    assert reduce("ﬁnance ﬂoor STRASSE Straße") == "financefloorstrassestrasse"


def test_count_occurrences_counts_overlaps_and_not_the_empty_string() -> None:
    assert count_occurrences("aa", "aaaa") == 3
    assert count_occurrences("ab", "xyz") == 0
    assert count_occurrences("", "abc") == 0


# --------------------------------------------------------------------------- score_page


def test_perfect_output_scores_one_one_zero() -> None:
    score = score_page(page(*TRUTH), TRUTH, furniture=["April 27, 2016 The City Record 5"])
    assert score == PageScore(
        found=1.0, order=1.0, leak=0.0, lines=8, pairs=7, furniture=1, paragraphs_found=None
    )


def test_reading_across_the_columns_line_by_line_keeps_no_pair_in_order() -> None:
    across = [line for pair in zip(LEFT, RIGHT, strict=True) for line in pair]
    score = score_page(page(*across), TRUTH)
    assert score.found == 1.0
    # After every line comes a line of the other column: none of the 7 pairs is in order.
    assert score.order == 0.0
    assert score.pairs == 7


def test_reading_across_the_columns_two_lines_at_a_time() -> None:
    output = page(LEFT[0], LEFT[1], RIGHT[0], RIGHT[1], LEFT[2], LEFT[3], RIGHT[2], RIGHT[3])
    score = score_page(output, TRUTH)
    # In order: L0-L1, L2-L3, R0-R1, R2-R3.  Not: L1-L2, L3-R0, R1-R2.
    assert score.order == 4 / 7
    assert score.found == 1.0


def test_missing_line_lowers_found_and_breaks_both_of_its_pairs() -> None:
    score = score_page(page(*LEFT, RIGHT[0], RIGHT[2], RIGHT[3]), TRUTH)
    assert score.found == 7 / 8
    # Pairs R0-R1 and R1-R2 touch the missing line; the other 5 are in order.
    assert score.order == 5 / 7


def test_text_outside_the_truth_may_stand_between_two_lines() -> None:
    table = "Ward  Name  Residence\n1  Smith  44105\n2  Jones  44108"
    score = score_page(page(*LEFT, table, *RIGHT), TRUTH)
    assert (score.found, score.order) == (1.0, 1.0)


def test_punctuation_case_ligatures_and_hyphenation_do_not_matter() -> None:
    truth = [
        "The ﬁnancial report, as amended",
        "the usual daily operation of a munici-",
        "pal department; now, therefore,",
    ]
    output = (
        "THE FINANCIAL REPORT AS AMENDED\n"
        "the usual daily operation of a municipal department now therefore"
    )
    assert score_page(output, truth) == PageScore(1.0, 1.0, 0.0, 3, 2, 0, None)


def test_short_and_duplicated_lines_are_not_scored() -> None:
    truth = [
        "Section 1.",  # 8 characters reduced: too short
        "Be it ordained by the Council",  # duplicated below
        "and",
        "Be it ordained by the Council",
        "of the City of Cleveland:",
    ]
    assert scored_lines(truth) == ["ofthecityofcleveland"]
    score = score_page("of the City of Cleveland", truth)
    assert (score.lines, score.pairs, score.found, score.order) == (1, 0, 1.0, 1.0)


def test_a_line_contained_in_another_line_is_not_scored() -> None:
    truth = [
        "Council of the City",
        "the Council of the City of Cleveland",
        "passed December 8, 2014",
    ]
    assert scored_lines(truth) == ["thecouncilofthecityofcleveland", "passeddecember82014"]


def test_a_line_emitted_twice_is_found_but_not_placed() -> None:
    score = score_page(page(LEFT[0], LEFT[1], LEFT[2], LEFT[1]), LEFT[:3])
    assert score.found == 1.0
    # LEFT[1] occurs twice, so both pairs that involve it count as out of order.
    assert score.order == 0.0


def test_leak_counts_furniture_lines_in_the_body_output() -> None:
    furniture = ["April 27, 2016 The City Record 5", "Official publication", "631"]
    with_header = page("April 27, 2016   The City Record   5", *TRUTH)
    score = score_page(with_header, TRUTH, furniture)
    # "631" is shorter than 4 reduced characters and not checked; 1 of 2 leaked.
    assert (score.furniture, score.leak) == (2, 0.5)
    assert score_page(page(*TRUTH), TRUTH, furniture).leak == 0.0


def test_furniture_text_that_the_body_also_contains_leaks_only_when_extra() -> None:
    truth = ["The hearing of April 27, 2016 is", "postponed to a later date."]
    furniture = ["April 27, 2016"]
    assert score_page(page(*truth), truth, furniture).leak == 0.0
    assert score_page(page("April 27, 2016", *truth), truth, furniture).leak == 1.0


def test_paragraphs_found_whole_or_broken_by_a_spliced_line() -> None:
    paragraphs = [" ".join(LEFT), " ".join(RIGHT)]
    spliced = page(*LEFT, RIGHT[0], "April 27, 2016 The City Record 5", *RIGHT[1:])
    score = score_page(spliced, TRUTH, paragraphs=paragraphs)
    assert (score.paragraphs_found, score.paragraphs) == (0.5, 2)
    assert score_page(page(*TRUTH), TRUTH, paragraphs=paragraphs).paragraphs_found == 1.0
    assert score_page(page(*TRUTH), TRUTH).paragraphs_found is None


def test_empty_truth_and_empty_output() -> None:
    assert score_page("anything", []) == PageScore(1.0, 1.0, 0.0, 0, 0, 0, None)
    assert score_page("", TRUTH) == PageScore(0.0, 0.0, 0.0, 8, 7, 0, None)


# --------------------------------------------------------------------------- combine


def test_combine_is_a_micro_average() -> None:
    first = score_page(page(*LEFT[:3]), LEFT, ["The City Record"], paragraphs=[" ".join(LEFT)])
    second = score_page(page("The City Record", RIGHT[0]), RIGHT[:1], ["The City Record"])
    total = combine([first, second])
    # found: 3 of 4 lines + 1 of 1; order: 2 of 3 pairs + none; leak: 0 of 1 + 1 of 1.
    assert total == PageScore(
        found=4 / 5,
        order=2 / 3,
        leak=1 / 2,
        lines=5,
        pairs=3,
        furniture=2,
        paragraphs_found=0.0,
        paragraphs=1,
    )
    assert combine([]) == PageScore(1.0, 1.0, 0.0, 0, 0, 0, None)


# --------------------------------------------------------------------------- properties

line_text = st.text(
    alphabet=st.characters(categories=["Lu", "Ll", "Nd", "Zs", "Po"]), min_size=0, max_size=40
)
line_lists = st.lists(line_text, min_size=0, max_size=12)


@given(truth=line_lists, output=st.text(max_size=300))
def test_shares_stay_between_zero_and_one(truth: list[str], output: str) -> None:
    score = score_page(output, truth, furniture=truth[:2], paragraphs=truth[2:4])
    for share in (score.found, score.order, score.leak, score.paragraphs_found):
        assert share is not None
        assert 0.0 <= share <= 1.0
    assert score.pairs == max(score.lines - 1, 0)


@given(truth=line_lists)
def test_the_truth_itself_scores_one_and_one(truth: list[str]) -> None:
    score = score_page(page(*truth), truth, paragraphs=truth)
    assert (score.found, score.order, score.paragraphs_found) == (1.0, 1.0, 1.0)


@given(truth=line_lists, data=st.data())
def test_any_order_of_the_truth_lines_finds_every_line(
    truth: list[str], data: st.DataObject
) -> None:
    shuffled = data.draw(st.permutations(truth))
    assert score_page(page(*shuffled), truth).found == 1.0


# --------------------------------------------------------------------------- line types


def test_evaluate_type_score_shares_and_sum() -> None:

    score = TypeScore(predicted=4, expected=5, hits=3) + TypeScore(1, 0, 0)
    assert (score.precision, score.recall) == (0.6, 0.6)
    assert (TypeScore(0, 0, 0).precision, TypeScore(0, 0, 0).recall) == (1.0, 1.0)


def test_evaluate_score_furniture_multiset() -> None:

    typed = [("h", "The Gazette 12"), ("b", "Body text"), ("f", "12"), ("f", "12"),
             ("h_1", "Notices")]
    score = score_furniture(typed, ["THE GAZETTE, 12", "12", "Printed here"])
    assert (score.predicted, score.expected, score.hits) == (3, 3, 2)


def test_evaluate_score_headings_needs_level() -> None:

    score = score_headings([(1, "1 Intro"), (2, "1.1 Scope"), (3, "Remarks")],
                           [(1, "1 Intro"), (1, "1.1 Scope"), (3, "Remarks"), (2, "Other")])
    assert (score.predicted, score.expected, score.hits) == (3, 4, 2)


def test_evaluate_score_list_items_ends_with() -> None:

    typed = [("ln", "3 (1) Discrimination can occur"), ("ln", "4 sex, orientation"),
             ("b", "(2) A single instance")]
    score = score_list_items(typed, ["(1) Discrimination can occur", "(2) A single instance"])
    assert (score.predicted, score.expected, score.hits) == (2, 2, 1)


def test_evaluate_score_heading_lines() -> None:
    """Texts matched as multisets, then only with their level."""
    found = [(1, "CITY COUNCIL"), (3, "MOTION"), (3, "Vol. 103")]
    truth = [(2, "CITY COUNCIL"), (3, "MOTION"), (3, "File No. 1-16.")]
    any_level, with_level = score_heading_lines(found, truth)
    assert (any_level.predicted, any_level.expected, any_level.hits) == (3, 3, 2)
    assert with_level.hits == 1


def test_evaluate_type_score_f1() -> None:

    assert TypeScore(predicted=4, expected=2, hits=2).f1 == 2 * 0.5 * 1.0 / 1.5
    assert TypeScore(predicted=3, expected=0, hits=0).f1 == 0.0
    assert TypeScore(predicted=0, expected=3, hits=0).f1 == 0.0


def test_evaluate_score_typed_lines_one_typed_line_finds_one_truth_line() -> None:
    """A truth line printed twice is found twice only when two lines are typed so; a
    line found by the same text is not taken by one that only ends with it."""
    typed = [("tab", "0 0 0"), ("b", "0 0 0"), ("tab", "Total 0 0 0"), ("tab", "1 0 0 0")]
    score = score_typed_lines(typed, ["0 0 0", "0 0 0", "0 0 0", "1 0 0 0"], ["tab"])
    assert (score.predicted, score.expected, score.hits) == (3, 4, 3)
    assert score.precision == 1.0


def test_evaluate_either_lines_count_neither_way() -> None:
    """A line labelled either is no miss when left untyped and no false positive when
    typed; the other lines are scored as before."""
    typed = [("h_1", "Abstract"), ("h_1", "Background: The impact of stress"),
             ("b", "Methods: The study involved"), ("b", "1 Introduction"),
             ("h_2", "Key words: dementia")]
    headings = ["Abstract", "1 Introduction"]
    either = ["Background: The impact of stress", "Methods: The study involved"]
    without = score_typed_lines(typed, headings, ["h_"])
    assert (without.predicted, without.expected, without.hits) == (3, 2, 1)
    score = score_typed_lines(typed, headings, ["h_"], either)
    assert (score.predicted, score.expected, score.hits) == (2, 2, 1)


def test_evaluate_either_never_hides_a_labelled_line_of_the_same_text() -> None:
    """A heading and an either line that read the same (a ministry's name, then the
    same words in a decree's enacting formula): the heading is still expected, and
    the either line excuses only an output line that found no heading."""
    heading, other = ("E DELLE FINANZE", "DECRETO 2 aprile 2025")
    typed = [("h_2", heading), ("b", other), ("h_2", heading)]
    score = score_typed_lines(typed, [heading, other], ["h_"], [heading])
    assert (score.predicted, score.expected, score.hits) == (1, 2, 1)
    score = score_typed_lines(typed[:2], [heading], ["h_"], [heading])
    assert (score.predicted, score.expected, score.hits) == (1, 1, 1)
    score = score_typed_lines([("b", heading)], [heading], ["h_"], [heading])
    assert (score.predicted, score.expected, score.hits) == (0, 1, 0)
    headings = score_headings([(2, heading), (2, heading)], [(2, heading)], [heading])
    assert (headings.predicted, headings.expected, headings.hits) == (1, 1, 1)


def test_evaluate_either_excuses_one_line_per_text() -> None:
    """Each either text excuses one output line: a second line reading the same is
    counted (multisets)."""
    typed = [("tab", "Ward & Precinct 1-1 1-2"), ("tab", "REP IN CONGRESS"),
             ("tab", "REP IN CONGRESS")]
    score = score_typed_lines(typed, ["Ward & Precinct 1-1 1-2"], ["tab"],
                              ["REP IN CONGRESS"])
    assert (score.predicted, score.expected, score.hits) == (2, 1, 1)


def test_evaluate_either_in_list_items_furniture_and_headings() -> None:
    typed = [("lb", "• $75.00: dues"), ("lb", "Interest earned: $0.04"), ("f", "Page 4"),
             ("f", "Board President")]
    items = score_list_items(typed, ["• $75.00: dues"], ["Interest earned: $0.04"])
    assert (items.predicted, items.expected, items.hits) == (1, 1, 1)
    furniture = score_furniture(typed, ["Page 4"], ["Board President"])
    assert (furniture.predicted, furniture.expected, furniture.hits) == (1, 1, 1)
    headings = score_headings([(1, "The New Times"), (2, "Moose Count")],
                              [(1, "Moose Count")], ["The New Times"])
    assert (headings.predicted, headings.expected, headings.hits) == (1, 1, 0)
    lines, levelled = score_heading_lines([(1, "The New Times"), (2, "Moose Count")],
                                          [(1, "Moose Count")], ["The New Times"])
    assert (lines.predicted, lines.expected, lines.hits, levelled.hits) == (1, 1, 1, 0)


def test_evaluate_score_heading_levels() -> None:
    """Heading lines matched whatever their level, then the share given the truth's
    level; either lines left out of both."""
    typed = [("h_1", "How to make words with vectors:"), ("h_2", "Abstract"),
             ("h_2", "1 Introduction"), ("h_3", "1.1 Scope"), ("b", "2 Methods"),
             ("h_2", "University of Trento, Italy")]
    truth = [(1, "Abstract"), (1, "1 Introduction"), (2, "1.1 Scope"), (1, "2 Methods")]
    lines, levelled = score_heading_levels(typed, truth, ["How to make words with vectors:"])
    assert (lines.predicted, lines.expected, lines.hits) == (4, 4, 3)
    assert (levelled.predicted, levelled.expected, levelled.hits) == (4, 4, 0)
    typed[1] = ("h_1", "Abstract")
    assert score_heading_levels(typed, truth, ["How to make words with vectors:"])[1].hits == 1
