// The bootstrap benchmark's page half (see bootstrap_time.html and bootstrap_time.py).
// Loads toolproof/scoring/stats.py into Pyodide's file system and runs the same timing code as CPython.
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";

const indexURL = new URL("../vendor/pyodide/", import.meta.url).href;
const pyodide = await loadPyodide({ indexURL });
const stats = await (await fetch(new URL("../toolproof/scoring/stats.py", import.meta.url))).text();
const closed = await (await fetch(new URL("../toolproof/scoring/intervals.py", import.meta.url))).text();
const timing = await (await fetch(new URL("./bootstrap_timing.py", import.meta.url))).text();
pyodide.FS.writeFile("/home/pyodide/tp_stats.py", stats);
pyodide.FS.writeFile("/home/pyodide/tp_intervals.py", closed);
pyodide.FS.writeFile("/home/pyodide/bootstrap_timing.py", timing);
const result = pyodide.runPython("import json, bootstrap_timing; json.dumps(bootstrap_timing.measure())");
window.__bootstrap = JSON.parse(result);
document.getElementById("out").textContent = result;
document.body.dataset.ready = "true";
