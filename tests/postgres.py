"""A throwaway PostgreSQL server for the batch tests: a cluster made with ``initdb`` in
a temporary folder, started with ``pg_ctl`` on a free port of 127.0.0.1 (as the
``postgres`` user when the tests run as root, which PostgreSQL refuses to run as), and
removed at the end.  The Debian package ``postgresql`` provides the programs (the
Makefile installs it)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import count
from pathlib import Path

import psycopg

__all__ = ["PostgresServer", "postgres_server"]

_NAMES = count(1)


def _program(name: str) -> str:
    """The path of a PostgreSQL program: on PATH, or in Debian's versioned folder."""
    found = shutil.which(name) or next(
        (str(p) for p in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))), None)
    if found is None:
        raise RuntimeError(f"{name}: not found; the PostgreSQL tests need the Debian package "
                           f"postgresql (make system installs it)")
    return found


class PostgresServer:
    """A running server: ``database()`` makes a new empty database on it and returns
    its SQLAlchemy URL; ``stop()`` and ``start()`` stop it (as ``pg_ctl stop -m fast``
    does, ending every connection) and start it again."""

    def __init__(self, port: int, control: list[str] | None = None,
                 options: list[str] | None = None) -> None:
        self.port = port
        self._control = control or []
        self._options = options or []

    def stop(self) -> None:
        subprocess.run([*self._control, "-m", "fast", "stop"], check=True, capture_output=True)

    def start(self) -> None:
        subprocess.run([*self._control, *self._options, "start"], check=True,
                       capture_output=True)

    def url(self, name: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def database(self) -> str:
        name = f"batch_{next(_NAMES)}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}".encode())
        return self.url(name)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server running while the block runs, its cluster removed after."""
    folder = Path(tempfile.mkdtemp(prefix="layoutkit-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = folder / "data", _free_port()
    control = [*as_user, _program("pg_ctl"), "-D", str(data), "-w"]
    subprocess.run([*as_user, _program("initdb"), "-D", str(data), "-U", "postgres",
                    "--auth=trust", "-E", "UTF8"], check=True, capture_output=True)
    options = ["-l", str(folder / "server.log"), "-o",
               f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"]
    subprocess.run([*control, *options, "start"], check=True, capture_output=True)
    try:
        yield PostgresServer(port, control, options)
    finally:
        subprocess.run([*control, "-m", "immediate", "stop"], check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
