"""What one game changes of another, in rule terms (``compare``): the params whose values or ranges
differ, the declarations added, removed or changed (matched by kind and name), the parts a game has
one of (players, score, ...), and in its blocks (setup, turn, phases) rule by rule: a statement or
an option changed, added or removed, named by the rule's name where it has one (``[name]``, a
decision's label, ``decision.option``) or by the named rule it stands before or after. Positions
and the names of rules are ignored (naming a rule changes no game); a changed rule comes with its
lines from both files, so a designer sees the rule as written.

Works on any two games, a variant and its base or two full files.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Optional

from .variants import NAMED, ONE_EACH
from .walk import positionless, same, span, unnamed


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


def compare(old: dict[str, Any], new: dict[str, Any], texts: dict[str, str],
            new_texts: Optional[dict[str, str]] = None) -> list[Difference]:
    """How the game ``new`` differs from ``old`` (both checked IR); ``texts`` maps a file path to its
    text, for showing declarations as written (``new_texts``, when given, for ``new``'s: an IR
    document's lines are only those of the rules files it was made from)."""
    out: list[Difference] = []
    if old["title"] != new["title"]:
        out.append(Difference("changed", "game", None, f'"{old["title"]}" → "{new["title"]}"'))  # (as written)
    both = _Texts(texts, texts if new_texts is None else new_texts)
    rules = _Rules(old, new, both, out)
    for kind, (key, empty) in ONE_EACH.items():
        before, after = old.get(key, empty), new.get(key, empty)  # (one added to the IR later may be left out)
        if kind in ("setup", "turn"):
            rules.block(before, after, kind)
        elif not _same(before, after):
            out.append(_changed(kind, None, old, new, before, after, both))
            if kind == "max_steps":  # a plain value: what it was and is
                out[-1].summary = f"{before or 'not given'} → {after or 'not given'}"
                was, at = span(old, key), span(new, key)
                out[-1].old_at = f"{_file(old, was)}:{was[0]}" if was else None
                out[-1].new_at = f"{_file(new, at)}:{at[0]}" if at else None
    rules.block(old["end"], new["end"], "end when")
    for kind, (key, name_key) in NAMED.items():
        before = {item[name_key]: item for item in old.get(key, [])}
        after = {item[name_key]: item for item in new.get(key, [])}
        if kind == "phase":  # the phases of both rule by rule, as the turn; the others added or removed
            common = before.keys() & after.keys()
            for name in common:
                rules.block(before[name]["body"], after[name]["body"], f"phase {name}")
            before = {k: v for k, v in before.items() if k not in common}
            after = {k: v for k, v in after.items() if k not in common}
        for name, item in before.items():
            if name not in after:
                out.append(Difference("removed", kind, name, old_lines=_lines(old, item, both.old),
                                      old_at=_where(old, item)))
        for name, item in after.items():
            if name not in before:
                out.append(Difference("added", kind, name, new_lines=_lines(new, item, both.new),
                                      new_at=_where(new, item)))
            elif kind == "param":
                param = _param_change(before[name], item)
                if param:
                    out.append(Difference("param", kind, name, param, new_at=_where(new, item)))
            elif not _same(before[name], item):
                out.append(_changed(kind, name, old, new, before[name], item, both))
                if kind in ("cards", "pieces"):
                    out[-1].summary = _listed_change(kind, before[name], item)
                    out[-1].new_at = _first_added(kind, before[name], item, new) or out[-1].new_at
    return out


def _listed_change(kind: str, a: dict, b: dict) -> str:
    """What changed in the varieties of a ``cards`` or the values of a ``pieces`` (an ``extend``
    adds after them, in another file than the lines shown)."""
    if kind == "pieces":
        old, new = a["values"], b["values"]
    else:
        old = [name for name, _ in _varieties(a["varieties"])]
        new = [name for name, _ in _varieties(b["varieties"])]
    added, removed = [n for n in new if n not in old], [n for n in old if n not in new]
    parts = [f"+ {', '.join(map(str, added))}"] if added else []
    parts += [f"- {', '.join(map(str, removed))}"] if removed else []
    return "; ".join(parts)


def _first_added(kind: str, a: dict, b: dict, ir: dict[str, Any]) -> Optional[str]:
    """Where the first variety or value that ``b`` adds to ``a`` is written (an ``extend`` in a
    variant's file, not the declaration it extends)."""
    if kind == "pieces":
        places = (b.get("at") or {}).get("values") or []
        added = [at for value, at in zip(b["values"], places) if value not in a["values"]]
    else:
        old = [name for name, _ in _varieties(a["varieties"])]
        added = [at["span"] for name, at in _varieties(b["varieties"]) if name not in old and at.get("span")]
    return f"{_file(ir, added[0])}:{added[0][0]}" if added else None


def _varieties(items: list[dict], loops: str = "") -> list[tuple[str, dict]]:
    """The varieties of a ``cards`` as written, each with its position: one made by a loop
    (``for s in suit { 1 gen {...} }``) by its name and the loop's variables, "gen (for each s)"."""
    out = []
    for v in items:
        if v.get("node") == "variety_loop":
            out += _varieties(v.get("varieties", []), ", ".join([*filter(None, [loops]), *v.get("vars", [])]))
        else:
            out.append((f"{v.get('name')} (for each {loops})" if loops else str(v.get("name")), v.get("at") or {}))
    return out


def _same(a: Any, b: Any) -> bool:
    """The same rules, positions and the names of rules aside."""
    return same(unnamed(a), unnamed(b))


def _name(node: dict) -> Optional[str]:
    """A rule's name: its own ([name]), a decision's label, or an option's ``name`` (``decision.``
    is added by the caller)."""
    if node.get("rule"):
        return node["rule"]
    if node.get("node") in ("choose", "place", "choose_one") and isinstance(node.get("label"), str):
        return node["label"]
    return None


@dataclass
class _Texts:
    """The texts of the files each game's positions point into, by path."""

    old: dict[str, str]
    new: dict[str, str]


# The blocks of a statement that ``_Rules`` looks into, when the rest of it is the same.
BLOCKS = ("body", "else_", "otherwise", "options")


class _Rules:
    """Differences between two blocks of statements, rule by rule (see the module's docstring)."""

    def __init__(self, old: dict, new: dict, texts: "_Texts", out: list[Difference]):
        self.old, self.new, self.texts, self.out = old, new, texts, out

    def block(self, a: list, b: list, where: str, prefix: str = "") -> None:
        """The statements (or options) ``a`` of the old game against ``b`` of the new one, in ``where``."""
        if _same(a, b):
            return
        keys = [json.dumps(unnamed(positionless(x)), sort_keys=True) for x in a]
        matcher = difflib.SequenceMatcher(None, keys, [json.dumps(unnamed(positionless(x)), sort_keys=True)
                                                       for x in b], autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                continue
            olds, news = list(range(i1, i2)), list(range(j1, j2))
            while olds and news and self.pair(a[olds[0]], b[news[0]], where, prefix):  # the same rule, changed
                olds, news = olds[1:], news[1:]
            for i in list(olds):  # a rule of the same name elsewhere in the stretch
                j = next((j for j in news if self.named(b[j], prefix) and
                          self.named(b[j], prefix) == self.named(a[i], prefix)), None)
                if j is not None and self.pair(a[i], b[j], where, prefix):
                    olds.remove(i)
                    news.remove(j)
            for i in list(olds):  # then one statement around changed blocks (an 'if' whose body changed)
                j = next((j for j in news if not self.named(a[i], prefix) and not self.named(b[j], prefix)
                          and b[j].get("node") == a[i].get("node") and any(k in a[i] for k in BLOCKS)
                          and self.pair(a[i], b[j], where, prefix)), None)
                if j is not None:
                    olds.remove(i)
                    news.remove(j)
            self.loose([a[i] for i in olds], news, b, where, prefix)

    def pair(self, x: dict, y: dict, where: str, prefix: str) -> bool:
        """Report ``x`` changed into ``y`` if they are one rule (the same name, or the same statement
        around changed blocks); False if they are not."""
        nx, ny = _name(x), _name(y)
        if x.get("node") == "option":
            nx, ny = self.named(x, prefix), self.named(y, prefix)
        if nx is not None and nx == ny and not any(isinstance(x.get(k), list) and x.get(k) for k in BLOCKS):
            self.out.append(_changed("rule", f"[{nx}]", self.old, self.new, x, y, self.texts))
            return True
        if x.get("node") != y.get("node"):
            return False
        if not _same({k: v for k, v in x.items() if k not in BLOCKS}, {k: v for k, v in y.items() if k not in BLOCKS}):
            if nx is not None and nx == ny:
                self.out.append(_changed("rule", f"[{nx}]", self.old, self.new, x, y, self.texts))
                return True
            return False
        inner = f"{x['label']}." if x.get("node") == "choose_one" else prefix
        within = f"[{nx or ny}]" if (nx or ny) else where
        for key in BLOCKS:
            if isinstance(x.get(key), list):
                self.block(x[key], y.get(key) or [], within, inner)
        return True

    @staticmethod
    def named(x: dict, prefix: str) -> Optional[str]:
        """A rule's name as a variant would write it: [name], a decision's label, decision.option."""
        if x.get("node") == "option":
            return x.get("rule") or prefix + x["name"]
        return _name(x)

    def loose(self, olds: list, news: list[int], b: list, where: str, prefix: str) -> None:
        """Statements removed, and those added (``news``: their places in ``b``), named by their own
        names or by where they stand; each run of added statements is one difference."""
        for x in olds:
            name = self.named(x, prefix)
            self.out.append(Difference("removed", "rule", f"[{name}]" if name else f"in {where}",
                                       old_lines=_lines(self.old, x, self.texts.old), old_at=_where(self.old, x)))
        runs: list[list[int]] = []
        for j in news:
            if runs and runs[-1][-1] == j - 1:
                runs[-1].append(j)
            else:
                runs.append([j])
        for run in runs:
            added = [b[j] for j in run]
            name = self.named(added[0], prefix) if len(added) == 1 else None
            place = self.anchor(b[:run[0]], b[run[-1] + 1:], prefix, where)
            self.out.append(Difference("added", "rule", f"[{name}] {place}" if name else place,
                                       new_lines=[ln for y in added for ln in _lines(self.new, y, self.texts.new)],
                                       new_at=_where(self.new, added)))

    def anchor(self, ahead: list, after: list, prefix: str, where: str) -> str:
        """Where added rules stand: after the named rule before them, or before the one after them."""
        if ahead and self.named(ahead[-1], prefix):
            return f"after [{self.named(ahead[-1], prefix)}]"
        if after and self.named(after[0], prefix):
            return f"before [{self.named(after[0], prefix)}]"
        return f"in {where}"


def render(differences: list[Difference], old_name: str, new_name: str, unseen: tuple[str, ...] = ()) -> str:
    """The differences as text: one line each, changed declarations with a diff of their lines.
    ``unseen`` names the games ("old", "new") whose lines are not at hand (an IR document without
    the rules files it was made from): a changed declaration shows the other's lines alone, not a
    diff that would say all its lines were taken out, or put in."""
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
        if d.what == "changed" and unseen:
            shown = [] if len(unseen) == 2 else [f"      {'+' if 'old' in unseen else '-'} {line}"
                                                 for line in (d.new_lines or d.old_lines)]
            out.extend(shown)
        elif d.what == "changed" and (d.old_lines or d.new_lines):
            diff = difflib.unified_diff(d.old_lines, d.new_lines, lineterm="", n=1)
            out.extend(f"      {line}" for line in list(diff)[2:])
        else:
            sign = "+" if d.what == "added" else "-"
            out.extend(f"      {sign} {line}" for line in (d.new_lines or d.old_lines))
    lacking = {side for d in differences if d.kind != "max_steps"  # (a plain value: no lines to show)
               for side, at, whats in (("old", d.old_at, ("changed", "removed")),
                                       ("new", d.new_at, ("changed", "added")))
               if side in unseen and at and d.what in whats}
    for name in (old_name if "old" in lacking else None, new_name if "new" in lacking else None):
        if name is not None:
            out.append(f"(the lines of {name} are not shown: it is an IR document, and the rules files it "
                       f"was made from are not at hand from this folder, or no longer make it)")
    from .diagnostics import printable
    return "\n".join(printable(line) for line in out)  # (a rules text's control characters, as escapes)


def _changed(kind: str, name: Optional[str], old: dict, new: dict, a: Any, b: Any, texts: "_Texts") -> Difference:
    return Difference("changed", kind, name, old_lines=_lines(old, a, texts.old),
                      new_lines=_lines(new, b, texts.new), old_at=_where(old, a), new_at=_where(new, b))


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
    """The lines ``value`` stands on, as written: from its first column (a statement after
    ``replace [name]`` on its line), and a declaration without the ``replace`` before it."""
    at = _span(value)
    if not at:
        return []
    text = texts.get(_file(ir, at))
    if text is None:
        return []
    lines = text.splitlines()[at[0] - 1:at[2]]
    if lines and len(lines) == at[2] - at[0] + 1:  # (not what follows it on its last line: a closing '}')
        lines[-1] = lines[-1][:at[3] - 1]
    if lines:  # (without the indentation of the line it starts on)
        head = lines[0]
        indent = len(head) - len(head.lstrip())
        lines = [head[at[1] - 1:] if at[1] - 1 > indent else head[indent:],
                 *(ln[indent:] if not ln[:indent].strip() else ln.lstrip() for ln in lines[1:])]
        lines[0] = re.sub(r"^replace\s+(?=\S)", "", lines[0])
    return lines
