"""The page's transport: one JSON POST with the browser's fetch. An edge module (js, network).

- The timeout is a deadline for the whole exchange: one AbortController timer covers connect,
  headers and reading the body, so a slow drip is cut at the deadline too.
- An abandoned run aborts the fetch through the same controller, so nothing keeps talking to the
  provider after the user pressed Abort.
- Redirects are never followed (`redirect: "manual"`): the browser hands back an opaque redirect
  whose target it hides, and the turn fails saying a redirect was not followed. The key goes only
  to the origin the user named.
- A body over 5 MB is refused ("too-large"): the grader's readers stop at 5 MB anyway.
- A failure without any HTTP answer names the endpoint and lists what it may be, as possibilities:
  the browser does not tell a page which one it was.
"""
from __future__ import annotations

import asyncio
import json

import js
from pyodide.ffi import JsException, create_once_callable, to_js

from toolproof.providers.dispatch import origin_of
from toolproof.running.transport import HttpReply, TransportError

MAX_BODY_CHARS = 5 * 1024 * 1024


def network_failure(url: str) -> str:
    """The line for a fetch that got no HTTP answer: where, what kind, and the possible causes."""
    # url is the endpoint built from a parsed base URL: no user:pass@, no query, nothing secret
    return (f"network error: no HTTP answer from {url} (possible causes: the server is down, "
            "crashed or unreachable; it does not allow CORS from this page; the page's security policy "
            "blocks it; the browser is offline)")


async def fetch_transport(url: str, headers: dict, body: dict, timeout: float) -> HttpReply:
    controller = js.AbortController.new()
    expired = {"yes": False}

    def expire() -> None:
        expired["yes"] = True
        controller.abort()

    timer = js.setTimeout(create_once_callable(expire), int(timeout * 1000))
    started = js.performance.now()
    options = to_js({"method": "POST", "headers": headers, "body": json.dumps(body),
                     "signal": controller.signal, "credentials": "omit", "cache": "no-store",
                     "referrerPolicy": "no-referrer", "redirect": "manual"},
                    dict_converter=js.Object.fromEntries)
    try:
        response = await js.fetch(url, options)
        if str(response.type) == "opaqueredirect":
            raise TransportError("redirect", "redirect not followed (the browser does not show its target; "
                                 f"the key stays with {origin_of(url)})", js.performance.now() - started)
        text = await response.text()
        if len(text) > MAX_BODY_CHARS:
            raise TransportError("too-large", "response body larger than 5 MB (not read further)",
                                 js.performance.now() - started)
    except asyncio.CancelledError:
        controller.abort()           # the run was aborted: stop talking to the provider now
        raise
    except JsException:
        elapsed = js.performance.now() - started
        if expired["yes"]:
            raise TransportError("timeout", f"no complete answer within {timeout:g} s", elapsed) from None
        raise TransportError("network", network_failure(url), elapsed) from None
    finally:
        js.clearTimeout(timer)
    retry_after = response.headers.get("retry-after")      # JS null when absent (or not exposed)
    headers_out = {"retry-after": retry_after} if isinstance(retry_after, str) else {}
    return HttpReply(int(response.status), headers_out, text, js.performance.now() - started)
