// Before Python runs: if the runtime cannot start (vendor/ missing, a file refused), say so in
// the page instead of spinning forever. Text only; never HTML.
const box = () => document.getElementById("boot-error");

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
    fail(`could not load ${target.src || target.href}. Start the page with "python serve.py", which fetches vendor/.`);
  }
}, true);

window.addEventListener("unhandledrejection", (event) => {
  const reason = event.reason && (event.reason.message || String(event.reason));
  if (!reason) return;
  const hint = reason.includes("/vendor/") ? '. Start the page with "python serve.py", which fetches vendor/.' : "";
  fail(reason + hint);
});
