"""Which packages the wheel holds; every other piece of metadata lives in pyproject.toml.

Why this file exists: pyproject.toml can either list packages by hand or find them on disk, but
not both, and the data tree must be mapped in by name. Here both happen:
- every `toolproof*` package with an `__init__.py` is found on disk, so a new subpackage
  (`toolproof/importers/`, ...) ships without anyone editing a list;
- the top-level `data/` folder, which the page serves as it is, becomes `toolproof/data/` in the
  wheel (one copy of every file in the repository), where toolproof/datafiles.py looks first.
tests/test_wheel.py builds the sdist and, from it, the wheel, and checks both hold every file.
"""
from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["toolproof", "toolproof.*"]), "toolproof.data"],
    package_dir={"toolproof.data": "data"},
    package_data={"toolproof.data": ["**/*"]},          # every file, whatever its kind
)
