"""The page's run form: its fields, the key in sessionStorage, the other settings kept across a
reload in localStorage (never the key), the scope and cap, and the form read as RunSettings.

The live controller (page/live.py) is handed this form by page/main.py and runs what it reads; this
module never imports another panel. An edge module (DOM, storage).
"""
from __future__ import annotations

import asyncio
import json

from .dom import as_now, byid, default, el, fill, flush, forget_seen, on, seen
from .inputs import on_refused, refused_line
from .dom import page_js as js      # the page's globals: sessionStorage, localStorage, URL (dom.py)
from .dom import turn_cache
from .dom import values as dom_values
from toolproof.providers.catalog import CATALOGUE, PROVIDER, PROVIDERS
from toolproof.worlds.scope import is_scenarios, misfit

_fields = turn_cache()    # the form's values, read in one trip, kept while the page cannot change them


def field(name: str) -> str:
    """A form field's value: in an event of this form, as the field was when the event fired
    (dom.seen), so a key typed under one provider is that provider's however fast the user goes
    on. Otherwise the first read reads every field of the form in one trip to the page
    (page/dom.py); later reads use that copy until the next event or the loop's next turn."""
    value = seen(name)
    if isinstance(value, str):
        return value
    if not _fields:
        _fields.update({k: v if isinstance(v, str) else "" for k, v in dom_values(FIELDS).items()})
        asyncio.get_event_loop().call_soon(_fields.clear)
    return _fields[name]


def set_field(name: str, value: str) -> None:
    """Write a form field unless the user changed it after the event being answered (or, outside
    any event, since the page loaded): what the user typed wins (dom.fill). The page decides at
    the moment the write applies, so the copy of the form read here is dropped, and read again."""
    fill(byid(name), str(value))
    _fields.clear()


KEY_PREFIX = "toolproof.key."          # sessionStorage only: never localStorage, cookies or the URL
FORM_KEY = "toolproof.form"           # localStorage: every field below, never the key
KEPT_FIELDS = ("model", "base-url", "scope", "cap", "max-tokens", "timeout", "pad", "pad-seed", "repeats",
               "phrasings", "concurrency", "temperature", "seed", "headers", "price-in", "price-out", "arms")
ADVANCED = KEPT_FIELDS[4:]             # inside <details id="advanced">
FIELDS = ("provider", "api-key") + KEPT_FIELDS
# The select's options, placeholders and base-URL hints are the provider records' (index.html's
# options are checked against them by tests/providers/test_catalog.py). The base-URL field shows
# for a provider with a hint: required for compatible servers, a gateway for others, never for a
# fixed endpoint.
PROVIDERS_UI = PROVIDERS
PLACEHOLDERS = {p.name: p.placeholder for p in CATALOGUE}
BASE_HINTS = {p.name: p.base_hint for p in CATALOGUE if p.base_hint}


def url_timeout() -> str | None:
    """?timeout=SECONDS in the page's URL pre-fills the #timeout field (the browser tests use it)."""
    raw = flush(["param", "timeout"])             # one trip (web/boot.mjs reads the query)
    return raw if isinstance(raw, str) else None


class RunForm:
    """The run form. Reads itself as RunSettings; the run is the live controller's."""

    def __init__(self, bundle, worlds: dict | None = None, arms=None):
        from toolproof.reports.page_view import scope_option_text, scope_options

        from .scenario_scope import ScenarioScope

        self.bundle, self.arms = bundle, arms      # arms: the Arms field (page/arms.py), handed in by main.py
        if arms is not None:
            arms.attach(self, field)
        self.own = None                # (cases, tools) of "Your suite", set by the #own section
        self.own_option = None
        self.own_document = None       # the draft suite as its export writes it (for suite_sha256)
        self.cap_defaults = set()      # caps scope_changed wrote since the user last typed one
        self.options = {value: need for value, _, need in scope_options(bundle.cases)}
        self.option_nodes, self.option_texts = {}, {}     # value -> <option>, and the text it shows
        scope = byid("scope")
        for value, label, need in scope_options(bundle.cases):
            self.option_nodes[value] = el("option", value=value)
            scope.appendChild(self.option_nodes[value])
            self.label_option(value, scope_option_text(label, need))
        # the Scenarios scope (page/scenario_scope.py): `scenarios`, then `scenarios:<world>`
        self.scenarios = ScenarioScope(scope, worlds or {})
        self.options.update(self.scenarios.draw(1))
        on(byid("provider"), "change", lambda e: self.provider_changed())
        on(scope, "change", lambda e: self.scope_changed())
        on(byid("cap"), "input", lambda e: self.cap_typed())
        on(byid("pad"), "input", lambda e: self.scope_changed())
        on(byid("repeats"), "input", lambda e: self.scope_changed())
        on(byid("phrasings"), "change", lambda e: self.scope_changed())
        on(byid("api-key"), "input", lambda e: self.store_key())
        on(byid("forget-key"), "click", lambda e: self.forget_key())
        on(byid("run-form"), "change", lambda e: self.keep_fields())
        on(byid("run-form"), "input", lambda e: self.keep_fields())
        on_refused(byid("run-form"), lambda name, size: self.message(refused_line(name, size), bad=True))
        self.pending_scope = self.restore()
        timeout = url_timeout()
        if timeout is not None:
            set_field("timeout", timeout)

    # -- kept across a reload (never the key)
    def keep_fields(self) -> None:
        try:
            with as_now():                   # the form as it stands, with the cap this event set
                values = {name: field(name) for name in KEPT_FIELDS}
                values["provider"] = self.provider()
                if values["cap"] == str(self.need()):     # the default (scope_changed): it follows
                    values["cap"] = ""                    # the scope on the next visit too
            js.localStorage.setItem(FORM_KEY, json.dumps(values))
        except Exception:                # noqa: BLE001 - storage refused (private mode, quota), or a
            pass                         # form too big for one read (Run says so): not kept

    def restore(self) -> str | None:
        """Put back the fields kept by keep_fields, into the fields the user has not changed while
        Python started (set_field); returns a kept scope that is not offered yet ("own": the draft
        suite arrives later). Anything odd in storage is ignored."""
        from toolproof.reports.page_view import kept_form
        from toolproof.running.settings import check_value

        try:
            raw = js.localStorage.getItem(FORM_KEY)
        except Exception:                # noqa: BLE001 - storage refused: a fresh form
            raw = None
        values = kept_form(raw if isinstance(raw, str) else None, ("provider",) + KEPT_FIELDS)
        # A key typed while Python started was typed for the provider shown: that one stays, and
        # the kept model (another provider's) with it stays out.
        if field("api-key") and values.get("provider") != field("provider"):
            values = {name: value for name, value in values.items() if name not in ("provider", "model")}
        if values.get("provider") in PROVIDERS_UI:
            set_field("provider", values["provider"])
        self.provider_changed()
        pending = None
        for name in KEPT_FIELDS:
            if name in values and name not in ("scope", "cap"):
                set_field(name, values[name])
        if values.get("scope") in self.options:
            set_field("scope", values["scope"])
        elif values.get("scope") == "own":
            pending = "own"
        self.scope_changed()
        if check_value("cap", values.get("cap", ""), high=self.most())[0] is not None:
            set_field("cap", values["cap"])
        self.show_need()
        defaults = dom_values(ADVANCED, "value")      # the page's own defaults, in one trip
        if any(values.get(name, "") != str(defaults.get(name) or "") for name in ADVANCED
               if name in values):
            byid("advanced").open = True          # a kept setting out of sight would surprise
        # What the user typed while Python started is kept as if typed now (the key in this tab).
        self.store_key()
        self.keep_fields()
        return pending

    # -- the form
    def provider(self) -> str:
        return field("provider")

    def provider_changed(self) -> None:
        provider = self.provider()
        byid("base-url-field").hidden = provider not in BASE_HINTS
        # A base URL typed for one provider must never carry another provider's key elsewhere.
        set_field("base-url", "")
        byid("base-url").setAttribute("placeholder", BASE_HINTS.get(provider, ""))
        byid("model").setAttribute("placeholder", PLACEHOLDERS[provider])
        stored = js.sessionStorage.getItem(KEY_PREFIX + provider)      # JS null when absent
        set_field("api-key", stored if isinstance(stored, str) else "")
        byid("api-key").setAttribute("placeholder", "optional for local servers" if PROVIDER[provider].key_optional
                                     else "kept in this tab's sessionStorage only")
        self.key_changed()

    def key_changed(self) -> None:
        """A hint, never a refusal, when the key's prefix belongs to another provider."""
        from toolproof.reports.page_view import key_hint

        hint = key_hint(self.provider(), field("api-key").strip())
        byid("key-hint").textContent = hint
        byid("key-hint").hidden = not hint

    def store_key(self) -> None:
        self.key_changed()
        value = field("api-key")
        if value:
            js.sessionStorage.setItem(KEY_PREFIX + self.provider(), value)
        else:
            js.sessionStorage.removeItem(KEY_PREFIX + self.provider())

    def forget_key(self) -> None:
        for provider in PROVIDERS_UI:
            js.sessionStorage.removeItem(KEY_PREFIX + provider)
        set_field("api-key", "")
        self.key_changed()
        self.message("Key forgotten: removed from this tab's storage and the form.")

    def pad_levels(self) -> tuple:
        """#pad as levels ((): no sweep); raises ToolProofError with the reason."""
        from toolproof.running.sweep import parse_levels

        text = field("pad").strip()
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
                if field("scope") == "own":       # its option goes: whatever was typed since
                    scope.value = "all"
                    _fields.clear()
                    forget_seen("scope")
                self.own_option.remove()
                self.own_option = None
                self.option_nodes.pop("own", None)
            self.scope_changed()
            return
        self.own = (cases, tools)
        self.options["own"] = requests_needed(cases)
        if self.own_option is None:
            self.own_option = el("option", value="own")
            scope.appendChild(self.own_option)
        self.option_nodes["own"] = self.own_option
        self.option_texts.pop("own", None)            # a new node: labelled by show_need below
        if self.pending_scope == "own":
            set_field("scope", "own")
            self.pending_scope = None
        self.scope_changed()

    def repeats(self) -> int:
        """The #repeats field, 1 while it is out of bounds (Run says so)."""
        from toolproof.running.settings import check_value

        value, _ = check_value("repeats", field("repeats"))
        return 1 if value is None else value

    def phrasings(self) -> str | int:   # #phrasings: "base", "all" or N
        from toolproof.suite.model import phrasing_choice

        return phrasing_choice(field("phrasings"))

    def need(self) -> int:
        """Requests the chosen scope needs at most, every phrasing, repeat and pad level counted (a
        pad level that cannot be read counts once): the cap's default, by the rule `run` without
        --cap uses too (running.workplan.plan_need)."""
        from toolproof.errors import ToolProofError
        from toolproof.running.workplan import plan_need

        try:
            levels = self.pad_levels()
        except ToolProofError:
            levels = ()
        scope = field("scope")
        if is_scenarios(scope):         # each scenario's turn limit, by the runner's own count
            return self.scenarios.need(scope, self.repeats())
        if scope == "own" and self.own is not None:
            cases, scope = self.own[0], "all"
        else:                           # an option gone (Your suite withdrawn): as show_need, all
            cases, scope = self.bundle.cases, scope if scope in self.options and scope != "own" else "all"
        if self.arms is not None and (arms := self.arms.need(cases, scope, phrasings=self.phrasings(),
                                                              repeats=self.repeats())) is not None:
            return arms                 # every arm's conversations and one probe per arm (page/arms.py)
        return plan_need(cases, scope, phrasings=self.phrasings(), pad_levels=levels, repeats=self.repeats())

    def most(self) -> int:
        """The cap's maximum: the need plus every retry the runner may make (RunSettings.retries
        more per request), so a run at the maximum never leaves a case unstarted."""
        from toolproof.running.settings import RunSettings     # not the runner: not needed until a run
        from toolproof.running.workplan import cap_most

        return cap_most(self.need(), RunSettings.retries)

    def scope_changed(self) -> None:
        need, most = self.need(), self.most()
        cap = byid("cap")
        cap.setAttribute("max", str(most))
        # A run asked for in full completes in full: a new scope (or repeat count, or pad levels)
        # sets the cap to what it needs; the user may then lower it, or raise it up to `most`.
        # Only while the cap holds the need set last: a cap the user gave stays (dom.default).
        default(cap, str(need))
        self.cap_defaults.add(str(need))
        _fields.clear()
        self.show_need()

    def cap_typed(self) -> None:
        """The user typed a cap: it is theirs from now on, not a scope's default."""
        self.cap_defaults.clear()
        self.show_need()

    def show_need(self) -> None:
        """The need line and every scope option, in one unit: the requests a run of that scope
        needs with the repeats, phrasings and pad levels chosen now (the option of the scope
        chosen says the need line's number)."""
        from toolproof.errors import ToolProofError
        from toolproof.reports.page_view import conversations_needed, need_text, scope_option_text, scope_options
        from toolproof.running.sweep import sweep_need
        from toolproof.suite.model import requests_needed, scoped
        from toolproof.plurals import counted

        try:
            levels = self.pad_levels()
        except ToolProofError:
            levels = ()                                       # as need(): an unreadable level counts once
        repeats, choice, scope = self.repeats(), self.phrasings(), field("scope")
        times = sweep_need(1, levels, repeats)                # how many times the scope runs
        arms = (lambda cases, value: None) if self.arms is None else (     # with arms: the runner's count
            lambda cases, value: self.arms.need(cases, value, phrasings=choice, repeats=repeats))
        texts = {value: scope_option_text(label, arms(self.bundle.cases, value) or need)
                 for value, label, need in scope_options(self.bundle.cases, choice, times)}
        if self.own is not None:
            texts["own"] = scope_option_text(f"Your suite ({counted(len(self.own[0]), 'case')})",
                                             arms(self.own[0], "all") or times * requests_needed(self.own[0], choice))
        for value, text in texts.items():
            self.label_option(value, text)
        self.draw_scenarios(repeats)
        if self.arms is not None:
            self.arms.show()                                  # #arms-problem, as the field and provider say
        if is_scenarios(scope) and scope in self.options:
            byid("need").textContent = self.scenarios.need_line(scope, repeats, self.most())
            return
        mine = self.own[0] if scope == "own" and self.own is not None else scoped(
            self.bundle.cases, scope if scope in self.options and scope != "own" and not is_scenarios(scope) else "all")
        byid("need").textContent = need_text(
            self.need(), self.most(), conversations_needed(mine, choice, times), len(mine),
            phrased=choice != "base", repeats=repeats, levels=len(levels)) + (self.arms.note() if self.arms else "")

    def draw_scenarios(self, repeats: int) -> None:
        """The Scenarios options as the worlds and repeats now say (page/scenario_scope.py)."""
        drawn = self.scenarios.draw(repeats)
        for value in [v for v in self.options if is_scenarios(v) and v not in drawn]:
            del self.options[value]
        self.options.update(drawn)

    def set_world(self, world) -> None:
        """Offer the world file the user loaded as Scenarios scopes (None: withdraw it)."""
        self.scenarios.load(world)
        self.draw_scenarios(self.repeats())
        if is_scenarios(field("scope")) and field("scope") not in self.options:
            byid("scope").value = "all"          # its option went
            _fields.clear()
            forget_seen("scope")
        self.scope_changed()

    def label_option(self, value: str, text: str) -> None:
        """An option's text, written only when it changes (the need line redraws on every key)."""
        node = self.option_nodes.get(value)
        if node is not None and self.option_texts.get(value) != text:
            node.textContent = text
            self.option_texts[value] = text

    def lock(self, running: bool) -> None:
        """Every field read-only while a run goes (what it runs was read when it started)."""
        for name in ("provider", "api-key", "arms-example") + KEPT_FIELDS:
            byid(name).disabled = running

    def message(self, text: str, bad: bool = False) -> None:
        node = byid("run-message")
        node.textContent = text
        node.className = "run-message bad" if bad else "run-message"

    def settings(self):
        """The form as RunSettings, or None after saying what is wrong."""
        from toolproof.providers.dispatch import base_url_problem
        from toolproof.running.runner import RunSettings
        from toolproof.reports.page_view import connect_allowed
        from toolproof.running.settings_form import FIELD_IDS, form_numbers, prices_from_form, sampling_from_form

        provider, model = self.provider(), field("model").strip()
        key, base_url = field("api-key").strip(), field("base-url").strip()
        scope, need = field("scope"), self.need()
        fields = {name: field(FIELD_IDS[name]) for name in ("cap", "timeout_s", "max_tokens", "repeats", "concurrency")}
        # A cap an earlier scope defaulted (Run clicked before this scope's default reached the
        # field) is no cap the user gave: the run takes the need of the scope it runs.
        if fields["cap"] in self.cap_defaults:
            fields["cap"] = str(need)
        numbers, number_problem = form_numbers(fields, most=self.most(), need=need)
        levels, seed, pad_problem = self.pad_settings(scope)
        prices, price_problem = prices_from_form(field("price-in"), field("price-out"))
        temperature, sampling_seed, headers, sampling_problem = sampling_from_form(
            field("temperature"), field("seed"), field("headers"))
        problem = pad_problem or sampling_problem or (  # the sweep's own reason, said first; then the arms'
            self.arms.refusal(scenarios=is_scenarios(scope), pad=bool(levels)) if self.arms else "")
        wrong = misfit(scope, pad=bool(levels), phrased=self.phrasings() != "base")
        if not problem and wrong:                       # the rule `run` keeps (worlds/scope.py)
            problem = (f"{'Pad levels apply' if wrong == 'pad' else 'Phrasings apply'} to cases, not to the "
                       f"scope {scope}: {'clear Pad levels' if wrong == 'pad' else 'set Phrasings to base'}.")
        if not problem and levels and self.phrasings() != "base":
            problem = "A sweep runs the base phrasing only: set Phrasings to base."
        if problem:
            pass
        elif not model:
            problem = "Enter a model name."
        elif not PROVIDER[provider].key_optional and not key:
            problem = "Paste your API key (it stays in this tab and goes only to the provider)."
        elif not PROVIDER[provider].base and not base_url:
            problem = f"Enter the server's base URL, e.g. {PROVIDER[provider].base_hint}."
        elif number_problem:                        # the cap, timeout, max tokens, repeats, concurrency
            problem = number_problem
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
            basic = ("Enter", "Paste", "The request cap") + ((base_url,) if base_url else ())
            if not problem.startswith(basic):        # not one of the fields always in view
                byid("advanced").open = True         # the field at fault is in the folded part
            return None
        base_url = base_url if provider in BASE_HINTS else ""        # openai's endpoint is fixed
        # "Your suite" runs every case of the draft suite: the results file says scope "all" and
        # re-grades with `grade --suite S --tools T` on the exported files.
        return RunSettings(provider, model, key, base_url, "all" if scope == "own" else scope, numbers["cap"],
                           timeout_s=numbers["timeout_s"], max_tokens=numbers["max_tokens"], pad_levels=levels,
                           pad_seed=seed, repeats=numbers["repeats"], concurrency=numbers["concurrency"],
                           prices=prices, phrasings=self.phrasings(),
                           temperature=temperature, seed=sampling_seed, headers=headers)

    def pad_settings(self, scope: str) -> tuple:
        """(levels, seed, problem): #pad and #pad-seed read, and a level some case in scope cannot
        be padded to refused before the run."""
        from toolproof.errors import ToolProofError
        from toolproof.suite.model import scoped
        from toolproof.running.sweep import check_levels
        from toolproof.running.settings_form import pad_seed

        seed, seed_problem = pad_seed(field("pad-seed"))
        try:
            levels = self.pad_levels()
            cases, tools = self.own if scope == "own" and self.own else (self.bundle.cases, self.bundle.tools)
            mine = [] if is_scenarios(scope) else scoped(cases, "all" if scope == "own" else scope)
            check_levels(mine, tools, levels, flag="Pad level")
        except ToolProofError as exc:
            return (), 0, exc.line()
        if seed_problem:
            return (), 0, seed_problem
        return levels, seed, None

