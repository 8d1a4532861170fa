"""How much the command line says on standard error: its log and warnings.

- Each line reads `layoutkit: ...`; `-q` keeps only errors, `-v` adds the log.
- It is set once in the command's process, and again in each batch worker it starts (a
  worker forked from the fork server inherits none of it).
"""

from __future__ import annotations

import logging
import warnings
from dataclasses import dataclass

__all__ = ["Loudness"]

FORMAT = "layoutkit: %(message)s"
"""How a log line is written on standard error."""


@dataclass(frozen=True, slots=True)
class Loudness:
    """The command line's ``-v`` (``verbose``), ``-q`` (``quiet``) and
    ``--verbose-linetypes`` (``linetypes``)."""

    verbose: bool = False
    quiet: bool = False
    linetypes: bool = False

    def apply(self) -> None:
        """Make this process log and warn as the command line says (the log's first
        set-up in the process holds)."""
        logging.basicConfig(level=logging.INFO if self.verbose else
                            logging.ERROR if self.quiet else logging.WARNING, format=FORMAT)
        if self.quiet:
            warnings.simplefilter("ignore")
        if not self.verbose:
            logging.getLogger("pdfminer").setLevel(logging.ERROR)
        logging.getLogger("layoutkit.linetypes").setLevel(
            logging.INFO if self.linetypes else logging.WARNING)
