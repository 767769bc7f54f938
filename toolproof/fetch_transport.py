"""The page's transport: one JSON POST with the browser's fetch. An edge module (js, network).

A timeout and an abandoned run both abort the fetch through an AbortController, so nothing keeps
talking to the provider after the user pressed Abort.
"""
from __future__ import annotations

import asyncio
import json

import js
from pyodide.ffi import JsException, create_once_callable, to_js

from .runner import HttpReply, TransportError


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
                     "referrerPolicy": "no-referrer"}, dict_converter=js.Object.fromEntries)
    try:
        response = await js.fetch(url, options)
        text = await response.text()
    except asyncio.CancelledError:
        controller.abort()           # the run was aborted: stop talking to the provider now
        raise
    except JsException:
        elapsed = js.performance.now() - started
        if expired["yes"]:
            raise TransportError("timeout", f"timed out after {timeout:g} s", elapsed) from None
        raise TransportError("network", "network error: the provider could not be reached "
                             "(offline, CORS, or blocked by the page's security policy)", elapsed) from None
    finally:
        js.clearTimeout(timer)
    retry_after = response.headers.get("retry-after")      # JS null when absent (or not exposed)
    headers_out = {"retry-after": retry_after} if isinstance(retry_after, str) else {}
    return HttpReply(int(response.status), headers_out, text, js.performance.now() - started)
