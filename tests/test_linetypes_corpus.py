"""Headings and lists on development-corpus pages (issue 19, items 2 and 5): figure
labels and bylines in small bold type are no headings, a paper's title and a
newspaper's headlines do not push the sections down a level, and items numbered
before a dash, in brackets or after a bullet drawn from a symbol font are list items
whose next lines end where the indentation changes.  Each page is read as the
benchmark reads it (the labelled pages of its document, default configuration)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import layoutkit
from benchmarks.linetypes import item_starts
from layoutkit.model import Document, Page

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus"


@cache
def _parsed(stem: str, pages: tuple[int, ...]) -> Document:
    return layoutkit.parse(CORPUS / f"{stem}.pdf", pages=list(pages))


def _page(stem: str, pages: tuple[int, ...], number: int) -> Page:
    return next(p for p in _parsed(stem, pages) if p.page_no == number)


def _headings(page: Page) -> list[tuple[str, str]]:
    return [(x.code, x.text) for x in page.lines if x.code.startswith("h_")]


def test_linetypes_corpus_figure_labels_are_no_headings() -> None:
    """The datasheet's block diagrams label their parts in 5.5 pt bold (AGND, SELECT,
    DECODER...) over a 9.5 pt body: only its 9 pt bold section titles are headings."""
    page = _page("analog-devices-ssm2163-datasheet-1996", (10, 11), 10)
    assert [text for _, text in _headings(page)] == [
        "THEORY OF OPERATION", "Analog Section", "Digital Interface",
        "Serial Data Control Inputs", "MUTE Input"]


def test_linetypes_corpus_bylines_are_no_headings() -> None:
    """A newspaper's bylines (8 pt bold, "By EDDY MERCURY") are no headings; its
    headlines are, at level 1 under a nameplate set once."""
    headings = _headings(_page("democracyplus-new-times", (1, 2), 1))
    assert not [text for _, text in headings if text.startswith("By ")]
    assert ("h_1", "20 Children die in") in headings and ("h_1", "Championship") in headings


def test_linetypes_corpus_paper_title_opens_no_level() -> None:
    """A paper's title is set in a style of its own, once: its sections (Abstract,
    1 Introduction) are level 1, not pushed below it."""
    page = _page("acl-2014-phrase-generation", (1, 8), 1)
    headings = dict((text, code) for code, text in _headings(page))
    assert headings["Abstract"] == headings["1 Introduction"] == "h_1"


def test_linetypes_corpus_headlines_in_display_sizes_share_a_level() -> None:
    """The Hindu's editorial page sets its stories' headlines in 34, 21 and 13 pt, its
    articles' sub-headings in 9 pt bold: the headlines are level 1, the sub-headings
    2 (a kicker of page 2, "PICTURE OF THE WEEK" in 11 pt, heads no smaller heading:
    it opens no level between them), and its bylines (8.5 pt bold over their
    authors' 8 pt affiliations) are no headings."""
    headings = dict((text, code) for code, text in _headings(
        _page("the-hindu-2025-09-19-editorial-opinion", (1, 2), 1)))
    assert {headings[t] for t in ("Troubled transition", "Holistic approach",
                                  "Equalising primary food consumption in India",
                                  "LETTERS TO THE EDITOR")} == {"h_1"}
    assert {headings[t] for t in ("The ‘thali meal’ as a consumption metric", "The role of PDS",
                                  "Need for concerted actions")} == {"h_2"}
    assert not {"Aman Raj", "Vivek Katju"} & set(headings)


def test_linetypes_corpus_numbers_before_a_dash_are_list_items() -> None:
    """The Diário da República numbers a resolution's paragraphs "1 — ", "2 — "... a
    space from their text: six numbered items, not line numbers; the line after the
    list, back at the paragraph indent, is body."""
    page = _page("diario-da-republica-2010-01-05", (1, 3), 3)
    starts = [text for _, text in item_starts(page)]
    assert [text[:3] for text in starts] == ["1 —", "2 —", "3 —", "4 —", "5 —", "6 —"]
    assert next(x.code for x in page.lines if x.text.startswith("Aprovada em")) == "b"


def test_linetypes_corpus_roman_items_before_a_dash() -> None:
    """The Diário Oficial da União's ordinances list their items "I - ", "II - "...:
    each article's run is a numbered list (38 items on the two pages)."""
    stem, pages = "diario-oficial-uniao-2014-10-01", (1, 2)
    starts = [(code, text) for number in pages for code, text in item_starts(
        _page(stem, pages, number))]
    assert len(starts) == 38 and {code for code, _ in starts} == {"ln"}
    assert starts[0][1].startswith("I - Recepção") and starts[-1][1].startswith("IV - informações")


def test_linetypes_corpus_bracketed_references_and_symbol_bullets() -> None:
    """A paper's references numbered [1] to [15] are a numbered list; a handbook's
    bullets drawn from a symbol font (whose code reads "á") are a bulleted one."""
    refs = item_starts(_page("gretsi-2025-kravchuk-transform", (1, 4), 4))
    assert [text.split()[0] for _, text in refs] == [f"[{k}]" for k in range(1, 16)]
    bullets = item_starts(_page("fao-farmers-handbook-pig-production-nepal", (1, 9), 9))
    assert [(code, text.split()[1]) for code, text in bullets] == [
        ("lb", "Height"), ("lb", "Color;"), ("lb", "Herd")]


def test_linetypes_corpus_chapters_numbered_in_sequence() -> None:
    """The Diário Oficial's ordinance sets its chapters and sections ("CAPÍTULO I" to
    "IV", "Seção I" and "II") centred in the body's font, each over its title: all
    twelve lines are level 3 headings, under the ordinance's title."""
    page = _page("diario-oficial-uniao-2014-10-01", (1, 2), 2)
    headings = _headings(page)
    chapters = [(code, text) for code, text in headings
                if text.startswith(("CAPÍTULO", "Seção", "DOS ", "DAS ", "Das ", "Do "))]
    assert chapters == [("h_3", text) for text in (
        "CAPÍTULO I", "DOS OBJETIVOS", "CAPÍTULO II", "DAS COMPETÊNCIAS", "CAPÍTULO III",
        "DOS REQUISITOS DE ADMISSIBILIDADE", "CAPÍTULO IV", "DOS CRITÉRIOS", "Seção I",
        "Das Obrigações Contratuais", "Seção II", "Do Plano de Investimento")]


def test_linetypes_corpus_bold_leads_and_leader_rows_are_no_headings() -> None:
    """An ordinance's enacting clause opens in bold (``O MINISTRO DE ESTADO CHEFE DA
    SECRETARIA`` over ``DE PORTOS DA PRESIDÊNCIA DA REPÚBLICA, no uso das``) and runs
    on into its paragraph: no heading, while the ordinance's title is one.  A
    gazette's price list (``Edition originale.......``) has dot leaders: no heading."""
    headings = [text for _, text in _headings(_page("diario-oficial-uniao-2014-10-01", (1, 2), 2))]
    assert "PORTARIA N o- 349, DE 30 DE SETEMBRO DE 2014" in headings
    assert not [text for text in headings if text.startswith("O MINISTRO")]
    cover = _page("journal-officiel-algerie-2022-50", (1, 2), 1)
    assert {x.code for x in cover.lines if x.text.startswith("Edition originale")} == {"b"}


def test_linetypes_corpus_title_block_lines_are_no_headings() -> None:
    """The lines right under a paper's title in its band (authors, affiliation, e-mail)
    and the kicker right above an article's title are the title's, not headings;
    the first headings over text (Abstract, 1 Introduction) are.  An affiliation
    centred under its authors (``Yahoo! Research``) is no text that a heading heads:
    the authors' line over it is the title's too."""
    acl = [text for _, text in _headings(_page("acl-2014-phrase-generation", (1, 8), 1))]
    assert not {"Georgiana Dinu and Marco Baroni", "Center for Mind/Brain Sciences",
                "University of Trento, Italy"} & set(acl)
    assert {"Abstract", "1 Introduction"} <= set(acl)
    ieee = [text for _, text in _headings(_page("ieee-dsn-2011-zab-broadcast", (1, 3), 1))]
    assert not [text for text in ieee if text.startswith("Flavio")]
    bmc = [text for _, text in _headings(_page("bmc-health-services-malawi-2014", (1, 4), 1))]
    assert "RESEARCH ARTICLE Open Access" not in bmc and bmc[-1] == "Abstract"
    landtag = _headings(_page("bayerischer-landtag-plenarprotokoll-17-140", (1, 3), 1))
    assert [text for _, text in landtag] == ["140. Sitzung"]


def test_linetypes_corpus_addresses_and_quotations_are_no_headings() -> None:
    """A flier's web address (``CAMPWORKCOEMAN.ORG``, 31 pt) and its pull quote in
    quotation marks are display type but no headings; its program names are."""
    headings = [text for _, text in _headings(
        _page("workcoeman-scout-camp-flier-2014", (1, 2), 2))]
    assert "CAMPWORKCOEMAN.ORG" not in headings and not [
        text for text in headings if text.startswith("“")]
    first = [text for _, text in _headings(_page("workcoeman-scout-camp-flier-2014", (1, 2), 1))]
    assert {"Boy Scout Resident Camp", "Trail to Eagle Camp", "Beaver Work Day"} <= set(first)


def test_linetypes_corpus_stacked_section_names_open_levels() -> None:
    """The BORME stacks its section's names at the top of the page, each in a size of
    its own and seen once (Actos inscritos, CÁCERES) right over the next, down to its
    entries' bold titles: a hierarchy, not a title, so the entries are level 3."""
    headings = _headings(_page("borme-2015-02-10-caceres", (1, 3), 1))
    assert headings[0] == ("h_1", "SECCIÓN PRIMERA")
    entries = [code for code, text in headings if text[:5].isdigit()]
    assert len(entries) == 10 and set(entries) == {"h_3"}


def test_linetypes_corpus_heading_ends_where_its_font_changes() -> None:
    """A decree's title in bold over five lines is one heading; a newsletter's bold
    italic committee name is a heading, the bold names of its members under it are
    not (its font changes, so the heading ends)."""
    headings = [text for _, text in _headings(
        _page("gazzetta-ufficiale-serie-generale-2025-111", (2, 5), 5))]
    first = next(k for k, text in enumerate(headings) if text.startswith("Regolamento"))
    decree = headings[first:first + 5]
    assert decree[-1] == "della revoca." and len(
        [text for text in decree if text.startswith(("Regolamento", "revoca", "pagamento"))]) == 3
    news = [text for _, text in _headings(_page("uufom-candle-flame", (1, 4), 4))]
    assert "Committee on Ministry" in news and not [t for t in news if "Hickman" in t]


def test_linetypes_corpus_dates_alone_are_no_headings() -> None:
    """The camp flier sets each event's dates under its name in the name's bold face
    (``August 3 - August 9, 2014``): a date alone tells when, not what, and is no
    heading; the events' names are."""
    page = _page("workcoeman-scout-camp-flier-2014", (1, 2), 1)
    assert _headings(page) == [
        ("h_1", "Boy Scout Resident Camp"), ("h_1", "Trail to Eagle Camp"),
        ("h_1", "Merit Badge Wrap-up Day"), ("h_1", "Beaver Work Day"),
        ("h_1", "WHY SHOULD YOUR TROOP ATTEND CAMP WORKCOEMAN?")]


def test_linetypes_corpus_announcement_opens_no_level() -> None:
    """The newsletter's notice of its meeting is five lines in 12 pt bold under the
    section head (14 pt): a notice, not a level of sections, so the 10 pt bold heads
    below it (``How to get there:-``) are the section's sub-heads, level 2, on both
    pages."""
    pages = (1, 2)
    first = _headings(_page("ridgeway-repeater-group-newsletter-2008-04", pages, 1))
    second = _headings(_page("ridgeway-repeater-group-newsletter-2008-04", pages, 2))
    assert ("h_1", "Notice of AGM") in first and ("h_2", "How to get there:-") in first
    assert ("h_2", "PRESENT MEMEBERS") in second and ("h_1", "Membership 2008/9") in second


def test_linetypes_corpus_sitting_date_is_no_heading() -> None:
    """The Hansard dates its sitting under its title in the bold of its proceedings'
    titles (``Tuesday, 24 th June 2025``, the ordinal's ending set apart): a date, no
    heading, so that it does not stack under the title and push ``PRAYERS`` and
    ``PAPERS`` to level 2."""
    page = _page("kenya-national-assembly-hansard-2025-06-24", (2,), 2)
    headings = _headings(page)
    assert ("h_1", "PRAYERS") in headings and ("h_1", "PAPERS") in headings
    assert not any(text.startswith("Tuesday") for _, text in headings)


def test_linetypes_corpus_headline_under_its_kicker_is_a_heading() -> None:
    """The Hindu sets ``Moving slowly in a fast-paced city`` (16 pt) a few points under
    its kicker ``PICTURE OF THE WEEK`` (11 pt bold): set so much larger, it starts a
    heading of its own, however close under the kicker, and the kicker, which it
    heads, is none."""
    headings = _headings(_page("the-hindu-2025-09-19-editorial-opinion", (1, 2), 2))
    assert ("h_1", "Moving slowly in a fast-paced city") in headings
    assert "PICTURE OF THE WEEK" not in [text for _, text in headings]


def test_linetypes_corpus_infographic_labels_and_figures_are_no_headings() -> None:
    """The ERCOT fact sheet's infographic sets its statements and chart labels larger
    than its 8 pt captions: none is a heading but its two charts' titles.  A chart's
    labels over their shares (``Natural Gas Wind`` over ``44.3% 25.2.%``: a heading's
    lines read as words), two figures side by side (``85,508 MW    85,116 MW``: a
    value set apart as a cell), a statement led by its figure in bold (``1 MW of
    electricity ...``), a lead-in right over the larger figure it introduces (``More
    than`` over ``26 million``), a figure and its unit in lower case (``26 million``,
    ``$3.3 billion``), and the introduction's first line, set in a subset of
    the font of the lines it runs on into (the same face, so the paragraph is one
    piece, too long for a heading)."""
    headings = _headings(_page("ercot-fact-sheet-2024-02", (1,), 1))
    texts = [text for _, text in headings]
    assert ("h_1", "2024 Generating Capacity") in headings
    assert ("h_1", "2023 Energy Use") in headings
    assert not {"Natural Gas Wind", "44.3% 25.2.%", "Coal Solar", "85,508 MW 85,116 MW",
                "More than", "periods of peak demand.", "26 million", "$3.3 billion"} & set(texts)
    assert not [text for text in texts if text.startswith(("1 MW", "The Electric"))]


def test_linetypes_corpus_label_and_value_rows_are_no_headings() -> None:
    """A broker's note sets its price box in bold, each label at the left and its value
    flush right (``Current price    62p``); a gazette's cover sets its subscription
    table's head row in bold (``1 An    1 An``); an election report sets its totals in
    capitals after a colon (``TOTAL TURNOUT: 81 .96%``): values in cells or fields, no
    headings.  The broker's section heads stay headings."""
    note = [text for _, text in _headings(
        _page("hsbc-uk-morning-meeting-notes-2001-08-31", (1,), 1))]
    assert not {"Current price 62p", "Target price 55p"} & set(note)
    assert {"H1 results", "Valuation and recommendation"} <= set(note)
    cover = _page("journal-officiel-algerie-2022-50", (1, 2), 1)
    assert {x.code for x in cover.lines if x.text == "1 An 1 An"} == {"b"}
    totals = _page("melrose-election-results-2016", (1, 5), 1)
    assert not [x.text for x in totals.lines
                if x.code.startswith("h_") and x.text.startswith("TOTAL")]


def test_linetypes_corpus_quoted_text_and_clauses_are_no_headings() -> None:
    """A Hebrew bill inserts a chapter into a law: the chapter's title opens a
    quotation (``"פרק ד'2: ...``) and its definitions run on as clauses: the bill's
    text, not its headings; the bill's title is one."""
    headings = [text for _, text in _headings(
        _page("reshumot-hatzaot-hok-566-2011", (1,), 1))]
    assert headings[:2] == ["הצעת חוק הבנקאות (רישוי) (תיקון מס' 17) (סליקת עסקאות",
                            'בכרטיסי חיוב), התשע"א-2011']
    assert not [text for text in headings if text.startswith(('"', "הגדרות", "כמשמעותם"))]


def test_linetypes_corpus_captions_are_no_headings() -> None:
    """A scanned paper's figure caption is set in bold (``Fig. 2. A kink-typed
    solitary wave ...``): a caption, no heading."""
    page = _page("z-naturforsch-a-1999-shallow-water-scan", (2,), 2)
    assert not [text for _, text in _headings(page) if text.startswith("Fig.")]


def test_linetypes_corpus_headings_in_capitals() -> None:
    """Capitals set a heading off as bold does: a paper's numbered sections in the
    body's size and weight (``I. INTRODUCTION``, ``3. RESULTS AND DISCUSSION``), a
    journal's ``ABSTRACT``, a Hansard's ``QUORUM`` are headings."""
    ieee = [text for _, text in _headings(_page("ieee-dsn-2011-zab-broadcast", (1, 3), 1))]
    assert "I. INTRODUCTION" in ieee
    jetp = [text for _, text in _headings(
        _page("jetp-2002-critical-reynolds-number", (2,), 2))]
    assert "3. RESULTS AND DISCUSSION" in jetp
    abstract = _headings(_page("intpsychogeriatrics-dementia-2014", (1, 3), 1))
    assert "ABSTRACT" in [text for _, text in abstract]
    hansard = _headings(_page("kenya-national-assembly-hansard-2025-06-24", (2,), 2))
    assert "QUORUM" in [text for _, text in hansard]


def test_linetypes_corpus_lettered_items_past_c_and_i() -> None:
    """The Hansard lays papers on the Table in a numbered list with lettered sub-items
    ``(a)`` to ``(j)``: ``(c)`` and ``(i)``, which read as Roman numerals too, go on
    with the letters, so every one of its fifteen items opens a list item."""
    starts = [text for _, text in item_starts(
        _page("kenya-national-assembly-hansard-2025-06-24", (2,), 2))]
    assert [text.split()[0] for text in starts] == [
        "1.", *[f"({c})" for c in "abcdefghij"], "2.", "3.", "(a)", "(b)"]


def test_linetypes_corpus_items_numbered_in_cjk_numerals_read_vertically() -> None:
    """The Japanese notice numbers its provisions 一, 二, 三... a full-width space
    above their text, down vertical columns: eight numbered items on its two pages (a
    second list opening 一 again on page 2), each with its columns hanging an em lower."""
    stem, pages = "mhlw-kokuji-55-2022-vertical", (1, 2)
    starts = [(code, text) for number in pages for code, text in item_starts(
        _page(stem, pages, number))]
    assert [text.split()[0] for _, text in starts] == list("一二三四一二三四")
    assert {code for code, _ in starts} == {"ln"}
    first = _page(stem, pages, 1)
    assert [x.code for x in first.lines if x.text.startswith("険医療機関をいう")] == ["ln"]


def test_linetypes_corpus_endnotes_under_their_heading_are_items() -> None:
    """A scanned chapter's endnotes under ``Notes`` open with superscript numbers 1 to
    6 at one indentation: six list items.  A research note's footnotes (small numbers
    at the foot of its pages) and an abstract's affiliations (numbered the same way,
    centred) are body."""
    notes = [text for _, text in item_starts(_page("hanley-french-law-canon-scan", (1,), 1))]
    assert [text.split()[0] for text in notes] == ["1", "2", "3", "4", "5", "6"]
    pusep = _page("pusep-magneto-photoluminescence-abstract", (1,), 1)
    assert [text.split("]")[0] for _, text in item_starts(pusep)] == ["[1", "[2", "[3"]
    kpmg = [_page("kpmg-commodity-insights-iron-ore-2013-12", (1, 2), n) for n in (1, 2)]
    assert not [x for page in kpmg for x in page.lines
                if x.code == "ln" and x.text.startswith(("1 IMF", "5 “Resources"))]


def test_linetypes_corpus_bulleted_item_runs_on_into_the_next_column() -> None:
    """The KPMG bulletin's bullet on India's exports ends its column mid-sentence and
    goes on at the head of the next: the bullet after it there (``• Increased
    exports``) is an item of the same list, and the lines between are the item's."""
    page = _page("kpmg-commodity-insights-iron-ore-2013-12", (1, 2), 2)
    typed = {x.text: x.code for x in page.lines}
    assert typed["• Increased exports from established producing countries,"] == "lb"
    assert typed["steel makers. The government cancelled 51 mining leases of"] == "lb"


def test_linetypes_corpus_figure_sub_captions_are_no_list() -> None:
    """The CACM scan captions the parts of its Figure 1 ``(a) Goto function.``, ``(b)``
    and ``(c)``, with the figure's rows at the column's margin between them: no list;
    the numbered steps of the operating cycle, ``1.`` running on into the next
    column to ``2.``, are."""
    starts = item_starts(_page("cacm-1975-aho-corasick-scan", (2,), 2))
    assert [text.split()[0] for _, text in starts] == ["1.", "2."]


def test_linetypes_corpus_bold_bullets_of_a_research_note() -> None:
    """The HSBC note's three bold bullets, each a bullet from a symbol font over two
    lines, are three items of one list, their second lines the items'."""
    page = _page("hsbc-uk-morning-meeting-notes-2001-08-31", (1,), 1)
    assert [text[:11] for _, text in item_starts(page)] == ["• Potential", "• Symbian’s",
                                                            "• With litt"]
    assert next(x.code for x in page.lines if x.text.startswith("immediate outlook")) == "lb"


def test_linetypes_corpus_paragraph_set_large_is_no_heading() -> None:
    """The newsletter's tooth-brushing box sets its title and its paragraph alike, a
    size above the other boxes' text, a blank line between them: the title is a
    heading; the paragraph, which ends a sentence and starts another (``... morning
    snack. The center ...``), is not."""
    headings = [text for _, text in _headings(
        _page("mount-calvary-preschool-news-september", (1,), 1))]
    assert "Teeth Brushing" in headings
    assert not {"We brush our teeth every", "day after morning snack. The",
                "for each child."} & set(headings)


def test_linetypes_corpus_wrapped_line_goes_with_the_title_block() -> None:
    """The newsletter's first event entry wraps over three bold lines under the events
    box's title; the first page's title block takes its first two lines, and the third
    (``am.``), which goes on from them in their style, with them: no heading."""
    headings = [text for _, text in _headings(
        _page("mount-calvary-preschool-news-september", (1,), 1))]
    assert headings == ["OUTSIDE TIME", "Teeth Brushing"]
