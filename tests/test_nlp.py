"""Paragraphs, tokens, language and the TextDocument API on the fixture documents."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from layoutkit import LayoutConfig, TextDocument, parse
from layoutkit.cli import main
from layoutkit.errors import DocumentError
from layoutkit.linetypes.hyphens import line_join
from layoutkit.model import BBox, Line, LineType, Page, Word
from layoutkit.model import Document as Layout
from layoutkit.nlp.language import detect_pages
from layoutkit.nlp.nlptext import read
from layoutkit.nlp.paragraphs import join_hyphenated, page_vocabulary
from layoutkit.nlp.tokens import Analysis, analyse, spacy_doc

PDF = Path(__file__).resolve().parent.parent / "fixtures" / "pdf"
CITY_2016 = PDF / "cleveland-city-record-2016-04-27.pdf"


@pytest.fixture(scope="module")
def city() -> Analysis:
    return analyse(parse(CITY_2016, pages="3-8"), LayoutConfig().nlp)


def test_city_record_tokens_hold_nothing_of_its_running_headers_and_footers(
        city: Analysis) -> None:
    furniture = {(page.page_no, k) for page in city.document.pages
                 for k, line in enumerate(page.lines) if line.furniture}
    assert len(furniture) >= 6  # a header and a footer on each of the six pages
    used = {(t._.page, t._.line) for _, doc in city.paragraphs for t in doc}
    assert used and not used & furniture
    assert {t._.line_type for _, doc in city.paragraphs for t in doc}.isdisjoint({"h", "f"})


def test_each_token_traces_back_to_its_line_and_box(city: Analysis) -> None:
    for _, doc in city.paragraphs[:40]:
        for token in doc:
            page = next(p for p in city.document.pages if p.page_no == token._.page)
            line = page.lines[token._.line]
            x0, top, x1, bottom = token._.bbox
            assert line.bbox.x0 - 0.01 <= x0 <= x1 <= line.bbox.x1 + 0.01
            assert line.bbox.top - 0.01 <= top < bottom <= line.bbox.bottom + 0.01
            if token.text.isalpha() and not token.text.endswith("-"):
                assert token.text in line.text or line.text.endswith("-")


def test_a_word_hyphenated_at_a_line_end_is_one_token(city: Analysis) -> None:
    for paragraph, doc in city.paragraphs:
        ends = [p for p in paragraph.pieces if p.line.text.endswith(" authoriz-")]
        if ends:
            where = (ends[0].line.page_no, ends[0].index)
            tokens = [t for t in doc if (t._.page, t._.line) == where]
            assert tokens[-1].text == "authorizing"
            return
    pytest.fail("the fixture's 'authoriz-/ing' line end was not found")


@pytest.mark.parametrize(("left", "right", "vocabulary", "joined"), [
    ("the con-", "tract is", {"contract"}, "the contract is"),
    ("his step-", "daughter", {"step-daughter", "stepdaughter"}, "his step-daughter"),
    ("his step-", "daughter", {"step", "daughter"}, "his step-daughter"),
    ("Anglo-", "American", {"angloamerican"}, "Anglo-American"),
    ("unknown frag-", "ment", set(), "unknown fragment"),
    ("a dash -", "b", {"b"}, None),
    # a soft hyphen at a line end is judged as a hyphen, and kept as one (PDFium gives "-")
    ("juxta\u00ad", "posed", {"juxtaposed"}, "juxtaposed"),
    ("the Anglo\u00ad", "American", set(), "the Anglo-American"),
    ("the step\u2010", "daughter", {"step", "daughter"}, "the step\u2010daughter"),
    ("the con\u2010", "tract is", {"contract"}, "the contract is"),
])
def test_hyphenated_line_ends(left: str, right: str, vocabulary: set[str],
                              joined: str | None) -> None:
    kept = join_hyphenated(left, right, vocabulary)
    assert (None if kept is None else kept + right) == joined


@pytest.mark.parametrize(("left", "right", "text"), [
    # an address broken at a line end runs on with no space
    ("at http://www.", "clinsci.org/content/127/5", "at http://www.clinsci.org/content/127/5"),
    ("e-mail: jiao@xmu", ".edu.cn.", "e-mail: jiao@xmu.edu.cn."),
    ("http://www.smh.com.au/articles/2004/05/16/", "1084646069771.html",
     "http://www.smh.com.au/articles/2004/05/16/1084646069771.html"),
    ("from http://", "www.ethicalcorp.com", "from http://www.ethicalcorp.com"),
    ("http://www.cnn.com/2013/1", "0/16/health/krokodil-", "http://www.cnn.com/2013/10/16/health/krokodil-"),
    ("0/16/health/krokodil-", "zombie-drug/ for", "0/16/health/krokodil-zombie-drug/ for"),
    # a whole address, then text or another address
    ("at http://example.org/", "and the", "at http://example.org/ and the"),
    ("ali@gmail.com1", "nmty9198@gmail.com2", "ali@gmail.com1 nmty9198@gmail.com2"),
    ("a sentence.", "Another", "a sentence. Another"),
    ("on 2013/10/16", "and then", "on 2013/10/16 and then"),
    ("https://doi.org/10.1038/s41586-", "020-2649-2.", "https://doi.org/10.1038/s41586-020-2649-2."),
    ("mail: john.smith@", "gmail.com.", "mail: john.smith@gmail.com."),
    ("http://arxiv.org/", "abs/1301.3781/.", "http://arxiv.org/abs/1301.3781/."),
    ("(http://www.", "clinsci.org/x) and", "(http://www.clinsci.org/x) and"),
    # a sentence or a reference after a whole address
    ("at www.example.org/", "e.g. the", "at www.example.org/ e.g. the"),
    ("at https://data.city.gov/", "U.S. census", "at https://data.city.gov/ U.S. census"),
    ("mail jane@uni.edu.", "Dr. Smith", "mail jane@uni.edu. Dr. Smith"),
    ("Available: http://www.x.org/", "J. Doe, A.", "Available: http://www.x.org/ J. Doe, A."),
    ("arXiv:1234.5678.", "doi:10.1000/xyz", "arXiv:1234.5678. doi:10.1000/xyz"),
    # a dash closed up to its word runs on with none; a spaced one keeps its spaces
    ("through replication—", "each country", "through replication—each country"),
    ("temps–", "fréquence", "temps–fréquence"),
    ("a dash —", "and more", "a dash — and more"),
    # and so does a slash
    ("Orden SND/", "414/2020, de", "Orden SND/414/2020, de"), ("and/", "or", "and/or"),
    ("a slash /", "and more", "a slash / and more"), ("on 12/05/", "2020", "on 12/05/2020"),
    # CJK runs on with no space; a hyphenated word joins again
    ("東京都", "北京市", "東京都北京市"),
    ("the con-", "tract is", "the contract is"),
])
def test_line_ends_joined_as_running_text(left: str, right: str, text: str) -> None:
    assert line_join(left, right, {"contract", "and", "the", "for"}) + right == text


def test_the_pieces_of_a_word_broken_over_lines_are_no_words_of_the_page() -> None:
    """A line-end fragment and the line start it runs into are no words of the page:
    taken for words, 'ме' and 'таллорежущего' kept the hyphen of 'ме-таллорежущего'."""
    from layoutkit.model import Band, BandKind, Block, Column
    lines = ("стиральной машины до ме-", "таллорежущего станка и", "электровоза.")
    laid = []
    for k, text in enumerate(lines):
        pieces = tuple(_word(w, 10.0 + 60 * j) for j, w in enumerate(text.split(" ")))
        laid.append(Line(text, BBox.union(w.bbox for w in pieces), pieces, 1, 0, 0, k))
    column = Column(0, BBox(0, 0, 300, 300), (Block(tuple(laid), BBox(0, 0, 300, 300)),))
    page = Page(1, 300.0, 300.0, (Band(0, BandKind.BODY, BBox(0, 0, 300, 300), (column,)),))
    words = page_vocabulary(page)
    assert words == {"стиральной", "машины", "до", "станка", "и", "электровоза"}
    assert join_hyphenated(lines[0], lines[1], words) == lines[0][:-1]


def test_a_sentence_across_a_column_break_is_one_sentence(city: Analysis) -> None:
    crossings = 0
    for paragraph, doc in city.paragraphs:
        for before, after in zip(paragraph.pieces, paragraph.pieces[1:], strict=False):
            if (before.line.page_no, before.line.band, before.line.column) == (
                    after.line.page_no, after.line.band, after.line.column):
                continue
            if re.search(r"[.!?:]$", before.line.text):
                continue
            last = doc.char_span(after.start - 2, after.start - 1, alignment_mode="expand")
            assert last is not None
            first = next(t for t in doc if t.idx >= after.start)
            assert last[0].sent == first.sent, paragraph.text[after.start - 80:after.start + 40]
            crossings += 1
    assert crossings >= 3


def test_the_spacy_doc_keeps_the_extension_attributes(city: Analysis) -> None:
    doc = spacy_doc(city)
    assert len(doc) == sum(len(d) for _, d in city.paragraphs)
    assert {t._.page for t in doc} == {3, 4, 5, 6, 7, 8}
    assert all(t._.line_type is not None and len(t._.bbox) == 4 for t in doc)
    assert doc[0].lemma_ and city.nlp.pipe_names == ["sentencizer", "lemmatizer"]


@pytest.mark.parametrize(("name", "lang"), [
    ("cleveland-city-record-2016-04-27", "en"), ("cleveland-city-record-2004-06-09", "en"),
    ("federal-register-2020-08-06", "en"), ("geotopo-lecture-notes-de", "de"),
    ("copyright-office-dmca-summary", "en"), ("senate-bill-equality-act", "en"),
])
def test_tokens_and_nlptext_of_each_fixture_and_its_language(name: str, lang: str,
                                                            tmp_path: Path) -> None:
    tokens, tree = tmp_path / "t.json", tmp_path / "t.nlp.txt"
    pdf = str(PDF / f"{name}.pdf")
    assert main(["tokens", pdf, "--pages", "1-6", "-o", str(tokens)]) == 0
    assert main(["nlptext", pdf, "--pages", "1-6", "-o", str(tree)]) == 0
    data = json.loads(tokens.read_text(encoding="utf-8"))
    assert data["lang"] == lang and data["pipeline"] == f"blank:{lang}"
    assert [page["lang"] for page in data["pages"]].count(lang) >= 5
    assert sum(len(s["tokens"]) for page in data["pages"] for para in page["paragraphs"]
               for s in para["sentences"]) > 300
    assert read(tree.read_text(encoding="utf-8")).elements


def test_language_of_short_pages_and_other_languages() -> None:
    config = LayoutConfig().nlp.replace(lang_min_chars=20)
    texts = ["Le conseil municipal a adopté la résolution suivante après un long débat.",
             "El ayuntamiento aprobó la siguiente resolución después de un largo debate.",
             "Il consiglio comunale ha approvato la seguente risoluzione dopo un lungo dibattito.",
             "ok"]
    _, pages = detect_pages(texts, config)
    assert pages[:3] == ["fr", "es", "it"]
    assert pages[3] == detect_pages(texts, config)[0]


def _word(text: str, x: float) -> Word:
    return Word(text, BBox(x, 10.0, x + 6.0 * len(text), 20.0), "Font-Ω", 10.0)


def test_store_and_load_keep_any_unicode_exactly(tmp_path: Path) -> None:
    texts = ["Москва́ ﬁnance ﬂow", "東京都 北京市", "naïve “quoted” \U0001f600 e\u0301"]
    lines = []
    for k, text in enumerate(texts):
        words = tuple(_word(w, 10.0 + 60 * j) for j, w in enumerate(text.split(" ")))
        lines.append(Line(text, BBox.union(w.bbox for w in words), words, 1, 0, 0, k,
                          LineType.HEADING if k == 0 else LineType.BODY, 1 if k == 0 else 0))
    from layoutkit.model import Band, BandKind, Block, Column
    column = Column(0, BBox(0, 0, 300, 300), (Block(tuple(lines), BBox(0, 0, 300, 300)),))
    page = Page(1, 300.0, 300.0, (Band(0, BandKind.BODY, BBox(0, 0, 300, 300), (column,)),))
    layout = Layout(tmp_path / "ünïcode.pdf", (page,), 1)
    written = TextDocument.from_layout(layout).store(tmp_path / "out", pages=True)
    assert written.name == "ünïcode.json"
    assert (tmp_path / "out" / "ünïcode1.txt").read_text(encoding="utf-8") == "\n".join(texts)
    assert TextDocument.load(tmp_path / "out", "ünïcode").layout == layout


def test_store_writes_every_file_atomically_and_load_finds_the_stored_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """store() writes its files through write_atomic; load() passes over the JSON
    ``layoutkit parse`` writes beside it and names a store it cannot read."""
    import layoutkit.document
    from layoutkit.outputs import dumps

    page = Page(1, 300.0, 300.0, ())
    layout = Layout(tmp_path / "plain.pdf", (page,), 1)
    written: list[str] = []
    atomic = layoutkit.document.write_atomic

    def recorded(path: Path, text: str) -> None:
        written.append(path.name)
        atomic(path, text)

    monkeypatch.setattr(layoutkit.document, "write_atomic", recorded)
    TextDocument.from_layout(layout).store(tmp_path / "out", pages=True)
    assert sorted(written) == ["plain.json", "plain1.json", "plain1.txt"]
    (tmp_path / "out" / "parsed.json").write_text(dumps(layout), encoding="utf-8")
    assert TextDocument.load(tmp_path / "out").layout == layout
    (tmp_path / "out" / "plain.json").write_text(
        '{"schema": "layoutkit.store/2", "document": {}}', encoding="utf-8")
    with pytest.raises(DocumentError, match=r"plain\.json: schema 'layoutkit\.store/2' is "
                                            r"unknown to this version of layoutkit"):
        TextDocument.load(tmp_path / "out")


def test_the_document_api(tmp_path: Path) -> None:
    doc = TextDocument(PDF / "copyright-office-dmca-summary.pdf")
    assert len(doc) == 18 and doc[0].page_no == 1 and doc[-1].page_no == 18
    assert [p.page_no for p in doc] == list(range(1, 19))
    assert doc.text() == doc.layout.text() and doc[1].text() == doc.layout.pages[1].text()
    assert doc.lang == "en" and doc[3].lang == "en"
    bag = doc.bag_of_words
    assert [word for word, _ in doc.freq_dist[:2]] == ["section", "copyright"]
    assert doc.freq_dist[1] == ("copyright", bag["copyright"]) and bag["copyright"] >= 50
    assert sum(f for _, f in doc.term_freq) == pytest.approx(1.0)
    assert sum(sum(page.bag_of_words.values()) for page in doc) == sum(bag.values())
    assert "the" not in bag
    with pytest.raises(IndexError):
        doc[18]
    doc.store(tmp_path)
    assert TextDocument.load(tmp_path).layout == doc.layout


def test_tokens_and_nlptext_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t.json"
    assert main(["tokens", str(CITY_2016), "--pages", "5", "-o", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["schema"] == "layoutkit.tokens/1" and data["lang"] == "en"
    assert [p["pageNo"] for p in data["pages"]] == [5]
    token = data["pages"][0]["paragraphs"][0]["sentences"][0]["tokens"][0]
    assert {"text", "lemma_", "is_stop", "page", "line", "bbox"} <= set(token)
    assert "pos_" not in token  # a blank pipeline has no tagger
    assert main(["nlptext", str(CITY_2016), "--pages", "5", "-o", str(tmp_path / "t.nlp.txt")]) == 0
    assert (tmp_path / "t.nlp.txt").read_text(encoding="utf-8").startswith(
        "## NLPTextDocument Title cleveland-city-record-2016-04-27\n")
    capsys.readouterr()
    assert main(["tokens", str(CITY_2016), "--pages", "5", "--model", "no_such_pipeline"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--model no_such_pipeline" in err
    assert main(["tokens", str(CITY_2016), "--set", "spacy_ignore_line_type_toc=maybe"]) == 2
    assert "expected a true or false" in capsys.readouterr().err


def test_each_line_stands_in_its_paragraph_where_its_piece_says(city: Analysis) -> None:
    for paragraph, _ in city.paragraphs:
        for piece, after in zip(paragraph.pieces, (*paragraph.pieces[1:], None), strict=True):
            text = piece.line.text
            end = after.start if after else len(paragraph.text)
            own = paragraph.text[piece.start:end]
            assert own in (text, text + " ", text[:-1]), (own, text)
