"""The suite's objects: tools, cases and their expectations, as frozen dataclasses, with the few
pure readings every layer shares (a run's scope, the requests it needs, a value in the mock
results or in object arguments). Loading and checking them is load.py's.

Pure: no I/O. Must not check a file: a Case here is already known to be valid.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from toolproof.limits import MAX_PHRASINGS
from .categories import CASE_CATEGORIES, CATEGORIES, CATEGORY
from .schema import CompiledSchema

SECOND_TURN_CATEGORIES = frozenset(c.id for c in CATEGORY.values() if c.second_turn)
NOT_OFFERED = {"error": "tool not available in this test"}
BASE = "base"            # the phrasing id of a case's own prompt (reserved: no phrasing may take it)
PHRASING_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")     # the suite schema's pattern, fullmatch
ENGLISH = "en"           # the language of a case or phrasing that names none (never written)
LANGS = ("pt", "es")     # the languages a suite may name: European Portuguese, Spain's Spanish


@dataclass(frozen=True, slots=True)
class Tool:
    """A catalogue entry: `name`, description and parameters are what the model sees; `id` is
    what cases reference (the name unless the file gives one); `label` is how reports show it:
    the name, and the id too where another entry shares the name."""
    name: str
    domain: str
    description: str
    parameters: dict
    schema: CompiledSchema = field(compare=False, repr=False)
    id: str = ""
    label: str = ""


@dataclass(frozen=True, slots=True)
class ExpectedCall:
    tool: str
    args: dict
    critical: frozenset
    accept: dict
    derive: dict
    names: tuple = ()        # every value-checked field, in order (args, then derived)
    optional: frozenset = frozenset()   # fields (or dotted keys) that may be omitted (v2)
    absent: frozenset = frozenset()     # fields that must be omitted (v2)
    exact: bool = False                 # an argument the case does not list fails (v2)
    loose: frozenset = frozenset()      # string fields compared without punctuation or spaces (v2)
    text: dict = field(default_factory=dict)   # field (or dotted key) -> PhraseRules on its text (v2)
    unordered: frozenset = frozenset()  # list fields whose items may come in any order (v2)

    def fields(self) -> tuple:
        """Every value-checked field, in a fixed order."""
        return self.names

    def expected_values(self, mocks: dict | None) -> dict:
        """The args with derived fields read from the mock results."""
        if not self.derive:
            return self.args
        values = dict(self.args)
        for name, where in self.derive.items():
            values[name] = resolve_result(mocks or {}, where)
        return values


@dataclass(frozen=True, slots=True)
class Concept:
    """{"concept": name} in a rule: any phrase of the suite's concept, every language's
    phrases together (the loader resolves them; `phrases` is None for an unknown name)."""
    name: str
    phrases: tuple | None


@dataclass(frozen=True, slots=True)
class Negated:
    """{"not": item} in a rule: the item must be denied ("hasn't shipped")."""
    item: Any


DETAIL_NAMES = ("date", "time", "duration", "amount", "recipient", "items", "account", "place", "quantity",
                "reason", "name")


@dataclass(frozen=True, slots=True)
class PhraseRules:
    """The rules a text must follow (a final answer, or a free-text argument). An item is a
    phrase (str, a trailing * a word prefix), a tuple of items (any one), a Concept, a Negated
    item, or a value: {"result": "tool.path"}, {"number": n}, {"time": "HH:MM"},
    {"date": "YYYY-MM-DD"}. `claims_done`, `declines` and `grounded` are None when the suite does not say
    (the grader then applies its defaults). docs/grading.md "Final answers" says what each reads."""
    must_include: tuple = ()
    must_not_include: tuple = ()
    asks_for: tuple = ()             # detail names (DETAIL_NAMES)
    claims_done: bool | None = None
    declines: bool | None = None
    warns_if_mentions: tuple = ()
    grounded: bool | None = None     # dates, times, amounts and ids stated must come from the sources


@dataclass(frozen=True, slots=True)
class Expect:
    action: str              # "call" | "no_call" | "ask"
    calls: tuple
    alternatives: tuple
    forbidden: tuple         # of (tool, args-or-None)
    final_text: PhraseRules | None
    order: str = "sequence"  # "any": expected calls matched one-to-one in any order (v2)


@dataclass(frozen=True, slots=True)
class Variant:
    id: str
    mock_results: dict
    final_text: PhraseRules | None


@dataclass(frozen=True, slots=True)
class Phrasing:
    """Another way a user could say the case's prompt, with the same expected outcome."""
    id: str
    prompt: str
    why: str
    lang: str = ENGLISH      # the prompt's language: "en", "pt" or "es"


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    category: str
    title: str
    why: str
    tools: tuple
    system: str | None
    prompt: str
    expect: Expect
    mock_results: dict | None
    variants: tuple
    no_pad: tuple = ()       # catalogue tools a tool-count sweep must never pad this case with
    phrasings: tuple = ()    # Phrasing, each another first user message (the prompt is "base")
    lang: str = ENGLISH      # the prompt's language ("en", "pt", "es"); tools and schemas stay English

    @property
    def phrasing_ids(self) -> tuple:
        """"base" then every phrasing's id, in suite order."""
        return (BASE,) + tuple(p.id for p in self.phrasings)

    @property
    def turns(self) -> int:
        """Turns of the conversation: 2 when the case returns a mock tool result, else 1."""
        return 2 if self.mock_results is not None else 1

    @property
    def requests(self) -> int:
        """Requests a full run of this case needs at most: its turns, plus one second turn per
        counterfactual variant (the variant reuses the first turn's answer)."""
        return self.turns + (len(self.variants) if self.mock_results is not None else 0)


def tool_label(tool_id: str, tools: dict) -> str:
    """How a report shows a catalogue entry: its label, or the id as given for a tool the
    catalogue does not hold (a hallucinated one keeps the name the model sent)."""
    tool = tools.get(tool_id) if isinstance(tool_id, str) else None
    return tool.label if tool is not None and tool.label else tool_id


def offer_of(case_tools, tools: dict) -> dict[str, str]:
    """A case's offer as {id: name}: what a reply's tool names are read against."""
    return {i: tools[i].name for i in case_tools if i in tools}


def scoped(cases: list[Case], scope: str) -> list[Case]:
    """The cases a run scope covers ("all" or one case category), in suite order (`scenarios`
    is a scope of world files: never of cases)."""
    if scope != "all" and scope not in CASE_CATEGORIES:
        raise ValueError(f"unknown scope {scope!r}; use all or one of {', '.join(CASE_CATEGORIES)}")
    return [c for c in cases if scope in ("all", c.category)]


def phrased(case: Case, phrasing: str) -> Case:
    """The case as sent in one phrasing: its prompt (the first user message) and its language
    replaced, all else (tools, system prompt, expectations, mock results) the same. KeyError for
    an unknown id."""
    if phrasing == BASE:
        return case
    for p in case.phrasings:
        if p.id == phrasing:
            return replace(case, prompt=p.prompt, lang=p.lang)
    raise KeyError(f"case {case.id!r} has no phrasing {phrasing!r}")


def conversation_langs(pairs) -> dict:
    """{(case id, phrasing id): language} for each (Case, phrasing ids) in `pairs`: the language of
    a conversation is the prompt it was sent in, a phrasing's own `lang`, the base prompt's the
    case's (`phrased` carries it). The one definition the robustness section's `per_language` and
    `language_gap` read (scoring/robustness.py). KeyError for an unknown phrasing id."""
    return {(case.id, p): phrased(case, p).lang for case, ids in pairs for p in ids}


def chosen_phrasings(case: Case, choice: str | int) -> tuple:
    """The phrasing ids a run sends for a case: "base" (the prompt only), "all", or a number N:
    base plus the case's first N-1 phrasings (fewer when the case has fewer)."""
    if choice == BASE:
        return (BASE,)
    if choice == "all":
        return case.phrasing_ids
    if isinstance(choice, int) and not isinstance(choice, bool) and choice >= 1:
        return case.phrasing_ids[:choice]
    raise ValueError(f"phrasings must be base, all or a whole number from 1, not {choice!r}")


def phrasing_choice(text: str) -> str | int:
    """`run --phrasings` and the page's #phrasings as a run takes them: "base", "all" or a whole
    number from 1 to MAX_PHRASINGS + 1 (1 is the base phrasing alone). ValueError otherwise."""
    if text in (BASE, "all"):
        return text
    if len(text) <= 3 and text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_PHRASINGS + 1:
        return int(text)
    raise ValueError(f"phrasings takes base, all or a number from 1 to {MAX_PHRASINGS + 1}")


def requests_needed(cases: list[Case], phrasings: str | int = BASE) -> int:
    """Requests a full run of these cases needs at most (no retries): the cap's maximum. Each
    chosen phrasing of a case is a conversation of its own."""
    return sum(c.requests * len(chosen_phrasings(c, phrasings)) for c in cases)


def resolve_result(mocks: dict, where: str) -> Any:
    """'lookup_order.order.items.0.sku' -> the value at that place in the mock results. A tool
    name may hold dots itself ('git.log.0.sha'): the longest one with a mock result is read."""
    tool = next((t for t in sorted(mocks, key=len, reverse=True)
                 if isinstance(t, str) and (where == t or where.startswith(t + "."))), None)
    if tool is None:
        raise KeyError(f"no mock result for tool {where.partition('.')[0]!r}")
    path = where[len(tool) + 1:]
    value = mocks[tool]
    for part in path.split(".") if path else []:
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            raise KeyError(f"{where!r} does not resolve (stopped at {part!r})")
    return value


def value_at(values: dict, key: str) -> tuple[bool, Any]:
    """(found, value) of a field or a dotted key inside object arguments ('address.city')."""
    if key in values:
        return True, values[key]
    value: Any = values
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return False, None
        value = value[part]
    return True, value
