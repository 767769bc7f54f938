"""Provider wire formats: requests going out, replies coming in, and the second turn, as pure
functions. `dispatch` picks the format by provider name; one module per wire format.
"""
from __future__ import annotations

from .dispatch import PROVIDERS, base_url_problem, endpoint, origin_of, public_headers, reply_from_body, request_body, request_headers

__all__ = ['PROVIDERS', 'base_url_problem', 'endpoint', 'origin_of', 'public_headers', 'reply_from_body', 'request_body', 'request_headers']
