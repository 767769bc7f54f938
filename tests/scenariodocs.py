"""Results documents of scenario runs for the board and compare tests: each bundled scenario of
the worlds in scope played along its first gold path, or its first wrong path for the ids given,
through grading/scenario_paths.py (the transcript a live run of that model writes: each turn as
the provider's body, the calls answered by the world, the text by the scripted user)."""
from __future__ import annotations

from boarddocs import SHA
from toolproof.datafiles import bundled_worlds
from toolproof.grading.scenario_paths import path_transcript

WORLDS = bundled_worlds()


def scenario_doc(model: str, wrong=(), *, scope: str = "scenarios:bank", repeats: int = 1, sha: str | None = SHA,
                 world_sha: str | None = None) -> dict:
    """A live results document of `scope` (stating that plan); `world_sha` replaces every
    transcript's world_sha256 (a run of another version of the world)."""
    worlds = [WORLDS[scope.split(":", 1)[1]]] if ":" in scope else list(WORLDS.values())
    transcripts = []
    for world in worlds:
        for s in world.scenarios:
            path = s.wrong_paths[0] if s.id in wrong else s.gold_paths[0]
            for repeat in range(repeats):
                t = path_transcript(world, s, path, repeat=repeat, model=model)
                if world_sha is not None:
                    t["world_sha256"] = world_sha
                transcripts.append(t)
    doc = {"format": "toolproof.transcripts", "version": 1, "kind": "live", "label": "", "provider": "openai",
           "model": model, "created": "2026-12-06T10:00:00Z", "scope": scope,
           "settings": {"repeats": repeats, "scope": scope}, "transcripts": transcripts}
    if sha:
        doc["suite_sha256"] = sha
    return doc


def bank_ids() -> list[str]:
    return [s.id for s in WORLDS["bank"].scenarios]


def live_doc(model: str, wrong=(), *, scope: str = "scenarios:bank") -> dict:
    """The results file the real runner writes (running/runner.Run, the agent loop) for `scope`
    against the fake model of tests/fakeagent.py playing the same paths as `scenario_doc`,
    answered in-process (no socket)."""
    # lazy: only the tests that run the loop pay for it
    import asyncio
    import json
    from urllib.parse import urlsplit

    from fakeagent import FakeAgent
    from toolproof.running.runner import Run, RunSettings
    from toolproof.running.transport import HttpReply

    def script(s):
        path = s.wrong_paths[0] if s.id in wrong else s.gold_paths[0]
        return [{"calls": [{"tool": c.tool, "arguments": c.arguments} for c in t.calls],
                 **({"say": t.say} if t.say is not None else {})} for t in path.turns]

    fake = FakeAgent({s.user.first: script(s) for w in WORLDS.values() for s in w.scenarios})
    fake.server.server_close()

    async def transport(url, headers, body, timeout):
        status, answer = fake.answer(urlsplit(url).path, body)
        return HttpReply(status, {}, json.dumps(answer), 1.0)

    settings = RunSettings("openai", model, "sk-k", "", scope, 10_000, pause_s=0, concurrency=2)
    run = Run([], {}, settings, transport, worlds=WORLDS, suite_sha256=SHA)
    asyncio.run(asyncio.wait_for(run.run(), 300))        # a hang guard, not a timing
    assert run.state == "done", run.error
    return run.document(created="2026-12-06T10:00:00Z")
