"""serving/site.py: request paths never climb out of the site or name a hidden file, and
--connect takes origins only. (What the allow-list lets through, over HTTP: test_server.py.)"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from serving.errors import VendorError
from serving.site import check_origin, request_path


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab./\\%2e5cf0:?#\x00 ")), max_size=24))
def test_request_paths_never_climb_or_name_hidden_files(raw: str) -> None:
    rel = request_path("/" + raw)
    if rel is not None:
        parts = rel.split("/")
        assert all(p and p not in (".", "..") and not p.startswith(".") for p in parts)
        assert not any(c in rel for c in "\\:\x00")


@pytest.mark.parametrize("origin", ["llm.example.net", "https://x.net/v1", "https://a b", "javascript:alert(1)"])
def test_connect_refuses_what_is_not_an_origin(origin: str) -> None:
    with pytest.raises(VendorError, match="--connect wants an origin"):
        check_origin(origin)
