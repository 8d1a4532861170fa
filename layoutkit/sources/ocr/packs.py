"""Tesseract's languages as Debian packages them, and the package that installs each.

Whether a code names a language tesseract reads, and which package installs its pack.

Tesseract names a language by its ISO 639-2/T code (ISO 639-3's for the languages
639-2 lacks), some followed by a script or a variant (``chi_sim``, ``aze_cyrl``,
``jpn_vert``, ``ita_old``), ``frk`` (German in Fraktur), ``osd`` (script detection)
and ``equ`` (equations) aside.  Debian packs each as ``tesseract-ocr-`` and the code,
``_`` written ``-`` (``chi_sim``: ``tesseract-ocr-chi-sim``).  Which codes have a pack
is asked of tesseract (the packs installed) and of Debian's archive (``apt-cache``,
where there is one, whose package list is the list of tesseract's languages); where
neither can say, a code whose language ISO 639 knows is taken to have one.  The ISO
639 tables are pycountry's.
"""

from __future__ import annotations

import difflib
import shutil
import subprocess
from functools import lru_cache

__all__ = ["PREFIX", "debian_package", "iso_639_3", "pack_advice", "packaged"]

PREFIX = "tesseract-ocr-"
"""The start of the name of every Debian package of a tesseract language."""

_NOT_LANGUAGES = ("all", "script-")
"""Packages of tesseract's whose names start so hold no language: every pack at once,
and the models of whole scripts (named ``script/Latin`` in tesseract)."""

_NOT_IN_ISO = frozenset({"osd", "equ", "frk"})
"""Tesseract's codes that name no ISO 639 language (``frk`` is ISO's Frankish, not
tesseract's Fraktur)."""


def debian_package(code: str) -> str:
    """The Debian package of tesseract's pack ``code``: ``chi_sim`` ->
    ``tesseract-ocr-chi-sim``."""
    return PREFIX + code.lower().replace("_", "-")


def iso_639_3(code: str) -> str | None:
    """The ISO 639-3 (and 639-2/T) code of the language whose ISO 639-1 code is
    ``code`` (``sv`` -> ``swe``), None when ``code`` is none."""
    if len(code) != 2:
        return None
    import pycountry  # its tables are read on first use: only for OCR's languages

    language = pycountry.languages.get(alpha_2=code)
    return None if language is None else str(language.alpha_3)


@lru_cache(maxsize=1)
def packaged() -> frozenset[str] | None:
    """The codes of the tesseract packs Debian's archive holds, as ``apt-cache`` knows
    them; None where there is no ``apt-cache`` or it knows of none (its lists not yet
    fetched), so that nothing can be said."""
    apt_cache = shutil.which("apt-cache")
    if apt_cache is None:
        return None
    try:
        done = subprocess.run([apt_cache, "pkgnames", PREFIX], capture_output=True, text=True,
                              timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    codes = frozenset(name.removeprefix(PREFIX).replace("-", "_")
                      for name in done.stdout.split()
                      if name.startswith(PREFIX)
                      and not name.removeprefix(PREFIX).startswith(_NOT_LANGUAGES))
    return codes or None


def _in_iso(code: str) -> bool:
    """Whether ``code``'s language (before a ``_`` script or variant) is an ISO 639-2
    or 639-3 language, or one of tesseract's own codes."""
    import pycountry  # its tables are read on first use: only for OCR's languages

    base = code.partition("_")[0]
    return code in _NOT_IN_ISO or (len(base) == 3 and (
        pycountry.languages.get(alpha_3=base) is not None
        or pycountry.languages.get(bibliographic=base) is not None))


def pack_advice(code: str, installed: frozenset[str]) -> str:
    """What to say of the language ``code``, not among the ``installed`` packs: ``is not
    installed; install it with: apt-get install PACKAGE`` for a language tesseract
    reads, else that it is unknown (naming the closest codes that are known)."""
    known = packaged()
    if (code in known) if known is not None else _in_iso(code):
        return f"is not installed; install it with: apt-get install {debian_package(code)}"
    close = difflib.get_close_matches(code, sorted((known or frozenset()) | installed),
                                      n=3, cutoff=0.6)
    return "is unknown: tesseract reads no such language" + (
        f" (did you mean {' or '.join(close)}?)" if close else "")
