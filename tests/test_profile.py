"""Publication profiles: selectors, validation (every error path), the profile stage on
synthetic gazettes with exact truth, and the bundled profiles on labelled pages."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fixtures.synthetic import SyntheticDoc, gazette
from layoutkit import LayoutConfig, parse
from layoutkit.errors import ProfileError, UsageError
from layoutkit.geometry.gutters import prepare
from layoutkit.geometry.segment import bands_of, force_columns
from layoutkit.profile import (
    Kind,
    bundled_profiles,
    load_profile,
    parse_selector,
)
from layoutkit.tools.evaluate import combine, score_page, score_truth
from layoutkit.tools.truth import labelled_pages
from tests.test_segment import CHAR, text_lines, word

REPO = Path(__file__).resolve().parent.parent
TIMEOUT = LayoutConfig().profile.regex_timeout


def write(folder: Path, text: str, name: str = "p.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def problems(folder: Path, text: str) -> tuple[str, ...]:
    with pytest.raises(ProfileError) as caught:
        load_profile(write(folder, text))
    return caught.value.problems


# --------------------------------------------------------------------------- selectors

ends = st.one_of(st.integers(-60, -1), st.integers(1, 60), st.sampled_from(["first", "last"]))


def _token(value: int | str) -> str:
    return str(value)


@given(a=ends, b=st.one_of(ends, st.none()), count=st.integers(1, 50))
def test_range_selects_only_pages_of_the_document(a: int | str, b: int | str | None,
                                                  count: int) -> None:
    spec = f"{a}-{'' if b is None else b}"
    try:
        selector = parse_selector(spec)
    except ValueError:
        return  # a range that runs backwards is refused, not read
    assert selector.pages([""] * count, TIMEOUT) <= set(range(1, count + 1))


@given(parts=st.lists(st.one_of(st.integers(1, 30).map(str), st.integers(-30, -1).map(str),
                                st.tuples(st.integers(1, 30), st.integers(0, 10)).map(
                                    lambda t: f"{t[0]}-{t[0] + t[1]}"),
                                st.integers(1, 30).map(lambda n: f"{n}-"),
                                st.sampled_from(["odd", "even", "first", "last"])),
                      min_size=1, max_size=5),
       count=st.integers(1, 40))
def test_selector_list_is_union_of_parts(parts: list[str], count: int) -> None:
    texts = [""] * count
    whole = parse_selector(parts).pages(texts, TIMEOUT)
    assert whole == set().union(*(parse_selector(p).pages(texts, TIMEOUT) for p in parts))
    assert whole == parse_selector(",".join(parts)).pages(texts, TIMEOUT)


@pytest.mark.parametrize(("raw", "pages"), [
    (3, {3}), ("3-5", {3, 4, 5}), ("8-", {8, 9, 10}), ("-2", {9}), ("first", {1}),
    ("last", {10}), ("2-last", set(range(2, 11))), ("-3--1", {8, 9, 10}), ("odd", {1, 3, 5, 7, 9}),
    ("even", {2, 4, 6, 8, 10}), (["1", "last"], {1, 10}), ("12-", set()), (-1, {10}),
    ({"contains": "^DIRECTORY"}, {2}),
])
def test_selector_pages(raw: object, pages: set[int]) -> None:
    texts = ["cover", "DIRECTORY OF CITY OFFICIALS\nx"] + ["body"] * 8
    assert parse_selector(raw).pages(texts, TIMEOUT) == pages


@pytest.mark.parametrize("raw", ["0", "5-3", "page 2", "", [], True, 2.5, {"contains": "("},
                                 {"match": "x"}, "3-0"])
def test_selector_refused(raw: object) -> None:
    with pytest.raises(ValueError):
        parse_selector(raw)


# --------------------------------------------------------------------------- validation

GOOD = 'name = "t"\n'


@pytest.mark.parametrize(("text", "where", "expected"), [
    ('name = "t"\ncolour = "red"\n', "p.toml:2: colour", "unknown key; allowed here: name"),
    ('name = "t"\n[[pages]]\nselect = "7-3"\n', "p.toml:3: pages[0].select", "runs backwards"),
    ('name = "t"\n[[pages]]\nselect = "1"\nlayout = "triple"\n', "p.toml:4: pages[0].layout",
     "unknown layout 'triple'; expected one of auto, single, columns, positional, regions"),
    ('name = "t"\n[[pages]]\nselect = { contains = "(x" }\n', "p.toml:3: pages[0].select",
     "is not a regular expression"),
    ('name = "t"\n[[sections]]\nname = "i"\nstarts_at = { line = "^I($" }\n',
     "p.toml:4: sections[0].starts_at", "is not a regular expression"),
    ('name = "t"\n[[sections]]\nname = "i"\nstarts_at = "Index"\n',
     "p.toml:4: sections[0].starts_at", "expected { line = \"REGEX\" }"),
    ('name = "t"\n[[sections]]\nname = "i"\nstarts_at = { line = "I" }\nuntil = "never"\n',
     "p.toml:5: sections[0].until", "expected one of next-section, page-end"),
    ('name = "t"\n[config]\nno_such = 3\n', "p.toml:3: config.no_such",
     "unknown config key; known keys: image_dpi, image_max_area, "
     "page_max_content_bytes, page_max_form_depth, page_max_annotations, "
     "page_max_resources, page_alone_content_bytes, page_max_seconds, page_max_memory, "
     "image_max_pixels, image_max_frames, convert_max_seconds, convert_max_memory, "
     "stream_chunk_pages, stream_whole_chunks, word_gap_em"),
    ('name = "t"\n[config]\ngutter_min_width = -1\n', "p.toml:2: config",
     "'gutter_min_width': expected a finite number >= 0"),
    ('name = "t"\n[furniture]\nheader = { top = 50, bottom = 10 }\n',
     "p.toml:3: furniture.header", "top 50 must lie above bottom 10"),
    ('name = "t"\n[furniture]\nheader = { top = 5 }\n', "p.toml:3: furniture.header",
     "expected { top = N, bottom = N }"),
    ('name = "t"\n[furniture]\nside = { top = 5, bottom = 9 }\n', "p.toml:3: furniture.side",
     "unknown key"),
    ('name = "t"\n[[ignore]]\nselect = 1\nbox = [0, 0, 1.2, 1]\nunits = "fraction"\n',
     "p.toml:4: ignore[0].box", "lies outside the page: fractions run from 0 to 1"),
    ('name = "t"\n[[ignore]]\nselect = 1\nbox = [10, 0, 5, 9]\n', "p.toml:4: ignore[0].box",
     "is empty"),
    ('name = "t"\n[[ignore]]\nselect = 1\nbox = [0, 0, 5]\n', "p.toml:4: ignore[0].box",
     "expected [x0, top, x1, bottom]"),
    ('name = "t"\n[[ignore]]\nselect = 1\nbox = [0, -3, 5, 9]\n', "p.toml:4: ignore[0].box",
     "expected numbers >= 0"),
    ('name = "t"\n[[ignore]]\nbox = [0, 0, 5, 9]\n', "ignore[0].select", "missing; expected"),
    ('name = "t"\n[[ignore]]\nselect = 1\nbox = [0, 0, 5, 9]\nunits = "inch"\n',
     "p.toml:5: ignore[0].units", "unknown units 'inch'; expected one of points, fraction"),
    ('name = "t"\n[[pages]]\nselect = 1\nlayout = "columns"\n', "pages[0].columns",
     "expected a whole number of columns >= 1"),
    ('name = "t"\n[[pages]]\nselect = 1\nlayout = "columns"\ncolumns = 3\ngutters = [200]\n',
     "p.toml:6: pages[0].gutters", "expected 2 gutter x positions"),
    ('name = "t"\n[[pages]]\nselect = 1\nlayout = "columns"\ncolumns = 3\ngutters = [300, 200]\n',
     "p.toml:6: pages[0].gutters", "left to right"),
    ('name = "t"\n[[pages]]\nselect = 1\nlayout = "single"\ncolumns = 3\n',
     "p.toml:5: pages[0].columns", "only with layout = \"columns\""),
    ('name = "t"\n[[pages]]\nselect = 1\nlayout = "regions"\n', "pages[0].regions",
     "needs [[pages.regions]]"),
    ('name = "t"\n[[pages]]\nselect = 1\n[[pages.regions]]\nbox = [0, 0, 9, 9]\n'
     'kind = "single"\norder = 1\n', "p.toml:4: pages[0].regions", "only with layout"),
    ('name = "t"\n[[pages]]\nselect = 1\nlayout = "regions"\n[[pages.regions]]\n'
     'box = [0, 0, 9, 9]\nkind = "table"\norder = 1\n', "p.toml:7: pages[0].regions[0].kind",
     "unknown kind 'table'; expected one of auto, single, columns, positional, ignore"),
    ('name = "t"\n[[pages]]\nselect = 1\nlayout = "regions"\n[[pages.regions]]\n'
     'box = [0, 0, 9, 9]\nkind = "single"\n', "pages[0].regions[0].order",
     "expected a whole number"),
    ('name = "t"\n[[pages]]\nselect = 1\nlayout = "regions"\n'
     '[[pages.regions]]\nbox = [0, 0, 0.6, 0.5]\nunits = "fraction"\nkind = "single"\norder = 1\n'
     '[[pages.regions]]\nbox = [0.5, 0, 1, 0.5]\nunits = "fraction"\nkind = "single"\norder = 1\n',
     "p.toml:5: pages[0].regions", "pages[0].regions[1] overlaps pages[0].regions[0] and both "
                                   "have order 1"),
    ('name = "t"\npages = 3\n', "p.toml:2: pages", "expected an array of tables ([[pages]])"),
    ('name = "t"\npages = [3]\n', "p.toml:2: pages[0]", "expected a table, got 3"),
    ('name = 5\n', "p.toml:1: name", "expected a string"),
    ('description = "no name"\n', "p.toml: name", "missing; expected a string"),
    ('name = "t"\n[[sections]]\nstarts_at = { line = "I" }\n', "sections[0].name",
     "expected a string naming the section"),
    ('name = "t"\nextends = "no-such-profile"\n', "p.toml:2: extends",
     "no such file and no bundled profile of that name; expected a bundled profile "
     "(cleveland-city-record"),
    ('name = "t"\nextends = 3\n', "p.toml:2: extends", "expected the name of a bundled profile"),
    ('name = "t"\nextends = "p.toml"\n', "p.toml:2: extends", "(a cycle)"),
    ('name = "t"\n[[pages]\n', "p.toml: ", "not valid TOML"),
])
def test_validation_problem(tmp_path: Path, text: str, where: str, expected: str) -> None:
    found = problems(tmp_path, text)
    assert any(where in p and expected in p for p in found), found
    assert all(p.startswith(str(tmp_path)) or p.startswith("config key") is False
               for p in found)


def test_validation_collects_every_problem(tmp_path: Path) -> None:
    found = problems(tmp_path, 'name = "t"\ncolour = 1\n[[pages]]\nselect = "x"\n'
                               'layout = "triple"\n[config]\nno_such = 1\n')
    assert [p.split(": ", 2)[1] for p in found] == [
        "colour", "config.no_such", "pages[0].select", "pages[0].layout"]


def test_point_box_outside_the_page_named_at_parse(tmp_path: Path) -> None:
    profile = write(tmp_path, 'name = "t"\n[[pages]]\nselect = 1\nlayout = "regions"\n'
                              '[[pages.regions]]\nbox = [0, 0, 900, 400]\nkind = "single"\n'
                              'order = 1\n')
    pdf = REPO / "fixtures" / "pdf" / "federal-register-2020-08-06.pdf"
    with pytest.raises(ProfileError, match=r"pages\[0\]\.regions\[0\]: box .* lies outside "
                                           r"page 1 \(612 x 792 pt\)"):
        parse(pdf, pages=[1], profile=profile)


def test_unknown_profile_name() -> None:
    with pytest.raises(UsageError, match="no bundled profile of that name"):
        load_profile("no-such-profile")


def test_extends_inherits_and_overrides(tmp_path: Path) -> None:
    write(tmp_path, 'name = "base"\ndescription = "b"\n[config]\nword_gap_em = 0.2\n'
                    'block_gap_ratio = 2.0\n[[pages]]\nselect = "2"\nlayout = "single"\n'
                    '[furniture]\nheader = { top = 0, bottom = 40 }\n', "base.toml")
    child = load_profile(write(tmp_path, 'name = "child"\nextends = "base.toml"\n[config]\n'
                                         'word_gap_em = 0.3\n[[pages]]\nselect = "2"\n'
                                         'layout = "columns"\ncolumns = 2\n'))
    assert child.name == "child" and child.description == "b"
    assert (child.config.words.word_gap_em, child.config.reading.block_gap_ratio) == (0.3, 2.0)
    assert [r.layout.kind for r in child.pages] == [Kind.SINGLE, Kind.COLUMNS]
    assert child.header is not None and child.header.bottom == 40


def test_extends_a_bundled_profile(tmp_path: Path) -> None:
    child = load_profile(write(tmp_path, 'name = "cr-1998"\nextends = "cleveland-city-record"\n'
                                         '[furniture]\nfooter = { top = 0.95, bottom = 1, '
                                         'units = "fraction" }\n'))
    assert [s.name for s in child.sections] == ["index"]
    assert child.footer is not None and child.footer.fraction


def test_bundled_profiles_pass_check() -> None:
    assert set(bundled_profiles()) >= {"cleveland-city-record", "federal-register"}
    for name in bundled_profiles():
        assert load_profile(name).name == name


# --------------------------------------------------------------------------- the stage


def synthetic(tmp_path: Path, case: str, seed: int = 0) -> tuple[Path, SyntheticDoc]:
    doc = gazette(case, seed=seed)
    path = tmp_path / f"{case}.pdf"
    path.write_bytes(doc.pdf)
    return path, doc


def paragraphs_found(path: Path, doc: SyntheticDoc, profile: Path | None) -> float:
    document = parse(path, profile=profile)
    scores = [score_page(page.text(), truth.lines, truth.furniture, truth.paragraphs)
              for page, truth in zip(document, doc.pages, strict=True)]
    combined = combine(scores)
    assert combined.order == 1.0 and combined.found == 1.0
    return combined.paragraphs_found or 0.0


def test_section_reads_index_in_one_column(tmp_path: Path) -> None:
    path, doc = synthetic(tmp_path, "index_mid_page")
    profile = write(tmp_path, 'name = "t"\n[[sections]]\nname = "index"\nlayout = "single"\n'
                              'starts_at = { line = "^Index of Legislation$" }\n')
    assert paragraphs_found(path, doc, profile) == 1.0
    last = parse(path, profile=profile)[-1]
    index_band = last.bands[-1] if last.bands[-1].kind == "body" else last.bands[-2]
    assert index_band.lines[0].text == "Index of Legislation"
    assert len(index_band.columns) == 1


@pytest.mark.parametrize("given", [False, True])
def test_forced_columns_read_synthetic_gazette(tmp_path: Path, given: bool) -> None:
    path, doc = synthetic(tmp_path, "full_width_between")
    gutters = ""
    if given:  # the gutters auto mode finds, as page-width fractions
        page = parse(path, pages=[1])[0]
        columns = max((b.columns for b in page.bands), key=len)
        gutters = "gutters = [{}]\nunits = \"fraction\"\n".format(", ".join(
            f"{(a.bbox.x1 + b.bbox.x0) / 2 / page.width:.4f}"
            for a, b in pairwise(columns)))
    profile = write(tmp_path, f'name = "t"\n[[pages]]\nselect = "1-"\nlayout = "columns"\n'
                              f'columns = 3\n{gutters}')
    assert paragraphs_found(path, doc, profile) == 1.0


def test_single_layout_reads_across_columns(tmp_path: Path) -> None:
    path, doc = synthetic(tmp_path, "three_column")
    profile = write(tmp_path, 'name = "t"\n[[pages]]\nselect = "1-"\nlayout = "single"\n')
    document = parse(path, profile=profile)
    truth = doc.pages[0]
    assert score_page(document[0].text(), truth.lines).order < 0.2


def test_regions_ignore_and_furniture_bands(tmp_path: Path) -> None:
    path, _ = synthetic(tmp_path, "three_column")
    auto = parse(path)
    page = auto[0]
    header = next(b for b in page.bands if b.kind == "header")
    body = [b for b in page.bands if b.kind == "body"]
    right = body[-1].columns[-1].bbox
    profile = write(tmp_path, f'name = "t"\n[furniture]\nheader = {{ top = 0, bottom = '
                              f'{header.bbox.bottom + 1:.1f} }}\n[[pages]]\nselect = 1\n'
                              'layout = "regions"\n[[pages.regions]]\n'
                              f'box = [{right.x0 - 1:.1f}, 0, {page.width:.1f}, '
                              f'{page.height:.1f}]\nkind = "ignore"\norder = 1\n')
    read = parse(path, pages=[1], profile=profile)[0]
    assert [line.text for line in read.bands[0].lines] == [line.text for line in header.lines]
    kept = read.text()
    assert all(line.text not in kept for line in body[-1].columns[-1].lines)
    assert all(line.text in kept for line in body[-1].columns[0].lines)


def test_regions_read_in_their_order(tmp_path: Path) -> None:
    path, _ = synthetic(tmp_path, "three_column")
    page = parse(path, pages=[1])[0]
    columns = [b for b in page.bands if b.kind == "body"][-1].columns
    first, last = columns[0].bbox, columns[-1].bbox
    profile = write(tmp_path, 'name = "t"\n[[pages]]\nselect = 1\nlayout = "regions"\n'
                              f'[[pages.regions]]\nbox = [{first.x0 - 1:.1f}, {first.top - 1:.1f}'
                              f', {first.x1 + 1:.1f}, {first.bottom + 1:.1f}]\nkind = "single"\n'
                              'order = 2\n[[pages.regions]]\n'
                              f'box = [{last.x0 - 1:.1f}, {last.top - 1:.1f}, {last.x1 + 1:.1f}, '
                              f'{last.bottom + 1:.1f}]\nkind = "single"\norder = 1\n')
    text = parse(path, pages=[1], profile=profile)[0].text()
    assert text.index(columns[-1].lines[0].text) < text.index(columns[0].lines[0].text)


# --------------------------------------------------------------------------- bundled profiles


def _labelled(prefix: str, profile: str) -> list[tuple[str, object, object]]:
    rows = []
    for truth in labelled_pages([REPO / "regions"]):
        if truth.document.startswith(prefix):
            pdf = REPO / "fixtures" / "pdf" / truth.document
            page = parse(pdf, pages=[truth.page], profile=profile)[0]
            rows.append((truth.document, truth.page, score_truth(page.text(), truth)))
    return rows


def test_city_record_profile_meets_bars_on_both_years() -> None:
    rows = _labelled("cleveland-city-record", "cleveland-city-record")
    assert {doc for doc, _, _ in rows} == {"cleveland-city-record-2004-06-09.pdf",
                                           "cleveland-city-record-2016-04-27.pdf"}
    for _, _, score in rows:
        assert score.order >= 0.99 and score.found >= 0.99 and score.leak == 0  # type: ignore


def test_federal_register_profile_meets_bar() -> None:
    rows = _labelled("federal-register", "federal-register")
    assert len(rows) == 3
    combined = combine(score for _, _, score in rows)  # type: ignore[misc]
    assert combined.order >= 0.99
    assert combined.leak == 0  # the part masthead is ignored


def test_documented_example_profile_is_valid(tmp_path: Path) -> None:
    """The worked example of the profile reference (docs/reference/profiles.md) loads,
    with a rule of each kind."""
    page = (REPO / "docs" / "reference" / "profiles.md").read_text(encoding="utf-8")
    example = page.split("```toml\n", 1)[1].split("```", 1)[0]
    profile = load_profile(write(tmp_path, example))
    assert [r.layout.kind for r in profile.pages] == [Kind.COLUMNS, Kind.AUTO, Kind.AUTO]
    assert [r.layout.kind for r in profile.pages[-1].regions] == [Kind.POSITIONAL, Kind.COLUMNS]
    assert profile.header is not None and len(profile.ignore) == 1


def test_sections_starting_on_one_line_take_the_first(tmp_path: Path) -> None:
    path, doc = synthetic(tmp_path, "index_mid_page")
    profile = write(tmp_path, 'name = "t"\n[[sections]]\nname = "a"\nlayout = "single"\n'
                              'starts_at = { line = "^Index of" }\n[[sections]]\nname = "b"\n'
                              'layout = "auto"\nstarts_at = { line = "Legislation$" }\n')
    assert paragraphs_found(path, doc, profile) == 1.0


@pytest.mark.parametrize("gutters", [(), (306.0,)])
def test_forced_columns_keep_a_title_whole_across_the_gutter(gutters: tuple[float, ...]) -> None:
    title = [word("Your", 306 - 1.5 - 4 * CHAR, 40), word("Name", 306 + 1.5, 40)]
    left, right = text_lines(50, 250, 70, 20, seed=1), text_lines(312, 250, 70, 20, seed=2)
    words = [*title, *left, *right]
    canvas = prepare(words, [], [], 612, 792, LayoutConfig().gutters)
    bands = bands_of(force_columns(canvas, 2, gutters))
    texts = [[[" ".join(words[i].text for i in leaf.words) for leaf in column] for column in band]
             for band in bands]
    assert texts[0] == [["Your Name"]]
    assert len(bands) == 2 and len(bands[1]) == 2
    assert {words[i].bbox.x0 for leaf in bands[1][0] for i in leaf.words} <= {
        w.bbox.x0 for w in left}


# --------------------------------------------------------------------------- hostile profiles


def test_extends_reads_only_profiles(tmp_path: Path) -> None:
    """``extends`` naming a file that is not a ``.toml`` file (``/etc/shadow``,
    ``/proc/self/environ``, any other) is a problem of the key, the file left unread."""
    secret = tmp_path / "secret"
    secret.write_text("password = hunter2\n", encoding="utf-8")
    for target in (str(secret), "/proc/self/environ", "/dev/zero"):
        found = problems(tmp_path, f'name = "t"\nextends = "{target}"\n')
        assert found == (f"{tmp_path / 'p.toml'}:2: extends: profile {target!r}: not a .toml "
                         f"file and no bundled profile of that name; expected a bundled "
                         f"profile (cleveland-city-record, federal-register) or a .toml file",)


def test_extends_never_echoes_the_other_files_content(tmp_path: Path) -> None:
    """A ``.toml`` file that is no profile is one problem of ``extends``: its keys and
    values appear in no message."""
    write(tmp_path, 'api_key = "s3cr3t"\nname = 42\n', "other.toml")
    found = problems(tmp_path, 'name = "t"\nextends = "other.toml"\n')
    assert found == (f"{tmp_path / 'p.toml'}:2: extends: 'other.toml' is not a valid profile "
                     f"(2 problem(s); see layoutkit profile check {tmp_path / 'other.toml'})",)


def test_deep_nesting_and_bad_encoding_are_profile_errors(tmp_path: Path) -> None:
    """5,000 nested arrays and bytes that are not UTF-8 are profile errors naming the
    file, not a RecursionError or a UnicodeDecodeError."""
    deep = problems(tmp_path, 'name = "t"\nconfig = ' + "[" * 5000 + "]" * 5000 + "\n")
    assert deep == (f"{tmp_path / 'p.toml'}: not valid TOML (arrays or tables nested too "
                    f"deeply)",)
    path = tmp_path / "latin.toml"
    path.write_bytes(b'name = "Gr\xfc\xdfe"\n')
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    assert caught.value.problems == (f"{path}: not UTF-8 text (a byte that cannot start or "
                                     f"continue a character at offset 10); a profile is a "
                                     f"UTF-8 TOML file",)


@pytest.mark.parametrize("text", [
    'name = "t"\n[[pages]]\nselect = { contains = "(a+)+b|(a|aa)+$" }\nlayout = "single"\n',
    'name = "t"\n[[sections]]\nname = "s"\nstarts_at = { line = "^(x|xx)+y" }\n',
])
def test_catastrophic_regex_is_a_profile_error(tmp_path: Path, text: str) -> None:
    """A pattern that backtracks catastrophically on a run of its own letters is a
    problem of its key when the profile is loaded (and so by ``profile check``)."""
    found = problems(tmp_path, text)
    assert len(found) == 1
    assert "catastrophic backtracking" in found[0]
    assert (":3: pages[0].select: " in found[0]) != (":4: sections[0].starts_at: " in found[0])


_NESTED = "(?:(?:(?:x{100}){100}){100}){10}"
"""45 bytes the ``regex`` package wrote out to ten million as it compiled them (3 GB)."""


@pytest.mark.parametrize("text", [
    f'name = "t"\n[[pages]]\nselect = {{ contains = "{_NESTED}" }}\nlayout = "single"\n',
    f'name = "t"\n[[sections]]\nname = "s"\nstarts_at = {{ line = "{_NESTED}" }}\n',
])
def test_regex_too_large_written_out_is_a_profile_error(tmp_path: Path, text: str) -> None:
    """Nested counted repeats that stand for ten million characters are a problem of
    their key, found before the pattern is compiled (it took 3 GB and 5 s)."""
    found = problems(tmp_path, text)
    assert len(found) == 1
    assert (f"regular expression {_NESTED!r} stands for more than 100,000 characters and "
            f"classes with its counted repeats written out, more than can be compiled "
            f"safely") in found[0]
    assert (":3: pages[0].select: " in found[0]) != (":4: sections[0].starts_at: " in found[0])


@pytest.mark.parametrize(("pattern", "size"), [
    ("(?:(?:(?:x{100}){100}){100}){10}", 10_000_000),
    ("(?:ab){3}", 6),
    (r"\d{1,3}(?:,\d{3})*", 7),
    ("(a|bc){3}", 15),
    ("x{100000}", 100_000),
    ("x{100001}", 100_001),
    (r"\p{Lu}{2}\d{4}", 14 * 2 * 4),  # regex's own syntax: length times the counts
])
def test_expanded_size_counts_repeats_written_out(pattern: str, size: int) -> None:
    """A pattern's size with its counted repeats written out: each nested count
    multiplies what it repeats; an unbounded repeat counts its least; a pattern in the
    ``regex`` package's own syntax is bounded by its length times its counts."""
    from layoutkit.profile.patterns import check_pattern, expanded_size

    assert expanded_size(pattern, 100_000_000) == size
    assert (check_pattern(pattern) is None) == (size <= 100_000)


def test_catastrophic_regex_on_a_page_stops_within_its_timeout(tmp_path: Path) -> None:
    """A pattern the load-time check lets through but that backtracks catastrophically
    on a page's text ends the reading with a ProfileError once ``regex_timeout`` has
    passed, instead of hanging."""
    from tests.test_cli import build_pdf

    pdf = build_pdf(tmp_path / "digits.pdf", [["1" * 60 + "!", "Some plain body text here."]])
    profile = write(tmp_path, 'name = "t"\n[config]\nregex_timeout = 0.2\n[[pages]]\n'
                              'select = { contains = "(\\\\d|\\\\d\\\\d)+$" }\n'
                              'layout = "single"\n')
    with pytest.raises(ProfileError) as caught:
        parse(pdf, profile=profile)
    assert caught.value.problems == (
        "regular expression '(\\\\d|\\\\d\\\\d)+$' takes longer than 0.2 s on one text "
        "(catastrophic backtracking); write it without nested repeats such as (a+)+ or "
        "(a|aa)+",)
