"""`suite import-bfcl` offers exactly BFCL's names (issue 22 item 2): one catalogue entry per
distinct definition, the same name in several entries kept apart by id, nothing renamed, nothing
skipped for a clash no case has; the live_* categories; one line per skipped entry. The files are
a small sample in BFCL's shape written by this test, never BFCL's own data."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from clirun import cli


def lines(path: Path, rows: list) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def ask(text: str) -> list:
    return [[{"role": "user", "content": text}]]


def fn(name: str, description: str, **props) -> dict:
    return {"name": name, "description": description, "parameters": {
        "type": "dict", "required": list(props), "properties": {k: {"type": t, "description": k} for k, t in props.items()}}}


GCD2 = fn("math.gcd", "GCD of two numbers.", a="integer", b="integer")
GCDL = fn("math.gcd", "GCD of a list of numbers.", numbers="array")
SOLVE_DOT = fn("solve.quadratic_equation", "Roots of ax^2+bx+c.", a="float", b="float", c="float")
SOLVE_US = fn("solve_quadratic_equation", "Solve a quadratic equation.", a="integer", b="integer", c="integer")
WEATHER = fn("get_weather", "Current weather in a city.", city="string")
STOCK = fn("get_stock_price", "Price of a stock.", ticker="string")
STOCK2 = fn("get_stock_price", "Price of a stock on an exchange.", ticker="string", exchange="string")


@pytest.fixture()
def live(tmp_path: Path) -> Path:
    """A BFCL-shaped folder of live_* entries (written here; not BFCL's data)."""
    data = tmp_path / "bfcl-live-sample"
    lines(data / "BFCL_v4_live_simple.json", [
        {"id": "live_simple_0-0-0", "question": ask("gcd of 12 and 18"), "function": [GCD2]},
        {"id": "live_simple_1-1-0", "question": ask("gcd of 4, 6 and 8"), "function": [GCDL]},
        {"id": "live_simple_2-2-0", "question": ask("solve x^2-3x+2"), "function": [SOLVE_DOT]},
        {"id": "live_simple_3-3-0", "question": ask("solve x^2-1"), "function": [SOLVE_US]}])
    lines(data / "possible_answer" / "BFCL_v4_live_simple.json", [
        {"id": "live_simple_0-0-0", "ground_truth": [{"math.gcd": {"a": [12], "b": [18]}}]},
        {"id": "live_simple_1-1-0", "ground_truth": [{"math.gcd": {"numbers": [[4, 6, 8]]}}]},
        {"id": "live_simple_2-2-0", "ground_truth": [{"solve.quadratic_equation": {"a": [1.0], "b": [-3.0], "c": [2.0]}}]},
        {"id": "live_simple_3-3-0", "ground_truth": [{"solve_quadratic_equation": {"a": [1], "b": [0], "c": [-1]}}]}])
    lines(data / "BFCL_v4_live_multiple.json", [
        {"id": "live_multiple_0-0-0", "question": ask("AAPL price?"), "function": [WEATHER, STOCK]},
        {"id": "live_multiple_1-1-0", "question": ask("AAPL on NASDAQ?"), "function": [STOCK2, GCD2]},
        {"id": "live_multiple_2-2-0", "question": ask("clash"), "function": [SOLVE_DOT, SOLVE_US]}])
    lines(data / "possible_answer" / "BFCL_v4_live_multiple.json", [
        {"id": "live_multiple_0-0-0", "ground_truth": [{"get_stock_price": {"ticker": ["AAPL"]}}]},
        {"id": "live_multiple_1-1-0", "ground_truth": [{"get_stock_price": {"ticker": ["AAPL"], "exchange": ["NASDAQ"]}}]},
        {"id": "live_multiple_2-2-0", "ground_truth": [{"solve_quadratic_equation": {"a": [1], "b": [0], "c": [-1]}}]}])
    lines(data / "BFCL_v4_live_parallel.json", [
        {"id": "live_parallel_0-0-0", "question": ask("Weather in Oslo and Rome"), "function": [WEATHER]}])
    lines(data / "possible_answer" / "BFCL_v4_live_parallel.json", [
        {"id": "live_parallel_0-0-0", "ground_truth": [{"get_weather": {"city": ["Oslo"]}}, {"get_weather": {"city": ["Rome"]}}]}])
    lines(data / "BFCL_v4_live_parallel_multiple.json", [
        {"id": "live_parallel_multiple_0-0-0", "question": ask("Weather in Oslo and AAPL"), "function": [WEATHER, STOCK]}])
    lines(data / "possible_answer" / "BFCL_v4_live_parallel_multiple.json", [
        {"id": "live_parallel_multiple_0-0-0", "ground_truth": [{"get_weather": {"city": ["Oslo"]}},
                                                                {"get_stock_price": {"ticker": ["AAPL"]}}]}])
    lines(data / "BFCL_v4_live_irrelevance.json", [
        {"id": "live_irrelevance_0-0-0", "question": ask("Tell me a joke"), "function": [WEATHER]},
        {"id": "live_irrelevance_1-1-0", "question": ask("Hello"), "function": []}])
    lines(data / "BFCL_v4_live_relevance.json", [
        {"id": "live_relevance_0-0-0", "question": ask("Something about stocks and weather"), "function": [STOCK2, WEATHER]}])
    return data


ALL = "live_simple,live_multiple,live_parallel,live_parallel_multiple,live_irrelevance,live_relevance"


def imported(data: Path, tmp_path: Path, categories: str = ALL) -> tuple[dict, dict, str]:
    out = tmp_path / "out"
    code, _, err = cli("suite", "import-bfcl", str(data), "--category", categories, "--out", str(out))
    assert code == 0, err
    return json.loads((out / "suite.json").read_text()), json.loads((out / "tools.json").read_text()), err


def test_every_case_offers_exactly_bfcls_names_descriptions_and_schemas(live, tmp_path):
    suite, tools, err = imported(live, tmp_path)
    entries = {e["id"]: e for name in live.glob("BFCL_v4_*.json")
               for e in map(json.loads, name.read_text().splitlines())}
    catalogue = {t.get("id", t["name"]): t for t in tools["tools"]}
    for case in suite["cases"]:
        offered = [catalogue[i] for i in case["tools"]]
        assert [(t["name"], t["description"]) for t in offered] == [
            (f["name"], f["description"]) for f in entries[case["id"]]["function"]], case["id"]
    # the same name defined twice: two entries, both named as BFCL names them, apart by id
    assert [(t.get("id"), t["name"]) for t in tools["tools"] if t["name"] in ("math.gcd", "get_stock_price")] == [
        (None, "math.gcd"), ("math.gcd@live_simple_1-1-0", "math.gcd"),
        (None, "get_stock_price"), ("get_stock_price@live_multiple_1-1-0", "get_stock_price")]
    # a dotted name and its underscored twin in different entries: both imported, none renamed
    ids = [c["id"] for c in suite["cases"]]
    assert "live_simple_2-2-0" in ids and "live_simple_3-3-0" in ids
    assert not any(t["name"].endswith(("_2", "_3")) for t in tools["tools"])
    assert ("skipped live_multiple_2-2-0: offers 'solve.quadratic_equation' and 'solve_quadratic_equation', which "
            "both reach providers as 'solve_quadratic_equation': a reply could not tell them apart") in err
    assert "skipped live_irrelevance_1-1-0: 'function' must be a non-empty list" in err
    assert sum(line.startswith("toolproof: skipped ") for line in err.splitlines()) == 2
    code, out, _ = cli("suite", "validate", str(tmp_path / "out" / "suite.json"), "--tools", str(tmp_path / "out" / "tools.json"))
    assert code == 0, out


def test_live_categories_map_to_cases(live, tmp_path):
    suite, _, _ = imported(live, tmp_path)
    by_id = {c["id"]: c for c in suite["cases"]}
    assert by_id["live_simple_1-1-0"]["expect"]["calls"][0]["tool"] == "math.gcd@live_simple_1-1-0"
    assert by_id["live_multiple_0-0-0"]["category"] == "distractor"
    assert by_id["live_parallel_0-0-0"]["expect"]["order"] == "any"
    assert by_id["live_parallel_multiple_0-0-0"]["expect"]["order"] == "any"
    assert by_id["live_parallel_multiple_0-0-0"]["category"] == "parallel"      # two calls in one turn
    assert by_id["live_irrelevance_0-0-0"]["expect"] == {"action": "no_call"}
    assert by_id["live_relevance_0-0-0"]["category"] == "should_call"
    assert by_id["live_relevance_0-0-0"]["expect"] == {
        "action": "call", "calls": [{"tool": "get_stock_price@live_multiple_1-1-0", "args": {}}],
        "alternatives": [[{"tool": "get_weather", "args": {}}]]}


def reply(*calls, text=None):
    message = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = [{"id": f"c{i}", "type": "function", "function": {
            "name": n, "arguments": json.dumps(a)}} for i, (n, a) in enumerate(calls)]
    return {"response": {"choices": [{"message": message, "finish_reason": "tool_calls" if calls else "stop"}]}}


# (case, reply sent under BFCL's own names as they reach providers, our verdict; BFCL's in the comment)
GRADED = [
    ("live_simple_0-0-0", reply(("math_gcd", {"a": 12, "b": 18})), "PASS"),            # BFCL: pass
    ("live_simple_1-1-0", reply(("math_gcd", {"numbers": [4, 6, 8]})), "PASS"),         # BFCL: pass
    ("live_simple_1-1-0", reply(("math_gcd", {"a": 4, "b": 6})), "FAIL"),               # BFCL: fail
    ("live_simple_2-2-0", reply(("solve_quadratic_equation", {"a": 1.0, "b": -3.0, "c": 2.0})), "PASS"),
    ("live_simple_3-3-0", reply(("solve_quadratic_equation", {"a": 1, "b": 0, "c": -1})), "PASS"),
    ("live_multiple_1-1-0", reply(("get_stock_price", {"ticker": "AAPL", "exchange": "NASDAQ"})), "PASS"),
    ("live_multiple_1-1-0", reply(("get_stock_price", {"ticker": "AAPL"})), "FAIL"),   # BFCL: fail (missing)
    ("live_parallel_multiple_0-0-0", reply(("get_stock_price", {"ticker": "AAPL"}), ("get_weather", {"city": "oslo"})), "PASS"),
    ("live_irrelevance_0-0-0", reply(text="Why did the chicken..."), "PASS"),
    ("live_irrelevance_0-0-0", reply(("get_weather", {"city": "Oslo"})), "FAIL"),
    ("live_relevance_0-0-0", reply(("get_weather", {"city": "Oslo"})), "PASS"),        # BFCL: pass (any call)
    ("live_relevance_0-0-0", reply(("get_stock_price", {"ticker": "X", "exchange": "Y"})), "PASS"),
    ("live_relevance_0-0-0", reply(text="Which city?"), "FAIL"),                        # BFCL: fail (no call)
]


def test_replies_under_bfcls_names_grade_against_the_import(live, tmp_path):
    imported(live, tmp_path)
    doc = {"format": "toolproof.transcripts", "version": 1, "kind": "live", "transcripts": [
        {"case_id": cid, "repeat": n, "provider": "openai", "turns": [turn]} for n, (cid, turn, _) in enumerate(GRADED)]}
    path = tmp_path / "transcripts.json"
    path.write_text(json.dumps(doc))
    code, out, err = cli("grade", "--suite", str(tmp_path / "out" / "suite.json"), "--tools",
                         str(tmp_path / "out" / "tools.json"), "--transcripts", str(path), "--format", "json")
    assert code == 0, err
    repeats = {c["id"]: c["repeats"] for c in json.loads(out)["cases"]}
    for n, (cid, _, verdict) in enumerate(GRADED):
        first = next(i for i, (c, _, _) in enumerate(GRADED) if c == cid)
        assert repeats[cid][n - first] == verdict, (cid, n)


def test_a_missing_live_file_is_refused_in_one_line(live, tmp_path):
    (live / "BFCL_v4_live_relevance.json").unlink()
    code, out, err = cli("suite", "import-bfcl", str(live), "--category", "live_relevance", "--out", str(tmp_path / "o"))
    assert code == 2 and out == "" and err.count("\n") == 1 and "BFCL_v4_live_relevance.json: no such file" in err
    assert not (tmp_path / "o").exists()


def test_hostile_entries_get_one_line_each_and_the_rest_still_import(live, tmp_path):
    bad = [{"id": f"live_irrelevance_{i}-0-0", "question": ask("x"),
            "function": [GCD2, {**GCD2, "description": f"another {i}"}]} for i in range(40)]
    bad += [{"id": "live_irrelevance_x-\x1b[31m", "question": ask("x"), "function": [WEATHER]},
            {"id": "live_irrelevance_ok-0-0", "question": ask("x"), "function": [WEATHER]}]
    lines(live / "BFCL_v4_live_irrelevance.json", bad)
    code, _, err = cli("suite", "import-bfcl", str(live), "--category", "live_irrelevance", "--out", str(tmp_path / "o"))
    assert code == 0 and "Traceback" not in err and "\x1b" not in err
    skipped = [line for line in err.splitlines() if line.startswith("toolproof: skipped ")]
    assert len(skipped) == 41
    assert skipped[0] == "toolproof: skipped live_irrelevance_0-0-0: offers two functions named 'math.gcd'"
    assert "1 case and 1 tool written" in err


EXTRACT = {"name": "extractor.extract", "description": "Extract people.", "parameters": {
    "type": "dict", "required": ["data"], "properties": {
        "data": {"type": "array", "description": "people", "items": {"type": "dict", "properties": {
            "name": {"type": "string", "description": "name"}, "age": {"type": "integer", "description": "age"}}}}}}}


def test_lists_of_objects_and_undeclared_parameters_follow_bfcls_checker(live, tmp_path):
    # BFCL's ground truth holds a list of objects whose keys each hold possible values; a
    # parameter the function does not declare fails in BFCL's checker whenever it is sent
    lines(live / "BFCL_v4_live_simple.json", [
        {"id": "live_simple_0-0-0", "question": ask("Li Lei is 18"), "function": [EXTRACT]},
        {"id": "live_simple_1-0-1", "question": ask("Li Lei is 18, maybe"), "function": [EXTRACT]},
        {"id": "live_simple_2-1-0", "question": ask("gcd 1 2"), "function": [GCD2]},
        {"id": "live_simple_3-1-1", "question": ask("gcd 1 2"), "function": [GCD2]}])
    lines(live / "possible_answer" / "BFCL_v4_live_simple.json", [
        {"id": "live_simple_0-0-0", "ground_truth": [{"extractor.extract": {"data": [[{"name": ["Li Lei"], "age": [18]}]]}}]},
        {"id": "live_simple_1-0-1", "ground_truth": [{"extractor.extract": {"data": [[{"name": ["Li Lei"], "age": [18, 19]}]]}}]},
        {"id": "live_simple_2-1-0", "ground_truth": [{"math.gcd": {"a": [1], "b": [2], "c": ["", 3]}}]},
        {"id": "live_simple_3-1-1", "ground_truth": [{"math.gcd": {"a": [1], "b": [2], "c": [3]}}]}])
    suite, _, err = imported(live, tmp_path, "live_simple")
    by_id = {c["id"]: c for c in suite["cases"]}
    assert by_id["live_simple_0-0-0"]["expect"]["calls"][0]["args"] == {"data": [{"name": "Li Lei", "age": 18}]}
    assert ("skipped live_simple_1-0-1: several possible values for data[].age inside a list cannot be expressed"
            in err)
    assert by_id["live_simple_2-1-0"]["expect"]["calls"][0]["absent"] == ["c"]
    assert "skipped live_simple_3-1-1: the ground truth needs 'c', which the function does not declare" in err
