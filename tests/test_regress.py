"""``layoutkit regress``: a folder's reading kept in a snapshot and checked against it.

The folder holds two synthetic gazettes (four pages each, read in a second or two); the
snapshot is taken once, through the command line, and copied by the tests that spoil
it.  The comparison of pages is also checked on hand-made pages, one kind of change at
a time."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from fixtures.synthetic import SyntheticDoc, gazette
from layoutkit import __version__
from layoutkit.cli import main
from layoutkit.config import LayoutConfig
from layoutkit.tools.regress import (
    DIFF_LINES,
    INDEX,
    SCHEMA,
    LineRecord,
    PageRecord,
    compare_pages,
)

CHANGING = "gutter_min_lines=1000"
"""A setting that reads the gazettes' pages otherwise: no strip runs beside enough lines
to be a gutter, so columns are found by the content stream alone, and the pages where
it reads otherwise than the gutters change."""


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[SyntheticDoc]]:
    """A folder of two gazettes (and a file that is no document, left alone)."""
    folder = tmp_path_factory.mktemp("samples")
    docs = [gazette("two_column", seed=3), gazette("mixed", seed=1)]
    for doc in docs:
        (folder / f"{doc.name}.pdf").write_bytes(doc.pdf)
    (folder / "notes.txt").write_text("not a sample\n", encoding="utf-8")
    return folder, docs


@pytest.fixture(scope="module")
def snapshot(samples: tuple[Path, list[SyntheticDoc]],
             tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The snapshot of the samples, taken by ``layoutkit regress snapshot``."""
    out = tmp_path_factory.mktemp("snap") / "snapshot"
    assert main(["regress", "snapshot", str(samples[0]), "-o", str(out)]) == 0
    return out


def spoiled(snapshot: Path, tmp_path: Path) -> Path:
    """A copy of ``snapshot`` to change."""
    return Path(shutil.copytree(snapshot, tmp_path / "copy"))


def check(folder: Path, snapshot: Path, *options: str) -> int:
    return main(["regress", "check", str(folder), str(snapshot), *options])


def test_snapshot_keeps_lines_types_and_options(
        samples: tuple[Path, list[SyntheticDoc]], snapshot: Path) -> None:
    docs = samples[1]
    index = json.loads((snapshot / INDEX).read_text(encoding="utf-8"))
    names = sorted(f"{doc.name}.pdf" for doc in docs)
    assert (index["schema"], index["kind"], index["layoutkit"]) == (SCHEMA, "index", __version__)
    assert index["config"] == LayoutConfig().as_mapping()
    assert index["profile"] is None
    assert [entry["document"] for entry in index["documents"]] == names
    assert sorted(p.name for p in snapshot.iterdir()) == sorted([INDEX] + [
        f"{name}.json" for name in names])
    for doc in docs:
        name = f"{doc.name}.pdf"
        record = json.loads((snapshot / f"{name}.json").read_text(encoding="utf-8"))
        assert record["schema"] == SCHEMA and record["document"] == name
        assert record["sha256"] == hashlib.sha256(doc.pdf).hexdigest()
        assert [page["page"] for page in record["pages"]] == [p.page_no for p in doc.pages]
        for page, truth in zip(record["pages"], doc.pages, strict=True):
            lines = page["lines"]
            assert {line["text"] for line in lines if line["furniture"]} == set(truth.furniture)
            assert all(line["code"] in ("h", "f") for line in lines if line["furniture"])
            assert page["text"].splitlines() == [line["text"] for line in lines
                                                 if not line["furniture"]]
            assert sorted(page["text"].splitlines()) == sorted(truth.lines)


def test_check_without_change_reports_nothing(
        samples: tuple[Path, list[SyntheticDoc]], snapshot: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert check(samples[0], snapshot) == 0
    out, err = capsys.readouterr()
    pages = sum(len(doc.pages) for doc in samples[1])
    assert out == f"no changes: 2 documents, {pages} pages read as in the snapshot\n"
    assert err == ""


def test_check_names_pages_a_setting_changes(
        samples: tuple[Path, list[SyntheticDoc]], snapshot: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert check(samples[0], snapshot, "--set", CHANGING) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "config differs from the snapshot's: gutter_min_lines 6 -> 1000"
    headings = [line for line in out if " page " in line and not line.startswith(" ")]
    assert headings, out
    for heading in headings:
        assert heading.split(" page ")[0] in ("mixed-linear-s1.pdf", "two_column-linear-s3.pdf")
        assert "(allowed)" not in heading
        assert "order" in heading or "text" in heading
    for heading in headings:
        first = out.index(heading)
        document, page_no = heading.split(":")[0].split(" page ")
        assert out[first + 1] == f"    --- {document}:{page_no} snapshot"
        assert out[first + 2] == f"    +++ {document}:{page_no} now"
        assert out[first + 3].startswith("    @@ ")
        diff = [line for line in out[first + 1:first + DIFF_LINES + 3] if line.startswith(" ")]
        assert len(diff) <= DIFF_LINES + 1  # the capped diff, and how much more there is
    pages = sum(len(doc.pages) for doc in samples[1])
    assert out[-1] == (f"2 documents, {pages} pages compared: {len(headings)} pages and "
                       f"0 documents changed")


def test_allow_turns_expected_changes_into_a_pass(
        samples: tuple[Path, list[SyntheticDoc]], snapshot: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert check(samples[0], snapshot, "--set", CHANGING) == 1
    changed = [line.split(":")[0] for line in capsys.readouterr().out.splitlines()
               if " page " in line and not line.startswith(" ")]
    pages = [name.replace(" page ", ":") for name in changed]
    assert check(samples[0], snapshot, "--set", CHANGING,
                 *[f"--allow={page}" for page in pages]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out if " (allowed)" in line] == [
        f"{name} (allowed)" for name in changed]
    assert out[-1].endswith(f", {len(changed)} of {len(changed)} changes allowed")
    # one page left out of the allowances: the check fails, on that page alone
    assert check(samples[0], snapshot, "--set", CHANGING,
                 *[f"--allow={page}" for page in pages[1:]], "--allow", "nothing-*.pdf") == 1
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if line.startswith(changed[0] + ":")]
    assert "--allow nothing-*.pdf: named no change" in out


def test_a_document_glob_allows_its_pages(
        samples: tuple[Path, list[SyntheticDoc]], snapshot: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert check(samples[0], snapshot, "--set", CHANGING, "--allow", "*-linear-s?.pdf") == 0
    out = capsys.readouterr().out.splitlines()
    headings = [line for line in out if " page " in line and not line.startswith(" ")]
    assert headings and all("(allowed)" in line for line in headings)


def test_documents_added_missing_and_changed(
        samples: tuple[Path, list[SyntheticDoc]], snapshot: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "now"
    folder.mkdir()
    two, mixed = samples[1]
    (folder / "renamed.pdf").write_bytes(two.pdf)
    # the same pages read from another file: its SHA-256 alone changed
    other = gazette("mixed", "blocks_shuffled", seed=1)
    (folder / f"{mixed.name}.pdf").write_bytes(other.pdf)
    assert check(folder, snapshot) == 1
    out = capsys.readouterr().out.splitlines()
    old = hashlib.sha256(mixed.pdf).hexdigest()[:12]
    new = hashlib.sha256(other.pdf).hexdigest()[:12]
    assert out[:3] == [
        f"{mixed.name}.pdf: file changed: SHA-256 {old}... -> {new}...",
        "renamed.pdf: added: not in the snapshot",
        f"{two.name}.pdf: missing: in the snapshot, not in the folder",
    ]
    assert out[-1].endswith("and 3 documents changed")
    assert check(folder, snapshot, "--allow", "*.pdf") == 0
    assert sum("(allowed)" in line for line in capsys.readouterr().out.splitlines()) >= 3


def test_snapshot_of_another_version_is_compared(
        samples: tuple[Path, list[SyntheticDoc]], snapshot: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    copy = spoiled(snapshot, tmp_path)
    index = json.loads((copy / INDEX).read_text(encoding="utf-8"))
    index["layoutkit"] = "0.0.1"
    (copy / INDEX).write_text(json.dumps(index), encoding="utf-8")
    assert check(samples[0], copy) == 0
    out = capsys.readouterr().out.splitlines()
    pages = sum(len(doc.pages) for doc in samples[1])
    assert out == [f"the snapshot was made by layoutkit 0.0.1, this is layoutkit {__version__}: "
                   f"comparing anyway", f"no changes: 2 documents, {pages} pages read as in the "
                                        f"snapshot"]
    assert check(samples[0], copy, "--set", CHANGING) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("the snapshot was made by layoutkit 0.0.1")
    assert any(" page " in line and "changed)" in line for line in out)


@pytest.mark.parametrize(("content", "found"), [
    ('{"schema": "layoutkit.document/1", "pages": []}', "schema 'layoutkit.document/1'"),
    ("[1, 2", "cannot be read as JSON"),
])
def test_a_spoiled_snapshot_file_is_a_usage_error(
        samples: tuple[Path, list[SyntheticDoc]], snapshot: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], content: str, found: str) -> None:
    copy = spoiled(snapshot, tmp_path)
    bad = copy / f"{samples[1][0].name}.pdf.json"
    bad.write_text(content, encoding="utf-8")
    assert check(samples[0], copy) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith(f"layoutkit: error: {bad}: {found}")
    assert err.rstrip().endswith(f"expected a {SCHEMA} document file "
                                 f"(made by layoutkit regress snapshot)")


def test_missing_folders_are_usage_errors(
        samples: tuple[Path, list[SyntheticDoc]], snapshot: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert check(samples[0], tmp_path / "none") == 2
    assert capsys.readouterr().err == (f"layoutkit: error: {tmp_path / 'none'}: no such folder, "
                                       f"expected a snapshot folder (made by layoutkit regress "
                                       f"snapshot DIR -o SNAPSHOT)\n")
    assert check(samples[0], snapshot / INDEX) == 2
    assert capsys.readouterr().err.startswith(f"layoutkit: error: {snapshot / INDEX}: is a "
                                              f"file, expected a snapshot folder")
    assert check(tmp_path / "gone", snapshot) == 2
    assert capsys.readouterr().err == (f"layoutkit: error: {tmp_path / 'gone'}: no such folder, "
                                       f"expected a folder of PDFs or images\n")
    assert main(["regress", "snapshot", str(tmp_path), "-o", str(tmp_path / "s")]) == 2
    assert capsys.readouterr().err == (f"layoutkit: error: {tmp_path}: no PDF or image files "
                                       f"in this folder\n")
    assert check(samples[0], tmp_path) == 2
    assert capsys.readouterr().err.startswith(f"layoutkit: error: {tmp_path / INDEX}: no such "
                                              f"file, expected a {SCHEMA} index file")


def page(*lines: tuple[str, str]) -> PageRecord:
    """A page of lines given as (text, code), furniture where the code says so."""
    return PageRecord(3, tuple(LineRecord(text, code, code in ("h", "f")) for text, code in lines))


BEFORE = page(("RUNNING HEAD", "h"), ("Title", "h_1"), ("one", "b"), ("two", "b"), ("3", "f"))


@pytest.mark.parametrize(("after", "kinds", "changed"), [
    (BEFORE, None, 0),
    (page(("RUNNING HEAD", "h"), ("Title", "h_1"), ("two", "b"), ("one", "b"), ("3", "f")),
     ("order",), 2),
    (page(("RUNNING HEAD", "h"), ("Title", "h_1"), ("one", "b"), ("too", "b"), ("3", "f")),
     ("text",), 1),
    (page(("RUNNING HEAD", "b"), ("Title", "h_1"), ("one", "b"), ("two", "b"), ("3", "f")),
     ("furniture",), 1),
    (page(("RUNNING HEAD", "h"), ("Title", "h_2"), ("one", "lb"), ("two", "b"), ("3", "f")),
     ("line types",), 2),
    (page(("RUNNING HEAD", "h"), ("Title", "b"), ("one", "b"), ("two", "b"), ("3", "b"),
          ("four", "b")), ("text", "furniture", "line types"), 3),
])
def test_compare_pages_tells_each_kind_of_change(after: PageRecord, kinds: tuple[str, ...] | None,
                                                 changed: int) -> None:
    change = compare_pages("a.pdf", BEFORE, after)
    if kinds is None:
        assert change is None
        return
    assert change is not None
    assert (change.document, change.page_no, change.kinds, change.changed) == (
        "a.pdf", 3, kinds, changed)
    assert change.diff[:2] == ("--- a.pdf:3 snapshot", "+++ a.pdf:3 now")


def test_compare_pages_caps_the_diff_and_tells_gained_pages() -> None:
    long = PageRecord(7, tuple(LineRecord(f"line {n}", "b", False) for n in range(40)))
    change = compare_pages("a.pdf", None, long)
    assert change is not None
    assert (change.kinds, change.changed, len(change.diff)) == (("page added",), 40, DIFF_LINES)
    assert change.diff[2] == "@@ -0,0 +1,40 @@"
    assert change.diff[3] == "+[b] line 0"
    assert change.more == 3 + 40 - DIFF_LINES
    gone = compare_pages("a.pdf", long, None)
    assert gone is not None and gone.kinds == ("page missing",) and gone.diff[3] == "-[b] line 0"


def test_a_malformed_snapshot_field_is_named_in_words(
        samples: tuple[Path, list[SyntheticDoc]], snapshot: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A snapshot index whose documents are not a list, or that lacks a field, is told in
    words naming the file, not with Python's own error text."""
    broken = tmp_path / "broken"
    shutil.copytree(snapshot, broken)
    index = json.loads((broken / INDEX).read_text(encoding="utf-8"))
    index["documents"] = "all of them"
    (broken / INDEX).write_text(json.dumps(index), encoding="utf-8")
    assert check(samples[0], broken) == 2
    assert capsys.readouterr().err == (f"layoutkit: error: {broken / INDEX}: a field of the "
                                       f"wrong type or value, expected a {SCHEMA} index file\n")
    del index["documents"]
    (broken / INDEX).write_text(json.dumps(index), encoding="utf-8")
    assert check(samples[0], broken) == 2
    assert capsys.readouterr().err == (f"layoutkit: error: {broken / INDEX}: field 'documents' "
                                       f"missing, expected a {SCHEMA} index file\n")


def test_a_snapshot_is_replaced_only_with_force(
        samples: tuple[Path, list[SyntheticDoc]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A snapshot is a baseline: writing over it needs --force, which also removes the
    files of documents no longer in the folder."""
    folder = tmp_path / "samples"
    shutil.copytree(samples[0], folder)
    snap = tmp_path / "snap"
    assert main(["regress", "snapshot", str(folder), "-o", str(snap)]) == 0
    capsys.readouterr()
    assert main(["regress", "snapshot", str(folder), "-o", str(snap)]) == 2
    assert capsys.readouterr().err == (f"layoutkit: error: {snap}: holds a snapshot already; "
                                       f"replace it with --force\n")
    gone = sorted(folder.iterdir())[0]
    gone.unlink()
    assert (snap / f"{gone.name}.json").exists()
    assert main(["regress", "snapshot", str(folder), "-o", str(snap), "--force"]) == 0
    assert not (snap / f"{gone.name}.json").exists()
    assert main(["regress", "check", str(folder), str(snap)]) == 0
