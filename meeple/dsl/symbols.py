"""The names a game declares, gathered from its IR: one table shared by the checker
and the compiler so both resolve a name the same way."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Types are strings: "int", "bool", "player", "zone", "card", "none", "grid", "tile" (a tile
# placed on the grid), "edges" (a set of a tile's edges), and "kind:<name>" for a value of an
# enum or a piece kind (pieces are values too; an edge is a value of the kind "edge").
INT, BOOL, PLAYER, ZONE, CARD, NONE, ANY = "int", "bool", "player", "zone", "card", "none", "any"
GRID, TILE, EDGES = "grid", "tile", "edges"
EDGE_KIND = "edge"
EDGE = "kind:edge"
EDGE_NAMES = ("N", "E", "S", "W")  # clockwise; a quarter turn takes each to the next
# A board of cells: "board" (its name), "cell" (a cell of it), "cells" (a row of cells, as
# line(c, d) gives, only to loop over) and its eight directions, values of the kind "direction".
BOARD, CELL, CELLS = "board", "cell", "cells"
DIRECTION_KIND = "direction"
DIRECTION = "kind:direction"
DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")  # clockwise from north
DIRECTION_STEPS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))  # (dx, dy)

AGGREGATES = {"sum", "max", "min", "count", "any", "all", "first"}
# Built-in queries: name → (argument types, result type). "kind:*" is any piece kind.
BUILTINS: dict[str, tuple[tuple[str, ...], str]] = {
    "count": ((ZONE,), INT),
    "pos": (("piece",), INT),
    "finished": (("piece",), BOOL),
    "place": (("piece",), INT),
    "at_place": (("track", INT), "kind:*"),
    "finishers": (("track",), INT),
    "tagged": (("track", INT, "tag"), BOOL),
    "min": ((INT, INT), INT),
    "max": ((INT, INT), INT),
    "abs": ((INT,), INT),
    "col": ((TILE,), INT),
    "row": ((TILE,), INT),
    "neighbour": ((TILE, EDGE), TILE),
    "opposite": ((EDGE,), EDGE),
    "open": ((TILE, EDGE), BOOL),
    "joined": ((TILE, EDGE, EDGE), BOOL),
    "includes": ((EDGES, EDGE), BOOL),
    "seat": ((INT,), PLAYER),
    "number": ((PLAYER,), INT),
    "next": ((PLAYER,), PLAYER),
    "previous": ((PLAYER,), PLAYER),
    "owner": (("piece",), PLAYER),
    "space": (("piece",), INT),
    "cell": ((BOARD, INT, INT), CELL),
    "line": ((CELL, DIRECTION, INT), CELLS),  # the third argument may be left out
}
# The queries above as they read a board of cells: the same names, a cell for a tile and a
# direction for an edge.
CELL_FORMS: dict[str, tuple[tuple[str, ...], str]] = {
    "col": ((CELL,), INT),
    "row": ((CELL,), INT),
    "neighbour": ((CELL, DIRECTION), CELL),
    "opposite": ((DIRECTION,), DIRECTION),
}
# The clauses of a route declaration: name → (parameters it takes, type of its value).
ROUTE_CLAUSES: dict[str, tuple[tuple[str, ...], str]] = {
    "start": ((), TILE),
    "start_edge": ((), EDGE),
    "enter_start": ((TILE,), BOOL),
    "blocked": ((TILE,), BOOL),
    "stops": ((TILE, EDGE), BOOL),
    "passes": ((), INT),
    "enough": ((), INT),
}
KEYWORD_NAMES = {"players": INT, "current": PLAYER}
# Built-in names added after rules files were out there: a game may still declare one, and its
# own declaration then hides the built-in (a file that declared 'line' keeps working).
LATER_BUILTINS = {"tagged", "seat", "cell", "line", "first", "owner", "space", "number", "next", "previous"}
# Vars the engine keeps for a game that uses them and declares no var of that name: ``out(p)``,
# whether a player is out of the game (turn order and ``player`` skip them), and ``next``, who
# moves after this turn (``set next = p``; none: the next player in seat order). Name → (per
# player, the type held, the start value's IR).
BUILTIN_VARS: dict[str, tuple[bool, str, dict]] = {
    "out": (True, BOOL, {"node": "bool", "value": False}),
    "next": (False, PLAYER, {"node": "none_value"}),
}


def kind_type(name: str) -> str:
    return f"kind:{name}"


@dataclass
class Symbols:
    """Everything declared at the top level of one game, by name."""

    params: dict[str, dict] = field(default_factory=dict)
    kinds: dict[str, list[str]] = field(default_factory=dict)       # enum or piece kind → values
    piece_kinds: dict[str, str] = field(default_factory=dict)       # piece kind → track
    piece_owner: dict[str, int] = field(default_factory=dict)       # a piece of a kind per player → its seat
    value_kind: dict[str, str] = field(default_factory=dict)        # value name → its kind
    tracks: dict[str, dict] = field(default_factory=dict)
    tags: dict[str, set[str]] = field(default_factory=dict)         # track → tags
    zones: dict[str, dict] = field(default_factory=dict)
    card_kinds: dict[str, dict] = field(default_factory=dict)
    varieties: dict[str, tuple[str, dict]] = field(default_factory=dict)  # variety → (kind, node)
    attrs: dict[str, str] = field(default_factory=dict)             # card attribute → type
    vars: dict[str, dict] = field(default_factory=dict)
    defines: dict[str, dict] = field(default_factory=dict)
    phases: dict[str, dict] = field(default_factory=dict)
    grids: dict[str, dict] = field(default_factory=dict)
    boards: dict[str, dict] = field(default_factory=dict)
    routes: dict[str, dict] = field(default_factory=dict)
    tile_attrs: set[str] = field(default_factory=set)               # attributes of a grid's tile kind

    def all_tags(self) -> set[str]:
        return set().union(*self.tags.values()) if self.tags else set()

    def global_names(self) -> dict[str, str]:
        """Name → what it is, for 'did you mean' and for clashes."""
        names: dict[str, str] = {}
        for what, table in (("param", self.params), ("track", self.tracks), ("zone", self.zones),
                            ("var", self.vars), ("define", self.defines), ("kind", self.kinds),
                            ("grid", self.grids), ("board", self.boards), ("route", self.routes)):
            for n in table:
                names.setdefault(n, what)
        for v in self.value_kind:
            names.setdefault(v, "value")
        return names


def attr_type(value: Any, value_kind: dict[str, str]) -> str:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, list):
        return EDGES
    return kind_type(value_kind[value]) if value in value_kind else NONE


def seats(ir: dict) -> int:
    """How many seats the game may have (its most players), 1 if it does not say or says nonsense."""
    p = ir.get("players")
    hi = p.get("hi") if isinstance(p, dict) else None
    return hi if isinstance(hi, int) and not isinstance(hi, bool) and 1 <= hi <= 16 else 1


def _builtin_vars_used(ir: dict, s: Symbols) -> list[str]:
    """The built-in vars the rules use and do not declare: ``out`` read as ``out(p)`` or set,
    ``next`` set (``set next = p``). A local of either name is no use of it, nor is the query
    ``next(p)``."""
    from .walk import nodes

    declared = s.global_names()
    wanted = [n for n in BUILTIN_VARS if n not in declared]
    if not wanted:
        return []
    used: set[str] = set()
    for n in nodes(ir):
        kind = n.get("node")
        if kind in ("set", "set_random", "set_weighted", "roll"):
            used.add(n.get("target"))
        elif kind == "call" and n.get("func") == "out":
            used.add("out")
    return [n for n in wanted if n in used]


def collect(ir: dict) -> Symbols:
    """The symbol table of an IR document (assumed schema-valid). Duplicates keep the first."""
    s = Symbols()
    for g in ir.get("grids", ()):
        s.grids.setdefault(g["name"], g)
    if s.grids:  # a grid brings its edges, first, so that they are the values 0..3
        s.kinds[EDGE_KIND] = list(EDGE_NAMES)
    for b in ir.get("boards", ()):
        s.boards.setdefault(b["name"], b)
    if s.boards and not s.grids:  # a board brings its directions, first: the values 0..7
        s.kinds[DIRECTION_KIND] = list(DIRECTION_NAMES)
    for r in ir.get("routes", ()):
        s.routes.setdefault(r["name"], r)
    for p in ir["params"]:
        s.params.setdefault(p["name"], p)
    for e in ir["enums"]:
        s.kinds.setdefault(e["name"], e["values"])
    for t in ir["tracks"]:
        s.tracks.setdefault(t["name"], t)
        s.tags.setdefault(t["name"], {tc["tag"] for tc in t["tiles"]} | {f["tag"] for f in t.get("fixed", ())})
    for p in ir["pieces"]:
        values = p["values"]
        if p.get("per_player"):  # each seat's pieces, seat by seat: a_0 b_0 a_1 b_1 ...
            values = [f"{v}_{seat}" for seat in range(seats(ir)) for v in p["values"]]
            if p["name"] not in s.kinds:
                s.piece_owner.update((v, i // len(p["values"])) for i, v in enumerate(values))
        s.kinds.setdefault(p["name"], values)
        s.piece_kinds.setdefault(p["name"], p["track"])
    for kind, values in s.kinds.items():
        for v in values:
            s.value_kind.setdefault(v, kind)
    for z in ir["zones"]:
        s.zones.setdefault(z["name"], z)
    for c in ir["cards"]:
        s.card_kinds.setdefault(c["name"], c)
        for v in c["varieties"]:
            s.varieties.setdefault(v["name"], (c["name"], v))
            for a in v["attrs"]:
                s.attrs.setdefault(a["name"], attr_type(a["value"], s.value_kind))
                if any(g["tiles"] == c["name"] for g in s.grids.values()):
                    s.tile_attrs.add(a["name"])
    for v in ir["vars"]:
        s.vars.setdefault(v["name"], v)
    for d in ir["defines"]:
        s.defines.setdefault(d["name"], d)
    for ph in ir["phases"]:
        s.phases.setdefault(ph["name"], ph)
    for name in _builtin_vars_used(ir, s):
        per_player, _, init = BUILTIN_VARS[name]
        s.vars[name] = {"node": "var", "name": name, "per_player": per_player, "grid": None, "init": dict(init),
                        "builtin": True}
    return s
