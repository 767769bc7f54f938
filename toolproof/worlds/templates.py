"""The `{name}` templates of a world's error texts (a find's `missing`, a check's `error`, a
stateless tool's `otherwise.error`): {arg.x} (the call's argument), {alias.field} or {name} (a
bound name, as a {"ref"} reads it). A substitution by name and nothing else: no format specs,
no attribute access, no code; a name that is bound to nothing shows as null.

Pure: no I/O. Must not evaluate expressions (exprs.py does).
"""
from __future__ import annotations

import re

from .exprs import Scope, argument, resolve, text_of

_TEMPLATE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}")


def template_names(template: str) -> list[str]:
    """The {names} a template substitutes ("arg.x", "alias.field", "name")."""
    return _TEMPLATE.findall(template)


def render(template: str, scope: Scope) -> str:
    """A template with each {arg.x}, {alias.field} or {name} replaced by its value (no format
    specs: a substitution by name, nothing else)."""
    def value(match: re.Match) -> str:
        name = match.group(1)
        if name.startswith("arg."):
            return text_of(argument(scope.args, name[4:])[1])
        return text_of(resolve(scope, name))
    return _TEMPLATE.sub(value, template)
