"""What npm and pip would have downloaded, for the tests of serve.py's parts (tests/serving/):
a lock for one npm tarball and one wheel, the two files it pins, and fetchers that stand in for
serving.fetch.fetch_all. Nothing here touches the network or runs a package client."""
from __future__ import annotations

import hashlib
import io
import tarfile
from pathlib import Path


def make_tgz(path: Path, members: dict[str, bytes], *, extra: list[tarfile.TarInfo] = ()) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for info in extra:
            tar.addfile(info)
    return path


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def demo_artefacts(src: Path) -> tuple[dict, dict[str, Path]]:
    """A lock for one npm tarball and one wheel, plus the files a fetch would produce (in src)."""
    src.mkdir()
    tgz = make_tgz(src / "demo-1.0.0.tgz", {"package/dist/core.js": b"export {};\n",
                                             "package/README.md": b"readme\n"})
    whl = src / "demo_wheel-2.0-py3-none-any.whl"
    whl.write_bytes(b"PK fake wheel")
    lock = {"artifacts": [
        {"name": "demo", "version": "1.0.0", "source": "npm", "unpack": "package/dist/",
         "dest": "demo", "file": tgz.name, "sha256": sha(tgz)},
        {"name": "demo-wheel", "version": "2.0", "source": "pip", "dest": "wheels",
         "file": whl.name, "sha256": sha(whl)},
    ]}
    return lock, {"demo": tgz, "demo-wheel": whl}


class FakeFetch:
    """Stands in for fetch_all: copies prepared files into the temp folder, counts calls."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files
        self.calls = 0

    def __call__(self, lock: dict, into: Path) -> dict[str, Path]:
        self.calls += 1
        out = {}
        for name, path in self.files.items():
            copy = into / path.name
            copy.write_bytes(path.read_bytes())
            out[name] = copy
        return out


def no_fetch(lock: dict, into: Path) -> dict[str, Path]:
    raise AssertionError("fetch must not be called when vendor/ is complete")
