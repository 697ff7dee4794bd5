"""Routes over a grid of placed tiles (``route_length``): the longest walk, in distinct tiles.

A walk moves from tile to tile through edges where paths meet. Inside a tile it
enters by one edge and leaves by another end of the same path, never by the
edge it came in by (no U-turn). It cannot enter a blocked tile. Entering a tile
by a *stopping* edge ends the walk there (the tile still counts) unless a pass
is left to spend. The length of a walk is the number of distinct tiles it
entered, the start tile never counted.

The search is a depth-first walk over states (tile, entry edge, passes left,
tiles seen so far), each state visited once. It stops as soon as a walk reaches
``enough``, or covers every tile that could be reached at all.

Edges are numbered N=0, E=1, S=2, W=3, so the edge facing ``e`` is ``e ^ 2``.
A tile's paths are given per edge: ``ends[t][e]`` is the bit mask of the edges
of the path that ends at ``e`` (0 when no path ends there).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from meeple.dsl.diagnostics import RuleRuntimeError
from meeple.dsl.limits import MAX_ROUTE_STATES

EDGES = (0, 1, 2, 3)
STEP = ((0, 1), (1, 0), (0, -1), (-1, 0))  # N, E, S, W as (dx, dy); y grows upwards


def edge_bits(mask: int) -> tuple[int, ...]:
    return tuple(e for e in EDGES if mask >> e & 1)


BITS = [edge_bits(m) for m in range(16)]
LONG_SEARCH = 64  # states visited before the search also stops on covering every reachable tile
FIELD = 1 << 20  # passes beyond this are as many as a walk could spend (no table has a million tiles)


def route_length(neighbours: Sequence[Sequence[int]], ends: Sequence[Sequence[int]], start: int, start_edge: int,
                 enter_start: bool, blocked: Sequence[bool], stops: Mapping[int, int], passes: int, enough: int) -> int:
    """The most distinct tiles (start excluded) a walk from ``start`` can enter, counted up to ``enough``.

    ``neighbours[t][e]``: the tile across edge ``e`` of ``t``, or -1. ``blocked[t]``: no walk
    may enter ``t``. ``stops.get(t)``: the mask of edges by which entering ``t`` ends the walk (a
    tile missing from ``stops`` never stops it).
    With ``enter_start`` the walk begins as if entering ``start`` by ``start_edge`` (so a
    stop there applies, and the start counts 0 when it cannot be passed); otherwise it
    leaves by any end of the path at ``start_edge``, that edge included.
    """
    if start < 0 or not ends[start][start_edge]:
        return 0
    if enter_start:
        if stops.get(start, 0) >> start_edge & 1:
            if passes <= 0:
                return 0
            passes -= 1
        first_exits = ends[start][start_edge] & ~(1 << start_edge)
    else:
        first_exits = ends[start][start_edge]
    passes = min(passes, FIELD - 1)  # no walk spends more passes than there are tiles
    limit = enough
    bounded = False  # is ``limit`` also bounded by the tiles reachable at all (worked out if the search is long)?
    best = 0
    # The states met: (tiles seen, passes left, entry edge, tile). A tuple: the tiles seen are a
    # number of as many bits as tiles, and packed into one int with the rest they made a number
    # of several digits, slower to make, hash and compare than the tuple.
    seen: set[tuple[int, int, int, int]] = set()
    stack = [(start, first_exits, passes, 0)]
    while stack:
        t, exits, left, visited = stack.pop()
        row = neighbours[t]
        for x in BITS[exits]:
            n = row[x]
            if n < 0:
                continue
            entry = x ^ 2
            path = ends[n][entry]
            if not path or blocked[n]:
                continue
            seen_now = visited | (1 << n) if n != start else visited  # the start is never counted
            if seen_now != visited:
                count = seen_now.bit_count()
                if count > best:
                    best = count
                    if best >= limit:
                        return best
            after = left
            if stops and stops.get(n, 0) >> entry & 1:
                if left <= 0:
                    continue  # the walk ends on this tile
                after = left - 1
            state = (seen_now, after, entry, n)
            if state not in seen:
                seen.add(state)
                stack.append((n, path & ~(1 << entry), after, seen_now))
                if not bounded and len(seen) > LONG_SEARCH:
                    bounded = True
                    limit = min(limit, reachable(neighbours, ends, start, first_exits, blocked))
                    if best >= limit:
                        return best
                if len(seen) > MAX_ROUTE_STATES:  # (the longest walk is a hard search: its work is bounded)
                    raise RuleRuntimeError(f"a route search followed more than {MAX_ROUTE_STATES:,} walks through "
                                           f"the tiles (the longest found so far: {best} tiles), past the limit: "
                                           f"the table's paths cross too often to search them all")
    return best


def reachable(neighbours: Sequence[Sequence[int]], ends: Sequence[Sequence[int]], start: int, first_exits: int,
              blocked: Sequence[bool]) -> int:
    """How many tiles other than the start any walk could enter at all (an upper bound)."""
    found: set[int] = set()
    frontier = [(start, first_exits)]
    start_opened = False  # a walk that comes back to the start may leave by its other paths
    while frontier:
        t, exits = frontier.pop()
        for x in BITS[exits]:
            n = neighbours[t][x]
            if n < 0 or n in found or not ends[n][x ^ 2] or blocked[n]:
                continue
            if n == start:
                if not start_opened:
                    start_opened = True
                    frontier.append((n, all_ends(ends[n])))
                continue
            found.add(n)
            frontier.append((n, all_ends(ends[n])))
    return len(found)


def all_ends(ends_of_tile: Sequence[int]) -> int:
    return ends_of_tile[0] | ends_of_tile[1] | ends_of_tile[2] | ends_of_tile[3]
