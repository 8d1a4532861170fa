"""``layoutkit train`` on a few pages of one publication: one truth file cross-validated
by page, the shipped model's rows shipped as plain data (refitting them gives the
shipped model), and a model fitted to a publication's pages with those rows beating
the shipped model on other pages of it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from layoutkit.cli import main
from layoutkit.config import LayoutConfig
from layoutkit.linetypes.features import FEATURES
from layoutkit.linetypes.model_file import Forest, load_forest, loaded_forest, shipped_model
from layoutkit.linetypes.rows import load_rows, shipped_rows
from layoutkit.tools.train import (
    Scores,
    document_rows,
    document_scores,
    fit_forest,
    fit_with,
    labelled_documents,
    parts,
    shipped_base,
    typed_document,
)

REPO = Path(__file__).resolve().parent.parent
TRUTH = REPO / "regions" / "usertrain"
ONE_FILE = TRUTH / "owasp-asvs-4-0-3-standard-2021-train.truth.json"
"""A truth file of five labelled pages of one publication."""
PUBLICATION = "intesis-knx-mitsubishi-gateway-user-manual"
"""A publication whose test pages' headings and list items the shipped model types
wrong in part (a heading too many, a quarter of the list items missed)."""
SHIPPED_PAGE = (REPO / "fixtures" / "corpus" / "kaobook-2022-documentation-margin-stuff.pdf", 1)


def test_train_one_truth_file_cross_validates_by_page(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    """One truth file (one publisher) is cross-validated by page, each of its five pages
    in a fold of its own; --rows writes its labelled lines as a rows file."""
    documents = labelled_documents([ONE_FILE], LayoutConfig())
    pages, groups = parts(documents)
    assert pages == [(0, p) for p in range(5)] and len(set(groups)) == 5
    assert [page.page_no for page in documents[0].document.pages] == [1, 2, 3, 4, 5]
    model, rows = tmp_path / "m.npz", tmp_path / "rows.npz"
    assert main(["train", str(ONE_FILE), "-o", str(model), "--alone", "--rows", str(rows),
                 "-q"]) == 0
    out = capsys.readouterr().out
    assert "1 documents, 5 labelled pages" in out and "fitted alone" in out
    assert "cross-validated in 5 folds by page" in out and "| headings |" in out
    written = load_rows(rows)
    assert written.features == FEATURES and len(written) == len(document_rows(documents))
    assert set(written.groups.tolist()) == {"OWASP Foundation"}
    assert load_forest(model).meta["pages"] == 5


def test_train_shipped_rows_refit_give_the_shipped_model() -> None:
    """The shipped rows load without pickle, hold no Python object, and the forest fitted
    to them types a corpus page's lines (and the rows themselves) as the shipped model
    does."""
    import layoutkit
    from layoutkit.linetypes.features import document_facts, page_facts, page_features
    from layoutkit.linetypes.page_typing import PageTyping

    path = shipped_rows()
    assert path.stat().st_size < 1_000_000
    with np.load(path, allow_pickle=False) as data:
        assert all(data[name].dtype != object for name in data.files)
    rows = load_rows(path)
    assert len(rows) > 25_000 and rows.features == FEATURES
    shipped = loaded_forest(shipped_model())
    assert len(rows) == shipped.meta["lines"]
    refit = fit_forest(rows, {})
    pdf, page = SHIPPED_PAGE
    read = layoutkit.parse(pdf, pages=[page, page + 1])
    typings = [PageTyping.typed(p, k) for k, p in enumerate(read.pages)]
    facts = document_facts(page_facts(t) for t in typings)
    matrix = np.vstack([page_features(t, facts).matrix for t in typings])
    assert len(matrix) > 50
    assert refit.predict(matrix) == shipped.predict(matrix)
    assert "heading" in shipped.predict(matrix)
    assert np.array_equal(refit.predict_index(rows.matrix), shipped.predict_index(rows.matrix))


def test_train_rows_file_refuses_python_objects(tmp_path: Path) -> None:
    """A rows file holding a Python object, or no rows at all, is refused in one line
    naming it, never unpickled."""
    from layoutkit.errors import ConfigError

    bad = tmp_path / "bad.npz"
    np.savez(bad, small=np.zeros((1, 0), np.uint8), half=np.zeros((1, 0), np.float16),
             full=np.zeros((1, 0), np.float32), label=np.zeros(1, np.uint8),
             group=np.zeros(1, np.uint16), meta=np.array([{"format": "x"}], dtype=object))
    model = tmp_path / "model.npz"
    model.write_bytes(b"not a zip")
    for path, message in ((bad, "holds Python objects"), (model, "not a rows file")):
        with pytest.raises(ConfigError) as caught:
            load_rows(path)
        assert message in str(caught.value) and str(path) in str(caught.value)
        assert "\n" not in str(caught.value)


def test_train_with_corpus_beats_the_shipped_model_on_a_publication() -> None:
    """A model fitted to five pages of a publication together with the shipped rows
    types the headings and the list items of five other pages of it better than the
    shipped model (F1)."""
    config = LayoutConfig()
    fitted = labelled_documents([TRUTH / f"{PUBLICATION}-train.truth.json"], config)
    scored = labelled_documents([TRUTH / f"{PUBLICATION}-test.truth.json"], config)
    forest = fit_with(document_rows(fitted), shipped_base(), {})
    shipped = loaded_forest(shipped_model())

    def scores(model: Forest) -> Scores:
        return sum((document_scores(d, typed_document(d, model, config.linetypes))
                    for d in scored), Scores.none())

    user, before = scores(forest), scores(shipped)
    assert forest.meta["user_weight"] == 10.0 and forest.meta["shipped_rows"] > 25_000
    assert before.scores["headings"].f1 < 1.0 and before.scores["list items"].f1 < 0.9
    assert user.scores["headings"].f1 > before.scores["headings"].f1
    assert user.scores["list items"].f1 > before.scores["list items"].f1
