"""The case editor's phrasings field: one phrasing a line, `id | another way to say the prompt |
why it is worth testing`, read into the suite's `phrasings` list and written back the same way. A
phrasing in another language than English says it after its id: `pt-ask (pt) | Quanto custa…? |
the same question in Portuguese` (the phrasing's `lang`).

The suite loader checks what the text means (ids, the reserved "base", limits: suite/load.py);
this module only reads the lines, and names the line a problem is on.

Pure: no I/O.
"""
from __future__ import annotations

import re

from toolproof.errors import ToolProofError
from toolproof.limits import MAX_PHRASINGS

SEPARATOR = "|"
MAX_FIELD_CHARS = 200_000       # a pasted novel is refused before the schema reads it
_WITH_LANG = re.compile(r"(\S+)\s*\(\s*([^()\s]*)\s*\)")   # "id (pt)": the loader judges the language


def phrasings_from_text(text: str) -> list[dict]:
    """The field's lines as [{"id", "prompt", "why"}, with "lang" after the id in brackets when
    given]; blank lines are skipped. ToolProofError
    (path "phrasings") for a line that is not `id | prompt | why`, or for too many lines."""
    if len(text) > MAX_FIELD_CHARS:
        raise ToolProofError(f"the phrasings are over {MAX_FIELD_CHARS:,} characters", path="phrasings")
    out = []
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > MAX_PHRASINGS:
        raise ToolProofError(f"a case has at most {MAX_PHRASINGS} phrasings, not {len(lines)}", path="phrasings")
    for n, line in enumerate(lines, 1):
        # the prompt may itself hold "|": everything between the first and the last separator
        head, _, rest = line.partition(SEPARATOR)
        prompt, _, why = rest.rpartition(SEPARATOR)
        if not head.strip() or SEPARATOR not in rest:
            raise ToolProofError(f"line {n}: write id | another way to say the prompt | why "
                                 "(e.g. terse | 2 tickets, Friday | fewer words)", path="phrasings")
        phrasing = {"id": head.strip(), "prompt": prompt.strip(), "why": why.strip()}
        lang = _WITH_LANG.fullmatch(head.strip())
        if lang:
            phrasing = {"id": lang.group(1), "lang": lang.group(2), "prompt": phrasing["prompt"], "why": phrasing["why"]}
        out.append(phrasing)
    return out


def phrasings_text(phrasings: object) -> str:
    """A case's phrasings as the field shows them (one a line); "" when there are none. A value
    the editor cannot write back as lines (a line break inside) makes the case file-only:
    `editable` says so."""
    if not isinstance(phrasings, list):
        return ""
    return "\n".join(f"{p['id']}{' (' + p['lang'] + ')' if 'lang' in p else ''} {SEPARATOR} {p['prompt']} "
                     f"{SEPARATOR} {p['why']}" for p in phrasings)


def editable(phrasings: object) -> bool:
    """Can the field show these phrasings and read them back unchanged?"""
    if phrasings is None:
        return True
    if not isinstance(phrasings, list) or not all(isinstance(p, dict) and set(p) - {"lang"} == {"id", "prompt", "why"}
                                                  and all(isinstance(v, str) for v in p.values()) for p in phrasings):
        return False
    try:
        return phrasings_from_text(phrasings_text(phrasings)) == phrasings
    except ToolProofError:
        return False
