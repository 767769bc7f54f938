"""origin_of: the one helper that names where a URL points (`scheme://host[:port]/`), for
messages (running/retries.py, page/transport.py) and for the page's CSP check
(reports/page_view.connect_allowed)."""
from __future__ import annotations

import pytest

from toolproof.providers.dispatch import origin_of


@pytest.mark.parametrize("url, origin", [
    ("https://api.openai.com/v1/chat/completions", "https://api.openai.com/"),
    ("http://localhost:11434/v1", "http://localhost:11434/"),
    ("http://127.0.0.1:8080", "http://127.0.0.1:8080/"),
    ("HTTPS://API.Example.COM/x", "https://api.example.com/"),          # scheme and host as a browser reads them
    ("https://user:secret@host.example/v1?key=k#f", "https://host.example/"),   # never userinfo, query or path
    ("http://[::1]:9000/v1", "http://[::1]:9000/"),
    ("ftp://files.example/a", "ftp://files.example/"),
])
def test_origin_of_names_scheme_host_and_port_only(url, origin):
    assert origin_of(url) == origin


@pytest.mark.parametrize("url", ["", "not a url", "/v1/chat", "http://", "http://host:notaport/",
                                 "http://host:99999/", "http://[::1/"])
def test_origin_of_an_unreadable_url_says_so(url):
    assert origin_of(url) == "an unreadable address"
