"""The ``layoutkit`` command: a thin layer that parses arguments, calls the library
and writes files, a module per group of commands: :mod:`.reading` (text, parse,
tokens, nlptext), :mod:`.outputs` (markdown, html, alto, draw), :mod:`.profile`
(profiles, profile), :mod:`.batch`, :mod:`.truth` (regress, evaluate, truth) and
:mod:`.config` (config); :mod:`.main` builds the parser and runs the command."""

from .main import main

__all__ = ["main"]
