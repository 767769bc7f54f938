"""`python -m toolproof suite validate | import-bfcl`, and run/grade with a suite of one's own,
called in-process. The BFCL files are a small sample in BFCL's shape written by this test
(BFCL_v4_<category>.json lines with id/question/function; possible_answer/ lines with
id/ground_truth): never BFCL's own data."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from clirun import cli
from toolproof.suite.categories import CASE_CATEGORIES
from toolproof.datafiles import DATA


def lines(path: Path, rows: list) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def ask(text: str) -> list:
    return [[{"role": "user", "content": text}]]


AREA = {"name": "calculate_triangle_area", "description": "Area of a triangle.", "parameters": {
    "type": "dict", "properties": {"base": {"type": "integer", "description": "base"},
                                   "height": {"type": "integer", "description": "height"},
                                   "unit": {"type": "string", "description": "unit of the length"}},
    "required": ["base", "height"]}}
PLAY = {"name": "spotify.play", "description": "Play an artist for some minutes.", "parameters": {
    "type": "dict", "properties": {"artist": {"type": "string", "description": "artist"},
                                   "duration": {"type": "float", "description": "minutes"},
                                   "extra": {"type": "any", "description": "anything"},
                                   "pair": {"type": "tuple", "items": {"type": "integer"}, "description": "t"}},
    "required": ["artist", "duration"]}}
TEMP = {"name": "get_temperature", "description": "Temperature in a city.", "parameters": {
    "type": "dict", "properties": {"city": {"type": "string", "description": "city"},
                                   "unit": {"type": "string", "enum": ["celsius", "fahrenheit"],
                                            "description": "unit"},
                                   "where": {"type": "dict", "description": "place", "properties": {
                                       "country": {"type": "string", "description": "country"}}}},
    "required": ["city"]}}


@pytest.fixture()
def bfcl(tmp_path: Path) -> Path:
    """A BFCL-shaped folder (a sample written here, labelled as such: not BFCL's data)."""
    data = tmp_path / "bfcl-sample"
    lines(data / "BFCL_v4_simple_python.json", [
        {"id": "simple_python_0", "question": ask("Area of a triangle with base 10 and height 5?"), "function": [AREA]},
        {"id": "simple_python_1", "question": ask("Temperature in New York?"), "function": [TEMP]},
        {"id": "simple_python_2", "question": [[{"role": "user", "content": "a"}], [{"role": "user", "content": "b"}]],
         "function": [AREA]}])
    lines(data / "possible_answer" / "BFCL_v4_simple_python.json", [
        {"id": "simple_python_0", "ground_truth": [{"calculate_triangle_area": {"base": [10], "height": [5], "unit": ["units", ""]}}]},
        {"id": "simple_python_1", "ground_truth": [{"get_temperature": {"city": ["New York", "NYC"], "unit": ["celsius"],
                                                                         "where": [{"country": ["US", "USA", ""]}]}}]},
        {"id": "simple_python_2", "ground_truth": [{"calculate_triangle_area": {"base": [1], "height": [1]}}]}])
    lines(data / "BFCL_v4_multiple.json", [
        {"id": "multiple_0", "question": ask("Temperature in Paris?"), "function": [AREA, TEMP]}])
    lines(data / "possible_answer" / "BFCL_v4_multiple.json", [
        {"id": "multiple_0", "ground_truth": [{"get_temperature": {"city": ["Paris"], "unit": [""], "where": [""]}}]}])
    lines(data / "BFCL_v4_parallel.json", [
        {"id": "parallel_0", "question": ask("Play Taylor Swift for 20 minutes and Maroon 5 for 15."),
         "function": [PLAY]}])
    lines(data / "possible_answer" / "BFCL_v4_parallel.json", [
        {"id": "parallel_0", "ground_truth": [{"spotify.play": {"artist": ["Taylor Swift"], "duration": [20]}},
                                              {"spotify.play": {"artist": ["Maroon 5"], "duration": [15]}}]}])
    lines(data / "BFCL_v4_irrelevance.json", [
        {"id": "irrelevance_0", "question": ask("What is the capital of France?"), "function": [AREA]}])
    return data


def imported(bfcl: Path, tmp_path: Path, *extra: str) -> tuple[dict, dict, str]:
    out = tmp_path / "out"
    code, _, err = cli("suite", "import-bfcl", str(bfcl), "--category",
                       "simple_python,multiple,parallel,irrelevance", "--out", str(out), *extra)
    assert code == 0, err
    return (json.loads((out / "suite.json").read_text()), json.loads((out / "tools.json").read_text()), err)


def test_import_writes_a_suite_that_validates(bfcl, tmp_path):
    suite, tools, err = imported(bfcl, tmp_path)
    ids = [c["id"] for c in suite["cases"]]
    assert ids == ["simple_python_0", "simple_python_1", "multiple_0", "parallel_0", "irrelevance_0"]
    assert "skipped simple_python_2: only single-turn questions are imported" in err
    assert "5 cases and 3 tools written" in err
    by_id = {c["id"]: c for c in suite["cases"]}
    assert by_id["simple_python_0"]["expect"] == {"action": "call", "calls": [{
        "tool": "calculate_triangle_area", "args": {"base": 10, "height": 5, "unit": "units"},
        "optional": ["unit"], "loose": ["unit"], "exact": True}]}
    assert by_id["simple_python_1"]["expect"]["calls"][0] == {
        "tool": "get_temperature", "args": {"city": "New York", "unit": "celsius", "where": {"country": "US"}},
        "accept": {"city": ["NYC"], "where.country": ["USA"]}, "optional": ["where.country"],
        "loose": ["city", "unit", "where"], "exact": True}
    assert by_id["multiple_0"]["category"] == "distractor"
    assert by_id["multiple_0"]["expect"]["calls"][0]["absent"] == ["unit", "where"]
    assert by_id["parallel_0"]["expect"]["order"] == "any"
    assert by_id["irrelevance_0"] == {**by_id["irrelevance_0"], "category": "should_not_call",
                                      "expect": {"action": "no_call"}}
    play = next(t for t in tools["tools"] if t["name"] == "spotify.play")["parameters"]
    assert play["type"] == "object" and play["properties"]["duration"]["type"] == "number"
    assert "type" not in play["properties"]["extra"] and play["properties"]["pair"]["type"] == "array"
    code, out, _ = cli("suite", "validate", str(tmp_path / "out" / "suite.json"), "--tools",
                       str(tmp_path / "out" / "tools.json"))
    assert (code, out) == (0, "suite validate: ok (5 cases, 3 tools)\n")


def test_a_line_separator_inside_a_string_stays_in_its_line(bfcl, tmp_path):
    lines(bfcl / "BFCL_v4_irrelevance.json", [
        {"id": "irrelevance_0", "question": ask("Capital\u2028of France?"), "function": [AREA]}])
    (bfcl / "BFCL_v4_irrelevance.json").write_text(
        (bfcl / "BFCL_v4_irrelevance.json").read_text().replace("\\u2028", "\u2028") + "\r\n", encoding="utf-8")
    out = tmp_path / "o"
    assert cli("suite", "import-bfcl", str(bfcl), "--category", "irrelevance", "--out", str(out))[0] == 0
    assert json.loads((out / "suite.json").read_text())["cases"][0]["prompt"] == "Capital\u2028of France?"


def test_limit_takes_the_first_entries_of_each_category(bfcl, tmp_path):
    suite, _, _ = imported(bfcl, tmp_path, "--limit", "1")
    assert [c["id"] for c in suite["cases"]] == ["simple_python_0", "multiple_0", "parallel_0", "irrelevance_0"]


def openai(*calls, text=None):
    message = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = [{"id": f"c{i}", "type": "function", "function": {
            "name": n, "arguments": json.dumps(a)}} for i, (n, a) in enumerate(calls)]
    return {"response": {"choices": [{"message": message, "finish_reason": "tool_calls" if calls else "stop"}]}}


# (case, hand-written reply, our verdict) -- what BFCL's checker would say is in the comment
GRADED = [
    ("simple_python_0", openai(("calculate_triangle_area", {"base": 10, "height": 5})), "PASS"),  # BFCL: pass
    ("simple_python_0", openai(("calculate_triangle_area", {"base": 10, "height": 5, "unit": "Units"})), "PASS"),
    ("simple_python_0", openai(("calculate_triangle_area", {"base": 10, "height": 5, "unit": "cm"})), "FAIL"),
    # 3.0 for an integer: JSON Schema calls it an integer, so we pass it; BFCL's type check fails it
    ("simple_python_0", openai(("calculate_triangle_area", {"base": 10.0, "height": 5})), "PASS"),
    ("simple_python_1", openai(("get_temperature", {"city": "nyc", "unit": "celsius", "where": {"country": "U.S.A."}})), "PASS"),
    # an enum case variant: BFCL lower-cases strings and passes it; the tool's enum refuses it
    ("simple_python_1", openai(("get_temperature", {"city": "New York", "unit": "Celsius"})), "FAIL"),
    ("multiple_0", openai(("get_temperature", {"city": "Paris"})), "PASS"),
    ("multiple_0", openai(("get_temperature", {"city": "Paris", "unit": "celsius"})), "FAIL"),    # BFCL: fail
    ("multiple_0", openai(("calculate_triangle_area", {"base": 1, "height": 1})), "FAIL"),
    ("parallel_0", openai(("spotify_play", {"artist": "Maroon 5", "duration": 15}),
                          ("spotify_play", {"artist": "taylor swift", "duration": 20.0})), "PASS"),
    # one of two independent calls: BFCL fails it; our parallel category reads a sequential start
    # (each call made right, the rest left for later turns) as PARTIAL, never as a pass
    ("parallel_0", openai(("spotify_play", {"artist": "Maroon 5", "duration": 15})), "PARTIAL"),
    ("parallel_0", openai(("spotify_play", {"artist": "Maroon 5", "duration": 16})), "FAIL"),
    ("irrelevance_0", openai(text="Paris. None of my tools helps here."), "PASS"),
    ("irrelevance_0", openai(("calculate_triangle_area", {"base": 1, "height": 1})), "FAIL"),
]


def test_hand_written_transcripts_grade_against_the_import(bfcl, tmp_path):
    imported(bfcl, tmp_path)
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


@pytest.mark.parametrize("write, argv_extra, message", [
    (lambda d: (d / "BFCL_v4_parallel.json").write_text('{"id": "parallel_0", "question": \n'), (),
     "BFCL_v4_parallel.json:1: not valid JSON"),
    (lambda d: (d / "BFCL_v4_parallel.json").write_text('{"id": NaN}\n'), (), "BFCL_v4_parallel.json:1: "),
    (lambda d: (d / "BFCL_v4_parallel.json").write_text("[" * 5000 + "]" * 5000 + "\n"), (), "BFCL_v4_parallel.json:1: "),
    (lambda d: (d / "possible_answer" / "BFCL_v4_parallel.json").unlink(), (),
     "possible_answer/BFCL_v4_parallel.json: no such file"),
    (lambda d: None, ("--limit", "0"), "--limit must be at least 1, got 0"),
])
def test_malformed_and_hostile_files_are_refused_in_one_line(bfcl, tmp_path, write, argv_extra, message):
    write(bfcl)
    code, out, err = cli("suite", "import-bfcl", str(bfcl), "--category", "parallel", "--out",
                         str(tmp_path / "o"), *argv_extra)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err
    assert "Traceback" not in err and not (tmp_path / "o").exists()


def test_unknown_category_is_a_usage_error(bfcl, tmp_path):
    code, _, err = cli("suite", "import-bfcl", str(bfcl), "--category", "simple_python,multi_turn_base", "--out", str(tmp_path))
    assert code == 2 and "not 'multi_turn_base'" in err and err.count("\n") == 1


def test_hostile_entries_are_skipped_with_an_escaped_reason(bfcl, tmp_path):
    evil = {**AREA, "name": "area\u202e\x1b[31m"}
    lines(bfcl / "BFCL_v4_irrelevance.json", [
        {"id": "irrelevance_0", "question": ask("Hi"), "function": [evil]},
        {"id": "Irrelevance_1\x00", "question": ask("Hi"), "function": [AREA]},
        {"id": "irrelevance_2", "question": ask("Hi"), "function": [AREA]}])
    code, _, err = cli("suite", "import-bfcl", str(bfcl), "--category", "irrelevance", "--out", str(tmp_path / "o"))
    assert code == 0
    assert "skipped irrelevance_0: a function needs a name of 1-128 of A-Z a-z 0-9 _ - ." in err
    assert "\x1b" not in err and "\x00" not in err and "\\x00" in err
    assert "1 case and 1 tool written" in err


def test_nothing_importable_is_an_input_error(bfcl, tmp_path):
    lines(bfcl / "BFCL_v4_irrelevance.json", [{"id": "x", "question": "not a list", "function": [AREA]}])
    code, _, err = cli("suite", "import-bfcl", str(bfcl), "--category", "irrelevance", "--out", str(tmp_path / "o"))
    assert code == 2 and "no entry could be imported" in err


def test_validate_lists_every_problem_one_line_each(tmp_path):
    suite = json.loads((DATA / "suite.json").read_text())
    suite["cases"][1]["tools"][0] = "nope"
    suite["cases"][3]["expect"]["calls"][0]["accept"] = {"zzz": [1]}
    suite["cases"][5]["category"] = "bogus\u202e"
    path = tmp_path / "s.json"
    path.write_text(json.dumps(suite))
    code, out, _ = cli("suite", "validate", str(path))
    assert code == 2
    assert out.splitlines() == [
        f"{path}: at $.cases[5].category: 'bogus\\u202e' is not one of {list(CASE_CATEGORIES)}",
        f"{path}: at $.cases[1].tools[0]: unknown tool 'nope' (not in tools.json)",
        f"{path}: at $.cases[1].expect.calls[0].tool: expected tool 'transfer_between_accounts' is not offered by the case",
        f"{path}: at $.cases[3].expect.calls[0].accept.zzz: accept names 'zzz', which is not in args or derive "
        "(or a key inside them)",
        "suite validate: 4 problems"]


@pytest.mark.parametrize("text, phrase", [
    ('{"format": ', "not valid json"), ('{"cases": [NaN]}', "nan"), ("[" * 100 + "]" * 100, "deep"),
])
def test_validate_refuses_an_unreadable_file_in_one_line(tmp_path, text, phrase):
    path = tmp_path / "s.json"
    path.write_text(text)
    code, out, err = cli("suite", "validate", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1 and phrase in err.lower(), err


def test_run_takes_a_suite_of_ones_own(bfcl, tmp_path):
    imported(bfcl, tmp_path)
    # No key: the run stops before any request, after the suite and tools have loaded.
    code, _, err = cli("run", "--provider", "openai", "--model", "m", "--suite", str(tmp_path / "out" / "suite.json"),
                       "--tools", str(tmp_path / "out" / "tools.json"))
    assert code == 2 and "no API key" in err
    code, _, err = cli("run", "--provider", "openai", "--model", "m", "--suite", str(tmp_path / "nope.json"))
    assert code == 2 and "nope.json" in err


def test_a_live_run_of_an_imported_parallel_case_maps_names_both_ways(bfcl, fake, tmp_path):
    out = tmp_path / "out"
    assert cli("suite", "import-bfcl", str(bfcl), "--category", "parallel", "--out", str(out))[0] == 0
    reply = {"id": "r1", "object": "chat.completion", "model": "fake", "choices": [{"index": 0, "finish_reason": "tool_calls",
             "message": {"role": "assistant", "content": None, "tool_calls": [
                 {"id": "a", "type": "function", "function": {"name": "spotify_play",
                                                              "arguments": '{"artist": "Maroon 5", "duration": 15}'}},
                 {"id": "b", "type": "function", "function": {"name": "spotify_play",
                                                              "arguments": '{"artist": "Taylor Swift", "duration": 20}'}}]}}]}
    fake.script[None] = [(200, {}, json.dumps(reply))]      # the fake knows no imported prompt: scripted
    code, stdout, stderr = cli("run", "--provider", "openai-compatible", "--base-url", fake.base + "/v1", "--model",
                               "fake", "--pause", "0", "--suite", str(out / "suite.json"), "--tools",
                               str(out / "tools.json"), "--format", "json", environ={})
    sent = fake.requests[0]["body"]
    assert code == 0, stderr
    assert [t["function"]["name"] for t in sent["tools"]] == ["spotify_play"] and sent["parallel_tool_calls"] is True
    case = json.loads(stdout)["cases"][0]
    assert (case["id"], case["verdict"]) == ("parallel_0", "PASS")
    assert [c["tool"] for c in case["calls"]] == ["spotify.play", "spotify.play"]


def test_validate_a_hostile_suite_of_thousands_of_bad_cases_quickly(tmp_path):
    cases = [{"id": f"c{i}", "category": "should_call", "tools": ["nope"], "prompt": "p",
              "expect": {"action": "call", "calls": [{"tool": "nope"}]}} for i in range(3000)]
    cases += [{"id": f"x{i}", "category": "bogus"} for i in range(3000)]
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"format": "toolproof.suite", "version": 2, "cases": cases}))
    code, out, _ = cli("suite", "validate", str(path))
    assert code == 2 and out.count("unknown tool 'nope'") == 3000
    assert out.endswith(f"suite validate: {len(out.splitlines()) - 1} problems\n")


# --out DIR (issue 19): the finding was `--out data` silently replacing the project's own
# data/suite.json and data/tools.json, non-atomically.
def test_out_never_writes_into_the_projects_data_folder(bfcl, tmp_path):
    from toolproof.datafiles import DATA

    before = {name: (DATA / name).read_bytes() for name in ("suite.json", "tools.json")}
    for target in (DATA, DATA / "schemas", DATA / "new"):
        code, _, err = cli("suite", "import-bfcl", str(bfcl), "--category", "irrelevance", "--out", str(target),
                           "--force")
        assert code == 2
        assert err.endswith(": --out: refusing to write into ToolProof's own data folder (the committed suite); "
                            "choose another folder\n") and err.count("\n") == 1
    assert {name: (DATA / name).read_bytes() for name in before} == before and not (DATA / "new").exists()


def test_out_needs_force_to_replace_files_and_keeps_other_data(bfcl, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "suite.json").write_text("my own suite")
    (out / "notes.txt").write_text("keep")
    code, _, err = cli("suite", "import-bfcl", str(bfcl), "--category", "irrelevance", "--out", str(out))
    assert (code, err) == (2, f"toolproof: {out / 'suite.json'}: --out: the file exists; choose a new path, or add "
                              "--force to replace it\n")
    assert (out / "suite.json").read_text() == "my own suite" and not (out / "tools.json").exists()
    code, _, err = cli("suite", "import-bfcl", str(bfcl), "--category", "irrelevance", "--out", str(out), "--force")
    assert code == 0, err
    assert json.loads((out / "suite.json").read_text())["cases"]
    # written atomically (temp file + rename): nothing else appears, the other file is kept
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt", "suite.json", "tools.json"]
    assert (out / "notes.txt").read_text() == "keep"


def test_out_that_is_a_file_is_one_line(bfcl, tmp_path):
    (tmp_path / "f").write_text("x")
    code, _, err = cli("suite", "import-bfcl", str(bfcl), "--category", "irrelevance", "--out", str(tmp_path / "f"))
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert (tmp_path / "f").read_text() == "x"
