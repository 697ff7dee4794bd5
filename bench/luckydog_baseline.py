"""Hand-written baseline, tuned: Lucky Dog (臺灣賽道) played by random bots.

This is the reference point for the interpreter benchmark (``bench/run.py``):
plain Python, plain lists, ints and dicts, no DSL, written for speed as a
careful Python programmer would write a simulator.  It plays the game of
``bench/luckydog_baseline_old.py`` (the first baseline, kept to measure this
one against in the same run).  It follows the rules of
``../shared/spec/luckydog.md`` with the project's readings:

* One deck of 52 cards.  34 road tiles (edges N, E, S, W; a *road* is a set
  of edges joined inside the tile): straight 8 {N,S}; curve 8 {N,E};
  T-junction 4 {N,E,W}; crossroads 6 {N,E,S,W} with a signal whose red axis
  is N-S; roundabout 3 {N,E,S,W} without a signal; double curve 3, two roads
  {N,W} and {S,E}; dead end 2 {N}.  18 effect cards: police 6,
  construction 3, run-red-light 3, accelerate 3, detour 3.
* Rotation r (0..3) turns a tile clockwise: edge e becomes (e + r) % 4, the
  red axis turns with it.  Rotations that give the same roads (and red axis)
  are one option, the lowest r: straight 0-1, curve 0-3, T-junction 0-3,
  crossroads 0-1, roundabout 0, double curve 0-1, dead end 0-3.  x grows
  east, y grows north.
* Setup: shuffle; deal 5 to each seat in order, redealing a hand without a
  road tile (up to 100 times).  A random seat starts; play goes seat + 1.
  In turn order each player places a start tile from hand, any distinct
  rotation: the first at (0, 0), the others on an empty cell exactly 2 away
  in the same row or column from another player's start tile, touching no
  tile by a side.  Then the marker: one option per edge with a road on a
  crossroads (an entry edge), one per road on any other tile (stored as the
  road's first edge in N, E, S, W order).  Then the player refills to 5.
* A turn: one road decision, "nothing" or a distinct (kind, cell, rotation)
  on an empty cell touching a tile by a side, where every touching side
  matches road to road and no-road to no-road (closed tiles count) and at
  least one road meets a road.  Then up to 5 effect decisions while the
  hand holds an effect card: "stop", police on a crossroads without police
  (at most 6 on the table), construction closing a tile that is not closed
  and holds no marker, run-red-light or accelerate in front of the player,
  detour onto one other player.  Police and construction are discarded.
* Goal, checked for the current player only: target = max(1, 10 -
  accelerate + 2 x detours on the player), passes = run-red-light cards.
  The player wins when their route length reaches the target.
* A route starts at the marker: on a crossroads as if entering it by the
  marker's edge (a police marker there with that edge red needs a pass, or
  the length is 0), else leaving by any end of the marker's road.  It moves
  through edges where roads meet, never into a closed tile; inside a tile
  it leaves by another end of the entry edge's road (no U-turn).  Entering
  a crossroads with police across its red axis spends a pass, or ends the
  route there (that tile counts).  Length = distinct tiles entered, the
  start tile never counted; the longest walk wins.
* The turn then ends: a full round of turns without a card played is a
  draw; the player refills to 5 from the deck (no reshuffle); an empty
  deck with every hand empty is a draw.  1000 turns cap the game.

Random bots choose uniformly among the distinct legal options of each
decision, the same decisions and option sets as the interpreter.

What makes it faster than the first baseline, each the same game:

* The goal check asks only "does some route reach the target?", and most of
  the time a cheap upper bound says no: a union-find of the roads on the
  table, kept as the tiles are placed, gives the tiles any route could ever
  reach (closures and police only lower that); then a search of the
  (tile, exit) pairs that a route could use, with closures and police; only
  when both reach the target is the walk search (the first baseline's) run,
  and it stops at the target.
* A random road placement is picked without building the list of
  placements: a table per hand (which tile kinds it holds) and per empty
  cell's sides lists the fitting (kind, rotation) pairs, so the placements
  are counted, one number in that range is drawn, and the placement it
  stands for is found.  Effect cards and start tiles likewise.  The numbers
  are drawn as ``rng.choice`` would draw them from the first baseline's
  lists, so a seed plays the same game in both (the tests check it).
* Road links (which tile a road leads to across each edge) are kept per
  tile, with the tile's exits for each entry edge precomputed; a placed
  tile finds its neighbours in its cell's frontier sides.
* The hot paths keep what they use in locals, and the turn computes the
  target itself.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate, islice
from operator import itemgetter
from typing import Any

N, E, S, W = range(4)
EDGE_NAMES = "NESW"

KINDS = (
    "straight", "curve", "t_junction", "crossroads", "roundabout", "double_curve", "dead_end",
    "police", "construction", "run_red_light", "accelerate", "detour",
)
STRAIGHT, CURVE, T_JUNCTION, CROSSROADS, ROUNDABOUT, DOUBLE_CURVE, DEAD_END = range(7)
POLICE, CONSTRUCTION, RUN_RED_LIGHT, ACCELERATE, DETOUR = range(7, 12)
TILE_KINDS = tuple(range(7))
EFFECT_KINDS = tuple(range(7, 12))
DECK_COUNTS = (8, 8, 4, 6, 3, 3, 2, 6, 3, 3, 3, 3)
CARDS = sum(DECK_COUNTS)  # 52

# Roads of each tile kind at rotation 0, as tuples of edges.
BASE_ROADS: tuple[tuple[tuple[int, ...], ...], ...] = (
    ((N, S),),
    ((N, E),),
    ((N, E, W),),
    ((N, E, S, W),),
    ((N, E, S, W),),
    ((N, W), (S, E)),
    ((N,),),
)
RED_AXIS = {CROSSROADS: (N, S)}  # tiles with a signal, and the red edges at rotation 0

HAND_SIZE = 5
MAX_REDEALS = 100
MAX_EFFECTS = 5
POLICE_MARKERS = 6
BASE_TARGET = 10
STEP_CAP = 1000  # turns; reaching it ends the game, counted as capped

# Cells are ints: (x + OFFSET) * STRIDE + (y + OFFSET).  At most 34 tiles, each
# start tile at most 2 cells out, so no coordinate leaves -OFFSET..OFFSET.
OFFSET = 512
STRIDE = 1024
DELTA = (1, STRIDE, -1, -STRIDE)  # across N, E, S, W
ORIGIN = OFFSET * STRIDE + OFFSET

# EDGES_OF[mask]: the edges set in a 4-bit mask, in N, E, S, W order.
EDGES_OF = tuple(tuple(e for e in range(4) if m >> e & 1) for m in range(16))


def cell_of(x: int, y: int) -> int:
    """The int cell for coordinates (x, y)."""
    return (x + OFFSET) * STRIDE + y + OFFSET


def xy_of(cell: int) -> tuple[int, int]:
    """The coordinates (x, y) of an int cell."""
    return cell // STRIDE - OFFSET, cell % STRIDE - OFFSET


def _orientation(kind: int, rot: int) -> tuple[int, tuple[int, ...], tuple[int, ...], int]:
    """(ends mask, road masks, road mask per edge (0: no end), red mask) of a rotated tile."""
    roads = tuple(sum(1 << (e + rot) % 4 for e in road) for road in BASE_ROADS[kind])
    ends = 0
    for road in roads:
        ends |= road
    road_at = tuple(next((road for road in roads if road >> e & 1), 0) for e in range(4))
    red = sum(1 << (e + rot) % 4 for e in RED_AXIS.get(kind, ()))
    return ends, roads, road_at, red


# ORIENTATION[kind][rot] for every rotation 0..3 (the tests place any of them).
ORIENTATION = [[_orientation(kind, rot) for rot in range(4)] for kind in TILE_KINDS]


def _distinct_rotations(kind: int) -> tuple[int, ...]:
    seen: set[tuple[frozenset[int], int]] = set()
    keep = []
    for rot in range(4):
        _, roads, _, red = ORIENTATION[kind][rot]
        key = (frozenset(roads), red)
        if key not in seen:
            seen.add(key)
            keep.append(rot)
    return tuple(keep)


ROTATIONS = tuple(_distinct_rotations(kind) for kind in TILE_KINDS)


def _fits(kind: int, sides: int) -> tuple[int, ...]:
    """Distinct rotations of ``kind`` that fit an empty cell whose sides are ``sides``.

    ``sides`` = occupied << 4 | needed: the masks of the cell's sides that touch
    a tile, and of those that touch a road end.  A rotation fits when its road
    ends on occupied sides are exactly the needed ones, and at least one is.
    """
    occupied, needed = sides >> 4, sides & 15
    if not needed or needed & ~occupied:
        return ()
    return tuple(rot for rot in ROTATIONS[kind] if ORIENTATION[kind][rot][0] & occupied == needed)


# FITS[kind][sides]: the placement rule as a lookup table.
FITS = tuple(tuple(_fits(kind, sides) for sides in range(256)) for kind in TILE_KINDS)

# HAND_FITS[hand mask][sides]: every (kind, rotation) placement on a cell with these sides for a hand
# holding the tile kinds of the mask (bit k: kind k), in the first baseline's order (by kind, then
# rotation); HAND_COUNTS is their number.  Only 65 side patterns can fit anything; the rest share ().
_FITTING_SIDES = {sides for sides in range(256) if any(FITS[kind][sides] for kind in TILE_KINDS)}
HAND_FITS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(
        tuple((kind, rot) for kind in TILE_KINDS if mask >> kind & 1 for rot in FITS[kind][sides])
        if sides in _FITTING_SIDES else ()
        for sides in range(256)
    )
    for mask in range(1 << len(TILE_KINDS))
)
HAND_COUNTS = tuple(tuple(len(fits) for fits in row) for row in HAND_FITS)

# EXITS[kind][rot][entry]: the edges a route entering by ``entry`` may leave by (no U-turn).
EXITS = [[tuple(road & ~(1 << e) for e, road in enumerate(o[2])) for o in row] for row in ORIENTATION]
# ROAD_NO[kind][rot][edge]: which of the tile's roads (0 or 1) has an end at the edge.
ROAD_NO = [[tuple(next((i for i, road in enumerate(o[1]) if road >> e & 1), 0) for e in range(4))
            for o in row] for row in ORIENTATION]
OPPOSITE = (S, W, N, E)
# GROWTH[kind][rot][d]: (offset to the cell across side d, what a tile turned so adds to that cell's
# frontier sides: its side facing the tile is occupied, and needs a road end if the tile has one at d).
GROWTH = [[tuple((DELTA[d], (1 << (OPPOSITE[d] + 4)) | ((o[0] >> d & 1) << OPPOSITE[d])) for d in range(4))
           for o in row] for row in ORIENTATION]


class Table:
    """The tiles on the table, one index per tile, in parallel lists.

    ``frontier`` maps every empty cell that touches a tile by a side to
    ``occupied << 4 | needed``: the masks of its sides that touch a tile, and
    of those that touch a road end (the index into ``FITS``).

    ``links[t][x]`` is the tile a road of ``t`` leads into across edge ``x``
    (its road end meets one there), or -1.  ``parent``/``members`` are a
    union-find over the roads (road ``r`` of tile ``t`` is ``2 * t + r``),
    joined where road ends meet: ``members`` of a root is the bitmask of the
    tiles on roads joined to it, a bound on where a route can go.
    """

    def __init__(self) -> None:
        self.board: dict[int, int] = {}  # cell -> tile index
        self.kind: list[int] = []
        self.rot: list[int] = []
        self.cell: list[int] = []
        self.road_at: list[tuple[int, ...]] = []
        self.exits: list[tuple[int, ...]] = []  # EXITS of the tile
        self.road_no: list[tuple[int, ...]] = []  # ROAD_NO of the tile
        self.red: list[int] = []  # red-axis mask; 0 for a tile without a signal
        self.police: list[bool] = []
        self.closed: list[bool] = []
        self.marked: list[bool] = []  # holds a player's marker (a start tile)
        self.links: list[list[int]] = []
        self.parent: list[int] = []
        self.members: list[int] = []
        self.frontier: dict[int, int] = {}
        self.signals: list[int] = []  # tiles with a signal (crossroads)
        self.police_count = 0

    def place(self, kind: int, cell: int, rot: int) -> int:
        """Put a tile on an empty cell (no legality check); return its index."""
        ends, _, road_at, red = ORIENTATION[kind][rot]
        road_no = ROAD_NO[kind][rot]
        board = self.board
        frontier = self.frontier
        i = len(self.kind)
        self.kind.append(kind)
        self.rot.append(rot)
        self.cell.append(cell)
        self.road_at.append(road_at)
        self.exits.append(EXITS[kind][rot])
        self.road_no.append(road_no)
        self.red.append(red)
        self.police.append(False)
        self.closed.append(False)
        self.marked.append(False)
        self.parent += (2 * i, 2 * i + 1)  # two roads per tile (the second unused on most)
        self.members += (1 << i, 1 << i)
        if red:
            self.signals.append(i)
        board[cell] = i
        # The cell's frontier sides say where the tiles around it are, and which have a road end
        # facing it: the empty sides grow the frontier, the road ends meeting ours are linked.
        sides = frontier.pop(cell, 0)
        growth = GROWTH[kind][rot]
        for d in EDGES_OF[~sides >> 4 & 15]:
            delta, bits = growth[d]
            other = cell + delta
            frontier[other] = frontier.get(other, 0) | bits
        row = [-1, -1, -1, -1]
        links = self.links
        for d in EDGES_OF[sides & ends]:  # road meets road
            j = board[cell + DELTA[d]]
            facing = OPPOSITE[d]
            row[d] = j
            links[j][facing] = i
            self.join(2 * i + road_no[d], 2 * j + self.road_no[j][facing])
        links.append(row)
        return i

    def find(self, road: int) -> int:
        """The root of a road in the union-find (with path halving)."""
        parent = self.parent
        while parent[road] != road:
            parent[road] = road = parent[parent[road]]
        return road

    def join(self, a: int, b: int) -> None:
        """Join two roads whose ends meet."""
        a, b = self.find(a), self.find(b)
        if a != b:
            self.parent[b] = a
            self.members[a] |= self.members[b]

    def place_xy(self, kind: int, x: int, y: int, rot: int = 0) -> int:
        """``place`` by coordinates."""
        return self.place(kind, cell_of(x, y), rot)

    def tile_at(self, x: int, y: int) -> int:
        """Index of the tile at (x, y), or -1."""
        return self.board.get(cell_of(x, y), -1)

    def add_police(self, tile: int) -> None:
        """Put a police marker on a tile (a crossroads)."""
        self.police[tile] = True
        self.police_count += 1

    def first_exits(self, start: int, marker: int, passes: int) -> tuple[int, int]:
        """(edges a route leaves the start tile by, passes left), or (0, 0) for no route."""
        road = self.road_at[start][marker]
        red = self.red[start]
        if not red:
            return road, passes
        if self.police[start] and red >> marker & 1:  # as if entering the start tile by the marker's edge
            if passes <= 0:
                return 0, 0
            passes -= 1
        return road & ~(1 << marker), passes

    def route_length(self, start: int, marker: int, passes: int = 0, target: int | None = None) -> int:
        """Longest route from the marker on ``start``, in distinct tiles (start excluded).

        ``marker``: the entry edge on a tile with a signal, else any edge of
        the marker's road.  The search stops once it reaches ``target`` (the
        answer is then at least ``target``, not necessarily the maximum).
        """
        if start < 0:
            return 0
        exits, passes = self.first_exits(start, marker, passes)
        if not exits or target is not None and target <= 0:
            return 0
        limit = self.tiles_reached(start, exits, passes, len(self.kind) if target is None else target)
        return self.walk(start, exits, passes, limit) if limit > 0 else 0

    def reaches(self, start: int, marker: int, passes: int, target: int) -> bool:
        """Whether some route from the marker on ``start`` enters ``target`` (>= 1) distinct tiles.

        The goal check: the cheap bounds first, the walk search only when they
        allow the target."""
        if start < 0 or len(self.kind) <= target:  # fewer tiles than the target besides the start
            return False
        parent = self.parent
        road = 2 * start + self.road_no[start][marker]
        while parent[road] != road:  # self.find(road), without path halving
            road = parent[road]
        if self.members[road].bit_count() <= target:
            return False  # not enough tiles on roads joined to the marker's road (start included)
        exits, passes = self.first_exits(start, marker, passes)
        if not exits or self.tiles_reached(start, exits, passes, target) < target:
            return False
        return self.walk(start, exits, passes, target) >= target

    def tiles_reached(self, start: int, first_exits: int, passes: int, cap: int) -> int:
        """How many tiles besides the start a route could enter at all, counted up to ``cap``.

        An upper bound on the route length: every (tile, exit edge) a route
        could use, found once each; a policed red entry without passes ends
        there (with passes, police are ignored)."""
        links = self.links
        exits_of = self.exits
        closed = self.closed
        police = self.police
        red = self.red
        used = [0] * len(links)  # exit edges already followed, per tile
        used[start] = first_exits
        found = 1 << start
        count = 0
        todo = [(start, first_exits)]
        pop = todo.pop
        push = todo.append
        while todo:
            t, exits = pop()
            row = links[t]
            for x in EDGES_OF[exits]:
                n = row[x]
                if n < 0 or closed[n]:
                    continue
                if not found >> n & 1:
                    found |= 1 << n
                    count += 1
                    if count >= cap:
                        return count
                entry = OPPOSITE[x]
                if not passes and police[n] and red[n] >> entry & 1:
                    continue  # the route ends on this tile
                new = exits_of[n][entry] & ~used[n]
                if new:
                    used[n] |= new
                    push((n, new))
        return count

    def walk(self, start: int, first_exits: int, passes: int, limit: int) -> int:
        """Longest walk from the start tile (as the first baseline searches it), stopping at ``limit``."""
        links = self.links
        exits_of = self.exits
        closed = self.closed
        police = self.police
        red = self.red
        best = 0
        seen: set[tuple[int, int, int, int]] = set()
        add = seen.add
        stack = [(start, first_exits, passes, 1 << start)]
        pop = stack.pop
        push = stack.append
        while stack:
            t, exits, left, visited = pop()
            row = links[t]
            for x in EDGES_OF[exits]:
                n = row[x]
                if n < 0 or closed[n]:
                    continue
                now = visited | 1 << n
                if now != visited:
                    count = now.bit_count() - 1
                    if count > best:
                        best = count
                        if best >= limit:
                            return best
                entry = OPPOSITE[x]
                after = left
                if police[n] and red[n] >> entry & 1:
                    if left <= 0:
                        continue  # the route ends on this tile
                    after = left - 1
                state = (n, entry, after, now)
                if state not in seen:
                    add(state)
                    push((n, exits_of[n][entry], after, now))
        return best


def route_length(table: Table, start: int, marker: int, passes: int = 0, target: int | None = None) -> int:
    """Longest route on ``table`` from a marker on tile ``start`` (see ``Table.route_length``)."""
    return table.route_length(start, marker, passes, target)


def marker_options(kind: int, rot: int) -> list[int]:
    """Marker positions on a placed tile: entry edges on a signal, else one edge per road."""
    ends, roads, _, red = ORIENTATION[kind][rot]
    if red:
        return list(EDGES_OF[ends])
    return [(road & -road).bit_length() - 1 for road in roads]


class LuckyDogGame:
    """One game in progress. Hands and piles in front of players are counts per card kind."""

    def __init__(self, players: int, rng: random.Random) -> None:
        if not 2 <= players <= 4:
            raise ValueError(f"players must be 2..4, got {players}")
        self.players = players
        self.rng = rng
        self.turns = 0
        self.decisions = 0
        self.idle = 0
        self.winner: int | None = None
        self.draw = False
        self.capped = False
        self.over = False
        self.win_route = 0
        self.mover = -1  # the seat whose turn was played last

        self.table = Table()
        self.discard: list[int] = []
        self.front = [[0] * len(KINDS) for _ in range(players)]  # in front of / on each player
        self.hands = [[0] * len(KINDS) for _ in range(players)]
        self.deck = [kind for kind, n in enumerate(DECK_COUNTS) for _ in range(n)]
        rng.shuffle(self.deck)
        for seat in range(players):
            self.deal(seat)

        self.start_tile = [-1] * players
        self.marker = [-1] * players
        self.start_player = self.current = rng.randrange(players)
        for i in range(players):
            self.place_start((self.start_player + i) % players)

    # -- setup -----------------------------------------------------------

    def deal(self, seat: int) -> None:
        """Deal 5 cards; a hand without a road tile goes back and is redealt."""
        hand = self.hands[seat]
        deck = self.deck
        for attempt in range(MAX_REDEALS + 1):
            cards = [deck.pop() for _ in range(HAND_SIZE)]
            if attempt == MAX_REDEALS or any(kind < POLICE for kind in cards):
                break
            deck.extend(cards)
            self.rng.shuffle(deck)
        for kind in cards:
            hand[kind] += 1

    def start_cells(self) -> list[int]:
        """Cells a start tile may go on now."""
        placed = [t for t in self.start_tile if t >= 0]
        if not placed:
            return [ORIGIN]
        table = self.table
        cells = set()
        for t in placed:
            base = table.cell[t]
            for d in DELTA:
                cell = base + 2 * d
                if cell not in table.board and cell not in table.frontier:
                    cells.add(cell)
        return sorted(cells)

    def place_start(self, seat: int) -> None:
        """Start tile decision, marker decision, then refill."""
        hand = self.hands[seat]
        cells = self.start_cells()
        # The options are (kind, cell, rotation) for each kind held, cell, distinct rotation, in
        # that order: counted, and the one a random number stands for worked out.
        held = [kind for kind in TILE_KINDS if hand[kind]]
        total = len(cells) * sum(len(ROTATIONS[kind]) for kind in held)
        if total:  # always, unless 100 redeals all failed
            k = self.rng.randrange(total)
            for kind in held:
                rots = ROTATIONS[kind]
                if k < len(cells) * len(rots):
                    cell, rot = cells[k // len(rots)], rots[k % len(rots)]
                    break
                k -= len(cells) * len(rots)
            self.decisions += 1
            hand[kind] -= 1
            tile = self.table.place(kind, cell, rot)
            self.table.marked[tile] = True
            self.start_tile[seat] = tile
            self.marker[seat] = self.rng.choice(marker_options(kind, rot))
            self.decisions += 1
        self.refill(hand)

    # -- decisions -------------------------------------------------------
    # road_options and effect_options list the options (for the tests); a turn counts them and
    # works out the one a random number stands for, in the same order (road_option, effect_option).

    def road_options(self, seat: int) -> list[tuple[int, int, int] | None]:
        """None (play no tile) and every distinct (kind, cell, rotation) placement."""
        fits = HAND_FITS[self.tile_mask(seat)]
        options: list[tuple[int, int, int] | None] = [None]
        for cell, sides in self.table.frontier.items():
            options.extend((kind, cell, rot) for kind, rot in fits[sides])
        return options

    def tile_mask(self, seat: int) -> int:
        """The tile kinds in the hand, as a mask (bit k: kind k)."""
        hand = self.hands[seat]
        return (
            (hand[STRAIGHT] > 0) | (hand[CURVE] > 0) << 1 | (hand[T_JUNCTION] > 0) << 2
            | (hand[CROSSROADS] > 0) << 3 | (hand[ROUNDABOUT] > 0) << 4 | (hand[DOUBLE_CURVE] > 0) << 5
            | (hand[DEAD_END] > 0) << 6
        )

    def road_option(self, seat: int) -> tuple[int, int, int] | None:
        """A uniformly random road option, drawn as ``rng.choice(self.road_options(seat))`` would."""
        hand = self.hands[seat]
        mask = (  # self.tile_mask(seat)
            (hand[STRAIGHT] > 0) | (hand[CURVE] > 0) << 1 | (hand[T_JUNCTION] > 0) << 2
            | (hand[CROSSROADS] > 0) << 3 | (hand[ROUNDABOUT] > 0) << 4 | (hand[DOUBLE_CURVE] > 0) << 5
            | (hand[DEAD_END] > 0) << 6
        )
        frontier = self.table.frontier
        if not mask:
            self.rng.randrange(1)  # (the first baseline's choice from [None] draws a number too)
            return None
        # The placements counted per empty cell (a table lookup each, done in C by itemgetter) and
        # added up; a random number then stands for one, found by bisection: the cell, then one of its
        # fits.  (itemgetter of one key gives the count itself, not a 1-tuple.)
        if len(frontier) > 1:
            upto = list(accumulate(itemgetter(*frontier.values())(HAND_COUNTS[mask])))
        else:
            upto = [HAND_COUNTS[mask][sides] for sides in frontier.values()]
        k = self.rng.randrange(1 + upto[-1] if upto else 1) - 1
        if k < 0:
            return None
        i = bisect_right(upto, k)
        cell = next(islice(frontier, i, None))
        kind, rot = HAND_FITS[mask][frontier[cell]][k - upto[i - 1] if i else k]
        return kind, cell, rot

    def effect_options(self, seat: int) -> list[tuple[int, int] | None]:
        """None (stop) and every (effect kind, target) the player may play."""
        hand = self.hands[seat]
        table = self.table
        options: list[tuple[int, int] | None] = [None]
        if hand[POLICE] and table.police_count < POLICE_MARKERS:
            police = table.police
            options.extend((POLICE, t) for t in table.signals if not police[t])
        if hand[CONSTRUCTION]:
            closed = table.closed
            marked = table.marked
            options.extend((CONSTRUCTION, t) for t in range(len(closed)) if not closed[t] and not marked[t])
        if hand[RUN_RED_LIGHT]:
            options.append((RUN_RED_LIGHT, seat))
        if hand[ACCELERATE]:
            options.append((ACCELERATE, seat))
        if hand[DETOUR]:
            options.extend((DETOUR, other) for other in range(self.players) if other != seat)
        return options

    def effect_option(self, seat: int) -> tuple[int, int] | None:
        """A uniformly random effect option, drawn as ``rng.choice(self.effect_options(seat))`` would.

        The police and construction options are counted (police stand only on
        signals, and no marked tile is closed), the others are a few."""
        hand = self.hands[seat]
        table = self.table
        police = len(table.signals) - table.police_count if hand[POLICE] and table.police_count < POLICE_MARKERS else 0
        building = len(table.kind) - sum(table.closed) - sum(table.marked) if hand[CONSTRUCTION] else 0
        k = self.rng.randrange(
            1 + police + building + (hand[RUN_RED_LIGHT] > 0) + (hand[ACCELERATE] > 0)
            + (self.players - 1 if hand[DETOUR] else 0)
        )
        if not k:
            return None
        k -= 1
        if k < police:
            policed = table.police
            for t in table.signals:
                if not policed[t]:
                    if not k:
                        return POLICE, t
                    k -= 1
        k -= police
        if k < building:
            closed = table.closed
            marked = table.marked
            for t in range(len(closed)):
                if not closed[t] and not marked[t]:
                    if not k:
                        return CONSTRUCTION, t
                    k -= 1
        k -= building
        if hand[RUN_RED_LIGHT]:
            if not k:
                return RUN_RED_LIGHT, seat
            k -= 1
        if hand[ACCELERATE]:
            if not k:
                return ACCELERATE, seat
            k -= 1
        return DETOUR, k + (k >= seat)  # the k-th other seat

    # -- turn ------------------------------------------------------------

    def target(self, seat: int) -> int:
        """Route length the player needs to win."""
        front = self.front[seat]
        return max(1, BASE_TARGET - front[ACCELERATE] + 2 * front[DETOUR])

    def route(self, seat: int, target: int | None = None) -> int:
        """The player's route length (searched up to ``target``)."""
        return self.table.route_length(
            self.start_tile[seat], self.marker[seat], self.front[seat][RUN_RED_LIGHT], target
        )

    def play_turn(self) -> None:
        """One full turn of the current player, with random choices."""
        seat = self.current
        hand = self.hands[seat]
        table = self.table
        played = False

        placement = self.road_option(seat)
        self.decisions += 1
        if placement is not None:
            kind, cell, rot = placement
            hand[kind] -= 1
            table.place(kind, cell, rot)
            played = True

        for _ in range(MAX_EFFECTS):
            if not (hand[POLICE] or hand[CONSTRUCTION] or hand[RUN_RED_LIGHT] or hand[ACCELERATE] or hand[DETOUR]):
                break
            effect = self.effect_option(seat)
            self.decisions += 1
            if effect is None:
                break
            kind, arg = effect
            hand[kind] -= 1
            played = True
            if kind == POLICE:
                table.add_police(arg)
                self.discard.append(kind)
            elif kind == CONSTRUCTION:
                table.closed[arg] = True
                self.discard.append(kind)
            else:  # run-red-light and accelerate: arg is the seat; detour: the other player
                self.front[arg][kind] += 1

        self.turns += 1
        self.mover = seat
        front = self.front[seat]
        target = max(1, BASE_TARGET - front[ACCELERATE] + 2 * front[DETOUR])  # self.target(seat)
        # Only whether the target is reached matters; a won route is then counted as the first
        # baseline's search stops, at the target.
        if table.reaches(self.start_tile[seat], self.marker[seat], front[RUN_RED_LIGHT], target):
            self.winner = seat
            self.win_route = target
            self.over = True
            return

        self.idle = 0 if played else self.idle + 1
        if self.idle >= self.players:
            self.draw = self.over = True
            return
        if self.deck:  # (a refill from a deck with cards leaves a card in this hand: no draw)
            self.refill(hand)
        elif not any(map(any, self.hands)):
            self.draw = self.over = True
            return
        self.current = (seat + 1) % self.players

    def refill(self, hand: list[int]) -> None:
        """Draw up to HAND_SIZE while the deck has cards (no reshuffle)."""
        deck = self.deck
        need = HAND_SIZE - sum(hand)
        while need > 0 and deck:
            hand[deck.pop()] += 1
            need -= 1

    # -- checks and end ----------------------------------------------------

    def cards_accounted(self) -> int:
        """Cards in deck, hands, on the table, discard and in front of players (always 52)."""
        return (
            len(self.deck)
            + sum(sum(hand) for hand in self.hands)
            + len(self.table.kind)
            + len(self.discard)
            + sum(sum(front) for front in self.front)
        )

    def result(self) -> dict[str, Any]:
        """Outcome and a few statistics as a plain dict."""
        return {
            "winner": self.winner,
            "draw": self.draw,
            "capped": self.capped,
            "turns": self.turns,
            "decisions": self.decisions,
            "start_player": self.start_player,
            "tiles": len(self.table.kind),
            "targets": [self.target(seat) for seat in range(self.players)],
            "route": self.win_route if self.winner is not None else None,
        }


def play_random_game(
    players: int,
    rng: random.Random,
    on_turn: Callable[[LuckyDogGame], None] | None = None,
) -> dict[str, Any]:
    """Play one game with uniformly random players and return its result.

    ``on_turn`` is a debug hook called with the game after setup and after
    every turn (the tests use it to check card conservation and the table).
    """
    game = LuckyDogGame(players, rng)
    if on_turn is not None:
        on_turn(game)
    while not game.over:
        if game.turns >= STEP_CAP:
            game.capped = game.over = True
            break
        game.play_turn()
        if on_turn is not None:
            on_turn(game)
    return game.result()


if __name__ == "__main__":
    print(play_random_game(4, random.Random(0)))
