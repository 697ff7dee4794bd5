"""Building Lucky Dog positions for scenario tests.

This is the ONE module of the Lucky Dog tests that touches the interpreter's
state internals (the board of the table, zone and var slots, the program
counter). Everything else (``tests/test_luckydog_rules.py``,
``tests/test_luckydog_mutations.py``) goes through the functions here and the
public ``State`` API, so when the interpreter's internals are renamed only this
file has to follow.

Squares are ``(x, y)`` pairs, ``y`` growing upwards; edges are the letters
``N E S W``; a tile's roads are written as strings of edge letters (``"NE"``),
in any order. Zones are read and written as ``{variety name: count}`` dicts (the zone
helpers are those of tests/positions.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import meeple
from meeple.interpreter.boards import Board
from positions import all_cards, set_current, set_zone, zone  # noqa: F401 (part of this module's API)

RULES = Path(__file__).resolve().parents[1] / "games" / "luckydog.rules"
EDGES = "NESW"

Square = tuple[int, int]


def load(path: Path | str = RULES, params: Mapping[str, int] | None = None):
    """The compiled game of a rules file (the project's luckydog.rules by default)."""
    return meeple.load(str(path), dict(params) if params else None)


def reload(g, **params: int):
    """The same rules file as ``g`` (the project's or an altered copy), compiled with these params."""
    return load(g.source_path, params)


def start(g, players: int = 3, seed: int = 0):
    """A state at the first "road" decision: chance sampled from ``seed``, every setup
    decision taken as its first legal action. Public API only."""
    st = g.new_state(players, seed=seed)
    while st.decision() in ("start_tile", "marker"):
        st.apply(st.legal_actions()[0])
    assert st.decision() == "road", st.decision()
    return st


def _touched(st) -> None:
    st._legal = None


# ---- tiles and their roads ----
def _variety(g, name: str) -> int:
    return g.layout.variety_names.index(name)


def _edges(mask: int) -> str:
    return "".join(e for i, e in enumerate(EDGES) if mask >> i & 1)


def _mask(edges: str) -> int:
    return sum(1 << EDGES.index(e) for e in edges)


def tile_names(g) -> list[str]:
    """The road tile varieties, in the order they were declared."""
    names = g.layout.variety_names
    return [names[v] for v in g.layout.shapes.tile_varieties]


def roads(g, name: str, rotation: int = 0) -> set[str]:
    """The roads of a tile turned ``rotation`` quarter turns clockwise, each as its edges in N E S W order."""
    ends = g.layout.shapes.ends[_variety(g, name)][rotation % 4]
    return {_edges(m) for m in ends if m}


def red(g, name: str, rotation: int = 0) -> str:
    """The edges of the tile's red axis once turned ("" for a tile with none)."""
    masks = g.layout.shapes.masks.get("red")
    return _edges(masks[_variety(g, name)][rotation % 4]) if masks else ""


def rotations(g, name: str) -> list[int]:
    """The rotations of a tile that differ from each other (in roads or edge attributes)."""
    return list(g.layout.shapes.rotations[_variety(g, name)])


def rotation_of(g, name: str, paths: Iterable[str]) -> int:
    """The first rotation of ``name`` whose roads are exactly ``paths`` (e.g. ``["WN", "SE"]``)."""
    wanted = {_edges(_mask(p)) for p in ([paths] if isinstance(paths, str) else paths)}
    for r in range(4):
        if roads(g, name, r) == wanted:
            return r
    raise ValueError(f"no rotation of {name} has the roads {sorted(wanted)}")


# ---- the table ----
def _tile(st, xy: Square) -> int:
    t = st.grid.tile_at(*xy)
    if t < 0:
        raise KeyError(f"no tile at {xy}")
    return t


def _tv(st, name: str) -> list:
    return st.grid.tv[st.game.layout.tile_var_names.index(name)]


def clear_table(st) -> None:
    """No tile on the table, no marker on any tile."""
    st.grid = Board(len(st.game.layout.tile_var_names), st.game.tile_flags)
    for seat in range(st.players):
        _set_var(st, "start", seat, -1)
        _set_var(st, "start_edge", seat, -1)
    _touched(st)


def lay(st, name: str, xy: Square, rotation: int | None = None, paths: Iterable[str] | None = None,
        policed: bool = False, closed: bool = False) -> Square:
    """Put a tile on an empty square, turned ``rotation`` times or so that its roads are ``paths``."""
    g = st.game
    if (rotation is None) == (paths is None):
        raise ValueError("give a rotation or the paths")
    if st.grid.tile_at(*xy) >= 0:
        raise ValueError(f"{xy} is taken")
    v = _variety(g, name)
    if v not in g.layout.shapes.tile_varieties:
        raise ValueError(f"{name} is not a road tile")
    r = rotation_of(g, name, paths) if paths is not None else rotation % 4
    starts = [False] * len(g.layout.tile_var_names)
    st.grid.place(xy[0], xy[1], v, r, g.layout.shapes.ends[v][r], starts)
    set_policed(st, xy, policed)
    set_closed(st, xy, closed)
    return xy


def table(st) -> dict[Square, dict]:
    """Every tile on the table: ``{(x, y): {"tile", "rotation", "policed", "closed"}}``."""
    names, b = st.game.layout.variety_names, st.grid
    return {(b.x[t], b.y[t]): {"tile": names[b.variety[t]], "rotation": b.rot[t],
                               "policed": _tv(st, "policed")[t], "closed": _tv(st, "closed")[t]}
            for t in range(len(b.x))}


def set_policed(st, xy: Square, value: bool = True) -> None:
    _tv(st, "policed")[_tile(st, xy)] = value
    _touched(st)


def set_closed(st, xy: Square, value: bool = True) -> None:
    _tv(st, "closed")[_tile(st, xy)] = value
    _touched(st)


# ---- vars ----
def _set_var(st, name: str, seat: int | None, value) -> None:
    st.set_var(name, value, seat)


def _var(st, name: str, seat: int | None = None):
    return st.var(name, seat)


def set_marker(st, seat: int, xy: Square | None, edge: str | None = None) -> None:
    """Put ``seat``'s marker on the tile at ``xy``, at ``edge`` (None: off the table)."""
    if xy is None:
        _set_var(st, "start", seat, -1)
        _set_var(st, "start_edge", seat, -1)
    else:
        _set_var(st, "start", seat, _tile(st, xy))
        _set_var(st, "start_edge", seat, EDGES.index(edge))
    _touched(st)


def marker(st, seat: int) -> tuple[Square, str] | None:
    """Where ``seat``'s marker stands: ((x, y), edge), or None."""
    t = _var(st, "start", seat)
    if t < 0:
        return None
    return (st.grid.x[t], st.grid.y[t]), EDGES[_var(st, "start_edge", seat)]


def idle(st) -> int:
    """Turns in a row in which nobody played a card."""
    return _var(st, "idle")


def set_idle(st, turns: int) -> None:
    _set_var(st, "idle", None, turns)
    _touched(st)


# ---- zones and whose turn: the same as for any game ----
def size(st, name: str, seat: int | None = None) -> int:
    return sum(zone(st, name, seat).values())


def begin_turn(st) -> None:
    """Start the current seat's turn afresh from this position (the turn's ``let``s are
    taken now), up to its "road" decision."""
    st.restart_turn()
    assert st.decision() == "road", st.decision()


# ---- the rules' queries ----
def route(st, seat: int) -> int:
    """The rules' ``drive(seat)``: the longest route from the seat's marker (counted up to its target)."""
    return st.game.route(st, "drive", seat)


def target(st, seat: int) -> int:
    """The rules' ``target(seat)``: the tiles a route of that seat must count to win."""
    return st.game.query(st, "target", seat)
