"""mkdocs hooks of the documentation site.

The command-line reference shows each command's ``--help`` as the command prints it:
a line ``<!-- layoutkit-help: profile check -->`` in a page is replaced by the help of
``layoutkit profile check``, made when the site is built from this tree's code, so the
options listed cannot drift from the options the command takes.  Likewise a line
``<!-- layoutkit-file: layoutkit/model/document.schema.json -->`` is replaced by that
file of the repository, in a fenced block: the JSON Schemas shown are the ones shipped.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"^<!-- layoutkit-help:(?P<words>[^>]*)-->$", re.MULTILINE)
FILE = re.compile(r"^<!-- layoutkit-file: (?P<path>\S+) -->$", re.MULTILINE)


def command_help(words: list[str]) -> str:
    """What ``layoutkit WORDS --help`` prints, the help wrapped at 88 columns."""
    if str(REPO) not in sys.path[:1]:
        sys.path.insert(0, str(REPO))
    from layoutkit.cli import main  # this tree's command line

    out = io.StringIO()
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"
    try:
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main([*words, "--help"])
    finally:
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    return out.getvalue().rstrip()


def on_page_markdown(markdown: str, **_: Any) -> str:
    """The page's markdown with every help marker replaced by that command's help, and
    every file marker by that file, each in a fenced block."""
    def block(match: re.Match[str]) -> str:
        return "```text\n" + command_help(match["words"].split()) + "\n```"

    def file(match: re.Match[str]) -> str:
        path = REPO / match["path"]
        text = path.read_text(encoding="utf-8").rstrip()
        return f"```{path.suffix.lstrip('.')}\n{text}\n```"
    return FILE.sub(file, MARKER.sub(block, markdown))
