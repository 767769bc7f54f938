"""Fixtures shared by the tests of serve.py's parts; the helpers behind them are in
tests/fakeregistry.py (fake downloads) and tests/fakesite.py (a fake repository)."""
from __future__ import annotations

from pathlib import Path

import pytest

from fakeregistry import demo_artefacts


@pytest.fixture
def artefacts(tmp_path: Path) -> tuple[dict, dict[str, Path]]:
    """A lock for one npm tarball and one wheel, plus the files a fetch would produce."""
    return demo_artefacts(tmp_path / "src")
