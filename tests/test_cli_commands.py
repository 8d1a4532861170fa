"""The command line's newer parts: ``layoutkit config`` (the configuration keys as
:mod:`layoutkit.config` documents them), usage errors pointing to the command's own
help, ``-v``'s log of what was read, ``text --blank-lines`` and the outputs a batch
writes (``batch --outputs``)."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from layoutkit.cli import main
from layoutkit.config import LayoutConfig, key_docs
from tests.test_cli import PAGE_LINES, REPO, build_pdf, error_line, run, two_pages


def test_cli_config_lists_every_key_with_section_type_default_and_meaning(
        capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "config")
    assert result.status == 0
    lines = result.out.splitlines()
    assert lines[:3] == ["[sources]", "  image_dpi = 300 (int)",
                         "      Resolution assumed for an image input that does not state its "
                         "own."]
    assert [line[1:-1] for line in lines if line.startswith("[")] == [
        "sources", "words", "gutters", "furniture", "profile", "reading", "linetypes", "nlp",
        "ocr"]
    keys = [line.split()[0] for line in lines if line.startswith("  ") and
            not line.startswith("   ")]
    assert keys == list(LayoutConfig.known_keys())
    assert "  ocr = auto (str)" in lines and "  gutter_min_width = 3.0 (float)" in lines


def test_cli_config_json_gives_the_documented_first_sentence(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The meaning is the first sentence of the field's docstring in config.py."""
    result = run(capsys, "config", "--json")
    keys = json.loads(result.out)
    assert [k["key"] for k in keys] == list(LayoutConfig.known_keys())
    by_key = {k["key"]: k for k in keys}
    assert by_key["ocr"] == {
        "key": "ocr", "section": "ocr", "type": "str", "default": "auto",
        "meaning": "When pages are read by OCR: `auto`, `always` or `never`."}
    assert by_key["crossing_gap_ratio"]["meaning"] == (
        "Share of a gutter's usual width below which a row's gap there crosses the gutter.")
    assert all(k["meaning"].endswith(".") for k in keys)
    assert {k["default"] for k in keys if k["key"] == "image_max_area"} == {0.6}


def test_cli_config_key_shows_one_key(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "config", "image_dpi")
    assert result.status == 0
    assert result.out == ("key: image_dpi\nsection: sources\ntype: int\ndefault: 300\n"
                          "meaning: Resolution assumed for an image input that does not "
                          "state its own.\n")
    assert json.loads(run(capsys, "config", "image_dpi", "--json").out)["default"] == 300


def test_cli_config_unknown_key_is_one_line_naming_the_closest(
        capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "config", "image_dip")
    assert result.status == 2
    assert error_line(result.err) == ("layoutkit: error: config: unknown key 'image_dip'; did "
                                      "you mean image_dpi or image_max_pixels or image_max_area? "
                                      "(layoutkit config lists the keys)")
    assert error_line(run(capsys, "config", "zzz").err) == (
        "layoutkit: error: config: unknown key 'zzz'; (layoutkit config lists the keys)")


def test_cli_config_key_docs_cover_every_key() -> None:
    docs = key_docs()
    assert [doc.key for doc in docs] == list(LayoutConfig.known_keys())
    assert all(doc.meaning and doc.type in ("int", "float", "bool", "str") for doc in docs)
    assert {doc.key: doc.default for doc in docs} == LayoutConfig().as_mapping()


@pytest.mark.parametrize(("argv", "command"), [
    (["text", "x.pdf", "--bogus"], "layoutkit text"),
    (["parse", "x.pdf", "--tabels"], "layoutkit parse"),
    (["profile", "check", "x.toml", "--bogus"], "layoutkit profile check"),
    (["batch", "inbox", "--bogus"], "layoutkit batch"),
    (["config", "--bogus"], "layoutkit config"),
])
def test_cli_unknown_option_points_to_the_commands_own_help(
        capsys: pytest.CaptureFixture[str], argv: list[str], command: str) -> None:
    result = run(capsys, *argv)
    assert result.status == 2
    assert error_line(result.err) == (f"layoutkit: error: unrecognized arguments: {argv[-1]} "
                                      f"(see {command} --help)")


def test_cli_unknown_command_points_to_the_main_help(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "txet", "x.pdf")
    assert result.status == 2
    assert error_line(result.err).endswith("(see layoutkit --help)")


def test_cli_verbose_logs_each_page_and_the_document(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    """``-v`` logs each page read (engine, OCR) and the document (pages, engine, OCR,
    profile, time), at INFO through the logging module."""
    path = build_pdf(tmp_path / "three.pdf", PAGE_LINES)
    with caplog.at_level(logging.INFO, logger="layoutkit"):
        result = run(capsys, "text", str(path), "--pages", "2-3", "-v", "-o",
                     str(tmp_path / "out.txt"))
    assert result.status == 0
    said = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert (logging.INFO, f"{path}: page 2: read by pdfium, no OCR") in said
    assert (logging.INFO, f"{path}: page 3: read by pdfium, no OCR") in said
    assert not any(f"{path}: page 1:" in message for _, message in said)
    done = [m for _, m in said if m.startswith(f"{path}: 2 page(s)")]
    assert len(done) == 1
    assert done[0].startswith(f"{path}: 2 page(s) read by pdfium, no OCR, no profile in ")
    assert done[0].endswith(" s")


def blocks_pdf(path: Path) -> Path:
    """A page of two paragraphs parted by a blank line's white."""
    return build_pdf(path, [["The first paragraph runs", "over two lines of text.", "",
                             "", "A second paragraph follows", "after some white."]])


def test_cli_text_blank_lines_parts_blocks(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = blocks_pdf(tmp_path / "blocks.pdf")
    assert run(capsys, "text", str(path)).out == (
        "The first paragraph runs\nover two lines of text.\nA second paragraph follows\n"
        "after some white.\n")
    assert run(capsys, "text", str(path), "--blank-lines").out == (
        "The first paragraph runs\nover two lines of text.\n\nA second paragraph follows\n"
        "after some white.\n")
    assert run(capsys, "text", str(path), "--blank-lines", "--paragraphs").out == (
        "The first paragraph runs over two lines of text.\n\nA second paragraph follows "
        "after some white.\n\n")


def test_cli_text_blank_lines_parts_headings_and_paragraphs_of_a_real_page(
        capsys: pytest.CaptureFixture[str]) -> None:
    """On a paper's first page the headings stand apart from the paragraphs under them,
    and the lines are as ``layoutkit text`` prints them otherwise."""
    path = REPO / "fixtures/corpus/acl-2014-phrase-generation.pdf"
    plain = run(capsys, "text", str(path), "--pages", "1").out
    parted = run(capsys, "text", str(path), "--pages", "1", "--blank-lines").out
    assert parted.replace("\n\n", "\n") == plain
    assert "\n\nAbstract\n\nWe introduce the problem of generation\n" in parted
    assert "in Italian).\n\n1 Introduction\n\nDistributional methods" in parted
    assert "vectors to words).\n\nBesides these theoretical considerations" in parted
    assert parted.count("\n\n") >= 6


def test_cli_text_blank_lines_keeps_form_feeds_between_pages(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = two_pages(tmp_path)
    out = run(capsys, "text", str(path), "--blank-lines").out
    assert out.count("\f") == 1
    assert out.replace("\n\n", "\n") == "\n".join(PAGE_LINES[0]) + "\n\f" + \
        "\n".join(PAGE_LINES[1]) + "\n"


def test_cli_batch_outputs_writes_the_named_outputs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    build_pdf(inbox / "notice.pdf", PAGE_LINES[:1])
    out = tmp_path / "out"
    result = run(capsys, "batch", str(inbox), "--out", str(out), "--outputs",
                 "markdown,html,alto,text", "-q")
    assert result.status == 0, result.err
    (folder,) = [p for p in out.iterdir() if p.is_dir()]
    assert folder.name.startswith("notice_")
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == [
        "document.alto.xml", "document.html", "document.md", "source.json", "text.txt"]
    assert (folder / "text.txt").read_text() == "\n".join(PAGE_LINES[0]) + "\n"
    assert "The quick brown fox jumps" in (folder / "document.md").read_text()
    assert "<alto" in (folder / "document.alto.xml").read_text()


def test_cli_batch_outputs_unknown_is_one_line(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "inbox").mkdir()
    result = run(capsys, "batch", str(tmp_path / "inbox"), "--out", str(tmp_path / "out"),
                 "--outputs", "json,pdf")
    assert result.status == 2
    assert error_line(result.err) == (
        "layoutkit: error: --outputs 'json,pdf': unknown output 'pdf'; expected a "
        "comma-separated list of json, text, markdown, html, alto")


def test_cli_batch_help_names_the_outputs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["batch", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--outputs NAMES" in out
    assert "markdown (document.md)" in out and "(default: json,text)" in out


def test_cli_batch_verbose_logs_each_document_read(tmp_path: Path) -> None:
    """A batch worker's ``-v`` log names each page and each document read (a process of
    its own: the workers write to the standard error they were started with)."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    build_pdf(inbox / "notice.pdf", PAGE_LINES[:2])
    done = subprocess.run([sys.executable, "-m", "layoutkit", "batch", str(inbox), "--out",
                           str(tmp_path / "out"), "-v"], capture_output=True, text=True,
                          cwd=REPO, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    accepted = inbox / "accepted" / "notice.pdf"
    assert f"layoutkit: {accepted}: page 2: read by pdfium, no OCR\n" in done.stderr
    assert f"layoutkit: {accepted}: 2 page(s) read by pdfium, no OCR, no profile in " in \
        done.stderr
