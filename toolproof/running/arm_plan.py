"""The arms of a run, made ready to send: each arm's settings (the run's, with the keys the arm
sets), the tools its model is shown (the catalogue, a variant tools file, an ablation of either),
the map that turns its calls back into the catalogue's names, and the plan it runs.

Rules (docs/arms.md says the same for users):
- every arm runs the same plan items, in the plan's order, arm after arm within an item (so a run
  the cap cuts short keeps whole items: every arm of an item, or none); the need and the cap count
  every arm, plus one probe request per arm that is sent (see runner.Run._probe_arms);
- an arm whose knobs its provider has no field for is refused before anything is sent
  (arms/knobs.knob_problem): a finding, never an ERROR, and none of its items is planned;
- `tool_choice` naming a tool: the arm runs only the items whose case offers that tool (a provider
  refuses a named choice it was not offered), and only the first turn sends it: a second turn
  that must call again could never answer (the OpenAI Agents SDK resets the choice after a call
  for the same reason); the other knobs go on every request;
- calls are always graded against the suite's own catalogue (the contract the user's code
  implements): a variant tools file must keep every catalogue entry (same id, same name) and may
  change descriptions and schemas; an ablation's opaque names and parameter names are turned back
  before grading (arms/ablation.unmask_map), so the verdict measures what was shown, not a rename.

Pure: no I/O (the edge reads a variant tools file and the keys and hands them in).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from toolproof.arms.ablation import ablate_document, offer_order, unmask_map
from toolproof.arms.knobs import knob_problem
from toolproof.errors import ToolProofError
from toolproof.grading.transcripts import Transcript
from toolproof.grading.unmask import unmask_transcript
from toolproof.suite.load import load_tools, parse_tools
from .arm_spec import Arm, described
from .settings import RunSettings
from .workplan import Work


@dataclass
class ArmRun:
    """One arm as the runner sends it."""
    arm: Arm
    settings: RunSettings          # the run's settings with this arm's provider, model and sampling
    tools: dict                    # catalogue id -> Tool as this arm's model is shown it
    unmask: dict = field(default_factory=dict)     # shown name -> {"name", "params"}
    order: bool = False            # the `order` operator: each case's offer shuffled (seed: arm.seed)
    choice: str | None = None      # a named tool_choice, as a catalogue id
    refused: str | None = None     # why the arm was not run (a knob with no field, or the probe)
    probe: dict | None = None      # the probe's outcome: {"state", "status", "message"?, "elapsed_ms"}
    planned: int = 0               # plan items this arm runs (a named tool_choice runs fewer)

    name = property(lambda self: self.arm.name)

    def knobs(self, first_turn: bool) -> dict:
        """The knobs a request sends: a named or forced tool_choice on the first turn only."""
        knobs = self.arm.knobs
        if not first_turn and knobs.get("tool_choice") not in (None, "auto", "none"):
            knobs = {k: v for k, v in knobs.items() if k != "tool_choice"}
        return knobs

    def wire_knobs(self, first_turn: bool) -> dict:
        """knobs() with a named tool_choice as the name this arm's model is shown."""
        knobs = self.knobs(first_turn)
        if self.choice is not None and "tool_choice" in knobs:
            knobs = {**knobs, "tool_choice": self.tools[self.choice].name}
        return knobs

    def offered(self, case_id: str, ids: list[str]) -> list[str]:
        """The ids a case offers, in the order this arm sends them."""
        return offer_order(list(ids), self.arm.seed, case_id) if self.order else list(ids)

    def plans(self, case) -> bool:
        """Does this arm's plan hold `case`? (A named tool_choice only where that tool is offered.)"""
        return self.choice is None or self.choice in case.tools

    def runs(self, case) -> bool:
        return self.refused is None and self.plans(case)

    def recorded(self) -> dict:
        """What the results file keeps of the arm: enough to re-grade and re-analyse it alone."""
        out = {"name": self.name, "settings": dict(self.arm.settings), "described": described(self.arm),
               "provider": self.settings.provider, "model": self.settings.model,
               "planned": self.planned, "refused": self.refused, "probe": self.probe}
        if self.unmask:
            out["unmask"] = self.unmask
        return out


def resolve_choice(value: str, tools: dict) -> str:
    """A named tool_choice (an id or a name of the catalogue) as its id, or ToolProofError."""
    if value in tools:
        return value
    named = [tid for tid, tool in tools.items() if tool.name == value]
    if len(named) == 1:
        return named[0]
    if named:
        raise ToolProofError(f"tool_choice={value}: several catalogue entries have that name; give the id "
                             f"({', '.join(named)})")
    raise ToolProofError(f"tool_choice={value}: no tool of that id or name in the tools file")


def check_variant(variant: dict, tools: dict, source: str) -> None:
    """A variant tools file keeps every catalogue entry (id and name): calls are graded against
    the catalogue, so a renamed tool would fail as a wrong tool for a reason no model caused."""
    for tid, tool in tools.items():
        if tid not in variant:
            raise ToolProofError(f"{source}: has no tool {tid!r}; a variant must keep every tool of the "
                                 "tools file (change descriptions and schemas; rename with ablate=names)")
        if variant[tid].name != tool.name:
            raise ToolProofError(f"{source}: tool {tid!r} is named {variant[tid].name!r}, not {tool.name!r}; a "
                                 "variant keeps the names (ablate=names makes them opaque)")


def arm_run(arm: Arm, base: RunSettings, tools_doc: dict, tools: dict, format_schema: dict, *,
            variant_doc: dict | None = None, variant_source: str = "", api_key: str | None = None) -> ArmRun:
    """One arm made ready: settings, shown tools, unmask map; refused when a knob has no field.
    `api_key`: the key for the arm's provider when it is not the run's (the edge reads it)."""
    s = arm.settings
    sending = {k: s[k] for k in ("provider", "model", "temperature", "seed", "max_tokens") if k in s}
    settings = replace(base, **sending)
    if "provider" in sending and sending["provider"] != base.provider:
        settings = replace(settings, api_key=api_key or "", base_url="")
    doc = variant_doc if variant_doc is not None else tools_doc
    shown = tools
    if variant_doc is not None:
        shown = parse_tools(variant_doc, format_schema, variant_source)
        check_variant(shown, tools, variant_source)
    ops = arm.ablate
    renaming = tuple(op for op in ops if op != "order")
    if renaming:
        # not format-checked: a blank description is the point of ablate=descriptions (a tools file
        # must have one); each schema is still checked and compiled, as any tools file's
        shown, problems = load_tools(ablate_document(doc, renaming, arm.seed), format_schema, f"ablate={s['ablate']}",
                                     checked=True)
        if problems:
            raise ToolProofError(f"ablate={s['ablate']}: at {problems[0][0]}: {problems[0][1]}")
    run = ArmRun(arm, settings, shown, unmask_map(doc, renaming) if renaming else {}, order="order" in ops)
    if "tool_choice" in s and s["tool_choice"] not in ("auto", "required", "none"):
        run.choice = resolve_choice(s["tool_choice"], tools)
    run.refused = knob_problem(settings.provider, run.wire_knobs(first_turn=True))   # a named tool as shown
    return run


def arm_work(work: list[Work], arms: list[ArmRun]) -> list[Work]:
    """Every plan item once per arm that runs it, arm after arm within an item, renumbered
    (each arm's `planned` counts the items its plan holds, refused or not)."""
    for arm in arms:
        arm.planned = sum(arm.plans(item.case) for item in work)
    items = [(item, arm.name) for item in work for arm in arms if arm.runs(item.case)]
    return [replace(item, index=i, arm=name) for i, (item, name) in enumerate(items)]


def arm_offer(arm: ArmRun | None, case_id: str, ids: list[str], tools: dict) -> tuple[list[str], list]:
    """(the ids a case offers in the order sent, the tools as shown): the arm's order and tools."""
    if arm is None:
        return ids, [tools[i] for i in ids]
    ids = arm.offered(case_id, ids)
    return ids, [arm.tools[i] for i in ids]


def run_secrets(settings: RunSettings, arms: list[ArmRun] | None) -> tuple:
    """Every value to redact from what a run keeps and shows: its key and secret-looking headers,
    and the key of every arm sent to another provider."""
    return tuple(dict.fromkeys(v for s in [settings, *(a.settings for a in arms or ())] for v in s.secrets()))


def unmasked(transcript: Transcript, arm: ArmRun | None) -> Transcript:
    """The transcript with an ablated arm's calls in the catalogue's names (what is graded)."""
    return transcript if arm is None else unmask_transcript(transcript, arm.unmask)
