"""NLPTextDocument: the writer and reader agree on any tree; the format's lines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from layoutkit.errors import DocumentError
from layoutkit.nlp.nlptext import (
    ListElement,
    ListItem,
    NLPTextDocument,
    Section,
    Table,
    TableCell,
    TextBlock,
    read,
    write,
)

_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30)
_HASHED = st.one_of(_TEXT, _TEXT.map(lambda t: "## " + t), _TEXT.map(lambda t: t + "\n" + t))
_BLOCK = _HASHED.map(TextBlock)


def _elements(depth: int) -> st.SearchStrategy[tuple[object, ...]]:
    if depth == 0:
        return st.tuples(_BLOCK)
    inner = _elements(depth - 1)
    items = st.lists(inner.map(ListItem), max_size=3).map(tuple)
    cells = st.lists(st.builds(TableCell, st.integers(1, 9), st.integers(1, 9), inner,
                               st.booleans(), st.integers(1, 3), st.integers(1, 3)),
                     max_size=3).map(tuple)
    element = st.one_of(_BLOCK, st.builds(Section, _TEXT, inner),
                        st.builds(ListElement, _TEXT, items, st.booleans()),
                        st.builds(Table, _TEXT, cells))
    return st.lists(element, max_size=3).map(tuple)


@settings(max_examples=150, deadline=None)
@given(st.builds(NLPTextDocument, _HASHED, _TEXT, _TEXT,
                 st.lists(st.tuples(st.text("abcxyz", min_size=1), _TEXT), max_size=2).map(tuple),
                 _elements(3)))
def test_write_then_read_gives_the_same_tree(doc: NLPTextDocument) -> None:
    assert read(write(doc)) == doc


def test_the_published_line_forms() -> None:
    doc = NLPTextDocument("T", "u", "2016-04-27T00:00:00", (("k", "v"),), (
        Section("1 Intro", (TextBlock("a\nb"), ListElement("", (ListItem((TextBlock("x"),)),
                                                                 ListItem((TextBlock("y"),)))))),
        Table("", (TableCell(1, 2, (TextBlock("c"),), header=True),
                   TableCell(2, 1, (TextBlock("d"),), rowspan=2, colspan=3))),
    ))
    assert write(doc).splitlines() == [
        "## NLPTextDocument Title T", "## NLPTextDocument Uri u",
        "## NLPTextDocument Timestamp 2016-04-27T00:00:00", "## NLPTextDocument Metadata k=v", "",
        "", "## 1 Section Start 1 Intro", "a\\nb", "## 2 List Items >> x || y",
        "## 1 Section End <<1 Intro>>",
        "", "## 1 Table Start", "## 2 TableHeader Start 1,2", "c", "## 2 TableHeader End",
        "## 2 TableCell Start 2:2,1:3", "d", "## 2 TableCell End", "## 1 Table End",
    ]


def test_a_file_out_of_the_format_is_named_with_its_line() -> None:
    with pytest.raises(DocumentError, match=r"x.nlp.txt: line 3: nesting level 2, expected 1"):
        read("## NLPTextDocument Title t\n\n## 2 Section Start s\n", where="x.nlp.txt")
    with pytest.raises(DocumentError, match="has no End"):
        read("## 1 Section Start s\ntext\n")
