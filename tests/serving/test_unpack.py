"""serving/unpack.py: a tarball's members below a prefix are unpacked and hashed; a member that
could land outside the folder (traversal, absolute, drive, backslash) or is a link is refused
before anything is written."""
from __future__ import annotations

import hashlib
import tarfile
from pathlib import Path
from typing import Any

import pytest

from fakeregistry import make_tgz
from serving.errors import VendorError
from serving.unpack import extract_tar


@pytest.mark.parametrize("bad_name", ["../evil.js", "package/../../evil.js", "/etc/evil",
                                      "package\\..\\evil.js", "C:/evil.js"])
def test_tar_with_traversal_is_refused_before_writing(tmp_path: Path, bad_name: str) -> None:
    tgz = make_tgz(tmp_path / "bad.tgz", {"package/ok.js": b"1", bad_name: b"2"})
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(VendorError, match="unsafe path"):
        extract_tar(tgz, "package/", dest)
    assert list(dest.iterdir()) == []


def test_tar_with_link_is_refused(tmp_path: Path) -> None:
    link = tarfile.TarInfo("package/link.js")
    link.type = tarfile.SYMTYPE
    link.linkname = "/etc/passwd"
    tgz = make_tgz(tmp_path / "link.tgz", {"package/ok.js": b"1"}, extra=[link])
    with pytest.raises(VendorError, match="is a link or special file"):
        extract_tar(tgz, "package/", tmp_path / "out")


def test_tar_prefix_is_stripped_and_other_members_skipped(tmp_path: Path) -> None:
    tgz = make_tgz(tmp_path / "p.tgz", {"package/dist/core.js": b"js",
                                        "package/dist/sub/a.css": b"css",
                                        "package/src/core.js": b"src"})
    dest = tmp_path / "out"
    assert set(extract_tar(tgz, "package/dist/", dest)) == {"core.js", "sub/a.css"}
    assert (dest / "core.js").read_bytes() == b"js"
    assert (dest / "sub" / "a.css").read_bytes() == b"css"
    with pytest.raises(VendorError, match="has no files under 'nothing/'"):
        extract_tar(tgz, "nothing/", tmp_path / "empty")


def test_manifest_hashes_what_the_tarball_held(tmp_path: Path, artefacts: Any) -> None:
    lock, files = artefacts
    hashes = extract_tar(files["demo"], "package/", tmp_path / "out")
    assert hashes == {"dist/core.js": hashlib.sha256(b"export {};\n").hexdigest(),
                      "README.md": hashlib.sha256(b"readme\n").hexdigest()}
