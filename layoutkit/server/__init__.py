"""``layoutkit serve``: an HTTP API that reads uploaded documents.

- `endpoints`: what each endpoint makes of its upload, as a table (`ENDPOINTS`).
- `app`: the Starlette application made from it, with the upload limit, the slots of
  the workers and one JSON line per error (`create_app`).
- `worker`: a request's document read in a process of its own, within a time and a
  memory budget.
- `schema`: the OpenAPI description, made from the table.

Starlette and uvicorn are the ``serve`` extra (``pip install layoutkit[serve]``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    from .app import create_app
    from .endpoints import ENDPOINTS, Endpoint, Option, ServeOptions, Task

__all__ = ["ENDPOINTS", "Endpoint", "Option", "ServeOptions", "Task", "create_app"]

__getattr__ = lazy_names(__name__, {"ServeOptions": "endpoints", "create_app": "app",
                                   "ENDPOINTS": "endpoints", "Endpoint": "endpoints",
                                   "Option": "endpoints", "Task": "endpoints"})
