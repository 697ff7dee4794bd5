"""Hand-written baseline, the first one (untuned): Lucky Dog (臺灣賽道) played by random bots.

Kept unchanged to measure the tuned baseline (``bench/luckydog_baseline.py``)
against, in the same run of ``bench/run.py``. It was the reference point for
the interpreter benchmark: plain Python, plain lists, ints and dicts, no DSL.
It follows the rules of
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
"""

from __future__ import annotations

import random
from collections.abc import Callable
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


class Table:
    """The tiles on the table, one index per tile, in parallel lists.

    ``frontier`` maps every empty cell that touches a tile by a side to
    ``occupied << 4 | needed``: the masks of its sides that touch a tile, and
    of those that touch a road end (the index into ``FITS``).
    """

    def __init__(self) -> None:
        self.board: dict[int, int] = {}  # cell -> tile index
        self.kind: list[int] = []
        self.rot: list[int] = []
        self.cell: list[int] = []
        self.ends: list[int] = []
        self.road_at: list[tuple[int, ...]] = []
        self.red: list[int] = []  # red-axis mask; 0 for a tile without a signal
        self.police: list[bool] = []
        self.closed: list[bool] = []
        self.marked: list[bool] = []  # holds a player's marker (a start tile)
        self.neighbours: list[list[int]] = []  # tile across N, E, S, W, or -1
        self.frontier: dict[int, int] = {}
        self.signals: list[int] = []  # tiles with a signal (crossroads)
        self.police_count = 0

    def place(self, kind: int, cell: int, rot: int) -> int:
        """Put a tile on an empty cell (no legality check); return its index."""
        ends, _, road_at, red = ORIENTATION[kind][rot]
        board = self.board
        frontier = self.frontier
        i = len(self.kind)
        self.kind.append(kind)
        self.rot.append(rot)
        self.cell.append(cell)
        self.ends.append(ends)
        self.road_at.append(road_at)
        self.red.append(red)
        self.police.append(False)
        self.closed.append(False)
        self.marked.append(False)
        if red:
            self.signals.append(i)
        board[cell] = i
        frontier.pop(cell, None)
        row = [-1, -1, -1, -1]
        for d in range(4):
            other = cell + DELTA[d]
            facing = (d + 2) & 3
            j = board.get(other)
            if j is None:
                sides = frontier.get(other, 0) | 1 << (facing + 4)
                if ends >> d & 1:
                    sides |= 1 << facing
                frontier[other] = sides
            else:
                row[d] = j
                self.neighbours[j][facing] = i
        self.neighbours.append(row)
        return i

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

    def route_length(self, start: int, marker: int, passes: int = 0, target: int | None = None) -> int:
        """Longest route from the marker on ``start``, in distinct tiles (start excluded).

        ``marker``: the entry edge on a tile with a signal, else any edge of
        the marker's road.  The search stops once it reaches ``target`` (the
        answer is then at least ``target``, not necessarily the maximum).
        """
        if start < 0:
            return 0
        road = self.road_at[start][marker]
        if not road:
            return 0
        if self.red[start]:  # as if entering the start tile by the marker's edge
            if self.police[start] and self.red[start] >> marker & 1:
                if passes <= 0:
                    return 0
                passes -= 1
            first_exits = road & ~(1 << marker)
        else:
            first_exits = road
        limit = self.reachable(start, first_exits)
        if target is not None and target < limit:
            limit = target
        if limit <= 0:
            return 0

        neighbours = self.neighbours
        road_at = self.road_at
        closed = self.closed
        police = self.police
        red = self.red
        start_bit = 1 << start
        best = 0
        seen: set[tuple[int, int, int, int]] = set()
        stack = [(start, first_exits, passes, start_bit)]
        while stack:
            t, exits, left, visited = stack.pop()
            row = neighbours[t]
            for x in EDGES_OF[exits]:
                n = row[x]
                if n < 0 or closed[n]:
                    continue
                entry = (x + 2) & 3
                path = road_at[n][entry]
                if not path:
                    continue
                now = visited | 1 << n
                if now != visited:
                    count = now.bit_count() - 1
                    if count > best:
                        best = count
                        if best >= limit:
                            return best
                after = left
                if police[n] and red[n] >> entry & 1:
                    if left <= 0:
                        continue  # the route ends on this tile
                    after = left - 1
                state = (n, entry, after, now)
                if state not in seen:
                    seen.add(state)
                    stack.append((n, path & ~(1 << entry), after, now))
        return best

    def reachable(self, start: int, first_exits: int) -> int:
        """Tiles other than the start that any route could enter at all (an upper bound)."""
        neighbours = self.neighbours
        road_at = self.road_at
        closed = self.closed
        ends = self.ends
        found = {start}
        todo = [(start, first_exits)]
        start_opened = False  # a route back through the start may leave by its other roads
        while todo:
            t, exits = todo.pop()
            row = neighbours[t]
            for x in EDGES_OF[exits]:
                n = row[x]
                if n < 0 or closed[n] or not road_at[n][(x + 2) & 3]:
                    continue
                if n == start:
                    if not start_opened:
                        start_opened = True
                        todo.append((n, ends[n]))
                    continue
                if n not in found:
                    found.add(n)
                    todo.append((n, ends[n]))
        return len(found) - 1


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
        options = [
            (kind, cell, rot)
            for kind in TILE_KINDS
            if hand[kind]
            for cell in cells
            for rot in ROTATIONS[kind]
        ]
        if options:  # always, unless 100 redeals all failed
            kind, cell, rot = self.rng.choice(options)
            self.decisions += 1
            hand[kind] -= 1
            tile = self.table.place(kind, cell, rot)
            self.table.marked[tile] = True
            self.start_tile[seat] = tile
            self.marker[seat] = self.rng.choice(marker_options(kind, rot))
            self.decisions += 1
        self.refill(hand)

    # -- decisions -------------------------------------------------------

    def road_options(self, seat: int) -> list[tuple[int, int, int] | None]:
        """None (play no tile) and every distinct (kind, cell, rotation) placement."""
        hand = self.hands[seat]
        kinds = [(kind, FITS[kind]) for kind in TILE_KINDS if hand[kind]]
        options: list[tuple[int, int, int] | None] = [None]
        if not kinds:
            return options
        for cell, sides in self.table.frontier.items():
            for kind, fits in kinds:
                for rot in fits[sides]:
                    options.append((kind, cell, rot))
        return options

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
        rng = self.rng
        table = self.table
        played = False

        placement = rng.choice(self.road_options(seat))
        self.decisions += 1
        if placement is not None:
            kind, cell, rot = placement
            hand[kind] -= 1
            table.place(kind, cell, rot)
            played = True

        for _ in range(MAX_EFFECTS):
            if not (hand[POLICE] or hand[CONSTRUCTION] or hand[RUN_RED_LIGHT] or hand[ACCELERATE] or hand[DETOUR]):
                break
            effect = rng.choice(self.effect_options(seat))
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
        target = self.target(seat)
        length = self.route(seat, target)
        if length >= target:
            self.winner = seat
            self.win_route = length
            self.over = True
            return

        self.idle = 0 if played else self.idle + 1
        if self.idle >= self.players:
            self.draw = self.over = True
            return
        self.refill(hand)
        if not self.deck and not any(any(h) for h in self.hands):
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
