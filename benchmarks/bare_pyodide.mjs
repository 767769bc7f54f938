// Bare Pyodide boot for the page-load benchmark (see bare_pyodide.html).
// window.__bootMs: ms from navigation start until Python has answered 1+1.
// window.__loadPyodideMs: the loadPyodide() call alone.
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";

const indexURL = new URL("../vendor/pyodide/", import.meta.url).href;
const started = performance.now();
const pyodide = await loadPyodide({ indexURL });
const answer = pyodide.runPython("1+1");
window.__loadPyodideMs = performance.now() - started;
window.__bootMs = performance.now();
document.getElementById("out").textContent = `1+1 = ${answer}`;
document.body.dataset.ready = "true";
