"""The review page in headless Chromium (Debian's, via Playwright): mark a missed name, reload, report."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn
from playwright import sync_api
from review_support import PLANTED, make_folder

from anonymed.review.folder import ReviewFolder
from anonymed.review.report import build_report
from anonymed.service.review import ReviewSettings, create_review_app

CHROMIUM = Path(os.environ.get("ANONYMED_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "review"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HOSTILE = 'Seen by <img src=x onerror="window.pwned=1"> <b>Zebulon</b> on 02/12/2020.'

if not CHROMIUM.exists():
    # developers without Chromium skip this test; CI (.ci/run sets ANONYMED_REQUIRE_BROWSER=1) fails instead
    if os.environ.get("CI") or os.environ.get("ANONYMED_REQUIRE_BROWSER"):
        raise RuntimeError(f"{CHROMIUM} is missing: .ci/run installs the Debian chromium package")
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


@contextmanager
def served(folder: ReviewFolder) -> Iterator[str]:
    """The review app under uvicorn on a free loopback port, in a thread."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        create_review_app(ReviewSettings(folder.path)), log_level="warning", access_log=False
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    """System Chromium, headless, with no network chatter of its own."""
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, ReviewFolder]]:
    """A review folder of the small input, served on loopback."""
    folder = make_folder(tmp_path)
    with served(folder) as url:
        yield url, folder


@pytest.fixture
def hostile_site(tmp_path: Path) -> Iterator[str]:
    """A review folder whose note looks like HTML, served on loopback."""
    with served(make_folder(tmp_path, notes=[("x", HOSTILE), ("y", "Nothing here.")])) as url:
        yield url


@pytest.fixture
def page(browser: sync_api.Browser) -> Iterator[sync_api.Page]:
    """A fresh page; fails the test on any script error."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on(
        "console",
        lambda msg: (
            errors.append(msg.text)
            if msg.type == "error" and not msg.text.startswith("Failed to load resource")
            else None
        ),
    )
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    yield opened
    context.close()
    assert errors == []


def press_and_wait(page: sync_api.Page, key: str) -> None:
    """Press a navigation key and wait until the page shows another note."""
    before = page.locator("#position").inner_text()
    page.keyboard.press(key)
    sync_api.expect(page.locator("#position")).not_to_have_text(before)


def open_note(page: sync_api.Page, note_id: str) -> None:
    """Go back to the first note with [, then forward with ] until the note with this id is shown."""
    sync_api.expect(page.locator("#position")).to_contain_text(" of ")
    while not page.locator("#position").inner_text().startswith("note 1 of"):
        press_and_wait(page, "[")
    for _ in range(10):
        if f"(id {note_id})" in page.locator("#position").inner_text():
            return
        press_and_wait(page, "]")
    raise AssertionError(f"note {note_id} not reached")


def select_text(page: sync_api.Page, text: str) -> None:
    """Select ``text`` inside the note as a reviewer would with the mouse."""
    page.evaluate(
        """(wanted) => {
          const walker = document.createTreeWalker(document.getElementById("note"), NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) {
            const at = walker.currentNode.textContent.indexOf(wanted);
            if (at >= 0) {
              const range = document.createRange();
              range.setStart(walker.currentNode, at);
              range.setEnd(walker.currentNode, at + wanted.length);
              const selection = window.getSelection();
              selection.removeAllRanges();
              selection.addRange(range);
              return;
            }
          }
          throw new Error("text not found in the note");
        }""",
        text,
    )


def test_a_reviewer_marks_a_missed_name_reloads_and_the_report_counts_it(
    page: sync_api.Page, site: tuple[str, ReviewFolder]
) -> None:
    url, folder = site
    page.goto(url + "/")
    page.fill("#reviewer", "alice")
    page.click("#start")
    sync_api.expect(page.locator("#position")).to_contain_text("note 1 of 6")
    open_note(page, "n1")
    sync_api.expect(page.locator("#note mark.phi")).to_have_count(2)  # the date and the phone number

    select_text(page, PLANTED)
    page.keyboard.press("1")  # the first label: NAME
    missed = page.locator("#note mark.missed")
    sync_api.expect(missed).to_have_text(PLANTED)
    assert "NAME" in (missed.get_attribute("title") or "")
    page.locator("#note mark.phi").filter(has_text="617-555-0123").click()
    page.keyboard.press("r")  # reject the phone number
    sync_api.expect(page.locator("#note mark.rejected")).to_have_text("617-555-0123")
    page.keyboard.press("Enter")  # note done: on to the next open note
    sync_api.expect(page.locator("#progress")).to_contain_text("1 done by alice")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "review.png"), full_page=True)

    page.reload()  # the reviewer id is remembered; decisions come back from the server
    open_note(page, "n1")
    sync_api.expect(page.locator("#note mark.missed")).to_have_text(PLANTED)
    sync_api.expect(page.locator("#note mark.rejected")).to_have_text("617-555-0123")
    sync_api.expect(page.locator("#status")).to_have_text("done")

    report = build_report(folder)
    assert report["residual"]["overall"]["missed"] == 1
    assert report["residual"]["by_label"]["NAME"]["missed"] == 1
    assert report["progress"]["reviewed"] == 1 and report["progress"]["reviewers"] == ["alice"]
    assert report["precision"]["by_label"]["CONTACT"]["estimate"] == 0


def test_note_text_is_shown_as_text_never_run_as_html(page: sync_api.Page, hostile_site: str) -> None:
    page.goto(hostile_site + "/")
    page.fill("#reviewer", "alice")
    page.click("#start")
    open_note(page, "x")
    assert "<img src=x" in page.locator("#note").inner_text()
    assert page.locator("#note img, #note b").count() == 0
    assert page.evaluate("window.pwned") is None
