"""The worker's writes cut into short messages (toolproof/page/batches.py): nothing lost, nothing
reordered, and no message much over its budget of new nodes. Pure, so checked in CPython; the
browser tests check the page built from them."""
from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from toolproof.page.batches import messages

_ids = itertools.count(1)


def node(tag="div", kids=(), **props):
    return [next(_ids), tag, "", props, {}, list(kids), []]


def build(ops: list) -> dict:
    """Apply ops the way web/boot.mjs does, on a toy page: {id: [tag, props, kids]}; returns the
    page's elements by id, "root" being the target of {"id": "root"}."""
    page = {"root": ["root", {}, []]}

    def make(spec):
        if isinstance(spec, str):
            return spec
        if isinstance(spec, dict):
            return spec["ref"]
        page[spec[0]] = [spec[1], dict(spec[3]), [make(kid) for kid in spec[5]]]
        return spec[0]
    for op in ops:
        if op[0] == "append":
            target = "root" if op[1] == {"id": "root"} else op[1]["ref"]
            page[target][2].extend(make(spec) for spec in op[2])
        elif op[0] == "set":
            page["root"][1][op[2]] = op[3]
    return page


def shape(page: dict, key="root"):
    tag, props, kids = page[key]
    return [tag, props, [kid if isinstance(kid, str) else shape(page, kid) for kid in kids]]


def count_new(message: list) -> int:
    def size(spec):
        return 1 if not isinstance(spec, list) else 1 + sum(size(k) for k in spec[5])
    return sum(size(spec) for op in message if op[0] == "append" for spec in op[2])


def test_a_big_piece_goes_as_its_element_then_its_children():
    card = node("section", [node("div", [f"row {i}", node("span", ["x"])]) for i in range(500)], className="card")
    ops = [["set", {"id": "root"}, "title", "before"], ["append", {"id": "root"}, [card]],
           ["set", {"id": "root"}, "hidden", False]]
    sent = messages(ops, most=100)
    assert len(sent) > 10
    assert all(count_new(m) <= 100 for m in sent)
    assert shape(build(ops)) == shape(build([op for m in sent for op in m]))
    assert sent[0][0] == ["set", {"id": "root"}, "title", "before"] and sent[-1][-1][0] == "set"


def test_a_select_keeps_its_options_in_one_message():
    select = node("select", [node("option", [str(i)], value=str(i)) for i in range(400)], value="399")
    sent = messages([["append", {"id": "root"}, [select]]], most=100)
    whole = [m for m in sent if any(op[0] == "append" and any(isinstance(s, list) and s[1] == "select" for s in op[2])
                                    for op in m)]
    assert len(whole) == 1 and count_new(whole[0]) == 801          # the select, its options and their text


def test_small_writes_stay_one_message_and_a_read_stays_last():
    ops = [["append", {"id": "root"}, [node("p", ["a"])]], ["append", {"id": "root"}, [node("p", ["b"])]],
           ["get", {"id": "root"}, "value"]]
    sent = messages(ops)
    assert len(sent) == 1 and sent[0][-1] == ["get", {"id": "root"}, "value"]
    assert len(sent[0]) == 2 and len(sent[0][0][2]) == 2          # the two appends to one target merged


trees = st.recursive(st.text(max_size=3),
                     lambda kids: st.builds(lambda k: node("div", k), st.lists(kids, max_size=12)), max_leaves=300)


@settings(max_examples=60, deadline=None)
@given(st.lists(trees, min_size=1, max_size=6), st.integers(2, 60))
def test_any_pieces_build_the_same_page_in_any_budget(pieces, most):
    ops = [["append", {"id": "root"}, [p]] for p in pieces]
    sent = messages(ops, most=most)
    assert shape(build(ops)) == shape(build([op for m in sent for op in m]))
    assert all(m for m in sent)
