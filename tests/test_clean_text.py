"""Text read from a document enters the model clean, for every engine and every output:
no control character (but tab and newline) nor explicit bidi formatting character, no
lone surrogate, characters above U+FFFF read whole; right-to-left lines with isolates or
unassigned code points reordered; file names that are not UTF-8 written or refused in
one line; a truth file with a lone surrogate refused in one line.

The reproducers are in ``tests/data/faults`` (see its README) and are read by the real
command line, in a process of its own."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from layoutkit.errors import UsageError
from layoutkit.model import BBox, Glyphs, PageGlyphs, Word, clean_text, clean_texts
from layoutkit.model.clean import LIGATURES, SYMBOL_SPACE
from layoutkit.reading.text import column_texts, line_text
from layoutkit.tools.truth import load_truth

REPO = Path(__file__).resolve().parent.parent
FAULTS = REPO / "tests" / "data" / "faults"
HANG = 300
"""Seconds after which a run counts as a hang (tokens loads spaCy)."""
ENGINES = ("pdfium", "pdfminer")


def layoutkit(*argv: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    """``layoutkit argv...`` run as a command, its output kept as bytes."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "layoutkit", *map(str, argv)],
                          capture_output=True, timeout=HANG, check=False, env=env, cwd=cwd)


def succeeded(done: subprocess.CompletedProcess[bytes]) -> str:
    """The standard output of a run that exited 0 without a traceback."""
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout.decode("utf-8")


def one_line(done: subprocess.CompletedProcess[bytes], status: int) -> str:
    """The one error line of a run that exited ``status``."""
    err = done.stderr.decode("utf-8")
    assert "Traceback" not in err, err
    assert done.returncode == status, err
    assert len(err.splitlines()) == 1 and err.startswith("layoutkit: error: "), err
    return err.strip()


# -- the function -----------------------------------------------------------------------

ALLOWED_CONTROLS = {"\t", "\n"}


def _unsafe(char: str) -> bool:
    """Whether ``char`` must not leave :func:`clean_text`: a control character but tab
    and newline, a surrogate, or an explicit bidi formatting character."""
    code = ord(char)
    return ((unicodedata.category(char) == "Cc" and char not in ALLOWED_CONTROLS)
            or 0xD800 <= code <= 0xDFFF or 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069)


TEXTS = st.text(st.one_of(
    st.characters(codec=None, exclude_categories=()),  # every code point, surrogates too
    st.sampled_from("\x1b\x07\t\n\r\x7f\x85\x9b\u202e\u2067\u2069\ud835\udc4e\ud83d\ude00"),
))


@given(TEXTS)
def test_clean_text_leaves_no_control_character_nor_lone_surrogate(text: str) -> None:
    """For any text: the cleaned text holds no control character but tab and newline,
    no surrogate and no explicit bidi formatting character, encodes as UTF-8, is its own
    cleaning, and keeps every other character of the text in order."""
    cleaned = clean_text(text)
    assert not [c for c in cleaned if _unsafe(c)]
    cleaned.encode("utf-8")  # raises on a surrogate
    assert clean_text(cleaned) == cleaned
    # every other character of the BMP is kept in order (a pair of surrogates becomes a
    # character above U+FFFF, a lone one U+FFFD), a ligature as its letters and a symbol
    # font's space as a space
    def plain(chars: str) -> list[str]:
        return [c for c in chars if not _unsafe(c) and c != "\ufffd" and ord(c) <= 0xFFFF]

    spelled = text.translate(str.maketrans({**LIGATURES, SYMBOL_SPACE: " "}))
    assert plain(cleaned) == plain(spelled)
    assert clean_texts([text, text]) == (cleaned, cleaned)


@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cf"),
                              exclude_characters="".join(LIGATURES) + SYMBOL_SPACE)))
def test_clean_text_returns_text_without_such_characters_unchanged(text: str) -> None:
    """Text with no control, format, surrogate or ligature character is returned as it
    is."""
    assert clean_text(text) is text


def test_clean_text_pairs_surrogates_and_replaces_lone_ones() -> None:
    """A high surrogate before a low one is the character they encode; either alone is
    U+FFFD; ESC, BEL, DEL, a C1 control and the isolates go; tab and newline stay."""
    assert clean_text("x\ud83d\ude00y") == "x😀y"
    assert clean_text("\ud835\udc4e") == "𝑎"
    assert clean_text("a\ud800b\udc00") == "a\ufffdb\ufffd"
    assert clean_text("\x1b]0;title\x07 \x7f\x9b\u2067ab\u2069\t\n") == "]0;title ab\t\n"
    assert clean_text("\uf0b7\uf020Item") == "\uf0b7 Item"  # a Symbol bullet and space


def test_glyphs_and_labels_are_cleaned_where_they_are_made() -> None:
    """Every glyph source makes its glyphs as :class:`Glyphs`: their texts are cleaned
    there (and a page's label), so no engine's text escapes it."""
    glyphs = Glyphs(("\ud83d\ude00", "\x1b", "a"), np.zeros((3, 4)), ("F",) * 3, np.ones(3),
                    np.zeros(3, dtype=np.int16), np.zeros(3, dtype=np.int16))
    assert glyphs.texts == ("😀", "", "a")
    page = PageGlyphs(1, 10, 10, glyphs, label="\x1b[2Jiv")
    assert page.label == "[2Jiv"


def test_ocr_words_are_cleaned(monkeypatch: pytest.MonkeyPatch) -> None:
    """tesseract's words go through the same cleaning as a text layer's glyphs."""
    from layoutkit.sources.ocr import image as ocr_image

    data = {"level": [4, 5, 5], "block_num": [1] * 3, "par_num": [1] * 3, "line_num": [1] * 3,
            "top": [0] * 3, "height": [10] * 3, "left": [0, 0, 20], "width": [10, 18, 10],
            "text": ["", "a\x1b]0;x\x07b", "\x07"], "conf": [-1, 90, 90]}
    monkeypatch.setattr(ocr_image.pytesseract, "image_to_data", lambda *a, **k: data)
    read = ocr_image.ocr_words(Image.new("L", (40, 20), 255), 1.0, "eng")
    assert [w.text for w in read.words] == ["a]0;xb"]


def _word(text: str, x0: float) -> Word:
    return Word(text, BBox(x0, 0, x0 + 10, 10), "F", 10)


def test_right_to_left_line_with_isolates_and_unassigned_code_points_is_reordered() -> None:
    """python-bidi's pure-Python algorithm stops on an isolate or an unassigned code
    point (no bidi class): both readings of a right-to-left line with brackets take
    them, the isolates dropped and the unassigned code point kept where it stands."""
    unassigned = "\u0b96"  # no character in Python's Unicode database
    assert not unicodedata.bidirectional(unassigned)
    words = [_word("\u05dd\u05d5\u05dc\u05e9", 0), _word("(\u2067x" + unassigned + "\u2069)", 20),
             _word("\u05d0", 40)]
    for swap in (False, True):
        text = line_text(words, swap=swap)
        assert "\u2067" not in text and "\u2069" not in text
        assert text.count(unassigned) == 1 and "x" in text
        assert text.split(" ")[0] == "\u05d0" and text.split(" ")[-1] == "\u05e9\u05dc\u05d5\u05dd"
    assert column_texts([words]) in (["\u05d0 (x\u0b96) \u05e9\u05dc\u05d5\u05dd"],
                                     ["\u05d0 )x\u0b96( \u05e9\u05dc\u05d5\u05dd"])


@pytest.mark.parametrize(("texts", "text"), [
    (["juxta\u00ad", "posed", "elements"], "juxtaposed elements"),
    (["juxta", "\u00ad", "posed"], "juxtaposed"),
    (["the", "single-\u00ad", "compartment"], "the single-compartment"),
    (["co\u00adoperation", "is"], "cooperation is"),
    (["the", "juxta\u00ad"], "the juxta\u00ad"),
])
def test_a_soft_hyphen_stays_only_where_it_ends_the_line(texts: list[str], text: str) -> None:
    """A soft hyphen is shown only where a line breaks a word: inside a line it is no
    character of the text and parts no words."""
    assert line_text([_word(t, 40 * k) for k, t in enumerate(texts)]) == text


# -- the reproducers, through the command line ------------------------------------------

ESCAPES = FAULTS / "terminal_escapes_in_text_layer.pdf"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("command", [("text",), ("markdown",), ("parse",), ("parse", "--words"),
                                     ("html",), ("alto",)])
def test_terminal_escapes_never_reach_an_output(engine: str, command: tuple[str, ...]) -> None:
    """ESC and BEL of a text layer (a window title, a cleared screen, a link, the
    clipboard by OSC 52) reached ``text`` raw; now no output carries them, raw or
    escaped in JSON, and the rest of the line is read."""
    out = succeeded(layoutkit(*command, ESCAPES, "--engine", engine))
    assert "\x1b" not in out and "\x07" not in out
    assert "\\u001b" not in out and "\\u0007" not in out
    assert "]52;c;ZWNobyBwd25lZA==" in out
    assert not [c for c in out if _unsafe(c)]


@pytest.mark.parametrize("engine", ENGINES)
def test_terminal_escapes_line_reads_without_them(engine: str) -> None:
    """The line of escapes reads as its printable characters, both engines alike."""
    out = succeeded(layoutkit("text", ESCAPES, "--engine", engine))
    assert out.splitlines()[1] == (
        "Some text ]0;owned-title then [2J[H and ]8;;http://evil.example/\\click]8;;\\ and "
        "]52;c;ZWNobyBwd25lZA== end")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("name", "line"), [
    ("nonbmp_chars_libreoffice_emoji_mathitalic.pdf",
     "We write 𝑎 + 𝑏 = 𝑐 for the sum, and smile 😀 at it."),
    ("nonbmp_tounicode_surrogate_pair_tiny.pdf", "x😀yz"),
])
def test_characters_above_u_ffff_are_read(engine: str, name: str, line: str) -> None:
    """𝑎 and 😀 (two UTF-16 code units each, two char indices in PDFium's text page)
    ended the pdfium engine's ``text``, ``parse --words`` and ``markdown`` in
    ``surrogates not allowed``; now both engines read them whole."""
    path = FAULTS / name
    assert line in succeeded(layoutkit("text", path, "--engine", engine)).splitlines()
    assert line in succeeded(layoutkit("markdown", path, "--engine", engine))
    words = json.loads(succeeded(layoutkit("parse", "--words", path, "--engine", engine)))
    texts = [w["text"] for page in words["pages"] for line in page["lines"]
             for w in line["words"]]
    assert "😀" in "".join(texts) and "\ufffd" not in "".join(texts)


def test_characters_above_u_ffff_read_alike_by_both_engines() -> None:
    """Both engines give the same text of the reproducers of characters above U+FFFF."""
    for name in ("nonbmp_chars_libreoffice_emoji_mathitalic.pdf",
                 "nonbmp_tounicode_surrogate_pair_tiny.pdf"):
        pdfium, pdfminer = (succeeded(layoutkit("text", FAULTS / name, "--engine", engine))
                            for engine in ENGINES)
        assert pdfium == pdfminer


@pytest.mark.parametrize("engine", ENGINES)
def test_hebrew_line_with_bidi_isolates_is_read(engine: str) -> None:
    """A Hebrew line with an RLI ... PDI around a bracketed word ended both engines in
    ``AssertionError: RLI not allowed here``; now it is read with its brackets, the
    isolates gone."""
    lines = succeeded(layoutkit("text", FAULTS / "bidi_isolate_rli_pdi_hebrew_line.pdf",
                                "--engine", engine)).splitlines()
    assert lines[0] == "A line of plain words before the odd one:"
    assert lines[1] == "\u05d0 ( \u05dd\u05d5\u05dc\u05e9 ) \u05dd\u05d5\u05dc\u05e9"
    assert lines[2] == "And a line after it."


@pytest.mark.parametrize("engine", ENGINES)
def test_unassigned_code_point_in_right_to_left_run_is_read(engine: str) -> None:
    """A fuzzed table whose text holds an unassigned code point beside brackets ended
    the pdfium engine in ``AssertionError:  not allowed here``; now it is read."""
    out = succeeded(layoutkit("text", FAULTS / "fuzz_31337-2133_ghana_flip_traceback.pdf",
                              "--engine", engine))
    assert "Ghana \u2010 Kumasi" in out.splitlines()
    assert "One (1) Station in the" in out.splitlines()


# -- file names that are not UTF-8 -------------------------------------------------------

NOT_UTF8 = os.fsdecode(b"caf\xe9")
"""A file name's stem whose bytes are not UTF-8, as Python holds it (a lone surrogate)."""


@pytest.fixture(scope="module")
def named(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding a document and a truth file whose names are not UTF-8 (and the
    document under a plain name, which the truth file labels)."""
    folder = tmp_path_factory.mktemp("names")
    source = REPO / "fixtures" / "pdf" / "copyright-office-dmca-summary.pdf"
    shutil.copy(source, folder / f"{NOT_UTF8}.pdf")
    shutil.copy(source, folder / "plain.pdf")
    succeeded(layoutkit("truth", "draft", "plain.pdf", "--pages", "1", "-o", "plain.truth.json",
                        cwd=folder))
    shutil.copy(folder / "plain.truth.json", folder / f"{NOT_UTF8}.truth.json")
    return folder


@pytest.mark.parametrize("command", ["tokens", "nlptext"])
def test_nlp_outputs_name_a_document_whose_name_is_not_utf8(named: Path, command: str) -> None:
    """``tokens`` and ``nlptext`` ended in a traceback on such a name; now they write
    it as ``text`` does, its bytes that are not UTF-8 as ``\\xNN``."""
    out = named / f"out.{command}"
    succeeded(layoutkit(command, f"{NOT_UTF8}.pdf", "-o", out.name, cwd=named))
    text = out.read_text("utf-8")
    if command == "tokens":
        assert json.loads(text)["document"] == "caf\\xe9.pdf"
    else:
        assert "## NLPTextDocument Uri caf\\\\xe9.pdf" in text.splitlines()


def test_truth_draft_refuses_a_document_whose_name_is_not_utf8(named: Path) -> None:
    """A truth file names its document in JSON text, which cannot hold such a name:
    one line saying so, exit 2, nothing written (it was a traceback)."""
    done = layoutkit("truth", "draft", f"{NOT_UTF8}.pdf", "--pages", "1", "-o", "t.truth.json",
                     cwd=named)
    assert one_line(done, 2) == ("layoutkit: error: caf\\xe9.pdf: the file's name is not "
                                 "UTF-8, and a truth file names its document in UTF-8: rename "
                                 "the file")
    assert not (named / "t.truth.json").exists()


def test_truth_review_and_evaluate_name_a_truth_file_whose_name_is_not_utf8(named: Path
                                                                            ) -> None:
    """``truth review`` and ``evaluate`` (text, ``--json``, ``--html``) ended in a
    traceback on such a truth file; now they report it, named with ``\\xNN``."""
    truth = f"{NOT_UTF8}.truth.json"
    said = succeeded(layoutkit("truth", "review", truth, "-o", "r.html", cwd=named))
    assert said == "r.html: the labelled pages of caf\\xe9.truth.json beside their numbered lines\n"
    assert "caf\\xe9.truth.json" in (named / "r.html").read_text("utf-8")
    report = succeeded(layoutkit("evaluate", truth, cwd=named))
    assert report.splitlines()[0] == "caf\\xe9.truth.json (plain.pdf)"
    data = json.loads(succeeded(layoutkit("evaluate", truth, "--json", cwd=named)))
    assert data["documents"][0]["truth"] == "caf\\xe9.truth.json"
    assert data["documents"][0]["document"] == "plain.pdf"
    succeeded(layoutkit("evaluate", truth, "--html", "e.html", cwd=named))
    assert "caf\\xe9.truth.json" in (named / "e.html").read_text("utf-8")


def test_profile_suggest_and_regress_name_a_document_whose_name_is_not_utf8(
        named: Path, tmp_path: Path) -> None:
    """``profile suggest`` and ``regress snapshot`` ended in a traceback on such a name;
    now the draft names it with ``\\xNN`` (and passes ``profile check``), and a
    snapshot records it so and finds it again on a check."""
    succeeded(layoutkit("profile", "suggest", f"{NOT_UTF8}.pdf", "--pages", "1", "-o", "p.toml",
                        cwd=named))
    toml = (named / "p.toml").read_text("utf-8")
    assert toml.startswith("# Drafted from caf\\xe9.pdf (18 pages)")
    assert 'name = "caf\\\\xe9"' in toml.splitlines()
    succeeded(layoutkit("profile", "check", "p.toml", cwd=named))
    folder = tmp_path / "samples"
    folder.mkdir()
    shutil.copy(ESCAPES, folder / f"{NOT_UTF8}.pdf")
    succeeded(layoutkit("regress", "snapshot", folder, "-o", tmp_path / "snap"))
    index = json.loads((tmp_path / "snap" / "index.json").read_text("utf-8"))
    assert [d["document"] for d in index["documents"]] == ["caf\\xe9.pdf"]
    checked = succeeded(layoutkit("regress", "check", folder, tmp_path / "snap"))
    assert checked.startswith("no changes: 1 document")


# -- a truth file with a lone surrogate --------------------------------------------------


@pytest.fixture
def halved(tmp_path: Path) -> Path:
    """The truth file holding lone surrogate escapes, beside the document it labels."""
    for name in ("truth_lone_surrogate_escape.truth.json", "truth_lone_surrogate_doc.pdf"):
        shutil.copy(FAULTS / name, tmp_path / name)
    return tmp_path / "truth_lone_surrogate_escape.truth.json"


@pytest.mark.parametrize("command", [("truth", "review", "{truth}", "-o", "r.html"),
                                     ("evaluate", "{truth}", "--html", "e.html"),
                                     ("evaluate", "{truth}"), ("evaluate", "{truth}", "--json")])
def test_truth_file_with_lone_surrogate_is_one_line(halved: Path, command: tuple[str, ...]
                                                    ) -> None:
    """``truth review`` and ``evaluate --html`` ended in a traceback: now every command
    that loads the truth file says in one line which file and which JSON path, exit 2,
    and writes nothing."""
    argv = [part.format(truth=halved.name) for part in command]
    done = layoutkit(*argv, cwd=halved.parent)
    assert one_line(done, 2) == (
        "layoutkit: error: truth_lone_surrogate_escape.truth.json: $.conventions: expected "
        "text without a lone surrogate (a \\uD800-\\uDFFF escape outside a pair encodes no "
        "character)")
    assert not (halved.parent / "r.html").exists() and not (halved.parent / "e.html").exists()


def test_load_truth_names_the_json_path_of_a_lone_surrogate(halved: Path) -> None:
    """The JSON path names the first text holding one, a list's item by its index; a
    pair of surrogate escapes is a character, and loads."""
    data = json.loads(halved.read_text("utf-8"))
    data["conventions"] = "conventions \ud83d\ude00"  # json.loads made the pair 😀
    halved.write_text(json.dumps(data), "utf-8")
    with pytest.raises(UsageError, match=r"escape\.truth\.json: \$\.pages\[0\]\.lines\[6\]: "
                                         r"expected text without a lone surrogate"):
        load_truth(halved)
    data["pages"][0]["lines"][6] = "Another missing line"
    halved.write_text(json.dumps(data), "utf-8")
    assert load_truth(halved).conventions == "conventions 😀"
