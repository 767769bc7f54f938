"""Transcripts: what a model answered, turn by turn, per case.

One format serves the committed fixtures, the results file of a live run and offline
re-grading: per case, the provider-native response body of every turn (or the request error),
plus what is needed to re-grade and inspect (provider, model, request minus credentials,
timings). See docs/formats.md "Transcripts". A results file of version 2 may write a request's
repeated parts as references: `parse_transcripts` resolves them first (grading/results_refs.py),
so every reader (grade, compare, board, the page) sees whole requests.

A scenario's transcript (one with a `world` key) sits in the same list: every model request of
the conversation in `turns`, each with the recorded `tool_results` and the scripted user's reply.
It is read into a `ScenarioTranscript` and kept apart (`TranscriptSet.scenarios`); its scenario id
is checked against the worlds when it is graded (scoring/evaluate.py), not against the suite.

Pure: no I/O.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from toolproof.errors import ToolProofError, clip, json_path
from toolproof.providers.dispatch import PROVIDERS, reply_from_body
from toolproof.providers.reply import Reply
from toolproof.providers.trimming import counted
from toolproof.safe_text import printable
from toolproof.suite.load import check_format
from toolproof.suite.model import BASE, Case

from .results_refs import expand
from .unmask import unmask_transcript

FIXTURE_LABEL = "FIXTURE: illustrative responses, not a benchmark result"


@dataclass(frozen=True, slots=True)
class Turn:
    reply: Reply | None         # None when the request failed
    error: dict | None          # {"status": int | None, "message": str}


@dataclass(frozen=True, slots=True)
class Transcript:
    case_id: str
    provider: str
    model: str
    turns: tuple
    variants: tuple             # ((variant id, turns), ...)
    intended_verdict: str | None
    raw: dict                   # as given, for display and export
    repeat: int = 0             # 0-based; a case sent N times has N transcripts
    phrasing: str = BASE        # which wording of the prompt was sent ("base": the case's own)


@dataclass(frozen=True, slots=True)
class ScenarioTurn:
    """One model request of a scenario conversation: the reply read (None when the request
    failed), the error, the tool results recorded (re-made by the grader's replay, compared) and
    the scripted user's recorded reply (re-made by the grader too)."""
    reply: Reply | None
    error: dict | None
    tool_results: list | None
    user: dict | None


@dataclass(frozen=True, slots=True)
class ScenarioTranscript:
    case_id: str                # the scenario's id, "<world>.<name>"
    world: str
    world_sha256: str
    provider: str
    model: str
    turns: tuple                # ScenarioTurn, every request in order
    ended: str                  # as recorded: answer | turn_limit | error | aborted ("" if absent)
    raw: dict
    repeat: int = 0
    variants: tuple = ()        # as a case's Transcript (cost and warnings read both alike)
    phrasing: str = BASE


@dataclass(frozen=True, slots=True)
class TranscriptSet:
    kind: str                   # "fixture" | "live"
    label: str
    provider: str
    model: str
    transcripts: dict           # case id -> its first repeat's Transcript, in file order
    raw: dict
    repeats: dict | None = None  # case id -> every Transcript of the case, in repeat order
    scenarios: dict | None = None  # scenario id -> every ScenarioTranscript, in repeat order

    def all_repeats(self) -> dict:
        """case id -> (Transcript, ...) in repeat order (one each when the file has no repeats)."""
        return self.repeats if self.repeats is not None else {k: (t,) for k, t in self.transcripts.items()}


def failed_request(error: dict) -> str:
    """A failed request as a reason says it: "HTTP 400: bad request, after 95 ms; the provider
    said: ...". The provider's message was bounded and redacted by value when it was recorded
    (running/retries.provider_message); it is cut and escaped again here, since a file may hold
    anything."""
    status = error.get("status")
    what = f"HTTP {status}" if status else "no response"
    said = error.get("provider_message")
    # recorded cut to 300 characters (with "… (N more)") and escaped: shown whole, bounded anew
    said = f"; the provider said: {printable(clip(said, 1_200))}" if isinstance(said, str) and said else ""
    return f"{what}: {error.get('message', 'error')}{said}"


def _turns(raw_turns: list, provider: str) -> tuple:
    turns = []
    for raw in raw_turns:
        if "error" in raw:
            turns.append(Turn(None, raw["error"]))
        else:       # a run's kept body, with what it dropped counted back (providers/trimming.py)
            turns.append(Turn(counted(reply_from_body(provider, raw.get("response")), raw.get("dropped")), None))
    return tuple(turns)


def make_transcript(raw: dict, provider: str, model: str = "") -> Transcript:
    """One case's raw transcript (already format-checked) as a Transcript."""
    variants = tuple((v["id"], _turns(v["turns"], provider)) for v in raw.get("variants", []))
    return Transcript(raw["case_id"], provider, model, _turns(raw["turns"], provider), variants,
                      raw.get("intended_verdict"), raw, raw.get("repeat", 0), raw.get("phrasing", BASE))


def known_ids(cases: list) -> dict[str, tuple]:
    """{case id: its variant ids}: what `parse_transcripts` checks a document against."""
    return {c.id: tuple(v.id for v in c.variants) for c in cases}


def _check_variants(raw: dict, i: int, variants: Collection[str], source: str) -> None:
    """A variant id the case does not have is refused like an unknown case id (so is a repeat)."""
    seen: set = set()
    for n, v in enumerate(raw.get("variants", [])):
        where = json_path(["transcripts", i, "variants", n, "id"])
        if v["id"] not in variants:
            raise ToolProofError(f"case {raw['case_id']!r} has no variant {v['id']!r}", source=source, path=where)
        if v["id"] in seen:
            raise ToolProofError(f"second run of variant {v['id']!r} for case {raw['case_id']!r}",
                                 source=source, path=where)
        seen.add(v["id"])


def parse_transcripts(doc: Any, format_schema: dict,
                      known_cases: Collection[str] | Mapping[str, Collection[str]] | None = None,
                      source: str = "transcripts.json") -> TranscriptSet:
    """A transcripts document -> TranscriptSet; unknown case ids and a second transcript for the
    same (case id, phrasing, repeat) are refused, and, when `known_cases` maps each case id to its
    variant ids (`known_ids`), unknown variant ids too (unknown phrasings are refused when graded:
    grading/guarded.grade_phrased)."""
    doc = expand(doc, source)           # a file of version 2 may refer to parts written earlier
    check_format(doc, format_schema, source)
    if "arms" in doc:                   # several transcripts per case: arms/analysis.split_arms reads it
        raise ToolProofError("this results file holds a run with arms (several transcripts per case, one per arm): "
                             "grade it with `grade`, compare it with `compare --arm NAME`, or rank it with `board`",
                             source=source, path="$.arms")
    unmask = doc.get("unmask") or {}    # one arm's document (split_arms): its calls as the catalogue names them
    out: dict[tuple, Transcript] = {}
    scenarios: dict[tuple, ScenarioTranscript] = {}
    for i, raw in enumerate(doc["transcripts"]):
        if "world" in raw:
            _add_scenario(scenarios, raw, i, doc, source)
            continue
        case_id, repeat, pad = raw["case_id"], raw.get("repeat", 0), raw.get("pad")
        phrasing = raw.get("phrasing", BASE)
        where = json_path(["transcripts", i, "case_id"])
        if (case_id, pad, phrasing, repeat) in out:
            pair = "(case_id, repeat) pair" if pad is None else "(case_id, pad, repeat)"
            pair = pair if phrasing == BASE else "(case_id, phrasing, repeat)"
            at = "" if pad is None else f" at pad level {pad}"
            at += "" if phrasing == BASE else f" in phrasing {phrasing!r}"
            raise ToolProofError(f"second transcript for case {case_id!r} repeat {repeat}{at}; each "
                                 f"{pair} appears once", source=source, path=where)
        if known_cases is not None and case_id not in known_cases:
            raise ToolProofError(f"case {case_id!r} is not in the suite", source=source, path=where)
        if isinstance(known_cases, Mapping):
            _check_variants(raw, i, known_cases[case_id], source)
        provider = raw.get("provider", doc.get("provider", "openai"))
        if provider not in PROVIDERS:
            raise ToolProofError(f"provider {provider!r} is not one of {', '.join(PROVIDERS)}; "
                                 "set it on each transcript", source=source,
                                 path=json_path(["transcripts", i, "provider"]))
        for place, turns in [(["turns"], raw["turns"])] + [
                (["variants", n, "turns"], v["turns"]) for n, v in enumerate(raw.get("variants", []))]:
            for k, turn in enumerate(turns):
                if ("response" in turn) == ("error" in turn):
                    raise ToolProofError("a turn holds exactly one of response or error", source=source,
                                         path=json_path(["transcripts", i, *place, k]))
        out[(case_id, pad, phrasing, repeat)] = unmask_transcript(
            make_transcript(raw, provider, raw.get("model", doc.get("model", ""))), unmask)
    repeats: dict[str, list] = {}
    for (case_id, _, _, _), transcript in out.items():      # a sweep's levels: sweep_score splits them
        repeats.setdefault(case_id, []).append(transcript)
    # repeat order, the base phrasing's first (the others: by repeat, then in file order)
    ordered = {k: tuple(sorted(ts, key=lambda t: (t.phrasing != BASE, t.repeat))) for k, ts in repeats.items()}
    kind = doc.get("kind", "live")
    label = doc.get("label") or (FIXTURE_LABEL if kind == "fixture" else "")
    by_scenario: dict[str, list] = {}        # in file order of each scenario's first transcript
    for (case_id, _), transcript in scenarios.items():
        by_scenario.setdefault(case_id, []).append(transcript)
    return TranscriptSet(kind, label, doc.get("provider", ""), doc.get("model", ""),
                         {k: ts[0] for k, ts in ordered.items()}, doc, ordered,
                         {k: tuple(sorted(ts, key=lambda t: t.repeat)) for k, ts in by_scenario.items()})


def _add_scenario(found: dict, raw: dict, i: int, doc: dict, source: str) -> None:
    """One scenario transcript checked (the format schema checked its keys' types already: a
    provider, a turn holding one of response or error, a second (id, repeat)) and read."""
    where = ["transcripts", i]
    case_id, repeat = raw["case_id"], raw.get("repeat", 0)
    if (case_id, repeat) in found:
        raise ToolProofError(f"second transcript for scenario {case_id!r} repeat {repeat}; each "
                             "(case_id, repeat) pair appears once", source=source, path=json_path([*where, "case_id"]))
    provider = raw.get("provider", doc.get("provider", "openai"))
    if provider not in PROVIDERS:
        raise ToolProofError(f"provider {provider!r} is not one of {', '.join(PROVIDERS)}; "
                             "set it on each transcript", source=source, path=json_path([*where, "provider"]))
    for k, turn in enumerate(raw["turns"]):
        if ("response" in turn) == ("error" in turn):
            raise ToolProofError("a turn holds exactly one of response or error", source=source,
                                 path=json_path([*where, "turns", k]))
    found[(case_id, repeat)] = scenario_transcript(raw, provider, raw.get("model", doc.get("model", "")))


def scenario_transcript(raw: dict, provider: str, model: str = "") -> ScenarioTranscript:
    """One scenario's raw transcript (already checked) as a ScenarioTranscript."""
    turns = []
    for turn in raw["turns"]:
        reply = None if "error" in turn else counted(reply_from_body(provider, turn.get("response")), turn.get("dropped"))
        user = turn.get("user")
        turns.append(ScenarioTurn(reply, turn.get("error"), turn.get("tool_results"),
                                  user if isinstance(user, dict) else None))
    return ScenarioTranscript(raw["case_id"], raw["world"], raw.get("world_sha256", ""), provider, model,
                              tuple(turns), raw.get("ended", ""), raw, raw.get("repeat", 0))


def as_offered(case: Case, offered: object) -> Case:
    """The case as its transcript says it was offered (a padded tool called is offered, not
    hallucinated). A transcript without a readable `offered` list keeps the suite's tools."""
    if not isinstance(offered, list) or not offered or not all(isinstance(n, str) for n in offered):
        return case
    return replace(case, tools=tuple(dict.fromkeys(offered)))
