"""JUnit XML stays well-formed whatever the reasons hold, and maps verdicts as CI expects."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, settings, strategies as st

from toolproof.reports.junit import junit_xml, xml_text


def card(*cases):
    return {"cases": [{"id": i, "category": c, "verdict": v, "reasons": r} for i, c, v, r in cases]}


def test_verdicts_map_to_failure_error_or_nothing():
    xml = junit_xml(card(("a", "should_call", "PASS", ["ok"]), ("b", "should_call", "PARTIAL", ["half", "second"]),
                         ("c", "injection", "ERROR", ["turn 1: request failed (HTTP 503: x)"]),
                         ("d", "injection", "FAIL", [])))
    root = ET.fromstring(xml)
    assert [s.get("name") for s in root.findall("testsuite")] == ["should_call", "injection"]
    b = root.find(".//testcase[@name='b']/failure")
    assert (b.get("type"), b.get("message"), b.text) == ("PARTIAL", "PARTIAL: half", "half\nsecond")
    assert root.find(".//testcase[@name='c']/error").get("type") == "ERROR"
    assert root.find(".//testcase[@name='a']").findall("*") == []
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("4", "2", "1")


def test_control_characters_are_shown_not_dropped():
    assert xml_text("a\x00b\x1b\ud800\uffff<&>'\"") == "a\\u0000b\\u001b\\ud800\\uffff&lt;&amp;&gt;&apos;&quot;"
    assert xml_text("line\nnext\ttab", attribute=True) == "line&#10;next&#9;tab"


@settings(max_examples=200, deadline=None)
@given(st.text(), st.text(min_size=1), st.sampled_from(["PASS", "PARTIAL", "FAIL", "ERROR"]))
def test_any_reason_and_id_give_well_formed_xml(reason, case_id, verdict):
    xml = junit_xml(card((case_id, "should_call", verdict, [reason])))
    root = ET.fromstring(xml.encode("utf-8", "surrogatepass"))
    assert root.find(".//testcase").get("name") is not None
