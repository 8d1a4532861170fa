"""Labelled lines as plain data: the rows a line-type model is fitted to.

A `Rows` holds, for every labelled line, its features (`layoutkit.linetypes.features`),
its class and the group it is kept in when cross-validating (its publisher, else its
document).  The rows the shipped model was fitted to are shipped beside it
(`shipped_rows`), so that ``layoutkit train`` can fit a user's pages together with
them without this repository's truth files.

A rows file is a ``.npz`` read with ``numpy.load(allow_pickle=False)``:

- ``small``: the features whose every value is a whole number from 0 to 255 (flags,
  counts, the rules' levels), as ``uint8``;
- ``half``: the features that ``float16`` holds exactly, as ``float16``;
- ``full``: the others, as ``float32`` (as the trees compare them);
- ``label``, ``group``: each row's index in the classes and groups ``meta`` names;
- ``meta``: a JSON text: the format (`FORMAT`), the feature names, which array holds
  each feature, the classes and the groups.

Every value is kept exactly, so a model fitted to the rows read back is the one fitted
to the rows written.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError
from .model_file import plain_arrays

__all__ = ["FORMAT", "Rows", "load_rows", "save_rows", "shipped_rows"]

FORMAT = "layoutkit.linetypes-rows/1"
"""The format every rows file names in its metadata."""
_PARTS = {"small": np.uint8, "half": np.float16, "full": np.float32}
"""The arrays holding the features, each of one type, narrowest first."""


@dataclass(frozen=True, eq=False)
class Rows:
    """Labelled lines: ``matrix`` (a row of `features` per line, float32), each line's
    class in ``labels`` and its group in ``groups``."""

    features: tuple[str, ...]
    matrix: npt.NDArray[np.float32]
    labels: npt.NDArray[np.str_]
    groups: npt.NDArray[np.str_]

    def __len__(self) -> int:
        return len(self.labels)

    def __add__(self, other: Rows) -> Rows:
        """These rows followed by ``other``'s (of the same features)."""
        return Rows(self.features, np.vstack([self.matrix, other.matrix]),
                    np.concatenate([self.labels, other.labels]),
                    np.concatenate([self.groups, other.groups]))


def _part(column: npt.NDArray[np.float32]) -> str:
    """The narrowest array of `_PARTS` that holds every value of ``column`` exactly."""
    if np.all((column >= 0) & (column <= 255) & (column == np.round(column))):
        return "small"
    with np.errstate(over="ignore"):
        if np.array_equal(column.astype(np.float16).astype(np.float32), column):
            return "half"
    return "full"


def save_rows(rows: Rows) -> bytes:
    """The rows file of ``rows``: a compressed ``.npz`` (see the module docstring)."""
    matrix = np.asarray(rows.matrix, dtype=np.float32)
    parts = [_part(matrix[:, k]) for k in range(matrix.shape[1])]
    classes = sorted({str(c) for c in rows.labels})
    groups = sorted({str(g) for g in rows.groups})
    arrays = {name: matrix[:, [k for k, p in enumerate(parts) if p == name]].astype(kind)
              for name, kind in _PARTS.items()}
    meta = {"format": FORMAT, "features": list(rows.features), "parts": parts,
            "classes": classes, "groups": groups}
    out = io.BytesIO()
    np.savez_compressed(
        out, small=arrays["small"], half=arrays["half"], full=arrays["full"],
        label=np.searchsorted(classes, rows.labels).astype(np.uint8),
        group=np.searchsorted(groups, rows.groups).astype(np.uint16),
        meta=np.array(json.dumps(meta, sort_keys=True)))
    return out.getvalue()


def load_rows(path: Path) -> Rows:
    """The `Rows` of the rows file at ``path``.

    Raises ConfigError, one line naming the file, for a file that cannot be read, is
    not a rows file, holds Python objects, or whose arrays do not agree."""
    where = f"rows file {str(path)!r}"
    arrays, meta = plain_arrays(path, (*_PARTS, "label", "group"), where, "rows", FORMAT)
    try:
        features, parts = tuple(meta["features"]), list(meta["parts"])
        classes, groups = list(meta["classes"]), list(meta["groups"])
    except (KeyError, TypeError) as exc:
        raise ConfigError(f"{where}: bad metadata ({exc})") from None
    n = len(arrays["label"])
    if (len(parts) != len(features) or len(arrays["group"]) != n
            or any(arrays[name].shape != (n, parts.count(name)) for name in _PARTS)
            or int(arrays["label"].max(initial=0)) >= max(len(classes), 1)
            or int(arrays["group"].max(initial=0)) >= max(len(groups), 1)):
        raise ConfigError(f"{where}: its arrays do not agree with each other")
    matrix = np.zeros((n, len(features)), dtype=np.float32)
    for name in _PARTS:
        matrix[:, [k for k, p in enumerate(parts) if p == name]] = arrays[name]
    return Rows(features, matrix, np.array(classes)[arrays["label"]],
                np.array(groups)[arrays["group"]])


def shipped_rows() -> Path:
    """The rows file of the lines the shipped model was fitted to (beside it)."""
    return Path(str(resources.files("layoutkit.linetypes") / "models" / "default-rows.npz"))
