"""The package's shape: the folders tell the flow of data, and the imports keep to it.

Every import statement of every module of ``layoutkit`` is read (those inside
functions and under ``TYPE_CHECKING`` too), and three rules are checked so that they
stay true as the package grows: no import cycle; no module imports another module's
private name; no stage imports a later stage, the pipeline, the tools, batch or the
command line.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "layoutkit"

RANKS = {
    "layoutkit.errors": 0, "layoutkit.lazy": 0, "layoutkit.config": 0, "layoutkit.model": 0,
    "layoutkit.parallel": 0, "layoutkit.files": 0,
    "layoutkit.sources": 1,
    "layoutkit.geometry": 2,
    "layoutkit.profile": 3,
    "layoutkit.reading": 4,
    "layoutkit.linetypes": 5,
    "layoutkit.nlp": 6, "layoutkit.outputs": 6,
    "layoutkit.pipeline": 7, "layoutkit.document": 7,
    "layoutkit.tools": 8, "layoutkit.batch": 8, "layoutkit.progress": 8, "layoutkit.loudness": 8,
    "layoutkit.loaders": 8, "layoutkit.server": 8,
    "layoutkit.cli": 9, "layoutkit.__main__": 9,
}
"""Where each part stands in the flow: the values and infrastructure every stage uses
(0), the stages in the order data flows through them (1-6), the pipeline that runs
them and the document API over it (7), what is built on the pipeline (8) and the
command line (9).  A module may import from its own rank and below."""


def _name(path: Path) -> str:
    """The dotted module name of a file of the package."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> dict[str, Path]:
    return {_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _imports(module: str) -> Iterator[tuple[str, str | None, int]]:
    """(module imported, name imported from it or None, line) for each import of a
    layoutkit module in ``module``; ``from package import submodule`` names the
    submodule."""
    path = _modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "layoutkit":
                    yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] != "layoutkit":
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in _modules():
                    yield submodule, None, node.lineno
                else:
                    yield source, alias.name, node.lineno


def _rank(module: str) -> int:
    """The rank of the part of the package ``module`` belongs to."""
    parts = module.split(".")
    for k in range(len(parts), 0, -1):
        if ".".join(parts[:k]) in RANKS:
            return RANKS[".".join(parts[:k])]
    raise AssertionError(f"{module}: not in any part of the package; add it to RANKS")


def test_package_layout_every_module_has_a_rank() -> None:
    """Every module belongs to a part of the flow (the package itself aside)."""
    assert [_rank(m) for m in _modules() if m != "layoutkit"]


def test_package_layout_has_no_import_cycle() -> None:
    """No module imports, however indirectly, a module that imports it."""
    graph = {m: {target for target, _, _ in _imports(m)} for m in _modules()}
    done: set[str] = set()

    def visit(module: str, trail: list[str]) -> None:
        if module in trail:
            cycle = [*trail[trail.index(module):], module]
            pytest.fail("import cycle: " + " -> ".join(cycle))
        if module in done:
            return
        for target in sorted(graph.get(module, ())):
            visit(target, [*trail, module])
        done.add(module)

    for module in graph:
        visit(module, [])


def test_package_layout_no_private_name_crosses_modules() -> None:
    """No module imports a name another module keeps private (``_name``)."""
    crossing = [f"{_modules()[m].relative_to(PACKAGE.parent)}:{line}: {name} from {source}"
                for m in _modules() for source, name, line in _imports(m)
                if name is not None and name.startswith("_") and not name.startswith("__")]
    assert crossing == []


def test_package_layout_stages_import_only_earlier_parts() -> None:
    """A stage imports the values and stages before it, never a later stage, the
    pipeline, the tools, batch or the command line."""
    backwards = [f"{m} imports {source}" for m in _modules() if m != "layoutkit"
                 for source, _, _ in _imports(m)
                 if source != "layoutkit" and _rank(source) > _rank(m)]
    assert backwards == []
