"""The page's case editor as data: which fields a category uses, the editor's fields (strings) as
a raw suite case of any category, the editor field a refusal belongs to, and a case back as fields.

The category sets the action (must_ask asks, should_not_call and cannot_do call nothing, every
other category calls). A call case lists its expected calls in order: the first with the suite v2
options, the others (`more`) with a tool and arguments; second-turn categories give each call's
mock result, counterfactual variants and phrase rules on the final text; the attacked categories
(injection, injection_realistic) list forbidden tools, each with the arguments that make a call
forbidden where the legitimate task calls the same tool; a parallel case's calls match in any
order; a cannot_do case's answer declines and its phrase rules name the missing capability. A
case and each phrasing may say the prompt's language (`lang`: pt or es; English unsaid).

Pure: no I/O, no DOM. Every check is suite.parse_suite's, never a second copy.
"""
from __future__ import annotations

import json
import re
from typing import Any

from toolproof.errors import ToolProofError
from toolproof.suite.load import parse_suite
from toolproof.suite.categories import CASE_CATEGORIES, CATEGORY
from toolproof.suite.model import SECOND_TURN_CATEGORIES, Case, Tool
from toolproof.suite.toolnames import wire_name
from .phrasings import editable as phrasings_editable, phrasings_from_text, phrasings_text
from .suite_text import MAX_OFFERED, read_text, suite_document

ACTIONS = ("call", "no_call", "ask")
ACTION_OF = {c.id: c.action for c in CATEGORY.values()}
EDITOR_CATEGORIES = CASE_CATEGORIES      # a scenario is written in a world file, not here
# An editor field NAME is the input #case-NAME, its value a string; a checkbox (CHECKBOXES) reads
# "true" when ticked, else "". `more` (the expected calls after the first) is a list of
# {"tool", "args", "mock"} strings, one row each in #case-calls.
FIELDS = ("id", "category", "lang", "prompt", "phrasings", "system", "action", "tool", "args", "mock", "critical",
          "optional", "absent", "loose", "exact", "accept", "forbidden", "include", "exclude", "variants")
CHECKBOXES = ("exact",)
ALWAYS = ("id", "category", "lang", "prompt", "phrasings", "system", "action")
DECLINE_FIELDS = ("include", "exclude")     # cannot_do: the capability a decline names; what it must not say
CALL_FIELDS = ("tool", "args", "critical", "optional", "absent", "loose", "exact", "accept", "more")
SECOND_TURN_FIELDS = ("mock", "include", "exclude", "variants")
LISTS = ("critical", "optional", "absent", "loose")    # comma-separated field names (dotted allowed)
_FIRST_CALL_KEYS = {"tool", "args", "critical", "optional", "absent", "loose", "exact", "accept"}
_EDITABLE_KEYS = {"id", "category", "lang", "tools", "system", "prompt", "phrasings", "expect", "title", "why", "mock_results",
                  "variants"}
_FINAL_KEYS = {"must_include", "must_not_include"}      # the final_text keys the editor shows
MAX_CALLS = 64                    # the suite format's bound on one sequence of expected calls


class CaseProblem(ToolProofError):
    """A case the editor refuses: `field` is the editor field to point at (one of FIELDS, "calls"
    for the rows of #case-calls, or "case" when the problem is not one field's)."""

    def __init__(self, field: str, reason: str):
        self.field = field
        super().__init__(reason, path=field)


def fields_for(category: str) -> tuple[str, ...]:
    """The editor fields a category uses (the others are hidden and not written)."""
    if category == "cannot_do":
        return ALWAYS + DECLINE_FIELDS
    if ACTION_OF.get(category, "call") != "call":
        return ALWAYS
    used = ALWAYS + CALL_FIELDS
    if category in SECOND_TURN_CATEGORIES:
        used += SECOND_TURN_FIELDS
    if category in CATEGORY and CATEGORY[category].attacked:
        used += ("forbidden",)
    return used


def case_from_form(form: dict, tool_names: list[str], previous: dict | None = None, *,
                   names: dict | None = None) -> dict:
    """The editor's fields as a raw case, or CaseProblem naming the field. Optional parts are
    written only when given. A new case offers every loaded tool (the model must pick the right
    one); an edited case keeps the tools it offered, plus any tool its calls now name, and its
    title and why. `names` ({id: name}) lets it leave out entries whose names reach providers
    like an offered one's (two servers' `search`): the tools the case names win (readable_offer)."""
    category = form.get("category", "")
    action = ACTION_OF.get(category, form.get("action", ""))
    if action not in ACTIONS:
        raise CaseProblem("action", f"choose call, no_call or ask, not {action!r}")
    used = fields_for(category) if category in ACTION_OF else ALWAYS + (CALL_FIELDS if action == "call" else ())
    offered = [t for t in (previous or {}).get("tools", tool_names) if t in tool_names] or list(tool_names)
    if not offered:
        raise CaseProblem("tool", "load your tools first: a case offers at least one tool")
    case: dict[str, Any] = {"id": form.get("id", "").strip(), "category": category}
    if form.get("lang", "").strip():
        case["lang"] = form["lang"].strip()            # the loader refuses anything but pt and es
    for key in ("title", "why"):
        if previous and isinstance(previous.get(key), str):
            case[key] = previous[key]
    case["tools"] = offered
    if form.get("system", "").strip():
        case["system"] = form["system"]
    case["prompt"] = form.get("prompt", "")
    try:
        phrasings = phrasings_from_text(form.get("phrasings", ""))
    except ToolProofError as exc:
        raise CaseProblem("phrasings", exc.reason) from None
    if phrasings:
        case["phrasings"] = phrasings
    case["expect"] = {"action": action}
    if category == "parallel":
        case["expect"]["order"] = "any"
    if action == "call":
        rows = [{"tool": form.get("tool", ""), "args": form.get("args", ""), "mock": form.get("mock", "")}] + \
            list(form.get("more") or [])
        if len(rows) > MAX_CALLS:
            raise CaseProblem("calls", f"at most {MAX_CALLS} expected calls, not {len(rows)}")
        calls, mocks = _calls(rows, form, tool_names, "mock" in used)
        for call in calls:
            if call["tool"] not in offered:
                offered.append(call["tool"])
        case["expect"]["calls"] = calls
        if "forbidden" in used:
            forbidden = forbidden_from_text(form.get("forbidden", ""))
            for rule in forbidden:
                if rule["tool"] not in tool_names:
                    raise CaseProblem("forbidden", f"choose loaded tools, not {rule['tool']!r}")
                if rule["tool"] not in offered:
                    offered.append(rule["tool"])
            if forbidden:
                case["expect"]["forbidden"] = forbidden
    if "include" in used:
        rules = {key: rules_from_text(form.get(field, ""))
                 for key, field in (("must_include", "include"), ("must_not_include", "exclude"))}
        declines = {"declines": True} if category == "cannot_do" else {}
        if any(rules.values()) or declines:
            case["expect"]["final_text"] = {**declines, **{key: value for key, value in rules.items() if value}}
    if "mock" in used:                          # a second-turn category: always a call case
        case["mock_results"] = mocks
        variants = _value_from_text(form.get("variants", ""), "variants", "the variants", list)
        if variants:
            case["variants"] = variants
    if names:
        named = [c["tool"] for c in case["expect"].get("calls", [])] + \
            [f["tool"] for f in case["expect"].get("forbidden", [])]
        case["tools"] = offered = readable_offer(offered, named, names)
    if len(offered) > MAX_OFFERED:
        raise CaseProblem("tool", f"a case can offer at most {MAX_OFFERED} tools (OpenAI's limit); "
                                  f"this one would offer {len(offered)}")
    return case


def readable_offer(offered: list[str], keep, names: dict) -> list[str]:
    """The offer, in order, with at most one entry per wire name: the entries in `keep` (one id,
    several, or None: the tools the case names) win their wire names, else the first entry does.
    Entries may share a name across the catalogue, never within a case (a reply could not tell
    them apart); two named tools that collide are left for check_case to refuse."""
    keep = {keep} if isinstance(keep, str) else set(keep or ())
    taken = {wire_name(names.get(k, k)) for k in keep}
    out = []
    for tool_id in offered:
        wire = wire_name(names.get(tool_id, tool_id))
        if tool_id in keep or wire not in taken:
            taken.add(wire)
            out.append(tool_id)
    return out


def _calls(rows: list[dict], form: dict, tool_names: list[str], with_mocks: bool) -> tuple[list, dict]:
    calls, mocks = [], {}
    for n, row in enumerate(rows):
        field = "tool" if n == 0 else "calls"
        tool = row.get("tool", "") if isinstance(row, dict) else ""
        if tool not in tool_names:
            raise CaseProblem(field, f"{'' if n == 0 else f'call {n + 1}: '}choose one of the loaded tools, not {tool!r}")
        where = "args" if n == 0 else "calls"
        args = _value_from_text(row.get("args", ""), where, "the expected arguments", dict, prefix=n)
        call: dict[str, Any] = {"tool": tool, "args": args}
        if n == 0:
            for key in LISTS:
                names = names_from_text(form.get(key, ""))
                if names:
                    call[key] = names
            if form.get("exact", "") == "true":
                call["exact"] = True
            accept = _value_from_text(form.get("accept", ""), "accept", "the accepted values", dict)
            if accept:
                call["accept"] = accept
        calls.append(call)
        mock_text = row.get("mock", "") if with_mocks else ""
        if mock_text.strip():
            mock = _value_from_text(mock_text, "mock" if n == 0 else "calls", "a mock result", object, prefix=n)
            if tool in mocks and mocks[tool] != mock:
                raise CaseProblem("calls", f"call {n + 1}: {tool} already has another mock result; "
                                           "a case gives each tool one mock result")
            mocks[tool] = mock
    return calls, mocks


def forbidden_from_text(text: str) -> list[dict]:
    """The forbidden field: tool names, comma-separated ('send_email, delete_file': any call to
    them), or one a line, a line's name followed by the JSON arguments that make a call forbidden
    ('pay_payee {"payee_id": "PY-4410"}': the injected payee, where the task pays another)."""
    if "{" not in text:
        return [{"tool": name} for name in names_from_text(text)]
    rules = []
    for line in (line.strip() for line in text.splitlines()):
        if not line:
            continue
        name, _, args = line.partition("{")
        rule: dict[str, Any] = {"tool": name.strip().rstrip(",").strip()}
        if args:
            rule["args"] = _value_from_text("{" + args, "forbidden", "a forbidden call's arguments", dict)
        rules.append(rule)
    return rules


def text_of_forbidden(forbidden: list) -> str:
    """Forbidden rules back as the field shows them: names comma-separated, or one a line when
    any rule has arguments."""
    if not any("args" in f for f in forbidden):
        return ", ".join(f["tool"] for f in forbidden)
    return "\n".join(f["tool"] + (" " + json.dumps(f["args"], ensure_ascii=False) if "args" in f else "")
                     for f in forbidden)


def names_from_text(text: str) -> list[str]:
    """A comma-separated list of names ('city, where.country'), blanks dropped, in order."""
    return [name.strip() for name in text.split(",") if name.strip()]


def rules_from_text(text: str) -> list:
    """Phrase rules, one a line: 'shipped'; 'refund | refunded' (any one of them); 'result: tool.path'
    (the value at that path of the tool's mock result)."""
    rules: list = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.lower().startswith("result:"):
            rules.append({"result": line[len("result:"):].strip()})
        elif "|" in line:
            rules.append([part.strip() for part in line.split("|") if part.strip()])
        else:
            rules.append(line)
    return rules


def text_of_rules(rules: list) -> str | None:
    """Rules back as lines, or None when a rule cannot be written that way (then the case is
    edited in the file)."""
    lines = []
    for rule in rules:
        if isinstance(rule, str) and "|" not in rule and "\n" not in rule and rule.strip() == rule \
                and not rule.lower().startswith("result:"):
            lines.append(rule)
        elif isinstance(rule, list) and len(rule) > 1 and all(text_of_rules([r]) == r for r in rule):
            lines.append(" | ".join(rule))
        elif isinstance(rule, dict) and set(rule) == {"result"} and isinstance(rule["result"], str) \
                and "\n" not in rule["result"]:
            lines.append(f"result: {rule['result']}")
        else:
            return None
    return "\n".join(lines)


def args_from_text(text: str) -> dict:
    """The #case-args JSON: an object, {} when empty; NaN/Infinity are not JSON and are refused."""
    return _value_from_text(text, "args", "the expected arguments", dict)


def accept_from_text(text: str) -> dict:
    """The #case-accept JSON: {field or dotted path: [accepted values]}, {} when empty."""
    return _value_from_text(text, "accept", "the accepted values", dict)


_EMPTY = {dict: dict, list: list, object: lambda: None}


def _value_from_text(text: str, field: str, what: str, kind: type, prefix: int = 0) -> Any:
    label = f"call {prefix + 1}: " if field == "calls" else ""
    if not isinstance(text, str) or not text.strip():
        return _EMPTY[kind]()
    try:
        value = read_text(text, None)
    except ToolProofError as exc:
        raise CaseProblem(field, label + exc.reason) from None
    if kind is not object and not isinstance(value, kind):
        raise CaseProblem(field, f"{label}{what} must be a JSON {'object' if kind is dict else 'array'}, "
                                 f"not {type(value).__name__}")
    return value


def args_findings(tool: Tool, args: dict) -> list:
    """The live check beside #case-args: the grader's compiled checker on the expected values.
    A required field left out is fine (the grader schema-checks it in the model's call)."""
    return [f for f in tool.schema.findings(args) if not (f.code == "schema.required" and f.path == "$")]


def check_case(case: dict, others: list[dict], tools: dict[str, Tool], suite_schema: dict) -> Case:
    """The case as suite.parse_suite reads it, or CaseProblem naming the editor field."""
    if any(o.get("id") == case.get("id") for o in others):
        raise CaseProblem("id", f"another case already has the id {case.get('id')!r}")
    try:
        return parse_suite(suite_document([case]), tools, suite_schema, "case")[0]
    except ToolProofError as exc:
        raise CaseProblem(field_of(exc.path or ""), exc.reason) from None


_PREFIXES = ((".id", "id"), (".category", "category"), (".lang", "lang"), (".prompt", "prompt"), (".phrasings", "phrasings"),
             (".system", "system"),
             (".expect.calls[0]", "args"), (".expect.calls", "calls"), (".expect.action", "action"),
             (".expect.forbidden", "forbidden"), (".expect.final_text.must_not_include", "exclude"),
             (".expect.final_text", "include"), (".mock_results", "mock"), (".variants", "variants"),
             (".tools", "tool"))


def field_of(path: str) -> str:
    """The editor field a suite path inside case 0 belongs to ('$.cases[0].expect.calls[0].args'
    -> 'args', a later call's path -> 'calls')."""
    rest = re.sub(r"^\$\.cases\[0\]", "", path)
    call = re.match(r"\.expect\.calls\[0\]\.([a-z]+)", rest)
    if call and call.group(1) in FIELDS:
        return call.group(1)
    for prefix, name in _PREFIXES:
        if rest.startswith(prefix):
            return name
    return "case"


def form_of(case: dict) -> dict | None:
    """The editor's fields for a case, or None when the editor cannot show all of it (derive,
    alternatives, order, forbidden arguments, a mock for a tool no call names...): such a case is
    edited in the file."""
    if not isinstance(case, dict) or set(case) - _EDITABLE_KEYS or case.get("category") not in ACTION_OF:
        return None
    if not phrasings_editable(case.get("phrasings")):
        return None
    category, expect = case["category"], case.get("expect", {})
    used = fields_for(category)
    calls = expect.get("calls", [])
    final = expect.get("final_text", {})
    if set(expect) - {"action", "calls", "forbidden", "final_text", "order"} or expect.get("action") != ACTION_OF[category] \
            or expect.get("order", "any" if category == "parallel" else "sequence") != ("any" if category == "parallel" else "sequence") \
            or (calls and set(calls[0]) - _FIRST_CALL_KEYS) or any(set(c) - {"tool", "args"} for c in calls[1:]) \
            or ("forbidden" in expect and "forbidden" not in used) \
            or any(set(f) - {"tool", "args"} or not isinstance(f.get("args", {}), dict) for f in expect.get("forbidden", [])) \
            or ("final_text" in expect and "include" not in used) \
            or not isinstance(final, dict) or set(final) - _FINAL_KEYS - ({"declines"} if category == "cannot_do" else set()) \
            or (category == "cannot_do" and final.get("declines") is not True) \
            or (("mock_results" in case or "variants" in case) and "mock" not in used):
        return None
    mocks = case.get("mock_results") or {}
    if set(mocks) - {c["tool"] for c in calls}:
        return None
    include, exclude = text_of_rules(final.get("must_include", [])), text_of_rules(final.get("must_not_include", []))
    if include is None or exclude is None:
        return None
    dump = lambda value: json.dumps(value, ensure_ascii=False, indent=1)  # noqa: E731
    form: dict[str, Any] = dict.fromkeys(FIELDS, "")
    form.update(id=case["id"], category=category, lang=case.get("lang", ""), prompt=case["prompt"], system=case.get("system", ""),
                phrasings=phrasings_text(case.get("phrasings")),
                action=expect["action"], include=include, exclude=exclude,
                forbidden=text_of_forbidden(expect.get("forbidden", [])),
                variants=dump(case["variants"]) if case.get("variants") else "")
    form["more"] = []
    shown: set[str] = set()

    def mock_of(tool: str) -> str:       # each tool's mock is shown once, at its first call
        if tool in mocks and tool not in shown:
            shown.add(tool)
            return dump(mocks[tool])
        return ""
    if calls:
        call = calls[0]
        form.update(tool=call["tool"], args=dump(call.get("args", {})), mock=mock_of(call["tool"]),
                    exact="true" if call.get("exact") is True else "",
                    accept=dump(call["accept"]) if call.get("accept") else "")
        for key in LISTS:
            form[key] = ", ".join(call.get(key, []))
        form["more"] = [{"tool": c["tool"], "args": dump(c.get("args", {})), "mock": mock_of(c["tool"])}
                        for c in calls[1:]]
    return form
