"""Names a package exports but imports only when first asked for.

A process then loads the modules it uses, not every one its package could offer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` (PEP 562) that imports each name of
    ``homes`` from the submodule ``homes`` gives it when first asked for, and raises
    AttributeError for any other name."""

    def attribute(name: str) -> Any:
        if name not in homes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(f".{homes[name]}", package), name)

    return attribute
