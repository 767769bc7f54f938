"""Compare one call's argument values with what the case expects, field by field.

Schema validity is judged elsewhere (`schema`); this module answers "are the values right?"
using the normalisation rules of `normalize` and the case's own rules: accepted values per
field or per key inside an object argument (`accept`, dotted path), fields that may be omitted
(`optional`) or must be (`absent`), BFCL's loose strings (`loose`), lists whose items may come in
any order (`unordered`), and `exact` (an argument the case does not list fails).

Pure: no I/O.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from .answer_rules import judge
from .normalize import date_note, is_omitted_default, values_equal
from toolproof.suite.model import ExpectedCall, value_at

MATCH, MISMATCH, MISSING, EXTRA = "match", "mismatch", "missing", "extra"
_SCALARS = (str, int, float, bool)
MUST_BE_OMITTED = "the case says this field must be omitted"
TEXT_RULES = "its text rules"      # the `expected` of a field judged by text rules (v2 `text`)
NOT_LISTED = "the case lists every argument (exact), and not this one"


class FieldResult(NamedTuple):
    field: str
    status: str          # match | mismatch | missing | extra
    expected: Any
    actual: Any
    critical: bool       # an extra field is critical when the case forbids it (absent, exact)
    note: str = ""       # why a value that looks right is not (a weekday that contradicts the date)


def compare_arguments(expected: ExpectedCall, arguments: dict, parameters: dict,
                      mocks: dict | None) -> list[FieldResult]:
    """One result per expected field (in order), then one per extra field the model added."""
    props = parameters.get("properties", {}) if isinstance(parameters, dict) else {}
    values = expected.expected_values(mocks)
    critical, text = expected.critical, expected.text
    results = []
    for name in expected.names:
        if text and name in text:
            results.append(text_field(expected, name, arguments, mocks))
            continue
        want, schema = values[name], props.get(name)
        if name not in arguments:
            omitted_ok = name in expected.optional or is_omitted_default(want, schema)
            results.append(FieldResult(name, MATCH if omitted_ok else MISSING, want, None, name in critical))
            continue
        got = arguments[name]
        if got.__class__ is want.__class__ and got.__class__ in _SCALARS and got == want:
            # Identical scalars: no normalisation can make them differ. Most fields end here, and
            # _make builds the tuple at half the cost of the NamedTuple's keyword-aware __new__.
            results.append(FieldResult._make((name, MATCH, want, got, name in critical, "")))
        elif field_equal(expected, name, want, got, schema):
            results.append(FieldResult(name, MATCH, want, got, name in critical))
        else:
            results.append(FieldResult(name, MISMATCH, want, got, name in critical, date_note(got, schema)))
    for name in arguments:
        if name in values or (text and any(t.split(".")[0] == name for t in text)):
            continue
        forbidden = name in expected.absent or expected.exact
        note = MUST_BE_OMITTED if name in expected.absent else NOT_LISTED if expected.exact else ""
        results.append(FieldResult(name, EXTRA, None, arguments[name], forbidden, note))
    return results


def text_field(expected: ExpectedCall, name: str, arguments: dict, mocks: dict | None) -> FieldResult:
    """A free-text field judged by its text rules (the answer rules), not by equality: MATCH
    when they hold; otherwise the note says which rule failed and on what words."""
    critical = name in expected.critical
    found, got = value_at(arguments, name)
    if not found:
        omitted_ok = name in expected.optional
        return FieldResult(name, MATCH if omitted_ok else MISSING, TEXT_RULES, None, critical)
    if not isinstance(got, str):
        return FieldResult(name, MISMATCH, TEXT_RULES, got, critical, "not a text")
    problems = judge(expected.text[name], got, mocks, where=None).problems
    if not problems:
        return FieldResult(name, MATCH, TEXT_RULES, got, critical)
    return FieldResult(name, MISMATCH, TEXT_RULES, got, critical, "; ".join(problems))


def field_equal(call: ExpectedCall, path: str, want: Any, got: Any, schema: Any) -> bool:
    """Is `got` right for the field (or dotted key) `path`: equal to the expected value or to
    one the case accepts there, with the call's loose, optional and exact rules applied inside
    object arguments too."""
    loose = path.split(".")[0] in call.loose or path in call.loose
    return any(_value_equal(call, path, option, got, schema, loose)
               for option in (want, *call.accept.get(path, ())))


def _value_equal(call: ExpectedCall, path: str, want: Any, got: Any, schema: Any, loose: bool) -> bool:
    if path in call.unordered and isinstance(want, list) and isinstance(got, list):
        return _same_items(want, got, schema, loose)
    if not (isinstance(want, dict) and isinstance(got, dict) and _has_rules_inside(call, path)):
        return values_equal(want, got, schema, loose=loose)
    props = schema.get("properties", {}) if isinstance(schema, dict) else {}
    props = props if isinstance(props, dict) else {}
    for key, value in want.items():
        inner = f"{path}.{key}"
        if key not in got:
            if inner not in call.optional and not is_omitted_default(value, props.get(key)):
                return False
        elif not field_equal(call, inner, value, got[key], props.get(key)):
            return False
    return not (call.exact and any(key not in want for key in got))


def _same_items(want: list, got: list, schema: Any, loose: bool) -> bool:
    """The same items in any order (v2 `unordered`): each expected item paired one-to-one with
    an equal actual item, found by augmenting paths so a greedy pairing cannot miss one."""
    if len(want) != len(got):
        return False
    items = schema.get("items") if isinstance(schema, dict) else None
    equal = [[j for j, g in enumerate(got) if values_equal(w, g, items, loose=loose)] for w in want]
    owner: dict[int, int] = {}          # actual index -> expected index it is paired with

    def pair(i: int, seen: set) -> bool:
        for j in equal[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or pair(owner[j], seen):
                    owner[j] = i
                    return True
        return False
    return all(pair(i, set()) for i in range(len(want)))


def _has_rules_inside(call: ExpectedCall, path: str) -> bool:
    """Do any of the call's rules reach inside this object (otherwise values_equal decides)?"""
    prefix = path + "."
    return call.exact or any(k.startswith(prefix) for k in (*call.accept, *call.optional, *call.unordered))
