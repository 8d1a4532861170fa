"""Inline styles, links, contents and page separators in Markdown and HTML.

A generated document (`tests.inline_pages`) gives exact truth: bold, italic and Courier
words, a superscript note mark, links to a web page, a mail address and a script, a
contents page with dot leaders; both engines must write the same marks.  A real paper
with hyperref links (the GRETSI paper of fixtures/corpus) checks links read from a
producer's annotations.
"""

from __future__ import annotations

import json
import pickle
import re
from functools import cache
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

import layoutkit
from layoutkit.config import LinetypesConfig
from layoutkit.model import BBox, Document, Line, Link, Word
from layoutkit.model.codec import dumps, store_dumps, store_loads
from layoutkit.outputs.html import html_document
from layoutkit.outputs.inline import (
    Marks,
    Style,
    contents_levels,
    contents_text,
    contents_titles,
    is_italic,
    is_monospace,
    superscripts,
)
from layoutkit.outputs.markdown import markdown
from layoutkit.outputs.structure import Item
from tests.inline_pages import styled_document

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT / "fixtures" / "corpus" / "gretsi-2025-kravchuk-transform.pdf"
LINETYPES = LinetypesConfig()
ENGINES = ("pdfium", "pdfminer")

PARAGRAPH = ("The quick **brown fox** jumps over the *lazy dog* and runs away from the farmer "
             "who calls `print(x)` to see the result<sup>1</sup> of his \\*starred\\* sums "
             "and then goes on to [visit our site](https://example.org/a_page?q=1&r=%282%29) "
             "or [write to us](mailto:someone@example.org) or click here without a\\_b care.")
HTML_PARAGRAPH = ("The quick <b>brown fox</b> jumps over the <i>lazy dog</i> and runs away from "
                  "the farmer who calls <code>print(x)</code> to see the result<sup>1</sup> of "
                  "his *starred* sums and then goes on to "
                  '<a href="https://example.org/a_page?q=1&amp;r=(2)">visit our site</a> or '
                  '<a href="mailto:someone@example.org">write to us</a> or click here without '
                  "a_b care.")
CONTENTS_MARKDOWN = ("# Contents\n\n- INTRODUCTION\n- MAIN GAME\n  - Rules of play\n  - Scoring\n"
                     "- ENDINGS\n")


@cache
def styled(tmp: Path, engine: str) -> Document:
    return layoutkit.parse(styled_document(tmp / f"styled-{engine}.pdf"), engine=engine)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("inline")


@pytest.mark.parametrize("engine", ENGINES)
def test_inline_styles_markdown_exact(folder: Path, engine: str) -> None:
    """Bold, italic, Courier, the note mark and the web and mail links come out as
    Markdown marks, one pair a run; the script's link stays text; Markdown's own
    characters in the text are escaped; the note, set as large as the text under its
    raised mark, which the text calls, is a footnote labelled by its mark."""
    text = markdown(styled(folder, engine), LINETYPES)
    assert PARAGRAPH + "\n\n" in text
    assert "\n[^1]: The note on the result.\n" in text
    assert "javascript" not in text
    assert "**" not in text.split("# Main Game")[0].split(PARAGRAPH)[1]  # bold throughout


@pytest.mark.parametrize("engine", ENGINES)
def test_inline_styles_html_exact(folder: Path, engine: str) -> None:
    """The same marks in HTML: ``<b>``, ``<i>``, ``<code>``, ``<sup>``, ``<a href>``."""
    page = html_document(styled(folder, engine), LINETYPES)
    assert f">{HTML_PARAGRAPH}</p>" in page
    assert "javascript" not in page
    assert "<h1 " in page and ">Main Game</h1>" in page  # a bold heading is not marked bold


@pytest.mark.parametrize("engine", ENGINES)
def test_inline_contents_without_leaders(folder: Path, engine: str) -> None:
    """Contents entries lose their dot leaders and page numbers, nested by indentation,
    in Markdown; HTML's entries lose them too."""
    document = styled(folder, engine)
    assert CONTENTS_MARKDOWN + "\n" in markdown(document, LINETYPES)
    assert ">Rules of play</li>" in html_document(document, LINETYPES)


def test_inline_engines_agree(folder: Path) -> None:
    """Both engines give the same Markdown and HTML of the generated document (but for
    the boxes: PDFium's standard fonts set their glyphs a little lower)."""
    assert markdown(styled(folder, "pdfium"), LINETYPES) == \
        markdown(styled(folder, "pdfminer"), LINETYPES)
    pages = [re.sub(r' data-bbox="[^"]*"', "", html_document(styled(folder, e), LINETYPES)
                    .split("<body>")[1]) for e in ENGINES]
    assert pages[0] == pages[1]


def test_inline_markdown_reads_back(folder: Path) -> None:
    """A CommonMark reader finds the marks: strong, emphasis, code, the two links (and
    no third), the note mark as inline HTML, and text where a ``*`` was escaped."""
    tokens = MarkdownIt("commonmark").parseInline(PARAGRAPH)[0].children or []
    kinds = [t.type for t in tokens]
    assert kinds.count("strong_open") == 1 and kinds.count("em_open") == 1
    assert [t.content for t in tokens if t.type == "code_inline"] == ["print(x)"]
    assert [t.attrs["href"] for t in tokens if t.type == "link_open"] == [
        "https://example.org/a_page?q=1&r=%282%29", "mailto:someone@example.org"]
    assert [t.content for t in tokens if t.type == "html_inline"] == ["<sup>", "</sup>"]
    assert "of his *starred* sums" in "".join(t.content for t in tokens if t.type == "text")
    assert markdown(styled(folder, "pdfium"), LINETYPES).count(PARAGRAPH) == 1


def test_inline_page_separator(folder: Path) -> None:
    """``page_separator`` opens each page's parts with ``<!-- page N -->``, in order, and
    changes nothing else."""
    document = styled(folder, "pdfium")
    text = markdown(document, LINETYPES, page_separator=True)
    marks = [line for line in text.splitlines() if line.startswith("<!-- page")]
    assert marks == [f"<!-- page {n} -->" for n in (1, 2, 3, 4)]
    assert text.startswith("<!-- page 1 -->\n\n# Contents\n")
    assert "\n\n<!-- page 3 -->\n\n# Main Game\n" in text
    assert "\n\n".join(b for b in text.split("\n\n") if not b.startswith("<!-- page")) == \
        markdown(document, LINETYPES)


def test_inline_page_separator_cli(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``layoutkit markdown --page-separator`` writes the separators; without it, none."""
    from layoutkit.cli import main

    path = styled_document(folder / "cli.pdf")
    assert main(["markdown", str(path), "--page-separator"]) == 0
    assert "<!-- page 2 -->" in capsys.readouterr().out
    assert main(["markdown", str(path)]) == 0
    assert "<!-- page" not in capsys.readouterr().out


@pytest.mark.parametrize("engine", ENGINES)
def test_inline_links_in_the_json(folder: Path, engine: str) -> None:
    """``parse --words`` gives each word in a kept link its address, and no other word
    a ``link``; the store and a pickle keep the links."""
    document = styled(folder, engine)
    words = [w for page in json.loads(dumps(document, words=True))["pages"]
             for line in page["lines"] for w in line["words"]]
    assert {w["text"]: w["link"] for w in words if "link" in w} == {
        "visit": "https://example.org/a_page?q=1&r=(2)",
        "our": "https://example.org/a_page?q=1&r=(2)",
        "site": "https://example.org/a_page?q=1&r=(2)",
        "write": "mailto:someone@example.org", "to": "mailto:someone@example.org",
        "us": "mailto:someone@example.org"}
    assert store_loads(store_dumps(document)) == document
    assert pickle.loads(pickle.dumps(document.pages[1])) == document.pages[1]
    linked = [w for line in document.pages[1].lines for w in line.words if w.link]
    assert len(linked) == 6


def test_inline_real_paper_links() -> None:
    """The GRETSI paper's hyperref links: the authors' mail addresses on its first page
    and the pyssht package on its third, both engines reading the same words' links."""
    documents = [layoutkit.parse(PAPER, engine=e) for e in ENGINES]
    links = [[(p.page_no, w.text, w.link) for p in d.pages for line in p.lines
              for w in line.words if w.link] for d in documents]
    assert links[0] == links[1]
    assert (1, "PASCAL", "mailto:barbara.pascal@cnrs.fr") in links[0]
    assert (1, "BARDENET", "mailto:remi.bardenet@cnrs.fr") in links[0]
    assert (3, "pyssht", "https://pypi.org/project/pyssht/") in links[0]
    text = markdown(documents[0], LINETYPES)
    assert "[Barbara PASCAL](mailto:barbara.pascal@cnrs.fr)<sup>1</sup> " \
           "[Julien FLAMANT](mailto:julien.flamant@univ-lorraine.fr)<sup>2</sup>" in text
    assert "la bibliothèque [pyssht](https://pypi.org/project/pyssht/)<sup>b</sup> qui" in text
    assert "**Abstract –** The recently introduced Kravchuk transform" in text


# --------------------------------------------------------------------------- hand-made


def word(text: str, x0: float, size: float = 10.0, bottom: float = 110.0,
         font: str = "Times-Roman", link: str = "") -> Word:
    width = 0.5 * size * len(text)
    return Word(text, BBox(x0, bottom - size, x0 + width, bottom), font, size, link=link)


def line(*words: Word) -> Line:
    return Line(" ".join(w.text for w in words), BBox.union([w.bbox for w in words]),
                words, 1, 0, 0, 0)


@pytest.mark.parametrize(("font", "italic", "mono"), [
    ("Times-Italic", True, False), ("NimbusRomNo9L-ReguItal", True, False),
    ("Helvetica-Oblique", True, False), ("MyriadPro-BoldIt", True, False),
    ("ABCDEF+CMTI10", True, False), ("CMBXTI10", True, False), ("CMSL9", True, False),
    ("LMRomanSlant10-Regular", True, False), ("Arial,Italic", True, False),
    ("CMMI10", False, False), ("DigitalSans", False, False), ("Edwardian-Script-ITC", False, False),
    ("Times-Roman", False, False), ("Courier", False, True), ("Courier-Oblique", True, True),
    ("CMTT10", False, True), ("LMMono10-Regular", False, True), ("BeraSansMono-Roman", False, True),
    ("AdvTT43ccf47d", False, False), ("Menlo-Regular", False, True), ("CMITT10", True, True),
    ("GNVMHB+LinLibertineTI", True, False), ("LinBiolinumTBI", True, False),
    ("LinLibertineT", False, False), ("LinLibertineTB", False, False), ("ArialMT", False, False),
])
def test_inline_font_names(font: str, italic: bool, mono: bool) -> None:
    """Italic and monospaced faces by their names, TeX's short names included; math
    italic is no emphasis, and a name that merely holds the letters is no face."""
    assert (is_italic(font), is_monospace(font)) == (italic, mono)


def test_inline_superscripts() -> None:
    """A word set smaller and raised beside a word is a superscript; set smaller on
    the baseline (small capitals), or lowered (a subscript), it is not."""
    base = word("result", 0)
    raised = word("1", 30, size=6, bottom=106)
    small = word("ABC", 30, size=7, bottom=110)
    lowered = word("2", 30, size=6, bottom=112)
    assert superscripts([base, raised]) == [False, True]
    assert superscripts([base, small]) == [False, False]
    assert superscripts([base, lowered]) == [False, False]
    assert superscripts([raised, base]) == [True, False]
    figure = word("76.4", 30, size=8, bottom=108)  # a table's smaller figure, 0.25 up
    assert superscripts([base, figure]) == [False, False]
    sizes = [word("a", 0, size=16), word("b", 10, size=5, bottom=104), word("c", 20, size=9)]
    assert superscripts(sizes) == [False, False, False]  # an OCR layer's sizes
    calls = [word("and", -20), base, word("4,", 30, size=6, bottom=106),
             word("5", 38, size=6, bottom=106)]  # a run of calls ending the line: '⁴, ⁵'
    assert superscripts(calls) == [False, False, True, True]


def test_inline_wholly_bold_and_body_style() -> None:
    """An item bold throughout takes no bold marks; one bold word among regular ones
    does; a body set in Courier marks no code."""
    bold = line(word("All", 0, font="Times-Bold"), word("bold", 20, font="Times-Bold"))
    mixed = line(word("One", 0, font="Times-Bold"), word("bold", 20))
    marks = Marks(LINETYPES)
    escape = str
    assert marks.markdown(Item(bold.text, (bold,)), bold.text, escape) == "All bold"
    assert marks.markdown(Item(mixed.text, (mixed,)), mixed.text, escape) == "**One** bold"
    typed = line(word("Typed", 0, font="Courier"), word("text", 30, font="Courier"))
    assert marks.markdown(Item(typed.text, (typed,)), typed.text, escape) == "`Typed text`"
    courier = Marks(LINETYPES, body=Style(code=True))
    assert courier.markdown(Item(typed.text, (typed,)), typed.text, escape) == "Typed text"


def test_inline_hyphenated_and_bulleted_items() -> None:
    """A word hyphenated at a line end and joined again keeps its mark; a bullet left out
    of the item's text is passed over; a code span holding a backtick is fenced by two."""
    first = line(word("•", 0), word("see", 10), word("exam-", 40, font="Times-Italic"))
    second = line(word("ple", 0, font="Times-Italic"), word("a`b", 30, font="Courier"))
    item = Item("see example a`b", (first, second))
    assert Marks(LINETYPES).markdown(item, item.text, str) == "see *example* ``a`b``"


def test_inline_link_runs() -> None:
    """The words of one link make one link, however their styles change inside it."""
    url = "https://example.org/x y"
    words = line(word("go", 0), word("there", 20, font="Times-Bold", link=url),
                 word("now", 50, link=url), word("then", 80))
    item = Item(words.text, (words,))
    assert Marks(LINETYPES).markdown(item, item.text, str) == \
        "go [**there** now](https://example.org/x%20y) then"
    assert Marks(LINETYPES).html(item, item.text, str) == \
        'go <a href="https://example.org/x y"><b>there</b> now</a> then'


@pytest.mark.parametrize(("text", "title"), [
    ("MAIN GAME ......6", "MAIN GAME"), ("MAIN GAME......6", "MAIN GAME"),
    ("1.2 Results . . . . . . 12", "1.2 Results"), ("Preface . . . xi", "Preface"),
    ("Introduction 3", "Introduction"), ("Speeches 12877 12879", "Speeches"),
    ("Introduction … 3", "Introduction"), ("2.1 Methods", "2.1 Methods"), ("12", "12"),
    ("Survey Conducted in the Alaska Region in 2021 5",
     "Survey Conducted in the Alaska Region in 2021"), ("Chapter 3 12", "Chapter 3"),
    ("Schedule ........ 12—15", "Schedule"), ("Index . . . 3, 7", "Index"),
    ("Programme of Business ...... 17-31", "Programme of Business"),
])
def test_inline_contents_text(text: str, title: str) -> None:
    """An entry's leader and page numbers go (numbers of one length in order: a year or
    a chapter's number before the page number is the title's); an entry of nothing
    else stays."""
    assert contents_text(text) == title


def test_inline_contents_levels() -> None:
    """Levels by indentation from the column's leftmost entry, within the tolerance,
    never more than one deeper than the entry before."""
    items = [Item(w.text, (line(w),)) for w in (
        word("A", 72), word("B", 96), word("C", 97), word("D", 72), word("E", 130))]
    assert contents_levels(items, LINETYPES) == [0, 1, 1, 0, 1]
    drifting = [Item(str(k), (line(word(str(k), 72 + 3 * k)),)) for k in range(12)]
    assert contents_levels(drifting, LINETYPES) == [0] * 12  # a scan's starts drift
    deep = [Item(str(k), (line(word(str(k), 72 + 20 * k)),)) for k in range(5)]
    assert contents_levels(deep, LINETYPES) == [0, 1, 2, 2, 2]  # heading_max_level deep


@pytest.mark.parametrize(("uri", "kept"), [
    ("https://example.org", True), ("HTTP://EXAMPLE.ORG/", True), ("mailto:a@b.org", True),
    ("javascript:alert(1)", False), ("file:///etc/passwd", False), ("ftp://x.org", False),
    ("www.example.org", False), ("http://", False), (" https://example.org ", True),
])
def test_inline_link_schemes(uri: str, kept: bool) -> None:
    """Only web and mail addresses are kept."""
    assert (Link.kept(BBox(0, 0, 1, 1), uri) is not None) == kept


@pytest.mark.parametrize(("path", "pages"), [
    ("corpus/moderncv-classic-cv-template.pdf", "1"),
    ("corpus/haaga-helia-2022-annual-report-cover-key-figures.pdf", "2"),
    ("heldout/olqp-adur-valley-parish-newsletter-2019-06-30.pdf", "2-3"),
    ("pdf/federal-register-2020-08-06.pdf", "1"),
])
def test_inline_engines_read_the_same_links(path: str, pages: str) -> None:
    """Both engines read the same link annotations, in the same order, their boxes within
    a tenth of a point (PDFium's are single-precision floats)."""
    from layoutkit.sources import open_source

    numbers = [int(n) for n in pages.split("-")]
    read = []
    for engine in ENGINES:
        with open_source(ROOT / "fixtures" / path, engine) as source:
            read.append([link for page in source.pages(range(numbers[0], numbers[-1] + 1))
                         for link in page.links])
    assert read[0] and [link.uri for link in read[0]] == [link.uri for link in read[1]]
    for a, b in zip(*read, strict=True):
        assert max(abs(x - y) for x, y in zip(a.bbox.as_list(), b.bbox.as_list(),
                                              strict=True)) < 0.1


def test_inline_contents_number_past_the_next_page_is_the_titles() -> None:
    """Where the entries after it name their pages after leaders, a number ending an
    entry without one is a page number only up to the first of those pages: a date
    over its items keeps its year; a LaTeX chapter's entry (no leader) drops its page,
    and so does an entry after the last leader ('Results 1948')."""
    items = [Item(text, ()) for text in ("Thursday, 4th November 1948",
                                         "signing the Register .................. 1",
                                         "1 Topologische Grundbegriffe 2",
                                         "Schedule ......... 12—15", "Appendices—")]
    assert contents_titles(items) == ["Thursday, 4th November 1948", "signing the Register",
                                      "1 Topologische Grundbegriffe", "Schedule", "Appendices—"]
    assert contents_titles([Item("Introduction 3", ()), Item("Results 1948", ())]) == \
        ["Introduction", "Results"]
