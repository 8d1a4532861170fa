"""The ``layoutkit`` command: a thin layer that parses arguments, calls the library
and writes files, a module per group of commands: `.reading` (text, parse,
tokens, nlptext), `.outputs` (markdown, html, alto, draw), `.profile`
(profiles, profile), `.batch`, `.truth` (regress, evaluate, truth) and
`.config` (config).  `.app` builds the parser and runs the command (a
module not named ``main``, so that ``layoutkit.cli.main`` is the function alone, as
the console script names it)."""

from .app import main

__all__ = ["main"]
