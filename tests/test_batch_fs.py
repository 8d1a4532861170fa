"""``layoutkit batch`` and the file system: links planted in the inbox's own places
are never followed, names as long as the file system allows are processed, a full disk
under the state database is one line, and a run resumed with a new database recognises
the outputs already written (the reproducers batch_fs_symlinks_and_255_byte_names.sh
and batch_disk_full_sqlite_traceback.sh)."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from layoutkit.batch import BatchOptions, run_batch, state
from layoutkit.batch.inbox import NAME_MAX, free_name, reason_name
from layoutkit.cli import main
from layoutkit.files import replace_in, write_atomic
from tests.batch_inbox import check_accounted, hashes, rows, synthetic
from tests.test_cli import build_pdf

ROOT = Path(__file__).resolve().parent.parent
LINKED = "a symbolic link where layoutkit batch keeps its own files"


def document(path: Path, words: str) -> Path:
    """A one-page PDF at ``path`` whose body reads ``words``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return build_pdf(path, [[words, "A second line of body text here."]])


def test_a_link_at_a_reason_files_name_is_not_written_through(tmp_path: Path) -> None:
    """A link planted at ``rejected/NAME.reason.txt`` is left alone, its target
    unchanged: the rejected file takes the next name whose reason name is free."""
    inbox, victim = tmp_path / "inbox", tmp_path / "victim.txt"
    (inbox / "rejected").mkdir(parents=True)
    victim.write_text("ORIGINAL\n")
    (inbox / "evil.pdf").write_bytes(b"garbage")
    (inbox / "rejected" / "evil.pdf.reason.txt").symlink_to(victim)
    summary = run_batch(BatchOptions(inbox, tmp_path / "out"))
    assert (summary.rejected, summary.failed) == (1, 0)
    assert victim.read_text() == "ORIGINAL\n"
    assert (inbox / "rejected" / "evil.pdf.reason.txt").readlink() == victim
    assert (inbox / "rejected" / "evil (2).pdf").read_bytes() == b"garbage"
    assert (inbox / "rejected" / "evil (2).pdf.reason.txt").read_text().startswith("not a PDF")
    assert rows(tmp_path / "out" / "batch.sqlite", "SELECT stored FROM document") == [
        ("rejected/evil (2).pdf",)]


@pytest.mark.parametrize("planted", ["rejected", "accepted", ".layoutkit-batch.lock",
                                     "accepted/de", "rejected/de"])
def test_a_link_planted_in_the_inbox_own_places_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], planted: str) -> None:
    """``rejected/``, ``accepted/`` (or a language subfolder of either) or the lock file
    planted as a link: one line, exit 2, nothing moved, nothing made outside."""
    inbox, elsewhere = tmp_path / "inbox", tmp_path / "elsewhere"
    elsewhere.mkdir()
    (inbox / "de").mkdir(parents=True)
    (inbox / "bad.pdf").write_bytes(b"garbage")
    document(inbox / "de" / "good.pdf", "A good document in German.")
    (inbox / planted).parent.mkdir(exist_ok=True)
    outside = elsewhere / "created-by-lock" if planted.endswith(".lock") else elsewhere
    (inbox / planted).symlink_to(outside)
    before = hashes(inbox)
    assert main(["batch", str(inbox), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"layoutkit: error: {inbox / planted}: {LINKED}; it follows no link "
                   "there (one could lead outside the inbox): remove it"]
    assert list(elsewhere.iterdir()) == []
    assert hashes(inbox) == before
    assert (inbox / "bad.pdf").exists() and (inbox / "de" / "good.pdf").exists()


def test_a_staging_folder_planted_as_a_link_is_refused(tmp_path: Path) -> None:
    """A link at a staging folder's name in the output folder is not written through."""
    from layoutkit.batch import manifest
    from layoutkit.errors import UsageError

    (tmp_path / "elsewhere").mkdir()
    (tmp_path / ".a_1.partial").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(UsageError, match="a symbolic link where layoutkit batch makes"):
        manifest.write(tmp_path / ".a_1.partial", "a.pdf", "0" * 64)
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_a_reason_replaces_a_link_at_its_name_without_following_it(tmp_path: Path) -> None:
    """:func:`replace_in` renames its file over a link planted at the name."""
    victim = tmp_path / "victim.txt"
    victim.write_text("ORIGINAL\n")
    (tmp_path / "r.reason.txt").symlink_to(victim)
    folder = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        replace_in(folder, "r.reason.txt", "why\n")
    finally:
        os.close(folder)
    assert victim.read_text() == "ORIGINAL\n"
    assert not (tmp_path / "r.reason.txt").is_symlink()
    assert (tmp_path / "r.reason.txt").read_text() == "why\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.reason.txt", "victim.txt"]


def test_a_255_byte_name_and_its_duplicate_are_processed(tmp_path: Path) -> None:
    """An unreadable file with a 255-byte name is rejected with a reason (its name
    shortened) and the run goes on; a second file of a 255-byte name already taken in
    ``accepted/`` gets a shortened numbered name; every run ends well."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    unreadable, long_name = "R" * 251 + ".pdf", "L" * 251 + ".pdf"
    (inbox / unreadable).write_bytes(b"garbage")
    document(inbox / "good.pdf", "A good document beside the long names.")
    document(inbox / long_name, "The first document of a long name.")
    first = run_batch(BatchOptions(inbox, out))
    assert (first.accepted, first.rejected, first.done, first.failed) == (2, 1, 2, 0)
    reason = inbox / "rejected" / reason_name(unreadable)
    assert len(os.fsencode(reason.name)) == NAME_MAX
    assert reason.read_text().startswith("not a PDF")
    document(inbox / long_name, "The second document of the same long name.")
    second = run_batch(BatchOptions(inbox, out))
    assert (second.accepted, second.done, second.failed) == (1, 1, 0)
    (stored,), = rows(out / "batch.sqlite", "SELECT stored FROM document WHERE id = 4")
    assert isinstance(stored, str) and stored.startswith("accepted/" + "L" * 200)
    assert stored.endswith(" (2).pdf") and len(os.fsencode(Path(stored).name)) == NAME_MAX
    assert "second document" in next(p for p in out.iterdir() if p.name.endswith("_4")
                                     ).joinpath("text.txt").read_text()
    third = run_batch(BatchOptions(inbox, out))
    assert (third.accepted, third.rejected, third.failed) == (0, 0, 0)


def test_numbered_names_are_cut_by_bytes_and_keep_off_language_folders(tmp_path: Path) -> None:
    """A taken name of 254 bytes of two-byte letters gets a numbered name of at most
    255 bytes, still UTF-8; a name a language folder could have starts at ``(2)``."""
    name = "ü" * 125 + ".pdf"
    (tmp_path / name).write_bytes(b"x")
    numbered = free_name(tmp_path, name).name
    assert len(os.fsencode(numbered)) <= NAME_MAX
    assert numbered.encode("utf-8").decode("utf-8") == numbered
    assert numbered.startswith("ü" * 100) and numbered.endswith(" (2).pdf")
    assert free_name(tmp_path, "de").name == "de (2)"


@pytest.mark.parametrize("name", ["o" * 250 + ".txt", "é" * 125 + ".txt"])
def test_text_writes_to_a_254_byte_name(tmp_path: Path, name: str) -> None:
    """``layoutkit text -o`` a legal 254-byte name (its temporary name shortened)."""
    pdf = document(tmp_path / "in.pdf", "Words to be written out.")
    target = tmp_path / name
    assert len(os.fsencode(target.name)) == 254
    assert main(["text", str(pdf), "-o", str(target)]) == 0
    assert target.read_text(encoding="utf-8").startswith("Words to be written out.")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["in.pdf", name])
    write_atomic(tmp_path / ("x" * 255), "255 bytes\n")
    assert (tmp_path / ("x" * 255)).read_text() == "255 bytes\n"


def _small_inbox(inbox: Path, rejected: bool = True) -> int:
    """Four synthetic gazettes (and a file to reject); returns how many files."""
    for seed, case in enumerate(("two_column", "three_column", "mixed", "boxed_note")):
        synthetic(inbox, f"issue{seed}.pdf", case, seed)
    if rejected:
        (inbox / "notes.txt").write_text("not a document\n")
    return 4 + rejected


def _limited(limit: int) -> None:
    """In the child: files may grow to ``limit`` bytes; past it a write fails (EFBIG)
    instead of the process being killed (SIGXFSZ ignored)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def _after_the_full_disk(inbox: Path, out: Path, done: subprocess.CompletedProcess[str],
                         before: Counter[str], files: int) -> None:
    """One line, exit 1; then a run with room accounts for every file once."""
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("layoutkit: error")]
    assert len(errors) == 1 and errors == done.stderr.splitlines()[-1:]
    assert "the state database failed (" in errors[0], errors
    summary = run_batch(BatchOptions(inbox, out))
    assert summary.failed == 0
    check_accounted(inbox, out, before, files)


def test_a_state_database_that_cannot_grow_is_one_line(tmp_path: Path) -> None:
    """Files limited to 64 KiB (RLIMIT_FSIZE; no root needed): the SQLite database
    fails to grow during the run: one line, exit 1, no traceback; a run with room then
    finishes every document, none lost, none twice."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    files = _small_inbox(inbox)
    before = hashes(inbox)
    done = subprocess.run([sys.executable, "-m", "layoutkit", "batch", str(inbox), "--out",
                           str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          preexec_fn=lambda: _limited(64 * 1024), check=False)
    _after_the_full_disk(inbox, out, done, before, files)


def test_a_full_disk_under_the_state_database_is_one_line(tmp_path: Path) -> None:
    """The output folder on a nearly full tmpfs (needs the right to mount one): SQLite's
    "database or disk is full" is one line, exit 1; nothing is lost."""
    small = tmp_path / "small"
    small.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(small)],
                             capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        inbox, out = tmp_path / "inbox", small / "out"
        files = _small_inbox(inbox)
        before = hashes(inbox)
        (small / "filler").write_bytes(b"\0" * (1024 - 200) * 1024)
        done = subprocess.run([sys.executable, "-m", "layoutkit", "batch", str(inbox),
                               "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                              timeout=600, check=False)
        assert "database or disk is full" in done.stderr
        (small / "filler").unlink()
        _after_the_full_disk(inbox, out, done, before, files)
    finally:
        subprocess.run(["umount", "-l", str(small)], check=False)


def test_a_run_resumed_with_a_new_database_after_one_killed_before_it_read_accepted(
        tmp_path: Path) -> None:
    """Files in ``accepted/`` (a run killed after it moved them), the database deleted,
    and a run on the new one killed as soon as it started: the next run still reads
    them all (it once did none, taking the dead run for one that had read them)."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    for n in "abcd":
        document(inbox / "accepted" / f"{n}.pdf", f"Document {n} of four.")
    out.mkdir()
    engine = state.connect(f"sqlite:///{out / 'batch.sqlite'}")
    with engine.connect() as held:
        state.start_run(held, str(inbox.resolve()), str(out.resolve()), "local", 1)
    engine.dispose()
    summary = run_batch(BatchOptions(inbox, out))
    assert (summary.done, summary.failed) == (4, 0)
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["a_1", "b_2", "c_3", "d_4"]
    assert all(f"Document {n}" in (out / f"{n}_{i}" / "text.txt").read_text()
               for i, n in enumerate("abcd", 1))


@pytest.mark.parametrize("when", ["staging", "done"])
def test_a_run_killed_then_resumed_with_a_new_database_recognises_its_outputs(
        tmp_path: Path, when: str) -> None:
    """A run killed (its whole process group) while its staging folders were there, or
    once one document was done, then resumed with its database deleted: every
    document is done once, in the folder the first run began (its staging folder
    finished in place, its finished folder adopted), none written again beside it
    (no ``-2`` folder), no staging folder left."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    files = _small_inbox(inbox, rejected=False)  # a new database knows no rejected file
    before = hashes(inbox)
    run = subprocess.Popen([sys.executable, "-m", "layoutkit", "batch", str(inbox), "--out",
                            str(out)], cwd=ROOT, start_new_session=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(6000):
            staged = list(out.glob(".*.partial/source.json"))
            finished = [p for p in out.glob("*/source.json") if not p.parent.name.startswith(".")]
            if (finished if when == "done" else staged):
                break
            assert run.poll() is None, "the run ended before it could be killed"
            time.sleep(0.02)
    finally:
        os.killpg(run.pid, signal.SIGKILL)
        run.wait()
    left = sorted(p.name for p in out.iterdir() if p.is_dir())
    assert len([name for name in left if not name.startswith(".")]) < 4, left
    (out / "batch.sqlite").unlink()
    summary = run_batch(BatchOptions(inbox, out))
    assert summary.failed == 0
    check_accounted(inbox, out, before, files)
    folders = sorted(p.name for p in out.iterdir() if p.is_dir())
    assert folders == ["issue0_1", "issue1_2", "issue2_3", "issue3_4"]
    if when == "done":  # the finished folder was adopted, not read again
        assert summary.done < 4


def test_each_output_folder_names_its_source(tmp_path: Path) -> None:
    """source.json in a done folder holds the source's name, content hash and pages."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    pdf = document(inbox / "issue.pdf", "One page of text.")
    digest = hashlib.sha256(pdf.read_bytes()).hexdigest()
    run_batch(BatchOptions(inbox, out))
    assert json.loads((out / "issue_1" / "source.json").read_text()) == {
        "format": "layoutkit.batch-source/1", "file": "issue.pdf", "sha256": digest,
        "pages": 1}


def test_a_folder_made_meanwhile_from_other_content_is_not_taken_for_done(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder of the document's output name that appears while its actions run, made
    from other content (its source.json says so), is left alone: the staging folder
    becomes a folder of the next free name, instead of the document being marked done
    with outputs that are not its own, its own left hidden."""
    from layoutkit.batch import manifest, runner
    from layoutkit.batch.actions import Job

    inbox, out = tmp_path / "inbox", tmp_path / "out"
    document(inbox / "issue.pdf", "The issue's own words.")
    pending = runner._Batch.pending

    def pending_then_a_foreign_folder(batch: runner._Batch) -> list[Job]:
        jobs = pending(batch)
        manifest.write(out / "issue_1", "other.pdf", "0" * 64, 3, done=True)
        return jobs

    monkeypatch.setattr(runner._Batch, "pending", pending_then_a_foreign_folder)
    assert run_batch(BatchOptions(inbox, out)).done == 1
    assert rows(out / "batch.sqlite", "SELECT output FROM document") == [("issue_1-2",)]
    assert sorted(p.name for p in (out / "issue_1").iterdir()) == ["source.json"]
    assert "own words" in (out / "issue_1-2" / "text.txt").read_text()
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["issue_1", "issue_1-2"]
