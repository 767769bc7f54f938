"""The one name mapping between a suite and the wire, both directions."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from toolproof.suite.toolnames import name_from_wire, wire_name


def test_wire_name_replaces_every_character_outside_the_portable_set():
    assert wire_name("git.status") == "git_status"
    assert wire_name("play-song_2") == "play-song_2"
    assert wire_name("a.b/c é") == "a_b_c__"


def test_name_from_wire_maps_back_and_leaves_unknown_names_alone():
    names = ["git.status", "get_weather"]
    assert name_from_wire("git_status", names) == "git.status"
    assert name_from_wire("git.status", names) == "git.status"       # a model echoing the original
    assert name_from_wire("get_weather", names) == "get_weather"
    assert name_from_wire("rm_rf", names) == "rm_rf"


@given(st.lists(st.from_regex(r"[A-Za-z0-9_.\-]{1,12}", fullmatch=True), unique=True, max_size=8))
def test_without_collisions_the_mapping_round_trips(names):
    if len({wire_name(n) for n in names}) == len(names):      # no two alike on the wire
        assert all(name_from_wire(wire_name(n), names) == n for n in names)
    assert all(set(wire_name(n)) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
               for n in names)
