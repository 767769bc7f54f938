"""A run's results file and what it left unsent: the transcripts format, kind "live", as the
terminal writes it after every case and the page keeps and exports it (re-grades offline).

Pure: reads a running.runner.Run, writes nothing.
"""
from __future__ import annotations

from toolproof.providers.catalog import takes_base_url
from toolproof.secrets import redact
from .arm_send import probes_sent
from .workplan import unstarted


def not_started(run) -> list[dict]:
    """Every plan item without a transcript, and why: [{case_id, repeat, pad?, reason}] in plan
    order. Listed once the run is over (while it runs, the rest is simply still to come)."""
    if run.state in ("idle", "running"):
        return []
    if run._halt or run.error:
        why = f"the run stopped: {run._halt or run.error}"
    elif run._abort.is_set() or run.state == "aborted":    # the CLI's Ctrl-C sets the state
        why = "the run was aborted"
    else:
        why = f"the request cap ({run.ledger.cap}) could not cover its requests"
    return unstarted(run.work, {d[0] for d in run._done}, run._started, why)


def run_document(run, created: str) -> dict:
    """The results file: the transcripts format, kind "live" (re-grades offline).

    Written after every case while the run goes, so `state` may still read "running" in a
    file a crash left behind; it re-grades all the same. Once the run is over, `not_started`
    lists every plan item that has no transcript and why (absent when there is none).
    """
    s = run.settings
    head = redact({
        "format": "toolproof.transcripts", "version": 1, "kind": "live", "label": "",
        "provider": s.provider, "model": s.model, "created": created, "scope": s.scope,
        "base_url": s.base_url if takes_base_url(s.provider) else "",     # a fixed endpoint's is not the user's
        "cap": s.cap, "requests_used": run.used, "state": run.state,
        "error": run.error, "settings": s.recorded(),
        **({"sweep": {"seed": s.pad_seed, "levels": list(s.pad_levels)}} if s.pad_levels else {}),
        **({"suite_sha256": run.suite_sha256} if run.suite_sha256 else {}),
        **({"not_started": missing} if (missing := run.not_started()) else {}),
        **({"arms": [arm.recorded() for arm in run.arms], "probes": probes_sent(run.arms)} if run.arms else {}),
    }, keys=run.secrets())
    # Redacted like every output: a key the model or a server echoed stays out, by its
    # format and by its value (each transcript when it finished: see _record).
    return {**head, "transcripts": [done[3] for done in run._done]}
