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

import contextlib
import inspect
import itertools
import re
from dataclasses import replace
from types import CodeType
from typing import Any, Callable, Iterable, Iterator, Optional, Union

from meeple.dsl import checked as C
from meeple.dsl import fold
from meeple.dsl.checked import CheckedGame, Symbols
from meeple.dsl.diagnostics import RuleRuntimeError
from meeple.dsl.limits import MAX_DICE, MAX_NUMBER, MAX_RANGE
from meeple.dsl.walk import names
from meeple.dsl.walk import nodes as walk_nodes
from meeple.dsl.walk import span

from .boards import ROW
from .code import VARS, Code, joined, lit, name, paren, renamed, subscript
from .codecache import ModuleCache
from .flow import zone_name
from .layout import NO_VALUE, Layout
from .module import Module, literal
from .moves import at_most_chosen, most_table, reshuffled
from .routes import route_length
from .state import moved_too_far

Fn = Callable[[Any], Any]
UNROLL_LIMIT = 16
# Aggregates and filters written out per value (or per card variety) inside one another, at
# most: each level writes its body out once per value, so deeper levels would grow the code
# (and the time to make it) as a power of the depth.
UNROLL_NESTING = 2
COUNT_WRITTEN = 8  # the cards in a zone that can hold at most this many varieties are added up written out
UNROLL_PLAYERS = 6  # 'any'/'all' over the players of a game for at most this many is written seat by seat
UNROLLED_TEXT = 2400  # ... unless that is longer than this (in characters)
MARK = "\x1f"  # (no generated line holds it otherwise: see ``ExprCompiler.mark``)
PREAMBLE = (("z", "z = st.zones"), ("zb", "zb = st.zone_base"), ("L", "L = st.locals"), ("P", "P = st.pos"),
            ("PL", "PL = st.place"), ("G", "G = st.grid"), ("V", "V = st.vars"),
            ("vb", "vb = st.var_base"), ("rng", "rng = st.rng"),
            ("log", "log = st.log"), ("cap", "cap = st.game.max_steps"))
# Built-in queries with fixed arguments, as Python code ({0}, {1}: the arguments' code).
BUILTIN_CODE = {
    "count": "sum({0})",
    "pos": "P[{0}]",
    "finished": "(PL[{0}] > 0)",
    "place": "PL[{0}]",
    "at_place": "_at_place(st, {0}, {1})",
    "finishers": "len(st.podium[{0}])",
    "tagged": "_tagged(st.tags[{0}], {1}, {2})",
    "seat": "_seat_number({0}, st.players)",
    "number": "{0}",
    "next": "(({0} + 1) % st.players)",
    "previous": "(({0} - 1) % st.players)",
    "abs": "abs({0})",
    "col": "_col(G, {0})",
    "row": "_row(G, {0})",
    "neighbour": "_neighbour(G, {0}, {1})",
    "opposite": "({0} ^ 2)",
    "open": "_open(G, {0}, {1})",
    "joined": "_joined(G, {0}, {1}, {2})",
    "includes": "(({0}) >> {1} & 1 == 1)",
}
SEAT_ARG = {"number", "next", "previous"}  # built-in queries of a player, which must not be none
# Their argument indexes a list: none (-1) would read the last.
PIECE_ARG = {"pos", "finished", "place", "owner", "space"}
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
FLIPPED = {">=": "<=", ">": "<", "<": ">", "<=": ">="}  # ``a op b`` is ``b FLIPPED[op] a``
EDGE_ARGS = {"neighbour": (1,), "opposite": (0,), "open": (1,), "joined": (1, 2), "includes": (1,)}
# The queries of a cell on a board: (code of a cell {0} that is not none, the value for none, the
# helper that reads a cell given as an expression once). ``cell`` and ``opposite`` are written
# by ``cell_query`` itself.
CELL_CODE = {
    "col": ("({0} % {columns})", 0, "_cell_col({0}, {columns})"),
    "row": ("({0} // {columns})", 0, "_cell_row({0}, {columns})"),
    "neighbour": ("NB[{1}][{0}]", NO_VALUE, "_cell_next({0}, NB, {1})"),
}
BOARD_QUERIES = {"cell", "opposite", *CELL_CODE}
PLAIN_RESULT = {"pos": "P", "place": "PL"}  # built-in queries that are a subscript ("P[_v1]": plain)
TILE = name("_tile", sure=True)  # the tile a placement test or a route clause judges (never none)
# A placement's test judged once per square, made a test of the square (``ExprCompiler.probing``) in the
# loop over the squares' keys (``ProgramBuilder.squares_passing``): the tile it judges is read through
# the square's column and row, and through the tiles beside it.
SQUARE_PARAMS = ("_x", "_y")
# The tile across N, E, S, W of the square whose key is _k (-1: none), ``_at`` the board's ``at.get``
# and ``_on`` the board's ``at`` (a test that the square across is empty reads no tile).
NEIGHBOUR_KEYS = tuple(f"_k {step}" for step in ("+ 1", f"+ {ROW}", "- 1", f"- {ROW}"))
Env = dict[str, Any]  # a name of the rules → its Code (and CARD_ATTRS → the names a filter's card binds)


def _names_read(code: CodeType) -> set[str]:
    """The global names the code of a function reads, with its nested functions' and
    comprehensions' (a superset: attribute names are in ``co_names`` too)."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= _names_read(const)
    return names


class TooDeep(Exception):
    """Python refuses the code of an expression: it nests too deeply; ``at`` is its position."""

    def __init__(self, message: str, at: list[int] | None):
        super().__init__(message)
        self.at = at


class Probe:
    """The test of a square being made (``ExprCompiler.probing``): how it read the tile it judges,
    ``tile``. Made a function of the square (``params``), it is the test of a tile probed there
    (``Board.passing``) when it read that tile only through its column, row and neighbours, and
    read nothing of the board that the probe would change (``exact``)."""

    def __init__(self) -> None:
        self.tile = replace(TILE, probe=True)
        self.values = 0  # the times it read the tile (its name)
        self.read = 0  # ... of those, the times it read its column, row or a neighbour, or passed it to a define
        self.board = False  # it read the board as a probe would change it: the tiles, their count, neighbours...
        self.neighbours = False  # it read the tiles beside the square

    @property
    def exact(self) -> bool:
        return not self.board and self.read == self.values


CARD_ATTRS = "\0card"  # env entry: the names a filter's card binds (a name no rule can spell)


def is_local(name: str, env: Env) -> bool:
    """Is ``name`` a local, loop variable or define parameter (not a filtered card's attribute)?"""
    return name in env and name not in env.get(CARD_ATTRS, ())


def with_local(env: Env, name: str, code: Code) -> Env:
    """``env`` with the local ``name`` read as ``code`` (it hides a card attribute of that name)."""
    inner = dict(env)
    inner[name] = code
    if name in inner.get(CARD_ATTRS, ()):
        inner[CARD_ATTRS] = tuple(a for a in inner[CARD_ATTRS] if a != name)
    return inner


def _div(a: int, b: int) -> int:
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


def _range(lo: int, hi: int) -> range:
    """The values ``lo..hi`` of a loop, a 'random' or an option."""
    if lo < -MAX_NUMBER or hi > MAX_NUMBER:
        raise RuleRuntimeError(f"the range {lo}..{hi} goes beyond the numbers meeple supports "
                               f"(-{MAX_NUMBER:,}..{MAX_NUMBER:,})")
    if hi - lo >= MAX_RANGE:
        raise RuleRuntimeError(f"the range {lo}..{hi} has {hi - lo + 1:,} values; at most {MAX_RANGE:,} are allowed")
    return range(lo, hi + 1)


def _number(v: Any) -> Any:
    """``v``, a value to keep in a var, if it is within the numbers meeple supports."""
    if -MAX_NUMBER <= v <= MAX_NUMBER:
        return v
    raise RuleRuntimeError(f"a number of {len(str(abs(v))):,} digits: beyond the numbers meeple supports "
                           f"(±{MAX_NUMBER:,})")


def _dice(n: int) -> int:
    """How many dice a roll throws, if a roll may throw that many."""
    if 0 <= n <= MAX_DICE:
        return n
    raise RuleRuntimeError(f"a roll of {n if -MAX_NUMBER <= n <= MAX_NUMBER else 'a huge number of'} dice: "
                           f"a roll is of 0..{MAX_DICE:,} dice")


def _faces(sides: int) -> range:
    """The faces of a die of ``sides`` sides: 1..sides."""
    if 1 <= sides <= MAX_RANGE:
        return range(1, sides + 1)
    raise RuleRuntimeError(f"a die of {sides if -MAX_NUMBER <= sides <= MAX_NUMBER else 'a huge number of'} sides: "
                           f"a die has 1..{MAX_RANGE:,} sides")


def _seat_of(v: Any, players: int) -> Any:
    """``v``, the player to make current, if it is one of the ``players`` seats."""
    if 0 <= v < players:
        return v
    raise RuleRuntimeError(f"'current' set to {v if -MAX_NUMBER <= v <= MAX_NUMBER else 'a huge number'}, "
                           f"which is not a seat of this {players}-player game")


def _seat_number(n: int, players: int) -> int:
    """``seat(n)``: the player in seat ``n`` (0 is the first)."""
    if 0 <= n < players:
        return n
    raise RuleRuntimeError(f"seat({n}): this {players}-player game has seats 0..{players - 1}")


def _players_from(st: Any, first: int, k: int) -> list[int]:
    """The seats of the players not out of the game (``out``: the var ``k``), in turn order from
    seat ``first`` (in seat order, they are ``State.seats_in()``)."""
    v, b, n = st.vars, st.var_base[k], st.players
    return [q for q in ((first + i) % n for i in range(n)) if not v[b + q]]


def _next_in(st: Any, p: int, step: int, k: int) -> int:
    """``next(p)`` (``step`` 1) or ``previous(p)`` (-1) in a game with players out: the first player
    in, from ``p`` on; ``p`` itself when nobody else is in."""
    v, b, n = st.vars, st.var_base[k], st.players
    for i in range(1, n):
        q = (p + step * i) % n
        if not v[b + q]:
            return q
    return p


def _set_tile(values: list, v: Any, t: int, var: str) -> None:
    """``set var(t) = v`` of a per-tile var."""
    if t < 0:
        raise RuleRuntimeError(f"'set {var}(...)' of no tile: the tile is none")
    values[t] = v


def _tagged(tags: list, space: int, tag: str) -> bool:
    """Does the track's space ``space`` carry ``tag``? (No space off the track does.)"""
    return 0 <= space < len(tags) and tags[space] == tag


def _cards(zone: list[int]) -> list[int]:
    """The cards of a zone, one variety number per card (a loop over it sees them as they were)."""
    return [i for i, c in enumerate(zone) for _ in range(c)]


def _too_far(st: Any, p: int, to: int) -> None:
    """A move written out (statements.w_move) that would take piece ``p`` past the largest number."""
    raise moved_too_far(st, p, to)


def _move_piece(st: Any, tracks: dict, p: int, steps: int, stop_tag: Any) -> None:
    track = tracks.get(p)
    if track is None:  # none: a card without the attribute, a var never set
        raise RuleRuntimeError("the piece to move is none here: a card's attribute or a var names no piece")
    st.move_piece(p, track, steps, stop_tag)


def _move_piece_to(st: Any, tracks: dict, p: int, to: int) -> None:
    """``move p to n``: the piece put at progress ``n`` (0: the start, or its player's reserve)."""
    track = tracks.get(p)
    if track is None:
        raise RuleRuntimeError("the piece to move is none here: a card's attribute or a var names no piece")
    st.move_piece(p, track, to - st.pos[p], None)


def _space(st: Any, tracks: dict, p: int) -> int:
    return st.space_of(p, st.pos[p], tracks[p])


def _move_all(a: list[int], b: list[int]) -> None:
    if a is b:  # from a zone to itself: nothing moves (and nothing may be lost)
        return
    for i, c in enumerate(a):
        if c:
            b[i] += c
            a[i] = 0


def _move_card(a: list[int], b: list[int], v: int, names: tuple[str, ...]) -> None:
    """``move c to zone``: the card of variety ``v`` from the zone it was taken from (``a``)."""
    if a[v] <= 0:
        raise RuleRuntimeError(f"the card '{names[v]}' is no longer in the zone it was taken from: it cannot move")
    a[v] -= 1
    b[v] += 1


def _move_cards(amount: int, a: list[int], b: list[int], v: int) -> int:
    """``move n variety``: as many as there are, up to n; returns how many moved."""
    n = min(max(amount, 0), a[v])
    a[v] -= n
    b[v] += n
    return n


def _shown_to(p: int) -> int:
    """The player a 'reveal ... to p' shows cards to, who must be one."""
    if p < 0:
        raise RuleRuntimeError("the player to show the cards to is none here")
    return p


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
    if var:
        return f"var '{var}' holds none (it was never set)"
    return f"a var meant to hold {what} was never set, 'first(...)' found no item, or an 'if' gave none"


def _tile_value(values: Any, t: int, default: Any) -> Any:
    return values[t] if t >= 0 else default


def _cell_value(values: list, base: int, c: int, default: Any) -> Any:
    """A per-cell var of cell ``c`` (its start value for no cell)."""
    return values[base + c] if c >= 0 else default


def _set_cell(values: list, base: int, c: int, v: Any, var: str) -> None:
    """``set var(c) = v`` of a per-cell var."""
    if c < 0:
        raise RuleRuntimeError(f"'{var}(...)' of no cell: the cell is none (past the board's edge, or never set), "
                               f"so nothing can be kept in it")
    values[base + c] = v


def _cell(x: int, y: int, columns: int, rows: int) -> int:
    """The cell at column ``x``, row ``y``; none (-1) off the board."""
    return y * columns + x if 0 <= x < columns and 0 <= y < rows else NO_VALUE


def _cell_col(c: int, columns: int) -> int:
    return c % columns if c >= 0 else 0


def _cell_row(c: int, columns: int) -> int:
    return c // columns if c >= 0 else 0


def _cell_next(c: int, neighbours: tuple, d: int) -> int:
    return neighbours[d][c] if c >= 0 else NO_VALUE


def _line(lines: tuple, c: int) -> tuple:
    return lines[c] if c >= 0 else ()


def _direction(d: int, var: str = "") -> int:
    if d < 0:
        raise RuleRuntimeError(f"a direction is none here: {_never_set(var, 'a direction')}")
    return d


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


# The engine's helpers that generated code calls (the module imports them by these names).
HELPERS: dict[str, Callable] = {
    "_div": _div, "_mod": _mod, "_at_place": _at_place, "_count_by": _count_by, "_piece": _piece, "_pick": _pick,
    "_col": _col, "_row": _row, "_neighbour": _neighbour, "_open": _open, "_joined": _joined, "_edge": _edge,
    "_seat": _seat, "_tile_value": _tile_value, "_tile_attr": _tile_attr, "_turned": _turned,
    "_route_length": route_length, "_range": _range, "_number": _number, "_seat_of": _seat_of,
    "_set_tile": _set_tile, "_cards": _cards, "_move_piece": _move_piece, "_too_far": _too_far, "_move_all": _move_all,
    "_move_card": _move_card, "_move_cards": _move_cards, "_shown_to": _shown_to, "_reshuffled": reshuffled,
    "_at_most_chosen": at_most_chosen, "_tagged": _tagged,
    "_seat_number": _seat_number, "_cell_value": _cell_value, "_set_cell": _set_cell, "_cell": _cell,
    "_direction": _direction,
    "_move_piece_to": _move_piece_to, "_space": _space, "_cell_col": _cell_col, "_cell_row": _cell_row,
    "_cell_next": _cell_next, "_line": _line, "_players_from": _players_from,
    "_next_in": _next_in, "_dice": _dice, "_most_table": most_table,
    "_while": itertools.takewhile, "_compress": itertools.compress, "_count": itertools.count}


class ExprCompiler:
    """IR expression → ``Code`` → function. ``env`` maps a name to the ``Code`` that reads it
    (a local slot, a loop variable, a define's argument)."""

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
        self.kept_limits: dict[str, list] = {}  # zone → the limits its rules keep (program.limits_kept)
        ir = checked.ir
        sources = ir.get("sources") or ([ir["source"]] if ir.get("source") else [])  # (the rules' files)
        self.module = Module(checked.source_path, ir.get("title") or "", sources, HELPERS, checked.texts)
        self.cache = ModuleCache(None, self.module.filename)  # (the game gives it its entry: Game)
        self.ns = self.module.ns  # the namespace the game's code runs in
        self.place: list[int] | None = None  # the rules position the functions made now are for
        self.fresh = 0
        self.given: set[str] = set()  # the names ``name`` has made
        self.functions = 0  # functions in the module so far
        self.marked: list[list[int]] = []  # the rules positions lines carry (``mark``)
        self.calls_out = False  # (program.write_segments: a segment calls its runs and draws)
        self.tables: dict[tuple[str, str], str] = {}  # (prefix, plain data as source) → its table's name
        self.objects: dict[int, tuple[str, Any]] = {}  # id of an object the module names → (name, object)
        self.board_tables: dict[str, str] = {}  # "NB"/"LINE" → the name of the board's table (made once)
        # A shared zone's list, by the zone's name (``z_table``), read once by a function that uses it.
        self.zone_locals: dict[int, str] = {}
        self.zone_of_local: dict[str, int] = {}
        for zone, slot in layout.shared_zone_slot.items():
            word = "z_" + re.sub(r"\W", "_", zone)
            if not word.isidentifier() or word in self.zone_of_local:
                word = f"z{slot}_" + ("" if not word.isidentifier() else word[2:])
            self.zone_locals[slot] = word
            self.zone_of_local[word] = slot
        self.unrolling = 0  # aggregates and filters being written out per value around the code made now
        # the game's end condition, written out where it is tested, and its rules position (Game)
        self.end_text: tuple[str, list[int]] | None = None
        # While not None: the names of the sets that ``member_test`` made (each None at first, made
        # on first use), for the code made now to set to None before it runs (``hoisting``).
        self.sets: Optional[list[str]] = None
        # False inside ``without_sets``: the code made there may be where Python allows no ``:=``.
        self.may_bind = True
        self.probe: Optional[Probe] = None  # while not None: the code made now is a test of a square (``probing``)
        # With them: the values read once, when the code starts (``read_once``): their code → their name.
        self.once: Optional[dict[str, str]] = None
        self.at: list[int] | None = None  # the position of the last expression written
        self.columns = {attr: self.constant(tuple(col), f"A_{attr}") for attr, col in layout.attr_table.items()}
        shapes = layout.shapes
        self.turned = {attr: self.constant(rows, f"T_{attr}") for attr, rows in shapes.masks.items()} \
            if shapes else {}
        self.route_fns: dict[tuple[str, bool], str] = {}
        # The flags that loops over the tiles look tiles up by (``flagged_tiles``): each one's
        # column by variety, in the order of the board's lists (``Board.flagged``).
        self.flags: dict[str, int] = {}
        self.flag_columns: list[tuple[bool, ...]] = []

    def name(self, prefix: str, sure: bool = False) -> Code:
        """A fresh name of generated code (``sure``: it only ever holds values that exist), never
        one given before (``_a1`` and 2 make what ``_a`` and 12 do)."""
        while True:
            self.fresh += 1
            text = f"_{prefix}{self.fresh}"
            if text not in self.given:
                self.given.add(text)
                return name(text, sure)

    def constant(self, value: Any, prefix: str = "K", source: str | None = None) -> str:
        """Put ``value`` in the module (a table the code reads, never changed); return its name.
        The same plain data under the same prefix is one table. ``source``: code of the module's
        helpers that makes the value, shown instead of it (a table too large to read)."""
        shown = source or literal(value)
        if shown is not None and (prefix, shown) in self.tables:
            return self.tables[prefix, shown]
        # (a bound method is made anew each time it is read: it is known by its object and function)
        known = (id(value.__self__), value.__func__) if inspect.ismethod(value) else id(value)
        if shown is None and known in self.objects:  # an object the module names already
            return self.objects[known][0]
        key = self.name(re.sub(r"\W", "_", prefix)).text
        self.module.table(key, value, source)
        if shown is not None:
            self.tables[prefix, shown] = key
        else:
            self.objects[known] = (key, value)  # (the value kept: its id stays its own)
        return key

    def ref(self, fn: Fn, prefix: str) -> str:
        """The name by which generated code calls ``fn``: its own, if it is the module's."""
        name = getattr(fn, "__name__", "")
        return name if self.ns.get(name) is fn else self.constant(fn, prefix)

    def mark(self, at: list[int] | None) -> str:
        """What to put at the end of a line of a body (``define``) that starts the statement of
        the rules at ``at`` (None: code of the engine's, no statement), for lines that travel
        before they are compiled (written out in another function); ``define`` takes it off."""
        self.marked.append(at or [])
        return f"{MARK}{len(self.marked) - 1}"

    def define(self, body: list[str], params: tuple[str, ...], purpose: str,
               marks: list[Optional[list[int]]] | None = None, shared: bool = False) -> Fn:
        """The function ``def <name>(st, *params):`` + ``body`` (lines, not indented), added to the
        module under the rules position of what is compiled now (``marks``: the rules position
        each line of ``body`` starts, if it starts one). It begins by reading the parts of the
        state it uses into short names (``PREAMBLE``): which ones, Python's compiler says."""
        if any(MARK in line for line in body):  # lines marked with their rules positions
            marks = list(marks or [None] * len(body))
            body = list(body)
            for i, line in enumerate(body):
                if MARK in line:
                    body[i], k = line.split(MARK)
                    marks[i] = self.marked[int(k)]
        self.functions += 1
        fname = f"{purpose}_{self.functions}"
        head = f"def {fname}({', '.join(('st',) + params)}):\n"
        text = head + "".join(f"    {b}\n" for b in body)
        used = self.cache.names(text)
        if used is None:  # the names it reads: those of the body compiled on its own
            used = _names_read(self.within_limits(lambda: compile(text, self.module.filename, "exec")))
            self.cache.keep_names(text, used)
        preamble = [line for word, line in PREAMBLE if word in used and word not in params]
        preamble += [f"{word} = st.zones[{slot}]"
                     for slot, word in sorted((self.zone_of_local[w], w) for w in used if w in self.zone_of_local)]
        src = head + "".join(f"    {b}\n" for b in preamble + body)
        at = {1 + len(preamble) + i: m for i, m in enumerate(marks or []) if m is not None}
        compiled = self.python
        fn = self.module.function(fname, src, self.place or self.at, compiled, at, shared)
        fn.source = src
        fn.at = self.place or self.at  # (the rules position its comment names)
        return fn

    # ---- functions ----
    @contextlib.contextmanager
    def placed(self, at: list[int] | None) -> Iterator[None]:
        """The functions made inside are for the rules at ``at`` (their comment names it, and
        a run-time error in them is placed there); none given: where they were."""
        outer = self.place
        self.place = at or outer
        try:
            yield
        finally:
            self.place = outer

    def compile(self, e: dict, env: Env, purpose: str = "expr", at: list[int] | None = None,
                kept: bool = False, inline: bool = False) -> Fn:
        """The function of expression ``e`` (``at``: the rules position its comment names, when it
        is not the statement compiled now; ``kept``: a value to keep, see ``kept``; ``inline``:
        see ``function``)."""
        with self.placed(at):
            code = self.gen(e, env)
            return self.function(self.kept(code) if kept else code, purpose=purpose, inline=inline)

    def kept(self, value: Code) -> Code:
        """The code of a value to keep (in a var, a local): checked to be within the numbers
        meeple supports (a var doubled at each step would otherwise grow until memory runs out),
        unless it is a plain name, a constant within them or a count of cards (``nonzero``: a
        zone's counts, each at most ``MAX_CARDS``, added up are far within them)."""
        if value.plain or value.unwrapped().nonzero is not None:
            return value
        if value.known and not (isinstance(value.value, int) and not isinstance(value.value, bool)
                                and abs(value.value) > MAX_NUMBER):
            return value
        return joined(f"_number({value})", value)

    def function(self, code: Union[Code, str], assign: tuple[str, str] | None = None,
                 params: tuple[str, ...] = (), purpose: str = "expr", inline: bool = False) -> Fn:
        """``def _f(st, *params): return code`` compiled; ``assign`` = (name, code) sets a local first;
        ``inline``: a segment or a turn writes ``code`` where it is read instead of calling it."""
        value = code.value if isinstance(code, Code) else None
        if value is not None and assign is None and not params:
            fn = lambda st: value  # noqa: E731
            fn.constant = value  # callers may read it once instead of calling
            return fn
        lines = [f"{assign[0]} = {assign[1]}"] if assign else []
        fn = self.define(lines + [f"return {code}"], params, purpose)
        if inline and assign is None and not params:
            fn.text = str(code)  # (what a segment writes instead of calling it: see program._opening)
        return fn

    def python(self, src: str, first: int = 1) -> Any:
        """``src`` compiled as the module's lines from ``first`` on; Python's own limits on nesting
        as a ``TooDeep``."""
        code = self.cache.code(src, first)
        if code is None:
            code = self.within_limits(lambda: compile("\n" * (first - 1) + src, self.module.filename, "exec"))
            self.cache.keep_code(src, first, code)
        return code

    def within_limits(self, make: Callable[[], Any]) -> Any:
        """``make()``, with Python refusing code that nests too deeply turned into ``TooDeep``."""
        try:
            return make()
        except SyntaxError as e:
            if "nested" not in str(e.msg):
                raise
        except (RecursionError, MemoryError):
            pass
        raise TooDeep("this expression nests too deeply to compile", self.at) from None

    def statements(self, body: list[str], params: tuple[str, ...] = (), purpose: str = "code",
                   marks: list[Optional[list[int]]] | None = None, shared: bool = False) -> Fn:
        """``def <name>(st, *params): body`` compiled (``body``: lines of Python, no indent;
        ``marks``: the rules position each line starts, if it starts one)."""
        return self.define(body, params, purpose, marks, shared)

    # ---- dispatch ----
    def gen(self, e: dict, env: Env) -> Code:
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
            if self.probe is not None and env[name].unwrapped().probe:
                self.probe.values += 1
            if env[name].local:  # (no statement runs while code made with ``hoisting`` does)
                return self.read_once(env[name], "local")
            return env[name]
        if what == C.PLAYERS:
            return Code("st.players")
        if what == C.CURRENT:
            return Code("st.current", sure=True)
        if what == C.PARAM:
            return lit(lay.params[name])
        if what == C.DEFINE:
            return self.inline(self.binding(e).decl, [])
        if what == C.VALUE:
            return lit(lay.value_id[name])
        if what == C.ZONE:
            return Code(self.zone_locals[lay.shared_zone_slot[name]], word=True, plain=True)
        if what == C.VAR:
            return Code(f"V[{lay.shared_var_slot[name]}]", reads=frozenset({VARS}))
        if what == C.TRACK:
            return lit(lay.track_names.index(name))
        if what == C.GRID:
            if self.probe is not None:
                self.probe.board = True
            return Code("G")
        if what == C.TAG:
            return Code(repr(name), word=True, plain=True, sure=True)
        if what == C.BOARD:  # (only cell(board, x, y) takes it, and loops: they read the layout)
            return lit(0)
        raise LookupError(f"a name bound to a {what} has no value here: this is a bug in meeple")

    def var_named(self, e: dict) -> str:
        """``, 'name'`` when ``e`` reads a var (for run-time messages that name it), else ``""``."""
        if self.checked.what(e) != C.VAR:
            return ""
        return f", {e.get('id') or e['func']!r}"

    def inline(self, define: dict, args: list[Code]) -> Code:
        return self.gen(define["body"], {p: (a if a.known else paren(a)) for p, a in zip(define["params"], args)})

    def guarded(self, helper: str, arg: Code, e: dict) -> Code:
        """``helper(arg)``: the run-time check that a value read from a var is not none."""
        return joined(f"{helper}({arg}{self.var_named(e)})", arg)

    def g_call(self, e, env):
        func, sym, lay = e["func"], self.sym, self.layout
        what = self.binding(e).what
        if what == C.DEFINE:  # (its arguments are written into its body, maybe where Python allows no ``:=``)
            with self.without_sets():
                args = [self.gen(a, env) for a in e["args"]]
            if self.probe is not None:  # (the body reads the tile of a square as it reads its parameter)
                self.probe.read += sum(a.unwrapped().probe for a in args)
            return self.inline(self.binding(e).decl, args)
        if what == C.GRID_COUNT:  # (its argument, the grid, is not read)
            return self.read_once(Code("(len(G.x) + 1)") if self.probe is not None else Code("len(G.x)"), "count")
        if self.probe is not None and what in (C.TILE_VAR, C.ROUTE, C.WAS):
            self.probe.board = True  # (never in a test of a square: it would read the shapes, the state before)
        args = [self.gen(a, env) for a in e["args"]]
        on_board = lay.board_name is not None
        for i in EDGE_ARGS.get(func, ()) if what == C.BUILTIN else ():
            if i < len(args) and not args[i].known and VARS in args[i].reads:  # a var's edge may still be none
                args[i] = self.guarded("_direction" if on_board else "_edge", args[i], e["args"][i])
        if what == C.WAS:  # in an invariant: the same expression, read in the state before the step
            arg = e["args"][0]
            outer = sorted({n["id"] for n in walk_nodes(arg) if n.get("node") == "name"
                            and self.binding(n).what == C.LOCAL and n["id"] in env})  # loop variables it uses,
            # bound outside it, passed on
            inner = {n: renamed(env[n], f"_w{i}") for i, n in enumerate(outer)}
            with self.elsewhere(), self.probing(None):
                body = self.gen(arg, inner)
            fn = self.statements([f"return {body}"], params=tuple(c.text for c in inner.values()), purpose="was")
            return joined(f"{self.constant(fn, 'was')}(_before{''.join(', ' + env[n].text for n in outer)})",
                          *(env[n] for n in outer))
        if (what in (C.ZONE, C.VAR) or what == C.BUILTIN and func in SEAT_ARG) and args and VARS in args[0].reads:
            args[0] = self.guarded("_seat", args[0], e["args"][0])  # a var's player may still be none
        if what == C.ZONE:
            zone = joined(f"z[zb[{lay.zone_names.index(func)}] + {args[0]}]", args[0])
            if self.every_game_seat(args[0], e["args"][0]):  # (read once where the code reads it often)
                return self.read_once(zone, "zone")
            return zone
        if what == C.CELL_VAR:
            base = lay.shared_var_slot[func]
            start = lit(self.gen(sym.vars[func]["init"], {}).value)
            cell = args[0].unwrapped()
            if cell.sure:
                return joined(f"V[{base} + {cell}]", cell, reads=frozenset({VARS}))
            if cell.plain:
                return joined(f"(V[{base} + {cell}] if {cell} >= 0 else {start})", cell, reads=frozenset({VARS}))
            return joined(f"_cell_value(V, {base}, {args[0]}, {start})", args[0], reads=frozenset({VARS}))
        if what == C.BUILTIN and on_board and func in BOARD_QUERIES:
            return self.cell_query(func, args)
        if what == C.TILE_VAR:
            k = lay.tile_var_names.index(func)
            start = self.gen(sym.vars[func]["init"], {}).value
            tile, values = args[0].unwrapped(), self.tile_values(k)
            if tile.sure:
                return joined(f"{values}[{tile}]", tile, tile_var=(k, tile.text))
            if tile.plain:
                return joined(f"({values}[{tile}] if {tile} >= 0 else {lit(start or 0)})", tile)
            return joined(f"_tile_value({values}, {args[0]}, {lit(start or 0)})", args[0])
        if what == C.ROUTE:
            return joined(f"{self.route_function(func)}(st, {', '.join(map(str, args))})", *args)
        if what == C.VAR:
            at = f"vb[{lay.var_names.index(func)}]" if args[0].value == 0 else \
                f"vb[{lay.var_names.index(func)}] + {args[0]}"
            var = joined(f"V[{at}]", args[0], reads=frozenset({VARS}))
            if self.every_game_seat(args[0], e["args"][0]):  # (read once where the code reads it often)
                return self.read_once(var, "var")
            return var
        tile = args[0].unwrapped() if args else None
        if self.probe is not None and func in TILE_SURE:
            if tile.probe:
                return self.square_query(func, args)
            if func not in ("col", "row"):  # (the probe would change a neighbour of another tile)
                self.probe.board = True
        if func in ("col", "row") and self.once is not None and tile.text in self.once.values():
            # (a tile read once: its square too; where it is none, as TILE_INLINE reads it, never used)
            return self.read_once(Code(TILE_INLINE[func].format("G", tile)), func)
        if func in TILE_SURE and tile.sure:
            return joined(TILE_SURE[func].format("G", tile, *args[1:]), *args)
        if func in TILE_INLINE and tile.plain:
            return joined(TILE_INLINE[func].format("G", tile, *args[1:]), *args)
        if func in PIECE_ARG and not self.sure_piece(args[0]):
            args[0] = self.guarded("_piece", args[0], e["args"][0])  # a var, an attribute, at_place: none?
        if func in PLAIN_RESULT:
            return subscript(PLAIN_RESULT[func], args[0])
        if func == "owner":
            owners = tuple(lay.piece_owner.get(v, NO_VALUE) for v in range(len(lay.value_names)))
            return joined(f"{self.constant(owners, 'OWNER')}[{args[0]}]", args[0])
        if func == "space":
            return joined(f"_space(st, {self.constant(dict(lay.piece_track), 'tracks')}, {args[0]})", args[0])
        if func in ("next", "previous") and lay.out_var is not None:  # the next player still in
            step = 1 if func == "next" else -1
            return joined(f"_next_in(st, {args[0]}, {step}, {lay.out_var})", args[0])
        if func == "count":
            if args[0].word:
                return self.zone_count(args[0], self.possible(e["args"][0], env))
            return joined(f"sum({args[0]})", args[0], nonzero=f"any({args[0]})")
        if func in BUILTIN_CODE:
            return joined(BUILTIN_CODE[func].format(*args), *args)
        if func in ("min", "max"):
            if all(a.known for a in args):
                values = [a.value for a in args]
                return lit(min(values) if func == "min" else max(values))
            return joined(f"{func}({', '.join(map(str, args))})", *args)
        raise LookupError(f"the query '{func}' bound to a {what} has no code: this is a bug in meeple")

    def square_query(self, func: str, args: list[Code]) -> Code:
        """A query of the tile a test of a square judges (``probing``), read from the square."""
        probe = self.probe
        assert probe is not None
        probe.read += 1
        if func == "col":
            return name(SQUARE_PARAMS[0])
        if func == "row":
            return name(SQUARE_PARAMS[1])
        if func == "neighbour":
            probe.neighbours = True
            edge = args[1]
            if edge.known and edge.value in range(4):
                key = NEIGHBOUR_KEYS[edge.value]
            else:
                key = f"_k + {self.constant((1, ROW, -1, -ROW), 'KEY_STEPS')}[{edge}]"
            return joined(f"_at({key}, -1)", edge, none_test=(f"({key} not in _on)", f"({key} in _on)"))
        probe.board = True  # (its shape: a square does not tell it)
        return joined(TILE_SURE[func].format("G", args[0].unwrapped(), *args[1:]), *args)

    def cell_query(self, func: str, args: list[Code]) -> Code:
        """A query of a board of cells (a cell is y * columns + x; none is -1)."""
        lay = self.layout
        if func == "cell":
            x, y = args[1], args[2]
            if x.known and y.known:
                c = _cell(x.value, y.value, lay.columns, lay.rows)
                return replace(lit(c), sure=c >= 0)
            return joined(f"_cell({x}, {y}, {lay.columns}, {lay.rows})", x, y)
        if func == "opposite":
            d = args[0]
            return lit(d.value ^ 4) if d.known else joined(f"({d} ^ 4)", d)
        c = args[0].unwrapped()
        code, otherwise, helper = CELL_CODE[func]
        if c.known and c.value < 0:
            return lit(otherwise)
        if not (c.sure or c.known or c.plain):
            code = helper  # (an expression: read once)
        if func == "neighbour":
            code = code.replace("NB", self.board_table("NB"))
        text = code.format(c, *args[1:], columns=lay.columns)
        if c.sure or c.known or not c.plain:
            return joined(text, *args)
        return joined(f"({text} if {c} >= 0 else {otherwise})", *args)

    def board_table(self, prefix: str) -> str:
        """The module's name for the board's neighbours ("NB") or lines ("LINE"): made once, as
        the tables of a big board are slow to write out (``constant`` writes them each time)."""
        if prefix not in self.board_tables:
            table = self.layout.neighbours if prefix == "NB" else self.layout.lines
            self.board_tables[prefix] = self.constant(table, prefix)
        return self.board_tables[prefix]

    def line_code(self, e: dict, env: Env) -> Code:
        """The cells of ``line(c, d)`` (or ``line(c, d, n)``: the first n of them), as a tuple."""
        args = [self.gen(a, env) for a in e["args"]]
        if not args[1].known and VARS in args[1].reads:
            args[1] = self.guarded("_direction", args[1], e["args"][1])
        lines = self.board_table("LINE")
        c, d = args[0].unwrapped(), args[1]
        cut = f"[:max(0, {args[2]})]" if len(args) > 2 else ""
        if c.sure:
            return joined(f"{lines}[{d}][{c}]{cut}", *args)
        if c.plain:
            return joined(f"({lines}[{d}][{c}]{cut} if {c} >= 0 else ())", *args)
        return joined(f"_line({lines}[{d}], {c}){cut}", *args)

    # ---- cards ----
    def card_env(self, env: Env, card: Code) -> Env:
        """Inside ``where``: card attributes read the card ``card``. Locals and define
        parameters shadow them; an enclosing filter's card does not (the inner card wins)."""
        inner = {k: v for k, v in env.items() if is_local(k, env)}
        bound = tuple(attr for attr in self.columns if attr not in inner)
        for attr in bound:
            inner[attr] = self.attr_of(attr, card)
        inner[CARD_ATTRS] = bound
        return inner

    def sure_piece(self, code: Code) -> bool:
        """Is ``code`` a piece that cannot be none: a piece's number, a loop variable over pieces,
        or an attribute that every card has?"""
        return code.unwrapped().sure

    def attr_of(self, attr: str, card: Code) -> Code:
        """Card ``card``'s attribute ``attr``: sure when every card has it."""
        column = self.columns[attr]
        if card.known:
            return lit(self.ns[column][card.value])
        return subscript(column, card, sure=NO_VALUE not in self.ns[column])

    def zone_count(self, zone: Code, held: Iterable[int]) -> Code:
        """How many cards the zone ``zone`` holds, ``held`` being the varieties it can hold: their
        counts added up, written out when they are few and ``zone`` is a name (a zone's list
        holds a count for every variety of the game: ``sum()`` would walk them all)."""
        held = tuple(sorted(held))
        if zone.word and len(held) <= COUNT_WRITTEN:
            return self.indices_sum(zone, held)
        return joined(f"sum({zone})", zone, nonzero=f"any({zone})")

    def indices_sum(self, zone: Code, idx: tuple[int, ...]) -> Code:
        """The cards of the varieties ``idx`` in ``zone``, added up; for several, its ``nonzero``
        the same counts joined by ``or``, which stops at the first variety held."""
        if not idx:
            return lit(0)
        if len(idx) == 1:
            return joined(f"{zone}[{idx[0]}]", zone)
        if not zone.plain and self.may_bind:  # (a zone worked out, as ``hand(current)`` is: once)
            z = self.name("zone").text  # (not "z": a choice's loops over cards are _z1, _z2...)
            first, rest = f"({z} := {zone})[{idx[0]}]", [f"{z}[{i}]" for i in idx[1:]]
        else:
            first, rest = f"{zone}[{idx[0]}]", [f"{zone}[{i}]" for i in idx[1:]]
        return joined(f"({first} + {' + '.join(rest)})", zone, nonzero=f"(({first} or {' or '.join(rest)}) > 0)")

    def g_filtered(self, e, env):
        with self.without_sets():  # (it may be the range of a generator below: no ``:=`` in it)
            zone = self.gen(e["zone"], env)
        where = e["where"]
        n = len(self.layout.variety_names)
        # Decide per variety at compile time where the test's value is known for each card.
        possible = self.possible(e["zone"], env)
        decided: list[Any] = [None]
        if self.unrolling < UNROLL_NESTING:
            self.unrolling += 1
            try:
                decided = [self.gen(where, self.card_env(env, lit(i))).value for i in range(n)]
            finally:
                self.unrolling -= 1
        if all(d is not None for d in decided):
            idx = tuple(i for i, d in enumerate(decided) if d and i in possible)
            if len(idx) > 1 and set(idx) == set(possible):
                return self.zone_count(zone, possible)  # the others are never there
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
                return joined(f"_count_by({zone}, {self.constant(groups, 'G')}, {value})", zone, value)
        i, c = self.name("i"), self.name("c")
        test = self.gen(where, self.card_env(env, i))
        return joined(f"sum({c} for {i}, {c} in enumerate({zone}) if {c} and {test})", zone, test)

    def possible(self, zone: dict, env: Env) -> set[int] | range:
        """The varieties the zone expression ``zone`` can hold (all, when unknown)."""
        everything = range(len(self.layout.variety_names))
        if self.checked.what(zone) == C.LOCAL:
            return everything  # a define's parameter: any zone
        name = zone_name(zone, self.checked)
        return self.can_hold.get(name, everything) if name else everything

    def g_attr(self, e, env):
        name = e["name"]
        if name in self.sym.tile_attrs:
            if self.probe is not None:
                self.probe.board = True  # (a tile's variety: a square does not tell it)
            obj = self.gen(e["obj"], env)
            tile = obj.unwrapped()
            kind = self.sym.attrs[name]
            default = lit(False if kind == "bool" else 0 if kind in ("int", "edges") else NO_VALUE)
            # No tile (none) has no attributes: it reads as the attribute's default.
            if tile.sure:
                if name in self.turned:
                    return joined(f"{self.turned[name]}[G.variety[{tile}]][G.rot[{tile}]]", tile)
                return joined(f"{self.columns[name]}[G.variety[{tile}]]", tile)
            if name in self.turned:
                if tile.plain:
                    return joined(f"({self.turned[name]}[G.variety[{tile}]][G.rot[{tile}]] if {tile} >= 0 else 0)",
                                  tile)
                return joined(f"_turned({self.turned[name]}, G, {tile})", tile)
            if tile.plain:
                return joined(f"({self.columns[name]}[G.variety[{tile}]] if {tile} >= 0 else {default})", tile)
            return joined(f"_tile_attr({self.columns[name]}, G, {tile}, {default})", tile)
        return self.attr_of(name, self.gen(e["obj"], env))

    def flagged_tiles(self, parts: list[dict], var: str) -> tuple[str, list[dict]] | None:
        """For a loop of ``var`` over the tiles on the grid and the parts of the 'and' that tests
        each: when the first part that looks at ``var`` is a flag of the tile (``var.signal``:
        true or false by its variety, never turned), the list of the tiles that have it
        (``Board.flagged``, in the order of the tiles), to run over instead of every tile, and the
        other parts; else None. (A part before it would be judged for every tile, and might fail.)"""
        i, p = next(((i, p) for i, p in enumerate(parts) if var in names(p)), (0, None))
        if p is not None and p["node"] == "attr" and p["obj"]["node"] == "name" and p["obj"]["id"] == var \
                and p["name"] in self.sym.tile_attrs and self.sym.attrs[p["name"]] == "bool" \
                and p["name"] not in self.turned:
            if p["name"] not in self.flags:
                self.flags[p["name"]] = len(self.flag_columns)
                self.flag_columns.append(tuple(bool(v) for v in self.layout.attr_table[p["name"]]))
            return f"G.flagged[{self.flags[p['name']]}]", parts[:i] + parts[i + 1:]
        return None

    # ---- routes ----
    def route_function(self, name: str, at_least: bool = False) -> str:
        """The route query ``name`` as a function ``(st, *args) -> length`` in the namespace; with
        ``at_least``, ``(st, *args, least) -> length >= least`` (``compile_route``)."""
        if (name, at_least) not in self.route_fns:
            route = self.sym.routes[name]
            with self.placed(span(route)):  # its comment names the route; an error in it, the statement that asked
                prefix = f"route_{name}_at_least" if at_least else f"route_{name}"
                with self.elsewhere(), self.probing(None):
                    self.route_fns[name, at_least] = self.constant(self.compile_route(route, at_least), prefix)
        return self.route_fns[name, at_least]

    def route_test(self, call: dict, op: str, other: Code, env: Env) -> Code:
        """``route(...) op other`` (``op`` one of ``>= > < <=``) as a test of ``route >= least``,
        which a path network too small to hold ``least`` tiles answers without a search
        (``Board.route_bound``). Expressions change nothing, so the one difference from comparing
        the length is when two of its parts would fail at run time: which rule error is raised."""
        self.route_function(call["func"])  # the query itself is in the module too (``Game.route`` asks for it)
        if self.probe is not None:
            self.probe.board = True
        args = [self.gen(a, env) for a in call["args"]]
        least = other if op in (">=", "<") else \
            lit(other.value + 1) if other.known else joined(f"({other} + 1)", other)
        test = joined(f"{self.route_function(call['func'], at_least=True)}(st, {', '.join(map(str, args + [least]))})",
                      *args, least)
        return test if op in (">=", ">") else self.negate(test)

    def compile_route(self, r: dict, at_least: bool = False) -> Callable[..., int]:
        """The route as one generated function ``f(st, *args)``: its clauses as Python code
        (the route's parameters are the function's), then ``routes.route_length``.

        With ``at_least``, the function takes one more argument, ``least``, and tells whether the
        length is at least that: when the start's path network (``Board.route_bound``, kept as
        tiles are placed) has fewer other paths than ``least``, no walk from it can be long
        enough, whatever the clauses say, and the answer is no without working them out."""
        args = [name(f"_a{i}") for i in range(len(r["params"]))]
        env: Env = dict(zip(r["params"], args))
        clauses = {c["name"]: c for c in r["clauses"]}

        def clause(name: str, default: str) -> str:
            c = clauses.get(name)
            return self.gen(c["value"], env).text if c is not None else default

        def tile_var_of_tile(code: Code) -> int | None:
            """k, when ``code`` is the per-tile var k of the tile judged."""
            return code.tile_var[0] if code.tile_var is not None and code.tile_var[1] == TILE.text else None

        def tile_clause(name: str, every_tile: bool = True) -> str | None:
            """A clause of a tile: its value for ``_tile``, or (``every_tile``) the list of its values
            for all tiles; for ``stops``, the dict of the tiles that stop a walk and by which edges."""
            c = clauses.get(name)
            if c is None:
                return None
            inner = {**env, c["params"][0]: TILE}
            if len(c["params"]) == 1:
                code = self.gen(c["value"], inner)
                if not every_tile:
                    return code.text
                whole = tile_var_of_tile(code)
                if whole is not None:  # the clause is a per-tile var: its list is the answer
                    return f"G.tv[{whole}]"
                return f"[{code} for _tile in range(len(G.x))]"
            # The parts of an 'and' that do not look at the edge are tested once per tile.
            edge = c["params"][1]
            parts = _conjuncts(c["value"])
            guard = [p for p in parts if edge not in names(p)]
            per_edge = [p for p in parts if edge in names(p)] or [{"node": "bool", "value": True}]
            mask = self.edges_included(per_edge, edge, inner)
            if mask is None:
                masks = []
                for e in range(4):  # one test per edge, each folded with its edge known
                    test = self.gen(_all_of(per_edge), {**inner, edge: lit(e)})
                    bit = 1 << e
                    masks.append(lit(bit if test.value else 0).text if test.known else f"({bit} if {test} else 0)")
                mask = " | ".join(masks)
            if not guard:
                return f"{{_tile: _m for _tile in range(len(G.x)) if (_m := {mask})}}"
            test = self.gen(_all_of(guard), inner)
            k = tile_var_of_tile(test)
            if k is not None:  # only the tiles whose flag is set can stop a walk (found in C: often none is)
                return f"({{_tile: {mask} for _tile in _compress(_count(), G.tv[{k}])}} if any(G.tv[{k}]) else {{}})"
            return f"{{_tile: {mask} for _tile in range(len(G.x)) if {test}}}"
        enter = tile_clause("enter_start", every_tile=False)
        search = ("_route_length(G.nb, G.ends, _t0, _e0, "
                  f"{'bool(' + enter + ')' if enter else 'False'}, "
                  f"{tile_clause('blocked') or '[False] * len(G.x)'}, {tile_clause('stops') or '{}'}, "
                  f"{clause('passes', '0')}, {clause('enough', 'len(G.x)')})")
        params = tuple(a.text for a in args)
        body = [
            f"_t0 = {clause('start', lit(NO_VALUE).text)}",
            f"_e0 = {clause('start_edge', lit(NO_VALUE).text)}",
            "if _t0 < 0 or _e0 < 0:",
            "    return 0 >= _least" if at_least else "    return 0",
        ]
        if at_least:
            params += ("_least",)
            body += ["if G.route_bound(_t0, _e0) < _least:",
                     "    return False"]
        body += ["_tile = _t0",
                 f"return {search} >= _least" if at_least else f"return {search}"]
        return self.statements(body, params=params, purpose="route", shared=True)

    # ---- aggregates ----
    def domain_code(self, d: dict, env: Env) -> tuple[str, Code]:
        """('values' | 'cards', the code of the iterable)."""
        with self.without_sets():
            return self.domain_iterable(d, env)

    def domain_iterable(self, d: dict, env: Env) -> tuple[str, Code]:
        if d["players"]:
            if self.layout.out_var is not None:  # the players in, from current on
                return "values", Code(f"_players_from(st, st.current, {self.layout.out_var})")
            # the seats from each one on, for each count of players (a game has at most MAX_PLAYERS)
            seats = tuple(tuple(tuple((c + i) % n for i in range(n)) for c in range(n))
                          for n in range(self.layout.max_players + 1))
            return "values", Code(f"{self.constant(seats, 'SEATS_FROM')}[st.players][st.current]")
        if d["hi"] is not None:
            lo, hi = self.gen(d["lo"], env), self.gen(d["hi"], env)
            return "values", joined(f"_range({lo}, {hi})", lo, hi)
        lo = d["lo"]
        if self.checked.what(lo) == C.KIND:
            values = tuple(self.layout.kind_values[lo["id"]])
            per_seat = self.layout.seat_pieces.get(lo["id"])
            if per_seat:  # the pieces of the seats in this game
                return "values", Code(f"{self.constant(values, 'PIECES')}[:st.players * {per_seat}]")
            return "values", Code(repr(values), items=values)
        if self.checked.what(lo) == C.GRID:
            if self.probe is not None:
                self.probe.board = True  # (a probe would be one of the tiles)
            return "values", Code("range(len(G.x))")
        if self.checked.what(lo) == C.BOARD:
            return "values", Code(f"range({self.layout.cells})")
        if lo["node"] == "call" and lo["func"] == "line" and self.checked.what(lo) == C.BUILTIN:
            return "values", self.line_code(lo, env)
        return "cards", self.gen(lo, env)

    def players_code(self) -> Code:
        """The players in the game, in seat order: all of them, unless the rules put some out."""
        k = self.layout.out_var
        return Code("range(st.players)") if k is None else Code("st.seats_in()")

    def domain(self, d: dict, env: Env) -> tuple[str, Fn]:
        kind, code = self.domain_code(d, env)
        return kind, self.function(code)

    def g_comprehension(self, e, env):
        func, d = e["func"], e["domain"]
        ordered = func == "first" or e.get("while_") is not None
        # An aggregate does not depend on the order of the players (but for 'first' and 'while');
        # a loop statement does.
        kind, dom = ("values", self.players_code()) if d["players"] and not ordered else self.domain_code(d, env)
        where = e["where"]
        unrolled = None
        if ordered:
            return self.ordered_aggregate(e, env, dom)
        if func == "any" and self.sets is not None and where is None:
            member = self.member_test(e, env, dom)
            if member is not None:
                return member
        if self.unrolling < UNROLL_NESTING:
            self.unrolling += 1
            try:
                if kind == "values" and dom.items is not None:
                    unrolled = self.unroll(func, e, env, dom.items)
                elif d["players"] and not ordered and func in ("any", "all"):
                    unrolled = self.unroll_players(func, e, env)
                elif kind == "cards" and func in ("sum", "count"):
                    unrolled = self.unroll_cards(func, e, env, dom)
            finally:
                self.unrolling -= 1
        if unrolled is not None:
            return unrolled
        v = self.name("v", sure=True)
        inner = with_local(env, e["var"], v)
        body = self.gen(e["body"], inner)
        of_the_tile = body.tile_var is not None and body.tile_var[1] == v.text
        if func == "count" and where is None and of_the_tile and self.of_a_grid(d):
            # count(policed(t) for t in table): the tiles whose var is set (not 0 nor false), counted in C
            values = self.tile_values(body.tile_var[0])
            return Code(f"(len({values}) - {values}.count(False))")
        where_code = self.gen(where, inner) if where is not None else None
        test = f" if {where_code}" if where is not None else ""
        parts = (dom, body) + ((where_code,) if where_code is not None else ())
        if kind == "cards":
            c = self.name("c")
            loop = f"for {v}, {c} in enumerate({dom}) if {c}"
            test = test.replace(" if ", " and ", 1) if test else ""
            if func == "sum":
                return joined(f"sum(({body}) * {c} {loop}{test})", *parts)
            if func == "count":
                return joined(f"sum({c} {loop}{test} and ({body}))", *parts)
        else:
            loop = f"for {v} in {dom}"
            if func == "sum":
                return joined(f"sum({body} {loop}{test})", *parts)
            if func == "count":
                cond = f" if ({where_code}) and ({body})" if where is not None else f" if {body}"
                return joined(f"sum(1 {loop}{cond})", *parts)
        if func in ("max", "min"):
            return joined(f"{func}(({body} {loop}{test}), default=0)", *parts)
        return joined(f"{func}({body} {loop}{test})", *parts)

    @contextlib.contextmanager
    def hoisting(self) -> Iterator[list[str]]:
        """Code made inside may test ``x in S`` for a set ``S`` of values of the state, made once
        per run of the code (``member_test``), and read a value that stays the same while it runs
        through a name set when it starts (``read_once``). The lines that start it are given (as
        they are once the code is made): each set's name set to None, each such name set."""
        outer, self.sets = (self.sets, self.once), []
        self.once = {}
        start: list[str] = []
        try:
            yield start
        finally:
            start += [f"{made} = None" for made in self.sets] + [f"{n} = {code}" for code, n in self.once.items()]
            self.sets, self.once = outer

    def read_once(self, code: Code, prefix: str) -> Code:
        """``code``, a value of the state that reads nothing that changes while code made with
        ``hoisting`` runs (no loop variable), read there once: a name set when it starts."""
        if self.once is None:  # (not in such code, or in another function's: ``elsewhere``)
            return code
        once = self.once.get(code.text)
        if once is None:
            once = self.once[code.text] = self.name(prefix).text
        return replace(code, text=once, word=True, plain=True, inner=None)

    def every_game_seat(self, seat: Code, e: dict) -> bool:
        """Is ``seat`` (of ``e``) the current player or a seat that every game has (a number below
        the fewest players)? A zone or var of it can be read before the test that reads it runs
        (``read_once``): its slot exists (a fourth player's, in a game of three, does not)."""
        every_game = seat.known and 0 <= seat.value < self.checked.ir["players"]["lo"]
        return seat.sure and (every_game or e["node"] == "name" and self.binding(e).what == C.CURRENT)

    def tile_values(self, k: int) -> Code:
        """The list of the values of per-tile var ``k`` (read once where it can be)."""
        return self.read_once(Code(f"G.tv[{k}]", plain=True), "tv")

    @contextlib.contextmanager
    def _made_with(self, **values: Any) -> Iterator[None]:
        """Code made inside is made with these attributes of the compiler (set back after)."""
        outer = {key: getattr(self, key) for key in values}
        for key, value in values.items():
            setattr(self, key, value)
        try:
            yield
        finally:
            for key, value in outer.items():
                setattr(self, key, value)

    def elsewhere(self) -> contextlib.AbstractContextManager[None]:
        """Code made inside is another function's (a route, a 'was'): it makes no set and reads no
        name set by the code made around it (``hoisting``)."""
        return self._made_with(sets=None, once=None)

    def probing(self, probe: Optional[Probe]) -> contextlib.AbstractContextManager[None]:
        """Code made inside is the test of a square that ``probe`` follows (None: code of a function
        of its own made meanwhile, a route, a 'was', is not): the tile it judges, ``probe.tile``, is
        read through the square's parameters (``square_query``), the count of the tiles counts it."""
        return self._made_with(probe=probe)

    def without_sets(self) -> contextlib.AbstractContextManager[None]:
        """Code made inside makes no set (``member_test``) and binds no name by ``:=``: a domain
        (Python allows no ``:=`` in a comprehension's iterable), a define's arguments, a lambda."""
        return self._made_with(sets=None, may_bind=False)

    def edges_included(self, parts: list[dict], edge: str, env: Env) -> str | None:
        """The code of the set of edges ``S`` when the test of ``edge`` is ``includes(S, edge)``
        alone (``S`` not reading ``edge``): a set of edges is the mask of its edges already."""
        if len(parts) != 1:
            return None
        p = parts[0]
        if not (p["node"] == "call" and p["func"] == "includes" and self.binding(p).what == C.BUILTIN
                and p["args"][1]["node"] == "name" and p["args"][1]["id"] == edge and edge not in names(p["args"][0])):
            return None
        return str(paren(self.gen(p["args"][0], env)))

    def of_a_grid(self, d: dict) -> bool:
        """Is the domain ``d`` the tiles of a grid (``t in table``)?"""
        return not d["players"] and d["hi"] is None and self.checked.what(d["lo"]) == C.GRID

    def member_test(self, e: dict, env: Env, dom: Code) -> Code | None:
        """``any(v(q) == x for q in D)``, with ``v`` a var read for the item and ``D`` the players or
        the tiles of a grid, as ``x in {v(q) for q in D}``: the set is made on the first test and
        kept while the code runs (the state does not change meanwhile), so a test run for every
        item of an outer loop looks the value up instead of running through ``D`` each time."""
        d, var, body = e["domain"], e["var"], e["body"]
        if body["node"] != "bin_op" or body["op"] != "==":
            return None
        if not (d["players"] or self.of_a_grid(d)):
            return None
        for mine, other in ((body["left"], body["right"]), (body["right"], body["left"])):
            item = mine["node"] == "call" and self.binding(mine).what in (C.VAR, C.TILE_VAR) \
                and len(mine["args"]) == 1 and mine["args"][0]["node"] == "name" and mine["args"][0]["id"] == var
            if not item or var in names(other):
                continue
            value = self.gen(other, env)
            if not (value.known or value.unwrapped().plain):  # (read once, when the set is made or not)
                return None
            v = self.name("v", sure=True)
            read = self.gen(mine, with_local(env, var, v))
            made = self.name("S").text
            self.sets.append(made)
            return joined(f"({value} in ({made} if {made} is not None else ({made} := {{{read} for {v} in {dom}}})))",
                          value, read, dom)
        return None

    def ordered_aggregate(self, e: dict, env: Env, dom: Code) -> Code:
        """An aggregate with ``while`` (the run stops at the first item that fails it), or ``first``
        (the body at the first item that passes ``where``, or none). The domain is not a zone."""
        func = e["func"]
        v = self.name("v", sure=True)
        inner = with_local(env, e["var"], v)
        body = self.gen(e["body"], inner)
        parts = [dom, body]
        if e.get("while_") is not None:
            with self.without_sets():  # (a set made inside a lambda would be the lambda's)
                test = self.gen(e["while_"], inner)
            parts.append(test)
            dom = joined(f"_while(lambda {v}: {test}, {dom})", dom, test)
        where = ""
        if e["where"] is not None:
            where_code = self.gen(e["where"], inner)
            parts.append(where_code)
            where = f" if ({where_code})"
        loop = f"for {v} in {dom}"
        if func == "first":  # none when no item passes: what takes it as a seat or a direction checks it
            return joined(f"next(({body} {loop}{where}), {NO_VALUE})", *parts, reads=frozenset({VARS}))
        if func == "count":
            cond = f"{where} and ({body})" if where else f" if {body}"
            return joined(f"sum(1 {loop}{cond})", *parts)
        if func in ("max", "min"):
            return joined(f"{func}(({body} {loop}{where}), default=0)", *parts)
        return joined(f"{func}({body} {loop}{where})", *parts)

    def unroll_cards(self, func: str, e: dict, env: Env, zone: Code) -> Code | None:
        """``sum(c.x for c in zone)`` over the few varieties the zone can hold, each term folded:
        ``sum(c.x for c in front(p))`` → ``(2 * Z[11] - Z[10])``, a zone worked out read once
        (``((_zone1 := z[...])[11] ...``) where it can be."""
        possible = self.possible(e["domain"]["lo"], env)
        if len(possible) > UNROLL_LIMIT:
            return None
        terms: list[tuple[int, int]] = []  # (variety, how much each card of it adds)
        for i in sorted(possible):
            inner = with_local(env, e["var"], lit(i))
            body = self.gen(e["body"], inner)
            where = self.gen(e["where"], inner) if e["where"] is not None else lit(True)
            if func == "count":
                body, where = lit(1), self.logic("and", where, body)
            if where.value is False or body.value in (0, False):
                continue
            if not where.known or not body.known:
                return None  # the term depends on the state: not worth unrolling
            terms.append((i, int(body.value)))
        if not terms:
            return lit(0)
        terms.sort(key=lambda t: t[1] < 0)  # (a term that adds first: ``a - b``, not ``-b + a``)
        first = again = zone.text
        if len(terms) > 1 and not zone.plain and self.may_bind:  # (read once)
            again = self.name("zone").text
            first = f"({again} := {zone})"
        text = ""
        for n, (i, k) in enumerate(terms):
            times = "" if abs(k) == 1 else f"{abs(k)} * "
            sign = ("" if k > 0 else "-") if n == 0 else (" + " if k > 0 else " - ")
            text += f"{sign}{times}{first if n == 0 else again}[{i}]"
        return joined(f"({text})", zone)

    def unroll(self, func: str, e: dict, env: Env, values: tuple) -> Code | None:
        """``any(f(a) for a in K)`` over a fixed kind K → ``f(k1) or f(k2) ...``, folded."""
        if len(values) > UNROLL_LIMIT or (func in ("max", "min") and e["where"] is not None):
            return None
        terms = []
        for value in values:
            inner = with_local(env, e["var"], lit(value))
            body = self.gen(e["body"], inner)
            where = self.gen(e["where"], inner) if e["where"] is not None else lit(True)
            terms.append((where, body))
        if func == "any":
            parts = [self.logic("and", w, b) for w, b in terms]
            return self.fold_chain("or", parts, lit(False))
        if func == "all":
            parts = [self.logic("or", self.negate(w), b) for w, b in terms]
            return self.fold_chain("and", parts, lit(True))
        if func == "sum":
            parts = [b if w.value is True else joined(f"({b} if {w} else 0)", b, w) for w, b in terms
                     if w.value is not False]
            return self.fold_sum(parts)
        if func == "count":
            parts = [self.logic("and", w, b) for w, b in terms]
            return self.fold_sum([p if not p.known else lit(int(p.value)) for p in
                                  (joined(f"(1 if {p} else 0)", p) if not p.known else p for p in parts)])
        if func in ("max", "min"):
            if not terms:
                return lit(0)
            if all(b.known for _, b in terms):
                values_ = [b.value for _, b in terms]
                return lit(max(values_) if func == "max" else min(values_))
            if len(terms) == 1:  # max(x) of one value is x (Python's max(x) would iterate x)
                return terms[0][1]
            return joined(f"{func}({', '.join(b.text for _, b in terms)})", *(b for _, b in terms))
        return None

    def unroll_players(self, func: str, e: dict, env: Env) -> Code | None:
        """``any(f(p) for p in player)`` → ``f(0) or f(1) or (st.players > 2 and f(2)) ...``: seat by
        seat, in seat order, as the aggregate goes (the seats from the game's least number of
        players on tested only when the game has them). Not when some players may be out."""
        lo, hi = self.checked.ir["players"]["lo"], self.checked.ir["players"]["hi"]
        if hi > UNROLL_PLAYERS or self.layout.out_var is not None:
            return None
        parts = []
        for seat in range(hi):
            inner = with_local(env, e["var"], lit(seat))
            taken = lit(True) if seat < lo else Code(f"(st.players > {seat})")
            if e["where"] is not None:
                taken = self.logic("and", taken, self.gen(e["where"], inner))
            body = self.gen(e["body"], inner)
            parts.append(self.logic("and", taken, body) if func == "any" else
                         self.logic("or", self.negate(taken), body))
        unrolled = self.fold_chain("or", parts, lit(False)) if func == "any" else \
            self.fold_chain("and", parts, lit(True))
        return unrolled if len(unrolled.text) <= UNROLLED_TEXT else None

    def fold_chain(self, op: str, parts: list[Code], empty: Code) -> Code:
        code = empty
        first = True
        for p in parts:
            code = p if first else self.logic(op, code, p)
            first = False
        return code

    def fold_sum(self, parts: list[Code]) -> Code:
        total, rest = 0, []
        for p in parts:
            if p.known:
                total = fold.binary("+", total, int(p.value))
            else:
                rest.append(p)
        if not rest:
            return lit(total)
        return joined("(" + " + ".join([p.text for p in rest] + ([lit(total).text] if total else [])) + ")", *rest)

    # ---- operators ----
    def logic(self, op: str, a: Code, b: Code) -> Code:
        if op == "and":
            if a.known:
                return b if a.value else lit(False)
            if b.value is True:
                return a
        else:
            if a.known:
                return lit(True) if a.value else b
            if b.value is False:
                return a
        return joined(f"({a} {op} {b})", a, b)

    def negate(self, a: Code) -> Code:
        return lit(fold.unary("not", a.value)) if a.known else joined(f"(not {a})", a)

    def g_case(self, e, env):
        subject = self.gen(e["subject"], env)
        arms = [(self.gen(a["match"], env), self.gen(a["value"], env)) for a in e["arms"]]
        default = self.gen(e["default"], env) if e["default"] is not None else lit(0)
        if subject.known and all(m.known for m, _ in arms):
            return next((v for m, v in arms if m.value == subject.value), default)
        if all(m.known and v.known for m, v in arms) and default.known:
            table = self.constant({m.value: v.value for m, v in reversed(arms)}, "case")
            return joined(f"{table}.get({subject}, {default})", subject)
        matches = ", ".join(m.text for m, _ in arms)
        values = ", ".join(v.text for _, v in arms)
        return joined(f"_pick({subject}, ({matches},), ({values},), {default})", subject,
                      *(c for arm in arms for c in arm), default)

    def g_bin_op(self, e, env):
        op = e["op"]
        if op in FLIPPED:  # a route's length compared with a number: a test that may need no search
            if self.is_route_call(e["left"]):
                return self.route_test(e["left"], op, self.gen(e["right"], env), env)
            if self.is_route_call(e["right"]):
                return self.route_test(e["right"], FLIPPED[op], self.gen(e["left"], env), env)
        a = self.gen(e["left"], env)
        b = self.gen(e["right"], self.narrowed(e, env) if op in ("and", "or") else env)
        if op in ("and", "or"):
            return self.logic(op, a, b)
        if a.known and b.known:
            return lit(fold.binary(op, a.value, b.value))
        held = self.held_test(op, a, b) if b.known else self.held_test(FLIPPED.get(op, op), b, a) if a.known else None
        if held is not None:
            return held
        if op in ("==", "!=") and (a.known or b.known):  # a read compared with none: maybe told without the read
            value, other = (b, a) if a.known else (a, b)
            tests = value.unwrapped().none_test
            if tests is not None and other.value == NO_VALUE:
                return joined(tests[op == "!="], value)
        if op == "/":
            return joined(f"_div({a}, {b})", a, b)
        if op == "%":
            return joined(f"_mod({a}, {b})", a, b)
        return joined(f"({a} {op} {b})", a, b)

    def held_test(self, op: str, count: Code, number: Code) -> Code | None:
        """``count op number``, ``count`` a count of cards and ``number`` 0 or 1, as the test
        that the count is not 0 (or is): ``count(hand where gold) >= 1`` stops at the first
        variety held instead of adding them all up. None for other comparisons."""
        nonzero = count.unwrapped().nonzero
        if nonzero is None or number.value not in (0, 1) or isinstance(number.value, bool):
            return None
        held = {(">=", 1), (">", 0), ("!=", 0)}
        none = {("<", 1), ("<=", 0), ("==", 0)}
        if (op, number.value) in held:
            return joined(nonzero, count)
        if (op, number.value) in none:
            return joined(f"(not {nonzero})", count)
        return None

    def narrowed(self, e: dict, env: Env) -> Env:
        """The names for the right of ``e``, an 'and' or an 'or': a local its left holds is not
        none (``u != none and col(u) == 2``, ``u == none or col(u) == 2``) is known to be some
        value there, so it is read as one (``G.x[u]``, not a call that first tests for none)."""
        test = e["left"]
        if test["node"] == "bin_op" and test["op"] == ("!=" if e["op"] == "and" else "=="):
            for one, other in ((test["left"], test["right"]), (test["right"], test["left"])):
                if one["node"] == "name" and other["node"] == "none_value" and one["id"] in env \
                        and self.binding(one).what == C.LOCAL:
                    return {**env, one["id"]: _sure(env[one["id"]])}
        return env

    def is_route_call(self, e: dict) -> bool:
        return e["node"] == "call" and self.binding(e).what == C.ROUTE

    def g_un_op(self, e, env):
        a = self.gen(e["operand"], env)
        if e["op"] == "not":
            return self.negate(a)
        return lit(fold.unary("-", a.value)) if a.known else joined(f"(-{a})", a)

    def g_cond(self, e, env):
        t, a, b = (self.gen(e[k], env) for k in ("test", "then_", "else_"))
        if t.known:
            return a if t.value else b
        # none in a branch (standing for a player, a tile, ...): the value may be none, as a var's
        # may, so what takes it as a seat checks it (``guarded``)
        none = any(x.known and x.value == NO_VALUE for x in (a, b))
        return joined(f"({a} if {t} else {b})", t, a, b, reads=frozenset({VARS}) if none else frozenset())


def _sure(code: Code) -> Code:
    """``code`` known never to be none (and so the code inside its parentheses)."""
    return replace(code, sure=True, inner=_sure(code.inner) if code.inner is not None else None)


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
        # What a slot holds that a saved state may wait with (a loop's items, a binding, a placed
        # tile...), for ``Game.state_from_json`` to check: a type as the checker names them ("player",
        # "kind:NAME", "tile", "cell", "int"), "card" (a variety), "items:" and the type of each item,
        # "option:N" (one of N options), "space:T" (a space of track T), "dice" (dice left to roll).
        # Any other slot holds a number.
        self.holds: dict[int, str] = {}

    def new(self) -> int:
        self.count += 1
        return self.count - 1
