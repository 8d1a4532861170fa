"""Issue 5's bar on structure: the NLPTextDocument of the German lecture notes nests
its sections as the notes' contents page says (``regions/geotopo-lecture-notes-de.truth.json``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from layoutkit import LayoutConfig
from layoutkit.nlp.nlptext import Section, from_document, read, write
from layoutkit.nlp.paragraphs import ignored_codes
from layoutkit.tools.evaluate import reduce
from layoutkit.tools.truth import load_truth
from tests.parsed import parsed

REPO = Path(__file__).resolve().parent.parent
NOTES = "geotopo-lecture-notes-de"


def _sections(elements: tuple[object, ...], parents: tuple[str, ...] = ()
              ) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Each section's reduced title with the reduced titles of the sections around it."""
    for element in elements:
        if isinstance(element, Section):
            title = reduce(element.title)
            yield title, parents
            yield from _sections(element.elements, (*parents, title))


def test_lecture_notes_sections_nest_as_the_contents_page_says() -> None:
    truth = load_truth(REPO / "regions" / f"{NOTES}.truth.json")
    document = parsed(REPO / "fixtures" / "pdf" / f"{NOTES}.pdf")
    tree = read(write(from_document(document, ignored_codes(LayoutConfig().nlp))))
    listed = {reduce(t) for _, t in truth.outline}
    # each section's title with its enclosing sections that the contents page lists
    found = {(title, tuple(p for p in parents if p in listed))
             for title, parents in _sections(tree.elements)}
    assert len(truth.outline) >= 30
    above: dict[int, str] = {}
    for level, text in truth.outline:
        above[level] = reduce(text)
        assert (above[level], tuple(above[k] for k in range(1, level))) in found, text
