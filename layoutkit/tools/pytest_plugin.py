"""A pytest plugin: truth files in a test folder become tests of the reading.

- Installed with layoutkit (entry point `pytest11`), it does nothing until a project
  opts in with the ini option `layoutkit_truth = true`.
- Then every `*.truth.json` file pytest meets (a `layoutkit.truth/1` file, naming its
  document beside it) is collected, each page labelled with lines one test item
  (`issue.truth.json::page-5`).
- A file that does not match the schema, or whose document is missing, another file or
  too short, is a collection error of one line.
- An item parses its document's labelled pages (once per file) and fails when the page
  misses a bound; its message names the scores missed, the truth lines missing and the
  breaks of the order.

The bounds are the ini options `layoutkit_min_order`, `layoutkit_min_found` and
`layoutkit_max_leak` (0.95, 0.98 and 0.0 unless set); `layoutkit_profile` names a
publication profile to read with (a bundled name, or a path from the rootdir).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from ..profile import Profile
    from .evaluation import Bounds, DocumentEvaluation
    from .truth import DocumentTruth

__all__ = ["BOUNDS", "BoundError", "TruthFile", "TruthPage", "bounds", "profile_of",
           "pytest_addoption", "pytest_collect_file", "pytest_configure"]

BOUNDS = {"layoutkit_min_order": "0.95", "layoutkit_min_found": "0.98",
          "layoutkit_max_leak": "0.0"}
"""The ini options of the bounds, with their defaults."""


def pytest_addoption(parser: pytest.Parser) -> None:
    """Declare the plugin's ini options."""
    parser.addini("layoutkit_truth", "collect *.truth.json files as tests of the reading "
                  "(layoutkit)", type="bool", default=False)
    for name, default in BOUNDS.items():
        parser.addini(name, f"layoutkit: {name.removeprefix('layoutkit_').replace('_', ' ')} "
                            f"of each labelled page (default {default})", default=default)
    parser.addini("layoutkit_profile", "layoutkit: the publication profile to read the "
                  "documents with (a bundled name or a path)", default="")


def pytest_configure(config: pytest.Config) -> None:
    """Check the plugin's ini options once, when pytest starts, where the project opted
    in: a bound that is not a share or a profile that cannot be loaded is one usage
    error, not a failure of every test."""
    if not config.getini("layoutkit_truth"):
        return
    from ..errors import LayoutkitError

    bounds(config)
    try:
        profile_of(config)
    except LayoutkitError as error:
        raise pytest.UsageError(f"layoutkit: {error}") from None


def profile_of(config: pytest.Config) -> Profile | None:
    """The publication profile the ini option ``layoutkit_profile`` names (a path from
    the rootdir, or a bundled name), None without one."""
    from ..pipeline import loaded_profile

    name = str(config.getini("layoutkit_profile"))
    if not name:
        return None
    beside = config.rootpath / name
    return loaded_profile(beside if beside.is_file() else name)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> TruthFile | None:
    """Return a `TruthFile` for a ``*.truth.json`` file when the project opted in."""
    if not parent.config.getini("layoutkit_truth"):
        return None
    from .truth import SUFFIX

    if not file_path.name.endswith(SUFFIX):
        return None
    truth_file: TruthFile = TruthFile.from_parent(parent, path=file_path)
    return truth_file


def bounds(config: pytest.Config) -> Bounds:
    """Return the bounds the ini options set; a value that is not a share from 0 to 1
    is a usage error naming the option."""
    from .evaluation import Bounds

    values = []
    for name in BOUNDS:
        raw = str(config.getini(name))
        try:
            value = float(raw)
        except ValueError:
            raise pytest.UsageError(f"layoutkit: {name} = {raw!r}: expected a number") from None
        if not 0.0 <= value <= 1.0:
            raise pytest.UsageError(f"layoutkit: {name} = {raw}: expected a share from 0 to 1")
        values.append(value)
    min_order, min_found, max_leak = values
    return Bounds(min_order=min_order, min_found=min_found, max_leak=max_leak)


class BoundError(Exception):
    """A labelled page that missed a bound; its message says what broke."""


class TruthFile(pytest.File):
    """A truth file: one `TruthPage` per page labelled with lines."""

    evaluation: DocumentEvaluation | None = None

    def collect(self) -> Iterator[TruthPage]:
        """Yield the items of the labelled pages, the file checked against its document
        (a broken file is a collection error of one line)."""
        from ..errors import UsageError
        from .truth import read_truth

        try:
            truth = read_truth(self.path)
        except UsageError as error:
            raise self.CollectError(str(error)) from None
        for page in truth.pages:
            if page.ordered:
                yield TruthPage.from_parent(self, name=f"page-{page.page}", truth=truth,
                                            page=page.page)

    def evaluated(self, truth: DocumentTruth) -> DocumentEvaluation:
        """Return the evaluation of the file's pages, parsed once for all its items."""
        if self.evaluation is None:
            from .evaluation import evaluate_document

            self.evaluation = evaluate_document(truth, profile=profile_of(self.config))
        return self.evaluation


class TruthPage(pytest.Item):
    """One labelled page of a truth file, failing when it misses a bound."""

    def __init__(self, *, truth: DocumentTruth, page: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.truth = truth
        self.page = page

    def runtest(self) -> None:
        """Score the page and raise `BoundError` when it misses a bound."""
        from .evaluation import break_text

        source = self.parent
        assert isinstance(source, TruthFile)
        evaluation = source.evaluated(self.truth)
        page = next(p for p in evaluation.pages if p.page == self.page)
        missed = [] if page.score is None else bounds(self.config).misses(page.score)
        if missed:
            lines = [f"{self.truth.path.name} page {self.page}: {', '.join(missed)}"]
            lines += [f"  missing «{line}»" for line in page.missing]
            lines += [f"  {break_text(item)}" for item in page.breaks]
            raise BoundError("\n".join(lines))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> Any:
        """A missed bound as its message; anything else as pytest shows it."""
        if isinstance(excinfo.value, BoundError):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        """Where the item comes from, for pytest's report."""
        return self.path, None, f"{self.path.name} page {self.page}"
