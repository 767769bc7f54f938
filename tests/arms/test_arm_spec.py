"""Arms as a user writes them: `--arm NAME:KEY=VALUE,...` and an arms file, each value typed and
bounded, every mistake named with the arm and the key; hostile text refused without a traceback."""
from __future__ import annotations

import json

import pytest

from toolproof.errors import ToolProofError
from toolproof.running.arm_spec import MAX_ARMS, check_arms, described, parse_arm, parse_arms_file


def test_a_command_line_arm_is_typed():
    arm = parse_arm("fast:strict=true,parallel_tool_calls=False,temperature=0.2,seed=7,max_tokens=64,"
                    "tool_choice=required,reasoning_effort=low,ablate=order+names,ablate_seed=3,model=m-2")
    assert arm.name == "fast"
    assert arm.settings == {"strict": True, "parallel_tool_calls": False, "temperature": 0.2, "seed": 7,
                            "max_tokens": 64, "tool_choice": "required", "reasoning_effort": "low",
                            "ablate": "names+order", "ablate_seed": 3, "model": "m-2"}
    assert arm.knobs == {"strict": True, "tool_choice": "required", "parallel_tool_calls": False, "reasoning_effort": "low"}
    assert arm.ablate == ("names", "order") and arm.seed == 3


def test_a_name_alone_is_the_plain_run():
    assert parse_arm("base").settings == {} and described(parse_arm("base")) == "the plain run's settings"
    assert described(parse_arm("s:strict=true,model=x")) == "strict=true, model=x"


@pytest.mark.parametrize("text, message", [
    ("", "name must be 1-40"),
    ("a b:strict=true", "name must be 1-40"),
    ("x" * 41, "name must be 1-40"),
    ("bad\x1b[31m:strict=true", "name must be 1-40"),
    ("s:strict=yes", "strict must be true or false, got 'yes'"),
    ("s:strict", "'strict' must be KEY=VALUE"),
    ("s:colour=red", "unknown key 'colour'"),
    ("s:temperature=3", "temperature must be between 0 and 2, got '3'"),
    ("s:temperature=nan", "temperature must be between 0 and 2"),
    ("s:seed=-1", "seed must be between 0 and 2147483647"),
    ("s:max_tokens=0", "max_tokens must be between 1 and 1000000"),
    ("s:provider=acme", "provider must be one of"),
    ("s:tool_choice=two words", "tool_choice must be auto, required, none or a tool's name"),
    ("s:ablate=everything", "unknown ablation 'everything'"),
    ("s:ablate_seed=4", "ablate_seed seeds the order operator: add ablate=order"),
    ("s:model=", "model must be a non-empty text"),
    ("s:strict=true,strict=false", "'strict' is given twice"),
])
def test_a_bad_arm_is_refused_naming_the_arm_and_the_key(text, message):
    with pytest.raises(ToolProofError, match=message.replace("(", r"\(").replace(")", r"\)").replace("'", "'")):
        parse_arm(text)


def test_an_arms_file_is_a_json_list_of_arms():
    arms = parse_arms_file(json.dumps([{"name": "a"}, {"name": "b", "strict": True, "temperature": 0}]), "arms.json")
    assert [a.name for a in arms] == ["a", "b"] and arms[1].settings == {"strict": True, "temperature": 0.0}


@pytest.mark.parametrize("text, message", [
    ("not json", r"arms.json: not valid JSON: Expecting value \(line 1, column 1\)"),
    ('{"name": "a"}', "arms.json: an arms file is a JSON list"),
    ('[{"name": "a"}]', "at least two"),
    ("[" + ",".join(json.dumps({"name": f"a{i}"}) for i in range(MAX_ARMS + 1)) + "]", f"at most {MAX_ARMS}"),
    ('[{"name": "a"}, {"name": "a"}]', "used twice"),
    ('[{"name": "a"}, 7]', r"arms.json\[1\]: an arm must be an object"),
    ('[{"name": "a"}, {"name": "b", "strict": "maybe"}]', r"arms.json\[1\] \(b\): strict must be true or false"),
    ('[{"name": "a"}, {"name": "b", "seed": 1e400}]', "arms.json: .*out of range"),
    ('[{"name": "a"}, {"name": "b", "temperature": NaN}]', "arms.json: NaN is not JSON"),
    ("[" * 100_000 + "]" * 100_000, "arms.json: the arms file nested deeper than 64 levels"),
])
def test_a_bad_arms_file_is_refused_with_the_file_and_the_place(text, message):
    with pytest.raises(ToolProofError, match=message):
        parse_arms_file(text, "arms.json")


def test_a_huge_arms_file_is_cut_at_the_bound_before_each_arm_is_checked():
    text = json.dumps([{"name": f"a{i}"} for i in range(100_000)])
    with pytest.raises(ToolProofError, match=f"at most {MAX_ARMS}"):
        parse_arms_file(text, "arms.json")


def test_two_arms_at_least_and_distinct_names():
    with pytest.raises(ToolProofError, match="at least two"):
        check_arms([parse_arm("a")])
    assert [a.name for a in check_arms([parse_arm("a"), parse_arm("b")])] == ["a", "b"]
