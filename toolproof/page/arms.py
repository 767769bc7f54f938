"""The run form's Arms field (`#arms`, in the advanced settings): a run with arms as the page takes
it, the JSON list `run --arms FILE` reads, checked as the user types (`#arms-problem`), counted in
the need line and the cap (every arm's conversations and one probe per arm, by the runner's own
count), and made ready to send when Run is clicked.

The rules are the terminal's (running/arm_spec.py parses, running/arm_plan.py makes each arm ready,
running/arm_send.py counts the need); the page adds two refusals of its own, before anything is
sent: an arm that names a tools file (the page reads no file by name) and an arm sent to another
provider (the page holds one key, the run's). page/main.py hands this field to the run form
(page/runform.py), which reads it (`need`, `note`, `refusal`, `show`) and through which the live run
makes the arms ready (`runs`); it imports no panel. An edge module (DOM).
"""
from __future__ import annotations

from .dom import byid, fill, on

SOURCE = "Arms"               # how a problem names the field: "Arms[1] (strict): unknown key ..."
MAX_CHARS = 20_000            # 16 arms with every key set take a few thousand characters
EXAMPLE = '[{"name": "baseline"}, {"name": "strict", "strict": true}]'
TOOLS = ("a tools-file variant is for the terminal (run --arm NAME:tools=FILE); in the page, ablate "
         "the tools instead")
PROVIDER = "an arm in the page uses the run's provider and key"


class ArmsField:
    """#arms, #arms-example and #arms-problem. `attach` gives it the form and the form's reader."""

    def __init__(self, bundle):
        self.bundle = bundle
        self.form = self.read = None
        self.own_doc: dict | None = None       # the tools document of "Your suite" (page/main.py sets it)
        self._checked: tuple | None = None     # ((text, provider), tools_doc, tools, (arms, runs, problem))
        on(byid("arms"), "input", lambda e: self.changed())
        on(byid("provider"), "change", lambda e: self.changed())
        on(byid("arms-example"), "click", lambda e: self.example())

    def attach(self, form, read) -> None:
        """The run form, and its `field(name)` (the fields as the answered event saw them)."""
        self.form, self.read = form, read

    def changed(self) -> None:
        if self.form is not None:
            self.form.scope_changed()        # the need, the cap's default, and this field's line

    def example(self) -> None:
        """A two-arm example, only into an empty field (what the user wrote is never replaced)."""
        if self.read is not None and not self.read("arms").strip():
            fill(byid("arms"), EXAMPLE)
            self.changed()

    # -- what the field says
    def catalogue(self) -> tuple[dict, dict]:
        """(tools document, tools) the run offers: "Your suite"'s when it is the scope, else ours."""
        own = self.form.own if self.form is not None and self.read("scope") == "own" else None
        if own is not None and self.own_doc is not None:
            return self.own_doc, own[1]
        return self.bundle.documents["tools"], self.bundle.tools

    def checked(self) -> tuple:
        """(arms, runs, problem) for the field as it stands: ([], [], "") when blank; runs are made
        ready for the form's provider (arm_plan.arm_run: an arm whose knob the provider has no
        field for is refused before sending, and sends nothing)."""
        text, provider = self.read("arms"), self.read("provider")
        tools_doc, tools = self.catalogue()
        held = self._checked           # the catalogue by identity: a new draft is checked anew
        if held is None or held[0] != (text, provider) or held[1] is not tools_doc or held[2] is not tools:
            self._checked = held = ((text, provider), tools_doc, tools, self._check(text, provider, tools_doc, tools))
        return held[3]

    def _check(self, text: str, provider: str, tools_doc: dict, tools: dict) -> tuple:
        if not text.strip():            # before any import: a plain run (and the page's start) pays nothing
            return [], [], ""
        from toolproof.datafiles import format_schema
        from toolproof.errors import ToolProofError, failure_line
        from toolproof.running.arm_plan import arm_run
        from toolproof.running.arm_spec import parse_arms_file
        from toolproof.running.runner import RunSettings

        if len(text) > MAX_CHARS:
            return [], [], (f"{SOURCE}: {len(text):,} characters, more than a list of arms needs (at most "
                            f"{MAX_CHARS:,}): paste the JSON list of arms only")
        try:          # the terminal's rules, its reader bounding size and nesting without recursion
            arms = parse_arms_file(text, SOURCE, "the list")
            for i, arm in enumerate(arms):
                if "tools" in arm.settings:
                    raise ToolProofError(f"{SOURCE}[{i}] ({arm.name}): {TOOLS}")
                if arm.settings.get("provider", provider) != provider:
                    raise ToolProofError(f"{SOURCE}[{i}] ({arm.name}): {PROVIDER} ({provider}); set the "
                                         "provider above, or run this arm from the terminal")
            base = RunSettings(provider, "model")
            runs = [arm_run(arm, base, tools_doc, tools, format_schema("tools")) for arm in arms]
        except Exception as exc:      # noqa: BLE001 - ToolProofError, or anything the rules raise: one line
            return [], [], failure_line(exc)
        return arms, runs, ""

    def need(self, cases, scope: str, *, phrasings, repeats: int) -> int | None:
        """Requests a run of `scope` with these arms needs at most (the runner's arms_need: every
        arm's conversations plus one probe per arm that sends), None without arms."""
        _, runs, problem = self.checked()
        if not runs or problem:
            return None
        from toolproof.running.arm_plan import arm_work
        from toolproof.running.arm_send import arms_need
        from toolproof.running.workplan import plan_work
        from toolproof.suite.model import scoped

        work = arm_work(plan_work(scoped(cases, scope), repeats, (), phrasings), runs)
        return arms_need(work, runs)

    def refusal(self, *, scenarios: bool, pad: bool) -> str:
        """Why Run must not start with these arms ('' when it may): the field's own problem, or a
        setting arms cannot go with (the terminal refuses the same)."""
        _, runs, problem = self.checked()
        if problem:
            return problem
        if runs and scenarios:
            return "Arms apply to cases, not to scenarios: choose a scope of cases, or empty Arms."
        if runs and pad:
            return ("Arms with Pad levels are not supported: a sweep already multiplies the plan; run the "
                    "arms at one tool count (clear Pad levels).")
        return ""

    def runs(self, settings, tools_doc: dict, tools: dict) -> list | None:
        """Each arm made ready for the run `settings` describe (None: a plain run); raises
        ToolProofError as the check does."""
        arms, _, problem = self.checked()
        if not arms and not problem:
            return None
        from toolproof.datafiles import format_schema
        from toolproof.errors import ToolProofError
        from toolproof.running.arm_plan import arm_run

        if problem:
            raise ToolProofError(problem)
        return [arm_run(arm, settings, tools_doc, tools, format_schema("tools")) for arm in arms]

    def note(self) -> str:
        """What the need line adds for arms ('' without): each conversation once per arm, the probes."""
        from toolproof.plurals import counted

        _, runs, problem = self.checked()
        sent = [r for r in runs if r.refused is None]
        if problem or not runs:
            return ""
        return (f" With {counted(len(runs), 'arm')} (the first is the baseline), each of these "
                f"conversations is sent once per arm that runs it, and each arm is probed with one request "
                f"first: {counted(len(sent), 'probe')}" + (f"; {counted(len(runs) - len(sent), 'arm')} refused "
                                                           "before sending" if len(sent) < len(runs) else "") + ".")

    def show(self) -> None:
        """#arms-problem: the problem (data-state "bad"), each arm in one line ("ok"), or nothing ("empty")."""
        _, runs, problem = self.checked()
        node = byid("arms-problem")
        if problem:
            text, state = problem, "bad"
        elif runs:
            from toolproof.running.arm_spec import described
            text, state = "Arms, the first the baseline: " + "; ".join(
                f"{r.name} ({described(r.arm)})" + (f": refused before sending, {r.refused}" if r.refused else "")
                for r in runs) + ".", "ok"
        else:
            text, state = "", "empty"
        node.textContent = text
        node.hidden = not text
        node.className = "arms-problem small" + (" bad" if state == "bad" else "")
        node.dataset.state = state
