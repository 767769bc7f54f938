"""What an arm is, as a user writes it: `--arm NAME:KEY=VALUE[,KEY=VALUE...]` on the command line
or `{"name": NAME, KEY: VALUE, ...}` in an arms file (a JSON list), checked into `Arm` records.

An arm runs the same plan as every other arm of the run under its own settings; the first arm is
the baseline every other is compared with (arms/analysis.py). An arm that does not set a key
sends what a plain run sends. Keys (names fixed: checks outside the test suite use them):
- sending: `provider`, `model`, `temperature`, `seed`, `max_tokens`;
- provider knobs (arms/knobs.py maps them per wire format): `strict`, `tool_choice`,
  `parallel_tool_calls`, `reasoning_effort`;
- what the model is shown of the tools: `tools` (a tools file, read by the edge), `ablate`
  (operators joined with `+`, arms/ablation.py) and `ablate_seed` (the `order` operator's seed).

Pure: no I/O. Must not read the `tools` file (the edge does) nor decide what a knob sends.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from toolproof.errors import ToolProofError
from toolproof.limits import MAX_BYTES, ReadError, read_json
from toolproof.providers.catalog import PROVIDERS
from toolproof.running.settings import check_value
from toolproof.safe_text import printable
from toolproof.arms.ablation import parse_ablate

MAX_ARMS = 16           # each arm is the whole plan again: 16 already sends 16 times the requests
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
TOOL_NAME = re.compile(r"^[A-Za-z0-9_.:@-]{1,128}$")
BOOLEANS = {"true": True, "false": False}
SENDING = ("provider", "model", "temperature", "seed", "max_tokens")
KNOB_KEYS = ("strict", "tool_choice", "parallel_tool_calls", "reasoning_effort")
SHOWN = ("tools", "ablate", "ablate_seed")
KEYS = SENDING + KNOB_KEYS + SHOWN
CHOICES = ("auto", "required", "none")


@dataclass(frozen=True)
class Arm:
    """One arm: its name and the settings it sets (only those; anything absent is the plain run's)."""
    name: str
    settings: dict = field(default_factory=dict)

    @property
    def knobs(self) -> dict:
        return {k: self.settings[k] for k in KNOB_KEYS if k in self.settings}

    @property
    def ablate(self) -> tuple:
        return parse_ablate(self.settings["ablate"]) if "ablate" in self.settings else ()

    @property
    def seed(self) -> int:
        return self.settings.get("ablate_seed", 0)


def _fail(where: str, message: str) -> ToolProofError:
    return ToolProofError(f"{where}: {message}")


def _shown(value: object) -> str:
    return repr(printable(str(value)[:40]))


def check_value_of(key: str, value: object, where: str) -> object:
    """One key's value, typed and within its bound, or ToolProofError naming the arm and the key.
    Text from the command line ("true", "0.2") and JSON values get one verdict."""
    if key in ("strict", "parallel_tool_calls"):
        if isinstance(value, str) and value.lower() in BOOLEANS:
            return BOOLEANS[value.lower()]
        if isinstance(value, bool):
            return value
        raise _fail(where, f"{key} must be true or false, got {_shown(value)}")
    if key in ("temperature", "seed", "max_tokens", "ablate_seed"):
        bound = "pad_seed" if key == "ablate_seed" else key
        checked, problem = check_value(bound, value)
        if problem is not None or checked is None:
            phrase = problem.phrase if problem is not None else "a number"
            raise _fail(where, f"{key} must be {phrase}, got {_shown(value)}")
        return checked
    if not isinstance(value, str) or not value.strip():
        raise _fail(where, f"{key} must be a non-empty text, got {_shown(value)}")
    value = value.strip()
    if key == "provider" and value not in PROVIDERS:
        raise _fail(where, f"provider must be one of {', '.join(PROVIDERS)}, got {_shown(value)}")
    if key == "tool_choice" and value not in CHOICES and not TOOL_NAME.match(value):
        raise _fail(where, f"tool_choice must be auto, required, none or a tool's name, got {_shown(value)}")
    if key == "ablate":
        return "+".join(parse_ablate(value))
    if key in ("model", "reasoning_effort", "tools") and (len(value) > 500 or not value.isprintable()):
        raise _fail(where, f"{key} must be printable and at most 500 characters")
    return value


def arm_from(raw: object, where: str) -> Arm:
    """An arms file's entry ({"name": ..., KEY: VALUE}) as an Arm, or ToolProofError."""
    if not isinstance(raw, dict):
        raise _fail(where, "an arm must be an object with a name and its settings")
    name = raw.get("name")
    if not isinstance(name, str) or not NAME.match(name):
        raise _fail(where, "name must be 1-40 letters, digits, '_', '.' or '-' (starting with a letter or "
                    f"digit), got {_shown(name)}")
    settings = {}
    for key, value in raw.items():
        if key == "name":
            continue
        if key not in KEYS:
            raise _fail(f"{where} ({name})", f"unknown key {_shown(key)} (keys: {', '.join(KEYS)})")
        settings[key] = check_value_of(key, value, f"{where} ({name})")
    if "ablate_seed" in settings and "order" not in settings.get("ablate", ""):
        raise _fail(f"{where} ({name})", "ablate_seed seeds the order operator: add ablate=order")
    return Arm(name, settings)


def parse_arm(text: str, where: str = "--arm") -> Arm:
    """`NAME:KEY=VALUE[,KEY=VALUE...]` (a name alone: the plain run's settings) as an Arm."""
    name, _, rest = text.partition(":")
    raw: dict = {"name": name.strip()}
    for part in filter(None, (p.strip() for p in rest.split(","))) if rest.strip() else ():
        key, sep, value = part.partition("=")
        if not sep:
            raise _fail(where, f"{_shown(part)} must be KEY=VALUE")
        if key.strip() in raw:
            raise _fail(where, f"{_shown(key.strip())} is given twice")
        raw[key.strip()] = value.strip()
    return arm_from(raw, where)


def parse_arms_file(text: str, source: str, what: str = "the arms file") -> list[Arm]:
    """An arms file: a JSON list of arm objects (ToolProofError naming the file and the entry)."""
    try:           # the one reader of untrusted JSON: size, depth (no recursion), NaN (toolproof.limits)
        raw = read_json(text, what=what, max_bytes=MAX_BYTES)
    except ReadError as exc:
        raise ToolProofError(f"{source}: {exc.in_file()}") from None
    if not isinstance(raw, list):
        raise ToolProofError(f"{source}: an arms file is a JSON list of arms ([{{\"name\": ...}}, ...])")
    return check_arms([arm_from(entry, f"{source}[{i}]") for i, entry in enumerate(raw[:MAX_ARMS + 1])])


def check_arms(arms: list[Arm]) -> list[Arm]:
    """Two to MAX_ARMS arms with distinct names (the first is the baseline)."""
    if len(arms) < 2:
        raise ToolProofError("arms: give at least two (the first is the baseline the others are compared with)")
    if len(arms) > MAX_ARMS:
        raise ToolProofError(f"arms: at most {MAX_ARMS} (each runs the whole plan again)")
    choice = arms[0].settings.get("tool_choice")
    if choice is not None and choice not in CHOICES:
        raise ToolProofError(f"arms: the baseline ({arms[0].name}) runs every case, so it cannot name a tool in "
                             "tool_choice (a case that does not offer it could not be sent): name it in another arm")
    seen = set()
    for arm in arms:
        if arm.name in seen:
            raise ToolProofError(f"arms: the name {arm.name!r} is used twice")
        seen.add(arm.name)
    return arms


def described(arm: Arm) -> str:
    """'strict=true, tool_choice=required' (or 'the plain run's settings'): how views name an arm's settings."""
    if not arm.settings:
        return "the plain run's settings"
    return ", ".join(f"{k}={json.dumps(v) if isinstance(v, bool) else v}" for k, v in arm.settings.items())
