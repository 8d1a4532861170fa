"""The API reference (``make docs``): mkdocs with mkdocstrings builds it from the
docstrings, in strict mode, so a broken reference or a docstring it cannot read fails
the test run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_api_reference_builds_without_warnings(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                           "--config-file", str(REPO / "mkdocs.yml"), "--site-dir",
                           str(tmp_path)], capture_output=True, text=True, cwd=REPO,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    parse = (tmp_path / "api" / "layoutkit" / "index.html").read_text(encoding="utf-8")
    # the reference holds the docstrings themselves
    assert "Read <code>path</code> and lay out its pages" in parse
    draw = (tmp_path / "api" / "draw" / "index.html").read_text(encoding="utf-8")
    # public members each under their own heading, private ones left out
    assert 'id="layoutkit.outputs.draw.PageImage.draw_columns"' in draw
    assert 'id="layoutkit.outputs.draw.PageImage._repr_png_"' not in draw
