"""Compare one call's argument values with what the case expects, field by field.

Schema validity is judged elsewhere (`schema`); this module answers "are the values right?"
using the normalisation rules of `normalize` and the case's accepted alternatives.

Pure: no I/O.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from .normalize import date_note, is_omitted_default, values_equal
from .suite import ExpectedCall

MATCH, MISMATCH, MISSING, EXTRA = "match", "mismatch", "missing", "extra"
_SCALARS = (str, int, float, bool)


class FieldResult(NamedTuple):
    field: str
    status: str          # match | mismatch | missing | extra
    expected: Any
    actual: Any
    critical: bool
    note: str = ""       # why a value that looks right is not (a weekday that contradicts the date)


def compare_arguments(expected: ExpectedCall, arguments: dict, parameters: dict,
                      mocks: dict | None) -> list[FieldResult]:
    """One result per expected field (in order), then one per extra field the model added."""
    props = parameters.get("properties", {}) if isinstance(parameters, dict) else {}
    values = expected.expected_values(mocks)
    critical, accept = expected.critical, expected.accept
    results = []
    for name in expected.names:
        want, schema = values[name], props.get(name)
        if name not in arguments:
            status = MATCH if is_omitted_default(want, schema) else MISSING
            results.append(FieldResult(name, status, want, None, name in critical))
            continue
        got = arguments[name]
        if got.__class__ is want.__class__ and got.__class__ in _SCALARS and got == want:
            status = MATCH      # identical scalars: no normalisation can make them differ
        elif values_equal(want, got, schema) or any(
                values_equal(option, got, schema) for option in accept.get(name, ())):
            status = MATCH
        else:
            results.append(FieldResult(name, MISMATCH, want, got, name in critical, date_note(got, schema)))
            continue
        results.append(FieldResult(name, status, want, got, name in critical))
    results.extend(FieldResult(name, EXTRA, None, arguments[name], False)
                   for name in arguments if name not in values)
    return results
