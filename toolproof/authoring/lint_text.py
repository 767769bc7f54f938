"""The text rules of lint: instructions aimed at the model, and the word and name keys
similar-tools compares. Invisible characters are defined once, in toolproof/safe_text.py.
Pure: no I/O.
"""
from __future__ import annotations

import re

from toolproof.safe_text import without_hidden

# Phrases that speak to the model instead of describing a tool (tool poisoning). Matched
# case-insensitively, after hidden characters are removed (so "ig\u200bnore" still counts),
# on word boundaries. Each entry: (label shown in the finding, pattern).
INSTRUCTION_PHRASES = (
    ("'ignore previous'", r"\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+|your\s+)?"
                          r"(previous|prior|above|earlier|other|system)\b"),
    ("'do not tell the user'", r"\b(do\s+not|don'?t|never)\s+(tell|inform|mention|reveal|show|notify|alert)"
                               r"\b[^.]{0,30}\buser\b"),
    ("'without telling the user'", r"\bwithout\s+(telling|informing|notifying|alerting|asking)\s+(the\s+)?user\b"),
    ("'<IMPORTANT>' tag", r"<\s*/?\s*(important|system|instructions?|secret|hidden)\s*>"),
    ("a request to read files or secrets",
     r"\b(read|cat|open|load|send|upload|include|attach|copy|pass|exfiltrate)\b[^.]{0,60}"
     r"(~/|/etc/(passwd|shadow)|\.ssh\b|id_rsa|\.env\b|mcp\.json|\.aws/|credentials\s+file|"
     r"private\s+keys?\b|api[\s_-]?keys?\b|system\s+prompt|(conversation|chat)\s+history)"),
    ("'before using this tool, you must'", r"\bbefore\s+(using|calling)\s+(this|any)\s+tool\b[^.]{0,40}\b(must|first|always)\b"),
    ("'you are now' / role change", r"\b(you\s+are\s+now|act\s+as\s+(the\s+)?system|new\s+instructions)\b"),
)
_PHRASES = tuple((label, re.compile(pattern, re.IGNORECASE)) for label, pattern in INSTRUCTION_PHRASES)

_STOP_WORDS = frozenset("a an the of to for and or in on with by is it this that from as be at "
                        "if its into use used when".split())
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def instruction_phrase(text: str) -> str | None:
    """The label of the first instruction phrase in `text`, or None."""
    visible = without_hidden(text)
    for label, pattern in _PHRASES:
        if pattern.search(visible):
            return label
    return None


def word_set(text: str) -> frozenset:
    """The content words of a description, lower-cased (what similar-tools compares)."""
    return frozenset(w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP_WORDS)


def name_key(name: str) -> str:
    """A name up to case, separators and a plural s: get_Orders, getOrder and get-order agree."""
    words = re.split(r"[^A-Za-z0-9]+", _CAMEL.sub("_", name))
    return "_".join(w.lower()[:-1] if len(w) > 3 and w.lower().endswith("s") else w.lower()
                    for w in words if w)
