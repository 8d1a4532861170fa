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
