"""Lint on 1,640 tools (data/tools.json's 41 tools, 40 times over): figures, not a test.

    python benchmarks/lint_tools.py

Three files, each 1,640 tools: "renamed" (40 renamed copies: every description repeated 40
times, the worst case for similar-tools' grouping), "perturbed" (each copy's descriptions get two
words of their own: near-duplicates, so prefix filtering has candidates to score) and
"distinct" (descriptions of random words). Prints the time of the whole lint, of similar-tools
alone, and of a brute-force all-pairs Jaccard for comparison.
"""
from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from toolproof.importers import tools_from_any  # noqa: E402
from toolproof.authoring.lint import MAX_CANDIDATES, SIMILAR_AT, lint_tools  # noqa: E402
from toolproof.authoring.lint_similar import similar_pairs  # noqa: E402
from toolproof.authoring.lint_text import word_set  # noqa: E402

COPIES = 40


def files() -> dict:
    base = json.loads((ROOT / "data" / "tools.json").read_text())["tools"]
    rng = random.Random(1)
    vocab = [f"word{i}" for i in range(3000)]
    out = {"renamed": [], "perturbed": [], "distinct": []}
    for copy in range(COPIES):
        for t in base:
            name = f"{t['name']}_{copy}"
            out["renamed"].append({**t, "name": name})
            out["perturbed"].append({**t, "name": name, "description": f"{t['description']} Copy {copy} {name}."})
            out["distinct"].append({**t, "name": name, "description": " ".join(rng.sample(vocab, 25))})
    return {k: {"format": "toolproof.tools", "version": 1, "tools": v} for k, v in out.items()}


def brute_force(sets: list) -> int:
    hits = 0
    for j, s in enumerate(sets):
        for i in range(j):
            union = len(s | sets[i])
            if union and len(s & sets[i]) / union >= SIMILAR_AT:
                hits += 1
    return hits


def main() -> None:
    for label, doc in files().items():
        records = tools_from_any(doc)[1]
        start = time.perf_counter()
        findings = lint_tools(records)
        whole = time.perf_counter() - start
        names = [r["name"] for r in records]
        sets = [word_set(r["description"]) for r in records]
        start = time.perf_counter()
        pairs = list(similar_pairs(names, sets, SIMILAR_AT, MAX_CANDIDATES))
        similar = time.perf_counter() - start
        start = time.perf_counter()
        brute = brute_force(sets)
        slow = time.perf_counter() - start
        print(f"{label:<10} {len(records)} tools: lint {whole:.2f} s ({len(findings)} findings); "
              f"similar-tools {similar * 1000:.0f} ms, {len(pairs)} pairs; "
              f"brute-force all pairs {slow:.2f} s, {brute} pairs")


if __name__ == "__main__":
    main()
