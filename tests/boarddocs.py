"""Results documents for leaderboard tests: every case of the shipped suite, each answered with
its fixture ("pass"), a text reply ("fail") or a failed request ("error"), built on repeatdocs.
Shared by the board's scoring, report, CLI, HTML and page tests so they rank the same runs.
"""
from __future__ import annotations

import copy
import json

from repeatdocs import BY_ID, ROOT, SUITE, document
from toolproof.suite.fingerprint import suite_sha256

SHA = suite_sha256(SUITE)
IDS = list(BY_ID)
HOSTILE = "<script>alert(1)</script> | `x` \u202eevil\x1b[31m [l](javascript:alert(1)) <img src=x onerror=alert(1)>"


def run_doc(model: str, fail_every: int = 0, *, repeats: int = 1, sha: str | None = SHA, ids=None, **extra) -> dict:
    """A live results document: case i fails when fail_every and i % fail_every == 0, else
    its fixture answers; every case sent `repeats` times."""
    plan = {cid: ["fail" if fail_every and i % fail_every == 0 else "pass"] * repeats
            for i, cid in enumerate(ids or IDS)}
    doc = document(plan, suite_sha256=sha, model=model)
    for transcript in doc["transcripts"]:       # a text reply is Anthropic's shape, whatever the fixture's
        if plan[transcript["case_id"]][0] == "fail":
            transcript["provider"] = "anthropic"
    doc.update(extra)
    return doc


def write_runs(folder, docs: dict) -> list[str]:
    """{name: document} written as name.json into folder; the paths, in the order given."""
    paths = []
    for name, doc in docs.items():
        path = folder / f"{name}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        paths.append(str(path))
    return paths


def partial_doc(model: str, keep: int = 10, **extra) -> dict:
    """A live run that states its plan (the whole suite) but holds only its first `keep`
    transcripts, every one passing: a copy of a full results file cut short."""
    doc = run_doc(model, settings={"repeats": 1}, **extra)
    doc["transcripts"] = doc["transcripts"][:keep]
    return doc


def scoped_doc(model: str, scope: str, fail_every: int = 0, **extra) -> dict:
    """A live run of one category (`--scope`), stating that scope as its plan."""
    ids = [c["id"] for c in SUITE["cases"] if c["category"] == scope and c["id"] in BY_ID]
    return run_doc(model, fail_every, ids=ids, scope=scope, settings={"repeats": 1, "scope": scope}, **extra)


def phrased_doc(model: str, **extra) -> dict:
    """A live run of every phrasing of every case (the committed fixtures, each phrasing answered
    as its fixture), stating that plan."""
    fixtures = json.loads((ROOT / "data" / "fixtures.json").read_text(encoding="utf-8"))
    doc = run_doc(model, settings={"repeats": 1, "phrasings": "all"}, **extra)
    doc["transcripts"] = [{k: v for k, v in copy.deepcopy(t).items() if k not in ("intended_verdict", "note")}
                          for t in fixtures["transcripts"]]
    return doc
