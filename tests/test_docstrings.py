"""Module docstrings open with one short sentence, and their first paragraph stays short;
each configuration key's documentation opens with one short sentence saying what it is."""

from __future__ import annotations

import ast
import inspect
import re
from dataclasses import fields
from pathlib import Path

import pytest

from layoutkit.config import LayoutConfig

PACKAGE = Path(__file__).resolve().parent.parent / "layoutkit"
MODULES = sorted(path for path in PACKAGE.rglob("*.py")
                 if path.relative_to(PACKAGE).parts[0] not in {"cli.py", "cli"})
"""The package's modules; the command line's are left out while it is split into a
package of its own, whose modules are written to this rule then."""
SUMMARY_MAX_CHARS = 100
"""The longest first line a module docstring may have."""
PARAGRAPH_MAX_LINES = 6
"""The most lines the paragraph after a module docstring's first line may run to (each
item, where that paragraph is a list)."""
_ITEM = re.compile(r"^(?:[-*]|\d+\.) ")
"""The start of a Markdown list item."""
_SENTENCE_END = re.compile(r"[.!?]\s+[A-Z]")
"""A full stop followed by a new sentence, inside a line that should hold one."""


def _summary_and_paragraph(docstring: str) -> tuple[list[str], list[str]]:
    """The lines of a docstring's first paragraph and of its second (empty if none)."""
    paragraphs = [p.splitlines() for p in re.split(r"\n\s*\n", docstring.strip())]
    return paragraphs[0], paragraphs[1] if len(paragraphs) > 1 else []


def _pieces(paragraph: list[str]) -> list[list[str]]:
    """A paragraph's list items, each its lines, or the paragraph whole if it is prose."""
    if not paragraph or not _ITEM.match(paragraph[0]):
        return [paragraph]
    items: list[list[str]] = []
    for line in paragraph:
        if _ITEM.match(line):
            items.append([])
        items[-1].append(line)
    return items


def _is_one_sentence(line: str) -> bool:
    """Whether ``line`` is a single sentence: it ends with a period and holds no other."""
    return line.endswith(".") and not _SENTENCE_END.search(line.rstrip("."))


def test_every_module_is_checked() -> None:
    """The package's modules are all found (a wrong path would check nothing)."""
    assert len(MODULES) > 100
    assert PACKAGE / "geometry" / "furniture.py" in MODULES


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_docstring_opens_with_one_short_sentence(path: Path) -> None:
    """A module says what it holds in one line of one sentence, then a short paragraph:
    the rules of a stage are a list beside their keys, not one long sentence."""
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")), clean=True)
    assert docstring, f"{path.name} has no module docstring"
    summary, paragraph = _summary_and_paragraph(docstring)
    assert len(summary) == 1, f"first paragraph runs over {len(summary)} lines: {summary}"
    assert len(summary[0]) <= SUMMARY_MAX_CHARS, summary[0]
    assert _is_one_sentence(summary[0]), summary[0]
    for piece in _pieces(paragraph):
        assert len(piece) <= PARAGRAPH_MAX_LINES, "\n".join(piece)


def _config_fields() -> list[tuple[str, str | None]]:
    """Each configuration key with the docstring written under it (None if none)."""
    tree = ast.parse((PACKAGE / "config.py").read_text(encoding="utf-8"))
    keys: list[tuple[str, str | None]] = []
    sections = {type(getattr(LayoutConfig(), f.name)).__name__ for f in fields(LayoutConfig)}
    for section in tree.body:
        if not isinstance(section, ast.ClassDef) or section.name not in sections:
            continue
        body = section.body
        for index, statement in enumerate(body):
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                after = body[index + 1] if index + 1 < len(body) else None
                doc = (after.value.value if isinstance(after, ast.Expr)
                       and isinstance(after.value, ast.Constant) else None)
                keys.append((statement.target.id, doc if isinstance(doc, str) else None))
    return keys


def test_config_keys_are_all_found() -> None:
    """The keys read here are the configuration's (a change of layout would hide them)."""
    config = LayoutConfig()
    expected = {key.name for section in fields(config)
                for key in fields(getattr(config, section.name))}
    found = [name for name, _ in _config_fields()]
    assert len(found) == len(set(found))
    assert set(found) == expected


@pytest.mark.parametrize(("key", "doc"),
                         [pytest.param(key, doc, id=key) for key, doc in _config_fields()])
def test_config_key_opens_with_its_meaning(key: str, doc: str | None) -> None:
    """A key's documentation opens with one sentence on one line, short enough to stand
    as its meaning in a listing of the configuration."""
    assert doc, f"{key} has no documentation"
    summary, _ = _summary_and_paragraph(inspect.cleandoc(doc))
    assert len(summary) == 1, f"{key}: first paragraph runs over {len(summary)} lines"
    assert len(summary[0]) <= SUMMARY_MAX_CHARS, f"{key}: {summary[0]}"
    assert _is_one_sentence(summary[0]), f"{key}: {summary[0]}"
    # a meaning stands alone: not the tail of the key before, nor a pointer to another
    assert not summary[0].startswith(("...", "See ")), f"{key}: {summary[0]}"
