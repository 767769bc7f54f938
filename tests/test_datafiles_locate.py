"""Where datafiles finds data/: inside an installed package first, else beside it (a checkout, the
page). Kept apart from tests/test_datafiles.py, which is about reading one JSON file."""
from __future__ import annotations

from pathlib import Path

import pytest

import toolproof
from toolproof.datafiles import DATA, SCHEMAS, locate_data, read_json
from toolproof.errors import ToolProofError

ROOT = Path(__file__).resolve().parent.parent


def layout(tmp_path: Path, *folders: str) -> Path:
    """A site or a checkout with the given folders; returns its toolproof/ package folder."""
    for folder in ("toolproof", *folders):
        (tmp_path / folder).mkdir(parents=True)
    return tmp_path / "toolproof"


def test_a_checkout_reads_the_data_beside_the_package():
    assert DATA == ROOT / "data"
    assert SCHEMAS == ROOT / "data" / "schemas"
    assert Path(toolproof.__file__).resolve().parent.parent == ROOT      # the worktree's own package


@pytest.mark.parametrize("folders, found", [
    (["toolproof/data"], "toolproof/data"),                 # an installed wheel
    (["data"], "data"),                                     # a checkout, or the page's file system
    (["toolproof/data", "data"], "toolproof/data"),         # a stray site-packages/data never wins
    ([], "toolproof/data"),                                 # nothing: name where the install puts it
])
def test_locate_data(tmp_path, folders, found):
    assert locate_data(layout(tmp_path, *folders)) == tmp_path / found


def test_a_file_named_data_is_not_a_data_folder(tmp_path):
    package = layout(tmp_path)
    (tmp_path / "data").write_text("not a folder", encoding="utf-8")
    assert locate_data(package) == package / "data"


def test_a_symlink_loop_named_data_is_neither(tmp_path):
    # hostile: stat() on a loop fails with ELOOP; locating must not raise at import time
    package = layout(tmp_path)
    (package / "data").symlink_to(package / "data")
    (tmp_path / "data").symlink_to(tmp_path / "data")
    assert locate_data(package) == package / "data"


def test_a_missing_install_says_where_the_file_should_be(tmp_path):
    data = locate_data(layout(tmp_path))
    with pytest.raises(ToolProofError) as exc:
        read_json(data / "tools.json")
    assert exc.value.line() == f"{tmp_path}/toolproof/data/tools.json: no such file"


def test_odd_folder_names(tmp_path):
    # spaces, non-ASCII and control characters in a user's path are just characters
    base = tmp_path / "my tools é\x07"
    base.mkdir()
    assert locate_data(layout(base, "data")) == base / "data"
