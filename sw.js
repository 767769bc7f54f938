// ToolProof's service worker (ours, small, never fetched from anywhere else). Two jobs, for a
// static host that cannot send headers (GitHub Pages, `python -m http.server`):
// 1. Cross-origin isolation: the page's Python runs in a worker that reaches the page through
//    SharedArrayBuffer, which the browser allows only in a cross-origin isolated page. Every
//    same-origin answer gets the COOP/COEP/CORP headers `python serve.py` sends itself.
// 2. Offline after the first load: same-origin GET answers are kept in Cache Storage and served
//    when the network fails. Network first, so a new version is never hidden behind an old copy.
// Requests to any other origin (the model providers: the key rides in their headers) are not
// touched: no respondWith, nothing read, nothing cached. web/boot.mjs registers this file when the
// page is not isolated yet, then reloads once.
const CACHE = "toolproof-site";
// "credentialless" where the browser supports it (the page's no-cors probe can then tell a CORS
// block from a server that is down); web/boot.mjs registers "sw.js?coep=require-corp" for a
// browser that stays unisolated with it (Safari), and the probe then says it cannot tell.
const COEP = new URL(self.location.href).searchParams.get("coep") === "require-corp" ? "require-corp" : "credentialless";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(answer(request));
});

async function answer(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") await cache.put(request, response.clone());
    return isolated(response);
  } catch (error) {
    const kept = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
    if (kept) return isolated(kept);
    throw error;
  }
}

function isolated(response) {
  if (response.status === 0) return response;         // opaque: nothing to add to
  const headers = new Headers(response.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", COEP);
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
