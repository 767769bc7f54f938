"""The bridge's two halves keep one list of everything a message may do: the kinds of op, the
properties and methods allowed, the order of a node spec's fields and the ways a message names a
page object agree between the Python (toolproof/page/batches.py's table, page/bridge.py's use of
it) and the page's builder (web/boot.mjs). Pure: web/boot.mjs is read as text, no browser."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from toolproof.page.batches import KINDS, METHODS, PROPS, SPEC, WRITABLE

ROOT = Path(__file__).resolve().parents[2]
BOOT = (ROOT / "web" / "boot.mjs").read_text(encoding="utf-8")
BRIDGE = (ROOT / "toolproof" / "page" / "bridge.py").read_text(encoding="utf-8")
PAGE = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "toolproof" / "page").glob("*.py")))


def js_function(name: str) -> str:
    """The text of a top-level `function name(...) { ... }` of web/boot.mjs."""
    return re.search(rf"^function {name}\(.*?^\}}", BOOT, re.S | re.M).group(0)


def js_set(name: str) -> tuple[set[str], set[str]]:
    """`const NAME = new Set([...])`: its string items, and the sets it spreads in (`...PROPS`)."""
    items = re.search(rf"^const {name} = new Set\(\[(.*?)\]\);", BOOT, re.S | re.M).group(1)
    return set(re.findall(r'"(\w+)"', items)), set(re.findall(r"\.\.\.(\w+)", items))


def test_the_property_lists_agree():
    props, spread = js_set("PROPS")
    assert (props, spread) == (set(PROPS), set())
    writable, spread = js_set("WRITABLE")
    assert spread == {"PROPS"} and writable | props == set(WRITABLE)


def test_the_method_lists_agree():
    assert js_set("METHODS") == (set(METHODS), set())


def test_the_page_applies_exactly_the_kinds_of_the_table():
    apply = js_function("apply")
    kinds = set(re.findall(r'kind === "(\w+)"', apply)) | set(re.findall(r'case "(\w+)":', apply))
    kinds |= set(re.findall(r'op\[0\] === "(\w+)"', js_function("run")))
    assert kinds == set(KINDS)
    assert "default: throw new Error(`unknown page operation" in apply      # and refuses any other


def test_every_op_the_python_sends_is_in_the_table_as_what_it_is():
    queued = set(re.findall(r'push\(\["(\w+)"', PAGE))
    read = set(re.findall(r'flush\(\["(\w+)"', PAGE))
    trip = set(re.findall(r'json\.dumps\(\[\["(\w+)"\]\]\)', BRIDGE)) | set(re.findall(r'ops\.insert\(0, \["(\w+)"', BRIDGE))
    assert {k: KINDS[k].sent for k in queued | read | trip} == {
        **{k: "queued" for k in queued}, **{k: "read" for k in read}, **{k: "trip" for k in trip}}
    # page/batches.py adds appends of its own when it cuts a big piece; "append" reaches push as a
    # Live method's write, so every kind of the table is sent by some line
    assert queued | read | trip == set(KINDS)


def test_a_node_spec_has_its_fields_in_one_order():
    destructured = re.search(r"const \[([\w, ]+)\] = spec;", js_function("build")).group(1)
    assert tuple(destructured.split(", ")) == SPEC
    built = re.search(r"return \[(self\._id, [^\]]+)\]", BRIDGE).group(1)
    assert tuple(field.strip().removeprefix("self._") for field in built.split(",")) == SPEC


def test_a_page_object_is_named_the_same_ways_on_both_sides():
    named_by_python = set(re.findall(r'\{(?:\*\*self\._at, )?"(\w+)": ', BRIDGE))
    target = js_function("target")
    read_by_page = set(re.findall(r"where\.(\w+)", target))
    assert named_by_python == read_by_page == {"id", "ref", "arg", "body", "doc", "closest"}


@pytest.mark.parametrize("name", ["attr", "build"])
def test_an_attribute_starting_with_on_is_refused_by_the_page(name):
    """Attributes are not a list on either side: the page refuses every on* name, in the op that
    sets one and in a built node."""
    where = js_function("apply") if name == "attr" else js_function("build")
    assert re.search(r'/\^on/i\.test\([\w\[\]]+\)\) refuse\("attribute"', where)


def test_the_table_in_docs_page_md_is_the_codes():
    text = (ROOT / "docs" / "page.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (\w+) \| (.*?) \| (.*?) \|$", text, re.M)
    assert rows == [(kind, k.sent, k.carries or "(nothing)", k.page) for kind, k in KINDS.items()]


def test_an_answer_is_refused_before_it_could_outgrow_pyscripts_channel():
    """web/boot.mjs refuses a page answer over TRIP_BYTES (issue 36 item 3): it must fit in the
    SharedArrayBuffer PyScript answers the worker through, or the worker waits for it forever."""
    trip = re.search(r"^const TRIP_BYTES = (\d+) \* 2 \*\* (\d+);", BOOT, re.M)
    vendored = "\n".join(p.read_text(encoding="utf-8", errors="replace")
                         for p in (ROOT / "vendor" / "pyscript").glob("core-*.js"))
    if not vendored:
        pytest.skip("vendor/ not fetched (python serve.py --fetch-only)")
    channel = re.search(r"maxByteLength:e\?\.maxByteLength\|\|(\d+)", vendored)
    assert trip and channel, "TRIP_BYTES or PyScript's channel size not found"
    # a margin for the answer's framing (its type and length before the UTF-8 bytes)
    assert int(trip.group(1)) * 2 ** int(trip.group(2)) <= int(channel.group(1)) - 64 * 1024
    assert "window.toolproofOps = (text, ...args) => carried(run(text, args));" in BOOT
