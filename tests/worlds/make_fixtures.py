"""Write the bundled worlds' scenario transcripts into data/fixtures.json (the case fixtures stay as
they are): `python tests/worlds/make_fixtures.py`.

One transcript per scenario, so the page shows a graded scenario run with no key: the scenario's
gold paths in turn, every third scenario one of its wrong paths instead (so the fixtures show
failures too), spread over the five wire formats; each made by grading/scenario_paths.py exactly as
`suite validate` replays it, labelled illustrative in its `note` (the file's label says the same)
and carrying the verdict it gets as `intended_verdict`. tests/worlds/test_fixtures.py checks that
the committed file equals what this makes, so a change to a world file is a change to the fixtures
in the same commit.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from toolproof.datafiles import DATA, bundled_worlds  # noqa: E402
from toolproof.grading.scenario_paths import path_check, path_transcript  # noqa: E402
from toolproof.providers.catalog import PROVIDERS  # noqa: E402

FIXTURES = DATA / "fixtures.json"


def scenario_fixtures(worlds: dict) -> list[dict]:
    """The scenario transcripts, in world and scenario order."""
    out = []
    scenarios = [(w, s) for w in worlds.values() for s in w.scenarios]
    for i, (world, scenario) in enumerate(scenarios):
        provider = PROVIDERS[i % len(PROVIDERS)]
        gold = not (i % 3 == 2 and scenario.wrong_paths) or not scenario.gold_paths
        paths = scenario.gold_paths if gold else scenario.wrong_paths
        if not paths:
            continue
        path = paths[(i // 3 if not gold else i) % len(paths)]
        raw = path_transcript(world, scenario, path, provider, model="fixture")
        verdict = path_check(world, scenario, path, gold=gold, provider=provider).result.verdict
        kind = "gold" if gold else "wrong"
        out.append({**raw, "intended_verdict": verdict,
                    "note": f"illustrative: the {kind} path {path.id!r} of data/worlds/{world.id}.json, "
                            "scripted, not a model's answer"})
    return out


def fixtures_doc(current: dict, worlds: dict) -> dict:
    """The fixtures document with its scenario transcripts made anew (the case ones kept)."""
    cases = [t for t in current["transcripts"] if "world" not in t]
    return {**current, "transcripts": cases + scenario_fixtures(worlds)}


def fixtures_text(doc: dict) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    current = json.loads(FIXTURES.read_text(encoding="utf-8"))
    doc = fixtures_doc(current, bundled_worlds())
    FIXTURES.write_text(fixtures_text(doc), encoding="utf-8")
    made = sum("world" in t for t in doc["transcripts"])
    print(f"data/fixtures.json: {made} scenario transcripts, {len(doc['transcripts']) - made} case transcripts")


if __name__ == "__main__":
    main()
