"""`python -m toolproof run`: send the suite to a model provider over HTTP, grade each case as it
arrives, print progress on stderr and the scorecard on stdout, and keep the results file (--out)
complete after every case, through a crash, Ctrl-C or kill.

Named `live` so it does not read as main.run. One model's run (`prepare`, then `execute`); the
verb's `handle` (cli/run_verb.py) chooses between it and several models (cli/models.py). An
edge: flags, the API key from the environment, the clock, urllib (cli/transport.py) and the
file; the sending, retries and grading are running.runner's. The key is never printed or
written: every line and report passes redact.
Exit codes: 0, 1 a gate failed (--fail-under or an ERROR), 2 the run stopped, 130 interrupted.
"""
from __future__ import annotations

import argparse
import asyncio
import re
from datetime import datetime, timezone
from typing import TextIO

from .arms import add_arm_flags, arms_line, check_arm_flags, read_arms, ready_arms, results_card
from .results_file import ResultsFile
from .flags import (html_flag, parse_weights, price_flags, report_flags, suite_flags, worlds_flag, worlds_of,
                    write_reports, write_text)
from toolproof.errors import ToolProofError
from toolproof.reports.scorecard import render_text, to_json
from toolproof.safe_text import printable
from toolproof.providers.catalog import CATALOGUE, PROVIDER, PROVIDERS
from toolproof.providers.dispatch import base_url_problem, endpoint, parse_header, shown_headers
from toolproof.running.settings import checked
from toolproof.plurals import counted
from toolproof.suite.categories import CASE_CATEGORIES
from toolproof.worlds.scope import SCOPE, is_scenarios, misfit


def add_parser(commands) -> None:
    live = commands.add_parser("run", help="run the suite against a model provider")
    live.add_argument("--provider", required=True, choices=PROVIDERS, action="append",
                      help="repeat with --model for several providers in one command")
    live.add_argument("--model", required=True, action="append",
                      help="a model, or several comma-separated (a,b,c): each runs the same plan")
    live.add_argument("--base-url", action="append", default=[], help="; ".join(
        [f"required for {p.name} (e.g. {p.base_hint})" for p in CATALOGUE if not p.base]
        + ["a gateway for " + ", ".join(p.name for p in CATALOGUE if p.base and not p.base_fixed),
           "once, or once per --provider"]))
    live.add_argument("--scope", default="all", type=scope_word, metavar="SCOPE",
                      help=f"all, one category ({', '.join(CASE_CATEGORIES)}), {SCOPE} (every world's "
                      f"scenarios) or {SCOPE}:<world> (default all)")
    live.add_argument("--cap", type=int, metavar="N", help="most requests to send, retries included "
                      "(default: all the plan needs, as the page's cap starts; at most that with every retry)")
    live.add_argument("--out", metavar="FILE", help="write the results file (re-grade it with grade --transcripts); "
                      "never over an existing file without --force")
    live.add_argument("--force", action="store_true", help="let --out replace an existing file (a results "
                      "file of an earlier run is otherwise kept)")
    live.add_argument("--out-dir", metavar="DIR", help="several models: one results file per model in DIR "
                      "(never over an existing file), then the board of them all")
    live.add_argument("--format", choices=("text", "json"), default="text")
    live.add_argument("--fail-under", type=float, metavar="SCORE", help="exit 1 if the score is below SCORE")
    live.add_argument("--allow-incomplete", action="store_true",
                      help="exit 0 even when part of the plan got no verdict (ERROR or not started; else exit 3)")
    live.add_argument("--weight", metavar="CATEGORY=W", action="append", default=[])
    live.add_argument("--api-key-env", metavar="NAME", help="read the key from this environment variable "
                      "(default TOOLPROOF_API_KEY; the provider's usual one only for its own endpoint)")
    live.add_argument("--timeout", type=float, default=45.0, metavar="S",
                      help="deadline in seconds for each whole request: connect, headers and body (default 45)")
    live.add_argument("--max-tokens", type=int, default=1024, metavar="N",
                      help="most output tokens per request, sent in the provider's own field (default 1024)")
    live.add_argument("--temperature", type=float, metavar="T",
                      help="sampling temperature, sent to every provider (default: not sent, the server's own)")
    live.add_argument("--seed", type=int, metavar="N",
                      help="sampling seed, sent where the provider has the field "
                      f"({', '.join(p.name for p in CATALOGUE if 'seed' in p.sends)})")
    live.add_argument("--header", action="append", default=[], metavar="NAME:VALUE",
                      help="an extra request header (repeatable); a secret-looking one is never shown or recorded")
    suite_flags(live)
    worlds_flag(live)
    live.add_argument("--pad", metavar="LEVELS", help="tool-count sweep: comma-separated padding levels, "
                      "e.g. 0,8,16 (each case also gets N tools from other domains)")
    live.add_argument("--pad-seed", type=int, default=0, metavar="S", help="seed of the padding and tool order (default 0)")
    live.add_argument("--repeats", type=int, default=1, metavar="N",
                      help="send each case N times, as independent conversations (1-20, default 1)")
    live.add_argument("--phrasings", default="base", metavar="base|all|N",
                      help="which wordings of each prompt to send, each as its own conversation: base (the "
                      "case's prompt, default), all, or N (base and the case's first N-1 phrasings)")
    live.add_argument("--concurrency", type=int, default=1, metavar="C",
                      help="requests in flight at most (1-16, default 1: one case after another)")
    add_arm_flags(live)
    price_flags(live)
    report_flags(live)
    html_flag(live)
    live.add_argument("--pause", type=float, default=0.15, help=argparse.SUPPRESS)


def scope_word(text: str) -> str:
    """--scope: all, a case category, `scenarios` or `scenarios:<world>` (the world is checked
    against the worlds once they are read)."""
    if text == "all" or text in CASE_CATEGORIES or is_scenarios(text):
        return text
    raise argparse.ArgumentTypeError(f"invalid choice: {printable(text[:60])!r} (use all, one of "
                                     f"{', '.join(CASE_CATEGORIES)}, {SCOPE} or {SCOPE}:<world>)")


def key_variables(provider: str, base_url: str = "", key_env: str | None = None) -> tuple[str, ...]:
    """The environment variables the key may come from, in order. The provider's usual variable
    only when the requests go to that provider's own endpoint: with another --base-url (a local
    server, a proxy, a gateway), only TOOLPROOF_API_KEY or the variable --api-key-env names, so
    OPENAI_API_KEY is never sent to a server the user merely pointed at."""
    if key_env:
        return (key_env,)
    if PROVIDER[provider].base and (not base_url.strip() or _resolves_to_own(provider, base_url)):
        return ("TOOLPROOF_API_KEY", PROVIDER[provider].key_variable)
    return ("TOOLPROOF_API_KEY",)


def _resolves_to_own(provider: str, base_url: str) -> bool:
    """Does this base URL reach the provider's own endpoint (with or without the version segment)?"""
    try:
        return endpoint(provider, base_url, "m") == endpoint(provider, "", "m")
    except (ToolProofError, ValueError):
        return False


def read_key(provider: str, environ: dict, base_url: str = "",
             key_env: str | None = None) -> tuple[str, str]:
    """(key, the variable it came from; "" when none): never printed or written."""
    names = key_variables(provider, base_url, key_env)
    for name in names:
        if environ.get(name):
            return environ[name], name
    if PROVIDER[provider].key_optional:      # local servers often need no key
        return "", ""
    if key_env:
        raise ToolProofError(f"no API key: {key_env} (named by --api-key-env) is not set")
    if len(names) == 1:
        raise ToolProofError(f"no API key: set TOOLPROOF_API_KEY (with --base-url, {PROVIDER[provider].key_variable} "
                             f"is not sent to another server), or name a variable with --api-key-env")
    raise ToolProofError(f"no API key: set {' or '.join(names)}")


def api_key(provider: str, environ: dict, base_url: str = "", key_env: str | None = None) -> str:
    """The key alone (see read_key)."""
    return read_key(provider, environ, base_url, key_env)[0]


def phrasings_choice(text: str) -> str | int:
    """--phrasings: "base", "all" or a whole number from 1 to MAX_PHRASINGS + 1 (1 is base)."""
    # lazy: only a run needs these (the runner, the writers of its reports); other verbs start without them
    from toolproof.suite.model import phrasing_choice

    try:
        return phrasing_choice(text)
    except ValueError as exc:
        raise ToolProofError(f"--{exc}, not {printable(text[:40])!r}") from None


def _check_run_flags(args: argparse.Namespace) -> None:
    # lazy: only a run needs these (the runner, the writers of its reports); other verbs start without them
    from toolproof.scoring.gates import check_fail_under

    spec = PROVIDER[args.provider]
    if not spec.base and not args.base_url:
        raise ToolProofError(f"--base-url is required for {spec.name} (e.g. {spec.base_hint})")
    if args.base_url and spec.base_fixed:
        own = next(p.name for p in CATALOGUE if not p.base)
        raise ToolProofError(f"--base-url does not apply to {spec.name} (its endpoint is fixed); "
                             f"use --provider {own} for another server")
    if args.base_url and (problem := base_url_problem(args.base_url)):
        raise ToolProofError(problem)
    if args.api_key_env is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,99}", args.api_key_env):
        raise ToolProofError("--api-key-env wants an environment variable name (letters, digits, _; "
                             "at most 100 characters)")
    if args.cap is not None:        # none given: the plan's need, once the plan is known (prepare)
        _check_bounds(cap=args.cap)
    _check_bounds(timeout_s=args.timeout, max_tokens=args.max_tokens, repeats=args.repeats)
    args.phrasings = phrasings_choice(args.phrasings)
    if args.phrasings != "base" and args.pad:
        raise ToolProofError("--phrasings with --pad is not supported: run the sweep on the base phrasing")
    if wrong := misfit(args.scope, pad=bool(args.pad), phrased=args.phrasings != "base"):
        raise ToolProofError(f"--{wrong} applies to cases, not to --scope {args.scope}")
    if args.arm or args.arms:
        check_arm_flags(args)
    if args.worlds and not is_scenarios(args.scope):
        raise ToolProofError(f"--worlds names the worlds of a scenarios run: add --scope {SCOPE} (or {SCOPE}:<world>)")
    _check_bounds(concurrency=args.concurrency, temperature=args.temperature, seed=args.seed,
                  headers=len(args.header), pause_s=args.pause)
    check_fail_under(args.fail_under)


# How the terminal names each run setting; the bounds and their phrase are running.settings'.
FLAGS = {"cap": "--cap", "timeout_s": "--timeout", "max_tokens": "--max-tokens", "repeats": "--repeats",
         "concurrency": "--concurrency", "temperature": "--temperature", "seed": "--seed",
         "pad_seed": "--pad-seed", "headers": "--header flags", "pause_s": "--pause"}


def _check_bounds(**raws) -> None:
    """These settings (by running.settings' names) within their bounds, or a ToolProofError naming
    the flag and the bound. The cap has no upper edge here: a cap above the run's need is lowered."""
    _, problem = checked(raws)
    if problem:
        raise ToolProofError(problem.terminal(FLAGS[problem.name]))


def _pad_levels(args: argparse.Namespace, bundle) -> tuple:
    """--pad and --pad-seed checked, and every level refused before the run that some case in
    scope cannot be padded to."""
    # lazy: only a run needs these (the runner, the writers of its reports); other verbs start without them
    from toolproof.suite.model import scoped
    from toolproof.running.sweep import check_levels, parse_levels

    _check_bounds(pad_seed=args.pad_seed)
    if args.pad is None:
        return ()
    levels = parse_levels(args.pad)
    check_levels(scoped(bundle.cases, args.scope), bundle.tools, levels)
    return levels


INCOMPLETE = 3      # exit code: part of the plan got no verdict (docs/cli.md#exit-codes)


def incomplete_line(planned: int, verdicts: list[str]) -> str | None:
    """The last line of a run whose plan did not all get a verdict (None when it all did):
    `planned` work items (case x repeat x pad level), the verdicts of those that finished."""
    errors = sum(v == "ERROR" for v in verdicts)
    not_started = planned - len(verdicts)
    if not errors and not not_started:
        return None
    return (f"toolproof: incomplete: {errors + not_started} of {counted(planned, 'planned conversation')} "
            "got no verdict "
            f"({errors} ERROR, {not_started} not started)")


def sampling_line(settings) -> str:
    """What the run sends beside the suite, for the line before the first request: the
    temperature and seed (or that the server's default applies) and the extra headers (a
    secret-looking one's value never shown)."""
    parts = [f"temperature {settings.temperature:g}" if settings.temperature is not None
             else "temperature not sent (the server's default)"]
    if settings.seed is not None:
        parts.append(f"seed {settings.seed}" + ("" if settings.recorded()["seed"] is not None
                                                 else f" (not sent: {settings.provider} has no seed field)"))
    parts += [f"header {name}: {value}" for name, value in shown_headers(settings.headers).items()]
    return " (" + "; ".join(parts) + ")"


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


async def _awake(work) -> None:
    """Await `work` while the main thread wakes every 0.2 s. Python runs a signal's handler only
    in the main thread, between bytecodes: a Ctrl-C the kernel hands to a request's worker thread
    would otherwise wait until the event loop next had something to do (up to the timeout)."""
    async def beat() -> None:
        while True:
            await asyncio.sleep(0.2)

    heartbeat = asyncio.ensure_future(beat())
    try:
        await work
    finally:
        heartbeat.cancel()


class Prepared:
    """One model's run, checked and announced, nothing sent yet."""

    def __init__(self, args, bundle, settings, run, say, weights, prices):
        self.args, self.bundle, self.settings, self.run, self.say = args, bundle, settings, run, say
        self.weights, self.prices = weights, prices


def prepare(args: argparse.Namespace, bundle, environ: dict, stderr: TextIO) -> Prepared:
    """Check the flags, read the key, build the run and say, before anything is sent, where the
    requests go, where the key came from and what the run needs (a ToolProofError stops here)."""
    # lazy: only a run needs these (the runner, the writers of its reports); other verbs start without them
    from toolproof.scoring.cost import check_prices
    from toolproof.suite.fingerprint import suite_sha256
    from toolproof.running.runner import Run, RunSettings
    from toolproof.running.workplan import cap_most, plan_need
    from toolproof.running.scenario_run import scenario_need
    from toolproof.secrets import redact_text
    from .transport import urllib_transport

    _check_run_flags(args)
    weights = parse_weights(args.weight)
    prices = check_prices(args.price_in, args.price_out)
    levels = _pad_levels(args, bundle)
    headers = tuple(parse_header(h) for h in args.header)
    key, variable = read_key(args.provider, environ, args.base_url, args.api_key_env)
    # No --cap: what the plan needs (the rule the page's cap starts at) with room for every retry
    # (workplan.cap_most), so a first run grades the whole scope: a cap of 10 graded 10 of 72 cases
    # and exited 3, and a cap of exactly the need let one retried 500 cost later cases their budget
    # (396 of 446 conversations graded). Only a retry spends past the need.
    worlds = worlds_of(args.worlds) if is_scenarios(args.scope) else None
    need = scenario_need(worlds, args.scope, repeats=args.repeats) if worlds is not None else \
        plan_need(bundle.cases, args.scope, phrasings=args.phrasings, pad_levels=levels, repeats=args.repeats)
    cap = cap_most(need, RunSettings.retries) if args.cap is None else args.cap
    settings = RunSettings(args.provider, args.model, key, args.base_url, args.scope, cap,
                           pause_s=args.pause, timeout_s=args.timeout, max_tokens=args.max_tokens,
                           repeats=args.repeats, concurrency=args.concurrency, prices=prices,
                           phrasings=args.phrasings,
                           pad_levels=levels, pad_seed=args.pad_seed, temperature=args.temperature,
                           seed=args.seed, headers=headers)
    arms = read_arms(args)
    arms = ready_arms(arms, settings, bundle, environ) if arms else None
    run = Run(bundle.cases, bundle.tools, settings, urllib_transport,
              suite_sha256=suite_sha256(bundle.documents["suite"]), worlds=worlds, arms=arms)
    if arms and args.cap is None:      # every arm's items and probes, with room for every retry
        settings.cap = run.most
    secrets = run.secrets()

    def say(line: str) -> None:        # every printed line, hidden by the key's (and secret headers') value too
        stderr.write(printable(redact_text(line, secrets)) + "\n")

    # Before anything is sent: where the requests go and which variable the key came from.
    say(f"toolproof: endpoint {endpoint(args.provider, args.base_url, args.model)}; "
        + (f"key from {variable}" if variable else "no key (none of " + ", ".join(
            key_variables(args.provider, args.base_url, args.api_key_env)) + " is set)"))
    if arms:
        say(arms_line(arms))
    if settings.cap > run.most:
        say(f"toolproof: cap lowered to {run.most}: all that scope {args.scope} needs ({run.need}), "
            "with every retry allowed for")
        settings.cap = run.most
    sweep = f" at pad levels {','.join(map(str, levels))} (seed {args.pad_seed})" if levels else ""
    times = f" x {counted(args.repeats, 'repeat')}" if args.repeats > 1 else ""
    worded = len(run.work) // max(1, args.repeats) - len(run.plan) if args.phrasings != "base" else 0
    times += f", {counted(worded, 'more phrasing')} (--phrasings {args.phrasings})" if worded else ""
    at_once = f", {args.concurrency} in flight" if args.concurrency > 1 else ""
    capped = f" (the need, {run.need}, with room for every retry: --cap to lower it)" if args.cap is None else ""
    what = counted(len(run.work) // max(1, args.repeats), "scenario") if worlds is not None else counted(len(run.plan), "case")
    say(f"toolproof: {what}{times}{sweep}, up to {counted(run.need, 'request')}; "
        f"cap {settings.cap}{capped}{at_once}")
    if args.out and worlds is None:    # the file must read back: refused before anything is sent (a
        _check_file_plan(run)          # conversation's size is the model's doing: _keep_within bounds it as it goes)
    return Prepared(args, bundle, settings, run, say, weights, prices)


def _check_file_plan(run) -> None:
    """Refuse a plan whose results file could not be read back: over the reading limit, or its
    references standing for more than the readers expand (running/results_size.py)."""
    # lazy: only a run needs these (the runner, the writers of its reports); other verbs start without them
    from toolproof.limits import MAX_FILE_BYTES
    from toolproof.running.results_size import plan_problem, planned

    problem = plan_problem(planned(run), MAX_FILE_BYTES)
    if problem:
        raise ToolProofError(problem)


def _keep_within(run, results: ResultsFile, say) -> None:
    """After a case is saved: stop starting work when the file would not stay readable."""
    # lazy: only a run needs these (the runner, the writers of its reports); other verbs start without them
    from toolproof.running.results_size import stop_line

    line = stop_line(results.size, results.largest, run.settings.concurrency,
                     len(run.work) - len(run.results), results.limit)
    if line and not run.stop:
        run.stop = line                # the runner starts nothing more; the rest is listed as not started
        say(f"toolproof: {line}")


def execute(prepared: Prepared, stdout: TextIO, stderr: TextIO, *, show_card: bool = True) -> tuple[int, dict]:
    """Send the run, keep --out after every case, grade, write the reports, print the card (when
    `show_card`); (exit code, scorecard)."""
    # lazy: only a run needs these (the runner, the writers of its reports); other verbs start without them
    from toolproof.scoring.gates import score_gate
    from toolproof.reports.junit import junit_xml
    from toolproof.reports.scorecard import render_markdown
    from toolproof.secrets import redact, redact_text

    args, bundle, settings, run, say = prepared.args, prepared.bundle, prepared.settings, prepared.run, prepared.say
    secrets = run.secrets()
    say(f"toolproof: sending to {endpoint(args.provider, args.base_url, args.model)}{sampling_line(settings)}")

    def progress(raw: dict, result) -> None:
        if results is not None:        # after every case: a crash, Ctrl-C or kill keeps it
            results.save(run.document(created=_now()))
            _keep_within(run, results, say)
        repeat = f" #{raw['repeat'] + 1}" if args.repeats > 1 else ""
        pad = f" pad {raw['pad']}" if "pad" in raw else ""
        pad += f" [{raw['phrasing']}]" if "phrasing" in raw else ""
        pad += f" ({raw['arm']})" if "arm" in raw else ""
        say(f"[{len(run.results)}/{len(run.work)}] {result.verdict:<7} {result.case_id}{repeat}{pad} "
            f"(requests {run.used}/{settings.cap})")

    results = ResultsFile(args.out, replace=bool(getattr(args, "force", False))) if args.out else None
    run.on_case = progress
    if results is not None:            # before the first request: a path that cannot be written stops here
        results.save(run.document(created=_now()))
    interrupted = False
    try:
        asyncio.run(_awake(run.run()))
    except KeyboardInterrupt:          # Ctrl-C: the request in flight is abandoned at once
        run.state, interrupted = "aborted", True
    if run.skipped:
        what = ("case" if run.worlds is None else "scenario") + ("" if args.repeats == 1 else " repeat")
        say(f"toolproof: {counted(run.skipped, what)} not run: the cap of {counted(settings.cap, 'request')} could not cover them")
    document = run.document(created=_now())
    if results is not None:            # in plan order, within the reading limit: what is graded below
        document, left_out = results.finish(document)
        if left_out:
            say(f"toolproof: {counted(left_out, 'graded conversation')} left out of {args.out}: with them it "
                "would pass "
                f"the {results.limit / 1e6:g} MB reading limit (listed there as not started)")
        if results.moved:
            say(f"toolproof: {args.out} was moved or replaced while the run went: the results were written "
                "into the file the run made, wherever it now is, and the file now at that path was left as it is")
    if interrupted:
        where = f" in {args.out}" if args.out else " (no --out file: printed below only)"
        say(f"toolproof: interrupted: {counted(len(run.results), 'graded case')} kept{where}")
    elif run.state == "aborted":
        say("toolproof: run aborted; the cases graded so far are kept")
    elif run.state == "error":
        say(f"toolproof: run stopped: {run.error}")
    card = redact(results_card(document, bundle, prepared.weights, prepared.prices, run.worlds, args.out or "the run"),
                  secrets)
    if show_card:
        write_reports(args, redact_text(junit_xml(card), secrets), redact_text(render_markdown(card), secrets))
    if args.html and show_card:
        # lazy: only a run needs these (the runner, the writers of its reports); other verbs start without them
        from toolproof.reports.html_scorecard import scorecard_html

        write_text(args.html, redact_text(scorecard_html(card, bundle.cases, run.worlds), secrets), "--html")
    if show_card:
        stdout.write(redact_text(to_json(card) if args.format == "json" else render_text(card), secrets))
    if interrupted:
        return 130, card
    if run.state == "error":          # a 401, a long Retry-After, or nothing succeeded: partial results
        return 2, card
    failed = score_gate(card, args.fail_under)     # also fails a run with any ERROR
    if failed:
        say(f"toolproof: {failed}")
        return 1, card
    missing = incomplete_line(len(run.work), [r.verdict for r in run.results])
    if missing and args.allow_incomplete:
        say(missing + "; accepted (--allow-incomplete)")
    elif missing:                      # a CI job without --fail-under must not pass a dead run
        say(missing + f"; exit {INCOMPLETE} (--allow-incomplete accepts a partial run)")
        return INCOMPLETE, card
    return 0, card
