"""A headless Chromium for the tests of the HTML layoutkit writes (the truth review,
the evaluation report): a page is opened as a person would open it, and what they
would notice is counted -- console errors, pictures that do not show, elements.

Debian's ``chromium`` and ``chromium-driver`` are used (``make`` installs them):
Selenium is given ``/usr/bin/chromedriver`` and ``/usr/bin/chromium`` explicitly, so
it never runs Selenium Manager, which would look for a driver on the network.  A
test that needs the browser is skipped, saying why, when either is missing; it is
never passed without it.

One browser serves many pages: a test module opens a session once in a
module-scoped fixture and passes it on::

    @pytest.fixture(scope="module")
    def chromium() -> Iterator[Browser]:
        with open_browser() as browser:
            yield browser

    def test_report(chromium: Browser, tmp_path: Path) -> None:
        page = load_in_browser(path, selectors=("li.line",), browser=chromium)
        assert page.errors == () and page.images_shown == page.images

Without ``browser``, :func:`load_in_browser` opens a session for the one page.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")

__all__ = ["CHROMEDRIVER", "CHROMIUM", "Browser", "BrowserPage", "load_in_browser",
           "open_browser"]


@dataclass(frozen=True)
class BrowserPage:
    """What a page opened in the browser showed: the console's errors (messages of
    level SEVERE: scripts that failed, resources that did not load), its ``img``
    elements and how many of them loaded (complete, with a natural width), and how
    many elements each CSS selector asked for matched."""

    errors: tuple[str, ...]
    images: int
    images_shown: int
    counts: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Browser:
    """An open headless Chromium session (a Selenium WebDriver)."""

    driver: Any


def _missing() -> str | None:
    """Why the browser cannot run here, None when it can."""
    absent = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.is_file()]
    if absent:
        return (f"headless browser tests need Debian's chromium and chromium-driver "
                f"({', '.join(absent)} missing; apt-get install chromium chromium-driver)")
    return None


@contextlib.contextmanager
def open_browser() -> Iterator[Browser]:
    """A headless Chromium session, closed on leaving; skips the test (saying why)
    when chromium or chromedriver is not installed."""
    reason = _missing()
    if reason:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--disable-gpu", "--disable-extensions", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update",
                     "--disable-default-apps", "--disable-sync", "--window-size=1400,1000"):
        options.add_argument(argument)
    options.set_capability("goog:loggingOptions", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)),
                              options=options)
    try:
        yield Browser(driver)
    finally:
        driver.quit()


_SHOWN = ("return Array.from(document.images)"
          ".filter(i => i.complete && i.naturalWidth > 0).length;")


def load_in_browser(html: Path, selectors: Sequence[str] = (), *,
                    browser: Browser | None = None) -> BrowserPage:
    """Open the file ``html`` in headless Chromium (``browser``'s session, or one of
    its own) and return what it showed, with how many elements each of ``selectors``
    matched.  The console is emptied first, so only this page's messages count."""
    if browser is None:
        with open_browser() as own:
            return load_in_browser(html, selectors, browser=own)
    driver = browser.driver
    driver.get_log("browser")  # what an earlier page left in the console
    driver.get(html.resolve().as_uri())
    errors = tuple(entry["message"] for entry in driver.get_log("browser")
                   if entry.get("level") == "SEVERE")
    images = int(driver.execute_script("return document.images.length;"))
    shown = int(driver.execute_script(_SHOWN))
    counts = {selector: int(driver.execute_script(
        "return document.querySelectorAll(arguments[0]).length;", selector))
        for selector in selectors}
    return BrowserPage(errors, images, shown, MappingProxyType(counts))
