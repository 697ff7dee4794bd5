"""Where each part of a game lives in a ``State`` (``Layout``): value ids, card
varieties and their attributes, zone and var slots."""

from __future__ import annotations

from typing import Any

from meeple.dsl.checked import EDGE_NAMES, EDGES, Symbols
from meeple.dsl.fold import fold
from meeple.dsl.walk import nodes
from meeple.dsl.checked import DIRECTION_NAMES, DIRECTION_STEPS

from .boards import TileShapes

NO_VALUE = -1


class Layout:
    """Where each part of a game lives in a ``State``: value ids, zone slots, vars."""

    def __init__(self, ir: dict, sym: Symbols, params: dict[str, int]):
        self.sym = sym
        self.params = params
        self.max_players: int = ir["players"]["hi"]
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
        # Pieces per player: each one's seat, entry space (where progress 1 stands) and home stretch.
        self.piece_owner = {self.value_id[v]: seat for v, seat in sym.piece_owner.items()}
        self.piece_entry: dict[int, int] = {}
        self.piece_home: dict[int, int] = {}
        self.seat_pieces: dict[str, int] = {}  # a kind per player → its pieces per seat
        for p in ir["pieces"]:
            if not p.get("per_player") or sym.piece_kinds.get(p["name"]) != p["track"]:
                continue
            self.seat_pieces[p["name"]] = len(p["values"])
            entries = [self.known(e) for e in p.get("entering", [])]
            home = self.known(p["home"]) if p.get("home") is not None else 0
            for v in sym.kinds[p["name"]]:
                vid, seat = self.value_id[v], sym.piece_owner[v]
                self.piece_entry[vid] = entries[seat] if seat < len(entries) else 1
                self.piece_home[vid] = home
        self.track_loop = [bool(t.get("loop")) for t in sym.tracks.values()]
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
            default: Any = False if t == "bool" else (0 if t in ("int", EDGES) else NO_VALUE)
            column = []
            for attrs in self.variety_attrs:
                value = attrs.get(attr, default)
                if isinstance(value, list):  # edge sets, as a mask of edges (unturned)
                    value = sum(1 << EDGE_NAMES.index(e) for group in value for e in set(group))
                elif isinstance(value, str):
                    value = self.value_id.get(value, NO_VALUE)
                column.append(value)
            self.attr_table[attr] = column
        self.zone_names = list(sym.zones)
        # A board of cells: a cell is the number y * columns + x.
        self.board_name, self.columns, self.rows = None, 0, 0
        for name, b in sym.boards.items():
            self.board_name, self.columns, self.rows = name, self.known(b["columns"]), self.known(b["rows"])
            assert [self.value_id[d] for d in DIRECTION_NAMES] == list(range(8))  # Symbols puts them first
        self.cells = self.columns * self.rows
        # Per-tile vars live on the grid; the others in ``State.vars`` (a per-cell var: one slot per cell).
        self.tile_var_names = [n for n, v in sym.vars.items() if v.get("grid") and v["grid"] not in sym.boards]
        self.var_names = [n for n, v in sym.vars.items() if n not in self.tile_var_names]
        self.cell_var_names = [n for n in self.var_names if sym.vars[n].get("grid")]
        # The engine's vars, if the rules use them: who is out (per player), who moves next.
        self.out_var = self.var_names.index("out") if sym.vars.get("out", {}).get("builtin") else None
        self.next_var = self.var_names.index("next") if sym.vars.get("next", {}).get("builtin") else None
        # whether turn order is the rules' to say (players out, 'set next'), or simply seat order
        self.turn_order = self.out_var is not None or self.next_var is not None
        # whether the rules show cards ('reveal'): then each card that leaves a zone is forgotten
        # there (State.forget), by code that a game without it does not carry
        self.reveals = any(n.get("node") == "reveal"
                           for n in nodes([ir["setup"], ir["turn"], *(ph["body"] for ph in ir["phases"])]))
        self.shapes: TileShapes | None = None
        if sym.grids:
            grid = next(iter(sym.grids.values()))
            assert [self.value_id[e] for e in EDGE_NAMES] == [0, 1, 2, 3]  # Symbols puts edges first
            self.shapes = TileShapes(self.variety_attrs, {e: i for i, e in enumerate(EDGE_NAMES)},
                                     [i for i, k in enumerate(self.variety_kind) if k == grid["tiles"]],
                                     grid["paths"], [a for a, t in sym.attrs.items() if t == EDGES])
        # Shared zones and vars come first in a state, so their slots do not depend on
        # the number of players and compiled code can name them by a constant.
        self.shared_zone_slot = {n: i for i, n in enumerate(n for n in self.zone_names
                                                             if not sym.zones[n]["per_player"])}
        self.shared_var_slot: dict[str, int] = {}
        self.shared_var_slots = 0
        for n in self.var_names:
            if not sym.vars[n]["per_player"]:
                self.shared_var_slot[n] = self.shared_var_slots
                self.shared_var_slots += self.var_size(n, 1)
        self.grid_names = list(sym.grids)
        self.neighbours, self.lines = board_tables(self.columns, self.rows)

    def known(self, e: dict) -> int:
        """A size the checker holds to be known before the game: a number, or made of params."""
        return fold(e, lambda n: self.params.get(n["id"]))

    def var_size(self, name: str, players: int) -> int:
        """How many slots of ``State.vars`` the var ``name`` takes: one, one per player, or one per cell."""
        v = self.sym.vars[name]
        return players if v["per_player"] else self.cells if v.get("grid") else 1

    def var_slots(self, players: int) -> int:
        return sum(self.var_size(n, players) for n in self.var_names)

    def cell_name(self, c: int) -> str:
        """A cell as actions and records write it: ``x,y``."""
        return f"{c % self.columns},{c // self.columns}" if 0 <= c < self.cells else "none"

    def bases(self, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Where each zone's and each var's slots start in a state (declaration order)."""
        return (_bases(self.zone_names, self.shared_zone_slot, players, len(self.shared_zone_slot)),
                _bases(self.var_names, self.shared_var_slot, players, self.shared_var_slots))


def board_tables(columns: int, rows: int) -> tuple[tuple, tuple]:
    """For each direction, each cell's neighbour that way (-1 past the edge), and the cells of
    the line from it that way up to the edge (the cell itself not among them)."""
    neighbours, lines = [], []
    for dx, dy in DIRECTION_STEPS:
        nb, ln = [], []
        for c in range(columns * rows):
            x, y = c % columns, c // columns
            cells = []
            while 0 <= x + dx < columns and 0 <= y + dy < rows:
                x, y = x + dx, y + dy
                cells.append(y * columns + x)
            nb.append(cells[0] if cells else -1)
            ln.append(tuple(cells))
        neighbours.append(tuple(nb))
        lines.append(tuple(ln))
    return tuple(neighbours), tuple(lines)


def _bases(names: list[str], shared: dict[str, int], players: int, shared_slots: int) -> tuple[int, ...]:
    out, base = [], shared_slots
    for n in names:
        if n in shared:
            out.append(shared[n])
        else:
            out.append(base)
            base += players
    return tuple(out)
