"""How long the page takes to show a tools file's lint findings (issue 23 item 2).

In one Chromium page, loads three tools files into "Your tools and cases" and prints, for each,
the time from choosing the file until #own-message is no longer "Reading…": a file the built-in
checker takes, the first file with a schema it does not take (`"type": "objekt"`: the page then
fetches jsonschema from vendor/ for lint's metaschema check), and the same file again (jsonschema
already loaded). Figures are printed, never asserted.

    python benchmarks/own_tools_file.py [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser import CHROMIUM, CHROMIUM_ARGS, READY_TIMEOUT_MS, start_server  # noqa: E402

GOOD = {"name": "good_tool", "description": "Looks up a thing by its id.",
        "input_schema": {"type": "object", "properties": {"id": {"type": "string", "description": "id"}},
                         "required": ["id"]}}
OBJEKT = {"name": "bad_tool", "description": "A schema naming a type that does not exist.",
          "input_schema": {"type": "object", "properties": {"x": {"type": "objekt"}}}}
FILES = [("good", [GOOD]), ("objekt, jsonschema fetched", [GOOD, OBJEKT]), ("objekt again", [GOOD, OBJEKT])]


def timed_load(page, text: str) -> float:
    page.evaluate("document.querySelector('#own-message').textContent = ''; window.__t0 = performance.now()")
    page.set_input_files("#own-tools", files=[{"name": "t.json", "mimeType": "application/json",
                                               "buffer": text.encode()}])
    page.wait_for_function("document.querySelector('#own-message').textContent.length > 0 && "
                           "!document.querySelector('#own-message').textContent.startsWith('Reading')", timeout=60_000)
    return page.evaluate("performance.now() - window.__t0")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    from playwright.sync_api import sync_playwright

    server, url = start_server()
    times: dict[str, list[float]] = {name: [] for name, _ in FILES}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(rounds):
            page = browser.new_context().new_page()
            page.goto(url)
            page.wait_for_function("document.body.dataset.ready === 'true'", timeout=READY_TIMEOUT_MS)
            for name, tools in FILES:
                times[name].append(timed_load(page, json.dumps(tools)))
            page.context.close()
        browser.close()
    server.shutdown()
    for name, values in times.items():
        print(f"{name:<28} median {statistics.median(values):7.0f} ms  (max {max(values):.0f} ms, {rounds} rounds)")


if __name__ == "__main__":
    main()
