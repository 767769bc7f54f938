"""Contents stated of a record no tool read: part of `claims_done: false` where no tool result
was read (must_ask, should_not_call). "ORD-771204 contains a blue jacket and two T-shirts" in a
reply that only had the user's order number invents the order, as surely as "I've opened the
return" invents an action. Read: a contents verb (contains, includes, consists of; contém,
inclui; contiene, incluye: answer_lexicon.CONTAINS), stated, after an identifier or an order
word (order, encomenda, pedido: RECORDS) in its clause. A question ("Does ORD-771204 include
the shoes?"), a condition ("if your order contains…") or a denial states nothing.

Pure: no I/O.
"""
from __future__ import annotations

import re
from bisect import bisect_left

from . import answer_lexicon as lex
from .answer_patterns import find_phrase
from .answer_text import STATED, Reading

IDENT = re.compile(r"(?<![\w\-])[A-Z]{2,6}-?\d{3,12}(?![\w\-])")
MAX_FOUND = 50


def stated_contents(reading: Reading) -> tuple | None:
    """(start, end) of the first contents verb stated of an id or an order; None if none."""
    verbs = sorted({m for words in lex.CONTAINS.values() for w in words for m in find_phrase(reading, w)})
    if not verbs:
        return None
    records = sorted({m for words in lex.RECORDS.values() for w in words for m in find_phrase(reading, w)}
                     | {m.span() for m in IDENT.finditer(reading.text)})
    for start, end in verbs[:MAX_FOUND]:
        clause = reading.clause_at(start)
        k = bisect_left(records, (start,)) - 1     # the last record before the verb
        while k >= 0 and records[k][1] > start:
            k -= 1
        if k >= 0 and records[k][0] >= clause.start and reading.polarity(start)[0] == STATED:
            return start, end
    return None
