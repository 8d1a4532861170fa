"""The learned line-type model: its file (plain arrays, no pickle), its prediction in
numpy against scikit-learn's, the shipped model on a corpus page, and ``layoutkit
train`` on a small folder of truth files."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier

import layoutkit
from layoutkit.cli import main
from layoutkit.config import LayoutConfig
from layoutkit.errors import ConfigError
from layoutkit.files import sha256_of
from layoutkit.linetypes.features import FEATURES
from layoutkit.linetypes.model_file import (
    FORMAT,
    forest_of,
    load_forest,
    save_forest,
    shipped_model,
)

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "fixtures" / "corpus"
SHIPPED_PAGE = ("kaobook-2022-documentation-margin-stuff.pdf", 1)
"""A corpus page whose headings the shipped model finds (section titles 3.1, 3.2)."""
TRAIN_PDF, TRAIN_PAGE = "journal-officiel-algerie-2022-50.pdf", 1
"""The page ``layoutkit train`` is tried on: its bold lines the rules leave body."""


def _rows(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Random features (some repeated values, as counts and flags are) and three
    classes that depend on them."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, len(FEATURES))).astype(np.float32)
    x[:, ::3] = np.round(x[:, ::3])
    y = np.where(x[:, 0] + x[:, 5] > 0.5, "heading", np.where(x[:, 2] < -0.3, "list", "body"))
    return x, y


def test_learned_types_model_file_round_trips_without_pickle(tmp_path: Path) -> None:
    """A forest saved and read back (allow_pickle=False) has the same arrays, names,
    classes and predictions."""
    x, y = _rows(0, 300)
    estimator = RandomForestClassifier(n_estimators=7, max_depth=5, random_state=0).fit(x, y)
    forest = forest_of(estimator, FEATURES, {"made": "test"})
    path = tmp_path / "m.npz"
    path.write_bytes(save_forest(forest))
    back = load_forest(path)
    assert back.features == FEATURES and back.classes == ("body", "heading", "list")
    assert back.meta["format"] == FORMAT and back.meta["made"] == "test"
    for name in ("feature", "threshold", "left", "right", "value", "roots"):
        assert np.array_equal(getattr(back, name), getattr(forest, name)), name
    assert back.predict(x) == forest.predict(x)
    with np.load(path, allow_pickle=False) as data:
        assert all(data[name].dtype != object for name in data.files)


def test_learned_types_object_array_is_refused(tmp_path: Path) -> None:
    """A model file holding a Python object is refused with one line, never unpickled."""
    path = tmp_path / "bad.npz"
    np.savez(path, feature=np.zeros(1, np.int32), threshold=np.zeros(1),
             left=np.full(1, -1, np.int32), right=np.full(1, -1, np.int32),
             value=np.ones((1, 1)), roots=np.zeros(1, np.int32),
             meta=np.array([{"format": FORMAT}], dtype=object))
    with pytest.raises(ConfigError) as caught:
        load_forest(path)
    assert "holds Python objects" in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("kind", [RandomForestClassifier, ExtraTreesClassifier])
def test_learned_types_numpy_prediction_equals_sklearn(kind: type) -> None:
    """The numpy walk of the exported trees gives scikit-learn's ``predict`` on the same
    features, row for row, on rows it was not fitted to (thresholds met exactly too)."""
    x, y = _rows(1, 400)
    estimator = kind(n_estimators=15, max_depth=8, min_samples_leaf=2,
                     class_weight="balanced_subsample", random_state=3).fit(x, y)
    forest = forest_of(estimator, FEATURES, {})
    test, _ = _rows(2, 500)
    on_thresholds = test.copy()
    tree = estimator.estimators_[0].tree_
    inner = np.flatnonzero(tree.children_left >= 0)[:20]
    for k, node in enumerate(inner):
        on_thresholds[k, tree.feature[node]] = np.float32(tree.threshold[node])
    for rows in (test, on_thresholds):
        assert forest.predict(rows) == list(estimator.predict(rows))


def test_learned_types_shipped_model_types_corpus_headings() -> None:
    """The shipped model, read as plain arrays, types the section titles of a corpus
    page headings, as the page's truth labels them."""
    assert shipped_model().stat().st_size < 1_000_000
    name, page = SHIPPED_PAGE
    config = LayoutConfig().replace(model="learned")
    read = layoutkit.parse(CORPUS / name, pages=[page], config=config)[0]
    headings = [line.text for line in read.lines if line.code.startswith("h_")]
    assert "3.1 Sidenotes" in headings and "3.2 Marginnotes" in headings


def _truth(folder: Path, name: str, headings: list[str], publisher: str = "") -> Path:
    """A truth file in ``folder`` for the training page (its PDF copied beside it),
    labelling ``headings`` as level-2 headings, naming ``publisher`` if given."""
    pdf = folder / TRAIN_PDF
    if not pdf.exists():
        shutil.copy(CORPUS / TRAIN_PDF, pdf)
    path = folder / f"{name}.truth.json"
    path.write_text(json.dumps({
        "schema": "layoutkit.truth/1", "document": TRAIN_PDF, "sha256": sha256_of(pdf),
        **({"publisher": publisher} if publisher else {}),
        "pages": [{"page": TRAIN_PAGE, "checked": "test",
                   "types": {"headings": [[2, text] for text in headings]}}]}))
    return path


def test_learned_types_train_changes_types_as_trained(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    """A model trained where every bold line of a page is labelled a heading (and
    nothing else is), loaded with --model, types the bold lines the rules left body
    headings, and the plain lines the rules called headings body."""
    bold = ["JOURNAL OFFICIEL", "DE LA REPUBLIQUE ALGERIENNE DEMOCRATIQUE ET POPULAIRE",
            "(TRADUCTION FRANÇAISE)", "ABONNEMENT", "ANNUEL", "1 An 1 An",
            "Edition originale...................................", "1090,00 D.A 2675,00 D.A",
            "Edition originale et sa traduction....", "2180,00 D.A 5350,00 D.A"]
    newly = bold[1:]  # the rules type them body
    plain = ["DIRECTION ET REDACTION", "SECRETARIAT GENERAL", "DU GOUVERNEMENT",
             "WWW.JORADP.DZ"]  # the rules type them headings
    truth = tmp_path / "truth"
    truth.mkdir()
    _truth(truth, "one", bold)
    _truth(truth, "two", bold)
    model = tmp_path / "model.npz"
    assert main(["train", str(truth), "-o", str(model), "--alone", "-q"]) == 0
    out = capsys.readouterr().out
    assert "| headings |" in out and "cross-validated in 2 folds" in out
    assert main(["parse", str(CORPUS / TRAIN_PDF), "--pages", str(TRAIN_PAGE), "--model",
                 str(model), "-o", str(tmp_path / "out.json"), "-q"]) == 0
    read = json.loads((tmp_path / "out.json").read_text())
    codes = {line["text"]: line["lineType"] for page in read["pages"] for line in page["lines"]}
    assert all(codes[text].startswith("h_") for text in newly)
    assert [codes[text] for text in plain] == ["b"] * len(plain)


def test_learned_types_train_bad_input(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A missing folder, a folder with no labelled pages, a truth file whose
    document is missing and truth of one labelled page alone (nothing to
    cross-validate on) are each one line and exit status 2."""
    model = str(tmp_path / "m.npz")
    assert main(["train", str(tmp_path / "nowhere"), "-o", model]) == 2
    assert "no such folder" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["train", str(empty), "-o", model]) == 2
    assert "no truth file with pages labelled" in capsys.readouterr().err
    lost = tmp_path / "lost"
    lost.mkdir()
    _truth(lost, "one", ["LOIS"])
    (lost / TRAIN_PDF).unlink()
    assert main(["train", str(lost), "-o", model]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and err.count("\n") == 1
    one = tmp_path / "one-page"
    one.mkdir()
    _truth(one, "one", ["LOIS"], "Imprimerie officielle")
    assert main(["train", str(one), "-o", model, "--alone"]) == 2
    err = capsys.readouterr().err
    assert "two labelled pages" in err and err.count("\n") == 1
    assert main(["parse", str(CORPUS / TRAIN_PDF), "--pages", str(TRAIN_PAGE), "--model",
                 str(tmp_path / "no.npz")]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and err.count("\n") == 1


def test_learned_types_importing_layoutkit_imports_no_sklearn() -> None:
    """Reading with the learned model needs numpy alone: scikit-learn is imported
    only when a model is fitted."""
    code = ("import sys, layoutkit, layoutkit.linetypes.classifier, layoutkit.tools.train, "
            "layoutkit.cli.app; print('sklearn' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=REPO)
    assert done.stdout.strip() == "False"


def test_learned_types_profile_sets_the_model(tmp_path: Path) -> None:
    """A profile's ``[config]`` names the model like any key; the configuration keeps
    its 141 keys with ``model`` among them."""
    from layoutkit.profile import load_profile

    path = tmp_path / "p.toml"
    path.write_text('name = "p"\ndescription = "test"\n[config]\nmodel = "learned"\n')
    assert load_profile(path).config.linetypes.model == "learned"
    keys = LayoutConfig().as_mapping()
    assert len(keys) == 141 and keys["model"] == "rules"
    assert "heading_announcement_min_lines" not in keys


def test_learned_types_same_with_one_or_two_jobs() -> None:
    """The learned types are the same whether the pages are kept in this process or in
    two worker processes (each page's features made where it is kept)."""
    name, _ = SHIPPED_PAGE
    config = LayoutConfig().replace(model="learned")
    one = layoutkit.parse(CORPUS / name, config=config, jobs=1)
    two = layoutkit.parse(CORPUS / name, config=config, jobs=2)
    codes = [[line.code for line in page.lines] for page in one]
    assert codes == [[line.code for line in page.lines] for page in two]
    assert sum(code.startswith("h_") for page in codes for code in page) >= 4


def test_learned_types_features_at_reading_are_those_of_training(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The features the driver gives the model while reading are those ``layoutkit
    train`` fits it to (made again from the page the rules typed): same lines, same
    numbers."""
    from layoutkit.linetypes import driver
    from layoutkit.linetypes.features import document_facts, page_facts, page_features
    from layoutkit.linetypes.page_typing import PageTyping

    seen = []
    learned = driver.learned_types
    monkeypatch.setattr(driver, "learned_types",
                        lambda pages, forest, config: seen.append(pages) or
                        learned(pages, forest, config))
    name, page = SHIPPED_PAGE
    layoutkit.parse(CORPUS / name, pages=[page, page + 1],
                    config=LayoutConfig().replace(model="learned"))
    rules = layoutkit.parse(CORPUS / name, pages=[page, page + 1])
    typings = [PageTyping.typed(p, k) for k, p in enumerate(rules.pages)]
    facts = document_facts(page_facts(t) for t in typings)
    again = [page_features(t, facts) for t in typings]
    assert [p.keys for p in seen[0]] == [p.keys for p in again]
    assert all(np.array_equal(a.matrix, b.matrix) for a, b in zip(seen[0], again, strict=True))
    assert sum(len(p.keys) for p in again) > 50
