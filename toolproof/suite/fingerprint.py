"""The suite's fingerprint: sha256 of its canonical JSON, so two results files can say whether
they ran the same cases with the same expectations.

canonical = json.dumps(suite document, sort_keys=True, separators=(",", ":"), ensure_ascii=False),
encoded as UTF-8. Key order and whitespace in the file never change it; any value does.

Pure: no I/O (hashing a string is computation, not input).
"""
from __future__ import annotations

import hashlib
import json


def canonical_json(document) -> str:
    """The one text a document hashes as: sorted keys, no spaces, non-ASCII kept."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def suite_sha256(suite_document: dict) -> str:
    """Hex sha256 of the canonical suite JSON (what a results file records as suite_sha256)."""
    return hashlib.sha256(canonical_json(suite_document).encode("utf-8")).hexdigest()
