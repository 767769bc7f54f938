"""serving/archive.py: the page's package and data files as one archive. The same files give the
same bytes; only plain toolproof/ and data/ paths the config lists are packed, never a link, a
path out of the repository or another part of it."""
from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

import pytest

from fakesite import FILES, PAGE_CONFIG, fake_repo
from serving.archive import ArchiveCache, archive_bytes
from serving.errors import VendorError


def listing(root: Path, names: list[str]) -> None:
    (root / "web" / "pyscript.json").write_text(json.dumps({**PAGE_CONFIG, "page_files": names}))


def test_the_same_files_give_the_same_bytes(tmp_path: Path) -> None:
    fake_repo(tmp_path / "a")
    fake_repo(tmp_path / "b")
    os.utime(tmp_path / "b" / "toolproof" / "web.py", (1, 1))          # only the time differs
    assert archive_bytes(tmp_path / "a") == archive_bytes(tmp_path / "b")
    with zipfile.ZipFile(io.BytesIO(archive_bytes(tmp_path / "a"))) as archive:
        assert [i.date_time for i in archive.infolist()] == [(1980, 1, 1, 0, 0, 0)] * len(PAGE_CONFIG["page_files"])
        assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in archive.infolist())


@pytest.mark.parametrize("name", ["../secret.txt", "/etc/passwd", "toolproof/../serve.py", ".git/HEAD",
                                  "data/.secret.json", "toolproof//web.py", "./toolproof/web.py", "data\\x.json"])
def test_a_path_that_is_not_plain_is_never_packed(tmp_path: Path, name: str) -> None:
    fake_repo(tmp_path / "repo")
    (tmp_path / "secret.txt").write_text("secret")
    listing(tmp_path / "repo", ["toolproof/web.py", name])
    with zipfile.ZipFile(io.BytesIO(archive_bytes(tmp_path / "repo"))) as archive:
        assert archive.namelist() == ["toolproof/web.py"]


@pytest.mark.parametrize(("name", "message"), [
    ("serve.py", "web/pyscript.json lists serve.py for the page's archive, which takes toolproof/ and data/ files only"),
    ("tests/test_x.py", "web/pyscript.json lists tests/test_x.py for the page's archive"),
    ("toolproof/missing.py", "toolproof/missing.py is missing or a symbolic link"),
    ("data/notes.txt", "data/notes.txt is missing or a symbolic link"),      # not a page data file
    ("toolproof/linked.py", "toolproof/linked.py is missing or a symbolic link"),
])
def test_a_listed_file_outside_the_page_is_refused_by_name(tmp_path: Path, name: str, message: str) -> None:
    fake_repo(tmp_path / "repo")
    (tmp_path / "outside.py").write_text("secret = 1")
    (tmp_path / "repo" / "toolproof" / "linked.py").symlink_to(tmp_path / "outside.py")
    listing(tmp_path / "repo", ["toolproof/web.py", name])
    with pytest.raises(VendorError) as info:
        archive_bytes(tmp_path / "repo")
    assert str(info.value).startswith(message)


@pytest.mark.parametrize("config", ["", "{", "[]", '{"page_files": []}', '{"page_files": "toolproof"}',
                                    '{"page_files": null}', '{"files": {}}', '{"page_files": NaN}',
                                    '{"page_files": ' + "[" * 100_000 + "]" * 100_000 + "}",
                                    '{"page_files": ["\u0000toolproof/web.py", "toolproof/web.py\n"]}'],
                         ids=lambda config: ascii(config[:40]))
def test_a_config_without_a_list_of_files_is_one_line(tmp_path: Path, config: str) -> None:
    fake_repo(tmp_path)
    (tmp_path / "web" / "pyscript.json").write_text(config)
    with pytest.raises(VendorError) as info:
        archive_bytes(tmp_path)
    assert str(info.value) == ('web/pyscript.json lists no page files ("page_files"); run '
                               "`python web/pyscript_config.py`")


def test_the_cache_builds_once_and_again_after_a_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_repo(tmp_path)
    cache = ArchiveCache(tmp_path)
    built = []
    real = archive_bytes
    monkeypatch.setattr("serving.archive.archive_bytes", lambda root: built.append(root) or real(root))
    first = cache.get()
    assert cache.get() == first and len(built) == 1
    (tmp_path / "data" / "tools.json").write_text('{"tools": []}')
    second = cache.get()
    assert len(built) == 2 and second[1] != first[1]
    assert zipfile.ZipFile(io.BytesIO(second[0])).read("data/tools.json") == b'{"tools": []}'
    assert FILES["data/tools.json"] == "{}"
