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

// The page's Python runs in a worker (toolproof/page/dom.py). It queues its writes to the page and
// sends them here as one JSON message (window.toolproofOps), with at most one read at the end: new
// pieces are built with createElement, setAttribute and textContent, never HTML. Attribute names
// starting with "on", and properties or methods outside the lists below, are refused, so no text
// can become script.
const PROPS = new Set(["className", "id", "value", "hidden", "disabled", "checked", "selected", "title", "open"]);
const WRITABLE = new Set([...PROPS, "textContent", "selectedIndex", "scrollTop", "scrollLeft", "indeterminate"]);
const METHODS = new Set(["focus", "blur", "click", "scrollIntoView", "getAttribute", "hasAttribute",
                         "closest", "querySelector", "item", "select"]);
const made = new Map();                     // a built node's id -> WeakRef, while the node lives
const forget = new FinalizationRegistry((id) => made.delete(id));

// What the user typed wins. Every change the user makes to a field is stamped by web/edits.js,
// from the page's first moment (a classic script in <head>: no field exists before it runs). The
// worker writes a field the user can type into with "fill" or "default", naming the stamp of the
// event it answers ("since"; 0 outside any event, e.g. the saved form restored at start-up): the
// write is skipped when the user has changed the field after that, checked here on the main thread
// at the moment it would apply.
const edits = window.toolproofEdits ?? { count: () => 0, at: () => undefined };
if (!window.toolproofEdits) fail(`web/edits.js did not run.${HINT}`);
const defaults = new WeakMap();             // field -> the value the worker last wrote as its default
const changedSince = (node, since) => (edits.at(node) ?? 0) > since;

// "fill": the property unless the user changed the field after `since`.
function fill(node, name, value, since) {
  if (!WRITABLE.has(name)) refuse("property", name);
  if (!changedSince(node, since)) keepingSelection(node, () => { node[name] = value; });
}

// A field the user is in with all of its text selected (about to replace it: a paste, select-all
// then type, Playwright's fill) gets the new text selected too, so what they type next replaces
// it; a write moves the caret to the end, and their text was appended to the worker's (1 of 20
// rounds under load: "sk-typed-11sk-typed-15").
function keepingSelection(node, write) {
  let whole = false;
  try {
    whole = node === document.activeElement && node.selectionStart === 0 && node.selectionEnd === node.value.length;
  } catch { whole = false; }                  // a field without a text selection (select, number)
  write();
  if (whole && typeof node.select === "function") node.select();
}

// "default": a value derived from other fields (the cap from the scope). It replaces only the
// default of the last such write (before the first, only a field the user never changed), so a
// value the user gave (typed, or kept from an earlier visit) stays; the new default is remembered
// either way, so a field the user sets to it follows the next one again.
function setDefault(node, value, since) {
  const held = defaults.has(node) ? node.value === defaults.get(node) : edits.at(node) === undefined;
  defaults.set(node, value);
  if (held && !changedSince(node, since)) keepingSelection(node, () => { node.value = value; });
}

// body[data-pending]: how many Python handlers are still running (tests wait for "0" after an
// action, since the worker answers an event after the browser has dispatched it). Each handler is
// told the stamp of the user's changes so far: its writes to fields name it (fill, setDefault).
// Each handler is also told its form as it was when the event fired (formSeen), so what it reads
// of that form is what the user had entered at that event, not what the fields hold by the time
// the worker gets to it (a key typed under one provider stays that provider's).
let pending = 0;
function listen(node, type, handler) {
  node.addEventListener(type, (event) => {
    document.body.dataset.pending = String(++pending);
    Promise.resolve(window.toolproofDispatch(handler, event, edits.count(), formSeen(event))).finally(() => {
      document.body.dataset.pending = String(--pending);
    });
  });
}

// The event target's form as JSON, id -> value (a checkbox: checked) of its fields with an id; a
// value over SEEN_MOST characters is left out (the worker reads that field live). null outside a form.
const SEEN_MOST = 65536;
function formSeen(event) {
  const form = event.target instanceof Element ? event.target.closest("form") : null;
  if (!form) return null;
  const seen = {};
  for (const field of form.elements) {
    if (!field.id || !(field instanceof HTMLInputElement || field instanceof HTMLSelectElement ||
                       field instanceof HTMLTextAreaElement)) continue;
    if (field.type === "checkbox" || field.type === "radio") seen[field.id] = field.checked;
    else if (field.value.length <= SEEN_MOST) seen[field.id] = field.value;
  }
  return JSON.stringify(seen);
}

// A page object named by a message: by id, a node built here before, one passed beside the
// message, the body or the document.
function target(where, args) {
  if (where.closest !== undefined) {
    return target({ ...where, closest: undefined }, args)?.closest(where.closest) ?? null;
  }
  if (where.id !== undefined) return document.getElementById(where.id);
  if (where.ref !== undefined) return made.get(where.ref)?.deref() ?? null;
  if (where.arg !== undefined) return args[where.arg] ?? null;
  if (where.body) return document.body;
  if (where.doc) return document;
  return null;
}

function refuse(what, name) {
  throw new Error(`refused ${what} ${JSON.stringify(name)}`);
}

function build(spec, args) {
  if (typeof spec === "string") return document.createTextNode(spec);
  if (!Array.isArray(spec)) return target(spec, args);     // built before (or found): moved here
  const [id, tag, ns, props, attrs, kids, events] = spec;
  for (const name of Object.keys(attrs)) if (/^on/i.test(name)) refuse("attribute", name);
  for (const name of Object.keys(props)) if (!PROPS.has(name)) refuse("property", name);
  const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const kid of kids) node.appendChild(build(kid, args));
  // props after the children: a select's value names one of its options
  for (const [name, value] of Object.entries(props)) node[name] = value;
  for (const [type, handler] of events) listen(node, type, handler);
  made.set(id, new WeakRef(node));
  forget.register(node, id);
  return node;
}

const STAGES = ["runtime", "packages", "suite"];
function stage(name, text) {
  document.body.dataset.stage = name;
  document.getElementById("boot-stage").textContent = text;
  for (const item of document.querySelectorAll("#boot .stages li")) {
    const mine = STAGES.indexOf(item.dataset.stage), now = STAGES.indexOf(name);
    item.className = mine < now ? "done" : mine === now ? "active" : "";
  }
}

window.__stages = {};                       // start-up marks (benchmarks/page_load.py)

// "observe": a node gets one "toolproof-visible" event, the first time any of it is in view (the
// fixture scorecard is graded then: most visits never scroll that far down).
const inView = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    inView.unobserve(entry.target);
    entry.target.dispatchEvent(new Event("toolproof-visible"));
  }
});

function apply(op, args) {
  const [kind, where] = op;
  if (kind === "stage") return stage(op[1], op[2]);
  if (kind === "mark") return void (window.__stages[op[1]] = performance.now());
  if (kind === "now") return performance.now();
  if (kind === "param") return new URLSearchParams(location.search).get(String(op[1]));
  if (kind === "applied") return applied;
  if (kind === "build") return build(op[1], args);
  if (kind === "values") {
    const read = (node) => (op[2] ? node?.getAttribute(op[2]) : node?.value) ?? null;
    return JSON.stringify(Object.fromEntries(op[1].map((id) => [id, read(document.getElementById(id))])));
  }
  const node = target(where, args);
  if (!node) {
    if (["node", "get", "call"].includes(kind)) return null;
    throw new Error(`no page element ${JSON.stringify(where)} for ${kind}`);
  }
  switch (kind) {
    case "append": for (const spec of op[2]) node.appendChild(build(spec, args)); return;
    case "set": if (!WRITABLE.has(op[2])) refuse("property", op[2]); node[op[2]] = op[3]; return;
    case "fill": return fill(node, op[2], op[3], op[4]);
    case "default": return setDefault(node, op[2], op[3]);
    case "attr": if (/^on/i.test(op[2])) refuse("attribute", op[2]); node.setAttribute(op[2], op[3]); return;
    case "unattr": node.removeAttribute(op[2]); return;
    case "clear": node.replaceChildren(); return;
    case "remove": node.remove(); return;
    case "listen": listen(node, op[2], op[3]); return;
    case "observe": inView.observe(node); return;
    case "node": return node;
    case "get": { const value = node[op[2]]; return typeof value === "function" ? value.bind(node) : value; }
    case "call": if (!METHODS.has(op[2])) refuse("method", op[2]); return node[op[2]](...op[3]);
    default: throw new Error(`unknown page operation ${JSON.stringify(kind)}`);
  }
}

// Every op is tried, in order, even when one fails (a page element gone): the first failure is
// then raised in the worker, where the Python that queued it reports it.
function run(text, args) {
  let answer = null, failure = null;
  for (const op of JSON.parse(text)) {
    try {
      answer = op[0] === "posted" ? catchUp(op[1]) : apply(op, args) ?? null;
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure) throw failure;
  return answer;
}

// While the page starts, the worker posts the writes nobody waits for on this tab's own channel
// (toolproof/page/bridge.py, post_writes), numbered. Its next trip carries them again: each is
// applied once, in order, whichever way it comes first. A failure in one posted is raised by the
// next trip.
let applied = 0, late = null;
function applyPosted(number, text) {
  if (typeof number !== "number" || !(number > applied) || typeof text !== "string") return;  // seen, or not ours
  applied = number;
  try {
    run(text, []);
  } catch (error) {
    late ??= error;
  }
}
function catchUp(posted) {
  for (const [number, text] of posted) applyPosted(number, text);
  const failure = late;
  late = null;
  if (failure) throw failure;
  return null;
}
window.toolproofChannel = `toolproof-writes-${crypto.randomUUID()}`;
new BroadcastChannel(window.toolproofChannel).onmessage = (event) => {
  if (Array.isArray(event.data)) applyPosted(event.data[0], event.data[1]);
};

// What one trip carries back to the worker: PyScript's synchronous channel is a SharedArrayBuffer
// of at most 16 MiB (vendor/pyscript's maxByteLength, checked by tests/page/test_bridge_lists.py),
// and an answer that does not fit it leaves the worker waiting for good, every panel with it. Such
// an answer is refused instead: the worker gets an error it reports where the read was made.
const TRIP_BYTES = 15 * 2 ** 20;
function carried(answer) {
  if (typeof answer === "string" && answer.length * 3 > TRIP_BYTES) {
    const size = utf8Size(answer);
    if (size > TRIP_BYTES) {
      throw new Error(`the page's answer is ${size} bytes, more than one trip to the worker carries ` +
                      `(${TRIP_BYTES} bytes)`);
    }
  }
  return answer;
}

window.toolproofOps = (text, ...args) => carried(run(text, args));

// The page's input bound, handed over by the page's Python as body[data-max-input-bytes]
// (toolproof/page/inputs.py: toolproof/limits.py's MAX_FILE_BYTES; no number of its own here).
// Before the worker has said it, nothing is refused here (the worker's own reads still are).
function inputLimit() {
  const limit = Number(document.body.dataset.maxInputBytes);
  return limit > 0 ? limit : Infinity;
}

// UTF-8 bytes of a text as TextEncoder writes it (a lone surrogate as U+FFFD, 3 bytes), counted
// without making a copy of it.
function utf8Size(text) {
  let size = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) size += 1;
    else if (unit < 0x800) size += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length &&
             (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { size += 4; i++; }
    else size += 3;
  }
  return size;
}

// Text typed, pasted or dropped into any field of the page: refused before it enters the field
// when the field would then hold more than the input bound, so none of it ever reaches the worker.
// The field gets a "toolproof-refused" event (bubbling, detail: the size in bytes it would have
// had), which its panel turns into a line naming the size and the limit (toolproof/page/inputs.py).
document.addEventListener("beforeinput", (event) => {
  const field = event.target;
  if (!(field instanceof HTMLTextAreaElement || field instanceof HTMLInputElement)) return;
  const added = event.data ?? event.dataTransfer?.getData("text/plain") ?? "";
  const limit = inputLimit();
  const value = field.value;
  if (!added || (value.length + added.length) * 3 <= limit) return;     // cannot be over: no count
  let start = value.length, end = value.length;
  try {
    start = field.selectionStart ?? start;
    end = field.selectionEnd ?? end;
  } catch {}                                // a field without a selection (type=number)
  const size = utf8Size(value) - utf8Size(value.slice(start, end)) + utf8Size(added);
  if (size <= limit) return;
  event.preventDefault();
  field.dispatchEvent(new CustomEvent("toolproof-refused", { bubbles: true, detail: size }));
}, true);

// A field's text for the worker, read without a synchronous trip (which could not carry a big
// one): the text, or its size in bytes when it is over the input bound, measured here before any
// of it is sent. Either way a plain value, so the worker never reads the text through a proxy.
window.toolproofFieldText = async (id) => {
  const field = document.getElementById(String(id));
  const text = String(field?.value ?? "");
  const limit = inputLimit();
  if (text.length * 3 <= limit) return text;
  const size = utf8Size(text);
  return size <= limit ? text : size;
};

// The page's Python needs cross-origin isolation (SharedArrayBuffer) to reach the page from its
// worker. `python serve.py` sends the headers; on a static host ../sw.js adds them, from the
// page's next load: register it, reload once, and only then start PyScript.
const RELOADED = "toolproof.isolation-reload";      // sessionStorage: the tries so far in this tab
// Each try registers ../sw.js with the embedder policy it adds: "credentialless" first (it lets
// page/transport.py's probe tell a CORS block from a server that is down), then "require-corp"
// for a browser that does not know credentialless (Safari). One reload per try, then a message.
const TRIES = ["credentialless", "require-corp"];

async function activated(registration) {
  const worker = registration.installing || registration.waiting;
  if (!worker) return;
  await new Promise((resolve) => {
    const check = () => { if (["activated", "redundant"].includes(worker.state)) resolve(); };
    worker.addEventListener("statechange", check);
    check();
  });
}

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
  const tried = Number(sessionStorage.getItem(RELOADED) || 0);
  if (tried >= TRIES.length) {
    sessionStorage.removeItem(RELOADED);
    fail("the page is still not cross-origin isolated after installing its service worker (sw.js); " +
         `the host may block it, or the browser may have service workers turned off.${HINT}`);
    return;
  }
  const script = new URL("../sw.js", import.meta.url);
  if (TRIES[tried] !== "credentialless") script.searchParams.set("coep", TRIES[tried]);
  await activated(await navigator.serviceWorker.register(script));
  await navigator.serviceWorker.ready;
  sessionStorage.setItem(RELOADED, String(tried + 1));
  location.reload();
}

isolate().catch((error) => fail(`could not start: ${error.message || error}.${HINT}`));
