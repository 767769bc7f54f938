"""Tool definitions built from any JSON value where a schema keyword is expected (null, a number,
a list where an object belongs, ...), for the property test that lint never raises
(tests/authoring/test_lint.py, a pinned seed) and its longer search over many seeds
(benchmarks/lint_stress.py)."""
from __future__ import annotations

from hypothesis import strategies as st

# Every keyword lint or its schema walk reads, plus names its rules look at (date-like, hidden).
KEYWORDS = ["type", "properties", "required", "items", "anyOf", "oneOf", "allOf", "not", "$ref", "$defs",
            "definitions", "description", "format", "pattern", "enum", "const", "additionalProperties",
            "patternProperties", "prefixItems", "if", "then", "else", "contains", "propertyNames",
            "dependentSchemas", "unevaluatedProperties", "date", "due_at", "x\u200b"]

SCALAR = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
          | st.text(max_size=6) | st.sampled_from(["string", "object", "#", "#/$defs/a", "date", "YYYY"]))

VALUE = st.recursive(SCALAR, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.sampled_from(KEYWORDS) | st.text(max_size=4), inner, max_size=5),
                     max_leaves=30)

PARAMETERS = st.dictionaries(st.sampled_from(KEYWORDS), VALUE, max_size=6)


def tool_record(parameters, name: str, description) -> dict:
    """One importer record, as lint takes it."""
    return {"name": name, "description": description, "parameters": parameters,
            "at": {"tool": "$[0]", "name": "$[0].name", "description": "$[0].description",
                   "parameters": "$[0].parameters"}}


ARGS = (PARAMETERS, st.text(max_size=20), st.one_of(st.none(), st.text(max_size=40)))
