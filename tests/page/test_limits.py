"""The page against hostile provider answers: each limit is a FAIL with its reason, the run
still ends with a scorecard and both exports, the JSON export is strict and the Markdown
export carries no control character.

Reuses the live page and routed provider of tests/livepage.py and tests/routed.py (one booted
page per module).
"""
from __future__ import annotations

import json

import pytest

from livepage import FIRST, assert_only_talked_to, card_cases, exports, live, page, reasons, run  # noqa: F401
from routed import OPENAI, openai_body

pytestmark = pytest.mark.browser

TOOL = "create_reminder"          # what FIRST expects


def _refuse(name):
    raise AssertionError(f"non-strict JSON constant {name}")


HOSTILE = [
    ("[" * 10_000 + "]" * 10_000, "request failed (HTTP 200: the response body is unreadable "
                                  "(body nested deeper than 64 levels))"),
    ('{"choices": [{"message": {"content": NaN}}]}',
     "request failed (HTTP 200: the response body is unreadable (NaN is not JSON))"),
    (openai_body(calls=[(TOOL, '{"title": ' + "9" * 5000 + "}")]), f"{TOOL}: integer with more than 300 digits"),
    (openai_body(calls=[(TOOL, '{"title": ' + "[" * 70 + "]" * 70 + "}")]),
     f"{TOOL}: arguments nested deeper than 64 levels"),
    (openai_body(calls=[(TOOL, '{"title": Infinity}')]), f"{TOOL}: Infinity is not JSON"),
]


@pytest.mark.parametrize("body, reason", HOSTILE, ids=["deep-body", "nan-body", "huge-int-args", "deep-args",
                                                       "infinity-args"])
def test_a_hostile_answer_fails_with_its_reason_and_the_run_ends_with_a_scorecard(page, live, body, reason):
    openai = live(OPENAI)
    openai.script[FIRST] = [(200, {}, body)]
    # an unreadable body is no answer: with it the only request, no request succeeded and the
    # run ends in the error state (issue 14), still with its graded case, scorecard and exports
    unreadable_body = reason.startswith("request failed")
    # answered at once: a long timeout, so only the body decides (a busy machine timed out at 1 s)
    assert run(page, cap=1, timeout="30") == ("error" if unreadable_body else "done")
    # an unreadable body is a failed request (ERROR, issue 9); hostile arguments the model's FAIL
    verdict = "ERROR" if unreadable_body else "FAIL"
    assert card_cases(page) == {FIRST: verdict}
    assert reason in reasons(page, FIRST)
    doc, markdown = exports(page)
    assert json.loads(json.dumps(doc), parse_constant=_refuse)["scorecard"]["cases"][0]["verdict"] == verdict
    assert reason in markdown
    assert_only_talked_to(page, live.server, OPENAI)


def test_control_characters_in_model_text_reach_no_export_raw(page, live):
    openai = live(OPENAI)
    openai.script[FIRST] = [(200, {}, openai_body(content="\x1b[2J\x1b[31mcleared\u202e\r"))]
    assert run(page, cap=1) == "done"
    doc, markdown = exports(page)
    assert "\x1b" not in markdown and "\u202e" not in markdown and "\r" not in markdown
    # shown, escaped, in the reason (Markdown doubles the backslash and escapes "[": it renders \u001b[2J)
    assert "\\\\u001b\\[2J" in markdown and "\\u202e" in markdown
    assert doc["scorecard"]["cases"][0]["final_text"] == "\x1b[2J\x1b[31mcleared\u202e\r"   # data kept exact
