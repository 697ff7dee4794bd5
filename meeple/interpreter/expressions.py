"""Compile IR expressions to Python functions ``fn(state) -> value`` (``ExprCompiler``).

As Jinja does with templates, each expression becomes Python source once, which is
compiled and run natively: defines are inlined, names resolved, constants folded,
and aggregates over a fixed kind (``any(... for c in colour)``) unrolled, so a
query such as ``count(table where colour == red)`` becomes ``z[2][0] + z[2][6]``.

Run-time values are plain ints and bools: a piece or enum value is its global
value id, a player is a seat number, a card (in a loop over a zone) is its
variety index, "no value" is -1.

Inside generated code: ``st`` is the state, ``z`` its zones, ``zb`` the zone
bases, ``L`` its locals, ``P`` piece positions, ``PL`` podium places, ``G`` the
board of the grid (a tile is its number on the board, an edge is 0..3).
"""

from __future__ import annotations

import re
from typing import Any, Callable

from meeple.dsl import checked as C
from meeple.dsl import fold
from meeple.dsl.checked import CheckedGame, Symbols
from meeple.dsl.diagnostics import RuleRuntimeError
from meeple.dsl.limits import MAX_NUMBER, MAX_RANGE
from meeple.dsl.walk import names
from meeple.dsl.walk import nodes as walk_nodes
from meeple.dsl.walk import span

from .flow import zone_name
from .layout import NO_VALUE, Layout
from .routes import route_length

Fn = Callable[[Any], Any]
UNROLL_LIMIT = 16
# Aggregates and filters written out per value (or per card variety) inside one another, at
# most: each level writes its body out once per value, so deeper levels would grow the code
# (and the time to make it) as a power of the depth.
UNROLL_NESTING = 2
PREAMBLE = (("z", "z = st.zones"), ("zb", "zb = st.zone_base"), ("L", "L = st.locals"), ("P", "P = st.pos"),
            ("PL", "PL = st.place"), ("G", "G = st.grid"))
# Built-in queries with fixed arguments, as Python code ({0}, {1}: the arguments' code).
BUILTIN_CODE = {
    "count": "sum({0})",
    "pos": "P[{0}]",
    "finished": "(PL[{0}] > 0)",
    "place": "PL[{0}]",
    "at_place": "_at_place(st, {0}, {1})",
    "finishers": "len(st.podium[{0}])",
    "abs": "abs({0})",
    "col": "_col(G, {0})",
    "row": "_row(G, {0})",
    "neighbour": "_neighbour(G, {0}, {1})",
    "opposite": "({0} ^ 2)",
    "open": "_open(G, {0}, {1})",
    "joined": "_joined(G, {0}, {1}, {2})",
    "includes": "(({0}) >> {1} & 1 == 1)",
}
PIECE_ARG = {"pos", "finished", "place"}  # their argument indexes a list: none (-1) would read the last
# Tile queries written out in place when the tile is a plain name (read twice at no cost):
# "no tile" (-1) gives 0, -1 or false as the helper functions above would.
TILE_INLINE = {
    "col": "({0}.x[{1}] if {1} >= 0 else 0)",
    "row": "({0}.y[{1}] if {1} >= 0 else 0)",
    "neighbour": "({0}.nb[{1}][{2}] if {1} >= 0 else -1)",
    "open": "({1} >= 0 and {0}.ends[{1}][{2}] > 0)",
    "joined": "({1} >= 0 and {0}.ends[{1}][{2}] >> {3} & 1 == 1)",
}
TILE_SURE = {  # the same for a tile that cannot be none
    "col": "{0}.x[{1}]",
    "row": "{0}.y[{1}]",
    "neighbour": "{0}.nb[{1}][{2}]",
    "open": "({0}.ends[{1}][{2}] > 0)",
    "joined": "({0}.ends[{1}][{2}] >> {3} & 1 == 1)",
}
EDGE_ARGS = {"neighbour": (1,), "opposite": (0,), "open": (1,), "joined": (1, 2), "includes": (1,)}
PLAIN = re.compile(r"[A-Za-z_]\w*(\[\w+\])*")
# A tile that is a loop variable over the grid is always a tile (never none): no guard needed.
LOOP_VAR = re.compile(r"_[vw]\d+")  # an aggregate's variable (or was()'s copy): it runs over values that exist
COLUMN_READ = re.compile(r"(_A_\w+)\[(?:[^\[\]]|\[[^\[\]]*\])*\]")  # a card attribute's column, indexed by the card
SURE_TILE = re.compile(r"_tile|_b\d+|_v\d+")


class TooDeep(Exception):
    """Python refuses the code of an expression: it nests too deeply; ``at`` is its position."""

    def __init__(self, message: str, at: list[int] | None):
        super().__init__(message)
        self.at = at


CARD_ATTRS = "\0card"  # env entry: the names a filter's card binds (a name no rule can spell)


def is_local(name: str, env: dict[str, str]) -> bool:
    """Is ``name`` a local, loop variable or define parameter (not a filtered card's attribute)?"""
    return name in env and name not in env.get(CARD_ATTRS, "").split(",")


def with_local(env: dict[str, str], name: str, code: str) -> dict[str, str]:
    """``env`` with the local ``name`` read as ``code`` (it hides a card attribute of that name)."""
    inner = dict(env)
    inner[name] = code
    if name in inner.get(CARD_ATTRS, "").split(","):
        inner[CARD_ATTRS] = ",".join(a for a in inner[CARD_ATTRS].split(",") if a != name)
    return inner


def _div(a: int, b: int) -> int:
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


def _range(lo: int, hi: int) -> range:
    """The values ``lo..hi`` of a loop, a 'random' or an option."""
    if hi - lo >= MAX_RANGE or lo < -MAX_NUMBER or hi > MAX_NUMBER:
        raise RuleRuntimeError(f"the range {lo}..{hi} has {max(0, hi - lo + 1):,} values; at most {MAX_RANGE:,} "
                               f"within ±{MAX_NUMBER:,} are allowed")
    return range(lo, hi + 1)


def _number(v: Any) -> Any:
    """``v``, a value to keep in a var, if it is within the numbers meeple supports."""
    if -MAX_NUMBER <= v <= MAX_NUMBER:
        return v
    raise RuleRuntimeError(f"a number of {len(str(abs(v))):,} digits: beyond the numbers meeple supports "
                           f"(±{MAX_NUMBER:,})")


def _seat_of(v: Any, players: int) -> Any:
    """``v``, the player to make current, if it is one of the ``players`` seats."""
    if 0 <= v < players:
        return v
    raise RuleRuntimeError(f"'current' set to {v if -MAX_NUMBER <= v <= MAX_NUMBER else 'a huge number'}, "
                           f"which is not a seat of this {players}-player game")


def _at_place(st: Any, track: int, k: int) -> int:
    podium = st.podium[track]
    return podium[k - 1] if 0 < k <= len(podium) else NO_VALUE


def _col(board: Any, t: int) -> int:
    return board.x[t] if t >= 0 else 0


def _row(board: Any, t: int) -> int:
    return board.y[t] if t >= 0 else 0


def _neighbour(board: Any, t: int, e: int) -> int:
    return board.nb[t][e] if t >= 0 else NO_VALUE


def _open(board: Any, t: int, e: int) -> bool:
    return t >= 0 and board.ends[t][e] > 0


def _joined(board: Any, t: int, a: int, b: int) -> bool:
    return t >= 0 and board.ends[t][a] >> b & 1 == 1


def _edge(e: int, var: str = "") -> int:
    if e < 0:
        raise RuleRuntimeError(f"an edge is none here: {_never_set(var, 'an edge')}")
    return e


def _piece(p: int, var: str = "") -> int:
    if p < 0:
        raise RuleRuntimeError("a piece is none here: " + (_never_set(var, "a piece") if var else
                                                           "a var, a card's attribute or at_place names no piece"))
    return p


def _seat(p: int, var: str = "") -> int:
    if p < 0:
        raise RuleRuntimeError(f"a player is none here: {_never_set(var, 'a player')}")
    return p


def _never_set(var: str, what: str) -> str:
    return f"var '{var}' holds none (it was never set)" if var else f"a var meant to hold {what} was never set"


def _tile_value(values: Any, t: int, default: Any) -> Any:
    return values[t] if t >= 0 else default


def _tile_attr(column: Any, board: Any, t: int, default: Any) -> Any:
    return column[board.variety[t]] if t >= 0 else default


def _turned(table: Any, board: Any, t: int) -> int:
    return table[board.variety[t]][board.rot[t]] if t >= 0 else 0


def _count_by(vec: list[int], groups: dict, value: Any) -> int:
    idx = groups.get(value)
    return sum([vec[i] for i in idx]) if idx else 0


def _pick(subject: Any, matches: tuple, values: tuple, default: Any) -> Any:
    for m, v in zip(matches, values):
        if m == subject:
            return v
    return default


def _bare(code: str) -> str:
    """``((L[3]))`` → ``L[3]``: the parentheses that inlining a define puts around an argument."""
    while code.startswith("((") and code.endswith("))") or (code.startswith("(") and code.endswith(")")
                                                             and code.count("(") == 1):
        code = code[1:-1]
    return code


def const(code: str) -> Any:
    """The Python value of ``code`` if it is a literal int or bool, else ``None``."""
    c = code[1:-1] if code.startswith("(") and code.endswith(")") and code.count("(") == 1 else code
    if c in ("True", "False"):
        return c == "True"
    if c.lstrip("-").isdigit():
        return int(c)
    return None


def lit(value: Any) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    return f"({value})" if value < 0 else str(value)


class ExprCompiler:
    """IR expression → Python source → function. ``env`` maps a name to the Python
    code that reads it (a local slot, a loop variable, a define's argument)."""

    def __init__(self, checked: CheckedGame, layout: Layout, slots: "SlotAllocator",
                 can_hold: dict[str, set[int]] | None = None):
        self.checked = checked
        self.binding = checked.binding  # what each name and call refers to, as the checker found it
        self.layout = layout
        self.sym: Symbols = layout.sym
        self.slots = slots
        # zone → the varieties that can ever be in it (interpreter/flow.py); a count of a
        # zone never needs to look at the others.
        self.can_hold = can_hold or {}
        self.ns: dict[str, Any] = {"_div": _div, "_mod": _mod, "_at_place": _at_place, "_count_by": _count_by,
                                "_piece": _piece, "_pick": _pick, "_col": _col, "_row": _row, "_neighbour": _neighbour,
                                "_open": _open, "_joined": _joined, "_edge": _edge, "_seat": _seat,
                                "_tile_value": _tile_value, "_tile_attr": _tile_attr, "_turned": _turned,
                                "_route_length": route_length, "_range": _range, "_number": _number,
                                "_seat_of": _seat_of}
        self.fresh = 0
        self.unrolling = 0  # aggregates and filters being written out per value around the code made now
        self.at: list[int] | None = None  # the position of the last expression written
        self.columns = {attr: self.constant(tuple(col), f"A_{attr}") for attr, col in layout.attr_table.items()}
        shapes = layout.shapes
        self.turned = {attr: self.constant(rows, f"T_{attr}") for attr, rows in shapes.masks.items()} \
            if shapes else {}
        self.route_fns: dict[str, str] = {}

    def name(self, prefix: str) -> str:
        self.fresh += 1
        return f"_{prefix}{self.fresh}"

    def constant(self, value: Any, prefix: str = "K") -> str:
        """Put ``value`` in the namespace of generated code; return its name."""
        name = self.name(re.sub(r"\W", "_", prefix))
        self.ns[name] = value
        return name

    # ---- functions ----
    def compile(self, e: dict, env: dict[str, str]) -> Fn:
        return self.function(self.gen(e, env))

    def function(self, code: str, assign: tuple[str, str] | None = None, params: tuple[str, ...] = ()) -> Fn:
        """``def _f(st, *params): return code`` compiled; ``assign`` = (name, code) sets a local first."""
        value = const(code)
        if value is not None and assign is None and not params:
            fn = lambda st: value  # noqa: E731
            fn.constant = value  # callers may read it once instead of calling
            return fn
        needed = code + (" " + assign[1] if assign else "")
        lines = [f"    {line}" for word, line in PREAMBLE
                 if re.search(rf"\b{word}\b" if word == "G" else rf"\b{word}\[", needed)]
        if assign:
            lines.append(f"    {assign[0]} = {assign[1]}")
        head = f"def _f({', '.join(('st',) + params)}):\n"
        src = head + "\n".join(lines) + ("\n" if lines else "") + f"    return {code}\n"
        scope: dict[str, Any] = {}
        exec(self.python(src), self.ns, scope)
        fn = scope["_f"]
        fn.source = src
        return fn

    def python(self, src: str) -> Any:
        """``src`` compiled; Python's own limits on nesting as a ``TooDeep``."""
        try:
            return compile(src, "<rules>", "exec")
        except SyntaxError as e:
            if "nested" not in str(e.msg):
                raise
        except (RecursionError, MemoryError):
            pass
        raise TooDeep("this expression nests too deeply to compile", self.at) from None

    def statements(self, body: list[str], params: tuple[str, ...] = ()) -> Fn:
        """``def _f(st, *params): body`` compiled (``body``: lines of Python, no indent)."""
        needed = "\n".join(body)
        lines = [f"    {line}" for word, line in PREAMBLE
                 if re.search(rf"\b{word}\b" if word == "G" else rf"\b{word}\[", needed)]
        src = f"def _f({', '.join(('st',) + params)}):\n" + "\n".join(lines + [f"    {b}" for b in body]) + "\n"
        scope: dict[str, Any] = {}
        exec(self.python(src), self.ns, scope)
        fn = scope["_f"]
        fn.source = src
        return fn

    # ---- dispatch ----
    def gen(self, e: dict, env: dict[str, str]) -> str:
        if span(e):
            self.at = span(e)  # where to point should Python refuse the code
        return getattr(self, "g_" + e["node"])(e, env)

    def g_int(self, e, env):
        return lit(e["value"])

    def g_bool(self, e, env):
        return lit(e["value"])

    def g_none_value(self, e, env):
        return lit(NO_VALUE)

    def g_name(self, e, env):
        name, lay = e["id"], self.layout
        what = self.binding(e).what
        if what in (C.LOCAL, C.ATTRIBUTE):
            return env[name]
        if what == C.PLAYERS:
            return "st.players"
        if what == C.CURRENT:
            return "st.current"
        if what == C.PARAM:
            return lit(lay.params[name])
        if what == C.DEFINE:
            return self.inline(self.binding(e).decl, [])
        if what == C.VALUE:
            return lit(lay.value_id[name])
        if what == C.ZONE:
            return f"z[{lay.shared_zone_slot[name]}]"
        if what == C.VAR:
            return f"st.vars[{lay.shared_var_slot[name]}]"
        if what == C.TRACK:
            return lit(lay.track_names.index(name))
        if what == C.GRID:
            return "G"
        raise LookupError(f"a name bound to a {what} has no value here: this is a bug in meeple")

    def var_named(self, e: dict) -> str:
        """``, 'name'`` when ``e`` reads a var (for run-time messages that name it), else ``""``."""
        if self.checked.what(e) != C.VAR:
            return ""
        return f", {e.get('id') or e['func']!r}"

    def inline(self, define: dict, args: list[str]) -> str:
        return self.gen(define["body"], {p: (a if const(a) is not None else f"({a})")
                                         for p, a in zip(define["params"], args)})

    def g_call(self, e, env):
        func, sym, lay = e["func"], self.sym, self.layout
        what = self.binding(e).what
        args = [self.gen(a, env) for a in e["args"]]
        for i in EDGE_ARGS.get(func, ()) if what == C.BUILTIN else ():
            if i < len(args) and const(args[i]) is None and "st.vars" in args[i]:
                args[i] = f"_edge({args[i]}{self.var_named(e['args'][i])})"  # a var's edge may still be none
        if what == C.DEFINE:
            return self.inline(self.binding(e).decl, args)
        if what == C.WAS:  # in an invariant: the same expression, read in the state before the step
            arg = e["args"][0]
            outer = sorted({n["id"] for n in walk_nodes(arg) if n.get("node") == "name"
                            and self.binding(n).what == C.LOCAL and n["id"] in env})  # loop variables it uses,
            # bound outside it, passed on
            inner = {n: f"_w{i}" for i, n in enumerate(outer)}
            fn = self.statements([f"return {self.gen(arg, inner)}"], params=tuple(inner.values()))
            return f"{self.constant(fn, 'was')}(_before{''.join(', ' + env[n] for n in outer)})"
        if what in (C.ZONE, C.VAR) and args and "st.vars" in args[0]:
            args[0] = f"_seat({args[0]}{self.var_named(e['args'][0])})"  # a var's player may still be none
        if what == C.ZONE:
            return f"z[zb[{lay.zone_names.index(func)}] + {args[0]}]"
        if what == C.TILE_VAR:
            k = lay.tile_var_names.index(func)
            start = const(self.gen(sym.vars[func]["init"], {}))
            if SURE_TILE.fullmatch(_bare(args[0])):
                return f"G.tv[{k}][{_bare(args[0])}]"
            if PLAIN.fullmatch(_bare(args[0])):
                return f"(G.tv[{k}][{_bare(args[0])}] if {_bare(args[0])} >= 0 else {lit(start or 0)})"
            return f"_tile_value(G.tv[{k}], {args[0]}, {lit(start or 0)})"
        if what == C.ROUTE:
            return f"{self.route_function(func)}(st, {', '.join(args)})"
        if what == C.GRID_COUNT:
            return "len(G.x)"
        if what == C.VAR:
            return f"st.vars[st.var_base[{lay.var_names.index(func)}] + {args[0]}]"
        if func in TILE_SURE and SURE_TILE.fullmatch(_bare(args[0])):
            return TILE_SURE[func].format("G", _bare(args[0]), *args[1:])
        if func in TILE_INLINE and PLAIN.fullmatch(_bare(args[0])):
            return TILE_INLINE[func].format("G", _bare(args[0]), *args[1:])
        if func in PIECE_ARG and not self.sure_piece(args[0]):
            args[0] = f"_piece({args[0]}{self.var_named(e['args'][0])})"  # a var, an attribute, at_place: none?
        if func in BUILTIN_CODE:
            return BUILTIN_CODE[func].format(*args)
        if func in ("min", "max"):
            values = [const(a) for a in args]
            if all(v is not None for v in values):
                return lit(min(values) if func == "min" else max(values))
            return f"{func}({', '.join(args)})"
        raise LookupError(f"the query '{func}' bound to a {what} has no code: this is a bug in meeple")

    # ---- cards ----
    def card_env(self, env: dict[str, str], card: str) -> dict[str, str]:
        """Inside ``where``: card attributes read the card ``card``. Locals and define
        parameters shadow them; an enclosing filter's card does not (the inner card wins)."""
        inner = {k: v for k, v in env.items() if is_local(k, env)}
        bound = [attr for attr in self.columns if attr not in inner]
        for attr in bound:
            inner[attr] = self.attr_of(self.columns[attr], card)
        inner[CARD_ATTRS] = ",".join(bound)
        return inner

    def sure_piece(self, code: str) -> bool:
        """Is ``code`` a piece that cannot be none: a piece's number, a loop variable over pieces,
        or an attribute that every card has?"""
        value = const(code)
        if isinstance(value, int):
            return value >= 0
        column = COLUMN_READ.fullmatch(_bare(code))
        if column and column[1] in self.ns:
            return NO_VALUE not in self.ns[column[1]]
        return bool(LOOP_VAR.fullmatch(_bare(code)))

    def attr_of(self, column: str, card: str) -> str:
        index = const(card)
        if index is not None:
            return lit(self.ns[column][index])
        return f"{column}[{card}]"

    def indices_sum(self, zone: str, idx: tuple[int, ...]) -> str:
        if not idx:
            return "0"
        if len(idx) == 1:
            return f"{zone}[{idx[0]}]"
        return "(" + " + ".join(f"{zone}[{i}]" for i in idx) + ")"

    def g_filtered(self, e, env):
        zone = self.gen(e["zone"], env)
        where = e["where"]
        n = len(self.layout.variety_names)
        # Decide per variety at compile time where the test's value is known for each card.
        possible = self.possible(e["zone"], env)
        decided: list[Any] = [None]
        if self.unrolling < UNROLL_NESTING:
            self.unrolling += 1
            try:
                decided = [const(self.gen(where, self.card_env(env, lit(i)))) for i in range(n)]
            finally:
                self.unrolling -= 1
        if all(d is not None for d in decided):
            idx = tuple(i for i, d in enumerate(decided) if d and i in possible)
            if len(idx) > 1 and set(idx) == set(possible):
                return f"sum({zone})"  # the others are never there
            return self.indices_sum(zone, idx)
        left, right = where.get("left"), where.get("right")
        if where["node"] == "bin_op" and where["op"] == "==" and left["node"] == "name" \
                and self.binding(left).what == C.ATTRIBUTE:
            value = self.gen(right, env)
            if not any(self.checked.what(n) == C.ATTRIBUTE for n in walk_nodes(right)):
                groups: dict[Any, tuple[int, ...]] = {}
                for i, v in enumerate(self.ns[self.columns[left["id"]]]):
                    if i in possible:
                        groups[v] = groups.get(v, ()) + (i,)
                return f"_count_by({zone}, {self.constant(groups, 'G')}, {value})"
        i, c = self.name("i"), self.name("c")
        test = self.gen(where, self.card_env(env, i))
        return f"sum({c} for {i}, {c} in enumerate({zone}) if {c} and {test})"

    def possible(self, zone: dict, env: dict[str, str]) -> set[int] | range:
        """The varieties the zone expression ``zone`` can hold (all, when unknown)."""
        everything = range(len(self.layout.variety_names))
        if self.checked.what(zone) == C.LOCAL:
            return everything  # a define's parameter: any zone
        name = zone_name(zone, self.checked)
        return self.can_hold.get(name, everything) if name else everything

    def g_attr(self, e, env):
        name = e["name"]
        if name in self.sym.tile_attrs:
            tile = _bare(self.gen(e["obj"], env))
            kind = self.sym.attrs[name]
            default = lit(False if kind == "bool" else 0 if kind in ("int", "edges") else NO_VALUE)
            # No tile (none) has no attributes: it reads as the attribute's default.
            if SURE_TILE.fullmatch(tile):
                if name in self.turned:
                    return f"{self.turned[name]}[G.variety[{tile}]][G.rot[{tile}]]"
                return f"{self.columns[name]}[G.variety[{tile}]]"
            if name in self.turned:
                if PLAIN.fullmatch(tile):
                    return f"({self.turned[name]}[G.variety[{tile}]][G.rot[{tile}]] if {tile} >= 0 else 0)"
                return f"_turned({self.turned[name]}, G, {tile})"
            if PLAIN.fullmatch(tile):
                return f"({self.columns[name]}[G.variety[{tile}]] if {tile} >= 0 else {default})"
            return f"_tile_attr({self.columns[name]}, G, {tile}, {default})"
        return self.attr_of(self.columns[name], self.gen(e["obj"], env))

    # ---- routes ----
    def route_function(self, name: str) -> str:
        """The route query ``name`` as a function ``(st, *args) -> length`` in the namespace."""
        if name not in self.route_fns:
            self.route_fns[name] = self.constant(self.compile_route(self.sym.routes[name]), f"route_{name}")
        return self.route_fns[name]

    def compile_route(self, r: dict) -> Callable[..., int]:
        """The route as one generated function ``f(st, *args)``: its clauses as Python code
        (the route's parameters are the function's), then ``routes.route_length``."""
        args = [f"_a{i}" for i in range(len(r["params"]))]
        env = dict(zip(r["params"], args))
        clauses = {c["name"]: c for c in r["clauses"]}

        def clause(name: str, default: str) -> str:
            c = clauses.get(name)
            return self.gen(c["value"], env) if c is not None else default

        def tile_clause(name: str, every_tile: bool = True) -> str | None:
            """A clause of a tile: its value for ``_tile``, or (``every_tile``) the list of its values
            for all tiles; for ``stops``, the dict of the tiles that stop a walk and by which edges."""
            c = clauses.get(name)
            if c is None:
                return None
            inner = {**env, c["params"][0]: "_tile"}
            if len(c["params"]) == 1:
                code = self.gen(c["value"], inner)
                if not every_tile:
                    return code
                whole = re.fullmatch(r"G\.tv\[(\d+)\]\[_tile\]", code)
                if whole:  # the clause is a per-tile var: its list is the answer
                    return f"G.tv[{whole.group(1)}]"
                return f"[{code} for _tile in range(len(G.x))]"
            # The parts of an 'and' that do not look at the edge are tested once per tile.
            edge = c["params"][1]
            parts = _conjuncts(c["value"])
            guard = [p for p in parts if edge not in names(p)]
            per_edge = [p for p in parts if edge in names(p)] or [{"node": "bool", "value": True}]
            masks = []
            for e in range(4):  # one test per edge, each folded with its edge known
                test = self.gen(_all_of(per_edge), {**inner, edge: lit(e)})
                known = const(test)
                masks.append(f"({1 << e} if {test} else 0)" if known is None else lit(1 << e if known else 0))
            mask = " | ".join(masks)
            if not guard:
                return f"{{_tile: _m for _tile in range(len(G.x)) if (_m := {mask})}}"
            test = self.gen(_all_of(guard), inner)
            flag = re.fullmatch(r"G\.tv\[(\d+)\]\[_tile\]", test)
            if flag:  # only the tiles whose flag is set can stop a walk (often none is)
                k = flag.group(1)
                return f"({{_tile: {mask} for _tile, _on in enumerate(G.tv[{k}]) if _on}} if any(G.tv[{k}]) else {{}})"
            return f"{{_tile: {mask} for _tile in range(len(G.x)) if {test}}}"
        enter = tile_clause("enter_start", every_tile=False)
        body = [
            f"_t0 = {clause('start', lit(NO_VALUE))}",
            f"_e0 = {clause('start_edge', lit(NO_VALUE))}",
            "if _t0 < 0 or _e0 < 0:",
            "    return 0",
            "_tile = _t0",
            "return _route_length(G.nb, G.ends, _t0, _e0, "
            f"{'bool(' + enter + ')' if enter else 'False'}, "
            f"{tile_clause('blocked') or '[False] * len(G.x)'}, {tile_clause('stops') or '{}'}, "
            f"{clause('passes', '0')}, {clause('enough', 'len(G.x)')})",
        ]
        return self.statements(body, params=tuple(args))

    # ---- aggregates ----
    def domain_code(self, d: dict, env: dict[str, str]) -> tuple[str, str]:
        """('values' | 'cards', Python code of the iterable)."""
        if d["players"]:
            i = self.name("p")
            return "values", f"((st.current + {i}) % st.players for {i} in range(st.players))"
        if d["hi"] is not None:
            return "values", f"_range({self.gen(d['lo'], env)}, {self.gen(d['hi'], env)})"
        lo = d["lo"]
        if self.checked.what(lo) == C.KIND:
            return "values", repr(tuple(self.layout.kind_values[lo["id"]]))
        if self.checked.what(lo) == C.GRID:
            return "values", "range(len(G.x))"
        return "cards", self.gen(lo, env)

    def domain(self, d: dict, env: dict[str, str]) -> tuple[str, Fn]:
        kind, code = self.domain_code(d, env)
        return kind, self.function(f"tuple({code})" if "for" in code else code)

    def g_comprehension(self, e, env):
        func, d = e["func"], e["domain"]
        # An aggregate does not depend on the order of the players; a loop statement does.
        kind, dom = ("values", "range(st.players)") if d["players"] else self.domain_code(d, env)
        where = e["where"]
        unrolled = None
        if self.unrolling < UNROLL_NESTING:
            self.unrolling += 1
            try:
                if kind == "values" and dom.startswith("(") and "for" not in dom:
                    unrolled = self.unroll(func, e, env, eval(dom))
                elif kind == "cards" and func in ("sum", "count"):
                    unrolled = self.unroll_cards(func, e, env, dom)
            finally:
                self.unrolling -= 1
        if unrolled is not None:
            return unrolled
        v = self.name("v")
        inner = with_local(env, e["var"], v)
        body = self.gen(e["body"], inner)
        where_code = self.gen(where, inner) if where is not None else ""
        test = f" if {where_code}" if where is not None else ""
        if kind == "cards":
            c = self.name("c")
            loop = f"for {v}, {c} in enumerate({dom}) if {c}"
            test = test.replace(" if ", " and ", 1) if test else ""
            if func == "sum":
                return f"sum(({body}) * {c} {loop}{test})"
            if func == "count":
                return f"sum({c} {loop}{test} and ({body}))"
        else:
            loop = f"for {v} in {dom}"
            if func == "sum":
                return f"sum({body} {loop}{test})"
            if func == "count":
                cond = f" if ({where_code}) and ({body})" if where is not None else f" if {body}"
                return f"sum(1 {loop}{cond})"
        if func in ("max", "min"):
            return f"{func}(({body} {loop}{test}), default=0)"
        return f"{func}({body} {loop}{test})"

    def unroll_cards(self, func: str, e: dict, env: dict[str, str], zone: str) -> str | None:
        """``sum(c.x for c in zone)`` over the few varieties the zone can hold, each term folded:
        ``sum(c.x for c in front(p))`` → ``(-1 * Z[10] + 2 * Z[11])``."""
        possible = self.possible(e["domain"]["lo"], env)
        if len(possible) > UNROLL_LIMIT:
            return None
        terms = []
        for i in sorted(possible):
            inner = with_local(env, e["var"], lit(i))
            body = self.gen(e["body"], inner)
            where = self.gen(e["where"], inner) if e["where"] is not None else "True"
            if func == "count":
                body, where = lit(1), self.logic("and", where, body)
            known_where, known_body = const(where), const(body)
            if known_where is False or known_body in (0, False):
                continue
            if known_where is None or known_body is None:
                return None  # the term depends on the state: not worth unrolling
            terms.append(f"{zone}[{i}]" if known_body == 1 else f"{lit(known_body)} * {zone}[{i}]")
        return self.fold_sum(terms)

    def unroll(self, func: str, e: dict, env: dict[str, str], values: tuple) -> str | None:
        """``any(f(a) for a in K)`` over a fixed kind K → ``f(k1) or f(k2) ...``, folded."""
        if len(values) > UNROLL_LIMIT or (func in ("max", "min") and e["where"] is not None):
            return None
        terms = []
        for value in values:
            inner = with_local(env, e["var"], lit(value))
            body = self.gen(e["body"], inner)
            where = self.gen(e["where"], inner) if e["where"] is not None else "True"
            terms.append((where, body))
        if func == "any":
            parts = [self.logic("and", w, b) for w, b in terms]
            return self.fold_chain("or", parts, "False")
        if func == "all":
            parts = [self.logic("or", self.negate(w), b) for w, b in terms]
            return self.fold_chain("and", parts, "True")
        if func == "sum":
            parts = [b if const(w) is True else f"({b} if {w} else 0)" for w, b in terms if const(w) is not False]
            return self.fold_sum(parts)
        if func == "count":
            parts = [self.logic("and", w, b) for w, b in terms]
            return self.fold_sum([p if const(p) is None else lit(int(const(p))) for p in
                                  (f"(1 if {p} else 0)" if const(p) is None else p for p in parts)])
        if func in ("max", "min"):
            if not terms:
                return "0"
            values_ = [const(b) for _, b in terms]
            if all(x is not None for x in values_):
                return lit(max(values_) if func == "max" else min(values_))
            if len(terms) == 1:  # max(x) of one value is x (Python's max(x) would iterate x)
                return terms[0][1]
            return f"{func}({', '.join(b for _, b in terms)})"
        return None

    def fold_chain(self, op: str, parts: list[str], empty: str) -> str:
        code = empty
        first = True
        for p in parts:
            code = p if first else self.logic(op, code, p)
            first = False
        return code

    def fold_sum(self, parts: list[str]) -> str:
        total, rest = 0, []
        for p in parts:
            v = const(p)
            if v is None:
                rest.append(p)
            else:
                total = fold.binary("+", total, int(v))
        if not rest:
            return lit(total)
        return "(" + " + ".join(rest + ([lit(total)] if total else [])) + ")"

    # ---- operators ----
    def logic(self, op: str, a: str, b: str) -> str:
        ca, cb = const(a), const(b)
        if op == "and":
            if ca is not None:
                return b if ca else "False"
            if cb is True:
                return a
        else:
            if ca is not None:
                return "True" if ca else b
            if cb is False:
                return a
        return f"({a} {op} {b})"

    def negate(self, a: str) -> str:
        ca = const(a)
        return lit(fold.unary("not", ca)) if ca is not None else f"(not {a})"

    def g_case(self, e, env):
        subject = self.gen(e["subject"], env)
        arms = [(self.gen(a["match"], env), self.gen(a["value"], env)) for a in e["arms"]]
        default = self.gen(e["default"], env) if e["default"] is not None else "0"
        s = const(subject)
        if s is not None and all(const(m) is not None for m, _ in arms):
            return next((v for m, v in arms if const(m) == s), default)
        if all(const(m) is not None and const(v) is not None for m, v in arms) and const(default) is not None:
            table = self.constant({const(m): const(v) for m, v in reversed(arms)}, "case")
            return f"{table}.get({subject}, {default})"
        matches = ", ".join(m for m, _ in arms)
        values = ", ".join(v for _, v in arms)
        return f"_pick({subject}, ({matches},), ({values},), {default})"

    def g_bin_op(self, e, env):
        op = e["op"]
        a, b = self.gen(e["left"], env), self.gen(e["right"], env)
        if op in ("and", "or"):
            return self.logic(op, a, b)
        ca, cb = const(a), const(b)
        if ca is not None and cb is not None:
            return lit(fold.binary(op, ca, cb))
        if op == "/":
            return f"_div({a}, {b})"
        if op == "%":
            return f"_mod({a}, {b})"
        return f"({a} {op} {b})"

    def g_un_op(self, e, env):
        a = self.gen(e["operand"], env)
        if e["op"] == "not":
            return self.negate(a)
        ca = const(a)
        return lit(fold.unary("-", ca)) if ca is not None else f"(-{a})"

    def g_cond(self, e, env):
        t, a, b = (self.gen(e[k], env) for k in ("test", "then_", "else_"))
        ct = const(t)
        if ct is not None:
            return a if ct else b
        return f"({a} if {t} else {b})"


def _conjuncts(e: dict) -> list[dict]:
    """``a and b and c`` → [a, b, c]."""
    if e["node"] == "bin_op" and e["op"] == "and":
        return _conjuncts(e["left"]) + _conjuncts(e["right"])
    return [e]


def _all_of(parts: list[dict]) -> dict:
    out = parts[0]
    for p in parts[1:]:
        out = {"node": "bin_op", "op": "and", "left": out, "right": p}
    return out


class SlotAllocator:
    """Hands out local-variable slots; the language has no recursion, so each
    loop variable and ``let`` gets its own slot for the whole game."""

    def __init__(self) -> None:
        self.count = 0

    def new(self) -> int:
        self.count += 1
        return self.count - 1
