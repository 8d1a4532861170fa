"""Batch workers warn as the command line does: ``layoutkit: `` first, nothing with
``-q`` (a worker forked from the fork server set up no log of its own, and printed
its warnings bare, even with ``-q``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import hostile


def _batch(tmp_path: Path, *flags: str) -> tuple[int, list[str]]:
    """The status and standard error of ``layoutkit batch`` on an inbox of one PDF
    whose page 2 of 3 draws too much to be read: a warning from the worker."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    (inbox / "fan.pdf").write_bytes(hostile.form_fan_out(between=True))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-m", "layoutkit", "batch", str(inbox), "--out",
                           str(out), *flags], capture_output=True, text=True, env=env,
                          check=False)
    return done.returncode, done.stderr.splitlines()


def _unread_warnings(lines: list[str]) -> list[str]:
    return [line for line in lines if "it is left unread" in line]


def test_a_workers_warning_is_the_command_lines(tmp_path: Path) -> None:
    status, lines = _batch(tmp_path)
    assert status == 0, lines
    warned = _unread_warnings(lines)
    accepted = tmp_path / "inbox" / "accepted" / "fan.pdf"
    assert warned == [f"layoutkit: {accepted}: page 2 draws more than 16,000,000 bytes of "
                      "content (page_max_content_bytes; its forms counted each time they are "
                      "drawn), more than can be read safely; it is left unread (empty in the "
                      "output)"]


@pytest.mark.parametrize("quiet", ["-q", "--quiet"])
def test_quiet_silences_the_workers_warnings(tmp_path: Path, quiet: str) -> None:
    status, lines = _batch(tmp_path, quiet)
    assert status == 0, lines
    assert _unread_warnings(lines) == []
