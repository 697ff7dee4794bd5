"""What one game changes of another, in rule terms (``compare``): the params whose values or ranges
differ, the declarations added, removed or changed (matched by kind and name), and the parts a
game has one of (players, setup, turn, score, ...). Positions are ignored; a changed declaration
comes with its lines from both files, so a designer sees the rule as written.

Works on any two games, a variant and its base or two full files.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any, Optional

from .variants import NAMED, ONE_EACH
from .walk import same, span


@dataclass
class Difference:
    """One declaration that differs: ``what`` is "added", "removed", "changed" or "param"."""

    what: str
    kind: str
    name: Optional[str]
    summary: str = ""  # for params: "11 → 14 (range 4..40)"
    old_lines: list[str] = field(default_factory=list)
    new_lines: list[str] = field(default_factory=list)
    old_at: Optional[str] = None  # file:line
    new_at: Optional[str] = None

    def to_json(self) -> dict[str, Any]:
        return {"what": self.what, "kind": self.kind, "name": self.name, "summary": self.summary,
                "old_at": self.old_at, "new_at": self.new_at, "old": self.old_lines, "new": self.new_lines}


def compare(old: dict[str, Any], new: dict[str, Any], texts: dict[str, str]) -> list[Difference]:
    """How the game ``new`` differs from ``old`` (both checked IR); ``texts`` maps a file path to its
    text, for showing declarations as written."""
    out: list[Difference] = []
    if old["title"] != new["title"]:
        out.append(Difference("changed", "game", None, f"{old['title']!r} → {new['title']!r}"))
    for kind, (key, empty) in ONE_EACH.items():
        before, after = old.get(key, empty), new.get(key, empty)  # (one added to the IR later may be left out)
        if not same(before, after):
            out.append(_changed(kind, None, old, new, before, after, texts))
    if not same(old["end"], new["end"]):
        out.append(_changed("end when", None, old, new, old["end"], new["end"], texts))
    for kind, (key, name_key) in NAMED.items():
        before = {item[name_key]: item for item in old.get(key, [])}
        after = {item[name_key]: item for item in new.get(key, [])}
        for name, item in before.items():
            if name not in after:
                out.append(Difference("removed", kind, name, old_lines=_lines(old, item, texts),
                                      old_at=_where(old, item)))
        for name, item in after.items():
            if name not in before:
                out.append(Difference("added", kind, name, new_lines=_lines(new, item, texts),
                                      new_at=_where(new, item)))
            elif kind == "param":
                param = _param_change(before[name], item)
                if param:
                    out.append(Difference("param", kind, name, param, new_at=_where(new, item)))
            elif not same(before[name], item):
                out.append(_changed(kind, name, old, new, before[name], item, texts))
    return out


def render(differences: list[Difference], old_name: str, new_name: str) -> str:
    """The differences as text: one line each, changed declarations with a diff of their lines."""
    if not differences:
        return f"{new_name} plays the same game as {old_name}"
    out = [f"{new_name} changes {old_name} in {len(differences)} place{'s' if len(differences) != 1 else ''}:"]
    for d in differences:
        title = d.kind + (f" {d.name}" if d.name else "")
        where = f"  ({d.new_at or d.old_at})" if (d.new_at or d.old_at) else ""
        if d.what == "param":
            out.append(f"  param {d.name}: {d.summary}{where}")
            continue
        out.append(f"  {d.what} {title}{': ' + d.summary if d.summary else ''}{where}")
        if d.what == "changed" and (d.old_lines or d.new_lines):
            diff = difflib.unified_diff(d.old_lines, d.new_lines, lineterm="", n=1)
            out.extend(f"      {line}" for line in list(diff)[2:])
        else:
            sign = "+" if d.what == "added" else "-"
            out.extend(f"      {sign} {line}" for line in (d.new_lines or d.old_lines))
    return "\n".join(out)


def _changed(kind: str, name: Optional[str], old: dict, new: dict, a: Any, b: Any,
             texts: dict[str, str]) -> Difference:
    return Difference("changed", kind, name, old_lines=_lines(old, a, texts), new_lines=_lines(new, b, texts),
                      old_at=_where(old, a), new_at=_where(new, b))


def _param_change(a: dict[str, Any], b: dict[str, Any]) -> str:
    parts = []
    if a["default"] != b["default"]:
        parts.append(f"{a['default']} → {b['default']}")
    if (a["lo"], a["hi"]) != (b["lo"], b["hi"]):
        parts.append(f"range {a['lo']}..{a['hi']} → {b['lo']}..{b['hi']}")
    return ", ".join(parts)


def _span(value: Any) -> Optional[list[int]]:
    """The lines a declaration covers (for a list of statements, from the first to the last)."""
    if isinstance(value, list):
        spans = [s for s in (_span(v) for v in value) if s]
        if not spans:
            return None
        return [spans[0][0], spans[0][1], spans[-1][2], spans[-1][3], *spans[0][4:]]
    return span(value)


def _file(ir: dict[str, Any], at: list[int]) -> str:
    sources = ir.get("sources") or [ir.get("source", "")]
    return sources[at[4]] if len(at) > 4 and at[4] < len(sources) else sources[0]


def _where(ir: dict[str, Any], value: Any) -> Optional[str]:
    at = _span(value)
    return f"{_file(ir, at)}:{at[0]}" if at else None


def _lines(ir: dict[str, Any], value: Any, texts: dict[str, str]) -> list[str]:
    at = _span(value)
    if not at:
        return []
    text = texts.get(_file(ir, at))
    return text.splitlines()[at[0] - 1:at[2]] if text is not None else []
