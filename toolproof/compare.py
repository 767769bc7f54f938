"""Compare one call's argument values with what the case expects, field by field.

Schema validity is judged elsewhere (`schema`); this module answers "are the values right?"
using the normalisation rules of `normalize` and the case's accepted alternatives.

Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .normalize import is_omitted_default, values_equal
from .suite import ExpectedCall

MATCH, MISMATCH, MISSING, EXTRA = "match", "mismatch", "missing", "extra"


@dataclass(frozen=True, slots=True)
class FieldResult:
    field: str
    status: str          # match | mismatch | missing | extra
    expected: Any
    actual: Any
    critical: bool


def compare_arguments(expected: ExpectedCall, arguments: dict, parameters: dict,
                      mocks: dict | None) -> list[FieldResult]:
    """One result per expected field (in order), then one per extra field the model added."""
    props = parameters.get("properties", {}) if isinstance(parameters, dict) else {}
    values = expected.expected_values(mocks)
    results = []
    for name in expected.fields():
        want, schema = values[name], props.get(name)
        critical = name in expected.critical
        if name not in arguments:
            status = MATCH if is_omitted_default(want, schema) else MISSING
            results.append(FieldResult(name, status, want, None, critical))
            continue
        got = arguments[name]
        options = [want, *expected.accept.get(name, [])]
        status = MATCH if any(values_equal(o, got, schema) for o in options) else MISMATCH
        results.append(FieldResult(name, status, want, got, critical))
    checked = set(values)
    results.extend(FieldResult(name, EXTRA, None, arguments[name], False)
                   for name in arguments if name not in checked)
    return results
