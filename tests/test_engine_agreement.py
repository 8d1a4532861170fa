"""Both engines, and pdftotext as a third opinion, agree on the geometry of every
labelled page: page size, the characters drawn and where each one stands.

The documents are every PDF with a truth file (``regions/*.truth.json`` and
``regions/corpus/*.truth.json``, globbed, so a document labelled later is compared
too), on the pages the truth file labels.  On each page:

* **size**: width and height within SIZE_TOLERANCE, from pdfminer, pdfium and
  pdftotext;
* **characters**: the multiset of non-space glyph texts, NFKC-normalised (pdfminer's
  ligature ``ﬁ`` is pdfium's ``fi``) and without whitespace, is the same but for the
  pages listed in KNOWN_DIFFERENCES; spaces are not compared, as PDFium skips a space
  without ink drawn as an object of its own (see :mod:`layoutkit.sources.pdfium`);
* **weights**: the glyphs of each text both engines draw as often weigh the same
  (their fonts' weights, :func:`layoutkit.sources.base.font_weight`);
* **boxes**: glyphs of the same text are paired, mutually nearest centres first, and
  the distances of paired centres have a median under MEDIAN_BOUND and a 95th
  percentile under P95_BOUND (but see SHIFTED).

Hand-made pages pin down what the fixture pages do not hold: boxes inherited from
the page tree, crop boxes, ``/Rotate`` on a media box away from the origin, a box
written upside down, and vertical Japanese text in a CJK font the PDF does not embed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import unicodedata
from collections import Counter
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from layoutkit.model import BBox, PageGlyphs
from layoutkit.sources import open_source
from tests.handmade import one_page, pdf_bytes

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ("pdfminer", "pdfium")

SIZE_TOLERANCE = 0.5
"""Points by which page sizes may differ (measured: at most 0.0033 pt, PDFium's boxes
being single-precision floats: 595.2467 against 595.25)."""

MEDIAN_BOUND = 1.0
"""Points under which the median distance of paired glyph centres must stay, but see
SHIFTED.  Measured: at most 0.0008 pt on 44 of the 56 labelled pages (the boxes are
pdfminer's, computed from PDFium's values); up to 0.36 pt where one engine sets the
glyphs of a font apart by a constant (see P95_BOUND)."""

P95_BOUND = 1.0
"""Points under which the 95th percentile must stay.  Measured: at most 0.0026 pt on
44 pages; the rest is made of differences of font metrics, each the same for every
glyph of a font: standard fonts without a descriptor sit lower with PDFium, which
uses its built-in fonts' descents (Times 0.032 em: 0.36 pt on the Melrose results,
0.26 pt in the Diário Oficial; Helvetica 0.017 em); glyph origins drift apart along a
line where PDFium's advances differ from the ``/Widths`` pdfminer uses (CMR10 in the
democracyplus paper, 0.14 pt; SFRM1095 in the geotopo notes, 0.22 pt); a
``/Descent 0`` symbol font set lower by PDFium (tests/test_engines.py).  A point is a
tenth of an em of body text, less than any gap the reading order measures.

Both engines add the character spacing (``Tc``) after every glyph (see
:mod:`layoutkit.sources.pdfminer`): pdfminer.six's own interpreter left it out after
the last glyph of each text-showing operator, and the lines of the BORME (0.77 pt),
of the Naturforschung scan's ABBYY text layer (4.1 pt at the end of a long line) and
of the Cooleman Ridge newsletter drifted apart by it, as the words of the Hebrew
letter came to overlap (tests/test_scripts.py); they now agree within 0.006 pt."""

SHIFTED = {"acl-2014-phrase-generation": 2.367, "bass-guitar-magazine-2017-02-trujillo": 1.395,
           "iran-print-magazine-365-2012-persian-type-design": 3.058}
"""Documents whose glyphs PDFium boxes lower than pdfminer throughout, with the median
distance (points).  The ACL paper's font descriptors (pdfTeX 1.40.3, NimbusRomNo9L)
have no ``/Descent``: pdfminer boxes every glyph from the baseline up, PDFium from the
font program's descent (0.217 em lower), as for a descriptor that says ``/Descent 0``
(tests/test_engines.py: DESCENT_ZERO).  The spread around the shift stays small, but
see DRIFTED.  The magazine page's descriptors (iTextSharp, Aleo and RamaGothicM CFF
fonts) say ``/Descent 0``: its 7.5 pt body text sits 0.186 em (1.395 pt) lower with
PDFium, its larger type by as much of its own size.  The Persian magazine's Type 1 fonts
(Distiller 5, MELotus and their kin) say ``/Descent 0`` and ``/Ascent 0``: PDFium
boxes its glyphs 3.06 pt lower throughout."""

DRIFTED = {"bass-guitar-magazine-2017-02-trujillo": 2.5,
           "sri-lanka-gazette-part-ii-2444-2025-07-04-p141": 10.0}
"""Documents whose 95th percentile exceeds P95_BOUND, with its bound (points).  For a
SHIFTED document the bound is on the 95th percentile's distance from the median: the
magazine page's 20 pt standfirst is shifted 3.7 pt where its body is shifted 1.4 pt
(2.3 pt apart).  On the Sri Lanka gazette (see MAPPED_APART) the median is 0.00003 pt,
but a vowel sign each engine reads as another pairs with a glyph of that text further
along the line (9.6 pt)."""

VERTICAL_SHIFT = {"jlreq-sample-ginga-2017-vertical": 1.2,
                  "uplatex-sz-datang-xiyuji-xu-2024-vertical": 1.8,
                  "zizhi-tongjian-82-xelatex-2019-vertical": 1.5,
                  "xezhishu-shitouji-16-2021-vertical": 2.7}
"""Documents set vertically in ``Identity-V`` CID fonts whose glyphs PDFium boxes across
the column otherwise than pdfminer (from the font program's vertical metrics, pdfminer
from the ``/W2`` array), with the bound (points) of the median and, half a point more,
of the 95th percentile: a constant shift within each font (1.08 pt on the jlreq
sample, 1.67 pt on the SZ.CLS book, 1.43 pt on the XeLaTeX Zizhi Tongjian, 1.58-2.57 pt
on the XeZhishu pages), less than a tenth of the column pitch the reading measures."""

MAPPED_APART = {"uplatex-sz-datang-xiyuji-xu-2024-vertical": 0.05,
                "gruppo-veronesi-2023-key-figures": 0.2,
                "vivliostyle-1981-shashokuki-essay-vertical": 0.15,
                "sri-lanka-gazette-part-ii-2444-2025-07-04-p141": 0.13,
                "bear-garden-preschool-newsletter-october-sidebar": 0.06}
"""Documents whose characters the engines read differently at a share of the page's
glyphs below the bound, but draw as many: the SZ.CLS book's dvipdfmx fonts have no
``/ToUnicode``, and pdfminer names some of their codes ``(cid:N)`` where PDFium reads a
kanji from the CID (wrongly for some: 紱 as 䊐); the Veronesi report draws its bold
words twice, 0.3 pt apart, and pdfminer keeps both copies where PDFium merges them
(so the page's glyphs are counted on pdfium's side, and pdfminer's extra copies are
all it reads apart); the Vivliostyle essay's Skia fonts map small kana, the ideographic
comma and full stop to U+0000 for pdfminer (13% of the glyphs, which it drops), and some
kanji to the radicals of the same shape (⻄ for 西), where PDFium, MuPDF and poppler
read the characters printed; the Sri Lanka gazette's Sinhala fonts (InDesign CS6, an
``FM`` font family) map some codes otherwise for pdfminer than for PDFium (9.6% of the
glyphs: ම where the page prints ව, ෙ for ේ), and PDFium, MuPDF and poppler read what the
page prints; and each engine reads some syllables drawn as one glyph as one ('යෙ'), not
always the same ones (12.1% apart in all); the Bear Garden newsletter (Apple Pages) sets
its Chinese titles in PingFang subsets with no ``/ToUnicode``, whose codes pdfminer names
``(cid:N)`` and PDFium reads as the characters at those code points, none of them the
ones printed (53 glyphs, 5.0%)."""

MIN_CHARACTERS = 30
"""A labelled page holds at least this many characters: enough for the comparison to
say something (report covers hold 31 to 54; a page of text holds hundreds)."""

KNOWN_DIFFERENCES: dict[tuple[str, int], tuple[Counter[str], Counter[str]]] = {
    ("revtex-2025-bosonic-quantum-batteries", 1): (Counter({"a": 1, "\u0303": 1}),
                                                   Counter({"\u0303a": 1})),
    ("fao-farmers-handbook-pig-production-nepal", 9): (Counter({"1": 1}), Counter()),
    ("journal-officiel-algerie-2022-50", 1): (
        Counter({"E": 11, "L": 6, "I": 6, "A": 5, "U": 5, "R": 5, "O": 4, "N": 3, "P": 3,
                 "D": 2, "C": 2, "F": 2, "Q": 2, "T": 2, "J": 1, "B": 1, "G": 1, "M": 1}),
        Counter()),
    ("z-naturforsch-a-1999-shallow-water-scan", 2): (Counter(), Counter({"-": 2})),
    ("hanley-french-law-canon-scan", 1): (Counter(), Counter({"-": 2})),
    ("journal-suisse-1807-06-23-front-page-scan", 1): (Counter(), Counter({"-": 12})),
    ("der-erzaehler-1840-02-21-front-page-scan", 1): (Counter({"l": 1, ",": 1}), Counter()),
    ("reshumot-hatzaot-hok-566-2011", 1): (Counter(), Counter({".": 21})),
    ("journal-officiel-algerie-arabe-2020-51", 1): (Counter({"\u0640": 57}), Counter()),
    ("hahavatzelet-1908-01-03-jerusalem-scan", 1): (Counter({"«": 1, ")": 1}),
                                                    Counter({"»": 1, "(": 1})),
    ("iran-print-magazine-365-2012-persian-type-design", 1): (Counter({"»": 1}),
                                                              Counter({"«": 1})),
    ("africa-1965-reviews-of-books-mveng-jstor-scan-p219", 1): (Counter({"e": 1}), Counter()),
    ("iran-print-magazine-365-2012-persian-type-design", 2): (Counter({")": 1}),
                                                              Counter({"(": 1})),
    ("iran-print-magazine-365-2012-moalla-script", 1): (Counter({"\u200c": 5}), Counter()),
    ("isfahan-ai-traffic-conference-1403-adaptive-signal-control-p1", 1): (
        Counter({"ز": 19, "(": 1}), Counter({")": 1})),
    ("epic-robotz-newsletter-2014-10", 2): (Counter({"(cid:415)": 2}), Counter({"Ɵ": 2})),
    ("wikimedia-deutschland-2017-annual-report-looking-back", 1): (Counter({"l": 1}),
                                                                  Counter({"L": 1})),
    ("kramp-groep-2017-jaarverslag-profiel", 1): (
        Counter({"2": 4, "0": 4, "1": 4, "4": 1, "5": 1, "6": 1, "7": 1}), Counter()),
    ("babel-lua-arabic-2026-kahraba-three-columns", 1): (Counter({"«": 4, "”": 2}),
                                                         Counter({"»": 4, "“": 2})),
    ("nature-neuroscience-2011-ephaptic-coupling", 1): (
        Counter({"e": 3, "S": 3, "n": 2, "u": 1, "r": 1, "C": 1, "I": 1}),
        Counter({"E": 3, "s": 3, "N": 2, "U": 1, "R": 1, "c": 1, "i": 1, "\u00ad": 2})),
    ("nature-neuroscience-2011-ephaptic-coupling", 2): (
        Counter({"e": 3, "S": 1, "n": 2, "u": 1, "r": 1, "C": 1, "I": 1}),
        Counter({"E": 3, "s": 1, "N": 2, "U": 1, "R": 1, "c": 1, "i": 1})),
    ("thai-law-3154-budget-law-textbook-p95", 1): (Counter({"8": 1}), Counter()),
    ("cottage-grove-sentinel-1913-05-08-front-page-scan", 1): (Counter({"\u00ad": 44}),
                                                               Counter({"-": 44})),
    ("soviet-crt-8lo39v-datasheet-abbyy-ocr-p1", 1): (Counter({"\u00ad": 1}), Counter({"-": 1})),
    ("vesti-gazpromtransa-2015-05-front-page", 1): (
        Counter({"О": 2, "М": 2, "Н": 2, "Е": 2, "к": 1, "А": 1, "Р": 1, "И": 1}),
        Counter({"е": 2, "о": 2, "м": 2, "н": 2, "а": 1, "р": 1, "и": 1, "К": 1})),
}
"""Characters only one engine reads, per page: (pdfminer's, pdfium's).  The Analog Devices
datasheet sets Ω, μ and ± in the standard Symbol font, not embedded and without a
``/ToUnicode``: PDFium reads them by Symbol's built-in encoding, and so does the
pdfminer engine now (:data:`layoutkit.sources.builtin_encoding.STANDARD_SYMBOLIC`),
where pdfminer.six read the Latin names of the codes ("W" for Ω).

The two TeX papers (the IEEE DSN paper, page 3; the GRETSI paper, pages 1 and 4) set
math symbols in Computer Modern math fonts without a ``/ToUnicode`` or an
``/Encoding``, whose glyph names (``prime``, ``angbracketleft``, ``negationslash``,
``summationdisplay``) are TeX's, not the Adobe Glyph List's: both engines once read
the code's letter ("0" for a prime, "X" for Σ, as pdftotext still does) or named it
``(cid:N)``.  Both now read them by the embedded program's built-in encoding
(:mod:`layoutkit.sources.builtin_encoding`), the same: ′ ⟨ ⟩ ̸ ⋀ ∑ √ ˜
(tests/test_builtin_encoding.py).

The clinical paper (MathTime's MTSY) and the psychogeriatrics paper (CMSY6) give
their prime and the circle of © by name in ``/Differences`` (``/prime`` at code 3,
``/circlecopyrt`` at 2), in CFF subsets whose built-in encoding puts them elsewhere:
PDFium finds no Unicode for them and its API does not give the font's
``/Differences``, so the pdfium engine reads those names itself
(:mod:`layoutkit.sources.differences`), and both engines agree.

The handbook's boxed folio "1" (page 9) is a code its font names only in
``/Differences``: pdfminer reads the name, PDFium's text page has no character for it
(MuPDF gives a control character, pdftotext nothing).  The Algerian journal's cover
prints its title twice, the second copy 1.4 pt off the first (a shadow): PDFium's text
page drops the copy, pdfminer keeps it; the words are the same, as a glyph drawn again
at nearly the same place counts once (``glyph_repeat_overlap``).  Its Arabic edition
stretches words with runs of tatweel (U+0640, kashida) whose glyphs overlap: PDFium's
text page drops every other one, pdfminer keeps all (57 on page 1).  The OCR layer of the
Naturforschung scan ends two lines of its right column with a hyphen ("param-", "con-",
printed so on the scan) that pdfminer reads as a space and PDFium as the hyphen; so
does the Paper Capture layer of the Hanley book scan ("applica-", "house-"), and the
ABBYY layer of the Journal Suisse scan (12 lines: "nou-", "annon-"); the Cottage Grove
Sentinel scan's layer ends 44 lines with a soft hyphen that pdfminer keeps as U+00AD and
PDFium reads as the hyphen printed, and the ABBYY layer of the Soviet label sheet one.
The Gazpromtrans staff paper's front-page headline
(InDesign CS5.5, HeliosCond-Bold as a CID TrueType font) draws some letters with one glyph
for both cases, which its ``/ToUnicode`` maps to one case ('ПРАздНИкОМ'), and wraps seven runs
of them in ``/Span`` marked content whose ``/ActualText`` gives the case typed ('ра', 'ни',
'ом', 'нем', 'К', ...): PDFium's text page follows the ``/ActualText`` ('С Праздником! С днем
ВЕЛИКОЙ Победы!'), pdfminer the map (14 glyphs apart, in case only).  The Der Erzähler
scan's layer squeezes the letters of 'Mill.,' into glyphs 1 pt apart: PDFium's text
page drops the second 'l' and the comma over their neighbours, as it drops a shadow's
copy; pdfminer keeps them.  The
Hebrew bill (Reshumot, an InDesign page) has its full stops read as spaces by pdfminer
(a space glyph where PDFium and poppler read "." at the same place), all 21 of them.
PDFium also gives that page's brackets mirrored, "(" for ")", which the multiset of
texts cannot see (as many of each); both engines' lines read them the way round that
pairs them (:func:`layoutkit.reading.text.column_texts`).  The Hebrew newspaper scan's
OCR layer holds an unpaired guillemet and bracket among its Hebrew words, which PDFium
gives mirrored ("»" for "«", "(" for ")"), so there the multiset sees it; so do the
Persian magazine's (Distiller) unpaired guillemet and bracket; the Isfahan paper (Word)
stretches its justified lines with copies of 'ز' drawn over one another as kashidas, of
which PDFium's text page drops 19 as a shadow's, and has an unpaired bracket.  Its InDesign page
draws the zero-width non-joiner (U+200C, the Persian half-space) as glyphs of their
own, which pdfminer keeps and PDFium's text page drops.  The school newsletter's
Calibri draws "ti" as one glyph its font maps to no Unicode: pdfminer names the code
(cid:415), PDFium reads the font's character for it, "Ɵ"; neither is the text printed.
The Wikimedia Deutschland title 'Looking back at 2017' maps its capital L to "l" in
its ``/ToUnicode`` (pdfminer and pdftotext read "looking"); PDFium gives "L".  The Kramp
spread draws its chart's year labels twice at the same place (a fake bold, '22001144'):
PDFium's text page drops the copies, pdfminer keeps them. (Its white captions on the dark
page, 'KLANTTEVREDENHEID', 'DISTRIBUTIE CENTRA', 'ONE-STOP-SHOP', lost 23 letters to the
pdfminer engine until it followed the clipping paths that the dark shapes painted after
them are drawn through.) babel's Arabic sample (LuaTeX, FreeSerif) codes each guillemet
and quotation mark by the glyph's own shape; PDFium's text page gives the mirrored
character inside right-to-left text, so each pair swaps ('»من الكهرمان«') and the multiset
cannot see it, except beside the four Latin and Greek words quoted on the page
(«electricus», «ήλεκτρον», «Electric», «Electricity»), where PDFium mirrors only the
closing one (it gives '»' on both sides), and the two ” of ”التوصيل الكهربائي”, which it
gives as “. The Nature Neuroscience article's running head and foot ('COMPUTATION AND
SYSTEMS', 'ARTICLES', 'NATURE NEUROSCIENCE') are set in small-capital Optima
(OptimaLTStd-Black/-Bold, Type 1C, WinAnsi) whose ``/ToUnicode`` maps one-byte codes in a
two-byte codespace (<0000> <FFFF>) to letters of either case (<53> to "S", <45> to "e"):
pdfminer follows the map ('SyStemS artICleS', 'neurOSCIenCe'), PDFium gives the other case
for these letters ('Systems articles', 'NEUROSCIENCE'), so the multiset sees case only
(page 2's 'ARTICLES', under a shape filled outside its clip, is read by both since they
follow clips). PDFium also keeps, as glyphs, the two soft hyphens (U+00AD) the page-1 text
holds inside 'juxtaposed' and 'single-compartment' (not printed: neither word is broken
there), which pdfminer does not give.  JSTOR's OCR layer of the 1965
*Africa* review draws one 'e' twice at one place, overlapping (an italic word's boxes);
PDFium keeps one copy, pdfminer both.  So does the Thai law textbook page (Word, cut
with iLovePDF) with an '8' in 0.96-pt AngsanaNew drawn twice, 0.0001 pt apart, between
point (4) and definition (13) (invisible, left out of its truth): pdfminer reads '88',
PDFium '8'; the Thai text itself is read alike by both (measured: this '8' is the
only difference on the page)."""


def truth_pages() -> dict[Path, tuple[int, ...]]:
    """Every PDF that has a truth file, with the pages the file labels."""
    documents: dict[Path, set[int]] = {}
    for truth in sorted([*ROOT.glob("regions/*.truth.json"),
                         *ROOT.glob("regions/corpus/*.truth.json")]):
        data = json.loads(truth.read_text(encoding="utf-8"))
        path = (truth.parent / data["document"]).resolve()
        if path.suffix.lower() == ".pdf" and path.is_file():
            documents.setdefault(path, set()).update(int(p["page"]) for p in data["pages"])
    return {path: tuple(sorted(pages)) for path, pages in documents.items()}


DOCUMENTS = truth_pages()


@cache
def read(path: Path, engine: str) -> dict[int, PageGlyphs]:
    """The labelled pages of ``path`` as ``engine`` reads them, read once."""
    with open_source(path, engine) as source:
        return {page.page_no: page for page in source.pages(DOCUMENTS[path])}


def normal(text: str) -> str:
    """A glyph's text as compared: NFKC-normalised, without whitespace (PDFium joins an
    inkless space drawn at the origin of the next glyph to it: " .")."""
    return "".join(unicodedata.normalize("NFKC", text).split())


def texts(page: PageGlyphs) -> Counter[str]:
    """The page's non-space glyph texts, as compared."""
    return Counter(normal(g.text) for g in page.glyphs if g.text.strip())


def centres(page: PageGlyphs) -> dict[str, np.ndarray]:
    """The centres of the page's non-space glyphs, by text as compared."""
    boxes = page.glyphs.boxes
    found: dict[str, list[int]] = {}
    for k, glyph in enumerate(page.glyphs):
        if glyph.text.strip():
            found.setdefault(normal(glyph.text), []).append(k)
    return {text: np.column_stack([(boxes[ks, 0] + boxes[ks, 2]) / 2,
                                   (boxes[ks, 1] + boxes[ks, 3]) / 2])
            for text, ks in ((t, np.array(at)) for t, at in found.items())}


def pair_distances(a: PageGlyphs, b: PageGlyphs) -> np.ndarray:
    """The distances between the centres of paired glyphs of ``a`` and ``b``: glyphs of
    the same text, mutually nearest pairs first, each glyph used once."""
    theirs = centres(b)
    distances: list[np.ndarray] = []
    for text, mine in centres(a).items():
        other = theirs.get(text)
        if other is None:
            continue
        left, right = np.arange(len(mine)), np.arange(len(other))
        while len(left) and len(right):
            delta = mine[left][:, None, :] - other[right][None, :, :]
            d = np.hypot(delta[..., 0], delta[..., 1])
            row_best, col_best = d.argmin(axis=1), d.argmin(axis=0)
            mutual = np.flatnonzero(col_best[row_best] == np.arange(len(left)))
            distances.append(d[mutual, row_best[mutual]])
            left = np.delete(left, mutual)
            right = np.delete(right, row_best[mutual])
    return np.concatenate(distances) if distances else np.zeros(0)


CASES = [pytest.param(path, id=path.stem) for path in DOCUMENTS]


def test_engine_agreement_finds_the_labelled_documents() -> None:
    """The corpus and the fixture documents are all here, each with its pages."""
    assert len([p for p in DOCUMENTS if p.parent.name == "corpus"]) >= 16
    assert {"federal-register-2020-08-06", "acl-2014-phrase-generation"} <= {
        p.stem for p in DOCUMENTS}
    assert all(DOCUMENTS.values())


def test_engine_agreement_pairing_measures_what_moved() -> None:
    """The pairing pairs each glyph with its own, and measures a shift exactly."""
    path = next(p for p in DOCUMENTS if p.stem == "federal-register-2020-08-06")
    page = read(path, "pdfminer")[DOCUMENTS[path][0]]
    shift = np.array([3.0, 4.0, 3.0, 4.0])  # 3 pt right, 4 pt down: 5 pt
    moved = PageGlyphs(page.page_no, page.width, page.height,
                       type(page.glyphs)(page.glyphs.texts, page.glyphs.boxes + shift,
                                         page.glyphs.fonts, page.glyphs.sizes,
                                         page.glyphs.directions, page.glyphs.weights),
                       page.rules, page.images)
    d = pair_distances(page, moved)
    assert len(d) == texts(page).total()
    assert np.median(d) == pytest.approx(5.0)


@pytest.mark.parametrize("path", CASES)
def test_engine_agreement_on_labelled_pages(path: Path) -> None:
    """Size, characters and glyph boxes agree on every labelled page of the document."""
    for page_no in DOCUMENTS[path]:
        miner, pdfium = read(path, "pdfminer")[page_no], read(path, "pdfium")[page_no]
        where = f"{path.stem} p{page_no}"
        assert abs(miner.width - pdfium.width) <= SIZE_TOLERANCE, where
        assert abs(miner.height - pdfium.height) <= SIZE_TOLERANCE, where
        ours, theirs = texts(miner), texts(pdfium)
        assert ours.total() >= MIN_CHARACTERS, where
        if path.stem in MAPPED_APART:
            assert (theirs - ours).total() <= MAPPED_APART[path.stem] * theirs.total(), where
            assert (ours - theirs).total() <= MAPPED_APART[path.stem] * theirs.total(), where
        else:
            only_miner, only_pdfium = KNOWN_DIFFERENCES.get((path.stem, page_no),
                                                            (Counter(), Counter()))
            assert (ours - theirs, theirs - ours) == (only_miner, only_pdfium), where
        distances = pair_distances(miner, pdfium)
        assert len(distances) == (ours & theirs).total(), where  # every glyph paired
        median, p95 = np.median(distances), np.percentile(distances, 95)
        if path.stem in VERTICAL_SHIFT:
            assert median < VERTICAL_SHIFT[path.stem], where
            assert p95 < VERTICAL_SHIFT[path.stem] + 0.5, where
        elif path.stem in SHIFTED:
            assert median == pytest.approx(SHIFTED[path.stem], abs=0.05), where
            assert p95 - median < DRIFTED.get(path.stem, P95_BOUND), where
        else:
            assert median < MEDIAN_BOUND, where
            assert p95 < DRIFTED.get(path.stem, P95_BOUND), where
        mine, other = weights(miner, ours & theirs), weights(pdfium, ours & theirs)
        both = mine.keys() & other.keys()
        if path.stem not in MAPPED_APART:  # there, fewer texts are drawn as often
            assert len(both) >= len(ours & theirs) / 2, where
        assert {t: mine[t] for t in both} == {t: other[t] for t in both}, where


def weights(page: PageGlyphs, shared: Counter[str]) -> dict[str, list[int]]:
    """The font weights of the page's glyphs of each text both engines draw as often
    (of the ``shared`` texts), in order: the engines weigh every font alike."""
    found: dict[str, list[int]] = {}
    for glyph in page.glyphs:
        text = normal(glyph.text)
        if text in shared:
            found.setdefault(text, []).append(glyph.weight)
    return {text: sorted(found[text]) for text in found
            if len(found[text]) == shared[text]}


# ------------------------------------------------------------------- pdftotext

HAS_POPPLER = shutil.which("pdftotext") is not None and shutil.which("pdfinfo") is not None


def poppler_sizes(path: Path, pages: tuple[int, ...]) -> dict[int, tuple[float, float]]:
    """The displayed page sizes poppler gives the ``pages`` of ``path``: the crop box
    of ``pdftotext -bbox -cropbox`` (which does not turn the page), turned by the
    ``/Rotate`` pdfinfo reports."""
    sizes = {}
    for page_no in pages:
        out = subprocess.run(["pdftotext", "-q", "-bbox", "-cropbox", "-f", str(page_no),
                              "-l", str(page_no), str(path), "-"],
                             capture_output=True, text=True, check=True).stdout
        found = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', out)
        assert found, f"{path.name} p{page_no}: no page in pdftotext's output"
        info = subprocess.run(["pdfinfo", "-f", str(page_no), "-l", str(page_no), str(path)],
                              capture_output=True, text=True, check=True).stdout
        turn = re.search(rf"Page +{page_no} rot: +(\d+)", info)
        assert turn, f"{path.name} p{page_no}: no rotation in pdfinfo's output"
        width, height = float(found[1]), float(found[2])
        sizes[page_no] = (height, width) if int(turn[1]) % 180 == 90 else (width, height)
    return sizes


@pytest.mark.skipif(not HAS_POPPLER, reason="pdftotext and pdfinfo are not installed")
@pytest.mark.parametrize("path", CASES)
def test_engine_agreement_pdftotext_sizes(path: Path) -> None:
    """pdftotext, a third reader, gives every labelled page the engines' size."""
    for page_no, (width, height) in poppler_sizes(path, DOCUMENTS[path]).items():
        for engine in ENGINES:
            page = read(path, engine)[page_no]
            assert abs(page.width - width) <= SIZE_TOLERANCE, (engine, page_no)
            assert abs(page.height - height) <= SIZE_TOLERANCE, (engine, page_no)


# ------------------------------------------------------------------- page boxes

HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
TEXT_AT = (100, 700)
"""Where the hand-made pages draw "Hi" (user space, 12 pt Helvetica)."""

HELVETICA_DESCENT = {"pdfminer": -0.207, "pdfium": -0.224}
"""Helvetica's descent in ems as each engine boxes it: pdfminer the AFM's, PDFium its
built-in font's (tests/test_engines.py)."""


def boxed_pdf(path: Path, pages_node: bytes, page: bytes) -> Path:
    """A one-page PDF whose /Pages node holds ``pages_node`` and whose page holds
    ``page`` (boxes, /Rotate), drawing "Hi" at TEXT_AT."""
    content = b"BT /F1 12 Tf %d %d Td (Hi) Tj ET" % TEXT_AT
    path.write_bytes(pdf_bytes([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 " + pages_node + b" >>",
        b"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> "
        b"/Contents 4 0 R " + page + b" >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        HELVETICA]))
    return path


BOX_CASES = {
    # name: (/Pages entries, /Page entries, displayed size, turn, the pen on the display)
    "own-a4": (b"", b"/MediaBox [0 0 595 842]", (595, 842), 0, (100, 142)),
    "inherited-media": (b"/MediaBox [0 0 595 842]", b"", (595, 842), 0, (100, 142)),
    "inherited-crop": (b"/MediaBox [0 0 595 842] /CropBox [10 20 500 800]", b"",
                       (490, 780), 0, (90, 100)),
    "own-crop-inherited-media": (b"/MediaBox [0 0 595 842]", b"/CropBox [10 20 500 800]",
                                 (490, 780), 0, (90, 100)),
    "inherited-rotate": (b"/MediaBox [0 0 595 842] /Rotate 90", b"", (842, 595), 90,
                         (700, 100)),
    "no-media-box": (b"", b"", (612, 792), 0, (100, 92)),
    "reversed-media": (b"", b"/MediaBox [595 842 0 0]", (595, 842), 0, (100, 142)),
    "user-unit": (b"", b"/MediaBox [0 0 595 842] /UserUnit 2", (595, 842), 0, (100, 142)),
    "origin-rotate-0": (b"", b"/MediaBox [50 100 645 942]", (595, 842), 0, (50, 242)),
    "origin-rotate-90": (b"", b"/MediaBox [50 100 645 942] /Rotate 90", (842, 595), 90,
                         (600, 50)),
    "origin-rotate-180": (b"", b"/MediaBox [50 100 645 942] /Rotate 180", (595, 842), 180,
                          (545, 600)),
    "origin-rotate-270": (b"", b"/MediaBox [50 100 645 942] /Rotate 270", (842, 595), 270,
                          (242, 545)),
}
"""Page-tree boxes, with the displayed size, the viewer's turn and where the pen that
draws "H" at TEXT_AT stands on the displayed page (top-left points), worked out by
hand: the crop box's corner is the origin, and a turned page shows user space turned
clockwise.  /UserUnit is ignored by both engines and by pdftotext: sizes stay in
user-space units."""


def edges(turn: int, pen: tuple[float, float], descent: float, size: float,
          box: BBox) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two edges of ``box`` the pen fixes, and where they should be: the start of
    the baseline, and the descent below it, in the page's turn."""
    x, y = pen
    below = -descent * size  # the box starts this far below the baseline
    if turn == 0:
        return (box.x0, box.bottom), (x, y + below)
    if turn == 90:  # the baseline runs down the page, the em points right
        return (box.top, box.x0), (y, x - below)
    if turn == 180:  # the baseline runs leftwards, the em points down
        return (box.x1, box.top), (x, y - below)
    return (box.bottom, box.x1), (y, x + below)  # 270: up the page, em to the left


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", list(BOX_CASES))
def test_engine_agreement_page_tree_boxes(tmp_path: Path, name: str, engine: str) -> None:
    """Media and crop boxes inherited from the page tree, /Rotate on a media box away
    from the origin, a box written upside down: the displayed size and the glyph's
    place, exactly, from both engines (and the size from pdftotext)."""
    pages_node, page_entries, size, turn, pen = BOX_CASES[name]
    path = boxed_pdf(tmp_path / f"{name}.pdf", pages_node, page_entries)
    with open_source(path, engine) as source:
        page = next(iter(source.pages([1])))
    assert (page.width, page.height) == pytest.approx(size, abs=0.01)
    first = page.glyphs[0]
    assert first.text == "H"
    assert first.direction == -turn % 360  # a page turned clockwise turns its text so
    found, expected = edges(turn, pen, HELVETICA_DESCENT[engine], 12.0, first.bbox)
    assert found == pytest.approx(expected, abs=0.01)
    if HAS_POPPLER:
        assert poppler_sizes(path, (1,))[1] == pytest.approx(size, abs=SIZE_TOLERANCE)


# ------------------------------------------------------------------- vertical text

COLUMNS = ("日本語の縦書きテキストです", "二行目ABCの文章", "123", "縦")
"""Columns of vertical text, right to left: all kanji and kana (no glyph of them in
any font PDFium has here), one with Latin letters, digits alone, one character."""


def vertical_pdf(path: Path) -> Path:
    """A page of vertical Japanese in HeiseiMin-W3 (``UniJIS-UCS2-V``, not embedded),
    each column a text object starting 12 pt below y = 700, columns 20 pt apart."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("HeiseiMin-W3", isVertical=True))
    c = canvas.Canvas(str(path), pagesize=(595, 842))
    c.setFont("HeiseiMin-W3", 12)
    for k, column in enumerate(COLUMNS):
        c.drawString(300 - 20 * k, 700, column)
    c.showPage()
    c.save()
    return path


def test_engine_agreement_vertical_japanese(tmp_path: Path) -> None:
    """Every character of vertical text in a CJK font the PDF does not embed, from both
    engines and pdftotext; each column stands where it is drawn.

    PDFium bounds a vertical text object by its glyphs' ink alone, and its text page
    skipped the objects without (the columns of kanji and kana, and the single
    character): the pdfium engine read 12 of the 26 characters.  The boxes of the
    engines stand 0.24 em apart along the column: pdfminer puts a vertical glyph's top
    0.12 em above the pen (it reads the vertical origin's height vy = 880 as 1000 -
    vy), PDFium's box runs from the pen down one em and is set by the substitute
    font's descent here."""
    path = vertical_pdf(tmp_path / "vertical.pdf")
    expected = Counter("".join(COLUMNS))
    pages = {}
    for engine in ENGINES:
        with open_source(path, engine) as source:
            pages[engine] = next(iter(source.pages([1])))
        assert texts(pages[engine]) == expected, engine
        found: dict[int, str] = {}
        for glyph in sorted(pages[engine].glyphs, key=lambda g: g.bbox.top):
            centre = (glyph.bbox.x0 + glyph.bbox.x1) / 2
            k = round((300 - centre) / 20)
            # a full-width glyph is centred on its pen; a half-width one (Latin, digits)
            # too, by pdfminer's box (one em wide), and by PDFium's within 1.5 pt (its
            # box runs from the glyph's left edge to one em right of the pen's column)
            assert centre == pytest.approx(300 - 20 * k,
                                           abs=1.51 if glyph.text in "ABC123" else 0.01), (
                engine, glyph)
            found[k] = found.get(k, "") + glyph.text
        assert [found[k] for k in range(len(COLUMNS))] == list(COLUMNS), engine
    first = [next(g for g in pages[e].glyphs if g.text == "日") for e in ENGINES]
    assert [g.bbox.height for g in first] == pytest.approx([12.0, 12.0], abs=0.01)
    assert first[0].bbox.top == pytest.approx(842 - 700 - 0.12 * 12, abs=0.01)
    d = pair_distances(pages["pdfminer"], pages["pdfium"])
    assert len(d) == expected.total()
    assert np.median(d) < 0.25 * 12
    if shutil.which("pdftotext"):
        out = subprocess.run(["pdftotext", "-q", "-bbox", str(path), "-"],
                             capture_output=True, text=True, check=True).stdout
        words = re.findall(r"<word [^>]*>([^<]*)</word>", out)
        assert Counter("".join(words)) == expected


INKLESS_WORDS = ((72, 700, "Words"), (120, 700, "of"), (140, 700, "a"), (152, 700, "layer"),
                 (72, 680, "one"), (100, 680, "I"), (108, 680, "read"))
"""The words of `inkless_pdf`, each drawn as a text object of its own: (x, y, text)."""


def inkless_pdf(path: Path, mode: bytes = b"", after: bytes = b"") -> Path:
    """A page of `INKLESS_WORDS` in a Type 3 font whose glyphs draw nothing, as an OCR
    engine's text layer is set: words with advances and no ink, drawn in the render
    ``mode`` set before them (``3 Tr``), the content ``after`` them painted next."""
    ops = mode + b"\n" + b"".join(b"BT /F1 10 Tf %d %d Td (%s) Tj ET\n" % (x, y, text.encode())
                                  for x, y, text in INKLESS_WORDS) + after
    names = sorted({c for _, _, text in INKLESS_WORDS for c in text})
    path.write_bytes(one_page(
        ops, b"<< /Font << /F1 5 0 R >> >>",
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 0 0]"
        b" /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs 7 0 R /FirstChar 32 /LastChar 126"
        b" /Encoding << /Differences [%s] >> /Widths [%s] >>" % (
            b" ".join(b"%d /%s" % (ord(c), c.encode()) for c in names),
            b" ".join(b"500" for _ in range(32, 127))),
        b"<< /Length 8 >>\nstream\n500 0 d0\nendstream",
        b"<< %s >>" % b" ".join(b"/%s 6 0 R" % c.encode() for c in names)))
    return path


def test_engine_agreement_one_letter_words_of_a_layer_without_ink(tmp_path: Path) -> None:
    """Every letter of a text layer set in a font without glyphs, from both engines,
    the words of one letter too.  PDFium bounds such a word by its advances alone, flat,
    and one of a single letter by a point, which its text page skipped as it skips a
    space drawn on its own: the pdfium engine read 'Wordsoflayeroneread', without 'a'
    and 'I' (the one-letter words of an ABBYY layer, the corpus's Soviet label sheet,
    were lost so)."""
    path = inkless_pdf(tmp_path / "inkless.pdf")
    expected = Counter("".join(text for _, _, text in INKLESS_WORDS))
    for engine in ENGINES:
        with open_source(path, engine) as source:
            page = next(iter(source.pages([1])))
        assert texts(page) == expected, engine
        placed = {(round(g.bbox.x0), round(g.bbox.bottom), g.text) for g in page.glyphs}
        assert {(140, 92, "a"), (100, 112, "I")} <= placed, engine


# ------------------------------------------------------------------- text as read

LIGATURE_PAGES = {"acl-2014-phrase-generation": (8, Counter({"fi": 13})),
                  "democracyplus-new-times": (1, Counter({"fi": 16, "fl": 2, "ff": 1})),
                  "kaobook-2022-documentation-margin-stuff": (2, Counter({"fl": 6, "ff": 5,
                                                                          "fi": 5}))}
"""Labelled pages whose fonts draw Latin ligatures as one glyph, with the glyphs of
several letters each engine reads there: pdfminer.six gave the presentation forms
(``ﬁ`` U+FB01), PDFium the letters."""


@pytest.mark.parametrize("name", list(LIGATURE_PAGES))
def test_engine_agreement_ligatures_read_as_their_letters(name: str) -> None:
    """A ligature glyph reads as the letters it joins (``fi``, as pdftotext writes
    it) from both engines: the texts themselves agree, not only their NFKC forms."""
    path = next(p for p in DOCUMENTS if p.stem == name)
    page_no, ligatures = LIGATURE_PAGES[name]
    for engine in ENGINES:
        texts = read(path, engine)[page_no].glyphs.texts
        assert not [t for t in texts if re.search("[\ufb00-\ufb06]", t)], engine
        assert Counter(t for t in texts if len(t) > 1 and t.isalpha()) == ligatures, engine


def font_pdf(font: bytes, shown: bytes, *more: bytes) -> bytes:
    """A page showing the codes of the string ``shown`` in font ``font`` (object 5;
    ``more`` objects from 6, such as its descriptor and program)."""
    content = b"BT /F1 14 Tf 20 150 Td (" + shown + b") Tj ET"
    return pdf_bytes([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        font, *more])


def both_engines(tmp_path: Path, pdf: bytes) -> list[list[str]]:
    """The glyph texts of page 1 of ``pdf`` as each engine reads it."""
    path = tmp_path / "page.pdf"
    path.write_bytes(pdf)
    found = []
    for engine in ENGINES:
        with open_source(path, engine) as source:
            found.append(list(next(iter(source.pages([1]))).glyphs.texts))
    return found


SYMBOLIC_CASES = {
    "ZapfDingbats": (b"/BaseFont /ZapfDingbats", b"37n4", ["✓", "✗", "■", "✔"]),
    "ZapfDingbats, /Differences": (
        b"/BaseFont /ZapfDingbats /Encoding << /Differences [98 /a20] >>", b"\\174ab7",
        ["❜", "❁", "✔", "✗"]),
    "ZapfDingbats, /WinAnsiEncoding": (b"/BaseFont /ZapfDingbats /Encoding /WinAnsiEncoding",
                                       b"37", ["✓", "✗"]),
    "Symbol": (b"/BaseFont /Symbol", b"abgWm|\\245",
               ["α", "β", "γ", "\u2126", "µ", "|", "∞"]),  # the ohm sign, as PDFium gives it
    "Symbol, /Differences over /WinAnsiEncoding": (
        b"/BaseFont /Symbol /Encoding << /BaseEncoding /WinAnsiEncoding "
        b"/Differences [98 /beta /zeta] >>", b"abc", ["α", "β", "ζ"]),
    "Symbol,Bold (no standard font)": (b"/BaseFont /Symbol,Bold", b"ab", ["a", "b"]),
}
"""Fonts naming the standard symbolic fonts without embedding them, the codes shown
and the text both engines read: each code by the font's built-in encoding, whatever
``/Encoding`` names, its ``/Differences`` over it (as PDFium reads them); a font named
otherwise is read by StandardEncoding."""


@pytest.mark.parametrize("name", list(SYMBOLIC_CASES))
def test_engine_agreement_standard_symbolic_fonts(tmp_path: Path, name: str) -> None:
    """Symbol and ZapfDingbats read the same from both engines, by their built-in
    encodings (pdfminer.six read ``7`` for ✗ and ``W`` for Ω)."""
    font, shown, expected = SYMBOLIC_CASES[name]
    pdf = font_pdf(b"<< /Type /Font /Subtype /Type1 " + font + b" >>", shown)
    assert both_engines(tmp_path, pdf) == [expected, expected]


def test_engine_agreement_symbolic_tables_are_the_standard_encodings() -> None:
    """The built-in encodings of Symbol and ZapfDingbats, code by code, as ReportLab's
    codecs decode them; the Zapf Dingbats glyph names read as their codes do."""
    from reportlab.pdfbase.rl_codecs import RL_Codecs

    from layoutkit.sources.builtin_encoding import (
        DINGBAT_GLYPHS,
        STANDARD_SYMBOLIC,
        glyph_text,
    )

    RL_Codecs.register()
    for font, codec in (("Symbol", "symbol"), ("ZapfDingbats", "zapfdingbats")):
        table = STANDARD_SYMBOLIC[font]
        decoded = {code: bytes([code]).decode(codec, "replace") for code in range(32, 256)}
        assert table == {code: text for code, text in decoded.items() if text != "\ufffd"}
    assert len(DINGBAT_GLYPHS) == 201 and glyph_text("a23") == "✗" and glyph_text("a19") == "✓"


def cff_font(name: str, encoding: dict[int, str]) -> bytes:
    """A bare CFF font program named ``name`` whose built-in ``encoding`` gives its
    glyphs (squares) those names at those codes."""
    import io

    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    names = [".notdef", *encoding.values()]
    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({})
    strings = {}
    for glyph in names:
        pen = T2CharStringPen(700, None)
        pen.moveTo((50, 0))
        pen.lineTo((650, 0))
        pen.lineTo((650, 650))
        pen.closePath()
        strings[glyph] = pen.getCharString()
    builder.setupCFF(name, {"FullName": name}, strings, {})
    cff = builder.font["CFF "].cff
    cff.topDictIndex[0].Encoding = [encoding.get(code, ".notdef") for code in range(256)]
    out = io.BytesIO()
    cff.compile(out, builder.font)
    return out.getvalue()


def embedded_pdf(name: bytes, program: bytes, shown: bytes, flags: int,
                 encoding: bytes = b"") -> bytes:
    """A page showing ``shown`` in the Type 1 font ``name`` embedding the CFF
    ``program``, its descriptor's ``flags`` (4: symbolic, 32: not) and ``encoding``."""
    return font_pdf(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+" + name + b" /FirstChar 32 "
        b"/LastChar 255 /Widths [" + b"700 " * 224 + b"] /FontDescriptor 6 0 R" + encoding
        + b" >>", shown,
        b"<< /Type /FontDescriptor /FontName /ABCDEF+" + name + b" /Flags %d " % flags
        + b"/FontBBox [0 0 700 700] /ItalicAngle 0 /Ascent 700 /Descent 0 /CapHeight 700 "
        b"/StemV 80 /FontFile3 7 0 R >>",
        b"<< /Subtype /Type1C /Length %d >>\nstream\n%s\nendstream" % (len(program), program))


def test_engine_agreement_embedded_dingbats_by_their_names(tmp_path: Path) -> None:
    """An embedded ZapfDingbats program whose built-in encoding names its glyphs
    ``a19``, ``a23`` reads ✓ ✗ from both engines: pdfminer named them ``(cid:51)``,
    ``(cid:55)``, PDFium read the names."""
    program = cff_font("ZapfDingbats", {51: "a19", 55: "a23", 117: "a71"})
    pdf = embedded_pdf(b"ZapfDingbats", program, b"37u", 4)
    assert both_engines(tmp_path, pdf) == [["✓", "✗", "●"]] * 2


def test_engine_agreement_symbolic_differences_over_the_builtin_encoding(
        tmp_path: Path) -> None:
    """A symbolic font's ``/Differences`` without ``/BaseEncoding`` lies over its
    built-in encoding, as PDFium reads and draws it: CMSY's ♣ at 124 reads ♣, CMEX's
    brace tip (a name without text) ``(cid:65)`` from both engines, where pdfminer
    read StandardEncoding's ``|`` and ``A``; a font not flagged symbolic reads the codes
    the ``/Differences`` leaves alone by StandardEncoding in both."""
    program = cff_font("CMEX10", {124: "club", 106: "bar", 65: "bracehtipupleft",
                                  66: "summationtext"})
    differences = b" /Encoding << /Differences [66 /summationtext] >>"
    symbolic = embedded_pdf(b"CMEX10", program, b"|jAB", 4, differences)
    assert both_engines(tmp_path, symbolic) == [["♣", "|", "(cid:65)", "∑"]] * 2
    latin = embedded_pdf(b"CMEX10", program, b"|jAB", 32, differences)
    assert both_engines(tmp_path, latin) == [["|", "j", "A", "∑"]] * 2
