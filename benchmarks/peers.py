"""The systems the benchmark compares: layoutkit and the peer text extractors.

Each :class:`System` knows how to extract chosen pages of a PDF as plain text (for the
accuracy tables) and how to extract a whole document (for the speed table).  Peers are
called the way their documentation shows for plain reading-order text, with default
settings; none of them removes running headers and footers, so their furniture leak is
reported as it is.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fixtures.synthetic import SyntheticDoc

REPO = Path(__file__).resolve().parent.parent
"""The layoutkit checkout the benchmark runs in."""

SPEED_PDF = REPO / "fixtures" / "pdf" / "cleveland-city-record-2016-04-27.pdf"
"""The document of the speed part: the 38-page Cleveland City Record of 2016-04-27."""

PageTexts = dict[int, str]
"""Extracted text by 1-based page number."""


@dataclass(frozen=True)
class System:
    """A text extractor under test.

    ``pages(path, numbers)`` returns the text of the given 1-based pages; ``whole(path)``
    extracts every page of the document and returns how many characters came out (the
    speed table times it); ``missing()`` returns why the system cannot run here, or
    ``None`` when it can.  ``note`` says how the system is called, for the report.
    """

    name: str
    note: str
    pages: Callable[[Path, Sequence[int]], PageTexts]
    whole: Callable[[Path], int]
    missing: Callable[[], str | None]


def _layoutkit_pages(path: Path, numbers: Sequence[int], engine: str | None = None) -> PageTexts:
    import layoutkit

    options = {"engine": engine} if engine else {}
    document = layoutkit.parse(path, pages=list(numbers), **options)
    return {page.page_no: page.text() for page in document.pages}


def _layoutkit_whole(path: Path, engine: str | None = None) -> int:
    import layoutkit

    options = {"engine": engine} if engine else {}
    return sum(len(page.text()) for page in layoutkit.parse(path, **options).pages)


def layoutkit_cli_command() -> list[str]:
    """Return the command that runs the layoutkit CLI: its console script, else ``-m layoutkit``."""
    script = Path(sys.executable).with_name("layoutkit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "layoutkit"]


_PDF2TXT = Path(sys.executable).with_name("pdf2txt.py")
"""pdfminer.six's command, installed beside the interpreter."""


def _cli_whole(command: Sequence[str], path: Path) -> int:
    """How many characters the text extractor ``command`` writes for ``path`` (given
    as its argument, with ``-o OUT``)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.txt"
        subprocess.run([*command, str(path), "-o", str(out)], check=True, cwd=REPO,
                       capture_output=True)
        return len(out.read_text(encoding="utf-8"))


def _layoutkit_cli_whole(path: Path) -> int:
    return _cli_whole([*layoutkit_cli_command(), "text"], path)


def _pdfminer_cli_whole(path: Path) -> int:
    return _cli_whole([str(_PDF2TXT)], path)


def _missing_pdfminer_cli() -> str | None:
    return None if _PDF2TXT.exists() else f"pdfminer.six's {_PDF2TXT.name} is not installed"


def _pdfminer_pages(path: Path, numbers: Sequence[int]) -> PageTexts:
    from pdfminer.high_level import extract_text

    return {n: extract_text(path, page_numbers=[n - 1]) for n in numbers}


def _pdfminer_whole(path: Path) -> int:
    from pdfminer.high_level import extract_text

    return len(extract_text(path))


def _pdfplumber_pages(path: Path, numbers: Sequence[int]) -> PageTexts:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return {n: pdf.pages[n - 1].extract_text() for n in numbers}


def _pdfplumber_whole(path: Path) -> int:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return sum(len(page.extract_text()) for page in pdf.pages)


def _pdftotext(path: Path, first: int | None, last: int | None, mode: str | None) -> str:
    command = ["pdftotext", "-enc", "UTF-8"]
    if mode:
        command.append(mode)
    if first is not None and last is not None:
        command += ["-f", str(first), "-l", str(last)]
    command += [str(path), "-"]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def _pdftotext_system(mode: str | None) -> System:
    """poppler's pdftotext in its plain (reading-order) mode, or with ``mode`` (``-layout``
    keeps the physical layout; ``-raw`` keeps the content stream's order)."""
    def pages(path: Path, numbers: Sequence[int]) -> PageTexts:
        return {n: _pdftotext(path, n, n, mode) for n in numbers}

    def whole(path: Path) -> int:
        return len(_pdftotext(path, None, None, mode))

    return System(
        name=f"pdftotext {mode}" if mode else "pdftotext",
        note=f"poppler `pdftotext -f N -l N FILE -`, {mode or 'plain (reading-order) mode'}, "
             f"run as a subprocess",
        pages=pages,
        whole=whole,
        missing=_missing_pdftotext,
    )


def _pymupdf_pages(path: Path, numbers: Sequence[int]) -> PageTexts:
    import pymupdf

    with pymupdf.open(path) as document:  # type: ignore[no-untyped-call]
        return {n: document[n - 1].get_text() for n in numbers}


def _pymupdf_whole(path: Path) -> int:
    import pymupdf

    with pymupdf.open(path) as document:  # type: ignore[no-untyped-call]
        return sum(len(page.get_text()) for page in document)


def _pdfium_pages(path: Path, numbers: Sequence[int]) -> PageTexts:
    import pypdfium2 as pdfium  # type: ignore[import-untyped]

    pdf = pdfium.PdfDocument(path)
    try:
        return {n: pdf[n - 1].get_textpage().get_text_range() for n in numbers}
    finally:
        pdf.close()


def _pdfium_whole(path: Path) -> int:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(path)
    try:
        return sum(len(page.get_textpage().get_text_range()) for page in pdf)
    finally:
        pdf.close()


def _missing_module(module: str, attribute: str | None = None) -> Callable[[], str | None]:
    def check() -> str | None:
        if importlib.util.find_spec(module) is None:
            return f"Python module {module!r} is not installed"
        if attribute is not None and not hasattr(importlib.import_module(module), attribute):
            return f"{module}.{attribute} does not exist yet"
        return None

    return check


def _missing_pdftotext() -> str | None:
    return None if shutil.which("pdftotext") else "poppler's pdftotext is not on PATH"


def systems() -> list[System]:
    """Return every system whose accuracy is measured, layoutkit first, in report order."""
    return [
        System(
            name="layoutkit",
            note="`layoutkit.parse(path, pages=...)`, `page.text()`: body text, furniture left"
            " out, default (pdfium) glyph source",
            pages=_layoutkit_pages,
            whole=_layoutkit_whole,
            missing=_missing_module("layoutkit", "parse"),
        ),
        System(
            name="layoutkit pdfminer",
            note="the same with `engine=\"pdfminer\"`, the pure-Python glyph source",
            pages=partial(_layoutkit_pages, engine="pdfminer"),
            whole=partial(_layoutkit_whole, engine="pdfminer"),
            missing=_missing_module("layoutkit", "parse"),
        ),
        System(
            name="pdfminer.six",
            note="`pdfminer.high_level.extract_text(path, page_numbers=[i])`, default LAParams",
            pages=_pdfminer_pages,
            whole=_pdfminer_whole,
            missing=_missing_module("pdfminer"),
        ),
        System(
            name="pdfplumber",
            note="`page.extract_text()`, default settings",
            pages=_pdfplumber_pages,
            whole=_pdfplumber_whole,
            missing=_missing_module("pdfplumber"),
        ),
        _pdftotext_system(None),
        _pdftotext_system("-layout"),
        _pdftotext_system("-raw"),
        System(
            name="PyMuPDF",
            note='`page.get_text()`, default ("text") mode: the content stream\'s order',
            pages=_pymupdf_pages,
            whole=_pymupdf_whole,
            missing=_missing_module("pymupdf"),
        ),
        System(
            name="pypdfium2",
            note="`textpage.get_text_range()`: PDFium's text in the content stream's order",
            pages=_pdfium_pages,
            whole=_pdfium_whole,
            missing=_missing_module("pypdfium2"),
        ),
    ]


LAYOUTKIT_CLI = System(
    name="layoutkit CLI",
    note="`layoutkit text FILE -o OUT` as a subprocess, interpreter start-up included; by"
    " default its pages are read on every processor (`--jobs auto`), its CPU time their sum",
    pages=_layoutkit_pages,
    whole=_layoutkit_cli_whole,
    missing=_missing_module("layoutkit", "parse"),
)
"""The end-to-end layoutkit run of the speed table; its page texts are those of the API."""


PDFMINER_CLI = System(
    name="pdfminer.six CLI",
    note="pdfminer.six's `pdf2txt.py FILE -o OUT` as a subprocess, interpreter start-up"
    " included: the command to compare the layoutkit CLI with",
    pages=_pdfminer_pages,
    whole=_pdfminer_cli_whole,
    missing=_missing_pdfminer_cli,
)
"""pdfminer.six end to end, as a user runs it from a shell, for the speed table."""


Job = tuple[str, Path, tuple[int, ...]]
"""One extraction: system name, PDF path, 1-based page numbers."""


def _extract(job: Job) -> tuple[PageTexts, str | None]:
    """Run one extraction job; return the page texts, and the error if the system failed.

    Runs in a worker process, so it finds the system by name.  A system that fails
    scores zero on the pages of the job, and the report lists the error.
    """
    name, path, numbers = job
    system = next(s for s in systems() if s.name == name)
    try:
        return system.pages(path, numbers), None
    except Exception as error:  # a peer or the core failing is a result, not a crash
        return {}, f"{name} on {path.name}: {type(error).__name__}: {error}"


def extract_all(jobs: Sequence[Job], errors: list[str]) -> list[PageTexts]:
    """Return the page texts of every job, in job order, using one process per CPU.

    Accuracy does not depend on timing, so jobs run in parallel; errors are appended
    to ``errors`` in job order, so the report is the same whatever finishes first.
    """
    workers = len(os.sched_getaffinity(0))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(_extract, jobs))
    errors.extend(error for _, error in results if error is not None)
    return [texts for texts, _ in results]


def extract_docs(docs: Sequence[SyntheticDoc], runnable: Sequence[System],
                 errors: list[str]) -> list[list[PageTexts]]:
    """The page texts every runnable system gives of each generated document
    (``docs[k]`` gives ``result[k][j]`` for ``runnable[j]``), each document written to a
    temporary folder and read for all its pages at once (see :func:`extract_all`)."""
    with tempfile.TemporaryDirectory(prefix="layoutkit-bench-") as tmp:
        jobs: list[Job] = []
        for doc in docs:
            path = Path(tmp) / f"{doc.name}.pdf"
            path.write_bytes(doc.pdf)
            numbers = tuple(page.page_no for page in doc.pages)
            jobs += [(system.name, path, numbers) for system in runnable]
        outputs = iter(extract_all(jobs, errors))
    return [[next(outputs) for _ in runnable] for _ in docs]
