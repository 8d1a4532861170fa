"""The inbox's moves and names: never an overwrite, a killed move finished once, safe
folder names, a file vanishing while it is checked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from fixtures.synthetic import gazette
from layoutkit.batch.inbox import check, free_name, move, safe_stem, scan


def test_a_taken_name_gets_the_next_free_number(tmp_path: Path) -> None:
    (tmp_path / "issue 3.pdf").write_bytes(b"a")
    (tmp_path / "issue 3 (2).pdf").write_bytes(b"b")
    assert free_name(tmp_path, "issue 3.pdf") == tmp_path / "issue 3 (3).pdf"
    assert free_name(tmp_path, "issue 4.pdf") == tmp_path / "issue 4.pdf"


def test_a_move_killed_after_its_link_is_finished_without_a_second_copy(tmp_path: Path) -> None:
    source, target = tmp_path / "in.pdf", tmp_path / "accepted" / "in.pdf"
    source.write_bytes(b"%PDF-1.4 content")
    target.parent.mkdir()
    os.link(source, target)  # where a killed run stopped: the file in both places
    assert move(source, target)
    assert not source.exists()
    assert [p.name for p in target.parent.iterdir()] == ["in.pdf"]
    assert target.read_bytes() == b"%PDF-1.4 content"
    assert move(source, target)  # the source gone, the target there: already moved


def test_a_move_never_overwrites_another_file(tmp_path: Path) -> None:
    source, target = tmp_path / "in.pdf", tmp_path / "out.pdf"
    source.write_bytes(b"new")
    target.write_bytes(b"old")
    assert not move(source, target)
    assert (source.read_bytes(), target.read_bytes()) == (b"new", b"old")


def test_moving_a_file_that_vanished_says_so(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        move(tmp_path / "gone.pdf", tmp_path / "accepted.pdf")


def test_checking_a_file_that_vanished_says_so(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        check(tmp_path / "gone.pdf")


def test_check_counts_the_pages_of_a_good_pdf(tmp_path: Path) -> None:
    path = tmp_path / "gazette.pdf"
    path.write_bytes(gazette("mixed").pdf)
    assert check(path) == (4, None)


@pytest.mark.parametrize(("name", "stem"), [
    ("Amtsblatt Nr. 3 – Ämter.pdf", "Amtsblatt_Nr._3_Ämter"),
    ("l'avis \"spécial\".docx", "l_avis_spécial"),
    (" ..pdf", "document"),
    ("..\\..\\etc.pdf", "etc"),
    ("a/../../b.pdf", "b"),
])
def test_output_folder_names_stay_inside_the_output_folder(name: str, stem: str) -> None:
    assert safe_stem(name) == stem


def test_only_language_subfolders_and_visible_files_are_listed(tmp_path: Path) -> None:
    for name in ("a.pdf", ".partial.pdf", "de/b.pdf", "fra/c.pdf", "misc/d.pdf",
                 "accepted/e.pdf", "rejected/f.pdf"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(b"x")
    assert [(a.name, a.language) for a in scan(tmp_path)] == [
        ("a.pdf", None), ("de/b.pdf", "de"), ("fra/c.pdf", "fra")]
