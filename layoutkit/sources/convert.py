"""Office and markup documents made into PDFs, so they are parsed like any PDF.

- LibreOffice (headless Writer) renders the word-processor formats (docx, odt, rtf):
  it keeps the page size, margins and columns the author set, which is what the
  reading order works from.
- The markup formats it cannot lay out or would fetch pieces of (html, epub, csv, rst,
  md) are first read by pandoc into an ODT document, which LibreOffice then renders.
- Images become one PDF page per frame with Pillow, a frame at a time.
- A converter that is not installed is an error for that document alone.

Nothing outside the inbox's document is read, and no address reached:

- pandoc runs with `--sandbox`: an `include`, a `csv-table`'s file, an image by path
  or URL are left out (one warning names them), so `.. include:: /etc/passwd` or
  `![](/home/...)` puts nothing of the machine into the outputs;
- LibreOffice runs in a private profile whose settings block content linked from
  outside the document (`BlockUntrustedRefererLinks`), never update links (linked
  sections, fields), run no macro, and send any request to a proxy that does not
  answer;
- both run in a network namespace of their own where the system permits one, in a
  session of their own, bounded in memory and time (`convert_max_memory`,
  `convert_max_seconds`), and every process they started ends with them (`bounded`).
"""

from __future__ import annotations

import functools
import logging
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..config import SourcesConfig
from ..errors import DocumentError
from .base import IMAGE_SUFFIXES
from .bounded import Ended, run_bounded

__all__ = ["PANDOC_FIRST", "SUFFIXES", "WRITER_SUFFIXES", "to_pdf"]

_log = logging.getLogger(__name__)

WRITER_SUFFIXES = (".docx", ".odt", ".rtf")
"""Rendered by LibreOffice straight away."""
PANDOC_FIRST = {".html": "html", ".htm": "html", ".epub": "epub", ".csv": "csv",
                ".rst": "rst", ".md": "markdown"}
"""Read by pandoc (with this input format) into ODT before LibreOffice renders them."""
SUFFIXES = (*WRITER_SUFFIXES, *PANDOC_FIRST)
"""Every file-name suffix converted to PDF before it is parsed."""

_HEAP_EXHAUSTED = 251
"""pandoc's exit status when its memory runs out (the Haskell runtime's)."""
_RESOURCE_NOT_FOUND = 99
"""pandoc's exit status for a file or address it may not read (``--sandbox``)."""
_LEFT_OUT = re.compile(
    r"\[WARNING\] Could not (?:load include file|fetch resource) (\S+?):?(?=\s|$)")
"""A pandoc warning naming what the sandbox kept it from reading."""

_OFFICE_SETTINGS = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry"
 xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting">
 <prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop>
 <prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop>
 <prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop>
</item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update">
 <prop oor:name="Link" oor:op="fuse"><value>0</value></prop>
 <prop oor:name="Field" oor:op="fuse"><value>false</value></prop>
 <prop oor:name="Chart" oor:op="fuse"><value>false</value></prop>
</item>
<item oor:path="/org.openoffice.Office.Calc/Content/Update">
 <prop oor:name="Link" oor:op="fuse"><value>0</value></prop>
</item>
<item oor:path="/org.openoffice.Inet/Settings">
 <prop oor:name="ooInetProxyType" oor:op="fuse"><value>1</value></prop>
 <prop oor:name="ooInetNoProxy" oor:op="fuse"><value></value></prop>
 <prop oor:name="ooInetHTTPProxyName" oor:op="fuse"><value>0.0.0.0</value></prop>
 <prop oor:name="ooInetHTTPProxyPort" oor:op="fuse"><value>9</value></prop>
 <prop oor:name="ooInetHTTPSProxyName" oor:op="fuse"><value>0.0.0.0</value></prop>
 <prop oor:name="ooInetHTTPSProxyPort" oor:op="fuse"><value>9</value></prop>
 <prop oor:name="ooInetFTPProxyName" oor:op="fuse"><value>0.0.0.0</value></prop>
 <prop oor:name="ooInetFTPProxyPort" oor:op="fuse"><value>9</value></prop>
</item>
</oor:items>
"""
"""LibreOffice's settings for a conversion (its schema: officecfg's Common.xcs,
Writer.xcs, Calc.xcs, Inet.xcs): content linked from a document not among the
trusted locations (there are none) is blocked; links and fields are never updated
(a linked section's file is not read); macros never run; every request goes to a
proxy at 0.0.0.0:9, which does not answer."""


def to_pdf(source: Path, target: Path, config: SourcesConfig | None = None) -> str | None:
    """Write the PDF rendering of ``source`` to ``target`` (complete or not at all),
    within ``config``'s bounds (``convert_max_seconds``, ``convert_max_memory``,
    ``image_max_frames``); returns what was left unread, in words (an image's frames
    past ``image_max_frames``), None when nothing was.

    Raises DocumentError naming the file and what went wrong: an unknown format,
    a converter that is not installed, one that failed, ran past a bound or made no
    PDF.
    """
    config = config or SourcesConfig()
    suffix = source.suffix.lower()
    left = None
    with tempfile.TemporaryDirectory(prefix=".convert-", dir=target.parent) as scratch:
        work = Path(scratch)
        if suffix in IMAGE_SUFFIXES:
            from .frames import image_pdf  # Pillow and PDFium: only for an image

            made, left = image_pdf(source, work / "image.pdf", config)
        elif suffix in PANDOC_FIRST:
            made = _writer_pdf(source, _pandoc_odt(source, PANDOC_FIRST[suffix], work, config),
                               work, config)
        elif suffix in WRITER_SUFFIXES:
            made = _writer_pdf(source, source, work, config)
        else:
            raise DocumentError(f"{source}: no converter for {suffix or 'files without a suffix'}")
        made.replace(target)
    return left


def _pandoc_odt(source: Path, reader: str, work: Path, config: SourcesConfig) -> Path:
    """The ODT pandoc reads ``source`` (in the format ``reader``) into, in ``work``,
    sandboxed: what the document would read from outside itself is left out, with one
    warning naming it.  The sandbox lets pandoc read no data file either, so the
    default reference document is written out for it first."""
    _installed(source, "pandoc")
    reference = (work / "reference.odt").absolute()
    reference.write_bytes(_reference_odt(source))
    odt = (work / "pandoc.odt").absolute()
    # the heap bound below the address space's: the runtime then says what ran out
    heap = max(config.convert_max_memory * 3 // 4 // 2**20, 1)
    ended = run_bounded(["pandoc", "--sandbox", "--from", reader, "--to", "odt",
                         "--reference-doc", str(reference), "--output", str(odt),
                         str(source.absolute()), "+RTS", f"-M{heap}m", "-RTS"],
                        seconds=config.convert_max_seconds, memory=config.convert_max_memory,
                        cwd=work)
    _check(source, "pandoc", ended, config)
    left_out = sorted(set(_LEFT_OUT.findall(ended.stderr)))
    if left_out:
        _log.warning("%s: left out what it reads from outside itself (converters read the "
                     "document alone): %s", source, ", ".join(left_out))
    return odt


def _reference_odt(original: Path) -> bytes:
    """pandoc's default reference document for ODT (its styles); a DocumentError naming
    ``original`` when pandoc cannot give it."""
    made = _default_reference()
    if isinstance(made, str):
        raise DocumentError(f"{original}: pandoc cannot give its reference document ({made})")
    return made


@functools.cache
def _default_reference() -> bytes | str:
    """pandoc's default reference document for ODT, read once a process, or why it
    could not be read."""
    try:
        done = subprocess.run(["pandoc", "--print-default-data-file", "reference.odt"],
                              capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if done.returncode != 0 or not done.stdout:
        return f"exit status {done.returncode}"
    return done.stdout


def _writer_pdf(original: Path, source: Path, work: Path, config: SourcesConfig) -> Path:
    """LibreOffice's PDF of ``source`` in ``work``; a private profile folder, with the
    settings that keep it to the document (`_OFFICE_SETTINGS`), keeps parallel
    conversions from waiting on each other's lock."""
    _installed(original, "soffice")
    profile = work / "profile"
    (profile / "user").mkdir(parents=True)
    (profile / "user" / "registrymodifications.xcu").write_text(_OFFICE_SETTINGS,
                                                                encoding="utf-8")
    _check(original, "soffice", run_bounded(
        ["soffice", f"-env:UserInstallation={profile.absolute().as_uri()}", "--headless",
         "--norestore", "--nologo", "--nodefault", "--nolockcheck", "--convert-to", "pdf",
         "--outdir", str((work / "pdf").absolute()), str(source.absolute())],
        seconds=config.convert_max_seconds, memory=config.convert_max_memory, cwd=work),
        config)
    made = work / "pdf" / f"{source.stem}.pdf"
    if not made.is_file() or made.stat().st_size == 0:
        raise DocumentError(f"{original}: LibreOffice made no PDF of it "
                            "(a format or content it cannot read)")
    return made


def _installed(original: Path, program: str) -> None:
    """Raise DocumentError naming ``original`` unless ``program`` is installed."""
    if shutil.which(program) is None:
        raise DocumentError(f"{original}: converting it needs {program}, which is not "
                            "installed (make system installs it)")


def _check(original: Path, program: str, ended: Ended, config: SourcesConfig) -> None:
    """Raise DocumentError naming ``original`` unless the run of ``program`` that
    ``ended`` so succeeded: it ran past ``convert_max_seconds``, past
    ``convert_max_memory``, was refused a file outside the document, or failed."""
    if ended.timed_out:
        raise DocumentError(f"{original}: {program} took over {config.convert_max_seconds:g} s "
                            "(convert_max_seconds); it was stopped, with every process it "
                            "started")
    if ended.returncode == 0:
        return
    last = (ended.stderr.strip().splitlines() or [f"exit status {ended.returncode}"])[-1]
    if ended.returncode == _HEAP_EXHAUSTED or _out_of_memory(ended.stderr):
        raise DocumentError(f"{original}: {program} ran out of memory within its bound of "
                            f"{config.convert_max_memory:,} bytes (convert_max_memory); "
                            "it was stopped")
    if program == "pandoc" and ended.returncode == _RESOURCE_NOT_FOUND:
        raise DocumentError(f"{original}: it reads a file or address outside itself, which "
                            f"converters may not ({last.strip()})")
    raise DocumentError(f"{original}: {program} failed ({last.strip()})")


def _out_of_memory(stderr: str) -> bool:
    """Whether a converter's standard error says it ran out of memory."""
    lowered = stderr.lower()
    return any(sign in lowered for sign in ("out of memory", "heap exhausted",
                                            "cannot allocate memory", "bad_alloc"))
