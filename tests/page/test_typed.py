"""What the user typed wins (issue 37, item 1): the worker answers an event later, sometimes
seconds later, and must never overwrite what the user typed since. A scripted user changes
provider, model, key, scope and cap with no pause between actions (not even the wait for the
worker that every other browser test makes after an action), 20 times in a row, under two busy
loops; then the same on return visits, typing while Python starts. The page's rule itself
(web/boot.mjs: "fill", "default") is checked op by op, including an op that names a property no
write may set."""
from __future__ import annotations

import json

import pytest

from browser import PAGE_FILES, READY_TIMEOUT_MS, booted, busy_loops, settled
from routed import wait_until

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")

ROUNDS = 20
PROVIDERS = ("anthropic", "openai-responses", "openai", "gemini")
SCOPES = ("injection", "multi_step", "all", "should_call")
HOSTILE = '<img src=x onerror="alert(1)">'


@pytest.fixture
def busy():
    """Two busy loops beside the browser for the test's length (the issue's "load 7-10" machine:
    the worker answers late, so a fast user's next action lands before its write). Per test, not
    per module: the tests that do not ask for them, and the rest of the suite beside, run unloaded."""
    with busy_loops():
        yield


def raw(page, name: str):
    """A Page action that returns at once, as a user's next keystroke follows: tests/browser.py
    makes every action wait until the page's Python has answered it, which would hide the race."""
    action = getattr(sync_api.Page, name)
    action = action.__kwdefaults__["_action"] if getattr(action, "settles", False) else action
    return lambda *args, **kw: action(page, *args, **kw)


def fast_user(page, provider: str, model: str, key: str, scope: str | None, cap: str) -> None:
    select, fill = raw(page, "select_option"), raw(page, "fill")
    select("#provider", provider)
    fill("#model", model)
    fill("#api-key", key)
    if scope is not None:
        select("#scope", scope)
    fill("#cap", cap)


def form(page) -> dict:
    return page.evaluate("""() => Object.fromEntries(['provider', 'model', 'api-key', 'scope', 'cap', 'base-url']
        .map(id => [id, document.getElementById(id).value]))""")


def stored_key(page, provider: str):
    return page.evaluate(f"sessionStorage.getItem('toolproof.key.{provider}')")


def open_ready(context, server: str):
    page = context.new_page()
    page.goto(server)
    booted(page)
    return page


def test_a_fast_user_under_load_gets_what_they_typed_20_times_in_a_row(browser, server, busy):
    context = browser.new_context()
    page = open_ready(context, server)
    wrong = []
    for n in range(ROUNDS):
        provider, scope = PROVIDERS[n % len(PROVIDERS)], SCOPES[n % len(SCOPES)]
        typed = {"provider": provider, "model": f"model-{n} {HOSTILE}", "api-key": f"sk-typed-{n}",
                 "scope": scope, "cap": str(3 + n)}
        fast_user(page, provider, typed["model"], typed["api-key"], scope, typed["cap"])
        settled(page)
        shown = form(page)
        got = {name: shown[name] for name in typed}
        if got != typed or stored_key(page, provider) != typed["api-key"]:
            wrong.append((n, got, stored_key(page, provider)))
    assert wrong == [], f"{len(wrong)} of {ROUNDS} rounds lost what was typed: {wrong[:3]}"
    kept = json.loads(page.evaluate("localStorage.getItem('toolproof.form')"))
    assert (kept["provider"], kept["model"], kept["cap"]) == (provider, typed["model"], typed["cap"])
    assert page.locator("#run-form img").count() == 0          # typed markup stays text
    context.close()


VISITS = 6          # return visits, every other one with boot.mjs held back until the typing is done
KEPT = {"provider": "anthropic", "model": "kept-model", "scope": "injection", "cap": "5",
        "base-url": "", "repeats": "1"}


def test_a_return_visit_keeps_what_was_typed_while_python_starts(browser, server, busy):
    """The saved form comes back only into fields the user left alone while Python started; what
    they typed is kept (the key in the tab, the form in localStorage) as if typed after. Every
    other visit types before web/boot.mjs has even arrived (3 of 20 lost the key and the cap
    under CI's load when only boot.mjs stamped the user's changes). Holding boot.mjs back makes
    that race certain (the old code lost the typing on every held visit), so six visits, three
    held, prove what twenty random ones did at a third of the time (each visit starts Python)."""
    context = browser.new_context()
    first = open_ready(context, server)
    first.evaluate(f"localStorage.setItem('toolproof.form', {json.dumps(json.dumps(KEPT))})")
    first.close()
    wrong = []
    for n in range(VISITS):
        page = context.new_page()
        held, boot = [], []
        page.route(PAGE_FILES, lambda route: held.append(route))
        if n % 2:                       # boot.mjs late too (a busy machine): the typing lands first
            page.route("**/web/boot.mjs", lambda route: boot.append(route))
        page.goto(server, wait_until="commit")
        page.wait_for_selector("#model", state="visible", timeout=READY_TIMEOUT_MS)
        provider = PROVIDERS[1 + n % (len(PROVIDERS) - 1)]          # never the kept one
        typed = {"provider": provider, "model": f"typed-{n}", "api-key": f"sk-boot-{n}", "cap": str(7 + n)}
        fast_user(page, provider, typed["model"], typed["api-key"], None, typed["cap"])
        assert page.evaluate("document.body.dataset.ready") == "false"      # typed while Python starts
        if n % 2:
            wait_until(page, lambda: boot, "the page asking for web/boot.mjs")
        for route in boot:
            route.continue_()
        wait_until(page, lambda: held, "the worker asking for the page's files")
        for route in held:
            route.continue_()
        booted(page)
        settled(page)
        shown = form(page)
        got = {name: shown[name] for name in typed}
        kept = json.loads(page.evaluate("localStorage.getItem('toolproof.form')"))
        if (got != typed or shown["scope"] != KEPT["scope"] or stored_key(page, provider) != typed["api-key"]
                or kept["model"] != typed["model"]):
            wrong.append((n, shown, stored_key(page, provider)))
        page.evaluate(f"localStorage.setItem('toolproof.form', {json.dumps(json.dumps(KEPT))})")
        page.close()
    assert wrong == [], f"{len(wrong)} of {VISITS} visits lost what was typed: {wrong[:3]}"
    context.close()


def test_the_kept_form_still_comes_back_into_untouched_fields(browser, server):
    context = browser.new_context()
    first = open_ready(context, server)
    first.evaluate(f"localStorage.setItem('toolproof.form', {json.dumps(json.dumps(KEPT))})")
    page = open_ready(context, server)
    shown = form(page)
    assert {name: shown[name] for name in ("provider", "model", "scope", "cap")} == {
        "provider": "anthropic", "model": "kept-model", "scope": "injection", "cap": "5"}
    context.close()


def test_the_cap_follows_the_scope_only_while_it_holds_the_need(browser, server):
    from livepage import NEED

    context = browser.new_context()
    page = open_ready(context, server)
    page.select_option("#scope", "injection")
    assert page.input_value("#cap") == str(NEED["injection"])
    page.select_option("#scope", "multi_step")                 # still the default: it follows
    assert page.input_value("#cap") == str(NEED["multi_step"])
    page.fill("#cap", "4")
    page.select_option("#scope", "should_call")                # the user's cap stays
    assert page.input_value("#cap") == "4"
    assert page.get_attribute("#cap", "max") == str(3 * NEED["should_call"])     # the bound still follows
    page.fill("#cap", str(NEED["should_call"]))                # set back to the need: it follows again
    page.select_option("#scope", "injection")
    assert page.input_value("#cap") == str(NEED["injection"])
    context.close()


def test_the_key_of_the_new_provider_comes_in_unless_one_was_typed_after(browser, server):
    context = browser.new_context()
    page = open_ready(context, server)
    page.select_option("#provider", "anthropic")
    page.fill("#api-key", "sk-ant-kept")
    page.select_option("#provider", "openai")                   # a key typed before the change goes
    assert page.input_value("#api-key") == ""
    page.select_option("#provider", "anthropic")                # the new provider's own key comes in
    assert page.input_value("#api-key") == "sk-ant-kept"
    context.close()


OPS = "ops => window.toolproofOps(JSON.stringify(ops))"
USER_TYPES = """([id, text]) => { const f = document.getElementById(id); f.value = text;
    f.dispatchEvent(new Event('input', {bubbles: true})); }"""


def test_the_page_applies_a_fill_only_where_the_user_has_not_typed_since(browser, server):
    context = browser.new_context()
    page = open_ready(context, server)
    page.evaluate(USER_TYPES, ["model", "mine"])
    settled(page)
    page.evaluate(OPS, [["fill", {"id": "model"}, "value", "theirs", 0]])         # typed after stamp 0
    assert page.input_value("#model") == "mine"
    page.evaluate(OPS, [["fill", {"id": "model"}, "value", "theirs", 10 ** 9]])   # answers a later event
    assert page.input_value("#model") == "theirs"
    page.evaluate(OPS, [["fill", {"id": "base-url"}, "value", "http://x", 0]])     # never typed into
    assert page.input_value("#base-url") == "http://x"
    # a default replaces only the last default, and a value the user gave stays
    page.evaluate(OPS, [["default", {"id": "temperature"}, "0.3", 0]])
    page.evaluate(OPS, [["default", {"id": "temperature"}, "0.4", 0]])
    assert page.input_value("#temperature") == "0.4"
    page.evaluate(USER_TYPES, ["temperature", "0.9"])
    settled(page)
    page.evaluate(OPS, [["default", {"id": "temperature"}, "0.5", 10 ** 9]])
    assert page.input_value("#temperature") == "0.9"
    context.close()


def test_a_hostile_or_misdirected_fill_is_refused(browser, server):
    context = browser.new_context()
    page = open_ready(context, server)
    for op in (["fill", {"id": "model"}, "innerHTML", "<b>x</b>", 10 ** 9],
               ["fill", {"id": "model"}, "onclick", "alert(1)", 10 ** 9],
               ["fill", {"id": "no-such-field"}, "value", "x", 0]):
        with pytest.raises(sync_api.Error, match="refused property|no page element"):
            page.evaluate(OPS, [op])
    assert page.locator("#run-form b").count() == 0 and page.input_value("#model") == ""
    assert page.evaluate("document.getElementById('model').onclick") is None
    context.close()


SHOP = [{"name": "search_orders", "description": "Find a customer's orders by email.",
         "input_schema": {"type": "object", "properties": {"email": {"type": "string", "description": "email"}},
                          "required": ["email"]}}]


# A click and typing in one task of the page: the worker cannot answer the click in between, so
# its writes always come after what was typed (the fastest user there is).
CLICK_THEN_TYPE = """([button, id, text]) => { document.querySelector(button).click();
    const f = document.getElementById(id); f.value = text; f.dispatchEvent(new Event('input', {bubbles: true})); }"""


def editor_with_first_case(context, server):
    """A ready page whose case editor has the shop's tools and a first case typed, not yet added."""
    page = open_ready(context, server)
    page.evaluate("localStorage.clear()")
    page.fill("#own-paste", json.dumps(SHOP))
    page.click("#own-paste-load")
    page.wait_for_function("document.querySelector('#own').dataset.state === 'ready'")
    page.select_option("#case-category", "should_not_call")
    page.fill("#case-id", "first")
    page.fill("#case-prompt", "What time is it?")
    return page


def test_the_case_editor_keeps_what_was_typed_after_edit_or_cancel(browser, server, busy):
    """Edit fills the form with the case, Cancel empties it: both only where the user has not
    typed since the click."""
    context = browser.new_context()
    page = editor_with_first_case(context, server)
    page.click("#add-case")
    # Edit fills the form with the case, except the prompt typed after the click
    page.evaluate(CLICK_THEN_TYPE, ["#own-cases .case-edit", "case-prompt", f"typed after Edit {HOSTILE}"])
    settled(page)
    assert (page.input_value("#case-id"), page.input_value("#case-prompt")) == ("first", f"typed after Edit {HOSTILE}")
    # Cancel empties the form, except the id typed after the click
    page.evaluate(CLICK_THEN_TYPE, ["#case-cancel", "case-id", "second"])
    settled(page)
    assert (page.input_value("#case-id"), page.input_value("#case-prompt")) == ("second", "")
    assert page.is_hidden("#case-cancel") and page.locator("#case-form img").count() == 0
    context.close()


# Reads see the form as it was when the event fired (web/boot.mjs sends it with the event): the
# worker may answer after the user has moved on, and must act on what the user had entered then.

def test_a_key_is_kept_under_the_provider_shown_when_it_was_typed(browser, server, busy):
    """Anthropic, its key, OpenAI at once: the key is Anthropic's, never sent to OpenAI. Also with
    a field too big to travel with the event (that one is read live, nothing else changes)."""
    context = browser.new_context()
    page = open_ready(context, server)
    select, fill = raw(page, "select_option"), raw(page, "fill")
    wrong = []
    for n in range(8):
        page.select_option("#provider", "gemini")
        page.evaluate("sessionStorage.clear()")
        if n == 7:                                       # over the 64 KB a snapshot carries
            page.evaluate("document.getElementById('advanced').open = true")
            page.fill("#headers", "x" * 70_000)
        select("#provider", "anthropic")
        fill("#api-key", f"sk-ant-{n}")
        select("#provider", "openai")
        settled(page)
        if (stored_key(page, "anthropic"), stored_key(page, "openai"), page.input_value("#api-key")) != (
                f"sk-ant-{n}", None, ""):
            wrong.append((n, form(page), stored_key(page, "openai")))
    assert wrong == [], f"{len(wrong)} of 8 keys went to the wrong provider: {wrong[:3]}"
    context.close()


def test_add_case_adds_the_case_as_it_was_when_clicked(browser, server, busy):
    context = browser.new_context()
    page = editor_with_first_case(context, server)
    page.evaluate(CLICK_THEN_TYPE, ["#add-case", "case-id", "second"])
    settled(page)
    listed = page.text_content("#own-cases")
    assert "first" in listed and "second" not in listed
    assert page.input_value("#case-id") == "second"             # typed after the click: kept
    context.close()


def return_visit(context, server, kept: dict, typing) -> "sync_api.Page":
    """A visit with `kept` as the saved form, `typing(page)` done while Python starts."""
    context.pages[0].evaluate(f"localStorage.setItem('toolproof.form', {json.dumps(json.dumps(kept))})")
    context.pages[0].evaluate("sessionStorage.clear()")
    page = context.new_page()
    held = []
    page.route(PAGE_FILES, lambda route: held.append(route))
    page.goto(server, wait_until="commit")
    page.wait_for_selector("#model", state="visible", timeout=READY_TIMEOUT_MS)
    typing(page)
    assert page.evaluate("document.body.dataset.ready") == "false"
    wait_until(page, lambda: held, "the worker asking for the page's files")
    for route in held:
        route.continue_()
    booted(page)
    settled(page)
    return page


def test_a_kept_cap_at_its_default_follows_the_scope_on_a_return_visit(browser, server):
    from livepage import NEED

    context = browser.new_context()
    first = open_ready(context, server)
    first.select_option("#scope", "injection")                  # the cap at its default, kept so
    kept = json.loads(first.evaluate("localStorage.getItem('toolproof.form')"))
    assert kept["cap"] == "" and kept["scope"] == "injection"

    def repeats_3(page):
        page.evaluate("document.getElementById('advanced').open = true")
        raw(page, "fill")("#repeats", "3")

    page = return_visit(context, server, kept, repeats_3)
    assert (page.input_value("#repeats"), page.input_value("#cap")) == ("3", str(3 * NEED["injection"]))
    page.select_option("#scope", "multi_step")                  # and it still follows
    assert page.input_value("#cap") == str(3 * NEED["multi_step"])
    context.close()


def test_a_key_typed_while_python_starts_keeps_the_provider_shown(browser, server):
    context = browser.new_context()
    open_ready(context, server)
    page = return_visit(context, server, dict(KEPT, model="claude-kept"),
                        lambda page: raw(page, "fill")("#api-key", "sk-proj-typed"))
    shown = form(page)
    assert (shown["provider"], shown["api-key"], shown["model"]) == ("openai", "sk-proj-typed", "")
    assert (stored_key(page, "openai"), stored_key(page, "anthropic")) == ("sk-proj-typed", None)
    assert shown["scope"] == KEPT["scope"]                      # the rest of the kept form comes back
    context.close()
