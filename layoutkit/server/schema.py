"""The OpenAPI 3 description of ``layoutkit serve``, made from the endpoint table.

It is made as data from the table, so that a new endpoint is described as soon as it
is in the table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import __version__
from .endpoints import Endpoint, ServeOptions

__all__ = ["ERRORS", "openapi"]

ERRORS = {
    "400": "a bad request: an unknown or bad option, a missing or empty upload, a bad "
           "page range, profile or truth file",
    "413": "the upload is larger than the server's limit (--max-upload-mb)",
    "422": "the document cannot be read: not a kind layoutkit reads, corrupt, encrypted, "
           "no page readable within the budgets, or past the memory budget",
    "500": "the server failed to read it (a fault of layoutkit's)",
    "503": "every worker stayed busy for --timeout seconds; try again later (Retry-After)",
    "504": "reading it took more than --timeout seconds; its worker was stopped",
}
"""Each error status an endpoint answers with, and what it means."""

_ERROR = {"type": "object", "required": ["error", "file"], "properties": {
    "error": {"type": "string", "description": "what went wrong, in one line"},
    "file": {"type": ["string", "null"], "description": "the uploaded file's name"}}}


def openapi(endpoints: Mapping[str, Endpoint], options: ServeOptions) -> dict[str, Any]:
    """The OpenAPI 3.1 document of a server of ``endpoints`` within ``options``."""
    paths: dict[str, Any] = {path: {"post": _operation(endpoint, options)}
                             for path, endpoint in endpoints.items()}
    paths["/health"] = {"get": {
        "summary": "Whether the server answers, and how many documents it is reading",
        "responses": {"200": {"description": "the server answers", "content": {
            "application/json": {"schema": {"type": "object", "properties": {
                "status": {"const": "ok"}, "reading": {"type": "integer"},
                "workers": {"type": "integer"}}}}}}}}}
    paths["/openapi.json"] = {"get": {
        "summary": "This description", "responses": {"200": {
            "description": "the OpenAPI document", "content": {"application/json": {}}}}}}
    return {"openapi": "3.1.0",
            "info": {"title": "layoutkit", "version": __version__,
                     "description": "Reads columned documents (PDFs, images, office and "
                                    "markup documents) in reading order."},
            "paths": paths,
            "components": {"schemas": {"Error": _ERROR}}}


def _operation(endpoint: Endpoint, options: ServeOptions) -> dict[str, Any]:
    """The OpenAPI operation of ``endpoint``."""
    parameters = [{"name": option.name, "in": "query", "required": False,
                   "description": option.description,
                   "schema": {"type": option.kind} | (
                       {} if option.default is None else {"default": option.default})}
                  for option in endpoint.all_options]
    form = {"type": "object", "required": list(endpoint.uploads), "properties": {
        field: {"type": "string", "format": "binary"} for field in endpoint.uploads}}
    content: dict[str, Any] = {"multipart/form-data": {"schema": form}}
    if len(endpoint.uploads) == 1:
        parameters.append({"name": "filename", "in": "query", "required": False,
                           "description": "the document's file name, for a raw body (its "
                                          "suffix tells its kind; else its Content-Type)",
                           "schema": {"type": "string"}})
        content["application/octet-stream"] = {"schema": {"type": "string",
                                                          "format": "binary"}}
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    return {
        "summary": endpoint.summary,
        "description": f"The document as a multipart form's file or as the raw body, of "
                       f"{options.max_upload:,} bytes at most; read in a worker process "
                       f"within {options.timeout:g} s.",
        "parameters": parameters,
        "requestBody": {"required": True, "content": content},
        "responses": {"200": {"description": endpoint.summary,
                              "content": {endpoint.media_type: {}}},
                      **{status: {"description": meaning, "content": error}
                         for status, meaning in ERRORS.items()}}}
