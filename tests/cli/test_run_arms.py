"""`run --arm` / `run --arms FILE` against the fake provider over HTTP, in every wire format:
the knobs in the recorded request bodies, one probe per arm, requests sent = what the file
states, a refused arm a finding (exit 0), and the file read back by grade, compare and board.
Every mistake is one line and exit 2, before anything is sent."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from clirun import cli_with

ROOT = Path(__file__).resolve().parent.parent.parent
KEY = "sk-cli-arms-4242"
ENV = {"TOOLPROOF_API_KEY": KEY}
cli = cli_with(ENV)


def live(fake, provider: str, *argv: str, scope: str = "parallel"):
    fake.requests.clear()
    return cli("run", "--provider", provider, "--base-url", fake.base, "--model", "fake", "--pause", "0",
               "--scope", scope, *argv)


def bodies(fake, marker) -> list:
    return [r["body"] for r in fake.requests if marker(r["body"])]


@pytest.mark.parametrize("provider, arm, check", [
    ("openai-compatible", "k:strict=true,parallel_tool_calls=false,tool_choice=required,reasoning_effort=low",
     lambda b: all(t["function"].get("strict") is True for t in b["tools"]) and b.get("parallel_tool_calls") is False
     and b["tool_choice"] == "required" and b["reasoning_effort"] == "low"),
    ("openai-responses", "k:strict=true,tool_choice=none,reasoning_effort=high",
     lambda b: all(t.get("strict") is True for t in b["tools"]) and b["tool_choice"] == "none"
     and b.get("reasoning", {}).get("effort") == "high"),
    ("anthropic", "k:tool_choice=required,parallel_tool_calls=false,strict=true",
     lambda b: b["tool_choice"] == {"type": "any", "disable_parallel_tool_use": True}
     and all(t.get("strict") is True for t in b["tools"])),
    ("gemini", "k:tool_choice=required,reasoning_effort=low",
     lambda b: b.get("toolConfig", {}).get("functionCallingConfig", {}).get("mode") == "ANY"
     and b.get("generationConfig", {}).get("thinkingConfig", {}).get("thinkingLevel", "").lower() == "low"),
])
def test_each_knob_goes_in_the_providers_field(fake, tmp_path, provider, arm, check):
    out = tmp_path / "r.json"
    code, stdout, stderr = live(fake, provider, "--arm", "base", "--arm", arm, "--out", str(out))
    assert code == 0, stderr
    doc = json.loads(out.read_text())
    first_turns = [r["body"] for r in fake.requests if not _second_turn(r["body"])]
    knobbed = [b for b in first_turns if check(b)]
    items = sum(t["arm"] == "k" for t in doc["transcripts"])
    assert items and len(knobbed) == items + 1                 # every first turn of the arm, and its probe
    assert not any(check(b) for b in first_turns if b not in knobbed)
    assert len(fake.requests) == doc["requests_used"] and doc["probes"] == 2
    assert "Arms (the first is the baseline)" in stdout and KEY not in out.read_text()


def _second_turn(body) -> bool:
    text = json.dumps(body)
    return any(word in text for word in ('"role": "tool"', "tool_result", "functionResponse", "function_call_output"))


def test_a_knob_the_provider_has_no_field_for_is_a_finding_before_sending(fake, tmp_path):
    out = tmp_path / "r.json"
    code, stdout, stderr = live(fake, "gemini", "--arm", "base", "--arm", "s:strict=true", "--out", str(out))
    assert code == 0, stderr
    assert "s [strict=true] (refused before sending: gemini" in stderr
    doc = json.loads(out.read_text())
    assert doc["arms"][1]["refused"] and doc["probes"] == 1 and len(fake.requests) == doc["requests_used"]
    assert "refused" in stdout


def test_a_refused_probe_leaves_the_other_arms_running(fake, tmp_path):
    fake.requests.clear()
    out = tmp_path / "r.json"
    original = fake.answer

    def refusing(path, headers, body):
        if body.get("temperature") == 0.3:
            fake.requests.append({"path": path, "body": body, "headers": headers})
            return 400, {}, json.dumps({"error": {"message": "temperature is not supported with this model"}})
        return original(path, headers, body)

    fake.answer = refusing
    try:
        code, stdout, stderr = cli("run", "--provider", "openai-compatible", "--base-url", fake.base, "--model", "fake",
                                   "--pause", "0", "--scope", "parallel", "--arm", "base", "--arm", "hot:temperature=0.3",
                                   "--arm", "seeded:seed=4", "--out", str(out), "--format", "json")
    finally:
        fake.answer = original
    assert code == 0, stderr
    card = json.loads(stdout)
    assert card["arms"][1]["refused"] == "temperature is not supported with this model"
    assert card["arms"][2]["delta"] is not None and card["arms"][2]["coverage"]["graded"] > 0


def test_the_file_reads_back_in_grade_compare_and_board(fake, tmp_path):
    out = tmp_path / "r.json"
    code, stdout, stderr = live(fake, "openai-compatible", "--arm", "base", "--arm", "blind:ablate=descriptions",
                                "--out", str(out), "--format", "json")
    assert code == 0, stderr
    code, graded, stderr = cli("grade", "--transcripts", str(out), "--format", "json")
    assert code == 0, stderr and json.loads(graded)["arms"] == json.loads(stdout)["arms"]
    code, compared, stderr = cli("compare", str(out), str(out), "--arm", "blind")
    assert code == 0, stderr and "arm blind" in compared
    code, board, stderr = cli("board", str(out))
    assert code == 0, stderr and "fake (arm base)" in board and "fake (arm blind)" in board


@pytest.mark.parametrize("argv, message", [
    (["--arm", "a", "--arms", "x.json"], "not both"),
    (["--arm", "a", "--arm", "b", "--pad", "0,4"], "--arm with --pad is not supported"),
    (["--arm", "a"], "at least two"),
    (["--arm", "a", "--arm", "b:strict=perhaps"], "strict must be true or false"),
    (["--arm", "a", "--arm", "b:tool_choice=no_such_tool"], "tool_choice=no_such_tool: no tool of that id or name"),
    (["--arm", "a", "--arm", "b:tools=/nonexistent/tools.json"], "/nonexistent/tools.json"),
    (["--arms", "/nonexistent/arms.json"], "/nonexistent/arms.json"),
    (["--arm", "a", "--arm", "b\x1b[2J:seed=1"], "name must be"),
])
def test_a_mistake_is_one_line_and_nothing_is_sent(fake, argv, message):
    code, stdout, stderr = live(fake, "openai-compatible", *argv)
    assert code == 2 and message in stderr and "Traceback" not in stderr and "\x1b" not in stderr
    assert fake.requests == []


def test_an_arms_file_and_a_variant_tools_file(fake, tmp_path, bundle):
    tools = json.loads(json.dumps(bundle.documents["tools"]))
    for tool in tools["tools"]:
        tool["description"] = "Rewritten: " + tool["description"]
    (tmp_path / "tools2.json").write_text(json.dumps(tools))
    (tmp_path / "arms.json").write_text(json.dumps([{"name": "base"}, {"name": "rewrite", "tools": str(tmp_path / "tools2.json")}]))
    code, stdout, stderr = live(fake, "openai-compatible", "--arms", str(tmp_path / "arms.json"), "--format", "json")
    assert code == 0, stderr
    rewritten = [r["body"] for r in fake.requests if r["body"]["tools"][0]["function"]["description"].startswith("Rewritten: ")]
    assert rewritten and len(rewritten) < len(fake.requests)
    card = json.loads(stdout)
    assert card["arms"][1]["delta"]["delta"] == 0 and "tool_effects" in card["arms"][1]


def test_a_variant_must_keep_every_tool(fake, tmp_path, bundle):
    tools = json.loads(json.dumps(bundle.documents["tools"]))
    tools["tools"] = tools["tools"][1:]
    (tmp_path / "tools2.json").write_text(json.dumps(tools))
    code, _, stderr = live(fake, "openai-compatible", "--arm", "a", "--arm", f"b:tools={tmp_path / 'tools2.json'}")
    assert code == 2 and "a variant must keep every tool" in stderr and fake.requests == []


def test_the_runs_key_is_never_sent_to_another_providers_arm(fake):
    code, _, stderr = live(fake, "openai-compatible", "--arm", "a", "--arm", "b:provider=anthropic,model=claude-x")
    assert code == 2 and "set ANTHROPIC_API_KEY" in stderr and "never sent to another provider" in stderr
    assert fake.requests == []
    code, _, stderr = live(fake, "anthropic", "--arm", "a", "--arm", "b:provider=openai-compatible")
    assert code == 2 and "needs a base URL" in stderr and fake.requests == []


def test_tools_ablate_writes_what_the_arm_shows_and_nothing_else_differs(fake, tmp_path):
    original = (ROOT / "data" / "tools.json").read_text()
    code, text, stderr = cli("tools", "ablate", str(ROOT / "data" / "tools.json"), "--ablate", "descriptions")
    assert code == 0, stderr
    changed = [(a, b) for a, b in zip(original.splitlines(), text.splitlines()) if a != b]
    assert len(original.splitlines()) == len(text.splitlines()) and changed
    assert all(a.strip().startswith('"description"') and b.strip() == '"description": "",' for a, b in changed)
    one = cli("tools", "ablate", str(ROOT / "data" / "tools.json"), "--ablate", "order+names", "--ablate-seed", "5")[1]
    assert one == cli("tools", "ablate", str(ROOT / "data" / "tools.json"), "--ablate", "names+order",
                      "--ablate-seed", "5")[1] != cli("tools", "ablate", str(ROOT / "data" / "tools.json"),
                                                      "--ablate", "names+order", "--ablate-seed", "6")[1]
    # the arm sends the same names and descriptions the file shows
    code, _, stderr = live(fake, "openai-compatible", "--arm", "base", "--arm", "opaque:ablate=names+descriptions")
    assert code == 0, stderr
    shown = json.loads(cli("tools", "ablate", str(ROOT / "data" / "tools.json"), "--ablate", "names+descriptions")[1])
    by_name = {t["name"]: t for t in shown["tools"]}
    sent = [t["function"] for r in fake.requests for t in r["body"]["tools"] if t["function"]["name"].startswith("tool_")]
    assert sent and all(by_name[f["name"]]["description"] == f.get("description", "") for f in sent)


@pytest.mark.parametrize("argv, message", [
    (["--ablate", "names", "--ablate-seed", "2"], "--ablate-seed seeds the order operator"),
    (["--ablate", "names++order"], "blank part in ablation"),
    (["--ablate", "order", "--ablate-seed", "-1"], "--ablate-seed must be between 0 and 9007199254740991"),
])
def test_tools_ablate_refuses_a_bad_flag(argv, message):
    code, _, stderr = cli("tools", "ablate", str(ROOT / "data" / "tools.json"), *argv)
    assert code == 2 and message in stderr


def test_tools_ablate_refuses_a_bad_file_and_keeps_an_existing_out(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "toolproof.tools", "version": 1, "tools": [{"name": "x"}]}')
    code, _, stderr = cli("tools", "ablate", str(bad), "--ablate", "names")
    assert code == 2 and str(bad) in stderr and "Traceback" not in stderr
    out = tmp_path / "out.json"
    out.write_text("mine")
    code, _, stderr = cli("tools", "ablate", str(ROOT / "data" / "tools.json"), "--ablate", "names", "--out", str(out))
    assert code == 2 and out.read_text() == "mine"
    code, _, stderr = cli("tools", "ablate", str(ROOT / "data" / "tools.json"), "--ablate", "names", "--out",
                          str(out), "--force")
    assert code == 0 and json.loads(out.read_text())["tools"][0]["name"] == "tool_1"


def test_no_output_replaces_the_arms_file_or_an_arms_tools_file(fake, tmp_path, bundle):
    arms = tmp_path / "arms.json"
    arms.write_text('[{"name": "a"}, {"name": "b"}]')
    code, _, stderr = live(fake, "openai-compatible", "--arms", str(arms), "--out", str(arms), "--force")
    assert code == 2 and "the arms file" in stderr and arms.read_text() == '[{"name": "a"}, {"name": "b"}]'
    variant = tmp_path / "tools2.json"
    variant.write_text(json.dumps(bundle.documents["tools"]))
    before = variant.read_text()
    for flag in ("--out", "--markdown", "--html"):
        code, _, stderr = live(fake, "openai-compatible", "--arm", "a", "--arm", f"b:tools={variant}", flag, str(variant),
                               "--force")
        assert code == 2 and "the tools file of arm b" in stderr and variant.read_text() == before
    assert fake.requests == []
