"""Compile IR expressions into Python closures ``fn(state) -> value`` (``ExprCompiler``).

Run-time values are plain ints and bools: a piece or enum value is its global
value id, a player is a seat number, a card (in a loop over a zone) is its
variety index, "no value" is -1. Defines are inlined, names are resolved here
once, so nothing is looked up by name while a game runs.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable

from dsl.symbols import Symbols

Fn = Callable[[Any], Any]
NO_VALUE = -1


class Layout:
    """Where each part of a game lives in a ``State``: value ids, zone slots, vars."""

    def __init__(self, ir: dict, sym: Symbols, params: dict[str, int]):
        self.sym = sym
        self.params = params
        self.value_names: list[str] = []
        self.value_id: dict[str, int] = {}
        self.kind_values: dict[str, list[int]] = {}
        for kind, values in sym.kinds.items():
            ids = []
            for v in values:
                if v not in self.value_id:
                    self.value_id[v] = len(self.value_names)
                    self.value_names.append(v)
                ids.append(self.value_id[v])
            self.kind_values[kind] = ids
        self.piece_ids = [self.value_id[v] for k in sym.piece_kinds for v in sym.kinds[k]]
        self.piece_track: dict[int, int] = {}
        self.track_names = list(sym.tracks)
        for kind, track in sym.piece_kinds.items():
            for v in sym.kinds[kind]:
                self.piece_track[self.value_id[v]] = self.track_names.index(track) if track in sym.tracks else 0
        self.variety_names: list[str] = []
        self.variety_kind: list[str] = []
        self.variety_attrs: list[dict[str, Any]] = []
        for c in ir["cards"]:
            for v in c["varieties"]:
                self.variety_names.append(v["name"])
                self.variety_kind.append(c["name"])
                self.variety_attrs.append({a["name"]: a["value"] for a in v["attrs"]})
        self.attr_table: dict[str, list[Any]] = {}
        for attr, t in sym.attrs.items():
            default: Any = False if t == "bool" else (0 if t == "int" else NO_VALUE)
            column = []
            for attrs in self.variety_attrs:
                value = attrs.get(attr, default)
                if isinstance(value, str):
                    value = self.value_id.get(value, NO_VALUE)
                column.append(value)
            self.attr_table[attr] = column
        self.zone_names = list(sym.zones)
        self.var_names = list(sym.vars)

    def zone_slot(self, name: str, seat: int, players: int) -> int:
        """Index of zone ``name`` (of ``seat``) in ``State.zones``."""
        return self.zone_base(players)[name] + seat

    def zone_base(self, players: int) -> dict[str, int]:
        base, out = 0, {}
        for name in self.zone_names:
            out[name] = base
            base += players if self.sym.zones[name]["per_player"] else 1
        out[""] = base
        return out


class ExprCompiler:
    """Turns expression IR into closures. ``env`` maps a name to a closure (define
    parameters, locals, loop variables); ``card`` is the closure giving the card a
    ``where`` filter is looking at, when inside one."""

    def __init__(self, layout: Layout, slots: "SlotAllocator"):
        self.layout = layout
        self.sym = layout.sym
        self.slots = slots

    def compile(self, e: dict, env: dict[str, Fn]) -> Fn:
        return getattr(self, "c_" + e["node"])(e, env)

    # ---- leaves ----
    def c_int(self, e, env):
        v = e["value"]
        return lambda st: v

    def c_bool(self, e, env):
        v = e["value"]
        return lambda st: v

    def c_name(self, e, env):
        name = e["id"]
        if name in env:
            return env[name]
        if name == "players":
            return lambda st: st.players
        if name == "current":
            return lambda st: st.current
        sym = self.sym
        if name in sym.params:
            v = self.layout.params[name]
            return lambda st: v
        if name in sym.defines:
            return self.inline(sym.defines[name], [], env)
        if name in self.layout.value_id:
            v = self.layout.value_id[name]
            return lambda st: v
        if name in sym.zones:
            zi = self.layout.zone_names.index(name)
            return lambda st: st.zones[st.zone_base[zi]]
        if name in sym.vars:
            vi = self.layout.var_names.index(name)
            return lambda st: st.vars[st.var_base[vi]]
        if name in sym.tracks:
            ti = self.layout.track_names.index(name)
            return lambda st: ti
        raise KeyError(name)

    # ---- calls ----
    def inline(self, define: dict, args: list[Fn], env: dict[str, Fn]) -> Fn:
        inner = dict(zip(define["params"], args))
        return self.compile(define["body"], inner)

    def c_call(self, e, env):
        func = e["func"]
        args = [self.compile(a, env) for a in e["args"]]
        sym = self.sym
        if func in sym.defines:
            return self.inline(sym.defines[func], args, env)
        if func in sym.zones:
            zi = self.layout.zone_names.index(func)
            (seat,) = args
            return lambda st: st.zones[st.zone_base[zi] + seat(st)]
        if func in sym.vars:
            vi = self.layout.var_names.index(func)
            (seat,) = args
            return lambda st: st.vars[st.var_base[vi] + seat(st)]
        return getattr(self, "b_" + func)(args, e)

    def b_count(self, args, e):
        (zone,) = args
        return lambda st: sum(zone(st))

    def b_pos(self, args, e):
        (piece,) = args
        return lambda st: st.pos[piece(st)]

    def b_finished(self, args, e):
        (piece,) = args
        return lambda st: st.place[piece(st)] > 0

    def b_place(self, args, e):
        (piece,) = args
        return lambda st: st.place[piece(st)]

    def b_at_place(self, args, e):
        track, k = args

        def at_place(st):
            podium = st.podium[track(st)]
            i = k(st) - 1
            return podium[i] if 0 <= i < len(podium) else NO_VALUE
        return at_place

    def b_finishers(self, args, e):
        (track,) = args
        return lambda st: len(st.podium[track(st)])

    def b_min(self, args, e):
        if len(args) == 2:
            a, b = args
            return lambda st: min(a(st), b(st))
        return lambda st: min(f(st) for f in args)

    def b_max(self, args, e):
        if len(args) == 2:
            a, b = args
            return lambda st: max(a(st), b(st))
        return lambda st: max(f(st) for f in args)

    def b_abs(self, args, e):
        (a,) = args
        return lambda st: abs(a(st))

    # ---- card queries ----
    def card_test(self, where: dict, env: dict[str, Fn]) -> tuple[Fn, int]:
        """The ``where`` test of a filter, reading the card from a fresh local slot."""
        slot = self.slots.new()
        inner = dict(env)
        table = self.layout.attr_table
        for attr, column in table.items():
            if attr not in env:
                inner[attr] = (lambda col: lambda st: col[st.locals[slot]])(column)
        return self.compile(where, inner), slot

    def c_filtered(self, e, env):
        zone = self.compile(e["zone"], env)
        where = e["where"]
        n = len(self.layout.variety_names)
        # attr == value-independent-of-the-card: precompute the varieties per value.
        if where["node"] == "bin_op" and where["op"] == "==" and where["left"]["node"] == "name" \
                and where["left"]["id"] in self.layout.attr_table and where["left"]["id"] not in env \
                and not _mentions(where["right"], self.layout.attr_table, env):
            column = self.layout.attr_table[where["left"]["id"]]
            groups: dict[Any, tuple[int, ...]] = {}
            for i, v in enumerate(column):
                groups[v] = groups.get(v, ()) + (i,)
            single = {v: g[0] for v, g in groups.items() if len(g) == 1}
            multi = {v: itemgetter(*g) for v, g in groups.items() if len(g) > 1}
            value = self.compile(where["right"], env)

            def count_matching(st):
                v = value(st)
                i = single.get(v)
                if i is not None:
                    return zone(st)[i]
                getter = multi.get(v)
                return sum(getter(zone(st))) if getter is not None else 0
            return count_matching
        test, slot = self.card_test(where, env)
        dynamic = set(env) | set(self.sym.vars) | set(self.sym.defines) | {"current", "players"}
        if not any(n in dynamic for n in _names(where)) and not _has_calls(where):
            # Depends on the card alone: decide once per variety at compile time.
            class Probe:
                locals = [0] * (slot + 1)
            keep = []
            for i in range(n):
                Probe.locals[slot] = i
                if test(Probe):
                    keep.append(i)
            idx = tuple(keep)
            return lambda st: sum([zone(st)[i] for i in idx]) if len(idx) != 1 else zone(st)[idx[0]]

        def count_where(st):
            vec = zone(st)
            total = 0
            loc = st.locals
            for i in range(n):
                if vec[i]:
                    loc[slot] = i
                    if test(st):
                        total += vec[i]
            return total
        return count_where

    def c_attr(self, e, env):
        obj = self.compile(e["obj"], env)
        column = self.layout.attr_table[e["name"]]
        return lambda st: column[obj(st)]

    # ---- aggregates ----
    def domain(self, d: dict, env: dict[str, Fn]) -> tuple[str, Fn]:
        """(kind of loop, closure giving the values); kind is 'values', 'cards' or 'seats'."""
        if d["players"]:
            return "values", lambda st: [(st.current + i) % st.players for i in range(st.players)]
        if d["hi"] is not None:
            lo, hi = self.compile(d["lo"], env), self.compile(d["hi"], env)
            return "values", lambda st: range(lo(st), hi(st) + 1)
        lo = d["lo"]
        if lo["node"] == "name" and lo["id"] in self.layout.kind_values and lo["id"] not in env:
            ids = tuple(self.layout.kind_values[lo["id"]])
            return "values", lambda st: ids
        return "cards", self.compile(lo, env)

    def c_comprehension(self, e, env):
        func = e["func"]
        kind, values = self.domain(e["domain"], env)
        slot = self.slots.new()
        inner = dict(env)
        inner[e["var"]] = lambda st: st.locals[slot]
        body = self.compile(e["body"], inner)
        where = self.compile(e["where"], inner) if e["where"] is not None else None

        if kind == "values" and where is None:
            return self.over_values(func, values, slot, body)

        def items(st):
            """The multiplicity of each value or card that passes the filter."""
            loc = st.locals
            if kind == "cards":
                vec = values(st)
                for i, c in enumerate(vec):
                    if c:
                        loc[slot] = i
                        if where is None or where(st):
                            yield c
            else:
                for v in values(st):
                    loc[slot] = v
                    if where is None or where(st):
                        yield 1

        if func == "sum":
            return lambda st: sum([m * body(st) for m in items(st)])
        if func == "count":
            return lambda st: sum([m for m in items(st) if body(st)])
        if func == "max":
            return lambda st: max([body(st) for _ in items(st)], default=0)
        if func == "min":
            return lambda st: min([body(st) for _ in items(st)], default=0)
        if func == "any":
            return lambda st: any(body(st) for _ in items(st))
        if func == "all":
            return lambda st: all(body(st) for _ in items(st))
        raise KeyError(func)

    @staticmethod
    def over_values(func: str, values: Fn, slot: int, body: Fn) -> Fn:
        """Aggregates over plain values, unrolled into loops (the hot path of most rules)."""
        if func == "any" or func == "all":
            want = func == "any"

            def any_all(st):
                loc = st.locals
                for v in values(st):
                    loc[slot] = v
                    if bool(body(st)) == want:
                        return want
                return not want
            return any_all

        def collect(st):
            loc = st.locals
            out = []
            for v in values(st):
                loc[slot] = v
                out.append(body(st))
            return out
        if func == "sum":
            return lambda st: sum(collect(st))
        if func == "count":
            return lambda st: sum(1 for x in collect(st) if x)
        if func == "max":
            return lambda st: max(collect(st), default=0)
        return lambda st: min(collect(st), default=0)

    # ---- operators ----
    def c_case(self, e, env):
        subject = self.compile(e["subject"], env)
        arms = [(self.compile(a["match"], env), self.compile(a["value"], env)) for a in e["arms"]]
        default = self.compile(e["default"], env) if e["default"] is not None else (lambda st: 0)
        if all(a["match"]["node"] == "int" for a in e["arms"]):
            table = {a["match"]["value"]: f for a, (_, f) in zip(e["arms"], arms)}
            return lambda st: table.get(subject(st), default)(st)

        def case(st):
            s = subject(st)
            for match, value in arms:
                if match(st) == s:
                    return value(st)
            return default(st)
        return case

    def c_bin_op(self, e, env):
        op = e["op"]
        a, b = self.compile(e["left"], env), self.compile(e["right"], env)
        if op == "and":
            return lambda st: a(st) and b(st)
        if op == "or":
            return lambda st: a(st) or b(st)
        if op == "+":
            return lambda st: a(st) + b(st)
        if op == "-":
            return lambda st: a(st) - b(st)
        if op == "*":
            return lambda st: a(st) * b(st)
        if op == "/":
            return lambda st: _div(a(st), b(st))
        if op == "%":
            return lambda st: _mod(a(st), b(st))
        if op == "==":
            return lambda st: a(st) == b(st)
        if op == "!=":
            return lambda st: a(st) != b(st)
        if op == "<":
            return lambda st: a(st) < b(st)
        if op == "<=":
            return lambda st: a(st) <= b(st)
        if op == ">":
            return lambda st: a(st) > b(st)
        if op == ">=":
            return lambda st: a(st) >= b(st)
        raise KeyError(op)

    def c_un_op(self, e, env):
        a = self.compile(e["operand"], env)
        if e["op"] == "not":
            return lambda st: not a(st)
        return lambda st: -a(st)

    def c_cond(self, e, env):
        t, a, b = (self.compile(e[k], env) for k in ("test", "then_", "else_"))
        return lambda st: a(st) if t(st) else b(st)


def _div(a: int, b: int) -> int:
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


def _names(e: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(e, dict):
        if e.get("node") == "name":
            out.add(e["id"])
        for v in e.values():
            out |= _names(v)
    elif isinstance(e, list):
        for v in e:
            out |= _names(v)
    return out


def _mentions(e: dict, attrs: dict, env: dict) -> bool:
    """Does ``e`` read a card attribute (not shadowed by a local)?"""
    return any(n in attrs and n not in env for n in _names(e))


def _has_calls(e: Any) -> bool:
    if isinstance(e, dict):
        if e.get("node") in ("call", "filtered", "comprehension"):
            return True
        return any(_has_calls(v) for v in e.values())
    if isinstance(e, list):
        return any(_has_calls(v) for v in e)
    return False


STATELESS_CALLS = {"count", "min", "max", "abs"}


def zones_read(e: Any, sym: Symbols, bound: frozenset = frozenset()) -> set[str] | None:
    """The shared zones an expression reads, if that and the params are *all* it
    reads (then its value is a function of those zones' contents); else None."""
    if isinstance(e, list):
        out: set[str] = set()
        for v in e:
            r = zones_read(v, sym, bound)
            if r is None:
                return None
            out |= r
        return out
    if not isinstance(e, dict):
        return set()
    node = e.get("node")
    if node == "name":
        n = e["id"]
        if n in bound or n in sym.params or n in sym.value_kind or n in sym.kinds or n in sym.attrs:
            return set()
        if n in sym.zones and not sym.zones[n]["per_player"]:
            return {n}
        if n in sym.defines and not sym.defines[n]["params"]:
            return zones_read(sym.defines[n]["body"], sym, frozenset())
        return None
    if node == "call":
        f = e["func"]
        args = zones_read(e["args"], sym, bound)
        if args is None:
            return None
        if f in sym.defines:
            d = sym.defines[f]
            body = zones_read(d["body"], sym, frozenset(d["params"]))
            return None if body is None else body | args
        return args if f in STATELESS_CALLS else None
    if node == "comprehension":
        if e["domain"]["players"]:
            return None
        parts = [p for p in (e["domain"]["lo"], e["domain"]["hi"]) if p is not None]
        inner = bound | {e["var"]}
        return _union(zones_read(parts, sym, bound), zones_read([e["body"], e["where"]], sym, inner))
    out = set()
    for k, v in e.items():
        if k in ("node", "at") or k.endswith("_at"):
            continue
        r = zones_read(v, sym, bound)
        if r is None:
            return None
        out |= r
    return out


def _union(a: set | None, b: set | None) -> set | None:
    return None if a is None or b is None else a | b


class SlotAllocator:
    """Hands out local-variable slots; the language has no recursion, so each
    loop variable, ``let`` and filter gets its own slot for the whole game."""

    def __init__(self) -> None:
        self.count = 0

    def new(self) -> int:
        self.count += 1
        return self.count - 1
