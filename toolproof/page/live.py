"""The page's live-run panel: the form, the key in sessionStorage, progress, abort, the result.

The loop, the cap, retries and grading are the shared runner's (`toolproof.running.runner`); this module
only reads the form, shows progress and renders the result. It never imports another panel: the
scorecard, the case row and the Compare section's hook are handed in by page/main.py. An edge
module (DOM, storage).
"""
from __future__ import annotations

import asyncio
import math

from pyscript import window

from .dom import byid, clear, document, el, on
from .dom import page_js as js      # the page's globals: sessionStorage, URL, clock (dom.py)

KEY_PREFIX = "toolproof.key."          # sessionStorage only: never localStorage, cookies or the URL
PROVIDERS_UI = ("openai", "openai-responses", "anthropic", "gemini", "openai-compatible")
PLACEHOLDERS = {"openai": "e.g. gpt-4.1-mini", "openai-responses": "e.g. gpt-5-mini",
                "anthropic": "e.g. claude-sonnet-4-5", "gemini": "e.g. gemini-2.5-flash",
                "openai-compatible": "e.g. qwen2.5:7b"}
# The base URL is required for compatible servers, optional (a gateway) for these, fixed for openai.
BASE_HINTS = {"openai-compatible": "http://localhost:11434/v1",
              "openai-responses": "optional: default https://api.openai.com/v1",
              "anthropic": "optional gateway: default https://api.anthropic.com",
              "gemini": "optional: default https://generativelanguage.googleapis.com/v1beta"}


def url_timeout() -> str | None:
    """?timeout=SECONDS in the page's URL pre-fills the #timeout field (the browser tests use it)."""
    raw = js.URLSearchParams.new(window.location.search).get("timeout")
    return raw if isinstance(raw, str) else None


def number_field(name: str, low: float, high: float, *, whole: bool) -> float | None:
    """A form number within [low, high], or None (the caller says what is wrong)."""
    try:
        value = float(str(byid(name).value).strip())
    except ValueError:
        return None
    if not math.isfinite(value) or not low <= value <= high or whole and value != int(value):
        return None
    return int(value) if whole else value


def form_prices() -> tuple[dict | None, str | None]:
    """(#price-in and #price-out as cost prices, None) or (None, what is wrong): both or neither."""
    from toolproof.scoring.cost import check_prices
    from toolproof.errors import ToolProofError

    raw = [str(byid(name).value).strip() for name in ("price-in", "price-out")]
    if not any(raw):
        return None, None
    values = [number_field(name, 0, 1e9, whole=False) for name in ("price-in", "price-out")]
    if None in values:
        return None, "Give both prices as numbers from 0 (USD per million tokens), or leave both empty."
    try:
        return check_prices(*values), None
    except ToolProofError as exc:
        return None, str(exc)


class LiveController:
    """The run form, the progress and the live scorecard. Grading and the loop are the runner's."""

    def __init__(self, bundle, context: dict, *, scorecard_view, case_row, remember_live):
        from toolproof.reports.page_view import scope_options

        self.bundle, self.context = bundle, context
        # handed in by page/main.py (panels never import each other): (root, results, **options) ->
        # a ScorecardView to render; (case entry, expandable=) -> the row the scorecard shows; and
        # (results file) -> None, which gives the Compare section its "use the live result"
        self.scorecard_view, self.case_row, self.remember_live = scorecard_view, case_row, remember_live
        self.run = None
        self.own = None                # (cases, tools) of "Your suite", set by the #own section
        self.own_option = None
        self.own_document = None       # the draft suite as its export writes it (for suite_sha256)
        self.active = (bundle.cases, bundle.tools)     # what the current run runs
        self.options = {value: need for value, _, need in scope_options(bundle.cases)}
        scope = byid("scope")
        for value, label, need in scope_options(bundle.cases):
            scope.appendChild(el("option", f"{label}: {need} requests", value=value))
        on(byid("provider"), "change", lambda e: self.provider_changed())
        on(scope, "change", lambda e: self.scope_changed())
        on(byid("cap"), "input", lambda e: self.show_need())
        on(byid("pad"), "input", lambda e: self.scope_changed())
        on(byid("repeats"), "input", lambda e: self.scope_changed())
        on(byid("api-key"), "input", lambda e: self.store_key())
        on(byid("run-live"), "click", lambda e: asyncio.ensure_future(self.start()))
        on(byid("abort"), "click", lambda e: self.abort())
        on(byid("forget-key"), "click", lambda e: self.forget_key())
        if url_timeout() is not None:
            byid("timeout").value = url_timeout()
        self.provider_changed()
        self.scope_changed()
        byid("run-live").disabled = False

    # -- the form
    def provider(self) -> str:
        return str(byid("provider").value)

    def provider_changed(self) -> None:
        provider = self.provider()
        byid("base-url-field").hidden = provider not in BASE_HINTS
        # A base URL typed for one provider must never carry another provider's key elsewhere.
        byid("base-url").value = ""
        byid("base-url").setAttribute("placeholder", BASE_HINTS.get(provider, ""))
        byid("model").setAttribute("placeholder", PLACEHOLDERS[provider])
        stored = js.sessionStorage.getItem(KEY_PREFIX + provider)      # JS null when absent
        byid("api-key").value = stored if isinstance(stored, str) else ""
        byid("api-key").setAttribute("placeholder", "optional for local servers" if provider == "openai-compatible"
                                     else "kept in this tab's sessionStorage only")

    def store_key(self) -> None:
        value = str(byid("api-key").value)
        if value:
            js.sessionStorage.setItem(KEY_PREFIX + self.provider(), value)
        else:
            js.sessionStorage.removeItem(KEY_PREFIX + self.provider())

    def forget_key(self) -> None:
        for provider in PROVIDERS_UI:
            js.sessionStorage.removeItem(KEY_PREFIX + provider)
        byid("api-key").value = ""
        self.message("Key forgotten: removed from this tab's storage and the form.")

    def pad_levels(self) -> tuple:
        """#pad as levels ((): no sweep); raises ToolProofError with the reason."""
        from toolproof.running.sweep import parse_levels

        text = str(byid("pad").value).strip()
        return parse_levels(text, flag="Pad levels") if text else ()

    def set_own(self, cases, tools: dict, document: dict | None = None) -> None:
        """Offer (or withdraw) the #own section's draft suite as the scope "Your suite"."""
        self.own_document = document
        from toolproof.suite.model import requests_needed

        scope = byid("scope")
        if not cases:
            self.own = None
            self.options.pop("own", None)
            if self.own_option is not None:
                if str(scope.value) == "own":
                    scope.value = "all"
                self.own_option.remove()
                self.own_option = None
            self.scope_changed()
            return
        self.own = (cases, tools)
        self.options["own"] = requests_needed(cases)
        if self.own_option is None:
            self.own_option = el("option", value="own")
            scope.appendChild(self.own_option)
        self.own_option.textContent = f"Your suite ({len(cases)} cases): {self.options['own']} requests"
        self.scope_changed()

    def repeats(self) -> int:
        """The #repeats field, 1 while it is not a whole number from 1 to 20 (Run says so)."""
        value = number_field("repeats", 1, 20, whole=True)
        return value if value is not None else 1

    def need(self) -> int:
        """Requests the chosen scope needs at most, every repeat and pad level counted (a pad level
        that cannot be read counts once): the cap's maximum."""
        from toolproof.errors import ToolProofError
        from toolproof.running.sweep import sweep_need

        try:
            levels = self.pad_levels()
        except ToolProofError:
            levels = ()
        return sweep_need(self.options[str(byid("scope").value)], levels, self.repeats())

    def most(self) -> int:
        """The cap's maximum: the need plus every retry the runner may make (RunSettings.retries
        more per request), so a run at the maximum never leaves a case unstarted."""
        from toolproof.running.runner import RunSettings

        return self.need() * (1 + RunSettings.retries)

    def scope_changed(self) -> None:
        need, most = self.need(), self.most()
        cap = byid("cap")
        cap.setAttribute("max", str(most))
        # A run asked for in full completes in full: a new scope (or repeat count, or pad levels)
        # sets the cap to what it needs; the user may then lower it, or raise it up to `most`.
        cap.value = str(need)
        self.show_need()

    def show_need(self) -> None:
        need, most, repeats = self.need(), self.most(), self.repeats()
        levels = need // max(self.options[str(byid("scope").value)] * repeats, 1)
        sweep = f" ({levels} pad levels, the scope once per level)" if levels > 1 else ""
        times = f", each case {repeats} times," if repeats > 1 else ""
        byid("need").textContent = (f"This scope needs at most {need} requests{sweep}{times}: one per turn (multi-step, "
                                    "injection and result-use cases take two) plus one per counterfactual "
                                    f"variant. The cap starts there and can be 1 to {most}: retries count "
                                    "against it, and at the maximum every retry is allowed for; a case is "
                                    "only started if all its requests fit, and the result says how many "
                                    "were left out.")

    def message(self, text: str, bad: bool = False) -> None:
        node = byid("run-message")
        node.textContent = text
        node.className = "run-message bad" if bad else "run-message"

    def settings(self):
        """The form as RunSettings, or None after saying what is wrong."""
        from toolproof.providers.dispatch import base_url_problem
        from toolproof.running.runner import RunSettings
        from toolproof.reports.page_view import connect_allowed, sampling_from_form

        provider, model = self.provider(), str(byid("model").value).strip()
        key, base_url = str(byid("api-key").value).strip(), str(byid("base-url").value).strip()
        scope, need = str(byid("scope").value), self.need()
        try:
            cap = int(str(byid("cap").value))
        except ValueError:
            cap = 0
        timeout = number_field("timeout", 0.1, 3600, whole=False)
        max_tokens = number_field("max-tokens", 1, 1_000_000, whole=True)
        levels, seed, pad_problem = self.pad_settings(scope)
        repeats = number_field("repeats", 1, 20, whole=True)
        concurrency = number_field("concurrency", 1, 16, whole=True)
        prices, price_problem = form_prices()
        temperature, sampling_seed, headers, sampling_problem = sampling_from_form(
            str(byid("temperature").value), str(byid("seed").value), str(byid("headers").value))
        problem = pad_problem or sampling_problem       # the sweep's own reason, said first
        if problem:
            pass
        elif not model:
            problem = "Enter a model name."
        elif provider != "openai-compatible" and not key:
            problem = "Paste your API key (it stays in this tab and goes only to the provider)."
        elif provider == "openai-compatible" and not base_url:
            problem = "Enter the server's base URL, e.g. http://localhost:11434/v1."
        elif not 1 <= cap <= self.most():
            problem = f"The request cap must be between 1 and {self.most()} for this scope (its need, {need}, with every retry allowed for)."
        elif timeout is None:
            problem = "The timeout must be a number of seconds from 0.1 to 3600."
        elif max_tokens is None:
            problem = "Max tokens must be a whole number from 1 to 1000000."
        elif repeats is None:
            problem = "Repeats must be a whole number from 1 to 20."
        elif concurrency is None:
            problem = "Concurrency must be a whole number from 1 to 16."
        elif price_problem:
            problem = price_problem
        elif base_url and provider in BASE_HINTS and (refused := base_url_problem(base_url)):
            problem = refused[0].upper() + refused[1:] + "."
        elif base_url and provider in BASE_HINTS:
            csp = byid("csp").getAttribute("content")
            if not connect_allowed(base_url, csp):
                problem = (f"{base_url} is not allowed by this page's Content-Security-Policy. Local "
                           "servers (localhost, 127.0.0.1) are; for another host start the page with "
                           "python serve.py --connect <origin> (see docs/security.md).")
        if problem:
            self.message(problem, bad=True)
            return None
        base_url = base_url if provider in BASE_HINTS else ""        # openai's endpoint is fixed
        # "Your suite" runs every case of the draft suite: the results file says scope "all" and
        # re-grades with `grade --suite S --tools T` on the exported files.
        return RunSettings(provider, model, key, base_url, "all" if scope == "own" else scope, cap,
                           timeout_s=timeout, max_tokens=max_tokens, pad_levels=levels, pad_seed=seed,
                           repeats=repeats, concurrency=concurrency, prices=prices,
                           temperature=temperature, seed=sampling_seed, headers=headers)

    def pad_settings(self, scope: str) -> tuple:
        """(levels, seed, problem): #pad and #pad-seed read, and a level some case in scope cannot
        be padded to refused before the run."""
        from toolproof.errors import ToolProofError
        from toolproof.suite.model import scoped
        from toolproof.running.sweep import check_levels

        seed = number_field("pad-seed", 0, 2 ** 53, whole=True)
        try:
            levels = self.pad_levels()
            cases, tools = self.own if scope == "own" and self.own else (self.bundle.cases, self.bundle.tools)
            check_levels(scoped(cases, "all" if scope == "own" else scope), tools, levels, flag="Pad level")
        except ToolProofError as exc:
            return (), 0, exc.line()
        if seed is None:
            return (), 0, "The pad seed must be a whole number from 0."
        return levels, seed, None

    # -- running
    async def start(self) -> None:
        from toolproof.page.transport import fetch_transport
        from toolproof.suite.fingerprint import suite_sha256
        from toolproof.running.runner import Run

        settings = self.settings()
        if settings is None:
            return
        self.store_key()
        clear(byid("live-feed"))
        clear(byid("live-card"))
        byid("live-empty").hidden = True
        byid("run-progress").hidden = False
        from toolproof.providers.dispatch import endpoint
        # where the requests go, resolved (never the key: it travels only in the auth header)
        self.message(f"Running {settings.scope} against {settings.provider} / {settings.model} at "
                     f"{endpoint(settings.provider, settings.base_url, settings.model)}…")
        self.busy(True)
        own = str(byid("scope").value) == "own" and self.own is not None
        self.active = self.own if own else (self.bundle.cases, self.bundle.tools)
        # the suite's fingerprint: ours, or the draft's as its export would write it
        suite_doc = self.own_document if own else self.bundle.documents["suite"]
        self.run = Run(*self.active, settings, fetch_transport,
                       on_case=self.case_done, on_request=self.request_sent,
                       suite_sha256=suite_sha256(suite_doc) if suite_doc is not None else "")
        self.progress()
        try:
            await self.run.run()
        except Exception as exc:                 # a bug, not a provider error: say so plainly
            self.run.state, self.run.error = "error", f"{exc.__class__.__name__}: {exc}"
        self.finish()

    def busy(self, running: bool) -> None:
        document.body.dataset.run = "running" if running else document.body.dataset.run
        byid("run-live").disabled = running
        byid("abort").disabled = not running
        for name in ("provider", "model", "api-key", "base-url", "scope", "cap", "max-tokens", "timeout",
                     "pad", "pad-seed", "repeats", "concurrency", "price-in", "price-out", "temperature", "seed",
                     "headers"):
            byid(name).disabled = running

    def request_sent(self, used: int, cap: int) -> None:
        self.progress()

    def case_done(self, raw: dict, result) -> None:
        from toolproof.secrets import redact

        # the same row (and the same redaction, by pattern and by the key's value) as the
        # scorecard shows once the run ends
        byid("live-feed").appendChild(self.case_row(redact(result.to_json(), self.run.settings.secrets()),
                                                    expandable=False))
        self.progress()

    def progress(self) -> None:
        run = self.run
        done, total = len(run.results), len(run.work)          # every repeat (and pad level)
        byid("cases-progress").max = max(total, 1)
        byid("cases-progress").value = done
        byid("cases-text").textContent = f"{done} / {total}"
        byid("requests-progress").max = max(run.settings.cap, 1)
        byid("requests-progress").value = run.used
        byid("requests-text").textContent = f"{run.used} / {run.settings.cap}"

    def abort(self) -> None:
        if self.run is not None and self.run.state == "running":
            self.run.abort()
            self.message("Aborting: no further requests will be sent.")

    def finish(self) -> None:
        run = self.run
        created = str(js.Date.new().toISOString())[:19] + "+00:00"
        doc = run.document(created=created)
        self.busy(False)
        # data-run is set last, once the card is drawn: a test (or a script) that waits for it
        # then reads every case row, never a list still being drawn
        self.finished_state = run.state
        try:
            self.show_finished(run, doc)
        finally:
            document.body.dataset.run = self.finished_state

    def show_finished(self, run, doc) -> None:
        """The run's closing line and its scorecard; finished_state is "error" if it cannot be shown."""
        from toolproof.datafiles import format_schema
        from toolproof.scoring.evaluate import grade_transcripts, source_of
        from toolproof.secrets import redact_text
        from toolproof.grading.transcripts import parse_transcripts
        from toolproof.reports.page_view import run_label

        # A run in which no request succeeded is in the error state (the runner says so), so
        # "Run complete." only ever stands over answers the provider gave.
        notes = {"done": "Run complete.", "aborted": "Run aborted: the cases graded so far are kept.",
                 "error": f"Run stopped: {redact_text(run.error, run.settings.secrets())}"}
        note = notes.get(run.state, run.state)
        if run.skipped:
            note += f" {run.skipped} case(s) were not started: the cap could not cover them."
        self.message(note, bad=run.state == "error")
        self.progress()
        clear(byid("live-feed"))
        if not run.results:
            byid("live-empty").hidden = False
            return
        notes, sweep = [], None
        try:
            cases, tools = self.active
            transcripts = parse_transcripts(doc, format_schema("transcripts"), {c.id for c in cases})
            source, by_case = source_of(transcripts), transcripts.transcripts
            # Graded again from the stored (redacted) document, as the terminal does: what the
            # page shows and exports is what the results file re-grades to (every repeat, the
            # same statistics), with the key nowhere in it.
            results = grade_transcripts(cases, tools, transcripts)
            sweep = self.sweep_of(transcripts)
            if sweep is not None:            # a sweep: the main level's cases, every level's curve
                results, by_case = sweep.main_graded, sweep.levels[sweep.main][1].transcripts
                notes += [sweep.note] if sweep.note else []
        except Exception as exc:                 # noqa: BLE001 - a finished run always gets a scorecard
            from toolproof.scoring.evaluate import Graded
            from toolproof.grading.guarded import internal_error
            per_case: dict = {}                  # the runner's own grades, every repeat under its case
            for result in run.results:
                per_case.setdefault(result.case_id, []).append(result)
            results = Graded.of(list(per_case.values()), [])
            source = {k: doc.get(k, "") for k in ("kind", "label", "provider", "model", "created", "scope")}
            by_case = {}
            notes.append(internal_error(exc, "re-reading the results") + ": the diagnosis may be incomplete")
        card_root = byid("live-card")
        try:
            card_root.appendChild(el("p", run_label(doc), cls="live-label"))
            body = el("div")
            card_root.appendChild(body)
            cases, tools = self.active
            context = {"cases": {c.id: c for c in cases}, "tools": tools, "transcripts": by_case}
            self.remember_live(doc)
            view = self.scorecard_view(body, results, kind="live", source=source, context=context,
                                       document=doc, notes=notes, sweep=sweep, prices=run.settings.prices)
            view.render()
        except Exception as exc:                 # noqa: BLE001 - never "Run complete." without a scorecard
            from toolproof.grading.guarded import internal_error
            clear(card_root)
            self.finished_state = "error"
            self.message(f"Run finished, but {internal_error(exc, 'showing the scorecard')}.", bad=True)

    def sweep_of(self, transcripts):
        """The graded levels of a tool-count sweep (evaluate.SweepLevels), None for a plain run."""
        from toolproof.scoring.evaluate import grade_sweep
        from toolproof.scoring.sweep import levels_in

        levels = levels_in(transcripts)
        return grade_sweep(*self.active, transcripts, levels) if levels else None
