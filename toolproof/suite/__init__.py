"""What is tested: the tool catalogue and the case suite, their JSON Schemas and the checks
that make a suite file safe to grade. Pure: data in, data out; it never imports the layers above.
"""
from __future__ import annotations

from .load import load_suite, load_tools, parse_suite, parse_tools
from .model import CATEGORIES, Case, ExpectedCall, Tool

__all__ = ['CATEGORIES', 'Case', 'ExpectedCall', 'Tool', 'load_suite', 'load_tools', 'parse_suite', 'parse_tools']
