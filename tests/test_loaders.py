"""The LangChain loader and the LlamaIndex reader (`layoutkit.loaders`), with the real
packages, on the generated report of `report_pages`."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest
from report_pages import HEADER, Truth, written_report

import layoutkit
from layoutkit.errors import UsageError
from layoutkit.model import Document

langchain_core = pytest.importorskip("langchain_core")
llama_index_core = pytest.importorskip("llama_index.core")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Truth, Document]:
    return written_report(tmp_path_factory.mktemp("report"))


def test_loaders_langchain_a_document_a_chunk(made: tuple[Path, Truth, Document]) -> None:
    """`LayoutkitLoader` is a LangChain BaseLoader whose Documents are the chunks, in
    order, their metadata plain JSON: the source, pages, heading path and every line's
    page and box."""
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document as LangchainDocument

    from layoutkit.loaders.langchain import LayoutkitLoader

    path, _, document = made
    loader = LayoutkitLoader(path, max_chars=600)
    assert isinstance(loader, BaseLoader)
    docs = list(loader.lazy_load())
    found = layoutkit.chunks(document, max_chars=600)
    assert all(isinstance(d, LangchainDocument) for d in docs)
    assert [d.page_content for d in docs] == [c.text for c in found]
    assert json.loads(json.dumps([d.metadata for d in docs])) == [d.metadata for d in docs]
    table = next(d for d in docs if "tab" in d.metadata["line_types"])
    assert table.metadata["source"] == str(path)
    assert table.metadata["headings"] == ["Methods", "Data Collected"]
    assert table.metadata["section"] == "Methods > Data Collected"
    assert table.metadata["pages"] == [2] and table.metadata["page"] == 2
    boxes = [x["bbox"] for x in table.metadata["lines"] if x["lineType"] == "tab"]
    assert len(boxes) == 6 and all(len(b) == 4 and b[0] < b[2] and b[1] < b[3] for b in boxes)
    assert [d.metadata["chunk"] for d in docs] == list(range(len(docs)))
    assert not any(HEADER in d.page_content for d in docs)


def test_loaders_langchain_pages(made: tuple[Path, Truth, Document]) -> None:
    """With ``mode="page"`` a Document a page, its text the page's body text, its
    headings those in force where the page begins (page 2 opens in the middle of
    Methods); another mode is one clear error."""
    from layoutkit.loaders.langchain import LayoutkitLoader

    path, _, document = made
    docs = LayoutkitLoader(path, mode="page").load()
    assert [d.metadata["page"] for d in docs] == [1, 2, 3, 4]
    assert [d.page_content for d in docs] == [page.text() for page in document.pages]
    assert [d.metadata["headings"] for d in docs] == [
        ["Introduction"], ["Methods"], ["Methods", "Figures and Drawings"], ["Conclusion"]]
    line = docs[1].metadata["lines"][3]
    assert docs[1].page_content[line["start"]:].startswith(document.pages[1].lines[4].text)
    with pytest.raises(UsageError, match="mode 'pages': expected one of chunk, page"):
        LayoutkitLoader(path, mode="pages")


def test_loaders_llamaindex_reader(made: tuple[Path, Truth, Document], tmp_path: Path) -> None:
    """`LayoutkitReader` is a LlamaIndex BaseReader whose ``load_data`` gives the chunks
    as Documents with the same metadata (and ``extra_info``), the boxes kept out of the
    text LlamaIndex embeds so that its sentence splitter takes them; it serves
    SimpleDirectoryReader too."""
    from llama_index.core import SimpleDirectoryReader
    from llama_index.core.node_parser import SentenceSplitter
    from llama_index.core.readers.base import BaseReader
    from llama_index.core.schema import Document as LlamaDocument
    from llama_index.core.schema import MetadataMode

    from layoutkit.loaders.llamaindex import LayoutkitReader

    path, _, document = made
    reader = LayoutkitReader(max_tokens=80)
    assert isinstance(reader, BaseReader)
    docs = reader.load_data(path, extra_info={"batch": "spring"})
    found = layoutkit.chunks(document, max_tokens=80)
    assert all(isinstance(d, LlamaDocument) for d in docs)
    assert [d.text for d in docs] == [c.text for c in found]
    assert docs[0].metadata["headings"] == ["Introduction"]
    assert docs[0].metadata["batch"] == "spring"
    assert docs[0].metadata["lines"][0]["lineType"] == "h_1"
    embedded = docs[0].get_content(metadata_mode=MetadataMode.EMBED)
    assert "headings: ['Introduction']" in embedded and "bbox" not in embedded
    nodes = SentenceSplitter(chunk_size=128, chunk_overlap=0).get_nodes_from_documents(docs)
    assert len(nodes) >= len(docs)
    (tmp_path / "report.pdf").write_bytes(path.read_bytes())
    read = SimpleDirectoryReader(str(tmp_path), file_extractor={".pdf": reader}).load_data()
    assert [d.text for d in read] == [c.text for c in found]
    pages = LayoutkitReader(mode="page").load_data(path)
    assert [d.metadata["pages"] for d in pages] == [[1], [2], [3], [4]]


@pytest.mark.parametrize(("module", "package", "extra"), [
    ("layoutkit.loaders.langchain", "langchain_core", "langchain"),
    ("layoutkit.loaders.llamaindex", "llama_index", "llamaindex")])
def test_loaders_missing_package_is_one_line_naming_the_extra(
        monkeypatch: pytest.MonkeyPatch, module: str, package: str, extra: str) -> None:
    """Without its framework a loader's module raises one UsageError line naming the
    extra that installs it; importing layoutkit needs neither."""
    for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, package, None)
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(UsageError) as raised:
        importlib.import_module(module)
    assert str(raised.value).count("\n") == 0
    assert f"pip install 'layoutkit[{extra}]'" in str(raised.value)
    monkeypatch.delitem(sys.modules, module, raising=False)
