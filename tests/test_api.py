"""The parse API: page selection and reading pages in several processes."""

from __future__ import annotations

from pathlib import Path

import pytest

import layoutkit
from layoutkit.cli import main

FR = Path("fixtures/pdf/federal-register-2020-08-06.pdf")


def test_api_jobs_give_the_same_document() -> None:
    """Reading pages in two processes gives exactly the document one process gives."""
    serial = layoutkit.parse(FR, pages="4-8")
    parallel = layoutkit.parse(FR, pages="4-8", jobs=2)
    assert [p.page_no for p in parallel] == [4, 5, 6, 7, 8]
    assert parallel == serial


@pytest.mark.parametrize("jobs", [0, -1, 1.5, True])
def test_api_jobs_must_be_a_positive_whole_number(jobs: object) -> None:
    """A jobs value that is not a whole number >= 1 is a usage error naming it."""
    with pytest.raises(layoutkit.UsageError, match=r"jobs: expected a whole number"):
        layoutkit.parse(FR, pages="1", jobs=jobs)  # type: ignore[arg-type]


def test_api_cli_jobs_zero_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """`--jobs 0` on the command line is a one-line usage error, exit status 2."""
    assert main(["text", str(FR), "--pages", "1", "--jobs", "0"]) == 2
    err = capsys.readouterr().err
    assert err == "layoutkit: error: jobs: expected a whole number of processes >= 1, got 0\n"


def test_api_pages_given_as_numbers_or_spec_agree() -> None:
    """Pages given as numbers and as a spec string select the same pages."""
    assert [p.page_no for p in layoutkit.parse(FR, pages=[7, 5])] == [5, 7]
    assert [p.page_no for p in layoutkit.parse(FR, pages="5,7")] == [5, 7]
