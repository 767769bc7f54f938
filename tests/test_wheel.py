"""pip install works: the sdist and the wheel carry the suite, and the installed tool runs anywhere.

One build per module (the slow part): copy the checkout, build the sdist with the backend that
pyproject.toml names, build the wheel *from that sdist* (so a file the sdist forgets fails here),
install the wheel into a fresh venv, then run the installed `toolproof` from an empty folder
outside the checkout. The folder holds a broken `data/` and the venv's site-packages a stray
`data/` (what the wheel once relied on): the installed tool must read neither.
pip must reach the package index (setuptools to build, jsonschema for the venv), as tests/run.py
does. About 15-25 s on this 2-core machine, most of it venv creation and pip.
"""
from __future__ import annotations

import email.parser
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from fakeprovider import FIXTURES, FakeProvider
from toolproof import __version__
from toolproof.cli.main import run

ROOT = Path(__file__).resolve().parent.parent
NOT_COPIED = (".git", "vendor", "__pycache__", "*.pyc", "test-artifacts", "build", "dist", "*.egg-info",
              ".venv", ".hypothesis", ".pytest_cache")
KEY = "sk-wheel-secret-7"
# Calls one PEP 517 hook of the build backend, with nothing on sys.path but the stdlib and the
# backend's own folder (-S: not even site-packages, whose setuptools may be older): what pip's
# build isolation does, without pip creating an environment per build.
HOOK = ("import importlib, sys; sys.path.insert(0, sys.argv[1]); "
        "print(getattr(importlib.import_module(sys.argv[2]), sys.argv[3])(sys.argv[4]))")


def data_files() -> dict[str, bytes]:
    """Every file of the checkout's data/ tree, by its path relative to data/."""
    data = ROOT / "data"
    return {p.relative_to(data).as_posix(): p.read_bytes() for p in sorted(data.rglob("*")) if p.is_file()}


def package_modules() -> set[str]:
    return {p.relative_to(ROOT).as_posix() for p in (ROOT / "toolproof").rglob("*.py")}


def call(cmd: list, *, cwd: Path, env: dict | None = None, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def checked(cmd: list, *, cwd: Path) -> str:
    done = call(cmd, cwd=cwd)
    assert done.returncode == 0, f"{cmd} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


def build(hook: str, source: Path, out: Path, backend_lib: Path, backend: str) -> Path:
    out.mkdir(exist_ok=True)
    name = checked([sys.executable, "-S", "-c", HOOK, backend_lib, backend, hook, out], cwd=source)
    return out / name.strip().splitlines()[-1]


def clean_env() -> dict:
    """The caller's environment without anything that could put the checkout on sys.path or send
    a request to 127.0.0.1 through a proxy."""
    drop = {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV"}
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.lower().endswith("_proxy")}
    return {**env, "PYTHONNOUSERSITE": "1", "PYTHONIOENCODING": "utf-8"}


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> SimpleNamespace:
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "checkout"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*NOT_COPIED))
    system = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]
    backend_lib = tmp / "backend"
    checked([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "--target", backend_lib, *system["requires"]], cwd=tmp)
    sdist = build("build_sdist", source, tmp / "dist", backend_lib, system["build-backend"])
    with tarfile.open(sdist) as tar:
        unpacked = tmp / "unpacked"
        tar.extractall(unpacked, filter="data")
    top = sdist.name.removesuffix(".tar.gz")
    wheel = build("build_wheel", unpacked / top, tmp / "dist", backend_lib, system["build-backend"])
    venv = tmp / "venv"
    checked([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp)     # ensurepip: seconds
    python = venv / "bin" / "python"
    checked([sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--disable-pip-version-check",
             wheel], cwd=tmp)                                                 # with its dependencies
    site = Path(checked([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], cwd=tmp).strip())
    (site / "data").mkdir()                          # another distribution's top-level data/
    (site / "data" / "tools.json").write_text("stray", encoding="utf-8")
    elsewhere = tmp / "elsewhere"
    (elsewhere / "data").mkdir(parents=True)          # a user's folder that happens to hold a data/
    (elsewhere / "data" / "tools.json").write_text("{not json", encoding="utf-8")
    return SimpleNamespace(sdist=sdist, top=top, wheel=wheel, bin=venv / "bin", site=site, elsewhere=elsewhere)


def installed(dist, *argv: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """The installed console script, run from the folder outside the checkout."""
    return call([dist.bin / "toolproof", *argv], cwd=dist.elsewhere, env=env or clean_env(), timeout=120)


# --- what the archives hold -------------------------------------------------------------------

def test_the_sdist_holds_the_data_and_the_project(dist):
    with tarfile.open(dist.sdist) as tar:
        names = {m.name.removeprefix(dist.top + "/") for m in tar.getmembers() if m.isfile()}
        for rel, content in data_files().items():
            assert tar.extractfile(f"{dist.top}/data/{rel}").read() == content, rel
    assert package_modules() <= names
    assert {"pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "index.html", "sw.js", "serve.py",
            "vendor.lock.json", "web/pyscript.json", "tests/conftest.py", "tests/fakeprovider.py",
            "tests/test_wheel.py"} <= names
    serving = {p.relative_to(ROOT).as_posix() for p in (ROOT / "serving").glob("*.py")}
    assert "serving/__init__.py" in serving and serving <= names          # serve.py's parts travel with it
    assert not {n for n in names if n.startswith("vendor/") or "__pycache__" in n or n.endswith(".pyc")}


def test_the_wheel_holds_every_module_and_every_data_file(dist):
    with zipfile.ZipFile(dist.wheel) as whl:
        names = set(whl.namelist())
        for rel, content in data_files().items():
            assert whl.read(f"toolproof/data/{rel}") == content, rel
    # found on disk, not listed by hand: a new subpackage with an __init__.py ships by itself
    assert package_modules() <= names
    assert {n.split("/")[0] for n in names} == {"toolproof", f"toolproof-{__version__}.dist-info"}
    assert not [n for n in names if n.startswith("serving/") or n == "serve.py"]   # the page's server is not the tool


def test_the_wheel_metadata(dist):
    with zipfile.ZipFile(dist.wheel) as whl:
        info = f"toolproof-{__version__}.dist-info"
        meta = email.parser.Parser().parsestr(whl.read(f"{info}/METADATA").decode("utf-8"))
        entry_points = whl.read(f"{info}/entry_points.txt").decode("utf-8")
        license_text = whl.read(f"{info}/licenses/LICENSE")
    assert (meta["Name"], meta["Version"], meta["License-Expression"]) == ("toolproof", __version__, "MIT")
    assert meta["Requires-Python"] == ">=3.11"
    assert [r for r in meta.get_all("Requires-Dist") if "extra ==" not in r] == ["jsonschema<5,>=4.26"]
    assert "Environment :: Console" in meta.get_all("Classifier")
    assert "[console_scripts]\ntoolproof = toolproof.cli.main:main" in entry_points
    assert license_text == (ROOT / "LICENSE").read_bytes()


# --- the installed tool, from a folder outside the checkout ----------------------------------

WHERE = """
import importlib.resources, toolproof.datafiles as d
print(d.__file__)
print(d.DATA)
print(importlib.resources.files("toolproof").joinpath("data", "tools.json"))
"""


def test_the_installed_package_is_the_wheel_and_reads_its_own_data(dist):
    done = call([dist.bin / "python", "-c", WHERE], cwd=dist.elsewhere, env=clean_env())
    module, data, resource = done.stdout.splitlines()
    assert Path(module) == dist.site / "toolproof" / "datafiles.py"
    assert Path(data) == dist.site / "toolproof" / "data"
    # the files are package resources: importlib.resources finds them where datafiles does
    assert Path(resource) == Path(data) / "tools.json"
    assert Path(resource).read_bytes() == (ROOT / "data" / "tools.json").read_bytes()


def test_version(dist):
    done = installed(dist, "--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"toolproof {__version__}\n", "")
    module = call([dist.bin / "python", "-m", "toolproof", "--version"], cwd=dist.elsewhere, env=clean_env())
    assert (module.returncode, module.stdout) == (0, f"toolproof {__version__}\n")


def test_selftest_equals_the_checkouts(dist):
    expected = io.StringIO()
    assert run(["selftest"], stdout=expected, stderr=io.StringIO()) == 0
    done = installed(dist, "selftest")
    assert (done.returncode, done.stdout, done.stderr) == (0, expected.getvalue(), "")
    module = call([dist.bin / "python", "-m", "toolproof", "selftest"], cwd=dist.elsewhere, env=clean_env())
    assert (module.returncode, module.stdout) == (0, expected.getvalue())


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_grade_equals_the_checkouts_byte_for_byte(dist, fmt):
    checkout = subprocess.run([sys.executable, "-m", "toolproof", "grade", "--format", fmt], cwd=ROOT,
                              capture_output=True, timeout=120)
    done = subprocess.run([dist.bin / "toolproof", "grade", "--format", fmt], cwd=dist.elsewhere,
                          env=clean_env(), capture_output=True, timeout=120)
    assert (checkout.returncode, checkout.stderr) == (0, b"")
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == checkout.stdout


def test_relative_paths_are_the_users_working_directory(dist):
    (dist.elsewhere / "mine.json").write_bytes((ROOT / "data" / "fixtures.json").read_bytes())
    own = installed(dist, "grade", "--transcripts", "mine.json", "--format", "json")
    default = installed(dist, "grade", "--format", "json")
    assert (own.returncode, own.stderr) == (0, "")
    assert own.stdout == default.stdout


@pytest.mark.parametrize("argv, line", [
    (["grade", "--transcripts", "missing.json"], "toolproof: missing.json: no such file\n"),
    (["grade", "--tools", "data/tools.json"],       # the decoy in the working directory, named on purpose
     "toolproof: data/tools.json: not valid JSON: Expecting property name enclosed in double quotes "
     "(line 1, column 2)\n"),
    (["selftest", "--version"], "toolproof: usage error: unrecognized arguments: --version\n"),
    ([], "toolproof: usage error: the following arguments are required: command\n"),
])
def test_bad_input_is_one_line_and_exit_2(dist, argv, line):
    done = installed(dist, *argv)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", line)


def answer_fixture_errors_at_once(fake: FakeProvider) -> None:
    """Fixture turns that are request errors, answered with Retry-After: 0: the runner would
    otherwise back off for seconds. (tests/cli/test_run.py does the same in-process.)"""
    for case_id, fixture in FIXTURES.items():
        for k, turn in enumerate(fixture["turns"]):
            if "error" in turn:
                fake.script[case_id] = [("sleep", 0)] * k + [
                    (turn["error"]["status"] or 500, {"retry-after": "0"}, '{"error": "fixture error"}')] * 3


def test_a_live_run_against_a_local_server(dist):
    fake = FakeProvider()
    try:
        answer_fixture_errors_at_once(fake)
        done = installed(dist, "run", "--provider", "openai-compatible", "--base-url", f"{fake.base}/v1",
                         "--model", "fake", "--cap", "500", "--pause", "0", "--format", "json",
                         "--allow-incomplete",          # the fixtures hold one intended ERROR
                         "--out", "results.json", env={**clean_env(), "TOOLPROOF_API_KEY": KEY})
    finally:
        fake.close()
    assert done.returncode == 0, done.stderr
    card = json.loads(done.stdout)
    assert {c["id"]: c["verdict"] for c in card["cases"]} == {cid: f["intended_verdict"] for cid, f in FIXTURES.items()}
    assert {r["headers"].get("authorization") for r in fake.requests} == {f"Bearer {KEY}"}
    results = (dist.elsewhere / "results.json").read_text(encoding="utf-8")
    assert KEY not in done.stdout + done.stderr + results
    # the installed tool's results file grades the same in the checkout
    regraded = io.StringIO()
    assert run(["grade", "--transcripts", str(dist.elsewhere / "results.json"), "--format", "json"],
               stdout=regraded, stderr=io.StringIO()) == 0
    assert regraded.getvalue() == done.stdout
