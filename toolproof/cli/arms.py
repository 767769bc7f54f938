"""The terminal edge of arms: `run --arm NAME:KEY=VALUE,...` (repeatable) and `run --arms FILE`,
read, checked and made ready to send (running/arm_plan.py), and the scorecard of a results file
that holds arms (arms/analysis.py), for `run`, `grade`, `compare` and `board` alike.

An edge: reads the arms file, a variant `tools` file and each other provider's key from the
environment; the rules are running.arm_spec's and running.arm_plan's.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from toolproof.datafiles import format_schema, read_file_bytes, read_json
from toolproof.errors import ToolProofError
from toolproof.safe_text import printable

from .files import check_outputs
from .flags import report_outputs


def add_arm_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--arm", action="append", default=[], metavar="NAME:KEY=VALUE,...",
                        help="an arm: the same plan under other settings (repeatable; the first is the baseline). "
                             "Keys: provider, model, temperature, seed, max_tokens, strict, tool_choice, "
                             "parallel_tool_calls, reasoning_effort, tools, ablate, ablate_seed (docs/arms.md)")
    parser.add_argument("--arms", metavar="FILE", help="the arms as a JSON list of {\"name\": ..., KEY: VALUE}")


def read_arms(args: argparse.Namespace) -> list | None:
    """The arms the flags give (checked; no output may replace an arm's tools file), or None."""
    arms = _read_arms(args)
    variants = [(f"the tools file of arm {arm.name}", arm.settings["tools"]) for arm in arms or [] if "tools" in arm.settings]
    if variants:
        check_outputs([("--out", getattr(args, "out", None)), *report_outputs(args)], variants)
    return arms


def _read_arms(args: argparse.Namespace) -> list | None:
    # lazy: only a run with arms needs these
    from toolproof.running.arm_spec import check_arms, parse_arm, parse_arms_file

    if args.arms and args.arm:
        raise ToolProofError("give the arms with --arm or with --arms FILE, not both")
    if args.arms:
        data = read_file_bytes(Path(args.arms))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ToolProofError(f"{printable(args.arms)}: not UTF-8 text") from None
        return parse_arms_file(text, printable(args.arms))
    if args.arm:
        return check_arms([parse_arm(text, f"--arm {printable(text[:60])!r}") for text in args.arm])
    return None


def check_arm_flags(args: argparse.Namespace) -> None:
    """What arms cannot be combined with, before anything is read or sent."""
    if args.pad:
        raise ToolProofError("--arm with --pad is not supported: a sweep already multiplies the plan; run the "
                             "arms at one tool count")
    if args.scope.startswith("scenarios"):
        raise ToolProofError("--arm applies to cases, not to scenarios")


def other_key(provider: str, environ: dict) -> str:
    """The key of an arm sent to another provider than the run's: that provider's usual variable
    only (TOOLPROOF_API_KEY is the run's own provider's key and is never sent to another), to its
    own endpoint only (an arm takes no base URL)."""
    # lazy: only a run with arms needs the catalogue's records
    from toolproof.providers.catalog import PROVIDER

    spec = PROVIDER[provider]
    if not spec.base:
        raise ToolProofError(f"an arm with provider={provider} needs a base URL, which an arm does not take: run it "
                             f"as its own run (--provider {provider} --base-url ...)")
    key = environ.get(spec.key_variable, "")
    if not key and not spec.key_optional:
        raise ToolProofError(f"an arm with provider={provider}: set {spec.key_variable} (TOOLPROOF_API_KEY is the run's "
                             "own provider's key and is never sent to another provider)")
    return key


def ready_arms(arms: list, settings, bundle, environ: dict) -> list:
    """Each arm made ready (arm_plan.arm_run): its variant tools file read, another provider's
    key read from the environment (other_key)."""
    # lazy: only a run with arms needs these
    from toolproof.running.arm_plan import arm_run

    schema = format_schema("tools")
    out = []
    for arm in arms:
        variant, source = None, ""
        if "tools" in arm.settings:
            source = arm.settings["tools"]
            variant = read_json(source)
        provider = arm.settings.get("provider", settings.provider)
        key = other_key(provider, environ) if provider != settings.provider else None
        out.append(arm_run(arm, settings, bundle.documents["tools"], bundle.tools, schema,
                           variant_doc=variant, variant_source=source, api_key=key))
    return out


def arms_line(runs: list) -> str:
    """The line before the first request: each arm, what it sets, and any refused before sending."""
    # lazy: only a run with arms needs it
    from toolproof.running.arm_spec import described

    parts = []
    for run in runs:
        refused = f" (refused before sending: {run.refused})" if run.refused else ""
        parts.append(f"{run.name} [{described(run.arm)}]{refused}")
    return "toolproof: arms (the first is the baseline): " + "; ".join(parts)


def results_card(document: dict, bundle, weights: dict, prices: dict | None, worlds: dict | None, source: str) -> dict:
    """A results document's scorecard: with arms, the baseline's card and the `arms` block; else
    the plain card (evaluate)."""
    # lazy: the grading and analysis are only needed once there are results
    from toolproof.grading.transcripts import parse_transcripts
    from toolproof.scoring.evaluate import evaluate

    if isinstance(document, dict) and "arms" in document:
        # lazy: only a results document with arms needs the arms analysis
        from toolproof.arms.analysis import arms_card

        return arms_card(document, bundle.cases, bundle.tools, format_schema("transcripts"),
                         weights=weights, prices=prices, source=source)
    transcripts = parse_transcripts(document, format_schema("transcripts"), {c.id for c in bundle.cases}, source)
    return evaluate(bundle.cases, bundle.tools, transcripts, weights, prices=prices, worlds=worlds)
