"""The progress bar of long commands: on a terminal only, after a delay, never with -q."""

from __future__ import annotations

import io

import pytest

from layoutkit import progress
from layoutkit.cli import main
from layoutkit.progress import PagesBar, pages_bar


class Terminal(io.StringIO):
    """Text written to a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_bar_only_on_a_terminal_and_not_quiet() -> None:
    assert isinstance(pages_bar(Terminal(), quiet=False), PagesBar)
    assert pages_bar(Terminal(), quiet=True) is None
    assert pages_bar(io.StringIO(), quiet=False) is None


def test_the_bar_counts_pages_and_ocr_pages_once_the_delay_has_passed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = Terminal()
    bar = PagesBar(terminal)
    bar.start("reading", 3)
    bar.advance(True)
    assert bar.bar is None  # within the delay: nothing shown
    monkeypatch.setattr(progress, "DELAY", 0.0)
    bar.advance(False)
    assert bar.bar is not None
    assert (bar.done, bar.total, bar.ocr) == (2, 3, 1)
    bar.bar.refresh()
    shown = terminal.getvalue()
    assert "reading" in shown and "2/3" in shown and "OCR 1" in shown
    bar.advance(False)
    bar.start("laying out", 2)
    bar.advance(False)
    bar.advance(False)
    assert bar.bar is None  # taken away when the last page is laid out


def test_quiet_and_verbose_together_are_a_usage_error(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["text", "-q", "-v", "x.pdf"])
    assert stopped.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
