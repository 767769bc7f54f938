"""The provider records: complete and consistent, and every table that used to list providers
derived from them, so adding a provider is one record (plus its reader and builder)."""
from __future__ import annotations

import ast
import dataclasses
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from recordscan import strings_naming
from toolproof.datafiles import load_suite_files
from toolproof.providers import catalog
from toolproof.providers.catalog import CATALOGUE, PROVIDER, PROVIDERS, Provider, takes_base_url
from toolproof.providers.dispatch import RESERVED_HEADERS, SECRET_HEADERS, endpoint, request_headers, sends_seed
from toolproof.providers.reply import Reply
from toolproof.reports.page_view import KEY_PREFIXES, key_hint

ROOT = Path(__file__).resolve().parents[2]


def test_records_are_frozen_data():
    assert dataclasses.is_dataclass(Provider) and Provider.__dataclass_params__.frozen
    with pytest.raises(dataclasses.FrozenInstanceError):
        CATALOGUE[0].name = "other"        # type: ignore[misc]


def test_names_and_labels_are_unique_and_in_record_order():
    assert PROVIDERS == tuple(p.name for p in CATALOGUE) == tuple(PROVIDER)
    assert len(set(PROVIDERS)) == len(PROVIDERS)
    assert len({p.label for p in CATALOGUE}) == len(CATALOGUE)


@pytest.mark.parametrize("spec", CATALOGUE, ids=lambda p: p.name)
def test_every_provider_has_a_reader_and_a_builder(spec):
    assert isinstance(spec.reader({}), Reply)              # a reader never raises
    assert isinstance(spec.reader("not json"), Reply)
    bundle = load_suite_files()
    case = bundle.cases[0]
    body = spec.builder(case, [bundle.tools[t] for t in case.tools], model="m", first=None, mocks=None,
                        max_tokens=64)
    assert isinstance(body, dict) and 64 in json_values(body)


def json_values(value):
    """Every scalar in a JSON value (where the token limit went is the builder's business)."""
    if isinstance(value, dict):
        return [v for item in value.values() for v in json_values(item)]
    if isinstance(value, list):
        return [v for item in value for v in json_values(item)]
    return [value]


@pytest.mark.parametrize("spec", CATALOGUE, ids=lambda p: p.name)
def test_every_record_is_complete_and_consistent(spec):
    assert spec.label and spec.placeholder.startswith("e.g. ") and spec.key_variable.endswith("_API_KEY")
    assert spec.version.startswith("/v") and spec.path.startswith("/")
    assert spec.sends <= {"temperature", "seed"} and "temperature" in spec.sends
    # the page shows the base-URL field exactly when the provider takes a base URL
    assert bool(spec.base_hint) == (not spec.base_fixed) == takes_base_url(spec.name)
    # no default base: the user must give one, so the hint is an example, not "optional"
    assert spec.base or not spec.base_hint.startswith("optional")
    assert not (spec.base_fixed and not spec.base)
    # a key's prefix comes with what the hint calls it and who issues it, or none of the three
    assert bool(spec.key_prefix) == bool(spec.key_kind) == bool(spec.key_issuer)
    assert spec.key_header in SECRET_HEADERS and spec.key_header in RESERVED_HEADERS


def test_one_prefix_names_one_kind_of_key():
    kinds: dict[str, str] = {}
    for spec in CATALOGUE:
        if spec.key_prefix:
            assert kinds.setdefault(spec.key_prefix, spec.key_kind) == spec.key_kind
    assert KEY_PREFIXES == (("sk-ant-", "an Anthropic key"), ("AIza", "a Google (Gemini) key"), ("sk-", "an OpenAI key"))


def test_key_hint_names_the_other_kind_and_the_chosen_issuer():
    assert key_hint("openai-responses", "sk-ant-123") == (
        "This key starts with sk-ant-, which is how an Anthropic key starts, but the provider is OpenAI: "
        "check the provider or the key (it is sent as it is).")
    assert key_hint("gemini", "sk-abc") == (
        "This key starts with sk-, which is how an OpenAI key starts, but the provider is Google Gemini: "
        "check the provider or the key (it is sent as it is).")
    assert key_hint("anthropic", "sk-ant-1") == key_hint("openai-compatible", "AIza1") == ""
    assert key_hint("no-such-provider", "sk-1") == ""


@pytest.mark.parametrize("spec", CATALOGUE, ids=lambda p: p.name)
def test_endpoint_and_headers_come_from_the_record(spec):
    base = spec.base or "http://localhost:8000"
    url = endpoint(spec.name, "" if spec.base else base, "m")
    assert url.startswith(base.rstrip("/").removesuffix(spec.version)) and "/v" in url
    assert url.endswith(spec.path.format(model="m"))
    headers = request_headers(spec.name, "KEY")
    assert "KEY" in headers[spec.key_header]
    assert list(headers)[:2] == ["content-type", spec.key_header]
    assert all(headers[name] == value for name, value in spec.fixed_headers)
    assert sends_seed(spec.name) == ("seed" in spec.sends)


class _Options(HTMLParser):
    def __init__(self):
        super().__init__()
        self.options, self._in, self._select = [], None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "select":
            self._select = attrs.get("id") == "provider"
        elif tag == "option" and self._select:
            self._in = attrs["value"]

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = False

    def handle_data(self, data):
        if self._in is not None:
            self.options.append((self._in, data))
            self._in = None


def test_the_transcripts_schema_names_the_records_in_their_order():
    # a JSON Schema cannot read the records: this test is what keeps its list one with them
    schema = json.loads((ROOT / "data" / "schemas" / "transcripts.schema.json").read_text(encoding="utf-8"))
    provider = schema["properties"]["transcripts"]["items"]["properties"]["provider"]
    assert provider["enum"] == list(PROVIDERS)


def test_the_page_select_lists_the_records_in_their_order():
    parser = _Options()
    parser.feed((ROOT / "index.html").read_text(encoding="utf-8"))
    assert parser.options == [(p.name, p.label) for p in CATALOGUE]


# Modules that once held a table keyed by provider: now each reads the records, so no provider
# name may appear in a string of theirs (docstrings aside).
DERIVED = ("toolproof/providers/dispatch.py", "toolproof/cli/live.py", "toolproof/page/runform.py",
           "toolproof/reports/page_view.py", "toolproof/running/runner.py", "toolproof/running/settings.py")
NAME = re.compile(r"(?<![\w.-])(" + "|".join(map(re.escape, sorted(PROVIDERS, key=len, reverse=True))) + r")(?![\w.-])")


@pytest.mark.parametrize("module", DERIVED)
def test_tables_keyed_by_provider_are_derived_from_the_records(module):
    assert strings_naming(ROOT / module, NAME) == []


def test_the_scan_sees_a_provider_table(tmp_path):
    """The check above can fail: a table like the ones it replaced is found, a docstring is not."""
    path = tmp_path / "probe.py"
    path.write_text('"""doc: gemini"""\nKEYS = {"openai": "OPENAI_API_KEY", "x": "api.openai.com"}\n'
                    'HINT = f"use --provider openai-compatible {KEYS}"\n', encoding="utf-8")
    assert strings_naming(path, NAME) == ["openai", "use --provider openai-compatible "]


def test_the_catalogue_module_is_data_only():
    """Records and one lookup: no other function hides a per-provider rule here."""
    functions = [n.name for n in ast.walk(ast.parse(Path(catalog.__file__).read_text(encoding="utf-8")))
                 if isinstance(n, ast.FunctionDef)]
    assert functions == ["takes_base_url"]
