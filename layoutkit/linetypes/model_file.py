"""A learned line-type model as plain data: a forest of decision trees in numpy arrays.

- ``feature``, ``threshold``: what each node of every tree tests (the trees' nodes one
  after another); a line goes left when its feature is at most the threshold.
- ``left``, ``right``: the index of each node's children in the whole array, -1 at a
  leaf; ``value``: at a leaf, the share of each class among the lines it held;
  ``roots``: where each tree starts.
- ``meta``: a JSON text, the format (`FORMAT`), the feature names, the classes, the
  deepest tree and how the model was made.

A model file is a ``.npz`` read with ``numpy.load(allow_pickle=False)``: no code runs
from it, and one holding Python objects is refused.  `Forest.predict` walks every tree
for every line at once (numpy alone) and sums the trees' shares in tree order, as
scikit-learn's forests do, so the classes are the fitted estimator's, bit for bit.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError

__all__ = [
    "FORMAT",
    "LEARNED",
    "RULES",
    "Forest",
    "forest_of",
    "load_forest",
    "loaded_forest",
    "model_path",
    "plain_arrays",
    "save_forest",
    "shipped_model",
]

FORMAT = "layoutkit.linetypes-forest/1"
"""The format every model file names in its metadata."""
RULES, LEARNED = "rules", "learned"
"""The values of ``linetypes.model`` that name no file: the rules alone, and the model
shipped with layoutkit (`shipped_model`)."""
_ARRAYS = {"feature": np.int32, "threshold": np.float64, "left": np.int32,
           "right": np.int32, "value": np.float64, "roots": np.int32}


@dataclass(frozen=True, eq=False)
class Forest:
    """A forest of decision trees over the named ``features`` deciding among
    ``classes``: its nodes' arrays (see the module docstring), the deepest tree's
    depth, and what ``meta`` says of how it was made."""

    features: tuple[str, ...]
    classes: tuple[str, ...]
    feature: npt.NDArray[np.int32]
    threshold: npt.NDArray[np.float64]
    left: npt.NDArray[np.int32]
    right: npt.NDArray[np.int32]
    value: npt.NDArray[np.float64]
    roots: npt.NDArray[np.int32]
    depth: int
    meta: dict[str, Any]

    def predict_index(self, rows: npt.NDArray[Any]) -> npt.NDArray[np.intp]:
        """The index in `classes` of each row's class (rows: lines, columns:
        `features`, compared as float32 as scikit-learn's trees compare them)."""
        x = np.asarray(rows, dtype=np.float32)
        if x.ndim != 2 or x.shape[1] != len(self.features):
            raise ValueError(f"expected rows of {len(self.features)} features, got shape "
                             f"{x.shape}")
        n = x.shape[0]
        if n == 0:
            return np.zeros(0, dtype=np.intp)
        trees = len(self.roots)
        nodes = np.tile(self.roots, n)  # row-major: row r's trees at r*trees...
        rows_of = np.repeat(np.arange(n), trees)
        active = np.arange(n * trees)
        for _ in range(self.depth + 1):
            at = nodes[active]
            left = self.left[at]
            inner = left >= 0
            if not inner.all():
                active, at, left = active[inner], at[inner], left[inner]
            if not active.size:
                break
            go_left = x[rows_of[active], self.feature[at]] <= self.threshold[at]
            nodes[active] = np.where(go_left, left, self.right[at])
        nodes = nodes.reshape(n, trees)
        total = np.zeros((n, len(self.classes)), dtype=np.float64)
        for tree in range(len(self.roots)):  # in tree order, as the estimator sums them
            total += self.value[nodes[:, tree]]
        found: npt.NDArray[np.intp] = np.argmax(total, axis=1)
        return found

    def predict(self, rows: npt.NDArray[Any]) -> list[str]:
        """The class of each row (see `predict_index`)."""
        return [self.classes[k] for k in self.predict_index(rows)]


def forest_of(estimator: Any, features: tuple[str, ...], meta: dict[str, Any]) -> Forest:
    """The `Forest` of a fitted scikit-learn forest classifier (its ``estimators_``'
    ``tree_`` arrays, each leaf's counts made shares as its ``predict_proba`` makes
    them), over ``features``, with ``meta`` kept."""
    parts: dict[str, list[npt.NDArray[Any]]] = {name: [] for name in _ARRAYS}
    offset, depth = 0, 0
    for tree in estimator.estimators_:
        t = tree.tree_
        value = np.array(t.value[:, 0, :], dtype=np.float64)
        total = value.sum(axis=1)
        total[total == 0.0] = 1.0
        value = value / total[:, None]
        leaf = t.children_left < 0
        value[~leaf] = 0.0  # only leaves are read
        parts["feature"].append(np.where(leaf, 0, t.feature).astype(np.int32))
        parts["threshold"].append(np.where(leaf, 0.0, t.threshold).astype(np.float64))
        parts["left"].append(np.where(leaf, -1, t.children_left + offset).astype(np.int32))
        parts["right"].append(np.where(leaf, -1, t.children_right + offset).astype(np.int32))
        parts["value"].append(value)
        parts["roots"].append(np.array([offset], dtype=np.int32))
        offset += t.node_count
        depth = max(depth, int(t.max_depth))
    arrays = {name: np.concatenate(chunks).astype(_ARRAYS[name])
              for name, chunks in parts.items()}
    classes = tuple(str(c) for c in estimator.classes_)
    return Forest(features, classes, arrays["feature"], arrays["threshold"], arrays["left"],
                  arrays["right"], arrays["value"], arrays["roots"], depth,
                  {**meta, "format": FORMAT, "features": list(features),
                   "classes": list(classes), "depth": depth})


def save_forest(forest: Forest) -> bytes:
    """The model file of ``forest``: a compressed ``.npz`` of its arrays and ``meta``."""
    out = io.BytesIO()
    np.savez_compressed(out, feature=forest.feature, threshold=forest.threshold,
                        left=forest.left, right=forest.right, value=forest.value,
                        roots=forest.roots,
                        meta=np.array(json.dumps(forest.meta, sort_keys=True)))
    return out.getvalue()


def plain_arrays(path: Path, names: tuple[str, ...], where: str, kind: str,
                 form: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The arrays ``names`` of the ``.npz`` file at ``path``, read without pickle, and
    its ``meta`` (a JSON text), which names the format ``form``: the plain data a
    ``kind`` of file (a model, rows) is made of.

    Raises ConfigError, one line naming the file (``where``), for a file that cannot
    be read, is no ``.npz`` archive (numpy would take it for a pickle), lacks one of the
    arrays, holds Python objects, or whose metadata is not of ``form``."""
    try:
        if path.is_file() and not zipfile.is_zipfile(path):
            raise ConfigError(f"{where}: not a {kind} file (not an .npz archive)")
        with np.load(path, allow_pickle=False) as data:
            missing = sorted({*names, "meta"} - set(data.files))
            if missing:
                raise ConfigError(f"{where}: not a layoutkit {kind} file (no "
                                  f"{', '.join(missing)})")
            arrays: dict[str, Any] = {name: data[name] for name in (*names, "meta")}
    except ConfigError:
        raise
    except ValueError as exc:  # an object array asks for pickle
        raise ConfigError(f"{where}: refused: it holds Python objects ({exc})") from None
    except OSError as exc:
        raise ConfigError(f"{where}: cannot read ({exc.strerror or exc})") from None
    except (zipfile.BadZipFile, EOFError) as exc:
        raise ConfigError(f"{where}: not a {kind} file ({exc})") from None
    try:
        meta = json.loads(str(arrays.pop("meta")))
        if not isinstance(meta, dict):
            raise TypeError("not a JSON object")
    except (json.JSONDecodeError, TypeError) as exc:
        raise ConfigError(f"{where}: bad metadata ({exc})") from None
    if meta.get("format") != form:
        raise ConfigError(f"{where}: format {meta.get('format')!r}, expected {form!r}")
    return arrays, meta


def load_forest(path: Path) -> Forest:
    """The `Forest` of the model file at ``path``.

    Raises ConfigError, one line naming the file, for a file that cannot be read, is
    not a model file, holds Python objects, or whose arrays do not agree."""
    where = f"model file {str(path)!r}"
    arrays, meta = plain_arrays(path, tuple(_ARRAYS), where, "model", FORMAT)
    try:
        features, classes = tuple(meta["features"]), tuple(meta["classes"])
    except (KeyError, TypeError) as exc:
        raise ConfigError(f"{where}: bad metadata ({exc})") from None
    for name, kind in _ARRAYS.items():
        if arrays[name].dtype.kind != np.dtype(kind).kind:
            raise ConfigError(f"{where}: array {name} is {arrays[name].dtype}, expected "
                              f"{np.dtype(kind)}")
    nodes = len(arrays["feature"])
    if (any(len(arrays[n]) != nodes for n in ("threshold", "left", "right", "value"))
            or arrays["value"].shape[1:] != (len(classes),)
            or int(arrays["feature"].max(initial=0)) >= len(features)
            or int(max(arrays["left"].max(initial=0), arrays["right"].max(initial=0),
                       arrays["roots"].max(initial=0))) >= max(nodes, 1)):
        raise ConfigError(f"{where}: its arrays do not agree with each other")
    return Forest(features, classes, arrays["feature"].astype(np.int32),
                  arrays["threshold"].astype(np.float64), arrays["left"].astype(np.int32),
                  arrays["right"].astype(np.int32), arrays["value"].astype(np.float64),
                  arrays["roots"].astype(np.int32), int(meta.get("depth", 64)), meta)


def shipped_model() -> Path:
    """The model file shipped with layoutkit (``linetypes.model = "learned"``)."""
    return Path(str(resources.files("layoutkit.linetypes") / "models" / "default.npz"))


def model_path(model: str) -> Path | None:
    """The model file ``linetypes.model`` names: None for the rules alone, the shipped
    model for ``learned``, else the path it gives."""
    if model == RULES:
        return None
    return shipped_model() if model == LEARNED else Path(model)


@cache
def _loaded(path: str, stamp: float) -> Forest:
    """The model at ``path``, read once per process while the file is unchanged."""
    del stamp
    return load_forest(Path(path))


def loaded_forest(path: Path) -> Forest:
    """The `Forest` of the model file at ``path``, read once in each process (again
    if the file changed). Raises ConfigError for a missing or bad file."""
    try:
        stamp = path.stat().st_mtime
    except OSError as exc:
        raise ConfigError(f"model file {str(path)!r}: cannot read "
                          f"({exc.strerror or exc})") from None
    return _loaded(str(path), stamp)
