"""Do the answer rules agree with careful human readers? (issue 35)

    python benchmarks/answer_rules.py                    # every labels file, every category
    python benchmarks/answer_rules.py --category must_ask
    python benchmarks/answer_rules.py --json             # the figures as JSON

Reads data/suite.json, data/tools.json, data/fixtures.json and every
benchmarks/answer_labels/*.json ("toolproof.answer-labels": replies a real model could give,
each labelled PASS or FAIL by careful human reading, with a one-line why). Each reply is graded
by the real grader (toolproof.grading.grade.grade_case) in a transcript built around it:
- must_ask and should_not_call cases: the reply is the model's first and only turn, in text;
- call cases (result_use, injection): turn 1 is the case's correct call, taken from its fixture
  (any phrasing's, the variant's own first) when that turn is right, else built from
  expect.calls; the reply is the last turn's text. A variant is graded as
  toolproof.scoring.diagnose.variant_case makes it.
Prints agreement, false passes (graded PASS, labelled FAIL) and false fails (graded otherwise,
labelled PASS) as counts and as a share of the replies counted, overall and per category,
language and kind, then every disagreement. A reply naming a case or variant the suite does not
have is refused with its file and index (exit 2). Labels are judged by the reader, never by what
a rule does: a disagreement is the grader's to explain.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from toolproof.datafiles import read_json  # noqa: E402
from toolproof.errors import ToolProofError  # noqa: E402
from toolproof.grading.grade import grade_case  # noqa: E402
from toolproof.grading.matching import match_any_order, match_sequence  # noqa: E402
from toolproof.grading.offer import check_call  # noqa: E402
from toolproof.grading.transcripts import make_transcript  # noqa: E402
from toolproof.grading.verdicts import PASS  # noqa: E402
from toolproof.providers.dispatch import reply_from_body  # noqa: E402
from toolproof.scoring.diagnose import variant_case  # noqa: E402
from toolproof.selftest.kit import anthropic_answer, openai_answer  # noqa: E402
from toolproof.suite.model import BASE, Case, Tool  # noqa: E402
from toolproof.suite.toolnames import wire_name  # noqa: E402

LABELS = ROOT / "benchmarks" / "answer_labels"
FORMAT = "toolproof.answer-labels"
FIELDS = ("case", "variant", "lang", "kind", "reply", "label", "why")
LANGS = ("en", "pt", "es")
VERDICTS = ("PASS", "FAIL")
# The brief's kinds, plus "offers" (offering to act once the user answers or confirms).
KINDS = ("correct", "synonym", "locale", "negated", "wrong_fact", "claimed", "declined", "refusal",
         "asked_given", "asked_missing", "relayed", "complied_words", "quoted_refusal", "off_task",
         "hedged", "mixed", "offers")
MIN_PER_SLOT = 8
SHOWN = 100         # characters of a reply shown with a disagreement


class LabelError(ToolProofError):
    """A labels file the benchmark cannot use: names the file and the reply's index."""


@dataclass(frozen=True, slots=True)
class Labelled:
    path: str
    index: int
    case: str
    variant: str
    lang: str
    kind: str
    reply: str
    label: str
    why: str


@dataclass(frozen=True, slots=True)
class Graded:
    item: Labelled
    category: str
    verdict: str
    reason: str

    @property
    def agrees(self) -> bool:
        return (self.verdict == PASS) == (self.item.label == "PASS")


# ---- labels files: shape and reading -------------------------------------------------------------

def label_files(folder: Path = LABELS) -> list[Path]:
    return sorted(folder.glob("*.json"))


def shape_problems(doc: object, slots: dict[str, tuple]) -> list[str]:
    """What is wrong with one labels document, each problem naming the reply's index. `slots`
    maps each case id to its variant ids (see suite_slots)."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("version") != 1:
        return [f'not a labels document: expected "format": "{FORMAT}", "version": 1']
    replies = doc.get("replies")
    if not isinstance(replies, list) or not replies:
        return ['"replies" must be a non-empty list']
    problems = []
    for i, r in enumerate(replies):
        where = f"replies[{i}]"
        if not isinstance(r, dict) or set(r) != set(FIELDS):
            problems.append(f"{where}: fields must be exactly {', '.join(FIELDS)}")
            continue
        if not all(isinstance(r[f], str) and r[f].strip() for f in FIELDS):
            problems.append(f"{where}: every field must be a non-empty string")
            continue
        if r["case"] not in slots:
            problems.append(f"{where}: case {r['case']!r} is not in the suite")
        elif r["variant"] != BASE and r["variant"] not in slots[r["case"]]:
            problems.append(f"{where}: case {r['case']!r} has no variant {r['variant']!r}")
        for name, allowed in (("lang", LANGS), ("kind", KINDS), ("label", VERDICTS)):
            if r[name] not in allowed:
                problems.append(f"{where}: {name} {r[name]!r} is not one of {', '.join(allowed)}")
        if "\n" in r["why"]:
            problems.append(f"{where}: why must be one line")
    return problems


def slot_problems(items: Iterable[Labelled]) -> list[str]:
    """Each (case, variant) slot the files name has at least MIN_PER_SLOT replies, in every language."""
    slots: dict[tuple, list] = {}
    for it in items:
        slots.setdefault((it.case, it.variant), []).append(it)
    problems = []
    for (case, variant), its in slots.items():
        if len(its) < MIN_PER_SLOT:
            problems.append(f"{case} / {variant}: {len(its)} replies, at least {MIN_PER_SLOT} needed")
        missing = [lang for lang in LANGS if all(it.lang != lang for it in its)]
        if missing:
            problems.append(f"{case} / {variant}: no reply in {', '.join(missing)}")
    return problems


def suite_slots(cases: Iterable[Case]) -> dict[str, tuple]:
    return {c.id: tuple(v.id for v in c.variants) for c in cases}


def read_labels(paths: Iterable[Path], cases: dict[str, Case]) -> list[Labelled]:
    """Every labelled reply of the files, refused (LabelError naming file and index) when its
    document is malformed or its case or variant is not in the suite."""
    slots = suite_slots(cases.values())
    out = []
    for path in paths:
        doc = read_json(path)
        problems = shape_problems(doc, slots)
        if problems:
            raise LabelError(problems[0], source=str(path))
        out.extend(Labelled(str(path), i, **{f: r[f] for f in FIELDS}) for i, r in enumerate(doc["replies"]))
    return out


# ---- transcripts around a reply ------------------------------------------------------------------

def answer_body(provider: str, text: str) -> dict:
    """A final text turn in the provider's own wire form."""
    if provider == "anthropic":
        return anthropic_answer(text=text, stop="end_turn")
    return openai_answer(text=text, finish="stop")


def right_first_turn(case: Case, tools: dict[str, Tool], provider: str, turn: dict) -> bool:
    """Does this recorded first turn make exactly the calls the case expects (any accepted
    sequence), with nothing partial?"""
    if "response" not in turn:
        return False
    reply = reply_from_body(provider, turn["response"])
    if reply.malformed or reply.blocked or reply.truncated or not reply.calls:
        return False
    checked = [check_call(c, 1, case, tools, False) for c in reply.calls]
    match = match_any_order if case.expect.order == "any" else match_sequence
    for sequence in (case.expect.calls, *case.expect.alternatives):
        out = match(sequence, checked, tools, case.mock_results, case)
        if not out.fail and not out.partial:
            return True
    return False


def built_first_turn(case: Case, tools: dict[str, Tool]) -> tuple[str, dict]:
    """The expected calls as one OpenAI turn, when no fixture has a right first turn."""
    calls = [(wire_name(tools[c.tool].name), json.dumps(c.expected_values(case.mock_results)))
             for c in case.expect.calls]
    return "openai", openai_answer(*calls)


def first_turns(case: Case, tools: dict[str, Tool], fixtures: list[dict]) -> dict[str, tuple]:
    """{variant id or "base": (provider, first turn)} for a call case: the variant's own recorded
    first turn when right, else the base's (any phrasing), else one built from expect.calls."""
    base = None
    for raw in fixtures:
        provider = raw.get("provider", "openai")
        if raw["turns"] and right_first_turn(case, tools, provider, raw["turns"][0]):
            base = (provider, raw["turns"][0])
            break
    base = base or built_first_turn(case, tools)
    out = {BASE: base}
    for v in case.variants:
        vcase = variant_case(case, v.id)
        out[v.id] = next(((raw.get("provider", "openai"), rv["turns"][0]) for raw in fixtures
                          for rv in raw.get("variants", []) if rv["id"] == v.id and rv["turns"]
                          and right_first_turn(vcase, tools, raw.get("provider", "openai"), rv["turns"][0])),
                         base)
    return out


def transcript_of(case: Case, item: Labelled, first: tuple | None) -> object:
    """The reply as the model's last turn: alone for ask / no_call cases, after `first` else."""
    if case.expect.action != "call":
        provider, turns = "openai", [answer_body("openai", item.reply)]
    else:
        provider, turn = first
        turns = [turn, answer_body(provider, item.reply)]
    return make_transcript({"case_id": case.id, "turns": turns}, provider, "labels")


def grade_all(items: list[Labelled], cases: dict[str, Case], tools: dict[str, Tool],
              fixtures: dict[str, list]) -> list[Graded]:
    firsts: dict[str, dict] = {}
    out = []
    for it in items:
        case = cases[it.case]
        first = None
        if case.expect.action == "call":
            if it.case not in firsts:
                firsts[it.case] = first_turns(case, tools, fixtures.get(it.case, []))
            first = firsts[it.case][it.variant]
        graded_case = case if it.variant == BASE else variant_case(case, it.variant)
        result = grade_case(graded_case, tools, transcript_of(case, it, first))
        out.append(Graded(it, case.category, result.verdict, result.reasons[0] if result.reasons else ""))
    return out


# ---- figures -------------------------------------------------------------------------------------

def tally(rows: list[Graded]) -> dict:
    n = len(rows)
    agree = sum(r.agrees for r in rows)
    fp = sum(r.verdict == PASS and r.item.label == "FAIL" for r in rows)
    ff = sum(r.verdict != PASS and r.item.label == "PASS" for r in rows)
    pct = (lambda k: round(100 * k / n, 1)) if n else (lambda k: 0.0)
    return {"replies": n, "agree": agree, "agreement": pct(agree), "false_pass": fp,
            "false_pass_pct": pct(fp), "false_fail": ff, "false_fail_pct": pct(ff)}


def figures(rows: list[Graded]) -> dict:
    def by(key) -> dict:
        groups: dict[str, list] = {}
        for r in rows:
            groups.setdefault(key(r), []).append(r)
        return {k: tally(v) for k, v in sorted(groups.items())}
    return {"total": tally(rows),
            "category": by(lambda r: r.category),
            "lang": by(lambda r: r.item.lang),
            "kind": by(lambda r: r.item.kind),
            "disagreements": [{"file": Path(r.item.path).name, "index": r.item.index, "case": r.item.case,
                               "variant": r.item.variant, "lang": r.item.lang, "kind": r.item.kind,
                               "label": r.item.label, "verdict": r.verdict, "reason": r.reason,
                               "reply": r.item.reply} for r in rows if not r.agrees]}


def _line(name: str, t: dict) -> str:
    return (f"  {name:<16} {t['replies']:>4}  agree {t['agreement']:5.1f}%  "
            f"false pass {t['false_pass']:>3} ({t['false_pass_pct']:4.1f}%)  "
            f"false fail {t['false_fail']:>3} ({t['false_fail_pct']:4.1f}%)")


def cut(text: str, n: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= n else flat[: n - 1] + "…"


def report(fig: dict) -> str:
    lines = ["answer rules vs labelled replies (shares are of the replies in each row)",
             _line("total", fig["total"])]
    for section in ("category", "lang", "kind"):
        lines.append(f"per {section}:")
        lines.extend(_line(k, t) for k, t in fig[section].items())
    lines.append(f"disagreements ({len(fig['disagreements'])}):")
    for d in fig["disagreements"]:
        lines.append(f"  {d['case']} / {d['variant']} [{d['lang']}, {d['kind']}] label {d['label']}, "
                     f"graded {d['verdict']}: {cut(d['reason'], 120)}")
        lines.append(f"      {cut(d['reply'], SHOWN)!r}")
    return "\n".join(lines)


# ---- command line --------------------------------------------------------------------------------

def load(labels: Path = LABELS) -> tuple[list[Labelled], dict[str, Case], dict[str, Tool], dict]:
    from toolproof.datafiles import load_bundle
    bundle = load_bundle()
    cases = {c.id: c for c in bundle.cases}
    fixtures: dict[str, list] = {}
    for raw in bundle.documents["transcripts"]["transcripts"]:
        fixtures.setdefault(raw["case_id"], []).append(raw)
    for rows in fixtures.values():      # the base phrasing's first
        rows.sort(key=lambda raw: raw.get("phrasing", BASE) != BASE)
    return read_labels(label_files(labels), cases), cases, bundle.tools, fixtures


def main(argv: list[str] | None = None, stdout: TextIO = sys.stdout, stderr: TextIO = sys.stderr) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--category", help="only the replies of this category's cases")
    parser.add_argument("--labels", type=Path, default=LABELS, help="folder of labels files")
    args = parser.parse_args(argv)
    try:
        items, cases, tools, fixtures = load(args.labels)
    except ToolProofError as exc:
        print(f"answer_rules: {exc}", file=stderr)
        return 2
    if args.category:
        items = [it for it in items if cases[it.case].category == args.category]
    fig = figures(grade_all(items, cases, tools, fixtures))
    print(json.dumps(fig, ensure_ascii=False, indent=1) if args.json else report(fig), file=stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
