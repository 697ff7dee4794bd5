"""How big and how deep a game is with its defines, routes and phases written out where they
are used (``expansion_problems``), and the phases that run themselves (``on_cycles``).

The compiler inlines a define at each use (and a phase at each ``run``) and the checker
checks each use, so a define that uses another twice, which uses another twice, ...
doubles the work at each level; and a chain of defines nests as deep as all of them
together. Both are measured here on the IR, before any of that work, without
recursing along the chain (which may be thousands of declarations long): the checker
then reports a game past ``MAX_EXPANDED_NODES`` or ``MAX_DEPTH`` and does not write it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

from .limits import MAX_DEPTH, MAX_EXPANDED_NODES
from .walk import children

MAX_REPORTED = 10


@dataclass
class Cost:
    """An expression written out: its nodes, its depth, and how often each parameter appears in it."""

    size: int = 0
    depth: int = 0
    uses: dict[str, int] = field(default_factory=dict)


@dataclass
class Entry:
    """A define, route or phase: what a use of it writes out."""

    kind: str  # "define", "route" or "phase"
    name: str
    index: int  # in its IR list
    node: dict
    params: list[str]
    body: Any
    cost: Optional[Cost] = None
    too_big: bool = False


@dataclass
class Problem:
    node: dict
    at_field: Optional[str]  # the field whose text the message points at (None: the whole node)
    message: str
    path: str


def _children(e: dict) -> Iterator[tuple[str, Any]]:
    return children(e)


def _entries(ir: dict) -> dict[tuple[str, str], Entry]:
    table: dict[tuple[str, str], Entry] = {}
    for i, d in enumerate(ir.get("defines", ())):
        table.setdefault(("define", d["name"]), Entry("define", d["name"], i, d, list(d["params"]), d["body"]))
    for i, r in enumerate(ir.get("routes", ())):
        table.setdefault(("route", r["name"]), Entry("route", r["name"], i, r, list(r["params"]), r["clauses"]))
    for i, ph in enumerate(ir.get("phases", ())):
        table.setdefault(("phase", ph["name"]), Entry("phase", ph["name"], i, ph, [], ph["body"]))
    return table


def _ref(e: dict, table: dict) -> tuple[Optional[Entry], list]:
    """The define, route or phase a node uses (and the arguments it passes), if any."""
    node = e.get("node")
    if node == "name":
        return table.get(("define", e.get("id"))), []
    if node in ("call", "filtered"):
        func = e.get("func")
        args = e.get("args") if isinstance(e.get("args"), list) else []
        entry = table.get(("define", func)) or table.get(("route", func))
        return entry, args
    if node == "run":
        return table.get(("phase", e.get("phase"))), []
    return None, []


def _refs(body: Any, table: dict) -> Iterator[Entry]:
    stack = [body]
    while stack:
        x = stack.pop()
        if isinstance(x, list):
            stack.extend(x)
        elif isinstance(x, dict):
            entry, _ = _ref(x, table)
            if entry is not None:
                yield entry
            stack.extend(v for _, v in _children(x))


class _Walk:
    """Costs of expressions with the entries they use written out (entries already costed)."""

    def __init__(self, table: dict, problems: list[Problem]):
        self.table = table
        self.problems = problems
        self.total = 0  # nodes written out so far, in walk order
        self.over: Optional[Problem] = None  # where the total went past the limit
        self.deep_reported = 0

    def cost(self, e: Any, params: frozenset, here: int, path: str, report: bool) -> Cost:
        """``e`` written out; ``here`` is its depth in the whole document (for reporting)."""
        if isinstance(e, list):
            out = Cost()
            for i, v in enumerate(e):
                self._add(out, self.cost(v, params, here, f"{path}[{i}]", report))
            return out
        if not isinstance(e, dict):
            return Cost()
        if e.get("node") == "name" and e.get("id") in params:
            self.total += 1
            return Cost(1, 1, {e["id"]: 1})
        self.total += 1
        if report and here + 1 > MAX_DEPTH:
            self._deep(e, path, f"this nests deeper than {MAX_DEPTH} levels")
            return Cost(1, 1)
        out = Cost()
        arg_costs: list[Cost] = []
        for k, v in _children(e):
            if k == "args" and isinstance(v, list):
                arg_costs = [self.cost(a, params, here + 1, f"{path}.args[{i}]", report) for i, a in enumerate(v)]
                for a in arg_costs:
                    self._add(out, a)
            else:
                self._add(out, self.cost(v, params, here + 1, f"{path}.{k}", report))
        entry, _ = _ref(e, self.table)
        own = Cost(1 + out.size, 1 + out.depth, out.uses)
        if entry is None or entry.cost is None or entry.too_big:
            return own
        body = entry.cost
        extra = body.size
        uses = dict(own.uses)
        for p, a in zip(entry.params, arg_costs):
            copies = body.uses.get(p, 0) - 1  # the argument is counted once already
            if copies > 0:
                extra += copies * a.size
                for name, n in a.uses.items():
                    uses[name] = uses.get(name, 0) + copies * n
        deepest_arg = max((a.depth for a in arg_costs), default=0)
        depth = max(own.depth, 1 + body.depth + deepest_arg)
        self.total += extra
        if report and here + depth > MAX_DEPTH:
            self._deep(e, path, f"with {entry.kind} '{entry.name}' written out, this nests deeper than "
                                f"{MAX_DEPTH} levels")
        if report and self.over is None and self.total > MAX_EXPANDED_NODES:
            self.over = Problem(e, None, f"with its defines, routes and phases written out where they are used, "
                                         f"the game grows past {MAX_EXPANDED_NODES:,} parts (this use of "
                                         f"{entry.kind} '{entry.name}' is where it goes over)", path)
        return Cost(own.size + extra, depth, uses)

    def _deep(self, e: dict, path: str, message: str) -> None:
        if self.deep_reported < MAX_REPORTED:
            self.deep_reported += 1
            self.problems.append(Problem(e, None, message, path))

    @staticmethod
    def _add(out: Cost, c: Cost) -> None:
        out.size += c.size
        out.depth = max(out.depth, c.depth)
        for k, n in c.uses.items():
            out.uses[k] = out.uses.get(k, 0) + n


def expansion_problems(ir: dict) -> list[Problem]:
    """Defines, routes and phases that grow too big or too deep written out, uses of them
    that nest too deep, and the use where the whole game grows too big (the first few)."""
    table = _entries(ir)
    problems: list[Problem] = []
    walk = _Walk(table, problems)
    # Cost each entry after those it uses (an explicit stack: chains may be long). An entry
    # that uses itself, directly or not, is left as a plain node there: the checker reports it.
    state: dict[int, int] = {}  # id(entry) → 1 on the stack, 2 done
    checked = 0
    for root in table.values():
        if id(root) in state:
            continue
        stack: list[tuple[Entry, Iterator[Entry]]] = [(root, _refs(root.body, table))]
        state[id(root)] = 1
        while stack:
            entry, deps = stack[-1]
            dep = next(deps, None)
            if dep is not None:
                if id(dep) not in state:
                    state[id(dep)] = 1
                    stack.append((dep, _refs(dep.body, table)))
                continue
            stack.pop()
            state[id(entry)] = 2
            path = f"$.{entry.kind}s[{entry.index}]"
            c = walk.cost(entry.body, frozenset(entry.params), 0, path, False)
            entry.cost = c
            what = f"{entry.kind} '{entry.name}'"
            message = None
            if c.depth > MAX_DEPTH:
                message = f"{what} nests deeper than {MAX_DEPTH} levels with what it uses written out"
            elif c.size > MAX_EXPANDED_NODES:
                message = f"{what} grows to {c.size:,} parts with what it uses written out (at most " \
                          f"{MAX_EXPANDED_NODES:,})"
            elif entry.kind != "phase":  # checked once on its own, what it uses written out
                checked += c.size
                if walk.over is None and checked > MAX_EXPANDED_NODES:
                    walk.over = Problem(entry.node, "name", f"with what they use written out, the defines and "
                                                               f"routes grow past {MAX_EXPANDED_NODES:,} "
                                                               f"parts ({what} is where they go over)", path)
            if message is not None:
                entry.too_big = True  # its uses are not written out: no error at each
                if len(problems) < MAX_REPORTED:
                    problems.append(Problem(entry.node, "name", message, path))
    walk.total = checked
    rest = {k: v for k, v in ir.items() if k not in ("defines", "routes", "phases")}
    walk.cost(rest, frozenset(), 0, "$", True)
    if walk.over is not None:
        problems.append(walk.over)
    return problems


def on_cycles(graph: dict[str, list[str]]) -> set[str]:
    """The nodes of ``graph`` that reach themselves (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: set[str] = set()
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph.get(start, ())))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(graph.get(w, ()))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1 or v in graph.get(v, ()):
                    out.update(component)
    return out
