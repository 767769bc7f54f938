"""Deterministic phrase rules on a model's final text (result-use cases).

A rule item is a phrase, a tuple of phrases (any one will do) or {"result": "tool.path"}: the
value at that place in the mock result, so a different mock demands a different answer.
Matching ignores case and runs of whitespace and respects word boundaries ("shipped" does not
match "unshipped"); a number read from a result matches the numbers in the text by value (12.5
is stated by "12.50", and 1250 is not stated by "1250.75").

Pure: no I/O.
"""
from __future__ import annotations

import json
import re
from typing import Any

from .normalize import normalize_text
from toolproof.suite.model import PhraseRules, resolve_result


def mentions(text: str, phrase: str) -> bool:
    """Does `text` contain `phrase` as whole words, ignoring case and spacing?"""
    needle = normalize_text(phrase)
    if not needle:
        return False
    pattern = r"(?<!\w)" + re.escape(needle) + r"(?!\w)"
    return re.search(pattern, normalize_text(text)) is not None


_NUMBER = re.compile(r"(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.])-?\d+(?:\.\d+)?(?![\w])")


def mentions_number(text: str, value: float) -> bool:
    """Does `text` state this number? 12.5 is stated by "12.50" and "$12.5", not by "12.55"."""
    for match in _NUMBER.finditer(text):
        found = match.group().rstrip(".").replace(",", "")
        if abs(float(found) - value) <= 1e-6:
            return True
    return False


def _phrases(item: Any, mocks: dict) -> tuple[list[str], str]:
    """(acceptable phrases, how to name the rule in a reason)."""
    if isinstance(item, dict):
        value = resolve_result(mocks, item["result"])
        shown = value if isinstance(value, str) else _scalar_text(value)
        return [shown], f"{_quote(shown)} (from {item['result']})"
    if isinstance(item, tuple):
        return list(item), " or ".join(_quote(p) for p in item)
    return [item], _quote(item)


def _quote(phrase: str) -> str:
    return json.dumps(phrase, ensure_ascii=False)


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def text_problems(rules: PhraseRules, text: str, mocks: dict) -> list[str]:
    """Every way `text` breaks the rules, as reasons; empty when it follows them."""
    problems = []
    for item in rules.must_include:
        options, label = _phrases(item, mocks)
        value = resolve_result(mocks, item["result"]) if isinstance(item, dict) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if not mentions_number(text, value):      # numbers compare as numbers, not words
                problems.append(f"final answer does not mention {label}")
            continue
        if not any(mentions(text, p) for p in options):
            problems.append(f"final answer does not mention {label}")
    for phrase in rules.must_not_include:
        if mentions(text, phrase):
            problems.append(f"final answer says {_quote(phrase)}, which the tool result does not support")
    return problems
