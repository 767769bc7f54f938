"""What the reports' short heads mean (reports/legends.py): from the records that define them, so
a renamed category or rate changes its legend too, and never a guess when a file lacks a field."""
from __future__ import annotations

from toolproof.grading.verdicts import VERDICT_ORDER
from toolproof.reports.legends import (VERDICT_MEANING, board_legend, comparison_legend, scorecard_legend,
                                       verdict_legend)
from toolproof.suite.categories import CATEGORY


def test_the_verdict_line_names_each_verdict_once_in_order():
    line = verdict_legend()
    assert [line.index(f"{v}: ") for v in VERDICT_ORDER] == sorted(line.index(f"{v}: ") for v in VERDICT_ORDER)
    assert all(line.count(f"{v}: ") == 1 for v in VERDICT_ORDER)
    assert set(VERDICT_MEANING) == set(VERDICT_ORDER)


def test_the_interval_level_and_method_come_from_the_document():
    assert scorecard_legend({"intervals": {"level": 0.9}})[0][0] == "90% CI"
    found = dict(comparison_legend({"intervals": {"level": 0.95, "method": "over cases: paired t, stratified"}}))
    assert found["95% CI over cases"].endswith("(paired t, stratified)")


def test_a_document_without_the_fields_gets_the_defaults_not_an_error():
    for junk in ({}, {"intervals": None}, {"intervals": {"level": "x", "method": 7}}):
        assert scorecard_legend(junk)[0][0] == "95% CI"
        assert "(paired t)" in dict(comparison_legend(junk))["95% CI over cases"]
    assert dict(board_legend({"method": "junk"}))["95% CI"] == "the 95% interval of the score over cases"


def test_the_board_legend_names_every_category_by_its_label():
    found = dict(board_legend({}))
    assert all(found[c.short] == c.label for c in CATEGORY.values())
