"""Furniture found on first pages of the development corpus, where no repetition shows
it: mastheads and datelines, notices outside the text block, headers held over a table,
a header carrying its page's own number, folios and banners of pages alone in their
files."""

from __future__ import annotations

from pathlib import Path

import pytest

import layoutkit

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus"


def furniture_and_body(stem: str, page: int) -> tuple[list[str], str]:
    """The furniture lines of a corpus page and its body text."""
    parsed = layoutkit.parse(CORPUS / f"{stem}.pdf", pages=[page], typed=False)[0]
    return [line.text for line in parsed.lines if line.furniture], parsed.text()


@pytest.mark.parametrize(("stem", "page", "furniture", "body"), [
    # a cover's dateline in 12 pt under running headers of 10 pt, its row-mate
    ("journal-officiel-algerie-2022-50", 1,
     ["Jeudi 29 Dhou El Hidja 1443", "61ème ANNEE", "Correspondant au 28 juillet 2022"],
     "ABONNEMENT"),
    # a cover's nameplate is a picture half a page high: its dateline, in 11.5 pt over
    # running headers of 9 pt, is the first text under it, with the edition number
    ("diario-oficial-federacion-2024-12-15", 1,
     ["No. de edición del mes: 15", "Ciudad de México, domingo 15 de diciembre de 2024"],
     "CONTENIDO"),
    # the dateline row of a parliament's record beside its number in figures
    ("bayerischer-landtag-plenarprotokoll-17-140", 1,
     ["17. Wahlperiode", "27.09.2018", "ber. Plenarprotokoll 17/140"], "140. Sitzung"),
    # an issue number between the ISSN and the dateline
    ("diario-oficial-uniao-2014-10-01", 1,
     ["ISSN 1677-7042", "Ano CLI N o - 189", "Brasília - DF, quarta-feira, 1 de outubro de 2014"],
     "Sumário"),
    # a notice of five small lines over the title, outside the text block
    ("intpsychogeriatrics-dementia-2014", 1,
     ["Cambridge University Press must be obtained for commercial re-use.",
      "doi:10.1017/S1041610213001804"], "Stressful life events"),
    # a notice at the foot under two columns
    ("bayerischer-landtag-plenarprotokoll-17-140", 1, ["Verfügung."], "Geschäftliches"),
    # a running header right over a table on one page, apart on the other
    ("barnes-county-nd-election-abstract-2008", 1,
     ["Official 2008 GEN Abstract.xls", "4/8/2010"], "BARNES COUNTY"),
    # a newspaper's folio lines: the section name set large stands level with the date
    # line and the edition line under it, and joins neither to the other
    ("the-hindu-2025-09-19-editorial-opinion", 2,
     ["THE HINDU", "Friday, September 19, 2025 11", "Delhi Opinion"], "New Delhi, Sept. 18"),
    # the colour bars and edition code in the trim margin, 3 pt under the columns
    ("the-hindu-2025-09-19-editorial-opinion", 1, ["CM A ND-NDE", "YK"],
     "must carry the postal address."),
    # a newsletter's footer set 7.7 pt lower on its second page than on its first
    ("cooleman-ridge-newsletter-2017-08", 2, ["Rob Lundie lundier@iinet.net.au"],
     "Cooleman"),
    # the second page of two: a header ending with the page's own number
    ("democracyplus-new-times", 2, ["The New Times: 24 SEP 2015 2"], "woman for fifty"),
    # pages alone in their files: a folio apart from a running head, a date, an issue line
    ("hanley-french-law-canon-scan", 1, ["60 SARAH HANLEY"], "University of Iowa"),
    ("bass-guitar-magazine-2017-02-trujillo", 1, ["February 2017 023"],
     "On the day Metallica unleash"),
    # a spread's two running heads, each folio parted from its title by a bar
    ("kramp-groep-2017-jaarverslag-profiel", 1,
     ["14 | Interview CFO Hans Scholten", "Jaarverslag 2017 Kramp Groep | 15"],
     "Beschikbaarheid vergroten"),
    ("reshumot-hatzaot-hok-566-2011", 1,
     ["468 הצעות חוק הממשלה - 566, ה' באדר א' התשע\"א, 9.2.2011"],
     "מתפרסמת בזה הצעת חוק מטעם הממשלה:"),
    # the page number under a proceedings' imprint, outside the text block
    ("acl-2014-phrase-generation", 1, ["624", "Proceedings of the 52nd Annual Meeting"],
     "Phrase generation in distributional semantics"),
    # a navigation bar set larger than the body over the running footer
    ("kpmg-commodity-insights-iron-ore-2013-12", 1,
     ["Copper | Diamond | Gold | Iron Ore | Metallurgical Coal"], "DECEMBER 2013"),
    # a gazette's issue row on a ruled bar under its nameplate, the gazette's one page
    ("fek-a-10-2018-01-24", 1, ["24 Ιανουαρίου 2018", "ΤΕΥΧΟΣ ΠΡΩΤΟ", "Αρ. Φύλλου 10"],
     "ΕΦΗΜΕΡΙ∆Α"),
    # a journal's banner right over the article's title
    ("bmc-health-services-malawi-2014", 1, ["RESEARCH ARTICLE", "Open Access"],
     "Understanding the barriers"),
])
def test_corpus_first_page_furniture(stem: str, page: int, furniture: list[str],
                                     body: str) -> None:
    """Each line is furniture, out of the body text; the body is read."""
    found, text = furniture_and_body(stem, page)
    joined = " ".join(found)
    for line in furniture:
        assert line in joined
        assert line not in text
    assert body in text
