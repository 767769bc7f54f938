"""Which packages the wheel holds; every other piece of metadata lives in pyproject.toml.

Why this file exists: pyproject.toml can either list packages by hand or find them on disk, but
not both, and the data tree must be mapped in by name. Here both happen, from what is on disk:
- every `toolproof*` package with an `__init__.py`, so a new subpackage (`toolproof/importers/`,
  ...) ships without anyone editing a list;
- the top-level `data/` folder, which the page serves as it is, becomes `toolproof/data/` in the
  wheel, every file of every kind (one copy of each in the repository); each of its folders is a
  data package, as setuptools wants. toolproof/datafiles.py looks there first.
tests/test_wheel.py builds the sdist and, from it, the wheel, and checks both hold every file.
"""
from pathlib import Path

from setuptools import find_packages, setup

HERE = Path(__file__).resolve().parent
DATA_PACKAGES = ["toolproof.data", *(
    ".".join(("toolproof.data", *folder.relative_to(HERE / "data").parts))
    for folder in sorted((HERE / "data").rglob("*")) if folder.is_dir())]

setup(
    packages=[*find_packages(include=["toolproof", "toolproof.*"]), *DATA_PACKAGES],
    package_dir={"toolproof.data": "data"},
    package_data={name: ["*"] for name in DATA_PACKAGES},
)
