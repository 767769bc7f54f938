"""The selftest's wording checks: they pass on today's data, and when the committed fixtures carry
phrasings (as data/fixtures.json will) they check each phrasing's intended verdict and the fixture
scorecard's robustness section; a phrasing fixture with a wrong intended verdict is reported."""
from __future__ import annotations

import io
import json

from phrasingdocs import data_with_phrasings as documents
from toolproof.cli.main import run
from toolproof.datafiles import DATA, format_schema, read_json
from toolproof.selftest.checks import run_selftest

SCHEMAS = {k: format_schema(k) for k in ("tools", "suite", "transcripts")}


def names(report) -> str:
    return report.summary() + " | " + " | ".join(report.failures)


def test_today_data_passes_with_the_wording_checks():
    report = run_selftest({"tools": read_json(DATA / "tools.json"), "suite": read_json(DATA / "suite.json"),
                           "transcripts": read_json(DATA / "fixtures.json")}, SCHEMAS)
    assert not report.failures, names(report)


def test_fixtures_with_phrasings_pass_and_are_checked():
    report = run_selftest(documents(), SCHEMAS)
    assert not report.failures, names(report)
    wrong = run_selftest(documents(wrong=True), SCHEMAS)
    assert any(f.startswith("data: every phrasing fixture gets its intended verdict (not: ") for f in wrong.failures)


def test_grade_shows_the_robustness_section_for_fixtures_with_phrasings(tmp_path):
    docs = documents()
    paths = {}
    for key in ("suite", "transcripts"):
        paths[key] = tmp_path / f"{key}.json"
        paths[key].write_text(json.dumps(docs[key]))
    out = io.StringIO()
    code = run(["grade", "--suite", str(paths["suite"]), "--transcripts", str(paths["transcripts"]), "--format", "json"],
               stdout=out, stderr=io.StringIO(), environ={})
    card = json.loads(out.getvalue())
    assert code == 0 and card["robustness"]["phrasings"] == ["base", "terse"]
    assert card["robustness"]["consistent_cases"] == card["robustness"]["judged_cases"] == 2
