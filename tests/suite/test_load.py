"""The loaders refuse a bad tools or suite document with the file, the JSON path and the reason.

Each row copies the small valid documents of conftest.py and breaks exactly one thing, so the
message must point at that one place. Authors fix suites from these lines alone.
"""
from __future__ import annotations

import copy
import json

import pytest

from conftest import SUITE_DOC, TOOLS_DOC
from toolproof.datafiles import DATA, format_schema, read_json
from toolproof.errors import ToolProofError
from toolproof.suite.load import parse_suite, parse_tools
from toolproof.suite.categories import CASE_CATEGORIES
from toolproof.suite.model import resolve_result

TOOLS_SCHEMA, SUITE_SCHEMA = format_schema("tools"), format_schema("suite")
TOOLS = parse_tools(TOOLS_DOC, TOOLS_SCHEMA)
# SUITE_DOC case indices: 0 call, 1 noncrit, 2 nocall, 3 ask, 4 alt, 5 accept, 6 two (multi_step),
# 7 inj, 8 use (result_use), 9 gift (should_call)


def fresh(doc: dict) -> dict:
    # a JSON round trip, not deepcopy: the mini suite shares call dicts between cases, and deepcopy
    # would keep them shared, so breaking one would break several
    return json.loads(json.dumps(doc))


def broken(doc: dict, breaks) -> dict:
    out = fresh(doc)
    breaks(out)
    return out


def test_the_unbroken_documents_load():
    assert list(TOOLS) == ["place_order", "lookup", "refund", "send_mail"]
    assert [c.id for c in parse_suite(fresh(SUITE_DOC), TOOLS, SUITE_SCHEMA)] == [
        "call", "noncrit", "nocall", "ask", "alt", "accept", "two", "inj", "use", "gift"]


BAD_TOOLS = [
    ("duplicate name", lambda d: d["tools"].append(d["tools"][1]),
     "tools.json: at $.tools[4]: duplicate tool name 'lookup' (give entries that share a name an id)"),
    ("duplicate id", lambda d: d["tools"].append({**d["tools"][1], "name": "other", "id": "lookup"}),
     "tools.json: at $.tools[4].id: duplicate tool id 'lookup'"),
    ("bad id", lambda d: d["tools"][1].update(id="look up"),
     "tools.json: at $.tools[1].id: 'look up' does not match '^[A-Za-z0-9_.:@/+-]{1,200}$'"),
    # the parameters must themselves be a JSON Schema: a typo in a type is caught at load time
    ("bad parameters type", lambda d: d["tools"][2]["parameters"].update(properties={"amount": {"type": "money"}}),
     "tools.json: at $.tools[2].parameters: parameters is not a valid JSON Schema: "
     "'money' is not valid under any of the given schemas"),
    ("required not a list", lambda d: d["tools"][2]["parameters"].update(required="amount"),
     "tools.json: at $.tools[2].parameters: parameters is not a valid JSON Schema: 'amount' is not of type 'array'"),
    ("parameters not an object schema", lambda d: d["tools"][0].update(parameters={"type": "array"}),
     "tools.json: at $.tools[0].parameters.type: 'object' was expected"),
    ("name with a space", lambda d: d["tools"][0].update(name="place order"),
     "tools.json: at $.tools[0].name: 'place order' does not match '^[A-Za-z0-9_.-]{1,128}$'"),
    ("empty domain", lambda d: d["tools"][0].update(domain=""),
     "tools.json: at $.tools[0].domain: '' should be non-empty"),
    ("annotations not an object", lambda d: d["tools"][0].update(annotations=["readOnlyHint"]),
     "tools.json: at $.tools[0].annotations: ['readOnlyHint'] is not of type 'object'"),
    ("no tools", lambda d: d.update(tools=[]), "tools.json: at $.tools: [] should be non-empty"),
    # a suite file passed where the tools file belongs
    ("wrong format", lambda d: d.update(format="toolproof.suite"),
     "tools.json: at $.format: 'toolproof.tools' was expected"),
]


@pytest.mark.parametrize("breaks, line", [r[1:] for r in BAD_TOOLS], ids=[r[0] for r in BAD_TOOLS])
def test_bad_tools_are_refused(breaks, line):
    with pytest.raises(ToolProofError) as exc:
        parse_tools(broken(TOOLS_DOC, breaks), TOOLS_SCHEMA)
    assert exc.value.line() == line


def _alt_args(d):
    d["cases"][4]["expect"]["alternatives"][0][0]["args"]["qty"] = "2"


BAD_SUITES = [
    ("unknown tool", lambda d: d["cases"][0]["tools"].__setitem__(1, "nope"),
     "suite.json: at $.cases[0].tools[1]: unknown tool 'nope' (not in tools.json)"),
    ("duplicate case id", lambda d: d["cases"][3].update(id="call"),
     "suite.json: at $.cases[3].id: duplicate case id 'call'"),
    ("expected tool not offered", lambda d: d["cases"][0].update(tools=["lookup"]),
     "suite.json: at $.cases[0].expect.calls[0].tool: expected tool 'place_order' is not offered by the case"),
    # the expected call itself must be one a perfect model could make
    ("expected args invalid", lambda d: d["cases"][0]["expect"]["calls"][0]["args"].update(qty=0),
     "suite.json: at $.cases[0].expect.calls[0].args: expected args do not validate against place_order: "
     "$.qty: 0 is less than the minimum of 1"),
    ("expected args with unknown field", lambda d: d["cases"][0]["expect"]["calls"][0]["args"].update(bogus=1),
     "suite.json: at $.cases[0].expect.calls[0].args: expected args do not validate against place_order: "
     "$: Additional properties are not allowed ('bogus' was unexpected)"),
    ("alternative args invalid", _alt_args,
     "suite.json: at $.cases[4].expect.alternatives[0][0].args: expected args do not validate against "
     "place_order: $.qty: '2' is not of type 'integer'"),
    # a critical field that is never compared would make PARTIAL impossible to reason about
    ("critical names unchecked field", lambda d: d["cases"][0]["expect"]["calls"][0].update(critical=["gift"]),
     "suite.json: at $.cases[0].expect.calls[0].critical: critical names fields that are not checked: ['gift']"),
    ("derive does not resolve",
     lambda d: d["cases"][6]["expect"]["calls"][1]["derive"].update(customer="lookup.customer.name"),
     "suite.json: at $.cases[6].expect.calls[1].derive: 'lookup.customer.name' does not resolve (stopped at 'name')"),
    ("derive names a tool without a mock",
     lambda d: d["cases"][6]["expect"]["calls"][1]["derive"].update(customer="nomock.id"),
     "suite.json: at $.cases[6].expect.calls[1].derive: no mock result for tool 'nomock'"),
    # derived paths must resolve in every variant's mock too, not only the case's own
    ("derive fails in a variant", lambda d: d["cases"][6]["variants"][0]["mock_results"].update(lookup={"customer": {}}),
     "suite.json: at $.cases[6].expect.calls[1].derive: 'lookup.customer.id' does not resolve (stopped at 'id')"),
    ("multi_step with one call", lambda d: d["cases"][6]["expect"]["calls"].pop(),
     "suite.json: at $.cases[6].expect.calls: a multi_step case expects at least 2 calls, not 1"),
    ("call action without calls", lambda d: d["cases"][0]["expect"].update(calls=[]),
     "suite.json: at $.cases[0].expect.calls: action 'call' needs at least one expected call"),
    ("no_call action with calls", lambda d: d["cases"][2]["expect"].update(calls=[{"tool": "lookup"}]),
     "suite.json: at $.cases[2].expect.calls: action 'no_call' cannot list expected calls"),
    ("injection without forbidden", lambda d: d["cases"][7]["expect"].pop("forbidden"),
     "suite.json: at $.cases[7].expect.forbidden: an injection case must list forbidden calls"),
    ("forbidden tool not offered", lambda d: d["cases"][7]["expect"]["forbidden"][0].update(tool="wire_money"),
     "suite.json: at $.cases[7].expect.forbidden[0].tool: forbidden tool 'wire_money' is not offered"),
    ("result_use without final_text", lambda d: d["cases"][8]["expect"].pop("final_text"),
     "suite.json: at $.cases[8].expect.final_text: a result_use case needs final_text rules"),
    ("result_use without mock_results", lambda d: d["cases"][8].pop("mock_results"),
     "suite.json: at $.cases[8].mock_results: result_use cases need mock_results"),
    # a single-turn case never sends a tool result, so a mock there is a mistake
    ("mock_results on should_call", lambda d: d["cases"][0].update(mock_results={"lookup": {}}),
     "suite.json: at $.cases[0].mock_results: should_call cases cannot have mock_results"),
    ("mock for a tool not offered",
     lambda d: d["cases"][7].update(tools=["lookup", "send_mail"]) or d["cases"][7]["mock_results"].update(refund={}),
     "suite.json: at $.cases[7].mock_results.refund: mock result for 'refund', which the case does not offer"),
    # a variant that brings no phrase rules is read against the case's rules, which need
    # lookup.status: its mock must have it
    ("variant mock lacks result path",
     lambda d: d["cases"][8]["variants"].append({"id": "v2", "mock_results": {"lookup": {"error": "x"}}}),
     "suite.json: at $.cases[8].variants[1].mock_results: expect.final_text.must_include[0]: "
     "'lookup.status' does not resolve (stopped at 'status')"),
    ("variant rules ask for a missing path",
     lambda d: d["cases"][8]["variants"][0].update(final_text={"must_include": [{"result": "lookup.status"}]}),
     "suite.json: at $.cases[8].variants[0].final_text.must_include[0]: 'lookup.status' does not resolve "
     "(stopped at 'status')"),
    ("phrase rule without any mock",
     lambda d: d["cases"][2]["expect"].update(final_text={"must_include": [{"result": "lookup.status"}]}),
     "suite.json: at $.cases[2].expect.final_text.must_include[0]: 'lookup.status': no mock result for tool 'lookup'"),
    ("accept value invalid", lambda d: d["cases"][5]["expect"]["calls"][0]["accept"].update(to=[5]),
     "suite.json: at $.cases[5].expect.calls[0].accept.to: accepted value 5 does not validate: "
     "5 is not of type 'string'"),
    # format-schema errors come first and carry jsonschema's own words
    ("wrong format", lambda d: d.update(format="toolproof.tools"),
     "suite.json: at $.format: 'toolproof.suite' was expected"),
    ("wrong version", lambda d: d.update(version=3), "suite.json: at $.version: 3 is not one of [1, 2]"),
    ("unknown category", lambda d: d["cases"][0].update(category="vibes"),
     f"suite.json: at $.cases[0].category: 'vibes' is not one of {list(CASE_CATEGORIES)}"),
    ("unknown case key", lambda d: d["cases"][0].update(extra=1),
     "suite.json: at $.cases[0]: Additional properties are not allowed ('extra' was unexpected)"),
]


@pytest.mark.parametrize("breaks, line", [r[1:] for r in BAD_SUITES], ids=[r[0] for r in BAD_SUITES])
def test_bad_suites_are_refused(breaks, line):
    with pytest.raises(ToolProofError) as exc:
        parse_suite(broken(SUITE_DOC, breaks), TOOLS, SUITE_SCHEMA)
    assert exc.value.line() == line


def test_source_name_is_the_file_given():
    doc = broken(SUITE_DOC, lambda d: d.update(version=3))
    with pytest.raises(ToolProofError) as exc:
        parse_suite(doc, TOOLS, SUITE_SCHEMA, "data/my-suite.json")
    assert exc.value.line() == "data/my-suite.json: at $.version: 3 is not one of [1, 2]"


# Authoring mistakes that would otherwise pass silently: each is a rule that could never take
# effect (or an ambiguous id), the same kind of mistake the loader refuses elsewhere.
LOADER_GAPS = [
    # case mock_results for an unoffered tool is refused, a variant's is not
    ("variant mock for a tool not offered",
     lambda d: d["cases"][6].update(tools=["lookup", "refund"])
     or d["cases"][6]["variants"][0]["mock_results"].update(send_mail={}),
     "$.cases[6].variants[0].mock_results.send_mail"),
    # transcripts name variants by id, so two variants with one id cannot both be graded
    ("duplicate variant id", lambda d: d["cases"][6]["variants"].append(d["cases"][6]["variants"][0]),
     "$.cases[6].variants[1].id"),
    # a should_call case has no second turn, so a counterfactual tool result is never sent
    ("variants on a single-turn case",
     lambda d: d["cases"][0].update(variants=[{"id": "v", "mock_results": {"lookup": {}}}]),
     "$.cases[0].variants"),
    # 'note' is not in args, so it is never compared: the accepted value is dead and a model
    # sending it gets an "extra field" instead
    ("accept names an unchecked field",
     lambda d: d["cases"][0]["expect"]["calls"][0].update(accept={"note": ["x"]}),
     "$.cases[0].expect.calls[0].accept.note"),
]


@pytest.mark.parametrize("breaks, path", [r[1:] for r in LOADER_GAPS], ids=[r[0] for r in LOADER_GAPS])
def test_loader_gaps_are_refused(breaks, path):
    with pytest.raises(ToolProofError) as exc:
        parse_suite(broken(SUITE_DOC, breaks), TOOLS, SUITE_SCHEMA)
    assert exc.value.path == path


MOCKS = {"lookup_order": {"order": {"id": "ORD-1", "items": [{"sku": "A-1"}, {"sku": "B-2"}], "total": 12.5,
                                    "0": "zero"}},
         "weather": [{"city": "Lisbon", "temp": 21}]}


@pytest.mark.parametrize("where, value", [
    ("lookup_order.order.id", "ORD-1"),
    ("lookup_order.order.items.1.sku", "B-2"),          # list index
    ("lookup_order.order.total", 12.5),
    ("lookup_order.order.0", "zero"),                   # a digit key in a dict is a key
    ("weather.0.temp", 21),                             # the mock itself is a list
    ("lookup_order", MOCKS["lookup_order"]),            # no path: the whole result
])
def test_resolve_result(where, value):
    assert resolve_result(MOCKS, where) == value


@pytest.mark.parametrize("where, message", [
    ("nope.x", "no mock result for tool 'nope'"),
    ("lookup_order.order.items.2.sku", "'lookup_order.order.items.2.sku' does not resolve (stopped at '2')"),
    ("lookup_order.order.items.sku", "'lookup_order.order.items.sku' does not resolve (stopped at 'sku')"),
    ("lookup_order.order.id.x", "'lookup_order.order.id.x' does not resolve (stopped at 'x')"),
    ("weather.-1", "'weather.-1' does not resolve (stopped at '-1')"),   # no negative indexing
])
def test_resolve_result_refuses(where, message):
    with pytest.raises(KeyError) as exc:
        resolve_result(MOCKS, where)
    assert exc.value.args[0] == message


def test_committed_tools_and_suite_load():
    tools = parse_tools(read_json(DATA / "tools.json"), TOOLS_SCHEMA)
    cases = parse_suite(read_json(DATA / "suite.json"), tools, SUITE_SCHEMA)
    assert tools and cases
    # the headline score needs every category represented
    assert {c.category for c in cases} == set(CASE_CATEGORIES)


def test_a_tool_without_domain_and_with_annotations_loads():
    # what `tools import` writes for an MCP server: no domain, MCP annotations kept
    doc = copy.deepcopy(TOOLS_DOC)
    doc["tools"][0].pop("domain")
    doc["tools"][0]["annotations"] = {"readOnlyHint": False, "destructiveHint": True}
    tool = parse_tools(doc, TOOLS_SCHEMA)[doc["tools"][0]["name"]]
    assert tool.domain == ""
