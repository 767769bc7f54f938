"""Panels that always answer (issue 36 item 3), in real Chromium: a 21 MB paste once left the
worker waiting for good (PyScript's channel to the page carries 16 MiB), and every panel with it.

Now text past the input bound (limits.MAX_FILE_BYTES, handed to the page by its Python) is refused
before it enters any field, with its size and the limit; a file over it is refused in every panel
that takes one; hostile pastes get their line; a read that fails clears the panel's busy state;
and after each, the next paste, typed at once with no pause, is answered. Waits are on the page's
state (`data-state`, `data-open`, body `data-pending`), never on a clock.
"""
from __future__ import annotations

import json

import pytest

from browser import ARTIFACTS, ROOT, booted
from toolproof.limits import MAX_FILE_BYTES

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

VALID = json.dumps([{"name": "get_weather", "description": "Current weather for a city.",
                     "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}])
LOADED = "1 tool loaded from Anthropic tools."
HUGE = 21_000_000                 # bytes: over the 20 MB bound
REFUSED = "text is 21.0 MB, over the 20 MB limit; the field was left as it was"
OWN_ANSWERED = ("document.body.dataset.pending === '0' && "
                "['ready', 'error', 'empty'].includes(document.getElementById('own').dataset.state) && "
                "!document.getElementById('own-message').textContent.startsWith('Reading')")


@pytest.fixture(scope="module")
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True,
                                  permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(server)
    booted(page)
    page.evaluate("localStorage.clear()")
    # every line #own-message shows, in order: a refusal followed at once by an answer is seen
    page.evaluate("""() => {
        window.__ownLines = [];
        new MutationObserver(records => { for (const r of records) for (const n of r.addedNodes)
                                              window.__ownLines.push(n.textContent); })
            .observe(document.getElementById('own-message'), {childList: true});
    }""")
    yield page
    context.close()


def paste(page, selector: str, text: str) -> None:
    """A real paste (the clipboard, then Ctrl+V in the field), not waited on."""
    page.evaluate("text => navigator.clipboard.writeText(text)", text)
    page.locator(selector).focus()
    page.keyboard.press("Control+V")


MARK = "<- the test clicked here"


def mark(page) -> None:
    """Note in the line log where the test acts, so an answer from before cannot pass for the next."""
    page.evaluate("mark => window.__ownLines.push(mark)", MARK)


def lines_shown(page) -> list[str]:
    return [line for line in page.evaluate("window.__ownLines") if line != MARK]


def type_valid_and_load(page) -> None:
    """The valid paste right after, with no pause: select what the box holds, type over it, Load."""
    mark(page)
    page.locator("#own-paste").focus()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(VALID)
    page.click("#own-paste-load")


def answered(page, expected: str = LOADED) -> str:
    """Wait until the paste box's section has answered with `expected` since the test's last mark
    (its last line, every handler done), and return that line; fail with every line it showed if
    it never does."""
    from playwright.sync_api import TimeoutError as Timeout

    try:
        page.wait_for_function(f"""([line, mark]) => {{
            const lines = window.__ownLines, since = lines.lastIndexOf(mark);
            return since >= 0 && since < lines.length - 1 && lines.at(-1) === line && {OWN_ANSWERED}; }}""",
                               arg=[expected, MARK], timeout=120_000)
    except Timeout:
        raise AssertionError(f"never answered {expected!r}: {page.evaluate('window.__ownLines')}") from None
    return page.text_content("#own-message")


def test_the_page_is_told_the_bound_by_its_python(page):
    assert page.evaluate("document.body.dataset.maxInputBytes") == str(MAX_FILE_BYTES)
    boot = (ROOT / "web" / "boot.mjs").read_text(encoding="utf-8")
    assert str(MAX_FILE_BYTES) not in boot and "20_000_000" not in boot and "2e7" not in boot


def test_a_21_mb_paste_is_refused_at_once_and_the_next_paste_is_answered(page):
    page.evaluate("window.__ownLines = []")
    paste(page, "#own-paste", "x" * HUGE)
    type_valid_and_load(page)                        # no wait between the two
    assert answered(page) == LOADED
    lines = lines_shown(page)
    assert f"pasted tools: {REFUSED}" in lines, lines
    assert page.get_attribute("#own", "data-state") == "ready"
    assert page.input_value("#own-paste") == VALID   # the refused text never entered the field
    page.locator("#own").screenshot(path=str(ARTIFACTS / "inputs-own-refused-then-loaded.png"))
    assert page.errors == []


def set_field(page, selector: str, js_text: str) -> None:
    """A value no keyboard could type (a lone surrogate), or one put there past the paste guard,
    as a script or an extension could: the page's own read must still answer."""
    page.evaluate(f"() => {{ const f = document.querySelector({json.dumps(selector)}); f.value = {js_text}; }}")


HOSTILE = [
    ("deep", '"[".repeat(100000) + "]".repeat(100000)', "pasted tools: text nested deeper than 64 levels"),
    ("nan", '\'[{"name": "a", "description": NaN, "input_schema": {"type": "object"}}]\'',
     "pasted tools: NaN is not JSON"),
    ("lone-surrogate", '\'[{"name": "a\\ud800", "description": "d", "input_schema": {"type": "object"}}]\'',
     "pasted tools: string with a lone surrogate (not Unicode text)"),
    # past the paste guard (a script put it there): measured by the page, none of it sent
    ("over-the-bound", f'"x".repeat({HUGE})', "pasted tools: text is 21.0 MB, over the 20 MB limit"),
    # under the bound but over what one synchronous trip carries: read without one
    ("bigger-than-one-trip", '" ".repeat(17000000) + "[]"', "pasted tools: at $: no tools: the list is empty"),
]


@pytest.mark.parametrize("name, js_text, said", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_paste_gets_its_line_and_the_next_paste_is_answered(page, name, js_text, said):
    page.click("#own-clear")
    page.evaluate("window.__ownLines = []")
    set_field(page, "#own-paste", js_text)
    page.click("#own-paste-load")        # returns once the click is handled, not once it is answered
    type_valid_and_load(page)
    assert answered(page) == LOADED
    lines = lines_shown(page)
    assert lines[-3:] == [said, "Reading pasted tools…", LOADED], lines
    assert page.errors == []


@pytest.mark.parametrize("field, line_at, said", [
    ("#headers", "#run-message", f"headers: {REFUSED}"),
    ("#case-prompt", "#case-error", f"prompt: {REFUSED}"),
    ("#case-phrasings", "#case-error", f"phrasings: {REFUSED}"),
])
def test_every_field_refuses_text_over_the_bound(page, field, line_at, said):
    page.evaluate("document.getElementById('advanced').open = true")
    page.evaluate("s => document.querySelector(s).textContent = ''", line_at)
    paste(page, field, "y" * HUGE)
    page.wait_for_function(f"document.querySelector({json.dumps(line_at)}).textContent.includes('left as it was')",
                           timeout=60_000)
    assert page.text_content(line_at) == said
    assert page.input_value(field) == ""
    type_valid_and_load(page)                         # and the page answers the next thing at once
    assert answered(page) == LOADED


@pytest.mark.parametrize("field, line_at, state", [
    ("#own-suite", "#own-message", None),
    ("#compare-a", "#compare-message", None),
    ("#board-files", "#board-message", None),
    ("#open-results", "#runs-message", ("#kept", "data-open", "error")),
])
def test_a_file_over_the_bound_is_refused_in_every_panel(page, field, line_at, state):
    page.evaluate("s => document.querySelector(s).textContent = ''", line_at)
    page.set_input_files(field, files=[{"name": "huge.json", "mimeType": "application/json",
                                        "buffer": b" " * HUGE}])
    page.wait_for_function(f"document.querySelector({json.dumps(line_at)}).textContent.includes('huge.json')",
                           timeout=60_000)
    assert page.text_content(line_at) == "huge.json: file is 21.0 MB, over the 20 MB limit"
    if state:
        assert page.get_attribute(state[0], state[1]) == state[2]


def test_a_read_that_fails_clears_the_busy_state_and_says_why(page):
    # the paste box's reader and every file's text() reject, as a browser out of memory would
    page.evaluate("""() => {
        window.__fieldText = window.toolproofFieldText;
        window.toolproofFieldText = async () => { throw new Error("the tab ran out of memory"); };
        window.__blobText = Blob.prototype.text;
        Blob.prototype.text = () => Promise.reject(new Error("the file went away"));
    }""")
    try:
        mark(page)
        page.click("#own-paste-load")
        assert answered(page, "the browser said: Error: the tab ran out of memory")
        assert page.get_attribute("#own", "data-state") == "error"
        page.evaluate("document.getElementById('kept').dataset.open = ''")
        page.set_input_files("#open-results", files=[{"name": "run.json", "mimeType": "application/json",
                                                      "buffer": b"{}"}])
        page.wait_for_function("document.getElementById('kept').dataset.open === 'error'", timeout=60_000)
        assert page.text_content("#runs-message") == "the browser said: Error: the file went away"
        page.evaluate("document.getElementById('compare').dataset.compare = ''")
        page.set_input_files("#compare-a", files=[{"name": "a.json", "mimeType": "application/json", "buffer": b"{}"}])
        page.wait_for_function("document.getElementById('compare').dataset.compare === 'error'", timeout=60_000)
        assert page.text_content("#compare-message") == "the browser said: Error: the file went away"
    finally:
        page.evaluate("() => { window.toolproofFieldText = window.__fieldText; Blob.prototype.text = window.__blobText; }")
    type_valid_and_load(page)
    assert answered(page) == LOADED


def test_an_answer_too_big_for_one_trip_is_refused_not_waited_for(page):
    # put there past the paste guard (under the bound, over what one trip to the worker carries)
    set_field(page, "#case-prompt", '"z".repeat(17000000)')
    page.evaluate("document.getElementById('case-error').textContent = ''")
    page.click("#add-case")
    page.wait_for_function("document.getElementById('case-error').textContent.length > 0", timeout=60_000)
    assert page.text_content("#case-error") == (
        "case: the browser said: Error: the page's answer is 17000000 bytes, more than one trip to the "
        "worker carries (15728640 bytes)")
    set_field(page, "#case-prompt", '""')
    type_valid_and_load(page)                         # the worker is not waiting on anything
    assert answered(page) == LOADED
