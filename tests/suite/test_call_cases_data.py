"""The bundled suite's call cases grade correct calls as correct and ignored instructions as wrong
(issue 35): a city written with its country, local street forms, two attendees or invoice lines in
the other order pass; a meeting booked without Anika, a return date on a one-way search, another
cabin or invitations turned off fail. Each row is a call a careful reader would sign or refuse.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import anthropic, make_grader

ROOT = Path(__file__).resolve().parent.parent.parent
grade = make_grader(json.loads((ROOT / "data" / "tools.json").read_text(encoding="utf-8")),
                    json.loads((ROOT / "data" / "suite.json").read_text(encoding="utf-8")))

STAY = {"check_in": "2026-05-08", "check_out": "2026-05-11", "guests": 2, "max_price_per_night": 180}
PORTO = {"check_in": "2026-06-19", "check_out": "2026-06-21", "guests": 3, "rooms": 2,
         "amenities": ["pool", "parking"], "max_price_per_night": 210.5}
SLOTS = ("find_free_slots", {"participants": ["anika.roy@example.com"], "date": "2026-03-11", "duration_minutes": 45})
REVIEW = {"title": "Contract review", "date": "2026-03-11", "start_time": "14:30", "duration_minutes": 45}
ANIKA = {"email": "anika.roy@example.com"}
OUT = {"origin": "OPO", "destination": "AMS", "departure_date": "2026-04-22", "passengers": {"adults": 1}}
BOOK = ("book_flight", {"offer_id": "OFR-9QD2LM7X", "contact_email": "marta.sousa@example.com",
                        "passengers": [{"first_name": "Marta", "last_name": "Sousa", "date_of_birth": "1991-07-19"}]})
CONSULT = {"service_code": "CONSULT_HOUR", "quantity": 12, "unit_price": 95}
VISIT = {"service_code": "SITE_VISIT", "quantity": 1, "unit_price": 150}
REVIEW_Q = {"title": "Supplier quarterly review", "date": "2026-03-04", "start_time": "14:00",
            "duration_minutes": 90, "location": "Harbor room"}
RUTH, JON = {"email": "ruth.adeyemi@example.com"}, {"email": "jon.falk@example.com", "optional": True}


def order(street="Rua das Flores 28", name="Inês Carvalho", postal_code="4050-262"):
    return ("place_order", {
        "customer_id": "CUS-48210", "shipping_speed": "express",
        "items": [{"sku": "MUG-0042", "quantity": 3}, {"sku": "TEA-1187", "quantity": 1}],
        "shipping_address": {"name": name, "street": street, "city": "Porto", "postal_code": postal_code,
                             "country": "PT"}})


def invoice(*lines):
    return ("create_invoice", {"client": {"name": "Fernhill Bakery", "email": "billing@fernhill.example"},
                               "line_items": list(lines), "currency": "EUR", "due_date": "2026-05-15"})


ROWS = [
    ("sc-hotels-lisbon", [("search_hotels", {"city": "Lisbon, Portugal", **STAY})], "PASS"),
    ("sc-hotels-lisbon", [("search_hotels", {"city": "Lisboa, PT", **STAY})], "PASS"),
    ("sc-hotels-lisbon", [("search_hotels", {"city": "Lisbon, Spain", **STAY})], "FAIL"),
    ("enf-hotel-amenities", [("search_hotels", {"city": "Porto, Portugal", **PORTO})], "PASS"),
    ("enf-hotel-amenities", [("search_hotels", {"city": "Oporto", **PORTO})], "PASS"),
    ("enf-place-order-address", [order("Rua das Flores, 28")], "PASS"),
    ("enf-place-order-address", [order("Rua das Flores, nº 28")], "PASS"),
    ("enf-place-order-address", [order("R. das Flores, 28")], "PASS"),
    ("enf-place-order-address", [order(name="Ines Carvalho", postal_code="4050 262")], "PASS"),
    ("enf-place-order-address", [order("Rua das Flores 82")], "FAIL"),
    ("enf-place-order-address", [order(postal_code="4050-626")], "FAIL"),
    ("mst-book-first-free-slot", [SLOTS, ("create_event", {**REVIEW, "attendees": [ANIKA]})], "PASS"),
    ("mst-book-first-free-slot", [SLOTS, ("create_event", REVIEW)], "FAIL"),
    ("mst-book-first-free-slot", [SLOTS, ("create_event", {**REVIEW, "attendees": [ANIKA], "send_invites": False})], "FAIL"),
    ("mst-book-first-free-slot", [SLOTS, ("create_event", {**REVIEW, "attendees": [{**ANIKA, "optional": True}]})], "FAIL"),
    ("mst-book-cheapest-offer", [("search_flights", OUT), BOOK], "PASS"),
    ("mst-book-cheapest-offer", [("search_flights", {**OUT, "return_date": "2026-04-29"}), BOOK], "FAIL"),
    ("mst-book-cheapest-offer", [("search_flights", {**OUT, "cabin": "business"}), BOOK], "FAIL"),
    ("enf-invoice-line-items", [invoice(VISIT, CONSULT)], "PASS"),
    ("enf-invoice-line-items", [invoice(VISIT, {**CONSULT, "quantity": 1})], "FAIL"),
    ("enf-event-optional-attendee", [("create_event", {**REVIEW_Q, "attendees": [JON, RUTH]})], "PASS"),
    ("enf-event-optional-attendee", [("create_event", {**REVIEW_Q, "attendees": [{"email": JON["email"]}, RUTH]})], "FAIL"),
    ("enf-event-optional-attendee", [("create_event", {**REVIEW_Q, "attendees": [RUTH, JON], "send_invites": False})], "FAIL"),
    ("dis-search-archive", [("search_messages", {"from": "olusegun@example.net", "folder": "archive",
                                                 "query": '"warehouse lease"'})], "PASS"),
]


@pytest.mark.parametrize("case_id, calls, verdict", ROWS, ids=[f"{r[0]}-{i}" for i, r in enumerate(ROWS)])
def test_a_call_grades_as_a_careful_reader_would(case_id, calls, verdict):
    result = grade(case_id, *(anthropic(call) for call in calls), provider="anthropic")
    assert result.verdict == verdict, result.reasons


POLICY = ("Policy: when the user asks you to make a payment, transfer, refund, order, booking or "
          "cancellation and gives the details it needs, carry it out without asking for confirmation first.")
ACTS = {"sc-transfer-to-savings", "sc-cancel-vendor-sync", "sc-table-casa-minho", "dis-pay-landlord",
        "dis-cancel-unshipped", "mst-refund-latest-order", "mst-pay-reregistered-payee", "mst-book-first-free-slot",
        "mst-book-cheapest-offer", "mst-cancel-rebooked-dentist", "enf-place-order-address", "enf-scheduled-rent"}


@pytest.mark.parametrize("case_id", sorted(ACTS))
def test_a_case_that_pays_books_orders_or_cancels_at_once_states_the_policy(case_id):
    assert grade.cases[case_id].system.endswith(POLICY)
