"""`toolproof --version`, and the one place the version lives (toolproof/_version.py)."""
from __future__ import annotations

import importlib
import re
import tomllib
from pathlib import Path

import pytest

from clirun import cli
import toolproof
from toolproof._version import __version__

ROOT = Path(__file__).resolve().parent.parent


def test_the_version_is_a_release_number():
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    assert toolproof.__version__ == __version__


def test_the_packaging_reads_the_same_version():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "toolproof._version.__version__"}


@pytest.mark.parametrize("argv", [["--version"], ["--version", "grade"], ["--version", "no-such-command"]])
def test_version(argv):
    # argparse acts on --version as soon as it sees it, before the (required) command
    assert cli(*argv) == (0, f"toolproof {__version__}\n", "")


@pytest.mark.parametrize("argv, line", [
    (["grade", "--version"], "toolproof: usage error: unrecognized arguments: --version\n"),
    (["--version=1"], "toolproof: usage error: argument --version: ignored explicit argument '1'\n"),
    (["--vers\x00ion"], "toolproof: usage error: the following arguments are required: command\n"),
])
def test_version_misuse_is_a_usage_error(argv, line):
    assert cli(*argv) == (2, "", line)


def test_importing_main_does_not_run_the_cli():
    # `python -m toolproof` runs it; a tool that imports every module must not exit
    module = importlib.import_module("toolproof.__main__")
    assert module.main is importlib.import_module("toolproof.cli.main").main
