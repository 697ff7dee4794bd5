"""The Python module a game compiles to (``Module``): its text, as a person reads it, and the
namespace its code runs in.

Every function the compiler makes is written into one module, each under a comment naming the
rules line it comes from (and showing that line), beside the tables it reads and the engine's
helpers it calls. The module is registered with ``linecache`` under a name of its own
(``<meeple games/NAME.rules #1>``), so a traceback through the game's code shows the generated
line; ``meeple compile FILE`` prints it.

Each piece is compiled as it is added, at the line where it stands in the module (the compiler
needs some functions while it is still compiling others), so the text shown is the code that runs.
"""

from __future__ import annotations

import itertools
import linecache
import weakref
from pathlib import Path
from typing import Any, Callable, Optional

from meeple import __version__

_numbers = itertools.count(1)
LEGEND = """\
# Names in the code below:
#   st  the state          z   its zones: card counts per variety, one list per zone
#   zb  where each zone's lists start (per-player zones: one list per seat)
#   z_NAME  the list of the shared zone NAME (z[k] for its k)
#   L   the locals of the rules (lets, loop variables), by slot
#   P   each piece's space  PL  each piece's podium place (0: not finished)  G  the grid
#   V   the vars, by slot    vb  where each var's slots start (per-player vars: one per seat)
#   rng  the state's random numbers (chance)   rand  a random playout's (its picks)
#   log  the record: (who took each step, what kind, what), one entry per step
#   cap  the most steps (and turns) a game may take
#   none is -1; a piece or a value of a kind is its number; a player is a seat number."""


class Module:
    """One game's module, built piece by piece (``function``, ``table``) and shown by ``text``."""

    def __init__(self, path: str, title: str, sources: list[str], helpers: dict[str, Callable],
                 texts: Optional[dict[str, str]] = None):
        self.filename = f"<meeple {path or 'rules'} #{next(_numbers)}>"
        self.sources = sources or [path]
        self.texts = texts or {}  # the rules texts the loader read, by path (no other file is read)
        self._rules_lines: dict[int, list[str]] = {}
        self.published = False  # in linecache (functions added later are added there too)
        self.ns: dict[str, Any] = {"__name__": f"meeple_game_{self.filename.rsplit('#', 1)[1].rstrip('>')}"}
        self.ns.update(helpers)
        by_module: dict[str, list[str]] = {}
        for name, fn in sorted(helpers.items()):
            own = getattr(fn, "__name__", name)  # (imported under the name the code calls it by)
            by_module.setdefault(getattr(fn, "__module__", "?"), []).append(name if own == name else f"{own} as {name}")
        imports = [f"from {m} import {', '.join(names)}  # noqa: F401" for m, names in sorted(by_module.items())]
        self.lines: list[str] = [
            f'"""{_in_docstring(title)}: the game as meeple runs it.',
            "",
            f"Compiled by meeple {__version__} from {_in_docstring(path or 'an IR document')}; made again by",
            f"`meeple compile {_in_docstring(path or 'FILE')}`, so there is no point in editing it.",
            '"""',
            "",
            *imports,
            "",
            *LEGEND.split("\n"),
            "",
        ]
        self.header = len(self.lines)  # the lines that name the file and the engine
        self.spans: list[tuple[int, int, Optional[list[int]]]] = []  # (first line, last line, rules position)
        self.marks: dict[int, list[int]] = {}  # line → the rules position of the statement that starts there

    # ---- building ----
    def function(self, name: str, src: str, at: Optional[list[int]], compile_: Callable[[str, int], Any],
                 marks: Optional[dict[int, list[int]]] = None, shared: bool = False) -> Any:
        """Add the function ``name`` (its source ``src``, a ``def``) made for the rules at ``at``;
        return it. ``compile_(src, first)`` compiles source text as if it stood from line
        ``first`` on (the caller turns Python's own limits into rules errors); ``marks``: the
        rules position of the statement that starts at a line of ``src`` (counted from 0, the
        'def'); ``shared``: a function that several statements call (a route): an error in it is
        placed at the statement that called it."""
        head = ["", *self.comment(at)]
        first = len(self.lines) + len(head) + 1  # 1-based line of the 'def'
        body = src.rstrip("\n").split("\n")
        code = compile_(src, first)
        exec(code, self.ns)
        self.lines.extend(head + body)
        self.spans.append((first, first + len(body) - 1, None if shared else at))
        if self.published:
            self.publish(None)
        for offset, position in (marks or {}).items():
            self.marks[first + offset] = position
        return self.ns[name]

    def table(self, name: str, value: Any, source: str | None = None) -> None:
        """A value the code reads, by name: ``source`` (code that makes it) if given, written out
        when it is plain data, else described."""
        self.ns[name] = value
        shown = source or literal(value)
        if shown is not None:
            self.lines.append(f"{name} = {shown}")
        elif getattr(value, "__code__", None) is not None and self.ns.get(value.__name__) is value:
            self.lines.append(f"{name} = {value.__name__}")
        else:
            self.lines.append(f"# {name}: {_describe(value)}")

    def comment(self, at: Optional[list[int]]) -> list[str]:
        """``# file:line`` and the rules line itself."""
        if not at:
            return []
        index = at[4] if len(at) > 4 and at[4] < len(self.sources) else 0
        file = self.sources[index] if self.sources else ""
        line = at[0]
        text = "".join(c if c >= " " and c != "\x7f" or c == "\t" else f"\\x{ord(c):02x}"
                       for c in self.rules_line(index, line))  # (Python refuses a NUL even in a comment)
        where = f"{_in_docstring(Path(file).name)}:{line}"
        return [f"# {where}  {text}" if text else f"# {where}"]

    def rules_line(self, index: int, line: int) -> str:
        if index not in self._rules_lines:
            raw = self.texts.get(self.sources[index], "") if index < len(self.sources) else ""
            self._rules_lines[index] = raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        lines = self._rules_lines[index]
        text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
        return text if len(text) <= 100 else text[:97] + "..."

    # ---- reading ----
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def code_lines(self) -> list[str]:
        """The module's code without its header and comments (what a saved state depends on)."""
        return [line for line in self.lines[self.header:] if line.strip() and not line.lstrip().startswith("#")]

    def publish(self, owner: Any) -> None:
        """Register the text with ``linecache`` (tracebacks show its lines) for as long as
        ``owner`` (the game) lives."""
        text = self.text()
        linecache.cache[self.filename] = (len(text), None, text.splitlines(keepends=True), self.filename)
        if owner is not None and not self.published:
            weakref.finalize(owner, linecache.cache.pop, self.filename, None)
        self.published = True

    def position_of(self, line: int) -> Optional[list[int]]:
        """The rules position of the function that module line ``line`` is in."""
        for first, last, at in self.spans:
            if first <= line <= last:
                for n in range(line, first, -1):  # the statement the line is in, if marked
                    if n in self.marks:
                        return self.marks[n]
                return at
        return None

    def position_in(self, tb: Any) -> Optional[list[int]]:
        """The rules position of the innermost frame of traceback ``tb`` in this module."""
        found = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                found = self.position_of(tb.tb_lineno) or found
            tb = tb.tb_next
        return found

    def program(self, code: list, turn_start: int) -> None:
        """The flat program the state runs (``ops.py``), as a comment at the end of the module:
        which function each step calls, where tests jump, where decisions wait."""
        from .ops import CHANCE, CHOICE, END, EXEC, JUMP, JUMP_IF_NOT, NEXT_TURN
        self.lines += ["", "", "# ---- the program: what State runs, step by step (interpreter/ops.py) ----"]
        for n, (op, a, b) in enumerate(code):
            fn = getattr(a, "__name__", None) if a is not None else None
            shown = fn if fn and self.ns.get(fn) is a else "(engine)"
            label = getattr(a, "label", "") or getattr(a, "target", "") or getattr(a, "track_name", "")
            text = {EXEC: f"run {shown}" + ("; then see if the game is over" if b is True else ""),
                    JUMP_IF_NOT: f"unless {shown}: go to {b}", JUMP: f"go to {b}",
                    CHOICE: f"wait for the decision '{label}' ({type(a).__name__})",
                    CHANCE: f"wait for chance: '{label}' ({type(a).__name__})",
                    END: "the game ends" + (" with no winner" if a == "draw" else ""),
                    NEXT_TURN: f"next player; the turn starts again at {b}"}.get(op, "?")
            start = "  <- each turn starts here" if n == turn_start else ""
            self.lines.append(f"# {n:4}  {text}{start}")


def literal(value: Any, depth: int = 0) -> Optional[str]:
    """``value`` as Python source, if it is plain data (numbers, strings, tuples, lists, dicts)."""
    if depth > 8:
        return None
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        parts = [literal(v, depth + 1) for v in value]
        if any(p is None for p in parts):
            return None
        inside = ", ".join(parts)  # type: ignore[arg-type]
        if isinstance(value, list):
            return f"[{inside}]"
        return f"({inside},)" if len(parts) == 1 else f"({inside})"
    if isinstance(value, dict):
        items = [(literal(k, depth + 1), literal(v, depth + 1)) for k, v in value.items()]
        if any(k is None or v is None for k, v in items):
            return None
        return "{" + ", ".join(f"{k}: {v}" for k, v in items) + "}"
    return None


def _describe(value: Any) -> str:
    """What a value that is not plain data is, for a reader of the module."""
    label = getattr(value, "label", None)
    kind = type(value).__name__
    if isinstance(value, type):
        return f"the class {value.__module__}.{value.__name__}"
    owner = getattr(value, "__self__", None)
    if owner is not None and getattr(owner, "label", None) is not None:  # a bound method of a decision
        return f"{type(owner).__name__}.{value.__name__} of '{owner.label}' (interpreter/moves.py)"
    if label is not None:
        return f"the {kind} '{label}' (interpreter/moves.py), made by the compiler"
    spec = getattr(value, "spec", None)
    if spec is not None:
        return f"an {kind} of '{getattr(spec, 'label', '?')}' (interpreter/moves.py)"
    if isinstance(value, tuple) and value:  # (e.g. a draw's records, one per variety)
        return f"a tuple of {len(value)} made by the compiler, the first {_short(value[0])}"
    return f"a {kind} made by the compiler"


def _short(value: Any) -> str:
    """A value as a reader of the module is shown it in a line: plain data as it is, an object of
    the compiler's by what it is."""
    if isinstance(value, tuple):
        return "(" + ", ".join(map(_short, value)) + ("," if len(value) == 1 else "") + ")"
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    label = getattr(value, "label", None)
    return f"<the {type(value).__name__} '{label}'>" if label is not None else f"<a {type(value).__name__}>"


def _in_docstring(text: str) -> str:
    """A title or a file name as it may stand in the module's docstring or a comment: its
    control characters shown as escapes, and no backslash or quotes that end the docstring."""
    from meeple.dsl.diagnostics import visible
    return "".join(c if c.isprintable() and c not in '\\"' else "\\" + c if c in '\\"' else visible(c)
                   for c in text)
