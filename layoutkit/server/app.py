"""The HTTP application of ``layoutkit serve`` (Starlette), made from the endpoint table.

A request to an endpoint of `layoutkit.server.endpoints.ENDPOINTS`:

1. has its query options checked (400 for a bad one);
2. has its upload (a multipart form's file, or the raw body) spooled to a temporary
   folder of its own, counted as it streams in: past ``max_upload`` bytes it is
   refused (413) without being read further, a Content-Length past it at once;
3. waits for one of ``workers`` slots, for ``timeout`` seconds at most (then 503);
4. is read in a worker process of its own within ``timeout`` seconds and the memory
   budget (`layoutkit.server.worker`), so that a hostile document costs its worker
   alone;
5. gets the endpoint's body, or one line of JSON, ``{"error": "...", "file": "..."}``,
   with the status that says what went wrong (400, 413, 422, 500, 503, 504).

The temporary folder is removed once the request is answered, whatever happened.
``GET /health`` says whether the server answers and how busy it is; ``GET
/openapi.json`` describes every endpoint (`layoutkit.server.schema`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import mimetypes
import re
import shutil
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import UsageError
from . import worker
from .endpoints import ENDPOINTS, Endpoint, ServeOptions, Task
from .schema import openapi

__all__ = ["ServeOptions", "create_app"]

_SUFFIX = re.compile(r"^\.[a-z0-9]{1,8}$")
"""A file-name suffix kept from an upload's name (what tells its kind)."""
_NAME_MAX = 200
"""The longest upload name, in bytes, kept as it is (the file system's limit is 255)."""
_CHUNK = 1 << 16
"""Bytes copied at a time from a spooled form file."""


class UploadTooLargeError(UsageError):
    """An upload went past the server's limit as it streamed in."""


def error(status: int, message: str, name: str | None = None,
          headers: Mapping[str, str] | None = None) -> Response:
    """The answer for a failure: one line of JSON naming the error and the file."""
    body = json.dumps({"error": message, "file": name}, ensure_ascii=False) + "\n"
    return Response(body, status, headers=headers, media_type="application/json")


class _UploadLimit:
    """ASGI middleware refusing a request body of more than ``limit`` bytes: at once
    for a Content-Length past it, else as the body streams in (`UploadTooLargeError`,
    raised to the endpoint reading it), before the rest is read."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            await error(413, self._message(int(declared)))(scope, receive, send)
            return
        taken = 0

        async def counted() -> Message:
            nonlocal taken
            message = await receive()
            if message["type"] == "http.request":
                taken += len(message.get("body", b""))
                if taken > self.limit:
                    raise UploadTooLargeError(self._message(taken, past=True))
            return message

        await self.app(scope, counted, send)

    def _message(self, size: int, past: bool = False) -> str:
        return (f"the upload is {'over ' if past else ''}{size:,} bytes, more than the "
                f"server's limit of {self.limit:,} bytes (--max-upload-mb)")


def create_app(options: ServeOptions | None = None,
               endpoints: Mapping[str, Endpoint] = ENDPOINTS) -> Starlette:
    """The application serving ``endpoints`` within ``options``' limits."""
    options = options or ServeOptions()
    slots = asyncio.Semaphore(options.workers)
    busy = [0]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await anyio.to_thread.run_sync(worker.start)
        yield

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok", "reading": busy[0], "workers": options.workers})

    schema = openapi(endpoints, options)

    async def schema_json(request: Request) -> Response:
        return JSONResponse(schema)

    def handler(endpoint: Endpoint) -> Callable[[Request], Awaitable[Response]]:
        async def handle(request: Request) -> Response:
            with tempfile.TemporaryDirectory(prefix="layoutkit-serve-") as folder:
                return await _answer(request, endpoint, Path(folder), options, slots, busy)

        return handle

    routes = [Route(path, handler(endpoint), methods=["POST"])
              for path, endpoint in endpoints.items()]
    routes += [Route("/health", health, methods=["GET"]),
               Route("/openapi.json", schema_json, methods=["GET"])]
    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(_UploadLimit, limit=options.max_upload)],
                     exception_handlers={HTTPException: _http_error, Exception: _fault})


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (404 no such path, 405 a method the path does not
    take) as one JSON line too."""
    assert isinstance(exc, HTTPException)
    detail = f"{request.method} {request.url.path}: {exc.detail}"
    if exc.status_code == 404:
        detail += f" (the paths: {', '.join(sorted(_paths(request)))})"
    return error(exc.status_code, detail, headers=exc.headers)


def _paths(request: Request) -> list[str]:
    return [route.path for route in request.app.routes if isinstance(route, Route)]


async def _fault(request: Request, exc: Exception) -> Response:
    """A fault of the server's own (not of a document: those end in their worker)."""
    return error(500, f"{type(exc).__name__}: {exc}")


async def _answer(request: Request, endpoint: Endpoint, folder: Path, options: ServeOptions,
                  slots: asyncio.Semaphore, busy: list[int]) -> Response:
    """The answer to ``request`` of ``endpoint``, its uploads spooled into ``folder``."""
    name = None
    try:
        checked = _options(endpoint, request)
        files, name = await _uploads(request, endpoint, folder)
    except UploadTooLargeError as exc:
        return error(413, str(exc), name)
    except ClientDisconnect:
        return error(400, "the client went away before its upload ended", name)
    except (UsageError, MultiPartException) as exc:
        return error(400, str(exc), name)
    try:
        async with asyncio.timeout(options.timeout):
            await slots.acquire()
    except TimeoutError:
        return error(503, f"every worker ({options.workers}) stayed busy for "
                          f"{options.timeout:g} s; try again later", name,
                     headers={"Retry-After": str(max(1, round(options.timeout)))})
    busy[0] += 1
    try:
        if await request.is_disconnected():  # gone while it waited: nobody to read it for
            return error(400, "the client went away before its document was read", name)
        answer = await anyio.to_thread.run_sync(
            worker.read, Task(endpoint.path, folder, files, checked), options.timeout)
    finally:
        busy[0] -= 1
        slots.release()
    if answer.status == 200:
        return Response(answer.body, media_type=endpoint.media_type)
    return error(answer.status, _named(answer.body, folder), name)


def _options(endpoint: Endpoint, request: Request) -> dict[str, Any]:
    """The endpoint's query options from ``request``, checked; a UsageError naming
    one that is unknown or bad."""
    known = {option.name: option for option in endpoint.all_options}
    unknown = sorted(set(request.query_params) - set(known) - {"filename"})
    if unknown:
        raise UsageError(f"unknown option {unknown[0]!r}; {endpoint.path} takes "
                         f"{', '.join([*known, 'filename'])}")
    values = {name: option.value(request.query_params.get(name))
              for name, option in known.items()}
    profile = values.get("profile")
    if profile is not None:
        from ..profile import bundled_profiles

        bundled = bundled_profiles()
        if profile not in bundled:
            raise UsageError(f"profile: unknown profile {profile!r}; the bundled profiles "
                             f"are {', '.join(sorted(bundled))}")
    return values


async def _uploads(request: Request, endpoint: Endpoint, folder: Path
                   ) -> tuple[dict[str, Path], str]:
    """The endpoint's uploads written into ``folder`` under the names the client gave
    them (`_file_name`), by field name, and the document's name (the first upload's)."""
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("multipart/form-data"):
        return await _form_uploads(request, endpoint, folder)
    if len(endpoint.uploads) > 1:
        raise UsageError(f"{endpoint.path}: expected a multipart form with the files "
                         f"{', '.join(endpoint.uploads)}")
    field = endpoint.uploads[0]
    kind = mimetypes.guess_extension(content_type.split(";")[0].strip()) or ""
    name = _file_name(request.query_params.get("filename") or "", field, kind)
    size = 0
    with (folder / name).open("wb") as fh:
        async for chunk in request.stream():
            size += len(chunk)
            fh.write(chunk)
    if size == 0:
        raise UsageError("expected the document as the request's body (or a multipart form "
                         "with its file), got an empty body")
    return {field: Path(name)}, name


async def _form_uploads(request: Request, endpoint: Endpoint, folder: Path
                        ) -> tuple[dict[str, Path], str]:
    """`_uploads` of a multipart form: a file field for each upload."""
    files: dict[str, Path] = {}
    async with request.form(max_files=len(endpoint.uploads), max_fields=16) as form:
        for field in endpoint.uploads:
            upload = form.get(field)
            if not isinstance(upload, UploadFile):
                raise UsageError(f"{endpoint.path}: expected a file in the form field "
                                 f"{field!r} (fields: {', '.join(endpoint.uploads)})")
            name = _file_name(upload.filename or "", field)
            if any(name == taken.name for taken in files.values()):
                name = f"{field}-{name}"
            with (folder / name).open("wb") as fh:
                await anyio.to_thread.run_sync(shutil.copyfileobj, upload.file, fh, _CHUNK)
            if (folder / name).stat().st_size == 0:
                raise UsageError(f"{name}: empty upload (0 bytes)")
            files[field] = Path(name)
    return files, files[endpoint.uploads[0]].name


def _file_name(given: str, field: str, kind: str = "") -> str:
    """The name an upload is kept under in the request's folder (and that messages and
    outputs call it): the client's file name without its folders, unless it is none,
    hidden, long or unprintable; then the field's name with the suffix that tells the
    file's kind (the given name's, else ``kind``, from its Content-Type)."""
    name = given.replace("\\", "/").rsplit("/", 1)[-1]
    if name and not name.startswith(".") and name.isprintable() and \
            len(name.encode("utf-8", "surrogateescape")) <= _NAME_MAX:
        return name
    suffix = _suffix(given) or (kind if _SUFFIX.match(kind) else "")
    return f"{field}{suffix}"


def _suffix(name: str) -> str:
    """The suffix of an uploaded file's ``name`` that tells its kind (``.pdf``,
    ``.docx``), lower case; empty when it has none that may name a file."""
    suffix = Path(name).suffix.lower()
    return suffix if _SUFFIX.match(suffix) else ""


def _named(message: str, folder: Path) -> str:
    """``message`` without the request folder's path (the uploads named as the client
    named them)."""
    return message.replace(f"{folder}/", "")
