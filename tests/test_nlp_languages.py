"""Tokens of gazettes in French, German, Spanish and Italian: each language detected,
read without error, and its words given their lemmas by spacy-lookups-data's table
(the French table maps some forms to a list of lemmas)."""

from __future__ import annotations

from pathlib import Path

import pytest

from layoutkit import LayoutConfig, parse
from layoutkit.nlp.tokens import analyse

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus"


@pytest.mark.parametrize(("name", "page", "lang"), [
    ("journal-officiel-algerie-2022-50", 2, "fr"),
    ("bayerischer-landtag-plenarprotokoll-17-140", 2, "de"),
    ("borme-2015-02-10-caceres", 2, "es"),
    ("gazzetta-ufficiale-serie-generale-2025-111", 5, "it"),
])
def test_tokens_of_a_gazette_have_lemmas(name: str, page: int, lang: str) -> None:
    analysis = analyse(parse(CORPUS / f"{name}.pdf", pages=[page]), LayoutConfig().nlp)
    words = [token for _, doc in analysis.paragraphs for token in doc if token.is_alpha]
    assert analysis.lang == lang
    assert analysis.nlp.pipe_names == ["sentencizer", "lemmatizer"]
    assert len(words) > 50 and all(token.lemma_ for token in words)
    # the table lemmatises: a share of the words are inflected forms of another lemma
    inflected = [t for t in words if t.lemma_.lower() != t.text.lower()]
    assert len(inflected) > len(words) / 20, [t.text for t in words[:20]]


@pytest.mark.parametrize(("name", "lang", "pipeline"), [
    ("fek-a-10-2018-01-24", "el", "blank:el"),
    ("reshumot-hatzaot-hok-566-2011", "he", "blank:he"),
    ("mhlw-kokuji-55-2022-vertical", "ja", "blank:zh"),
])
def test_tokens_of_a_page_in_another_script_by_its_language(name: str, lang: str,
                                                             pipeline: str) -> None:
    """A Greek decree, a Hebrew bill and a Japanese notice set vertically: each page's
    language is detected and its text cut by that language's blank spaCy class;
    Japanese, whose tokenizer needs SudachiPy (not installed), by the Chinese one, a
    token per CJK character, and its sentences end at 。."""
    analysis = analyse(parse(CORPUS / f"{name}.pdf", pages=[1]), LayoutConfig().nlp)
    assert (analysis.lang, analysis.page_langs, analysis.pipeline) == (lang, (lang,), pipeline)
    tokens = [token for _, doc in analysis.paragraphs for token in doc]
    words = [token.text for token in tokens if token.is_alpha]
    assert len(words) > 50
    if lang == "ja":
        assert all(len(word) == 1 for word in words)
        ends = [sent.text[-1] for _, doc in analysis.paragraphs for sent in doc.sents]
        assert ends.count("。") >= 5
    else:  # words of letters, split at spaces and punctuation, none glued to a bracket
        assert max(map(len, words)) < 20 and not any(c in "()«»" for w in words for c in w)
