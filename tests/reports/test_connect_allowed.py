"""connect_allowed: would the page's CSP let fetch() reach a base URL? It reads the URL's origin
with providers' origin_of, the one origin helper."""
from __future__ import annotations

import pytest

from toolproof.reports.page_view import connect_allowed

CSP = "default-src 'self'; connect-src 'self' https://api.openai.com http://localhost:* http://127.0.0.1:*"


@pytest.mark.parametrize("url", ["https://api.openai.com/v1", "https://api.openai.com",
                                 "http://localhost:11434/v1", "http://localhost/v1", "http://127.0.0.1:8080/x",
                                 "HTTP://LOCALHOST:11434/v1"])
def test_allowed(url):
    assert connect_allowed(url, CSP)


@pytest.mark.parametrize("url", ["https://api.openai.com.evil.example/v1", "http://api.openai.com/v1",
                                 "https://localhost:11434/v1", "ftp://localhost/", "not a url", "",
                                 "http://localhost:notaport/", "https://api.openai.com:8443/v1"])
def test_refused(url):
    assert not connect_allowed(url, CSP)


def test_no_connect_src_allows_nothing():
    assert not connect_allowed("http://localhost:11434/v1", "default-src 'self'")
