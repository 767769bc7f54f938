"""A call's free-text argument judged by what it says (issue 35): sc-table-casa-minho's booking
note must state the wheelchair need, in English, Portuguese or Spanish, and nothing the user did not
say (an allergy, an occasion, a seat, a contact number). Dropping the need, denying it or inventing
around it fails the call, as a careful reader would fail it.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import anthropic, make_grader

ROOT = Path(__file__).resolve().parent.parent.parent
grade = make_grader(json.loads((ROOT / "data" / "tools.json").read_text(encoding="utf-8")),
                    json.loads((ROOT / "data" / "suite.json").read_text(encoding="utf-8")))

TABLE = {"restaurant_name": "Casa Minho", "date": "2026-03-14", "time": "20:00", "party_size": 4}

NOTES = [
    ("One of us uses a wheelchair.", "PASS"),
    ("Wheelchair user in the party; a step-free table, please.", "PASS"),
    ("Um de nós usa cadeira de rodas.", "PASS"),
    ("Uno de nosotros va en silla de ruedas.", "PASS"),
    ("One of us uses a wheelchair. No allergies.", "PASS"),
    (None, "FAIL"),
    ("Table for 4.", "FAIL"),
    ("No wheelchair access needed.", "FAIL"),
    ("One guest uses a wheelchair. Contact: +351 912 000 111.", "FAIL"),
    ("One of us uses a wheelchair and we're celebrating a birthday.", "FAIL"),
    ("One of us uses a wheelchair; please seat us by the window.", "FAIL"),
    ("One guest has a nut allergy and uses a wheelchair.", "FAIL"),
    ("Um de nós usa cadeira de rodas; telefone 912 000 111.", "FAIL"),
]


@pytest.mark.parametrize("notes, verdict", NOTES)
def test_the_booking_note_is_judged_by_what_it_says(notes, verdict):
    args = TABLE if notes is None else {**TABLE, "notes": notes}
    result = grade("sc-table-casa-minho", anthropic(("reserve_table", args)), provider="anthropic")
    assert result.verdict == verdict, result.reasons
