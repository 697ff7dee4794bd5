"""Diagnostics: what is wrong with a rules file, where, shown like a compiler's.

    games/chase.rules:12:9: error: unknown piece 'rabit' (did you mean 'rabbit'?)
       12 |     move rabit by 2
          |          ^^^^^
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable, Optional

MAX_SHOWN = 30


@dataclass(frozen=True)
class Diagnostic:
    """One problem. ``line``/``col`` are 1-based; 0 means "no position" (then
    ``path``, a JSON path into the IR, says where)."""

    file: str
    message: str
    line: int = 0
    col: int = 0
    end_line: int = 0
    end_col: int = 0
    path: str = ""
    kind: str = "error"
    notes: tuple[str, ...] = ()
    param: str = ""  # the param given from outside (``-p NAME=VALUE``) that this is about, if any

    def headline(self) -> str:
        where = f"{self.file}:{self.line}:{self.col}" if self.line else self.file
        text = f"{printable(where)}: {self.kind}: {printable(self.message)}"
        if self.path and not self.line:
            text += f" (at {self.path})"
        return text

    def render(self, source: Optional[str] = None, lines: Optional[list[str]] = None) -> str:
        """The headline, then the source line with a caret under the span (``lines``: the
        source already split by ``source_lines``, when many diagnostics of one file are shown)."""
        out = [self.headline()]
        if lines is None and source is not None and self.line:
            lines = source_lines(source)
        if lines is not None and 0 < self.line <= len(lines):
            width = 1
            if self.end_line == self.line and self.end_col > self.col:
                width = self.end_col - self.col
            out.append(quoted_line(self.line, lines[self.line - 1], self.col, width))
        out.extend(f"      note: {printable(n)}" for n in self.notes)
        return "\n".join(out)

    def to_json(self) -> dict:
        return {
            "file": self.file, "line": self.line, "col": self.col,
            "end_line": self.end_line, "end_col": self.end_col,
            "path": self.path, "kind": self.kind, "message": self.message,
            "notes": list(self.notes),
        }


@dataclass
class RulesError(Exception):
    """Raised when a rules file (or IR document) has problems; carries all of them."""

    diagnostics: list[Diagnostic]
    source: Optional[str] = field(default=None)
    texts: dict[str, str] = field(default_factory=dict)  # other files' texts (a variant's bases), by path

    def __str__(self) -> str:
        return render_all(self.diagnostics, self.source, self.texts)


class RulesSyntaxError(RulesError):
    """The text does not follow the grammar."""


class RulesSemanticError(RulesError):
    """The file parses but its meaning is wrong (unknown names, type mismatches, ...)."""


class RuleRuntimeError(Exception):
    """A rule failed while a game ran (e.g. a player read from a var that was never set). The engine
    adds where: the rules file, and the line and column of the statement that failed."""

    def __init__(self, message: str, file: str = "", line: int = 0, col: int = 0):
        super().__init__(message)
        self.message, self.file, self.line, self.col = message, file, line, col

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.message}" if self.line else self.message

    def __reduce__(self) -> tuple:  # across processes (simulate's workers) with its place
        return type(self), (self.message, self.file, self.line, self.col)


def render_all(diags: Iterable[Diagnostic], source: Optional[str] = None,
               texts: Optional[dict[str, str]] = None) -> str:
    """Every diagnostic with its line (from ``source``, or ``texts`` by file), and a count."""
    texts = texts or {}
    # (a note, such as a variant's at its 'extends' for its base's errors, comes after what it is about)
    diags = sorted(diags, key=lambda d: (d.kind == "note", d.file in texts, d.file, d.line, d.col, d.message))
    split: dict[str, list[str]] = {}  # each file's text split once, however many diagnostics it has

    def lines(d: Diagnostic) -> Optional[list[str]]:
        text = texts.get(d.file, source)
        if text is None or not d.line:
            return None
        key = d.file if d.file in texts else "\0source"
        if key not in split:
            split[key] = source_lines(text)
        return split[key]

    notes = [d for d in diags if d.kind == "note"]  # (shown whatever the number before them)
    told = [d for d in diags if d.kind != "note"]
    shown = [d.render(lines=lines(d)) for d in told[:MAX_SHOWN]]
    if len(told) > MAX_SHOWN:
        shown.append(f"... and {len(told) - MAX_SHOWN} more")
    shown.extend(d.render(lines=lines(d)) for d in notes)
    errors = sum(d.kind == "error" for d in diags)
    warnings = sum(d.kind == "warning" for d in diags)
    summary = f"{errors} error{'s' if errors != 1 else ''}"
    if warnings:
        summary += f", {warnings} warning{'s' if warnings != 1 else ''}"
    shown.append(summary)
    return "\n".join(shown)


def normalize_newlines(text: str) -> str:
    """Line ends as the parser reads them: CRLF and a lone CR (old Mac files) are both LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def source_lines(text: str) -> list[str]:
    """The lines of rules text as positions count them: ends are LF, CRLF or CR, and nothing else
    (a form feed or U+2028 inside a line is part of it, as the parser reads it)."""
    return normalize_newlines(text).split("\n")


WINDOW = 120  # characters of a long source line shown around the column


def quoted_line(number: int, line: str, col: int, width: int = 1) -> str:
    """Line ``number`` of a file, ``line``, as a message quotes it: in a gutter, a caret under the
    ``width`` characters at column ``col`` (``shown_line``: escaped, a window of a long line)."""
    text, pad, caret = shown_line(line, col, width)
    gutter = f"{number:>5} | "
    return f"{gutter}{text}\n{' ' * (len(gutter) - 2)}| {' ' * pad}{'^' * caret}"


def shown_line(line: str, col: int, width: int) -> tuple[str, int, int]:
    """A source line as it is safe to print, the caret's indent and the caret's width, both in
    terminal cells. Control characters, escapes and bidi controls are shown as ``\\xNN`` or
    ``<U+202E>`` (never sent to the terminal raw), a tab as a space, wide letters count two cells;
    a line longer than ``WINDOW`` is cut to a window around the column, marked with '...'."""
    start, end, head, tail = 0, len(line), "", ""
    if len(line) > WINDOW:
        start = max(0, min(col - 1 - WINDOW // 3, len(line) - WINDOW))
        end = start + WINDOW
        head, tail = ("..." if start else ""), ("..." if end < len(line) else "")
    text, pad, caret = [head], len(head), 0
    for i in range(start, end):
        shown = visible(line[i])
        cells = _cells(shown)
        if i < col - 1:
            pad += cells
        elif i < col - 1 + width:
            caret += cells
        text.append(shown)
    text.append(tail)
    return "".join(text), pad, max(1, caret)


def visible(ch: str) -> str:
    """One character as printed under a diagnostic."""
    import unicodedata
    if ch == "\t":
        return " "
    category = unicodedata.category(ch)
    if category == "Cc":
        return f"\\x{ord(ch):02x}"
    if category in ("Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
        return f"<U+{ord(ch):04X}>"
    return ch


MESSAGE_LINE = 400  # characters of one line of a message shown (a quoted token may be very long)


def printable(text: str) -> str:
    """A message as it is safe to print: its control characters and bidi controls shown as
    ``visible`` shows them (a rules file can hold any; a terminal would obey them), its lines
    (it may have several) cut at ``MESSAGE_LINE`` characters."""
    if text.isprintable() and len(text) <= MESSAGE_LINE:
        return text
    lines = ["".join(c if c.isprintable() or c == "\t" else visible(c) for c in line)
             for line in text.split("\n")]
    return "\n".join(line if len(line) <= MESSAGE_LINE else line[:MESSAGE_LINE] + "..." for line in lines)


def _cells(text: str) -> int:
    import unicodedata
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` when a close candidate exists, else ``""``."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
