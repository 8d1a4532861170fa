"""The outputs of a document by name, for the commands and the batch that write them.

The names are ``json``, ``text``, ``markdown``, ``html`` and ``alto``.
"""

from __future__ import annotations

from pathlib import Path

from ..config import LayoutConfig
from ..errors import UsageError
from ..model import Document
from ..model.codec import dumps

__all__ = ["DEFAULT", "FILES", "MARKUPS", "output_names", "output_text"]

FILES = {"json": "document.json", "text": "text.txt", "markdown": "document.md",
         "html": "document.html", "alto": "document.alto.xml"}
"""Each output by name, with the name of its file in a document's output folder."""
MARKUPS = ("markdown", "html", "alto")
"""The outputs that mark the typed document up."""
DEFAULT = ("json", "text")
"""The outputs a batch writes unless asked for others."""


def output_names(spec: str) -> tuple[str, ...]:
    """The outputs a comma-separated ``spec`` such as ``"json,markdown"`` names, in its
    order, without repeats; raises UsageError naming an unknown one."""
    names = tuple(dict.fromkeys(part.strip() for part in spec.split(",") if part.strip()))
    unknown = [name for name in names if name not in FILES]
    if unknown or not names:
        raise UsageError(f"--outputs {spec!r}: " + (f"unknown output {unknown[0]!r}; " if
                                                     unknown else "no output named; ")
                         + f"expected a comma-separated list of {', '.join(FILES)}")
    return names


def output_text(name: str, document: Document, config: LayoutConfig, *,
                page_separator: bool = False, images: Path | None = None,
                link_from: Path | None = None) -> str:
    """The ``document``'s output ``name`` (a key of `FILES`), headings and lists
    as ``config`` types them; Markdown with ``page_separator`` marks where each page
    begins (`layoutkit.outputs.markdown.markdown`); Markdown and HTML with their figures
    written to the folder ``images`` and linked from the folder ``link_from``, when given
    (`layoutkit.outputs.figures`)."""
    if name == "json":
        return dumps(document)
    if name == "text":
        from . import document_text

        return document_text(document) + "\n"
    if name == "markdown":
        from .markdown import markdown

        return markdown(document, config.linetypes, page_separator=page_separator,
                        images=images, link_from=link_from)
    if name == "html":
        from .html import html_document

        return html_document(document, config.linetypes, images=images, link_from=link_from)
    from .alto import alto

    return alto(document)
