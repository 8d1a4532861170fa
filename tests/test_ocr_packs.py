"""Tesseract's languages as Debian packages them: the package a language's pack comes
in, and a code that names no language tesseract reads said to be unknown."""

from __future__ import annotations

import shutil

import pytest

from layoutkit.config import LayoutConfig
from layoutkit.sources.ocr import language as ocr_language
from layoutkit.sources.ocr import packs
from layoutkit.sources.ocr.language import tesseract_codes
from layoutkit.sources.ocr.packs import debian_package, pack_advice, packaged
from layoutkit.sources.ocr.scanned import missing_pack

INSTALLED = frozenset({"osd", "eng", "rus"})


@pytest.fixture
def without_apt_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine where Debian's archive cannot be asked: ISO 639 decides."""
    monkeypatch.setattr(packs, "packaged", lambda: None)


def test_ocr_packs_debian_names_a_pack_by_the_code_with_dashes() -> None:
    assert debian_package("deu") == "tesseract-ocr-deu"
    assert debian_package("chi_sim") == "tesseract-ocr-chi-sim"
    assert debian_package("chi_tra_vert") == "tesseract-ocr-chi-tra-vert"


def test_ocr_packs_iso_639_1_codes_are_tesseract_codes() -> None:
    """``sv`` is Swedish, which tesseract names ``swe`` (its pack tesseract-ocr-swe, not
    tesseract-ocr-sv); ``zh`` stays simplified Chinese."""
    assert tesseract_codes("sv+de") == ("swe", "deu")
    assert tesseract_codes("zh") == ("chi_sim",)
    assert tesseract_codes("xx") == ("xx",)  # no ISO 639-1 language: kept as given


@pytest.mark.usefixtures("without_apt_cache")
def test_ocr_packs_without_apt_cache_iso_639_decides() -> None:
    assert pack_advice("swe", INSTALLED) == ("is not installed; install it with: apt-get "
                                             "install tesseract-ocr-swe")
    assert pack_advice("chi_sim", INSTALLED).endswith("apt-get install tesseract-ocr-chi-sim")
    assert pack_advice("frk", INSTALLED).endswith("apt-get install tesseract-ocr-frk")
    assert pack_advice("xx", INSTALLED) == "is unknown: tesseract reads no such language"
    assert pack_advice("xyz", INSTALLED) == "is unknown: tesseract reads no such language"


def test_ocr_packs_debian_list_decides_where_apt_cache_knows_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Debian's list is tesseract's: a code not on it is unknown, the closest named."""
    monkeypatch.setattr(packs, "packaged", lambda: frozenset({"deu", "chi_sim", "swe", "ukr"}))
    assert pack_advice("ukr", INSTALLED).endswith("apt-get install tesseract-ocr-ukr")
    assert pack_advice("chi_sim", INSTALLED).endswith("apt-get install tesseract-ocr-chi-sim")
    assert pack_advice("chi_smi", INSTALLED) == ("is unknown: tesseract reads no such language "
                                                 "(did you mean chi_sim?)")
    assert pack_advice("zul", INSTALLED) == "is unknown: tesseract reads no such language"


def test_ocr_packs_this_machines_apt_cache_lists_tesseracts_languages() -> None:
    if shutil.which("apt-cache") is None:
        pytest.skip("no apt-cache here")
    packaged.cache_clear()
    known = packaged()
    if known is None:
        pytest.skip("apt-cache knows of no tesseract pack (its lists not fetched)")
    assert {"deu", "eng", "chi_sim", "chi_tra_vert", "frk", "osd"} <= known
    assert "all" not in known and not any(code.startswith("script") for code in known)


@pytest.mark.usefixtures("without_apt_cache")
def test_ocr_packs_lang_xx_is_unknown_and_lang_sv_names_swedish_pack(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--lang xx`` is said to be unknown (it was told to install tesseract-ocr-xx, which
    does not exist); ``--lang sv`` names the Swedish pack."""
    monkeypatch.setattr(ocr_language, "installed", lambda: INSTALLED)
    given = LayoutConfig().replace
    assert missing_pack(given(ocr_languages="xx")) == (
        "OCR language 'xx' is unknown: tesseract reads no such language; pages are read in "
        "their own language instead")
    assert missing_pack(given(ocr_languages="eng+sv")) == (
        "OCR language 'swe' is not installed; install it with: apt-get install "
        "tesseract-ocr-swe; pages are read in 'eng' instead")
    assert missing_pack(given(ocr_languages="eng+chi_sim")) == (
        "OCR language 'chi_sim' is not installed; install it with: apt-get install "
        "tesseract-ocr-chi-sim; pages are read in 'eng' instead")
