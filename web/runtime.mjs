// The page's Pyodide: PyScript's "interpreter" (web/pyscript.json), loaded in the page's worker.
// It is the vendored pyodide.mjs, started from a copy of its memory taken right after start-up
// when serve.py (or --bundle) made one (serving/snapshot.py): restoring it skips most of Pyodide's
// start, about 2 s of 3 on a 2-core machine. Without that file, or with one refused below, Pyodide
// starts the usual way; either way the worker's globalThis.toolproofRuntime says which, and why.
const FORMAT = "toolproof.pyodide-snapshot";
const FOLDER = new URL("../vendor/pyodide/", import.meta.url);
// Under Node (tests/serving/test_snapshot.py runs this module there) Pyodide takes a path
const INDEX = FOLDER.protocol === "file:" ? decodeURIComponent(FOLDER.pathname) : FOLDER.href;
const PATIENCE_MS = 30000;             // a server silent this long is not waited for any more
const MAX_BYTES = 256 * 2 ** 20;       // the memory is about 31 MB; nothing bigger is unpacked

// Resolves as `promise` does, or rejects once it has been pending PATIENCE_MS.
function patiently(promise, what, stop) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} for ${PATIENCE_MS / 1000} s`));
      stop();                          // after: stopping settles a pending read, which must lose
    }, PATIENCE_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// Asked for as this module loads, beside Pyodide's own files. Only the answer's status is awaited
// before Pyodide starts: the body is unpacked while Pyodide fetches and compiles its runtime.
const asking = new AbortController();
const answer = patiently(fetch(new URL("./pyodide-snapshot.gz", import.meta.url), { signal: asking.signal }),
                         "the server sent no answer", () => asking.abort()).catch((error) => error);

// A missing vendor/ names the file (web/boot.mjs then adds how to get it), not this module.
const PYODIDE = new URL("../vendor/pyodide/pyodide.mjs", import.meta.url).href;
const pyodideModule = await import(PYODIDE).catch(() => {
  throw new Error(`could not load ${PYODIDE}`);
});
const startPyodide = pyodideModule.loadPyodide;
export const version = pyodideModule.version;        // PyScript reads it beside loadPyodide

// The unpacked body, read as it comes: refused when it stalls or grows past MAX_BYTES. gzip's
// CRC-32 (checked by the unpacking) refuses a damaged file.
async function unpacked(response) {
  const reader = response.body.pipeThrough(new DecompressionStream("gzip")).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await patiently(reader.read(), "it stalled", () => reader.cancel());
    if (done) break;
    size += value.length;
    if (size > MAX_BYTES) {
      reader.cancel();
      throw new Error(`it unpacks to more than ${MAX_BYTES / 2 ** 20} MB`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

// The memory, or an Error saying why not: the header must name this format and this very
// Pyodide, and the size that follows it.
async function memoryOf(response) {
  const bytes = await unpacked(response);
  const end = bytes.subarray(0, 512).indexOf(10);
  let header = null;
  try {
    header = end > 0 ? JSON.parse(new TextDecoder().decode(bytes.subarray(0, end))) : null;
  } catch {}
  if (header?.format !== FORMAT) throw new Error("it has no snapshot header");
  if (header.pyodide !== version) throw new Error(`it was made by Pyodide ${header.pyodide}, this is ${version}`);
  // serve.py pads the header to a multiple of 64 bytes: Pyodide reads the memory in 32-bit words
  const memory = bytes.subarray(end + 1);
  if (header.bytes !== memory.length) {
    throw new Error(`it holds ${memory.length} bytes of memory, its header says ${header.bytes}`);
  }
  return memory.byteOffset % 8 === 0 ? memory : memory.slice();
}

export async function loadPyodide(options) {
  const response = await answer;
  let why = "none is served here";
  if (response instanceof Error) {
    why = `it could not be fetched (${response.message})`;
  } else if (response.ok) {
    try {
      const memory = memoryOf(response);
      memory.catch(() => {});           // handled below, when Pyodide awaits it: no stray rejection
      const pyodide = await startPyodide({ ...options, indexURL: INDEX, _loadSnapshot: memory });
      // Every page gets its own random state, not the one frozen in the copy.
      pyodide.runPython("import random; random.seed()");
      globalThis.toolproofRuntime = "restored from its snapshot";
      return pyodide;
    } catch (error) {
      why = `it was refused: ${error.message || error}`;
    }
  } else {
    response.body?.cancel();
    if (response.status !== 404) why = `the server answered ${response.status}`;
  }
  globalThis.toolproofRuntime = `started in full (no snapshot: ${why})`;
  return startPyodide({ ...options, indexURL: INDEX });
}
