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

    def headline(self) -> str:
        where = f"{self.file}:{self.line}:{self.col}" if self.line else self.file
        text = f"{where}: {self.kind}: {self.message}"
        if self.path and not self.line:
            text += f" (at {self.path})"
        return text

    def render(self, source: Optional[str] = None) -> str:
        """The headline, then the source line with a caret under the span."""
        out = [self.headline()]
        if source is not None and self.line:
            lines = source.splitlines()
            if 0 < self.line <= len(lines):
                text = lines[self.line - 1].replace("\t", " ")
                if len(text) > 200:
                    text = text[:200] + " ..."
                gutter = f"{self.line:>5} | "
                out.append(gutter + text)
                width = 1
                if self.end_line == self.line and self.end_col > self.col:
                    width = self.end_col - self.col
                width = max(1, min(width, max(1, len(text) - self.col + 1)))
                out.append(" " * (len(gutter) - 2) + "| " + " " * (self.col - 1) + "^" * width)
        out.extend(f"      note: {n}" for n in self.notes)
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
    diags = sorted(diags, key=lambda d: (d.file in texts, d.file, d.line, d.col, d.message))
    shown = [d.render(texts.get(d.file, source)) for d in diags[:MAX_SHOWN]]
    if len(diags) > MAX_SHOWN:
        shown.append(f"... and {len(diags) - MAX_SHOWN} more")
    errors = sum(d.kind == "error" for d in diags)
    warnings = sum(d.kind == "warning" for d in diags)
    summary = f"{errors} error{'s' if errors != 1 else ''}"
    if warnings:
        summary += f", {warnings} warning{'s' if warnings != 1 else ''}"
    shown.append(summary)
    return "\n".join(shown)


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` when a close candidate exists, else ``""``."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
