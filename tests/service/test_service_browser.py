"""End to end in headless Chromium (Debian's, driven by Playwright): paste, run, see highlights and output."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright import sync_api
from service_support import NOTE, PLANTED

from anonymed.service import ServiceSettings, create_app

CHROMIUM = Path(os.environ.get("ANONYMED_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "service"
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

if not CHROMIUM.exists():
    # developers without Chromium skip this test; CI (.ci/run sets ANONYMED_REQUIRE_BROWSER=1) fails instead
    if os.environ.get("CI") or os.environ.get("ANONYMED_REQUIRE_BROWSER"):
        raise RuntimeError(f"{CHROMIUM} is missing: .ci/run installs the Debian chromium package")
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """The app under uvicorn on a free loopback port, in a thread."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        create_app(ServiceSettings(languages=("en",))), log_level="warning", access_log=False
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
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
def page(browser: sync_api.Browser, base_url: str) -> Iterator[sync_api.Page]:
    """The page, loaded, with the server's offer fetched; fails the test on any script error."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, accept_downloads=True)
    opened = context.new_page()
    errors: list[str] = []
    # HTTP error statuses are logged by Chromium as console errors; the tests check those themselves
    opened.on(
        "console",
        lambda msg: (
            errors.append(msg.text)
            if msg.type == "error" and not msg.text.startswith("Failed to load resource")
            else None
        ),
    )
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    opened.goto(base_url + "/")
    sync_api.expect(opened.locator("#server")).to_contain_text("anonymed")
    yield opened
    context.close()
    assert errors == []


def test_paste_run_and_see_highlights_beside_the_output(page: sync_api.Page, tmp_path: Path) -> None:
    page.fill("#note", NOTE)
    page.select_option("#op-DATE", "dp_date")
    page.fill("#epsilon", "1")
    page.click("#run")
    sync_api.expect(page.locator("#results")).to_be_visible()

    marks = page.locator("#original mark.phi")
    assert marks.count() >= 4
    texts = marks.all_text_contents()
    assert any(PLANTED in text for text in texts)
    name = page.locator("#original mark.lab-NAME").filter(has_text=PLANTED)
    title = name.get_attribute("title") or ""
    assert title.startswith("NAME") and "score" in title
    sync_api.expect(page.locator("#legend")).to_contain_text("NAME")
    output = page.locator("#output").inner_text()
    assert PLANTED not in output and "Calvert" not in output
    assert page.locator("#output mark.surrogate").count() == marks.count()
    sync_api.expect(page.locator("#privacy")).to_be_visible()
    sync_api.expect(page.locator("#privacy-summary")).to_contain_text("epsilon_spent")

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "deid.png"), full_page=True)

    with page.expect_download() as download:
        page.click("#download")
    saved = tmp_path / "result.json"
    download.value.save_as(saved)
    payload = json.loads(saved.read_text(encoding="utf-8"))
    assert payload["result"]["output"] == output and payload["parameters"]["operators"] == {"DATE": "dp_date"}


def test_word_substitution_shows_the_whole_text_replaced(page: sync_api.Page) -> None:
    page.fill("#note", NOTE)
    page.select_option("#method", "words")
    sync_api.expect(page.locator("#replace-params")).to_be_hidden()
    page.fill("#n", "3-6")
    page.click("#run")
    sync_api.expect(page.locator("#results")).to_be_visible()
    output = page.locator("#output").inner_text()
    assert len(output.split()) == len(NOTE.split()) and "Seen by Dr." not in output
    page.screenshot(path=str(ARTIFACTS / "words.png"), full_page=True)


def test_note_text_is_shown_as_text_never_run_as_html(page: sync_api.Page) -> None:
    hostile = 'Seen by <img src=x onerror="window.pwned=1"> <b>Zebulon</b> on 02/12/2020.'
    page.fill("#note", hostile)
    page.click("#run")
    sync_api.expect(page.locator("#results")).to_be_visible()
    assert page.locator("#original img, #original b, #output img").count() == 0
    assert "<img src=x" in page.locator("#original").inner_text()
    assert page.evaluate("window.pwned") is None


def test_unavailable_methods_are_disabled_with_their_reason(page: sync_api.Page) -> None:
    option = page.locator("#method option[value='sentences']")
    assert option.is_disabled() and "sentence substitution" in (option.get_attribute("title") or "")


def test_server_errors_are_shown_to_the_user(page: sync_api.Page) -> None:
    page.fill("#note", NOTE)
    page.select_option("#method", "words")
    page.fill("#n", "1")  # the degree must be at least 2
    page.click("#run")
    sync_api.expect(page.locator("#message")).to_contain_text("Error 422")
    sync_api.expect(page.locator("#message")).to_contain_text("degree of obfuscation")


def test_the_record_s_known_identifiers_and_the_lists_are_used_and_not_downloaded(
    page: sync_api.Page, tmp_path: Path
) -> None:
    page.fill("#note", "Discussed per quackenbush; Babinski sign negative; moved to CHU Nord.")
    page.fill("#known", f"NAME/patient: {PLANTED}\nID/mrn: 4482913")
    page.fill("#allow", "Babinski")
    page.fill("#deny", "LOCATION/hospital: CHU Nord")
    page.click("#run")
    sync_api.expect(page.locator("#results")).to_be_visible()
    marks = page.locator("#original mark.phi").all_text_contents()
    assert "quackenbush" in marks and "CHU Nord" in marks and "Babinski" not in marks
    assert "quackenbush" not in page.locator("#output").inner_text()
    page.screenshot(path=str(ARTIFACTS / "site.png"), full_page=True)
    with page.expect_download() as download:
        page.click("#download")
    saved = tmp_path / "result.json"
    download.value.save_as(saved)
    content = saved.read_text(encoding="utf-8")
    assert PLANTED not in content and "4482913" not in content
    assert json.loads(content)["parameters"]["known"] == "2 identifiers (not saved)"


def test_a_deny_line_without_a_label_is_refused_with_the_reason(page: sync_api.Page) -> None:
    page.fill("#note", NOTE)
    page.fill("#deny", "CHU Nord")
    page.click("#run")
    sync_api.expect(page.locator("#message")).to_contain_text("Error 422")
    sync_api.expect(page.locator("#message")).to_contain_text("deny entry 1 has no label")
