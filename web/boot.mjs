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
