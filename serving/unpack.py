"""Unpacking an npm tarball into vendor/, refusing every member that could land outside it.

For: extract_tar writes the members under one prefix (e.g. "package/dist/") and returns the
sha256 of each file as written, hashed from the verified tarball's bytes (what vendor/'s
manifest records). Every member is checked before anything is written.
Must not: follow or create links or special files, write outside the destination folder, or
unpack a tarball that was not verified against its pin first (serving/vendor.py does that).
"""
from __future__ import annotations

import hashlib
import re
import tarfile
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from serving.errors import VendorError
from serving.lock import LOCK_NAME


def safe_member_path(name: str) -> PurePosixPath:
    """Refuse tar member names that could land outside the destination folder."""
    path = PurePosixPath(name)
    if name.startswith(("/", "\\")) or path.is_absolute() or ".." in path.parts:
        raise VendorError(f"unsafe path {name!r} in tarball; refusing to unpack it")
    if "\\" in name or re.match(r"^[A-Za-z]:", name):
        raise VendorError(f"unsafe path {name!r} in tarball; refusing to unpack it")
    return path


def extract_tar(tarball: Path, prefix: str, dest: Path) -> dict[str, str]:
    """Unpack the members under `prefix` (e.g. "package/dist/") into dest; return the sha256 of
    every file written, by its path below dest, hashed from the (verified) tarball's bytes.

    Every member is checked before anything is written; links and device files are refused.
    """
    hashes: dict[str, str] = {}
    with tarfile.open(tarball, "r:gz") as tar:
        members = tar.getmembers()
        for member in members:
            safe_member_path(member.name)
            if not (member.isfile() or member.isdir()):
                raise VendorError(f"{tarball.name}: {member.name!r} is a link or special "
                                  "file; refusing to unpack it")
        for member in members:
            relative = strip_prefix(member.name, prefix)
            if relative is None or not member.isfile():
                continue
            target = dest.joinpath(*relative.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            source = tar.extractfile(member)
            assert source is not None  # a regular file always has content
            with source, target.open("wb") as out:
                hashes[relative.as_posix()] = copy_hashing(source, out)
    if not hashes:
        raise VendorError(
            f"{tarball.name} has no files under {prefix!r}; check 'unpack' in {LOCK_NAME}"
        )
    return hashes


def copy_hashing(source: BinaryIO, out: BinaryIO) -> str:
    """Copy a stream and return the sha256 of what was copied."""
    digest = hashlib.sha256()
    for block in iter(lambda: source.read(1 << 20), b""):
        digest.update(block)
        out.write(block)
    return digest.hexdigest()


def strip_prefix(name: str, prefix: str) -> PurePosixPath | None:
    """The member's path below prefix, or None if it is not below it."""
    parts = safe_member_path(name).parts
    want = PurePosixPath(prefix).parts if prefix.strip("/") else ()
    if len(parts) <= len(want) or tuple(parts[: len(want)]) != tuple(want):
        return None
    return PurePosixPath(*parts[len(want):])
