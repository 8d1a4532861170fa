"""How running text joins a line to the next.

A word hyphenated at a line end is joined again when the joined form is a word, or
kept where the hyphen is a compound's; an address broken at a line end runs on with no
space, and so does CJK text.  Used wherever lines are read as running text: a heading
wrapped over lines (`layoutkit.linetypes.outline`), paragraphs
(`layoutkit.nlp.paragraphs`) and captions (`layoutkit.outputs.figures`).
"""

from __future__ import annotations

import re
from collections.abc import Container

from ..model import Document, Page, is_cjk
from ..reading.stream import FIRST_WORD, HYPHENATED_END
from ..reading.text import SOFT_HYPHEN

__all__ = ["document_vocabulary", "join_hyphenated", "line_join", "page_vocabulary"]

_WORD = re.compile(r"[^\W\d_]+(?:[-\u2010][^\W\d_]+)*")
_ADDRESS_END = re.compile(r"(?:^|[\s(<\[\"“'])((?:[a-z][a-z\d+.-]*://|www\.|[^\s@(<]+@)\S*"
                          r"|\S*/\S*/\S*)$", re.IGNORECASE)
"""A line ending in an address: a URL (a scheme, or ``www.``), an e-mail address, or a
path's pieces (two slashes: a URL's rest, on the line after its scheme)."""
_ADDRESS_BREAK = re.compile(r"[/\-_@:?=&#~%]$")
"""Where a producer breaks an address at a line end, past a mark that parts its pieces
(a full stop ends a sentence as often: `_DOMAIN` is asked after one)."""
_ADDRESS_PIECE = re.compile(r"[\w\-./?=&#%~:@+]*[\w/-]")
"""A word that may go on with an address: letters, figures and the marks that part an
address's pieces, ending in a letter, a figure, a slash or a hyphen."""
_INNER_MARK = re.compile(r"[./\-_?=&#%~:@]")
"""A mark that parts an address's pieces, inside a word."""
_ABBREVIATION = re.compile(r"(?:[^\W\d_]\.)+[^\W\d_]?")
"""Letters each closed by a full stop: an abbreviation ('e.g.', 'U.S.'), no address."""
_CLOSING = ")]>,;\"”'’"
"""What may close an address in running text: a bracket, a comma, a quote."""
_DOMAIN = re.compile(r"[a-z\d-]+(?:\.[a-z\d-]+)*\.[a-z]{2,}(?:[/?#]\S*)?")
"""The rest of a host name, after a full stop at a line end ('clinsci.org/content')."""
_WEB_ADDRESS = re.compile(r"(?:^|\s)\S*(?:://|www\.|@)\S*$", re.IGNORECASE)
"""A line ending in a URL or an e-mail address (not a date's or a reference's slashes,
'12/05/', 'SND/414/')."""
_CLOSED_END = re.compile(r"\S[—–/]$")
"""A dash or a slash closed up to the word before it at a line end ('replication—',
'temps–', 'SND/' over '414/2020', 'and/' over 'or'): the word after it, on the next
line, is closed up to it too."""


def _runs_into_address(left: str, right: str) -> bool:
    """Whether ``right`` goes on with the address ``left`` ends in, broken at the line
    end: before a mark that parts its pieces ('.edu.cn', '/16/health/'); past one, on a
    piece that holds such a mark itself ('gmail.com.', '020-2649-2.', 'watch?v=1'), no
    abbreviation ('e.g.', 'U.S.'); past a full stop, on a host name's rest
    ('clinsci.org/'); or anywhere, where the rest holds a path
    ('http://www.cnn.com/2013/1' over '0/16/health/…')."""
    if _ADDRESS_END.search(left) is None or not right.strip():
        return False
    start = right.split(maxsplit=1)[0]
    if start[:1] in "./":
        return start[1:2].isalnum()
    piece = start.rstrip(_CLOSING).removesuffix(".").rstrip(_CLOSING)
    if _ADDRESS_PIECE.fullmatch(piece) is None or _ABBREVIATION.fullmatch(piece):
        return False
    if left.endswith("."):
        return _DOMAIN.fullmatch(piece) is not None
    if _ADDRESS_BREAK.search(left):
        return _INNER_MARK.search(piece) is not None
    return piece.count("/") >= 2


def line_join(left: str, right: str, vocabulary: Container[str]) -> str:
    """``left`` as it stands before ``right`` when lines run on in running text: a word
    hyphenated at its end joined again or not (`join_hyphenated`, over the words in
    ``vocabulary``); an address broken at its end (a URL, an e-mail address: 'http://www.'
    over 'clinsci.org/', 'jiao@xmu' over '.edu.cn', `_runs_into_address`) running on
    with no space, its hyphens kept; CJK text with none either, nor a dash or a slash
    closed up to its word ('replication—' over 'each', `_CLOSED_END`); anything else
    followed by a space."""
    if _runs_into_address(left, right):
        return left
    joined = join_hyphenated(left, right, vocabulary)
    if joined is not None:
        return joined
    closed = is_cjk(left[-1]) or is_cjk(right[0]) or (
        _CLOSED_END.search(left) is not None and right[:1].isalnum()
        and _WEB_ADDRESS.search(left) is None)  # a whole address ends where it does
    return left if closed else left + " "


def document_vocabulary(document: Document) -> frozenset[str]:
    """Every word (lower case) written whole inside a line of the document, hyphenated
    compounds included: the document's own evidence for joining hyphenated line ends."""
    return frozenset(word for page in document.pages for word in page_vocabulary(page))


def page_vocabulary(page: Page) -> set[str]:
    """The words of `document_vocabulary` written on ``page``: what a document
    read a page at a time keeps of each page to decide its hyphenated line ends.  The
    pieces of a word broken over two lines are none (the 'ме' and 'таллорежущего'
    of 'ме-' over 'таллорежущего': taken for words, they kept the hyphen)."""
    words: set[str] = set()
    broken = False
    for line in page.lines:
        found = [match.group().lower() for match in _WORD.finditer(line.text)]
        ends_broken = HYPHENATED_END.search(line.text) is not None
        words.update(found[int(broken):len(found) - int(ends_broken)])
        broken = ends_broken
    return words


def join_hyphenated(left: str, right: str, vocabulary: Container[str]) -> str | None:
    """What ``left`` becomes before ``right`` is appended to it, when ``left`` ends in
    a word hyphenated before the first word of ``right``; ``None`` when it does not
    (the lines are then joined with a space).

    The hyphen is kept (a compound such as "step-daughter") when the hyphenated
    form is in ``vocabulary``, or when both halves are words and the joined form
    is not, or when the second half is capitalised ("Anglo-American"); otherwise
    it marks a word broken at the line end and is dropped.  A soft hyphen
    (`SOFT_HYPHEN`) is judged so too, and kept as a hyphen: PDFium gives one at a
    line end as '-', and either engine reads the text alike."""
    end, start = HYPHENATED_END.search(left), FIRST_WORD.match(right)
    if end is None or start is None:
        return None
    head, tail = end[1].lower(), start[0]
    joined, compound = head + tail.lower(), f"{head}-{tail.lower()}"
    keep = (tail[0].isupper() or compound in vocabulary
            or (joined not in vocabulary and head in vocabulary and tail.lower() in vocabulary))
    if not keep:
        return left[:-1]
    return left[:-1] + "-" if end[2] == SOFT_HYPHEN else left
