"""`run --repeats --concurrency` over real HTTP (tests/fakeprovider.py): re-grades stay byte
identical, concurrency never changes a verdict, a dead endpoint stops the run at once, and the
new flags refuse bad values in one line.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time

import pytest

from fakeprovider import FIXTURES
from clirun import cli_with
from toolproof.datafiles import load_bundle
from toolproof.suite.fingerprint import suite_sha256
from toolproof.suite.model import requests_needed

KEY = "sk-cli-repeats-77"
ENV = {"TOOLPROOF_API_KEY": KEY}
NOW = {"retry-after": "0"}
BUNDLE = load_bundle()


cli = cli_with(ENV)


def live(base: str, *argv: str) -> tuple[int, str, str]:
    # partial plans are not these tests' point (exit 3: tests/cli/test_run_incomplete.py)
    return cli("run", "--provider", "openai-compatible", "--base-url", base, "--model", "fake",
               "--pause", "0", "--allow-incomplete", *argv)


def fast_errors(fake, repeats: int, status: int | None = None) -> None:
    """Fixture turns that are request errors, answered at once (Retry-After 0) on every repeat;
    with `status` (not retried, e.g. 400) they use no request beyond the cap's reservation."""
    for case_id, fixture in FIXTURES.items():
        for k, turn in enumerate(fixture["turns"]):
            if "error" in turn:
                fake.script[(case_id, k + 1)] = [(status or turn["error"]["status"] or 500, NOW,
                                                  '{"error": "x"}')] * 3 * repeats


def verdicts(card: dict) -> list:
    return [(c["id"], c["verdict"], c.get("repeats")) for c in card["cases"]]


def test_repeats_4_concurrency_4_regrades_byte_for_byte(fake, tmp_path):
    # retries count against the cap, which the CLI lowers to the plan's need: answered with a 400
    # (not retried), the error turns leave every case its requests
    fast_errors(fake, 4, status=400)
    out, junit, markdown = tmp_path / "r.json", tmp_path / "r.xml", tmp_path / "r.md"
    code, stdout, stderr = live(f"{fake.base}/v1", "--repeats", "4", "--concurrency", "4", "--cap", "20000",
                                "--price-in", "0.4", "--price-out", "1.6", "--format", "json", "--out", str(out),
                                "--junit", str(junit), "--markdown", str(markdown))
    assert code == 0, stderr
    need = 4 * requests_needed(BUNDLE.cases)
    assert f"toolproof: cap lowered to {3 * need}: all that scope all needs ({need}), with every retry allowed for\n" in stderr
    assert f"toolproof: {len(BUNDLE.cases)} cases x 4 repeats, up to {need} requests; cap {3 * need}, 4 in flight\n" in stderr
    card = json.loads(stdout)
    assert card["repeats"] == 4
    assert all(c["repeats"] == [FIXTURES[c["id"]]["intended_verdict"]] * 4 for c in card["cases"])
    assert card["cost"]["prices"] == {"input_per_mtok": 0.4, "output_per_mtok": 1.6}
    doc = json.loads(out.read_text())
    assert doc["suite_sha256"] == suite_sha256(BUNDLE.documents["suite"])
    assert {k: doc["settings"][k] for k in ("repeats", "concurrency", "cap")} == {
        "repeats": 4, "concurrency": 4, "cap": 3 * need}
    # every repeat kept, in suite order then repeat order
    order = [c.id for c in BUNDLE.cases]
    assert [(t["case_id"], t["repeat"]) for t in doc["transcripts"]] == [(i, r) for i in order for r in range(4)]
    code, regraded, err = cli("grade", "--transcripts", str(out), "--format", "json",
                              "--price-in", "0.4", "--price-out", "1.6")
    assert (code, err) == (0, "") and regraded == stdout
    assert junit.read_text().startswith("<?xml") and markdown.read_text().strip()
    for text in (stdout, stderr, out.read_text(), junit.read_text(), markdown.read_text()):
        assert KEY not in text


def test_concurrency_8_gives_the_sequential_verdicts(fake):
    fast_errors(fake, 1)
    code, sequential, stderr = live(f"{fake.base}/v1", "--cap", "500", "--format", "json")
    assert code == 0, stderr
    fast_errors(fake, 1)
    code, concurrent, stderr = live(f"{fake.base}/v1", "--cap", "500", "--format", "json", "--concurrency", "8")
    assert code == 0, stderr
    a, b = json.loads(sequential), json.loads(concurrent)
    assert verdicts(a) == verdicts(b)
    assert (a["score"], a["categories"]) == (b["score"], b["categories"])


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_dead_endpoint_stops_the_run_with_one_line(tmp_path):
    base = f"http://127.0.0.1:{closed_port()}/v1"
    out = tmp_path / "r.json"
    code, stdout, stderr = live(base, "--cap", "50", "--concurrency", "4", "--out", str(out))
    assert code == 2                                 # its retries (1 s, 2 s), not 50 requests: see requests_used
    stops = [line for line in stderr.splitlines() if line.startswith("toolproof: run stopped: ")]
    assert len(stops) == 1
    assert f"no HTTP answer from {base}/chat/completions" in stops[0] and "refused" in stops[0].lower()
    doc = json.loads(out.read_text())
    # the four first cases went out together; none after them was started
    assert doc["state"] == "error" and 1 <= len(doc["transcripts"]) <= 4 and doc["requests_used"] <= 12
    assert {t["turns"][0]["error"]["status"] for t in doc["transcripts"]} == {None}
    first_four = [c.id for c in BUNDLE.cases[:4]]
    recorded = [t["case_id"] for t in doc["transcripts"]]
    assert recorded == [i for i in first_four if i in recorded]       # in suite order, whichever finished


@pytest.mark.parametrize("flags, line", [
    (["--repeats", "0"], "toolproof: --repeats must be between 1 and 20, got 0"),
    (["--repeats", "21"], "toolproof: --repeats must be between 1 and 20, got 21"),
    (["--repeats", "9" * 40], f"toolproof: --repeats must be between 1 and 20, got {'9' * 40}"),
    (["--concurrency", "17"], "toolproof: --concurrency must be between 1 and 16, got 17"),
    (["--concurrency", "0"], "toolproof: --concurrency must be between 1 and 16, got 0"),
    (["--concurrency", "2.5"], "toolproof: usage error: argument --concurrency: invalid int value: '2.5'"),
    (["--price-in", "nan", "--price-out", "1"],
     "toolproof: --price-in must be a finite number >= 0 (USD per million tokens), got nan"),
    (["--price-in", "1"], "toolproof: give both --price-in and --price-out (USD per million tokens)"),
    (["--price-in", "1", "--price-out=-inf"],
     "toolproof: --price-out must be a finite number >= 0 (USD per million tokens), got -inf"),
    (["--pause", "1e308"], "toolproof: --pause must be between 0 and 60 seconds, got 1e+308"),
])
def test_bad_run_flags_are_refused_in_one_line(fake, flags, line):
    code, stdout, stderr = live(f"{fake.base}/v1", *flags)
    assert (code, stdout, stderr) == (2, "", line + "\n")
    assert fake.requests == []


def test_a_report_that_cannot_be_written_is_an_input_error(fake, tmp_path):
    code, _, stderr = live(f"{fake.base}/v1", "--cap", "1", "--junit", str(tmp_path / "missing" / "r.xml"))
    assert code == 2 and stderr.splitlines()[-1].startswith("toolproof: ")
    assert "--junit: no such folder" in stderr     # refused before any request is sent


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="needs the main thread")
def test_ctrl_c_during_a_concurrent_run_keeps_the_finished_cases(fake, tmp_path, ctrl_c):
    cases = [c for c in BUNDLE.cases if c.category == "should_call"]
    for case in cases[2:]:
        fake.script[case.id] = [("sleep", 20)] * 8         # slow answers: still in flight at Ctrl-C
    out = tmp_path / "r.json"
    sent = []

    def interrupt_when_two_are_kept():
        # seen in the results file, not guessed from a clock: a loaded machine is slower
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if len(json.loads(out.read_text())["transcripts"]) >= 2:
                    break
            except (OSError, ValueError, KeyError):
                pass
            time.sleep(0.05)
        time.sleep(0.3)
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt_when_two_are_kept, daemon=True).start()
    code, _, stderr = live(f"{fake.base}/v1", "--scope", "should_call", "--cap", "50",
                           "--concurrency", "4", "--out", str(out))
    assert sent and code == 130
    # the answers in flight (20 s each) were not waited for: only the two finished cases are kept
    assert f"toolproof: interrupted: 2 graded cases kept in {out}\n" in stderr
    assert [t["case_id"] for t in json.loads(out.read_text())["transcripts"]] == [c.id for c in cases[:2]]


def test_fail_under_fails_a_repeated_run_with_one_error_repeat(fake):
    first = next(c for c in BUNDLE.cases if c.category == "should_call")
    fake.script[(first.id, 1)] = [(200, {}, "{}"), (400, {}, '{"error": "x"}')]    # repeat 1 fails
    code, stdout, stderr = live(f"{fake.base}/v1", "--scope", "should_call", "--repeats", "2", "--cap", "18",
                                "--fail-under", "0", "--format", "json")
    card = json.loads(stdout)
    case = next(c for c in card["cases"] if c["id"] == first.id)
    assert "ERROR" in case["repeats"]
    assert code == 1
    assert stderr.endswith("toolproof: 1 conversation ended in ERROR (the request failed after its retries); "
                           "--fail-under 0.0 needs every case graded: re-run, or check the endpoint\n")
