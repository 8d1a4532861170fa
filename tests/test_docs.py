"""The documentation site (``make docs``): mkdocs with mkdocstrings builds it from
``docs/`` and the docstrings, in strict mode, so a broken link, a missing heading or a
docstring it cannot read fails the test run; the API reference covers every public
name, the command-line reference every command, and the README stays short."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from layoutkit.cli import main
from layoutkit.cli.app import build_parser

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built from this tree, strictly, into a temporary folder."""
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                           "--config-file", str(REPO / "mkdocs.yml"), "--site-dir",
                           str(out)], capture_output=True, text=True, cwd=REPO,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    return out


def test_api_reference_builds_without_warnings(site: Path) -> None:
    parse = (site / "api" / "layoutkit" / "index.html").read_text(encoding="utf-8")
    # the reference holds the docstrings themselves
    assert "Read <code>path</code> and lay out its pages" in parse
    draw = (site / "api" / "draw" / "index.html").read_text(encoding="utf-8")
    # public members each under their own heading, private ones left out
    assert 'id="layoutkit.outputs.draw.PageImage.draw_columns"' in draw
    assert 'id="layoutkit.outputs.draw.PageImage._repr_png_"' not in draw


def test_docstrings_show_no_sphinx_roles(site: Path) -> None:
    """Docstrings cross-reference in the syntax mkdocstrings renders: no page of the
    reference shows a raw role such as ``:class:`Profile```, and a reference to a
    documented object is a link to it."""
    roles = re.compile(r":(class|mod|func|meth|attr|data|exc|obj):`")
    pages = [*(site / "api").rglob("*.html"), *(site / "reference").rglob("*.html")]
    assert [p for p in pages if roles.search(p.read_text(encoding="utf-8"))] == []
    top = (site / "api" / "layoutkit" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a class="autorefs autorefs-internal"[^>]*href="[^"]*#layoutkit\.'
                     r'pipeline\.iter_pages"', top)


def public_packages() -> list[str]:
    """``layoutkit`` and each of its packages that declares ``__all__``."""
    names = ["layoutkit"]
    for init in sorted((REPO / "layoutkit").glob("*/__init__.py")):
        name = f"layoutkit.{init.parent.name}"
        if hasattr(importlib.import_module(name), "__all__"):
            names.append(name)
    return names


def _documented(site: Path) -> set[str]:
    """The dotted names the API and configuration pages hold a heading for."""
    pages = [*(site / "api").rglob("*.html"), site / "reference" / "configuration" / "index.html"]
    found: set[str] = set()
    for page in pages:
        found |= set(re.findall(r'id="(layoutkit[\w.]*)"', page.read_text(encoding="utf-8")))
    return found


def _same(dotted: str, value: object) -> bool:
    """Whether the heading ``dotted`` documents ``value`` (a name re-exported by a
    package is documented where it is defined, or under another package)."""
    module, _, name = dotted.rpartition(".")
    try:
        return getattr(importlib.import_module(module), name) is value
    except (ImportError, AttributeError):
        return False


def test_every_public_name_is_in_the_api_reference(site: Path) -> None:
    """Each name of ``layoutkit.__all__`` and of the public packages' ``__all__`` has a
    heading of its own in the API reference, under its package's name or where the
    same object is documented."""
    documented = _documented(site)
    packages = public_packages()
    assert {"layoutkit", "layoutkit.model", "layoutkit.profile", "layoutkit.batch"} <= set(
        packages)
    missing = []
    for package in packages:
        module = importlib.import_module(package)
        for name in module.__all__:
            value = getattr(module, name)
            if f"{package}.{name}" in documented:
                continue
            if not any(d.rsplit(".", 1)[-1] == name and _same(d, value) for d in documented):
                missing.append(f"{package}.{name}")
    assert missing == []


@contextlib.contextmanager
def _recorded_commands() -> Iterator[list[str]]:
    """The commands the command line registers while the block runs, as typed:
    ``layoutkit text``, ``layoutkit profile check``..."""
    commands: list[str] = []
    add_parser = argparse._SubParsersAction.add_parser

    def recording(self: Any, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        commands.append(f"{self._prog_prefix} {name}")
        return add_parser(self, name, **kwargs)

    argparse._SubParsersAction.add_parser = recording  # type: ignore[method-assign]
    try:
        yield commands
    finally:
        argparse._SubParsersAction.add_parser = add_parser  # type: ignore[method-assign]


def cli_commands() -> list[str]:
    """Every command and subcommand of ``layoutkit``."""
    with _recorded_commands() as commands, contextlib.redirect_stdout(io.StringIO()), \
            pytest.raises(SystemExit):
        main(["--help"])
    return commands


def test_every_command_is_in_the_cli_reference(site: Path) -> None:
    """Each command has a heading of its own in the command-line reference, and the
    page shows the help it prints."""
    commands = cli_commands()
    assert {"layoutkit text", "layoutkit profile check", "layoutkit truth review"} <= set(
        commands)
    page = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'<h[23] id="([\w-]+)"', page))
    assert [c for c in commands if c.replace(" ", "-") not in ids] == []
    # the help blocks are made from the code when the site is built
    assert "usage: layoutkit profile check [-h] FILE [FILE ...]" in page
    assert "--keep-furniture" in page


def test_configuration_reference_is_generated_from_the_code(site: Path) -> None:
    """Every configuration key has its heading, with the default the code gives it."""
    from layoutkit.config import LayoutConfig

    page = (site / "reference" / "configuration" / "index.html").read_text(encoding="utf-8")
    keys = LayoutConfig.known_keys()
    assert len(keys) > 100
    assert [k for k in keys if f'.{k}"' not in page] == []
    assert "gutter_min_width" in page


def test_site_fetches_nothing(site: Path) -> None:
    """The build reads no inventory from the network, and the pages load no script or
    style sheet from it (highlight.js from a CDN is turned off)."""
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    assert "import:" not in config  # mkdocstrings inventories are downloaded
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'<(script|link)[^>]+(src|href)="https?://', text), page


def test_readme_is_short_and_links_into_the_site() -> None:
    """The README holds what a newcomer needs, at most 250 lines; its links into docs/
    name pages that exist."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    assert "make demo" in readme and "make test" in readme
    links = re.findall(r"\]\((docs/[^)#]+)(?:#[^)]*)?\)", readme)
    assert len(links) >= 10
    assert [link for link in links if not (REPO / link).is_file()] == []


def test_pictures_are_small() -> None:
    """The pictures committed for the site stay small: a few hundred KB in all."""
    pictures = list((REPO / "docs" / "images").glob("*.png"))
    assert len(pictures) >= 4
    assert sum(p.stat().st_size for p in pictures) < 400_000


def shown_command_lines() -> list[tuple[str, str]]:
    """Every ``layoutkit ...`` command line of the shell blocks of the README and the
    documentation, with the page it is on: comments and pipes cut off, continued
    lines joined; a line with a ``[placeholder]`` is left out."""
    found = []
    for page in [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"```sh\n(.*?)```", text, re.S):
            for line in block.replace("\\\n", " ").splitlines():
                command = line.split(" #", 1)[0].split("|")
                shown = next((c.strip() for c in command if c.strip().startswith("layoutkit ")),
                             None)
                if shown and "[" not in shown:
                    found.append((page.relative_to(REPO).as_posix(), shown))
    return found


def test_every_command_line_shown_parses() -> None:
    """Each command line the README and the documentation show names a command and
    options the command line takes (a misspelt option, a removed one, fails here)."""
    lines = shown_command_lines()
    assert len(lines) > 80
    refused = []
    for page, line in lines:
        argv = shlex.split(line)[1:]
        with contextlib.redirect_stderr(io.StringIO()) as err, \
                contextlib.redirect_stdout(io.StringIO()):
            try:
                build_parser().parse_args(argv)
                continue
            except SystemExit:
                pass
        refused.append(f"{page}: {line}: {err.getvalue().strip()}")
    assert refused == []
