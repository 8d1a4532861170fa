"""``layoutkit serve`` over real HTTP: a server started as ``layoutkit serve`` on a free
loopback port, asked by httpx clients; concurrent clients all answered, a hostile
document, an upload past the limit and a client gone mid-upload each leave it
healthy, its temporary files removed."""

from __future__ import annotations

import asyncio
import html
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

import layoutkit
from layoutkit.outputs import document_text
from layoutkit.server import ENDPOINTS, ServeOptions, Task, create_app, worker
from layoutkit.server.worker import Answer

REPO = Path(__file__).resolve().parent.parent
PDF = REPO / "fixtures" / "pdf" / "copyright-office-dmca-summary.pdf"
SCAN = REPO / "fixtures" / "scanned" / "cfr-5-page7-two-column.jpg"
FAULTS = REPO / "tests" / "data" / "faults"
LIMIT_MB = 1


@dataclass(frozen=True)
class Server:
    """A running ``layoutkit serve``: its address and the folder it makes temporary
    files in."""

    url: str
    scratch: Path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from _serving(tmp_path_factory.mktemp("serve"), "--workers", "2", "--timeout", "30")


@pytest.fixture
def hurried(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose documents may take two seconds.  Its folder is a short one of the
    session's, not the test's own: the forkserver's socket is made in it, and a
    socket's path holds 107 bytes at most (a test's folder under a pytest-xdist
    worker's is longer)."""
    yield from _serving(tmp_path_factory.mktemp("hurried"), "--workers", "1", "--timeout", "2")


def _serving(folder: Path, *options: str) -> Iterator[Server]:
    """``layoutkit serve`` started with ``options`` (an upload limit of ``LIMIT_MB``),
    its temporary files in ``folder``; stopped, and ``folder`` found empty, at the
    end."""
    scratch = folder / "temporary"
    scratch.mkdir()
    port = _free_port()
    env = {**os.environ, "TMPDIR": str(scratch), "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "layoutkit", "serve", "--port", str(port), "--max-upload-mb",
         str(LIMIT_MB), "-q", *options], env=env, cwd=REPO, stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/health", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert process.poll() is None, process.stderr.read().decode()  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the server did not start within 60 s"
            time.sleep(0.2)
        yield Server(url, scratch)
        assert process.poll() is None, "the server ended"
    finally:
        process.terminate()
        process.wait(timeout=30)
    forkserver = [p for p in scratch.iterdir() if p.name.startswith("pymp-")]
    assert sorted(p.name for p in scratch.iterdir() if p not in forkserver) == []


def _healthy(server: Server) -> None:
    answer = httpx.get(f"{server.url}/health", timeout=10)
    assert answer.status_code == 200 and answer.json()["status"] == "ok"


def _error(answer: httpx.Response) -> dict[str, str | None]:
    """The answer's error, checked to be one line of JSON."""
    assert answer.headers["content-type"] == "application/json"
    assert answer.text.count("\n") == 1 and answer.text.endswith("\n")
    error: dict[str, str | None] = json.loads(answer.text)
    assert set(error) == {"error", "file"}
    return error


def test_eight_concurrent_clients_are_all_answered(server: Server) -> None:
    """Eight clients at once, two workers: every one gets the document's text, the
    same as `layoutkit.parse` reads."""
    expected = document_text(layoutkit.parse(PDF, pages="1-2")) + "\n"

    def ask(k: int) -> tuple[int, str, float]:
        started = time.monotonic()
        with PDF.open("rb") as fh, httpx.Client(timeout=60) as client:
            answer = client.post(f"{server.url}/text", params={"pages": "1-2"},
                                 files={"file": (f"copy{k}.pdf", fh, "application/pdf")})
        return answer.status_code, answer.text, time.monotonic() - started

    started = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(ask, range(8)))
    took = time.monotonic() - started
    assert [status for status, _, _ in answers] == [200] * 8
    assert all(text == expected for _, text, _ in answers)
    print(f"8 clients: {took:.2f} s, slowest {max(t for *_, t in answers):.2f} s")


def test_parse_markdown_and_raw_bodies(server: Server) -> None:
    """/parse answers the layout model naming the upload; /markdown takes the raw body
    with its name in the query."""
    answer = httpx.post(f"{server.url}/parse", params={"pages": "2"},
                        files={"file": ("dmca.pdf", PDF.read_bytes())}, timeout=60)
    assert answer.status_code == 200
    parsed = answer.json()
    assert (parsed["document"], parsed["pageCount"]) == ("dmca.pdf", 18)
    assert [page["pageNo"] for page in parsed["pages"]] == [2]
    raw = httpx.post(f"{server.url}/markdown", params={"pages": "1", "filename": "dmca.pdf"},
                     content=PDF.read_bytes(), timeout=60)
    assert raw.status_code == 200 and raw.headers["content-type"].startswith("text/markdown")
    assert raw.text.startswith("# THE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998")
    chunked = httpx.post(f"{server.url}/chunks", params={"pages": "1-2", "max_tokens": "80"},
                         files={"file": ("dmca.pdf", PDF.read_bytes())}, timeout=60)
    assert chunked.status_code == 200
    lines = [json.loads(line) for line in chunked.text.splitlines()]
    expected = layoutkit.chunks(layoutkit.parse(PDF, pages=[1, 2]), max_tokens=80)
    assert [c["text"] for c in lines] == [c.text for c in expected]
    assert all(c["document"] == "dmca.pdf" and c["tokens"] <= 80 for c in lines)


def test_bad_requests_are_one_json_line_with_their_status(server: Server) -> None:
    url = server.url
    pages = httpx.post(f"{url}/text", params={"pages": "30"},
                       files={"file": ("dmca.pdf", PDF.read_bytes())}, timeout=60)
    assert pages.status_code == 400
    assert _error(pages) == {"error": "dmca.pdf: page range '30': '30' is outside the "
                                      "document's pages 1-18", "file": "dmca.pdf"}
    option = httpx.post(f"{url}/text", params={"colour": "red"}, content=b"%PDF-", timeout=60)
    assert option.status_code == 400 and _error(option)["error"] == (
        "unknown option 'colour'; /text takes profile, pages, filename")
    unknown = httpx.post(f"{url}/text", files={"file": ("notes.xyz", b"what is this?\n")},
                         timeout=60)
    assert unknown.status_code == 422
    error = _error(unknown)
    assert error["file"] == "notes.xyz"
    assert str(error["error"]).startswith("notes.xyz: not a kind of document layoutkit reads")
    nowhere = httpx.post(f"{url}/pdf", content=b"%PDF-", timeout=60)
    assert nowhere.status_code == 404
    assert str(_error(nowhere)["error"]).startswith("POST /pdf: Not Found (the paths: /alto, ")
    empty = httpx.post(f"{url}/text", content=b"", timeout=60)
    assert empty.status_code == 400 and "empty body" in str(_error(empty)["error"])
    schema = httpx.get(f"{url}/openapi.json", timeout=10).json()
    assert schema["openapi"].startswith("3.")
    assert set(ENDPOINTS) | {"/health", "/openapi.json"} == set(schema["paths"])
    assert set(schema["paths"]["/text"]["post"]["responses"]) == {
        "200", "400", "413", "422", "500", "503", "504"}


def test_a_hostile_pdf_fails_alone(server: Server) -> None:
    """Two form XObjects drawing each other (PDFium followed them for ever): the
    document is refused, and the next request is answered."""
    hostile = FAULTS / "h_xobject_mutual.pdf"
    answer = httpx.post(f"{server.url}/text", files={"file": (hostile.name,
                                                              hostile.read_bytes())},
                        timeout=60)
    assert answer.status_code == 422
    assert "draws form XObjects that draw each other" in str(_error(answer)["error"])
    _healthy(server)
    after = httpx.post(f"{server.url}/text", params={"pages": "1"},
                       files={"file": ("dmca.pdf", PDF.read_bytes())}, timeout=60)
    assert after.status_code == 200 and after.text.startswith("THE DIGITAL MILLENNIUM")


def test_every_hostile_input_is_answered_and_leaks_nothing(server: Server) -> None:
    """Every hostile document of the reproducers in tests/data/faults (PDF bombs, pages
    that once crashed a reader, HTML, Markdown, reStructuredText and ODF files that
    include or fetch files of the machine), sent at once: each answered with its text
    or one JSON line (refused, past the time), none with a line of ``/etc/passwd``; the
    server answers on after them."""
    hostile = sorted(p for p in FAULTS.iterdir() if p.suffix in {".pdf", ".html", ".md",
                                                                   ".rst", ".odt"})
    assert len(hostile) == 14

    def post(path: Path) -> httpx.Response:
        return httpx.post(f"{server.url}/text", files={"file": (path.name, path.read_bytes())},
                          timeout=120)

    with ThreadPoolExecutor(max_workers=len(hostile)) as pool:
        answers = dict(zip(hostile, pool.map(post, hostile), strict=True))
    secrets = {line for line in Path("/etc/passwd").read_text().splitlines() if line}
    for path, answer in answers.items():
        assert answer.status_code in {200, 422, 504}, (path.name, answer.status_code)
        if answer.status_code != 200:
            assert _error(answer)["file"] == path.name, path.name
        assert not any(line in answer.text for line in secrets), path.name
    _healthy(server)


def test_an_upload_past_the_limit_is_refused_413(server: Server) -> None:
    """Declared too large (Content-Length) or found so as it streams in (chunked)."""
    big = b"%PDF-1.4\n" + b"0" * (LIMIT_MB * 2**20)
    declared = httpx.post(f"{server.url}/text", content=big, timeout=60)
    assert declared.status_code == 413
    assert "more than the server's limit of 1,048,576 bytes" in str(_error(declared)["error"])

    def pieces() -> Iterator[bytes]:
        for k in range(0, len(big), 65536):
            yield big[k:k + 65536]

    streamed = httpx.post(f"{server.url}/text", content=pieces(), timeout=60)
    assert streamed.status_code == 413
    assert str(_error(streamed)["error"]).startswith("the upload is over ")
    _healthy(server)


def test_a_client_gone_mid_upload_leaves_the_server_healthy(server: Server) -> None:
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as raw:
        raw.sendall(b"POST /text HTTP/1.1\r\nHost: test\r\nContent-Type: application/pdf\r\n"
                    b"Content-Length: 500000\r\n\r\n" + PDF.read_bytes()[:20000])
    time.sleep(0.5)
    _healthy(server)
    after = httpx.post(f"{server.url}/text", params={"pages": "1"},
                       files={"file": ("dmca.pdf", PDF.read_bytes())}, timeout=60)
    assert after.status_code == 200


def test_a_document_past_the_time_is_504_and_its_worker_stopped(hurried: Server) -> None:
    """A scanned page (OCR takes several seconds) on a server allowing two: 504, its
    worker and OCR stopped, the server answering the next request."""
    started = time.monotonic()
    answer = httpx.post(f"{hurried.url}/text", files={"file": (SCAN.name, SCAN.read_bytes())},
                        timeout=60)
    assert answer.status_code == 504 and time.monotonic() - started < 10
    assert _error(answer) == {"error": "took more than 2 s to read (--timeout); it was stopped",
                              "file": SCAN.name}
    _healthy(hurried)
    unknown = httpx.post(f"{hurried.url}/text", files={"file": ("notes.xyz", b"what?\n")},
                         timeout=60)
    assert unknown.status_code == 422  # a worker ran again, and answered
    time.sleep(0.5)
    assert not [line for line in subprocess.run(["ps", "-eo", "args"], capture_output=True,
                                                text=True, check=True).stdout.splitlines()
                if "tesseract" in line and str(hurried.scratch) in line]


def test_review_answers_the_truth_beside_its_pages(server: Server) -> None:
    """/review of a truth file and its document: the review page, each labelled page's
    lines listed; a document other than the truth's is a bad request."""
    truth = REPO / "regions" / "corpus" / "irish-supreme-court-2001-iesc-63.truth.json"
    pages = json.loads(truth.read_text(encoding="utf-8"))["pages"]
    document = REPO / "fixtures" / "corpus" / "irish-supreme-court-2001-iesc-63.pdf"
    answer = httpx.post(f"{server.url}/review", files={
        "document": (document.name, document.read_bytes()),
        "truth": (truth.name, truth.read_bytes())}, timeout=120)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    assert answer.text.count("<img") == len(pages) == 1
    assert all(html.escape(line) in answer.text for line in pages[0]["lines"])
    evaluated = httpx.post(f"{server.url}/evaluate", files={
        "document": (document.name, document.read_bytes()),
        "truth": (truth.name, truth.read_bytes())}, timeout=120)
    assert evaluated.status_code == 200 and "<html" in evaluated.text
    assert re.search(rf"<td>{re.escape(truth.name)}</td><td>[01]\.\d{{3}} \(\d+/41\)</td>",
                     evaluated.text)
    other = PDF
    wrong = httpx.post(f"{server.url}/review", files={
        "document": (other.name, other.read_bytes()), "truth": (truth.name, truth.read_bytes())},
        timeout=120)
    assert wrong.status_code == 400
    assert "$.sha256: the truth was made for another file" in str(_error(wrong)["error"])
    missing = httpx.post(f"{server.url}/review", files={"document": ("dmca.pdf", b"%PDF-")},
                         timeout=60)
    assert missing.status_code == 400 and _error(missing)["error"] == (
        "/review: expected a file in the form field 'truth' (fields: document, truth)")


def test_requests_past_the_workers_wait_then_get_503(monkeypatch: pytest.MonkeyPatch) -> None:
    """One worker, one second: while a document is read for two seconds, the next
    request waits a second for the worker, then gets 503 with Retry-After (the
    worker's reading stood in for by a pause, the application asked in-process)."""
    def slow(task: Task, seconds: float) -> Answer:
        time.sleep(2)
        return Answer(200, "read\n")

    monkeypatch.setattr(worker, "read", slow)
    app = create_app(ServeOptions(max_upload=2**20, workers=1, timeout=1))

    async def both() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            first = asyncio.create_task(client.post("/text", content=b"%PDF-"))
            await asyncio.sleep(0.2)
            second = asyncio.create_task(client.post("/text", content=b"%PDF-"))
            return [await first, await second]

    first, second = asyncio.run(both())
    assert (first.status_code, first.text) == (200, "read\n")
    assert second.status_code == 503 and second.headers["retry-after"] == "1"
    assert _error(second) == {"error": "every worker (1) stayed busy for 1 s; try again later",
                              "file": "file"}


@pytest.mark.skipif(shutil.which("pandoc") is None or shutil.which("soffice") is None,
                    reason="pandoc and LibreOffice are not installed (make system)")
def test_an_html_upload_is_converted_then_read(server: Server) -> None:
    """An HTML page goes through the sandboxed converter in the worker (its temporary
    PDF in the request's folder, removed with it)."""
    page = ("<html><head><title>Notice</title></head><body><h1>Notice of hearing</h1>"
            "<p>The council meets on Tuesday.</p></body></html>")
    answer = httpx.post(f"{server.url}/markdown",
                        files={"file": ("notice.html", page.encode(), "text/html")}, timeout=120)
    assert answer.status_code == 200
    assert "# Notice of hearing" in answer.text and "The council meets on Tuesday." in answer.text


def test_a_worker_that_ends_without_answering_is_told_by_how_it_ended() -> None:
    """Killed past its time: 504; aborted or faulted (an allocation that failed, as
    PDFium aborts): 422, the memory budget named; any other end: 500."""
    from layoutkit.server.worker import _ending

    assert _ending(-signal.SIGKILL, 30, 2**31) == Answer(
        504, "took more than 30 s to read (--timeout); it was stopped")
    assert _ending(124, 30, 2**31).status == 504
    assert _ending(-signal.SIGABRT, 30, 2_000_000_000) == Answer(
        422, "needed more memory than page_max_memory (2,000,000,000 bytes) to read; it was "
             "stopped")
    assert _ending(-signal.SIGSEGV, 30, 2**31).status == 422
    assert _ending(3, 30, 2**31) == Answer(500, "the worker reading it ended (exit status 3)")
    assert _ending(-signal.SIGTERM, 30, 2**31) == Answer(
        500, "the worker reading it ended (signal SIGTERM)")
