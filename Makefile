# Two commands set up a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SAMPLE := fixtures/pdf/cleveland-city-record-2016-04-27.pdf
SUDO   := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
# Debian packages the project needs: poppler-utils gives pdftotext (a benchmark
# peer) and pdftoppm (page images), poppler-data the tables of the CJK character
# collections (text of composite fonts with no /ToUnicode); tesseract-ocr, its script detection (osd) and
# its language packs read scanned pages and images in the languages of
# lang_candidates and the common scripts of gazettes (Greek, Cyrillic, Arabic,
# Hebrew, Chinese, Japanese, Korean); the w* word lists rate OCR quality (eng, deu,
# fra, spa, ita, por, nld); the DejaVu and Noto CJK fonts set the benchmark's pages
# in those scripts; LibreOffice Writer (headless) and pandoc make PDFs of office and
# markup documents for layoutkit batch; chromium and chromium-driver open the HTML
# pages layoutkit writes (truth review, evaluation report) in the browser tests;
# postgresql is the server the batch tests start a throwaway cluster of (initdb,
# pg_ctl) to keep the state database on. tesseract-ocr-frk reads German set in
# Fraktur, which tesseract's script detection tells from roman type.
SYSTEM_PACKAGES := poppler-utils poppler-data tesseract-ocr tesseract-ocr-osd tesseract-ocr-eng \
  tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-spa tesseract-ocr-ita \
  tesseract-ocr-por tesseract-ocr-nld tesseract-ocr-ell tesseract-ocr-rus \
  tesseract-ocr-ara tesseract-ocr-heb tesseract-ocr-chi-sim tesseract-ocr-chi-tra \
  tesseract-ocr-jpn tesseract-ocr-kor tesseract-ocr-frk \
  wamerican wngerman wfrench wspanish witalian wportuguese wbrazilian wdutch \
  fonts-dejavu-core fonts-noto-cjk libreoffice-writer-nogui pandoc qpdf \
  chromium chromium-driver postgresql

.PHONY: setup system demo test lint docs bench fuzz clean

system:
	@missing=""; for pkg in $(SYSTEM_PACKAGES); do \
	  dpkg -s $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing system packages:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing >/dev/null; fi

$(VENV)/.installed: pyproject.toml | system
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	touch $@

setup: system $(VENV)/.installed

demo: setup
	@mkdir -p out
	$(BIN)/layoutkit text $(SAMPLE) --profile cleveland-city-record -o out/city-record-2016-04-27.txt
	$(BIN)/layoutkit parse $(SAMPLE) --profile cleveland-city-record --toc \
	  -o out/city-record-2016-04-27.json
	@echo "demo: the 38-page City Record of 27 April 2016, read in reading order:"
	@echo "  out/city-record-2016-04-27.txt   text, a form feed between pages"
	@echo "  out/city-record-2016-04-27.json  pages, bands, columns and typed lines"
	@echo "  out/city-record-2016-04-27.toc.json  its headings, by level"

lint: setup
	$(BIN)/ruff check layoutkit tests benchmarks fixtures
	$(BIN)/mypy

# The suite on TEST_WORKERS processes (pytest-xdist; CI has two cores), each test
# file's tests on one of them, so that a document a file's fixture parses once is
# parsed once; `make test TEST_WORKERS=0` runs it in one process.
TEST_WORKERS ?= 2
test: setup lint
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile

# The documentation site (docs/, and the API reference from the docstrings: mkdocs and
# mkdocstrings), into out/site;
# strict: a warning fails it, as it fails tests/test_docs.py.
docs: setup
	$(BIN)/mkdocs build --strict

# The package's modules compiled first, as pip compiles an installed package's:
# where PYTHONDONTWRITEBYTECODE is set, every process (each command timed, each
# batch fork server) would otherwise compile them from source (0.035 s).
bench: setup
	$(BIN)/python -m compileall -q layoutkit
	$(BIN)/python -m benchmarks.run

# Mutants of the corpus's small PDFs read for FUZZ_SECONDS; the inputs that fail are
# kept in tests/fuzz_findings/, which the test suite reads again.
FUZZ_SECONDS ?= 600
fuzz: setup
	$(BIN)/python -m tests.fuzzing --seconds $(FUZZ_SECONDS)

clean:
	rm -rf $(VENV) out .pytest_cache .mypy_cache .ruff_cache .hypothesis
