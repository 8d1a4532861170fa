"""The mutation fuzzer (:mod:`tests.fuzzing`) run briefly with a fixed seed, and every
input it has ever found failing read again: each must now end in exit status 0, 1
or 2, without a signal or a traceback, a failure in one error line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import fuzzing

FOUND = sorted(fuzzing.FINDINGS.glob("*.pdf")) if fuzzing.FINDINGS.is_dir() else []


def test_fuzzing_short_seeded_run_finds_nothing() -> None:
    """Eight mutants of the corpus (seed 23) each read within the bar."""
    report = fuzzing.fuzz(23, inputs=8, keep=None)
    assert (report.inputs, report.failed) == (8, ())


def test_fuzzing_mutations_change_the_document() -> None:
    """Every mutation yields bytes other than its input (so the run tests something),
    and the same seed yields the same mutants."""
    seed = fuzzing.SEEDS[0].read_bytes()
    for mutation in fuzzing.MUTATIONS:
        rng = fuzzing.random.Random(5)
        changed = [mutation(seed, rng) != seed for _ in range(5)]
        assert any(changed), mutation.__name__
    assert fuzzing.mutant(fuzzing.random.Random(7)) == fuzzing.mutant(fuzzing.random.Random(7))


def test_fuzzing_outcome_judges_the_bar() -> None:
    """An outcome fails on a signal, a hang, a traceback or an error in more than one
    line, and passes on one error line."""
    ok = fuzzing.Outcome(1, "layoutkit: error: x.pdf: corrupt\n", 0.1)
    assert ok.problem is None
    assert fuzzing.Outcome(-6, "", 0.1).problem == "killed by signal SIGABRT"
    assert fuzzing.Outcome(None, "", 90).problem == "no answer within 90 s"
    assert fuzzing.Outcome(1, "Traceback (most recent call last):\n", 0.1).problem == \
        "a traceback"
    assert fuzzing.Outcome(1, "layoutkit: warning\nlayoutkit: error: x\n", 0.1).problem == \
        "2 lines on stderr for exit status 1"


def test_fuzzing_structural_mutations_reach_the_reader() -> None:
    """The mutations saved as an incremental update give a document pdfminer.six reads
    with what they put in: the first page's annotations grown, a structure tree in the
    catalog, bidi controls and Hebrew or Arabic letters in the first page's text."""
    import io

    from pdfminer.high_level import extract_text
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdfparser import PDFParser
    from pdfminer.pdftypes import resolve1

    seed = fuzzing.SEEDS[0].read_bytes()

    def first_page(data: bytes) -> tuple[PDFDocument, PDFPage]:
        document = PDFDocument(PDFParser(io.BytesIO(data)))
        return document, next(iter(PDFPage.create_pages(document)))

    grown = [len(resolve1(first_page(fuzzing.annotations(seed, fuzzing.random.Random(k)))[1]
                          .annots) or []) for k in range(6)]
    assert max(grown) > 1
    document, _ = first_page(fuzzing.structure(seed, fuzzing.random.Random(1)))
    assert resolve1(document.catalog["StructTreeRoot"])["Type"].name == "StructTreeRoot"
    text = extract_text(io.BytesIO(fuzzing.bidi(seed, fuzzing.random.Random(1))), page_numbers=[0])
    assert any("\u202a" <= c <= "\u202e" or "\u2066" <= c <= "\u2069" or "\u0590" <= c <= "\u06ff"
               for c in text)


@pytest.mark.parametrize("path", FOUND, ids=[p.stem for p in FOUND])
def test_fuzzing_finding_now_passes(path: Path) -> None:
    """An input the fuzzer once found failing (kept with how it failed) now passes."""
    outcome = fuzzing.read(path)
    assert outcome.problem is None, outcome.err
