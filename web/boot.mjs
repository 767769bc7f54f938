// Before Python runs: if the runtime cannot start (vendor/ missing, a file refused), say so in
// the page instead of spinning forever. Text only; never HTML.
const box = () => document.getElementById("boot-error");
// Every URL the page loads is relative to it, so the hint covers both ways of running it.
const HINT = ' From a checkout, start the page with "python serve.py" (it fetches vendor/); on a ' +
  'static host, publish the whole folder that "python serve.py --bundle DIR" writes.';

function fail(message) {
  if (document.body.dataset.ready === "true") return;
  const node = box();
  if (!node) return;
  node.textContent = `ToolProof could not start: ${message}`;
  node.hidden = false;
  document.body.dataset.ready = "error";
}

window.addEventListener("error", (event) => {
  const target = event.target;
  if (target && target !== window && (target.src || target.href)) {
    fail(`could not load ${target.src || target.href}.${HINT}`);
  }
}, true);

window.addEventListener("unhandledrejection", (event) => {
  const reason = event.reason && (event.reason.message || String(event.reason));
  if (!reason) return;
  fail(reason + (reason.includes("/vendor/") ? `.${HINT}` : ""));
});

// The page's Python runs in a worker (toolproof/page/dom.py). It sends each new piece of the page
// here as one JSON message, and this builds it with createElement, setAttribute and textContent:
// never HTML. Attribute names starting with "on" and any property outside PROPS are refused, so
// no text can become script.
const PROPS = new Set(["className", "id", "value", "hidden", "disabled", "checked", "selected", "title", "open"]);
const made = new Map();                     // a built node's id -> WeakRef, while the node lives
const forget = new FinalizationRegistry((id) => made.delete(id));

// body[data-pending]: how many Python handlers are still running (tests wait for "0" after an
// action, since the worker answers an event after the browser has dispatched it).
let pending = 0;
function listen(node, type, handler) {
  node.addEventListener(type, (event) => {
    document.body.dataset.pending = String(++pending);
    Promise.resolve(window.toolproofDispatch(handler, event)).finally(() => {
      document.body.dataset.pending = String(--pending);
    });
  });
}

function build(spec) {
  if (typeof spec === "string") return document.createTextNode(spec);
  if (!Array.isArray(spec)) return made.get(spec.ref)?.deref();     // built before: moved here
  const [id, tag, ns, props, attrs, kids, events] = spec;
  const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (/^on/i.test(name)) throw new Error(`refused attribute ${JSON.stringify(name)}`);
    node.setAttribute(name, value);
  }
  for (const [name, value] of Object.entries(props)) {
    if (!PROPS.has(name)) throw new Error(`refused property ${JSON.stringify(name)}`);
    node[name] = value;
  }
  for (const kid of kids) node.appendChild(build(kid));
  for (const [type, handler] of events) listen(node, type, handler);
  made.set(id, new WeakRef(node));
  forget.register(node, id);
  return node;
}

window.toolproofBuild = (text) => build(JSON.parse(text));
window.toolproofFind = (id) => made.get(id)?.deref() ?? null;
window.toolproofListenAll = (...triples) => {
  for (let i = 0; i + 2 < triples.length; i += 3) listen(triples[i], triples[i + 1], triples[i + 2]);
};
const STAGES = ["runtime", "packages", "suite", "grade"];
window.toolproofStage = (stage, text) => {
  document.body.dataset.stage = stage;
  document.getElementById("boot-stage").textContent = text;
  for (const item of document.querySelectorAll("#boot .stages li")) {
    const mine = STAGES.indexOf(item.dataset.stage), now = STAGES.indexOf(stage);
    item.className = mine < now ? "done" : mine === now ? "active" : "";
  }
};
window.toolproofAppend = (parent, text) => {
  for (const spec of JSON.parse(text)) parent.appendChild(build(spec));
};

// The page's Python needs cross-origin isolation (SharedArrayBuffer) to reach the page from its
// worker. `python serve.py` sends the headers; on a static host ../sw.js adds them, from the
// page's next load: register it, reload once, and only then start PyScript.
const RELOADED = "toolproof.isolation-reload";      // sessionStorage: one reload per tab, no loop

async function isolate() {
  if (crossOriginIsolated) {
    sessionStorage.removeItem(RELOADED);
    await import("../vendor/pyscript/core.js");
    return;
  }
  if (!("serviceWorker" in navigator) || !isSecureContext) {
    fail("this browser cannot run the page's Python off the main thread here: it needs a secure " +
         "address (https:// or http://localhost) with service workers, or a server that sends the " +
         `cross-origin isolation headers as "python serve.py" does.${HINT}`);
    return;
  }
  if (sessionStorage.getItem(RELOADED)) {
    sessionStorage.removeItem(RELOADED);
    fail("the page is still not cross-origin isolated after installing its service worker (sw.js); " +
         `the host may block it, or the browser may have service workers turned off.${HINT}`);
    return;
  }
  await navigator.serviceWorker.register(new URL("../sw.js", import.meta.url));
  await navigator.serviceWorker.ready;
  sessionStorage.setItem(RELOADED, "1");
  location.reload();
}

isolate().catch((error) => fail(`could not start: ${error.message || error}.${HINT}`));
