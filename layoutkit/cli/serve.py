"""``layoutkit serve``: the HTTP API (`layoutkit.server`), run by uvicorn."""

from __future__ import annotations

import argparse

from ..errors import UsageError
from ..parallel import processors
from .common import Commands, Outcome, loudness_options

__all__ = ["COMMANDS", "add_commands", "run"]

COMMANDS = ("serve",)
"""The commands of this module."""


def _positive(kind: type[int] | type[float]) -> object:
    """An argparse type: a number of ``kind`` more than 0."""
    def number(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"expected more than 0, got {text!r}")
        return value

    number.__name__ = kind.__name__
    return number


def add_commands(commands: Commands) -> None:
    """``layoutkit serve``."""
    serve = commands.add_parser(
        "serve", help="an HTTP API: POST a document to /parse, /text, /markdown, /html, "
                      "/alto (a truth file too to /review, /evaluate); GET /openapi.json, "
                      "/health")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default: %(default)s; 0.0.0.0: all)")
    serve.add_argument("--port", type=int, default=8000,
                       help="the port to listen on (default: %(default)s)")
    serve.add_argument("--max-upload-mb", type=_positive(float), default=50.0, metavar="MB",
                       help="the largest upload taken, in megabytes (2**20 bytes); a larger "
                            "one is refused with 413 (default: %(default)g)")
    serve.add_argument("--workers", type=_positive(int), default=processors(),
                       help="documents read at once, each in a worker process of its own; "
                            "more wait (default: the processors, %(default)s)")
    serve.add_argument("--timeout", type=_positive(float), default=120.0, metavar="SECONDS",
                       help="the seconds a document may take to read, and a request may "
                            "wait for a worker (then 504 or 503; default: %(default)g)")
    loudness_options(serve)


def run(args: argparse.Namespace) -> Outcome:
    """Serve until interrupted; nothing to write."""
    try:
        import uvicorn
    except ImportError:
        raise UsageError("serve: needs Starlette and uvicorn, which are not installed "
                         "(pip install 'layoutkit[serve]')") from None
    from ..server import ServeOptions, create_app

    options = ServeOptions(max_upload=int(args.max_upload_mb * 2**20), workers=args.workers,
                           timeout=args.timeout)
    uvicorn.run(create_app(options), host=args.host, port=args.port,
                log_level="warning" if args.quiet else "info")
    return Outcome({})
