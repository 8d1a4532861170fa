"""The profile commands: ``profiles``, ``profile check``, ``profile suggest``, ``draw``
and ``--profile`` on ``text``."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from layoutkit import parse
from layoutkit.cli import main
from layoutkit.model import LineType
from layoutkit.outputs.draw import LINE_COLOURS
from layoutkit.profile import bundled_profiles, load_profile
from layoutkit.tools.evaluate import score_truth
from layoutkit.tools.truth import load_truth
from tests.parsed import parsed

REPO = Path(__file__).resolve().parent.parent
CITY_2016 = REPO / "fixtures" / "pdf" / "cleveland-city-record-2016-04-27.pdf"
FEDERAL = REPO / "fixtures" / "pdf" / "federal-register-2020-08-06.pdf"


def test_profiles_lists_bundled(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles"]) == 0
    names = [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()]
    assert names == sorted(bundled_profiles()) and "cleveland-city-record" in names


def test_profile_check_passes_bundled(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "check", *bundled_profiles()]) == 0
    assert capsys.readouterr().out.count(": ok") == len(bundled_profiles())


def test_profile_check_one_line_per_problem(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "b"\ncolour = 1\n[[pages]]\nselect = "x"\nlayout = "wide"\n',
                   encoding="utf-8")
    assert main(["profile", "check", str(bad), "federal-register"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3
    assert err[0].startswith(f"layoutkit: error: {bad}:2: colour: unknown key")
    assert f"{bad}:4: pages[0].select: cannot read 'x'" in err[1]
    assert f"{bad}:5: pages[0].layout: unknown layout 'wide'" in err[2]


def test_text_with_unknown_profile_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["text", str(FEDERAL), "--profile", "no-such"]) == 2
    assert "no bundled profile of that name" in capsys.readouterr().err


def test_text_with_profile_reads_cost_table_after_columns(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["text", str(FEDERAL), "--pages", "5", "--profile", "federal-register"]) == 0
    text = capsys.readouterr().out
    assert text.index("ESTIMATED COSTS") > text.index("Explanation of Certain Provisions")
    truth = load_truth(REPO / "regions" / "federal-register-2020-08-06.truth.json").page(5)
    assert truth is not None
    auto = score_truth(parse(FEDERAL, pages=[5])[0].text(), truth)
    assert score_truth(text, truth).order > auto.order


def test_draw_writes_png_of_page_size(tmp_path: Path) -> None:
    assert main(["draw", str(CITY_2016), "--pages", "2,27", "--profile",
                 "cleveland-city-record", "--dpi", "72", "-o", str(tmp_path / "out")]) == 0
    written = sorted((tmp_path / "out").glob("*.png"))
    assert [p.name for p in written] == ["cleveland-city-record-2016-04-27-page-002.png",
                                         "cleveland-city-record-2016-04-27-page-027.png"]
    page = parse(CITY_2016, pages=[27])[0]
    with Image.open(written[1]) as image:
        image.load()
        # the page, and below it the key to the colours
        assert image.width == round(page.width) and image.height > round(page.height)
        assert image.mode == "RGB"
        colours = image.getcolors(maxcolors=1 << 20) or []
        assert len(colours) > 50  # the page and its overlay, not a blank
        key = image.crop((0, round(page.height), image.width, image.height))
        shown = {colour for _, colour in key.getcolors(maxcolors=1 << 20) or []}
    # every line type has a colour of its own, and the key shows each
    assert set(LINE_COLOURS) == set(LineType)
    assert len(set(LINE_COLOURS.values())) == len(LineType)
    assert set(LINE_COLOURS.values()) <= shown


def test_draw_needs_output_folder(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["draw", str(CITY_2016), "--pages", "2"])
    assert stopped.value.code == 2
    assert "the following arguments are required: -o/--output" in capsys.readouterr().err


def test_draw_help_says_o_is_the_folder(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["draw", "--help"])
    printed = " ".join(capsys.readouterr().out.split())
    assert "-o DIR, --output DIR the folder to write the PNGs to" in printed
    assert "standard output" not in printed.replace("from standard input", "")


@pytest.mark.parametrize("pdf", [CITY_2016, FEDERAL], ids=["city-record", "federal-register"])
def test_suggest_round_trip(tmp_path: Path, pdf: Path) -> None:
    draft = tmp_path / "draft.toml"
    assert main(["profile", "suggest", str(pdf), "-o", str(draft)]) == 0
    assert main(["profile", "check", str(draft)]) == 0
    profile = load_profile(draft)
    assert any(r.layout.columns == 3 and len(r.layout.gutters) == 2 for r in profile.pages)
    if pdf == CITY_2016:  # the index from mid-page 27 to the end
        assert [s.name for s in profile.sections] == ["index"]
        assert profile.header is None  # pages 1-3 have body text where the header stands
        assert profile.ignore == ()
    else:
        assert profile.header is not None and profile.sections == ()
        # page 1's masthead, below the running header band of the other pages
        (masthead,) = profile.ignore
        assert (masthead.box.x0, masthead.box.top) == (398.0, 58.0)
        assert (masthead.box.x1, masthead.box.bottom) == (499.9, 100.0)
    auto = parsed(pdf)
    drafted = parse(pdf, profile=profile)
    truths = [p for p in load_truth(REPO / "regions" / f"{pdf.stem}.truth.json").pages if p.ordered]
    assert len(truths) >= 3
    for truth in truths:
        before = score_truth(auto[truth.page - 1].text(), truth)
        after = score_truth(drafted[truth.page - 1].text(), truth)
        assert after.found >= before.found and after.order >= before.order
        assert after.leak <= before.leak


def test_profile_check_of_a_pdf_says_it_is_not_a_toml_file(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A PDF given as a profile is refused unread, in one line."""
    assert main(["profile", "check", str(CITY_2016)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"layoutkit: error: profile {str(CITY_2016)!r}: not a .toml file")
    assert err.count("\n") == 1


def test_profile_not_toml_reports_that_alone(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "b"\ncolumns = [1, 2\n', encoding="utf-8")
    assert main(["profile", "check", str(bad)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"layoutkit: error: {bad}: not valid TOML (")


def test_a_folder_as_profile_is_named_a_folder(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["text", str(FEDERAL), "--profile", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        f"layoutkit: error: profile {str(tmp_path)!r}: is a folder; expected a TOML file or "
        f"the name of a bundled profile ({', '.join(sorted(bundled_profiles()))})\n")
