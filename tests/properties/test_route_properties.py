"""Hypothesis properties of the route search (interpreter/routes.py, ``route_length``).

On random small grids of tiles (paths, blocked tiles, stopping edges, passes) the
search must give ``min(best, enough)``, where ``best`` comes from a brute force
written here from the rules alone: it follows every walk, one step at a time, and
only cuts a walk that comes back to a state (tile, entry edge, passes left, tiles
entered) already on that same walk, since such a loop cannot enter anything new.
Nothing is remembered between walks, and the brute force reads the grid from the
cells' coordinates and the paths as edge sets, not from ``neighbours``/``ends``.

``route_length`` also stops once a walk covers every tile reachable at all, but only after
``routes.LONG_SEARCH`` states, which boards this small seldom reach; so each answer is also
checked with that threshold patched down to 0 and 8.

The path networks a ``boards.Board`` keeps as tiles are placed bound every route from above
(``Board.route_bound``), whatever is blocked or stops a walk; trial placements taken back,
clones and boards read back from JSON keep them as they were.

The worked example of Lucky Dog's seed (../shared/spec/luckydog.md, "The goal") and
a few hand-made positions are checked against both.

Examples per test come from the Hypothesis profile (tests/conftest.py: ``ci``,
``dev``, ``fuzz``); nothing here overrides it.
"""

from __future__ import annotations

from dataclasses import dataclass
from unittest import mock

import pytest
from hypothesis import event, given, note, target
from hypothesis import strategies as st

from meeple.interpreter import routes
from meeple.interpreter.boards import Board as EngineBoard
from meeple.interpreter.routes import route_length

N, E, S, W = 0, 1, 2, 3
LETTER = {"N": N, "E": E, "S": S, "W": W}
STEP = {N: (0, 1), E: (1, 0), S: (0, -1), W: (-1, 0)}
FACING = {N: S, E: W, S: N, W: E}
EDGES = (N, E, S, W)


@dataclass(frozen=True)
class Board:
    """Tiles on distinct cells; ``paths[t]`` is a list of disjoint edge sets of tile ``t``."""

    cells: tuple[tuple[int, int], ...]
    paths: tuple[tuple[frozenset[int], ...], ...]
    blocked: frozenset[int] = frozenset()
    stops: tuple[frozenset[int], ...] | None = None  # edges by which entering a tile ends the walk

    def stop_edges(self, t: int) -> frozenset[int]:
        return self.stops[t] if self.stops is not None else frozenset()


# ---------------------------------------------------------------- brute force

def brute_route(board: Board, start: int, start_edge: int, enter_start: bool, passes: int) -> int:
    """The most distinct tiles (start excluded) any walk enters, by following every walk."""
    at = {cell: t for t, cell in enumerate(board.cells)}

    def path_at(t: int, edge: int) -> frozenset[int] | None:
        for path in board.paths[t]:
            if edge in path:
                return path
        return None

    first = path_at(start, start_edge)
    if first is None:
        return 0
    if enter_start:
        if start_edge in board.stop_edges(start):
            if passes == 0:
                return 0
            passes -= 1
        first_exits = first - {start_edge}
    else:
        first_exits = first

    best = 0
    on_walk: set[tuple[int, int, int, frozenset[int]]] = set()

    def go(t: int, exits: frozenset[int], left: int, entered: frozenset[int]) -> None:
        nonlocal best
        best = max(best, len(entered))
        for x in exits:
            x0, y0 = board.cells[t]
            dx, dy = STEP[x]
            n = at.get((x0 + dx, y0 + dy))
            if n is None or n in board.blocked:
                continue
            entry = FACING[x]
            path = path_at(n, entry)
            if path is None:
                continue
            now = entered if n == start else entered | {n}
            best = max(best, len(now))
            after = left
            if entry in board.stop_edges(n):
                if left == 0:
                    continue  # the walk ends on n
                after = left - 1
            state = (n, entry, after, now)
            if state in on_walk:
                continue  # a loop of the same walk: nothing new past here
            on_walk.add(state)
            go(n, path - {entry}, after, now)
            on_walk.remove(state)

    go(start, first_exits, passes, frozenset())
    return best


# ---------------------------------------------------------------- the engine's view of a board

def engine_route(board: Board, start: int, start_edge: int, enter_start: bool, passes: int, enough: int,
                 long_search: int | None = None) -> int:
    """``route_length`` on ``board``; ``long_search``: the states after which the search also stops on
    covering every reachable tile (routes.LONG_SEARCH, which small boards seldom reach), when given."""
    index = {cell: t for t, cell in enumerate(board.cells)}
    neighbours = [[index.get((x + STEP[e][0], y + STEP[e][1]), -1) for e in range(4)] for x, y in board.cells]
    ends = []
    for paths in board.paths:
        row = [0, 0, 0, 0]
        for path in paths:
            mask = sum(1 << e for e in path)
            for e in path:
                row[e] = mask
        ends.append(row)
    blocked = [t in board.blocked for t in range(len(board.cells))]
    stops = {t: sum(1 << e for e in board.stop_edges(t)) for t in range(len(board.cells)) if board.stop_edges(t)}
    if long_search is None:
        return route_length(neighbours, ends, start, start_edge, enter_start, blocked, stops, passes, enough)
    with mock.patch.object(routes, "LONG_SEARCH", long_search):
        return route_length(neighbours, ends, start, start_edge, enter_start, blocked, stops, passes, enough)


# ---------------------------------------------------------------- random boards

CELLS = [(x, y) for x in range(3) for y in range(3)]


# Common tiles as a path label per edge (N, E, S, W; -1 for no path end): crossroads, T, double curve,
# two crossing straights, straight, curve, dead end. Tiles with many ends come often, so walks get long.
TEMPLATES = ((0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, -1), (0, 1, 1, 0), (0, 1, 1, 0), (0, 1, 0, 1),
             (0, -1, 0, -1), (0, 0, -1, -1), (0, -1, -1, -1))


# Stopping edges: a red axis (N-S or E-W, as on a crossroads), one edge, or all four.
STOPS = (frozenset({N, S}), frozenset({E, W}), frozenset({N}), frozenset({E}), frozenset({S}), frozenset({W}),
         frozenset(EDGES))


@st.composite
def tile_paths(draw, joined: frozenset[int] | None) -> tuple[frozenset[int], ...]:
    """A random partition of a random subset of the edges: a group label per edge, -1 for none.

    With ``joined`` (the edges of the tile that face another tile), those edges all get a path
    end, so that walks get long; otherwise a common tile turned by a random quarter, or any."""
    if joined is not None:
        labels = [draw(st.sampled_from((0, 0, 1) if e in joined else (-1, 0, 1, -1))) for e in EDGES]
    elif draw(st.booleans()):
        template, turn = draw(st.sampled_from(TEMPLATES)), draw(st.integers(0, 3))
        labels = [template[(e - turn) % 4] for e in EDGES]
    else:
        labels = draw(st.lists(st.sampled_from((0, 1, -1, 2, 3)), min_size=4, max_size=4))
    groups: dict[int, set[int]] = {}
    for edge, label in enumerate(labels):
        if label >= 0:
            groups.setdefault(label, set()).add(edge)
    return tuple(frozenset(g) for g in groups.values())


@st.composite
def boards(draw) -> Board:
    """2..7 tiles on a 3x3 area, mostly touching; paths, a few blocked tiles, some stopping edges."""
    count = draw(st.integers(2, 7))
    cells = [draw(st.sampled_from(CELLS))]
    while len(cells) < count:  # mostly next to a tile already there
        free = [c for c in CELLS if c not in cells]
        touching = [(x, y) for x, y in free if any((x + dx, y + dy) in cells for dx, dy in STEP.values())]
        cells.append(draw(st.sampled_from(touching if touching and draw(st.integers(0, 4)) else free)))
    join = draw(st.integers(0, 3)) > 0
    paths = tuple(draw(tile_paths(frozenset(e for e in EDGES if (x + STEP[e][0], y + STEP[e][1]) in cells)
                                  if join else None)) for x, y in cells)
    blocked = frozenset(t for t in range(count) if draw(st.integers(0, 5)) == 5)
    stops = tuple(draw(st.sampled_from(STOPS)) if draw(st.booleans()) else frozenset() for _ in cells)
    return Board(tuple(cells), paths, blocked, stops)


@given(board=boards(), enough=st.integers(1, 8))
def test_route_length_agrees_with_brute_force(board, enough):
    """Every start tile, start edge, way of starting and number of passes: the same answer."""
    note(f"board={board!r}")
    longest = gained = 0
    for start in range(len(board.cells)):
        for start_edge in EDGES:
            for enter_start in (False, True):
                bests = []
                for passes in range(3):
                    best = brute_route(board, start, start_edge, enter_start, passes)
                    bests.append(best)
                    where = f"start={start} start_edge={start_edge} enter_start={enter_start} passes={passes}"
                    for long_search in (None, 0, 8):  # also with the reachable-tiles bound early
                        assert (engine_route(board, start, start_edge, enter_start, passes, 1000, long_search)
                                == best), f"{where} long_search={long_search}"
                        assert (engine_route(board, start, start_edge, enter_start, passes, enough, long_search)
                                == min(best, enough)), f"{where} enough={enough} long_search={long_search}"
                longest = max(longest, bests[0])
                gained = max(gained, bests[2] - bests[0])
    event(f"longest walk without passes = {longest}")
    event(f"most tiles two passes add = {gained}")
    # Steer towards boards with long walks, and towards boards where passes matter.
    target(float(longest), label="longest walk without passes")
    target(float(gained), label="most tiles two passes add")


@given(board=boards(), passes=st.integers(0, 2))
def test_more_passes_never_shorten_a_route(board, passes):
    for start in range(len(board.cells)):
        for start_edge in EDGES:
            for enter_start in (False, True):
                assert (engine_route(board, start, start_edge, enter_start, passes + 1, 1000)
                        >= engine_route(board, start, start_edge, enter_start, passes, 1000))


def tile_ends(paths: tuple[frozenset[int], ...]) -> tuple[int, int, int, int]:
    """A tile's paths as ``Board.ends`` holds them: per edge, the mask of the path that ends there."""
    row = [0, 0, 0, 0]
    for path in paths:
        for e in path:
            row[e] = sum(1 << d for d in path)
    return tuple(row)  # type: ignore[return-value]


def engine_board(board: Board) -> EngineBoard:
    """The tiles placed on a ``boards.Board`` one by one, in order (tile ``t`` is variety ``t``)."""
    b = EngineBoard(0, ())
    for t, (x, y) in enumerate(board.cells):
        b.place(x, y, t, 0, tile_ends(board.paths[t]))
    return b


def networks(b: EngineBoard) -> tuple:
    return b.up[:], b.size[:], [list(j) for j in b.joins], [b.route_bound(t, e) for t in range(len(b)) for e in EDGES]


@given(board=boards())
def test_the_path_networks_bound_every_route(board):
    """Every start, start edge, way of starting and number of passes: no walk enters more tiles
    than its path network holds, blocked tiles and stopping edges or not; after each placement too."""
    note(f"board={board!r}")
    b = engine_board(board)
    for start in range(len(board.cells)):
        for start_edge in EDGES:
            bound = b.route_bound(start, start_edge)
            event(f"bound - longest walk = {min(bound - brute_route(board, start, start_edge, False, 2), 3)}")
            for enter_start in (False, True):
                for passes in range(3):
                    assert bound >= brute_route(board, start, start_edge, enter_start, passes)
    for count in range(1, len(board.cells)):  # the same on each smaller table, as it grew
        smaller = Board(board.cells[:count], board.paths[:count])
        part = engine_board(smaller)
        assert all(part.route_bound(t, e) >= brute_route(smaller, t, e, False, 0)
                   for t in range(count) for e in EDGES)


@given(board=boards())
def test_a_trial_placement_a_clone_and_json_keep_the_road_networks(board):
    """Each tile in turn laid last, on a trial and for good, then taken back: the networks are those
    of the whole table while it lies there, and as they were once it is gone; a clone keeps its own."""
    count = len(board.cells)
    for last in range(count):
        order = [t for t in range(count) if t != last]
        rest = Board(tuple(board.cells[t] for t in order), tuple(board.paths[t] for t in order))
        b = engine_board(rest)
        before = networks(b)
        whole = engine_board(Board(rest.cells + (board.cells[last],), rest.paths + (board.paths[last],)))
        (x, y), ends = board.cells[last], tile_ends(board.paths[last])
        copy = b.clone()
        for trial in (True, False):
            b.place(x, y, count - 1, 0, ends, trial=trial)
            assert networks(b)[3] == networks(whole)[3]
            b.unplace(trial=trial)
            assert networks(b) == before
        copy.place(x, y, count - 1, 0, ends)
        assert networks(copy)[3] == networks(whole)[3] and networks(b) == before
    b = engine_board(board)
    shapes = mock.Mock(ends=[[tile_ends(p)] * 4 for p in board.paths])
    assert networks(EngineBoard.from_json(b.to_json(), shapes, ())) == networks(b)


# ---------------------------------------------------------------- hand-made positions

def build(*tiles, blocked=(), stops=None) -> Board:
    """``tiles``: ((x, y), "WN SE") with one word per path; ``stops``: {(x, y): "NS"}."""
    cells = tuple(cell for cell, _ in tiles)
    paths = tuple(tuple(frozenset(LETTER[c] for c in word) for word in spec.split()) for _, spec in tiles)
    stop_edges = tuple(frozenset(LETTER[c] for c in (stops or {}).get(cell, "")) for cell in cells)
    return Board(cells, paths, frozenset(cells.index(c) for c in blocked), stop_edges)


def both(board: Board, start: tuple[int, int], start_edge: str, enter_start: bool = False, passes: int = 0,
         enough: int = 1000) -> tuple[int, int]:
    """(brute force, route_length) for the start tile on cell ``start``; route_length must not change when
    it bounds the search by the reachable tiles from the first state on."""
    t = board.cells.index(start)
    e = LETTER[start_edge]
    engine = engine_route(board, t, e, enter_start, passes, enough)
    assert engine_route(board, t, e, enter_start, passes, enough, long_search=0) == engine
    return brute_route(board, t, e, enter_start, passes), engine


# The seed's worked example: roundabout (0,0); double curve (1,0) W-N and S-E; crossroads (1,1) and
# (2,0); curve (2,1) W-S; curve (1,-1) N-E. The route starts at the roundabout, leaving by E.
SEED = (((0, 0), "NESW"), ((1, 0), "WN SE"), ((1, 1), "NESW"), ((2, 0), "NESW"), ((2, 1), "WS"), ((1, -1), "NE"))
POLICE = {(1, 1): "NS"}  # a police marker on the upper crossroads, red axis N-S
TOP_LEFT = ((0, 1), "SE")


def test_seed_example_five_tiles():
    assert both(build(*SEED), (0, 0), "E") == (5, 5)


def test_seed_example_police_stops_at_two():
    board = build(*SEED, stops=POLICE)
    assert both(board, (0, 0), "E") == (2, 2)
    assert both(board, (0, 0), "E", passes=1) == (5, 5)


def test_seed_example_curve_top_left_gives_six():
    assert both(build(*SEED, TOP_LEFT, stops=POLICE), (0, 0), "E") == (6, 6)
    assert both(build(*SEED, TOP_LEFT), (0, 0), "E") == (6, 6)


@pytest.mark.parametrize("enough", [1, 3, 5, 6])
def test_seed_example_counts_up_to_enough(enough):
    brute, engine = both(build(*SEED, TOP_LEFT, stops=POLICE), (0, 0), "E", enough=enough)
    assert (brute, engine) == (6, min(6, enough))


def test_walk_comes_back_through_the_start_by_its_other_path():
    # Start on a double curve W-N / S-E, leaving by its W-N road: up, right, down, back into the start
    # from the east onto its S-E road, then down and right.
    board = build(((0, 0), "WN SE"), ((0, 1), "SE"), ((1, 1), "WS"), ((1, 0), "NW"), ((0, -1), "NE"),
                  ((1, -1), "W"))
    assert both(board, (0, 0), "N") == (5, 5)
    assert both(board, (0, 0), "W") == (5, 5)
    # Starting on the S-E road instead: round the loop the other way, back in from the north onto the
    # W-N road, which leads nowhere (3); or down and right (2).
    assert both(board, (0, 0), "S") == (3, 3)
    # With the loop's last curve closed, the start cannot be re-entered: only its own road counts.
    closed = build(((0, 0), "WN SE"), ((0, 1), "SE"), ((1, 1), "WS"), ((1, 0), "NW"), ((0, -1), "NE"),
                   ((1, -1), "W"), blocked=[(1, 0)])
    assert both(closed, (0, 0), "N") == (2, 2)
    assert both(closed, (0, 0), "S") == (2, 2)


def test_entering_the_start_needs_a_pass_on_a_stopping_edge():
    # A crossroads start entered from the west, red axis E-W; three tiles to the west, two to the east.
    tiles = (((0, 0), "NESW"), ((1, 0), "WN"), ((1, 1), "S"), ((-1, 0), "EN"), ((-1, 1), "SN"), ((-1, 2), "S"))
    board = build(*tiles, stops={(0, 0): "EW"})
    assert both(board, (0, 0), "W", enter_start=True) == (0, 0)
    # With a pass it goes on east (never back out by the entry edge W): 2, not 3.
    assert both(board, (0, 0), "W", enter_start=True, passes=1) == (2, 2)
    # Entering by N is not on the red axis: no pass needed, and it may leave by W.
    assert both(board, (0, 0), "N", enter_start=True) == (3, 3)
    # Leaving (not entering) by the road at W, that edge included.
    assert both(board, (0, 0), "W") == (3, 3)
    # A second stop on the way east takes the second pass; without it the walk ends on (1, 0).
    second = build(*tiles, stops={(0, 0): "EW", (1, 0): "W"})
    assert both(second, (0, 0), "W", enter_start=True, passes=1) == (1, 1)
    assert both(second, (0, 0), "W", enter_start=True, passes=2) == (2, 2)


def test_no_path_at_the_start_edge_counts_zero():
    board = build(((0, 0), "WN"), ((1, 0), "WE"), ((0, 1), "S"))
    assert both(board, (0, 0), "E") == (0, 0)
    assert both(board, (0, 0), "E", enter_start=True) == (0, 0)
    assert both(board, (0, 0), "N") == (1, 1)


def test_a_state_reached_with_more_passes_left_is_searched_again():
    # Two ways round reach the same tile, by the same edge, over the same tiles, with different passes
    # left; only the one with a pass still in hand goes on to the end (found by a random search against
    # a search that forgot the passes in its visited states).
    board = build(((2, 0), "NW"), ((0, 2), "E"), ((2, 2), "SW"), ((1, 0), "NE"), ((2, 1), "NSW"), ((1, 1), "N ES"),
                  ((1, 2), "ESW"), stops={(2, 0): "EW", (1, 0): "NS", (1, 2): "EW"})
    assert both(board, (2, 2), "S", passes=2) == (6, 6)
    assert both(board, (2, 2), "S", passes=1) == (6, 6)
    assert both(board, (2, 2), "S") == (5, 5)
