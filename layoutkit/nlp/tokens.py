"""spaCy over a document's paragraphs: sentences and tokens traceable to the page.

- The pipeline is a user's installed trained pipeline when one is named (such as
  `en_core_web_sm`), otherwise `spacy.blank(lang)` with a sentencizer and the lookup
  lemmatizer of spacy-lookups-data for the detected language; nothing is downloaded.
- A language whose spaCy tokenizer needs a package that is not installed (Japanese:
  SudachiPy) is cut by the blank class `tokenizer_fallbacks` names (Japanese: spaCy's
  Chinese, a token per CJK character); the JSON's `pipeline` says which (`blank:zh`).
- Each token keeps its page, the index of its line among the page's lines (as in
  `layoutkit parse` JSON), the line's type and its box.

JSON schema `layoutkit.tokens/1`::

    {"schema": "layoutkit.tokens/1", "document": "<file name>", "lang": "en",
     "pipeline": "blank:en" | "<model name>", "pipes": ["sentencizer", "lemmatizer"],
     "pages": [{"pageNo": 1, "lang": "en",
                "paragraphs": [{"lineType": "b",
                                "sentences": [{"text": "...",
                                               "tokens": [{"text": "...", ..., "page": 1,
                                                           "line": 12,
                                                           "bbox": [x0, top, x1, bottom]}]}]}]}]}

A paragraph is listed on the page it starts on; its tokens carry their own page.
Token attributes are DCR's set, each only when the pipeline fills it (`lemma_` with a
lemmatizer, `pos_`/`tag_` with a tagger or morphologizer, `dep_` with a parser,
`ent_iob_`/`ent_type_` with an entity recogniser).
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Token

from ..config import LayoutConfig, NlpConfig
from ..errors import ConfigTypeError, UsageError
from ..files import text_name
from ..model import BBox, Document, Page
from ..model.codec import json_pieces
from .language import detect_pages
from .lexicon import Lexicon
from .paragraphs import (
    Paragraph,
    Piece,
    document_vocabulary,
    ignored_codes,
    paragraphs,
    paragraphs_of,
)
from .spool import page_text, spooled

__all__ = ["SCHEMA", "Analysis", "analyse", "load_pipeline", "spacy_doc", "token_bbox",
           "tokens_dumps", "tokens_json", "tokens_pieces", "words"]

SCHEMA = "layoutkit.tokens/1"
_ALWAYS = ("text", "whitespace_", "i", "idx", "norm_", "shape_", "prefix_", "suffix_",
           "is_alpha", "is_ascii", "is_digit", "is_lower", "is_upper", "is_title",
           "is_punct", "is_left_punct", "is_right_punct", "is_space", "is_bracket",
           "is_quote", "is_currency", "is_stop", "like_num", "like_url", "like_email")
_BY_PIPE = {"lemmatizer": ("lemma_",), "tagger": ("pos_", "tag_"), "morphologizer": ("pos_",),
            "parser": ("dep_",), "ner": ("ent_iob_", "ent_type_")}
_EXTENSIONS = ("page", "line", "line_type", "bbox")


@cache
def load_pipeline(lang: str, model: str | None = None, fallbacks: str = "") -> Language:
    """The spaCy pipeline for ``lang``: the installed pipeline ``model`` when named,
    else a blank one of the language's class with a sentencizer and (where
    spacy-lookups-data has tables for the language) the lookup lemmatizer.  A
    language whose tokenizer needs a package that is not installed takes the blank
    class its entry in ``fallbacks`` names (``ja:zh,...``; see
    ``NlpConfig.tokenizer_fallbacks``), else the multi-language one (``xx``)."""
    if model:
        try:
            return spacy.load(model)
        except OSError:
            raise UsageError(f"--model {model}: no installed spaCy pipeline of that name "
                             "(install it with pip first)") from None
    try:
        nlp = spacy.blank(lang)
    except ImportError:
        pairs = dict(pair.split(":", 1) for pair in fallbacks.split(",") if ":" in pair)
        nlp = spacy.blank(pairs.get(lang, "xx"))
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("lemmatizer", config={"mode": "lookup"})
    try:
        nlp.initialize()
    except ValueError:  # spacy-lookups-data has no lookup table for this language
        nlp.remove_pipe("lemmatizer")
        nlp.initialize()
    return nlp


@dataclass(frozen=True, slots=True)
class Analysis:
    """A document read for NLP: its language (and each page's), the pipeline used and
    each paragraph with its spaCy ``Doc``."""

    document: Document
    lang: str
    page_langs: tuple[str, ...]
    nlp: Language
    pipeline: str
    paragraphs: tuple[tuple[Paragraph, Doc], ...]


def analyse(document: Document, config: LayoutConfig | NlpConfig | None = None,
            model: str | None = None) -> Analysis:
    """The document's paragraphs (the config's ignored line types left out) run
    through the pipeline chosen by ``model`` or the detected language.

    ``config`` is the whole `layoutkit.LayoutConfig` (its ``nlp`` section is
    read), that section alone, or None for the defaults; anything else raises
    ConfigTypeError (a TypeError too) naming what was given."""
    config = nlp_section(config)
    skip = ignored_codes(config)
    lang, page_langs = detect_pages([page_text(page, skip) for page in document.pages], config)
    nlp = load_pipeline(lang, model, config.tokenizer_fallbacks)
    found = paragraphs(document, skip, Lexicon(document_vocabulary(document), lang))
    return Analysis(document, lang, tuple(page_langs), nlp, model or f"blank:{nlp.lang}",
                    tuple(_analysed(nlp, found)))


def nlp_section(config: LayoutConfig | NlpConfig | None) -> NlpConfig:
    """The NLP section of ``config``: of a whole `layoutkit.LayoutConfig`, its
    ``nlp``; a section as given; the defaults for None.  Raises ConfigTypeError for
    any other value, so that a wrong argument fails in one line rather than deep inside."""
    if isinstance(config, LayoutConfig):
        return config.nlp
    if isinstance(config, NlpConfig):
        return config
    if config is None:
        return NlpConfig()
    raise ConfigTypeError(f"config: expected a LayoutConfig or its nlp section (NlpConfig), "
                          f"got {type(config).__name__}")


def _analysed(nlp: Language, found: Iterable[Paragraph]) -> Iterator[tuple[Paragraph, Doc]]:
    """Each paragraph with its ``Doc`` (see `_traced`), as the pipeline makes
    them."""
    _register_extensions()
    for doc, paragraph in nlp.pipe(((p.text, p) for p in found), as_tuples=True):
        yield paragraph, _traced(doc, paragraph)


def spacy_doc(analysis: Analysis) -> Doc:
    """One spaCy ``Doc`` of the whole document, paragraph after paragraph, each token
    with the extension attributes ``token._.page``, ``._.line`` (index among the
    page's lines), ``._.line_type`` (DCR's code) and ``._.bbox`` (``[x0, top, x1,
    bottom]``)."""
    docs = [doc for _, doc in analysis.paragraphs]
    if not docs:
        return Doc(analysis.nlp.vocab, words=[])
    return Doc.from_docs(docs, ensure_whitespace=True)


def tokens_json(analysis: Analysis) -> dict[str, Any]:
    """The analysis as JSON-ready data, schema `SCHEMA`."""
    head = _head(analysis.document.path.name, analysis.lang, analysis.nlp, analysis.pipeline)
    return {**head, "pages": list(_page_entries(
        [page.page_no for page in analysis.document.pages], analysis.page_langs,
        analysis.paragraphs, analysis.nlp))}


def tokens_dumps(analysis: Analysis) -> str:
    """[`tokens_json`][layoutkit.nlp.tokens.tokens_json] as indented UTF-8 JSON text."""
    return json.dumps(tokens_json(analysis), ensure_ascii=False, indent=1) + "\n"


def tokens_pieces(name: str, pages: Iterable[Page], config: NlpConfig,
                  model: str | None = None) -> Iterator[str]:
    """The text [`tokens_dumps`][layoutkit.nlp.tokens.tokens_dumps] gives of
    [`analyse`][layoutkit.nlp.tokens.analyse] of the document named ``name`` whose ``pages`` come
    one at a time ([`layoutkit.iter_pages`][layoutkit.iter_pages]), a page's entry at a time: the
    pages are taken once for the document's language and words (`spool`), then read back and
    written, so that memory holds those and the paragraph running on across a page break, not the
    pages."""
    skip = ignored_codes(config)
    with spooled(pages, skip) as spool:
        lang, page_langs = detect_pages(list(spool.texts), config)
        nlp = load_pipeline(lang, model, config.tokenizer_fallbacks)
        found = paragraphs_of(spool.pages(), skip, Lexicon(spool.vocabulary, lang))
        yield from json_pieces(_head(name, lang, nlp, model or f"blank:{nlp.lang}"), _page_entries(
            spool.numbers, page_langs, _analysed(nlp, found), nlp))


def _head(name: str, lang: str, nlp: Language, pipeline: str) -> dict[str, Any]:
    """The JSON of `SCHEMA` before its pages (an empty list), the document's
    ``name`` as UTF-8 can hold it (`text_name`)."""
    return {"schema": SCHEMA, "document": text_name(name), "lang": lang, "pipeline": pipeline,
            "pipes": list(nlp.pipe_names), "pages": []}


def _page_entries(numbers: Sequence[int], langs: Sequence[str],
                  analysed: Iterable[tuple[Paragraph, Doc]], nlp: Language
                  ) -> Iterator[dict[str, Any]]:
    """The JSON of each page (by number, in the language of ``langs``) with the
    paragraphs that start on it, each as soon as the first paragraph after it is
    made (paragraphs come in reading order, their pages ascending)."""
    fields = tuple(dict.fromkeys(_ALWAYS + tuple(attr for pipe in nlp.pipe_names
                                                 for attr in _BY_PIPE.get(pipe, ()))))
    coming = iter(analysed)
    pending = next(coming, None)
    for number, lang in zip(numbers, langs, strict=True):
        entries = []
        while pending is not None and pending[0].page_no == number:
            paragraph, doc = pending
            entries.append({"lineType": paragraph.code,
                            "sentences": [{"text": sent.text,
                                           "tokens": [_token(token, fields) for token in sent]}
                                          for sent in doc.sents]})
            pending = next(coming, None)
        yield {"pageNo": number, "lang": lang, "paragraphs": entries}


def token_bbox(piece: Piece, start: int, end: int) -> BBox:
    """The box of characters ``start:end`` of ``piece``'s line text (offsets within the
    line; characters past the line's end, the rest of a word joined from the next
    line, are left out): the words they touch, a part of a word taking its share of
    the word's width.  Each word is looked for in the line's text after the one
    before (CJK words are joined without a space; a word of right-to-left text,
    spelled as it stands on the page, is not found, and the line's box is the
    fallback)."""
    boxes = []
    offset = 0
    text = piece.line.text
    for word in piece.line.words:
        found = text.find(word.text, offset)
        if found < 0:
            continue
        offset = found
        first, last = max(start, offset), min(end, offset + len(word.text))
        if first < last:
            box, size = word.bbox, len(word.text)
            boxes.append(BBox(box.x0 + box.width * (first - offset) / size, box.top,
                              box.x0 + box.width * (last - offset) / size, box.bottom))
        offset += len(word.text)
    return BBox.union(boxes) if boxes else piece.line.bbox


def _register_extensions() -> None:
    for name in _EXTENSIONS:
        if not Token.has_extension(name):
            Token.set_extension(name, default=None)


def _traced(doc: Doc, paragraph: Paragraph) -> Doc:
    """``doc`` with each token's page, line, line type and box set."""
    starts = [piece.start for piece in paragraph.pieces]
    for token in doc:
        piece = paragraph.pieces[bisect_right(starts, token.idx) - 1]
        start = token.idx - piece.start
        box = token_bbox(piece, start, start + len(token.text))
        token._.page = piece.line.page_no
        token._.line = piece.index
        token._.line_type = piece.line.code
        token._.bbox = box.as_list()
    return doc


def _token(token: Token, fields: Sequence[str]) -> dict[str, Any]:
    values = {name: getattr(token, name) for name in fields}
    values.update({name: getattr(token._, name) for name in _EXTENSIONS})
    return values


def words(analysis: Analysis, page_no: int | None = None) -> Iterator[str]:
    """The lower-case words (alphabetic tokens that are not stop words) of the whole
    document or of its page ``page_no``."""
    for _, doc in analysis.paragraphs:
        yield from (t.norm_ for t in doc if t.is_alpha and not t.is_stop
                    and (page_no is None or t._.page == page_no))
