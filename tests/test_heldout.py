"""The held-out documents (``regions/heldout/``, ``fixtures/heldout/``): their truth files
name the very PDFs they were labelled on, and layoutkit, as a user calls it, finds their
lines.  The floor is loose on purpose: these pages are never tuned on, and their
reading order is reported by ``benchmarks/heldout.py``, not asserted."""

from __future__ import annotations

from pathlib import Path

import pytest

import layoutkit
from layoutkit.files import sha256_of
from layoutkit.tools.evaluate import score_truth
from layoutkit.tools.truth import SUFFIX, load_truth, read_truth, truth_files

REPO = Path(__file__).resolve().parent.parent
TRUTHS = truth_files([REPO / "regions" / "heldout"])
DOCUMENTS = REPO / "fixtures" / "heldout"

FOUND_FLOOR = 0.9
"""The share of a held-out page's scored lines that layoutkit's body text must hold."""


def _name(path: Path) -> str:
    return path.name.removesuffix(SUFFIX)


def test_heldout_set_holds_every_document_with_its_truth() -> None:
    """Six documents at least, each PDF under ``fixtures/heldout/`` with one truth file
    and each truth file with its PDF there: none is left unscored, none is scored twice."""
    assert len(TRUTHS) >= 6
    assert sorted(p.stem for p in DOCUMENTS.glob("*.pdf")) == sorted(map(_name, TRUTHS))


@pytest.mark.parametrize("path", TRUTHS, ids=_name)
def test_heldout_truth_names_its_document(path: Path) -> None:
    """The truth file matches the schema, its document is the held-out PDF of its name
    with the SHA-256 it was labelled on and has the pages it labels (``read_truth``
    refuses it otherwise), and every page is labelled for reading order and checked."""
    truth = read_truth(path)
    assert truth.source.resolve() == DOCUMENTS / f"{_name(path)}.pdf"
    assert sha256_of(truth.source) == truth.sha256
    assert truth.pages
    for page in truth.pages:
        assert page.lines, page.page
        assert not page.unchecked, page.page


@pytest.mark.parametrize("path", TRUTHS, ids=_name)
def test_heldout_pages_are_found(path: Path) -> None:
    """``layoutkit.parse`` with no profile finds at least ``FOUND_FLOOR`` of each labelled
    page's scored lines in the page's body text."""
    truth = load_truth(path)
    document = layoutkit.parse(truth.source, pages=[p.page for p in truth.pages])
    texts = {page.page_no: page.text() for page in document.pages}
    for labelled in truth.pages:
        score = score_truth(texts[labelled.page], labelled)
        assert score.lines >= 10, labelled.page
        assert score.found >= FOUND_FLOOR, (labelled.page, score.found)
