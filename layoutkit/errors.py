"""The exceptions layoutkit raises.

Every error derives from `LayoutkitError` and also from the built-in
exception a caller would naturally catch, so ``except ValueError`` keeps
working.  Each message names the bad value, where it was found (file, page,
key) and what would have been accepted: the CLI prints it as one line.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "ConfigTypeError",
    "DocumentError",
    "LayoutkitError",
    "PageNotParsedError",
    "PageRangeError",
    "ProfileError",
    "UsageError",
]


class LayoutkitError(Exception):
    """The root of every error layoutkit raises on purpose."""


class UsageError(LayoutkitError, ValueError):
    """The caller asked for something that cannot be done (bad argument, missing file)."""


class ConfigError(UsageError):
    """A configuration key or value is unknown or out of range."""


class ConfigTypeError(ConfigError, TypeError):
    """A value given where a `layoutkit.LayoutConfig` (or one of its sections)
    is expected is of another type."""


class PageRangeError(UsageError):
    """A page selection is malformed or names pages the document does not have."""


class PageNotParsedError(PageRangeError, KeyError):
    """A page asked for by its number (``doc.page(n)``) is not among the pages parsed;
    a KeyError too, for the lookup it is, whose message reads as given (a KeyError's
    own would be quoted)."""

    def __str__(self) -> str:
        return Exception.__str__(self)


class DocumentError(LayoutkitError, OSError):
    """A document exists but cannot be read: not a PDF, encrypted, corrupt or empty."""


class ProfileError(UsageError):
    """A profile cannot be used: each of ``problems`` names the file, the key (and
    line, where it can be found) and what is allowed."""

    def __init__(self, problems: list[str] | tuple[str, ...]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))
