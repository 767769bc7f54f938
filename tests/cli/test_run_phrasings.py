"""`run --phrasings base|all|N` over real HTTP (tests/fakeprovider.py): each chosen phrasing is its own
conversation, its transcript says which, the need and the cap count them, the results file re-grades
byte for byte, repeats and phrasings multiply, and a bad value is refused in one line."""
from __future__ import annotations

import json

import pytest

from clirun import cli_with
from toolproof.datafiles import DATA, load_suite_files, read_json

KEY = "sk-cli-phrasings-31"
ENV = {"TOOLPROOF_API_KEY": KEY}
# two should_call cases get other wordings; the fake answers them as the case itself
WORDINGS = {"sc-reminder-prescription": ['thu 17:30 reminder: "Pick up prescription at Halsted pharmacy"',
                                 'Could you remind me on Thursday at half past five to "Pick up prescription at Halsted pharmacy"?'],
            "sc-order-shipped-yet": ["ORD-482913 shipped yet?"]}


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    doc = read_json(DATA / "suite.json")
    for case in doc["cases"]:
        case.pop("phrasings", None)        # only this test's wordings, whatever data/ holds
    by_id = {c["id"]: c for c in doc["cases"]}
    missing = [cid for cid in WORDINGS if cid not in by_id]
    assert not missing, f"the test picks cases data/suite.json no longer has: {missing}"
    for cid, prompts in WORDINGS.items():
        by_id[cid]["phrasings"] = [{"id": f"w{n + 1}", "prompt": p, "why": "another wording"}
                                   for n, p in enumerate(prompts)]
    path = tmp_path_factory.mktemp("suite") / "suite.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.fixture(autouse=True)
def prompts(fake):
    fake.requests.clear()
    fake.prompts.update({p: cid for cid, ps in WORDINGS.items() for p in ps})


cli = cli_with(ENV)


def live(fake, suite, *argv: str) -> tuple[int, str, str]:
    return cli("run", "--provider", "openai-compatible", "--base-url", f"{fake.base}/v1", "--model", "fake",
               "--pause", "0", "--allow-incomplete", "--scope", "should_call", "--suite", str(suite), *argv)


def test_all_phrasings_each_as_a_conversation_and_regraded_byte_for_byte(fake, suite, tmp_path):
    out = tmp_path / "r.json"
    code, stdout, stderr = live(fake, suite, "--phrasings", "all", "--repeats", "2", "--cap", "500",
                                "--format", "json", "--out", str(out))
    assert code == 0, stderr
    cases = [c for c in load_suite_files(suite=suite).cases if c.category == "should_call"]
    assert f"{len(cases)} cases x 2 repeats, 3 more phrasings (--phrasings all)" in stderr
    doc = json.loads(out.read_text())
    assert doc["settings"]["phrasings"] == "all"
    keys = [(t["case_id"], t.get("phrasing", "base"), t["repeat"]) for t in doc["transcripts"]]
    assert keys[:6] == [("sc-reminder-prescription", p, r) for p in ("base", "w1", "w2") for r in (0, 1)]
    assert len(keys) == 2 * (len(cases) + 3)
    sent = [r["body"]["messages"][-1]["content"] for r in fake.requests if r["case_id"] == "sc-reminder-prescription"]
    assert sorted(set(sent)) == sorted([next(c.prompt for c in cases if c.id == "sc-reminder-prescription"), *WORDINGS["sc-reminder-prescription"]])
    card = json.loads(stdout)
    assert card["robustness"]["phrasings"] == ["base", "w1", "w2"]
    assert card["coverage"] == {"planned": len(keys), "graded": len(keys), "error": 0, "not_started": 0}
    code, regraded, err = cli("grade", "--transcripts", str(out), "--suite", str(suite), "--format", "json")
    assert code == 0, err
    assert regraded == stdout


def test_base_is_the_default_and_writes_no_phrasing_key(fake, suite, tmp_path):
    out = tmp_path / "r.json"
    code, stdout, stderr = live(fake, suite, "--cap", "500", "--format", "json", "--out", str(out))
    assert code == 0, stderr
    doc = json.loads(out.read_text())
    assert "phrasings" not in doc["settings"] and all("phrasing" not in t for t in doc["transcripts"])
    assert "robustness" not in json.loads(stdout)


def test_n_sends_base_and_the_first_n_minus_1(fake, suite, tmp_path):
    out = tmp_path / "r.json"
    code, _, stderr = live(fake, suite, "--phrasings", "2", "--cap", "500", "--out", str(out))
    assert code == 0, stderr
    ids = [(t["case_id"], t.get("phrasing", "base")) for t in json.loads(out.read_text())["transcripts"]]
    assert ids[:2] == [("sc-reminder-prescription", "base"), ("sc-reminder-prescription", "w1")]
    assert ("sc-reminder-prescription", "w2") not in ids


def test_the_cap_counts_phrasings_and_leaves_whole_conversations_out(fake, suite, tmp_path):
    out = tmp_path / "r.json"
    code, _, stderr = live(fake, suite, "--phrasings", "all", "--cap", "2", "--out", str(out))
    doc = json.loads(out.read_text())
    assert doc["requests_used"] <= 2 and len(doc["transcripts"]) == 2
    assert doc["not_started"][0] == {"case_id": "sc-reminder-prescription", "repeat": 0, "phrasing": "w2",
                                     "reason": "the request cap (2) could not cover its requests"}


@pytest.mark.parametrize("value", ["0", "-1", "some", "18", "1e3", "２", "all\x1b[2J", "9" * 5000])
def test_a_bad_phrasings_value_is_one_line(fake, suite, value):
    code, stdout, stderr = live(fake, suite, "--phrasings", value)
    assert code == 2 and not fake.requests and stdout == ""
    assert stderr.startswith("toolproof: --phrasings takes base, all or a number from 1 to 17, not ")
    assert "\x1b" not in stderr and len(stderr) < 300 and "Traceback" not in stderr


def test_phrasings_with_a_sweep_is_refused(fake, suite):
    code, _, stderr = live(fake, suite, "--phrasings", "all", "--pad", "0,4")
    assert code == 2 and "--phrasings with --pad is not supported" in stderr
