"""Case rules re-read in tune3 (issue 35): each holds on sentences of its own, not the labelled
replies, in English, Portuguese and Spanish."""
from __future__ import annotations

import pytest

from toolproof.datafiles import load_suite_files
from toolproof.grading.final_answer import judge_answer

CASES = {c.id: c for c in load_suite_files().cases}


@pytest.mark.parametrize("text, ok", [
    ('Use =SUMIF(A2:A200, "paid", B2:B200): it tests column A and sums column B.', True),
    ('=SUMIFS(B:B, A:A, "paid") does it; in SUMIFS the sum range comes first.', True),
    ('Usa =SUMAR.SI(A:A;"paid";B:B).', True),
    ('Experimente =SOMA.SE(A:A;"paid";B:B).', True),
    ('Type =SUMIF(B2:B200, "paid", A2:A200) and press Enter.', False),
    ('Escreva =SOMA.SE(B:B;"paid";A:A).', False),
    ('Prueba con =SUMAR.SI(B:B; "paid"; A:A).', False),
])
def test_sumif_must_test_column_a_and_add_column_b(text, ok):
    judged = judge_answer(CASES["snc-spreadsheet-formula"], text, None, after_result=False)
    assert (judged.problems == []) is ok, judged.problems
