"""The tiles placed on a grid (``Board``) and the tables of tile shapes (``TileShapes``).

Tiles are numbered in the order they were placed; each is a card variety laid at
a square ``(x, y)`` turned ``rot`` quarter turns clockwise. Edges are N=0, E=1,
S=2, W=3 (see ``routes``), ``y`` grows upwards. A board keeps, per tile, the
ends of its paths after rotation (``ends``), its neighbour across each edge
(``nb``, -1 for none) and the values of the per-tile vars (``tv``). It also keeps
its *frontier*: every empty square beside a tile, with the sides that touch a tile
and those where that tile has a path end (as one number, ``touching << 4 | meeting``),
so placements next to the table need no search.

For each flag the rules look tiles up by (a true-or-false attribute of the tile's variety, as
in ``u in table where u.signal``), it keeps the tiles that have it, in the order they were
placed (``flagged``): a test over the tiles with that flag runs over those alone.

It also keeps the *path networks*: a union-find over the paths of the tiles (a path
of tile ``t`` is node ``4 * t + e``, ``e`` its lowest edge), two paths joined where
they meet across a side. A walk along paths never leaves its path's network, so the
size of that network bounds the length of every route from it (``route_bound``)
without a search. Unions are by size with no path compression, and each tile keeps
the unions its placement made (``joins``), so that ``unplace`` undoes exactly them.
"""

from __future__ import annotations

from typing import Any, Optional

from .routes import STEP

# Squares are keyed by one int, x * ROW + y: the squares of a row of x one after the other, those
# near (0, 0) a number of one digit of Python's (below 2 ** 30, faster to add and hash than the
# numbers of two digits an offset to make every key positive gave). No game lays a million tiles
# in a row. ROW is 55 more than the 2 * MAX_COORD + 1 that keeps keys apart, so that in the low
# bits a dict or a set hashes by, a key is 55 x + y, not x + y (with which every square of a
# diagonal fell on the same first slot of the board's dicts, to be probed past).
MAX_COORD = 1 << 20
ROW = 2 * MAX_COORD + 55
ORIGIN = 0  # the key of (0, 0)
KEY_STEP = (1, ROW, -1, -ROW)  # the key of the square across N, E, S, W: y+1, x+1, y-1, x-1


EDGES_OF = tuple(tuple(e for e in range(4) if mask >> e & 1) for mask in range(16))  # a set of edges, listed


OFFSETS: dict[int, list[int]] = {}  # squares_near's steps of a square's key, by reach


def square(x: int, y: int) -> int:
    return x * ROW + y


def square_at(key: int) -> tuple[int, int]:
    """The square (x, y) whose key is ``key``: ``square``'s inverse (``key + MAX_COORD`` is
    ``x * ROW`` and ``y + MAX_COORD``, which is from 0 to ``ROW - 1``)."""
    return (key + MAX_COORD) // ROW, (key + MAX_COORD) % ROW - MAX_COORD


LOWEST = [(m & -m).bit_length() - 1 for m in range(16)]  # the lowest edge of a set of edges (-1: none)


# SIDES[opens][touching]: what ``Board.place`` does at each side of a tile whose paths end at the
# edges ``opens``, on a square whose sides ``touching`` touch a tile: per touching side ``e``,
# (e, the key's step to the tile across, ``e ^ 2``); per empty side, (the key's step, the frontier
# bits of that square: its side now touching a tile, and meeting a path end if one ends at e).
SIDES = tuple(tuple((tuple((e, KEY_STEP[e], e ^ 2) for e in EDGES_OF[touching]),
                     tuple((KEY_STEP[e], 1 << (e ^ 2) << 4 | (opens >> e & 1) << (e ^ 2))
                           for e in EDGES_OF[~touching & 15]))
                    for touching in range(16))
              for opens in range(16))
SIDES_OF: dict[tuple[int, int, int, int], tuple] = {}  # path ends (as Board.ends has them) → their row of SIDES


def _sides_of(ends: tuple[int, int, int, int]) -> tuple:
    table = SIDES_OF[ends] = SIDES[sum(1 << e for e in range(4) if ends[e])]
    return table


_FLAG_LISTS: dict[tuple[tuple[bool, ...], ...], tuple[tuple[int, ...], ...]] = {}  # Board.flag_of, by flags


def rotate_mask(mask: int, rot: int) -> int:
    """Turn a set of edges (a 4-bit mask) ``rot`` quarter turns clockwise."""
    rot %= 4
    return ((mask << rot) | (mask >> (4 - rot))) & 15


class TileShapes:
    """Per card variety: its paths and edge sets under each rotation, and which rotations differ."""

    def __init__(self, variety_attrs: list[dict[str, Any]], edge_ids: dict[str, int], tile_varieties: list[int],
                 paths_attr: str, edge_attrs: list[str]):
        n = len(variety_attrs)
        self.tile_varieties = tile_varieties
        # masks[attr][variety][rot]: the edges in the attribute's sets, turned.
        self.masks: dict[str, list[tuple[int, int, int, int]]] = {}
        for attr in edge_attrs:
            rows = []
            for attrs in variety_attrs:
                mask = sum(1 << edge_ids[e] for group in attrs.get(attr, []) for e in set(group))
                rows.append(tuple(rotate_mask(mask, r) for r in range(4)))
            self.masks[attr] = rows
        # ends[variety][rot][edge]: the mask of the path that ends at that edge (0: none).
        self.ends: list[list[tuple[int, int, int, int]]] = []
        for attrs in variety_attrs:
            base = [0, 0, 0, 0]
            for group in attrs.get(paths_attr, []):
                mask = sum(1 << edge_ids[e] for e in set(group))
                for e in set(group):
                    base[edge_ids[e]] = mask
            turned = []
            for r in range(4):
                row = [0, 0, 0, 0]
                for e in range(4):
                    row[(e + r) % 4] = rotate_mask(base[e], r)
                turned.append(tuple(row))
            self.ends.append(turned)
        # opens[variety][rot]: the edges at which some path ends.
        self.opens = [[sum(1 << e for e in range(4) if row[e]) for row in turned] for turned in self.ends]
        # A rotation that leaves the paths and every edge set as they were is the same tile.
        self.rotations: list[tuple[int, ...]] = []
        for v in range(n):
            seen, keep = set(), []
            for r in range(4):
                look = (self.ends[v][r],) + tuple(self.masks[a][v][r] for a in edge_attrs)
                if look not in seen:
                    seen.add(look)
                    keep.append(r)
            self.rotations.append(tuple(keep))


class Board:
    """The tiles on one grid, as parallel lists by tile number, and a map from square to tile."""

    __slots__ = ("x", "y", "variety", "rot", "ends", "nb", "at", "tv", "fsides", "up", "size", "joins",
                 "flags", "flag_of", "flagged")

    def __init__(self, n_vars: int, flags: tuple[tuple[bool, ...], ...]):
        """A board with ``n_vars`` per-tile vars, keeping lists of the tiles with each of ``flags``
        (a game's ``tile_flags``: its code reads them; ``()`` for none)."""
        self.x: list[int] = []
        self.y: list[int] = []
        self.variety: list[int] = []
        self.rot: list[int] = []
        self.ends: list[tuple[int, int, int, int]] = []
        self.nb: list[list[int]] = []
        self.at: dict[int, int] = {}
        self.tv: list[list[Any]] = [[] for _ in range(n_vars)]
        # the frontier: each empty square beside a tile (by key) → its sides, in the order the table
        # grew; sides are touching << 4 | meeting, the sides (bits by edge) that touch a tile, and
        # those where that tile has a path end
        self.fsides: dict[int, int] = {}
        # the path networks (see the module's text): per path node, its parent (itself at a
        # root) and, at a root, how many path nodes its network holds; per tile, the unions
        # its placement made, as (root joined, the root it went under)
        self.up: list[int] = []
        self.size: list[int] = []
        self.joins: list[list[tuple[int, int]]] = []  # (each list never changes once made)
        # per flag looked up by: the flag of each variety, and the tiles that have it
        self.flags = flags
        self.flagged: list[list[int]] = [[] for _ in flags]
        flag_of = _FLAG_LISTS.get(flags)  # per variety, the flags it has (as indices in ``flagged``)
        if flag_of is None:
            flag_of = _FLAG_LISTS[flags] = tuple(tuple(i for i, flag in enumerate(flags) if flag[v])
                                                 for v in range(len(flags[0]) if flags else 0))
        self.flag_of = flag_of

    def __len__(self) -> int:
        return len(self.x)

    def tile_at(self, x: int, y: int) -> int:
        return self.at.get(square(x, y), -1)

    def place(self, x: int, y: int, variety: int, rot: int, ends: tuple[int, int, int, int],
              starts: Optional[list[Any]] = None, trial: bool = False) -> int:
        """Lay a tile on an empty square; returns its number. A ``trial`` placement (to be
        taken back at once by ``unplace(trial=True)``) leaves the square map and the frontier
        as they were."""
        t = len(self.x)
        self.x.append(x)
        self.y.append(y)
        self.variety.append(variety)
        self.rot.append(rot)
        self.ends.append(ends)
        here = x * ROW + y  # (as ``square``)
        # The square's frontier entry says which sides touch a tile (no entry: none does).
        if trial:
            touching = self.fsides.get(here, 0) >> 4
        else:
            touching = self.fsides.pop(here, 0) >> 4
        meet, grow = (SIDES_OF.get(ends) or _sides_of(ends))[touching]
        row = [-1, -1, -1, -1]
        nb = self.nb
        nb.append(row)
        up, size = self.up, self.size
        base = 4 * t  # the tile's paths join the path networks, each first on its own
        up += (base, base + 1, base + 2, base + 3)
        size += (1, 1, 1, 1)
        joins = []
        if meet:
            at, tile_ends = self.at, self.ends
            for e, step, facing in meet:  # the neighbours, and the path networks joined across their sides
                n = at[here + step]
                row[e] = n
                nb[n][facing] = t
                mine = ends[e]
                if mine:
                    theirs = tile_ends[n][facing]
                    if theirs:  # two paths meet across this side: their networks are one
                        a, b = base + LOWEST[mine], 4 * n + LOWEST[theirs]
                        while up[a] != a:
                            a = up[a]
                        while up[b] != b:
                            b = up[b]
                        if a != b:
                            if size[a] > size[b]:
                                a, b = b, a
                            up[a] = b
                            size[b] += size[a]
                            joins.append((a, b))
        self.joins.append(joins)
        if not trial:
            self.at[here] = t
            fsides = self.fsides
            for step, bits in grow:  # the frontier grows across the empty sides
                key = here + step
                fsides[key] = fsides.get(key, 0) | bits
        if self.flags:
            flagged = self.flagged
            for i in self.flag_of[variety]:
                flagged[i].append(t)
        tv = self.tv  # each per-tile var's list gets the new tile's start value (0 if none given)
        if len(tv) <= 2 and tv:  # (one or two, the most games have, written out)
            tv[0].append(starts[0] if starts else 0)
            if len(tv) == 2:
                tv[1].append(starts[1] if starts else 0)
        elif starts:
            any(map(list.append, tv, starts))
        else:
            for values in tv:
                values.append(0)
        return t

    def _unflag(self, t: int) -> None:
        """Take tile ``t`` (the last one) out of the lists of flagged tiles."""
        for tiles in self.flagged:
            if tiles and tiles[-1] == t:
                tiles.pop()

    def _unjoin(self) -> None:
        """Take the last tile's paths out of the path networks, undoing its unions."""
        up, size = self.up, self.size
        for a, b in reversed(self.joins.pop()):
            up[a] = a
            size[b] -= size[a]
        del up[-4:], size[-4:]

    def route_bound(self, t: int, e: int) -> int:
        """At least the length of every route from the path of tile ``t`` at edge ``e``: the other
        paths of its path network (0 when no path ends at ``e``). A walk moves from path to path
        where they meet, so it enters no tile outside the network, and each path it enters
        other than ``t``'s adds at most one tile."""
        mask = self.ends[t][e]
        if not mask:
            return 0
        up, a = self.up, 4 * t + LOWEST[mask]
        while up[a] != a:
            a = up[a]
        return self.size[a] - 1

    def unplace(self, trial: bool = False) -> None:
        """Take back the last tile placed (to judge a placement as if it were made)."""
        t = len(self.x) - 1
        x, y = self.x[t], self.y[t]
        if trial:
            for e, n in enumerate(self.nb.pop()):
                if n >= 0:
                    self.nb[n][e ^ 2] = -1
            self._unjoin()
            self._unflag(t)
            for lst in (self.x, self.y, self.variety, self.rot, self.ends):
                lst.pop()
            for values in self.tv:
                values.pop()
            return
        fsides = self.fsides
        for e, n in enumerate(self.nb.pop()):
            if n >= 0:
                self.nb[n][e ^ 2] = -1
            elif not trial:
                key = square(x + STEP[e][0], y + STEP[e][1])
                sides = fsides[key]
                side = 1 << (e ^ 2)
                if sides >> 4 == side:
                    del fsides[key]
                else:
                    fsides[key] = sides & ~(side << 4 | side)
        del self.at[square(x, y)]
        self._unjoin()
        self._unflag(t)
        for lst in (self.x, self.y, self.variety, self.rot, self.ends):
            lst.pop()
        for values in self.tv:
            values.pop()
        if trial:
            return
        sides = self.sides(x, y)
        if sides:
            self.fsides[square(x, y)] = sides

    @property
    def frontier(self) -> dict[int, tuple[int, int, int]]:
        """The frontier as square (key) → (x, y, sides), made when asked (``fsides`` is what is kept)."""
        return dict(zip(self.fsides, self.frontier_squares()))

    def frontier_squares(self) -> list[tuple[int, int, int]]:
        """The frontier's squares as (x, y, sides), in its order (how the table grew)."""
        m = MAX_COORD  # (square_at written out: this lists the frontier for every placement's legal actions)
        return [((k + m) // ROW, (k + m) % ROW - m, s) for k, s in self.fsides.items()]

    def squares_near(self, within: int) -> list[tuple[int, int, int]]:
        """Empty squares at most ``within`` steps (across sides) from a tile, in order of x then y,
        as (x, y, 0) (the frontier's form, their sides not worked out); the origin if none."""
        m = MAX_COORD  # (square_at written out, as in frontier_squares)
        return [((k + m) // ROW, (k + m) % ROW - m, 0) for k in self.near(within)]

    def near(self, within: int) -> list[int]:
        """``squares_near``'s squares, as keys (``square``)."""
        if not self.x:
            return [ORIGIN]
        steps = OFFSETS.get(within)
        if steps is None:
            steps = [dx * ROW + dy for dx in range(-within, within + 1)
                     for dy in range(-within, within + 1) if 0 < abs(dx) + abs(dy) <= within]
            if within <= 8:
                OFFSETS[within] = steps
        found: set[int] = set()
        for here in self.at:  # (keys in order of x then y, as a square's y + MAX_COORD < ROW)
            found.update(map(here.__add__, steps))
        found.difference_update(self.at)
        return sorted(found)

    def passing(self, squares: Any, test: Any, st: Any) -> list:
        """The squares (``(x, y, ...)``) on which ``test(st)`` holds with a tile probed there: a
        tile as far as where tiles lie is concerned (its square, its neighbours, the count of
        tiles), and nothing more, for tests that look at nothing else; it is tile number
        ``len(self)`` on each square, and taken back before the next."""
        at, nb, xs, ys = self.at, self.nb, self.x, self.y
        t = len(xs)
        kept = []
        nb.append(None)  # (the probe's row, and its square's x and y, set for each square)
        xs.append(0)
        ys.append(0)
        try:
            for sq in squares:
                x, y = sq[0], sq[1]
                here = x * ROW + y
                north, east, south, west = at.get(here + 1, -1), at.get(here + ROW, -1), at.get(here - 1, -1), \
                    at.get(here - ROW, -1)
                if north >= 0:
                    nb[north][2] = t
                if east >= 0:
                    nb[east][3] = t
                if south >= 0:
                    nb[south][0] = t
                if west >= 0:
                    nb[west][1] = t
                nb[t] = [north, east, south, west]
                xs[t] = x
                ys[t] = y
                try:
                    if test(st):
                        kept.append(sq)
                finally:
                    if north >= 0:
                        nb[north][2] = -1
                    if east >= 0:
                        nb[east][3] = -1
                    if south >= 0:
                        nb[south][0] = -1
                    if west >= 0:
                        nb[west][1] = -1
        finally:
            nb.pop()
            xs.pop()
            ys.pop()
        return kept

    def sides(self, x: int, y: int) -> int:
        """For an empty square: the edges that touch a tile, and those where that tile has a path
        end, as ``touching << 4 | meeting`` (the frontier's number)."""
        touching = meeting = 0
        at, ends = self.at, self.ends
        for e, (dx, dy) in enumerate(STEP):
            n = at.get(square(x + dx, y + dy), -1)
            if n >= 0:
                touching |= 1 << e
                if ends[n][e ^ 2]:
                    meeting |= 1 << e
        return touching << 4 | meeting

    def clone(self) -> "Board":
        b = Board.__new__(Board)
        b.x, b.y, b.variety, b.rot, b.ends = self.x[:], self.y[:], self.variety[:], self.rot[:], self.ends[:]
        b.nb = [row[:] for row in self.nb]
        b.at = dict(self.at)
        b.tv = [values[:] for values in self.tv]
        b.fsides = dict(self.fsides)
        b.up, b.size, b.joins = self.up[:], self.size[:], self.joins[:]
        b.flags, b.flag_of, b.flagged = self.flags, self.flag_of, [tiles[:] for tiles in self.flagged]
        return b

    def to_json(self) -> dict[str, Any]:
        return {"tiles": [[x, y, v, r] for x, y, v, r in zip(self.x, self.y, self.variety, self.rot)],
                "vars": [values[:] for values in self.tv]}

    @classmethod
    def from_json(cls, doc: dict[str, Any], shapes: TileShapes, flags: tuple[tuple[bool, ...], ...]) -> "Board":
        b = cls(len(doc["vars"]), flags)
        for x, y, v, r in doc["tiles"]:
            b.place(x, y, v, r, shapes.ends[v][r])
        b.tv = [list(values) for values in doc["vars"]]
        return b
