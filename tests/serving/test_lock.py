"""serving/lock.py: the committed lock is valid, and every bad lock file or entry is refused with
one line naming the file, the entry and the problem."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fakesite import fake_repo
from serving.errors import VendorError
from serving.lock import load_lock, lock_digest

REPO = Path(__file__).resolve().parents[2]


def test_committed_lock_is_valid_and_pins_every_artefact() -> None:
    lock = load_lock(REPO / "vendor.lock.json")
    names = {a["name"]: a for a in lock["artifacts"]}
    assert names["pyodide"]["version"] == "314.0.7"
    assert names["@pyscript/core"]["version"] == "0.7.31"
    assert {a["source"] for a in lock["artifacts"]} == {"npm", "pip"}
    wheels = [a for a in lock["artifacts"] if a["source"] == "pip"]
    assert len(wheels) == 7 and all(a["file"].endswith(".whl") for a in wheels)


@pytest.mark.parametrize(("change", "message"), [
    # Why: dest is rmtree'd on refetch, so it must never climb out of vendor/.
    ({"dest": "../etc"}, "'dest' must be a plain folder name, not '../etc'"),
    ({"sha256": "abc"}, "'sha256' must be 64 lowercase hex digits"),
    ({"source": "conda"}, "'source' must be \"npm\" or \"pip\", not 'conda'"),
    ({"version": ""}, "'version' must be a non-empty string"),
    ({"unpack": None}, "an npm artefact needs 'unpack' (a folder in the tarball)"),
])
def test_bad_lock_entries_are_named(tmp_path: Path, artefacts: Any, change: dict,
                                    message: str) -> None:
    lock, _ = artefacts
    lock["artifacts"][0].update(change)
    path = tmp_path / "vendor.lock.json"
    path.write_text(json.dumps(lock))
    with pytest.raises(VendorError) as info:
        load_lock(path)
    assert str(info.value) == f"{path}: artifacts[0]: {message}"


def test_missing_and_broken_lock_files(tmp_path: Path) -> None:
    with pytest.raises(VendorError, match="not found; restore it from git"):
        load_lock(tmp_path / "nope.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(VendorError, match="is not valid JSON"):
        load_lock(broken)
    broken.write_text('{"artifacts": []}')
    with pytest.raises(VendorError, match="non-empty list 'artifacts'"):
        load_lock(broken)


def test_lock_digest_ignores_key_order() -> None:
    a = {"artifacts": [{"name": "x", "version": "1"}]}
    b = {"artifacts": [{"version": "1", "name": "x"}]}
    assert lock_digest(a) == lock_digest(b)
    assert lock_digest(a) != lock_digest({"artifacts": [{"name": "x", "version": "2"}]})


@pytest.mark.parametrize("bad", [{"boot": "x"}, {"boot": [], "on_demand": ["../etc/passwd"]},
                                 {"boot": ["nowhere/x.js"], "on_demand": []}, {"boot": [1], "on_demand": []}])
def test_a_malformed_page_list_in_the_lock_is_refused(tmp_path, bad):
    root = tmp_path / "repo"
    lock, _ = fake_repo(root)
    lock["page_loads"] = bad
    (root / "vendor.lock.json").write_text(json.dumps(lock))
    with pytest.raises(VendorError, match="page_loads"):
        load_lock(root / "vendor.lock.json")
