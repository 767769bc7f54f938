"""The page's transport: one JSON POST (or, with no body, a GET) with the browser's fetch. An edge module (js, network).

- The timeout is a deadline for the whole exchange: one AbortController timer covers connect,
  headers and reading the body, so a slow drip is cut at the deadline too.
- An abandoned run aborts the fetch through the same controller, so nothing keeps talking to the
  provider after the user pressed Abort.
- Redirects are never followed (`redirect: "manual"`): the browser hands back an opaque redirect
  whose target it hides, and the turn fails saying a redirect was not followed. The key goes only
  to the origin the user named.
- The body is read as a stream, and no further than the readers' bound (limits.MAX_BYTES, 5 MB):
  past it the answer is "too-large", however small it was on the wire (a gzip bomb stops there).
- A failure while reading the body comes after the answer's headers: the server answered and the
  browser let the page read it, so it is never a CORS problem. It is "unreadable": the body could
  not be decompressed, or the connection broke during it. (A body that is not JSON is read, and
  named by the provider's reader.)
- A failure without any HTTP answer is told apart where the browser allows it: a second, bodiless
  `no-cors` GET to the same URL (no key, no headers of ours) resolves if the server answered at all,
  so the POST was blocked by CORS (with the fix for the usual local servers), and fails if nothing
  answered (refused, down, offline).
"""
from __future__ import annotations

import asyncio
import json

import js
from pyodide.ffi import JsException, create_once_callable, to_js

from toolproof.limits import MAX_BYTES
from toolproof.providers.dispatch import origin_of
from toolproof.running.transport import HttpReply, TransportError


CORS_FIX = ("Ollama: set OLLAMA_ORIGINS to this page's origin (or *) and restart ollama serve; LM Studio: "
            "turn on CORS in the server settings (lms server start --cors); llama.cpp llama-server: "
            "--cors-origins with this page's origin")


def network_failure(url: str, answered: bool | None = None) -> str:
    """The line for a fetch that got no readable HTTP answer: where, and what it was where the
    probe could tell (True: the server answered but CORS blocked it; False: nothing answered)."""
    # url is the endpoint built from a parsed base URL: no user:pass@, no query, nothing secret
    page = str(js.location.origin)
    if answered:
        return (f"network error: {url} answered, but the browser blocked the answer: the server does not "
                f"allow CORS from this page ({page}). {CORS_FIX}")
    if answered is False:
        return (f"network error: no HTTP answer from {url}: the connection was refused or the server is "
                "down or unreachable (is it running, on that port?), or the browser is offline")
    return (f"network error: no HTTP answer from {url} (possible causes: the server is down, "
            "crashed or unreachable; it does not allow CORS from this page; the page's security policy "
            "blocks it; the browser is offline)")


async def probe_can_tell() -> bool:
    """Can a no-cors probe see a server that answers without CORS headers? Only under the embedder
    policy "credentialless"; under "require-corp" the opaque answer is blocked just like a refused
    connection. A page our service worker controls has the policy sw.js adds: credentialless
    unless it was registered as sw.js?coep=require-corp (web/boot.mjs). Otherwise it is the
    server's (python serve.py: credentialless), read from a HEAD of the page."""
    from .dom import page_js

    try:
        controller = page_js.navigator.serviceWorker.controller
        if controller:
            return "coep=require-corp" not in str(controller.scriptURL)
        response = await js.fetch(str(page_js.location.href), to_js(
            {"method": "HEAD", "cache": "no-store"}, dict_converter=js.Object.fromEntries))
        return str(response.headers.get("Cross-Origin-Embedder-Policy") or "").strip() == "credentialless"
    except Exception:        # noqa: BLE001 - anything odd: the probe cannot tell, and says so
        return False


async def answers_at_all(url: str, timeout: float) -> bool | None:
    """Does anything answer at `url`? A `no-cors` GET (no key, no body, no credentials) resolves
    with an opaque response whatever the server's CORS headers, and fails when nothing answers.
    None when the probe cannot tell (its own deadline, or an embedder policy that blocks it)."""
    if not await probe_can_tell():
        return None
    controller = js.AbortController.new()
    timer = js.setTimeout(create_once_callable(lambda: controller.abort()), int(min(timeout, 5) * 1000))
    # no-cors refuses redirect "manual" (checked in Chromium): a redirect is followed, but only where
    # the page's Content-Security-Policy lets it go, and this request carries nothing of the user's
    options = to_js({"method": "GET", "mode": "no-cors", "signal": controller.signal, "credentials": "omit",
                     "cache": "no-store", "referrerPolicy": "no-referrer"},
                    dict_converter=js.Object.fromEntries)
    try:
        await js.fetch(url, options)
        return True
    except JsException:
        return None if controller.signal.aborted else False
    finally:
        js.clearTimeout(timer)


def too_large(status: int) -> str:
    return f"the response body was too large: over {MAX_BYTES / 1_000_000:g} MB (HTTP {status}; not read further)"


def unreadable(status: int, encoding: str) -> str:
    """A body that failed after the headers. The browser says no more than "network error", and a
    cross-origin answer hides its Content-Encoding unless the server exposes it."""
    coded = f"as {encoding}" if encoding and encoding != "identity" else "(if it was compressed)"
    return (f"the response body could not be read (HTTP {status}): it could not be decompressed {coded}, "
            "or the connection broke while it was sent")


async def read_body(response, controller) -> str:
    """The body as text, read chunk by chunk and never past MAX_BYTES: TransportError "too-large"
    then (the connection is dropped), a JsException if the stream fails. Decoded as the browser's
    response.text() decodes (UTF-8, bad bytes replaced, a leading byte-order mark dropped)."""
    stream = response.body
    if stream is None:                       # e.g. a 204: no body at all
        return ""
    reader = stream.getReader()
    chunks, size = [], 0
    while True:
        part = await reader.read()
        if part.done:
            break
        data = part.value.to_bytes()
        size += len(data)
        if size > MAX_BYTES:
            controller.abort()               # stop the download; the reader is done with
            raise TransportError("too-large", too_large(int(response.status)))
        chunks.append(data)
    return b"".join(chunks).decode("utf-8", errors="replace").removeprefix("\ufeff")


async def fetch_transport(url: str, headers: dict, body: dict | None, timeout: float) -> HttpReply:
    """One request: a POST of `body`, or a GET when it is None (fetching an unfinished reply
    again: running/polling.py); see the module docstring for what it guarantees."""
    controller = js.AbortController.new()
    expired = {"yes": False}

    def expire() -> None:
        expired["yes"] = True
        controller.abort()

    timer = js.setTimeout(create_once_callable(expire), int(timeout * 1000))
    started = js.performance.now()
    sent = {"method": "GET"} if body is None else {"method": "POST", "body": json.dumps(body)}
    options = to_js({**sent, "headers": headers, "signal": controller.signal, "credentials": "omit", "cache": "no-store",
                     "referrerPolicy": "no-referrer", "redirect": "manual"},
                    dict_converter=js.Object.fromEntries)
    response = None                  # set once the answer's headers are in
    try:
        response = await js.fetch(url, options)
        if str(response.type) == "opaqueredirect":
            raise TransportError("redirect", "redirect not followed (the browser does not show its target; "
                                 f"the key stays with {origin_of(url)})", js.performance.now() - started)
        text = await read_body(response, controller)
    except asyncio.CancelledError:
        controller.abort()           # the run was aborted: stop talking to the provider now
        raise
    except TransportError as exc:
        raise TransportError(exc.kind, exc.message, js.performance.now() - started) from None
    except JsException:
        elapsed = js.performance.now() - started
        if expired["yes"]:
            raise TransportError("timeout", f"no complete answer within {timeout:g} s", elapsed) from None
        if response is not None:     # the headers came and could be read: not CORS, not down
            encoding = response.headers.get("content-encoding")
            raise TransportError("unreadable", unreadable(int(response.status), encoding if isinstance(
                encoding, str) else ""), elapsed) from None
        answered = await answers_at_all(url, timeout)
        raise TransportError("network", network_failure(url, answered), elapsed) from None
    finally:
        js.clearTimeout(timer)
    retry_after = response.headers.get("retry-after")      # JS null when absent (or not exposed)
    headers_out = {"retry-after": retry_after} if isinstance(retry_after, str) else {}
    return HttpReply(int(response.status), headers_out, text, js.performance.now() - started)
