"""Tests of the truth file format ``layoutkit.truth/1``: its schema, reading it back
exactly, and the one-line errors that name the file, the JSON path and what was
expected."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from layoutkit.errors import UsageError
from layoutkit.files import sha256_of
from layoutkit.tools.truth import (
    TRUTH_SCHEMA,
    DocumentTruth,
    Exclusion,
    PageTypes,
    check_document,
    dumps,
    labelled_pages,
    load_truth,
    schema,
    truth_files,
)

REPO = Path(__file__).resolve().parent.parent
FR = REPO / "fixtures" / "pdf" / "federal-register-2020-08-06.pdf"


def truth_data(tmp_path: Path, **changes: object) -> dict[str, object]:
    """A well-formed truth of two pages of the Federal Register fixture, with
    ``changes`` to its top level."""
    return {"schema": TRUTH_SCHEMA, "document": str(FR), "sha256": sha256_of(FR),
            "pages": [
                {"page": 5, "checked": "by hand", "lines": ["one line", "the next line"],
                 "furniture": ["47702 Federal Register"],
                 "excluded": [{"what": "a stamp", "why": "not text"}]},
                {"page": 1, "checked": "TODO",
                 "types": {"headings": [[1, "SUMMARY:"]], "contentsPage": False}}]} | changes


def written(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "fr.truth.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_truth_schema_is_a_valid_json_schema() -> None:
    """The schema shipped in the package is itself valid (draft 2020-12) and names the
    format."""
    Draft202012Validator.check_schema(schema())
    assert schema()["properties"]["schema"] == {"const": TRUTH_SCHEMA}


def test_truth_every_file_of_the_corpus_matches_the_schema_and_its_document() -> None:
    """Every truth file under regions/ (the fixtures', the scanned fixtures', the
    development corpus's) reads, names an existing document whose SHA-256 it holds,
    labels only pages the document has, and is written back byte for byte."""
    from layoutkit.sources import open_source

    paths = truth_files([REPO / "regions" / part for part in ("", "scanned", "corpus")])
    assert len([p for p in paths if p.parent.name != "corpus"]) == 8
    for path in paths:
        truth = load_truth(path)
        with open_source(truth.source) as source:
            check_document(truth, source.page_count)
        assert dumps(truth) == path.read_text(encoding="utf-8")


def test_truth_reads_pages_in_order_with_their_parts(tmp_path: Path) -> None:
    """Pages come back in page order; a page without lines is labelled for its types."""
    truth = load_truth(written(tmp_path, truth_data(tmp_path)))
    assert isinstance(truth, DocumentTruth) and truth.source == FR
    assert [p.page for p in truth.pages] == [1, 5]
    first, fifth = truth.pages
    assert not first.ordered and first.types == PageTypes(headings=((1, "SUMMARY:"),))
    assert fifth.ordered and fifth.lines == ("one line", "the next line")
    assert fifth.excluded == (Exclusion("a stamp", "not text"),)
    assert truth.page(5) is fifth and truth.page(2) is None
    assert labelled_pages([written(tmp_path, truth_data(tmp_path))]) == [fifth]


def test_truth_either_lines_read_and_write_back(tmp_path: Path) -> None:
    """A page's ``either`` lines come back as they were written, in canonical form
    (after ``contents``, before ``contentsPage``), and an empty list is left out."""
    types: dict[str, object] = {
        "headings": [[1, "SUMMARY:"]], "contents": ["Contents 3"],
        "either": ["Background: The impact", "Table 1 Patients"], "contentsPage": True}
    data = truth_data(tmp_path, pages=[{"page": 1, "checked": "TODO", "types": types}])
    path = written(tmp_path, data)
    truth = load_truth(path)
    assert truth.pages[0].types == PageTypes(
        headings=((1, "SUMMARY:"),), contents=("Contents 3",), contents_page=True,
        either=("Background: The impact", "Table 1 Patients"))
    assert truth.pages[0].types is not None
    assert truth.pages[0].types.texts[-2:] == ("Background: The impact", "Table 1 Patients")
    text = dumps(truth)
    assert text.endswith("}\n")
    assert list(json.loads(text)["pages"][0]["types"]) == [
        "headings", "contents", "either", "contentsPage"]
    assert load_truth(written(tmp_path, text)) == load_truth(path)
    types["either"] = []
    assert "either" not in dumps(load_truth(written(tmp_path, data)))


def test_truth_corpus_pages_are_typed_with_their_own_lines() -> None:
    """The labelled pages of the development corpus that have line types (every page
    of the 45 documents labelled before 2026-12-05, of the Arabic gazette added
    then, of the Carpentries report, the sidenotesplus page, the EPIC Robotz newsletter,
    the two Persian magazine articles and the two scans (the Hemeroteca PEB clippings
    and J. Physiol.) added 2026-12-06, and the three key-figure reports (Wikimedia
    Deutschland, Kramp, Gatos Borincoon) and the two newspaper scans (Journal Suisse 1807,
    Der Erzähler 1840) added after them, and the US patent application publication
    2016/0148332, the line-numbered JoV template, babel's three-column Arabic sample
    page and basho's three-tier vertical Japanese page added with them, and the three
    two-column papers with footnotes (Glia 1998, IJCAI 2007, Nature Neuroscience 2011,
    four pages) and the Trove article clipping (Clarence and Richmond Examiner 1902)
    added after them, and the six pages added with them from new producers (the Sejm
    stenographic report 2023, the Nordic J. Bot. 1981 scan, Tobacco Control 2004, the ECR
    Hub newsletter 2025, Bioinformatics 2019, the Sri Lanka gazette 2025), and the six
    pages added after them (the JSTOR scan of Africa 1965, the CCLR 2017 page, the Cengage
    textbook page, the Hargreaves Lansdown report page, the PDF Association brochure, the
    RANEPA thesis page), and the Thai law textbook page (LAW 3154, p. 95), and the
    Cottage Grove Sentinel 1913 scan and the Bear Garden newsletter page, and the six
    pages of four documents added after them (the Vesti Gazpromtransa front page, the
    EGPAF 2014 report's two quote-box pages, the Alameda City Council/AUSD subcommittee
    minutes' two pages, the SVPUAT conference brochure's outer page), and the eight
    pages of four documents added with them (the Novo Holdings, Calgary Adapted Hub and
    Case Western Reserve University report covers and key-figure pages, the two pages of
    the line-numbered Resource Alignment Service preprint); the other documents added
    since (the Soviet label sheet, the South African gazette page, the Espírito Santo
    gazette page and the VSSUP timetable moved from the held-out set among them, and the
    Lake Mary bulletin, the NLProceedings sample, the Isfahan paper and De Filosoof
    moved from it on 2026-12-07) have their reading order labelled, their types to come)
    name, as headings, list items, table, contents and either lines, only lines of
    that page's ``lines``, no line more often than it is printed; heading levels run
    from 1 to 3."""
    paths = truth_files([REPO / "regions" / "corpus"])
    assert len(paths) == 121
    pages = 0
    for path in paths:
        for page in load_truth(path).pages:
            if page.types is None:
                continue
            pages += 1
            where = f"{path.name} p{page.page}"
            printed = Counter(page.lines)
            named = Counter(page.types.texts)
            assert not named - printed, (where, named - printed)
            assert all(1 <= level <= 3 for level, _ in page.types.headings), where
    assert pages == 159


@pytest.mark.parametrize(("change", "message"), [
    ({"schema": "layoutkit.truth/2"}, "$.schema: expected 'layoutkit.truth/1'"),
    ({"sha256": "abc"}, "$.sha256: expected text matching"),
    ({"pages": []}, "$.pages: expected at least 1 item(s)"),
    ({"pages": [{"page": 0, "checked": ""}]}, "$.pages[0].page: expected a number >= 1"),
    ({"pages": [{"page": 2}]}, "$.pages[0]: expected the keys 'page', 'checked'"),
    ({"pages": [{"page": 2, "checked": "", "lines": ["a", 3]}]},
     "$.pages[0].lines[1]: expected a string"),
    ({"pages": [{"page": 2, "checked": "", "furnitur": []}]},
     "$.pages[0]: expected no other keys"),
    ({"pages": [{"page": 2, "checked": "", "types": {"headings": [["1", "a"]]}}]},
     "$.pages[0].types.headings[0][0]: expected a integer"),
    ({"pages": [{"page": 2, "checked": "", "types": {"either": ["a", 1]}}]},
     "$.pages[0].types.either[1]: expected a string"),
    ({"pages": [{"page": 2, "checked": ""}, {"page": 2, "checked": ""}]},
     "$.pages: page 2 is labelled twice"),
])
def test_truth_errors_name_the_file_and_the_json_path(
        tmp_path: Path, change: dict[str, object], message: str) -> None:
    """A file that breaks the schema is refused in one line: the file, the JSON path of
    the first problem and what was expected there."""
    path = written(tmp_path, truth_data(tmp_path, **change))
    with pytest.raises(UsageError) as raised:
        load_truth(path)
    assert str(raised.value).startswith(f"{path}: {message}")
    assert "\n" not in str(raised.value)


def test_truth_that_is_not_json_is_refused_in_one_line(tmp_path: Path) -> None:
    path = written(tmp_path, "{")
    with pytest.raises(UsageError, match=r"fr\.truth\.json: not a JSON truth file"):
        load_truth(path)


def test_truth_checked_against_its_document(tmp_path: Path) -> None:
    """The document must be the one the truth was made for, and have the pages it labels."""
    truth = load_truth(written(tmp_path, truth_data(tmp_path)))
    check_document(truth, 15)
    with pytest.raises(UsageError, match=r"\$\.pages\[1\]\.page: page 5, but "
                                         r"federal-register-2020-08-06\.pdf has 4 page"):
        check_document(truth, 4)
    other = load_truth(written(tmp_path, truth_data(tmp_path, sha256="0" * 64)))
    with pytest.raises(UsageError, match=r"\$\.sha256: the truth was made for another file"):
        check_document(other, 15)
    missing = load_truth(written(tmp_path, truth_data(tmp_path, document="gone.pdf")))
    with pytest.raises(UsageError, match=r"\$\.document: .*gone\.pdf does not exist"):
        check_document(missing, 15)
