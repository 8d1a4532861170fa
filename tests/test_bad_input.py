"""Every command that reads a document, fed the same bad inputs: each exits with the
status the command-line reference gives (docs/reference/cli.md: 2 for a usage error, 1
for a document that cannot be read), says so in exactly one line on stderr naming the
file or the page, prints nothing on stdout and leaves no output file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.test_cli import (
    make_directory,
    make_empty,
    make_encrypted,
    make_missing,
    make_text_file,
    make_truncated,
    run,
    two_pages,
)

COMMANDS = {
    "text": ["text", "{input}", "-o", "{out}/result.txt"],
    "parse": ["parse", "{input}", "-o", "{out}/result.json", "--toc", "--tables"],
    "tokens": ["tokens", "{input}", "-o", "{out}/result.tokens.json"],
    "nlptext": ["nlptext", "{input}", "-o", "{out}/result.nlp.txt"],
    "markdown": ["markdown", "{input}", "-o", "{out}/result.md", "--tables"],
    "html": ["html", "{input}", "-o", "{out}/result.html"],
    "alto": ["alto", "{input}", "-o", "{out}/result.alto.xml"],
    "chunks": ["chunks", "{input}", "-o", "{out}/result.jsonl", "--max-tokens", "100"],
    "draw": ["draw", "{input}", "-o", "{out}/pictures"],
    "profile suggest": ["profile", "suggest", "{input}", "-o", "{out}/draft.toml"],
    "truth draft": ["truth", "draft", "{input}", "-o", "{out}/result.truth.json"],
}
"""Each command reading one document, with its output under ``{out}``."""


def _wrong_password(folder: Path) -> tuple[Path, list[str]]:
    return make_encrypted(folder), ["--password", "not-the-password"]


def _page_out_of_range(folder: Path) -> tuple[Path, list[str]]:
    return two_pages(folder), ["--pages", "3"]


def _alone(make: Callable[[Path], Path]) -> Callable[[Path], tuple[Path, list[str]]]:
    return lambda folder: (make(folder), [])


BAD_INPUTS = [
    pytest.param(_alone(make_missing), 2, "{input}: no such file", id="missing"),
    pytest.param(_alone(make_directory), 2, "{input}: is a directory, expected a PDF file",
                 id="directory"),
    pytest.param(_alone(make_empty), 1, "{input}: empty file, expected a PDF", id="empty"),
    pytest.param(_alone(make_truncated), 1, "{input}: corrupt or unreadable PDF (",
                 id="truncated"),
    pytest.param(_alone(make_text_file), 1,
                 "{input}: not a PDF (no %PDF- header in its first 1024 bytes)", id="not-pdf"),
    pytest.param(_alone(make_encrypted), 1,
                 "{input}: encrypted PDF, a password is needed to read it", id="encrypted"),
    pytest.param(_wrong_password, 1, "{input}: wrong password for the encrypted PDF",
                 id="wrong-password"),
    pytest.param(_page_out_of_range, 2,
                 "{input}: page range '3': '3' is outside the document's pages 1-2",
                 id="page-out-of-range"),
]
"""(make the input and the options it needs, exit status, the error after
``layoutkit: error: ``; one ending in ``(`` is a prefix, the engine's reason follows)."""


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(("make", "status", "message"), BAD_INPUTS)
def test_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str,
                   make: Callable[[Path], tuple[Path, list[str]]], status: int,
                   message: str) -> None:
    (tmp_path / "in").mkdir()
    given, options = make(tmp_path / "in")
    out = tmp_path / "out"
    out.mkdir()
    argv = [part.format(input=given, out=out) for part in COMMANDS[command]]
    result = run(capsys, *argv, *options)
    assert "Traceback" not in result.err
    assert result.err.count("\n") == 1 and result.err.endswith("\n"), result.err
    expected = "layoutkit: error: " + message.format(input=given)
    line = result.err.rstrip("\n")
    assert line.startswith(expected) if expected.endswith("(") else line == expected
    assert (result.status, result.out) == (status, "")
    assert list(out.iterdir()) == []


OTHER_COMMANDS = {
    "evaluate": ["evaluate", "{input}", "--html", "{out}/report.html"],
    "truth review": ["truth", "review", "{input}", "-o", "{out}/review.html"],
    "regress snapshot": ["regress", "snapshot", "{input}", "-o", "{out}/snapshot"],
    "batch": ["batch", "{input}", "--out", "{out}/batch"],
    "profile check": ["profile", "check", "{input}"],
}
"""The commands that read a file of their own kind (a truth file, a folder of samples,
an inbox, a profile), given a document or no file at all."""

OTHER_INPUTS = [
    pytest.param(make_missing, id="missing"),
    pytest.param(make_empty, id="empty"),
    pytest.param(make_truncated, id="truncated"),
    pytest.param(make_text_file, id="not-pdf"),
    pytest.param(make_encrypted, id="encrypted"),
]


@pytest.mark.parametrize("command", list(OTHER_COMMANDS))
@pytest.mark.parametrize("make", OTHER_INPUTS)
def test_bad_input_of_the_other_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         command: str, make: Callable[[Path], Path]) -> None:
    """A file that is not what the command reads is a usage error: one line naming it."""
    (tmp_path / "in").mkdir()
    given = make(tmp_path / "in")
    out = tmp_path / "out"
    out.mkdir()
    result = run(capsys, *(part.format(input=given, out=out) for part in OTHER_COMMANDS[command]))
    assert "Traceback" not in result.err
    assert result.err.count("\n") == 1 and result.err.endswith("\n"), result.err
    assert result.err.startswith("layoutkit: error: ") and given.name in result.err
    assert (result.status, result.out) == (2, "")
    assert list(out.iterdir()) == []
