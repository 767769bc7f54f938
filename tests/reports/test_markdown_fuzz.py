"""Every Markdown report, fed hostile text in every field it prints, read back by a CommonMark parser
(markdown-it-py, with GFM's tables and strikethrough; issue 36).

What comes out of the text must be text: no image, link, autolink or raw HTML (a tracking pixel in
a CI summary), no bare address GitHub would link (www., https://, user@host), and the hostile text
still visible as it was sent (escapes show as nothing). And the report must have the same
structure (headings, tables and their cells, lists, code spans, emphasis) as the same report with
plain names in the same places: nothing the text holds makes or ends a construct of its own.

The inputs: results files whose model hallucinates tools with hostile names and hostile argument
names, says hostile words, and whose provider fails with a hostile message, graded (`grade`), run
(`run` against the fake provider), compared and ranked (`compare`, `board`) through the command
line; then every string of a scorecard (a plain run, a run in several phrasings, a sweep), a
comparison and a leaderboard replaced by hostile text, rendered directly: the page's Markdown
exports are these same functions.
"""
from __future__ import annotations

import copy
import json
import re
from itertools import cycle
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from clirun import cli
from conftest import openai
from phrasingdocs import TOOLS_DOC, every_phrasing, suite_doc, transcripts_doc
from scenariocard import built_card
from toolproof.datafiles import DATA, format_schema
from toolproof.grading.transcripts import parse_transcripts
from toolproof.reports.board import render_board_markdown
from toolproof.reports.comparison import render_comparison_markdown
from toolproof.reports.markdown import MAX_CHARS
from toolproof.reports.scorecard import render_markdown
from toolproof.safe_text import printable
from toolproof.scoring.evaluate import evaluate
from toolproof.suite.load import parse_suite, parse_tools

HOSTILE = [
    "x`![p](http://e.x/p.png)`y",            # the finding: an image out of a code span
    "``<img src=x onerror=alert(1)>``",
    "<script>alert(1)</script>",
    "<http://e.x/auto>",
    "<a href='http://e.x'>a</a>",
    "<!-- comment -->",
    "[link](http://e.x/l)",
    "![](//e.x)",
    "[ref]: http://e.x/r",
    "www.e.x/w",
    "see https://e.x/u?q=1",
    "mail a@e.x.co or mailto:b@e.x",
    "javascript:alert(1)",
    "| c1 | c2 |",
    "# heading",
    "> quote",
    "- item",
    "+ item",
    "1. first",
    "2) second",
    "---",
    "===",
    "*em* _em_ ~~gone~~ **b** __b__",
    "&lt;b&gt; &amp; &#60; &copy;",
    "two\nlines\r\nand\rcr",
    "\x1b[31mred\x07\x00",
    "rtl\u202eevil\u2066 iso",
    "zero\u200bwidth\ufeff",
    "\\`esc\\` \\",
    "    indented code",
    "```fence",
    "~~~tilde",
    "`",
    "",
    ":smile: @user #1",
    "x" * 3 * MAX_CHARS,
]
# The same fields with plain text, one for one (the empty and the long one kept empty and long).
PLAIN = [h if h == "" else "y" * len(h) if len(h) > MAX_CHARS else f"plain{i:02d}" for i, h in enumerate(HOSTILE)]

PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"]).disable("text_join")
LOADING = {"image", "link_open", "html_inline", "html_block"}
# GFM's extended autolinks, looked for in each text node (an escape ends a node, as in cmark-gfm)
BARE_ADDRESS = re.compile(r"(?i)(?:^|[\s*_~(])www\.[a-z0-9_-]|(?:https?|ftp)://[a-z0-9_-]|"
                          r"[a-z0-9.+_-]@[a-z0-9_-]+\.[a-z0-9_-]")
TOOLS = parse_tools(TOOLS_DOC, format_schema("tools"))


def _tokens(md: str) -> list:
    out = []
    for token in PARSER.parse(md):
        out.append(token)
        out.extend(token.children or [])
    return out


def _shown(md: str) -> str:
    """What a reader sees: every text, escape and code span, a line per block."""
    lines = []
    for token in PARSER.parse(md):
        if token.type == "inline":
            lines.append("".join(c.content if c.type in ("text", "text_special", "code_inline") else " "
                                 for c in token.children))
        elif token.type in ("fence", "code_block"):
            lines.append(token.content)
    return "\n".join(lines)


def _structure(md: str) -> list[str]:
    """Every token but text, by type and tag: what the Markdown makes of the report. A run of
    table rows of one shape counts once: hostile words the model says may change a verdict, and
    with it how many rows a table lists, but not what a row is made of."""
    out: list[str] = []
    row: list[str] = []
    last_row = None
    for t in _tokens(md):
        if t.type in ("text", "text_special"):
            continue
        step = f"{t.type}:{t.tag}"
        if t.type == "tr_open" or row:
            row.append(step)
            if t.type == "tr_close":
                if row != last_row:
                    out += row
                last_row, row = row, []
            continue
        last_row = None
        out.append(step)
    return out


def _visible(text: str) -> str:
    """How a reader sees `text` in a report: one line, controls as escapes, the first 40 characters."""
    return printable(text.replace("\r\n", " ").replace("\n", " ")).strip()[:40]


def assert_inert(md: str, plain_md: str) -> None:
    """`md` was made from HOSTILE, `plain_md` from PLAIN in the same places: nothing loads or links,
    every hostile text shows where its plain twin shows, and the structure is the plain one's."""
    found = _tokens(md)
    assert [t.type for t in found if t.type in LOADING] == [], md
    addresses = [t.content for t in found if t.type == "text" and BARE_ADDRESS.search(t.content)]
    assert addresses == []
    shown, plain_shown = _shown(md), _shown(plain_md)
    printed = [h for h, p in zip(HOSTILE, PLAIN) if p and _visible(p) in plain_shown]
    assert printed, "no field of the report was fed"
    assert [h for h in printed if _visible(h) and _visible(h) not in shown] == []
    assert _structure(md) == _structure(plain_md)


# ---------------------------------------------------------------- through the command line

def results(names: list[str]) -> dict:
    """The committed fixtures, with every tool call's name, an argument's name and value, the
    model's words, the provider's failure message, the model and the label taken from `names`."""
    doc = json.loads((DATA / "fixtures.json").read_text(encoding="utf-8"))
    it = cycle(names)
    doc["label"], doc["model"] = next(it), next(it)
    for transcript in doc["transcripts"]:
        transcript["model"] = doc["model"]
        if "world" in transcript:       # a scenario's: its words steer the scripted user (a question gets
            continue                    # a reply), so they would change the plan's ERRORs, not just rows;
                                        # scenario strings have their own tests below
        for turn in transcript["turns"]:
            if "error" in turn:
                turn["error"]["message"] = next(it)
            body = turn.get("response") or {}
            for choice in body.get("choices", []):
                message = choice["message"]
                for call in message.get("tool_calls") or []:
                    call["function"]["name"] = next(it)
                    try:
                        args = json.loads(call["function"]["arguments"] or "{}")
                    except ValueError:
                        continue                  # invalid JSON on purpose: kept as it is
                    if isinstance(args, dict):
                        args[next(it)] = next(it)
                        call["function"]["arguments"] = json.dumps(args)
                if message.get("content"):
                    message["content"] = f"{next(it)} {message['content']}"
            for block in body.get("content") or []:
                if block["type"] == "tool_use":
                    block["name"] = next(it)
                    if isinstance(block["input"], dict):
                        block["input"][next(it)] = next(it)
                elif block["type"] == "text":
                    block["text"] = f"{next(it)} {block['text']}"
    return doc


def write(folder: Path, name: str, doc: dict) -> str:
    path = folder / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict:
    """{kind: {"hostile"/"plain": Markdown}} for grade, compare and board."""
    out = {}
    for which, names in (("hostile", HOSTILE), ("plain", PLAIN)):
        folder = tmp_path_factory.mktemp(which)
        a = write(folder, "a.json", results(names))
        b = write(folder, "b.json", {**json.loads((DATA / "fixtures.json").read_text(encoding="utf-8")),
                                     "label": names[-3], "model": names[-4]})
        for kind, argv in (("grade", ["grade", "--transcripts", a]), ("compare", ["compare", a, b, "--allow-mixed"])):
            code, _, err = cli(*argv, "--markdown", str(folder / f"{kind}.md"))
            assert code == 0, err
            out.setdefault(kind, {})[which] = (folder / f"{kind}.md").read_text(encoding="utf-8")
        code, board, err = cli("board", a, b, "--allow-mixed", "--format", "markdown")
        assert code == 0, err
        out.setdefault("board", {})[which] = board
    return out


@pytest.mark.parametrize("kind", ["grade", "compare", "board"])
def test_hostile_results_make_inert_markdown(reports, kind):
    assert_inert(reports[kind]["hostile"], reports[kind]["plain"])


def test_the_hostile_names_are_in_the_reports_to_be_seen(reports):
    # every hostile text reached at least one report (the fields above are really printed)
    shown = "\n".join(_shown(reports[kind]["hostile"]) for kind in reports)
    assert [h for h in HOSTILE if h.strip() and _visible(h) not in shown] == []
    # the line: the hallucinated names as code spans, each whole, in the most-confused pairs
    line = next(x for x in reports["grade"]["hostile"].splitlines() if x.startswith("Most-confused pairs: "))
    codes = {t.content for t in _tokens(line) if t.type == "code_inline"}
    assert len(codes & {_visible(h) for h in HOSTILE}) >= 3, line


def live_markdown(fake, folder: Path, names: list[str]) -> str:
    """`run --markdown` against the fake provider: its replies call tools named by `names`, with
    argument names from them, its words and a refusal's message are from them too."""
    first, second, third = ("sc-reminder-prescription", "sc-transfer-to-savings", "sc-email-venue-contract")
    called = openai((names[1], {names[9]: names[10], "to": names[0]}), (names[2], {}), text=names[3])
    fake.script.clear()
    fake.script[first] = [(200, {}, json.dumps(called["response"]))]
    fake.script[second] = [(400, {}, json.dumps({"error": {"message": names[4] + names[11]}}))]
    fake.script[third] = [(200, {}, json.dumps(openai(text=names[12])["response"]))]
    folder.mkdir()
    code, _, err = cli("run", "--provider", "openai-compatible", "--base-url", fake.base + "/v1", "--model", "m",
                       "--scope", "should_call", "--cap", "3", "--pause", "0", "--allow-incomplete",
                       "--out", str(folder / "r.json"), "--markdown", str(folder / "r.md"))
    assert code in (0, 1), err
    return (folder / "r.md").read_text(encoding="utf-8")


def test_a_live_run_with_hostile_replies_writes_inert_markdown(fake, tmp_path):
    hostile = live_markdown(fake, tmp_path / "hostile", HOSTILE)
    plain = live_markdown(fake, tmp_path / "plain", PLAIN)
    assert_inert(hostile, plain)


# ---------------------------------------------------------------- every string of a report's object

def replaced(value, names: list[str], keys_at: tuple = ()):
    """A copy of `value` with every string replaced, in walk order, by the next of `names`, and the
    keys of the dicts at the paths `keys_at` (e.g. ("categories",)) too."""
    it = cycle(names)

    def walk(item, path):
        if isinstance(item, str):
            return next(it)
        if isinstance(item, list):
            return [walk(x, path + ("[]",)) for x in item]
        if isinstance(item, dict):
            rename = path in keys_at
            return {(next(it) if rename else k): walk(v, path + (k,)) for k, v in item.items()}
        return item
    return walk(copy.deepcopy(value), ())


@pytest.fixture(scope="module")
def cards(bundle) -> dict:
    plain = evaluate(bundle.cases, bundle.tools, bundle.transcripts)
    cases = parse_suite(suite_doc(), TOOLS, format_schema("suite"))
    wording = evaluate(cases, TOOLS, parse_transcripts(transcripts_doc(every_phrasing()), format_schema("transcripts")))
    sweep = {**plain, "sweep": {"seed": 9, "levels": [
        {"pad": 0, "score": 80.0, "low": 70.0, "high": 90.0, "correct_tool_rate": 0.8, "cases": 3, "cases_planned": 4,
         "tools_offered_mean": 2.5, "input_tokens_mean": 100.0},
        {"pad": 8, "score": None, "low": None, "high": None, "correct_tool_rate": None, "cases": None,
         "tools_offered_mean": None, "input_tokens_mean": None}]}}
    # the lines a card holds only sometimes: notes, warnings and errata that apply
    said = {**plain, "notes": ["a note"], "warnings": ["a warning"],
            "errata": [{"case": "c", "date": "2099-01-01", "changed": "what changed"}]}
    return {"plain": said, "wording": wording, "sweep": sweep}


@pytest.mark.parametrize("name", ["plain", "wording", "sweep"])
def test_every_string_of_a_scorecard_is_inert_in_markdown(cards, name):
    card = cards[name]
    keys = (("categories",), ("robustness", "cases", "[]", "verdicts"))
    hostile = render_markdown(replaced(card, HOSTILE, keys))
    plain = render_markdown(replaced(card, PLAIN, keys))
    assert_inert(hostile, plain)


@pytest.fixture(scope="module")
def objects(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("objects")
    fixtures = json.loads((DATA / "fixtures.json").read_text(encoding="utf-8"))
    a = write(folder, "a.json", fixtures)
    b = write(folder, "b.json", results([f"other_{i}" for i in range(40)]))
    code, comparison, err = cli("compare", a, b, "--allow-mixed", "--format", "json")
    assert code == 0, err
    code, board, err = cli("board", a, b, "--allow-mixed", "--format", "json")
    assert code == 0, err
    return {"comparison": json.loads(comparison), "board": json.loads(board)}


def scenario_strings(card: dict, names: list[str]) -> dict:
    """The card with every string of its scenario entries and its `scenarios` block (world names
    too) taken from `names`; an entry keeps its category and verdict, so it is still read as a
    scenario with that verdict."""
    out = copy.deepcopy(card)
    out["scenarios"] = replaced(card["scenarios"], names, (("by_world",),))
    out["cases"] = [c if c["category"] != "scenario" else
                    {**replaced(c, names), "category": c["category"], "verdict": c["verdict"], "repeats": c["repeats"]}
                    for c in card["cases"]]
    return out


def test_every_string_of_a_scenario_is_inert_in_markdown():
    card = built_card()
    hostile, plain = render_markdown(scenario_strings(card, HOSTILE)), render_markdown(scenario_strings(card, PLAIN))
    assert "## Scenarios" in plain and "### End-state differences" in plain
    assert_inert(hostile, plain)


def test_every_string_of_a_scenario_comparison_and_board_row_is_inert_in_markdown(objects):
    from toolproof.scoring.comparison import compare_runs, run_summary

    def run(card, label):
        return {**run_summary({"model": label}, card["cases"], 1), "suite_sha256": "s", "scenarios": card["scenarios"]}

    card = built_card()
    assert card["cases"][-2]["category"] == "scenario" and card["cases"][-2]["verdict"] == "PASS"
    docs = {}
    for which, names in (("hostile", HOSTILE), ("plain", PLAIN)):
        # the flip is made after the strings are fed, so both runs name the flipped scenario alike
        fed = scenario_strings(card, names)
        worse = copy.deepcopy(fed)
        worse["cases"][-2] = {**worse["cases"][-2], "verdict": "FAIL", "repeats": ["FAIL"], "passes": 0}
        comparison = compare_runs(run(fed, "a"), run(worse, "b"))
        board = copy.deepcopy(objects["board"])
        for row in board["runs"] + board["unranked"]:
            row["scenarios"] = {**comparison["comparison"]["scenarios"]["a"], "interval": {"low": 0.1, "high": 0.9}}
        docs[which] = (render_comparison_markdown(comparison), render_board_markdown(replaced(board, names)))
    assert "Scenario flips" in docs["plain"][0] and "| scenarios |" in docs["plain"][1]
    for hostile, plain in zip(docs["hostile"], docs["plain"]):
        assert_inert(hostile, plain)


def test_every_string_of_a_comparison_is_inert_in_markdown(objects):
    keys = (("comparison", "categories"),)
    hostile = render_comparison_markdown(replaced(objects["comparison"], HOSTILE, keys))
    plain = render_comparison_markdown(replaced(objects["comparison"], PLAIN, keys))
    assert_inert(hostile, plain)


def test_every_string_of_a_leaderboard_is_inert_in_markdown(objects):
    hostile = render_board_markdown(replaced(objects["board"], HOSTILE))
    plain = render_board_markdown(replaced(objects["board"], PLAIN))
    assert_inert(hostile, plain)


# ---------------------------------------------------------------- the checker itself

@pytest.mark.parametrize("md", [
    "![p](http://e.x/p.png)", "[l](http://e.x)", "<img src=x>", "<http://e.x>", "see www.e.x/w",
    "a https://e.x b", "mail a@e.x.co", "<div>\nx\n</div>",
])
def test_the_checker_sees_what_the_escaper_must_stop(md):
    with pytest.raises(AssertionError):
        assert_inert(f"{md} {PLAIN[3]}", f"{md} {PLAIN[3]}")


def test_the_checker_sees_a_changed_structure_and_hidden_text():
    with pytest.raises(AssertionError):                 # emphasis the plain report does not have
        assert_inert(f"| {PLAIN[3]} *b* |\n|---|\n", f"| {PLAIN[3]} b |\n|---|\n")
    with pytest.raises(AssertionError):                 # a hostile text that does not show
        assert_inert("nothing", PLAIN[3])
    with pytest.raises(AssertionError):                 # no field fed at all
        assert_inert("text", "text")
