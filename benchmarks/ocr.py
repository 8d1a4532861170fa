"""Scanned pages: OCR accuracy against the bars, and OCR pages per second.

Four one-page documents, each read by ``layoutkit.parse`` (OCR chosen by ``ocr =
"auto"``): the LinnSequencer brochure scan and its skewed copy (similarity to the
reference text), the 5 CFR page image (order against ``regions/scanned/``), and a
synthetic three-column gazette page rendered at 300 dpi (order against its exact
truth).  Speed is the wall time of each parse as a ratio to tesseract alone (the
``tesseract`` command with its own threads, on the same page image, in the same run),
and the four pages as one multi-page TIFF read in one process and in one per CPU
(``jobs``).

Languages and scripts: a crop of a born-digital gazette page in each of German,
French, Italian, Portuguese and Spanish (``fixtures/corpus``), its text layer's lines
the reference, and a page in each of Greek, Russian, simplified and traditional
Chinese, Japanese, Arabic and Hebrew with exact truth (:mod:`fixtures.scanned_scripts`), all
at 200 dpi and read with no language given: the similarity of the text read to the
reference in reading order, the language OCR chose and the word list that judged it,
and the time as a ratio to the same parse given the page's language (the cost of
finding it); and the Spanish crop as a poor scan under a good text layer of its own,
which the page must keep over a fresh OCR.  Then real scans with a human-checked
transcription (:data:`REAL_SCANS`, crops of 19th-century printed pages in English,
Latin, German in roman type and in Fraktur, and polytonic Greek), read the same way and
scored against the transcription's lines in reading order.
Run alone with ``python -m benchmarks.ocr [--update benchmarks/RESULTS.md]``;
``benchmarks.run`` includes it unless ``--quick``.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium  # type: ignore[import-untyped]
from rapidfuzz import fuzz

from benchmarks.sections import section_main
from fixtures.scanned_scripts import SCRIPT_PAGES
from fixtures.scanned_scripts import render as render_script
from fixtures.scans import crop, layered
from fixtures.synthetic import gazette
from layoutkit import parse
from layoutkit.config import LayoutConfig
from layoutkit.model import Document
from layoutkit.sources.ocr.quality import known_words
from layoutkit.sources.ocr.scanned import page_image
from layoutkit.tools.evaluate import score_page, score_truth
from layoutkit.tools.truth import load_truth

REPO = Path(__file__).resolve().parent.parent
SCANNED = REPO / "fixtures" / "scanned"
TITLE = "## Scanned pages (OCR)"
DPI = 300


@dataclass(frozen=True, slots=True)
class OcrRow:
    """One scanned page: what is measured on it, the value, its bar, and the times."""

    name: str
    metric: str
    value: float
    bar: float
    quality: float
    seconds: float
    tesseract_seconds: float


@dataclass(frozen=True, slots=True)
class Case:
    """A scanned page to read, and how to score what was read."""

    name: str
    path: Path
    metric: str
    bar: float
    score: Callable[[Document], float]


def _similarity(document: Document) -> float:
    reference = (SCANNED / "linn-brochure.reference.txt").read_text(encoding="utf-8")
    return similarity(document.text(), reference, "en")


def _cases(folder: Path) -> list[Case]:
    """The four pages; the synthetic one is rendered into ``folder``."""
    synthetic = gazette("three_column", seed=0)
    image = pdfium.PdfDocument(synthetic.pdf)[0].render(scale=DPI / 72, grayscale=True)
    rendered = folder / "three-column-p1.png"
    image.to_pil().convert("L").save(rendered, dpi=(DPI, DPI))
    truth = synthetic.pages[0]
    cfr = load_truth(REPO / "regions" / "scanned" / "cfr-5-page7-two-column.truth.json").pages[0]
    return [
        Case("LinnSequencer brochure", SCANNED / "linn-brochure.pdf", "similarity", 0.90,
             _similarity),
        Case("LinnSequencer brochure, skewed", SCANNED / "linn-brochure-skewed.pdf",
             "similarity", 0.85, _similarity),
        Case("5 CFR p.7 page image", SCANNED / "cfr-5-page7-two-column.jpg", "order", 0.95,
             lambda d: score_truth(d[0].text(), cfr).order),
        Case("synthetic three-column gazette p.1, 300 dpi", rendered, "order", 0.97,
             lambda d: score_page(d[0].text(), truth.lines, truth.furniture).order),
    ]


def _tesseract_alone(path: Path, folder: Path) -> float:
    """Seconds the ``tesseract`` command takes on the page image (its own threads)."""
    image, _ = page_image(path, 1, LayoutConfig())
    png = folder / f"{path.stem}-alone.png"
    image.save(png)
    env = {k: v for k, v in os.environ.items() if k != "OMP_THREAD_LIMIT"}
    start = time.perf_counter()
    subprocess.run(["tesseract", str(png), "-", "tsv"], env=env, check=True,
                   capture_output=True)
    return time.perf_counter() - start


def _timed_parse(path: Path, jobs: int = 1) -> tuple[Document, float]:
    start = time.perf_counter()
    document = parse(path, jobs=jobs)
    return document, time.perf_counter() - start


@dataclass(frozen=True, slots=True)
class OcrRun:
    """The rows, and the multi-page document's seconds with one and with all processes."""

    rows: list[OcrRow]
    serial_seconds: float
    parallel_seconds: float
    processes: int


def measure() -> OcrRun:
    """Read, score and time every case, then the four pages as one TIFF."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cases = _cases(folder)
        rows = []
        for case in cases:
            document, seconds = _timed_parse(case.path)
            quality = document.scanned[1] or 0.0
            rows.append(OcrRow(case.name, case.metric, case.score(document), case.bar,
                               quality, seconds, _tesseract_alone(case.path, folder)))
        tiff = folder / "four-pages.tif"
        pages = [page_image(case.path, 1, LayoutConfig())[0] for case in cases]
        pages[0].save(tiff, save_all=True, append_images=pages[1:], dpi=(DPI, DPI))
        processes = min(os.cpu_count() or 1, len(pages))
        _, serial = _timed_parse(tiff)
        _, parallel = _timed_parse(tiff, processes)
    return OcrRun(rows, serial, parallel, processes)


def section(run: OcrRun) -> list[str]:
    """The report's section: title, what was measured, the table, pages per second."""
    lines = [TITLE, "", "Each page read by `layoutkit.parse` (auto mode detects the scans;"
             f" PDF pages rendered at {DPI} dpi; tesseract {_tesseract_version()}, one thread"
             " per process) and scored against its bar (`benchmarks/ocr.py`). Time: wall"
             " seconds of the whole parse, and as a ratio to the `tesseract` command alone"
             " (its own threads) on the same page image in the same run.", "",
             "| page | metric | value | bar | met | OCR quality | seconds | × tesseract |",
             "| --- | --- | ---: | ---: | :---: | ---: | ---: | ---: |"]
    lines += [f"| {r.name} | {r.metric} | {r.value:.3f} | ≥ {r.bar:.2f} | "
              f"{'yes' if r.value >= r.bar else '**no**'} | {r.quality:.3f} | {r.seconds:.1f} | "
              f"{r.seconds / r.tesseract_seconds:.2f} |" for r in run.rows]
    count = len(run.rows)
    lines += ["", f"The {count} pages as one multi-page TIFF: {count / run.serial_seconds:.3f}"
              f" pages/s in one process (`jobs=1`), {count / run.parallel_seconds:.3f}"
              f" pages/s in {run.processes} (`jobs={run.processes}`, one per CPU); machine with"
              f" {os.cpu_count()} CPUs, shared with other work while measured."]
    return lines


def _tesseract_version() -> str:
    done = subprocess.run(["tesseract", "--version"], capture_output=True, text=True,
                          check=False)
    return (done.stdout or done.stderr).split("\n", 1)[0].removeprefix("tesseract ").strip()


LANGUAGE_DPI = 200
LATIN_BAR, OTHER_BAR = 0.95, 0.92
CROP_LINES = 12
"""The lines of a born-digital page's first column cropped as a scan."""
CORPUS = REPO / "fixtures" / "corpus"
CROPS = (("de", "deu", "bayerischer-landtag-plenarprotokoll-17-140.pdf", 5),
         ("fr", "fra", "journal-officiel-algerie-2022-50.pdf", 3),
         ("it", "ita", "gazzetta-ufficiale-serie-generale-2025-111.pdf", 10),
         ("pt", "por", "diario-da-republica-2010-01-05.pdf", 3),
         ("es", "spa", "borme-2015-02-10-caceres.pdf", 1))
"""Language, its tesseract code, corpus document and page of each born-digital crop."""
SCRIPT_CODES = {"el": "ell", "ru": "rus", "zh-Hans": "chi_sim", "zh-Hant": "chi_tra",
                "ja": "jpn", "ar": "ara", "he": "heb"}
"""Each synthetic page's language and its tesseract code."""
REAL_SCANS = REPO / "fixtures" / "scanned" / "commentaries"
REAL_SCAN_PAGES = (
    ("en", "Latin", "campbell-1881-p35-en", "Campbell, *Sophocles* (1881) p.35"),
    ("la", "Latin", "lobeck-1835-p9-la", "Lobeck, *Sophoclis Aiax* (1835) p.9"),
    ("de", "Latin", "schneidewin-1853-p10-de", "Schneidewin, *Sophokles* (1853) p.10"),
    ("de", "Latin", "wecklein-1894-p7-de-fraktur", "Wecklein, *Sophokleus Aias* (1894)"
     " p.7, Fraktur"),
    ("grc", "Greek", "lobeck-1835-p42-grc", "Lobeck, *Sophoclis Aiax* (1835) p.42"),
    ("grc", "Greek", "wecklein-1894-p87-grc", "Wecklein, *Sophokleus Aias* (1894) p.87"),
)
"""Real scans with a human-checked transcription (GT4HistComment, see
fixtures/README.md): language, script, the crop's name in :data:`REAL_SCANS` (its
image ``.png`` and its reference ``.reference.txt``) and the page it is cut from."""
UNSPACED = frozenset({"zh-Hans", "zh-Hant", "ja"})
"""Languages written without spaces between words: compared with every space removed
(tesseract puts spaces between some of their characters)."""


@dataclass(frozen=True, slots=True)
class LanguageCase:
    """A page image in one language, its reference text, script and tesseract code
    (None: not read again with its language given)."""

    language: str
    script: str
    code: str | None
    source: str
    image: Path
    reference: str


@dataclass(frozen=True, slots=True)
class LanguageRow:
    """One language's page: similarity, the language and word list OCR used, times."""

    case: LanguageCase
    similarity: float
    read_in: str
    word_list: str
    quality: float
    seconds: float
    given_seconds: float | None

    @property
    def bar(self) -> float:
        return LATIN_BAR if self.case.script == "Latin" else OTHER_BAR


def _crop(language: str, code: str, name: str, page_no: int, folder: Path) -> LanguageCase:
    made = crop(CORPUS / name, page_no, CROP_LINES, folder / f"{language}-crop.png",
                LANGUAGE_DPI)
    return LanguageCase(language, "Latin", code, f"{name} p.{page_no}, crop", made.image,
                        made.reference)


def _language_cases(folder: Path) -> list[LanguageCase]:
    cases = [_crop(*crop, folder) for crop in CROPS]
    for language, code in SCRIPT_CODES.items():
        page = SCRIPT_PAGES[language]
        image = render_script(page, folder / f"{language}.png", LANGUAGE_DPI)
        cases.append(LanguageCase(language, page.script, code,
                                  "synthetic (fixtures/scanned_scripts.py)", image, page.text))
    for language, script, name, source in REAL_SCAN_PAGES:
        image = REAL_SCANS / f"{name}.png"
        reference = image.with_suffix(".reference.txt").read_text(encoding="utf-8")
        cases.append(LanguageCase(language, script, None, f"real scan: {source}, crop", image,
                                  reference))
    return cases


def similarity(read: str, reference: str, language: str) -> float:
    """Character similarity (0-1) of ``read`` to ``reference`` in reading order, runs
    of white space as one (none for :data:`UNSPACED` languages), both in Unicode's
    composed form (NFC): a transcription with its accents as combining marks says the
    same as OCR's precomposed letters."""
    joiner = "" if language in UNSPACED else " "
    return fuzz.ratio(*(unicodedata.normalize("NFC", joiner.join(text.split()))
                        for text in (read, reference))) / 100


def measure_languages() -> list[LanguageRow]:
    """Read and score every language's page, with no language given."""
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for case in _language_cases(Path(tmp)):
            if case.code:
                known_words(case.code)  # the word list read once, before both are timed
            document, seconds = _timed_parse(case.image)
            quality = document.ocr[0]
            given_seconds = None
            if case.code:
                given = time.perf_counter()
                parse(case.image, LayoutConfig().replace(ocr_languages=case.code))
                given_seconds = time.perf_counter() - given
            rows.append(LanguageRow(case, similarity(document.text(furniture=True),
                                                     case.reference, case.language),
                                    quality.language or "-", quality.word_list or "none",
                                    quality.score, seconds, given_seconds))
    return rows


LAYER_CROP = CROPS[-1]
"""The crop made a poor scan under a good OCR layer of its own (Spanish)."""
LAYER_DPI, LAYER_NOISE = 100, 40.0


@dataclass(frozen=True, slots=True)
class LayerRow:
    """A poor scan under a good text layer: whose words the page kept, and the
    similarity to the reference of those words and of a fresh OCR of the page."""

    source: str
    kept: float
    fresh: float


def measure_layer() -> LayerRow:
    """Read the Spanish crop as a poor scan under its own good text layer, with no
    language given (``ocr = auto``) and by OCR alone (``always``)."""
    language, _, name, page_no = LAYER_CROP
    with tempfile.TemporaryDirectory() as tmp:
        made = crop(CORPUS / name, page_no, CROP_LINES, Path(tmp) / "crop.png", LANGUAGE_DPI)
        pdf = layered(made, Path(tmp) / "layered.pdf", LAYER_DPI, LAYER_NOISE)
        auto = parse(pdf)
        fresh = parse(pdf, LayoutConfig().replace(ocr="always"))
    return LayerRow(auto.ocr[0].source or "-",
                    similarity(auto.text(furniture=True), made.reference, language),
                    similarity(fresh.text(furniture=True), made.reference, language))


def layer_section(row: LayerRow) -> list[str]:
    """The text-layer bar: a page whose own layer is better than a fresh OCR keeps it."""
    met = "yes" if row.source == "text layer" and row.kept >= row.fresh else "**no**"
    return ["", f"A poor scan under a good text layer of its own (the {LAYER_CROP[0]} crop at"
            f" {LAYER_DPI} dpi with grey noise, under an invisible layer of its reference"
            f" lines, `fixtures/scans.py`), no language given: the page keeps the words of"
            f" the {row.source} (similarity {row.kept:.3f}); tesseract's reading of it"
            f" (`ocr = always`) {row.fresh:.3f}. Bar, a page whose own text layer is better"
            f" than a fresh OCR keeps the layer: {met}."]


def language_section(rows: list[LanguageRow]) -> list[str]:
    """The languages' table: each page's similarity against its bar, what it was read
    in and judged by, and its time."""
    lines = ["", "### Languages and scripts", "",
             f"Each page at {LANGUAGE_DPI} dpi, read by `layoutkit.parse` with no language given"
             " (`ocr_languages = auto`): the similarity of its text to the reference in reading"
             " order (rapidfuzz ratio of the texts in NFC; Chinese and Japanese without"
             " spaces), the languages OCR chose and the word list that judged its quality"
             " (none: confidence alone), and"
             " the wall seconds of the parse, then as a ratio to the same parse given the"
             " page's language (`ocr_languages`): the cost of finding the language (the"
             " sample read in each candidate script, and the language detector). The real"
             " scans are crops of 19th-century books scored against their human-checked"
             " transcription (GT4HistComment, `fixtures/scanned/commentaries/`), at the"
             " resolution they were scanned at (the Wecklein pages at half of it).", "",
             "| language | script | page | similarity | bar | met | read in | word list |"
             " OCR quality | seconds | × language given |",
             "| --- | --- | --- | ---: | ---: | :---: | --- | --- | ---: | ---: | ---: |"]
    for r in rows:
        met = "yes" if r.similarity >= r.bar else "**no**"
        ratio = "-" if r.given_seconds is None else f"{r.seconds / r.given_seconds:.2f}"
        lines.append(f"| {r.case.language} | {r.case.script} | {r.case.source} |"
                     f" {r.similarity:.3f} | ≥ {r.bar:.2f} | {met} | {r.read_in} |"
                     f" {r.word_list} | {r.quality:.3f} | {r.seconds:.1f} | {ratio} |")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "ocr", "OCR accuracy and speed on scanned pages.", TITLE,
                        "## Speed",
                        lambda: section(measure()) + language_section(measure_languages())
                        + layer_section(measure_layer()))


if __name__ == "__main__":
    raise SystemExit(main())
