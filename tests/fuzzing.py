"""A mutation fuzzer for ``layoutkit text``: the corpus's small PDFs with bytes
flipped, chunks spliced in from other documents, truncated, or with numbers and PDF
tokens put in their place; or, saved as an editor saves (:mod:`tests.fuzz_pdf`),
with annotations (thousands of them, of many kinds, in loops), a structure tree
(with loops) or right-to-left text and bidi controls put in their first page; each
read by the real command in a child process limited
to 4 GB of address space and a time bound.

An input passes when the command exits 0, 1 or 2 without a signal or a traceback,
and when it fails (1 or 2) says so in one ``layoutkit: error:`` line, or, read in
part (1), in one warning line for each page left unread.  Every input
that does not pass is kept in :data:`FINDINGS` with the reason, and the test suite
reads each one found so far (``tests/test_fuzzing.py``).

Run it for a bounded time (``make fuzz``, or ``python -m tests.fuzzing --seconds
600``); ``--seed`` repeats a run.  Children are forked from a process that has
imported layoutkit once, so an input costs its reading, not an interpreter's start.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import random
import re
import resource
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SEEDS = sorted(p for folder in ("fixtures/pdf", "fixtures/corpus")
               for p in (REPO / folder).glob("*.pdf") if p.stat().st_size <= 300_000)
"""The corpus documents mutated: those of at most 300 kB, so that an input reads fast
and a finding is small enough to keep."""
FINDINGS = REPO / "tests" / "fuzz_findings"
"""Where the inputs that failed are kept, each ``<name>.pdf`` with ``<name>.txt``
saying how it failed."""
ADDRESS_SPACE = 4 << 30
"""A worker's memory: 4 GB of address space."""
TIME_BOUND = 90.0
"""Seconds after which an input counts as a hang."""
OPTIONS = ("--pages", "1-2", "--ocr", "never")
"""How each input is read: its first two pages, without OCR (tesseract's seconds a
page would cut the rate by ten; the OCR path has its own hostile inputs in
``tests/test_hostile.py``)."""

_TOKENS = (b"0", b"-1", b"4294967296", b"99999999999999999999", b"1e308", b"/Kids", b"R",
           b"<<", b">>", b"[", b"]", b"obj", b"endobj", b"stream", b"endstream", b"/Length",
           b"/Filter /FlateDecode", b"/Type /Pages", b"/Count 1000000", b"/Do", b"Tj",
           b"BT", b"ET", b"q", b"Q", b"%%EOF", b"xref", b"trailer", b"()", b"(\\")
"""Numbers and PDF tokens a mutation puts in place of others."""
_NUMBER = re.compile(rb"\d+")


def flip(data: bytes, rng: random.Random) -> bytes:
    """Up to 16 random bytes of ``data`` set to random values."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 16)):
        out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def splice(data: bytes, rng: random.Random) -> bytes:
    """A chunk of another seed document put in place of a chunk of ``data``."""
    other = rng.choice(SEEDS).read_bytes()
    size = rng.randint(1, 4096)
    start = rng.randrange(max(1, len(other) - size))
    at = rng.randrange(len(data))
    return data[:at] + other[start:start + size] + data[at + rng.randint(0, size):]


def truncate(data: bytes, rng: random.Random) -> bytes:
    """``data`` cut short somewhere."""
    return data[:rng.randrange(1, len(data))]


def token(data: bytes, rng: random.Random) -> bytes:
    """A number of ``data`` (or, if it has none, a random place) replaced by a number
    or PDF token."""
    numbers = [m.span() for m in _NUMBER.finditer(data, rng.randrange(len(data)))][:64]
    a, b = rng.choice(numbers) if numbers else (rng.randrange(len(data)),) * 2
    return data[:a] + rng.choice(_TOKENS) + data[b:]


_ANNOTATIONS = (
    b"<< /Type /Annot /Subtype /Link /Rect [%(r)s] /A << /S /URI /URI (http://x) >> >>",
    b"<< /Type /Annot /Subtype /Widget /FT /Tx /V (v) /Rect [%(r)s] /AP << /N %(form)s >> >>",
    b"<< /Type /Annot /Subtype /FreeText /Rect [%(r)s] /Contents <feff%(t)s> /DA (/Helv 9 Tf) >>",
    b"<< /Type /Annot /Subtype /Square /Rect [%(r)s] /AP << /N %(loop)s >> /F 4 >>",
    b"<< /Type /Annot /Subtype /Popup /Rect [%(r)s] /Parent %(self)s /Open true >>",
    b"<< /Type /Annot /Subtype /Text /Rect [%(r)s] /Contents %(self)s /IRT %(self)s >>",
    b"<< /Type /Annot /Subtype /Highlight /Rect [%(r)s] /QuadPoints [%(r)s %(r)s] >>",
    b"<< /Subtype /Ink /Rect [%(r)s] /InkList [[%(r)s] %(self)s] >>",
)
"""Annotations of many kinds: ``%(r)s`` a rectangle, ``%(form)s`` a form drawing a
rectangle, ``%(loop)s`` a form drawing itself, ``%(self)s`` the annotation itself
(when it is an object of its own), ``%(t)s`` some text."""


def annotations(data: bytes, rng: random.Random) -> bytes:
    """``data`` with the first page's ``/Annots`` grown by one to 20,000 annotations
    (the same object repeated, or dictionaries of their own), or made an array that
    holds itself; spliced in as text where the document cannot be read."""
    from tests.fuzz_pdf import Raw, edited

    count = rng.choice((1, 3, 50, 1000, 20_000))
    kind = rng.choice(_ANNOTATIONS)

    def values(own: bytes) -> dict[bytes, bytes]:
        x, y = rng.randrange(-100, 700), rng.randrange(-100, 900)
        return {b"r": b"%d %d %d %d" % (x, y, x + rng.randrange(-5, 300), y + 20),
                b"t": _bidi_text(rng).encode("utf-16-be").hex().encode(),
                b"form": b"null", b"loop": b"null", b"self": own}

    def change(edit: Any) -> None:
        form = edit.add_stream(b"0 g 0 0 10 10 re f", b" /Type /XObject /Subtype /Form "
                                                      b"/BBox [0 0 10 10]")
        loop = edit.next_id
        edit.add_stream(b"/L Do", b" /Type /XObject /Subtype /Form /BBox [0 0 10 10] "
                                  b"/Resources << /XObject << /L %d 0 R >> >>" % loop)
        own = b"%d 0 R" % edit.next_id
        one = edit.add(kind % {**values(own), b"form": b"%d 0 R" % form,
                                b"loop": b"%d 0 R" % loop})
        if rng.random() < 0.5:
            entries = [b"%d 0 R" % one] * count
        else:
            entries = [kind % {**values(b"null"), b"form": b"%d 0 R" % form,
                               b"loop": b"%d 0 R" % loop} for _ in range(min(count, 2000))]
        old = edit.page.get("Annots")
        array = b"[" + b" ".join(entries) + b"]"
        if rng.random() < 0.2:  # an array that holds itself
            array = b"[%d 0 R %s]" % (edit.next_id, b" ".join(entries[:3]))
        elif isinstance(old, list):
            from tests.fuzz_pdf import pdf_value

            array = pdf_value(old)[:-1] + b" " + array[1:]
        where = edit.add(array)
        edit.set_page(Annots=Raw(b"%d 0 R" % where))

    return edited(data, change) or _spliced_text(data, kind % values(b"null"), rng)


def structure(data: bytes, rng: random.Random) -> bytes:
    """``data`` with a structure tree (``/StructTreeRoot``, ``/MarkInfo``, elements
    whose ``/K`` hold marked content, other elements or themselves, a ``/ParentTree``
    that may hold itself) and the first page's content marked (its ``BDC`` and ``EMC``
    sometimes unbalanced); spliced in as text where the document cannot be read."""
    from tests.fuzz_pdf import Raw, edited

    def change(edit: Any) -> None:
        root, element, tree = edit.next_id, edit.next_id + 1, edit.next_id + 2
        page = b"%d 0 R" % edit.page_id
        kids = rng.sample([b"0", b"1", b"%d 0 R" % element, b"%d 0 R" % root,
                           b"<< /Type /MCR /Pg %s /MCID 0 >>" % page,
                           b"<< /Type /OBJR /Obj %s >>" % page, b"[%d 0 R]" % element,
                           b"<< /S /Span /K %d 0 R >>" % element], rng.randint(1, 5))
        edit.add(b"<< /Type /StructTreeRoot /K [%d 0 R] /ParentTree %d 0 R /ParentTreeNextKey 1 "
                 b"/RoleMap << /Art /Sect /Sect /Art >> >>" % (element, tree))
        edit.add(b"<< /Type /StructElem /S /%s /P %d 0 R /Pg %s /K [%s] /ActualText <feff%s> "
                 b"/Lang (he) >>" % (rng.choice([b"P", b"Art", b"Sect", b"Span", b"Figure"]),
                                     rng.choice([root, element]), page, b" ".join(kids),
                                     _bidi_text(rng).encode("utf-16-be").hex().encode()))
        edit.add(rng.choice([b"<< /Nums [0 [%d 0 R %d 0 R]] >>" % (element, element),
                             b"<< /Kids [%d 0 R] >>" % tree,
                             b"<< /Nums [0 %d 0 R 1 %d 0 R] /Limits [0 1] >>" % (tree, root)]))
        edit.set_catalog(StructTreeRoot=Raw(b"%d 0 R" % root),
                         MarkInfo=Raw(rng.choice([b"<< /Marked true >>",
                                                  b"<< /Marked true /Suspects true >>",
                                                  b"%d 0 R" % root])))
        begin = rng.choice([b"/P << /MCID 0 >> BDC\n", b"/Span << /MCID 1 /ActualText (x) >> "
                            b"BDC\n", b"/P <</MCID 0>> BDC /P <</MCID 0>> BDC\n", b""])
        end = rng.choice([b"\nEMC\n", b"\nEMC EMC EMC\n", b""])
        contents = edit.add_stream(begin + edit.content + end)
        edit.set_page(StructParents=Raw(b"0"), Contents=Raw(b"%d 0 R" % contents))

    return edited(data, change) or _spliced_text(
        data, b"/StructTreeRoot << /K [<< /S /P /K 0 >>] /ParentTree << /Nums [0 []] >> >> "
              b"/MarkInfo << /Marked true >>", rng)


_BIDI_PARTS = ("\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067",
               "\u2068", "\u2069", "\u200e", "\u200f", "\u05e9\u05dc\u05d5\u05dd",
               "\u05d0", "\u0627\u0644\u0639\u0631\u0628\u064a\u0629", "\u0661\u0662",
               "(", ")", "[", "]", "{", "}", "<", ">", "12", " ", "a")
"""What a right-to-left text is made of: the embeddings, overrides and isolates
(U+202A-202E, U+2066-2069), the marks, Hebrew and Arabic letters and digits,
brackets, European digits, spaces and a Latin letter."""

_SHOW = re.compile(rb"(?:\)|>|\])\s*(?:Tj|TJ|'|\")(?![^\s/\[\]()<>{}%])")
"""A text-showing operator after its string or array."""

_FONT = re.compile(rb"(/[^\s/\[\]()<>{}%]+)\s+([-+\d.]+)\s+Tf(?![^\s/\[\]()<>{}%])")
"""A font set by ``Tf``: its name and size."""


def _bidi_text(rng: random.Random) -> str:
    """A text of one to a dozen parts of :data:`_BIDI_PARTS`."""
    return "".join(rng.choice(_BIDI_PARTS) for _ in range(rng.randint(1, 12)))


def bidi(data: bytes, rng: random.Random) -> bytes:
    """``data`` with right-to-left text and bidi controls shown by the first page's
    text-showing operators (in a font whose ``/ToUnicode`` maps its codes to them),
    the font the page set before put back after each; spliced in as text where the
    document cannot be read."""
    from tests.fuzz_pdf import Raw, edited, pdf_value

    def change(edit: Any) -> None:
        texts = [_bidi_text(rng) for _ in range(rng.randint(1, 4))]
        codes = {c: 0x21 + k for k, c in enumerate(dict.fromkeys("".join(texts)))}
        cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
                b"/CMapName /LKbidi def 1 begincodespacerange <00> <FF> endcodespacerange\n"
                b"%d beginbfchar\n%s\nendbfchar endcmap CMapName currentdict /CMap "
                b"defineresource pop end end" % (len(codes), b"\n".join(
                    b"<%02X> <%s>" % (code, c.encode("utf-16-be").hex().encode())
                    for c, code in codes.items())))
        font = edit.add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
                        b"/ToUnicode %d 0 R >>" % edit.add_stream(cmap))
        content = edit.content
        shows = [m.end() for m in _SHOW.finditer(content)]
        places = sorted(rng.sample(shows, min(len(shows), len(texts))), reverse=True)
        for at, text in zip(places, texts, strict=False):
            hex_codes = bytes(codes[c] for c in text).hex().encode()
            fonts = list(_FONT.finditer(content, 0, at))
            back = b" %s %s Tf" % (fonts[-1][1], fonts[-1][2]) if fonts else b""
            content = content[:at] + b" /LKbidi 10 Tf <%s> Tj%s " % (hex_codes, back) + \
                content[at:]
        if not places:
            content += b"\nBT /LKbidi 10 Tf 72 400 Td <%s> Tj ET\n" % bytes(
                codes[c] for c in texts[0]).hex().encode()
        resources = dict(edit.page.get("Resources") or {})
        from pdfminer.pdftypes import resolve1

        fonts_of = dict(resolve1(resources.get("Font")) or {})
        fonts_of["LKbidi"] = Raw(b"%d 0 R" % font)
        resources["Font"] = fonts_of
        edit.set_page(Contents=Raw(b"%d 0 R" % edit.add_stream(content)),
                      Resources=Raw(pdf_value(resources)))

    return edited(data, change) or _spliced_text(
        data, b"(" + _bidi_text(rng).encode("utf-8") + b") Tj", rng)


def _spliced_text(data: bytes, text: bytes, rng: random.Random) -> bytes:
    """``text`` put in ``data`` at a random place."""
    at = rng.randrange(len(data))
    return data[:at] + text + data[at:]


MUTATIONS: tuple[Callable[[bytes, random.Random], bytes], ...] = (
    flip, splice, truncate, token, annotations, structure, bidi)


def mutant(rng: random.Random) -> tuple[str, bytes]:
    """A seed document's name and one to three mutations of it."""
    seed = rng.choice(SEEDS)
    data = seed.read_bytes()
    names = []
    for _ in range(rng.randint(1, 3)):
        mutation = rng.choice(MUTATIONS)
        data = mutation(data, rng) or b"%"
        names.append(mutation.__name__)
    return f"{seed.stem}+{'+'.join(names)}", data


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the command read one input: its exit status (negative: the signal that
    ended it, None: still running at the time bound), its standard error and its
    seconds."""

    status: int | None
    err: str
    seconds: float

    @property
    def problem(self) -> str | None:
        """What breaks the bar, or None."""
        if self.status is None:
            return f"no answer within {TIME_BOUND:g} s"
        if self.status < 0:
            return f"killed by signal {signal.Signals(-self.status).name}"
        if self.status not in (0, 1, 2):
            return f"exit status {self.status}"
        if "Traceback" in self.err:
            return "a traceback"
        lines = self.err.splitlines()
        read_in_part = self.status == 1 and lines and all(
            line.startswith("layoutkit: ") and line.endswith(_LEFT_UNREAD) for line in lines)
        if self.status and not read_in_part and (
                len(lines) != 1 or not lines[0].startswith("layoutkit: error: ")):
            return f"{len(lines)} lines on stderr for exit status {self.status}"
        return None


_LEFT_UNREAD = "; it is left unread (empty in the output)"
"""How the warning of a page left unread ends: a document read in part exits 1 with
one such line for each page, and no error line."""


def read(path: Path, options: Sequence[str] = OPTIONS) -> Outcome:
    """``layoutkit text path options`` run in a forked child limited to
    :data:`ADDRESS_SPACE` and ended at :data:`TIME_BOUND`."""
    from layoutkit.cli import main

    with tempfile.TemporaryFile() as err:
        started = time.monotonic()
        child = os.fork()
        if child == 0:  # the child: never returns
            code = 70
            try:
                resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
                _as_a_command(err.fileno())
                code = main(["text", str(path), *options])
                sys.stdout.flush()
                sys.stderr.flush()
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 2
            except BaseException:  # what main lets through is what the fuzzer looks for
                import traceback

                traceback.print_exc()
                sys.stderr.flush()
                code = 70
            finally:
                os._exit(code)
        status = _wait(child, started + TIME_BOUND)
        seconds = time.monotonic() - started
        err.seek(0)
        return Outcome(status, err.read().decode("utf-8", "replace"), seconds)


def _as_a_command(err: int) -> None:
    """Standard output to the null device and standard error to ``err``, as a command
    started from a shell has them, whatever the parent (pytest) had put in their
    place, and logging set up afresh by the command."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(err, 2)
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8")
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                  errors="backslashreplace", line_buffering=True)
    logging.root.handlers.clear()


def _wait(child: int, deadline: float) -> int | None:
    """The child's exit status (negative: its signal), or None, the child killed,
    when it is still running at ``deadline``."""
    while True:
        pid, status = os.waitpid(child, os.WNOHANG)
        if pid:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
            return None
        time.sleep(0.005)


@dataclass(frozen=True, slots=True)
class Report:
    """What a fuzzing run did: inputs read, seconds, and the names of those that failed."""

    inputs: int
    seconds: float
    failed: tuple[str, ...]

    @property
    def rate(self) -> float:
        """Inputs read per second."""
        return self.inputs / self.seconds if self.seconds else 0.0


def fuzz(seed: int, *, seconds: float | None = None, inputs: int | None = None,
         keep: Path | None = FINDINGS) -> Report:
    """Read mutants (seeded by ``seed``) for ``seconds`` or ``inputs``, whichever ends
    first; each failing input is written to ``keep`` (None: not kept)."""
    rng = random.Random(seed)
    started, count, failed = time.monotonic(), 0, []
    with tempfile.TemporaryDirectory() as scratch:
        while (seconds is None or time.monotonic() - started < seconds) and \
                (inputs is None or count < inputs):
            name, data = mutant(rng)
            path = Path(scratch) / "input.pdf"
            path.write_bytes(data)
            outcome = read(path)
            count += 1
            problem = outcome.problem
            if problem is None:
                continue
            failed.append(name)
            if keep is not None:
                keep.mkdir(parents=True, exist_ok=True)
                stem = f"{seed}-{count}-{name}"[:120]
                (keep / f"{stem}.pdf").write_bytes(data)
                (keep / f"{stem}.txt").write_text(f"{problem}\n{outcome.err}", encoding="utf-8")
    return Report(count, time.monotonic() - started, tuple(failed))


def main(argv: Sequence[str] | None = None) -> int:
    """Fuzz for ``--seconds`` (or ``--inputs``); prints the rate and the findings and
    exits 1 when an input failed."""
    parser = argparse.ArgumentParser(prog="python -m tests.fuzzing", description=__doc__)
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--inputs", type=int)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args(argv)
    report = fuzz(args.seed, seconds=args.seconds, inputs=args.inputs)
    print(f"seed {args.seed}: {report.inputs} inputs in {report.seconds:.0f} s "
          f"({report.rate:.2f}/s), {len(report.failed)} failed"
          + (f"; kept in {FINDINGS.relative_to(REPO)}/" if report.failed else ""))
    return 1 if report.failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
