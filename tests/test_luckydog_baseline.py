"""Invariants of the hand-written Lucky Dog baselines: the tuned one (bench/luckydog_baseline.py)
and the first one, kept to measure it against (bench/luckydog_baseline_old.py). Both play these rules.

The route checks use ``reference_route``, written here from the rules alone: it
reads the table by coordinates and turns the tiles' roads itself, and searches
every walk without stopping early.
"""

from __future__ import annotations

import copy
import importlib
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
ld = importlib.import_module("bench.luckydog_baseline")  # (the helpers read its constants: the same in both)
BASELINES = ["bench.luckydog_baseline", "bench.luckydog_baseline_old"]


@pytest.fixture(name="ld", params=BASELINES)
def _ld(request):  # each test runs on both baselines
    return importlib.import_module(request.param)


GAMES_PER_COUNT = 200
STEP = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}  # N, E, S, W; y grows north


# ---------------------------------------------------------------- an independent route search

def rotated_roads(kind: int, rot: int) -> list[frozenset[int]]:
    return [frozenset((e + rot) % 4 for e in road) for road in ld.BASE_ROADS[kind]]


def reference_route(table: ld.Table, start: int, marker: int, passes: int) -> int:
    """Most distinct tiles (start excluded) any walk from the marker enters."""
    at = {ld.xy_of(cell): t for t, cell in enumerate(table.cell)}
    xy = [ld.xy_of(cell) for cell in table.cell]
    roads = [rotated_roads(k, r) for k, r in zip(table.kind, table.rot)]
    red = [frozenset((e + r) % 4 for e in ld.RED_AXIS.get(k, ())) for k, r in zip(table.kind, table.rot)]

    def road_at(t: int, edge: int) -> frozenset[int] | None:
        return next((road for road in roads[t] if edge in road), None)

    def stops(t: int, edge: int) -> bool:
        return table.police[t] and edge in red[t]

    first = road_at(start, marker)
    if first is None:
        return 0
    if red[start]:
        if stops(start, marker):
            if passes == 0:
                return 0
            passes -= 1
        first = first - {marker}
    best = 0
    seen = set()
    todo = [(start, first, passes, frozenset())]
    while todo:
        t, exits, left, entered = todo.pop()
        for x in exits:
            n = at.get((xy[t][0] + STEP[x][0], xy[t][1] + STEP[x][1]))
            entry = (x + 2) % 4
            if n is None or table.closed[n] or road_at(n, entry) is None:
                continue
            now = entered if n == start else entered | {n}
            best = max(best, len(now))
            if stops(n, entry):
                if left == 0:
                    continue
                left_after = left - 1
            else:
                left_after = left
            state = (n, entry, left_after, now)
            if state not in seen:
                seen.add(state)
                todo.append((n, road_at(n, entry) - {entry}, left_after, now))
    return best


# ---------------------------------------------------------------- tiles and the seed's example

def test_distinct_rotations(ld) -> None:
    assert ld.ROTATIONS == ((0, 1), (0, 1, 2, 3), (0, 1, 2, 3), (0, 1), (0,), (0, 1), (0, 1, 2, 3))
    # Rotation turns clockwise: a curve N-E at r=2 joins S-W; the crossroads' red axis turns too.
    assert rotated_roads(ld.CURVE, 2) == [frozenset({ld.S, ld.W})]
    assert ld.ORIENTATION[ld.CROSSROADS][1][3] == 1 << ld.E | 1 << ld.W
    assert ld.ORIENTATION[ld.DOUBLE_CURVE][0][2] == (0b1001, 0b0110, 0b0110, 0b1001)


def seed_table(ld) -> tuple[ld.Table, int, int]:
    """The seed's worked example: (table, upper crossroads, roundabout)."""
    table = ld.Table()
    roundabout = table.place_xy(ld.ROUNDABOUT, 0, 0)
    table.place_xy(ld.DOUBLE_CURVE, 1, 0, 0)  # W-N and S-E
    upper = table.place_xy(ld.CROSSROADS, 1, 1, 0)  # red axis N-S
    table.place_xy(ld.CROSSROADS, 2, 0, 1)
    table.place_xy(ld.CURVE, 2, 1, 2)  # W-S
    table.place_xy(ld.CURVE, 1, -1, 0)  # N-E
    return table, upper, roundabout


def test_seed_example_five(ld) -> None:
    table, _, start = seed_table(ld)
    marker = ld.marker_options(ld.ROUNDABOUT, 0)
    assert marker == [ld.N]  # one road: one marker position
    assert ld.route_length(table, start, ld.N) == 5
    assert reference_route(table, start, ld.N, 0) == 5
    assert ld.route_length(table, start, ld.N, target=3) == 3  # stops once the target is reached


def test_seed_example_police_two_or_five_with_a_pass(ld) -> None:
    table, upper, start = seed_table(ld)
    table.add_police(upper)
    assert ld.route_length(table, start, ld.N) == 2
    assert ld.route_length(table, start, ld.N, passes=1) == 5
    assert reference_route(table, start, ld.N, 0) == 2
    assert reference_route(table, start, ld.N, 1) == 5


def test_seed_example_top_left_curve_six(ld) -> None:
    table, upper, start = seed_table(ld)
    table.add_police(upper)
    table.place_xy(ld.CURVE, 0, 1, 1)  # S-E
    assert ld.route_length(table, start, ld.N) == 6
    assert reference_route(table, start, ld.N, 0) == 6


def test_closed_tiles_and_signal_starts(ld) -> None:
    table, upper, start = seed_table(ld)
    table.closed[table.tile_at(2, 1)] = True
    # (1,0) then (1,1), whose other exits lead nowhere: the S-E road of (1,0) is only reached via (2,1).
    assert ld.route_length(table, start, ld.N) == 2
    assert reference_route(table, start, ld.N, 0) == 2
    table.closed[table.tile_at(2, 1)] = False
    table.closed[table.tile_at(1, 0)] = True
    assert ld.route_length(table, start, ld.N) == 0
    # A crossroads start: entered by its marker edge, red without a pass counts 0.
    table = ld.Table()
    cross = table.place_xy(ld.CROSSROADS, 0, 0, 0)
    table.place_xy(ld.STRAIGHT, 1, 0, 1)  # two tiles to the east, one to the west
    table.place_xy(ld.STRAIGHT, 2, 0, 1)
    table.place_xy(ld.STRAIGHT, -1, 0, 1)
    table.add_police(cross)  # red axis N-S
    assert ld.route_length(table, cross, ld.W) == 2  # green entry; never back out by W
    assert ld.route_length(table, cross, ld.E) == 1
    assert ld.route_length(table, cross, ld.N) == 0  # red, no pass
    assert ld.route_length(table, cross, ld.S) == 0
    assert ld.route_length(table, cross, ld.N, passes=1) == 2
    assert reference_route(table, cross, ld.N, 1) == 2
    table.police[cross] = False
    assert ld.route_length(table, cross, ld.N) == 2
    assert ld.marker_options(ld.CROSSROADS, 0) == [0, 1, 2, 3]
    assert ld.marker_options(ld.DOUBLE_CURVE, 1) == [ld.N, ld.S]  # roads N-E and S-W: first ends


# ---------------------------------------------------------------- decisions

def empty_game(ld, players: int = 3) -> ld.LuckyDogGame:
    game = ld.LuckyDogGame(players, random.Random(7))
    game.table = ld.Table()
    game.hands = [[0] * len(ld.KINDS) for _ in range(players)]
    game.start_tile = [-1] * players
    game.marker = [-1] * players
    return game


def test_road_options_match_edges(ld) -> None:
    game = empty_game(ld)
    game.table.place_xy(ld.DEAD_END, 0, 0, 0)  # one road end, to the north
    game.hands[0][ld.STRAIGHT] = 2
    game.hands[0][ld.CURVE] = 1
    options = game.road_options(0)
    assert options[0] is None
    placed = {(ld.KINDS[k], ld.xy_of(c), r) for k, c, r in options[1:]}
    # Only (0, 1) joins a road; it needs a road end at S and nothing else touches it.
    assert placed == {("straight", (0, 1), 0), ("curve", (0, 1), 1), ("curve", (0, 1), 2)}
    assert len(options) == len(set(options))


def test_effect_options(ld) -> None:
    game = empty_game(ld, 4)
    table = game.table
    cross = table.place_xy(ld.CROSSROADS, 0, 0, 0)
    table.marked[cross] = True
    other = table.place_xy(ld.CROSSROADS, 1, 0, 0)
    table.place_xy(ld.STRAIGHT, 0, 1, 0)
    hand = game.hands[2]
    assert game.effect_options(2) == [None]
    for kind in ld.EFFECT_KINDS:
        hand[kind] = 1
    options = game.effect_options(2)
    assert options[0] is None
    assert sorted(o for o in options[1:]) == sorted([
        (ld.POLICE, cross), (ld.POLICE, other),
        (ld.CONSTRUCTION, other), (ld.CONSTRUCTION, 2),
        (ld.RUN_RED_LIGHT, 2), (ld.ACCELERATE, 2),
        (ld.DETOUR, 0), (ld.DETOUR, 1), (ld.DETOUR, 3),
    ])


def test_start_cells(ld) -> None:
    game = empty_game(ld, 3)
    assert game.start_cells() == [ld.ORIGIN]
    game.start_tile = [game.table.place_xy(ld.STRAIGHT, 0, 0), -1, -1]
    assert sorted(ld.xy_of(c) for c in game.start_cells()) == [(-2, 0), (0, -2), (0, 2), (2, 0)]
    game.start_tile[1] = game.table.place_xy(ld.STRAIGHT, 2, 0)
    # (4,0) (2,2) (2,-2) join; (0,2) and (0,-2) stay; nothing touching a tile by a side.
    assert sorted(ld.xy_of(c) for c in game.start_cells()) == [
        (-2, 0), (0, -2), (0, 2), (2, -2), (2, 2), (4, 0)]


# ---------------------------------------------------------------- random games

def check_table(table: ld.Table) -> None:
    cells = [ld.xy_of(c) for c in table.cell]
    assert len(set(cells)) == len(cells) == len(table.board)
    at = {xy: t for t, xy in enumerate(cells)}
    for t, (x, y) in enumerate(cells):
        ends = {e for road in rotated_roads(table.kind[t], table.rot[t]) for e in road}
        for edge, (dx, dy) in STEP.items():
            n = at.get((x + dx, y + dy))
            if n is None:
                continue
            theirs = {e for road in rotated_roads(table.kind[n], table.rot[n]) for e in road}
            assert (edge in ends) == ((edge + 2) % 4 in theirs), f"tile {t} edge {edge}"
    assert sum(table.police) == table.police_count <= ld.POLICE_MARKERS
    assert all(table.kind[t] == ld.CROSSROADS for t, p in enumerate(table.police) if p)
    assert not any(c and m for c, m in zip(table.closed, table.marked))


def check_setup(game: ld.LuckyDogGame) -> None:
    table = game.table
    starts = [game.start_tile[(game.start_player + i) % game.players] for i in range(game.players)]
    assert starts == list(range(game.players))  # one start tile each, in turn order
    assert table.cell[0] == ld.ORIGIN
    for t in starts[1:]:
        x, y = ld.xy_of(table.cell[t])
        earlier = [ld.xy_of(table.cell[s]) for s in range(t)]
        assert any((x == ex and abs(y - ey) == 2) or (y == ey and abs(x - ex) == 2) for ex, ey in earlier)
        assert all(abs(x - ex) + abs(y - ey) > 1 for ex, ey in earlier)
    for seat, t in enumerate(game.start_tile):
        kind, rot = table.kind[t], table.rot[t]
        assert game.marker[seat] in ld.marker_options(kind, rot)


def make_checker(games: list[ld.LuckyDogGame]):
    def check(game: ld.LuckyDogGame) -> None:
        assert game.cards_accounted() == ld.CARDS
        assert all(0 <= n for hand in game.hands for n in hand)
        assert all(sum(hand) <= ld.HAND_SIZE for hand in game.hands)
        check_table(game.table)
        if game.turns == 0:
            check_setup(game)
            games.append(game)
            return
        seat = game.mover
        passes = game.front[seat][ld.RUN_RED_LIGHT]
        length = reference_route(game.table, game.start_tile[seat], game.marker[seat], passes)
        assert (length >= game.target(seat)) == (game.winner == seat)
    return check


@pytest.mark.parametrize("players", [3, 4])
def test_random_games_keep_invariants(ld, players: int) -> None:
    outcomes = {"win": 0, "draw": 0, "cap": 0}
    for seed in range(GAMES_PER_COUNT):
        games: list[ld.LuckyDogGame] = []
        result = ld.play_random_game(players, random.Random(seed * 10 + players), make_checker(games))
        (game,) = games
        ends = [result["winner"] is not None, result["draw"], result["capped"]]
        assert sum(ends) == 1
        if result["winner"] is not None:
            outcomes["win"] += 1
            seat = result["winner"]
            assert result["route"] >= result["targets"][seat]
            assert game.current == seat
        elif result["draw"]:
            outcomes["draw"] += 1
            assert game.idle >= players or (not game.deck and not any(map(any, game.hands)))
        else:
            outcomes["cap"] += 1
        assert result["turns"] == game.turns
        assert result["tiles"] == len(game.table.kind)
    assert outcomes["win"] > 0 and outcomes["draw"] > 0
    # Every turn either plays a card or counts towards a round without play: far below the cap.
    assert outcomes["cap"] == 0


# ---------------------------------------------------------------- the tuned baseline against the first

def test_both_baselines_share_the_rules_constants() -> None:
    tuned, old = (importlib.import_module(m) for m in BASELINES)
    for name in ("KINDS", "DECK_COUNTS", "BASE_ROADS", "RED_AXIS", "HAND_SIZE", "MAX_REDEALS", "MAX_EFFECTS",
                 "POLICE_MARKERS", "BASE_TARGET", "STEP_CAP", "ORIENTATION", "ROTATIONS", "FITS"):
        assert getattr(tuned, name) == getattr(old, name), name


def as_first(game, old):
    """The first baseline's game at the same position as a game of the tuned one: the same
    tiles placed in the same order (so the same empty cells, in the same order), police,
    closures, hands, fronts, deck and markers."""
    twin = old.LuckyDogGame.__new__(old.LuckyDogGame)
    twin.__dict__.update(copy.deepcopy({k: v for k, v in vars(game).items() if k not in ("table", "rng")}))
    twin.rng = random.Random(0)
    table = game.table
    twin.table = old.Table()
    for kind, cell, rot in zip(table.kind, table.cell, table.rot):
        twin.table.place(kind, cell, rot)
    for t, policed in enumerate(table.police):
        if policed:
            twin.table.add_police(t)
    twin.table.closed[:] = table.closed
    twin.table.marked[:] = table.marked
    assert list(twin.table.frontier.items()) == list(table.frontier.items())
    return twin


class Fixed:
    """Stands in for the random generator: every number drawn is ``k`` (checked to be in range)."""

    def __init__(self, k: int) -> None:
        self.k = k

    def randrange(self, n: int) -> int:
        assert 0 <= self.k < n
        return self.k


def test_the_tuned_baseline_has_the_first_ones_options_and_goal_checks() -> None:
    """From the same positions (every turn of random games of the tuned baseline, made again on the
    first's table): the same road and effect options in the same order; the tuned turn picks
    each option for its number (it counts them and works out the k-th, without the list); and the
    same goal check (whether some route reaches the target) for every seat, target and pass count."""
    tuned, old = (importlib.import_module(m) for m in BASELINES)
    positions = checks = policed = closed = 0

    def check(game) -> None:
        nonlocal positions, checks, policed, closed
        twin = as_first(game, old)
        policed += any(game.table.police)
        closed += any(game.table.closed)
        seat = game.current
        for listed, pick in (("road_options", "road_option"), ("effect_options", "effect_option")):
            options = getattr(game, listed)(seat)
            assert options == getattr(twin, listed)(seat)
            rng = game.rng
            for k, option in enumerate(options):
                game.rng = Fixed(k)
                assert getattr(game, pick)(seat) == option, (listed, k)
            game.rng = rng
        for who in range(game.players):
            start, marker = game.start_tile[who], game.marker[who]
            for passes in (0, 1):
                for target in range(1, 13):
                    first = twin.table.route_length(start, marker, passes, target) >= target
                    assert game.table.reaches(start, marker, passes, target) == first
                    checks += 1
        positions += 1

    for seed in range(40):
        game = tuned.LuckyDogGame(3 + seed % 2, random.Random(seed))
        while not game.over:
            check(game)
            game.play_turn()
    assert positions > 1000 and checks > 100_000
    assert policed > 300 and closed > 100, (policed, closed)


@pytest.mark.parametrize("players", [3, 4])
def test_the_tuned_baseline_plays_the_same_game_as_the_first(players: int) -> None:
    """It draws its random numbers as the first draws its choices from its lists of options, so one
    seed plays one game in both: the same table, hands and fronts after every turn, the same result."""
    tuned, old = (importlib.import_module(m) for m in BASELINES)

    def trace(module, seed: int) -> tuple[list, dict]:
        seen: list = []

        def record(game) -> None:
            table = game.table
            seen.append((game.current, game.mover, game.idle, list(table.kind), list(table.cell), list(table.rot),
                         list(table.police), list(table.closed), copy.deepcopy(game.hands),
                         copy.deepcopy(game.front), list(game.deck), game.start_tile, game.marker))

        result = module.play_random_game(players, random.Random(seed), record)
        return seen, result

    for seed in range(300):
        assert trace(tuned, seed) == trace(old, seed), seed
    for seed in range(300, 3000):
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        assert tuned.play_random_game(players, rng_a) == old.play_random_game(players, rng_b), seed
        assert rng_a.random() == rng_b.random()  # and the same random numbers drawn
