"""The bundled suite's figures, read from data/suite.json: what tests quote about the whole suite
(its cases, its conversations over every phrasing, a category's cases), so adding cases changes
no test's numbers (issue 40 grew the suite from 72 cases to 136)."""
from __future__ import annotations

from toolproof.datafiles import DATA, read_json

_CASES = read_json(DATA / "suite.json")["cases"]
CASES = len(_CASES)                                                        # every case, base phrasing
CONVERSATIONS = CASES + sum(len(c.get("phrasings", [])) for c in _CASES)   # every case in every phrasing


def in_category(category: str) -> int:
    """How many of the suite's cases are in this category."""
    return sum(c["category"] == category for c in _CASES)

_IDS = {c["id"] for c in _CASES}
# the committed fixtures' conversations of suite cases (a case in each phrasing it has a fixture for;
# the scenarios' transcripts in the same file are not cases)
FIXTURE_CONVERSATIONS = sum(t["case_id"] in _IDS for t in read_json(DATA / "fixtures.json")["transcripts"])
