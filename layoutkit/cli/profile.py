"""The commands of publication profiles: ``layoutkit profiles`` (the bundled ones),
``profile check`` (validate profiles) and ``profile suggest`` (draft one from a
sample issue)."""

from __future__ import annotations

import argparse

from ..errors import ProfileError, UsageError
from .common import Commands, Outcome, Parser, document_options, reading_config

__all__ = ["COMMANDS", "add_commands", "run"]

COMMANDS = ("profiles", "profile")
"""The commands of this module, in the order of the command line's help."""


def add_commands(commands: Commands) -> None:
    """``layoutkit profiles`` and ``layoutkit profile check|suggest``."""
    commands.add_parser("profiles", help="list the bundled publication profiles")
    profile = commands.add_parser("profile", help="check or draft a publication profile")
    actions = profile.add_subparsers(dest="action", required=True, metavar="ACTION",
                                     parser_class=Parser)
    check = actions.add_parser("check", help="validate profiles; exit 2 on any problem")
    check.add_argument("profiles", nargs="+", metavar="FILE", help="profile (path or name)")
    suggest = actions.add_parser("suggest", help="draft a profile from a sample issue")
    document_options(suggest)


def run(args: argparse.Namespace) -> Outcome:
    """What ``layoutkit profiles`` prints (the bundled profiles), ``layoutkit profile
    check`` (each profile ok, or a ProfileError with every problem) or ``profile
    suggest`` (the draft)."""
    from ..profile import bundled_profiles, load_profile

    if args.command == "profiles":
        return Outcome({None: "".join(f"{name}\t{load_profile(path).description}\n"
                                      for name, path in sorted(bundled_profiles().items()))})
    if args.action == "suggest":
        from ..tools.suggest_profile import suggest

        config, _ = reading_config(args)
        return Outcome({args.output: suggest(args.file, config, args.pages, engine=args.engine,
                                             jobs=args.jobs, password=args.password)})
    problems = []
    for spec in args.profiles:
        try:
            load_profile(spec)
        except UsageError as exc:
            problems.append(str(exc))
    if problems:
        raise ProfileError(problems)
    return Outcome({None: "".join(f"{spec}: ok\n" for spec in args.profiles)})
