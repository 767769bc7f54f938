"""Every bundled scenario run live, through the agent loop, in all five wire formats, against a
fake model that plays one of the scenario's gold paths (tests/fakeagent.py): each gets a verdict,
and it is PASS, as the same path replayed offline is (tests/worlds/test_bundled.py); the requests
sent are the model turns the path takes. What a model does in a run, not only in a replay."""
from __future__ import annotations

import asyncio
import json
from urllib.parse import urlsplit

import pytest

from fakeagent import FakeAgent
from toolproof.datafiles import bundled_worlds
from toolproof.providers.catalog import PROVIDERS
from toolproof.running.runner import Run, RunSettings
from toolproof.running.transport import HttpReply

WORLDS = bundled_worlds()
SCENARIOS = [s for w in WORLDS.values() for s in w.scenarios]


def scripts(path_index: int) -> dict:
    """The fake model's turns for each scenario: its gold path (the last one it has, when it has
    fewer), by the scenario's first user message."""
    out = {}
    for s in SCENARIOS:
        path = s.gold_paths[min(path_index, len(s.gold_paths) - 1)]
        out[s.user.first] = [{"calls": [{"tool": c.tool, "arguments": c.arguments} for c in t.calls],
                              **({"say": t.say} if t.say is not None else {})} for t in path.turns]
    return out


@pytest.mark.parametrize("path_index", [0, 1])
@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_bundled_scenario_gets_a_verdict_and_its_gold_path_passes(provider, path_index):
    fake = FakeAgent(scripts(path_index))
    fake.server.server_close()
    urls = []

    async def transport(url, headers, body, timeout):
        urls.append(url)
        status, answer = fake.answer(urlsplit(url).path, body)
        return HttpReply(status, {}, json.dumps(answer), 1.0)

    settings = RunSettings(provider, "gpt-5-mini", "sk-k", "" if provider == "openai" else "http://model.test",
                           "scenarios", 10_000, pause_s=0, concurrency=4)
    run = Run([], {}, settings, transport, worlds=WORLDS)
    asyncio.run(asyncio.wait_for(run.run(), 300))        # a hang guard, not a timing
    assert run.state == "done", run.error
    assert [t["case_id"] for t in run.transcripts] == [s.id for s in SCENARIOS]
    failed = {r.case_id: r.reasons[:2] for r in run.results if r.verdict != "PASS"}
    assert failed == {}
    assert len(urls) == run.used == sum(len(t["turns"]) for t in run.transcripts)
