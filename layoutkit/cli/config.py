"""``layoutkit config``: every configuration key with its section, type, default and
meaning, as `layoutkit.config` documents them; ``layoutkit config KEY`` shows one."""

from __future__ import annotations

import argparse
import difflib
import json
from itertools import groupby

from ..config import KeyDoc, key_docs
from ..errors import ConfigError
from .common import Commands, Outcome

__all__ = ["COMMANDS", "add_commands", "run"]

COMMANDS = ("config",)
"""The commands of this module."""


def run(args: argparse.Namespace) -> Outcome:
    """What ``layoutkit config`` prints: every key, or the one asked for (an unknown one
    is a ConfigError naming the closest keys)."""
    docs = key_docs()
    if args.key is None:
        return Outcome({None: json.dumps([_json(doc) for doc in docs], ensure_ascii=False,
                                         indent=1) + "\n" if args.json else _table(docs)})
    found = next((doc for doc in docs if doc.key == args.key), None)
    if found is None:
        close = difflib.get_close_matches(args.key.lower(), [doc.key for doc in docs], n=3,
                                          cutoff=0.5)
        raise ConfigError(f"config: unknown key {args.key!r}; " + (
            f"did you mean {' or '.join(close)}? " if close else "") +
            "(layoutkit config lists the keys)")
    if args.json:
        return Outcome({None: json.dumps(_json(found), ensure_ascii=False, indent=1) + "\n"})
    return Outcome({None: "".join(f"{label}: {value}\n" for label, value in (
        ("key", found.key), ("section", found.section), ("type", found.type),
        ("default", _shown(found.default)), ("meaning", found.meaning)))})


def add_commands(commands: Commands) -> None:
    """``layoutkit config [KEY] [--json]``."""
    config = commands.add_parser(
        "config", help="list the configuration keys (--set KEY=VALUE, a profile's [config])",
        description="List every configuration key with its section, type, default and "
                    "meaning; a key is set with --set KEY=VALUE or in a profile's [config] "
                    "table.")
    config.add_argument("key", nargs="?", metavar="KEY", help="show this key alone")
    config.add_argument("--json", action="store_true",
                        help="print the keys as JSON: a list of objects with key, section, "
                             "type, default and meaning (one object for KEY)")


def _json(doc: KeyDoc) -> dict[str, object]:
    return {"key": doc.key, "section": doc.section, "type": doc.type, "default": doc.default,
            "meaning": doc.meaning}


def _shown(value: object) -> str:
    """A default as it is written after ``--set KEY=``."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _table(docs: tuple[KeyDoc, ...]) -> str:
    """The keys section by section (a line ``[section]`` before each), each key on a
    line of its own with its default and type (``  image_dpi = 300 (int)``), its
    meaning on the next, indented."""
    return "".join(f"[{section}]\n" + "".join(
        f"  {doc.key} = {_shown(doc.default)} ({doc.type})\n      {doc.meaning}\n"
        for doc in keys) for section, keys in groupby(docs, key=lambda doc: doc.section))
