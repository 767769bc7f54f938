"""Text that is shown, never obeyed: the one definition of control and invisible characters.

What a model, a suite file or a results file sends can hold characters that act on a terminal or
a Markdown viewer (ESC starts terminal sequences, CR overwrites a line, bidi controls reorder
what a reader sees) or that a reader cannot see at all (zero-width spaces, soft hyphens, tag
characters that smuggle ASCII, variation selectors). Every place that shows such text uses this
module: reports and CLI lines escape them (`printable`), lint flags them (`hidden_characters`),
and a grading reason shows two values escaped when they would print the same (`looks_same`).

The characters are listed by code point, not by `unicodedata` category, so that the terminal's
CPython and the page's Pyodide (which ship different Unicode versions) agree byte for byte.

Pure: no I/O. Must not change what is graded: it only decides how text is shown.
"""
from __future__ import annotations

import re
import unicodedata

# C0 controls, DEL and C1 controls (CSI among them).
CONTROL_RANGES = ((0x0000, 0x001F), (0x007F, 0x009F))
# Characters a reader does not see, or that reorder or break what a reader sees.
INVISIBLE_RANGES = (
    (0x00AD, 0x00AD),                                    # soft hyphen
    (0x061C, 0x061C),                                    # Arabic letter mark (bidi)
    (0x180E, 0x180E),                                    # Mongolian vowel separator
    (0x200B, 0x200F),                                    # zero-width space/joiners, LRM, RLM
    (0x2028, 0x2029),                                    # line and paragraph separators
    (0x202A, 0x202E),                                    # bidi embeddings and overrides
    (0x2060, 0x2064),                                    # word joiner, invisible operators
    (0x2066, 0x2069),                                    # bidi isolates
    (0x206A, 0x206F),                                    # deprecated format controls (shaping, digits)
    (0xD800, 0xDFFF),                                    # lone surrogates (not text at all)
    (0xFE00, 0xFE0F),                                    # variation selectors
    (0xFEFF, 0xFEFF),                                    # zero-width no-break space (BOM)
    (0xFFF9, 0xFFFB),                                    # interlinear annotation controls
    (0x13430, 0x1343F),                                  # Egyptian hieroglyph format controls
    (0x1BCA0, 0x1BCA3),                                  # shorthand format controls
    (0x1D173, 0x1D17A),                                  # musical symbol format controls
    (0xE0000, 0xE007F),                                  # tag characters (ASCII smuggling)
    (0xE0100, 0xE01EF),                                  # variation selectors supplement
)
# Whitespace controls that belong in a multi-line text (a tool description) and are not hidden.
LAYOUT = "\t\n\r"


def _class(ranges: tuple) -> str:
    return "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in ranges)


_UNSAFE = re.compile(f"[{_class(CONTROL_RANGES + INVISIBLE_RANGES)}]")
_HIDDEN = re.compile(f"(?![{re.escape(LAYOUT)}])[{_class(CONTROL_RANGES + INVISIBLE_RANGES)}]")


def escape(ch: str) -> str:
    """One character as a Python-style escape: \\x1b, \\u202e, \\U000e0041."""
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str) -> str:
    """Text with every control and invisible character written as an escape: what came from a
    file or a model is shown, never obeyed, and a line of output stays one line."""
    if text.isascii() and text.isprintable():      # the common case, without a regex pass
        return text
    return _UNSAFE.sub(lambda m: escape(m.group()), text)


def hidden_characters(text: str) -> list[tuple[int, str]]:
    """(offset, "U+200B ZERO WIDTH SPACE") for every hidden character (tab, newline and carriage
    return are layout, not hidden), in order."""
    return [(m.start(), _label(m.group())) for m in _HIDDEN.finditer(text)]


def without_hidden(text: str) -> str:
    """The text a reader sees: every hidden character removed."""
    return _HIDDEN.sub("", text)


def _label(ch: str) -> str:
    code = ord(ch)
    if 0xE0000 <= code <= 0xE007F:
        name = "TAG " + (chr(code - 0xE0000) if 0x20 < code - 0xE0000 < 0x7F else "CHARACTER")
    else:
        name = unicodedata.name(ch, "control character" if code < 0xA0 else "surrogate" if 0xD800 <= code <= 0xDFFF
                                else "invisible character")
    return f"U+{code:04X} {name}"


def looks_same(a: str, b: str) -> bool:
    """Would two different texts print the same? Compatibility forms folded (NFKC), control and
    invisible characters removed, every kind of space one space."""
    return a != b and _seen(a) == _seen(b)


def _seen(text: str) -> str:
    folded = unicodedata.normalize("NFKC", _UNSAFE.sub(lambda m: " " if m.group().isspace() else "", text))
    return "".join(" " if ch.isspace() else ch for ch in folded)
