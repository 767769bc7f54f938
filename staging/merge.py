"""Merge the staged data of issue 40 onto the branch's base data (a development tool, not shipped).

    python staging/merge.py --check PART   merge into a temp folder, validate, grade the fixtures
    python staging/merge.py --check all    the same for every part
    python staging/merge.py --write        write data/suite.json, tools.json, fixtures.json, errata.json

The base is always data/ at BASE (the commit the branch started from), so a merge can be re-run
after any staged edit and gives the same bytes.
"""
from __future__ import annotations

import argparse
import copy
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BASE = "504fff1"
PARTS = ("lang", "pc", "ci", "phrase", "fx", "lead")
DATE = "2026-12-06"


def base_doc(name: str) -> dict:
    out = subprocess.run(["git", "show", f"{BASE}:data/{name}"], cwd=ROOT, capture_output=True, check=True)
    return json.loads(out.stdout)


def staged(part: str, name: str) -> dict:
    path = ROOT / "staging" / part / name
    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        sys.exit(f"{path}: not JSON: {exc}")


def set_path(doc: dict, dotted: str, value) -> None:
    keys = dotted.split(".")
    here = doc
    for k in keys[:-1]:
        here = here[int(k)] if isinstance(here, list) else here[k]
    last = keys[-1]
    if isinstance(here, list):
        here[int(last)] = value
    else:
        here[last] = value


def merge(parts=PARTS) -> tuple[dict, dict, dict, dict, dict]:
    from toolproof.suite.categories import CATEGORIES
    suite, tools, fixtures, errata = (base_doc(n) for n in ("suite.json", "tools.json", "fixtures.json", "errata.json"))
    old_ids = {c["id"] for c in suite["cases"]}
    why: dict[str, str] = {}
    new_cases, new_fixtures, owner = [], [], {}
    for part in parts:
        doc = staged(part, "cases.json")
        for name, words in (doc.get("concepts") or {}).items():
            if name in suite["concepts"]:
                sys.exit(f"staging/{part}: concept {name!r} exists already")
            suite["concepts"][name] = words
        for name, more in (doc.get("concept_words") or {}).items():     # words an existing concept gains
            for lang, words in more.items():
                have_words = suite["concepts"][name].setdefault(lang, [])
                have_words.extend(w for w in words if w not in have_words)
            for c in suite["cases"]:
                if f'"concept": "{name}"' in json.dumps(c, ensure_ascii=False):
                    note = f"the concept {name} reads more wordings"
                    why[c["id"]] = (why[c["id"]] + "; " if c["id"] in why else "") + note
        have = {t.get("id", t["name"]) for t in tools["tools"]}
        for t in doc.get("tools") or []:
            if t.get("id", t["name"]) in have:
                sys.exit(f"staging/{part}: tool {t.get('id', t['name'])!r} exists already")
            tools["tools"].append(t)
        for c in doc.get("cases") or []:
            if c.get("id") in old_ids or c.get("id") in owner:
                sys.exit(f"staging/{part}: case id {c.get('id')!r} is not new")
            owner[c["id"]] = part
            new_cases.append(c)
        by_id = {c["id"]: c for c in suite["cases"]}
        for case_id, phrasings in (staged(part, "phrasings.json") or {}).items():
            by_id[case_id].setdefault("phrasings", []).extend(phrasings)
            langs = sorted({p.get("lang", "en") for p in phrasings})
            why[case_id] = f"gains a phrasing in {' and '.join({'pt': 'Portuguese', 'es': 'Spanish', 'en': 'English'}[x] for x in langs)}"
        for case_id, change in (staged(part, "changes.json") or {}).items():
            for dotted, value in change["set"].items():
                set_path(by_id[case_id], dotted, value)
            why[case_id] = (why[case_id] + "; " if case_id in why else "") + change["why"]
        for t in (staged(part, "fixtures.json") or {}).get("transcripts") or []:
            new_fixtures.append(t)
    order = {c: i for i, c in enumerate(CATEGORIES)}
    cases = suite["cases"]
    for c in sorted(new_cases, key=lambda c: order.get(c.get("category"), 99)):
        last = max((i for i, o in enumerate(cases) if o["category"] == c["category"]), default=len(cases) - 1)
        cases.insert(last + 1, c)
    # One fixture per case and phrasing in data/fixtures.json (the shown one: the lowest repeat);
    # the parts' further replies for the same case and phrasing go to tests/fixtures/more_replies.json,
    # each graded to its intended verdict by a test, never read as repeats of one model.
    groups: dict = {}
    for t in new_fixtures:
        groups.setdefault((t["case_id"], t.get("phrasing", "base")), []).append(t)
    shown, more = [], []
    for key, ts in groups.items():
        ts = sorted(ts, key=lambda t: t.get("repeat", 0))
        first = dict(ts[0])
        first.pop("repeat", None)
        shown.append(first)
        for n, t in enumerate(ts[1:], 1):
            more.append({**t, "repeat": n})
    # case fixtures before the scenario fixtures
    trs = fixtures["transcripts"]
    split = next((i for i, t in enumerate(trs) if "world" in t), len(trs))
    fixtures["transcripts"] = trs[:split] + shown + trs[split:]
    replies = {"format": "toolproof.transcripts", "version": 1, "kind": "fixture",
               "label": "FIXTURE: illustrative replies (more than one per case and phrasing), not a benchmark result",
               "provider": "mixed", "model": "fixture", "transcripts": more}
    return suite, tools, fixtures, errata, {"why": why, "added": [c["id"] for c in new_cases], "owner": owner,
                                            "replies": replies}


def with_errata(suite: dict, errata: dict, info: dict) -> dict:
    from toolproof.suite.errata import fingerprints
    found = fingerprints(suite)
    entries = [e for e in errata["entries"]]
    for case_id in found:
        if case_id in info["why"]:
            entries.append({"case": case_id, "date": DATE, "changed": info["why"][case_id],
                            "why": "issue 40: wording sensitivity covers language, so every case is also asked in Portuguese or Spanish",
                            "expect_sha256": found[case_id]})
        elif case_id in info["added"]:
            entries.append({"case": case_id, "date": DATE, "changed": "case added",
                            "why": "issue 40: new categories and cases whose base prompt is Portuguese or Spanish",
                            "expect_sha256": found[case_id]})
    out = copy.deepcopy(errata)
    out["entries"] = entries
    return out


def dump(doc: dict) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def write(folder: Path, docs: dict) -> None:
    for name, doc in docs.items():
        (folder / name).write_text(dump(doc), encoding="utf-8")


def check(folder: Path, part: str, info: dict) -> int:
    from toolproof.datafiles import format_schema
    from toolproof.grading.grade import grade_case
    from toolproof.grading.transcripts import known_ids, parse_transcripts
    from toolproof.suite.load import load_suite, load_tools
    from toolproof.suite.model import phrased
    suite, tools_doc, fixtures = (json.loads((folder / n).read_text()) for n in ("suite.json", "tools.json", "fixtures.json"))
    tools, problems = load_tools(tools_doc, format_schema("tools"), "tools.json")
    cases, found = load_suite(suite, tools, format_schema("suite"))
    problems = [("tools.json", p, r) for p, r in problems] + [("suite.json", p, r) for p, r in found]
    mine = {cid for cid, o in info["owner"].items() if part in ("all", o)}
    shown = 0
    for source, path, reason in problems:
        if part == "all" or any(f"'{cid}'" in str(path) or cid in reason for cid in mine) or True:
            print(f"PROBLEM {source} {path}: {reason}")
            shown += 1
    by_id = {c.id: c for c in cases}
    from collections import Counter
    twice = [k for k, n in Counter((t.get("case_id"), t.get("phrasing", "base"), t.get("repeat", 0))
                                   for t in fixtures["transcripts"] if "case_id" in t).items() if n > 1]
    for case_id, phrasing, repeat in twice:
        print(f"PROBLEM fixtures: two fixtures for case {case_id} phrasing {phrasing} (one fixture per case "
              f"and phrasing: a second one is read as a repeat; keep the more telling one, or write its "
              f"reply as a labelled reply in your report)")
        shown += 1
    try:
        tset = parse_transcripts(fixtures, format_schema("transcripts"), known_ids(cases))
    except Exception as exc:   # noqa: BLE001 - a dev tool: say it and stop
        print(f"PROBLEM fixtures.json: {exc}")
        return 2
    wrong = graded = 0
    for ts in tset.all_repeats().values():
        for tr in ts:
            if tr.case_id not in by_id:
                continue
            staged_case = tr.case_id in info["owner"] and part in ("all", info["owner"][tr.case_id])
            staged_phr = part in ("all", "phrase", "fx") and tr.phrasing != "base" and tr.case_id not in info["owner"]
            if not (staged_case or staged_phr):
                continue
            try:
                case = phrased(by_id[tr.case_id], tr.phrasing)
            except KeyError as exc:
                print(f"PROBLEM fixture {tr.case_id}/{tr.phrasing}: {exc}")
                wrong += 1
                continue
            result = grade_case(case, tools, tr)
            graded += 1
            if tr.intended_verdict and result.verdict != tr.intended_verdict:
                wrong += 1
                print(f"DIFFERS {tr.case_id}/{tr.phrasing}: intended {tr.intended_verdict}, graded "
                      f"{result.verdict}: {' | '.join(result.reasons)[:400]}")
    from collections import Counter
    cats = Counter(c.category for c in cases if part in ("all", info["owner"].get(c.id)))
    print(f"{part}: {len(cases)} cases loaded; staged cases by category: {dict(cats)}; "
          f"{graded} staged fixtures graded, {wrong} differ; {shown} load problems")
    return 1 if (wrong or shown) else 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", metavar="PART")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    suite, tools, fixtures, errata, info = merge()
    docs = {"suite.json": suite, "tools.json": tools, "fixtures.json": fixtures,
            "errata.json": with_errata(suite, errata, info)}
    if args.write:
        write(ROOT / "data", docs)
        write(ROOT / "tests" / "fixtures", {"more_replies.json": info["replies"]})
        print(f"wrote data/: {len(suite['cases'])} cases, {len(tools['tools'])} tools, "
              f"{len(fixtures['transcripts'])} fixtures, {len(docs['errata.json']['entries'])} errata entries")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        docs["fixtures.json"] = {**fixtures, "transcripts": fixtures["transcripts"] + info["replies"]["transcripts"]}
        write(Path(tmp), docs)
        return check(Path(tmp), args.check or "all", info)


if __name__ == "__main__":
    sys.exit(main())
