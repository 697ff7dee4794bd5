"""Variants: a rules file that starts with ``extends "base.rules"`` is its base, changed (``resolve``).

A variant may

* set a base param's default: ``param goal = 7`` (the range and description are kept unless given);
* add declarations of new names, and more ``end when`` conditions;
* ``replace`` a declaration the base has: ``replace define target(p) = ...``, ``replace turn { ... }``;
* ``remove`` a named one: ``remove invariant podium_only_grows``, ``remove report "longest game"``;
* give its own ``game "title"`` (else it keeps the base's).

Declaring a name the base already has without ``replace`` is an error (a typo must not silently
add a second rule), and so is replacing or removing what the base does not have.

Merging works on the IR. Every position in the merged document says which file it is in: a
fifth item in its ``at`` array indexes ``sources`` (the variant first, then its bases), so that
the checker's errors point into the base file where the problem lies there.
"""

from __future__ import annotations

import copy
import itertools
import operator
import os
from pathlib import Path
from typing import Any, Optional

from .diagnostics import Diagnostic, RulesError, RulesSemanticError, did_you_mean
from .text import a_record
from .walk import AT, span

MAX_CHAIN = 16  # variants of variants, at most this deep: the 'extends' one after another from the file given
NAMED = {  # keyword → the IR list of that kind of declaration, and the key that names an item there
    "param": ("params", "name"), "enum": ("enums", "name"), "track": ("tracks", "name"),
    "pieces": ("pieces", "name"), "grid": ("grids", "name"),
    "board": ("boards", "name"), "route": ("routes", "name"),
    "zone": ("zones", "name"), "cards": ("cards", "name"), "var": ("vars", "name"),
    "define": ("defines", "name"), "phase": ("phases", "name"), "report": ("reports", "label"),
    "show": ("shows", "label"), "invariant": ("invariants", "name"),
}
ONE_EACH = {  # what a game declares once: keyword → IR key, and its value when not declared
    "players": ("players", None), "max_steps": ("max_steps", 0), "setup": ("setup", []),
    "turn": ("turn", []), "score": ("score", None), "tiebreak": ("tiebreak", None),
    "returns": ("returns", None),
}


def _is_file(name: str) -> bool:
    try:
        return Path(name).is_file()
    except (OSError, ValueError):
        return False


def resolve(ir: dict[str, Any], path: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The whole game of the file at ``path`` whose IR is ``ir``: ``ir`` itself when it extends
    nothing, else its base (resolved in turn) merged with its changes. Also the texts of the base
    files read, by path, for showing their lines in diagnostics (the base it extends first). Raises
    ``RulesError`` with every problem of the merge found."""
    texts: dict[str, str] = {}
    try:
        return _resolve(ir, path, [str(Path(path).resolve())], texts), texts
    except _TooDeep as e:  # said at the 'extends' of the file given: the one whose chain is too long
        names = [Path(p).name for p in e.chain]
        shown = " → ".join(names if len(names) <= 6 else [*names[:3], "...", *names[-2:]])
        raise RulesSemanticError([_diag(path, span(ir, "extends"), f"variants of variants more than {MAX_CHAIN} deep: "
                                                                   f"{shown} is {len(names) - 1} deep")]) from None


class _TooDeep(Exception):
    """A chain of variants longer than MAX_CHAIN, met deep down: told to ``resolve``, past each base's
    'has errors' note (not a ``RulesError``)."""

    def __init__(self, chain: list[str]):
        super().__init__()
        self.chain = chain


def _resolve(ir: dict[str, Any], path: str, chain: list[str], texts: dict[str, str]) -> dict[str, Any]:
    if ir.get("extends") == "":
        raise RulesSemanticError([_diag(path, span(ir, "extends"), "'extends' names no file: write the base's path, "
                                                                   "e.g. extends \"../game.rules\"")])
    if not ir.get("extends"):
        return ir
    from . import cached_ir_from_text, read_text

    at = span(ir, "extends")
    try:
        base_path = os.path.normpath(Path(path).parent / ir["extends"])
        here = str(Path(base_path).resolve())
        is_dir, exists, is_file = Path(base_path).is_dir(), Path(base_path).exists(), Path(base_path).is_file()
    except (OSError, ValueError, RuntimeError) as e:  # a NUL in the name, a name too long, a loop of links
        name = ir["extends"] if len(ir["extends"]) <= 80 else ir["extends"][:60] + "..."
        why = "a loop of symbolic links" if isinstance(e, RuntimeError) else getattr(e, "strerror", None) or e
        raise RulesSemanticError([_diag(path, at, f"the base file {name!r} cannot be found: {why}")]) from None
    if here in chain:
        cycle = " → ".join(Path(p).name for p in [*chain[chain.index(here):], here])
        raise RulesSemanticError([_diag(path, at, f"the variants extend each other in a cycle: {cycle}")])
    if len(chain) > MAX_CHAIN:  # (this 'extends' is the chain's len(chain)-th)
        raise _TooDeep([*chain, here])
    if is_dir:
        raise RulesSemanticError([_diag(path, at, f"the base '{ir['extends']}' is a folder ({base_path}); "
                                                  f"'extends' names a rules file")])
    if not exists:
        meant = next((f"{ir['extends']}{ext}" for ext in (".rules", ".json") if _is_file(base_path + ext)), None)
        hint = f"; did you mean '{meant}'?" if meant else ""
        raise RulesSemanticError([_diag(path, at, f"the base file '{ir['extends']}' does not exist "
                                                  f"(looked for {base_path}; the path is relative to this "
                                                  f"file{hint})")])
    if not is_file:  # a device, a pipe
        raise RulesSemanticError([_diag(path, at, f"the base '{ir['extends']}' is not a file ({base_path}): "
                                                  f"'extends' names a rules file")])
    note = _diag(path, at, f"the base file '{ir['extends']}' has errors", kind="note")
    try:
        text = read_text(base_path)
    except RulesError as e:  # (a file that is not text)
        raise type(e)([*e.diagnostics, note], None, {**texts, **e.texts}) from None
    if not base_path.endswith((".json", ".rules")) and not _parses(text, base_path):
        # not a rules file by its name, nor by its text: said without showing the file
        what = "a game record (JSON lines)" if a_record(text, base_path) else \
            "not a rules file (it does not parse as one)"
        raise RulesSemanticError([_diag(path, at, f"the base '{ir['extends']}' is {what}: 'extends' names a rules "
                                                  f"file (.rules) or an IR file (.json)")])
    try:
        texts[base_path] = text
        if base_path.endswith(".json"):
            from . import ir_from_json
            base = _resolve(ir_from_json(text, base_path), base_path, [*chain, here], texts)
        else:
            base = _resolve(cached_ir_from_text(text, base_path), base_path, [*chain, here], texts)
    except RulesError as e:  # the base's own syntax errors, or its variant's merge errors: shown in its text
        raise type(e)([*e.diagnostics, note], None, {**texts, **e.texts}) from None
    return merge(base, ir, base_path, path, texts)


def _parses(text: str, path: str) -> bool:
    from . import cached_ir_from_text
    try:
        cached_ir_from_text(text, path)
    except RulesError:
        return False
    return True


def merge(base: dict[str, Any], variant: dict[str, Any], base_path: str, path: str,
          texts: dict[str, str]) -> dict[str, Any]:
    """``base`` (a resolved game from ``base_path``) changed by ``variant`` (the IR of ``path``)."""
    problems: list[Diagnostic] = []
    sources = [path, *(base.get("sources") or [base_path])]
    base = _shift_files(base)
    out = dict(base)
    out.update(source=path, sources=sources, extends=None, changes=[], title=variant["title"] or base["title"])
    replaced = {(c["kind"], c["name"]) for c in variant["changes"] if c["action"] == "replace"}
    changes: dict[tuple[str, str], dict[str, Any]] = {}
    twice: dict[int, tuple[str, str]] = {}  # (changes of a declaration this variant changed already: said, not applied)
    for c in variant["changes"]:
        first = changes.setdefault((c["kind"], c["name"]), c)
        if first is not c and c["name"] is not None:  # (what a game has one of: the parser says it is twice)
            twice[id(c)] = (c["kind"], c["name"])
            problems.append(_twice(path, c, c["kind"], c["name"], first,
                                   "replaced" if first["action"] == "replace" else "removed"))

    def where(at: Optional[list[int]]) -> str:
        from . import _source_of, looks_like_ir
        at = at or [0, 0, 0, 0, 1]
        file = sources[at[4]] if len(at) > 4 else path
        text = texts.get(file) or ""
        if looks_like_ir(file, text):  # (its positions are of the rules it was made from, not lines of its JSON)
            made_from = _source_of(text)
            return f"the base declares it in {file}" + (f", made from {made_from}:{at[0]}:{at[1]}" if made_from
                                                        and at[0] else "")
        line = text.splitlines()[at[0] - 1:at[0]]
        return f"the base declares it at {file}:{at[0]}:{at[1]}" + (f": {line[0].strip()}" if line else "")

    for kind, (key, empty) in ONE_EACH.items():
        mine, theirs, replacing = variant.get(key, empty), base.get(key, empty), (kind, None) in replaced
        if mine == empty and not replacing:
            continue
        if theirs != empty and not replacing:  # (a plain value, max_steps, has its position beside it)
            problems.append(_diag(path, _at_of(mine) or span(variant, key) or _change_at(variant, kind),
                                  f"the base already has '{kind}'; write 'replace {kind} ...' to change it",
                                  notes=(where(_at_of(theirs) or span(base, key)),)))
        elif theirs == empty and replacing:
            problems.append(_diag(path, _change_at(variant, kind), f"nothing to replace: the base has no '{kind}'"))
        out[key] = mine
        positions = {k: v for k, v in out.get(AT, {}).items() if k != key}
        if span(variant, key):
            positions[key] = span(variant, key)
        out[AT] = positions

    for kind, (key, name_key) in NAMED.items():
        base_items = base.get(key, [])  # (a list added to the IR later may be left out when empty)
        items = list(base_items)
        index = {item[name_key]: i for i, item in enumerate(items)}
        set_here: dict[tuple[str, str], dict[str, Any]] = {}  # base declarations this variant set or replaced
        for item in variant.get(key, []):
            name = item[name_key]
            i = index.get(name)
            if i is not None and i >= len(base_items):  # the variant's own twice: the checker says so
                items.append(item)
            elif i is None:
                if (kind, name) in replaced:
                    problems.append(_diag(path, span(changes[(kind, name)]), f"nothing to replace: the base has "
                                          f"no {kind} '{name}'{did_you_mean(name, index)}"))
                elif kind == "param" and item["lo"] is None:
                    problems.append(_diag(path, span(item), f"the base has no param '{name}'"
                                          f"{did_you_mean(name, index)}; a new param needs a range: "
                                          f"param {name} = {item['default']} in LOW..HIGH"))
                items.append(item)
                index[name] = len(items) - 1
            elif (kind, name) in set_here:  # (unless said with the changes above)
                if (kind, name) not in twice.values():
                    problems.append(_twice(path, item, kind, name, set_here[(kind, name)], "set"))
            elif kind == "param":
                set_here[(kind, name)] = item
                items[i] = _set_param(items[i], item)
            elif (kind, name) in replaced:
                set_here[(kind, name)] = changes[(kind, name)]
                items[i] = item
            else:
                problems.append(_diag(path, span(item, name_key) or span(item),
                                      f"the base already has {kind} '{name}'; write 'replace {kind} ...' to "
                                      f"change it, or choose another name", notes=(where(span(items[i])),)))
        if items or key in out:
            out[key] = items
    out["end"] = [*base["end"], *variant["end"]]
    for key in ("labels",):  # (what play calls things: the variant's after the base's, a later label wins)
        if base.get(key) or variant.get(key):
            out[key] = [*base.get(key, []), *variant.get(key, [])]
    out.pop("rule_changes", None)
    out.pop("extensions", None)
    for ext in variant.get("extensions", []):
        _extend(out, ext, path, problems)
    base_ends = len(base["end"])
    if variant.get("rule_changes"):  # (changed in place: the lists must be this game's own, not a cached IR's)
        for key in ("setup", "turn", "phases", "end"):
            out[key] = copy.deepcopy(out[key])
    gone: dict[str, dict[str, Any]] = {}  # rule names an earlier change of this variant took out of the game
    rules = _Rules(out)  # (the rules by name, kept up to date as the changes are made)
    for change in variant.get("rule_changes", []):
        base_ends = _change_rule(out, change, base_ends, path, problems, gone, rules)

    for change in variant["changes"]:
        if change["action"] != "remove" or id(change) in twice:
            continue
        key, name_key = NAMED[change["kind"]]
        names = [item[name_key] for item in out.get(key, [])]
        if change["name"] in names:
            out[key] = [item for item in out[key] if item[name_key] != change["name"]]
        else:
            problems.append(_diag(path, span(change, "name") or span(change),
                                  f"nothing to remove: the base has no {change['kind']} '{change['name']}'"
                                  f"{did_you_mean(change['name'], names)}"))
    if problems:
        raise RulesSemanticError(sorted(problems, key=lambda d: (d.line, d.col)), None, texts)
    return out


def _extend(game: dict[str, Any], ext: dict[str, Any], path: str, problems: list[Diagnostic]) -> None:
    """``extend ...``: more statements after a block's, more varieties or piece values after the base's."""
    part, name = ext["part"], ext.get("name")
    if part not in ("setup", "turn") and not name:  # (only an IR document can lack it)
        problems.append(_diag(path, span(ext), f"'extend {part}' names the {part} it extends"))
        return
    if part in ("setup", "turn"):
        game[part] = [*game[part], *ext["body"]]
        return
    key, field = {"phase": ("phases", "body"), "cards": ("cards", "varieties"), "pieces": ("pieces", "values")}[part]
    items = game.get(key, [])
    i = next((i for i, item in enumerate(items) if item["name"] == name), None)
    if i is None:
        names = [item["name"] for item in items]
        problems.append(_diag(path, span(ext, "name") or span(ext), f"nothing to extend: the base has no {part} "
                                                                     f"'{name}'{did_you_mean(name or '', names)}"))
        return
    item = dict(items[i])
    if part == "phase":
        item["body"] = [*item["body"], *ext["body"]]
    elif part == "cards":
        item["varieties"] = [*item["varieties"], *ext["varieties"]]
    else:  # (the positions of a list of names are a list beside it)
        item["values"] = [*item["values"], *ext["values"]]
        at = dict(item.get(AT) or {})
        if AT in ext and "values" in ext[AT] and "values" in at:
            at["values"] = [*at["values"], *ext[AT]["values"]]
            item[AT] = at
    game[key] = [*items[:i], item, *items[i + 1:]]


def named_rules(game: dict[str, Any]) -> dict[str, list[tuple[str, list, int]]]:
    """Every rule of ``game`` that has a name, by name: (what it is, the list it stands in, its
    index there); what it is is "statement", "option" or "end". A rule named ``[name]`` is listed
    under that name; a decision also under its label, and each of its options under
    ``decision.option``, unless a rule is named so."""
    rules = _Rules(game)
    return {name: rules.find(name) for name in rules.names()}


class _Rules:
    """``named_rules`` of a game, made once and kept up to date as a variant's changes are made
    (made again for each change, a variant of thousands of changes took minutes): each rule is
    kept with the list it stands in and its node, whose index is looked up when it is wanted."""

    def __init__(self, game: dict[str, Any]):
        self.named: dict[str, list[tuple[str, list, dict]]] = {}
        self.implicit: dict[str, list[tuple[str, list, dict]]] = {}
        self.labels: dict[int, Any] = {}  # id of a decision's options → its label
        for key in ("setup", "turn"):
            self.block(game.get(key, []), self.add)
        for ph in game.get("phases", []):
            self.block(ph.get("body", []), self.add)
        self.ends(game, self.add)

    def add(self, name: str, what: str, where: list, node: dict, explicit: bool) -> None:
        (self.named if explicit else self.implicit).setdefault(name, []).append((what, where, node))

    def drop(self, name: str, what: str, where: list, node: dict, explicit: bool) -> None:
        table = self.named if explicit else self.implicit
        left = [entry for entry in table.get(name, []) if entry[2] is not node]
        if left:
            table[name] = left
        else:
            table.pop(name, None)

    def block(self, stmts: list, op: Any) -> None:
        for s in stmts:
            self.stmt(s, stmts, op)

    def stmt(self, s: Any, stmts: list, op: Any) -> None:
        if not isinstance(s, dict):
            return
        if s.get("rule"):
            op(s["rule"], "statement", stmts, s, True)
        if s.get("node") in ("choose", "place", "choose_one") and isinstance(s.get("label"), str):
            op(s["label"], "statement", stmts, s, False)
        for key in ("body", "else_", "otherwise"):
            if isinstance(s.get(key), list):
                self.block(s[key], op)
        if s.get("options"):
            self.labels[id(s["options"])] = s.get("label")
            for option in s["options"]:
                self.option(option, s["options"], op)

    def option(self, option: dict, options: list, op: Any) -> None:
        if option.get("rule"):
            op(option["rule"], "option", options, option, True)
        op(f"{self.labels.get(id(options))}.{option.get('name')}", "option", options, option, False)
        self.block(option.get("body") or [], op)

    def ends(self, game: dict[str, Any], op: Any) -> None:
        for e in game.get("end", []):
            if e.get("rule"):
                op(e["rule"], "end", game["end"], e, True)

    def rule(self, what: str, node: dict, where: list, op: Any) -> None:
        """Add (``op`` is ``add``) or drop (``drop``) the names of ``node``, a rule standing in ``where``."""
        if what == "statement":
            self.stmt(node, where, op)
        elif what == "option":
            self.option(node, where, op)
        elif node.get("rule"):
            op(node["rule"], "end", where, node, True)

    def find(self, name: str) -> list[tuple[str, list, int]]:
        entries = self.named.get(name) or self.implicit.get(name) or []
        return [(what, where, _index(where, node)) for what, where, node in entries]

    def names(self) -> set[str]:
        return {*self.named, *self.implicit}


def _index(items: list, node: Any) -> int:
    """Where ``node`` itself stands in ``items`` (not an equal node: a list may hold the same
    statement twice); the scan runs in C, a variant of thousands of changes scans thousands of times."""
    return next(itertools.compress(itertools.count(), map(operator.is_, items, itertools.repeat(node))))


def _change_rule(game: dict[str, Any], change: dict[str, Any], base_ends: int, path: str,
                 problems: list[Diagnostic], gone: dict[str, dict[str, Any]], rules: _Rules) -> int:
    """Apply ``replace [name] ...``, ``remove [name]``, ``insert before|after [name] ...`` (or a
    change of the base's own 'end when' conditions, the first ``base_ends`` of the game's) to
    ``game``; returns how many of the game's 'end when' are still the base's. ``gone``: the rule
    names earlier changes took out of the game, by name (the change that did), kept up to date."""
    action, name, at = change["action"], change.get("rule"), span(change)
    if name is None and (action not in ("replace", "remove") or (action == "replace" and change.get("end") is None)):
        problems.append(_diag(path, at, "a change of the base's 'end when' is 'replace end when TEST' or "
                                        "'remove end when'; any other change names a rule: [name]"))
        return base_ends
    if name is None:  # replace end when ... / remove end when: every 'end when' of the base
        if not base_ends:
            problems.append(_diag(path, at, f"nothing to {action}: the base has no 'end when'"))
            return base_ends
        new = [{"node": "end_when", "test": change["end"], AT: {"span": at}}] if action == "replace" else []
        rules.ends(game, rules.drop)
        game["end"] = [*new, *game["end"][base_ends:]]
        rules.ends(game, rules.add)
        return len(new)
    found = rules.find(name)
    if not found and name in gone:  # (not "the base has no rule": it had, until this variant changed it)
        first = span(gone[name]) or [0, 0]
        did = "removed" if gone[name]["action"] == "remove" else "replaced"
        problems.append(_diag(path, span(change, "rule") or at,
                              f"[{name}] is no longer in the game: this variant has {did} it already",
                              notes=(f"it is {did} at {path}:{first[0]}:{first[1]}",)))
        return base_ends
    if len(found) != 1:
        names = sorted(rules.names())
        problems.append(_diag(path, span(change, "rule") or at,
                              f"the base has no rule named [{name}]{did_you_mean(name, names)}" if not found else
                              f"{len(found)} rules of the base are named [{name}]: name the one to change "
                              f"([name] before it in the base)"))
        return base_ends
    (what, where, i), = found
    given = "options" if change["options"] else "an 'end when'" if change.get("end") is not None else "statements"
    wanted = {"statement": "statements", "option": "options", "end": "an 'end when'"}[what]
    if action != "remove" and given != wanted and not (given == "statements" and not change["body"]
                                                       and what != "end"):  # ({ }: nothing in its place)
        article = {"statement": "a statement", "option": "an option", "end": "an 'end when'"}[what]
        how = f"replace it with {wanted}" if action == "replace" else f"insert {wanted} {action} it"
        problems.append(_diag(path, at, f"[{name}] is {article} of the base: {how}, not {given}"))
        return base_ends
    if what == "end" and action in ("before", "after"):
        problems.append(_diag(path, at, f"[{name}] is an 'end when': a variant adds one as it is written, "
                                        f"not before or after another"))
        return base_ends
    if what == "end":
        new = [dict(where[i], test=change["end"], **{AT: {"span": at}})] if action == "replace" else []
    else:
        new = change["options"] if what == "option" else change["body"]
        if action == "replace" and len(new) == 1 and not new[0].get("rule") and where[i].get("rule"):
            new = [dict(new[0], rule=where[i]["rule"])]  # (one rule in the place of one keeps its name)
    if what == "option" and action in ("replace", "remove") and len(where) == 1 and not (action == "replace" and new):
        problems.append(_diag(path, at, f"[{name}] is the last option of its decision: a decision needs one; "
                                        f"replace the decision ([label]) to take it out"))
        return base_ends
    if action in ("replace", "remove"):
        rules.rule(what, where[i], where, rules.drop)
    if action == "replace":
        where[i:i + 1] = new
    elif action == "remove":
        del where[i]
    else:
        where[i + (action == "after"):i + (action == "after")] = new
    for node in new:
        rules.rule(what, node, where, rules.add)
    if what == "end" and i < base_ends:
        base_ends += len(new) - 1
    if action in ("replace", "remove") and not rules.find(name):
        gone[name] = change
    return base_ends


def _twice(path: str, node: dict[str, Any], kind: str, name: str, first: dict[str, Any], did: str) -> Diagnostic:
    """``node`` changes the base's ``kind`` ``name`` a second time (``first`` replaced, removed or set it)."""
    at = span(first) or [0, 0]
    return _diag(path, span(node, "name") or span(node),
                 f"{kind} '{name}' is changed twice: this variant has {did} it already; change it once",
                 notes=(f"it is {did} at {path}:{at[0]}:{at[1]}",))


def _set_param(base: dict[str, Any], mine: dict[str, Any]) -> dict[str, Any]:
    """A base param with the variant's default (and range and description, where it gives them).
    It stands where the variant sets it (a default out of range is said there), its name where the
    base declares it (a name that clashes with it is said to clash with the base's declaration)."""
    at = dict(mine.get(AT) or {})
    if span(base, "name"):
        at["name"] = span(base, "name")
    out = dict(base, default=mine["default"], at=at or None)
    if mine["lo"] is not None:
        out.update(lo=mine["lo"], hi=mine["hi"])
    if mine["doc"]:
        out["doc"] = mine["doc"]
    return {k: v for k, v in out.items() if v is not None or k in ("lo", "hi")}


def _at_of(value: Any) -> Optional[list[int]]:
    """Where a declaration stands: its own position, or its first statement's."""
    if isinstance(value, list):
        value = value[0] if value else None
    return span(value)


def _change_at(variant: dict[str, Any], kind: str) -> Optional[list[int]]:
    return next((span(c) for c in variant["changes"] if c["kind"] == kind), None)


def _shift_files(node: Any) -> Any:
    """A copy of a base's IR whose positions point one file further down ``sources``."""
    if isinstance(node, dict):
        return {k: ({f: _shift_span(at) for f, at in v.items()} if k == AT and isinstance(v, dict) else _shift_files(v))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_shift_files(v) for v in node]
    return node


def _shift_span(at: Any) -> Any:
    if isinstance(at, list) and at and isinstance(at[0], list):  # the positions of a list of names
        return [_shift_span(a) for a in at]
    if isinstance(at, list) and len(at) >= 4:
        return [*at[:4], (at[4] if len(at) > 4 else 0) + 1]
    return at


def _diag(file: str, at: Optional[list[int]], message: str, kind: str = "error",
          notes: tuple[str, ...] = ()) -> Diagnostic:
    line, col, end_line, end_col = (at or [0, 0, 0, 0])[:4]
    return Diagnostic(file, message, line, col, end_line, end_col, kind=kind, notes=notes)
