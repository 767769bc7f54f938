"""serving/fetch.py with the package clients faked: a download against its pin, the wrappers
around `npm pack` and `pip download`, the line a failed client run is reduced to, and
--update-lock writing the pins. No test touches the network or runs npm or pip."""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import serve
from fakeregistry import FakeFetch
from serving import fetch
from serving.errors import VendorError
from serving.fetch import update_lock, verify_file


def test_hash_mismatch_gives_one_clear_line(tmp_path: Path) -> None:
    file = tmp_path / "attrs-26.1.0-py3-none-any.whl"
    file.write_bytes(b"tampered")
    art = {"name": "attrs", "version": "26.1.0", "sha256": "0" * 64}
    with pytest.raises(VendorError) as info:
        verify_file(file, art)
    text = str(info.value)
    assert text.startswith("sha256 mismatch for attrs-26.1.0-py3-none-any.whl (attrs 26.1.0): "
                           f"expected {'0' * 64}, got {hashlib.sha256(b'tampered').hexdigest()}")
    assert "\n" not in text


def test_missing_npm_is_one_line_and_exit_1(tmp_path: Path, artefacts: Any,
                                            monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    lock, _ = artefacts
    (tmp_path / "vendor.lock.json").write_text(json.dumps(lock))
    monkeypatch.setattr(serve, "ROOT", tmp_path)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert serve.main(["--fetch-only"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == ("serve.py: npm not found on PATH; install Node.js/npm "
                       "(Debian: apt-get install -y npm) and run again")
    assert not any("Traceback" in line for line in err)


def test_npm_pack_maps_names_from_its_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    printed = json.dumps([{"name": "@pyscript/core", "filename": "pyscript-core-0.7.31.tgz"},
                          {"name": "pyodide", "filename": "pyodide-314.0.7.tgz"}])
    monkeypatch.setattr(fetch, "npm_command", lambda: ["npm"])
    monkeypatch.setattr(fetch, "run_client", lambda *a, **k: printed)
    arts = [{"name": "pyodide", "version": "314.0.7"},
            {"name": "@pyscript/core", "version": "0.7.31"}]
    assert fetch.npm_pack(arts, tmp_path) == {
        "pyodide": tmp_path / "pyodide-314.0.7.tgz",
        "@pyscript/core": tmp_path / "pyscript-core-0.7.31.tgz",
    }


def test_pip_download_matches_normalised_wheel_names(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_run(cmd: list[str], cwd: Path, what: str, fix: str) -> str:
        assert "--no-deps" in cmd and "--only-binary=:all:" in cmd and "3.14" in cmd
        (cwd / "jsonschema_specifications-2025.9.1-py3-none-any.whl").write_bytes(b"")
        (cwd / "typing_extensions-4.16.0-py3-none-any.whl").write_bytes(b"")
        return ""

    monkeypatch.setattr(fetch, "run_client", fake_run)
    arts = [{"name": "jsonschema-specifications", "version": "2025.9.1"},
            {"name": "typing-extensions", "version": "4.16.0"}]
    found = fetch.pip_download(arts, tmp_path)
    assert found["typing-extensions"].name == "typing_extensions-4.16.0-py3-none-any.whl"
    with pytest.raises(VendorError, match="did not produce a wheel for attrs"):
        fetch.pip_download([{"name": "attrs", "version": "26.1.0"}], tmp_path)


@pytest.mark.parametrize(("stdout", "stderr", "reason"), [
    ('{"error": {"code": "ETARGET", "summary": "No matching version found for pyodide@9."}}',
     "npm error code ETARGET\nnpm error A complete log of this run can be found in: x.log\n",
     "No matching version found for pyodide@9."),
    ("", "WARNING: x\nERROR: Could not find a version\n"
         "ERROR: No matching distribution found for a==9\n",
     "ERROR: No matching distribution found for a==9"),
    ("", "", "exit code 1"),
])
def test_failure_reason_picks_the_telling_line(stdout: str, stderr: str, reason: str) -> None:
    done = subprocess.CompletedProcess(["x"], 1, stdout=stdout, stderr=stderr)
    assert fetch.failure_reason(done) == reason


def test_update_lock_writes_the_file_name_and_sha256_of_each_fresh_download(tmp_path: Path,
                                                                          artefacts: Any) -> None:
    pinned, files = artefacts
    unpinned = json.loads(json.dumps(pinned))
    for art in unpinned["artifacts"]:
        del art["file"], art["sha256"]
    path = tmp_path / "vendor.lock.json"
    path.write_text(json.dumps(unpinned))
    logged: list[str] = []
    assert update_lock(path, log=logged.append, fetch=FakeFetch(files)) == pinned
    assert json.loads(path.read_text()) == pinned
    assert logged[-1] == f"ToolProof: wrote {path}; review its diff, then delete vendor/ or just run serve.py"
