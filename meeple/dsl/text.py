"""Checks of rules text itself, before (or beside) parsing it: they need no parser, so that a
file whose parsed form is cached is checked without loading Lark."""

from __future__ import annotations

import re

from .diagnostics import Diagnostic, normalize_newlines

MAX_TEXT_WARNINGS = 10


def empty_file(text: str, file: str) -> Diagnostic | None:
    """The error for a file with nothing but blanks and comments in it, or None."""
    if re.sub(r"#[^\n\r]*", "", text).strip():
        return None
    return Diagnostic(file, "the file is empty: a game declares at least 'players MIN..MAX', a 'turn { ... }' "
                            "block and an 'end when TEST' (see docs/authoring.md)", 1, 1)


def a_record(text: str, file: str) -> Diagnostic | None:
    """The error for a game record (JSON lines, the first an object naming "meeple_record") read
    as a game's rules, or None."""
    import json
    import shlex
    first = text.lstrip()
    if not first.startswith("{") or '"meeple_record"' not in first.split("\n", 1)[0]:
        return None
    try:
        header = json.loads(first.split("\n", 1)[0])
    except (ValueError, RecursionError):
        return None
    if not isinstance(header, dict) or "meeple_record" not in header:
        return None
    return Diagnostic(file, f"this is a game record (JSON lines), not a game's rules: `meeple replay "
                            f"{shlex.quote(file)}` runs it", text.count("\n", 0, len(text) - len(first)) + 1, 1)


# Controls that change how a line reads in an editor (the "Trojan Source" characters).
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def text_warnings(text: str, file: str) -> list[Diagnostic]:
    """Warnings about the text itself: bidirectional controls in strings and comments, which make a
    line read differently from how it runs."""
    import unicodedata
    text = normalize_newlines(text)
    out = []
    for m in BIDI.finditer(text):
        line, col = _where(text, m.start())
        out.append(Diagnostic(file, f"the invisible character U+{ord(m.group()):04X} "
                                    f"{unicodedata.name(m.group(), '')} changes how this line reads in an "
                                    f"editor; remove it", line, col, line, col + 1, kind="warning"))
        if len(out) >= MAX_TEXT_WARNINGS:
            break
    return out


def _where(text: str, pos: int) -> tuple[int, int]:
    """The line and column of offset ``pos`` (lines end at '\\n': the text is normalised first)."""
    return text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)
